"""The edgecount benchmark: the compiled counter against a plain C row-scan counter.

Targets (issue 18): the diamond blocks Level 1 counted in at most 0.05 s in this process and in
at most 1 s as a whole process (`puzzlesat count` started afresh), and a search of at least a
third of the C counter's nodes per second on the same board; issue 25: the C row scan's rate or
better. The anchor is rowscan.c, written for this benchmark: built at run time into a temporary
folder where a C compiler exists (skipped, and said so, where none does); no binary is kept.
Both searches fill the cells row by row, so they visit the same nodes (checked on the boards
counted whole: the node counts must agree), and the rate is compared node for node in CPU
seconds of the search (the machine is shared), edgecount's two searches (the tile search it
runs where its tables fit, and the scan `search`: both in runners/csrc/edgecount.c) and the C
row scan alternating run by run. Medians of `repeat` runs, with the machine's load beside.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from .. import output as report
from ..children import cpu_seconds
from ..models import files
from ..models.edge_matching import EdgePuzzle, tile_types
from ..models.words import plural
from . import build_c, whole

ANCHOR_SOURCE = Path(__file__).with_name("rowscan.c")
CLUES = ("clue1", "clue2", "clue3", "clue4")  # the catalog's eternity-ii-clue1 ...
NODE_BUDGET = 200_000_000  # nodes of a prefix of a large search (clue puzzle 1) to time
# Boards counted to the end both ways, each search its own way: the C row scan row by row,
# edgecount in the order its measurement picks with one corner layout per orbit of turns.
WHOLE = ("diamond-blocks", "owen-6x6-set1", "owen-6x6-set2")
# Boards counted whole row by row in the rate table beside the prefix of clue 1 (issue 25: the
# community's boards; Owen's 6x6 set 1, 69,284,103 nodes, about a second a run)
ROWS_WHOLE = ("owen-6x6-set1",)
# A board of more than 64 tiles (the tile search's two words: `_search_tiles2`) timed on the
# prefix of its search, as clue 1: Owen's 9x9 set 1 (81 tiles), the ladder's board to solve
OVER_64 = ("owen-9x9-set1",)


def anchor_input(puzzle: EdgePuzzle) -> str:
    """The puzzle as the C counter reads it: rows cols frame colours kinds, then per kind its
    count and colour ids (equal rule, no marks, no fixed tiles)."""
    edges = sorted({e for t in puzzle.tiles for e in t.edges})
    ids = {e: i for i, e in enumerate(edges)}
    kinds = tile_types(puzzle)
    lines = [f"{puzzle.rows} {puzzle.cols} {ids[puzzle.frame] if puzzle.frame else -1} "
             f"{len(edges)} {len(kinds)}"]
    lines += [f"{k.count} " + " ".join(str(ids[e]) for e in k.edges) for k in kinds]
    return "\n".join(lines) + "\n"


def build_anchor(folder: Path) -> Path | None:
    """Compile rowscan.c into `folder`; None where there is no C compiler."""
    return build_c(ANCHOR_SOURCE, folder)


def run_anchor(binary: Path, puzzle: EdgePuzzle, budget: int | None,
               first_tile: int | None = None, second_kind: int | None = None,
               cpu: bool = False) -> tuple[int, int, float]:
    """(grids, nodes, seconds of search: wall, or CPU with `cpu`) from the C counter; with
    `first_tile` (a tile alone of its kind), only the grids with that tile on the first cell;
    with `second_kind` (a number of `tile_types`), only those with that kind on the second
    cell (the first cell's nodes are counted by each such part)."""
    args = [str(binary)] + ([str(budget)] if budget else [])
    if first_tile is not None or second_kind is not None:
        kind = -1 if first_tile is None else next(
            k for k, kind in enumerate(tile_types(puzzle)) if first_tile in kind.tiles)
        args = [str(binary), str(budget or -1), str(kind)]
        if second_kind is not None:
            args.append(str(second_kind))
    out = subprocess.run(args, input=anchor_input(puzzle), capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), int(out[1]), float(out[3 if cpu else 2])


def run_ours(puzzle: EdgePuzzle, budget: int | None, tiles: bool = True
             ) -> tuple[int, int, float]:
    """(grids, nodes, CPU seconds of search) from edgecount's search, row by row, one thread:
    the tile search where its tables fit (`tiles`), else the scan `_search`."""
    from ..backends.edgecount import Search
    from ..models.edge_matching.tables import build_tables

    search = Search(build_tables(puzzle, 0, "rows"), (), tiles)
    start = time.thread_time()
    search.run(budget or 10**18)
    return search.found, search.nodes, time.thread_time() - start


def rate_row(label: str, puzzle: EdgePuzzle, budget: int | None, binary: Path | None,
             repeat: int) -> dict:
    """Nodes per CPU second row by row: edgecount's tile search, its scan and the C row scan
    (where `binary`) run in turn `repeat` times; medians. A whole count (no `budget`) must
    find the same grids and nodes in all three."""
    runs: dict[str, list[tuple[int, int, float]]] = {"edgecount": [], "scan": [], "c": []}
    for _ in range(repeat):
        runs["edgecount"].append(run_ours(puzzle, budget))
        runs["scan"].append(run_ours(puzzle, budget, tiles=False))
        if binary is not None:
            runs["c"].append(run_anchor(binary, puzzle, budget, cpu=True))
    if budget is None:
        found = {who: r[0][:2] for who, r in runs.items() if r}
        if len(set(found.values())) > 1:
            raise AssertionError(f"{label}: grids and nodes differ: {found}")
    row: dict[str, object] = {"board": label, "grids": runs["edgecount"][0][0],
                              "nodes": runs["edgecount"][0][1], "whole": budget is None}
    for who, r in runs.items():
        if r:
            seconds = [x[2] for x in r]
            row[f"{who}_cpu_seconds"] = statistics.median(seconds)
            row[f"{who}_runs"] = seconds
            row[f"{who}_nodes_per_second"] = r[0][1] / row[f"{who}_cpu_seconds"]
    if "c_nodes_per_second" in row:
        row["ratio"] = row["edgecount_nodes_per_second"] / row["c_nodes_per_second"]
        row["scan_ratio"] = row["scan_nodes_per_second"] / row["c_nodes_per_second"]
    return row


def whole_count(name: str) -> tuple[int, int, float]:
    """(grids, nodes, CPU seconds of this process) of a whole count through the API in this
    process, one job: the plan (the fill order measured, the corner orbits) and the search."""
    from .. import api

    start = time.process_time()
    found = whole(api.count(name, backend="edgecount", jobs=1))
    return int(found.number or 0), int(found.details.get("nodes") or 0), \
        time.process_time() - start


def in_process(name: str) -> tuple[float, int, float]:
    """A whole count through the API in this process (one job): wall seconds, grids, CPU
    seconds."""
    from .. import api

    start, cpu = time.perf_counter(), cpu_seconds()
    found = whole(api.count(name, backend="edgecount", jobs=1))
    return time.perf_counter() - start, int(found.number or 0), cpu_seconds() - cpu


def whole_process(name: str) -> tuple[float, float]:
    """`puzzlesat count NAME --backend edgecount --jobs 1` started afresh: wall seconds, CPU
    seconds of the process."""
    start, cpu = time.perf_counter(), cpu_seconds()
    subprocess.run([sys.executable, "-m", "puzzlesat.cli", "count", name, "--backend",
                    "edgecount", "--jobs", "1"], check=True, capture_output=True)
    return time.perf_counter() - start, cpu_seconds() - cpu


def medians(run: Callable[[], tuple[float, float]], repeat: int
            ) -> tuple[float, float, list[tuple[float, float]]]:
    """Medians of wall and CPU seconds over `repeat` runs, and the runs."""
    times = [run() for _ in range(repeat)]
    return (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times),
            times)


