"""Executors: where the cubes of a count run — this process, a local process pool, or Dask.

Every executor runs `Work` (one backend, one model's payload, a list of cubes) in chunks and
reports each finished chunk to a callback as it arrives, so a count can be checkpointed, shown
and interrupted the same way everywhere. Workers resolve the backend by its registry name and
prepare the payload once each (cached by the work's token).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from .backends import STOP, Cube, Interrupted, Values
from .children import Pool, WorkerDied, ctrl_c_left_to_us, interruptible, main_left_out
from .models.errors import InputError
from .models.words import plural

# a cube's numbers, whether it finished, and the seconds it took on its worker (wall clock);
# numbers and seconds None for a cube not started (the deadline had passed); a cube given a
# budget has a fourth: where its search stopped, in its children's terms (Backend.count_part)
Result = tuple[Values | None, bool, float | None] | tuple[Values | None, bool, float | None,
                                                         list[int] | None]
# What a count's `record` hands back: cubes it appended to a work's cube list while the work
# runs (the parts of a cube stopped to be split: runners/splitting.py), by work token; the
# executor runs them in the same pass, on the workers that are free (None: nothing more)
More = dict[str, list[int]] | None
Record = Callable[["Work", list[int], list[Result]], More]  # (work, cube indexes, results)

# Chunks per process: small enough to balance uneven cubes and checkpoint often, large enough
# that a chunk's round trip (about 1 ms locally) stays well under its work.
CHUNKS_PER_PROCESS = 16
# Where the cubes' sizes are estimated (a count showing its time left), up to this many chunks a
# work: the checkpoint and the time left then move every few hundredths of the work, and the
# largest cubes go out nearly alone (the one-sided 9x10, about 700 cubes in 32 chunks, wrote its
# first checkpoint line after 24 minutes, the chunk holding the largest cube).
FINE_CHUNKS = 256
# Seconds a worker may run past the deadline before it is ended from outside.
GRACE = 1.0


@dataclass
class Work:
    """One model to count on one backend, split into cubes."""

    label: str
    backend: str  # registry name, resolved again in each worker
    payload: object
    cubes: list[Cube]
    weights: list[int] | None = None  # each cube's count times its weight (its orbit's size)
    stops_itself: bool = True  # the backend honours a deadline on its own
    shown: bool = True  # whether its solutions make the running count shown in progress
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    # each cube's estimated share of the work (Knuth's estimator, or the product of
    # 1/branching along its prefix), so that progress and the time left follow the work, not
    # the number of cubes; None: cubes alike. Never changes a count.
    sizes: list[float] | None = None
    # a solve: each cube searched until its first solution (Backend.solve_cube: its numbers
    # then begin with 1 and carry the solution), and the whole run stopped at the first
    first: bool = False
    # seconds each cube may run before it is stopped unfinished (the engine then splits it:
    # runners/splitting.py); None: no budget
    budget: float | None = None


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def chunks(work: Work, indexes: Sequence[int], workers: int) -> list[list[int]]:
    """Split a work's pending cube indexes into interleaved chunks (neighbours to different
    workers): CHUNKS_PER_PROCESS for each worker, or FINE_CHUNKS where the cubes are sized
    (their order then the largest first)."""
    parts = CHUNKS_PER_PROCESS * workers
    if work.sizes:
        parts = max(parts, FINE_CHUNKS)
    if work.first:  # a solve: each cube kept as it ends, and a solution reported at once
        parts = len(indexes)
    parts = max(1, min(parts, len(indexes)))
    return [list(indexes[i::parts]) for i in range(parts)] if indexes else []


# ---------------------------------------------------------------- worker side

_payloads: dict[str, tuple[str, object]] = {}
_local = threading.local()  # prepared states per thread: a Dask worker may run several threads


def _state(backend_name: str, token: str, payload: object):
    from .registry import backend as backend_named

    backend = backend_named(backend_name)
    _states = _thread_states()
    if token not in _states:
        if len(_states) >= 4:  # works run one after another: free the older solvers
            _states.clear()
        _states[token] = backend.prepare(payload)
    return backend, _states[token]


def _thread_states() -> dict[str, object]:
    if not hasattr(_local, "states"):
        _local.states = {}
    return _local.states


def run_chunk(
    backend_name: str, token: str, payload: object, cubes: list[Cube], deadline: float | None,
    first: bool = False, budget: float | None = None,
) -> list[Result]:
    """Count a chunk of cubes (in whatever process runs it); past the deadline (or a stop) the
    cubes left are not started: each would cost its set-up (a search's estimates: seconds on a
    large board) before its first look at the clock. `first` (a solve): each cube searched
    until its first solution, and none started after one is found. `budget`: each cube stopped
    unfinished after that many seconds (to be split)."""
    backend, state = _state(backend_name, token, payload)
    results: list[Result] = []
    for cube in cubes:
        if deadline is not None and time.time() >= deadline or STOP.is_set() or (
                first and any(r[0] and r[0][0] for r in results)):
            results.append((None, False, None))  # not counted
        else:
            results.append(counted(backend, state, cube, budgeted(deadline, budget), first,
                               budget is not None))
    return results


def budgeted(deadline: float | None, budget: float | None) -> float | None:
    """A cube's deadline: the count's, or sooner, its budget from now."""
    if budget is None:
        return deadline
    own = time.time() + budget
    return own if deadline is None else min(deadline, own)


def counted(backend, state: object, cube: Cube, deadline: float | None,
            first: bool = False, part: bool = False) -> Result:
    """One cube counted (with `first`, searched until its first solution), with the seconds it
    took (what a longer count's plan is made of: how long N workers would take follows from
    these); with `part` (a cube given a budget), where it stopped (Backend.count_part)."""
    start = time.perf_counter()
    try:
        if part and not first:
            values, finished, rest = backend.count_part(state, cube, deadline)
            return values, finished, time.perf_counter() - start, rest
        values, finished = (backend.solve_cube if first else backend.count_cube)(
            state, cube, deadline)
    except Interrupted as stopped:
        stopped.seconds = time.perf_counter() - start
        raise
    return values, finished, time.perf_counter() - start


def _serve_chunks(payloads: dict[str, tuple[str, object]]) -> Callable:
    """A pool worker's start: the works' payloads kept, and the function its chunks go to."""
    _payloads.update(payloads)
    return _pool_chunk


def _pool_chunk(task: tuple[int, str, list[Cube], float | None, bool, float | None]
                ) -> tuple[int, list[Result]]:
    number, token, cubes, deadline, first, budget = task
    backend_name, payload = _payloads[token]
    return number, run_chunk(backend_name, token, payload, cubes, deadline, first, budget)


# ---------------------------------------------------------------- executors


class Executor(ABC):
    """Runs works' cubes and reports each finished chunk to `record`."""

    name: str
    # whether a part takes its work's budget as it is when the part starts (False: as it was
    # when the part was submitted, every cube at the count's start)
    budget_as_started: bool = True

    def processes(self, jobs: int, cubes: int) -> int:
        return max(1, min(jobs, cubes))

    def capped(self) -> str | None:
        """A note where a size asked for was more than this machine takes, else None."""
        return None

    @abstractmethod
    def run(
        self,
        works: list[Work],
        pending: dict[str, list[int]],
        jobs: int,
        deadline: float | None,
        record: Record,
    ) -> None:
        """Count the pending cubes (indexes per work token). On KeyboardInterrupt every worker
        is ended before the interrupt is passed on; what was recorded stays recorded."""


