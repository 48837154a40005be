"""The packing puzzle file: a board and pieces drawn as pictures, in TOML.

kind = "packing"
title = "IQ Block, eight pieces"      # optional
source = "where the shapes come from" # optional
flip = true                           # may pieces be turned over? (default true)
board = \"\"\"
XXXXXXXX
XXX..XXX                              # '.' is a hole: not part of the board
\"\"\"

Pictures are read exactly as drawn: every '.' counts and nothing is shifted. Rows may be
indented all alike, but a row indented differently is refused (draw the cells outside the board
as '.'), as are blanks inside a row and blank lines between rows. A row shorter than the others
ends early: its missing cells are holes, as if drawn with '.'.

[pieces]                              # name = picture, 'X' a cell of the piece
L = \"\"\"
X.
XX
\"\"\"
domino = { picture = "XX", count = 32 }  # identical copies: a covering is counted once,
                                         # however its copies are permuted

[placed]                              # optional: a challenge's pieces already on the board
L = [[0, 0], [1, 0], [1, 1]]          # the cells the piece covers, (row, column) from 0

[published]                           # optional: figures others have published
solutions = 48
classes = 6
note = "what was published, and where"

A puzzle in space sets `lattice = "cubic"`. Its board and pieces are then solids: either their
layers drawn one after another, the bottom layer first, separated by a line of dashes, or a
list of cells [layer, row, column]. A piece turns by the 24 rotations of space; a chiral
piece's mirror image is another piece (`flip` does not apply):

lattice = "cubic"
board = [[0, 0, 0], [0, 0, 1], ...]   # or layers, like the pieces
[pieces]
A = \"\"\"
XX
X.
---
X.
..
\"\"\"
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..errors import InputError
from ..files import TomlDoc, layer_pictures, picture_rows
from ..geometry import LATTICES, SQUARE, Cell, normalise
from . import PackingPuzzle, Piece, Placed, SolidPiece, SolidPuzzle, check_size

FIELDS = {"kind", "name", "title", "source", "flip", "lattice", "board", "pieces", "placed",
          "published"}
PUBLISHED = {"solutions": int, "classes": int, "rotation_classes": int, "note": str}
MAX_COORDINATE = 1000  # a solid this large could never be counted


def piece_entry(doc: TomlDoc, name: str, value: object) -> tuple[str, int]:
    """Where a piece's shape is written, and how many identical copies of it there are: a
    piece is its shape, or `{ picture = shape, count = N }` (in the plane and in space)."""
    field = f"pieces.{name}"
    if not isinstance(value, dict):
        return field, 1
    doc.reject_unknown(field, {"picture", "count"})
    count = doc.get(f"{field}.count", int, 1)
    if count < 1:
        raise doc.error(f"{field}.count", f"must be 1 or more, not {count}")
    if "picture" not in value:
        raise doc.error(field, "missing field 'picture' (the piece's shape)")
    return f"{field}.picture", count


def square_piece(doc: TomlDoc, name: str, value: object) -> Piece:
    """A piece of the square lattice: a picture, or a table with its picture and a count of
    identical copies."""
    field, count = piece_entry(doc, name, value)
    return Piece(name, picture_rows(doc, field, doc.get(field, str)), count)


def solid_piece(doc: TomlDoc, name: str, value: object) -> SolidPiece:
    """A piece in space: its layers or cells, or a table with them and a count of copies."""
    field, count = piece_entry(doc, name, value)
    return SolidPiece(name, normalise(solid_cells(doc, field)), count)


def read_packing(doc: TomlDoc) -> PackingPuzzle:
    doc.reject_unknown("", FIELDS)
    lattice = doc.get("lattice", str, SQUARE.name)
    if lattice not in LATTICES:
        raise doc.error("lattice", f"unknown lattice {lattice!r} (one of: "
                        f"{', '.join(LATTICES)})")
    pieces_table = doc.get("pieces", dict, required=True)
    if not pieces_table:
        raise doc.error("pieces", "no pieces")
    common = {
        "name": doc.get("name", str, Path(doc.path).stem),
        "title": doc.get("title", str, ""),
        "source": doc.get("source", str, ""),
        "published": doc.published(PUBLISHED),
    }
    if lattice == SQUARE.name:
        board = picture_rows(doc, "board", doc.get("board", str, required=True))
        pieces = [square_piece(doc, name, pieces_table[name]) for name in pieces_table]
        puzzle: PackingPuzzle = PackingPuzzle(board=board, pieces=tuple(pieces),
                                              flip=doc.get("flip", bool, True), **common)
    else:
        if "flip" in doc.data:
            raise doc.error("flip", "does not apply in space: a piece turns by the 24 "
                            "rotations, and its mirror image is another piece")
        board_cells = solid_cells(doc, "board", required=True)
        solids = [solid_piece(doc, name, pieces_table[name]) for name in pieces_table]
        puzzle = SolidPuzzle(board=tuple(sorted(board_cells)), pieces=tuple(solids), **common)
    area = sum(len(p.cells) * p.count for p in puzzle.pieces)
    if area != len(puzzle.cells):
        raise doc.error(
            "pieces", f"the pieces cover {area} cells but the board has {len(puzzle.cells)}"
        )
    try:  # refused here, at its file and line, rather than when the model is built
        check_size(puzzle)
    except InputError as error:
        raise doc.error("pieces", error.message) from None
    placed = read_placed(doc, puzzle)
    if placed:
        puzzle = dataclasses.replace(puzzle, placed=placed)
    return puzzle


def solid_cells(doc: TomlDoc, field: str, required: bool = False) -> list[Cell]:
    """The cells of a solid: its layers drawn as pictures (the bottom layer first, separated by
    lines of dashes), or a list of [layer, row, column]."""
    value = doc.get(field, (str, list), required=required)
    if isinstance(value, str):
        layers = layer_pictures(doc, field, value)
        return [(layer, r, c) for layer, rows in enumerate(layers)
                for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    return coordinates(doc, field, value, 3)


def coordinates(doc: TomlDoc, field: str, value: list, dimensions: int) -> list[Cell]:
    """A list of cells written as lists of whole numbers from 0, no cell twice."""
    if not value:
        raise doc.error(field, "no cells")
    cells = []
    for cell in value:
        if (not isinstance(cell, list) or len(cell) != dimensions
                or not all(type(x) is int and 0 <= x <= MAX_COORDINATE for x in cell)):
            what = "[layer, row, column]" if dimensions == 3 else "[row, column]"
            raise doc.error(field, f"a cell is {what}, whole numbers from 0 to "
                            f"{MAX_COORDINATE}, not {cell!r}")
        cells.append(tuple(cell))
    if len(set(cells)) != len(cells):
        twice = next(c for c in cells if cells.count(c) > 1)
        raise doc.error(field, f"cell {list(twice)} is listed twice")
    return cells


def read_placed(doc: TomlDoc, puzzle: PackingPuzzle, where: str = "placed"
                ) -> tuple[Placed, ...]:
    """A challenge's [placed] table (or another table of the same form, such as a booklet
    card's): piece name = the cells it covers on the board."""
    table = doc.get(where, dict, {})
    index = {piece.name: i for i, piece in enumerate(puzzle.pieces)}
    board = set(puzzle.board_cells)
    taken: dict[Cell, str] = {}
    placed = []
    for name in table:
        field = f"{where}.{name}"
        if name not in index:
            raise doc.error(field, f"no piece named {name!r} (pieces: {', '.join(index)})")
        cells = coordinates(doc, field, doc.get(field, list), puzzle.lattice.dimensions)
        piece = puzzle.pieces[index[name]]
        if piece.count > 1:
            raise doc.error(field, f"piece {name} has {piece.count} copies; a challenge places "
                            "pieces of one copy only")
        off = [c for c in cells if c not in board]
        if off:
            raise doc.error(field, f"cell {list(off[0])} is not on the board")
        if normalise(cells) not in puzzle.lattice.orientations(piece.cells, puzzle.flip):
            raise doc.error(field, f"these {len(cells)} cells are not piece {name} in any "
                            "orientation it may take")
        for cell in cells:
            if cell in taken:
                raise doc.error(field, f"cell {list(cell)} is covered by {taken[cell]} too")
            taken[cell] = name
        placed.append(Placed(index[name], tuple(sorted(cells))))
    return tuple(placed)


read = read_packing  # the reader models/files.py finds by convention