def run(repeat: int, results: Path | None, say: Callable[[str], None] = report.say) -> dict:
    """Time everything, write results/edgecount-bench.json and .md (results None: nothing is
    written), return the figures."""
    from ..backends.edgecount import warm_up

    warm_up()  # the compiled searches loaded once, outside the timings
    figures: dict[str, object] = {"date": report.now(), "load": report.load(),
                                  "repeat": repeat, **report.versions()}
    # wall seconds (the targets are a user's wait) and CPU seconds (the machine is shared)
    figures["in_process_seconds"], figures["in_process_cpu_seconds"], \
        figures["in_process_runs"] = medians(
            lambda: in_process("diamond-blocks")[::2], repeat)
    figures["whole_process_seconds"], figures["whole_process_cpu_seconds"], \
        figures["whole_process_runs"] = medians(lambda: whole_process("diamond-blocks"), repeat)
    say(f"diamond blocks Level 1: {figures['in_process_seconds']:.3f} s in process "
        f"({figures['in_process_cpu_seconds']:.3f} s of CPU), "
        f"{figures['whole_process_seconds']:.2f} s as a whole process "
        f"({figures['whole_process_cpu_seconds']:.2f} s of CPU; medians of {repeat})")
    boards = [("diamond-blocks Level 1", files.load("diamond-blocks"), None)]
    boards.append((f"Eternity II clue 1, first {NODE_BUDGET:,} nodes",
                   files.load("eternity-ii-clue1"), NODE_BUDGET))
    boards += [(f"{name} (more than 64 tiles), first {NODE_BUDGET:,} nodes", files.load(name),
                NODE_BUDGET) for name in OVER_64]
    boards += [(f"{name}, whole", files.load(name), None) for name in ROWS_WHOLE]
    with tempfile.TemporaryDirectory() as folder:
        binary = build_anchor(Path(folder))
        if binary is None:
            say("no C compiler here: the row-scan anchor is skipped")
        rates = []
        for label, puzzle, budget in boards:
            row = rate_row(label, puzzle, budget, binary, repeat)
            say(f"{label}: edgecount {row['edgecount_nodes_per_second'] / 1e6:.1f} M nodes/s "
                f"(its scan {row['scan_nodes_per_second'] / 1e6:.1f} M)"
                + (f", C row scan {row['c_nodes_per_second'] / 1e6:.1f} M nodes/s, ratio "
                   f"{row['ratio']:.2f}" if "ratio" in row else "")
                + f" (CPU seconds, medians of {repeat})")
            rates.append(row)
        wholes = []
        for name in WHOLE if binary is not None else ():
            puzzle = files.load(name)
            ours = [whole_count(name) for _ in range(repeat)]
            theirs = [run_anchor(binary, puzzle, None, cpu=True) for _ in range(repeat)]
            if ours[0][0] != theirs[0][0]:
                raise AssertionError(f"{name}: the C counter found {plural(theirs[0][0], 'grid')}, "
                                     f"edgecount {ours[0][0]}")
            row = {"board": name, "grids": ours[0][0], "edgecount_nodes": ours[0][1],
                   "c_nodes": theirs[0][1],
                   "edgecount_seconds": statistics.median(r[2] for r in ours),
                   "c_seconds": statistics.median(r[2] for r in theirs)}
            row["ratio"] = row["c_seconds"] / row["edgecount_seconds"]
            say(f"{name} to the end: edgecount {row['edgecount_seconds']:.2f} s "
                f"({plural(row['edgecount_nodes'], 'node')}), C row scan {row['c_seconds']:.2f} s "
                f"({plural(row['c_nodes'], 'node')}): edgecount {row['ratio']:.2f}x the C row "
                "scan's speed")
            wholes.append(row)
    figures["rates"] = rates
    figures["whole_counts"] = wholes
    figures["load_after"] = report.load()
    figures["cores"] = os.cpu_count()
    if results is not None:
        report.write_text_atomic(results / "edgecount-bench.json",
                                 json.dumps(figures, indent=1) + "\n")
        report.write_text_atomic(results / "edgecount-bench.md", markdown(figures))
    return figures


