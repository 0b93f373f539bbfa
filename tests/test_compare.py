"""Duplicate-format comparisons: line-ups, permutations, shared deals, and the CLI."""

from __future__ import annotations

import pytest

from analysis.cli import main
from analysis.run import compare
from analysis.stats import balance


def test_fill_last_matches_the_runner_and_alternate_cycles():
    assert compare.fill(["A", "B"], 4, "last") == ("A", "B", "B", "B")
    assert compare.fill(["A", "B"], 4, "alternate") == ("A", "B", "A", "B")
    with pytest.raises(ValueError, match="different"):
        compare.fill(["A", "A"], 2)
    with pytest.raises(ValueError, match="--fill"):
        compare.fill(["A", "B"], 2, "zigzag")


def test_permutations_are_distinct_seatings():
    assert len(compare.permutations(("A", "B"))) == 2
    assert len(compare.permutations(("A", "B", "B", "B"))) == 4
    assert len(compare.permutations(("A", "B", "A", "B"))) == 6
    assert len(compare.permutations(("A", "B", "C"))) == 6


def test_duplicate_replays_each_deal_in_every_seating(tmp_path):
    spec = compare.CompareSpec(game="tabula-rasa", players=2, games=10,
                               bots=("heuristic", "random"), seed=5)
    assert spec.deals == 5
    result = compare.run_duplicate(spec, tmp_path / "cmp", jobs=1)
    frame = result.frame
    assert frame.groupby(balance.GAME_KEY).ngroups == 10
    per_seed = frame[frame["seat"] == 0].groupby("seed")["bot"].agg(sorted)
    assert len(per_seed) == 5
    assert all(bots == ["heuristic", "random"] for bots in per_seed)
    # the same seed gives the same deal: replaying it into the same seating repeats the game
    again = compare.run_duplicate(spec, tmp_path / "cmp", jobs=1).frame
    assert again["score"].sum() == frame["score"].sum()


def test_narrowing_table_compares_half_widths(tmp_path):
    spec = compare.CompareSpec(game="tabula-rasa", players=2, games=12,
                               bots=("heuristic", "random"), seed=3)
    dup = compare.run_duplicate(spec, tmp_path / "d", jobs=1).frame
    rot = compare.run_rotation(spec, tmp_path / "r", jobs=1)
    table = compare.narrowing(dup, rot).set_index("bot")
    assert table.loc["heuristic", "games_duplicate"] == table.loc["heuristic", "games_rotation"]
    expected = (table.loc["heuristic", "half_width_duplicate"]
                / table.loc["heuristic", "half_width_rotation"])
    assert table.loc["heuristic", "ratio"] == pytest.approx(expected)


def test_compare_cli_prints_ratings_and_matrix(tmp_path, capsys):
    code = main(["compare", "tabula-rasa", "--bots", "heuristic,random", "--players", "2",
                 "--games", "6", "--seed", "1", "--jobs", "1", "--quiet", "--bootstrap", "5",
                 "--out", str(tmp_path / "c"), "--report", str(tmp_path / "c.html")])
    out = capsys.readouterr().out
    assert code == 0
    assert "ratings" in out and "Pairwise" in out and "3 deals x 2 seatings" in out
    assert (tmp_path / "c.html").is_file()


@pytest.mark.parametrize("argv, message", [
    (["compare", "no-such-game"], "unknown game"),
    (["compare", "tabula-rasa", "--bots", "heuristic"], "at least two"),
    (["compare", "tabula-rasa", "--bots", "heuristic,nosuchbot"], "unknown bot"),
    (["compare", "tabula-rasa", "--games", "0"], "--games"),
    (["compare", "tabula-rasa", "--fill", "zigzag"], "--fill"),
    (["compare", "tabula-rasa", "--players", "9"], "players"),
])
def test_compare_cli_bad_input_is_one_line_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
