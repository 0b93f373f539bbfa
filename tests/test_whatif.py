"""What-if studies — data items as rule keys, `simulate data`, paired sweeps,
the data-sensitivity verdicts and the balance search."""

from __future__ import annotations

import json
import math
import tomllib

import numpy as np
import pandas as pd
import pytest

import engines
from analysis.cli import main
from analysis.results.store import load_run
from analysis.run import experiments, search, sweep, tournament
from engines import datasets, get_game, play_game
from engines.bots import make_bot
from tests.toy_games import COIN


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def records(game_name: str, rules: dict, seeds=range(3)) -> list:
    game = get_game(game_name)
    bots = [make_bot("heuristic", game) for _ in range(4)]
    out = []
    for seed in seeds:
        r = play_game(game, bots, seed, 4, rules, record=True)
        out.append((r.scores, r.breakdown, r.actions))
    return out


@pytest.fixture
def coin(monkeypatch):
    """The toy coin game registered for the runner (played in this process, jobs=1)."""
    monkeypatch.setitem(engines.GAMES, COIN.name, COIN)
    return COIN


# --- 1. data sets you can read and vary -----------------------------------------------------


@pytest.mark.parametrize("game_name", [name for name, game in sorted(engines.GAMES.items())
                                       if game.replaceable_data is not None])
def test_data_export_import_round_trip_plays_identical_games(game_name, tmp_path,
                                                                        capsys):
    path = tmp_path / "data.toml"
    code, _, err = run_cli(capsys, "data", game_name, "--out", str(path))
    assert code == 0, err
    assert "GUESS" in path.read_text() or "INFERRED" in path.read_text()
    assert records(game_name, {"components": str(path)}) == records(game_name, {})


def test_modified_data_exported_and_reimported_plays_like_the_rule_key(tmp_path,
                                                                                  capsys):
    path = tmp_path / "alarms12.toml"
    code, _, err = run_cli(capsys, "data", "ninjato", "--rule", "components.alarm_guards=12",
                           "--out", str(path))
    assert code == 0, err
    assert sum(g[1] for g in tomllib.loads(path.read_text())["guards"]) == 12
    seeds = range(3, 6)  # deals whose play the twelve alarm guards change
    inline = records("ninjato", {"components.alarm_guards": "12"}, seeds)
    assert records("ninjato", {"components": str(path)}, seeds) == inline
    assert inline != records("ninjato", {}, seeds)  # the item really changes the games


def test_rule_key_label_and_manifest_store_the_full_data(tmp_path):
    game = get_game("ninjato")
    rules = game.checked_rules(**{"components.token_values": "2,4,6,8"})
    assert game.dataset(rules) == "ninjato-reconstructed-v1+token_values=2,4,6,8"
    spec = tournament.RunSpec(game="ninjato", players=4, games=2, bots=("heuristic",) * 4,
                              seed=1, rules={"components.token_values": "2,4,6,8"})
    result = tournament.run(spec, tmp_path / "run", jobs=1)
    manifest = result.manifest
    assert manifest["dataset"] == "ninjato-reconstructed-v1+token_values=2,4,6,8"
    assert manifest["components_data"]["token_values"] == [2, 4, 6, 8]
    assert manifest["components_data"]["elites"] == engines.ninjato.components.DEFAULT_DATA[
        "elites"]
    assert set(result.frame["dataset"]) == {manifest["dataset"]}


def test_derived_items_rewrite_their_table():
    data, label = datasets.resolve("ninjato", datasets.fold(
        "ninjato", {"components.alarm_guards": 12, "components.guards_per_value": 9})[
        "components"])
    assert len(data["guards"]) == 45 and sum(g[1] for g in data["guards"]) == 12
    assert label == "ninjato-reconstructed-v1+alarm_guards=12+guards_per_value=9"
    data, _ = datasets.resolve("time-pirates", datasets.fold(
        "time-pirates", {"components.epoch_spaces": "5,6,7,7,6,7,4"})["components"])
    assert [e["spaces"] for e in data["epochs"]] == [5, 6, 7, 7, 6, 7, 4]
    data, _ = datasets.resolve("ninjato", datasets.fold(
        "ninjato", {"components.multi_elite_honour": "3"})["components"])
    assert [e["honour"] for e in data["elites"]] == [1] * 11 + [3] * 9


