"""`simulate tune`: racing a heuristic's documented parameters in duplicate format, style files
and the parameter declarations every game's heuristic carries."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

import engines
from analysis.cli import main
from analysis.run import tune
from engines.bots import BotSpecError, make_bot
from engines.bots.options import Param
from engines.bots.styles import load_style, register_style
from tests.toy_games import AIM


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def aim(monkeypatch):
    """The toy aim game registered for the runner (played in this process, jobs=1), with its
    heuristic styles copied so that registering a style does not leak into other tests."""
    game = dataclasses.replace(AIM, heuristics=dict(AIM.heuristics))
    monkeypatch.setitem(engines.GAMES, game.name, game)
    return game


def aim_spec(budget: int = 4000, **kw) -> tune.TuneSpec:
    return tune.TuneSpec("toy-aim", 2, kw.pop("bot", "heuristic"),
                         tune.parse_vary("toy-aim", kw.pop("vary", ["aim=0..10"])),
                         kw.pop("against", ("heuristic", "heuristic:v1")), budget,
                         kw.pop("seed", 5), **kw)


# --- the search --------------------------------------------------------------------------------


def test_tune_finds_the_toy_games_closed_form_best_parameter(tmp_path, aim):
    # a seat succeeds with chance 1 - |aim - 5| / 5, and its win share rises with that chance
    # whatever the other seat does: aim=5 is best, aim=4 and aim=6 (chance 0.8) next
    spec = aim_spec()
    result = tune.run_tune(spec, tmp_path / "t", jobs=1)
    assert result.best == "aim=5"
    assert result.games_spent <= spec.budget
    table = result.table.set_index("candidate")
    # two players, against aim=2 and aim=8 (chance 0.4 each): 1/2 + (1 - 0.4) / 2 = 0.8
    assert table.loc["aim=5", "ci_low"] < 0.8 < table.loc["aim=5", "ci_high"]
    assert set(result.tied) <= {"aim=4", "aim=6"}
    assert table.loc["aim=5", "games"] > table.loc["aim=0", "games"]  # halving at work
    lines = tune.summary_lines(spec, result)
    assert lines[0].startswith("best setting: aim=5 — win share") and "above fair" in lines[0]
    assert lines[1].startswith("tied with the best: ")
    assert lines[2].startswith("the shipped default aim=2 is below the best: -")
    assert lines[3].startswith(f"games spent: {result.games_spent:,} of a budget of 4,000")


def test_tune_candidates_play_the_same_deals_so_differences_are_paired(tmp_path, aim):
    spec = aim_spec(budget=600, vary=["aim=4,5,6"])
    result = tune.run_tune(spec, tmp_path / "t", jobs=1)
    first = {name: set(u.loc[u["round"] == 1, "seed"]) for name, u in result.units.items()}
    assert first["aim=4"] == first["aim=5"] == first["aim=6"]
    # aim=4 and aim=6 succeed on exactly the same draws: their paired difference is zero
    four, six = result.units["aim=4"], result.units["aim=6"]
    both = four.merge(six, on=["round", "opponent", "seed"])
    assert (both["value_x"] == both["value_y"]).all()


def test_tune_resumes_from_its_directory_without_replaying(tmp_path, aim):
    spec = aim_spec(budget=600, vary=["aim=3,5"])
    first = tune.run_tune(spec, tmp_path / "t", jobs=1)
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "t").rglob("*.parquet")}
    again = tune.run_tune(spec, tmp_path / "t", jobs=1)
    assert again.best == first.best and again.games_spent == first.games_spent
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    with pytest.raises(ValueError, match="holds a different tuning run"):
        tune.run_tune(aim_spec(budget=800, vary=["aim=3,5"]), tmp_path / "t", jobs=1)


# --- style files -------------------------------------------------------------------------------


def test_tuned_style_file_plays_as_heuristic_file_and_registers_as_a_named_style(tmp_path, aim):
    spec = aim_spec(budget=600, vary=["aim=2,5"])
    result = tune.run_tune(spec, tmp_path / "t", jobs=1)
    path = tmp_path / "best.toml"
    path.write_text(tune.style_file_text(spec, result))
    record = tomllib.loads(path.read_text())
    assert record["params"] == {"aim": 5}
    assert record["tune"]["command"].startswith("simulate tune toy-aim --bot heuristic")
    assert record["tune"]["budget"] == 600 and record["tune"]["league"] == list(spec.against)
    bot = make_bot(f"heuristic:{path}", aim)
    assert bot.aim == 5 and bot.name == f"heuristic:{path}"
    assert make_bot(f"heuristic:{path},aim=7", aim).aim == 7  # spec options override
    register_style(aim, "tuned", path)
    assert make_bot("heuristic:tuned", aim).aim == 5
    other = tmp_path / "other.toml"
    other.write_text('game = "ninjato"\n[params]\nraid_weight = 0.5\n')
    with pytest.raises(BotSpecError, match="is for game 'ninjato', not toy-aim"):
        make_bot(f"heuristic:{other}", aim)
    with pytest.raises(BotSpecError, match="does not exist"):
        make_bot(f"heuristic:{tmp_path / 'missing.toml'}", aim)


@pytest.mark.parametrize("name", sorted(n for n in engines.GAMES if not n.startswith("toy")))
def test_every_game_documents_its_heuristic_parameters_and_the_default_takes_them(name):
    game = engines.GAMES[name]
    assert game.heuristic_params, f"{name} documents no heuristic parameters"
    options = ",".join(f"{p.name}={p.canonical(str(p.default))}" for p in game.heuristic_params)
    make_bot(f"heuristic:{options}", game)  # every documented default is a valid option
    for p in game.heuristic_params:
        assert p.help and len(p.values()) >= 2
    for style in game.heuristics:  # shipped style files load and play
        make_bot("heuristic" if style == "default" else f"heuristic:{style}", game)


def test_param_values_are_checked_against_type_and_range():
    p = Param("w", "float", 0.5, "a weight", 0.0, 2.0)
    assert p.canonical("0.50") == "0.5" and p.canonical("2.0") == "2"
    with pytest.raises(BotSpecError, match="outside its range 0..2"):
        p.canonical("3")
    assert p.values() == ("0", "0.5", "1", "1.5", "2")
    flag = Param("f", "bool", True, "a switch")
    assert flag.canonical("on") == "true" and flag.values() == ("false", "true")


def test_simulate_list_shows_each_games_heuristic_parameters(capsys):
    code, out, _ = run_cli(capsys, "list")
    assert code == 0
    assert "heuristic parameters" in out
    for game in engines.GAMES.values():
        for p in game.heuristic_params:
            assert p.describe() in out


# --- the command -------------------------------------------------------------------------------


def test_tune_cli_prints_best_ties_games_and_writes_the_style(tmp_path, capsys, aim):
    style = tmp_path / "aim.toml"
    code, out, err = run_cli(capsys, "tune", "toy-aim", "--players", "2", "--vary", "aim=3..7",
                             "--budget", "1500", "--seed", "2", "--jobs", "1", "-q",
                             "--out", str(tmp_path / "t"), "--style-out", str(style))
    assert code == 0, err
    assert "best setting: aim=5" in out and "tied with the best:" in out
    assert "games spent:" in out
    assert load_style(style, aim).params == {"aim": "5"}


@pytest.mark.parametrize("argv, message", [
    (["--vary", "nope=1,2"], "no heuristic parameter 'nope'; parameters: aim"),
    (["--vary", "aim=5,11"], "aim=11 is outside its range 0..10"),
    (["--vary", "aim=5"], "only one candidate"),
    (["--vary", "aim=x,5"], "expects an integer"),
    (["--vary", "aim=1..5", "--objective", "margin"], "--objective must be win_share"),
    (["--vary", "aim=1..5", "--budget", "30"], "too small for 5 candidates"),
    (["--vary", "aim=1..5", "--bot", "random"], "--bot must be heuristic"),
    (["--vary", "aim=1..5", "--against", "heuristic,nobot"], "unknown bot 'nobot'"),
    (["--vary", "aim=1..5", "--against", "heuristic:aim=3"], "also in the league"),
    (["--vary", "aim=1..5", "--style-out", "x.txt"], "must be a .toml file"),
    (["--vary", "aim=1..5", "--players", "9"], "players"),
])
def test_tune_cli_bad_input_is_one_error_line_and_writes_nothing(tmp_path, capsys, aim, argv,
                                                                 message):
    out = tmp_path / "t"
    code, _, err = run_cli(capsys, "tune", "toy-aim", *argv, "--jobs", "1", "-q",
                           "--out", str(out))
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_tune_cli_refuses_a_game_without_documented_parameters(tmp_path, capsys, monkeypatch):
    from tests.toy_games import NIM

    monkeypatch.setitem(engines.GAMES, NIM.name, NIM)
    code, _, err = run_cli(capsys, "tune", "toy-nim", "--vary", "x=1,2", "--out",
                           str(tmp_path / "t"))
    assert code == 2 and "documents no parameters to tune" in err


# --- experiment files ------------------------------------------------------------------------


def test_tune_table_of_an_experiment_file_tunes_and_writes_style_and_report(tmp_path, aim):
    from analysis.cli.reporting import run_experiment
    from analysis.run import experiments

    path = tmp_path / "tune.toml"
    path.write_text('name = "tuning"\nseed = 4\n\n[[tune]]\ngame = "toy-aim"\nplayers = 2\n'
                    'vary = {aim = "3..7"}\nbudget = 1500\n')
    experiment = experiments.load(path, tmp_path / "out")
    assert experiments.total_games(experiment) == 1500
    report = run_experiment(experiment, jobs=1)
    style = tmp_path / "out" / "tuning" / "tune-toy-aim-2p" / "best.toml"
    assert load_style(style, aim).params == {"aim": "5"}
    assert "best setting: aim=5" in report.read_text()


def test_tune_table_bad_parameter_names_the_table(tmp_path, aim):
    from analysis.run import experiments

    path = tmp_path / "tune.toml"
    path.write_text('[[tune]]\ngame = "toy-aim"\nplayers = 2\nvary = {aimm = [1, 2]}\n')
    with pytest.raises(ValueError, match=r"\[\[tune\]\] 1: no heuristic parameter 'aimm'"):
        experiments.load(path, tmp_path / "out")


def test_a_promoted_tuned_style_is_the_default_and_the_previous_default_is_kept():
    """Tabula Rasa's tuned style beat its previous default in duplicate format and is the
    default now; the previous default plays on as heuristic:v2, and `simulate list`
    documents the new default's values."""
    game = engines.GAMES["tabula-rasa"]
    tuned = load_style(Path(engines.__file__).parent / "tabula_rasa" / "styles" / "tuned.toml",
                       game)
    default, previous = make_bot("heuristic", game), make_bot("heuristic:v2", game)
    assert (default.castle_weight, default.spread) == (
        float(tuned.params["castle_weight"]), float(tuned.params["spread"]))
    assert (previous.castle_weight, previous.spread) == (4.0, 0.5)
    documented = {p.name: p.default for p in game.heuristic_params}
    assert documented == {"castle_weight": 4.0, "spread": 0.7, "castle_weight_two_sides": 4.0,
                          "castle_race": False, "castle_ignore_share": 0.38,
                          "castle_draw": "private"}


