"""Why a seat wins: each seat's edge, and how much of it each seat lever removes.

A seat's **edge** is its win share minus the fair share 1/n (in points: hundredths).  The
game's seat levers (rule options marked `lever`, e.g. Time Pirates' placement order and end of
game) each change one seat-order mechanism.  `simulate explain` plays the same deals under the
printed rules and under every other choice of every lever (a one-at-a-time paired sweep,
`analysis.run.sweep`), and reports per lever and seat how much of the seat's edge the lever
removes: the mean per-deal difference of the seat's win (printed minus lever) with its paired
interval.  Every p-value the output can call significant (each seat's edge, each lever × seat
effect, each scoring source × seat difference) is Holm-adjusted in one family, named in the
output's last line.

Where the edge comes from is read off the printed rules' games: each seat's points from each
scoring source against the average seat (sources named `year…` / `round…` are the game's rounds,
so for those games this is points per round per seat), and each seat's decisions per game
(from the recorded action kinds; turns per seat are not recorded separately).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.run import sweep
from analysis.run.study import StudySpec
from analysis.stats import balance, verdicts
from engines import get_game
from engines.core import seat_levers
from engines.errors import BadInput

#: Scoring sources whose names mark them as rounds of the game (points per round per seat).
ROUND_PREFIXES = ("year", "round")
#: The tests of an explanation's one Holm family, as its footer names them.
FAMILY_MEMBERS = "every seat edge, lever × seat effect and scoring source × seat difference"


@dataclass(frozen=True, kw_only=True)
class ExplainSpec(StudySpec):
    """What to explain: `levers` = the lever options to try (empty = every lever the game
    has); `rules` = the base rules (the printed ones unless given)."""

    levers: tuple[str, ...] = ()

    def lever_values(self) -> dict[str, tuple[Any, ...]]:
        """Each lever tried, with its choices (the base value first)."""
        game = get_game(self.game)
        known = seat_levers(game.Rules)
        if not known:
            raise BadInput(f"{self.game} has no seat levers (rule options marked as such)")
        unknown = [k for k in self.levers if k not in known]
        if unknown:
            raise BadInput(f"{unknown[0]!r} is not a seat lever of {self.game}; levers: "
                             f"{', '.join(known)}")
        chosen = self.levers or tuple(known)
        return {key: known[key] for key in chosen}

    def sweep_spec(self) -> sweep.SweepSpec:
        """The one-at-a-time paired sweep behind the explanation."""
        vary = tuple((key, tuple(str(v) for v in values))
                     for key, values in self.lever_values().items())
        return sweep.SweepSpec(game=self.game, players=self.players, games=self.games,
                               bots=self.bots, seed=self.seed, vary=vary,
                               design="one-at-a-time", rules=dict(self.rules))


def validated(spec: ExplainSpec) -> sweep.SweepSpec:
    """The sweep spec with every cell validated (bad input fails before anything runs)."""
    get_game(spec.game).check_players(spec.players)
    if spec.games < 2:
        raise BadInput(f"--games must be at least 2 (intervals need two deals), got "
                         f"{spec.games}")
    plan = spec.sweep_spec()
    sweep.validated_cells(plan)
    return plan


def run_explain(spec: ExplainSpec, out_dir: str | Path, jobs: int = 1,
                progress: Callable[[int], None] | None = None, backend: str = "loky",
                scheduler: str | None = None) -> pd.DataFrame:
    """Play (or finish: the sweep directory resumes) every cell; returns the sweep's frame."""
    plan = validated(spec)
    return sweep.run_sweep(plan, out_dir, jobs, progress, backend, scheduler)


def spec_of(plan: sweep.SweepSpec) -> ExplainSpec:
    """The explanation a stored sweep directory holds (for `--resume`)."""
    return ExplainSpec(game=plan.game, players=plan.players, games=plan.games, bots=plan.bots,
                       seed=plan.seed, rules=dict(plan.rules),
                       levers=tuple(k for k, _ in plan.vary))


# --------------------------------------------------------------------------------------------
# Seat edges, paired by deal
# --------------------------------------------------------------------------------------------


def seat_values(table: pd.DataFrame) -> np.ndarray:
    """Per game (rows of `sweep.game_table`) and seat: the seat's win minus the fair share."""
    n = int(table["players"].iloc[0])
    return table[[f"win_{s}" for s in range(n)]].to_numpy(dtype=float) - 1.0 / n


