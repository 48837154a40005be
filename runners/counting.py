"""The counting engine: run works' cubes on an executor, with checkpoint, progress and limits.

Families plan a count as works (a model, a backend, cubes); this module runs them and returns
every cube's numbers and whether it finished. Time limits, Ctrl-C and SIGTERM end the workers
and leave a partial tally (a lower bound), never a traceback.
"""

from __future__ import annotations

import sys
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

from .backends import Values
from .checkpoint import Checkpoint, digest, recorded_split
from .children import WorkerDied
from .executors import Executor, Result, Work
from .models.errors import PuzzlesatWarning

# (work done, work in all, solutions so far): cubes, or, where the works estimate their cubes'
# sizes (Work.sizes), thousandths of a per cent of the estimated work, so that the time left
# holds on uneven cubes.
Progress = Callable[[int, int, int], None]
SCALE = 100_000  # work units in all when cubes are weighted by their estimated size
REDRAW_SECONDS = 1.0  # a progress bar's redraw between updates


def cube_sizes(backend_name: str, payload: object, cubes: list) -> list[float] | None:
    """Each cube's estimated size, for Work.sizes: the backend's `estimate(state, cube)` of the
    cube's search tree (the bitboard search: Knuth's random paths), or None where the backend
    offers none. One place for every family: a backend defines `estimate`, a family passes these
    sizes with its works.

    Cubes are far from even (a third of the one-sided 5x18's classes came in the first tenth of
    its time), so a time left taken from cubes done misleads.
    """
    from .registry import backend as backend_named

    backend = backend_named(backend_name)
    if not hasattr(backend, "estimate"):
        return None
    state = backend.prepare_for_estimates(payload)
    return [max(1.0, float(backend.estimate(state, cube))) for cube in cubes]


def work_units(works: list[Work]) -> dict[str, list[int]]:
    """Each cube's share of the progress bar: 1 each, or by the works' estimated sizes (every
    cube at least 1, so that a cube estimated empty still moves the bar)."""
    if not any(w.sizes for w in works):
        return {w.token: [1] * len(w.cubes) for w in works}
    total = sum(sum(w.sizes or [0.0]) for w in works) or 1.0
    return {w.token: [max(1, round(SCALE * s / total)) for s in (w.sizes or [0.0] * len(w.cubes))]
            for w in works}


class Found(Exception):
    """A solve's first solution came in: the run ends there (raised by `run`'s record, ending
    the executor's workers as an interrupt does, and caught by `run`)."""


def solution_found(tallies: list[Tally]) -> tuple[Tally, int] | None:
    """Where a solve's solution is (its tally and cube index: numbers beginning with 1, the
    solution after), or None."""
    for tally in tallies:
        for i, (values, ok) in enumerate(zip(tally.values, tally.finished)):
            if tally.work.first and ok and values and values[0] > 0:
                return tally, i
    return None


@dataclass
class Tally:
    """Each cube's numbers (None where not counted), whether it finished, the seconds it took
    on its worker (None where a checkpoint written before they were kept gave it), and whether
    it was read from the checkpoint (counted by an earlier call, not this one)."""

    work: Work
    values: list[Values | None]
    finished: list[bool]
    seconds: list[float | None]
    resumed: list[bool]

    def total(self, index: int = 0) -> int:
        """The weighted sum of one number over the cubes counted (a lower bound if not all)."""
        weights = self.work.weights or [1] * len(self.values)
        return sum(w * v[index] for w, v in zip(weights, self.values) if v is not None)

    @property
    def complete(self) -> bool:
        return all(self.finished)


def run(
    works: list[Work],
    executor: Executor,
    jobs: int,
    deadline: float | None = None,
    checkpoint: Checkpoint | None = None,
    progress: Progress | None = None,
) -> tuple[list[Tally], bool]:
    """Count every cube of every work; (tallies, interrupted).

    Cubes already in the checkpoint are taken from it; each cube that finishes is appended.
    Works of a solve (Work.first) stop at the first cube with a solution (one the checkpoint
    holds: nothing more is searched).
    """
    tallies, pending = _resumed(works, checkpoint)
    units = work_units(works)
    total = sum(sum(u) for u in units.values())

    def shown() -> int:
        return sum(t.total() for t in tallies.values() if t.work.shown)

    done = sum(u for t in tallies.values() for u, ok in zip(units[t.work.token], t.finished)
               if ok)
    if progress:
        progress(done, total, shown())

    def record(work: Work, indexes: list[int], results: list[Result]) -> None:
        nonlocal done
        tally = tallies[work.token]
        finished = []
        for i, (values, ok, seconds) in zip(indexes, results):
            tally.values[i] = None if values is None else tuple(values)  # None: not started
            tally.finished[i], tally.seconds[i] = ok, seconds
            if ok:
                finished.append(i)
                done += units[work.token][i]
        if checkpoint and finished:
            checkpoint.record(work.label, finished, [tally.values[i] for i in finished],
                              [tally.seconds[i] for i in finished])
        if progress:
            progress(done, total, shown())
        if work.first and any(tally.finished[i] and tally.values[i] and tally.values[i][0] > 0
                              for i in indexes):
            raise Found

    interrupted = False
    if solution_found(list(tallies.values())):
        pending = {}  # a solve the checkpoint holds the solution of
    try:
        executor.run(works, pending, jobs, deadline, record)
    except Found:
        pass
    except KeyboardInterrupt:
        interrupted = True
    except WorkerDied as died:  # what the others counted stands; the count says it is partial
        warnings.warn(f"the count stopped early: {died}", PuzzlesatWarning, stacklevel=2)
        interrupted = True
    return [tallies[w.token] for w in works], interrupted