def test_big_cheese_options_are_typed_by_their_declarations():
    game = engines.GAMES["big-cheese"]
    bot = make_bot("heuristic:jump=true,share=2,reserve=1", game)
    assert bot.jump is True and bot.share == 2.0 and bot.reserve == 1
    with pytest.raises(BotSpecError, match="unknown big-cheese heuristic option 'shar'"):
        make_bot("heuristic:shar=2", game)
    with pytest.raises(BotSpecError, match="jump= expects true/false"):
        make_bot("heuristic:jump=2", game)


def test_tune_ties_use_the_verdict_layers_rule_holm_over_the_other_candidates(aim):
    """Candidates whose own paired intervals exclude zero (raw p about 0.03 and 0.04) are
    still tied with the best once their p-values are adjusted together (Holm over 2)."""
    import numpy as np
    import pandas as pd

    spec = aim_spec(vary=["aim=3,4,5"])
    deals = np.arange(40)
    wobble = np.where(deals % 2 == 0, 1.0, -1.0)

    def units(values):
        return pd.DataFrame({"round": 1, "opponent": "heuristic", "seed": deals,
                             "value": values})

    result = tune.read_units(spec, {"aim=5": units(np.full(40, 0.5)),
                                    "aim=4": units(0.4 + 0.2878 * wobble),
                                    "aim=3": units(0.39 + 0.3345 * wobble)}, "aim=5", 240)
    table = result.table.set_index("candidate")
    for name in ("aim=3", "aim=4"):  # raw: each apart from the best
        assert table.loc[name, "diff_high"] < 0 and table.loc[name, "p"] < 0.05
    assert result.tied == ["aim=4", "aim=3"]  # after Holm over the two: tied
    assert result.tie_verdict.family_size == 2
    lines = tune.summary_lines(spec, result)
    assert lines[1].startswith("tied with the best: aim=4 (-10.0 points")
    assert "unadjusted 95%" in lines[1]  # a raw interval beside an adjusted verdict says so
    assert lines[1].endswith("(paired difference from the best not significant after Holm "
                             "over the 2 other candidates)")


