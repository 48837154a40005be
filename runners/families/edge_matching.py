"""The edge-matching family on the command line: solve, count, verify, export and bench."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field

from ..models.edge_matching.reader import TOML_FORMAT, edge_word, published_looks
from ..models.edge_matching import (
    EdgePuzzle,
    Placed,
    at_level,
    board_turns,
    check_grid,
    grid_from_looks,
    label_factor,
    looks,
    rotated,
    tile_types,
    turned_looks,
)
from ..models.edge_matching.encode import (
    CPSAT_VARIANTS,
    DEFAULT_CARD_ENCODING,
    DEFAULT_CPSAT_VARIANT,
    encode_cnf,
    encode_cpsat,
    grid_of,
    placements,
    split_cubes,
)
from ..models.encoded import CARD_ENCODINGS
from ..models.encoded import to_dimacs
from ..models.errors import InputError
from .. import output as report
from ..backends import reference_edge
from ..cli import edge_bench
from ..backends import VERIFY_BACKENDS, VERIFY_SOLVERS, backend_named

KIND = "edge-matching"
MODULI = ("none", "rotation")

# Measured on this project's 2-core machine: CP-SAT counts the diamond blocks fastest (Level 1,
# 17,920 grids: 4.0 s against 5.7 s for CaDiCaL and 8.4 s for Glucose, in `verify`); PySAT
# solves the Eternity II clue puzzles fastest (results/bench.csv: Glucose 0.05-0.28 s, CaDiCaL
# 0.03-0.32 s, CP-SAT 0.2-1.8 s). Glucose is the solve default because it honours a time limit,
# which CaDiCaL in PySAT cannot.
FASTEST_COUNT_BACKEND = "cpsat"
FASTEST_SOLVE_BACKEND = "pysat:glucose4"
# Boards up to this many cells (and counts of grids a turn leaves unchanged) are counted in one
# process: a 3x3 deck counts in 0.2 s, starting two worker processes takes about 5 s here.
SMALL_BOARD = 12


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command in ("solve", "count", "verify", "export", "bench"):
        parser.add_argument(
            "--level", type=int, choices=(1, 2), default=None,
            help="edge-matching puzzles with levels (diamond blocks): 1 (default) matching "
            "edges; 2 also no two diamond tiles side by side",
        )
    if command in ("solve", "count", "bench"):
        parser.add_argument(
            "--cpsat-model", choices=CPSAT_VARIANTS, default=None,
            help=f"edge-matching CP-SAT model (default {DEFAULT_CPSAT_VARIANT}, measured faster)",
        )
    if command == "count":
        parser.add_argument(
            "--label-tiles", action="store_true",
            help="edge-matching: count arrangements of physically distinct tiles (identical "
            "tiles told apart) instead of distinct grids",
        )


def extra_commands(subparsers) -> None:
    """`puzzlesat generate` and `puzzlesat edge-bench` (runners/edge_bench.py)."""
    edge_bench.extra_commands(subparsers)


def summary(puzzle: EdgePuzzle) -> str:
    types = len(tile_types(puzzle))
    levels = f", levels 1-{len(puzzle.levels)}" if puzzle.levels else ""
    return (
        f"{len(puzzle.tiles)} tiles ({types} kinds) on {puzzle.rows}x{puzzle.cols}, "
        f"rule {puzzle.rule}{levels}; {puzzle.title}"
    )


def leveled(puzzle: EdgePuzzle, args) -> EdgePuzzle:
    """The puzzle at the level asked for (--level; Level 1 by default)."""
    level = getattr(args, "level", None)
    if level is None:
        return at_level(puzzle, 1) if puzzle.levels else puzzle
    if not puzzle.levels:
        if level == 1:
            return puzzle
        raise InputError(f"{puzzle.name} has no levels", field="--level")
    return at_level(puzzle, level)


def display_name(puzzle: EdgePuzzle) -> str:
    return f"{puzzle.name}-level{puzzle.level}" if puzzle.levels else puzzle.name


def rules_text(puzzle: EdgePuzzle) -> str:
    parts = ["touching edges " + ("equal" if puzzle.rule == "equal" else "complement")]
    if puzzle.frame is not None:
        parts.append(f"frame edge {puzzle.frame[0]!r} on the border only")
    if puzzle.apart:
        parts.append(f"no two {puzzle.apart} tiles side by side")
    if puzzle.fixed:
        parts.append(f"{len(puzzle.fixed)} fixed tiles")
    level = f"Level {puzzle.level}: " if puzzle.levels else ""
    return level + ", ".join(parts)


def group_text(puzzle: EdgePuzzle) -> str:
    return "quarter turns" if len(board_turns(puzzle)) == 4 else "a half turn"


def meaning(puzzle: EdgePuzzle, modulo: str, label_tiles: bool) -> str:
    """What a count of this puzzle counts."""
    if label_tiles:
        what = (
            "arrangements of physically distinct tiles (distinct grids x "
            f"{label_factor(puzzle):,}, the product of m! over the tile kinds, m tiles of a kind; "
            "equal-looking turns of one tile are not told apart)"
        )
    else:
        what = (
            "distinct grids (which tile kind, turned which way, on each cell); identical tiles "
            "are interchangeable"
        )
    if modulo == "rotation":
        what += f", counted once up to turning the whole board ({group_text(puzzle)})"
    return what


def check_modulo(puzzle: EdgePuzzle, modulo: str) -> None:
    if modulo not in MODULI:
        raise InputError(
            f"edge-matching puzzles count with --modulo none or rotation, not {modulo!r}",
            field="--modulo",
        )
    if modulo == "rotation" and puzzle.fixed:
        raise InputError(
            "--modulo rotation needs rules that stay the same when the board is turned; "
            f"{puzzle.name} has fixed tiles",
            field="--modulo",
        )


def check_encoding(encoding: str | None) -> None:
    if encoding is not None and encoding not in CARD_ENCODINGS:
        raise InputError(
            f"unknown encoding {encoding!r}; one of: {', '.join(CARD_ENCODINGS)}",
            field="--encoding",
        )


# ---------------------------------------------------------------- counting


@dataclass
class EdgeCount:
    """Distinct grids, the grids each turn of the board leaves unchanged, and the classes."""

    backend: str
    grids: int
    seconds: float
    complete: bool
    fixed: dict[int, int] = field(default_factory=dict)  # quarter turns -> grids it fixes
    classes: int | None = None  # grids up to turning the board (modulo rotation)

    def count(self, modulo: str, factor: int, cells: int) -> int | None:
        """The count asked for; with labelled tiles, `factor` times the grids (and, up to
        turns, divided by the turns: no turn fixes an arrangement of labelled tiles when the
        board has more than one cell)."""
        if modulo == "none":
            return self.grids * factor
        if self.classes is None:
            return None
        if factor == 1:
            return self.classes
        turns = len(self.fixed) or 1
        return self.grids * factor // turns if cells > 1 else self.classes * factor


def count_grids(
    puzzle: EdgePuzzle,
    backend_name: str,
    turns: int = 0,
    parity: int | None = None,
    jobs: int = 1,
    time_limit: float | None = None,
    encoding: str | None = None,
    variant: str | None = None,
    quiet: bool = True,
) -> tuple[int, float, bool]:
    """Distinct grids on one solver backend (with the grid unchanged by `turns`, marks on a
    parity, when asked): (count, seconds, complete)."""
    check_encoding(encoding)
    backend = backend_named(backend_name)
    start = time.perf_counter()
    if backend.encoding == "cpsat":
        model = encode_cpsat(puzzle, turns, parity, variant or DEFAULT_CPSAT_VARIANT)
    else:
        model = encode_cnf(puzzle, encoding or DEFAULT_CARD_ENCODING, turns, parity)
    if turns or len(puzzle.tiles) <= SMALL_BOARD:  # no split: starting workers costs more
        cubes, jobs = [()], 1
    else:
        cubes = split_cubes(placements(puzzle, parity), puzzle, backend.cubes_per_job * jobs)
    left = None if time_limit is None else time_limit - (time.perf_counter() - start)
    what = f"{backend.name}" + (f", turned {turns * 90}" if turns else "")
    with report.progress_bar(len(cubes), what) as update:
        tally = backend.count(model, cubes, jobs, left, None if quiet else update)
    return tally.total, time.perf_counter() - start, tally.complete


def count_edge(
    puzzle: EdgePuzzle,
    backend_name: str,
    modulo: str = "none",
    jobs: int = 1,
    time_limit: float | None = None,
    encoding: str | None = None,
    variant: str | None = None,
    quiet: bool = True,
) -> EdgeCount:
    """Distinct grids on one backend; with modulo 'rotation' also the classes up to turning
    the board: by Burnside's lemma on the solvers (the mean number of grids each turn leaves
    unchanged), by sorting every grid into its orbit on the reference."""
    check_modulo(puzzle, modulo)
    start = time.perf_counter()
    if backend_name == "reference":
        return reference_count(puzzle, modulo, jobs, time_limit, quiet)
    grids, _, complete = count_grids(
        puzzle, backend_name, 0, None, jobs, time_limit, encoding, variant, quiet
    )
    found = EdgeCount(backend_name, grids, 0.0, complete)
    if modulo == "rotation" and complete:
        found.fixed[0] = grids
        for turns in board_turns(puzzle)[1:]:
            if turns == 3:  # a grid unchanged by a quarter turn one way is so the other way
                found.fixed[3] = found.fixed[1]
                continue
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            n, _, done = count_grids(puzzle, backend_name, turns, None, 1, left, encoding, variant)
            found.fixed[turns] = n
            found.complete = found.complete and done
        if found.complete:
            total = sum(found.fixed.values())
            if total % len(found.fixed):
                raise AssertionError(f"Burnside sum {total} is not a multiple of the turns")
            found.classes = total // len(found.fixed)
    found.seconds = time.perf_counter() - start
    return found


def reference_count(
    puzzle: EdgePuzzle, modulo: str, jobs: int, time_limit: float | None, quiet: bool
) -> EdgeCount:
    """The reference solver's count; up to turns, every grid it finds is put in its orbit."""
    start = time.perf_counter()
    if modulo == "none":
        with report.progress_bar(0, "reference") as update:
            found = reference_edge.count(
                puzzle, jobs=jobs, progress=None if quiet else update, time_limit=time_limit
            )
        return EdgeCount("reference", found.grids, found.seconds, found.complete)
    turns = board_turns(puzzle)
    orbits: set[tuple] = set()
    fixed = dict.fromkeys(turns, 0)
    grids = 0
    for grid in reference_edge.grids(puzzle, time_limit=time_limit):
        shown = looks(puzzle, grid)
        images = [turned_looks(puzzle, shown, k) for k in turns]
        orbits.add(min(images))
        for k, image in zip(turns, images):
            fixed[k] += image == shown
        grids += 1
    seconds = time.perf_counter() - start
    complete = time_limit is None or seconds <= time_limit
    return EdgeCount("reference", grids, seconds, complete, fixed, len(orbits))


