"""Mind Lock: optimal plans, positions counted by breadth-first search, verification, the table.

An optimal plan from a position comes from God's-algorithm table (the 'table' backend, the
default) or from CP-SAT / a PySAT solver by iterative deepening on "reach a solved position in at
most k moves", each plan replayed and checked move by move against the rules. `count` counts the
positions the breadth-first search reaches from the solved ones; `verify` checks the planners
against the table; `build_table` is the library side of `puzzlesat mind-lock table` (the
benchmark is runners/benchmarks/mind_lock.py). The search, the table's walk, its atomic write and
the iterative deepening are shared with the sliding-block puzzles (breadth_first, planning).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..backends import Backend
from ..counting import Runner
from ..lazy import lazy_module
from ..models import limits
from ..models.encoded import to_dimacs
from ..models.errors import InputError
from ..models.mind_lock import (
    MOVES,
    NOTATION_HELP,
    POSITIONS,
    MindLockPuzzle,
    Position,
    apply_move,
    checked,
    describe_move,
    draw,
    draw_header,
    hex_code,
    neighbours,
    notation,
    parse_position,
    rank,
    unrank,
)
from ..models.mind_lock import table as tables
from ..outcomes import Count, Solution, Verification
from ..planning import Plan, PlanError, deepen, plan_in_child
from . import VERIFY_SOLVERS, Family

# the table's backend needs the breadth-first engine (numba) and the encodings PySAT: both load
# when a Mind Lock puzzle is first solved, never for the command line's flags or the catalog
table_module = lazy_module("puzzlesat.backends.mind_lock_table")
encodings = lazy_module("puzzlesat.models.mind_lock.encode")

Say = Callable[[str], None]

KIND = "mind-lock"
TABLE = "table"
HARDEST = "hardest"  # --from hardest: the first hardest position in rank order
COUNTED = (
    "positions: arrangements of 4 purple, 4 green and 3 yellow pieces and the gap in the 12 "
    "cells, pieces of one colour interchangeable, the gap on the front or back face"
)
# The planners verify checks against the table (the table is this family's reference).
PLANNERS = VERIFY_SOLVERS
# verify plans --sample positions in all: the hardest first (half of them, rounded up, at most
# all 16), then random others (before, it always planned all 16 hardest besides the sample: over
# 5 minutes). The default, 4 positions (2 hardest, 2 random), stays within about a minute on this
# project's 2-core machine: a plan takes a median 3.0-4.7 s per planner (results/mind-lock.json,
# 28 plans each), so 4 x 3 plans are about 45 s, plus about 5 s for the table build and the rule
# checks; measured: 35 s of CPU time (2 minutes of wall time with the machine shared, load 9).
DEFAULT_SAMPLE = 4
DEFAULT_SEED = 2002
# The longest plan export writes. God's number is 22 (the table), so no optimal plan needs more;
# a larger k only makes a larger file: the CNF grows by about 700 clauses a step, 1,000 steps
# are about 700,000 clauses (17 MB of DIMACS, 3 s to build), 100,000 would be 1.7 GB.
MAX_STEPS = limits.MAX_PLAN_STEPS


# ---------------------------------------------------------------- planning


def replay(start: Position, solved: tuple[Position, ...], steps: int, values: list[int]) -> Plan:
    """Check a solver's plan move by move against the rules; the moves up to the first solved
    position."""
    chosen, states = encodings.PlanLayout(steps).read(values)
    goals = set(solved)
    position, moves, positions = start, [], []
    if position in goals:
        return Plan([], [], 0.0)
    for t, (types, cells) in enumerate(zip(chosen, states), start=1):
        if len(types) != 1:
            raise PlanError(f"move {t} has {len(types)} move types set, not one")
        if any(len(colours) != 1 for colours in cells):
            raise PlanError(f"after move {t} a cell holds no piece or two")
        after = apply_move(position, types[0])
        said = tuple(colours[0] for colours in cells)
        if said != after:
            raise PlanError(
                f"move {t} ({types[0]}) from {notation(position)} leads to {notation(after)}, "
                f"the solver says {notation(said)}"
            )
        position = after
        moves.append(types[0])
        positions.append(position)
        if position in goals:
            return Plan(moves, positions, 0.0)
    raise PlanError(f"the plan of {steps} moves does not reach a solved position")


def plan_by_search(puzzle: MindLockPuzzle, start: Position, backend: Backend,
                   time_limit: float | None = None) -> Plan:
    """An optimal plan by iterative deepening: the first k with a plan of at most k moves.

    The time limit covers the whole deepening (each k gets what is left); a search stopped by it
    returns a Plan with complete False and the bounds tried. With a time limit a SAT solver
    deepens in one worker process, ended at the limit (PySAT solvers are stopped from outside).
    """
    if time_limit is not None and backend.takes == "cnf":
        return _search_in_worker(puzzle, start, backend, time_limit)
    encode = encodings.plan_cpsat if backend.takes == "cpsat" else encodings.plan_cnf
    return deepen(lambda steps: encode(start, puzzle.solved, steps),
                  lambda steps, values: replay(start, puzzle.solved, steps, values),
                  backend, time_limit, MAX_STEPS)


def _search_in_worker(puzzle: MindLockPuzzle, start: Position, backend: Backend,
                      time_limit: float) -> Plan:
    """The whole deepening in one child process, ended at the time limit."""
    return plan_in_child(plan_by_search, (puzzle, start, backend, None), time_limit,
                         "Mind Lock's planner")


def plan_by_table(puzzle: MindLockPuzzle, start: Position, backend: Backend) -> Plan:
    """An optimal plan read off God's-algorithm table (the MindLockTable backend)."""
    begin = time.perf_counter()
    try:
        outcome = backend.solve(table_module.TableQuery(start, puzzle.solved))
    except ValueError as error:  # a puzzle file whose solved positions do not reach the start
        raise InputError(f"no plan from {notation(start)}: {error}", field="start") from None
    moves = [MOVES[i] for i in outcome.values or []]
    positions, position = [], start
    for move in moves:
        position = apply_move(position, move)
        positions.append(position)
    return Plan(moves, positions, time.perf_counter() - begin)


