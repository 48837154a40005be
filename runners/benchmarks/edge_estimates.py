"""`puzzlesat estimate` on an edge-matching board: how long edgecount's count (or, with
--solve, its solve in cubes) of the board will take, before starting it.

Two estimates of the same thing, the nodes of edgecount's search as the count runs it (its
measured fill order, its pinned corner tile or corner orbits: `EdgeMatching.cube_works`, the
engine's own cube plan, not a second one):
- Knuth's (1975) random paths down each part's search (`edgecount.estimate`), in batches of
  fresh seeds until a budget of CPU seconds is spent; cheap, and often off by a factor of several
  on these boards (Owen's 9x9 set 1: 1.7e13 estimated against nearer 9e13 seen in its cubes).
- Sampled cubes: N of the cubes the count (or the solve) splits the board into, drawn uniformly
  without replacement (seeded), each searched whole by the tile search; total = cubes x mean
  nodes is unbiased, its standard error that of a sample without replacement (0 where every
  cube is searched: the total is then the count's nodes exactly). A solve stops at its first
  grid, so for a solve the figure is the most its search can take.
Each time is the nodes at the nodes-a-CPU-second rate measured in the same run (the sampled
cubes' own rate for them; the tile search from the board's start for Knuth's figure).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ..models.words import plural

FIRST_PATHS = 50  # paths of the first batch a part; later batches sized to the budget left
RATE_NODES = 20_000_000  # nodes of the tile search timed for Knuth's figure (~0.3 s)


def cube_plan(puzzle, jobs: int, solve: bool) -> list:
    """The works edgecount's count of every grid (or its solve) on `jobs` splits the puzzle
    into."""
    from ..api import make_runner
    from ..registry import family_of, resolve

    backend = resolve("edgecount", puzzle.kind, "count")
    return family_of(puzzle).cube_works(puzzle, backend, make_runner(jobs, None, None, None,
                                                                      None), solve=solve)


def knuth(works: list, seconds: float, seed: int) -> dict:
    """Knuth's estimate of the nodes of the works' searches (each part from its start; a model
    whose first cells are the corners counts one layout per orbit of the board's turns, so its
    figure is divided by the orbits' size, as `measured_order` does)."""
    from ..backends.edgecount import estimate

    models = list({id(w.payload): w.payload for w in works}.values())
    sums = [[0.0, 0.0] for _ in models]  # per part: nodes, squares summed
    paths, batch, began = 0, FIRST_PATHS, time.process_time()
    while True:
        for model, total in zip(models, sums):
            _, nodes, _, error = estimate(model, (), batch, seed=seed + paths)
            sd2 = error ** 2 * batch  # the batch's variance (error = sd / sqrt(batch))
            total[0] += batch * nodes
            total[1] += batch * (sd2 + nodes ** 2)
        paths += batch
        spent = time.process_time() - began
        if spent >= seconds:
            break
        batch = max(FIRST_PATHS, int(paths * (seconds - spent) / max(spent, 1e-3)))
    nodes = variance = 0.0
    for model, (s, s2) in zip(models, sums):
        share = len(model.group) if model.prefix else 1
        mean = s / paths
        nodes += mean / share
        variance += max(0.0, s2 / paths - mean ** 2) / paths / share ** 2
    return {"paths": paths, "parts": len(models), "nodes": nodes,
            "nodes_standard_error": math.sqrt(variance),
            "cpu_seconds": round(time.process_time() - began, 2)}


def rate(works: list) -> float:
    """Nodes a CPU second of the tile search on the first part, from its start."""
    from ..backends.edgecount import Search

    search = Search(works[0].payload, ())
    began = time.process_time()
    search.run(RATE_NODES)
    return search.nodes / max(time.process_time() - began, 1e-6)


def sample(works: list, n: int, seed: int, jobs: int) -> dict:
    """n cubes of the works drawn uniformly without replacement (every cube where n is at
    least their number), each searched whole on `jobs` threads; an interrupt keeps the cubes
    finished, marked incomplete."""
    import numpy as np

    from ..backends.edgecount import SLICE, Search

    every = [(w.payload, cube) for w in works for cube in w.cubes]
    picked = np.random.default_rng(seed).choice(len(every), size=min(n, len(every)),
                                                replace=False)
    stop = threading.Event()

    def search(i: int) -> tuple[int, int] | None:
        found = Search(*every[i])
        while not found.run(SLICE):
            if stop.is_set():
                return None
        return found.nodes, found.found

    began, wall = time.process_time(), time.perf_counter()
    done: list[tuple[int, int]] = []
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(search, int(i)) for i in picked]
        try:
            for future in futures:
                if (got := future.result()) is not None:
                    done.append(got)
        except KeyboardInterrupt:
            stop.set()
            for future in futures:
                future.cancel()
    cpu = time.process_time() - began
    nodes = [x for x, _ in done]
    cubes, k = len(every), len(nodes)
    mean = sum(nodes) / k if k else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in nodes) / (k - 1)) if k > 1 else 0.0
    error = cubes * sd / math.sqrt(k) * math.sqrt(1 - k / cubes) if k else 0.0
    return {"cubes": cubes, "sampled": k, "asked": n, "complete": k == len(picked),
            "nodes": cubes * mean, "nodes_standard_error": error,
            "smallest": min(nodes, default=0), "largest": max(nodes, default=0),
            "nodes_searched": sum(nodes), "cubes_with_grids": sum(1 for _, g in done if g),
            "cpu_seconds": round(cpu, 2), "wall_seconds": round(time.perf_counter() - wall, 2),
            "nodes_per_cpu_second": sum(nodes) / cpu if cpu > 0 else 0.0, "jobs": jobs}