def parity_split(
    puzzle: EdgePuzzle, backend_name: str, jobs: int, time_limit: float | None
) -> dict[str, int]:
    """Grids with the marked tiles only on cells with (row + col) even, and only on odd cells."""
    if backend_name == "reference":
        return dict(reference_edge.parity_counts(puzzle))
    return {
        name: count_grids(puzzle, backend_name, 0, parity, jobs, time_limit)[0]
        for parity, name in enumerate(reference_edge.PARITIES)
    }


# ---------------------------------------------------------------- solving


def solve_once(
    puzzle: EdgePuzzle, backend_name: str, args
) -> tuple[list[Placed] | None, float, bool]:
    """One solution as (tile index, rotation) per cell, the seconds, and whether it finished."""
    start = time.perf_counter()
    time_limit = getattr(args, "time_limit", None)
    if backend_name == "reference":
        try:
            grid = reference_edge.solve(puzzle, time_limit=time_limit)
        except TimeoutError:
            return None, time.perf_counter() - start, False
        return grid, time.perf_counter() - start, True
    encoding = getattr(args, "encoding", None)
    check_encoding(encoding)
    backend = backend_named(backend_name, getattr(args, "workers", 2))
    if backend.encoding == "cpsat":
        variant = getattr(args, "cpsat_model", None) or DEFAULT_CPSAT_VARIANT
        model = encode_cpsat(puzzle, variant=variant)
    else:
        model = encode_cnf(puzzle, encoding or DEFAULT_CARD_ENCODING)
    outcome = backend.solve(model, time_limit)
    if outcome.values is None:
        return None, time.perf_counter() - start, outcome.complete
    grid = grid_of(puzzle, placements(puzzle), outcome.values)
    return grid, time.perf_counter() - start, True


