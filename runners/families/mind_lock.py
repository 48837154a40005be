"""Mind Lock: optimal plans, positions counted by breadth-first search, verification, the table.

The calls (solve, count, export) are the moves base's (runners/families/moves.py): an optimal
plan read off God's-algorithm table (the 'table' backend, the default) or found by CP-SAT / a
PySAT solver by iterative deepening on "reach a solved position in at most k moves", each plan
replayed and checked move by move against the rules; `count` counts the positions the
breadth-first search reaches from the solved ones. This module gives Mind Lock's hooks (its
positions are their ranks, 0 to 92,399, so the table keeps no codes), `report` (the library side
of `puzzlesat mind-lock table`) and `verify`, which checks the planners against the table and the
rules on every position (the benchmark is runners/benchmarks/mind_lock.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..backends.table import TableModel
from ..lazy import lazy_module
from ..models.errors import InputError
from ..models.mind_lock import (
    MOVES,
    NOTATION_HELP,
    POSITIONS,
    MindLockPuzzle,
    Position,
    apply_move,
    checked,
    code,
    describe_move,
    draw,
    draw_header,
    hex_code,
    move_tables,
    neighbours,
    notation,
    parse_position,
    rank,
    unrank,
)
from ..models.words import plural
from ..outcomes import Count, Verification
from ..planning import Plan, PlanError
from . import Encoder
from .moves import HARDEST, TABLE, MovesFamily, MovesTable  # noqa: F401 (the CLI's words)

# the breadth-first engine and the kernel (numpy, C) and the encodings (PySAT) load when a Mind
# Lock puzzle is first solved, never for the command line's flags or the catalog
engine = lazy_module("puzzlesat.breadth_first")
kernels = lazy_module("puzzlesat.kernels.mind_lock")
encodings = lazy_module("puzzlesat.models.mind_lock.encode")

Say = Callable[[str], None]

KIND = "mind-lock"
COUNTED = (
    "positions: arrangements of 4 purple, 4 green and 3 yellow pieces and the gap in the 12 "
    "cells, pieces of one colour interchangeable, the gap on the front or back face"
)
# verify plans --sample positions in all: the hardest first (half of them, rounded up, at most
# all 16), then random others (before, it always planned all 16 hardest besides the sample: over
# 5 minutes). The default, 4 positions (2 hardest, 2 random), stays within about a minute on this
# project's 2-core machine: a plan takes a median 3.0-4.7 s per planner (results/mind-lock.json,
# 28 plans each), so 4 x 3 plans are about 45 s, plus about 5 s for the table build and the rule
# checks; measured: 35 s of CPU time (2 minutes of wall time with the machine shared, load 9).
DEFAULT_SAMPLE = 4
DEFAULT_SEED = 2002


def cache_key(puzzle: MindLockPuzzle) -> str:
    """What the table depends on: the moves and the solved positions."""
    return engine.fingerprint(KIND, MOVES, sorted(code(p) for p in puzzle.solved))


def report(found: MovesTable) -> dict:
    """The table's figures, as `mind-lock table --json` prints them."""
    build, hardest = found.build, found.hardest()
    return {
        "puzzle": found.puzzle.name,
        "positions": build.positions,
        "counted": COUNTED,
        "unreached": POSITIONS - build.positions,
        "solved_positions": len(found.puzzle.solved),
        "gods_number": build.gods_number,
        # the key's name before issue 28, kept for one release (runners/cli/json-contract.toml)
        "hardest_distance": build.gods_number,
        "hardest_positions": len(hardest),
        "hardest": [{"position": notation(p), "code": hex_code(p)} for p in hardest],
        "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
        "table_bytes": build.packed.nbytes,
        "table_from": found.found.source,
        **({"table_file": str(found.found.report.path)} if found.found.report else {}),
        "build_seconds": round(build.seconds, 3),
        "seconds": round(found.found.seconds, 3),
    }


# ---------------------------------------------------------------- verify's rule checks

UNREACHED = 255  # a rank's distance where the search never reached it


def distances(found: MovesTable) -> list[int]:
    """Every rank's distance (UNREACHED where not reached), from a build that kept them."""
    build = found.build
    by_rank = [UNREACHED] * POSITIONS
    ranks = range(build.positions) if build.keys is None else build.keys.tolist()
    for number, distance in zip(ranks, build.distances.tolist()):
        by_rank[number] = distance
    return by_rank



