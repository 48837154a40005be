"""Lookup tables for the compiled edge-matching counter (the `edgecount` backend).

A model here is the puzzle as arrays: nodes (a tile kind turned one distinct way: a tile that
looks the same after a turn has fewer nodes), the colour ids of their edges, the stock of each
kind, and the cells in the order the search fills them. For each cell the search reads the
colours already fixed around it (its neighbours filled earlier) and takes the candidate nodes
from one table, `start[key]:end[key]` of `candidates`, where the key is the four colours a
candidate must show (a wildcard where nothing is fixed yet). Every rule is in the tables: the
frame and fixed tiles restrict a cell's nodes (its domain); the complement rule maps a colour to
the one it must meet (`partner`); the `apart` mark sorts unmarked candidates first, so a cell next
to a marked tile reads only the first part.

The same model counts the grids a turn of the board leaves unchanged: such a grid is fixed by the
tiles on one cell of each orbit of cells under the turn (a quadrant for a quarter turn), each
placement using as many tiles as its orbit has cells, and a neighbour in another orbit read turned.

Cubes are the nodes of the first cells in the order. For the count of every grid on a board the
rules keep under turns, the first cells are the corners (a set the turns keep); corner layouts
that are turns of one another have equally many grids, so one of each orbit is counted and
weighted by the orbit's size: the count of all grids, computed, not enumerated.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from .. import limits
from ..errors import InputError
from . import (
    EdgePuzzle,
    FixedTile,
    board,
    board_motion,
    board_turns,
    distinct_rotations,
    fits_frame,
    rotated,
    tile_types,
)
from .grid import Board, Cell, Motion, centre_xy

ORDERS = ("auto", "frame", "corners", "rows", "centre", "rings")  # fill orders (see _order)
# 'auto': on boards with a frame or a border colour the grid's choice (squares: the border ring
# first, triangles: ring by ring from the border in), else row by row.
# Measured by Knuth's estimate of the search (20,000 random paths): Eternity II clue puzzle 1
# takes 9.7e9 nodes framed first, 1.8e11 with the corners then rows, 4.0e11 row by row;
# MacMahon's squares (border colour) 2.0e9, 7.4e10 and 1.7e11; the diamond blocks (no frame)
# take 1.5e6 nodes row by row and 9.9e7 with the corners first (counted: 1,546,363 row by
# row, 947,988 from the centre out with its 2x2 centre's orbits weighted, which costs 0.2 s of
# planning in Python: more than it saves here).
DEFAULT_ORDER = "auto"
# The first cells are cubes weighted by their orbits under the board's turns when their layouts
# number at most this (the product of their domains): planning them runs in Python.
PREFIX_LAYOUTS = 100_000


@dataclass
class EdgeTables:
    """The arrays the compiled search runs on (picklable: sent once to every worker).

    Cells are numbered in the board's reading order (row * cols + col on a full rectangle).
    A kind here is a tile kind, or for the grids a symmetry leaves unchanged that mirrors or
    recolours tiles, the kinds it maps onto one another (their tiles counted together: such a
    grid uses them evenly).
    """

    rows: int
    cols: int
    turns: int  # the board turn (steps) whose unchanged grids are counted; 0: all grids
    node_type: np.ndarray  # node -> kind (the stock it draws on)
    node_turn: np.ndarray  # node -> its rotation of the tile kind's first tile
    node_edge: np.ndarray  # node x side -> colour id
    node_mark: np.ndarray  # node -> 1 if it carries the `apart` mark
    face: np.ndarray  # node x (power j, side) -> the colour id a neighbour must show against
    # that side of the node's image under the j-th power of the symmetry counted
    turned: np.ndarray  # node x group element -> the node it looks like moved (-1: none)
    partner: np.ndarray  # colour id -> the colour id that must face it
    stock: np.ndarray  # kind -> tiles of that kind
    cell: np.ndarray  # depth -> board cell (its number in reading order) filled at that depth
    mult: np.ndarray  # depth -> tiles a placement there uses (its orbit's size)
    near: np.ndarray  # depth x sides -> depths of the neighbours filled earlier (then -1)
    near_side: np.ndarray  # depth x sides -> which column of `face` a neighbour shows
    weight: np.ndarray  # depth x sides -> the key's place value of that neighbour's colour
    base_key: np.ndarray  # depth -> where its keys begin in `table`
    table: np.ndarray  # key x 3 -> first candidate, end of the unmarked ones, end of all
    candidates: np.ndarray
    apart: bool
    feasible: bool
    prefix: int  # the first cells whose layouts are cubes (the corners under symmetry)
    group: tuple[Motion, ...]  # board turns that keep the rules (weights of corner orbits)
    order: str
    kinds: tuple  # per tile kind: (physical tile indices, first tile's edges), for decoding
    fixed_tiles: dict  # cell -> a fixed tile's index
    cells: tuple[Cell, ...] = ()  # the board's cells in reading order
    node_kind: np.ndarray | None = None  # node -> tile kind (for decoding)

    @property
    def depths(self) -> int:
        return len(self.cell)


def _colours(puzzle: EdgePuzzle) -> tuple[dict, np.ndarray]:
    """Colour ids of every edge shown, and the partner each must face (the last id: none)."""
    edges = sorted({e for t in puzzle.tiles for e in t.edges})
    ids = {e: i for i, e in enumerate(edges)}
    none = len(edges)
    partner = np.full(none + 1, none, dtype=np.int64)
    if puzzle.rule == "equal":
        partner[:none] = np.arange(none)
    else:
        for e, i in ids.items():  # the same picture, the other half
            others = [f for f in edges if f[0] == e[0] and f[1] != e[1]]
            if len(others) > 1:
                raise InputError(f"edgecount takes pictures with two halves; {e[0]!r} has "
                                 f"{len(others) + 1}", field="rule")
            if others:
                partner[i] = ids[others[0]]
    return ids, partner


def corner_cells(here: Board) -> list[int]:
    """The board's corners (of the cells with the most sides on the border, those farthest
    from the board's centre), clockwise from the top left, as cell numbers."""
    most = max(sum(here.border(c)) for c in here.cells)
    ring = [c for c in here.grid.rings(here)[0] if sum(here.border(c)) == most]
    centre = [centre_xy(here.grid, c) for c in here.cells]
    mx = sum(x for x, _ in centre) / len(centre)
    my = sum(y for _, y in centre) / len(centre)

    def far(cell: Cell) -> float:
        x, y = centre_xy(here.grid, cell)
        return round((x - mx) ** 2 + (y - my) ** 2, 6)

    farthest = max(far(c) for c in ring)
    return [here.index[c] for c in ring if far(c) == farthest]


