"""The counting engine: run works' cubes on an executor, with checkpoint, progress and limits.

Families plan a count as works (a model, a backend, cubes); this module runs them and returns
every cube's numbers and whether it finished. Time limits, Ctrl-C and SIGTERM end the workers
and leave a partial tally (a lower bound), never a traceback.
"""

from __future__ import annotations

import sys
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

Progress = Callable[[int, int, int], None]  # (cubes done, cubes in all, solutions so far)
# A Progress may also have `share(fraction)`: it is then told the fraction of the estimated work
# done (cube weights from `cube_weights`), which is what the time left should follow.


def cube_weights(work: Work) -> list[float] | None:
    """Each cube's estimated share of a work's time: the backend's estimate of the cube's search
    tree (Knuth's random paths for the bitboard search); None where the backend has none.

    Cubes are far from even (a third of the one-sided 5x18's classes came in the first tenth of
    its time), so a time left taken from cubes done misleads; the engine weighs them instead.
    Any backend (edge matching's too) offers weights by defining `estimate(state, cube)`.
    """
    from .registry import backend as backend_named

    backend = backend_named(work.backend)
    if not hasattr(backend, "estimate"):
        return None
    state = backend.prepare_for_estimates(work.payload)
    return [max(1.0, float(backend.estimate(state, cube))) for cube in work.cubes]


@dataclass
class Tally:
    """Each cube's numbers (None where not counted) and whether it finished."""

    work: Work
    values: list[Values | None]
    finished: list[bool]

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
    """
    tallies = {w.token: Tally(w, [None] * len(w.cubes), [False] * len(w.cubes)) for w in works}
    pending: dict[str, list[int]] = {}
    for work in works:
        tally = tallies[work.token]
        for i in range(len(work.cubes)):
            saved = checkpoint.done.get((work.label, i)) if checkpoint else None
            if saved is not None:
                tally.values[i], tally.finished[i] = tuple(saved), True
            else:
                pending.setdefault(work.token, []).append(i)
    total = sum(len(w.cubes) for w in works)

    def shown() -> int:
        return sum(t.total() for t in tallies.values() if t.work.shown)

    done = sum(sum(t.finished) for t in tallies.values())
    share = getattr(progress, "share", None)
    weights = {w.token: cube_weights(w) for w in works} if share else {}
    if share and any(v is None for v in weights.values()):
        share = None  # a backend without estimates: the bar follows the cubes
    work_done = sum(weights[t.work.token][i] for t in tallies.values()
                    for i, f in enumerate(t.finished) if f) if share else 0.0
    work_total = sum(sum(v) for v in weights.values()) if share else 0.0
    if progress:
        progress(done, total, shown())
        if share:
            share(work_done / work_total)

    def record(work: Work, indexes: list[int], results: list[Result]) -> None:
        nonlocal done, work_done
        tally = tallies[work.token]
        finished = []
        for i, (values, ok) in zip(indexes, results):
            tally.values[i], tally.finished[i] = tuple(values), ok
            if ok:
                finished.append(i)
                done += 1
                if share:
                    work_done += weights[work.token][i]
        if checkpoint and finished:
            checkpoint.record(work.label, finished, [tally.values[i] for i in finished])
        if progress:
            progress(done, total, shown())
            if share:
                share(work_done / work_total)

    interrupted = False
    try:
        executor.run(works, pending, jobs, deadline, record)
    except KeyboardInterrupt:
        interrupted = True
    except WorkerDied as died:  # what the others counted stands; the count says it is partial
        warnings.warn(f"the count stopped early: {died}", PuzzlesatWarning, stacklevel=2)
        interrupted = True
    return [tallies[w.token] for w in works], interrupted


@contextmanager
def progress_bar(what: str, show: bool | Progress | None):
    """A Progress for `count(progress=...)`: True draws a bar on standard error (with the running
    count, cubes done and an estimate of the time left), a callable is used as it is."""
    if callable(show):
        yield show
        return
    if not show:
        yield None
        return
    from tqdm import tqdm

    # tqdm estimates the time left from the pace: of the estimated work where the backend
    # weighs its cubes (share), else of the cubes
    bar = tqdm(total=0, desc=what, unit="cube", file=sys.stderr, leave=False, disable=None)
    weighed = []

    def update(done: int, total: int, found: int) -> None:
        if weighed:
            bar.set_postfix_str(f"{done}/{total} cubes, {found:,} found", refresh=False)
            return
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)
        bar.set_postfix_str(f"{found:,} found", refresh=False)

    def share(fraction: float) -> None:
        if not weighed:  # the first share: the bar counts thousandths of the estimated work
            weighed.append(True)
            bar.reset(total=1000)
            bar.unit = "‰ work"
            bar.initial = bar.n = round(1000 * fraction)
            bar.refresh()
            return
        bar.update(round(1000 * fraction) - bar.n)

    update.share = share  # type: ignore[attr-defined]
    try:
        yield update
    finally:
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