# ---------------------------------------------------------------- commands


def chosen_backend(args, solving: bool) -> str:
    if args.backend:
        return args.backend
    name = FASTEST_SOLVE_BACKEND if solving else FASTEST_COUNT_BACKEND
    task = "solve" if solving else "count"
    report.say(f"backend: {name} (measured fastest for edge-matching {task})")
    return name


def say_reader(puzzle: EdgePuzzle) -> None:
    if puzzle.file_format != TOML_FORMAT:
        report.say(f"read {puzzle.source or puzzle.name} as: {puzzle.file_format}")


def solve(puzzle: EdgePuzzle, args) -> int:
    puzzle = leveled(puzzle, args)
    say_reader(puzzle)
    backend = chosen_backend(args, solving=True)
    grid, seconds, complete = solve_once(puzzle, backend, args)
    problem = None if grid is None else check_grid(puzzle, grid)
    if problem:  # never print a wrong answer as a solution
        raise AssertionError(f"{backend} returned a grid that breaks the rules: {problem}")
    name = display_name(puzzle)
    if args.json:
        print(report.json_line({
            "puzzle": name,
            "format": puzzle.file_format,
            "rules": rules_text(puzzle),
            "backend": backend,
            "seconds": round(seconds, 3),
            "complete": complete,
            "solved": grid is not None,
            "solution": None if grid is None else solution_json(puzzle, grid),
        }))
        return 0 if grid is not None else 1
    if grid is None:
        why = "no solution exists" if complete else "no solution found within the time limit"
        print(f"{name}: {why} ({rules_text(puzzle)}; {backend}, {seconds:.2f} s)")
        return 1
    print("\n".join(draw(puzzle, grid, colour=use_colour())))
    print(f"{name}: solved by {backend} in {seconds:.2f} s ({rules_text(puzzle)}; checked)")
    return 0


