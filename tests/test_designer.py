"""The designer summary: one row per game × player count with the answers first."""

from __future__ import annotations

import re

import pandas as pd

from analysis.cli import main, reporting
from analysis.present import designer
from analysis.results import runs
from analysis.run import reference, tournament
from analysis.stats import findings


def _run(path, bots=("heuristic",), players=3, games=60, seed=5):
    spec = tournament.RunSpec(game="tabula-rasa", players=players, games=games,
                              bots=tournament.fill_lineup(list(bots), players), seed=seed)
    return tournament.run(spec.validated(), path, jobs=1)


def test_summary_row_per_game_and_player_count(tmp_path):
    _run(tmp_path / "a", players=3)
    _run(tmp_path / "b", players=4)
    frame, manifests = runs.load([tmp_path])
    table = designer.summary_table(
        frame, skipped=reference.skipped_against_reference(frame, manifests))
    assert table[["game", "players"]].values.tolist() == [["tabula-rasa", 3], ["tabula-rasa", 4]]
    assert set(table.columns) >= {"balanced", "fresh deals", "largest seat edge",
                                  "largest source", "bots skipped"}
    assert "variant worth testing" not in table  # no sweep ran
    assert all(re.match(r"(yes, within|within ×|a real edge: |no: |cannot tell: edges)", b)
               for b in table["balanced"])
    assert table["largest seat edge"].iloc[1].startswith("team of seats")  # 4p: partnerships


def test_summary_says_no_and_names_the_seat_when_one_is_off(tmp_path):
    tests = pd.DataFrame({
        "game": ["g"] * 2, "players": [2] * 2, "rules": [""] * 2, "kind": ["seat"] * 2,
        "subject": ["seat 1", "seat 2"], "games": [1000] * 2, "share": [0.6, 0.4],
        "ci_low": [0.57, 0.37], "ci_high": [0.63, 0.43], "fair": [0.5] * 2,
        "effect": [0.1, -0.1], "mde": [0.04] * 2, "p_value": [1e-9] * 2,
        "p_adjusted": [2e-9] * 2, "significant": [True] * 2, "tests": [2] * 2,
        "confirmed": [True, True], "confirm_games": [1000.0] * 2,
        "confirm_share": [0.59, 0.42], "confirm_low": [0.55, 0.39],
        "confirm_high": [0.61, 0.45], "confirm_p": [1e-6] * 2})
    frame = pd.DataFrame({"game": ["g"], "players": [2], "rules": [""], "bot": ["x"],
                          "run_id": ["r"], "game_index": [0], "seat": [0]})
    row = designer.summary_table(frame, tests).iloc[0]
    # confirmed: quoted with the fresh estimate
    assert row["balanced"] == ("a real edge: seat 1's edge +9.0 points [+5.0, +11.0] (confirmed "
                               "on 1,000 fresh games); cannot tell yet if beyond ×1.2 of fair")
    assert row["fresh deals"] == "confirmed"
    assert row["largest seat edge"] == "seat 1 +9.0 [+5.0, +11.0]"


def test_cli_game_summary_prints_the_designer_table(tmp_path, capsys):
    assert main(["tabula-rasa", "--games", "40", "--players", "3", "--seed", "5", "--jobs",
                 "1", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "Designer summary" in out and "tabula-rasa 3p" in out
    assert "no seat edge larger than" not in out


def test_report_opens_with_the_designer_summary(tmp_path):
    _run(tmp_path / "a")
    path = reporting.write_report([tmp_path / "a"], tmp_path / "r.html", bootstrap=0)
    text = path.read_text()
    assert text.index("id='designer-summary'") < text.index("Headline findings")


def test_simulate_run_prints_the_designer_summary_not_only_the_report_path(tmp_path, capsys):
    path = tmp_path / "mini.toml"
    path.write_text('name = "mini"\nseed = 5\n[[study]]\ngame = "tabula-rasa"\nplayers = 3\n'
                    'bots = ["heuristic"]\nladder = false\n')
    assert main(["run", str(path), "--games", "30", "--jobs", "1", "--quiet",
                 "--no-confirm", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Designer summary: mini" in out and "tabula-rasa 3p" in out
    assert re.search(r"│ (yes|no:|cannot) ", out)  # the balanced column (cells may wrap)
    assert "report: " in out.split("Designer summary: mini")[1]  # the path comes last


def test_a_refuted_seat_is_not_named_and_the_summary_says_so():
    tests = pd.DataFrame({
        "game": ["g"] * 2, "players": [2] * 2, "rules": [""] * 2, "kind": ["seat"] * 2,
        "subject": ["seat 1", "seat 2"], "games": [400] * 2, "share": [0.56, 0.44],
        "ci_low": [0.51, 0.39], "ci_high": [0.61, 0.49], "fair": [0.5] * 2,
        "effect": [0.06, -0.06], "mde": [0.07] * 2, "p_value": [0.01] * 2,
        "p_adjusted": [0.02] * 2, "significant": [True] * 2, "tests": [2] * 2,
        "confirmed": [False, False], "confirm_games": [400.0] * 2,
        "confirm_share": [0.505, 0.495], "confirm_low": [0.40, 0.39],
        "confirm_high": [0.61, 0.60], "confirm_p": [0.8] * 2})
    frame = pd.DataFrame({"game": ["g"], "players": [2], "rules": [""], "bot": ["x"],
                          "run_id": ["r"], "game_index": [0], "seat": [0]})
    row = designer.summary_table(frame, tests).iloc[0]
    assert row["balanced"].startswith("cannot tell: edges")  # judged on the fresh deals
    assert row["fresh deals"] == "not confirmed: seat 1, seat 2"
    [(_, verdict)] = findings.balance_verdicts(tests)
    assert "seat 1's first-deal edge +6.0 points was not confirmed on 400 fresh games " \
           "(50.5% [40.0, 61.0])" in verdict.claim
