"""The tutorial's game (`docs/tutorial.md`, `engines/hot_potato/`): its code blocks are the
shipped files, it stays under 150 lines of its own code, and a copy of its folder anywhere on
disk, registered by path and renamed, answers every designer's question with no edit outside
the folder: `simulate GAME`, `compare`, `explain`, `report`, both RL adapters, its own tests.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engines import _build

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "engines" / "hot_potato"
TUTORIAL = ROOT / "docs" / "tutorial.md"
NAME, COPY, COPY_NAME = "hot-potato", "potato_copy", "potato-copy"


def _own_code() -> list[Path]:
    """The game's own code: its modules, not its tests."""
    return sorted(FOLDER.glob("*.py"))


def test_every_code_block_of_the_tutorial_is_in_a_file_of_the_game():
    shipped = "\n".join(p.read_text() for p in [*FOLDER.rglob("*.py"), FOLDER / "game.toml"])
    blocks = re.findall(r"```(?:python|toml)\n(.*?)```", TUTORIAL.read_text(), flags=re.S)
    assert len(blocks) >= 8
    for block in blocks:
        assert block.strip("\n") in shipped, block[:200]


def test_the_tutorial_game_is_under_150_lines_of_its_own_code():
    assert sum(len(p.read_text().splitlines()) for p in _own_code()) < 150


def test_the_build_compiles_what_the_tutorial_games_file_lists():
    assert {"engines.gamekit.table", "engines.hot_potato.state",
            "engines.hot_potato.bots"} <= set(_build.COMPILED_MODULES)


def copy_outside(parent: Path) -> Path:
    """The game's folder copied to `parent/potato_copy`, its game renamed (two games of one
    name are refused): the only edit, and inside the copy."""
    target = parent / COPY
    shutil.copytree(FOLDER, target, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for path in [p for p in target.rglob("*.py") if p.is_file()]:
        path.write_text(path.read_text().replace(f'"{NAME}"', f'"{COPY_NAME}"'))
    return target


#: Every question in one interpreter (the fast variant): the commands through `main`, then
#: both adapters' own API checks, each step's outcome printed as one JSON line.
QUESTIONS = """
import json, sys
from analysis.cli import main
out, game = sys.argv[1:]
steps = {
    "simulate": [game, "--games", "40", "--seed", "1", "--jobs", "1", "--quiet",
                 "--out", f"{out}/run"],
    "compare": ["compare", game, "--bots", "heuristic,random", "--games", "24", "--seed", "1",
                "--jobs", "1", "--quiet", "--out", f"{out}/compare"],
    "explain": ["explain", game, "--games", "24", "--seed", "1", "--jobs", "1", "--quiet",
                "--out", f"{out}/explain"],
    "report": ["report", f"{out}/run", f"{out}/compare", "--no-confirm", "--bootstrap", "10",
               "--out", f"{out}/report.html"],
}
for step, argv in steps.items():
    print(json.dumps([step, main(argv)]), flush=True)
import pyspiel
import engines.adapters.openspiel  # registers the games
from engines.adapters import openspiel_name
spiel = pyspiel.load_game(openspiel_name(game), {"players": 3})
pyspiel.random_sim_test(spiel, num_sims=2, serialize=False, verbose=False)
print(json.dumps(["openspiel", 0]), flush=True)
from pettingzoo.test import api_test
from engines.adapters.pettingzoo import env
api_test(env(game, players=3), num_cycles=200)
print(json.dumps(["pettingzoo", 0]), flush=True)
"""


def _run(argv: list[str], copy: Path, cwd: Path) -> subprocess.CompletedProcess:
    """`argv` with the copy registered, this checkout's packages first on the path."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, _build.GAMES_ENV: str(copy), "PYTHONPATH": path}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_a_copy_outside_the_checkout_answers_every_question(tmp_path):
    pytest.importorskip("pyspiel", reason="rl extra not installed")
    pytest.importorskip("pettingzoo", reason="rl extra not installed")
    copy = copy_outside(tmp_path / "games")
    checkout = sorted(p.name for p in (ROOT / "engines").iterdir())
    done = _run([sys.executable, "-c", QUESTIONS, str(tmp_path / "out"), COPY_NAME], copy, ROOT)
    steps = dict(json.loads(line) for line in done.stdout.splitlines()
                 if line.startswith("[\""))
    assert steps == {"simulate": 0, "compare": 0, "explain": 0, "report": 0,
                     "openspiel": 0, "pettingzoo": 0}, done.stderr[-3000:]
    assert (tmp_path / "out" / "report.html").stat().st_size > 10_000
    manifest = json.loads((tmp_path / "out" / "run" / "manifest.json").read_text())
    assert manifest["game"] == COPY_NAME
    assert sorted(p.name for p in (ROOT / "engines").iterdir()) == checkout  # nothing added


@pytest.mark.slow
def test_a_copy_outside_the_checkout_passes_its_own_tests_and_the_contract_from_the_console(
        tmp_path):
    """The slow variant: the console command `simulate` for each question, run from another
    directory, then the copy's own tests and the contract tests on the copy."""
    copy = copy_outside(tmp_path / "games")
    simulate = [sys.executable, "-m", "analysis.cli"]
    out = tmp_path / "out"
    for argv in ([COPY_NAME, "--games", "200", "--seed", "2", "--out", f"{out}/run"],
                 ["compare", COPY_NAME, "--games", "240", "--out", f"{out}/compare"],
                 ["explain", COPY_NAME, "--games", "200", "--out", f"{out}/explain"],
                 ["report", f"{out}/run", f"{out}/compare", "--out", f"{out}/r.html"]):
        done = _run([*simulate, *argv, *(["--quiet"] if argv[0] != "report" else [])],
                    copy, tmp_path)
        assert done.returncode == 0, (argv, done.stderr[-2000:])
    pytest_ = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    for files, at_least in (([str(copy / "tests")], 15),
                            ([str(ROOT / "tests" / name) for name in (
                                "test_contract.py", "test_adapters.py", "test_gamekit.py",
                                "test_render.py")] + ["-k", COPY_NAME], 80)):
        tests = _run([*pytest_, *files], copy, ROOT)
        passed = re.search(r"\b(\d+) passed", tests.stdout)
        assert tests.returncode == 0 and passed and int(passed[1]) >= at_least, (
            tests.stdout[-3000:])
