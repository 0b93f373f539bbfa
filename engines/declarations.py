"""What a game declares for everything outside its folder, in its own `game.toml`.

A game's folder is the only place a new game is written: the project's documentation
(`python -m tools.generate`), the compiled build (`engines/_build.py` reads `compiled`) and the
per-game tests read these declarations instead of keeping lists of games.  Every key is
optional; a game without the file (a plugin, a toy game of the tests) gets the defaults
below.  `engines/README.md` ("The game file") documents each key.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engines import _build


@dataclass(frozen=True)
class Tests:
    """What the per-game tests expect of the game (`[tests]` in its game file)."""

    #: `_apply` leaves the next legal list in `_legal_cache` (core's caching hook):
    #: `tests/test_fastpaths.py` checks the cached lists against recomputed ones.
    caches_legal_lists: bool = False
    #: The state declares `kind_table`: `tests/test_fastpaths.py` checks it against
    #: `action_kind`.
    kind_table: bool = False
    #: `render(None)` mid-game shows something a seat cannot see (`tests/test_render.py`);
    #: false for a game whose hidden information (a deck's order) is never on show.
    full_view_shows_hidden: bool = True
    #: Rule options under which random play reaches the action kinds that exist only in a
    #: variant (`tests/test_contract.py` plays them besides the default rules).
    kind_variants: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Declarations:
    """One game's declarations (`engines/<package>/game.toml`)."""

    #: The game's name for people: the site navigation, the game index, a new page's title.
    title: str
    #: One line for the README's games table.
    notes: str
    #: The package's hot-path modules mypyc compiles (`engines/_build.py`); [] = interpreted.
    compiled: tuple[str, ...] = ()
    tests: Tests = field(default_factory=Tests)


class GameFileError(ValueError):
    """A game file with a key this module does not know (a typo would silently mean the
    default) or a value of the wrong type."""


def folder_of(name: str) -> Path | None:
    """The package folder of the registered game `name`, in `engines/` or registered by path
    (None: an entry-point game or one built elsewhere, such as the tests' toy games)."""
    import engines

    game = engines.get_game(name)
    for package in (*engines._game_packages(), *engines._registered_packages()):
        module = sys.modules.get(f"engines.{package}")
        if module is not None and getattr(module, "GAME", None) is game:
            return Path(module.__file__ or "").parent
    return None


def declarations(name: str) -> Declarations:
    """The declarations of the registered game `name` (the defaults without a game file)."""
    import engines

    folder = folder_of(name)
    data = _build.game_file(folder) if folder is not None else {}
    where = folder / _build.GAME_FILE if folder is not None else name
    tests = _checked(Tests, data.get("tests", {}), f"{where} [tests]")
    top = {k: v for k, v in data.items() if k != "tests"}
    top = _checked(Declarations, top, str(where), skip=("tests",))
    top.setdefault("title", name)
    top.setdefault("notes", engines.get_game(name).description)
    return Declarations(**top, tests=Tests(**tests))


def _checked(kind: type, values: dict[str, Any], where: str,
             skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """`values` for the fields of `kind`, lists made tuples; an unknown key raises."""
    known = {f.name: f for f in fields(kind) if f.name not in skip}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise GameFileError(f"{where}: unknown key {unknown[0]!r} "
                               f"(known: {', '.join(sorted(known))})")
    out = {}
    for key, value in values.items():
        expected = str(known[key].type)
        if expected.startswith("tuple"):
            if not isinstance(value, list):
                raise GameFileError(f"{where}: {key} must be a list")
            value = tuple(value)
        elif expected in ("bool", "str") and type(value).__name__ != expected:
            raise GameFileError(f"{where}: {key} must be a {expected}")
        out[key] = value
    return out
