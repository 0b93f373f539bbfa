"""The default Big Cheese heuristic re-rolls a roll below expectation.

MCTS re-rolled about twice as often per game as the old default (`heuristic:v1`, which
re-rolled only a roll a quarter of a 20 short), and re-rolling more won in duplicate play.
"""

from __future__ import annotations

import random

from engines import get_game
from engines.big_cheese.actions import ACT_BIG_CHEESE, ACT_KEEP, PASS, ROLL
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