def _resumed(works: list[Work], checkpoint: Checkpoint | None
             ) -> tuple[dict[str, Tally], dict[str, list[int]]]:
    """Per work (by token), its tally with the cubes the checkpoint holds, and the cubes left
    to count."""
    tallies = {w.token: Tally(w, [None] * len(w.cubes), [False] * len(w.cubes),
                              [None] * len(w.cubes), [False] * len(w.cubes)) for w in works}
    pending: dict[str, list[int]] = {}
    for work in works:
        tally = tallies[work.token]
        for i in range(len(work.cubes)):
            saved = checkpoint.done.get((work.label, i)) if checkpoint else None
            if saved is not None:
                tally.values[i], tally.finished[i] = tuple(saved), True
                tally.resumed[i] = True
                tally.seconds[i] = checkpoint.seconds.get((work.label, i))
            else:
                pending.setdefault(work.token, []).append(i)
        if work.sizes and work.token in pending:  # the largest first: no long cube left at the end
            pending[work.token].sort(key=lambda i: -work.sizes[i])
    return tallies, pending


@contextmanager
def progress_bar(what: str, show: bool | Progress | None):
    """A Progress for `count(progress=...)`: True draws a bar on standard error (with the running
    count, the work done and an estimate of the time left), a callable is used as it is."""
    if callable(show):
        yield show
        return
    if not show:
        yield None
        return
    from tqdm import tqdm

    bar = None

    def update(done: int, total: int, found: int) -> None:
        nonlocal bar
        if bar is None:
            # the work a checkpoint already holds is where the bar starts, not progress made at
            # this run's pace: the time left is (work left) / (work done by this run / its time),
            # averaged over the whole run (smoothing 0), as cubes finish in uneven bursts
            bar = tqdm(total=total, initial=done, desc=what, unit="", file=sys.stderr,
                       leave=False, disable=None, smoothing=0,
                       bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}"
                                  "{postfix}")
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)
        bar.set_postfix_str(f"{found:,} found", refresh=False)

    # redrawn every second between cubes: elapsed time moves, and the time left grows while a
    # long cube runs (a bar still for minutes reads as a hang)
    closing = threading.Event()

    def redraw() -> None:
        while not closing.wait(REDRAW_SECONDS):
            if bar is not None:
                bar.refresh()

    painter = threading.Thread(target=redraw, name="progress bar", daemon=True)
    painter.start()
    try:
        yield update
    finally:
        closing.set()
        painter.join()
        if bar is not None:
            bar.close()


@dataclass
class Runner:
    """How a count runs: where (executor, jobs), until when, with which checkpoint and display."""

    executor: Executor
    jobs: int = 1
    deadline: float | None = None  # a time.time() value
    checkpoint: str | None = None  # a checkpoint file's path
    progress: Progress | None = None
    interrupted: bool = False
    splits: dict[str, int] = field(default_factory=dict)  # cubes asked for, by the work's key

    def cubes_wanted(self, key: dict[str, object], per_job: int) -> int:
        """How many cubes (at least) a count splits its work into: `per_job` for each job, or,
        resuming from a checkpoint of the same work, the number it was written with; the cubes
        then depend on the work alone, not on the jobs, executor or machine."""
        split = recorded_split(self.checkpoint, key) if self.checkpoint else None
        if split is None:
            split = per_job * max(1, self.jobs)
        self.splits[digest(key)] = split
        return split

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.time()

    def expired(self) -> bool:
        return self.deadline is not None and time.time() >= self.deadline

    def run(self, works: list[Work], key: dict[str, object]) -> list[Tally]:
        """Run works (skipping what the checkpoint holds); remembers an interrupt."""
        saved = None
        if self.checkpoint:
            split = self.splits.get(digest(key))
            key = {**key, **({"split": split} if split else {}),
                   "cubes": digest([[w.label, w.cubes] for w in works])}
            saved = Checkpoint(self.checkpoint, key)
            saved.check_writable()
        try:
            tallies, interrupted = run(works, self.executor, self.jobs, self.deadline, saved,
                                       self.progress)
        finally:
            if saved:
                saved.close()
        self.interrupted = self.interrupted or interrupted
        return tallies
