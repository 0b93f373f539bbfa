"""`simulate show` (replay a stored game in words) and `simulate play` (play a seat by hand)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analysis.cli.common import fail, parse_rules, stdout
from analysis.cli.options import GameName, Players, Rules, path_value
from engines.bots import split_specs


def show(
    path: Annotated[Path, typer.Argument(parser=path_value,
        metavar="RUN_DIR|FILE", help="A run directory, or a transcript file of `simulate play`.")],
    game: Annotated[int | None, typer.Option(
        "--game", help="Game index in the run (the game_index column, from 0).")] = None,
    pick: Annotated[str | None, typer.Option(
        help="Choose the game instead: largest-margin, closest, shared-win, longest, "
             "shortest or seat-K-wins (K from 1).")] = None,
    seat: Annotated[int | None, typer.Option(
        help="Show only what seat K (from 1) could see (default: everything).")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", parser=path_value,
        help="Also write a self-contained HTML page with the full view after each decision, "
             "folded by round.")] = None,
) -> None:
    """Replay one game of a run (or a played game) round by round, in words."""
    from analysis.present import transcript
    from analysis.run import rebuild

    if html is not None:
        transcript.check_html_path(html)
    source = rebuild.open_source(path, game, pick)
    if seat is not None and not 1 <= seat <= source.players:
        fail(f"--seat must be 1-{source.players}, got {seat}")
    print(transcript.to_text(source, None if seat is None else seat - 1))
    if html is not None:
        stdout.print(f"html: {transcript.write_html(source, html)}", soft_wrap=True)


def play(
    game_name: GameName,
    seat: Annotated[int, typer.Option(
        help="Your seat, from 1 (who takes the first turn depends on the game and its "
             "rules: `simulate list`).")] = 1,
    bots: Annotated[str, typer.Option(
        help="Bot specs for the other seats in order; the last fills the rest.")]
    = "heuristic",
    players: Players = None,
    rule: Rules = None,
    seed: Annotated[int | None, typer.Option(help="Game seed (default: random, printed).")]
    = None,
    out: Annotated[Path | None, typer.Option(
        parser=path_value,
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


def register(app: typer.Typer) -> None:
    """Add show and play."""
    app.command("show")(show)
    app.command("play")(play)
