"""The directories of sweeps, tuning runs and compensation searches: one shared check
(`store.check_study_dir`) refuses, before any game, a directory that holds something else,
a different study or a corrupt spec record, with the same words for every command."""

from __future__ import annotations

import json

import pytest

import engines
from analysis.cli import main
from analysis.run import compensate, sweep, tune
from engines.errors import BadInput
from tests.toy_games import AIM, KOMI


@pytest.fixture
def toys(monkeypatch):
    monkeypatch.setitem(engines.GAMES, KOMI.name, KOMI)
    monkeypatch.setitem(engines.GAMES, AIM.name, AIM)


def sweep_study(games: int = 20):
    spec = sweep.SweepSpec(game="toy-komi", players=2, games=games, bots=("heuristic",) * 2, seed=1,
                           vary=(("head_start_to", ("first", "none")),))
    return "sweep", sweep.SWEEP_FILE, spec, lambda s, out: sweep.run_sweep(s, out)


def tune_study(budget: int = 400):
    spec = tune.TuneSpec("toy-aim", 2, "heuristic", (("aim", ("4", "5")),),
                         ("heuristic:v1",), budget, 1)
    return "tuning run", tune.TUNE_FILE, spec, lambda s, out: tune.run_tune(s, out)


def compensate_study(budget: int = 400):
    spec = compensate.CompensateSpec("toy-komi", 2, ("heuristic",) * 2, 1, budget, steps=1)
    return ("compensation search", compensate.SPEC_FILE, spec,
            lambda s, out: compensate.run_compensate(s, out))


STUDIES = {"sweep": sweep_study, "tune": tune_study, "compensate": compensate_study}


@pytest.mark.parametrize("name", list(STUDIES))
def test_a_directory_holding_something_else_is_refused(toys, tmp_path, name):
    what, _, spec, run = STUDIES[name]()
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BadInput, match=f"is not empty and holds no {what}; use another --out"):
        run(spec, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("name", list(STUDIES))
def test_a_corrupt_spec_record_is_refused(toys, tmp_path, name):
    _, record, spec, run = STUDIES[name]()
    (tmp_path / record).write_text("{not json")
    with pytest.raises(BadInput, match=f"{record} is unreadable or corrupt; remove it or use "
                                       "another --out"):
        run(spec, tmp_path)
    (tmp_path / record).write_text(json.dumps({"game": "toy-komi"}))  # fields missing
    with pytest.raises(BadInput, match="is unreadable or corrupt"):
        run(spec, tmp_path)


@pytest.mark.parametrize("name", list(STUDIES))
def test_a_different_study_is_refused_and_nothing_is_written(toys, tmp_path, name):
    what, record, spec, run = STUDIES[name]()
    (tmp_path / record).write_text(json.dumps(spec.to_json()))
    other = STUDIES[name](800)[2]
    with pytest.raises(BadInput, match=f"holds a different {what}; remove it or use another"):
        run(other, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [record]


def test_compensate_cli_refuses_a_foreign_directory_in_one_line(toys, tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    code = main(["compensate", "toy-komi", "--out", str(tmp_path), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: {tmp_path} is not empty and holds no compensation search")


@pytest.mark.parametrize("load, record", [
    ("analysis.run.exploit:load_exploit", "exploit.json"),
    ("analysis.run.elements:load_elements", "elements.json"),
    ("analysis.run.landscape:read_spec", "landscape.json"),
])
def test_a_finished_studys_damaged_record_is_one_line_of_bad_input(load, record, tmp_path):
    """A record missing a field is the user's damaged file, not a bug (no KeyError)."""
    import importlib

    module, name = load.split(":")
    (tmp_path / record).write_text('{"game": "tabula-rasa"}')
    with pytest.raises(BadInput, match=f"{record} is unreadable or corrupt"):
        getattr(importlib.import_module(module), name)(tmp_path)
    (tmp_path / record).unlink()
    with pytest.raises(BadInput, match=rf"holds no .* \({record} missing\)"):
        getattr(importlib.import_module(module), name)(tmp_path)
