"""One percentage formatter (`analysis.present.formats.percent`) for the CLI, the run
summary, the report and the coverage lines; each caller's format is one of its modes."""

from __future__ import annotations

import math

import pandas as pd

from analysis.present.formats import percent


def test_percent_writes_a_share_with_one_decimal_by_default():
    assert percent(0.2534) == "25.3%"  # summary, report, compare tables
    assert percent(1.0) == "100.0%"
    assert percent(0.2534, 2) == "25.34%"


def test_percent_writes_a_missing_value_as_a_dash():
    assert percent(math.nan) == percent(None) == percent(pd.NA) == "–"


def test_percent_coarse_mode_keeps_rare_shares_visible():
    """The coverage lines' mode: whole percents, one decimal under 1%, plain 0%."""
    assert percent(0.25, None) == "25%"
    assert percent(0.01, None) == "1%"
    assert percent(0.004, None) == "0.4%"
    assert percent(0, None) == "0%"


def test_rate_keeps_two_significant_digits_for_slow_runs():
    from analysis.present.formats import rate

    assert rate(0.478) == "0.48"
    assert rate(3.46) == "3.5"
    assert rate(1234.5) == "1,234"
