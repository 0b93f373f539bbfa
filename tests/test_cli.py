"""The `simulate` command as a user types it: output, and one-line errors with exit code 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from analysis.cli import main

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
    assert "mcts defaults in this game: iterations=80,confidence=2" in stdout  # Ivanhoe's


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