def run_in_process(
    works: list[Work], pending: dict[str, list[int]], deadline: float | None, record: Record
) -> None:
    """Count every pending cube here, one after another (none started past the deadline); the
    parts `record` hands back run next, before the cubes still waiting (a split cube's parts
    one after another: the sub-problems they share are still in its memo)."""
    todo = {w.token: deque(pending.get(w.token, [])) for w in works}
    for work in works:
        queue = todo[work.token]
        if not queue:
            continue
        backend, state = _state(work.backend, work.token, work.payload)
        while queue:
            if deadline is not None and time.time() >= deadline:
                break  # the cubes left stay uncounted (None in their tally)
            i = queue.popleft()
            try:
                result = counted(backend, state, work.cubes[i],
                                 budgeted(deadline, work.budget), work.first,
                                 work.budget is not None)
            except Interrupted as stopped:
                record(work, [i], [(stopped.found, False, stopped.seconds)])
                raise KeyboardInterrupt from None
            for token, more in (record(work, [i], [result]) or {}).items():
                todo[token].extendleft(reversed(more))
    _thread_states().clear()


def _releases_gil(backend_name: str) -> bool:
    from .registry import backend

    return backend(backend_name).releases_gil


def run_on_threads(works: list[Work], pending: dict[str, list[int]], threads: int,
                   deadline: float | None, record: Record, share: bool = True) -> None:
    """Count on threads of this process, for backends whose search releases the GIL: no worker
    process to start (a process's start-up and imports cost a second or more, results/dlx-bench.md);
    the threads prepare from the payload the backend shares among them (Backend.share; with
    `share` False, from the work's own: a benchmark's other arm)."""
    from .registry import backend as backend_named

    STOP.clear()
    pool = ThreadPoolExecutor(threads)
    owners: dict = {}
    payloads: dict[str, object] = {}
    named = {w.token: w for w in works}

    todo: list[tuple[Work, list[int]]] = []  # chunks not started, the next last

    def add(work: Work, indexes: list[int]) -> None:
        """A work's cubes to count, before the chunks still waiting (the parts of a cube a
        worker stopped to split)."""
        if work.token not in payloads:
            payloads[work.token] = (backend_named(work.backend).share(work.payload, threads)
                                    if share else work.payload)
        todo.extend(reversed([(work, part) for part in chunks(work, indexes, threads)]))

    def start() -> None:
        """Free threads take the next chunks: one a thread, handed over only once the last
        result is recorded, so a chunk takes its work's budget as it is then (a pool's own
        queue let a thread start its next chunk before the main thread had recorded the one
        it finished: with a budget following the count's pace, a stale one)."""
        while todo and len(owners) < threads:
            work, part = todo.pop()
            future = pool.submit(chunk_now, work, payloads[work.token],
                                 [work.cubes[i] for i in part])
            owners[future] = (work, part)

    def chunk_now(work: Work, payload: object, cubes: list[Cube]) -> list[Result]:
        """A chunk counted with its work's budget as it is when the chunk starts (a count's
        budget follows its pace: splitting.paced_budget)."""
        return run_chunk(work.backend, work.token, payload, cubes, deadline, work.first,
                         work.budget)

    try:
        for work in reversed(works):  # the first work's chunks first
            add(work, pending.get(work.token, []))
        start()
        while owners:
            finished, _ = wait(owners, return_when=FIRST_COMPLETED)
            for future in finished:
                work, part = owners.pop(future)
                for token, more in (record(work, part, future.result()) or {}).items():
                    add(named[token], more)
            start()
    except BaseException:  # Ctrl-C, or `record` ending the run (a solve's first solution)
        STOP.set()  # the searches return at their next look at the clock
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        STOP.clear()