@pytest.mark.parametrize("game_name", [name for name, game in sorted(engines.GAMES.items())
                                       if game.replaceable_data is None])
def test_games_with_only_official_data_say_so(game_name, capsys):
    code, out, _ = run_cli(capsys, "data", game_name)
    assert code == 0 and "only official component data" in out


@pytest.mark.parametrize("argv, message", [
    (["data", "ninjato", "--rule", "components.nope=3"], "unknown data item 'nope'"),
    (["data", "ninjato", "--rule", "components.token_values=a,b"], "comma-separated integers"),
    (["data", "ninjato", "--rule", "components.dojo_counts=10,10,10"], "needs 5 entries"),
    (["data", "ninjato", "--rule", "components.alarm_guards=-1"], "must be 0..100"),
    (["data", "ninjato", "--rule", "components.dojo_counts=1,1,1,1,1"], "at least 24"),
    (["data", "ninjato", "--rule", "components.alarm_guards=41"], "only 40 guards"),
    (["data", "time-pirates", "--rule", "components.epoch_spaces=20,20,20,20,20,20,20"],
     "fewer artifacts than artifact spaces"),
    (["data", "tabula-rasa", "--rule", "components.x=1"], "only official component data"),
    (["ninjato", "--games", "2", "--rule", "components.token_values=2,4,8"], "setup tokens"),
    (["sweep", "ninjato", "--vary", "components.nope=1,2"], "unknown data item"),
    (["sweep", "ninjato", "--vary", "token_choice=free,sometimes"], "must be one of"),
    (["sweep", "ninjato", "--vary", "components.alarm_guards=10,-3"], "must be 0..100"),
    (["sweep", "ninjato", "--games", "5"], "at least one --vary"),
    (["sweep", "ninjato", "--vary", "token_choice=free"], "only one setting"),
    (["balance-search", "ninjato", "--vary", "token_choice=lowest"], "only one candidate"),
    (["balance-search", "ninjato", "--vary", "components.alarm_guards=0..40",
      "--budget", "100"], "too small"),
    (["balance-search", "ninjato", "--vary", "token_choice=free,lowest",
      "--objective", "fun"], "--objective must be"),
])
def test_whatif_bad_input_is_one_line_error_exit_2_nothing_written(argv, message, tmp_path,
                                                                    capsys):
    out = tmp_path / "out"
    extra = [] if argv[0] == "data" else ["--out", str(out), "--jobs", "1", "-q"]
    code, _, err = run_cli(capsys, *argv, *extra)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err
    assert not out.exists()


# --- 2. paired sweeps -----------------------------------------------------------------------


def test_sweep_cells_share_seeds_and_carry_varied_values(tmp_path, capsys):
    out = tmp_path / "sweep"
    code, printed, err = run_cli(
        capsys, "sweep", "ninjato", "--vary", "token_choice=free,lowest",
        "--vary", "components.alarm_guards=10,15", "--games", "6", "--seed", "3",
        "--jobs", "1", "--out", str(out), "-q", "--report", str(tmp_path / "sweep.html"))
    assert code == 0, err
    assert "What matters most" in printed and "narrower" in printed
    page = (tmp_path / "sweep.html").read_text()
    assert "Which conclusions of the base setting hold" in page and "image/png" in page
    spec, frame = sweep.load_sweep(out)
    assert sorted(frame["cell"].unique()) == ["base", "components.alarm_guards=15",
                                              "token_choice=lowest"]
    seeds = {cell: tuple(load_run(out / cell).sort_values("game_index")["seed"])
             for cell in frame["cell"].unique()}
    assert len(set(seeds.values())) == 1  # common random numbers: the same deals
    assert set(frame.loc[frame["cell"] == "token_choice=lowest", "token_choice"]) == {"lowest"}
    assert set(frame.loc[frame["cell"] == "base", "components.alarm_guards"]) == {"10"}
    manifest = json.loads((out / "components.alarm_guards=15" / "manifest.json").read_text())
    assert manifest["dataset"] == "ninjato-reconstructed-v1+alarm_guards=15"


