"""Nodes a CPU second of the best-board search (runners/backends/edgesearch.py), issue 39.

    python -m puzzlesat.benchmarks.edgesearch_nodes [--repeat 3] [BOARD:NODES ...]

Each board is searched as `puzzlesat best` searches it (one process, seed 1: the exact budget
raised one by one on a board of at most 25 cells, slips and restarts on a larger one, each
better board polished), but stopped after a number of nodes (0: at its end) rather than
seconds, so that two builds of the kernel are compared on the same tree: the nodes and the best
score must be equal. The CPU seconds (time.process_time around the whole search, the kernel
loaded and run on a tiny board first) are the medians of `--repeat` runs. Prints a Markdown
table.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ..api import load
from ..backends import edgesearch
from ..models.edge_matching.best import score, search_arrays

BOARDS = ("macmahon-24-squares:200000000", "eternity-ii-clue2:200000000", "eternity-ii:600000000")


def measure(name: str, nodes: int, seed: int = 1) -> tuple[int, int, float]:
    """One search of board `name` until `nodes` nodes (0: to its end): its nodes, best score
    and CPU seconds."""
    puzzle = load(name)
    scores = [-1]

    def report(grid: list, extra: dict) -> None:
        scores.append(score(puzzle, grid))

    begin = time.process_time()
    search = edgesearch.Search(search_arrays(puzzle), seed)
    edgesearch.optimise(report, search, seed, lambda s: nodes > 0 and s.nodes >= nodes)
    seconds = time.process_time() - begin
    return search.nodes, max(scores), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", default=list(BOARDS), help="BOARD:NODES")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    edgesearch.warm_up()
    print("| board | nodes | best score | CPU s (median) | CPU s (all) | M nodes / CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    for entry in args.boards:
        name, _, budget = entry.partition(":")
        runs = [measure(name, int(budget or 0), args.seed) for _ in range(args.repeat)]
        assert len({run[:2] for run in runs}) == 1, runs  # the same tree every run
        nodes, best, _ = runs[0]
        median = statistics.median(run[2] for run in runs)
        every = ", ".join(f"{run[2]:.2f}" for run in runs)
        print(f"| {name} | {nodes:,} | {best} | {median:.2f} | {every} | "
              f"{nodes / median / 1e6:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
