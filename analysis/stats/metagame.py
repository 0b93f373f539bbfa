"""The meta-game of a strategy landscape: who wins as a lone seat at whose table, and what
evolution (α-Rank) and equilibrium play (a Nash mixture) make of it.

Entry (i, j) of the landscape is style i's win share as one seat at a table of style j, as
a multiple of the fair share 1 / players (1 on the diagonal by definition: a table of one
style shares its wins evenly).  Every cell plays the same deals (duplicate format, one run
seed), so a bootstrap that resamples deals, the same deals for every cell, keeps the cells'
correlation and recomputes everything read off the matrix.

- **α-Rank** (Omidshafiei et al. 2019), single population: a monomorphic population of
  style s is invaded by a mutant r with the fixation probability of the local selection
  model, u = α (M[r, s] − M[s, r]), ρ = (1 − e^−u) / (1 − e^−mu); the stationary
  distribution of the chain over styles is the ranking.  α = 100 and m = 50 are the usual
  defaults of the reference implementation.
- **Nash**: the symmetric meta-game made zero-sum, A = (M − Mᵀ) / 2 (how much better i
  invades j than j invades i; with two players A = M − 1 exactly), solved as a linear
  program (maximin over mixtures).  A linear program gives an exact equilibrium of the
  zero-sum game in one call, where replicator dynamics would circle a rock-paper-scissors
  interior point forever without converging.

Pure functions of frames and arrays: no game is played, nothing is printed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.stats import balance

#: α-Rank's selection intensity and population size (the reference implementation's
#: defaults; payoffs are multiples of the fair share).
ALPHA = 100.0
POPULATION = 50
#: A style holds equilibrium mass when its weight exceeds this.
SUPPORT = 1e-6
BOOTSTRAP = 500


# --------------------------------------------------------------------------------------------
# α-Rank and Nash on one matrix
# --------------------------------------------------------------------------------------------


def _fixation(u: np.ndarray, m: int) -> np.ndarray:
    """ρ(u) = (1 − e^−u) / (1 − e^−mu), computed without overflow for large |u|; 1/m at 0."""
    u = np.asarray(u, dtype=float)
    out = np.full(u.shape, 1.0 / m)
    pos, neg = u > 1e-12, u < -1e-12
    up = u[pos]
    out[pos] = -np.expm1(-up) / -np.expm1(-m * up)
    v = -u[neg]  # u < 0: ρ = e^−(m−1)v (1 − e^−v) / (1 − e^−mv)
    out[neg] = np.exp(-(m - 1) * v) * -np.expm1(-v) / -np.expm1(-m * v)
    return out


def stationary(chain: np.ndarray) -> np.ndarray:
    """The stationary distribution π = π C of a row-stochastic matrix with one closed class
    (least squares on π (C − I) = 0, Σπ = 1: stable where a near-reducible chain defeats an
    eigenvalue threshold)."""
    k = len(chain)
    system = np.vstack([chain.T - np.eye(k), np.ones((1, k))])
    target = np.zeros(k + 1)
    target[-1] = 1.0
    pi = np.linalg.lstsq(system, target, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def alpharank(payoffs: np.ndarray, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """α-Rank's stationary distribution over the styles of a single-population meta-game;
    `payoffs[r, s]`: style r's payoff against style s.

    The chain has one closed class (a mutant that does at least as well as the resident
    fixes with probability at least 1/m), so the distribution is unique."""
    payoffs = np.asarray(payoffs, dtype=float)
    k = len(payoffs)
    if k == 1:
        return np.ones(1)
    rho = _fixation(alpha * (payoffs - payoffs.T), m)  # rho[r, s]: r invading s
    chain = rho.T / (k - 1)  # chain[s, r]: from resident s to r
    np.fill_diagonal(chain, 0.0)
    np.fill_diagonal(chain, 1.0 - chain.sum(axis=1))
    return stationary(chain)


def zero_sum(payoffs: np.ndarray) -> np.ndarray:
    """The symmetric meta-game made zero-sum: A = (M − Mᵀ) / 2."""
    payoffs = np.asarray(payoffs, dtype=float)
    return (payoffs - payoffs.T) / 2


def nash(payoffs: np.ndarray) -> np.ndarray:
    """An equilibrium mixture of the zero-sum-ised symmetric meta-game (`zero_sum`): the
    maximin mixture x of max_x min_j Σ_i x_i A[i, j], by linear program (HiGHS).  Where
    several equilibria exist this is one of them (a vertex of their set)."""
    from scipy.optimize import linprog  # lazily: scipy costs a second at import

    game = zero_sum(payoffs)
    k = len(game)
    cost = np.zeros(k + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-game.T, np.ones((k, 1))])  # v − Σ_i x_i A[i, j] <= 0 for every j
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    solved = linprog(cost, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * k + [(None, None)], method="highs")
    if not solved.success:  # a bounded, feasible program: a failure is a bug
        raise RuntimeError(f"the Nash linear program failed: {solved.message}")
    x = np.clip(solved.x[:k], 0.0, None)
    return x / x.sum()


# --------------------------------------------------------------------------------------------
# The landscape matrix from the cells' games
# --------------------------------------------------------------------------------------------


@dataclass
class Landscape:
    """The measured matrix and what it rests on.

    `styles`: row/column order; `players`: seats per game; `cells`: one row per
    off-diagonal (style, table) pair with games, deals, win share, clustered se, 95%
    interval, ratio to fair (and its interval) and the two-sided p of a fair share;
    `wins`/`seats`: per-deal sums of the lone seat's win shares and seats, shape (K, K, D),
    zero on the diagonal, for the bootstrap."""

    styles: list[str]
    players: int
    cells: pd.DataFrame
    wins: np.ndarray
    seats: np.ndarray

    @property
    def fair(self) -> float:
        return 1.0 / self.players

    def matrix(self, wins: np.ndarray | None = None, seats: np.ndarray | None = None
               ) -> np.ndarray:
        """Ratios to fair, 1 on the diagonal; from resampled per-cell sums when given (shape
        (..., K, K))."""
        wins = self.wins.sum(axis=-1) if wins is None else wins
        seats = self.seats.sum(axis=-1) if seats is None else seats
        with np.errstate(invalid="ignore", divide="ignore"):
            out = wins / seats / self.fair
        eye = np.eye(len(self.styles), dtype=bool)
        out[..., eye] = 1.0
        return out


def _p_fair(share: float, se: float, fair: float) -> float:
    if se == se and se > 0:
        return balance.two_sided_p((share - fair) / se)
    if share != share:
        return float("nan")
    return 1.0 if math.isclose(share, fair) else 0.0


def landscape(frames: Mapping[tuple[str, str], pd.DataFrame], styles: Sequence[str],
              players: int, confidence: float = 0.95) -> Landscape:
    """The landscape of `styles` from each cell's games: `frames[(style, table)]` is the
    duplicate comparison of one `style` seat against a table of `table` (all cells on the
    same deals).  Truncated games are left out, as in every win share."""
    styles = list(styles)
    k = len(styles)
    fair = 1.0 / players
    z = balance._z(confidence)
    per_deal: dict[tuple[int, int], pd.DataFrame] = {}
    rows = []
    for i, style in enumerate(styles):
        for j, table in enumerate(styles):
            if i == j:
                continue
            frame = frames[(style, table)]
            shares = balance.clustered_win_share(frame).set_index("bot").loc[style]
            share, se = float(shares["win_share"]), float(shares["se"])
            counted = frame[~frame["truncated"]] if "truncated" in frame else frame
            mine = counted[counted["bot"] == style]
            per_deal[(i, j)] = mine.groupby("seed")["win_share"].agg(["sum", "size"])
            low, high = max(0.0, share - z * se), min(1.0, share + z * se)
            rows.append({"style": style, "table": table, "games": int(shares["games"]),
                         "deals": int(shares["clusters"]), "win_share": share, "se": se,
                         "ci_low": low, "ci_high": high, "fair": fair, "ratio": share / fair,
                         "ratio_low": low / fair, "ratio_high": high / fair,
                         "p_value": _p_fair(share, se, fair)})
    seeds = sorted(set().union(*(t.index for t in per_deal.values()))) if per_deal else []
    wins = np.zeros((k, k, len(seeds)))
    seats = np.zeros((k, k, len(seeds)))
    for (i, j), table in per_deal.items():
        table = table.reindex(seeds, fill_value=0)
        wins[i, j] = table["sum"].to_numpy(dtype=float)
        seats[i, j] = table["size"].to_numpy(dtype=float)
    return Landscape(styles, players, pd.DataFrame(rows), wins, seats)


def adjusted(cells: pd.DataFrame, p_adjusted: Sequence[float] | None = None) -> pd.DataFrame:
    """The cells with `p_adjusted` (Holm over the cells, unless an output's family gives
    them) and `direction`: +1 when the lone seat is significantly above fair at that table,
    −1 when significantly below, 0 otherwise."""
    out = cells.copy()
    out["p_adjusted"] = (balance.adjust_pvalues(out["p_value"], "holm") if p_adjusted is None
                         else np.asarray(p_adjusted, dtype=float))
    significant = out["p_adjusted"] < balance.ALPHA
    out["significant"] = significant
    out["direction"] = np.where(significant, np.sign(out["win_share"] - out["fair"]), 0
                                ).astype(int)
    return out


# --------------------------------------------------------------------------------------------
# Reading the matrix: dominance, cycles
# --------------------------------------------------------------------------------------------


def directions(cells: pd.DataFrame, styles: Sequence[str]) -> np.ndarray:
    """[i, j]: +1 when style i's lone seat is significantly above fair at a table of j, −1
    when significantly below, 0 otherwise (and on the diagonal); cells from `adjusted`."""
    index = {s: n for n, s in enumerate(styles)}
    out = np.zeros((len(styles), len(styles)), dtype=int)
    for row in cells.itertuples():
        out[index[row.style], index[row.table]] = row.direction
    return out


def simple_cycles(edges: np.ndarray) -> list[tuple[int, ...]]:
    """Every simple cycle of the directed graph `edges[i, j]` (bool: i -> j), each once,
    starting at its smallest index, shortest first."""
    k = len(edges)
    found: list[tuple[int, ...]] = []

    def walk(start: int, node: int, path: list[int], seen: set[int]) -> None:
        for nxt in range(start, k):
            if not edges[node, nxt]:
                continue
            if nxt == start and len(path) > 1:
                found.append(tuple(path))
            elif nxt not in seen and nxt > start:
                seen.add(nxt)
                path.append(nxt)
                walk(start, nxt, path, seen)
                path.pop()
                seen.discard(nxt)

    for start in range(k):
        walk(start, start, [start], {start})
    return sorted(found, key=lambda c: (len(c), c))


# --------------------------------------------------------------------------------------------
# The bootstrap over deals
# --------------------------------------------------------------------------------------------


@dataclass
class Solutions:
    """α-Rank and Nash of the measured matrix with their bootstrap replicates (rows)."""

    alpharank: np.ndarray  # (K,)
    nash: np.ndarray  # (K,)
    alpharank_boot: np.ndarray  # (B, K)
    nash_boot: np.ndarray  # (B, K)
    alpha: float = ALPHA
    population: int = POPULATION

    @property
    def replicates(self) -> int:
        return len(self.nash_boot)


def solve(land: Landscape, replicates: int = BOOTSTRAP, seed: int = 0,
          alpha: float = ALPHA, m: int = POPULATION) -> Solutions:
    """α-Rank and Nash of the matrix, and of `replicates` matrices rebuilt from deals drawn
    with replacement (the same draw for every cell)."""
    matrix = land.matrix()
    deals = land.wins.shape[-1]
    k = len(land.styles)
    boot_pi = np.empty((replicates, k))
    boot_x = np.empty((replicates, k))
    rng = np.random.default_rng(seed)
    wins = land.wins.reshape(k * k, deals)
    seats = land.seats.reshape(k * k, deals)
    for b in range(replicates):
        counts = np.bincount(rng.integers(0, deals, deals), minlength=deals)
        sample = land.matrix((wins @ counts).reshape(k, k), (seats @ counts).reshape(k, k))
        sample = np.where(np.isfinite(sample), sample, 1.0)  # a cell with no games drawn
        boot_pi[b] = alpharank(sample, alpha, m)
        boot_x[b] = nash(sample)
    return Solutions(alpharank(matrix, alpha, m), nash(matrix), boot_pi, boot_x, alpha, m)


def mixture_table(styles: Sequence[str], point: np.ndarray, boot: np.ndarray,
                  column: str) -> pd.DataFrame:
    """One row per style: the weight, its 95% bootstrap percentile interval, how often the
    style holds mass (`support`) and how often it holds the most, ties included (`top`), in
    the replicates; sorted by weight.  Weights are rounded to 10 decimals, so that styles
    tied by symmetry read as tied."""
    point = np.round(point, 10)
    boot = np.round(boot, 10)
    if len(boot):
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
        support = (boot > SUPPORT).mean(axis=0)
        top = (boot >= boot.max(axis=1, keepdims=True)).mean(axis=0)
    else:
        low = high = support = top = np.full(len(styles), np.nan)
    table = pd.DataFrame({"style": list(styles), column: point, "ci_low": low, "ci_high": high,
                          "support": support, "top": top})
    return table.sort_values(column, ascending=False, kind="stable").reset_index(drop=True)
