"""Run the example notebooks with small parameters: for the test suite and for the docs site.

    python -m tools.notebooks docs/notebooks     # execute every notebook into that folder

The notebooks take their parameters from assignments in their first cell; this module
replaces them with small ones (few games, the minimum player count, one job), executes the
notebook and returns it with its outputs.  The docs site shows the executed copies (built in
CI, not committed; a site built without them shows the notebooks unexecuted, see
`tools/mkdocs_hooks.py`).  Executing every notebook takes minutes, so CI does it once, here:
`main` checks each executed notebook with `problems` and fails if one did not work; the
test suite runs the same check only with `-m slow`.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def notebook_paths() -> list[Path]:
    """The committed notebooks."""
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def generator() -> ModuleType:
    """`notebooks/make_notebooks.py`, the template every notebook is generated from (a
    script beside the notebooks, not a package module)."""
    module = sys.modules.get("make_notebooks")
    if module is None:
        spec = importlib.util.spec_from_file_location("make_notebooks",
                                                      NOTEBOOKS / "make_notebooks.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["make_notebooks"] = module
        spec.loader.exec_module(module)
    return module


def names() -> list[str]:
    """The file names of the notebooks the template generates for the registered games: what
    `docs/notebooks.md` lists, whether or not they were written yet."""
    return sorted(generator().notebooks())


def parameters(nb) -> dict:
    """The first cell's `NAME = literal` assignments."""
    values = {}
    for node in ast.parse(nb.cells[0].source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = ast.literal_eval(node.value)
    return values


def small_parameters(nb, out_dir: Path, games: int = 12) -> dict:
    """The notebook's parameters, scaled down to `games` games at the minimum player count."""
    from engines import get_game

    values = parameters(nb)
    game = get_game(values["GAME"])
    values.update(GAMES=games, JOBS=1, OUT_DIR=str(out_dir))
    if "VS_ROTATION" in values:  # comparison notebook
        values.update(BOTS="heuristic,random", PLAYERS=game.min_players)
    elif "AGAINST" in values:  # tuning notebook: two candidates per parameter, few games
        values.update(PLAYERS=game.min_players, BUDGET=120,
                      VARY={k: v[:2] for k, v in values["VARY"].items()})
    elif "STYLES" in values:  # landscape notebook: two styles, a short bootstrap
        values.update(PLAYERS=game.min_players, STYLES=values["STYLES"][:2], BOOTSTRAP=20)
    elif "ELEMENTS" in values:  # elements notebook: two elements, few games each
        from analysis.run.elements import default_spec

        chosen = default_spec(values["GAME"], game.min_players, games, 1).elements[:2]
        values.update(PLAYERS=game.min_players, ELEMENTS=list(chosen))
    elif "MCTS_GAMES" in values:  # robustness notebook: one game of the MCTS line-up
        values.update(BOTS="random,heuristic:*", PLAYERS=game.min_players, MCTS_GAMES=1)
    else:  # balance and what-if notebooks: one player count; random bots for a smoke test
        values.update(PLAYERS=[game.min_players])
        if games < 50:
            values.update(BOTS="random")
    return values


def execute(path: Path, out_dir: Path, games: int = 12, timeout: int = 600):
    """The notebook at `path`, executed with small parameters (run files go to `out_dir`)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    values = small_parameters(nb, out_dir, games)
    nb.cells[0].source = "\n".join(f"{k} = {v!r}" for k, v in values.items())
    nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(out_dir)}}).execute()
    return nb


#: The output of a displayed widget, and the notebook metadata that holds the widgets' state
#: (what a page rendered without a kernel draws them from).
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def problems(path: Path, nb, out_dir: Path) -> list[str]:
    """What an executed notebook failed to show: an error output, no chart, no report file,
    for a balance notebook no transcript of its most extreme game, and widgets whose state
    was not saved with it."""
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    found = [f"error output: {o.get('ename')}: {o.get('evalue')}"
             for o in outputs if o.output_type == "error"]
    if not any("image/png" in o.get("data", {}) for o in outputs):
        found.append("the notebook shows no chart")
    if path.stem.startswith("balance-") and \
            not any("== end ==" in o.get("text", "") for o in outputs):
        found.append("the notebook shows no game transcript")
    if not (out_dir / "report.html").is_file():
        found.append("the notebook wrote no report.html")
    views = [o["data"][WIDGET_VIEW]["model_id"] for o in outputs
             if WIDGET_VIEW in o.get("data", {})]
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    if any(model not in state for model in views):
        found.append("the notebook shows widgets saved without their state (a page of it "
                     "would show them empty)")
    return found


def main(argv: list[str]) -> int:
    import nbformat

    target = Path(argv[0]) if argv else ROOT / "docs" / "notebooks"
    target.mkdir(parents=True, exist_ok=True)
    failed = False
    for path in notebook_paths():
        with tempfile.TemporaryDirectory() as tmp:
            nb = execute(path, Path(tmp), games=100)
            found = problems(path, nb, Path(tmp))
        nbformat.write(nb, target / path.name)
        for problem in found:
            print(f"{path.name}: {problem}", file=sys.stderr)
        failed = failed or bool(found)
        print(f"executed {path.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
