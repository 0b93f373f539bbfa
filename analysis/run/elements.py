"""Play the elements study of a game: which card, skill or action is too strong or useless.

For each element (`engines.elements`) a duplicate comparison (`analysis.run.compare`, as
`exploit` plays its deviators): one seat of `BOT:forbid=ELEMENT` against unrestricted copies
of `BOT`, the restricted seat taking every seat once per deal; one unrestricted baseline run
on the same deals (the same run seed: game i has the same seed in every run); and, where the
element can be taken out of the game (`Element.removal`), a run of the game without it.
Layout: `OUT/elements.json` (the spec: a re-run with the same spec resumes, another is
refused), `OUT/baseline`, `OUT/<element>/perm-NN`, `OUT/removal-<element>`.  The statistics
are `analysis.stats.elements`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.run import compare, tables, tournament
from analysis.stats import elements as stats
from engines import get_game
from engines.bots import parse_spec, restricted_spec
from engines.elements import Element, find
from engines.errors import BadInput

ELEMENTS_FILE = "elements.json"
BASELINE = "baseline"


@dataclass(frozen=True, kw_only=True)
class ElementsSpec:
    """One elements study: every element of `elements` forbidden in turn to one seat of `bot`."""

    game: str
    players: int
    games: int  # per element, rounded up to whole deals x seats
    seed: int
    bot: str = "heuristic"
    elements: tuple[str, ...] = ()
    rules: dict[str, str] = field(default_factory=dict)
    tolerance: float = stats.TOLERANCE

    @property
    def deals(self) -> int:
        return max(1, math.ceil(self.games / self.players))

    def chosen(self) -> list[Element]:
        """The elements studied, each checked against the game's declaration."""
        game = get_game(self.game)
        if not game.elements:
            raise BadInput(f"{self.game} declares no elements (engines/<game>/elements.py)")
        if not self.elements:
            raise BadInput("give at least one element")
        found = [find(game, ident) for ident in self.elements]
        if len({e.id for e in found}) != len(found):
            raise BadInput("--elements names an element twice")
        return found

    def check(self) -> None:
        """Everything a worker would trip over, before any game: game, players, games,
        tolerance, the bot, the elements, the rules (each run's spec is validated too)."""
        get_game(self.game).check_players(self.players)
        if self.games <= 0:
            raise BadInput(f"--games must be positive, got {self.games}")
        if not self.tolerance > 1.0:
            raise BadInput(f"--tolerance must be above 1 (a multiple of the fair share), got "
                           f"{self.tolerance}")
        if "forbid" in parse_spec(self.bot)[2]:
            raise BadInput(f"--bot {self.bot} is already restricted; give the bot without "
                           "forbid=")
        self.chosen()
        self.baseline().validated()
        for _, spec in self.comparisons():
            spec.run_specs()
        for _, spec in self.removals():
            spec.validated()

    def restricted_bot(self, element: Element) -> str:
        return restricted_spec(self.bot, element.id)

    def baseline(self) -> tournament.RunSpec:
        """Every seat unrestricted, on the comparisons' deals."""
        return tournament.RunSpec(game=self.game, players=self.players, games=self.deals,
                                  bots=(self.bot,) * self.players, seed=self.seed,
                                  rules=dict(self.rules), rotate=False)

    def comparisons(self) -> list[tuple[Element, compare.CompareSpec]]:
        """(element, its duplicate comparison: the restricted seat in every seat per deal)."""
        return [(e, compare.CompareSpec(game=self.game, players=self.players,
                                        games=self.deals * self.players,
                                        bots=(self.restricted_bot(e), self.bot),
                                        seed=self.seed, rules=dict(self.rules)))
                for e in self.chosen()]

    def removals(self) -> list[tuple[Element, tournament.RunSpec]]:
        """(element, the game without it) for each element that can be removed here."""
        return [(e, tournament.RunSpec(game=self.game, players=self.players, games=self.deals,
                                       bots=(self.bot,) * self.players, seed=self.seed,
                                       rules={**self.rules, **e.removal}, rotate=False))
                for e in self.chosen() if not self.removal_note(e)]

    def removal_note(self, element: Element) -> str:
        """Why the element is not removed in this study ('' when it is)."""
        if not element.removal:
            return element.note or "no removal declared for this element"
        if any(key == "components" or key.startswith("components.") for key in self.rules):
            return ("not played: the removal replaces the component data your --rule options "
                    "set")
        return ""

    def total_games(self) -> int:
        per = self.deals * self.players
        return self.deals + per * len(self.chosen()) + self.deals * len(self.removals())

    def to_json(self) -> dict[str, Any]:
        return {"format": "elements", "game": self.game, "players": self.players,
                "games": self.games, "seed": self.seed, "bot": self.bot,
                "elements": list(self.elements), "rules": dict(self.rules),
                "tolerance": self.tolerance}


def from_json(data: dict[str, Any]) -> ElementsSpec:
    return ElementsSpec(game=data["game"], players=data["players"], games=data["games"],
                        seed=data["seed"], bot=data["bot"], elements=tuple(data["elements"]),
                        rules=dict(data["rules"]), tolerance=data["tolerance"])


def check_out_dir(spec: ElementsSpec, out: Path) -> bool:
    """New, empty, or an earlier attempt at the same study (which is then finished)."""
    return store.check_study_dir(out, ELEMENTS_FILE, spec.to_json(), "elements study")


