"""Headless engines for tabletop games, behind one small contract (`engines.core`).

`GAMES` maps each registered game name to its `Game`.  The built-in games are the
sub-packages that have the package shape (`engines/README.md`: a `rules` and a `state`
module) and expose a module attribute `GAME`; a game folder elsewhere on disk registers by
its path (the `TABLETOP_GAMES` environment variable: it then plays as `engines.<folder>`),
and third-party packages through the `tabletop.games` entry-point group.

A game that fails to load (a folder without `GAME`, an import that raises, a broken plugin)
does not take the others down: it is left out of `GAMES`, its error is kept in `BROKEN` and
printed once as a warning, asking for it by name raises with that error, and the contract
tests fail while `BROKEN` is not empty.  So a half-written sixth game (or a bad plugin)
never stops the toolkit from playing the five, and is never skipped silently.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path

from engines import _build

_build.install()  # before any compiled module is imported: TABLETOP_PURE, stale builds

from engines.core import (  # noqa: E402
    Bot,
    Game,
    GameRecord,
    IllegalActionError,
    State,
    make_rules,
    play_game,
    replay,
)
from engines.errors import BadInput  # noqa: E402

__all__ = [
    "BROKEN",
    "GAMES",
    "BadInput",
    "Bot",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "RegistrationError",
    "State",
    "UnknownGameError",
    "get_game",
    "make_rules",
    "play_game",
    "replay",
]

#: Modules that make a sub-package of `engines` a game package (the package shape): a game
#: is registered by its folder alone, and a folder with either module but no `GAME` (an
#: unfinished game) raises instead of being skipped.  Support packages (`bots`, `adapters`)
#: have neither.  Any suffix counts, so that a compiled build without sources is found too.
_GAME_MODULES = ("rules", "state")


class BrokenGameError(RuntimeError):
    """A game whose package is there but failed to load: a bug in that game's code, not a
    mistake in the name asked for (internal error, exit 1)."""


class UnknownGameError(KeyError, BadInput):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


#: Set once the games that failed to load were reported, so worker processes stay quiet.
_WARNED_ENV = "_TABLETOP_BROKEN_WARNED"


class RegistrationError(ImportError):
    """A built-in game package that is missing or does not define `GAME`."""


def _builtin_game(package: str) -> Game:
    """The `GAME` of `engines.<package>`; a missing package or `GAME` raises, never skips."""
    module_name = f"engines.{package}"
    spec = importlib.util.find_spec(module_name)
    if spec is None:
        raise RegistrationError(
            f"built-in game package {module_name!r} does not exist"
        )
    for folder in spec.submodule_search_locations or ():
        _check_no_foreign_extensions(module_name, Path(folder))
    game = getattr(importlib.import_module(module_name), "GAME", None)
    if not isinstance(game, Game):
        raise RegistrationError(
            f"built-in game package {module_name!r} defines no GAME (an engines.core.Game)"
        )
    return game


def _check_no_foreign_extensions(module_name: str, folder: Path) -> None:
    """Refuse a game folder holding compiled modules that this build did not make (copied
    with the sources of the game it came from): Python would load them instead of the
    folder's own `.py` files, and they are the other game's code."""
    for path in sorted(folder.iterdir()):
        stem, _, suffix = path.name.partition(".")
        if (f".{suffix}" in importlib.machinery.EXTENSION_SUFFIXES
                and f"{module_name}.{stem}" not in _build.COMPILED_MODULES
                and (folder / f"{stem}.py").exists()):  # a leftover without sources is inert
            raise RegistrationError(
                f"{path} is a compiled module the build did not make (copied from another "
                f"game?): delete the folder's compiled files ({folder}/*.so)")


def _game_packages() -> tuple[str, ...]:
    """The sub-packages of `engines` (in every folder of its `__path__`) that have a rules or
    a state module."""
    return tuple(sorted(
        folder.name for root in map(Path, __path__) for folder in root.iterdir()
        if folder.is_dir() and any(folder.glob("__init__.*"))
        and any(file.name.split(".")[0] in _GAME_MODULES for file in folder.iterdir()
                if file.is_file())))


class _RegisteredFolders(importlib.abc.MetaPathFinder):
    """Finds `engines.<name>` in a game folder registered by path (`TABLETOP_GAMES`, read by
    `engines._build.registered_folders`): the folder is that package, so its modules import
    each other as `engines.<name>.<module>`, as a game inside `engines/` does, and a folder
    moves in or out of the checkout unchanged."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.partition(".")
        folder = _build.registered_folders().get(name) if package == "engines" else None
        if folder is None or "." in name or not (folder / "__init__.py").is_file():
            return None
        return importlib.util.spec_from_file_location(
            fullname, folder / "__init__.py", submodule_search_locations=[str(folder)])


