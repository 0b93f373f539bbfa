"""Terminal tables read at 80 columns: no header word broken or cut, whatever the command."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from rich.console import Console
from rich.table import Table

from analysis.cli import common, main
from analysis.present import designer
from analysis.present.terminal import Fitted, fit

BOX_TOP = ("┏", "┌", "╭")


def rendered(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def broken_header_words(renderable, width: int = 80) -> list[str]:
    """Header words of a printed table that do not appear whole below its title at `width`
    (folded mid-word, or cut off with an ellipsis)."""
    table = renderable.table if isinstance(renderable, Fitted) else renderable
    lines = rendered(renderable, width).splitlines()
    top = next(i for i, line in enumerate(lines) if line.lstrip().startswith(BOX_TOP))
    tokens = set(re.split(r"[\s│┃]+", "\n".join(lines[top:])))
    return [word for column in table.columns for word in str(column.header).split()
            if word not in tokens]


def wide_summary() -> pd.DataFrame:
    """A designer summary with every optional column (a sweep and a skill ladder ran)."""
    return pd.DataFrame([{
        "game": "tabula-rasa", "players": 3, "rules": "official", "games": 40,
        "balanced": "cannot tell: edges -16.2 to +19.6 points", "fresh deals": "–",
        "largest seat edge": "seat 3 -4.6 [-16.2, +10.8]",
        "largest source": "territories_colour 43.4% [41.4, 45.4]", "bots skipped": "none",
        "variant worth testing": "none significant",
        "under stronger play": "seat 1: no clear trend"}])


def test_designer_summary_with_every_column_keeps_its_headers_whole_at_80_columns():
    shown = designer.rich_table(wide_summary())
    assert broken_header_words(shown) == []
    text = rendered(shown)
    assert "territories_colour 43.4% [41.4, 45.4]" in text  # no cell folded either


def test_a_table_that_fits_is_printed_as_it_is():
    table = Table(title="t")
    for header in ("seat", "win share"):
        table.add_column(header)
    table.add_row("1", "25.0%")
    assert rendered(fit(table)) == rendered(table)
    assert "┡" in rendered(designer.rich_table(wide_summary()), 200)  # a header row


@pytest.fixture
def printed(monkeypatch):
    """Every table the commands print, the console 80 columns wide."""
    found = []
    monkeypatch.setattr(common.stdout, "width", 80)
    original = type(common.stdout).print

    def spy(self, *objects, **options):
        found.extend(o for o in objects if isinstance(o, (Table, Fitted)))
        return original(self, *objects, **options)

    monkeypatch.setattr(type(common.stdout), "print", spy)
    return found


@pytest.mark.parametrize("argv", [
    ["tabula-rasa", "--players", "4", "--games", "8", "--seed", "1", "--jobs", "1",
     "--reference", "none"],
    ["compare", "ninjato", "--bots", "heuristic,random,heuristic:collector", "--games", "24",
     "--seed", "1", "--jobs", "1", "--vs-rotation", "--bootstrap", "0"],
    ["data", "time-pirates", "--items"],
], ids=["game", "compare", "data-items"])
def test_every_table_a_command_prints_keeps_its_headers_whole_at_80_columns(argv, printed,
                                                                            tmp_path):
    out = [] if argv[0] == "data" else ["--out", str(tmp_path / "out")]
    assert main(argv + out) == 0
    tables = list(printed)  # rendering below prints too
    assert tables
    for table in tables:
        assert broken_header_words(table) == [], rendered(table)


def test_simulate_run_with_a_sweep_keeps_the_summary_headers_whole(printed, tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text('name = "swp"\nseed = 3\n[[study]]\ngame = "tabula-rasa"\nplayers = 3\n'
                    'bots = ["heuristic"]\n[[sweep]]\ngame = "tabula-rasa"\nplayers = 3\n'
                    'bots = ["heuristic"]\nvary = {final_tie = ["draw", "tiebreak"]}\n')
    assert main(["run", str(path), "--games", "10", "--jobs", "1", "--quiet", "--no-confirm",
                 "--out", str(tmp_path / "out")]) == 0
    summary = [t for t in list(printed) if "Designer summary" in str(
        (t.table if isinstance(t, Fitted) else t).title)]
    assert summary and broken_header_words(summary[0]) == []
    assert "tabula-rasa 3p" in rendered(summary[0])  # players counted, not 3.0
    report = (tmp_path / "out" / "swp" / "report.html").read_text()
    assert "tabula-rasa, 3 players, official rules: " in report and "3.0 players" not in report
