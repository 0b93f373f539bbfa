"""Confirmation on fresh deals: every finding significant after adjustment is replayed on the
same runs with seeds from a separate branch of each run's seed sequence
(`tournament.CONFIRM_BRANCH`), stored beside the original as `RUN-confirm` and resumable like
any run; `findings.score_replays` then keeps a finding only if it shows again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.results.runs import confirmation_dir, is_confirmation
from analysis.run import tournament
from analysis.run.study import MAX_GAMES
from analysis.stats import findings
from engines.errors import BadInput


def check_games(games: int | None) -> None:
    """`--confirm-games`: positive and at most one run's `MAX_GAMES` (checked before the
    runs it confirms are played, not after)."""
    if games is not None and not 0 < games <= MAX_GAMES:
        raise BadInput(f"--confirm-games must be positive and at most {MAX_GAMES:,} "
                       f"(10**15), got {games:,}")


def confirmation_spec(manifest: dict[str, Any], games: int | None = None) -> tournament.RunSpec:
    """The run's spec on the confirmation seed branch, with at least as many games."""
    spec = tournament.spec_from_manifest(manifest)
    return tournament.RunSpec(
        game=spec.game, players=spec.players, games=max(spec.games, games or 0),
        bots=spec.bots, seed=spec.seed, rules=spec.rules, rotate=spec.rotate,
        seed_branch=tournament.CONFIRM_BRANCH)


def _check_stored(target: Path, spec: tournament.RunSpec) -> None:
    """A confirmation of another size is already there: say so (not "a different run")."""
    if (target / store.MANIFEST).is_file():
        games = int(store.read_manifest(target).get("games", 0))
        if games != spec.games:
            raise BadInput(f"{target} holds {games:,} fresh games, not {spec.games:,}; "
                             f"remove it to confirm on {spec.games:,}")


def confirm(
    tests: pd.DataFrame, manifests: list[dict[str, Any]], games: int | None = None,
    jobs: int = 1, announce: Callable[[str], None] | None = None, backend: str = "loky",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Replay every significant finding on fresh deals and test it once more.

    The fresh games of each run in the finding's context (same bots, rules and seat
    arrangement; `games` or the run's size, whichever is larger) are played into
    `confirmation_dir(run)` — or resumed, or reused when already there — and scored by
    `findings.score_replays`.  Only seat and bot findings are replayed (a robustness finding
    compares line-ups).
    """
    tests = tests.copy()
    significant, ctx = findings.to_confirm(tests)
    if significant.empty:
        return tests
    plan: dict[tuple, list[tuple[dict[str, Any], tournament.RunSpec, Path]]] = {}
    for _, row in significant.iterrows():
        key = tuple(row[c] for c in ctx)
        if key in plan:
            continue
        plan[key] = [(m, confirmation_spec(m, games), confirmation_dir(m["path"]))
                     for m in manifests
                     if not is_confirmation(m) and findings.matches(m, row, ctx)]
    for _, spec, target in (item for runs in plan.values() for item in runs):
        _check_stored(target, spec)  # every clash reported before any game is played
    fresh_frames: dict[tuple, pd.DataFrame] = {}
    for key, runs in plan.items():
        for manifest, spec, target in runs:
            if announce:
                label = (f"{manifest['game']} {manifest['players']}p "
                         f"{manifest.get('rules_str') or 'official rules'}")
                announce(f"confirming {label} on {spec.games:,} fresh games -> {target}")
            tournament.run_or_resume(spec, target, jobs, None, backend, scheduler)
        fresh_frames[key] = (store.load_runs([t for _, _, t in runs]) if runs
                             else pd.DataFrame())
    return findings.score_replays(tests, fresh_frames)


def confirmed_table(frame: pd.DataFrame, manifests: list[dict[str, Any]],
                    games: int | None = None, jobs: int = 1) -> pd.DataFrame:
    """One call for a notebook: the family's tests, significant findings replayed on fresh
    deals beside `manifests`' runs, with raw/adjusted p, MDE and verdicts."""
    return findings.adjusted_table(frame, confirm(findings.family(frame), manifests, games,
                                                  jobs))