def plan(puzzle: MindLockPuzzle, start: Position, backend: Backend,
         time_limit: float | None = None) -> Plan:
    """An optimal plan from `start` with the backend: the table's walk, or iterative deepening."""
    if backend.takes == "table":
        return plan_by_table(puzzle, start, backend)
    return plan_by_search(puzzle, start, backend, time_limit)


def _how(backend: Backend) -> str:
    return "God's-algorithm table" if backend.takes == "table" else (
        f"{backend.name}, iterative deepening")


# ---------------------------------------------------------------- the table


@dataclass
class TableReport:
    """A fresh build of God's algorithm and where its table is stored."""

    build: tables.Build
    table: tables.Table
    path: Path
    table_bytes: int

    def as_json(self) -> dict:
        build = self.build
        return {
            "positions": build.positions,
            "counted": COUNTED,
            "hardest_distance": build.hardest_distance,
            "hardest_positions": len(build.hardest()),
            "hardest": [
                {"position": notation(unrank(r)), "code": hex_code(unrank(r))}
                for r in build.hardest()
            ],
            "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
            "table_bytes": self.table_bytes,
            "table_file": str(self.path),
            "seconds": round(build.seconds, 3),
        }


def build_table(puzzle: MindLockPuzzle) -> TableReport:
    """Search all positions from the solved ones and store the table in the cache."""
    build = tables.breadth_first(puzzle.solved)
    table = tables.table_of(build, puzzle.solved)
    path = tables.save(table, puzzle.solved)
    return TableReport(build, table, path, path.stat().st_size)


# ---------------------------------------------------------------- verify's rule checks


