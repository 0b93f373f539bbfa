"""Hypothesis invariants of Time Pirates on random playouts: token and deed conservation at
every step, termination, and scores recomputed from the scoring rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines.time_pirates import components as C
from engines.time_pirates.actions import ARROW, ATOMIC, BUY, END, MAX_SEATS, MOVE, PH_ACT
from tests.playouts import final, playout
from tests.test_time_pirates_rules import census

GAME = engines.get_game("time-pirates")
COMP = C.DEFAULT
SETTINGS = settings(max_examples=12, deadline=None)


def deed_census(state) -> list[int]:
    return [state.bazaar[t] + sum(d[t] for d in state.deeds) for t in range(len(COMP.deeds))]


def face_points(state, seat: int) -> int:
    return sum(COMP.deeds[t][1] * k for t, k in enumerate(state.deeds[seat]))


def expected_specials(state) -> tuple[list[int], list[int]]:
    """Set and majority bonuses straight from the rules text (P10, P11, P12)."""
    n = state.num_players
    per_colour = [[0] * 5 for _ in range(n)]
    has = [[False] * 5 for _ in range(n)]
    for p in range(n):
        whites = []
        for t, k in enumerate(state.deeds[p]):
            colour, points, _, _ = COMP.deeds[t]
            if colour == C.WHITE:
                whites += [points] * k
            elif k:
                per_colour[p][colour] += points * k
                has[p][colour] = True
        if any(has[p]):
            assert len(state.white_placements[p]) == len(whites)
            for points, colour in zip(whites, state.white_placements[p]):
                assert has[p][colour], "white deed on a colour the player does not own"
                per_colour[p][colour] += points
        else:
            assert state.white_placements[p] == []
    set_bonus = [2 if all(has[p]) else 0 for p in range(n)]
    majority = [0] * n
    for c in range(5):
        best = max(per_colour[p][c] for p in range(n))
        for p in range(n):
            if best > 0 and per_colour[p][c] == best:
                majority[p] += 2
    return set_bonus, majority


def reference_act_actions(state) -> set[int]:
    """The standard and special actions of the rules text, computed from scratch."""
    p = state.to_move
    h = state.hands[p]
    colour_held = [h[3 * c] + h[3 * c + 1] + h[3 * c + 2] for c in range(5)]
    white = h[C.WHITE_KIND]
    acts: set[int] = set()
    if state.standard_actions_left and state.forced_move:
        acts |= {MOVE, MOVE + 1}
    elif state.standard_actions_left:
        acts |= set(state.epochs[state.pawn_epoch[p]]) | {MOVE, MOVE + 1}  # take = the kind
        for t, (colour, _, cost, _) in enumerate(COMP.deeds):
            if not state.bazaar[t]:
                continue
            if colour == C.WHITE:
                budget = sum(1 for c in range(5) if colour_held[c]) + white
            else:
                budget = colour_held[colour] + white
            if budget >= cost:
                acts.add(BUY + t)
    else:
        acts.add(END)
    if not (state.standard_actions_left and state.forced_move):
        acts |= {ATOMIC + c for c in range(5) if h[3 * c + 1]}
    targets = [q for q in range(state.num_players) if q != p and any(state.hands[q])]
    acts |= {ARROW + c * MAX_SEATS + q for c in range(5) if h[3 * c + 2] for q in targets}
    return acts


def summaries(state) -> tuple:
    return (state.colour_counts, state.hand_size, state.atomic_colours, state.arrow_colours,
            state.seats_with_artifacts, state.epochs_with_space)


def checked_playout(n: int, seed: int, check_every_step: bool = True):
    """A random game; the components are counted after every move (`check_every_step`)
    and the seats' deed points at each year end are returned with the final position."""
    years_seen, deeds_at_year = 0, []
    for steps, state in enumerate(playout(GAME, n, seed, max_moves=20_000)):
        if steps == 0:
            tokens, deeds = census(state), deed_census(state)
            assert tokens == list(COMP.bag) and sum(deeds) == 37
            continue
        if check_every_step:
            assert census(state) == tokens
            assert deed_census(state) == deeds
            assert all(v >= 0 for h in state.hands for v in h)
            assert all(len(ep) <= s for ep, s in zip(state.epochs, COMP.spaces))
            assert sum(state.police_track) < COMP.police_per_year
            assert sorted(state.bag_tokens) == [k for k, c in enumerate(state.bag)
                                                for _ in range(c)]
            running = [list(x) if isinstance(x, list) else x for x in summaries(state)]
            state._resummarize()  # the running hand summaries equal a fresh count
            assert running == list(summaries(state))
            if state.phase == PH_ACT:
                legal = state.legal_actions()
                assert len(set(legal)) == len(legal)
                assert set(legal) == reference_act_actions(state)
        while state.year > years_seen:  # one refill can span two year ends
            years_seen += 1
            deeds_at_year.append([face_points(state, p) for p in range(n)])
    assert state.is_terminal(), "random play did not terminate"
    return state, deeds_at_year


@SETTINGS
@given(n=st.integers(3, 6), seed=st.integers(0, 2**31))
def test_tokens_and_deeds_are_conserved_at_every_step_and_play_terminates(n, seed):
    state, _ = checked_playout(n, seed)
    assert state.year == 3 and state.current_player() == -1


@SETTINGS
@given(n=st.integers(3, 6), seed=st.integers(0, 2**31))
def test_scores_match_the_scoring_rules(n, seed):
    state, deeds_at_year = checked_playout(n, seed, check_every_step=False)
    # a deed scores its face value at every year end after it was bought; the last year's
    # deeds are the final holdings (no purchase happens after the 8th token of year 3)
    assert state.year_scores == deeds_at_year
    assert deeds_at_year[-1] == [face_points(state, p) for p in range(n)]
    set_bonus, majority = expected_specials(state)
    breakdown = state.score_breakdown()
    assert breakdown["set_bonus"] == [float(v) for v in set_bonus]
    assert breakdown["majority"] == [float(v) for v in majority]
    totals = [sum(y[p] for y in deeds_at_year) + set_bonus[p] + majority[p] for p in range(n)]
    assert state.scores() == [float(t) for t in totals]
    best = max(totals)
    top = [p for p in range(n) if totals[p] == best]
    most = max(sum(state.deeds[p]) for p in top)
    assert state.winners() == [p for p in top if sum(state.deeds[p]) == most]


@SETTINGS
@given(n=st.integers(3, 6), seed=st.integers(0, 2**31))
def test_clone_and_determinize_keep_the_census(n, seed):
    state = final(GAME, n, seed, max_moves=random.Random(seed).randrange(40, 400))
    if state.is_terminal():
        return
    seat = state.current_player()
    world = state.determinize(seat, random.Random(seed + 1))
    assert census(world) == census(state) == list(COMP.bag)
    assert deed_census(world) == deed_census(state)
    assert world.observation(seat) == state.observation(seat)
