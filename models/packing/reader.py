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
tromino = { picture = "XXX", count = [0, 5] }   # any number from 0 to 5 of them
monomino = { picture = "X", count = "any" }     # any number (0 or more)

A top-level `count = ...` (a number, [MIN, MAX] or "any") is the count of every piece that
gives none, the pieces `polyforms = [...]` generates among them.

labels = "..."                        # optional: a calendar's cells named, and the labels
target = ["Jan", "1"]                 # left uncovered (models/packing/labels.py)

[placed]                              # optional: a challenge's pieces already on the board
L = [[0, 0], [1, 0], [1, 1]]          # the cells the piece covers, (row, column) from 0

[published]                           # optional: figures others have published
solutions = 48
classes = 6
note = "what was published, and where"

Another lattice is named by `lattice` (models/geometry.py LATTICES); the board and pieces are then
drawn in that lattice's own picture format, or listed as cells. A puzzle in space sets
`lattice = "cubic"`. Its board and pieces are then solids: either their layers drawn one after
another, the bottom layer first, separated by a line of dashes, or a list of cells [layer, row,
column]. A piece turns by the 24 rotations of space; a chiral piece's mirror image is another
piece (`flip` does not apply):

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
from ..files import TomlDoc
from ..geometry import (
    LATTICES,
    SQUARE,
    Cell,
    Lattice,
    PictureError,
    Shape,
    picture_rows,
    polyforms,
)
from ..words import plural
from . import CellPiece, CellPuzzle, PackingPuzzle, Piece, Placed, check_size
from .labels import area_hint, read_labels

FIELDS = {"kind", "name", "title", "source", "flip", "lattice", "board", "pieces", "placed",
          "published", "polyforms", "count", "labels", "target"}
MAX_POLYFORM_ORDER = 8  # 66 octiamonds, 369 octominoes: sets any count could use
PUBLISHED = {"solutions": int, "classes": int, "rotation_classes": int, "note": str}
MAX_COORDINATE = 1000  # a solid this large could never be counted


Copies = tuple[int, "int | None"]  # (least, most) copies; most None: as many as fit ("any")
EXACTLY_ONE: Copies = (1, 1)


def copies(doc: TomlDoc, field: str, default: Copies = EXACTLY_ONE) -> Copies:
    """How many copies of a piece a solution uses, as a field gives it: a number N (exactly N,
    1 or more), a range [MIN, MAX] (0 <= MIN <= MAX, MAX 1 or more) or "any" (0 or more)."""
    value = doc.get(field, (int, list, str), None)
    if value is None:
        return default
    if isinstance(value, str):
        if value != "any":
            raise doc.error(field, f'a number, [MIN, MAX] or "any", not {value!r}')
        return 0, None
    if isinstance(value, int):
        if value < 1:
            raise doc.error(field, f"must be 1 or more, not {value}")
        return value, value
    if len(value) != 2 or any(type(n) is not int for n in value):
        raise doc.error(field, f"a range is two whole numbers [MIN, MAX], not {value!r}")
    least, most = value
    if least < 0 or least > most or most < 1:
        raise doc.error(field, f"a range [MIN, MAX] needs 0 <= MIN <= MAX and MAX >= 1, not "
                        f"{value!r}")
    return least, most


def piece_entry(doc: TomlDoc, name: str, value: object,
                default: Copies = EXACTLY_ONE) -> tuple[str, Copies]:
    """Where a piece's shape is written, and how many identical copies of it a solution uses
    (`copies`): a piece is its shape, or `{ picture = shape, count = ... }` (in the plane and
    in space)."""
    field = f"pieces.{name}"
    if not isinstance(value, dict):
        return field, default
    doc.reject_unknown(field, {"picture", "count"})
    count = copies(doc, f"{field}.count", default)
    if "picture" not in value:
        raise doc.error(field, "missing field 'picture' (the piece's shape)")
    return f"{field}.picture", count


def square_piece(doc: TomlDoc, name: str, value: object, default: Copies = EXACTLY_ONE
                 ) -> Piece:
    """A piece of the square lattice: a picture, or a table with its picture and a count of
    identical copies."""
    field, (least, most) = piece_entry(doc, name, value, default)
    return with_copies(Piece(name, picture(doc, field, picture_rows)), least, most)


def cell_piece(doc: TomlDoc, grid: Lattice, name: str, value: object,
               default: Copies = EXACTLY_ONE) -> CellPiece:
    """A piece on a lattice: its picture or cells, or a table with them and a count of copies."""
    field, (least, most) = piece_entry(doc, name, value, default)
    cells = lattice_cells(doc, grid, field)
    if grid.connected_pieces and not grid.connected(cells):
        raise doc.error(field, f"piece {name} is in parts: on the {grid.name} lattice a piece "
                        f"is one body, every {grid.cell_noun} of it touching another of it")
    return with_copies(CellPiece(name, grid.normalise(cells)), least, most)


