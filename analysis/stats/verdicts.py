"""Verdicts a designer can quote: each sentence follows from the numbers it names.

Every surface that says something in words (the `simulate GAME` summary, `simulate run`,
reports, notebooks, sweeps, balance search, the robustness study) builds its sentences here,
as `Verdict` records: the claim in plain words, the numbers it rests on, the test, the family
its p-value was adjusted in, and whether fresh deals confirmed it.  The functions are pure:
they take counts, shares and intervals (tidy frames from `balance` and `robustness`) and play
no games.

The wording rules:

- **Balance is an equivalence claim** against a tolerance relative to the fair share (×1.2:
  the same meaning at every player count).  "balanced within …" only when every seat's (team's)
  interval lies inside the band and no seat is off the fair share after adjustment; "a small
  real edge …, inside the tolerance" when a seat is off the fair share but every interval is
  inside; "unbalanced" when a seat's whole interval lies beyond the band; otherwise the edge
  or "cannot tell", with the range the intervals allow.  The minimum detectable effect is a
  planning figure ("an edge of X points would have been seen 80% of the time"), never a bound.
- **Robustness is a heterogeneity test** across line-ups (χ² line-up × win for one seat), read
  with the direction of each line-up's edge (its seat test in the output's family).  Shares
  "differ" only when the test says so, with the largest gap and its interval; otherwise they
  "cannot be told apart", never "agree".  A line-up whose interval holds the fair share and
  is wider than the effect cannot tell, and says so; it never vetoes a conclusion.
- **Ties are ties**: the largest scoring source, the best setting of a search and a sweep's
  ranking name every candidate whose interval (or paired difference) cannot be told apart.
- **One family per output**: `Family` Holm-adjusts every p-value that can make anything
  "significant" in one report or summary, and states the family size.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from analysis.stats import balance

#: Default balance tolerance, relative to the fair share: "balanced" means every seat's
#: interval within [fair / 1.2, fair × 1.2] (41.7–60% at 2 players, 13.9–20% at 6).
TOLERANCE = 1.2
ALPHA = balance.ALPHA


# --------------------------------------------------------------------------------------------
# The record
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One claim in words and what it rests on.

    `kind`: balance, robustness, source, search, sweep, coverage, bot.  `numbers`: the figures
    the claim quotes (shares and edges as fractions, points = fraction × 100).  `test`: how
    the claim was decided.  `p_value` / `p_adjusted`: the test's p before and after the
    family's adjustment (NaN when no p-value decides the claim); `family_size`: the number of
    tests in that family.  `confirmed`: None = not replayed, True/False = fresh deals agreed
    or not.  `planning`: an optional planning figure (detectable effect), never a bound.
    `items`: what the claim names, for compact tables.
    """

    kind: str
    subject: str
    claim: str
    numbers: Mapping[str, float] = field(default_factory=dict)
    test: str = ""
    p_value: float = float("nan")
    p_adjusted: float = float("nan")
    family: str = ""
    family_size: int = 0
    confirmed: bool | None = None
    planning: str = ""
    #: The things the claim names (skipped kinds, tied sources or candidates), for tables.
    items: tuple[str, ...] = ()

    @property
    def significant(self) -> bool:
        """Whether the claim's adjusted p-value (raw when not adjusted) is below ALPHA."""
        p = self.p_adjusted if self.p_adjusted == self.p_adjusted else self.p_value
        return bool(p == p and p < ALPHA)

    def text(self, with_subject: bool = True) -> str:
        """The claim as printed: `subject: claim`."""
        return f"{self.subject}: {self.claim}" if with_subject and self.subject else self.claim


# --------------------------------------------------------------------------------------------
# Number formats (one place, so every verdict reads alike)
# --------------------------------------------------------------------------------------------


def points(x: float, sign: bool = True) -> str:
    """A share difference in percentage points: 0.041 -> '+4.1'."""
    if x != x:
        return "–"
    return f"{100 * x:+.1f}" if sign else f"{100 * x:.1f}"


def interval(low: float, high: float, sign: bool = True) -> str:
    """'[+1.2, +7.0]' in points."""
    return f"[{points(low, sign)}, {points(high, sign)}]"


def format_p(p: float) -> str:
    """'= 0.0123' or '< 1e-15' (never a bare 0); '= –' for a missing p."""
    if p != p:
        return "= –"
    return "< 1e-15" if p < 1e-15 else f"= {p:.2g}"


# --------------------------------------------------------------------------------------------
# One family per output
# --------------------------------------------------------------------------------------------


class Family:
    """Every p-value that can make anything "significant" in one output, adjusted together.

    Add raw p-values under any hashable key, then read `adjusted(key)`; the adjustment is
    Holm's (family-wise: the chance that any claim of the output is false stays below 5%).
    Missing p-values (NaN) are not members.
    """

    def __init__(self, name: str = "report") -> None:
        self.name = name
        self._raw: dict[Hashable, float] = {}
        self._adjusted: dict[Hashable, float] | None = None

    def add(self, key: Hashable, p: float) -> Hashable:
        """Register one test's raw p-value; returns the key."""
        if key in self._raw:
            raise ValueError(f"test {key!r} is already in the family")
        self._raw[key] = float(p)
        self._adjusted = None
        return key

    def add_all(self, keys: Iterable[Hashable], pvalues: Iterable[float]) -> None:
        for key, p in zip(keys, pvalues):
            self.add(key, p)

    @property
    def size(self) -> int:
        """Tests in the family (those with a p-value)."""
        return sum(1 for p in self._raw.values() if p == p)

    def adjusted(self, key: Hashable) -> float:
        """The Holm-adjusted p-value of a registered test (NaN if it had none)."""
        if self._adjusted is None:
            keys = list(self._raw)
            values = balance.adjust_pvalues([self._raw[k] for k in keys], "holm")
            self._adjusted = dict(zip(keys, values))
        return float(self._adjusted[key])

    def significant(self, key: Hashable) -> bool:
        p = self.adjusted(key)
        return bool(p == p and p < ALPHA)

    def note(self, members: str = "") -> str:
        """One sentence stating the correction and the family size (and, given `members`,
        which tests the family holds)."""
        n = self.size
        held = f" (one family: {members})" if members else ""
        return (f"p-values adjusted with Holm over the {n} test{'s' if n != 1 else ''} in this "
                f"{self.name}{held}; 'significant' means adjusted p < {ALPHA:g}.")

    def stamp(self, verdict: Verdict, key: Hashable) -> Verdict:
        """The verdict with this family's adjusted p and size."""
        return replace(verdict, p_adjusted=self.adjusted(key), family=self.name,
                       family_size=self.size)


