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

from . import splitting
from .backends import STOP, Values
from .checkpoint import Checkpoint, digest, recorded_split
from .children import WorkerDied
from .executors import Executor, More, Record, Result, Work
from .models.errors import PuzzlesatWarning
from .models.words import duration
from .splitting import Split

# (work done, work in all, solutions so far): cubes, or, where the works estimate their cubes'
# sizes (Work.sizes), thousandths of a per cent of the estimated work, so that the time left
# holds on uneven cubes.
Progress = Callable[[int, int, int], None]
SCALE = 100_000  # work units in all when cubes are weighted by their estimated size
REDRAW_SECONDS = 1.0  # a progress bar's redraw between updates
LINE_SECONDS = 60.0  # between progress lines where no bar can be drawn (no terminal)


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
    split: Split | None = None,
    busy: Busy | None = None,
) -> tuple[list[Tally], bool]:
    """Count every cube of every work; (tallies, interrupted).

    Cubes already in the checkpoint are taken from it; each cube that finishes is appended.
    Where the backend can split a cube, `split` says how the cubes are cut into parts
    (runners/splitting.py): where one runs past a budget, its parts go to the workers that are
    free; a split cube is recorded by its parts. Works of a solve (Work.first) stop at the
    first cube with a solution (one the checkpoint holds: nothing more is searched). `busy`,
    where given, is filled with how busy the workers were.
    """
    from .registry import backend as backend_named

    busy = busy if busy is not None else Busy()
    plans = {w.token: splitting.resumed(w, checkpoint, backend_named(w.backend)) for w in works}
    budget = None if split is None else split.after
    if split is not None and budget is None and split.workers and split.workers > 1:
        budget = splitting.auto_budget(sum(splitting.estimated(p) for p in plans.values()
                                           if not p.work.first), split.workers)
    paced = budget is not None and split.after is None  # the budget follows the count's pace
    # (its first the least, where parts take it as they start: the cubes submitted at the start
    # of a count on Dask keep the estimate's, or all would be cut at the least)
    busy.budget = (splitting.paced_budget(budget, split.workers, 0.0, 0.0)
                   if paced and executor.budget_as_started else budget)
    units = work_units(works)
    total = sum(sum(u) for u in units.values())

    done = sum(units[t][p.cube] * p.done_share for t, plan in plans.items()
               for p in plan.parts if p.finished and not p.replaced)
    resumed = done
    shown = sum(_found(plan, plan.parts) for plan in plans.values())
    if progress:
        progress(round(done), total, shown)

    def record(work: Work, indexes: list[int], results: list[Result]) -> More:
        nonlocal done, shown
        plan = plans[work.token]
        start = len(plan.parts)
        finished, again = _kept(plan, work, indexes, results, deadline, busy)
        done += sum(units[work.token][p.cube] * p.done_share for p in finished)
        shown += _found(plan, [plan.parts[i] for i in indexes])
        if paced and work.budget is not None and not plan.wasted:
            work.budget = busy.budget = splitting.paced_budget(
                budget, split.workers, (done - resumed) / total, busy.searching)
        if checkpoint and finished:
            checkpoint.record(work.label, [p.cube for p in finished],
                              [p.values for p in finished], [p.seconds for p in finished],
                              [p.added for p in finished], [p.rest for p in finished])
        if progress:
            progress(round(done), total, shown)
        if work.first and any(p.finished and p.values and p.values[0] > 0 for p in finished):
            raise Found
        fed = again + plan.fed(work, start)
        return {work.token: fed} if fed else None

    interrupted = False
    start = time.perf_counter()
    try:
        _parts_run(works, plans, executor, jobs, deadline, record, busy)
    except Found:
        pass
    except KeyboardInterrupt:
        interrupted = True
    except WorkerDied as died:  # what the others counted stands; the count says it is partial
        warnings.warn(f"the count stopped early: {died}", PuzzlesatWarning, stacklevel=2)
        interrupted = True
    finally:
        busy.wall += time.perf_counter() - start
        busy.note(plans.values())
    return [_tally(plans[w.token]) for w in works], interrupted


