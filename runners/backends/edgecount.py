"""A compiled counter for edge-matching puzzles (C): table lookups, distinct grids directly.

The search fills the cells of an `EdgeTables` model in its order; at each cell the colours its
earlier neighbours show make one key, and the candidates are one slice of a table (the frame,
fixed tiles, the complement rule and the `apart` mark are all in the tables). A node is a tile
kind turned one distinct way and the stock is per kind, so each leaf is one distinct grid and
nothing is enumerated into Python. At the last cell the candidates left are counted.

Two searches visit the same nodes (runners/csrc/edgecount.c, the module puzzlesat._edgecount,
built when puzzlesat is installed): `search` scans a cell's candidates past the kinds used up
(1.5 of the 2.5 candidates it reads a node on Owen's 6x6 set 1); where the tiles fit one 64-bit
word (`TileMasks`: at most 64 tiles, no board symmetry counted, no `apart` mark) a count runs
`search_tiles`, which finds the candidates in stock by one AND (about twice the scan's nodes
per CPU second: results/kernels/edgecount.md), and where they fit two (up to 128 tiles: Owen's
9x9 and 10x10, the clue puzzles 2 and 4) `search_tiles2`, the border's tiles in one word and
the interior's in the other.

The search releases the GIL, so cubes run on threads of one process, and runs in slices of a
given number of nodes so a deadline and Ctrl-C are honoured between slices. Nothing is compiled
at run time; where puzzlesat was installed without a C compiler the backend is absent (the
plans, `estimate` and `measured_order`, run in Python and need no kernel). The count of nodes
(tiles placed) is kept for nodes per second.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from types import ModuleType

import numpy as np

from .. import native
from ..models.edge_matching.tables import EdgeTables, candidates_at
from . import STOP, Backend, Cube, Interrupted, Outcome, Slices, Values

SLICE = 1_000_000  # nodes of a search's first slice (then sized by Slices: about 0.1 s each)


def _kernel() -> ModuleType:
    """The compiled searches (runners/csrc/edgecount.c); `KernelMissing` where they were not
    built."""
    return native.kernel("edgecount")


def _open(model: EdgeTables, keyed: np.ndarray, known: np.ndarray, placed: np.ndarray,
          pos: np.ndarray, last: np.ndarray, d: int) -> None:
    """Open depth d: the slice of candidates that fit the neighbours placed before it (once
    a cube, where the scan begins; the scan opens the next depths itself)."""
    k = int(model.base_key[d])
    blocked = 0
    for s in range(int(known[d])):
        m = placed[model.near[d, s]]
        k += int(keyed[d, s, m])
        blocked |= int(model.node_mark[m])
    pos[d] = model.table[k, 0]
    last[d] = model.table[k, 1 if model.apart and blocked else 2]

def _word(bits: int) -> int:
    """Bits 0-63 as a signed 64-bit integer."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


WORD = 64  # bits of a word of tiles


