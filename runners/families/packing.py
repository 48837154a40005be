"""The packing family on the command line: solve, count, verify, export and bench."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from ..models.encoded import CARD_ENCODINGS
from ..models.packing.encode import DEFAULT_CARD_ENCODING, encode_cnf, encode_cpsat
from ..models.encoded import to_dimacs
from ..models.errors import InputError
from ..models.geometry import Cell
from ..models.packing import PackingPuzzle, exact_cover, placements
from ..models.packing.plan import count_plan
from .. import output as report
from ..backends import reference_packing
from ..backends import VERIFY_BACKENDS, Backend, backend_named

KIND = "packing"
MODULI = ("none", "symmetry")

# The backend measured fastest for packing puzzles (results/bench.csv: IQ Block 10 and the
# pentominoes, counted on this project's 2-core machine); used when --backend is not given.
FASTEST_BACKEND = "cpsat"


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "verify":
        parser.add_argument(
            "--unreduced-time-limit", type=float, default=None,
            help="packing: seconds for each count without symmetry reduction (the slow "
            "cross-check; one stopped early is a lower bound); default: --time-limit",
        )


def summary(puzzle: PackingPuzzle) -> str:
    cells = puzzle.cells
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    holes = height * width - len(cells)
    board = f"{height}x{width}" + (f" with {holes} holes" if holes else "")
    return f"{len(puzzle.pieces)} pieces on {board}; {puzzle.title}"


def meaning(puzzle: PackingPuzzle, modulo: str) -> str:
    """What a count of this puzzle counts."""
    if modulo == "none":
        return (
            "solutions: ways to cover the board, each piece used once; rotations and reflections "
            "of a solution count as different"
        )
    group = "rotations and reflections" if puzzle.flip else "rotations"
    return (
        f"classes of solutions under the board's symmetries ({group} that map the board to itself)"
    )


@dataclass
class PackingCount:
    backend: str
    modulo: str
    solutions: int
    classes: int | None
    seconds: float
    complete: bool

    @property
    def count(self) -> int | None:
        return self.solutions if self.modulo == "none" else self.classes


def check_modulo(modulo: str) -> None:
    if modulo not in MODULI:
        raise InputError(
            f"packing puzzles count with --modulo none or symmetry, not {modulo!r}",
            field="--modulo",
        )


def encode(puzzle: PackingPuzzle, options, backend: Backend, encoding: str | None):
    cover = exact_cover(puzzle, options)
    if backend.encoding == "cpsat":
        return encode_cpsat(cover)
    return encode_cnf(cover, encoding or DEFAULT_CARD_ENCODING)


def check_encoding(encoding: str | None) -> None:
    if encoding is not None and encoding not in CARD_ENCODINGS:
        raise InputError(
            f"unknown encoding {encoding!r}; one of: {', '.join(CARD_ENCODINGS)}",
            field="--encoding",
        )


def count_solutions(
    puzzle: PackingPuzzle,
    backend_name: str,
    modulo: str = "none",
    jobs: int = 1,
    time_limit: float | None = None,
    encoding: str | None = None,
    quiet: bool = False,
) -> PackingCount:
    """Count solutions (and classes, with modulo 'symmetry') on one backend."""
    check_modulo(modulo)
    check_encoding(encoding)
    start = time.perf_counter()
    if backend_name == "reference":
        with report.progress_bar(len(reference_branches(puzzle)), "reference") as update:
            found = reference_packing.count(
                puzzle, classes=modulo == "symmetry", jobs=jobs, progress=None if quiet else update
            )
        return PackingCount(
            "reference", modulo, found.total, found.classes, found.seconds, found.complete
        )
    backend = backend_named(backend_name)
    plan = count_plan(puzzle, modulo, min_cubes=backend.cubes_per_job * jobs)
    counts, complete = [], True
    for task in plan.tasks:
        model = encode(puzzle, task.options, backend, encoding)
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            counts.append([0] * len(task.cubes))
            complete = False
            continue
        with report.progress_bar(len(task.cubes), f"{backend.name}: {task.label}") as update:
            tally = backend.count(model, task.cubes, jobs, left, None if quiet else update)
        counts.append(tally.counts)
        complete = complete and tally.complete
    if complete:
        solutions, classes = plan.combine(counts)
    else:  # a lower bound on the solutions; classes need every fixed-point count
        solutions = sum(w * n for w, n in zip(plan.tasks[0].weights, counts[0]))
        classes = None
    return PackingCount(
        backend.name, modulo, solutions, classes, time.perf_counter() - start, complete
    )


def reference_branches(puzzle: PackingPuzzle) -> list:
    return reference_packing.build(puzzle).starting_at[0]


def solve_once(puzzle: PackingPuzzle, backend_name: str, args) -> tuple[dict | None, float, bool]:
    """One solution as piece index per cell, the seconds taken, and whether the search finished."""
    start = time.perf_counter()
    if backend_name == "reference":
        grid = reference_packing.solve(puzzle)
        return grid, time.perf_counter() - start, True
    check_encoding(args.encoding)
    backend = backend_named(backend_name, args.workers)
    options = placements(puzzle)
    outcome = backend.solve(encode(puzzle, options, backend, args.encoding), args.time_limit)
    if outcome.values is None:
        return None, time.perf_counter() - start, outcome.complete
    grid = {}
    for placement, used in zip(options, outcome.values):
        if used:
            for cell in placement.cells:
                grid[cell] = placement.piece
    return grid, time.perf_counter() - start, True


# ---------------------------------------------------------------- commands


def chosen_backend(args) -> str:
    if args.backend:
        return args.backend
    report.say(f"backend: {FASTEST_BACKEND} (measured fastest for packing puzzles)")
    return FASTEST_BACKEND


def solve(puzzle: PackingPuzzle, args) -> int:
    check_encoding(args.encoding)
    backend = chosen_backend(args)
    grid, seconds, complete = solve_once(puzzle, backend, args)
    if args.json:
        print(
            report.json_line(
                {
                    "puzzle": puzzle.name,
                    "backend": backend,
                    "seconds": round(seconds, 3),
                    "complete": complete,
                    "solved": grid is not None,
                    "solution": None if grid is None else draw(puzzle, grid, colour=False),
                }
            )
        )
        return 0 if grid is not None else 1
    if grid is None:
        why = "no solution exists" if complete else "no solution found within the time limit"
        print(f"{puzzle.name}: {why} ({backend}, {seconds:.2f} s)")
        return 1
    print("\n".join(draw(puzzle, grid, colour=sys.stdout.isatty())))
    print(f"{puzzle.name}: solved by {backend} in {seconds:.2f} s")
    return 0


def count(puzzle: PackingPuzzle, args) -> int:
    check_modulo(args.modulo)
    check_encoding(args.encoding)
    backend = chosen_backend(args)
    found = count_solutions(
        puzzle, backend, args.modulo, args.jobs, args.time_limit, args.encoding, quiet=args.json
    )
    if args.json:
        print(
            report.json_line(
                {
                    "puzzle": puzzle.name,
                    "count": found.count,
                    "modulo": args.modulo,
                    "backend": found.backend,
                    "seconds": round(found.seconds, 3),
                    "complete": found.complete,
                    "counted": meaning(puzzle, args.modulo),
                    "solutions": found.solutions,
                    "classes": found.classes,
                }
            )
        )
        return 0 if found.complete else 1
    print(describe(puzzle, found))
    return 0 if found.complete else 1


def describe(puzzle: PackingPuzzle, found: PackingCount) -> str:
    where = f"({found.backend}, {found.seconds:.2f} s)"
    if not found.complete:
        return (
            f"{puzzle.name}: INCOMPLETE count, stopped early: at least {found.solutions:,} "
            f"{meaning(puzzle, 'none')} {where}"
        )
    lines = [f"{puzzle.name}: {found.solutions:,} {meaning(puzzle, 'none')} {where}"]
    if found.classes is not None:
        lines.append(f"{puzzle.name}: {found.classes:,} {meaning(puzzle, 'symmetry')}")
    return "\n".join(lines)


def export(puzzle: PackingPuzzle, args) -> int:
    check_encoding(args.encoding)
    encoding = args.encoding or DEFAULT_CARD_ENCODING
    options = placements(puzzle)
    model = encode_cnf(exact_cover(puzzle, options), encoding)
    header = [
        f"puzzlesat export of {puzzle.name}: {puzzle.title}",
        "a model of this CNF is a solution; count models projected on the placement variables",
        f"variables 1..{len(options)}: one per placement; exactly one per piece and per cell "
        f"({encoding})",
    ]
    report.write_export(
        args.output,
        to_dimacs(model, header),
        f"{model.nvars} variables, {len(model.clauses)} clauses, "
        f"{len(options)} placement variables",
    )
    return 0


def verify(puzzle: PackingPuzzle, args) -> int:
    """Count on every backend, with and without symmetry reduction; all must agree."""
    runs: list[PackingCount] = []
    for backend in list(VERIFY_BACKENDS):
        for modulo in MODULI:
            limit = args.time_limit
            if modulo == "none" and args.unreduced_time_limit is not None:
                limit = args.unreduced_time_limit
            found = count_solutions(puzzle, backend, modulo, args.jobs, limit, args.encoding)
            runs.append(found)
            report.say(
                f"{backend:18} --modulo {modulo:9} solutions {found.solutions:>9,} classes "
                f"{'-' if found.classes is None else f'{found.classes:,}':>7} "
                f"{found.seconds:8.2f} s"
                + ("" if found.complete else "  INCOMPLETE")
            )
    finished = [run for run in runs if run.complete]
    solutions = {run.solutions for run in finished}
    classes = {run.classes for run in finished if run.classes is not None}
    print(verify_table(runs))
    why = verify_failure(runs, solutions, classes)
    if why:
        print(f"{puzzle.name}: verification failed: {why}; nothing written")
        return 1
    total, reduced = solutions.pop(), classes.pop()
    result = {
        "puzzle": puzzle.name,
        "title": puzzle.title,
        "kind": KIND,
        "count": total,
        "counted": meaning(puzzle, "none"),
        "classes": reduced,
        "classes_counted": meaning(puzzle, "symmetry"),
        "published": puzzle.published,
        "published_agrees": published_agrees(puzzle, total, reduced),
        "runs": [
            {
                "backend": r.backend,
                "modulo": r.modulo,
                "solutions": r.solutions,
                "classes": r.classes,
                "seconds": round(r.seconds, 3),
                "complete": r.complete,
            }
            for r in runs
        ],
        "jobs": args.jobs,
    }
    path = report.write_verified(args.results, puzzle.name, result)
    print(
        f"{puzzle.name}: all backends agree: {total:,} {meaning(puzzle, 'none')}; "
        f"{reduced:,} {meaning(puzzle, 'symmetry')}"
    )
    differs = [k for k, ok in result["published_agrees"].items() if not ok]
    if differs:
        print(
            f"{puzzle.name}: differs from the published figure for: {', '.join(differs)} "
            f"(published: {puzzle.published})"
        )
    print(f"wrote {path}")
    return 0


def verify_failure(runs: list[PackingCount], solutions: set, classes: set) -> str | None:
    """Why a verification fails, or None when every finished count agrees.

    A count stopped by --time-limit is a lower bound: it must not exceed the agreed count, and
    every backend must have finished at least one count.
    """
    if len(solutions) != 1 or len(classes) != 1:
        return "the backends DISAGREE" if solutions else "no count finished"
    total = next(iter(solutions))
    if any(run.solutions > total for run in runs if not run.complete):
        return "an unfinished count found more solutions than the others: the backends DISAGREE"
    unfinished = {r.backend for r in runs} - {r.backend for r in runs if r.complete}
    if unfinished:
        return f"no count finished on {', '.join(sorted(unfinished))}"
    if not any(run.modulo == "none" for run in runs if run.complete):
        return "no unreduced count finished to check the reduced ones"
    return None


def published_agrees(puzzle: PackingPuzzle, total: int, classes: int) -> dict[str, bool]:
    ours = {"solutions": total, "classes": classes}
    return {k: puzzle.published[k] == ours[k] for k in ours if k in puzzle.published}


def verify_table(runs: list[PackingCount]) -> str:
    lines = [f"{'backend':20} {'modulo':9} {'solutions':>10} {'classes':>8} {'seconds':>8}"]
    # a count stopped by the time limit shows its lower bound, marked incomplete
    for r in runs:
        classes = "-" if r.classes is None else f"{r.classes:,}"
        state = "" if r.complete else "  incomplete"
        lines.append(
            f"{r.backend:20} {r.modulo:9} {r.solutions:>10,} {classes:>8} {r.seconds:8.2f}{state}"
        )
    return "\n".join(lines)


def bench_backends(puzzle: PackingPuzzle, args) -> list[str]:
    return list(VERIFY_BACKENDS)


def bench_run(puzzle: PackingPuzzle, backend: str, args, solve: bool) -> report.BenchRun:
    if solve:
        grid, seconds, complete = solve_once(puzzle, backend, args)
        return report.BenchRun(seconds, complete, "solved" if grid else "no solution")
    found = count_solutions(
        puzzle, backend, args.modulo, args.jobs, args.time_limit, args.encoding, quiet=True
    )
    what = f"{found.solutions} solutions" + (
        f", {found.classes} classes" if found.classes is not None else ""
    )
    return report.BenchRun(found.seconds, found.complete, what)


# ---------------------------------------------------------------- drawing

PALETTE = [196, 46, 21, 226, 201, 51, 208, 93, 118, 27, 214, 160, 34, 99, 220, 130]


def letters(puzzle: PackingPuzzle) -> list[str]:
    """One character per piece: its name where names are single characters, else A, B, C..."""
    names = [p.name for p in puzzle.pieces]
    if all(len(n) == 1 for n in names) and len(set(names)) == len(names):
        return names
    return [chr(ord("A") + i) if i < 26 else chr(ord("a") + i - 26) for i in range(len(names))]


def draw(puzzle: PackingPuzzle, grid: dict[Cell, int], colour: bool) -> list[str]:
    """The solution as rows of letters (coloured blocks on a colour terminal), with a legend."""
    marks = letters(puzzle)
    height = max(r for r, _ in grid) + 1
    width = max(c for _, c in grid) + 1
    rows = []
    for r in range(height):
        row = ""
        for c in range(width):
            piece = grid.get((r, c))
            if piece is None:
                row += "  "
            elif colour:
                row += f"\x1b[48;5;{PALETTE[piece % len(PALETTE)]}m\x1b[30m{marks[piece]} \x1b[0m"
            else:
                row += marks[piece] + " "
        rows.append(row.rstrip())
    if marks != [p.name for p in puzzle.pieces]:
        rows.append("  ".join(f"{m}={p.name}" for m, p in zip(marks, puzzle.pieces)))
    return rows