def test_grid_design_plays_every_combination(tmp_path, coin):
    spec = sweep.SweepSpec(game="toy-coin", players=2, games=20, bots=("heuristic", "heuristic"),
                           seed=1,
                           vary=(("head_start", (8, 10)), ("sides", (20, 40))), design="grid")
    assert len(spec.cells()) == 4
    frame = sweep.run_sweep(spec, tmp_path / "grid", jobs=1)
    table = sweep.effects(spec, frame)
    assert set(table["key"]) == {"head_start", "sides"}


def test_interrupted_sweep_resumes_to_the_same_frame(tmp_path, capsys):
    out = tmp_path / "sweep"
    args = ["sweep", "time-pirates", "--vary", "set_bonus=2,4", "--games", "4", "--seed", "2",
            "--jobs", "1", "-q"]
    assert run_cli(capsys, *args, "--out", str(out))[0] == 0
    before = sweep.load_sweep(out)[1].drop(columns="run_id")
    for part in (out / "set_bonus=4").glob("part-*"):
        part.unlink()
    # the options it was started with, given again, are the recorded ones: accepted
    code, _, err = run_cli(capsys, "sweep", "time-pirates", "--resume", str(out),
                           *args[2:], "--one-at-a-time", "--bots", "heuristic")
    assert code == 0, err
    pd.testing.assert_frame_equal(sweep.load_sweep(out)[1].drop(columns="run_id"), before)


def _hand_table(wins0, wins1, tokens, other, length):
    return pd.DataFrame({"win_0": wins0, "win_1": wins1, "length": length,
                         "players": 2, "tie": 0.0, "pts_tokens": tokens, "pts_other": other,
                         "points": np.add(tokens, other)},
                        index=pd.Index([11, 12, 13, 14, 15], name="seed"))


def test_paired_intervals_on_a_hand_made_frame():
    a = _hand_table([1, 0, 1, 1, 0], [0, 1, 0, 0, 1], [4, 2, 6, 0, 3], [6, 8, 4, 10, 7],
                    [10, 12, 11, 9, 13])
    b = _hand_table([1, 1, 1, 0, 0], [0, 0, 0, 1, 1], [2, 2, 3, 0, 1], [6, 8, 4, 10, 7],
                    [11, 12, 12, 10, 13])
    table = sweep.paired_difference(a, b).set_index("statistic")
    z = 1.959963984540054
    # first-seat edge: mean of per-deal differences (0, 1, 0, -1, 0) with its sd / sqrt(n)
    d = np.array([0, 1, 0, -1, 0])
    edge = table.loc["first_edge"]
    assert edge["effect"] == pytest.approx(0.0)
    assert edge["ci_high"] == pytest.approx(z * d.std(ddof=1) / math.sqrt(5))
    assert edge["se_independent"] == pytest.approx(
        math.sqrt((np.var([1, 0, 1, 1, 0], ddof=1) + np.var([1, 1, 1, 0, 0], ddof=1)) / 5))
    # game length: differences (1, 0, 1, 1, 0)
    length = table.loc["length"]
    assert length["effect"] == pytest.approx(0.6)
    assert length["se"] == pytest.approx(np.std([1, 0, 1, 1, 0], ddof=1) / math.sqrt(5))
    # share of tokens: 15/50 -> 8/43, delta-method per-deal values (a - r t) / mean t
    share = table.loc["share:tokens"]
    ra, rb = 15 / 50, 8 / 43
    assert share["effect"] == pytest.approx(rb - ra)
    ua = (np.array([4, 2, 6, 0, 3]) - ra * np.array([10] * 5)) / 10
    ub = (np.array([2, 2, 3, 0, 1]) - rb * np.array([8, 10, 7, 10, 8])) / 8.6
    assert share["se"] == pytest.approx(np.std(ub - ua, ddof=1) / math.sqrt(5))
    # seat spread: cell b's best seat 0 (3/5) and worst seat 1 (2/5)
    assert table.loc["seat_spread", "estimate"] == pytest.approx(0.2)


