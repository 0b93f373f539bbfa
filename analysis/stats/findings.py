"""The family of tests a report presents: adjusted p-values, detectable effects, confirmation.

A report asks many questions at once (a seat test per game and player count, a test per bot
in every comparison), so some answers come out "significant" by chance alone.  `family`
gathers every test behind a headline, adjusts their p-values together (Benjamini–Hochberg:
a findings list) and states each one's minimum detectable effect at 80% power.  `confirm`
then replays every significant finding on fresh deals — the same runs with seeds from a
separate branch of the run's seed sequence (`tournament.CONFIRM_BRANCH`), stored beside the
originals as `RUN-confirm` and resumable like any run — and keeps it only if it shows again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.results import store
from analysis.run import tournament
from analysis.stats import balance
from engines.errors import BadInput

#: Correction across a findings list.
FAMILY_METHOD = "bh"
CONFIRM_SUFFIX = "-confirm"


def is_confirmation(manifest: dict[str, Any]) -> bool:
    """Whether a run holds fresh deals that confirm another run (not a run of its own)."""
    return int(manifest.get("seed_branch", 0) or 0) != 0


def _bot_tests(frame: pd.DataFrame, ctx: list[str]) -> list[dict[str, Any]]:
    """Per bot, per context with several bots: its win share against the fair share.

    The standard error is clustered by deal (duplicate-aware); p from the normal test.
    """
    rows = []
    if "bot" not in frame or frame["bot"].nunique() < 2:
        return rows
    for key, group in frame.groupby(ctx, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        if group["bot"].nunique() < 2:
            continue
        fair = 1.0 / int(group["players"].iloc[0])
        for row in balance.clustered_win_share(group).itertuples():
            z = (row.win_share - fair) / row.se if row.se and row.se > 0 else np.nan
            p = balance.two_sided_p(z)
            rows.append({**dict(zip(ctx, key)), "kind": "bot", "subject": row.bot,
                         "games": row.games, "share": row.win_share, "fair": fair,
                         "effect": row.win_share - fair, "half_width": row.half_width,
                         "mde": float(balance.mde_from_se(row.se)), "p_value": p})
    return rows


def family(frame: pd.DataFrame) -> pd.DataFrame:
    """Every test behind the headline findings, with raw and adjusted p-values.

    One row per seat test (chi-square per context; teams in partnership games) and per bot
    test; `p_adjusted` is Benjamini–Hochberg over all rows, `significant` uses it, and `mde`
    is the smallest first-seat (or bot) edge the games detect with 80% power.
    """
    ctx = balance.context_columns(frame)
    rows = []
    for adv in balance.seat_advantage(frame).to_dict("records"):
        rows.append({**{c: adv[c] for c in ctx}, "kind": "seat", "subject": adv["unit"],
                     "games": adv["games"], "share": adv["first_share"], "fair": adv["fair"],
                     "effect": adv["first_edge"],
                     "half_width": (adv["edge_high"] - adv["edge_low"]) / 2,
                     "mde": adv["first_mde"], "p_value": adv["p_value"],
                     "best_seat": adv["best_seat"], "best_share": adv["best_share"],
                     "worst_seat": adv["worst_seat"], "worst_share": adv["worst_share"]})
    rows += _bot_tests(frame, ctx)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["p_adjusted"] = balance.adjust_pvalues(out["p_value"], FAMILY_METHOD)
    out["significant"] = out["p_adjusted"] < balance.ALPHA
    out["tests"] = int(out["p_value"].notna().sum())
    for column in ("confirm_games", "confirm_p", "confirm_share"):
        out[column] = np.nan
    out["confirmed"] = pd.Series([None] * len(out), dtype=object)
    return out


def describe_correction(tests: pd.DataFrame) -> str:
    """One sentence: which correction, over how many tests."""
    n = int(tests["p_value"].notna().sum()) if len(tests) else 0
    return (f"p-values adjusted with {balance.ADJUST_METHODS[FAMILY_METHOD]} (false discovery "
            f"rate) over the {n} test{'s' if n != 1 else ''} behind these findings; "
            f"'significant' means adjusted p < {balance.ALPHA:g}.")


def format_p(p: float) -> str:
    """A p-value's relation for reading ("= 0.0123", "< 1e-15"): never a bare 0."""
    if p != p:
        return "= –"
    return "< 1e-15" if p < 1e-15 else f"= {p:.3g}"


# --------------------------------------------------------------------------------------------
# Confirmation on fresh deals
# --------------------------------------------------------------------------------------------


