"""The result frame (one row per seat per game) and its on-disk form: Parquet parts + manifest.

A run directory holds `manifest.json` (the spec, seed, package and data-set versions) and
one `part-NNNNN.parquet` per finished chunk.  Parts are written atomically (temp file +
rename), so a killed run leaves only whole parts and a resumed run never double-counts.
Each part's Parquet metadata names its run and chunk and holds a SHA-256 of its rows, so a
part damaged on disk, one copied in from another run and a missing part are all found
(`check_parts`) before a result is computed from them: loading refuses such a run unless told
to report the games on disk, and resuming moves bad parts aside and replays them.

A chunk travels from its worker as a pyarrow `Table` and is written as it is; only loading
a run makes a DataFrame: a table is much cheaper to build, pickle and write (figures: README,
"Architecture", measured design choices).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from engines.core import GameRecord
from engines.errors import BadInput
from engines.user_files import read_user_file

if TYPE_CHECKING:
    import pandas as pd

MANIFEST = "manifest.json"
T = TypeVar("T")
FORMAT = "tabletop-sim-run"
#: 2: parts carry run id, chunk number and checksum (version 1 parts are checked by content);
#: 3: the manifest carries a checksum of its own fields (`MANIFEST_CHECKSUM`).
FORMAT_VERSION = 3
#: The manifest key holding the SHA-256 of every other field (`manifest_digest`), and the
#: first format version that writes it.
MANIFEST_CHECKSUM, CHECKSUM_SINCE = "manifest_sha256", 3
PART_GLOB = "part-*.parquet"
#: Suffix of a damaged or foreign part moved aside by a resume (kept for inspection).
REJECTED_SUFFIX = ".rejected"
#: Keys of a part's Parquet (Arrow schema) metadata.
PART_RUN_ID, PART_CHUNK, PART_CHECKSUM = b"tabletop.run_id", b"tabletop.chunk", b"tabletop.sha256"
#: Column prefixes of the action-kind counts (chosen, available).
KIND_PREFIXES = ("k_", "a_")
CHOSEN_PREFIX = "k_"
#: Column prefix of what a seat's bot counted in a game (`chunk_columns`' `bot_counts`).
BOT_COUNT_PREFIX = "b_"

#: Columns every result frame has, in order; `pts_<source>`, `m_<metric>`, the action-kind
#: counts `k_<kind>`, `a_<kind>` and any bot counts `b_<count>` follow.
BASE_COLUMNS = [
    "run_id", "game", "rules", "dataset", "players", "game_index", "seed", "seat", "bot",
    "score", "rank", "win_share", "truncated", "decisions", "branching",
]


class RunError(BadInput):
    """A results directory that is missing, unreadable, corrupt or not a run."""


def chunk_columns(
    records: Sequence[GameRecord], first_index: int, seeds: Sequence[int],
    lineups: Sequence[Sequence[str]], meta: dict[str, Any], kinds: Sequence[str] = (),
    bot_counts: Sequence[Sequence[dict[str, int]]] = (),
) -> dict[str, list]:
    """One row per seat of each game, as columns; game i of the chunk is `first_index + i`.

    `kinds` are the game's `action_kinds`: with records that counted them, each gets a
    `k_<kind>` and an `a_<kind>` column (see `kind_columns`); `a_` is NaN in the rows of
    games whose availability was not measured.  `bot_counts` (per game, per seat) are what
    the seats' bots counted in the game (a restricted bot: `engines.bots.restricted`); each
    count a bot reported becomes a `b_<count>` column, 0 for the other seats (none at all
    when no bot counts anything, as in most runs).

    Built column by column after the chunk (not game by game): a score source or metric
    that some games lack counts 0 in their rows.
    """
    seats = [len(r.scores) for r in records]
    rows = sum(seats)

    def repeat(values: Sequence[Any]) -> list:
        return [v for v, n in zip(values, seats) for _ in range(n)]

    cols: dict[str, list] = {
        "run_id": [meta["run_id"]] * rows,
        "game": [meta["game"]] * rows,
        "rules": [meta["rules"]] * rows,
        "dataset": [meta["dataset"]] * rows,
        "players": repeat(seats),
        "game_index": repeat(range(first_index, first_index + len(records))),
        "seed": repeat(seeds),
        "seat": [seat for n in seats for seat in range(n)],
        "bot": [bot for lineup in lineups for bot in lineup],
        "score": [float(x) for r in records for x in r.scores],
        "rank": [x for r in records for x in r.ranks],
        "win_share": [(1.0 / len(r.winners) if seat in r.winners else 0.0)
                      for r, n in zip(records, seats) for seat in range(n)],
        "truncated": repeat([r.truncated for r in records]),
        "decisions": repeat([r.decisions for r in records]),
        "branching": repeat([r.branching for r in records]),
    }
    for source in sorted({s for r in records for s in r.breakdown}):
        cols[f"pts_{source}"] = [float(x) for r, n in zip(records, seats)
                                 for x in r.breakdown.get(source, (0.0,) * n)]
    for metric in sorted({m for r in records for m in r.metrics}):
        cols[f"m_{metric}"] = repeat([float(r.metrics.get(metric, 0.0)) for r in records])
    if kinds and records and records[0].kinds_chosen is not None:
        # one (rows x kinds) array each, sliced per kind: ~30 list passes over a chunk's rows
        # cost ~1.5% of a Ninjato chunk's play time, this ~0.1%
        chosen = np.array([row for r in records for row in r.kinds_chosen], dtype=np.int32)
        offered = np.full(chosen.shape, np.nan)
        first = 0
        for r, n in zip(records, seats):
            if r.kinds_available is not None:
                offered[first:first + n] = r.kinds_available
            first += n
        for index, name in enumerate(kind_columns(kinds)):
            cols[f"k_{name}"] = chosen[:, index]
            cols[f"a_{name}"] = offered[:, index]
    for name in sorted({key for game in bot_counts for seat in game for key in seat}):
        cols[f"{BOT_COUNT_PREFIX}{name}"] = [seat.get(name, 0) for game in bot_counts
                                             for seat in game]
    return cols


def kind_columns(kinds: Sequence[str]) -> list[str]:
    """Identifier spelling of each action kind (`sensei skill` -> `sensei_skill`).

    The result columns are `k_<name>` (times the seat chose the kind) and `a_<name>` (the
    seat's decisions at which it was legal, in the games where the runner measured it, NaN in
    the others); `kind_label` turns a name back into words.
    """
    names = []
    for kind in kinds:
        name = re.sub(r"[^0-9a-z]+", "_", kind.lower()).strip("_") or "kind"
        while name in names:
            name += "_"
        names.append(name)
    return names


def kind_label(column: str) -> str:
    """The words of a `k_`/`a_` column (`k_sensei_skill` -> `sensei skill`)."""
    return column.split("_", 1)[1].replace("_", " ").strip()


#: Arrow types of the integer and flag columns (the others are inferred: float64, string).
_COLUMN_TYPES = {"players": pa.int16(), "game_index": pa.int64(), "seed": pa.int64(),
                 "seat": pa.int16(), "rank": pa.int16(), "decisions": pa.int32(),
                 "truncated": pa.bool_()}


def canonical_order(columns: Sequence[str]) -> list[str]:
    """The base columns first, then score sources and metrics sorted by name."""
    present = set(columns)
    return [c for c in BASE_COLUMNS if c in present] + sorted(present - set(BASE_COLUMNS))


def columns_to_table(columns: dict[str, list]) -> pa.Table:
    """A chunk's columns as a typed table in the canonical column order."""
    return pa.table({name: pa.array(columns[name], type=_column_type(name))
                     for name in canonical_order(list(columns))})


