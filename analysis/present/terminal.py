"""Terminal tables that stay readable at any width, 80 columns included.

A rich table squeezed below the width its longest words need breaks them mid-word (or cuts
them off with an ellipsis), headers included: "balance|d", "share_du…".  `fit` prints a
table as it is when every column gets at least its longest word, and otherwise as one block
per row, each cell beside its column's name — the same cells, nothing cut.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table


def stacked(table: Table) -> Table:
    """The rows of `table` as blocks of 'column name | cell' lines, one block per row."""
    out = Table(title=table.title, show_header=False, box=table.box)
    out.add_column(no_wrap=True, style="bold")
    out.add_column(overflow="fold")
    cells = [list(column.cells) for column in table.columns]
    for index in range(table.row_count):
        if index:
            out.add_section()
        for column, values in zip(table.columns, cells):
            out.add_row(column.header, values[index])
    return out


class Fitted:
    """A table that chooses its layout when printed: as it is, or `stacked` when its
    columns' longest words (headers and cells) do not fit in the console's width."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # the table's own measure: `Measurement.get` would clamp the minimum to the width
        needed = self.table.__rich_measure__(console, options).minimum
        yield self.table if needed <= options.max_width else stacked(self.table)


def fit(table: Table) -> Fitted:
    """`table` for the terminal: never a word broken at the console's width (see `Fitted`)."""
    return Fitted(table)
