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
    assert all(set(planned.spec.games) == {10} for planned in experiment.ladders)


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


def test_a_study_plays_the_default_skill_ladder_reading_its_own_run(tmp_path):
    from analysis.run import ladder

    path = write(tmp_path, """
games = 100
[[study]]
game = "tabula-rasa"
players = 2
bots = ["heuristic"]
""")
    experiment = experiments.load(path, out_root=tmp_path)
    (planned,) = experiment.ladders
    assert planned.spec.levels == ladder.DEFAULT_LEVELS == (
        "random", "heuristic", "mcts:iterations=20", "mcts")
    assert planned.spec.games == (100, 100, 20, 20)  # a fifth at the search levels
    assert planned.spec.seed == experiment.runs[0].seed  # the same deals
    assert planned.level_dirs == {"heuristic": experiment.runs[0].path}
    assert experiments.total_games(experiment) == 100 + 100 + 20 + 20  # heuristic once


def test_a_study_picks_its_ladder_or_none_and_shares_one_per_setting(tmp_path):
    path = write(tmp_path, """
games = 100
[[study]]
game = "tabula-rasa"
players = [2, 3]
bots = ["heuristic"]
ladder = ["random", "heuristic", "mcts:iterations=5"]
ladder_games = [100, 100, 30]
[[study]]
game = "tabula-rasa"
players = 2
bots = ["random"]
ladder = ["random", "heuristic", "mcts:iterations=5"]
ladder_games = [100, 100, 30]
[[study]]
game = "ninjato"
players = 2
ladder = false
""")
    experiment = experiments.load(path, out_root=tmp_path, scale=0.5)
    assert [(p.spec.players, p.spec.games) for p in experiment.ladders] == [
        (2, (50, 50, 15)), (3, (50, 50, 15))]  # one ladder at 2 players, none for ninjato
    two = experiment.ladders[0]
    assert set(two.level_dirs) == {"random", "heuristic"}  # both are runs of the file
    assert two.path == tmp_path / "exp" / "tabula-rasa" / "2p" / "official-ladder"
    quick = experiments.load(path, out_root=tmp_path, games=7)
    assert all(p.spec.games == (7, 7, 7) for p in quick.ladders)


