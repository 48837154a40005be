"""The best-board benchmark: every search on one puzzle under the same budget, side by side.

Each run is `best(puzzle, backend, time_limit, jobs, seed)`, one after another: the best score
it reached, when (seconds from its start), its history of better boards and why it stopped;
with `repeat` runs (seeds 1, 2, ...) the median, lowest and highest. The published one-hour and
one-minute figures for Eternity II (in the catalog's note) are set beside ours after the runs.

A full comparison can outlast a session (Eternity II: one hour per search, five searches), so
it is built to be run in pieces: where it records, each run is written (atomically) to
results/best-bench.json and .md as soon as it ends, and a later call with the same settings
(puzzle, search, budget, jobs, seed) leaves out the runs already recorded (`again` runs them
anew, replacing them). The table printed and recorded holds every run of those settings,
earlier ones included. A run stopped by Ctrl-C or SIGTERM is not recorded (it did not have its
budget) and stops the benchmark. Runs of another budget are kept beside. Each recorded run's
best board is kept beside the table (best-bench/NAME.board), so that a score in it can be
checked by `verify PUZZLE --board FILE`.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from .. import output as report
from ..models.errors import InputError
from ..models.words import plural

DEFAULT_PUZZLE = "eternity-ii"
DEFAULT_SEARCHES = ("edgesearch", "cpsat", "maxsat:lsu", "maxsat:rc2", "exec:sat4j")
TARGETS = {  # what the issue asks of Eternity II with the centre clue (published figures)
    ("eternity-ii", 3600.0, 2): "at least 461 (a 2012 metaheuristic's best in one hour)",
    ("eternity-ii", 60.0, 1): "451 (a re-implementation of the 2008 winner's method, at best)",
}
BOARDS = "best-bench"  # the folder, under the record folder, of the runs' best boards
KEY = ("puzzle", "backend", "time_limit", "jobs", "seed")
# What a search can show within a time limit on a board far from its proof (Eternity II: a
# WCNF of 475,467 variables and 1,252,545 hard clauses, 8 s to build; the CP-SAT model 9 s):
# said beside its row, so that a '-' is read for what it is.
ANYTIME = {  # search: (whether it runs on every core of --jobs, what it can show)
    "edgesearch": (True, "anytime: each better board as found; one search per core"),
    "cpsat": (True, "anytime: each better board as found; its workers on the cores as threads"),
    "maxsat:lsu": (False, "anytime: each model a better board; one core"),
    "maxsat:rc2": (False, "core-guided: no board before its proof of the optimum; one core"),
    "maxsat:rc2s": (False, "core-guided (stratified): no board before its proof; one core"),
    "maxsat:fm": (False, "core-guided (Fu-Malik): no board before its proof; one core"),
    "exec": (False, "its best model read when stopped (SIGTERM) a little before the limit; "
                    "one core"),
}


def traits(search: str) -> tuple[bool, str]:
    """ANYTIME's entry of a search, by its whole name or its kind (`exec:NAME`: exec)."""
    return (ANYTIME.get(search) or ANYTIME.get(search.partition(":")[0])
            or (False, ""))


def cores_used(search: str, jobs: int) -> int:
    """The cores a search uses of `jobs`: the MaxSAT solvers are sequential."""
    return jobs if traits(search)[0] else 1


def about(search: str) -> str:
    return traits(search)[1]


def key(row: dict) -> tuple:
    return tuple(float(row.get(k)) if k == "time_limit" and row.get(k) is not None
                 else row.get(k) for k in KEY)


def recorded(folder: Path | None) -> list[dict]:
    """The runs recorded in `folder` (none where nothing is, or nothing readable)."""
    if folder is None:
        return []
    path = folder / "best-bench.json"
    try:
        rows = json.loads(path.read_text())
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read the runs recorded: {error}", file=str(path)) from None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise InputError("not a list of recorded runs", file=str(path))
    return rows


def plan(puzzle: str, searches: list[str], time_limit: float, jobs: int, repeat: int,
         done: list[dict], again: bool) -> tuple[list[tuple[str, int]], list[dict]]:
    """The runs (search, seed) to make, and the recorded runs of the same settings kept
    instead (none with `again`)."""
    have = {key(r): r for r in done}
    todo, kept = [], []
    for search in searches:
        for seed in range(1, repeat + 1):
            earlier = have.get((puzzle, search, float(time_limit), jobs, seed))
            if earlier is not None and not again:
                kept.append(earlier)
            else:
                todo.append((search, seed))
    return todo, kept


def clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def board_name(puzzle: str, search: str, time_limit: float, jobs: int, seed: int) -> str:
    """The file a recorded run's best board is kept in, under the record folder."""
    return (f"{BOARDS}/{puzzle}-{search.replace(':', '-')}-{time_limit:g}s-{jobs}j-"
            f"seed{seed}.board")