def tile_words(model: EdgeTables, bits: int = WORD) -> tuple[list[int], list[int]] | None:
    """Each tile kind's word (0 or 1) and the bit of its first copy there (a kind's copies side
    by side in one word), or None where the tiles do not fit two words of `bits`. Up to `bits`
    tiles: one word, kinds in order. Else kinds that share a cell of the board go together
    (on a framed board: the corners, the edges, the interior), the largest group first into the
    word with room, so that a cell's candidates lie in one word; where the groups do not fit
    so, kinds in order across the two words (a cell's candidates then in both)."""
    stock = model.stock.astype(np.int64).tolist()
    if sum(stock) <= bits:
        return [0] * len(stock), np.concatenate([[0], np.cumsum(stock)[:-1]]).astype(
            int).tolist() if stock else []
    if sum(stock) > 2 * bits or max(stock) > bits:
        return None
    table = model.table.astype(np.int64)
    key = np.repeat(np.arange(len(table)), table[:, 2] - table[:, 0])
    kind = model.node_type[model.candidates[:len(key)]]
    depth = np.searchsorted(model.base_key, key, "right") - 1
    group = list(range(len(stock)))  # kinds that share a cell: one group (union-find)

    def root(k: int) -> int:
        while group[k] != k:
            group[k] = group[group[k]]
            k = group[k]
        return k

    for d in range(model.depths):
        here = np.unique(kind[depth == d]).tolist()
        for k in here[1:]:
            group[root(k)] = root(here[0])
    members: dict[int, list[int]] = {}
    for k in range(len(stock)):
        members.setdefault(root(k), []).append(k)
    groups = sorted(members.values(), key=lambda g: (-sum(stock[k] for k in g), g[0]))
    word, room = [0] * len(stock), [bits, bits]
    for g in groups:
        size = sum(stock[k] for k in g)
        w = 0 if room[0] >= size else 1 if room[1] >= size else -1
        if w < 0:  # a group larger than a word's room: kinds in order across the two
            word, room = [0] * len(stock), [bits, bits]
            for k in range(len(stock)):
                w = 0 if room[0] >= stock[k] else 1
                if room[w] < stock[k]:
                    return None
                word[k] = w
                room[w] -= stock[k]
            break
        for k in g:
            word[k] = w
        room[w] -= size
    low, used = [0] * len(stock), [0, 0]
    for k in range(len(stock)):  # in a word, kinds in order
        low[k] = used[word[k]]
        used[word[k]] += stock[k]
    return word, low


