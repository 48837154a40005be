"""A bitboard backtracker for exact cover without colours (packing puzzles), compiled by numba.

Items become bits of two 63-bit words (up to 126 items) in the model's fill order (for packing:
the board's cells along its shorter side, then the pieces). The search covers the first
uncovered item; the only options that can cover it are those whose first item it is, so each
item's options are one slice of a sorted array and a clash is two ANDs. Every solution is a
leaf of this search, so counting is exact; nothing is enumerated into Python.

numba (the `dlx` extra) compiles the search once and caches it on disk (`warm_up()` does that
and times it); without numba the same code runs as plain Python, correct but slow. The search
runs in slices of a given number of nodes, so a deadline and Ctrl-C are honoured between slices.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..models.encoded import CoverModel
from ..models.errors import InputError
from . import STOP, Backend, Cube, Interrupted, Outcome, Values

WORD = 63  # bits per word: int64 without its sign bit, so no arithmetic overflows
MAX_ITEMS = 2 * WORD
SLICE = 2_000_000  # nodes between two looks at the clock

try:  # pragma: no cover - which branch runs depends on the machine
    from numba import njit
    from numba.cpython.unsafe.numbers import trailing_zeros

    COMPILED = True
except ImportError:  # pragma: no cover
    COMPILED = False

    def njit(*args, **kwargs):
        return lambda f: f

    def trailing_zeros(x):
        return (x & -x).bit_length() - 1


@njit(cache=True, nogil=True)
def _search(
    low,
    high,
    start,
    end,
    full_low,
    full_high,
    stack_low,
    stack_high,
    nxt,
    last,
    depth,
    budget,
    record,
    chosen,
):  # pragma: no cover - compiled
    """Run the search from its saved stack for at most `budget` nodes.

    Level d holds the words covered so far and the slice [nxt[d], last[d]) of options still to
    try for its first uncovered item. Returns (solutions found, whether the search is over);
    depth[0] is kept for the next call. With record, the first solution's options are written
    to `chosen` (one per level, -1 after the last) and the search stops there.
    """
    found = 0
    d = depth[0]
    steps = 0
    while d >= 0:
        if steps >= budget:
            depth[0] = d
            return found, False
        i = nxt[d]
        if i >= last[d]:
            d -= 1
            continue
        nxt[d] = i + 1
        w0 = stack_low[d]
        w1 = stack_high[d]
        if (low[i] & w0) != 0 or (high[i] & w1) != 0:
            continue
        steps += 1
        n0 = w0 | low[i]
        n1 = w1 | high[i]
        if n0 == full_low:
            if n1 == full_high:
                found += 1
                if record:
                    for k in range(d + 1):
                        chosen[k] = nxt[k] - 1
                    chosen[d + 1] = -1
                    depth[0] = d
                    return found, False
                continue
            b = WORD + trailing_zeros(~n1 & (n1 + 1))
        else:
            b = trailing_zeros(~n0 & (n0 + 1))
        d += 1
        stack_low[d] = n0
        stack_high[d] = n1
        nxt[d] = start[b]
        last[d] = end[b]
    depth[0] = -1
    return found, True


@dataclass
class Board:
    """A model as bit masks: options sorted by their first item, each item's slice of them."""

    low: np.ndarray  # int64 per option: its items among the first WORD bits
    high: np.ndarray  # int64 per option: its items among the next WORD bits
    option: np.ndarray  # the model's index of each (sorted) option
    start: np.ndarray  # per bit: the first option whose first item it is
    end: np.ndarray
    full_low: int
    full_high: int
    bit_of: dict[int, int]  # item -> bit


def board_of(model: CoverModel, left_out: frozenset[int] = frozenset()) -> Board:
    """The bit masks of a model (options in left_out dropped)."""
    if len(model.items) > model.primary or model.coloured:
        raise ValueError("the bitboard search takes exact covers without secondary items")
    if len(model.items) > MAX_ITEMS:
        raise ValueError(f"the bitboard search takes at most {MAX_ITEMS} items")
    order = model.fill_order if model.fill_order is not None else range(len(model.items))
    bit_of = {item: b for b, item in enumerate(order)}
    n = len(model.items)
    rows = []
    for k, option in enumerate(model.options):
        if k in left_out or not option:
            continue
        bits = sorted(bit_of[i] for i in option)
        mask = sum(1 << b for b in bits)
        rows.append((bits[0], mask & ((1 << WORD) - 1), mask >> WORD, k))
    rows.sort()
    firsts = np.array([r[0] for r in rows], dtype=np.int64)
    start = np.searchsorted(firsts, np.arange(n), side="left").astype(np.int64)
    end = np.searchsorted(firsts, np.arange(n), side="right").astype(np.int64)
    full = (1 << n) - 1
    return Board(
        np.array([r[1] for r in rows], dtype=np.int64),
        np.array([r[2] for r in rows], dtype=np.int64),
        np.array([r[3] for r in rows], dtype=np.int64),
        start,
        end,
        full & ((1 << WORD) - 1),
        full >> WORD,
        bit_of,
    )


