"""Hypothesis invariants of Ivanhoe on random playouts: cards, tokens, totals, termination."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_game
from engines.ivanhoe.actions import PH_PLAY
from engines.ivanhoe.cards import PLAYABLE, targets
from engines.ivanhoe.components import (
    BREAK_LANCE,
    DODGE,
    IVANHOE,
    KNOCK_DOWN,
    MAIDEN6,
    STUNNED,
    VALUE,
)
from engines.ivanhoe.scenario import FULL, census
from tests.playouts import playout

GAME = get_game("ivanhoe")
RULE_SETS = st.sampled_from([
    {},
    {"allow_ties": True},
    {"charge_counts_shielded": True, "shield_blocks_knock_down": False},
    {"outwit_ignores_shield": True},
])


def _check(state) -> None:
    assert census(state) == FULL, "a card appeared or vanished"
    for c in range(5):
        owners = sum((t >> c) & 1 for t in state.tokens)
        assert owners + state.pool[c] == 5, "tokens not conserved"
    assert state.vsum == [sum(VALUE[c] for c in d) for d in state.displays]
    for p in range(state.num_players):
        assert not Counter(state.known[p]) - Counter(state.hands[p]), "known card not in hand"
        assert state.displays[p].count(MAIDEN6) <= 1
        if not state.active[p] and state.colour >= 0:
            assert state.displays[p] == []
    assert state.shield_seat == -1 or state.active[state.shield_seat]
    if state.phase == PH_PLAY:  # the fast legality check agrees with the full target list
        for card in (BREAK_LANCE, DODGE, KNOCK_DOWN, STUNNED):
            assert PLAYABLE[card](state, state.turn) == bool(targets(state, state.turn, card))
    assert state.stunned_seat == -1 or state.active[state.stunned_seat]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 5), options=RULE_SETS)
def test_random_playout_keeps_every_card_and_token_and_ends(seed, n, options):
    for state in playout(GAME, n, seed, rules=options, max_moves=GAME.max_decisions - 1):
        _check(state)
        legal = state.legal_actions()
        assert state.is_terminal() or legal and len(set(legal)) == len(legal)
    assert state.is_terminal()
    scores = state.scores()
    assert all(0 <= s <= 5 for s in scores)
    if not state.stalled:
        assert max(scores) == state.target
        assert len(state.winners()) == 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 5), cut=st.floats(0.05, 0.95))
def test_determinize_keeps_public_cards_and_hand_sizes(seed, n, cut):
    history = [state.clone() for state in playout(GAME, n, seed) if not state.is_terminal()]
    probe = history[int(len(history) * cut)]
    seat = probe.current_player()
    world = probe.determinize(seat, random.Random(seed))
    assert census(world) == FULL
    assert world.hands[seat] == probe.hands[seat]
    assert [len(h) for h in world.hands] == [len(h) for h in probe.hands]
    assert world.displays == probe.displays and world.discard == probe.discard
    for p in range(n):
        assert not Counter(probe.known[p]) - Counter(world.hands[p])
    if IVANHOE in probe.hands[seat]:
        assert all(IVANHOE not in world.hands[p] for p in range(n) if p != seat)
