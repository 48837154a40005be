"""Sliding-block puzzles: God's algorithm over every reachable position, optimal plans, verify.

The calls (solve, count, export) are the moves base's (runners/families/moves.py); this module
gives the sliding-block hooks: positions and moves from models/sliding, the table model of the
breadth-first search with the compiled kernel (runners/kernels/sliding.py), the plan encodings.
`report` is the library side of `puzzlesat sliding table`: the positions reachable, how many lie
at each distance from the goal, God's number over the reachable set, the hardest positions and
the start's distance, in the puzzle's metric (named in every output). `verify` checks the
planners against the table on the hardest and on random positions near the goal, and the
compiled kernel against the rules in Python.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from ..backends.table import TableModel
from ..lazy import lazy_module
from ..models.errors import InputError
from ..models.sliding import KIND, METRICS, Position, SlidingPuzzle
from ..outcomes import Count, Verification
from ..planning import Plan, PlanError
from .moves import TABLE, MovesFamily, MovesTable

# the breadth-first engine and the move kernels (numba, numpy) and the encodings (PySAT) load
# when a sliding puzzle is first solved, never for the command line's flags or the catalog
engine = lazy_module("puzzlesat.breadth_first")
kernels = lazy_module("puzzlesat.kernels.sliding")
encodings = lazy_module("puzzlesat.models.sliding.encode")

Say = Callable[[str], None]

DEFAULT_SAMPLE = 4  # positions verify plans with every planner: hardest first, then random
DEFAULT_SEED = 2002
# verify plans only positions this near the goal: a planner's model grows with k, and
# iterative deepening to 81 moves (Klotski's start) takes hours; at 3 moves a position takes
# 1-30 s per planner on the shared 2-core machine (tests/test_sliding.py)
PLAN_DISTANCE = 5


def counted(puzzle: SlidingPuzzle) -> str:
    """What a count of positions counts, with the metric."""
    start = ("reachable from the goal" if puzzle.goal.position is not None
             else "reachable from the start")
    return (f"positions {start} (pieces of one type interchangeable), moves: "
            f"{METRICS[puzzle.metric]} ('{puzzle.metric}' metric)")


def cache_key(puzzle: SlidingPuzzle) -> str:
    return engine.fingerprint(KIND, puzzle.rows, puzzle.columns, sorted(puzzle.cells),
                              [(g.letter, g.count, g.placements) for g in puzzle.groups],
                              puzzle.metric, puzzle.goal.position, puzzle.goal.cells,
                              puzzle.start if puzzle.goal.position is None else None)


@lru_cache(maxsize=8)
def kernel_parts(puzzle: SlidingPuzzle) -> tuple[tuple, int, int]:
    """The kernel's arrays, the bound on positions and the most moves from a position (the
    bound counts arrangements: worth keeping between calls)."""
    return kernels.kernel_data(puzzle), kernels.bound(puzzle)[0], kernels.degree(puzzle)


def has_goal(puzzle: SlidingPuzzle) -> bool:
    """Whether distances are to a goal (else they are from the start: no goal given)."""
    return puzzle.goal.position is not None or bool(puzzle.goal.cells)


def start_distance(found: MovesTable) -> int | None:
    """The start's distance to the goal (None where there is no start or no goal); an
    InputError naming the puzzle's start where it cannot reach the goal."""
    puzzle = found.puzzle
    if puzzle.start is None or not has_goal(puzzle):
        return None
    FAMILY.check_reached(puzzle, found, puzzle.start, given=False)
    return found.distance(puzzle.start)


def published_agrees(puzzle: SlidingPuzzle, figures: dict) -> dict[str, bool]:
    """Each published figure against ours, where both are in the same metric (a figure
    published in the puzzle file's metric says nothing of another metric's)."""
    if puzzle.metric != (puzzle.published_metric or puzzle.metric):
        return {}
    return {k: puzzle.published[k] == v for k, v in figures.items() if k in puzzle.published}


