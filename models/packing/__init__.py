"""Packing puzzles: pieces that cover every cell of a board exactly once.

The puzzle is plain data; the exact cover built from it (one option per placement of a piece)
is what the encoders turn into solver models.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..geometry import (
    Cell,
    Shape,
    fill_order,
    orientations,
    picture_cells,
)
from ..limits import check_placements


@dataclass(frozen=True)
class Piece:
    """A named piece, drawn as a picture of 'X' and '.'; `count` identical copies of it
    (interchangeable: a covering is one solution however its copies are permuted)."""

    name: str
    picture: tuple[str, ...]
    count: int = 1

    @property
    def cells(self) -> list[Cell]:
        return picture_cells(self.picture)


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

    @property
    def cells(self) -> list[Cell]:
        """The board's cells in the order a search fills them (see geometry.fill_order)."""
        return fill_order(picture_cells(self.board))


@dataclass(frozen=True)
class Placement:
    """One piece in one orientation at one position."""

    piece: int
    orientation: int
    cells: tuple[Cell, ...]


def piece_orientations(puzzle: PackingPuzzle) -> list[list[Shape]]:
    """The distinct orientations of every piece."""
    return [orientations(piece.cells, puzzle.flip) for piece in puzzle.pieces]


def placement_estimate(puzzle: PackingPuzzle) -> int:
    """At most how many placements the puzzle has: orientations times board cells, per piece."""
    cells = sum(row.count("X") for row in puzzle.board)
    by_picture: dict[tuple[str, ...], int] = {}
    for piece in puzzle.pieces:
        if piece.picture not in by_picture:
            by_picture[piece.picture] = len(orientations(piece.cells, puzzle.flip))
    return sum(by_picture[piece.picture] for piece in puzzle.pieces) * cells


def placements(puzzle: PackingPuzzle) -> list[Placement]:
    """Every placement of every piece that lies wholly on the board (refused beyond the limit
    of models/limits.py)."""
    check_placements(placement_estimate(puzzle), f"{len(puzzle.pieces):,} pieces", "pieces")
    board = set(puzzle.cells)
    found = []
    for index, shapes in enumerate(piece_orientations(puzzle)):
        for o, shape in enumerate(shapes):
            fr, fc = shape[0]
            for r0, c0 in sorted(board):
                # the shape's first cell on each board cell: every position is tried once
                cells = tuple((r0 + r - fr, c0 + c - fc) for r, c in shape)
                if all(cell in board for cell in cells):
                    found.append(Placement(index, o, cells))
    return found


Option = Placement | tuple[Placement, ...]  # a row of the cover: placements chosen together


def option_placements(option: Option) -> tuple[Placement, ...]:
    return option if isinstance(option, tuple) else (option,)


@dataclass
class ExactCover:
    """Rows (placements) covering columns; a solution picks rows covering every column once.

    Columns are the pieces (each used once) followed by the board's cells (each covered once).
    """

    columns: list[str]
    rows: list[tuple[int, ...]]  # a piece column appears once per copy the row places
    labels: list[str]
    pieces: int = 0  # how many of the columns are pieces (the rest are cells)
    multiplicity: list[int] | None = None  # how often each column is covered (None: once)


def exact_cover(puzzle: PackingPuzzle, options: list[Option]) -> ExactCover:
    """The exact-cover matrix of a puzzle, restricted to the given placements (or groups of
    placements taken together, as a symmetric solution takes a placement with its images)."""
    cells = puzzle.cells
    cell_column = {cell: len(puzzle.pieces) + i for i, cell in enumerate(cells)}
    columns = [p.name for p in puzzle.pieces] + [f"r{r}c{c}" for r, c in cells]
    rows = []
    labels = []
    for option in options:
        group = option_placements(option)
        rows.append((*sorted(p.piece for p in group),
                     *sorted(cell_column[c] for p in group for c in p.cells)))
        labels.append(" + ".join(placement_label(puzzle, p) for p in group))
    counts = [p.count for p in puzzle.pieces]
    multiplicity = counts + [1] * len(cells) if any(n > 1 for n in counts) else None
    return ExactCover(columns, rows, labels, len(puzzle.pieces), multiplicity)


def placement_label(puzzle: PackingPuzzle, placement: Placement) -> str:
    """Piece, orientation and cells, as written in exported files."""
    cells = " ".join(f"r{r}c{c}" for r, c in placement.cells)
    name = puzzle.pieces[placement.piece].name
    return f"piece {name} orientation {placement.orientation} cells {cells}"