# --------------------------------------------------------------------------------------------
# Balance: an equivalence claim
# --------------------------------------------------------------------------------------------


def _edge_word(edge: float) -> str:
    return "edge" if edge >= 0 else "shortfall"


def planning_figure(mde: float) -> str:
    """The detectable effect as a planning figure, never as a bound."""
    if mde != mde:
        return ""
    points = 100 * mde
    digits = 0 if points >= 9.5 else 1 if points >= 0.95 else 2
    shown = f"{points:.{digits}f}"
    return f"an edge of {shown} points would have been seen 80% of the time with these games"


def tolerance_band(fair: float, tolerance: float = TOLERANCE) -> tuple[float, float]:
    """The shares a seat may have and still count as fair: [fair / tolerance, fair × tolerance]
    (capped at 1), the same relative tolerance at every player count."""
    return fair / tolerance, min(1.0, fair * tolerance)


def tolerance_text(fair: float, tolerance: float = TOLERANCE) -> str:
    """'×1.2 of the fair 50.0% (41.7–60.0%)': the tolerance in both units."""
    low, high = tolerance_band(fair, tolerance)
    return (f"×{ratio(tolerance)} of the fair {100 * fair:.1f}% "
            f"({100 * low:.1f}–{100 * high:.1f}%)")


def ratio(x: float) -> str:
    """1.2 -> "1.2", 1.25 -> "1.25": a multiple as printed."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


#: The balance verdict's categories, from `balance_category`.
BALANCE_CATEGORIES = ("balanced", "small real edge", "unbalanced", "real edge", "cannot tell")


def balance_category(verdict: Verdict) -> str:
    """Which of the three-way wordings (plus its two undecided cases) a balance verdict is:
    balanced (every interval inside the tolerance, no seat off the fair share), small real
    edge (every interval inside, a seat off the fair share), unbalanced (a seat off the fair
    share whose whole interval lies beyond the tolerance), real edge (a seat off the fair share,
    its size not yet placed against the tolerance), cannot tell."""
    numbers = verdict.numbers
    if numbers.get("unbalanced"):
        return "unbalanced"
    if numbers.get("units_off"):
        return "small real edge" if numbers.get("inside") else "real edge"
    return "balanced" if numbers.get("inside") else "cannot tell"


#: The balance categories that name a seat off the fair share, most telling first: a report
#: lists these one line each, ahead of the contexts where no seat was found off it.
FINDING_CATEGORIES = ("unbalanced", "real edge", "small real edge")


def no_finding_line(label: str, contexts: Sequence[tuple[str, Verdict]]) -> str:
    """One line for several contexts (`label`: what they share, e.g. 'ninjato, official
    rules'; each context: its own words, e.g. '3 players') whose balance verdicts name no
    seat off the fair share: balanced ones and undecided ones each listed with their edges,
    so folding them into one line drops no number a separate line would give."""
    tolerance = contexts[0][1].numbers.get("tolerance", TOLERANCE) if contexts else TOLERANCE
    words = {"balanced": f"balanced within ×{ratio(tolerance)} of fair",
             "cannot tell": "cannot tell"}
    parts = []
    for category, word in words.items():
        shown = [f"{where} (edges {points(v.numbers['low'])} to {points(v.numbers['high'])} "
                 "points)" for where, v in contexts if balance_category(v) == category]
        if shown:
            parts.append(f"{word} at " + (", ".join(shown[:-1]) + " and " + shown[-1]
                                          if len(shown) > 1 else shown[0]))
    return f"{label}: no seat off the fair share after adjustment; {'; '.join(parts)}"


def equivalence(units: pd.DataFrame, tolerance: float = TOLERANCE, subject: str = "",
                p_column: str = "p_adjusted") -> Verdict:
    """The balance verdict of one game × player count from its seats' (teams') shares.

    `units`: one row per seat or team with `seats` (its label, e.g. "seat 2"), `win_share`,
    `ci_low`, `ci_high`, `fair`, and optionally `mde` and a p-value column (`p_column`,
    adjusted in the output's family; the raw `p_value` when absent).  A unit is named as off
    the fair share when that p is below ALPHA.  The tolerance is relative to the fair share
    (`tolerance_band`), so it means the same at every player count.  Three wordings:
    "balanced within …" (every interval inside the band, no unit off the fair share), "a small
    real edge …, inside the tolerance" (every interval inside, a unit off the fair share) and
    "unbalanced: …" (a unit off the fair share with its whole interval outside the band); a
    unit off the fair share whose interval straddles the band is a real edge whose size against
    the tolerance cannot be told yet, and nothing significant with an interval reaching outside
    the band is "cannot tell".  The boundary counts as inside.
    """
    if units.empty:
        return Verdict("balance", subject, "no games", test="")
    edge = units["win_share"] - units["fair"]
    low = units["ci_low"] - units["fair"]
    high = units["ci_high"] - units["fair"]
    column = p_column if p_column in units else "p_value"
    p = units[column] if column in units else pd.Series(np.nan, index=units.index)
    off = units[p < ALPHA]
    eps = 1e-12
    band_low, band_high = (units["fair"] / tolerance,
                           np.minimum(1.0, units["fair"] * tolerance))
    within = (units["ci_low"] >= band_low - eps) & (units["ci_high"] <= band_high + eps)
    beyond = (units["ci_low"] > band_high + eps) | (units["ci_high"] < band_low - eps)
    inside = bool(within.all())
    unbalanced = bool(beyond[off.index].any())
    lo, hi = float(low.min()), float(high.max())
    mde = float(units["mde"].max()) if "mde" in units else float("nan")
    fair = float(units["fair"].iloc[0])
    unit = "team" if _teams(units) else "seat"
    numbers = {"tolerance": tolerance, "band_low": float(band_low.iloc[0]),
               "band_high": float(band_high.iloc[0]), "low": lo, "high": hi, "mde": mde,
               "inside": float(inside), "balanced": float(inside and off.empty),
               "unbalanced": float(unbalanced), "units_off": float(len(off))}
    parts = []
    for index in edge[off.index].abs().sort_values(ascending=False, kind="stable").index:
        e = float(edge[index])
        note = str(units.at[index, "note"]) if "note" in units and units.at[index, "note"] \
            else ""
        parts.append(f"{units.at[index, 'seats']}'s {_edge_word(e)} {points(e)} points "
                     f"{interval(low[index], high[index])}" + (f" ({note})" if note else ""))
    band = tolerance_text(fair, tolerance)
    widest = (high - low).idxmax()
    named = "; ".join(parts)
    if unbalanced:
        claim = f"unbalanced: {named}; beyond the tolerance {band}"
    elif parts and inside:
        claim = (f"a small real edge, inside the tolerance: {named}; every {unit}'s interval "
                 f"lies within {band}")
    elif parts:
        claim = (f"a real edge: {named}; whether it is beyond the tolerance {band} cannot be "
                 f"told yet")
    elif inside:
        claim = (f"balanced within {band}: every {unit}'s interval lies inside "
                 f"(edges between {points(lo)} and {points(hi)} points)")
    else:
        claim = (f"cannot tell: the {unit} edges lie between {points(lo)} and {points(hi)} points "
                 f"(widest: {units.at[widest, 'seats']} {interval(low[widest], high[widest])}); "
                 f"balanced within {band} would need every interval inside")
    worst = off.index[0] if len(off) else widest
    p_best = float(p[worst]) if len(off) else float(p.min()) if p.notna().any() else np.nan
    raw = units["p_value"] if "p_value" in units else p
    return Verdict(
        "balance", subject, claim, numbers,
        test=(f"95% interval per {unit} against the fair {100 * fair:.1f}%; tolerance "
              f"{band}"),
        p_value=float(raw[worst]) if raw.notna().any() else np.nan,
        p_adjusted=p_best if column != "p_value" else np.nan,
        planning=planning_figure(mde), items=tuple(parts))


def _teams(units: pd.DataFrame) -> bool:
    return bool(units["seats"].astype(str).str.startswith("team").any())


# --------------------------------------------------------------------------------------------
# Robustness: heterogeneity across line-ups
# --------------------------------------------------------------------------------------------


def heterogeneity_p(wins: Iterable[float], games: Iterable[float]) -> float:
    """χ² test of line-up × (win, no win) for one seat: do the line-ups' shares agree?

    Shared wins count fractionally (their expected counts are what the test compares).
    NaN with fewer than two line-ups or when every line-up won always or never.
    """
    wins = np.asarray(list(wins), dtype=float)
    games = np.asarray(list(games), dtype=float)
    keep = games > 0
    wins, games = wins[keep], games[keep]
    if len(wins) < 2:
        return float("nan")
    table = np.stack([wins, games - wins], axis=1)
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    if (expected.sum(axis=0) <= 0).any():
        return float("nan")
    with np.errstate(invalid="ignore", divide="ignore"):
        chi2 = float(np.nansum((table - expected) ** 2 / np.where(expected > 0, expected, np.nan)))
    from scipy import stats as sps  # lazily: importing scipy.stats costs ~1 s per CLI call

    return float(sps.chi2.sf(chi2, len(wins) - 1))


def _direction(low: float, high: float, fair: float) -> int:
    """+1 interval above fair, −1 below, 0 contains it."""
    return 1 if low > fair else (-1 if high < fair else 0)


def _names(items: list[str]) -> str:
    return ", ".join(items)


def too_few(lineups: pd.DataFrame, reference: str) -> list[str]:
    """Line-ups that cannot tell: when the reference line-up's interval excludes the fair
    share, every other line-up whose interval holds the fair share and whose half width
    exceeds that edge's size.

    A line-up whose interval excludes the fair share does tell: its seat test against the
    fair share (the score test the Wilson interval inverts, in the same family) finds an
    edge of its own, so it is never "too few games".  Decided on the raw intervals (not on
    an adjusted p), so the heterogeneity test of the output's family and its wording use
    the same line-ups.
    """
    rows = lineups.set_index("lineup")
    fair = float(rows["fair"].iloc[0])
    ref = reference if reference in rows.index else rows.index[0]
    base = rows.loc[ref]
    if _direction(base["ci_low"], base["ci_high"], fair) == 0:
        return []
    edge = abs(float(base["win_share"]) - fair)
    half = (rows["ci_high"] - rows["ci_low"]) / 2
    return [n for n in rows.index if n != ref and half[n] > edge
            and _direction(rows.at[n, "ci_low"], rows.at[n, "ci_high"], fair) == 0]


def share_difference(lineups: pd.DataFrame, first: str, second: str) -> tuple[float, float, float]:
    """One line-up's share minus another's with a 95% interval (Newcombe's hybrid score
    interval, from the two Wilson intervals): (difference, low, high)."""
    rows = lineups.set_index("lineup")
    a, b = rows.loc[first], rows.loc[second]
    d = float(a["win_share"] - b["win_share"])
    low = d - float(np.hypot(a["win_share"] - a["ci_low"], b["ci_high"] - b["win_share"]))
    high = d + float(np.hypot(a["ci_high"] - a["win_share"], b["win_share"] - b["ci_low"]))
    return d, low, high


def _gap(lineups: pd.DataFrame, names: list[str]) -> tuple[str, bool]:
    """The largest gap between the line-ups `names`: 'X 30.0% vs Y 24.5%, +5.5 points
    [+1.7, +9.3]', and whether its interval excludes zero."""
    rows = lineups.set_index("lineup").loc[names]
    high, low = rows["win_share"].idxmax(), rows["win_share"].idxmin()
    d, d_low, d_high = share_difference(lineups, high, low)
    text = (f"{high} {100 * rows.at[high, 'win_share']:.1f}% vs {low} "
            f"{100 * rows.at[low, 'win_share']:.1f}%, {points(d)} points "
            f"{interval(d_low, d_high)}")
    return text, bool(d_low > 0 or d_high < 0)


def heterogeneity_test(lineups: pd.DataFrame, reference: str) -> float:
    """The raw χ² p of one seat over the line-ups that can tell (see `too_few`)."""
    rows = lineups.set_index("lineup")
    keep = [n for n in rows.index if n not in too_few(lineups, reference)]
    return heterogeneity_p(rows.loc[keep, "wins"], rows.loc[keep, "games"])


def heterogeneity(lineups: pd.DataFrame, reference: str, unit: str = "seat 1",
                  reference_p: float | None = None, p_adjusted: float | None = None,
                  subject: str = "", lineup_p: Mapping[str, float] | None = None) -> Verdict:
    """Does one seat's (team's) edge hold under every line-up?

    `lineups`: one row per line-up with `lineup`, `wins`, `games`, `win_share`, `ci_low`,
    `ci_high`, `fair`.  `reference_p`: the reference line-up's adjusted p for this seat (its
    interval against fair when None); `p_adjusted`: the heterogeneity test's p adjusted in the
    output's family (the raw χ² p when None); `lineup_p`: each line-up's seat test p adjusted
    in that family, which decides each line-up's direction (its interval against fair when
    None), so the words name an edge exactly where the output's table calls one significant.

    A line-up whose interval holds the fair share and is wider than the reference's edge
    cannot tell ("too few games with X to tell") and is left out of the test: it never
    vetoes.  The line-ups' shares differ only when the (adjusted) test says so; then the
    largest gap is quoted with its interval.  A test that finds no difference never says
    the shares agree: they "cannot be told apart".
    """
    rows = lineups.set_index("lineup")
    fair = float(rows["fair"].iloc[0])
    ref = reference if reference in rows.index else rows.index[0]
    base = rows.loc[ref]
    ref_edge = float(base["win_share"]) - fair
    ref_sig = (reference_p < ALPHA) if reference_p is not None else \
        _direction(base["ci_low"], base["ci_high"], fair) != 0
    too_few_here = too_few(lineups, ref)
    informative = [n for n in rows.index if n not in too_few_here]
    raw = heterogeneity_p(rows.loc[informative, "wins"], rows.loc[informative, "games"])
    p = raw if p_adjusted is None else p_adjusted
    differ = bool(p == p and p < ALPHA)

    def direction(n: str) -> int:
        if lineup_p is None or n not in lineup_p:
            return _direction(rows.at[n, "ci_low"], rows.at[n, "ci_high"], fair)
        edge = float(rows.at[n, "win_share"]) - fair
        return (1 if edge > 0 else -1) if lineup_p[n] < ALPHA else 0

    directions = {n: direction(n) for n in informative}
    shares = "; ".join(f"{n} {100 * rows.at[n, 'win_share']:.1f}% "
                       f"[{100 * rows.at[n, 'ci_low']:.1f}, {100 * rows.at[n, 'ci_high']:.1f}]"
                       for n in rows.index)
    test_p = f"χ² line-up × win p {format_p(raw)}" + (
        f", adjusted {format_p(p_adjusted)}" if p_adjusted is not None else "")
    gap, gap_apart = _gap(lineups, informative) if len(informative) >= 2 else ("", False)
    # what the test found: words, and the numbers they rest on (in brackets after a claim)
    if differ:
        words, backing = "shares differ", f"{gap}; {test_p}"
    elif gap_apart:  # apart before the family's adjustment, not after it
        words = "shares cannot be told apart after the family's adjustment"
        backing = f"{test_p}; largest gap: {gap} unadjusted 95%"
    else:
        words, backing = "shares cannot be told apart", test_p
    found = f"{words}{': ' if differ else ', '}{backing}"
    word = _edge_word(ref_edge)
    if ref_sig:
        head = f"{unit}'s {word} ({points(ref_edge)} points with {ref})"
        sign = 1 if ref_edge > 0 else -1
        if len(informative) < 2:
            claim = f"{head}: too few games with {_names(too_few_here)} to tell"
            too_few_here = []
        elif not differ:
            claim = f"{head} holds under every line-up ({found})"
            alone = [n for n in informative if directions[n] == 0]
            if alone:
                claim += (f"; on its own, {_names(alone)} cannot be told from the fair "
                          f"{100 * fair:.1f}%")
        else:
            reverses = [n for n in informative if directions[n] == -sign]
            absent = [n for n in informative if directions[n] == 0]
            if not reverses and not absent:
                claim = f"{head}: same direction everywhere, size depends on the bots ({found})"
            else:
                bits = []
                if reverses:
                    bits.append(f"reverses with {_names(reverses)}")
                if absent:
                    bits.append(f"absent with {_names(absent)}")
                claim = f"{head} depends on the bots: {'; '.join(bits)} ({found})"
    else:
        head = f"{unit}"
        if not differ:
            claim = f"{head}: no edge with {ref}, and the line-ups' {words} ({backing})"
        else:
            up = [n for n in informative if directions[n] == 1]
            down = [n for n in informative if directions[n] == -1]
            none = [n for n in informative if directions[n] == 0]
            bits = ([f"edge with {_names(up)}"] if up else []) + \
                ([f"shortfall with {_names(down)}"] if down else []) + \
                ([f"no clear edge with {_names(none)}"] if none else [])
            claim = f"{head}'s share depends on the bots: {'; '.join(bits)} ({found})"
    if too_few_here:
        claim += f"; too few games with {_names(too_few_here)} to tell"
    return Verdict(
        "robustness", subject, claim,
        {"reference_edge": ref_edge, "fair": fair, "lineups": float(len(rows)),
         "informative": float(len(informative))},
        test=f"χ² line-up × win over {len(informative)} line-ups; shares: {shares}",
        p_value=raw, p_adjusted=p if p_adjusted is not None else float("nan"))


# --------------------------------------------------------------------------------------------
# Ties: scoring sources, search candidates, sweep rankings
# --------------------------------------------------------------------------------------------


def overlapping(table: pd.DataFrame, value: str = "share", low: str = "ci_low",
                high: str = "ci_high") -> pd.DataFrame:
    """The rows tied with the largest `value`: those whose interval overlaps the leader's."""
    table = table.dropna(subset=[value])
    if table.empty:
        return table
    leader = table.loc[table[value].idxmax()]
    tied = table[table[high] >= leader[low]]
    return tied.sort_values(value, ascending=False)


def source_cells(tied: pd.DataFrame, quote: bool = True) -> list[str]:
    """Each source as quoted: "'x' 21.1% [20.7, 21.4]", marked "(subtracts)" when its points
    sum below zero (its share counts them by size)."""
    cells = []
    for r in tied.itertuples():
        name = f"'{r.source}'" if quote else str(r.source)
        mark = " (subtracts)" if getattr(r, "subtracts", False) else ""
        cells.append(f"{name}{mark} {100 * r.share:.1f}% [{100 * r.ci_low:.1f}, "
                     f"{100 * r.ci_high:.1f}]")
    return cells


def largest_source(sources: pd.DataFrame, subject: str = "",
                   direction: str = "highest") -> Verdict:
    """'X gives the most points: 21.1% [20.7, 21.4]' or a tie naming every source whose
    interval overlaps the leader's.  `sources`: `source`, `share`, `ci_low`, `ci_high` (and
    optionally `subtracts`), shares of all points counted absolute
    (`robustness.source_shares`); `direction`: the game's score direction, which names the
    points ("penalty points" where the lowest score wins)."""
    noun = balance.points_noun(direction)
    tied = overlapping(sources)
    if tied.empty:
        return Verdict("source", subject, f"no {noun} scored")
    cells = source_cells(tied)
    if len(tied) == 1:
        claim = f"{cells[0]} gives the most {noun}"
    else:
        claim = f"tie for the most {noun}: {', '.join(cells)} (intervals overlap)"
    return Verdict("source", subject, claim,
                   {"leaders": float(len(tied)), "share": float(tied["share"].iloc[0])},
                   test=f"95% interval of each source's share of all {noun}, counted "
                        "absolute (games as units); a tie when intervals overlap")


def leaders(sources: pd.DataFrame) -> list[str]:
    """The sources tied for the most points (one unless intervals overlap)."""
    return list(overlapping(sources)["source"])


def source_robustness(by_lineup: pd.DataFrame, reference: str, subject: str = "",
                      direction: str = "highest") -> Verdict:
    """Largest scoring source across line-ups: holds when the reference's leader is among the
    tied leaders of every line-up.  `by_lineup`: `lineup`, `source`, `share`, `ci_low`,
    `ci_high`; `direction` as in `largest_source`."""
    noun = balance.points_noun(direction)
    groups = {n: leaders(part) for n, part in by_lineup.groupby("lineup", sort=True)}
    groups = {n: v for n, v in groups.items() if v}
    if not groups:
        return Verdict("robustness", subject, f"no {noun} scored")
    ref = reference if reference in groups else sorted(groups)[0]
    ref_leaders = groups[ref]
    shared = [s for s in ref_leaders if all(s in v for v in groups.values())]

    def say(names: list[str]) -> str:
        return ("'" + names[0] + "'") if len(names) == 1 else \
            "a tie of " + ", ".join(f"'{s}'" for s in names)

    if shared:
        if all(len(v) == 1 for v in groups.values()):
            claim = f"{say(shared)} gives the most {noun} under every line-up"
        else:
            claim = (f"{say(shared)} is the largest source of {noun}, or tied for it, under "
                     "every line-up")
    else:
        by: dict[str, list[str]] = {}
        for n, v in groups.items():
            by.setdefault(say(v), []).append(n)
        claim = f"the largest source of {noun} depends on the bots: " + "; ".join(
            f"{k} with {', '.join(v)}" for k, v in by.items())
    return Verdict("robustness", subject, claim, {"lineups": float(len(groups))},
                   test="per line-up, the sources whose 95% interval overlaps the leader's")


def ties_with_best(differences: pd.DataFrame, best: str, label=str) -> tuple[list[str], Verdict]:
    """Candidates tied with the best: paired difference from the best not significant.

    `differences`: one row per other candidate with `candidate`, `effect` (candidate minus
    best, in the objective's statistic), `ci_low`, `ci_high`, `p` (paired test); p-values are
    Holm-adjusted over the candidates (one family).  Returns (tied names, verdict); `label`
    turns a candidate name into what is printed.
    """
    table = differences.copy()
    if table.empty:
        return [], Verdict("search", "", f"best: {label(best)} (no other candidate)")
    table["p_adjusted"] = balance.adjust_pvalues(table["p"], "holm")
    tied = table[~(table["p_adjusted"] < ALPHA)]
    names = [label(c) for c in tied["candidate"]]
    if names:
        claim = f"tied with the best: {', '.join(names)}"
    else:
        claim = "tied with the best: none (every other candidate differs significantly)"
    return names, Verdict("search", "", claim, {"tied": float(len(names))},
                          test="paired difference from the best by deal, Holm over "
                               f"{len(table)} candidates", family="search",
                          family_size=len(table))


def rank_effects(table: pd.DataFrame) -> tuple[list[pd.Series], list[pd.Series]]:
    """Sweep effects split into significant ones ordered by magnitude in the unit of their
    measure (share effects in points first, then game length in decisions) and the rest.

    `table`: rows with `statistic`, `effect`, `significant`.
    """
    if table.empty:
        return [], []
    sig = table[table["significant"]]
    rest = table[~table["significant"]]
    shares = sig[sig["statistic"] != "length"]
    length = sig[sig["statistic"] == "length"]
    ordered = [row for _, row in shares.reindex(
        shares["effect"].abs().sort_values(ascending=False).index).iterrows()]
    ordered += [row for _, row in length.reindex(
        length["effect"].abs().sort_values(ascending=False).index).iterrows()]
    return ordered, [row for _, row in rest.iterrows()]


# --------------------------------------------------------------------------------------------
# Coverage against a reference
# --------------------------------------------------------------------------------------------


def skipped_systems(bot_use: Mapping[str, float], reference_use: Mapping[str, float],
                    bot: str, reference: str = "random play", rarely: float = 0.01,
                    offered: float = 0.05) -> Verdict:
    """Which systems the bot never or almost never used although the reference reaches them.

    `bot_use` / `reference_use`: kind -> share of seat-games in which it was chosen at least
    once.  A kind counts as offered when the reference uses it in at least `offered` of its
    games; named when the bot used it in under `rarely` of its own.
    """
    never, seldom, items = [], [], []
    for kind, reached in sorted(reference_use.items(), key=lambda kv: -kv[1]):
        if not reached >= offered:
            continue
        used = bot_use.get(kind, 0.0)
        if used < rarely:
            items.append(kind)
        if used == 0:
            never.append(f"{kind} ({reference} reaches it in {_pct(reached)} of games)")
        elif used < rarely:
            seldom.append(f"{kind} (in {_pct(used)}; {reference} reaches it in "
                          f"{_pct(reached)})")
    parts = []
    if never:
        parts.append("never played " + ", ".join(never))
    if seldom:
        parts.append("almost never played " + ", ".join(seldom))
    claim = "; ".join(parts) if parts else \
        f"played every system {reference} reaches (each in at least {_pct(rarely)} of games)"
    return Verdict("coverage", bot, claim, {"never": float(len(never)),
                                            "seldom": float(len(seldom))},
                   test=f"share of games with the kind chosen, against {reference} in the "
                        "same game, player count, rules and data set", items=tuple(items))


def _pct(x: float) -> str:
    if x != x:
        return "–"
    return f"{100 * x:.0f}%" if x >= 0.01 or x == 0 else f"{100 * x:.1f}%"


# --------------------------------------------------------------------------------------------
# Strategy landscapes: dominance, cycles, α-Rank and the Nash support
# --------------------------------------------------------------------------------------------


def times_fair(row: Mapping) -> str:
    """'1.42x fair [1.21, 1.63]': a lone seat's share as a multiple of the fair share."""
    return f"{row['ratio']:.2f}x fair [{row['ratio_low']:.2f}, {row['ratio_high']:.2f}]"


def _cell_lookup(cells: pd.DataFrame) -> dict[tuple[str, str], Mapping]:
    return {(row["style"], row["table"]): row for row in cells.to_dict("records")}


def _share_pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def dominance(cells: pd.DataFrame, styles: list[str], support: pd.DataFrame,
              replicates: int) -> Verdict:
    """"dominant strategy: X" only when X's lone seat is significantly above fair at every
    other style's table and every other style's lone seat is significantly below fair at
    X's table (the cells' one Holm family); "no dominant strategy" when every style is
    beaten by a significant cell (another style above fair at its table, or itself below
    fair at another's); "no dominant strategy shown" when some style is neither.  Without a
    dominant strategy the claim names the Nash support (`support`: `metagame.mixture_table`
    of the equilibrium, `nash` and `support` columns) with each member's bootstrap
    frequency.  `cells`: `metagame.adjusted`."""
    from analysis.stats import metagame

    sign = metagame.directions(cells, styles)
    look = _cell_lookup(cells)
    others = {x: [j for j in range(len(styles)) if j != x] for x in range(len(styles))}
    dominant = [x for x in range(len(styles))
                if all(sign[x, j] == 1 and sign[j, x] == -1 for j in others[x])]
    family = f"Holm over the {len(cells)} cells"
    numbers = {"styles": float(len(styles))}
    if dominant:
        x = dominant[0]
        name = styles[x]
        weakest = min((look[(name, styles[j])] for j in others[x]), key=lambda r: r["ratio"])
        strongest = max((look[(styles[j], name)] for j in others[x]),
                        key=lambda r: r["ratio"])
        claim = (f"dominant strategy: {name} — its lone seat is above fair at every other "
                 f"style's table (weakest: {times_fair(weakest)} at {weakest['table']}'s) "
                 f"and every other style's lone seat is below fair at its table (best: "
                 f"{strongest['style']} {times_fair(strongest)})")
        return Verdict("landscape", "", claim, {**numbers, "dominant": 1.0},
                       test=f"every cell against the fair share, {family}",
                       family="landscape", family_size=len(cells), items=(name,))
    beaten, unclear = [], []
    for x, name in enumerate(styles):
        above = [styles[j] for j in others[x] if sign[j, x] == 1]
        below = [styles[j] for j in others[x] if sign[x, j] == -1]
        if above:
            beaten.append(f"{name} ({above[0]} beats its table)")
        elif below:
            beaten.append(f"{name} (below fair at {below[0]}'s table)")
        else:
            unclear.append(name)
    members = support[support["nash"] > 1e-6]
    held = ", ".join(f"{r['style']} {_share_pct(r['support'])}" if r["support"] == r["support"]
                     else str(r["style"]) for r in members.to_dict("records"))
    count = len(members)
    frequency = (f" (in {held} of {replicates:,} bootstrap replicates)" if replicates
                 else f" ({held})")
    head = "no dominant strategy" if not unclear else "no dominant strategy shown"
    claim = (f"{head}; {count} style{'s' if count != 1 else ''} in the equilibrium support"
             f"{frequency}")
    outside = support[(support["nash"] <= 1e-6) & (support["support"] >= 0.05)]
    if len(outside):
        claim += ("; in the support of at least 5% of replicates too: " + ", ".join(
            f"{r['style']} {_share_pct(r['support'])}" for r in outside.to_dict("records")))
    if unclear:
        claim += (f"; cannot tell for {', '.join(unclear)} (no cell shows it beaten or "
                  "dominant; more games would narrow it)")
    if beaten:
        claim += "; beaten: " + ", ".join(beaten)
    return Verdict("landscape", "", claim,
                   {**numbers, "dominant": 0.0, "support": float(count),
                    "undecided": float(len(unclear))},
                   test=f"every cell against the fair share, {family}", family="landscape",
                   family_size=len(cells), items=tuple(members["style"]))


def strategy_cycles(cells: pd.DataFrame, styles: list[str], shown: int = 5) -> list[Verdict]:
    """One verdict per ring of styles each of whose lone seat is significantly above fair at
    the next one's table (the cells' one Holm family), shortest first, at most `shown`
    (then one line counting the rest); a pair that beats each other's tables is said as
    such.  Nothing when no ring is significant at every link."""
    from analysis.stats import metagame

    sign = metagame.directions(cells, styles)
    look = _cell_lookup(cells)
    rings = metagame.simple_cycles(sign == 1)
    out = []
    for ring in rings[:shown]:
        names = [styles[i] for i in ring]
        links = [look[(a, b)] for a, b in zip(names, names[1:] + names[:1])]
        quoted = ", ".join(f"{r['style']} at {r['table']}'s table {times_fair(r)}"
                           for r in links)
        if len(ring) == 2:
            claim = f"{names[0]} and {names[1]} each beat a table of the other ({quoted})"
        else:
            claim = f"cycle {' > '.join(names + names[:1])} ({quoted})"
        out.append(Verdict("landscape", "", claim + f", each significant after Holm over "
                                                    f"the {len(cells)} cells",
                           {"length": float(len(ring))}, family="landscape",
                           family_size=len(cells), items=tuple(names)))
    if len(rings) > shown:
        out.append(Verdict("landscape", "", f"and {len(rings) - shown} more cycles",
                           {"more": float(len(rings) - shown)}))
    return out


def alpharank_top(table: pd.DataFrame, alpha: float, population: int,
                  replicates: int) -> Verdict:
    """"α-Rank puts the most mass on X", with every style whose bootstrap interval overlaps
    X's (reaches past its lower end) or whose mass equals X's named as tied.  `table`:
    `metagame.mixture_table` with a `mass` column."""
    leader = table.loc[table["mass"].idxmax()]
    # an interval that only touches the leader's at its end ([0, 0] against [0, 1]) is no
    # tie; an equal mass (styles symmetric in the matrix) is
    tied = table[(table["mass"] >= leader["mass"])
                 | (replicates > 0) & (table["ci_high"] > leader["ci_low"])]
    claim = (f"α-Rank (α = {alpha:g}, population {population}) puts the most mass on "
             f"{leader['style']}: {leader['mass']:.2f}")
    if replicates:
        claim += (f" [{leader['ci_low']:.2f}, {leader['ci_high']:.2f}], the most (ties "
                  f"included) in {_share_pct(leader['top'])} of {replicates:,} bootstrap "
                  "replicates")
        rest = [s for s in tied["style"] if s != leader["style"]]
        claim += (f"; tied with {', '.join(rest)} (bootstrap intervals overlap)" if rest
                  else "; no other style's interval reaches it")
    return Verdict("landscape", "", claim, {"mass": float(leader["mass"])},
                   test="95% bootstrap percentile intervals over deals",
                   items=tuple(tied["style"]))


# --------------------------------------------------------------------------------------------
# Elements: restricted play, observation, removal
# --------------------------------------------------------------------------------------------


def _worth(row: Mapping) -> str:
    """'Unhorse +6.1 [+3.2, +9.0]': an element and its worth in points."""
    return f"{row['element']} {points(row['worth'])} " \
           f"{interval(row['worth_low'], row['worth_high'])}"


#: Below this share of the restricted seat's games with a changed choice, an element's worth
#: is said to rest on few games (`element_lines`).
SELDOM = 0.1


def _band(row: Mapping) -> str:
    """The worths that count as none, '[-2.50, +2.27]' (two decimals: the band's ends are
    where a worth's rounded interval would otherwise seem to touch it)."""
    return f"[{100 * row['band_low']:+.2f}, {100 * row['band_high']:+.2f}]"


def _signed(x: float) -> str:
    """A change in the game's own score units: '+3.2', '–' when missing."""
    return "–" if x != x else f"{x:+.1f}"


def element_verdict(row: Mapping, bot: str) -> Verdict:
    """One element's claim in words, from its row of `stats.elements.table` (its category
    `verdict` decided there from the family's adjusted p-values and the tolerance)."""
    category = row["verdict"]
    band = _band(row)
    worth = f"{points(row['worth'])} points {interval(row['worth_low'], row['worth_high'])}"
    p = f"adjusted p {format_p(row['worth_p_adjusted'])}"
    claims = {
        "strongest": f"the strongest: a seat of {bot} forbidden it wins {worth} less ({p})",
        "tied with the strongest": f"cannot be told from the strongest (paired difference: "
                                   f"adjusted p {format_p(row['tie_p_adjusted'])}); worth {worth}",
        "real worth": f"real worth: a seat forbidden it wins {worth} less ({p})",
        "small real worth, inside the tolerance": f"a small real worth {worth} ({p}), inside "
                                                  f"the tolerance {band} points",
        "costs the bot": f"playing it costs {bot}: a seat forbidden it wins "
                         f"{points(-row['worth'])} points more ({p})",
        "no measurable worth: inconsequential": f"no measurable worth: its interval {worth} "
                                                 f"lies within {band} points",
        "never came up": "never came up: the restriction never removed an option",
        "never chosen by the bot": f"never chosen: {bot} never took it when it could, so "
                                   "restricting it changed nothing (its worth to a player who "
                                   "would take it is not measured)",
        "cannot tell": f"cannot tell: worth {worth} reaches beyond {band} points",
    }
    return Verdict("element", str(row["element"]), claims[category],
                   {"worth": float(row["worth"]), "low": float(row["worth_low"]),
                    "high": float(row["worth_high"]), "tolerance": float(row["tolerance"]),
                    "band_low": float(row["band_low"]), "band_high": float(row["band_high"])},
                   test="restricted play: baseline seat minus restricted seat, paired by deal, "
                        "95% interval clustered by deal",
                   p_value=float(row["worth_p"]), p_adjusted=float(row["worth_p_adjusted"]),
                   items=(category,))


def element_family_members(table: pd.DataFrame) -> str:
    """What an elements study puts in its output's family, for its note."""
    return ", ".join(what for what, column in (
        ("each element's worth", "worth_p"), ("its paired difference from the largest", "tie_p"),
        ("its played-vs-not correlation", "played_p"), ("its held-vs-not correlation", "held_p"),
        ("its removal", "removal_p")) if column in table and table[column].notna().any())


def element_lines(table: pd.DataFrame, bot: str, fair: float, note: str) -> list[str]:
    """The study in words for a designer: the strongest element and its ties, what has real
    worth, what costs the bot, what is inconsequential, what cannot be told; then the
    correlations (labelled so), the removals, and `note` (the family's: which correction
    decided the words, `Family.note`); each claim read off the adjusted p-values."""
    if table.empty:
        return []
    by = {c: table[table["verdict"] == c] for c in table["verdict"].unique()}
    names = lambda c: ", ".join(map(_worth, by[c].to_dict("records"))) if c in by else ""  # noqa: E731
    first = table.iloc[0]
    band = _band(first)
    lines = []
    if "strongest" in by:
        top = by["strongest"].iloc[0]
        line = (f"{top['element']} is the strongest element for {bot}: a seat forbidden it "
                f"wins {points(top['worth'])} points less "
                f"{interval(top['worth_low'], top['worth_high'])} "
                f"(adjusted p {format_p(top['worth_p_adjusted'])})")
        tied = by.get("tied with the strongest")
        line += (f"; tied with it (paired difference not significant): "
                 f"{names('tied with the strongest')}" if tied is not None
                 else "; no other element is tied with it")
        lines.append(line)
    else:
        came = table[~table["verdict"].isin(("never came up", "never chosen by the bot"))]
        if len(came):
            top = came.loc[came["worth"].idxmax()]
            lines.append(f"no element's worth is significant after adjustment, so none is "
                         f"named strongest (largest: {_worth(top)})")
    if "real worth" in by or "small real worth, inside the tolerance" in by:
        parts = [names(c) for c in ("real worth", "small real worth, inside the tolerance")
                 if c in by]
        lines.append(f"real worth (a seat forbidden it wins less): {'; '.join(parts)}")
    if "costs the bot" in by:
        lines.append(f"playing these costs {bot} (a seat forbidden them wins more: the bot "
                     f"misplays them): {names('costs the bot')}")
    if "no measurable worth: inconsequential" in by:
        lines.append(f"no measurable worth, inconsequential (interval within {band} points: "
                     f"the restricted seat within {tolerance_text(fair, first['tolerance'])}): "
                     f"{names('no measurable worth: inconsequential')}")
    if "cannot tell" in by:
        lines.append(f"cannot tell (intervals reach beyond {band} points; more games would "
                     f"narrow them): {names('cannot tell')}")
    seldom = table[(table["bit_share"] > 0) & (table["bit_share"] < SELDOM)
                   & ~table["verdict"].isin(("strongest", "tied with the strongest"))]
    if len(seldom):
        lines.append(f"seldom chosen by {bot} (the restriction changed a choice in under "
                     f"{SELDOM:.0%} of the restricted seat's games), so their intervals say "
                     "more about the bot than about the element: " + ", ".join(
                         f"{r['element']} ({_pct(r['bit_share'])})"
                         for r in seldom.to_dict("records")))
    if "never chosen by the bot" in by:
        lines.append(f"never chosen by {bot} when it could (forbidding them changed no choice, "
                     "so their worth is not measured with this bot; try another): "
                     + ", ".join(by["never chosen by the bot"]["element"]))
    if "never came up" in by:
        lines.append("never came up (the restriction never removed an option in these games): "
                     + ", ".join(by["never came up"]["element"]))
    guessed = table[table["guess"] > 0]
    for row in guessed.to_dict("records"):
        lines.append(f"{row['element']}: {bot} named a forbidden action at {row['guess']:,} "
                     "decisions with several others allowed, and one of them was drawn at "
                     "random: its worth there includes that guess")
    lines += _observed_lines(table)
    lines += _removal_lines(table)
    lines.append(note)
    return lines


def _observed_lines(table: pd.DataFrame) -> list[str]:
    cells = []
    for row in table.to_dict("records"):
        for what, verb in (("played", "played it"), ("held", "could play it")):
            p = row[f"{what}_p_adjusted"]
            if p == p and p < ALPHA:
                cells.append(f"{row['element']}: the seats that {verb} won "
                             f"{points(row[f'{what}_diff'])} points "
                             f"{interval(row[f'{what}_low'], row[f'{what}_high'])} of win "
                             "share against the others")
    if not cells:
        if not table[["played_p", "held_p"]].notna().any().any():
            return ["correlation, not cause: too few baseline seat-games on each side (played "
                    "or not) to compare any element's win share"]
        return ["correlation, not cause: no win share of the seats that played (or could play) "
                "an element differs significantly from the others' after adjustment"]
    return ["correlation, not cause (a seat plays a card when it suits its position): "
            + "; ".join(cells)]


def _removal_lines(table: pd.DataFrame) -> list[str]:
    played = table[table["removal_note"] == ""]
    lines = []
    if len(played):
        moved = played[played["removal_p_adjusted"] < ALPHA]
        cells = [f"without {r['element']} {_signed(r['removal_diff'])} "
                 f"[{_signed(r['removal_low'])}, {_signed(r['removal_high'])}]"
                 for r in moved.to_dict("records")]
        if cells:
            lines.append("removed for every seat, the winning score changes: " + "; ".join(cells)
                         + " (points of the game's score)")
        rest = played[~(played["removal_p_adjusted"] < ALPHA)]
        if len(rest):
            lines.append("removed for every seat, no significant change of the winning score: "
                         + ", ".join(rest["element"]))
    for note, group in table[table["removal_note"] != ""].groupby("removal_note", sort=False):
        lines.append(f"not removed: {', '.join(group['element'])} ({note})")
    return lines