def report(found: MovesTable) -> dict:
    """The table's figures, as results files and --json hold them."""
    puzzle, build = found.puzzle, found.build
    distance = start_distance(found)
    hardest = found.hardest()
    ours = {"positions": build.positions, "gods_number": build.gods_number,
            "start_moves": distance}
    return {
        "puzzle": puzzle.name,
        "title": puzzle.title,
        "kind": KIND,
        "metric": puzzle.metric,
        "metric_means": METRICS[puzzle.metric],
        "goal": puzzle.goal.describe(puzzle.columns),
        "positions": build.positions,
        "counted": counted(puzzle),
        "gods_number": build.gods_number,
        "gods_number_means": ("the greatest distance to the goal over the positions counted"
                              if has_goal(puzzle) else
                              "the greatest distance from the start (no goal given)"),
        "hardest_positions": build.distance_counts[-1],
        "hardest": [puzzle.notation(p) for p in hardest[:20]],
        "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
        "start": None if puzzle.start is None else puzzle.notation(puzzle.start),
        "start_moves": distance,
        "published": puzzle.published,
        "published_metric": puzzle.published_metric or puzzle.metric,
        "published_agrees": published_agrees(puzzle, ours),
        "table_bytes": build.packed.nbytes + (0 if build.keys is None else build.keys.nbytes),
        "keys": build.keys is not None,
        "memory_estimate_bytes": build.bytes_estimated,
        "table_from": found.found.source,
        "build_seconds": round(build.seconds, 3),
        "seconds": round(found.found.seconds, 3),
        "compiled": engine.COMPILED,
        **({"cache": str(found.found.report.path)} if found.found.report else {}),
    }


# ---------------------------------------------------------------- the family