def confirmation_dir(run_dir: str | Path) -> Path:
    """Where the fresh deals of a run live: beside it, `RUN-confirm`."""
    run_dir = Path(run_dir)
    return run_dir.with_name(run_dir.name + CONFIRM_SUFFIX)


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


def _matches(manifest: dict[str, Any], row: pd.Series, ctx: list[str]) -> bool:
    values = {"game": manifest.get("game"), "players": int(manifest.get("players", 0)),
              "rules": manifest.get("rules_str", "")}
    return all(values[c] == row[c] for c in ctx)


def confirm(
    tests: pd.DataFrame, manifests: list[dict[str, Any]], games: int | None = None,
    jobs: int = 1, announce: Callable[[str], None] | None = None, backend: str = "loky",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Replay every significant finding on fresh deals and test it once more.

    The fresh games of each run in the finding's context (same bots, rules and seat
    arrangement; `games` or the run's size, whichever is larger) are played into
    `confirmation_dir(run)` — or resumed, or reused when already there.  A seat finding is
    confirmed when the fresh chi-square has p < 0.05; a bot finding when the fresh share
    differs from fair with p < 0.05 in the same direction.  One pre-stated test per
    finding, so no further adjustment.
    """
    tests = tests.copy()
    if tests.empty or not tests["significant"].any():
        return tests
    ctx = [c for c in balance.CONTEXT if c in tests.columns]
    significant = tests[tests["significant"]]
    plan: dict[tuple, list[tuple[dict[str, Any], tournament.RunSpec, Path]]] = {}
    for _, row in significant.iterrows():
        key = tuple(row[c] for c in ctx)
        if key in plan:
            continue
        plan[key] = [(m, confirmation_spec(m, games), confirmation_dir(m["path"]))
                     for m in manifests if not is_confirmation(m) and _matches(m, row, ctx)]
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
    for index, row in significant.iterrows():
        key = tuple(row[c] for c in ctx)
        fresh = fresh_frames[key]
        if fresh.empty:
            continue
        again = family(fresh)
        mask = (again["kind"] == row["kind"]) & (again["subject"] == row["subject"])
        again = again[mask]
        if again.empty:
            continue
        new = again.iloc[0]
        same_direction = row["kind"] == "seat" or np.sign(new["effect"]) == np.sign(row["effect"])
        tests.at[index, "confirm_games"] = int(new["games"])
        tests.at[index, "confirm_p"] = float(new["p_value"])
        tests.at[index, "confirm_share"] = float(new["share"])
        tests.at[index, "confirmed"] = bool(new["p_value"] < balance.ALPHA and same_direction)
    return tests


def verdict(row: pd.Series | dict) -> str:
    """How a test reads in words: significant (confirmed or not) or the edge it rules out."""
    if not row["significant"]:
        what = row["subject"] if row["kind"] == "seat" else "bot"
        return (f"no {what} edge larger than about {100 * row['mde']:.0f} points "
                f"(adjusted p {format_p(row['p_adjusted'])}; smaller edges cannot be told from "
                "noise in these games)")
    confirmed = row.get("confirmed")
    if confirmed is None or (isinstance(confirmed, float) and np.isnan(confirmed)):
        status = "unconfirmed (not yet replayed on fresh deals)"
    elif confirmed:
        status = (f"confirmed on {int(row['confirm_games']):,} fresh games "
                  f"(p {format_p(row['confirm_p'])})")
    else:
        status = (f"not confirmed on {int(row['confirm_games']):,} fresh games "
                  f"(p {format_p(row['confirm_p'])}): not a finding — it may be chance, or an "
                  "edge too small for this many games (replay more with --confirm-games)")
    return f"significant (adjusted p {format_p(row['p_adjusted'])}), {status}"


def holds(row: pd.Series | dict) -> bool:
    """A finding worth stating: significant after adjustment and not refuted on fresh deals."""
    return bool(row["significant"]) and row.get("confirmed") is not False


def adjusted_table(frame: pd.DataFrame, confirm_on: list[dict[str, Any]] | None = None,
                   games: int | None = None, jobs: int = 1) -> pd.DataFrame:
    """One call for a notebook: the family's tests with raw/adjusted p, MDE and verdicts.

    Pass the runs' manifests as `confirm_on` to replay significant findings on fresh deals.
    """
    tests = family(frame)
    if confirm_on is not None:
        tests = confirm(tests, confirm_on, games, jobs)
    if tests.empty:
        return tests
    tests["verdict"] = [verdict(row) for _, row in tests.iterrows()]
    return tests
