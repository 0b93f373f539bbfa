"""Strategy landscape: every style as one seat against a table of every other style.

Is there a dominant strategy among a game's styles, or do they beat each other in a ring?
A landscape of K styles is K exploitability checks (`analysis.run.exploit`), one per table
style: the check against table j plays every other style as the lone seat, in duplicate
format, so entry (i, j) is style i's win share as one seat among players − 1 seats of j.
Every check uses the one run seed, so every cell plays the same deals, and the bootstrap
of `analysis.stats.metagame` resamples deals across the whole matrix at once.

On disk: `OUT/landscape.json` (the spec) and `OUT/<table style>/` one exploitability check
each (`exploit.json`, `<style>/perm-NN`); running the same spec again finishes what is
missing and replays nothing.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.run import exploit, tables
from analysis.run.study import check_bootstrap, check_total
from analysis.stats import metagame, verdicts
from engines import get_game
from engines.errors import BadInput

LANDSCAPE_FILE = "landscape.json"
#: Games per cell unless told.
GAMES = 300


def shipped_styles(game_name: str) -> tuple[str, ...]:
    """The default heuristic and every shipped style that plays differently from it (mcts
    is left out: it costs far more per game, and K styles cost K (K − 1) cells; name it in
    `--styles` to include it)."""
    return ("heuristic",) + tuple(s for s in exploit.shipped_deviators(game_name)
                                  if s != "mcts")


@dataclass(frozen=True, kw_only=True)
class LandscapeSpec:
    """A landscape: each of `styles` as a lone seat against a table of each other."""

    game: str
    players: int
    games: int  # per cell, rounded up to whole deals x seat permutations
    seed: int
    styles: tuple[str, ...] = ()
    rules: dict[str, str] = field(default_factory=dict)
    bootstrap: int = metagame.BOOTSTRAP

    def checks(self) -> list[tuple[str, exploit.ExploitSpec]]:
        """(table style, its exploitability check), every style and rule checked first."""
        get_game(self.game).check_players(self.players)
        if len(self.styles) < 2:
            raise BadInput(f"a landscape needs at least two styles, got "
                           f"{', '.join(self.styles) or 'none'}")
        if len(set(self.styles)) != len(self.styles):
            raise BadInput("--styles names a style twice")
        check_bootstrap(self.bootstrap)
        slugs = [store.spec_dir_name(s) for s in self.styles]
        if len(set(slugs)) != len(slugs):
            raise BadInput("two styles of --styles would share a directory name; rename one")
        out = []
        for table in self.styles:
            check = exploit.ExploitSpec(
                game=self.game, players=self.players, games=self.games, seed=self.seed,
                against=table, deviators=tuple(s for s in self.styles if s != table),
                rules=dict(self.rules))
            check.comparisons()  # validates games, seed, every bot spec and the rules
            out.append((table, check))
        return out

    def total_games(self) -> int:
        """Games of every cell (whole deals), at most `MAX_GAMES` in all."""
        return check_total(sum(check.total_games() for _, check in self.checks()))

    def to_json(self) -> dict[str, Any]:
        return {"format": "landscape", "game": self.game, "players": self.players,
                "games": self.games, "seed": self.seed, "styles": list(self.styles),
                "rules": dict(self.rules), "bootstrap": self.bootstrap}

    def command(self) -> str:
        rules = "".join(f" --rule {k}={v}" for k, v in self.rules.items())
        return (f"simulate landscape {self.game} --players {self.players} --styles "
                f"{','.join(self.styles)} --games {self.games} --seed {self.seed}{rules}")


def from_json(data: dict[str, Any]) -> LandscapeSpec:
    """The spec a `landscape.json` records (KeyError/TypeError on a foreign file)."""
    return LandscapeSpec(game=data["game"], players=data["players"], games=data["games"],
                         seed=data["seed"], styles=tuple(data["styles"]),
                         rules=dict(data["rules"]), bootstrap=data["bootstrap"])


def check_out_dir(spec: LandscapeSpec, out: Path) -> bool:
    """New, empty, or an earlier run of the same landscape (which is then finished)."""
    return store.check_study_dir(out, LANDSCAPE_FILE, spec.to_json(), "landscape")


def read_spec(out_dir: str | os.PathLike) -> LandscapeSpec:
    """The landscape recorded in a directory (for --resume and --report of a finished one)."""
    return store.read_study_record(out_dir, LANDSCAPE_FILE, "landscape", from_json)


@dataclass
class LandscapeResult:
    spec: LandscapeSpec
    frames: dict[tuple[str, str], pd.DataFrame]  # (style, table) -> its comparison's games
    out_dir: Path


def run_landscape(spec: LandscapeSpec, out_dir: str | os.PathLike, jobs: int = -1,
                  progress: Callable[[int], None] | None = None, backend: str = "loky",
                  scheduler: str | None = None) -> LandscapeResult:
    """Play (or finish) every table's exploitability check under `out_dir/<table>`."""
    out = Path(out_dir)
    planned = spec.checks()
    if not check_out_dir(spec, out):
        store.write_study_record(out, LANDSCAPE_FILE, spec.to_json())
    frames = {}
    for table, check in planned:
        result = exploit.run_exploit(check, out / store.spec_dir_name(table), jobs, progress,
                                     backend, scheduler)
        frames.update({(style, table): frame for style, frame in result.frames.items()})
    return LandscapeResult(spec, frames, out)


