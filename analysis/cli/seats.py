"""Seat-edge commands of `simulate`: `explain` (why a seat wins: each seat lever's share of the
edge, paired by deal) and `compensate` (the smallest `seat_bonus` that balances the seats).
Registered on the main app by `analysis.cli.app`."""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path
from typing import Annotated

import typer

from analysis.cli.common import (
    checked_players,
    lineup,
    lineup_of,
    parse_rules,
    refuse_other_out,
    refuse_resume_changes,
    rerun_command,
    run_with_progress,
    stderr,
    stdout,
    write_atomically,
)
from analysis.cli.options import (
    Backend,
    BaseRules,
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
    Tolerance,
    path_value,
)
from analysis.run import tournament
from analysis.run.parallel import check_backend
from analysis.run.study import MAX_GAMES
from engines.errors import BadInput


def _say(line: str) -> None:
    stdout.print(line, soft_wrap=True, highlight=False, markup=False)


def explain_command(
    ctx: typer.Context,
    game_name: GameName,
    players: Players = None,
    bots: Lineup = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="Games per setting (the printed rules and each other choice of "
                              "each lever; default 500).")] = None,
    lever: Annotated[list[str] | None, typer.Option(
        "--lever", help="A seat lever to try (repeatable; default: every lever of the game, "
                        "see `simulate list`).")] = None,
    seed: RunSeed = None,
    jobs: Jobs = 1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Directory of the paired runs (default results/explain-GAME-sSEED).")] = None,
    resume: Resume = None,
    rule: BaseRules = None,
    report: Report = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Why a seat wins: each seat's edge, how much of it each seat lever removes (the same
    deals replayed under each lever), and where it comes from (scoring sources, decisions)."""
    from analysis.run import explain, sweep
    from engines import get_game

    if resume is not None:
        spec = explain.spec_of(sweep.read_spec(resume))
        if spec.game != game_name:
            raise BadInput(f"{resume} explains {spec.game}, not {game_name}")
        refuse_other_out(resume, out, "explanation")
        refuse_resume_changes(ctx, resume, "explanation", {
            "--games": (games, spec.games), "--players": (players, spec.players),
            "--seed": (seed, spec.seed), "--bots": (lineup_of(bots, spec.players), spec.bots),
            "--rule": (parse_rules(rule or []), spec.rules),
            "--lever": (tuple(lever or ()), spec.levers)})
        out = resume
    else:
        players = checked_players(get_game(game_name), players)
        spec = explain.ExplainSpec(
            game=game_name, players=players, games=500 if games is None else games,
            bots=lineup(bots, players),
            seed=secrets.randbelow(2**31) if seed is None else seed,
            rules=parse_rules(rule or []), levers=tuple(lever or ()))
        out = out or Path("results") / f"explain-{game_name}-s{spec.seed}"
    plan = explain.validated(spec)
    check_backend(backend, scheduler)
    tournament.check_out_dir(out)
    if report is not None:  # before any game: a report that cannot be written is bad input
        from analysis.present.report import check_report_path

        check_report_path(report, "--report", made=out, html_only=True)
    cells = len(plan.cells())
    hint = f"simulate explain {game_name} --resume {shlex.quote(str(out))}" + (
        f" --report {shlex.quote(str(report))}" if report is not None else "")
    frame = run_with_progress(f"{game_name} explain, {cells} settings", spec.games * cells,
                              quiet, lambda progress: explain.run_explain(
                                  spec, out, jobs, progress, backend, scheduler),
                              saved_in=out, resume_with=hint)
    result = explain.explain(plan, frame)
    for line in result.lines():
        _say(line)
    stderr.print(f"runs: {out}/<setting> (resume with --resume {out})", highlight=False,
                 soft_wrap=True)
    if report is not None:
        from analysis.present.report import page
        from analysis.present.whatif import explain_html

        write_atomically(report, page(f"Why a seat wins: {game_name}", explain_html(result)))
        _say(f"report: {report}")


def compensate_command(
    ctx: typer.Context,
    game_name: GameName,
    players: Players = None,
    bots: Lineup = None,
    budget: Annotated[int, typer.Option(help="Games to spend in all.")] = 5000,
    unit: Annotated[int, typer.Option(
        help="One step of bonus in the game's seat_bonus unit (points, honour, chips or "
             "cards: `simulate list`).")] = 1,
    steps: Annotated[int, typer.Option(help="Largest bonus, in steps of --unit.")] = 4,
    shape: Annotated[str, typer.Option(
        help="monotone: seat 1 gets 0 and each later seat at least the bonus of the seat "
             "before; any: every vector whose smallest bonus is 0.")] = "monotone",
    tolerance: Tolerance = 1.2,
    verify: Annotated[bool, typer.Option(
        help="Then play every candidate cheaper than the answer on the same deals, so "
             "'smallest' covers all of them, not only those the race kept.")] = True,
    replay: Annotated[int, typer.Option(
        "--replay", help="Then play the answer (the smallest balanced compensation, and the "
                         "least largest edge when it differs) on this many fresh deals "
                         "(another seed branch, stored in OUT/replay) and give each one's "
                         "balance verdict; 0 = don't.")] = 0,
    seed: RunSeed = None,
    jobs: Jobs = 1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Search directory (default results/compensate-GAME-sSEED).")] = None,
    resume: Resume = None,
    rule: BaseRules = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """The smallest seat_bonus compensation that balances the seats: a racing search over
    bonus vectors on shared deals, minimising the largest seat edge."""
    from analysis.run import compensate
    from engines import get_game

    if resume is not None:
        spec = compensate.read_spec(resume)
        if spec.game != game_name:
            raise BadInput(f"{resume} compensates {spec.game}, not {game_name}")
        refuse_other_out(resume, out, "compensation search")
        refuse_resume_changes(ctx, resume, "compensation search", {
            "--budget": (budget, spec.budget), "--players": (players, spec.players),
            "--seed": (seed, spec.seed), "--bots": (lineup_of(bots, spec.players), spec.bots),
            "--rule": (parse_rules(rule or []), spec.rules), "--unit": (unit, spec.unit),
            "--steps": (steps, spec.steps), "--shape": (shape, spec.shape),
            "--tolerance": (tolerance, spec.tolerance)})
        out = resume
    else:
        players = checked_players(get_game(game_name), players)
        spec = compensate.CompensateSpec(
            game=game_name, players=players, bots=lineup(bots, players),
            seed=secrets.randbelow(2**31) if seed is None else seed, budget=budget,
            rules=parse_rules(rule or []), unit=unit, steps=steps, shape=shape,
            tolerance=tolerance)
        out = out or Path("results") / f"compensate-{game_name}-s{spec.seed}"
    check_backend(backend, scheduler)
    tournament.check_out_dir(out)
    if not 0 <= replay <= MAX_GAMES:  # before the search, not after it
        raise BadInput(f"--replay must be 0..{MAX_GAMES:,} (10**15) games, got {replay:,}")
    compensate.validated(spec)
    hint = f"simulate compensate {game_name} --resume {shlex.quote(str(out))}" + (
        f" --replay {replay}" if replay else "") + ("" if verify else " --no-verify")
    result = run_with_progress(f"{game_name} compensate", spec.budget, quiet,
                               lambda progress: compensate.run_compensate(
                                   spec, out, jobs, progress, backend, scheduler),
                               saved_in=out, resume_with=hint)
    if verify and result.to_verify():
        found = result
        result = run_with_progress(f"{game_name} verify", found.games_to_verify(), quiet,
                                   lambda progress: compensate.verify(
                                       spec, found, out, jobs, progress, backend, scheduler),
                                   saved_in=out, resume_with=hint)
    for line in result.lines():
        _say(line)
    if replay:
        answers = len({result.smallest, result.candidates["bonus"].iloc[0]} - {None})
        for line in run_with_progress(f"{game_name} replay", replay * answers, quiet,
                                      lambda progress: compensate.replay(
                                          spec, result, out, replay, jobs, progress, backend,
                                          scheduler), saved_in=out, resume_with=hint):
            _say(line)
    stderr.print(f"runs: {out}/search/round-N/<candidate> (resume with --resume {out})",
                 highlight=False, soft_wrap=True)


def play_ladder(spec, out: Path, jobs: int, quiet: bool, backend: str | None,
                scheduler: str | None):
    """Check a ladder (`analysis.run.ladder.LadderSpec`) and its directory before any game,
    then play or finish it under one progress bar; returns its `LadderResult`."""
    from analysis.run import ladder as run_ladder

    planned = spec.runs()  # validates every level, count and rule before any game
    check_backend(backend or "loky", scheduler)
    run_ladder.check_out_dir(spec, out)
    return run_with_progress(
        f"{spec.game} {spec.players}p ladder", sum(r.games for _, r in planned), quiet,
        lambda progress: run_ladder.run_ladder(spec, out, jobs, progress, backend or "loky",
                                               scheduler),
        saved_in=out, resume_with=rerun_command(seed=spec.seed, out=out))


def ladder_command(
    game_name: GameName,
    players: Players = None,
    levels: Levels = None,
    games: Annotated[str | None, typer.Option(
        "--games", "-n", help="Games per level: one count for all, or one per level "
                              "(default 2,000, and 400 for mcts and ismcts levels).")] = None,
    seed: RunSeed = None,
    rule: Rules = None,
    jobs: Jobs = -1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Directory for the level runs (rerun with the same --out to resume; default "
             "results/ladder-GAME-sSEED).")] = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Skill ladder: the same deals at several strengths of play, and whether each seat's
    edge grows, shrinks, reverses or stays stable as the bots play better (a trend test per
    seat, adjusted with the output's other tests).  Prints what each level cost, so you can
    pick levels.  `simulate GAME --ladder` adds the full summary of the strongest level."""
    from analysis.present import designer
    from analysis.present.ladder import print_ladder, trend_lines
    from analysis.run import ladder as run_ladder
    from analysis.stats import findings, ladder
    from engines import get_game

    players = checked_players(get_game(game_name), players)
    chosen = run_ladder.parse_levels(levels)
    spec = run_ladder.LadderSpec(
        game=game_name, players=players, levels=chosen,
        games=run_ladder.parse_games(games, chosen),
        seed=secrets.randbelow(2**31) if seed is None else seed,
        rules=parse_rules(rule or []))
    out = out or run_ladder.default_out(game_name, spec.seed)
    result = play_ladder(spec, out, jobs, quiet, backend, scheduler)
    skill = ladder.of_frame(result.frame, chosen)
    print_ladder(stdout, skill, result.cost, spec.seed)
    strongest = result.strongest.frame
    tests = findings.family(strongest, extra=ladder.family_rows([skill]))
    skill = ladder.readjusted([skill], tests, "output")[0]
    summary = designer.summary_table(strongest, tests, stronger={
        skill.key: skill.stronger_play()}).drop(columns=["bots skipped"])  # no reference run
    stdout.print(designer.rich_table(summary, f"Designer summary under {chosen[-1]} play"))
    _say(findings.describe_correction(tests, "output"))
    for line in trend_lines(skill):
        _say(f"  {line}")
    stderr.print(f"results: {out}/<level>", highlight=False)


def register(app: typer.Typer) -> None:
    """Add explain, compensate and ladder to the `simulate` app."""
    app.command("explain")(explain_command)
    app.command("compensate")(compensate_command)
    app.command("ladder")(ladder_command)
