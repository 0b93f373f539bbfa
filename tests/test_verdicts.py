"""The verdict layer on hand-made numbers: each wording follows from its intervals and tests."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analysis.stats import balance, verdicts


def units(*rows: tuple[str, float, float, float], fair: float = 0.25, p=None) -> pd.DataFrame:
    """Seats (label, share, low, high) against `fair`; p-values optional."""
    frame = pd.DataFrame(rows, columns=["seats", "win_share", "ci_low", "ci_high"])
    frame["fair"] = fair
    frame["mde"] = 0.06
    if p is not None:
        frame["p_adjusted"] = p
    return frame


def test_equivalence_boundary_counts_as_inside():
    # fair 25%, tolerance 1.2: the band is 20.83-30%
    inside = units(("seat 1", 0.26, 0.25 / 1.2, 0.30), ("seat 2", 0.24, 0.21, 0.29),
                   p=[1.0, 1.0])
    v = verdicts.equivalence(inside, tolerance=1.2)
    assert v.claim.startswith("balanced within ×1.2 of the fair 25.0% (20.8–30.0%)")
    assert "between -4.2 and +5.0 points" in v.claim
    assert verdicts.balance_category(v) == "balanced"
    assert "80% of the time" in v.planning and "larger than" not in v.planning


def test_equivalence_just_outside_the_tolerance_cannot_tell():
    outside = units(("seat 1", 0.26, 0.21, 0.301), ("seat 2", 0.24, 0.21, 0.29), p=[0.3, 0.6])
    v = verdicts.equivalence(outside, tolerance=1.2)
    assert v.claim.startswith("cannot tell: the seat edges lie between -4.0 and +5.1 points")
    assert "seat 1 [-4.0, +5.1]" in v.claim
    assert v.numbers["balanced"] == 0.0 and verdicts.balance_category(v) == "cannot tell"


def test_equivalence_a_significant_seat_inside_the_tolerance_is_a_small_real_edge():
    # two players: seat 2 three points behind, clearly off fair, well inside 41.7-60%
    table = units(("seat 1", 0.53, 0.521, 0.539), ("seat 2", 0.47, 0.461, 0.479), fair=0.5,
                  p=[1e-9, 1e-9])
    v = verdicts.equivalence(table)
    assert v.claim.startswith("a small real edge, inside the tolerance: seat 1's edge +3.0 "
                              "points [+2.1, +3.9]; seat 2's shortfall -3.0 points")
    assert "balanced" not in v.claim
    assert verdicts.balance_category(v) == "small real edge"
    assert v.numbers["balanced"] == 0.0 and v.numbers["inside"] == 1.0


def test_equivalence_a_seat_wholly_beyond_the_tolerance_is_unbalanced():
    table = units(("seat 1", 0.33, 0.31, 0.35), ("seat 2", 0.22, 0.19, 0.25), p=[0.001, 0.2])
    v = verdicts.equivalence(table, tolerance=1.2)
    assert v.claim == ("unbalanced: seat 1's edge +8.0 points [+6.0, +10.0]; beyond the "
                       "tolerance ×1.2 of the fair 25.0% (20.8–30.0%)")
    assert v.p_adjusted == 0.001 and verdicts.balance_category(v) == "unbalanced"


def test_equivalence_a_significant_seat_straddling_the_band_is_a_real_edge_of_unknown_size():
    table = units(("seat 1", 0.30, 0.27, 0.33), ("seat 2", 0.22, 0.19, 0.25), p=[0.001, 0.2])
    v = verdicts.equivalence(table, tolerance=1.2)
    assert v.claim.startswith("a real edge: seat 1's edge +5.0 points [+2.0, +8.0]; whether it "
                              "is beyond the tolerance")
    assert verdicts.balance_category(v) == "real edge"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_equivalence_tolerance_means_the_same_multiple_of_fair_at_every_player_count(players):
    fair = 1 / players
    for ratio, category in ((1.25, "unbalanced"), (1.15, "small real edge")):
        share = fair * ratio
        table = units(("seat 1", share, share - 0.002, share + 0.002),
                      ("seat 2", fair, fair - 0.002, fair + 0.002), fair=fair, p=[1e-9, 1.0])
        assert verdicts.balance_category(verdicts.equivalence(table)) == category


def test_equivalence_never_words_the_detectable_effect_as_a_bound():
    table = units(("seat 1", 0.30, 0.0, 0.8), ("seat 2", 0.2, 0.0, 0.7), p=[1.0, 1.0])
    v = verdicts.equivalence(table)
    assert "no seat edge larger" not in v.text() and "cannot tell" in v.claim


def lineup_rows(*rows: tuple[str, float, int], fair: float = 0.5) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["lineup", "wins", "games"])
    frame["win_share"] = frame["wins"] / frame["games"]
    low, high = balance.wilson_interval(frame["wins"], frame["games"])
    frame["ci_low"], frame["ci_high"], frame["fair"] = low, high, fair
    return frame


def test_heterogeneity_equal_shares_hold():
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 700, 1000), ("mcts", 350, 500))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert v.claim.startswith("seat 1's edge (+20.0 points with heuristic) holds under every "
                              "line-up (shares cannot be told apart, χ² line-up × win p = 1")


def test_heterogeneity_one_reversed_lineup_depends():
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 690, 1000), ("mcts", 300, 1000))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert "depends on the bots: reverses with mcts" in v.claim
    assert v.p_value < 1e-10


def test_heterogeneity_same_direction_different_size():
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 600, 1000))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert ("same direction everywhere, size depends on the bots (shares differ: heuristic "
            "70.0% vs random 60.0%, +10.0 points [+5.8, +14.1]; χ² line-up × win p") in v.claim


def test_heterogeneity_absent_with_a_lineup():
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 505, 1000))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert "depends on the bots: absent with random" in v.claim


def test_heterogeneity_ten_game_lineup_is_too_few_and_never_vetoes():
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 690, 1000), ("mcts", 2, 10))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert "holds under every line-up" in v.claim
    assert v.claim.endswith("; too few games with mcts to tell")
    assert v.numbers["informative"] == 2


def test_heterogeneity_adjusted_p_decides():
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 640, 1000))
    raw = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert raw.p_value < 0.05 and "size depends" in raw.claim
    adjusted = verdicts.heterogeneity(rows, "heuristic", "seat 1", p_adjusted=0.2)
    assert "holds under every line-up" in adjusted.claim


def test_heterogeneity_never_says_shares_agree_when_the_test_cannot_tell():
    """Not told apart after the family's adjustment is not agreement: the gap that the raw
    intervals show is quoted, labelled unadjusted."""
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 640, 1000))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1", p_adjusted=0.2)
    assert "agree" not in v.claim
    assert ("holds under every line-up (shares cannot be told apart after the family's "
            "adjustment, χ² line-up × win p = 0.0043, adjusted = 0.2; largest gap: heuristic "
            "70.0% vs random 64.0%, +6.0 points [+1.9, +10.1] unadjusted 95%)") in v.claim


def test_heterogeneity_differing_shares_say_by_how_much_with_an_interval():
    rows = lineup_rows(("heuristic", 810, 3000), ("random", 490, 2000),
                       ("heuristic:tuned", 300, 1000), fair=0.25)
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1", p_adjusted=0.03)
    assert "agree" not in v.claim
    assert ("(shares differ: heuristic:tuned 30.0% vs random 24.5%, +5.5 points [+2.1, +8.9]; "
            "χ² line-up × win p = 0.0049, adjusted = 0.03)") in v.claim


def test_heterogeneity_a_lineup_with_an_edge_of_its_own_is_never_too_few_games():
    """heuristic:tuned's interval is wider than the reference's +2-point edge but excludes
    the fair share: its own seat test finds an edge, so it tells and is tested."""
    rows = lineup_rows(("heuristic", 810, 3000), ("random", 490, 2000),
                       ("heuristic:tuned", 300, 1000), fair=0.25)
    assert verdicts.too_few(rows, "heuristic") == []
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1")
    assert "too few games" not in v.claim and v.numbers["informative"] == 3


def test_heterogeneity_directions_follow_the_familys_seat_tests():
    """random's interval excludes the fair share, but its seat test is not significant after
    the family's adjustment: the words do not find its edge either."""
    rows = lineup_rows(("heuristic", 700, 1000), ("random", 540, 1000))
    raw = verdicts.heterogeneity(rows, "heuristic", "seat 1", p_adjusted=1e-9)
    assert "same direction everywhere" in raw.claim
    family = verdicts.heterogeneity(rows, "heuristic", "seat 1", 1e-30, 1e-9,
                                    lineup_p={"heuristic": 1e-30, "random": 0.2})
    assert "depends on the bots: absent with random (shares differ" in family.claim