def test_paired_cells_that_played_different_deals_are_a_bug_not_bad_input():
    from engines.errors import BadInput

    a = _hand_table([1, 0, 1, 1, 0], [0, 1, 0, 0, 1], [1] * 5, [1] * 5, [1] * 5)
    with pytest.raises(RuntimeError, match="same game seeds") as caught:
        sweep.paired_difference(a, a.set_index(a.index + 1))
    assert not isinstance(caught.value, BadInput)


def test_balance_search_reports_unpaired_cells_as_an_internal_error_exit_1(
        tmp_path, capsys, coin, monkeypatch):
    """The runner pairs the deals itself: when its tables do not pair, that is the
    toolkit's bug (exit 1, 'internal error'), not a mistake in the user's input (exit 2)."""
    import tempfile

    calls, game_table = [], sweep.game_table

    def unpaired(frame):  # the first candidate's table loses a deal
        calls.append(1)
        table = game_table(frame)
        return table.iloc[1:] if len(calls) == 1 else table

    monkeypatch.setattr(sweep, "game_table", unpaired)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, _, err = run_cli(capsys, "balance-search", "toy-coin", "--vary", "head_start=6,14",
                           "--budget", "40", "--seed", "3", "--jobs", "1", "-q",
                           "--out", str(tmp_path / "s"))
    assert code == 1, err
    assert err.startswith("internal error") and "same game seeds" in err
    assert "error: " not in err


# --- 3. which conclusions rest on guesses ---------------------------------------------------


def test_data_sensitivity_file_varies_every_guess_with_a_named_range(tmp_path):
    experiment = experiments.load("experiments/data-sensitivity.toml", tmp_path, games=3)
    games = {spec.game: spec for _, spec in experiment.sweeps}
    assert set(games) == {"ninjato", "time-pirates"}
    ninjato_keys = {k for k, _ in games["ninjato"].vary}
    assert {"components.token_values", "components.alarm_guards",
            "components.dojo_counts"} <= ninjato_keys
    assert {"components.epoch_spaces", "components.time_lines"} <= {
        k for k, _ in games["time-pirates"].vary}
    for _, spec in experiment.sweeps:
        cells = spec.cells()
        assert cells[0].name == "base" and len(cells) == 1 + sum(
            len(values) - 1 for _, values in spec.vary)


def test_conclusions_table_names_the_item_a_conclusion_depends_on(tmp_path):
    experiment = experiments.load("experiments/data-sensitivity.toml", tmp_path, games=12)
    path, spec = next((p, s) for p, s in experiment.sweeps if s.game == "time-pirates")
    frame = sweep.run_sweep(spec, path, jobs=1)
    verdicts = sweep.conclusions(spec, frame, sweep.effects(spec, frame)).set_index(
        "conclusion")["verdict"]
    # fewer spaces per epoch make a longer game: the length conclusion depends on the board
    assert verdicts["game length"].startswith("depends on components.epoch_spaces")
    assert set(verdicts.index) == {"first-seat edge", "dominant scoring source", "game length"}


def test_bad_sweep_table_in_an_experiment_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[sweep]]\ngame = "ninjato"\nvary = {"components.nope" = [1, 2]}\n')
    with pytest.raises(ValueError, match=r"\[\[sweep\]\] 1: unknown data item 'nope'"):
        experiments.load(bad, tmp_path)
    bad.write_text('[[sweep]]\ngame = "tabula-rasa"\nvary = "guesses"\n')
    with pytest.raises(ValueError, match="only official component data"):
        experiments.load(bad, tmp_path)


# --- 4. balance search ----------------------------------------------------------------------


