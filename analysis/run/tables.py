"""Checks shared by the tables of an experiment file (the file itself, `[[study]]`,
`[[sweep]]`, `[[tune]]`): each uses only known keys, each key holds a value of its declared
type, and counts are positive integers.

Each table declares its keys once as a schema: key -> (what it holds, in words; the shapes
it may take).  A shape is a type (`int` never matches a bool), `Text` (a non-empty string),
`Literal[...]` (one of some words) or `list[SHAPE]` (a non-empty list of that shape).  So
`players = "many"` or `bots = [2]` is one line naming the key, never a TypeError later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

from engines.errors import BadInput

#: Key -> (what the key holds, in words; the shapes its value may take).
Schema = Mapping[str, tuple[Any, ...]]


class Text(str):
    """The shape of a non-empty string (a name, a label, an address)."""


def fits(value: Any, shape: Any) -> bool:
    """Whether `value` has `shape` (see the module docstring)."""
    if get_origin(shape) is list:
        (item,) = get_args(shape)
        return isinstance(value, list) and bool(value) and all(fits(v, item) for v in value)
    if get_origin(shape) is Literal:
        return isinstance(value, str) and value in get_args(shape)
    if shape is Text:
        return isinstance(value, str) and bool(value.strip())
    if shape is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, shape)


def check_table(table: Any, where: str, schema: Schema) -> dict[str, Any]:
    """`table` if it is a table of known keys each holding a value of its declared shape,
    else one line naming the table (`where`) and the first key that is wrong."""
    if not isinstance(table, dict):
        raise BadInput(f"{where}: must be a table")
    unknown = sorted(set(table) - set(schema))
    if unknown:
        raise BadInput(f"{where}: unknown key {unknown[0]!r}; known: "
                       f"{', '.join(sorted(schema))}")
    for key, value in table.items():
        what, *shapes = schema[key]
        if not any(fits(value, shape) for shape in shapes):
            shown = repr(value)
            raise BadInput(f"{where}: {key} must be {what}, got "
                           f"{shown if len(shown) <= 60 else shown[:57] + '...'}")
    return table


def table_game(table: Any, where: str, schema: Schema) -> str:
    """The game a table names, after checking it against its schema."""
    game_name = check_table(table, where, schema).get("game")
    if not isinstance(game_name, str):
        raise BadInput(f"{where}: game must be one game's name")
    return game_name


def positive_int(value: Any, name: str) -> int:
    """`value` if it is a positive integer (not a bool), else one line naming `name`."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise BadInput(f"{name} must be a positive integer, got {value!r}")
    return value
