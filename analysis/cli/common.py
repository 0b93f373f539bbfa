"""What every `simulate` command module shares: the consoles, user errors, `--rule` parsing
and the progress bar.  Imports nothing else of `analysis.cli`, so the command modules can
all import it without a cycle."""

from __future__ import annotations

import os
import shlex
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from analysis.present import formats
from engines.errors import BadInput

stdout = Console()
stderr = Console(stderr=True)
COLOR_MODES = ("auto", "always", "never")


def set_color(mode: str) -> None:
    """`--color`: re-create both consoles in place (the command modules hold them by name)."""
    if mode not in COLOR_MODES:
        raise BadInput(f"--color must be one of {', '.join(COLOR_MODES)}, got {mode!r}")
    for console, to_stderr in ((stdout, False), (stderr, True)):
        if mode == "auto":
            console.__init__(stderr=to_stderr)  # type: ignore[misc]
        else:
            console.__init__(stderr=to_stderr, force_terminal=mode == "always",  # type: ignore[misc]
                             no_color=mode == "never",
                             color_system="standard" if mode == "always" else None)

#: A mistake in what the user typed; `main` prints it as one line and exits 2.  Everything
#: else that reaches `main` is a bug in the toolkit (exit 1).
UserError = BadInput


def fail(message: str) -> None:
    """One line on stderr, exit code 2."""
    raise BadInput(message)


def parse_rules(pairs: list[str]) -> dict[str, str]:
    rules = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(f"--rule expects KEY=VALUE, got {pair!r}")
        rules[key.strip()] = value.strip()
    return rules


def _progress_bar(quiet: bool) -> Progress:
    """Redrawn once a second: it moves once per finished chunk, and rich's default of 10
    redraws a second cost the parent ~3% of a core that the workers need."""
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TaskProgressColumn(), TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(), TimeRemainingColumn(),
        console=stderr, disable=quiet, transient=False, refresh_per_second=1,
    )


#: The arguments of the running `simulate` command (set by `main`), for resume hints.
invocation: list[str] = []


def rerun_command(**options: Any) -> str:
    """The running command as a shell line, with each `options` item (`out=...` is `--out`)
    set to its value: what to type to pick up an interrupted study where it stopped."""
    names = {"--" + key.replace("_", "-"): value for key, value in options.items()}
    kept: list[str] = []
    skip = False
    for arg in invocation:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in names:
            skip = "=" not in arg
            continue
        kept.append(arg)
    for name, value in names.items():
        kept += [name, str(value)]
    return "simulate " + shlex.join(kept)


def _option_text(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return str(value)


def checked_players(game: Any, players: int | None) -> int:
    """A --players value, or the game's default when it is not given (`--players 0` is
    refused, not read as "not given")."""
    players = game.players_default if players is None else players
    game.check_players(players)
    return players


def lineup(bots: str | None, players: int) -> tuple[str, ...]:
    """A --bots value as the line-up it plays, one spec per seat (heuristic when not given;
    an empty --bots is refused, not read as "not given")."""
    from analysis.run import tournament
    from engines.bots import split_specs

    return tournament.fill_lineup(split_specs("heuristic" if bots is None else bots), players)


def lineup_of(bots: str | None, players: int) -> tuple[str, ...] | None:
    """A --bots value as the recorded line-up it would play (None when not given), to compare
    with a study's recorded `bots`."""
    return None if bots is None else lineup(bots, players)


def given(ctx: typer.Context, option: str) -> bool:
    """Whether the user gave `option` (`--games`; a flag `--grid/--one-at-a-time` by either
    name): typed on the command line or set in its environment variable, even when equal to
    its default.  An option left out counts as not given, whatever its default."""
    names = set(option.split("/"))
    for param in ctx.command.params:
        if names & {*param.opts, *param.secondary_opts}:
            source = ctx.get_parameter_source(param.name or "")
            return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
    raise KeyError(f"{ctx.command.name} has no option {option}")


def refuse_other_out(resume: Path, out: Path | None, what: str) -> None:
    """A run given `--resume` finishes in its own directory: refuse a different `--out`."""
    if out is not None and out != resume:
        raise BadInput(f"--resume {resume} finishes the {what} in place; drop --out {out}")


def refuse_resume_changes(ctx: typer.Context, resume: Path, what: str,
                          options: dict[str, tuple[Any, Any]]) -> None:
    """Refuse an option given with --resume (`given`) that differs from the study recorded
    there, before any work: `options` maps each option (`--games`) to (the value given; the
    recorded value), both in the same form.  Options not given are never refused."""
    for option, (value, recorded) in options.items():
        if not given(ctx, option) or value == recorded:
            continue
        text = _option_text(recorded)
        fail(f"--resume {resume} continues the {what} recorded there "
             f"({f'{option} {text}' if text else f'no {option}'}); {option} "
             f"{_option_text(value)} differs (drop {option}, or start a new {what} with "
             "another --out)")


def run_with_progress(
    description: str, total: int, quiet: bool, start: Callable[[Callable[[int], None]], Any],
    saved_in: Path | None = None, resume_with: str = "",
) -> Any:
    """Run `start(progress_callback)` under a rich progress bar counting games.

    Ctrl-C ends the command with exit code 130 and one line: where the finished chunks are
    (`saved_in`) and the command that finishes the work (`resume_with`)."""
    try:
        return _run_with_progress(description, total, quiet, start)
    except KeyboardInterrupt:
        where = f"finished chunks are saved in {saved_in}; " if saved_in is not None else ""
        stderr.print(f"interrupted: {where}finish with: {resume_with or rerun_command()}",
                     soft_wrap=True, highlight=False, markup=False)
        raise typer.Exit(130) from None


def _run_with_progress(
    description: str, total: int, quiet: bool, start: Callable[[Callable[[int], None]], Any]
) -> Any:
    with _progress_bar(quiet) as bar:
        task = bar.add_task(description, total=total, rate="")
        began = time.perf_counter()
        counted = 0

        def advance(games: int) -> None:
            nonlocal counted
            counted += games
            rate = counted / max(time.perf_counter() - began, 1e-9)
            bar.update(task, advance=games, rate=f"{formats.rate(rate)} games/s")

        return start(advance)


def default_out_dir(game: str, seed: int) -> Path:
    return Path("results") / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}-s{seed}"


def check_new_file(path: Path, force: bool, option: str = "--out") -> None:
    """Refuse to overwrite an existing file unless `force` (before any work starts)."""
    if path.is_file() and not force:
        raise BadInput(f"{option} {path} exists; add --force to overwrite it")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` all at once (nothing half-written on failure)."""
    if path.exists() and path.is_dir():
        raise BadInput(f"--out {path} is a directory")
    if not path.parent.exists():
        raise BadInput(f"cannot write {path}: directory {path.parent} does not exist")
    try:
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temp, path)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
