"""Which card, skill or action is too strong or useless: the statistics of `simulate elements`.

Three views of each element of a game (`engines.elements`), from frames already played:

- **Restricted play** (Jaffe et al., AIIDE 2012), the causal one: one seat forbidden the
  element among unrestricted copies of the same bot, on the deals of an unrestricted
  baseline, the restricted seat taking every seat once per deal.  The element's *worth* is
  the baseline seat's win share minus the restricted seat's, per deal (so the interval is
  clustered by deal), in points.
- **Observation** (17lands-style "win rate when played"): in the baseline games, the win share
  of the seats that played the element against those that did not (and held it, where the
  runner measured availability).  Correlation, not cause: a seat plays a strong card when it
  is already winning, and a weak one when it has nothing better.
- **Removal**: the game with the element taken out for every seat (its data set's rule
  options), against the baseline: the change of the winning score.  The deals differ
  (a deck without a card shuffles differently), so this is a two-sample comparison.

Every p-value goes into one Holm family (`verdicts.Family`), which decides every word:
"strongest" (with the elements whose paired difference from it is not significant),
"inconsequential" only when the worth's interval lies within the tolerance of zero (an
equivalence claim, with the balance verdicts' relative tolerance: the restricted seat's share
within fair / T and fair × T, so the worth within −fair (T − 1) and fair (1 − 1/T)),
"cannot tell" otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from analysis.results.store import BOT_COUNT_PREFIX, kind_columns
from analysis.stats import balance, verdicts

#: Default tolerance of "inconsequential", a multiple of the fair share (as exploit's): an
#: element whose worth's whole interval keeps the restricted seat's share within fair / 1.1
#: and fair × 1.1 (a worth between −2.5 and +2.3 points at 4 players).
TOLERANCE = 1.1
#: Fewest seat-games on each side of an observational comparison before it is made.
MIN_GROUP = 30
#: The categories of `category`.
CATEGORIES = ("strongest", "tied with the strongest", "real worth",
              "small real worth, inside the tolerance", "costs the bot",
              "no measurable worth: inconsequential", "never chosen by the bot",
              "never came up", "cannot tell")
#: The categories that say nothing of the element's worth: the restriction changed nothing.
UNTESTED = ("never chosen by the bot", "never came up")


def worth_by_deal(baseline: pd.DataFrame, restricted: pd.DataFrame, bot: str) -> pd.Series:
    """Per deal (seed): the baseline's mean seat win share minus the restricted seat's mean
    share over the seats it took (every seat once per deal, so both average all seats)."""
    base = baseline.groupby("seed")["win_share"].mean()
    lone = restricted[restricted["bot"] == bot].groupby("seed")["win_share"].mean()
    return (base.reindex(lone.index) - lone).dropna()


def restriction_counts(restricted: pd.DataFrame, bot: str) -> dict[str, float]:
    """How often the restriction mattered, from the restricted seat's `b_` columns
    (`engines.bots.restricted`): the share of its games in which the element was offered (the
    restriction removed an option) and in which it bit (changed the bot's choice), choices
    changed per game, and the decisions at which every option was forbidden (let stand) or
    the bot's second choice had to be guessed."""
    rows = restricted[restricted["bot"] == bot]
    column = BOT_COUNT_PREFIX + "forbid_"
    if rows.empty or column + "bit" not in rows:
        return {"offered_share": float("nan"), "bit_share": float("nan"),
                "bits_per_game": float("nan"), "sole": 0, "guess": 0}
    bit = rows[column + "bit"].to_numpy(dtype=float)
    return {"offered_share": float((rows[column + "offered"] > 0).mean()),
            "bit_share": float((bit > 0).mean()), "bits_per_game": float(bit.mean()),
            "sole": int(rows[column + "sole"].sum()), "guess": int(rows[column + "guess"].sum())}


def clustered_difference(values: np.ndarray, group: np.ndarray, cluster: np.ndarray,
                         confidence: float = 0.95) -> tuple[float, float, float, float]:
    """(difference, low, high, p) of the mean of `values` where `group` is true minus where it
    is false, with a standard error that treats each `cluster` (a game's seats) as one unit
    (linearised, as `balance.clustered_win_share`)."""
    values = np.asarray(values, dtype=float)
    group = np.asarray(group, dtype=bool)
    n1, n0 = int(group.sum()), int((~group).sum())
    if n1 == 0 or n0 == 0:
        return (float("nan"),) * 4
    m1, m0 = values[group].mean(), values[~group].mean()
    influence = np.where(group, (values - m1) / n1, -(values - m0) / n0)
    per = pd.Series(influence).groupby(np.asarray(cluster)).sum().to_numpy()
    k = len(per)
    diff = float(m1 - m0)
    if k < 2:
        return diff, float("nan"), float("nan"), float("nan")
    se = math.sqrt(k / (k - 1) * float((per ** 2).sum()))
    half = balance._z(confidence) * se
    p = balance.two_sided_p(diff / se) if se > 0 else (1.0 if diff == 0 else 0.0)
    return diff, diff - half, diff + half, p


def observed(baseline: pd.DataFrame, kinds: Sequence[str], prefix: str) -> dict[str, float]:
    """Win share of the seat-games with the element's kinds (`prefix` k_: played, a_: legal at
    one of the seat's decisions, measured in some games only) against those without: the
    share with it, the difference and its interval clustered by game, and its p.  NaN when
    either side has fewer than `MIN_GROUP` seat-games."""
    columns = [prefix + c for c in kinds]
    empty = {"share": float("nan"), "diff": float("nan"), "low": float("nan"),
             "high": float("nan"), "p": float("nan"), "seat_games": 0}
    if not columns or any(c not in baseline for c in columns):
        return empty
    rows = baseline[~baseline["truncated"]] if "truncated" in baseline else baseline
    counts = rows[columns]
    rows = rows[counts.notna().all(axis=1)]
    if rows.empty:
        return empty
    has = rows[columns].sum(axis=1).to_numpy() > 0
    if has.sum() < MIN_GROUP or (~has).sum() < MIN_GROUP:
        return {**empty, "share": float(has.mean()), "seat_games": len(rows)}
    diff, low, high, p = clustered_difference(rows["win_share"].to_numpy(), has,
                                              rows["seed"].to_numpy())
    return {"share": float(has.mean()), "diff": diff, "low": low, "high": high, "p": p,
            "seat_games": len(rows)}


def winning_scores(frame: pd.DataFrame) -> np.ndarray:
    """The top score of every finished game."""
    rows = frame[~frame["truncated"]] if "truncated" in frame else frame
    return rows.groupby(balance.GAME_KEY)["score"].max().to_numpy(dtype=float)


def removal_change(baseline: pd.DataFrame, removed: pd.DataFrame) -> dict[str, float]:
    """The game without the element against the baseline: the change of the mean winning score
    (two samples: the deals differ) with its interval and p, and of the game length."""
    new, old = winning_scores(removed), winning_scores(baseline)
    if len(new) < 2 or len(old) < 2:
        return {"diff": float("nan"), "low": float("nan"), "high": float("nan"),
                "p": float("nan"), "decisions": float("nan")}
    diff = float(new.mean() - old.mean())
    se = math.sqrt(new.var(ddof=1) / len(new) + old.var(ddof=1) / len(old))
    half = balance._z(0.95) * se
    p = balance.two_sided_p(diff / se) if se > 0 else (1.0 if diff == 0 else 0.0)
    length = (removed.groupby(balance.GAME_KEY)["decisions"].first().mean()
              - baseline.groupby(balance.GAME_KEY)["decisions"].first().mean())
    return {"diff": diff, "low": diff - half, "high": diff + half, "p": p,
            "decisions": float(length)}


#: The tests of each element's row, in the family: (name, its raw p column).
TESTS = (("worth", "worth_p"), ("tie", "tie_p"), ("played", "played_p"), ("held", "held_p"),
         ("removal", "removal_p"))


def raw_table(elements: Sequence[Any], baseline: pd.DataFrame,
              restricted: Mapping[str, pd.DataFrame], bots: Mapping[str, str], players: int,
              tolerance: float = TOLERANCE, removals: Mapping[str, pd.DataFrame] | None = None,
              removal_notes: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per element with every estimate and its raw p (the `TESTS`), nothing decided.

    `elements`: the game's `Element`s studied; `restricted[id]`: the frame of the element's
    restricted comparison, whose restricted seat plays as `bots[id]`; `removals[id]`: the
    frame of the game without it (where played), `removal_notes[id]` why not (elsewhere).
    `tolerance` is a multiple of the fair share 1 / `players` (`worth_band`).  The tie test
    is each element's paired difference from the element of largest worth among those whose
    restriction changed a choice.
    """
    removals = removals or {}
    removal_notes = removal_notes or {}
    fair = 1.0 / players
    rows, deals = [], {}
    for element in elements:
        frame = restricted[element.id]
        per_deal = worth_by_deal(baseline, frame, bots[element.id])
        deals[element.id] = per_deal
        worth, low, high, p = balance.mean_interval(per_deal.to_numpy())
        played = observed(baseline, kind_columns_of(element.played, baseline), "k_")
        held = observed(baseline, kind_columns_of(element.played, baseline), "a_")
        gone = (removal_change(baseline, removals[element.id]) if element.id in removals
                else {"diff": float("nan"), "low": float("nan"), "high": float("nan"),
                      "p": float("nan"), "decisions": float("nan")})
        lone = frame[frame["bot"] == bots[element.id]]
        rows.append({
            "element": element.name, "id": element.id, "group": element.group,
            "games": len(lone), "deals": len(per_deal),
            "restricted_share": float(lone["win_share"].mean()) if len(lone) else np.nan,
            "worth": worth, "worth_low": low, "worth_high": high, "worth_p": p,
            **{k: v for k, v in restriction_counts(frame, bots[element.id]).items()},
            "played_share": played["share"], "played_diff": played["diff"],
            "played_low": played["low"], "played_high": played["high"], "played_p": played["p"],
            "held_share": held["share"], "held_diff": held["diff"], "held_low": held["low"],
            "held_high": held["high"], "held_p": held["p"],
            "removal_diff": gone["diff"], "removal_low": gone["low"],
            "removal_high": gone["high"], "removal_p": gone["p"],
            "removal_decisions": gone["decisions"],
            "removal_note": "" if element.id in removals else removal_notes.get(
                element.id, element.note or "no removal declared for this element"),
        })
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["tolerance"] = tolerance
    out["band_low"], out["band_high"] = worth_band(fair, tolerance)
    came_up = out["bit_share"].fillna(0) > 0  # the restriction changed a choice
    out["largest"] = False
    out["tie_p"] = np.nan
    if came_up.any():
        best = out[came_up]["worth"].idxmax()
        out.loc[best, "largest"] = True
        best_id = out.at[best, "id"]
        for index in out.index[came_up & ~out["largest"]]:
            gap = deals[out.at[index, "id"]] - deals[best_id]
            out.at[index, "tie_p"] = balance.mean_interval(gap.dropna().to_numpy())[3]
    return out


def family_of(raw: pd.DataFrame, name: str = "elements study") -> verdicts.Family:
    """The study's own family: every raw p of its rows (`TESTS`)."""
    family = verdicts.Family(name)
    for test, column in TESTS:
        if len(raw):
            family.add_all(((test, i) for i in raw["id"]), raw[column])
    return family


def decide(raw: pd.DataFrame, adjusted: Callable[[tuple[str, str]], float]) -> pd.DataFrame:
    """The ranked table: each test's p adjusted (`adjusted((test, element id))`, by the
    output's one family) and each element's verdict (`category`), by worth, largest first,
    the elements whose restriction changed no choice last."""
    out = raw.copy()
    if out.empty:
        return out
    for test, _ in TESTS:
        out[f"{test}_p_adjusted"] = [adjusted((test, i)) for i in out["id"]]
    band = (float(out["band_low"].iloc[0]), float(out["band_high"].iloc[0]))
    best = out.index[out["largest"]]
    best_significant = len(best) > 0 and bool(
        out.at[best[0], "worth_p_adjusted"] < verdicts.ALPHA and out.at[best[0], "worth"] > 0)
    out["verdict"] = [category(row, bool(row["largest"]) and best_significant,
                               best_significant, band) for _, row in out.iterrows()]
    out = out.assign(_never=out["verdict"].isin(UNTESTED)).sort_values(
        ["_never", "worth"], ascending=[True, False], kind="stable").drop(columns="_never")
    return out.reset_index(drop=True)


def table(elements: Sequence[Any], baseline: pd.DataFrame, restricted: Mapping[str, pd.DataFrame],
          bots: Mapping[str, str], players: int, tolerance: float = TOLERANCE,
          removals: Mapping[str, pd.DataFrame] | None = None,
          removal_notes: Mapping[str, str] | None = None) -> tuple[pd.DataFrame, verdicts.Family]:
    """`raw_table` decided in its own one Holm family (`family_of`): the ranked table and
    the family."""
    raw = raw_table(elements, baseline, restricted, bots, players, tolerance, removals,
                    removal_notes)
    family = family_of(raw)
    return decide(raw, family.adjusted), family


def family_rows(raws: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Every test of several studies' raw tables as members of an output's family
    (`findings.family` `extra`): kind "elements", `study` and `test` locate each."""
    rows = [{"kind": "elements", "subject": f"{r['element']} {test}", "study": i,
             "test": f"{test}:{r['id']}", "p_value": r[column]}
            for i, raw in enumerate(raws) for r in raw.to_dict("records")
            for test, column in TESTS]
    return pd.DataFrame(rows, columns=["kind", "subject", "study", "test", "p_value"])


def readjusted(raws: Sequence[pd.DataFrame], tests: pd.DataFrame) -> list[pd.DataFrame]:
    """Each study decided with its p-values adjusted in the output's family `tests`
    (`family_rows` members)."""
    members = tests[tests["kind"] == "elements"] if len(tests) else tests
    out = []
    for i, raw in enumerate(raws):
        mine = members[members["study"] == i] if len(members) else members
        by = dict(zip(mine["test"], mine["p_adjusted"])) if len(mine) else {}
        out.append(decide(raw, lambda key, by=by: float(by.get(f"{key[0]}:{key[1]}", np.nan))))
    return out


def kind_columns_of(kinds: Sequence[str], frame: pd.DataFrame) -> list[str]:
    """The result-column names (without prefix) of the game's action kinds `kinds`."""
    from engines import GAMES

    game = GAMES.get(str(frame["game"].iloc[0])) if len(frame) else None
    if game is None:
        return list(kind_columns(kinds))
    spelled = dict(zip(game.action_kinds, kind_columns(game.action_kinds)))
    return [spelled[k] for k in kinds if k in spelled]


def worth_band(fair: float, tolerance: float = TOLERANCE) -> tuple[float, float]:
    """The worths that count as none: those that keep the restricted seat's share (fair minus
    the worth) within fair / tolerance and fair × tolerance, the balance verdicts' band."""
    low, high = verdicts.tolerance_band(fair, tolerance)
    return fair - high, fair - low


def category(row: Mapping[str, Any], is_best: bool, best_significant: bool,
             band: tuple[float, float]) -> str:
    """One element's verdict (`CATEGORIES`), from its adjusted p-values and interval."""
    if not row["offered_share"] > 0:
        return "never came up"
    if not row["bit_share"] > 0:
        return "never chosen by the bot"
    if is_best:
        return "strongest"
    if best_significant and not row["tie_p_adjusted"] < verdicts.ALPHA:
        return "tied with the strongest"
    inside = row["worth_low"] >= band[0] - 1e-12 and row["worth_high"] <= band[1] + 1e-12
    if row["worth_p_adjusted"] < verdicts.ALPHA:
        if row["worth"] < 0:
            return "costs the bot"
        return "small real worth, inside the tolerance" if inside else "real worth"
    if inside:
        return "no measurable worth: inconsequential"
    return "cannot tell"