class TileMasks:
    """The tables of `search_tiles` (`search_tiles2` where the tiles take two words, boards
    of up to 128 tiles: `tile_words`): every tile one bit (a kind's copies side by side, the
    lowest in stock used first, so the kind is in stock while its top copy's bit is set).

    layers[row] = (the top bits of the kinds of a layer of a key's slice, where their
    candidates begin in `cands` sorted by kind, the row of the key's next layer or -1, the
    layer's word); row k is key k's first layer. A key's candidates are cut into layers by
    word, and a kind with a second candidate under one key (a tile showing the same colour on
    three sides) has it in a later layer. cands[i] = (node, the bits of its kind's copies in
    its word, what the node adds to the key of the depth after its own). older[d, s] (s below
    older_count[d]) are depth d's earlier neighbours but the depth just before it, and
    older_keyed[d, s, n] what node n adds there to d's key. Measured (CPU seconds, medians of 5
    runs alternating at load 2.6-3.4): Owen's 6x6 set 1 row by row (69.3 M nodes) 1.19 s
    against 1.86 s for the scan (1.57x), and 0.90 s against 1.12 s (1.24x more) with
    the key summed once a depth; the first 200 M nodes of the Eternity II clue 1 3.03 s against
    4.40 s (1.45x), then 2.57 s against 2.93 s (1.14x)."""

    def __init__(self, model: EdgeTables, bits: int = WORD) -> None:
        placing = tile_words(model, bits)
        if placing is None:
            raise ValueError("the tiles do not fit two words")
        stock = model.stock.astype(np.int64).tolist()
        self.word, self.low = placing
        self.words = 1 + max(self.word, default=0)
        # kind -> the bits of its copies in its word
        self.copies = [((1 << c) - 1) << b for b, c in zip(self.low, stock)]
        copies = np.array([_word(c) for c in self.copies], dtype=np.int64)
        top = np.array([_word(1 << (b + c - 1)) if c else 0 for b, c in zip(self.low, stock)],
                       dtype=np.int64)
        keyed = search_arrays(model)[1]
        depths = model.depths
        table = model.table.astype(np.int64)  # keys' slices lie end to end in `candidates`
        key = np.repeat(np.arange(len(table)), table[:, 2] - table[:, 0])
        node = model.candidates[:len(key)].astype(np.int64)
        kind = model.node_type[node]
        kept = model.stock[kind] > 0
        key, node, kind = key[kept], node[kept], kind[kept]
        by_kind = np.lexsort((kind, key))  # a kind's second node under a key: layer 1 ...
        fresh = np.ones(len(key), dtype=bool)
        fresh[1:] = (key[by_kind][1:] != key[by_kind][:-1]) | \
            (kind[by_kind][1:] != kind[by_kind][:-1])
        layer = np.empty(len(key), dtype=np.int64)
        layer[by_kind] = np.arange(len(key)) - np.maximum.accumulate(
            np.where(fresh, np.arange(len(key)), 0))
        word = np.array(self.word, dtype=np.int64)[kind]
        order = np.lexsort((kind, word, layer, key))  # (in a word, kinds in bit order)
        key, node, kind, layer, word = key[order], node[order], kind[order], layer[order], \
            word[order]
        depth = np.searchsorted(model.base_key, key, "right") - 1
        after = np.full(depths + 1, -1)  # depth -> the side its next depth sees it on, or -1
        for d in range(depths - 1):
            sides = np.nonzero(model.near[d + 1] == d)[0]
            after[d] = sides[0] if len(sides) else -1
        side = after[depth]
        adds = np.where(side >= 0, keyed[np.minimum(depth + 1, depths - 1),
                                         np.maximum(side, 0), node], 0)
        self.cands = np.stack([node, copies[kind], adds], axis=1).astype(np.int64)
        rows = np.zeros((len(table), 4), dtype=np.int64)
        rows[:, 2] = -1
        if len(key):
            begins = np.ones(len(key), dtype=bool)
            begins[1:] = (key[1:] != key[:-1]) | (layer[1:] != layer[:-1]) | \
                (word[1:] != word[:-1])
            first = np.nonzero(begins)[0]
            masks = np.bitwise_or.reduceat(top[kind], first)
            owner = key[first]  # each layer's key; the key's first layer is row `key`
            primary = np.ones(len(first), dtype=bool)
            primary[1:] = owner[1:] != owner[:-1]
            row = np.where(primary, owner, len(table) + np.cumsum(~primary) - 1)
            following = np.full(len(first), -1, dtype=np.int64)
            following[:-1] = np.where(owner[1:] == owner[:-1], row[1:], -1)
            rows = np.concatenate([rows, np.zeros((int((~primary).sum()), 4), dtype=np.int64)])
            rows[row] = np.stack([masks, first, following, word[first]], axis=1)
        self.layers = rows
        self.older = np.zeros(model.near.shape, dtype=np.int64)
        self.older_keyed = np.zeros_like(keyed)
        self.older_count = np.zeros(depths + 1, dtype=np.int64)  # (the depth after the last)
        for d in range(depths):
            for s in np.nonzero(model.near[d] >= 0)[0].tolist():
                if model.near[d, s] != d - 1:
                    j = self.older_count[d]
                    self.older[d, j], self.older_keyed[d, j] = model.near[d, s], keyed[d, s]
                    self.older_count[d] += 1
        self.base_key = np.append(model.base_key, 0)
        self.kernel = "search_tiles" if self.words == 1 else "search_tiles2"

    @staticmethod
    def fit(model: EdgeTables, bits: int = WORD) -> bool:
        """Whether the tile search runs the model: its tiles in two words of `bits` at most
        (`tile_words`), one tile a placement (no board symmetry counted), no `apart` mark."""
        return (not model.apart and bool((model.mult == 1).all())
                and tile_words(model, bits) is not None)

    def in_stock(self, model: EdgeTables, stock: np.ndarray) -> list[int]:
        """The words of the tiles left in `stock` (kind -> copies)."""
        words = [0] * self.words
        for t, left in enumerate(stock.tolist()):
            used = int(model.stock[t]) - left  # its lowest copies
            words[self.word[t]] |= self.copies[t] >> (self.low[t] + used) << (self.low[t] + used)
        return [_word(w) for w in words]

    def start(self, frame: np.ndarray, placed: np.ndarray, stock: list[int], key: int,
              d: int) -> None:
        """Depth d's row of `frame`, the search's first: the key's first layer, the stock."""
        kinds, first, then, word = self.layers[key].tolist()
        todo = kinds & stock[word]
        part = self.part(placed, d + 1)
        if self.words == 1:
            frame[d] = (todo, stock[0], kinds, first, then, part)
        else:
            frame[d] = (todo, *stock, kinds, first, then, part, word)

    def part(self, placed: np.ndarray, d: int) -> int:
        """The part of depth d's key the depths before d-1 fix."""
        return int(self.base_key[d]) + sum(
            int(self.older_keyed[d, s, placed[self.older[d, s]]])
            for s in range(self.older_count[d]))

    def run(self, search: Search, budget: int, first: bool = False) -> bool:
        """The tile search on the search's saved stack; whether it is over. With `first`, it
        stops after the first last cell with grids (placed then holds one)."""
        return bool(getattr(_kernel(), self.kernel)(
            self.older, self.older_keyed, self.base_key, self.layers, self.cands,
            search.placed, search.frame, search.state, search.base, budget, self.older_count,
            first))


