"""Sliding-block puzzles: God's algorithm over every reachable position, optimal plans, verify.

`table` (the library side of `puzzlesat sliding table`) runs the breadth-first engine
(runners/breadth_first.py) with the compiled move kernel and reports the positions reachable,
how many lie at each distance from the goal, God's number over the reachable set, the hardest
positions and the start's distance, in the puzzle's metric (named in every output). `solve`
reads an optimal plan off the cached table, or finds one with CP-SAT / a SAT solver by iterative
deepening on "reach the goal in at most k moves"; `verify` checks the planners against the
table on the hardest and on random positions, and the compiled kernel against the rules in
Python.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from ..backends import Backend
from ..counting import Runner
from ..lazy import lazy_module
from ..models.encoded import to_dimacs
from ..models.errors import InputError
from ..models.sliding import KIND, METRICS, Move, Position, SlidingPuzzle
from ..outcomes import Count, Solution, Verification
from ..planning import Plan, PlanError, deepen, plan_in_child
from . import VERIFY_SOLVERS, Family

# the breadth-first engine and the move kernels (numba, numpy) and the encodings (PySAT) load
# when a sliding puzzle is first solved, never for the command line's flags or the catalog
engine = lazy_module("puzzlesat.breadth_first")
tables = lazy_module("puzzlesat.backends.sliding_table")
encodings = lazy_module("puzzlesat.models.sliding.encode")

Say = Callable[[str], None]

TABLE = "table"
HARDEST = "hardest"
PLANNERS = VERIFY_SOLVERS
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


# ---------------------------------------------------------------- the search


def run_search(puzzle: SlidingPuzzle, memory: int | None = None, progress: bool = False
               ) -> engine.Build:
    """God's algorithm: distances to the goal of every position in the start's (or the goal
    configuration's) component. Refused before it starts when its memory estimate is too big."""
    data = tables.kernel_data(puzzle)
    most, _ = tables.bound(puzzle)
    what = f"{puzzle.name} ({puzzle.metric} metric)"
    common = dict(what=what, memory=memory, progress=progress)
    if puzzle.goal.position is not None:
        return engine.search(tables.moves_kernel, data, [puzzle.code(puzzle.goal.position)], most,
                             tables.degree(puzzle), **common)
    if puzzle.goal.cells:
        return engine.search(tables.moves_kernel, data, [], most, tables.degree(puzzle),
                             component=puzzle.code(puzzle.start), goal=tables.goal_kernel,
                             **common)
    return engine.search(tables.moves_kernel, data, [puzzle.code(puzzle.start)], most,
                         tables.degree(puzzle),
                         **common)


def cache_key(puzzle: SlidingPuzzle) -> str:
    return engine.fingerprint(KIND, puzzle.rows, puzzle.columns, sorted(puzzle.cells),
                              [(g.letter, g.count, g.placements) for g in puzzle.groups],
                              puzzle.metric, puzzle.goal.position, puzzle.goal.cells,
                              puzzle.start if puzzle.goal.position is None else None)


@dataclass
class PuzzleTable:
    """A puzzle's table and how it came (built now, read from the cache, or not stored)."""

    puzzle: SlidingPuzzle
    build: engine.Build
    cache: engine.CacheReport | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.table = self.build.table()

    def distance(self, position: Position) -> int | None:
        """The fewest moves to the goal; None when the position is not in the searched set."""
        if self.table.residue(self.puzzle.code(position)) == engine.UNREACHED:
            return None
        return len(self.walk(position))

    def walk(self, position: Position) -> list[tuple[Move, Position]]:
        """An optimal solution: the moves and the position after each."""
        puzzle = self.puzzle

        def neighbours(code: int) -> list[tuple[object, int]]:
            here = puzzle.decode(code)
            return [(m, puzzle.code(p)) for m, p in puzzle.neighbours(here)]

        try:
            path = self.table.walk(puzzle.code(position), neighbours)
        except ValueError as error:
            raise InputError(f"no plan from {puzzle.notation(position)}: {error}",
                             field="start") from None
        return [(m, puzzle.decode(c)) for m, c in path]

    def hardest(self) -> list[Position]:
        return [self.puzzle.decode(c) for c in self.build.hardest]


_TABLES: dict[str, PuzzleTable] = {}


def table_of(puzzle: SlidingPuzzle, memory: int | None = None, progress: bool = False,
             fresh: bool = False) -> PuzzleTable:
    """The puzzle's table: from memory, from the cache, or built now (and cached)."""
    key = cache_key(puzzle)
    if not fresh and key in _TABLES:
        return _TABLES[key]
    if fresh:
        made = run_search(puzzle, memory, progress)
        found = PuzzleTable(puzzle, made)
    else:
        made, report = engine.load_or_build(
            f"sliding-{puzzle.name}-{puzzle.metric}", key,
            lambda: run_search(puzzle, memory, progress))
        found = PuzzleTable(puzzle, made, report, [report.message()] if report.built else [])
    _TABLES[key] = found
    return found


def start_distance(found: PuzzleTable) -> int | None:
    puzzle = found.puzzle
    if puzzle.start is None or (puzzle.goal.position is None and not puzzle.goal.cells):
        return None
    return found.distance(puzzle.start)


def report(found: PuzzleTable) -> dict:
    """The table's figures, as results files and --json hold them."""
    puzzle, build = found.puzzle, found.build
    distance = start_distance(found)
    hardest = found.hardest()
    published = {"positions": build.positions, "gods_number": build.gods_number,
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
                              if puzzle.goal.position or puzzle.goal.cells else
                              "the greatest distance from the start (no goal given)"),
        "hardest_positions": build.distance_counts[-1],
        "hardest": [puzzle.notation(p) for p in hardest[:20]],
        "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
        "start": None if puzzle.start is None else puzzle.notation(puzzle.start),
        "start_moves": distance,
        "published": puzzle.published,
        "published_agrees": {k: puzzle.published[k] == v for k, v in published.items()
                             if k in puzzle.published},
        "table_bytes": build.packed.nbytes + (0 if build.keys is None else build.keys.nbytes),
        "memory_estimate_bytes": build.bytes_estimated,
        "search_seconds": round(build.seconds, 3),
        "compiled": engine.COMPILED,
        **({"cache": str(found.cache.path)} if found.cache else {}),
    }


