"""A skill ladder in words, in the terminal and in a report: each seat's edge at each level
with its interval, what each level cost, the headline at the strongest level and each seat's
trend verdict (`analysis.stats.ladder`)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from rich.console import Console
from rich.table import Table

from analysis.present import formats
from analysis.present.terminal import fit
from analysis.stats.ladder import Ladder

TABLE_TITLE = "Seat edge by level, weakest first (points, 95% interval before any correction)"


def _edge(row, compact: bool) -> str:
    if row.se != row.se:  # one game: no interval
        return f"{100 * row.edge:+.1f}"
    if compact:
        return f"{100 * row.edge:+.1f}±{50 * (row.edge_high - row.edge_low):.1f}"
    return f"{100 * row.edge:+.1f} [{100 * row.edge_low:+.1f}, {100 * row.edge_high:+.1f}]"


def wide(ladder: Ladder, compact: bool = False) -> pd.DataFrame:
    """One row per seat: its edge at each level (a column per level: `edge [low, high]`, or
    `edge±half width` when `compact`), then its verdict."""
    rows = []
    verdicts = ladder.trend.set_index("seat")["verdict"]
    for seat, group in ladder.edges.groupby("seat", sort=True):
        row = {"seat": f"seat {int(seat) + 1}"}
        row.update({r.level: _edge(r, compact)
                    for r in group.sort_values("rank").itertuples()})
        row["with skill"] = verdicts.loc[seat]
        rows.append(row)
    return pd.DataFrame(rows)


def header(ladder: Ladder, seed: int) -> str:
    """What the ladder played, on one line."""
    rules = f" ({ladder.rules})" if ladder.rules else ""
    return (f"{ladder.game} {ladder.players}p{rules} · skill ladder, weakest first: "
            f"{', '.join(ladder.levels)} · every seat the level's bot · same deals at every "
            f"level (seed {seed})")


def cost_text(ladder: Ladder, cost: Mapping[str, float]) -> str:
    """Games and measured games/s of each level (what a bigger ladder would cost)."""
    games = ladder.edges.groupby("level")["games"].max()
    parts = []
    for level in ladder.levels:
        rate = cost.get(level, float("nan"))
        known = (f" at {formats.rate(rate)} games/s" if rate == rate
                 else " (cost unknown: played earlier)")
        parts.append(f"{level} {int(games.get(level, 0)):,} games{known}")
    return "cost per level (measured when first played, all workers): " + "; ".join(parts)


def sources_text(ladder: Ladder) -> str:
    """The largest scoring source at each level (or those tied for it), with its interval:
    whether the game's dominant source changes with skill, read off the ladder's own games
    (descriptive: intervals, no test)."""
    from analysis.present import designer

    cells = [f"{level}: {designer.largest_source(ladder.frame[ladder.frame['bot'] == level])}"
             for level in ladder.levels]
    return "largest scoring source at each level (share of all points, 95% interval): " + \
        "; ".join(cells)


def rich_table(ladder: Ladder) -> Table:
    table = Table(title="Seat edge by level, weakest first (points ± 95% CI half width, "
                        "before any correction)")
    shown = wide(ladder, compact=True)
    for column in shown.columns:
        table.add_column(column, justify="left" if column in ("seat", "with skill")
                         else "right", no_wrap=column == "seat")
    for row in shown.itertuples(index=False):
        table.add_row(*[str(v) for v in row])
    return table


def _say(console: Console, text: str) -> None:
    console.print(text, soft_wrap=True, highlight=False, markup=False)


def print_ladder(console: Console, ladder: Ladder, cost: Mapping[str, float],
                 seed: int) -> None:
    """The ladder's header, its table of edges and what each level cost."""
    _say(console, header(ladder, seed))
    console.print(fit(rich_table(ladder)))
    _say(console, f"  {cost_text(ladder, cost)}")
    _say(console, f"  {sources_text(ladder)}")


def trend_lines(ladder: Ladder) -> list[str]:
    """The headline at the strongest level, then one trend sentence per seat."""
    return [ladder.headline(), *ladder.sentences()]


NOTE = ("Each level plays the same deals with every seat that level's bot, weakest first. "
        "An edge is the seat's win share minus the fair share, with its 95% interval before "
        "any correction. 'with skill' is a trend test per seat (the weighted least-squares "
        "slope of the edge on the level's rank), its p adjusted in the family named in each "
        "sentence: grows / shrinks (a significant slope away from / towards zero), reverses "
        "(a significant slope, with intervals of both signs off zero), stable (no significant "
        "slope, and the slope's interval allows a change of at most a fifth of the fair share "
        "over the ladder), otherwise cannot tell. Trends are not replayed on fresh deals. "
        "The levels share deals, which the test ignores: it can miss a trend, not invent one.")
