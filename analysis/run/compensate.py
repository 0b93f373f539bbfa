"""What compensation fixes a seat edge: a racing search over `seat_bonus` vectors.

Every game has a `seat_bonus=b1,b2,...` variant (points, starting honour, chips or cards: the
game's `bonus_unit`).  The candidates are bonus vectors in steps of `unit` up to `steps` steps;
with the default `shape="monotone"` seat 1 gets nothing and each later seat at least as much as
the seat before it (b1 = 0 <= b2 <= ... <= bn: the usual form of a turn-order compensation), with
`shape="any"` every vector whose smallest bonus is 0.  The search is the balance search's
successive halving on shared deals (`analysis.run.search`), minimising the largest |seat edge|.

The answer is read with the verdict layer's equivalence rule: a candidate is "balanced within
±X points" only when every seat's interval lies within ±X points of the fair share
(`analysis.stats.verdicts.equivalence`).  The smallest compensation is the balanced candidate
with the least total bonus (then the smallest largest bonus); the candidates tied with the best
are those whose paired difference in the objective from the best is not significant (Holm).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.run import explain, search, tournament
from analysis.stats import balance, verdicts
from engines import get_game
from engines.core import bonus_unit
from engines.errors import BadInput

SHAPES = ("monotone", "any")
#: The spec of a compensation search, beside its `search/` directory (for `--resume`).
SPEC_FILE = "compensate.json"
#: Most candidates a search may have (successive halving needs >= 10 games each per round).
MAX_CANDIDATES = 400


@dataclass(frozen=True)
class CompensateSpec:
    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    budget: int
    rules: dict[str, Any] = field(default_factory=dict)
    unit: int = 1
    steps: int = 4
    shape: str = "monotone"
    margin: float = verdicts.MARGIN

    def vectors(self) -> list[tuple[int, ...]]:
        """Every candidate bonus vector, the no-compensation one first."""
        if self.unit < 1:
            raise BadInput(f"--unit must be a positive whole number, got {self.unit}")
        if self.steps < 1:
            raise BadInput(f"--steps must be at least 1, got {self.steps}")
        if self.shape not in SHAPES:
            raise BadInput(f"--shape must be one of {', '.join(SHAPES)}, got {self.shape!r}")
        levels = range(self.steps + 1)
        n = self.players
        # counted before they are listed: --steps 1000000 would list 10**12 vectors
        count = (math.comb(self.steps + n - 1, n - 1) if self.shape == "monotone"
                 else (self.steps + 1) ** n - self.steps ** n)
        if count > MAX_CANDIDATES:
            raise BadInput(f"{count:,} candidate bonus vectors is too many (at most "
                             f"{MAX_CANDIDATES}); lower --steps or use --shape monotone")
        if self.shape == "monotone":
            out = [(0, *rest) for rest in itertools.combinations_with_replacement(levels, n - 1)]
        else:
            out = [v for v in itertools.product(levels, repeat=n) if min(v) == 0]
        out = sorted(out, key=lambda v: (sum(v), max(v), v))
        return [tuple(self.unit * x for x in v) for v in out]

    def least_budget(self) -> int:
        """The fewest games successive halving over these candidates can be run with."""
        count = len(self.vectors())
        return max(1, math.ceil(math.log2(count))) * search.MIN_ROUND_GAMES * count

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["bots"] = list(self.bots)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CompensateSpec:
        try:
            return cls(game=data["game"], players=int(data["players"]),
                       bots=tuple(data["bots"]), seed=int(data["seed"]),
                       budget=int(data["budget"]), rules=dict(data.get("rules", {})),
                       unit=int(data["unit"]), steps=int(data["steps"]), shape=data["shape"],
                       margin=float(data["margin"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise store.RunError(f"{SPEC_FILE} lacks a valid field: {exc}") from None

    def search_spec(self) -> search.SearchSpec:
        if "seat_bonus" in self.rules:
            raise BadInput("the base rules already set seat_bonus; compensate searches it")
        values = tuple(",".join(map(str, v)) for v in self.vectors())
        return search.SearchSpec(self.game, self.players, self.bots, self.seed,
                                 (("seat_bonus", values),), "seat_edge", self.budget,
                                 dict(self.rules))


def validated(spec: CompensateSpec) -> search.SearchSpec:
    """Check everything before any game is played (and return the search behind it)."""
    game = get_game(spec.game)
    game.check_players(spec.players)
    if not bonus_unit(game.Rules):
        raise BadInput(f"{spec.game} has no seat_bonus option to compensate with")
    if not 0 < spec.margin < 1:
        raise BadInput(f"--margin must be between 0 and 100 points, got {100 * spec.margin}")
    if spec.budget <= 0:
        raise BadInput(f"--budget must be positive, got {spec.budget}")
    plan = spec.search_spec()
    plan.rounds()  # a budget too small for the candidates fails here
    for values in (plan.vary[0][1][0], plan.vary[0][1][-1]):
        tournament.RunSpec(game=spec.game, players=spec.players, games=1, bots=spec.bots,
                           seed=spec.seed, rules={**spec.rules, "seat_bonus": values}).validated()
    return plan


@dataclass
class Compensation:
    """The search and its reading."""

    spec: CompensateSpec
    result: search.SearchResult
    candidates: pd.DataFrame  # per finalist: bonus, games, objective, balanced, verdict text
    smallest: str | None  # the smallest balanced bonus (None: no candidate is balanced)
    answer: str  # the candidate the ties are measured against: smallest balanced, else best
    tied: list[str]  # finalists tied with the answer
    tie_verdict: verdicts.Verdict

    @property
    def unit_name(self) -> str:
        return bonus_unit(get_game(self.spec.game).Rules)

    def lines(self) -> list[str]:
        s, r = self.spec, self.result
        rules = ",".join(f"{k}={v}" for k, v in s.rules.items()) or "printed rules"
        out = [f"{s.game} {s.players}p · line-up {', '.join(s.bots)} (rotated over seats) · "
               f"base: {rules} · seat_bonus in {self.unit_name}, steps of {s.unit} up to "
               f"{s.unit * s.steps}, shape {s.shape} · {len(s.vectors())} candidates · seed "
               f"{s.seed}"]
        none = self.candidates[self.candidates["bonus"] == ",".join(["0"] * s.players)]
        if len(none):
            row = none.iloc[0]
            played = ("kept to the last round" if row["finalist"]
                      else "dropped by the race")
            out.append(f"without compensation ({int(row['games'])} games, {played}): "
                       f"{row['verdict']}")
        best = self.candidates.iloc[0]
        out.append(f"least largest seat edge: seat_bonus={best['bonus']} — "
                   f"{100 * best['objective']:.1f} points [{100 * best['ci_low']:.1f}, "
                   f"{100 * best['ci_high']:.1f}] over {int(best['games'])} games; "
                   f"{best['verdict']}")
        if self.smallest is not None:
            row = self.candidates.set_index("bonus").loc[self.smallest]
            out.append(f"smallest compensation balanced within ±{100 * s.margin:.0f} points: "
                       f"seat_bonus={self.smallest} ({self.unit_name}; use it as --rule "
                       f"seat_bonus={self.smallest}) — {row['verdict']} over "
                       f"{int(row['games'])} games")
        answer = "seat_bonus=" + _label(self.answer)
        finalists = int(self.candidates["finalist"].sum())
        out.append(self.tie_verdict.claim.replace(
            "tied with the best:",
            f"tied with {answer} in its largest seat edge (paired by deal, Holm over the "
            f"{finalists - 1} other candidates of the last round):"))
        if self.smallest is None:
            out.append(f"no candidate is balanced within ±{100 * s.margin:.0f} points by the "
                       "equivalence rule (every seat's interval inside) on the games it played: "
                       "a larger --budget narrows the intervals, a larger --steps tries more")
        out.append(f"games spent: {r.games_spent:,} of a budget of {s.budget:,}")
        return out


def _label(name: str) -> str:
    return name.removeprefix("seat_bonus=")


def read(spec: CompensateSpec, result: search.SearchResult) -> Compensation:
    """Per candidate, on the games it played (a candidate dropped early played fewer, so its
    intervals are wider): seat intervals and the equivalence verdict; the smallest balanced
    compensation; the candidates tied with the best (least largest seat edge among those that
    played every round)."""
    full = int(result.table["games"].max())
    rows = []
    for name, table in result.tables.items():
        verdict = verdicts.equivalence(_units(explain.seat_edges(table), spec.players),
                                       spec.margin)
        value, _, low, high, _ = search.objective(table, "seat_edge")
        bonus = _label(name)
        vector = [int(x) for x in bonus.split(",")]
        rows.append({"candidate": name, "bonus": bonus, "total": sum(vector),
                     "largest": max(vector), "games": len(table), "objective": value,
                     "ci_low": low, "ci_high": high,
                     "balanced": bool(verdict.numbers.get("balanced", 0.0)),
                     "verdict": verdict.claim})
    candidates = pd.DataFrame(rows)
    candidates["finalist"] = candidates["games"] == full
    candidates = candidates.sort_values(["finalist", "objective"], ascending=[False, True])
    candidates = candidates.reset_index(drop=True)
    balanced = candidates[candidates["balanced"]].sort_values(["total", "largest", "objective"])
    smallest = str(balanced["bonus"].iloc[0]) if len(balanced) else None
    best = str(candidates["candidate"].iloc[0])
    answer = best if smallest is None else f"seat_bonus={smallest}"
    differences = []
    finalists = candidates[candidates["finalist"]]["candidate"]
    for name in finalists[finalists != answer]:
        d, low, high, p = search.objective_difference(result.tables[answer],
                                                      result.tables[name], "seat_edge")
        if not math.isnan(d):
            differences.append({"candidate": name, "effect": d, "ci_low": low,
                                "ci_high": high, "p": p})
    tied, tie_verdict = verdicts.ties_with_best(
        pd.DataFrame(differences, columns=["candidate", "effect", "ci_low", "ci_high", "p"]),
        answer, label=lambda name: "seat_bonus=" + _label(name))
    return Compensation(spec, result, candidates, smallest, answer, tied, tie_verdict)


def run_compensate(spec: CompensateSpec, out_dir: str | Path, jobs: int = 1,
                   progress: Callable[[int], None] | None = None, backend: str = "loky",
                   scheduler: str | None = None) -> Compensation:
    """Run (or resume: the rounds already on disk are reused) the search into
    `out_dir/search` and read it; `out_dir/compensate.json` records the spec."""
    plan = validated(spec)
    out = Path(out_dir)
    if not store.check_study_dir(out, SPEC_FILE, spec.to_json(), "compensation search",
                                 lambda data: CompensateSpec.from_json(data).to_json()):
        store.write_study_record(out, SPEC_FILE, spec.to_json())
    result = search.run_search(plan, out / "search", jobs, progress, backend, scheduler)
    return read(spec, result)


def replay(spec: CompensateSpec, found: Compensation, out_dir: str | Path, games: int,
           jobs: int = 1, progress: Callable[[int], None] | None = None,
           backend: str = "loky", scheduler: str | None = None) -> list[str]:
    """Play the answers on `games` fresh deals (the confirmation seed branch of the run seed,
    stored in `out_dir/replay/BONUS`, resumable) and give each one's balance verdict in one
    line: the smallest balanced compensation, and the candidate with the least largest edge
    when it differs.  The search chose them on its own deals (a borderline pick is favoured
    by its luck there), so only fresh deals say whether they hold."""
    best = _label(str(found.candidates["candidate"].iloc[0]))
    answers = list(dict.fromkeys([b for b in (found.smallest, best) if b is not None]))
    lines = []
    for bonus in answers:
        run = tournament.RunSpec(game=spec.game, players=spec.players, games=games, bots=spec.bots,
                                 seed=spec.seed,
                                 rules={**spec.rules, "seat_bonus": bonus},
                                 seed_branch=tournament.CONFIRM_BRANCH)
        result = tournament.run_or_resume(run, Path(out_dir) / "replay" / bonus, jobs,
                                          progress, backend, scheduler)
        edges = explain.seat_edges(explain.sweep.game_table(result.frame))
        verdict = verdicts.equivalence(_units(edges, spec.players), spec.margin)
        lines.append(f"replayed on {games:,} fresh deals: seat_bonus={bonus} — "
                     f"{verdict.claim}")
    return lines


def _units(edges: pd.DataFrame, n: int) -> pd.DataFrame:
    """`explain.seat_edges` rows as the verdict layer's units (shares, not edges), each
    p Holm-adjusted over the seats of one candidate (one balance verdict, one family)."""
    return pd.DataFrame({"seats": [f"seat {s + 1}" for s in edges["seat"]],
                         "win_share": edges["win_share"], "ci_low": edges["ci_low"] + 1 / n,
                         "ci_high": edges["ci_high"] + 1 / n, "fair": 1 / n,
                         "p_value": edges["p"],
                         "p_adjusted": balance.adjust_pvalues(edges["p"].to_numpy(), "holm")})


def read_spec(out_dir: str | Path) -> CompensateSpec:
    """The spec stored in a compensation directory."""
    path = Path(out_dir) / SPEC_FILE
    if not path.is_file():
        raise store.RunError(f"{out_dir} is not a compensation directory (no {SPEC_FILE})")
    try:
        return CompensateSpec.from_json(json.loads(path.read_text()))
    except json.JSONDecodeError as exc:
        raise store.RunError(f"{path} is corrupt: {exc}") from None
