"""The pictures of packing puzzles in space (the cubic lattice): what `draw`,
`gallery`, `play` and `export --format stl` make of them.

The packing family's pictures module (packing.py) hands 3D puzzles over to this module. A
solution (cell (layer, row, column) -> piece index) becomes an `Assembly` (solid.py), drawn as an
isometric view with its layers beside it, shown on the 3D page (viewer.py) or printed (stl.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..models.errors import InputError
from ..models.packing import CellPuzzle
from ..models.words import plural
from . import gallery as galleries
from . import solutions as found
from . import stl as print_stl
from . import viewer
from .solid import Assembly, Cell3, box_name, draw_pieces, draw_solution
from .svg import Svg

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
                       f"{puzzle.name}: the {plural(len(puzzle.pieces), 'piece')}")


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


def gallery(puzzle: CellPuzzle, modulo: str, cap: int, draw=draw, pieces=pieces, say=None,
            only: int | None = None) -> galleries.Gallery:
    """The first `cap` solutions (or one per class under the box's symmetries), with the count
    (see gallery.py); only: the only-th picture alone, no count. `draw` and `pieces` draw a
    solution and the pieces (balls draw theirs: balls.py)."""
    from .packing import packing_gallery

    placed = (f", {len(puzzle.placed)} of them pre-placed where the challenge puts them"
              if puzzle.placed else "")
    fill = (f"ways to fill {_box(puzzle)} with the {plural(len(puzzle.pieces), 'piece')}{placed}, "
            "each used once (every rotation and reflection of a whole solution counts as "
            "different)")
    return packing_gallery(puzzle, modulo, cap, draw, pieces, fill, "box", say, only)


def page(puzzle: CellPuzzle, assembly=assembly, say=None) -> str:
    """The 3D page: solutions of different classes, each turned by dragging and built piece
    by piece (`assembly` makes a solution what the page shows: cubes, or balls.py's balls)."""
    viewer.three_library()  # a page that cannot be written is said before the listing
    listed = found.first_solutions(puzzle, PAGE_SOLUTIONS, found.packing_classifier(puzzle),
                                   by_class=True, say=say, most=PAGE_LOOKED_AT)
    grids = [member.grid for member in found.representatives(listed.members)]
    if not grids:
        raise InputError(found.nothing_found(puzzle, listed, "solution to show"),
                         field="PUZZLE")
    shown = ("a solution" if len(grids) == 1 else
             f"{plural(len(grids), 'solution')}, no two alike up to the box's symmetries")
    placed = [puzzle.pieces[p.piece].name for p in puzzle.placed]
    card = (f" The challenge places {', '.join(placed)} first; they stay where they are."
            if placed else "")
    rules = (f"{plural(len(puzzle.pieces), 'piece')} fill {_box(puzzle)}: {shown}. Drag to turn "
             f"the box, scroll to zoom; Next puts the next piece in, bottom up.{card}")
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
    return files, (f"{plural(len(puzzle.pieces), 'piece')} and the assembled box as binary STL "
                   f"({cube:g} mm cubes{inset})")
