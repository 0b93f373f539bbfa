"""`simulate GAME` (one command per registered game), `simulate list` and `simulate bench`."""

import math
import secrets
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from analysis.cli.common import (
    checked_players,
    default_out_dir,
    fail,
    lineup,
    parse_rules,
    run_with_progress,
    stdout,
)
from analysis.cli.options import (
    Backend,
    GameName,
    Jobs,
    Levels,
    Lineup,
    Players,
    Quiet,
    Report,
    Resume,
    Rules,
    RunSeed,
    Scheduler,
    path_value,
)
from analysis.present.formats import seat_order
from analysis.present.summary import print_summary
from analysis.present.terminal import fit
from analysis.results import store
from analysis.run import tournament
from analysis.run.parallel import check_backend
from analysis.stats.verdicts import Verdict
from engines import GAMES, datasets, get_game
from engines import _build as engine_build
from engines.bots import bot_names, make_bot, split_specs
from engines.core import bonus_unit, rule_options, seat_levers
from engines.errors import BadInput

#: Games the game command plays when --games is not given.
DEFAULT_GAMES = 1000


def simulate_game(
    game_name: str, games: int | None, players: int | None, bots: str | None, seed: int | None,
    jobs: int, out: Path | None, resume: Path | None, rule: list[str], quiet: bool,
    chunk_size: int | None, backend: str, scheduler: str | None, report: Path | None = None,
) -> tournament.RunResult:
    """What `simulate GAME ...` does; returns the run result (for tests and wrappers).

    Every argument is checked before a process starts or a file is written; with `--resume`
    the run's recorded spec is used, and an option that would change it is refused."""
    from analysis.present.report import check_report_path

    check_backend(backend, scheduler)
    if resume is not None:
        manifest = store.read_manifest(resume)
        if manifest.get("game") != game_name:
            fail(f"{resume} is a {manifest.get('game')} run, not {game_name}")
        _check_resume_options(resume, manifest, games=games, players=players, seed=seed,
                              bots=bots, chunk_size=chunk_size, rule=rule)
        spec = tournament.spec_from_manifest(manifest).validated()
        if report is not None:
            check_report_path(report, "--report", html_only=True)
        run_dir, label, total = resume, f"{game_name} (resume)", spec.games

        def play(progress: Callable[[int], None]) -> tournament.RunResult:
            return tournament.resume(resume, jobs, progress, backend, scheduler)
    else:
        players = checked_players(get_game(game_name), players)
        bots_lineup = lineup(bots, players)
        if seed is None:
            seed = secrets.randbelow(2**31)
        spec = tournament.RunSpec(
            game=game_name, players=players, games=DEFAULT_GAMES if games is None else games,
            bots=bots_lineup, seed=seed, rules=parse_rules(rule),
            chunk_size=chunk_size or 0,
        ).validated()
        run_dir = out or default_out_dir(game_name, seed)
        tournament.check_out_dir(run_dir)
        if report is not None:
            check_report_path(report, "--report", made=run_dir, html_only=True)
        label, total = f"{game_name} {players}p", spec.games

        def play(progress: Callable[[int], None]) -> tournament.RunResult:
            return tournament.run(spec, run_dir, jobs, progress, backend, scheduler)
    where = shlex.quote(str(run_dir))
    return run_with_progress(label, total, quiet, play, saved_in=run_dir,
                             resume_with=f"simulate {game_name} --resume {where}")


