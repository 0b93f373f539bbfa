"""Ivanhoe's elements (`engines.elements`): the seventeen action cards.

Each is forbidden by refusing its play (`A_PLAY + card type`; Ivanhoe itself is played in
its window, `A_IVANHOE`); its kind of the same name counts it played.  The deck is the
official one, with no replaceable data set, so no card can be taken out of the game.
"""

from __future__ import annotations

from engines.elements import Element
from engines.ivanhoe.actions import A_IVANHOE, A_PLAY
from engines.ivanhoe.components import FIRST_ACTION, IVANHOE, NAMES, NUM_TYPES

_NO_REMOVAL = "the deck is official, with no replaceable data set"

ELEMENTS = tuple(
    Element(NAMES[t], "action card",
            frozenset({A_IVANHOE if t == IVANHOE else A_PLAY + t}),
            played=(NAMES[t],), note=_NO_REMOVAL)
    for t in range(FIRST_ACTION, NUM_TYPES)
)
