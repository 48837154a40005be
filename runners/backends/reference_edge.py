"""Reference solver for edge-matching puzzles: the compatibility graph that Daniel Downes
describes for his BlockProblemGame (github.com/danieldownes/BlockProblemGame, docs/solutions.html).

Written independently of the encodings: it shares only the puzzle's data classes, and computes
rotations, the matching test and identical tiles again here. One node per (tile type, distinct
rotation); a horizontal edge A->B when A's right edge matches B's left edge, a vertical edge
A->B when A's bottom edge matches B's top edge (node sets are bitmasks, edges are masks of
successors). Cells are filled in reading order, trying only the nodes adjacent in the graph to
the placed left and top neighbours, with forward checking of the right and bottom neighbours.

Identical tiles (one is a rotation of the other, with the same mark) form one tile type with a
count, so a tile identical to one already tried at a cell is never tried again there, and each
leaf of the search is a distinct grid. What is counted, `grids`: distinct grids, where a grid
says which tile type, turned so its edges read which way, lies on each cell; identical tiles are
interchangeable, and two rotations of one tile that show the same edges (a symmetric tile) are
the same grid.

The `apart` rule (no two orthogonally adjacent tiles both carry the mark): when the marked tiles
are exactly half of a board at least 2 x 2 with an even number of cells, every layout is a
checkerboard (each domino of a tiling of the board holds one marked tile, and neighbouring
dominoes force alternation), so the two parities are searched separately with each cell's
domain pre-filtered to marked or unmarked nodes. Otherwise adjacency is checked directly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..models.edge_matching import Edge, EdgePuzzle, Tile
from ..models.limits import check_placements
from . import Backend, Outcome

Placement = tuple[int, int]  # (tile index, clockwise quarter turns) on one cell
PARITIES = ("even", "odd")  # marks on cells with (row + col) even, or odd


def _turn(edges: tuple, quarter_turns: int) -> tuple:
    """Edges (top, right, bottom, left) after turning clockwise: the top moves to the right."""
    q = quarter_turns % 4
    return tuple(edges[(side - q) % 4] for side in range(4))


def _fit(a: Edge, b: Edge, rule: str) -> bool:
    """Whether two touching edges match: equal, or the same picture with different halves."""
    if rule == "equal":
        return a == b
    if rule == "complement":
        return a[0] == b[0] and a[1] != b[1]
    raise ValueError(f"unknown matching rule {rule!r}")


@dataclass
class Graph:
    """The compatibility graph, the stock of tile types, and each cell's domain (node masks)."""

    rows: int
    cols: int
    node_type: list[int]
    node_edges: list[tuple[Edge, Edge, Edge, Edge]]
    type_nodes: list[int]  # the nodes of each tile type, as a mask
    type_tiles: list[list[int]]  # the physical tiles of each type (those not fixed)
    stock: list[int]  # how many tiles of each type the cells that are not fixed may take
    right_of: list[int]  # node -> mask of nodes that may lie to its right
    below_of: list[int]  # node -> mask of nodes that may lie below it
    domain: list[int]  # cell -> mask of nodes allowed there (frame, fixed tiles)
    from_stock: list[bool]  # cell -> False where a fixed tile lies (taken from stock up front)
    fixed_tile: dict[int, int]  # cell -> the fixed tile's index
    marked: list[bool]  # node -> carries the `apart` mark
    marked_tiles: int
    apart: bool
    feasible: bool  # False when the tiles cannot fill the board at all

    @property
    def all_nodes(self) -> int:
        return (1 << len(self.node_type)) - 1

    @property
    def checkerboard(self) -> bool:
        """Whether every layout obeying `apart` puts the marks on one colour of a checkerboard."""
        cells = self.rows * self.cols
        return (
            self.apart and self.rows >= 2 and self.cols >= 2 and cells % 2 == 0
            and self.marked_tiles == cells // 2
        )


