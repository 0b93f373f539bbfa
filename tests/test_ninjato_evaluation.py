"""What a cut-off `mcts` rollout is worth in Ninjato: honour plus the fitted worth of what each
seat holds that will still score (`engines.ninjato.evaluation`)."""

from __future__ import annotations

import random

import pytest

from engines.bots import make_bot
from engines.ninjato import GAME
from engines.ninjato.actions import PH_REWARD1
from engines.ninjato.components import GOSHIRAKAWA, R_KINDNESS, TAIRA
from engines.ninjato.evaluation import (
    FEATURES,
    WEIGHTS,
    cutoff_value,
    estimated_points,
    features,
)
from engines.ninjato.state import ROUNDS
from tests.test_ninjato_rules import fresh
from tests.test_ninjato_scoring import envoys_of, rumours_of, scoring_after, set_tokens

JADE = 3
FAVOUR_NEXT = FEATURES.index("favour_next")
FAVOUR_LATER = FEATURES.index("favour_later")


def _heuristic_position(seed: int, decisions: int):
    """The position after `decisions` moves of default heuristics (or the game's end)."""
    state = GAME.create_state(4, seed, GAME.Rules())
    bot = make_bot("heuristic", GAME)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(bot.choose(state, rng))
    return state


def test_weights_have_one_row_per_round_and_one_weight_per_feature():
    assert len(WEIGHTS) == ROUNDS
    assert all(len(row) == len(FEATURES) for row in WEIGHTS)


def test_honour_counts_point_for_point():
    """Seats alike but for their honour: the estimates differ by exactly that honour."""
    s = fresh(4)
    s.honour = [10, 0, 0, 3]
    est = estimated_points(s)
    assert est[0] - est[1] == pytest.approx(10) and est[3] - est[1] == pytest.approx(3)
    assert cutoff_value(s) == pytest.approx([1.0, 0.0, 0.0, 0.3])


@pytest.mark.parametrize("rnd", range(1, ROUNDS + 1))
def test_treasure_held_is_worth_more_than_none_in_every_round(rnd):
    s = fresh(4)
    s.round = rnd
    s.treasures[1][JADE] = 1
    est = estimated_points(s)
    assert est[1] > est[2] == pytest.approx(est[3])


def test_clan_favour_goes_to_first_place_in_full_and_to_second_place_by_half():
    """Before the round-3 scoring: one Taira envoy each for seats 0 and 1, seat 0's the older
    (3.8.3), so seat 0 is first and seat 1 second; Taira holds 2+4 on houses now."""
    s = fresh(4)
    s.round = 3
    young, old = envoys_of(s, TAIRA, 2)
    s.envoys = [[old], [young], [], []]
    set_tokens(s, [(TAIRA, 2), (TAIRA, 4), (1, 2), (1, 4), (GOSHIRAKAWA, 6)])
    feats = features(s)
    assert [f[FAVOUR_NEXT] for f in feats] == [6.0, 3.0, 0.0, 0.0]
    assert [f[FAVOUR_LATER] for f in feats] == [12.0, 6.0, 0.0, 0.0]  # rounds 5 and 7 to come
    est = estimated_points(s)
    assert est[0] > est[1] > est[2]
    set_tokens(s, [(TAIRA, 8), (TAIRA, 10), (1, 2), (1, 4), (GOSHIRAKAWA, 6)])
    richer = estimated_points(s)
    assert richer[0] - richer[2] > est[0] - est[2]  # more of the clan's tokens on houses


def test_a_scoring_phase_in_progress_counts_the_rewards_still_to_give():
    """Round 3's scoring waits on Go-Shirakawa's first place (seat 1) to choose: seat 1 is
    owed the clan's honour, seat 2 (second) half of it; only rounds 5 and 7 are later."""
    s = fresh(4)
    young, old = envoys_of(s, GOSHIRAKAWA, 2)
    s.envoys = [[], [old], [young], []]
    scoring_after(s, 3)
    assert s.phase == PH_REWARD1 and s.player == 1
    honour = s.clan_honour(GOSHIRAKAWA)
    feats = features(s)
    assert [f[FAVOUR_NEXT] for f in feats] == [0.0, honour, 0.5 * honour, 0.0]
    assert feats[1][FAVOUR_LATER] == 2 * honour


def test_rumours_count_what_they_would_score_at_the_end_now():
    """Two Kindness cards count 2 rumours x1 point x2 (the multiplier of a pair) = 4."""
    s = fresh(4)
    s.rumours[2] = rumours_of(s, R_KINDNESS, 2)
    assert features(s)[2][FEATURES.index("rumour_points")] == 4.0


def test_a_finished_game_is_worth_its_final_scores():
    s = _heuristic_position(3, 100_000)
    assert s.is_terminal()
    assert estimated_points(s) == s.scores()


def test_the_evaluation_reads_only_the_world_it_is_given():
    """It changes nothing, draws no chance, and of the hidden hands reads only their sizes:
    every sampled world of what a seat sees is worth the same."""
    s = _heuristic_position(5, 120)
    before = (s.observation(0), s.rng.getstate())
    value = cutoff_value(s)
    assert (s.observation(0), s.rng.getstate()) == before
    seat = s.current_player()
    for k in range(3):
        assert cutoff_value(s.determinize(seat, random.Random(k))) == pytest.approx(value)


def test_mcts_scores_a_cut_rollout_with_the_evaluation():
    """The default `mcts` backs up `cutoff_value` where a rollout is cut; `evaluation=scores`
    the normalized honour."""
    assert GAME.mcts_evaluation is cutoff_value
    s = _heuristic_position(7, 150)
    cut = make_bot("mcts:rollout_depth=1", GAME).rollout(s.clone(), random.Random(0))
    after = s.clone()
    after.apply_action(make_bot("heuristic", GAME).choose(after, random.Random(0)))
    assert cut == cutoff_value(after)
    plain = make_bot("mcts:rollout_depth=1,evaluation=scores", GAME)
    lo, hi = min(after.honour), max(after.honour)
    assert plain.rollout(s.clone(), random.Random(0)) == [(h - lo) / (hi - lo)
                                                         for h in after.honour]


def test_the_refit_tool_takes_every_seats_features_and_recovers_a_linear_rest_of_score():
    """`tools/fit_ninjato_evaluation.py`: one row per seat per snapshot, and least squares
    gives back the weights of an exactly linear target (the intercept dropped)."""
    import numpy as np

    from tools.fit_ninjato_evaluation import fit, snapshots

    x, y, rounds = snapshots(1, 50)
    assert x.shape[1] == len(FEATURES) and len(x) == len(y) == len(rounds)
    assert len(x) % 4 == 0 and set(rounds) <= set(range(1, ROUNDS + 1))
    rng = np.random.default_rng(0)
    xs = rng.random((300, 3))
    coef, r2 = fit(xs, xs @ np.array([2.0, -1.0, 0.5]) + 7.0)
    assert coef == pytest.approx([2.0, -1.0, 0.5]) and r2 == pytest.approx(1.0)
