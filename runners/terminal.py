"""Solutions drawn as text for a terminal: coloured blocks where the terminal shows colour."""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING

from .models.errors import InputError
from .models.geometry import SQUARE, Cell, Lattice, lattice_part

if TYPE_CHECKING:  # each family's models load where its puzzle is drawn, not for the other's
    from .models.edge_matching import EdgePuzzle, Placed
    from .models.packing import PackingPuzzle


def use_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ



PACKING_PALETTE = [196, 46, 21, 226, 201, 51, 208, 93, 118, 27, 214, 160, 34, 99, 220, 130]


def letters(puzzle: PackingPuzzle) -> list[str]:
    """One character per piece: its name where names are single characters, else A, B, C..."""
    names = [p.name for p in puzzle.pieces]
    if all(len(n) == 1 for n in names) and len(set(names)) == len(names):
        return names
    return [chr(ord("A") + i) if i < 26 else chr(ord("a") + i - 26) for i in range(len(names))]


def draw_packing(puzzle: PackingPuzzle, grid: dict[Cell, int], colour: bool) -> list[str]:
    """The solution as rows of letters (coloured blocks on a colour terminal), with a legend:
    drawn as its lattice is drawn as text (`TEXT`)."""
    marks = letters(puzzle)
    draw = lattice_part(TEXT, puzzle.lattice, "drawing as text")
    rows = draw(puzzle.lattice, grid, marks, colour)
    if marks != [p.name for p in puzzle.pieces]:
        rows.append("  ".join(f"{m}={p.name}" for m, p in zip(marks, puzzle.pieces)))
    return rows


def _pad(row: str, width: int, colour: bool) -> str:
    """A drawn row padded to a width, counting what the terminal shows (not colour codes)."""
    shown = len(re.sub(r"\x1b\[[0-9;]*m", "", row)) if colour else len(row)
    return row + " " * (width - shown)


def _draw_plane(lattice: Lattice, grid: dict[Cell, int], marks: list[str], colour: bool
                ) -> list[str]:
    """A flat board as rows of letters, each cell's mark where its lattice puts it in text."""
    width = lattice.text_width
    at: dict[tuple[int, int], int] = {}
    for cell, piece in grid.items():
        at[lattice.text_cell(cell)] = piece
    top = min(0, *(line for line, _ in at))  # from the picture's corner, as drawn
    left = min(0, *(column for _, column in at))
    rows = []
    for line in range(top, max(line for line, _ in at) + 1):
        row, column = "", left
        for (_, c), piece in sorted((k, v) for k, v in at.items() if k[0] == line):
            row += " " * (c - column)
            mark = (marks[piece] + " " * width)[:width]
            if colour:
                shade = PACKING_PALETTE[piece % len(PACKING_PALETTE)]
                mark = f"\x1b[48;5;{shade}m\x1b[30m{mark}\x1b[0m"
            row += mark
            column = c + width
        rows.append(row.rstrip())
    return rows


def _draw_layers(lattice: Lattice, grid: dict[Cell, int], marks: list[str], colour: bool
                 ) -> list[str]:
    """A solid's layers side by side, the bottom layer first (on the left), each drawn as a
    square board."""
    layers = max(cell[0] for cell in grid) + 1
    flat = [_draw_plane(SQUARE, {cell[1:]: p for cell, p in grid.items() if cell[0] == layer},
                        marks, colour) for layer in range(layers)]
    width = max(2 * (max(cell[2] for cell in grid) + 1), len(f"layer {layers}"))
    height = max(len(rows) for rows in flat)
    rows = ["   ".join(_pad(rows[i] if i < len(rows) else "", width, colour)
                       for rows in flat).rstrip() for i in range(height)]
    rows.append("   ".join(f"layer {layer + 1}".ljust(width) for layer in range(layers))
                .rstrip())
    return rows


# How each lattice's boards are drawn as text (keyed by the lattice's name): the flat lattices
# where the lattice puts each cell's mark (squares, triangles, hexagons, a layer of balls), the
# cubic and ball ones layer by layer (a ball layer's rows and columns as its picture has them).
TEXT = {"square": _draw_plane, "cubic": _draw_layers, "triangular": _draw_plane,
        "hexagonal": _draw_plane, "balls": _draw_layers, "ball-layer": _draw_plane}

NAMED_COLOURS = {
    "red": 196, "green": 40, "blue": 33, "yellow": 226, "white": 255, "black": 240,
    "orange": 208, "purple": 129, "pink": 213, "brown": 130, "grey": 246, "gray": 246,
    "cyan": 51, "magenta": 201,
}
PALETTE = [196, 40, 33, 226, 201, 51, 208, 129, 118, 27, 214, 160, 34, 99, 220, 130, 250, 94]


def codes(puzzle: EdgePuzzle) -> tuple[dict, list[str]]:
    """A short code per edge value (picture, then half), and the legend lines explaining them."""
    pictures = sorted({e[0] for t in puzzle.tiles for e in t.edges})
    halves = sorted({e[1] for t in puzzle.tiles for e in t.edges if e[1]})
    if all(len(p) <= 2 for p in pictures):
        short = {p: p for p in pictures}
    else:
        length = 1
        while len({p[:length].upper() for p in pictures}) < len(pictures):
            length += 1
        short = {p: p[:length].upper() for p in pictures}
    half_code = {h: h[0].lower() for h in halves}
    if len(set(half_code.values())) < len(halves):
        half_code = {h: str(i + 1) for i, h in enumerate(halves)}
    table = {}
    for t in puzzle.tiles:
        for e in t.edges:
            table[e] = short[e[0]] + (half_code[e[1]] if e[1] else "")
    legend = []
    named = [p for p in pictures if short[p] != p or p in puzzle.colour_names]
    if named:
        legend.append(
            "edges: " + ", ".join(f"{short[p]} = {puzzle.colour_names.get(p, p)}" for p in named)
        )
    if halves:
        legend.append(
            "halves: " + ", ".join(f"{half_code[h]} = {h}" for h in halves)
            + " (touching edges show the same picture, different halves)"
        )
    return table, legend


