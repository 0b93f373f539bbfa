"""Tabula Rasa's elements (`engines.elements`): the five situations a placement can create in
its territory's majority fight (open, take the lead, draw level to block, trail for the
treasure, reinforce a lead), at number and colour territories alike.  Forbidding one refuses
every placement that would create it (the position decides which: `action_kind`); the cards
are official, so nothing can be taken out of the game."""

from __future__ import annotations

from engines.elements import Element
from engines.tabula_rasa.actions import ACTION_KINDS, NUM_ACTIONS, SITUATIONS


def _situation(index: int):
    """`Element.when`: the placement creates this situation (the kind's position in its
    number or colour half of `ACTION_KINDS`)."""
    def when(state, action: int) -> bool:
        return state.action_kind(action) % len(SITUATIONS) == index
    return when


ELEMENTS = tuple(
    Element(name, "placement", frozenset(range(NUM_ACTIONS)),
            played=tuple(kind for kind in ACTION_KINDS if kind.startswith(name + ":")),
            when=_situation(index),
            note="the cards are official, with no replaceable data set")
    for index, name in enumerate(SITUATIONS)
)
