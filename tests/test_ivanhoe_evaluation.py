"""The evaluation that scores Ivanhoe rollouts cut at the end of a tournament: win chances
that sum to 1, favour the seat closest to winning, and value the cards kept in hand."""

from __future__ import annotations

import pytest

from engines.ivanhoe import GAME
from engines.ivanhoe.components import BLUE, G1, P7, PURPLE, R3, R4, RED, YELLOW
from engines.ivanhoe.evaluation import win_chances
from engines.ivanhoe.scenario import make

HAND = [R3, R4, G1, G1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_win_chances_sum_to_one_and_equal_seats_get_equal_chances(players):
    state = make(n=players, hands=[list(HAND) for _ in range(players)])
    state.starter = -1  # nobody starts the next tournament yet
    chances = win_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert chances == pytest.approx([1 / players] * players)
    assert GAME.mcts_evaluation is win_chances


def test_a_seat_one_token_from_winning_has_the_best_chance():
    tokens = [(1 << RED) | (1 << BLUE) | (1 << YELLOW), 1 << RED, 0, 1 << BLUE]
    state = make(n=4, hands=[list(HAND) for _ in range(4)], tokens=tokens)
    chances = win_chances(state)
    assert max(chances) == chances[0]
    assert chances[1] > chances[2]  # a token is worth more than none


def test_cards_kept_in_hand_are_worth_a_better_chance():
    hands = [list(HAND), list(HAND) + [P7, R4], list(HAND), list(HAND)]
    state = make(n=4, hands=hands)
    state.starter = -1
    chances = win_chances(state)
    assert chances[1] > chances[0] == pytest.approx(chances[2])


def test_the_purple_token_counts_more_than_another_colour():
    state = make(n=4, hands=[list(HAND) for _ in range(4)], tokens=[1 << PURPLE, 1 << RED, 0, 0])
    state.starter = -1
    chances = win_chances(state)
    assert chances[0] > chances[1] > chances[2]


def test_the_refit_tool_reads_every_tournament_boundary_and_fits_toward_the_winner():
    """`tools/fit_ivanhoe_evaluation.py`: one row of features per seat at each boundary, and a
    feature that marks the winner gets a positive weight, one that never differs none."""
    import numpy as np

    from engines.ivanhoe.evaluation import WEIGHTS
    from tools.fit_ivanhoe_evaluation import boundaries, fit

    x, y = boundaries(4, 2)
    assert x.shape[1:] == (4, len(WEIGHTS[4])) and len(y) == len(x) > 2
    rng = np.random.default_rng(0)
    marks = rng.random((200, 3, 2))
    winners = marks[:, :, 0].argmax(axis=1)  # the seat with the highest first feature wins
    marks[:, :, 1] = 1.0
    w = fit(marks, winners)
    assert w[0] > 1.0 and abs(w[1]) < 1e-3
