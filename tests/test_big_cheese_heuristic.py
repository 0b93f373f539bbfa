"""The default Big Cheese heuristic re-rolls a roll below expectation.

MCTS re-rolled about twice as often per game as the old default (`heuristic:v1`, which
re-rolled only a roll a quarter of a 20 short), and re-rolling more won in duplicate play.
"""

from __future__ import annotations

import random

from engines import get_game
from engines.big_cheese.actions import ACT_BIG_CHEESE, ACT_KEEP, PASS, ROLL
from engines.big_cheese.components import VETO
from engines.bots import make_bot
from tests.test_big_cheese_rules import Dice, play, setup


def _roll_of_a_10(first_die: int):
    """Seat 0 (one Big Cheese) wins an award that matures its 10-project (d6: expects 35)."""
    state = setup(deck=[2, 4], projects={0: [(10, 1)]}, pool=[9, 10, 10, 10],
                  cheeses=[1, 0, 0, 0])
    state.rng = Dice((first_die, 6))
    play(state, PASS, 1, PASS, PASS)
    assert state.phase == ROLL and state.current_player() == 0
    assert state.roll_points == 10 * first_die
    return state


def _choice(spec, state):
    return make_bot(spec, get_game("big-cheese")).choose(state, random.Random(0))


def test_big_cheese_rerolls_a_20_on_a_10_project_the_old_default_kept_it():
    """A roll of 2 on a 10 scores 20 against 35 expected: the new default re-rolls it."""
    assert _choice("heuristic", _roll_of_a_10(2)) == ACT_BIG_CHEESE
    assert _choice("heuristic:v1", _roll_of_a_10(2)) == ACT_KEEP


def test_big_cheese_keeps_a_roll_above_expectation():
    assert _choice("heuristic", _roll_of_a_10(4)) == ACT_KEEP


def test_aggressive_style_keeps_its_old_reroll_rule():
    assert _choice("heuristic:aggressive", _roll_of_a_10(2)) == ACT_KEEP


def _opening_bid(players: int, spec: str = "heuristic", card: int = 4) -> int:
    """Seat 0 opens the auction for a card (nothing bid yet, ten chips each)."""
    state = setup(n=players, deck=[2, card], pool=[10] * players)
    return _choice(spec, state)


def test_default_jumps_to_its_budget_from_four_players_and_raises_by_one_at_three():
    """A lone jumper won about twice its share against a table of minimum raisers at four
    players and more, a lone minimum raiser beat a table of jumpers at three: the default
    opens at its whole budget from four players up, at the minimum below."""
    assert _opening_bid(3) == 1
    assert _opening_bid(4) > 1
    assert _opening_bid(4) == _opening_bid(4, "heuristic:aggressive,curve=0.9")
    assert _opening_bid(4, "heuristic:v3") == 1  # the previous default raised by one


def test_default_budget_grows_with_each_player_above_four():
    assert _opening_bid(4) < _opening_bid(5) < _opening_bid(6)
    assert _opening_bid(6, "heuristic:share_step=0") == _opening_bid(4)


def test_default_bids_no_more_than_the_richest_rival_still_in_can_reach():
    """A rival can bid its free chips at most and must beat the high bid, so a bid of the
    most free chips of any rival still in wins as surely as the whole budget: the default
    stops there (a lone mcts seat bid just that much instead of the old default's budget)."""
    state = setup(deck=[2, 20], pool=[10, 4, 6, 3],
                  projects={1: [(8, 6)], 2: [(6, 4)], 3: [(12, 7)]})
    assert _choice("heuristic", state) == 6
    assert _choice("heuristic:v4", state) == 10  # the old default: its whole budget


def test_default_ignores_the_chips_of_rivals_who_passed():
    """Seats 1 and 2 passed (9 and 6 free), seat 3 bid 1 of its 3: 3 chips win the 20."""
    state = setup(deck=[2, 20], leader=1, pool=[10, 9, 6, 3],
                  projects={1: [(8, 1)], 2: [(6, 4)], 3: [(12, 7)]})
    play(state, PASS, PASS, 1)
    assert state.current_player() == 0
    assert _choice("heuristic", state) == 3
    assert _choice("heuristic:v4", state) == 10


def test_default_gives_cheap_cards_a_chip_more_budget():
    """A lone mcts seat outbid the old default's budget by one chip on cheap cards: the
    budget now grows as the card's expected points to the power 0.9, so a 2 and a 6 get a
    chip more, while a 20 still takes every free chip."""
    assert [_opening_bid(4, card=c) for c in (2, 6, 20)] == [3, 7, 10]
    assert [_opening_bid(4, "heuristic:v4", card=c) for c in (2, 6, 20)] == [2, 6, 10]


def test_default_bids_three_chips_for_a_veto():
    """A lone mcts seat outbid the table's two chips for a Veto more often than any other
    budget: the default values a Veto at 0.3 of a mean number card, three chips."""
    assert _opening_bid(4, card=VETO) == 3
    assert _opening_bid(4, "heuristic:v4", card=VETO) == 2
