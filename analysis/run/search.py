"""Racing search for the most balanced setting: successive halving on shared deals.

Every candidate (a combination of the `--vary` values) plays the same new deals in each
round (round r uses seed branch `SEARCH_BRANCH + r` of the run seed, the same for every
candidate), so candidates are compared game by game as in a sweep.  After each round the
worse half (by the objective, measured on all rounds so far) is dropped and the next round's
games go to the survivors: the budget is spent on the promising settings.  An exhaustive grid
of the same precision would have played every candidate as many games as the winner played.

Objectives (smaller is better): `first_edge` = |first-seat edge|; `seat_spread` = highest minus
lowest seat win share; `seat_edge` = the largest |seat edge| over the seats (the seat is the one
farthest from the fair share; `simulate compensate` minimises it); `source_share:NAME[=TARGET]`
= |share of points from NAME − TARGET| (default target: an equal share for every scoring
source).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.results import store
from analysis.run import sweep, tournament
from analysis.run.study import check_total
from analysis.stats import balance
from engines.errors import BadInput

#: Seed branches of search rounds (0 is the run's own stream, 1 confirmation runs).
SEARCH_BRANCH = 100
#: Fewest new games a surviving candidate plays in a round.
MIN_ROUND_GAMES = 10


def parse_objective(text: str) -> tuple[str, str, float | None]:
    """(kind, source, target) of `first_edge`, `seat_spread` or `source_share:NAME[=T]`."""
    if text in ("first_edge", "seat_spread", "seat_edge"):
        return text, "", None
    kind, _, rest = text.partition(":")
    if kind == "source_share" and rest:
        name, _, target = rest.partition("=")
        try:
            value = float(target) if target else None
        except ValueError:
            raise BadInput(f"--objective source_share:NAME=TARGET needs a number, got "
                             f"{target!r}") from None
        if value is not None and not 0 <= value <= 1:
            raise BadInput("--objective source_share target must be a share in 0..1")
        return kind, name, value
    raise BadInput(f"--objective must be first_edge, seat_spread, seat_edge or "
                   f"source_share:NAME, "
                     f"got {text!r}")


def check_objective(text: str, game_name: str, players: int, rules: dict[str, Any]) -> None:
    """Refuse an objective the games cannot measure, before any round is played: a
    `source_share:NAME` whose NAME is not one of the game's scoring sources (read from one
    random game's score breakdown under the base rules)."""
    from engines import get_game, play_game
    from engines.bots import make_bot

    kind, source, _ = parse_objective(text)
    if kind != "source_share":
        return
    game = get_game(game_name)
    record = play_game(game, [make_bot("random", game)] * players, 1, players, rules)
    if source not in record.breakdown:
        known = ", ".join(record.breakdown) or "none (the game reports no scoring sources)"
        raise BadInput(f"--objective {text}: no scoring source {source!r} in {game_name}; "
                       f"sources: {known}")


def objective(table: pd.DataFrame, spec: str, confidence: float = 0.95
              ) -> tuple[float, float, float, float, np.ndarray]:
    """(objective, statistic, ci_low, ci_high, per-game values of the statistic)."""
    kind, source, target = parse_objective(spec)
    if kind == "seat_edge":
        values = largest_seat_edge(table)
        fair = 1 / int(table["players"].iloc[0])
        farthest = _farthest_seat(table)
        share, low, high, _ = balance.share_interval(
            table[f"win_{farthest}"].to_numpy(dtype=float), fair, confidence)
        edge = abs(share - fair)
        bounds = sorted((abs(low - fair), abs(high - fair))) if (low - fair) * (high - fair) > 0 \
            else [0.0, max(abs(low - fair), abs(high - fair))]
        return edge, edge, bounds[0], bounds[1], values
    inf = sweep.influence(table)
    if kind == "source_share":
        key = f"share:{source}"
        if key not in inf:
            known = ", ".join(k[6:] for k in inf if k.startswith("share:"))
            raise BadInput(f"no scoring source {source!r}; sources: {known}")
        shares = [k for k in inf if k.startswith("share:")]
        target = 1 / len(shares) if target is None else target
    else:
        key = kind
    estimate, values = inf[key]
    _, low, high, _ = balance.mean_interval(values, confidence)
    value = abs(estimate - target) if kind == "source_share" else (
        abs(estimate) if kind == "first_edge" else estimate)
    return value, estimate, low, high, values


