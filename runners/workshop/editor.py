"""The workshop's editor of packing puzzles: cells clicked on a lattice, written as the TOML
file the command line reads, and such a file read back into cells.

What the page edits is a design (a card, where some pieces are placed on the board where they
are drawn): a lattice (squares, triangles, hexagons; cubes and balls, drawn
layer by layer side by side, the bottom layer first), whether pieces may be turned over (in the
plane), the board's cells and each piece's cells and copies. `toml_text` writes it as
pictures in the lattice's own format (models/README.md), and the text is read back by the
packing reader before anything is written (`checked`), so that what the editor saves is what
`puzzlesat count FILE` counts, and a design the reader refuses is said in its one line.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..models import files
from ..models.errors import InputError
from ..models.geometry import LATTICES, Cell

EDITABLE = ("square", "triangular", "hexagonal", "cubic", "balls")  # lattices a page edits
MOST_CELLS = 40  # rows and columns of the page's grid, at most
MOST_LAYERS = 12  # layers of a grid in space, at most
LAYER_GAP = 1.0  # cells between two layers drawn side by side
BALL_SIDES = 16  # a ball drawn as a polygon of this many sides
BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*\.toml$")


@dataclass(frozen=True)
class Design:
    """A packing puzzle as the editor holds it."""

    lattice: str
    flip: bool
    title: str
    board: list[Cell]
    pieces: list[tuple[str, list[Cell], int]]  # name, cells, copies
    placed: tuple[str, ...] = ()  # pieces placed on the board where drawn (a card)


def lattice_of(name: object):
    if name not in EDITABLE:
        raise InputError(f"the editor draws the lattices {', '.join(EDITABLE)}, not {name!r}",
                         field="lattice")
    return LATTICES[name]


def grid(lattice_name: str, rows: int, cols: int, size: float = 30.0, layers: int = 1) -> dict:
    """The cells of a rows x cols patch of the lattice (in space: of each of `layers` layers,
    drawn side by side, the bottom one first), each with its outline in pixels."""
    lattice = lattice_of(lattice_name)
    rows, cols = max(1, min(rows, MOST_CELLS)), max(1, min(cols, MOST_CELLS))
    layers = max(1, min(layers, MOST_LAYERS)) if lattice.dimensions == 3 else 1
    top = 18.0 if lattice.dimensions == 3 else 0.0  # room for the layers' names
    cells, captions = [], []
    for layer in range(layers):
        left = layer * (cols + LAYER_GAP) * size
        if lattice.dimensions == 3:
            captions.append({"x": left + 2, "y": 13, "text": f"layer {layer}"})  # 0: bottom
        for r in range(rows):
            for c in range(cols):
                cell = (layer, r, c) if lattice.dimensions == 3 else (r, c)
                if lattice.is_cell(cell):
                    points = [[round(left + x * size + 2, 2), round(top + y * size + 2, 2)]
                              for x, y in _outline(lattice, cell)]
                    cells.append({"cell": list(cell), "points": points})
    width = max(x for cell in cells for x, _ in cell["points"]) + 2
    height = max(y for cell in cells for _, y in cell["points"]) + 2
    return {"lattice": lattice.name, "rows": rows, "cols": cols, "layers": layers,
            "dimensions": lattice.dimensions, "cells": cells, "captions": captions,
            "width": width, "height": height}


def _outline(lattice, cell: Cell) -> list[tuple[float, float]]:
    """A cell's outline as the editor draws it: a flat lattice's own; in space, a layer's
    cell at its row and column, a cube as a square, a ball as a round polygon."""
    if lattice.dimensions == 2:
        return lattice.outline(cell)
    _, r, c = cell
    if lattice.name != "balls":
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
    return [(c + 0.5 + 0.46 * math.cos(2 * math.pi * k / BALL_SIDES),
             r + 0.5 + 0.46 * math.sin(2 * math.pi * k / BALL_SIDES)) for k in range(BALL_SIDES)]


def design(data: object) -> Design:
    """A design from the page's JSON, its shape checked (the reader checks the puzzle)."""
    if not isinstance(data, dict):
        raise InputError("a design is an object", field="design")
    lattice = lattice_of(data.get("lattice"))
    size = lattice.dimensions

    def cells(value: object, what: str) -> list[Cell]:
        if not isinstance(value, list) or not all(
                isinstance(c, list) and len(c) == size and all(type(x) is int and x >= 0
                                                               for x in c)
                for c in value):
            raise InputError(f"cells are {lattice.coordinates} of whole numbers from 0",
                             field=what)
        return sorted({tuple(c) for c in value})

    pieces, placed = [], []
    for entry in data.get("pieces") or []:
        name = str(entry.get("name", "")).strip() if isinstance(entry, dict) else ""
        if not name or len(name) > 20 or any(ch in name for ch in "\"\\\n"):
            raise InputError(f"a piece needs a name of 1 to 20 characters, not {name!r}",
                             field="pieces")
        copies = entry.get("copies", 1)
        if type(copies) is not int or copies < 1:
            raise InputError(f"piece {name}: copies is a whole number from 1", field="pieces")
        pieces.append((name, cells(entry.get("cells"), f"pieces.{name}"), copies))
        if entry.get("placed") is True:
            placed.append(name)
    title = data.get("title") or ""
    return Design(data["lattice"], bool(data.get("flip", True)), str(title),
                  cells(data.get("board"), "board"), pieces, tuple(placed))


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _key(name: str) -> str:
    return name if BARE_KEY.match(name) else _string(name)


