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


def test_a_notebook_table_writes_shares_as_percentages_and_keeps_verdicts_whole():
    """What the notebooks show: no raw float (`0.131667`, `1.629072e-06`), seats from 1,
    and a verdict longer than pandas' column width in full."""
    from analysis.present.formats import styled

    verdict = "seat 1: no edge with heuristic, " + "and the line-ups agree " * 6
    table = pd.DataFrame({"seat": [0, 1], "win_share": [0.131667, 0.868333],
                          "p_value": [1.629072e-06, 0.2], "games": [12000, 12000],
                          "verdict": [verdict, "short"]})
    page = styled(table).to_html()
    assert "13.2%" in page and "86.8%" in page and "1.63e-06" in page and "12,000" in page
    assert "0.131667" not in page and "1.629072e-06" not in page
    assert verdict in page and "..." not in page
    assert ">1<" in page and ">2<" in page and ">0<" not in page  # seats counted from 1
    assert "pre-wrap" in page  # long text wraps instead of running off


def test_a_table_names_its_own_share_columns():
    from analysis.present.formats import cell

    assert cell("mass", 0.25) == "0.25"
    assert cell("mass", 0.25, shares=["mass"]) == "25.0%"
    assert cell(("share", "random"), 0.5) == "50.0%"
    assert cell("rules", "") == "official"


def test_the_explanation_writes_points_and_decisions_intervals_as_numbers():
    """`ci_low` is a share in most tables, but the interval of points per source or of
    decisions per seat: never `-53.7%` for −0.54 points."""
    from types import SimpleNamespace

    from analysis.present.formats import styled
    from analysis.present.whatif import EXPLAIN_UNITS, explain_html

    sources = pd.DataFrame({"source": ["majority"], "seat": [0], "points": [3.5],
                            "vs_average": [0.17], "ci_low": [-0.537], "ci_high": [0.87]})
    decisions = pd.DataFrame({"seat": [0], "decisions": [164.8], "vs_average": [-0.11],
                              "ci_low": [-8.53], "ci_high": [8.31]})
    edges = pd.DataFrame({"seat": [0], "win_share": [0.4], "edge": [0.0667],
                          "ci_low": [-0.02], "ci_high": [0.15]})
    result = SimpleNamespace(plan=SimpleNamespace(game="g"), lines=lambda: [], edges=edges,
                             effects=pd.DataFrame(), sources=sources, decisions=decisions)
    page = explain_html(result)
    assert "<td>-0.54</td>" in page and "<td>-8.53</td>" in page and "%</td>" in page
    assert "-53.7%" not in page and "-853.0%" not in page
    assert "<td>6.7%</td>" in page  # the edge is a share
    notebook = styled(sources, *EXPLAIN_UNITS["sources"]).to_html()
    assert ">-0.54<" in notebook and "-53.7%" not in notebook
