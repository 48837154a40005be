"""Reference solver for packing puzzles, written independently of the models and encodings.

It shares only the puzzle file reader (and the size limit in models/limits.py): orientations,
placements and symmetry are computed here again, in a different way (bitmasks over the board's
cells; each lattice's geometry written again here, in `GEOMETRIES`, keyed by the lattice's
name), and solutions are found by filling the first empty cell. Classes under the board's
symmetries are counted by canonical forms of the solutions themselves, not by Burnside's lemma
as the solver backends do.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..models.geometry import lattice_part
from ..models.limits import check_placements
from ..models.packing import PackingPuzzle
from ..models.words import plural
from . import Backend, Outcome

Grid = tuple[int, ...]  # the piece index on every board cell, in its fill order


@dataclass
class Board:
    """The board's cells as bit positions, and every piece's placements by their first cell."""

    cells: list[tuple[int, ...]]
    # first bit -> [(piece bit, cell mask, the piece bit that must be used before it)]: the
    # copies of a piece (count = N) are placed in order, so each covering is found once
    starting_at: list[list[tuple[int, int, int]]]
    pieces: int  # piece bits: the pieces with their copies
    symmetries: list[tuple[list[int], list[int]]]  # (cell permutation, piece relabelling)
    fixed: list[tuple[int, int]] = field(default_factory=list)  # a challenge's placed pieces
    types: list[int] = field(default_factory=list)  # each piece bit's piece in the file
    required: int = -1  # the piece bits a solution must use (-1: all: each copy of each piece)

    @property
    def full(self) -> int:
        """Every cell filled."""
        return (1 << len(self.cells)) - 1

    def solved(self, used: int) -> bool:
        """Whether a board with every cell filled used the copies it must."""
        required = (1 << self.pieces) - 1 if self.required < 0 else self.required
        return used & required == required


class _Square:
    """The square lattice, worked out again: quarter turns of (row, column), a mirror."""

    @staticmethod
    def _turn(cells, quarter_turns: int, mirrored: bool) -> frozenset:
        out = []
        for r, c in cells:
            if mirrored:
                c = -c
            for _ in range(quarter_turns):
                r, c = c, -r
            out.append((r, c))
        r0 = min(r for r, _ in out)
        c0 = min(c for _, c in out)
        return frozenset((r - r0, c - c0) for r, c in out)

    def variants(self, cells, flip: bool) -> set[frozenset]:
        return {self._turn(cells, q, m) for q in range(4)
                for m in ((False, True) if flip else (False,))}

    def mirrored(self, cells) -> frozenset:
        return _shifted([(r, -c) for r, c in cells])

    def fill_order(self, cells: list) -> list:
        extent = [max(x) - min(x) + 1 for x in zip(*cells)]
        if extent[1] > extent[0]:  # wide: fill column by column
            return sorted(cells, key=lambda cell: (cell[1], cell[0]))
        return sorted(cells)

    def offsets(self, cells: list) -> list:
        return _box_offsets(cells)

    def motions(self, cells: list) -> list[tuple[Callable, bool]]:
        """The board's rotations about the centre of its bounding box (and those turned over
        by a mirror), as maps of cells: (map, whether it mirrors)."""
        def quarter(p, turns):
            r, c = p
            for _ in range(turns):
                r, c = c, -r
            return r, c

        turns = [lambda p, q=q: quarter(p, q) for q in range(4)]
        return _about_centre(cells, turns, lambda p: (p[0], -p[1]))


# Quarter turns of space about two axes: every rotation of a solid is a product of them.
_SPACE_TURNS = (lambda p: (p[0], p[2], -p[1]), lambda p: (p[2], p[1], -p[0]))


class _Cubic:
    """The cubic lattice, worked out again: the closure of two quarter turns of space."""

    def variants(self, cells, flip: bool) -> set[frozenset]:
        """A solid in every rotation: the closure of its shape under the two quarter turns."""
        first = _shifted(cells)
        seen = {first}
        todo = [first]
        while todo:
            shape = todo.pop()
            for turn in _SPACE_TURNS:
                image = _shifted([turn(p) for p in shape])
                if image not in seen:
                    seen.add(image)
                    todo.append(image)
        return seen

    def mirrored(self, cells) -> frozenset:
        return _shifted([(*c[:-1], -c[-1]) for c in cells])

    def fill_order(self, cells: list) -> list:
        extent = [max(x) - min(x) + 1 for x in zip(*cells)]
        axes = sorted(range(3), key=lambda i: -extent[i])  # the longest side slowest
        return sorted(cells, key=lambda cell: tuple(cell[i] for i in axes))

    def offsets(self, cells: list) -> list:
        return _box_offsets(cells)

    def motions(self, cells: list) -> list[tuple[Callable, bool]]:
        """The 24 rotations of space as matrices closed under the quarter turns, about the
        centre of the board's bounding box (and those turned over by a mirror)."""
        turns = [lambda p, m=m: _apply(m, p) for m in _space_rotations()]
        return _about_centre(cells, turns, lambda p: (p[0], p[1], -p[2]))


