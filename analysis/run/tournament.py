"""Plan and run a tournament: seat rotation, reproducible seeds, parallel chunks, checkpoints.

`run(spec)` is the one entry point (CLI, notebooks and experiment files all call it).
Every game's seed comes from one `numpy.random.SeedSequence(spec.seed)`, and the seat
line-up of game *i* is the bot list rotated by *i*, so the frame depends only on the spec —
not on `jobs`, chunk size or backend.  Each finished chunk is written as a Parquet part
before it is counted, so an interrupted run resumes with `resume(run_dir)` and loses nothing.
"""

from __future__ import annotations

import dataclasses
import gc
import importlib.metadata
import os
import sys
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from analysis.results import store
from analysis.results.runs import RunResult
from analysis.run.parallel import check_backend
from analysis.run.study import StudySpec
from engines import _build as engine_build
from engines import datasets, get_game, play_game
from engines.bots import make_bot
from engines.core import AVAILABILITY_EVERY, rules_to_str
from engines.errors import BadInput

ProgressCallback = Callable[[int], None]




@dataclass(frozen=True, kw_only=True)
class RunSpec(StudySpec):
    """What to play.  `bots` has one spec per seat (the runner rotates them over seats)."""

    chunk_size: int = 0  # 0 = chosen from games and jobs
    rotate: bool = True
    seed_branch: int = 0  # 0 = the run's own deals; CONFIRM_BRANCH = fresh deals

    def check_own(self) -> None:
        if self.chunk_size < 0:
            raise BadInput(f"--chunk-size must be >= 0 (0 = chosen for you), got "
                           f"{self.chunk_size}")
        if self.seed_branch < 0:
            raise BadInput(f"seed branch must be >= 0, got {self.seed_branch}")

    def validated(self) -> RunSpec:
        """Check everything a worker would trip over, before any process starts
        (`StudySpec.checked`); the rules as the validated options' plain values."""
        rules = self.checked()
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


#: Seed branch of confirmation runs: the fresh deals that replay a finding.
CONFIRM_BRANCH = 1


def game_seeds(seed: int, games: int, branch: int = 0) -> np.ndarray:
    """One 63-bit seed per game from the run's SeedSequence (fits Parquet's int64).

    Branch 0 is the run's own stream; branch k > 0 is the independent child sequence with
    spawn key (k,), so a confirmation run's deals are reproducible from the run seed and
    disjoint from the original's.
    """
    return seeds_between(seed, 0, games, branch)


#: numpy's SeedSequence output mixing (`generate_state`), needed to start at any word.
_INIT_B, _MULT_B, _XSHIFT = 0x8B51F9DD, 0x58F38DED, 16


def seeds_between(seed: int, start: int, stop: int, branch: int = 0) -> np.ndarray:
    """The seeds of games [start, stop): exactly `game_seeds(seed, stop)[start:stop]`, in
    time and memory proportional to stop - start, however large `start` is.

    `SeedSequence.generate_state(n)` has no skip-ahead, so a chunk far into a long run would
    have to generate every seed before it (a 10**12-game run: 8 TB).  Word i of its output
    only depends on the entropy pool and on the hash constant INIT_B * MULT_B**i (mod 2**32),
    so the words of a range are computed directly (`tests/test_runner.py` checks them against
    numpy's own).
    """
    sequence = (np.random.SeedSequence(seed) if branch == 0
                else np.random.SeedSequence(seed, spawn_key=(branch,)))
    pool = np.asarray(sequence.pool, dtype=np.uint32)
    first, count = 2 * start, 2 * (stop - start)  # two 32-bit words per 64-bit seed
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    steps = np.full(count, _MULT_B, dtype=np.uint32)
    steps[0] = _INIT_B * pow(_MULT_B, first, 2**32) % 2**32
    with np.errstate(over="ignore"):
        before = np.multiply.accumulate(steps, dtype=np.uint32)  # hash constant of word i
        words = pool[(np.arange(first, first + count, dtype=np.uint64)
                      % np.uint64(len(pool))).astype(np.intp)] ^ before
        words *= before * np.uint32(_MULT_B)
        words ^= words >> np.uint32(_XSHIFT)
    state = words.astype("<u4").view("<u8").astype(np.uint64)
    return (state >> np.uint64(1)).astype(np.int64)


def lineup_for(spec: RunSpec, game_index: int) -> tuple[str, ...]:
    """Seat s of game i is played by bot (s + i) mod n: each bot plays each seat equally."""
    if not spec.rotate:
        return spec.bots
    shift = game_index % spec.players
    return spec.bots[shift:] + spec.bots[:shift]


def chunks(spec: RunSpec, skip: Collection[int] = ()) -> Iterator[tuple[int, int, int]]:
    """(chunk number, first game index, end game index) for the whole run, but the chunk
    numbers in `skip`; lazily, so a run of any size is planned in constant memory."""
    size = spec.chunk_size
    for number in range(chunk_count(spec)):
        if number not in skip:
            yield number, number * size, min((number + 1) * size, spec.games)


