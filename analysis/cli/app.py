"""The `simulate` command: one sub-command per registered game, plus list and bench.

Every user mistake (unknown game, bot or rule, players out of range, unwritable output,
corrupt results) ends as one line `error: ...` on stderr with exit code 2, never a traceback.
"""


import importlib
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

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
from rich.table import Table

from analysis.present.summary import print_summary
from analysis.results import store
from analysis.results.store import RunError
from analysis.run import tournament
from engines import GAMES, datasets, get_game
from engines.bots import BotSpecError, bot_names, make_bot, split_specs
from engines.core import rule_options

USER_ERRORS = (ValueError, KeyError, RunError, BotSpecError, OSError)

stdout = Console()
stderr = Console(stderr=True)


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
         "`simulate sweep` and `simulate balance-search` ask what-if questions.",
)


class UserError(ValueError):
    """A mistake in what the user typed; `main` prints it as one line and exits 2."""


def fail(message: str) -> None:
    """One line on stderr, exit code 2."""
    raise UserError(message)


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


def run_with_progress(
    description: str, total: int, quiet: bool, start: Callable[[Callable[[int], None]], Any]
) -> Any:
    """Run `start(progress_callback)` under a rich progress bar counting games."""
    with _progress_bar(quiet) as bar:
        task = bar.add_task(description, total=total, rate="")
        began = time.perf_counter()
        counted = 0

        def advance(games: int) -> None:
            nonlocal counted
            counted += games
            rate = counted / max(time.perf_counter() - began, 1e-9)
            bar.update(task, advance=games, rate=f"{rate:,.0f} games/s")

        return start(advance)


def default_out_dir(game: str, seed: int) -> Path:
    return Path("results") / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}-s{seed}"


def simulate_game(
    game_name: str, games: int, players: int | None, bots: str, seed: int | None, jobs: int,
    out: Path | None, resume: Path | None, rule: list[str], quiet: bool, chunk_size: int,
    backend: str, scheduler: str | None,
) -> tournament.RunResult:
    """What `simulate GAME ...` does; returns the run result (for tests and wrappers)."""
    if resume is not None:
        manifest = store.read_manifest(resume)
        if manifest.get("game") != game_name:
            fail(f"{resume} is a {manifest.get('game')} run, not {game_name}")
        run_dir, label, total = resume, f"{game_name} (resume)", int(manifest["games"])

        def play(progress: Callable[[int], None]) -> tournament.RunResult:
            return tournament.resume(resume, jobs, progress, backend, scheduler)
    else:
        game = get_game(game_name)
        players = players or game.players_default
        game.check_players(players)
        lineup = tournament.fill_lineup(split_specs(bots), players)
        if seed is None:
            seed = secrets.randbelow(2**31)
        spec = tournament.RunSpec(
            game=game_name, players=players, games=games, bots=lineup, seed=seed,
            rules=parse_rules(rule), chunk_size=chunk_size,
        ).validated()
        run_dir = out or default_out_dir(game_name, seed)
        label, total = f"{game_name} {players}p", games

        def play(progress: Callable[[int], None]) -> tournament.RunResult:
            return tournament.run(spec, run_dir, jobs, progress, backend, scheduler)
    try:
        return run_with_progress(label, total, quiet, play)
    except KeyboardInterrupt:
        stderr.print(
            f"interrupted: finished chunks are saved in {run_dir}; "
            f"finish with: simulate {game_name} --resume {run_dir}"
        )
        raise typer.Exit(130) from None


