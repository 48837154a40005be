"""Edge matching as exact cover with colours (Knuth's XCC formulation of MacMahon's puzzles).

Primary items: every cell ("r1c2") and every physical tile ("t3.2": copy 2 of tile type 3).
Secondary items, coloured: every seam between two touching cells (on squares "h1.2" right of
r1c2, "v1.2" below it; the grid names them), coloured by the edge the earlier cell shows there;
the other cell gives the seam the colour its own edge matches, so two options agree on a seam
exactly when their edges match.
An option is a tile copy on a cell in one rotation (encode.placements: the frame, fixed tiles
and the parity are applied there).

What is counted: distinct grids, as the CP-SAT and CNF encoders count them (a tile type and its
look per cell; identical tiles interchangeable). Copies of a tile type are told apart only to
cover each physical tile once, and must lie in reading order: copy j goes on a later cell than
copy j-1 (secondary items "o<type>.<copy>.<cell>" that copy j-1 on cell c shares with copy j on
every cell up to c), so each grid is exactly one solution.

Level 2's `apart` rule: a secondary item per seam ("a1.2h") that every marked tile touching the
seam covers, so two marked tiles never touch. Grids a turn of the board leaves unchanged (the
families' Burnside counts) are not written as exact cover: `encode_cover` refuses `turns`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..encoded import CoverModel
from ..words import plural
from . import (
    Edge,
    EdgePuzzle,
    board_motion,
    cells,
    grid_of_puzzle,
    matches,
    neighbour_pairs,
    tile_types,
)
from .encode import Placement, placements
from .grid import Motion


@dataclass(frozen=True)
class CopyPlacement:
    """One option: copy `copy` (0-based) of a placement's tile type on its cell."""

    placement: Placement
    copy: int

    @property
    def cell(self) -> tuple[int, int]:
        return self.placement.cell

    @property
    def tile_type(self) -> int:
        return self.placement.tile_type

    @property
    def edges(self) -> tuple[Edge, ...]:
        return self.placement.edges

    def label(self) -> str:
        return f"{self.placement.label()} copy {self.copy + 1}"


def cover_options(puzzle: EdgePuzzle, parity: int | None = None) -> list[CopyPlacement]:
    """The options of the cover, key i = option i: every placement, once per copy of its type.

    encode.grid_of and encode.split_cubes read these as they read placements."""
    types = tile_types(puzzle)
    return [
        CopyPlacement(p, j)
        for p in placements(puzzle, parity)
        for j in range(types[p.tile_type].count)
    ]


def _colour_name(edge: Edge) -> str:
    """The colour a seam gets: the whole edge value, never shortened (DRAGONFLY-T and
    DRAGONFLY-H shortened to 8 characters were one colour, and xcover gave 28 insect grids
    for 4); to_dlx gives Knuth's programs short names of its own."""
    return "-".join(part for part in edge if part) or "_"


def encode_cover(puzzle: EdgePuzzle, turns: int | Motion = 0, parity: int | None = None
                 ) -> CoverModel:
    """The XCC model of an edge-matching puzzle (see the module's docstring)."""
    if not board_motion(puzzle, turns).identity:
        raise ValueError(
            "grids a turn of the board leaves unchanged cannot be counted as exact cover; "
            "count them with CP-SAT, SAT or the reference solver"
        )
    options = cover_options(puzzle, parity)
    types = tile_types(puzzle)
    board = cells(puzzle)
    position = {cell: n for n, cell in enumerate(board)}
    items: list[str] = [f"r{r + 1}c{c + 1}" for r, c in board]
    items += [f"t{k + 1}.{j + 1}" for k, t in enumerate(types) for j in range(t.count)]
    primary = len(items)
    index = {name: i for i, name in enumerate(items)}

    def item(name: str) -> int:
        if name not in index:
            index[name] = len(items)
            items.append(name)
        return index[name]

    # every edge value any tile shows: the colour a seam gets is one of these
    shown = sorted({e for t in puzzle.tiles for e in t.edges})
    seam_of: dict[tuple[tuple[int, int], int], str] = {}  # (cell, side) -> the seam's name
    grid = grid_of_puzzle(puzzle)
    for a, b, side in neighbour_pairs(puzzle):
        name = grid.seam_name(a, side)
        seam_of[(a, side)] = name
        seam_of[(b, grid.facing(side))] = name
    top_left = {(a, side) for a, _, side in neighbour_pairs(puzzle)}

    def seam_colour(cell: tuple[int, int], side: int, edge: Edge) -> str:
        if (cell, side) in top_left:
            return _colour_name(edge)
        partners = [v for v in shown if matches(v, edge, puzzle.rule)]
        if len(partners) > 1:
            raise ValueError(
                f"edge {''.join(edge)!r} matches {len(partners)} different edges: the rule "
                "cannot be written as one colour per seam"
            )
        return _colour_name(partners[0]) if partners else "none"

    rows: list[tuple[int, ...]] = []
    colours: list[dict[int, str]] = []
    for option in options:
        p, cell = option.placement, option.cell
        row = [
            index[f"r{cell[0] + 1}c{cell[1] + 1}"],
            index[f"t{p.tile_type + 1}.{option.copy + 1}"],
        ]
        colour: dict[int, str] = {}
        for side in range(grid.sides):
            if (cell, side) in seam_of:
                seam = item(seam_of[(cell, side)])
                row.append(seam)
                colour[seam] = seam_colour(cell, side, p.edges[side])
                if p.marked and puzzle.apart:
                    row.append(item("a" + seam_of[(cell, side)][1:] + seam_of[(cell, side)][0]))
        k, j, here = p.tile_type, option.copy, position[cell]
        if j > 0:  # copy j goes after copy j-1
            row.append(item(f"o{k + 1}.{j + 1}.{here + 1}"))
        if j + 1 < types[k].count:  # copy j+1 may not go on this cell or before it
            row += [item(f"o{k + 1}.{j + 2}.{n + 1}") for n in range(here + 1)]
        rows.append(tuple(row))
        colours.append(colour)
    return CoverModel(
        items,
        primary,
        rows,
        labels=[o.label() for o in options],
        colours=colours,
        fill_order=None,
        title=f"exact cover with colours: {primary} primary items, {plural(len(rows), 'option')}",
    )
