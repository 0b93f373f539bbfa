"""Does it hold with other bots? Verdicts on hand-made frames, the
experiment format that plays one line-up per bot, and the report section in Chromium."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from analysis.cli import reporting
from analysis.run import experiments, tournament
from analysis.stats import balance, findings, robustness
from engines import GAMES
from tests.conftest import chromium_dom, needs_chromium
from tests.toy_games import NIM


def lineup_games(lineup: str, games: int, first_wins: int, points=(3.0, 1.0)) -> list[dict]:
    """Two-player games of one line-up: seat 0 wins the first `first_wins` games, seat 1 the
    rest; every seat scores `points` from sources a and b."""
    rows = []
    for index in range(games):
        winner = 0 if index < first_wins else 1
        for seat in range(2):
            rows.append({"run_id": lineup, "game": "toy", "rules": "", "players": 2,
                         "game_index": index, "seed": index, "seat": seat, "bot": lineup,
                         "score": sum(points) + (seat == winner), "truncated": False,
                         "win_share": float(seat == winner),
                         "pts_a": points[0] + (seat == winner), "pts_b": points[1]})
    return rows


def frame_of(*parts: list[dict]) -> pd.DataFrame:
    return pd.DataFrame([row for part in parts for row in part])


def verdict_lines(frame: pd.DataFrame) -> list[str]:
    return findings.robustness_verdicts(frame)["verdict"].tolist()


def test_seat_edge_holds_under_every_lineup_when_shares_cannot_be_told_apart():
    frame = frame_of(lineup_games("heuristic", 1000, 700), lineup_games("random", 1000, 690),
                     lineup_games("mcts", 400, 275))
    table = findings.robustness_verdicts(frame)
    first = table.iloc[0]
    assert first["verdict"].startswith("seat 1's edge (+20.0 points with heuristic) holds under "
                                       "every line-up (shares cannot be told apart, χ² "
                                       "line-up × win p = ")
    assert first["holds"] and first["conclusion"] == "seat 1"
    assert "heuristic 70.0% [" in first["details"]


def test_seat_edge_absent_with_a_lineup_depends_on_the_bots():
    frame = frame_of(lineup_games("heuristic", 1000, 700), lineup_games("random", 1000, 520),
                     lineup_games("mcts", 10, 6))
    first = findings.robustness_verdicts(frame).iloc[0]
    assert "depends on the bots: absent with random" in first["verdict"]
    assert first["verdict"].endswith("; too few games with mcts to tell")  # never vetoes
    assert not first["holds"]


def test_seat_edge_reversed_under_another_lineup():
    frame = frame_of(lineup_games("heuristic", 1000, 700), lineup_games("random", 1000, 300))
    assert "depends on the bots: reverses with random" in verdict_lines(frame)[0]


def test_ten_game_lineup_is_too_few_to_tell():
    frame = frame_of(lineup_games("heuristic", 1000, 700), lineup_games("random", 1000, 700),
                     lineup_games("mcts", 10, 3))
    line = verdict_lines(frame)[0]
    assert "holds under every line-up" in line and line.endswith(
        "; too few games with mcts to tell")


def test_no_seat_effect_under_any_lineup():
    frame = frame_of(lineup_games("heuristic", 1000, 510), lineup_games("random", 1000, 490))
    lines = verdict_lines(frame)
    assert lines[0].startswith("seat 1: no edge with heuristic, and the line-ups' shares "
                               "cannot be told apart (χ² line-up × win p")
    assert len([line for line in lines if line.startswith("seat")]) == 1  # seat 2 not examined


def test_a_lineup_the_table_calls_significant_is_never_too_few_games_to_tell():
    """mcts:strong's seat 1 edge is significant in the family's table; its interval is wider
    than the reference's +3-point edge, and it still tells: the words test it too."""
    frame = frame_of(lineup_games("heuristic", 3000, 1590), lineup_games("random", 2000, 960),
                     lineup_games("mcts:strong", 300, 195))
    tests = findings.family(frame)
    row = tests[(tests["kind"] == "seat") & (tests["lineup"] == "mcts:strong")
                & (tests["subject"] == "seat 1")].iloc[0]
    assert row["significant"]
    first = findings.robustness_verdicts(frame, tests).iloc[0]["verdict"]
    assert "too few games" not in first
    assert ("depends on the bots: absent with random (shares differ: mcts:strong 65.0% vs "
            "random 48.0%, +17.0 points [") in first


