"""Ninjato scoring scenarios: scoring phases after rounds 3/5/7 (3.8), final scoring and
tie-breaks (3.9)."""

from __future__ import annotations

import pytest

from engines.ninjato import scoring
from engines.ninjato.actions import (
    A_DISGUISE,
    A_HONOUR,
    A_RUMOUR,
    PH_DISGUISE,
    PH_REWARD1,
    PH_REWARD2,
)
from engines.ninjato.components import (
    E_DISGUISE,
    GOSHIRAKAWA,
    MINAMOTO,
    R_FRIENDS,
    R_KINDNESS,
    R_MASTER,
    R_SHAMEFUL,
    R_SWORDSMAN,
    TAIRA,
)
from engines.ninjato.scoring import set_multiplier
from tests.test_ninjato_rules import act, fresh, give_skill, legal


def envoys_of(s, clan, k, oldest_first=False, mask=None):
    """k envoy ids of a clan (youngest first unless oldest_first), optionally masked only."""
    ids = sorted((e for e in range(len(s.C.env_clan)) if s.C.env_clan[e] == clan
                  and (mask is None or s.C.env_mask[e] == mask)),
                 key=lambda e: s.C.env_age[e], reverse=oldest_first)
    return ids[:k]


def rumours_of(s, rtype, k):
    return [r for r in range(len(s.C.rum_type)) if s.C.rum_type[r] == rtype][:k]


def set_tokens(s, tokens):
    """tokens: five (clan, value) pairs for houses 0..4."""
    tv = s.C.token_values
    s.house_clan = [c for c, _ in tokens]
    s.house_token = [tv.index(v) for _, v in tokens]


def scoring_after(s, rnd):
    s.round = rnd
    s.dojo_stack = []
    s.start_scoring()


def test_majority_and_second_by_envoy_count():
    s = fresh(3)
    young = envoys_of(s, TAIRA, 3)
    s.envoys = [[young[0]], young[1:3], []]
    scoring_after(s, 3)
    i = s.C.round_orders[3].index(TAIRA)
    assert (s.first_places[i], s.second_places[i]) == (1, 0)


def test_influence_tie_goes_to_the_oldest_envoy_of_that_clan():
    s = fresh(2)
    m = envoys_of(s, MINAMOTO, 2)  # youngest first
    s.envoys = [[m[0]], [m[1]]]
    scoring_after(s, 3)
    i = s.C.round_orders[3].index(MINAMOTO)
    assert (s.first_places[i], s.second_places[i]) == (1, 0)


def test_ruling_A12_single_player_with_influence_gets_first_no_second():
    s = fresh(3)
    s.envoys = [[], envoys_of(s, GOSHIRAKAWA, 1), []]
    scoring_after(s, 3)
    i = s.C.round_orders[3].index(GOSHIRAKAWA)
    assert (s.first_places[i], s.second_places[i]) == (1, -1)


def test_disguise_adds_one_to_a_masked_envoy():
    s = fresh(2)
    masked = envoys_of(s, TAIRA, 1, mask=1)
    plain = envoys_of(s, TAIRA, 1, oldest_first=True, mask=0)  # older than the masked one
    s.envoys = [masked, plain]
    give_skill(s, 0, E_DISGUISE)
    scoring_after(s, 3)
    i = s.C.round_orders[3].index(TAIRA)
    assert s.disguised[0] == masked
    assert s.first_places[i] == 0  # 1 + 1 disguise beats 1
    # without the disguise the tie goes to seat 1's older envoy
    s2 = fresh(2)
    s2.envoys = [list(masked), list(plain)]
    scoring_after(s2, 3)
    assert s2.first_places[i] == 1


def test_disguise_choice_when_more_masks_than_tiles_is_declared_before_rewards():
    s = fresh(2)
    masks = [e for e in range(len(s.C.env_clan)) if s.C.env_mask[e]][:2]
    s.envoys = [masks, []]
    give_skill(s, 0, E_DISGUISE)
    scoring_after(s, 3)
    assert s.phase == PH_DISGUISE
    assert sorted(legal(s)) == sorted(A_DISGUISE + e for e in masks)
    act(s, A_DISGUISE + masks[1])
    assert s.disguised[0] == [masks[1]]


