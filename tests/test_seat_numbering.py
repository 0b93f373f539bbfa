"""Seats are numbered from 1 wherever a reader meets them: report tables and notebooks."""

from __future__ import annotations

import html
import importlib.util
import io
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.present.formats import seats_from_one
from analysis.present.report import table_html
from engines import GAMES

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_seats_from_one_renumbers_seat_and_team_columns_and_index_levels():
    table = pd.DataFrame({"seat": [0, 1], "best_seat": [1, 0], "team": [0, 1],
                          "share": [0.4, 0.6]})
    shown = seats_from_one(table)
    assert shown[["seat", "best_seat", "team"]].values.tolist() == [[1, 2, 1], [2, 1, 2]]
    assert table["seat"].tolist() == [0, 1]  # a copy: the stored numbering is untouched
    assert seats_from_one(table.set_index("seat")).index.tolist() == [1, 2]


def test_report_tables_number_seats_from_1():
    text = table_html(pd.DataFrame({"seat": [0, 1], "win_share": [0.5, 0.5]}))
    assert re.findall(r"<tr><td>(\d)</td>", text) == ["1", "2"]


def _notebooks():
    pytest.importorskip("nbformat", reason="notebooks extra not installed")
    spec = importlib.util.spec_from_file_location("make_notebooks",
                                                  NOTEBOOKS / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_notebooks"] = module
    spec.loader.exec_module(module)
    return module.notebooks()


#: Calls whose tables carry a seat column (seat, best_seat, worst_seat).
SEAT_TABLES = ("balance.seat_advantage(", "confirm.confirmed_table(",
               "side_by_side(robustness.seat_shares(")


def test_notebooks_show_seat_tables_numbered_from_1():
    for name, nb in _notebooks().items():
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                assert not re.search(r"\bseat 0\b", cell.source), (name, cell.source)
                continue
            if any(call in cell.source for call in SEAT_TABLES):  # styled counts from 1 too
                assert re.search(r"\b(seats_from_one|styled)\(", cell.source), (name, cell.source)


def _first_actors(game, players: int, options: dict, seeds: int = 40) -> set[int]:
    return {game.new_state(players, seed, **options).current_player() for seed in range(seeds)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_declares_who_starts_as_its_engine_plays_it(name):
    """A declared random starter: the seat that acts first varies from game to game; a fixed
    one: it never varies, and a lever's first/last choice is seat 1 / the last seat."""
    game = GAMES[name]
    players = game.players_default
    option = game.starter.option
    choices = [(f"{option}={value}" if option else "", {option: value} if option else {})
               for value in (game.starter.choices if option else [""])]
    for text, options in choices:
        starts = game.who_starts(text)
        actors = _first_actors(game, players, options)
        if starts == "random":
            assert len(actors) > 1, (name, text)
        else:
            assert len(actors) == 1, (name, text, actors)
            if option:
                assert actors == {0 if starts == "first" else players - 1}, (name, text)


def test_seat_order_words_follow_the_game_and_its_rules():
    from analysis.present.formats import seat_order

    assert seat_order("tabula-rasa") == "seat 1 takes the first turn"
    assert seat_order("tabula-rasa", "starting_player=last", 3) == "seat 3 takes the first turn"
    for name in ("ivanhoe", "ninjato", "big-cheese"):
        assert seat_order(name).startswith("the first player is drawn at random each game")
    assert seat_order("ivanhoe", "allow_ties=True,first_starter=first") == \
        "seat 1 takes the first turn"
    assert seat_order("ninjato", "first_round_order=reversed,seat_bonus=0,1,2,3", 4) == \
        "seat 4 takes the first turn"
    assert seat_order("not-a-game") == ""


RANDOM_STARTERS = [name for name, game in sorted(GAMES.items()) if game.who_starts() == "random"]


@pytest.mark.parametrize("name", RANDOM_STARTERS)
def test_summary_of_a_random_starter_game_never_says_seat_1_moves_first(name, capsys,
                                                                       tmp_path):
    from analysis.cli import main

    assert main([name, "--games", "4", "--seed", "2", "--jobs", "1", "--reference", "none",
                 "--out", str(tmp_path / "r")]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the title may wrap
    assert "seat 1 moves first" not in out and "seat 1 takes the first turn" not in out
    assert "Win share by seat (the first player is drawn at random each game" in out


def test_summary_says_seat_1_starts_when_the_lever_makes_it_so(capsys, tmp_path):
    from analysis.cli import main

    assert main(["ivanhoe", "--games", "4", "--seed", "2", "--jobs", "1", "--reference",
                 "none", "--rule", "first_starter=first", "--out", str(tmp_path / "r")]) == 0
    assert "Win share by seat (seat 1 takes the first turn)" in capsys.readouterr().out


def test_report_and_charts_word_seats_from_each_games_starter(tmp_path):
    from analysis.cli import reporting
    from analysis.present import plots
    from analysis.results import runs
    from analysis.run import tournament

    for name in ("ivanhoe", "tabula-rasa"):
        spec = tournament.RunSpec(game=name, players=3, games=4, bots=("random",) * 3, seed=1)
        tournament.run(spec.validated(), tmp_path / name, jobs=1)
    text = html.unescape(reporting.write_report([tmp_path], tmp_path / "r.html",
                                                bootstrap=0).read_text())
    assert "seat 1 moves first" not in text
    assert ("Seats are numbered from 1; ivanhoe: the first player is drawn at random each game "
            "(seat numbers are fixed table positions, not turn order); tabula-rasa: seat 1 "
            "takes the first turn.") in text
    frame, _ = runs.load([tmp_path])
    figure = plots.seat_advantage(frame)
    assert [ax.get_xlabel() for ax in figure.axes if ax.get_visible()] == [
        "seat (first player drawn at random)", "seat (1 takes the first turn)"]


def test_play_help_words_seats_from_the_games_starter(tmp_path):
    from analysis.present.play import play

    stdout = io.StringIO()
    play("ivanhoe", seat=0, bots=["random"], players=2, seed=3, out=tmp_path / "g.json",
         stdin=io.StringIO("?\n"), stdout=stdout)
    text = " ".join(stdout.getvalue().split())
    assert "Seats are numbered from 1 (the first player is drawn at random each game" in text
    assert "seat 1 moves first" not in text


def test_a_starter_must_name_a_choice_option_with_every_choice_mapped():
    from engines.core import Game, Starter
    from tests.toy_games import NIM

    with pytest.raises(ValueError, match="starter's option 'bogus'"):
        Game(name="x", min_players=2, max_players=2, Rules=NIM.Rules,
             create_state=NIM.create_state, starter=Starter("bogus", {"a": "first"}))
    with pytest.raises(ValueError, match="a starter is one of first, last, random"):
        Starter(fixed="second")