def chunk_count(spec: RunSpec) -> int:
    return -(-spec.games // spec.chunk_size)


def chunk_games(spec: RunSpec, number: int) -> int:
    """Games in chunk `number` (the last one may be short)."""
    return min((number + 1) * spec.chunk_size, spec.games) - number * spec.chunk_size


def check_out_dir(path: str | os.PathLike, option: str = "--out") -> None:
    """Refuse an output directory that cannot be created or written, without creating it:
    its nearest existing ancestor must be a writable directory."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise BadInput(f"{option} {path} is a file, not a directory")
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.exists():
        existing = Path.cwd()
    if not existing.is_dir():
        raise BadInput(f"cannot create output directory {path} ({option}): {existing} is not "
                       "a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BadInput(f"cannot create output directory {path} ({option}): {existing} is not "
                       "writable")


def check_jobs(jobs: int) -> None:
    """A positive count of worker processes, or -1 (one per core)."""
    if not isinstance(jobs, int) or jobs == 0 or jobs < -1:
        raise BadInput(f"--jobs must be a positive number of worker processes or -1 for one "
                       f"per core, got {jobs}")


def workers(jobs: int, chunks_left: int) -> int:
    """Processes worth starting: never more than the cores, nor than the chunks to play
    (8 workers for one chunk would start 7 idle processes)."""
    cores = os.cpu_count() or 1
    wanted = cores if jobs == -1 else jobs
    return max(1, min(wanted, cores, chunks_left))


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
    rules = game.make_rules(**spec.rules)  # validated once per chunk, not per game
    seeds = seeds_between(spec.seed, start, stop, spec.seed_branch).tolist()
    bot_for: dict[tuple[int, str], Any] = {}
    bots_of: dict[tuple[str, ...], list] = {}
    records, lineups, counts = [], [], []
    for index, game_seed in zip(range(start, stop), seeds):
        lineup = lineup_for(spec, index)
        bots = bots_of.get(lineup)
        if bots is None:
            bots = bots_of[lineup] = []
            for seat, bot_spec in enumerate(lineup):
                if (seat, bot_spec) not in bot_for:
                    bot_for[seat, bot_spec] = make_bot(bot_spec, game)
                bots.append(bot_for[seat, bot_spec])
        records.append(play_game(game, bots, game_seed, spec.players, rules,
                                 availability=not index % AVAILABILITY_EVERY))
        lineups.append(lineup)
        counts.append([bot.take_counts() if hasattr(bot, "take_counts") else {}
                       for bot in bots])
    return store.columns_to_table(
        store.chunk_columns(records, start, seeds, lineups, meta, game.action_kinds, counts))


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
        # the whole component data table when it is not the shipped one
        "components_data": datasets.full_data(spec.game, getattr(rules, "components", ""))
        if getattr(rules, "components", "") else None,
        "chunk_size": spec.chunk_size,
        "rotate": spec.rotate,
        "seed_branch": spec.seed_branch,
        "package_version": package_version(),
        "engine_build": engine_build.BUILD,  # compiled (mypyc) or pure, and why
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


def _execute(
    spec: RunSpec, meta: dict[str, Any], todo: Iterable[tuple[int, int, int]], jobs: int,
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
    announce: Callable[[str], None] | None = None,
) -> RunResult:
    """Play the run into `out_dir` (created; must be empty unless resuming) and load it.

    Resuming checks the parts on disk first (`store.check_parts`): a damaged part or one from
    another run is moved aside and its chunk played again, said in one line to `announce`
    (default: stderr).
    """
    check_backend(backend, scheduler)  # before any output exists
    check_jobs(jobs)
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
    done: set[int] = set()
    if _manifest is not None:
        check = store.check_parts(run_dir, manifest)
        moved = store.set_aside(check)
        if moved:
            (announce or _to_stderr)(moved)
        done = {n for n in check.tables if 0 <= n < chunk_count(spec)}
        del check  # its tables: the games are read again once the run is whole
    played_before = sum(chunk_games(spec, n) for n in done)
    if _manifest is not None and len(done) < chunk_count(spec):
        (announce or _to_stderr)(
            f"resuming {run_dir}: {len(done):,} chunks on disk, playing the other "
            f"{chunk_count(spec) - len(done):,} ({spec.games - played_before:,} games)")
    if progress is not None and done:
        progress(played_before)
    jobs = workers(jobs, chunk_count(spec) - len(done))
    started = time.perf_counter()
    for number, table in _execute(spec, meta, chunks(spec, done), jobs, backend, scheduler):
        store.write_part(run_dir, number, table)
        if progress is not None:
            progress(chunk_games(spec, number))
    seconds = time.perf_counter() - started
    frame = store.load_run(run_dir)
    return RunResult(frame, run_dir, manifest, spec.games - played_before, seconds)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def resume(
    run_dir: str | os.PathLike, jobs: int = -1, progress: ProgressCallback | None = None,
    backend: str = "loky", scheduler: str | None = None,
    announce: Callable[[str], None] | None = None,
) -> RunResult:
    """Finish an interrupted run: play the chunks that have no intact part of this run."""
    manifest = store.read_manifest(run_dir)
    spec = spec_from_manifest(manifest)
    spec.validated()
    return run(spec, run_dir, jobs, progress, backend, scheduler, _manifest=manifest,
               announce=announce)


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
    same = ("game", "players", "games", "bots", "seed", "rotate", "seed_branch")
    # rules compared as the game reads them: `seat_bonus=''` or a rule at its default value
    # is the official run (the reference cache is keyed by what the rules mean)
    game = get_game(wanted.game)
    if any(getattr(stored, key) != getattr(wanted, key) for key in same) or (
            game.make_rules(**stored.rules) != game.make_rules(**wanted.rules)):
        raise BadInput(f"{run_dir} holds a different run; remove it or use another --out")
    return resume(run_dir, jobs, progress, backend, scheduler)