class LocalExecutor(Executor):
    """A pool of worker processes on this machine (spawned: safe with every solver library;
    forked where spawn cannot start Python, see runners/children.py)."""

    name = "local"

    def __init__(self, notes: Callable[[str], None] | None = None) -> None:
        self.notes = notes

    def processes(self, jobs: int, cubes: int) -> int:
        # more processes than cores only adds start-up time and contention (iq-block-8 with
        # --jobs 64 took 19.9 s instead of 0.5 s)
        return max(1, min(jobs, cubes, cores()))

    def run(self, works, pending, jobs, deadline, record) -> None:
        total = sum(len(pending.get(w.token, [])) for w in works)
        if total == 0:
            return
        processes = self.processes(jobs, total)
        active = [w for w in works if pending.get(w.token)]
        stops = all(w.stops_itself for w in active)
        if processes == 1 and (deadline is None or stops):
            run_in_process(works, pending, deadline, record)
            return
        if stops and all(_releases_gil(w.backend) for w in active):
            run_on_threads(works, pending, processes, deadline, record)
            return
        tasks, owners = [], []
        named = {w.token: w for w in works}

        def tasks_of(work: Work, indexes: list[int]) -> list[tuple]:
            found = []
            for part in chunks(work, indexes, processes):
                found.append((len(owners), work.token, [work.cubes[i] for i in part], deadline,
                              work.first, work.budget))
                owners.append((work, part))
            return found

        for work in works:
            tasks += tasks_of(work, pending.get(work.token, []))
        payloads = {w.token: (w.backend, w.payload) for w in works if pending.get(w.token)}

        def current(task: tuple) -> tuple:  # its work's budget as it is when it is sent
            return (*task[:5], owners[task[0]][0].budget)

        with interruptible(), Pool(processes, _serve_chunks, (payloads,), "a pool worker") as pool:
            for _, (number, result) in pool.results(tasks, deadline, GRACE, current):
                work, part = owners[number]
                for token, more in (record(work, part, result) or {}).items():
                    for task in reversed(tasks_of(named[token], more)):
                        pool.add(task)


