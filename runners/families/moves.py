"""Puzzles solved by moves (Mind Lock, the sliding-block puzzles): one base for every family of
them.

Such a puzzle has positions, moves between them that can each be undone, and positions where it
is solved (its goal). Every family of them answers the calls the same way:
- `solve`: an optimal plan from a start, read off God's-algorithm table (the 'table' backend,
  runners/backends/table.py) or found by CP-SAT or a SAT solver by iterative deepening
  (runners/planning.py), each solver's plan replayed move by move against the rules;
- `count`: the positions the breadth-first search reaches, run by the counting engine like every
  count, as one cube: a time limit stops it with a lower bound marked incomplete, a checkpoint
  records it when it ends, and the seconds are this call's;
- `export`: the CNF of "a plan of at most k moves" in DIMACS;
- `verify` (the family's own): the planners' optimal lengths against the table's distances,
  through `plan_rows`.
A family supplies the hooks of `MovesFamily`: its positions' codes and notation, its moves, the
table model of its search (its compiled kernel is in runners/kernels/), its plan encodings and
how a plan is drawn.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..backends import Backend
from ..backends.table import Found, TableBackend, TableModel, TableQuery
from ..counting import Runner
from ..executors import Work
from ..models import limits
from ..models.encoded import to_dimacs
from ..models.errors import InputError
from ..models.words import plural
from ..outcomes import Count, Solution
from ..planning import Plan, PlanError, deepen, plan_in_child
from . import VERIFY_SOLVERS, Family

Say = Callable[[str], None]
TABLE = "table"
HARDEST = "hardest"  # a start given as 'hardest': the first position at God's number


@dataclass
class MovesTable:
    """A puzzle's God's-algorithm table, in the puzzle's positions and moves."""

    family: MovesFamily
    puzzle: object
    found: Found

    @property
    def build(self):
        return self.found.build

    @property
    def table(self):
        """Each reached position's distance mod 3, by code (breadth_first.Table)."""
        return self.found.table

    def code_neighbours(self, code: int) -> list[tuple[object, int]]:
        """The moves from a position (a code) and the codes they lead to."""
        family, puzzle = self.family, self.puzzle
        return [(move, family.code(puzzle, after))
                for move, after in family.neighbours(puzzle, family.decode(puzzle, code))]

    def reached(self, position) -> bool:
        return self.table.residue(self.family.code(self.puzzle, position)) != 3

    def walk(self, position) -> list[tuple[object, object]]:
        """An optimal solution from a reached position: the moves and the position after each."""
        path = self.table.walk(self.family.code(self.puzzle, position),
                                     self.code_neighbours)
        return [(move, self.family.decode(self.puzzle, code)) for move, code in path]

    def distance(self, position) -> int | None:
        """The fewest moves to a goal position; None where the search did not reach it."""
        return len(self.walk(position)) if self.reached(position) else None

    def random_position(self, rng):
        """A position drawn uniformly from those the search reached."""
        build = self.build
        if build.keys is not None:
            return self.family.decode(self.puzzle, int(build.keys[rng.randrange(build.positions)]))
        span = build.span or build.positions
        for _ in range(10_000):  # a reached rank by rejection (most spans are mostly reached)
            code = rng.randrange(span)
            if self.table.residue(code) != 3:
                return self.family.decode(self.puzzle, code)
        import numpy as np

        residues = (build.packed[:, None] >> np.arange(0, 8, 2, dtype=np.uint8)) & 3
        reached = np.flatnonzero(residues.reshape(-1)[:span] != 3)
        return self.family.decode(self.puzzle, int(reached[rng.randrange(reached.size)]))

    def hardest(self) -> list:
        """The positions at the greatest distance (the first HARDEST_KEPT), by code."""
        return [self.family.decode(self.puzzle, code) for code in self.build.hardest]


