"""Time Pirates' elements (`engines.elements`): its two specials (the atomic jump and the
arrow swap), the optional restock, and each kind of deed bought at the bazaar.  Forbidding
one refuses its action (a deed by its kind, which the data set decides: `action_kind`).
None is removed from the game: the specials and the restock are rules, not components, and
a deed kind is its rank in cost within its colour, so a data set without one deed would
rename the others' kinds."""

from __future__ import annotations

from engines.elements import Element
from engines.time_pirates.actions import (
    ACTION_KINDS,
    ARROW,
    ATOMIC,
    BUY,
    END,
    K_BUY_2,
    K_BUY_WHITE,
    NO_RESTOCK,
    PICK,
    RESTOCK,
)


def _bought(kind: int):
    """`Element.when`: the bazaar purchase buys a deed of this kind."""
    def when(state, action: int) -> bool:
        return state.action_kind(action) == kind
    return when


_DEEDS = tuple(
    Element(ACTION_KINDS[kind].removeprefix("buy "), "deed", frozenset(range(BUY, PICK)),
            played=(ACTION_KINDS[kind],), when=_bought(kind),
            note="a deed kind is its rank in cost within its colour: without one, the others "
                 "would change kind")
    for kind in range(K_BUY_2, K_BUY_WHITE + 1)
)

_RULE = "a rule of the game, not a component"

ELEMENTS = (
    Element("atomic jump", "special", frozenset(range(ATOMIC, ARROW)), played=("atomic jump",),
            note=_RULE),
    Element("arrow swap", "special", frozenset(range(ARROW, END)), played=("arrow swap",),
            note=_RULE),
    Element("restock", "action", frozenset(range(RESTOCK, NO_RESTOCK)), played=("restock",),
            note=_RULE),
    *_DEEDS,
)
