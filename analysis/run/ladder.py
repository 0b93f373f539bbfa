"""Playing a skill ladder: the same deals at several strengths of play, weakest first.

Each level is an ordinary run (`analysis.run.tournament`, every seat the level's bot) in
`OUT/<level>`, all with one run seed, so every level plays the same deals and a rerun
finishes an interrupted ladder.  A level that is already a run of the same study (an
experiment's run with that bot in every seat, as many games, the same seed) is played
there once and read from there (`run_ladder`'s `level_dirs`).  The statistics are
`analysis.stats.ladder`.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.results.runs import RunResult
from analysis.run import tournament
from analysis.run.study import check_total
from engines import get_game
from engines.bots import split_specs
from engines.errors import BadInput

LADDER_FILE = "ladder.json"
COST_FILE = "cost.json"  # games/s of each level as first played (a rerun reads them back)
#: The default levels: random play, the default heuristic, and `mcts` at two budgets.
DEFAULT_LEVELS = ("random", "heuristic", "mcts:iterations=20", "mcts")
#: Default games per level: heuristic-cost levels, and search levels (`mcts`, `ismcts`).
DEFAULT_GAMES = 2000
DEFAULT_SEARCH_GAMES = 400


def is_search(spec: str) -> bool:
    return spec.split(":", 1)[0] in ("mcts", "ismcts")


@dataclass(frozen=True, kw_only=True)
class LadderSpec:
    game: str
    players: int
    levels: tuple[str, ...]
    games: tuple[int, ...]  # one per level
    seed: int
    rules: dict[str, str] = field(default_factory=dict)

    def runs(self) -> list[tuple[str, tournament.RunSpec]]:
        """(level, its run spec), every level, count and rule checked first."""
        get_game(self.game).check_players(self.players)
        if len(self.levels) < 2:
            raise BadInput("a ladder needs at least two levels (weakest first)")
        if len(set(self.levels)) != len(self.levels):
            raise BadInput("--levels names a bot twice")
        if len(self.games) != len(self.levels):
            raise BadInput(f"--games gives {len(self.games)} counts for {len(self.levels)} "
                           f"levels; give one count, or one per level")
        # each run's own check: games, seed, the bot spec and the rules
        runs = [(level, tournament.RunSpec(game=self.game, players=self.players, games=n,
                                           bots=(level,) * self.players, seed=self.seed,
                                           rules=dict(self.rules)).validated())
                for level, n in zip(self.levels, self.games)]
        check_total(sum(self.games), f"--games over {len(self.levels)} levels")
        return runs

    def to_json(self) -> dict[str, Any]:
        return {"format": "ladder", "game": self.game, "players": self.players,
                "levels": list(self.levels), "games": list(self.games), "seed": self.seed,
                "rules": dict(self.rules)}


def parse_levels(text: str | None) -> tuple[str, ...]:
    if text is None:
        return DEFAULT_LEVELS
    if not text.strip():
        raise BadInput("a ladder needs at least two levels (weakest first); got none")
    return tuple(split_specs(text))


def default_games(levels: Sequence[str], games: int = DEFAULT_GAMES) -> tuple[int, ...]:
    """`games` for each level, and for a search level (`mcts`, `ismcts`: far dearer) as
    many fewer as `simulate ladder`'s defaults have (400 for 2,000)."""
    search = max(1, math.ceil(games * DEFAULT_SEARCH_GAMES / DEFAULT_GAMES))
    return tuple(search if is_search(level) else games for level in levels)


def parse_games(text: str | None, levels: Sequence[str]) -> tuple[int, ...]:
    """`--games N` (every level), `N,M,...` (one per level) or the defaults (fewer games for
    the search levels, which cost far more)."""
    if text is None:
        return default_games(levels)
    try:
        counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise BadInput(f"--games needs whole numbers, got {text!r}") from None
    return counts * len(levels) if len(counts) == 1 else counts


def default_out(game: str, seed: int) -> Path:
    """Where a ladder is played when no --out is given (the same for every rerun)."""
    return Path("results") / f"ladder-{game}-s{seed}"


def check_out_dir(spec: LadderSpec, out: Path) -> bool:
    """New, empty, or an earlier attempt at the same ladder (which is then finished)."""
    tournament.check_out_dir(out)
    return store.check_study_dir(out, LADDER_FILE, spec.to_json(), "ladder")


def level_dir(out: Path, level: str) -> Path:
    """Where a level of the ladder in `out` is played unless it is given elsewhere."""
    return out / store.spec_dir_name(level)


@dataclass
class LadderResult:
    spec: LadderSpec
    frame: pd.DataFrame  # every level's games, `bot` naming the level
    cost: dict[str, float]  # level -> games/s, all workers, as first played (nan: unknown)
    runs: dict[str, RunResult] = field(default_factory=dict)  # level -> its run
    out_dir: Path = Path()

    @property
    def strongest(self) -> RunResult:
        """The run of the last level listed (the strongest)."""
        return self.runs[self.spec.levels[-1]]


def run_ladder(spec: LadderSpec, out_dir: str | os.PathLike, jobs: int = -1,
               progress: Callable[[int], None] | None = None, backend: str = "loky",
               scheduler: str | None = None,
               level_dirs: Mapping[str, Path] | None = None) -> LadderResult:
    """Play (or finish) every level into `out_dir/<level>` (or its `level_dirs` entry: a run
    of the same spec that the study has anyway) and stack their frames."""
    out = Path(out_dir)
    planned = spec.runs()
    if not check_out_dir(spec, out):
        store.write_study_record(out, LADDER_FILE, spec.to_json())
    frames = []
    runs: dict[str, RunResult] = {}
    try:
        cost: dict[str, float] = json.loads((out / COST_FILE).read_text())
    except (OSError, ValueError):
        cost = {}
    for level, run_spec in planned:
        run_dir = Path((level_dirs or {}).get(level) or level_dir(out, level))
        resumed = run_dir.exists() and any(run_dir.iterdir())
        start = time.perf_counter()
        result = tournament.run_or_resume(run_spec, run_dir, jobs, progress, backend,
                                          scheduler)
        seconds = time.perf_counter() - start
        # the cost of a level played in one go (a resumed level's earlier part is unknown)
        if not resumed and seconds > 0:
            cost[level] = run_spec.games / seconds
            (out / COST_FILE).write_text(json.dumps(cost, indent=2))
        frames.append(result.frame.assign(bot=level))
        runs[level] = result
    cost = {level: float(cost.get(level, float("nan"))) for level in spec.levels}
    return LadderResult(spec, pd.concat(frames, ignore_index=True), cost, runs, out)
