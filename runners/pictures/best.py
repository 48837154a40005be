"""Pictures of best partial boards: the board with its broken seams marked and its score, and a
play page that starts from it (to improve it by hand)."""

from __future__ import annotations

from ..models.edge_matching import EdgePuzzle, Placed, rotated
from ..models.edge_matching.best import most, seams
from ..models.words import plural
from . import edge_matching as drawn
from .svg import Svg

BROKEN = "#e0001b"


def broken_seams(puzzle: EdgePuzzle, grid: list[Placed]) -> list[tuple[int, int, int]]:
    """(row, column, side) of every seam whose edges do not match (side: 1 right, 2 below)."""
    from ..models.edge_matching import grid_of_puzzle, matches

    at = {(i // puzzle.cols, i % puzzle.cols): g for i, g in enumerate(grid)}
    lattice = grid_of_puzzle(puzzle)
    out = []
    for a, b, side in seams(puzzle):
        shown = rotated(puzzle.tiles[at[a][0]].edges, at[a][1])[side]
        facing = rotated(puzzle.tiles[at[b][0]].edges, at[b][1])[lattice.facing(side)]
        if not matches(shown, facing, puzzle.rule):
            out.append((a[0], a[1], side))
    return out


def best_drawing(puzzle: EdgePuzzle, grid: list[Placed], title: str = "",
                 size: float = drawn.TILE) -> Svg:
    """The board, each broken seam a red bar across it, the score in the title."""
    breaks = broken_seams(puzzle, grid)
    top = most(puzzle)
    caption = (f"{title + ': ' if title else ''}{top - len(breaks)} of {plural(top, 'seam')} "
               f"matched ({len(breaks)} broken, marked red)")
    svg = drawn.draw_solution(puzzle, grid, caption, size)
    layer = svg.group(class_="broken")
    offset = drawn.MARGIN + 18  # draw_solution's top with a title
    for r, c, side in breaks:
        x0, y0 = drawn.MARGIN + c * size, offset + r * size
        if side == 1:  # the seam to the right: a vertical bar
            svg.line(x0 + size, y0 + size * 0.15, x0 + size, y0 + size * 0.85, layer,
                     stroke=BROKEN, stroke_width=max(3, size / 12), stroke_linecap="round",
                     class_="break")
        else:
            svg.line(x0 + size * 0.15, y0 + size, x0 + size * 0.85, y0 + size, layer,
                     stroke=BROKEN, stroke_width=max(3, size / 12), stroke_linecap="round",
                     class_="break")
    return svg


def best_page(puzzle: EdgePuzzle, grid: list[Placed]) -> str:
    """The play page of the puzzle, its board set as `grid` (Reset goes back to it)."""
    return drawn.page(puzzle, start=grid)
