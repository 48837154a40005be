"""The Mind Lock family on the command line: God's-algorithm table, optimal solving, planning.

`puzzlesat mind-lock table` builds the table of all positions (breadth-first search from the
solved positions); `solve mind-lock --from POSITION` answers from it (`--backend table`, the
default) or plans with CP-SAT / a PySAT solver by iterative deepening, each plan replayed and
checked move by move against the rules; `verify mind-lock` checks the two against each other;
`puzzlesat mind-lock bench` times the issue's targets and writes results/mind-lock-bench.json.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..models import files as puzzlefile
from ..models.mind_lock import table as mindlock_table
from ..models.mind_lock.encode import PlanLayout, plan_cnf, plan_cpsat, slide_identities
from ..models.encoded import to_dimacs
from ..models.errors import InputError
from ..models.mind_lock import (
    NOTATION_HELP,
    POSITIONS,
    MindLockPuzzle,
    Position,
    apply_move,
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
from .. import output as report
from ..backends import SAT_SOLVERS_FOR_VERIFY, VERIFY_SOLVERS, backend_named

KIND = "mind-lock"
TABLE = "table"
# The planner measured fastest on a hardest position (results/mind-lock-bench.json); the
# default backend of solve is the table, which answers in well under a millisecond.
BEST_SAT = "pysat:cadical195"
VERIFY_BACKENDS = VERIFY_SOLVERS  # the planners; the table is this family's reference
DEFAULT_SAMPLE = 12
DEFAULT_SEED = 2002
COUNTED = (
    "positions: arrangements of 4 purple, 4 green and 3 yellow pieces and the gap in the 12 "
    "cells, pieces of one colour interchangeable, the gap on the front or back face"
)


def _add(parser: argparse.ArgumentParser, flag: str, **options) -> None:
    """Add a flag unless another family already added it to this shared command."""
    if flag not in parser._option_string_actions:  # noqa: SLF001 (argparse has no public test)
        parser.add_argument(flag, **options)


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command in ("solve", "export"):
        _add(parser, "--from", dest="start", metavar="POSITION",
             help=f"mind-lock: {NOTATION_HELP}")
    if command == "export":
        _add(parser, "--steps", type=int, metavar="K",
             help="mind-lock: the plan length bound k of the exported CNF")
    if command == "verify":
        _add(parser, "--sample", type=int, metavar="N",
             help=f"mind-lock: random positions to plan besides the hardest "
                  f"(default {DEFAULT_SAMPLE})")
        _add(parser, "--seed", type=int, metavar="S",
             help=f"mind-lock: seed of the random sample (default {DEFAULT_SEED})")


def summary(puzzle: MindLockPuzzle) -> str:
    return f"sliding puzzle, 12 cells, {len(puzzle.solved)} solved positions; {puzzle.title}"


# ---------------------------------------------------------------- the table


@dataclass
class TableReport:
    """A fresh build of God's algorithm and where its table is stored."""

    build: mindlock_table.Build
    table: mindlock_table.Table
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
    """Search all positions, check they are all reached, store the table in the cache."""
    build = mindlock_table.breadth_first(puzzle.solved)
    table = mindlock_table.table_of(build, puzzle.solved)
    path = mindlock_table.save(table, puzzle.solved)
    return TableReport(build, table, path, path.stat().st_size)


def table_command(args) -> int:
    puzzle = puzzlefile.load("mind-lock")
    built = build_table(puzzle)
    summary = built.as_json()
    if args.json:
        print(report.json_line(summary))
        return 0
    build = built.build
    unreached = POSITIONS - build.positions
    print(f"Mind Lock, God's algorithm: breadth-first search from the {len(puzzle.solved)} "
          f"solved positions")
    print(f"positions reached: {build.positions:,} ({COUNTED})"
          + (f"; {unreached:,} of the {POSITIONS:,} ranks NOT reached" if unreached else ""))
    print(f"hardest distance (God's number): {build.hardest_distance} moves, "
          f"{len(build.hardest())} positions at that distance")
    print("positions at each distance (the fewest moves to a solved position):")
    print("distance  positions")
    for distance, number in enumerate(build.distance_counts):
        print(f"{distance:8}  {number:9,}")
    print(f"table: {built.table_bytes:,} bytes on disk (distance mod 3, 2 bits a position, "
          f"and a checksum) at {built.path}")
    print(f"built in {build.seconds:.2f} s")
    return 0


