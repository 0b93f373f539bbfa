"""Pre-built, shared legal-action lists for the option sets that recur in Time Pirates.

(A speed shortcut, not rule options: `tests/test_fastpaths.py` checks every list the engine
takes from here against the legal actions worked out from the rules.)

`State.legal_actions()` callers never mutate the list they get, and the engine never mutates
these either (it only copies them into fresh lists), so one list per distinct option set is
built on first use and reused by every state.  Keys are small bitmasks: `atoms` / `arrows` =
colours of which the acting seat holds an atomic / arrow artifact (the state's
`atomic_colours` / `arrow_colours`), `others` = other seats
holding at least one artifact (arrow-swap targets).
"""

from __future__ import annotations

from typing import Final

from engines.time_pirates.actions import (
    ARROW,
    ATOMIC,
    END,
    EPOCH,
    MAX_SEATS,
    MOVE,
    NO_RESTOCK,
    RESTOCK,
)
from engines.time_pirates.components import NUM_COLOURS

#: A colour's offer row: per budget (up to all the game's artifacts), the BUY actions of the
#: deeds on offer that the budget pays for.  A state's `offers` holds one per colour and white.
OfferRow = tuple[tuple[int, ...], ...]

ONLY_MOVES: Final = [MOVE, MOVE + 1]
ONLY_END: Final = [END]
ONLY_NO_RESTOCK: Final = [NO_RESTOCK]

#: ATOMS[atoms]: the atomic special actions open to a hand.
ATOMS: Final = tuple(tuple(ATOMIC + c for c in range(NUM_COLOURS) if atoms >> c & 1)
              for atoms in range(1 << NUM_COLOURS))

SWAP_LISTS: Final[dict[int, tuple[int, ...]]] = {}
END_LISTS: Final[dict[int, list[int]]] = {}
RESTOCK_LISTS: Final[dict[int, list[int]]] = {}
_EPOCHS: Final[dict[int, tuple[list[int], tuple[list[int], ...]]]] = {}


def swaps(arrows: int, others: int) -> tuple[int, ...]:
    """Arrow swaps: each arrow colour held, with each other seat that holds an artifact."""
    key = arrows << MAX_SEATS | others
    out = SWAP_LISTS.get(key)
    if out is None:
        out = SWAP_LISTS[key] = tuple(
            ARROW + c * MAX_SEATS + q for c in range(NUM_COLOURS) if arrows >> c & 1
            for q in range(MAX_SEATS) if others >> q & 1)
    return out


def ends(atoms: int, arrows: int, others: int) -> list[int]:
    """No standard action left: end the turn, or a special action first."""
    key = (atoms << NUM_COLOURS | arrows) << MAX_SEATS | others
    out = END_LISTS.get(key)
    if out is None:
        out = END_LISTS[key] = [END, *ATOMS[atoms], *swaps(arrows, others)]
    return out


def epochs(n: int) -> tuple[list[int], tuple[list[int], ...]]:
    """(every epoch, every epoch but e for each e): bazaar landing, atomic destination."""
    out = _EPOCHS.get(n)
    if out is None:
        every = [EPOCH + e for e in range(n)]
        out = _EPOCHS[n] = (every, tuple([a for a in every if a != EPOCH + e]
                                         for e in range(n)))
    return out


def restocks(free: int) -> list[int]:
    """The restock options: each epoch in the bitmask `free`, then "no restock"."""
    out = RESTOCK_LISTS.get(free)
    if out is None:
        out = RESTOCK_LISTS[free] = [RESTOCK + e for e in range(free.bit_length()) if free >> e & 1]
        out.append(NO_RESTOCK)
    return out
