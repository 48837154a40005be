"""Measure the moves engine (issue 39): per board, positions and CPU seconds of the table search
(time.process_time around run_search, warm: one untimed run first in the process), medians of 3,
one thread. Usage: python -m puzzlesat.benchmarks.moves_positions [--tables] [BOARD ...]
(json lines on stdout); --tables: instead, per board the digest of its table file's parts (the
positions at each distance, the hardest, the sorted codes, the packed residues: all but the build's
seconds) and its cache key, to compare two builds of the engine.

Boards: sliding puzzles by their ranks (the byte-a-rank search) or, with ':codes', by their
mixed-radix codes in the hash set (ranks_of made None, as tests/test_sliding.py does), and
'mind-lock' (the hash-set search on dense ranks, every distance kept)."""

import json
import statistics
import sys
import time

from puzzlesat.backends.table import run_search
from puzzlesat.families import mind_lock, sliding
from puzzlesat.models import files

BOARDS = ["mind-lock", "eight-puzzle", "klotski", "rush-hour-51", "eight-puzzle:codes",
          "klotski:codes", "rush-hour-51:codes", "klotski-l-pieces"]


def model_of(board: str):
    if board == "mind-lock":
        return mind_lock.FAMILY.table_model(files.load("mind-lock"), keep_distances=True)
    name, _, how = board.partition(":")
    puzzle = files.load(name)
    if how == "codes":
        sliding.ranks_of = lambda puzzle: None
        sliding.kernel_parts.cache_clear()
    try:
        return sliding.FAMILY.table_model(puzzle, threads=1)
    finally:
        sliding.ranks_of = RANKS
        sliding.kernel_parts.cache_clear()  # the next board's arrays made with its ranking


RANKS = sliding.ranks_of


def measure(board: str, repeat: int = 3) -> dict:
    model = model_of(board)
    runs = []
    for i in range(repeat + 1):
        begin = time.process_time()
        build = run_search(model)
        seconds = time.process_time() - begin
        if i:
            runs.append(seconds)
    median = statistics.median(runs)
    return {"board": board, "positions": build.positions, "gods_number": build.gods_number,
            "distance_counts_sha": hash(tuple(build.distance_counts)) & 0xFFFFFFFF,
            "cpu_seconds": [round(s, 4) for s in runs], "median": round(median, 4),
            "positions_per_cpu_second": round(build.positions / median)}


def table_digest(board: str) -> dict:
    import hashlib

    model = model_of(board)
    build = run_search(model)
    parts = [json.dumps([build.distance_counts, build.hardest, build.span]).encode(),
             b"" if build.keys is None else build.keys.tobytes(), build.packed.tobytes()]
    return {"board": board, "key": model.name + "-" + model.key, "positions": build.positions,
            "table": hashlib.sha256(b"|".join(parts)).hexdigest()[:16]}


if __name__ == "__main__":
    tables = "--tables" in sys.argv
    for board in [a for a in sys.argv[1:] if a != "--tables"] or BOARDS:
        print(json.dumps(table_digest(board) if tables else measure(board)), flush=True)
