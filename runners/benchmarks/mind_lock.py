"""Mind Lock's benchmark: the table (build, size, load, query) and the planners on a hardest
position, against the targets in targets.toml (issue 8's), figures as results/mind-lock-bench.json
holds them. The library side of `puzzlesat mind-lock bench`."""

from __future__ import annotations

import os
import random
import statistics
import time

from ..backends.table import forget
from ..families.mind_lock import DEFAULT_SEED, FAMILY, KIND, Say, distances
from ..families.moves import MovesTable
from ..models.errors import InputError
from ..models.mind_lock import POSITIONS, MindLockPuzzle, hex_code, notation, unrank
from ..models.words import plural
from ..planning import PlanError
from . import targets


def run(puzzle: MindLockPuzzle, repeat: int = 3, queries: int = 2000,
          backends: list[str] | None = None, workers: int = 2, time_limit: float | None = None,
          say: Say | None = None) -> dict:
    """Time the table build (search, pack, write), size, load, queries, and the planners on a
    hardest position, against targets.toml; the figures as results/mind-lock-bench.json holds.

    backends: planners to time (default: the ones verify runs); workers: CP-SAT's workers.
    """
    from ..backends.cpsat import CpsatBackend
    from ..output import machine, now, versions
    from ..registry import resolve

    say = say or (lambda message: None)
    for name, value, least in (("repeat", repeat, 1), ("queries", queries, 1),
                               ("workers", workers, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise InputError(f"must be a whole number of at least {least}, not {value!r}",
                             field=name)
    if queries > POSITIONS:
        raise InputError(f"at most {POSITIONS:,} (the positions), not {queries}",
                         field="queries")
    planners = []
    for name in backends or FAMILY.planners:
        chosen = resolve(name, KIND, "solve")
        if FAMILY.owns(chosen):  # the table
            raise InputError("the table is timed anyway; backends are the planners "
                             "(cpsat, pysat:NAME)", field="backend")
        if chosen.takes == "cpsat" and workers != chosen.workers:
            chosen = CpsatBackend(workers)
        planners.append(chosen)
    builds = []
    table_backend = FAMILY.table_backend()
    for _ in range(repeat):
        begin = time.perf_counter()
        found = table_backend.table(FAMILY.table_model(puzzle, keep_distances=True), fresh=True)
        builds.append(time.perf_counter() - begin)
    say(f"table build (search, pack, write): {', '.join(f'{s:.3f}' for s in builds)} s")
    path = found.report.path
    size = path.stat().st_size
    loads = []
    for _ in range(max(repeat, 5)):
        forget()
        begin = time.perf_counter()
        loaded = table_backend.table(FAMILY.table_model(puzzle))
        loads.append(time.perf_counter() - begin)
        if loaded.source != "cache":
            raise PlanError(f"the table just saved in {path} was not read back")
    table = MovesTable(FAMILY, puzzle, found)
    build, by_rank = found.build, distances(table)
    hardest = build.hardest
    chosen_ranks = random.Random(DEFAULT_SEED).sample(range(POSITIONS), queries)
    timed, hardest_timed = [], []
    for numbers, times in ((chosen_ranks, timed), (hardest, hardest_timed)):
        for number in numbers:
            position = unrank(number)
            begin = time.perf_counter()
            length = len(table.walk(position))
            times.append(time.perf_counter() - begin)
            if length != by_rank[number]:
                raise PlanError(f"the table walk from {notation(position)} has "
                                f"{plural(length, 'move')}, the search says {by_rank[number]}")
    say(f"query: median {statistics.median(timed) * 1e3:.3f} ms over {len(timed)} random "
        f"positions, {statistics.median(hardest_timed) * 1e3:.3f} ms on the hardest")
    target = unrank(hardest[0])
    figures: dict[str, dict] = {}
    for backend in planners:
        runs = [FAMILY.plan_by_search(puzzle, target, backend, time_limit)
                for _ in range(repeat)]
        times = [found.seconds for found in runs]
        figures[backend.name] = {
            "runs": [round(s, 3) for s in times],
            "median_seconds": round(statistics.median(times), 3),
            "complete": all(found.complete for found in runs),
            "length": len(runs[0].moves) if runs[0].complete else None,
        }
        say(f"{backend.name}: {', '.join(f'{s:.2f}' for s in times)} s, "
            + (f"{plural(figures[backend.name]['length'], 'move')}" if runs[0].complete
               else "incomplete (time limit)"))
    sat = {b: p for b, p in figures.items() if b.startswith("pysat:") and p["complete"]}
    best_sat = min(sat, key=lambda b: sat[b]["median_seconds"]) if sat else None
    build_median = statistics.median(builds)
    query_median = statistics.median(timed)
    cpsat = figures.get("cpsat", {})
    aim = targets()["mind-lock"]
    return {
        "puzzle": puzzle.name,
        "what": "Mind Lock benchmark: table build, size, query; optimal planning of a hardest "
                "position by iterative deepening",
        "positions": build.positions,
        "hardest_distance": build.gods_number,
        "table_build_seconds": {"median": round(build_median, 4),
                                "runs": [round(s, 4) for s in builds]},
        "table_bytes": size,
        "table_load_seconds": {"median": round(statistics.median(loads), 6)},
        "query_seconds": {
            "median": round(query_median, 6), "max": round(max(timed), 6),
            "queries": len(timed), "what": "random positions (seeded), table in memory",
            "hardest_median": round(statistics.median(hardest_timed), 6),
        },
        "planning_position": {"position": notation(target), "code": hex_code(target)},
        "planners": figures,
        "best_pysat": best_sat,
        "targets": {  # None: not measured in this run (no such planner timed)
            "table_build_at_most_2_s": build_median <= aim["table_build_seconds"],
            "table_at_most_25_KB": size <= aim["table_bytes"],
            "query_under_1_ms": query_median < aim["query_seconds"],
            "cpsat_at_most_10_s": None if not cpsat else (
                cpsat["complete"] and cpsat["median_seconds"] <= aim["cpsat_seconds"]),
            "best_pysat_at_most_10_s": None if not any(b.startswith("pysat:") for b in figures)
            else bool(best_sat) and sat[best_sat]["median_seconds"] <= aim["pysat_seconds"],
        },
        "repeat": repeat,
        "time_limit": time_limit,
        "load_average_1_5_15_min": [round(x, 2) for x in os.getloadavg()],
        "versions": versions(),
        "machine": machine(),
        "date": now(),
    }