def build(puzzle: EdgePuzzle) -> Graph:
    """The tile types, the compatibility graph over (type, rotation) nodes, and the domains."""
    rows, cols, rule = puzzle.rows, puzzle.cols, puzzle.rule
    tiles: list[Tile] = list(puzzle.tiles)
    # tile types: identical tiles are rotations of each other with the same mark
    type_of_key: dict[tuple, int] = {}
    tile_type: list[int] = []
    for tile in tiles:
        key = (min(_turn(tile.edges, q) for q in range(4)), tile.mark)
        tile_type.append(type_of_key.setdefault(key, len(type_of_key)))
    types = len(type_of_key)
    # every (type, rotation) node on every cell: refused before the work, not after it
    check_placements(4 * types * rows * cols, f"{len(tiles):,} tiles on {rows}x{cols}", "tiles")
    type_tiles: list[list[int]] = [[] for _ in range(types)]
    for index, t in enumerate(tile_type):
        type_tiles[t].append(index)
    type_mark = [tiles[members[0]].mark for members in type_tiles]

    node_type: list[int] = []
    node_edges: list[tuple] = []
    node_of: dict[tuple[int, tuple], int] = {}
    type_nodes = [0] * types
    for t, members in enumerate(type_tiles):
        first = tiles[members[0]].edges
        for q in range(4):
            edges = _turn(first, q)
            if (t, edges) not in node_of:
                node_of[(t, edges)] = len(node_type)
                type_nodes[t] |= 1 << len(node_type)
                node_type.append(t)
                node_edges.append(edges)
    nodes = len(node_type)

    # the graph's edges, through masks of nodes by the edge they show on one side (the masks
    # for different edges are disjoint, so their sum is their union)
    with_left: dict[Edge, int] = {}
    with_top: dict[Edge, int] = {}
    for n, (top, _, _, left) in enumerate(node_edges):
        with_left[left] = with_left.get(left, 0) | 1 << n
        with_top[top] = with_top.get(top, 0) | 1 << n
    right_of = []
    below_of = []
    for _, right, bottom, _ in node_edges:
        right_of.append(sum(m for e, m in with_left.items() if _fit(right, e, rule)))
        below_of.append(sum(m for e, m in with_top.items() if _fit(bottom, e, rule)))

    # domains: the frame edge faces the outer border, every border side shows it, nowhere else;
    # the border edge shows on every border side (and may show inside)
    all_nodes = (1 << nodes) - 1
    domain = []
    for r in range(rows):
        for c in range(cols):
            if puzzle.frame is None and puzzle.border is None:
                domain.append(all_nodes)
                continue
            outside = (r == 0, c == cols - 1, r == rows - 1, c == 0)
            mask = 0
            for n, edges in enumerate(node_edges):
                framed = puzzle.frame is None or all(
                    (edges[s] == puzzle.frame) == outside[s] for s in range(4))
                bordered = puzzle.border is None or all(
                    edges[s] == puzzle.border for s in range(4) if outside[s])
                if framed and bordered:
                    mask |= 1 << n
            domain.append(mask)

    stock = [len(members) for members in type_tiles]
    from_stock = [True] * (rows * cols)
    fixed_tile: dict[int, int] = {}
    feasible = len(tiles) == rows * cols
    for fixed in puzzle.fixed:
        if not (0 <= fixed.tile < len(tiles) and 0 <= fixed.row < rows and 0 <= fixed.col < cols):
            raise ValueError(f"fixed tile {fixed} lies outside the puzzle")
        cell = fixed.row * cols + fixed.col
        t = tile_type[fixed.tile]
        node = node_of[(t, _turn(tiles[fixed.tile].edges, fixed.rotation))]
        if cell in fixed_tile or fixed.tile in fixed_tile.values():
            feasible = False  # two tiles on one cell, or one tile on two cells
        domain[cell] &= 1 << node
        from_stock[cell] = False
        fixed_tile[cell] = fixed.tile
        stock[t] -= 1
        if fixed.tile in type_tiles[t]:
            type_tiles[t].remove(fixed.tile)
    if min(stock, default=0) < 0:
        feasible = False

    marks = puzzle.apart is not None
    marked = [marks and type_mark[t] == puzzle.apart for t in node_type]
    marked_tiles = sum(1 for tile in tiles if marks and tile.mark == puzzle.apart)
    return Graph(
        rows, cols, node_type, node_edges, type_nodes, type_tiles, stock, right_of, below_of,
        domain, from_stock, fixed_tile, marked, marked_tiles, puzzle.apart is not None, feasible,
    )