def simulate_ladder(
    game_name: str, levels: str | None, games: int | None, players: int | None,
    seed: int | None, jobs: int, out: Path | None, rule: list[str], quiet: bool, backend: str,
    scheduler: str | None, report: Path | None = None,
):
    """What `simulate GAME --ladder ...` plays: every level a run with all seats that bot, on
    the same deals (`--games` at every level, else `simulate ladder`'s defaults); returns
    the `analysis.run.ladder.LadderResult`.  Everything is checked before a game is played;
    the same command with the same --seed and --out finishes an interrupted ladder."""
    from analysis.cli.seats import play_ladder
    from analysis.present.report import check_report_path
    from analysis.run import ladder

    game = get_game(game_name)
    players = game.players_default if players is None else players
    chosen = ladder.parse_levels(levels)
    spec = ladder.LadderSpec(
        game=game_name, players=players, levels=chosen,
        games=ladder.default_games(chosen) if games is None else (games,) * len(chosen),
        seed=secrets.randbelow(2**31) if seed is None else seed, rules=parse_rules(rule))
    spec.runs()  # every level, count and rule before the report path is looked at
    out = out or ladder.default_out(game_name, spec.seed)
    if report is not None:
        check_report_path(report, "--report", made=out, html_only=True)
    return play_ladder(spec, out, jobs, quiet, backend, scheduler)


def _refuse_with_ladder(bots: str | None, resume: Path | None, chunk_size: int | None) -> None:
    """The options a ladder decides for itself."""
    if bots is not None:
        fail("--ladder plays every seat with each level's bot in turn; drop --bots (pick the "
             "levels with --levels)")
    if resume is not None:
        fail("--ladder finishes an interrupted ladder when run again with the same --seed and "
             "--out; drop --resume")
    if chunk_size is not None:
        fail("--ladder chooses each level's chunk size; drop --chunk-size")


def _check_resume_options(resume: Path, manifest: dict, **given: object) -> None:
    """Refuse an option given with --resume that differs from the run being resumed."""
    recorded = {"games": manifest.get("games"), "players": manifest.get("players"),
                "seed": manifest.get("seed"), "chunk_size": manifest.get("chunk_size")}
    for key, value in given.items():
        option = "--" + key.replace("_", "-")
        if value is None or value == [] or (key in recorded and value == recorded[key]):
            continue
        if key == "chunk_size" and value == 0:  # 0 = choose for me: no change
            continue
        if key == "bots":
            players = int(manifest.get("players", 0))
            try:
                if lineup(str(value), players) == tuple(
                        manifest.get("bots", ())):
                    continue
            except BadInput:
                pass
            fail(f"--resume {resume} continues its recorded line-up "
                 f"{','.join(manifest.get('bots', []))}; --bots {value} differs (drop --bots, "
                 "or start a new run with another --out)")
        if key == "rule":
            fail(f"--resume {resume} continues the run with its recorded rules; drop --rule "
                 "(or start a new run with another --out)")
        fail(f"--resume {resume} continues the run recorded there ({option} "
             f"{recorded[key]}); {option} {value} differs (drop {option}, or start a new run "
             "with another --out)")


def _make_game_command(game_name: str) -> Callable[..., None]:
    # no `from __future__ import annotations` here: typer reads these annotations at run
    # time, and the --players help needs this closure's `game`
    game = GAMES[game_name]

    def command(
        games: Annotated[int | None, typer.Option(
            "--games", "-n", help=f"Games to play (default {DEFAULT_GAMES:,}; at most 10**15, "
                                  "any size starts at once).")] = None,
        players: Annotated[int | None, typer.Option(
            help=f"Players ({game.min_players}-{game.max_players}; "
                 f"default {game.players_default}).")] = None,
        bots: Lineup = None,
        seed: RunSeed = None,
        jobs: Jobs = -1,
        out: Annotated[Path | None, typer.Option(
            parser=path_value,
            help="Results directory (default results/GAME-TIME-sSEED).")] = None,
        resume: Resume = None,
        rule: Rules = None,
        quiet: Quiet = False,
        chunk_size: Annotated[int | None, typer.Option(
            help="Games per checkpoint (default: chosen from --games).")] = None,
        backend: Backend = "loky",
        scheduler: Scheduler = None,
        report: Report = None,
        reference: Annotated[str, typer.Option(
            help="Bot whose play (in every seat, same game, players, rules and data set; "
                 "played once and cached) defines which systems are offered: the summary "
                 "names what your bots never used that it reaches. 'none' skips the check (the "
                 "summary then says 'not checked').")]
        = "random",
        ladder: Annotated[bool, typer.Option(
            "--ladder", help="Skill ladder: play the same deals at several strengths, every "
                             "seat each level's bot (--games per level; default 2,000, and "
                             "400 for mcts and ismcts levels), then print the summary of the "
                             "strongest level with an 'under stronger play' column and a "
                             "trend line per seat. Rerun the same command (same --seed and "
                             "--out) to finish an interrupted ladder. Not with --bots, "
                             "--resume or --chunk-size.")] = False,
        levels: Levels = None,
    ) -> None:
        if levels is not None and not ladder:
            fail("--levels picks the levels of --ladder; add --ladder")
        if ladder:
            _refuse_with_ladder(bots, resume, chunk_size)
        if reference != "none":
            make_bot(reference, get_game(game_name))  # a bad spec fails before any game
        if ladder:
            _ladder_summary(simulate_ladder(
                game_name, levels, games, players, seed, jobs, out, rule or [], quiet,
                backend or "loky", scheduler, report), reference, quiet, report)
            return
        result = simulate_game(game_name, games, players, bots, seed, jobs, out, resume,
                               rule or [], quiet, chunk_size, backend or "loky", scheduler,
                               report)
        print_summary(stdout, result, quiet=quiet, skipped=_skipped(result, reference))
        if report is not None:
            from analysis.cli.reporting import write_report

            stdout.print(f"report: {write_report([result.run_dir], report)}")

    command.__doc__ = f"Simulate {game_name}: {game.description}"
    return command