def check_rules(found: MovesTable) -> dict[str, bool]:
    """Every rank a position and back; three distinct moves from every position, each undone
    by itself; the move tables on ranks (the search's) equal to the rules; the slide identities
    the encodings rely on, on every position; distances consistent with moves; the packed
    table's residues equal to the distances mod 3 (a build that kept every distance)."""
    build, table = found.build, found.found.table
    checks = {"rank_is_a_bijection": True, "three_moves_everywhere": True,
              "every_move_reversible": True, "move_tables_match_the_rules": True,
              "slide_identities_hold": True, "distances_consistent": True,
              "table_residues_match": True, "all_positions_reached": build.positions == POSITIONS}
    by_move = dict(zip(MOVES, move_tables()))
    by_rank = distances(found)
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
        distance = by_rank[number]
        near = [by_rank[r] for r in ranks]
        if any(abs(d - distance) > 1 for d in near) or (distance and distance - 1 not in near):
            checks["distances_consistent"] = False
        if table.residue(number) != (3 if distance == UNREACHED else distance % 3):
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


def chosen_positions(found: MovesTable, sample: int, seed: int) -> list[tuple[str, int]]:
    """The positions verify plans: `sample` in all, the hardest first (half, rounded up, at most
    all of them), then random other ranks drawn with `seed`; as (why chosen, rank)."""
    build, by_rank = found.build, distances(found)
    hardest = build.hardest[: min(len(build.hardest), -(-sample // 2))]
    others = [r for r in range(POSITIONS) if by_rank[r] not in (build.gods_number, UNREACHED)]
    rest = min(sample - len(hardest), len(others))
    drawn = sorted(random.Random(seed).sample(others, rest))
    return [("hardest", r) for r in hardest] + [("sample", r) for r in drawn]


# ---------------------------------------------------------------- the family


class MindLock(MovesFamily):
    kind = KIND
    options = ("start", "memory", "encoding")
    # the plan "reach a solved position in at most `steps` moves", by the kind of backend
    encoders = {
        "cpsat": Encoder(lambda puzzle, start, steps: encodings.plan_cpsat(
            start, puzzle.solved, steps)),
        "cnf": Encoder(lambda puzzle, start, steps, encoding=None: encodings.plan_cnf(
            start, puzzle.solved, steps), options=("encoding",)),
    }

    def summary(self, puzzle: MindLockPuzzle) -> str:
        return f"sliding puzzle, 12 cells, {len(puzzle.solved)} solved positions; {puzzle.title}"

    def prepare(self, puzzle: MindLockPuzzle, backend=None, encoding: str | None = None,
                **extra) -> MindLockPuzzle:
        self.check_options(extra, (), "this call")
        if encoding not in (None, "pairwise"):
            raise InputError("mind-lock CNF has one 'exactly one' over three move types, always "
                             "written pairwise", field="encoding")
        self.model_options(backend, {"encoding": encoding})
        return puzzle

    # ---- positions and moves: the model's (a position's code is its rank)

    def code(self, puzzle: MindLockPuzzle, position: Position) -> int:
        return rank(position)

    def decode(self, puzzle: MindLockPuzzle, number: int) -> Position:
        return unrank(number)

    def neighbours(self, puzzle: MindLockPuzzle, position: Position) -> list:
        return neighbours(position)

    def apply(self, puzzle: MindLockPuzzle, position: Position, move: str) -> Position:
        return apply_move(position, move)

    def notation(self, puzzle: MindLockPuzzle, position: Position) -> str:
        return notation(position)

    def counted(self, puzzle: MindLockPuzzle) -> str:
        return COUNTED

    def default_start(self, puzzle: MindLockPuzzle) -> Position:
        raise InputError(f"required for mind-lock: {NOTATION_HELP}, or 'hardest'",
                         field="start")

    def read_start(self, puzzle: MindLockPuzzle, start) -> Position:
        """Notation, the author's hex code, or a position tuple."""
        if isinstance(start, str):
            return parse_position(start, "start")
        if isinstance(start, (tuple, list)):
            return checked(tuple(start), "start")
        raise InputError(f"expected a position as text, not {start!r}: {NOTATION_HELP}",
                         field="start")

    # ---- the table

    def table_model(self, puzzle: MindLockPuzzle, memory: int | None = None,
                    progress: bool = False, threads: int | None = None,
                    keep_distances: bool = False) -> TableModel:
        """Every rank's distance from the nearest solved position (all 92,400 ranks, found by
        the search, not assumed; a second's search on one thread)."""
        return TableModel(KIND, cache_key(puzzle), "Mind Lock", kernels.KERNEL,
                          kernels.kernel_data(), sorted({rank(p) for p in puzzle.solved}),
                          POSITIONS, dense=True, keep_distances=keep_distances,
                          memory=memory, progress=progress)

    def count_details(self, puzzle: MindLockPuzzle, model: TableModel) -> dict:
        return {"solved_positions": len(puzzle.solved)}

    # ---- plans

    def replay(self, puzzle: MindLockPuzzle, start: Position, steps: int, values: list[int]
               ) -> Plan:
        """Check a solver's plan move by move against the rules; the moves up to the first
        solved position."""
        chosen, states = encodings.PlanLayout(steps).read(values)
        goals = set(puzzle.solved)
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
                raise PlanError(f"move {t} ({types[0]}) from {notation(position)} leads to "
                                f"{notation(after)}, the solver says {notation(said)}")
            position = after
            moves.append(types[0])
            positions.append(position)
            if position in goals:
                return Plan(moves, positions, 0.0)
        raise PlanError(f"the plan of {plural(steps, 'move')} does not reach a solved position")

    # ---- how a plan is shown

    def start_lines(self, puzzle: MindLockPuzzle, start: Position) -> list[str]:
        return [f"start: {notation(start)} ({hex_code(start)})", draw_header(), *draw(start)]

    def move_lines(self, puzzle: MindLockPuzzle, number: int, before, move, after
                   ) -> list[str]:
        return [f"move {number}: {describe_move(before, move)} -> {notation(after)}",
                *draw(after)]

    def solution_data(self, puzzle: MindLockPuzzle, start: Position, plan: Plan) -> dict:
        return {"start_code": hex_code(start), "codes": [hex_code(p) for p in plan.positions]}

    # ---- verify

    def verify(self, puzzle, runner_for, backends=None, sample=None, seed=None,
               time_limit=None, memory=None, encoding=None, say: Say | None = None
               ) -> Verification:
        """The table against CP-SAT and PySAT planning on `sample` positions (default 4): the
        hardest first (half of them, rounded up), then random ones drawn with `seed`; and the
        rules checked on every position.

        time_limit (else the runner's): seconds per plan; a plan stopped by it is reported as
        incomplete, and the verification then fails (nothing is claimed for it).
        """
        sample = DEFAULT_SAMPLE if sample is None else sample
        seed = DEFAULT_SEED if seed is None else seed
        if not isinstance(sample, int) or isinstance(sample, bool) or sample < 0:
            raise InputError(f"must be 0 or more, not {sample!r}", field="sample")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InputError(f"must be a whole number, not {seed!r}", field="seed")
        self.prepare(puzzle, encoding=encoding)
        if time_limit is None:
            time_limit = runner_for().left()
        table = self.table_backend()
        planners = self.verify_planners(backends)
        say = say or (lambda message: None)

        model = self.table_model(puzzle, memory, keep_distances=True)
        found = MovesTable(self, puzzle, table.table(model, fresh=True))
        build = found.build
        say(f"table: {plural(build.positions, 'position')}, hardest "
            f"{plural(build.gods_number, 'move')}, built in {build.seconds:.2f} s")
        checks = check_rules(found)
        cached = engine.read_cached(model.name, model.key)
        checks["cached_table_is_the_build"] = cached is not None and bytes(cached.packed) == \
            bytes(build.packed)
        say("rules: " + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in checks.items()))

        by_rank = distances(found)
        cases = [(why, unrank(r), by_rank[r]) for why, r in chosen_positions(found, sample, seed)]
        plans = self.plan_rows(puzzle, cases, [table, *planners], time_limit, say, memory)
        example = parse_position(str(puzzle.published.get("example", "0x76bd98")),
                                 "published.example")
        example_distance = by_rank[rank(example)]
        hardest = found.hardest()
        why = [k for k, v in checks.items() if not v] + plans.why()
        count = Count(puzzle.name, build.positions, COUNTED, "none", True, build.seconds,
                      table.name, details={"gods_number": build.gods_number})
        ours = {"positions": build.positions, "example_moves": example_distance}
        result: dict[str, object] = {}
        if not why:
            result = {
                "puzzle": puzzle.name,
                "title": puzzle.title,
                "kind": self.kind,
                "count": build.positions,
                "counted": COUNTED,
                "positions": build.positions,
                "hardest_distance": build.gods_number,
                "hardest_positions": len(hardest),
                "hardest": [{"position": notation(p), "code": hex_code(p)} for p in hardest],
                "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
                "table_bytes": build.packed.nbytes,
                "build_seconds": round(build.seconds, 3),
                "example": {"position": notation(example), "code": hex_code(example),
                            "moves": example_distance},
                "example_moves": example_distance,
                "published": puzzle.published,
                "published_agrees": {k: puzzle.published[k] == v for k, v in ours.items()
                                     if k in puzzle.published},
                "checks": checks,
                # None: no plan was made (--sample 0 or no planner)
                "plans_agree_with_table": plans.agree if plans.rows and planners else None,
                "plans_complete": not any(plans.unfinished.values())
                if plans.rows and planners else None,
                "sample": {"size": len(cases), "seed": seed,
                           "hardest": sum(1 for what, _, _ in cases if what == "hardest"),
                           "random": sum(1 for what, _, _ in cases if what == "sample")},
                "solve_seconds": plans.solve_seconds(),
                "runs": [{"backend": n, "seconds": round(sum(s), 3),
                          "complete": not plans.unfinished[n]}
                         for n, s in plans.seconds.items()],
                "plans": plans.rows,
            }
        return Verification(puzzle.name, not why, "; ".join(why), [count], result,
                            plans.table())


FAMILY = MindLock()