def _order(puzzle: EdgePuzzle, reps: list[int], order: str, corners_first: bool) -> list[int]:
    """The cells (of `reps`) in fill order: fixed tiles first, then the corners ('frame',
    'corners'), then the rest: in reading order ('rows', 'corners'), the border ring clockwise
    before the inside in reading order ('frame'), ring by ring from the border in ('rings') or
    from the centre out ('centre': the innermost ring is a set the board's turns keep), each
    ring clockwise."""
    if order not in ORDERS:
        raise InputError(f"unknown fill order {order!r}; one of: {', '.join(ORDERS)}",
                         field="order")
    here = board(puzzle)
    if order == "auto":
        bordered = puzzle.frame is not None or puzzle.border is not None
        order = here.grid.bordered_order if bordered else "rows"
    fixed = [here.index[(f.row, f.col)] for f in puzzle.fixed]
    first = [c for c in dict.fromkeys(fixed) if c in reps]
    if corners_first and order in ("frame", "corners"):
        for c in corner_cells(here):
            if c in reps and c not in first:
                first.append(c)
    rest = list(reps)
    if order == "frame":
        ring_cells = [here.index[c] for c in here.grid.rings(here)[0]]
        rest = [c for c in ring_cells if c in reps] + [c for c in reps if c not in ring_cells]
    if order in ("centre", "rings"):
        rings = here.grid.rings(here)
        rest = [here.index[c] for ring in (reversed(rings) if order == "centre" else rings)
                for c in ring if here.index[c] in reps]
    return first + [c for c in rest if c not in first]


