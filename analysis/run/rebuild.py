"""Rebuilding games of a stored run: game N replayed with the runner's own seeds, rotation
and bots, its actions recorded as a transcript source (`simulate show`, the report's
example games, the notebooks).  The replay must reproduce the stored scores."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.results.transcripts import GameSource, load
from analysis.run import tournament
from analysis.stats import balance
from analysis.stats.picks import pick_game, typical_game
from engines import get_game, play_game
from engines.bots import make_bot
from engines.errors import BadInput

#: The report shows example games of this many runs at most: each example is replayed with
#: its bots (seconds for MCTS line-ups) and adds about 50 kB.
MAX_EXAMPLE_RUNS = 6


def from_run(run_dir: str | os.PathLike, index: int) -> GameSource:
    """Game `index` of the run in `run_dir`, replayed with the runner's seeds, line-up and bots.

    The replay's final scores must equal the run's row; they differ only if the engines or
    bots changed since the run was made, which is reported as a RunError.
    """
    manifest = store.read_manifest(run_dir)
    spec = tournament.spec_from_manifest(manifest)
    if not 0 <= index < spec.games:
        raise BadInput(f"--game must be 0-{spec.games - 1} for this run, got {index}")
    frame = store.load_run(run_dir)
    rows = frame[frame["game_index"] == index].sort_values("seat")
    if rows.empty:
        raise store.RunError(f"game {index} is not in the finished chunks of {run_dir}")
    game = get_game(spec.game)
    seed = int(tournament.seeds_between(spec.seed, index, index + 1, spec.seed_branch)[0])
    lineup = tournament.lineup_for(spec, index)
    bots = [make_bot(bot_spec, game) for bot_spec in lineup]
    record = play_game(game, bots, seed, spec.players, spec.rules, record=True)
    stored = [float(s) for s in rows["score"]]
    if [float(s) for s in record.scores] != stored:
        raise store.RunError(
            f"replaying game {index} gives scores {record.scores}, the run stored {stored}: "
            f"the engines or bots changed since the run (made by version "
            f"{manifest.get('package_version')})")
    return GameSource(
        game=spec.game, players=spec.players, seed=seed, rules=dict(spec.rules),
        lineup=list(lineup), actions=list(record.actions or []),
        label=f"run {manifest.get('run_id', '?')} ({Path(run_dir)}), game {index}",
        scores=stored, finished=not record.truncated)


def open_source(path: str | os.PathLike, index: int | None, pick: str | None) -> GameSource:
    """A run directory with `--game`/`--pick`, or a transcript file (then neither)."""
    path = Path(path)
    if path.is_file():
        if index is not None or pick is not None:
            raise BadInput(f"{path} is a transcript file: --game and --pick need a run dir")
        return load(path)
    if not (path / store.MANIFEST).is_file():
        below = sorted(str(p.parent) for p in path.rglob(store.MANIFEST)) if path.is_dir() else []
        if below:
            raise store.RunError(f"{path} holds {len(below)} runs; show one of them: "
                                   + ", ".join(below[:5]) + (" ..." if len(below) > 5 else ""))
        raise store.RunError(f"{path} is neither a run directory nor a transcript file")
    if (index is None) == (pick is None):
        raise BadInput("give exactly one of --game N and --pick CRITERION")
    if pick is not None:
        index = pick_game(store.load_run(path), pick)
    return from_run(path, int(index))


def examples(frame: pd.DataFrame, run_dir: str | os.PathLike,
             extreme: str = "largest-margin") -> list[tuple[str, GameSource]]:
    """A typical and an extreme game of one run, for the report and the notebooks."""
    out = []
    for title, index in (("typical game (median margin and length)", typical_game(frame)),
                         (f"extreme game ({extreme})", pick_game(frame, extreme))):
        out.append((f"{title}: game {index}", from_run(run_dir, index)))
    return out


def report_examples(manifests: Sequence[dict[str, Any]]
                    ) -> list[tuple[dict[str, Any], list[tuple[str, GameSource]] | str]]:
    """The report's example games: per run (the first `MAX_EXAMPLE_RUNS` with a directory) a
    typical and an extreme game, or why none could be rebuilt (a game that no longer
    replays is named, not shown)."""
    out: list[tuple[dict[str, Any], list[tuple[str, GameSource]] | str]] = []
    for manifest in list(manifests)[:MAX_EXAMPLE_RUNS]:
        run_dir = manifest.get("path", "")
        if not run_dir:  # a frame rendered without its run directories: nothing to replay
            continue
        try:
            out.append((manifest, examples(store.load_run(run_dir), run_dir)))
        except (ValueError, OSError) as exc:  # RunError is a ValueError
            out.append((manifest, str(exc)))
    return out


def most_extreme(run_dirs: Sequence[str | os.PathLike]) -> GameSource:
    """The game with the largest winning margin over the runs (for the notebooks)."""
    best: tuple[float, str | os.PathLike, int] | None = None
    for run_dir in run_dirs:
        frame = store.load_run(run_dir)
        index = pick_game(frame, "largest-margin")
        outcomes = balance.game_outcomes(frame)
        margin = float(outcomes.loc[outcomes["game_index"] == index, "margin"].iloc[0])
        if best is None or margin > best[0]:
            best = (margin, run_dir, index)
    if best is None:
        raise BadInput("no runs given")
    return from_run(best[1], best[2])
