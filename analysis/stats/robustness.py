"""Does a balance conclusion hold with other bots?  Seat and scoring-source shares per line-up.

A seat edge measured with one kind of bot may be a property of that bot (it skips a system,
it plays the opening badly) rather than of the game.  The robustness study
(`experiments/robustness.toml`) plays each game with several line-ups — random, every
heuristic style, MCTS — and this module sets them side by side: seat win shares and the
share of points from each scoring source with 95% intervals, and for each headline
conclusion a verdict in plain words from a heterogeneity test (χ² line-up × win per seat,
read with each line-up's direction; `analysis.stats.verdicts.heterogeneity`).

A run's line-up is the set of bot specs it seated (`lineup` column, e.g. `heuristic` or
`heuristic + mcts`).  The heterogeneity tests belong to the output's one family
(`findings.family`, Holm).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import balance
from analysis.stats import verdicts as wording

#: The line-up whose findings are the headline conclusions checked under the others.
REFERENCE = "heuristic"


def lineup_labels(frame: pd.DataFrame) -> pd.Series:
    """Per row, its run's line-up: the run's distinct bot specs, sorted, joined by ' + '."""
    key = "run_id" if "run_id" in frame else None
    if key is None:
        return pd.Series(" + ".join(sorted(frame["bot"].unique())), index=frame.index)
    labels = frame.groupby(key)["bot"].agg(lambda bots: " + ".join(sorted(set(bots))))
    return frame[key].map(labels)


def with_lineups(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with a `lineup` column (kept if present: hand-made frames may set it)."""
    if "lineup" in frame:
        return frame
    # concat, not assign: a stacked frame of many runs is fragmented, and assign warns on it
    return pd.concat([frame, lineup_labels(frame).rename("lineup")], axis=1)


def has_lineups(frame: pd.DataFrame) -> bool:
    """Whether some context was played with two or more line-ups (a robustness study)."""
    frame = with_lineups(frame)
    ctx = balance.context_columns(frame)
    counts = frame.groupby(ctx)["lineup"].nunique() if ctx else pd.Series(
        [frame["lineup"].nunique()])
    return bool((counts >= 2).any())


def _order(lineups, reference: str) -> list[str]:
    names = sorted(set(lineups))
    return ([reference] if reference in names else []) + [n for n in names if n != reference]


