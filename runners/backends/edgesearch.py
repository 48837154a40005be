"""Our compiled search for best boards (C, runners/csrc/edgesearch.c): depth-first, with slips
on a budget.

The cells are filled row by row (fixed tiles are there from the start). At each cell the
candidates, a tile turned one allowed way, come first from a table keyed by the colours its
filled neighbours above and to the left ask for, as in edgecount (every seam met); then, where
the budget allows, those that match only one of the two (a slip: one broken seam), then those
matching neither. The slips are read from the unused tiles as words of bits: the tiles that
show a colour on a side (a word each 64 tiles), and with the unused ones, then each such
tile's turns; the tables' slices of one colour, mostly used tiles at the deep cells where most
slips are tried, were scanned entry by entry before (on Eternity II 25 entries a node, 96% of
them used tiles: a median of 11.1 M nodes a CPU second against 35.5 M now, the same run and
tree, load 10.5; results/README.md).
A neighbour that is fixed (a clue to the right or below) is checked too. The budget is a number
of broken seams allowed so far at each depth (a "slip array", as the 2008 prize winner's
search had): none in the first part of the board, then more and more towards its end, so the
search spends its time filling most of the board exactly and finishes every deep path.
On a large board a cell may break only one of the seams to its filled neighbours above and to
the left (its tile meets one of them), unless a whole restart found no full board that way
(SINGLE_FIRST): then double breaks are allowed, and each fruitless restart doubles the slips
and lets them start earlier (a board with a tile that meets nothing still gets its boards).
Every full board it meets is scored (seams less the broken ones); the best is kept and sent.
The search restarts with the candidates in a new random order (the tables' slices shuffled,
the tiles numbered anew for the slips) when it has gone long without a better board.

On a board of at most EXACT_CELLS cells the budget is the same at every depth and raised one
by one from 0: the first budget under which a full board exists is that board's number of
broken seams, so the board is proved best (every board with fewer breaks was searched for).

The search runs in slices of nodes (a node: a tile placed), between which the time is looked
at and better boards are sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .. import native
from ..models.edge_matching import EdgePuzzle, Placed
from ..models.edge_matching.best import SearchArrays, search_arrays

SLICE = 2_000_000  # nodes between two looks at the clock
EXACT_CELLS = 25  # boards up to 5x5 are searched to a proof of their best
# Measured on Eternity II with the centre clue, 20 s of CPU each (results/best-bench.md has the
# runs of the whole search): slips from 70% of the cells on, 8% of the seams by the end: 442;
# 75%, 7%: 448; 75%, 6%: 451; 77%, 6%: 452; 76%, 5.5%: no full board. The budget starts at
# SLIPS and, after each better board, is scaled down to one break fewer than that board has
# (60 s of CPU, seeds 1 and 2: 451 and 453).
FIRST_SLIP = 0.77  # of the free cells filled before the first slip is allowed (large boards)
SLIPS = 0.07  # broken seams allowed by the end at first, as a share of the seams
PATIENCE = 20_000_000  # nodes without a better board before a restart in a new order
POLISH = 200_000  # steps of local search (swaps and turns) on each better board
# On large boards a cell breaks at most one of its seams to its neighbours above and to the left
# until the first restart that found no full board (a board some tile of which can meet
# neither is then searched with double breaks as before). Measured on Eternity II with the
# centre clue, 6e8 nodes from the root, seeds 1 and 2 (load 20): 454 and 453 without double
# breaks, 451 and 453 with them, 11.4 against 10.3 M nodes a CPU second.
SINGLE_FIRST = True
# A depth's frame of the search's stack (the columns of Search.stack, as the C kernel reads
# them): its phase of candidates, its slice of the table (next position and end), the word and
# bits of unused tiles left in a slip, the slip's tile and its turns left, the colours asked of
# it on the left and top, and the broken seams so far.
FRAME = ("phase", "pos", "end", "word", "bits", "tile", "turns", "need_l", "need_t", "slips")
POS, END, WORD, NEED_L, NEED_T = (FRAME.index(name) for name in ("pos", "end", "word", "need_l",
                                                                "need_t"))


def words_of(bits: np.ndarray) -> np.ndarray:
    """Booleans (tile, ...) as 64-bit words (..., word): tile t at bit t % 64 of word t // 64."""
    tiles = bits.shape[0]
    padded = np.zeros((-(-tiles // 64) * 64, *bits.shape[1:]), dtype=bool)
    padded[:tiles] = bits
    packed = np.packbits(np.moveaxis(padded, 0, -1), axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view(np.int64)


class Search:
    """The arrays of one search (one seed) and its stack, resumable slice by slice."""

    def __init__(self, arrays: SearchArrays, seed: int) -> None:
        self.arrays = a = arrays
        n = a.rows * a.cols
        self.rng = np.random.default_rng(seed)
        self.order = np.array([c for c in range(n) if a.fixed[c] < 0], dtype=np.int64)
        depth_of = {int(c): d for d, c in enumerate(self.order)}
        depths = len(self.order)
        known = lambda c, d: c >= 0 and (a.fixed[c] >= 0 or depth_of.get(c, depths) < d)  # noqa: E731
        self.left = np.full(depths, -1, dtype=np.int64)
        self.top = np.full(depths, -1, dtype=np.int64)
        self.extra = np.full((depths, 2), -1, dtype=np.int64)
        self.extra_side = np.zeros((depths, 2), dtype=np.int64)
        for d, c in enumerate(self.order):
            up, right, down, left = a.neighbour[c]
            self.top[d] = up if known(up, d) else -1
            self.left[d] = left if known(left, d) else -1
            k = 0
            for side, other in ((1, right), (2, down)):
                if known(other, d):
                    self.extra[d, k], self.extra_side[d, k] = other, side
                    k += 1
        colours = len(a.partner) - 1
        self.wild = colours  # also the id that meets nothing: never a candidate's colour
        classes: dict[bytes, int] = {}
        self.cls = np.zeros(depths, dtype=np.int64)
        members: list[np.ndarray] = []
        for d, c in enumerate(self.order):
            key = a.turns[c].tobytes()
            if key not in classes:
                classes[key] = len(members)
                members.append(a.turns[c].copy())
            self.cls[d] = classes[key]
        self.members = members
        # the puzzle's tables as the kernel reads them (int64): turns, neighbour, edge, partner
        self.tables = tuple(np.ascontiguousarray(x, dtype=np.int64)
                            for x in (a.turns, a.neighbour, a.edge, a.partner))
        self.tile_at = np.full(n, -1, dtype=np.int64)
        self.turn_at = np.zeros(n, dtype=np.int64)
        for c in range(n):
            if a.fixed[c] >= 0:
                self.tile_at[c], self.turn_at[c] = a.fixed[c], a.fixed_turn[c]
        self.base_broken = 0  # seams between two fixed tiles that do not match
        for c in range(n):
            for side in (1, 2):
                other = a.neighbour[c, side]
                if a.fixed[c] >= 0 and other >= 0 and a.fixed[other] >= 0:
                    mine = a.edge[a.fixed[c], (side - a.fixed_turn[c]) & 3]
                    theirs = a.edge[a.fixed[other], (side + 2 - a.fixed_turn[other]) & 3]
                    self.base_broken += int(a.partner[mine] != theirs)
        self.best_tile = self.tile_at.copy()
        self.best_turn = self.turn_at.copy()
        self.state = np.zeros(6, dtype=np.int64)
        self.state[2] = -1
        self.state[5] = 1
        self.allow = np.zeros(depths, dtype=np.int64)
        self.shuffle()

    def shuffle(self) -> None:
        """The tiles numbered in a new random order (the order the slips try them in), the
        candidate tables, each slice in a new random order, and the stack at the root."""
        a = self.arrays
        wild = self.wild
        count = len(a.edge)
        self.real = self.rng.permutation(count).astype(np.int64)  # our number -> the tile
        self.number = np.argsort(self.real)
        self.edge = edge = a.edge[self.real].astype(np.int64)
        self.allowed = allowed = np.array([m[self.real] for m in self.members], dtype=np.int64
                                          ).reshape(len(self.members), count)  # none: all fixed
        tiles = np.arange(count)
        self.turn_left = np.zeros((count, wild + 1), dtype=np.int64)
        self.turn_top = np.zeros((count, wild + 1), dtype=np.int64)
        for r in range(4):
            self.turn_left[tiles, edge[:, (3 - r) & 3]] |= 1 << r
            self.turn_top[tiles, edge[:, -r & 3]] |= 1 << r
        self.turn_left[:, wild] = self.turn_top[:, wild] = 15
        shows = np.stack([self.turn_top, self.turn_left])  # side (top, left) x tile x colour
        self.has = words_of((shows.transpose(1, 0, 2)[:, :, None, :]
                             & allowed.T[:, None, :, None]) != 0).ravel()
        cand_tile, cand_turn = [], []
        start = np.zeros((len(self.members), wild + 1, wild + 1), dtype=np.int64)
        stop = np.zeros_like(start)
        for k in range(len(self.members)):
            cands = [(t, r) for t in np.nonzero(allowed[k])[0] for r in range(4)
                     if allowed[k, t] >> r & 1]
            buckets: dict[tuple[int, int], list[int]] = {}
            for j, (t, r) in enumerate(cands):
                lc, tc = int(edge[t, (3 - r) & 3]), int(edge[t, -r & 3])
                for key in ((lc, tc), (lc, wild), (wild, tc), (wild, wild)):
                    buckets.setdefault(key, []).append(j)
            for (lc, tc), js in buckets.items():
                start[k, lc, tc] = len(cand_tile)
                for i in self.rng.permutation(len(js)):
                    cand_tile.append(cands[js[i]][0])
                    cand_turn.append(cands[js[i]][1])
                stop[k, lc, tc] = len(cand_tile)
        self.start, self.stop = start, stop
        self.cand_tile = np.array(cand_tile, dtype=np.int64)
        self.cand_turn = np.array(cand_turn, dtype=np.int64)
        self.restart()

    def restart(self) -> None:
        depths = len(self.order)
        a = self.arrays
        count = len(a.edge)
        self.used = np.zeros(count, dtype=np.int64)
        for c in range(len(self.tile_at)):
            if a.fixed[c] >= 0:
                self.tile_at[c] = self.number[a.fixed[c]]
                self.used[self.tile_at[c]] = 1
        self.free = words_of(self.used[:, None] == 0)[0]
        # the search's state at each depth (runners/csrc/edgesearch.c's frame): one row a depth
        self.stack = np.zeros((depths + 1, len(FRAME)), dtype=np.int64)
        self.stack[:, WORD] = -1
        self.state[0] = 0
        self.state[4] = 0
        if depths:
            root = self.stack[0]
            root[NEED_L] = self.wild if self.left[0] < 0 else self._need(self.left[0], 1)
            root[NEED_T] = self.wild if self.top[0] < 0 else self._need(self.top[0], 2)
            k = self.cls[0]
            root[POS] = self.start[k, root[NEED_L], root[NEED_T]]
            root[END] = self.stop[k, root[NEED_L], root[NEED_T]]

    def _need(self, cell: int, side: int) -> int:
        a = self.arrays
        return int(a.partner[self.edge[self.tile_at[cell], (side - self.turn_at[cell]) & 3]])

    def run(self, budget: int) -> bool:
        """Search on for at most `budget` nodes; whether the search is over."""
        a = self.arrays
        if len(self.order) == 0:
            if self.state[2] < 0:
                self.state[2] = a.seams - self.base_broken
                self.state[3] = 1
            return True
        native.kernel("edgesearch").search(
            self.order, self.cls, self.left, self.top, self.extra, self.extra_side, self.allow,
            self.start, self.stop, self.cand_tile, self.cand_turn, self.has, self.turn_left,
            self.turn_top, self.allowed, self.edge, self.tables[3], self.wild, self.tile_at,
            self.turn_at, self.used, self.free, self.stack, self.state, self.best_tile,
            self.best_turn, self.real, self.base_broken, a.seams, budget)
        return bool(self.state[4])

    def board(self) -> list[Placed]:
        return [(int(t), int(r)) for t, r in zip(self.best_tile, self.best_turn)]

    @property
    def nodes(self) -> int:
        return int(self.state[1])


def schedule(depths: int, seams: int, first: float = FIRST_SLIP, share: float = SLIPS
             ) -> np.ndarray:
    """Broken seams allowed so far at each depth: none before `first` of the cells, then
    rising evenly to `share` of the seams at the last cell."""
    most = max(1, round(share * seams))
    gate = int(first * depths)
    allow = np.zeros(depths, dtype=np.int64)
    for d in range(gate, depths):
        allow[d] = int(np.ceil(most * (d - gate + 1) / max(1, depths - gate)))
    return allow


def run(report: Callable, puzzle: EdgePuzzle, start: list[Placed] | None,
        time_limit: float | None, jobs: int, seed: int, argument: str | None) -> dict:
    """The entry runners/best.py calls (in a child process): search until the time limit."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    return optimise(report, Search(search_arrays(puzzle), seed), seed,
                    lambda search: deadline is not None and time.monotonic() >= deadline)


def optimise(report: Callable, search: Search, seed: int,
             stop: Callable[[Search], bool]) -> dict:
    """Search until `stop(search)` (asked between two slices) or a proof: on a board of at most
    EXACT_CELLS cells the budget raised one by one, on a larger one slips and restarts."""
    if search.arrays.rows * search.arrays.cols <= EXACT_CELLS:
        return _exact(report, search, stop)
    return _anytime(report, search, seed, stop)


def _exact(report: Callable, search: Search, stop: Callable[[Search], bool]) -> dict:
    """The budget raised one by one: the first full board is the best there is."""
    for k in range(0, 2 * search.arrays.seams + 1):
        search.allow[:] = k
        search.restart()
        while not search.run(SLICE) and search.state[2] < 0:
            if stop(search):
                return {"optimal": False}
        if search.state[2] >= 0:  # the first full board under the budget
            report(search.board(), {"nodes": search.nodes})
            return {"optimal": True}
    return {"optimal": False}


def _anytime(report: Callable, search: Search, seed: int,
             stop: Callable[[Search], bool]) -> dict:
    """Slips on a depth-dependent budget, a restart in a new order after PATIENCE nodes
    without a better board; each better board polished and sent."""
    seams = search.arrays.seams
    depths = len(search.order)
    first, share = FIRST_SLIP, SLIPS
    search.allow[:] = schedule(depths, seams, first, share)
    search.state[5] = 0 if SINGLE_FIRST else 1
    free = search.order.copy()
    best = -1
    since = 0
    while not stop(search):
        over = search.run(SLICE)
        since += SLICE
        if search.state[3]:
            search.state[3] = 0
            if search.state[2] > best:
                best = polish(search, free, seed + since)
                since = 0
                report(search.board(), {"nodes": search.nodes})
                # only better boards from now on: one break fewer than this one by the end
                search.allow[:] = schedule(depths, seams, FIRST_SLIP, (seams - best - 1) / seams)
                search.state[2] = best
        if over or since >= PATIENCE:
            if best < 0:  # no full board yet: double breaks, and twice the slips, earlier
                search.state[5] = 1
                first, share = first / 2, min(1.0, share * 2)
                search.allow[:] = schedule(depths, seams, first, share)
            search.shuffle()
            since = 0
    return {"optimal": False}


def supported() -> bool:
    """Whether the compiled search was built when puzzlesat was installed."""
    return native.available("edgesearch")


def warm_up() -> bool:
    """Load the compiled search (built at install: nothing is compiled); False."""
    native.kernel("edgesearch")
    return False


def polish(search: Search, free: np.ndarray, seed: int) -> int:
    """A better board improved by local search (swaps and turns that do not lose a seam): its
    score; the search's best board is the polished one. Its random numbers are the kernel's
    own (splitmix64 from `seed`): a seed polishes alike on every build."""
    tiles, turns = search.best_tile.copy(), search.best_turn.copy()
    state = np.array([search.state[2], search.state[2]], dtype=np.int64)
    native.kernel("edgesearch").polish(tiles, turns, free, *search.tables, POLISH, 0.0,
                                       seed % (2**31), state, search.best_tile, search.best_turn)
    return int(state[1])