def test_first_chooses_honour_second_takes_the_rumour():
    s = fresh(2)
    set_tokens(s, [(TAIRA, 2), (TAIRA, 4), (MINAMOTO, 2), (MINAMOTO, 4), (GOSHIRAKAWA, 6)])
    g = envoys_of(s, GOSHIRAKAWA, 3)
    s.envoys = [g[:2], g[2:]]
    scoring_after(s, 3)  # round 3 order: Go-Shirakawa first
    assert s.phase == PH_REWARD1 and s.player == 0
    pav_before = len(s.pavilion)
    act(s, A_HONOUR)
    assert s.honour[0] == 6 and s.token_honour[0] == 6
    if s.phase == PH_REWARD2:  # several rumour types face up: the second picks one
        assert s.player == 1 and A_HONOUR not in legal(s)
        act(s, legal(s)[0])
    # the second takes the rumour left over (no immediate points)
    assert len(s.rumours[1]) == 1 and s.honour[1] == 0
    assert len(s.pavilion) == 4 and pav_before == 4  # refilled afterwards


def test_first_chooses_rumour_second_takes_the_honour():
    s = fresh(2)
    set_tokens(s, [(TAIRA, 2), (TAIRA, 4), (MINAMOTO, 2), (MINAMOTO, 4), (GOSHIRAKAWA, 6)])
    t = envoys_of(s, TAIRA, 3)
    s.envoys = [t[:2], t[2:]]
    scoring_after(s, 5)  # round 5 order: Taira first
    assert s.player == 0
    act(s, A_RUMOUR + 0)
    assert len(s.rumours[0]) == 1 and s.honour[0] == 0
    assert s.honour[1] == 6  # Taira 2 + 4


def test_ruling_A14_no_face_up_rumour_means_honour():
    s = fresh(2)
    s.envoys = [envoys_of(s, MINAMOTO, 1), []]
    s.pavilion = []
    s.rumour_deck = []
    scoring_after(s, 7)
    assert s.honour[0] == s.clan_honour(MINAMOTO) > 0


def test_scoring_phases_only_after_rounds_3_5_7_and_clan_order_of_the_track():
    s = fresh(2)
    assert s.C.round_orders == {3: (GOSHIRAKAWA, TAIRA, MINAMOTO),
                                5: (TAIRA, MINAMOTO, GOSHIRAKAWA),
                                7: (MINAMOTO, GOSHIRAKAWA, TAIRA)}
    s.envoys = [envoys_of(s, TAIRA, 1), []]
    for rnd in (1, 2, 4, 6):
        s.round = rnd
        s.end_round()
        assert s.honour[0] == 0 and s.leaders == []
    s.round = 3
    s.end_round()
    assert s.phase == PH_REWARD1 and s.player == 0
    act(s, A_HONOUR)
    assert s.leaders == [0] and s.round == 4
    for rnd in (5, 7):  # the later scoring phases too
        s = fresh(2)
        s.envoys = [envoys_of(s, TAIRA, 1), []]
        s.round = rnd
        s.end_round()
        assert s.phase == PH_REWARD1 and s.player == 0


# ---------------------------------------------------------------------------- final scoring
@pytest.mark.parametrize("count,mult", [(1, 1), (2, 2), (3, 4), (4, 5), (6, 8), (7, 9)])
def test_rumour_set_multipliers(count, mult):
    assert set_multiplier(count, (1, 2, 4)) == mult


def test_final_rumour_types_count_their_items():
    s = fresh(2)
    s.rumours = [rumours_of(s, R_KINDNESS, 3) + rumours_of(s, R_SWORDSMAN, 1)
                 + rumours_of(s, R_FRIENDS, 1), []]
    s.elites = [[0, 11], []]  # honour 1 + 2
    s.envoys = [envoys_of(s, TAIRA, 2), []]
    s.finish()
    f = s.final
    # kindness: 5 rumours x4 = 20; swordsman: 2 elites x1; friends: 2 envoys x1
    assert f["rumours"][0] == 20 + 2 + 2
    assert f["elite_guards"] == [3, 0]


def test_final_master_of_secret_arts_counts_every_tile_including_disguise():
    s = fresh(2)
    for e in (E_DISGUISE, 0, 3, 6):
        give_skill(s, 0, e)
    s.rumours = [rumours_of(s, R_MASTER, 4), []]  # a group of 3 (x4) and of 1 (x1)
    s.finish()
    assert s.final["rumours"][0] == 4 * 4 + 4 * 1


@pytest.mark.parametrize("holders,each", [(1, 6), (2, 4), (3, 2)])
def test_final_shameful_enemy(holders, each):
    s = fresh(4)
    sh = rumours_of(s, R_SHAMEFUL, 6)
    s.rumours = [sh[:2]] + [[sh[2 + i]] for i in range(holders - 1)] + [[]] * (4 - holders)
    s.finish()
    assert s.final["rumours"][0] == 2 * each
    if holders > 1:
        assert s.final["rumours"][1] == each


