"""What-if commands of `simulate`: `data` (a game's component data set), `sweep` (paired
sweeps over rules and data items) and `balance-search` (racing search for the most balanced
setting).  Registered on the main app by `analysis.cli.app`."""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from analysis.cli.common import (
    check_new_file,
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
)
from analysis.cli.common import write_atomically as _write_atomically
from analysis.cli.options import (
    Backend,
    BaseRules,
    Force,
    GameName,
    Jobs,
    Lineup,
    Players,
    Quiet,
    Report,
    Resume,
    RunSeed,
    Scheduler,
    path_value,
)
from analysis.present.terminal import fit
from analysis.run import tournament
from engines.errors import BadInput


def _vary_text(game: str, vary: tuple[tuple[str, tuple[object, ...]], ...]) -> str:
    """A sweep's `--vary` options as typed (`KEY=v1,v2 --vary KEY2=...`, each value in its
    canonical text; list values separated by `;`), so a given and a recorded one compare in
    the same form."""
    from analysis.run import sweep

    parts = []
    for key, values in vary:
        texts = [sweep.canonical(game, key, v) for v in values]
        parts.append(f"{key}=" + (";" if any("," in t for t in texts) else ",").join(texts))
    return " --vary ".join(parts)


def register(app: typer.Typer) -> None:
    @app.command("data")
    def data(
        game_name: GameName,
        out: Annotated[Path | None, typer.Option(
            parser=path_value,
            help="Write the data set to this .toml file instead of printing it.")] = None,
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", help="components=PATH or components.ITEM=VALUE (repeatable): show the "
                           "data set these make.")] = None,
        items: Annotated[bool, typer.Option(
            "--items", help="List the items you can set with --rule components.ITEM=VALUE, "
                            "with provenance and the alternatives the rules files name.")]
        = False,
        force: Force = False,
    ) -> None:
        """Print a game's component data set as the editable TOML its loader reads, with each
        item's provenance (CONFIRMED / INFERRED / GUESS)."""
        from engines import datasets, get_game

        game = get_game(game_name)
        rules = game.checked_rules(**parse_rules(rule or []))
        if datasets.dataset_of(game_name) is None:
            stdout.print(f"{game_name} uses only official component data "
                         f"(data set {game.dataset(rules)!r}, every number CONFIRMED by the "
                         "rules); there is nothing guessed to show or vary.", soft_wrap=True)
            return
        if out is not None and out.suffix.lower() != ".toml":
            raise BadInput(f"--out {out} must be a .toml file")
        if out is not None:
            check_new_file(out, force)
        if items:
            table = Table(title=f"{game_name} data items (--rule components.ITEM=VALUE)")
            for column in ("item", "provenance", "shipped value", "alternatives", "source"):
                table.add_column(column, overflow="fold")
            for row in datasets.items_table(game_name):
                table.add_row(row["item"], row["provenance"], row["value"][:40],
                              " | ".join(row["plausible"]), row["source"])
            stdout.print(fit(table))
            return
        text = datasets.to_toml(game_name, getattr(rules, "components", ""))
        if out is None:
            print(text)
            return
        _write_atomically(out, text)
        stdout.print(f"data set {game.dataset(rules)} written to {out}; use it with "
                     f"--rule components={out}", soft_wrap=True)

    @app.command("sweep")
    def sweep_command(
        ctx: typer.Context,
        game_name: GameName,
        vary: Annotated[list[str] | None, typer.Option(
            "--vary", help="KEY=v1,v2,... (repeatable): a rule option or components.ITEM; "
                           "lo..hi for an integer range; list-valued items separate values "
                           "with ; (components.token_values='2,4,6,8;2,4,6,8,12').")] = None,
        grid: Annotated[bool, typer.Option(
            "--grid/--one-at-a-time",
            help="Every combination, or (default) each key alone around the base setting.")]
        = False,
        games: Annotated[int | None, typer.Option(
            "--games", "-n", help="Games per cell (default 500).")] = None,
        players: Players = None,
        bots: Lineup = None,
        seed: RunSeed = None,
        jobs: Jobs = -1,
        out: Annotated[Path | None, typer.Option(
            parser=path_value,
            help="Sweep directory: one run directory per cell (default results/sweep-...).")]
        = None,
        rule: BaseRules = None,
        backend: Backend = "loky",
        scheduler: Scheduler = None,
        resume: Resume = None,
        report: Report = None,
        quiet: Quiet = False,
    ) -> None:
        """Play the same deals under several settings and measure each key's effect on
        first-seat edge, seat balance, scoring sources, game length and ties (paired)."""
        from analysis.present.report import check_report_path
        from analysis.run import sweep
        from analysis.run.parallel import check_backend
        from engines import get_game

        check_backend(backend or "loky", scheduler)
        if resume is not None:
            spec = sweep.read_spec(resume)
            if spec.game != game_name:
                raise BadInput(f"{resume} is a {spec.game} sweep, not {game_name}")
            refuse_other_out(resume, out, "sweep")
            out = resume
            refuse_resume_changes(ctx, resume, "sweep", {
                "--games": (games, spec.games), "--players": (players, spec.players),
                "--seed": (seed, spec.seed),
                "--bots": (lineup_of(bots, spec.players), spec.bots),
                "--rule": (parse_rules(rule or []), spec.rules),
                "--vary": (vary and _vary_text(spec.game, sweep.parse_vary(spec.game, vary)),
                           _vary_text(spec.game, spec.vary)),
                "--grid/--one-at-a-time": ("grid" if grid else "one-at-a-time",
                                           spec.design)})
        else:
            players = checked_players(get_game(game_name), players)
            spec = sweep.SweepSpec(
                game=game_name, players=players, games=500 if games is None else games,
                bots=lineup(bots, players),
                seed=secrets.randbelow(2**31) if seed is None else seed,
                vary=sweep.parse_vary(game_name, vary or []),
                design="grid" if grid else "one-at-a-time", rules=parse_rules(rule or []))
            out = out or Path("results") / f"sweep-{game_name}-s{spec.seed}"
        cells = sweep.validated_cells(spec)
        if report is not None:
            check_report_path(report, "--report", made=out, html_only=True)
        tournament.check_out_dir(out)
        sweep.check_out_dir(spec, out)
        total = spec.games * len(cells)
        where = shlex.quote(str(out))
        frame = run_with_progress(f"{game_name} sweep, {len(cells)} cells", total, quiet,
                                  lambda progress: sweep.run_sweep(
                                      spec, out, jobs, progress, backend, scheduler),
                                  saved_in=out,
                                  resume_with=f"simulate sweep {game_name} --resume {where}")
        print_sweep(spec, frame)
        stdout.print(f"cells: {out}/<cell> (each a run directory; load_sweep({str(out)!r}) "
                     "loads them all)", soft_wrap=True, highlight=False)
        if report is not None:
            from analysis.cli.reporting import sweep_html
            from analysis.present.report import page

            _write_atomically(report, page(f"What-if sweep: {game_name}",
                                           sweep_html(spec, frame)))
            stdout.print(f"report: {report}")

    def print_sweep(spec, frame) -> None:
        from analysis.run import sweep

        table = sweep.effects(spec, frame)
        stdout.print(f"{spec.game} {spec.players}p · bots {', '.join(spec.bots)} · "
                     f"{spec.games} games per cell, same deals (seed {spec.seed}) · "
                     f"{spec.design}", soft_wrap=True, highlight=False)
        stdout.print("data sets: " + ", ".join(sorted(frame["dataset"].unique())),
                     soft_wrap=True, highlight=False)
        for key, part in table.groupby("key", sort=False):
            shown = Table(title=f"{key} (reference {part['reference_value'].iloc[0]})")
            for column in ("setting", "statistic", "reference", "value", "effect [95% paired]",
                           "p adj."):
                shown.add_column(column, overflow="fold")
            for _, row in part.iterrows():
                scale, unit = (1, "") if row["statistic"] == "length" else (100, "%")
                shown.add_row(
                    str(row["setting"]), row["statistic"],
                    f"{row['reference'] * scale:.1f}{unit}", f"{row['estimate'] * scale:.1f}{unit}",
                    f"{row['effect'] * scale:+.1f} [{row['ci_low'] * scale:+.1f}, "
                    f"{row['ci_high'] * scale:+.1f}]", f"{row['p_adjusted']:.2g}"
                    + (" *" if row["significant"] else ""))
            stdout.print(fit(shown))
        stdout.print("What matters most (* = significant after Holm over all effects):")
        for line in sweep.ranking(table):
            stdout.print("  " + line, soft_wrap=True, highlight=False)
        stdout.print(f"paired intervals are {sweep.narrowing(table):.1f}x narrower than "
                     "independent runs of the same size would give (median over effects)",
                     soft_wrap=True)
        if spec.design == "one-at-a-time":
            from analysis.present.whatif import conclusion_lines

            for line in conclusion_lines(sweep.conclusions(spec, frame, table)):
                stdout.print(f"  {line}", soft_wrap=True, highlight=False)

    @app.command("balance-search")
    def balance_search(
        game_name: GameName,
        vary: Annotated[list[str] | None, typer.Option(
            "--vary", help="KEY=v1,v2,... or KEY=lo..hi[:step] (repeatable): the candidate "
                           "grid.")] = None,
        objective: Annotated[str, typer.Option(
            help="first_edge, seat_spread, seat_edge or source_share:NAME[=TARGET] (smaller "
                 "|...| is "
                 "better; default target: an equal share per source).")] = "first_edge",
        budget: Annotated[int, typer.Option(help="Games to spend in all.")] = 5000,
        players: Players = None,
        bots: Lineup = None,
        seed: RunSeed = None,
        jobs: Jobs = -1,
        out: Annotated[Path | None, typer.Option(
            parser=path_value,
            help="Search directory (rerun with the same --out to resume).")] = None,
        rule: BaseRules = None,
        backend: Backend = "loky",
        scheduler: Scheduler = None,
        quiet: Quiet = False,
    ) -> None:
        """Successive halving on shared deals: find the most balanced setting within a budget."""
        from analysis.run import search, sweep
        from analysis.run.parallel import check_backend
        from engines import get_game

        check_backend(backend or "loky", scheduler)
        players = checked_players(get_game(game_name), players)
        search.parse_objective(objective)
        if budget <= 0:
            raise BadInput(f"--budget must be positive, got {budget}")
        if seed is not None and seed < 0:
            raise BadInput(f"--seed must be >= 0, got {seed}")
        spec = search.SearchSpec(
            game=game_name, players=players,
            bots=lineup(bots, players),
            seed=secrets.randbelow(2**31) if seed is None else seed,
            vary=sweep.parse_vary(game_name, vary or []), objective=objective, budget=budget,
            rules=parse_rules(rule or []))
        plan = spec.rounds()
        for cell in spec.candidates():  # every bad value fails here, before anything starts
            tournament.RunSpec(game=spec.game, players=spec.players, games=1, bots=spec.bots,
                               seed=spec.seed, rules=dict(cell.rules)).validated()
        search.check_objective(objective, game_name, players, spec.rules)
        out = out or Path("results") / f"search-{game_name}-s{spec.seed}"
        tournament.check_out_dir(out)
        search.check_out_dir(out)
        result = run_with_progress(f"{game_name} balance search", budget, quiet,
                                   lambda progress: search.run_search(
                                       spec, out, jobs, progress, backend, scheduler),
                                   saved_in=out,
                                   resume_with=rerun_command(seed=spec.seed, out=out))
        stdout.print(f"{game_name} {players}p · bots {', '.join(spec.bots)} · objective "
                     f"{objective} · {len(spec.candidates())} candidates · rounds of "
                     f"{', '.join(map(str, plan))} new games per survivor", soft_wrap=True,
                     highlight=False)
        for line in search.summary_lines(spec, result):
            stdout.print(line, soft_wrap=True, highlight=False)
        stderr.print(f"runs: {out}/round-N/<candidate>", highlight=False)