def load_landscape(out_dir: str | os.PathLike) -> LandscapeResult:
    """A finished landscape read back from its directory."""
    out = Path(out_dir)
    spec = read_spec(out)
    frames = {}
    for table in spec.styles:
        result = exploit.load_exploit(out / store.spec_dir_name(table))
        frames.update({(style, table): frame for style, frame in result.frames.items()})
    return LandscapeResult(spec, frames, out)


# --------------------------------------------------------------------------------------------
# Reading a landscape
# --------------------------------------------------------------------------------------------


@dataclass
class Analysis:
    """Everything the landscape's outputs say, with p-values adjusted in one family."""

    spec: LandscapeSpec
    land: metagame.Landscape
    cells: pd.DataFrame  # metagame.adjusted
    solutions: metagame.Solutions
    alpharank: pd.DataFrame  # metagame.mixture_table, column `mass`
    nash: pd.DataFrame  # metagame.mixture_table, column `nash`
    family_note: str

    def verdicts(self) -> list[verdicts.Verdict]:
        """Dominance (with the Nash support), every significant cycle, α-Rank's top."""
        styles = self.land.styles
        replicates = self.solutions.replicates
        return [verdicts.dominance(self.cells, styles, self.nash, replicates),
                *verdicts.strategy_cycles(self.cells, styles),
                verdicts.alpharank_top(self.alpharank, self.solutions.alpha,
                                       self.solutions.population, replicates)]

    def lines(self) -> list[str]:
        return [v.text() for v in self.verdicts()] + [self.family_note]

    def matrix(self) -> pd.DataFrame:
        """The ratios as a frame: rows the lone seat's style, columns the table's."""
        styles = self.land.styles
        return pd.DataFrame(self.land.matrix(), index=pd.Index(styles, name="style"),
                            columns=styles)


def analyse(result: LandscapeResult, p_adjusted: Sequence[float] | None = None,
            family: str = "") -> Analysis:
    """The matrix, its cells' tests (Holm over the cells, or `p_adjusted` from an output's
    family, named by `family`), α-Rank and Nash with their bootstrap over deals."""
    spec = result.spec
    land = metagame.landscape(result.frames, spec.styles, spec.players)
    return _read(spec, land, metagame.solve(land, spec.bootstrap, spec.seed), p_adjusted,
                 family)


