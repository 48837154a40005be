"""Drawings of packing puzzles: a solved board (each piece its own colour and name) and pieces.

A solution is a dict cell -> piece index over the board's cells. Every cell is drawn as its
lattice outlines it (squares, triangles, hexagons); holes of the board (the '.' of a square
picture, the cells a board encloses on other lattices) are drawn hatched; lines between cells of
different pieces are thick.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from ..models.errors import InputError
from ..models.geometry import SQUARE, Cell, Lattice, lattice_part
from ..models.packing import PackingPuzzle
from ..models.words import plural
from . import gallery as galleries
from . import play as plays
from . import solutions as found
from .svg import Svg, palette, text_colour

CELL = 28
MARGIN = 6
PAGE_SOLUTIONS = 1000  # solutions embedded in a play page (all of them when fewer)


def piece_colour(index: int) -> str:
    return palette(index)


Point = tuple[float, float]


def _centre(points: list[Point]) -> Point:
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def _frame(lattice: Lattice, cells) -> tuple[float, float, float, float]:
    """The least and greatest x and y of the cells' outlines (in the lattice's units)."""
    points = [p for cell in cells for p in lattice.outline(cell)]
    return (min(x for x, _ in points), min(y for _, y in points),
            max(x for x, _ in points), max(y for _, y in points))


def _label_cell(lattice: Lattice, cells: list[Cell]) -> Cell:
    """The piece's cell nearest its centre of mass: where its name is written."""
    centres = {cell: _centre(lattice.outline(cell)) for cell in cells}
    mx, my = _centre(list(centres.values()))
    return min(cells, key=lambda cell: ((centres[cell][0] - mx) ** 2
                                        + (centres[cell][1] - my) ** 2, cell))


def _outline(svg: Svg, lattice: Lattice, owner: dict[Cell, object], place, parent) -> None:
    """Thick lines where a cell meets a different piece, a hole or the outside: every side of a
    cell's outline that no cell of the same piece shares."""
    sides: dict[frozenset, list] = {}
    for cell, who in owner.items():
        corners = [place(p) for p in lattice.outline(cell)]
        for start, end in zip(corners, corners[1:] + corners[:1]):
            key = frozenset((round(x, 3), round(y, 3)) for x, y in (start, end))
            sides.setdefault(key, [start, end]).append(who)
    for start, end, *owners in sides.values():
        if len(owners) == 1 or owners[0] != owners[1]:
            svg.line(*start, *end, parent, stroke="#222222", stroke_width=2.5,
                     stroke_linecap="round")


def _placing(lattice: Lattice, x0: float, y0: float, size: float):
    """A map of the lattice's points to the picture's: scaled by `size`, (0, 0) at (x0, y0)."""
    return lambda p: (x0 + p[0] * size, y0 + p[1] * size)


def draw_owner_grid(svg: Svg, owner: dict[Cell, int], names: list[str], cells: list[Cell],
                    x0: float, y0: float, size: float, parent,
                    colour: Callable[[int], str] = piece_colour, lattice: Lattice = SQUARE
                    ) -> None:
    """Cells coloured by the piece covering them (white where none), the lattice's origin at
    (x0, y0) and its unit `size` pixels, thick lines between pieces, each piece's name on its
    middle cell."""
    place = _placing(lattice, x0, y0, size)
    for cell in cells:
        piece = owner.get(cell)
        fill = "#ffffff" if piece is None else colour(piece)
        name = "" if piece is None else names[piece]
        svg.polygon([place(p) for p in lattice.outline(cell)], parent, class_="cell",
                    fill=fill, stroke="#00000033", stroke_width=0.6, data_row=cell[0],
                    data_col=cell[1], data_piece=name)
    _outline(svg, lattice, dict(owner), place, svg.group(parent, class_="outline"))
    labels = svg.group(parent, class_="names")
    by_piece: dict[int, list[Cell]] = {}
    for at, piece in owner.items():
        by_piece.setdefault(piece, []).append(at)
    for piece, cells_of in sorted(by_piece.items()):
        x, y = place(_centre(lattice.outline(_label_cell(lattice, cells_of))))
        svg.text(x, y, names[piece], labels, size=size * 0.42 * lattice.label_scale,
                 fill=text_colour(colour(piece)), font_weight="bold")


