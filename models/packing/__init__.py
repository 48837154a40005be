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
from ..limits import MAX_CELL_TESTS, check_cell_tests, check_placements, step


@dataclass(frozen=True)
class Piece:
    """A named piece, drawn as a picture of 'X' and '.'."""

    name: str
    picture: tuple[str, ...]

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


def check_size(puzzle: PackingPuzzle) -> int:
    """The placement estimate, once the puzzle is known to be within the limits of
    models/limits.py (InputError naming the figure that decides otherwise, field 'pieces')."""
    board_cells = sum(row.count("X") for row in puzzle.board)
    pictures = {piece.picture: piece for piece in puzzle.pieces}
    what = f"{len(pictures):,} piece shapes on {board_cells:,} cells"
    most = sum((8 if puzzle.flip else 4) * board_cells * len(p.cells) for p in pictures.values())
    if most > MAX_CELL_TESTS:  # worth finding the orientations to say exactly how many
        check_cell_tests(sum(len(orientations(p.cells, puzzle.flip)) * board_cells * len(p.cells)
                             for p in pictures.values()), what, "pieces")
    estimate = placement_estimate(puzzle)
    check_placements(estimate, f"{len(puzzle.pieces):,} pieces", "pieces")
    return estimate


def placements(puzzle: PackingPuzzle) -> list[Placement]:
    """Every placement of every piece that lies wholly on the board (refused beyond the limits
    of models/limits.py; under the time limit of `limits.building`). Pieces drawn alike are
    placed once and their placements copied."""
    estimate = check_size(puzzle)
    board = set(puzzle.cells)
    order = sorted(board)
    by_picture: dict[tuple[str, ...], list[tuple[int, tuple[Cell, ...]]]] = {}
    found: list[Placement] = []
    for index, piece in enumerate(puzzle.pieces):
        if piece.picture not in by_picture:
            fits = []
            for o, shape in enumerate(orientations(piece.cells, puzzle.flip)):
                fr, fc = shape[0]
                for n, (r0, c0) in enumerate(order):
                    if n % 4096 == 0:
                        step("placements", len(found) + len(fits), estimate)
                    # the shape's first cell on each board cell: every position is tried once
                    cells = tuple((r0 + r - fr, c0 + c - fc) for r, c in shape)
                    if all(cell in board for cell in cells):
                        fits.append((o, cells))
            by_picture[piece.picture] = fits
        step("placements", len(found), estimate)
        found += [Placement(index, o, cells) for o, cells in by_picture[piece.picture]]
    return found


@dataclass
class ExactCover:
    """Rows (placements) covering columns; a solution picks rows covering every column once.

    Columns are the pieces (each used once) followed by the board's cells (each covered once).
    """

    columns: list[str]
    rows: list[tuple[int, ...]]
    labels: list[str]
    pieces: int = 0  # how many of the columns are pieces (the rest are cells)


def exact_cover(puzzle: PackingPuzzle, options: list[Placement]) -> ExactCover:
    """The exact-cover matrix of a puzzle, restricted to the given placements."""
    cells = puzzle.cells
    cell_column = {cell: len(puzzle.pieces) + i for i, cell in enumerate(cells)}
    columns = [p.name for p in puzzle.pieces] + [f"r{r}c{c}" for r, c in cells]
    rows, labels = [], []
    for n, p in enumerate(options):
        if n % 8192 == 0:
            step("rows of the exact cover", n, len(options))
        rows.append((p.piece, *sorted(cell_column[c] for c in p.cells)))
        labels.append(placement_label(puzzle, p))
    return ExactCover(columns, rows, labels, len(puzzle.pieces))


def placement_label(puzzle: PackingPuzzle, placement: Placement) -> str:
    """Piece, orientation and cells, as written in exported files."""
    cells = " ".join(f"r{r}c{c}" for r, c in placement.cells)
    name = puzzle.pieces[placement.piece].name
    return f"piece {name} orientation {placement.orientation} cells {cells}"
