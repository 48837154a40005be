"""Drawings of packing puzzles: a solved board (each piece its own colour and name) and pieces.

A solution is a dict (row, col) -> piece index over the board's cells. Holes of the board (cells
'.' inside its picture) are drawn hatched; lines between cells of different pieces are thick.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from ..models.geometry import Cell, lattice_part, picture_cells
from ..models.packing import PackingPuzzle
from . import gallery as galleries
from . import play as plays
from . import solutions as found
from .svg import Svg, palette, text_colour

CELL = 28
MARGIN = 6
PAGE_SOLUTIONS = 1000  # solutions embedded in a play page (all of them when fewer)


def piece_colour(index: int) -> str:
    return palette(index)


def _label_cell(cells: list[Cell]) -> Cell:
    """The piece's cell nearest its centre of mass: where its name is written."""
    mr = sum(r for r, _ in cells) / len(cells)
    mc = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda cell: ((cell[0] - mr) ** 2 + (cell[1] - mc) ** 2, cell))


def _outline(svg: Svg, owner: dict[Cell, object], x0: float, y0: float, size: float, parent):
    """Thick lines where a cell meets a different piece, a hole or the outside."""
    for (r, c), who in owner.items():
        x, y = x0 + c * size, y0 + r * size
        for dr, dc, line in (
            (-1, 0, (x, y, x + size, y)),
            (1, 0, (x, y + size, x + size, y + size)),
            (0, -1, (x, y, x, y + size)),
            (0, 1, (x + size, y, x + size, y + size)),
        ):
            if owner.get((r + dr, c + dc)) != who:
                svg.line(*line, parent, stroke="#222222", stroke_width=2.5,
                         stroke_linecap="round")


def draw_owner_grid(svg: Svg, owner: dict[Cell, int], names: list[str], cells: list[Cell],
                    x0: float, y0: float, size: float, parent,
                    colour: Callable[[int], str] = piece_colour) -> None:
    """Cells at (x0, y0) coloured by the piece covering them (white where none), thick lines
    between pieces, each piece's name on its middle cell."""
    for r, c in cells:
        piece = owner.get((r, c))
        fill = "#ffffff" if piece is None else colour(piece)
        name = "" if piece is None else names[piece]
        svg.rect(x0 + c * size, y0 + r * size, size, size, parent, class_="cell", fill=fill,
                 stroke="#00000033", stroke_width=0.6, data_row=r, data_col=c, data_piece=name)
    _outline(svg, dict(owner), x0, y0, size, svg.group(parent, class_="outline"))
    labels = svg.group(parent, class_="names")
    by_piece: dict[int, list[Cell]] = {}
    for at, piece in owner.items():
        by_piece.setdefault(piece, []).append(at)
    for piece, cells_of in sorted(by_piece.items()):
        r, c = _label_cell(cells_of)
        svg.text(x0 + (c + 0.5) * size, y0 + (r + 0.5) * size, names[piece], labels,
                 size=size * 0.42, fill=text_colour(colour(piece)), font_weight="bold")


def draw_solution(
    puzzle: PackingPuzzle, grid: dict[Cell, int], title: str = "", cell: float = CELL
) -> Svg:
    """The board with every cell coloured by the piece covering it, names written on pieces."""
    board = picture_cells(puzzle.board)
    rows, cols = len(puzzle.board), max(len(row) for row in puzzle.board)
    top = MARGIN + (18 if title else 0)
    svg = Svg(cols * cell + 2 * MARGIN, rows * cell + top + MARGIN, title or puzzle.name)
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    cells = svg.group(class_="board")
    on_board = set(board)
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in on_board and c < len(puzzle.board[r]):
                svg.rect(MARGIN + c * cell, top + r * cell, cell, cell, cells, class_="hole",
                         fill="url(#hatch)", stroke="#bbbbbb", stroke_width=0.5)
    _hatch(svg)
    draw_owner_grid(svg, grid, [p.name for p in puzzle.pieces], sorted(board), MARGIN, top, cell,
                    cells)
    return svg


def solution_drawing(puzzle: PackingPuzzle, solution) -> Svg:
    """A Solution drawn as `draw` draws one (what a notebook shows): the board, or in space the
    box's isometric view and layers."""
    return draw_grid(puzzle, solution.grid, f"{puzzle.name}: solved by {solution.backend}")


