"""The `simulate` command: the typer app, its command modules and the entry point.

Every user mistake (unknown game, bot or rule, players out of range, unwritable output,
corrupt results) raises `BadInput` and ends as one line `error: ...` on stderr with exit
code 2, never a traceback.  An `OSError` (disk full, permission denied) is one `error:` line
with exit code 1.  Any other exception is a bug in the toolkit: one line saying so and where
its traceback was written, exit code 1.
Command modules (`elements`, `games`, `landscape`, `newgame`, `replay`, `seats`, `studies`,
`tuning`, `whatif`) import only `common` and `options` of this package; this module imports
them and adds their commands to the app.
"""

import os
import sys
import tempfile
import time
import traceback
from typing import Annotated

import typer

from analysis.cli import (
    common,
    elements,
    games,
    landscape,
    newgame,
    replay,
    seats,
    structured,
    studies,
    tuning,
    whatif,
)
from analysis.cli.common import stderr
from engines import GAMES
from engines.errors import BadInput


class GameGroup(typer.core.TyperGroup):
    """Lists the known games when a sub-command is unknown."""

    def resolve_command(self, ctx: typer.Context, args: list[str]):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            known = ", ".join(sorted(GAMES))
            raise BadInput(
                f"unknown game or command {name!r}; known games: {known}; "
                f"commands: {', '.join(sorted(set(self.commands) - set(GAMES)))}"
            )
        return super().resolve_command(ctx, args)


app = typer.Typer(
    cls=GameGroup, add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
    rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]},
    help="Simulate tabletop games with bots and analyse balance.  `simulate list` shows games; "
         "`simulate sweep` and `simulate balance-search` ask what-if questions; "
         "`simulate tune` tunes a heuristic's parameters.",
)


def version_line() -> str:
    """'tabletop-sim 0.1.0 · engines: compiled (...)': what `--version` prints, the same
    package version and engine build every manifest records."""
    from analysis.run.tournament import package_version
    from engines import _build

    return f"tabletop-sim {package_version()} · engines: {_build.BUILD}"


def _print_version(value: bool) -> None:
    if value:
        print(version_line())
        raise typer.Exit()


@app.callback()
def _global_options(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and the engine build (compiled or pure Python), then exit.")
    ] = False,
    color: Annotated[str, typer.Option(
        "--color", help="Colour in terminal output: auto (when the output is a terminal and "
                        "NO_COLOR is not set), always, never.")] = "auto",
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print the command's summary as one JSON document (its sentences and "
                       "tables) instead of text; accepted anywhere on the command line.")
    ] = False,
    csv_output: Annotated[bool, typer.Option(
        "--csv", help="Print the command's tables as CSV (each under a '# title' line when "
                      "there are several); accepted anywhere on the command line.")] = False,
) -> None:
    common.set_color(color)


games.register(app)  # one command per game, list, bench
replay.register(app)  # show, play
studies.register(app)  # compare, report, run
whatif.register(app)  # data, sweep, balance-search
tuning.register(app)  # tune
seats.register(app)  # explain, compensate
landscape.register(app)  # landscape
elements.register(app)  # elements
newgame.register(app)  # new-game


def internal_error(exc: BaseException) -> int:
    """Report a bug in the toolkit: one line naming it and the file holding its traceback."""
    text = "".join(traceback.format_exception(exc))
    name = f"simulate-traceback-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    path = os.path.join(tempfile.gettempdir(), name)
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(f"simulate {' '.join(sys.argv[1:])}\n{text}")
        where = f"traceback written to {path}"
    except OSError:
        print(text, file=sys.stderr, end="")
        where = "traceback above"
    summary = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    print(f"internal error (a bug in tabletop-sim, not a mistake in your input): {summary}; "
          f"{where}; please report it", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    """Entry point: `--json` / `--csv` anywhere capture the command's output
    (`structured`); the command itself runs in `_run`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        mode, argv = structured.split_flags(argv)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if mode is None:
        return _run(argv)
    capture = structured.Capture()
    common.stdout.print = capture.print  # type: ignore[method-assign]
    try:
        code = _run(argv)
    finally:
        del common.stdout.print
    if code == 0:
        print(capture.render(mode, argv, code))
    return code


def _run(argv: list[str]) -> int:
    """One command: `BadInput` becomes `error: ...` and exit code 2, any other exception an
    internal error (exit code 1)."""
    command = typer.main.get_command(app)
    if not argv:
        argv = ["--help"]  # a bare `simulate` shows the help, not an error
    common.invocation[:] = argv
    try:
        rv = command.main(args=argv, prog_name="simulate", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        stderr.print("aborted")
        return 130
    except typer.TyperException as exc:  # typer's own parse errors (bad option values ...)
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        print(f"error: {' '.join(message.split())}", file=sys.stderr)
        return 2
    except BadInput as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OSError as exc:  # the system refused (disk full, permissions): no bug, no typo
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    except Exception as exc:  # anything else is a bug, not the user's mistake
        return internal_error(exc)
    return rv if isinstance(rv, int) else 0


def entry() -> None:
    sys.exit(main())

