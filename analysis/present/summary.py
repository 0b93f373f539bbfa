"""The table printed after a run: throughput, bot and seat win shares with Wilson intervals,
the balance verdict (an equivalence claim after the summary's one family of tests; a
significant effect is flagged unconfirmed), and a line per bot naming the game systems it
(almost) never used."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from analysis.present import formats
from analysis.present.coverage import neglect_lines, reference_lines
from analysis.present.formats import percent
from analysis.present.ladder import trend_lines
from analysis.present.terminal import fit
from analysis.results.runs import RunResult
from analysis.stats import findings, ladder, verdicts
from analysis.stats.balance import team_label, teams_for, win_share


def _p(x: float) -> str:
    return "–" if x != x else f"{x:.3g}"


def _say(console: Console, text: str) -> None:
    console.print(text, soft_wrap=True, highlight=False, markup=False)


def print_findings(console: Console, tests, run_dir, where: str = "summary",
                   level: str | None = None) -> None:
    """The family's verdicts in words: per game and player count the balance verdict (an
    equivalence claim, with the detectable effect as a planning figure), then each bot;
    a significant finding not yet replayed gets the confirming command.  `level`: the
    strongest level of a skill ladder, which the games were played at (named first)."""
    if not len(tests):
        return
    _say(console, findings.describe_correction(tests, where))
    at = f"{ladder.at_strongest(level)}: " if level else ""
    several = tests[tests["kind"] == "seat"].groupby(
        [c for c in ("game", "players", "rules", "lineup") if c in tests]).ngroups > 1
    for key, verdict in findings.balance_verdicts(tests):
        label = (f"{key.get('game', '')} {key.get('players')}p"
                 + (f" ({key['rules']})" if key.get("rules") else "")
                 + (f", {key['lineup']}" if key.get("lineup") else "") + ", ") if several else ""
        _say(console, f"  {at}{label}balance: {verdict.claim}")
        if verdict.planning and not verdict.numbers.get("units_off"):
            _say(console, f"    (planning: {verdict.planning})")
    for _, row in tests[tests["kind"] == "bot"].iterrows():
        _say(console, f"  bot {row['subject']}: {findings.verdict(row)}")
    replay = tests["significant"] & tests["kind"].isin(["seat", "bot"]) & tests[
        "confirmed"].isna()
    if replay.any():
        _say(console, f"confirm on fresh deals: simulate report {run_dir} "
                      f"--out {run_dir}/report.html")


def print_robustness(console: Console, checks) -> None:
    """Does each conclusion hold with other bots? One line per verdict of
    `findings.robustness_verdicts` (heterogeneity tests in the output's one family)."""
    if not len(checks):
        return
    _say(console, "Does it hold with other bots? (χ² line-up × win per seat, Holm-adjusted "
                  "in the output's one family)")
    for row in checks.to_dict("records"):
        _say(console, f"  {formats.context_label(row)}: {row['verdict']}")


def print_summary(console: Console, result: RunResult, quiet: bool = False,
                  skipped: list[tuple[dict, verdicts.Verdict]] | None = None,
                  skill: ladder.Ladder | None = None) -> None:
    """Headline line, then per-bot and per-seat tables (truncated games left out).

    `skipped`: the systems each bot skipped against a reference
    (`run.reference.skipped_against_reference`), named in the designer summary and in one
    line per bot; None means no reference check ran, and the summary says so.  `quiet`
    leaves out the detail tables and lines, never a check: the designer summary names the
    skipped systems either way.  `skill`: a skill ladder whose strongest level
    `result` is: its trend tests join the summary's family, the designer summary gains
    "under stronger play", the balance verdict names the level, and a trend line per seat
    follows."""
    frame, manifest = result.frame, result.manifest
    players = int(manifest["players"])
    games = frame["game_index"].nunique()
    truncated = int(frame.loc[frame["seat"] == 0, "truncated"].sum())
    rules = manifest.get("rules_str") or "official"
    console.print(
        f"[bold]{manifest['game']}[/] · {players} players · {games:,} games"
        f" ({truncated} truncated) · {result.games_played_now:,} played now in "
        f"{result.seconds:.1f} s · [bold]{formats.rate(result.games_per_second)} games/s[/]"
    )  # what varies from run to run on one line, what the run is on the next
    console.print(f"seed {manifest['seed']} · rules: {rules} · data: {manifest['dataset']}",
                  soft_wrap=True, highlight=False)
    tests = findings.family(frame, extra=ladder.family_rows([skill]) if skill else None)
    if skill is not None:
        skill = ladder.readjusted([skill], tests, "summary")[0]
    if not quiet:
        bots = Table(title="Win share by bot (95% Wilson interval)")
        for column in ("bot", "seat-games", "win share", "95% CI", "fair", "mean score"):
            bots.add_column(column, justify="left" if column == "bot" else "right")
        for row in win_share(frame, "bot").itertuples():
            bots.add_row(row.bot, f"{row.games:,}", percent(row.win_share),
                         f"{percent(row.ci_low)}–{percent(row.ci_high)}", percent(row.fair),
                         f"{row.mean_score:.2f}")
        console.print(fit(bots))
        teams = teams_for(str(manifest["game"]), players)
        team_game = len(teams) < players
        order = formats.seat_order(str(manifest["game"]), manifest.get("rules_str", ""),
                                   players)
        seats = Table(title="Win share by seat" + (f" ({order})" if order else ""))
        for column in ("seat", "games", "win share", "95% CI", "mean score") + (
                ("partnership",) if team_game else ()):
            seats.add_column(column, justify="right")
        for row in win_share(frame, "seat").itertuples():
            partners = [team_label(teams, i) for i, t in enumerate(teams) if row.seat in t]
            seats.add_row(str(row.seat + 1), f"{row.games:,}", percent(row.win_share),
                          f"{percent(row.ci_low)}–{percent(row.ci_high)}", f"{row.mean_score:.2f}",
                          *(partners if team_game else []))
        console.print(fit(seats))
        units = tests[tests["kind"] == "seat"] if len(tests) else tests
        if len(units):
            table = Table(title=("Win share by team (partners win together)" if team_game else
                                 "Each seat against the fair share") +
                          " · p adjusted with Holm over this summary's "
                          f"{int(tests['tests'].iloc[0])} tests")
            for column in ("seats", "win share", "95% CI", "edge (points)", "p", "p adjusted"):
                table.add_column(column, justify="left" if column == "seats" else "right")
            for row in units.itertuples():
                table.add_row(row.subject, percent(row.share),
                              f"{percent(row.ci_low)}–{percent(row.ci_high)}",
                              f"{verdicts.points(row.effect)} "
                              f"{verdicts.interval(row.ci_low - row.fair, row.ci_high - row.fair)}",
                              _p(row.p_value), _p(row.p_adjusted))
            console.print(fit(table))
    if len(tests):
        from analysis.present import designer

        console.print(designer.rich_table(designer.summary_table(
            frame, tests, skipped=skipped,
            stronger={skill.key: skill.stronger_play()} if skill else None)))
    print_findings(console, tests, result.run_dir, level=skill.strongest if skill else None)
    if skill is not None:
        for line in trend_lines(skill):
            _say(console, f"  {line}")
    if not quiet:
        for line in neglect_lines(frame, skipped=skipped):
            _say(console, line)
        if skipped is None:
            _say(console, "skipped systems: not checked (no reference bot's play to compare "
                          "with)")
        for line in reference_lines(skipped or []):
            _say(console, line)
    console.print(f"results: {result.run_dir}  (load with analysis.load_run('{result.run_dir}'))")
