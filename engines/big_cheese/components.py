"""The Big Cheese card list and dice, as plain tables.

Provenance: the Japanese rule translation (`shared/seeds/003_a059bba0d38109b8.txt`) and the
later Cheapass / Crab Fragment Labs edition both give 36 cards = four each of the number
projects 2, 4, 6, 8, 10, 12, 20 plus four Veto and four Big Cheese.  Both sources agree, so
this is the confirmed (``official``) component list, not a reconstruction.
"""

from __future__ import annotations

from typing import Final

DATASET = "official"

#: Special cards are coded with small negative ints so that a card code > 0 is its value.
VETO: Final = -1
BIG_CHEESE: Final = -2

#: Number-project values, in ascending order (also the order of the score breakdown).
NUMBER_VALUES: tuple[int, ...] = (2, 4, 6, 8, 10, 12, 20)
COPIES = 4

#: The full 36-card deck, one int per card.
DECK: tuple[int, ...] = tuple(
    [v for v in NUMBER_VALUES for _ in range(COPIES)] + [VETO] * COPIES + [BIG_CHEESE] * COPIES
)

#: Breakdown column index of each number value.
VALUE_INDEX: dict[int, int] = {v: i for i, v in enumerate(NUMBER_VALUES)}

CARD_NAMES: dict[int, str] = {VETO: "Veto", BIG_CHEESE: "Big Cheese"}


def card_name(card: int) -> str:
    """Human-readable card name ('20', 'Veto', 'Big Cheese')."""
    return CARD_NAMES.get(card, str(card))


def expected_points(card: int, dice: str) -> float:
    """Mean score of a matured number project (0 for specials): d6 = 3.5 x value, poly = die mean.

    In polyhedral mode the 2 is odd/even of any die, i.e. uniform {1, 2}.
    """
    if card <= 0:
        return 0.0
    if dice == "d6":
        return 3.5 * card
    return (card + 1) / 2