def test_final_unused_treasure_one_point_each_and_breakdown_sums():
    s = fresh(2)
    s.treasures = [[1, 2, 0, 1, 1], [0] * 5]
    s.honour = [10, 3]
    s.envoy_honour = [6, 3]
    s.token_honour = [4, 0]
    s.finish()
    assert s.final["unused_treasure"] == [5, 0]
    bd = s.score_breakdown()
    assert [sum(v[p] for v in bd.values()) for p in range(2)] == s.scores() == [15.0, 3.0]


def test_winner_tie_breaks_most_envoys_then_oldest_envoy():
    s = fresh(3)
    t = envoys_of(s, TAIRA, 4)
    s.envoys = [[t[0]], [t[1], t[2]], [t[3]]]
    s.envoy_honour = [10, 10, 10]
    s.finish()
    assert s.winners() == [1]
    s2 = fresh(2)
    s2.envoys = [[t[0]], [t[3]]]
    s2.envoy_honour = [10, 10]
    s2.finish()
    assert s2.winners() == [1]  # t[3] is older


def test_metrics_lead_changes_across_the_three_scoring_phases():
    s = fresh(2)
    s.leaders = [0, 1, 1]
    s.finish()
    assert s.metrics()["lead_changes"] == 1


# ------------------------------------------- the pure scoring functions on hand-made values
# envoys 0..6: clans (Taira, Taira, Minamoto, Minamoto, Go-Shirakawa, Taira, Taira), ages
ENV_CLAN = (TAIRA, TAIRA, MINAMOTO, MINAMOTO, GOSHIRAKAWA, TAIRA, TAIRA)
ENV_AGE = (10, 40, 20, 50, 30, 60, 5)
ENV_MASK = (1, 0, 1, 1, 0, 1, 0)
RUM_POINTS = (1, 1, 1, 1, 0)  # Swordsman, Kindness, Friends, Master per item; Shameful apart
SET_MULT = (1, 2, 4)
SHAMEFUL = (6, 4, 2)


def test_rule_3_8_influence_one_per_envoy_of_the_clan_plus_one_per_disguise():
    assert scoring.influence([0, 1, 2], [], TAIRA, ENV_CLAN) == 2
    assert scoring.influence([0, 1, 2], [0], TAIRA, ENV_CLAN) == 3
    assert scoring.influence([0, 1, 2], [0], MINAMOTO, ENV_CLAN) == 1
    assert scoring.influence([], [], GOSHIRAKAWA, ENV_CLAN) == 0


def test_ruling_A11_a_disguise_lifts_each_masked_envoy_once():
    assert scoring.masks_left([5, 1, 0, 2], [], ENV_MASK) == [0, 2, 5]  # 1 has no mask
    assert scoring.masks_left([5, 1, 0, 2], [2], ENV_MASK) == [0, 5]


def test_rule_3_8_rank_most_influence_first_and_second():
    envoys = [[0], [1, 5], [2]]
    assert scoring.rank_clan(envoys, [[], [], []], TAIRA, ENV_CLAN, ENV_AGE) == (1, 0)
    # seat 0's disguise on its masked Taira envoy: 2 against 2, seat 1 holds the oldest (60)
    assert scoring.rank_clan(envoys, [[0], [], []], TAIRA, ENV_CLAN, ENV_AGE) == (1, 0)
    # 1 + 1 disguise beats 1, however old the other envoy
    assert scoring.rank_clan([[0], [1]], [[0], []], TAIRA, ENV_CLAN, ENV_AGE) == (0, 1)


def test_rule_3_8_influence_tie_goes_to_the_oldest_envoy_of_that_clan():
    # one Taira envoy each: seat 0's is 40 years old, seat 1's 10; seat 1's Minamoto
    # envoy (50) is older still, but only the clan's own envoys break the tie
    envoys = [[1], [0, 3]]
    assert scoring.rank_clan(envoys, [[], []], TAIRA, ENV_CLAN, ENV_AGE) == (0, 1)
    assert scoring.rank_clan([[0, 3], [1]], [[], []], TAIRA, ENV_CLAN, ENV_AGE) == (1, 0)
    # two each: the oldest of each seat's envoys counts (60 beats 40), not the youngest
    assert scoring.rank_clan([[0, 1], [6, 5]], [[], []], TAIRA, ENV_CLAN, ENV_AGE) == (1, 0)


def test_ruling_A12_a_lone_seat_with_influence_is_first_and_nobody_is_second():
    envoys = [[], [4], []]
    assert scoring.rank_clan(envoys, [[], [], []], GOSHIRAKAWA, ENV_CLAN, ENV_AGE) == (1, -1)
    assert scoring.rank_clan(envoys, [[], [], []], TAIRA, ENV_CLAN, ENV_AGE) == (-1, -1)


