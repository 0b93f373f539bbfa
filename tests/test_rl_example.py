"""The RL example trains through the PettingZoo adapter and learns to beat random play."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "learn_against_random.py"


def _example():
    spec = importlib.util.spec_from_file_location("learn_against_random", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_trains_and_prints_its_learning_curve():
    out = io.StringIO()
    curve = _example().train(games=40, every=20, evaluation=10, out=out)
    assert [point[0] for point in curve] == [0, 20, 40]
    assert all(0 <= low <= share <= high <= 1 for _, share, low, high in curve)
    assert "after     40 games" in out.getvalue()


@pytest.mark.slow
def test_example_learns_to_beat_random_play():
    """Big Cheese, 3 players: after 600 games the policy's interval lies above the fair 1/3."""
    curve = _example().train(games=600, every=600, evaluation=300, out=io.StringIO())
    (_, untrained, _, _), (_, trained, low, _) = curve
    assert low > 1 / 3 and trained > untrained