def test_shares_that_differ_are_never_said_to_agree():
    """A tuned line-up of 300 games (60.0%, its own edge significant) beside random's 52.0%:
    not hidden as too few games, and a test that cannot tell them apart after the family's
    adjustment says so and quotes the gap, never that the shares agree."""
    frame = frame_of(lineup_games("heuristic", 3000, 1590), lineup_games("random", 2000, 1040),
                     lineup_games("heuristic:tuned", 300, 180))
    first = verdict_lines(frame)[0]
    assert "agree" not in first and "too few games" not in first
    assert ("shares cannot be told apart after the family's adjustment, χ² line-up × win p = "
            "0.035, adjusted = 0.14; largest gap: heuristic:tuned 60.0% vs random 52.0%, "
            "+8.0 points [+2.0, +13.8] unadjusted 95%") in first


def test_heterogeneity_tests_are_in_the_family():
    frame = frame_of(lineup_games("heuristic", 400, 230), lineup_games("random", 400, 200))
    tests = findings.family(frame)
    assert set(tests["kind"]) == {"seat", "robustness"}  # one bot per seat: no bot tests
    assert tests["tests"].iloc[0] == 6  # 2 seats x 2 line-ups + 2 heterogeneity tests
    assert tests["p_adjusted"].tolist() == pytest.approx(
        balance.adjust_pvalues(tests["p_value"], "holm"))


def test_seat_share_depends_on_the_bots_without_a_reference_finding():
    """Nothing with heuristic, a shortfall with greedy."""
    frame = frame_of(lineup_games("heuristic", 1000, 510), lineup_games("greedy", 1000, 400),
                     lineup_games("random", 1000, 505))
    table = findings.robustness_verdicts(frame)
    assert table["verdict"].iloc[0].startswith(
        "seat 1's share depends on the bots: shortfall with greedy; no clear edge with "
        "heuristic, random (shares differ: heuristic 51.0% vs greedy 40.0%, +11.0 points "
        "[+6.6, +15.3]; χ² line-up × win p ")
    assert not table["holds"].iloc[0]


def test_largest_scoring_source_verdicts():
    same = frame_of(lineup_games("heuristic", 200, 120), lineup_games("random", 200, 100))
    assert verdict_lines(same)[-1] == "'a' gives the most points under every line-up"
    flipped = frame_of(lineup_games("heuristic", 200, 120),
                       lineup_games("random", 200, 100, points=(1.0, 3.0)))
    assert verdict_lines(flipped)[-1] == ("the largest source of points depends on the bots: "
                                          "'a' with heuristic; 'b' with random")
    shares = robustness.source_shares(same).set_index(["lineup", "source"])
    # heuristic: per game a = 3 + 3 + 1 (winner's extra point) = 7 of 7 + 2 = 9 points
    assert shares.loc[("heuristic", "a"), "share"] == pytest.approx(7 / 9)
    assert shares.loc[("heuristic", "a"), "ci_low"] == pytest.approx(7 / 9)  # no variation


def test_lineup_labels_and_single_lineup_has_no_verdicts():
    frame = frame_of(lineup_games("heuristic", 10, 5))
    frame.loc[frame["seat"] == 1, "bot"] = "mcts"
    assert set(robustness.lineup_labels(frame)) == {"heuristic + mcts"}
    assert not robustness.has_lineups(frame)
    assert findings.robustness_verdicts(frame).empty