def solution_json(puzzle: EdgePuzzle, grid: list[Placed]) -> list[list[dict]]:
    rows = []
    for r in range(puzzle.rows):
        row = []
        for c in range(puzzle.cols):
            t, rotation = grid[r * puzzle.cols + c]
            tile = puzzle.tiles[t]
            row.append({
                "tile": tile.name or str(t + 1),
                "rotation": rotation * 90,
                "edges": [edge_word(e) for e in rotated(tile.edges, rotation)],
                "mark": tile.mark,
            })
        rows.append(row)
    return rows


def count(puzzle: EdgePuzzle, args) -> int:
    puzzle = leveled(puzzle, args)
    say_reader(puzzle)
    check_modulo(puzzle, args.modulo)
    backend = chosen_backend(args, solving=False)
    found = count_edge(
        puzzle, backend, args.modulo, args.jobs, args.time_limit, args.encoding,
        getattr(args, "cpsat_model", None), quiet=args.json,
    )
    factor = label_factor(puzzle) if args.label_tiles else 1
    number = found.count(args.modulo, factor, len(puzzle.tiles))
    counted = meaning(puzzle, args.modulo, args.label_tiles)
    name = display_name(puzzle)
    if args.json:
        print(report.json_line({
            "puzzle": name,
            "count": number,
            "modulo": args.modulo,
            "backend": found.backend,
            "seconds": round(found.seconds, 3),
            "complete": found.complete,
            "label_tiles": args.label_tiles,
            "counted": counted,
            "solutions": found.grids * factor,
            "classes": None if found.classes is None else number,
            "grids": found.grids,
            "fixed_by_turn": {str(k * 90): v for k, v in found.fixed.items()} or None,
            "rules": rules_text(puzzle),
            "format": puzzle.file_format,
        }))
        return 0 if found.complete else 1
    where = f"({found.backend}, {found.seconds:.2f} s)"
    if not found.complete:
        print(
            f"{name}: INCOMPLETE count, stopped early: at least {found.grids * factor:,} "
            f"{meaning(puzzle, 'none', args.label_tiles)} {where}"
        )
        return 1
    print(f"{name}: {number:,} {counted} {where}")
    print(f"{name}: rules: {rules_text(puzzle)}")
    if found.fixed:
        fixed = ", ".join(f"{k * 90}°: {v:,}" for k, v in found.fixed.items())
        print(f"{name}: grids unchanged by each turn of the board (Burnside): {fixed}")
    return 0


