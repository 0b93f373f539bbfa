"""Run chunks in parallel: loky processes on this machine, or a dask.distributed cluster.

The dask path drives a `distributed.Client` directly (`submit(pure=False, retries=...)` +
`as_completed`) rather than through joblib's dask backend, because
- up to `DASK_WINDOW` chunks are submitted at once (then one more per finished chunk, so a
  run of any size is planned in constant memory), so the scheduler balances them over
  whatever workers exist *now*, including machines that join mid-run (joblib only
  pre-dispatches about 2 x the threads it saw at start);
- a worker that dies takes its running chunk with it; the scheduler re-runs that chunk
  elsewhere (up to `distributed.scheduler.allowed-failures` deaths), and `retries` covers
  a chunk that raised on a sick worker; chunks are keyed by number, so the parent writes each
  part once however often it ran;
- results are released as soon as they are yielded (cluster memory stays flat), and the
  failure modes (unreachable scheduler, lost scheduler, a chunk that keeps killing workers,
  a worker with other engine code) become one-line `ValueError`s the CLI can print.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import functools
import hashlib
import importlib
import itertools
import os
import signal
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from engines.errors import BadInput

BACKENDS = ("loky", "dask")
INSTALL_HINT = "pip install -e '.[dask]'"
#: Seconds to reach a scheduler before giving up (a TCP probe, then the client handshake).
CONNECT_TIMEOUT = 10.0
#: Extra attempts for a chunk that *raised* on a worker (worker deaths are the scheduler's).
TASK_RETRIES = 2
#: Seconds to wait for a remote scheduler to have at least one worker.
WORKER_TIMEOUT = 60.0
#: Seconds between a loky worker's checks that the process that started it is alive.
PARENT_POLL = 1.0
#: `prctl` option: the signal the kernel sends a process when its parent thread dies (Linux).
PR_SET_PDEATHSIG = 1
#: Chunks in flight on a dask cluster: plenty for any cluster, bounded for any run size.
DASK_WINDOW = 1024


class CodeMismatchError(BadInput):
    """A worker whose engine/runner code differs from the submitting machine's."""


def check_backend(backend: str, scheduler: str | None) -> None:
    """Fail before any output exists: unknown backend, missing dask, unreachable scheduler."""
    if backend not in BACKENDS:
        raise BadInput(f"unknown backend {backend!r}; use {' or '.join(BACKENDS)}")
    if scheduler and backend != "dask":
        raise BadInput("--scheduler needs --backend dask")
    if backend == "dask":
        _import_distributed()
        if scheduler:
            _probe_scheduler(scheduler)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise BadInput(
            f"the dask backend needs dask.distributed, which is not installed: {INSTALL_HINT}"
        ) from None
    return distributed


def _probe_scheduler(address: str) -> None:
    """Fail fast, before any run directory exists, unless a dask scheduler answers.

    A plain TCP connect catches a wrong host or port at once; the identity call then needs a
    real scheduler, under our own deadline (the dask client can wait forever on a listener
    that never completes the handshake).
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme != "tcp":
            return  # tls:// etc. need the client's security settings: let it decide
        host, port = parse_host_port(location)
    except (ValueError, TypeError):
        raise BadInput(
            f"invalid dask scheduler address {address!r}; expected tcp://HOST:PORT"
        ) from None
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            pass
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # own event loop, any caller
            info = pool.submit(asyncio.run, _identity(address)).result()
    except TimeoutError:
        raise BadInput(
            f"cannot reach dask scheduler {address}: no answer within {CONNECT_TIMEOUT:g} s"
        ) from None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise BadInput(f"cannot reach dask scheduler {address}: {reason}") from None
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        kind = info.get("type") if isinstance(info, dict) else type(info).__name__
        raise BadInput(f"{address} is a dask {kind}, not a scheduler")


async def _identity(address: str) -> Any:
    from distributed.core import rpc

    async def ask() -> Any:
        remote = rpc(address, timeout=CONNECT_TIMEOUT)
        try:
            return await remote.identity()
        finally:
            await remote.close_rpc()

    return await asyncio.wait_for(ask(), CONNECT_TIMEOUT)


def parallel_chunks(
    play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
    todo: Iterable[tuple[int, int, int]], jobs: int, backend: str, scheduler: str | None,
) -> Iterator[tuple[int, Any]]:
    """Yield (chunk number, result) as chunks finish, each chunk number exactly once."""
    if backend == "loky":
        yield from _loky_chunks(play_chunk, spec, meta, todo, jobs)
    elif backend == "dask":
        yield from _dask_chunks(play_chunk, spec, meta, todo, jobs, scheduler)
    else:
        raise BadInput(f"unknown backend {backend!r}; use {' or '.join(BACKENDS)}")


def _task(play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
          number: int, start: int, stop: int) -> tuple[int, Any]:
    return number, play_chunk(spec, meta, start, stop)


def exit_with_parent(parent: int) -> None:
    """Loky worker initializer: end this worker as soon as `parent` (the run) is gone.

    A run killed by SIGKILL cannot shut its pool down, and loky's idle workers (with the
    resource trackers they keep open) would otherwise stay alive indefinitely.  On Linux the
    kernel kills the worker with its parent (`PR_SET_PDEATHSIG`, immediate even while compiled
    code holds the GIL); everywhere a daemon thread also polls the parent's pid.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # died before the signal was armed
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="exit-with-parent",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:  # an orphan is re-parented (to init or a subreaper)
        time.sleep(PARENT_POLL)
    os._exit(1)


def _loky_chunks(
    play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
    todo: Iterable[tuple[int, int, int]], jobs: int,
) -> Iterator[tuple[int, Any]]:
    import joblib

    calls = (joblib.delayed(_task)(play_chunk, spec, meta, number, start, stop)
             for number, start, stop in todo)
    with joblib.parallel_config(backend="loky", initializer=exit_with_parent,
                                initargs=(os.getpid(),)):
        pool = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")
    yield from pool(calls)


