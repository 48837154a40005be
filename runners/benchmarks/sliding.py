"""The sliding-block benchmark: God's algorithm on a large catalog puzzle (time, positions per
second, peak memory), Klotski's optimal length in every metric, and on request the 10^8 search
of targets.toml on the 3x4 instance beside this module; the library side of `puzzlesat sliding
bench` (figures as results/sliding-bench.json holds them). `run_tiles` is `sliding bench
--tiles`: the 3x4 and 2x6 sliding-tile puzzles searched whole from the solved position, each
beside the plain C search tiles_bfs.c (built here where a C compiler is present), figures as
results/sliding-tiles-bench.json holds them.

Each timed search runs in a fresh process (spawned), so its peak resident memory is its own and
no table cache is read or written.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from ..families import sliding as family
from ..models import files
from ..models.errors import InputError
from ..models.sliding import METRICS
from ..models.words import plural
from . import build_c, targets

SCALE_INSTANCE = "tiles-3x4-two-pairs.toml"
DEFAULT_PUZZLE = "klotski-l-pieces"  # the largest catalog search that takes a minute, not ten
TILES = (("tiles-3x4", 3, 4), ("tiles-2x6", 2, 6))  # catalog name, rows, columns
ANCHOR_SOURCE = Path(__file__).with_name("tiles_bfs.c")
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
            "distance_counts": build.distance_counts,
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


def run(name: str | None = None, repeat: int = 3, memory: int | None = None,
        scale: bool = False, say: Say | None = None) -> dict:
    """Time the largest catalog search `repeat` times; Klotski in every metric; with `scale`,
    the 10^8 instance once."""
    from ..output import machine, now, versions

    say = say or (lambda message: None)
    if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
        raise InputError(f"must be a whole number of at least 1, not {repeat!r}",
                         field="repeat")
    name = name or DEFAULT_PUZZLE
    path = str(files.catalog().get(name, name))
    runs = []
    for i in range(repeat):
        found = timed_search(path, memory)
        runs.append(found)
        say(f"{name}: run {i + 1}: {plural(found['positions'], 'position')} in "
            f"{found['seconds']:.2f} s "
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
        say(f"klotski, {metric} metric: the start needs "
            f"{plural(metrics[metric]['start_moves'], 'move')}")
    result = {
        "what": "God's algorithm on sliding-block puzzles: a large catalog search timed "
                "(fresh process each run), Klotski's optimal length in every metric",
        "largest_catalog_search": largest,
        "klotski": {"published_start_moves": klotski.published.get("start_moves"),
                    "metric_of_the_published_figure": klotski.metric, "metrics": metrics},
        "repeat": repeat,
        "load_average_1_5_15_min": [round(x, 2) for x in os.getloadavg()],
        "compiled": True,  # the C kernels (puzzlesat._moves)
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
        f"{big['puzzle']} ({big['metric']} metric): {plural(big['positions'], 'position')}, God's "
        f"number {big['gods_number']}; median {big['seconds']['median']:.2f} s of "
        f"{len(big['seconds']['runs'])}, {plural(big['positions_per_second'], 'position')}/s, peak "
        f"{big['peak_bytes'] / 2**30:.2f} GiB (estimated "
        f"{big['memory_estimate_bytes'] / 2**30:.2f} GiB)",
    ]
    for metric, figures in result["klotski"]["metrics"].items():
        found.append(f"klotski, {metric} metric ({figures['means']}): the start needs "
                     f"{plural(figures['start_moves'], 'move')}; God's number "
                     f"{figures['gods_number']}")
    found.append(f"klotski published: {plural(result['klotski']['published_start_moves'], 'move')} "
                 f"in the {result['klotski']['metric_of_the_published_figure']} metric")
    if "scale" in result:
        s = result["scale"]
        said = {True: "met", False: "NOT met"}
        found.append(f"scale ({s['instance']}): {plural(s['positions'], 'position')} in "
                     f"{s['seconds']:.1f} s, {s['positions_per_second']:,}/s, peak "
                     f"{s['peak_bytes'] / 2**30:.2f} GiB; targets: " + ", ".join(
                         f"{k} {said[v]}" for k, v in s["targets"].items()))
    return found


# ---------------------------------------------------------------- the sliding-tile puzzles


def build_anchor(folder: Path) -> Path | None:
    """Compile tiles_bfs.c into `folder`; None where there is no C compiler."""
    return build_c(ANCHOR_SOURCE, folder)


def run_anchor(binary: Path, rows: int, columns: int) -> dict:
    """The plain C search of a rows x columns tile puzzle: its figures."""
    words = subprocess.run([str(binary), str(rows), str(columns)], capture_output=True,
                           text=True, check=True).stdout.split()
    positions, gods, seconds, peak = int(words[0]), int(words[1]), float(words[2]), int(words[3])
    return {"positions": positions, "gods_number": gods, "seconds": seconds,
            "peak_bytes": peak * 1024, "distance_counts": [int(w) for w in words[4:]],
            "positions_per_second": round(positions / seconds), "threads": 1}


def run_tiles(say: Say | None = None, anchor: bool = True) -> dict:
    """The 3x4 and 2x6 sliding-tile puzzles searched whole from the solved position, one run
    each (minutes), each beside the plain C search of the same puzzle (where a compiler is
    present and `anchor`), against targets.toml's [sliding-tiles]."""
    from ..executors import cores
    from ..output import machine, now, versions

    say = say or (lambda message: None)
    aim = targets()["sliding-tiles"]
    found: dict = {}
    with tempfile.TemporaryDirectory(prefix="puzzlesat-tiles-") as folder:
        binary = build_anchor(Path(folder)) if anchor else None
        if anchor and binary is None:
            say("no C compiler (cc, gcc): the plain compiled search is not run")
        for name, rows, columns in TILES:
            puzzle = files.load(name)
            say(f"{name}: God's algorithm over every position (minutes)")
            ours = timed_search(str(files.catalog()[name]))
            ours["threads"] = cores()
            ours["cpu_seconds"] = round(ours["cpu_seconds"], 3)
            entry: dict = {"ours": ours, "published": puzzle.published}
            say(f"{name}: {plural(ours['positions'], 'position')}, God's number "
                f"{ours['gods_number']}, "
                f"{ours['seconds']:.1f} s ({ours['positions_per_second']:,}/s on "
                f"{plural(ours['threads'], 'thread')}), peak {ours['peak_bytes'] / 2**30:.2f} GiB")
            if binary is not None:
                plain = run_anchor(binary, rows, columns)
                entry["anchor"] = plain
                entry["anchor_agrees"] = (plain["distance_counts"] == ours["distance_counts"])
                entry["speed_ratio"] = round(ours["positions_per_second"]
                                             / plain["positions_per_second"], 3)
                say(f"{name}, plain C search: {plural(plain['positions'], 'position')} in "
                    f"{plain['seconds']:.1f} s ({plain['positions_per_second']:,}/s, one "
                    f"thread), peak {plain['peak_bytes'] / 2**30:.2f} GiB; ours/plain "
                    f"{entry['speed_ratio']:.2f}")
            entry["published_agrees"] = {k: puzzle.published[k] == ours[k]
                                         for k in ("positions", "gods_number")
                                         if k in puzzle.published}
            entry["targets"] = {
                "seconds_at_most": ours["seconds"] <= aim["seconds"],
                "memory_at_most": ours["peak_bytes"] <= aim["memory_gib"] * 2**30}
            found[name] = entry
    return {"what": "the 3x4 and 2x6 sliding-tile puzzles: God's algorithm over all 12!/2 "
                    "positions from the solved one, beside a plain C breadth-first search of "
                    "the same puzzle (tiles_bfs.c: Lehmer-code rank, a byte a position, one "
                    "thread)",
            "puzzles": found, "target_values": aim,
            "load_average_1_5_15_min": [round(x, 2) for x in os.getloadavg()],
            "compiled": True, "versions": versions(), "machine": machine(),
            "date": now()}