def paint(puzzle: EdgePuzzle, edge, text: str, pictures: list[str]) -> str:
    name = puzzle.colour_names.get(edge[0], edge[0]).lower()
    shade = NAMED_COLOURS.get(name, PALETTE[pictures.index(edge[0]) % len(PALETTE)])
    return f"\x1b[48;5;{shade}m\x1b[30m{text}\x1b[0m"


def mark_symbol(mark: str) -> str:
    if not mark:
        return " "
    if mark == "diamond":
        encoding = (getattr(sys.stdout, "encoding", "") or "").lower()
        return "◆" if "utf" in encoding else "*"
    return mark[0].upper()


def draw_edges(puzzle: EdgePuzzle, grid: list[Placed], colour: bool) -> list[str]:
    """The grid drawn as its grid draws in text (EDGE_DRAWINGS), then a legend, the marks and
    each cell's tile and turn."""
    drawer = EDGE_DRAWINGS.get(puzzle.grid)
    if drawer is None:
        raise InputError(f"no text drawing for the {puzzle.grid!r} grid", field="grid")
    table, legend = codes(puzzle)
    pictures = sorted({e[0] for t in puzzle.tiles for e in t.edges})

    def show(edge, width: int, align: str) -> str:
        code = table[edge]
        padded = {"<": code.ljust, ">": code.rjust, "^": code.center}[align](width)
        if not colour:
            return padded
        left = len(padded) - len(padded.lstrip())
        return padded[:left] + paint(puzzle, edge, code, pictures) + padded[left + len(code):]

    k = max(len(code) for code in table.values())
    lines = drawer(puzzle, grid, show, k)
    lines += legend
    if any(t.mark for t in puzzle.tiles):
        marks = sorted({t.mark for t in puzzle.tiles if t.mark})
        lines.append("marks: " + ", ".join(f"{mark_symbol(m)} = {m}" for m in marks))
    from .models.edge_matching import board

    here = board(puzzle)
    rows: dict[int, list[str]] = {}
    for (r, c), (t, rotation) in zip(here.cells, grid):
        at = f"c{c + 1}:" if puzzle.shape else ""
        degrees = here.grid.rotation_degrees(rotation)
        rows.setdefault(r, []).append(f"{at}{puzzle.tiles[t].name or t + 1}@{degrees}")
    lines += [f"row {r + 1}: " + "  ".join(cells) for r, cells in rows.items()]
    lines.append("(tile@degrees: the tile, as listed in the puzzle, turned clockwise)")
    return lines


def _square_boxes(puzzle: EdgePuzzle, grid: list[Placed], show, k: int) -> list[str]:
    """Each tile as a box showing its four edges where they touch the neighbours' edges, and
    its mark in the middle."""
    from .models.edge_matching import rotated

    inner = 3 * k + 2
    rule = "+" + "+".join("-" * inner for _ in range(puzzle.cols)) + "+"
    lines = [rule]
    for r in range(puzzle.rows):
        top, middle, bottom = [], [], []
        for c in range(puzzle.cols):
            t, rotation = grid[r * puzzle.cols + c]
            edges = rotated(puzzle.tiles[t].edges, rotation)
            top.append(show(edges[0], inner, "^"))
            middle.append(
                show(edges[3], k, "<") + mark_symbol(puzzle.tiles[t].mark).center(k + 2)
                + show(edges[1], k, ">")
            )
            bottom.append(show(edges[2], inner, "^"))
        for part in (top, middle, bottom):
            lines.append("|" + "|".join(part) + "|")
        lines.append(rule)
    return lines


def _triangle_rows(puzzle: EdgePuzzle, grid: list[Placed], show, k: int) -> list[str]:
    """Each row of triangles as three lines: the tops of the triangles pointing down, then
    every triangle as its left edge, ^ or v (the mark's symbol where it has one), its right
    edge, then the bottoms of the triangles pointing up. Touching edges stand side by side
    (left and right) or one above the other (a bottom over the next row's top)."""
    from .models.edge_matching import board, rotated

    here = board(puzzle)
    width = 2 * k + 2  # a column of triangles: left edge, symbol, right edge, a space
    lines = []
    rows: dict[int, list[tuple[int, Placed]]] = {}
    for (r, c), placed in zip(here.cells, grid):
        rows.setdefault(r, []).append((c, placed))
    for r in sorted(rows):
        top = [" "] * (width * (here.cols + 1))
        middle = list(top)
        bottom = list(top)
        for c, (t, rotation) in rows[r]:
            edges = rotated(puzzle.tiles[t].edges, rotation)
            up = (r + c) % 2 == 0
            names = here.grid.side_names((r, c))
            by_name = dict(zip(names, edges))
            x = c * width
            symbol = mark_symbol(puzzle.tiles[t].mark) if puzzle.tiles[t].mark else (
                "^" if up else "v")
            middle[x] = show(by_name["left"], k, ">") + symbol + show(by_name["right"], k, "<")
            for i in range(1, 2 * k + 1):
                middle[x + i] = ""
            flat = show(by_name["bottom" if up else "top"], 2 * k + 1, "^")
            (bottom if up else top)[x] = flat
            for i in range(1, 2 * k + 1):
                (bottom if up else top)[x + i] = ""
        for part in (top, middle, bottom):
            text = "".join(part).rstrip()
            if text.strip():
                lines.append(text)
    return lines


EDGE_DRAWINGS = {"square": _square_boxes, "triangle": _triangle_rows}

