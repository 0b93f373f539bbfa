"""Does a balance conclusion hold with other bots?  Seat and scoring-source shares per line-up.

A seat edge measured with one kind of bot may be a property of that bot (it skips a system,
it plays the opening badly) rather than of the game.  The robustness study
(`experiments/robustness.toml`) plays each game with several line-ups — random, every
heuristic style, MCTS — and this module sets them side by side: seat win shares and the
share of points from each scoring source with 95% intervals, and for each headline
conclusion of the reference line-up (the default heuristic) a verdict in plain words.

A run's line-up is the set of bot specs it seated (`lineup` column, e.g. `heuristic` or
`heuristic + mcts`).  Seat tests are adjusted together (Benjamini–Hochberg over every seat of
every line-up and context in the frame, `balance.adjust_pvalues`).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd

from analysis.stats import balance

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
    """Win share per context, line-up and seat, with Wilson intervals and a test against the
    fair share (normal approximation; `p_adjusted`: Benjamini–Hochberg over the whole table)."""
    frame = with_lineups(frame)
    ctx = balance.context_columns(frame)
    out = balance.win_share(frame, ctx + ["lineup", "seat"], confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (out["win_share"] - out["fair"]) / np.sqrt(out["fair"] * (1 - out["fair"])
                                                       / out["games"])
    out["p_value"] = [2 * (1 - NormalDist().cdf(abs(v))) if np.isfinite(v) else np.nan
                      for v in z]
    out["p_adjusted"] = balance.adjust_pvalues(out["p_value"], "bh")
    out["significant"] = out["p_adjusted"] < balance.ALPHA
    return out.drop(columns=["wins", "mean_score"])


def source_shares(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Share of all points that came from each scoring source, per context and line-up.

    A ratio of sums over games; the interval treats each game as one unit (its seats'
    points are correlated), by linearization as in `balance.clustered_win_share`.
    """
    frame = with_lineups(frame)
    sources = balance.source_columns(frame)
    ctx = balance.context_columns(frame)
    columns = ctx + ["lineup", "source", "games", "share", "ci_low", "ci_high"]
    if not sources:
        return pd.DataFrame(columns=columns)
    z = balance._z(confidence)
    game_key = [c for c in balance.GAME_KEY if c in frame]
    rows = []
    for key, group in frame.groupby(ctx + ["lineup"], sort=True):
        key = key if isinstance(key, tuple) else (key,)
        own = balance.own_columns(group, sources)
        per_game = group.groupby(game_key)[own].sum()
        total = per_game.sum(axis=1).to_numpy()
        k = len(per_game)
        for source in own:
            points = per_game[source].to_numpy()
            share = points.sum() / total.sum() if total.sum() else np.nan
            resid = points - share * total
            se = (np.sqrt(k / (k - 1) * (resid**2).sum()) / abs(total.sum())
                  if k > 1 and total.sum() else np.nan)
            rows.append({**dict(zip(ctx + ["lineup"], key)), "source": source[4:],
                         "games": k, "share": share, "ci_low": share - z * se,
                         "ci_high": share + z * se})
    return pd.DataFrame(rows, columns=columns)


