"""The family of tests a report presents: adjusted p-values, detectable effects, confirmation.

A report asks many questions at once (a test per seat of every game and player count, a test
per bot in every comparison, a heterogeneity test per seat across line-ups), so some answers
come out "significant" by chance alone.  `family` gathers every test that can make anything
"significant" in one output and adjusts their p-values together (Holm: one family per
report or summary, its size stated) and states each one's detectable effect at 80% power
(a planning figure).  The confirmation replay (`run.confirm`)
then replays every significant finding on fresh deals — the same runs with seeds from a
separate branch of the run's seed sequence, stored beside the originals as `RUN-confirm` and
resumable like any run — and `score_replays` keeps it only if it shows again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from analysis.stats import balance, verdicts

#: Correction across one output's family (family-wise: see `verdicts.Family`).
FAMILY_METHOD = "holm"


def mixed_games(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of games seating two or more different bots: only these can say anything
    about a bot (with one bot in every seat it wins exactly the fair share: a trivial test)."""
    if "bot" not in frame or frame.empty:
        return frame.iloc[:0]
    key = [c for c in balance.GAME_KEY if c in frame]
    distinct = frame.groupby(key)["bot"].transform("nunique")
    return frame[distinct >= 2]


def _bot_tests(frame: pd.DataFrame, split: list[str]) -> list[dict[str, Any]]:
    """Per bot, per context with mixed games: its win share against the fair share.

    The standard error is clustered by deal (duplicate-aware); p from the normal test.
    """
    rows = []
    mixed = mixed_games(balance._counted(frame, include_truncated=False))
    if mixed.empty:
        return rows
    z = balance._z(0.95)
    for key, group in mixed.groupby(split, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        fair = 1.0 / int(group["players"].iloc[0])
        for row in balance.clustered_win_share(group).itertuples():
            stat = (row.win_share - fair) / row.se if row.se and row.se > 0 else np.nan
            rows.append({**dict(zip(split, key)), "kind": "bot", "subject": row.bot,
                         "unit": -1, "games": row.games, "share": row.win_share,
                         "ci_low": row.win_share - z * row.se,
                         "ci_high": row.win_share + z * row.se, "fair": fair,
                         "effect": row.win_share - fair, "half_width": row.half_width,
                         "mde": float(balance.mde_from_se(row.se)),
                         "p_value": balance.two_sided_p(stat)})
    return rows


def _seat_tests(frame: pd.DataFrame, split: list[str]) -> list[dict[str, Any]]:
    """Per context (and line-up) and seat (team in partnership games): its share against
    the fair one, with its Wilson interval and detectable effect."""
    rows = []
    ctx = balance.context_columns(frame)
    extra = [c for c in split if c not in ctx]
    groups = frame.groupby(extra, sort=True) if extra else [((), frame)]
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        for unit in balance.seat_tests(group).to_dict("records"):
            rows.append({**{c: unit[c] for c in ctx}, **dict(zip(extra, key)), "kind": "seat",
                         "subject": unit["seats"], "unit": int(unit["team"]),
                         "games": int(unit["games"]), "share": unit["win_share"],
                         "ci_low": unit["ci_low"], "ci_high": unit["ci_high"],
                         "fair": unit["fair"], "effect": unit["win_share"] - unit["fair"],
                         "half_width": (unit["ci_high"] - unit["ci_low"]) / 2,
                         "mde": unit["mde"], "p_value": unit["p_value"]})
    return rows


def split_columns(frame: pd.DataFrame) -> list[str]:
    """What one balance verdict covers: the context, and the line-up when a context was
    played with several (a robustness study)."""
    from analysis.stats import robustness

    ctx = balance.context_columns(frame)
    return ctx + (["lineup"] if robustness.has_lineups(frame) else [])


def family(frame: pd.DataFrame, extra: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every test that can make anything "significant" in one output, adjusted together.

    One row per seat (team) of every context (and line-up), per bot of every context with
    mixed games, per seat of every context played with several line-ups (the heterogeneity
    test, `kind` robustness), and any `extra` rows (`kind`, `subject`, `p_value`: a sweep's
    effects, for instance).  `p_adjusted` is Holm over all rows (`verdicts.Family`),
    `significant` uses it and `tests` is the family size.
    """
    from analysis.stats import robustness

    if "lineup" not in frame and "bot" in frame:
        frame = robustness.with_lineups(frame)
    ctx = balance.context_columns(frame)
    split = split_columns(frame) if len(frame) else []
    rows = _seat_tests(frame, split) + _bot_tests(frame, split) if len(frame) else []
    if "lineup" in split:
        rows += [{**row, "kind": "robustness"} for row in
                 robustness.heterogeneity_tests(frame).to_dict("records")]
    out = pd.DataFrame(rows)
    if extra is not None and len(extra):
        out = pd.concat([out, extra], ignore_index=True)
    if out.empty:
        return out
    members = verdicts.Family()
    members.add_all(range(len(out)), out["p_value"])
    out["p_adjusted"] = [members.adjusted(i) for i in range(len(out))]
    out["significant"] = out["p_adjusted"] < balance.ALPHA
    out["tests"] = members.size
    for column in ("confirm_games", "confirm_p", "confirm_share", "confirm_low",
                   "confirm_high"):
        out[column] = np.nan
    out["confirmed"] = pd.Series([None] * len(out), dtype=object)
    return out[[c for c in ctx + ["lineup"] if c in out] +
               [c for c in out.columns if c not in ctx + ["lineup"]]]


def robustness_verdicts(frame: pd.DataFrame, tests: pd.DataFrame | None = None,
                        reference: str | None = None) -> pd.DataFrame:
    """Does each conclusion hold with other bots? (`robustness.verdicts_table` with this
    frame's one family, built here when not given.)"""
    from analysis.stats import robustness

    tests = family(frame) if tests is None else tests
    return robustness.verdicts_table(frame, tests, reference or robustness.REFERENCE)


def describe_correction(tests: pd.DataFrame, where: str = "report") -> str:
    """One sentence: which correction, over how many tests (the family size)."""
    n = int(tests["p_value"].notna().sum()) if len(tests) else 0
    trends = " and every skill-ladder trend" if len(tests) and (
        tests["kind"] == "ladder").any() else ""
    return (f"p-values adjusted with Holm over the {n} test{'s' if n != 1 else ''} in this "
            f"{where} (one family: every seat, bot and robustness test{trends}); "
            f"'significant' means adjusted p < {balance.ALPHA:g}.")


def format_p(p: float) -> str:
    """A p-value's relation for reading ("= 0.0123", "< 1e-15"): never a bare 0."""
    if p != p:
        return "= –"
    return "< 1e-15" if p < 1e-15 else f"= {p:.3g}"


# --------------------------------------------------------------------------------------------
# Confirmation on fresh deals
# --------------------------------------------------------------------------------------------


def matches(manifest: dict[str, Any], row: pd.Series, ctx: list[str]) -> bool:
    """Whether a run (its manifest) played in the context of a finding (`ctx` columns)."""
    values = {"game": manifest.get("game"), "players": int(manifest.get("players", 0)),
              "rules": manifest.get("rules_str", ""),
              "lineup": " + ".join(sorted(set(manifest.get("bots", []))))}
    return all(values[c] == row[c] for c in ctx)


def to_confirm(tests: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The findings a confirmation replays (significant seat and bot rows: a robustness
    finding compares line-ups) and the columns naming their context."""
    ctx = [c for c in balance.CONTEXT + ["lineup"] if c in tests.columns]
    if tests.empty or not tests["significant"].any():
        return tests.iloc[:0], ctx
    return tests[tests["significant"] & tests["kind"].isin(["seat", "bot"])], ctx


def score_replays(tests: pd.DataFrame, fresh_frames: dict[tuple, pd.DataFrame]) -> pd.DataFrame:
    """`tests` with each significant finding tested once more on its fresh deals
    (`fresh_frames`: context key -> the fresh games of that context).

    A finding is confirmed (seat or bot alike) when the fresh share differs from fair with
    p < 0.05 in the same direction.  One pre-stated test per finding, so no further
    adjustment.
    """
    tests = tests.copy()
    significant, ctx = to_confirm(tests)
    for index, row in significant.iterrows():
        key = tuple(row[c] for c in ctx)
        fresh = fresh_frames.get(key)
        if fresh is None or fresh.empty:
            continue
        again = family(fresh)
        mask = (again["kind"] == row["kind"]) & (again["subject"] == row["subject"])
        again = again[mask]
        if again.empty:
            continue
        new = again.iloc[0]
        same_direction = np.sign(new["effect"]) == np.sign(row["effect"])
        tests.at[index, "confirm_games"] = int(new["games"])
        tests.at[index, "confirm_p"] = float(new["p_value"])
        tests.at[index, "confirm_share"] = float(new["share"])
        tests.at[index, "confirm_low"] = float(new["ci_low"])
        tests.at[index, "confirm_high"] = float(new["ci_high"])
        tests.at[index, "confirmed"] = bool(new["p_value"] < balance.ALPHA and same_direction)
    return tests


def _replayed(row: pd.Series | dict) -> bool | None:
    confirmed = row.get("confirmed")
    if confirmed is None or (isinstance(confirmed, float) and np.isnan(confirmed)):
        return None
    return bool(confirmed)


def status(row: pd.Series | dict) -> str:
    """A significant finding's standing on fresh deals, quoting the fresh estimate."""
    confirmed = _replayed(row)
    if confirmed is None:
        return "unconfirmed (not yet replayed on fresh deals)"
    fresh = (f"on {int(row['confirm_games']):,} fresh games: "
             f"{100 * row['confirm_share']:.1f}% [{100 * row['confirm_low']:.1f}, "
             f"{100 * row['confirm_high']:.1f}]")
    if confirmed:
        return f"confirmed {fresh} (p {format_p(row['confirm_p'])})"
    return (f"not confirmed {fresh} (p {format_p(row['confirm_p'])}) — not a finding: it "
            "may be chance, or an edge too small for this many games (replay more with "
            "--confirm-games)")


def verdict(row: pd.Series | dict) -> str:
    """One test in words: its estimate and interval, significant after the family's
    adjustment (confirmed or not) or not told apart from fair."""
    if row["kind"] not in ("seat", "bot"):
        differ = "differ" if row["significant"] else "cannot be told apart"
        return (f"the line-ups' shares {differ} (χ² line-up × win, adjusted p "
                f"{format_p(row['p_adjusted'])})") if row["kind"] == "robustness" else \
            f"adjusted p {format_p(row['p_adjusted'])}"
    edge = float(row["effect"])
    span = verdicts.interval(row["ci_low"] - row["fair"], row["ci_high"] - row["fair"])
    if row["kind"] == "bot":
        head = (f"{100 * row['share']:.1f}% [{100 * row['ci_low']:.1f}, "
                f"{100 * row['ci_high']:.1f}] of its seat-games against a fair "
                f"{100 * row['fair']:.1f}%")
    else:
        head = f"{verdicts.points(edge)} points {span} against a fair {100 * row['fair']:.1f}%"
    p = f"adjusted p {format_p(row['p_adjusted'])}"
    if not row["significant"]:
        return f"{head}: cannot tell from fair ({p})"
    word = "edge" if edge >= 0 else "shortfall"
    return f"{head}: a significant {word} ({p}), {status(row)}"


def holds_quote(row: pd.Series | dict) -> tuple[float, float, float]:
    """The estimate to quote for a finding: the fresh deals' when replayed (share, low, high),
    else the first estimate."""
    if _replayed(row) is not None and row.get("confirm_share") == row.get("confirm_share"):
        return (float(row["confirm_share"]), float(row["confirm_low"]),
                float(row["confirm_high"]))
    return float(row["share"]), float(row["ci_low"]), float(row["ci_high"])


def balance_verdicts(tests: pd.DataFrame, tolerance: float = verdicts.TOLERANCE
                     ) -> list[tuple[dict[str, Any], verdicts.Verdict]]:
    """Per context (and line-up): the equivalence verdict from the family's seat rows.

    A seat replayed on fresh deals is judged on them: confirmed, it is named with its fresh
    estimate and interval; refuted, it is no longer named as off the fair share, and the
    verdict says so.  `confirmed` of the verdict: None when a named seat was not replayed,
    else whether every significant seat was confirmed.
    """
    if tests.empty:
        return []
    seats = tests[tests["kind"] == "seat"]
    split = [c for c in balance.CONTEXT + ["lineup"] if c in seats]
    out = []
    for key, group in seats.groupby(split, sort=True) if split else [((), seats)]:
        key = key if isinstance(key, tuple) else (key,)
        where = dict(zip(split, key))
        quotes = [holds_quote(r) for _, r in group.iterrows()]
        replays = [_replayed(r) for _, r in group.iterrows()]
        notes = []
        for (_, row), replay in zip(group.iterrows(), replays):
            if not row["significant"]:
                notes.append("")
            elif replay is None:
                notes.append("unconfirmed")
            else:
                notes.append(f"confirmed on {int(row['confirm_games']):,} fresh games")
        units = pd.DataFrame({
            "seats": group["subject"].to_numpy(), "fair": group["fair"].to_numpy(),
            "mde": group["mde"].to_numpy(), "win_share": [q[0] for q in quotes],
            "ci_low": [q[1] for q in quotes], "ci_high": [q[2] for q in quotes],
            "p_value": group["p_value"].to_numpy(),
            "p_adjusted": [p if r is not False else 1.0
                           for p, r in zip(group["p_adjusted"], replays)],
            "note": notes})
        verdict = verdicts.equivalence(units, tolerance)
        significant = [r for r, s in zip(replays, group["significant"]) if s]
        confirmed = None if not significant or any(r is None for r in significant) \
            else all(significant)
        refuted = [f"{row['subject']}'s first-deal {'edge' if row['effect'] >= 0 else 'shortfall'}"
                   f" {verdicts.points(row['effect'])} points was not confirmed on "
                   f"{int(row['confirm_games']):,} fresh games "
                   f"({100 * row['confirm_share']:.1f}% [{100 * row['confirm_low']:.1f}, "
                   f"{100 * row['confirm_high']:.1f}])"
                   for (_, row), r in zip(group.iterrows(), replays) if r is False]
        claim = verdict.claim + ("; " + "; ".join(refuted) if refuted else "")
        out.append((where, replace(verdict, claim=claim, confirmed=confirmed,
                                   family_size=int(tests["tests"].iloc[0]),
                                   items=verdict.items + tuple(refuted))))
    return out


def holds(row: pd.Series | dict) -> bool:
    """A finding worth stating: significant after adjustment and not refuted on fresh deals."""
    return bool(row["significant"]) and row.get("confirmed") is not False


def adjusted_table(frame: pd.DataFrame, tests: pd.DataFrame | None = None) -> pd.DataFrame:
    """One call for a notebook: the family's tests with raw/adjusted p, MDE and verdicts
    (`tests`: the family, already confirmed by `run.confirm.confirm`, else built here).
    `run.confirm.confirmed_table` replays significant findings on fresh deals first."""
    tests = family(frame) if tests is None else tests.copy()
    if tests.empty:
        return tests
    tests["verdict"] = [verdict(row) for _, row in tests.iterrows()]
    return tests
