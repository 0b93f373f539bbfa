"""A strategy landscape as a report section: the verdicts, the heatmap of the matrix, the
α-Rank and Nash tables and the cells behind them (the figures come from
`analysis.run.landscape`; nothing is played here)."""

from __future__ import annotations

import html

import pandas as pd

from analysis.present import plots
from analysis.present.report import image_html, table_html


def _mixture(table: pd.DataFrame, column: str) -> pd.DataFrame:
    return pd.DataFrame({
        "style": table["style"], column: table[column].round(3),
        "95% bootstrap interval": [f"[{lo:.3f}, {hi:.3f}]" for lo, hi
                                   in zip(table["ci_low"], table["ci_high"])],
        "in support (bootstrap)": [f"{100 * s:.0f}%" for s in table["support"]],
        "largest (bootstrap)": [f"{100 * t:.0f}%" for t in table["top"]]})


def _cells(cells: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "lone seat": cells["style"], "table": cells["table"], "games": cells["games"],
        "deals": cells["deals"], "win_share": cells["win_share"], "ci_low": cells["ci_low"],
        "ci_high": cells["ci_high"], "× fair": cells["ratio"].round(2),
        "× fair 95%": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi
                       in zip(cells["ratio_low"], cells["ratio_high"])],
        "p": cells["p_value"], "p_adjusted": cells["p_adjusted"],
        "significant": cells["significant"]})


def landscape_html(command: str, lines: list[str], matrix: pd.DataFrame,
                   cells: pd.DataFrame, alpharank: pd.DataFrame, nash: pd.DataFrame,
                   alpha: float, population: int) -> str:
    """The section body: the command, the verdicts (`Analysis.lines`), the heatmap, α-Rank
    (`mass`) and Nash (`nash`) with bootstrap intervals, and every cell."""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return "\n".join([
        f"<p><code>{html.escape(command)}</code></p>", f"<ul>{items}</ul>",
        image_html(plots.landscape_heatmap(matrix, cells), "strategy landscape heatmap"),
        table_html(_mixture(alpharank, "mass"),
                   f"α-Rank stationary distribution (single population, α = {alpha:g}, "
                   f"population {population})"),
        table_html(_mixture(nash, "nash"),
                   "Nash mixture of the zero-sum-ised meta-game (M − Mᵀ) / 2, by linear "
                   "program"),
        table_html(_cells(cells), "Each lone seat against each table (win share with its "
                                  "95% interval clustered by deal; p of a fair share, "
                                  "adjusted by Holm in the output's family)")])
