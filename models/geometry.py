"""Pure geometry of lattice shapes: a `Lattice` answers every geometric question the code asks.

A cell is a tuple of whole numbers on a lattice: (row, column) on the square lattice, (layer, row,
column) on the cubic one (layer 0 at the bottom; each layer is drawn as a picture seen from
above, rows downwards). A `Lattice` owns all of its geometry (after BurrTools' grid types and
Polyform Puzzler's coordinate classes):
- its cells and its own picture format, read and written (`picture_cells`, `picture`);
- translation by lattice vectors only (`translation`, `translate`, `normalise`);
- neighbours (`adjacent`: the dead-region pruning's `Regions` is built from them);
- the orientations of a piece, with and without turning it over (`orientations`, `mirror`);
- the symmetries of a board about its centre, a cell, a vertex or an edge's midpoint
  (`board_symmetries`, named);
- what a drawing needs: each cell's outline polygon in the plane, or its centre in space, and
  where its mark goes in a drawing as text;
- its `capabilities`: which drawings and files it has ('plane': drawn flat and played on the
  page; 'space': the 3D page; 'stl': files to print).
`LATTICES` holds them by name; `lattice(name)` finds one and refuses an unknown name with an
error naming it, never another lattice's behaviour. runners/README.md (Lattices) lists what a
new lattice writes.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from .errors import InputError
from .words import plural

Cell = tuple[int, ...]  # coordinates on a lattice: (row, column), or (layer, row, column)
Shape = tuple[Cell, ...]  # sorted cells, normalised: moved by a lattice vector to the origin
Transform = Callable[[Cell], Cell]

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


# ---------------------------------------------------------------- pictures


class PictureError(ValueError):
    """A picture that cannot be read: what is wrong, and on which line of its text (counted
    from 0 in the text as given; None for the picture as a whole). Readers add the file.

    A place in a picture is said as a cell is written, [row, column] from 0 (models/README.md:
    the row and the column of its character after the picture's common indentation), a layer
    of a solid as its first coordinate, from 0 too."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def place(row: int, column: int) -> str:
    """A character's place in a picture, as its cell is written: [row, column] from 0."""
    return f"[{row}, {column}] (row and column from 0, as cells are written)"


def picture_rows(text: str, allowed: str = "X.") -> tuple[str, ...]:
    """The rows of a picture written as a multi-line string, exactly as drawn.

    Every character counts: a row is never shifted. Rows may be indented all alike (the common
    indentation is dropped), but a row indented differently from the others is refused, as is a
    blank in the middle of a row or a blank line between rows (draw cells outside the board or
    piece as '.'). Rows may differ in length: the cells missing at the end of a shorter row are
    holes, as if drawn with '.'. Blank lines before the first row and after the last are ignored.
    """
    raw = [row.rstrip() for row in text.split("\n")]
    drawn = [i for i, row in enumerate(raw) if row]
    if not drawn:
        raise PictureError(f"the picture has no cell marked {allowed[0]!r}")
    indents = {i: raw[i][: len(raw[i]) - len(raw[i].lstrip())] for i in drawn}
    indent = indents[drawn[0]]
    rows = []
    for i in range(drawn[0], drawn[-1] + 1):
        row = raw[i]
        if not row:
            raise PictureError(
                "a blank line inside the picture: draw an empty row as '.' "
                "(or remove the line)", i)
        if indents[i] != indent:
            raise PictureError(
                f"row {i - drawn[0]} of the picture (from 0) starts with {len(indents[i])} "
                f"blank(s) but row 0 with {len(indent)}: leading blanks would shift the row; "
                "draw cells outside the picture as '.'", i)
        row = row[len(indent):]
        bad_characters = [ch for ch in row if ch not in allowed]
        if bad_characters:
            raise PictureError(
                f"unexpected character {bad_characters[0]!r} in a picture "
                f"(use {' and '.join(map(repr, allowed))}; a blank is not a hole, '.' is)", i)
        rows.append(row)
    if not any(ch == allowed[0] for row in rows for ch in row):
        raise PictureError(f"the picture has no cell marked {allowed[0]!r}")
    return tuple(rows)


LAYER_SEPARATOR = re.compile(r"^\s*-+\s*$")


def layer_pictures(text: str, allowed: str = "X.") -> tuple[tuple[str, ...], ...]:
    """The layers of a solid drawn as pictures one after another, the bottom layer first,
    separated by lines of dashes ('---'); each layer is read as `picture_rows` reads a picture
    (errors at the line of the layer's row)."""
    lines = text.split("\n")
    layers, start = [], 0
    for i, line in enumerate([*lines, "-"]):
        if LAYER_SEPARATOR.match(line):
            chunk = "\n".join(lines[start:i])
            if not chunk.strip():
                raise PictureError(f"layer {len(layers)} (from 0, the bottom layer 0) is empty: "
                                   "draw it with '.', or remove the extra line of dashes", i)
            try:
                layers.append(picture_rows(chunk, allowed))
            except PictureError as error:
                line = None if error.line is None else error.line + start
                raise PictureError(error.message, line) from None
            start = i + 1
    return tuple(layers)


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



def layered_cells(text: str) -> list[Cell]:
    """The cells (layer, row, column) of a solid drawn as layers (`layer_pictures`)."""
    return [(layer, r, c) for layer, rows in enumerate(layer_pictures(text))
            for r, c in picture_cells(rows)]


def layered_picture(cells: Iterable[Cell]) -> str:
    """A solid's cells (layer, row, column) drawn as layers, bottom first, each from row 0 and
    column 0 of the cells' least (read back by `layered_cells`)."""
    shape = normalise(cells)
    rows = 1 + max(r for _, r, _ in shape)
    columns = 1 + max(c for _, _, c in shape)
    layers = []
    for layer in range(1 + max(lay for lay, _, _ in shape)):
        on = {(r, c) for lay, r, c in shape if lay == layer}
        layers.append("\n".join("".join(FILLED if (r, c) in on else EMPTY
                                        for c in range(columns)) for r in range(rows)))
    return "\n---\n".join(layers)


# ---------------------------------------------------------------- the lattice interface


class Lattice(ABC):
    """A lattice: its cells and pictures, translations, neighbours, orientations, the
    symmetries of a board, and what its drawings need. Subclasses are the lattices themselves;
    a method left abstract makes a lattice impossible to build, and tests/test_lattices.py
    checks that the parts kept elsewhere (the reference solver's own geometry, the drawings)
    exist for every lattice in `LATTICES`."""

    name: str
    dimensions: int  # coordinates per cell
    letters: str  # a letter per coordinate, for names of symmetries and cells
    coordinates: str  # how a cell is written, for messages: '[row, column]'
    cell_rule: str = ""  # which of those are cells, where not all are: ' with row + column even'
    cell_noun: str  # what a cell is called: 'square', 'cube', 'triangle', 'hexagon'
    capabilities: frozenset[str] = frozenset()  # 'plane', 'space', 'stl' (see the module)
    flip_note: str = ""  # why `flip` does not apply on this lattice, where it does not
    connected_pieces: bool = False  # a piece in parts is refused (balls are glued together)

    # -- cells and pictures

    def is_cell(self, cell: tuple) -> bool:
        """Whether a tuple of whole numbers is a cell of the lattice."""
        return len(cell) == self.dimensions and all(type(x) is int for x in cell)

    @abstractmethod
    def picture_cells(self, text: str) -> list[Cell]:
        """The cells of a picture in the lattice's own format (PictureError where it cannot be
        read: a character out of place, a cell where none can be)."""

    @abstractmethod
    def picture(self, cells: Iterable[Cell]) -> str:
        """A picture of cells in the lattice's own format (read back by `picture_cells` as the
        same cells, moved by a lattice vector)."""

    def picture_shift(self, text: str) -> int:
        """How many columns right of their characters a picture's cells are read (0 here; 1
        on the triangles' and hexagons' pictures whose first cell would otherwise break the
        lattice's rule), for readers that name a cell typed where its character stands."""
        return 0

    def meant(self, picture: object, cell: Cell, board: Collection[Cell]) -> Cell | None:
        """The board's cell a user meant who typed `cell` (not on the board) by the column of
        its character in the board's picture, where that picture is read to the right of its
        characters (`picture_shift`); None where that is not so."""
        if not isinstance(picture, str) or len(cell) != 2:
            return None
        shift = self.picture_shift(picture)
        moved = (cell[0], cell[1] + shift)
        return moved if shift and moved in board else None

    # -- translation by lattice vectors

    def translation(self, source: Cell, target: Cell) -> Cell | None:
        """The lattice vector that moves cell `source` onto cell `target`, or None where no
        translation of the lattice does (a triangle pointing up never lands on one pointing
        down). Cells are moved by adding a vector to their coordinates."""
        return tuple(t - s for s, t in zip(source, target))

    def translate(self, cells: Iterable[Cell], vector: Cell) -> list[Cell]:
        """Cells moved by a lattice vector (one that `translation` gives)."""
        return [tuple(map(operator.add, cell, vector)) for cell in cells]

    @abstractmethod
    def normalise(self, cells: Iterable[Cell]) -> Shape:
        """The cells moved by a lattice vector to a place of their own (the same for all their
        translates), sorted: the shape as a key."""

    def fill_order(self, cells: Iterable[Cell]) -> list[Cell]:
        """Cells in the order a search fills them (see `fill_order`)."""
        return fill_order(cells)

    # -- neighbours

    @abstractmethod
    def adjacent(self, cell: Cell) -> list[Cell]:
        """The cells sharing a side (in space, a face) with a cell."""

    def connected(self, cells: Iterable[Cell]) -> bool:
        """Whether a shape is one piece: every cell reached from any other through sides."""
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

    # -- orientations of a piece

    @abstractmethod
    def orientations(self, cells: Iterable[Cell], flip: bool) -> list[Shape]:
        """The distinct orientations of a piece, its own first, normalised: rotations, and
        mirror images where `flip` (pieces turned over in the plane)."""

    @abstractmethod
    def mirror(self, cells: Iterable[Cell]) -> list[Cell]:
        """A mirror image of a shape."""

    @abstractmethod
    def group_order(self, flip: bool) -> int:
        """At most how many orientations a piece has: the rotations, with their mirror images
        where `flip`."""

    # -- symmetries of a board

    @abstractmethod
    def board_symmetries(self, cells: Iterable[Cell], mirror: bool
                         ) -> list[tuple[str, Transform]]:
        """The symmetries of the lattice that map a board's cells onto themselves, turning it
        about its centre (a cell, a vertex or an edge's midpoint), the identity first: its
        rotations, and its mirror images where `mirror`; each named."""

    @abstractmethod
    def is_reflection(self, name: str) -> bool:
        """Whether a board symmetry (by its name) mirrors shapes."""

    # -- names and descriptions

    def cell_name(self, cell: Cell) -> str:
        """A cell as written in exported files: 'r2c3', 'l0r2c3'."""
        return "".join(f"{letter}{x}" for letter, x in zip(self.letters, cell))

    def describe(self, cells: Iterable[Cell]) -> str:
        """A board in a few words, for summaries: '6x10 with 4 holes', '72 triangles'."""
        count = len(list(cells))
        return plural(count, self.cell_noun)

    # -- what drawings need (each lattice gives those of its capabilities)

    def outline(self, cell: Cell) -> list[tuple[float, float]]:
        """A cell's outline in the plane, corner by corner (x to the right, y downwards; a
        cell's area about 1, a square's side): what flat drawings and the play page draw.
        Lattices drawn flat ('plane' in capabilities) give it."""
        raise InputError(f"the {self.name} lattice is not drawn in the plane", field="lattice")

    def turn(self, cells: Iterable[Cell]) -> list[Cell]:
        """A shape turned by the lattice's least rotation, clockwise as drawn (what the play
        page's 'rotate' does). Lattices drawn flat give it."""
        raise InputError(f"the {self.name} lattice is not turned in the plane", field="lattice")

    def text_cell(self, cell: Cell) -> tuple[int, int]:
        """Where a cell's mark goes in a drawing as text: (line, column of characters).
        Lattices drawn flat give it; `text_width` characters are the cell's."""
        raise InputError(f"the {self.name} lattice is not drawn as text in the plane",
                         field="lattice")

    text_width: int = 1
    label_scale: float = 1.0  # a name written on a cell, as large as on a square times this

    def position(self, cell: Cell) -> tuple[float, float, float]:
        """A cell's centre in space (x, y, z; z upwards), for 3D drawings. Lattices drawn in
        space ('space' in capabilities) give it."""
        raise InputError(f"the {self.name} lattice is not drawn in space", field="lattice")


class SquareLattice(Lattice):
    """The square grid: cells (row, column); 4 rotations, 8 symmetries with mirror images.
    Its picture: rows of 'X' (a cell) and '.' (none)."""

    name = "square"
    dimensions = 2
    letters = "rc"
    coordinates = "[row, column]"
    cell_noun = "square"
    capabilities = frozenset({"plane"})
    text_width = 2

    def picture_cells(self, text: str) -> list[Cell]:
        return picture_cells(picture_rows(text))

    def picture(self, cells: Iterable[Cell]) -> str:
        return "\n".join(shape_picture(cells))

    def normalise(self, cells: Iterable[Cell]) -> Shape:
        return normalise(cells)

    def adjacent(self, cell: Cell) -> list[Cell]:
        return axis_steps(cell)

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

    def describe(self, cells: Iterable[Cell]) -> str:
        return box_description(cells)

    def outline(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]

    def text_cell(self, cell: Cell) -> tuple[int, int]:
        return cell[0], 2 * cell[1]

    def turn(self, cells: Iterable[Cell]) -> list[Cell]:
        return rotate(cells)


class LayeredLattice(Lattice):
    """A lattice of cells (layer, row, column) in space, every three whole numbers a cell and
    every move a lattice vector, turned by the 48 signed permutations of some coordinates of
    its own (`turned`): the cube's 24 rotations, and their mirror images. Its picture: the
    layers, bottom first, each drawn as a square picture, separated by lines of dashes."""

    dimensions = 3
    letters = "lrc"
    coordinates = "[layer, row, column]"

    def __init__(self) -> None:
        self.motions = motions(3)
        self.rotations = [m for m in self.motions if m.proper]

    @abstractmethod
    def turned(self, motion: Motion, cell: Cell) -> Cell:
        """A cell moved by a symmetry of the lattice about the origin."""

    def picture_cells(self, text: str) -> list[Cell]:
        return layered_cells(text)

    def picture(self, cells: Iterable[Cell]) -> str:
        return layered_picture(cells)

    def normalise(self, cells: Iterable[Cell]) -> Shape:
        return normalise(cells)

    def orientations(self, cells: Iterable[Cell], flip: bool) -> list[Shape]:
        cells = list(cells)
        found: dict[Shape, None] = {}
        for motion in self.motions if flip else self.rotations:
            found.setdefault(normalise(self.turned(motion, cell) for cell in cells))
        return list(found)

    def group_order(self, flip: bool) -> int:
        return len(self.motions if flip else self.rotations)

    def is_reflection(self, name: str) -> bool:
        return name.startswith("mirror")


class CubicLattice(LayeredLattice):
    """The cubic grid: cells (layer, row, column); 24 rotations, 48 symmetries with mirror
    images. A physical piece turns by the 24 rotations only: its mirror image is another piece
    (a chiral piece cannot be turned inside out). Its picture: the layers, bottom first, each
    drawn as a square picture, separated by lines of dashes."""

    name = "cubic"
    cell_noun = "cube"
    capabilities = frozenset({"space", "stl"})
    flip_note = ("does not apply in space: a piece turns by the 24 rotations, and its mirror "
                 "image is another piece")

    def turned(self, motion: Motion, cell: Cell) -> Cell:
        return motion(cell)

    def adjacent(self, cell: Cell) -> list[Cell]:
        return axis_steps(cell)

    def mirror(self, cells: Iterable[Cell]) -> list[Cell]:
        return [(*cell[:-1], -cell[-1]) for cell in cells]

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

    def describe(self, cells: Iterable[Cell]) -> str:
        return box_description(cells)

    def position(self, cell: Cell) -> tuple[float, float, float]:
        layer, r, c = cell
        return c + 0.5, r + 0.5, layer + 0.5


# ---------------------------------------------------------------- balls

ROOT2 = 2 ** 0.5
# A ball's neighbours (layer, row, column steps): 4 in its layer, 4 it rests on, 4 resting on it.
BALL_STEPS = ((0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1),
              (-1, 0, 0), (-1, 1, 0), (-1, 0, 1), (-1, 1, 1),
              (1, 0, 0), (1, -1, 0), (1, 0, -1), (1, -1, -1))


def _fcc(cell: Cell) -> Cell:
    """A ball (layer, row, column) as a point of the face-centred cubic lattice: the whole
    numbers (x, y, z) with an even sum, z the layer (balls touching are sqrt 2 apart)."""
    layer, r, c = cell
    return c + r + layer, c - r, layer


def _from_fcc(point: Cell) -> Cell:
    x, y, z = point
    return z, (x - z - y) // 2, (x - z + y) // 2


class BallLattice(LayeredLattice):
    """Balls stacked in square layers, each ball resting in the hollow between four below it:
    the square-pyramid stacking of Kanoodle and IQ Puzzler, a face-centred cubic lattice.

    A cell is (layer, row, column), layer 0 at the bottom; ball (l + 1, r, c) rests on balls
    (l, r, c), (l, r, c + 1), (l, r + 1, c) and (l, r + 1, c + 1), so the pyramid's layers are
    rows and columns 0-4, 0-3, 0-2, 0-1 and 0. A ball touches twelve: four in its layer, the
    four it rests on, the four resting on it. With balls of diameter 1 its centre is at
    (c + l/2, r + l/2, l/sqrt 2). The lattice's symmetries are a cube's (24 rotations, 48 with
    mirror images), about the vertical and the two diagonals of a layer: a piece turns by the
    24 rotations, which lay a flat piece in a layer or stand it upright in a vertical plane
    through a layer's diagonal (where its rows run at 45 degrees), and turn it over; a piece
    whose mirror image no rotation reaches is another piece. Its picture: the layers, bottom
    first, each a square picture from its own row 0 and column 0, separated by lines of dashes
    (the pyramid: a 5x5 square of 'X', then 4x4, 3x3, 2x2, 1)."""

    name = "balls"
    cell_noun = "ball"
    capabilities = frozenset({"space", "stl"})
    flip_note = ("does not apply to balls: a piece turns by the 24 rotations of the ball "
                 "lattice, which turn a flat piece over; a piece whose mirror image no rotation "
                 "reaches is another piece")
    connected_pieces = True

    def turned(self, motion: Motion, cell: Cell) -> Cell:
        # the signed permutation acts on the face-centred cubic coordinates (`_fcc`)
        return _from_fcc(motion(_fcc(cell)))

    def adjacent(self, cell: Cell) -> list[Cell]:
        return [tuple(x + s for x, s in zip(cell, step)) for step in BALL_STEPS]

    def fill_order(self, cells: Iterable[Cell]) -> list[Cell]:
        """The top layer first, each row by row: in a stack the upper layers are the smallest
        and their balls the most constrained (the pyramid's count takes 7 s of CPU so, 16 s
        from the bottom up)."""
        return sorted(cells, key=lambda cell: (-cell[0], cell[1], cell[2]))

    def mirror(self, cells: Iterable[Cell]) -> list[Cell]:
        return [(layer, c, r) for layer, r, c in cells]  # across a layer's diagonal

    def board_symmetries(self, cells: Iterable[Cell], mirror: bool
                         ) -> list[tuple[str, Transform]]:
        cells = set(cells)
        least = min(cells)
        group = []
        for motion in self.motions if mirror else self.rotations:
            image = {self.turned(motion, cell) for cell in cells}
            # the turned board moved back onto its place: its least cell onto the board's
            shift = tuple(a - b for a, b in zip(least, min(image)))
            if {tuple(x + s for x, s in zip(cell, shift)) for cell in image} != cells:
                continue

            def transform(cell: Cell, motion: Motion = motion, shift: Cell = shift) -> Cell:
                return tuple(x + s for x, s in zip(self.turned(motion, cell), shift))

            group.append((self.motion_name(motion), transform))
        order = {name: i for i, name in enumerate(SYMMETRY_NAMES)}
        return sorted(group, key=lambda g: (g[0] != "identity", self.is_reflection(g[0]),
                                            order.get(g[0].removesuffix(" about the vertical"),
                                                      len(order))))

    def motion_name(self, motion: Motion) -> str:
        """A symmetry by name: one keeping the layers as the square lattice names it seen from
        above ('rotate 90 about the vertical', 'mirror diagonal'); another as a map of
        coordinates about the ball at the origin ('rotate (l,r,c) -> (c,-l-r,l)')."""
        columns = [self.turned(motion, unit) for unit in ((1, 0, 0), (0, 1, 0), (0, 0, 1))]
        if columns[0][0] == 1 and columns[1][0] == columns[2][0] == 0:  # layers onto layers
            for name in SYMMETRY_NAMES:
                square = rectangle_symmetry(name, 0, 0, 0, 0)
                if square is not None and [square((1, 0)), square((0, 1))] == [
                        columns[1][1:], columns[2][1:]]:
                    return f"{name} about the vertical" if name.startswith("rotate") else name
        if motion == self.motions[0]:
            return "identity"
        terms = []
        for i in range(3):
            term = "".join(f"{'-' if k < 0 else '+'}{'' if abs(k) == 1 else abs(k)}"
                           f"{self.letters[j]}" for j, k in enumerate(
                               column[i] for column in columns) if k)
            terms.append(term.lstrip("+"))
        kind = "rotate" if motion.proper else "mirror"
        return f"{kind} ({','.join(self.letters)}) -> ({','.join(terms)})"

    def describe(self, cells: Iterable[Cell]) -> str:
        cells = list(cells)
        layers = len({cell[0] for cell in cells})
        return f"{plural(len(cells), 'ball')} in {plural(layers, 'layer')}"

    def position(self, cell: Cell) -> tuple[float, float, float]:
        layer, r, c = cell  # balls of diameter 1 on the floor, from the corner at the origin
        return c + layer / 2 + 0.5, r + layer / 2 + 0.5, layer / ROOT2 + 0.5


class BallLayerLattice(SquareLattice):
    """One layer of the ball lattice, played flat: balls in rows and columns, each touching
    four (the 5x11 board of Kanoodle and IQ Puzzler, where pieces lie flat). Its geometry is
    the square lattice's, cells (row, column) and pictures of 'X' and '.', a piece turned and
    turned over (8 orientations); its cells are drawn as balls, and a piece in parts is
    refused (balls are glued together)."""

    name = "ball-layer"
    cell_noun = "ball"
    connected_pieces = True

    def outline(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell  # a ball seen from above: a circle in the square's place, drawn as a 24-gon
        return [(c + 0.5 + 0.46 * math.cos(k * math.pi / 12),
                 r + 0.5 + 0.46 * math.sin(k * math.pi / 12)) for k in range(24)]


def axis_steps(cell: Cell) -> list[Cell]:
    """The cells a unit step along one axis away (the square's and the cube's neighbours)."""
    return [(*cell[:axis], cell[axis] + step, *cell[axis + 1:])
            for axis in range(len(cell)) for step in (-1, 1)]


def box_description(cells: Iterable[Cell]) -> str:
    """A board as its bounding box and the holes in it: '6x10', '8x8 with 4 holes'."""
    cells = list(cells)
    extent = [max(axis) - min(axis) + 1 for axis in zip(*cells)]
    holes = 1
    for x in extent:
        holes *= x
    holes -= len(cells)
    return "x".join(map(str, extent)) + (f" with {plural(holes, 'hole')}" if holes else "")


# ---------------------------------------------------------------- triangles and hexagons

ROOT3 = 3 ** 0.5
TRIANGLE_SIDE = 1.5  # as drawn: a triangle's area about a square's (0.97)
HEXAGON_SIDE = 0.6  # a hexagon's area 0.94


def plane_rows(text: str, marks: str, what: str) -> list[tuple[int, int, str, int]]:
    """The marks of a picture of triangles or hexagons: (row, column, character, line of the
    text) of every character in `marks`, rows and columns from 0 after the picture's common
    indentation.
    Blanks and '.' are places without a cell; blank lines before and after are ignored."""
    raw = [row.rstrip() for row in text.split("\n")]
    drawn = [i for i, row in enumerate(raw) if row.strip()]
    if not drawn:
        raise PictureError(f"the picture has no {what}")
    indent = min(len(raw[i]) - len(raw[i].lstrip()) for i in drawn)
    found = []
    for i in range(drawn[0], drawn[-1] + 1):
        row = raw[i]
        if not row.strip():
            raise PictureError("a blank line inside the picture: draw an empty row as '.' "
                               "(or remove the line)", i)
        for c, ch in enumerate(row[indent:]):
            if ch in marks:
                found.append((i - drawn[0], c, ch, i))
            elif ch not in " .":
                raise PictureError(
                    f"unexpected character {ch!r} at {place(i - drawn[0], c)} of the picture "
                    f"(use {' and '.join(map(repr, marks))} for {what}s, '.' or a blank for "
                    "none)", i)
    if not found:
        raise PictureError(f"the picture has no {what}")
    return found


class SixfoldLattice(Lattice):
    """A lattice of the plane with the symmetries of the regular hexagon (6 rotations, 12 with
    mirror images): triangles and hexagons. A cell is (row, column) of its mark in the
    lattice's picture; translations are the moves (rows, columns) whose sum is even. Turns
    and mirrors act on integer coordinates of each cell's centre in the lattice's own frame
    (`_centre`, `_from_centre`), about the origin: a vertex of triangles, a hexagon's centre."""

    dimensions = 2
    letters = "rc"
    coordinates = "[row, column]"
    capabilities = frozenset({"plane"})
    step: int  # the centres' coordinates of cells one translation apart differ by this

    @abstractmethod
    def _centre(self, cell: Cell) -> tuple[int, int]:
        """A cell's centre as integer coordinates (a, b) on the axes at 60 degrees (a to the
        right, b down and to the right), scaled so that they are whole numbers."""

    @abstractmethod
    def _from_centre(self, a: int, b: int) -> Cell:
        """The cell whose centre is (a, b)."""

    @staticmethod
    def _turn(a: int, b: int) -> tuple[int, int]:
        return -b, a + b  # 60 degrees clockwise as drawn (y downwards)

    @staticmethod
    def _mirror(a: int, b: int) -> tuple[int, int]:
        return -a - b, b  # left-right

    def _motions(self, mirror: bool) -> list[tuple[str, Callable[[int, int], tuple[int, int]]]]:
        """The 6 rotations (and 6 mirror images) about the origin, named, the identity first."""
        found = []
        for k in range(6):
            def turned(a: int, b: int, k: int = k) -> tuple[int, int]:
                for _ in range(k):
                    a, b = self._turn(a, b)
                return a, b
            found.append((f"rotate {60 * k}" if k else "identity", turned))
        if mirror:
            for k in range(6):
                def mirrored(a: int, b: int, k: int = k) -> tuple[int, int]:
                    return self._mirror(*found[k][1](a, b))
                found.append((f"mirror {_mirror_axis(k)}", mirrored))
        return found

    def translation(self, source: Cell, target: Cell) -> Cell | None:
        vector = (target[0] - source[0], target[1] - source[1])
        return vector if (vector[0] + vector[1]) % 2 == 0 else None

    def normalise(self, cells: Iterable[Cell]) -> Shape:
        cells = list(cells)
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        c0 -= (r0 + c0) % 2  # a lattice vector: rows and columns moved by an even sum
        return tuple(sorted((r - r0, c - c0) for r, c in cells))

    def orientations(self, cells: Iterable[Cell], flip: bool) -> list[Shape]:
        centres = [self._centre(cell) for cell in cells]
        found: dict[Shape, None] = {}
        for _, motion in self._motions(flip):
            found.setdefault(self.normalise(self._from_centre(*motion(a, b))
                                            for a, b in centres))
        return list(found)

    def mirror(self, cells: Iterable[Cell]) -> list[Cell]:
        return [self._from_centre(*self._mirror(*self._centre(cell))) for cell in cells]

    def group_order(self, flip: bool) -> int:
        return 12 if flip else 6

    def board_symmetries(self, cells: Iterable[Cell], mirror: bool
                         ) -> list[tuple[str, Transform]]:
        centres = {self._centre(cell) for cell in cells}
        low = min(centres)
        group = []
        for name, motion in self._motions(mirror):
            image = {motion(a, b) for a, b in centres}
            least = min(image)
            shift = (low[0] - least[0], low[1] - least[1])  # the image's corner on the board's
            if shift[0] % self.step or shift[1] % self.step:
                continue  # not a lattice vector: the turned board lies between the cells
            if {(a + shift[0], b + shift[1]) for a, b in image} != centres:
                continue

            def transform(cell: Cell, motion=motion, shift=shift) -> Cell:
                a, b = motion(*self._centre(cell))
                return self._from_centre(a + shift[0], b + shift[1])

            group.append((name, transform))
        return group

    def is_reflection(self, name: str) -> bool:
        return name.startswith("mirror")

    def text_cell(self, cell: Cell) -> tuple[int, int]:
        return cell[0], cell[1]

    def turn(self, cells: Iterable[Cell]) -> list[Cell]:
        return [self._from_centre(*self._turn(*self._centre(cell))) for cell in cells]

    marks: tuple[str, str]  # the characters of a cell in a picture, and the cell's name

    def picture_cells(self, text: str) -> list[Cell]:
        return [(r, c) for r, c, _, _ in self._read(text)]

    def picture_shift(self, text: str) -> int:
        return self._shift(plane_rows(text, *self.marks))

    def _shift(self, found: list[tuple[int, int, str, int]]) -> int:
        r0, c0, ch0, _ = found[0]  # the first cell, read where its own rule puts it
        return (r0 + c0 + self._parity(ch0)) % 2

    def _read(self, text: str) -> list[tuple[int, int, str, int]]:
        """The marks of a picture, as cells: the columns read one to the right where the first
        cell's own rule would put it elsewhere (pictures are read up to a lattice vector)."""
        found = plane_rows(text, *self.marks)
        shift = self._shift(found)
        cells = []
        for r, c, ch, line in found:
            if (r + c + shift + self._parity(ch)) % 2:
                raise PictureError(self._misplaced(r, c, ch, found[0]), line)
            cells.append((r, c + shift, ch, line))
        return cells

    def _parity(self, mark: str) -> int:
        """0 where a cell drawn with this mark has an even row + column, 1 where odd."""
        return 0

    @abstractmethod
    def _misplaced(self, r: int, c: int, mark: str, first: tuple) -> str:
        """Why a mark at row r and column c of a picture is out of place."""


def _mirror_axis(k: int) -> str:
    """The axis of the mirror image that follows k turns of 60 degrees: its angle from the
    horizontal, counterclockwise as drawn."""
    return f"{(90 + 30 * k) % 180} degrees"


class TriangularLattice(SixfoldLattice):
    """The triangular lattice: polyiamonds. A cell (row, column) is a triangle pointing up
    where row + column is even, down where it is odd; triangles side by side in a row share a
    slanted side, and one pointing up shares its bottom side with the one below it. Its
    picture: a character per triangle, '^' pointing up and 'v' pointing down, alternating
    along rows and columns; '.' or a blank where there is none.

         ^v^v^      a hexagon of 24 triangles
        ^v^v^v^
        v^v^v^v
         v^v^v
    """

    name = "triangular"
    cell_noun = "triangle"
    marks = ("^v", "triangle")
    step = 3
    label_scale = 0.8

    def _centre(self, cell: Cell) -> tuple[int, int]:
        r, c = cell
        if (r + c) % 2 == 0:  # pointing up: vertices (u, r), (u - 1, r + 1), (u, r + 1)
            u = (c - r) // 2
            return 3 * u - 1, 3 * r + 2
        w = (c - r - 1) // 2  # pointing down: vertices (w, r), (w + 1, r), (w, r + 1)
        return 3 * w + 1, 3 * r + 1

    def _from_centre(self, a: int, b: int) -> Cell:
        if a % 3 == 2:  # three times the centre of a triangle pointing up
            r = (b - 2) // 3
            return r, 2 * ((a + 1) // 3) + r
        r = (b - 1) // 3
        return r, 2 * ((a - 1) // 3) + r + 1

    def adjacent(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r, c - 1), (r, c + 1), (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c)]


    def _parity(self, mark: str) -> int:
        return 0 if mark == "^" else 1

    def _misplaced(self, r: int, c: int, mark: str, first: tuple) -> str:
        other = "v" if mark == "^" else "^"
        return (f"a triangle {'up' if mark == '^' else 'down'} ({mark!r}) at {place(r, c)} of "
                f"the picture, where one pointing {'down' if mark == '^' else 'up'} "
                f"({other!r}) belongs: triangles alternate along each row and column, as the "
                f"first one ({first[2]!r} at [{first[0]}, {first[1]}]) sets them")

    def picture(self, cells: Iterable[Cell]) -> str:
        return _plane_picture(cells, lambda r, c: "^" if (r + c) % 2 == 0 else "v", 1)

    def outline(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        s = TRIANGLE_SIDE
        h, x = s * ROOT3 / 2, c * s / 2
        if (r + c) % 2 == 0:
            return [(x, (r + 1) * h), (x + s / 2, r * h), (x + s, (r + 1) * h)]
        return [(x, r * h), (x + s, r * h), (x + s / 2, (r + 1) * h)]


class HexagonalLattice(SixfoldLattice):
    """The hexagonal lattice: polyhexes. A cell (row, column) is a hexagon (a corner pointing
    up) where row + column is even: its neighbours are two columns away in its row and one
    column away in the rows above and below. Its picture: 'X' for a hexagon, each row's
    hexagons two characters apart and between those of the rows above and below; '.' or a
    blank where there is none.

          X X X       a hexagon of 19 hexagons
         X X X X
        X X X X X
         X X X X
          X X X
    """

    name = "hexagonal"
    cell_noun = "hexagon"
    marks = ("X", "hexagon")
    cell_rule = " with row + column even"
    step = 1
    text_width = 2

    def is_cell(self, cell: tuple) -> bool:
        return super().is_cell(cell) and (cell[0] + cell[1]) % 2 == 0

    def _centre(self, cell: Cell) -> tuple[int, int]:
        r, c = cell
        return (c - r) // 2, r

    def _from_centre(self, a: int, b: int) -> Cell:
        return b, 2 * a + b

    def adjacent(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r, c - 2), (r, c + 2), (r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1),
                (r + 1, c + 1)]


    def _misplaced(self, r: int, c: int, mark: str, first: tuple) -> str:
        return (f"a hexagon at {place(r, c)} of the picture is out of line: a row's hexagons "
                "are two characters apart, between those of the rows above and below, as the "
                f"first one (at [{first[0]}, {first[1]}]) sets them")

    def picture(self, cells: Iterable[Cell]) -> str:
        return _plane_picture(cells, lambda r, c: "X", 2)

    def outline(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        t = HEXAGON_SIDE
        s = t * ROOT3 / 2
        x, y = c * s + s, r * 1.5 * t + t  # the corner of row 0 and column 0 at (0, 0)
        return [(x, y - t), (x + s, y - t / 2), (x + s, y + t / 2), (x, y + t),
                (x - s, y + t / 2), (x - s, y - t / 2)]


def _plane_picture(cells: Iterable[Cell], mark: Callable[[int, int], str], apart: int) -> str:
    """A picture of triangles or hexagons: each cell's mark at its row and column (from the
    cells' least), '.' for a place between cells of a row, blanks before a row's first."""
    cells = set(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    rows = []
    for r in range(r0, max(r for r, _ in cells) + 1):
        row = sorted(c for rr, c in cells if rr == r)
        if not row:
            rows.append(".")
            continue
        text = [" "] * (row[-1] - c0 + 1)
        for c in range(row[0], row[-1] + 1, apart):
            text[c - c0] = mark(r, c) if (r, c) in cells else "."
        rows.append("".join(text))
    return "\n".join(rows)


SQUARE = SquareLattice()
CUBIC = CubicLattice()
TRIANGULAR = TriangularLattice()
HEXAGONAL = HexagonalLattice()
BALLS = BallLattice()
BALL_LAYER = BallLayerLattice()
LATTICES: dict[str, Lattice] = {lattice.name: lattice
                                for lattice in (SQUARE, CUBIC, TRIANGULAR, HEXAGONAL, BALLS,
                                                BALL_LAYER)}


def lattice(name: str) -> Lattice:
    """The lattice of a name (one of `LATTICES`); an unknown name is an InputError naming it."""
    if name not in LATTICES:
        raise InputError(f"unknown lattice {name!r} (one of: {', '.join(LATTICES)})",
                         field="lattice")
    return LATTICES[name]


def lattice_part(table: dict[str, object], lattice: Lattice, what: str) -> object:
    """A lattice's entry in a table of parts kept outside models (a drawing, the reference's
    geometry): an InputError naming the lattice where it has none, never another lattice's."""
    if lattice.name not in table:
        raise InputError(f"the {lattice.name} lattice has no {what}", field="lattice")
    return table[lattice.name]


def polyforms(grid: Lattice, order: int, flip: bool) -> list[Shape]:
    """Every shape of `order` cells joined side to side on a lattice: up to rotations and
    mirror images where `flip` (free polyforms: the 12 hexiamonds), up to rotations alone where
    not (one-sided: a chiral shape and its mirror image both). Each in its least orientation,
    the list sorted, so that a set is the same wherever it is made."""
    if order < 1:
        raise InputError(f"a polyform has at least one cell, not {order}", field="polyforms")
    return list(_polyforms(grid, order, flip))


@functools.lru_cache(maxsize=64)
def _polyforms(grid: Lattice, order: int, flip: bool) -> tuple[Shape, ...]:
    """`polyforms`, made once a process (`list --open` reads 221 boards of a few piece sets:
    81 s at load 7 when each made its set anew)."""

    def least(cells: Iterable[Cell]) -> Shape:
        return min(grid.orientations(cells, flip))

    level = {least([(0,) * grid.dimensions])}  # every cell is every other turned or moved
    for _ in range(order - 1):
        grown: set[Shape] = set()
        for shape in level:
            taken = set(shape)
            for cell in shape:
                for next_cell in grid.adjacent(cell):
                    if next_cell not in taken:
                        grown.add(least([*shape, next_cell]))
        level = grown
    return tuple(sorted(level))
