"""Ninjato's elements (`engines.elements`): the ten skills of the Sensei's tiles.

A skill is forbidden by refusing to learn its tile (a Sensei slot that holds it) and, should
the seat hold one, to use it; its use has a kind of its own, which counts it played.  A skill
is taken out of the game by giving its tile no copies (`components.skills`), except
Hensojutsu: the engine deals one Disguise tile in each of rounds 5-7, so it needs its three.
"""

from __future__ import annotations

import json

from engines.elements import Element
from engines.ninjato.actions import (
    A_BANZAI,
    A_BOR2,
    A_BOR4,
    A_DISGUISE,
    A_HONOUR,
    A_HOUSE,
    A_MINUS2,
    A_PLUS2,
    A_PM1_MINUS,
    A_PM1_PLUS,
    A_REFRESH,
    A_SENSEI,
    A_SIX,
    A_SWAP,
    A_SWITCH,
    A_TOKEN,
    A_ZERO,
)
from engines.ninjato.components import DEFAULT_DATA, E_DISGUISE, EFFECTS

#: effect -> (the actions that use it, the kind that counts a use)
_USES: dict[str, tuple[tuple[int, ...], str]] = {
    "minus2": ((A_MINUS2,), "shinobi-iri -2"),
    "zero": ((A_ZERO,), "inton-jutsu 0"),
    "boryaku": ((A_BOR2, A_BOR4), "boryaku"),
    "plus2": ((A_PLUS2,), "kenjutsu +2"),
    "six": ((A_SIX,), "set to 6"),
    "plusminus1": ((A_PM1_PLUS, A_PM1_MINUS), "taijutsu +1 or -1"),
    "swap": (tuple(range(A_SWAP, A_TOKEN)), "choho swap"),
    "switch": ((A_SWITCH,), "switch force and stealth"),
    "refresh": (tuple(range(A_REFRESH, A_BANZAI)), "refresh a skill"),
    "disguise": (tuple(range(A_DISGUISE, A_HONOUR)), "disguise an envoy"),
}
SENSEI_SLOTS = tuple(range(A_SENSEI, A_HOUSE))


def _learns(effect: int):
    """`Element.when`: a Sensei slot is this skill only when its tile has the effect; a use
    is always the skill's."""
    def when(state, action: int) -> bool:
        if action < A_HOUSE:
            return state.C.skill_effect[state.sensei[action - A_SENSEI]] == effect
        return True
    return when


def _without(name: str) -> dict[str, str]:
    """The shipped skill tiles with `name`'s copies at 0, as the rule option that plays it."""
    tiles = [{**tile, "copies": 0} if tile["name"] == name else tile
             for tile in DEFAULT_DATA["skills"]]
    return {"components.skills": json.dumps(tiles, separators=(",", ":"))}


def _element(tile: dict) -> Element:
    effect = EFFECTS.index(tile["effect"])
    uses, kind = _USES[tile["effect"]]
    removable = effect != E_DISGUISE
    return Element(
        tile["name"], "skill", frozenset(SENSEI_SLOTS + uses), played=(kind,),
        when=_learns(effect), removal=_without(tile["name"]) if removable else {},
        note="" if removable else "the engine needs its three Disguise tiles, one for each "
                                  "of rounds 5-7")


ELEMENTS = tuple(_element(tile) for tile in DEFAULT_DATA["skills"])
