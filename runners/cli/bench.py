"""`puzzlesat bench`: time backends on puzzles, print medians and ratios, append to bench.csv.

The one benchmark command: other benchmarks (the edge-matching set) call `time_runs` in
process rather than running the command line again.
"""

from __future__ import annotations

import argparse
import csv
import io
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from .. import api
from .. import output as report
from ..benchmarks import whole
from ..models.errors import InputError
from ..pictures import charts
from ..registry import family_of

BENCH_FIELDS = [
    "date", "puzzle", "task", "backend", "executor", "jobs", "runs", "median_seconds",
    "min_seconds", "max_seconds", "complete", "result", "load", "cores", "python", "ortools",
    "python-sat",
]


@dataclass
class Timed:
    """One timed run: seconds, whether it finished, and what it found."""

    seconds: float
    complete: bool
    what: str


def timed_run(puzzle, backend: str, executor: str | None, modulo: str, options: dict,
              args: argparse.Namespace) -> Timed:
    """One solve or count through the API, timed as a whole."""
    start = time.perf_counter()
    if args.solve:
        found = api.solve(puzzle, backend, args.time_limit, **options)
        what = "solved" if found.found else found.note
        return Timed(time.perf_counter() - start, found.complete, what)
    count = whole(api.count(puzzle, backend, modulo, args.jobs, executor, args.time_limit,
                            **options))
    return Timed(time.perf_counter() - start, count.complete,
                 f"{count.number} {count.counted.split(' (')[0]}")


def warm_up(puzzle, backend: str, executor: str, jobs: int | None) -> float:
    """Start a Dask cluster and its workers' imports before timing (one small count), so that
    the runs time the counting; returns the seconds it took (reported, never in a median)."""
    start = time.perf_counter()
    api.count("iq-block-8", "cpsat", "symmetry", jobs, executor)
    seconds = time.perf_counter() - start
    report.say(f"{executor}: started and warmed up in {seconds:.2f} s (not timed)")
    return seconds


def time_runs(run: Callable[[], Timed], repeat: int) -> list[Timed]:
    return [run() for _ in range(repeat)]


def bench(args: argparse.Namespace) -> int:
    """Time each backend on each puzzle, print medians and ratios, append rows to bench.csv."""
    from . import family_options, load

    args.record_in = report.record_folder(args)  # None: print only, record nothing
    if args.against and not args.search:
        raise InputError("--against REV times the bitboard search: use it with --search",
                         field="--against")
    if args.search or args.anchor in ("xcover", "dlx"):
        needs_compiled("--search" if args.search else "--anchor",
                       ("xcover", "bitboard") if args.anchor == "xcover" else ("bitboard",))
    if args.search:
        return bench_search(args)
    if args.anchor == "rowscan":
        return bench_against_rowscan(args)
    if args.anchor == "dlx":
        return bench_against_c_dancing_links(args)
    if args.anchor:
        return bench_against_dancing_links(args)
    if not args.puzzles:
        raise InputError("name at least one puzzle", field="PUZZLE")
    loaded = [load(args, name) for name in args.puzzles]  # every name checked before timing
    rows = []
    for (puzzle, module), name in zip(loaded, args.puzzles):
        task = "solve" if args.solve else "count"
        options = family_options(module, args, task)
        backends = args.backend or api.backends(puzzle, task)[:1] + [
            b for b in ("cpsat", "pysat:cadical195", "reference") if b in api.backends(puzzle)
            and b != api.backends(puzzle, task)[0]
        ]
        modulo = family_of(puzzle).check_modulo(puzzle, args.modulo or "none")
        measured = []
        for backend, executor in [(b, e) for b in backends for e in args.executor or [None]]:
            run = partial(timed_run, puzzle, backend, executor, modulo, options, args)
            if executor and executor.startswith("dask"):
                warm_up(puzzle, backend, executor, args.jobs)
            runs = time_runs(run, args.repeat)
            seconds = [r.seconds for r in runs]
            measured.append((backend, executor, runs, statistics.median(seconds)))
            report.say(f"{name} {backend} {executor or 'local'}: "
                       f"{', '.join(f'{s:.2f}' for s in seconds)} s")
        # ratios against the first backend and executor measured, in the same run
        anchor = measured[0][3] if all(x.complete for x in measured[0][2]) else None
        for backend, executor, runs, middle in measured:
            complete = all(r.complete for r in runs)
            rows.append({
                "date": report.now(), "puzzle": name,
                "task": "solve" if args.solve else f"count --modulo {modulo}",
                "backend": backend, "executor": executor or "local",
                "jobs": args.jobs or "", "runs": len(runs),
                "median_seconds": f"{middle:.3f}",
                "min_seconds": f"{min(r.seconds for r in runs):.3f}",
                "max_seconds": f"{max(r.seconds for r in runs):.3f}",
                "complete": complete, "result": runs[-1].what,
                "load": report.load(), "cores": report.machine()["cores"],
                **{k: v for k, v in report.versions().items() if k in BENCH_FIELDS},
                "ratio": (middle / anchor) if anchor and complete else None,
            })
    print(f"{'puzzle':26} {'task':22} {'backend':18} {'executor':14} {'median s':>9} "
          f"{'ratio':>6}  result")
    for row in rows:
        ratio = f"{row['ratio']:.2f}" if row["ratio"] is not None else "-"
        flag = "" if row["complete"] else "  (incomplete: time limit)"
        print(f"{row['puzzle']:26} {row['task']:22} {row['backend']:18} {row['executor']:14} "
              f"{float(row['median_seconds']):9.3f} {ratio:>6}  {row['result']}{flag}")
    report.say("ratio: median over the first backend and executor's median, in this run")
    folder = args.record_in
    if folder is None:
        return 0
    append_csv(folder / "bench.csv", rows)
    report.say(f"appended {len(rows)} rows to {folder / 'bench.csv'}")
    if not args.no_chart:
        charts.write_chart(folder, "bench.csv", report.say)
    report.write_results_index(folder)
    return 0


