"""Adding a sixth game (`engines/README.md` "Adding a game"): its folder
registers it, and exactly the touch points of `TOUCH_POINTS` outside the folder ask for it —
its documentation (the README's games table, its page in the site), the behaviour
fingerprints and the balance notebook."""

from __future__ import annotations

import importlib.machinery
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import engines

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
    "              ints_check(3, high=100), plausible=([2, 4, 6],)),)\n"
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


# --- the sixth-game path, walked with a copy of a real game ---------------------------------

#: The one list of what a new game needs outside its folder (engines/README.md, "Adding a
#: sixth game", names each path): the files of each touch point, and the tests that fail
#: until they are there (file :: the end of their names).
TOUCH_POINTS = (
    (("README.md", "docs/games/", "mkdocs.yml"),  # its documentation
     ("test_sixth_game.py::every_registered_game_is_in_the_readme_games_table",
      "test_docs.py::every_game_has_a_page_in_the_site")),
    (("tests/fingerprints.json",), ("test_fingerprint.py::games_play_as_recorded",)),
    (("notebooks/",), ("test_notebooks.py::every_registered_game_has_a_balance_notebook",)),
)
TOUCH_POINT_TESTS = {test for _, tests in TOUCH_POINTS for test in tests}
#: The test files that check every registered game: the contract and the touch points.
PER_GAME_TESTS = ("test_contract.py", "test_fingerprint.py", "test_notebooks.py",
                  "test_sixth_game.py", "test_docs.py", "test_render.py", "test_game_cap.py",
                  "test_seat_levers.py", "test_transcript.py", "test_coverage.py")
SOURCE, COPY, COPY_NAME = "tabula_rasa", "rasa_copy", "rasa-copy"


def copy_game(root: Path, source: str = SOURCE, package: str = COPY) -> Path:
    """`engines/<source>` copied to `root/<package>` as the README says: its sources (and
    its styles, not the build's compiled files), module paths and game name renamed."""
    origin = ROOT / "engines" / source
    name = get_game_name(source)
    for path in sorted(origin.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        target = root / package / path.relative_to(origin)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".so":
            continue
        target.write_text(path.read_text().replace(f"engines.{source}", f"engines.{package}")
                          .replace(name, COPY_NAME))
    return root / package


def get_game_name(package: str) -> str:
    return next(game.name for game in engines.GAMES.values()
                if game.Rules.__module__ == f"engines.{package}.rules")


#: Run in a fresh interpreter: the copy's folder joins `engines`' folders (the registration
#: of a folder inside engines/, without touching the checkout or staling a compiled build),
#: then pytest runs the per-game tests on the copy and writes each test's outcome.
RUNNER = """
import json, sys
import engines, pytest
folder, out, *args = sys.argv[1:]
engines.__path__.append(folder)
engines.GAMES.update(engines._discover())  # strict: a copy that fails to load raises here
outcomes = {}
class Collect:
    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            outcomes[report.nodeid] = report.outcome
    def pytest_collectreport(self, report):  # a test file skipped whole (a missing extra)
        if report.outcome == "skipped":
            outcomes[report.nodeid] = "skipped"
pytest.main(["-q", "-p", "no:cacheprovider", *args], plugins=[Collect()])
json.dump(outcomes, open(out, "w"))
"""


def run_per_game_tests(folder: Path, files: tuple[str, ...], selected: str
                       ) -> tuple[dict[str, str], str]:
    """Run the tests of `files` that the `-k` expression `selected` picks, with the game
    folders under `folder` registered: each test's outcome, and the run's output tail."""
    out = folder / "outcomes.json"
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(folder), str(out),
         *(str(ROOT / "tests" / name) for name in files), "-k", selected],
        cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert out.is_file(), done.stderr[-3000:] + done.stdout[-3000:]
    return json.loads(out.read_text()), done.stdout[-3000:]


def touch_point_failures(outcomes: dict[str, str]) -> tuple[set[str], set[str]]:
    """The tests that failed (a `TOUCH_POINTS` test by its name there), and the
    `TOUCH_POINTS` tests that must fail: all but those skipped with their whole file (an
    optional extra not installed)."""
    failed = {_touch_point_test(nodeid) for nodeid, outcome in outcomes.items()
              if outcome == "failed"}
    skipped = {t for t in TOUCH_POINT_TESTS
               if outcomes.get(f"tests/{t.split('::')[0]}") == "skipped"}
    return failed, TOUCH_POINT_TESTS - skipped


TOUCH_POINT_NAMES = sorted(t.split("::")[1] for t in TOUCH_POINT_TESTS)