def test_balance_search_finds_the_toy_games_known_optimum(tmp_path, coin):
    # seat 1 wins with chance head_start / 20: the edge is head_start / 20 - 1/2, zero at 10
    spec = search.SearchSpec("toy-coin", 2, ("heuristic", "heuristic"), 7,
                             sweep.parse_vary("toy-coin", ["head_start=0..20"]),
                             "first_edge", 3000)
    result = search.run_search(spec, tmp_path / "search", jobs=1)
    assert result.best == "head_start=10"
    assert result.games_spent <= spec.budget
    assert result.games_exhaustive > 3 * result.games_spent
    assert result.runner_up in ("head_start=9", "head_start=11")
    lines = search.summary_lines(spec, result)
    assert lines[0].startswith(("best setting: head_start=10", "best estimate: head_start=10"))
    assert lines[1].startswith("tied with the best: ") and "exhaustive" in lines[-1]
    # every candidate named as tied really is: its paired difference is not significant
    diffs = search.differences_from_best(spec, result)
    assert len(diffs) == 20 and (diffs["effect"] > -1e-12).sum() >= 18


def test_balance_search_cli_prints_best_runner_up_and_games(tmp_path, capsys, coin):
    code, out, err = run_cli(capsys, "balance-search", "toy-coin", "--vary", "head_start=6..14:2",
                             "--budget", "600", "--seed", "3", "--jobs", "1", "-q",
                             "--out", str(tmp_path / "s"))
    assert code == 0, err
    assert "head_start=10 — first_edge" in out and "runner-up" in out and "would play" in out
    assert "\ntied with the best: " in out


# --- 5. backends ----------------------------------------------------------------------------


@pytest.mark.slow
def test_sweep_on_dask_plays_the_same_cells_as_locally(tmp_path):
    pytest.importorskip("distributed")
    spec = sweep.SweepSpec(game="tabula-rasa", players=3, games=12, bots=("random",) * 3, seed=5,
                           vary=(("castle_rule", ("first_to_two", "two_consecutive")),))
    local = sweep.run_sweep(spec, tmp_path / "local", jobs=1)
    dask = sweep.run_sweep(spec, tmp_path / "dask", jobs=1, backend="dask")
    columns = ["cell", "game_index", "seat", "seed", "score", "win_share"]
    pd.testing.assert_frame_equal(
        local[columns].sort_values(columns[:3]).reset_index(drop=True),
        dask[columns].sort_values(columns[:3]).reset_index(drop=True))


def test_sweep_ranking_orders_significant_effects_and_lists_the_rest_as_no_clear_effect():
    table = pd.DataFrame({
        "key": ["chips"] * 4, "setting": ["8", "8", "12", "12"],
        "statistic": ["length", "first_edge", "first_edge", "tie_rate"],
        "reference": [100.0, 0.02, 0.02, 0.1], "effect": [-1.0, 0.01, -0.05, 0.001],
        "ci_low": [-1.5, 0.002, -0.07, -0.01], "ci_high": [-0.5, 0.018, -0.03, 0.012],
        "significant": [True, True, True, False]})
    lines = sweep.ranking(table)
    assert lines == [
        "1. chips=12: first-seat edge -5.0 points [-7.0, -3.0] (significant)",
        "2. chips=8: first-seat edge +1.0 points [+0.2, +1.8] (significant)",
        "3. chips=8: game length -1.0 decisions [-1.5, -0.5] (significant)",
        "no clear effect: chips=12 on tie rate"]
    assert not any("%" in line for line in lines)


def test_balance_search_names_the_official_value_instead_of_base():
    spec = search.SearchSpec("big-cheese", 4, ("heuristic",) * 4, 1,
                             sweep.parse_vary("big-cheese", ["chips=9..11"]), "first_edge", 600)
    assert search.candidate_label(spec, "base") == "official (chips=10)"
    assert search.candidate_label(spec, "chips=9") == "chips=9"


def test_data_out_replaces_an_existing_file_only_with_force(tmp_path, capsys):
    """A data set written out is there to be edited: a second export must not wipe the
    edits unless asked to."""
    path = tmp_path / "mine.toml"
    path.write_text("# my edits\n")
    code, _, err = run_cli(capsys, "data", "ninjato", "--out", str(path))
    assert code == 2 and err == f"error: --out {path} exists; add --force to overwrite it\n"
    assert path.read_text() == "# my edits\n"
    code, _, _ = run_cli(capsys, "data", "ninjato", "--out", str(path), "--force")
    assert code == 0 and "alarm_guards" in path.read_text()