def needs_compiled(flag: str, names: tuple[str, ...], doing: str = "times") -> None:
    """Before any timing: the compiled searches a bench times are installed, or a one-line
    error saying what to install (run as Python, the bitboard search fails in numpy's types)."""
    from ..registry import backend

    for name in names:
        try:
            backend(name)
        except InputError as error:  # "... is not available here: pip install ...", named
            raise InputError(f"{doing} {name}: {error.message}", field=flag) from None


def packing_puzzles(args: argparse.Namespace, default: tuple[str, ...]) -> dict:
    """The puzzles a dancing-links bench times (those named, else `default`), name -> puzzle,
    each loaded and checked to be a packing puzzle before any timing."""
    from . import load

    puzzles = {}
    for name in tuple(args.puzzles) or default:
        puzzle, _ = load(args, name)
        if puzzle.kind != "packing":
            raise InputError(f"{name} is not a packing puzzle", field="--anchor")
        puzzles[name] = puzzle
    return puzzles


def bench_against_dancing_links(args: argparse.Namespace) -> int:
    """`bench --anchor xcover`: runners/benchmarks/packing.py, in this process."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.PUZZLES)
    modulos = (args.modulo,) if args.modulo else packing.MODULOS
    extra = packing.EXTRA if not args.puzzles else ()
    rows = packing.run(tuple(puzzles), modulos, extra, args.repeat, args.jobs or 2, args.record_in,
                       report.say)
    for row in rows:
        if row.ratio_to_anchor is not None:
            print(f"{row.puzzle:26} {row.modulo:9} {row.method:52} {row.median_seconds:8.2f} s "
                  f"ratio {row.ratio_to_anchor:.2f}")
    wrote(args.record_in, "dlx-bench.md")
    return 0


def bench_against_c_dancing_links(args: argparse.Namespace) -> int:
    """`bench --anchor dlx`: runners/benchmarks/packing.run_dlx, in this process."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.DLX_PUZZLES)
    for name, puzzle in puzzles.items():
        if any(piece.count > 1 for piece in puzzle.pieces):
            raise InputError(f"{name} has pieces with copies: the dancing-links anchor counts "
                             "exact covers with each item once", field="--anchor")
    rows = packing.run_dlx(tuple(puzzles), args.modulo or "symmetry", args.repeat, args.jobs or 2,
                           args.record_in, report.say)
    said = {True: "met", False: "NOT met", None: "-"}
    for row in rows:
        ratio = ("" if row["ratio_to_anchor"] is None else
                 f"ratio {row['ratio_to_anchor']:.2f} (CPU {row['cpu_ratio_to_anchor']:.2f})")
        rate = row["nodes_per_cpu_second"] or 0
        print(f"{row['puzzle']:14} {row['modulo']:9} {row['method']:52} "
              f"{row['median_seconds']:8.2f} s {row['median_cpu_seconds']:8.2f} s CPU "
              f"{row['nodes']:>13,} nodes {rate:>11,} nodes/s {ratio}"
              + (f"  60 s: {said[row['seconds_target_met']]}, half the anchor's: "
                 f"{said[row['ratio_target_met']]}" if row["seconds_target_met"] is not None
                 else ""))
    wrote(args.record_in, "dlx-anchor.md")
    return 0