def _make_game_command(game_name: str) -> Callable[..., None]:
    game = GAMES[game_name]

    def command(
        games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 1000,
        players: Annotated[int | None, typer.Option(
            help=f"Players ({game.min_players}-{game.max_players}; "
                 f"default {game.players_default}).")] = None,
        bots: Annotated[str, typer.Option(
            help="Comma-separated bot specs, one per seat; the last fills the remaining seats "
                 "(e.g. heuristic,random or mcts:iterations=200,heuristic).")] = "heuristic",
        seed: Annotated[int | None, typer.Option(help="Run seed (default: random, recorded).")]
        = None,
        jobs: Annotated[int, typer.Option(help="Worker processes (-1 = all cores).")] = -1,
        out: Annotated[Path | None, typer.Option(
            help="Results directory (default results/GAME-TIME-sSEED).")] = None,
        resume: Annotated[Path | None, typer.Option(
            help="Finish an interrupted run in this directory (its recorded spec is used).")]
        = None,
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", help="Variant option KEY=VALUE (repeatable); see `simulate list`.")]
        = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
        chunk_size: Annotated[int, typer.Option(help="Games per checkpoint (0 = auto).")] = 0,
        backend: Annotated[str, typer.Option(help="loky (local processes) or dask.")] = "loky",
        scheduler: Annotated[str | None, typer.Option(
            help="Dask scheduler address tcp://HOST:PORT (with --backend dask).")] = None,
        report: Annotated[Path | None, typer.Option(
            help="Write an HTML balance report of the run to this file.")] = None,
    ) -> None:
        result = simulate_game(game_name, games, players, bots, seed, jobs, out, resume,
                               rule or [], quiet, chunk_size, backend, scheduler)
        print_summary(stdout, result, quiet=quiet)
        if report is not None:
            from analysis.present.report import write_report

            stdout.print(f"report: {write_report([result.run_dir], report)}")

    command.__doc__ = f"Simulate {game_name}: {game.description}"
    return command


for _name in sorted(GAMES):
    app.command(name=_name, help=GAMES[_name].description or f"Simulate {_name}.")(
        _make_game_command(_name)
    )


@app.command("list")
def list_games() -> None:
    """Games with their player range, rule options, bots and component data set."""
    for name in sorted(GAMES):
        game = GAMES[name]
        stdout.print(
            f"[bold]{name}[/]  {game.min_players}-{game.max_players} players "
            f"(default {game.players_default}) — {game.description}", soft_wrap=True)
        stdout.print(f"  data set: {game.dataset(game.make_rules())}", soft_wrap=True)
        items = datasets.items_table(name)
        if items:  # issue 18: data items are rule keys too
            stdout.print("  data items (--rule components.ITEM=VALUE; `simulate data "
                         f"{name} --items`): {', '.join(i['item'] for i in items)}",
                         soft_wrap=True, highlight=False)
        stdout.print(f"  bots: {', '.join(bot_names(game))}", soft_wrap=True)
        if game.action_kinds:
            stdout.print(f"  action kinds: {', '.join(game.action_kinds)}", soft_wrap=True,
                         highlight=False, markup=False)
        if game.mcts_defaults:
            options = ",".join(f"{k}={v}" for k, v in game.mcts_defaults.items())
            stdout.print(f"  mcts defaults in this game: {options}", soft_wrap=True,
                         highlight=False)
        stdout.print("  rule options (--rule KEY=VALUE):")
        for option in rule_options(game.Rules):
            choices = f" [{'|'.join(map(str, option['choices']))}]" if option["choices"] else ""
            stdout.print(f"    {option['name']}={option['default']}{choices}  {option['help']}",
                         soft_wrap=True, highlight=False, markup=False)
        stdout.print()


