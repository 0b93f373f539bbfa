"""Statistics on hand-built result frames, checked against values worked out by hand."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from openskill.models import PlackettLuce

from analysis.stats import balance


def make_frame(games: list[dict], players: int, game: str = "toy") -> pd.DataFrame:
    """games: dicts with `scores`, optional `bots`, `winners`, `pts`, `seed`, `metrics`."""
    rows = []
    for index, spec in enumerate(games):
        scores = spec["scores"]
        best = max(scores)
        winners = spec.get("winners") or [s for s, v in enumerate(scores) if v == best]
        bots = spec.get("bots") or ["b"] * players
        for seat in range(players):
            better = sum(1 for o in range(players) if scores[o] > scores[seat]
                         or (o in winners and seat not in winners))
            row = {
                "run_id": spec.get("run_id", "r1"), "game": game, "rules": "",
                "players": players, "game_index": index, "seed": spec.get("seed", index),
                "seat": seat, "bot": bots[seat], "score": float(scores[seat]),
                "rank": 1 if seat in winners else 1 + better,
                "win_share": 1 / len(winners) if seat in winners else 0.0,
                "truncated": spec.get("truncated", False), "decisions": spec.get("decisions", 10),
                "branching": spec.get("branching", 3.0),
            }
            for source, points in spec.get("pts", {}).items():
                row[f"pts_{source}"] = float(points[seat])
            for metric, value in spec.get("metrics", {}).items():
                row[f"m_{metric}"] = float(value)
            rows.append(row)
    return pd.DataFrame(rows)


def seat_frame(first_wins: int, games: int) -> pd.DataFrame:
    """2-player frame where seat 0 wins `first_wins` of `games`."""
    return make_frame(
        [{"scores": [2, 1] if i < first_wins else [1, 2]} for i in range(games)], players=2)


def test_seat_advantage_chi_square_and_edge_by_hand():
    out = balance.seat_advantage(seat_frame(60, 100)).iloc[0]
    # observed (60, 40) against expected (50, 50): chi2 = 100/50 + 100/50 = 4
    assert out["chi2"] == pytest.approx(4.0)
    assert out["p_value"] == pytest.approx(0.0455, abs=1e-4)
    assert out["first_edge"] == pytest.approx(0.10)
    assert out["edge_low"] < 0.10 < out["edge_high"]
    assert out["best_seat"] == 0 and out["worst_seat"] == 1


def test_seat_advantage_counts_shared_wins_as_fractions():
    frame = make_frame([{"scores": [1, 1]}, {"scores": [2, 1]}], players=2)
    out = balance.seat_advantage(frame).iloc[0]
    assert out["first_share"] == pytest.approx(0.75)  # 0.5 + 1 over 2 games


def test_truncated_games_are_left_out_of_seat_tests():
    games = [{"scores": [2, 1]}] * 3 + [{"scores": [1, 2], "truncated": True}]
    out = balance.seat_advantage(make_frame(games, players=2)).iloc[0]
    assert out["games"] == 3 and out["first_share"] == 1.0


def test_margins_and_tie_rate_by_hand():
    frame = make_frame([{"scores": [5, 2, 1]}, {"scores": [3, 3, 0]}, {"scores": [0, 4, 1]},
                        {"scores": [7, 7, 7]}], players=3)
    out = balance.margins(frame).iloc[0]
    assert out["games"] == 4
    assert out["tie_rate"] == pytest.approx(0.5)
    assert out["mean_margin"] == pytest.approx((3 + 0 + 3 + 0) / 4)
    assert out["zero_margin"] == pytest.approx(0.5)


def test_tie_broken_by_rule_has_zero_margin_but_is_no_tie():
    frame = make_frame([{"scores": [3, 3], "winners": [1]}], players=2)
    games = balance.game_outcomes(frame)
    assert games["margin"].tolist() == [0.0] and games["tie"].tolist() == [False]


def test_score_distribution_quantiles():
    frame = make_frame([{"scores": [s, 0]} for s in (1, 2, 3, 4, 10)], players=2)
    out = balance.score_distribution(frame, by="seat").set_index("seat").loc[0]
    assert out["count"] == 5 and out["mean"] == pytest.approx(4.0)
    assert out["median"] == 3 and out["q25"] == 2 and out["q75"] == 4 and out["max"] == 10


def test_scoring_balance_means_and_shares():
    frame = make_frame([
        {"scores": [3, 1], "pts": {"a": [1, 1], "b": [2, 0]}},
        {"scores": [1, 5], "pts": {"a": [1, 2], "b": [0, 3]}},
    ], players=2)
    out = balance.scoring_balance(frame, by="seat").set_index(["seat", "source"])
    assert out.loc[(0, "a"), "mean_points"] == pytest.approx(1.0)
    assert out.loc[(0, "b"), "mean_points"] == pytest.approx(1.0)
    assert out.loc[(1, "b"), "mean_points"] == pytest.approx(1.5)
    assert out.loc[(1, "a"), "share"] == pytest.approx(1.5 / 3.0)


def test_source_separation_difference_by_hand():
    frame = make_frame([
        {"scores": [3, 1], "pts": {"a": [1, 1], "b": [2, 0]}},
        {"scores": [1, 5], "pts": {"a": [1, 2], "b": [0, 3]}},
    ], players=2)
    out = balance.source_separation(frame).set_index("source")
    # winners: seat 0 game 0 (a=1, b=2), seat 1 game 1 (a=2, b=3); others a=(1,1), b=(0,0)
    assert out.loc["a", "difference"] == pytest.approx(1.5 - 1.0)
    assert out.loc["b", "difference"] == pytest.approx(2.5 - 0.0)
    assert out.loc["b", "cohen_d"] > out.loc["a", "cohen_d"]


def test_pairwise_counts_meetings_and_half_points_for_ties():
    frame = make_frame([
        {"scores": [2, 1, 0], "bots": ["A", "B", "B"]},
        {"scores": [0, 1, 1], "bots": ["A", "B", "B"]},
    ], players=3)
    out = balance.pairwise(frame).set_index(["bot", "opponent"])
    # A beats both B seats in game 0 (2 points), loses to both in game 1: 2 / 4 meetings
    assert out.loc[("A", "B"), "meetings"] == 4
    assert out.loc[("A", "B"), "share"] == pytest.approx(0.5)
    assert out.loc[("B", "A"), "share"] == pytest.approx(0.5)
    matrix = balance.pairwise_matrix(frame)
    assert matrix.loc["A", "B"] == pytest.approx(0.5)


def test_ratings_match_openskill_when_each_bot_holds_one_seat():
    rng = np.random.default_rng(3)
    names = ["p", "q", "r"]
    games = []
    for _ in range(40):
        order = list(rng.permutation(names))
        games.append({"scores": list(rng.integers(0, 4, size=3)), "bots": order})
    frame = make_frame(games, players=3)
    bots, seat_bot, ranks = balance._rank_games(frame)  # one pass in the recorded order
    mu, sigma = balance._plackett_luce(seat_bot, ranks, np.arange(len(games))[None, :], 3)
    ours = pd.DataFrame({"mu": mu[0], "sigma": sigma[0]}, index=bots)
    model = PlackettLuce(tau=0.0)
    rated = {b: model.rating() for b in names}
    for _, game in frame.sort_values(["game_index", "seat"]).groupby("game_index"):
        bots, ranks = game["bot"].tolist(), game["rank"].astype(float).tolist()
        new = model.rate([[rated[b]] for b in bots], ranks=ranks)
        for b, team in zip(bots, new):
            rated[b] = team[0]
    for b in names:
        assert ours.loc[b, "mu"] == pytest.approx(rated[b].mu)
        assert ours.loc[b, "sigma"] == pytest.approx(rated[b].sigma)


def test_ratings_rank_the_stronger_bot_first_with_bootstrap_interval():
    games = [{"scores": [1, 0] if i % 5 else [0, 1], "bots": ["strong", "weak"]}
             for i in range(200)]
    out = balance.ratings(make_frame(games, players=2), bootstrap=50)
    assert out["bot"].tolist() == ["strong", "weak"]
    top = out.iloc[0]
    assert top["mu_low"] < top["mu"] < top["mu_high"]
    assert out.iloc[0]["mu_low"] > out.iloc[1]["mu_high"]


def test_ratings_do_not_depend_on_the_order_of_the_games():
    """A duplicate comparison is stacked seating by seating; rated in
    that order, the online updates weighed the last seating most and ranked the bot with the
    lower win share first.  A wins 3 of 4 games from seat 1, then 3 of 5 from seat 2."""
    games = [{"scores": [1, 0] if i % 4 else [0, 1], "bots": ["A", "B"], "seed": i}
             for i in range(400)]
    games += [{"scores": [0, 1] if i % 5 < 2 else [1, 0], "bots": ["B", "A"], "seed": i}
              for i in range(400)]
    frame = make_frame(games, players=2)
    out = balance.ratings(frame, bootstrap=0)
    assert out["bot"].tolist() == ["A", "B"]  # A won 57.5% of the games
    flipped = make_frame(games[400:] + games[:400], players=2)
    again = balance.ratings(flipped, bootstrap=0).set_index("bot")
    assert again.loc["A", "mu"] == pytest.approx(out.set_index("bot").loc["A", "mu"], abs=0.3)


def test_ratings_grow_surer_with_more_games():
    """Bots do not change strength between games: no drift (`tau` = 0), so sigma keeps
    shrinking with more games (with openskill's default drift it stopped near 1.6)."""
    games = [{"scores": [1, 0] if i % 3 else [0, 1], "bots": ["A", "B"]} for i in range(2000)]
    few = balance.ratings(make_frame(games[:200], players=2), bootstrap=0)
    many = balance.ratings(make_frame(games, players=2), bootstrap=0)
    assert many["sigma"].max() < 0.6 * few["sigma"].min()
    assert many["sigma"].max() < 1.0


def test_games_needed_normal_approximation():
    out = balance.games_needed([0.01, 0.05], share=0.5)
    assert out["games"].tolist() == [9604, 385]  # 1.96^2 * 0.25 / h^2, rounded up
    with pytest.raises(ValueError):
        balance.games_needed(0)


def test_clustered_interval_vanishes_when_each_deal_splits_evenly():
    # duplicate: every seed played twice with seats swapped; A wins exactly one of the two
    games = []
    for deal in range(20):
        games.append({"scores": [1, 0], "bots": ["A", "B"], "seed": deal})
        games.append({"scores": [1, 0], "bots": ["B", "A"], "seed": deal})
    out = balance.clustered_win_share(make_frame(games, players=2)).set_index("bot")
    assert out.loc["A", "win_share"] == pytest.approx(0.5)
    assert out.loc["A", "se"] == pytest.approx(0.0)
    assert out.loc["A", "clusters"] == 20


def test_clustered_interval_equals_plain_standard_error_for_single_games():
    wins = [1, 0, 1, 1, 0, 1, 0, 1]
    games = [{"scores": [w, 1 - w], "bots": ["A", "B"]} for w in wins]
    out = balance.clustered_win_share(make_frame(games, players=2)).set_index("bot")
    p, n = np.mean(wins), len(wins)
    expected = np.sqrt(n / (n - 1) * np.sum((np.array(wins) - p) ** 2)) / n
    assert out.loc["A", "se"] == pytest.approx(expected)


def test_convergence_ends_at_the_overall_share():
    frame = seat_frame(30, 50)
    out = balance.convergence(frame, by="seat")
    last = out[out["seat"] == 0].iloc[-1]
    assert last["games"] == 50 and last["win_share"] == pytest.approx(0.6)
    first = out[out["seat"] == 0].iloc[0]
    assert first["games"] == 1 and first["win_share"] == 1.0


def test_balance_table_by_hand_with_metrics():
    games = [{"scores": [2, 1], "metrics": {"rounds": 4, "lead_changes": 1}, "decisions": 20},
             {"scores": [1, 3], "metrics": {"rounds": 6, "lead_changes": 3}, "decisions": 30},
             {"scores": [2, 2], "metrics": {"rounds": 5, "lead_changes": 2}, "decisions": 25}]
    out = balance.balance_table(make_frame(games, players=2)).iloc[0]
    assert out["games"] == 3
    assert out["first_edge"] == pytest.approx(1.5 / 3 - 0.5)
    assert out["balance"] == pytest.approx(1.0)  # seats 1.5 / 3 each
    assert out["tie_rate"] == pytest.approx(1 / 3)
    assert out["decisions"] == pytest.approx(25)
    assert out["rounds"] == pytest.approx(5) and out["lead_changes"] == pytest.approx(2)
    assert out["decisiveness"] == pytest.approx((1 + 2 + 0) / 3)


def test_balance_table_without_metrics_reports_nan():
    out = balance.balance_table(seat_frame(3, 4)).iloc[0]
    assert np.isnan(out["rounds"]) and np.isnan(out["lead_changes"])
    assert out["balance"] == pytest.approx(1 - (0.75 - 0.25))


def test_win_share_by_bot_and_seat_keep_their_signature():
    frame = seat_frame(3, 4)
    out = balance.win_share(frame, "seat")
    assert out["win_share"].tolist() == [0.75, 0.25]
    low, high = balance.wilson_interval(3, 4)
    assert out.loc[0, "ci_low"] == pytest.approx(low)


@pytest.mark.parametrize("trials", [1, 5, 17, 1000])
def test_wilson_interval_is_exact_at_zero_and_all_wins(trials):
    low, high = balance.wilson_interval(np.array([0.0, trials]), np.array([trials, trials]))
    assert low[0] == 0.0 and high[1] == 1.0
    assert (low <= np.array([0.0, 1.0])).all() and (high >= np.array([0.0, 1.0])).all()


def test_mean_interval_is_mean_plus_minus_z_se_with_a_two_sided_p():
    import math

    mean, low, high, p = balance.mean_interval([1.0, 2.0, 3.0, 4.0])
    se = math.sqrt(5 / 3) / 2
    assert mean == 2.5
    assert (low, high) == pytest.approx((2.5 - 1.959964 * se, 2.5 + 1.959964 * se))
    assert p == pytest.approx(math.erfc(2.5 / se / math.sqrt(2)))


def test_mean_interval_of_one_value_cannot_tell_anything():
    mean, low, high, p = balance.mean_interval([0.5])
    assert mean == 0.5 and np.isnan(low) and np.isnan(high) and np.isnan(p)
    assert balance.mean_interval([0.0, 0.0])[3] == 1.0  # no spread, no difference


def test_explain_and_search_seat_intervals_are_the_shared_wilson_interval():
    from analysis.run import explain, search

    table = pd.DataFrame({"win_0": [1.0, 1.0, 0.0, 1.0, 0.5], "win_1": [0.0, 0.0, 1.0, 0.0, 0.5],
                          "players": 2})
    first = explain.seat_edges(table).iloc[0]
    share, low, high, p = balance.share_interval(table["win_0"], 0.5)
    wilson = balance.wilson_interval(3.5, 5)
    assert (low, high) == pytest.approx((float(wilson[0]), float(wilson[1])))
    assert p == pytest.approx(math.erfc(abs(0.7 - 0.5) / math.sqrt(0.25 / 5) / math.sqrt(2)))
    assert (first["edge"], first["ci_low"], first["ci_high"], first["p"]) == \
        pytest.approx((share - 0.5, low - 0.5, high - 0.5, p))
    value, _, low_edge, high_edge, _ = search.objective(table, "seat_edge")
    assert value == pytest.approx(0.2)
    assert (low_edge, high_edge) == pytest.approx((0.0, high - 0.5))  # the interval crosses 0


def test_report_prints_cohens_d_as_a_plain_number_not_a_percentage():
    from analysis.present.report import table_html

    frame = make_frame([
        {"scores": [3, 1], "pts": {"a": [1, 1], "b": [2, 0]}},
        {"scores": [1, 5], "pts": {"a": [1, 2], "b": [0, 3]}},
        {"scores": [4, 1], "pts": {"a": [2, 1], "b": [2, 0]}},
    ], players=2)
    table = balance.source_separation(frame)
    d = float(table.set_index("source").loc["b", "cohen_d"])
    row = next(r for r in table_html(table).split("<tr>") if "<td>b</td>" in r)
    cells = re.findall(r"<td>([^<]*)</td>", row)
    assert f"{d:.2f}" in cells and f"{100 * d:.1f}%" not in cells
