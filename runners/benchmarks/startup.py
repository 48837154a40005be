"""Where a whole `puzzlesat count` process spends its time, stage by stage, in a fresh process.

`python -m puzzlesat.benchmarks.startup PUZZLE MODULO JOBS [BACKEND]` (run by `bench --anchor xcover
--startup`, never by hand): a fresh interpreter that makes, one after the other and each timed
on its own (wall and process CPU, every thread), the steps `puzzlesat count PUZZLE [--backend
BACKEND]` makes: the command line's modules, numpy, the backend's module, the load of its
compiled kernel (a C extension built at install), the puzzle read, the count plan, the encoding, and
the search over the plan's cubes on JOBS threads through the count's own runner. The stages are
measured here, around the library's calls, so the search itself carries no timing code. Prints
one JSON object (the stages, the answer, the clock when this module began) and leaves by
`os._exit`, as the command line does. Nothing heavier than the standard library is imported
before its stage's clock starts.
"""

from __future__ import annotations

import json
import os
import sys
import time

BEGAN = time.time()  # the wall clock as this module began (the parent subtracts its own start)
BEGAN_CPU = time.process_time()  # CPU of the interpreter's start: Python, site, the package


def stages(name: str, modulo: str, jobs: int, backend_name: str | None = None) -> dict:
    """Each stage's wall and CPU seconds, in order, and the count's answer."""
    timed: list[dict] = [{"stage": "interpreter start (Python, site, the puzzlesat package)",
                          "wall": None, "cpu": BEGAN_CPU}]

    def step(stage: str, work):
        start, cpu = time.perf_counter(), time.process_time()
        value = work()
        timed.append({"stage": stage, "wall": time.perf_counter() - start,
                      "cpu": time.process_time() - cpu})
        return value

    def imported(module: str):
        return lambda: __import__(module, fromlist=["_"])

    step("puzzlesat's command line imported (puzzlesat.cli)", imported("puzzlesat.cli"))
    step("numpy imported", imported("numpy"))
    from puzzlesat.registry import resolve  # (imported with the command line)

    backend = step("the backend resolved (its module imported)",
                   lambda: resolve(backend_name, "packing", "count"))
    kernels = sys.modules[type(backend).__module__]
    step("the compiled kernel loaded (warm_up)", kernels.warm_up)
    from puzzlesat.api import make_runner
    from puzzlesat.checkpoint import digest
    from puzzlesat.executors import Work
    from puzzlesat.models.files import load
    from puzzlesat.models.packing.plan import count_plan
    from puzzlesat.models.words import plural
    from puzzlesat.registry import family_of

    puzzle = step("the puzzle read (its file, its family)", lambda: load(name))
    family = family_of(puzzle)
    runner = make_runner(jobs, None, None, None)
    key = {"puzzle": puzzle.name, "data": digest(puzzle), "modulo": modulo,
           "backend": backend.name, "encoding": None}
    plan = step("the count plan (symmetry, cubes)", lambda: count_plan(
        puzzle, modulo, min_cubes=runner.cubes_wanted(key, backend.cubes_per_job)))

    def encoded() -> list:
        works = []
        for task in plan.tasks:
            payload = backend.payload(family.encode(puzzle, backend, task.options))
            works.append(Work(task.label, backend.name, payload, task.cubes, task.weights,
                              backend.stops_itself, shown=not works))
        return works

    works = step("the encoding (exact cover, the search's payload)", encoded)
    tallies = step(f"the search: every cube on {plural(jobs, 'thread')}",
                   lambda: runner.run(works, key))
    solutions, classes = plan.combine([[v[0] for v in t.values] for t in tallies])
    return {"began": BEGAN, "stages": timed, "solutions": solutions, "classes": classes,
            "complete": all(t.complete for t in tallies)}


if __name__ == "__main__":
    name, modulo, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print(json.dumps(stages(name, modulo, jobs, (sys.argv[4:] or [None])[0])), flush=True)
    os._exit(0)  # as `puzzlesat count` leaves (runners/cli: command)
