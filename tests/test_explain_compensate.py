"""`simulate explain` and `simulate compensate` on a toy game whose first-seat edge and exact
compensation are known in closed form (`tests.toy_games.KOMI`: seat 1 wins 47/72 of the games,
`seat_bonus=0,1` or the lever `head_start_to=none` makes the game exactly fair)."""

from __future__ import annotations

import dataclasses
import json

import pytest

import engines
from analysis.cli import main
from analysis.run import compensate, explain, search
from tests.toy_games import KOMI, KOMI_FIRST_SHARE

EDGE = KOMI_FIRST_SHARE - 0.5  # +15.28 points


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def komi(monkeypatch):
    """The toy game registered for the runner (played in this process, jobs=1)."""
    monkeypatch.setitem(engines.GAMES, KOMI.name, KOMI)
    return KOMI


def test_komi_first_seat_edge_is_the_closed_form(komi, tmp_path):
    spec = explain.ExplainSpec(game="toy-komi", players=2, games=3000, bots=("heuristic",) * 2,
                               seed=4)
    frame = explain.run_explain(spec, tmp_path / "e")
    table = explain.sweep.game_table(frame[frame["cell"] == "base"])
    edges = explain.seat_edges(table)
    first = edges.iloc[0]
    assert first["ci_low"] < EDGE < first["ci_high"]
    assert first["p"] < 0.05


def test_explain_attributes_the_whole_edge_to_the_lever_that_removes_it(komi, tmp_path):
    spec = explain.ExplainSpec(game="toy-komi", players=2, games=3000, bots=("heuristic",) * 2,
                               seed=4)
    frame = explain.run_explain(spec, tmp_path / "e")
    result = explain.explain(spec.sweep_spec(), frame)
    row = result.effects[(result.effects["lever"] == "head_start_to")
                         & (result.effects["seat"] == 0)].iloc[0]
    assert row["setting"] == "none" and row["base_setting"] == "first"
    assert row["ci_low"] < EDGE < row["ci_high"] and row["significant"]
    lines = "\n".join(result.lines())
    assert "head_start_to=none removes" in lines and "of seat 1's" in lines
    # where the edge comes from: the head-start source, +0.5 points a game against the average
    head = result.sources[(result.sources["source"] == "head_start")
                          & (result.sources["seat"] == 0)].iloc[0]
    assert head["vs_average"] == pytest.approx(0.5)
    assert "head_start +0.50" in lines
    assert result.decisions["decisions"].tolist() == [1.0, 1.0]


def test_explain_adjusts_every_p_value_it_calls_significant_in_one_family(komi, tmp_path):
    import numpy as np
    import pandas as pd

    from analysis.stats import balance

    spec = explain.ExplainSpec(game="toy-komi", players=2, games=200, bots=("heuristic",) * 2,
                               seed=4)
    result = explain.explain(spec.sweep_spec(), explain.run_explain(spec, tmp_path / "e"))
    tables = (result.edges, result.effects, result.sources)
    raw = pd.concat([t["p"] for t in tables], ignore_index=True)
    adjusted = pd.concat([t["p_adjusted"] for t in tables], ignore_index=True)
    assert np.allclose(adjusted, balance.adjust_pvalues(raw, "holm"), equal_nan=True)
    assert (result.effects["significant"] == (result.effects["p_adjusted"] < 0.05)).all()
    lines = result.lines()
    assert lines[-1] == (
        f"p-values adjusted with Holm over the {int(raw.notna().sum())} tests in this "
        "explanation (one family: every seat edge, lever × seat effect and scoring source × "
        "seat difference); 'significant' means adjusted p < 0.05.")
    assert not any("Holm over" in line for line in lines[:-1])


