"""The pictures of packing puzzles in space (the cubic lattice): what `draw`,
`gallery`, `play` and `export --format stl` make of them.

The packing family's pictures module (packing.py) hands 3D puzzles over to this module. A
solution (cell (layer, row, column) -> piece index) becomes an `Assembly` (solid.py), drawn as an
isometric view with its layers beside it, shown on the 3D page (viewer.py) or printed (stl.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from ..models.errors import InputError
from ..models.packing import CellPuzzle
from . import gallery as galleries
from . import solutions as found
from . import stl as print_stl
from . import viewer
from .solid import Assembly, Cell3, box_name, draw_pieces, draw_solution
from .svg import Svg

LIST_SECONDS = 20.0  # a gallery lists solutions about this long (Soma: all 11,520 in ~10 s)
PAGE_SOLUTIONS = 24  # solutions a 3D page holds: no two of one class, the first met ...
PAGE_LOOKED_AT = 480  # ... among this many solutions (Soma: 24 classes among the first 26)


def _extent(cells: Iterable[tuple[int, ...]]) -> tuple[int, int, int]:
    """(layers, rows, columns) of the smallest box holding the cells (from 0)."""
    return tuple(max(axis) + 1 for axis in zip(*cells))


def assembly(puzzle: CellPuzzle, grid: dict[tuple[int, int, int], int]) -> Assembly:
    """A solution of the puzzle as an assembly in its box."""
    layers, rows, columns = _extent(puzzle.board_cells)
    return Assembly.from_layers(grid, [p.name for p in puzzle.pieces], layers, rows, columns)


def piece_cells(cells: Iterable[tuple[int, int, int]]) -> list[Cell3]:
    """A piece's cells (layer, row, column) as (x, y, z) = (row, column, layer)."""
    return [(r, c, layer) for layer, r, c in cells]


def pieces(puzzle: CellPuzzle) -> Svg:
    """The piece reference: each piece as the file gives it, in the isometric view."""
    return draw_pieces([(p.name, piece_cells(p.cells)) for p in puzzle.pieces],
                       f"{puzzle.name}: the {len(puzzle.pieces)} pieces")


def draw(puzzle: CellPuzzle, grid: dict, caption: str) -> Svg:
    """One solution: the isometric view of the box and its layers (a challenge's caption names
    its pre-placed pieces)."""
    if puzzle.placed:
        caption += "; pre-placed: " + ", ".join(puzzle.pieces[p.piece].name
                                               for p in puzzle.placed)
    return draw_solution(assembly(puzzle, grid), caption)


def _box(puzzle: CellPuzzle) -> str:
    extent = _extent(puzzle.board_cells)
    full = len(puzzle.board_cells) == extent[0] * extent[1] * extent[2]
    return f"the {box_name(extent)} box" if full else "the solid"


def listed(puzzle: CellPuzzle, seconds: float | None = None) -> tuple[list[dict], bool]:
    """The solutions the enumerator lists in about `seconds` (default LIST_SECONDS), and whether
    that is all of them. The enumerator is asked for twice as many each time until it lists them
    all or the time is spent (its search collects what it is asked for before it answers)."""
    seconds = LIST_SECONDS if seconds is None else seconds
    start = time.perf_counter()
    limit = 256
    while True:
        grids = found.packing_solutions(puzzle, limit=limit)
        if len(grids) < limit:
            return grids, True
        if time.perf_counter() - start > seconds:
            return grids, False
        limit *= 2


