"""`simulate elements GAME`: which card, skill or action is too strong or useless — restricted
play (one seat forbidden each element in turn, on the deals of an unrestricted baseline),
win shares when played (correlation) and removal where the data set allows.  Registered on
the main app by `analysis.cli.app`."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from rich.table import Table

from analysis.cli.common import (
    parse_rules,
    rerun_command,
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
    Rules,
    RunSeed,
    Scheduler,
    Tolerance,
)
from analysis.present.terminal import fit


def _interval(row: dict, name: str, scale: float = 100.0) -> str:
    value = row[f"{name}_diff" if f"{name}_diff" in row else name]
    if value != value:
        return "–"
    low, high = row[f"{name}_low"], row[f"{name}_high"]
    return f"{scale * value:+.1f} [{scale * low:+.1f}, {scale * high:+.1f}]"


def _table(title: str, columns: tuple[str, ...]) -> Table:
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="left" if column in ("element", "verdict") else "right",
                         no_wrap=column != "verdict")
    return table


def _worth_table(table: pd.DataFrame, fair: float) -> Table:
    """Restricted play, strongest first: how often it bit, the worth, its verdict."""
    grid = _table(f"Restricted play, largest worth first (worth: baseline seat minus restricted "
                  f"seat, points, 95% CI clustered by deal; fair {100 * fair:.1f}%)",
                  ("element", "offered", "bit", "worth [95% CI]", "adj. p", "verdict"))
    for row in table.to_dict("records"):
        grid.add_row(row["element"], f"{100 * row['offered_share']:.0f}%",
                     f"{100 * row['bit_share']:.0f}%", _interval(row, "worth"),
                     _p(row["worth_p_adjusted"]), row["verdict"])
    return grid


def _observed_table(table: pd.DataFrame) -> Table:
    """The baseline's seats that played the element against the others: correlation only."""
    grid = _table("Correlation, not cause: win share of the baseline seats that played it "
                  "minus the others' (points, 95% CI clustered by game)",
                  ("element", "played in", "played vs not", "adj. p"))
    for row in table.to_dict("records"):
        share = row["played_share"]
        grid.add_row(row["element"], "–" if share != share else f"{100 * share:.0f}%",
                     _interval(row, "played"), _p(row["played_p_adjusted"]))
    return grid


def _removal_table(table: pd.DataFrame) -> Table:
    """The game without the element for every seat: the change of the winning score."""
    grid = _table("Removed for every seat: change of the mean winning score (the game's "
                  "points, 95% CI; other deals) and of the game length",
                  ("element", "winning score", "adj. p", "decisions"))
    for row in table[table["removal_note"] == ""].to_dict("records"):
        grid.add_row(row["element"], _interval(row, "removal", 1.0),
                     _p(row["removal_p_adjusted"]), f"{row['removal_decisions']:+.0f}")
    return grid


def _p(value: float) -> str:
    from analysis.stats.verdicts import format_p

    return format_p(value).removeprefix("= ").removeprefix("< ")


def elements_command(
    game_name: GameName,
    players: Players = None,
    bot: Annotated[str, typer.Option(
        help="The bot of every seat; one seat plays it forbidden each element in turn.")]
    = "heuristic",
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games per element (rounded up to whole deals x seats); the "
                              "baseline plays each deal once.")] = 1000,
    elements: Annotated[str | None, typer.Option(
        help="Comma-separated elements to study (default: every element the game declares; "
             "see `simulate list`).")] = None,
    tolerance: Tolerance = 1.1,
    seed: RunSeed = None,
    rule: Rules = None,
    jobs: Jobs = -1,
    out: Annotated[Path | None, typer.Option(
        help="Directory for the runs (rerun with the same --out to resume; default "
             "results/elements-GAME-sSEED).")] = None,
    report: Report = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Which card, skill or action is too strong or useless: each element forbidden to one
    seat against unrestricted copies of the bot (restricted play, paired by deal), its win
    share when played (correlation, not cause) and, where the data set allows, the game
    without it; ranked, with verdicts from one Holm family."""
    from analysis.run import elements as run_elements
    from analysis.run import tournament
    from analysis.run.parallel import check_backend
    from analysis.stats.verdicts import element_family_members, element_lines

    spec = run_elements.default_spec(
        game_name, players, games, secrets.randbelow(2**31) if seed is None else seed, bot,
        None if elements is None else tuple(e.strip() for e in elements.split(",")),
        parse_rules(rule or []), tolerance)
    spec.check()  # game, players, bot, every element and rule: before any game
    check_backend(backend, scheduler)
    out = out or Path("results") / f"elements-{game_name}-s{spec.seed}"
    tournament.check_out_dir(out)
    run_elements.check_out_dir(spec, out)
    if report is not None:
        from analysis.present.report import check_report_path

        check_report_path(report, "--report", made=out, html_only=True)
    result = run_with_progress(
        f"{game_name} {spec.players}p elements", spec.total_games(), quiet,
        lambda progress: run_elements.run_elements(spec, out, jobs, progress, backend,
                                                   scheduler),
        saved_in=out, resume_with=rerun_command(seed=spec.seed, out=out))
    table, family = result.table()
    fair = 1.0 / spec.players
    head = result.head()
    stdout.print(head, soft_wrap=True, highlight=False)
    stdout.print(fit(_worth_table(table, fair)))
    if table["played_share"].notna().any():
        stdout.print(fit(_observed_table(table)))
    if (table["removal_note"] == "").any():
        stdout.print(fit(_removal_table(table)))
    lines = element_lines(table, spec.bot, fair, family.note(element_family_members(table)))
    for line in lines:
        stdout.print(f"  {line}", soft_wrap=True, highlight=False, markup=False)
    stderr.print(f"results: {out}/baseline, {out}/<element>/perm-NN (rerun to resume)",
                 highlight=False)
    if report is not None:
        from analysis.present.report import elements_section, page

        write_atomically(report, page(f"Elements: {game_name}",
                                      elements_section(table, lines, head)))
        stdout.print(f"report: {report}", soft_wrap=True, highlight=False)


def register(app: typer.Typer) -> None:
    """Add elements to the `simulate` app."""
    app.command("elements")(elements_command)