def _picture(lattice, cells: list[Cell], what: str) -> str:
    if not cells:
        raise InputError("no cells: click cells to make it", field=what)
    return '"""\n' + lattice.picture(cells) + '\n"""'


def toml_text(made: Design) -> str:
    """The design as a packing puzzle file (pictures in the lattice's format)."""
    lattice = LATTICES[made.lattice]
    lines = ['kind = "packing"']
    if made.lattice != "square":
        lines.append(f"lattice = {_string(made.lattice)}")
    if made.title:
        lines.append(f"title = {_string(made.title)}")
    if not lattice.flip_note:  # in space a piece turns by its rotations: no flip to say
        lines.append(f"flip = {'true' if made.flip else 'false'}")
    lines.append(f"board = {_picture(lattice, made.board, 'board')}")
    lines += ["", "[pieces]"]
    for name, cells, copies in made.pieces:
        drawn = _picture(lattice, cells, f"pieces.{name}")
        lines.append(f"{_key(name)} = " + (drawn if copies == 1 else
                                           f"{{ picture = {drawn}, count = {copies} }}"))
    if made.placed:
        lines += ["", "[placed]"]
        # the board's picture is read back moved by a lattice vector: so are the placed cells
        read_back = sorted(lattice.picture_cells(lattice.picture(made.board)))
        vector = lattice.translation(min(made.board), read_back[0])
        for name, cells, _ in made.pieces:
            if name in made.placed and cells:
                moved = sorted(lattice.translate(cells, vector))
                lines.append(f"{_key(name)} = {[list(cell) for cell in moved]}")
    return "\n".join(lines) + "\n"


def checked(path: str, text: str):
    """The puzzle the packing reader makes of a file's text (InputError where it refuses)."""
    puzzle = files.read_puzzle_text(path, text)
    if puzzle.kind != "packing" or puzzle.lattice.name not in EDITABLE:
        raise InputError(f"the editor opens packing puzzles on the lattices "
                         f"{', '.join(EDITABLE)}", file=path, field="kind")
    return puzzle


def read_design(path: str, text: str) -> dict:
    """A file's text as the page's design (what the reader makes of it)."""
    puzzle = checked(path, text)
    where = {p.piece: p.cells for p in puzzle.placed}  # a card's pieces, drawn where placed
    return {"lattice": puzzle.lattice.name, "flip": puzzle.flip,
            "title": getattr(puzzle, "title", ""),
            "board": [list(c) for c in puzzle.board_cells],
            "pieces": [{"name": p.name, "cells": [list(c) for c in where.get(i, p.cells)],
                        "copies": p.count, "placed": i in where}
                       for i, p in enumerate(puzzle.pieces)]}


def file_name(name: object) -> str:
    """A file name the editor may write in its folder: letters, digits, '.', '_', '-' and
    .toml, no folder."""
    if not isinstance(name, str) or not FILE_NAME.match(name) or len(name) > 100:
        raise InputError("a file name is letters, digits, '.', '_' or '-', ending in .toml "
                         f"(no folder), not {name!r}", field="file")
    return name


def moved(lattice_name: object, cells: object, how: object) -> list[list[int]]:
    """A piece's cells turned by the lattice's least rotation (clockwise as drawn; in space, a
    quarter turn about the vertical) or mirrored, then put back where the piece began (its
    least row and column, and layer), on cells of the lattice."""
    lattice = lattice_of(lattice_name)
    if how not in ("turn", "mirror"):
        raise InputError(f"a piece is turned or mirrored, not {how!r}", field="how")
    shape = design({"lattice": lattice_name, "board": cells}).board
    if not shape:
        raise InputError("no cells to move: click cells first", field="cells")
    if lattice.dimensions == 3:
        made = (quarter_turn(lattice, shape) if how == "turn" else lattice.mirror(shape))
        least = [min(axis) for axis in zip(*shape)]
        return [[x + x0 for x, x0 in zip(cell, least)] for cell in lattice.normalise(made)]
    made = lattice.normalise(lattice.turn(shape) if how == "turn" else lattice.mirror(shape))
    row = min(r for r, _ in shape) - min(r for r, _ in made)
    col = min(c for _, c in shape) - min(c for _, c in made)
    # its least column kept, or one to the left (never below 0), where a triangle's kind
    # needs it: turned again and again, a piece does not walk across the grid
    vector = next(v for v in ((row, col), (row, col - 1), (row, col + 1))
                  if lattice.translation((0, 0), v) is not None
                  and min(c for _, c in made) + v[1] >= 0)
    return [list(cell) for cell in lattice.translate(made, vector)]


def quarter_turn(lattice, cells: list[Cell]) -> list[Cell]:
    """Cells in space turned a quarter about the vertical, clockwise as a layer is drawn (a
    step along a row becomes a step down a column): the lattice's rotation that does so."""
    def step(motion, vector: Cell) -> Cell:
        origin = lattice.turned(motion, (0, 0, 0))
        return tuple(a - b for a, b in zip(lattice.turned(motion, vector), origin))

    for motion in lattice.rotations:
        if (step(motion, (0, 0, 1)) == (0, 1, 0) and step(motion, (0, 1, 0)) == (0, 0, -1)
                and step(motion, (1, 0, 0))[0] == 1):
            return [lattice.turned(motion, cell) for cell in cells]
    raise InputError(f"the {lattice.name} lattice has no quarter turn about the vertical",
                     field="lattice")
