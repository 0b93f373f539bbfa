"""The skill ladder: how each seat's edge changes as the bots play better.

"Does seat 1 win too often?" has an answer per strength of play: a first-player edge that
random play hides can grow under stronger play (Time Pirates' seat 1 gains more the better
every seat plays), and one that weak play shows can vanish.  A ladder plays the same deals
(one run seed) at several levels, every seat the same bot at each level, weakest first.

Per seat and level: the edge (win share minus the fair share, in points) with the Wilson 95%
interval of the seat's share, the interval every seat share of a summary quotes. Per seat, a
trend test: the weighted least-squares slope of the edge on the level's rank (weights 1 /
se², so a level of few games counts less), its two-sided p (`p_trend`), Holm-corrected over
the seats of one ladder, the output's one family. The levels share deals, which makes their
edges positively correlated; treating them as independent overstates the slope's standard
error, so the test errs towards "cannot tell", never towards a trend that is not there.

Verdicts, each from a test:
- "grows" / "shrinks": a significant slope (adjusted p < 0.05) moving the edge away from /
  towards zero (read at the strongest level);
- "reverses": a significant slope, and edges of opposite signs at two levels whose
  intervals (before any correction) exclude zero;
- "stable": no significant slope, and the change over the whole ladder the slope's
  interval allows stays within the tolerance (a fifth of the fair share either way);
- "cannot tell": anything else, or fewer than `MIN_GAMES` games at some level.

A ladder read on its own adjusts its trends over its seats (`trends`); an output that says
more (a run's summary, a report) adds them to its one family (`family_rows`, `findings.family`
`extra`) and reads the verdicts again with that family's adjusted p (`readjusted`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from analysis.stats import balance

#: Below this many games at a level, no trend verdict is given.
MIN_GAMES = 30
#: "stable" allows the edge to change by at most this share of the fair share over the
#: ladder (the same relative tolerance at every player count).
STABLE_SHARE = 0.2
ALPHA = balance.ALPHA
VERDICTS = ("grows", "shrinks", "reverses", "stable", "cannot tell")


def level_edges(frame: pd.DataFrame, levels: Sequence[str],
                confidence: float = 0.95) -> pd.DataFrame:
    """Per level (the `bot` every seat played) and seat: games, win share, fair share, edge,
    its standard error (for the trend test) and its Wilson interval, in fractions."""
    rows = []
    if "truncated" in frame:  # no winner: left out, as every seat share leaves them out
        frame = frame[~frame["truncated"]]
    players = int(frame["players"].iloc[0])
    fair = 1.0 / players
    for rank, level in enumerate(levels):
        part = frame[frame["bot"] == level]
        for seat in range(players):
            values = part.loc[part["seat"] == seat, "win_share"].to_numpy(dtype=float)
            n = len(values)
            share = float(values.mean()) if n else math.nan
            se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
            # the seat share's Wilson interval, as every seat share the summary quotes
            low, high = (balance.wilson_interval(values.sum(), n, confidence) if n > 1
                         else (math.nan, math.nan))
            rows.append({"level": level, "rank": rank, "seat": seat, "games": n,
                         "win_share": share, "fair": fair, "edge": share - fair, "se": se,
                         "edge_low": float(low) - fair, "edge_high": float(high) - fair})
    return pd.DataFrame(rows)


def _slope(ranks: np.ndarray, edges: np.ndarray, ses: np.ndarray) -> tuple[float, float]:
    """Weighted least-squares slope of edge on rank, and its standard error."""
    w = 1.0 / np.maximum(ses, 1e-12) ** 2
    mean_rank = float(np.sum(w * ranks) / np.sum(w))
    sxx = float(np.sum(w * (ranks - mean_rank) ** 2))
    mean_edge = float(np.sum(w * edges) / np.sum(w))
    slope = float(np.sum(w * (ranks - mean_rank) * (edges - mean_edge)) / sxx)
    return slope, math.sqrt(1.0 / sxx)


def trends(edges: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per seat: slope (points of edge per level), its interval, p_trend, the Holm-adjusted
    p over the ladder's seats, and the verdict."""
    z = balance._z(confidence)
    rows = []
    levels = int(edges["rank"].max()) + 1
    for seat, group in edges.groupby("seat", sort=True):
        group = group.sort_values("rank")
        few = bool((group["games"] < MIN_GAMES).any()) or group["se"].isna().any()
        if few or levels < 2:
            slope = se = p = math.nan
        else:
            slope, se = _slope(group["rank"].to_numpy(float), group["edge"].to_numpy(float),
                               group["se"].to_numpy(float))
            p = balance.two_sided_p(slope / se) if se > 0 else math.nan
        rows.append({"seat": int(seat), "slope": slope, "slope_low": slope - z * se,
                     "slope_high": slope + z * se, "p_trend": p, "few_games": few,
                     "fair": float(group["fair"].iloc[0])})
    out = pd.DataFrame(rows)
    return _with_verdicts(out, balance.adjust_pvalues(out["p_trend"].to_numpy(), "holm"),
                          edges)


