"""Scenario tests for Tabula Rasa: one per rule and per ruling of shared/rules/tabula_rasa.md.

Scoring scenarios set the placements directly (the end-of-game tally per side and territory)
and ask the engine for the outcome; play scenarios drive the engine through `apply_action`.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines import get_game
from engines.tabula_rasa.actions import territory_of
from engines.tabula_rasa.components import MAX_TOTAL_POINTS, NUM_TERRITORIES, TERRITORY_POINTS
from engines.tabula_rasa.state import FULL_DECK, TabulaRasaState
from tests.playouts import final

GAME = get_game("tabula-rasa")

# territory indices: numbers 1..5 are 0..4, colours red, blue, green, purple, yellow are 5..9
N1, N2, N3, N4, N5 = range(5)
RED, BLUE, GREEN, PURPLE, YELLOW = range(5, 10)


def card(colour: int, value: int) -> int:
    """Card type of a knight of `colour` (0..4) and `value` (1..5)."""
    return colour * 5 + value - 1


def act(card_type: int, spot: str) -> int:
    return card_type * 2 + (0 if spot == "number" else 1)


def scored(num_players: int, table: dict[int, list[int]], **rules) -> TabulaRasaState:
    """A finished game whose sides placed `table[territory][side]` (cards or value sums)."""
    state = GAME.new_state(num_players, 0, **rules)
    for hand in state.hands:
        hand.clear()
    state.deck.clear()
    state.tally = [0] * (state.sides * NUM_TERRITORIES)
    for terr, per_side in table.items():
        assert len(per_side) == state.sides
        for side, amount in enumerate(per_side):
            state.tally[side * NUM_TERRITORIES + terr] = amount
    state.ply = state.total_plies
    state.to_move = -1
    state._result = None
    assert state.is_terminal()
    return state


def random_game(num_players: int, seed: int, **rules) -> TabulaRasaState:
    return final(GAME, num_players, seed, rules=rules)


# --- components and setup ----------------------------------------------------------------

def test_components_fifty_knights_five_colours_values_one_to_five_twice():
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 50 and len(counts) == 25
    assert set(counts.values()) == {2}
    assert TERRITORY_POINTS == (1, 2, 3, 4, 5, 5, 5, 5, 5, 5)
    assert MAX_TOTAL_POINTS == 55


@pytest.mark.parametrize("n,deck", [(2, 32), (3, 24), (4, 16)])
def test_setup_remove_two_unseen_deal_eight_each_rest_is_draw_pile(n, deck):
    state = GAME.new_state(n, 11)
    assert [len(h) for h in state.hands] == [8] * n
    assert len(state.deck) == deck
    assert len(state.removed) == 2
    everything = Counter(state.deck) + Counter(state.removed)
    for hand in state.hands:
        everything += Counter(hand)
    assert everything == Counter(FULL_DECK)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ruling_A8_two_removed_cards_are_never_dealt_drawn_or_shown(n):
    for seed in range(5):
        state = GAME.new_state(n, seed)
        removed = list(state.removed)
        seen = [state.observation(seat) for seat in range(n)]
        state = random_game(n, seed)
        assert state.removed == removed
        played = Counter(a >> 1 for a in state.history)
        assert played + Counter(removed) == Counter(FULL_DECK)
        assert len(state.history) == 48
        for obs in seen:
            assert "removed" not in obs and obs["removed_count"] == 2


def test_ruling_A8_removed_cards_are_resampled_by_determinize():
    state = GAME.new_state(2, 3)
    worlds = {tuple(state.determinize(0, random.Random(k)).removed) for k in range(30)}
    assert len(worlds) > 1  # the seat does not know them
    world = state.determinize(0, random.Random(1))
    assert world.hands[0] == state.hands[0]


# --- turns -------------------------------------------------------------------------------

def test_turn_order_clockwise_from_seat_0_and_4p_alternates_teams():
    state = GAME.new_state(4, 5)
    order, sides = [], []
    while not state.is_terminal():
        order.append(state.current_player())
        sides.append(state.side_of[state.current_player()])
        state.apply_action(state.legal_actions()[0])
    assert order[:8] == [0, 1, 2, 3, 0, 1, 2, 3]  # A1, B1, A2, B2
    assert sides[:4] == [0, 1, 0, 1]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ruling_A11_drawing_stops_when_the_deck_is_empty_and_play_continues(n):
    state = GAME.new_state(n, 7)
    while not state.is_terminal():
        seat = state.current_player()
        before_hand, before_deck = len(state.hands[seat]), len(state.deck)
        state.apply_action(state.legal_actions()[-1])
        if before_deck:
            assert len(state.hands[seat]) == before_hand and len(state.deck) == before_deck - 1
        else:
            assert len(state.hands[seat]) == before_hand - 1 and not state.deck
    assert all(not h for h in state.hands) and not state.deck


@pytest.mark.parametrize("n,plays", [(2, 24), (3, 16), (4, 12)])
def test_ruling_A11_every_seat_plays_the_same_number_of_cards(n, plays):
    state = random_game(n, 2)
    per_seat = Counter(ply % n for ply in range(len(state.history)))
    assert all(per_seat[s] == plays for s in range(n))


def test_ruling_A6_card_goes_beside_its_number_or_its_colour_territory_on_own_side():
    state = GAME.new_state(3, 1)
    blue4 = card(1, 4)
    state.hands[0] = [blue4]
    state._legal_cache = None
    legal = state.legal_actions()
    assert sorted(territory_of(a) for a in legal) == [N4, BLUE]
    state.apply_action(act(blue4, "colour"))
    assert state.tally[0 * 10 + BLUE] == 1
    assert state.tally[1 * 10 + BLUE] == 0 and state.tally[2 * 10 + BLUE] == 0
    state.hands[1] = [blue4]
    state._legal_cache = None
    state.apply_action(act(blue4, "number"))
    assert state.tally[1 * 10 + N4] == 1 and state.tally[0 * 10 + N4] == 0


def test_ruling_A6_no_other_spot_is_legal_and_duplicate_cards_give_one_action_pair():
    state = GAME.new_state(2, 1)
    state.hands[0] = sorted([card(0, 1), card(0, 1), card(4, 5)])
    state._legal_cache = None
    assert state.legal_actions() == [act(card(0, 1), "number"), act(card(0, 1), "colour"),
                                     act(card(4, 5), "number"), act(card(4, 5), "colour")]
    with pytest.raises(ValueError):
        state.apply_action(act(card(2, 2), "number"))


def test_ruling_A4_three_players_each_have_their_own_side():
    state = GAME.new_state(3, 4)
    for seat in range(3):
        state.hands[seat] = [card(2, 3)] + state.hands[seat][1:]
        state._legal_cache = None
        state.apply_action(act(card(2, 3), "colour"))
    assert [state.tally[side * 10 + GREEN] for side in range(3)] == [1, 1, 1]


def test_ruling_A5_partners_place_on_one_team_side():
    state = GAME.new_state(4, 4)
    for seat in range(4):
        state.hands[seat] = [card(3, 2)] + state.hands[seat][1:]
        state._legal_cache = None
        state.apply_action(act(card(3, 2), "number" if seat % 2 == 0 else "colour"))
    assert state.tally[0 * 10 + N2] == 2 and state.tally[1 * 10 + PURPLE] == 2
    assert len(state.tally) == 20


# --- scoring -----------------------------------------------------------------------------

def test_scoring_most_cards_takes_the_territory_second_most_the_treasure():
    state = scored(3, {RED: [3, 1, 2], N4: [1, 2, 0]})
    b = state.score_breakdown()
    assert state.scores() == [6.0, 4.0, 1.0]
    assert b["territories_colour"] == [5, 0, 0] and b["territories_number"] == [0, 4, 0]
    assert b["treasures"] == [1, 0, 1]


def test_scoring_lone_contributor_gets_the_territory_and_the_treasure_goes_unclaimed():
    state = scored(3, {YELLOW: [0, 4, 0]})
    assert state.scores() == [0.0, 5.0, 0.0]
    assert state.scoring().treasure[YELLOW] == -1
    assert state.metrics()["treasures_unclaimed"] == 10


def test_scoring_no_cards_means_no_treasure_even_when_second_place_is_empty():
    state = scored(2, {N5: [2, 0]})
    assert state.scores() == [5.0, 0.0]
    assert state.score_breakdown()["treasures"] == [0, 0]


def test_scoring_territories_nobody_earns_are_removed():
    state = scored(2, {})
    assert state.scores() == [0.0, 0.0]
    assert state.winners() == [0, 1]
    assert state.metrics()["castle_awarded"] == 0


@pytest.mark.parametrize("n", [2, 3])
def test_ruling_A1_two_tied_for_most_each_get_one_point(n):
    per_side = [3, 3] + [1] * (n - 2)
    state = scored(n, {BLUE: per_side})
    b = state.score_breakdown()
    assert b["tied_territories"][:2] == [1, 1]
    assert b["territories_colour"] == [0] * n
    assert b["treasures"] == [0] * n  # the real treasure is the second 1-point tile
    assert state.scores() == [1.0, 1.0] + [0.0] * (n - 2)
    assert state.metrics()["two_way_ties"] == 1


def test_ruling_A2_two_tied_for_most_and_a_third_behind_gets_nothing():
    state = scored(3, {N3: [0, 2, 2], RED: [4, 1, 4]})
    assert state.scores() == [1.0, 1.0, 2.0]
    assert state.score_breakdown()["treasures"] == [0, 0, 0]


def test_ruling_A2_three_tied_for_most_nobody_scores_territory_or_treasure():
    state = scored(3, {GREEN: [2, 2, 2], N1: [1, 1, 1]})
    assert state.scores() == [0.0, 0.0, 0.0]
    assert state.metrics()["three_way_ties"] == 2
    assert state.winners() == [0, 1, 2]


def test_ruling_A2_unique_leader_with_two_tied_for_second_treasure_goes_to_nobody():
    state = scored(3, {PURPLE: [1, 3, 1]})
    assert state.scores() == [0.0, 5.0, 0.0]
    assert state.scoring().treasure[PURPLE] == -1


def test_ruling_A3_castle_to_first_to_win_two_number_territories_left_to_right():
    # side 1 wins numbers 1 and 3 (reaches two at territory 3); side 0 wins 2, 4 and 5.
    state = scored(3, {N1: [0, 2, 1], N2: [3, 0, 0], N3: [1, 2, 0], N4: [2, 1, 0],
                       N5: [2, 0, 1]})
    b = state.score_breakdown()
    assert b["castle"] == [0, 5, 0]
    assert b["territories_number"] == [2 + 4 + 5, 1 + 3, 0]
    assert state.scoring().castle == 1


def test_ruling_A3_tied_number_territories_do_not_count_towards_the_castle():
    # number 1 is tied (counts for nobody): side 0 reaches two wins at number 4, before
    # side 1 would reach two at number 5.
    state = scored(2, {N1: [1, 1], N2: [2, 1], N3: [0, 1], N4: [3, 0], N5: [0, 2]})
    assert state.score_breakdown()["castle"] == [5, 0]


def test_ruling_A3_castle_discarded_when_nobody_wins_two_number_territories():
    state = scored(3, {N1: [1, 1, 0], N2: [2, 0, 0], N3: [1, 1, 1], N4: [0, 2, 0],
                       N5: [0, 0, 3]})
    assert state.score_breakdown()["castle"] == [0, 0, 0]
    assert state.scoring().castle == -1
    assert state.metrics()["castle_awarded"] == 0


def test_ruling_A3_colour_territories_never_count_towards_the_castle():
    state = scored(2, {N1: [1, 0], RED: [2, 0], BLUE: [2, 0]})
    assert state.score_breakdown()["castle"] == [0, 0]


def test_ruling_A3_castle_rule_two_consecutive_variant():
    table = {N1: [2, 0], N2: [0, 1], N3: [1, 0], N4: [0, 3], N5: [1, 2]}
    first = scored(2, table)
    assert first.score_breakdown()["castle"] == [5, 0]  # side 0 has two at number 3
    consecutive = scored(2, table, castle_rule="two_consecutive")
    assert consecutive.score_breakdown()["castle"] == [0, 5]  # side 1 wins 4 and 5 in a row
    nobody = scored(2, {N1: [1, 0], N2: [0, 1], N3: [1, 0], N4: [0, 1], N5: [1, 0]},
                    castle_rule="two_consecutive")
    assert nobody.scoring().castle == -1


def test_ruling_A3_in_4p_partners_pool_number_territory_wins_for_the_castle():
    state = GAME.new_state(4, 9)
    plays = [(0, card(0, 1)), (1, card(0, 3)), (2, card(1, 2)), (3, card(2, 3))]
    for seat, knight in plays:
        assert state.current_player() == seat
        state.hands[seat] = [knight] + state.hands[seat][1:]
        state._legal_cache = None
        state.apply_action(act(knight, "number"))
    # team A (seats 0 and 2) has won numbers 1 and 2; team B leads number 3 with two cards.
    assert state.scoring().castle == 0
    assert state.score_breakdown()["castle"] == [5.0, 0.0, 5.0, 0.0]


def test_ruling_A5_partners_share_one_score_and_win_together():
    state = scored(4, {RED: [2, 1], N3: [1, 1]})
    assert state.scores() == [6.0, 2.0, 6.0, 2.0]  # red 5 + tie 1; treasure 1 + tie 1
    assert state.winners() == [0, 2]
    assert state.ranks() == [1, 3, 1, 3]


def test_ruling_A5_partner_signalling_is_not_supported():
    assert GAME.make_rules().allow_partner_signalling is False
    with pytest.raises(ValueError):
        GAME.make_rules(allow_partner_signalling="true")


def test_ruling_A7_majority_by_card_count_not_value():
    state = GAME.new_state(2, 3)
    red1, red5 = card(0, 1), card(0, 5)
    for seat, knight in [(0, red1), (1, red5), (0, red1)]:
        state.hands[seat] = [knight] + state.hands[seat][1:]
        state._legal_cache = None
        state.apply_action(act(knight, "colour"))
    assert state.scoring().owner[RED] == 0  # two cards beat one card worth more
    assert state.scoring().treasure[RED] == 1


def test_ruling_A7_value_sum_variant_compares_card_values():
    state = GAME.new_state(2, 3, majority_by="value_sum")
    red1, red5 = card(0, 1), card(0, 5)
    for seat, knight in [(0, red1), (1, red5), (0, red1)]:
        state.hands[seat] = [knight] + state.hands[seat][1:]
        state._legal_cache = None
        state.apply_action(act(knight, "colour"))
    assert state.tally[RED] == 2 and state.tally[10 + RED] == 5
    assert state.scoring().owner[RED] == 1


def test_ruling_A9_final_tie_is_a_shared_win_by_default():
    state = scored(2, {RED: [1, 1], BLUE: [2, 0], GREEN: [0, 2]})
    assert state.scores() == [6.0, 6.0]
    assert state.winners() == [0, 1]
    assert state.ranks() == [1, 1]


def test_ruling_A9_tiebreak_variant_more_territories_first():
    # 11 v 11: side 0 has two territories + a treasure, side 1 three territories, no castle
    table = {RED: [2, 0], BLUE: [2, 0], GREEN: [0, 1], YELLOW: [0, 1], N1: [1, 2]}
    assert scored(2, table).scores() == [11.0, 11.0]
    assert scored(2, table).winners() == [0, 1]
    assert scored(2, table, final_tie="tiebreak").winners() == [1]


def test_ruling_A9_tiebreak_variant_then_castle_holder():
    # 8 v 8 with two territories each: side 0 has 1 + 2 + castle, side 1 has 3 + red 5
    table = {N1: [2, 0], N2: [2, 0], N3: [0, 1], RED: [0, 1]}
    assert scored(2, table).scores() == [8.0, 8.0]
    assert scored(2, table).winners() == [0, 1]
    assert scored(2, table, final_tie="tiebreak").winners() == [0]


def test_ruling_A9_tiebreak_variant_still_shared_when_all_criteria_equal():
    table = {RED: [2, 0], BLUE: [2, 0], GREEN: [0, 1], YELLOW: [0, 1]}
    assert scored(2, table, final_tie="tiebreak").winners() == [0, 1]
    team = scored(4, table, final_tie="tiebreak")
    assert team.winners() == [0, 1, 2, 3]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_scoring_total_never_exceeds_the_55_points_of_the_tiles(n):
    sides = 2 if n == 4 else n
    # one side takes every territory alone: 40 + castle 5, treasures unclaimed
    alone = scored(n, {t: [3] + [0] * (sides - 1) for t in range(10)})
    assert sum(alone.scoring().totals) == 45
    # one side first everywhere, another second everywhere: all 55 points handed out
    full = scored(n, {t: [3, 1] + [0] * (sides - 2) for t in range(10)})
    assert sum(full.scoring().totals) == MAX_TOTAL_POINTS
