"""The grids edge-matching tiles lie on: a class per grid owns all of its geometry.

A grid answers every geometric question the edge-matching code asks: the cells of a board, the
sides of a cell and the cell across each side, which sides face the board's outer border, the
turns of a tile, the symmetries of a board (its turns and mirror images about its centre), how
a board is typed as a picture, and where a cell lies in a drawing. The encoders, the tables of
the compiled counter, the exact cover, planted boards, the pictures and the play page ask the
puzzle's grid; the reference solver computes its geometry again, per grid, on purpose.

Conventions shared by every grid:
- a cell is (row, column), rows counted from the top, columns from the left, both from 0, as
  the packing lattice of the same name counts them (models/geometry.py: its pictures are read
  and written by that lattice);
- the sides of a cell are numbered clockwise from 0, and a tile lists its edges clockwise, so a
  tile turned r times clockwise shows its edge i on side (i + r) % sides (`rotated`);
- a symmetry of the board moves every cell and takes side s of each cell to side
  (t + s) % sides, or (t - s) % sides for a mirror image, with the same t on every cell.

The square grid: sides top, right, bottom, left. The triangle grid: rows of triangles pointing
up and down in turn, the one at (row, col) pointing up when row + col is even; an up triangle's
sides clockwise from its bottom are bottom, left, right, a down triangle's from its top are top,
right, left, so two touching sides always have the same number (the bottom of an up triangle
meets the top of the down triangle below it, a left side meets a left side).

To add a grid: subclass `EdgeGrid` (its sides, neighbours, corners, the lattice's turn and
mirror on whole-number points, a board picture), and add it to GRIDS. runners/README.md lists
the other parts (the reference's own geometry, the drawings).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import InputError
from ..geometry import lattice

Cell = tuple[int, int]
Point = tuple[int, int]  # whole-number coordinates of the grid's own lattice (scaled)


@dataclass(frozen=True)
class Motion:
    """A symmetry of a board: cell i (in the board's reading order) goes to cell `to[i]`; side
    s of every cell goes to side (turn + s) % sides, or (turn - s) % sides when `mirror`."""

    name: str
    to: tuple[int, ...]
    turn: int
    mirror: bool
    sides: int
    steps: int  # the rotation part, in the grid's smallest turns clockwise (after the mirror)
    full: int = 4  # the grid's turns in a full turn
    recolour: tuple[tuple[object, object], ...] = ()  # (edge, the edge it becomes), if any

    def side(self, s: int) -> int:
        return ((-s if self.mirror else s) + self.turn) % self.sides

    def colour(self, edge):
        for old, new in self.recolour:
            if old == edge:
                return new
        return edge

    def look(self, edges: tuple) -> tuple:
        """What a cell's edges (by side) show at the image cell."""
        out = [None] * self.sides
        for s, edge in enumerate(edges):
            out[self.side(s)] = self.colour(edge) if self.recolour else edge
        return tuple(out)

    @property
    def identity(self) -> bool:
        return (not self.mirror and self.turn % self.sides == 0 and not self.recolour
                and all(i == j for i, j in enumerate(self.to)))

    def then(self, other: Motion, name: str = "") -> Motion:
        """This motion followed by `other`."""
        sign = -1 if other.mirror else 1
        if other.mirror:  # mirror first, then turn: a turn before a mirror turns backwards
            steps = (other.steps - self.steps) % self.full
        else:
            steps = (self.steps + other.steps) % self.full
        colours = {}
        for edge in {e for pair in self.recolour + other.recolour for e in pair}:
            moved = other.colour(self.colour(edge))
            if moved != edge:
                colours[edge] = moved
        return Motion(name or f"{self.name}, then {other.name}",
                      tuple(other.to[j] for j in self.to),
                      (sign * self.turn + other.turn) % self.sides,
                      self.mirror != other.mirror, self.sides, steps, self.full,
                      tuple(sorted(colours.items())))

    def powers(self) -> list[Motion]:
        """The identity, this motion, its square, ... up to the last before the identity."""
        out = [Motion("identity", tuple(range(len(self.to))), 0, False, self.sides, 0,
                      self.full)]
        current = self
        while not current.identity:
            out.append(current)
            current = current.then(self)
            if len(out) > 2 * self.full * max(1, len(self.to)) * 24:
                raise AssertionError("a motion of a finite board never came back")
        return out


class EdgeGrid:
    """What every grid answers (see the module's docstring)."""

    name = ""
    sides = 0  # sides of a cell, also the turns of a tile
    turn_degrees = 0  # the lattice's smallest turn
    cell_kinds = 1  # cells of different shape or direction (a triangle's up and down): drawing
    lattice_name = ""  # the packing lattice whose cells and pictures these are
    bordered_order = "frame"  # the compiled counter's fill order on a board with a border rule
    side_words = ""  # the sides in the order a tile lists its edges (for messages, docs)
    rectangles = True  # a board may be given as rows x cols (else only as a picture)

    # ---- one cell
    def neighbour(self, cell: Cell, side: int) -> Cell:
        """The cell across a side (on the whole lattice, whether on the board or not)."""
        raise NotImplementedError

    def facing(self, side: int) -> int:
        """The side of the neighbour across `side` that touches it."""
        raise NotImplementedError

    def corners(self, cell: Cell) -> tuple[Point, ...]:
        """The cell's corners clockwise, side s running from corner s to corner s + 1."""
        raise NotImplementedError

    def side_names(self, cell: Cell) -> tuple[str, ...]:
        raise NotImplementedError

    def kind(self, cell: Cell) -> int:
        """Which shape of cell (0 .. cell_kinds - 1): a drawing draws each kind its own way."""
        return 0

    # ---- the lattice's motions on whole-number points, about the origin
    def turn_point(self, p: Point) -> Point:
        """p turned clockwise by `turn_degrees`."""
        raise NotImplementedError

    def mirror_point(self, p: Point) -> Point:
        """p mirrored in the vertical axis."""
        raise NotImplementedError

    def xy(self, p: Point) -> tuple[float, float]:
        """Drawing coordinates of a point, in lengths of a side, y growing downwards."""
        raise NotImplementedError

    # ---- boards
    def rectangle(self, rows: int, cols: int) -> tuple[Cell, ...]:
        """The cells of a board given by rows and columns, in reading order."""
        return tuple((r, c) for r in range(rows) for c in range(cols))

    def read_picture(self, text: str) -> tuple[Cell, ...]:
        """A board typed as a picture, read by the packing lattice of the same cells (a
        PictureError names the line, from 0, of a misplaced cell), moved to row 0, column 0."""
        return self.normalise(lattice(self.lattice_name).picture_cells(text))

    def cells_by_character(self, text: str) -> dict[Cell, Cell]:
        """Each cell of a board typed as a picture (`read_picture`), keyed by where its
        character stands in the picture (row, column from 0): the picture is read up to a
        lattice vector, so a clue typed by its character's place may name another cell."""
        grid = lattice(self.lattice_name)
        shift = grid.picture_shift(text)
        drawn = sorted((r, c - shift) for r, c in grid.picture_cells(text))
        return dict(zip(drawn, self.read_picture(text)))

    def picture(self, cells: tuple[Cell, ...]) -> str:
        """The board as the picture `read_picture` reads."""
        return lattice(self.lattice_name).picture(cells)

    def normalise(self, cells: list[Cell]) -> tuple[Cell, ...]:
        """The cells moved by a lattice translation to touch row 0 and column 0 (or 1 where
        the cells' kinds allow no closer), in reading order."""
        if not cells:
            return ()
        dr = min(r for r, _ in cells)
        dc = min(c for _, c in cells)
        dc -= self.column_parity(dr, dc)
        return tuple(sorted((r - dr, c - dc) for r, c in cells))

    def column_parity(self, dr: int, dc: int) -> int:
        """How much less than dc columns a shift by dr rows must move to be a translation."""
        return 0

    def rings(self, board: Board) -> list[list[Cell]]:
        """The board's cells ring by ring from the border in, each ring clockwise."""
        return _rings_by_angle(board)

    def seam_name(self, cell: Cell, side: int) -> str:
        """A name for the seam on a side of a cell (the exact cover's secondary items)."""
        return f"e{cell[0] + 1}.{cell[1] + 1}.{side + 1}"

    def turn_name(self, steps: int) -> str:
        return "identity" if steps % (360 // self.turn_degrees) == 0 else (
            f"rotate {steps * self.turn_degrees % 360}")

    def rotation_degrees(self, rotation: int) -> int:
        """A tile's turn in degrees clockwise."""
        return rotation % self.sides * 360 // self.sides

    def centre(self, cell: Cell) -> Point:
        """The cell's centre, times the number of its corners (whole numbers)."""
        points = self.corners(cell)
        return (sum(p[0] for p in points), sum(p[1] for p in points))


def _rings_by_angle(board: Board) -> list[list[Cell]]:
    """Rings by distance (in steps across sides) from the cells on the border, each ring in
    clockwise order of angle about the board's centre, starting at the top left."""
    import math

    grid = board.grid
    depth: dict[Cell, int] = {c: 0 for c in board.cells if any(board.border(c))}
    frontier = list(depth)
    while frontier:
        after = []
        for cell in frontier:
            for side in range(grid.sides):
                other = grid.neighbour(cell, side)
                if other in board.index and other not in depth:
                    depth[other] = depth[cell] + 1
                    after.append(other)
        frontier = after
    sx = sum(centre_xy(grid, c)[0] for c in board.cells) / len(board.cells)
    sy = sum(centre_xy(grid, c)[1] for c in board.cells) / len(board.cells)

    def clockwise(cell: Cell) -> float:
        x, y = centre_xy(grid, cell)
        angle = math.atan2(y - sy, x - sx)  # y down: growing angles go clockwise
        return (angle - math.atan2(-1, -1)) % (2 * math.pi)

    rings: list[list[Cell]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for cell in board.cells:
        rings[depth.get(cell, 0)].append(cell)
    return [sorted(ring, key=clockwise) for ring in rings if ring]


def centre_xy(grid: EdgeGrid, cell: Cell) -> tuple[float, float]:
    """Drawing coordinates of a cell's centre (the mean of its corners)."""
    points = [grid.xy(p) for p in grid.corners(cell)]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


class SquareGrid(EdgeGrid):
    """Square cells; sides top, right, bottom, left."""

    name = "square"
    lattice_name = "square"
    sides = 4
    turn_degrees = 90
    side_words = "top right bottom left"
    STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # the neighbour across top, right, bottom, left

    def neighbour(self, cell: Cell, side: int) -> Cell:
        dr, dc = self.STEPS[side]
        return (cell[0] + dr, cell[1] + dc)

    def facing(self, side: int) -> int:
        return (side + 2) % 4

    def seam_name(self, cell: Cell, side: int) -> str:
        """'h1.2' right of r1c2, 'v1.2' below it (the seam's cell is its top or left one)."""
        r, c = cell if side in (1, 2) else self.neighbour(cell, side)
        return f"{'h' if side % 2 else 'v'}{r + 1}.{c + 1}"

    def corners(self, cell: Cell) -> tuple[Point, ...]:
        r, c = cell  # x right, y up
        return ((c, -r), (c + 1, -r), (c + 1, -r - 1), (c, -r - 1))

    def side_names(self, cell: Cell) -> tuple[str, ...]:
        return ("top", "right", "bottom", "left")

    def turn_point(self, p: Point) -> Point:
        return (p[1], -p[0])

    def mirror_point(self, p: Point) -> Point:
        return (-p[0], p[1])

    def xy(self, p: Point) -> tuple[float, float]:
        return (float(p[0]), float(-p[1]))

    def rings(self, board: Board) -> list[list[Cell]]:
        """Rings of a rectangle walked clockwise from each ring's top left (the innermost may
        be a block of one or two rows or columns); other boards by angle."""
        if len(board.cells) != board.rows * board.cols:
            return _rings_by_angle(board)
        rows, cols = board.rows, board.cols
        rings = []
        for k in range((min(rows, cols) + 1) // 2):
            top, left, bottom, right = k, k, rows - 1 - k, cols - 1 - k
            walk = [(top, c) for c in range(left, right + 1)]
            walk += [(r, right) for r in range(top + 1, bottom + 1)]
            walk += [(bottom, c) for c in range(right - 1, left - 1, -1)]
            walk += [(r, left) for r in range(bottom - 1, top, -1)]
            rings.append(list(dict.fromkeys(walk)))
        return rings


class TriangleGrid(EdgeGrid):
    """Triangles pointing up and down in turn along each row; (row, col) points up when
    row + col is even. Sides clockwise: up (bottom, left, right), down (top, right, left)."""

    name = "triangle"
    sides = 3
    turn_degrees = 60
    cell_kinds = 2
    lattice_name = "triangular"
    # measured by Knuth's estimate (20,000 paths) on MacMahon's triangles in the hexagon: ring
    # by ring from the border in 1.1e9 nodes, the border ring then row by row 6.3e9
    bordered_order = "rings"
    rectangles = False  # rows x cols of triangles is no board a page describes: a picture
    side_words = "clockwise: bottom left right on a triangle pointing up"

    def column_parity(self, dr: int, dc: int) -> int:
        return (dr + dc) % 2  # a translation keeps every triangle's direction

    def up(self, cell: Cell) -> bool:
        return (cell[0] + cell[1]) % 2 == 0

    def kind(self, cell: Cell) -> int:
        return 0 if self.up(cell) else 1

    def neighbour(self, cell: Cell, side: int) -> Cell:
        r, c = cell
        if self.up(cell):
            return ((r + 1, c), (r, c - 1), (r, c + 1))[side]
        return ((r - 1, c), (r, c + 1), (r, c - 1))[side]

    def facing(self, side: int) -> int:
        return side

    def corners(self, cell: Cell) -> tuple[Point, ...]:
        # Points are a*e1 + b*e2 with e1 one side to the right and e2 one side up and half a
        # side to the right (60 degrees), both a and b doubled to stay whole: a row of
        # triangles lies between b = -2 row and b = -2 (row + 1); x = (a + b / 2) / 2.
        r, c = cell
        top, bottom = -2 * r, -2 * (r + 1)

        def at(x2: int, b: int) -> Point:  # x2: twice x
            return (x2 - b // 2, b)

        if self.up(cell):  # bottom right, bottom left, apex
            return (at(c + 2, bottom), at(c, bottom), at(c + 1, top))
        return (at(c, top), at(c + 2, top), at(c + 1, bottom))  # top left, top right, apex

    def side_names(self, cell: Cell) -> tuple[str, ...]:
        return ("bottom", "left", "right") if self.up(cell) else ("top", "right", "left")

    def turn_point(self, p: Point) -> Point:
        a, b = p  # clockwise by 60 degrees: e1 -> e1 - e2, e2 -> e1
        return (a + b, -a)

    def mirror_point(self, p: Point) -> Point:
        a, b = p  # e1 -> -e1, e2 -> e2 - e1
        return (-a - b, b)

    def xy(self, p: Point) -> tuple[float, float]:
        a, b = p
        return ((a + b / 2) / 2, -b / 2 * 0.8660254037844386)


SQUARE = SquareGrid()
TRIANGLE = TriangleGrid()
GRIDS: dict[str, EdgeGrid] = {g.name: g for g in (SQUARE, TRIANGLE)}


def grid_named(name: str) -> EdgeGrid:
    """The grid of that name; InputError (field 'grid') naming an unknown one."""
    found = GRIDS.get(name)
    if found is None:
        raise InputError(f"unknown edge-matching grid {name!r} (one of: {', '.join(GRIDS)})",
                         field="grid")
    return found


class Board:
    """The cells of one board on a grid, and what follows from them: each cell's number in
    reading order, which sides face the border, the touching pairs, the symmetries."""

    def __init__(self, grid: EdgeGrid, cells: tuple[Cell, ...]) -> None:
        self.grid = grid
        self.cells = tuple(sorted(cells))
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.rows = max((r for r, _ in self.cells), default=-1) + 1
        self.cols = max((c for _, c in self.cells), default=-1) + 1
        self._motions: dict[bool, list[Motion]] = {}

    def __len__(self) -> int:
        return len(self.cells)

    def border(self, cell: Cell) -> tuple[bool, ...]:
        """For each side of a cell: does it face the outer border (no board cell across)?"""
        return tuple(self.grid.neighbour(cell, s) not in self.index for s in range(self.grid.sides))

    def across(self, cell: Cell, side: int) -> Cell | None:
        """The board's cell across a side, None on the border."""
        other = self.grid.neighbour(cell, side)
        return other if other in self.index else None

    @property
    def pairs(self) -> list[tuple[Cell, Cell, int]]:
        """Touching cells (a, b, side of a that b touches), each pair once, a before b in
        reading order."""
        out = []
        for cell in self.cells:
            for side in range(self.grid.sides):
                other = self.across(cell, side)
                if other is not None and other > cell:
                    out.append((cell, other, side))
        return out

    def border_count(self) -> int:
        return sum(sum(self.border(cell)) for cell in self.cells)

    def motions(self, mirror: bool = False) -> list[Motion]:
        """The lattice's turns (and with `mirror` its mirror images) about the board's centre
        that map the board onto itself, the identity first, turns before mirror images."""
        if mirror not in self._motions:
            self._motions[mirror] = _motions(self, mirror)
        return self._motions[mirror]

    def turns(self) -> tuple[int, ...]:
        """The rotation steps (clockwise, in the grid's smallest turns) that keep the board."""
        return tuple(m.steps for m in self.motions())

    def turn(self, steps: int) -> Motion:
        """The board's turn by `steps` of the grid's smallest turn (ValueError if it does not
        map the board onto itself)."""
        full = 360 // self.grid.turn_degrees
        for motion in self.motions():
            if motion.steps == steps % full:
                return motion
        raise ValueError(f"a turn by {steps * self.grid.turn_degrees} degrees does not map "
                         "the board onto itself")


def _motions(board: Board, mirror: bool) -> list[Motion]:
    grid = board.grid
    n = len(board.cells)
    if n == 0:
        return [Motion("identity", (), 0, False, grid.sides, 0, 360 // grid.turn_degrees)]
    centres = [grid.centre(c) for c in board.cells]
    total = (sum(p[0] for p in centres), sum(p[1] for p in centres))
    where = {p: i for i, p in enumerate(centres)}
    found = []
    full = 360 // grid.turn_degrees
    for flip in (False, True) if mirror else (False,):
        for steps in range(full):
            to = []
            for p in centres:
                image = _image(p, steps, flip, grid, n, total)
                if image not in where:
                    break
                to.append(where[image])
            else:
                turn = _side_turn(board, to, steps, flip)
                axis = (90 - steps * grid.turn_degrees / 2) % 180
                name = (f"mirror (axis at {axis:g} degrees)" if flip else
                        grid.turn_name(steps))
                found.append(Motion(name, tuple(to), turn, flip, grid.sides, steps, full))
    return found


def _image(p: Point, steps: int, flip: bool, grid: EdgeGrid, n: int, total: Point) -> Point:
    """The image of a centre (times its corner count, like `total`) about the board's centre:
    n p' = R(n p - total) + total, kept whole (None-free: a key that is no centre if the
    division is not exact)."""
    q = (n * p[0] - total[0], n * p[1] - total[1])
    if flip:
        q = grid.mirror_point(q)
    for _ in range(steps):
        q = grid.turn_point(q)
    x, y = q[0] + total[0], q[1] + total[1]
    if x % n or y % n:
        return (10**18, 10**18)  # not a whole point: no cell there
    return (x // n, y // n)


def _side_turn(board: Board, to: list[int], steps: int, flip: bool) -> int:
    """The t of the motion's side map s -> (t +/- s) % sides, read from the corners and
    checked on every cell (a grid whose sides do not follow this rule is a bug)."""
    grid = board.grid
    n = len(board.cells)
    k = len(grid.corners(board.cells[0]))
    centres = [grid.centre(c) for c in board.cells]
    total = (sum(p[0] for p in centres), sum(p[1] for p in centres))
    turn = None
    for i, cell in enumerate(board.cells):
        image = board.cells[to[i]]
        mids = {}
        for s in range(grid.sides):
            a, b = grid.corners(image)[s], grid.corners(image)[(s + 1) % grid.sides]
            mids[(k * (a[0] + b[0]), k * (a[1] + b[1]))] = s
        for s in range(grid.sides):
            a, b = grid.corners(cell)[s], grid.corners(cell)[(s + 1) % grid.sides]
            # a side's midpoint times 2k, moved like a centre times k (the same affine map)
            p = (k * (a[0] + b[0]), k * (a[1] + b[1]))
            q = _image(p, steps, flip, grid, n, (2 * total[0], 2 * total[1]))
            s2 = mids[q]
            t = (s2 + s) % grid.sides if flip else (s2 - s) % grid.sides
            if turn is None:
                turn = t
            elif t != turn:
                raise AssertionError(f"{grid.name} grid: a symmetry moves the sides of "
                                     "different cells differently")
    return turn or 0


@lru_cache(maxsize=64)
def board_of(grid_name: str, rows: int, cols: int, shape: tuple[Cell, ...]) -> Board:
    grid = grid_named(grid_name)
    return Board(grid, shape if shape else grid.rectangle(rows, cols))