def test_dry_run_lists_each_ladder_level_and_plays_nothing(tmp_path, capsys):
    path = write(tmp_path, '[[study]]\ngame = "tabula-rasa"\nplayers = 2\ngames = 50\n'
                           'ladder = ["random", "heuristic"]\n')
    assert main(["run", str(path), "--out", str(tmp_path / "res"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "1 runs, 1 skill ladders, 100 games" in out
    assert "skill ladder, weakest first: random 50; heuristic 50 (the run " in out
    assert not (tmp_path / "res").exists()


def test_run_plays_each_study_at_every_ladder_level_on_the_same_deals(tmp_path, capsys):
    from analysis.results import store

    path = write(tmp_path, """
name = "steps"
seed = 4
games = 40
[[study]]
game = "tabula-rasa"
players = 2
bots = ["heuristic"]
ladder = ["random", "heuristic", "mcts:iterations=2"]
ladder_games = 40
""")
    argv = ["run", str(path), "--out", str(tmp_path / "res"), "--jobs", "1", "--quiet",
            "--no-confirm"]
    path_ladder = tmp_path / "res" / "steps" / "tabula-rasa" / "2p" / "official-ladder"
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "under stronger play" in out  # the designer summary's column
    line = next(x for x in out.splitlines() if x.startswith("skill ladder, tabula-rasa 2p: "))
    assert "at mcts:iterations=2 (the strongest level measured): the largest seat edge" in line
    assert all(f"{level} 40 games at " in line for level in ("random", "heuristic"))
    assert line.endswith("games/s")
    levels = {"random": path_ladder / "random", "mcts:iterations=2":
              path_ladder / "mcts_iterations=2",
              "heuristic": tmp_path / "res" / "steps" / "tabula-rasa" / "2p" /
              "official-heuristic"}
    assert not (path_ladder / "heuristic").exists()  # read from the study's own run
    seeds = [tuple(store.load_runs([d]).drop_duplicates("game_index")["seed"])
             for d in levels.values()]
    assert seeds[0] == seeds[1] == seeds[2] and len(seeds[0]) == 40  # paired deals
    report = (tmp_path / "res" / "steps" / "report.html").read_text()
    assert "Under stronger play: the skill ladder" in report
    assert "with skill" in report and "cost per level" in report
    assert "under stronger play</th>" in report  # the designer summary's column
    assert main(argv) == 0  # a rerun plays nothing and states the costs first measured
    assert line in capsys.readouterr().out.splitlines()


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
    ("[[study]]\ngame = 'tabula-rasa'\nladder = []\n", "ladder needs at least two levels"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder = ['heuristic']\n", "at least two levels"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder = ['random', 'nosuchbot']\n",
     "tabula-rasa ladder: unknown bot 'nosuchbot'"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder = 'random,heuristic'\n",
     "ladder must be true, false or a list of bot specs"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder = ['random', 'random']\n", "names a bot twice"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder = ['random', 'heuristic']\nladder_games = 0\n",
     "ladder_games must be a positive integer"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder_games = [10, 10]\n", "2 counts for 4 levels"),
    ("[[study]]\ngame = 'tabula-rasa'\nladder = false\nladder_games = 10\n",
     "ladder_games needs a ladder"),
    ("[[study]]\ngame = 'tabula-rasa'\nplayers = 2\n[[study]]\ngame = 'tabula-rasa'\n"
     "players = 2\nladder = ['random', 'heuristic']\n", "different skill ladders"),
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
ladder = false
[[study]]
game = "tabula-rasa"
players = 2
bots = ["heuristic", "random"]
format = "duplicate"
ladder = false
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
    """Seat, bot, sweep and skill-ladder trend tests of one experiment report are adjusted
    together (Holm) and every table and sentence states the same family size."""
    import html
    import re

    import pandas as pd

    from analysis.cli import reporting
    from analysis.results import runs
    from analysis.stats import balance, findings, ladder

    path = write(tmp_path, 'name = "fam"\nseed = 3\n[[study]]\ngame = "tabula-rasa"\n'
                           'players = 3\nbots = ["heuristic", "random"]\ngames = 40\n'
                           'ladder = ["random", "heuristic"]\n'
                           '[[sweep]]\ngame = "tabula-rasa"\nplayers = 3\ngames = 30\n'
                           'vary = {castle_rule = ["first_to_two", "two_consecutive"]}\n')
    experiment = experiments.load(path, tmp_path / "out")
    out = reporting.run_experiment(experiment, jobs=1, confirm=False)
    text = out.read_text()
    sizes = set(re.findall(r"Holm over (?:the|this \w+'s|the report's) (\d+) tests", text))
    assert len(sizes) == 1, sizes
    size = int(sizes.pop())
    # 3 seats + 2 bots (mixed line-up) + the sweep's effects + 3 seats' skill trends
    frame, _ = runs.load([r.path for r in experiment.runs])
    from analysis.run import sweep

    spec_path, spec = experiment.sweeps[0]
    effects = sweep.effects(spec, sweep.load_sweep(spec_path)[1])
    assert size == 3 + 2 + len(effects) + 3
    assert html.unescape(text).count(f"(Holm over the report's {size} tests)") == 3  # trends
    planned = experiment.ladders[0]
    skill = ladder.of_frame(pd.concat(
        [runs.load([planned.path / level])[0].assign(bot=level) for level in planned.spec.levels]),
        planned.spec.levels)
    tests = findings.family(frame, extra=pd.concat([sweep.family_rows([effects]),
                                                    ladder.family_rows([skill])]))
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
