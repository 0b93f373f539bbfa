"""Headless engines for tabletop games, behind one small contract (`engines.core`).

`GAMES` maps each registered game name to its `Game`.  The built-in games are the
sub-packages that have the package shape (`engines/README.md`: a `rules` and a `state`
module) and expose a module attribute `GAME`; third-party games register through the
`tabletop.games` entry-point group.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
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


class UnknownGameError(KeyError, BadInput):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class RegistrationError(ImportError):
    """A built-in game package that is missing or does not define `GAME`."""


def _builtin_game(package: str) -> Game:
    """The `GAME` of `engines.<package>`; a missing package or `GAME` raises, never skips."""
    module_name = f"engines.{package}"
    if importlib.util.find_spec(module_name) is None:
        raise RegistrationError(
            f"built-in game package {module_name!r} does not exist"
        )
    game = getattr(importlib.import_module(module_name), "GAME", None)
    if not isinstance(game, Game):
        raise RegistrationError(
            f"built-in game package {module_name!r} defines no GAME (an engines.core.Game)"
        )
    return game


def _game_packages() -> tuple[str, ...]:
    """The sub-packages of `engines` (in every folder of its `__path__`) that have a rules or
    a state module."""
    return tuple(sorted(
        folder.name for root in map(Path, __path__) for folder in root.iterdir()
        if folder.is_dir() and any(folder.glob("__init__.*"))
        and any(file.name.split(".")[0] in _GAME_MODULES for file in folder.iterdir()
                if file.is_file())))


def _discover(packages: tuple[str, ...] | None = None) -> dict[str, Game]:
    games: dict[str, Game] = {}
    for package in _game_packages() if packages is None else packages:
        game = _builtin_game(package)
        games[game.name] = game
    for entry in importlib.metadata.entry_points(group="tabletop.games"):
        game = entry.load()
        games[game.name] = game
    return games


GAMES: dict[str, Game] = _discover()


def get_game(name: str) -> Game:
    """The registered game called `name`; unknown names raise with the list of known ones."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "(none)"
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None
