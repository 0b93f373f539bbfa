"""Run chunks in parallel through joblib: loky processes locally, dask.distributed on a cluster."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import joblib


def _dask_context(scheduler: str | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ValueError(
            "the dask backend needs the dask extra: pip install -e '.[dask]'"
        ) from None
    stack = contextlib.ExitStack()
    if scheduler:
        try:
            client = stack.enter_context(Client(scheduler, timeout="10s"))
        except OSError as exc:
            raise ValueError(f"cannot reach dask scheduler {scheduler}: {exc}") from None
    else:
        cluster = stack.enter_context(LocalCluster(processes=True, dashboard_address=None))
        client = stack.enter_context(Client(cluster))
    stack.enter_context(joblib.parallel_config(backend="dask"))
    return stack, client


def _task(play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
          number: int, start: int, stop: int) -> tuple[int, Any]:
    return number, play_chunk(spec, meta, start, stop)


def parallel_chunks(
    play_chunk: Callable[..., Any], spec: Any, meta: dict[str, Any],
    todo: list[tuple[int, int, int]], jobs: int, backend: str, scheduler: str | None,
) -> Iterator[tuple[int, Any]]:
    """Yield (chunk number, result) as chunks finish."""

    calls = (joblib.delayed(_task)(play_chunk, spec, meta, number, start, stop)
             for number, start, stop in todo)
    if backend == "loky":
        parallel = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")
        yield from parallel(calls)
    elif backend == "dask":
        stack, _client = _dask_context(scheduler)
        with stack:
            parallel = joblib.Parallel(return_as="generator_unordered")
            yield from parallel(calls)
    else:
        raise ValueError(f"unknown backend {backend!r}; use loky or dask")
