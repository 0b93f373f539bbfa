"""The skill ladder's trend verdicts on hand-made frames: every seat the same bot per level,
each level's seat shares set exactly, so each verdict's reason is known."""

from __future__ import annotations

import pandas as pd
import pytest

from analysis.stats import ladder

LEVELS = ["random", "heuristic", "mcts"]


def _frame(shares: dict[str, list[float]], games: int = 2000, players: int = 2
           ) -> pd.DataFrame:
    """`shares[level][seat]`: that seat's win share at that level, over `games` games (wins
    1, losses 0; the other seats take the rest so every game has one winner)."""
    rows = []
    for level, seat_shares in shares.items():
        wins = [round(s * games) for s in seat_shares]
        for g in range(games):
            winner = next((seat for seat in range(players) if g < sum(wins[:seat + 1])),
                          players - 1)
            for seat in range(players):
                rows.append({"bot": level, "players": players, "seat": seat, "game_index": g,
                             "win_share": float(seat == winner)})
    return pd.DataFrame(rows)


def _verdicts(frame, levels=LEVELS):
    edges = ladder.level_edges(frame, levels)
    trend = ladder.trends(edges)
    return edges, trend, dict(zip(trend["seat"], trend["verdict"]))


def test_an_edge_that_rises_with_every_level_grows():
    frame = _frame({"random": [0.52, 0.48], "heuristic": [0.56, 0.44], "mcts": [0.63, 0.37]})
    edges, trend, verdicts = _verdicts(frame)
    assert verdicts == {0: "grows", 1: "grows"}  # seat 2's shortfall deepens alike
    line = ladder.seat_sentences(edges, trend)[0]
    assert line.startswith("seat 1's edge grows with skill: random +2.0")
    assert "mcts +13.0" in line and "Holm over 2 seats" in line
    assert ladder.stronger_play(trend, edges) == "seat 1: grows"
    assert ladder.headline(edges, trend).startswith("at mcts (the strongest level measured): ")


def test_an_edge_that_falls_towards_zero_shrinks():
    frame = _frame({"random": [0.62, 0.38], "heuristic": [0.57, 0.43], "mcts": [0.51, 0.49]})
    assert _verdicts(frame)[2][0] == "shrinks"


def test_a_flat_edge_is_stable():
    frame = _frame({"random": [0.53, 0.47], "heuristic": [0.53, 0.47], "mcts": [0.53, 0.47]},
                   games=20000)
    edges, trend, verdicts = _verdicts(frame)
    assert verdicts == {0: "stable", 1: "stable"}
    assert "stable across skill" in ladder.seat_sentences(edges, trend)[0]


def test_an_edge_that_changes_sign_reverses():
    frame = _frame({"random": [0.58, 0.42], "heuristic": [0.50, 0.50], "mcts": [0.42, 0.58]})
    edges, trend, verdicts = _verdicts(frame)
    assert verdicts[0] == "reverses"
    assert "reverses with skill" in ladder.seat_sentences(edges, trend)[0]


def test_too_few_games_cannot_tell():
    frame = _frame({"random": [0.52, 0.48], "heuristic": [0.56, 0.44], "mcts": [0.9, 0.1]},
                   games=20)
    edges, trend, verdicts = _verdicts(frame)
    assert verdicts == {0: "cannot tell", 1: "cannot tell"}
    assert "too few games" in ladder.seat_sentences(edges, trend)[0]


def test_a_flat_edge_with_wide_intervals_is_not_called_stable():
    """60 games a level: the slope's interval allows a change of more than a fifth of the
    fair share (10 points at two players) over the ladder."""
    frame = _frame({"random": [0.53, 0.47], "heuristic": [0.53, 0.47], "mcts": [0.53, 0.47]},
                   games=60)
    assert _verdicts(frame)[2][0] == "cannot tell"


def test_the_trend_is_corrected_over_the_seats():
    """A slope significant alone (p about 0.03) but not after Holm over four seats."""
    shares = {"random": [0.25, 0.25, 0.25, 0.25], "heuristic": [0.25, 0.25, 0.25, 0.25],
              "mcts": [0.279, 0.25, 0.25, 0.221]}
    edges, trend, verdicts = _verdicts(_frame(shares, games=2000, players=4))
    seat = trend.set_index("seat").loc[0]
    assert seat["p_trend"] < 0.05 <= seat["p_adjusted"]
    assert verdicts[0] == "cannot tell"


