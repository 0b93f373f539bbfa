"""Every link of the documentation resolves, and nothing in it points outside the repository.

The site's pages (`docs/`) link only to pages, files and anchors of the site; the READMEs, read
in a clone, link only to files of the repository; the notebooks, shown both by Jupyter and by
the site, link only to URLs.  Any link may go to an http(s) URL, none to another scheme or an
absolute path.  Nor does any text name a path outside the repository (`../shared/...`,
`/home/...`): no reader of a clone or of the site can open it.  Checked on the sources with
the site's own Markdown settings (its heading anchors): fast, no build, no network.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

markdown = pytest.importorskip("markdown", reason="docs extra not installed")
yaml = pytest.importorskip("yaml", reason="docs extra not installed")
pytest.importorskip("mkdocs", reason="docs extra not installed")

from tools.mkdocs_hooks import site_notebooks  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Files read in a clone (on GitHub or in an editor), not on the site.
READMES = (ROOT / "README.md", ROOT / "engines" / "README.md")
#: Absolute paths a page may name: the system's, the same on every machine.
SYSTEM_PATHS = ("/usr/", "/tmp/", "/dev/", "/etc/", "/proc/", "/opt/")

_LINK = re.compile(r'<(?:a|img)\b[^>]*?\b(?:href|src)="([^"]*)"')
_ID = re.compile(r'\bid="([^"]+)"')
#: A path that climbs (`../x`), or an absolute one (`/x/y`), not inside a URL or another path.
_UP = re.compile(r"(?<![\w.~/<>*-])((?:\.\./)+[\w.*<>-][\w./*<>-]*)")
_ABSOLUTE = re.compile(r"(?<![\w.:/~<>*-])(/[\w.+-]+/[\w./*+<>-]*)")


class _AnyTag(yaml.SafeLoader):
    """mkdocs.yml may carry `!!python/name:` or `!ENV` tags; their values do not matter here."""


_AnyTag.add_multi_constructor("", lambda loader, suffix, node: None)


@functools.cache
def _config() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_AnyTag)


def _renderer() -> markdown.Markdown:
    """Python-Markdown with the site's extensions, as mkdocs builds the pages."""
    names, configs = [], {}
    for entry in _config().get("markdown_extensions", []):
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(name)
        if options:
            configs[name] = options
    return markdown.Markdown(extensions=names, extension_configs=configs)


def render(text: str) -> str:
    return _renderer().convert(text)


def site_files(docs: Path = DOCS) -> set[Path]:
    """The files the site is built from, by their place under `docs`: the pages and static
    files in `docs/` (without executed notebooks, which a clone has not) and the notebooks
    the build hook adds."""
    files = {p for p in docs.rglob("*") if p.is_file() and "notebooks" not in
             p.relative_to(docs).parts[:1]}
    return files | {docs / path for path in site_notebooks(docs)}


@functools.cache
def anchors(page: Path) -> set[str]:
    return set(_ID.findall(render(page.read_text()))) if page.suffix == ".md" else set()


def link_problems(page: Path, html: str, inside: Path, files: set[Path] | None) -> list[str]:
    """What is wrong with the links of `page` (rendered to `html`): a target must be an
    http(s) URL or a file under `inside` (one of `files`; None: any there), and an anchor
    in a page must exist."""
    exists = Path.exists if files is None else files.__contains__
    found = []
    for target in _LINK.findall(html):
        parts = urlsplit(target)
        if parts.scheme in ("http", "https"):
            continue
        if parts.scheme or target.startswith("/"):
            found.append(f"{page}: {target!r} is neither an http(s) URL nor a relative link")
            continue
        goal = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not goal.is_relative_to(inside):
            found.append(f"{page}: {target!r} leaves {inside.name}/")
        elif not exists(goal):
            found.append(f"{page}: {target!r}: no such file")
        elif parts.fragment and goal.suffix == ".md" and parts.fragment not in anchors(goal):
            found.append(f"{page}: {target!r}: no anchor #{parts.fragment} in {goal.name}")
    return found


