"""What a cut-off `mcts` rollout is worth in The Big Cheese: points plus the expected points of
the number projects on the table, discounted per award they still wait
(`engines.big_cheese.evaluation`)."""

from __future__ import annotations

import random

import pytest

from engines import get_game
from engines.big_cheese.components import BIG_CHEESE, VETO
from engines.big_cheese.evaluation import DISCOUNT, cutoff_value, estimated_points
from engines.bots import make_bot
from tests.test_big_cheese_rules import setup


def test_a_project_counts_at_its_expected_points_discounted_per_award_to_wait():
    """d6: a 20 pays 3.5 x 20 = 70 on average; a Veto or Big Cheese project pays no points."""
    state = setup(projects={0: [(20, 3)], 1: [(VETO, 1), (BIG_CHEESE, 2)], 2: [(4, 1), (6, 5)]},
                  points=[10, 40, 0, 0])
    d = DISCOUNT
    expected = [10 + 70 * d**3, 40.0, 14 * d + 21 * d**5, 0.0]
    assert estimated_points(state) == pytest.approx(expected)
    assert cutoff_value(state) == pytest.approx([x / expected[0] for x in expected])


def test_the_sooner_a_project_matures_the_more_it_is_worth():
    soon = estimated_points(setup(projects={0: [(12, 1)]}))[0]
    late = estimated_points(setup(projects={0: [(12, 6)]}))[0]
    assert 0 < late < soon < 3.5 * 12


def test_polyhedral_projects_count_at_their_dies_mean():
    state = setup(projects={1: [(20, 2), (2, 1)]}, points=[5, 0, 0, 0], dice="polyhedral")
    assert estimated_points(state) == pytest.approx([5.0, 10.5 * DISCOUNT**2 + 1.5 * DISCOUNT,
                                                     0.0, 0.0])


def test_exact_n_counts_the_points_alone():
    """Exact-30: a project may overshoot and score nothing, so only points count."""
    state = setup(projects={0: [(20, 2)]}, points=[12, 3, 0, 0], dice="polyhedral", exact=30)
    assert estimated_points(state) == [12.0, 3.0, 0.0, 0.0]


def test_equal_estimates_are_worth_a_half_each():
    assert cutoff_value(setup(points=[7, 7, 7, 7])) == [0.5] * 4


def test_mcts_scores_a_cut_rollout_with_the_evaluation():
    """The default `mcts` backs up `cutoff_value` where a rollout is cut; `evaluation=scores`
    the normalized points (here every seat holds 0 points, so 0.5 each)."""
    game = get_game("big-cheese")
    # seat 1's six chips on its project come out of its ten (chips are conserved per seat)
    state = setup(deck=[2, 4, 6, 8, 10, 12, 20, 20], projects={1: [(20, 6)]},
                  pool=[10, 4, 10, 10])
    assert game.mcts_evaluation is cutoff_value
    cut = make_bot("mcts:rollout_depth=1", game).rollout(state.clone(), random.Random(0))
    assert cut[1] == 1.0 and cut == cutoff_value(_after_one_heuristic_action(game, state))
    plain = make_bot("mcts:rollout_depth=1,evaluation=scores", game)
    assert plain.rollout(state.clone(), random.Random(0)) == [0.5] * 4


def _after_one_heuristic_action(game, state):
    world = state.clone()
    world.apply_action(make_bot("heuristic", game).choose(world, random.Random(0)))
    return world
