"""Bench charts: medians per backend and their ratio to the fastest, as PNG and SVG.

Reads the CSV files `bench` and the edge-matching benchmark write (results/bench.csv,
results/edge-bench.csv) and draws, for every instance, one bar per backend: the latest median
of each backend (log scale), a run that hit its time limit drawn hatched at the limit, and a
second panel with each median divided by the fastest backend's on the same instance. Needs
matplotlib (the optional extra `plots`).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..models.errors import InputError


@dataclass(frozen=True)
class Timing:
    """The median seconds of one backend on one instance; finished False: stopped at a limit."""

    instance: str
    backend: str
    seconds: float
    finished: bool


def _read(path: Path) -> list[dict[str, str]]:
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            return list(csv.DictReader(handle))
    except OSError as error:
        raise InputError(f"cannot read the bench results: {error}", file=str(path)) from None


def _latest(timings: list[Timing]) -> list[Timing]:
    """The last row of each (instance, backend): rows are appended in time order."""
    kept: dict[tuple[str, str], Timing] = {}
    for timing in timings:
        kept[(timing.instance, timing.backend)] = timing
    return list(kept.values())


def bench_timings(path: Path) -> list[Timing]:
    """Timings of `bench` (results/bench.csv): instance = puzzle and task."""
    timings = []
    for row in _read(path):
        name = Path(row["puzzle"]).stem if "/" in row["puzzle"] else row["puzzle"]
        executor = row.get("executor") or "local"  # older rows have no executor column
        backend = row["backend"] + ("" if executor == "local" else f" on {executor}")
        timings.append(Timing(f"{name} ({row['task']})", backend,
                              float(row["median_seconds"]), row["complete"] == "True"))
    return _latest(timings)


def edge_bench_timings(path: Path) -> list[Timing]:
    """Timings of the edge-matching benchmark (results/edge-bench.csv, one row per run): the
    median over seeds of each contender on each board, a time-out counting as its limit."""
    runs: dict[tuple[str, str], list[tuple[float, bool]]] = {}
    for row in _read(path):
        solved = row["status"] == "solved"
        seconds = float(row["seconds"]) if solved else float(row["time_limit"])
        runs.setdefault((row["board"], row["contender"]), []).append((seconds, solved))
    timings = []
    for (board, contender), found in runs.items():
        ordered = sorted(found)
        seconds, solved = ordered[(len(ordered) - 1) // 2]
        timings.append(Timing(board, contender, seconds, solved))
    return timings


def _fastest(timings: list[Timing], instance: str) -> float:
    """The least median of a finished run on the instance (of any run when none finished)."""
    mine = [t for t in timings if t.instance == instance]
    finished = [t.seconds for t in mine if t.finished]
    return min(finished or [t.seconds for t in mine])


def draw_chart(timings: list[Timing], title: str, out_stem: Path, note: str = "") -> list[Path]:
    """The chart of medians and ratios, written as out_stem.png and out_stem.svg."""
    try:
        import matplotlib
    except ImportError as error:
        raise InputError(
            "charts need matplotlib: pip install 'puzzlesat[plots]'", field="chart"
        ) from error
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "puzzlesat"  # the same SVG for the same figures
    from matplotlib import pyplot as plt
    from matplotlib.patches import Patch

    if not timings:
        raise InputError("no timings to draw", file=str(out_stem))
    instances = list(dict.fromkeys(t.instance for t in timings))
    backends = sorted({t.backend for t in timings})
    at = {(t.instance, t.backend): t for t in timings}
    colours = plt.get_cmap("tab10")
    height = 0.8 / len(backends)
    figure, (medians, ratios) = plt.subplots(
        1, 2, figsize=(12, 1.0 + 0.32 * len(instances) * max(1, len(backends) / 2)),
        sharey=True, layout="constrained",
    )
    for b, backend in enumerate(backends):
        for i, instance in enumerate(instances):
            timing = at.get((instance, backend))
            if timing is None:
                continue
            fastest = _fastest(timings, instance)
            y = i + (b - (len(backends) - 1) / 2) * height
            style = {"color": colours(b % 10), "height": height}
            if not timing.finished:
                style.update(hatch="///", edgecolor="black", alpha=0.6)
            medians.barh(y, max(timing.seconds, 1e-3), **style)
            ratios.barh(y, max(timing.seconds, 1e-3) / max(fastest, 1e-3), **style)
    medians.set_xscale("log")
    ratios.set_xscale("log")
    medians.set_yticks(range(len(instances)), instances, fontsize=8)
    medians.invert_yaxis()
    medians.set_xlabel("median seconds (log scale; hatched: stopped at the time limit)")
    ratios.set_xlabel("ratio to the fastest backend on the instance (log scale)")
    ratios.axvline(1, color="black", linewidth=0.8)
    handles = [Patch(color=colours(b % 10), label=backend) for b, backend in enumerate(backends)]
    ratios.legend(handles=handles, loc="lower right", fontsize=8)
    figure.suptitle(title + (f"\n{note}" if note else ""), fontsize=10)
    written = []
    for suffix in (".png", ".svg"):
        path = out_stem.with_suffix(suffix)
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=110, metadata={"Date": None} if suffix == ".svg" else None)
        written.append(path)
    plt.close(figure)
    return written


def bench_chart(csv_path: Path, out_stem: Path) -> list[Path]:
    """The chart of results/bench.csv (what `bench` wrote)."""
    return draw_chart(bench_timings(csv_path), "puzzlesat bench: latest median per backend",
                      out_stem, f"from {csv_path.name}")


def edge_bench_chart(csv_path: Path, out_stem: Path) -> list[Path]:
    """The chart of results/edge-bench.csv (the edge-matching benchmark)."""
    return draw_chart(edge_bench_timings(csv_path),
                      "Edge-matching benchmark: seconds to find one solution, median per backend",
                      out_stem, f"from {csv_path.name}")


def write_chart(results: Path, csv_name: str, say: Callable[[str], None]) -> list[Path]:
    """After a benchmark: the chart of results/CSV_NAME (bench.csv or edge-bench.csv), written
    beside it as NAME-chart.png and .svg; without matplotlib, a note saying so instead."""
    draw = {"bench.csv": bench_chart, "edge-bench.csv": edge_bench_chart}[csv_name]
    source = results / csv_name
    if not source.exists():
        return []
    try:
        written = draw(source, results / f"{source.stem}-chart")
    except InputError as error:
        say(f"no chart: {error}")
        return []
    say(f"wrote the chart {written[0]} (and .svg)")
    return written