def build_tables(puzzle: EdgePuzzle, turns: int | Motion = 0, order: str = DEFAULT_ORDER,
                 parity: int | None = None) -> EdgeTables:
    """The model counting the grids a symmetry of the board leaves unchanged: a turn `turns`
    (in steps of the grid's smallest turn, clockwise) or any grid.Motion (a mirror image, a
    recolouring); turns 0: every grid. With a parity (0 or 1), marked tiles only on the cells
    whose row + column has that parity, unmarked tiles on the others."""
    here = board(puzzle)
    grid = here.grid
    sides = grid.sides
    if isinstance(turns, int) and turns and (puzzle.fixed or turns not in board_turns(puzzle)):
        raise InputError(
            f"a turn by {turns * grid.turn_degrees} degrees does not keep {puzzle.name}'s rules",
            field="modulo")
    motion = board_motion(puzzle, turns)
    step = 0 if motion.identity else (motion.steps or 1)
    ids, partner = _colours(puzzle)
    kinds = tile_types(puzzle)
    nodes = _Nodes.of(puzzle, kinds)
    # the symmetry's powers (g^0 = identity first), and each node's image under each
    powers = motion.powers()
    power_image = [[nodes.image(n, g) if j else n for n in range(nodes.count)]
                   for j, g in enumerate(powers)]
    # kinds the symmetry maps onto one another share one stock
    kind_image = {k: k for k in range(len(kinds))}
    if len(powers) > 1:
        for k in range(len(kinds)):
            m = power_image[1][nodes.kind.index(k)]
            kind_image[k] = nodes.kind[m] if m >= 0 else -1
    stock_of, node_type = _shared_stock(kinds, kind_image, nodes.kind)
    motions = here.motions()
    group = tuple(motions) if step == 0 and parity is None and not puzzle.fixed else (
        motions[0],)
    turned = np.array([[nodes.image(n, g) for g in group] for n in range(nodes.count)],
                      dtype=np.int64).reshape(nodes.count, len(group))

    rep_of, reps = _cell_orbits(here, powers)
    orbit_size = Counter(rep for rep, _ in rep_of.values())  # (once a cell: quadratic)
    filled = _order(puzzle, reps, order, step == 0)
    depth_of = {cell: d for d, cell in enumerate(filled)}
    fixed_tiles = {here.index[(f.row, f.col)]: f.tile for f in puzzle.fixed}
    kind_of_tile = {t: k for k, kind in enumerate(kinds) for t in kind.tiles}

    feasible = len(puzzle.tiles) == len(here) and len(fixed_tiles) == len(puzzle.fixed) and \
        len({f.tile for f in puzzle.fixed}) == len(puzzle.fixed) and stock_of is not None
    depths = len(filled)
    width = max(4, sides)
    nb = np.full((depths, width), -1, dtype=np.int64)
    nb_side = np.zeros((depths, width), dtype=np.int64)
    mult = np.zeros(depths, dtype=np.int64)
    domains: list[tuple[int, ...]] = []
    for d, index in enumerate(filled):
        limits.step("cells", d, depths)  # the time limit holds while the model is built
        mult[d] = orbit_size[index]
        allowed = _cell_domain(puzzle, here, index, nodes, powers, power_image, parity,
                               fixed_tiles, kind_of_tile)
        for side in range(sides):
            other = here.across(here.cells[index], side)
            if other is None:
                continue
            rep, j = rep_of[here.index[other]]
            facing = grid.facing(side)  # the neighbour shows the rep's node's j-th image there
            if rep == index:  # touching its own image: a condition on the node alone
                for n in range(nodes.count):
                    m = power_image[j][n]
                    allowed[n] = allowed[n] and m >= 0 and partner[
                        ids[nodes.edges[m][facing]]] == ids[nodes.edges[n][side]] and not (
                        puzzle.apart and nodes.mark[n])
            elif depth_of[rep] < d:
                nb[d, side] = depth_of[rep]
                nb_side[d, side] = j * sides + facing
        domains.append(tuple(n for n in range(nodes.count) if allowed[n]))
    face = _faces(nodes, power_image, ids, partner, sides)
    edge_ids = [[ids[e] for e in edges] for edges in nodes.edges]
    keyed = _KeyTables.of(nb, nb_side, domains, edge_ids, nodes.mark, len(partner))
    return EdgeTables(
        here.rows, here.cols, motion.steps if not motion.mirror else -1,
        np.array(node_type, dtype=np.int64), np.array(nodes.turn, dtype=np.int64),
        np.array(edge_ids, dtype=np.int64).reshape(nodes.count, sides),
        np.array(nodes.mark, dtype=np.int32), face, turned,
        partner, np.array(stock_of or [0] * max(1, len(kinds)), dtype=np.int64),
        np.array(filled, dtype=np.int64), mult, keyed.near, keyed.near_side, keyed.weight,
        keyed.base_key, keyed.table, keyed.candidates, bool(puzzle.apart), feasible,
        _prefix(here, filled, group, step, domains), group, order,
        tuple((kind.tiles, kind.edges) for kind in kinds), fixed_tiles, here.cells,
        np.array(nodes.kind, dtype=np.int64),
    )