def seat_shares(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Win share per context, line-up and seat, with Wilson intervals and the fair share (for
    tables and charts; the tests are the heterogeneity tests of `heterogeneity_tests`)."""
    frame = with_lineups(frame)
    ctx = balance.context_columns(frame)
    out = balance.win_share(frame, ctx + ["lineup", "seat"], confidence)
    return out.drop(columns=["wins", "mean_score"])


def source_shares(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Share of all points that came from each scoring source, per context and line-up.

    Points count absolute (`balance.absolute_points`), so a share lies in [0, 1] also where
    a source subtracts or the lowest score wins; `subtracts` marks a source whose points
    sum to less than zero.  A ratio of sums over games; the interval
    treats each game as one unit (its seats' points are correlated), by linearization as in
    `balance.clustered_win_share`.
    """
    frame = with_lineups(frame)
    sources = balance.source_columns(frame)
    ctx = balance.context_columns(frame)
    columns = ctx + ["lineup", "source", "games", "share", "ci_low", "ci_high", "subtracts"]
    if not sources:
        return pd.DataFrame(columns=columns)
    z = balance._z(confidence)
    game_key = [c for c in balance.GAME_KEY if c in frame]
    rows = []
    for key, group in frame.groupby(ctx + ["lineup"], sort=True):
        key = key if isinstance(key, tuple) else (key,)
        own = balance.own_columns(group, sources)
        per_game = balance.absolute_points(group, own).groupby(game_key)[own].sum()
        total = per_game.sum(axis=1).to_numpy()
        net = group[own].sum()
        k = len(per_game)
        for source in own:
            points = per_game[source].to_numpy()
            share = points.sum() / total.sum() if total.sum() else np.nan
            resid = points - share * total
            se = (np.sqrt(k / (k - 1) * (resid**2).sum()) / abs(total.sum())
                  if k > 1 and total.sum() else np.nan)
            rows.append({**dict(zip(ctx + ["lineup"], key)), "source": source[4:],
                         "games": k, "share": share, "ci_low": share - z * se,
                         "ci_high": share + z * se, "subtracts": bool(net[source] < 0)})
    return pd.DataFrame(rows, columns=columns)


def unit_shares(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Win share per context, line-up and seat (team in partnership games), with Wilson
    intervals: the counts behind the heterogeneity tests."""
    frame = with_lineups(frame)
    parts = [balance.team_win_share(group, confidence).assign(lineup=lineup)
             for lineup, group in frame.groupby("lineup", sort=True)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _contexts(frame: pd.DataFrame):
    """(context dict, rows) of every context played with two or more line-ups."""
    ctx = balance.context_columns(frame)
    for key, group in frame.groupby(ctx, sort=True) if ctx else [((), frame)]:
        key = key if isinstance(key, tuple) else (key,)
        if group["lineup"].nunique() >= 2:
            yield dict(zip(ctx, key)), group


def _where(table: pd.DataFrame, where: dict) -> pd.DataFrame:
    if not where or table.empty:
        return table
    return table[np.logical_and.reduce([table[c] == v for c, v in where.items()])]


def heterogeneity_tests(frame: pd.DataFrame, reference: str = REFERENCE) -> pd.DataFrame:
    """Per context with two or more line-ups and per seat (team): the raw χ² p of line-up ×
    win over the line-ups that can tell (`verdicts.too_few`).  These p-values belong to the
    output's family (`findings.family`)."""
    frame = with_lineups(frame)
    ctx = balance.context_columns(frame)
    units = unit_shares(frame)
    rows = []
    for where, _ in _contexts(frame):
        part = _where(units, where)
        for (team, label), lineups in part.groupby(["team", "seats"], sort=True):
            rows.append({**where, "unit": int(team), "subject": label,
                         "games": int(lineups["games"].sum()),
                         "p_value": wording.heterogeneity_test(lineups, reference)})
    return pd.DataFrame(rows, columns=ctx + ["unit", "subject", "games", "p_value"])


def verdicts_table(frame: pd.DataFrame, tests: pd.DataFrame,
                   reference: str = REFERENCE) -> pd.DataFrame:
    """Per context with two or more line-ups: does each conclusion hold with other bots?

    One verdict per seat (team) that is worth a sentence — seat 1 always, any other when its
    share is off the fair one with the reference line-up or differs between line-ups (after
    the family's adjustment) — and one on the largest scoring source.  `tests`: the output's
    family (`findings.family`; `findings.robustness_verdicts` builds it for you).
    """
    frame = with_lineups(frame)
    ctx = balance.context_columns(frame)
    units = unit_shares(frame)
    sources = source_shares(frame)
    rows = []
    for where, _ in _contexts(frame):
        part = _where(units, where)
        found = _where(tests, where) if len(tests) else tests
        for (team, label), lineups in part.groupby(["team", "seats"], sort=True):
            seat_rows = found[(found["kind"] == "seat") & (found["subject"] == label)] \
                if len(found) and "lineup" in found else found.iloc[:0]
            lineup_p = dict(zip(seat_rows["lineup"], seat_rows["p_adjusted"].astype(float))) \
                if len(seat_rows) else {}
            het_row = found[(found["kind"] == "robustness") & (found["subject"] == label)] \
                if len(found) else found
            ref_p = lineup_p.get(reference)
            het_p = float(het_row["p_adjusted"].iloc[0]) if len(het_row) else None
            verdict = wording.heterogeneity(lineups, reference, label, ref_p, het_p,
                                            lineup_p=lineup_p or None)
            ref_sig = ref_p is not None and ref_p < balance.ALPHA
            het_sig = het_p is not None and het_p < balance.ALPHA
            if team != 0 and not ref_sig and not het_sig:
                continue
            rows.append({**where, "conclusion": label, "verdict": verdict.claim,
                         "holds": "holds under every line-up" in verdict.claim,
                         "details": verdict.test, "p_value": verdict.p_value,
                         "p_adjusted": verdict.p_adjusted})
        shares = _where(sources, where)
        if len(shares) and shares["share"].notna().any():
            verdict = wording.source_robustness(
                shares, reference, direction=balance.score_direction(where.get("game", "")))
            rows.append({**where, "conclusion": "largest scoring source",
                         "verdict": verdict.claim, "holds": "under every line-up" in
                         verdict.claim, "details": verdict.test, "p_value": np.nan,
                         "p_adjusted": np.nan})
    return pd.DataFrame(rows, columns=ctx + ["conclusion", "verdict", "holds", "details",
                                             "p_value", "p_adjusted"])


def side_by_side(table: pd.DataFrame, index: str, reference: str = REFERENCE) -> pd.DataFrame:
    """A seat or source table of one context as rows × line-ups: 'share [low–high]' cells
    (seats stay numbered from 0, as in every table; the report prints them from 1)."""
    if table.empty:
        return table
    share = "win_share" if "win_share" in table else "share"
    cells = table.assign(cell=[
        f"{100 * s:.1f}% [{100 * lo:.1f}–{100 * hi:.1f}]"
        for s, lo, hi in zip(table[share], table["ci_low"], table["ci_high"])])
    wide = cells.pivot(index=index, columns="lineup", values="cell")
    games = table.groupby("lineup")["games"].max()
    wide = wide[_order(wide.columns, reference)]
    wide.columns = [f"{c} ({games[c]:,} games)" for c in wide.columns]
    return wide.reset_index()