def test_rule_3_8_first_place_honour_is_the_clan_tokens_now_on_houses():
    token_values = (2, 3, 4, 5, 6)
    house_clans = [TAIRA, MINAMOTO, TAIRA, GOSHIRAKAWA, TAIRA]
    house_tokens = [0, 4, 3, 1, 2]  # indices into token_values
    assert scoring.clan_honour(house_clans, house_tokens, TAIRA, token_values) == 2 + 5 + 4
    assert scoring.clan_honour(house_clans, house_tokens, MINAMOTO, token_values) == 6


@pytest.mark.parametrize("counts,items,holders,points", [
    # SEED: 3 Kindness + 2 other rumours = 5 rumours x 1 x4 = 20 (the others score apart)
    ([0, 3, 0, 0, 0], [0, 5, 0, 0], 0, 20),
    # SEED: 2 Master of Secret Arts with 4 tiles = 4 x2 = 8; 3 cards = 16
    ([0, 0, 0, 2, 0], [0, 0, 0, 4], 0, 8),
    ([0, 0, 0, 3, 0], [0, 0, 0, 4], 0, 16),
    # a 4th card starts a new group: x4 + x1
    ([0, 0, 0, 4, 0], [0, 0, 0, 4], 0, 20),
    # a Swordsman counts elites, Friends counts envoys
    ([1, 0, 2, 0, 0], [3, 3, 2, 0], 0, 3 * 1 + 2 * 2),
])
def test_rule_3_9_rumour_sets_score_items_times_the_set_multiplier(counts, items, holders,
                                                                   points):
    assert scoring.rumour_points(counts, items, holders, RUM_POINTS, SET_MULT,
                                 SHAMEFUL) == points


@pytest.mark.parametrize("mine,holders,points", [
    (2, 1, 12),  # SEED: alone with 2 you would get 12
    (2, 2, 8),   # SEED: you hold 2 and one rival holds 1: you get 8 ...
    (1, 2, 4),   # ... and the rival 4
    (2, 3, 4),   # three holders: 2 each
    (1, 4, 2),   # three or more
])
def test_rule_3_9_shameful_enemy_6_4_2_each_by_holders(mine, holders, points):
    counts = [0, 0, 0, 0, mine]
    assert scoring.rumour_points(counts, [9, 9, 9, 9], holders, RUM_POINTS, SET_MULT,
                                 SHAMEFUL) == points


def test_rule_3_9_rumour_counts_per_type_and_elite_honour():
    rum_type = (R_SWORDSMAN, R_KINDNESS, R_KINDNESS, R_SHAMEFUL, R_MASTER)
    assert scoring.rumour_counts([1, 2, 3, 0], rum_type) == [1, 2, 0, 0, 1]
    assert scoring.elite_honour([0, 2, 3], (1, 1, 2, 2)) == 1 + 2 + 2


def test_rule_3_9_winner_most_honour_then_most_envoys_then_oldest_envoy():
    assert scoring.winners([12.0, 15.0, 9.0], [[], [], []], ENV_AGE) == [1]
    # tied on honour: seat 2 has more envoys
    assert scoring.winners([15.0, 9.0, 15.0], [[0, 1], [], [2, 3, 4]], ENV_AGE) == [2]
    # tied on honour and envoys: seat 0 holds the oldest envoy (60 > 50)
    assert scoring.winners([15.0, 15.0], [[5], [3]], ENV_AGE) == [0]
    assert scoring.winners([15.0, 15.0], [[0, 3], [6, 1]], ENV_AGE) == [0]  # 50 > 40
    assert scoring.winners([15.0, 15.0], [[], []], ENV_AGE) == [0, 1]  # still tied: both


def test_ranks_competition_ranking_after_the_winners():
    assert scoring.ranks([10.0, 20.0, 10.0, 5.0], [1]) == [2, 1, 2, 4]
    # the tie-break's loser ranks behind the winner though tied on score
    assert scoring.ranks([20.0, 20.0, 5.0], [1]) == [2, 1, 3]


def test_lead_changes_leader_breaks_honour_ties_like_the_winner():
    assert scoring.leader([3, 7, 7], [[], [0], [1, 2]], ENV_AGE) == 2
    assert scoring.leader([3, 7, 7], [[], [5], [1]], ENV_AGE) == 1  # oldest envoy
    assert scoring.leader([0, 0], [[], []], ENV_AGE) == 0  # nobody ahead: the first seat