@dataclass
class _Nodes:
    """The nodes of the search: each tile kind turned each distinct way, with its kind, turn,
    edges and `apart` mark (1 where it carries it), and the node of each look (edges, mark)."""

    kind: list[int]
    turn: list[int]
    edges: list[tuple]
    mark: list[int]
    marks: list[str]  # node -> its kind's mark, whatever the `apart` rule
    of: dict[tuple, int]

    @classmethod
    def of(cls, puzzle: EdgePuzzle, kinds: list) -> _Nodes:
        """The nodes of the puzzle's tile kinds, kind by kind, turn by turn."""
        nodes = cls([], [], [], [], [], {})
        for k, kind in enumerate(kinds):
            for r in kind.rotations:
                nodes.of[(rotated(kind.edges, r), kind.mark)] = len(nodes.kind)
                nodes.kind.append(k)
                nodes.turn.append(r)
                nodes.edges.append(rotated(kind.edges, r))
                nodes.mark.append(1 if puzzle.apart and kind.mark == puzzle.apart else 0)
                nodes.marks.append(kind.mark)
        return nodes

    @property
    def count(self) -> int:
        return len(self.kind)

    def image(self, n: int, g: Motion) -> int:
        """The node that looks like node n moved by g (-1: no tile looks so)."""
        return self.of.get((g.look(self.edges[n]), self.marks[n]), -1)


def _cell_orbits(here: Board, powers: list[Motion]) -> tuple[dict[int, tuple[int, int]],
                                                              list[int]]:
    """The orbits of cells under the symmetry, one representative each (the first in reading
    order): per cell, (its representative, j: cell = g^j(representative)); the
    representatives."""
    rep_of: dict[int, tuple[int, int]] = {}
    reps: list[int] = []
    for i in range(len(here)):
        if i in rep_of:
            continue
        reps.append(i)
        for j, g in enumerate(powers):
            rep_of.setdefault(g.to[i], (i, j))
    return rep_of, reps


def _cell_domain(puzzle: EdgePuzzle, here: Board, index: int, nodes: _Nodes,
                 powers: list[Motion], power_image: list[list[int]], parity: int | None,
                 fixed_tiles: dict[int, int], kind_of_tile: dict[int, int]) -> list[bool]:
    """Per node, whether it may lie on a cell as far as the cell alone says: the frame, the
    parity of marked tiles, a fixed tile there, and the symmetry (every image of the node must
    be a tile's look; on a cell its own image under a power of the symmetry, the node must
    look the same moved)."""
    cell = here.cells[index]
    fixed = index in fixed_tiles and nodes.count > 0
    if fixed:
        t = fixed_tiles[index]
        f = next(f for f in puzzle.fixed if (f.row, f.col) == cell)
        fixed_node = nodes.of.get((rotated(puzzle.tiles[t].edges, f.rotation),
                                   puzzle.tiles[t].mark))
        fixed_kind = kind_of_tile[t]
    allowed = []
    for n in range(nodes.count):
        ok = fits_frame(puzzle, cell, nodes.edges[n])
        if parity is not None and puzzle.apart:
            ok = ok and bool(nodes.mark[n]) == (sum(cell) % 2 == parity)
        if fixed:
            ok = ok and n == fixed_node and nodes.kind[n] == fixed_kind
        for j in range(1, len(powers)):
            ok = ok and power_image[j][n] >= 0
            if powers[j].to[index] == index:
                ok = ok and power_image[j][n] == n
        allowed.append(ok)
    return allowed


