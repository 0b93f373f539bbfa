"""Statistics on result frames.  Every function takes the frame and returns a tidy DataFrame."""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd


def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval for a proportion (works on arrays; fractional successes allowed).

    Shared wins count 1/k, so `successes` may be fractional; the interval is then the
    usual approximation with the observed share.  The interval always holds the observed
    share and lies in [0, 1]: 0 wins give a lower bound of exactly 0 and n wins of n an upper
    bound of exactly 1 (the formula misses both by a rounding error, which made error bars
    of share minus bound negative).
    """
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    z = _z(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / trials
        denom = 1 + z**2 / trials
        centre = (p + z**2 / (2 * trials)) / denom
        half = z * np.sqrt(p * (1 - p) / trials + z**2 / (4 * trials**2)) / denom
        low = np.minimum(np.clip(centre - half, 0.0, 1.0), p)
        high = np.maximum(np.clip(centre + half, 0.0, 1.0), p)
    return low, high


def _counted(frame: pd.DataFrame, include_truncated: bool) -> pd.DataFrame:
    if include_truncated or "truncated" not in frame:
        return frame
    return frame[~frame["truncated"]]


def win_share(
    frame: pd.DataFrame, by: str | list[str] = "bot", confidence: float = 0.95,
    include_truncated: bool = False,
) -> pd.DataFrame:
    """Win share (1/k per k-way shared win) per group, with a Wilson interval and the fair share.

    Truncated games are left out by default: they have no winner.
    """
    frame = _counted(frame, include_truncated)
    by = [by] if isinstance(by, str) else list(by)
    grouped = frame.groupby(by, sort=True)
    out = grouped.agg(
        games=("win_share", "size"), wins=("win_share", "sum"),
        fair=("players", lambda p: float(np.mean(1.0 / p))),
        mean_score=("score", "mean"),
    ).reset_index()
    out["win_share"] = out["wins"] / out["games"]
    low, high = wilson_interval(out["wins"], out["games"], confidence)
    out["ci_low"], out["ci_high"] = low, high
    return out[by + ["games", "wins", "win_share", "ci_low", "ci_high", "fair", "mean_score"]]


# --------------------------------------------------------------------------------------------
# Shared helpers: which columns identify a game and a balance context
# --------------------------------------------------------------------------------------------

#: A game is identified by its run and index (duplicate runs share seeds but not run ids).
GAME_KEY = ["run_id", "game_index"]
#: Columns that split a frame into separately comparable settings.
CONTEXT = ["game", "rules", "players"]


def context_columns(frame: pd.DataFrame) -> list[str]:
    """The context columns this frame has (a hand-built frame may lack `rules` or `game`)."""
    return [c for c in CONTEXT if c in frame.columns]


def _game_key(frame: pd.DataFrame) -> list[str]:
    return [c for c in GAME_KEY if c in frame.columns]


def _z(confidence: float) -> float:
    """Two-sided normal quantile (stdlib: importing scipy.stats costs ~1 s per CLI call)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def source_columns(frame: pd.DataFrame) -> list[str]:
    """Score-source columns (`pts_<source>`), sorted."""
    return sorted(c for c in frame.columns if c.startswith("pts_"))


def score_direction(game: str) -> str:
    """Who wins on points in `game`: "highest" or "lowest" (its declared
    `Game.score_direction`; "highest" for a game the registry does not know)."""
    from engines import GAMES

    registered = GAMES.get(game)
    return registered.score_direction if registered is not None else "highest"


def frame_direction(frame: pd.DataFrame) -> str:
    """The score direction of the frame's game ("highest" without a `game` column; a frame
    of games of both directions has none and raises)."""
    if "game" not in frame.columns or frame.empty:
        return "highest"
    directions = {score_direction(g) for g in frame["game"].unique()}
    if len(directions) > 1:
        raise ValueError("a frame of highest-wins and lowest-wins games has no one direction")
    return directions.pop()


def points_noun(direction: str) -> str:
    """What a game's points are called in words: "points", or "penalty points" where the
    lowest score wins."""
    return "penalty points" if direction == "lowest" else "points"


