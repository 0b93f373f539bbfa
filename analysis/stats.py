"""Statistics on result frames.  Every function takes the frame and returns a tidy DataFrame."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps


def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval for a proportion (works on arrays; fractional successes allowed).

    Shared wins count 1/k, so `successes` may be fractional; the interval is then the
    usual approximation with the observed share.
    """
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    z = sps.norm.ppf(0.5 + confidence / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / trials
        denom = 1 + z**2 / trials
        centre = (p + z**2 / (2 * trials)) / denom
        half = z * np.sqrt(p * (1 - p) / trials + z**2 / (4 * trials**2)) / denom
    return centre - half, centre + half


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