def bench_search(args: argparse.Namespace) -> int:
    """`bench --search`: runners/benchmarks/packing.run_search, in this process."""
    from ..benchmarks import packing
    from . import load

    cases = packing.SEARCH_CASES
    if args.puzzles:
        modulo = args.modulo or "symmetry"
        for name in args.puzzles:
            puzzle, _ = load(args, name)
            if puzzle.kind != "packing":
                raise InputError(f"{name} is not a packing puzzle", field="--search")
        cases = tuple((name, modulo) for name in args.puzzles)
    if args.cubes:
        rows = [row for name, modulo in cases
                for row in packing.profile_search(name, modulo, args.cubes, 1, report.say)]
        if args.record_in is not None:
            packing.write_profile(rows, args.record_in)
        for row in rows:
            print(f"{row['puzzle']:26} {row['modulo']:9} {row['part']:24} "
                  f"{row['cpu_seconds']:8.2f} s CPU {row['nodes']:>13,} nodes "
                  f"{row['ns_per_node']:>6,} ns/node")
        wrote(args.record_in, "bitboard-profile.md")
        return 0
    if args.against:
        rows = packing.run_against(args.against, cases if args.puzzles else packing.ANCHOR_CASES,
                                   args.repeat, args.record_in, report.say)
        for row in rows:
            print(f"{row['puzzle']:26} {row['modulo']:9} {row['method']:36} "
                  f"{row['median_cpu_seconds']:8.2f} s CPU {row['nodes']:>12,} nodes "
                  f"{row['nodes_per_second']:>12,} nodes/s ratio {row['ratio_to_anchor']:.2f}")
        wrote(args.record_in, "bitboard-anchor.md")
        return 0
    rows = packing.run_search(cases, args.repeat, args.record_in, report.say)
    for row in rows:
        rate = "" if row["nodes_per_second"] is None else f"{row['nodes_per_second']:>12,} nodes/s"
        print(f"{row['puzzle']:26} {row['modulo']:9} {row['method']:32} "
              f"{row['median_cpu_seconds']:8.2f} s CPU {row['nodes']:>12,} nodes {rate} "
              f"ratio {row['ratio_to_plain']:.2f}")
    wrote(args.record_in, "bitboard-search.md")
    return 0


def bench_against_rowscan(args: argparse.Namespace) -> int:
    """`bench --anchor rowscan`: runners/benchmarks/edgecount.py, in this process."""
    from ..benchmarks import edgecount

    figures = edgecount.run(args.repeat, args.record_in, report.say)
    wrote(args.record_in, "edgecount-bench.md")
    if args.estimate:
        rate = min(r["edgecount_nodes_per_second"] for r in figures["rates"])
        edgecount.estimate_clues(args.estimate, args.record_in, rate, report.say)
        wrote(args.record_in, "eternity-ii-estimates.json")
    return 0


def wrote(folder: Path | None, name: str) -> None:
    """Say what a bench recorded (with --record), and rebuild the results index."""
    if folder is not None:
        report.write_results_index(folder)
        report.say(f"wrote {folder / name}")


def append_csv(path: Path, rows: list[dict], fields: list[str] = BENCH_FIELDS) -> None:
    """Append rows to a CSV file, atomically (the whole file is rewritten through a rename).

    Columns added since the file was started are appended to its header."""
    old_rows: list[dict] = []
    header = list(fields)
    if path.exists():
        try:
            reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
            old_rows = list(reader)
            header = list(reader.fieldnames or []) + [f for f in fields
                                                      if f not in (reader.fieldnames or [])]
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            raise InputError(f"cannot read: {error}", file=str(path), field="--results") from None
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(old_rows + rows)
    report.write_text_atomic(path, out.getvalue())