class Sliding(MovesFamily):
    kind = KIND
    load_options = ("metric",)
    options = ("start", "memory", "metric")

    def summary(self, puzzle: SlidingPuzzle) -> str:
        return (f"sliding blocks, {len(puzzle.cells)} cells, {puzzle.pieces()} pieces, "
                f"'{puzzle.metric}' metric; {puzzle.title}")

    def at(self, puzzle: SlidingPuzzle, metric: str | None = None, **options) -> SlidingPuzzle:
        """The puzzle in another move metric (step, slide or path)."""
        self.check_options(options, (), "load")
        if metric is None or metric == puzzle.metric:
            return puzzle
        if metric not in METRICS:
            raise InputError(f"one of {', '.join(METRICS)}, not {metric!r}", field="metric")
        return replace(puzzle, metric=metric, published_metric=puzzle.published_metric
                       or puzzle.metric)

    def prepare(self, puzzle: SlidingPuzzle, backend=None, metric: str | None = None, **extra
                ) -> SlidingPuzzle:
        self.check_options(extra, (), "this call")
        return self.at(puzzle, metric=metric)

    # ---- positions and moves: the model's

    def code(self, puzzle: SlidingPuzzle, position: Position) -> int:
        return puzzle.code(position)

    def decode(self, puzzle: SlidingPuzzle, code: int) -> Position:
        return puzzle.decode(code)

    def neighbours(self, puzzle: SlidingPuzzle, position: Position) -> list:
        return puzzle.neighbours(position)

    def apply(self, puzzle: SlidingPuzzle, position: Position, move) -> Position:
        return puzzle.apply(position, move)

    def notation(self, puzzle: SlidingPuzzle, position: Position) -> str:
        return puzzle.notation(position)

    def counted(self, puzzle: SlidingPuzzle) -> str:
        return counted(puzzle)

    def default_start(self, puzzle: SlidingPuzzle) -> Position:
        if puzzle.start is None:
            raise InputError("this puzzle has no start: give one", field="start")
        return puzzle.start

    def read_start(self, puzzle: SlidingPuzzle, start) -> Position:
        """A picture (rows separated by '/'), its rows as a list of strings, or a position
        (per group, its pieces' placement indices)."""
        if isinstance(start, str):
            return puzzle.parse(start)
        if isinstance(start, (tuple, list)) and start and all(isinstance(r, str) for r in start):
            return puzzle.position_of([r.strip() for r in start], "start")
        if isinstance(start, (tuple, list)):
            return puzzle.checked(start, "start")
        raise InputError(f"expected a position picture (rows separated by '/'), not "
                         f"{start!r}", field="start")

    # ---- the table

    def table_model(self, puzzle: SlidingPuzzle, memory: int | None = None,
                    progress: bool = False) -> TableModel:
        """God's algorithm: distances to the goal of every position in the goal
        configuration's component (or the start's, for a goal that is a piece at a place, or
        from the start where no goal is given)."""
        data, most, degree = kernel_parts(puzzle)
        model = TableModel(f"sliding-{puzzle.name}-{puzzle.metric}", cache_key(puzzle),
                           f"{puzzle.name} ({puzzle.metric} metric)", kernels.moves_kernel,
                           data, [], most, degree, memory=memory, progress=progress)
        if puzzle.goal.position is not None:
            model.seeds = [puzzle.code(puzzle.goal.position)]
        elif puzzle.goal.cells:
            model.component, model.goal = puzzle.code(puzzle.start), kernels.goal_kernel
        else:
            model.seeds = [puzzle.code(puzzle.start)]
        return model

    def count_details(self, puzzle: SlidingPuzzle, model: TableModel) -> dict:
        found = self.table_backend().lookup(model)
        if found is None:  # counted elsewhere (a checkpoint, a cluster) and not cached here
            return {"metric": puzzle.metric}
        return {"metric": puzzle.metric,
                "start_moves": start_distance(MovesTable(self, puzzle, found))}

    # ---- plans

    def plan_model(self, puzzle: SlidingPuzzle, start: Position, steps: int, takes: str):
        encode = encodings.plan_cpsat if takes == "cpsat" else encodings.plan_cnf
        return encode(puzzle, start, steps)

    def replay(self, puzzle: SlidingPuzzle, start: Position, steps: int, values: list[int]
               ) -> Plan:
        """Check a solver's plan move by move against the rules (in Python)."""
        states = encodings.read_plan(puzzle, steps, values)
        position, moves, positions = start, [], []
        if puzzle.is_goal(position):
            return Plan([], [], 0.0)
        for t, after in enumerate(states, start=1):
            if after == position:
                raise PlanError(f"move {t} moves nothing before the goal is reached")
            legal = {p: m for m, p in puzzle.neighbours(position)}
            if after not in legal:
                raise PlanError(f"move {t} from {puzzle.notation(position)} to "
                                f"{puzzle.notation(after)} is not a move in the "
                                f"'{puzzle.metric}' metric")
            moves.append(legal[after])
            positions.append(after)
            position = after
            if puzzle.is_goal(position):
                return Plan(moves, positions, 0.0)
        raise PlanError(f"the plan of {steps} moves does not reach the goal")

    # ---- how a plan is shown

    def start_lines(self, puzzle: SlidingPuzzle, start: Position) -> list[str]:
        return [f"start ({puzzle.metric} metric: {METRICS[puzzle.metric]}):",
                *("  " + row for row in puzzle.rows_of(start))]

    def move_lines(self, puzzle: SlidingPuzzle, number: int, before, move, after) -> list[str]:
        return [f"move {number}: {puzzle.describe_move(move)}",
                *("  " + row for row in puzzle.rows_of(after))]

    def move_name(self, puzzle: SlidingPuzzle, before, move) -> str:
        return puzzle.describe_move(move)

    def moves_said(self, puzzle: SlidingPuzzle, moves: int) -> str:
        return f"{moves} move{'s' * (moves != 1)} ({puzzle.metric} metric)"

    def solution_data(self, puzzle: SlidingPuzzle, start, plan: Plan) -> dict:
        return {"metric": puzzle.metric}

    # ---- verify

    def verify(self, puzzle, runner_for, backends=None, sample=None, seed=None,
               time_limit=None, memory=None, within=None, metric=None, say: Say | None = None
               ) -> Verification:
        """The table against CP-SAT and SAT planning on `sample` positions within
        PLAN_DISTANCE moves of the goal (the hardest such first, then random ones), and the
        compiled move kernel against the rules in Python on those and on random positions."""
        puzzle = self.prepare(puzzle, metric=metric)
        sample = DEFAULT_SAMPLE if sample is None else sample
        seed = DEFAULT_SEED if seed is None else seed
        within = PLAN_DISTANCE if within is None else within
        for name, value in (("sample", sample), ("within", within)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InputError(f"must be 0 or more, not {value!r}", field=name)
        say = say or (lambda message: None)
        found = self.table(puzzle, memory, fresh=True)
        build = found.build
        say(f"table: {build.positions:,} positions, God's number {build.gods_number} "
            f"({puzzle.metric} metric), built in {build.seconds:.2f} s")
        planners = self.verify_planners(backends)
        cases = chosen_positions(found, sample, seed, within)
        checks = check_kernel(found, [p for _, p in cases], seed)
        say("rules: " + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in checks.items()))
        plans = self.plan_rows(puzzle, [(why, p, found.distance(p)) for why, p in cases],
                               planners, time_limit, say, memory)
        why = [k for k, v in checks.items() if not v] + plans.why()
        count = Count(puzzle.name, build.positions, counted(puzzle), "none", True,
                      build.seconds, f"{TABLE}:{KIND}",
                      details={"gods_number": build.gods_number})
        result: dict = {}
        if not why:
            result = {**report(found), "count": build.positions, "checks": checks,
                      "plans_agree_with_table": plans.agree if plans.rows and planners
                      else None,
                      "sample": {"size": len(cases), "seed": seed, "within_moves": within},
                      "solve_seconds": plans.solve_seconds(), "plans": plans.rows}
        return Verification(puzzle.name, not why, "; ".join(why), [count], result,
                            plans.table())


