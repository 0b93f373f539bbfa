"""Hypothesis invariants for Tabula Rasa on random playouts under every rule option."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_game
from engines.tabula_rasa.actions import territory_of
from engines.tabula_rasa.components import MAX_TOTAL_POINTS, NUM_TERRITORIES
from engines.tabula_rasa.state import FULL_DECK
from tests.playouts import final, playout

GAME = get_game("tabula-rasa")

games = st.fixed_dictionaries({
    "n": st.integers(2, 4),
    "seed": st.integers(0, 2**32 - 1),
    "castle_rule": st.sampled_from(["first_to_two", "two_consecutive"]),
    "majority_by": st.sampled_from(["count", "value_sum"]),
    "final_tie": st.sampled_from(["draw", "tiebreak"]),
})


def _rules(g: dict) -> dict:
    return {k: g[k] for k in ("castle_rule", "majority_by", "final_tie")}


def _card_census(state) -> Counter:
    census = Counter(state.removed) + Counter(state.deck)
    for hand in state.hands:
        census += Counter(hand)
    census += Counter(action >> 1 for action in state.history)
    return census


@settings(max_examples=40, deadline=None)
@given(games)
def test_all_fifty_knights_accounted_for_at_every_step(g):
    removed = None
    for state in playout(GAME, g["n"], g["seed"], rules=_rules(g)):
        removed = removed or list(state.removed)
        assert _card_census(state) == Counter(FULL_DECK)
        assert state.removed == removed and len(removed) == 2
        placed = sum(len(cards) for side in state.placed() for cards in side)
        assert placed == len(state.history) == state.ply
    assert state.is_terminal() and not state.deck and all(not hand for hand in state.hands)


@settings(max_examples=40, deadline=None)
@given(games)
def test_scores_in_range_breakdown_sums_and_partners_share(g):
    state = final(GAME, g["n"], g["seed"], rules=_rules(g))
    scores = state.scores()
    result = state.scoring()
    assert all(0 <= s <= MAX_TOTAL_POINTS for s in scores)
    assert 0 <= sum(result.totals) <= MAX_TOTAL_POINTS
    breakdown = state.score_breakdown()
    assert set(breakdown) == {"territories_number", "territories_colour", "tied_territories",
                              "treasures", "castle"}
    for seat in range(g["n"]):
        assert sum(points[seat] for points in breakdown.values()) == scores[seat]
    assert sum(breakdown["castle"]) in (0, 5, 10)  # one recipient (x2 seats in 4p)
    assert result.castle in (-1, *range(state.sides))
    winners = state.winners()
    assert winners and all(scores[w] == max(scores) for w in winners)
    if g["n"] == 4:
        assert scores[0] == scores[2] and scores[1] == scores[3]
        assert (0 in winners) == (2 in winners) and (1 in winners) == (3 in winners)
        for points in breakdown.values():
            assert points[0] == points[2] and points[1] == points[3]


@settings(max_examples=30, deadline=None)
@given(games)
def test_each_placement_lands_on_the_own_side_at_a_matching_territory(g):
    placements = []  # (seat, action, tally before it)

    def placing(state, action):
        placements.append((state.current_player(), action, list(state.tally)))

    for state in playout(GAME, g["n"], g["seed"], rules=_rules(g), on_move=placing):
        if placements:
            seat, action, before = placements.pop()
            changed = [i for i in range(len(before)) if before[i] != state.tally[i]]
            assert changed == [state.side_of[seat] * NUM_TERRITORIES + territory_of(action)]
        if not state.is_terminal():
            hand = set(state.hands[state.current_player()])
            assert {a >> 1 for a in state.legal_actions()} == hand


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 47))
def test_determinize_keeps_public_info_and_own_hand(g, plies):
    state = final(GAME, g["n"], g["seed"], rules=_rules(g), max_moves=plies)
    seat = state.current_player()
    world = state.determinize(seat, random.Random(plies))
    assert world.observation(seat) == state.observation(seat)
    assert _card_census(world) == Counter(FULL_DECK)
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
