"""`simulate new-game NAME [--path DIR]` writes a game folder that plays and keeps the engine
contract from the start, with rules and property test stubs that fail until written; bad
input is one line and writes nothing (`tests/test_bad_input.py` holds those cases)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from analysis.cli import main
from engines import _build
from engines.gamekit import scaffold

ROOT = Path(__file__).resolve().parents[1]


def test_new_game_writes_the_folder_and_says_how_to_register_it(tmp_path, capsys):
    assert main(["new-game", "card-race", "--path", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    folder = tmp_path / "card_race"
    assert {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()} == {
        "__init__.py", "rules.py", "state.py", "bots.py", "game.toml",
        "tests/test_card_race_rules.py", "tests/test_card_race_properties.py"}
    assert f"export {_build.GAMES_ENV}={folder}" in out
    assert "simulate card-race" in out


def test_new_game_without_a_path_writes_into_engines_and_names_the_generate_step(
        tmp_path, capsys, monkeypatch):
    package = tmp_path / "engines"
    package.mkdir()
    monkeypatch.setattr(engines, "__file__", str(package / "__init__.py"))
    assert main(["new-game", "card-race"]) == 0
    assert (package / "card_race" / "state.py").is_file()
    assert "python -m tools.generate --fingerprints" in capsys.readouterr().out


def test_a_failed_write_leaves_no_folder_behind(tmp_path, monkeypatch):
    folder = scaffold.check("card-race", tmp_path, set())
    written = []

    def write_text(self, text):
        if len(written) == 3:
            raise OSError("disk full")
        written.append(self)
        return Path.open(self, "w").write(text)

    monkeypatch.setattr(Path, "write_text", write_text)
    with pytest.raises(OSError, match="disk full"):
        scaffold.write("card-race", folder)
    assert list(tmp_path.iterdir()) == []


#: Run in a fresh interpreter with the new folder registered: the contract tests and the
#: folder's own tests, each test's outcome written out.
RUNNER = """
import json, sys
import pytest
out, *args = sys.argv[1:]
outcomes = {}
class Collect:
    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            outcomes[report.nodeid] = report.outcome
pytest.main(["-q", "-p", "no:cacheprovider", *args], plugins=[Collect()])
json.dump(outcomes, open(out, "w"))
"""


def test_the_new_game_keeps_the_contract_and_its_stubs_fail_until_written(tmp_path):
    folder = scaffold.check("card-race", tmp_path, set(engines.GAMES))
    scaffold.write("card-race", folder)
    env = {**os.environ, _build.GAMES_ENV: str(folder)}
    outcomes_file = tmp_path / "outcomes.json"
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(outcomes_file), str(folder / "tests"),
         str(ROOT / "tests" / "test_contract.py"), str(ROOT / "tests" / "test_gamekit.py"),
         "-k", "card-race or card_race"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    outcomes = json.loads(outcomes_file.read_text())
    failed = sorted(n.split("::")[-1] for n, o in outcomes.items() if o == "failed")
    assert failed == ["test_write_the_property_tests", "test_write_the_rule_tests"], (
        done.stdout[-3000:])
    contract = [n for n in outcomes if "test_contract.py" in n]
    assert len(contract) >= 30 and all(outcomes[n] == "passed" for n in contract)
    assert any("test_gamekit.py" in n and outcomes[n] == "passed" for n in outcomes)
    assert "STUB: write a scenario test" in done.stdout