class MovesFamily(Family):
    """A family of puzzles solved by moves: the calls, from the hooks below."""

    # encoders: 'cpsat' and 'cnf' rows, each making "reach a goal in at most `steps` moves
    # from `start`" as make(puzzle, start, steps), in each family
    takes = ("cpsat", "cnf", "table")
    moduli = ("none",)
    options = ("start", "memory")
    # solutions lists one optimal plan of many: no count of plans up to a limit
    counts_to_a_limit = "every position the moves reach (God's algorithm), not plans"
    export_formats = ("dimacs",)
    planners = VERIFY_SOLVERS  # the planners verify checks against the table

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.kind
        cls.own_backends = {TABLE: lambda: TableBackend(kind)}

    # ---------------------------------------------------------------- hooks

    def code(self, puzzle, position) -> int:
        """A position's code: its key in the table (a 64-bit integer)."""
        raise NotImplementedError

    def decode(self, puzzle, code: int):
        raise NotImplementedError

    def neighbours(self, puzzle, position) -> list[tuple[object, object]]:
        """Every move from a position and the position it leads to (the rules, in Python)."""
        raise NotImplementedError

    def apply(self, puzzle, position, move):
        """The position a move leads to."""
        raise NotImplementedError

    def table_model(self, puzzle, memory: int | None = None, progress: bool = False,
                    threads: int | None = None) -> TableModel:
        """The puzzle encoded for the 'table' backend: its search (on at most `threads` threads
        where it can use several; default every core)."""
        raise NotImplementedError

    def plan_model(self, puzzle, start, steps: int, takes: str):
        """The model "reach a goal in at most `steps` moves from `start`" for a backend taking
        'cpsat' or 'cnf', from the family's encoder table."""
        return self.encoders[takes].make(puzzle, start, steps)

    def replay(self, puzzle, start, steps: int, values: list[int]) -> Plan:
        """A solver's plan, checked move by move against the rules (PlanError if it breaks
        them)."""
        raise NotImplementedError

    def notation(self, puzzle, position) -> str:
        raise NotImplementedError

    def read_start(self, puzzle, start):
        """A start given as text or as a position; an InputError (field 'start') otherwise."""
        raise NotImplementedError

    def default_start(self, puzzle):
        """The start when none is given (an InputError where the puzzle has none)."""
        raise InputError(f"required for {self.kind}: a position, or 'hardest'", field="start")

    def counted(self, puzzle) -> str:
        """What a count of positions counts, as a sentence."""
        raise NotImplementedError

    def prepare(self, puzzle, backend: Backend | None = None, **extra):
        """The puzzle with a call's own options applied (e.g. the metric), checked; `extra`
        holds the options a family adds to `options`."""
        self.check_options(extra, (), "this call")
        return puzzle

    def start_lines(self, puzzle, start) -> list[str]:
        """A plan's first lines: the start drawn."""
        return [f"start: {self.notation(puzzle, start)}"]

    def move_lines(self, puzzle, number: int, before, move, after) -> list[str]:
        """A plan's lines for one move: what it does, the position after it."""
        return [f"move {number}: {move} -> {self.notation(puzzle, after)}"]

    def move_name(self, puzzle, before, move) -> object:
        """How a Solution lists a move."""
        return move

    def moves_said(self, puzzle, moves: int) -> str:
        """A number of moves in words, with the metric where there is one."""
        return plural(moves, "move")

    def solution_data(self, puzzle, start, plan: Plan) -> dict:
        """A Solution's data beside the common fields (e.g. the positions' codes)."""
        return {}

    # ---------------------------------------------------------------- the table

    def table_backend(self) -> TableBackend:
        from ..registry import resolve

        return resolve(TABLE, self.kind, "solve")

    def table(self, puzzle, memory: int | None = None, progress: bool = False,
              fresh: bool = False) -> MovesTable:
        """The puzzle's table: kept in memory, read from the cache, or built now (and cached)."""
        found = self.table_backend().table(self.table_model(puzzle, memory, progress), fresh)
        return MovesTable(self, puzzle, found)

    def check_reached(self, puzzle, found: MovesTable, position, given: bool) -> None:
        """An InputError where no plan can start from the position: it is not among the
        positions the search reached (another cluster of positions than the goal's)."""
        if found.reached(position):
            return
        if given:
            raise InputError(f"{self.notation(puzzle, position)} cannot reach the goal: no "
                             "move sequence joins them (it lies in another cluster of "
                             "positions)", field="start")
        raise InputError(f"the puzzle's start {self.notation(puzzle, position)} cannot reach "
                         "its goal: no move sequence joins them (they lie in different clusters "
                         "of positions)", file=getattr(puzzle, "file", "") or puzzle.name,
                         field="start")

    def start_position(self, puzzle, start, memory: int | None = None):
        """The start: given as text or a position, 'hardest' (the first position at God's
        number), or the family's default."""
        if start is None:
            return self.default_start(puzzle)
        if isinstance(start, str) and start.strip().lower() == HARDEST:
            return self.table(puzzle, memory).hardest()[0]
        return self.read_start(puzzle, start)

    # ---------------------------------------------------------------- planning

    def plan_by_search(self, puzzle, start, backend: Backend, time_limit: float | None = None
                       ) -> Plan:
        """An optimal plan by iterative deepening: the first k with a plan of at most k moves.
        The time limit covers the whole deepening; with one a SAT solver deepens in one child
        process, ended at the limit (PySAT solvers are stopped from outside)."""
        if time_limit is not None and backend.solves_in_child:
            return plan_in_child(self.plan_by_search, (puzzle, start, backend, None),
                                 time_limit, f"the {self.kind} planner")
        return deepen(lambda steps: self.plan_model(puzzle, start, steps, backend.takes),
                      lambda steps, values: self.replay(puzzle, start, steps, values),
                      backend, time_limit, limits.MAX_PLAN_STEPS)

    def plan_by_table(self, puzzle, start, backend: TableBackend, memory: int | None = None,
                      given: bool = True, time_limit: float | None = None) -> Plan:
        """An optimal plan read off the table: the backend's moves, replayed on the rules."""
        begin = time.perf_counter()
        found = self.table(puzzle, memory)
        self.check_reached(puzzle, found, start, given)
        outcome = backend.solve(TableQuery(found.found.model, self.code(puzzle, start),
                                           found.code_neighbours), time_limit)
        positions, position = [], start
        for move in outcome.values or []:
            position = self.apply(puzzle, position, move)
            positions.append(position)
        return Plan(list(outcome.values or []), positions, time.perf_counter() - begin)

    def plan(self, puzzle, start, backend: Backend, time_limit: float | None = None,
             memory: int | None = None, given: bool = True) -> Plan:
        """An optimal plan from `start`: the table's walk, or iterative deepening."""
        if self.owns(backend):  # the table
            return self.plan_by_table(puzzle, start, backend, memory, given)
        return self.plan_by_search(puzzle, start, backend, time_limit)

    # ---------------------------------------------------------------- the calls

    def solve(self, puzzle, backend, time_limit=None, start=None, memory=None, **extra
              ) -> Solution:
        """An optimal plan from `start` (the table's walk, or iterative deepening on CP-SAT or a
        SAT solver with the time limit over the whole deepening); grid is the positions from
        the start to a goal, moves the moves between them."""
        puzzle = self.prepare(puzzle, backend, **extra)
        position = self.start_position(puzzle, start, memory)
        found = self.plan(puzzle, position, backend, time_limit, memory, start is not None)
        return self.solution(puzzle, position, found, backend)

    def solutions(self, puzzle, backend, limit=None, start=None, memory=None, **extra
                  ) -> Iterator[Solution]:
        """One optimal plan (none with limit 0); other plans of the same length are not
        listed."""
        if limit == 0:
            self.prepare(puzzle, backend, **extra)
            return iter(())
        return iter([self.solve(puzzle, backend, None, start, memory, **extra)])

    def solution(self, puzzle, start, found: Plan, backend: Backend) -> Solution:
        """A plan as a Solution: its data, and its lines (the start and each move drawn)."""
        how = ("God's-algorithm table" if self.owns(backend)
               else f"{backend.name}, iterative deepening")
        names, position = [], start
        for move, after in zip(found.moves, found.positions):
            names.append(self.move_name(puzzle, position, move))
            position = after
        data = {"puzzle": puzzle.name, "start": self.notation(puzzle, start),
                **self.solution_data(puzzle, start, found), "backend": backend.name,
                "complete": found.complete,
                "length": len(found.moves) if found.complete else None,
                "optimal": found.complete, "moves": names,
                "positions": [self.notation(puzzle, p) for p in found.positions],
                "seconds": round(found.seconds, 4),
                **({"bounds": found.bounds} if found.bounds else {})}
        if not found.complete:
            tried = len(found.bounds) - 1
            note = ("no optimal plan found within the time limit"
                    + (f" (k up to {tried} tried)" if tried >= 0 else ""))
            return Solution(puzzle.name, self.kind, None, backend.name, found.seconds, False,
                            data=data, note=note)
        lines, position = self.start_lines(puzzle, start), start
        for number, (move, after) in enumerate(zip(found.moves, found.positions), start=1):
            lines += self.move_lines(puzzle, number, position, move, after)
            position = after
        said = self.moves_said(puzzle, len(found.moves))
        lines.append(f"already solved: {said} ({how}, {found.seconds:.3f} s)" if not found.moves
                     else f"solved in {said}, the fewest possible ({how}, "
                          f"{found.seconds:.3f} s)")
        return Solution(puzzle.name, self.kind, [start, *found.positions], backend.name,
                        found.seconds, True, moves=names, data=data, lines=lines,
                        note=f"optimal: {said}")

    def count(self, puzzle, backend, modulo, runner: Runner, start=None, memory=None, **extra
              ) -> Count:
        """The positions the breadth-first search reaches (only the 'table' backend counts
        them): one cube on the runner, so its time limit, checkpoint and interrupts apply;
        details give how many lie at each distance and God's number."""
        self.check_modulo(puzzle, modulo)
        puzzle = self.prepare(puzzle, backend, **extra)
        if not self.owns(backend):
            raise InputError(f"{self.kind} positions are counted by the breadth-first search: "
                             f"use backend 'table' ({backend.name} plans from one position, see "
                             "'solve')", field="backend")
        if start is not None:
            raise InputError("applies to solve, solutions and export; count counts every "
                             "position", field="start")
        begin = time.perf_counter()
        # the search draws its own bar (positions), where a person watches standard error
        shown = runner.progress is not None and sys.stderr.isatty()
        model = self.table_model(puzzle, memory, shown, threads=runner.jobs)
        work = Work("breadth-first search", backend.name, model, [()], stops_itself=True)
        bar, runner.progress = runner.progress, None
        try:
            [tally] = runner.run([work], {"puzzle": puzzle.name, "kind": self.kind,
                                          "table": model.key})
        finally:
            runner.progress = bar
        values = tally.values[0] or (0,)
        threads = plural(model.threads, "thread")
        details: dict[str, object] = {"search": f"one breadth-first search in one process, on "
                                                f"{threads} (its table cached)",
                                      "threads": model.threads}
        if tally.complete:
            counts = list(values[1:])
            details.update(gods_number=len(counts) - 1, hardest_positions=counts[-1],
                           distance_counts={str(d): n for d, n in enumerate(counts)})
            details.update(self.count_details(puzzle, model))
        return Count(puzzle.name, values[0], self.counted(puzzle), "none", tally.complete,
                     time.perf_counter() - begin, backend.name, runner.executor.name,
                     details=details)

    def count_details(self, puzzle, model: TableModel) -> dict:
        """A finished count's other figures that need the table (where it is at hand)."""
        return {}

    def export(self, puzzle, fmt, start=None, memory=None, steps=None, **extra
               ) -> tuple[str, str]:
        """The CNF of "a plan of at most `steps` moves from `start`" in DIMACS."""
        puzzle = self.prepare(puzzle, None, **extra)
        position = self.start_position(puzzle, start, memory)
        if steps is None:
            raise InputError(f"required for {self.kind}: the plan length bound k (0 to "
                             f"{limits.MAX_PLAN_STEPS})", field="steps")
        limits.check_steps(steps, field="steps")
        model = self.plan_model(puzzle, position, steps, "cnf")
        header = [f"puzzlesat export of {puzzle.name}: {model.title}, from "
                  f"{self.notation(puzzle, position)}",
                  "a model of this CNF is a plan; the first keys are what each move is"]
        return to_dimacs(model, header), (f"{plural(model.nvars, 'variable')}, "
                                          f"{plural(len(model.clauses), 'clause')}")

    # ---------------------------------------------------------------- verify's plans

    def verify_planners(self, backends: Sequence[str] | None) -> list[Backend]:
        """The planners verify checks against the table (the table itself left out)."""
        from ..registry import resolve

        planners: list[Backend] = []
        for name in backends or self.planners:
            chosen = resolve(name, self.kind, "solve")
            if not self.owns(chosen) and chosen.name not in [p.name for p in planners]:
                planners.append(chosen)
        return planners

    def plan_rows(self, puzzle, cases: list[tuple[str, object, int]], backends: list[Backend],
                  time_limit: float | None, say: Say, memory: int | None = None) -> PlanRows:
        """Each case (why chosen, position, the table's distance) planned by each backend: the
        rows, whether every plan's length is the distance, the plans not finished in time."""
        found = PlanRows([], True, {b.name: 0 for b in backends},
                         {b.name: [] for b in backends})
        for why, position, distance in cases:
            row: dict = {"position": self.notation(puzzle, position), "chosen": why,
                         "distance": distance}
            for backend in backends:
                try:
                    made = self.plan(puzzle, position, backend, time_limit, memory)
                except PlanError as error:
                    row[backend.name] = {"error": str(error)}
                    found.agree = False
                    continue
                length = len(made.moves) if made.complete else None
                row[backend.name] = {"length": length, "seconds": round(made.seconds, 4),
                                     "complete": made.complete}
                found.seconds[backend.name].append(made.seconds)
                if not made.complete:
                    found.unfinished[backend.name] += 1
                elif length != distance:
                    found.agree = False
            found.rows.append(row)
            say(f"{why:8} {row['position']} distance {distance}: " + ", ".join(
                f"{b.name} {cell(row[b.name])}" for b in backends))
        return found


