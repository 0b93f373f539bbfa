"""The compiled build: same games as pure, honest about which build runs.

`setup.py` compiles the hot modules with mypyc; `engines/_build.py` decides per process which
build plays.  These tests hold the traps the feasibility experiment found: a compiled module
must play exactly the pure module's games, `TABLETOP_PURE=1` must play the `.py` files even
where compiled ones are installed, a compiled module whose source changed must never be used,
and the contract tests must still see the state's attributes once `__slots__` is gone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from engines import GAMES, _build, get_game, play_game
from engines.bots import make_bot
from tests.playouts import random_midgame
from tests.test_fingerprint import cases, fingerprint

ROOT = Path(engines.__file__).resolve().parent.parent
RECORD = Path(engines.__file__).resolve().parent / _build.INFO_FILE
#: A small MCTS: the search code (and its clone/determinize traffic) on the compiled path.
SMALL_MCTS = "mcts:iterations=12"


def _mcts_fingerprint(name: str, n: int) -> str:
    game = get_game(name)
    bots = [make_bot(SMALL_MCTS if seat == 0 else "random", game) for seat in range(n)]
    record = play_game(game, bots, 7, record=True)
    return json.dumps([record.actions, record.scores, record.breakdown, record.metrics])


def all_fingerprints() -> dict[str, str]:
    """Every stored fingerprint case, plus one small-MCTS game per game and player count."""
    out = {f"{name}/{n}p/{label}": fingerprint(name, n, label) for name, n, label in cases()}
    for name, game in sorted(GAMES.items()):
        for n in range(game.min_players, game.max_players + 1):
            out[f"{name}/{n}p/{SMALL_MCTS}"] = _mcts_fingerprint(name, n)
    return out


def _run(code: str, env_extra: dict[str, str], cwd: Path = ROOT, *flags: str) -> str:
    env = {**os.environ, **env_extra}
    env.pop(_build._WARNED_ENV, None)
    done = subprocess.run([sys.executable, *flags, "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def _module_files() -> dict[str, str]:
    import importlib
    return {m: importlib.import_module(m).__file__ or "" for m in _build.COMPILED_MODULES}


def _recorded_build() -> dict:
    try:
        return json.loads(RECORD.read_text())
    except OSError:
        return {}


def test_the_build_in_use_is_the_one_recorded():
    """Compiled when the build compiled (every listed module an extension), pure when forced;
    a build whose compilation failed is an error here, so CI cannot pass on a silent fallback."""
    record = _recorded_build()
    assert not record.get("reason", "").startswith("mypyc build failed"), record["reason"]
    files = _module_files()
    if _build.pure_forced() or record.get("build") != "compiled":
        assert not _build.COMPILED and _build.BUILD.startswith("pure (")
        assert all(f.endswith(".py") for f in files.values()), files
    else:
        assert _build.COMPILED, _build.BUILD
        assert _build.BUILD.startswith("compiled (mypyc")
        assert not [m for m, f in files.items() if f.endswith(".py")], files


def test_tabletop_pure_plays_the_py_modules_even_where_compiled_ones_are_installed():
    out = _run("import json, importlib, engines._build as b, engines\n"
               "print(json.dumps([b.BUILD, [importlib.import_module(m).__file__ "
               "for m in b.COMPILED_MODULES]]))", {_build.PURE_ENV: "1"})
    build, files = json.loads(out.splitlines()[-1])
    assert build == f"pure ({_build.PURE_ENV}=1)"
    assert files and all(f.endswith(".py") for f in files), files


def test_the_installed_build_plays_from_any_directory(tmp_path):
    """The `simulate` command runs outside the checkout: every compiled module and its
    package's library must import from there (mypyc's default put the library at the top
    level of the checkout, where only a run from the checkout found it)."""
    out = _run(_PLAY, {}, tmp_path)
    assert out.splitlines()[0] == _build.BUILD


@pytest.mark.slow  # ~25 s on an idle core: .ci/run runs it after the default suite
def test_compiled_and_pure_play_identical_games():
    """Every game, player count and bot (random, every heuristic, heuristic+random, a small
    MCTS), in this process's build and in a `TABLETOP_PURE=1` subprocess, in one run.

    (The default suite checks each build against `tests/fingerprints.json` too: compiled in
    the default run, pure in .ci/run's `TABLETOP_PURE=1` run.)"""
    if not _build.COMPILED:
        pytest.skip(f"nothing to compare: this run is {_build.BUILD}")
    here = all_fingerprints()
    out = _run("import json\nfrom tests.test_compiled_build import all_fingerprints\n"
               "print(json.dumps(all_fingerprints()))", {_build.PURE_ENV: "1"})
    pure = json.loads(out.splitlines()[-1])
    assert pure.keys() == here.keys()
    differ = sorted(key for key in here if here[key] != pure[key])
    assert not differ, f"compiled and pure play differently: {differ}"


# --- `__slots__` vanish on compiled classes: the contract tests must still see the state ----

def _instance_attributes(state) -> set[str]:
    """The attributes a state holds, found without `snapshot`'s own bookkeeping: slots and
    mypyc's native attributes are data descriptors on the class that take a value back (a
    property without a setter refuses), the rest sits in `__dict__`."""
    names = set(getattr(state, "__dict__", {}))
    probe = state.clone()
    for klass in type(state).__mro__:
        for name, value in vars(klass).items():
            if name.startswith("__") or not hasattr(type(value), "__set__"):
                continue
            try:
                setattr(probe, name, getattr(probe, name))
            except AttributeError:  # unset, or a read-only property
                continue
            names.add(name)
    return names


@pytest.mark.parametrize("name", sorted(GAMES))
def test_snapshot_sees_every_attribute_of_the_position(name):
    """The experiment's trap: compiled, `snapshot()` compared 2 attributes and every contract
    test built on it passed without checking anything."""
    game = get_game(name)
    state = random_midgame(game, game.min_players, 2)
    attributes = _instance_attributes(state) - set(state._snapshot_skip)
    # found the position: the contract's rules and stream, and the game's own (a kit game
    # keeps its piles in a few dicts, so fewer attributes than a hand-written state)
    assert {"rules", "rng"} <= attributes and len(attributes) >= 5, attributes
    assert set(state.snapshot()) == attributes


# --- stale compiled modules -----------------------------------------------------------------

def _copy_build(tmp_path: Path) -> Path:
    """A copy of the installed engines (with their compiled modules and each package's
    library of compiled code, `_native__mypyc`) to edit safely."""
    shutil.copytree(ROOT / "engines", tmp_path / "engines",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


_PLAY = ("import engines, engines._build as b, engines.tabula_rasa.state as m\n"
         "from engines import get_game, play_game\nfrom engines.bots import make_bot\n"
         "g = get_game('tabula-rasa')\n"
         "r = play_game(g, [make_bot('random', g) for _ in range(2)], 3)\n"
         "print(b.BUILD); print(m.__file__); print(r.scores)")


def test_a_compiled_module_whose_source_changed_is_never_used(tmp_path):
    """Edit a compiled module's source after the build: the run plays the edited `.py` (all
    modules pure, one warning naming the rebuild command), never the stale compiled one."""
    if not _build.COMPILED:
        pytest.skip(f"no compiled build to make stale: this run is {_build.BUILD}")
    root = _copy_build(tmp_path)
    # -S: the copy alone on the path (no editable install pointing back at the checkout)
    fresh = _run(_PLAY, {}, root, "-S").splitlines()
    assert fresh[0].startswith("compiled (") and fresh[1].endswith(".so")
    source = root / "engines" / "tabula_rasa" / "state.py"
    source.write_text(source.read_text().replace(
        "        if not num_players:",
        "        print('edited source runs')\n        if not num_players:", 1))
    stale = _run(_PLAY, {}, root, "-S").splitlines()
    assert "edited source runs" in stale
    warning = [line for line in stale if line.startswith("warning:")]
    assert len(warning) == 1 and "tabula_rasa/state.py changed since the build" in warning[0]
    assert "pip install -e ." in warning[0]
    build, module = [line for line in stale if line.startswith(("pure", "/"))][:2]
    assert build.startswith("pure (stale: ") and module.endswith(".py")
    scores = [[line for line in out if line.startswith("[")] for out in (fresh, stale)]
    assert scores[0] == scores[1] != [], "the pure fallback plays the same game"


_BIG_CHEESE = ("import engines, engines._build as b, json\n"
               "from engines import get_game, play_game\nfrom engines.bots import make_bot\n"
               "g = get_game('big-cheese')\n"
               "print(b.BUILD); print(json.dumps([play_game(g, [make_bot('heuristic', g) for _ "
               "in range(4)], seed, 4).scores for seed in range(30)]))")


def test_a_final_constant_changed_in_an_interpreted_module_makes_the_build_stale(tmp_path):
    """mypyc copies an imported module's `Final` constants into the compiled module, so an
    edit of `VETO: Final = -1` in the (interpreted) components module changes only the pure
    game: the build must count as stale, name the file, and play the edited source."""
    if not _build.COMPILED:
        pytest.skip(f"no compiled build to make stale: this run is {_build.BUILD}")
    root = _copy_build(tmp_path)
    compiled = _run(_BIG_CHEESE, {}, root, "-S").splitlines()
    assert compiled[0].startswith("compiled (")
    assert _run(_BIG_CHEESE, {_build.PURE_ENV: "1"}, root, "-S").splitlines()[1] == compiled[1]
    source = root / "engines" / "big_cheese" / "components.py"
    assert "VETO: Final = -1\n" in source.read_text()
    source.write_text(source.read_text().replace("VETO: Final = -1\n", "VETO: Final = -7\n"))
    edited_pure = _run(_BIG_CHEESE, {_build.PURE_ENV: "1"}, root, "-S").splitlines()[1]
    assert edited_pure != compiled[1], "the edit changes play (else this test shows nothing)"
    stale = _run(_BIG_CHEESE, {}, root, "-S").splitlines()
    warning = [line for line in stale if line.startswith("warning:")]
    assert len(warning) == 1, stale
    assert "stale: engines/big_cheese/components.py changed since the build" in warning[0]
    assert stale[0].startswith("pure (stale: ") and edited_pure in stale
    # why the whole tree is hashed: with a record vouching for the edited file, the compiled
    # modules keep their copy of the old VETO and disagree with the pure game
    record = json.loads((root / "engines" / _build.INFO_FILE).read_text())
    record["depends"]["engines/big_cheese/components.py"] = _build.source_digest(source)
    (root / "engines" / _build.INFO_FILE).write_text(json.dumps(record))
    forged = _run(_BIG_CHEESE, {}, root, "-S").splitlines()
    assert forged[0].startswith("compiled (") and forged[1] != edited_pure


def test_a_compiled_module_without_its_source_is_refused_in_one_line(tmp_path):
    """Deleting `engines/ninjato/raid.py` while its compiled module stays: no build can run
    it (the `.so` among pure modules crashed the interpreter), so import refuses in one line,
    in the default build and with TABLETOP_PURE=1.  Without a compiled build, an empty file
    stands in for the `.so` (it is never loaded)."""
    root = _copy_build(tmp_path)
    raid = root / "engines" / "ninjato" / "raid.py"
    if not _build._has_extension(raid):
        raid.with_suffix(_build.importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    raid.unlink()
    for pure in ("0", "1"):
        env = {**os.environ, _build.PURE_ENV: pure}
        env.pop(_build._WARNED_ENV, None)
        done = subprocess.run([sys.executable, "-S", "-c", _PLAY], cwd=root, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 1, (done.returncode, done.stderr)
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(
            "error: engines/ninjato/raid.py is missing but its compiled module is still "
            "installed"), done.stderr
        assert "pip install -e ." in done.stderr and not done.stdout


def test_decide_reads_the_build_record(tmp_path, monkeypatch):
    """Each reason the build record can give, without compiling anything."""
    monkeypatch.delenv(_build.PURE_ENV, raising=False)  # (which would answer first)
    MOD = ("engines.mod",)  # noqa: N806
    package = tmp_path / "engines"
    package.mkdir()
    assert _build.decide(package, MOD)[1].startswith("not built")
    (package / _build.INFO_FILE).write_text(json.dumps(
        {"build": "pure", "reason": "built without mypyc: no C compiler"}))
    assert _build.decide(package, MOD) == (False, "built without mypyc: no C compiler")
    (package / "mod.py").write_text("x = 1\n")
    (package / "consts.py").write_text("from typing import Final\nLIMIT: Final = 3\n")
    record = {"build": "compiled", "mypyc": "9", "sources": {
        "engines.mod": _build.source_digest(package / "mod.py")}}
    (package / _build.INFO_FILE).write_text(json.dumps(record))
    why = _build.decide(package, MOD)[1]
    assert why.startswith("stale: the build record does not cover every engine source")
    record["depends"] = _build.engine_sources(package)
    assert set(record["depends"]) == {"engines/consts.py", "engines/mod.py"}
    (package / _build.INFO_FILE).write_text(json.dumps(record))
    why = _build.decide(package, MOD)[1]
    assert why.startswith("incomplete: no compiled engines.mod")
    (package / f"mod{_build.importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert _build.decide(package, MOD) == (True, "mypyc 9, 1 modules")
    assert _build.decide(package, ("engines.mod", "engines.new")) == (
        False, f"stale: the list of compiled modules changed; rebuild: {_build.REBUILD}")
    (package / "consts.py").write_text("from typing import Final\nLIMIT: Final = 4\n")
    compiled, why = _build.decide(package, MOD)
    assert not compiled and why.startswith("stale: engines/consts.py changed since the build")
    (package / "consts.py").unlink()
    assert _build.decide(package, MOD)[1].startswith("stale: engines/consts.py was deleted")
    (package / "extra.py").write_text("")
    assert _build.decide(package, MOD)[1].startswith(
        "stale: engines/consts.py was deleted since the build (and 1 more engine files)")
    (package / "extra.py").unlink()
    (package / "consts.py").write_text("from typing import Final\nLIMIT: Final = 3\n")
    (package / "mod.py").write_text("x = 2\n")
    compiled, why = _build.decide(package, MOD)
    assert not compiled and why.startswith("stale: engines/mod.py changed since the build")
    assert _build.orphaned_extensions(package, MOD) == []
    (package / "mod.py").unlink()
    assert _build.orphaned_extensions(package, MOD) == ["engines.mod"]


# --- which build ran: bench, manifest, report -------------------------------------------------

def test_bench_and_the_run_manifest_say_which_build_ran():
    from analysis.run.tournament import RunSpec, new_manifest

    spec = RunSpec(game="tabula-rasa", players=2, games=1, bots=("random", "random"), seed=0)
    assert new_manifest(spec)["engine_build"] == _build.BUILD
    out = _run("from analysis.cli import entry\nimport sys\n"
               "sys.argv = ['simulate', 'bench', 'tabula-rasa', '--bots', 'random', "
               "'--seconds', '0.2']\nentry()", {_build.PURE_ENV: "1"})
    assert f"engines: pure ({_build.PURE_ENV}=1)" in out


def test_staleness_covers_every_engine_source_but_the_rl_adapters():
    """The adapters import the engines and no compiled module imports them: editing one must
    not send a compiled install back to pure Python; every other engine file counts."""
    sources = _build.engine_sources()
    assert "engines/big_cheese/components.py" in sources  # imported, Final constants inlined
    assert "engines/core.py" in sources
    assert not [path for path in sources if path.startswith("engines/adapters/")]