def seat_edges(table: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per seat (0-based, as in results): `edge` (win share − fair), its Wilson
    interval (`balance.share_interval`, as an edge) and raw p (adjusted where it is read:
    `one_family` for `explain`)."""
    values = seat_values(table)
    fair = 1 / values.shape[1]
    rows = []
    for seat in range(values.shape[1]):
        share, low, high, p = balance.share_interval(values[:, seat] + fair, fair, confidence)
        rows.append({"seat": seat, "win_share": share, "edge": share - fair,
                     "ci_low": low - fair, "ci_high": high - fair, "p": p,
                     "games": len(values)})
    return pd.DataFrame(rows)


def _tables(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    return {cell: sweep.game_table(part) for cell, part in frame.groupby("cell")}


def lever_effects(plan: sweep.SweepSpec, frame: pd.DataFrame,
                  confidence: float = 0.95) -> pd.DataFrame:
    """Per lever setting and seat: the seat's edge under the base and under the lever, and
    `removed` = base edge − lever edge (paired by deal) with its interval and raw p
    (`one_family` adjusts it and marks it `significant`)."""
    tables = _tables(frame)
    cells = plan.cells()
    base_cell = next(c for c in cells if c.name == "base")
    base = tables[base_cell.name]
    base_values = seat_values(base)
    rows = []
    for cell in cells:
        if cell.name == base_cell.name:
            continue
        key = next(k for k, v in cell.settings.items() if v != base_cell.settings[k])
        table = tables[cell.name]
        if not table.index.equals(base.index):
            raise RuntimeError(f"cell {cell.name} did not play the base's deals")
        values = seat_values(table)
        fair = 1 / values.shape[1]
        for seat in range(base_values.shape[1]):
            removed, low, high, p = balance.mean_interval(base_values[:, seat] - values[:, seat],
                                                          confidence)
            _, edge_low, edge_high, _ = balance.share_interval(values[:, seat] + fair, fair,
                                                               confidence)
            rows.append({"lever": key, "setting": cell.settings[key],
                         "base_setting": base_cell.settings[key], "seat": seat,
                         "base_edge": float(base_values[:, seat].mean()),
                         "edge": float(values[:, seat].mean()), "edge_low": edge_low - fair,
                         "edge_high": edge_high - fair, "removed": removed,
                         "ci_low": low, "ci_high": high, "p": p})
    return pd.DataFrame(rows)


def sources_by_seat(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per scoring source and seat: mean points per game and the seat's points minus the
    average seat's from that source (per-game values, with an interval); `round` marks the
    sources that are rounds of the game."""
    sources = balance.source_columns(frame)
    rows = []
    if not sources:
        return pd.DataFrame(rows)
    n = int(frame["players"].iloc[0])
    for column in sources:
        wide = frame.pivot_table(index="seed", columns="seat", values=column, aggfunc="sum")
        average = wide.mean(axis=1)
        for seat in range(n):
            diff, low, high, p = balance.mean_interval((wide[seat] - average).to_numpy(dtype=float),
                                           confidence)
            name = column[len("pts_"):]
            rows.append({"source": name, "round": name.startswith(ROUND_PREFIXES),
                         "seat": seat, "points": float(wide[seat].mean()),
                         "vs_average": diff, "ci_low": low, "ci_high": high, "p": p})
    return pd.DataFrame(rows)


def decisions_by_seat(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per seat: decisions per game (the sum of its recorded action kinds), with an interval
    of its difference from the average seat.  Empty when the run recorded no action kinds."""
    kinds = [c for c in frame.columns if c.startswith("k_")]
    if not kinds:
        return pd.DataFrame()
    counts = frame.assign(_decisions=frame[kinds].sum(axis=1)).pivot_table(
        index="seed", columns="seat", values="_decisions", aggfunc="sum")
    average = counts.mean(axis=1)
    rows = []
    for seat in counts.columns:
        diff, low, high, _ = balance.mean_interval((counts[seat] - average).to_numpy(dtype=float),
                                       confidence)
        rows.append({"seat": int(seat), "decisions": float(counts[seat].mean()),
                     "vs_average": diff, "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# In words
# --------------------------------------------------------------------------------------------


def _pts(x: float) -> str:
    """A share difference in signed points, never "-0.0"."""
    text = f"{100 * x:+.1f}"
    return "+0.0" if text == "-0.0" else text


def _seats_to_explain(edges: pd.DataFrame) -> list[int]:
    """Seats (0-based) whose edge is significant after Holm; else the one with the largest."""
    off = edges[edges["p_adjusted"] < balance.ALPHA]
    if len(off):
        return sorted(int(seat) for seat in off["seat"])
    return [int(edges.loc[edges["edge"].abs().idxmax(), "seat"])]


def edge_lines(edges: pd.DataFrame) -> list[str]:
    """Each seat's edge with its interval, and whether it is significant (its `p_adjusted`,
    adjusted in the output's family)."""
    lines = []
    for row in edges.itertuples():
        verdict = "significant" if row.p_adjusted < balance.ALPHA else "not significant"
        lines.append(f"seat {row.seat + 1}: win share {100 * row.win_share:.1f}%, edge "
                     f"{_pts(row.edge)} points [{_pts(row.ci_low)}, {_pts(row.ci_high)}] "
                     f"({verdict})")
    return lines


def lever_lines(effects: pd.DataFrame, seats: list[int]) -> list[str]:
    """'game_end=round removes 2.1 of seat 1's +7.4 points [0.8, 3.4]' per lever and seat.

    `removed` is signed toward the edge: removing part of a shortfall is a positive number
    too; a negative number means the lever makes the seat's edge larger."""
    lines = []
    for (lever, setting), part in effects.groupby(["lever", "setting"], sort=False):
        for seat in seats:
            row = part[part["seat"] == seat].iloc[0]
            sign = 1.0 if row["base_edge"] >= 0 else -1.0
            removed = sign * row["removed"]
            low, high = sorted((sign * row["ci_low"], sign * row["ci_high"]))
            word = "edge" if row["base_edge"] >= 0 else "shortfall"
            verb = "removes" if removed >= 0 else "adds"
            amount = abs(removed)
            bounds = f"[{_pts(low)}, {_pts(high)}]"
            tail = "" if row["significant"] else " (not significant)"
            base = abs(row["base_edge"])
            if verb == "adds":
                bounds = f"[{_pts(-high)}, {_pts(-low)}]"
                text = (f"{lever}={setting} adds {100 * amount:.1f} points to seat {seat + 1}'s "
                        f"{100 * base:.1f}-point {word} {bounds}{tail}; "
                        f"under it the edge is {_pts(row['edge'])}")
            elif amount > base:
                # more than the whole edge: say what is left, read off its own interval
                under = f"{_pts(row['edge'])} [{_pts(row['edge_low'])}, {_pts(row['edge_high'])}]"
                reversed_ = (row["edge_low"] > 0) if sign < 0 else (row["edge_high"] < 0)
                other = "shortfall" if word == "edge" else "edge"
                done = (f"turns seat {seat + 1}'s {100 * base:.1f}-point {word} into "
                        f"{'an ' if other == 'edge' else 'a '}{other}" if reversed_ else
                        f"removes all of seat {seat + 1}'s {100 * base:.1f}-point {word}")
                text = (f"{lever}={setting} {done} (a change of {100 * amount:.1f} points "
                        f"{bounds}{tail}); under it the edge is {under}")
            else:
                text = (f"{lever}={setting} removes {100 * amount:.1f} of seat {seat + 1}'s "
                        f"{100 * base:.1f}-point {word} {bounds}{tail}; "
                        f"under it the edge is {_pts(row['edge'])}")
            lines.append(text)
    return lines


def source_lines(sources: pd.DataFrame, seats: list[int]) -> list[str]:
    """Per explained seat, the sources where it scores significantly off the average seat
    (`p_adjusted`, adjusted in the output's family)."""
    if sources.empty:
        return ["the results record no scoring sources"]
    lines = []
    for seat in seats:
        part = sources[(sources["seat"] == seat) & (sources["p_adjusted"] < balance.ALPHA)]
        part = part.sort_values("vs_average", key=abs, ascending=False)
        if part.empty:
            lines.append(f"seat {seat + 1}: no scoring source differs significantly from the "
                         "average seat's")
            continue
        cells = [f"{r.source} {r.vs_average:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]"
                 for r in part.itertuples()]
        lines.append(f"seat {seat + 1} against the average seat, points per game: "
                     + "; ".join(cells))
    if not sources["round"].any():
        lines.append("(the results record points by scoring source, not by round: this game "
                     "has no per-round sources)")
    return lines


def decision_lines(decisions: pd.DataFrame) -> list[str]:
    if decisions.empty:
        return ["the results record no action kinds, so decisions per seat are unknown"]
    cells = [f"seat {r.seat + 1} {r.decisions:.1f} ({r.vs_average:+.2f} [{r.ci_low:+.2f}, "
             f"{r.ci_high:+.2f}] against the average seat)" for r in decisions.itertuples()]
    return ["decisions per game: " + "; ".join(cells)]


@dataclass
class Explanation:
    """Everything `simulate explain` prints and the report shows."""

    plan: sweep.SweepSpec
    edges: pd.DataFrame
    effects: pd.DataFrame
    sources: pd.DataFrame
    decisions: pd.DataFrame
    #: The one Holm family of every p-value above (`one_family`).
    family: verdicts.Family = field(default_factory=lambda: verdicts.Family("explanation"))

    @property
    def seats(self) -> list[int]:
        return _seats_to_explain(self.edges)

    def header(self) -> str:
        p = self.plan
        rules = ",".join(f"{k}={v}" for k, v in p.rules.items()) or "printed rules"
        return (f"{p.game} {p.players}p · line-up {', '.join(p.bots)} (rotated over seats) · "
                f"{p.games:,} games per setting on the same deals (seed {p.seed}) · base: "
                f"{rules} · levers: {', '.join(k for k, _ in p.vary)}")

    @property
    def level(self) -> str:
        """The strength of play every figure was measured at: one bot, or the line-up."""
        bots = sorted(set(self.plan.bots))
        return f"{bots[0]} play" if len(bots) == 1 else f"the line-up {', '.join(self.plan.bots)}"

    def ladder_offer(self) -> str:
        """Which level the figures come from, and the command that measures how the seat
        edges change under stronger play (a skill ladder on the same rules)."""
        p = self.plan
        rules = "".join(f" --rule {shlex.quote(f'{k}={v}')}" for k, v in p.rules.items())
        return (f"measured at one strength of play ({self.level}); how each seat's edge "
                f"changes under stronger play: simulate {p.game} --ladder --players "
                f"{p.players}{rules}")

    def lines(self) -> list[str]:
        out = [self.header(), self.ladder_offer(),
               "Seat edges (win share − fair share, 95% intervals):"]
        out += ["  " + line for line in edge_lines(self.edges)]
        out.append("What each lever removes (paired by deal):")
        out += ["  " + line for line in lever_lines(self.effects, self.seats)]
        out.append(f"Where the edge comes from (printed rules' games, {self.level}):")
        out += ["  " + line for line in source_lines(self.sources, self.seats)]
        out += ["  " + line for line in decision_lines(self.decisions)]
        out.append(self.family.note(FAMILY_MEMBERS))
        return out


def one_family(edges: pd.DataFrame, effects: pd.DataFrame, sources: pd.DataFrame
               ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, verdicts.Family]:
    """The three tables with `p_adjusted` (and `significant`) from one Holm family over every
    seat edge, lever × seat effect and source × seat difference: the output calls each of
    them significant or not, so they are adjusted together."""
    family = verdicts.Family("explanation")
    tables = {"edge": edges, "lever": effects, "source": sources}
    for kind, table in tables.items():
        if "p" in table:
            family.add_all(((kind, i) for i in range(len(table))), table["p"])
    out = []
    for kind, table in tables.items():
        if "p" in table:
            adjusted = [family.adjusted((kind, i)) for i in range(len(table))]
            table = table.assign(p_adjusted=adjusted)
            if kind == "lever":
                table["significant"] = table["p_adjusted"] < balance.ALPHA
        out.append(table)
    return out[0], out[1], out[2], family


def explain(plan: sweep.SweepSpec, frame: pd.DataFrame,
            confidence: float = 0.95) -> Explanation:
    """The explanation of a finished sweep (`run_explain`'s frame or `sweep.load_sweep`),
    every p-value adjusted in its one family (`one_family`)."""
    base = frame[frame["cell"] == "base"]
    edges, effects, sources, family = one_family(
        seat_edges(sweep.game_table(base), confidence), lever_effects(plan, frame, confidence),
        sources_by_seat(base, confidence))
    return Explanation(plan, edges, effects, sources, decisions_by_seat(base, confidence),
                       family)