def with_copies(piece, least: int, most: int | None):
    """The piece with the copies a solution uses (most None, "any": count 0 until
    `settle_any` knows the board)."""
    return dataclasses.replace(piece, count=most or 0, least=None if least == most else least)


def read_packing(doc: TomlDoc) -> PackingPuzzle:
    doc.reject_unknown("", FIELDS)
    name = doc.get("lattice", str, SQUARE.name)
    if name not in LATTICES:
        raise doc.error("lattice", f"unknown lattice {name!r} (one of: "
                        f"{', '.join(LATTICES)})")
    grid = LATTICES[name]
    default = copies(doc, "count")
    orders = polyform_orders(doc)
    pieces_table = doc.get("pieces", dict, {} if orders else None, required=not orders)
    if not pieces_table and not orders:
        raise doc.error("pieces", "no pieces")
    made = {name for name, _ in generated(grid, orders, doc.get("flip", bool, True))}
    for name in pieces_table:
        if name in made:
            raise doc.error(f"pieces.{name}", f"piece {name} is one of the polyforms "
                            f"{orders} too: name it otherwise")
    if grid.flip_note and "flip" in doc.data:
        raise doc.error("flip", grid.flip_note)
    common = {
        "name": doc.get("name", str, Path(doc.path).stem),
        "title": doc.get("title", str, ""),
        "source": doc.get("source", str, ""),
        "published": doc.published(PUBLISHED),
        "flip": doc.get("flip", bool, True) if not grid.flip_note else False,
    }
    if grid is SQUARE and isinstance(doc.get("board", (str, list), required=True), str):
        # the square lattice's pictures are kept as drawn (their holes are drawn as such)
        board = picture(doc, "board", picture_rows)
        pieces = [Piece(name, tuple(grid.picture(shape).split("\n")))
                  for name, shape in generated(grid, orders, common["flip"])]
        pieces = [with_copies(p, *default) for p in pieces]
        pieces += [square_piece(doc, name, pieces_table[name], default) for name in pieces_table]
        puzzle: PackingPuzzle = PackingPuzzle(board=board, pieces=tuple(pieces), **common)
    else:
        board_cells = lattice_cells(doc, grid, "board", required=True)
        cell_pieces = [with_copies(CellPiece(name, shape), *default)
                       for name, shape in generated(grid, orders, common["flip"])]
        cell_pieces += [cell_piece(doc, grid, name, pieces_table[name], default)
                        for name in pieces_table]
        puzzle = CellPuzzle(board=tuple(sorted(board_cells)), pieces=tuple(cell_pieces),
                            lattice_name=grid.name, **common)
    puzzle = read_labels(doc, puzzle)  # a calendar's labels: its target's cells are holes
    board_cells = len(puzzle.board_cells)  # not puzzle.cells: no fill order sorted yet
    puzzle = settle_any(puzzle, board_cells)
    least = sum(len(p.cells) * p.fewest for p in puzzle.pieces)
    area = sum(len(p.cells) * p.count for p in puzzle.pieces)
    if least == area != board_cells:
        raise doc.error(
            "pieces", f"the pieces cover {plural(area, 'cell')} but the board has {board_cells}"
            + area_hint(puzzle, area)
        )
    if not least <= board_cells <= area:
        raise doc.error("pieces", f"the pieces cover {least} to {plural(area, 'cell')} but the "
                        f"board has {board_cells}")
    try:  # refused here, at its file and line, rather than when the model is built
        check_size(puzzle)
    except InputError as error:
        raise doc.error("pieces", error.message) from None
    placed = read_placed(doc, puzzle)
    if placed:
        puzzle = dataclasses.replace(puzzle, placed=placed)
    return puzzle


