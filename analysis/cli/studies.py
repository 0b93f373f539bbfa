"""Analysis commands of `simulate`: compare (duplicate format), report, run (experiment files).

`register(app)` adds them to the main typer app; user errors raise `BadInput`,
which `analysis.cli.app.main` prints as one `error: ...` line with exit 2.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from rich.table import Table

from analysis.cli.common import (
    checked_players,
    parse_rules,
    rerun_command,
    run_with_progress,
    stderr,
    stdout,
)
from analysis.cli.options import (
    Backend,
    Bootstrap,
    Confirm,
    ConfirmGames,
    GameName,
    Jobs,
    Players,
    Quiet,
    Report,
    Rules,
    RunSeed,
    Scheduler,
    jobs_value,
    path_value,
)
from analysis.present.formats import percent
from analysis.present.terminal import fit
from analysis.run import tournament
from analysis.run.study import check_bootstrap
from engines.errors import BadInput


def _print_frame(title: str, frame: pd.DataFrame, shares: set[str] = frozenset(),
                 words: bool = True) -> None:
    """A frame as a rich table; the `shares` columns written as percentages.  `words`: each
    header in words (`half_width_rotation` -> `half width rotation`, which wraps between
    words); False keeps them as they are (bot specs)."""
    table = Table(title=title)
    for column in frame.columns:
        table.add_column(str(column).replace("_", " ") if words else str(column),
                         justify="left" if column in ("bot", "") else "right")
    for row in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, row):
            if column in shares:
                cells.append(percent(value))
            elif isinstance(value, float):
                cells.append(f"{value:.2f}")
            else:
                cells.append(str(value))
        table.add_row(*cells)
    stdout.print(fit(table))


def compare_command(
    game_name: GameName,
    bots: Annotated[str, typer.Option(
        help="Comma-separated bot specs to compare (at least two different ones).")]
    = "heuristic,random",
    players: Players = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games in all; rounded up to whole deals x seat permutations.")]
    = 1000,
    seed: RunSeed = None,
    fill: Annotated[str, typer.Option(
        help="Fewer bots than players: 'last' repeats the last bot (as the runner does: "
             "A,B -> A,B,B,B), 'alternate' cycles (A,B,A,B).")] = "last",
    rule: Rules = None,
    jobs: Jobs = -1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Directory for the permutation runs (default results/compare-GAME-TIME).")]
    = None,
    vs_rotation: Annotated[bool, typer.Option(
        "--vs-rotation", help="Also play plain seat rotation with as many games and print "
                              "how much the duplicate format narrows the interval.")] = False,
    report: Report = None,
    bootstrap: Bootstrap = 200,
    quiet: Quiet = False,
    backend: Backend = None,
    scheduler: Scheduler = None,
) -> None:
    """Compare bots in duplicate format: each deal is replayed once per seat permutation."""
    from analysis.present.report import check_report_path
    from analysis.run import compare
    from analysis.run.parallel import check_backend
    from analysis.stats import balance
    from engines import get_game
    from engines.bots import split_specs

    players = checked_players(get_game(game_name), players)
    if games <= 0:
        raise BadInput(f"--games must be positive, got {games}")
    check_bootstrap(bootstrap)
    seed = secrets.randbelow(2**31) if seed is None else seed
    if seed < 0:
        raise BadInput(f"--seed must be >= 0, got {seed}")
    spec = compare.CompareSpec(game=game_name, players=players, games=games,
                               bots=tuple(split_specs(bots)), seed=seed,
                               rules=parse_rules(rule or []), fill=fill)
    spec.run_specs()  # validate everything before playing
    check_backend(backend or "loky", scheduler)
    out = out or Path("results") / f"compare-{game_name}-{time.strftime('%Y%m%d-%H%M%S')}"
    if report is not None:
        check_report_path(report, "--report", made=out, html_only=True)
    tournament.check_out_dir(out)
    compare.check_out_dir(out)
    total = spec.deals * len(spec.seatings)
    hint = rerun_command(seed=seed, out=out)
    result = run_with_progress(
        f"{game_name} {players}p duplicate", total, quiet,
        lambda cb: compare.run_duplicate(spec, out, jobs, cb, backend or "loky", scheduler),
        saved_in=out, resume_with=hint)
    frame = result.frame
    stdout.print(
        f"[bold]{game_name}[/] · {players} players · line-up {', '.join(spec.lineup)} · "
        f"{spec.deals:,} deals x {len(spec.seatings)} seatings = {total:,} games · seed {seed}")
    _print_frame("Win share by bot (95% interval clustered by deal)",
                 balance.clustered_win_share(frame)[
                     ["bot", "games", "clusters", "win_share", "ci_low", "ci_high"]],
                 {"win_share", "ci_low", "ci_high"})
    _print_frame("Plackett-Luce ratings (openskill; 95% bootstrap interval on mu)",
                 balance.ratings(frame, bootstrap=bootstrap)[
                     ["place", "bot", "mu", "sigma", "ordinal", "mu_low", "mu_high"]])
    matrix = balance.pairwise_matrix(frame)
    _print_frame("Pairwise: share of meetings the row bot finishes ahead of the column bot",
                 matrix.reset_index().rename(columns={"bot": ""}), set(matrix.columns),
                 words=False)
    if vs_rotation:
        rot_dir = out / "rotation"
        rotation = run_with_progress(
            f"{game_name} {players}p rotation", total, quiet,
            lambda cb: compare.run_rotation(spec, rot_dir, jobs, cb, backend or "loky",
                                            scheduler), saved_in=out, resume_with=hint)
        table = compare.narrowing(frame, rotation)
        _print_frame("Interval half width: duplicate vs plain rotation (same games)",
                     table[["bot", "share_duplicate", "half_width_duplicate", "share_rotation",
                            "half_width_rotation", "ratio", "rotation_games_equivalent"]],
                     {"share_duplicate", "half_width_duplicate", "share_rotation",
                      "half_width_rotation"})
    from analysis.present.summary import print_findings
    from analysis.stats import findings

    print_findings(stdout, findings.family(frame), out)
    if report is not None:
        from analysis.cli.reporting import write_report

        write_report(result.run_dirs, report, title=f"Bot comparison: {game_name}")
        stdout.print(f"report: {report}")
    stdout.print(f"results: {out}  (simulate report {out} --out report.html)")


def _say(line: str) -> None:
    stdout.print(line, soft_wrap=True, highlight=False, markup=False)


def _announce(message: str) -> None:
    stderr.print(message, soft_wrap=True, highlight=False)


def report_command(
    run_dirs: Annotated[list[Path], typer.Argument(parser=path_value,
        metavar="RUN_DIR...", help="Run directories, or directories holding runs.")],
    out: Annotated[Path, typer.Option(parser=path_value,
        help="HTML file to write.")] = Path("report.html"),
    title: Annotated[str, typer.Option(help="Report title.")] = "",
    bootstrap: Bootstrap = 100,
    confirm: Confirm = True,
    confirm_games: ConfirmGames = None,
    jobs: Annotated[int, typer.Option(
        parser=jobs_value, help="Worker processes for confirmation games (-1 = one per "
                                "core).")] = -1,
    allow_incomplete: Annotated[bool, typer.Option(
        "--allow-incomplete",
        help="Report the games on disk of a run with missing or damaged parts (with a "
             "warning) instead of refusing it.")] = False,
) -> None:
    """Write one self-contained HTML report (charts, tables, manifests) for the runs."""
    from analysis.cli.reporting import write_report

    check_bootstrap(bootstrap)
    from analysis.present.summary import print_robustness

    path = write_report(run_dirs, out, title=title, bootstrap=bootstrap, confirm=confirm,
                        confirm_games=confirm_games, jobs=jobs, announce=_announce,
                        allow_incomplete=allow_incomplete,
                        on_robustness=lambda checks: print_robustness(stdout, checks))
    stdout.print(f"report: {path}")


def run_command(
    spec_file: Annotated[Path, typer.Argument(parser=path_value, metavar="EXPERIMENT.toml",
                                              help="Experiment file (see experiments/).")],
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="Games per run and per skill-ladder level, overriding the file "
                              "(for quick runs).")] = None,
    scale: Annotated[float, typer.Option(
        help="Multiply every run's games by this (e.g. 0.05 for a quick look).")] = 1.0,
    out: Annotated[Path, typer.Option(parser=path_value,
        help="Root directory; runs go to OUT/NAME/...")]
    = Path("results"),
    jobs: Jobs = -1,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the runs, play nothing.")]
    = False,
    quiet: Quiet = False,
    backend: Backend = None,
    scheduler: Scheduler = None,
    confirm: Confirm = True,
    confirm_games: ConfirmGames = None,
) -> None:
    """Run every study of an experiment file (each with its skill ladder unless it says
    `ladder = false`), then write OUT/NAME/report.html."""
    from analysis.cli.reporting import run_experiment
    from analysis.run import confirm as confirmation
    from analysis.run import experiments
    from analysis.run.parallel import check_backend

    confirmation.check_games(confirm_games)
    experiment = experiments.load(spec_file, out, games, scale)
    total = experiments.total_games(experiment)
    sweeps = f"{len(experiment.ladders)} skill ladders, " if experiment.ladders else ""
    sweeps += f"{len(experiment.sweeps)} sweeps, " if experiment.sweeps else ""
    sweeps += f"{len(experiment.tunes)} tunes, " if experiment.tunes else ""
    sweeps += f"{len(experiment.landscapes)} landscapes, " if experiment.landscapes else ""
    sweeps += (f"{len(experiment.elements)} elements studies, " if experiment.elements
               else "")
    stdout.print(f"[bold]{experiment.name}[/]: {len(experiment.runs)} runs, {sweeps}"
                 f"{total:,} games -> {experiment.out_dir}")
    if dry_run:
        for run in experiment.runs:
            stdout.print(f"  {run.path}  {run.format}  {', '.join(run.bots)}  {run.games:,}")
        for planned in experiment.ladders:
            levels = "; ".join(
                f"{level} {n:,}" + (f" (the run {planned.level_dirs[level].name})"
                                    if level in planned.level_dirs else "")
                for level, n in zip(planned.spec.levels, planned.spec.games))
            stdout.print(f"  {planned.path}  skill ladder, weakest first: {levels}",
                         soft_wrap=True, highlight=False, markup=False)
        for path, spec in experiment.sweeps:
            stdout.print(f"  {path}  sweep ({spec.design}, {len(spec.cells())} cells)  "
                         f"{', '.join(spec.bots)}  {spec.games:,} per cell", soft_wrap=True)
        for path, spec in experiment.tunes:
            stdout.print(f"  {path}  tune {spec.bot} ({len(spec.candidates())} candidates) "
                         f"against {', '.join(spec.against)}  budget {spec.budget:,}",
                         soft_wrap=True, highlight=False)
        for path, spec in experiment.landscapes:
            stdout.print(f"  {path}  landscape of {', '.join(spec.styles)}  {spec.games:,} "
                         "per cell", soft_wrap=True, highlight=False)
        for path, spec in experiment.elements:
            stdout.print(f"  {path}  elements of {spec.game} forbidden to one {spec.bot} seat: "
                         f"{', '.join(spec.elements)}  {spec.games:,} per element",
                         soft_wrap=True, highlight=False)
        return
    check_backend(backend or experiment.backend, scheduler or experiment.scheduler)
    tournament.check_out_dir(experiment.out_dir)
    from analysis.run import ladder

    for planned in experiment.ladders:  # a directory holding another ladder: before any game
        ladder.check_out_dir(planned.spec, planned.path)
    from analysis.run import elements

    for path, spec in experiment.elements:  # a directory holding another study: refused now
        elements.check_out_dir(spec, path)
    summaries, ladders, checks, swept = [], [], [], []
    path = run_with_progress(
        experiment.name, total, quiet,
        lambda cb: run_experiment(experiment, jobs, lambda _run, g: cb(g), backend,
                                  scheduler, confirm, confirm_games, _announce,
                                  summaries.append, ladders.extend, checks.append,
                                  lambda found, family: swept.append((found, family))),
        saved_in=experiment.out_dir, resume_with=rerun_command())
    if summaries and len(summaries[0]):
        from analysis.present import designer

        stdout.print(designer.rich_table(summaries[0], f"Designer summary: {experiment.name}"))
        stdout.print(designer.note(summaries[0]), soft_wrap=True, highlight=False, markup=False)
    if ladders:
        from analysis.present.ladder import cost_text

        for skill, cost in ladders:
            _say(f"skill ladder, {skill.game} {skill.players}p"
                 + (f" ({skill.rules})" if skill.rules else "")
                 + f": {skill.headline()}; {cost_text(skill, cost)}")
    if checks:
        from analysis.present.summary import print_robustness

        print_robustness(stdout, checks[0])
    for found, family in swept[:1]:
        from analysis.present.whatif import conclusion_lines

        for spec, conclusions in found:
            _say(f"what-if sweep, {spec.game} {spec.players}p ({len(spec.cells())} cells on "
                 f"the same deals; a change counts when significant after Holm over "
                 f"{family}): which conclusions of the base setting hold")
            for line in conclusion_lines(conclusions):
                _say(f"  {line}")
    stdout.print(f"report: {path}")


def register(app: typer.Typer) -> None:
    """Add compare, report and run to the `simulate` app."""
    app.command("compare")(compare_command)
    app.command("report")(report_command)
    app.command("run")(run_command)
