"""Every option shared by several `simulate` commands, declared once (typer `Annotated`
aliases); a command declares only the options that are its own."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def path_value(text: str | Path) -> Path:
    """A path option's value, refused when empty: `--out ''` would mean the working directory."""
    if isinstance(text, Path):  # a default value
        return text
    if not text.strip():
        raise typer.BadParameter("an empty path names no file or directory")
    return Path(text)


def text_value(text: str) -> str:
    """A text option's value, refused when empty: `--bots ''` or `--backend ''` would
    otherwise quietly mean the default."""
    if not text.strip():
        raise typer.BadParameter("an empty value; leave the option out for its default")
    return text


def jobs_value(text: str) -> int:
    """Worker processes: a positive count, or -1 for one per core (other negative counts and
    0 are refused rather than read as 'all cores')."""
    try:
        jobs = int(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not an integer") from None
    if jobs == 0 or jobs < -1:
        raise typer.BadParameter(f"give a positive number of worker processes or -1 for one "
                                 f"per core, got {jobs}")
    return jobs


GameName = Annotated[str, typer.Argument(metavar="GAME", help="Game (see `simulate list`).")]
Players = Annotated[int | None, typer.Option(help="Players (default: the game's default).")]
Lineup = Annotated[str | None, typer.Option(
    parser=text_value,
    help="Comma-separated bot specs, one per seat; the last fills the remaining seats "
         "(e.g. heuristic,random or mcts:iterations=200,heuristic; default heuristic).")]
RunSeed = Annotated[int | None, typer.Option(help="Run seed (default: random, recorded).")]
Jobs = Annotated[int, typer.Option(
    parser=jobs_value, help="Worker processes (-1 = one per core); never more than the cores "
                            "or the chunks left to play.")]
Rules = Annotated[list[str] | None, typer.Option(
    "--rule", help="Variant option KEY=VALUE (repeatable); see `simulate list`.")]
BaseRules = Annotated[list[str] | None, typer.Option(
    "--rule", help="Base rule option KEY=VALUE (repeatable).")]
Quiet = Annotated[bool, typer.Option(
    "--quiet", "-q", help="No progress bar (`simulate GAME`: a shorter summary, the headline, "
                          "designer summary and verdicts); what is computed never changes.")]
Backend = Annotated[str | None, typer.Option(
    parser=text_value,
    help="loky (local processes) or dask (default loky; `simulate run`: the experiment "
         "file's backend key).")]
Scheduler = Annotated[str | None, typer.Option(
    parser=text_value,
    help="Dask scheduler address tcp://HOST:PORT (with --backend dask).")]
Resume = Annotated[Path | None, typer.Option(
    parser=path_value,
    help="Finish an interrupted run or sweep in this directory (its recorded spec is "
         "used; an option that would change it is refused).")]
Report = Annotated[Path | None, typer.Option(
    parser=path_value, help="Write an HTML report to this file (checked before any game is "
                            "played).")]
Levels = Annotated[str | None, typer.Option(
    help="Skill-ladder levels: comma-separated bot specs, weakest first, each played in every "
         "seat (default random,heuristic,mcts:iterations=20,mcts; `simulate GAME`: with "
         "--ladder).")]
Bootstrap = Annotated[int, typer.Option(help="Bootstrap replicates for ratings.")]
Confirm = Annotated[bool, typer.Option(
    "--confirm/--no-confirm",
    help="Replay every finding significant after adjustment on fresh deals (a separate seed "
         "branch, stored beside its run as RUN-confirm, resumable) and report it confirmed "
         "or not.")]
ConfirmGames = Annotated[int | None, typer.Option(
    "--confirm-games", help="Fresh games per confirmed run (at least the run's own size, "
                            "which is the default).")]
Tolerance = Annotated[float, typer.Option(
    help="A seat's share counts as fair within this multiple of the fair share (between "
         "fair / TOLERANCE and fair × TOLERANCE): for compensate, every seat's interval must "
         "lie inside; for exploit, a lone seat exploits the table when its whole interval "
         "lies above fair × TOLERANCE; for elements, an element is inconsequential when its "
         "worth's whole interval keeps the restricted seat's share inside.")]
Force = Annotated[bool, typer.Option(
    "--force", help="Overwrite the --out file if it exists (without it an existing file is "
                    "refused, since it may hold your edits or a game played by hand).")]


#: What `--out` names where it is not a directory the command creates for the games it
#: plays: command -> its meaning.  `docs/cli.md` lists them; `tests/test_cli.py` checks that
#: every command whose `--out` names a file is here.
OUT_MEANING: dict[str, str] = {
    "report": "the HTML file to write; an existing file is replaced (a report is rebuilt "
              "from its runs)",
    "data": "the .toml file to write the data set to; an existing file is refused unless "
            "--force (it may hold your edits)",
    "play": "the transcript file (.json) of the game; an existing file is refused unless "
            "--force (a game played by hand is its only copy)",
    "run": "the root directory: the experiment's runs, report and ladders go to OUT/NAME/",
}

#: Options whose meaning is a command's own, and the commands where it is (`"per game"`:
#: every `simulate GAME` command; `"every command"`: what it counts differs in each), for
#: `docs/cli.md`; every other option reads the same in every command (`tests/test_cli.py`).
OWN_MEANING: dict[str, str | tuple[str, ...]] = {
    "--out": "every command", "--games": "every command",
    "--bots": ("compare", "play", "bench"), "--bot": ("elements",),
    "--seed": ("play", "bench"),
    "--players": "per game",
    "--rule": ("data", "sweep", "balance-search", "explain", "compensate", "tune"),
    "--jobs": ("report",), "--seat": ("show", "play"),
    "--vary": ("sweep", "balance-search", "tune"), "--objective": ("balance-search", "tune"),
    "--against": ("bench", "tune"), "--bootstrap": ("landscape",),
}
