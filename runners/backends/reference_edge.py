"""Reference solver for edge-matching puzzles: the compatibility graph that Daniel Downes
describes for his BlockProblemGame (github.com/danieldownes/BlockProblemGame, docs/solutions.html).

Written independently of the encodings: it shares only the puzzle's data classes, and computes
rotations, the matching test, identical tiles and the geometry of each grid again here (the
cells touching across each side and the board's turns, from the corners the cells share, not
from the models' grid classes). One node per (tile type, distinct rotation); for each pair of
sides that touch, a node's mask of the nodes that may lie across it (node sets are bitmasks).
Cells are filled in reading order (on a board with a frame or a border colour, from the first
cell on, always the cell with the most sides already fixed, by placed neighbours or the
border), trying only the nodes that fit every placed neighbour, with forward checking of the
neighbours still empty.

Identical tiles (one is a rotation of the other, with the same mark) form one tile type with a
count, so a tile identical to one already tried at a cell is never tried again there, and each
leaf of the search is a distinct grid. What is counted, `grids`: distinct grids, where a grid
says which tile type, turned so its edges read which way, lies on each cell; identical tiles are
interchangeable, and two rotations of one tile that show the same edges (a symmetric tile) are
the same grid.

The `apart` rule (no two touching tiles both carry the mark): when the marked tiles are exactly
half of a full square board at least 2 x 2 with an even number of cells, every layout is a
checkerboard (each domino of a tiling of the board holds one marked tile, and neighbouring
dominoes force alternation), so the two parities are searched separately with each cell's
domain pre-filtered to marked or unmarked nodes. Otherwise adjacency is checked directly.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import permutations

from ..models.edge_matching import Edge, EdgePuzzle, Tile
from ..models.limits import check_placements
from ..models.words import plural
from . import Backend, Outcome

Placement = tuple[int, int]  # (tile index, clockwise turns) on one cell
PARITIES = ("even", "odd")  # marks on cells with (row + col) even, or odd


def _turn(edges: tuple, turns: int) -> tuple:
    """Edges clockwise after turning the tile clockwise: the edge on side i moves to i + 1."""
    n = len(edges)
    q = turns % n
    return tuple(edges[(side - q) % n] for side in range(n))


def _fit(a: Edge, b: Edge, rule: str) -> bool:
    """Whether two touching edges match: equal, or the same picture with different halves."""
    if rule == "equal":
        return a == b
    if rule == "complement":
        return a[0] == b[0] and a[1] != b[1]
    raise ValueError(f"unknown matching rule {rule!r}")


# ---------------------------------------------------------------- geometry, again


def _square_corners(cell: tuple[int, int]) -> list[tuple[float, float]]:
    """A square cell's corners in the order of its sides (top, right, bottom, left): side i
    joins corner i and corner i + 1. x to the right, y downwards."""
    r, c = cell
    return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


def _triangle_corners(cell: tuple[int, int]) -> list[tuple[float, float]]:
    """A triangle's corners in the order of its sides: pointing up (row + col even) bottom,
    left, right; pointing down top, right, left. x in half sides, y in rows (downwards)."""
    r, c = cell
    if (r + c) % 2 == 0:
        return [(c + 2, r + 1), (c, r + 1), (c + 1, r)]
    return [(c, r), (c + 2, r), (c + 1, r + 1)]


CORNERS = {"square": (_square_corners, 1.0, 4), "triangle": (_triangle_corners, 0.5, 6)}
# per grid: corners of a cell, the x scale to make sides of length 1, the turns of a full turn


@dataclass
class Geometry:
    """A board's cells (reading order) and, per cell, (side, neighbour, its side) across each
    side that touches another cell; the sides on the border; the board's turns."""

    cells: list[tuple[int, int]]
    across: list[list[tuple[int, int, int]]]
    border: list[tuple[bool, ...]]
    turns: list[tuple[list[int], list[list[int]]]]  # (cell -> image, cell x side -> side)
    mirrors: list[tuple[list[int], list[list[int]]]]  # the same for the mirror images


