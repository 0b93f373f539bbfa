"""The words a game declares its elements in: each card, skill or kind of action a designer
may ask "is this too strong, or useless?" about.

A game lists them in `engines/<game>/elements.py` (`ELEMENTS`, given to its `Game` as
`elements=`), one `Element` each, as data:

- `actions`: the action ids that may use the element (playing the card, learning or using
  the skill).  A restricted seat (`engines.bots.restricted`) may not take them;
- `when`: optional, `when(state, action) -> bool` narrows `actions` to those that use the
  element in this position (a Sensei slot is a skill only when it holds that tile).  It is
  asked only when one of `actions` is legal, so it may read the position;
- `played`: the game's action kinds (`Game.action_kinds`) whose result columns show the
  element played (`k_<kind>`: times chosen) and available (`a_<kind>`: decisions at which it
  was legal, measured in every 31st game): the observational view, correlation only;
- `removal`: rule options (`--rule KEY=VALUE`) under which the game has no such element for
  any seat (`components.skills=...` with its copies at 0), for the counterfactual study; empty
  when it cannot be removed, and `note` then says why.

`element_id(name)` is the element's name in a bot spec (`heuristic:forbid=change-weapon`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.errors import BadInput

__all__ = ["Element", "element_id", "find", "of_kinds"]


@dataclass(frozen=True)
class Element:
    """One card, skill or action a restricted seat can be forbidden (see the module doc)."""

    name: str
    group: str
    actions: frozenset[int]
    played: tuple[str, ...] = ()
    when: Callable[[Any, int], bool] | None = None
    removal: Mapping[str, str] = field(default_factory=dict)
    note: str = ""

    @property
    def id(self) -> str:
        return element_id(self.name)

    def forbids(self, state: Any, action: int) -> bool:
        """Whether a restricted seat may not take `action` in `state`."""
        return action in self.actions and (self.when is None or self.when(state, action))


def element_id(name: str) -> str:
    """The element's name as one bot-spec word: 'Change Weapon' -> 'change-weapon'."""
    return re.sub(r"[^0-9a-z]+", "-", name.lower()).strip("-")


def of_kinds(kinds: Sequence[str], group: str, table: Sequence[int], names: Iterable[str],
             **extra: Any) -> tuple[Element, ...]:
    """One element per action kind in `names`: its actions are those whose kind (`table`:
    action -> kind index, as `State.kind_table`) is that kind, its played column its own."""
    out = []
    for name in names:
        kind = kinds.index(name)
        out.append(Element(name, group, frozenset(a for a, k in enumerate(table) if k == kind),
                           played=(name,), **extra))
    return tuple(out)


def find(game: Any, ident: str) -> Element:
    """The element of `game` with this id (or name); unknown ones raise with the known ids."""
    for element in game.elements:
        if ident in (element.id, element.name):
            return element
    known = ", ".join(e.id for e in game.elements) or "none: the game declares no elements"
    raise BadInput(f"{game.name} has no element {ident!r}; elements: {known}")
