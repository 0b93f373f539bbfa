"""Hot Potato's invariants, on random playouts at every player count (hypothesis): no card
or chip is ever made or lost, hands never grow, and the score holds in its declared range."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_game

GAME = get_game("hot-potato")


def positions(players: int, seed: int):
    """Every position of a random playout."""
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        yield state


@settings(max_examples=30, deadline=None, database=None)
@given(players=st.integers(GAME.min_players, GAME.max_players), seed=st.integers(0, 2**32))
def test_every_card_is_in_exactly_one_place_and_every_chip_is_kept(players, seed):
    for state in positions(players, seed):
        cards = sorted(card for piles in state.zones.values() for pile in piles for card in pile)
        assert cards == list(range(1, 31))
        assert sum(state.counters["chips"]) + state.values["pot"] == 8 * players
        assert all(len(hand) <= 2 for hand in state.zones["hand"])


@settings(max_examples=30, deadline=None, database=None)
@given(players=st.integers(GAME.min_players, GAME.max_players), seed=st.integers(0, 2**32))
def test_final_scores_lie_in_the_declared_range_and_sum_their_sources(players, seed):
    *_, final = positions(players, seed)
    low, high = GAME.score_range
    for seat, score in enumerate(final.scores()):
        assert low <= score <= high
        assert score == sum(points[seat] for points in final.score_breakdown().values())