def geometry(puzzle: EdgePuzzle) -> Geometry:
    """The board's geometry, from the corners the cells share (ValueError: unknown grid)."""
    if puzzle.grid not in CORNERS:
        raise ValueError(f"the reference solver has no geometry for the {puzzle.grid!r} grid")
    corners_of, x_scale, full = CORNERS[puzzle.grid]
    cells = sorted(puzzle.shape) if puzzle.shape else [
        (r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    corners = [corners_of(cell) for cell in cells]
    sides = len(corners[0]) if corners else 0
    owner: dict[frozenset, list[tuple[int, int]]] = {}
    for i, points in enumerate(corners):
        for s in range(sides):
            owner.setdefault(frozenset((points[s], points[(s + 1) % sides])), []).append((i, s))
    across: list[list[tuple[int, int, int]]] = [[] for _ in cells]
    border = [[True] * sides for _ in cells]
    for shared in owner.values():
        if len(shared) == 2:
            (i, s), (j, t) = shared
            across[i].append((s, j, t))
            across[j].append((t, i, s))
            border[i][s] = border[j][t] = False
    return Geometry(cells, [sorted(a) for a in across], [tuple(b) for b in border],
                    _board_turns(corners, x_scale, full, False),
                    _board_turns(corners, x_scale, full, True))


def _board_turns(corners: list[list[tuple[float, float]]], x_scale: float, full: int,
                 mirrored: bool) -> list[tuple[list[int], list[list[int]]]]:
    """Turns of the board about its centre (in floating point, points matched to within a
    hundredth of a side), after mirroring it left to right if `mirrored`, that put every cell
    on a cell: the cell each goes to, and which side of that cell each side becomes."""
    if not corners:
        return [] if mirrored else [([], [])]
    height = 1.0 if full == 4 else math.sqrt(3) / 2
    plane = [[(x * x_scale, y * height) for x, y in points] for points in corners]
    centre_x = sum(x for points in plane for x, _ in points) / sum(map(len, plane))
    centre_y = sum(y for points in plane for _, y in points) / sum(map(len, plane))

    def key(x: float, y: float) -> tuple[int, int]:
        return (round(x * 100), round(y * 100))

    sides = len(corners[0])
    cell_at = {frozenset(key(x, y) for x, y in points): i for i, points in enumerate(plane)}
    turns = []
    for k in range(full):
        angle = 2 * math.pi * k / full
        cos, sin = math.cos(angle), math.sin(angle)

        def moved(x: float, y: float, cos: float = cos, sin: float = sin) -> tuple[int, int]:
            dx, dy = x - centre_x, y - centre_y  # y downwards: this turns clockwise
            if mirrored:
                dx = -dx
            return key(centre_x + dx * cos - dy * sin, centre_y + dx * sin + dy * cos)

        to, side_to = [], []
        for points in plane:
            image = [moved(x, y) for x, y in points]
            j = cell_at.get(frozenset(image))
            if j is None:
                break
            target = [key(x, y) for x, y in plane[j]]
            pairs = [frozenset((target[s], target[(s + 1) % sides])) for s in range(sides)]
            side_to.append([pairs.index(frozenset((image[s], image[(s + 1) % sides])))
                            for s in range(sides)])
            to.append(j)
        else:
            turns.append((to, side_to))
    return turns


@dataclass
class Graph:
    """The compatibility masks, the stock of tile types, and each cell's domain (node masks)."""

    rows: int
    cols: int
    node_type: list[int]
    node_edges: list[tuple[Edge, ...]]
    type_nodes: list[int]  # the nodes of each tile type, as a mask
    type_tiles: list[list[int]]  # the physical tiles of each type (those not fixed)
    stock: list[int]  # how many tiles of each type the cells that are not fixed may take
    fits: dict[tuple[int, int], list[int]]  # (side, side across) -> node -> mask that fits
    domain: list[int]  # cell -> mask of nodes allowed there (frame, fixed tiles)
    from_stock: list[bool]  # cell -> False where a fixed tile lies (taken from stock up front)
    fixed_tile: dict[int, int]  # cell -> the fixed tile's index
    marked: list[bool]  # node -> carries the `apart` mark
    marked_tiles: int
    apart: bool
    feasible: bool  # False when the tiles cannot fill the board at all
    geometry: Geometry
    square: bool  # a full square-grid rectangle (the checkerboard argument holds there)
    order: list[int]  # the cells in the order the search fills them

    @property
    def all_nodes(self) -> int:
        return (1 << len(self.node_type)) - 1

    @property
    def checkerboard(self) -> bool:
        """Whether every layout obeying `apart` puts the marks on one colour of a checkerboard."""
        cells = self.rows * self.cols
        return (
            self.square and self.apart and self.rows >= 2 and self.cols >= 2
            and cells % 2 == 0 and self.marked_tiles == cells // 2
        )


def build(puzzle: EdgePuzzle) -> Graph:
    """The tile types, the compatibility masks over (type, rotation) nodes, and the domains."""
    rule = puzzle.rule
    tiles: list[Tile] = list(puzzle.tiles)
    sides = len(tiles[0].edges) if tiles else 4
    # tile types: identical tiles are rotations of each other with the same mark
    type_of_key: dict[tuple, int] = {}
    tile_type: list[int] = []
    for tile in tiles:
        key = (min(_turn(tile.edges, q) for q in range(sides)), tile.mark)
        tile_type.append(type_of_key.setdefault(key, len(type_of_key)))
    types = len(type_of_key)
    cell_count = len(puzzle.shape) if puzzle.shape else puzzle.rows * puzzle.cols
    # every (type, rotation) node on every cell: refused before the work, not after it
    check_placements(sides * types * cell_count,
                     f"{plural(len(tiles), 'tile')} on {puzzle.rows}x{puzzle.cols}", "tiles")
    geo = geometry(puzzle)
    cells = len(geo.cells)
    type_tiles: list[list[int]] = [[] for _ in range(types)]
    for index, t in enumerate(tile_type):
        type_tiles[t].append(index)
    type_mark = [tiles[members[0]].mark for members in type_tiles]

    node_type, node_edges, node_of, type_nodes = _nodes(tiles, type_tiles, sides)
    fits = _fit_masks(geo, node_edges, rule)
    domain = _frame_domains(puzzle, geo, node_edges, sides)

    stock = [len(members) for members in type_tiles]
    from_stock = [True] * cells
    fixed_tile: dict[int, int] = {}
    feasible = len(tiles) == cells
    number = {cell: i for i, cell in enumerate(geo.cells)}
    for fixed in puzzle.fixed:
        if not (0 <= fixed.tile < len(tiles) and (fixed.row, fixed.col) in number):
            raise ValueError(f"fixed tile {fixed} lies outside the puzzle")
        cell = number[(fixed.row, fixed.col)]
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
    square = puzzle.grid == "square" and not puzzle.shape
    bordered = puzzle.frame is not None or puzzle.border is not None
    return Graph(
        puzzle.rows, puzzle.cols, node_type, node_edges, type_nodes, type_tiles, stock, fits,
        domain, from_stock, fixed_tile, marked, marked_tiles, puzzle.apart is not None,
        feasible, geo, square, _fill_order(geo) if bordered else list(range(cells)),
    )


def _nodes(tiles: list[Tile], type_tiles: list[list[int]], sides: int
           ) -> tuple[list[int], list[tuple], dict[tuple[int, tuple], int], list[int]]:
    """The nodes, each tile type turned each distinct way: per node its type and edges, the
    node of each (type, edges), and per type its nodes as a mask."""
    node_type: list[int] = []
    node_edges: list[tuple] = []
    node_of: dict[tuple[int, tuple], int] = {}
    type_nodes = [0] * len(type_tiles)
    for t, members in enumerate(type_tiles):
        first = tiles[members[0]].edges
        for q in range(sides):
            edges = _turn(first, q)
            if (t, edges) not in node_of:
                node_of[(t, edges)] = len(node_type)
                type_nodes[t] |= 1 << len(node_type)
                node_type.append(t)
                node_edges.append(edges)
    return node_type, node_edges, node_of, type_nodes


def _fit_masks(geo: Geometry, node_edges: list[tuple], rule: str
               ) -> dict[tuple[int, int], list[int]]:
    """(side, side across) -> node -> the mask of the nodes that fit across that side, made
    through masks of nodes by the edge they show on one side (the masks for different edges
    are disjoint, so their sum is their union)."""
    fits: dict[tuple[int, int], list[int]] = {}
    for links in geo.across:
        for s, _, t in links:
            if (s, t) in fits:
                continue
            with_edge: dict[Edge, int] = {}
            for n, edges in enumerate(node_edges):
                with_edge[edges[t]] = with_edge.get(edges[t], 0) | 1 << n
            fits[(s, t)] = [sum(m for e, m in with_edge.items() if _fit(edges[s], e, rule))
                            for edges in node_edges]
    return fits


def _frame_domains(puzzle: EdgePuzzle, geo: Geometry, node_edges: list[tuple], sides: int
                   ) -> list[int]:
    """Each cell's mask of the nodes the frame and border allow there: the frame edge faces
    the outer border, every border side shows it, nowhere else; the border edge shows on every
    border side (and may show inside)."""
    all_nodes = (1 << len(node_edges)) - 1
    domain = []
    for i in range(len(geo.cells)):
        if puzzle.frame is None and puzzle.border is None:
            domain.append(all_nodes)
            continue
        outside = geo.border[i]
        mask = 0
        for n, edges in enumerate(node_edges):
            framed = puzzle.frame is None or all(
                (edges[s] == puzzle.frame) == outside[s] for s in range(sides))
            bordered = puzzle.border is None or all(
                edges[s] == puzzle.border for s in range(sides) if outside[s])
            if framed and bordered:
                mask |= 1 << n
        domain.append(mask)
    return domain


def _fill_order(geo: Geometry) -> list[int]:
    """From the first cell on, always the cell with the most sides fixed so far (by a placed
    neighbour or the border), the first in reading order among equals."""
    placed: set[int] = set()
    order: list[int] = []
    fixed = [sum(border) for border in geo.border]
    while len(order) < len(geo.cells):
        best = max((i for i in range(len(geo.cells)) if i not in placed),
                   key=lambda i: (fixed[i] if order else 0, -i))
        order.append(best)
        placed.add(best)
        for _, other, _ in geo.across[best]:
            fixed[other] += 1
    return order


def parity_domain(graph: Graph, parity: int) -> list[int]:
    """The domains with marked nodes only on cells whose (row + col) % 2 == parity."""
    marked = sum(1 << n for n, m in enumerate(graph.marked) if m)
    unmarked = graph.all_nodes & ~marked
    return [
        mask & (marked if sum(graph.geometry.cells[i]) % 2 == parity else unmarked)
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
    state = _SearchState.of(graph, domain)
    walk = _walker(graph, state, _options(graph, state), found, deadline)
    order, stock = graph.order, state.stock

    def start(first: int) -> int:
        if not graph.feasible or not order:
            return 0
        avail = graph.all_nodes
        for t, left in enumerate(stock):
            if not left:
                avail &= ~graph.type_nodes[t]
        cand = domain[order[0]] & first
        if graph.from_stock[order[0]]:
            cand &= avail
        return walk(order[0], avail, cand)

    return start


@dataclass
class _SearchState:
    """What one search reads and changes: the domains it runs on, the node placed on each cell
    (-1: none yet), the tiles left of each type; per cell the neighbours filled before it and
    after it (each with the masks of what fits it across), and the cell filled next; whether
    `apart` is checked here (not where the domains were pre-filtered by parity)."""

    domain: list[int]
    grid: list[int]
    stock: list[int]
    before: list[list[tuple[int, list[int]]]]
    after: list[list[tuple[int, list[int]]]]
    following: dict[int, int]
    last: int
    check_apart: bool
    unmarked: int  # the mask of the nodes without the mark

    @classmethod
    def of(cls, graph: Graph, domain: list[int]) -> _SearchState:
        """A fresh search of the graph on these domains: nothing placed, the whole stock."""
        geo, order, fits = graph.geometry, graph.order, graph.fits
        cells = len(geo.cells)
        at = {cell: k for k, cell in enumerate(order)}  # each cell's place in the order
        before = [[(j, fits[(t, s)]) for s, j, t in geo.across[i] if at[j] < at[i]]
                  for i in range(cells)]
        after = [[(k, fits[(s, t)]) for s, k, t in geo.across[i] if at[k] > at[i]]
                 for i in range(cells)]
        return cls(domain, [-1] * cells, list(graph.stock), before, after,
                   {order[k]: order[k + 1] for k in range(cells - 1)},
                   order[-1] if order else -1,
                   graph.apart and domain is graph.domain,
                   graph.all_nodes & ~sum(1 << n for n, m in enumerate(graph.marked) if m))


def _options(graph: Graph, state: _SearchState) -> Callable[[int, int], int]:
    """The function giving the nodes cell i may take, given its neighbours placed so far and
    the nodes the stock still has (`avail`)."""
    domain, from_stock, before, grid = state.domain, graph.from_stock, state.before, state.grid
    check_apart, is_marked, unmarked = state.check_apart, graph.marked, state.unmarked

    def options(i: int, avail: int) -> int:
        mask = domain[i]
        if from_stock[i]:
            mask &= avail
        for j, fit in before[i]:
            n = grid[j]
            mask &= fit[n]
            if check_apart and is_marked[n]:
                mask &= unmarked
        return mask

    return options


def _walker(graph: Graph, state: _SearchState, options: Callable[[int, int], int],
            found: Callable[[list[int]], None] | None, deadline: float | None
            ) -> Callable[[int, int, int], int]:
    """The search itself, walk(cell, nodes the stock still has, candidates there): the grids
    below, trying each candidate with forward checking (every neighbour still empty must keep
    a node that fits). One function, its loop kept whole: it runs once per node searched."""
    domain, grid, stock, after = state.domain, state.grid, state.stock, state.after
    following, last, check_apart, unmarked = (state.following, state.last, state.check_apart,
                                              state.unmarked)
    node_type, type_nodes = graph.node_type, graph.type_nodes
    from_stock, is_marked = graph.from_stock, graph.marked
    ticks = 0

    def walk(i: int, avail: int, cand: int) -> int:
        nonlocal ticks
        ticks += 1
        if deadline is not None and not ticks & 1023 and time.perf_counter() > deadline:
            raise TimeoutError
        if i == last:
            return cand.bit_count() if found is None else _report(grid, i, cand, found)
        total = 0
        take = from_stock[i]
        while cand:
            low = cand & -cand
            cand ^= low
            n = low.bit_length() - 1
            new_avail = avail
            if take:
                t = node_type[n]
                left = stock[t] - 1
                stock[t] = left
                if not left:
                    new_avail = avail & ~type_nodes[t]
            # forward checking: every neighbour still empty must keep a node that fits
            alive = True
            for k, fit in after[i]:
                room = domain[k] & fit[n]
                if from_stock[k]:
                    room &= new_avail
                if check_apart and is_marked[n]:
                    room &= unmarked
                if not room:
                    alive = False
                    break
            if alive:
                grid[i] = n
                j = following[i]
                allowed = options(j, new_avail)
                if allowed:
                    total += walk(j, new_avail, allowed)
            if take:
                stock[t] += 1
        return total

    return walk


def _report(grid: list[int], i: int, cand: int, found: Callable[[list[int]], None]) -> int:
    """On the last cell: each candidate completes a grid, passed to `found`; how many."""
    total = 0
    while cand:
        low = cand & -cand
        cand ^= low
        grid[i] = low.bit_length() - 1
        found(grid)
        total += 1
    return total


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
        rotation = next(q for q in range(len(edges)) if _turn(edges, q) == graph.node_edges[n])
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


Element = tuple[list[int], list[list[int]], dict]  # cells, sides, and edges recoloured


def group(puzzle: EdgePuzzle, graph: Graph, modulo: str) -> list[Element]:
    """The board's symmetries a count merges by, made here again: 'symmetry' its turns,
    'mirror' also its mirror images, 'colours' each of those with each exchange of the colours
    other than the frame's and border's; mirror images and colour exchanges only where they map
    the tiles (up to turning, as a set with repeats) onto themselves."""
    if modulo not in ("symmetry", "mirror", "colours"):
        raise ValueError(f"unknown group {modulo!r}")
    geo = graph.geometry
    motions = geo.turns + (geo.mirrors if modulo != "symmetry" else [])
    kept = {e[0] for e in (puzzle.frame, puzzle.border) if e is not None}
    pictures = sorted({e[0] for t in puzzle.tiles for e in t.edges} - kept)
    exchanges = [dict(zip(pictures, order)) for order in permutations(pictures)] if (
        modulo == "colours") else [{}]

    def tiles_after(sides_to: list[int], exchange: dict) -> Counter:
        found: Counter = Counter()
        for tile in puzzle.tiles:
            moved = [None] * len(tile.edges)
            for s, (picture, half) in enumerate(tile.edges):
                moved[sides_to[s]] = (exchange.get(picture, picture), half)
            found[(min(_turn(tuple(moved), q) for q in range(len(moved))), tile.mark)] += 1
        return found

    plain = tiles_after(list(range(len(puzzle.tiles[0].edges))), {}) if puzzle.tiles else None
    out: list[Element] = []
    for exchange in exchanges:
        recolour = {(p, h): (exchange[p], h) for t in puzzle.tiles for p, h in t.edges
                    if exchange.get(p, p) != p}
        for to, side_to in motions:
            if not exchange and (to, side_to) in geo.turns:
                out.append((to, side_to, {}))
            elif side_to and tiles_after(side_to[0], exchange) == plain:
                out.append((to, side_to, recolour))
    return out


@dataclass
class ReferenceModel:
    """What the reference solver works on: the graph, the searches (one per checkerboard parity,
    or one), and with `classes` the group whose least images it counts ('symmetry', 'mirror',
    'colours'; None: grids only)."""

    puzzle: EdgePuzzle
    graph: Graph
    domains: list[list[int]]
    classes: str | None
    elements: list[Element]


def model(puzzle: EdgePuzzle, classes: str | bool | None = None, parity: int | None = None
          ) -> ReferenceModel:
    if classes is True:
        classes = "symmetry"
    graph = build(puzzle)
    if parity is not None:
        if not graph.checkerboard:
            raise ValueError(f"{puzzle.name}: the marked tiles do not force a checkerboard layout")
        domains = [parity_domain(graph, parity)]
    else:
        domains = _domains(graph)
    return ReferenceModel(puzzle, graph, domains, classes or None,
                          group(puzzle, graph, classes) if classes else [])


def cubes(model: ReferenceModel) -> list[tuple[int, int]]:
    """One branch per search and node on the first cell."""
    graph = model.graph
    return [
        (which, n)
        for which, domain in enumerate(model.domains)
        for n in range(len(graph.node_type))
        if graph.feasible and domain[graph.order[0]] >> n & 1
    ]


class ReferenceEdge(Backend):
    """The compatibility-graph backtracker (after Daniel Downes's BlockProblemGame); classes
    up to turns by least images."""

    name = "reference:edge-matching"
    takes = "reference"
    about = "independent compatibility-graph backtracker; classes by least image"

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
            marks = [model.puzzle.tiles[tiles[0]].mark if tiles else "" for tiles in
                     _type_members(model.puzzle, graph)]

            def keep(grid: list[int]) -> None:
                shown = tuple((graph.node_edges[n], marks[graph.node_type[n]]) for n in grid)
                counted[0] += 1
                counted[1] += all(_moved(shown, element) >= shown for element in model.elements)
        try:
            n = _searcher(model.graph, model.domains[which], keep, stop)(1 << node)
        except TimeoutError:
            return (tuple(counted) if model.classes else (counted[0],)), False
        return (tuple(counted) if model.classes else (n,)), True


def _type_members(puzzle: EdgePuzzle, graph: Graph) -> list[list[int]]:
    """Each tile type's tiles, fixed ones included (for its mark)."""
    members: list[list[int]] = [[] for _ in graph.type_tiles]
    keys: dict[tuple, int] = {}
    for index, tile in enumerate(puzzle.tiles):
        key = (min(_turn(tile.edges, q) for q in range(len(tile.edges))), tile.mark)
        members[keys.setdefault(key, len(keys))].append(index)
    return members


def _moved(shown: tuple, element: Element) -> tuple:
    """A grid (edges and mark per cell, reading order) after a symmetry of the board: each
    cell moves, each tile turns (or mirrors) with it, its colours exchanged. Written here again,
    independently of the models' turned_looks."""
    to, side_to, recolour = element
    out: list = [None] * len(shown)
    for i, (edges, mark) in enumerate(shown):
        moved = [None] * len(edges)
        for s, edge in enumerate(edges):
            moved[side_to[i][s]] = recolour.get(edge, edge)
        out[to[i]] = (tuple(moved), mark)
    return tuple(out)


def placements_of(model: ReferenceModel, grid: list[int]) -> list[Placement]:
    return _placements(model.graph, model.puzzle, grid)
