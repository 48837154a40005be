"""The sliding-block benchmark: God's algorithm on the largest catalog puzzle (time, positions
per second, peak memory), Klotski's optimal length in every metric, and on request the 10^8
search of targets.toml on the 3x4 instance beside this module. The library side of `puzzlesat
sliding bench`; figures as results/sliding-bench.json holds them.

Each timed search runs in a fresh process (spawned), so its peak resident memory is its own and
no table cache is read or written.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable
from importlib import resources

from ..families import sliding as family
from ..models import files
from ..models.errors import InputError
from ..models.sliding import KIND, METRICS
from . import targets

SCALE_INSTANCE = "tiles-3x4-two-pairs.toml"
Say = Callable[[str], None]


def scale_path() -> str:
    return str(resources.files(__package__) / SCALE_INSTANCE)


def _search_child(path: str, memory: int | None) -> dict:
    import resource
    import time

    from ..backends.table import run_search

    puzzle = files.load(path)
    begin = time.perf_counter()
    build = run_search(family.FAMILY.table_model(puzzle, memory))
    seconds = time.perf_counter() - begin
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"positions": build.positions, "gods_number": build.gods_number,
            "seconds": seconds, "peak_bytes": usage.ru_maxrss * 1024,
            "memory_estimate_bytes": build.bytes_estimated, "cpu_seconds": usage.ru_utime,
            "system_seconds": usage.ru_stime}


def timed_search(path: str, memory: int | None = None) -> dict:
    """One search of a puzzle file in a fresh child process: time, positions, peak memory."""
    from ..children import run_in_child

    _, found = run_in_child(_search_child, (path, memory), label="a timed search",
                            method="spawn")
    found["positions_per_second"] = round(found["positions"] / found["seconds"])
    return found


def largest_catalog_puzzle() -> str:
    """The catalog's sliding-block puzzle with the most positions (by the bound the memory
    estimate uses)."""
    from ..kernels.sliding import bound

    best, most = "", -1
    for name, path in files.catalog().items():
        puzzle = files.load(str(path))
        if puzzle.kind == KIND and bound(puzzle)[0] > most:
            best, most = name, bound(puzzle)[0]
    return best


def run(name: str | None = None, repeat: int = 3, memory: int | None = None,
        scale: bool = False, say: Say | None = None) -> dict:
    """Time the largest catalog search `repeat` times; Klotski in every metric; with `scale`,
    the 10^8 instance once."""
    from ..output import machine, now, versions

    say = say or (lambda message: None)
    if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
        raise InputError(f"must be a whole number of at least 1, not {repeat!r}",
                         field="repeat")
    name = name or largest_catalog_puzzle()
    path = str(files.catalog().get(name, name))
    runs = []
    for i in range(repeat):
        found = timed_search(path, memory)
        runs.append(found)
        say(f"{name}: run {i + 1}: {found['positions']:,} positions in {found['seconds']:.2f} s "
            f"({found['positions_per_second']:,}/s), peak {found['peak_bytes'] / 2**30:.2f} GiB")
    seconds = [r["seconds"] for r in runs]
    median = statistics.median(seconds)
    largest = {
        "puzzle": name,
        "metric": files.load(path).metric,
        "positions": runs[0]["positions"],
        "gods_number": runs[0]["gods_number"],
        "seconds": {"median": round(median, 3), "runs": [round(s, 3) for s in seconds]},
        "positions_per_second": round(runs[0]["positions"] / median),
        "peak_bytes": max(r["peak_bytes"] for r in runs),
        "memory_estimate_bytes": runs[0]["memory_estimate_bytes"],
    }
    klotski = files.load("klotski")
    metrics = {}
    for metric in METRICS:
        puzzle = family.FAMILY.at(klotski, metric=metric)
        found = family.FAMILY.table(puzzle, memory, fresh=True)
        metrics[metric] = {"start_moves": found.distance(puzzle.start),
                           "positions": found.build.positions,
                           "gods_number": found.build.gods_number,
                           "means": METRICS[metric]}
        say(f"klotski, {metric} metric: the start needs {metrics[metric]['start_moves']} moves")
    result = {
        "what": "God's algorithm on sliding-block puzzles: the largest catalog search timed "
                "(fresh process each run), Klotski's optimal length in every metric",
        "largest_catalog_search": largest,
        "klotski": {"published_start_moves": klotski.published.get("start_moves"),
                    "metric_of_the_published_figure": klotski.metric, "metrics": metrics},
        "repeat": repeat,
        "load_average_1_5_15_min": [round(x, 2) for x in os.getloadavg()],
        "compiled": family.engine.COMPILED,
        "versions": versions(),
        "machine": machine(),
        "date": now(),
    }
    if scale:
        aim = targets()["sliding"]
        say(f"the scale instance ({SCALE_INSTANCE}): one search, minutes")
        found = timed_search(scale_path(), memory)
        result["scale"] = {
            **found, "instance": SCALE_INSTANCE,
            "targets": {
                "positions_at_least": found["positions"] >= aim["scale_positions"],
                "seconds_at_most": found["seconds"] <= aim["scale_seconds"],
                "memory_at_most": found["peak_bytes"] <= aim["scale_memory_gib"] * 2**30},
            "target_values": aim,
        }
    return result


def lines(result: dict) -> list[str]:
    big = result["largest_catalog_search"]
    found = [
        f"{big['puzzle']} ({big['metric']} metric): {big['positions']:,} positions, God's "
        f"number {big['gods_number']}; median {big['seconds']['median']:.2f} s of "
        f"{len(big['seconds']['runs'])}, {big['positions_per_second']:,} positions/s, peak "
        f"{big['peak_bytes'] / 2**30:.2f} GiB (estimated "
        f"{big['memory_estimate_bytes'] / 2**30:.2f} GiB)",
    ]
    for metric, figures in result["klotski"]["metrics"].items():
        found.append(f"klotski, {metric} metric ({figures['means']}): the start needs "
                     f"{figures['start_moves']} moves; God's number {figures['gods_number']}")
    found.append(f"klotski published: {result['klotski']['published_start_moves']} moves in the "
                 f"{result['klotski']['metric_of_the_published_figure']} metric")
    if "scale" in result:
        s = result["scale"]
        said = {True: "met", False: "NOT met"}
        found.append(f"scale ({s['instance']}): {s['positions']:,} positions in "
                     f"{s['seconds']:.1f} s, {s['positions_per_second']:,}/s, peak "
                     f"{s['peak_bytes'] / 2**30:.2f} GiB; targets: " + ", ".join(
                         f"{k} {said[v]}" for k, v in s["targets"].items()))
    return found
