"""Best partial boards: every cell filled under the puzzle's rules, as many seams matched as can be.

A seam is a pair of touching cells (Eternity II's 16x16 has 480). The rules stay hard: each tile
once, the frame (frame edges face the border, and only it), a border colour, the fixed tiles
(clues) and the `apart` mark; only matching is given up where it must be. The score of a board
is its matched seams, out of `len(seams(puzzle))`.

Encoders here never run a solver:

- `encode_best_cpsat`: the placement Booleans of the CP-SAT model (exactly one per cell, each
  tile kind as often as it has tiles) and, per seam and colour, a Boolean that may be true only
  when both cells show that colour against each other; the objective is their sum.
- `encode_best_wcnf`: the same placements as CNF (hard), a variable per seam that may be true
  only when the seam matches (hard clauses through the colour the first cell shows), and a soft
  unit clause of weight 1 per seam: a MaxSAT solver minimises the broken seams.
- `search_arrays`: the puzzle as arrays for the compiled search (`edgesearch`): which tile may
  lie on which cell in which turns, the colour ids of every edge and what each must meet.

Every encoding has the placements as keys (as `encode.layout` numbers them), so a board is read
back the same way (`encode.grid_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from pysat.formula import WCNF, IDPool

from ..errors import InputError
from ..limits import step
from ..words import plural
from . import (
    EdgePuzzle,
    Placed,
    cells,
    fits_frame,
    grid_of_puzzle,
    matches,
    neighbour_pairs,
    rotated,
)
from .encode import DEFAULT_CARD_ENCODING, Layout, layout, one_per_cell_and_type

if TYPE_CHECKING:  # OR-Tools is imported where a CP-SAT model is made (0.4 s)
    from ortools.sat.python import cp_model


def check_board(puzzle: EdgePuzzle) -> None:
    """Best boards are searched for on rectangles of square tiles (Eternity II's kind)."""
    if puzzle.grid != "square" or puzzle.shape:
        raise InputError(f"best boards are searched for on rectangular boards of square tiles; "
                         f"{puzzle.name} is on a {puzzle.grid} grid"
                         + (" of another shape" if puzzle.shape else ""), field="puzzle")


def seams(puzzle: EdgePuzzle) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
    """The touching pairs of cells (a, b, side of a): each one a point of the score."""
    return neighbour_pairs(puzzle)


def most(puzzle: EdgePuzzle) -> int:
    """The score of a board with every seam matched."""
    return len(seams(puzzle))


def score(puzzle: EdgePuzzle, grid: list[Placed]) -> int:
    """Matched seams of a board ((tile, rotation) per cell, row by row), by the puzzle's rule."""
    at = dict(zip(cells(puzzle), grid))
    lattice = grid_of_puzzle(puzzle)
    total = 0
    for a, b, side in seams(puzzle):
        ta, ra = at[a]
        tb, rb = at[b]
        shown = rotated(puzzle.tiles[ta].edges, ra)[side]
        facing = rotated(puzzle.tiles[tb].edges, rb)[lattice.facing(side)]
        total += matches(shown, facing, puzzle.rule)
    return total


# ---------------------------------------------------------------- CP-SAT


@dataclass
class BestCpsat:
    """A CP-SAT model maximising matched seams; `use` are its placement Booleans (the keys)."""

    model: cp_model.CpModel
    use: list
    lay: Layout
    title: str


def encode_best_cpsat(puzzle: EdgePuzzle) -> BestCpsat:
    from ortools.sat.python import cp_model

    from .encode import add_apart_cpsat

    lay = layout(puzzle)
    model = cp_model.CpModel()
    use = [model.new_bool_var(p.label()) for p in lay.options]
    for indices in lay.at_cell.values():
        model.add_exactly_one(use[i] for i in indices)
    for indices, count in zip(lay.of_type, lay.counts):
        model.add(sum(use[i] for i in indices) == count)
    add_apart_cpsat(puzzle, model, use, lay)
    matched = []
    for number, (a, _, side, values, showing, matching) in enumerate(lay.seams):
        if number % 64 == 0:
            step("CP-SAT seams", number, len(lay.seams))
        for v in values:
            if not matching[v]:
                continue
            both = model.new_bool_var(f"{a} side {side} matched on {v}")
            model.add(both <= sum(use[i] for i in showing[v]))
            model.add(both <= sum(use[j] for j in matching[v]))
            matched.append(both)
    model.maximize(sum(matched))
    return BestCpsat(model, use, lay, f"{len(use)} placement Booleans, {len(matched)} "
                     "seam-colour Booleans, objective: matched seams")


# ---------------------------------------------------------------- weighted CNF (MaxSAT)


@dataclass
class BestWcnf:
    """Hard clauses: the rules; a soft unit clause per seam. Keys: variables 1..len(options)."""

    wcnf: WCNF
    lay: Layout
    title: str


def encode_best_wcnf(puzzle: EdgePuzzle, encoding: str = DEFAULT_CARD_ENCODING) -> BestWcnf:
    lay = layout(puzzle)
    n = len(lay.options)
    pool = IDPool(start_from=n + 1)
    hard = one_per_cell_and_type(
        [[i + 1 for i in indices] for indices in lay.at_cell.values()],
        [[i + 1 for i in indices] for indices in lay.of_type],
        lay.counts, encoding, pool, True,
    )
    if puzzle.apart:
        for a, b, _, _, _, _ in lay.seams:
            for i in (i for i in lay.at_cell[a] if lay.options[i].marked):
                for j in (j for j in lay.at_cell[b] if lay.options[j].marked):
                    hard.append([-(i + 1), -(j + 1)])
    soft = []
    for number, (a, _, side, values, showing, matching) in enumerate(lay.seams):
        if number % 64 == 0:
            step("MaxSAT seams", number, len(lay.seams))
        seam = pool.id(("matched", a, side))
        soft.append([seam])
        for v in values:
            colour = pool.id(("shows", a, side, v))
            hard += [[-(i + 1), colour] for i in showing[v]]
            hard.append([-seam, -colour] + [j + 1 for j in matching[v]])
    wcnf = WCNF()
    wcnf.extend(hard)
    for clause in soft:
        wcnf.append(clause, weight=1)
    wcnf.nv = max(wcnf.nv, pool.top)
    return BestWcnf(wcnf, lay, f"{plural(n, 'placement')}, {len(soft)} soft seams, cardinality as "
                    f"{encoding}")


# ---------------------------------------------------------------- arrays for the compiled search


@dataclass
class SearchArrays:
    """The puzzle as arrays (picklable) for the compiled search.

    edge: tile x side -> colour id (turn 0); partner: colour id -> the id it must meet;
    turns: cell x tile -> a bit per turn (1 << r) the rules allow there (0: the tile may not
    lie there); neighbour: cell x side -> the touching cell or -1; fixed: cell -> its fixed tile
    or -1; free_cells: the cells not fixed, in reading order."""

    rows: int
    cols: int
    edge: np.ndarray
    partner: np.ndarray
    turns: np.ndarray
    neighbour: np.ndarray
    fixed: np.ndarray
    fixed_turn: np.ndarray
    seams: int


def search_arrays(puzzle: EdgePuzzle) -> SearchArrays:
    """Arrays for `edgesearch`; the `apart` rule is refused (this search swaps tiles freely)."""
    check_board(puzzle)
    if puzzle.apart:
        raise InputError("edgesearch keeps no 'apart' rule (two marked tiles side by side); "
                         "use cpsat or a maxsat backend", field="backend")
    edges = sorted({e for t in puzzle.tiles for e in t.edges})
    ids = {e: i for i, e in enumerate(edges)}
    partner = np.full(len(edges) + 1, len(edges), dtype=np.int32)  # the last id meets nothing
    for e, i in ids.items():
        for f, j in ids.items():
            if matches(e, f, puzzle.rule):
                partner[i] = j
    board = cells(puzzle)
    n, count = len(board), len(puzzle.tiles)
    edge = np.array([[ids[e] for e in t.edges] for t in puzzle.tiles], dtype=np.int32)
    turns = np.zeros((n, count), dtype=np.int32)
    fits: dict[tuple, int] = {}
    for c, cell in enumerate(board):
        sides = (cell[0] == 0, cell[1] == puzzle.cols - 1, cell[0] == puzzle.rows - 1,
                 cell[1] == 0)
        for t, tile in enumerate(puzzle.tiles):
            key = (sides, tile.edges)
            if key not in fits:
                fits[key] = sum(1 << r for r in range(4)
                                if fits_frame(puzzle, cell, rotated(tile.edges, r)))
            turns[c, t] = fits[key]
    fixed = np.full(n, -1, dtype=np.int32)
    fixed_turn = np.zeros(n, dtype=np.int32)
    for f in puzzle.fixed:
        c = f.row * puzzle.cols + f.col
        fixed[c], fixed_turn[c] = f.tile, f.rotation
        turns[:, f.tile] = 0
        turns[c, :] = 0
        turns[c, f.tile] = 1 << f.rotation
    neighbour = np.full((n, 4), -1, dtype=np.int32)
    for c, (r, k) in enumerate(board):
        for side, (dr, dk) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            if 0 <= r + dr < puzzle.rows and 0 <= k + dk < puzzle.cols:
                neighbour[c, side] = (r + dr) * puzzle.cols + k + dk
    return SearchArrays(puzzle.rows, puzzle.cols, edge, partner, turns, neighbour, fixed,
                        fixed_turn, most(puzzle))
