"""Drawings of edge-matching puzzles: each tile as coloured triangles from its sides to its centre,
as on the physical blocks (four on a square, three on a triangle).

A solution is a list of (tile index, turns clockwise) per cell in reading order. The cells are
drawn where the puzzle's grid puts them (its corners and drawing coordinates, grid.py). Each
edge (picture, half) is a triangle from the tile's side to its centre in the picture's colour;
under the complement rule the two halves look different (the first half solid with a dot, the
other pale with a ring) and carry their letter. A mark such as "diamond" is drawn in the centre.
"""

from __future__ import annotations

from ..models import edge_matching as em
from ..models.edge_matching import Edge, EdgePuzzle, board, rotated, tile_types
from ..models.edge_matching.encode import board_words
from ..models.edge_matching.grid import Cell, EdgeGrid
from ..models.errors import InputError
from ..models.words import plural
from . import gallery as galleries
from . import play as plays
from . import solutions as found
from .svg import NAMED_COLOURS, Svg, diamond, lighter, palette, text_colour

Polygon = list[tuple[float, float]]

TILE = 64
MARGIN = 6
HINT_SOLUTIONS = 64  # solutions embedded per level in a play page, for hints


def edge_colours(puzzle: EdgePuzzle) -> dict[str, str]:
    """The fill of each picture (colour) the puzzle's edges show, by name where one is given."""
    pictures = sorted({edge[0] for tile in puzzle.tiles for edge in tile.edges})
    out = {}
    for index, picture in enumerate(pictures):
        name = puzzle.colour_names.get(picture, picture).lower()
        out[picture] = NAMED_COLOURS.get(name, palette(index))
    if puzzle.frame is not None:
        out[puzzle.frame[0]] = "#7f7f7f"
    return out


def halves(puzzle: EdgePuzzle) -> tuple[str, ...]:
    """The halves of the complement rule in a fixed order (the first is drawn solid)."""
    return tuple(sorted({e[1] for t in puzzle.tiles for e in t.edges if e[1]}))


def cell_polygon(grid: EdgeGrid, cell: Cell, size: float, x0: float = 0.0, y0: float = 0.0
                 ) -> Polygon:
    """A cell's corners in pixels (a side `size` long), clockwise, shifted by (-x0, -y0)."""
    return [(x * size - x0, y * size - y0) for x, y in map(grid.xy, grid.corners(cell))]


def board_polygons(puzzle: EdgePuzzle, size: float, margin: float = 0.0
                   ) -> tuple[list[Polygon], float, float]:
    """Every cell's polygon (reading order) placed `margin` from the top left, and the
    board's width and height."""
    here = board(puzzle)
    raw = [cell_polygon(here.grid, cell, size) for cell in here.cells]
    x0 = min(x for polygon in raw for x, _ in polygon)
    y0 = min(y for polygon in raw for _, y in polygon)
    placed = [[(x - x0 + margin, y - y0 + margin) for x, y in polygon] for polygon in raw]
    width = max(x for polygon in placed for x, _ in polygon) - margin
    height = max(y for polygon in placed for _, y in polygon) - margin
    return placed, width, height


def centre(polygon: Polygon) -> tuple[float, float]:
    return (sum(x for x, _ in polygon) / len(polygon), sum(y for _, y in polygon) / len(polygon))