@pytest.mark.parametrize("levels", [["random"], ["heuristic"]])
def test_one_level_has_no_trend(levels):
    frame = _frame({levels[0]: [0.55, 0.45]})
    edges, trend, verdicts = _verdicts(frame, levels)
    assert set(verdicts.values()) == {"cannot tell"}
    assert ladder.stronger_play(trend, edges) == "–"


def test_ladder_cli_plays_every_level_on_the_same_deals(capsys, tmp_path):
    from analysis.cli import main
    from analysis.results import store

    out = tmp_path / "ladder"
    argv = ["ladder", "tabula-rasa", "--players", "3", "--levels", "random,heuristic",
            "--games", "40", "--seed", "4", "--jobs", "1", "--out", str(out), "-q"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "skill ladder, weakest first: random, heuristic" in text
    assert "games/s" in text and "Designer summary under heuristic play" in text
    assert "Holm over the output's 6 tests" in text  # 3 seats' tests and 3 trends: one family
    seeds = [set(store.load_runs([out / level])["seed"]) for level in ("random", "heuristic")]
    assert seeds[0] == seeds[1] and len(seeds[0]) == 40  # paired deals
    assert main(argv) == 0  # a rerun finishes nothing more and prints the same verdicts
    again = capsys.readouterr().out
    assert "random 40 games at" in again and "games/s" in again  # the recorded cost


@pytest.mark.parametrize("extra, message", [
    (["--levels", "heuristic,nosuchbot"], "unknown bot 'nosuchbot'"),
    (["--levels", "heuristic"], "at least two levels"),
    (["--levels", "random,heuristic", "--games", "10,10,10"], "3 counts for 2 levels"),
    (["--levels", "random,heuristic", "--games", "0"], "--games must be positive"),
    (["--players", "9"], "2-4 players, got 9"),
])
def test_ladder_bad_input_is_one_line_exit_2_and_writes_nothing(capsys, tmp_path, extra,
                                                                 message):
    from analysis.cli import main

    out = tmp_path / "ladder"
    assert main(["ladder", "tabula-rasa", "--out", str(out), "-q", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and message in err and err.count("\n") == 1
    assert not out.exists()


def test_a_trend_that_turns_back_at_the_top_says_so():
    frame = _frame({"random": [0.52, 0.48], "heuristic": [0.60, 0.40], "mcts": [0.57, 0.43]},
                   games=4000)
    edges, trend, verdicts = _verdicts(frame)
    assert verdicts[0] == "grows"
    assert "not at every step (the edge is largest under heuristic)" in \
        ladder.seat_sentences(edges, trend)[0]


def test_designer_summary_has_an_under_stronger_play_column_only_from_a_ladder():
    from analysis.present import designer

    frame = _frame({"heuristic": [0.6, 0.4]}).assign(game="tabula-rasa", rules="")
    plain = designer.summary_table(frame)
    assert "under stronger play" not in plain.columns
    table = designer.summary_table(frame, stronger={("tabula-rasa", 2, ""): "seat 1: grows"})
    assert list(table["under stronger play"]) == ["seat 1: grows"]
    assert "under stronger play" in designer.compact(table).columns
    assert "under stronger play: the skill ladder's verdict" in designer.note(table)


def test_game_command_with_a_ladder_summarises_its_strongest_level(capsys, tmp_path):
    """`simulate GAME --ladder`: the strongest level's summary, its balance verdict named at
    that level, the designer column and a trend line per seat, all in one family."""
    import html

    from analysis.cli import main

    out, report = tmp_path / "ladder", tmp_path / "r.html"
    argv = ["tabula-rasa", "--players", "3", "--ladder", "--levels",
            "random,heuristic,mcts:iterations=2", "--games", "40", "--seed", "4", "--jobs", "1",
            "--out", str(out), "--reference", "none", "--report", str(report)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "skill ladder, weakest first: random, heuristic, mcts:iterations=2" in text
    assert "mcts:iterations=2 40 games at " in text and "games/s" in text
    assert "  at mcts:iterations=2 (the strongest level measured): balance: " in text
    assert ("Holm over the 6 tests in this summary (one family: every seat, bot and "
            "robustness test and every skill-ladder trend)") in text  # 3 seats + 3 trends
    trends = [line for line in text.splitlines() if "changes with skill" in line
              or "with skill:" in line]
    assert len(trends) == 3 and all("(Holm over the summary's 6 tests)" in t for t in trends)
    assert "mcts_iterations=2" in text.split("results: ")[1]  # the strongest level's run
    page = html.unescape(report.read_text())
    assert "under stronger play</th>" in page and "Under stronger play: the skill ladder" in page


def test_a_trend_in_a_larger_output_is_judged_by_that_outputs_one_family():
    """Significant after Holm over its 2 seats, but not among 22 tests of a report: the
    verdict and its sentence follow the family the output adjusts in (the slope's interval
    then keeps the change within the tolerance: stable)."""
    from analysis.stats import findings

    frame = _frame({"random": [0.52, 0.48], "heuristic": [0.54, 0.46], "mcts": [0.56, 0.44]})
    frame = frame.assign(game="tabula-rasa", rules="")
    alone = ladder.of_frame(frame, LEVELS)
    assert alone.trend["verdict"].tolist() == ["grows", "grows"]
    assert "(Holm over 2 seats)" in alone.sentences()[0]
    others = pd.DataFrame({"kind": ["sweep"] * 20, "subject": ["x"] * 20, "p_value": [0.9] * 20})
    tests = findings.family(pd.DataFrame(), extra=pd.concat(
        [others, ladder.family_rows([alone])], ignore_index=True))
    (within,) = ladder.readjusted([alone], tests, "report")
    assert within.trend["verdict"].tolist() == ["stable", "stable"]
    assert "(Holm over the report's 22 tests)" in within.sentences()[0]
    assert within.stronger_play() == "seat 1: stable"


def test_a_reversing_edge_is_not_called_significant_before_correction():
    frame = _frame({"random": [0.58, 0.42], "heuristic": [0.50, 0.50], "mcts": [0.42, 0.58]})
    edges, trend, _ = _verdicts(frame)
    line = ladder.seat_sentences(edges, trend)[0]
    assert "reverses with skill (edges of both signs whose intervals exclude zero)" in line
    assert "significant" not in line


def test_a_levels_edge_interval_is_the_seat_share_interval_the_summary_quotes():
    # the ladder line and the designer summary quote the same seat at the strongest level:
    # both give the seat share's Wilson interval, so the two lines cannot disagree
    from analysis.stats import balance

    frame = _frame({"random": [0.30, 0.24, 0.23, 0.23], "heuristic": [0.27, 0.25, 0.24, 0.24],
                    "mcts": [0.31, 0.23, 0.23, 0.23]}, games=400, players=4)
    edges = ladder.level_edges(frame, LEVELS)
    for level in LEVELS:
        summary = balance.seat_win_share(frame[frame["bot"] == level].assign(score=0.0))
        for seat in range(4):
            mine = edges[(edges["level"] == level) & (edges["seat"] == seat)].iloc[0]
            theirs = summary[summary["seat"] == seat].iloc[0]
            assert mine["edge_low"] == pytest.approx(theirs["ci_low"] - 0.25)
            assert mine["edge_high"] == pytest.approx(theirs["ci_high"] - 0.25)


def test_an_interval_end_near_zero_is_not_printed_as_zero():
    # an interval that excludes zero by less than 0.05 points must not read [+0.0, ...]
    frame = _frame({"random": [0.52, 0.48], "heuristic": [0.56, 0.44], "mcts": [0.63, 0.37]})
    edges, trend, _ = _verdicts(frame)
    top = edges["rank"] == edges["rank"].max()
    edges.loc[top & (edges["seat"] == 0), "edge_low"] = 0.0004
    edges.loc[top & (edges["seat"] == 1), "edge_high"] = -0.0004
    assert "[+0.04, " in ladder.headline(edges, trend)
    lines = ladder.seat_sentences(edges, trend)
    assert "mcts +13.0 [+0.04, " in lines[0] and ", -0.04]" in lines[1]
    assert "excludes zero" in ladder.headline(edges, trend)