def sources(*rows: tuple[str, float, float, float], lineup: str = "heuristic") -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["source", "share", "ci_low", "ci_high"])
    frame["lineup"] = lineup
    return frame


def test_largest_source_tie_when_intervals_overlap():
    v = verdicts.largest_source(sources(("project_12", 0.211, 0.207, 0.214),
                                        ("project_20", 0.208, 0.202, 0.213),
                                        ("gold", 0.10, 0.09, 0.11)))
    assert v.claim.startswith("tie for the most points: 'project_12' 21.1% [20.7, 21.4], "
                              "'project_20' 20.8% [20.2, 21.3]")
    assert "gold" not in v.claim


def test_largest_source_single_leader():
    v = verdicts.largest_source(sources(("a", 0.6, 0.58, 0.62), ("b", 0.4, 0.38, 0.42)))
    assert v.claim == "'a' 60.0% [58.0, 62.0] gives the most points"


def test_source_robustness_tie_is_not_a_change():
    table = pd.concat([
        sources(("p12", 0.211, 0.207, 0.214), ("p20", 0.208, 0.202, 0.213)),
        sources(("p12", 0.205, 0.200, 0.210), ("p20", 0.209, 0.204, 0.214), lineup="random")])
    v = verdicts.source_robustness(table, "heuristic")
    assert "under every line-up" in v.claim and "depends" not in v.claim


