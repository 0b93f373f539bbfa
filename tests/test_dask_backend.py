"""The dask backend against real clusters on loopback: same frame as a local run, survives a
killed worker, reaches a scheduler started with the `dask` CLI, fails cleanly otherwise."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from analysis import cli
from analysis.results.store import load_run
from analysis.run import parallel, tournament

distributed = pytest.importorskip("distributed")

GAME = "tabula-rasa"
BOTS = ("random", "random", "random")
DASK = Path(sys.executable).with_name("dask")


#: A line-up whose chunks take long enough (tens of milliseconds) that a progress report
#: finds a worker still busy with one: random games alone finish a whole run in a blink.
SLOW_BOTS = ("mcts:iterations=4", "random", "random")


def spec(games: int, chunk_size: int, seed: int = 11,
         bots: tuple[str, ...] = BOTS) -> tournament.RunSpec:
    return tournament.RunSpec(game=GAME, players=3, games=games, bots=bots, seed=seed,
                              chunk_size=chunk_size)


def local_frame(run_spec: tournament.RunSpec, out: Path) -> pd.DataFrame:
    """The reference: the same spec played serially in this process."""
    tournament.run(run_spec, out, jobs=1)
    return load_run(out).drop(columns="run_id")


def assert_same_games(frame: pd.DataFrame, reference: pd.DataFrame, games: int) -> None:
    assert sorted(frame["game_index"].unique()) == list(range(games))
    assert not frame.duplicated(["game_index", "seat"]).any()
    pd.testing.assert_frame_equal(frame.drop(columns="run_id"), reference)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    """Stop a process group this module started (`dask worker` spawns nannies and workers)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def _read_address(scheduler_file: Path, process: subprocess.Popen) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "dask scheduler exited early"
        try:
            return json.loads(scheduler_file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.2)
    raise AssertionError("dask scheduler did not start within 60 s")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler and two single-threaded workers (with nannies, which restart a killed
    worker) started like on real machines: `dask scheduler` / `dask worker` on 127.0.0.1."""
    where = tmp_path_factory.mktemp("cluster")
    scheduler_file = where / "scheduler.json"
    common = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
              "start_new_session": True, "cwd": where}
    processes = [subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(free_port()),
         "--no-dashboard", "--dashboard-address", "127.0.0.1:0", "--scheduler-file",
         scheduler_file, "--idle-timeout", "600s"],
        **common)]
    try:
        address = _read_address(scheduler_file, processes[0])
        processes.append(subprocess.Popen(
            [DASK, "worker", address, "--host", "127.0.0.1", "--nworkers", "2",
             "--nthreads", "1", "--no-dashboard", "--death-timeout", "60"], **common))
        with distributed.Client(address, set_as_default=False, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            yield address, client
    finally:
        for process in reversed(processes):
            _stop(process)


def test_killed_worker_mid_run_still_plays_every_game_once(cluster, tmp_path):
    address, client = cluster
    run_spec = spec(games=90, chunk_size=3, bots=SLOW_BOTS)
    reference = local_frame(run_spec, tmp_path / "local")
    killed: dict[str, object] = {}

    def kill_busy_worker_once(_games: int) -> None:
        if killed:
            return
        pids = client.run(os.getpid)
        busy = {worker: keys for worker, keys in client.processing().items() if keys}
        if not busy:  # between chunks: kill at a later progress report
            return
        worker = sorted(busy)[0]
        os.kill(pids[worker], signal.SIGKILL)
        killed.update(worker=worker, pid=pids[worker], in_flight=len(busy[worker]))

    result = tournament.run(run_spec, tmp_path / "dask", backend="dask", scheduler=address,
                            progress=kill_busy_worker_once)

    assert killed["in_flight"] >= 1  # the killed worker held a chunk that had to be re-run
    assert killed["pid"] not in client.run(os.getpid).values()
    assert result.games_played_now == 90
    assert_same_games(load_run(tmp_path / "dask"), reference, 90)


def test_cli_scheduler_option(cluster, tmp_path, capsys):
    address, _client = cluster
    args = [GAME, "--games", "90", "--bots", "random", "--seed", "9", "--chunk-size", "15",
            "-q"]
    code = cli.main([*args, "--backend", "dask", "--scheduler", address,
                     "--out", str(tmp_path / "dask")])
    assert code == 0, capsys.readouterr().err
    assert cli.main([*args, "--jobs", "2", "--out", str(tmp_path / "loky")]) == 0
    reference = load_run(tmp_path / "loky").drop(columns="run_id")
    assert_same_games(load_run(tmp_path / "dask"), reference, 90)


def test_worker_with_other_code_is_refused(cluster, tmp_path, monkeypatch):
    address, _client = cluster
    monkeypatch.setattr(parallel, "code_fingerprint", lambda game: "not-this-checkout")
    out = tmp_path / "run"
    with pytest.raises(parallel.CodeMismatchError, match="run other code"):
        tournament.run(spec(games=40, chunk_size=20), out, backend="dask", scheduler=address)
    assert not list(out.glob("part-*"))


def test_a_chunk_that_fails_on_a_worker_raises_its_own_error(cluster):
    """The chunk's exception reaches the caller as itself (after the task's retries), not as
    an unpacking error about the value dask handed back in its place."""
    address, _client = cluster
    todo = [(0, 0, 1)]
    # pow takes at most 3 arguments: a chunk function that fails on any worker, by reference
    chunks = parallel.parallel_chunks(pow, spec(1, 1), {"run_id": "x"}, todo, 1, "dask",
                                      address)
    with pytest.raises(TypeError, match=r"takes at most 3 arguments \(4 given\)"):
        list(chunks)


def test_chunks_cancelled_mid_run_are_one_line_error_not_a_crash(cluster, monkeypatch):
    """A lost scheduler cancels every chunk: the run stops with the resume hint (dask hands a
    cancelled chunk back as an exception object, which was unpacked as a result)."""
    address, _client = cluster
    distributed = pytest.importorskip("distributed")
    real = distributed.as_completed

    def cancel_first(futures, **kwargs):
        futures[0].client.cancel(futures)
        return real(futures, **kwargs)

    monkeypatch.setattr(distributed, "as_completed", cancel_first)
    chunks = parallel.parallel_chunks(tournament.play_chunk, spec(20, 10), {"run_id": "x"},
                                      [(0, 0, 10), (1, 10, 20)], 1, "dask", address)
    with pytest.raises(ValueError, match="lost the dask scheduler mid-run .*--resume"):
        list(chunks)


def test_backend_dask_without_address_starts_a_local_cluster(tmp_path, capsys):
    args = [GAME, "--games", "60", "--bots", "random", "--seed", "5", "--chunk-size", "15",
            "-q"]
    code = cli.main([*args, "--backend", "dask", "--jobs", "1", "--out", str(tmp_path / "dask")])
    assert code == 0, capsys.readouterr().err
    reference = local_frame(spec(games=60, chunk_size=15, seed=5), tmp_path / "local")
    assert_same_games(load_run(tmp_path / "dask"), reference, 60)


def test_unreachable_scheduler_is_one_line_error_and_no_output(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 3.0)
    out = tmp_path / "run"
    began = time.monotonic()
    code = cli.main([GAME, "--games", "10", "--backend", "dask", "--scheduler",
                     f"tcp://127.0.0.1:{free_port()}", "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: cannot reach dask scheduler tcp://127.0.0.1:")
    assert len(err.strip().splitlines()) == 1
    assert time.monotonic() - began < 10
    assert not out.exists()


def test_missing_dask_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import now raises ImportError
    out = tmp_path / "run"
    code = cli.main([GAME, "--games", "10", "--backend", "dask", "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and "pip install -e '.[dask]'" in err
    assert not out.exists()


@pytest.mark.parametrize(("argv", "message"), [
    (["--backend", "spark"], "unknown backend 'spark'"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1"], "invalid dask scheduler address"),
])
def test_bad_backend_options_fail_before_any_output(argv, message, tmp_path, capsys):
    out = tmp_path / "run"
    code = cli.main([GAME, "--games", "10", *argv, "--out", str(out), "-q"])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_scheduler_without_workers_fails_after_a_bounded_wait(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "WORKER_TIMEOUT", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as empty:
        began = time.monotonic()
        with pytest.raises(ValueError, match="has had no workers for 1 s"):
            tournament.run(spec(games=20, chunk_size=10), tmp_path / "run", backend="dask",
                           scheduler=empty.scheduler_address)
        assert time.monotonic() - began < 15


def test_listener_that_is_not_a_scheduler_times_out_cleanly(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 2.0)
    out = tmp_path / "run"
    with socket.socket() as silent:  # accepts connections, never speaks dask
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        began = time.monotonic()
        code = cli.main([GAME, "--games", "10", "--backend", "dask", "--scheduler",
                         f"tcp://127.0.0.1:{silent.getsockname()[1]}", "--out", str(out), "-q"])
    assert code == 2
    assert "cannot reach dask scheduler" in capsys.readouterr().err
    assert time.monotonic() - began < 10
    assert not out.exists()
