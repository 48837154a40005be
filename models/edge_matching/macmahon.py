"""MacMahon's colour tiles, generated from their definition: every tile whose edges take colours
from a given set, one tile of each pattern up to turning.

Squares with three colours: 24 squares (Burnside over the four turns: (3^4 + 3^2 + 3 + 3) / 4 =
24). Triangles with four colours: 24 triangles ((4^3 + 4 + 4) / 3 = 24). The catalog's
`macmahon-24-squares` and `macmahon-24-triangles` list these tiles; a test checks that each lists
exactly what `colour_tiles` makes.
"""

from __future__ import annotations

from itertools import product

from . import Edge, Tile, rotated


def colour_tiles(colours: tuple[str, ...], sides: int) -> tuple[Tile, ...]:
    """One tile per pattern of edge colours up to turning, each shown turned to its least
    reading (in the order of `colours`), in that order, named 1, 2, ..."""
    rank = {c: i for i, c in enumerate(colours)}
    seen: dict[tuple, Tile] = {}
    for edges in product(colours, repeat=sides):
        shown: tuple[Edge, ...] = tuple((c, "") for c in edges)
        least = min((rotated(shown, r) for r in range(sides)),
                    key=lambda e: [rank[c] for c, _ in e])
        seen.setdefault(least, Tile(least))
    ordered = sorted(seen, key=lambda e: [rank[c] for c, _ in e])
    return tuple(Tile(edges, name=str(i + 1)) for i, edges in enumerate(ordered))


def colour_squares(colours: tuple[str, ...] = ("R", "G", "B")) -> tuple[Tile, ...]:
    """MacMahon's 24 colour squares (three colours)."""
    return colour_tiles(colours, 4)


def colour_triangles(colours: tuple[str, ...] = ("a", "b", "c", "d")) -> tuple[Tile, ...]:
    """MacMahon's 24 colour triangles (four colours)."""
    return colour_tiles(colours, 3)