@dataclass
class PlanRows:
    """verify's plans: a row a position, whether they agree with the table, and per backend the
    plans stopped by the time limit and the seconds of each plan."""

    rows: list[dict]
    agree: bool
    unfinished: dict[str, int]
    seconds: dict[str, list[float]]

    def why(self) -> list[str]:
        """What failed, in words (empty when every plan agrees and finished)."""
        found = []
        if not self.agree:
            found.append("a plan's length differs from the table's distance (the backends "
                         "DISAGREE)")
        if any(self.unfinished.values()):
            found.append("plans did not finish within the time limit: " + ", ".join(
                f"{n} on {plural(k, 'position')}" for n, k in self.unfinished.items() if k))
        return found

    def solve_seconds(self) -> dict[str, dict]:
        return {n: {"plans": len(s), "median": round(statistics.median(s), 4) if s else None,
                    "max": round(max(s), 4) if s else None, "total": round(sum(s), 3)}
                for n, s in self.seconds.items()}

    def table(self) -> str:
        """The plans side by side: per position its table distance and each planner's length."""
        names = list(self.unfinished)
        width = max(15, *(len(r["position"]) for r in self.rows)) if self.rows else 15
        lines = [f"{'position':{width}} {'chosen':8} {'distance':>8}  "
                 + "  ".join(f"{n:>22}" for n in names)]
        for row in self.rows:
            lines.append(f"{row['position']:{width}} {row['chosen']:8} {row['distance']!s:>8}  "
                         + "  ".join(f"{cell(row[n]):>22}" for n in names))
        if not self.rows:
            lines.append("(no positions planned: sample 0)")
        return "\n".join(lines)


def cell(entry: dict) -> str:
    """One planner's outcome on one position, in words."""
    if "error" in entry:
        return "plan breaks the rules"
    if not entry["complete"]:
        return f"incomplete {entry['seconds']:.2f} s"
    return f"{entry['length']} in {entry['seconds']:.2f} s"
