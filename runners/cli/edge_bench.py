"""The edge-matching benchmark: Eternity II clue puzzles, Heule's em_* boards, planted N x N boards.

Each run is the shared `puzzlesat bench --solve FILE --backend B --repeat 1 --time-limit S`,
started in its own process: the figures come from the common bench machinery, and a run that
overstays its time limit (by more than GRACE seconds) is ended from here. What this module adds
to `bench`: the series of planted boards of growing size (written to files so every row names a
board that can be run again), stopping a backend's series at its first time-out, and a summary
in results/edge-bench.csv and results/edge-bench.md, with the machine's load average (other
work on the machine slows the runs). The benchmark files are read by path and skipped, with a
message, when their folder is absent.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..models import files as puzzlefile
from ..models.edge_matching import planted
from ..models.errors import InputError
from ..pictures import charts
from .. import output as report

INSTANCES = "../shared/benchmarks/edge-matching"  # read by path, from the project's folder
BACKENDS = ("cpsat", "pysat:cadical195", "pysat:glucose4", "reference")
# planted boards: sizes; interior colours fixed (17 as in Eternity II), border colours growing
SIZES = (6, 7, 8, 9, 10, 11, 12)
INTERIOR_COLOURS = 17
FIELDS = [
    "date", "group", "instance", "rows", "cols", "border_colours", "interior_colours", "seed",
    "backend", "runs", "median_seconds", "min_seconds", "max_seconds", "timed_out",
    "time_limit", "limit", "result", "load", "file", "cores", "python", "ortools", "python-sat",
]
GRACE = 15.0  # seconds allowed beyond the time limit for start-up and encoding


@dataclass
class Instance:
    """One board to time: where its file is, and what it is."""

    group: str  # "clue", "em" or "planted"
    name: str
    path: Path
    rows: int
    cols: int
    border_colours: int | None = None
    interior_colours: int | None = None
    seed: int | None = None


def shared_instances(folder: Path) -> list[Instance]:
    """The clue puzzles and em_R_B_C boards found in the benchmark folder (none if absent)."""
    if not folder.is_dir():
        report.say(f"edge-bench: {folder} is absent; the clue and em_* instances are skipped")
        return []
    found = []
    names = sorted(folder.glob("clue*.txt")) + sorted(
        folder.glob("em_*.txt"), key=lambda p: [int(x) for x in re.findall(r"\d+", p.stem)]
    )
    for path in names:
        puzzle = puzzlefile.load(str(path))
        match = re.fullmatch(r"em_(\d+)_(\d+)_(\d+)", path.stem)
        found.append(Instance(
            "em" if match else "clue", path.stem, path, puzzle.rows, puzzle.cols,
            int(match.group(2)) if match else None, int(match.group(3)) if match else None,
        ))
    return found


def border_colours(size: int) -> int:
    """Border colours for a planted board: 3 up to 7 x 7, 4 up to 9 x 9, then 5 (as E2's 16)."""
    return 3 if size <= 7 else 4 if size <= 9 else 5


def planted_instances(
    series: list[tuple[int, int, int]], seed: int, folder: Path
) -> list[Instance]:
    """Planted boards written as benchmark files into `folder`."""
    found = []
    for size, border, interior in series:
        puzzle = planted.generate(size, border, interior, seed)
        path = folder / f"{puzzle.name}.txt"
        report.write_text_atomic(path, planted.benchmark_text(puzzle))
        found.append(
            Instance("planted", puzzle.name, path, size, size, border, interior, seed)
        )
    return found


@dataclass
class Run:
    seconds: float
    complete: bool
    result: str
    row: dict


def one_run(instance: Instance, backend: str, time_limit: float, limit_inside: bool) -> Run:
    """One `puzzlesat bench --solve` run in its own process, ended if it overstays the limit.

    Without `limit_inside` the run is given no --time-limit (for a backend the CLI refuses one
    for) and only ending the process stops it.
    """
    with tempfile.TemporaryDirectory(prefix="edge-bench-") as scratch:
        command = [
            sys.executable, "-m", "puzzlesat.cli", "bench", "--solve", str(instance.path),
            "--backend", backend, "--repeat", "1", "--results", scratch, "--no-chart",
        ]
        if limit_inside:
            command += ["--time-limit", str(time_limit)]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=time_limit + GRACE
            )
        except subprocess.TimeoutExpired:
            return Run(time_limit, False, f"process ended after {time_limit + GRACE:.0f} s", {})
        rows_file = Path(scratch) / "bench.csv"
        if done.returncode == 2 and limit_inside and "--time-limit" in done.stderr:
            return Run(0.0, False, "refused: " + done.stderr.strip(), {})
        if done.returncode != 0 or not rows_file.exists():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return Run(0.0, False, f"failed: {last}", {})
        row = list(csv.DictReader(io.StringIO(rows_file.read_text(encoding="utf-8"))))[-1]
    seconds = float(row["median_seconds"])
    complete = row["complete"] == "True" and seconds <= time_limit
    result = row["result"]
    if row["complete"] == "True" and not complete:
        result += f" in {seconds:.2f} s, after the time limit (no limit inside the solver)"
    return Run(seconds, complete, result, row)


