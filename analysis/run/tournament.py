"""Plan and run a tournament: seat rotation, reproducible seeds, parallel chunks, checkpoints.

`run(spec)` is the one entry point (CLI, notebooks and experiment files all call it).
Every game's seed comes from one `numpy.random.SeedSequence(spec.seed)`, and the seat
line-up of game *i* is the bot list rotated by *i*, so the frame depends only on the spec —
not on `jobs`, chunk size or backend.  Each finished chunk is written as a Parquet part
before it is counted, so an interrupted run resumes with `resume(run_dir)` and loses nothing.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import importlib.metadata
import os
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from analysis.results import store
from analysis.run.parallel import check_backend
from engines import _build as engine_build
from engines import datasets, get_game, play_game
from engines.bots import make_bot
from engines.core import AVAILABILITY_EVERY, rules_to_str
from engines.errors import BadInput

if TYPE_CHECKING:
    import pandas as pd

ProgressCallback = Callable[[int], None]


@dataclass(frozen=True)
class RunSpec:
    """What to play.  `bots` has one spec per seat (the runner rotates them over seats)."""

    game: str
    players: int
    games: int
    bots: tuple[str, ...]
    seed: int
    rules: dict[str, Any] = field(default_factory=dict)
    chunk_size: int = 0  # 0 = chosen from games and jobs
    rotate: bool = True
    seed_branch: int = 0  # 0 = the run's own deals; CONFIRM_BRANCH = fresh deals (issue 21)

    def validated(self) -> RunSpec:
        """Check everything a worker would trip over, before any process starts."""
        game = get_game(self.game)
        game.check_players(self.players)
        if self.games <= 0:
            raise BadInput(f"--games must be positive, got {self.games}")
        if self.seed < 0:
            raise BadInput(f"--seed must be >= 0, got {self.seed}")
        if self.seed_branch < 0:
            raise BadInput(f"seed branch must be >= 0, got {self.seed_branch}")
        if len(self.bots) != self.players:
            raise BadInput(f"{len(self.bots)} bots for {self.players} players")
        rules = game.checked_rules(**self.rules)  # bad options or components file: ValueError
        for spec in self.bots:
            make_bot(spec, game)
        chunk = self.chunk_size or default_chunk_size(self.games)
        return dataclasses.replace(
            self, chunk_size=chunk, rules=dataclasses.asdict(rules) if self.rules else {}
        )


def default_chunk_size(games: int) -> int:
    """Chunks big enough to amortize process overhead, small enough to checkpoint often.

    At most 1,000 games: the last chunk of a run plays while the other workers idle, so
    big chunks cost a few seconds of tail on a long run (100 chunks for 100,000 games).
    """
    return int(max(10, min(1000, games // 40 or 1)))


def fill_lineup(specs: Sequence[str], players: int) -> tuple[str, ...]:
    """Fewer specs than players: the last one fills the remaining seats."""
    if not specs:
        specs = ["heuristic"]
    if len(specs) > players:
        raise BadInput(f"{len(specs)} bots given for {players} players")
    return tuple(specs) + (specs[-1],) * (players - len(specs))


#: Seed branch of confirmation runs: the fresh deals that replay a finding (issue 21).
CONFIRM_BRANCH = 1


def game_seeds(seed: int, games: int, branch: int = 0) -> np.ndarray:
    """One 63-bit seed per game from the run's SeedSequence (fits Parquet's int64).

    Branch 0 is the run's own stream; branch k > 0 is the independent child sequence with
    spawn key (k,), so a confirmation run's deals are reproducible from the run seed and
    disjoint from the original's.
    """
    sequence = (np.random.SeedSequence(seed) if branch == 0
                else np.random.SeedSequence(seed, spawn_key=(branch,)))
    state = sequence.generate_state(games, dtype=np.uint64)
    return (state >> np.uint64(1)).astype(np.int64)


@functools.lru_cache(maxsize=2)
def run_seeds(seed: int, games: int, branch: int = 0) -> np.ndarray:
    """All of a run's game seeds, computed once per worker process (read-only).

    `generate_state` cannot skip ahead, so slicing `game_seeds(seed, stop)` per chunk made
    every chunk regenerate the seeds before it (cost: README, "Architecture").
    """
    seeds = game_seeds(seed, games, branch)
    seeds.setflags(write=False)
    return seeds


def lineup_for(spec: RunSpec, game_index: int) -> tuple[str, ...]:
    """Seat s of game i is played by bot (s + i) mod n: each bot plays each seat equally."""
    if not spec.rotate:
        return spec.bots
    shift = game_index % spec.players
    return spec.bots[shift:] + spec.bots[:shift]


def chunks(spec: RunSpec) -> list[tuple[int, int, int]]:
    """(chunk number, first game index, end game index) for the whole run."""
    size = spec.chunk_size
    return [(i, start, min(start + size, spec.games))
            for i, start in enumerate(range(0, spec.games, size))]


def play_chunk(spec: RunSpec, meta: dict[str, Any], start: int, stop: int) -> pa.Table:
    """Play games [start, stop) of the run; runs in a worker process.

    One bot object per (seat, spec), kept for the chunk; each rotation's line-up is built once.
    The objects alive at the start (modules, the engines' caches) are frozen for the chunk, so
    the collector's full passes skip them: ~1% of a Ninjato worker's time otherwise.
    """
    gc.freeze()
    try:
        return _play_games(spec, meta, start, stop)
    finally:
        gc.unfreeze()


def _play_games(spec: RunSpec, meta: dict[str, Any], start: int, stop: int) -> pa.Table:
    game = get_game(spec.game)
    seeds = run_seeds(spec.seed, spec.games, spec.seed_branch)[start:stop].tolist()
    bot_for: dict[tuple[int, str], Any] = {}
    bots_of: dict[tuple[str, ...], list] = {}
    records, lineups = [], []
    for index, game_seed in zip(range(start, stop), seeds):
        lineup = lineup_for(spec, index)
        bots = bots_of.get(lineup)
        if bots is None:
            bots = bots_of[lineup] = []
            for seat, bot_spec in enumerate(lineup):
                if (seat, bot_spec) not in bot_for:
                    bot_for[seat, bot_spec] = make_bot(bot_spec, game)
                bots.append(bot_for[seat, bot_spec])
        records.append(play_game(game, bots, game_seed, spec.players, spec.rules,
                                 availability=not index % AVAILABILITY_EVERY))
        lineups.append(lineup)
    return store.columns_to_table(
        store.chunk_columns(records, start, seeds, lineups, meta, game.action_kinds))


def package_version() -> str:
    try:
        return importlib.metadata.version("tabletop-sim")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def new_manifest(spec: RunSpec) -> dict[str, Any]:
    game = get_game(spec.game)
    rules = game.make_rules(**spec.rules)
    return {
        "run_id": uuid.uuid4().hex[:12],
        "game": spec.game,
        "players": spec.players,
        "games": spec.games,
        "bots": list(spec.bots),
        "seed": spec.seed,
        "rules": spec.rules,
        "rules_str": rules_to_str(rules),
        "dataset": game.dataset(rules),
        # the whole component data table when it is not the shipped one (issue 18)
        "components_data": datasets.full_data(spec.game, getattr(rules, "components", ""))
        if getattr(rules, "components", "") else None,
        "chunk_size": spec.chunk_size,
        "rotate": spec.rotate,
        "seed_branch": spec.seed_branch,
        "package_version": package_version(),
        "engine_build": engine_build.BUILD,  # compiled (mypyc) or pure, and why (issue 17)
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def spec_from_manifest(manifest: dict[str, Any]) -> RunSpec:
    try:
        return RunSpec(
            game=manifest["game"], players=int(manifest["players"]), games=int(manifest["games"]),
            bots=tuple(manifest["bots"]), seed=int(manifest["seed"]),
            rules=dict(manifest["rules"]), chunk_size=int(manifest["chunk_size"]),
            rotate=bool(manifest.get("rotate", True)),
            seed_branch=int(manifest.get("seed_branch", 0)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise store.RunError(f"manifest lacks a valid field: {exc}") from None


@dataclass
class RunResult:
    """What `run` returns: the frame, where it lives, and how long the new games took."""

    frame: pd.DataFrame
    run_dir: Path
    manifest: dict[str, Any]
    games_played_now: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games_played_now / self.seconds if self.seconds > 0 else float("nan")


def _execute(
    spec: RunSpec, meta: dict[str, Any], todo: list[tuple[int, int, int]], jobs: int,
    backend: str, scheduler: str | None,
) -> Iterator[tuple[int, pa.Table]]:
    """Yield (chunk number, table) as chunks finish, in whatever order they finish."""
    if jobs == 1 and backend == "loky":
        for number, start, stop in todo:
            yield number, play_chunk(spec, meta, start, stop)
        return
    from analysis.run.parallel import parallel_chunks

    yield from parallel_chunks(play_chunk, spec, meta, todo, jobs, backend, scheduler)


def run(
    spec: RunSpec,
    out_dir: str | os.PathLike,
    jobs: int = -1,
    progress: ProgressCallback | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    _manifest: dict[str, Any] | None = None,
) -> RunResult:
    """Play the run into `out_dir` (created; must be empty unless resuming) and load it."""
    check_backend(backend, scheduler)  # before any output exists
    run_dir = Path(out_dir)
    if _manifest is None:
        spec = spec.validated()
        if run_dir.exists() and any(run_dir.iterdir()):
            raise BadInput(f"{run_dir} is not empty; use --resume {run_dir} or another --out")
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BadInput(f"cannot create output directory {run_dir}: {exc.strerror}") from None
        if not os.access(run_dir, os.W_OK):
            raise BadInput(f"output directory {run_dir} is not writable")
        manifest = new_manifest(spec)
        store.write_manifest(run_dir, manifest)
    else:
        manifest = _manifest
    meta = {"run_id": manifest["run_id"], "game": spec.game,
            "rules": manifest["rules_str"], "dataset": manifest["dataset"]}
    done = store.finished_chunks(run_dir)
    todo = [c for c in chunks(spec) if c[0] not in done]
    sizes = {number: stop - start for number, start, stop in todo}
    if progress is not None and done:
        progress(spec.games - sum(sizes.values()))
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    started = time.perf_counter()
    for number, table in _execute(spec, meta, todo, jobs, backend, scheduler):
        store.write_part(run_dir, number, table)
        if progress is not None:
            progress(sizes[number])
    seconds = time.perf_counter() - started
    frame = store.load_run(run_dir)
    return RunResult(frame, run_dir, manifest, sum(sizes.values()), seconds)


def resume(
    run_dir: str | os.PathLike, jobs: int = -1, progress: ProgressCallback | None = None,
    backend: str = "loky", scheduler: str | None = None,
) -> RunResult:
    """Finish an interrupted run: play only the chunks that have no part on disk."""
    manifest = store.read_manifest(run_dir)
    spec = spec_from_manifest(manifest)
    spec.validated()
    return run(spec, run_dir, jobs, progress, backend, scheduler, _manifest=manifest)


def run_or_resume(
    spec: RunSpec, run_dir: str | os.PathLike, jobs: int = -1,
    progress: ProgressCallback | None = None, backend: str = "loky", scheduler: str | None = None,
) -> RunResult:
    """Play `spec` into `run_dir`, or finish it if an earlier attempt left the same run there.

    Studies made of several runs (comparisons, experiment files) call this for each run, so
    re-running the study after an interruption picks up where it stopped.
    """
    if not (Path(run_dir) / store.MANIFEST).is_file():
        return run(spec, run_dir, jobs, progress, backend, scheduler)
    wanted = spec.validated()
    stored = spec_from_manifest(store.read_manifest(run_dir))
    same = ("game", "players", "games", "bots", "seed", "rules", "rotate", "seed_branch")
    if any(getattr(stored, key) != getattr(wanted, key) for key in same):
        raise BadInput(f"{run_dir} holds a different run; remove it or use another --out")
    return resume(run_dir, jobs, progress, backend, scheduler)