def _parts_run(works: list[Work], plans: dict[str, splitting.Parts], executor: Executor,
            jobs: int, deadline: float | None, record: Record, busy: Busy) -> None:
    """The pending parts run on the executor in one pass: a part stopped for its budget is split
    at once and its parts go to the workers that are free (`record` hands them back), with no
    round to wait for; where a stopped search threw its work away, its work's budget becomes
    twice that part's seconds (a part wastes at most about its own time)."""
    if solution_found([_tally(p) for p in plans.values()]):
        return  # a solve the checkpoint holds the solution of
    counted = [_counted(plans[w.token], busy.budget) for w in works]
    pending = {w.token: plans[w.token].pending() for w in works}
    pending = {t: left for t, left in pending.items() if left}
    if not pending:
        return
    busy.workers = max(busy.workers, executor.processes(
        jobs, sum(len(left) for left in pending.values())))
    executor.run(counted, pending, jobs, deadline, record)


def _kept(plan: splitting.Parts, work: Work, indexes: list[int], results: list[Result],
          deadline: float | None, busy: Busy) -> tuple[list[splitting.Part], list[int]]:
    """A chunk's results kept in its plan: the parts finished (a stopped part's share of the
    work is its counted children's), and those to run again whole (stopped for their budget,
    their work thrown away, and not split: the work's budget is then twice their seconds)."""
    finished, again = [], []
    for i, result in zip(indexes, results):
        part = plan.parts[i]
        busy.searching += result[2] or 0.0
        over = _over_budget(work, result, deadline)
        if _taken(plan, i, result, over):
            finished.append(part)
        elif over and result[3:4] in ((), (None,)):  # its work thrown away: a longer budget
            work.budget = max(work.budget or 0.0, 2 * (result[2] or 0.0))
            if not part.replaced:
                again.append(i)
    return finished, again


def _over_budget(work: Work, result: Result, deadline: float | None) -> bool:
    """Whether a part came back unfinished for its budget alone (not a deadline or a stop)."""
    return (not result[1] and result[0] is not None and work.budget is not None
            and not (deadline is not None and time.time() >= deadline) and not STOP.is_set())


def _taken(plan: splitting.Parts, i: int, result: Result, over: bool) -> bool:
    """A part's result kept; whether it is finished (to be recorded). A part stopped `over` its
    budget is split at once (its parts appended to the plan, to run next; a count stopped
    before then is incomplete, never short): where its search says where it was (`rest`), what
    it counted stands and the branches after that path are parts; otherwise its partial count
    is thrown away and its children are parts (one that cannot be split runs again whole)."""
    values, ok, seconds, *more = result
    part = plan.parts[i]
    if over:
        rest = more[0] if more else None
        if rest is None:
            plan.wasted += seconds or 0.0
            children = plan.children(part)
            if children is not None:
                plan.replace(i, children)
            return False
        plan.parts.extend(plan.the_rest(part, rest))
        ok = True
    part.values = None if values is None else tuple(values)  # None: not started
    part.finished, part.seconds = ok, seconds
    return ok


def _counted(plan: splitting.Parts, budget: float | None) -> Work:
    """The work the executor runs: the plan's parts, with the budget where parts split."""
    work = plan.counted()
    work.budget = budget if plan.splittable and not work.first and work.stops_itself else None
    return work


def _found(plan: splitting.Parts, parts: list[splitting.Part]) -> int:
    """What `parts` found that the running count shows (its first number, weighted by its
    cube's orbit where the work has weights), so the count shown grows by the parts each
    record brings: tallied over every part at each record, a count split into 10,000 parts
    spent its time adding them up (the 6x10 split at 2 ms with a progress bar: 131 s, 7 s
    without)."""
    if not plan.work.shown:
        return 0
    weights = plan.work.weights
    return sum((weights[p.cube] if weights else 1) * p.values[0] for p in parts
               if p.values is not None and not p.replaced)


def _tally(plan: splitting.Parts) -> Tally:
    """A work's tally by its cubes, from its parts."""
    values, finished, seconds, resumed = splitting.cube_tallies(plan)
    return Tally(plan.work, values, finished, seconds, resumed)


