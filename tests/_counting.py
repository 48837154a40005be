"""Test helpers: count a packing puzzle from its count plan with CP-SAT directly.

The reference solver's solutions are enumerated here in this process, and their classes found
by canonical forms (the reference's own symmetries, sharing no code with the models).

The backends are being rebuilt; until they land, the tests count the plan's tasks here: every
task's cubes are enumerated exhaustively by CP-SAT on the task's exact cover, and the plan's own
`combine` turns the counts into solutions and classes.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from puzzlesat.backends import reference_packing
from puzzlesat.models.packing import PackingPuzzle, exact_cover
from puzzlesat.models.packing.plan import CountPlan, CountTask, count_plan


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.solutions = 0

    def on_solution_callback(self) -> None:
        self.solutions += 1


def count_cube(puzzle: PackingPuzzle, task: CountTask, cube: tuple[int, ...]) -> int:
    """The exact covers of the task's placements that agree with a cube, counted by CP-SAT."""
    cover = exact_cover(puzzle, task.options)
    model = cp_model.CpModel()
    use = [model.new_bool_var(f"p{k}") for k in range(len(cover.rows))]
    covering: list[list[int]] = [[] for _ in cover.columns]
    for k, row in enumerate(cover.rows):
        for column in row:
            covering[column].append(k)
    for rows in covering:
        if not rows:
            return 0  # a piece or a cell nothing covers
        model.add_exactly_one(use[k] for k in rows)
    for literal in cube:
        model.add(use[abs(literal) - 1] == (1 if literal > 0 else 0))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = _Counter()
    status = solver.solve(model, counter)
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), solver.status_name(status)
    return counter.solutions


def count_packing(puzzle: PackingPuzzle, modulo: str) -> tuple[int, int | None, CountPlan]:
    """(solutions, classes or None, the plan) by counting every cube of the plan's tasks."""
    plan = count_plan(puzzle, modulo)
    counts = [[count_cube(puzzle, task, cube) for cube in task.cubes] for task in plan.tasks]
    solutions, classes = plan.combine(counts)
    return solutions, classes, plan


def reference_grids(
    puzzle: PackingPuzzle,
) -> tuple[reference_packing.Board, list[reference_packing.Grid]]:
    """Every solution found by the reference solver, as grids (piece index per board cell)."""
    board = reference_packing.build(puzzle)
    found: list[reference_packing.Grid] = []
    area = sum(len(piece.cells) for piece in puzzle.pieces)
    if area == len(board.cells):
        reference_packing._search(
            board, 0, 0, [], lambda placed: found.append(reference_packing.grid_of(board, placed))
        )
    return board, found


def reference_classes(puzzle: PackingPuzzle) -> tuple[int, int]:
    """(solutions, classes) by the reference: classes are the distinct canonical forms."""
    board, grids = reference_grids(puzzle)
    return len(grids), len({reference_packing.canonical(board, g) for g in grids})