def draw_tile(
    svg: Svg, puzzle: EdgePuzzle, edges: tuple[Edge, ...], mark: str, corners: Polygon,
    colours: dict[str, str], parent=None, **attributes,
):
    """One tile turned as given on a cell of these corners: a triangle per side, the halves
    told apart, the mark in the middle."""
    group = svg.group(parent, **attributes)
    first_half = (halves(puzzle) or ("",))[0]
    cx, cy = centre(corners)
    n = len(corners)
    size = max(abs(corners[1][0] - corners[0][0]), abs(corners[1][1] - corners[0][1]),
               abs(corners[2][0] - corners[1][0]), abs(corners[2][1] - corners[1][1]))
    inner = min(abs(cx - x) + abs(cy - y) for x, y in corners) / (1 if n == 4 else 1.5)
    triangles = [[corners[s], corners[(s + 1) % n], (cx, cy)] for s in range(n)]
    for side, (points, (picture, half)) in enumerate(zip(triangles, edges)):
        fill = colours[picture]
        solid = not half or half == first_half
        svg.polygon(points, group, class_="edge", fill=fill if solid else lighter(fill),
                    stroke="#ffffff", stroke_width=1.2, data_side=side, data_edge=picture + half)
        if half:
            (ax, ay), (bx, by), (cx, cy) = points
            px, py = (ax + bx + 2 * cx) / 4, (ay + by + 2 * cy) / 4
            dot = size * 0.05
            svg.circle(px, py, dot, group, fill="#ffffff" if solid else "none",
                       stroke=text_colour(fill) if not solid else "none", stroke_width=1)
            lx, ly = (ax + bx + 0.9 * cx) / 2.9, (ay + by + 0.9 * cy) / 2.9
            svg.text(lx, ly, half[:1], group, size=size * 0.13,
                     fill=text_colour(fill if solid else lighter(fill)))
    if mark:
        scale = min(size, 2 * inner)  # a square's side; a triangle's inner room
        if mark == "diamond":
            diamond(svg, cx, cy, scale * 0.16, group, class_="mark", fill="#ffffff",
                    stroke="#222222", stroke_width=1.5)
        else:
            svg.circle(cx, cy, scale * 0.13, group, class_="mark", fill="#ffffff",
                       stroke="#222222", stroke_width=1.5)
            svg.text(cx, cy, mark[:1], group, size=scale * 0.14)
    svg.polygon(corners, group, fill="none", stroke="#333333", stroke_width=1)
    return group


def draw_solution(
    puzzle: EdgePuzzle, grid: list[tuple[int, int]], title: str = "", size: float = TILE
) -> Svg:
    """The board: every cell its tile turned as the grid says."""
    top = MARGIN + (18 if title else 0)
    polygons, width, height = board_polygons(puzzle, size)
    svg = Svg(width + 2 * MARGIN, height + top + MARGIN, title or puzzle.name)
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    colours = edge_colours(puzzle)
    layer = svg.group(class_="board")
    for (r, c), polygon, (tile, rotation) in zip(board(puzzle).cells, polygons, grid):
        shown = puzzle.tiles[tile]
        draw_tile(svg, puzzle, rotated(shown.edges, rotation), shown.mark,
                  [(x + MARGIN, y + top) for x, y in polygon], colours, layer, class_="cell",
                  data_row=r, data_col=c, data_tile=shown.name or tile, data_rotation=rotation)
    return svg


def solution_drawing(puzzle: EdgePuzzle, solution) -> Svg:
    """A Solution drawn as `draw` draws one (what a notebook shows)."""
    return draw_solution(puzzle, solution.grid, f"{puzzle.name}: solved by {solution.backend}")