def tied_units(spec: tune.TuneSpec, best: str, tied: str, worse: str) -> tune.TuneResult:
    """Per-deal values of three candidates: `tied` wobbles around `best` (paired difference
    −1 point, far from significant), `worse` loses 30 points on every deal."""
    import numpy as np
    import pandas as pd

    deals = np.arange(40)
    wobble = np.where(deals % 2 == 0, 0.2, -0.2)

    def units(values):
        return pd.DataFrame({"round": 1, "opponent": "heuristic", "seed": deals,
                             "value": values})

    return tune.read_units(spec, {best: units(np.full(40, 0.6)),
                                  tied: units(0.59 + wobble), worse: units(np.full(40, 0.3))},
                           best, 240)


def test_tune_best_comes_with_its_ties_and_a_tied_default_is_as_good_as_anything(aim):
    """aim=2 is the documented default: tied with the best, the best is only an estimate and
    the default is as good as anything found."""
    spec = aim_spec(vary=["aim=1,2,3"])
    assert spec.default_candidate() == "aim=2"
    result = tied_units(spec, "aim=3", "aim=2", "aim=1")
    assert result.tied == ["aim=2"]
    lines = tune.summary_lines(spec, result)
    assert lines[0].startswith("best estimate: aim=3 — win share 60.0%")
    assert not any(line.startswith("best setting") for line in lines)
    assert lines[1].startswith("tied with the best: aim=2 (-1.0 points")
    assert lines[2] == ("the shipped default aim=2 is tied with the best: the default is as "
                        "good as anything found (its paired difference from the best is not "
                        "significant after Holm over the 2 other candidates)")
    best = tune.summary_lines(spec, tied_units(spec, "aim=2", "aim=3", "aim=1"))
    assert best[2] == ("the shipped default aim=2 is the best estimate, tied with aim=3: the "
                       "default is as good as anything found")