# ---------------------------------------------------------------- planning


def replay(puzzle: SlidingPuzzle, start: Position, steps: int, values: list[int]) -> Plan:
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


def plan_by_search(puzzle: SlidingPuzzle, start: Position, backend: Backend,
                   time_limit: float | None = None, most: int = 1000) -> Plan:
    """An optimal plan by iterative deepening (the shared planning loop): the first k with a
    plan of at most k moves, each plan replayed against the rules. With a time limit a SAT
    solver deepens in one child process, ended at the limit."""
    if time_limit is not None and backend.takes == "cnf":
        return plan_in_child(plan_by_search, (puzzle, start, backend, None, most), time_limit,
                             "the sliding-block planner")
    encode = encodings.plan_cpsat if backend.takes == "cpsat" else encodings.plan_cnf
    return deepen(lambda steps: encode(puzzle, start, steps),
                  lambda steps, values: replay(puzzle, start, steps, values),
                  backend, time_limit, most)


def plan(puzzle: SlidingPuzzle, start: Position, backend: Backend,
         time_limit: float | None = None) -> Plan:
    """An optimal plan: the table's walk, or iterative deepening with a solver."""
    if backend.takes == "table":
        begin = time.perf_counter()
        path = table_of(puzzle).walk(start)
        return Plan([m for m, _ in path], [p for _, p in path], time.perf_counter() - begin)
    return plan_by_search(puzzle, start, backend, time_limit)


# ---------------------------------------------------------------- the family