def draw_grid(puzzle: PackingPuzzle, grid: dict[Cell, int], caption: str) -> Svg:
    """Pieces on the board, whole or in part (a card's pre-placed pieces): the board with its
    empty cells white, or in space the box's isometric view and layers."""
    return _drawings(puzzle).draw(puzzle, grid, caption)


def _hatch(svg: Svg) -> None:
    defs = svg.add("defs")
    pattern = svg.add("pattern", defs, id="hatch", width=6, height=6,
                      patternUnits="userSpaceOnUse", patternTransform="rotate(45)")
    svg.rect(0, 0, 6, 6, pattern, fill="#eeeeee")
    svg.line(0, 0, 0, 6, pattern, stroke="#aaaaaa", stroke_width=2)


def draw_pieces(puzzle: PackingPuzzle, cell: float = 22, per_row: int = 6) -> Svg:
    """The piece reference: every piece as drawn in the puzzle file, with its name."""
    shapes = [piece.cells for piece in puzzle.pieces]
    box = max(max(max(r for r, _ in s), max(c for _, c in s)) + 1 for s in shapes)
    slot = box * cell + 2 * MARGIN
    count = len(shapes)
    columns = min(per_row, count)
    lines = -(-count // columns)
    svg = Svg(columns * slot, lines * (slot + 16), f"{puzzle.name}: the {count} pieces")
    for index, (piece, cells) in enumerate(zip(puzzle.pieces, shapes)):
        x0 = (index % columns) * slot + MARGIN
        y0 = (index // columns) * (slot + 16) + MARGIN + 16
        svg.text(x0, y0 - 9, piece.name, size=12, anchor="start", font_weight="bold")
        group = svg.group(class_="piece", data_piece=piece.name)
        for r, c in cells:
            svg.rect(x0 + c * cell, y0 + r * cell, cell, cell, group, class_="cell",
                     fill=piece_colour(index), stroke="#00000055", stroke_width=0.6)
        _outline(svg, {cell_: 0 for cell_ in cells}, x0, y0, cell, group)
    return svg


# ---------------------------------------------------------------- the family's pictures


def _drawings(puzzle: PackingPuzzle):
    """The drawings of the puzzle's lattice (`DRAWINGS`): an error naming a lattice that has
    none. The one place the packing pictures look at the lattice."""
    where = lattice_part(DRAWINGS, puzzle.lattice, "drawing")
    if where == "plane":
        return PLANE
    # they draw with this module's colours: imported when needed
    if where == "balls":
        from . import balls

        return balls
    from . import packing3d

    return packing3d


def pieces(puzzle: PackingPuzzle) -> Svg:
    """What `draw --pieces` draws."""
    return _drawings(puzzle).pieces(puzzle)


def gallery(puzzle: PackingPuzzle, modulo: str, cap: int) -> galleries.Gallery:
    """Every solution (or one per class under the board's symmetries), with the count."""
    return _drawings(puzzle).gallery(puzzle, modulo, cap)


def page(puzzle: PackingPuzzle, level: int | None = None) -> str:
    """The page of a packing puzzle: in the plane, drag, turn, flip, snap, hint, check, undo (a
    challenge starts from its pre-placed pieces, which stay where they are); in space, the 3D
    page (turn the box by dragging, step through the assembly)."""
    return _drawings(puzzle).page(puzzle)


def print_set(puzzle: PackingPuzzle, size: float, clearance: float
              ) -> tuple[dict[str, bytes], str]:
    """STL files to print a puzzle in space ('stl' in its lattice's capabilities): every piece
    and a solution assembled, a cell `size` mm (a cube's edge, a ball's diameter)."""
    return _drawings(puzzle).print_set(puzzle, size, clearance)


def plane_gallery(puzzle: PackingPuzzle, modulo: str, cap: int) -> galleries.Gallery:
    """A flat puzzle's gallery: every solution (or one per class), with the count."""
    grids = found.packing_solutions(puzzle)
    by = "rotation" if modulo == "rotation" else "symmetry"
    members = found.packing_classes(puzzle, grids, by)
    classes = len({m.klass for m in members})
    symmetries = found.packing_symmetries(puzzle, by)
    turned = "rotations and reflections" if puzzle.flip else "rotations"
    statement = (
        f"{galleries.plural(len(grids), 'solution')}: ways to cover the board with the "
        f"{len(puzzle.pieces)} pieces, each used once ({turned} of the whole board count as "
        f"different solutions); {galleries.plural(classes, 'class')} under the board's "
        f"{symmetries} {'rotations' if by == 'rotation' else 'symmetries'}."
    )
    shown = found.representatives(members) if modulo != "none" else members
    figures = galleries.figures(shown, modulo != "none", "solution", cap,
                                lambda grid, caption: draw_solution(puzzle, grid, caption))
    return galleries.Gallery(puzzle.title or puzzle.name, statement, draw_pieces(puzzle),
                             figures, len(shown))


def plane_page(puzzle: PackingPuzzle) -> str:
    """A flat puzzle's play page: drag, turn, flip, snap, hint, check, undo."""
    size = 34
    grids = found.packing_solutions(puzzle, limit=PAGE_SOLUTIONS + 1)
    complete = len(grids) <= PAGE_SOLUTIONS
    grids = grids[:PAGE_SOLUTIONS]
    board_cells = sorted((r, c) for r, row in enumerate(puzzle.board)
                         for c, ch in enumerate(row) if ch == "X")
    height, width = len(puzzle.board), max(len(row) for row in puzzle.board)
    extent = max(max(max(r for r, _ in p.cells), max(c for _, c in p.cells)) + 1
                 for p in puzzle.pieces)
    slot = (extent + 0.5) * size
    origin = (20, 20)
    tray_x = origin[0] + width * size + 40
    columns = max(2, int((1060 - tray_x) // slot))  # the page fits about 1,100 pixels across
    tray = [(tray_x + (i % columns) * slot, origin[1] + (i // columns) * slot)
            for i in range(len(puzzle.pieces))]
    lines = -(-len(puzzle.pieces) // columns)
    bottom = origin[1] + max(height * size, lines * slot) + 20
    svg = Svg(tray_x + columns * slot, bottom, puzzle.title or puzzle.name)
    board = svg.group(id="board")
    for r in range(height):
        for c in range(width):
            on = (r, c) in board_cells
            svg.rect(origin[0] + c * size, origin[1] + r * size, size, size, board,
                     class_="cell" if on else "hole", data_row=r, data_col=c,
                     fill="#ffffff" if on else "#d8d8d8", stroke="#bbbbbb")
    svg.group(id="pieces")
    data = {
        "size": size, "origin": origin, "width": width, "height": height, "tray": tray,
        "cells": board_cells, "flip": puzzle.flip, "complete": complete,
        "pieces": [{"name": p.name, "cells": p.cells, "colour": piece_colour(i),
                    "text": text_colour(piece_colour(i))}
                   for i, p in enumerate(puzzle.pieces)],
        "solutions": [[grid[cell] for cell in board_cells] for grid in grids],
        "placed": {p.piece: [list(c) for c in p.cells] for p in puzzle.placed},
    }
    controls = plays.buttons(("rotate", "Rotate (r)"), ("flip", "Flip (f)"), ("hint", "Hint"),
                        ("check", "Check"), ("undo", "Undo"), ("reset", "Reset"))
    total = f"all {len(grids)}" if complete else f"the first {len(grids)}"
    rules = (f"Cover every white cell with the {len(puzzle.pieces)} pieces, each used once. "
             f"The page holds {total} solutions found by the reference solver: hints follow "
             "them" + (", and a piece placed where no solution has it is outlined in red."
                       if complete else "."))
    if puzzle.placed:
        rules += (f" A challenge: {len(puzzle.placed)} pieces are already placed (outlined in "
                  "black) and stay where they are.")
    help_text = ("Drag a piece onto the board (it snaps to the grid), or click a piece and then "
                 "a cell for its first cell. Right-click or r turns the selected piece "
                 "clockwise, f flips it. Drag a piece off the board to put it back.")
    return plays.html_page("packing", puzzle.title or puzzle.name, rules, controls,
                           svg.inline(), data, "packing.js", help_text)


# The drawings of each lattice (keyed by its name): 'plane', this module's flat drawings and
# play page; 'space', packing3d's isometric views of cubes and 3D page; 'balls', balls.py's
# balls in those views and on that page. tests/test_lattices.py fails when a lattice in
# models/geometry.py has none.
DRAWINGS = {"square": "plane", "cubic": "space", "balls": "balls"}
PLANE = SimpleNamespace(draw=draw_solution, pieces=draw_pieces, gallery=plane_gallery,
                        page=plane_page)
