"""MkDocs hooks (`hooks:` in mkdocs.yml): the site builds from a fresh clone, and long
notebook outputs fold.

The notebook pages show the executed copies in `docs/notebooks/` that
`python -m tools.notebooks docs/notebooks` writes (CI does, before its strict build).  A
notebook without an executed copy is shown from `notebooks/` as it is, without outputs, under
a note that says so: `mkdocs serve` and `mkdocs build --strict` then work on a fresh clone
with the docs extra alone, in seconds, and nothing executed is committed to go stale.
An output longer than `FOLD_LINES` lines (the transcript of a whole game) is folded into a
`<details>` block that names its first line and its length.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: Outputs longer than this many lines are folded.
FOLD_LINES = 40

NOT_EXECUTED = """<div class="admonition note"><p class="admonition-title">Not executed</p>
<p>This copy of the notebook has no outputs: the site was built without running
<code>python -m tools.notebooks docs/notebooks</code> first (it needs the
<code>notebooks</code> extra and takes minutes). Run it, or open the notebook with
<code>jupyter lab notebooks/</code>, to see its figures and tables.</p></div>
"""

#: A text output of mkdocs-jupyter's rendering: its `<pre>` block.
_OUTPUT = re.compile(r'(<div class="[^"]*\bjp-OutputArea-output\b[^"]*"[^>]*>\s*)<pre>(.*?)</pre>',
                     re.S)


def site_notebooks(docs_dir: Path) -> dict[str, Path]:
    """Each notebook page (its path under `docs_dir`) and the file it is built from: the
    executed copy in `docs_dir/notebooks/` if there is one, else the notebook itself."""
    pages = {}
    for source in sorted(NOTEBOOKS.glob("*.ipynb")):
        executed = docs_dir / "notebooks" / source.name
        pages[f"notebooks/{source.name}"] = executed if executed.is_file() else source
    return pages


@event_priority(100)  # before mkdocs-jupyter turns the notebooks into pages
def on_files(files, config):
    for path, source in site_notebooks(Path(config["docs_dir"])).items():
        if files.get_file_from_path(path) is None:
            files.append(File(path, src_dir=str(source.parent.parent),
                              dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    return files


def fold(text: str) -> str:
    """The page `text` with every text output longer than `FOLD_LINES` lines folded."""
    def folded(match: re.Match) -> str:
        body = match.group(2)
        lines = body.strip("\n").splitlines()
        if len(lines) <= FOLD_LINES:
            return match.group(0)
        first = html.unescape(re.sub(r"<[^>]+>", "", lines[0])).strip()
        summary = html.escape(f"{first} … ({len(lines)} lines)")
        return (f"{match.group(1)}<details class=\"long-output\"><summary>{summary}</summary>"
                f"<pre>{body}</pre></details>")

    return _OUTPUT.sub(folded, text)


def on_page_content(text, page, config, files):
    source = page.file.abs_src_path
    if not source or not source.endswith(".ipynb"):
        return text
    if Path(source).parent == NOTEBOOKS:
        text = NOT_EXECUTED + text
    return fold(text)
