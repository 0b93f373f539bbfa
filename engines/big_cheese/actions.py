"""Integer action layout, phases and the shared bid-list tables of The Big Cheese.

Actions: 0 = pass, 1..chips = bid that many chips (`Rules.chips` is at most `MAX_CHIPS`, so
bids stay below 1000), then the special actions from 1000 up (`ACT_ROLL_NEXT + v`: in
exact-N, roll the maturing project of value v next).

The constants are `Final`: compiled with mypyc, a use of a Final name is the value itself
(or a C global), where any other module-level name is a dictionary look-up at every use.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from engines.big_cheese.components import NUMBER_VALUES, card_name

PASS: Final = 0
ACT_VETO: Final = 1000  # play a Veto (on your bidding turn, or in the B8 `veto_any_time` window)
ACT_KEEP: Final = 1001  # keep the roll just made
ACT_BIG_CHEESE: Final = 1002  # discard a Big Cheese to re-roll your own project
ACT_NO_VETO: Final = 1003  # let the award stand (`veto_any_time` window only)
ACT_ROLL_NEXT: Final = 1100  # + card value (1102..1120): exact-N, roll that maturing project next
NUM_ACTIONS: Final = ACT_ROLL_NEXT + max(NUMBER_VALUES) + 1

# Phases (who decides what).
BID: Final = 0
VETO_WINDOW: Final = 1
ROLL: Final = 2
OVER: Final = 3
ORDER: Final = 4  # exact-N: the owner picks which of their maturing projects to roll next

PHASE_NAMES = ("bid", "veto_window", "roll", "over", "order")

#: The game's systems (`Game.action_kinds`), indexed by `action_kind`.
#: Declining a B8 any-time Veto counts as a pass: it is the same "let it go" decision.
ACTION_KINDS = ("bid", "pass", "Veto", "keep the roll", "Big Cheese re-roll",
                "choose which project rolls next")
K_BID, K_PASS, K_VETO, K_KEEP, K_BIG_CHEESE, K_ROLL_NEXT = range(len(ACTION_KINDS))


def action_kind(action: int) -> int:
    """Index into `ACTION_KINDS`: bids are 1..chips, the special actions 1000 and up."""
    if action < ACT_VETO:
        return K_BID if action else K_PASS
    if action == ACT_VETO:
        return K_VETO
    if action == ACT_KEEP:
        return K_KEEP
    if action == ACT_BIG_CHEESE:
        return K_BIG_CHEESE
    if action == ACT_NO_VETO:
        return K_PASS
    return K_ROLL_NEXT  # ACT_ROLL_NEXT + value (exact-N)


#: `action_kind` of every action, as a table (`BigCheeseState.action_kind` runs once per
#: decision of every simulated game; `tests/test_fastpaths.py` checks it against the function).
KIND_OF_ACTION: Final = tuple(action_kind(a) for a in range(NUM_ACTIONS))


def action_name(action: int, top: int | None) -> str:
    """Readable form of an action; `top` is the card up for auction (None if unknown)."""
    if action == PASS:
        return "pass"
    if action == ACT_VETO:
        return "veto"
    if action == ACT_KEEP:
        return "keep roll"
    if action == ACT_BIG_CHEESE:
        return "big cheese re-roll"
    if action == ACT_NO_VETO:
        return "no veto"
    if action > ACT_ROLL_NEXT:
        return f"roll the {card_name(action - ACT_ROLL_NEXT)} next"
    return f"bid {action} on {'?' if top is None else card_name(top)}"


# --- legal lists shared by every state (never mutated; core caches them per position) ---
ROLL_ACTS: Final = [ACT_KEEP, ACT_BIG_CHEESE]
WINDOW_ACTS: Final = [ACT_NO_VETO, ACT_VETO]

#: Starting-chip counts up to this get a pre-built bid-list table; larger ones none (the
#: state builds each legal list with `bid_list`: a table would hold (chips + 1)^2 lists per row).
_TABLE_CHIPS = 64


def bid_list(veto: int, high: int, free: int) -> list[int]:
    """The legal bid-phase actions (B1, B2 default): pass, every bid from high + 1 to free,
    Veto if held."""
    acts = [PASS, *range(high + 1, free + 1)]
    if veto:
        acts.append(ACT_VETO)
    return acts


#: `table[holds a Veto][high bid][free chips]` -> `bid_list`; typed, so that compiled, each
#: index is a direct list access.
BidTable: TypeAlias = "list[list[list[list[int]]]]"

_BID_TABLES: dict[int, BidTable] = {}


def bid_table(chips: int) -> BidTable:
    """`table[holds a Veto][high bid][free chips]` -> the shared `bid_list` (a speed
    shortcut: `tests/test_fastpaths.py` checks the lists the engine takes from it); empty
    above `_TABLE_CHIPS` starting chips.

    Chips are conserved per seat, so high bid and free chips never exceed `chips`.
    """
    table = _BID_TABLES.get(chips)
    if table is None:
        table = [] if chips > _TABLE_CHIPS else [
            [[bid_list(v, h, f) for f in range(chips + 1)] for h in range(chips + 1)]
            for v in (0, 1)
        ]
        _BID_TABLES[chips] = table
    return table
