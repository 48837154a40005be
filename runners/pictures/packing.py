"""Drawings of packing puzzles: a solved board (each piece its own colour and name) and pieces.

A solution is a dict (row, col) -> piece index over the board's cells. Holes of the board (cells
'.' inside its picture) are drawn hatched; lines between cells of different pieces are thick.
"""

from __future__ import annotations

from collections.abc import Callable

from ..models.geometry import Cell, picture_cells
from ..models.packing import PackingPuzzle
from .svg import Svg, palette, text_colour

CELL = 28
MARGIN = 6


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