def tiles_lines(result: dict) -> list[str]:
    said = {True: "met", False: "NOT met"}
    lines = []
    for name, entry in result["puzzles"].items():
        ours = entry["ours"]
        lines.append(f"{name}: {plural(ours['positions'], 'position')}, God's number "
                     f"{ours['gods_number']} in {ours['seconds']:.1f} s "
                     f"({plural(ours['positions_per_second'], 'position')}/s on "
                     f"{plural(ours['threads'], 'thread')}, {ours['cpu_seconds']:.0f} s of CPU), "
                     f"peak {ours['peak_bytes'] / 2**30:.2f} GiB; published: "
                     + ", ".join(f"{k} {'agrees' if ok else 'DIFFERS'}"
                                 for k, ok in entry["published_agrees"].items()))
        if "anchor" in entry:
            plain = entry["anchor"]
            lines.append(f"  plain C search: {plain['seconds']:.1f} s "
                         f"({plural(plain['positions_per_second'], 'position')}/s, one thread), "
                         f"peak {plain['peak_bytes'] / 2**30:.2f} GiB; ours/plain positions per "
                         f"second {entry['speed_ratio']:.2f}; distances "
                         + ("agree" if entry["anchor_agrees"] else "DIFFER"))
        lines.append("  targets: " + ", ".join(f"{k} {said[v]}"
                                               for k, v in entry["targets"].items()))
    return lines
