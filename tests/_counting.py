"""Test helpers: count a packing puzzle from its count plan with CP-SAT directly.

The reference solver's solutions are enumerated here in this process, and their classes found
by canonical forms (the reference's own symmetries, sharing no code with the models).

The backends are being rebuilt; until they land, the tests count the plan's tasks here: every
task's cubes are enumerated exhaustively by CP-SAT on the models' encoding of the task's exact
cover, and the plan's own `combine` turns the counts into solutions and classes.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from puzzlesat.backends import reference_packing
from puzzlesat.models.encoded import CpsatModel
from puzzlesat.models.packing import PackingPuzzle, exact_cover
from puzzlesat.models.packing.encode import encode_cpsat
from puzzlesat.models.packing.plan import CountPlan, CountTask, count_plan


class _Keys(cp_model.CpSolverSolutionCallback):
    """Collects the distinct assignments of a model's keys (auxiliary variables aside)."""

    def __init__(self, keys: list) -> None:
        super().__init__()
        self.keys = keys
        self.found: set[tuple[int, ...]] = set()

    def on_solution_callback(self) -> None:
        self.found.add(tuple(self.value(k) for k in self.keys))


def count_cpsat(model: CpsatModel) -> int:
    """The distinct key assignments of a CP-SAT model, enumerated exhaustively."""
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    if model.fixed_search:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
    keys = _Keys(model.keys)
    status = solver.solve(model.model, keys)
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), solver.status_name(status)
    return len(keys.found)


def count_cube(puzzle: PackingPuzzle, task: CountTask, cube: tuple[int, ...]) -> int:
    """The exact covers of the task's placements that agree with a cube, counted by CP-SAT on
    the models' own encoding."""
    encoded = encode_cpsat(exact_cover(puzzle, task.options))
    for literal in cube:
        encoded.model.add(encoded.keys[abs(literal) - 1] == (1 if literal > 0 else 0))
    return count_cpsat(encoded)


def count_packing(puzzle: PackingPuzzle, modulo: str) -> tuple[int, int | None, CountPlan]:
    """(solutions, classes or None, the plan) by counting every cube of the plan's tasks."""
    plan = count_plan(puzzle, modulo)
    counts = [[count_cube(puzzle, task, cube) for cube in task.cubes] for task in plan.tasks]
    solutions, classes = plan.combine(counts)
    return solutions, classes, plan


def reference_grids(
    puzzle: PackingPuzzle,
) -> tuple[reference_packing.Board, list[reference_packing.Grid]]:
    """Every solution found by the reference solver, as grids (piece index per board cell);
    the board carries the reference's own symmetries (modulo 'symmetry')."""
    board = reference_packing.model(puzzle, group="symmetry").board
    found: list[reference_packing.Grid] = []
    area = sum(len(piece.cells) * piece.count for piece in puzzle.pieces)
    if area == len(board.cells):
        filled, used, placed = reference_packing._cube_start(board, ())  # placed pieces
        reference_packing._search(
            board, filled, used, placed,
            lambda placed: found.append(reference_packing.grid_of(board, placed)),
        )
    return board, found


def reference_classes(puzzle: PackingPuzzle) -> tuple[int, int]:
    """(solutions, classes) by the reference: classes are the distinct canonical forms."""
    board, grids = reference_grids(puzzle)
    return len(grids), len({reference_packing.canonical(board, g) for g in grids})


def partition(cells: set, pieces: int, rnd, neighbours) -> list[set]:
    """Cells split into regions grown from random seeds through `neighbours` (a cell's
    neighbours: a lattice's `adjacent`, or a test's own), a cell cut off from every region
    starting its own."""
    free = set(cells)
    regions: list[set] = []
    for seed in rnd.sample(sorted(free), min(pieces, len(free))):
        free.discard(seed)
        regions.append({seed})
    while free:
        grown = False
        for region in rnd.sample(regions, len(regions)):
            border = sorted({n for cell in region for n in neighbours(cell)} & free)
            if border:
                cell = rnd.choice(border)
                free.discard(cell)
                region.add(cell)
                grown = True
        if not grown:
            cell = min(free)
            free.discard(cell)
            regions.append({cell})
    return regions