class Sliding(Family):
    kind = KIND
    takes = ("cpsat", "cnf", "table")
    moduli = ("none",)
    load_options = ("metric",)
    options = ("start", "memory")
    export_formats = ("dimacs",)
    own_backends = {"table": lambda: tables.SlidingTable()}

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
        return replace(puzzle, metric=metric, name=puzzle.name)

    def start_position(self, puzzle: SlidingPuzzle, start) -> Position:
        """The start: a picture (rows separated by '/'), 'hardest', or the puzzle's start."""
        if start is None:
            if puzzle.start is None:
                raise InputError("this puzzle has no start: give one", field="start")
            return puzzle.start
        if isinstance(start, str) and start.strip().lower() == HARDEST:
            return table_of(puzzle).hardest()[0]
        if isinstance(start, str):
            position = puzzle.parse(start)
        elif isinstance(start, (tuple, list)):
            position = tuple(tuple(sorted(g)) for g in start)
            puzzle.position_of(puzzle.rows_of(position), "start")
        else:
            raise InputError(f"expected a position picture, not {start!r}", field="start")
        if set(puzzle.occupied(position)) - set(puzzle.cells) or \
                len(puzzle.occupied(position)) != sum(g.count * len(g.shape)
                                                      for g in puzzle.groups):
            raise InputError("pieces overlap", field="start")
        return position

    def solve(self, puzzle, backend, time_limit=None, start=None, memory=None) -> Solution:
        """An optimal plan from `start` (default the puzzle's start) to the goal."""
        position = self.start_position(puzzle, start)
        if backend.takes == "table":
            table_of(puzzle, memory)
        found = plan(puzzle, position, backend, time_limit)
        return self._solution(puzzle, position, found, backend)

    def solutions(self, puzzle, backend, limit=None, start=None, memory=None
                  ) -> Iterator[Solution]:
        """One optimal plan (none with limit 0); others of the same length are not listed."""
        if limit == 0:
            return iter(())
        return iter([self.solve(puzzle, backend, None, start, memory)])

    def _solution(self, puzzle: SlidingPuzzle, start: Position, found: Plan,
                  backend: Backend) -> Solution:
        how = ("God's-algorithm table" if backend.takes == "table"
               else f"{backend.name}, iterative deepening")
        data = {"puzzle": puzzle.name, "metric": puzzle.metric, "start": puzzle.notation(start),
                "backend": backend.name, "complete": found.complete,
                "length": len(found.moves) if found.complete else None,
                "optimal": found.complete,
                "moves": [puzzle.describe_move(m) for m in found.moves],
                "positions": [puzzle.notation(p) for p in found.positions],
                "seconds": round(found.seconds, 4),
                **({"bounds": found.bounds} if found.bounds else {})}
        if not found.complete:
            return Solution(puzzle.name, self.kind, None, backend.name, found.seconds, False,
                            data=data, note="no optimal plan found within the time limit")
        lines = [f"start ({puzzle.metric} metric: {METRICS[puzzle.metric]}):",
                 *("  " + row for row in puzzle.rows_of(start))]
        for number, (move, after) in enumerate(zip(found.moves, found.positions), start=1):
            lines.append(f"move {number}: {puzzle.describe_move(move)}")
            lines.extend("  " + row for row in puzzle.rows_of(after))
        moves = len(found.moves)
        lines.append(f"solved in {moves} move{'s' * (moves != 1)} ({puzzle.metric} metric), "
                     f"the fewest possible ({how}, {found.seconds:.3f} s)")
        return Solution(puzzle.name, self.kind, [start, *found.positions], backend.name,
                        found.seconds, True, moves=[puzzle.describe_move(m) for m in found.moves],
                        data=data, lines=lines,
                        note=f"optimal: {moves} move{'s' * (moves != 1)} ({puzzle.metric})")

    def count(self, puzzle, backend, modulo, runner: Runner, start=None, memory=None) -> Count:
        """The positions the breadth-first search reaches; only the 'table' backend counts."""
        self.check_modulo(puzzle, modulo)
        if backend.takes != "table":
            raise InputError(f"sliding-block positions are counted by the breadth-first "
                             f"search: use backend 'table' ({backend.name} plans, see 'solve')",
                             field="backend")
        if start is not None:
            raise InputError("applies to solve; count counts every position", field="start")
        # a progress bar where the count shows progress and a person watches stderr
        shown = getattr(runner, "progress", None) is not None and sys.stderr.isatty()
        found = table_of(puzzle, memory, progress=shown)
        figures = report(found)
        return Count(puzzle.name, found.build.positions, counted(puzzle), "none", True,
                     found.build.seconds, TABLE, runner.executor.name,
                     details={k: figures[k] for k in ("metric", "gods_number",
                                                      "hardest_positions", "distance_counts",
                                                      "start_moves")})

    def export(self, puzzle, fmt, start=None, memory=None, steps=None) -> tuple[str, str]:
        """The CNF of "reach the goal in at most `steps` moves from `start`"."""
        position = self.start_position(puzzle, start)
        if steps is None:
            raise InputError("required for sliding-block: the plan length bound k",
                             field="steps")
        model = encodings.plan_cnf(puzzle, position, steps)
        header = [f"puzzlesat export of {puzzle.name}: {model.title}",
                  "a model of this CNF is a plan; the first keys are the placements after "
                  "each move"]
        return to_dimacs(model, header), f"{model.nvars} variables, {len(model.clauses)} clauses"

    def verify(self, puzzle, runner_for, backends=None, sample=None, seed=None,
               time_limit=None, memory=None, within=None, say: Say | None = None
               ) -> Verification:
        """The table against CP-SAT and SAT planning on `sample` positions within
        PLAN_DISTANCE moves of the goal (the hardest such first, then random ones), and the
        compiled move kernel against the rules in Python on those and on random positions."""
        from ..registry import resolve

        sample = DEFAULT_SAMPLE if sample is None else sample
        seed = DEFAULT_SEED if seed is None else seed
        within = PLAN_DISTANCE if within is None else within
        for name, value in (("sample", sample), ("within", within)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InputError(f"must be 0 or more, not {value!r}", field=name)
        say = say or (lambda message: None)
        found = table_of(puzzle, memory, fresh=True)
        build = found.build
        say(f"table: {build.positions:,} positions, God's number {build.gods_number} "
            f"({puzzle.metric} metric), built in {build.seconds:.2f} s")
        planners = []
        for name in backends or PLANNERS:
            chosen = resolve(name, self.kind, "solve")
            if chosen.takes != "table" and chosen.name not in [p.name for p in planners]:
                planners.append(chosen)
        cases = chosen_positions(found, sample, seed, within)
        checks = check_kernel(found, [p for _, p in cases], seed)
        say("rules: " + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in checks.items()))
        rows, agree, unfinished = [], True, 0
        seconds: dict[str, list[float]] = {p.name: [] for p in planners}
        for why, position in cases:
            distance = found.distance(position)
            row = {"position": puzzle.notation(position), "chosen": why, "distance": distance}
            for backend in planners:
                try:
                    made = plan_by_search(puzzle, position, backend, time_limit)
                except PlanError as error:
                    row[backend.name] = {"error": str(error)}
                    agree = False
                    continue
                length = len(made.moves) if made.complete else None
                row[backend.name] = {"length": length, "seconds": round(made.seconds, 3),
                                     "complete": made.complete}
                seconds[backend.name].append(made.seconds)
                if not made.complete:
                    unfinished += 1
                elif length != distance:
                    agree = False
            rows.append(row)
            say(f"{why:8} {row['position']} distance {distance}: " + ", ".join(
                f"{p.name} {row[p.name].get('length', 'ERROR')}" for p in planners))
        why = [k for k, v in checks.items() if not v]
        if not agree:
            why.append("a plan's length differs from the table's distance (DISAGREE)")
        if unfinished:
            why.append(f"{unfinished} plans did not finish within the time limit")
        figures = report(found)
        count = Count(puzzle.name, build.positions, counted(puzzle), "none", True,
                      build.seconds, TABLE, details={"gods_number": build.gods_number})
        result: dict = {}
        if not why:
            result = {**figures, "count": build.positions, "checks": checks,
                      "plans_agree_with_table": agree if rows and planners else None,
                      "sample": {"size": len(cases), "seed": seed,
                                 "within_moves": within},
                      "solve_seconds": {n: {"plans": len(s), "median": round(
                          statistics.median(s), 3) if s else None} for n, s in seconds.items()},
                      "plans": rows}
        names = [p.name for p in planners]
        lines = [f"{'position':30} {'chosen':8} {'table':>5}  " + "  ".join(
            f"{n:>18}" for n in names)]
        for row in rows:
            cells = []
            for n in names:
                entry = row[n]
                cells.append(f"{'ERROR' if 'error' in entry else entry['length']!s:>18}")
            lines.append(f"{row['position']:30} {row['chosen']:8} {row['distance']!s:>5}  "
                         + "  ".join(cells))
        return Verification(puzzle.name, not why, "; ".join(why), [count], result,
                            "\n".join(lines))


def chosen_positions(found: PuzzleTable, sample: int, seed: int, within: int = PLAN_DISTANCE
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


def check_kernel(found: PuzzleTable, positions: list[Position], seed: int) -> dict[str, bool]:
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
    data = tables.kernel_data(puzzle)
    for position in list(positions) + drawn:
        code = puzzle.code(position)
        rules = sorted({puzzle.code(p) for _, p in puzzle.neighbours(position)})
        if sorted(set(tables.kernel_neighbours(puzzle, code, data))) != rules:
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
