"""Packing puzzles: pieces that cover every cell of a board exactly once.

The puzzle is plain data; the exact cover built from it (one option per placement of a piece)
is what the encoders turn into solver models. The geometry is an axis: a puzzle's `lattice`
(models/geometry.py) answers every geometric question (orientations, translations, neighbours,
the symmetries of the board). `PackingPuzzle` packs on the square lattice (board and pieces
drawn as pictures, cells (row, column)); `CellPuzzle`, its subclass, holds its board and pieces
as cells on any lattice, named by `lattice_name`: in space (`lattice_name = "cubic"`, cells
(layer, row, column), layer 0 at the bottom) pieces turn by the 24 rotations only (`flip` False:
a chiral piece's mirror image is another piece).

A solution is a dict cell -> piece index over the board's cells. A challenge (a card of a
puzzle booklet) has pieces already placed (`placed`): every solution holds them where they are.
A calendar puzzle labels its cells (`labels`: months, days, weekdays) and names a `target`, the
labels left uncovered: their cells are holes of its board (models/packing/labels.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..encoded import Regions
from ..geometry import SQUARE, Cell, Lattice, Shape, lattice, picture_cells
from ..limits import MAX_CELL_TESTS, check_cell_tests, check_placements, step
from ..words import plural


@dataclass(frozen=True)
class Piece:
    """A named piece, drawn as a picture of 'X' and '.'; `count` identical copies of it
    (interchangeable: a covering is one solution however its copies are permuted), or, where
    `least` is set, any number from `least` to `count` of them (a solution uses as many as it
    uses; copies left over are no fault)."""

    name: str
    picture: tuple[str, ...]
    count: int = 1
    # the fewest copies a solution uses (None: exactly `count`); `since`: added after the
    # checkpoints of runners/checkpoint.py were written, left out of their hash while None
    least: int | None = field(default=None, metadata={"since": "pieces in any number"})

    @property
    def fewest(self) -> int:
        """The fewest copies a solution uses (`count`, unless a range was given)."""
        return self.count if self.least is None else self.least

    @property
    def cells(self) -> list[Cell]:
        return picture_cells(self.picture)


@dataclass(frozen=True)
class CellPiece:
    """A named piece given by its cells on its puzzle's lattice, normalised."""

    name: str
    shape: Shape
    count: int = 1  # identical copies (see Piece)
    least: int | None = field(default=None, metadata={"since": "pieces in any number"})

    @property
    def cells(self) -> list[Cell]:
        return list(self.shape)

    @property
    def fewest(self) -> int:
        return self.count if self.least is None else self.least


@dataclass(frozen=True)
class Placed:
    """A piece already on the board in a challenge: the piece (index) and the cells it covers."""

    piece: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PackingPuzzle:
    """A board (cells that must be covered) and the pieces that cover it, each used once."""

    name: str
    board: tuple[str, ...]
    pieces: tuple[Piece, ...]
    flip: bool = True
    title: str = ""
    source: str = ""
    published: dict[str, object] = field(default_factory=dict, compare=False)
    kind: str = "packing"
    placed: tuple[Placed, ...] = ()  # a challenge's pre-placed pieces
    # a calendar's labelled cells (months, days, weekdays), the target's among them: its cells
    # are holes of the board, left uncovered (models/packing/labels.py)
    labels: tuple[tuple[Cell, str], ...] = field(default=(), metadata={"since": "calendars"})
    target: tuple[str, ...] = field(default=(), metadata={"since": "calendars"})

    lattice = SQUARE  # the geometry (a class attribute: a subclass packs on another lattice)

    @property
    def board_cells(self) -> list[Cell]:
        """The board's cells, in reading order."""
        return picture_cells(self.board)

    @property
    def cells(self) -> list[Cell]:
        """The board's cells in the order a search fills them (the lattice's fill order)."""
        return self.lattice.fill_order(self.board_cells)

    @property
    def holes(self) -> list[Cell]:
        """The places drawn as holes: the '.' of the board's picture, up to each row's end."""
        return [(r, c) for r, row in enumerate(self.board) for c, ch in enumerate(row)
                if ch != "X"]