# ---------------------------------------------------------------- planning


class PlanError(Exception):
    """A plan read from a solver that breaks the rules (a fault of the encoding, not the input)."""


@dataclass
class Plan:
    """Moves and the position after each; `complete` is False if the search stopped early."""

    moves: list[str]
    positions: list[Position]
    seconds: float
    complete: bool = True
    bounds: list[dict] = field(default_factory=list)  # per k tried: seconds and outcome


def replay(start: Position, solved: tuple[Position, ...], steps: int, values: list[int]) -> Plan:
    """Check a solver's plan move by move against the rules; the moves up to the first solved
    position."""
    chosen, states = PlanLayout(steps).read(values)
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


def plan_by_search(
    puzzle: MindLockPuzzle,
    start: Position,
    backend_name: str,
    workers: int = 2,
    time_limit: float | None = None,
) -> Plan:
    """An optimal plan by iterative deepening: the first k with a plan of at most k moves."""
    backend = backend_named(backend_name, workers)
    begin = time.perf_counter()
    bounds = []
    for steps in range(POSITIONS):  # no distance can reach the number of positions
        left = None if time_limit is None else time_limit - (time.perf_counter() - begin)
        if left is not None and left <= 0:
            return Plan([], [], time.perf_counter() - begin, False, bounds)
        if backend.encoding == "cpsat":
            model = plan_cpsat(start, puzzle.solved, steps)
        else:
            model = plan_cnf(start, puzzle.solved, steps)
        outcome = backend.solve(model, left)
        bounds.append({"k": steps, "seconds": round(outcome.seconds, 3),
                       "plan": outcome.values is not None})
        if outcome.values is None:
            if not outcome.complete:
                return Plan([], [], time.perf_counter() - begin, False, bounds)
            continue
        plan = replay(start, puzzle.solved, steps, outcome.values)
        if len(plan.moves) != steps:
            raise PlanError(
                f"a plan of {len(plan.moves)} moves was found at k = {steps} although k = "
                f"{steps - 1} had none"
            )
        plan.seconds, plan.bounds = time.perf_counter() - begin, bounds
        return plan
    raise PlanError("no plan within the number of positions")


def plan_by_table(puzzle: MindLockPuzzle, start: Position) -> Plan:
    begin = time.perf_counter()
    table, built = mindlock_table.load_or_build(puzzle.solved)
    if built:
        report.say(f"built the table and stored it in {mindlock_table.cache_path()}")
    path = table.walk(start)
    return Plan([m for m, _ in path], [p for _, p in path], time.perf_counter() - begin)


def solve_position(puzzle: MindLockPuzzle, start: Position, backend: str, args) -> Plan:
    if backend == TABLE:
        return plan_by_table(puzzle, start)
    return plan_by_search(puzzle, start, backend, args.workers, args.time_limit)


def start_position(args) -> Position:
    text = getattr(args, "start", None)
    if text is None:
        raise InputError(f"required for mind-lock: {NOTATION_HELP}", field="--from")
    return parse_position(text, "--from")


def check_encoding(args) -> None:
    encoding = getattr(args, "encoding", None)
    if encoding not in (None, "pairwise"):
        raise InputError(
            "mind-lock CNF has one 'exactly one' over three move types, always written pairwise",
            field="--encoding",
        )


def check_backend(name: str) -> None:
    """An unknown backend is an input error before any work."""
    if name != TABLE and name != "cpsat" and not name.startswith("pysat:"):
        raise InputError(
            f"unknown backend {name!r} for mind-lock; use table (the default), cpsat or "
            "pysat:NAME (e.g. pysat:cadical195)",
            field="--backend",
        )
    if name != TABLE:
        backend_named(name)


