"""MacMahon's 24 colour squares in a 4x6 rectangle with a one-colour border: the count in every
convention, to explain the two published figures (12,261 and 13,328) by what each counts.

    puzzlesat macmahon-bench --squares [--record | --results DIR]   # macmahon-24-squares.json

The distinct grids are counted by `edgecount` (its own search) and then listed by it; their
classes under each group are found by canonical forms here (the least image under every
element, code written here): turning the board (a half turn), the rectangle's four symmetries
(a mirrored grid uses the mirrored squares, and the 24 squares are closed under mirroring), and
those with the two colours other than the border's exchanged. The listing is compared with the
count, and the half-turn classes with Burnside's count from the count. The page
results/macmahon-24-squares.md reads these figures (written by hand: what the published counts
mean). Nothing is written unless asked (a folder).
"""

from __future__ import annotations

import json
import time
from itertools import product
from pathlib import Path

from .. import api
from .. import output as report
from ..backends.edgecount import EdgecountBackend
from ..models import files
from ..models.edge_matching.tables import build_tables
from ..models.words import plural
from . import whole

PUZZLE = "macmahon-24-squares"


def _image(grid: tuple, rows: int, cols: int, half_turn: bool, mirror: bool, swap: dict):
    """A grid of looks (edges top, right, bottom, left per cell, reading order) under a half
    turn, a left-right mirror and a recolouring (a top-bottom mirror is both)."""
    out = [None] * (rows * cols)
    for i, (t, r, b, left) in enumerate(grid):
        row, col = divmod(i, cols)
        if half_turn:
            row, col, (t, r, b, left) = rows - 1 - row, cols - 1 - col, (b, left, t, r)
        if mirror:
            col, (t, r, b, left) = cols - 1 - col, (t, left, b, r)
        out[row * cols + col] = tuple(swap.get(e, e) for e in (t, r, b, left))
    return tuple(out)


def conventions(results: Path | None, say=report.say) -> dict:
    """The grids counted and listed, and their classes under each group (recorded in
    `results` when one is given)."""
    start = time.perf_counter()
    puzzle = files.load(PUZZLE)
    counted = whole(api.count(PUZZLE, backend="edgecount", modulo="symmetry"))
    model = build_tables(puzzle)
    grids = set()
    for nodes in EdgecountBackend().enumerate(model, (), None):
        cells = [None] * model.depths
        for d, n in enumerate(nodes):
            cells[int(model.cell[d])] = tuple(int(c) for c in model.node_edge[n])
        grids.add(tuple(cells))
    colour = {e: i for e, i in zip(sorted({e for t in puzzle.tiles for e in t.edges}),
                                   range(99))}
    names = {i: e[0] for e, i in colour.items()}
    border = colour[puzzle.border]
    others = [i for i in names if i != border]
    swapped = {others[0]: others[1], others[1]: others[0]}
    groups = {
        "half turn (the board's turns)": [(h, False, {}) for h in (False, True)],
        "the rectangle's four symmetries (half turn, two mirrors)":
            [(h, m, {}) for h, m in product((False, True), repeat=2)],
        "half turn and exchanging the two other colours":
            [(h, False, s) for h in (False, True) for s in ({}, swapped)],
        "the rectangle's four symmetries and exchanging the two other colours":
            [(h, m, s) for h, m in product((False, True), repeat=2) for s in ({}, swapped)],
    }
    rows, cols = puzzle.rows, puzzle.cols
    classes = {}
    for label, elements in groups.items():
        least = {min(_image(g, rows, cols, *e) for e in elements) for g in grids}
        kept = [sum(_image(g, rows, cols, *e) == g for g in grids) for e in elements]
        classes[label] = {"classes": len(least), "order": len(elements),
                          "grids_each_element_keeps": kept}
        say(f"{label}: {plural(len(least), 'class')} (grids kept by each element: {kept})")
    figures = {
        "puzzle": PUZZLE, "date": report.now(), "load": report.load(), **report.versions(),
        "grids_counted": counted.details["grids"],
        "grids_listed": len(grids),
        "half_turn_classes_by_burnside": counted.details["grid_classes"],
        "conventions": counted.details["conventions"],
        "classes": classes,
        "seconds": round(time.perf_counter() - start, 1),
        "border_colour": names[border],
    }
    say(f"{plural(figures['grids_counted'], 'grid')} counted, {figures['grids_listed']:,} listed, "
        f"{figures['half_turn_classes_by_burnside']:,} up to the half turn by Burnside "
        f"({figures['seconds']} s)")
    if results is not None:
        report.write_text_atomic(results / f"{PUZZLE}.json",
                                 json.dumps(figures, indent=1) + "\n")
        report.write_results_index(results)
        say(f"recorded {results / PUZZLE}.json")
    return figures