def parity_domain(graph: Graph, parity: int) -> list[int]:
    """The domains with marked nodes only on cells whose (row + col) % 2 == parity."""
    marked = sum(1 << n for n, m in enumerate(graph.marked) if m)
    unmarked = graph.all_nodes & ~marked
    return [
        mask & (marked if (i // graph.cols + i % graph.cols) % 2 == parity else unmarked)
        for i, mask in enumerate(graph.domain)
    ]


# ---------------------------------------------------------------- the search


class _Stop(Exception):
    """Raised by a `found` callback to end the search early."""


def _searcher(
    graph: Graph,
    domain: list[int],
    found: Callable[[list[int]], None] | None,
    deadline: float | None,
) -> Callable[[int], int]:
    """A function counting the grids whose first cell takes a node in `first` (a mask).

    With `found`, every grid (node per cell) is passed to it as well. Raises TimeoutError
    once `deadline` (time.perf_counter()) has passed.
    """
    rows, cols = graph.rows, graph.cols
    cells = rows * cols
    last = cells - 1
    right_of, below_of = graph.right_of, graph.below_of
    node_type, type_nodes = graph.node_type, graph.type_nodes
    from_stock = graph.from_stock
    stock = list(graph.stock)
    is_marked = graph.marked
    unmarked = graph.all_nodes & ~sum(1 << n for n, m in enumerate(is_marked) if m)
    check_apart = graph.apart and domain is graph.domain  # not pre-filtered by parity
    grid = [-1] * cells
    has_left = [i % cols > 0 for i in range(cells)]
    has_below = [i + cols < cells for i in range(cells)]
    ticks = 0

    def walk(i: int, avail: int, cand: int) -> int:
        nonlocal ticks
        ticks += 1
        if deadline is not None and not ticks & 1023 and time.perf_counter() > deadline:
            raise TimeoutError
        if i == last:
            if found is None:
                return cand.bit_count()
            total = 0
            while cand:
                low = cand & -cand
                cand ^= low
                grid[i] = low.bit_length() - 1
                found(grid)
                total += 1
            return total
        total = 0
        j = i + 1
        take = from_stock[i]
        next_domain = domain[j]
        if from_stock[j]:
            next_domain &= avail
        next_left = has_left[j]
        above_is_this = j - cols == i  # a board one column wide
        above_next = grid[j - cols] if j >= cols and not above_is_this else -1
        if above_next >= 0:
            next_domain &= below_of[above_next]
            if check_apart and is_marked[above_next]:
                next_domain &= unmarked
        below = i + cols if has_below[i] else -1
        while cand:
            low = cand & -cand
            cand ^= low
            n = low.bit_length() - 1
            new_avail = avail
            after = next_domain
            if take:
                t = node_type[n]
                left = stock[t] - 1
                stock[t] = left
                if not left:
                    new_avail = avail & ~type_nodes[t]
                    if from_stock[j]:
                        after &= new_avail
            # forward checking: the next cell (the right neighbour, or the next row's first)
            if next_left:
                after &= right_of[n]
                if check_apart and is_marked[n]:
                    after &= unmarked
            elif above_is_this:
                after &= below_of[n]
                if check_apart and is_marked[n]:
                    after &= unmarked
            if after:
                # and the bottom neighbour
                if below >= 0:
                    under = domain[below] & below_of[n]
                    if from_stock[below]:
                        under &= new_avail
                    if check_apart and is_marked[n]:
                        under &= unmarked
                else:
                    under = 1
                if under:
                    grid[i] = n
                    total += walk(j, new_avail, after)
            if take:
                stock[t] += 1
        return total

    def start(first: int) -> int:
        if not graph.feasible:
            return 0
        avail = graph.all_nodes
        for t, left in enumerate(stock):
            if not left:
                avail &= ~type_nodes[t]
        cand = domain[0] & first
        if from_stock[0]:
            cand &= avail
        return walk(0, avail, cand)

    return start


def _domains(graph: Graph) -> list[list[int]]:
    """The searches to run: one per checkerboard parity, or just the one."""
    if graph.checkerboard:
        return [parity_domain(graph, p) for p in (0, 1)]
    return [graph.domain]


def _placements(graph: Graph, puzzle: EdgePuzzle, grid: list[int]) -> list[Placement]:
    """Nodes per cell -> (tile index, rotation) per cell, giving each type's tiles in turn."""
    queues = [list(members) for members in graph.type_tiles]
    out = []
    for cell, n in enumerate(grid):
        tile = graph.fixed_tile.get(cell)
        if tile is None:
            tile = queues[graph.node_type[n]].pop(0)
        edges = puzzle.tiles[tile].edges
        rotation = next(q for q in range(4) if _turn(edges, q) == graph.node_edges[n])
        out.append((tile, rotation))
    return out


def grids(
    puzzle: EdgePuzzle, limit: int | None = None, time_limit: float | None = None
) -> Iterator[list[Placement]]:
    """Distinct grids as (tile index, rotation) per cell in reading order, up to `limit`.

    The search runs first (collecting at most `limit` grids), then they are yielded.
    """
    found = model(puzzle)
    for grid in ReferenceEdge().enumerate(found, (), limit, time_limit):
        yield placements_of(found, grid)


def solve(puzzle: EdgePuzzle, time_limit: float | None = None) -> list[Placement] | None:
    """One solution as (tile index, rotation) per cell in reading order, or None if none.

    Raises TimeoutError when `time_limit` seconds pass first.
    """
    for grid in grids(puzzle, limit=1, time_limit=time_limit):
        return grid
    return None


def parity_counts(puzzle: EdgePuzzle) -> dict[str, int]:
    """Distinct grids with the marks on cells of even (row + col), and on odd cells.

    Only for `apart` puzzles whose marked tiles must form a checkerboard (ValueError otherwise).
    """
    graph = build(puzzle)
    if not graph.checkerboard:
        raise ValueError(
            f"{puzzle.name}: the marked tiles do not force a checkerboard layout"
        )
    return {
        name: _searcher(graph, parity_domain(graph, p), None, None)(graph.all_nodes)
        for p, name in enumerate(PARITIES)
    }


# ---------------------------------------------------------------- the backend


@dataclass
class ReferenceModel:
    """What the reference solver works on: the graph, the searches (one per checkerboard parity,
    or one), and with `classes` the puzzle, to count grids that are their class's least turn."""

    puzzle: EdgePuzzle
    graph: Graph
    domains: list[list[int]]
    classes: bool


def model(puzzle: EdgePuzzle, classes: bool = False, parity: int | None = None) -> ReferenceModel:
    graph = build(puzzle)
    if parity is not None:
        if not graph.checkerboard:
            raise ValueError(f"{puzzle.name}: the marked tiles do not force a checkerboard layout")
        domains = [parity_domain(graph, parity)]
    else:
        domains = _domains(graph)
    return ReferenceModel(puzzle, graph, domains, classes)


def cubes(model: ReferenceModel) -> list[tuple[int, int]]:
    """One branch per search and node on the first cell."""
    graph = model.graph
    return [
        (which, n)
        for which, domain in enumerate(model.domains)
        for n in range(len(graph.node_type))
        if graph.feasible and domain[0] >> n & 1
    ]


class ReferenceEdge(Backend):
    """The compatibility-graph backtracker (after Daniel Downes's BlockProblemGame); classes
    up to turns by least images."""

    name = "reference:edge-matching"
    takes = "reference"
    about = "independent compatibility-graph backtracker; classes by least turned image"

    def solve(self, model: ReferenceModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        try:
            for grid in self.enumerate(model, (), 1, time_limit):
                return Outcome(grid, time.perf_counter() - start)
        except TimeoutError:
            return Outcome(None, time.perf_counter() - start, complete=False)
        return Outcome(None, time.perf_counter() - start)

    def enumerate(self, state, cube, limit, time_limit: float | None = None):
        """Grids as node per cell (decode with `placements_of`)."""
        model: ReferenceModel = state
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        found: list[list[int]] = []

        def keep(grid: list[int]) -> None:
            found.append(list(grid))
            if limit is not None and len(found) >= limit:
                raise _Stop

        searches = [cube] if cube else [(w, None) for w in range(len(model.domains))]
        try:
            for which, node in searches:
                first = model.graph.all_nodes if node is None else 1 << node
                _searcher(model.graph, model.domains[which], keep, deadline)(first)
        except _Stop:
            pass
        yield from found

    def count_cube(self, state, cube, deadline):
        model: ReferenceModel = state
        which, node = cube
        left = None if deadline is None else deadline - time.time()
        if left is not None and left <= 0:
            return ((0, 0) if model.classes else (0,)), False
        stop = None if left is None else time.perf_counter() + left
        counted = [0, 0]
        keep = None
        if model.classes:
            graph = model.graph

            def keep(grid: list[int]) -> None:
                shown = tuple((graph.node_type[n], graph.node_edges[n]) for n in grid)
                counted[0] += 1
                counted[1] += all(_turned(graph, shown, k) >= shown for k in _turns(graph))
        try:
            n = _searcher(model.graph, model.domains[which], keep, stop)(1 << node)
        except TimeoutError:
            return (tuple(counted) if model.classes else (counted[0],)), False
        return (tuple(counted) if model.classes else (n,)), True


def _turns(graph: Graph) -> tuple[int, ...]:
    """Quarter turns that map the board onto itself: all four on a square, else a half turn."""
    return (0, 1, 2, 3) if graph.rows == graph.cols else (0, 2)


def _turned(graph: Graph, shown: tuple, quarter_turns: int) -> tuple:
    """A grid (tile type and its edges per cell, reading order) after turning the board clockwise:
    each cell moves, and each tile turns with it. Written here again, independently of the
    models' turned_looks."""
    rows, cols = graph.rows, graph.cols
    out = [None] * (rows * cols)
    for i, (kind, edges) in enumerate(shown):
        r, c = divmod(i, cols)
        h, w = rows, cols
        for _ in range(quarter_turns % 4):  # (r, c) on h x w -> (c, h - 1 - r) on w x h
            r, c, h, w = c, h - 1 - r, w, h
        out[r * w + c] = (kind, _turn(edges, quarter_turns))
    return tuple(out)


def placements_of(model: ReferenceModel, grid: list[int]) -> list[Placement]:
    return _placements(model.graph, model.puzzle, grid)