def draw_tiles(puzzle: EdgePuzzle, size: float = 56, per_row: int = 8) -> Svg:
    """The block reference: every kind of tile once, with its name and how many copies."""
    types = tile_types(puzzle)
    columns = min(per_row, len(types))
    lines = -(-len(types) // columns)
    slot_w, slot_h = size + 2 * MARGIN + 16, size + 2 * MARGIN + 20
    svg = Svg(columns * slot_w, lines * slot_h,
              f"{puzzle.name}: {plural(len(puzzle.tiles), 'tile')} of {plural(len(types), 'kind')}")
    colours = edge_colours(puzzle)
    grid = board(puzzle).grid
    shape = cell_polygon(grid, (0, 0), size)  # a tile as it lies on the cell (0, 0)
    x0, y0 = min(x for x, _ in shape), min(y for _, y in shape)
    for index, tile_type in enumerate(types):
        x = (index % columns) * slot_w + MARGIN + 4
        y = (index // columns) * slot_h + MARGIN
        first = puzzle.tiles[tile_type.tiles[0]]
        named = [puzzle.tiles[t].name for t in tile_type.tiles if puzzle.tiles[t].name]
        names = f"{named[0]}\u2013{named[-1]}" if len(named) > 2 else ", ".join(named)
        draw_tile(svg, puzzle, tile_type.edges, tile_type.mark,
                  [(px - x0 + x, py - y0 + y) for px, py in shape], colours,
                  class_="tile", data_count=tile_type.count, data_name=first.name)
        label = (names or f"kind {index + 1}") + f" \u00d7{tile_type.count}"
        svg.text(x + size / 2, y + size + 11, label, size=10)
    return svg


# ---------------------------------------------------------------- the family's pictures


def pieces(puzzle: EdgePuzzle) -> Svg:
    """What `draw --pieces` draws: the block reference."""
    return draw_tiles(puzzle)


def gallery(puzzle: em.EdgePuzzle, modulo: str, cap: int, say=None, only: int | None = None
            ) -> galleries.Gallery:
    """The first `cap` grids (or one per class under the board's turns), with the count (see
    gallery.py); only: the only-th picture alone, no count."""
    listed, shown = galleries.shown(puzzle, modulo, cap, found.edge_classifier(puzzle), say, only)
    figures = galleries.figures(shown, modulo != "none", "grid", cap,
                                lambda grid, caption: draw_solution(puzzle, grid, caption), only)
    level = f" at Level {puzzle.level}" if puzzle.level else ""
    title = (puzzle.title or puzzle.name) + level
    if only is not None:
        return galleries.Gallery(title, "", None, figures, len(shown), listing=listed)
    rules = "touching edges match"
    if puzzle.rule == "complement":
        rules = "touching edges show the same picture, opposite halves"
    if puzzle.apart:
        rules += f", no two {puzzle.apart} tiles side by side"
    fill = (f"distinct ways to lay the {plural(len(puzzle.tiles), 'tile')} on the "
            f"{board_words(puzzle)} board so that {rules} (identical tiles are interchangeable, "
            "turning the whole "
            "board gives a different grid)")
    turns = len(em.board_turns(puzzle))
    if listed.complete:
        grids, classes = len(listed.members), listed.classes
    else:
        count = galleries.bounded_count(puzzle, "symmetry" if turns > 1 else "none", say)
        grids = None if count is None else count.details["grids"]
        classes = None if count is None else (count.details["grid_classes"] or grids)
    if grids is None:
        statement = galleries.more_than(puzzle, listed, "grid") + f" ({fill}.)"
        total = len(shown)
    else:
        statement = (f"{galleries.plural(grids, 'grid')}{level}: {fill}; "
                     f"{galleries.plural(classes, 'class')} up to the board's "
                     f"{plural(turns, 'turn')}.")
        total = classes if modulo != "none" else grids
    notes = []
    if grids == 0:
        statement += " There is no solution: nothing to draw but the tiles."
        notes = [_other_level(puzzle, other, say) for other in range(1, len(puzzle.levels) + 1)
                 if other != puzzle.level]
    return galleries.Gallery(title, statement, draw_tiles(puzzle), figures, total, notes,
                             listed)


def _other_level(puzzle: em.EdgePuzzle, other: int, say=None) -> str:
    """A note on a level without solutions: how many another level has (counted, bounded)."""
    count = galleries.bounded_count(em.at_level(puzzle, other), "none", say)
    if count is None:
        return (f"For comparison, Level {other} has grids (not counted"
                f"{galleries.counted_within()} here).")
    return (f"For comparison, Level {other} has {galleries.plural(count.details['grids'], 'grid')}"
            f" (counted by {count.backend}).")


def page(puzzle: em.EdgePuzzle, level: int | None = None, seed: int = 11,
         start: list[tuple[int, int]] | None = None, say=None) -> str:
    """The page of an edge-matching puzzle: swap, turn, check, hint, undo, reset, level. With
    `start` (a board: (tile, turns) per cell), the page opens on that board and Reset returns
    to it; no hints are given (the solutions are not searched for)."""
    levels = list(puzzle.levels)
    if level is None:
        level = 1
    if levels and not 1 <= level <= len(levels):
        raise InputError(f"{puzzle.name} has levels 1..{len(levels)}", field="level")
    if not levels and level != 1:
        raise InputError(f"{puzzle.name} has no levels", field="level")
    solutions: dict[str, list] = {}
    # hints follow the first grids the fastest lister gives (MacMahon's triangles: 64 in 2.3 s
    # with edgecount), within the pictures' time bound: a board too hard to list gets no hints
    for n in range(1, max(1, len(levels)) + 1 if start is None else 1):
        rules = em.at_level(puzzle, n) if levels else puzzle
        listed = found.first_solutions(rules, HINT_SOLUTIONS, found.edge_classifier(rules),
                                       say=say)
        solutions[str(n)] = [list(map(list, g)) for g in listed.grids]
    here = board(puzzle)
    grid = here.grid
    _, width, height = board_polygons(puzzle, 1.0)
    size = max(40, min(130, int(480 // max(width, height))))  # 4x4: 120 pixels a tile
    polygons, width, height = board_polygons(puzzle, size)
    colours = edge_colours(puzzle)
    svg = Svg(width, height, puzzle.title or puzzle.name)
    defs = svg.add("defs")
    # every tile in every turn on every kind of cell (a triangle pointing up or down), drawn
    # from the top left of its cell's box, upright text
    shapes: dict[int, Polygon] = {}
    for cell, polygon in zip(here.cells, polygons):
        x0, y0 = min(x for x, _ in polygon), min(y for _, y in polygon)
        shapes.setdefault(grid.kind(cell), [(x - x0, y - y0) for x, y in polygon])
    for index, tile in enumerate(puzzle.tiles):
        for kind, shape in shapes.items():
            for rotation in range(grid.sides):
                draw_tile(svg, puzzle, rotated(tile.edges, rotation), tile.mark, shape,
                          colours, defs, id=f"tile-{index}-{kind}-{rotation}")
    svg.group(id="cells")
    svg.group(id="marks")
    data = {
        "rule": puzzle.rule, "size": size, "sides": grid.sides,
        "cells": [{"kind": grid.kind(cell), "row": cell[0], "col": cell[1],
                   "points": [[round(x, 2), round(y, 2)] for x, y in polygon],
                   "border": list(here.border(cell))}
                  for cell, polygon in zip(here.cells, polygons)],
        "pairs": [[here.index[a], side, here.index[b], grid.facing(side)]
                  for a, b, side in here.pairs],
        "tiles": [{"edges": [list(e) for e in t.edges], "mark": t.mark, "name": t.name}
                  for t in puzzle.tiles],
        "levels": [mark or None for mark in levels], "level": level, "apart": puzzle.apart,
        "frame": list(puzzle.frame) if puzzle.frame else None,
        "border": list(puzzle.border) if puzzle.border else None, "solutions": solutions,
        "seed": seed, "start": None if start is None else [list(g) for g in start],
    }
    controls = plays.buttons(("rotate", "Rotate"), ("check", "Check"), ("hint", "Hint"),
                        ("undo", "Undo"), ("reset", "Reset"))
    if levels:
        options = "".join(
            f'<option value="{n}"{" selected" if n == level else ""}>Level {n}'
            f'{f" (no two {mark} tiles side by side)" if mark else ""}</option>'
            for n, mark in enumerate(levels, 1)
        )
        controls += f' <select id="level" aria-label="level">{options}</select>'
    rules = ("Touching edges must show the same colour."
             if puzzle.rule == "equal" else
             "Touching edges must show the same picture, one of each half (head and tail).")
    if puzzle.frame:
        rules += " The frame edge faces the outer border, and only there."
    if puzzle.border:
        shown = puzzle.colour_names.get(puzzle.border[0], puzzle.border[0])
        rules += f" Every side on the outer border shows {shown}."
    help_text = ("Drag a tile onto another, or click two tiles, to swap them. Right-click a tile, "
                 "or select it and press r (R turns back), to turn it clockwise. Red lines: "
                 "edges that do not match; dashed orange outlines: marked tiles side by side.")
    return plays.html_page("edge-matching", puzzle.title or puzzle.name, rules, controls,
                           svg.inline(), data, "edge.js", help_text)