def draw_solution(
    puzzle: PackingPuzzle, grid: dict[Cell, int], title: str = "", cell: float = CELL
) -> Svg:
    """The board with every cell coloured by the piece covering it, names written on pieces,
    holes hatched."""
    lattice = puzzle.lattice
    board = puzzle.board_cells
    holes = puzzle.holes
    left, top_y, right, bottom = _frame(lattice, board + holes)
    top = MARGIN + (18 if title else 0)
    svg = Svg((right - left) * cell + 2 * MARGIN, (bottom - top_y) * cell + top + MARGIN,
              title or puzzle.name)
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    cells = svg.group(class_="board")
    place = _placing(lattice, MARGIN - left * cell, top - top_y * cell, cell)
    for hole in holes:
        svg.polygon([place(p) for p in lattice.outline(hole)], cells, class_="hole",
                    fill="url(#hatch)", stroke="#bbbbbb", stroke_width=0.5)
    _hatch(svg)
    draw_owner_grid(svg, grid, [p.name for p in puzzle.pieces], sorted(board),
                    MARGIN - left * cell, top - top_y * cell, cell, cells, lattice=lattice)
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
    lattice = puzzle.lattice
    frames = [_frame(lattice, piece.cells) for piece in puzzle.pieces]
    box = max(max(right - left, bottom - top) for left, top, right, bottom in frames)
    slot = box * cell + 2 * MARGIN
    count = len(frames)
    columns = min(per_row, count)
    lines = -(-count // columns)
    svg = Svg(columns * slot, lines * (slot + 16), f"{puzzle.name}: the {plural(count, 'piece')}")
    for index, (piece, frame) in enumerate(zip(puzzle.pieces, frames)):
        x0 = (index % columns) * slot + MARGIN
        y0 = (index // columns) * (slot + 16) + MARGIN + 16
        svg.text(x0, y0 - 9, piece.name, size=12, anchor="start", font_weight="bold")
        group = svg.group(class_="piece", data_piece=piece.name)
        place = _placing(lattice, x0 - frame[0] * cell, y0 - frame[1] * cell, cell)
        for at in piece.cells:
            svg.polygon([place(p) for p in lattice.outline(at)], group, class_="cell",
                        fill=piece_colour(index), stroke="#00000055", stroke_width=0.6)
        _outline(svg, lattice, {at: 0 for at in piece.cells}, place, group)
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


def gallery(puzzle: PackingPuzzle, modulo: str, cap: int, say=None, only: int | None = None
            ) -> galleries.Gallery:
    """The first solutions (or one per class under the board's symmetries), with the count."""
    return _drawings(puzzle).gallery(puzzle, modulo, cap, say=say, only=only)


def page(puzzle: PackingPuzzle, level: int | None = None, say=None) -> str:
    """The page of a packing puzzle: in the plane, drag, turn, flip, snap, hint, check, undo (a
    challenge starts from its pre-placed pieces, which stay where they are); in space, the 3D
    page (turn the box by dragging, step through the assembly). A calendar's page picks a date
    (today's by default) and hints from that date's solutions (runners/pictures/calendar.py)."""
    from ..models.packing.calendar import is_calendar

    if puzzle.labels and is_calendar(puzzle):
        from .calendar import calendar_page

        return calendar_page(puzzle)
    return _drawings(puzzle).page(puzzle, say=say)


def print_set(puzzle: PackingPuzzle, size: float, clearance: float
              ) -> tuple[dict[str, bytes], str]:
    """STL files to print a puzzle in space ('stl' in its lattice's capabilities): every piece
    and a solution assembled, a cell `size` mm (a cube's edge, a ball's diameter)."""
    return _drawings(puzzle).print_set(puzzle, size, clearance)


def plane_gallery(puzzle: PackingPuzzle, modulo: str, cap: int, say=None,
                  only: int | None = None) -> galleries.Gallery:
    """A flat puzzle's gallery: the first `cap` solutions (or one per class), with the count
    (see gallery.py); only: the only-th picture alone, no count."""
    turned = "rotations and reflections" if puzzle.flip else "rotations"
    fill = (f"ways to cover the board with the {plural(len(puzzle.pieces), 'piece')}, each used "
            f"once ({turned} of the whole board count as different solutions)")
    return packing_gallery(puzzle, modulo, cap, draw_solution, draw_pieces, fill, "board", say,
                           only)


def packing_gallery(puzzle: PackingPuzzle, modulo: str, cap: int,
                    draw: Callable[[PackingPuzzle, dict, str], Svg],
                    pieces: Callable[[PackingPuzzle], Svg], fill: str, where: str, say=None,
                    only: int | None = None) -> galleries.Gallery:
    """A packing gallery, flat or in space: the pictures `draw` makes of the first `cap`
    solutions (or of one per class), the `pieces` reference and the count of the `fill`
    (ways to fill the board or box); only: the only-th picture alone, no count."""
    by = "rotation" if modulo == "rotation" else "symmetry"
    listed, shown = galleries.shown(puzzle, modulo, cap, found.packing_classifier(puzzle, by),
                                    say, only)
    figures = galleries.figures(shown, modulo != "none", "solution", cap,
                                lambda grid, caption: draw(puzzle, grid, caption), only)
    title = puzzle.title or puzzle.name
    if only is not None:
        return galleries.Gallery(title, "", None, figures, len(shown), listing=listed)
    statement, total = packing_statement(puzzle, modulo, listed, fill, where, say)
    return galleries.Gallery(title, statement, pieces(puzzle), figures, total, listing=listed)


def packing_statement(puzzle: PackingPuzzle, modulo: str, listed: found.Listing, fill: str,
                      where: str, say=None) -> tuple[str, int]:
    """A packing gallery's heading (the count of solutions and classes, and what they count)
    and how many pictures it would hold without its cap (those listed where not counted)."""
    by = "rotation" if modulo == "rotation" else "symmetry"
    symmetries = found.packing_symmetries(puzzle, by)
    group = f"the {where}'s {plural(symmetries, by)}"
    if listed.complete:
        solutions, classes = len(listed.members), listed.classes
    else:
        count = galleries.bounded_count(puzzle, by, say)
        if count is None:
            return galleries.more_than(puzzle, listed, "solution") + f" ({fill}.)", len(
                found.representatives(listed.members) if modulo != "none" else listed.members)
        solutions, classes = count.details["solutions"], count.number
    mirrors = (" (a mirror image swaps each piece with its mirror twin)"
               if by == "symmetry" and symmetries > 24 and not puzzle.flip else "")
    statement = (f"{galleries.plural(solutions, 'solution')}: {fill}; "
                 f"{galleries.plural(classes, 'class')} under {group}{mirrors}.")
    return statement, classes if modulo != "none" else solutions


def _periodic(lattice: Lattice, cells: list[Cell], size: float) -> dict:
    """The lattice's outlines as the play page draws them: outline(row, column) is shape
    number (row + column) mod period, moved by (column * dx, row * dy); checked on every cell
    the page draws (an error naming a lattice whose outlines are not so)."""
    base = [lattice.outline((0, 0)), lattice.outline((0, 1))]
    dx = (lattice.outline((0, 2))[0][0] - base[0][0][0]) / 2
    dy = (lattice.outline((2, 0))[0][1] - base[0][0][1]) / 2
    moved = [(x - dx, y) for x, y in base[1]]
    period = 1 if all(abs(a - b) < 1e-9 for p, q in zip(moved, base[0]) for a, b in zip(p, q)) \
        else 2
    shapes = [[(x - k * dx, y) for x, y in base[k]] for k in range(period)]
    for r, c in cells:
        drawn = [(x + c * dx, y + r * dy) for x, y in shapes[(r + c) % period]]
        if any(abs(a - b) > 1e-9 for p, q in zip(drawn, lattice.outline((r, c)))
               for a, b in zip(p, q)):
            raise InputError(f"the play page cannot draw the {lattice.name} lattice",
                             field="lattice")
    return {"period": period, "step": [dx * size, dy * size],
            "shapes": [[[x * size, y * size] for x, y in shape] for shape in shapes]}


def plane_page(puzzle: PackingPuzzle, say=None, calendar: dict | None = None) -> str:
    """A flat puzzle's play page: drag, turn, flip, snap, hint, check, undo. The page knows
    each piece's orientations and which one a turn or a flip gives (from the lattice), and
    draws each cell as the lattice outlines it."""
    lattice = puzzle.lattice
    size = 34
    listed = found.first_solutions(puzzle, PAGE_SOLUTIONS, found.packing_classifier(puzzle),
                                   say=say)
    grids, complete = listed.grids, listed.complete
    board_cells = sorted(puzzle.board_cells)
    holes = puzzle.holes
    left, top, right, bottom = _frame(lattice, board_cells + holes)
    origin = (20 - left * size, 20 - top * size)  # where the lattice's (0, 0) is drawn
    pieces = []
    for i, piece in enumerate(puzzle.pieces):
        shapes = lattice.orientations(piece.cells, puzzle.flip)
        where = {shape: k for k, shape in enumerate(shapes)}
        pieces.append({
            "name": piece.name, "colour": piece_colour(i), "text": text_colour(piece_colour(i)),
            "orientations": [[list(cell) for cell in shape] for shape in shapes],
            "turn": [where[lattice.normalise(lattice.turn(shape))] for shape in shapes],
            "flip": [where[lattice.normalise(lattice.mirror(shape))] for shape in shapes]
            if puzzle.flip else None,
        })
    frames = [_frame(lattice, shape) for p in puzzle.pieces
              for shape in lattice.orientations(p.cells, puzzle.flip)]
    slot = (max(max(f[2] - f[0], f[3] - f[1]) for f in frames) + 0.5) * size
    tray_x = 20 + (right - left) * size + 40
    columns = max(2, int((1060 - tray_x) // slot))  # the page fits about 1,100 pixels across
    tray = [(tray_x + (i % columns) * slot, 20 + (i // columns) * slot)
            for i in range(len(puzzle.pieces))]
    lines = -(-len(puzzle.pieces) // columns)
    svg = Svg(tray_x + columns * slot, 20 + max((bottom - top) * size, lines * slot) + 20,
              puzzle.title or puzzle.name)
    board = svg.group(id="board")
    place = _placing(lattice, *origin, size)
    for cell in board_cells + holes:
        on = cell not in holes
        svg.polygon([place(p) for p in lattice.outline(cell)], board,
                    class_="cell" if on else "hole", data_row=cell[0], data_col=cell[1],
                    fill="#ffffff" if on else "#d8d8d8", stroke="#bbbbbb")
    for cell, word in (calendar or {}).get("words", []):  # a calendar's labels, under the pieces
        corners = [place(p) for p in lattice.outline(cell)]
        svg.text(sum(p[0] for p in corners) / len(corners), sum(p[1] for p in corners)
                 / len(corners), word, board, size=size * 0.32, fill="#555555",
                 pointer_events="none")
    svg.group(id="pieces")
    drawn = {tuple(cell) for p in pieces for shape in p["orientations"] for cell in shape}
    data = {
        "size": size, "origin": origin, "tray": tray, "cells": board_cells,
        "flip": puzzle.flip, "complete": complete, "label": lattice.label_scale,
        # a move (rows, columns) is a translation of the lattice where their sum divides by it
        "moves": 1 if lattice.translation((0, 0), (0, 1)) is not None else 2,
        "outline": _periodic(lattice, sorted(set(board_cells) | drawn), size),
        "pieces": pieces,
        "solutions": [[grid[cell] for cell in board_cells] for grid in grids],
        "placed": {p.piece: [list(c) for c in p.cells] for p in puzzle.placed},
    }
    controls = plays.buttons(("rotate", "Rotate (r)"), ("flip", "Flip (f)"), ("hint", "Hint"),
                        ("check", "Check"), ("undo", "Undo"), ("reset", "Reset"))
    if complete and len(grids) == 1:
        total = f"the one solution {listed.backend} found: hints follow it"
    else:
        total = (("all " if complete else "the first ") + plural(len(grids), "solution")
                 + f" {listed.backend} listed: hints follow them")
    rules = (f"Cover every white cell with the {plural(len(puzzle.pieces), 'piece')}, each used "
             f"once. The page holds {total}" + (
                 ", and a piece placed where no solution has it is outlined in red."
                 if complete else "."))
    if puzzle.placed:
        one = len(puzzle.placed) == 1
        rules += (f" A challenge: {plural(len(puzzle.placed), 'piece')} "
                  f"{'is' if one else 'are'} already placed (outlined in black) and "
                  f"{'stays where it is' if one else 'stay where they are'}.")
    help_text = ("Drag a piece onto the board (it snaps to the grid), or click a piece and then "
                 "a cell for its first cell. Right-click or r turns the selected piece "
                 "clockwise, f flips it. Drag a piece off the board to put it back.")
    if calendar is not None:  # a date picked on the page: its solutions and holes are its own
        data["calendar"] = calendar["data"]
        controls = calendar["controls"] + " " + controls
        rules = calendar["rules"]
    return plays.html_page("packing", puzzle.title or puzzle.name, rules, controls,
                           svg.inline(), data, "packing.js", help_text)


# The drawings of each lattice (keyed by its name): 'plane', this module's flat drawings and
# play page (squares, triangles, hexagons, a layer of balls); 'space', packing3d's isometric
# views of cubes and 3D page; 'balls', balls.py's balls in those views and on that page.
# tests/test_lattices.py fails when a lattice in models/geometry.py has none.
DRAWINGS = {"square": "plane", "cubic": "space", "triangular": "plane", "hexagonal": "plane",
            "balls": "balls", "ball-layer": "plane"}
PLANE = SimpleNamespace(draw=draw_solution, pieces=draw_pieces, gallery=plane_gallery,
                        page=plane_page)
