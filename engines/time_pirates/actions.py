"""Integer action layout and phases of Time Pirates (one flat id space, fixed maxima).

A bazaar purchase, an atomic jump and an arrow swap are split into sub-decisions (deed, then
each artifact paid, then the epoch to land on) so that every choice the rules leave to the
player stays a choice, while the lists stay short.
"""

from __future__ import annotations

from typing import Final

from engines.time_pirates.components import (
    COLOURS,
    MAX_DEED_TYPES,
    MAX_EPOCHS,
    NUM_COLOURS,
    NUM_KINDS,
    Components,
    kind_name,
)

MAX_SEATS: Final = 6

TAKE: Final = 0  # + artifact kind: standard action "take one artifact" (the action *is* the kind)
MOVE: Final = NUM_KINDS  # + line (0 = line 1, 1 = line 2): standard action "move"
BUY: Final = MOVE + 2  # + deed type: standard action "bazaar" (then PICK to pay, EPOCH to land)
PICK: Final = BUY + MAX_DEED_TYPES  # + artifact kind: pay / Patrol penalty / arrow-swap take
EPOCH: Final = PICK + NUM_KINDS  # + epoch: start placement, bazaar landing, atomic destination
ATOMIC: Final = EPOCH + MAX_EPOCHS  # + colour: special, discard that colour's atomic artifact
ARROW: Final = ATOMIC + NUM_COLOURS  # + colour * MAX_SEATS + target seat: special arrow swap
END: Final = ARROW + NUM_COLOURS * MAX_SEATS  # end the turn (offered only when specials remain)
RESTOCK: Final = END + 1  # + epoch: optional restock at the start of an uncaught turn
NO_RESTOCK: Final = RESTOCK + MAX_EPOCHS
WHITE: Final = NO_RESTOCK + 1  # + colour: secret placement of the next white deed
NUM_ACTIONS: Final = WHITE + NUM_COLOURS

# Phases (who decides what).
PH_START: Final = 0  # choose a start epoch (reverse turn order)
PH_PENALTY: Final = 1  # caught: choose the artifact lost from a largest colour group
PH_RESTOCK: Final = 2  # optional restock
PH_ACT: Final = 3  # standard and special actions
PH_PAY: Final = 4  # pay the deed being bought, one artifact at a time
PH_LAND: Final = 5  # after the bazaar: put the pawn on any epoch
PH_JUMP: Final = 6  # atomic: choose the destination epoch
PH_SWAP: Final = 7  # arrow: choose the artifact taken from the target
PH_WHITE: Final = 8  # final scoring: secret white-deed placement
PH_OVER: Final = 9

PHASE_NAMES = ("start", "penalty", "restock", "act", "pay", "land", "jump", "swap", "white",
               "over")

#: The game's systems (`GAME.action_kinds`): every distinct decision of the rules, named as a
#: player would.  The sub-decisions of a purchase, a jump and a swap are kinds of their own,
#: so that "atomic jump" counts jumps, not jumps and destinations.
ACTION_KINDS = (
    "start epoch", "take", "move", "restock", "no restock",
    "buy 2-point deed", "buy 3-point deed", "buy 4-point deed", "buy 6-point deed",
    "buy 7-point deed", "buy white deed", "pay for deed", "land after bazaar",
    "atomic jump", "jump destination", "arrow swap", "swap pick", "end turn",
    "penalty pick", "white-deed placement",
)
(K_START, K_TAKE, K_MOVE, K_RESTOCK, K_NO_RESTOCK, K_BUY_2, K_BUY_3, K_BUY_4, K_BUY_6,
 K_BUY_7, K_BUY_WHITE, K_PAY, K_LAND, K_ATOMIC, K_JUMP, K_ARROW, K_SWAP, K_END, K_PENALTY,
 K_WHITE) = range(len(ACTION_KINDS))
#: PICK and EPOCH actions mean different decisions in different phases (index = PH_*).
PICK_KIND: Final = (-1, K_PENALTY, -1, -1, K_PAY, -1, -1, K_SWAP, -1, -1)
EPOCH_KIND: Final = (K_START, -1, -1, -1, -1, K_LAND, K_JUMP, -1, -1, -1)
_BUY_KINDS: dict[str, tuple[int, ...]] = {}


def buy_kinds(comp: Components) -> tuple[int, ...]:
    """Per deed type, its action kind: a coloured deed by its rank in cost within its colour
    (with the built-in data that is its points, 2, 3, 4, 6, 7; with a replacement data set
    the n-th cheapest deed of a colour, the dearest from the fifth on), a white deed as one
    kind.  Cached per data set."""
    kinds = _BUY_KINDS.get(comp.label)
    if kinds is None:
        out = [K_BUY_WHITE] * len(comp.deeds)
        for row in comp.colour_deeds:
            for rank, (t, _) in enumerate(row):
                out[t] = K_BUY_2 + min(rank, K_BUY_7 - K_BUY_2)
        kinds = _BUY_KINDS[comp.label] = tuple(out)
    return kinds


def action_name(action: int, epoch_names: tuple[str, ...], deeds: tuple) -> str:
    """Readable form of an action (phase-independent wording)."""
    if action < MOVE:
        return f"take {kind_name(action - TAKE)}"
    if action < BUY:
        return f"move line {action - MOVE + 1}"
    if action < PICK:
        colour, points, cost, _ = deeds[action - BUY]
        name = "white" if colour == NUM_COLOURS else COLOURS[colour]
        return f"buy {name} deed {points}pt/cost {cost}"
    if action < EPOCH:
        return f"pick {kind_name(action - PICK)}"
    if action < ATOMIC:
        return f"epoch {epoch_names[action - EPOCH]}"
    if action < ARROW:
        return f"atomic ({COLOURS[action - ATOMIC]})"
    if action < END:
        colour, seat = divmod(action - ARROW, MAX_SEATS)
        return f"arrow ({COLOURS[colour]}) with seat {seat + 1}"  # seats numbered from 1
    if action == END:
        return "end turn"
    if action < NO_RESTOCK:
        return f"restock {epoch_names[action - RESTOCK]}"
    if action == NO_RESTOCK:
        return "no restock"
    return f"white deed on {COLOURS[action - WHITE]}"
