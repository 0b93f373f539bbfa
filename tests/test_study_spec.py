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


@pytest.mark.parametrize("spec", SPECS + [StudySpec], ids=lambda s: s.__name__)
def test_every_field_is_given_by_name(spec):
    """No call can put one field in another's place: positional arguments are refused."""
    assert all(f.kw_only for f in dataclasses.fields(spec))
    with pytest.raises(TypeError, match="positional argument"):
        spec("tabula-rasa", 2, 10, ("heuristic", "random"), 1)


def test_the_checks_run_once_in_the_documented_order_and_give_the_validated_rules():
    three = {"game": "tabula-rasa", "players": 3, "games": 10, "bots": ("heuristic",) * 3}
    rules = StudySpec(**three, seed=1, rules={"castle_rule": "two_consecutive"}).checked()
    assert rules.castle_rule == "two_consecutive"
    with pytest.raises(BadInput, match="--games must be positive"):  # before the seed
        StudySpec(**{**three, "games": 0}, seed=-1).checked()
    with pytest.raises(BadInput, match="--chunk-size must be >= 0"):  # a run's own check
        tournament.RunSpec(**three, seed=-1, chunk_size=-1).validated()
    with pytest.raises(BadInput, match="2 bots for 3 players"):
        compare.CompareSpec(**{**three, "bots": ("heuristic",) * 2}, seed=1).checked()