def test_explain_adjusts_in_one_place_the_family_its_footer_names(komi, tmp_path):
    """The tables carry raw p-values until `one_family` adjusts them: each printed
    `p_adjusted` is the footer's family's adjusted p, and the footer counts that family."""
    spec = explain.ExplainSpec(game="toy-komi", players=2, games=60, bots=("heuristic",) * 2,
                               seed=4)
    plan = spec.sweep_spec()
    frame = explain.run_explain(spec, tmp_path / "e")
    base = explain.sweep.game_table(frame[frame["cell"] == "base"])
    assert "p_adjusted" not in explain.seat_edges(base)
    assert not {"p_adjusted", "significant"} & set(explain.lever_effects(plan, frame))
    result = explain.explain(plan, frame)
    tables = {"edge": result.edges, "lever": result.effects, "source": result.sources}
    for kind, table in tables.items():
        assert table["p_adjusted"].tolist() == [result.family.adjusted((kind, i))
                                                for i in range(len(table))]
    assert result.lines()[-1] == result.family.note(explain.FAMILY_MEMBERS)
    assert f"Holm over the {result.family.size} tests" in result.lines()[-1]
    assert result.family.size == sum(int(t["p"].notna().sum()) for t in tables.values())


def test_explain_resumes_without_replaying(komi, tmp_path):
    spec = explain.ExplainSpec(game="toy-komi", players=2, games=40, bots=("heuristic",) * 2,
                               seed=4)
    first = explain.run_explain(spec, tmp_path / "e")
    calls = []
    again = explain.run_explain(spec, tmp_path / "e", progress=calls.append)
    assert len(again) == len(first) and sum(calls) == 2 * 40  # counted as done, not played


def test_compensate_finds_the_exact_compensation(komi, tmp_path):
    spec = compensate.CompensateSpec("toy-komi", 2, ("heuristic",) * 2, 3, 3000)
    assert spec.vectors() == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    result = compensate.run_compensate(spec, tmp_path / "c")
    assert result.smallest == "0,1"
    text = "\n".join(result.lines())
    assert "use it as --rule seat_bonus=0,1" in text
    assert "games spent" in text
    best = result.candidates.set_index("bonus").loc["0,1"]
    assert best["ci_low"] < 0.05 and best["inside"]


def test_seat_edge_objective_is_the_largest_seat_edge():
    import pandas as pd

    table = pd.DataFrame({"win_0": [1.0, 1.0, 0.0, 1.0], "win_1": [0.0, 0.0, 1.0, 0.0],
                          "players": 2})
    value, estimate, low, high, values = search.objective(table, "seat_edge")
    assert value == pytest.approx(0.25) and values.tolist() == [0.5, 0.5, -0.5, 0.5]


def test_compensate_candidates_by_shape():
    spec = compensate.CompensateSpec("tabula-rasa", 3, ("random",) * 3, 1, 1000, steps=2)
    assert spec.vectors()[:4] == [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 0, 2)]  # least total first
    assert len(spec.vectors()) == 6
    wide = compensate.CompensateSpec("tabula-rasa", 3, ("random",) * 3, 1, 1000, steps=1,
                                     shape="any", unit=2)
    assert (2, 0, 2) in wide.vectors() and (2, 2, 2) not in wide.vectors()


# --- the commands ---------------------------------------------------------------------------


def test_explain_cli_prints_edges_levers_sources(komi, tmp_path, capsys):
    report = tmp_path / "why.html"
    code, out, err = run_cli(capsys, "explain", "toy-komi", "--games", "400", "--seed", "2",
                             "-q", "--out", str(tmp_path / "e"), "--report", str(report))
    assert code == 0, err
    assert "line-up heuristic, heuristic" in out and "seat 1: win share" in out
    assert "head_start_to=none removes" in out and "decisions per game" in out
    assert ("measured at one strength of play (heuristic play); how each seat's edge changes "
            "under stronger play: simulate toy-komi --ladder --players 2\n") in out
    assert "Where the edge comes from (printed rules' games, heuristic play):" in out
    assert "p-values adjusted with Holm over the " in out.splitlines()[-2]
    assert "in this explanation (one family: every seat edge" in out
    assert "Why a seat wins" in report.read_text()
    code, again, err = run_cli(capsys, "explain", "toy-komi", "-q", "--resume",
                               str(tmp_path / "e"))
    assert code == 0, err
    assert again.splitlines()[:4] == out.splitlines()[:4]


def test_compensate_cli_prints_a_usable_rule(komi, tmp_path, capsys):
    code, out, err = run_cli(capsys, "compensate", "toy-komi", "--budget", "1500", "--seed",
                             "3", "-q", "--out", str(tmp_path / "c"))
    assert code == 0, err
    assert "--rule seat_bonus=0,1" in out and "games spent" in out


