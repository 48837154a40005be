"""The solutions the pictures show, and their classes under the puzzle's symmetries.

Solutions come from the API (`puzzlesat.solutions`, whose default is the fastest backend that
lists them, in the order `puzzlesat solutions` shows): packing grids as dict (row, col) -> piece
index, edge-matching grids as (tile index, rotation) per cell, Mind Lock optimal solutions
walked down the God's-algorithm table. A picture lists no more solutions than it draws
(`first_solutions`: the first N, or those up to the first of the N-th class), within a time
bound, saying what it does. Two solutions are in one class when a symmetry of the board maps one
onto the other; a class is numbered by its first solution listed, and its orbit size (how many
solutions it holds) is the number of distinct images of that solution under the symmetries.
"""

from __future__ import annotations

import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from .. import api
from ..lazy import lazy_module
from ..models.geometry import Cell
from ..models.words import plural
from ..registry import default_backend

if TYPE_CHECKING:
    from ..models.packing import PackingPuzzle

# each family's models load where its pictures are made (the packing plan's symmetries
# too): the command line reads this module (the gallery's defaults) for every command, and a
# count loads no other family (issue 39)
em = lazy_module("puzzlesat.models.edge_matching")
ml = lazy_module("puzzlesat.models.mind_lock")

G = TypeVar("G")

# CPU seconds a picture spends listing the solutions it draws before it stops and says so:
# `draw`, `gallery` and `play` of every catalog puzzle end within a minute on 2 cores.
LIST_SECONDS = 30.0
SAY_EVERY = 5.0  # seconds between progress lines while solutions are listed
AGAIN = 0.5  # CPU seconds between a time bound's OutOfTime and the next, until it is heeded


@dataclass(frozen=True)
class Member(Generic[G]):
    """A solution, the number of its class (from 1) and the size of that class's orbit."""

    grid: G
    klass: int
    orbit: int


def classed(grids: Iterable[G], classify: Callable[[G], tuple[Hashable, int]]
            ) -> list[Member[G]]:
    """Solutions with their class (numbered by first appearance) and orbit size, from
    `classify(grid) -> (class key, orbit size)`."""
    members: list[Member[G]] = []
    number: dict[Hashable, int] = {}
    for grid in grids:
        key, orbit = classify(grid)
        number.setdefault(key, len(number) + 1)
        members.append(Member(grid, number[key], orbit))
    return members


def representatives(members: Sequence[Member[G]]) -> list[Member[G]]:
    """The first member met of each class."""
    seen: set[int] = set()
    out = []
    for member in members:
        if member.klass not in seen:
            seen.add(member.klass)
            out.append(member)
    return out


# ---------------------------------------------------------------- listing, bounded


class OutOfTime(Exception):
    """The listing's time bound came before it had what it was asked for."""


@contextmanager
def time_bound(seconds: float | None, tick: Callable[[float], None] | None = None,
               every: float | None = None) -> Iterator[None]:
    """OutOfTime raised in the block once it has spent `seconds` of this process's CPU time
    (None: never; CPU, not wall-clock, so that a loaded machine gives the same answer, later),
    and `tick(wall seconds so far)` called every `every` seconds of the clock (a progress
    line): both from timer signals, so that a search that returns to Python between its
    slices is stopped where it is. Off the main thread, where no signal can be caught, neither.
    every None: SAY_EVERY as it is at the call."""
    every = SAY_EVERY if every is None else every
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    start = time.perf_counter()
    ending = False

    def expired(signum, frame) -> None:
        if not ending:  # raised again every AGAIN CPU seconds: code that swallowed it (a
            raise OutOfTime  # library's broad `except`) is stopped by the next one

    def ticked(signum, frame) -> None:
        try:
            tick(time.perf_counter() - start)
        except RuntimeError:  # standard error busy at that instant: the next tick says it
            pass

    previous = {}
    if seconds is not None:
        previous[signal.SIGPROF] = signal.signal(signal.SIGPROF, expired)
        signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001), AGAIN)
    if tick is not None:
        previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, ticked)
        signal.setitimer(signal.ITIMER_REAL, every, every)
    try:
        yield
    finally:
        ending = True
        for which, timer in ((signal.SIGPROF, signal.ITIMER_PROF),
                             (signal.SIGALRM, signal.ITIMER_REAL)):
            if which in previous:
                signal.setitimer(timer, 0)
                signal.signal(which, previous[which])


# What the pictures listed, newest last (puzzle name, solutions listed): what a test reads to
# check that a picture listed no more than it drew.
LISTED: deque[tuple[str, int]] = deque(maxlen=1000)


