"""Issue 16 part 4: `analysis/` is layered (run -> results -> stats -> present, cli on top)
and has no import cycle, counting imports inside functions too (the old `cli` imported
`cli_analysis`, which imported `cli` back from inside a command)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analysis"
#: What each layer may import from `analysis` besides itself (the data flow, README
#: "Layout of analysis/").  `run` may write a report (experiment files, sweeps) and
#: `stats` may replay a finding on fresh deals, so neither is a pure lower layer; what the
#: rules forbid is a lower layer reaching the command line, and the store reaching anything.
ALLOWED = {
    "results": set(),
    "run": {"results", "stats", "present"},
    "stats": {"results", "run"},
    "present": {"results", "run", "stats"},
    "cli": {"results", "run", "stats", "present", "bench"},
    "bench": set(),
}


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


def test_layers_import_only_what_the_data_flow_allows():
    wrong = []
    for module, targets in import_graph().items():
        own = layer(module)
        if own not in ALLOWED:
            continue
        for target in targets:
            other = layer(target)
            if other and other != own and other not in ALLOWED[own]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, wrong


@pytest.mark.slow
@pytest.mark.parametrize("module", module_names())
def test_each_module_imports_alone(module):
    """Import order cannot hide a cycle: each module loads first in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
