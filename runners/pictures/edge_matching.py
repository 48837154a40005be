"""Drawings of edge-matching puzzles: tiles as four coloured triangles, as on the physical blocks.

A solution is a list of (tile index, rotation in quarter turns clockwise) per cell in reading
order. Each edge (picture, half) is a triangle from the tile's side to its centre in the
picture's colour; under the complement rule the two halves look different (the first half
solid with a dot, the other pale with a ring) and carry their letter. A mark such as
"diamond" is drawn in the centre.
"""

from __future__ import annotations

from ..models.edge_matching import Edge, EdgePuzzle, rotated, tile_types
from .svg import NAMED_COLOURS, Svg, diamond, lighter, palette, side_triangles, text_colour

TILE = 64
MARGIN = 6


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