@dataclass
class Busy:
    """How busy a count's workers were: seconds its parts were searched (those stopped to be
    split included), over the workers' wall seconds."""

    workers: int = 0
    searching: float = 0.0
    wall: float = 0.0
    splits: int = 0  # parts split
    parts: int = 0  # parts counted in all
    wasted: float = 0.0  # seconds of parts stopped to be split
    budget: float | None = None  # seconds a part runs before it is split (at first)

    @property
    def share(self) -> float | None:
        """The share of the workers' time spent searching (None: no cube ran)."""
        if self.workers < 1 or self.wall <= 0 or self.searching <= 0:
            return None
        return min(1.0, self.searching / (self.wall * self.workers))

    def note(self, plans) -> None:
        for plan in plans:
            self.splits += plan.splits
            self.parts += sum(not p.replaced for p in plan.parts)
            self.wasted += plan.wasted


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
    if not sys.stderr.isatty():
        with progress_lines(what) as update:
            yield update
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

    def redraw() -> bool:
        if bar is not None:
            bar.refresh()
        return True

    # redrawn every second between cubes: elapsed time moves, and the time left grows while a
    # long cube runs (a bar still for minutes reads as a hang)
    try:
        with every(REDRAW_SECONDS, redraw, "progress bar"):
            yield update
    finally:
        if bar is not None:
            bar.close()


def progress_line(what: str, began: int, done: int, total: int, found: int,
                  seconds: float) -> str:
    """How far a count is, in one line: the share done (of the work by its cubes' estimated
    sizes where the works give them, else of the cubes), found so far, this run's time, and the
    time left at this run's pace (`began`: the work a checkpoint held when it started)."""
    line = (f"{what}: {done / max(total, 1):.1%} done, {found:,} found; "
            f"{duration(seconds)} this run")
    if done > began and seconds > 0:
        line += f", about {duration((total - done) * seconds / (done - began))} left at its pace"
    return line


@contextmanager
def progress_lines(what: str):
    """Progress where no bar can be drawn (standard error a file or a pipe: a count run in the
    background, its log read later): a line every LINE_SECONDS (`progress_line`)."""
    began = time.monotonic()
    latest: list[int] = []  # the first update's work done, then the latest (done, total, found)

    def update(done: int, total: int, found: int) -> None:
        latest[:] = [latest[0] if latest else done, done, total, found]

    def say() -> bool:
        if latest:
            try:
                print(progress_line(what, *latest, time.monotonic() - began), file=sys.stderr,
                      flush=True)
            except (OSError, ValueError):  # standard error closed (a broken pipe)
                return False
        return True

    with every(LINE_SECONDS, say, "progress lines"):
        yield update


@contextmanager
def every(seconds: float, act: Callable[[], bool], name: str):
    """`act` called every `seconds` on a thread of its own while the block runs (until it
    returns False)."""
    closing = threading.Event()

    def run() -> None:
        while not closing.wait(seconds) and act():
            pass

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        closing.set()
        thread.join()


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
    # how cubes are cut into parts (None: as the jobs ask, `split_plan`)
    split: Split | None = None
    busy: Busy = field(default_factory=Busy)  # how busy the workers were, over every run

    def cubes_wanted(self, key: dict[str, object], per_job: int) -> int:
        """How many cubes (at least) a count splits its work into: `per_job` for each job, or,
        resuming from a checkpoint of the same work, the number it was written with; the cubes
        then depend on the work alone, not on the jobs, executor or machine."""
        split = recorded_split(self.checkpoint, key) if self.checkpoint else None
        if split is None:
            split = per_job * max(1, self.jobs)
        self.splits[digest(key)] = split
        return split

    def split_plan(self) -> Split:
        """How this count splits its cubes: as asked, or, from SPLIT_FROM_WORKERS jobs on, for
        its jobs (by the budget that gives them)."""
        if self.split is not None:
            return self.split
        return Split(workers=self.jobs if self.jobs >= splitting.SPLIT_FROM_WORKERS else None)

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
                                       self.progress, self.split_plan(), self.busy)
        finally:
            if saved:
                saved.close()
        self.interrupted = self.interrupted or interrupted
        return tallies