def _skipped(result: tournament.RunResult, reference: str
             ) -> list[tuple[dict, Verdict]] | None:
    """The systems each bot of a run skipped against the reference bot's play (None: the
    check is off, `--reference none`).  It runs with -q too: -q quiets the output, it never
    drops a check."""
    if reference == "none":
        return None
    from analysis.run import reference as references

    return references.skipped_against_reference(result.frame, [result.manifest], reference)


def _ladder_summary(result, reference: str, quiet: bool, report: Path | None) -> None:
    """What `simulate GAME --ladder` prints (and reports): the ladder's edges and costs, then
    the summary of its strongest level, qualified by the ladder."""
    from analysis.present.ladder import print_ladder
    from analysis.stats import ladder

    skill = ladder.of_frame(result.frame, result.spec.levels)
    print_ladder(stdout, skill, result.cost, result.spec.seed)
    strongest = result.strongest
    print_summary(stdout, strongest, quiet=quiet, skipped=_skipped(strongest, reference),
                  skill=skill)
    stdout.print(f"ladder: {result.out_dir}/<level>  (rerun the same command to finish it)",
                 soft_wrap=True, highlight=False)
    if report is not None:
        from analysis.cli.reporting import write_report

        title = (f"Balance report: {result.spec.game} "
                 f"{ladder.at_strongest(skill.strongest)}")
        path = write_report([strongest.run_dir], report, title=title, ladders=[result])
        stdout.print(f"report: {path}")