def export(puzzle: EdgePuzzle, args) -> int:
    puzzle = leveled(puzzle, args)
    check_encoding(args.encoding)
    encoding = args.encoding or DEFAULT_CARD_ENCODING
    model = encode_cnf(puzzle, encoding)
    header = [
        f"puzzlesat export of {display_name(puzzle)}: {puzzle.title}",
        f"rules: {rules_text(puzzle)}",
        "a model of this CNF is a solution; count models projected on the placement variables "
        "to count distinct grids (identical tiles interchangeable)",
        f"variables 1..{len(model.keys)}: one per tile kind, rotation and cell; "
        f"exactly one per cell, each kind as often as it has tiles ({encoding}); edge colours",
    ]
    report.write_export(
        args.output,
        to_dimacs(model, header),
        f"{model.nvars} variables, {len(model.clauses)} clauses, "
        f"{len(model.keys)} placement variables",
    )
    return 0


def verify(puzzle: EdgePuzzle, args) -> int:
    """Count on every backend and the reference, plainly and up to turns; all must agree."""
    puzzle = leveled(puzzle, args)
    say_reader(puzzle)
    modulo = args.modulo if args.modulo != "none" else "rotation"
    if puzzle.fixed:
        modulo = "none"
    check_modulo(puzzle, modulo)
    runs: list[EdgeCount] = []
    for backend in list(VERIFY_BACKENDS):
        found = count_edge(
            puzzle, backend, modulo, args.jobs, args.time_limit, args.encoding, quiet=False
        )
        runs.append(found)
        report.say(
            f"{backend:18} grids {found.grids:>10,}  up to turns "
            f"{'-' if found.classes is None else f'{found.classes:,}':>8}  "
            f"{found.seconds:8.2f} s" + ("" if found.complete else "  INCOMPLETE")
        )
    complete = all(run.complete for run in runs)
    grids = {run.grids for run in runs}
    classes = {run.classes for run in runs}
    agree = complete and len(grids) == 1 and len(classes) == 1
    parities = parity_check(puzzle, args, min(grids)) if agree and puzzle.apart else None
    if parities is not None:
        agree = agree and parities["agree"]
    print(verify_table(runs))
    name = display_name(puzzle)
    if not agree:
        why = "some counts did not finish" if not complete else "the backends DISAGREE"
        print(f"{name}: verification failed: {why}; nothing written")
        return 1
    total, reduced = grids.pop(), classes.pop()
    factor = label_factor(puzzle)
    published = published_solutions(puzzle)
    result = {
        "puzzle": name,
        "title": puzzle.title,
        "kind": KIND,
        "format": puzzle.file_format,
        "rules": rules_text(puzzle),
        "count": total,
        "counted": meaning(puzzle, "none", False),
        "rotation_classes": reduced,
        "rotation_counted": None if reduced is None else meaning(puzzle, "rotation", False),
        "label_tiles": total * factor,
        "label_tiles_counted": meaning(puzzle, "none", True),
        "label_factor": factor,
        "parity": parities,
        "published": {k: v for k, v in puzzle.published.items() if not k.startswith("solution")},
        "published_solutions": published,
        "runs": [
            {
                "backend": r.backend,
                "grids": r.grids,
                "fixed_by_turn": {str(k * 90): v for k, v in r.fixed.items()} or None,
                "rotation_classes": r.classes,
                "seconds": round(r.seconds, 3),
                "complete": r.complete,
            }
            for r in runs
        ],
        "jobs": args.jobs,
    }
    path = report.write_verified(args.results, name, result)
    print(f"{name}: all backends agree: {total:,} {meaning(puzzle, 'none', False)}")
    if reduced is not None:
        print(f"{name}: {reduced:,} {meaning(puzzle, 'rotation', False)}")
    print(f"{name}: {total * factor:,} {meaning(puzzle, 'none', True)}")
    if parities is not None:
        both = parities["even"] + parities["odd"]
        print(
            f"{name}: grids with the marks on even cells {parities['even']:,} + on odd cells "
            f"{parities['odd']:,} = {both:,} ({', '.join(parities['backends'])} agree), "
            + ("equal to" if both == total else "NOT equal to") + f" the {total:,} grids"
        )
    for key, ok in published.items():
        print(f"{name}: published {key}: {'a valid solution' if ok else 'NOT VALID here'}")
    print(f"wrote {path}")
    return 0


