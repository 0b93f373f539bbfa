"""Which build of the engines runs: the mypyc-compiled modules, or the pure-Python ones.

`setup.py` compiles `COMPILED_MODULES` (core's, and the modules each game declares in its
`game.toml`) with mypyc when it can and records the outcome in
`_build_info.json` beside this file (build kind, reason, a SHA-256 of every `.py` file under
`engines/`: the compiled modules' own sources and every engine source they may depend on).
At import, `engines/__init__.py` calls `install()`, which decides once per process and, when
the answer is pure, puts a finder first on `sys.meta_path` that loads those modules from
their `.py` files, even where compiled ones sit beside them (they would otherwise win:
Python prefers an extension module to a source file of the same name).

Pure is chosen, all modules together, when
- `TABLETOP_PURE=1` is set (at run time; at build time it skips compiling),
- the build was pure (no C compiler or mypy, or the compilation failed),
- any engine source changed since the build (a stale `.so` would play the old rules: an
  edit must never be ignored silently), or a compiled module is missing.  Every engine `.py`
  counts, not only the compiled modules' own: mypyc copies the `Final` constants of the
  modules a compiled module imports into its C code, so editing a constant in an
  interpreted module (`engines/big_cheese/components.py`) changes the pure game only.
A compiled module whose source file was deleted cannot fall back (there is no pure code to
load, and a compiled module among pure ones crashes the interpreter): `install` refuses
with one line.
All or nothing, because compiled modules call each other directly in C and check each
other's classes: a mixture would pair a pure state with a compiled bot's idea of its class.

This module is read by `setup.py` as a plain file: standard library only.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import tomllib
from pathlib import Path

#: The hot modules every build compiles besides the games': the contract and the play loop
#: (`engines.core`), the kit and the game kit's state, the random bot and MCTS.  Core's
#: `State` (and the game kit's `KitState`) is compiled as a class that interpreted classes
#: may extend (new games, the tests' toy games and deliberately broken engines); its hooks
#: are plain methods that each game implements (`_legal_actions`, `_apply`: see the `State`
#: docstring).
CORE_MODULES: tuple[str, ...] = (
    "engines.core",
    "engines.kit",
    "engines.gamekit.table",
    "engines.bots.random_bot",
    "engines.bots.mcts.ismcts",
    "engines.bots.mcts.rewards",
    "engines.bots.mcts.search",
)
#: A game package's declarations (`engines/README.md`, "The game file"); the build reads
#: its `compiled` list: the game's hot-path modules (state, bots and the pure helpers they
#: call per move), in the order mypyc takes them.
GAME_FILE = "game.toml"


def game_file(folder: Path) -> dict:
    """The declarations of the game package in `folder` (empty without a game file)."""
    path = folder / GAME_FILE
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


#: Game folders registered by path (`engines/README.md`, "Games outside the checkout"): each a
#: game package folder anywhere on disk, separated by `os.pathsep`.  The folder plays as
#: `engines.<folder name>`, interpreted: the build compiles what is inside `engines/` only
#: (mypyc names a module after the folders it sits in), so a registered folder's `compiled`
#: list is not read here, and editing it never makes a compiled build stale.
GAMES_ENV = "TABLETOP_GAMES"


def registered_folders() -> dict[str, Path]:
    """The game folders of `TABLETOP_GAMES` by package name (the folder's name), in order;
    a folder named twice counts once."""
    folders: dict[str, Path] = {}
    for text in os.environ.get(GAMES_ENV, "").split(os.pathsep):
        if text.strip():
            folder = Path(text.strip()).expanduser().resolve()
            folders.setdefault(folder.name, folder)
    return folders


def game_modules(package_dir: Path) -> tuple[str, ...]:
    """Every game's declared hot-path modules (`compiled` in its game file), by package name:
    a game declares them in its own folder, so adding one edits no list here."""
    return tuple(f"{package_dir.name}.{folder.name}.{module}"
                 for folder in sorted(p for p in package_dir.iterdir() if p.is_dir())
                 for module in game_file(folder).get("compiled", ()))


PURE_ENV = "TABLETOP_PURE"
REBUILD = "pip install -e .  (or pip install . for a non-editable install)"
INFO_FILE = "_build_info.json"
_PACKAGE_DIR = Path(__file__).resolve().parent
#: Set in the environment once a stale build was reported, so worker processes stay quiet.
_WARNED_ENV = "_TABLETOP_BUILD_WARNED"
#: What `setup.py` compiles and a compiled run loads compiled.
COMPILED_MODULES: tuple[str, ...] = CORE_MODULES + game_modules(_PACKAGE_DIR)


def source_path(module: str, root: Path = _PACKAGE_DIR.parent) -> Path:
    """The `.py` file of a dotted module name under `root` (the directory holding `engines`)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: Engine folders no compiled module imports (the RL wrappers import the engines, never the
#: other way round): editing them leaves a compiled build current.
NOT_COMPILED_DEPENDENCIES = ("adapters",)
#: A game's own test folder (`engines/<game>/tests/`): no engine module imports it.
TESTS_FOLDER = "tests"


def engine_sources(package_dir: Path = _PACKAGE_DIR) -> dict[str, str]:
    """SHA-256 of every `.py` file under `package_dir` but the adapters and the games' tests,
    by path relative to its parent (`engines/big_cheese/components.py`): what a compiled build
    depends on (~5 ms)."""
    root = package_dir.parent
    return {path.relative_to(root).as_posix(): source_digest(path)
            for path in sorted(package_dir.rglob("*.py"))
            if "__pycache__" not in path.parts and TESTS_FOLDER not in path.parent.parts[
                len(package_dir.parts):]
            and path.relative_to(package_dir).parts[0] not in NOT_COMPILED_DEPENDENCIES}


def _first_difference(built: dict[str, str], now: dict[str, str]) -> str | None:
    """'engines/x.py changed since the build' (or was deleted, or is new); None if equal."""
    for path in sorted(built.keys() | now.keys()):
        if path not in now:
            what = "was deleted"
        elif path not in built:
            what = "is new"
        elif built[path] != now[path]:
            what = "changed"
        else:
            continue
        others = sum(built.get(p) != now.get(p) for p in built.keys() | now.keys()) - 1
        more = f" (and {others} more engine files)" if others else ""
        return f"{path} {what} since the build{more}"
    return None


def pure_forced() -> bool:
    """`TABLETOP_PURE` set to anything but empty or 0."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def _has_extension(path: Path) -> bool:
    stem = path.with_suffix("")
    return any(Path(f"{stem}{suffix}").exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def decide(package_dir: Path = _PACKAGE_DIR,
           modules: tuple[str, ...] = COMPILED_MODULES) -> tuple[bool, str]:
    """(compiled?, why): the build this process plays; `why` is shown by bench and reports."""
    if pure_forced():
        return False, f"{PURE_ENV}=1"
    try:
        info = json.loads((package_dir / INFO_FILE).read_text())
    except (OSError, ValueError):
        return False, "not built (no build record: run from a checkout without pip install)"
    if info.get("build") != "compiled":
        return False, info.get("reason", "pure build")
    root = package_dir.parent
    if set(info.get("sources", {})) != set(modules):
        return False, f"stale: the list of compiled modules changed; rebuild: {REBUILD}"
    if not isinstance(info.get("depends"), dict):
        return False, ("stale: the build record does not cover every engine source (built by "
                       f"an older version); rebuild: {REBUILD}")
    difference = _first_difference(info["depends"], engine_sources(package_dir))
    if difference:
        return False, f"stale: {difference}; rebuild: {REBUILD}"
    for module, digest in info.get("sources", {}).items():
        path = source_path(module, root)
        if not path.exists() or source_digest(path) != digest:
            changed = path.relative_to(root)
            return False, f"stale: {changed} changed since the build; rebuild: {REBUILD}"
        if not _has_extension(path):
            return False, f"incomplete: no compiled {module}; rebuild: {REBUILD}"
    return True, f"mypyc {info.get('mypyc', '?')}, {len(info.get('sources', {}))} modules"


def orphaned_extensions(package_dir: Path = _PACKAGE_DIR,
                        modules: tuple[str, ...] = COMPILED_MODULES) -> list[str]:
    """Compiled modules whose `.py` file is gone: a pure run would import the `.so` instead
    (the pure finder has no file to load) and mix it with pure modules."""
    root = package_dir.parent
    return [module for module in modules
            if not source_path(module, root).exists() and _has_extension(source_path(module, root))]


class _PureFinder:
    """Meta-path finder that loads the compiled modules' names from their `.py` files."""

    def __init__(self, modules: tuple[str, ...], root: Path) -> None:
        self.paths = {module: source_path(module, root) for module in modules}

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        source = self.paths.get(fullname)
        if source is None or not source.exists():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


COMPILED: bool = False
#: "compiled (mypyc ..., N modules)" or "pure (why)": what `simulate bench`, the run
#: manifest and the report show.
BUILD: str = "pure (engines._build.install() not called)"


def install() -> None:
    """Decide the build for this process (once) and, when pure, route the imports to `.py`."""
    global COMPILED, BUILD
    if any(isinstance(finder, _PureFinder) for finder in sys.meta_path):
        return
    COMPILED, why = decide()
    BUILD = f"{'compiled' if COMPILED else 'pure'} ({why})"
    if COMPILED:
        return
    orphans = orphaned_extensions()
    if orphans:
        missing = source_path(orphans[0], _PACKAGE_DIR.parent).relative_to(_PACKAGE_DIR.parent)
        raise SystemExit(
            f"error: {missing} is missing but its compiled module is still installed, so "
            f"neither build can run; restore the file (git checkout {missing}) and rebuild: "
            f"{REBUILD}")
    sys.meta_path.insert(0, _PureFinder(COMPILED_MODULES, _PACKAGE_DIR.parent))
    if why.startswith(("stale", "incomplete", "mypyc build failed")) and not os.environ.get(
            _WARNED_ENV):
        os.environ[_WARNED_ENV] = "1"
        print(f"warning: playing the pure-Python engines, {why}", file=sys.stderr)
