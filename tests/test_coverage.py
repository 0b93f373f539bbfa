"""Game systems used: coverage statistics, the summary's warning line.

The hand-made frame: one context, bots `a` and `b`, four seat-games each, two kinds.
"""

from __future__ import annotations

import html
import io
import json
import re

import pandas as pd
import pytest
from rich.console import Console

from analysis.present import coverage
from analysis.present.report import systems_section
from analysis.present.summary import print_summary
from analysis.results.runs import RunResult
from analysis.run import reference, tournament
from analysis.stats import balance, verdicts
from engines import GAMES
from tests.toy_games import SHOWDOWN


def hand_frame() -> pd.DataFrame:
    rows = []
    # per bot: (k_sensei_skill, a_sensei_skill, k_dojo, a_dojo) over its four seat-games;
    # NaN: availability not measured in that game
    nan = float("nan")
    plays = {"a": ([0, 0, 0, 0], [1, 2, 0, 1], [3, 1, 0, 2], [4, nan, 2, 3]),
             "b": ([1, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [1, 1, 1, 1])}
    for game_index in range(4):
        for seat, bot in enumerate(("a", "b") if game_index % 2 == 0 else ("b", "a")):
            k_skill, a_skill, k_dojo, a_dojo = (values[game_index] for values in plays[bot])
            rows.append({"run_id": "r", "game": "toy", "rules": "", "players": 2,
                         "game_index": game_index, "seed": game_index, "seat": seat, "bot": bot,
                         "score": 1.0, "win_share": 0.5, "truncated": False,
                         "k_sensei_skill": k_skill, "a_sensei_skill": a_skill,
                         "k_dojo": k_dojo, "a_dojo": a_dojo})
    return pd.DataFrame(rows)


def test_coverage_on_a_hand_made_frame():
    table = balance.coverage(hand_frame()).set_index(["bot", "kind"])
    a_skill, a_dojo = table.loc[("a", "sensei skill")], table.loc[("a", "dojo")]
    assert a_skill["seat_games"] == 4
    assert a_skill["used_share"] == 0 and a_skill["mean_uses"] == 0
    assert a_skill["available_share"] == 0.75 and a_skill["used_when_available"] == 0
    assert a_skill["measured_games"] == 4
    assert a_dojo["used_share"] == 0.75 and a_dojo["mean_uses"] == 1.5
    # game 1 of `a` was not measured: availability is a share of the three measured games
    assert a_dojo["measured_games"] == 3 and a_dojo["available_share"] == 1.0
    assert a_dojo["used_when_available"] == pytest.approx(2 / 3)  # used in games 0 and 3
    b_skill, b_dojo = table.loc[("b", "sensei skill")], table.loc[("b", "dojo")]
    assert b_skill["used_share"] == 0.25 and b_skill["mean_uses"] == 0.25
    assert b_skill["available_share"] == 1.0 and b_skill["used_when_available"] == 0.25
    assert b_dojo["used_share"] == 1.0 and b_dojo["mean_uses"] == 2.0


def test_coverage_of_a_frame_without_kinds_is_empty():
    frame = hand_frame().drop(columns=["k_sensei_skill", "a_sensei_skill", "k_dojo", "a_dojo"])
    assert balance.coverage(frame).empty
    assert coverage.neglect_lines(frame) == []


def test_neglect_lines_name_what_each_bot_never_used():
    lines = coverage.neglect_lines(hand_frame())
    assert lines == [
        "a never used: sensei skill (available in 75% of games)",
        "b used every system that was legal at its own decisions (each in at least 1% of its "
        "games)",
    ]
    strict = coverage.neglect_lines(hand_frame(), rarely=0.3)
    assert strict[1] == ("b almost never used (in under 30% of its games): sensei skill "
                         "(used in 25%, available in 100% of games)")
    # a kind available in too few games is not flagged
    assert coverage.neglect_lines(hand_frame(), offered=0.8)[0].startswith("a used every")


def test_neglect_lines_name_the_context_when_there_are_several():
    frame = pd.concat([hand_frame(), hand_frame().assign(players=3, run_id="s")])
    lines = coverage.neglect_lines(frame)
    assert len(lines) == 4
    assert lines[0].startswith("toy, 2 players, official rules: a never used")
    assert lines[2].startswith("toy, 3 players, official rules: a never used")


def test_summary_prints_the_warning_line_per_bot(monkeypatch, tmp_path):
    """The always-call bot never folds, though it may fold in every game it sits first."""
    monkeypatch.setitem(GAMES, SHOWDOWN.name, SHOWDOWN)
    spec = tournament.RunSpec(game=SHOWDOWN.name, players=2, games=40,
                              bots=("heuristic", "random"), seed=5)
    result = tournament.run(spec, tmp_path / "run", jobs=1)
    buffer = io.StringIO()
    print_summary(Console(file=buffer, width=100), result,
                  skipped=reference.skipped_against_reference(result.frame, [result.manifest]))
    lines = buffer.getvalue().splitlines()
    assert "heuristic never used: fold (available in 50% of games)" in lines
    assert any(re.fullmatch(r"random used every system that was legal at its own decisions.*",
                            line)
               for line in lines)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_simulate_prints_a_systems_line_for_every_bot(name, capsys, tmp_path):
    from analysis.cli import main

    game = GAMES[name]
    code = main([name, "--games", "6", "--players", str(game.min_players), "--seed", "3",
                 "--jobs", "1", "--bots", "heuristic,random", "--out", str(tmp_path / "r")])
    assert code == 0
    out = capsys.readouterr().out
    for bot in ("heuristic", "random"):
        assert re.search(rf"^{bot} (never used|almost never used|used every system|"
                         r"never played|almost never played)", out,
                         re.MULTILINE), out[-600:]



def test_list_shows_each_games_action_kinds(capsys):
    from analysis.cli import main

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for game in GAMES.values():
        assert f"  action kinds: {', '.join(game.action_kinds)}" in out


def test_summary_names_a_kind_the_reference_reaches_and_the_bot_never_uses(monkeypatch,
                                                                            tmp_path):
    """The always-call heuristic alone in every seat: its own availability cannot show fold
    as skipped against random play, the reference run does (played once, then cached)."""
    monkeypatch.setitem(GAMES, SHOWDOWN.name, SHOWDOWN)
    spec = tournament.RunSpec(game=SHOWDOWN.name, players=2, games=30,
                              bots=("heuristic", "heuristic"), seed=5)
    result = tournament.run(spec, tmp_path / "run", jobs=1)
    buffer = io.StringIO()
    print_summary(Console(file=buffer, width=100), result,
                  skipped=reference.skipped_against_reference(result.frame, [result.manifest]))
    lines = buffer.getvalue().splitlines()
    line = next(line for line in lines if line.startswith("heuristic never played"))
    assert re.fullmatch(r"heuristic never played fold \(random play reaches it in \d+% of "
                        r"games\)", line), line
    cached = list(reference.cache_root().glob(f"{SHOWDOWN.name}-2p-*"))
    assert len(cached) == 1  # the reference run, cached per configuration
    table = reference.skipped_against_reference(result.frame, [result.manifest])
    assert table[0][1].numbers["never"] == 1.0
    # measured in the run itself when the frame holds the reference line-up
    own = reference.reference_frame(result.manifest, "heuristic", frame=result.frame)
    assert len(own) == len(result.frame)
    assert len(list(reference.cache_root().glob(f"{SHOWDOWN.name}-2p-*"))) == 1


def test_a_reference_cache_entry_this_version_cannot_use_is_played_again(monkeypatch,
                                                                          tmp_path):
    """A cached reference from another version of the toolkit (or damaged) is a cache miss,
    not an error the user must clean up by hand."""
    monkeypatch.setitem(GAMES, SHOWDOWN.name, SHOWDOWN)
    spec = tournament.RunSpec(game=SHOWDOWN.name, players=2, games=10,
                              bots=("heuristic", "heuristic"), seed=5)
    manifest = tournament.run(spec, tmp_path / "run", jobs=1).manifest
    first = reference.reference_frame(manifest, games=20)
    cached = reference._cache_dir(manifest, reference.REFERENCE_BOT, 20)
    stale = json.loads((cached / "manifest.json").read_text())
    stale["games"] = 7  # what another version recorded for the same key
    (cached / "manifest.json").write_text(json.dumps(stale))
    again = reference.reference_frame(manifest, games=20)
    assert len(again) == len(first)
    assert json.loads((cached / "manifest.json").read_text())["games"] == 20


def _skipped_by_b() -> list:
    """A reference check that found `b` skipping a system its own games never offered it."""
    found = verdicts.skipped_systems({"sensei skill": 0.25, "dojo": 1.0},
                                     {"sensei skill": 0.5, "dojo": 1.0, "hand limit discard": 0.42},
                                     "b")
    return [({"game": "toy", "players": 2, "rules": ""}, found)]


def test_summary_never_says_used_every_system_above_a_system_it_never_played(tmp_path):
    result = RunResult(frame=hand_frame(), run_dir=tmp_path, games_played_now=4, seconds=1.0,
                       manifest={"game": "toy", "players": 2, "seed": 1, "dataset": "official",
                                 "rules_str": ""})
    buffer = io.StringIO()
    print_summary(Console(file=buffer, width=100), result, skipped=_skipped_by_b())
    lines = buffer.getvalue().splitlines()
    assert "b never played hand limit discard (random play reaches it in 42% of games)" in lines
    assert not any(line.startswith("b used every system") for line in lines)
    assert "a never used: sensei skill (available in 75% of games)" in lines


def test_report_systems_section_never_says_used_every_system_above_a_skipped_one():
    section = html.unescape(systems_section(hand_frame(), _skipped_by_b()))
    assert "b never played hand limit discard" in section
    assert "b used every system" not in section


def test_used_every_system_is_said_when_the_reference_check_found_nothing_skipped():
    found = [({"game": "toy", "players": 2, "rules": ""},
              verdicts.skipped_systems({"sensei skill": 0.25, "dojo": 1.0},
                                       {"sensei skill": 0.5, "dojo": 1.0}, "b"))]
    lines = coverage.neglect_lines(hand_frame(), skipped=found)
    assert lines[1].startswith("b used every system that was legal at its own decisions")


@pytest.mark.parametrize("option", ["-q", "--quiet"])
def test_quiet_summary_still_names_the_systems_the_bots_skipped(option, capsys, tmp_path):
    """The Ninjato heuristic never plays a choho swap, which random play reaches in about
    20% of its games: -q quiets the output, it must not drop that check."""
    from analysis.cli import main

    assert main(["ninjato", "--games", "6", "--seed", "3", "--jobs", "1", option,
                 "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "choho" in out  # the designer summary's skipped cell (choho swap), one word:
    # a cell wraps between words
    assert not re.search(r"│ none +│", out)


def test_reference_none_says_the_check_was_not_run(capsys, tmp_path):
    from analysis.cli import main

    assert main(["ninjato", "--games", "6", "--seed", "3", "--jobs", "1", "--reference",
                 "none", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "skipped systems: not checked" in out
    assert re.search(r"│ not checked +│", out)
    assert not re.search(r"│ none +│", out)


def test_quiet_ladder_summary_still_names_the_systems_its_strongest_level_skipped(capsys,
                                                                                tmp_path):
    from analysis.cli import main

    assert main(["ninjato", "--ladder", "--levels", "random,heuristic", "--games", "4",
                 "--seed", "3", "--jobs", "1", "-q", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "choho" in out  # the designer summary's skipped cell (choho swap), one word:
    # a cell wraps between words
    assert not re.search(r"│ (none|not checked) +│", out)