def parity_check(puzzle: EdgePuzzle, args, total: int) -> dict | None:
    """The two checkerboard cases on CP-SAT, a SAT solver and the reference, and their sum."""
    if not any(t.mark == puzzle.apart for t in puzzle.tiles):
        return None
    cases = {}
    for backend in (*VERIFY_SOLVERS[:2], "reference"):
        try:
            cases[backend] = parity_split(puzzle, backend, args.jobs, args.time_limit)
        except ValueError as error:  # the reference: marks do not force a checkerboard
            report.say(f"reference: {error}")
    first = next(iter(cases.values()))
    agree = all(c == first for c in cases.values())
    return {
        "even": first["even"],
        "odd": first["odd"],
        "sum_equals_count": first["even"] + first["odd"] == total,
        "backends": sorted(cases),
        "agree": agree,
        "counted": "distinct grids with every marked tile on a cell with (row + col) even, and "
        "with every marked tile on an odd cell",
    }


def published_solutions(puzzle: EdgePuzzle) -> dict[str, bool]:
    """Whether each published solution stored with the puzzle obeys the rules of this level."""
    out = {}
    for key in puzzle.published:
        if not key.startswith("solution"):
            continue
        other_level = key.startswith("solution_level") and key != f"solution_level{puzzle.level}"
        if puzzle.levels and other_level:
            continue
        grid = grid_from_looks(puzzle, published_looks(puzzle, key))
        out[key] = grid is not None and check_grid(puzzle, grid) is None
    return out


def verify_table(runs: list[EdgeCount]) -> str:
    lines = [
        f"{'backend':20} {'grids':>10} {'up to turns':>12} {'fixed by turns':>24} {'seconds':>8}"
    ]
    for r in runs:
        classes = "-" if r.classes is None else f"{r.classes:,}"
        fixed = " ".join(f"{v}" for v in r.fixed.values()) or "-"
        state = "" if r.complete else "  incomplete"
        lines.append(
            f"{r.backend:20} {r.grids:>10,} {classes:>12} {fixed:>24} {r.seconds:8.2f}{state}"
        )
    return "\n".join(lines)


def bench_backends(puzzle: EdgePuzzle, args) -> list[str]:
    return ["cpsat", "pysat:cadical195", "pysat:glucose4", "reference"]


def bench_run(puzzle: EdgePuzzle, backend: str, args, solve: bool) -> report.BenchRun:
    puzzle = leveled(puzzle, args)
    if solve:
        grid, seconds, complete = solve_once(puzzle, backend, args)
        if grid is not None and check_grid(puzzle, grid) is not None:
            raise AssertionError(f"{backend} returned a grid that breaks the rules")
        what = "solved (checked)" if grid else ("no solution" if complete else "timed out")
        return report.BenchRun(seconds, complete, what)
    check_modulo(puzzle, args.modulo)
    found = count_edge(
        puzzle, backend, args.modulo, args.jobs, args.time_limit, args.encoding,
        getattr(args, "cpsat_model", None),
    )
    what = f"{found.grids} grids" + (
        f", {found.classes} up to turns" if found.classes is not None else ""
    )
    return report.BenchRun(found.seconds, found.complete, what)


# ---------------------------------------------------------------- drawing

NAMED_COLOURS = {
    "red": 196, "green": 40, "blue": 33, "yellow": 226, "white": 255, "black": 240,
    "orange": 208, "purple": 129, "pink": 213, "brown": 130, "grey": 246, "gray": 246,
    "cyan": 51, "magenta": 201,
}
PALETTE = [196, 40, 33, 226, 201, 51, 208, 129, 118, 27, 214, 160, 34, 99, 220, 130, 250, 94]


