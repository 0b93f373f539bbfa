"""The result frame (one row per seat per game) and its on-disk form: Parquet parts + manifest.

A run directory holds `manifest.json` (the spec, seed, package and data-set versions) and
one `part-NNNNN.parquet` per finished chunk.  Parts are written atomically (temp file +
rename), so a killed run leaves only whole parts and a resumed run never double-counts.

A chunk travels from its worker as a pyarrow `Table` and is written as it is; only loading
a run makes a DataFrame: a table is much cheaper to build, pickle and write (figures: README,
"Architecture", measured design choices).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from engines.core import GameRecord
from engines.errors import BadInput

if TYPE_CHECKING:
    import pandas as pd

MANIFEST = "manifest.json"
FORMAT = "tabletop-sim-run"
FORMAT_VERSION = 1
PART_GLOB = "part-*.parquet"
#: Column prefixes of the action-kind counts (chosen, available).
KIND_PREFIXES = ("k_", "a_")
CHOSEN_PREFIX = "k_"

#: Columns every result frame has, in order; `pts_<source>`, `m_<metric>` and the action-kind
#: counts `k_<kind>`, `a_<kind>` follow.
BASE_COLUMNS = [
    "run_id", "game", "rules", "dataset", "players", "game_index", "seed", "seat", "bot",
    "score", "rank", "win_share", "truncated", "decisions", "branching",
]


class RunError(BadInput):
    """A results directory that is missing, unreadable, corrupt or not a run."""


def chunk_columns(
    records: Sequence[GameRecord], first_index: int, seeds: Sequence[int],
    lineups: Sequence[Sequence[str]], meta: dict[str, Any], kinds: Sequence[str] = (),
) -> dict[str, list]:
    """One row per seat of each game, as columns; game i of the chunk is `first_index + i`.

    `kinds` are the game's `action_kinds`: with records that counted them, each gets a
    `k_<kind>` and an `a_<kind>` column (see `kind_columns`); `a_` is NaN in the rows of
    games whose availability was not measured.

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


def write_part(run_dir: Path, chunk: int, table: pa.Table) -> Path:
    """Write one chunk atomically; writing the same chunk twice leaves one copy."""
    path = part_path(run_dir, chunk)
    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return path


def finished_chunks(run_dir: Path) -> set[int]:
    """Chunk numbers whose part is on disk (leftover temp files do not count)."""
    done = set()
    for path in run_dir.glob(PART_GLOB):
        try:
            done.add(int(path.stem.split("-")[1]))
        except (IndexError, ValueError):
            continue
    return done


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    body = {"format": FORMAT, "format_version": FORMAT_VERSION, **manifest}
    tmp = run_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(body, indent=2, sort_keys=True))
    os.replace(tmp, run_dir / MANIFEST)


def read_manifest(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The run's manifest; a missing, corrupt or foreign directory raises `RunError`."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise RunError(f"{run_dir} is not a directory")
    path = run_dir / MANIFEST
    if not path.is_file():
        raise RunError(f"{run_dir} is not a results run (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"{path} is unreadable or corrupt: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise RunError(f"{path} is not a {FORMAT} manifest")
    return manifest


def load_run(run_dir: str | os.PathLike, include_truncated: bool = True) -> pd.DataFrame:
    """All finished games of a run, one row per seat per game, sorted by game and seat."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    parts = sorted(run_dir.glob(PART_GLOB))
    if not parts:
        raise RunError(f"{run_dir} holds no finished games yet")
    tables = []
    for part in parts:
        try:
            tables.append(pq.ParquetFile(part).read())
        except Exception as exc:  # pyarrow raises several types for damaged files
            raise RunError(f"{part} is unreadable or corrupt: {exc}") from None
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
    return frame


def load_runs(run_dirs: Sequence[str | os.PathLike]) -> pd.DataFrame:
    """Several runs stacked (each keeps its run_id)."""
    import pandas as pd

    return pd.concat([load_run(d) for d in run_dirs], ignore_index=True).copy()  # one block each
