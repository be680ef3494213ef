"""Run the engine's big array work on all cores without oversubscribing them.

numpy's element-wise ufuncs use one core, while OpenBLAS spreads each matrix product over its own threads; on a
busy 2-core machine those BLAS threads spin against each other and a trace can take 3× longer than with one
thread. So for large problems the engine splits the work into blocks run on a small thread pool (numpy releases
the GIL inside ufuncs and BLAS calls) with BLAS limited to one thread per block, through threadpoolctl. Small
problems, or a machine without threadpoolctl or with one core, take the plain sequential path: same numbers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from functools import lru_cache

import numpy  # noqa: F401  (loaded first, so threadpoolctl finds numpy's BLAS)

MIN_PARALLEL_ELEMENTS = 1 << 17  # below ~131k score entries the pool costs more than it saves


@lru_cache(maxsize=1)
def workers() -> int:
    """As many threads as numpy's BLAS is allowed (OPENBLAS_NUM_THREADS etc.), at most the cores: the engine
    never uses more threads than a plain numpy program would."""
    cores = os.cpu_count() or 1
    controller = _controller()
    blas = (
        [lib.num_threads for lib in controller.lib_controllers if lib.user_api == "blas"]
        if controller
        else []
    )
    return max(1, min(cores, max(blas) if blas else 1, 8))


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers(), thread_name_prefix="drill-engine")


@lru_cache(maxsize=1)
def _controller():
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # optional: without it BLAS keeps its own threads and we stay sequential
        return None
    return ThreadpoolController()


def worth_it(elements: int) -> bool:
    # cheapest test first: small traces never even look for threadpoolctl
    return elements >= MIN_PARALLEL_ELEMENTS and _controller() is not None and workers() > 1


def run_blocks(tasks: Sequence[Callable[[], None]], parallel: bool) -> None:
    """Run independent tasks (each writes its own output block): on the pool with single-threaded BLAS, or in
    order on this thread."""
    if not parallel:
        for task in tasks:
            task()
        return
    controller = _controller()
    limit = controller.limit(limits=1, user_api="blas") if controller is not None else nullcontext()
    n = workers()
    groups = [tasks[i::n] for i in range(n)]  # round-robin keeps the groups balanced
    with limit:
        futures = [_pool().submit(_run_all, group) for group in groups if group]
        for future in futures:
            future.result()


def _run_all(group: Sequence[Callable[[], None]]) -> None:
    for task in group:
        task()


def row_blocks(rows: int, parts: int) -> list[slice]:
    """Split range(rows) into at most ``parts`` contiguous slices."""
    parts = max(1, min(parts, rows))
    bounds = [round(i * rows / parts) for i in range(parts + 1)]
    return [slice(bounds[i], bounds[i + 1]) for i in range(parts) if bounds[i] < bounds[i + 1]]
