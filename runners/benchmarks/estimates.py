"""Knuth's estimates of packing boards too large to count at once (the catalog's open boards:
those Polyform Puzzler lists with 'solutions incomplete'): how large the bitboard search's tree
is, how many solutions it holds, and how long a count would take, each with its spread.

The estimator is the bitboard search's own (`Search.estimates`: Knuth 1975, random paths down the
tree the search walks, first empty cell and dead regions dropped, no memo): a path's nodes are the
sum over its depths of the product of the branchings so far, its solutions that product where the
path ends in a covering (0 where it dies); the means over the paths are unbiased estimates of the
tree's nodes and of the board's solutions (every covering, rotations and reflections of a solution
counted as different). Paths are drawn in batches of fresh seeds until a budget of CPU seconds a
board is spent, and the spread is the standard error of the mean over all of them: a standard
error near the mean says the estimate is uncertain within a factor of several, and a board where
no path reached a covering is estimated at 0 solutions with nothing known beyond that. The time a
count would take is the nodes at the search's speed on that board, measured here on a slice of its
own search: the plain search, one core, no symmetry reduction and no memo (`count --modulo
symmetry` walks about 1/|G| of it, and the memo cuts more on boards that repeat sub-problems).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

from .. import output as report
from ..models.words import plural

FIRST_PATHS = 100  # paths of the first batch; later batches are sized to the budget left
RATE_NODES = 1_000_000  # nodes of the search timed for its speed on a board (~0.1 s)
ESTIMATOR = ("Knuth (1975), the bitboard search's own (Search.estimates): random paths down the "
             "tree the count walks (first empty cell, options closing off a dead region dropped, "
             "no memo, no symmetry reduction); a path's nodes are the sum over its depths of the "
             "product of the branchings so far, its solutions that product where it ends in a "
             "covering; means over the paths, standard errors of the means; paths drawn in "
             "batches of fresh seeds until the board's CPU budget is spent")
COUNTED = ("solutions: every covering of the board, rotations and reflections of a solution "
           "counted as different (labelled arrangements); classes: solutions / |G|, G the "
           "board's symmetries that the piece set keeps (an estimate: solutions fixed by a "
           "symmetry are rare on boards this large)")


def _search_of(puzzle):
    """The bitboard search's start on the whole board, and the model's items."""
    from ..backends import bitboard
    from ..models.packing import placements
    from ..registry import family_of, resolve

    backend = resolve("bitboard", puzzle.kind, "count")
    model = family_of(puzzle).encode(puzzle, backend, placements(puzzle))
    state = backend.prepare_for_estimates(backend.payload(model))
    items = sum(model.multiplicity or [1] * len(model.items))
    return (lambda: bitboard.Search(state.board, ())), items


def estimate_board(puzzle, seconds: float = 2.0, seed: int = 1) -> dict:
    """Knuth's estimate of a packing board's search and solutions within about `seconds` of
    CPU, building the model included (at least one batch of paths), with the search's speed
    measured on the board."""
    from ..backends import bitboard
    from ..models.packing.plan import symmetry_group

    bitboard.warm_up()  # the compiled kernel's load is no board's time
    start = time.process_time()
    new_search, items = _search_of(puzzle)
    search = new_search()
    paths, sums = 0, [0.0, 0.0, 0.0, 0.0]  # nodes, solutions, their squares (summed)
    batch, began = FIRST_PATHS, time.process_time()
    model_seconds = began - start
    while True:
        nodes, solutions, nodes_sd, solutions_sd = search.estimates(batch, seed=seed + paths)
        sums[0] += batch * nodes
        sums[1] += batch * solutions
        sums[2] += batch * (nodes_sd ** 2 + nodes ** 2)
        sums[3] += batch * (solutions_sd ** 2 + solutions ** 2)
        paths += batch
        spent = time.process_time() - began
        left = seconds - (time.process_time() - start)  # the model's building included
        if left <= 0:
            break
        batch = max(FIRST_PATHS, int(paths * left / max(spent, 1e-3)))
    mean = [sums[0] / paths, sums[1] / paths]
    error = [math.sqrt(max(0.0, sums[2] / paths - mean[0] ** 2) / paths),
             math.sqrt(max(0.0, sums[3] / paths - mean[1] ** 2) / paths)]
    estimating = time.process_time() - start
    timed = new_search()
    began = time.process_time()
    timed.run(RATE_NODES)
    rate = timed.nodes / max(time.process_time() - began, 1e-6)
    group = symmetry_group(puzzle)
    return {
        "puzzle": puzzle.name, "title": puzzle.title, "lattice": puzzle.lattice.name,
        "cells": len(puzzle.cells), "pieces": sum(p.count for p in puzzle.pieces),
        "items": items, "paths": paths,
        "nodes": mean[0], "nodes_standard_error": error[0],
        "solutions": mean[1], "solutions_standard_error": error[1],
        "symmetries": group.order, "classes": mean[1] / group.order,
        "nodes_per_second": rate, "count_cpu_hours": mean[0] / rate / 3600,
        "reduced_count_cpu_hours": mean[0] / rate / 3600 / group.order,
        "cpu_seconds": estimating, "model_cpu_seconds": model_seconds,
    }


def run(names: list[str], seconds: float, seed: int, results: Path | None,
        say: Callable[[str], None] = report.say, file_stem: str = "open-boards-estimates"
        ) -> list[dict]:
    """Estimate each board; with `results`, write FILE_STEM.json and .md there."""
    from ..models import files

    rows = []
    for name in names:
        row = estimate_board(files.load(name), seconds, seed)
        say(line(row))
        rows.append(row)
    if results is not None:
        figures = {"date": report.now(), "load": report.load(), **report.versions(),
                   "machine": report.machine(), "estimator": ESTIMATOR, "counted": COUNTED,
                   "seconds_a_board": seconds, "seed": seed, "boards": rows}
        report.write_json_atomic(results / f"{file_stem}.json", figures, "results")
        report.write_text_atomic(results / f"{file_stem}.md", table(figures), "results")
    return rows


def _spread(mean: float, error: float) -> str:
    return f"{mean:.3g} ± {error:.2g}" if mean else "0 (no path reached one)"


def line(row: dict) -> str:
    return (f"{row['puzzle']}: {plural(row['cells'], 'cell')}, {plural(row['pieces'], 'piece')}: "
            f"nodes ~ {_spread(row['nodes'], row['nodes_standard_error'])}, solutions ~ "
            f"{_spread(row['solutions'], row['solutions_standard_error'])} "
            f"({plural(row['paths'], 'path')}, {row['cpu_seconds']:.1f} CPU s); a plain count "
            f"~{_hours(row['count_cpu_hours'])} of CPU")


def _hours(hours: float) -> str:
    if hours < 1 / 60:
        return f"{hours * 3600:.2g} s"
    if hours < 1:
        return f"{hours * 60:.2g} min"
    if hours < 24 * 365:
        return f"{hours:.3g} h"
    return f"{hours / 24 / 365:.2g} years"


def table(figures: dict) -> str:
    """The estimates as a Markdown report."""
    lines = [
        "# Knuth's estimates of the open boards",
        "",
        "Written by `puzzlesat estimate --open --record`; do not edit by hand. Every open "
        "board of the catalog (`puzzlesat list --open`): Polyform Puzzler's boards listed with "
        "'solutions incomplete' for the 29 pentacubes, the polycubes of orders 2-4, the 35 "
        "hexominoes, the tetrominoes and pentominoes together, the 24 heptiamonds and the 22 "
        "pentahexes.",
        "",
        f"Estimator: {figures['estimator']}. Counted: {figures['counted']}. ESTIMATES, not "
        f"counts: '±' is one standard error of the mean; where it is near the mean the figure "
        f"is known within a factor of several at best. {figures['seconds_a_board']} CPU s a "
        f"board, seed {figures['seed']}; {figures['date']}, load {figures['load']}, "
        f"puzzlesat {figures.get('puzzlesat')}, numba {figures.get('numba')}.",
        "",
        "Count time: the estimated nodes at the search's own speed on the board (nodes/s "
        "measured on a slice of it), plain search on one core without symmetry reduction or "
        "memo; `count --modulo symmetry` walks about 1/|G| of the tree.",
        "",
        "| board | cells | pieces | paths | nodes | solutions | \\|G\\| | plain count | "
        "with --modulo symmetry | CPU s |",
        "|---|---:|---:|---:|---|---|---:|---:|---:|---:|",
    ]
    for r in figures["boards"]:
        lines.append(
            f"| {r['puzzle']} | {r['cells']} | {r['pieces']} | {r['paths']:,} | "
            f"{_spread(r['nodes'], r['nodes_standard_error'])} | "
            f"{_spread(r['solutions'], r['solutions_standard_error'])} | {r['symmetries']} | "
            f"{_hours(r['count_cpu_hours'])} | {_hours(r['reduced_count_cpu_hours'])} | "
            f"{r['cpu_seconds']:.1f} |")
    return "\n".join(lines) + "\n"