def _column_type(name: str) -> pa.DataType | None:
    if name.startswith(CHOSEN_PREFIX):
        return pa.int32()
    return _COLUMN_TYPES.get(name)


def part_path(run_dir: Path, chunk: int) -> Path:
    return run_dir / f"part-{chunk:05d}.parquet"


def table_digest(table: pa.Table) -> str:
    """SHA-256 of a table's column names, types, null positions and values (not metadata).

    Computed from the values, not from Arrow buffers: the same rows hash alike whatever the
    chunking, and whatever bytes a writer or reader leaves under a null (~1 ms per chunk of a
    few hundred games).
    """
    digest = hashlib.sha256()
    for name, column in zip(table.column_names, table.columns):
        digest.update(f"{name}\x1e{column.type}\x1e{len(column)}\x1e".encode())
        if column.null_count:
            valid = pc.is_valid(column)
            digest.update(valid.to_numpy().tobytes())
            column = column.filter(valid)
        kind = column.type
        if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind):
            digest.update(column.to_numpy().tobytes())
        else:
            digest.update("\x1f".join(map(str, column.to_pylist())).encode())
    return digest.hexdigest()


def write_part(run_dir: Path, chunk: int, table: pa.Table) -> Path:
    """Write one chunk atomically, stamped with its run id, number and checksum; writing the
    same chunk twice leaves one copy."""
    path = part_path(run_dir, chunk)
    tmp = path.with_suffix(".parquet.tmp")
    run_id = table.column("run_id")[0].as_py() if table.num_rows else ""
    stamp = {PART_RUN_ID: str(run_id).encode(), PART_CHUNK: str(chunk).encode(),
             PART_CHECKSUM: table_digest(table).encode()}
    pq.write_table(table.replace_schema_metadata({**(table.schema.metadata or {}), **stamp}),
                   tmp)
    os.replace(tmp, path)
    return path


