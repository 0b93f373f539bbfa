"""Stored run and sweep directories load and resume: `tests/data/interrupted` holds a run
(20 games, chunks of 10) and a one-at-a-time sweep in the stored format, each interrupted
(one Parquet part missing).  Resuming
them must play exactly the games a fresh run of the same spec plays."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from analysis import load_run
from analysis.cli import main
from analysis.results import runs
from analysis.run import sweep, tournament

STORED = Path(__file__).resolve().parent / "data" / "interrupted"
GAME_COLUMNS = ["game_index", "seed", "seat", "bot", "score", "rank", "win_share"]


@pytest.fixture
def stored(tmp_path) -> Path:
    target = tmp_path / "stored"
    shutil.copytree(STORED, target)
    return target


def _games(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[GAME_COLUMNS].sort_values(["game_index", "seat"]).reset_index(drop=True)


def test_a_stored_manifest_gives_back_its_spec(stored):
    spec = tournament.spec_from_manifest(runs.load([stored / "run"], allow_incomplete=True)[1][0])
    assert spec == tournament.RunSpec(game="tabula-rasa", players=3, games=20,
                                      bots=("heuristic",) * 3, seed=3, rules={},
                                      chunk_size=10)
    assert len(load_run(stored / "run", allow_incomplete=True)) == 10 * 3  # the part on disk


def test_a_stored_interrupted_run_resumes_to_the_games_of_a_fresh_run(stored, tmp_path, capsys):
    assert main(["tabula-rasa", "--resume", str(stored / "run"), "--jobs", "1", "--quiet",
                 "--reference", "none"]) == 0
    assert "20 games" in capsys.readouterr().out
    fresh = tournament.run(tournament.RunSpec(game="tabula-rasa", players=3, games=20,
                                              bots=("heuristic",) * 3, seed=3,
                                              chunk_size=10).validated(),
                           tmp_path / "fresh", jobs=1).frame
    pd.testing.assert_frame_equal(_games(load_run(stored / "run")), _games(fresh))


def test_a_stored_interrupted_sweep_resumes_with_its_recorded_spec(stored, tmp_path):
    spec = sweep.read_spec(stored / "sweep")
    assert spec == sweep.SweepSpec(game="tabula-rasa", players=3, games=10,
                                   bots=("heuristic",) * 3, seed=4,
                                   vary=(("castle_rule", ("first_to_two", "two_consecutive")),))
    assert main(["sweep", "tabula-rasa", "--resume", str(stored / "sweep"), "--jobs", "1",
                 "--quiet"]) == 0
    _, resumed = sweep.load_sweep(stored / "sweep")
    fresh = sweep.run_sweep(spec, tmp_path / "fresh", jobs=1)
    for cell in ("base", "castle_rule=two_consecutive"):
        pd.testing.assert_frame_equal(_games(resumed[resumed["cell"] == cell]),
                                      _games(fresh[fresh["cell"] == cell]))


def test_a_manifest_that_lost_its_checksum_is_refused_but_one_from_before_checksums_is_read(
        stored, tmp_path):
    import json

    from analysis.results import store

    assert "manifest_sha256" not in store.read_manifest(stored / "run")  # format version 2
    run = tournament.run(tournament.RunSpec(game="tabula-rasa", players=2, games=4,
                                            bots=("random",) * 2, seed=1).validated(),
                         tmp_path / "new", jobs=1).run_dir
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["manifest_sha256"]
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(store.RunError, match="was edited after its run was written"):
        store.read_manifest(run)