def _seat_verdicts(seats: pd.DataFrame, reference: str) -> list[dict]:
    rows = []
    order = _order(seats["lineup"], reference)
    ref = reference if reference in order else order[0]
    ref_rows = seats[seats["lineup"] == ref].set_index("seat")
    examined = [0] + [int(s) for s in ref_rows.index[ref_rows["significant"]] if s != 0]
    for seat in examined:
        if seat not in ref_rows.index:
            continue
        base = ref_rows.loc[seat]
        up = base["win_share"] >= base["fair"]
        word = "edge" if up else "shortfall"
        same, reversed_, not_sig, details = [], [], [], []
        for lineup in order:
            row = seats[(seats["lineup"] == lineup) & (seats["seat"] == seat)]
            if row.empty:
                continue
            row = row.iloc[0]
            details.append(f"{lineup} {100 * row['win_share']:.1f}% "
                           f"[{100 * row['ci_low']:.1f}–{100 * row['ci_high']:.1f}]")
            if not row["significant"]:
                not_sig.append(lineup)
            elif (row["win_share"] >= row["fair"]) == up:
                same.append(lineup)
            else:
                reversed_.append(lineup)
        subject = f"seat {seat + 1}'s {word}"
        ref_significant = bool(base["significant"])
        if ref_significant and not not_sig and not reversed_:
            verdict = f"{subject} holds under every line-up"
        elif ref_significant:
            verdict = f"{subject} depends on the bots: significant with {', '.join(same)}"
            if not_sig:
                verdict += f", not with {', '.join(not_sig)}"
            if reversed_:
                verdict += f"; reversed with {', '.join(reversed_)}"
        elif not same and not reversed_:
            verdict = (f"seat {seat + 1} is not significantly off the fair share under any "
                       "line-up")
        else:  # no finding with the reference, but one with some other line-up
            above, below = (same, reversed_) if up else (reversed_, same)
            verdict = (f"seat {seat + 1}'s share depends on the bots: not significant with "
                       f"{', '.join(not_sig)}")
            if above:
                verdict += f"; significantly above fair with {', '.join(above)}"
            if below:
                verdict += f"; significantly below fair with {', '.join(below)}"
        claim = ("more than" if up else "less than") if ref_significant else "about"
        rows.append({"conclusion": f"seat {seat + 1} wins {claim} the fair "
                                   f"{100 * base['fair']:.1f}% (with {ref})",
                     "verdict": verdict,
                     "holds": bool(ref_significant and not not_sig and not reversed_),
                     "details": "; ".join(details) + f" (fair {100 * base['fair']:.1f}%)"})
    return rows


def _source_verdict(sources: pd.DataFrame, reference: str) -> list[dict]:
    if sources.empty or sources["share"].isna().all():
        return []
    order = _order(sources["lineup"], reference)
    ref = reference if reference in order else order[0]
    top = {}
    details = []
    for lineup in order:
        part = sources[sources["lineup"] == lineup].dropna(subset=["share"])
        if part.empty:
            continue
        best = part.loc[part["share"].idxmax()]
        top[lineup] = best["source"]
        details.append(f"{lineup}: '{best['source']}' {100 * best['share']:.1f}% "
                       f"[{100 * best['ci_low']:.1f}–{100 * best['ci_high']:.1f}]")
    if ref not in top:
        return []
    leader = top[ref]
    if all(source == leader for source in top.values()):
        verdict = f"'{leader}' is the largest source of points under every line-up"
    else:
        groups: dict[str, list[str]] = {}
        for lineup, source in top.items():
            groups.setdefault(source, []).append(lineup)
        verdict = ("the largest source of points depends on the bots: " + "; ".join(
            f"'{source}' with {', '.join(lineups)}" for source, lineups in groups.items()))
    return [{"conclusion": f"'{leader}' gives the most points (with {ref})", "verdict": verdict,
             "holds": all(source == leader for source in top.values()),
             "details": "; ".join(details)}]


def verdicts(frame: pd.DataFrame, reference: str = REFERENCE) -> pd.DataFrame:
    """Per context with two or more line-ups: each headline conclusion of the reference
    line-up (seat 1's edge or shortfall, every other seat significantly off the fair share,
    the largest scoring source) and whether it holds under every other line-up."""
    frame = with_lineups(frame)
    ctx = balance.context_columns(frame)
    seats = seat_shares(frame)
    sources = source_shares(frame)
    rows = []
    for key, group in frame.groupby(ctx, sort=True) if ctx else [((), frame)]:
        key = key if isinstance(key, tuple) else (key,)
        if group["lineup"].nunique() < 2:
            continue
        where = dict(zip(ctx, key))
        mask = np.logical_and.reduce([seats[c] == v for c, v in where.items()]) if ctx else \
            np.ones(len(seats), bool)
        found = _seat_verdicts(seats[mask], reference)
        if len(sources):
            smask = np.logical_and.reduce([sources[c] == v for c, v in where.items()]) \
                if ctx else np.ones(len(sources), bool)
            found += _source_verdict(sources[smask], reference)
        rows += [{**where, **row} for row in found]
    return pd.DataFrame(rows, columns=ctx + ["conclusion", "verdict", "holds", "details"])


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
