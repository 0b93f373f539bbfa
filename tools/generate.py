"""Write every file derived from the registered games, each generator in the order that works.

    python -m tools.generate                 # rewrite whatever is stale
    python -m tools.generate --check         # write nothing; exit 1 naming the stale files
    python -m tools.generate --fingerprints  # also re-record tests/fingerprints.json
    python -m tools.generate --no-examples   # keep the example blocks as they are

A new game is its folder (`engines/README.md`) and one run of this command.  The steps:

1. `positions`: `engines/<package>/_position.py` from `position.py` (`tools.positions`);
   first, because the games import them;
2. `notebooks`: `notebooks/*.ipynb`, a balance notebook per game (`notebooks/make_notebooks.py`);
3. `pages`: a first `docs/games/<name>.md` for a game without one (its prose is then the
   designer's; its tables are cog blocks);
4. `cli`: `docs/cli.md` from the commands' help (`tools.cli_reference`);
5. `rules`: `docs/rules/*.md` from the project's rules notes beside the repository
   (`tools.rules_pages`), where they are at hand (elsewhere the committed pages stand);
   before the blocks, whose rule tables link to these pages' anchors;
6. `blocks`: the cog blocks of `README.md`, `mkdocs.yml` and `docs/` (`tools.examples`): the
   games table, the game index, the site navigation, each game page's tables, the notebook
   list and the example output blocks, whose commands play games (`--no-examples` keeps them);
7. `fingerprints`: `tests/fingerprints.json` (`tests.test_fingerprint`), only with
   `--fingerprints` since it plays every game; without it, a game, player count or line-up
   missing from the file (or left in it) is reported stale.

Every step derives its files from `engines.GAMES` (the games of the checkout: folders
registered by path, `TABLETOP_GAMES`, are left out) and the games' declarations
(`engines/<package>/game.toml`), never from another step's files on disk; where a step reads
a file an earlier one writes (the cog blocks of a new game page), it reads the earlier step's
text, so `--check` names what one run would write and one run leaves nothing stale.  The
compiled build needs no step: `engines/_build.py` reads each game's `compiled` list.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINGERPRINTS = "tests/fingerprints.json"
#: `engines._build.GAMES_ENV`, the game folders registered by path: the checkout's files
#: describe the checkout's games, so `main` leaves those folders out (named here, not
#: imported: importing `engines` would register them).
GAMES_ENV = "TABLETOP_GAMES"


@dataclass
class Tree:
    """The checkout as the steps see it: what the steps wrote so far, over `base` (texts
    taken as on disk, None for no file: the files of a first pass, for a second), over the
    files under `root`."""

    root: Path = ROOT
    base: dict[str, str | None] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    #: Files known to be stale that this run could not write, with the reason.
    unwritten: dict[str, str] = field(default_factory=dict)

    def read(self, path: str) -> str | None:
        """The text of `path` (relative to `root`) as the steps left it; None: no such file."""
        return self.written[path] if path in self.written else self.before(path)

    def before(self, path: str) -> str | None:
        """The text of `path` before the steps ran."""
        if path in self.base:
            return self.base[path]
        file = self.root / path
        return file.read_text() if file.is_file() else None

    def write(self, path: str, text: str) -> None:
        self.written[path] = text

    def stale(self) -> list[str]:
        """The files whose text the steps changed, and those they could not write."""
        changed = {path for path, text in self.written.items() if text != self.before(path)}
        return sorted(changed | set(self.unwritten))


@dataclass(frozen=True)
class Options:
    #: Re-record the fingerprints (plays every game, player count and line-up).
    fingerprints: bool = False
    #: Run the example blocks' commands (they play games); False keeps their output.
    examples: bool = True


@dataclass(frozen=True)
class Step:
    name: str
    run: Callable[[Tree, Options], None]


def _positions(tree: Tree, options: Options) -> None:
    from tools import positions

    for game in positions.games():
        path = positions.target(game).relative_to(ROOT).as_posix()
        tree.write(path, positions.render_module(game, positions.declaration(game)))


def _notebooks(tree: Tree, options: Options) -> None:
    import nbformat

    from tools import notebooks

    for name, nb in notebooks.generator().notebooks().items():
        text = nbformat.writes(nb)
        tree.write(f"notebooks/{name}", text if text.endswith("\n") else text + "\n")


def _pages(tree: Tree, options: Options) -> None:
    from engines import GAMES
    from tools import game_pages

    for name in sorted(GAMES):
        if tree.read(f"docs/games/{name}.md") is None:
            tree.write(f"docs/games/{name}.md", game_pages.page(name))


def _cli(tree: Tree, options: Options) -> None:
    from tools import cli_reference

    tree.write(cli_reference.TARGET.relative_to(ROOT).as_posix(), cli_reference.render())


def _rules(tree: Tree, options: Options) -> None:
    from tools import rules_pages

    if rules_pages.SOURCE.is_dir():
        for path, text in rules_pages.pages(rules_pages.SOURCE).items():
            tree.write(path.relative_to(ROOT).as_posix(), text)


def _blocks(tree: Tree, options: Options) -> None:
    from tools import examples

    new_pages = [p for p in tree.written if p.startswith("docs/") and p.endswith(".md")]
    for path in sorted({*examples.FILES, *new_pages}):
        text = tree.read(path)
        if text is not None and "[[[cog" in text:
            tree.write(path, examples.cogged(text, str(tree.root / path), options.examples))


def _fingerprints(tree: Tree, options: Options) -> None:
    from tests import test_fingerprint

    if options.fingerprints:
        tree.write(FINGERPRINTS, test_fingerprint.recorded())
        return
    stored = set(json.loads(tree.read(FINGERPRINTS) or "{}"))
    cases = {test_fingerprint.key(*case) for case in test_fingerprint.cases()}
    if stored != cases:
        odd = sorted(cases - stored) or sorted(stored - cases)
        what = "no fingerprint for" if cases - stored else "a fingerprint of nothing played:"
        more = f" (and {len(odd) - 1} more)" if len(odd) > 1 else ""
        tree.unwritten[FINGERPRINTS] = f"{what} {odd[0]}{more}"


#: The steps, in the order that works (see the module docstring).
STEPS = (Step("positions", _positions), Step("notebooks", _notebooks), Step("pages", _pages),
         Step("cli", _cli), Step("rules", _rules), Step("blocks", _blocks),
         Step("fingerprints", _fingerprints))


def run(options: Options | None = None, write: bool = False, tree: Tree | None = None) -> Tree:
    """Every step over `tree` (the checkout); with `write`, each step's changed files are
    written to disk before the next step starts (a later step may import or run them)."""
    options = options or Options()
    tree = tree or Tree()
    for step in STEPS:
        step.run(tree, options)
        if write:
            for path in tree.stale():
                if path in tree.written:
                    (tree.root / path).parent.mkdir(parents=True, exist_ok=True)
                    (tree.root / path).write_text(tree.written[path])
                    print(f"wrote {path} ({step.name})")
    return tree


def stale(fingerprints: bool = False, examples: bool = True) -> list[str]:
    """The generated files that differ from what the generators give now (nothing written).
    Cheap without `fingerprints` and `examples`: nothing is played."""
    return run(Options(fingerprints=fingerprints, examples=examples)).stale()


def _declaration_error(error: ValueError) -> bool:
    """A position declaration, a game file or a rules notes file the generators refuse (the
    designer's to fix), not a bug of ours.  `engines` is not imported for the question: a
    stale generated position module may be what keeps it from loading."""
    from tools.positions import DeclarationError
    from tools.rules_pages import NotesError

    game_files = sys.modules.get("engines.declarations")
    return isinstance(error, DeclarationError | NotesError) or (
        game_files is not None and isinstance(error, game_files.GameFileError))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.generate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming the stale files")
    parser.add_argument("--fingerprints", action="store_true",
                        help="also re-record tests/fingerprints.json (plays every game)")
    parser.add_argument("--no-examples", action="store_true",
                        help="keep the example output blocks (their commands play games)")
    args = parser.parse_args(argv)
    if os.environ.pop(GAMES_ENV, ""):  # before `engines` is imported, and for the examples
        print(f"note: leaving out the game folders of {GAMES_ENV}: the checkout's files "
              f"describe the checkout's games", file=sys.stderr)
    options = Options(fingerprints=args.fingerprints, examples=not args.no_examples)
    try:
        tree = run(options, write=not args.check)
    except ValueError as error:
        if not _declaration_error(error):
            raise
        print(f"error: {error}", file=sys.stderr)
        return 2
    left = tree.stale()
    for path in left:
        why = tree.unwritten.get(path)
        hint = (f"{why}; run python -m tools.generate --fingerprints" if why
                else "run python -m tools.generate")
        print(f"stale: {path} ({hint})", file=sys.stderr)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
