"""The balance explorer (`analysis.cli.explorer`, notebooks/explorer.ipynb) driven without a
kernel: set the widgets' values, click Run, read the Output widget."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ipywidgets", reason="notebooks extra not installed")

from analysis.cli.explorer import Explorer  # noqa: E402
from engines import get_game  # noqa: E402
from engines.core import rule_options  # noqa: E402


def _texts(explorer: Explorer) -> list[str]:
    return [o["text"] for o in explorer.output.outputs if o["output_type"] == "stream"]


def _summary(explorer: Explorer) -> str:
    return next(o["data"]["text/html"] for o in explorer.output.outputs
                if "text/html" in o.get("data", {}))


def _charts(explorer: Explorer) -> int:
    return sum("image/png" in o.get("data", {}) for o in explorer.output.outputs)


def test_run_fills_the_progress_bar_from_the_runner_chunk_by_chunk(tmp_path: Path):
    explorer = Explorer(game="tabula-rasa", players=2, bots="random", games=30,
                        out_dir=tmp_path)
    seen = []
    explorer.progress.observe(lambda change: seen.append(change["new"]), names="value")
    assert explorer.output.outputs == ()
    explorer.run_button.click()
    assert explorer.progress.max == explorer.progress.value == 30
    assert explorer.progress.bar_style == "success"
    assert seen == [10, 20, 30]  # three chunks of ten games, each counted as it finished
    assert explorer.status.value == "30 of 30 games"
    assert "Designer summary" not in _texts(explorer)[0]
    assert "tabula-rasa, 2 players, official rules" in _texts(explorer)[0]
    assert "balanced" in _summary(explorer)
    assert _charts(explorer) == 2  # win share by seat, points by scoring source


def test_the_output_follows_the_player_count(tmp_path: Path):
    explorer = Explorer(game="tabula-rasa", players=2, bots="random", games=12,
                        out_dir=tmp_path)
    explorer.run_button.click()
    two = _summary(explorer)
    explorer.players.value = 3
    assert len(explorer.seats.children) == 3
    explorer.run_button.click()
    three = _summary(explorer)
    assert two != three
    assert "3 players" in _texts(explorer)[0] and "2 players" not in _texts(explorer)[0]
    assert [int(p) for p in explorer.frame["players"].unique()] == [3]
    assert [d.name for d in explorer.run_dirs] == ["001-tabula-rasa-2p", "002-tabula-rasa-3p"]


def test_the_pickers_follow_the_game_and_reach_the_run(tmp_path: Path):
    explorer = Explorer(game="tabula-rasa", games=12, bots="random", out_dir=tmp_path)
    explorer.game.value = "ninjato"
    game = get_game("ninjato")
    assert explorer.players.options == tuple(range(game.min_players, game.max_players + 1))
    assert [p.description for p in explorer.rules.children] == \
        [o["name"] for o in rule_options(game.Rules)]
    assert explorer.chosen_rules() == {}  # every picker starts at the official value
    items = {p.description: p for p in explorer.items.children}
    items["alarm_guards"].value = "5"
    rules = {p.description: p for p in explorer.rules.children}
    rules["first_round_order"].value = "seats"
    explorer.players.value = 2
    explorer.seats.children[0].value = "heuristic"
    assert explorer.chosen_rules() == {"first_round_order": "seats",
                                       "components.alarm_guards": "5"}
    assert explorer.spec().bots == ("heuristic", "random")
    explorer.run_button.click()
    line = _texts(explorer)[0]
    assert "ninjato, 2 players" in line and "first_round_order=seats" in line
    assert "+alarm_guards=5" in line  # the data set the run played
    assert "line-up heuristic, random" in line


def test_a_game_without_guessed_data_says_so_instead_of_items():
    explorer = Explorer(game="big-cheese")
    assert [p.value for p in explorer.items.children] == ["none: every component is official"]


def test_a_bad_value_shows_one_error_line_and_plays_nothing(tmp_path: Path):
    explorer = Explorer(game="tabula-rasa", players=2, games=12, out_dir=tmp_path)
    bonus = next(p for p in explorer.rules.children if p.description == "seat_bonus")
    bonus.value = "x"
    explorer.run_button.click()
    assert len(explorer.output.outputs) == 1
    output = explorer.output.outputs[0]
    assert output["name"] == "stderr" and output["text"].startswith("error: ")
    assert output["text"].count("\n") == 1
    assert explorer.progress.bar_style == "danger"
    assert list(tmp_path.iterdir()) == [] and explorer.run_dirs == []


def test_a_bug_is_shown_in_the_output_not_only_in_the_log(tmp_path: Path, monkeypatch):
    from analysis.cli import explorer as module

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(module.designer, "summary_table", broken)
    explorer = Explorer(game="tabula-rasa", players=2, bots="random", games=12,
                        out_dir=tmp_path)
    explorer.run_button.click()
    text = explorer.output.outputs[-1]["text"]
    assert text.startswith("internal error (a bug in tabletop-sim") and "ZeroDivisionError" in text


def test_starting_values_set_the_pickers():
    explorer = Explorer(game="ninjato", players=3, bots="random,heuristic",
                        rules={"token_choice": "lowest", "components.alarm_guards": "15"})
    assert [p.value for p in explorer.seats.children] == ["random", "heuristic", "heuristic"]
    assert explorer.chosen_rules() == {"token_choice": "lowest",
                                       "components.alarm_guards": "15"}