@dataclass
class Listing(Generic[G]):
    """Solutions listed for pictures, each with its class and orbit: the first ones the
    enumerator gives, `complete` when it listed every solution (so that the counts are exact),
    `out_of_time` when the time bound stopped it first."""

    members: list[Member[G]]
    complete: bool
    out_of_time: bool
    backend: str
    seconds: float
    classes: int = 0  # distinct classes among the members
    keys: list[Hashable] = field(default_factory=list, repr=False)

    @property
    def grids(self) -> list[G]:
        return [m.grid for m in self.members]

    def line(self, name: str) -> str:
        """What was listed, in words (the last progress line of a picture)."""
        state = ("every solution" if self.complete else
                 f"stopped by the time bound of {LIST_SECONDS:g} CPU s" if self.out_of_time else
                 "as many as asked for")
        return (f"{name}: listed {plural(len(self.members), 'solution')} "
                f"({plural(self.classes, 'class')}) with {self.backend} in "
                f"{self.seconds:.1f} s: {state}")


def first_solutions(puzzle, wanted: int, classify: Callable[[G], tuple[Hashable, int]],
                    by_class: bool = False, seconds: float | None = -1.0,
                    say: Callable[[str], None] | None = None, most: int | None = None
                    ) -> Listing[G]:
    """The first `wanted` solutions the API lists (by_class: those up to the first solution of
    the `wanted`-th class, at most `most`), each classed by `classify(grid) -> (class key,
    orbit size)`, listed for at most `seconds` (None: no bound). A listing that takes longer
    than SAY_EVERY seconds says what it does to `say`, then how far it got, and what it got.
    seconds -1: LIST_SECONDS as it is at the call."""
    seconds = LIST_SECONDS if seconds == -1.0 else seconds
    start = time.perf_counter()
    members: list[Member[G]] = []
    keys: list[Hashable] = []
    number: dict[Hashable, int] = {}
    backend = default_backend(puzzle.kind, "solutions")[0]
    what = f"the first {plural(wanted, 'class')}" if by_class else (
        "a solution" if wanted == 1 else f"the first {plural(wanted, 'solution')}")
    bound = "" if seconds is None else f", at most {seconds:g} CPU s"
    ticks: list[float] = []

    def tick(spent: float) -> None:
        if say:
            ticks.append(spent)
            say(f"{puzzle.name}: listing {what} with {backend}{bound}: "
                f"{plural(len(members), 'solution')} and {plural(len(number), 'class')} "
                f"so far, {spent:.0f} s ...")

    complete = out_of_time = False
    try:
        with time_bound(seconds, tick if say else None):
            for solution in api.solutions(puzzle, limit=most if by_class else wanted):
                key, orbit = classify(solution.grid)
                number.setdefault(key, len(number) + 1)
                members.append(Member(solution.grid, number[key], orbit))
                keys.append(key)
                if (len(number) if by_class else len(members)) >= wanted:
                    break
            else:
                complete = True
    except OutOfTime:
        out_of_time = True
    listed = Listing(members, complete, out_of_time, backend, time.perf_counter() - start,
                     len(number), keys)
    LISTED.append((puzzle.name, len(members)))
    if say and ticks:
        say(listed.line(puzzle.name))
    return listed


def nothing_found(puzzle, listed: Listing, word: str = "solution") -> str:
    """Why a picture has nothing to draw, and what to do instead (one line)."""
    if listed.out_of_time:
        return (f"{puzzle.name}: no {word} found in {LIST_SECONDS:g} CPU s of listing with "
                f"{listed.backend}: too hard to list for a picture (`puzzlesat solve "
                f"{puzzle.name}` searches without a bound; `draw --pieces` draws the pieces)")
    return f"{puzzle.name} has no {word} to draw (try --pieces)"


# ---------------------------------------------------------------- packing


def packing_solutions(puzzle: PackingPuzzle, limit: int | None = None) -> list[dict[Cell, int]]:
    """Every solution (up to `limit`), as piece index per board cell."""
    return [solution.grid for solution in api.solutions(puzzle, limit=limit)]


def packing_classes(puzzle: PackingPuzzle, grids: list[dict[Cell, int]],
                    modulo: str = "symmetry") -> list[Member]:
    """The solutions grouped into classes under the board's symmetries (rotations, and mirror
    images where the set holds each piece's mirror image: a mirror gives a piece its twin's
    place) or, modulo 'rotation', its rotations alone; each with its orbit size (its distinct
    images: exact whether or not `grids` holds every solution)."""
    return classed(grids, packing_classifier(puzzle, modulo))


def packing_class_keys(puzzle: PackingPuzzle, grids: list[dict[Cell, int]],
                       modulo: str = "symmetry") -> list[bytes]:
    """Each solution's least image under the symmetries (pieces listed in the board's cell
    order), the same exactly for solutions one symmetry maps onto the other."""
    return class_keyer(puzzle, modulo)(grids)


def class_keyer(puzzle: PackingPuzzle, modulo: str = "symmetry"
                ) -> Callable[[list[dict[Cell, int]]], list[bytes]]:
    """The class keys of packing_class_keys, the symmetries worked out once: computed on arrays
    (numpy), the Soma cube's 11,520 solutions under 48 symmetries take a fraction of a second."""
    images = _imager(puzzle, modulo)

    def keys(grids: list[dict[Cell, int]]) -> list[bytes]:
        return [key for key, _ in images(grids)] if grids else []

    return keys