def markdown(f: dict) -> str:
    lines = [
        "# edgecount benchmark (`puzzlesat bench --anchor rowscan`)",
        "",
        f"{f['date']}; {plural(f['cores'], 'core')} shared with other work (1-minute load average "
        f"{f['load']}); Python {f.get('python')}; edgecount's searches in C. Medians of "
        f"{plural(f['repeat'], 'run')}.",
        "",
        "| what | target | measured (wall) | CPU seconds |",
        "|---|---|---|---|",
        f"| diamond blocks Level 1 (17,920 grids), count in this process | <= 0.05 s | "
        f"{f['in_process_seconds']:.3f} s | {f.get('in_process_cpu_seconds', 0):.3f} s |",
        f"| the same, `puzzlesat count` as a whole process | <= 1 s | "
        f"{f['whole_process_seconds']:.2f} s | {f.get('whole_process_cpu_seconds', 0):.2f} s |",
        "",
        "Nodes (tiles placed) per CPU second of the search, one thread, all searches row by "
        "row: edgecount (the tile search where its tables fit: `search_tiles` with the tiles "
        "in one 64-bit word, `search_tiles2` in two, up to 128 tiles), its scan (`search`, "
        "the search before it and where the tiles do not fit) "
        "and the C row scan, run in turn; the same grids and nodes checked on the boards "
        "counted whole (a prefix of nodes is another prefix where the order within a cell "
        f"differs). 1-minute load average {f['load']} before, {f.get('load_after', '?')} "
        "after.",
        "",
        "| board | nodes | edgecount M nodes/s | its scan M nodes/s | C row scan M nodes/s | "
        "edgecount / C (issue 25: >= 1) | scan / C |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in f["rates"]:
        c = f"{r['c_nodes_per_second'] / 1e6:.1f}" if "c_nodes_per_second" in r else "skipped"
        ratio = f"**{r['ratio']:.2f}**" if "ratio" in r else "-"
        scan = f"{r['scan_ratio']:.2f}" if "scan_ratio" in r else "-"
        lines.append(f"| {r['board']} | {r['nodes']:,} | "
                     f"{r['edgecount_nodes_per_second'] / 1e6:.1f} | "
                     f"{r['scan_nodes_per_second'] / 1e6:.1f} | {c} | {ratio} | {scan} |")
    if f.get("whole_counts"):
        lines += ["", "Whole counts, each search its own way (one thread; edgecount in this "
                  "process, its plan included: the fill order its measurement picks, one "
                  "corner layout per orbit of the board's turns; the C row scan row by row, "
                  "its search only), in CPU seconds. Speed: the C row scan's seconds / "
                  "edgecount's (target >= 1).", "",
                  "| board | grids | edgecount nodes | C row-scan nodes | edgecount CPU s | "
                  "C CPU s | "
                  "speed |", "|---|---:|---:|---:|---:|---:|---:|"]
        for r in f["whole_counts"]:
            lines.append(f"| {r['board']} | {r['grids']:,} | {r['edgecount_nodes']:,} | "
                         f"{r['c_nodes']:,} | {r['edgecount_seconds']:.2f} | "
                         f"{r['c_seconds']:.2f} | {r['ratio']:.2f} |")
    return "\n".join(lines) + "\n"


def estimate_clues(paths: int, results: Path | None, rate: float | None,
                   say: Callable[[str], None] = report.say) -> list:
    """Knuth's random-path estimate of each clue puzzle's grids and search nodes (edgecount's
    search, all grids, its fill order), with the standard error of each mean over `paths`
    paths, and the core-hours the search would take at `rate` nodes a second per core (the
    corner orbits' reduction divides the nodes by the board's turns)."""
    from ..backends.edgecount import estimate
    from ..models.edge_matching import board_turns
    from ..models.edge_matching.tables import build_tables

    rows = []
    for clue in CLUES:
        puzzle = files.load(f"eternity-ii-{clue}")
        model = build_tables(puzzle)
        start = time.perf_counter()
        grids, nodes, grids_error, nodes_error = estimate(model, (), paths, seed=1)
        turns = len(board_turns(puzzle))
        row = {
            "board": clue, "rows": puzzle.rows, "cols": puzzle.cols, "paths": paths,
            "grids": grids, "grids_standard_error": grids_error,
            "nodes": nodes, "nodes_standard_error": nodes_error,
            "nodes_after_corner_orbits": nodes / turns,
            "seconds": time.perf_counter() - start,
        }
        if rate:
            row["core_hours_at_rate"] = nodes / turns / rate / 3600
            row["rate_nodes_per_second_per_core"] = rate
        say(f"{clue}: grids ~ {grids:.3g} (+- {grids_error:.2g}), nodes ~ {nodes:.3g} "
            f"(+- {nodes_error:.2g})" + (f", {row['core_hours_at_rate']:.3g} core-hours"
                                         if rate else ""))
        rows.append(row)
    figures = {"date": report.now(), "load": report.load(), **report.versions(),
               "estimator": "Knuth (1975): along a random path, the product of the branching "
               "so far estimates the nodes at each depth; their sum the search's nodes, the "
               "product at the last depth its grids; means over the paths, standard errors "
               "of the means", "boards": rows}
    if results is not None:
        report.write_text_atomic(results / "eternity-ii-estimates.json",
                                 json.dumps(figures, indent=1) + "\n")
    return rows