def _faces(nodes: _Nodes, power_image: list[list[int]], ids: dict, partner: np.ndarray,
           sides: int) -> np.ndarray:
    """Node x (power j, side) -> the colour id a neighbour must show against that side of the
    node's image under the j-th power of the symmetry (`partner`'s last id where no image)."""
    none = len(partner) - 1
    face = np.full((nodes.count, len(power_image) * sides), none, dtype=np.int32)
    for n in range(nodes.count):
        for j, images in enumerate(power_image):
            m = images[n]
            if m >= 0:
                for f in range(sides):
                    face[n, j * sides + f] = partner[ids[nodes.edges[m][f]]]
    return face


@dataclass
class _KeyTables:
    """One table per depth, keyed by the colours of the sides its earlier neighbours fix: per
    depth those neighbours (`near`, `near_side`) and their place values in the key (`weight`),
    where its keys begin (`base_key`); per key (start, end of unmarked, end) in `candidates`."""

    near: np.ndarray
    near_side: np.ndarray
    weight: np.ndarray
    base_key: np.ndarray
    table: np.ndarray
    candidates: np.ndarray

    @classmethod
    def of(cls, nb: np.ndarray, nb_side: np.ndarray, domains: list[tuple[int, ...]],
           edge_ids: list[list[int]], node_mark: list[int], colours: int) -> _KeyTables:
        """colours: ids 0..colours-1 (the last one: faces nothing)."""
        depths, width = nb.shape
        near = np.full((depths, width), -1, dtype=np.int32)
        near_side = np.zeros((depths, width), dtype=np.int32)
        weight = np.zeros((depths, width), dtype=np.int32)
        base_key = np.zeros(depths, dtype=np.int64)
        slots: list[tuple[int, int, int]] = []  # per key: (start, end of unmarked, end)
        flat: list[int] = []
        for d in range(depths):
            limits.step("tables", d, depths)
            fixed_sides = [side for side in range(width) if nb[d, side] >= 0]
            for k, side in enumerate(fixed_sides):
                near[d, k], near_side[d, k] = nb[d, side], nb_side[d, side]
                weight[d, k] = colours ** k
            base_key[d] = len(slots)
            by_key: dict[int, list[int]] = {}
            for n in domains[d]:
                key = sum(edge_ids[n][side] * colours ** k for k, side in enumerate(fixed_sides))
                by_key.setdefault(key, []).append(n)
            for key in range(colours ** len(fixed_sides)):
                found = sorted(by_key.get(key, []), key=lambda n: node_mark[n])
                unmarked = sum(1 for n in found if not node_mark[n])
                slots.append((len(flat), len(flat) + unmarked, len(flat) + len(found)))
                flat += found
        table = np.array(slots, dtype=np.int32).reshape(-1, 3)
        return cls(near, near_side, weight, base_key, table, np.array(flat, dtype=np.int32))


def _shared_stock(kinds, kind_image: dict[int, int], node_kind: list[int]
                  ) -> tuple[list[int] | None, list[int]]:
    """Kinds the symmetry maps onto one another, counted as one: their stock together, and
    each node's shared kind. None for the stock where a kind's image is no kind or has
    another number of tiles (no grid the symmetry keeps can use every tile)."""
    group_of: dict[int, int] = {}
    stock: list[int] = []
    for k in range(len(kinds)):
        if k in group_of:
            continue
        members = [k]
        while True:
            nxt = kind_image[members[-1]]
            if nxt < 0:
                return None, [0] * len(node_kind)
            if nxt == k:
                break
            if nxt in members:
                return None, [0] * len(node_kind)
            members.append(nxt)
        if len({kinds[m].count for m in members}) != 1:
            return None, [0] * len(node_kind)
        for m in members:
            group_of[m] = len(stock)
        stock.append(sum(kinds[m].count for m in members))
    return stock, [group_of[k] for k in node_kind]


def _prefix(here: Board, filled: list[int], group: tuple[Motion, ...], step: int,
            domains: list[tuple[int, ...]]) -> int:
    """How many first cells form a set the board's turns keep (the corners, or the innermost
    ring) with at most PREFIX_LAYOUTS layouts, else 0."""
    if step or len(group) == 1:
        return 0
    corners = set(corner_cells(here))
    inner = {here.index[c] for c in here.grid.rings(here)[-1]}
    for kept in (corners, inner):
        if set(filled[: len(kept)]) == kept and all(
                {g.to[c] for c in kept} == kept for g in group) and math.prod(
                len(domains[d]) for d in range(len(kept))) <= PREFIX_LAYOUTS:
            return len(kept)
    return 0


