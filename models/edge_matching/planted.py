"""Random N x N edge-matching boards with a planted solution, Eternity II style.

As in Heule's generator for the em_R_B_C benchmark instances: every side facing the outer border
shows the frame colour 0; the joints between two border tiles along the frame take one of the
border colours; every other joint takes one of the interior colours. Colours are numbered as
there: interior colours 1..C, border colours C+1..C+B. Unlike that generator, every colour is
used at least once (so the counts are the board's real counts), and the tiles are shuffled and
each turned at random, so a solver cannot read the solution off the tile order.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..errors import InputError
from ..limits import check_placements
from ..words import plural
from . import Edge, EdgePuzzle, Tile, rotated
from .grid import Board, Cell, grid_named
from .reader import to_e2

FRAME: Edge = ("0", "")


def _colours(joints: int, colours: int, rng: random.Random, first: int, field: str) -> list[int]:
    """A random colour (first .. first+colours-1) per joint, every colour used at least once."""
    if joints and colours < 1:
        raise InputError("must be at least 1", field=field)
    if colours > joints:
        raise InputError(
            f"{plural(colours, 'colour')} cannot all be used on {plural(joints, 'joint')}",
            field=field,
        )
    chosen = list(range(colours)) + [rng.randrange(colours) for _ in range(joints - colours)]
    rng.shuffle(chosen)
    return [first + c for c in chosen]


def generate(size: int, border_colours: int, interior_colours: int, seed: int) -> EdgePuzzle:
    """A size x size board with frame colour 0, solvable by construction (planted solution).

    The planted solution is kept in `published["planted"]`: (tile index, rotation) per cell in
    reading order, rotations as in `edgematch.rotated`.
    """
    if size < 2:
        raise InputError("the board must be at least 2 x 2", field="SIZE")
    # refused before the work: a board no backend could load (all tiles distinct, 4 turns each)
    check_placements(4 * size**4, f"a {size:,}x{size:,} board", "SIZE")
    rng = random.Random(seed)
    n = size
    # joints: horizontal ones right of (r, c) for c < n-1, vertical ones below (r, c) for r < n-1
    along_frame = [("h", 0, c) for c in range(n - 1)] + [("h", n - 1, c) for c in range(n - 1)]
    along_frame += [("v", r, 0) for r in range(n - 1)] + [("v", r, n - 1) for r in range(n - 1)]
    frame_joints = set(along_frame)
    inside = [
        (kind, r, c)
        for kind in ("h", "v")
        for r in range(n if kind == "h" else n - 1)
        for c in range(n - 1 if kind == "h" else n)
        if (kind, r, c) not in frame_joints
    ]
    colour: dict[tuple[str, int, int], str] = {}
    for joint, value in zip(
        inside, _colours(len(inside), interior_colours, rng, 1, "interior_colours")
    ):
        colour[joint] = str(value)
    for joint, value in zip(
        along_frame,
        _colours(len(along_frame), border_colours, rng, interior_colours + 1, "border_colours"),
    ):
        colour[joint] = str(value)

    def side(joint: tuple[str, int, int]) -> Edge:
        return (colour[joint], "") if joint in colour else FRAME

    planted_edges = []
    for r in range(n):
        for c in range(n):
            planted_edges.append((
                side(("v", r - 1, c)) if r > 0 else FRAME,
                side(("h", r, c)) if c < n - 1 else FRAME,
                side(("v", r, c)) if r < n - 1 else FRAME,
                side(("h", r, c - 1)) if c > 0 else FRAME,
            ))
    order = list(range(n * n))
    rng.shuffle(order)  # order[k]: the cell whose tile becomes tile k
    turns = [rng.randrange(4) for _ in order]
    tiles = tuple(
        Tile(rotated(planted_edges[cell], -turns[k]), name=str(k + 1))
        for k, cell in enumerate(order)
    )
    planted: list[tuple[int, int]] = [(0, 0)] * (n * n)
    for k, cell in enumerate(order):
        planted[cell] = (k, turns[k])
    name = f"planted_{n}_{border_colours}_{interior_colours}_s{seed}"
    return EdgePuzzle(
        name=name,
        rows=n,
        cols=n,
        tiles=tiles,
        rule="equal",
        frame=FRAME,
        title=f"Random {n}x{n} board, {border_colours} border and {interior_colours} interior "
        f"colours, seed {seed} (planted solution)",
        source="puzzlesat.models.planted.generate",
        published={"planted": planted},
    )


def plant(grid_name: str, shape: tuple[Cell, ...], border_colours: int, interior_colours: int,
          seed: int) -> EdgePuzzle:
    """A board of any grid (the cells of `shape`) with frame colour 0 and a planted solution,
    as `generate` makes square ones: a joint between two cells that both touch the border takes
    a border colour, every other joint an interior colour, each colour used at least once; the
    tiles shuffled and turned at random. The planted solution: `published["planted"]`."""
    grid = grid_named(grid_name)
    here = Board(grid, shape)
    if len(here) < 2:
        raise InputError("the board needs at least 2 cells", field="SIZE")
    check_placements(grid.sides * len(here) ** 2, f"a board of {plural(len(here), 'cell')}", "SIZE")
    rng = random.Random(seed)
    on_border = {cell for cell in here.cells if any(here.border(cell))}
    pairs = here.pairs
    along = [p for p in pairs if p[0] in on_border and p[1] in on_border]
    inside = [p for p in pairs if not (p[0] in on_border and p[1] in on_border)]
    shown: dict[tuple[Cell, int], Edge] = {}
    for joints, count, first, field in ((inside, interior_colours, 1, "interior_colours"),
                                        (along, border_colours, interior_colours + 1,
                                         "border_colours")):
        for (a, b, side), value in zip(joints, _colours(len(joints), count, rng, first, field)):
            shown[(a, side)] = shown[(b, grid.facing(side))] = (str(value), "")
    planted_edges = [tuple(shown.get((cell, side), FRAME) for side in range(grid.sides))
                     for cell in here.cells]
    order = list(range(len(here)))
    rng.shuffle(order)  # order[k]: the cell whose tile becomes tile k
    turns = [rng.randrange(grid.sides) for _ in order]
    tiles = tuple(Tile(rotated(planted_edges[cell], -turns[k]), name=str(k + 1))
                  for k, cell in enumerate(order))
    planted: list[tuple[int, int]] = [(0, 0)] * len(here)
    for k, cell in enumerate(order):
        planted[cell] = (k, turns[k])
    square = grid_name == "square" and len(here) == here.rows * here.cols
    return EdgePuzzle(
        name=f"planted_{grid_name}_{len(here)}_{border_colours}_{interior_colours}_s{seed}",
        rows=here.rows, cols=here.cols, tiles=tiles, rule="equal", frame=FRAME,
        title=f"Random board of {len(here)} {grid_name} cells, {border_colours} border and "
        f"{interior_colours} interior colours, seed {seed} (planted solution)",
        source="puzzlesat.models.edge_matching.planted.plant", published={"planted": planted},
        grid=grid_name, shape=() if square else here.cells,
    )


def shuffle(puzzle: EdgePuzzle, seed: int) -> EdgePuzzle:
    """The puzzle with its tiles in a random order and each turned at random (fixed tiles follow).

    Heule's em_* files list their pieces in the order of a solution, unturned; shuffled and
    turned, they no longer favour a search that tries tiles in file order. Same seed, same board.
    """
    rng = random.Random(seed)
    order = list(range(len(puzzle.tiles)))
    rng.shuffle(order)  # order[k]: the old tile that becomes tile k
    sides = grid_named(puzzle.grid).sides
    turns = [rng.randrange(sides) for _ in order]
    tiles = tuple(
        replace(puzzle.tiles[old], edges=rotated(puzzle.tiles[old].edges, -turns[k]))
        for k, old in enumerate(order)
    )
    new_index = {old: k for k, old in enumerate(order)}
    fixed = tuple(
        replace(f, tile=new_index[f.tile],
                rotation=(f.rotation + turns[new_index[f.tile]]) % sides)
        for f in puzzle.fixed
    )
    return replace(
        puzzle,
        name=f"{puzzle.name}_s{seed}",
        tiles=tiles,
        fixed=fixed,
        title=f"{puzzle.title} (tiles shuffled and turned, seed {seed})",
        published={},
    )


def benchmark_text(puzzle: EdgePuzzle) -> str:
    """The puzzle in the Eternity II benchmark format, to be saved and read back by path."""
    if (puzzle.rule != "equal" or puzzle.frame != FRAME or puzzle.apart or puzzle.fixed
            or puzzle.grid != "square" or puzzle.shape):
        raise InputError(
            "only 'equal' puzzles on a full square board with frame colour 0, no marks rule "
            "and no fixed tiles can be written in the benchmark format",
            field="format",
        )
    for index, tile in enumerate(puzzle.tiles):
        for picture, half in tile.edges:
            if half or not picture.isdigit() or tile.mark:
                raise InputError(
                    f"tile {index + 1}: colour {picture!r} is not a number, or the tile is "
                    "marked; the benchmark format has neither",
                    field="format",
                )
    return to_e2(puzzle)