class DaskExecutor(Executor):
    """A Dask distributed cluster: a LocalCluster of N workers, or a running scheduler."""

    budget_as_started = False  # every cube is submitted to the scheduler at the start

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address
        # a local cluster's workers, at most one a core: more only fight for the cores (64 on
        # 2 cores: load 55 and nannies that failed to start)
        self.asked = workers
        self.workers = None if workers is None else min(workers, cores())
        self.name = (f"dask://{address.removeprefix('tcp://')}" if address
                     else f"dask-local:{self.workers or cores()}")

    def capped(self) -> str | None:
        """A note where the workers asked for were more than the cores here, else None."""
        if self.address or self.asked is None or self.asked == self.workers:
            return None
        return (f"note: dask-local:{self.asked} is more than the {plural(cores(), 'core')} here; "
                f"the local cluster has {plural(self.workers, 'worker')}")

    def run(self, works, pending, jobs, deadline, record) -> None:
        # a local cluster's nanny starts a worker again when one dies: not the caller's script
        quiet_dask_logs()
        with interruptible(), main_left_out("spawn" if self.address is None else ""):
            self._run(works, pending, jobs, deadline, record)

    def _run(self, works, pending, jobs, deadline, record) -> None:
        try:
            from dask.distributed import as_completed as finished_in_turn
            from distributed import KilledWorker
        except ImportError:
            raise InputError(
                "Dask is not installed: pip install 'puzzlesat[cluster]'", field="executor"
            ) from None
        try:
            client = _dask_client(self.address, self.workers)
        except OSError as error:
            raise InputError(
                f"cannot reach the Dask scheduler {self.name}: {error}", field="executor"
            ) from None
        futures = []
        try:
            submit = _DaskSubmit(client, deadline, futures)
            named = {w.token: w for w in works}
            for work in works:
                if pending.get(work.token):
                    submit(work, pending[work.token])
            owners = submit.owners
            patience = None if deadline is None else max(0.0, deadline - time.time()) + GRACE
            try:
                running = finished_in_turn(futures, timeout=patience)
                for future in running:
                    work, part = owners[future.key]
                    for token, more in (record(work, part, future.result()) or {}).items():
                        running.update(submit(named[token], more))
            except TimeoutError:
                pass
            except (KilledWorker, CancelledError) as killed:  # its workers died on it, again
                if client.status != "running":  # the scheduler is gone (Dask gave up on it)
                    raise WorkerDied(
                        f"lost the Dask scheduler {self.name}: the count stopped (with "
                        "--checkpoint, run it again once the scheduler is back: it resumes)"
                    ) from None
                raise WorkerDied(f"the Dask workers died counting a chunk ({killed})") from None
        except (KeyboardInterrupt, WorkerDied):
            _close_dask()  # ends the local cluster's workers (none started again), and their work
            raise
        finally:
            if futures:
                try:
                    client.cancel(futures, force=True)
                except Exception:  # noqa: BLE001 (a closed client has nothing left to cancel)
                    pass


