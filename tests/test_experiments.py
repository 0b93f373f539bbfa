"""Experiment files: parsing, validation errors (exit 2), and a tiny end-to-end run."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.cli import main
from analysis.run import experiments

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("path", sorted(EXPERIMENTS.glob("*.toml")), ids=lambda p: p.stem)
def test_shipped_experiments_load(path):
    experiment = experiments.load(path, games=10)
    # data-sensitivity has sweeps only, strategy-landscape landscapes only
    assert experiment.runs or experiment.sweeps or experiment.landscapes
    assert all(r.games == 10 for r in experiment.runs)
    assert all(spec.games == 10 for _, spec in experiment.sweeps)
    assert all(spec.games == 10 for _, spec in experiment.landscapes)


def test_expansion_players_variants_and_round_robin(tmp_path):
    path = write(tmp_path, """
name = "t"
games = 100
[[study]]
game = "tabula-rasa"
players = [2, 3]
variants = [{}, {final_tie = "tiebreak"}]
[[study]]
game = "tabula-rasa"
players = 2
bots = ["random", "heuristic", "heuristic:greedy"]
format = "duplicate"
""")
    experiment = experiments.load(path, out_root=tmp_path, scale=0.5)
    rotation = [r for r in experiment.runs if r.format == "rotation"]
    duplicate = [r for r in experiment.runs if r.format == "duplicate"]
    assert len(rotation) == 4 and {r.players for r in rotation} == {2, 3}
    assert len(duplicate) == 3  # every pair of the three bots
    assert all(r.games == 50 for r in experiment.runs)
    assert experiment.out_dir == tmp_path / "t"


@pytest.mark.parametrize("text, message", [
    ("games = [", "not valid TOML"),
    ("bogus = 1\n[[study]]\n", "unknown key 'bogus'"),
    ("[[study]]\ngame = 'tabula-rasa'\nplayrs = 2\n", "unknown key 'playrs'"),
    ("[[study]]\ngame = 'nope'\n", "unknown game"),
    ("[[study]]\ngame = 'tabula-rasa'\nplayers = 9\n", "players"),
    ("[[study]]\ngame = 'tabula-rasa'\nformat = 'swiss'\n", "format"),
    ("[[study]]\ngame = 'tabula-rasa'\nrules = {nope = 1}\n", "unknown rule option"),
    ("[[study]]\ngame = 'tabula-rasa'\nbots = ['nosuchbot']\n", "unknown bot"),
    ("name = 'x'\n", "at least one [[study]]"),
    ("games = -3\n[[study]]\n", "games must be a positive integer"),
    ("backend = 'spark'\n[[study]]\ngame = 'tabula-rasa'\n", "backend must be loky or dask"),
    ("scheduler = 8786\n[[study]]\ngame = 'tabula-rasa'\n", "scheduler must be an address"),
])
def test_bad_files_are_one_line_exit_2(tmp_path, capsys, text, message):
    assert main(["run", str(write(tmp_path, text)), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_missing_file_is_exit_2(tmp_path, capsys):
    assert main(["run", str(tmp_path / "absent.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_run_plays_resumes_and_writes_combined_report(tmp_path, capsys):
    path = write(tmp_path, """
name = "tiny"
[[study]]
game = "tabula-rasa"
players = 2
bots = ["random"]
[[study]]
game = "tabula-rasa"
players = 2
bots = ["heuristic", "random"]
format = "duplicate"
""")
    argv = ["run", str(path), "--games", "4", "--out", str(tmp_path / "res"), "--jobs", "1",
            "--quiet"]
    assert main(argv) == 0
    report = tmp_path / "res" / "tiny" / "report.html"
    assert report.is_file() and "<img" in report.read_text()
    assert main(argv) == 0  # second call resumes finished runs: nothing replayed, same report
    assert main(argv[:3] + ["7"] + argv[4:]) == 2  # other game counts clash with stored runs
    assert "holds a different run" in capsys.readouterr().err


def test_one_family_across_every_table_of_a_report(tmp_path):
    """Seat, bot and sweep tests of one experiment report are adjusted together (Holm) and
    every table states the same family size."""
    import re

    import pandas as pd

    from analysis.cli import reporting
    from analysis.results import runs
    from analysis.stats import balance, findings

    path = write(tmp_path, 'name = "fam"\nseed = 3\n[[study]]\ngame = "tabula-rasa"\n'
                           'players = 3\nbots = ["heuristic", "random"]\ngames = 40\n'
                           '[[sweep]]\ngame = "tabula-rasa"\nplayers = 3\ngames = 30\n'
                           'vary = {castle_rule = ["first_to_two", "two_consecutive"]}\n')
    experiment = experiments.load(path, tmp_path / "out")
    out = reporting.run_experiment(experiment, jobs=1, confirm=False)
    text = out.read_text()
    sizes = set(re.findall(r"Holm over (?:the|this \w+'s|the report's) (\d+) tests", text))
    assert len(sizes) == 1, sizes
    size = int(sizes.pop())
    # 3 seats + 2 bots (mixed line-up) + the sweep's effects
    frame, _ = runs.load([r.path for r in experiment.runs])
    from analysis.run import sweep

    spec_path, spec = experiment.sweeps[0]
    effects = sweep.effects(spec, sweep.load_sweep(spec_path)[1])
    assert size == 3 + 2 + len(effects)
    tests = findings.family(frame, extra=sweep.family_rows([effects]))
    assert tests["p_adjusted"].tolist() == pytest.approx(
        list(balance.adjust_pvalues(tests["p_value"], "holm")), nan_ok=True)
    assert isinstance(tests, pd.DataFrame) and tests["tests"].iloc[0] == size


def test_variant_worth_testing_moves_the_edge_furthest_towards_balance():
    from types import SimpleNamespace

    import pandas as pd

    from analysis.stats import findings

    table = pd.DataFrame({
        "key": ["chips", "chips", "components.x"], "setting": ["8", "12", "2"],
        "statistic": ["first_edge", "first_edge", "seat_spread"],
        "reference": [0.08, 0.08, 0.10], "estimate": [0.05, 0.01, 0.12],
        "effect": [-0.03, -0.07, 0.02], "ci_low": [-0.04, -0.08, 0.01],
        "ci_high": [-0.02, -0.06, 0.03], "p": [1e-6, 1e-9, 1e-5]})
    sweeps = [(SimpleNamespace(game="g", players=4), None, table)]
    tests = findings.family(pd.DataFrame(), extra=experiments.sweep_family(sweeps))
    assert tests["tests"].iloc[0] == 3
    text = experiments.sweep_variants(sweeps, tests)[("g", 4)]
    assert text == ("chips=12: first-seat edge -7.0 points [-8.0, -6.0]; balance rests on "
                    "guessed data: components.x")


def test_all_styles_leave_out_a_style_that_is_the_default_itself():
    """A tuned style promoted to default is the same bot: one line-up, not two."""
    from analysis.run.experiments import expand_styles
    from engines import get_game

    ninjato = expand_styles(["heuristic:*"], get_game("ninjato"))
    assert "heuristic" in ninjato and "heuristic:tuned" not in ninjato
    assert "heuristic:v2" in ninjato  # the previous default is another bot
    assert "heuristic:tuned" in expand_styles(["heuristic:*"], get_game("ivanhoe"))