class _Sixfold:
    """Triangles or hexagons worked out again, in the plane: each cell's centre as a point
    (floats), turned by 60 degrees or mirrored about a point of the lattice, and found again by
    rounding. `centre` and `cell_at` are a lattice's cells as points and back; `pivot` a point
    every turn of the lattice keeps (a vertex of triangles, a hexagon's centre)."""

    def __init__(self, centre: Callable, cell_at: Callable, pivot: tuple[float, float],
                 kinds: tuple) -> None:
        self.centre, self.cell_at, self.pivot = centre, cell_at, pivot
        self.kinds = kinds  # a cell of each kind (a triangle up, one down): moves keep both

    @staticmethod
    def _turned(p, pivot, degrees: int, mirrored: bool):
        x, y = p[0] - pivot[0], p[1] - pivot[1]
        if mirrored:
            x = -x
        t = math.radians(degrees)
        return (pivot[0] + x * math.cos(t) - y * math.sin(t),
                pivot[1] + x * math.sin(t) + y * math.cos(t))

    def _image(self, cells, pivot, degrees: int, mirrored: bool):
        return [self.cell_at(self._turned(self.centre(c), pivot, degrees, mirrored))
                for c in cells]

    def _moves(self, vector) -> bool:
        """Whether adding a vector to the coordinates moves every cell rigidly (the same shift
        of the centre for a cell of each kind)."""
        shifts = set()
        for cell in self.kinds:
            x0, y0 = self.centre(cell)
            x1, y1 = self.centre(tuple(a + v for a, v in zip(cell, vector)))
            shifts.add((round(x1 - x0, 6), round(y1 - y0, 6)))
        return len(shifts) == 1

    def _normal(self, cells) -> frozenset:
        """Moved rigidly so that its least cell lands on the cell of its kind in `kinds`."""
        first = min(cells)
        for kind in self.kinds:
            move = tuple(k - f for k, f in zip(kind, first))
            if self._moves(move):
                return frozenset(tuple(a + v for a, v in zip(c, move)) for c in cells)
        raise AssertionError(f"cell {first} is of no kind")  # pragma: no cover

    def variants(self, cells, flip: bool) -> set[frozenset]:
        return {self._normal(self._image(cells, self.pivot, 60 * k, m))
                for k in range(6) for m in ((False, True) if flip else (False,))}

    def mirrored(self, cells) -> frozenset:
        return self._normal(self._image(cells, self.pivot, 0, True))

    def fill_order(self, cells: list) -> list:
        xs = [self.centre(c)[0] for c in cells]
        ys = [self.centre(c)[1] for c in cells]
        if max(xs) - min(xs) > max(ys) - min(ys):  # wide: fill column by column
            return sorted(cells, key=lambda cell: (cell[1], cell[0]))
        return sorted(cells)

    def offsets(self, cells: list) -> list:
        low = [min(x) - 2 for x in zip(*cells)]
        high = [max(x) for x in zip(*cells)]
        return [v for v in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(low, high)))
                if self._moves(v)]

    def motions(self, cells: list) -> list[tuple[Callable, bool]]:
        """The 6 turns about the board's centre of mass, and the 6 mirror images: a symmetry of
        the board keeps that point."""
        points = [self.centre(c) for c in cells]
        middle = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
        return [(lambda cell, k=k, m=m: self.cell_at(self._turned(self.centre(cell), middle,
                                                                   60 * k, m)), m)
                for m in (False, True) for k in range(6)]


