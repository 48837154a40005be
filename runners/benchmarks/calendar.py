"""The calendar table timed (issue 41's target: every date of A-Puzzle-A-Day, both rules, in at
most 60 s on 2 cores), beside its anchor measured in the same run: the same dates counted one
by one as plain packing puzzles (`api.count` of each date's board, its placements built
afresh), on a sample of the dates, whose time per date is scaled to every date. The library
side of `puzzlesat bench calendar`; figures in results/calendar-bench.json and .md."""

from __future__ import annotations

import dataclasses
import os
import statistics
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ..models.words import plural
from . import targets, whole
from .cards import _timed

Say = Callable[[str], None]
SAMPLE_EVERY = 12  # the anchor counts every twelfth date (31 of A-Puzzle-A-Day's 366)


def one_by_one(puzzle, sample: list, jobs: int | None) -> list[int]:
    """The anchor: each date of the sample counted as a plain packing puzzle, both rules."""
    from .. import api
    from ..models.packing.calendar import on_date

    return [whole(api.count(on_date(dataclasses.replace(puzzle, flip=flip), date),
                            jobs=jobs)).number for date in sample for flip in (True, False)]


def bench(puzzles: list[str], repeat: int, jobs: int | None, results: Path | None,
          say: Say) -> list[str]:
    """Time `repeat` whole tables of each calendar puzzle and the anchor once per run; record
    results/calendar-bench.json and .md in `results` (None: none); the lines to print."""
    from .. import api, output
    from ..calendar import calendar
    from ..models.packing.calendar import dates

    target = targets()["calendar"]
    rows = []
    for name in puzzles:
        puzzle = api.load(name)
        every = dates(puzzle)
        sample = every[::SAMPLE_EVERY]
        runs, anchors = [], []
        for n in range(repeat):
            table, wall, cpu = _timed(partial(calendar, puzzle, jobs=jobs))
            if not table.complete:
                raise KeyboardInterrupt  # stopped: never timed as a whole table
            runs.append((wall, cpu))
            _, anchor_wall, anchor_cpu = _timed(partial(one_by_one, puzzle, sample, jobs))
            anchors.append((anchor_wall, anchor_cpu))
            say(f"{name}: run {n + 1}: every date {wall:.2f} s ({cpu:.2f} s CPU); the anchor's "
                f"{plural(len(sample), 'date')} one by one {anchor_wall:.2f} s (load "
                f"{output.load()})")
        wall = statistics.median(r[0] for r in runs)
        per_date = statistics.median(a[0] for a in anchors) / len(sample)
        anchor = per_date * len(every)
        extremes = table.extremes()
        rows.append({
            "puzzle": name, "dates": len(every), "rules": 2,
            "solutions": sum(table.dates.values()), "face_up": sum(table.face_up.values()),
            "hardest": extremes["hardest"], "fewest": extremes["fewest"],
            "backend": table.backend, "jobs": table.jobs, "runs": repeat,
            "median_seconds": round(wall, 2),
            "median_cpu_seconds": round(statistics.median(r[1] for r in runs), 2),
            "anchor": f"each date counted as a plain packing puzzle (api.count, jobs {jobs}), "
                      f"{plural(len(sample), 'date')} of {len(every)} timed, both rules, scaled to "
                      "every date",
            "anchor_seconds_per_date": round(per_date, 3),
            "anchor_seconds_scaled": round(anchor, 1),
            "ratio_to_anchor": round(wall / anchor, 3),
            "target_seconds": target["seconds"] if name == target["puzzle"] else None,
            "met": wall <= target["seconds"] if name == target["puzzle"] else None,
        })
    result = {"date": output.now(), "load": output.load(), "cores": os.cpu_count(),
              "versions": output.versions(), "rows": rows}
    lines = [
        "# The calendar table timed", "",
        "Written by `puzzlesat bench calendar`; do not edit by hand. Each run counts "
        "every date of the calendar twice (pieces turned over, and face up) as one count: the "
        "whole board's placements built once, each date a cube of them. The anchor, timed in "
        "the same run, counts every "
        f"{SAMPLE_EVERY}th date as a plain packing puzzle, both rules, and is scaled to every "
        f"date. Medians of {plural(repeat, 'run')}. Load {result['load']} on "
        f"{plural(result['cores'], 'core')}.", "",
        "| puzzle | dates | solutions (face up) | hardest | backend, jobs | seconds (CPU) | "
        "anchor s/date | anchor scaled s | ratio | target |",
        "|---|---:|---:|---|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        met = ("-" if r["met"] is None else
               f"{r['target_seconds']} s: {'met' if r['met'] else 'NOT met'}")
        lines.append(f"| {r['puzzle']} | {r['dates']:,} | {r['solutions']:,} "
                     f"({r['face_up']:,}) | {', '.join(r['hardest'][:3])} ({r['fewest']}) | "
                     f"{r['backend']}, {r['jobs']} | {r['median_seconds']} "
                     f"({r['median_cpu_seconds']}) | {r['anchor_seconds_per_date']} | "
                     f"{r['anchor_seconds_scaled']} | {r['ratio_to_anchor']} | {met} |")
    if results is None:  # asked not to record
        return lines[-len(rows):]
    output.write_json_atomic(results / "calendar-bench.json", result, "results")
    output.write_text_atomic(results / "calendar-bench.md", "\n".join(lines) + "\n", "results")
    output.write_results_index(results)
    return lines[-len(rows):] + [f"wrote {results / 'calendar-bench.json'} and .md"]
