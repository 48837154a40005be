"""Pure geometry of lattice shapes: pictures, orientations and the symmetries of a board.

A cell is a tuple of coordinates on a lattice: (row, column) on the square lattice, (layer, row,
column) on the cubic one (layer 0 at the bottom; each layer is drawn as a picture seen from
above, rows downwards). A `Lattice` supplies the two groups everything else asks for: the
orientations of a piece (its rotations, and its mirror images where pieces may be turned over
in the plane; in 3D a mirror image is another piece) and the symmetries of a board as maps of
coordinates. `SQUARE` and `CUBIC` are the lattices; `lattice(name)` finds one by name.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

Cell = tuple[int, ...]  # coordinates on a lattice: (row, column), or (layer, row, column)
Shape = tuple[Cell, ...]  # sorted cells, normalised so every coordinate's minimum is 0

FILLED = "X"
EMPTY = "."


def picture_cells(rows: Iterable[str]) -> list[Cell]:
    """The cells marked 'X' in a picture given as rows of 'X' and '.'."""
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == FILLED]


def fill_order(cells: Iterable[Cell]) -> list[Cell]:
    """Cells in the order a search fills them: along the board's shorter sides first.

    Filling a wide board column by column keeps the frontier of empty cells short: the
    coordinate of the longest extent varies slowest (on a tie, the earlier coordinate).
    """
    cells = list(cells)
    extent = [max(axis) + 1 for axis in zip(*cells)]
    slowest = sorted(range(len(extent)), key=lambda i: -extent[i])
    return sorted(cells, key=lambda p: tuple(p[i] for i in slowest))


def normalise(cells: Iterable[Cell]) -> Shape:
    """Translate cells so the smallest value of every coordinate is 0; sorted."""
    cells = list(cells)
    low = [min(axis) for axis in zip(*cells)]
    return tuple(sorted(tuple(x - x0 for x, x0 in zip(cell, low)) for cell in cells))


def rotate(cells: Iterable[Cell]) -> list[Cell]:
    """A quarter turn clockwise (about the origin)."""
    return [(c, -r) for r, c in cells]


def reflect(cells: Iterable[Cell]) -> list[Cell]:
    """A mirror image left to right (about the origin)."""
    return [(r, -c) for r, c in cells]


def orientations(cells: Iterable[Cell], flip: bool) -> list[Shape]:
    """The distinct orientations of a shape: 4 rotations, and their mirror images if flip."""
    cells = list(cells)
    found: list[Shape] = []
    for start in [cells, reflect(cells)] if flip else [cells]:
        current = start
        for _ in range(4):
            shape = normalise(current)
            if shape not in found:
                found.append(shape)
            current = rotate(current)
    return found


def shape_picture(cells: Iterable[Cell]) -> list[str]:
    """Rows of 'X' and '.' drawing a shape (the inverse of picture_cells)."""
    shape = normalise(cells)
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    grid = [[EMPTY] * width for _ in range(height)]
    for r, c in shape:
        grid[r][c] = FILLED
    return ["".join(row) for row in grid]


Transform = Callable[[Cell], Cell]

# The eight symmetries of a rectangle of height h and width w, as maps of (row, column).
# Quarter turns and diagonal mirrors exist only on a square.
SYMMETRY_NAMES = (
    "identity",
    "rotate 90",
    "rotate 180",
    "rotate 270",
    "mirror left-right",
    "mirror top-bottom",
    "mirror diagonal",
    "mirror anti-diagonal",
)


def rectangle_symmetry(
    name: str, top: int, left: int, bottom: int, right: int
) -> Transform | None:
    """A named symmetry of the rectangle with corners (top, left) and (bottom, right), or None
    where it does not map that rectangle to itself. The rectangle need not start at (0, 0): a
    board drawn with an empty margin keeps its symmetries."""
    h, w = bottom - top, right - left
    square = h == w

    def shifted(f: Callable[[int, int], Cell]) -> Transform:
        # the symmetry of the rectangle at (0, 0), applied about the board's own corner
        return lambda p: (lambda q: (q[0] + top, q[1] + left))(f(p[0] - top, p[1] - left))

    table: dict[str, tuple[bool, Transform]] = {
        "identity": (True, lambda p: p),
        "rotate 90": (square, shifted(lambda r, c: (c, w - r))),
        "rotate 180": (True, shifted(lambda r, c: (h - r, w - c))),
        "rotate 270": (square, shifted(lambda r, c: (h - c, r))),
        "mirror left-right": (True, shifted(lambda r, c: (r, w - c))),
        "mirror top-bottom": (True, shifted(lambda r, c: (h - r, c))),
        "mirror diagonal": (square, shifted(lambda r, c: (c, r))),
        "mirror anti-diagonal": (square, shifted(lambda r, c: (w - c, h - r))),
    }
    exists, transform = table[name]
    return transform if exists else None


def is_reflection(name: str) -> bool:
    """Whether a named symmetry turns shapes over (needs pieces that may be flipped)."""
    return name.startswith("mirror")


def board_symmetries(cells: Iterable[Cell], flip: bool) -> list[tuple[str, Transform]]:
    """The symmetries of the board's bounding rectangle that map its cells onto themselves.

    Mirror images are symmetries of the puzzle only when pieces may be flipped.
    """
    cells = set(cells)
    top, bottom = min(r for r, _ in cells), max(r for r, _ in cells)
    left, right = min(c for _, c in cells), max(c for _, c in cells)
    group = []
    for name in SYMMETRY_NAMES:
        if is_reflection(name) and not flip:
            continue
        transform = rectangle_symmetry(name, top, left, bottom, right)
        if transform is not None and {transform(p) for p in cells} == cells:
            group.append((name, transform))
    return group


# ---------------------------------------------------------------- lattices


@dataclass(frozen=True)
class Motion:
    """A symmetry of the square or cubic lattice about the origin, a signed permutation of the
    coordinates: image[i] = sign[i] * cell[axis[i]]. Proper motions (rotations) keep a shape's
    handedness; the others mirror it."""

    axis: tuple[int, ...]
    sign: tuple[int, ...]

    def __call__(self, cell: Cell) -> Cell:
        return tuple(s * cell[a] for a, s in zip(self.axis, self.sign))

    @property
    def proper(self) -> bool:
        inversions = sum(a > b for a, b in itertools.combinations(self.axis, 2))
        negative = sum(s < 0 for s in self.sign)
        return (inversions + negative) % 2 == 0

    def name(self, letters: str) -> str:
        """The motion as a map of coordinates, e.g. '(l,r,c) -> (l,c,-r)'."""
        image = ",".join(("-" if s < 0 else "") + letters[a] for a, s in zip(self.axis, self.sign))
        return f"({','.join(letters)}) -> ({image})"


def motions(dimensions: int) -> list[Motion]:
    """Every signed permutation of the coordinates (the symmetries of a square or cube about
    its centre), the identity first: 8 in the plane, 48 in space."""
    found = [Motion(axis, sign)
             for axis in itertools.permutations(range(dimensions))
             for sign in itertools.product((1, -1), repeat=dimensions)]
    return found


class Lattice:
    """A lattice: the dimension of its cells, the orientations of a piece, the symmetries of a
    board. Subclasses are the lattices themselves (square, cubic)."""

    name: str
    dimensions: int
    letters: str  # a letter per coordinate, for names of symmetries and cells

    def orientations(self, cells: Iterable[Cell], flip: bool) -> list[Shape]:
        """The distinct orientations of a piece, its own first: rotations, and mirror images
        where `flip` (pieces turned over in the plane)."""
        raise NotImplementedError

    def mirror(self, cells: Iterable[Cell]) -> list[Cell]:
        """A mirror image of a shape."""
        return [(*cell[:-1], -cell[-1]) for cell in cells]

    def group_order(self, flip: bool) -> int:
        """At most how many orientations a piece has: the rotations, with their mirror images
        where `flip`."""
        raise NotImplementedError

    def board_symmetries(self, cells: Iterable[Cell], mirror: bool
                         ) -> list[tuple[str, Transform]]:
        """The symmetries of the board's bounding box that map its cells onto themselves, the
        identity first: its rotations, and its mirror images where `mirror`."""
        raise NotImplementedError

    def is_reflection(self, name: str) -> bool:
        """Whether a board symmetry (by its name) mirrors shapes."""
        raise NotImplementedError

    def adjacent(self, cell: Cell) -> list[Cell]:
        """The cells sharing a face with a cell (a unit step along one axis)."""
        return [(*cell[:axis], cell[axis] + step, *cell[axis + 1:])
                for axis in range(len(cell)) for step in (-1, 1)]

    def connected(self, cells: Iterable[Cell]) -> bool:
        """Whether a shape is one piece: every cell reached from any other through faces."""
        left = set(cells)
        if not left:
            return True
        reached = [left.pop()]
        while reached:
            for next_cell in self.adjacent(reached.pop()):
                if next_cell in left:
                    left.remove(next_cell)
                    reached.append(next_cell)
        return not left

    def cell_name(self, cell: Cell) -> str:
        """A cell as written in exported files: 'r2c3', 'l0r2c3'."""
        return "".join(f"{letter}{x}" for letter, x in zip(self.letters, cell))


class SquareLattice(Lattice):
    """The square grid: cells (row, column); 4 rotations, 8 symmetries with mirror images."""

    name = "square"
    dimensions = 2
    letters = "rc"

    def orientations(self, cells: Iterable[Cell], flip: bool) -> list[Shape]:
        return orientations(cells, flip)

    def mirror(self, cells: Iterable[Cell]) -> list[Cell]:
        return reflect(cells)

    def group_order(self, flip: bool) -> int:
        return 8 if flip else 4

    def board_symmetries(self, cells: Iterable[Cell], mirror: bool
                         ) -> list[tuple[str, Transform]]:
        return board_symmetries(cells, mirror)

    def is_reflection(self, name: str) -> bool:
        return is_reflection(name)


class CubicLattice(Lattice):
    """The cubic grid: cells (layer, row, column); 24 rotations, 48 symmetries with mirror
    images. A physical piece turns by the 24 rotations only: its mirror image is another piece
    (a chiral piece cannot be turned inside out)."""

    name = "cubic"
    dimensions = 3
    letters = "lrc"

    def __init__(self) -> None:
        self.motions = motions(3)
        self.rotations = [m for m in self.motions if m.proper]

    def orientations(self, cells: Iterable[Cell], flip: bool) -> list[Shape]:
        cells = list(cells)
        found: dict[Shape, None] = {}
        for motion in self.motions if flip else self.rotations:
            found.setdefault(normalise(motion(cell) for cell in cells))
        return list(found)

    def group_order(self, flip: bool) -> int:
        return len(self.motions if flip else self.rotations)

    def board_symmetries(self, cells: Iterable[Cell], mirror: bool
                         ) -> list[tuple[str, Transform]]:
        cells = set(cells)
        low = [min(axis) for axis in zip(*cells)]
        high = [max(axis) for axis in zip(*cells)]
        size = [h - lo for h, lo in zip(high, low)]
        group = []
        for motion in self.motions if mirror else self.rotations:
            if any(size[a] != size[i] for i, a in enumerate(motion.axis)):
                continue  # the box turned does not fill its own place

            def transform(cell: Cell, motion: Motion = motion) -> Cell:
                moved = motion(tuple(x - x0 for x, x0 in zip(cell, low)))
                return tuple(x0 + (x if s > 0 else size[i] + x)
                             for i, (x, x0, s) in enumerate(zip(moved, low, motion.sign)))

            if {transform(p) for p in cells} == cells:
                kind = "rotate" if motion.proper else "mirror"
                name = f"{kind} {motion.name(self.letters)}" if group else "identity"
                group.append((name, transform))
        return group

    def is_reflection(self, name: str) -> bool:
        return name.startswith("mirror")


SQUARE = SquareLattice()
CUBIC = CubicLattice()
LATTICES = {lattice.name: lattice for lattice in (SQUARE, CUBIC)}


def lattice(name: str) -> Lattice:
    """The lattice of a name ('square', 'cubic')."""
    return LATTICES[name]