def test_a_registered_game_fails_exactly_the_touch_point_tests(engines_folder):
    """With the toy game's folder registered, each `TOUCH_POINTS` test (README table, site
    page, fingerprints, balance notebook) fails until its touch point names the game, and no
    other test of their files that the game's name selects does."""
    _write_package(engines_folder, PACKAGE)
    files = tuple(sorted({t.split("::")[0] for t in TOUCH_POINT_TESTS}))
    others = " or ".join(engines.GAMES)  # a per-game test's cases of the registered games
    selected = f"({' or '.join(['toy-nim', *TOUCH_POINT_NAMES])}) and not ({others})"
    outcomes, output = run_per_game_tests(engines_folder, files, selected)
    failed, expected = touch_point_failures(outcomes)
    assert failed == expected, output
    assert any("toy-nim" in nodeid for nodeid in outcomes), output  # its own cases ran


@pytest.mark.slow
def test_a_copied_game_passes_the_contract_and_misses_only_the_touch_points(tmp_path):
    """Copy Tabula Rasa as engines/README.md says, register the folder, and run every per-game
    test on the copy (in whichever build runs the suite; an interpreted copy under the
    compiled core is the harder case): the contract passes, and exactly the tests of the
    listed touch points fail (or are skipped with their whole file, where an optional extra
    is not installed)."""
    copy_game(tmp_path)
    outcomes, output = run_per_game_tests(tmp_path, PER_GAME_TESTS,
                                          " or ".join([COPY, COPY_NAME, *TOUCH_POINT_NAMES]))
    failed, expected = touch_point_failures(outcomes)
    assert failed == expected, output
    contract = [n for n in outcomes if n.startswith("tests/test_contract.py") and COPY_NAME in n]
    assert len(contract) >= 30 and all(outcomes[n] == "passed" for n in contract)


def _touch_point_test(nodeid: str) -> str:
    """The `TOUCH_POINTS` test a pytest node id is (itself when none)."""
    path, _, function = nodeid.split("[")[0].partition("::")
    return next((test for test in TOUCH_POINT_TESTS
                 if test.split("::")[0] == Path(path).name
                 and function.endswith(test.split("::")[1])), nodeid)


def test_the_readme_lists_each_touch_point():
    text = (ROOT / "engines" / "README.md").read_text()
    section = text.split("## Adding a sixth game")[1].split("\n## ")[0]
    assert len(TOUCH_POINTS) <= 3
    for paths, _ in TOUCH_POINTS:
        for path in paths:
            assert f"`{path}" in section, path


@pytest.mark.parametrize("module", ["state", "_position"])
def test_a_copy_with_the_compiled_files_of_its_original_is_refused_and_the_others_play(
        engines_folder, module):
    """A copy taken with the build's compiled modules (`cp -r` of a compiled checkout) would
    run the original's code: it is refused with the way out, the other games still load."""
    copy_game(engines_folder)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (engines_folder / COPY / f"{module}{suffix}").write_bytes(b"")
    broken: dict[str, str] = {}
    games = engines._discover(broken=broken)
    assert set(games) == set(engines.GAMES)
    assert list(broken) == [f"engines.{COPY}"]
    assert "compiled module the build did not make" in broken[f"engines.{COPY}"]
    assert "\n" not in broken[f"engines.{COPY}"]


def test_a_game_that_fails_to_load_is_left_out_loudly_and_named_when_asked_for(
        engines_folder, monkeypatch):
    _write_package(engines_folder, {**PACKAGE, "state.py": "raise RuntimeError('half done')\n",
                                    "__init__.py": "from engines.toy_nim import state\n"})
    broken: dict[str, str] = {}
    games = engines._discover(broken=broken)
    assert set(games) == set(engines.GAMES)
    assert broken == {f"engines.{TOY}": "RuntimeError: half done"}
    monkeypatch.setattr(engines, "BROKEN", broken)
    with pytest.raises(engines.BrokenGameError, match=f"engines.{TOY}\\) failed to load: "
                                                      "RuntimeError: half done"):
        engines.get_game("toy-nim")  # a bug in that game's code, not bad input
    with pytest.raises(engines.UnknownGameError, match=f"engines.{TOY} failed to load "
                                                       r"\(RuntimeError: half done\)"):
        engines.get_game("toy-nimm")


def test_a_compiled_leftover_without_sources_does_not_stop_its_game(engines_folder):
    """A module removed from the sources leaves its old compiled file in an editable checkout
    (nothing imports it): that is no copy of another game, so the game still loads."""
    copy_game(engines_folder)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (engines_folder / COPY / f"removed_module{suffix}").write_bytes(b"")
    broken: dict[str, str] = {}
    games = engines._discover(broken=broken)
    assert not broken
    assert len(games) == len(engines.GAMES) + 1
