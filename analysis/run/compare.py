"""Bot comparisons in duplicate format: every deal is replayed once per seat permutation.

A game's seed fixes its deal (`game.new_state(n, seed)`) and the bots' random stream, so
playing the same seed with the line-up permuted over the seats lets the luck of the deal
cancel out of the comparison.  Each permutation is an ordinary run (`rotate=False`, same
run seed, hence the same game seeds) in `OUT/perm-NN`; `OUT/compare.json` ties them
together, and every stats/report function reads them like any other runs.

Line-ups with fewer bots than players are filled as the runner fills them
(`fill="last"`: A,B -> A,B,B,B, one bot against a table of the other) unless
`fill="alternate"` (A,B -> A,B,A,B, each bot holds the same number of seats).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.run import tournament
from analysis.run.study import StudySpec, check_total
from analysis.stats import balance
from engines.errors import BadInput

COMPARE_FILE = "compare.json"
FILLS = ("last", "alternate")


def fill(bots: Sequence[str], players: int, how: str = "last") -> tuple[str, ...]:
    """The table's line-up: `last` repeats the last bot, `alternate` cycles through them."""
    if how not in FILLS:
        raise BadInput(f"--fill must be one of {', '.join(FILLS)}, got {how!r}")
    if len(bots) < 2:
        raise BadInput("a comparison needs at least two different bots")
    if len(set(bots)) != len(bots):
        raise BadInput(f"bots must be different specs, got {', '.join(bots)}")
    if len(bots) > players:
        raise BadInput(f"{len(bots)} bots given for {players} players")
    if how == "last":
        return tournament.fill_lineup(bots, players)
    return tuple(bots[i % len(bots)] for i in range(players))


def permutations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Distinct seat arrangements of the line-up, in a fixed (sorted) order."""
    return sorted(set(itertools.permutations(lineup)))


@dataclass(frozen=True, kw_only=True)
class CompareSpec(StudySpec):
    """A duplicate comparison: `games` is rounded up to whole deals (deals x permutations)."""

    fill: str = "last"
    seed_branch: int = 0  # another branch: other deals from the same run seed (tuning rounds)

    @property
    def lineup(self) -> tuple[str, ...]:
        return fill(self.bots, self.players, self.fill)

    @property
    def seatings(self) -> list[tuple[str, ...]]:
        return permutations(self.lineup)

    @property
    def deals(self) -> int:
        return max(1, math.ceil(self.games / len(self.seatings)))

    def run_specs(self) -> list[tuple[str, tournament.RunSpec]]:
        """(sub-directory, run spec) per seat permutation, all with the same run seed."""
        check_total(self.deals * len(self.seatings))
        return [
            (f"perm-{i:02d}", tournament.RunSpec(
                game=self.game, players=self.players, games=self.deals, bots=seating,
                seed=self.seed, rules=dict(self.rules), rotate=False,
                seed_branch=self.seed_branch).validated())
            for i, seating in enumerate(self.seatings)
        ]


@dataclass
class CompareResult:
    frame: pd.DataFrame
    out_dir: Path
    run_dirs: list[Path]
    spec: CompareSpec


def check_out_dir(out: Path) -> None:
    """A comparison directory must be new, empty, or an earlier attempt at a comparison."""
    if out.exists() and not out.is_dir():
        raise BadInput(f"{out} is not a directory")
    if out.exists() and any(out.iterdir()) and not (out / COMPARE_FILE).is_file():
        raise BadInput(f"{out} is not empty and holds no comparison; use another --out")


def run_duplicate(
    spec: CompareSpec, out_dir: str | os.PathLike, jobs: int = -1,
    progress: Callable[[int], None] | None = None, backend: str = "loky",
    scheduler: str | None = None,
) -> CompareResult:
    """Play (or finish) every permutation's run under `out_dir` and load them together."""
    out = Path(out_dir)
    planned = spec.run_specs()  # validates game, players, bots and rules first
    check_out_dir(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / COMPARE_FILE).write_text(json.dumps({
        "format": "duplicate", "game": spec.game, "players": spec.players,
        "bots": list(spec.bots), "lineup": list(spec.lineup), "fill": spec.fill,
        "deals": spec.deals, "seed": spec.seed, "rules": spec.rules,
        **({"seed_branch": spec.seed_branch} if spec.seed_branch else {}),
        "runs": [name for name, _ in planned],
    }, indent=2))
    run_dirs = []
    for name, run_spec in planned:
        run_dir = out / name
        tournament.run_or_resume(run_spec, run_dir, jobs, progress, backend, scheduler)
        run_dirs.append(run_dir)
    return CompareResult(store.load_runs(run_dirs), out, run_dirs, spec)


def run_rotation(
    spec: CompareSpec, out_dir: str | os.PathLike, jobs: int = -1,
    progress: Callable[[int], None] | None = None, backend: str = "loky",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """The same line-up, as many games, plain seat rotation (a fresh deal every game);
    an interrupted rotation run is finished by running the comparison again."""
    games = spec.deals * len(spec.seatings)
    run_spec = tournament.RunSpec(
        game=spec.game, players=spec.players, games=games, bots=spec.lineup,
        seed=spec.seed, rules=dict(spec.rules), rotate=True).validated()
    return tournament.run_or_resume(run_spec, out_dir, jobs, progress, backend,
                                    scheduler).frame


def narrowing(duplicate: pd.DataFrame, rotation: pd.DataFrame) -> pd.DataFrame:
    """Per bot: interval half widths of both formats (deal-clustered) and their ratio."""
    dup = balance.clustered_win_share(duplicate).set_index("bot")
    rot = balance.clustered_win_share(rotation).set_index("bot")
    out = pd.DataFrame({
        "games_duplicate": dup["games"], "share_duplicate": dup["win_share"],
        "half_width_duplicate": dup["half_width"],
        "games_rotation": rot["games"], "share_rotation": rot["win_share"],
        "half_width_rotation": rot["half_width"],
    })
    out["ratio"] = out["half_width_duplicate"] / out["half_width_rotation"]
    # games plain rotation would need for the duplicate interval width (n scales as 1/h^2)
    out["rotation_games_equivalent"] = out["games_rotation"] / out["ratio"] ** 2
    return out.reset_index()


def read_compare(out_dir: str | os.PathLike) -> dict[str, Any] | None:
    """The comparison record of a directory, or None when it is not a comparison."""
    path = Path(out_dir) / COMPARE_FILE
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise store.RunError(f"{path} is unreadable or corrupt: {exc}") from None