def bench_instance(
    instance: Instance, backend: str, repeat: int, time_limit: float, limit_inside: bool
) -> tuple[dict, list[dict]]:
    """Up to `repeat` runs (stopping at the first time-out): a summary row and bench.csv rows."""
    runs: list[Run] = []
    for _ in range(repeat):
        run = one_run(instance, backend, time_limit, limit_inside)
        if run.result.startswith("refused: "):  # the CLI takes no time limit for this backend
            report.say(f"{backend}: {run.result}; ending its process at the limit instead")
            limit_inside = False
            run = one_run(instance, backend, time_limit, limit_inside)
        runs.append(run)
        report.say(
            f"{instance.name} {backend}: {run.seconds:.2f} s"
            + ("" if run.complete else f" (not finished: {run.result})")
        )
        if not run.complete:
            break
    seconds = [r.seconds for r in runs]
    timed_out = sum(not r.complete for r in runs)
    summary = {
        "date": report.now(),
        "group": instance.group,
        "instance": instance.name,
        "rows": instance.rows,
        "cols": instance.cols,
        "border_colours": instance.border_colours,
        "interior_colours": instance.interior_colours,
        "seed": instance.seed,
        "backend": backend,
        "runs": len(runs),
        "median_seconds": f"{report.median(seconds):.3f}",
        "min_seconds": f"{min(seconds):.3f}",
        "max_seconds": f"{max(seconds):.3f}",
        "timed_out": timed_out,
        "time_limit": time_limit,
        "result": runs[-1].result,
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "file": str(instance.path),
        "cores": report.machine()["cores"],
        **{k: v for k, v in report.versions().items() if k in FIELDS},
    }
    summary["limit_inside"] = limit_inside
    summary["limit"] = "--time-limit" if limit_inside else "process ended from outside"
    return summary, [r.row for r in runs if r.row]


def run_bench(args: argparse.Namespace) -> int:
    """The `edge-bench` command."""
    from . import append_csv

    results = Path(args.results)
    backends = args.backend or list(BACKENDS)
    instances = shared_instances(Path(args.instances)) if not args.planted_only else []
    series = [(size, border_colours(size), args.interior_colours) for size in args.sizes]
    instances += planted_instances(series, args.seed, results / "edge-bench-boards")
    inside = dict.fromkeys(backends, True)  # False once the CLI refuses a time limit
    summaries: list[dict] = []
    stopped: set[str] = set()  # backends whose planted series has reached a time-out
    for instance in instances:
        for backend in backends:
            if instance.group == "planted" and backend in stopped:
                report.say(f"{instance.name} {backend}: not run (timed out on a smaller board)")
                continue
            limit = args.time_limit if instance.group == "planted" else args.instance_time_limit
            summary, rows = bench_instance(instance, backend, args.repeat, limit, inside[backend])
            inside[backend] = summary.pop("limit_inside")
            summaries.append(summary)
            if rows:
                append_csv(results / "bench.csv", rows)
            if summary["timed_out"] and instance.group == "planted":
                stopped.add(backend)
            write_summary(results, summaries, backends)  # after each, so a stop keeps them
    print(markdown(summaries, backends))
    report.say(f"wrote {results / 'edge-bench.csv'} and {results / 'edge-bench.md'}")
    charts.write_chart(results, "edge-bench.csv", report.say)
    return 0