@pytest.mark.parametrize("argv, message", [
    (["explain", "toy-komi", "--lever", "nope"], "not a seat lever"),
    (["explain", "toy-komi", "--games", "1"], "at least 2"),
    (["explain", "toy-komi", "--rule", "faces=x"], "expects an integer"),
    (["explain", "toy-komi", "--report", "/nonexistent-dir/r.html"], "does not exist"),
    (["explain", "toy-komi", "--report", "r.txt"], "must be an .html file"),
    (["compensate", "toy-komi", "--shape", "spiral"], "--shape"),
    (["compensate", "toy-komi", "--budget", "10"], "too small"),
    (["compensate", "toy-komi", "--unit", "0"], "--unit"),
    (["compensate", "toy-komi", "--tolerance", "1"], "--tolerance"),
    (["compensate", "toy-komi", "--tolerance", "nan"], "--tolerance"),
    (["compensate", "toy-komi", "--rule", "seat_bonus=0,1"], "already set seat_bonus"),
    (["compensate", "toy-komi", "--players", "3"], "2-2 players"),
    (["compensate", "toy-komi", "--replay", "-1"], "--replay"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(komi, tmp_path, capsys, argv,
                                                         message):
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, *argv, "--out", str(out), "-q")
    assert code == 2
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not out.exists()


def test_a_game_without_levers_cannot_be_explained(tmp_path, capsys, monkeypatch):
    from tests.toy_games import COIN

    monkeypatch.setitem(engines.GAMES, COIN.name, COIN)
    code, _, err = run_cli(capsys, "explain", "toy-coin", "--out", str(tmp_path / "o"), "-q")
    assert code == 2 and "no seat levers" in err


def test_compensate_replays_the_answer_on_fresh_deals(komi, tmp_path, capsys):
    code, out, err = run_cli(capsys, "compensate", "toy-komi", "--budget", "1500", "--seed",
                             "3", "-q", "--out", str(tmp_path / "c"), "--replay", "2000")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("replayed on 2,000 fresh deals"))
    assert "seat_bonus=0,1" in line and "within ×1.2 of the fair 50.0%" in line
    manifest = (tmp_path / "c" / "replay" / "0,1" / "manifest.json").read_text()
    assert '"seed_branch": 1' in manifest


# --- --resume continues what is recorded, nothing else ---------------------------------------


def _recorded_explanation(directory):
    spec = explain.ExplainSpec(game="toy-komi", players=2, games=40, bots=("heuristic",) * 2,
                               seed=4)
    directory.mkdir()
    (directory / explain.sweep.SWEEP_FILE).write_text(
        json.dumps(spec.sweep_spec().to_json()))


def _recorded_compensation(directory):
    spec = compensate.CompensateSpec("toy-komi", 2, ("heuristic",) * 2, 3, 1500)
    directory.mkdir()
    (directory / compensate.SPEC_FILE).write_text(json.dumps(spec.to_json()))


@pytest.mark.parametrize("command, options, message", [
    ("explain", ["--games", "50"], "(--games 40); --games 50 differs"),
    ("explain", ["--seed", "5"], "(--seed 4); --seed 5 differs"),
    ("explain", ["--bots", "random"], "(--bots heuristic,heuristic); --bots random,random"),
    ("explain", ["--rule", "faces=4"], "(no --rule); --rule faces=4 differs"),
    ("explain", ["--players", "3"], "(--players 2); --players 3 differs"),
    ("explain", ["--out", "elsewhere"], "finishes the explanation in place; drop --out"),
    ("compensate", ["--budget", "2000"], "(--budget 1500); --budget 2000 differs"),
    ("compensate", ["--steps", "2"], "(--steps 4); --steps 2 differs"),
    ("compensate", ["--unit", "2"], "(--unit 1); --unit 2 differs"),
    ("compensate", ["--shape", "any"], "(--shape monotone); --shape any differs"),
    ("compensate", ["--tolerance", "1.1"], "(--tolerance 1.2); --tolerance 1.1 differs"),
    ("compensate", ["--seed", "4"], "(--seed 3); --seed 4 differs"),
    ("compensate", ["--out", "elsewhere"], "finishes the compensation search in place"),
])
def test_resume_refuses_an_option_that_differs_from_the_recorded_study(
        komi, tmp_path, capsys, command, options, message):
    directory = tmp_path / "study"
    (_recorded_explanation if command == "explain" else _recorded_compensation)(directory)
    code, out, err = run_cli(capsys, command, "toy-komi", "--resume", str(directory), "-q",
                             *options)
    assert code == 2 and out == ""
    assert err.startswith(f"error: --resume {directory} ") and err.count("\n") == 1, err
    assert message in err
    assert len(list(directory.iterdir())) == 1  # nothing played, nothing written
    assert not (tmp_path / "elsewhere").exists()


def _recorded_grid_sweep(directory):
    spec = explain.sweep.SweepSpec(game="toy-komi", players=2, games=40, bots=("heuristic",) * 2,
                                   seed=4,
                                   vary=(("head_start_to", ("first", "none")),), design="grid")
    directory.mkdir()
    (directory / explain.sweep.SWEEP_FILE).write_text(json.dumps(spec.to_json()))


@pytest.mark.parametrize("record, argv, message", [
    (_recorded_compensation, ["compensate", "--budget", "5000"],
     "(--budget 1500); --budget 5000 differs"),
    (_recorded_grid_sweep, ["sweep", "--one-at-a-time"],
     "(--grid/--one-at-a-time grid); --grid/--one-at-a-time one-at-a-time differs"),
], ids=["budget", "design"])
def test_resume_counts_an_option_typed_at_its_default_value_as_given(
        komi, tmp_path, capsys, record, argv, message):
    """An option counts as given when it is typed (its parameter source), not when its
    value differs from the default: `--budget 5000` is the default and still refused against
    a search recorded with 1500."""
    directory = tmp_path / "study"
    record(directory)
    code, out, err = run_cli(capsys, argv[0], "toy-komi", "--resume", str(directory), "-q",
                             *argv[1:])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert message in err
    assert len(list(directory.iterdir())) == 1


def test_resume_never_refuses_an_option_left_out(komi, tmp_path, capsys):
    """Left out, an option with a default (`--budget` 5000) continues the recorded value."""
    directory = tmp_path / "search"
    _recorded_compensation(directory)
    code, out, err = run_cli(capsys, "compensate", "toy-komi", "--resume", str(directory), "-q")
    assert code == 0, err
    assert "--rule seat_bonus=0,1" in out


def test_resume_accepts_options_equal_to_the_recorded_ones(komi, tmp_path, capsys):
    directory = tmp_path / "study"
    _recorded_explanation(directory)
    code, out, err = run_cli(capsys, "explain", "toy-komi", "--resume", str(directory), "-q",
                             "--games", "40", "--seed", "4", "--bots", "heuristic",
                             "--lever", "head_start_to", "--out", str(directory))
    assert code == 0, err
    assert "40 games per setting" in out
    directory = tmp_path / "search"
    _recorded_compensation(directory)
    code, out, err = run_cli(capsys, "compensate", "toy-komi", "--resume", str(directory),
                             "-q", "--budget", "1500", "--tolerance", "1.2", "--shape", "monotone")
    assert code == 0, err
    assert "--rule seat_bonus=0,1" in out


# --- "smallest" is exhaustive: cheaper candidates the race dropped are verified -------------


def _game_rows(first_wins: int, games: int, start: int = 0):
    """A 2-player game table: seat 1 wins the first `first_wins` of `games` deals."""
    import pandas as pd

    index = pd.Index(range(start, start + games), name="seed")
    win = [1.0 if i < first_wins else 0.0 for i in range(games)]
    return pd.DataFrame({"win_0": win, "win_1": [1.0 - w for w in win], "players": 2},
                        index=index)


def _search_result(tables):
    import pandas as pd

    return search.SearchResult(pd.DataFrame({"candidate": list(tables), "games": [
        len(t) for t in tables.values()]}), best=next(iter(tables)), runner_up=None,
        difference=(float("nan"),) * 3, games_spent=sum(len(t) for t in tables.values()),
        games_exhaustive=0, tables=tables)


def test_compensate_does_not_call_an_answer_smallest_while_a_cheaper_candidate_is_unchecked(
        komi, monkeypatch):
    spec = compensate.CompensateSpec("toy-komi", 2, ("heuristic",) * 2, 3, 1500, steps=2)
    # the race dropped 0,1 after 40 games (wide interval); 0,2 played all 400 deals, balanced
    tables = {"seat_bonus=0,0": _game_rows(30, 40), "seat_bonus=0,1": _game_rows(24, 40),
              "seat_bonus=0,2": _game_rows(200, 400)}
    found = compensate.read(spec, _search_result(tables))
    assert found.smallest == "0,2"
    assert sorted(found.unverified) == ["seat_bonus=0,0", "seat_bonus=0,1"]
    text = "\n".join(found.lines())
    assert "minimal" not in text and "2 of the 2 cheaper candidates" in text

    def complete(plan, result, names, out_dir, *args):
        assert sorted(names) == ["seat_bonus=0,0", "seat_bonus=0,1"]
        return dataclasses.replace(result, tables={**result.tables,
                                                   "seat_bonus=0,0": _game_rows(300, 400),
                                                   "seat_bonus=0,1": _game_rows(205, 400)})

    monkeypatch.setattr(search, "complete", complete)
    verified = compensate.verify(spec, found, "unused")
    assert verified.smallest == "0,1" and verified.unverified == []
    line = next(x for x in verified.lines() if x.startswith("smallest compensation"))
    assert "minimal: each of the 1 cheaper candidates" in line  # 0,0, on the same deals
    assert "a smaller real edge may be left" not in "\n".join(verified.lines())  # 0,0 is off
    assert "verifying that no cheaper candidate" in verified.lines()[-1]


def test_compensate_says_an_edge_below_what_its_games_detect_may_be_left(komi):
    spec = compensate.CompensateSpec("toy-komi", 2, ("heuristic",) * 2, 3, 1500, steps=1)
    tables = {"seat_bonus=0,0": _game_rows(205, 400), "seat_bonus=0,1": _game_rows(200, 400)}
    line = compensate.read(spec, _search_result(tables)).lines()[1]
    assert line.startswith("without compensation (400 games, on the finalists' deals): "
                           "balanced within")
    assert "would have been seen 80% of the time with these games: a smaller real edge may " \
           "be left" in line


def test_completing_a_dropped_candidate_puts_it_on_the_finalists_deals(komi, tmp_path):
    spec = compensate.CompensateSpec("toy-komi", 2, ("heuristic",) * 2, 3, 600)
    found = compensate.run_compensate(spec, tmp_path / "c")
    dropped = found.candidates[~found.candidates["finalist"]]["candidate"].tolist()
    assert dropped
    plan = spec.search_spec()
    result = search.complete(plan, found.result, dropped, tmp_path / "c" / "search")
    finalist = found.candidates[found.candidates["finalist"]]["candidate"].iloc[0]
    for name in dropped:
        assert result.tables[name].index.equals(result.tables[finalist].index)


def test_compensate_cli_verifies_and_says_what_it_spent(komi, tmp_path, capsys):
    code, out, err = run_cli(capsys, "compensate", "toy-komi", "--budget", "600", "--seed",
                             "3", "-q", "--out", str(tmp_path / "c"), "--steps", "2")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("smallest compensation"))
    assert "minimal" in line and "not rechecked" not in line


