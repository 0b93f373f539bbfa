"""`simulate landscape`: each style as one seat against a table of each other style, read as
a payoff matrix (α-Rank, a Nash mixture, dominance and cycles).  Registered on the main app
by `analysis.cli.app`; every bad input is one `error: ...` line before anything is played
or written."""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from analysis.cli.common import (
    parse_rules,
    refuse_other_out,
    refuse_resume_changes,
    run_with_progress,
    stderr,
    stdout,
    write_atomically,
)
from analysis.cli.options import (
    Backend,
    GameName,
    Jobs,
    Players,
    Quiet,
    Report,
    Resume,
    Rules,
    RunSeed,
    Scheduler,
    path_value,
)
from analysis.present.terminal import fit
from engines.errors import BadInput

if TYPE_CHECKING:
    from analysis.run.landscape import Analysis


def landscape_command(
    ctx: typer.Context,
    game_name: GameName,
    styles: Annotated[str | None, typer.Option(
        help="Comma-separated bot specs, at least two (default: heuristic and every shipped "
             "heuristic style that plays differently; add mcts by naming it).")] = None,
    players: Players = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games per cell (one style's lone seat against one table); "
                              "rounded up to whole deals x seat permutations.")] = 300,
    seed: RunSeed = None,
    bootstrap: Annotated[int, typer.Option(
        help="Bootstrap replicates over deals for the α-Rank and Nash intervals.")] = 500,
    rule: Rules = None,
    jobs: Jobs = -1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Landscape directory (default results/landscape-GAME-sSEED); one "
             "exploitability check per table style inside.")] = None,
    resume: Resume = None,
    report: Report = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Strategy landscape: every style as one seat against a table of every other style,
    on the same deals; entry (i, j) is style i's win share at j's table as a multiple of
    fair.  Says whether a dominant strategy exists, names significant cycles, and gives the
    α-Rank ranking and a Nash mixture with bootstrap intervals."""
    from analysis.present.report import check_report_path
    from analysis.run import landscape, tournament
    from analysis.run.parallel import check_backend
    from engines import get_game
    from engines.bots import split_specs

    check_backend(backend or "loky", scheduler)
    if resume is not None:
        spec = landscape.read_spec(resume)
        if spec.game != game_name:
            raise BadInput(f"{resume} is a {spec.game} landscape, not {game_name}")
        refuse_other_out(resume, out, "landscape")
        out = resume
        refuse_resume_changes(ctx, resume, "landscape", {
            "--styles": (styles and tuple(split_specs(styles)), spec.styles),
            "--players": (players, spec.players), "--games": (games, spec.games),
            "--seed": (seed, spec.seed), "--bootstrap": (bootstrap, spec.bootstrap),
            "--rule": (parse_rules(rule or []), spec.rules)})
    else:
        game = get_game(game_name)
        spec = landscape.LandscapeSpec(
            game=game_name, players=game.players_default if players is None else players,
            games=games, seed=secrets.randbelow(2**31) if seed is None else seed,
            styles=(tuple(split_specs(styles)) if styles is not None
                    else landscape.shipped_styles(game_name)),
            rules=parse_rules(rule or []), bootstrap=bootstrap)
        out = out or Path("results") / f"landscape-{game_name}-s{spec.seed}"
    total = spec.total_games()  # validates game, players, every style and rule
    if report is not None:
        check_report_path(report, "--report", made=out, html_only=True)
    tournament.check_out_dir(out)
    landscape.check_out_dir(spec, out)
    where = shlex.quote(str(out))
    result = run_with_progress(
        f"{game_name} {spec.players}p landscape, {len(spec.styles)} styles", total, quiet,
        lambda progress: landscape.run_landscape(spec, out, jobs, progress, backend,
                                                 scheduler),
        saved_in=out, resume_with=f"simulate landscape {game_name} --resume {where}")
    analysis = landscape.analyse(result)
    print_landscape(analysis)
    stderr.print(f"results: {out}/<table style>/<lone style>/perm-NN", highlight=False)
    if report is not None:
        from analysis.cli.reporting import landscape_html
        from analysis.present.report import page

        write_atomically(report, page(f"Strategy landscape: {game_name} {spec.players}p",
                                      landscape_html(analysis)))
        stdout.print(f"report: {report}")


def print_landscape(analysis: Analysis) -> None:
    """The matrix, α-Rank and Nash tables and the verdicts on the terminal."""
    spec = analysis.spec
    stdout.print(f"{spec.game} {spec.players}p · {len(spec.styles)} styles · each as one seat "
                 f"against {spec.players - 1} x each other · duplicate format, same deals, "
                 f"seed {spec.seed}", soft_wrap=True, highlight=False)
    look = {(r.style, r.table): r for r in analysis.cells.itertuples()}
    matrix = Table(title=f"Lone seat's win share, x fair, and its 95% CI clustered by deal "
                         f"(fair {100 / spec.players:.1f}%; * significant after Holm); "
                         "columns: the table's style, numbered as the rows")
    matrix.add_column("lone seat \\ table", justify="left", overflow="fold")
    for number in range(1, len(spec.styles) + 1):
        matrix.add_column(str(number), justify="right", no_wrap=True, min_width=9)
    for number, style in enumerate(spec.styles, 1):
        cells = []
        for table in spec.styles:
            row = look.get((style, table))
            cells.append("fair" if row is None else
                         f"{row.ratio:.2f}{'*' if row.significant else ''}\n"
                         f"{row.ratio_low:.2f}–{row.ratio_high:.2f}")
        matrix.add_row(f"{number} {style}", *cells)
    stdout.print(fit(matrix))
    for title, frame, column in (
            (f"α-Rank (α = {analysis.solutions.alpha:g}, population "
             f"{analysis.solutions.population})", analysis.alpharank, "mass"),
            ("Nash mixture of the zero-sum-ised meta-game", analysis.nash, "nash")):
        shown = Table(title=title)
        for name in ("style", column, "95% bootstrap", "in support", "largest"):
            shown.add_column(name, justify="left" if name == "style" else "right")
        for row in frame.itertuples():
            booted = row.support == row.support  # NaN with --bootstrap 0
            shown.add_row(row.style, f"{getattr(row, column):.3f}",
                          f"[{row.ci_low:.3f}, {row.ci_high:.3f}]" if booted else "–",
                          f"{100 * row.support:.0f}%" if booted else "–",
                          f"{100 * row.top:.0f}%" if booted else "–")
        stdout.print(fit(shown))
    for line in analysis.lines():
        stdout.print(f"  {line}", soft_wrap=True, highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    """Add landscape to the `simulate` app."""
    app.command("landscape")(landscape_command)