@dataclass(frozen=True)
class CellPuzzle(PackingPuzzle):
    """A packing puzzle whose board and pieces are cells on the lattice named `lattice_name`
    (read from pictures in that lattice's format, or from coordinates)."""

    board: tuple[Cell, ...] = ()
    pieces: tuple[CellPiece, ...] = ()
    lattice_name: str = SQUARE.name

    @property
    def lattice(self) -> Lattice:  # type: ignore[override]
        return lattice(self.lattice_name)

    @property
    def board_cells(self) -> list[Cell]:
        return sorted(self.board)

    @property
    def holes(self) -> list[Cell]:
        """The cells the board encloses without covering them (from which the outside of its
        bounding box cannot be reached through cells off the board)."""
        grid = self.lattice
        board = set(self.board)
        low = [min(axis) for axis in zip(*board)]
        high = [max(axis) for axis in zip(*board)]

        def inside(cell: Cell) -> bool:
            return all(lo <= x <= hi for x, lo, hi in zip(cell, low, high))

        outside: set[Cell] = set()
        enclosed: set[Cell] = set()
        for start in {n for cell in board for n in grid.adjacent(cell)} - board:
            if start in outside or start in enclosed:
                continue
            region, todo, escapes = {start}, [start], not inside(start)
            while todo:
                for n in grid.adjacent(todo.pop()):
                    if n in board or n in region:
                        continue
                    if not inside(n):
                        escapes = True
                        continue
                    region.add(n)
                    todo.append(n)
            (outside if escapes else enclosed).update(region)
        return sorted(enclosed)


def piece_key(puzzle: PackingPuzzle, piece: Piece | CellPiece) -> Shape:
    """The same for pieces of the same shape as given (before any turn)."""
    return puzzle.lattice.normalise(piece.cells)


@dataclass(frozen=True)
class Placement:
    """One piece in one orientation at one position."""

    piece: int
    orientation: int
    cells: tuple[Cell, ...]

    @property
    def pieces(self) -> tuple[int, ...]:
        """The pieces this option places (one; a symmetry's bundle of placements has more)."""
        return (self.piece,)


def piece_orientations(puzzle: PackingPuzzle) -> list[list[Shape]]:
    """The distinct orientations of every piece."""
    return [puzzle.lattice.orientations(piece.cells, puzzle.flip) for piece in puzzle.pieces]


def placement_estimate(puzzle: PackingPuzzle) -> int:
    """At most how many placements the puzzle has: orientations times board cells, per piece."""
    cells = len(puzzle.board_cells)
    by_shape: dict[Shape, int] = {}
    for piece in puzzle.pieces:
        key = piece_key(puzzle, piece)
        if key not in by_shape:
            by_shape[key] = len(puzzle.lattice.orientations(piece.cells, puzzle.flip))
    return sum(by_shape[piece_key(puzzle, piece)] for piece in puzzle.pieces) * cells


def check_size(puzzle: PackingPuzzle) -> int:
    """The placement estimate, once the puzzle is known to be within the limits of
    models/limits.py (InputError naming the figure that decides otherwise, field 'pieces')."""
    board_cells = len(puzzle.board_cells)
    shapes = {piece_key(puzzle, piece): piece for piece in puzzle.pieces}
    what = f"{len(shapes):,} piece shapes on {plural(board_cells, 'cell')}"
    turns = puzzle.lattice.group_order(puzzle.flip)
    most = sum(turns * board_cells * len(p.cells) for p in shapes.values())
    if most > MAX_CELL_TESTS:  # worth finding the orientations to say exactly how many
        check_cell_tests(sum(len(puzzle.lattice.orientations(p.cells, puzzle.flip))
                             * board_cells * len(p.cells) for p in shapes.values()),
                         what, "pieces")
    estimate = placement_estimate(puzzle)
    check_placements(estimate, f"{plural(len(puzzle.pieces), 'piece')}", "pieces")
    return estimate


