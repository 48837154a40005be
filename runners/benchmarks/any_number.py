"""Pieces in any number (issue 43, item 3): the catalog's tilings counted by the compiled
search, each timed `repeat` times (medians quoted), against the issue's targets.

The targets: pentominoes in any number on the 6x10 and monominoes, dominoes and trominoes on
the 8x8, each within 10 s wall on 2 cores; the L and straight trominoes on 9x12 within 60 s.
Each count is a whole `puzzlesat.count` (its plan, cubes, estimates and search) with
`--jobs 2` threads sharing one memo; the first call of a process compiles nothing (the search
is C built at install), but a warm-up count runs first all the same.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from ..models.words import plural

CASES = (  # catalog entry, the target (wall seconds on 2 cores)
    ("pentominoes-any-6x10", 10.0),
    ("mono-dom-trom-8x8", 10.0),
    ("trominoes-9x12", 60.0),
)


def run(repeat: int, jobs: int, say: Callable[[str], None]) -> list[dict]:
    """Each case counted `repeat` times: its count, the wall seconds of each run, the median."""
    import puzzlesat

    puzzlesat.count("domino-8x8", backend="bitboard", jobs=1)  # the kernel loaded, bytecode warm
    rows = []
    for name, target in CASES:
        seconds, number = [], None
        for _ in range(repeat):
            start = time.perf_counter()
            counted = puzzlesat.count(name, backend="bitboard", jobs=jobs)
            seconds.append(time.perf_counter() - start)
            number = counted.number
        median = statistics.median(seconds)
        rows.append({"puzzle": name, "count": number, "seconds": seconds, "median": median,
                     "target": target, "ratio": median / target})
        say(f"{name}: {plural(number, 'tiling')}; median {median:.2f} s of {repeat} "
            f"({', '.join(f'{s:.2f}' for s in seconds)}); target {target:.0f} s: "
            f"{median / target:.2f} of it")
    return rows


def table(rows: list[dict], jobs: int, load: str) -> str:
    lines = [f"# Pieces in any number: counted by the compiled search (`--jobs {jobs}`)", "",
             f"`puzzlesat bench any-number`; {load}. Medians of the wall seconds of whole "
             "counts; the target is the issue's (43, item 3).", "",
             "| puzzle | tilings | median s | runs (s) | target s | median / target |",
             "|---|---:|---:|---|---:|---:|"]
    for r in rows:
        runs = ", ".join(f"{s:.2f}" for s in r["seconds"])
        lines.append(f"| {r['puzzle']} | {r['count']:,} | {r['median']:.2f} | {runs} | "
                     f"{r['target']:.0f} | {r['ratio']:.2f} |")
    return "\n".join(lines) + "\n"


def bench_any_number(args) -> int:
    """`puzzlesat bench any-number`: time the three tilings; with --record (or --results
    DIR), write any-number-bench.md there."""
    import os

    from ..output import record_folder, write_text_atomic

    folder: Path | None = record_folder(args)
    jobs = args.jobs or 2
    rows = run(args.repeat, jobs, print)
    load = f"load average {os.getloadavg()[0]:.1f} at the end"
    if folder is not None:
        path = Path(folder) / "any-number-bench.md"
        write_text_atomic(path, table(rows, jobs, load), "the benchmark's table")
        print(f"wrote {path}")
    return 0 if all(r["ratio"] <= 1 for r in rows) else 1
