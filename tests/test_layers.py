"""`analysis/` is layered in one strict order and has no import cycle, counting imports inside
functions too (an import inside a command function can close a cycle as surely as one at the
top)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analysis"
#: The order of `analysis/`, lowest first (docs/architecture.md):
#:   results  the run directory: manifests, Parquet parts, loading runs as frames
#:   stats    pure functions of frames: no game played, nothing printed
#:   present  text, HTML, charts (and playing one seat by hand)
#:   run      playing: tournaments, confirmation replays, reference runs, sweeps, searches
#:   cli      the command and the orchestration that plays (run) and then renders (present)
#: The rule: a layer imports only layers BEFORE it in this list, except that `run` skips
#: `present` (a game is never played to draw something, nor drawn while playing).  `run`
#: may use `stats`: a search races candidates and a sweep adjusts its effects by their
#: statistics.  `bench` is the game-speed measurement, a tool of `cli`; the package's
#: `__init__` re-exports `results` only.
LAYERS = ["results", "stats", "present", "run", "cli"]
SKIPPED = {("run", "present")}
TOOLS = {"bench": set()}


def may_import(own: str, other: str) -> bool:
    """Whether a module of layer `own` may import one of layer `other` (see `LAYERS`)."""
    if own == other or own in TOOLS and other in TOOLS[own]:
        return True
    if own == "cli" and other in TOOLS:
        return True
    if own not in LAYERS or other not in LAYERS:
        return False
    return LAYERS.index(other) < LAYERS.index(own) and (own, other) not in SKIPPED


def module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def source_of(module: str) -> Path:
    base = ROOT / module.replace(".", "/")
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def imports_of(module: str, known: set[str]) -> set[str]:
    """Every `analysis` module that `module` imports anywhere in its source (functions
    included), resolved to the module actually loaded (`from analysis.x import y` loads
    `analysis.x.y` when that is a module, else `analysis.x`)."""
    tree = ast.parse(source_of(module).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and ast.unparse(node.func) in ("__import__", "importlib.import_module")):
            found.add(node.args[0].value)  # the old cli's way to hide its cycle
    return {name for name in found if name in known and name != module}


def import_graph() -> dict[str, set[str]]:
    known = set(module_names())
    return {module: imports_of(module, known) for module in known}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first repeated at the end), or None.

    A package importing its own submodules (an `__init__` re-export) is not a cycle: the
    submodule importing its package back only finds it already initialised."""
    def edges(module: str) -> list[str]:
        return sorted(t for t in graph[module] if not module.startswith(t + "."))

    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in edges(module):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "analysis.run.tournament" in graph["analysis.cli.games"]  # top-level import
    assert "analysis.present.transcript" in graph["analysis.cli.replay"]  # inside a command
    assert "analysis.results.store" in graph["analysis"]  # from-import of names


def test_analysis_has_no_import_cycle():
    assert find_cycle(import_graph()) is None


def test_a_cycle_would_be_found():
    """The detector itself: the cycle the issue names (cli <-> cli_analysis) is caught."""
    graph = {"analysis.cli": {"analysis.cli_analysis"}, "analysis.cli_analysis": {"analysis.cli"}}
    assert find_cycle(graph) == ["analysis.cli", "analysis.cli_analysis", "analysis.cli"]


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of the graph that goes against the order of `LAYERS`."""
    wrong = []
    for module, targets in sorted(graph.items()):
        own = layer(module)
        if not own:  # the package itself: its __init__ may re-export the lowest layer only
            wrong += [f"{module} imports {t}" for t in sorted(targets)
                      if layer(t) != LAYERS[0]]
            continue
        for target in sorted(targets):
            other = layer(target)
            if other and not may_import(own, other):
                wrong.append(f"{module} imports {target}")
    return wrong


def test_every_analysis_module_belongs_to_a_layer():
    strays = {layer(m) for m in import_graph()} - set(LAYERS) - set(TOOLS) - {""}
    assert not strays, strays


def test_layers_import_only_what_the_order_allows():
    assert violations(import_graph()) == []


def test_the_order_allows_downward_imports_only():
    assert may_import("stats", "results") and may_import("present", "stats")
    assert may_import("run", "stats") and may_import("cli", "present")
    assert may_import("cli", "bench")
    assert not may_import("results", "stats") and not may_import("stats", "run")
    assert not may_import("present", "run") and not may_import("run", "present")
    assert not may_import("run", "cli") and not may_import("bench", "run")


@pytest.mark.parametrize("module, target", [
    ("analysis.stats.findings", "analysis.run.tournament"),  # a statistic playing games
    ("analysis.present.summary", "analysis.run.tournament"),
    ("analysis.run.sweep", "analysis.present.report"),  # playing code writing HTML
    ("analysis.results.store", "analysis.stats.balance"),
    ("analysis", "analysis.cli.app"),
])
def test_an_import_against_the_order_is_caught(module, target):
    """The checker itself: one injected import against the order fails the real graph."""
    graph = import_graph()
    graph[module] = graph.get(module, set()) | {target}
    assert violations(graph) == [f"{module} imports {target}"]


@pytest.mark.slow
@pytest.mark.parametrize("module", module_names())
def test_each_module_imports_alone(module):
    """Import order cannot hide a cycle: each module loads first in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