def solve(puzzle: MindLockPuzzle, args) -> int:
    start = start_position(args)
    check_encoding(args)
    backend = args.backend or TABLE
    check_backend(backend)
    try:
        plan = solve_position(puzzle, start, backend, args)
    except PlanError as error:
        print(f"mind-lock: the {backend} plan breaks the rules: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(report.json_line({
            "puzzle": puzzle.name,
            "start": notation(start),
            "start_code": hex_code(start),
            "backend": backend,
            "complete": plan.complete,
            "length": len(plan.moves) if plan.complete else None,
            "optimal": plan.complete,
            "moves": plan.moves,
            "positions": [notation(p) for p in plan.positions],
            "codes": [hex_code(p) for p in plan.positions],
            "seconds": round(plan.seconds, 4),
            **({"bounds": plan.bounds} if plan.bounds else {}),
        }))
        return 0 if plan.complete else 1
    if not plan.complete:
        print(f"mind-lock: no optimal plan found within the time limit ({backend}, "
              f"{plan.seconds:.2f} s; k up to {len(plan.bounds) - 1} tried)")
        return 1
    print(f"start: {notation(start)} ({hex_code(start)})")
    print(draw_header())
    print("\n".join(draw(start)))
    position = start
    for number, (move, after) in enumerate(zip(plan.moves, plan.positions), start=1):
        print(f"move {number}: {describe_move(position, move)} -> {notation(after)}")
        print("\n".join(draw(after)))
        position = after
    how = {TABLE: "God's-algorithm table"}.get(backend, f"{backend}, iterative deepening")
    moves = len(plan.moves)
    if not moves:
        print(f"already solved: 0 moves ({how}, {plan.seconds:.3f} s)")
    else:
        print(f"solved in {moves} move{'s' * (moves != 1)}, the fewest possible "
              f"({how}, {plan.seconds:.3f} s)")
    return 0


# ---------------------------------------------------------------- count, export


def count(puzzle: MindLockPuzzle, args) -> int:
    if args.modulo != "none":
        raise InputError("mind-lock counts positions with --modulo none only", field="--modulo")
    if args.backend not in (None, TABLE):
        raise InputError(
            "mind-lock positions are counted by the breadth-first search: use --backend table",
            field="--backend",
        )
    build = mindlock_table.breadth_first(puzzle.solved)
    if args.json:
        print(report.json_line({
            "puzzle": puzzle.name, "count": build.positions, "counted": COUNTED,
            "backend": TABLE, "seconds": round(build.seconds, 3), "complete": True,
        }))
        return 0
    print(f"{puzzle.name}: {build.positions:,} {COUNTED}, all reached by breadth-first search "
          f"from the {len(puzzle.solved)} solved positions ({build.seconds:.2f} s)")
    return 0


def export(puzzle: MindLockPuzzle, args) -> int:
    start = start_position(args)
    check_encoding(args)
    steps = getattr(args, "steps", None)
    if steps is None or steps < 0:
        raise InputError("required for mind-lock: the plan length bound k (0 or more)",
                         field="--steps")
    model = plan_cnf(start, puzzle.solved, steps)
    header = [
        f"puzzlesat export of {puzzle.name}: {model.title}, from {notation(start)} "
        f"({hex_code(start)})",
        "a model of this CNF is a plan; the first keys are the move types of each move",
    ]
    report.write_export(
        args.output,
        to_dimacs(model, header),
        f"{model.nvars} variables, {len(model.clauses)} clauses",
    )
    return 0


# ---------------------------------------------------------------- verify


def check_rules(build: mindlock_table.Build, table: mindlock_table.Table) -> dict[str, bool]:
    """Every rank a position and back; three distinct moves from every position, each undone
    by itself; the slide identities the encodings rely on; distances consistent with moves;
    the packed table's residues equal to the distances mod 3."""
    checks = {"rank_is_a_bijection": True, "three_moves_everywhere": True,
              "every_move_reversible": True, "slide_identities_hold": True,
              "distances_consistent": True, "table_residues_match": True,
              "all_positions_reached": build.positions == POSITIONS}
    identities = [(list(_letters(a)), list(_letters(b))) for a, b in slide_identities()]
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
        for one, other in identities:
            if _run(position, one) != _run(position, other):
                checks["slide_identities_hold"] = False
        distance = build.distances[number]
        near = [build.distances[rank(p)] for _, p in after]
        if any(abs(d - distance) > 1 for d in near) or (distance and distance - 1 not in near):
            checks["distances_consistent"] = False
        if table.residue(number) != (3 if distance == mindlock_table.UNREACHED else distance % 3):
            checks["table_residues_match"] = False
    return checks