def _with_verdicts(trend: pd.DataFrame, p_adjusted: Sequence[float],
                   edges: pd.DataFrame) -> pd.DataFrame:
    """`trend` with these adjusted p-values and the verdicts they give."""
    levels = int(edges["rank"].max()) + 1
    out = trend.assign(p_adjusted=np.asarray(p_adjusted, dtype=float))
    out["verdict"] = [_verdict(row, edges[edges["seat"] == row.seat], levels)
                      for row in out.itertuples(index=False)]
    return out


def _verdict(row, seat_edges: pd.DataFrame, levels: int) -> str:
    if row.few_games or levels < 2 or math.isnan(row.p_adjusted):
        return "cannot tell"
    significant = seat_edges[(seat_edges["edge_low"] > 0) | (seat_edges["edge_high"] < 0)]
    signs = set(np.sign(significant["edge"]))
    if row.p_adjusted < ALPHA:
        if signs == {1.0, -1.0}:
            return "reverses"
        strongest = float(seat_edges.sort_values("rank")["edge"].iloc[-1])
        return "grows" if row.slope * strongest > 0 else "shrinks"
    span = levels - 1
    margin = STABLE_SHARE * row.fair
    if max(abs(row.slope_low), abs(row.slope_high)) * span <= margin:
        return "stable"
    return "cannot tell"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _bound(x: float) -> str:
    """An interval's end in points: one decimal, or more where one decimal would show a
    nonzero end as 0.0 (an interval that excludes zero must not print a zero end)."""
    if x != 0 and abs(100 * x) < 0.05:
        return f"{100 * x:+.2g}"
    return _pts(x)


def seat_sentences(edges: pd.DataFrame, trend: pd.DataFrame,
                   family: str | None = None) -> list[str]:
    """One sentence per seat: its verdict with every level's edge and interval, and the
    trend test that backs it, its family named (`family`, default Holm over the seats)."""
    family = family or f"Holm over {len(trend)} seats"
    lines = []
    for row in trend.itertuples(index=False):
        group = edges[edges["seat"] == row.seat].sort_values("rank")
        levels = ", ".join(f"{r.level} {_pts(r.edge)} [{_bound(r.edge_low)}, {_bound(r.edge_high)}]"
                           for r in group.itertuples(index=False))
        name = f"seat {row.seat + 1}"
        if row.verdict == "cannot tell" and row.few_games:
            lines.append(f"{name}: too few games at some level to tell how its edge changes "
                         f"with skill ({levels}; at least {MIN_GAMES} a level needed)")
            continue
        test = f"p_trend = {row.p_trend:.2g}, adjusted {row.p_adjusted:.2g} ({family})"
        words = {
            "grows": f"{name}'s edge grows with skill",
            "shrinks": f"{name}'s edge shrinks with skill",
            "reverses": f"{name}'s edge reverses with skill (edges of both signs whose "
                        f"intervals exclude zero)",
            "stable": f"{name}'s edge is stable across skill (it changes by at most "
                      f"{100 * STABLE_SHARE * row.fair:.1f} points over the ladder)",
            "cannot tell": f"{name}: cannot tell how its edge changes with skill",
        }
        lines.append(f"{words[row.verdict]}: {levels}; {test}{_unsteady(row, group)}")
    return lines


def _unsteady(row, group: pd.DataFrame) -> str:
    """A trend is a slope over the whole ladder: say so when the edge does not move one way
    at every step, and name the level where it is largest (the strongest level or not)."""
    if row.verdict not in ("grows", "shrinks"):
        return ""
    steps = np.diff(group["edge"].to_numpy(float))
    if (steps >= 0).all() or (steps <= 0).all():
        return ""
    largest = group.loc[group["edge"].abs().idxmax(), "level"]
    return f"; not at every step (the edge is largest under {largest})"


def headline(edges: pd.DataFrame, trend: pd.DataFrame) -> str:
    """The verdict under the strongest level measured: its largest seat edge, and how that
    seat's edge changes with skill."""
    top = edges[edges["rank"] == edges["rank"].max()]
    row = top.loc[top["edge"].abs().idxmax()]
    verdict = trend.set_index("seat").loc[int(row["seat"]), "verdict"]
    excludes = row["edge_low"] > 0 or row["edge_high"] < 0
    size = ("its 95% interval excludes zero" if excludes
            else "its 95% interval cannot tell it from zero")
    return (f"{at_strongest(row['level'])}: the largest seat edge is seat "
            f"{int(row['seat']) + 1}'s {_pts(row['edge'])} [{_bound(row['edge_low'])}, "
            f"{_bound(row['edge_high'])}] points ({size}, before any correction); under "
            f"stronger play it {_short(verdict)}")