def run(puzzle: str, todo: list[tuple[str, int]], time_limit: float, jobs: int,
        say: Callable[[str], None] = report.say,
        done: Callable[[dict], None] | None = None, folder: Path | None = None) -> list[dict]:
    """Make the runs `todo`, one after another; `done` is given each row as its run ends. A
    run interrupted (Ctrl-C, SIGTERM) stops them all: KeyboardInterrupt, the rows made so far
    handed to `done` already. With a record `folder`, each run's best board is kept there
    (`board_name`), so that `verify PUZZLE --board FILE` can count its seams again."""
    from ..api import _puzzle
    from ..best import best, write_board

    rows = []
    for search, seed in todo:
        start = time.perf_counter()
        found = best(puzzle, search, time_limit, jobs, seed=seed)
        if found.stopped == "interrupted":
            say(f"{search} seed {seed}: interrupted after {time.perf_counter() - start:,.1f} s "
                f"({found.sentence()}): not recorded; the benchmark stops here")
            raise KeyboardInterrupt
        row = {
            "puzzle": puzzle, "backend": search, "time_limit": time_limit, "jobs": jobs,
            "seed": seed, "cores_used": cores_used(search, jobs), "score": found.score,
            "most": found.most, "optimal": found.optimal,
            "at": found.history[-1][0] if found.history else None,
            "history": found.history, "seconds": round(time.perf_counter() - start, 1),
            "nodes_at_best": found.details.get("nodes"),  # the search that found it (edgesearch)
            "compile_seconds": found.details.get("compile_seconds"),  # before its clock
            "stopped": found.stopped, "date": report.now(), "load": report.load(),
            **report.versions()}
        if folder is not None and found.grid:
            name = board_name(puzzle, search, time_limit, jobs, seed)
            (folder / BOARDS).mkdir(parents=True, exist_ok=True)
            write_board(_puzzle(puzzle), str(folder / name), found)
            row["board"] = name
        rows.append(row)
        say(f"{search} seed {seed}: {found.sentence()}")
        if done is not None:
            done(row)
    return rows


def merged(old: list[dict], new: list[dict]) -> list[dict]:
    """Earlier runs kept unless a new run has the same puzzle, search, budget, jobs and seed."""
    fresh = {key(r) for r in new}
    return [r for r in old if key(r) not in fresh] + new


def markdown(rows: list[dict]) -> str:
    lines = ["# Best partial boards: every search side by side (`puzzlesat best-bench`)", "",
             "Score: matched seams (Eternity II: out of 480) of the best board a search found "
             "within the budget, every cell filled under the rules (frame, clues). Each cell: "
             "the median over seeds (lowest-highest, runs), and when the best board came "
             "(median seconds), with the nodes (tiles placed) the search that found it had made by "
             "then where it counts them (edgesearch: one of its processes). `-`: no board "
             "within the budget (why: the last column). Runs "
             "one after another, each on the machine named by its load (1, 5, 15-minute "
             "averages); the runs of one table may come from several calls (dates).", ""]
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["puzzle"], float(r["time_limit"]), r["jobs"]), []).append(r)
    for (puzzle, limit, jobs), mine in groups.items():
        searches = list(dict.fromkeys(r["backend"] for r in mine))
        target = TARGETS.get((puzzle, limit, jobs))
        lines += [f"## {puzzle}, {limit:g} s on {plural(jobs, 'core')}"
                  + (f" (target: {target})" if target else ""), "",
                  "| search | best score | found at (s) | its nodes by then | cores used | load | "
                  "date | stopped; what it can show |", "|---|---:|---:|---:|---:|---|---|---|"]
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
            last = runs[-1]
            cores = last.get("cores_used", cores_used(search, jobs))
            why = "; ".join(dict.fromkeys(r.get("stopped", "") for r in runs))
            counted = [r["nodes_at_best"] for r in runs if r.get("nodes_at_best")]
            nodes = f"{statistics.median(counted):,.0f}" if counted else "-"
            lines.append(f"| {search} | {cell} | {at} | {nodes} | {cores} | {last['load']} | "
                         f"{last['date'][:10]} | {why}; {about(search)} |")
        kept = [r["board"] for r in mine if r.get("board")]
        if kept:
            lines += ["", "Best boards (`puzzlesat verify " + puzzle + " --board FILE` counts "
                      "their seams again): " + ", ".join(f"[{b}]({b})" for b in kept) + "."]
        lines.append("")
    return "\n".join(lines)


def record(rows: list[dict], folder: Path) -> list[Path]:
    """Add `rows` to the runs recorded in `folder` (best-bench.json and .md, each written
    atomically), replacing runs of the same settings."""
    json_path, md_path = folder / "best-bench.json", folder / "best-bench.md"
    allrows = merged(recorded(folder), rows)
    report.write_text_atomic(json_path, json.dumps(allrows, indent=1) + "\n")
    report.write_text_atomic(md_path, markdown(allrows) + "\n")
    return [md_path, json_path]
