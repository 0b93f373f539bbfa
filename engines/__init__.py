"""Headless engines for tabletop games, behind one small contract (`engines.core`).

`GAMES` maps each registered game name to its `Game`.  The built-in games live in
sub-packages that expose a module attribute `GAME`; third-party games register through
the `tabletop.games` entry-point group.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util

from engines.core import (
    Bot,
    Game,
    GameRecord,
    IllegalActionError,
    State,
    make_rules,
    play_game,
    replay,
)

__all__ = [
    "GAMES",
    "Bot",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "State",
    "UnknownGameError",
    "get_game",
    "make_rules",
    "play_game",
    "replay",
]

_BUILTIN_PACKAGES = ("tabula_rasa", "big_cheese", "ivanhoe", "time_pirates", "ninjato")


class UnknownGameError(KeyError, ValueError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


def _discover() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for package in _BUILTIN_PACKAGES:
        if importlib.util.find_spec(f"engines.{package}") is None:
            continue  # not built yet
        game = getattr(importlib.import_module(f"engines.{package}"), "GAME", None)
        if game is not None:  # a package without GAME is still being written
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