@dataclass
class PartCheck:
    """A run's parts held against its manifest: which chunks count, which are missing or bad."""

    run_dir: Path
    game: str
    games: int
    size: int
    tables: dict[int, pa.Table] = field(default_factory=dict)  # verified, metadata removed
    damaged: list[tuple[Path, str]] = field(default_factory=list)  # (part, why it cannot count)

    @property
    def chunks(self) -> int:
        return -(-self.games // self.size)

    @property
    def missing(self) -> int:
        """How many chunks have no part that counts (never played, deleted, or damaged)."""
        return self.chunks - len(self.tables)

    def first_missing(self) -> int | None:
        """The lowest such chunk (found without listing every chunk of a huge run)."""
        return next((n for n in range(self.chunks) if n not in self.tables), None)

    @property
    def games_on_disk(self) -> int:
        """Games in the verified parts (each holds exactly its chunk's games)."""
        return sum(min(self.size, self.games - n * self.size) for n in self.tables)

    def problem(self) -> str | None:
        """One line naming the first bad or missing part, or None for a whole run."""
        resume = f"`simulate {self.game} --resume {self.run_dir}`"
        if self.damaged:
            path, why = self.damaged[0]
            more = (f" (and {len(self.damaged) - 1} more bad part(s))"
                    if len(self.damaged) > 1 else "")
            return (f"{path} {why}{more}; {resume} moves it aside and replays it, "
                    "--allow-incomplete leaves it out")
        first = self.first_missing()
        if first is not None:
            more = f" and {self.missing - 1:,} more" if self.missing > 1 else ""
            return (f"{self.run_dir} is incomplete: {part_path(self.run_dir, first).name}"
                    f"{more} missing ({self.games_on_disk:,} of {self.games:,} games on disk); "
                    f"finish it with {resume}, or pass --allow-incomplete")
        return None

    def warning(self) -> str | None:
        """The line shown when an incomplete run is used anyway."""
        if not self.damaged and not self.missing:
            return None
        bad = f", {len(self.damaged)} bad part(s) left out" if self.damaged else ""
        return (f"warning: {self.run_dir} is incomplete: {self.games_on_disk:,} of "
                f"{self.games:,} games{bad}; results cover only the games on disk")


def _chunk_plan(manifest: dict[str, Any], run_dir: Path) -> tuple[int, int]:
    """(games, chunk size) of the run, as its manifest says."""
    try:
        games, size = int(manifest["games"]), int(manifest["chunk_size"])
    except (KeyError, TypeError, ValueError):
        raise RunError(f"{run_dir / MANIFEST} lacks a valid games or chunk_size") from None
    if games <= 0 or size <= 0:
        raise RunError(f"{run_dir / MANIFEST} lacks a valid games or chunk_size")
    return games, size


def _verify_part(path: Path, number: int, manifest: dict[str, Any], games: int,
                 size: int) -> tuple[pa.Table | None, str]:
    """(the part's rows without their stamp, "") if it is chunk `number` of this run, intact;
    else (None, why not)."""
    try:
        table = pq.ParquetFile(path).read()
    except Exception as exc:  # truncated or damaged: pyarrow raises several types
        first = (str(exc).strip().split(". ")[0].splitlines() or [type(exc).__name__])[0]
        return None, f"is unreadable (truncated or corrupt: {first.rstrip('.')})"
    stamp = table.schema.metadata or {}
    run_id = str(manifest.get("run_id", ""))
    if PART_CHECKSUM in stamp:
        stamped_run = stamp.get(PART_RUN_ID, b"").decode(errors="replace")
        if stamped_run != run_id:
            return None, f"belongs to run {stamped_run}, not to this run ({run_id})"
        if stamp.get(PART_CHUNK, b"").decode(errors="replace") != str(number):
            return None, (f"holds chunk {stamp.get(PART_CHUNK, b'?').decode(errors='replace')}"
                          f", not chunk {number}")
        if stamp[PART_CHECKSUM].decode(errors="replace") != table_digest(table):
            return None, "does not match its checksum (corrupt)"
    elif int(manifest.get("format_version", 1)) >= 2:
        return None, "has no run id or checksum (not written by this run)"
    table = table.replace_schema_metadata(None)
    if "run_id" in table.column_names and not pc.all(
            pc.equal(table.column("run_id"), run_id)).as_py():
        return None, f"holds rows of another run than this one ({run_id})"
    if "game_index" in table.column_names:  # every game of the chunk, none other
        start, stop = number * size, min(number * size + size, games)
        index = table.column("game_index")
        span = pc.min_max(index).as_py() if table.num_rows else {"min": None, "max": None}
        if (span["min"], span["max"], pc.count_distinct(index).as_py()) != (
                start, stop - 1, stop - start):
            return None, f"does not hold exactly games {start}-{stop - 1} (chunk {number})"
    return table, ""


def check_parts(run_dir: str | os.PathLike, manifest: dict[str, Any] | None = None) -> PartCheck:
    """Read and verify every part of a run: stamped with this run's id and its own chunk
    number, rows matching the checksum, the chunk's games exactly; and list what is missing."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir) if manifest is None else manifest
    games, size = _chunk_plan(manifest, run_dir)
    check = PartCheck(run_dir, str(manifest.get("game", "GAME")), games, size)
    for path in sorted(run_dir.glob(PART_GLOB)):
        number = _part_number(path)
        if number is None or not 0 <= number < check.chunks:
            check.damaged.append((path, f"is not a part of this run (it has {check.chunks} "
                                        "chunks)"))
            continue
        table, why = _verify_part(path, number, manifest, games, size)
        if table is None:
            check.damaged.append((path, why))
        else:
            check.tables[number] = table
    return check


def set_aside(check: PartCheck) -> str | None:
    """Rename every bad part of `check` to `<name>.rejected` (so its chunk is played again);
    one line saying which, or None."""
    if not check.damaged:
        return None
    moved = []
    for path, why in check.damaged:
        target = path.with_name(path.name + REJECTED_SUFFIX)
        copy = 1
        while target.exists():
            copy += 1
            target = path.with_name(f"{path.name}{REJECTED_SUFFIX}-{copy}")
        os.replace(path, target)
        moved.append(f"{path.name} {why}")
    return (f"warning: replaying {len(moved)} bad part(s) of {check.run_dir}, moved aside as "
            f"*{REJECTED_SUFFIX}: " + "; ".join(moved))


def _part_number(path: Path) -> int | None:
    match = re.fullmatch(r"part-(\d+)\.parquet", path.name)
    return int(match.group(1)) if match else None


def finished_chunks(run_dir: Path) -> set[int]:
    """Chunk numbers whose part is on disk (leftover temp files do not count)."""
    done = set()
    for path in run_dir.glob(PART_GLOB):
        try:
            done.add(int(path.stem.split("-")[1]))
        except (IndexError, ValueError):
            continue
    return done


def manifest_digest(manifest: dict[str, Any]) -> str:
    """SHA-256 of every field of a manifest but its checksum, in one canonical JSON form."""
    fields = {k: v for k, v in manifest.items() if k != MANIFEST_CHECKSUM}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest atomically, with the checksum `read_manifest` holds it to."""
    # the digest of the fields as they read back (JSON turns tuples into lists, int keys
    # into strings), so the reader's digest is the same
    body = json.loads(json.dumps({"format": FORMAT, "format_version": FORMAT_VERSION,
                                  **manifest}))
    body[MANIFEST_CHECKSUM] = manifest_digest(body)
    tmp = run_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(body, indent=2, sort_keys=True))
    os.replace(tmp, run_dir / MANIFEST)


