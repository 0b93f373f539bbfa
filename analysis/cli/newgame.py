"""`simulate new-game`: a new game's folder, playable and tested from the first minute."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from analysis.cli.common import stdout
from analysis.cli.options import path_value


def new_game(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(
        help="The game's name: lower-case words joined by hyphens (card-race).")],
    path: Annotated[Path | None, typer.Option(
        "--path", parser=path_value,
        help="Write the game's folder into this directory instead of engines/; it then "
             "registers by path: add the folder to the TABLETOP_GAMES environment variable.")]
    = None,
) -> None:
    """Write a new game's folder from the game kit's template: its rules, bot, game file, and
    a rules-test and a property-test stub that fail until written (docs/tutorial.md)."""
    import engines
    from engines import _build
    from engines.gamekit import scaffold

    parent = path if path is not None else Path(engines.__file__).resolve().parent
    commands = set(ctx.find_root().command.commands)  # type: ignore[attr-defined]
    folder = scaffold.check(name, parent, set(engines.GAMES) | commands)
    files = scaffold.write(name, folder)
    stdout.print(f"wrote {folder}: {', '.join(str(f.relative_to(folder)) for f in files)}",
                 soft_wrap=True, highlight=False)
    tests = folder / "tests"
    if path is None:
        steps = [f"write the rules in {folder / 'state.py'} and their tests in {tests}",
                 "python -m tools.generate --fingerprints   (the README, docs, notebooks and "
                 "fingerprints then name the game)",
                 f"python -m pytest {tests} tests/test_contract.py -k {name}"]
    else:
        steps = [f"register it: export {_build.GAMES_ENV}={folder}   (several folders: "
                 f"separated by {os.pathsep!r})",
                 f"write the rules in {folder / 'state.py'} and their tests in {tests}",
                 f"simulate {name} --games 200   and   python -m pytest {tests}"]
    stdout.print("next:\n" + "\n".join(f"  {i}. {step}" for i, step in enumerate(steps, 1)),
                 soft_wrap=True, highlight=False)


def register(app: typer.Typer) -> None:
    """Add new-game."""
    app.command("new-game")(new_game)
