"""How a share is written in every terminal table, report table, notebook table and sentence:
one function, so the CLI, the run summary, the HTML report and the notebooks cannot drift
apart."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np
import pandas as pd


def percent(x: float | None, digits: int | None = 1) -> str:
    """`0.2534` -> `25.3%`; a missing value (None, NaN) -> `–`.

    `digits=None` writes whole percents, but one decimal under 1% so that a rare share does
    not read as 0% (the coverage lines: "used in 0.4% of games").
    """
    if x is None or pd.isna(x):
        return "–"
    if digits is None:
        digits = 0 if x >= 0.01 or x == 0 else 1
    return f"{100 * x:.{digits}f}%"


def rate(per_second: float) -> str:
    """`1234.5` -> `1,234`, `3.46` -> `3.5`, `0.478` -> `0.48`: a slow rate (all-MCTS games)
    keeps two significant digits instead of reading as 0 games/s."""
    if per_second != per_second:
        return "–"
    if per_second >= 10:
        return f"{per_second:,.0f}"
    return f"{per_second:.2g}"


def context_label(row: pd.Series | Mapping[str, Any]) -> str:
    """'ninjato, 3 players, official rules': one context (game, players, rules) in words."""
    rules = row.get("rules", "") or "official rules"
    players = row.get("players")
    if isinstance(players, float) and players.is_integer():
        players = int(players)  # a family with extra rows (sweep effects) holds floats
    return f"{row.get('game', '')}, {players} players, {rules}"


#: Columns that hold a seat (or team) index: stored from 0, shown from 1 (who takes the first
#: turn depends on the game and its rules: `seat_order`).
SEAT_COLUMNS = ("seat", "best_seat", "worst_seat", "team")


def seat_order(game: str, rules: Any = "", players: int | None = None,
               short: bool = False) -> str:
    """How this game's seat numbers read under `rules` (a `rules_str` or a `Rules` instance),
    from the starter the game declares (`Game.starter`): "seat 1 takes the first turn" only
    where it does; where the first player is drawn at random, seat numbers are positions at
    the table and say nothing about turn order.  `short`: a few words, for a chart's axis.
    '' for a game that is not registered (nothing is known to say)."""
    from analysis.stats.balance import starter_for

    starts = starter_for(game, rules)
    if starts == "first":
        return "1 takes the first turn" if short else "seat 1 takes the first turn"
    if starts == "last":
        last = f"seat {players}" if players else "the last seat"
        return f"{players or 'the last'} takes the first turn" if short else \
            f"{last} takes the first turn"
    if starts == "random":
        return "first player drawn at random" if short else (
            "the first player is drawn at random each game (seat numbers are fixed table "
            "positions, not turn order)")
    return ""


def _plus_one(value):
    return value + 1 if isinstance(value, (int, np.integer)) and not isinstance(value, bool) \
        else value


def seats_from_one(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of a stats table with its seat and team columns (and index levels) counted from
    1, as every sentence, chart and report names them; the stored frames count from 0."""
    out = table.copy()
    for column in SEAT_COLUMNS:
        if column in out.columns:
            out[column] = out[column].map(_plus_one)
    if any(name in SEAT_COLUMNS for name in out.index.names):
        levels = [out.index.get_level_values(i).map(_plus_one) if name in SEAT_COLUMNS
                  else out.index.get_level_values(i) for i, name in enumerate(out.index.names)]
        out.index = (pd.MultiIndex.from_arrays(levels, names=out.index.names)
                     if len(levels) > 1 else pd.Index(levels[0], name=out.index.names[0]))
    return out


#: Columns that hold a share (of games, points or decisions): written as percentages in the
#: report's and the notebooks' tables (and every column whose name starts with "share").
PERCENT_COLUMNS = frozenset({
    "used_share", "available_share", "used_when_available",
    "win_share", "ci_low", "ci_high", "fair", "first_share", "first_edge", "edge_low",
    "edge_high", "best_share", "worst_share", "first_edge_low", "first_edge_high", "balance",
    "tie_rate", "truncated_rate", "zero_margin", "share", "half_width", "first_mde", "mde",
    "effect", "confirm_share",
})


def number(x: Any) -> str:
    """A table cell that is not a share: `yes`/`no`, `12,345`, `0.0012` as `0.0012`,
    `1.629e-06` as `1.63e-06`, `3.14159` as `3.14`, a missing value as `–`."""
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return f"{x:,}"
    if isinstance(x, (float, np.floating)):
        if pd.isna(x):
            return "–"
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.3g}" if abs(x) < 0.01 else f"{x:.2f}"
    return str(x)


def cell(column: Any, value: Any, shares: Collection[str] = (),
         numbers: Collection[str] = ()) -> str:
    """The text of one table cell under its column: a share column's float as a percentage
    (`PERCENT_COLUMNS`, names starting with "share" or "half_width", and `shares`; never
    the columns in `numbers`, a table's points or decisions), empty rules as `official`,
    anything else as `number` writes it.  A column of a multi-level header is judged by its
    last level, or its first (`("share", "random")` is a share)."""
    name = str(column[-1] if isinstance(column, tuple) else column)
    top = str(column[0]) if isinstance(column, tuple) else name
    if name in numbers:
        return number(value)
    if name in PERCENT_COLUMNS or name in shares or top in shares or \
            any(n.startswith(("share", "half_width")) for n in (name, top)):
        return percent(value) if isinstance(value, (float, np.floating)) else number(value)
    if name == "rules" and not value:
        return "official"
    return number(value)


def styled(table: pd.DataFrame, shares: Collection[str] = (),
           numbers: Collection[str] = ()) -> Any:
    """A stats table as the notebooks show it, written as the report writes it: seats from 1,
    shares as percentages (also the columns named in `shares`, never those in `numbers`),
    other numbers rounded (`cell`), and text columns (verdicts, details) left-aligned and
    wrapped in full instead of cut off at pandas' column width.  A pandas Styler (needs
    jinja2, which the notebooks extra brings)."""
    shown = seats_from_one(table)
    text = [c for c in shown.columns if not pd.api.types.is_numeric_dtype(shown[c])]
    styler = shown.style.format({c: (lambda v, c=c: cell(c, v, shares, numbers))
                                 for c in shown.columns})
    if isinstance(shown.index, pd.RangeIndex):
        styler = styler.hide(axis="index")  # row numbers say nothing
    else:
        styler = styler.format_index(lambda v: cell("", v))
    if text:
        styler = styler.set_properties(subset=text, **{"text-align": "left",
                                                       "white-space": "pre-wrap"})
    return styler