_H = math.sqrt(3) / 2  # the height of a row of triangles of side 1


def _triangle_centre(cell) -> tuple[float, float]:
    r, c = cell
    up = (r + c) % 2 == 0
    return (c + 1) / 2, r * _H + (2 * _H / 3 if up else _H / 3)


def _triangle_at(point):
    x, y = point
    r = math.floor(y / _H + 1e-9)
    c = round(2 * x - 1)
    cell = (r, c)
    cx, cy = _triangle_centre(cell)
    return cell if abs(cx - x) < 1e-6 and abs(cy - y) < 1e-6 else None


def _hexagon_centre(cell) -> tuple[float, float]:
    r, c = cell
    return c * _H, r * 1.5


def _hexagon_at(point):
    x, y = point
    cell = (round(y / 1.5), round(x / _H))
    cx, cy = _hexagon_centre(cell)
    if (cell[0] + cell[1]) % 2 or abs(cx - x) > 1e-6 or abs(cy - y) > 1e-6:
        return None
    return cell


def _apply(m, p) -> tuple:
    """A point moved by a matrix given as the images of the three unit vectors."""
    return tuple(sum(m[k][i] * p[k] for k in range(3)) for i in range(3))


def _space_rotations() -> list:
    """The 24 rotations of space as matrices (the images of the unit vectors): the closure of
    the two quarter turns."""
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    seen = {identity}
    todo = [identity]
    while todo:
        m = todo.pop()
        for turn in _SPACE_TURNS:
            image = tuple(turn(_apply(m, unit)) for unit in identity)
            if image not in seen:
                seen.add(image)
                todo.append(image)
    return sorted(seen)


