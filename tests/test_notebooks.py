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
