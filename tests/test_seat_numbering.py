"""Seats are numbered from 1 wherever a reader meets them: report tables and notebooks."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.present.formats import seats_from_one
from analysis.present.report import table_html

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_seats_from_one_renumbers_seat_and_team_columns_and_index_levels():
    table = pd.DataFrame({"seat": [0, 1], "best_seat": [1, 0], "team": [0, 1],
                          "share": [0.4, 0.6]})
    shown = seats_from_one(table)
    assert shown[["seat", "best_seat", "team"]].values.tolist() == [[1, 2, 1], [2, 1, 2]]
    assert table["seat"].tolist() == [0, 1]  # a copy: the stored numbering is untouched
    assert seats_from_one(table.set_index("seat")).index.tolist() == [1, 2]


def test_report_tables_number_seats_from_1():
    text = table_html(pd.DataFrame({"seat": [0, 1], "win_share": [0.5, 0.5]}))
    assert re.findall(r"<tr><td>(\d)</td>", text) == ["1", "2"]


def _notebooks():
    pytest.importorskip("nbformat", reason="notebooks extra not installed")
    spec = importlib.util.spec_from_file_location("make_notebooks",
                                                  NOTEBOOKS / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_notebooks"] = module
    spec.loader.exec_module(module)
    return module.notebooks()


#: Calls whose tables carry a seat column (seat, best_seat, worst_seat).
SEAT_TABLES = ("balance.seat_advantage(", "confirm.confirmed_table(",
               "side_by_side(robustness.seat_shares(")


def test_notebooks_show_seat_tables_numbered_from_1():
    for name, nb in _notebooks().items():
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                assert not re.search(r"\bseat 0\b", cell.source), (name, cell.source)
                continue
            if any(call in cell.source for call in SEAT_TABLES):
                assert "seats_from_one(" in cell.source, (name, cell.source)