def _read(spec: LandscapeSpec, land: metagame.Landscape, solutions: metagame.Solutions,
          p_adjusted: Sequence[float] | None, family: str) -> Analysis:
    cells = metagame.adjusted(land.cells, p_adjusted)
    members = family or f"the {len(cells)} cells of this landscape"
    note = (f"p-values adjusted with Holm over {members} (each lone seat's share against "
            f"the fair share); 'significant' means adjusted p < {verdicts.ALPHA:g}; "
            f"intervals 95%, clustered by deal; α-Rank and Nash intervals are 95% bootstrap "
            f"percentiles over {solutions.replicates:,} resamplings of the deals.")
    return Analysis(spec, land, cells, solutions,
                    metagame.mixture_table(land.styles, solutions.alpharank,
                                           solutions.alpharank_boot, "mass"),
                    metagame.mixture_table(land.styles, solutions.nash,
                                           solutions.nash_boot, "nash"), note)


def family_rows(analyses: Sequence[Analysis]) -> pd.DataFrame:
    """Every cell of several landscapes as members of an output's family (`findings.family`
    `extra`): kind "landscape", `landscape` and `row` locate the cell."""
    rows = [{"kind": "landscape", "subject": f"{r['style']} at {r['table']}'s table",
             "landscape": i, "row": j, "p_value": r["p_value"]}
            for i, a in enumerate(analyses) for j, r in enumerate(a.cells.to_dict("records"))]
    return pd.DataFrame(rows, columns=["kind", "subject", "landscape", "row", "p_value"])


def readjusted(analyses: Sequence[Analysis], tests: pd.DataFrame) -> list[Analysis]:
    """The landscapes read again with their cells' p adjusted in the output's family `tests`
    (`family_rows` members; the matrix and the bootstrap are kept)."""
    members = tests[tests["kind"] == "landscape"] if len(tests) else tests
    size = int(tests["tests"].iloc[0]) if len(tests) else 0
    out = []
    for i, analysis in enumerate(analyses):
        mine = members[members["landscape"] == i].sort_values("row") if len(members) else members
        if len(mine) != len(analysis.cells):
            out.append(analysis)
            continue
        out.append(_read(analysis.spec, analysis.land, analysis.solutions,
                         mine["p_adjusted"].to_numpy(), f"the report's {size} tests"))
    return out


# --------------------------------------------------------------------------------------------
# Experiment files
# --------------------------------------------------------------------------------------------

#: The keys of a `[[landscape]]` table, with what each holds (`tables.check_table`).
TABLE_KEYS: tables.Schema = {
    "label": ("a non-empty string", tables.Text), "game": ("one game's name", str),
    "players": ("an integer", int), "styles": ("a list of bot specs", list[tables.Text]),
    "games": ("an integer", int), "rules": ("a table of rule options", dict),
    "bootstrap": ("an integer", int),
}


def from_table(table: Any, where: str, out_dir: Path, seed: int, default_games: int,
               override: int | None, scale: float) -> tuple[Path, LandscapeSpec]:
    """A `[[landscape]]` table of an experiment file as (directory, spec), validated.

    ```toml
    [[landscape]]
    game = "tabula-rasa"
    players = 3                    # default: the game's default
    styles = ["heuristic", "heuristic:v1", "heuristic:v2"]   # default: the shipped styles
    games = 300                    # per cell
    ```
    """
    def fail(message: str) -> BadInput:
        return BadInput(f"{where}: {message}")

    name = tables.table_game(table, where, TABLE_KEYS)
    try:
        game = get_game(name)
    except KeyError as exc:
        raise fail(str(exc)) from None
    players = table.get("players", game.players_default)
    styles = table.get("styles", list(shipped_styles(name)))
    games = table.get("games", default_games)
    bootstrap = table.get("bootstrap", metagame.BOOTSTRAP)
    rules = table.get("rules", {})
    games = override if override is not None else max(1, math.ceil(games * scale))
    spec = LandscapeSpec(game=name, players=players, games=games, seed=seed,
                         styles=tuple(styles), rules={k: str(v) for k, v in rules.items()},
                         bootstrap=bootstrap)
    try:
        spec.checks()
    except (BadInput, ValueError) as exc:
        raise fail(str(exc)) from None
    label = table.get("label") or f"landscape-{players}p"
    return out_dir / store.spec_dir_name(name) / store.spec_dir_name(str(label)), spec
