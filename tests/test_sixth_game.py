"""Adding a sixth game (`engines/README.md` "Adding a game"): its folder
registers it, and exactly three things outside the folder ask for it — the README's games
table, the behaviour fingerprints and the balance notebook."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import engines
from tests import test_fingerprint

ROOT = Path(__file__).resolve().parents[1]
TOY = "toy_nim"

#: The toy game's package, in the shape every game follows (its rules and state come from
#: tests/toy_games.py, so the package is as small as a package can be).
PACKAGE = {
    "__init__.py": "from engines.core import Game\n"
                   "from tests.toy_games import NIM\n\n"
                   "GAME = Game(**{**NIM.__dict__, 'name': 'toy-nim'})\n",
    "rules.py": "from tests.toy_games import NimRules as Rules  # noqa: F401\n",
    "state.py": "from tests.toy_games import NimState  # noqa: F401\n",
}


@pytest.fixture
def engines_folder(tmp_path, monkeypatch):
    """A second folder of the `engines` package, as if the new game were in `engines/`."""
    monkeypatch.setattr(engines, "__path__", [*engines.__path__, str(tmp_path)])
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith(f"engines.{TOY}")]:
        del sys.modules[name]


def _write_package(root: Path, files: dict[str, str]) -> None:
    (root / TOY).mkdir()
    for name, text in files.items():
        (root / TOY / name).write_text(text)


def test_a_game_folder_registers_itself(engines_folder):
    """No list to edit in engines/__init__.py: the folder with the package shape is found."""
    _write_package(engines_folder, PACKAGE)
    assert TOY in engines._game_packages()
    games = engines._discover()
    assert games["toy-nim"].name == "toy-nim"
    assert set(engines.GAMES) < set(games)


def test_an_unfinished_game_folder_raises_instead_of_being_skipped(engines_folder):
    _write_package(engines_folder, {**PACKAGE, "__init__.py": "# GAME comes later\n"})
    with pytest.raises(engines.RegistrationError, match=f"engines.{TOY}.*defines no GAME"):
        engines._discover()


def test_support_packages_are_not_games():
    assert "bots" not in engines._game_packages()
    assert "adapters" not in engines._game_packages()


def test_the_three_touch_points_ask_for_a_new_game(engines_folder, monkeypatch):
    """Registered, the toy game is missing from exactly the three places outside its folder
    that engines/README.md lists — each is checked by a test that would then fail."""
    _write_package(engines_folder, PACKAGE)
    toy = engines._discover()["toy-nim"]
    monkeypatch.setitem(engines.GAMES, toy.name, toy)
    missing = []
    if toy.name not in games_in_readme():
        missing.append("README games table")
    stored = json.loads(test_fingerprint.FINGERPRINTS.read_text())
    if any(test_fingerprint.key(*case) not in stored for case in test_fingerprint.cases()):
        missing.append("tests/fingerprints.json")
    if not (ROOT / "notebooks" / f"balance-{toy.name}.ipynb").is_file():
        missing.append("balance notebook")
    assert missing == ["README games table", "tests/fingerprints.json", "balance notebook"]


def games_in_readme() -> set[str]:
    """The game names in the first column of the README's games table."""
    return set(re.findall(r"^\s*\| `([a-z0-9-]+)` \|", (ROOT / "README.md").read_text(),
                          re.MULTILINE))


def test_every_registered_game_is_in_the_readme_games_table():
    """The documentation touch point is checked too, like the other two."""
    missing = sorted(set(engines.GAMES) - games_in_readme())
    assert not missing, f"add a row for {missing} to the games table in README.md"


#: The toy game again, with reconstructed components: its data set lives in its own folder.
DATA_SET_FILE = (
    "from engines.datasets import DataSet, Item, ints_check, table_key\n\n"
    "DEFAULT_DATA = {'name': 'toy-heaps-v1', 'heaps': [3, 4, 5]}\n"
    "ITEMS = (Item('heaps', 'GUESS', 'toy rules 1.1', 'ints', *table_key('heaps'),\n"
    "              ints_check(3), plausible=([2, 4, 6],)),)\n"
    "DATA_SET = DataSet(DEFAULT_DATA, ITEMS, 'name', 'toy-heaps-v1')\n"
)


def test_a_data_set_game_needs_no_touch_point_in_engines_datasets(engines_folder,
                                                                         monkeypatch):
    """A game on reconstructed data declares its items in its own folder (`data_set.py`,
    `Game(replaceable_data=...)`): `engines/datasets.py` finds them without naming the game."""
    init = PACKAGE["__init__.py"].replace(
        "GAME = Game(**{**NIM.__dict__, 'name': 'toy-nim'})",
        "from engines.toy_nim.data_set import DATA_SET\n\n"
        "GAME = Game(**{**NIM.__dict__, 'name': 'toy-nim', 'replaceable_data': DATA_SET})")
    _write_package(engines_folder, {**PACKAGE, "__init__.py": init,
                                    "data_set.py": DATA_SET_FILE})
    toy = engines._discover()["toy-nim"]
    monkeypatch.setitem(engines.GAMES, toy.name, toy)
    from engines import datasets

    assert datasets.dataset_of("toy-nim") is toy.replaceable_data
    assert datasets.items_table("toy-nim") == [
        {"item": "heaps", "provenance": "GUESS", "value": "3,4,5", "plausible": ["2,4,6"],
         "source": "toy rules 1.1"}]
    assert "toy" not in (ROOT / "engines" / "datasets.py").read_text()


def test_the_reconstructed_games_declare_their_data_sets_in_their_folders():
    from engines import datasets
    from engines.ninjato import data_set as ninjato_data
    from engines.time_pirates import data_set as time_pirates_data

    assert datasets.dataset_of("ninjato") is ninjato_data.DATA_SET
    assert datasets.dataset_of("time-pirates") is time_pirates_data.DATA_SET
    assert [g for g in engines.GAMES if datasets.dataset_of(g) is not None] == [
        g for g in engines.GAMES if g in ("ninjato", "time-pirates")]
