"""Solver backends behind one interface: solve a model, or count the solutions in a cube.

A backend knows models and cubes, never puzzles. Each family encodes a puzzle into the model a
backend `takes` (see TAKES) and decodes the values it returns; the keys contract of
`models/encoded.py` holds for the solver models. Counting runs `count_cube` in worker processes
(or on a Dask cluster): `payload` turns a model into something picklable once, `prepare` turns it
back in each worker (cached there), and every cube is counted against that.

Backends are found by name in one registry (`runners/registry.py`).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass

Cube = tuple[int, ...]  # for solver models: +k key k-1 true, -k key k-1 false (k is 1-based)
Values = tuple[int, ...]  # what a cube's count returns: (solutions,) or more numbers per cube
# A literal no key has (keys are 1-based): a cube holding it was made by a split on its search's
# second branching (the bitboard search's fewest fits), searched and split so throughout; a
# stopped search's rest (Backend.count_part) that begins with REST_FEWEST is a path down the
# children of its cube with FEWEST added.
FEWEST = 0
REST_FEWEST = -1

# The models a backend may take; families encode a puzzle into each.
TAKES = (
    "cpsat",  # models.encoded.CpsatModel
    "cnf",  # models.encoded.CnfModel
    "cover",  # models.encoded.CoverModel: exact cover (with colours), for dancing links
    "reference",  # a family's own reference-solver data, built independently of the encoders
    "table",  # backends.table.TableModel: God's-algorithm table of a puzzle solved by moves
    "tables",  # models.edge_matching.tables.EdgeTables: the compiled edge-matching counter's
)


# Set while a count is being stopped (Ctrl-C, SIGTERM): backends whose cubes run on threads of
# this process (releases_gil) look at it between slices of their search and return.
STOP = threading.Event()

# Wall seconds a compiled search's slice aims at: between two slices it looks at the clock and at
# STOP, so a time limit, Ctrl-C or SIGTERM is obeyed within about this (and the load's share).
SLICE_SECONDS = 0.1


class Slices:
    """The node budgets of a compiled search's slices, each sized from the wall time of the one
    before so that a slice takes about SLICE_SECONDS whatever the search's pace and the machine's
    load. A fixed budget of 2 M nodes took 9-19 s a slice on the one-sided 9x10 at load 14, and a
    SIGTERM waited that long to be obeyed."""

    LEAST, MOST = 1_000, 1 << 30

    def __init__(self, first: int, seconds: float = SLICE_SECONDS) -> None:
        self.nodes = first
        self.seconds = seconds
        self.began: float | None = None

    def next(self) -> int:
        """The budget of the next slice (call it just before the slice runs)."""
        now = time.perf_counter()
        if self.began is not None:  # scale by the last slice's pace, at most 4x either way
            scale = min(4.0, max(0.25, self.seconds / max(now - self.began, 1e-6)))
            self.nodes = int(min(self.MOST, max(self.LEAST, self.nodes * scale)))
        self.began = now
        return self.nodes


@dataclass
class Outcome:
    """A solve: the values of one solution (the keys' values for solver models), or None.

    complete is False when the search stopped (time limit) before it could decide.
    """

    values: list[int] | None
    seconds: float
    complete: bool = True


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a cube, carrying the numbers the cube had found so far."""

    def __init__(self, found: Values) -> None:
        super().__init__()
        self.found = found
        self.seconds = 0.0  # how long the cube had run (set where it is timed)


class Backend(ABC):
    """One solver behind the common interface.

    Subclasses set `name` (the registry name, e.g. 'pysat:cadical195'), `takes` (one of
    TAKES) and answer `supported()` (whether the library or binary is present here).
    """

    name: str = ""
    takes: str = "cpsat"
    about: str = ""  # one line for listings: what it is
    cubes_per_job: int = 8  # how finely counting likes the work split
    stops_itself: bool = True  # honours a deadline without being ended from outside
    # a solve with a time limit runs in a child process ended at the deadline (PySAT): a caller
    # solving many times under one limit runs them all in one child instead
    solves_in_child: bool = False
    can_count: bool = True
    can_solve: bool = True  # False: it counts only (a model counter, mc:NAME)
    releases_gil: bool = False  # cubes may run on threads of one process (no worker start)
    # solve_cube: a solve may run on the counting engine's cubes (jobs, a checkpoint)
    solves_in_cubes: bool = False
    colours: bool = False  # for 'cover': whether it solves exact cover with colours (XCC)
    multiplicities: bool = False  # for 'cover': items covered several times (copies, MCC)
    needs: str = ""  # what to install when not supported(), e.g. "pip install 'puzzlesat[dlx]'"

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.takes not in TAKES:  # a model no family encodes: a mistake in the backend
            raise TypeError(f"{cls.__name__}.takes is {cls.takes!r}, not one of {TAKES}")

    @classmethod
    def supported(cls) -> bool:
        return True

    @abstractmethod
    def solve(self, model, time_limit: float | None = None) -> Outcome:
        """One solution of the model, within the time limit."""

    def solutions(self, model, limit: int | None = None) -> Iterator[list[int]]:
        """The values of every solution (up to `limit`), one after another."""
        state = self.prepare(self.payload(model))
        yield from self.enumerate(state, (), limit)

    def enumerate(self, state, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        raise NotImplementedError(f"{self.name} does not list solutions")

    # ---- counting, run where the executor puts the work (this process, a worker, a cluster)

    def payload(self, model) -> object:
        """A picklable form of the model, sent once to every worker."""
        return model

    def prepare(self, payload: object) -> object:
        """Worker side: the state cubes are counted against, built once per worker."""
        return payload

    def share(self, payload: object, threads: int) -> object:
        """The payload that `threads` threads of one process prepare from (backends that
        release the GIL): where a backend's threads share what they learn (the bitboard
        search: one memo), the payload carries it; by default the payload itself."""
        return payload

    def prepare_for_estimates(self, payload: object) -> object:
        """The state `estimate(state, cube)` needs, where a backend defines that (an estimate of
        a cube's work, for the time left: see counting.cube_sizes)."""
        return self.prepare(payload)

    def split(self, state, cube: Cube) -> list[Cube] | None:
        """A cube's children: cubes one step deeper whose solutions are exactly the cube's, each
        in one child (the counting engine splits a long cube into them, runners/splitting.py);
        children the search would find empty at once may be left out. None: this backend
        cannot split a cube (or the cube has no step left). The same state and cube give the
        same children in every process: a checkpoint records a split cube by its parts."""
        return None

    def count_part(self, state, cube: Cube, deadline: float | None
                   ) -> tuple[Values, bool, list[int] | None]:
        """count_cube, and where it stopped unfinished at the deadline, how far it got in
        `split`'s terms: (numbers, finished, rest). `rest` is a path down the children: at each
        level, the place among `split`'s children of the branch the search was in, and at the
        last, of the branch it would try next; the numbers are then exactly those of the
        branches before the path (the children before each place), so the engine counts only
        what follows (runners/splitting.py `the_rest`). rest None: the numbers count no whole
        child (thrown away where the cube is split); a rest beginning with REST_FEWEST: the
        path is down the children of the cube with FEWEST added. By default count_cube's, rest
        None."""
        values, finished = self.count_cube(state, cube, deadline)
        return values, finished, None

    def solve_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        """Search one cube until its first solution (a solve run by the counting engine:
        Work.first): (numbers, finished), the numbers beginning with 1 and carrying the
        solution once one is found (the cube then finished), else 0; the rest as count_cube."""
        raise NotImplementedError(f"{self.name} does not search cubes for a solution")

    @abstractmethod
    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        """Count the solutions in one cube: (numbers, finished).

        `deadline` is a time.time() value; at it, return what was found with finished False.
        On KeyboardInterrupt raise Interrupted(found so far).
        """
