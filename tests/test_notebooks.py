"""Every notebook runs top to bottom with small parameters (injected into its first cell).

Executing them takes minutes, so that test is slow: CI executes the notebooks once, in its
docs step (`python -m tools.notebooks`, which applies the same `notebooks.problems` check).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import notebooks

PATHS = notebooks.notebook_paths()

nbformat = pytest.importorskip("nbformat", reason="notebooks extra not installed")
nbclient = pytest.importorskip("nbclient", reason="notebooks extra not installed")
pytest.importorskip("ipykernel", reason="notebooks extra not installed")


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs_top_to_bottom(path: Path, tmp_path: Path):
    nb = notebooks.execute(path, tmp_path, games=12, timeout=120)
    assert notebooks.problems(path, nb, tmp_path) == []


def test_an_executed_notebook_without_chart_transcript_or_report_has_problems(tmp_path: Path):
    """The check CI applies to every executed notebook fails on a notebook that ran but
    showed nothing (what a silently broken cell leaves behind)."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nb.cells[0].outputs = [nbformat.v4.new_output("error", ename="ValueError", evalue="bad")]
    found = notebooks.problems(Path("balance-nim.ipynb"), nb, tmp_path)
    assert found == ["error output: ValueError: bad", "the notebook shows no chart",
                     "the notebook shows no game transcript", "the notebook wrote no report.html"]


def test_each_balance_notebook_picks_its_game_in_the_first_cell():
    for path in PATHS:
        if path.stem.startswith("balance-"):
            nb = nbformat.read(path, as_version=4)
            assert notebooks.parameters(nb)["GAME"] == path.stem.removeprefix("balance-")


def test_widgets_saved_without_their_state_are_a_problem(tmp_path: Path):
    """A page of the explorer drawn without a kernel (the docs site) draws its widgets from
    the state saved in the notebook; without that state it would show them empty."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("explorer")])
    view = {"model_id": "abc", "version_major": 2, "version_minor": 0}
    nb.cells[0].outputs = [nbformat.v4.new_output(
        "display_data", data={notebooks.WIDGET_VIEW: view, "text/plain": "VBox()"})]
    (tmp_path / "report.html").write_text("")
    problem = ("the notebook shows widgets saved without their state (a page of it would "
               "show them empty)")
    assert problem in notebooks.problems(Path("explorer.ipynb"), nb, tmp_path)
    nb.metadata["widgets"] = {notebooks.WIDGET_STATE: {"state": {"abc": {}}}}
    assert problem not in notebooks.problems(Path("explorer.ipynb"), nb, tmp_path)


def test_a_balance_notebook_shows_its_tables_formatted(tmp_path: Path):
    """Shares as percentages and p-values rounded, never `0.131667` or `1.629072e-06`, and no
    text cut off with `...` (the stored frame's first rows, shown as they are, aside)."""
    import re

    nb = notebooks.execute(notebooks.NOTEBOOKS / "balance-tabula-rasa.ipynb", tmp_path,
                           games=12, timeout=120)
    tables = [o["data"]["text/html"] for cell in nb.cells if cell.cell_type == "code"
              and "frame.head()" not in cell.source for o in cell.outputs
              if "text/html" in o.get("data", {})]
    assert len(tables) >= 6
    for table in tables:
        assert not re.search(r">-?\d+\.\d{6,}(e[-+]?\d+)?<", table), table[-3000:]
        assert "...<" not in table and "…<" not in table
    assert any("%<" in table for table in tables)