def halving_plan(count: int, budget: int, minimum: int = MIN_ROUND_GAMES) -> list[int]:
    """New games per surviving candidate in each round: ceil(log2(count)) rounds share the
    budget equally, each round's share split among the candidates still alive."""
    if count < 2:
        raise BadInput("--vary gives only one candidate; list at least two values")
    check_total(budget, "--budget")
    rounds = max(1, math.ceil(math.log2(count)))
    per_round = budget // rounds
    plan, alive = [], count
    for _ in range(rounds):
        plan.append(per_round // alive)
        alive = max(1, math.ceil(alive / 2))
    if min(plan) < minimum:
        need = rounds * minimum * count
        raise BadInput(f"--budget {budget} is too small for {count} candidates: "
                         f"successive halving needs at least {need} games")
    return plan


def race(names: list[str], plan: list[int], play: Callable[[str, int, int], int],
         score: Callable[[str], float]) -> tuple[list[str], int]:
    """Successive halving: in round r every surviving candidate plays `plan[r]` new games
    (`play(name, r, games)` returns the games it played), then the worse half by `score`
    (smaller is better, over all rounds so far) drops out.  Returns the last round's
    candidates best first, and the games spent."""
    alive, spent = list(names), 0
    for number, games in enumerate(plan, 1):
        for name in alive:
            spent += play(name, number, games)
        scored = sorted(alive, key=score)
        alive = scored[:max(1, math.ceil(len(alive) / 2))] if number < len(plan) else scored
    return alive, spent


def largest_seat_edge(table: pd.DataFrame) -> np.ndarray:
    """Per game, the win (minus the fair share) of the seat farthest from the fair share,
    signed so that its mean is that seat's |edge| (the `seat_edge` objective)."""
    from analysis.run.explain import seat_values

    values = seat_values(table)
    seat = _farthest_seat(table)
    return values[:, seat] * (1.0 if values[:, seat].mean() >= 0 else -1.0)


def _farthest_seat(table: pd.DataFrame) -> int:
    """The seat (0-based) whose mean win is farthest from the fair share."""
    from analysis.run.explain import seat_values

    return int(np.argmax(np.abs(seat_values(table).mean(axis=0))))


def objective_difference(a: pd.DataFrame, b: pd.DataFrame, spec: str,
                         confidence: float = 0.95) -> tuple[float, float, float, float]:
    """(b − a, low, high, p) of the objective's per-game values on the deals both played."""
    common = a.index.intersection(b.index)
    if len(common) < 2:
        return (float("nan"),) * 4
    va = pd.Series(objective(a.loc[common], spec)[4], index=common)
    vb = pd.Series(objective(b.loc[common], spec)[4], index=common)
    return balance.mean_interval((vb - va).to_numpy(), confidence)


@dataclass(frozen=True)
class SearchSpec:
    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    vary: tuple[tuple[str, tuple[Any, ...]], ...]
    objective: str
    budget: int
    rules: dict[str, Any] = field(default_factory=dict)

    def candidates(self) -> list[sweep.Cell]:
        """Every combination of the varied values (the grid)."""
        grid = sweep.SweepSpec(game=self.game, players=self.players, games=1, bots=self.bots,
                               seed=self.seed, rules=self.rules, vary=self.vary, design="grid")
        return grid.cells()

    def rounds(self) -> list[int]:
        """New games per surviving candidate in each round of successive halving."""
        return halving_plan(len(self.candidates()), self.budget)


@dataclass
class SearchResult:
    table: pd.DataFrame  # one row per candidate: games played, objective, statistic, interval
    best: str
    runner_up: str | None
    difference: tuple[float, float, float]  # best − runner-up statistic, paired interval
    games_spent: int
    games_exhaustive: int
    #: Per candidate, its games (`sweep.game_table` rows of every round it played).
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def check_out_dir(out: Path) -> None:
    """A search directory must be new, empty, or an earlier attempt at a search."""
    if out.exists() and not out.is_dir():
        raise BadInput(f"{out} is not a directory")
    if out.exists() and any(out.iterdir()) and not (out / "round-1").exists():
        raise BadInput(f"{out} is not empty and holds no search; use another --out")


def run_search(spec: SearchSpec, out_dir: str | Path, jobs: int = 1,
               progress: Callable[[int], None] | None = None, backend: str = "loky",
               scheduler: str | None = None) -> SearchResult:
    """Play the rounds (resuming any finished runs in `out_dir`) and pick the best setting."""
    candidates = spec.candidates()
    plan = spec.rounds()
    for cell in candidates:  # every bad value fails here, before anything is written
        tournament.RunSpec(game=spec.game, players=spec.players, games=1, bots=spec.bots,
                           seed=spec.seed, rules=dict(cell.rules)).validated()
    check_objective(spec.objective, spec.game, spec.players, spec.rules)
    out = Path(out_dir)
    check_out_dir(out)
    tables: dict[str, list[pd.DataFrame]] = {c.name: [] for c in candidates}
    rules_of = {c.name: dict(c.rules) for c in candidates}

    def play(name: str, number: int, games: int) -> int:
        tables[name].append(play_round(spec, name, rules_of[name], number, games, out, jobs,
                                       progress, backend, scheduler))
        return games

    alive, spent = race(list(tables), plan, play,
                        lambda n: objective(pd.concat(tables[n]), spec.objective)[0])
    rows = []
    for name, parts in tables.items():
        value, estimate, low, high, _ = objective(pd.concat(parts), spec.objective)
        settings = next(c for c in candidates if c.name == name).settings
        rows.append({"candidate": name, **settings,
                     "games": int(sum(len(p) for p in parts)), "objective": value,
                     "statistic": estimate, "ci_low": low, "ci_high": high})
    table = pd.DataFrame(rows).sort_values(["games", "objective"], ascending=[False, True])
    best = alive[0]
    runner = alive[1] if len(alive) > 1 else None
    difference = (float("nan"),) * 3
    if runner is not None and parse_objective(spec.objective)[0] == "seat_edge":
        d, low, high, _ = objective_difference(pd.concat(tables[runner]),
                                               pd.concat(tables[best]), spec.objective)
        difference = (d, low, high)
    elif runner is not None:
        a, b = pd.concat(tables[best]), pd.concat(tables[runner])
        effect = sweep.paired_difference(b, a)
        key = _statistic_key(spec.objective, effect)
        row = effect[effect["statistic"] == key].iloc[0]
        difference = (float(row["effect"]), float(row["ci_low"]), float(row["ci_high"]))
    exhaustive = len(candidates) * int(table.loc[table["candidate"] == best, "games"].iloc[0])
    return SearchResult(table.reset_index(drop=True), best, runner, difference, spent,
                        exhaustive, {name: pd.concat(parts) for name, parts in tables.items()})


def play_round(spec: SearchSpec, name: str, rules: dict[str, Any], number: int, games: int,
               out: Path, jobs: int = 1, progress: Callable[[int], None] | None = None,
               backend: str = "loky", scheduler: str | None = None) -> pd.DataFrame:
    """One candidate's games of round `number` (resumed when already on disk): the round's
    seed branch is the same for every candidate, so candidates are paired by deal."""
    run_spec = tournament.RunSpec(game=spec.game, players=spec.players, games=games,
                                  bots=spec.bots, seed=spec.seed, rules=dict(rules),
                                  seed_branch=SEARCH_BRANCH + number)
    result = tournament.run_or_resume(run_spec, out / f"round-{number}" / name, jobs,
                                      progress, backend, scheduler)
    return sweep.game_table(result.frame)


def missing_games(spec: SearchSpec, played: int) -> list[tuple[int, int]]:
    """(round, games) a candidate that played `played` games was dropped before: the rounds
    that would bring it onto the finalists' deals."""
    plan, done, out = spec.rounds(), 0, []
    for number, games in enumerate(plan, 1):
        if done >= played:
            out.append((number, games))
        done += games
    return out


def complete(spec: SearchSpec, result: SearchResult, names: list[str], out_dir: str | Path,
             jobs: int = 1, progress: Callable[[int], None] | None = None,
             backend: str = "loky", scheduler: str | None = None) -> SearchResult:
    """The result with each named candidate's missing rounds played (resumable), so that it
    stands on the same deals as the finalists and can be judged beside them."""
    out = Path(out_dir)
    rules_of = {c.name: dict(c.rules) for c in spec.candidates()}
    tables = dict(result.tables)
    for name in names:
        parts = [tables[name]]
        for number, games in missing_games(spec, len(tables[name])):
            parts.append(play_round(spec, name, rules_of[name], number, games, out, jobs,
                                    progress, backend, scheduler))
        tables[name] = pd.concat(parts)
    return dataclasses.replace(result, tables=tables)


def _statistic_key(objective_text: str, effects: pd.DataFrame) -> str:
    kind, source, _ = parse_objective(objective_text)
    if kind == "seat_edge":
        return "largest seat edge"
    return f"share:{source}" if kind == "source_share" else kind


def objective_values(table: pd.DataFrame, spec: str) -> np.ndarray:
    """Per-game values whose mean is (to first order) the objective: the statistic's
    influence values, signed so that a larger value is a larger |statistic − target|."""
    kind, _, given = parse_objective(spec)
    _, estimate, _, _, values = objective(table, spec)
    if kind == "seat_spread":
        return values
    target = 0.0
    if kind == "source_share":
        shares = [k for k in sweep.influence(table) if k.startswith("share:")]
        target = 1 / len(shares) if given is None else given
    return values * (1.0 if estimate >= target else -1.0)


def differences_from_best(spec: SearchSpec, result: SearchResult) -> pd.DataFrame:
    """Per other candidate: its objective minus the best's, paired by deal over the games
    both played (the rounds share deals), with the paired interval and p."""
    if not result.tables:
        return pd.DataFrame(columns=["candidate", "games", "effect", "ci_low", "ci_high", "p"])
    best = result.tables[result.best]
    rows = []
    for name, games in result.tables.items():
        if name == result.best:
            continue
        common = best.index.intersection(games.index)
        if len(common) < 2:
            continue
        a = objective_values(best.loc[common], spec.objective)
        b = objective_values(games.loc[common], spec.objective)
        effect, low, high, p = balance.mean_interval(b - a)
        rows.append({"candidate": name, "games": len(common), "effect": effect,
                     "ci_low": low, "ci_high": high, "p": p})
    return pd.DataFrame(rows, columns=["candidate", "games", "effect", "ci_low", "ci_high", "p"])


def candidate_label(spec: SearchSpec, name: str) -> str:
    """A candidate as printed: the base setting is named for what it is ("official" rules,
    or the --rule setting), with its values."""
    if name != "base":
        return name
    cell = next(c for c in spec.candidates() if c.name == name)
    values = ", ".join(f"{k}={v}" for k, v in cell.settings.items())
    return f"{'official' if not spec.rules else 'the --rule setting'} ({values})"


def summary_lines(spec: SearchSpec, result: SearchResult) -> list[str]:
    """The search result in words (printed by the CLI, used by the notebook): the best
    estimate, every candidate tied with it, the runner-up and the games spent."""
    from analysis.stats import verdicts

    stat = _statistic_key(spec.objective, pd.DataFrame())
    row = result.table.set_index("candidate").loc[result.best]

    def fmt(x: float) -> str:
        return f"{x * 100:.1f}%" if stat.startswith("share:") else f"{x * 100:+.1f} points"

    def label(name: str) -> str:
        return candidate_label(spec, name)

    lines = [f"best setting: {label(result.best)} — {stat} {fmt(row['statistic'])} "
             f"[{fmt(row['ci_low'])}, {fmt(row['ci_high'])}] over {int(row['games'])} games"]
    differences = differences_from_best(spec, result)
    if len(differences):
        tied, verdict = verdicts.ties_with_best(differences, result.best, label)
        lines.append(f"{verdict.claim} (the objective's paired difference from the best is "
                     f"not significant; Holm over {len(differences)} candidates)"
                     if tied else f"{verdict.claim}; Holm over {len(differences)} candidates")
        if tied:
            lines[0] = lines[0].replace("best setting:", "best estimate:", 1)
    if result.runner_up is not None:
        other = result.table.set_index("candidate").loc[result.runner_up]
        d, low, high = result.difference
        lines.append(f"runner-up: {label(result.runner_up)} — {stat} "
                     f"{fmt(other['statistic'])} [{fmt(other['ci_low'])}, "
                     f"{fmt(other['ci_high'])}]; best minus runner-up {d * 100:+.1f} points "
                     f"[{low * 100:+.1f}, {high * 100:+.1f}] (paired by deal)")
    lines.append(f"games spent: {result.games_spent:,} of a budget of {spec.budget:,}; an "
                 f"exhaustive grid of the same precision ({len(spec.candidates())} candidates × "
                 f"{int(row['games'])} games) would play {result.games_exhaustive:,}")
    return lines


def load_search_table(out_dir: str | Path) -> pd.DataFrame:
    """Every run of a search directory, one frame (for notebooks)."""
    return store.load_runs(sorted(Path(out_dir).glob("round-*/*")))

