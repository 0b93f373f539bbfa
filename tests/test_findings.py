"""Issue 21: findings that hold up — adjusted p-values, fresh-deal confirmation, detectable
effects and team games, each checked against a hand computation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from analysis import stats


def test_issue21_bh_adjustment_matches_scipy_and_hand_computation():
    raw = [0.01, 0.04, 0.03, 0.005]
    # by hand: sorted .005 .01 .03 .04 -> p*m/rank = .02 .02 .04 .04 (already monotone)
    assert stats.adjust_pvalues(raw, "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    rng = np.random.default_rng(3)
    many = rng.uniform(0, 0.2, size=25)
    assert stats.adjust_pvalues(many) == pytest.approx(sps.false_discovery_control(many))


def test_issue21_holm_adjustment_by_hand():
    raw = [0.01, 0.04, 0.03, 0.005]
    # by hand: .005*4 = .02, .01*3 = .03, .03*2 = .06, .04*1 = .04 -> monotone .06
    assert stats.adjust_pvalues(raw, "holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.adjust_pvalues([0.5, 0.9], "holm") == pytest.approx([1.0, 1.0])


def test_issue21_adjustment_leaves_missing_pvalues_out_of_the_family():
    adjusted = stats.adjust_pvalues([0.01, np.nan, 0.04], "bh")
    assert np.isnan(adjusted[1])
    assert adjusted[[0, 2]] == pytest.approx([0.02, 0.04])  # m = 2, not 3
    with pytest.raises(ValueError, match="method"):
        stats.adjust_pvalues([0.1], "bonferroni")


def test_issue21_minimum_detectable_effect_by_hand():
    # (1.959964 + 0.841621) * sqrt(0.25 * 0.75 / 400) = 2.801585 * 0.0216506 = 0.060656
    assert stats.minimum_detectable_effect(400, 0.25) == pytest.approx(0.060656, abs=1e-6)
    # quadrupling the games halves it
    assert stats.minimum_detectable_effect(1600, 0.25) == pytest.approx(0.060656 / 2, abs=1e-6)
    assert stats.mde_from_se(0.01) == pytest.approx(0.02801585, abs=1e-7)
