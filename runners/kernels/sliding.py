"""Sliding-block puzzles in the breadth-first engine: the arrays the C move kernels read
(runners/csrc/moves.c, kernels SLIDING_CODES and SLIDING_RANKS), the kernel's answer for one
position, and the bound on positions the memory estimate uses.

A position has one of two codes (models/sliding):
- its rank among the arrangements of the pieces (models/sliding/ranking.py), where the puzzle has
  a ranking: dense, so the search keeps a byte per arrangement and no codes (SLIDING_RANKS);
- else per group the rank of its placement set, in mixed radix (SLIDING_CODES, for the search
  that keeps the codes it reaches).
A kernel decodes a code into the pieces' placements and the occupied cells as a 64-bit mask, and
gives the code of every position one move away in the puzzle's metric; its goal test says
whether a piece of the goal's group stands on the goal's placement. The kernels are checked
against the rules written in Python (models/sliding, `SlidingPuzzle.moves`) by `verify` on
sampled positions, and by the tests on random boards.
"""

from __future__ import annotations

from math import comb

import numpy as np

from .. import native
from ..models.sliding import SlidingPuzzle
from ..models.sliding.ranking import Ranking, ranking

moves = native.kernel("moves")  # KernelMissing where the install built no C module

METRIC_NUMBERS = {"step": 0, "slide": 1, "path": 2}


# ---------------------------------------------------------------- the arrays


def kernel_data(puzzle: SlidingPuzzle, ranks: Ranking | None = None) -> tuple:
    """The arrays the kernels read, in this order (runners/csrc/moves.c, `read_sliding`): per
    placement of every group its cells as a mask and its shifts a cell in each direction; per
    group its first placement, placements, pieces, placement sets and the code's weight; the
    binomials; info (metric, -, goal group, goal placement, the ranking's end state, goal cell);
    the ranking's states where `ranks` is given (per state its cell, next states and offsets by
    choice; per group and cell the placement anchored there); per group its first piece; per
    placement its first cell. The C kernels make their own working rows, a thread each."""
    shifts = puzzle.shifts()
    offsets, total = [], 0
    for group in puzzle.groups:
        offsets.append(total)
        total += len(group.placements)
    gmask = np.zeros(total, dtype=np.uint64)
    table = np.full((total, 4), -1, dtype=np.int64)
    first = np.zeros(total, dtype=np.int64)
    for g, group in enumerate(puzzle.groups):
        for p, cells in enumerate(group.placements):
            gmask[offsets[g] + p] = np.uint64(sum(1 << c for c in cells))
            first[offsets[g] + p] = min(cells)
            for d, q in enumerate(shifts[g][p]):
                table[offsets[g] + p, d] = -1 if q < 0 else offsets[g] + q
    mult, radix = [], 1
    for group in puzzle.groups:
        mult.append(radix if radix < 2**63 else 0)
        radix *= group.size
    widest = max(len(g.placements) for g in puzzle.groups) + 1
    binom = np.zeros((widest, max(g.count for g in puzzle.groups) + 2), dtype=np.uint64)
    for n in range(widest):
        for k in range(binom.shape[1]):
            binom[n, k] = comb(n, k) if comb(n, k) < 2**64 else 0
    info = np.zeros(6, dtype=np.int64)
    info[0] = METRIC_NUMBERS[puzzle.metric]
    if puzzle.goal.position is None and puzzle.goal.cells:
        info[2], info[3] = puzzle.goal_placement()
        info[5] = min(puzzle.goal.cells)
    groups = len(puzzle.groups)
    span = puzzle.rows * puzzle.columns
    if ranks is None:
        states = (np.zeros(1, dtype=np.int64), np.full((1, groups + 1), -1, dtype=np.int64),
                  np.zeros((1, groups + 1), dtype=np.uint64),
                  np.full((groups, span), -1, dtype=np.int64))
    else:
        info[4] = ranks.end
        states = (np.array(ranks.cells, dtype=np.int64), np.array(ranks.next, dtype=np.int64),
                  np.array(ranks.offset, dtype=np.uint64),
                  np.array(ranks.anchored, dtype=np.int64))
    start = np.cumsum([0] + [g.count for g in puzzle.groups])[:-1].astype(np.int64)
    return (gmask, table, np.array(offsets, dtype=np.int64),
              np.array([len(g.placements) for g in puzzle.groups], dtype=np.int64),
              np.array([g.count for g in puzzle.groups], dtype=np.int64),
              np.array([g.size if g.size < 2**63 else 0 for g in puzzle.groups],
                       dtype=np.uint64),
            np.array(mult, dtype=np.uint64), binom, info, *states, start, first)


def kernel_number(ranked: bool) -> int:
    """The C kernel of a puzzle's codes: its ranks, or its mixed-radix codes."""
    return moves.SLIDING_RANKS if ranked else moves.SLIDING_CODES


def kernel_neighbours(puzzle: SlidingPuzzle, code: int, data: tuple | None = None,
                      ranked: bool = False) -> list[int]:
    """The kernel's answer for one position (for checks against the rules in Python)."""
    data = kernel_data(puzzle, ranking(puzzle) if ranked else None) if data is None else data
    out = np.empty(degree(puzzle), dtype=np.uint64)
    n = moves.neighbours(kernel_number(ranked), data, code, out)
    return sorted(int(c) for c in out[:n])


def degree(puzzle: SlidingPuzzle) -> int:
    """At most this many moves from a position."""
    return sum(g.count * len(g.placements) for g in puzzle.groups) * 4 + 1


def bound(puzzle: SlidingPuzzle, ranks: Ranking | None = None) -> tuple[int, str]:
    """An upper bound on the positions reachable and what it is: the arrangements of the pieces
    on the board without overlaps, counted exactly where the puzzle has a ranking, else all
    codes (overlaps included)."""
    ranks = ranks if ranks is not None else ranking(puzzle)
    if ranks is None:
        return puzzle.code_space, "all codes (arrangements of the groups, overlaps included)"
    return ranks.size, "arrangements of the pieces on the board without overlap"


