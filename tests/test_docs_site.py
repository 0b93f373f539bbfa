"""The docs site builds from a fresh clone (the notebooks shown unexecuted, and saying so)
and folds long notebook outputs; see `tools/mkdocs_hooks.py`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("mkdocs", reason="docs extra not installed")

from tools import mkdocs_hooks  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_a_notebook_shows_its_executed_copy_if_there_is_one_else_itself(tmp_path: Path):
    sources = sorted((ROOT / "notebooks").glob("*.ipynb"))
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / sources[0].name).write_text("{}")
    pages = mkdocs_hooks.site_notebooks(tmp_path)
    assert pages[f"notebooks/{sources[0].name}"] == tmp_path / "notebooks" / sources[0].name
    assert [pages[f"notebooks/{s.name}"] for s in sources[1:]] == sources[1:]


def test_the_notebook_pages_join_the_files_of_the_build(tmp_path: Path):
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n")
    config = load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(docs),
                         site_dir=str(tmp_path / "site"))
    files = mkdocs_hooks.on_files(get_files(config), config)
    for source in (ROOT / "notebooks").glob("*.ipynb"):
        file = files.get_file_from_path(f"notebooks/{source.name}")
        assert file is not None and Path(file.abs_src_path) == source


def _output(lines: int) -> str:
    text = "\n".join(f"line {i} &lt;x&gt;" for i in range(lines))
    return f'<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain">' \
           f"\n<pre>{text}\n</pre></div>"


def test_a_long_output_folds_under_its_first_line_and_a_short_one_stays():
    short, long = _output(mkdocs_hooks.FOLD_LINES), _output(mkdocs_hooks.FOLD_LINES + 1)
    assert mkdocs_hooks.fold(short) == short
    folded = mkdocs_hooks.fold(long)
    assert f"<summary>line 0 &lt;x&gt; … ({mkdocs_hooks.FOLD_LINES + 1} lines)</summary>" in folded
    assert folded.count("line 1 &lt;x&gt;") == 1 and "</pre></details>" in folded


def test_an_unexecuted_notebook_page_says_so_and_an_executed_one_does_not(tmp_path: Path):
    def page(source: Path):
        return SimpleNamespace(file=SimpleNamespace(abs_src_path=str(source)))

    source = sorted((ROOT / "notebooks").glob("*.ipynb"))[0]
    assert "Not executed" in mkdocs_hooks.on_page_content("<p>x</p>", page(source), {}, None)
    executed = tmp_path / "notebooks" / source.name
    assert "Not executed" not in mkdocs_hooks.on_page_content("<p>x</p>", page(executed), {},
                                                              None)
    markdown = ROOT / "docs" / "index.md"
    assert mkdocs_hooks.on_page_content("<p>x</p>", page(markdown), {}, None) == "<p>x</p>"


@pytest.mark.slow
def test_the_site_builds_strict_from_a_fresh_clone(tmp_path: Path):
    """The README's docs command on a clone: only committed files, no executed notebooks."""
    clone = tmp_path / "clone"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True).stdout.decode().split("\0")
    for name in filter(None, tracked):  # the files a clone has (as in the working tree)
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            (clone / name).write_bytes((ROOT / name).read_bytes())
    assert not (clone / "docs" / "notebooks").exists()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=clone, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "notebooks" / "compare-bots" / "index.html").is_file()
