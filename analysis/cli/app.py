"""The `simulate` command: the typer app, its command modules and the entry point.

Every user mistake (unknown game, bot or rule, players out of range, unwritable output,
corrupt results) ends as one line `error: ...` on stderr with exit code 2, never a traceback.
Command modules (`games`, `replay`, `studies`, `tuning`, `whatif`) import only `common` and
`options` of this package; this module imports them and adds their commands to the app.
"""

import sys

import typer

from analysis.cli import games, replay, studies, tuning, whatif
from analysis.cli.common import USER_ERRORS, UserError, stderr
from engines import GAMES


class GameGroup(typer.core.TyperGroup):
    """Lists the known games when a sub-command is unknown."""

    def resolve_command(self, ctx: typer.Context, args: list[str]):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            known = ", ".join(sorted(GAMES))
            raise UserError(
                f"unknown game or command {name!r}; known games: {known}; "
                f"commands: {', '.join(sorted(set(self.commands) - set(GAMES)))}"
            )
        return super().resolve_command(ctx, args)


app = typer.Typer(
    cls=GameGroup, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Simulate tabletop games with bots and analyse balance.  `simulate list` shows games; "
         "`simulate sweep` and `simulate balance-search` ask what-if questions; "
         "`simulate tune` tunes a heuristic's parameters.",
)


games.register(app)  # one command per game, list, bench
replay.register(app)  # show, play
studies.register(app)  # compare, report, run
whatif.register(app)  # data, sweep, balance-search
tuning.register(app)  # tune


def main(argv: list[str] | None = None) -> int:
    """Entry point: turns every user error into `error: ...` and exit code 2."""
    command = typer.main.get_command(app)
    if not (sys.argv[1:] if argv is None else argv):
        argv = ["--help"]  # a bare `simulate` shows the help, not an error
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
    except USER_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return rv if isinstance(rv, int) else 0


def entry() -> None:
    sys.exit(main())