def check_rules(build: tables.Build, table: tables.Table) -> dict[str, bool]:
    """Every rank a position and back; three distinct moves from every position, each undone
    by itself; the move tables on ranks (the search's) equal to the rules; the slide identities
    the encodings rely on, on every position; distances consistent with moves; the packed
    table's residues equal to the distances mod 3."""
    checks = {"rank_is_a_bijection": True, "three_moves_everywhere": True,
              "every_move_reversible": True, "move_tables_match_the_rules": True,
              "slide_identities_hold": True, "distances_consistent": True,
              "table_residues_match": True, "all_positions_reached": build.positions == POSITIONS}
    by_move = dict(zip(MOVES, tables.move_tables()))
    for number in range(POSITIONS):
        position = unrank(number)
        if rank(position) != number:
            checks["rank_is_a_bijection"] = False
        after = neighbours(position)
        reached = {p for _, p in after}
        if len(reached) != 3 or position in reached:
            checks["three_moves_everywhere"] = False
        if any(apply_move(p, move) != position for move, p in after):
            checks["every_move_reversible"] = False
        ranks = [rank(p) for _, p in after]
        if any(by_move[move][number] != r for (move, _), r in zip(after, ranks)):
            checks["move_tables_match_the_rules"] = False
        distance = build.distances[number]
        near = [build.distances[r] for r in ranks]
        if any(abs(d - distance) > 1 for d in near) or (distance and distance - 1 not in near):
            checks["distances_consistent"] = False
        if table.residue(number) != (3 if distance == tables.UNREACHED else distance % 3):
            checks["table_residues_match"] = False
    # on ranks through the move tables, just checked against the rules: fast for every position
    for one, other in encodings.slide_identities():
        ends = []
        for word in (one, other):
            reached = list(range(POSITIONS))
            for move in _letters(word):
                step = by_move[move]
                reached = [step[r] for r in reached]
            ends.append(reached)
        if ends[0] != ends[1]:
            checks["slide_identities_hold"] = False
    return checks


def _letters(word: str) -> list[str]:
    return [{"h": "horizontal", "v": "vertical", "p": "push"}[c] for c in word]