def _letters(word: str) -> list[str]:
    return [{"h": "horizontal", "v": "vertical", "p": "push"}[c] for c in word]


def _run(position: Position, moves: list[str]) -> Position:
    for move in moves:
        position = apply_move(position, move)
    return position


def verify(puzzle: MindLockPuzzle, args) -> int:
    """The table against CP-SAT and PySAT planning on the hardest positions and a sample."""
    sample_size = DEFAULT_SAMPLE if getattr(args, "sample", None) is None else args.sample
    seed = DEFAULT_SEED if getattr(args, "seed", None) is None else args.seed
    if sample_size < 0:
        raise InputError("must be 0 or more", field="--sample")
    check_encoding(args)
    built = build_table(puzzle)
    build = built.build
    report.say(f"table: {build.positions:,} positions, hardest {build.hardest_distance} moves, "
               f"built in {build.seconds:.2f} s")
    cached, _ = mindlock_table.load_or_build(puzzle.solved)
    checks = check_rules(build, cached)
    checks["cached_table_is_the_build"] = cached.packed == built.table.packed
    report.say("rules: " + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in checks.items()))
    hardest = build.hardest()
    others = [r for r in range(POSITIONS) if build.distances[r] != build.hardest_distance]
    sample = sorted(random.Random(seed).sample(others, min(sample_size, len(others))))
    cases = [("hardest", r) for r in hardest] + [("sample", r) for r in sample]
    rows, seconds = [], {name: [] for name in (TABLE, *VERIFY_BACKENDS)}
    complete, agree = True, True
    for what, number in cases:
        position = unrank(number)
        row = {"position": notation(position), "code": hex_code(position), "chosen": what,
               "bfs_distance": build.distances[number]}
        for backend in (TABLE, *VERIFY_BACKENDS):
            try:
                plan = solve_position(puzzle, position, backend, args)
            except PlanError as error:
                row[backend] = {"error": str(error)}
                agree = False
                continue
            length = len(plan.moves) if plan.complete else None
            row[backend] = {"length": length, "seconds": round(plan.seconds, 4)}
            seconds[backend].append(plan.seconds)
            complete = complete and plan.complete
            if length is not None and length != row["bfs_distance"]:
                agree = False
        rows.append(row)
        report.say(f"{what:7} {row['position']} distance {row['bfs_distance']:2}: " + ", ".join(
            f"{b} {row[b].get('length')} in {row[b].get('seconds', 0):.2f} s"
            for b in (TABLE, *VERIFY_BACKENDS)))
    example = parse_position(str(puzzle.published.get("example", "0x76bd98")), "published.example")
    example_distance = build.distances[rank(example)]
    ok = complete and agree and all(checks.values())
    published = {"positions": build.positions, "example_moves": example_distance}
    result = {
        "puzzle": puzzle.name,
        "title": puzzle.title,
        "kind": KIND,
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
        "plans_agree_with_table": agree,
        "plans_complete": complete,
        "sample": {"size": len(sample), "seed": seed},
        "solve_seconds": {
            b: {"plans": len(s), "median": round(statistics.median(s), 4) if s else None,
                "max": round(max(s), 4) if s else None, "total": round(sum(s), 3)}
            for b, s in seconds.items()
        },
        "runs": [{"backend": b, "seconds": round(sum(s), 3), "complete": complete}
                 for b, s in seconds.items()],
        "plans": rows,
    }
    if not ok:
        why = [k for k, v in checks.items() if not v]
        why += [] if agree else ["a plan's length differs from the table's distance"]
        why += [] if complete else ["a plan did not finish"]
        print(f"mind-lock: verification FAILED: {'; '.join(why)}; nothing written")
        return 1
    path = report.write_verified(args.results, puzzle.name, result)
    print(f"mind-lock: {build.positions:,} {COUNTED}")
    print(f"hardest distance {build.hardest_distance} moves ({len(hardest)} positions); "
          f"the table's distance equals the optimal plan length of "
          f"{', '.join(VERIFY_BACKENDS)} on all {len(hardest)} hardest positions and "
          f"{len(sample)} random ones (seed {seed})")
    print(f"every position has exactly three moves, each undone by itself; example "
          f"{hex_code(example)}: {example_distance} moves (published: "
          f"{puzzle.published.get('example_moves', '-')})")
    print(f"wrote {path}")
    return 0


