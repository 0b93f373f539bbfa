"""Who wins on points, declared per game: scoring-source shares, their wording and winning
margins follow it (a lowest-wins toy game whose bonus source subtracts points)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from analysis.present import designer
from analysis.stats import balance, findings, robustness, verdicts
from engines import GAMES
from engines.bots import make_bot
from engines.core import Game, play_game
from tests.toy_games import PENALTY, NimRules, NimState


@pytest.fixture
def penalty(monkeypatch):
    monkeypatch.setitem(GAMES, PENALTY.name, PENALTY)
    return PENALTY


def penalty_games(lineup: str, games: int, seat_0_penalty: float = 6.0) -> list[dict]:
    """Two-player games of the lowest-wins toy: seat 0 takes `seat_0_penalty` penalty points,
    seat 1 two more or two fewer in turn; every odd game seat 0 takes a −4 bonus."""
    rows = []
    for index in range(games):
        penalties = [seat_0_penalty, seat_0_penalty + (2 if index % 2 else -2)]
        bonuses = [-4.0 if index % 2 else 0.0, 0.0]
        scores = [p + b for p, b in zip(penalties, bonuses)]
        for seat in range(2):
            rows.append({"run_id": lineup, "game": PENALTY.name, "rules": "", "players": 2,
                         "game_index": index, "seed": index, "seat": seat, "bot": lineup,
                         "score": scores[seat], "truncated": False, "decisions": 2,
                         "branching": 1.0, "win_share": float(scores[seat] == min(scores)),
                         "pts_penalties": penalties[seat], "pts_bonus": bonuses[seat]})
    return rows


def test_a_game_declares_who_wins_on_points_and_its_score_range():
    with pytest.raises(ValueError, match="score_direction must be one of highest, lowest"):
        Game(name="x", min_players=2, max_players=2, Rules=NimRules, create_state=NimState,
             score_direction="most")
    with pytest.raises(ValueError, match="score_range .* is empty"):
        Game(name="x", min_players=2, max_players=2, Rules=NimRules, create_state=NimState,
             score_range=(5.0, 1.0))


@pytest.mark.parametrize("name", sorted(n for n in GAMES if not n.startswith("toy")))
def test_every_built_in_game_is_won_by_the_best_score_in_its_declared_direction(name):
    """The declaration is what the game does: each winner holds the best score, the highest
    where the highest wins and the lowest where the lowest does (a tie-break may leave
    seats with that score out; it never lets a worse score win)."""
    game = GAMES[name]
    best = max if game.score_direction == "highest" else min
    bots = [make_bot("random", game)] * game.players_default
    for seed in range(6):
        record = play_game(game, bots, seed)
        assert record.winners and all(
            record.scores[seat] == best(record.scores) for seat in record.winners)


def test_source_shares_of_a_lowest_wins_game_count_points_absolute(penalty):
    """Per game 12 penalty points, and 4 bonus points off in every other game: a signed share
    would put penalties at 12 / 10 = 120% of the points; absolute, 12 / 14."""
    frame = pd.DataFrame(penalty_games("heuristic", 200))
    shares = robustness.source_shares(frame).set_index("source")
    assert shares.loc["penalties", "share"] == pytest.approx(12 / 14)
    assert shares["share"].sum() == pytest.approx(1.0)
    assert shares.loc["bonus", "subtracts"] and not shares.loc["penalties", "subtracts"]
    table = balance.scoring_balance(frame, "seat")
    assert (table["share"] <= 1).all() and table.groupby("seat")["share"].sum().tolist() == \
        pytest.approx([1.0, 1.0])
    assert table.set_index(["seat", "source"]).loc[(0, "bonus"), "mean_points"] == -2.0


def test_largest_source_of_a_lowest_wins_game_is_worded_as_penalty_points(penalty):
    frame = pd.DataFrame(penalty_games("heuristic", 200))
    shares = robustness.source_shares(frame)
    claim = verdicts.largest_source(shares, direction="lowest").claim
    assert re.fullmatch(r"'penalties' 85\.7% \[[\d.]+, [\d.]+\] gives the most penalty points",
                        claim), claim
    assert "(subtracts)" in verdicts.source_cells(shares[shares["source"] == "bonus"])[0]


def test_designer_summary_of_a_lowest_wins_game_never_shows_a_share_above_100(penalty):
    frame = pd.DataFrame(penalty_games("heuristic", 200))
    cell = designer.summary_table(frame)["largest source"].iloc[0]
    assert cell.startswith("penalties 85.7% [") and cell.endswith("] of penalty points")
    assert all(float(x) <= 100 for x in re.findall(r"([\d.]+)%", cell))


def test_robustness_verdict_names_the_largest_source_of_penalty_points(penalty):
    frame = pd.DataFrame(penalty_games("heuristic", 200) + penalty_games("random", 200))
    lines = findings.robustness_verdicts(frame)["verdict"].tolist()
    assert lines[-1] == "'penalties' gives the most penalty points under every line-up"


def test_sweep_source_share_of_a_lowest_wins_game_counts_points_absolute(penalty):
    from analysis.run import sweep

    table = sweep.game_table(pd.DataFrame(penalty_games("heuristic", 200)))
    assert sweep.influence(table)["share:penalties"][0] == pytest.approx(12 / 14)


def test_winning_margin_of_a_lowest_wins_game_is_the_lead_of_the_lowest_score(penalty):
    frame = pd.DataFrame(penalty_games("heuristic", 2))
    games = balance.game_outcomes(frame)
    # game 0: scores 6 and 4 (seat 1 wins by 2); game 1: scores 2 and 8 (seat 0 by 6)
    assert games["top_score"].tolist() == [4.0, 2.0]
    assert games["margin"].tolist() == [2.0, 6.0]


def test_source_wording_of_a_highest_wins_game_is_unchanged():
    shares = pd.DataFrame({"source": ["a", "b"], "share": [0.7, 0.3],
                           "ci_low": [0.65, 0.25], "ci_high": [0.75, 0.35]})
    assert verdicts.largest_source(shares).claim == "'a' 70.0% [65.0, 75.0] gives the most points"


def test_report_of_a_lowest_wins_game_shows_shares_of_penalty_points(penalty, tmp_path):
    """`simulate report` on a played run (a toy game is no `simulate GAME` command once the
    app is built)."""
    from analysis.cli import main
    from analysis.run import tournament

    spec = tournament.RunSpec(game=PENALTY.name, players=2, games=200,
                              bots=("heuristic", "heuristic"), seed=3)
    tournament.run(spec, tmp_path / "run", jobs=1)
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "run"), "--out", str(out), "--no-confirm",
                 "--bootstrap", "0"]) == 0
    summary = re.search(r"<table id='designer-summary'>.*?</table>", out.read_text()).group(0)
    # penalties 4.5 a seat-game, bonus 2: 69% of the absolute points, never 180%
    assert re.search(r"penalties 6\d\.\d% \[[\d.]+, [\d.]+\] of penalty points", summary)
    assert not re.search(r"\b1\d\d\.\d%", summary)
