"""The fields every study names (game, players, games, bots, seed, rules) are declared and
checked once, in `StudySpec`, for every spec that plays games of its own."""

from __future__ import annotations

import dataclasses

import pytest

from analysis.run import compare, experiments, explain, sweep, tournament
from analysis.run.study import StudySpec
from engines.errors import BadInput

SHARED = ["game", "players", "games", "bots", "seed", "rules"]
SPECS = [tournament.RunSpec, compare.CompareSpec, experiments.PlannedRun, sweep.SweepSpec,
         explain.ExplainSpec]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.__name__)
def test_each_study_spec_takes_the_shared_fields_first_from_the_base(spec):
    assert issubclass(spec, StudySpec)
    assert [f.name for f in dataclasses.fields(spec)][:len(SHARED)] == SHARED


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.__name__)
def test_the_shared_fields_in_another_order_fail_by_name(spec):
    with pytest.raises(TypeError, match="takes game, players, games, bots, seed, rules"):
        spec("tabula-rasa", 2, ("heuristic", "random"), 10, 1)  # bots and games swapped


def test_the_checks_run_once_in_the_documented_order_and_give_the_validated_rules():
    rules = StudySpec("tabula-rasa", 3, 10, ("heuristic",) * 3, 1,
                      {"castle_rule": "two_consecutive"}).checked()
    assert rules.castle_rule == "two_consecutive"
    with pytest.raises(BadInput, match="--games must be positive"):  # before the seed
        StudySpec("tabula-rasa", 3, 0, ("heuristic",) * 3, -1).checked()
    with pytest.raises(BadInput, match="--chunk-size must be >= 0"):  # a run's own check
        tournament.RunSpec("tabula-rasa", 3, 10, ("heuristic",) * 3, -1,
                           chunk_size=-1).validated()
    with pytest.raises(BadInput, match="2 bots for 3 players"):
        compare.CompareSpec("tabula-rasa", 3, 10, ("heuristic",) * 2, 1).checked()
