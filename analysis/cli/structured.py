"""`--json` and `--csv`: what a command prints, for scripts.

Every command prints its summary through the one stdout console (`common.stdout`): sentences
(its verdicts and figures in words) and rich tables.  In a structured mode the console's
`print` is replaced by a `Capture` that keeps the sentences as plain strings and each table
as its title, column headers and rows, and the command's output is printed once at the end:
as one JSON document, or as CSV (every table, each under a `# title` line; the sentences as
a one-column table when the command prints no table).  The capture works for every command,
so no command has its own `--json`; the progress bar and errors stay on stderr.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from analysis.present.terminal import Fitted

#: The flags, accepted anywhere before `--` on the command line.
FLAGS = {"--json": "json", "--csv": "csv"}


def _plain(value: Any, markup: bool = True) -> str:
    if isinstance(value, Text):
        return value.plain
    text = str(value)
    return Text.from_markup(text).plain if markup else text


def table_record(table: Table) -> dict[str, Any]:
    """A rich table as {title, columns, rows} of plain strings."""
    columns = [_plain(column.header) for column in table.columns]
    cells = [[_plain(cell) for cell in column.cells] for column in table.columns]
    rows = [list(row) for row in zip(*cells)] if cells else []
    return {"title": _plain(table.title) if table.title else "", "columns": columns,
            "rows": rows}


class Capture:
    """Stands in for `Console.print` while a command runs in a structured mode."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tables: list[dict[str, Any]] = []

    def print(self, *objects: Any, **options: Any) -> None:
        markup = options.get("markup", True) is not False
        for item in objects:
            if isinstance(item, Fitted):  # a table laid out for the terminal's width
                item = item.table
            if isinstance(item, Table):
                self.tables.append(table_record(item))
            elif isinstance(item, str | Text):
                self.lines.extend(line for line in _plain(item, markup).splitlines() if line)
            else:  # any other renderable: its text
                console = Console(file=io.StringIO(), width=200, color_system=None)
                console.print(item)
                self.lines.extend(x for x in console.file.getvalue().splitlines() if x.strip())

    def document(self, argv: list[str], exit_code: int) -> dict[str, Any]:
        return {"command": ["simulate", *argv], "exit_code": exit_code, "lines": self.lines,
                "tables": self.tables}

    def render(self, mode: str, argv: list[str], exit_code: int) -> str:
        """The captured output as one JSON document or as CSV."""
        if mode == "json":
            return json.dumps(self.document(argv, exit_code), ensure_ascii=False, indent=2)
        tables = self.tables or [{"title": "", "columns": ["line"],
                                  "rows": [[line] for line in self.lines]}]
        out = io.StringIO()
        for number, table in enumerate(tables):
            if len(tables) > 1:
                out.write(("\n" if number else "") + f"# {table['title']}\n")
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(table["columns"])
            writer.writerows(table["rows"])
        return out.getvalue().rstrip("\n")


def split_flags(argv: list[str]) -> tuple[str | None, list[str]]:
    """(mode, the arguments without the flags); `--` ends the options, as for click."""
    mode, rest = None, []
    for index, arg in enumerate(argv):
        if arg == "--":
            rest.extend(argv[index:])
            break
        if arg in FLAGS:
            if mode is not None and mode != FLAGS[arg]:
                from engines.errors import BadInput

                raise BadInput("--json and --csv cannot be combined; give one")
            mode = FLAGS[arg]
        else:
            rest.append(arg)
    return mode, rest
