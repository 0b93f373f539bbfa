"""The documentation stays true: example blocks match what their commands print, and every
page is in the site (the generated files are checked in `tests/test_generate.py`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools import examples

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_readme_is_short_enough_to_read():
    assert len(README.read_text().splitlines()) <= 250


def test_every_subcommand_has_a_section_in_the_reference():
    from typer.main import get_command

    from analysis.cli.app import app

    text = (ROOT / "docs" / "cli.md").read_text()
    for name in get_command(app).commands:
        assert f"## `simulate {name}`" in text


def test_every_docs_page_is_in_the_site_navigation():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in (ROOT / "docs").rglob("*.md"):
        assert str(page.relative_to(ROOT / "docs")) in nav, page


def test_example_blocks_match_what_their_commands_print():
    pytest.importorskip("cogapp", reason="docs extra not installed")
    assert examples.main(["--check"]) == 0, "stale example block: run python -m tools.examples"


def test_a_block_edited_by_hand_is_caught(tmp_path: Path):
    pytest.importorskip("cogapp", reason="docs extra not installed")
    page = tmp_path / "page.md"
    page.write_text('<!-- [[[cog from tools.examples import show; show("simulate list", '
                    'lines=3) ]]] -->\n<!-- [[[end]]] -->\n')
    cog = [sys.executable, "-m", "cogapp", "-I", str(ROOT)]
    subprocess.run([*cog, "-r", str(page)], check=True, capture_output=True)
    assert subprocess.run([*cog, "--check", str(page)], capture_output=True).returncode == 0
    page.write_text(re.sub(r"big-cheese", "big-brie", page.read_text(), count=1))
    assert subprocess.run([*cog, "--check", str(page)], capture_output=True).returncode != 0


def test_readme_python_api_runs(tmp_path: Path, monkeypatch):
    api = README.read_text().split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", api, flags=re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