class Search:
    """One cube's search, resumable: run it slice by slice."""

    def __init__(self, board: Board, cube: Cube) -> None:
        self.board = board
        self.chosen = [k - 1 for k in cube if k > 0]
        levels = MAX_ITEMS + 2
        self.stack_low = np.zeros(levels, dtype=np.int64)
        self.stack_high = np.zeros(levels, dtype=np.int64)
        self.nxt = np.zeros(levels, dtype=np.int64)
        self.last = np.zeros(levels, dtype=np.int64)
        self.depth = np.zeros(1, dtype=np.int64)
        self.picked = np.full(levels, -1, dtype=np.int64)
        self.found = 0
        self.done = False
        covered = 0
        position = {int(k): j for j, k in enumerate(board.option)}
        for k in self.chosen:
            if k not in position:  # left out by the cube itself, or covering nothing
                self.done = True
                return
            j = position[k]
            mask = int(board.low[j]) | int(board.high[j]) << WORD
            if covered & mask:
                self.done = True  # the cube's options overlap: no solution
                return
            covered |= mask
        full = board.full_low | board.full_high << WORD
        if covered == full:
            self.found, self.done = 1, True
            return
        first = ((~covered) & (covered + 1)).bit_length() - 1
        self.stack_low[0] = covered & ((1 << WORD) - 1)
        self.stack_high[0] = covered >> WORD
        self.nxt[0] = board.start[first]
        self.last[0] = board.end[first]

    def run(self, budget: int, record: bool = False) -> bool:
        """Search on for at most `budget` nodes; whether the cube is finished."""
        if self.done:
            return True
        b = self.board
        found, over = _search(
            b.low,
            b.high,
            b.start,
            b.end,
            b.full_low,
            b.full_high,
            self.stack_low,
            self.stack_high,
            self.nxt,
            self.last,
            self.depth,
            budget,
            record,
            self.picked,
        )
        self.found += found
        self.done = bool(over)
        return self.done

    def solution(self) -> list[int]:
        """The model's options of the solution just recorded."""
        picked = [int(self.board.option[j]) for j in self.picked if j >= 0]
        self.picked[:] = -1
        return sorted(self.chosen + picked)


def warm_up() -> float:
    """Compile the search (or load numba's cache) on a tiny cover; the seconds this took."""
    start = time.perf_counter()
    tiny = CoverModel(["a", "b"], 2, [(0,), (1,), (0, 1)])
    search = Search(board_of(tiny), ())
    search.run(SLICE)
    assert search.found == 2
    return time.perf_counter() - start


def check_items(model: CoverModel) -> None:
    """A model beyond the bitboard's items is refused before any work, saying what serves."""
    if len(model.items) > MAX_ITEMS:
        raise InputError(
            f"bitboard takes at most {MAX_ITEMS} items (board cells and pieces); this puzzle "
            f"has {len(model.items)}: use xcover or cpsat", field="backend")


@dataclass
class Prepared:
    model: CoverModel
    board: Board


class BitboardBackend(Backend):
    """Counts exact covers (packing puzzles) by a compiled bitboard search."""

    name = "bitboard"
    takes = "cover"
    about = "bitboard backtracker on the first empty cell, compiled by numba (exact cover)"
    cubes_per_job = 4
    stops_itself = True
    # The compiled search releases the GIL: its cubes may run on threads of one process, which
    # saves each worker process's start (numba's import and cache load, 1-4 s on a busy machine).
    releases_gil = COMPILED
    needs = "pip install 'puzzlesat[dlx]' (numba; without it the search runs slowly in Python)"

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("numba") is not None

    def payload(self, model: CoverModel) -> CoverModel:
        check_items(model)
        return model

    def prepare(self, payload: CoverModel) -> Prepared:
        return Prepared(payload, board_of(payload))

    def _search(self, state: Prepared, cube: Cube) -> Search:
        left_out = frozenset(-k - 1 for k in cube if k < 0)
        board = board_of(state.model, left_out) if left_out else state.board
        return Search(board, cube)

    def count_cube(
        self, state: Prepared, cube: Cube, deadline: float | None
    ) -> tuple[Values, bool]:
        search = self._search(state, cube)
        try:
            while not search.run(SLICE):
                if deadline is not None and time.time() >= deadline or STOP.is_set():
                    return (search.found,), False
        except KeyboardInterrupt:
            raise Interrupted((search.found,)) from None
        return (search.found,), True

    def enumerate(self, state: Prepared, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        search = self._search(state, cube)
        if search.done:
            if search.found:
                yield state.model.values(search.chosen)
            return
        given = 0
        while limit is None or given < limit:
            over = search.run(SLICE, record=True)
            if search.picked[0] >= 0:
                yield state.model.values(search.solution())
                given += 1
            if over:
                return

    def solve(self, model: CoverModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        state = self.prepare(self.payload(model))
        search = self._search(state, ())
        if search.done:
            values = model.values(search.chosen) if search.found else None
            return Outcome(values, time.perf_counter() - start)
        while True:
            over = search.run(SLICE, record=True)
            if search.found:
                return Outcome(model.values(search.solution()), time.perf_counter() - start)
            if over:
                return Outcome(None, time.perf_counter() - start)
            if deadline is not None and time.time() >= deadline:
                return Outcome(None, time.perf_counter() - start, complete=False)