def settle_any(puzzle: PackingPuzzle, board_cells: int) -> PackingPuzzle:
    """The puzzle with every piece given "any" copies (count 0 as read) allowed as many as fit
    on the board."""
    if all(p.count for p in puzzle.pieces):
        return puzzle
    pieces = tuple(p if p.count else dataclasses.replace(
        p, count=max(1, board_cells // len(p.cells)), least=p.fewest) for p in puzzle.pieces)
    return dataclasses.replace(puzzle, pieces=pieces)


def polyform_orders(doc: TomlDoc) -> list[int]:
    """The orders of the `polyforms` field: the sizes of the polyforms in the set."""
    orders = doc.get("polyforms", list, [])
    if any(type(n) is not int or not 1 <= n <= MAX_POLYFORM_ORDER for n in orders) or len(
            set(orders)) != len(orders):
        raise doc.error("polyforms", f"a list of orders, whole numbers from 1 to "
                        f"{MAX_POLYFORM_ORDER}, each once (the sizes of the pieces), not "
                        f"{orders!r}")
    return orders


def generated(grid: Lattice, orders: list[int], flip: bool) -> list[tuple[str, Shape]]:
    """The polyforms of the given orders on a lattice, named: the free ones where pieces may be
    turned over; where not, the one-sided ones (a chiral shape and its mirror image). A name is
    the order and a letter in the order of the free set ('6a', '6b', ... or '8.1', '8.2' beyond
    26), a mirror image's with a prime ('6c'')."""
    found = []
    for order in sorted(orders):
        free = polyforms(grid, order, True)
        for k, shape in enumerate(free):
            name = f"{order}{chr(97 + k)}" if len(free) <= 26 else f"{order}.{k + 1}"
            found.append((name, grid.normalise(shape)))
            if not flip:
                own = min(grid.orientations(shape, False))
                twin = min(grid.orientations(grid.mirror(shape), False))
                if twin != own:
                    found.append((name + "'", grid.normalise(twin)))
    return found


def picture(doc: TomlDoc, field: str, read, grid: Lattice = SQUARE):
    """A picture field read by `read` (a lattice's reader of its text), its errors located at
    the file, line and field; a picture drawn on another lattice is said to be so."""
    text = doc.get(field, str)
    try:
        return read(text)
    except PictureError as error:
        message = error.message
        other = next((o for o in LATTICES.values() if o is not grid and _reads(o, text)), None)
        if other is not None:
            message = (f"drawn on the {other.name} lattice, but the puzzle is on the "
                       f"{grid.name} lattice (lattice = \"{grid.name}\"): {message}")
        first_line = doc.value_line(field)
        if error.line is None or first_line is None:
            raise doc.error(field, message) from None
        raise InputError(message, file=doc.path, line=first_line + error.line,
                         field=field) from None


def _reads(grid: Lattice, text: str) -> bool:
    try:
        grid.picture_cells(text)
    except PictureError:
        return False
    return True


def lattice_cells(doc: TomlDoc, grid: Lattice, field: str, required: bool = False
                  ) -> list[Cell]:
    """The cells of a board or piece: a picture in the lattice's own format, or a list of
    cells."""
    value = doc.get(field, (str, list), required=required)
    if isinstance(value, str):
        return picture(doc, field, grid.picture_cells, grid)
    return coordinates(doc, field, value, grid)


def coordinates(doc: TomlDoc, field: str, value: list, grid: Lattice) -> list[Cell]:
    """A list of cells written as lists of whole numbers from 0, each a cell of the lattice, no
    cell twice."""
    if not value:
        raise doc.error(field, "no cells")
    cells = []
    for cell in value:
        if (not isinstance(cell, list) or len(cell) != grid.dimensions
                or not all(type(x) is int and 0 <= x <= MAX_COORDINATE for x in cell)):
            raise doc.error(field, f"a cell is {grid.coordinates}, whole numbers from 0 to "
                            f"{MAX_COORDINATE}, not {cell!r}")
        if not grid.is_cell(tuple(cell)):
            raise doc.error(field, f"{cell!r} is not a cell of the {grid.name} lattice "
                            f"(a cell is {grid.coordinates}{grid.cell_rule})")
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
        cells = coordinates(doc, field, doc.get(field, list), puzzle.lattice)
        piece = puzzle.pieces[index[name]]
        if piece.count > 1:
            raise doc.error(field, f"piece {name} has {plural(piece.count, 'copy')}; a challenge "
                            "places pieces of one copy only")
        if piece.fewest != piece.count:
            raise doc.error(field, f"piece {name} comes in any number; a challenge places "
                            "pieces used exactly once")
        off = [c for c in cells if c not in board]
        if off:
            meant = puzzle.lattice.meant(doc.get("board", (str, list)), off[0], board)
            raise doc.error(field, f"cell {list(off[0])} is not on the board" + (
                f" (the board's picture is read one column to the right, so that its first "
                f"{puzzle.lattice.cell_noun} keeps its kind: the one drawn there is "
                f"{list(meant)})" if meant else ""))
        if puzzle.lattice.normalise(cells) not in puzzle.lattice.orientations(piece.cells,
                                                                              puzzle.flip):
            these = "this cell is" if len(cells) == 1 else f"these {plural(len(cells), 'cell')} are"
            raise doc.error(field, f"{these} not piece {name} in any orientation it may take")
        for cell in cells:
            if cell in taken:
                raise doc.error(field, f"cell {list(cell)} is covered by {taken[cell]} too")
            taken[cell] = name
        placed.append(Placed(index[name], tuple(sorted(cells))))
    return tuple(placed)


read = read_packing  # the reader models/files.py finds by convention
