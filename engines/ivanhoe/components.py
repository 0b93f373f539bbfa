"""The 110-card Ivanhoe deck as plain tables (CONFIRMED: GMT rulebook back page, S2).

A card is represented by its *type* (a small int): cards of one type are interchangeable,
so hands, displays and piles are lists of type codes and the legal-action lists never
offer two actions that do the same thing.
"""

from __future__ import annotations

DATASET = "official"

PURPLE, RED, BLUE, YELLOW, GREEN = range(5)
WHITE = 5  # supporters: never a tournament colour
COLOUR_NAMES = ("purple", "red", "blue", "yellow", "green")

COLOUR_CARD, SQUIRE, MAIDEN, ACTION = range(4)

# (name, kind, colour, printed value, copies) -- one row per card type.
CARD_TYPES: tuple[tuple[str, int, int, int, int], ...] = (
    ("purple 3", COLOUR_CARD, PURPLE, 3, 4),
    ("purple 4", COLOUR_CARD, PURPLE, 4, 4),
    ("purple 5", COLOUR_CARD, PURPLE, 5, 4),
    ("purple 7", COLOUR_CARD, PURPLE, 7, 2),
    ("red 3", COLOUR_CARD, RED, 3, 6),
    ("red 4", COLOUR_CARD, RED, 4, 6),
    ("red 5", COLOUR_CARD, RED, 5, 2),
    ("blue 2", COLOUR_CARD, BLUE, 2, 4),
    ("blue 3", COLOUR_CARD, BLUE, 3, 4),
    ("blue 4", COLOUR_CARD, BLUE, 4, 4),
    ("blue 5", COLOUR_CARD, BLUE, 5, 2),
    ("yellow 2", COLOUR_CARD, YELLOW, 2, 4),
    ("yellow 3", COLOUR_CARD, YELLOW, 3, 8),
    ("yellow 4", COLOUR_CARD, YELLOW, 4, 2),
    ("green 1", COLOUR_CARD, GREEN, 1, 14),
    ("squire 2", SQUIRE, WHITE, 2, 8),
    ("squire 3", SQUIRE, WHITE, 3, 8),
    ("maiden 6", MAIDEN, WHITE, 6, 4),
    ("Unhorse", ACTION, -1, 0, 1),
    ("Change Weapon", ACTION, -1, 0, 1),
    ("Drop Weapon", ACTION, -1, 0, 1),
    ("Break Lance", ACTION, -1, 0, 1),
    ("Riposte", ACTION, -1, 0, 3),
    ("Dodge", ACTION, -1, 0, 1),
    ("Retreat", ACTION, -1, 0, 1),
    ("Knock Down", ACTION, -1, 0, 2),
    ("Outmaneuver", ACTION, -1, 0, 1),
    ("Charge", ACTION, -1, 0, 1),
    ("Countercharge", ACTION, -1, 0, 1),
    ("Disgrace", ACTION, -1, 0, 1),
    ("Adapt", ACTION, -1, 0, 1),
    ("Outwit", ACTION, -1, 0, 1),
    ("Shield", ACTION, -1, 0, 1),
    ("Stunned", ACTION, -1, 0, 1),
    ("Ivanhoe", ACTION, -1, 0, 1),
)

NUM_TYPES = len(CARD_TYPES)
NAMES = tuple(row[0] for row in CARD_TYPES)
KIND = tuple(row[1] for row in CARD_TYPES)
COLOUR_OF = tuple(row[2] for row in CARD_TYPES)
VALUE = tuple(row[3] for row in CARD_TYPES)
COPIES = tuple(row[4] for row in CARD_TYPES)
DECK_SIZE = sum(COPIES)
HAND_SIZE = 8  # cards in each starting hand

# type codes, named after the cards
(P3, P4, P5, P7, R3, R4, R5, B2, B3, B4, B5, Y2, Y3, Y4, G1, SQUIRE2, SQUIRE3, MAIDEN6,
 UNHORSE, CHANGE_WEAPON, DROP_WEAPON, BREAK_LANCE, RIPOSTE, DODGE, RETREAT, KNOCK_DOWN,
 OUTMANEUVER, CHARGE, COUNTERCHARGE, DISGRACE, ADAPT, OUTWIT, SHIELD, STUNNED,
 IVANHOE) = range(NUM_TYPES)

FIRST_ACTION = UNHORSE
IS_SUPPORTER = tuple(k in (SQUIRE, MAIDEN) for k in KIND)
IS_ACTION = tuple(k == ACTION for k in KIND)


def full_deck() -> list[int]:
    """All 110 cards as type codes, in a fixed (sorted) order."""
    return [t for t in range(NUM_TYPES) for _ in range(COPIES[t])]


assert DECK_SIZE == 110
assert sum(COPIES[t] for t in range(NUM_TYPES) if KIND[t] == COLOUR_CARD) == 70
assert sum(COPIES[t] for t in range(NUM_TYPES) if IS_SUPPORTER[t]) == 20
assert sum(COPIES[t] for t in range(NUM_TYPES) if IS_ACTION[t]) == 20
