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
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM (not by its time limit)


class RunStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a timed run, carrying what the run had got."""

    def __init__(self, timed: Timed) -> None:
        super().__init__()
        self.timed = timed


# Seconds each run of a backend timed only for comparison may take (`bench PUZZLE` without
# --backend): CP-SAT, CaDiCaL and the reference count IQ Block 10 in seconds to hours (CaDiCaL
# enumerating every solution: about 40 minutes), so each is stopped here and shown as slower
# than this. --time-limit sets it; --backend times only the backends named, with no limit.
COMPARED_SECONDS = 60.0
COMPARED = ("cpsat", "pysat:cadical195", "reference")


def timed_run(puzzle, backend: str, executor: str | None, modulo: str, options: dict,
              args: argparse.Namespace, time_limit: float | None) -> Timed:
    """One solve or count through the API, timed as a whole."""
    start = time.perf_counter()
    if args.solve:
        found = api.solve(puzzle, backend, time_limit, **options)
        what = "solved" if found.found else found.note
        return Timed(time.perf_counter() - start, found.complete, what)
    count = api.count(puzzle, backend, modulo, args.jobs, executor, time_limit, **options)
    what = f"{count.number} {count.counted.split(' (')[0]}"
    if count.details.get("interrupted"):  # a lower bound, never timed as a whole count
        raise RunStopped(Timed(time.perf_counter() - start, False, f"at least {what}", True))
    return Timed(time.perf_counter() - start, count.complete, what)


def warm_up(puzzle, backend: str, executor: str, jobs: int | None) -> float:
    """Start a Dask cluster and its workers' imports before timing (one small count), so that
    the runs time the counting; returns the seconds it took (reported, never in a median)."""
    start = time.perf_counter()
    api.count("iq-block-8", "cpsat", "symmetry", jobs, executor)
    seconds = time.perf_counter() - start
    report.say(f"{executor}: started and warmed up in {seconds:.2f} s (not timed)")
    return seconds


def time_runs(run: Callable[[], Timed], repeat: int, runs: list[Timed] | None = None
              ) -> list[Timed]:
    """`repeat` runs, into `runs` as each ends; a run that did not finish (its time limit) ends
    the repeats, as the next would end alike. Ctrl-C or SIGTERM during a run is recorded as an
    incomplete run ('interrupted') before it is passed on."""
    runs = [] if runs is None else runs
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            runs.append(run())
        except RunStopped as stopped:
            runs.append(stopped.timed)
            raise
        except KeyboardInterrupt:
            runs.append(Timed(time.perf_counter() - start, False, "nothing", True))
            raise
        if not runs[-1].complete:
            break
    return runs


def chosen_backends(puzzle, task: str, args: argparse.Namespace) -> list[tuple[str, float | None]]:
    """The backends to time, each with its time limit: those named (--backend) with
    --time-limit, or the task's default with it and, for comparison, CP-SAT, CaDiCaL and the
    reference, each stopped at --time-limit or COMPARED_SECONDS."""
    if args.backend:
        return [(b, args.time_limit) for b in args.backend]
    first, usable = api.backends(puzzle, task)[0], api.backends(puzzle)
    compared = args.time_limit or COMPARED_SECONDS
    return [(first, args.time_limit)] + [(b, compared) for b in COMPARED
                                         if b in usable and b != first]


def bench(args: argparse.Namespace) -> int:
    """Time each backend on each puzzle, print medians and ratios, append rows to bench.csv."""
    from . import family_options, load

    args.record_in = report.record_folder(args)  # None: print only, record nothing
    if args.against and not args.search:
        raise InputError("--against REV times the bitboard search: use it with --search",
                         field="--against")
    if args.choice and not args.search:
        raise InputError("--choice times the bitboard search: use it with --search --sample N",
                         field="--choice")
    if args.any_number:
        from ..benchmarks.any_number import bench_any_number
        return bench_any_number(args)
    if args.startup:
        if args.anchor not in (None, "xcover") or args.search or args.solve:
            raise InputError("--startup times whole `puzzlesat count` processes against "
                             "xcover's: use it alone or with --anchor xcover", field="--startup")
        args.anchor = "xcover"
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
    task = "solve" if args.solve else "count"
    rows: list[dict] = []
    stopped = False
    try:
        for (puzzle, module), name in zip(loaded, args.puzzles):
            options = family_options(module, args, task)
            backends = chosen_backends(puzzle, task, args)
            if not args.backend:
                first, *others = backends
                report.say(f"{name}: timing {first[0]} (the default) and, for comparison, "
                           f"{', '.join(b for b, _ in others)}, each run of those stopped at "
                           f"{others[0][1]:g} s (--time-limit S sets it; --backend NAME times "
                           "only the backends named)" if others else
                           f"{name}: timing {first[0]} (the default)")
            modulo = family_of(puzzle).check_modulo(puzzle, args.modulo or "none")
            measured: list[tuple[str, str | None, list[Timed]]] = []
            try:
                for (backend, limit), executor in [(b, e) for b in backends
                                                   for e in args.executor or [None]]:
                    run = partial(timed_run, puzzle, backend, executor, modulo, options, args,
                                  limit)
                    if executor and executor.startswith("dask"):
                        warm_up(puzzle, backend, executor, args.jobs)
                    runs: list[Timed] = []
                    measured.append((backend, executor, runs))
                    time_runs(run, args.repeat, runs)
                    report.say(f"{name} {backend} {executor or 'local'}: "
                               f"{', '.join(f'{r.seconds:.2f}' for r in runs)} s")
            finally:  # what was measured is shown, also when Ctrl-C or SIGTERM stopped it
                rows += bench_rows(name, task, modulo, measured, args)
    except KeyboardInterrupt:
        stopped = True
    print_bench(rows)
    if stopped:
        report.say("bench: stopped (Ctrl-C or SIGTERM) before its end: the table shows what it "
                   "measured; nothing recorded")
        return 1
    folder = args.record_in
    if folder is None:
        return 0
    append_csv(folder / "bench.csv", rows)
    report.say(f"appended {len(rows)} rows to {folder / 'bench.csv'}")
    if not args.no_chart:
        charts.write_chart(folder, "bench.csv", report.say)
    report.write_results_index(folder)
    return 0


def bench_rows(name: str, task: str, modulo: str,
               measured: list[tuple[str, str | None, list[Timed]]],
               args: argparse.Namespace) -> list[dict]:
    """The table's rows of one puzzle: each backend and executor's median (of its finished runs,
    or of all where none finished) and its ratio to the first one measured, in the same run."""
    rows = []
    anchor = None
    for backend, executor, runs in [m for m in measured if m[2]]:
        finished = [r.seconds for r in runs if r.complete]
        middle = statistics.median(finished or [r.seconds for r in runs])
        complete = len(finished) == len(runs)
        if not rows:
            anchor = middle if complete else None
        rows.append({
            "date": report.now(), "puzzle": name,
            "task": "solve" if task == "solve" else f"count --modulo {modulo}",
            "backend": backend, "executor": executor or "local",
            "jobs": args.jobs or "", "runs": len(runs),
            "median_seconds": f"{middle:.3f}",
            "min_seconds": f"{min(r.seconds for r in runs):.3f}",
            "max_seconds": f"{max(r.seconds for r in runs):.3f}",
            "complete": complete, "result": runs[-1].what,
            "load": report.load(), "cores": report.machine()["cores"],
            **{k: v for k, v in report.versions().items() if k in BENCH_FIELDS},
            "ratio": (middle / anchor) if anchor else None,
            "stopped": "interrupted" if runs[-1].interrupted else "time limit",
        })
    return rows


def print_bench(rows: list[dict]) -> None:
    print(f"{'puzzle':26} {'task':22} {'backend':18} {'executor':14} {'median s':>9} "
          f"{'ratio':>6}  result")
    for row in rows:
        ratio = row["ratio"]
        # a run stopped at its limit took longer than shown: its ratio is a lower bound
        shown = "-" if ratio is None else f"{ratio:.2f}" if row["complete"] else f">{ratio:.1f}"
        flag = "" if row["complete"] else f"  (incomplete: {row['stopped']})"
        print(f"{row['puzzle']:26} {row['task']:22} {row['backend']:18} {row['executor']:14} "
              f"{float(row['median_seconds']):9.3f} {shown:>6}  {row['result']}{flag}")
    report.say("ratio: median over the first backend and executor's median, in this run")


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

    if args.startup:
        return bench_startup(args)
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


def refuse_copies(puzzles: dict, flag: str) -> None:
    """Before any timing: no puzzle with copies of a piece, which the dancing-links anchors
    (dlx.c, xcover's exact cover) do not count."""
    for name, puzzle in puzzles.items():
        if any(piece.count > 1 or piece.fewest != piece.count for piece in puzzle.pieces):
            raise InputError(f"{name} has pieces with copies: the dancing-links anchor counts "
                             "exact covers with each item once", field=flag)


def bench_startup(args: argparse.Namespace) -> int:
    """`bench --anchor xcover --startup`: runners/benchmarks/packing.run_startup."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.STARTUP_PUZZLES)
    refuse_copies(puzzles, "--startup")
    rows = packing.run_startup(tuple(puzzles), args.modulo or "symmetry", args.repeat,
                               args.jobs or 2, args.record_in, report.say)
    said = {True: "met", False: "NOT met"}
    for row in rows:
        share = row["share_of_staged_cpu"]
        ratio = ("" if row["ratio_to_anchor"] is None else
                 f"  ratio {row['ratio_to_anchor']:.2f} (CPU {row['cpu_ratio_to_anchor']:.2f}) "
                 f"to {row['against'].split(':')[0].split(',')[0]}, target "
                 f"{row['ratio_target']:g}: {said[row['ratio_target_met']]}")
        print(f"{row['puzzle']:26} {row['method'][:64]:64} {row['median_seconds']:7.3f} s "
              f"{row['median_cpu_seconds']:7.3f} s CPU"
              + ("" if share is None else f" {share:5.0%}") + ratio)
    wrote(args.record_in, "startup-profile.md")
    return 0


def bench_against_c_dancing_links(args: argparse.Namespace) -> int:
    """`bench --anchor dlx`: runners/benchmarks/packing.run_dlx, in this process."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.DLX_PUZZLES)
    refuse_copies(puzzles, "--anchor")
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
                 else f"  no slower than the anchor: {said[row['ratio_target_met']]}"
                 if row["ratio_target_met"] is not None else ""))
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
    if args.choice:
        if not args.cubes or args.against or (args.jobs and args.jobs > 1):
            raise InputError("--choice counts --sample CUBES cubes on one thread: give --sample, "
                             "without --against or --jobs", field="--choice")
        rows = packing.run_choice(cases, args.cubes, args.record_in, report.say)
        for row in rows:
            print(f"{row['puzzle']:26} {row['modulo']:9} ratio {row['ratio']:>8} first cell "
                  f"{row['first_cell_cpu_seconds']:8.2f} s fewest fits "
                  f"{row['fewest_cpu_seconds']:8.2f} s CPU")
        for name, modulo in dict.fromkeys((r["puzzle"], r["modulo"]) for r in rows):
            totals = next(r for r in rows if (r["puzzle"], r["modulo"]) == (name, modulo))
            print(f"{name} {modulo}, weighted CPU s: {totals['weighted_totals']}")
        wrote(args.record_in, "bitboard-choice.md")
        return 0
    if args.jobs and args.jobs > 1:  # threads: the memo they share against each one's own
        if args.against:
            raise InputError("--against times one thread: leave out --jobs", field="--jobs")
        rows = packing.run_shared(cases, args.jobs, args.repeat, args.cubes, 1, args.record_in,
                                  report.say)
        for row in rows:
            print(f"{row['puzzle']:26} {row['modulo']:9} {row['memo']:31} "
                  f"{row['median_wall_seconds']:8.2f} s wall {row['median_cpu_seconds']:8.2f} s "
                  f"CPU {row['median_nodes']:>13,} nodes {row['median_memo_hits']:>11,} hits "
                  f"ratio {row['cpu_ratio_to_own']:.2f}")
        wrote(args.record_in, "bitboard-shared.md")
        return 0
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
