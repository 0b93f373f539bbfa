"""Tournament runner: reproducible seeding, seat rotation, checkpoints and resume."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from analysis import load_run
from analysis.results import store
from analysis.results.store import RunError, finished_chunks
from analysis.run import tournament
from engines.core import GameRecord

GAME = "tabula-rasa"


def _spec(**overrides) -> tournament.RunSpec:
    base = dict(game=GAME, players=3, games=60, bots=("heuristic", "random", "random"),
                seed=42, chunk_size=8)
    base.update(overrides)
    return tournament.RunSpec(**base)


def _comparable(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=["run_id"]).reset_index(drop=True)


def test_frame_identical_for_any_jobs_and_chunk_size(tmp_path):
    one = tournament.run(_spec(), tmp_path / "a", jobs=1).frame
    two = tournament.run(_spec(), tmp_path / "b", jobs=2).frame
    other_chunks = tournament.run(_spec(chunk_size=25), tmp_path / "c", jobs=1).frame
    pd.testing.assert_frame_equal(_comparable(one), _comparable(two))
    pd.testing.assert_frame_equal(_comparable(one), _comparable(other_chunks))
    assert len(one) == 60 * 3
    assert one["game_index"].nunique() == 60


def test_different_seed_gives_different_games(tmp_path):
    a = tournament.run(_spec(), tmp_path / "a", jobs=1).frame
    b = tournament.run(_spec(seed=43), tmp_path / "b", jobs=1).frame
    assert not a["seed"].equals(b["seed"])


def test_seat_rotation_gives_every_bot_every_seat_equally(tmp_path):
    frame = tournament.run(_spec(games=30), tmp_path / "r", jobs=1).frame
    counts = frame.groupby(["bot", "seat"]).size().unstack()
    assert (counts.loc["heuristic"] == 10).all()
    assert (counts.loc["random"] == 20).all()


def test_win_share_splits_shared_wins_and_sums_to_one_per_game(tmp_path):
    frame = tournament.run(_spec(), tmp_path / "w", jobs=1).frame
    per_game = frame.groupby("game_index")["win_share"].sum()
    assert per_game.round(9).eq(1.0).all()
    shared = frame[(frame["win_share"] > 0) & (frame["win_share"] < 1)]
    for _, game in shared.groupby("game_index"):
        assert game["win_share"].iloc[0] == pytest.approx(1 / len(game))


def test_chunk_columns_count_a_missing_score_source_as_zero():
    """A score source or metric that only some games report counts 0 in the others."""
    def record(scores, breakdown, metrics):
        return GameRecord(scores=scores, winners=[0], ranks=[1, 2], breakdown=breakdown,
                          decisions=3, truncated=False, metrics=metrics)

    games = [record([1.0, 2.0], {"a": [1.0, 2.0]}, {"x": 1.0}),
             record([3.0, 4.0], {"b": [3.0, 4.0]}, {}),
             record([12.0, 14.0], {"a": [5.0, 6.0], "b": [7.0, 8.0]}, {"x": 2.0})]
    meta = {"run_id": "r", "game": "g", "rules": "", "dataset": "d"}
    columns = store.chunk_columns(games, 10, [7, 8, 9], [("p", "q")] * 3, meta)
    assert columns["game_index"] == [10, 10, 11, 11, 12, 12]
    assert columns["seat"] == [0, 1] * 3
    assert columns["pts_a"] == [1.0, 2.0, 0.0, 0.0, 5.0, 6.0]
    assert columns["pts_b"] == [0.0, 0.0, 3.0, 4.0, 7.0, 8.0]
    assert columns["m_x"] == [1.0, 1.0, 0.0, 0.0, 2.0, 2.0]
    assert columns["win_share"] == [1.0, 0.0] * 3
    assert {len(c) for c in columns.values()} == {6}


def test_a_games_seed_does_not_depend_on_how_many_games_the_run_has():
    """Game i's seed must equal the i-th of any longer run."""
    whole = tournament.game_seeds(11, 500)
    assert list(tournament.game_seeds(11, 37)) == list(whole[:37])


@pytest.mark.parametrize("seed, branch", [(0, 0), (11, 0), (2**40 + 3, 0), (1, 1), (7, 101)])
@pytest.mark.parametrize("start, stop", [(0, 1), (0, 700), (1, 2), (37, 529), (699, 700),
                                         (5, 5)])
