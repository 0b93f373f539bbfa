"""The README's two set-up commands stay true: CI runs exactly the README's test command."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("```bash", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.strip().splitlines()]


def test_readme_starts_with_two_setup_commands():
    install_and_run, install_and_test = _setup_commands()
    assert "pip install -e ." in install_and_run and "simulate " in install_and_run
    assert "[test" in install_and_test and "pytest" in install_and_test


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert _setup_commands()[1] in ci


def test_ci_runs_ruff_before_the_tests():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "ruff check ." in ci
    assert ci.index("ruff check .") < ci.index(_setup_commands()[1])
