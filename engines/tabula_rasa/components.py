"""Tabula Rasa component data (Knizia 1999), confirmed by the rule text and three reviews.

Provenance: /work/shared/rules/tabula_rasa.md §1 (Japanese re-translation of the
Knizia/Jacklin English rules; ludorium, topolino and luding reviews agree on every number
below).  Colour names vary between editions, so colours are abstract suits 0..4.

Encoding used by the engine:
- card type `t = colour * 5 + (value - 1)`, 25 types, `COPIES` copies each (50 cards);
- territory index 0..4 = number territories 1..5, 5..9 = colour territories 0..4
  (left-to-right scoring order on the table).
The action layout (card type and territory spot) is in `actions`.
"""

from __future__ import annotations

DATASET = "official"

COLOURS = ("red", "blue", "green", "purple", "yellow")
NUM_COLOURS = 5
NUM_VALUES = 5
COPIES = 2
NUM_TYPES = NUM_COLOURS * NUM_VALUES  # 25
NUM_CARDS = NUM_TYPES * COPIES  # 50
REMOVED = 2  # face down, unseen, out of the game
HAND_SIZE = 8
NUM_TERRITORIES = 10

#: Points of each territory tile, left to right: numbers 1..5 then the five colours (5 each).
TERRITORY_POINTS = (1, 2, 3, 4, 5, 5, 5, 5, 5, 5)
TREASURE_POINTS = 1  # one treasure under every territory
TIE_TILE_POINTS = 1  # two tied for most: the territory is flipped to serve as a 1-pt treasure
CASTLE_POINTS = 5
NUMBER_TERRITORIES = range(5)  # the castle race is decided while scoring these, in order

#: Most points the tiles can give out in one game (15 + 25 + 10 + 5).
MAX_TOTAL_POINTS = sum(TERRITORY_POINTS) + TREASURE_POINTS * NUM_TERRITORIES + CASTLE_POINTS


def card_colour(card: int) -> int:
    return card // NUM_VALUES


def card_value(card: int) -> int:
    """Face value 1..5."""
    return card % NUM_VALUES + 1


def territory_name(territory: int) -> str:
    if territory < NUM_VALUES:
        return f"number {territory + 1}"
    return f"colour {COLOURS[territory - NUM_VALUES]}"


def card_name(card: int) -> str:
    return f"{COLOURS[card_colour(card)]} {card_value(card)}"