# ---------------------------------------------------------------- bench


def hardest_position(puzzle: MindLockPuzzle) -> Position:
    """The first hardest position in rank order (the bench's planning instance)."""
    return unrank(mindlock_table.breadth_first(puzzle.solved).hardest()[0])


def bench_backends(puzzle: MindLockPuzzle, args) -> list[str]:
    return [TABLE, "cpsat", BEST_SAT] if args.solve else [TABLE]


def bench_run(puzzle: MindLockPuzzle, backend: str, args, solve: bool) -> report.BenchRun:
    """solve: an optimal plan for a hardest position; count: the breadth-first search."""
    if not solve:
        if backend != TABLE:
            raise InputError("mind-lock positions are counted by the table's search only",
                             field="--backend")
        build = mindlock_table.breadth_first(puzzle.solved)
        return report.BenchRun(build.seconds, True, f"{build.positions} positions")
    check_backend(backend)
    plan = solve_position(puzzle, hardest_position(puzzle), backend, args)
    what = f"{len(plan.moves)} moves (optimal)" if plan.complete else "time limit"
    return report.BenchRun(plan.seconds, plan.complete, what)


def bench_command(args) -> int:
    """Time the issue's targets: table build, size, query, planners on a hardest position."""
    puzzle = puzzlefile.load("mind-lock")
    repeat = args.repeat
    if args.queries < 1:
        raise InputError("must be at least 1", field="--queries")
    builds = []
    for _ in range(repeat):
        begin = time.perf_counter()
        build = mindlock_table.breadth_first(puzzle.solved)
        table = mindlock_table.table_of(build, puzzle.solved)
        path = mindlock_table.save(table, puzzle.solved)
        builds.append(time.perf_counter() - begin)
    report.say(f"table build (search, pack, write): {', '.join(f'{s:.3f}' for s in builds)} s")
    size = path.stat().st_size
    loads = []
    for _ in range(max(repeat, 5)):
        begin = time.perf_counter()
        table, built = mindlock_table.load_or_build(puzzle.solved)
        loads.append(time.perf_counter() - begin)
        assert not built
    hardest = build.hardest()
    chosen = random.Random(DEFAULT_SEED).sample(range(POSITIONS), args.queries)
    queries, hardest_queries = [], []
    for numbers, times in ((chosen, queries), (hardest, hardest_queries)):
        for number in numbers:
            position = unrank(number)
            begin = time.perf_counter()
            length = len(table.walk(position))
            times.append(time.perf_counter() - begin)
            if length != build.distances[number]:
                raise PlanError(f"the table walk from {notation(position)} has {length} moves, "
                                f"the search says {build.distances[number]}")
    report.say(f"query: median {statistics.median(queries) * 1e3:.3f} ms over {len(queries)} "
               f"random positions, {statistics.median(hardest_queries) * 1e3:.3f} ms on the "
               f"hardest")
    target = unrank(hardest[0])
    planners = {}
    for backend in args.backend or []:
        check_backend(backend)
    for backend in args.backend or ("cpsat", *(f"pysat:{n}" for n in SAT_SOLVERS_FOR_VERIFY)):
        runs = [plan_by_search(puzzle, target, backend, args.workers, args.time_limit)
                for _ in range(repeat)]
        times = [plan.seconds for plan in runs]
        planners[backend] = {
            "runs": [round(s, 3) for s in times],
            "median_seconds": round(statistics.median(times), 3),
            "complete": all(plan.complete for plan in runs),
            "length": len(runs[0].moves) if runs[0].complete else None,
        }
        report.say(f"{backend}: {', '.join(f'{s:.2f}' for s in times)} s, "
                   f"{planners[backend]['length']} moves")
    sat = {b: p for b, p in planners.items() if b.startswith("pysat:") and p["complete"]}
    best_sat = min(sat, key=lambda b: sat[b]["median_seconds"]) if sat else None
    build_median = statistics.median(builds)
    query_median = statistics.median(queries)
    result = {
        "puzzle": puzzle.name,
        "what": "Mind Lock benchmark: table build, size, query; optimal planning of a hardest "
                "position by iterative deepening",
        "positions": build.positions,
        "hardest_distance": build.hardest_distance,
        "table_build_seconds": {"median": round(build_median, 4),
                                "runs": [round(s, 4) for s in builds]},
        "table_bytes": size,
        "table_load_seconds": {"median": round(statistics.median(loads), 6)},
        "query_seconds": {
            "median": round(query_median, 6), "max": round(max(queries), 6),
            "queries": len(queries), "what": "random positions (seeded), table in memory",
            "hardest_median": round(statistics.median(hardest_queries), 6),
        },
        "planning_position": {"position": notation(target), "code": hex_code(target)},
        "planners": planners,
        "best_pysat": best_sat,
        "targets": {
            "table_build_at_most_2_s": build_median <= 2.0,
            "table_at_most_25_KB": size <= 25_000,
            "query_under_1_ms": query_median < 1e-3,
            "cpsat_at_most_10_s": planners.get("cpsat", {}).get("median_seconds", 1e9) <= 10,
            "best_pysat_at_most_10_s": bool(best_sat) and sat[best_sat]["median_seconds"] <= 10,
        },
        "repeat": repeat,
        "load_average_1_5_15_min": [round(x, 2) for x in os.getloadavg()],
        "versions": report.versions(),
        "machine": report.machine(),
        "date": report.now(),
    }
    out = Path(args.results) / "mind-lock-bench.json"
    report.write_json_atomic(out, result)
    if args.json:
        print(report.json_line(result))
        return 0
    print(f"table build: median {build_median:.3f} s of {repeat} (target 2 s); "
          f"{size:,} bytes on disk (target 25 KB)")
    print(f"query by table: median {query_median * 1e3:.3f} ms over {len(queries)} random "
          f"positions (target 1 ms); hardest: {statistics.median(hardest_queries) * 1e3:.3f} ms")
    for backend, figures in planners.items():
        print(f"{backend:20} optimal plan of a hardest position ({figures['length']} moves): "
              f"median {figures['median_seconds']:.2f} s of {repeat} (target 10 s)")
    print("targets: " + ", ".join(f"{k} {'met' if v else 'NOT met'}"
                                  for k, v in result["targets"].items()))
    print(f"wrote {out}")
    return 0