class _Balls(_Cubic):
    """The ball lattice, worked out again: a ball (layer, row, column) as a point of whole
    numbers with an even sum, its first coordinate the layer (balls touching are sqrt 2
    apart: steps (1, 1, 0) and the like); turns are the 24 rotations of space acting on those
    points, and a board's symmetries turn it about its centre of mass (its offsets are the
    cubic lattice's: every three whole numbers are a ball)."""

    @staticmethod
    def _point(cell) -> tuple:
        layer, r, c = cell
        return layer, layer + r + c, c - r

    @staticmethod
    def _ball(point) -> tuple:
        x, y, z = point
        return x, (y - x - z) // 2, (y - x + z) // 2

    def _moved(self, cells, m, mirrored: bool) -> frozenset:
        points = [self._point(c) for c in cells]
        if mirrored:
            points = [(x, y, -z) for x, y, z in points]
        return _shifted([self._ball(_apply(m, p)) for p in points])

    def variants(self, cells, flip: bool) -> set[frozenset]:
        return {self._moved(cells, m, mirrored) for m in _space_rotations()
                for mirrored in ((False, True) if flip else (False,))}

    def mirrored(self, cells) -> frozenset:
        return _shifted([self._ball((x, y, -z)) for x, y, z in map(self._point, cells)])

    def fill_order(self, cells: list) -> list:
        # from the top layer down: a pyramid's apex first (its first 30 solutions in 19 s
        # rather than 172 s from the bottom up, at a load of 19)
        return sorted(cells, key=lambda cell: (-cell[0], cell[1], cell[2]))

    def motions(self, cells: list) -> list[tuple[Callable, bool]]:
        """Every rotation (and each turned over by a mirror) about the board's centre of mass,
        as maps of balls (None where a ball's image is no ball)."""
        count = len(cells)
        total = [sum(x) for x in zip(*map(self._point, cells))]

        def about(m, mirrored: bool) -> Callable:
            def move(cell):
                # count times the ball's place from the centre, mirrored, turned, moved back
                x, y, z = (count * a - t for a, t in zip(self._point(cell), total))
                q = [a + t for a, t in zip(_apply(m, (x, y, -z if mirrored else z)), total)]
                if any(a % count for a in q) or sum(a // count for a in q) % 2:
                    return None
                return self._ball(tuple(a // count for a in q))
            return move

        return [(about(m, mirrored), mirrored) for mirrored in (False, True)
                for m in _space_rotations()]


def _shifted(cells) -> frozenset:
    low = [min(x) for x in zip(*cells)]
    return frozenset(tuple(x - x0 for x, x0 in zip(cell, low)) for cell in cells)


def _box_offsets(cells: list) -> list:
    """Every offset within the board's bounding box (a shape's corner at each)."""
    low = [min(x) for x in zip(*cells)]
    high = [max(x) for x in zip(*cells)]
    return list(itertools.product(*(range(lo, hi + 1) for lo, hi in zip(low, high))))


def _about_centre(cells: list, turns: list[Callable], mirror: Callable
                  ) -> list[tuple[Callable, bool]]:
    """Linear maps of coordinates made maps of cells about the centre of the cells' bounding
    box (None where a cell's image falls between cells), with their mirror images."""
    centre = [min(x) + max(x) for x in zip(*cells)]  # twice the centre of the bounding box

    def about(f: Callable) -> Callable:
        def move(cell):
            doubled = f(tuple(2 * x - c for x, c in zip(cell, centre)))
            if any((x + c) % 2 for x, c in zip(doubled, centre)):
                return None
            return tuple((x + c) // 2 for x, c in zip(doubled, centre))
        return move

    return ([(about(f), False) for f in turns]
            + [(about(lambda p, f=f: f(mirror(p))), True) for f in turns])


# Each lattice's geometry, computed here again (keyed by the lattice's name, never guessed from
# a cell): tests/test_lattices.py fails when a lattice in models/geometry.py has none.
GEOMETRIES = {
    "square": _Square(),
    "cubic": _Cubic(),
    "triangular": _Sixfold(_triangle_centre, _triangle_at, (0.5, 0.0), ((0, 0), (0, 1))),
    "hexagonal": _Sixfold(_hexagon_centre, _hexagon_at, (0.0, 0.0), ((0, 0),)),
    "balls": _Balls(),
    "ball-layer": _Square(),  # a layer of balls played flat: the square's geometry, drawn otherwise
}


def geometry(puzzle: PackingPuzzle):
    """The reference's own geometry of the puzzle's lattice (an error naming a lattice it has
    none for)."""
    return lattice_part(GEOMETRIES, puzzle.lattice, "geometry in the reference solver")


def build(puzzle: PackingPuzzle, group: str = "symmetry") -> Board:
    """The board, its placements, and its symmetries under `group` ('symmetry': rotations and
    the mirror images the set allows; 'rotation': rotations alone)."""
    grid = geometry(puzzle)
    cells = grid.fill_order(sorted(tuple(cell) for cell in puzzle.board_cells))
    bit = {cell: i for i, cell in enumerate(cells)}
    starting_at: list[list[tuple[int, int, int]]] = [[] for _ in cells]
    shapes = {piece.name: [tuple(c) for c in piece.cells] for piece in puzzle.pieces}
    variants_of = {name: grid.variants(shape, puzzle.flip) for name, shape in shapes.items()}
    # every variant at every offset is tried: refused before the work, not after it
    offsets = grid.offsets(cells)
    tries = sum(len(variants_of[piece.name]) for piece in puzzle.pieces) * len(offsets)
    check_placements(tries, f"{plural(len(puzzle.pieces), 'piece')}", "pieces")
    held = {p.piece: sum(1 << bit[tuple(c)] for c in p.cells) for p in puzzle.placed}
    types = [index for index, piece in enumerate(puzzle.pieces) for _ in range(piece.count)]
    first_bit = {index: types.index(index) for index in range(len(puzzle.pieces))}
    for index, piece in enumerate(puzzle.pieces):
        masks = set()
        for variant in variants_of[piece.name]:
            # every offset within the board, even where the shape's corner lies on a hole
            for at in offsets:
                mask = 0
                for cell in variant:
                    b = bit.get(tuple(x + a for x, a in zip(cell, at)))
                    if b is None:
                        break
                    mask |= 1 << b
                else:
                    masks.add(mask)
        if index in held:  # a challenge: the piece is on the board from the start
            if held[index] not in masks:
                raise ValueError(f"placed piece {piece.name} is not one of its placements")
            continue
        copy = first_bit[index]
        for mask in masks:
            first = (mask & -mask).bit_length() - 1
            for k in range(copy, copy + piece.count):
                starting_at[first].append((1 << k, mask, (1 << (k - 1)) if k > copy else 0))
    fixed = [(1 << first_bit[index], mask) for index, mask in sorted(held.items())]
    # a piece in any number from MIN to MAX: its first MIN copies (placed in order) required
    required = sum(1 << k for index, piece in enumerate(puzzle.pieces)
                   for k in range(first_bit[index], first_bit[index] + piece.fewest))
    board = Board(cells, starting_at, len(types), [], fixed, types, required)
    board.symmetries = symmetries(puzzle, board, group)
    return board


def _twins(puzzle: PackingPuzzle) -> list[int] | None:
    """Each piece's mirror twin among the pieces (paired in order among equal shapes, with as
    many copies), or None when some piece's mirror image is missing. Turned over in the plane, a
    piece is its own."""
    grid = geometry(puzzle)
    count = len(puzzle.pieces)
    if puzzle.flip:
        return list(range(count))
    forms = [grid.variants([tuple(c) for c in p.cells], False) for p in puzzle.pieces]
    twin: list[int | None] = [None] * count
    for i, piece in enumerate(puzzle.pieces):
        mirrored = grid.mirrored(piece.cells)
        options = [j for j in range(count) if mirrored in forms[j]
                   and (puzzle.pieces[j].count, puzzle.pieces[j].fewest)
                   == (piece.count, piece.fewest)]
        taken = [twin[k] for k in range(i)]
        free = [j for j in options if j not in taken]
        if not free:
            return None
        twin[i] = free[0]
    return twin  # type: ignore[return-value]


def symmetries(puzzle: PackingPuzzle, board: Board, group: str) -> list[tuple[list[int], list]]:
    """The board's symmetries as (cell permutation, piece relabelling): each a rotation (or,
    for group 'symmetry', a mirror image where every piece's twin is in the set) of the board
    about its centre that maps its cells, and a challenge's placed pieces, onto themselves."""
    cells = board.cells
    twins = _twins(puzzle) if group == "symmetry" else None
    index = {cell: i for i, cell in enumerate(cells)}
    found = []
    identity = list(range(len(puzzle.pieces)))
    candidates = [(f, twins if mirrors else identity)
                  for f, mirrors in geometry(puzzle).motions(cells)
                  if twins is not None or not mirrors]
    held = {(p.piece, frozenset(tuple(c) for c in p.cells)) for p in puzzle.placed}
    for f, relabel in candidates:
        perm = []
        for cell in cells:
            image = f(cell)
            if image not in index:
                break
            perm.append(index[image])
        else:
            moved = {(relabel[piece], frozenset(cells[perm[index[tuple(c)]]] for c in covered))
                     for piece, covered in held}
            if moved == held and (perm, relabel) not in found:
                found.append((perm, relabel))
    return found

def _search(board: Board, filled: int, used: int, placed: list, found: Callable) -> None:
    if filled == board.full:
        if board.solved(used):
            found(placed)
        return
    first = (~filled & (filled + 1)).bit_length() - 1
    for piece_bit, mask, need in board.starting_at[first]:
        if not used & piece_bit and not filled & mask and used & need == need:
            placed.append((piece_bit, mask))
            _search(board, filled | mask, used | piece_bit, placed, found)
            placed.pop()


def grid_of(board: Board, placed: list[tuple[int, int]]) -> Grid:
    """The piece (of the file: copies alike) on every cell."""
    grid = [0] * len(board.cells)
    for piece_bit, mask in placed:
        piece = board.types[piece_bit.bit_length() - 1]
        while mask:
            low = mask & -mask
            grid[low.bit_length() - 1] = piece
            mask ^= low
    return tuple(grid)


def copies_of(board: Board, placed: list[tuple[int, int]]) -> Grid:
    """Which placed piece covers every cell (its place in `placed`)."""
    grid = [0] * len(board.cells)
    for k, (_, mask) in enumerate(placed):
        while mask:
            low = mask & -mask
            grid[low.bit_length() - 1] = k
            mask ^= low
    return tuple(grid)


def canonical(board: Board, grid: Grid, copies: Grid | None = None) -> tuple:
    """The least image of a solution under the board's symmetries: one per class. With copies
    of a piece (`copies`: which placed piece covers each cell), a cell's image is its piece and
    which of the pieces met so far covers it, so copies are told apart by where they lie."""
    if copies is None:
        return min(tuple(relabel[grid[i]] for i in perm) for perm, relabel in board.symmetries)
    images = []
    for perm, relabel in board.symmetries:
        met: dict[int, int] = {}
        images.append(tuple((relabel[grid[i]], met.setdefault(copies[i], len(met)))
                            for i in perm))
    return min(images)


def is_canonical(board: Board, placed: list[tuple[int, int]]) -> bool:
    """Whether a solution is its class's canonical form."""
    grid = grid_of(board, placed)
    if board.pieces == len(set(board.types)):  # every piece one of a kind
        return canonical(board, grid) == grid
    copies = copies_of(board, placed)
    met: dict[int, int] = {}
    own = tuple((grid[i], met.setdefault(copies[i], len(met))) for i in range(len(grid)))
    return canonical(board, grid, copies) == own


def _area_mismatch(puzzle: PackingPuzzle, board: Board) -> bool:
    """Whether the pieces, every copy counted (from the fewest to the most a solution uses),
    cannot cover the board's area."""
    least = sum(len(piece.cells) * piece.fewest for piece in puzzle.pieces)
    most = sum(len(piece.cells) * piece.count for piece in puzzle.pieces)
    return not least <= len(board.cells) <= most


# ---------------------------------------------------------------- the backend


class _Timeout(Exception):
    """The deadline passed during a search."""


def _counter(board: Board, deadline: float | None, classes: bool):
    """A search counting solutions (and, with `classes`, those that are their class's canonical
    form, one per class), checking the clock every few thousand nodes."""
    ticks = 0
    full = board.full
    found = [0, 0]

    def walk(filled: int, used: int, placed: list) -> None:
        nonlocal ticks
        ticks += 1
        if deadline is not None and not ticks & 4095 and time.time() > deadline:
            raise _Timeout
        if filled == full:
            if board.solved(used):
                found[0] += 1
                if classes:
                    found[1] += is_canonical(board, placed)
            return
        first = (~filled & (filled + 1)).bit_length() - 1
        for piece_bit, mask, need in board.starting_at[first]:
            if not used & piece_bit and not filled & mask and used & need == need:
                placed.append((piece_bit, mask))
                walk(filled | mask, used | piece_bit, placed)
                placed.pop()

    return walk, found


class ReferencePacking(Backend):
    """The independent backtracker: fills the first empty cell; classes by canonical forms."""

    name = "reference:packing"
    takes = "reference"
    about = "independent backtracker (bitmasks); classes by canonical forms, not Burnside"
    cubes_per_job = 16

    def solve(self, model: ReferenceModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        try:
            for grid in self.enumerate(model, (), 1, deadline):
                return Outcome(list(grid), time.perf_counter() - start)
        except _Timeout:
            return Outcome(None, time.perf_counter() - start, complete=False)
        return Outcome(None, time.perf_counter() - start)

    def enumerate(self, state, cube, limit, deadline: float | None = None):
        model: ReferenceModel = state
        board = model.board
        if model.area_mismatch:
            return
        found: list[Grid] = []

        class Enough(Exception):
            pass

        def keep(placed: list) -> None:
            found.append(grid_of(board, placed))
            if limit is not None and len(found) >= limit:
                raise Enough

        filled, used, placed = _cube_start(board, cube)
        try:
            _search(board, filled, used, list(placed), keep)
        except Enough:
            pass
        yield from found

    def count_cube(self, state, cube, deadline):
        model: ReferenceModel = state
        if model.area_mismatch:
            return (0, 0) if model.classes else (0,), True
        filled, used, placed = _cube_start(model.board, cube)
        walk, found = _counter(model.board, deadline, model.classes)
        finished = True
        try:
            walk(filled, used, list(placed))
        except _Timeout:
            finished = False
        return (tuple(found) if model.classes else (found[0],)), finished


@dataclass
class ReferenceModel:
    """What the reference solver works on: its own board, and whether to count classes."""

    board: Board
    classes: bool
    area_mismatch: bool


def model(puzzle: PackingPuzzle, group: str | None = None) -> ReferenceModel:
    """The reference's board; with a group ('symmetry' or 'rotation'), classes are counted
    under it too."""
    board = build(puzzle, group or "symmetry")
    return ReferenceModel(board, group is not None, _area_mismatch(puzzle, board))


def cubes(model: ReferenceModel, at_least: int) -> list[tuple[int, ...]]:
    """Branches of the search (the placement index at each of the first empty cells), at least
    `at_least` of them where the search is that wide; together they cover it once."""
    board = model.board
    found: list[tuple[int, ...]] = [()]
    while len(found) < at_least:
        deeper = []
        for cube in found:
            filled, used, _ = _cube_start(board, cube)
            if filled == board.full:
                deeper.append(cube)
                continue
            first = (~filled & (filled + 1)).bit_length() - 1
            for k, (piece_bit, mask, need) in enumerate(board.starting_at[first]):
                if not used & piece_bit and not filled & mask and used & need == need:
                    deeper.append((*cube, k))
        if deeper == found or not deeper:
            return deeper
        found = deeper
        if len(found[0]) > 3:
            break
    return found


def _cube_start(board: Board, cube: tuple[int, ...]) -> tuple[int, int, list]:
    filled = used = 0
    placed = []
    for piece_bit, mask in board.fixed:
        filled |= mask
        used |= piece_bit
        placed.append((piece_bit, mask))
    for k in cube:
        first = (~filled & (filled + 1)).bit_length() - 1
        piece_bit, mask, _ = board.starting_at[first][k]
        filled |= mask
        used |= piece_bit
        placed.append((piece_bit, mask))
    return filled, used, placed


def grid_cells(model: ReferenceModel, grid: Grid) -> dict[tuple[int, ...], int]:
    """A solution as piece index per board cell."""
    return dict(zip(model.board.cells, grid))
