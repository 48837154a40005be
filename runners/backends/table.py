"""The 'table' backend: God's-algorithm table of a puzzle solved by moves (Mind Lock, the
sliding-block puzzles), built by the breadth-first engine, cached, and walked for optimal plans.

A family encodes a puzzle into a `TableModel` (`MovesFamily.table_model`): its move kernel in
the C module puzzlesat._moves (runners/csrc/moves.c, by number) and the arrays it reads
(runners/kernels/), the positions at distance 0 (or a start and the kernel's goal test), an
upper bound on the positions for the memory estimate, and the key the table's file is stored
under. The backend knows models, never puzzles:
- it counts: the whole search is one cube, `()`, whose numbers are the positions reached and how
  many lie at each distance; a deadline or Ctrl-C stops it with the positions reached so far (a
  lower bound), so a count through the counting engine honours its time limit and checkpoint;
- it solves: `TableQuery` asks for a walk down the table from a start, and the answer's values
  are the moves, the first move first (the family's `neighbours` names them).
Tables are kept for the process (the last few) and in the user's cache folder (table_cache).
Where the install built no C module (no C compiler), the backend is absent and says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import native
from ..lazy import lazy_module
from ..table_cache import CacheReport
from . import Backend, Cube, Interrupted, Outcome, Values

if TYPE_CHECKING:
    from ..breadth_first import Build, Table

# the breadth-first engine (numpy, the C module) loads when a table is first built or read: a
# command that only declares this family's flags, or counts a packing puzzle, does not pay for it
engine = lazy_module("puzzlesat.breadth_first")

KEPT = 4  # tables kept in memory for the process, the most recently used


@dataclass(eq=False)
class TableModel:
    """What a table search needs: a family's encoding of one puzzle for the 'table' backend."""

    name: str  # the table file's stem in the cache folder, e.g. 'sliding-klotski-path'
    key: str  # fingerprint of everything the table depends on
    what: str  # how messages and the progress bar name the search
    kernel: int  # the move kernel's number in the C module (moves.MIND_LOCK, ...)
    data: tuple  # the arrays the kernel reads
    seeds: Sequence[int]  # codes at distance 0
    bound: int  # at most this many positions (the memory estimate's basis)
    component: int | None = None  # the search's start where the goal is the kernel's goal
    # test: first every position reachable from it, then the distances from those where the
    # goal test holds
    dense: bool = False  # the codes reached are exactly 0..n-1 (no key array is kept)
    keep_distances: bool = False  # also every position's whole distance, a byte a rank
    memory: int | None = None  # bytes the search may use (None: what the machine has)
    progress: bool = False  # a progress bar on standard error
    # where the codes are a perfect rank, 0..bound-1: the search keeps a byte a rank instead of
    # the codes, expanding a level with `level` (the C module's, which a caller may wrap) on
    # `threads`
    level: Callable | None = None
    threads: int = 1


@dataclass
class Found:
    """A model's table, how it came ('built' now, read from the 'cache', or kept in 'memory'),
    and the seconds this call took to get it."""

    model: TableModel
    build: Build
    source: str
    seconds: float
    report: CacheReport | None = None  # the cache's account: stored where, or why not
    table: Table = field(init=False)

    def __post_init__(self) -> None:
        self.table = self.build.table()

    @property
    def built(self) -> bool:
        """Whether the search ran in this call."""
        return self.source == "built"

    def notes(self) -> list[str]:
        """What the person at the terminal should know: a table built and stored (or not)."""
        return [self.report.message()] if self.built and self.report is not None else []


@dataclass
class TableQuery:
    """Walk the table of `model` from the position `start` (a code); `neighbours(code)` gives
    the moves from a position and the codes they lead to."""

    model: TableModel
    start: int
    neighbours: Callable[[int], list[tuple[object, int]]]


_FOUND: dict[str, Found] = {}


def forget() -> None:
    """Drop the tables kept in memory (the cache files stay)."""
    _FOUND.clear()


