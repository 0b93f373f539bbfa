"""The `simulate` command as a user types it: output, and one-line errors with exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.cli import main

ROOT = Path(__file__).resolve().parent.parent

GAME = "tabula-rasa"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_simulate_prints_summary_and_writes_results(capsys, tmp_path):
    out = tmp_path / "run"
    code, stdout, _ = run_cli(capsys, GAME, "--games", "30", "--players", "3", "--seed", "1",
                              "--jobs", "1", "--out", str(out), "--bots", "heuristic,random")
    assert code == 0
    assert "30 games" in stdout and "games/s" in stdout
    assert "Win share by bot" in stdout and "Win share by seat" in stdout
    assert "heuristic" in stdout and "random" in stdout
    assert str(out) in stdout
    assert (out / "manifest.json").is_file() and list(out.glob("part-*.parquet"))


def test_list_shows_games_rules_and_bots(capsys):
    code, stdout, _ = run_cli(capsys, "list")
    assert code == 0
    assert GAME in stdout and "castle_rule" in stdout and "heuristic" in stdout
    assert ("mcts defaults in this game: iterations=120,confidence=2,rollout_rounds=1,"
            "reward=win") in stdout  # Ivanhoe's
    assert "mcts evaluation at a cut-off" in stdout  # Big Cheese's
    assert "engines.big_cheese.evaluation.cutoff_value" in stdout


def test_bench_prints_games_per_second(capsys):
    code, stdout, _ = run_cli(capsys, "bench", GAME, "--players", "2", "--seconds", "0.2")
    assert code == 0
    assert "games/s" in stdout and "random" in stdout and "heuristic" in stdout
    assert "reference: sum(range(1000))" in stdout


@pytest.mark.parametrize("argv, message", [
    (["chess"], "unknown game"),
    ([GAME, "--bots", "nonsense"], "unknown bot"),
    ([GAME, "--bots", "heuristic:nope"], "unknown heuristic"),
    ([GAME, "--players", "7"], "2-4 players"),
    ([GAME, "--games", "0"], "--games must be positive"),
    ([GAME, "--games", "many"], "--games"),
    ([GAME, "--rule", "castle_rule"], "KEY=VALUE"),
    ([GAME, "--rule", "colour=blue"], "unknown rule option"),
    ([GAME, "--rule", "castle_rule=sometimes"], "must be one of"),
    ([GAME, "--bots", "heuristic:castle_draw=secret"], "castle_draw= must be one of"),
    ([GAME, "--resume", "/nonexistent/run"], "not a directory"),
    (["bench", "chess"], "unknown game"),
])
def test_bad_input_gives_one_line_error_and_exit_2(capsys, argv, message):
    code, _, stderr = run_cli(capsys, *argv, "--quiet") if argv[0] != "bench" else run_cli(
        capsys, *argv)
    assert code == 2
    assert message in stderr
    assert stderr.startswith("error:") and stderr.count("\n") == 1
    assert "Traceback" not in stderr


def test_unwritable_and_nonempty_output_directories_are_refused(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, stderr = run_cli(capsys, GAME, "--games", "5", "--out", str(blocker / "sub"),
                              "--quiet")
    assert code == 2 and "cannot create output directory" in stderr
    full = tmp_path / "full"
    full.mkdir()
    (full / "something").write_text("x")
    code, _, stderr = run_cli(capsys, GAME, "--games", "5", "--out", str(full), "--quiet")
    assert code == 2 and "not empty" in stderr


def test_resume_of_a_corrupt_run_is_a_clear_error(capsys, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "manifest.json").write_text("]]]")
    code, _, stderr = run_cli(capsys, GAME, "--resume", str(bad), "--quiet")
    assert code == 2 and "corrupt" in stderr


def test_console_script_runs_end_to_end(tmp_path):
    """The installed `simulate` entry point, as a user calls it."""
    done = subprocess.run(
        [sys.executable, "-m", "analysis.cli", GAME, "--games", "12", "--players", "4",
         "--seed", "3", "--jobs", "2", "--out", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "12 games" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "analysis.cli", "chess"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_bare_simulate_shows_help(capsys):
    code, stdout, stderr = run_cli(capsys)
    assert code == 0
    assert "Usage" in stdout and "ninjato" in stdout and not stderr


# ------------------------------------------------------------ component files on the CLI
#: (file name, contents, the error after "components file NAME ") for both games with files.
BAD_COMPONENT_FILES = [
    ("missing.toml", None, "does not exist"),
    ("broken.toml", "epochs = [", "is not valid TOML: "),
    ("broken.json", '{"epochs": ', "is not valid JSON: "),
    ("list.json", "[1, 2]", "has the wrong shape: the top level must be a table"),
    ("typo.toml", "colour = 1", "has the wrong shape: unknown key 'colour'"),
    ("notes.txt", "epochs = 1", "must be a .toml or .json file"),
]
#: A known key with a misshapen value, per game (the game's own loader refuses it).
BAD_TABLES = {
    "ninjato": ('{"treasure_values": [1]}', ": data item treasure_values=1: needs 4 entries"),
    "time-pirates": ('{"epochs": 5}', "has the wrong shape: object of type 'int' has no len()"),
}
#: Every command that takes rule options; {game} and {rule} are filled in.
RULE_COMMANDS = {
    "simulate GAME": ["{game}", "--games", "4", "--jobs", "1", "--rule", "{rule}"],
    "compare": ["compare", "{game}", "--bots", "random,heuristic", "--games", "4", "--jobs",
                "1", "--rule", "{rule}"],
    "bench": ["bench", "{game}", "--seconds", "0.1", "--rule", "{rule}"],
    "run": ["run", "experiment.toml", "--jobs", "1"],
}
CASES = [(game, command, *case) for game in BAD_TABLES for command in RULE_COMMANDS
         for case in [*BAD_COMPONENT_FILES, ("table.json", *BAD_TABLES[game])]]


@pytest.mark.parametrize("game, command, name, text, error", CASES,
                         ids=[f"{c[1]}-{c[0]}-{c[2]}" for c in CASES])
def test_bad_components_file_is_one_error_before_anything_starts(
        capsys, tmp_path, monkeypatch, game, command, name, text, error):
    monkeypatch.chdir(tmp_path)  # default results/ directories would land here
    if text is not None:
        (tmp_path / name).write_text(text)
    (tmp_path / "experiment.toml").write_text(
        f'[[study]]\ngame = "{game}"\nbots = ["random"]\ngames = 4\n'
        f'rules = {{components = "{name}"}}\n')
    before = sorted(tmp_path.iterdir())
    argv = [arg.format(game=game, rule=f"components={name}") for arg in RULE_COMMANDS[command]]
    code, _, stderr = run_cli(capsys, *argv)
    assert code == 2
    where = f"experiment.toml [[study]] 1: {game}: " if command == "run" else ""
    assert stderr.startswith(f"error: {where}components file {name}"
                             + ("" if error.startswith(":") else " ") + error)
    assert stderr.count("\n") == 1  # one line: no progress bar was drawn, no traceback
    assert sorted(tmp_path.iterdir()) == before  # no results directory left behind


def test_missing_components_file_from_the_console_script(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "ninjato", "--games", "4", "--jobs", "1",
         "--rule", "components=missing.toml"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert done.returncode == 2
    assert done.stderr == "error: components file missing.toml does not exist\n"
    assert list(tmp_path.iterdir()) == []


def test_each_shared_option_is_declared_once():
    """Options declared per command drift apart: an option that several commands share
    comes from `analysis.cli.options` and reads the same (help, default flags) in all."""
    import typer

    from analysis.cli import app
    from analysis.cli.options import OWN_MEANING
    from engines import GAMES

    group = typer.main.get_command(app)
    seen: dict[str, dict[str, list[str]]] = {}
    for name, command in group.commands.items():
        for param in command.params:
            option = param.opts[0]
            own = OWN_MEANING.get(option, ())
            if own == "every command" or (name in GAMES if own == "per game" else name in own):
                continue
            text = f"{param.opts} {getattr(param, 'help', None) or param.metavar}"
            seen.setdefault(option, {}).setdefault(text, []).append(name)
    drifted = {option: texts for option, texts in seen.items() if len(texts) > 1}
    assert not drifted, drifted
    assert len(seen["--quiet"][next(iter(seen["--quiet"]))]) >= 5  # the check sees them all


def test_every_out_that_is_not_a_run_directory_is_documented():
    """`--out` names a directory in most commands; each command where it names a file (or
    a root of directories) says so in `OUT_MEANING`, which docs/cli.md lists."""
    import typer

    from analysis.cli import app
    from analysis.cli.options import OUT_MEANING

    group = typer.main.get_command(app)
    helps = {name: next(p.help for p in command.params if p.opts[0] == "--out")
             for name, command in group.commands.items()
             if any(p.opts[0] == "--out" for p in command.params)}
    files = {name for name, text in helps.items() if "directory" not in text.lower()}
    assert files == {"report", "data", "play"}
    assert files <= set(OUT_MEANING) <= set(helps)
    reference = (ROOT / "docs" / "cli.md").read_text()
    section = reference.split("## Options that mean different things", 1)[1].split("\n## ")[0]
    for name, meaning in OUT_MEANING.items():
        assert f"| `simulate {name}` | {meaning} |" in section


def test_version_names_the_package_and_engine_build(capsys):
    from analysis.run.tournament import package_version
    from engines import _build

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"tabletop-sim {package_version()} · engines: ")
    assert _build.BUILD in out


@pytest.mark.parametrize("argv", [["-h"], ["ninjato", "-h"], ["compare", "-h"]])
def test_dash_h_is_help_everywhere(argv, capsys):
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: simulate") and "-h, --help" in out


def test_color_never_and_always_set_both_consoles(capsys):
    from analysis.cli import common

    try:
        assert main(["--color", "always", "list"]) == 0
        assert common.stdout.is_terminal and common.stdout.color_system == "standard"
        assert "\x1b[" in capsys.readouterr().out
        assert main(["--color", "never", "list"]) == 0
        assert common.stdout.no_color and common.stderr.no_color
        assert "\x1b[" not in capsys.readouterr().out
    finally:
        common.set_color("auto")


def test_an_unknown_color_mode_is_refused(capsys):
    assert main(["--color", "sometimes", "list"]) == 2
    err = capsys.readouterr().err
    assert err == "error: --color must be one of auto, always, never, got 'sometimes'\n"


def test_json_gives_a_commands_sentences_and_tables_anywhere_on_the_line(tmp_path, capsys):
    import json

    argv = ["tabula-rasa", "--games", "20", "--players", "3", "--seed", "5", "--jobs", "1",
            "--reference", "none", "--out", str(tmp_path / "r"), "--json"]
    assert main(argv) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["command"][:2] == ["simulate", "tabula-rasa"] and document["exit_code"] == 0
    titles = [table["title"] for table in document["tables"]]
    assert "Designer summary" in titles
    summary = document["tables"][titles.index("Designer summary")]
    assert summary["columns"][0] == "game" and summary["rows"][0][0] == "tabula-rasa 3p"
    assert any(line.lstrip().startswith("balance: ") for line in document["lines"])
    assert all("\x1b[" not in line for line in document["lines"])


def test_csv_gives_every_table_under_its_title(tmp_path, capsys):
    import csv
    import io

    assert main(["--csv", "tabula-rasa", "--games", "20", "--players", "3", "--seed", "5",
                 "--jobs", "1", "--reference", "none", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\n\n")
    designer = next(b for b in blocks if b.startswith("# Designer summary"))
    rows = list(csv.reader(io.StringIO(designer.split("\n", 1)[1])))
    assert rows[0][0] == "game" and rows[1][0] == "tabula-rasa 3p"


def test_json_and_csv_together_are_refused(capsys):
    assert main(["list", "--json", "--csv"]) == 2
    assert capsys.readouterr().err == "error: --json and --csv cannot be combined; give one\n"


def test_json_of_a_bad_input_prints_only_the_error(tmp_path, capsys):
    assert main(["tabula-rasa", "--players", "0", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ")
