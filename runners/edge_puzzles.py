"""Edge-matching puzzles with one solution, for puzzle makers: a random board of a given size
and number of colours whose tiles fit together one way only, optionally with clue tiles, and
how hard it is expected to be.

A board is planted (models/edge_matching/planted.py: a frame colour on the border, border
colours on the joints along it, interior colours inside, every colour used, tiles shuffled and
turned), then counted by the compiled counter: without clues it is kept when its grids are
exactly the planted grid's images under the board's turns (one solution up to turning the
board: one class), with k clues (the planted tiles of k random cells, fixed where they lie)
when exactly one grid is left. Seeds seed, seed + 1, ... are tried until one is kept.

Difficulty: Knuth's estimate of the compiled counter's search over the whole puzzle (random
paths from the root, the mean of the product of the branchings along each: the nodes a plain
search of this puzzle visits to prove its one solution; one thread, one cube, no symmetry), with
its standard error; beside it the nodes that very search visited when it checked the puzzle.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from . import api
from .models.edge_matching import EdgePuzzle, FixedTile, board_turns, planted
from .models.edge_matching.grid import TRIANGLE, grid_named
from .models.errors import InputError
from .models.words import plural

PATHS = 2000  # random paths of Knuth's estimate (a fixed seed: the same figure every run)


@dataclass
class UniquePuzzle:
    """A generated puzzle with one solution: the puzzle (its clues as fixed tiles, its one
    solution in published['planted']), the seed kept, the seeds tried, what the count found,
    and the expected difficulty."""

    puzzle: EdgePuzzle
    seed: int
    tried: int
    grids: int
    classes: int
    up_to: str  # what "one solution" is counted up to
    nodes_searched: int
    estimated_nodes: float
    estimate_error: float

    def summary(self) -> str:
        return (f"{self.puzzle.name}: one solution {self.up_to} (edgecount: "
                f"{plural(self.grids, 'grid')}, {plural(self.classes, 'class')}), seed "
                f"{self.seed} after {self.tried} tried; expected difficulty: about "
                f"{self.estimated_nodes:,.0f} nodes of a plain search (Knuth's estimate over "
                f"{PATHS:,} random paths, standard error {self.estimate_error:,.0f}); the "
                f"search checking it visited {self.nodes_searched:,}")


def board_cells(grid: str, size: int) -> tuple:
    """The board of a size: a size x size square, or the regular hexagon of side `size` (6 x
    size^2 triangles)."""
    if size < 2:
        raise InputError(f"the board must be at least 2 cells across, not {size}", field="SIZE")
    if size > 64:
        raise InputError(f"at most 64 across, not {size:,}", field="SIZE")
    chosen = grid_named(grid)
    if chosen is TRIANGLE:  # rows of 2 size + 1, + 3, ... triangles, then back
        rows = []
        for r in range(2 * size):
            k = min(r, 2 * size - 1 - r)
            marks = "^v" if r < size else "v^"
            width = 2 * size + 1 + 2 * k
            rows.append(" " * (size - k) + "".join(marks[i % 2] for i in range(width)))
        return TRIANGLE.read_picture("\n".join(rows))
    return chosen.rectangle(size, size)


def unique(size: int, border_colours: int, interior_colours: int, clues: int = 0,
           grid: str = "square", seed: int = 1, attempts: int = 200) -> UniquePuzzle:
    """A planted board with exactly one solution (up to the board's turns without clues,
    exactly one grid with them), the first of seeds seed, seed + 1, ... (see the module's
    docstring). InputError for impossible requests; LookupError when no seed of `attempts`
    gives one (more colours or clues make one more likely)."""
    cells = board_cells(grid, size)
    if not isinstance(clues, int) or clues < 0 or clues >= len(cells):
        raise InputError(f"clues are 0 to {len(cells) - 1} on a board of "
                         f"{plural(len(cells), 'cell')}, not {clues}", field="clues")
    if attempts < 1:
        raise InputError(f"must be at least 1, not {attempts}", field="attempts")
    for tried in range(1, attempts + 1):
        at = seed + tried - 1
        puzzle = planted.plant(grid, cells, border_colours, interior_colours, at)
        solution = puzzle.published["planted"]
        if clues:
            rng = random.Random(at)
            where = sorted(rng.sample(range(len(cells)), clues))
            here = [cells[i] for i in where]
            puzzle = dataclasses.replace(puzzle, fixed=tuple(
                FixedTile(r, c, solution[i][0], solution[i][1])
                for (r, c), i in zip(here, where)))
        wanted = 1 if clues else len(board_turns(puzzle))
        found = api.count(puzzle, "edgecount", limit=wanted + 1)
        if not found.complete or found.number > wanted:
            continue  # more solutions than the planted one's images
        counted = api.count(puzzle, "edgecount", "none" if clues else "symmetry", jobs=1)
        classes = counted.number if not clues else counted.details["grids"]
        if classes != 1:
            continue
        return _kept(puzzle, at, tried, counted, clues)
    raise LookupError(f"none of seeds {seed} to {seed + attempts - 1} gives a board with one "
                      "solution: try more colours, clues or attempts")


def _kept(puzzle: EdgePuzzle, seed: int, tried: int, counted, clues: int) -> UniquePuzzle:
    from .backends.edgecount import Search, estimate, measured_order
    from .models.edge_matching.tables import build_tables

    up_to = ("(exactly one grid, with its clues)" if clues else
             "up to turning the whole board")
    what = (f"one solution {up_to}; {plural(clues, 'clue tile')}" if clues
            else f"one solution {up_to}")
    named = dataclasses.replace(
        puzzle, name=f"unique-{puzzle.grid}-{len(puzzle.tiles)}-s{seed}",
        title=puzzle.title.replace("(planted solution)", f"({what})"),
        source="puzzlesat generate --unique (runners/edge_puzzles.py)")
    model = build_tables(named, order=measured_order(named))
    search = Search(model, ())
    while not search.run(10**9):
        pass
    if search.found != counted.details["grids"]:
        raise AssertionError("the plain search and the count disagree")
    nodes, error = estimate(model, (), PATHS, seed=1)[1::2]
    return UniquePuzzle(named, seed, tried, counted.details["grids"],
                        counted.number if not clues else 1, up_to, search.nodes, nodes, error)
