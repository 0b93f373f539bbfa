"""Timing of engines and bots on one core: the numbers behind `simulate bench`."""

from __future__ import annotations

import time
from typing import Any

from engines import play_game
from engines.bots import make_bot
from engines.core import Game


def bench_bot(
    game: Game, spec: str, players: int, seconds: float, seed: int = 0,
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play games with `spec` in every seat for about `seconds`; report games/s, decisions/s."""
    bots = [make_bot(spec, game) for _ in range(players)]
    games = decisions = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        record = play_game(game, bots, seed + games, players, rules)
        games += 1
        decisions += record.decisions
        elapsed = time.perf_counter() - started
    figures: dict[str, Any] = {
        "games": games, "seconds": elapsed, "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
    }
    counter = getattr(bots[0], "iterations_done", None)
    if counter:
        figures["extra"] = f"{sum(b.iterations_done for b in bots) / elapsed:,.0f} iterations/s"
    return figures