def use_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def codes(puzzle: EdgePuzzle) -> tuple[dict, list[str]]:
    """A short code per edge value (picture, then half), and the legend lines explaining them."""
    pictures = sorted({e[0] for t in puzzle.tiles for e in t.edges})
    halves = sorted({e[1] for t in puzzle.tiles for e in t.edges if e[1]})
    if all(len(p) <= 2 for p in pictures):
        short = {p: p for p in pictures}
    else:
        length = 1
        while len({p[:length].upper() for p in pictures}) < len(pictures):
            length += 1
        short = {p: p[:length].upper() for p in pictures}
    half_code = {h: h[0].lower() for h in halves}
    if len(set(half_code.values())) < len(halves):
        half_code = {h: str(i + 1) for i, h in enumerate(halves)}
    table = {}
    for t in puzzle.tiles:
        for e in t.edges:
            table[e] = short[e[0]] + (half_code[e[1]] if e[1] else "")
    legend = []
    named = [p for p in pictures if short[p] != p or p in puzzle.colour_names]
    if named:
        legend.append(
            "edges: " + ", ".join(f"{short[p]} = {puzzle.colour_names.get(p, p)}" for p in named)
        )
    if halves:
        legend.append(
            "halves: " + ", ".join(f"{half_code[h]} = {h}" for h in halves)
            + " (touching edges show the same picture, different halves)"
        )
    return table, legend


def paint(puzzle: EdgePuzzle, edge, text: str, pictures: list[str]) -> str:
    name = puzzle.colour_names.get(edge[0], edge[0]).lower()
    shade = NAMED_COLOURS.get(name, PALETTE[pictures.index(edge[0]) % len(PALETTE)])
    return f"\x1b[48;5;{shade}m\x1b[30m{text}\x1b[0m"


def mark_symbol(mark: str) -> str:
    if not mark:
        return " "
    if mark == "diamond":
        encoding = (getattr(sys.stdout, "encoding", "") or "").lower()
        return "◆" if "utf" in encoding else "*"
    return mark[0].upper()


def draw(puzzle: EdgePuzzle, grid: list[Placed], colour: bool) -> list[str]:
    """Each tile as a box showing its four edges where they touch the neighbours' edges, and its
    mark in the middle; then a legend and each cell's tile and turn."""
    table, legend = codes(puzzle)
    k = max(len(code) for code in table.values())
    inner = 3 * k + 2
    pictures = sorted({e[0] for t in puzzle.tiles for e in t.edges})

    def show(edge, width: int, align: str) -> str:
        code = table[edge]
        padded = {"<": code.ljust, ">": code.rjust, "^": code.center}[align](width)
        if not colour:
            return padded
        left = len(padded) - len(padded.lstrip())
        return padded[:left] + paint(puzzle, edge, code, pictures) + padded[left + len(code):]

    rule = "+" + "+".join("-" * inner for _ in range(puzzle.cols)) + "+"
    lines = [rule]
    for r in range(puzzle.rows):
        top, middle, bottom = [], [], []
        for c in range(puzzle.cols):
            t, rotation = grid[r * puzzle.cols + c]
            edges = rotated(puzzle.tiles[t].edges, rotation)
            top.append(show(edges[0], inner, "^"))
            middle.append(
                show(edges[3], k, "<") + mark_symbol(puzzle.tiles[t].mark).center(k + 2)
                + show(edges[1], k, ">")
            )
            bottom.append(show(edges[2], inner, "^"))
        for part in (top, middle, bottom):
            lines.append("|" + "|".join(part) + "|")
        lines.append(rule)
    lines += legend
    if any(t.mark for t in puzzle.tiles):
        marks = sorted({t.mark for t in puzzle.tiles if t.mark})
        lines.append("marks: " + ", ".join(f"{mark_symbol(m)} = {m}" for m in marks))
    for r in range(puzzle.rows):
        cells = []
        for c in range(puzzle.cols):
            t, rotation = grid[r * puzzle.cols + c]
            cells.append(f"{puzzle.tiles[t].name or t + 1}@{rotation * 90}")
        lines.append(f"row {r + 1}: " + "  ".join(cells))
    lines.append("(tile@degrees: the tile, as listed in the puzzle, turned clockwise)")
    return lines
