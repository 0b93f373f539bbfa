"""What compensation fixes a seat edge: a racing search over `seat_bonus` vectors.

Every game has a `seat_bonus=b1,b2,...` variant (points, starting honour, chips or cards: the
game's `bonus_unit`).  The candidates are bonus vectors in steps of `unit` up to `steps` steps;
with the default `shape="monotone"` seat 1 gets nothing and each later seat at least as much as
the seat before it (b1 = 0 <= b2 <= ... <= bn: the usual form of a turn-order compensation), with
`shape="any"` every vector whose smallest bonus is 0.  The search is the balance search's
successive halving on shared deals (`analysis.run.search`), minimising the largest |seat edge|.

The answer is read with the verdict layer's balance rule: a candidate is within the tolerance
only when every seat's Wilson interval lies within ×tolerance of the fair share
(`analysis.stats.verdicts.equivalence`).  The smallest compensation is the candidate within the
tolerance with the least total bonus (then the smallest largest bonus).  Successive halving
plays a candidate it drops early on fewer games, so its intervals are wider; `verify` plays
every candidate cheaper than the answer on the finalists' deals, which makes "smallest" an
exhaustive claim over the candidates.  The candidates tied with the answer are those whose
paired difference in the objective from it is not significant (Holm).
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
#: Largest tolerance (a multiple of the fair share) a search may read its answer with.
MAX_TOLERANCE = 10.0


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
    tolerance: float = verdicts.TOLERANCE

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
                       tolerance=float(data["tolerance"]))
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
    if not 1 < spec.tolerance <= MAX_TOLERANCE:
        raise BadInput(f"--tolerance must be above 1 and at most {MAX_TOLERANCE:g} (a multiple "
                       f"of the fair share), got {spec.tolerance:g}")
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
    candidates: pd.DataFrame  # per candidate: bonus, games, objective, inside, verdict text
    smallest: str | None  # the cheapest bonus within the tolerance (None: no candidate is)
    answer: str  # the candidate the ties are measured against: smallest, else best
    tied: list[str]  # finalists tied with the answer
    tie_verdict: verdicts.Verdict
    #: Candidates cheaper than the answer that played fewer games than it (not yet verified).
    unverified: list[str] = field(default_factory=list)
    #: Games played to verify that no cheaper candidate is within the tolerance.
    verify_games: int = 0

    @property
    def unit_name(self) -> str:
        return bonus_unit(get_game(self.spec.game).Rules)

    def lines(self) -> list[str]:
        s, r = self.spec, self.result
        rules = ",".join(f"{k}={v}" for k, v in s.rules.items()) or "printed rules"
        tolerance = verdicts.tolerance_text(1 / s.players, s.tolerance)
        out = [f"{s.game} {s.players}p · line-up {', '.join(s.bots)} (rotated over seats) · "
               f"base: {rules} · seat_bonus in {self.unit_name}, steps of {s.unit} up to "
               f"{s.unit * s.steps}, shape {s.shape} · {len(s.vectors())} candidates · seed "
               f"{s.seed}"]
        none = self.candidates[self.candidates["bonus"] == ",".join(["0"] * s.players)]
        if len(none):
            row = none.iloc[0]
            played = ("on the finalists' deals" if row["finalist"]
                      else "dropped by the race")
            out.append(f"without compensation ({int(row['games'])} games, {played}): "
                       f"{row['verdict']}" + (f" ({row['planning']}: a smaller real edge "
                                              "may be left)" if row["planning"] else ""))
        best = self.candidates.iloc[0]
        out.append(f"least largest seat edge: seat_bonus={best['bonus']} — "
                   f"{100 * best['objective']:.1f} points [{100 * best['ci_low']:.1f}, "
                   f"{100 * best['ci_high']:.1f}] over {int(best['games'])} games; "
                   f"{best['verdict']}")
        cheaper = self.cheaper(self.smallest) if self.smallest is not None else []
        if self.smallest is not None:
            row = self.candidates.set_index("bonus").loc[self.smallest]
            if self.unverified:
                proof = (f"the smallest among the candidates played on all "
                         f"{int(row['games']):,} deals: {len(self.unverified)} of the "
                         f"{len(cheaper)} cheaper candidates were dropped by the race on fewer "
                         "games and not rechecked (drop --no-verify to check them)")
            elif cheaper:
                proof = (f"minimal: each of the {len(cheaper)} cheaper candidates (less total "
                         f"bonus, then a smaller largest bonus) was played on the same "
                         f"{int(row['games']):,} deals and has a seat interval outside the "
                         "tolerance")
            else:
                proof = "minimal: no candidate is cheaper"
            out.append(f"smallest compensation within the tolerance {tolerance}: "
                       f"seat_bonus={self.smallest} ({self.unit_name}; use it as --rule "
                       f"seat_bonus={self.smallest}) — {row['verdict']} over "
                       f"{int(row['games'])} games; {proof}")
        answer = "seat_bonus=" + _label(self.answer)
        finalists = int(self.candidates["finalist"].sum())
        out.append(self.tie_verdict.claim.replace(
            "tied with the best:",
            f"tied with {answer} in its largest seat edge (paired by deal, Holm over the "
            f"{finalists - 1} other candidates played on every deal):"))
        if self.smallest is None:
            dropped = int((~self.candidates["finalist"]).sum())
            out.append(f"no candidate played on every deal is within the tolerance {tolerance} "
                       f"(every seat's interval inside); {dropped} candidates were dropped by "
                       "the race on fewer games: a larger --budget narrows the intervals, a "
                       "larger --steps tries more")
        spent = f"games spent: {r.games_spent:,} of a budget of {s.budget:,}"
        if self.verify_games:
            spent += (f", and {self.verify_games:,} more verifying that no cheaper candidate is "
                      "within the tolerance")
        out.append(spent)
        return out

    def cheaper(self, bonus: str) -> list[str]:
        """The candidates (bonus labels) cheaper than `bonus`: less total bonus, then a
        smaller largest bonus."""
        table = self.candidates.set_index("bonus")
        key = (table.at[bonus, "total"], table.at[bonus, "largest"])
        return [b for b, row in table.iterrows() if (row["total"], row["largest"]) < key]

    def to_verify(self) -> list[str]:
        """The candidate names `verify` would complete: every candidate cheaper than the
        answer found so far (or than any candidate, without one) that played fewer games
        than the finalists."""
        table = self.candidates.set_index("bonus")
        pool = self.cheaper(self.smallest) if self.smallest is not None else []
        return [str(table.at[b, "candidate"]) for b in pool if not table.at[b, "finalist"]]

    def games_to_verify(self) -> int:
        """The games `verify` plays (for a progress bar)."""
        plan = self.spec.search_spec()
        return sum(games for name in self.to_verify()
                   for _, games in search.missing_games(plan, len(self.result.tables[name])))


def _label(name: str) -> str:
    return name.removeprefix("seat_bonus=")


def read(spec: CompensateSpec, result: search.SearchResult) -> Compensation:
    """Per candidate, on the games it played (a candidate dropped early played fewer, so its
    intervals are wider): seat intervals and the balance verdict; the smallest compensation
    within the tolerance among the candidates played on every deal; the candidates tied with
    it (or with the least largest seat edge, without one); which cheaper candidates are not
    yet verified."""
    full = max(len(table) for table in result.tables.values())
    rows = []
    for name, table in result.tables.items():
        verdict = verdicts.equivalence(_units(explain.seat_edges(table), spec.players),
                                       spec.tolerance)
        value, _, low, high, _ = search.objective(table, "seat_edge")
        bonus = _label(name)
        vector = [int(x) for x in bonus.split(",")]
        rows.append({"candidate": name, "bonus": bonus, "total": sum(vector),
                     "largest": max(vector), "games": len(table), "objective": value,
                     "ci_low": low, "ci_high": high,
                     "inside": bool(verdict.numbers.get("inside", 0.0)),
                     "verdict": verdict.claim, "planning": verdict.planning
                     if verdicts.balance_category(verdict) == "balanced" else ""})
    candidates = pd.DataFrame(rows)
    candidates["finalist"] = candidates["games"] == full
    candidates = candidates.sort_values(["finalist", "objective"], ascending=[False, True])
    candidates = candidates.reset_index(drop=True)
    inside = candidates[candidates["inside"] & candidates["finalist"]].sort_values(
        ["total", "largest", "objective"])
    smallest = str(inside["bonus"].iloc[0]) if len(inside) else None
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
    found = Compensation(spec, result, candidates, smallest, answer, tied, tie_verdict)
    found.unverified = found.to_verify()
    return found


def verify(spec: CompensateSpec, found: Compensation, out_dir: str | Path, jobs: int = 1,
           progress: Callable[[int], None] | None = None, backend: str = "loky",
           scheduler: str | None = None) -> Compensation:
    """Play every candidate cheaper than the answer on the finalists' deals (the rounds the
    race dropped it before; resumable, in `out_dir/search`) and read the search again: the
    answer is then the cheapest candidate within the tolerance over all cheaper ones, not only
    among those the race kept."""
    names = found.to_verify()
    if not names:
        return found
    games = found.games_to_verify()
    result = search.complete(spec.search_spec(), found.result, names, Path(out_dir) / "search",
                             jobs, progress, backend, scheduler)
    again = read(spec, result)
    again.verify_games = games
    return again


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
    line: the smallest compensation within the tolerance, and the candidate with the least
    largest edge when it differs.  The search chose them on its own deals (a borderline pick
    is favoured by its luck there), so only fresh deals say whether they hold."""
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
        verdict = verdicts.equivalence(_units(edges, spec.players), spec.tolerance)
        lines.append(f"replayed on {games:,} fresh deals: seat_bonus={bonus} — "
                     f"{verdict.claim}")
    return lines


def _units(edges: pd.DataFrame, n: int) -> pd.DataFrame:
    """`explain.seat_edges` rows as the verdict layer's units (shares, not edges), each
    p Holm-adjusted over the seats of one candidate (one balance verdict, one family)."""
    return pd.DataFrame({"seats": [f"seat {s + 1}" for s in edges["seat"]],
                         "win_share": edges["win_share"], "ci_low": edges["ci_low"] + 1 / n,
                         "ci_high": edges["ci_high"] + 1 / n, "fair": 1 / n,
                         "mde": balance.minimum_detectable_effect(edges["games"], 1 / n),
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