def test_seeds_of_a_range_are_numpys_seed_sequence_words(seed, branch, start, stop):
    """`seeds_between` skips ahead in SeedSequence's output: the same seeds as numpy's
    `generate_state` for the whole run, sliced (so every stored run plays the same games)."""
    sequence = (np.random.SeedSequence(seed) if branch == 0
                else np.random.SeedSequence(seed, spawn_key=(branch,)))
    whole = (sequence.generate_state(700, dtype=np.uint64) >> np.uint64(1)).astype(np.int64)
    assert np.array_equal(tournament.seeds_between(seed, start, stop, branch),
                          whole[start:stop])


def test_a_run_of_a_trillion_games_is_planned_in_constant_memory():
    """Chunks and seeds are planned lazily: the last chunk of a 10**12-game run is reached
    without listing the chunks or seeds before it."""
    import itertools
    import tracemalloc

    spec = tournament.RunSpec(game="tabula-rasa", players=2, games=10**12,
                              bots=("heuristic", "random"), seed=3).validated()
    tracemalloc.start()
    try:
        first = list(itertools.islice(tournament.chunks(spec), 5))
        last = (tournament.chunk_count(spec) - 1) * spec.chunk_size
        far = tournament.seeds_between(spec.seed, last, spec.games)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert first[0] == (0, 0, spec.chunk_size) and len(first) == 5
    assert tournament.chunk_count(spec) == 10**12 // spec.chunk_size
    assert len(far) == spec.chunk_size and tournament.chunk_games(spec, 10**9 - 1) == 1000
    assert peak < 2 * 2**20, f"planning took {peak:,} bytes"