@app.command()
def bench(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game to benchmark.")],
    players: Annotated[int | None, typer.Option(help="Players (default: the game's default).")]
    = None,
    bots: Annotated[str, typer.Option(help="Bot specs to time, each in every seat.")]
    = "random,heuristic",
    seconds: Annotated[float, typer.Option(help="Time budget per bot.")] = 5.0,
    seed: Annotated[int, typer.Option(help="First game seed.")] = 0,
    rule: Annotated[list[str] | None, typer.Option("--rule", help="KEY=VALUE.")] = None,
    against: Annotated[str | None, typer.Option(
        help="Time each bot in one seat only, this bot spec in the others (decisions/s then "
             "counts the timed bot's decisions over its own thinking time).")] = None,
) -> None:
    """Games/second and decisions/second on one core (this process), per bot."""
    from analysis.bench import bench_bot, interpreter, reference_microseconds

    game = get_game(game_name)
    players = players or game.players_default
    game.check_players(players)
    rules = parse_rules(rule or [])
    game.checked_rules(**rules)
    if seconds <= 0:
        fail("--seconds must be positive")
    table = Table(title=f"{game_name} · {players} players · one core")
    for column in ("bot", "games", "seconds", "games/s", "decisions/s", "extra"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    if against is not None:
        make_bot(against, game)  # a bad spec fails before any timing
        table.title += f" · one seat each, against {against}"
    for spec in split_specs(bots):
        figures = bench_bot(game, spec, players, seconds, seed, rules, against)
        table.add_row(
            spec, f"{figures['games']:,}", f"{figures['seconds']:.2f}",
            f"{figures['games_per_s']:,.1f}", f"{figures['decisions_per_s']:,.0f}",
            figures.get("extra", ""),
        )
    stdout.print(table)
    stdout.print(f"reference: sum(range(1000)) takes {reference_microseconds():.1f} µs on this "
                 f"core with {interpreter()} (about 9 µs on an idle core of the 2-core dev "
                 "machine with the README's /usr/bin/python3; higher = busier or slower)",
                 soft_wrap=True)


@app.command()
def show(
    path: Annotated[Path, typer.Argument(
        metavar="RUN_DIR|FILE", help="A run directory, or a transcript file of `simulate play`.")],
    game: Annotated[int | None, typer.Option(
        "--game", help="Game index in the run (the game_index column, from 0).")] = None,
    pick: Annotated[str | None, typer.Option(
        help="Choose the game instead: largest-margin, closest, shared-win, longest, "
             "shortest or seat-K-wins (K from 1).")] = None,
    seat: Annotated[int | None, typer.Option(
        help="Show only what seat K (from 1) could see (default: everything).")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", help="Also write a self-contained HTML page with the full view after "
                       "each decision, folded by round.")] = None,
) -> None:
    """Replay one game of a run (or a played game) round by round, in words."""
    from analysis.present import transcript

    if html is not None:
        transcript.check_html_path(html)
    source = transcript.open_source(path, game, pick)
    if seat is not None and not 1 <= seat <= source.players:
        fail(f"--seat must be 1-{source.players}, got {seat}")
    print(transcript.to_text(source, None if seat is None else seat - 1))
    if html is not None:
        stdout.print(f"html: {transcript.write_html(source, html)}", soft_wrap=True)


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game to play.")],
    seat: Annotated[int, typer.Option(help="Your seat (1 moves first).")] = 1,
    bots: Annotated[str, typer.Option(
        help="Bot specs for the other seats in order; the last fills the rest.")]
    = "heuristic",
    players: Annotated[int | None, typer.Option(help="Players (default: the game's default).")]
    = None,
    rule: Annotated[list[str] | None, typer.Option("--rule", help="KEY=VALUE (repeatable).")]
    = None,
    seed: Annotated[int | None, typer.Option(help="Game seed (default: random, printed).")]
    = None,
    out: Annotated[Path | None, typer.Option(
        help="Transcript file (default results/play-GAME-TIME-sSEED.json).")] = None,
    pause: Annotated[float, typer.Option(help="Seconds to pause before each bot move.")]
    = 0.5,
    step: Annotated[bool, typer.Option(
        "--step", help="Wait for Enter before each bot move instead of pausing.")] = False,
) -> None:
    """Play one seat against the bots in the terminal; the game is saved as a transcript."""
    from analysis.present.play import play as play_game_by_hand

    play_game_by_hand(game_name, seat - 1, split_specs(bots), players, parse_rules(rule or []),
                      seed, out, pause, step)


importlib.import_module("analysis.cli.studies").register(app)  # compare, report, run
importlib.import_module("analysis.cli.whatif").register(app)  # data, sweep, balance-search


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


if __name__ == "__main__":
    entry()