def _short(verdict: str) -> str:
    return {"grows": "grows", "shrinks": "shrinks", "reverses": "reverses",
            "stable": "is stable", "cannot tell": "cannot be told (more games needed)"}[verdict]


def stronger_play(trend: pd.DataFrame, edges: pd.DataFrame) -> str:
    """The designer-summary cell "under stronger play": the verdict of the seat with the
    largest edge at the strongest level ("–" for a single level)."""
    if edges["rank"].max() < 1:
        return "–"
    top = edges[edges["rank"] == edges["rank"].max()]
    seat = int(top.loc[top["edge"].abs().idxmax(), "seat"])
    return f"seat {seat + 1}: {trend.set_index('seat').loc[seat, 'verdict']}"


def at_strongest(level: str) -> str:
    """How an output measured at the top of a ladder names its level."""
    return f"at {level} (the strongest level measured)"


@dataclass(frozen=True)
class Ladder:
    """One skill ladder's statistics: where it was played (`game`, `players`, `rules` as the
    results' rules string, '' for the official ones), its levels weakest first, each level's
    seat edges (`level_edges`), each seat's trend and verdict (`trends`), `family`: how the
    trends' p-values were adjusted, as the sentences name it, and `frame`: every level's
    games (`bot` naming the level), for what else each level can tell (scoring sources)."""

    game: str
    players: int
    rules: str
    levels: tuple[str, ...]
    edges: pd.DataFrame
    trend: pd.DataFrame
    family: str
    frame: pd.DataFrame

    @property
    def key(self) -> tuple[str, int, str]:
        """(game, players, rules): the designer summary's row this ladder qualifies."""
        return self.game, self.players, self.rules

    @property
    def strongest(self) -> str:
        return self.levels[-1]

    def sentences(self) -> list[str]:
        return seat_sentences(self.edges, self.trend, self.family)

    def headline(self) -> str:
        return headline(self.edges, self.trend)

    def stronger_play(self) -> str:
        return stronger_play(self.trend, self.edges)


def of_frame(frame: pd.DataFrame, levels: Sequence[str]) -> Ladder:
    """The ladder of a frame whose `bot` column names each game's level (every seat that
    bot), its trends adjusted over its own seats."""
    edges = level_edges(frame, levels)
    trend = trends(edges)
    first = frame.iloc[0]
    return Ladder(str(first["game"]), int(first["players"]), str(first.get("rules", "") or ""),
                  tuple(levels), edges, trend, f"Holm over {len(trend)} seats", frame)


def family_rows(ladders: Sequence[Ladder]) -> pd.DataFrame:
    """Every trend test of these ladders as members of an output's family (`findings.family`
    `extra`): kind "ladder", `ladder` and `unit` (the seat) locate the test.  A seat with too
    few games was not tested and is no member."""
    rows = [{"game": lad.game, "rules": lad.rules, "players": lad.players, "kind": "ladder",
             "subject": f"seat {int(row.seat) + 1}: edge trend over {', '.join(lad.levels)}",
             "unit": int(row.seat), "ladder": i, "p_value": float(row.p_trend)}
            for i, lad in enumerate(ladders) for row in lad.trend.itertuples(index=False)
            if row.p_trend == row.p_trend]
    return pd.DataFrame(rows, columns=["game", "rules", "players", "kind", "subject", "unit",
                                       "ladder", "p_value"])


def readjusted(ladders: Sequence[Ladder], tests: pd.DataFrame, output: str = "report"
               ) -> list[Ladder]:
    """The ladders with their trends' p adjusted in the output's family `tests` (holding
    `family_rows(ladders)`) and the verdicts read again from them; `output` names the
    family in the sentences ("Holm over the report's 12 tests")."""
    members = (tests[tests["kind"] == "ladder"] if "ladder" in tests
               else pd.DataFrame(columns=["ladder", "unit", "p_adjusted"]))
    size = int(tests["tests"].iloc[0]) if len(tests) else 0
    out = []
    for i, lad in enumerate(ladders):
        mine = members[members["ladder"] == i]
        by_seat = dict(zip(mine["unit"].astype(int), mine["p_adjusted"]))
        adjusted = [by_seat.get(int(seat), math.nan) for seat in lad.trend["seat"]]
        out.append(replace(lad, trend=_with_verdicts(lad.trend, adjusted, lad.edges),
                           family=f"Holm over the {output}'s {size} tests"))
    return out