def absolute_points(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """The frame with its source `columns` counted absolute: a source that subtracts (a
    penalty in a highest-wins game, a bonus in a lowest-wins one) counts by its size, so a
    source's share of all points lies in [0, 1] and the shares sum to one."""
    return frame.assign(**{c: frame[c].abs() for c in columns})


def own_columns(group: pd.DataFrame, columns: list[str]) -> list[str]:
    """The `columns` this group recorded (not all NaN): a frame stacked from runs of several
    games carries every game's `pts_`/`k_` columns, NaN in the other games' rows, and a
    table of one context must list only its own game's sources and kinds."""
    return [c for c in columns if group[c].notna().any()]


def metric_columns(frame: pd.DataFrame) -> list[str]:
    """Per-game metric columns (`m_<metric>`), sorted."""
    return sorted(c for c in frame.columns if c.startswith("m_"))


# --------------------------------------------------------------------------------------------
# Teams: partners win together, so they are one unit in every seat test and tie count
# --------------------------------------------------------------------------------------------


def teams_for(game: str, players: int) -> tuple[tuple[int, ...], ...]:
    """The registered game's teams at this player count (one seat each for unknown games)."""
    from engines import GAMES

    registered = GAMES.get(game)
    if registered is None:
        return tuple((s,) for s in range(players))
    return registered.teams(players)


def starter_for(game: str, rules: Any = "") -> str | None:
    """Who takes the registered game's first turn under `rules` (a `rules_str` or a `Rules`
    instance): first, last or random (`engines.core.Starter`); None for unknown games."""
    from engines import GAMES

    registered = GAMES.get(game)
    return None if registered is None else registered.who_starts(rules)


def team_label(teams: tuple[tuple[int, ...], ...], team: int) -> str:
    """'seat 2', or 'team of seats 1+3' for partners (seats numbered from 1)."""
    seats = teams[team]
    if len(seats) == 1:
        return f"seat {seats[0] + 1}"
    return "team of seats " + "+".join(str(s + 1) for s in seats)


def team_column(frame: pd.DataFrame) -> pd.Series:
    """Each row's team index (the seat itself when the game has no partnerships)."""
    team = frame["seat"].astype(int).copy()
    if "game" not in frame.columns:
        return team
    for (game, players), index in frame.groupby(["game", "players"], sort=False).groups.items():
        teams = teams_for(game, int(players))
        if all(len(t) == 1 for t in teams):
            continue
        seat_team = {s: i for i, t in enumerate(teams) for s in t}
        team.loc[index] = frame.loc[index, "seat"].map(seat_team).astype(int)
    return team


def has_teams(frame: pd.DataFrame) -> bool:
    """Whether any context of the frame is a partnership game."""
    if "game" not in frame.columns:
        return False
    pairs = frame[["game", "players"]].drop_duplicates().itertuples(index=False)
    return any(len(t) > 1 for g, n in pairs for t in teams_for(g, int(n)))


def team_win_share(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Win share per team within each context, with Wilson intervals and the fair 1/teams.

    A team's share of a game is the sum of its seats' shares: partners sharing a win give
    their team one whole win, and only a win shared between teams splits it.
    """
    frame = _counted(frame, include_truncated=False)
    ctx = context_columns(frame)
    teamed = frame.assign(team=team_column(frame))
    per_game = teamed.groupby(ctx + _game_key(frame) + ["team"], sort=True)["win_share"].sum()
    per_game = per_game.reset_index()
    out = per_game.groupby(ctx + ["team"], sort=True).agg(
        games=("win_share", "size"), wins=("win_share", "sum")).reset_index()
    players = out["players"] if "players" in out else pd.Series(2, index=out.index)
    games = out["game"] if "game" in out else pd.Series("", index=out.index)
    labels, fair = [], []
    for g, n, t in zip(games, players, out["team"]):
        teams = teams_for(g, int(n))
        labels.append(team_label(teams, int(t)))
        fair.append(1.0 / len(teams))
    out["seats"] = labels
    out["win_share"] = out["wins"] / out["games"]
    low, high = wilson_interval(out["wins"], out["games"], confidence)
    out["ci_low"], out["ci_high"] = low, high
    out["fair"] = fair
    return out[ctx + ["team", "seats", "games", "wins", "win_share", "ci_low", "ci_high", "fair"]]


# --------------------------------------------------------------------------------------------
# Multiple comparisons and power
# --------------------------------------------------------------------------------------------

#: Significance level of every test the toolkit reports (after adjustment).
ALPHA = 0.05
#: Power at which the minimum detectable effect is stated.
POWER = 0.80
ADJUST_METHODS = {"bh": "Benjamini–Hochberg", "holm": "Holm"}


def adjust_pvalues(pvalues, method: str = "bh") -> np.ndarray:
    """P-values adjusted for the family they were computed in (NaN entries are left out).

    `bh` (Benjamini–Hochberg, false discovery rate; scipy's implementation) is for a list of
    findings; `holm` (family-wise error rate) is for a single claim over the family, such as
    "these seats deviate".  A finding is significant when its *adjusted* p-value is below
    `ALPHA`.
    """
    if method not in ADJUST_METHODS:
        raise ValueError(f"method must be one of {', '.join(ADJUST_METHODS)}, got {method!r}")
    p = np.asarray(pvalues, dtype=float).reshape(-1)
    out = np.full(p.shape, np.nan)
    valid = ~np.isnan(p)
    if not valid.any():
        return out
    if method == "bh":
        from scipy import stats as sps  # lazily: see _z

        out[valid] = sps.false_discovery_control(p[valid], method="bh")
    else:
        out[valid] = _holm(p[valid])
    return out


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down: the i-th smallest p times (m - i), made monotone, capped at 1."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(stepped, 1.0)
    return out


def two_sided_p(z: float) -> float:
    """Two-sided normal p-value of a z statistic, accurate far in the tail (no 1 - cdf)."""
    return math.erfc(abs(z) / math.sqrt(2)) if np.isfinite(z) else np.nan


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """(mean, low, high, p) of per-unit values (games, deals, paired differences): the normal
    interval mean ± z·se and the two-sided p of a zero mean.

    The one place every per-game interval of explain, search and tune is computed, so they
    cannot drift apart.  Fewer than two values give a NaN interval and p (nothing to tell
    from); values that do not vary give the mean as the interval and p 0 (1 for a zero mean).
    """
    values = np.asarray(values, dtype=float).reshape(-1)
    if len(values) == 0:
        return (float("nan"),) * 4
    mean = float(values.mean())
    if len(values) < 2:
        return mean, float("nan"), float("nan"), float("nan")
    se = float(values.std(ddof=1)) / math.sqrt(len(values))
    half = _z(confidence) * se
    p = two_sided_p(mean / se) if se > 0 else (1.0 if mean == 0 else 0.0)
    return mean, mean - half, mean + half, p


def share_interval(wins, fair: float, confidence: float = 0.95
                   ) -> tuple[float, float, float, float]:
    """(share, low, high, p) of one seat's per-game wins (1, 0 or 1/k for a shared win): the
    Wilson interval of the share and the two-sided score-test p of the fair share (the test
    the Wilson interval inverts, so the interval excludes `fair` exactly when p < 1 −
    confidence).  The interval every seat share of explain, search and compensate quotes."""
    wins = np.asarray(wins, dtype=float).reshape(-1)
    n = len(wins)
    if n == 0:
        return (float("nan"),) * 4
    share = float(wins.mean())
    low, high = wilson_interval(wins.sum(), n, confidence)
    se = math.sqrt(fair * (1 - fair) / n) if 0 < fair < 1 else 0.0
    p = two_sided_p((share - fair) / se) if se > 0 else float("nan")
    return share, float(low), float(high), p


def minimum_detectable_effect(
    n, p0, alpha: float = ALPHA, power: float = POWER,
) -> np.ndarray:
    """Smallest true deviation from the share `p0` that `n` trials detect with `power`.

    Two-sided normal approximation: (z_{1-alpha/2} + z_{power}) * sqrt(p0 (1 - p0) / n).
    With 400 four-player games (p0 = 1/4) it is about 6 points: a first-seat edge smaller
    than that is likely to go unnoticed.
    """
    n = np.asarray(n, dtype=float)
    p0 = np.asarray(p0, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return mde_from_se(np.sqrt(p0 * (1 - p0) / n), alpha, power)


def mde_from_se(se, alpha: float = ALPHA, power: float = POWER) -> np.ndarray:
    """Minimum detectable effect for an estimate with standard error `se` (e.g. clustered)."""
    return (_z(1 - alpha) + NormalDist().inv_cdf(power)) * np.asarray(se, dtype=float)


# --------------------------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------------------------


def seat_win_share(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Win share per seat within each context (seats counted from 0; who takes the first
    turn: `starter_for`), with Wilson intervals.

    In a partnership game a `partnership` column names each seat's team.
    """
    out = win_share(frame, context_columns(frame) + ["seat"], confidence)
    if has_teams(frame):
        labels = []
        for row in out.itertuples(index=False):
            teams = teams_for(getattr(row, "game", ""), int(row.players))
            team = next(i for i, t in enumerate(teams) if row.seat in t)
            labels.append(team_label(teams, team) if len(teams[team]) > 1 else "")
        out.insert(out.columns.get_loc("seat") + 1, "partnership", labels)
    return out


def seat_advantage(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per context: chi-square test of seat wins against the fair share, and the first seat's edge.

    Observed = wins per seat (shared wins count 1/k); expected = decided games / players.
    The edge is seat 0's win share minus the fair 1/n, with its Wilson interval shifted alike;
    `first_mde` is the smallest edge these games detect with 80% power.  In a partnership
    game the units are teams (`unit` = "team"): partners win together, so their seats are
    one count; best/worst seat then name the team's first seat.
    """
    frame = _counted(frame, include_truncated=False)
    rows = []
    ctx = context_columns(frame)
    for key, group in frame.groupby(ctx, sort=True) if ctx else [((), frame)]:
        key = key if isinstance(key, tuple) else (key,)
        players = int(group["players"].iloc[0])
        teams = teams_for(str(group["game"].iloc[0]) if "game" in group else "", players)
        units = len(teams)
        wins = group.groupby(team_column(group))["win_share"].sum()
        wins = wins.reindex(range(units), fill_value=0.0)
        games = int(group.loc[group["seat"] == 0].shape[0])
        decided = float(wins.sum())
        fair = 1.0 / units
        if decided > 0:
            from scipy import stats as sps  # lazily: see _z

            chi2, p_value = sps.chisquare(wins.to_numpy(), np.full(units, decided * fair))
        else:
            chi2, p_value = float("nan"), float("nan")
        shares = wins / games if games else wins * np.nan
        low, high = wilson_interval(wins.iloc[0], games, confidence)
        rows.append({
            **dict(zip(ctx, key)), "unit": "team" if units < players else "seat",
            "games": games, "fair": fair,
            "first_share": float(shares.iloc[0]), "first_edge": float(shares.iloc[0]) - fair,
            "edge_low": float(low) - fair, "edge_high": float(high) - fair,
            "first_mde": float(minimum_detectable_effect(games, fair)),
            "best_seat": teams[int(shares.idxmax())][0], "best_share": float(shares.max()),
            "worst_seat": teams[int(shares.idxmin())][0], "worst_share": float(shares.min()),
            "chi2": float(chi2), "dof": units - 1, "p_value": float(p_value),
        })
    return pd.DataFrame(rows)


def seat_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Per context and seat (team in partnership games): its win share against the fair one.

    `p_value` is the normal test of share = fair; `p_holm` adjusts it over the context's
    seats with Holm, for the family-wise claim "these seats deviate"; `mde` is the smallest
    deviation the games detect with 80% power.
    """
    shares = team_win_share(frame)
    if shares.empty:
        return shares
    se = np.sqrt(shares["fair"] * (1 - shares["fair"]) / shares["games"])
    z = (shares["win_share"] - shares["fair"]) / se
    shares["p_value"] = [two_sided_p(v) for v in z]
    ctx = context_columns(frame)
    shares["p_holm"] = shares.groupby(ctx, sort=False)["p_value"].transform(
        lambda p: pd.Series(adjust_pvalues(p, "holm"), index=p.index)) if ctx \
        else adjust_pvalues(shares["p_value"], "holm")
    shares["mde"] = minimum_detectable_effect(shares["games"], shares["fair"])
    return shares


# --------------------------------------------------------------------------------------------
# Scores, margins and ties
# --------------------------------------------------------------------------------------------


def score_distribution(frame: pd.DataFrame, by: str | list[str] = "bot") -> pd.DataFrame:
    """Score quantiles per group (context columns are added to the grouping)."""
    by = context_columns(frame) + ([by] if isinstance(by, str) else list(by))
    grouped = frame.groupby(by, sort=True)["score"]
    out = grouped.agg(["count", "mean", "std", "min", "median", "max"])
    out["q25"] = grouped.quantile(0.25)
    out["q75"] = grouped.quantile(0.75)
    out = out.reset_index()
    return out[by + ["count", "mean", "std", "min", "q25", "median", "q75", "max"]]


def score_sign(frame: pd.DataFrame) -> pd.Series:
    """Per row, +1 where the highest score wins and −1 where the lowest does: a score times
    its sign is larger the better it is."""
    if "game" not in frame.columns:
        return pd.Series(1.0, index=frame.index)
    signs = {g: -1.0 if score_direction(g) == "lowest" else 1.0 for g in frame["game"].unique()}
    return frame["game"].map(signs).astype(float)


def game_outcomes(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game: winners, tie flag, margin (the best score's lead over the next
    seat's: top score minus the next where the highest score wins, the next minus the lowest
    where the lowest wins, so never negative), the best score as `top_score`.

    A win shared between k teams is a tie; a game whose two best scores are equal has margin
    0 even if a tie-break decided it.  Partners (a partnership game's team) count as one:
    their shared win is no tie, and the margin is over the best other team.  Per-game metrics
    (`m_*`) are carried along.
    """
    key = context_columns(frame) + _game_key(frame)
    ranked = frame.assign(sign=score_sign(frame))
    ranked = ranked.assign(better=ranked["score"] * ranked["sign"])
    if has_teams(frame):
        ranked = ranked.assign(team=team_column(frame)).groupby(key + ["team"], sort=False).agg(
            better=("better", "max"), sign=("sign", "first"),
            win_share=("win_share", "sum")).reset_index()
    ordered = ranked.sort_values(key + ["better"], ascending=[True] * len(key) + [False])
    grouped = ordered.groupby(key, sort=True)
    first = grouped["better"].nth(0).to_numpy()
    second = grouped["better"].nth(1).to_numpy()
    sign = grouped["sign"].nth(0).to_numpy()
    winners = grouped["win_share"].agg(lambda s: int((s > 0).sum())).to_numpy()
    grouped = frame.groupby(key, sort=True)
    out = grouped.agg(
        truncated=("truncated", "first"),
        decisions=("decisions", "first"),
        branching=("branching", "first"),
        **{c: (c, "first") for c in metric_columns(frame)},
    ).reset_index()
    out.insert(len(key), "winners", winners)
    out["top_score"] = first * sign + 0.0  # + 0.0: no -0.0 where the lowest score wins
    out["margin"] = first - second
    out["tie"] = out["winners"] > 1
    return out


def margins(frame: pd.DataFrame) -> pd.DataFrame:
    """Per context: decided games, tie rate, mean/median winning margin, share of 0-margin games."""
    games = game_outcomes(frame)
    games = games[~games["truncated"]]
    ctx = context_columns(frame)
    grouped = games.groupby(ctx, sort=True) if ctx else games.groupby(lambda _: 0)
    out = grouped.agg(
        games=("margin", "size"), tie_rate=("tie", "mean"), mean_margin=("margin", "mean"),
        median_margin=("margin", "median"),
        zero_margin=("margin", lambda m: float((m == 0).mean())),
    ).reset_index()
    return out if ctx else out.drop(columns="index")


# --------------------------------------------------------------------------------------------
# Scoring balance
# --------------------------------------------------------------------------------------------


def scoring_balance(frame: pd.DataFrame, by: str | list[str] = "bot") -> pd.DataFrame:
    """Mean points by source per group (signed, as scored), and each source's share of the
    group's absolute points (`absolute_points`: never above 100%, also where a source
    subtracts or the lowest score wins)."""
    sources = source_columns(frame)
    by = context_columns(frame) + ([by] if isinstance(by, str) else list(by))
    if not sources:
        return pd.DataFrame(columns=by + ["source", "mean_points", "share"])
    means = frame.groupby(by, sort=True)[sources].mean().reset_index()
    sizes = absolute_points(frame, sources).groupby(by, sort=True)[sources].mean().reset_index()
    long = means.melt(id_vars=by, value_vars=sources, var_name="source", value_name="mean_points")
    long["size"] = sizes.melt(id_vars=by, value_vars=sources)["value"].to_numpy()
    long["source"] = long["source"].str.removeprefix("pts_")
    # another game's source has no points at all in this group (see own_columns)
    long = long.dropna(subset=["mean_points"])
    totals = long.groupby(by)["size"].transform("sum")
    long["share"] = np.where(totals != 0, long["size"] / totals.replace(0, np.nan), np.nan)
    return long.drop(columns="size").sort_values(by + ["source"]).reset_index(drop=True)


def source_separation(frame: pd.DataFrame) -> pd.DataFrame:
    """How much each score source separates winners from the others, per context.

    `difference` = mean points of winning seats minus the others'; `cohen_d` = that difference
    over the pooled standard deviation (an effect size in standard deviations: a plain
    number, never a share); `correlation` = Pearson r with win share;
    `p_value` = Welch's t-test of the difference (raw: adjust it over the table's family).
    """
    from scipy import stats as sps  # lazily: see _z

    frame = _counted(frame, include_truncated=False)
    ctx = context_columns(frame)
    rows = []
    for key, group in frame.groupby(ctx, sort=True) if ctx else [((), frame)]:
        key = key if isinstance(key, tuple) else (key,)
        won = group["win_share"] > 0
        for column in own_columns(group, source_columns(frame)) + ["score"]:
            values = group[column].astype(float)
            a, b = values[won], values[~won]
            diff = a.mean() - b.mean()
            na, nb = len(a), len(b)
            pooled = np.sqrt(((na - 1) * a.var() + (nb - 1) * b.var()) / (na + nb - 2)) \
                if na > 1 and nb > 1 else np.nan
            with np.errstate(invalid="ignore", divide="ignore"):
                corr = np.corrcoef(values, group["win_share"])[0, 1] \
                    if values.std() > 0 else np.nan
            p_value = np.nan
            if na > 1 and nb > 1 and (a.var() > 0 or b.var() > 0):
                with warnings.catch_warnings():  # near-constant sources: p is still defined
                    warnings.simplefilter("ignore", RuntimeWarning)
                    p_value = float(sps.ttest_ind(a, b, equal_var=False).pvalue)
            rows.append({
                **dict(zip(ctx, key)), "source": column.removeprefix("pts_"),
                "winners_mean": a.mean(), "others_mean": b.mean(), "difference": diff,
                "cohen_d": diff / pooled if pooled and pooled > 0 else np.nan,
                "correlation": corr, "p_value": p_value,
            })
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Bots: pairwise matrix and ratings
# --------------------------------------------------------------------------------------------


def pairwise(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """For every ordered pair of different bots: how often A finishes ahead of B at one table.

    Each (A seat, B seat) pair in a game is one meeting; A ahead (better rank) counts 1,
    an equal rank 0.5.  Truncated games are left out.
    """
    frame = _counted(frame, include_truncated=False)
    key = _game_key(frame)
    left = frame[key + ["bot", "rank", "seat"]]
    pairs = left.merge(left, on=key, suffixes=("", "_opp"))
    pairs = pairs[pairs["bot"] != pairs["bot_opp"]]
    points = np.where(pairs["rank"] < pairs["rank_opp"], 1.0,
                      np.where(pairs["rank"] == pairs["rank_opp"], 0.5, 0.0))
    pairs = pairs.assign(points=points)
    out = pairs.groupby(["bot", "bot_opp"], sort=True).agg(
        meetings=("points", "size"), wins=("points", "sum")).reset_index()
    out = out.rename(columns={"bot_opp": "opponent"})
    out["share"] = out["wins"] / out["meetings"]
    low, high = wilson_interval(out["wins"], out["meetings"], confidence)
    out["ci_low"], out["ci_high"] = low, high
    return out


def pairwise_matrix(frame: pd.DataFrame) -> pd.DataFrame:
    """`pairwise` as a square table: row bot's share of meetings won against the column bot."""
    long = pairwise(frame)
    if long.empty:
        return pd.DataFrame()
    return long.pivot(index="bot", columns="opponent", values="share")


def _rank_games(frame: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(bot names, seat->bot index per game, rank per seat per game) for games of one size."""
    frame = _counted(frame, include_truncated=False)
    key = _game_key(frame)
    ordered = frame.sort_values(key + ["seat"])
    bots = sorted(ordered["bot"].unique())
    index = {b: i for i, b in enumerate(bots)}
    n = int(ordered.groupby(key).size().max()) if len(ordered) else 0
    if len(ordered) == 0 or (ordered.groupby(key).size() != n).any():
        raise ValueError("ratings need games of one player count; split the frame by players")
    seat_bot = ordered["bot"].map(index).to_numpy().reshape(-1, n)
    ranks = ordered["rank"].to_numpy(dtype=float).reshape(-1, n)
    return bots, seat_bot, ranks


def _plackett_luce(
    seat_bot: np.ndarray, ranks: np.ndarray, order: np.ndarray, n_bots: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Weng-Lin Plackett-Luce updates (openskill's defaults but `tau` = 0: a bot's strength
    does not drift between games, and with drift sigma stops shrinking and the latest few
    hundred games decide mu), vectorized over replicates.

    `order[r, t]` is the game replicate r plays at step t.  Seats are single-player teams;
    when one bot holds several seats, its mu moves by the mean of its seats' changes and its
    sigma^2 becomes the mean of theirs.  Games where every seat is the same bot are skipped
    by the caller.  With one seat per bot this equals `PlackettLuce(tau=0).rate`.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    beta2, kappa, tau2 = model.beta**2, model.kappa, model.tau**2
    reps = order.shape[0]
    mu = np.full((reps, n_bots), model.mu)
    sig2 = np.full((reps, n_bots), model.sigma**2)
    rows = np.arange(reps)[:, None]
    for t in range(order.shape[1]):
        g = order[:, t]
        sb = seat_bot[g]                      # (R, n)
        rk = ranks[g]                         # (R, n)
        m = mu[rows, sb]
        s2 = sig2[rows, sb] + tau2
        c = np.sqrt((s2 + beta2).sum(axis=1, keepdims=True))
        e = np.exp(m / c)
        # at_or_below[r, q, i]: seat i ranks at or below seat q (rank_i >= rank_q)
        at_or_below = rk[:, None, :] >= rk[:, :, None]
        sum_q = (at_or_below * e[:, None, :]).sum(axis=2)                 # (R, n) over q
        a = (rk[:, None, :] == rk[:, :, None]).sum(axis=2)                # (R, n) over q
        p = e[:, None, :] / sum_q[:, :, None]                              # p[r, q, i]
        counted = at_or_below / a[:, :, None]                              # q counts for i
        eye = np.eye(rk.shape[1])[None]
        omega = ((eye - p) * counted).sum(axis=1) * s2 / c
        delta = (p * (1 - p) * counted).sum(axis=1) * s2 / c**2
        delta *= np.sqrt(s2) / c
        new_s2 = s2 * np.maximum(1 - delta, kappa)
        new_mu = m + omega
        onehot = sb[:, :, None] == np.arange(n_bots)[None, None, :]        # (R, n, B)
        count = onehot.sum(axis=1)
        present = count > 0
        mean_dmu = (onehot * (new_mu - m)[:, :, None]).sum(axis=1) / np.maximum(count, 1)
        mean_s2 = (onehot * new_s2[:, :, None]).sum(axis=1) / np.maximum(count, 1)
        mu = np.where(present, mu + mean_dmu, mu)
        sig2 = np.where(present, mean_s2, sig2)
    return mu, np.sqrt(sig2)


#: Random orders of the games whose ratings are averaged for the point estimate (`ratings`).
ORDERS = 32


def ratings(
    frame: pd.DataFrame, bootstrap: int = 200, confidence: float = 0.95, seed: int = 0,
) -> pd.DataFrame:
    """Plackett-Luce (openskill) ratings of the bots, with bootstrap intervals on mu.

    The updates are online, so one pass depends on the order of the games (the later ones
    weigh more): rated in the recorded order, a duplicate comparison stacked seating by
    seating was rated mostly on its last seatings.  So `mu` and `sigma` are means over
    `ORDERS` random orders of all the games; each bootstrap replicate rates a resample of
    the games (with replacement, in random order).  `ordinal` = mu - 3 sigma, the usual
    conservative skill.  Only games with at least two different bots move the ratings.
    """
    bots, seat_bot, ranks = _rank_games(frame)
    mixed = (seat_bot != seat_bot[:, :1]).any(axis=1)
    seat_bot, ranks = seat_bot[mixed], ranks[mixed]
    n_games = len(seat_bot)
    games_per_bot = [int((seat_bot == i).any(axis=1).sum()) for i in range(len(bots))]
    if n_games == 0:
        mu = np.full(len(bots), 25.0)
        sigma = np.full(len(bots), 25.0 / 3)
        low = high = np.full(len(bots), np.nan)
    else:
        rng = np.random.default_rng(seed)
        orders = rng.permuted(np.tile(np.arange(n_games), (ORDERS, 1)), axis=1)
        mu, sigma = (x.mean(axis=0) for x in _plackett_luce(
            seat_bot, ranks, orders, len(bots)))
        if bootstrap > 0:
            order = rng.integers(0, n_games, size=(bootstrap, n_games))
            boot_mu, _ = _plackett_luce(seat_bot, ranks, order, len(bots))
            alpha = (1 - confidence) / 2
            low, high = np.quantile(boot_mu, [alpha, 1 - alpha], axis=0)
        else:
            low = high = np.full(len(bots), np.nan)
    out = pd.DataFrame({
        "bot": bots, "games": games_per_bot, "mu": mu, "sigma": sigma,
        "ordinal": mu - 3 * sigma, "mu_low": low, "mu_high": high,
    })
    out = out.sort_values("mu", ascending=False).reset_index(drop=True)
    out.insert(0, "place", np.arange(1, len(out) + 1))
    return out


# --------------------------------------------------------------------------------------------
# Precision: clustered intervals (duplicate deals), games needed, convergence
# --------------------------------------------------------------------------------------------


def clustered_win_share(
    frame: pd.DataFrame, by: str = "bot", cluster: str = "seed", confidence: float = 0.95,
) -> pd.DataFrame:
    """Win share per group with a normal interval whose error treats each cluster as one unit.

    In duplicate format the games of one deal (same seed) are correlated; clustering by
    seed gives the honest standard error (ratio estimator, linearized).  For plain rotation
    each seed is its own cluster, so this is the usual per-game standard error.
    """
    frame = _counted(frame, include_truncated=False)
    rows = []
    z = _z(confidence)
    for name, group in frame.groupby(by, sort=True):
        per = group.groupby(cluster)["win_share"].agg(["sum", "size"])
        k = len(per)
        wins, seats = per["sum"].to_numpy(), per["size"].to_numpy(dtype=float)
        share = wins.sum() / seats.sum()
        resid = wins - share * seats
        se = np.sqrt(k / (k - 1) * (resid**2).sum()) / seats.sum() if k > 1 else np.nan
        rows.append({by: name, "games": int(seats.sum()), "clusters": k, "win_share": share,
                     "se": se, "ci_low": share - z * se, "ci_high": share + z * se,
                     "half_width": z * se})
    return pd.DataFrame(rows)


def games_needed(
    half_width: float | list[float], share: float | list[float] = 0.5, confidence: float = 0.95,
) -> pd.DataFrame:
    """Games (seat-games of one bot or seat) for a 95% interval of ± `half_width` around `share`.

    Normal approximation n = z^2 p (1 - p) / h^2, rounded up; p = 0.5 is the worst case.
    """
    z = _z(confidence)
    rows = []
    for h in np.atleast_1d(half_width):
        if h <= 0:
            raise ValueError(f"half width must be positive, got {h}")
        for p in np.atleast_1d(share):
            rows.append({"share": float(p), "half_width": float(h),
                         "games": int(np.ceil(z**2 * p * (1 - p) / h**2 - 1e-9))})
    return pd.DataFrame(rows)


def convergence(
    frame: pd.DataFrame, by: str = "bot", points: int = 60, confidence: float = 0.95,
) -> pd.DataFrame:
    """Cumulative win share per group after the first k games (k on a log-ish grid)."""
    frame = _counted(frame, include_truncated=False)
    key = _game_key(frame)
    order = frame.sort_values(key)
    game_no = order.groupby(key, sort=False).ngroup().to_numpy()
    total = int(game_no.max()) + 1 if len(game_no) else 0
    grid = np.unique(np.geomspace(1, max(total, 1), num=points).astype(int))
    rows = []
    for name, group in order.assign(_g=game_no).groupby(by, sort=True):
        g = group["_g"].to_numpy()
        wins = np.cumsum(group["win_share"].to_numpy())
        for k in grid:
            upto = np.searchsorted(g, k - 1, side="right")
            if upto == 0:
                continue
            low, high = wilson_interval(wins[upto - 1], upto, confidence)
            rows.append({by: name, "games": int(k), "seat_games": int(upto),
                         "win_share": wins[upto - 1] / upto,
                         "ci_low": float(low), "ci_high": float(high)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Ludii-style balance table
# --------------------------------------------------------------------------------------------


def balance_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per context: the game-level measures a designer reads first.

    first_edge (seat 0's win share minus fair), balance (1 - (best - worst seat share), as in
    Ludii), seat p-value (chi-square), tie and truncation rates, mean decisions, rounds
    (`m_rounds`), branching, decisiveness (mean winning margin) and lead changes
    (`m_lead_changes`) when the engine reports them.
    """
    ctx = context_columns(frame)
    seats = seat_advantage(frame).set_index(ctx)
    games = game_outcomes(frame)
    grouped = games.groupby(ctx, sort=True)
    out = grouped.agg(
        games=("margin", "size"), truncated_rate=("truncated", "mean"),
        decisions=("decisions", "mean"), branching=("branching", "mean"),
    )
    decided = games[~games["truncated"]].groupby(ctx, sort=True)
    out["tie_rate"] = decided["tie"].mean()
    out["decisiveness"] = decided["margin"].mean()
    out["rounds"] = grouped["m_rounds"].mean() if "m_rounds" in games else np.nan
    out["lead_changes"] = (grouped["m_lead_changes"].mean() if "m_lead_changes" in games
                           else np.nan)
    out["first_edge"] = seats["first_edge"]
    out["first_edge_low"] = seats["edge_low"]
    out["first_edge_high"] = seats["edge_high"]
    out["balance"] = 1 - (seats["best_share"] - seats["worst_share"])
    out["seat_p_value"] = seats["p_value"]
    out = out.reset_index()
    return out[ctx + ["games", "first_edge", "first_edge_low", "first_edge_high", "balance",
                      "seat_p_value", "tie_rate", "truncated_rate", "decisions", "rounds",
                      "branching", "decisiveness", "lead_changes"]]


# --------------------------------------------------------------------------------------------
# Game systems used (action kinds)
# --------------------------------------------------------------------------------------------


def kind_columns(frame: pd.DataFrame) -> list[str]:
    """Action-kind choice columns (`k_<kind>`), in the frame's order."""
    return [c for c in frame.columns if c.startswith("k_")]


def _kind_names(game_name: str, columns: list[str]) -> dict[str, str]:
    """`k_` column -> the kind's name, in the game's declared order when the game is known
    (column names lose punctuation: "kenjutsu +2" is stored as `k_kenjutsu_2`)."""
    from analysis.results.store import kind_columns as spelled
    from analysis.results.store import kind_label
    from engines import GAMES

    game = GAMES.get(game_name)
    declared = {}
    if game is not None:
        declared = {f"k_{c}": name for c, name in zip(spelled(game.action_kinds),
                                                       game.action_kinds)}
    ordered = [c for c in declared if c in columns] + [c for c in columns if c not in declared]
    return {c: declared.get(c) or kind_label(c) for c in ordered}


def coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """Per context, bot and action kind: how often the bot used the kind, against availability.

    `used_share`: share of the bot's seat-games in which it chose the kind at least once;
    `mean_uses`: mean times per seat-game; `available_share`: share of the seat-games whose
    availability was measured (`a_<kind>` not NaN: the runner measures every
    `AVAILABILITY_EVERY`-th game; `measured_games` of them) in which the kind was legal at
    one of the seat's decisions; `used_when_available`: share of those in which the bot used
    it.  Truncated games count too (this is about play, not wins).
    """
    kinds = kind_columns(frame)
    ctx = context_columns(frame)
    out_columns = ctx + ["bot", "kind", "seat_games", "used_share", "mean_uses",
                         "measured_games", "available_share", "used_when_available"]
    if not kinds:
        return pd.DataFrame(columns=out_columns)
    rows = []
    for key, group in frame.groupby(ctx + ["bot"], sort=True):
        key = key if isinstance(key, tuple) else (key,)
        names = _kind_names(group["game"].iloc[0] if "game" in group else "",
                            own_columns(group, kinds))
        for column, name in names.items():
            uses = group[column].to_numpy()
            offered = group.get("a_" + column[2:], pd.Series(np.nan, index=group.index))
            offered = offered.to_numpy(dtype=float)
            measured = ~np.isnan(offered)
            legal = offered[measured] > 0
            rows.append({
                **dict(zip(ctx + ["bot"], key)), "kind": name, "seat_games": len(group),
                "used_share": float((uses > 0).mean()), "mean_uses": float(uses.mean()),
                "measured_games": int(measured.sum()),
                "available_share": float(legal.mean()) if measured.any() else float("nan"),
                "used_when_available": (float((uses[measured][legal] > 0).mean())
                                        if legal.any() else float("nan")),
            })
    return pd.DataFrame(rows, columns=out_columns)
