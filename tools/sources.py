"""Source blocks: a docs page shows a file of the repository as it is, written by cog.

    <!-- [[[cog from tools.sources import source; source("engines/hot_potato/rules.py") ]]] -->
    ...the file in a code block, written by cog...
    <!-- [[[end]]] -->

So the tutorial's code is the shipped game's code (`docs/tutorial.md`), and the site's engine
contract is `engines/README.md` (`docs/engine-contract.md`): an edit of the file makes the
page stale, `python -m tools.generate` rewrites it and `tests/test_generate.py` fails until
then.  One step of `tools.generate` with the other cog blocks (`tools.examples`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The code-block language of a file, by suffix.
LANGUAGES = {".py": "python", ".toml": "toml", ".md": "markdown"}


def excerpt(path: str, start: str | None = None, end: str | None = None) -> str:
    """The text of `path` (relative to the checkout), or its lines from the first that starts
    with `start` up to the first later one that starts with `end` (not included; None: to the
    end), without the blank lines around them.  A `start` or `end` not found raises."""
    lines = (ROOT / path).read_text().splitlines()
    first = 0 if start is None else _find(lines, start, 0, path)
    last = len(lines) if end is None else _find(lines, end, first + 1, path)
    return "\n".join(lines[first:last]).strip("\n")


def _find(lines: list[str], prefix: str, after: int, path: str) -> int:
    for number in range(after, len(lines)):
        if lines[number].startswith(prefix):
            return number
    raise ValueError(f"{path}: no line starts with {prefix!r}")


def source(path: str, start: str | None = None, end: str | None = None) -> None:
    """Write a code block of `path` (or of its lines from `start` to `end`, see `excerpt`)."""
    import cog  # available while cog runs this block

    language = LANGUAGES.get(Path(path).suffix, "text")
    cog.outl(f"```{language}\n{excerpt(path, start, end)}\n```")


#: A Markdown link's target: `[text](target)`.
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def moved_links(text: str, source: str, page: str) -> str:
    """`text` of the file `source` with its relative links made relative to `page` (both
    relative to the checkout): the same targets, seen from where the text is shown."""
    def move(match: re.Match) -> str:
        target = match.group(1)
        if "://" in target or target.startswith(("#", "mailto:")):
            return match.group(0)
        path, hash_, anchor = target.partition("#")
        moved = os.path.relpath(ROOT / Path(source).parent / path, ROOT / Path(page).parent)
        return f"]({Path(moved).as_posix()}{hash_}{anchor})"

    return _LINK.sub(move, text)


def markdown(path: str, page: str) -> None:
    """Write the Markdown file `path` into the page `page` (both relative to the checkout),
    its relative links moved to the page."""
    import cog

    cog.outl(moved_links(excerpt(path), path, page))