def chosen_positions(found: MovesTable, sample: int, seed: int, within: int = PLAN_DISTANCE
                     ) -> list[tuple[str, Position]]:
    """Positions verify plans: `sample` in all, 1 to `within` moves from the goal; the
    farthest such first (half, rounded up), then random ones drawn with `seed`."""
    import numpy as np

    puzzle, build = found.puzzle, found.build
    if not sample:
        return []
    rng = random.Random(seed)
    # walk out from the goal side: positions along random optimal walks from random positions
    pool: dict[Position, int] = {}
    codes = build.keys if build.keys is not None else np.arange(build.positions)
    for _ in range(min(400, 40 * sample)):
        position = puzzle.decode(int(codes[rng.randrange(build.positions)]))
        path = found.walk(position)
        tail = [position] + [p for _, p in path]
        for i, p in enumerate(tail):
            left = len(tail) - 1 - i
            if 0 < left <= within:  # the goal itself plans nothing
                pool[p] = left
    ordered = sorted(pool, key=lambda p: (-pool[p], puzzle.code(p)))
    far = ordered[: -(-sample // 2)]
    rest = [p for p in ordered if p not in far]
    drawn = rng.sample(rest, min(len(rest), sample - len(far)))
    return [("farthest", p) for p in far] + [("random", p) for p in drawn]


def at_zero(puzzle: SlidingPuzzle, position: Position) -> bool:
    """Whether a position is where the table's distances start: a goal, else the start."""
    if puzzle.goal.position is None and not puzzle.goal.cells:
        return position == puzzle.start
    return puzzle.is_goal(position)


def check_kernel(found: MovesTable, positions: list[Position], seed: int) -> dict[str, bool]:
    """The compiled kernel's moves equal the rules' (Python) on the positions given and on 200
    random reachable ones, each move undone by a move; the table's distances consistent (a
    neighbour at most one move farther or nearer, one nearer unless at the goal) on the
    positions given and 10 random ones."""
    import numpy as np

    puzzle, build = found.puzzle, found.build
    rng = random.Random(seed)
    codes = build.keys if build.keys is not None else np.arange(build.positions)
    drawn = [puzzle.decode(int(codes[rng.randrange(build.positions)])) for _ in range(200)]
    checks = {"kernel_moves_equal_the_rules": True, "every_move_undone": True,
              "distances_consistent": True, "hardest_at_gods_number": True}
    data = kernels.kernel_data(puzzle)
    for position in list(positions) + drawn:
        code = puzzle.code(position)
        rules = sorted({puzzle.code(p) for _, p in puzzle.neighbours(position)})
        if sorted(set(kernels.kernel_neighbours(puzzle, code, data))) != rules:
            checks["kernel_moves_equal_the_rules"] = False
        for _, after in puzzle.neighbours(position):
            if position not in {p for _, p in puzzle.neighbours(after)}:
                checks["every_move_undone"] = False
    for position in list(positions) + drawn[:10]:
        d = found.distance(position)
        near = [found.distance(p) for _, p in puzzle.neighbours(position)]
        if d is None or any(n is None or abs(n - d) > 1 for n in near) or (
                d and d - 1 not in near) or (d == 0) != at_zero(puzzle, position):
            checks["distances_consistent"] = False
    for position in found.hardest()[:5]:
        if found.distance(position) != build.gods_number:
            checks["hardest_at_gods_number"] = False
    return checks


FAMILY = Sliding()