def pinned(puzzle: EdgePuzzle) -> list[tuple[EdgePuzzle, int, str]]:
    """Every grid counted through a tile alone of its kind: the puzzle with that tile fixed on
    one cell of each orbit of cells under the board's turns, in each of its looks there, each
    weighted by its orbit's size (turning a grid takes the tile to every cell of the orbit, so
    the weighted counts add up to every grid, as the corner orbits do for boards whose corners
    carry the turns). [(puzzle, weight, label)]; [] where the board has no turn, the puzzle
    fixed tiles, or no tile is alone of its kind. The tile taken is the first of those giving
    the fewest puzzles (`pin_choices`)."""
    choices = pin_choices(puzzle)
    return choices[0] if choices else []


def pin_choices(puzzle: EdgePuzzle) -> list[list[tuple[EdgePuzzle, int, str]]]:
    """`pinned`'s puzzles for each tile alone of its kind that gives the fewest (Owen's boards:
    each of the four corner tiles on the top left corner, weight 4), for a search to choose
    among by measurement."""
    turns = board_turns(puzzle)
    here = board(puzzle)
    motions = [m for m in here.motions() if m.steps in turns]
    if len(motions) < 2 or puzzle.fixed:
        return []
    orbits: list[tuple[int, int]] = []  # (representative cell, orbit size)
    seen: set[int] = set()
    for i in range(len(here)):
        if i not in seen:
            orbit = {m.to[i] for m in motions}
            seen |= orbit
            orbits.append((i, len(orbit)))
    every: list[list[tuple[EdgePuzzle, int, str]]] = []
    for kind in tile_types(puzzle):
        if kind.count != 1:
            continue
        t = kind.tiles[0]
        tile = puzzle.tiles[t]
        choices = []
        for rep, size in orbits:
            cell = here.cells[rep]
            for r in distinct_rotations(tile.edges):
                if fits_frame(puzzle, cell, rotated(tile.edges, r)):
                    pin = replace(puzzle, fixed=(FixedTile(cell[0], cell[1], t, r),))
                    label = (f"tile {tile.name or t + 1} on r{cell[0] + 1}c{cell[1] + 1} "
                             f"turned {here.grid.rotation_degrees(r)}")
                    choices.append((pin, size, label))
        every.append(choices)
    fewest = min((len(c) for c in every if c), default=0)
    return [c for c in every if c and len(c) == fewest]


def candidates_at(model: EdgeTables, placed, stock, d: int) -> list[int]:
    """The nodes depth d may take after the nodes `placed` at the depths before it (as the
    compiled search reads the tables)."""
    k, blocked = int(model.base_key[d]), False
    for s in range(model.near.shape[1]):
        j = model.near[d, s]
        if j < 0:
            break
        n = placed[j]
        k += int(model.face[n, model.near_side[d, s]] * model.weight[d, s])
        blocked = blocked or bool(model.node_mark[n])
    lo, unmarked, every = model.table[k]
    hi = unmarked if model.apart and blocked else every
    return [int(n) for n in model.candidates[lo:hi]
            if stock[model.node_type[n]] >= model.mult[d]]


def _extend(model: EdgeTables, cubes: list[tuple[int, ...]], sizes: list[float]
            ) -> tuple[list[tuple[int, ...]], list[float]]:
    """Every cube with one more depth filled, as the search would fill it, and the share of a
    random path's search each takes (the product of 1/branching along its prefix)."""
    out, shares = [], []
    for cube, size in zip(cubes, sizes):
        d = len(cube)
        placed = np.zeros(model.depths, dtype=np.int64)
        placed[:d] = cube
        stock = model.stock.copy()
        for depth, n in enumerate(cube):
            stock[model.node_type[n]] -= model.mult[depth]
        here = candidates_at(model, placed, stock, d)
        out += [cube + (n,) for n in here]
        shares += [size / max(1, len(here))] * len(here)
    return out, shares


def corner_orbits(model: EdgeTables, cubes: list[tuple[int, ...]]
                  ) -> tuple[list[int], list[int]]:
    """One layout of the first `prefix` cells per orbit under the board's turns (its index),
    and the orbit's size: turning the board maps the grids of one layout onto those of its
    image, one to one."""
    first = [int(c) for c in model.cell[: model.prefix]]
    at = {cell: d for d, cell in enumerate(first)}
    kept, weights = [], []
    for i, cube in enumerate(cubes):
        images = set()
        for q, g in enumerate(model.group):
            image = [0] * len(cube)
            for d, n in enumerate(cube):
                image[at[g.to[first[d]]]] = int(model.turned[n, q])
            images.add(tuple(image))
        if cube == min(images):
            kept.append(i)
            weights.append(len(images))
    return kept, weights