def _keep(found: Found) -> Found:
    _FOUND.pop(found.model.key, None)
    _FOUND[found.model.key] = found
    while len(_FOUND) > KEPT:
        _FOUND.pop(next(iter(_FOUND)))
    return found


def run_search(model: TableModel, deadline: float | None = None) -> Build:
    """The breadth-first search a model describes (SearchStopped at the deadline)."""
    if model.level is not None:
        return engine.search_ranked(model.kernel, model.data, model.seeds, model.bound,
                                    what=model.what, component=model.component,
                                    memory=model.memory, progress=model.progress,
                                    deadline=deadline, threads=model.threads, level=model.level)
    return engine.search(model.kernel, model.data, model.seeds, model.bound, what=model.what,
                         component=model.component, memory=model.memory,
                         progress=model.progress, dense=model.dense,
                         keep_distances=model.keep_distances, deadline=deadline)


class TableBackend(Backend):
    """God's-algorithm table of one family's puzzles: every reachable position's distance mod 3
    in 2 bits, cached; it counts positions and solves optimally."""

    takes = "table"
    about = "God's-algorithm table (breadth-first search, 2 bits a position, cached)"
    cubes_per_job = 1  # one search, one cube
    stops_itself = True  # the search looks at its deadline between chunks of positions

    def __init__(self, kind: str) -> None:
        self.name = f"table:{kind}"

    @classmethod
    def supported(cls) -> bool:
        return native.available("moves")

    @property
    def needs(self) -> str:
        """Why the backend is absent: the C module's one line (native.KernelMissing)."""
        try:
            native.kernel("moves")
        except native.KernelMissing as missing:
            return str(missing)
        return ""

    def table(self, model: TableModel, fresh: bool = False, deadline: float | None = None
              ) -> Found:
        """The model's table: kept in memory, read from the cache, or built now (and stored).
        fresh: built now whatever is kept or cached (and stored). A model that keeps every
        distance is built now unless a build kept in memory has them. SearchStopped at the
        deadline."""
        begin = time.perf_counter()
        kept = _FOUND.get(model.key)
        if kept is not None and not fresh and (kept.build.distances is not None
                                               or not model.keep_distances):
            return _keep(Found(model, kept.build, "memory", time.perf_counter() - begin,
                               kept.report))
        made, report = engine.load_or_build(model.name, model.key,
                                            lambda: run_search(model, deadline),
                                            fresh or model.keep_distances,
                                            f"the table of {model.what}")
        return _keep(Found(model, made, "built" if report.built else "cache",
                           time.perf_counter() - begin, report))

    def lookup(self, model: TableModel) -> Found | None:
        """The model's table if it is kept in memory or cached; never a search."""
        begin = time.perf_counter()
        if model.key in _FOUND:
            return _keep(Found(model, _FOUND[model.key].build, "memory",
                               time.perf_counter() - begin))
        made = engine.read_cached(model.name, model.key)
        if made is None:
            return None
        return _keep(Found(model, made, "cache", time.perf_counter() - begin))

    def solve(self, model: TableQuery, time_limit: float | None = None) -> Outcome:
        """An optimal plan: the moves down the table from the start (None: not reached)."""
        begin = time.perf_counter()
        found = self.table(model.model, deadline=None if time_limit is None
                           else time.time() + time_limit)
        try:
            path = found.table.walk(model.start, model.neighbours)
        except ValueError:  # the start is not among the positions the search reached
            return Outcome(None, time.perf_counter() - begin)
        return Outcome([move for move, _ in path], time.perf_counter() - begin)

    def count_cube(self, state: TableModel, cube: Cube, deadline: float | None
                   ) -> tuple[Values, bool]:
        """The search, as the one cube `()`: (positions, positions at distance 0, 1, ...), or
        (positions reached so far,) and False where the deadline stopped it."""
        if cube:
            raise ValueError(f"a table search is one cube, (), not {cube}")
        try:
            found = self.table(state, deadline=deadline)
        except engine.SearchStopped as stopped:
            if stopped.interrupted:
                raise Interrupted((stopped.positions,)) from None
            return (stopped.positions,), False
        return (found.build.positions, *found.build.distance_counts), True
