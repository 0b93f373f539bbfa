"""Integer action layout of Tabula Rasa: one action per (card type, territory spot).

Action `a = card_type * 2 + spot`: spot 0 places the card beside the number territory of its
value, spot 1 beside the colour territory of its colour (rules §1 "Turn": a card goes next to
one of the two territories it matches).  Territory indices are those of `components` (0..4 =
numbers 1..5, 5..9 = the colours).  The action kinds name the placement's situation in its
territory's majority fight, computed by `TabulaRasaState.action_kind`.
"""

from __future__ import annotations

from engines.tabula_rasa.components import (
    NUM_TYPES,
    NUM_VALUES,
    card_name,
    card_value,
    territory_name,
)

NUM_ACTIONS = NUM_TYPES * 2


def territory_of(action: int) -> int:
    """Territory index 0..9 that `action` places its card next to."""
    card, spot = divmod(action, 2)
    return NUM_VALUES + card // NUM_VALUES if spot else card % NUM_VALUES


def card_of(action: int) -> int:
    """The card type `action` plays."""
    return action >> 1


#: Precomputed per action (the engine's and the bots' hot paths read these tables, checked
#: against `territory_of` in `tests/test_fastpaths.py`): territory index, card face value.
ACTION_TERRITORY = tuple(territory_of(a) for a in range(NUM_ACTIONS))
ACTION_VALUE = tuple(card_value(card_of(a)) for a in range(NUM_ACTIONS))
#: Both actions of each card type (number spot, colour spot).
CARD_ACTIONS = tuple((2 * t, 2 * t + 1) for t in range(NUM_TYPES))

#: What a placement does in its territory's majority fight (own side's tally `o` against
#: the strongest rival's `r`, card weight `w`): open an empty territory (o = r = 0), take the
#: lead (o <= r < o + w), draw level to block the leader (o + w = r), trail for the
#: treasure (o + w < r) or reinforce a lead (o > r).  Number territories (1-5) also decide
#: the castle race, so each situation is counted apart for number and colour territories.
SITUATIONS = ("open", "take the lead", "draw level (block)", "trail (treasure)",
              "reinforce lead")
S_OPEN, S_TAKE_LEAD, S_DRAW_LEVEL, S_TRAIL, S_REINFORCE = range(len(SITUATIONS))
#: `Game.action_kinds`: situation at a number territory, then at a colour territory.
ACTION_KINDS = tuple(f"{situation}: {place}" for place in ("number", "colour")
                     for situation in SITUATIONS)
#: Offset of an action's territory class in `ACTION_KINDS`.
PLACE_KIND = tuple(0 if terr < NUM_VALUES else len(SITUATIONS) for terr in ACTION_TERRITORY)


def action_name(action: int) -> str:
    """Readable form: 'red 3 -> number 3'."""
    return f"{card_name(card_of(action))} -> {territory_name(ACTION_TERRITORY[action])}"