def placements(puzzle: PackingPuzzle) -> list[Placement]:
    """Every placement of every piece that lies wholly on the board (refused beyond the limits
    of models/limits.py; under the time limit of `limits.building`). Pieces drawn alike are
    placed once and their placements copied."""
    estimate = check_size(puzzle)
    lattice = puzzle.lattice
    board = set(puzzle.cells)
    held = {p.piece: frozenset(p.cells) for p in puzzle.placed}  # a challenge's placed pieces
    order = sorted(board)
    by_shape: dict[Shape, list[tuple[int, tuple[Cell, ...]]]] = {}
    found: list[Placement] = []
    for index, piece in enumerate(puzzle.pieces):
        key = piece_key(puzzle, piece)
        if key not in by_shape:
            fits = []
            for o, shape in enumerate(lattice.orientations(piece.cells, puzzle.flip)):
                first = shape[0]
                for n, at in enumerate(order):
                    if n % 4096 == 0:
                        step("placements", len(found) + len(fits), estimate)
                    # the shape's first cell on each board cell it can move onto by a lattice
                    # vector: every position is tried once
                    vector = lattice.translation(first, at)
                    if vector is None:
                        continue
                    cells = tuple(lattice.translate(shape, vector))
                    if board.issuperset(cells):
                        fits.append((o, cells))
            by_shape[key] = fits
        step("placements", len(found), estimate)
        found += [Placement(index, o, cells) for o, cells in by_shape[key]
                  if index not in held or held[index] == frozenset(cells)]
    return found


@dataclass
class ExactCover:
    """Rows (placements) covering columns; a solution picks rows covering every column once.

    Columns are the pieces (each used once, or once per copy: `multiplicity`) followed by the
    board's cells (each covered once).
    """

    columns: list[str]
    rows: list[tuple[int, ...]]  # a piece column appears once per copy the row places
    labels: list[str]
    pieces: int = 0  # how many of the columns are pieces (the rest are cells)
    multiplicity: list[int] | None = None  # how often each column is covered (None: once)
    # the fewest times each column is covered, where some piece comes in any number from a
    # least to a most (None: exactly `multiplicity`)
    least: list[int] | None = None
    regions: Regions | None = None  # cells next to cells, for pruning (None: a piece in parts)


def regions(puzzle: PackingPuzzle, cell_column: dict[Cell, int]) -> Regions | None:
    """The board's cells next to each cell and the sizes of the pieces (see Regions), or None
    where some piece is in parts (then a closed region may be covered from outside)."""
    lattice = puzzle.lattice
    if not all(lattice.connected(p.cells) for p in puzzle.pieces):
        return None
    adjacent: list[tuple[int, ...]] = [()] * (len(puzzle.pieces) + len(cell_column))
    for cell, column in cell_column.items():
        adjacent[column] = tuple(sorted(cell_column[c] for c in lattice.adjacent(cell)
                                        if c in cell_column))
    sizes = [len(p.cells) for p in puzzle.pieces]
    return Regions(tuple(adjacent), min(sizes), math.gcd(*sizes))


def exact_cover(puzzle: PackingPuzzle, options: list) -> ExactCover:
    """The exact-cover matrix of a puzzle, restricted to the given placements (or bundles of
    placements taken together, as a symmetric solution takes a placement with its images); a
    row names a piece once per copy it places."""
    cells = puzzle.cells
    cell_column = {cell: len(puzzle.pieces) + i for i, cell in enumerate(cells)}
    columns = [p.name for p in puzzle.pieces] + [puzzle.lattice.cell_name(c) for c in cells]
    rows, labels = [], []
    for n, p in enumerate(options):
        if n % 8192 == 0:
            step("rows of the exact cover", n, len(options))
        rows.append((*sorted(p.pieces), *sorted(cell_column[c] for c in p.cells)))
        labels.append(placement_label(puzzle, p))
    counts = [p.count for p in puzzle.pieces]
    ranged = any(p.fewest != p.count for p in puzzle.pieces)
    multiplicity = counts + [1] * len(cells) if ranged or any(n > 1 for n in counts) else None
    least = [p.fewest for p in puzzle.pieces] + [1] * len(cells) if ranged else None
    return ExactCover(columns, rows, labels, len(puzzle.pieces), multiplicity,
                      least=least, regions=regions(puzzle, cell_column))


def placement_label(puzzle: PackingPuzzle, placement: Placement) -> str:
    """Piece, orientation and cells, as written in exported files."""
    cells = " ".join(puzzle.lattice.cell_name(c) for c in placement.cells)
    if len(placement.pieces) > 1:  # placements a symmetry maps onto one another
        names = "+".join(puzzle.pieces[i].name for i in placement.pieces)
        return f"pieces {names} cells {cells}"
    name = puzzle.pieces[placement.piece].name
    return f"piece {name} orientation {placement.orientation} cells {cells}"
