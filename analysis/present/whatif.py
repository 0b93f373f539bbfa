"""What-if sweeps, seat explanations and tuning searches as report sections: the effects
table in each statistic's unit, the ranking in words, the conclusions table and the
effect-size chart (the figures come from `run.sweep`, `run.explain` and `run.tune`; nothing is
played here)."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd

from analysis.present import plots
from analysis.present.report import image_html, table_html


def effects_shown(table: pd.DataFrame) -> pd.DataFrame:
    """The effects table as a report shows it: every value written in its statistic's unit
    (a share as a percentage and its change in points; game length and its change in
    decisions), so a length change never reads as a percentage."""
    if table.empty:
        return table
    rows = []
    for row in table.to_dict("records"):
        length = row["statistic"] == "length"
        scale = 1.0 if length else 100.0
        level = (lambda v: f"{v:.1f}") if length else (lambda v: f"{100 * v:.1f}%")
        rows.append({
            "key": row["key"], "reference_value": row["reference_value"],
            "setting": row["setting"], "statistic": row["statistic"],
            "reference": level(row["reference"]), "estimate": level(row["estimate"]),
            "unit": "decisions" if length else "points",
            "change": f"{row['effect'] * scale:+.1f}",
            "95% interval": f"[{row['ci_low'] * scale:+.1f}, {row['ci_high'] * scale:+.1f}]",
            "p": row["p"], "p_adjusted": row["p_adjusted"], "significant": row["significant"],
            "narrower": round(row["se_independent"] / row["se"], 2) if row["se"] else np.nan,
        })
    return pd.DataFrame(rows)


def sweep_html(spec: Any, frame: pd.DataFrame, table: pd.DataFrame, lines: list[str],
               conclusions: pd.DataFrame | None = None, title: str = "",
               family: str = "the table") -> str:
    """The sweep's report section: effects, the ranking, the conclusions table (one at a time)
    and a chart of effect sizes.  `spec`: the sweep (`run.sweep.SweepSpec`); `table`: its
    effects with p adjusted in the output's family (`family` names it); `lines`: the
    ranking in words (`sweep.ranking`); `conclusions`: `sweep.conclusions`, when the design
    varies one key at a time."""
    label = (f"{spec.game} {spec.players}p, bots {', '.join(spec.bots)}, {spec.games} games per "
             f"cell on the same deals (seed {spec.seed}), {spec.design}; data sets: "
             f"{', '.join(sorted(frame['dataset'].unique()))}")
    parts = [f"<h2>{title or 'What-if sweep'}: {spec.game}</h2>", f"<p>{label}</p>"]
    numbered = [line.split(". ", 1)[1] for line in lines if line[:1].isdigit()]
    parts.append(f"<p>What matters most (significant after Holm over {html.escape(family)}, "
                 "largest "
                 "first; shares in points, game length in decisions):</p><ol>" + "".join(
                     f"<li>{html.escape(line)}</li>" for line in numbered) + "</ol>" + "".join(
                     f"<p>{html.escape(line)}</p>" for line in lines
                     if not line[:1].isdigit()))
    if conclusions is not None:
        parts.append(table_html(conclusions, "Which conclusions of the base setting hold"))
    parts.append(table_html(effects_shown(table),
                            "Effects against the reference value, paired by deal, in the "
                            "unit of each statistic: points for shares, decisions for game "
                            f"length (p adjusted by Holm over {family}); narrower = how many "
                            "times wider independent runs' intervals would be"))
    parts.append(image_html(plots.effect_sizes(table), "effect sizes"))
    return "\n".join(parts)


def conclusion_lines(conclusions: pd.DataFrame) -> list[str]:
    """Each conclusion of a one-at-a-time sweep's base setting in one line for the terminal:
    `first-seat edge (base text): holds over every varied value` (`sweep.conclusions`)."""
    return [f"{row['conclusion']} ({row['base']}): {row['verdict']}"
            for _, row in conclusions.iterrows()]


def as_sweep_effects(effects: pd.DataFrame) -> pd.DataFrame:
    """The lever effects in the shape of `sweep.effects` (one statistic per seat: the edge
    removed), so `plots.effect_sizes` draws them."""
    if effects.empty:
        return pd.DataFrame(columns=["key", "setting", "statistic", "effect", "ci_low",
                                     "ci_high", "significant"])
    return pd.DataFrame({"key": effects["lever"], "setting": effects["setting"],
                         "statistic": [f"seat {s + 1} edge removed" for s in effects["seat"]],
                         "effect": effects["removed"], "ci_low": effects["ci_low"],
                         "ci_high": effects["ci_high"], "significant": effects["significant"]})


#: The units of the explanation's tables where a column's name alone would mislead: per
#: table, the columns that are shares (percentages) and those that are points or decisions
#: (plain numbers, never percentages), for `styled` and `table_html`.
EXPLAIN_UNITS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "edges": (("edge",), ()),
    "effects": (("base_edge", "edge", "removed"), ()),
    "sources": ((), ("ci_low", "ci_high")),
    "decisions": ((), ("ci_low", "ci_high")),
}


def explain_html(result: Any, title: str = "") -> str:
    """The explanation (`run.explain.Explanation`) as a report section: the words, then the
    tables behind them."""
    escape = html.escape
    parts = [f"<h2>{escape(title or 'Why a seat wins')}: {escape(result.plan.game)}</h2>",
             "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in result.lines()) + "</ul>"]
    parts.append(table_html(result.edges, "Seat edges under the base rules",
                            *EXPLAIN_UNITS["edges"]))
    if not result.effects.empty:
        parts.append(table_html(result.effects, "Edge removed per lever and seat (base − "
                                                "lever, paired by deal; p adjusted in the "
                                                "explanation's one family)",
                                *EXPLAIN_UNITS["effects"]))
        parts.append(image_html(plots.effect_sizes(as_sweep_effects(result.effects)),
                                "edge removed per lever and seat"))
    if not result.sources.empty:
        parts.append(table_html(result.sources, "Points per game by scoring source and seat, "
                                                "against the average seat (p adjusted in the "
                                                "explanation's one family)",
                                *EXPLAIN_UNITS["sources"]))
    if not result.decisions.empty:
        parts.append(table_html(result.decisions, "Decisions per game by seat",
                                *EXPLAIN_UNITS["decisions"]))
    return "\n".join(parts)


def tune_html(command: str, lines: list[str], table: pd.DataFrame, style_path: Any) -> str:
    """A tuning search as an experiment report's section body: the command, the summary
    (`tune.summary_lines`), the candidates (`TuneResult.table`) and the style file."""
    def pct(x: float) -> str:
        return f"{x * 100:.1f}%"

    rows = "".join(
        f"<tr><td>{html.escape(r.candidate)}</td><td>{r.games:,}</td>"
        f"<td>{pct(r.win_share)} [{pct(r.ci_low)}, {pct(r.ci_high)}]</td>"
        f"<td>{r.difference * 100:+.1f} [{r.diff_low * 100:+.1f}, {r.diff_high * 100:+.1f}]"
        f"</td></tr>" for r in table.itertuples())
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return (f"<p>{html.escape(command)}</p><ul>{items}</ul>"
            "<table><tr><th>candidate</th><th>games</th><th>win share [95%]</th>"
            f"<th>minus best, points [95% paired]</th></tr>{rows}</table>"
            f"<p>style file: {html.escape(str(style_path))}</p>")
