"""Timing of engines and bots on one core: the numbers behind `simulate bench`."""

from __future__ import annotations

import os
import platform
import sys
import time
import timeit
from typing import Any

from engines import play_game
from engines.bots import make_bot
from engines.core import Game


class _TimedBot:
    """A bot whose own decisions are counted and timed (the others' are not)."""

    def __init__(self, bot: Any):
        self.bot, self.name = bot, bot.name
        self.decisions, self.seconds = 0, 0.0

    def choose(self, state: Any, rng: Any) -> int:
        started = time.perf_counter()
        action = self.bot.choose(state, rng)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return action


def bench_bot(
    game: Game, spec: str, players: int, seconds: float, seed: int = 0,
    rules: dict[str, Any] | None = None, against: str | None = None,
) -> dict[str, Any]:
    """Play games with `spec` in every seat for about `seconds`; report games/s, decisions/s.

    With `against`, `spec` plays one seat (seat `game index % players`) and `against` the
    others, and decisions/s counts only `spec`'s decisions over its own thinking time: how
    fast a slow search bot decides, without filling every seat with it.
    """
    bots = [make_bot(spec, game) for _ in range(players)]
    timed = None
    if against is not None:
        timed = _TimedBot(bots[0])
        others = [make_bot(against, game) for _ in range(players - 1)]
    games = decisions = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        if timed is not None:
            seat = games % players
            bots = others[:seat] + [timed] + others[seat:]
        record = play_game(game, bots, seed + games, players, rules)
        games += 1
        decisions += record.decisions
        elapsed = time.perf_counter() - started
    figures: dict[str, Any] = {
        "games": games, "seconds": elapsed, "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed, "decisions": decisions,
    }
    if timed is not None:
        figures["decisions_per_s"] = timed.decisions / timed.seconds if timed.seconds else 0.0
        figures["decisions"] = timed.decisions
        bots = [timed.bot]
    counter = getattr(bots[0], "iterations_done", None)
    if counter:  # a search bot (mcts): its rollouts per second of the whole run
        figures["iterations"] = sum(b.iterations_done for b in bots)
        figures["extra"] = f"{figures['iterations'] / elapsed:,.0f} iterations/s"
    return figures


def reference_microseconds() -> float:
    """Time of `sum(range(1000))` on this core, best of 5: to compare figures across machines.

    A shared or throttled machine shows a larger value; games/s scale roughly inversely.
    """
    runs = timeit.repeat("sum(range(1000))", number=2000, repeat=5)
    return min(runs) / 2000 * 1e6


def interpreter() -> str:
    """Which Python runs the benchmark: builds of the same version differ in engine speed
    (README, "Architecture")."""
    return f"Python {platform.python_version()} ({os.path.realpath(sys.executable)})"
