"""Nodes and CPU seconds of the bitboard search (issue 39's anchor and its C kernel's table).

`python -m puzzlesat.benchmarks.bitboard_nodes NAME MODULO BACKEND [REPEATS]`: the count plan's
cubes (min 8 cubes, as the tests cut it) each counted in this process on one thread by the
backend's own count_cube (estimates, branching choice, memo, as `count --jobs 1` does); one
warm-up run, then REPEATS timed runs (time.process_time around the cubes' counts only, a fresh
memo each run). Slices are a fixed 200,000 nodes here (a count sizes them by the clock, and the
memo grows between slices, so a memoised count's nodes would vary run to run). Prints one JSON
line: count, nodes, memo hits, the CPU seconds of each run.
"""

import json
import sys
import time

from puzzlesat.backends import bitboard
from puzzlesat.models.files import load
from puzzlesat.models.packing.plan import count_plan
from puzzlesat.registry import family_of, resolve


class FixedSlices:
    """Slices of a fixed budget (the memo grows at the same nodes every run)."""

    def __init__(self, first: int, seconds: float = 0.0) -> None:
        self.nodes = first

    def next(self) -> int:
        return self.nodes


def main() -> None:
    bitboard.Slices = FixedSlices
    name, modulo, backend_name = sys.argv[1:4]
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    puzzle = load(name)
    family = family_of(puzzle)
    backend = resolve(backend_name, "packing", "count")
    plan = count_plan(puzzle, modulo, min_cubes=8)
    payloads = [backend.payload(family.encode(puzzle, backend, task.options))
                for task in plan.tasks]
    runs = []
    for _ in range(repeats + 1):
        nodes, hits = bitboard.nodes_searched(), bitboard.memo_hits()
        values = []
        cpu = time.process_time()
        for task, payload in zip(plan.tasks, payloads):
            state = backend.prepare(payload)
            values.append([backend.count_cube(state, cube, None)[0][0] for cube in task.cubes])
        cpu = time.process_time() - cpu
        solutions, classes = plan.combine(values)
        runs.append({"cpu": round(cpu, 3), "nodes": bitboard.nodes_searched() - nodes,
                     "hits": bitboard.memo_hits() - hits, "solutions": solutions,
                     "classes": classes})
    timed = runs[1:]
    if "-v" in sys.argv:
        print(runs)
    assert all(r["nodes"] == timed[0]["nodes"] and r["solutions"] == timed[0]["solutions"]
               for r in runs)
    cpus = sorted(r["cpu"] for r in timed)
    print(json.dumps({"puzzle": name, "modulo": modulo, "backend": backend_name,
                      "solutions": timed[0]["solutions"], "classes": timed[0]["classes"],
                      "nodes": timed[0]["nodes"], "hits": timed[0]["hits"], "cpu": cpus,
                      "median_cpu": cpus[len(cpus) // 2],
                      "nodes_per_cpu_s": round(timed[0]["nodes"] / cpus[len(cpus) // 2])}))


if __name__ == "__main__":
    main()