class _DaskSubmit:
    """Chunks of a work's cubes submitted to a Dask client (each work's payload scattered to
    the workers once); the futures made, and the work and cube indexes of each by its key."""

    def __init__(self, client, deadline: float | None, futures: list) -> None:
        self.client, self.deadline, self.futures = client, deadline, futures
        self.slots = max(1, sum(client.nthreads().values()))
        self.owners: dict = {}
        self.payloads: dict = {}

    def __call__(self, work: Work, indexes: list[int]) -> list:
        if work.token not in self.payloads:
            [self.payloads[work.token]] = self.client.scatter([work.payload], broadcast=True,
                                                              hash=False)
        submitted = []
        for part in chunks(work, indexes, self.slots):
            future = self.client.submit(
                run_chunk, work.backend, work.token, self.payloads[work.token],
                [work.cubes[i] for i in part], self.deadline, work.first, work.budget,
                pure=False)
            submitted.append(future)
            self.owners[future.key] = (work, part)
        self.futures.extend(submitted)
        return submitted


def quiet_dask_logs() -> None:
    """Dask's own log lines held back from the first count on Dask, for the rest of the process
    (a lost scheduler logged tracebacks from its client's reconnect attempts, some after the
    count had stopped): the count says what happened, in one line."""
    import logging

    try:
        import distributed  # noqa: F401 (its import sets its loggers' levels: set ours after)
    except ImportError:
        pass  # the count says Dask is missing
    for name in ("distributed", "distributed.client"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


# One client (and local cluster) per process, kept for the next count: starting a LocalCluster
# costs seconds, and a notebook or a benchmark counts many times.
_dask: dict[tuple, tuple] = {}


def _dask_client(address: str | None, workers: int | None):
    from dask.distributed import Client, LocalCluster

    key = (address, workers)
    if key in _dask and _dask[key][0].status == "running":
        return _dask[key][0]
    _close_dask()
    if address:
        client, cluster = Client(address, timeout=10), None
    else:
        # a script without a main guard is not run again in the workers; Ctrl-C is ours to give
        with main_left_out("spawn"), ctrl_c_left_to_us():
            cluster = LocalCluster(
                n_workers=workers or cores(), threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=50,
            )
        client = Client(cluster)
    _dask[key] = (client, cluster)
    if len(_dask) == 1:
        atexit.register(_close_dask)
    return client


def _close_dask() -> None:
    for client, cluster in list(_dask.values()):
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        except Exception:  # noqa: BLE001 (closing at exit: nothing more to do)
            pass
    _dask.clear()


EXECUTOR_NAMES = "local, dask-local[:N] or dask://HOST:PORT"


def executor_named(name: str | None) -> Executor:
    """The executor for an --executor value."""
    if name is None or name == "local":
        return LocalExecutor()
    if name == "dask-local" or name.startswith("dask-local:"):
        count = name.partition(":")[2]
        if count and (not count.isdigit() or int(count) < 1):
            raise InputError(f"dask-local:N takes a number of workers, not {count!r}",
                             field="executor")
        return DaskExecutor(workers=int(count) if count else None)
    if name.startswith(("dask://", "tcp://")):
        address = name.split("://", 1)[1]
        if not address:
            raise InputError("dask://HOST:PORT names the scheduler", field="executor")
        return DaskExecutor(address=f"tcp://{address}")
    raise InputError(f"unknown executor {name!r}; use {EXECUTOR_NAMES}", field="executor")
