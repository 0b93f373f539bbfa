"""Every file derived from the registered games is what `python -m tools.generate` writes.

The check is cheap (nothing is played): the example blocks keep their output here (their
commands run in `tests/test_docs.py`) and the fingerprints are compared by their keys only
(`tests/test_fingerprint.py` plays them).
"""

from __future__ import annotations

import json

import pytest

from tools import generate

pytest.importorskip("cogapp", reason="docs extra not installed")
pytest.importorskip("nbformat", reason="notebooks extra not installed")

CHEAP = generate.Options(examples=False)


def test_every_generated_file_is_current():
    stale = generate.stale(examples=False)
    assert not stale, f"stale: {', '.join(stale)}: run python -m tools.generate"


def _without(path: str, line: str) -> dict[str, str | None]:
    text = (generate.ROOT / path).read_text()
    assert line in text
    return {path: text.replace(line, "", 1)}


def test_a_hand_edited_generated_file_is_named_and_nothing_is_written():
    before = (generate.ROOT / "mkdocs.yml").read_text()
    base = _without("mkdocs.yml", "      - Ninjato: games/ninjato.md\n")
    tree = generate.run(CHEAP, tree=generate.Tree(base=base))
    assert tree.stale() == ["mkdocs.yml"]
    assert "- Ninjato: games/ninjato.md" in tree.written["mkdocs.yml"]
    assert (generate.ROOT / "mkdocs.yml").read_text() == before


def test_check_exits_1_naming_the_stale_files(monkeypatch, capsys):
    base = _without("README.md", "| `ivanhoe` | 2–5 |")
    tree = generate.Tree
    monkeypatch.setattr(generate, "Tree", lambda: tree(base=base))
    assert generate.main(["--check", "--no-examples"]) == 1
    assert capsys.readouterr().err == "stale: README.md (run python -m tools.generate)\n"


def test_a_game_missing_from_the_fingerprints_is_stale_without_a_game_played(monkeypatch):
    """Without `--fingerprints` nothing is played: the keys alone say a case is missing."""
    from tests import test_fingerprint

    stored = json.loads((generate.ROOT / generate.FINGERPRINTS).read_text())
    first = sorted(stored)[0]
    del stored[first]
    monkeypatch.setattr(test_fingerprint, "fingerprint", lambda *case: pytest.fail("played"))
    tree = generate.run(CHEAP, tree=generate.Tree(base={generate.FINGERPRINTS: json.dumps(stored)}))
    assert tree.stale() == [generate.FINGERPRINTS]
    assert tree.unwritten[generate.FINGERPRINTS] == f"no fingerprint for {first}"


def test_one_run_leaves_nothing_stale_whatever_it_had_to_write():
    """The steps' order: a missing game page gets its tables, and the notebook list names a
    notebook that was missing, in the same run; a second run changes nothing."""
    notebooks = (generate.ROOT / "docs/notebooks.md").read_text()
    base = {"docs/games/ninjato.md": None, "notebooks/balance-ninjato.ipynb": None,
            "docs/notebooks.md": notebooks.replace(
                "- [balance-ninjato](notebooks/balance-ninjato.ipynb)\n", "")}
    first = generate.run(CHEAP, tree=generate.Tree(base=base))
    assert first.stale() == sorted(base)
    assert "| players | 2–4 (default 4) |" in first.written["docs/games/ninjato.md"]
    second = generate.run(CHEAP, tree=generate.Tree(base={**base, **first.written}))
    assert second.stale() == []


def test_the_checkouts_files_leave_out_the_game_folders_registered_by_path(tmp_path):
    """A designer's own game, registered by path, is theirs: `tools.generate` with it
    registered finds the checkout as current as without (nothing names the folder)."""
    import os
    import subprocess
    import sys

    from engines import _build
    from engines.gamekit import scaffold

    assert generate.GAMES_ENV == _build.GAMES_ENV
    folder = scaffold.check("card-race", tmp_path, set())
    scaffold.write("card-race", folder)
    env = {**os.environ, _build.GAMES_ENV: str(folder)}
    done = subprocess.run([sys.executable, "-m", "tools.generate", "--check", "--no-examples"],
                          cwd=generate.ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "leaving out the game folders of TABLETOP_GAMES" in done.stderr


def test_a_rules_notes_file_it_cannot_publish_is_a_one_line_error(monkeypatch, capsys,
                                                                  tmp_path):
    from tools import rules_pages

    (tmp_path / "toy.md").write_text("Engine name: `toy` but no title\n")
    monkeypatch.setattr(rules_pages, "SOURCE", tmp_path)
    assert generate.main(["--check", "--no-examples"]) == 2
    assert capsys.readouterr().err == ("error: toy.md: a rules notes file starts with its "
                                       "title: '# <game> — rules, ...'\n")