def test_source_robustness_depends_when_leaders_differ():
    table = pd.concat([sources(("a", 0.6, 0.58, 0.62), ("b", 0.4, 0.38, 0.42)),
                       sources(("a", 0.3, 0.28, 0.32), ("b", 0.7, 0.68, 0.72), lineup="random")])
    v = verdicts.source_robustness(table, "heuristic")
    assert v.claim == ("the largest source of points depends on the bots: 'a' with heuristic; "
                       "'b' with random")


def test_search_ties_list_every_candidate_not_significantly_worse():
    diffs = pd.DataFrame({"candidate": ["chips=10", "base", "chips=4"],
                          "effect": [0.01, 0.012, 0.2], "ci_low": [-0.01, -0.01, 0.15],
                          "ci_high": [0.03, 0.034, 0.25], "p": [0.3, 0.25, 1e-9]})
    names, v = verdicts.ties_with_best(diffs, "chips=11",
                                       label=lambda c: "official (chips=9)" if c == "base" else c)
    assert names == ["chips=10", "official (chips=9)"]
    assert v.claim == "tied with the best: chips=10, official (chips=9)"


def test_sweep_ranking_orders_significant_effects_in_their_unit():
    table = pd.DataFrame({
        "statistic": ["length", "first_edge", "share:gold", "tie_rate"],
        "effect": [-3.5, 0.02, -0.08, 0.001],
        "significant": [True, True, True, False]})
    ordered, rest = verdicts.rank_effects(table)
    assert [r["statistic"] for r in ordered] == ["share:gold", "first_edge", "length"]
    assert [r["statistic"] for r in rest] == ["tie_rate"]


def test_family_holm_over_every_member_and_states_its_size():
    family = verdicts.Family("report")
    family.add(("seat", 1), 0.01)
    family.add(("seat", 2), 0.04)
    family.add(("robust", 1), float("nan"))
    family.add(("bot", "x"), 0.03)
    assert family.size == 3
    assert math.isclose(family.adjusted(("seat", 1)), 0.03)
    assert math.isclose(family.adjusted(("bot", "x")), 0.06)
    assert math.isclose(family.adjusted(("seat", 2)), 0.06)
    assert np.isnan(family.adjusted(("robust", 1)))
    assert "Holm over the 3 tests in this report" in family.note()
    with pytest.raises(ValueError):
        family.add(("seat", 1), 0.5)


def test_skipped_systems_names_kinds_the_reference_reaches():
    v = verdicts.skipped_systems({"move": 1.0, "chōhō swap": 0.0, "bōryaku": 0.004},
                                 {"move": 1.0, "chōhō swap": 0.23, "bōryaku": 0.06,
                                  "rare": 0.01}, "heuristic")
    assert v.claim == ("never played chōhō swap (random play reaches it in 23% of games); "
                       "almost never played bōryaku (in 0.4%; random play reaches it in 6%)")


def test_heterogeneity_holds_but_says_which_lineup_alone_cannot_be_told_from_fair():
    rows = lineup_rows(("heuristic", 70, 100), ("random", 12, 20))
    v = verdicts.heterogeneity(rows, "heuristic", "seat 1", p_adjusted=0.9)
    assert ("holds under every line-up (shares cannot be told apart, χ² line-up × win p = "
            in v.claim)
    assert ", adjusted = 0.9)" in v.claim
    assert v.claim.endswith("; on its own, random cannot be told from the fair 50.0%")


def test_planning_figure_never_rounds_a_small_detectable_edge_to_zero():
    from analysis.stats.verdicts import planning_figure

    assert "an edge of 0.31 points" in planning_figure(0.0031)
    assert "an edge of 2.1 points" in planning_figure(0.021)
    assert "an edge of 15 points" in planning_figure(0.15)
    assert planning_figure(float("nan")) == ""
