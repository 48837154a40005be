"""Drawings of edge-matching puzzles: tiles as four coloured triangles, as on the physical blocks.

A solution is a list of (tile index, rotation in quarter turns clockwise) per cell in reading
order. Each edge (picture, half) is a triangle from the tile's side to its centre in the
picture's colour; under the complement rule the two halves look different (the first half
solid with a dot, the other pale with a ring) and carry their letter. A mark such as
"diamond" is drawn in the centre.
"""

from __future__ import annotations

from ..models import edge_matching as em
from ..models.edge_matching import Edge, EdgePuzzle, rotated, tile_types
from ..models.errors import InputError
from . import gallery as galleries
from . import play as plays
from . import solutions as found
from .svg import NAMED_COLOURS, Svg, diamond, lighter, palette, side_triangles, text_colour

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


def draw_tile(
    svg: Svg, puzzle: EdgePuzzle, edges: tuple[Edge, ...], mark: str, x: float, y: float,
    size: float, colours: dict[str, str], parent=None, **attributes,
):
    """One tile turned as given: four triangles, the halves told apart, the mark in the middle."""
    group = svg.group(parent, **attributes)
    first_half = (halves(puzzle) or ("",))[0]
    for side, (points, (picture, half)) in enumerate(zip(side_triangles(x, y, size), edges)):
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
        cx, cy = x + size / 2, y + size / 2
        if mark == "diamond":
            diamond(svg, cx, cy, size * 0.16, group, class_="mark", fill="#ffffff",
                    stroke="#222222", stroke_width=1.5)
        else:
            svg.circle(cx, cy, size * 0.13, group, class_="mark", fill="#ffffff",
                       stroke="#222222", stroke_width=1.5)
            svg.text(cx, cy, mark[:1], group, size=size * 0.14)
    svg.rect(x, y, size, size, group, fill="none", stroke="#333333", stroke_width=1)
    return group


def draw_solution(
    puzzle: EdgePuzzle, grid: list[tuple[int, int]], title: str = "", size: float = TILE
) -> Svg:
    """The board: every cell its tile turned as the grid says."""
    top = MARGIN + (18 if title else 0)
    svg = Svg(puzzle.cols * size + 2 * MARGIN, puzzle.rows * size + top + MARGIN,
              title or puzzle.name)
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    colours = edge_colours(puzzle)
    board = svg.group(class_="board")
    for index, (tile, rotation) in enumerate(grid):
        r, c = divmod(index, puzzle.cols)
        shown = puzzle.tiles[tile]
        draw_tile(svg, puzzle, rotated(shown.edges, rotation), shown.mark, MARGIN + c * size,
                  top + r * size, size, colours, board, class_="cell", data_row=r, data_col=c,
                  data_tile=shown.name or tile, data_rotation=rotation)
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
              f"{puzzle.name}: {len(puzzle.tiles)} tiles of {len(types)} kinds")
    colours = edge_colours(puzzle)
    for index, tile_type in enumerate(types):
        x = (index % columns) * slot_w + MARGIN + 4
        y = (index // columns) * slot_h + MARGIN
        first = puzzle.tiles[tile_type.tiles[0]]
        named = [puzzle.tiles[t].name for t in tile_type.tiles if puzzle.tiles[t].name]
        names = f"{named[0]}\u2013{named[-1]}" if len(named) > 2 else ", ".join(named)
        draw_tile(svg, puzzle, tile_type.edges, tile_type.mark, x, y, size, colours,
                  class_="tile", data_count=tile_type.count, data_name=first.name)
        label = (names or f"kind {index + 1}") + f" \u00d7{tile_type.count}"
        svg.text(x + size / 2, y + size + 11, label, size=10)
    return svg


# ---------------------------------------------------------------- the family's pictures


def pieces(puzzle: EdgePuzzle) -> Svg:
    """What `draw --pieces` draws: the block reference."""
    return draw_tiles(puzzle)


def gallery(puzzle: em.EdgePuzzle, modulo: str, cap: int) -> galleries.Gallery:
    """Every grid (or one per class under the board's turns), with the count."""
    grids = found.edge_solutions(puzzle)
    members = found.edge_classes(puzzle, grids)
    classes = len({m.klass for m in members})
    turns = len(em.board_turns(puzzle))
    level = f" at Level {puzzle.level}" if puzzle.level else ""
    rules = "touching edges match"
    if puzzle.rule == "complement":
        rules = "touching edges show the same picture, opposite halves"
    if puzzle.apart:
        rules += f", no two {puzzle.apart} tiles side by side"
    statement = (
        f"{galleries.plural(len(grids), 'grid')}{level}: distinct ways to lay the "
        f"{len(puzzle.tiles)} tiles on the {puzzle.rows}x{puzzle.cols} board so that {rules} "
        f"(identical tiles are interchangeable, turning the whole board gives a different grid); "
        f"{galleries.plural(classes, 'class')} up to the board's {turns} turns."
    )
    notes = []
    if not grids:
        statement += " There is no solution: nothing to draw but the tiles."
        for other in range(1, len(puzzle.levels) + 1):
            if other != puzzle.level:
                counted = len(found.edge_solutions(em.at_level(puzzle, other)))
                notes.append(f"For comparison, Level {other} has "
                             f"{galleries.plural(counted, 'grid')} (counted by the reference "
                             "solver).")
    shown = found.representatives(members) if modulo == "symmetry" else members
    figures = galleries.figures(shown, modulo != "none", "grid", cap,
                       lambda grid, caption: draw_solution(puzzle, grid, caption))
    title = (puzzle.title or puzzle.name) + level
    return galleries.Gallery(title, statement, draw_tiles(puzzle), figures, len(shown), notes)




def page(puzzle: em.EdgePuzzle, level: int | None = None, seed: int = 11,
         start: list[tuple[int, int]] | None = None) -> str:
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
    for n in range(1, max(1, len(levels)) + 1 if start is None else 1):
        rules = em.at_level(puzzle, n) if levels else puzzle
        solutions[str(n)] = [list(map(list, g))
                             for g in found.edge_solutions(rules, limit=HINT_SOLUTIONS)]
    size = max(40, min(130, 480 // max(puzzle.rows, puzzle.cols)))  # 4x4: 120 pixels a tile
    colours = edge_colours(puzzle)
    svg = Svg(puzzle.cols * size, puzzle.rows * size, puzzle.title or puzzle.name)
    defs = svg.add("defs")
    for index, tile in enumerate(puzzle.tiles):  # every tile in its four rotations, upright text
        for rotation in range(4):
            draw_tile(svg, puzzle, rotated(tile.edges, rotation), tile.mark, 0, 0,
                                size, colours, defs, id=f"tile-{index}-{rotation}")
    svg.group(id="cells")
    svg.group(id="marks")
    data = {
        "rows": puzzle.rows, "cols": puzzle.cols, "rule": puzzle.rule, "size": size,
        "tiles": [{"edges": [list(e) for e in t.edges], "mark": t.mark, "name": t.name}
                  for t in puzzle.tiles],
        "levels": [mark or None for mark in levels], "level": level, "apart": puzzle.apart,
        "frame": list(puzzle.frame) if puzzle.frame else None, "solutions": solutions,
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
    help_text = ("Drag a tile onto another, or click two tiles, to swap them. Right-click a tile, "
                 "or select it and press r (R turns back), to turn it clockwise. Red lines: "
                 "edges that do not match; dashed orange squares: marked tiles side by side.")
    return plays.html_page("edge-matching", puzzle.title or puzzle.name, rules, controls,
                           svg.inline(), data, "edge.js", help_text)