def extra_commands(subparsers) -> None:
    """`puzzlesat mind-lock table` and `puzzlesat mind-lock bench`."""
    family = subparsers.add_parser(
        "mind-lock", help="Mind Lock: build God's-algorithm table, benchmark it"
    )
    commands = family.add_subparsers(dest="mind_lock_command", required=True,
                                     parser_class=type(family))
    table = commands.add_parser(
        "table", help="search all positions from the solved ones; print the distance counts"
    )
    table.add_argument("--json", action="store_true", help="print one JSON object")
    table.set_defaults(run=table_command)
    bench = commands.add_parser(
        "bench", help="time the table (build, query) and the planners; write "
                      "results/mind-lock-bench.json"
    )
    bench.add_argument("--repeat", type=int, default=3, help="runs per measure (default 3)")
    bench.add_argument("--queries", type=int, default=2000,
                       help="random positions queried (default 2000)")
    bench.add_argument("--backend", action="append",
                       help="planner to time (repeat for several); default: cpsat and "
                            + ", ".join(f"pysat:{n}" for n in SAT_SOLVERS_FOR_VERIFY))
    bench.add_argument("--workers", type=int, default=2, help="CP-SAT workers (default 2)")
    bench.add_argument("--time-limit", type=float, help="seconds per plan before giving up")
    bench.add_argument("--results", default="results", help="results folder (default results)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=bench_command)


