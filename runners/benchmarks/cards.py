"""The cards search timed (issue 26's target: IQ Block with ten pieces in at most 10 minutes on
2 cores), beside its anchor measured in the same run: counting the puzzle's solutions on the
default backend, the least any exact method does (every solution must be seen). The library
side of `puzzlesat cards-bench`; figures in results/cards-bench.json and .md."""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ..children import cpu_seconds
from ..models.words import plural
from . import targets, whole

Say = Callable[[str], None]


def _timed(work: Callable[[], object]) -> tuple[object, float, float]:
    """What the work returns, its wall seconds and the CPU seconds of this process and its
    children (workers of a count)."""
    wall, used = time.perf_counter(), cpu_seconds()
    found = work()
    return found, time.perf_counter() - wall, cpu_seconds() - used


def bench(puzzles: list[str], repeat: int, results: Path | None, say: Say) -> list[str]:
    """Time `repeat` runs of the cards search of each puzzle (listing, sets, classes; no
    checks) and of the anchor count, then one run with the checks and the per-solution figures;
    record results/cards-bench.json and .md in `results` (None: none); the lines to print."""
    from .. import api, output
    from ..cards import minimal_cards

    target = targets()["cards"]
    rows = []
    for name in puzzles:
        puzzle = api.load(name)
        runs, anchors = [], []
        for n in range(repeat):
            count, wall, cpu = _timed(lambda puzzle=puzzle: whole(api.count(puzzle)))
            anchors.append((wall, cpu))
            found, wall, cpu = _timed(partial(minimal_cards, puzzle, checks=0))
            runs.append((wall, cpu, found.seconds))
            say(f"{name}: run {n + 1}: cards {wall:.1f} s ({cpu:.1f} s CPU), count "
                f"{anchors[-1][0]:.1f} s (load {output.load()})")
        checked, check_wall, check_cpu = _timed(
            partial(minimal_cards, puzzle, checks=10, per_solution=True))
        wall = statistics.median(r[0] for r in runs)
        anchor = statistics.median(a[0] for a in anchors)
        phases = {key: round(statistics.median(r[2][key] for r in runs), 2)
                  for key in runs[0][2]}
        rows.append({
            "puzzle": name, "solutions": found.solutions, "least": found.least,
            "labelled": found.labelled, "classes": found.classes, "runs": repeat,
            "median_seconds": round(wall, 2),
            "median_cpu_seconds": round(statistics.median(r[1] for r in runs), 2),
            "phases_seconds": phases,
            "anchor": f"count {name} on {count.backend} (every solution counted)",
            "anchor_median_seconds": round(anchor, 2),
            "ratio_to_anchor": round(wall / anchor, 1),
            "with_checks_seconds": round(check_wall, 2),
            "with_checks_cpu_seconds": round(check_cpu, 2),
            "checks": checked.checks, "per_solution": checked.per_solution,
            "target_seconds": target["seconds"] if name == target["puzzle"] else None,
            "met": wall <= target["seconds"] if name == target["puzzle"] else None,
        })
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB -> GiB
    result = {"date": output.now(), "load": output.load(), "cores": os.cpu_count(),
              "peak_memory_gib": round(peak, 2), "versions": output.versions(), "rows": rows}
    lines = [
        "# The cards search timed", "",
        "Written by `puzzlesat cards-bench`; do not edit by hand. Each run lists every "
        "solution, counts the sets of placements held by one solution and finds the classes "
        "of the least cards (no checks); the anchor, timed in the same run, counts the "
        "puzzle's solutions on the default backend. Medians of "
        f"{plural(repeat, 'run')}; a run with the checks and the per-solution figures once. Load "
        f"{result['load']} on {plural(result['cores'], 'core')}; peak memory "
        f"{result['peak_memory_gib']} GiB.", "",
        "| puzzle | solutions | least | cards (labelled / classes) | seconds (CPU) | phases | "
        "anchor s | ratio | with checks s | target |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    for r in rows:
        phases = ", ".join(f"{k} {v}" for k, v in r["phases_seconds"].items())
        met = ("-" if r["met"] is None else
               f"{r['target_seconds']} s: {'met' if r['met'] else 'NOT met'}")
        lines.append(f"| {r['puzzle']} | {r['solutions']:,} | {r['least']} | "
                     f"{r['labelled']:,} / {r['classes']:,} | {r['median_seconds']} "
                     f"({r['median_cpu_seconds']}) | {phases} | {r['anchor_median_seconds']} | "
                     f"{r['ratio_to_anchor']} | {r['with_checks_seconds']} | {met} |")
    if results is None:  # asked not to record
        return lines[-len(rows):]
    output.write_json_atomic(results / "cards-bench.json", result, "results")
    output.write_text_atomic(results / "cards-bench.md", "\n".join(lines) + "\n", "results")
    output.write_results_index(results)
    return lines[-len(rows):] + [f"wrote {results / 'cards-bench.json'} and .md"]

