"""The table printed after a run: throughput, bot and seat win shares with Wilson intervals,
and a line per bot naming the game systems it (almost) never used."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from analysis.coverage import neglect_lines
from analysis.stats import win_share
from analysis.tournament import RunResult


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_summary(console: Console, result: RunResult, quiet: bool = False) -> None:
    """Headline line, then per-bot and per-seat tables (truncated games left out)."""
    frame, manifest = result.frame, result.manifest
    players = int(manifest["players"])
    games = frame["game_index"].nunique()
    truncated = int(frame.loc[frame["seat"] == 0, "truncated"].sum())
    rules = manifest.get("rules_str") or "official"
    console.print(
        f"[bold]{manifest['game']}[/] · {players} players · {games:,} games"
        f" ({truncated} truncated) · {result.games_played_now:,} played now in "
        f"{result.seconds:.1f} s · [bold]{result.games_per_second:,.0f} games/s[/]"
        f" · seed {manifest['seed']} · rules: {rules} · data: {manifest['dataset']}"
    )
    if not quiet:
        bots = Table(title="Win share by bot (95% Wilson interval)")
        for column in ("bot", "seat-games", "win share", "95% CI", "fair", "mean score"):
            bots.add_column(column, justify="left" if column == "bot" else "right")
        for row in win_share(frame, "bot").itertuples():
            bots.add_row(row.bot, f"{row.games:,}", _pct(row.win_share),
                         f"{_pct(row.ci_low)}–{_pct(row.ci_high)}", _pct(row.fair),
                         f"{row.mean_score:.2f}")
        console.print(bots)
        seats = Table(title="Win share by seat (seat 1 moves first)")
        for column in ("seat", "games", "win share", "95% CI", "mean score"):
            seats.add_column(column, justify="right")
        for row in win_share(frame, "seat").itertuples():
            seats.add_row(str(row.seat + 1), f"{row.games:,}", _pct(row.win_share),
                          f"{_pct(row.ci_low)}–{_pct(row.ci_high)}", f"{row.mean_score:.2f}")
        console.print(seats)
        for line in neglect_lines(frame):
            console.print(line, soft_wrap=True, highlight=False, markup=False)
    console.print(f"results: {result.run_dir}  (load with analysis.load_run('{result.run_dir}'))")
