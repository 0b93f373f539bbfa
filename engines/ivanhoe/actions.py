"""Integer action codes and phase numbers shared by the state and the bots.

Actions are small ints in disjoint ranges so that one table decodes any of them; their names
(`action_name`) and kinds (`action_kind`) are derived here from the same offsets.
"""

from __future__ import annotations

from typing import Final

from engines.ivanhoe.components import (
    ACTION,
    COLOUR_NAMES,
    COLOUR_OF,
    DECK_SIZE,
    IVANHOE,
    KIND,
    MAIDEN6,
    NAMES,
    NUM_TYPES,
    SQUIRE,
    UNHORSE,
)

# phases: who must decide what (Final: compiled code compares with the constant)
PH_START: Final = 0
PH_PLAY: Final = 1
PH_COLOUR: Final = 2
PH_TARGET: Final = 3
PH_OWN_SLOT: Final = 4
PH_THEIR_SLOT: Final = 5
PH_IVANHOE: Final = 6
PH_ADAPT: Final = 7
PH_RETURN: Final = 8
PH_CLAIM: Final = 9
PH_OVER: Final = 10

PHASE_NAMES = ("start", "play", "choose colour", "choose opponent", "choose own card",
               "choose opponent's card", "Ivanhoe window", "Adapt: keep", "return token",
               "claim token", "over")

A_COLOUR = 0        # + colour: tournament colour (start) or new colour (Unhorse/Change Weapon)
A_PLAY = 10         # + card type: play one card of that type from hand
A_END = 50          # end the turn and stay in (only when highest)
A_WITHDRAW = 51     # end the turn by withdrawing
A_TARGET = 60       # + seat: the opponent an action card targets
A_IVANHOE = 70      # play Ivanhoe to cancel the action card just played
A_PASS = 71         # let it stand
A_TOKEN = 80        # + colour: token to give back (Maiden) or to take (purple win)
A_SHIELD_SLOT = 90  # the Shield lying beside a display (Outwit)
A_STUNNED_SLOT = 91  # the Stunned card lying beside a display (Outwit)
A_SLOT = 100        # + position in a display (0 = earliest played)
NUM_ACTIONS = A_SLOT + DECK_SIZE  # a display never holds more than the deck

SHIELD_SLOT = -1    # slot codes used by Outwit besides display positions
STUNNED_SLOT = -2


def slot_action(slot: int) -> int:
    """Action code of a face-up slot (display position, Shield or Stunned)."""
    if slot >= 0:
        return A_SLOT + slot
    return A_SHIELD_SLOT if slot == SHIELD_SLOT else A_STUNNED_SLOT


def action_slot(action: int) -> int:
    """Inverse of `slot_action`."""
    if action >= A_SLOT:
        return action - A_SLOT
    return SHIELD_SLOT if action == A_SHIELD_SLOT else STUNNED_SLOT


#: The game's systems (`Game.action_kinds`): every distinct decision of the rules, by the
#: names the rulebook gives them.  Indexed by `IvanhoeState.action_kind`.
ACTION_KINDS = (
    "tournament colour",
    "purple card", "red card", "blue card", "yellow card", "green card", "squire", "maiden",
    "Unhorse", "Change Weapon", "Drop Weapon", "Break Lance", "Riposte", "Dodge", "Retreat",
    "Knock Down", "Outmaneuver", "Charge", "Countercharge", "Disgrace", "Adapt", "Outwit",
    "Shield", "Stunned",
    "Ivanhoe", "let an action card stand",
    "end turn (stay in)", "withdraw",
    "choose opponent", "choose new colour", "choose display card",
    "give back token (Maiden)", "take token (purple win)",
)
K_TOURNAMENT_COLOUR = 0
K_FIRST_CARD = 1  # + card kind offset, see `PLAY_KIND`
(K_IVANHOE, K_LET_STAND, K_END, K_WITHDRAW, K_TARGET, K_NEW_COLOUR, K_SLOT, K_RETURN_TOKEN,
 K_CLAIM_TOKEN) = range(24, 33)
assert ACTION_KINDS[K_CLAIM_TOKEN] == "take token (purple win)"

#: `ACTION_KINDS` index of playing each card type: coloured cards by colour, then squire,
#: maiden, and each action card by name (Ivanhoe itself is only played in its window).
PLAY_KIND = tuple(
    K_IVANHOE if t == IVANHOE
    else 8 + t - UNHORSE if KIND[t] == ACTION
    else 6 if KIND[t] == SQUIRE
    else 7 if t == MAIDEN6
    else 1 + COLOUR_OF[t]
    for t in range(NUM_TYPES)
)


def action_kind(action: int, phase: int) -> int:
    """Index into `ACTION_KINDS`; colours and tokens are told apart by the phase."""
    if action < A_PLAY:
        return K_TOURNAMENT_COLOUR if phase == PH_START else K_NEW_COLOUR
    if action < A_END:
        return PLAY_KIND[action - A_PLAY]
    if action == A_END:
        return K_END
    if action == A_WITHDRAW:
        return K_WITHDRAW
    if action < A_IVANHOE:
        return K_TARGET
    if action == A_IVANHOE:
        return K_IVANHOE
    if action == A_PASS:
        return K_LET_STAND
    if action < A_SHIELD_SLOT:
        return K_RETURN_TOKEN if phase == PH_RETURN else K_CLAIM_TOKEN
    return K_SLOT


def action_name(action: int) -> str:
    """What an action does, for people (seats numbered from 1)."""
    if action < A_PLAY:
        return f"colour {COLOUR_NAMES[action - A_COLOUR]}"
    if action < A_END:
        return f"play {NAMES[action - A_PLAY]}"
    if action == A_END:
        return "end turn"
    if action == A_WITHDRAW:
        return "withdraw"
    if action < A_IVANHOE:
        return f"target seat {action - A_TARGET + 1}"
    if action == A_IVANHOE:
        return "play Ivanhoe"
    if action == A_PASS:
        return "no Ivanhoe"
    if action < A_SHIELD_SLOT:
        return f"token {COLOUR_NAMES[action - A_TOKEN]}"
    if action == A_SHIELD_SLOT:
        return "the Shield"
    if action == A_STUNNED_SLOT:
        return "the Stunned card"
    return f"display card #{action - A_SLOT}"
