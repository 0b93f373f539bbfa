"""A policy that learns to beat random play, trained through the PettingZoo adapter.

    python examples/learn_against_random.py --game big-cheese --players 3 --games 2000

A linear softmax policy over the legal actions (logit of action a: `b[a] + W[a] . x`, with x
the agent's bounded observation vector), trained with REINFORCE against a random opponent:
after each game, every move the learner made is pushed towards (reward - baseline), where the
reward is its win share and the baseline a running mean.  Seats alternate game by game.
Every `--every` games the policy (sampling, as it trains; untrained it is uniform random)
plays `--eval` fresh games against random (seeds
disjoint from training); the curve printed is its win share with a 95% Wilson interval
against the fair share of a random player.  CPU only, a few minutes for a few thousand
games.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

import numpy as np

from engines.adapters.pettingzoo import env as make_env


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    share = wins / games
    denominator = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / denominator
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class LinearPolicy:
    """Softmax over the legal actions of `b[a] + W[a] . x`."""

    def __init__(self, actions: int, features: int, seed: int):
        self.weights = np.zeros((actions, features), np.float64)
        self.bias = np.zeros(actions, np.float64)
        self.rng = np.random.default_rng(seed)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.bias[legal] + self.weights[legal] @ x
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, legal: np.ndarray, greedy: bool) -> int:
        p = self.probabilities(x, legal)
        index = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[index])

    def reinforce(self, moves: list[tuple[np.ndarray, np.ndarray, int]], advantage: float,
                  rate: float) -> None:
        for x, legal, action in moves:
            p = self.probabilities(x, legal)
            grad = -p
            grad[int(np.flatnonzero(legal == action)[0])] += 1.0
            step = rate * advantage / (1.0 + float(x @ x))  # normalized: x has ~1,000 entries
            self.bias[legal] += rate * advantage * grad
            self.weights[legal] += step * np.outer(grad, x)


def play(environment, policy: LinearPolicy, learner: str, seed: int, greedy: bool,
         rng: random.Random):
    """One game; returns the learner's win share and its moves (x, legal, action)."""
    environment.reset(seed=seed)
    moves = []
    result = 0.0
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        if agent == learner:
            result += reward
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        if agent == learner:
            x = observation["observation"].astype(np.float64)
            action = policy.act(x, legal, greedy)
            moves.append((x, legal, action))
        else:
            action = int(rng.choice(legal.tolist()))
        environment.step(action)
    return result, moves


def evaluate(environment, policy: LinearPolicy, games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    wins = 0.0
    for k in range(games):
        learner = environment.possible_agents[k % 2]
        share, _ = play(environment, policy, learner, 10**9 + seed * 10**5 + k, False, rng)
        wins += share
    return wins, games


def train(game: str = "big-cheese", players: int = 3, games: int = 2000, every: int = 500,
          evaluation: int = 300, rate: float = 0.1, seed: int = 1,
          out=sys.stdout) -> list[tuple[int, float, float, float]]:
    """Train; returns the learning curve [(games trained, share, low, high)]."""
    environment = make_env(game, players=players)
    environment.reset(seed=seed)
    agent = environment.possible_agents[0]
    features = environment.observation_space(agent)["observation"].shape[0]
    actions = environment.action_space(agent).n
    policy = LinearPolicy(actions, features, seed)
    rng = random.Random(seed)
    baseline = 1.0 / players
    curve = []
    fair = 1.0 / players
    print(f"{game}, {players} players: learner against random; fair share {fair:.3f}",
          file=out)
    for trained in range(games + 1):
        if trained % every == 0:
            wins, n = evaluate(environment, policy, evaluation, seed)
            low, high = wilson(wins, n)
            curve.append((trained, wins / n, low, high))
            print(f"after {trained:6d} games: win share {wins / n:.3f} [{low:.3f}, {high:.3f}] "
                  f"over {n} fresh games", file=out)
        if trained == games:
            break
        learner = environment.possible_agents[trained % players]
        share, moves = play(environment, policy, learner, seed * 10**6 + trained, False, rng)
        policy.reinforce(moves, share - baseline, rate)
        baseline += 0.01 * (share - baseline)
    return curve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="big-cheese")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--eval", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    train(args.game, args.players, args.games, args.every, args.eval, args.rate, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