@contextlib.contextmanager
def dask_client(scheduler: str | None, jobs: int) -> Iterator[Any]:
    """A client on `scheduler`, or on a private LocalCluster (loopback, no dashboard)."""
    distributed = _import_distributed()
    with contextlib.ExitStack() as stack:
        if scheduler:
            try:
                client = distributed.Client(
                    scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, ValueError) as exc:
                raise BadInput(f"cannot reach dask scheduler {scheduler}: {exc}") from None
            stack.callback(client.close)
        else:
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None,
                # The scheduler's health/metrics HTTP server would otherwise try port 8787.
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            ))
            client = stack.enter_context(distributed.Client(cluster, set_as_default=False))
        yield client


def _dask_task(play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
               number: int, start: int, stop: int, fingerprint: str | None) -> tuple[int, Any]:
    if fingerprint is not None:
        _check_worker_code(spec.game, fingerprint)
    return _task(play_chunk, spec, meta, number, start, stop)


def _check_worker_code(game: str, fingerprint: str) -> None:
    """On a worker: refuse to play with code that differs from the submitter's."""
    here = worker_fingerprint(game)
    if here != fingerprint:
        from distributed import get_worker

        raise CodeMismatchError(
            f"dask worker {get_worker().address} runs other code for {game} "
            f"(fingerprint {here}, here {fingerprint}); install the same checkout on every "
            "worker and restart it"
        )


def _check_cluster(client: Any, game: str) -> str:
    """Wait for a first worker, compare the code of every worker connected now; the hash."""
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except TimeoutError:
        raise BadInput(
            f"the dask scheduler has had no workers for {WORKER_TIMEOUT:.0f} s; start some with "
            "`dask worker tcp://HOST:PORT --nthreads 1`"
        ) from None
    fingerprint = code_fingerprint(game)
    try:
        found = client.run(worker_fingerprint, game)
    except Exception as exc:  # a worker without the package fails to unpickle the call
        raise BadInput(
            f"dask workers cannot run tabletop-sim code ({type(exc).__name__}: {exc}); "
            "install this checkout on every worker"
        ) from None
    stale = sorted(address for address, value in found.items() if value != fingerprint)
    if stale:
        raise CodeMismatchError(
            f"dask workers {', '.join(stale)} run other code for {game} than this machine; "
            "install the same checkout on every worker and restart them"
        )
    return fingerprint


def _dask_chunks(
    play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
    todo: Iterable[tuple[int, int, int]], jobs: int, scheduler: str | None,
) -> Iterator[tuple[int, Any]]:
    distributed = _import_distributed()
    from distributed.client import FutureCancelledError

    pending = iter(todo)
    first = list(itertools.islice(pending, DASK_WINDOW))
    if not first:
        return
    token = uuid.uuid4().hex[:8]
    with dask_client(scheduler, jobs) as client:
        # A private LocalCluster runs this checkout; remote workers must prove they do too.
        fingerprint = _check_cluster(client, spec.game) if scheduler else None

        def submit(number: int, start: int, stop: int) -> Any:
            return client.submit(
                _dask_task, play_chunk, spec, meta, number, start, stop, fingerprint,
                key=f"chunk-{meta['run_id']}-{number:05d}-{token}", pure=False,
                retries=TASK_RETRIES,
            )

        # as_completed holds the only references: results free as they are yielded
        completed = distributed.as_completed([submit(*chunk) for chunk in first],
                                             loop=client.loop)
        seen: set[int] = set()
        try:
            for future in completed:
                # result() raises what the chunk raised (a cancelled chunk included)
                number, frame = future.result()
                del future
                following = next(pending, None)
                if following is not None:
                    completed.add(submit(*following))
                if number not in seen:
                    seen.add(number)
                    yield number, frame
        except distributed.KilledWorker as exc:
            raise BadInput(
                f"a chunk killed {exc.allowed_failures + 1} dask workers in a row "
                "(distributed.scheduler.allowed-failures); finished chunks are saved, "
                "finish with --resume"
            ) from None
        except FutureCancelledError as exc:
            raise BadInput(
                f"lost the dask scheduler mid-run ({exc}); finished chunks are saved, "
                "finish with --resume"
            ) from None


def _source_roots(game_name: str) -> list[Path]:
    """Files whose content decides a game's results: its package, the contract, bots, runner."""
    from engines import get_game

    game = get_game(game_name)
    roots = []
    for module_name in (game.Rules.__module__, "engines.core", "engines.bots",
                        "analysis.run.tournament", "analysis.results.store"):
        module = importlib.import_module(module_name)
        path = Path(module.__file__ or "")
        is_package_part = module_name == "engines.bots" or (
            module.__package__ and module_name == game.Rules.__module__
            and module.__package__ != "engines")
        roots.append(path.parent if is_package_part else path)
    return roots


def code_fingerprint(game_name: str) -> str:
    """A short hash of the source files a chunk of `game_name` runs.

    A cluster only reproduces a local run if every worker runs the same engine; comparing
    this hash turns a stale checkout on one machine into an error, not into silently
    different rows.
    """
    digest = hashlib.sha256()
    for root in _source_roots(game_name):
        files = sorted(p for p in root.rglob("*.py")) if root.is_dir() else [root]
        for path in files:
            if "__pycache__" in path.parts:
                continue
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    digest.update(sys.version_info[:2].__repr__().encode())
    return digest.hexdigest()[:16]


@functools.cache
def worker_fingerprint(game_name: str) -> str:
    """The fingerprint a worker process saw first: the code it imported, not later edits."""
    return code_fingerprint(game_name)