@dataclass
class ElementsResult:
    spec: ElementsSpec
    baseline: pd.DataFrame
    restricted: dict[str, pd.DataFrame]  # element id -> its comparison's frame
    removals: dict[str, pd.DataFrame]  # element id -> the game without it
    out_dir: Path

    def raw(self) -> pd.DataFrame:
        """Every estimate and raw p, nothing decided (`analysis.stats.elements.raw_table`)."""
        spec = self.spec
        chosen = spec.chosen()
        return stats.raw_table(chosen, self.baseline, self.restricted,
                               {e.id: spec.restricted_bot(e) for e in chosen}, spec.players,
                               spec.tolerance, self.removals,
                               {e.id: spec.removal_note(e) for e in chosen})

    def table(self) -> tuple[pd.DataFrame, Any]:
        """The ranked table decided in the study's own Holm family, and the family."""
        raw = self.raw()
        family = stats.family_of(raw)
        return stats.decide(raw, family.adjusted), family

    def head(self) -> str:
        """What the study played, in one line."""
        spec = self.spec
        return (f"{spec.game} {spec.players}p · each element forbidden to one seat of "
                f"{spec.bot} against {spec.players - 1} x {spec.bot} · {spec.deals:,} deals, "
                f"the restricted seat in every seat of each · seed {spec.seed}")


def run_elements(spec: ElementsSpec, out_dir: str | os.PathLike, jobs: int = -1,
                 progress: Callable[[int], None] | None = None, backend: str = "loky",
                 scheduler: str | None = None) -> ElementsResult:
    """Play (or finish) the baseline, every element's comparison and removal under `out_dir`."""
    out = Path(out_dir)
    spec.check()
    if not check_out_dir(spec, out):
        store.write_study_record(out, ELEMENTS_FILE, spec.to_json())
    baseline = tournament.run_or_resume(spec.baseline(), out / BASELINE, jobs, progress,
                                        backend, scheduler).frame
    restricted = {e.id: compare.run_duplicate(cmp, out / e.id, jobs, progress, backend,
                                              scheduler).frame
                  for e, cmp in spec.comparisons()}
    removals = {e.id: tournament.run_or_resume(run, out / f"removal-{e.id}", jobs, progress,
                                               backend, scheduler).frame
                for e, run in spec.removals()}
    return ElementsResult(spec, baseline, restricted, removals, out)


def load_elements(out_dir: str | os.PathLike) -> ElementsResult:
    """A finished study read back from its directory."""
    out = Path(out_dir)
    spec = store.read_study_record(out, ELEMENTS_FILE, "elements study", from_json)
    chosen = spec.chosen()
    restricted = {e.id: store.load_runs(sorted(p for p in (out / e.id).glob("perm-*")
                                               if p.is_dir())) for e in chosen}
    removals = {e.id: store.load_run(out / f"removal-{e.id}") for e, _ in spec.removals()}
    return ElementsResult(spec, store.load_run(out / BASELINE), restricted, removals, out)


def default_spec(game_name: str, players: int | None, games: int, seed: int,
                 bot: str = "heuristic", elements: tuple[str, ...] | None = None,
                 rules: dict[str, str] | None = None, tolerance: float = stats.TOLERANCE
                 ) -> ElementsSpec:
    """The spec the CLI builds: the game's default player count and every declared element."""
    game = get_game(game_name)
    return ElementsSpec(game=game_name,
                        players=game.players_default if players is None else players,
                        games=games, seed=seed, bot=bot,
                        elements=tuple(find(game, e).id for e in elements)
                        if elements is not None else tuple(e.id for e in game.elements),
                        rules=dict(rules or {}), tolerance=tolerance)


#: The keys of an `[[elements]]` table, with what each holds (`tables.check_table`).
TABLE_KEYS: tables.Schema = {
    "label": ("a non-empty string", tables.Text), "game": ("one game's name", str),
    "players": ("an integer", int), "bot": ("a bot spec", tables.Text),
    "games": ("a positive integer", int),
    "elements": ("a list of element names", list[tables.Text]),
    "rules": ("a table of rule options", dict), "tolerance": ("a number", int, float),
}


def from_table(table: Any, where: str, out_dir: Path, seed: int, default_games: int,
               override: int | None, scale: float) -> tuple[Path, ElementsSpec]:
    """An `[[elements]]` table of an experiment file as (directory, spec), validated.

    ```toml
    [[elements]]
    game = "ivanhoe"
    players = 4                    # default: the game's default
    bot = "heuristic"              # the bot of every seat
    elements = ["riposte", "unhorse"]   # default: every element the game declares
    games = 1000                   # per element
    tolerance = 1.1                # a multiple of the fair share
    ```
    """
    name = tables.table_game(table, where, TABLE_KEYS)
    try:
        game = get_game(name)
        chosen = table.get("elements")
        count = tables.positive_int(table.get("games", default_games), "games")
        count = override if override is not None else max(1, math.ceil(count * scale))
        rules = table.get("rules", {})
        tolerance = table.get("tolerance", stats.TOLERANCE)
        spec = default_spec(name, table.get("players", game.players_default), count, seed,
                            str(table.get("bot", "heuristic")),
                            None if chosen is None else tuple(chosen),
                            {k: str(v) for k, v in rules.items()}, float(tolerance))
        spec.check()
    except ValueError as exc:  # BadInput, an unknown game among them
        raise BadInput(f"{where}: {exc}") from None
    label = table.get("label") or f"elements-{name}-{spec.players}p"
    return out_dir / store.spec_dir_name(str(label)), spec