def list_games() -> None:
    """Games with their player range, rule options, bots and component data set."""
    for name in sorted(GAMES):
        game = GAMES[name]
        stdout.print(
            f"[bold]{name}[/]  {game.min_players}-{game.max_players} players "
            f"(default {game.players_default}) — {game.description}", soft_wrap=True)
        stdout.print(f"  data set: {game.dataset(game.make_rules())}", soft_wrap=True)
        items = datasets.items_table(name)
        if items:  # data items are rule keys too
            stdout.print("  data items (--rule components.ITEM=VALUE; `simulate data "
                         f"{name} --items`): {', '.join(i['item'] for i in items)}",
                         soft_wrap=True, highlight=False)
        stdout.print(f"  bots: {', '.join(bot_names(game))}", soft_wrap=True)
        if game.heuristic_params:
            stdout.print("  heuristic parameters (heuristic:NAME=VALUE; `simulate tune "
                         f"{name} --vary NAME`):", soft_wrap=True, highlight=False)
            for p in game.heuristic_params:
                stdout.print(f"    {p.describe()}", soft_wrap=True, highlight=False,
                             markup=False)
        if game.action_kinds:
            stdout.print(f"  action kinds: {', '.join(game.action_kinds)}", soft_wrap=True,
                         highlight=False, markup=False)
        if game.elements:
            groups = ", ".join(dict.fromkeys(f"{e.group}s" for e in game.elements))
            stdout.print(f"  elements (`simulate elements {name}`): "
                         f"{', '.join(e.name for e in game.elements)} ({groups}; "
                         f"--elements {','.join(e.id for e in game.elements[:2])},...)",
                         soft_wrap=True, highlight=False, markup=False)
        if game.mcts_defaults:
            options = ",".join(f"{k}={v}" for k, v in game.mcts_defaults.items())
            stdout.print(f"  mcts defaults in this game: {options}", soft_wrap=True,
                         highlight=False)
        if game.mcts_evaluation is not None:
            evaluation = game.mcts_evaluation
            stdout.print("  mcts evaluation at a cut-off (rollout_depth; evaluation=scores "
                         f"turns it off): {evaluation.__module__}.{evaluation.__name__}",
                         soft_wrap=True, highlight=False)
        for preset, values in game.mcts_presets.items():
            options = ",".join(f"{k}={v}" for k, v in values.items())
            stdout.print(f"  mcts:{preset} in this game: {options}", soft_wrap=True,
                         highlight=False)
        stdout.print("  rule options (--rule KEY=VALUE):")
        for option in rule_options(game.Rules):
            choices = f" [{'|'.join(map(str, option['choices']))}]" if option["choices"] else ""
            stdout.print(f"    {option['name']}={option['default']}{choices}  {option['help']}",
                         soft_wrap=True, highlight=False, markup=False)
        order = seat_order(name, "", game.players_default)
        if game.starter.option:
            order += f"; --rule {game.starter.option}=... changes who starts"
        stdout.print(f"  seats (from 1), official rules: {order}", soft_wrap=True,
                     highlight=False, markup=False)
        levers = seat_levers(game.Rules)
        if levers:
            unit = bonus_unit(game.Rules)
            stdout.print(f"  seat levers (`simulate explain`): {', '.join(levers)}; "
                         f"compensation (`simulate compensate`): seat_bonus in {unit}",
                         soft_wrap=True, highlight=False, markup=False)
        stdout.print()


def bench(
    game_name: GameName,
    players: Players = None,
    bots: Annotated[str, typer.Option(help="Bot specs to time, each in every seat.")]
    = "random,heuristic",
    seconds: Annotated[float, typer.Option(help="Time budget per bot.")] = 5.0,
    seed: Annotated[int, typer.Option(help="First game seed.")] = 0,
    rule: Rules = None,
    against: Annotated[str | None, typer.Option(
        help="Time each bot in one seat only, this bot spec in the others (decisions/s then "
             "counts the timed bot's decisions over its own thinking time).")] = None,
) -> None:
    """Games/second and decisions/second on one core (this process), per bot."""
    from analysis.bench import bench_bot, interpreter, reference_microseconds

    game = get_game(game_name)
    players = checked_players(game, players)
    rules = parse_rules(rule or [])
    game.checked_rules(**rules)
    if not math.isfinite(seconds) or not 0 < seconds <= 3600:
        fail(f"--seconds must be a positive finite number of seconds per bot, at most 3600, "
             f"got {seconds}")
    if seed < 0:
        fail(f"--seed must be >= 0, got {seed}")
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
    stdout.print(fit(table))
    stdout.print(f"reference: sum(range(1000)) takes {reference_microseconds():.1f} µs on this "
                 f"core with {interpreter()} (about 9 µs on an idle core of the 2-core dev "
                 "machine with the README's /usr/bin/python3; higher = busier or slower)",
                 soft_wrap=True)
    stdout.print(f"engines: {engine_build.BUILD}", soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add one command per registered game, then list and bench."""
    for name in sorted(GAMES):
        app.command(name=name, help=GAMES[name].description or f"Simulate {name}.")(
            _make_game_command(name)
        )
    app.command("list")(list_games)
    app.command("bench")(bench)