def write_summary(results: Path, summaries: list[dict], backends: list[str]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(summaries)
    report.write_text_atomic(results / "edge-bench.csv", out.getvalue())
    report.write_text_atomic(results / "edge-bench.md", markdown(summaries, backends))


def markdown(summaries: list[dict], backends: list[str]) -> str:
    """A table per group: median seconds to find one solution, per backend."""
    if not summaries:
        return "No instances were run.\n"
    first = summaries[0]
    lines = [
        "# Edge-matching benchmark: seconds to find one solution (solve)",
        "",
        f"Median of up to {max(int(s['runs']) for s in summaries)} runs per backend, with a "
        "time limit per run (in each table's heading; a backend stops after its first time-out), "
        f"{first['cores']} cores, Python {first.get('python')}, OR-Tools {first.get('ortools')}, "
        f"python-sat {first.get('python-sat')}; {first['date']}. `>` marks a time-out; `-` not "
        "run (a planted series stops at a backend's first time-out). 1-minute load average "
        f"during the runs: {load_range(summaries)} (on {first['cores']} cores; above that, "
        "runs share the cores with other work). Each run is "
        "`puzzlesat bench --solve FILE --backend B --repeat 1` in its own process (its rows "
        "are also in bench.csv). † : the CLI refused a --time-limit for this backend, so it "
        "ran without one (in the main process) and was ended from outside; PySAT backends solve in "
        "a worker process when given a time limit, which adds its start-up to their times.",
        "",
    ]
    titles = {
        "clue": "Eternity II clue puzzles",
        "em": "Heule's em_R_B_C boards (R x R, B border colours, C interior colours)",
        "planted": "Planted boards (N x N, frame colour 0, B border and C interior colours, "
        "tiles shuffled and turned; `puzzlesat generate` makes them)",
    }
    by_key = {(s["instance"], s["backend"]): s for s in summaries}
    for group, title in titles.items():
        names = list(dict.fromkeys(s["instance"] for s in summaries if s["group"] == group))
        if not names:
            continue
        limits = sorted({float(s["time_limit"]) for s in summaries if s["group"] == group})
        limit_text = " or ".join(f"{x:g}" for x in limits)
        lines += [f"## {title}; time limit {limit_text} s per run", ""]
        if group in NOTES:
            lines += [NOTES[group], ""]
        lines += ["| instance | board | " + " | ".join(backends) + " |"]
        lines.append("|---|---|" + "---:|" * len(backends))
        for name in names:
            some = next(s for s in summaries if s["instance"] == name)
            cells = []
            for backend in backends:
                s = by_key.get((name, backend))
                if s is None:
                    cells.append("-")
                elif int(s["timed_out"]):
                    cells.append(f"> {float(s['time_limit']):g}")
                else:
                    cells.append(f"{float(s['median_seconds']):.2f}")
                if s is not None and s["limit"] != "--time-limit":
                    cells[-1] += " †"
            board = f"{some['rows']}x{some['cols']}"
            if some["interior_colours"] is not None:
                board += f", {some['border_colours']}+{some['interior_colours']} colours"
            lines.append(f"| {name} | {board} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


NOTES = {
    "em": "These files list the pieces in the order of a solution, unturned (as Heule's "
    "generator writes them): the reference solver, which tries tiles in file order, meets that "
    "solution early, so its times here flatter it; the planted boards below are shuffled and "
    "turned.",
}


def load_range(summaries: list[dict]) -> str:
    loads = [float(s["load"].split()[0]) for s in summaries if s.get("load")]
    return f"{min(loads):.1f} to {max(loads):.1f}" if loads else "unknown"


def run_generate(args: argparse.Namespace) -> int:
    """The `generate` command: write a planted board in the Eternity II benchmark format."""
    puzzle = planted.generate(args.size, args.border_colours, args.interior_colours, args.seed)
    report.write_text_atomic(args.output, planted.benchmark_text(puzzle))
    print(f"wrote {args.output}: {puzzle.title}")
    return 0


def extra_commands(subparsers) -> None:
    """`puzzlesat generate` and `puzzlesat edge-bench`."""
    generate = subparsers.add_parser(
        "generate", help="write a random N x N edge-matching board with a planted solution"
    )
    generate.add_argument("size", type=int, help="the board is SIZE x SIZE")
    generate.add_argument("--border-colours", type=int, default=5, help="(default 5)")
    generate.add_argument("--interior-colours", type=int, default=17, help="(default 17)")
    generate.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    generate.add_argument(
        "-o", "--output", required=True, help="the file to write (Eternity II benchmark format)"
    )
    generate.set_defaults(run=run_generate)

    bench = subparsers.add_parser(
        "edge-bench",
        help="time every backend solving the clue puzzles, em_* boards and planted boards",
    )
    bench.add_argument("--backend", action="append", help="repeat for several (default: all)")
    bench.add_argument(
        "--time-limit", type=float, default=60.0, help="per run on planted boards (default 60)"
    )
    bench.add_argument(
        "--instance-time-limit", type=float, default=30.0,
        help="per run on the clue and em_* instances (default 30)",
    )
    bench.add_argument("--repeat", type=int, default=3, help="runs per backend (default 3)")
    bench.add_argument(
        "--instances", default=INSTANCES, help=f"benchmark folder (default {INSTANCES})"
    )
    bench.add_argument("--planted-only", action="store_true", help="skip the benchmark folder")
    bench.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES),
        help="planted board sizes (default: " + " ".join(map(str, SIZES)) + ")",
    )
    bench.add_argument(
        "--interior-colours", type=int, default=INTERIOR_COLOURS,
        help=f"planted boards' interior colours (default {INTERIOR_COLOURS})",
    )
    bench.add_argument("--seed", type=int, default=1, help="planted boards' seed (default 1)")
    bench.add_argument("--results", default="results", help="results folder (default results)")
    bench.set_defaults(run=run_bench)


if __name__ == "__main__":  # for running without the family's hook: python -m ...edge_bench
    parser = argparse.ArgumentParser(prog="edge_bench")
    extra_commands(parser.add_subparsers(dest="command", required=True))
    parsed = parser.parse_args()
    try:
        sys.exit(parsed.run(parsed))
    except InputError as error:
        print(f"edge_bench: error: {error}", file=sys.stderr)
        sys.exit(2)