def chosen_positions(build: tables.Build, sample: int, seed: int) -> list[tuple[str, int]]:
    """The positions verify plans: `sample` in all, the hardest first (half, rounded up, at most
    all of them), then random other ranks drawn with `seed`; as (why chosen, rank)."""
    hardest = build.hardest()[: min(len(build.hardest()), -(-sample // 2))]
    others = [r for r in range(POSITIONS) if build.distances[r] != build.hardest_distance]
    rest = min(sample - len(hardest), len(others))
    drawn = sorted(random.Random(seed).sample(others, rest))
    return [("hardest", r) for r in hardest] + [("sample", r) for r in drawn]


# ---------------------------------------------------------------- the family


class MindLock(Family):
    kind = KIND
    takes = ("cpsat", "cnf", "table")
    moduli = ("none",)
    options = ("start", "encoding")
    own_backends = {"table": lambda: table_module.MindLockTable()}
    export_formats = ("dimacs",)

    def summary(self, puzzle: MindLockPuzzle) -> str:
        return f"sliding puzzle, 12 cells, {len(puzzle.solved)} solved positions; {puzzle.title}"

    # ---- options

    def start_position(self, puzzle: MindLockPuzzle, start) -> Position:
        """The --from position: notation, hex code, 'hardest' (the first hardest position in
        rank order) or a position tuple."""
        if start is None:
            raise InputError(f"required for mind-lock: {NOTATION_HELP}, or 'hardest'",
                             field="start")
        if isinstance(start, str) and start.strip().lower() == HARDEST:
            return hardest_position(puzzle)
        if isinstance(start, str):
            return parse_position(start, "start")
        if isinstance(start, (tuple, list)):
            return checked(tuple(start), "start")
        raise InputError(f"expected a position as text, not {start!r}: {NOTATION_HELP}",
                         field="start")

    def check_encoding(self, encoding: str | None, backend: Backend | None = None) -> None:
        if encoding not in (None, "pairwise"):
            raise InputError(
                "mind-lock CNF has one 'exactly one' over three move types, always written "
                "pairwise", field="encoding",
            )
        if encoding is not None and backend is not None and backend.takes != "cnf":
            raise InputError(f"chooses how CNF encodes 'exactly one'; {backend.name} does not "
                             "take CNF", field="encoding")

    # ---- solve, solutions

    def solve(self, puzzle, backend, time_limit=None, start=None, encoding=None) -> Solution:
        """An optimal plan from `start` (the table's walk, or iterative deepening on CP-SAT or a
        SAT solver with the time limit over the whole deepening); grid is the positions from the
        start to a solved one, moves the move names between them."""
        position = self.start_position(puzzle, start)
        self.check_encoding(encoding, backend)
        found = plan(puzzle, position, backend, time_limit)
        return self._solution(puzzle, position, found, backend)

    def solutions(self, puzzle, backend, limit=None, start=None, encoding=None
                  ) -> Iterator[Solution]:
        """Mind Lock lists the optimal plan: one Solution (none with limit 0), as `solve` finds
        it; other plans of the same length are not enumerated."""
        position = self.start_position(puzzle, start)
        self.check_encoding(encoding, backend)
        if limit == 0:
            return iter(())
        return iter([self._solution(puzzle, position, plan(puzzle, position, backend), backend)])

    def _solution(self, puzzle, start: Position, found: Plan, backend: Backend) -> Solution:
        data = {
            "puzzle": puzzle.name,
            "start": notation(start),
            "start_code": hex_code(start),
            "backend": backend.name,
            "complete": found.complete,
            "length": len(found.moves) if found.complete else None,
            "optimal": found.complete,
            "moves": found.moves,
            "positions": [notation(p) for p in found.positions],
            "codes": [hex_code(p) for p in found.positions],
            "seconds": round(found.seconds, 4),
            **({"bounds": found.bounds} if found.bounds else {}),
        }
        if not found.complete:
            tried = len(found.bounds) - 1
            note = ("no optimal plan found within the time limit"
                    + (f" (k up to {tried} tried)" if tried >= 0 else ""))
            return Solution(puzzle.name, self.kind, None, backend.name, found.seconds, False,
                            data=data, note=note)
        lines = [f"start: {notation(start)} ({hex_code(start)})", draw_header(), *draw(start)]
        position = start
        for number, (move, after) in enumerate(zip(found.moves, found.positions), start=1):
            lines.append(f"move {number}: {describe_move(position, move)} -> {notation(after)}")
            lines.extend(draw(after))
            position = after
        moves = len(found.moves)
        how = _how(backend)
        if not moves:
            lines.append(f"already solved: 0 moves ({how}, {found.seconds:.3f} s)")
        else:
            lines.append(f"solved in {moves} move{'s' * (moves != 1)}, the fewest possible "
                         f"({how}, {found.seconds:.3f} s)")
        return Solution(puzzle.name, self.kind, [start, *found.positions], backend.name,
                        found.seconds, True, moves=list(found.moves), data=data, lines=lines,
                        note=f"optimal: {moves} move{'s' * (moves != 1)}")

    # ---- count

    def count(self, puzzle, backend, modulo, runner: Runner, start=None, encoding=None) -> Count:
        """The positions the breadth-first search reaches from the solved ones (every one of the
        92,400 ranks, found, not assumed); only the 'table' backend counts them."""
        self.check_modulo(puzzle, modulo)
        if backend.takes != "table":
            raise InputError(
                f"mind-lock positions are counted by the breadth-first search: use backend "
                f"'table' ({backend.name} plans from one position, see 'solve')", field="backend",
            )
        if start is not None:
            raise InputError("applies to solve, solutions and export; count counts every "
                             "position", field="start")
        self.check_encoding(encoding)
        build = tables.breadth_first(puzzle.solved)
        return Count(
            puzzle.name, build.positions, COUNTED, "none", True, build.seconds, TABLE,
            runner.executor.name,
            details={"solved_positions": len(puzzle.solved),
                     "hardest_distance": build.hardest_distance,
                     "hardest_positions": len(build.hardest()),
                     "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)}},
        )

    # ---- export

    def export(self, puzzle, fmt, start=None, encoding=None, steps=None) -> tuple[str, str]:
        """The CNF of "a plan of at most `steps` moves from `start`" in DIMACS."""
        position = self.start_position(puzzle, start)
        self.check_encoding(encoding)
        steps = check_steps(steps)
        model = encodings.plan_cnf(position, puzzle.solved, steps)
        header = [
            f"puzzlesat export of {puzzle.name}: {model.title}, from {notation(position)} "
            f"({hex_code(position)})",
            "a model of this CNF is a plan; the first keys are the move types of each move",
        ]
        return to_dimacs(model, header), f"{model.nvars} variables, {len(model.clauses)} clauses"

    # ---- verify

    def verify(self, puzzle, runner_for, backends=None, sample=None, seed=None,
               time_limit=None, encoding=None, say: Say | None = None) -> Verification:
        """The table against CP-SAT and PySAT planning on `sample` positions (default 4): the
        hardest first (half of them, rounded up), then random ones drawn with `seed`; and the
        rules checked on every position.

        time_limit (else the runner's): seconds per plan; a plan stopped by it is reported as
        incomplete, and the verification then fails (nothing is claimed for it).
        """
        from ..registry import resolve

        sample = DEFAULT_SAMPLE if sample is None else sample
        seed = DEFAULT_SEED if seed is None else seed
        if not isinstance(sample, int) or isinstance(sample, bool) or sample < 0:
            raise InputError(f"must be 0 or more, not {sample!r}", field="sample")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InputError(f"must be a whole number, not {seed!r}", field="seed")
        self.check_encoding(encoding)
        if time_limit is None:
            time_limit = runner_for().left()
        table_backend = resolve(TABLE, self.kind, "solve")
        planners = []
        for name in backends or PLANNERS:
            chosen = resolve(name, self.kind, "solve")
            if chosen.takes != "table" and chosen.name not in [p.name for p in planners]:
                planners.append(chosen)
        names = [TABLE, *(p.name for p in planners)]
        say = say or (lambda message: None)

        built = build_table(puzzle)
        build = built.build
        say(f"table: {build.positions:,} positions, hardest {build.hardest_distance} moves, "
            f"built in {build.seconds:.2f} s")
        cached, _ = tables.load_or_build(puzzle.solved)
        checks = check_rules(build, cached)
        checks["cached_table_is_the_build"] = cached.packed == built.table.packed
        say("rules: " + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in checks.items()))

        cases = chosen_positions(build, sample, seed)
        rows: list[dict] = []
        seconds: dict[str, list[float]] = {name: [] for name in names}
        unfinished: dict[str, int] = {name: 0 for name in names}
        agree = True
        for what, number in cases:
            position = unrank(number)
            row: dict = {"position": notation(position), "code": hex_code(position),
                         "chosen": what, "bfs_distance": build.distances[number]}
            for backend in (table_backend, *planners):
                name = TABLE if backend is table_backend else backend.name
                try:
                    found = plan(puzzle, position, backend, time_limit)
                except PlanError as error:
                    row[name] = {"error": str(error)}
                    agree = False
                    continue
                length = len(found.moves) if found.complete else None
                row[name] = {"length": length, "seconds": round(found.seconds, 4),
                             "complete": found.complete}
                seconds[name].append(found.seconds)
                if not found.complete:
                    unfinished[name] += 1
                elif length != row["bfs_distance"]:
                    agree = False
            rows.append(row)
            say(f"{what:7} {row['position']} distance {row['bfs_distance']:2}: "
                + ", ".join(f"{n} {_cell(row[n])}" for n in names))

        complete = not any(unfinished.values())
        example = parse_position(str(puzzle.published.get("example", "0x76bd98")),
                                 "published.example")
        example_distance = build.distances[rank(example)]
        hardest = build.hardest()
        why = [k for k, v in checks.items() if not v]
        if not agree:
            why.append("a plan's length differs from the table's distance (the backends "
                       "DISAGREE)")
        if not complete:
            why.append("plans did not finish within the time limit: " + ", ".join(
                f"{n} on {k} position{'s' * (k != 1)}" for n, k in unfinished.items() if k))
        count = Count(puzzle.name, build.positions, COUNTED, "none", True, build.seconds, TABLE,
                      details={"hardest_distance": build.hardest_distance})
        table = verify_table(rows, names)
        published = {"positions": build.positions, "example_moves": example_distance}
        result: dict[str, object] = {}
        if not why:
            result = {
                "puzzle": puzzle.name,
                "title": puzzle.title,
                "kind": self.kind,
                "count": build.positions,
                "counted": COUNTED,
                "positions": build.positions,
                "hardest_distance": build.hardest_distance,
                "hardest_positions": len(hardest),
                "hardest": [{"position": notation(unrank(r)), "code": hex_code(unrank(r))}
                            for r in hardest],
                "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
                "table_bytes": built.table_bytes,
                "build_seconds": round(build.seconds, 3),
                "example": {"position": notation(example), "code": hex_code(example),
                            "moves": example_distance},
                "example_moves": example_distance,
                "published": puzzle.published,
                "published_agrees": {k: puzzle.published[k] == v for k, v in published.items()
                                     if k in puzzle.published},
                "checks": checks,
                # None: no plan was made (--sample 0 or no planner)
                "plans_agree_with_table": agree if rows and planners else None,
                "plans_complete": complete if rows and planners else None,
                "sample": {"size": len(cases), "seed": seed,
                           "hardest": sum(1 for what, _ in cases if what == "hardest"),
                           "random": sum(1 for what, _ in cases if what == "sample")},
                "solve_seconds": {
                    n: {"plans": len(s), "median": round(statistics.median(s), 4) if s else None,
                        "max": round(max(s), 4) if s else None, "total": round(sum(s), 3)}
                    for n, s in seconds.items()
                },
                "runs": [{"backend": n, "seconds": round(sum(s), 3),
                          "complete": not unfinished[n]} for n, s in seconds.items()],
                "plans": rows,
            }
        return Verification(puzzle.name, not why, "; ".join(why), [count], result, table)


def check_steps(steps) -> int:
    """export's plan length bound k: required, then the one plan-length check (models/limits)."""
    if steps is None:
        raise InputError("required for mind-lock: the plan length bound k (0 or more)",
                         field="steps")
    limits.check_steps(steps, field="steps")
    return steps


def _cell(entry: dict) -> str:
    """One planner's outcome on one position, for the terminal."""
    if "error" in entry:
        return f"ERROR ({entry['error']})"
    if not entry["complete"]:
        return f"incomplete (time limit, {entry['seconds']:.2f} s)"
    return f"{entry['length']} in {entry['seconds']:.2f} s"


def verify_table(rows: list[dict], names: list[str]) -> str:
    """The plans side by side: per position its table distance and each planner's length."""
    width = max(15, *(len(r["position"]) for r in rows)) if rows else 15
    lines = [f"{'position':{width}} {'chosen':7} {'distance':>8}  "
             + "  ".join(f"{n:>22}" for n in names)]
    for row in rows:
        cells = []
        for name in names:
            entry = row[name]
            if "error" in entry:
                text = "plan breaks the rules"
            elif not entry["complete"]:
                text = f"incomplete {entry['seconds']:.2f} s"
            else:
                text = f"{entry['length']} in {entry['seconds']:.2f} s"
            cells.append(f"{text:>22}")
        lines.append(f"{row['position']:{width}} {row['chosen']:7} {row['bfs_distance']:>8}  "
                     + "  ".join(cells))
    if not rows:
        lines.append("(no positions planned: sample 0)")
    return "\n".join(lines)


# ---------------------------------------------------------------- bench


def hardest_position(puzzle: MindLockPuzzle) -> Position:
    """The first hardest position in rank order (the bench's planning instance)."""
    return unrank(_first_hardest(puzzle.solved))


@cache
def _first_hardest(solved: tuple[Position, ...]) -> int:
    return tables.breadth_first(solved).hardest()[0]


FAMILY = MindLock()