sys.meta_path.append(_RegisteredFolders())


def _registered_packages() -> tuple[str, ...]:
    """The package names of the game folders registered by path, in the order given."""
    return tuple(_build.registered_folders())


def _registered_game(package: str) -> Game:
    """The `GAME` of a folder registered by path; one that cannot be `engines.<package>` (no
    such folder, not a package, a name taken inside `engines/`) raises."""
    folder = _build.registered_folders()[package]
    if not (folder / "__init__.py").is_file():
        raise RegistrationError(f"{_build.GAMES_ENV} names {folder}, which is not a game "
                                f"folder (no {folder / '__init__.py'})")
    if not package.isidentifier() or any(
            (Path(root) / package).exists() or (Path(root) / f"{package}.py").exists()
            for root in __path__):
        raise RegistrationError(f"{_build.GAMES_ENV} names {folder}: its folder name "
                                f"{package!r} must be a Python name not taken in engines/")
    return _builtin_game(package)


def _plugin_game(entry: importlib.metadata.EntryPoint) -> Game:
    game = entry.load()
    if not isinstance(game, Game):
        raise RegistrationError(
            f"entry point {entry.name!r} ({entry.value}) is not an engines.core.Game")
    return game


def _discover(packages: tuple[str, ...] | None = None,
              broken: dict[str, str] | None = None) -> dict[str, Game]:
    """The games of the folders (all, or `packages`) and of the entry points.  A game that
    fails to load raises, or, given `broken`, is recorded there (`where: error`) and left out."""
    games: dict[str, Game] = {}
    loaders: list[tuple[str, Callable[[], Game]]] = [
        (f"engines.{package}", functools.partial(_builtin_game, package))
        for package in (_game_packages() if packages is None else packages)]
    loaders += [(f"engines.{package}", functools.partial(_registered_game, package))
                for package in _registered_packages() if packages is None]
    loaders += [(f"entry point {entry.name}", functools.partial(_plugin_game, entry))
                for entry in importlib.metadata.entry_points(group="tabletop.games")]
    for where, load in loaders:
        try:
            game = load()
        except Exception as exc:
            if broken is None:
                raise
            broken[where] = f"{type(exc).__name__}: {exc}"
            continue
        if game.name in games:  # two games of one name: neither may quietly replace the other
            taken = RegistrationError(f"game name {game.name!r} is taken by another game")
            if broken is None:
                raise taken
            broken[where] = f"{type(taken).__name__}: {taken}"
            continue
        games[game.name] = game
    return games


#: Games that failed to load, `engines.<package>` or `entry point <name>` -> the error.
BROKEN: dict[str, str] = {}
GAMES: dict[str, Game] = _discover(broken=BROKEN)
if BROKEN and not os.environ.get(_WARNED_ENV):
    os.environ[_WARNED_ENV] = "1"  # once, not again in each worker process
    for _where, _error in BROKEN.items():
        print(f"warning: game {_where} not loaded: {_error}", file=sys.stderr)


def get_game(name: str) -> Game:
    """The registered game called `name`; unknown names raise with the list of known ones
    (and the games that failed to load, with their errors)."""
    try:
        return GAMES[name]
    except KeyError:
        for where in (f"engines.{name.replace('-', '_')}", f"entry point {name}"):
            if where in BROKEN:
                raise BrokenGameError(f"game {name!r} ({where}) failed to load: "
                                      f"{BROKEN[where]}") from None
        known = ", ".join(sorted(GAMES)) or "(none)"
        failed = "; ".join(f"{where} failed to load ({error})"
                           for where, error in BROKEN.items())
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}"
                               + (f"; {failed}" if failed else "")) from None
