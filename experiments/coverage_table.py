"""One game's coverage table: per action kind, the share of each bot's seat-games in which
it chose that kind, from finished runs (the designer summary's counts, `balance.coverage`).

    python experiments/coverage_table.py results/tr-v2 results/tr-default results/tr-mcts=mcts

Each argument is a run directory (a `simulate GAME` run or one permutation of a compare),
optionally `=BOT` to keep only that bot's seats (the `mcts` seat of a line-up of one `mcts`
and default heuristics).  Prints a Markdown table, one column per bot with its seat-games.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's analysis

import pandas as pd  # noqa: E402

from analysis.results.store import load_run  # noqa: E402
from analysis.stats import balance  # noqa: E402


def table(arguments: list[str]) -> str:
    """The Markdown table of the runs named by `arguments` (see the module docstring)."""
    parts = []
    for argument in arguments:
        run_dir, _, bot = argument.partition("=")
        frame = load_run(run_dir)
        parts.append(frame[frame["bot"] == bot] if bot else frame)
    frame = pd.concat(parts, ignore_index=True)
    if frame["game"].nunique() != 1 or frame["players"].nunique() != 1:
        raise SystemExit("error: the runs must be of one game at one player count")
    coverage = balance.coverage(frame)
    bots = list(dict.fromkeys(b for part in parts for b in part["bot"]))
    kinds = list(dict.fromkeys(coverage["kind"]))
    used = coverage.pivot_table(index="kind", columns="bot", values="used_share", sort=False)
    seats = coverage.groupby("bot")["seat_games"].first()
    lines = ["| kind | " + " | ".join(f"`{b}` ({seats[b]:,})" for b in bots) + " |",
             "|---|" + "---|" * len(bots)]
    for kind in kinds:
        lines.append(f"| {kind} | " + " | ".join(f"{used.loc[kind, b]:.1%}" for b in bots)
                     + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1:]))
