"""`simulate tune`: race settings of a heuristic's documented parameters against a league in
duplicate format and write the best as a style file.  Registered on the main app by
`analysis.cli.app`; every bad input is one `error: ...` line before anything is played."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from analysis.cli.common import (
    checked_players,
    parse_rules,
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
    Players,
    Quiet,
    Rules,
    RunSeed,
    Scheduler,
    Tolerance,
    path_value,
)
from analysis.present.terminal import fit


def tune_command(
    game_name: GameName,
    vary: Annotated[list[str] | None, typer.Option(
        "--vary", help="PARAM=v1,v2,..., PARAM=lo..hi[:step] or a bare PARAM (its documented "
                       "range), repeatable: the candidate grid (parameters: `simulate list`).")]
    = None,
    bot: Annotated[str, typer.Option(
        help="The heuristic to tune: heuristic, heuristic:STYLE or heuristic:FILE.toml.")]
    = "heuristic",
    against: Annotated[str | None, typer.Option(
        help="The league, comma-separated bot specs (default: heuristic and heuristic:v1 "
             "where the game keeps one; add mcts for a strong opponent).")] = None,
    budget: Annotated[int, typer.Option(help="Games to spend in all.")] = 4000,
    objective: Annotated[str, typer.Option(
        help="win_share: the candidate's share of wins (ties shared), higher is better.")]
    = "win_share",
    seating: Annotated[str, typer.Option(
        help="How a candidate meets each league bot: lone (one candidate seat against a "
             "table of it), table (it alone against a table of the candidate: a candidate "
             "that bot exploits scores low) or both (half the games each way).")] = "both",
    players: Players = None,
    seed: RunSeed = None,
    jobs: Jobs = -1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Tuning directory (rerun with the same --out to resume).")] = None,
    style_out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Style file to write the best setting to (default OUT/best.toml); play it as "
             "heuristic:FILE.toml.")] = None,
    rule: BaseRules = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Tune a heuristic: successive halving over parameter settings, each played in
    duplicate format against a league on shared deals; writes the best as a style file."""
    from analysis.run import tournament, tune
    from analysis.run.parallel import check_backend
    from engines import get_game
    from engines.bots import split_specs

    players = checked_players(get_game(game_name), players)
    league = (tune.default_league(game_name) if against is None
              else tuple(split_specs(against)))
    spec = tune.TuneSpec(game_name, players, bot, tune.parse_vary(game_name, vary or []),
                         league, budget, secrets.randbelow(2**31) if seed is None else seed,
                         objective, parse_rules(rule or []), seating)
    spec.validate()
    check_backend(backend, scheduler)
    out = out or Path("results") / f"tune-{game_name}-s{spec.seed}"
    tournament.check_out_dir(out)
    tune.check_model_dir(spec, out)
    style_path = style_out or out / "best.toml"
    if style_out is not None:
        tune.check_style_path(style_out)
    result = run_with_progress(f"{game_name} tune", budget, quiet,
                               lambda progress: tune.run_tune(spec, out, jobs, progress,
                                                              backend, scheduler),
                               saved_in=out,
                               resume_with=rerun_command(seed=spec.seed, out=out))
    stdout.print(f"{game_name} {players}p · tuning {bot} · league {', '.join(league)} · "
                 f"{len(spec.candidates())} candidates · duplicate format, seed {spec.seed}",
                 soft_wrap=True, highlight=False)
    for line in tune.summary_lines(spec, result):
        stdout.print(line, soft_wrap=True, highlight=False)
    write_atomically(style_path, tune.style_file_text(spec, result))
    stdout.print(f"style: {style_path} (play it as heuristic:{style_path})", soft_wrap=True,
                 highlight=False)
    stderr.print(f"runs: {out}/round-N/<candidate>/<opponent>", highlight=False)


def exploit_command(
    game_name: GameName,
    players: Players = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games per deviator; rounded up to whole deals x seat "
                              "permutations.")] = 1200,
    seed: RunSeed = None,
    against: Annotated[str, typer.Option(
        help="The table's bot, in every seat but the deviator's.")] = "heuristic",
    deviators: Annotated[str | None, typer.Option(
        help="Comma-separated bot specs to try as the lone seat (default: every shipped "
             "heuristic style that plays differently from the default, and mcts).  Against a "
             "table of another heuristic, an mcts deviator without rollout= models that "
             "table: it plays as mcts:rollout=<against>.")] = None,
    tolerance: Tolerance = 1.1,
    rule: Rules = None,
    jobs: Jobs = -1,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
        help="Directory for the comparisons (rerun with the same --out to resume; default "
             "results/exploit-GAME-sSEED).")] = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Exploitability: each shipped style and mcts as one seat against a table of the
    default, in duplicate format, with its win share as a multiple of fair.  A default
    that a lone seat beats by simply playing another style gives balance figures for a
    table nobody would keep; mcts shows how far stronger play gets."""
    from analysis.run import exploit, tournament
    from analysis.run.parallel import check_backend

    spec = exploit.default_spec(
        game_name, players, games, secrets.randbelow(2**31) if seed is None else seed,
        against, exploit.parse_deviators(game_name, deviators), parse_rules(rule or []),
        tolerance)
    total = spec.total_games()  # validates game, players, every bot and rule
    check_backend(backend, scheduler)
    out = out or Path("results") / f"exploit-{game_name}-s{spec.seed}"
    tournament.check_out_dir(out)
    exploit.check_out_dir(spec, out)
    result = run_with_progress(
        f"{game_name} {spec.players}p exploitability", total, quiet,
        lambda progress: exploit.run_exploit(spec, out, jobs, progress, backend, scheduler),
        saved_in=out, resume_with=rerun_command(seed=spec.seed, out=out))
    frame = exploit.table(result)
    stdout.print(f"{game_name} {spec.players}p · each deviator as one seat against "
                 f"{spec.players - 1} x {spec.against} · duplicate format, seed {spec.seed}",
                 soft_wrap=True, highlight=False)
    table = Table(title=f"One deviating seat (fair {100 / spec.players:.1f}%; 95% CI "
                        f"clustered by deal)")
    for column in ("deviator", "games", "win share", "x fair [95% CI]", "verdict"):
        table.add_column(column, justify="left" if column in ("deviator", "verdict")
                         else "right", no_wrap=column != "verdict")
    for _, row in frame.iterrows():
        table.add_row(row["deviator"], f"{row['games']:,}", f"{100 * row['win_share']:.1f}%",
                      f"{row['ratio']:.2f} [{row['ratio_low']:.2f}, {row['ratio_high']:.2f}]",
                      row["verdict"])
    stdout.print(fit(table))
    for line in exploit.summary_lines(frame, spec.against, spec.tolerance):
        stdout.print(f"  {line}", soft_wrap=True, highlight=False)
    stderr.print(f"results: {out}/<deviator>/perm-NN", highlight=False)


def register(app: typer.Typer) -> None:
    """Add tune and exploit to the `simulate` app."""
    app.command("tune")(tune_command)
    app.command("exploit")(exploit_command)
