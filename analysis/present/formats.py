"""How a share is written in every terminal table, report table and sentence: one function,
so the CLI, the run summary and the HTML report cannot drift apart."""

from __future__ import annotations

import pandas as pd


def percent(x: float | None, digits: int | None = 1) -> str:
    """`0.2534` -> `25.3%`; a missing value (None, NaN) -> `–`.

    `digits=None` writes whole percents, but one decimal under 1% so that a rare share does
    not read as 0% (the coverage lines: "used in 0.4% of games").
    """
    if x is None or pd.isna(x):
        return "–"
    if digits is None:
        digits = 0 if x >= 0.01 or x == 0 else 1
    return f"{100 * x:.{digits}f}%"