def test_tune_names_no_default_when_the_tuned_bot_is_another_style(aim):
    assert aim_spec(vary=["aim=1,2,3"], bot="heuristic:v1").default_candidate() is None
    assert aim_spec(vary=["aim=4,5"]).default_candidate() is None  # the grid lacks aim=2


def test_tune_cli_says_the_default_is_as_good_as_anything_when_it_ties(tmp_path, capsys, aim):
    """aim=2 (the default) and aim=8 succeed with the same chance on the same draws."""
    code, out, err = run_cli(capsys, "tune", "toy-aim", "--players", "2", "--vary", "aim=2,8",
                             "--budget", "200", "--seed", "2", "--jobs", "1", "-q",
                             "--out", str(tmp_path / "t"))
    assert code == 0, err
    assert "best setting" not in out and "best estimate: aim=" in out
    assert "the default is as good as anything found" in out


@pytest.mark.parametrize("seating, tables", [("lone", [False]), ("table", [True]),
                                             ("both", [False, True])])
def test_tune_seating_plays_candidates_in_tables_of_themselves(tmp_path, seating, tables):
    """`table` seats the league bot alone against copies of the candidate (a candidate that
    bot exploits scores low), `both` plays each arrangement on half the deals."""
    import json

    spec = tune.TuneSpec("tabula-rasa", 3, "heuristic",
                         tune.parse_vary("tabula-rasa", ["castle_weight=0,4"]),
                         ("heuristic:v1",), 72, 3, seating=seating)
    result = tune.run_tune(spec, tmp_path / "t", jobs=1)
    records = sorted((tmp_path / "t").glob("round-1/castle_weight=0/*/compare.json"))
    lineups = [json.loads(p.read_text())["lineup"] for p in records]
    cand = "heuristic:castle_weight=0"
    expected = [[cand, "heuristic:v1", "heuristic:v1"] if not t else
                ["heuristic:v1", cand, cand] for t in tables]
    assert sorted(lineups) == sorted(expected)
    labels = set(result.units["castle_weight=0"]["opponent"])
    assert labels == {"heuristic:v1" + (" (lone)" if t else "") for t in tables}
    assert f"--seating {seating}" in spec.command()
    assert tune.style_record(spec, result)["seating"] == seating
    with pytest.raises(ValueError, match="holds a different tuning run"):
        tune.run_tune(dataclasses.replace(spec, seating="lone" if seating != "lone"
                                          else "table"), tmp_path / "t", jobs=1)


