"""Adding a sixth game (`engines/README.md` "Adding a sixth game"): its folder registers it
and declares what the project needs of it (`game.toml`); one run of `python -m tools.generate
--fingerprints` writes every file outside the folder that names it (`GENERATED_FOR_A_GAME`),
and every per-game test parametrises over it with no list of games to edit.

The toy game below is small on purpose: a test floor sized for the big games, a list of games
in a test, a generator run in the wrong order or a compiled-module list kept by hand each
fails here.
"""

from __future__ import annotations

import ast
import importlib.machinery
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from engines.declarations import folder_of

ROOT = Path(__file__).resolve().parents[1]
TOY = "toy_nim"

#: The toy game's package, in the shape every game follows (its rules come from
#: tests/toy_games.py, so the package is as small as a package can be).  Its state uses
#: both speed hooks a big game uses (a cached legal list, a kind table) and its game file
#: declares them, so the fast-path tests run on a game of a few moves.
PACKAGE = {
    "__init__.py": "from engines.core import Game\n"
                   "from engines.toy_nim.state import FastNimState\n"
                   "from tests.toy_games import NIM\n\n"
                   "GAME = Game(**{**NIM.__dict__, 'name': 'toy-nim', 'num_actions': 4,\n"
                   "               'max_game_length': 10, 'create_state': FastNimState})\n",
    "rules.py": "from tests.toy_games import NimRules as Rules  # noqa: F401\n",
    "state.py": "import random\n\n"
                "from tests.toy_games import NimState\n\n\n"
                "class FastNimState(NimState):\n"
                "    kind_table = (-1, 0, 1, 2)  # take 1, 2, 3 stones\n\n"
                "    def __init__(self, num_players, seed, rules):\n"
                "        super().__init__(num_players, seed, rules)\n"
                "        self.takes = []  # stones taken, turn by turn\n\n"
                "    def _apply(self, action):\n"
                "        super()._apply(action)\n"
                "        self.takes.append(action)\n"
                "        self._legal_cache = self._legal_actions()  # core's caching hook\n\n"
                "    def clone(self):\n"
                "        other = FastNimState.__new__(FastNimState)\n"
                "        other.__dict__.update(self.__dict__)\n"
                "        other.takes = list(self.takes)\n"
                "        other.rng = random.Random()\n"
                "        other.rng.setstate(self.rng.getstate())\n"
                "        other._legal_cache = None\n"
                "        return other\n\n"
                "    def round_label(self):\n"
                "        return f'{self.pile} stones left'\n",
    "game.toml": 'title = "Toy Nim"\n'
                 'notes = "take one to three stones; whoever takes the last one wins"\n'
                 'compiled = ["state"]\n\n'
                 "[tests]\n"
                 "caches_legal_lists = true\n"
                 "kind_table = true\n"
                 "full_view_shows_hidden = false  # perfect information\n",
}
#: The files outside its folder that name a new game, all written by `python -m tools.generate
#: --fingerprints` (the fingerprints only with that flag: it plays every game).
GENERATED_FOR_A_GAME = ("README.md", "docs/cli.md", "docs/games/index.md",
                        "docs/games/{name}.md", "docs/notebooks.md", "mkdocs.yml",
                        "notebooks/balance-{name}.ipynb", "tests/fingerprints.json")


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
    init = "from engines.toy_nim.data_set import DATA_SET\n" + PACKAGE["__init__.py"].replace(
        "'name': 'toy-nim',", "'name': 'toy-nim', 'replaceable_data': DATA_SET,")
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
        g for g in engines.GAMES if (folder_of(g) / "data_set.py").is_file()]


# --- generation: every file outside the folder ----------------------------------------------

#: Run in a fresh interpreter (the CLI registers its game commands when it is imported): the
#: toy's folder joins `engines`' folders, then `tools.generate` runs twice without writing,
#: the second time over the first one's files, and reports what each found stale.
GENERATE_RUNNER = """
import json, sys
import engines
folder, out = sys.argv[1:]
engines.__path__.append(folder)
engines.GAMES.update(engines._discover())
from tools import generate
cheap = generate.Options(examples=False)
first = generate.run(cheap)
second = generate.run(cheap, tree=generate.Tree(base=dict(first.written)))
json.dump({"stale": first.stale(), "again": second.stale(), "unwritten": first.unwritten,
           "written": {p: first.written[p] for p in first.stale() if p in first.written}},
          open(out, "w"))
"""