def estimate_edge_board(puzzle, seconds: float = 2.0, seed: int = 1,
                        sample_cubes: int | None = None, solve: bool = False, jobs: int = 1,
                        say: Callable[[str], None] = lambda _: None) -> dict:
    """Knuth's estimate of edgecount's search of the board as its count (or solve) runs it,
    and with `sample_cubes` N the estimate from N of its cubes searched whole."""
    from ..backends import edgecount

    edgecount.warm_up()
    began = time.process_time()
    works = cube_plan(puzzle, jobs, solve)
    row: dict = {"puzzle": puzzle.name, "task": "solve" if solve else "count", "jobs": jobs,
                 "order": works[0].payload.order, "plan": [w.label for w in works],
                 "cubes": sum(len(w.cubes) for w in works),
                 "plan_cpu_seconds": round(time.process_time() - began, 2)}
    row["knuth"] = knuth(works, seconds, seed)
    row["knuth"]["nodes_per_cpu_second"] = rate(works)
    say(knuth_line(row))
    if sample_cubes is not None:
        row["sampled"] = sample(works, sample_cubes, seed, jobs)
        say(sample_line(row))
    return row


def _time(cpu: float) -> str:
    from .estimates import _hours

    return f"{_hours(cpu / 3600)} of CPU"


def _plan(row: dict) -> str:
    pinned = [label.split(", ", 1)[1] for label in row["plan"] if ", " in label]
    how = ("corner tile pinned: " + "; ".join(pinned)) if pinned else "as the count plans it"
    return f"order {row['order']}, {how}"


def knuth_line(row: dict) -> str:
    k = row["knuth"]
    r = k["nodes_per_cpu_second"]
    return (f"{row['puzzle']}: Knuth's estimate {k['nodes']:.3g} ± "
            f"{k['nodes_standard_error']:.2g} nodes of edgecount's search ({_plan(row)}; "
            f"{plural(k['paths'], 'path')} a part, {k['cpu_seconds']:.1f} CPU s); at {r / 1e6:.1f} "
            f"M nodes a CPU second (measured now) a {row['task']} takes ~{_time(k['nodes'] / r)}"
            + (" at most (it stops at its first grid)" if row["task"] == "solve" else ""))


def sample_line(row: dict) -> str:
    s = row["sampled"]
    r = s["nodes_per_cpu_second"]
    cpu = s["nodes"] / r if r else 0.0
    state = "" if s["complete"] else f" INCOMPLETE (interrupted: {s['sampled']} of {s['asked']})"
    total = (f"every cube: total {plural(s['nodes_searched'], 'node')}, exactly"
             if s["sampled"] == s["cubes"] else f"total ~ {s['nodes']:.4g} ± "
             f"{s['nodes_standard_error']:.2g} nodes (cubes x mean, one standard error)")
    return (f"{row['puzzle']}: {s['sampled']:,} of the {row['task']}'s "
            f"{plural(s['cubes'], 'cube')} "
            f"searched whole (drawn uniformly, seeded){state}: {total}; cubes from "
            f"{s['smallest']:,} to {plural(s['largest'], 'node')}, {s['cubes_with_grids']} with "
            f"grids; {plural(s['nodes_searched'], 'node')} in {s['cpu_seconds']:.1f} CPU s "
            f"({r / 1e6:.1f} M/s, {s['jobs']} thread(s)): the {row['task']} ~{_time(cpu)}"
            + (" at most" if row["task"] == "solve" else ""))