def test_workers_are_capped_at_the_cores_and_the_chunks_left(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert tournament.workers(8, 1) == 1
    assert tournament.workers(8, 100) == 2
    assert tournament.workers(-1, 100) == 2
    assert tournament.workers(1, 100) == 1
    for bad in (0, -2, -5):
        with pytest.raises(ValueError, match="--jobs"):
            tournament.check_jobs(bad)


def test_fill_lineup_uses_the_last_spec_for_remaining_seats():
    assert tournament.fill_lineup(["mcts", "random"], 4) == ("mcts", "random", "random", "random")
    assert tournament.fill_lineup([], 2) == ("heuristic", "heuristic")
    with pytest.raises(ValueError):
        tournament.fill_lineup(["a", "b", "c"], 2)


@pytest.mark.parametrize("bad", [
    dict(players=9), dict(games=0), dict(seed=-1), dict(bots=("nonsense", "random", "random")),
    dict(rules={"no_such_option": "1"}), dict(game="chess"),
])
def test_bad_specs_are_rejected_before_anything_runs(bad, tmp_path):
    with pytest.raises(ValueError):
        tournament.run(_spec(**bad), tmp_path / "x", jobs=1)
    assert not (tmp_path / "x").exists()


def test_interrupted_run_resumes_without_losing_or_repeating_games(tmp_path):
    full = tournament.run(_spec(), tmp_path / "full", jobs=1).frame
    seen = []

    def interrupt_after_two_chunks(games: int) -> None:
        seen.append(games)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament.run(_spec(), tmp_path / "cut", jobs=1, progress=interrupt_after_two_chunks)
    assert finished_chunks(tmp_path / "cut") == {0, 1}
    resumed = tournament.resume(tmp_path / "cut", jobs=1)
    assert resumed.games_played_now == 60 - 16
    pd.testing.assert_frame_equal(_comparable(full), _comparable(resumed.frame))


def test_killed_cli_run_resumes_to_the_same_frame(tmp_path):
    """A real SIGKILL in the middle of `simulate`, then `simulate --resume`."""
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "analysis.cli", GAME, "--games", "400", "--players", "2",
            "--seed", "5", "--chunk-size", "10", "--jobs", "1", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and len(finished_chunks(out) if out.exists() else ()) < 3:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = len(finished_chunks(out))
    assert 3 <= partial < 40, "the kill should land mid-run"
    done = subprocess.run([sys.executable, "-m", "analysis.cli", GAME, "--resume", str(out),
                           "--quiet", "--jobs", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    full = tournament.run(
        tournament.RunSpec(game=GAME, players=2, games=400, bots=("heuristic", "heuristic"),
                           seed=5, chunk_size=10), tmp_path / "full", jobs=1).frame
    pd.testing.assert_frame_equal(_comparable(full), _comparable(load_run(out)))


def _descendants(pid: int) -> list[int]:
    """Every live process below `pid`, read from /proc (children first found, then theirs)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text()
                                               .rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [], [pid]
    while todo:
        pid = todo.pop()
        below = [child for child, parent in parents.items() if parent == pid]
        found += below
        todo += below
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for init, it runs nothing)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_no_worker_outlives_a_killed_run(tmp_path):
    """SIGKILL the parent of a `--jobs 2` run mid-game: its loky workers and the resource
    trackers they hold open are all gone within 10 s (not left idle indefinitely)."""
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "analysis.cli", "ninjato", "--games", "100000",
            "--seed", "3", "--chunk-size", "5", "--jobs", "2", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and len(finished_chunks(out) if out.exists() else ()) < 2:
            time.sleep(0.05)
        below = _descendants(proc.pid)
        workers = [pid for pid in below
                   if b"loky" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert len(finished_chunks(out)) >= 2, "the workers should have played before the kill"
    assert len(workers) >= 2, below
    deadline = time.time() + 10
    while time.time() < deadline and any(_running(pid) for pid in below):
        time.sleep(0.1)
    survivors = [pid for pid in below if _running(pid)]
    for pid in survivors:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert not survivors, f"{len(survivors)} of {len(below)} processes outlived the run by 10 s"


def test_load_run_rejects_missing_foreign_and_corrupt_directories(tmp_path):
    with pytest.raises(RunError, match="not a directory"):
        load_run(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RunError, match="not a results run"):
        load_run(tmp_path / "empty")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "manifest.json").write_text("{not json")
    with pytest.raises(RunError, match="corrupt"):
        load_run(bad)
    run_dir = tmp_path / "ok"
    tournament.run(_spec(games=16), run_dir, jobs=1)
    part = run_dir / "part-00000.parquet"
    table = pq.read_table(part)
    seat = table.column_names.index("seat")
    store.write_part(run_dir, 0, table.set_column(seat, "seat", pa.array(["x"] * table.num_rows)))
    with pytest.raises(RunError, match="do not fit together"):
        load_run(run_dir)
    Path(run_dir / "part-00001.parquet").write_bytes(b"garbage")
    with pytest.raises(RunError, match="corrupt"):
        load_run(run_dir)


def test_manifest_records_spec_seed_version_and_dataset(tmp_path):
    result = tournament.run(_spec(games=8), tmp_path / "m", jobs=1)
    manifest = result.frame.attrs["manifest"]
    assert manifest["seed"] == 42 and manifest["game"] == GAME
    assert manifest["bots"] == ["heuristic", "random", "random"]
    assert manifest["dataset"] and manifest["package_version"]
    assert set(result.frame["dataset"]) == {manifest["dataset"]}


def test_run_or_resume_finishes_a_matching_run_and_refuses_a_different_one(tmp_path):
    run_dir = tmp_path / "study"

    def stop_after_first_chunk(games: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament.run(_spec(), run_dir, jobs=1, progress=stop_after_first_chunk)
    finished = tournament.run_or_resume(_spec(), run_dir, jobs=1)
    assert finished.games_played_now == 60 - 8
    assert finished.frame["game_index"].nunique() == 60
    with pytest.raises(ValueError, match="different run"):
        tournament.run_or_resume(_spec(seed=7), run_dir, jobs=1)


def test_parts_with_different_score_sources_load_with_zeros(tmp_path):
    """A source one chunk lacks (no game of it scored that way) loads as 0 in its rows."""
    spec = tournament.RunSpec(game="tabula-rasa", players=2, games=20, bots=("random", "random"),
                              seed=3, chunk_size=10)
    tournament.run(spec, tmp_path, jobs=1)
    part = tmp_path / "part-00001.parquet"
    table = pq.read_table(part)
    extra = [c for c in table.column_names if c.startswith("pts_")][0]
    store.write_part(tmp_path, 1, table.drop_columns([extra]))
    frame = load_run(tmp_path)
    assert list(frame[extra].iloc[20:]) == [0.0] * 20
    assert frame[extra].iloc[:20].notna().all()


def test_play_game_stops_at_the_decision_cap_and_marks_the_game_truncated():
    """`play_game` counts decisions in its loop (a `for` over the cap): a cap below the
    game's length truncates it there, a cap equal to its length does not."""
    from engines import get_game, play_game
    from engines.bots import make_bot

    game = get_game("ninjato")
    bots = [make_bot("heuristic:v1", game) for _ in range(4)]
    full = play_game(game, bots, 3, 4, record=True)
    assert not full.truncated and full.winners
    cut = play_game(game, bots, 3, 4, max_decisions=10, record=True)
    assert (cut.decisions, cut.truncated, cut.winners) == (10, True, [])
    assert cut.actions == full.actions[:10] and sum(map(sum, cut.kinds_chosen)) == 10
    exact = play_game(game, bots, 3, 4, max_decisions=full.decisions)
    assert (exact.decisions, exact.truncated, exact.winners) == (
        full.decisions, False, full.winners)


# --- parts that cannot count: damaged, missing, from another run -------------------------------

def _truncate(run_dir: Path, other: Path) -> str:
    part = run_dir / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:1500])
    return "part-00001.parquet is unreadable (truncated"


def _delete(run_dir: Path, other: Path) -> str:
    (run_dir / "part-00001.parquet").unlink()
    return "part-00001.parquet missing (24 of 32 games on disk)"


def _copy_foreign(run_dir: Path, other: Path) -> str:
    """The same game, seed and chunk from another run: rows identical but for the run id."""
    (run_dir / "part-00001.parquet").write_bytes((other / "part-00001.parquet").read_bytes())
    return "part-00001.parquet belongs to run "


def _misnumber(run_dir: Path, other: Path) -> str:
    """Chunk 2 of the same run copied over chunk 1."""
    (run_dir / "part-00001.parquet").write_bytes((run_dir / "part-00002.parquet").read_bytes())
    return "part-00001.parquet holds chunk 2, not chunk 1"


def _flip_a_score(run_dir: Path, other: Path) -> str:
    """Rows edited after the run, the stamp kept: the checksum no longer matches."""
    part = run_dir / "part-00001.parquet"
    table = pq.read_table(part)
    score = table.column_names.index("score")
    pq.write_table(table.set_column(score, "score", pc.add(table.column("score"), 1.0)), part)
    return "part-00001.parquet does not match its checksum"


DAMAGE = {"truncated": _truncate, "missing": _delete, "foreign": _copy_foreign,
          "misnumbered": _misnumber, "edited": _flip_a_score}


@pytest.fixture(scope="module")
def whole_runs(tmp_path_factory) -> tuple[Path, Path]:
    """Two runs of the same spec (4 chunks of 8 games), kept pristine for copying."""
    root = tmp_path_factory.mktemp("whole")
    for name in ("a", "b"):
        tournament.run(_spec(games=32), root / name, jobs=1)
    return root / "a", root / "b"


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_run_with_a_bad_or_missing_part_is_refused_then_replayed_by_resume(
        damage, whole_runs, tmp_path):
    """load_run refuses naming the part; allow_incomplete loads the rest with a warning;
    resume moves a bad part aside, replays its chunk, says so, and the run is whole again."""
    original, other = whole_runs
    run_dir = tmp_path / "run"
    shutil.copytree(original, run_dir)
    expected = DAMAGE[damage](run_dir, other)
    with pytest.raises(RunError, match=re.escape(expected)) as refused:
        load_run(run_dir)
    assert "\n" not in str(refused.value) and "--resume" in str(refused.value)
    partial = load_run(run_dir, allow_incomplete=True)
    assert partial["game_index"].nunique() == 24 and partial.attrs["incomplete"].startswith(
        f"warning: {run_dir} is incomplete: 24 of 32 games")
    lines: list[str] = []
    resumed = tournament.resume(run_dir, jobs=1, announce=lines.append)
    assert resumed.games_played_now == 8
    assert lines[-1] == f"resuming {run_dir}: 3 chunks on disk, playing the other 1 (8 games)"
    rejected = sorted(p.name for p in run_dir.glob("*" + store.REJECTED_SUFFIX))
    if damage == "missing":
        assert len(lines) == 1 and rejected == []
    else:
        assert len(lines) == 2 and lines[0].startswith("warning: replaying 1 bad part(s)")
        assert rejected == ["part-00001.parquet.rejected"]
    pd.testing.assert_frame_equal(_comparable(load_run(original)), _comparable(resumed.frame))
    assert load_run(run_dir).attrs["incomplete"] is None


@pytest.mark.parametrize("damage", [  # ~40 s each (a report is drawn twice): one by default
    "foreign", pytest.param("truncated", marks=pytest.mark.slow),
    pytest.param("missing", marks=pytest.mark.slow)])
def test_report_refuses_an_incomplete_run_in_one_line_or_warns_with_allow_incomplete(
        damage, whole_runs, tmp_path):
    """Through the CLI: `report` refuses (exit 2, one line naming the part, no file), reports
    the games on disk with `--allow-incomplete` (warning on stderr and in the report), and
    `simulate GAME --resume` repairs the run, saying what it replays."""
    original, other = whole_runs
    run_dir = tmp_path / "run"
    shutil.copytree(original, run_dir)
    expected = DAMAGE[damage](run_dir, other)
    cli = [sys.executable, "-m", "analysis.cli", "report", str(run_dir), "--no-confirm",
           "--out", str(tmp_path / "r.html")]
    refused = subprocess.run(cli, capture_output=True, text=True)
    assert refused.returncode == 2 and not (tmp_path / "r.html").exists()
    assert refused.stderr.count("\n") == 1 and refused.stderr.startswith("error: ")
    assert expected in refused.stderr, refused.stderr
    allowed = subprocess.run(cli + ["--allow-incomplete"], capture_output=True, text=True)
    assert allowed.returncode == 0, allowed.stderr
    warning = f"warning: {run_dir} is incomplete: 24 of 32 games"
    assert warning in allowed.stderr.replace("\n", " ")
    assert ("bad part(s) left out" in allowed.stderr) == (damage != "missing")
    assert "is incomplete: 24 of 32 games" in (tmp_path / "r.html").read_text()
    resumed = subprocess.run([sys.executable, "-m", "analysis.cli", GAME, "--resume",
                              str(run_dir), "--jobs", "1", "--quiet"],
                             capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert ("replaying 1 bad part(s)" in resumed.stderr) == (damage != "missing")
    assert "playing the other 1 (8 games)" in resumed.stderr
    assert subprocess.run(cli, capture_output=True, text=True).returncode == 0


def test_play_game_takes_validated_rules_and_plays_the_same_game_as_their_options():
    """A run validates its rule options once per chunk and hands the `Rules` object to every
    game; that must play exactly the game the option values play."""
    import engines
    from engines.bots import make_bot

    game = engines.get_game("tabula-rasa")
    options = {"castle_rule": "two_consecutive", "seat_bonus": "0,1,2"}
    bots = [make_bot("heuristic", game)] * 3
    by_options = engines.play_game(game, bots, 7, 3, options, record=True)
    by_object = engines.play_game(game, bots, 7, 3, game.make_rules(**options), record=True)
    assert by_object.actions == by_options.actions
    assert by_object.scores == by_options.scores
    plain = engines.play_game(game, bots, 7, 3, None, record=True)
    assert plain.scores != by_object.scores  # the rules were applied, not dropped


def test_a_state_refuses_another_games_rules_and_a_wrong_seat_bonus_count():
    import engines
    from engines.errors import BadInput

    game = engines.get_game("tabula-rasa")
    other = engines.get_game("big-cheese")
    with pytest.raises(TypeError):
        game.state_from_rules(3, 1, other.make_rules())
    with pytest.raises(BadInput):
        game.state_from_rules(3, 1, game.make_rules(seat_bonus="0,1"))


def test_a_run_with_rules_at_their_defaults_resumes_the_official_run(tmp_path):
    """`seat_bonus=''` or a rule given at its default plays the official games: the run in
    the directory (a cached reference run, say) is the same run, not a different one."""
    official = tournament.RunSpec(game=GAME, players=2, games=4, bots=("random",) * 2, seed=1)
    first = tournament.run_or_resume(official.validated(), tmp_path / "r", jobs=1)
    again = tournament.run_or_resume(
        dataclasses.replace(official, rules={"seat_bonus": "", "castle_rule": "first_to_two"}
                            ).validated(), tmp_path / "r", jobs=1)
    assert again.games_played_now == 0 and len(again.frame) == len(first.frame)
