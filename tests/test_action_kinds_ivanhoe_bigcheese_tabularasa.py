"""Ivanhoe, The Big Cheese and Tabula Rasa name their game systems (action kinds).

Every legal action of random playouts maps to a kind, random play reaches every kind within
a few seeded games, and named positions map to the kind a player would call them.
"""

from __future__ import annotations

import pytest

from engines import get_game
from engines.big_cheese.actions import (
    ACT_BIG_CHEESE,
    ACT_KEEP,
    ACT_NO_VETO,
    ACT_ROLL_NEXT,
    ACT_VETO,
    PASS,
)
from engines.ivanhoe.actions import (
    A_COLOUR,
    A_END,
    A_IVANHOE,
    A_PASS,
    A_PLAY,
    A_SLOT,
    A_TARGET,
    A_TOKEN,
    A_WITHDRAW,
    PH_CLAIM,
    PH_COLOUR,
    PH_RETURN,
    PH_START,
)
from engines.ivanhoe.components import (
    ADAPT,
    FIRST_ACTION,
    G1,
    IVANHOE,
    MAIDEN6,
    NAMES,
    NUM_TYPES,
    P7,
    RIPOSTE,
    SQUIRE3,
    Y2,
)
from engines.tabula_rasa.actions import CARD_ACTIONS
from tests.playouts import playout

#: (game, players, rule options, seeded random games that must reach every kind)
CASES = [
    ("ivanhoe", 4, {}, 40),
    ("ivanhoe", 2, {}, 40),
    ("big-cheese", 4, {}, 10),
    ("big-cheese", 4, {"veto_any_time": True}, 10),
    ("big-cheese", 4, {"dice": "polyhedral", "exact": 30}, 10),
    ("tabula-rasa", 3, {}, 5),
    ("tabula-rasa", 4, {}, 5),
    ("tabula-rasa", 2, {"majority_by": "value_sum"}, 5),
]
IDS = [f"{g}-{n}p-{'-'.join(f'{k}={v}' for k, v in r.items()) or 'default'}"
       for g, n, r, _ in CASES]


def _kinds_of_random_play(name, n, rules, games):
    """Kinds chosen by uniform random play over `games` seeds; checks every legal action."""
    game = get_game(name)
    kinds = game.action_kinds
    chosen = [0] * len(kinds)

    def count(state, action):
        chosen[state.action_kind(action)] += 1

    for seed in range(games):
        for state in playout(game, n, seed, rules=rules, on_move=count):
            for action in state.legal_actions():
                kind = state.action_kind(action)
                assert isinstance(kind, int) and 0 <= kind < len(kinds), (
                    f"{state.action_to_str(action)} -> {kind!r}")
    return {kinds[k]: c for k, c in enumerate(chosen)}


@pytest.mark.parametrize("name,n,rules,games", CASES, ids=IDS)
def test_action_kinds_cover_every_legal_action_and_random_play_reaches_each(name, n, rules,
                                                                              games):
    game = get_game(name)
    assert game.action_kinds and len(set(game.action_kinds)) == len(game.action_kinds)
    counts = _kinds_of_random_play(name, n, rules, games)
    if name == "big-cheese" and "exact" not in rules:
        assert counts.pop("choose which project rolls next") == 0  # exact-N only
    missing = [kind for kind, c in counts.items() if c == 0]
    assert not missing, f"random play never chose {missing}"


def test_ivanhoe_kinds_name_every_action_card_and_supporter():
    game = get_game("ivanhoe")
    for t in range(FIRST_ACTION, NUM_TYPES):
        assert NAMES[t] in game.action_kinds
    assert {"squire", "maiden", "withdraw", "tournament colour"} <= set(game.action_kinds)


def test_ivanhoe_action_kind_on_named_actions():
    game = get_game("ivanhoe")
    state = game.new_state(3, 0)
    kinds = game.action_kinds

    def kind(action):
        return kinds[state.action_kind(action)]

    state.phase = PH_START
    assert kind(A_COLOUR + 1) == "tournament colour"
    state.phase = PH_COLOUR
    assert kind(A_COLOUR + 1) == "choose new colour"
    assert kind(A_PLAY + P7) == "purple card"
    assert kind(A_PLAY + Y2) == "yellow card"
    assert kind(A_PLAY + G1) == "green card"
    assert kind(A_PLAY + SQUIRE3) == "squire"
    assert kind(A_PLAY + MAIDEN6) == "maiden"
    assert kind(A_PLAY + RIPOSTE) == "Riposte"
    assert kind(A_PLAY + ADAPT) == "Adapt"
    assert kind(A_PLAY + IVANHOE) == "Ivanhoe"
    assert kind(A_IVANHOE) == "Ivanhoe"
    assert kind(A_PASS) == "let an action card stand"
    assert kind(A_END) == "end turn (stay in)"
    assert kind(A_WITHDRAW) == "withdraw"
    assert kind(A_TARGET + 2) == "choose opponent"
    assert kind(A_SLOT + 3) == "choose display card"
    state.phase = PH_RETURN
    assert kind(A_TOKEN + 0) == "give back token (Maiden)"
    state.phase = PH_CLAIM
    assert kind(A_TOKEN + 0) == "take token (purple win)"


def test_big_cheese_action_kind_on_named_actions():
    game = get_game("big-cheese")
    state = game.new_state(4, 0)
    kinds = game.action_kinds
    assert [kinds[state.action_kind(a)] for a in (PASS, 1, 7, ACT_VETO, ACT_KEEP,
                                                  ACT_BIG_CHEESE, ACT_NO_VETO,
                                                  ACT_ROLL_NEXT + 12)] == [
        "pass", "bid", "bid", "Veto", "keep the roll", "Big Cheese re-roll", "pass",
        "choose which project rolls next"]


def _tabula_kind(state, card):
    """Kinds of placing `card` at its number spot and at its colour spot."""
    kinds = get_game("tabula-rasa").action_kinds
    return [kinds[state.action_kind(a)] for a in CARD_ACTIONS[card]]


def test_tabula_rasa_action_kind_names_the_majority_fight():
    game = get_game("tabula-rasa")
    state = game.new_state(2, 0)  # seat 0 to move, side 0 at tally[0:10], side 1 at [10:20]
    red3 = 2  # card type colour 0 (red), value 3: number territory 2, colour territory 5
    assert _tabula_kind(state, red3) == ["open: number", "open: colour"]
    state.tally[2] = 2
    state.tally[12] = 1  # number 3: already ahead 2-1
    state.tally[15] = 2  # red: rival ahead 2-0
    assert _tabula_kind(state, red3) == ["reinforce lead: number", "trail (treasure): colour"]
    state.tally[2] = 1
    state.tally[5] = 1  # number 3 level 1-1; red 1-2
    assert _tabula_kind(state, red3) == ["take the lead: number", "draw level (block): colour"]
    state.tally[2] = 0  # number 3 0-1: a card draws level
    assert _tabula_kind(state, red3)[0] == "draw level (block): number"


def test_tabula_rasa_action_kind_counts_the_partner_in_team_games():
    """4 players: seats 0 and 2 share side 0, so seat 2 reinforces its partner's lead."""
    game = get_game("tabula-rasa")
    state = game.new_state(4, 0)
    state.to_move = 2
    state.tally[2] = 1
    assert _tabula_kind(state, 2)[0] == "reinforce lead: number"