def read_manifest(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The run's manifest; a missing, corrupt or foreign directory raises `RunError`, and so
    does a manifest edited after its run was written (its fields no longer match its
    checksum): an edited seed or line-up would describe games the parts do not hold.
    Manifests written before the checksum (format version 1 and 2) are read unchecked."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise RunError(f"{run_dir} is not a directory")
    path = run_dir / MANIFEST
    if not path.is_file():
        raise RunError(f"{run_dir} is not a results run (no {MANIFEST})")
    try:
        manifest = json.loads(read_user_file(path, "manifest"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"{path} is unreadable or corrupt: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise RunError(f"{path} is not a {FORMAT} manifest")
    if _edited(manifest):
        raise RunError(f"{path} was edited after its run was written (its fields no longer "
                       "match its checksum); restore it, or play the run again into a new "
                       "--out")
    return manifest


def _edited(manifest: dict[str, Any]) -> bool:
    """Whether a manifest's fields differ from what its checksum says was written (one of a
    format version that writes a checksum but has none lost it: edited too)."""
    stored = manifest.get(MANIFEST_CHECKSUM)
    if stored is None:
        version = manifest.get("format_version", 1)
        return not isinstance(version, int) or version >= CHECKSUM_SINCE
    return stored != manifest_digest(manifest)


def check_study_dir(out: Path, record: str, spec: dict[str, Any], what: str,
                    parse: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> bool:
    """A study directory (a sweep, a tuning run, a compensation search) must be new, empty,
    or hold this very study in its spec record `record` (to resume it); anything else is bad
    input, refused before a game is played.  `parse` reads the record into the form of `spec`
    (the record as stored when None).  Returns whether the directory holds the study."""
    stored = out / record
    if out.exists() and not out.is_dir():
        raise BadInput(f"{out} is not a directory")
    if stored.is_file():
        try:
            data = json.loads(read_user_file(stored, "study record"))
            recorded = parse(data) if parse is not None else data
        except (OSError, ValueError, KeyError, TypeError):
            raise BadInput(f"{stored} is unreadable or corrupt; remove it or use another "
                           "--out") from None
        if recorded != spec:
            raise BadInput(f"{out} holds a different {what}; remove it or use another --out")
        return True
    if out.exists() and any(out.iterdir()):
        raise BadInput(f"{out} is not empty and holds no {what}; use another --out")
    return False


def spec_dir_name(spec: str) -> str:
    """The directory of one bot spec's runs inside a study (a ladder level, an exploit
    deviator, a landscape table): the spec with every character a file name should not hold
    replaced by '_'."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec)


def read_study_record(out: str | os.PathLike, record: str, what: str,
                      parse: Callable[[dict[str, Any]], T]) -> T:
    """The spec record of a finished study (to resume, report or load it), read by `parse`:
    one line of bad input when the directory holds none or the record is damaged."""
    path = Path(out) / record
    if not path.is_file():
        raise BadInput(f"{out} holds no {what} ({record} missing)")
    try:
        return parse(json.loads(read_user_file(path, "study record")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"{path} is unreadable or corrupt: {exc}") from None


def write_study_record(out: Path, record: str, spec: dict[str, Any]) -> None:
    """Create the study directory and its spec record (what `check_study_dir` compares)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / record).write_text(json.dumps(spec, indent=2))
    except OSError as exc:
        raise BadInput(f"cannot write to {out}: {exc.strerror}") from None


def load_run(run_dir: str | os.PathLike, include_truncated: bool = True,
             allow_incomplete: bool = False) -> pd.DataFrame:
    """All games of a run, one row per seat per game, sorted by game and seat.

    A run with a missing, damaged or foreign part raises `RunError` naming the part: a result
    from part of a run must never pass for the whole.  `allow_incomplete` loads the parts
    that check out instead, and puts the warning line in `frame.attrs["incomplete"]`.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    check = check_parts(run_dir, manifest)
    problem = check.problem()
    if problem and not allow_incomplete:
        raise RunError(problem)
    tables = [check.tables[n] for n in sorted(check.tables)]
    if not tables:
        raise RunError(f"{run_dir} holds no finished games yet" if not check.damaged
                       else str(problem))
    try:  # parts may differ in score sources: missing columns become nulls, then 0 below
        table = pa.concat_tables(tables, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise RunError(f"{run_dir} parts do not fit together: {exc}") from None
    table = table.select(canonical_order(table.column_names))
    # a kind some parts lack was chosen 0 times there (its availability stays unknown: NaN);
    # filled in Arrow, so pandas gets int32 columns in one block (filling ~30 columns in
    # pandas fragments the frame)
    for index, name in enumerate(table.column_names):
        if name.startswith(CHOSEN_PREFIX) and table.column(index).null_count:
            table = table.set_column(index, name, pc.fill_null(table.column(index), 0))
    frame = table.to_pandas()
    missing = [c for c in BASE_COLUMNS if c not in frame.columns]
    if missing:
        raise RunError(f"{run_dir} parts lack columns {missing}")
    if (frame["game"] != manifest.get("game")).any():
        raise RunError(f"{run_dir} mixes games other than {manifest.get('game')!r}")
    frame = frame.sort_values(["game_index", "seat"], kind="stable").reset_index(drop=True)
    if frame.duplicated(["game_index", "seat"]).any():
        raise RunError(f"{run_dir} counts some games twice")
    pts = [c for c in frame.columns if c.startswith(("pts_", "m_"))]
    frame[pts] = frame[pts].fillna(0.0)
    if not include_truncated:
        frame = frame[~frame["truncated"]].reset_index(drop=True)
    frame.attrs["manifest"] = manifest
    frame.attrs["incomplete"] = check.warning()
    return frame


def load_runs(run_dirs: Sequence[str | os.PathLike]) -> pd.DataFrame:
    """Several runs stacked (each keeps its run_id)."""
    import pandas as pd

    return pd.concat([load_run(d) for d in run_dirs], ignore_index=True).copy()  # one block each
