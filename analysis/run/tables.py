"""Checks shared by the tables of an experiment file (`[[sweep]]`, `[[tune]]`): each names
one game, uses only known keys and gives counts as positive integers."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engines.errors import BadInput


def table_game(table: Any, where: str, known: Collection[str]) -> str:
    """The game a table names, after checking it is a table of known keys."""
    if not isinstance(table, dict):
        raise BadInput(f"{where}: must be a table")
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise BadInput(f"{where}: unknown key {unknown[0]!r}; known: "
                       f"{', '.join(sorted(known))}")
    game_name = table.get("game")
    if not isinstance(game_name, str):
        raise BadInput(f"{where}: game must be one game's name")
    return game_name


def positive_int(value: Any, name: str) -> int:
    """`value` if it is a positive integer (not a bool), else one line naming `name`."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise BadInput(f"{name} must be a positive integer, got {value!r}")
    return value
