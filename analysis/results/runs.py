"""Finding and loading the runs a study names: a run directory, or a directory with runs below
it (a duplicate comparison, an experiment), stacked into one frame with their manifests.

Confirmation runs (fresh deals stored beside a run as `RUN-confirm`, on a seed branch of their
own) are not runs of their own: `load` leaves them out, and the confirmation replay reads
them back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store

#: Where the fresh deals of a run live: beside it, with this suffix.
CONFIRM_SUFFIX = "-confirm"


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


def is_confirmation(manifest: dict[str, Any]) -> bool:
    """Whether a run holds fresh deals that confirm another run (not a run of its own)."""
    return int(manifest.get("seed_branch", 0) or 0) != 0


def confirmation_dir(run_dir: str | Path) -> Path:
    """Where the fresh deals of a run live: beside it, `RUN-confirm`."""
    run_dir = Path(run_dir)
    return run_dir.with_name(run_dir.name + CONFIRM_SUFFIX)


def find_runs(paths: Sequence[str | os.PathLike]) -> list[Path]:
    """Run directories named by `paths`: each a run, or a directory with runs below it."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            raise store.RunError(f"{path} is not a directory")
        if (path / store.MANIFEST).is_file():
            found.append(path)
            continue
        below = sorted(p.parent for p in path.rglob(store.MANIFEST))
        if not below:
            raise store.RunError(f"{path} is not a results run (no {store.MANIFEST}) "
                                   "and holds no runs")
        found.extend(below)
    return list(dict.fromkeys(found))


def load(paths: Sequence[str | os.PathLike], allow_incomplete: bool = False,
         ) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """The stacked frame of every run found, and their manifests (in the same order).

    Confirmation runs are left out here and read back when findings are confirmed.  A run
    with a missing or bad part raises `RunError` unless `allow_incomplete`; then its
    manifest carries the warning (`incomplete`), which the report shows.
    """
    run_dirs = [d for d in find_runs(paths)
                if not is_confirmation(store.read_manifest(d))]
    if not run_dirs:
        raise store.RunError("only confirmation runs found; name the original runs")
    frames = [store.load_run(d, allow_incomplete=allow_incomplete) for d in run_dirs]
    manifests = [f.attrs["manifest"] | {"path": str(d), "incomplete": f.attrs["incomplete"]}
                 for f, d in zip(frames, run_dirs)]
    # copy(): runs of different games have different k_ columns; the stacked frame comes out
    # in many blocks, and every later column added to it warned (PerformanceWarning)
    frame = pd.concat(frames, ignore_index=True).copy()
    frame.attrs = {}
    return frame, manifests