def plan_cubes(model: EdgeTables, wanted: int
               ) -> tuple[list[tuple[int, ...]], list[int], list[float]]:
    """Cubes (the nodes of the first cells) until there are `wanted` of them; each one's weight
    (under the board's turns one corner layout per orbit, weighted by the orbit's size); and
    each one's estimated share of the search (the product of 1/branching along its prefix,
    for progress)."""
    cubes: list[tuple[int, ...]] = [()]
    weights, sizes = [1], [1.0]
    if not model.feasible or model.depths == 0:
        return cubes, weights, sizes
    if model.prefix:
        for _ in range(model.prefix):
            cubes, sizes = _extend(model, cubes, sizes)
        kept, weights = corner_orbits(model, cubes)
        cubes, sizes = [cubes[i] for i in kept], [sizes[i] for i in kept]
    while len(cubes) < wanted and cubes and len(cubes[0]) < model.depths - 1:
        longer, longer_weights, longer_sizes = [], [], []
        for cube, w, size in zip(cubes, weights, sizes):
            more, shares = _extend(model, [cube], [size])
            longer += more
            longer_weights += [w] * len(more)
            longer_sizes += shares
        cubes, weights, sizes = longer, longer_weights, longer_sizes
    return cubes, weights, sizes


def grid_of_nodes(model: EdgeTables, puzzle: EdgePuzzle, nodes: list[int]
                  ) -> list[tuple[int, int]]:
    """A grid found by the search (a node per depth, every grid's model) as (tile index,
    rotation) per cell in reading order, the tiles of a kind given out in turn."""
    fixed = set(model.fixed_tiles.values())
    free = [[t for t in tiles if t not in fixed] for tiles, _ in model.kinds]
    grid: list[tuple[int, int]] = [(0, 0)] * len(model.cells)
    for d, n in enumerate(nodes):
        cell = int(model.cell[d])
        kind = int(model.node_kind[n])
        tile = model.fixed_tiles.get(cell)
        if tile is None:
            tile = free[kind].pop(0)
        look = rotated(model.kinds[kind][1], int(model.node_turn[n]))
        turn = next(q for q in range(len(look)) if rotated(puzzle.tiles[tile].edges, q) == look)
        grid[cell] = (tile, turn)
    return grid


def random_cube(model: EdgeTables, depth: int, rng) -> tuple[int, ...] | None:
    """A cube down to `depth` along one random path of the search (None at a dead end)."""
    placed = np.zeros(model.depths, dtype=np.int64)
    stock = model.stock.copy()
    cube: list[int] = []
    for d in range(min(depth, model.depths)):
        here = candidates_at(model, placed, stock, d)
        if not here:
            return None
        n = here[int(rng.integers(len(here)))]
        placed[d] = n
        stock[model.node_type[n]] -= model.mult[d]
        cube.append(n)
    return tuple(cube)


def cube_puzzle(model: EdgeTables, puzzle: EdgePuzzle, cube: tuple[int, ...]) -> EdgePuzzle:
    """The puzzle with a cube's tiles fixed (an every-grid model's cube): its grids are the
    cube's, so any backend can count them."""
    taken = {f.tile for f in puzzle.fixed}
    at = {(f.row, f.col) for f in puzzle.fixed}
    free = [[t for t in tiles if t not in taken] for tiles, _ in model.kinds]
    fixed = list(puzzle.fixed)
    for d, n in enumerate(cube):
        r, c = model.cells[int(model.cell[d])]
        if (r, c) in at:
            continue
        kind = int(model.node_kind[n])
        tile = free[kind].pop(0)
        look = rotated(model.kinds[kind][1], int(model.node_turn[n]))
        turn = next(q for q in range(len(look)) if rotated(puzzle.tiles[tile].edges, q) == look)
        fixed.append(FixedTile(r, c, tile, turn))
    return replace(puzzle, fixed=tuple(fixed), name=f"{puzzle.name}-cube")
