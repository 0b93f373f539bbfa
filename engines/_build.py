"""Which build of the engines runs: the mypyc-compiled modules, or the pure-Python ones.

`setup.py` compiles `COMPILED_MODULES` with mypyc when it can and records the outcome in
`_build_info.json` beside this file (build kind, reason, a SHA-256 of every compiled
module's source).  At import, `engines/__init__.py` calls `install()`, which decides once
per process and, when the answer is pure, puts a finder first on `sys.meta_path` that loads
those modules from their `.py` files, even where compiled ones sit beside them (they would
otherwise win: Python prefers an extension module to a source file of the same name).

Pure is chosen, all modules together, when
- `TABLETOP_PURE=1` is set (at run time; at build time it skips compiling),
- the build was pure (no C compiler or mypy, or the compilation failed),
- any compiled module's source changed since the build (a stale `.so` would play the old
  rules: an edit must never be ignored silently), or one of them is missing.
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
from pathlib import Path

#: The hot modules mypyc compiles: the contract and the play loop (`engines.core`), every
#: game's state and bots (and the pure helpers they call per move), the random bot and MCTS.
#: Core's `State` is compiled as a class that interpreted classes may extend (new games,
#: the tests' toy games and deliberately broken engines); its hooks are plain methods that
#: each game implements (`_legal_actions`, `_apply`: see the `State` docstring).
COMPILED_MODULES: tuple[str, ...] = (
    "engines.core",
    "engines.kit",
    "engines.bots.random_bot",
    "engines.bots.mcts.ismcts",
    "engines.bots.mcts.rewards",
    "engines.bots.mcts.search",
    "engines.tabula_rasa.actions",
    "engines.tabula_rasa.scoring",
    "engines.tabula_rasa.state",
    "engines.tabula_rasa.bots",
    "engines.big_cheese.actions",
    "engines.big_cheese.scoring",
    "engines.big_cheese.state",
    "engines.big_cheese.bots",
    "engines.ivanhoe.actions",
    "engines.ivanhoe.cards",
    "engines.ivanhoe.scoring",
    "engines.ivanhoe.state",
    "engines.ivanhoe.bots",
    "engines.time_pirates.actions",
    "engines.time_pirates.legal_lists",
    "engines.time_pirates.scoring",
    "engines.time_pirates.state",
    "engines.time_pirates.bots",
    "engines.ninjato.actions",
    "engines.ninjato.fields",
    "engines.ninjato.raid",
    "engines.ninjato.scoring",
    "engines.ninjato.state",
    "engines.ninjato.bots",
)

PURE_ENV = "TABLETOP_PURE"
REBUILD = "pip install -e .  (or pip install . for a non-editable install)"
INFO_FILE = "_build_info.json"
_PACKAGE_DIR = Path(__file__).resolve().parent
#: Set in the environment once a stale build was reported, so worker processes stay quiet.
_WARNED_ENV = "_TABLETOP_BUILD_WARNED"


def source_path(module: str, root: Path = _PACKAGE_DIR.parent) -> Path:
    """The `.py` file of a dotted module name under `root` (the directory holding `engines`)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    for module, digest in info.get("sources", {}).items():
        path = source_path(module, root)
        if not path.exists() or source_digest(path) != digest:
            changed = path.relative_to(root)
            return False, f"stale: {changed} changed since the build; rebuild: {REBUILD}"
        if not _has_extension(path):
            return False, f"incomplete: no compiled {module}; rebuild: {REBUILD}"
    return True, f"mypyc {info.get('mypyc', '?')}, {len(info.get('sources', {}))} modules"


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
    sys.meta_path.insert(0, _PureFinder(COMPILED_MODULES, _PACKAGE_DIR.parent))
    if why.startswith(("stale", "incomplete", "mypyc build failed")) and not os.environ.get(
            _WARNED_ENV):
        os.environ[_WARNED_ENV] = "1"
        print(f"warning: playing the pure-Python engines, {why}", file=sys.stderr)
