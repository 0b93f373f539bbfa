"""Refit `engines/ivanhoe/evaluation.py`'s `WEIGHTS` from all-heuristic games.

    python -m tools.fit_ivanhoe_evaluation [--games 12000]

For each player count it plays `--games` games of default heuristics (seeds from 0), takes
every seat's features (`evaluation.features`) at the start and at the end of every
tournament, and fits a conditional logit of who won the game (games with a shared win are
left out) by Newton's method; it prints the `WEIGHTS` table to paste.  Slow in a pure build
(minutes per player count); use the compiled one.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from engines.bots import make_bot
from engines.ivanhoe import GAME
from engines.ivanhoe.evaluation import features


def boundaries(players: int, games: int) -> tuple[np.ndarray, np.ndarray]:
    """(features[snapshot, seat, feature], winner[snapshot]) over `games` heuristic games."""
    rows: list[list[list[float]]] = []
    winners: list[int] = []
    for seed in range(games):
        state = GAME.create_state(players, seed, GAME.Rules())
        bots = [make_bot("heuristic", GAME) for _ in range(players)]
        rng = random.Random(seed)
        snaps = [[features(state, s) for s in range(players)]]
        done = 0
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].choose(state, rng))
            if state.tournaments != done and not state.is_terminal():
                done = state.tournaments
                snaps.append([features(state, s) for s in range(players)])
        won = state.winners()
        if len(won) == 1:
            rows += snaps
            winners += [won[0]] * len(snaps)
    return np.array(rows, dtype=float), np.array(winners)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-6, steps: int = 30) -> np.ndarray:
    """Conditional-logit weights: maximize sum log softmax(x @ w)[winner]."""
    n, _, d = x.shape
    w = np.zeros(d)
    chosen = x[np.arange(n), y]
    for _ in range(steps):
        s = x @ w
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ij,ijk->ik", p, x)
        grad = (chosen - mean).sum(axis=0) - ridge * n * w
        centred = x - mean[:, None, :]
        hess = np.einsum("ij,ijk,ijl->kl", p, centred, centred) + ridge * n * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-7:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12_000, help="games per player count")
    args = parser.parse_args()
    print("WEIGHTS: dict[int, tuple[float, ...]] = {")
    for players in range(GAME.min_players, GAME.max_players + 1):
        x, y = boundaries(players, args.games)
        w = fit(x, y)
        print(f"    {players}: ({', '.join(f'{v:.3f}' for v in w)}),")
    print("}")


if __name__ == "__main__":
    main()