def test_tune_seating_must_be_known():
    with pytest.raises(ValueError, match="--seating must be one of both, lone, table"):
        tune.TuneSpec("tabula-rasa", 3, "heuristic",
                      tune.parse_vary("tabula-rasa", ["castle_weight=0,4"]),
                      ("heuristic:v1",), 72, 3, seating="pairs").validate()


def test_a_lone_search_in_the_league_models_each_candidates_table(tmp_path):
    """An mcts league bot alone among copies of a candidate rolls out with that candidate
    (its style file), as the default mcts rolls out with a promoted default; as the
    table around a lone candidate it stays the plain spec."""
    import json

    spec = tune.TuneSpec("tabula-rasa", 3, "heuristic:v1",
                         tune.parse_vary("tabula-rasa", ["castle_weight=0,4"]),
                         ("mcts:iterations=2",), 36, 3, seating="both")
    result = tune.run_tune(spec, tmp_path / "t", jobs=1)
    assert any(line.startswith("mcts:iterations=2, alone against a table of a candidate, "
                               "rolls out with that candidate")
               for line in tune.summary_lines(spec, result))
    style = tmp_path / "t" / "candidates" / "castle_weight-0.toml"
    played = load_style(style)
    assert played.base == "heuristic:v1" and played.params == {"castle_weight": "0"}
    records = sorted((tmp_path / "t").glob("round-1/castle_weight=0/*/compare.json"))
    lineups = sorted(json.loads(p.read_text())["lineup"] for p in records)
    cand = "heuristic:v1,castle_weight=0"
    modelling = f"mcts:iterations=2,rollout=heuristic:{style.resolve()}"
    assert lineups == sorted([[cand, "mcts:iterations=2", "mcts:iterations=2"],
                              [modelling, cand, cand]])


def test_a_modelling_search_refuses_a_directory_its_spec_cannot_name(tmp_path):
    spec = tune.TuneSpec("tabula-rasa", 3, "heuristic",
                         tune.parse_vary("tabula-rasa", ["castle_weight=0,4"]),
                         ("mcts:iterations=2",), 36, 3, seating="table")
    with pytest.raises(ValueError, match="may not contain ',' or '='"):
        tune.run_tune(spec, tmp_path / "a,b", jobs=1)
    assert not (tmp_path / "a,b").exists()
