"""Refit `engines/ninjato/evaluation.py`'s `WEIGHTS` from all-heuristic games.

    python -m tools.fit_ninjato_evaluation [--games 3000] [--every 4]

Plays `--games` 4-player games of default heuristics (seeds from 0), takes every seat's
features (`evaluation.features`) every `--every` actions, and fits, per round, the rest of
the game's score (final score minus honour then) on them by least squares with an
intercept (the intercept, the same for every seat, cancels in the normalized value and is
not kept); it prints the `WEIGHTS` table to paste and each round's R².  Use the compiled
build (a pure one takes minutes).
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from engines.bots import make_bot
from engines.ninjato import GAME
from engines.ninjato.evaluation import FEATURES, features
from engines.ninjato.state import ROUNDS


def snapshots(games: int, every: int, players: int = 4) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """(features[row, feature], rest of the score[row], round[row]) over `games` games."""
    rows: list[list[float]] = []
    rest: list[float] = []
    rounds: list[int] = []
    for seed in range(games):
        state = GAME.create_state(players, seed, GAME.Rules())
        bots = [make_bot("heuristic", GAME) for _ in range(players)]
        rng = random.Random(seed)
        taken: list[tuple[list[list[float]], list[int], int]] = []
        steps = 0
        while not state.is_terminal():
            if steps % every == 0:
                taken.append((features(state), list(state.honour), state.round))
            state.apply_action(bots[state.current_player()].choose(state, rng))
            steps += 1
        final = state.scores()
        for feats, honour, rnd in taken:
            for seat in range(players):
                rows.append(feats[seat])
                rest.append(final[seat] - honour[seat])
                rounds.append(rnd)
    return np.array(rows), np.array(rest), np.array(rounds)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Least-squares weights (intercept dropped) and R²."""
    design = np.hstack([x, np.ones((len(x), 1))])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    r2 = 1.0 - float(resid @ resid) / float(((y - y.mean()) ** 2).sum())
    return coef[:-1], r2


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--every", type=int, default=4)
    args = parser.parse_args(argv)
    x, y, rounds = snapshots(args.games, args.every)
    print(f"# {', '.join(FEATURES)}")
    print("WEIGHTS: Final[tuple[tuple[float, ...], ...]] = (")
    for r in range(1, ROUNDS + 1):
        mask = rounds == r
        coef, r2 = fit(x[mask], y[mask])
        cells = ", ".join(f"{round(c, 3) + 0.0:.3f}" for c in coef)  # (no "-0.000")
        print(f"    ({cells}),  # round {r}: R² {r2:.2f}")
    print(")")


if __name__ == "__main__":
    main()