def path_problems(name: str, text: str, folder: Path) -> list[str]:
    """Paths named in `text` (of a file in `folder`) that no reader can open: one climbing
    (`../x`) to no file of the repository, or an absolute one outside the system's folders."""
    def opens(path: str) -> bool:
        place = (folder / path).resolve()
        return place.is_relative_to(ROOT) and place.exists()

    found = [f"{name}: {p!r} is no file of the repository" for p in _UP.findall(text)
             if not opens(p)]
    found += [f"{name}: absolute path {p!r}" for p in _ABSOLUTE.findall(text)
              if not p.startswith(SYSTEM_PATHS)]
    return found


def _notebook_texts() -> Iterable[tuple[Path, str, str]]:
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            yield path, cell["cell_type"], "".join(cell["source"])


def _pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def test_every_link_of_the_site_resolves_inside_it():
    files = site_files()
    found = [problem for page in _pages()
             for problem in link_problems(page, render(page.read_text()), DOCS, files)]
    assert not found, "\n".join(found)


def test_the_readmes_link_only_to_files_of_the_repository():
    found = [problem for readme in READMES
             for problem in link_problems(readme, render(readme.read_text()), ROOT, None)]
    assert not found, "\n".join(found)


def test_the_notebooks_link_only_to_urls_and_their_own_headings():
    """A relative link means one place in Jupyter and another on the site: none is made."""
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        html = render("\n\n".join(text for source, kind, text in _notebook_texts()
                                  if source == path and kind == "markdown"))
        own = set(_ID.findall(html))
        found += [f"{path.name}: {target!r}" for target in _LINK.findall(html)
                  if urlsplit(target).scheme not in ("http", "https")
                  and not (target.startswith("#") and target[1:] in own)]
    assert not found, "\n".join(found)


def test_the_navigation_and_stylesheets_name_files_of_the_site():
    config = _config()

    def entries(nav) -> Iterable[str]:
        for item in nav:
            values = item.values() if isinstance(item, dict) else [item]
            for value in values:
                yield from entries(value) if isinstance(value, list) else [value]

    named = [*entries(config["nav"]), *config.get("extra_css", [])]
    files = site_files()
    assert named and not [n for n in named if not n.startswith("http") and DOCS / n not in files]


def test_no_documentation_names_a_path_outside_the_repository():
    found = [problem for page in [*_pages(), *READMES]
             for problem in path_problems(str(page.relative_to(ROOT)), page.read_text(),
                                          page.parent)]
    found += [problem for path, _, text in _notebook_texts()
              for problem in path_problems(path.name, text, path.parent)]
    assert not found, "\n".join(found)


def test_the_checks_catch_what_they_are_for(tmp_path: Path):
    """A missing page, a missing anchor, a link out of the site, a file: URL, an absolute link,
    and a mention of a path outside the repository are each reported."""
    docs = tmp_path / "docs"
    (docs / "games").mkdir(parents=True)
    (docs / "other.md").write_text("# Other\n\n## A section\n")
    page = docs / "games" / "page.md"
    page.write_text("# Page\n\n[ok](../other.md#a-section) [gone](../missing.md) "
                    "[anchor](../other.md#no-section) [out](../../README.md) "
                    "[file](file:///etc/passwd) [abs](/work/main/docs/x.md) "
                    "[web](https://example.org/x)\n")
    found = link_problems(page, render(page.read_text()), docs, {page, docs / "other.md"})
    assert len(found) == 5, found
    for word in ("missing.md", "#no-section", "leaves", "file:", "/work/main"):
        assert any(word in problem for problem in found), word
    mentions = "rules in `../shared/rules/x.md`, data in /home/me/data, python in /usr/bin"
    assert len(path_problems("page.md", mentions, ROOT)) == 2
    assert not path_problems("page.md", "`engines/<game>/styles/x.toml`, see ../docs/rules/",
                             ROOT / "engines")
