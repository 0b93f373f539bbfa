"""Which game of a run to look at: the one that best fits a criterion (largest margin,
closest, a shared win, ...) or the typical one, picked from the run's frame."""

from __future__ import annotations

import pandas as pd

from analysis.stats import balance
from engines.errors import BadInput

PICKS = ("largest-margin", "closest", "shared-win", "longest", "shortest", "seat-K-wins")


def pick_game(frame: pd.DataFrame, criterion: str) -> int:
    """Index of the game of a run that best fits `criterion` (one of `PICKS`; K from 1).

    Truncated games (no winner) are never picked.  Ties go to the lowest game index.
    """
    outcomes = balance.game_outcomes(frame)
    outcomes = outcomes[~outcomes["truncated"].astype(bool)].sort_values("game_index")
    if outcomes.empty:
        raise BadInput("the run has no finished game to pick from")
    if criterion.startswith("seat-") and criterion.endswith("-wins"):
        try:
            seat = int(criterion[5:-5]) - 1
        except ValueError:
            raise BadInput(f"--pick {criterion!r}: K in seat-K-wins must be a number") from None
        players = int(frame["players"].iloc[0])
        if not 0 <= seat < players:
            raise BadInput(f"--pick {criterion!r}: seats are 1-{players}")
        won = frame[(frame["seat"] == seat) & (frame["win_share"] == 1.0)]
        if won.empty:
            raise BadInput(f"seat {seat + 1} never won alone in this run")
        return int(won["game_index"].min())
    if criterion == "largest-margin":
        return int(outcomes.loc[outcomes["margin"].idxmax(), "game_index"])
    if criterion == "closest":
        return int(outcomes.loc[outcomes["margin"].idxmin(), "game_index"])
    if criterion == "shared-win":
        shared = outcomes[outcomes["tie"]]
        if shared.empty:
            raise BadInput("no game of this run ended in a shared win")
        return int(shared["game_index"].iloc[0])
    if criterion == "longest":
        return int(outcomes.loc[outcomes["decisions"].idxmax(), "game_index"])
    if criterion == "shortest":
        return int(outcomes.loc[outcomes["decisions"].idxmin(), "game_index"])
    raise BadInput(f"unknown --pick {criterion!r}; choose from {', '.join(PICKS)}")


def typical_game(frame: pd.DataFrame) -> int:
    """The finished game closest to the run's median margin, then to its median length."""
    outcomes = balance.game_outcomes(frame)
    outcomes = outcomes[~outcomes["truncated"].astype(bool)].sort_values("game_index")
    if outcomes.empty:
        raise BadInput("the run has no finished game to pick from")
    distance = ((outcomes["margin"] - outcomes["margin"].median()).abs(),
                (outcomes["decisions"] - outcomes["decisions"].median()).abs())
    ranked = outcomes.assign(d_margin=distance[0], d_length=distance[1])
    ranked = ranked.sort_values(["d_margin", "d_length", "game_index"], kind="stable")
    return int(ranked["game_index"].iloc[0])