def test_experiment_format_each_plays_every_distinct_heuristic_style(tmp_path):
    path = tmp_path / "each.toml"
    path.write_text(textwrap.dedent("""
        name = "each"
        games = 10
        [[study]]
        game = "tabula-rasa"
        players = "default"
        bots = ["random", "heuristic:*"]
        format = "each"
    """))
    runs = experiments.load(path, out_root=tmp_path).runs
    heuristics = GAMES["tabula-rasa"].heuristics
    styles = ["heuristic" if k == "default" else f"heuristic:{k}"
              for k, factory in heuristics.items()
              if k == "default" or factory is not heuristics["default"]]
    assert "heuristic:tuned" not in styles  # the tuned style is the default itself
    assert [run.bots for run in runs] == [(bot,) * 3 for bot in ["random", *styles]]
    assert len({run.path for run in runs}) == len(runs)


def test_robustness_experiment_file_plans_every_game_with_the_strong_lineup(tmp_path):
    runs = experiments.load("experiments/robustness.toml", out_root=tmp_path).runs
    for name, game in GAMES.items():
        mine = [r for r in runs if r.game == name and r.players == game.players_default]
        bots = {r.bots[0] for r in mine}
        assert {"random", "heuristic", "mcts:strong"} <= bots, name
        assert {r.games for r in mine} == {2000}, name


@pytest.fixture(scope="module")
def robustness_report(tmp_path_factory) -> Path:
    patch = pytest.MonkeyPatch()
    patch.setitem(GAMES, NIM.name, NIM)
    try:
        root = tmp_path_factory.mktemp("robust")
        for bot in ("heuristic", "random"):
            spec = tournament.RunSpec(game=NIM.name, players=2, games=60, bots=(bot, bot),
                                      seed=2)
            tournament.run(spec, root / bot, jobs=1)
        return reporting.write_report([root / "heuristic", root / "random"], root / "r.html",
                                   bootstrap=5)
    finally:
        patch.undo()


def test_report_shows_whether_findings_hold_with_other_bots(robustness_report):
    text = robustness_report.read_text()
    match = re.search(r"<h2>Does it hold with other bots\?</h2>(.*?)</section>", text, re.DOTALL)
    assert match
    body = match.group(1)
    # take-max Nim on 10 stones: the second seat always wins with the heuristic
    assert "toy-nim, 2 players, official rules: seat 1&#x27;s shortfall" in body
    assert "heuristic (60 games)" in body and "random (60 games)" in body
    assert body.count("data:image/png;base64,") == 1


@needs_chromium
def test_robustness_section_renders_in_headless_chromium(robustness_report, tmp_path):
    dom = chromium_dom(robustness_report, tmp_path)
    section = re.search(r"<h2>Does it hold with other bots\?</h2>(.*?)</section>", dom,
                        re.DOTALL)
    assert section, "section missing from the rendered page"
    body = section.group(1)
    assert "seat 1's shortfall" in body
    assert re.search(r'<img alt="win share by seat under each line-up" '
                     r'src="data:image/png;base64,', body)
    assert len(re.findall(r"<table>", body)) == 1  # seats (Nim has no scoring sources)


def test_report_command_prints_whether_findings_hold_with_other_bots(robustness_report,
                                                                       monkeypatch, capsys):
    from analysis.cli import main

    monkeypatch.setitem(GAMES, NIM.name, NIM)
    root = robustness_report.parent
    assert main(["report", str(root / "heuristic"), str(root / "random"), "--out",
                 str(root / "again.html"), "--no-confirm", "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    head, _, tail = out.partition("Does it hold with other bots?")
    assert tail, out
    assert "  toy-nim, 2 players, official rules: seat 1's shortfall" in tail
    assert "report: " in tail  # the path comes last


def test_simulate_run_prints_the_robustness_verdicts_it_computes(tmp_path, capsys):
    from analysis.cli import main

    path = tmp_path / "lineups.toml"
    path.write_text(textwrap.dedent("""
        name = "lineups"
        seed = 4
        [[study]]
        game = "tabula-rasa"
        players = 2
        bots = ["random", "heuristic"]
        format = "each"
    """))
    assert main(["run", str(path), "--games", "20", "--jobs", "1", "--quiet", "--no-confirm",
                 "--out", str(tmp_path / "out")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Does it hold with other bots?" in out
    assert "tabula-rasa, 2 players, official rules: seat 1" in out
    assert "'" in out.split("Does it hold with other bots?")[1]  # the source verdict too
