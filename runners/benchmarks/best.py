"""The best-board benchmark: every search on one puzzle under the same budget, side by side.

Each run is `best(puzzle, backend, time_limit, jobs, seed)`, one after another: the best score
it reached, when (seconds from its start), and its history of better boards; with `repeat`
runs (seeds 1, 2, ...) the median, lowest and highest. The published one-hour and one-minute
figures for Eternity II (in the catalog's note) are set beside ours after the runs. Recorded
runs accumulate in results/best-bench.json (a run of another budget is added beside, a run of
the same puzzle, search, budget and jobs replaces its earlier one), and results/best-bench.md
is written from all of them.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from .. import output as report

DEFAULT_PUZZLE = "eternity-ii"
DEFAULT_SEARCHES = ("edgesearch", "cpsat", "maxsat:lsu", "maxsat:rc2", "exec:sat4j")
TARGETS = {  # what the issue asks of Eternity II with the centre clue (published figures)
    ("eternity-ii", 3600.0, 2): "at least 461 (a 2012 metaheuristic's best in one hour)",
    ("eternity-ii", 60.0, 1): "451 (a re-implementation of the 2008 winner's method, at best)",
}


def run(puzzle: str, searches: list[str], time_limit: float, jobs: int, repeat: int,
        say: Callable[[str], None] = report.say) -> list[dict]:
    from ..best import best

    rows = []
    for search in searches:
        for k in range(repeat):
            start = time.perf_counter()
            found = best(puzzle, search, time_limit, jobs, seed=k + 1)
            rows.append({
                "puzzle": puzzle, "backend": search, "time_limit": time_limit, "jobs": jobs,
                "seed": k + 1, "score": found.score, "most": found.most,
                "optimal": found.optimal, "at": found.history[-1][0] if found.history else None,
                "history": found.history, "seconds": round(time.perf_counter() - start, 1),
                "stopped": found.stopped, "date": report.now(), "load": report.load(),
                **report.versions()})
            say(f"{search} seed {k + 1}: {found.sentence()}")
    return rows


def merged(old: list[dict], new: list[dict]) -> list[dict]:
    """Earlier runs kept unless a new run has the same puzzle, search, budget, jobs and seed."""
    key = ("puzzle", "backend", "time_limit", "jobs", "seed")
    fresh = {tuple(r[k] for k in key) for r in new}
    return [r for r in old if tuple(r.get(k) for k in key) not in fresh] + new


def markdown(rows: list[dict]) -> str:
    lines = ["# Best partial boards: every search side by side (`puzzlesat best-bench`)", "",
             "Score: matched seams (Eternity II: out of 480) of the best board a search found "
             "within the budget, every cell filled under the rules (frame, clues). Each cell: "
             "the median over seeds (lowest-highest, runs), and when the best board came "
             "(median seconds). `-`: no board within the budget. Runs one after another on "
             "the machine named by its load (1, 5, 15-minute averages).", ""]
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["puzzle"], r["time_limit"], r["jobs"]), []).append(r)
    for (puzzle, limit, jobs), mine in groups.items():
        searches = list(dict.fromkeys(r["backend"] for r in mine))
        target = TARGETS.get((puzzle, float(limit), jobs))
        lines += [f"## {puzzle}, {limit:g} s on {jobs} core{'s' * (jobs > 1)}"
                  + (f" (target: {target})" if target else ""), "",
                  "| search | best score | found at (s) | load | date |", "|---|---:|---:|---|---|"]
        for search in searches:
            runs = [r for r in mine if r["backend"] == search]
            scores = [r["score"] for r in runs if r["score"] is not None]
            times = [r["at"] for r in runs if r["at"] is not None]
            if scores:
                cell = f"{statistics.median(scores):g}"
                if len(runs) > 1:
                    cell += f" ({min(scores)}-{max(scores)}, {len(scores)}/{len(runs)})"
                if any(r["optimal"] for r in runs):
                    cell += ", proved best"
            else:
                cell = "-"
            at = f"{statistics.median(times):,.1f}" if times else "-"
            lines.append(f"| {search} | {cell} | {at} | {runs[-1]['load']} | "
                         f"{runs[-1]['date'][:10]} |")
        lines.append("")
    return "\n".join(lines)


def record(rows: list[dict], folder: Path) -> list[Path]:
    json_path, md_path = folder / "best-bench.json", folder / "best-bench.md"
    old = json.loads(json_path.read_text()) if json_path.exists() else []
    allrows = merged(old, rows)
    report.write_text_atomic(json_path, json.dumps(allrows, indent=1) + "\n")
    report.write_text_atomic(md_path, markdown(allrows) + "\n")
    return [md_path, json_path]