def _lever_row(base_edge, edge, edge_low, edge_high, removed, low, high):
    import pandas as pd

    return pd.DataFrame([{"lever": "komi", "setting": 2, "seat": 1, "base_edge": base_edge,
                          "edge": edge, "edge_low": edge_low, "edge_high": edge_high,
                          "removed": removed, "ci_low": low, "ci_high": high,
                          "significant": True}])


def test_a_lever_that_removes_more_than_the_shortfall_says_it_turns_it_into_an_edge():
    # a 3.5-point shortfall, the lever moves the seat 6 points: +2.5 [+1.0, +4.0] under it
    effects = _lever_row(-0.035, 0.025, 0.010, 0.040, -0.060, -0.075, -0.045)
    [line] = explain.lever_lines(effects, [1])
    assert "removes 6.0 of" not in line
    assert line.startswith("komi=2 turns seat 2's 3.5-point shortfall into an edge")
    assert "a change of 6.0 points" in line and "+2.5 [+1.0, +4.0]" in line


def test_a_lever_past_the_edge_with_a_fair_looking_rest_says_it_removes_all_of_it():
    effects = _lever_row(-0.035, 0.005, -0.010, 0.020, -0.040, -0.055, -0.025)
    [line] = explain.lever_lines(effects, [1])
    assert line.startswith("komi=2 removes all of seat 2's 3.5-point shortfall")
