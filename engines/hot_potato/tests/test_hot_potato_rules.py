"""Hot Potato's rules (`docs/tutorial.md`), one scenario test per rule: each sets up the exact
situation on the table, plays the move and checks the outcome."""

from __future__ import annotations

import pytest

from engines import get_game

GAME = get_game("hot-potato")
STATE = type(GAME.new_state(3, 0))
PAY, TAKE, OFFER = STATE.layout.actions.offsets


def table(potato: int, hands: list[list[int]], deck: list[int] | None = None,
          chips: list[int] | None = None, pot: int = 0, to_move: int = 0):
    """A 3-player position with the given potato, hands, deck (top card last) and chips."""
    state = GAME.new_state(len(hands), 1)
    state.zones["potato"] = [[potato]]
    state.zones["hand"] = [sorted(hand) for hand in hands]
    state.zones["deck"] = [list(deck or [])]
    state.counters["chips"] = list(chips or [8] * len(hands))
    state.values["pot"] = pot
    state.to_move = to_move
    return state


def test_setup_removes_cards_unseen_deals_the_hands_and_turns_up_a_potato():
    state = GAME.new_state(4, 7)
    assert len(state.cards("removed")) == 5
    assert [len(state.cards("hand", seat)) for seat in range(4)] == [2, 2, 2, 2]
    assert len(state.cards("potato")) == 1 and len(state.cards("deck")) == 30 - 5 - 8 - 1
    assert state.counters["chips"] == [8, 8, 8, 8] and state.to_move == 0


def test_paying_puts_a_chip_on_the_potato_and_passes_it_to_the_next_seat():
    state = table(12, [[3, 4], [5, 6], [7, 8]], pot=2)
    state.apply_action(PAY)
    assert state.counters["chips"][0] == 7 and state.values["pot"] == 3
    assert state.to_move == 1 and state.cards("potato") == [12]


def test_a_seat_without_chips_must_take():
    state = table(12, [[3, 4], [5, 6], [7, 8]], chips=[0, 8, 8])
    assert state.legal_actions() == [TAKE]


def test_taking_wins_the_potato_and_its_chips_then_the_taker_offers_a_card():
    state = table(12, [[3, 4], [5, 6], [7, 8]], pot=3)
    state.apply_action(TAKE)
    assert state.cards("taken", 0) == [12] and state.counters["chips"][0] == 11
    assert state.values["pot"] == 0 and state.to_move == 0
    assert state.legal_actions() == [OFFER + 3, OFFER + 4]


def test_the_offered_card_is_the_next_potato_and_the_taker_draws_a_card():
    state = table(12, [[3, 4], [5, 6], [7, 8]], deck=[20, 9])
    state.apply_action(TAKE)
    state.apply_action(OFFER + 4)
    assert state.cards("potato") == [4] and state.cards("hand", 0) == [3, 9]
    assert state.to_move == 1


def test_the_game_ends_when_the_taker_has_no_card_to_offer():
    state = table(12, [[], [5], [7]])
    state.apply_action(TAKE)
    assert state.is_terminal() and state.legal_actions() == []


def test_a_run_of_taken_cards_scores_only_its_lowest_card():
    state = table(12, [[], [5], [7]])
    state.zones["taken"][0] = [3, 4, 5, 9]
    state.apply_action(TAKE)  # takes 12: 3 + 9 + 12
    assert state.score_breakdown()["taken cards"][0] == 24


def test_cards_left_in_hand_count_against_their_holder_and_chips_take_points_off():
    state = table(12, [[], [5, 6], [7]], chips=[1, 2, 3])
    state.apply_action(TAKE)
    breakdown = state.score_breakdown()
    assert breakdown["cards in hand"] == [0, 11, 7]
    assert breakdown["chips"] == [-1, -2, -3]
    assert state.scores() == [11, 9, 4]


def test_the_fewest_penalty_points_win_and_a_tie_is_shared():
    state = table(12, [[], [9], [9]], chips=[0, 0, 0])
    state.apply_action(TAKE)
    assert state.scores() == [12, 9, 9]
    assert state.winners() == [1, 2] and state.ranks() == [3, 1, 1]


def test_seat_bonus_gives_a_seat_extra_chips_at_the_start():
    state = GAME.new_state(3, 7, seat_bonus="0,1,2")
    assert state.counters["chips"] == [8, 9, 10]


def test_starting_player_last_lets_the_last_seat_begin_with_the_same_deal():
    first, last = GAME.new_state(5, 7), GAME.new_state(5, 7, starting_player="last")
    assert last.to_move == 4 and first.zones == last.zones


@pytest.mark.parametrize("options", [{"cards": 19}, {"cards": 41}, {"hand": 0}, {"chips": -1}])
def test_a_deck_too_small_for_seven_hands_or_other_impossible_options_are_refused(options):
    with pytest.raises(ValueError):
        GAME.make_rules(**options)
