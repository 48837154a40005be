"""Counting cubes on worker processes or threads, for benchmarks until the executors take over.

Kept apart from the benchmark so a spawned worker imports only the backend and the models
(no OR-Tools, no puzzle readers): a worker's start is part of every timed run.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

from ..backends import Backend, Cube

_states: list = []
_backend: Backend | None = None


def _start_worker(backend_class: type, payloads: list) -> None:
    global _backend
    _backend = backend_class()
    _states[:] = [_backend.prepare(p) for p in payloads]


def _count_one(work: tuple[int, int, Cube]) -> tuple[int, int, int]:
    task, k, cube = work
    assert _backend is not None
    values, _ = _backend.count_cube(_states[task], cube, None)
    return task, k, values[0]


def _work(cubes: list[list[Cube]]) -> list[tuple[int, int, Cube]]:
    work = [(t, k, cube) for t, task in enumerate(cubes) for k, cube in enumerate(task)]
    work.sort(key=lambda w: len(w[2]))  # the biggest cubes (the shortest) first
    return work


def count_in_processes(
    backend: Backend, models: list, cubes: list[list[Cube]], jobs: int
) -> list[list[int]]:
    """Solutions per cube of every task (task t's model is models[t]), on spawned workers."""
    counts = [[0] * len(task) for task in cubes]
    payloads = [backend.payload(m) for m in models]
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, _start_worker, (type(backend), payloads)) as pool:
        for t, k, n in pool.imap_unordered(_count_one, _work(cubes)):
            counts[t][k] = n
        pool.close()
        pool.join()  # workers end and are waited for: their CPU time is then counted
    return counts


def count_in_threads(
    backend: Backend, models: list, cubes: list[list[Cube]], threads: int
) -> list[list[int]]:
    """The same on threads of this process: for backends whose search releases the GIL."""
    states = [backend.prepare(backend.payload(m)) for m in models]
    counts = [[0] * len(task) for task in cubes]

    def one(work: tuple[int, int, Cube]) -> None:
        t, k, cube = work
        counts[t][k] = backend.count_cube(states[t], cube, None)[0][0]

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(one, _work(cubes)))
    return counts