def tile_masks(model: EdgeTables) -> TileMasks | None:
    """The model's `TileMasks` (built once a model: kept on it), None where they do not fit."""
    if "_tile_masks" not in model.__dict__:
        model.__dict__["_tile_masks"] = TileMasks(model) if TileMasks.fit(model) else None
    return model.__dict__["_tile_masks"]


def search_arrays(model: EdgeTables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the scan reads beside the model, built once a model and kept on it (a count
    starts a search per cube: building them per cube took 15 of the diamond blocks' 45 ms):
    each candidate's kind, `keyed_faces`, and the neighbours filled before each depth."""
    arrays = model.__dict__.get("_search_arrays")
    if arrays is None:
        arrays = model.__dict__["_search_arrays"] = (
            model.node_type[model.candidates], keyed_faces(model),
            (model.near >= 0).sum(axis=1).astype(np.int64))
    return arrays


def keyed_faces(model: EdgeTables) -> np.ndarray:
    """depth x neighbour x node -> what that node, placed as the depth's neighbour, adds to the
    depth's key (the colour it shows there times the key's place value): one lookup a
    neighbour in the search."""
    keyed = np.zeros((*model.near.shape, len(model.face)), dtype=np.int64)
    for d, s in zip(*np.nonzero(model.near >= 0)):
        keyed[d, s] = model.face[:, model.near_side[d, s]].astype(np.int64) * model.weight[d, s]
    return keyed


class Search:
    """One cube's search, resumable: run it slice by slice. With `tiles` (the default) the
    search runs `search_tiles` where its tables fit (`TileMasks.fit`), else the scan `search`:
    the same nodes, in another order within a cell's candidates; `record` (a grid at a time,
    in the scan's order) needs tiles=False."""

    def __init__(self, model: EdgeTables, cube: Cube, tiles: bool | TileMasks = True) -> None:
        self.model = model
        self.masks = tiles if isinstance(tiles, TileMasks) else tile_masks(model) if tiles \
            else None
        depths = model.depths
        self.placed = np.zeros(depths, dtype=np.int64)
        self.pos = np.zeros(depths, dtype=np.int64)
        self.last = np.zeros(depths, dtype=np.int64)
        self.stock = model.stock.copy()
        self.state = np.zeros(3, dtype=np.int64)
        self.cand_type, self.keyed, self.known = search_arrays(model)
        self.base = len(cube)
        self.done = False
        if not model.feasible or depths == 0:
            self.done = True
            self.state[1] = int(model.feasible and depths == 0)
            return
        for d, n in enumerate(cube):  # the cube's nodes, checked as the search would
            if n not in candidates_at(model, self.placed, self.stock, d):
                self.done = True
                return
            self.stock[model.node_type[n]] -= model.mult[d]
            self.placed[d] = n
        if self.base == depths:
            self.state[1], self.state[2], self.done = 1, 0, True
            return
        self.state[0] = self.base
        if self.masks is not None:
            self.frame = np.zeros((depths, 6 if self.masks.words == 1 else 8), dtype=np.int64)
            d = self.base
            key = int(model.base_key[d]) + sum(
                int(self.keyed[d, s, self.placed[model.near[d, s]]]) for s in range(self.known[d]))
            self.masks.start(self.frame, self.placed, self.masks.in_stock(model, self.stock),
                             key, d)
            return
        _open(model, self.keyed, self.known, self.placed, self.pos, self.last, self.base)

    @property
    def found(self) -> int:
        return int(self.state[1])

    @property
    def nodes(self) -> int:
        return int(self.state[2])

    def run(self, budget: int, record: bool = False, first: bool = False) -> bool:
        """Search on for at most `budget` nodes; whether the cube is finished. `record`: stop
        after each grid, in the scan's order (tiles=False); `first`: stop after the first
        grids found (the tile search counts a last cell's grids at once), placed holding one
        of them (`found` then says the search found some)."""
        if self.done:
            return True
        m = self.model
        if self.masks is not None:
            if record:
                raise ValueError("a search recording grids runs with tiles=False")
            self.done = self.masks.run(self, budget, first)
            return self.done
        self.done = bool(_kernel().search(
            m.node_mark, m.near, self.keyed, m.base_key, m.mult, m.table, m.candidates, m.apart,
            self.stock, self.placed, self.pos, self.last, self.state, self.base, budget,
            record or first, self.cand_type, self.known))
        return self.done


def warm_up() -> float:
    """Load the compiled searches (`KernelMissing` where they were not built); the seconds this
    took. Nothing is compiled at run time: the module is built when puzzlesat is installed."""
    start = time.perf_counter()
    _kernel()
    return time.perf_counter() - start


class EdgecountBackend(Backend):
    """Counts edge-matching grids by a compiled table-driven search (distinct grids directly)."""

    name = "edgecount"
    takes = "tables"
    about = "compiled edge-matching counter: table lookups by the colours around a cell (C)"
    cubes_per_job = 64  # uneven subtrees: many cubes keep both threads busy to the end
    stops_itself = True
    releases_gil = True
    solves_in_cubes = True
    needs = "a C compiler when puzzlesat is installed (then reinstall puzzlesat)"

    @classmethod
    def supported(cls) -> bool:
        return native.available("edgecount")

    def count_cube(self, state: EdgeTables, cube: Cube, deadline: float | None
                   ) -> tuple[Values, bool]:
        if deadline is not None and time.time() >= deadline or STOP.is_set():
            return (0, 0), False  # not begun
        search = Search(state, cube)
        slices = Slices(SLICE)
        try:
            while not search.run(slices.next()):
                if deadline is not None and time.time() >= deadline or STOP.is_set():
                    return (search.found, search.nodes), False
        except KeyboardInterrupt:
            raise Interrupted((search.found, search.nodes)) from None
        return (search.found, search.nodes), True

    def solve_cube(self, state: EdgeTables, cube: Cube, deadline: float | None
                   ) -> tuple[Values, bool]:
        """(1, nodes, a node per depth) once the cube's search meets a grid (the tile search
        counts the last cell's grids at once and holds one), else (0, nodes)."""
        if deadline is not None and time.time() >= deadline or STOP.is_set():
            return (0, 0), False  # not begun
        search = Search(state, cube)
        slices = Slices(SLICE)
        try:
            while not search.found:
                over = search.run(slices.next(), first=True)
                if search.found:
                    break
                if over:
                    return (0, search.nodes), True
                if deadline is not None and time.time() >= deadline or STOP.is_set():
                    return (0, search.nodes), False
        except KeyboardInterrupt:
            raise Interrupted((0, search.nodes)) from None
        return (1, search.nodes, *(int(n) for n in search.placed)), True

    def enumerate(self, state: EdgeTables, cube: Cube, limit: int | None
                  ) -> Iterator[list[int]]:
        """Grids as a node per depth (decode with tables' `grid_of`)."""
        search = Search(state, cube, tiles=False)
        if search.done:
            if search.found:
                yield list(cube)
            return
        given = 0
        while limit is None or given < limit:
            before = search.found
            over = search.run(SLICE, record=True)
            if search.found > before:
                yield [int(n) for n in search.placed]
                given += 1
            if over:
                return

    def solve(self, model: EdgeTables, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        search = Search(model, (), tiles=False)
        if search.done:
            return Outcome([] if search.found else None, time.perf_counter() - start)
        slices = Slices(SLICE)
        while True:
            before = search.found
            over = search.run(slices.next(), record=True)
            if search.found > before:
                return Outcome([int(n) for n in search.placed], time.perf_counter() - start)
            if over:
                return Outcome(None, time.perf_counter() - start)
            if deadline is not None and time.time() >= deadline:
                return Outcome(None, time.perf_counter() - start, complete=False)


ORDER_PATHS = 1000  # random paths per fill order when the order is chosen by measurement
# orders compared on a framed board: the corners first and the frame first weigh the corner
# orbits; row by row pins a tile alone of its kind on one cell of each orbit instead
CHOICES = ("corners", "frame", "rows")


@functools.lru_cache(maxsize=64)  # a fixed seed: the same answer for the same puzzle; kept
def measured_order(puzzle) -> str:  # for the process's next count of it (seconds of paths)
    """The fill order of the smaller search by Knuth's estimate (ORDER_PATHS random paths,
    a fixed seed: the same choice every run) on a board with a frame or a border colour;
    'rows' elsewhere. Each order is estimated as the count runs it: one corner layout per orbit
    of the board's turns where its first cells are the corners, else with a tile alone of its
    kind pinned (`pinned`), else every grid. Measured (100,000 paths): Owen's 7x7 set 1 takes
    about 1.2e11 nodes corners first with the orbits and 6.7e10 row by row with its first
    corner tile pinned (2.5e11 without); counted, the 6x6 set 1 takes 25.8 M nodes corners
    first with the orbits and 14.5 M row by row pinned (69.3 M without), the set 2 19.2 M
    and 11.0 M (44.0 M); the Eternity II clue puzzle 1 about 2e11 corners first and 1e10
    frame first."""
    from ..models.edge_matching import board
    from ..models.edge_matching.tables import build_tables, pinned

    if puzzle.frame is None and puzzle.border is None:
        return "rows"
    # and the grid's own choice (triangles: ring by ring from the border in)
    choices = tuple(dict.fromkeys((*CHOICES, board(puzzle).grid.bordered_order)))
    parts = pinned(puzzle)
    sizes = {}
    for order in choices:
        model = build_tables(puzzle, order=order)
        if model.prefix or not parts:
            sizes[order] = estimate(model, (), ORDER_PATHS, seed=1)[1] / (
                len(model.group) if model.prefix else 1)
        else:
            sizes[order] = sum(estimate(build_tables(part, order=order), (), ORDER_PATHS,
                                        seed=1)[1] for part, _, _ in parts)
    return min(choices, key=lambda order: sizes[order])


PIN_PATHS = 4000  # random paths per tile when the tile pinned is chosen by measurement
# The measurement (PIN_PATHS paths per choice, in Python: about 10 CPU s on a 4x4 board, more on
# larger) pays only on a large search: the choices differ by 2x at most (Owen's 7x7 set 1:
# 4.1e10 nodes against 6.1e10-8.2e10), and a search of 1e9 nodes takes about a minute at
# 15-25 M nodes a second. Below that (by a first look of PIN_LOOK_PATHS paths) the first choice
# is pinned unmeasured: the 4x4 Diamond Blocks, 390,063 nodes, took 10.3 CPU s, now 0.1 s.
PINS_PAY_FROM = 1e9
PIN_LOOK_PATHS = 250


def measured_pins(puzzle, order: str) -> list:
    """`pinned`'s puzzles (those of the process's last count of the puzzle, if any: the
    measurement, 10 CPU s on the 4x4 Diamond Blocks against 0.1 s for its count, has a fixed
    seed and gives them again)."""
    return list(_measured_pins(puzzle, order))


@functools.lru_cache(maxsize=64)
def _measured_pins(puzzle, order: str) -> list:
    """`pinned`'s puzzles for the tile (of those `pin_choices` offers) whose pinned searches in
    `order` are the smallest by Knuth's estimate (PIN_PATHS random paths, a fixed seed).
    Measured (30,000 paths): Owen's 7x7 set 1 row by row takes about 4.1e10 nodes with its
    third corner tile on the top left, 6.1e10-8.2e10 with the first."""
    from ..models.edge_matching.tables import build_tables, pin_choices

    choices = pin_choices(puzzle)
    if len(choices) < 2:
        return choices[0] if choices else []

    def size(parts: list, paths: int = PIN_PATHS) -> float:
        return sum(estimate(build_tables(part, order=order), (), paths, seed=1)[1]
                   for part, _, _ in parts)

    if size(choices[0], PIN_LOOK_PATHS) < PINS_PAY_FROM:  # a small search: not worth measuring
        return choices[0]
    return min(choices, key=size)


# A solve in cubes (`solve_in_cubes`) splits its search into cubes of about this many nodes
# by Knuth's estimate (SOLVE_PATHS paths): about 5 s of a core at 60 M nodes a second, as a
# cube cut short by a session's end is searched again. Owen's 9x9 set 1 pinned (1.7e13 nodes
# estimated): 58,071 cubes, its first 7 cells; their sizes are uneven (60 sampled, 300 paths
# each: median 3e7 nodes, 90% below 1.8e9, the largest 9.1e10, some 25 minutes of a core).
SOLVE_CUBE_NODES = 3e8
SOLVE_PATHS = 300
MOST_SOLVE_CUBES = 1 << 17


def cubes_to_solve(puzzle, order: str) -> int:
    """How many cubes a solve of the puzzle in `order` (with the tile pinned its count pins)
    wants: its estimated nodes / SOLVE_CUBE_NODES, at least 1, at most MOST_SOLVE_CUBES."""
    from ..models.edge_matching.tables import build_tables

    parts = measured_pins(puzzle, order) or [(puzzle, 1, "")]
    nodes = sum(estimate(build_tables(part, order=order), (), SOLVE_PATHS, seed=1)[1]
                for part, _, _ in parts)
    return int(min(MOST_SOLVE_CUBES, max(1, nodes // SOLVE_CUBE_NODES)))


def estimate(model: EdgeTables, cube: Cube = (), paths: int = 1000, seed: int = 0
             ) -> tuple[float, float, float, float]:
    """Knuth's random-path estimate of a cube's search: (grids, nodes, and the standard error of
    each mean) over `paths` random paths from the cube's last depth down."""
    rng = np.random.default_rng(seed)
    start = Search(model, cube, tiles=False)
    if start.done:
        return float(start.found), 0.0, 0.0, 0.0
    depths = model.depths
    grids, nodes = np.zeros(paths), np.zeros(paths)
    for p in range(paths):
        placed, stock = start.placed.copy(), start.stock.copy()
        weight, total = 1.0, 0.0
        for d in range(len(cube), depths):
            here = candidates_at(model, placed, stock, d)
            if not here:
                weight = 0.0
                break
            weight *= len(here)
            total += weight
            n = here[int(rng.integers(len(here)))]
            placed[d] = n
            stock[model.node_type[n]] -= model.mult[d]
        grids[p], nodes[p] = weight, total
    spread = np.sqrt(paths) if paths > 1 else 1.0
    return (float(grids.mean()), float(nodes.mean()), float(grids.std() / spread),
            float(nodes.std() / spread))