def packing_classifier(puzzle: PackingPuzzle, modulo: str = "symmetry"
                       ) -> Callable[[dict[Cell, int]], tuple[bytes, int]]:
    """One solution's class key (as packing_class_keys) and orbit size (its distinct images
    under the symmetries), for `first_solutions`."""
    images = _imager(puzzle, modulo)
    return lambda grid: images([grid])[0]


def _imager(puzzle: PackingPuzzle, modulo: str
            ) -> Callable[[list[dict[Cell, int]]], list[tuple[bytes, int]]]:
    """Each solution's least image under the symmetries and how many distinct images it has."""
    import numpy

    from ..models.packing.plan import puzzle_symmetries

    cells = sorted(puzzle.board_cells)
    index = {cell: i for i, cell in enumerate(cells)}
    moves = [(numpy.array([index[s.move(cell)] for cell in cells]),
              numpy.asarray(s.twin, dtype=numpy.int16))
             for s in puzzle_symmetries(puzzle, modulo)]

    def images(grids: list[dict[Cell, int]]) -> list[tuple[bytes, int]]:
        pieces = numpy.array([[grid[cell] for cell in cells] for grid in grids],
                             dtype=numpy.int16).reshape(len(grids), len(cells))
        rows = numpy.arange(len(grids))
        least = None
        seen: list[set[bytes]] = [set() for _ in grids]
        for where, twin in moves:
            image = numpy.empty_like(pieces)
            image[:, where] = twin[pieces]
            for row, found in zip(image, seen):
                found.add(row.tobytes())
            if least is None:
                least = image
                continue
            differ = image != least
            first = differ.argmax(axis=1)
            smaller = differ.any(axis=1) & (image[rows, first] < least[rows, first])
            least[smaller] = image[smaller]
        return [(row.tobytes(), len(found)) for row, found in zip(least, seen)]

    return images


def distinct_packing_solutions(puzzle: PackingPuzzle, wanted: int, looked_at: int,
                               say: Callable[[str], None] | None = None
                               ) -> list[dict[Cell, int]]:
    """Up to `wanted` solutions no symmetry of the board maps onto one another, the first met
    among the first `looked_at` solutions the enumerator lists (within the time bound)."""
    listed = first_solutions(puzzle, wanted, packing_classifier(puzzle), by_class=True,
                             say=say, most=looked_at)
    return [member.grid for member in representatives(listed.members)]


def packing_symmetries(puzzle: PackingPuzzle, modulo: str = "symmetry") -> int:
    """How many symmetries of the board the classes are taken under."""
    from ..models.packing.plan import puzzle_symmetries

    return len(puzzle_symmetries(puzzle, modulo))


# ---------------------------------------------------------------- edge matching

Placed = tuple[int, int]


def edge_solutions(puzzle: em.EdgePuzzle, limit: int | None = None, backend: str | None = None
                   ) -> list[list[Placed]]:
    """Distinct grids (identical tiles interchangeable), up to `limit` (by default listed by
    the fastest lister, as `puzzlesat solutions` lists them)."""
    return [list(solution.grid) for solution in api.solutions(puzzle, backend, limit=limit)]


def edge_classes(puzzle: em.EdgePuzzle, grids: list[list[Placed]]) -> list[Member]:
    """The grids grouped into classes up to turning the whole board, each with its orbit."""
    return classed(grids, edge_classifier(puzzle))


def edge_classifier(puzzle: em.EdgePuzzle) -> Callable[[list[Placed]], tuple[Hashable, int]]:
    """A grid's class key (its least look under the board's turns) and orbit size (its
    distinct looks: the grids it stands for, identical tiles interchangeable)."""
    turns = em.board_turns(puzzle)

    def classify(grid: list[Placed]) -> tuple[Hashable, int]:
        shown = em.looks(puzzle, grid)
        images = {em.turned_looks(puzzle, shown, t) for t in turns}
        return min(images), len(images)

    return classify


# ---------------------------------------------------------------- Mind Lock


@dataclass(frozen=True)
class Walk:
    """An optimal solution: the positions from the start to solved and the moves between."""

    positions: tuple[ml.Position, ...]
    moves: tuple[str, ...]


def mind_lock_table(puzzle: ml.MindLockPuzzle):
    """The God's-algorithm table (distance mod 3 of every position, by rank), cached."""
    from ..families.mind_lock import FAMILY

    return FAMILY.table(puzzle)


def optimal_walk(puzzle: ml.MindLockPuzzle, start: ml.Position) -> Walk:
    """An optimal solution from `start`, as the API plans it (the table's walk by default)."""
    solution = next(api.solutions(puzzle, start=start))
    return Walk(tuple(solution.grid), tuple(solution.moves))


def hardest(puzzle: ml.MindLockPuzzle) -> tuple[int, list[ml.Position]]:
    """The greatest distance from solved and the positions at that distance (by rank)."""
    table = mind_lock_table(puzzle)
    return table.build.gods_number, table.hardest()