def generated_with(folder: Path) -> dict:
    out = folder / "generated.json"
    done = subprocess.run([sys.executable, "-c", GENERATE_RUNNER, str(folder), str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.is_file(), done.stderr[-3000:]
    return json.loads(out.read_text())


def test_generate_writes_every_file_outside_the_folder_that_names_a_new_game(engines_folder):
    """One run of `python -m tools.generate` names the toy game everywhere outside its
    folder: the README's games table, the game index, a page of its own with its tables
    filled in, the site navigation, the CLI reference, its balance notebook and the
    notebook list; the fingerprints are reported missing (they need `--fingerprints`).  A
    second run over the first one's files changes nothing: the steps run in the right
    order (the notebook list is not left behind the notebooks, nor a page's tables behind
    the page)."""
    pytest.importorskip("cogapp", reason="docs extra not installed")
    pytest.importorskip("nbformat", reason="notebooks extra not installed")
    from tools import generate

    _write_package(engines_folder, PACKAGE)
    result = generated_with(engines_folder)
    expected = {path.format(name="toy-nim") for path in GENERATED_FOR_A_GAME}
    assert set(result["stale"]) == expected | set(generate.stale(examples=False))
    assert result["again"] == [generate.FINGERPRINTS]
    assert result["unwritten"][generate.FINGERPRINTS].startswith("no fingerprint for toy-nim/")
    written = result["written"]
    notes = "take one to three stones; whoever takes the last one wins"
    assert f"| `toy-nim` | 2–6 | {notes} |" in written["README.md"]
    assert "| [Toy Nim](toy-nim.md) | `toy-nim` | 2–6 |" in written["docs/games/index.md"]
    assert "      - Toy Nim: games/toy-nim.md\n" in written["mkdocs.yml"]
    assert "## `simulate toy-nim`" in written["docs/cli.md"]
    assert "(notebooks/balance-toy-nim.ipynb)" in written["docs/notebooks.md"]
    page = written["docs/games/toy-nim.md"]
    assert page.startswith("# Toy Nim\n") and "| players | 2–6 (default 6) |" in page


def test_the_build_compiles_what_a_game_folder_declares(tmp_path):
    """The compiled-module list comes from the games' folders (`compiled` in game.toml)."""
    from engines import _build

    _write_package(tmp_path, PACKAGE)
    assert _build.game_modules(tmp_path) == (f"{tmp_path.name}.{TOY}.state",)


# --- the per-game tests: parametrised over every game, no list of games ---------------------

#: The tests a registered game fails until `python -m tools.generate --fingerprints` ran for
#: it (file :: the end of their names): nothing else outside its folder names it.
TOUCH_POINT_TESTS = {"test_generate.py::every_generated_file_is_current",
                     "test_fingerprint.py::games_play_as_recorded",
                     "test_fingerprint.py::every_stored_fingerprint_is_still_checked"}
TOUCH_POINT_NAMES = sorted(t.split("::")[1] for t in TOUCH_POINT_TESTS)
#: Per-game test files whose cases the toy game must get, and pass: the speed hooks'
#: checks (whose floors scale with the game), render, the cap, the contract's systems, and
#: the game file.
TOY_TESTS = ("test_fastpaths.py", "test_render.py", "test_game_cap.py", "test_declarations.py",
             "test_contract.py")
#: The test files that check every registered game: the contract and the touch points.
PER_GAME_TESTS = ("test_contract.py", "test_fingerprint.py", "test_notebooks.py",
                  "test_sixth_game.py", "test_docs.py", "test_render.py", "test_game_cap.py",
                  "test_seat_levers.py", "test_transcript.py", "test_coverage.py",
                  "test_fastpaths.py", "test_generate.py", "test_declarations.py",
                  "test_mcts.py", "test_elements.py")
COPY, COPY_NAME = "rasa_copy", "rasa-copy"
#: What a copy leaves behind (`engines/README.md`, "Adding a sixth game", step 1).
COPY_COMMAND_START = 'python -c "import shutil; shutil.copytree('


def copy_command() -> str:
    """The copy command of `engines/README.md`'s "Adding a sixth game" (the same in
    docs/contributing.md): the Python code it runs."""
    readme = (ROOT / "engines" / "README.md").read_text()
    start = readme.index(COPY_COMMAND_START) + len('python -c "')
    return readme[start:readme.index('"`', start)]


def copy_game(root: Path, package: str = COPY) -> Path:
    """Tabula Rasa copied to `root/<package>` as the README says (its command, run from the
    checkout), then its module paths and game name renamed."""
    target = root / package
    code = copy_command().replace("'engines/<package>'", repr(str(target)))
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
    name = get_game_name("tabula_rasa")
    for path in sorted(p for p in target.rglob("*") if p.is_file()):
        path.write_text(path.read_text().replace("engines.tabula_rasa", f"engines.{package}")
                        .replace(name, COPY_NAME))
    return target


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
    """The tests that failed (a `TOUCH_POINT_TESTS` test by its name there), and the
    `TOUCH_POINT_TESTS` that must fail: all but those skipped with their whole file (an
    optional extra not installed)."""
    failed = {_touch_point_test(nodeid) for nodeid, outcome in outcomes.items()
              if outcome == "failed"}
    skipped = {t for t in TOUCH_POINT_TESTS
               if outcomes.get(f"tests/{t.split('::')[0]}") == "skipped"}
    return failed, TOUCH_POINT_TESTS - skipped


def _touch_point_test(nodeid: str) -> str:
    """The `TOUCH_POINT_TESTS` test a pytest node id is (itself when none)."""
    path, _, function = nodeid.split("[")[0].partition("::")
    return next((test for test in TOUCH_POINT_TESTS
                 if test.split("::")[0] == Path(path).name
                 and function.endswith(test.split("::")[1])), nodeid)


def test_the_per_game_tests_parametrise_over_a_registered_game(engines_folder):
    """With the toy game's folder registered, each per-game file of `TOY_TESTS` runs cases
    of it and they pass (its game file's declarations honoured, floors scaled to a game of
    a few moves), and only the `TOUCH_POINT_TESTS` fail: what generation has not written."""
    _write_package(engines_folder, PACKAGE)
    files = tuple(sorted({*TOY_TESTS, *(t.split("::")[0] for t in TOUCH_POINT_TESTS)}))
    others = " or ".join(engines.GAMES)  # a per-game test's cases of the registered games
    selected = f"({' or '.join(['toy-nim', *TOUCH_POINT_NAMES])}) and not ({others})"
    outcomes, output = run_per_game_tests(engines_folder, files, selected)
    failed, expected = touch_point_failures(outcomes)
    assert failed == expected, output
    for name in TOY_TESTS:
        cases = [n for n in outcomes if n.startswith(f"tests/{name}::") and "toy-nim" in n]
        assert cases and all(outcomes[n] == "passed" for n in cases), (name, output)
    fast = [n for n in outcomes if "test_fastpaths.py::" in n and "toy-nim" in n]
    assert any("cached_legal_lists_equal" in n for n in fast), fast  # the hooks were checked
    assert any("kind_table_entries_equal" in n for n in fast), fast


@pytest.mark.slow
def test_a_copied_game_passes_the_contract_and_misses_only_the_touch_points(tmp_path):
    """Copy Tabula Rasa as engines/README.md says, register the folder, and run every per-game
    test on the copy (in whichever build runs the suite; an interpreted copy under the
    compiled core is the harder case): the contract passes, and exactly the tests of the
    files generation writes fail (or are skipped with their whole file, where an optional
    extra is not installed)."""
    copy_game(tmp_path)
    outcomes, output = run_per_game_tests(tmp_path, PER_GAME_TESTS,
                                          " or ".join([COPY, COPY_NAME, *TOUCH_POINT_NAMES]))
    failed, expected = touch_point_failures(outcomes)
    assert failed == expected, output
    contract = [n for n in outcomes if n.startswith("tests/test_contract.py") and COPY_NAME in n]
    assert len(contract) >= 30 and all(outcomes[n] == "passed" for n in contract)


def test_the_documented_copy_is_python_and_leaves_the_compiled_files_behind(tmp_path):
    """The copy step is one Python command (no rsync, which a machine may lack), the same in
    both guides, and it copies the sources and styles without compiled modules or caches."""
    code = copy_command()
    guide = (ROOT / "docs" / "contributing.md").read_text()
    assert f'python -c "{code}"' in " ".join(guide.split())
    for text in ((ROOT / "engines" / "README.md").read_text(), guide):
        assert "rsync" not in text
    source = tmp_path / "engines" / "tabula_rasa"
    shutil.copytree(ROOT / "engines" / "tabula_rasa", source,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (source / "state.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (source / "__pycache__").mkdir()
    (source / "__pycache__" / "state.cpython-311.pyc").write_bytes(b"")
    subprocess.run([sys.executable, "-c", code.replace("<package>", "new_game")],
                   cwd=tmp_path, check=True, timeout=60)
    copied = {p.relative_to(tmp_path / "engines" / "new_game")
              for p in (tmp_path / "engines" / "new_game").rglob("*")}
    originals = {p.relative_to(source) for p in source.rglob("*")
                 if p.suffix != ".so" and "__pycache__" not in p.parts}
    assert copied == originals and Path("game.toml") in copied


def test_the_adding_a_game_steps_name_generate_and_every_file_it_writes():
    text = (ROOT / "engines" / "README.md").read_text()
    section = text.split("## Adding a sixth game")[1].split("\n## ")[0]
    assert "python -m tools.generate --fingerprints" in section
    for path in GENERATED_FOR_A_GAME:
        assert f"`{path.split('{')[0]}" in section, path


# --- no list of games in a test ---------------------------------------------------------------


def game_lists(source: str, names: set[str]) -> list[int]:
    """The lines of `source` with a literal list of games that says which games have some
    property: a tuple, list or set of two or more game names assigned at module level,
    handed to `pytest.mark.parametrize`, or tested with `in`.  Games named as examples
    (`for name in ("ivanhoe", "tabula-rasa")` over a fixture's runs, an expected output, a
    table of bad inputs per game) are no such list."""
    def listed(node: ast.AST) -> bool:
        return (isinstance(node, ast.List | ast.Tuple | ast.Set) and len(node.elts) >= 2
                and all(isinstance(e, ast.Constant) and e.value in names for e in node.elts))

    tree = ast.parse(source)
    found = [node.value for node in tree.body
             if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("mark.parametrize"):
            found += node.args
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            found += node.comparators
    return sorted({node.lineno for node in found if listed(node)})


def test_game_lists_finds_each_kind_of_list_of_games():
    names = {"big-cheese", "ninjato", "ivanhoe"}
    for source in ('CACHING = ["big-cheese", "ninjato"]\n',
                   '@pytest.mark.parametrize("name", ["big-cheese", "ivanhoe"])\n'
                   'def test_x(name): pass\n',
                   'def test_x(name):\n    if name not in ("big-cheese", "ninjato"):\n'
                   '        pass\n'):
        assert game_lists(source, names), source
    for source in ('def test_x(runs):\n    for name in ("ivanhoe", "ninjato"):\n'
                   '        pass\n    assert labels == ["ivanhoe", "ninjato"]\n',
                   'CASES = [("ninjato", "dataset")]\n',
                   'BAD = {"ninjato": "[1]", "big-cheese": "x"}\n'):
        assert not game_lists(source, names), source


def test_no_test_keeps_a_list_of_games():
    """Which games cache, have a kind table, hide nothing mid-game or need a variant is
    declared in each game's game.toml: a list in a test would leave a new game out."""
    found = {path.name: lines for path in sorted((ROOT / "tests").glob("*.py"))
             if (lines := game_lists(path.read_text(), set(engines.GAMES)))}
    assert not found, f"lists of games (file: lines): {found}"


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