def gallery(puzzle: CellPuzzle, modulo: str, cap: int, draw=draw, pieces=pieces
            ) -> galleries.Gallery:
    """Every solution (or one per class under the box's symmetries), with the count; where the
    solutions are too many to list in LIST_SECONDS, those listed, saying so. `draw` and
    `pieces` draw a solution and the pieces (balls draw theirs: balls.py)."""
    grids, complete = listed(puzzle)
    by = "rotation" if modulo == "rotation" else "symmetry"
    members = found.packing_classes(puzzle, grids, by)
    classes = len({m.klass for m in members})
    symmetries = found.packing_symmetries(puzzle, by)
    group = f"the box's {symmetries} {'rotations' if by == 'rotation' else 'symmetries'}"
    placed = (f", {len(puzzle.placed)} of them pre-placed where the challenge puts them"
              if puzzle.placed else "")
    fill = (f"ways to fill {_box(puzzle)} with the {len(puzzle.pieces)} pieces{placed}, each "
            "used once")
    shown = found.representatives(members) if modulo != "none" else members
    if not complete:
        statement = (
            f"The first {galleries.plural(len(grids), 'solution')} the solver listed in "
            f"{LIST_SECONDS:g} s or so ({fill}); there are more: `puzzlesat count "
            f"{puzzle.name}` counts them all. Among those listed, "
            f"{galleries.plural(classes, 'class')} under {group}.")
        word = "class" if modulo != "none" else "solution"
        figures = [galleries.Figure(f"{word}-{i:04d}.svg", draw(puzzle, m.grid, caption), caption)
                   for i, m in enumerate(shown[:cap], 1)
                   for caption in [f"{word} {i} of those listed"]]
        return galleries.Gallery(puzzle.title or puzzle.name, statement, pieces(puzzle), figures,
                                 len(shown))
    statement = (
        f"{galleries.plural(len(grids), 'solution')}: {fill} (every rotation and reflection of "
        f"a whole solution counts as different); {galleries.plural(classes, 'class')} under "
        f"{group}" + (" (a mirror image swaps each piece with its mirror twin)"
                      if by == "symmetry" and symmetries > 24 and not puzzle.flip else "") + "."
    )
    figures = galleries.figures(shown, modulo != "none", "solution", cap,
                                lambda grid, caption: draw(puzzle, grid, caption))
    return galleries.Gallery(puzzle.title or puzzle.name, statement, pieces(puzzle), figures,
                             len(shown))


def page(puzzle: CellPuzzle, assembly=assembly) -> str:
    """The 3D page: solutions of different classes, each turned by dragging and built piece
    by piece (`assembly` makes a solution what the page shows: cubes, or balls.py's balls)."""
    grids = found.distinct_packing_solutions(puzzle, PAGE_SOLUTIONS, PAGE_LOOKED_AT)
    if not grids:
        raise InputError(f"{puzzle.name} has no solution to show", field="PUZZLE")
    shown = ("a solution" if len(grids) == 1 else
             f"{len(grids)} solutions, no two alike up to the box's symmetries")
    placed = [puzzle.pieces[p.piece].name for p in puzzle.placed]
    card = (f" The challenge places {', '.join(placed)} first; they stay where they are."
            if placed else "")
    rules = (f"{len(puzzle.pieces)} pieces fill {_box(puzzle)}: {shown}. Drag to turn the box, "
             f"scroll to zoom; Next puts the next piece in, bottom up.{card}")
    return viewer.solid_page([assembly(puzzle, g) for g in grids], puzzle.title or puzzle.name,
                             rules, [f"solution {i}" for i in range(1, len(grids) + 1)], placed)


def print_set(puzzle: CellPuzzle, cube: float = print_stl.CUBE_MM, clearance: float = 0.0
              ) -> tuple[dict[str, bytes], str]:
    """STL files to print the puzzle (every piece, the first solution assembled), and a line
    saying what they are."""
    print_stl.check_sizes(cube, clearance)
    grids = found.packing_solutions(puzzle, limit=1)
    if not grids:
        raise InputError(f"{puzzle.name} has no solution to assemble", field="PUZZLE")
    made = assembly(puzzle, grids[0])
    files = print_stl.print_set(made, puzzle.title or puzzle.name, cube,
                                "the first solution the solver finds", clearance)
    inset = f", faces {clearance:g} mm inwards" if clearance else ""
    return files, (f"{len(puzzle.pieces)} pieces and the assembled box as binary STL "
                   f"({cube:g} mm cubes{inset})")
