"""MacMahon's colour squares, generated from their definition.

Every square whose four edges (clockwise from the top) take colours from a given set, one square
of each pattern up to turning: with three colours, 24 squares (Burnside over the four turns:
(3^4 + 3^2 + 3 + 3) / 4 = 24). The catalog's `macmahon-24-squares` lists these tiles; a test
checks that it lists exactly what `colour_squares` makes.
"""

from __future__ import annotations

from itertools import product

from . import Edge, Tile, rotated


def colour_squares(colours: tuple[str, ...] = ("R", "G", "B")) -> tuple[Tile, ...]:
    """One tile per pattern of edge colours up to turning, each shown turned to its least
    reading (in the order of `colours`)."""
    rank = {c: i for i, c in enumerate(colours)}
    seen: dict[tuple, Tile] = {}
    for edges in product(colours, repeat=4):
        shown: tuple[Edge, ...] = tuple((c, "") for c in edges)
        least = min((rotated(shown, r) for r in range(4)),
                    key=lambda e: [rank[c] for c, _ in e])
        seen.setdefault(least, Tile(least))  # type: ignore[arg-type]
    ordered = sorted(seen, key=lambda e: [rank[c] for c, _ in e])
    return tuple(Tile(edges, name=str(i + 1)) for i, edges in enumerate(ordered))
