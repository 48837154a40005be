"""Sliding-block puzzles in the breadth-first engine: the compiled move kernel on codes, the goal
test of a piece-at-a-place goal, and the bound on positions the memory estimate uses.

The kernel decodes a code (per group the rank of its placement set, in mixed radix) into the
pieces' placements and the occupied cells as a 64-bit mask, and writes the code of every
position one move away in the puzzle's metric. It is checked against the rules written in
Python (models/sliding, `SlidingPuzzle.moves`) by `verify` on sampled positions.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..breadth_first import njit
from ..models.sliding import SlidingPuzzle

METRIC_NUMBERS = {"step": 0, "slide": 1, "path": 2}
BOUND_STATES = 3_000_000  # memo entries the exact count of arrangements may use


@njit
def _decode(code, data):
    gmask, shifts, off, nplace, kcount, size, mult, binom, info, pieces, seen, queue, tmp = data
    rem = code
    occ = np.uint64(0)
    t = 0
    for g in range(off.size):
        r = rem % size[g]
        rem = rem // size[g]
        k = kcount[g]
        c = nplace[g] - 1
        for i in range(k, 0, -1):
            while binom[c, i] > r:
                c -= 1
            pieces[t + i - 1] = c
            r -= binom[c, i]
            c -= 1
        for i in range(k):
            occ |= gmask[off[g] + pieces[t + i]]
        t += k
    return occ


@njit
def _moved(code, g, t, k, j, q, data):
    """The code after piece j of group g (its pieces at pieces[t:t+k]) goes to placement q."""
    gmask, shifts, off, nplace, kcount, size, mult, binom, info, pieces, seen, queue, tmp = data
    old = np.uint64(0)
    n = 0
    for i in range(k):
        old += binom[pieces[t + i], i + 1]
        if i != j:
            tmp[n] = pieces[t + i]
            n += 1
    tmp[n] = q
    n += 1
    for a in range(n - 1, 0, -1):  # insertion of q into the sorted others
        if tmp[a] < tmp[a - 1]:
            tmp[a], tmp[a - 1] = tmp[a - 1], tmp[a]
        else:
            break
    new = np.uint64(0)
    for i in range(n):
        new += binom[tmp[i], i + 1]
    return code - old * mult[g] + new * mult[g]


@njit
def moves_kernel(code, data, out):
    """The codes one move away from `code`, written to `out`; how many."""
    gmask, shifts, off, nplace, kcount, size, mult, binom, info, pieces, seen, queue, tmp = data
    metric = info[0]
    occ = _decode(code, data)
    n = 0
    t = 0
    for g in range(off.size):
        k = kcount[g]
        for j in range(k):
            p = off[g] + pieces[t + j]
            other = occ & ~gmask[p]
            if metric == 2:
                info[1] += 1
                stamp = info[1]
                seen[p] = stamp
                queue[0] = p
                head, tail = 0, 1
                while head < tail:
                    a = queue[head]
                    head += 1
                    for d in range(4):
                        q = shifts[a, d]
                        if q >= 0 and seen[q] != stamp and (gmask[q] & other) == 0:
                            seen[q] = stamp
                            queue[tail] = q
                            tail += 1
                            out[n] = _moved(code, g, t, k, j, q - off[g], data)
                            n += 1
            else:
                for d in range(4):
                    q = shifts[p, d]
                    while q >= 0 and (gmask[q] & other) == 0:
                        out[n] = _moved(code, g, t, k, j, q - off[g], data)
                        n += 1
                        if metric == 0:
                            break
                        q = shifts[q, d]
        t += k
    return n


@njit
def goal_kernel(code, data):
    """Whether a piece of the goal's group stands on the goal's placement."""
    gmask, shifts, off, nplace, kcount, size, mult, binom, info, pieces, seen, queue, tmp = data
    g = info[2]
    r = (code // mult[g]) % size[g]
    k = kcount[g]
    c = nplace[g] - 1
    for i in range(k, 0, -1):
        while binom[c, i] > r:
            c -= 1
        if c == info[3]:
            return True
        r -= binom[c, i]
        c -= 1
    return False


def kernel_data(puzzle: SlidingPuzzle) -> tuple:
    """The arrays the kernels read: placements as masks, their shifts, the code's radices."""
    shifts = puzzle.shifts()
    offsets, total = [], 0
    for group in puzzle.groups:
        offsets.append(total)
        total += len(group.placements)
    gmask = np.zeros(total, dtype=np.uint64)
    table = np.full((total, 4), -1, dtype=np.int64)
    for g, group in enumerate(puzzle.groups):
        for p, cells in enumerate(group.placements):
            gmask[offsets[g] + p] = np.uint64(sum(1 << c for c in cells))
            for d, q in enumerate(shifts[g][p]):
                table[offsets[g] + p, d] = -1 if q < 0 else offsets[g] + q
    mult, radix = [], 1
    for group in puzzle.groups:
        mult.append(radix)
        radix *= group.size
    widest = max(len(g.placements) for g in puzzle.groups) + 1
    binom = np.zeros((widest, max(g.count for g in puzzle.groups) + 2), dtype=np.uint64)
    for n in range(widest):
        for k in range(binom.shape[1]):
            binom[n, k] = comb(n, k)
    info = np.zeros(4, dtype=np.int64)
    info[0] = METRIC_NUMBERS[puzzle.metric]
    if puzzle.goal.position is None and puzzle.goal.cells:
        info[2], info[3] = puzzle.goal_placement()
    return (gmask, table, np.array(offsets, dtype=np.int64),
            np.array([len(g.placements) for g in puzzle.groups], dtype=np.int64),
            np.array([g.count for g in puzzle.groups], dtype=np.int64),
            np.array([g.size for g in puzzle.groups], dtype=np.uint64),
            np.array(mult, dtype=np.uint64), binom, info,
            np.zeros(puzzle.pieces(), dtype=np.int64), np.zeros(total, dtype=np.int64),
            np.zeros(total, dtype=np.int64), np.zeros(max(g.count for g in puzzle.groups) + 1,
                                                      dtype=np.int64))


def kernel_neighbours(puzzle: SlidingPuzzle, code: int, data: tuple | None = None) -> list[int]:
    """The kernel's answer for one position (for checks against the rules in Python)."""
    data = kernel_data(puzzle) if data is None else data
    out = np.empty(degree(puzzle), dtype=np.uint64)
    n = moves_kernel(np.uint64(code), data, out)
    return sorted(int(c) for c in out[:n])


def degree(puzzle: SlidingPuzzle) -> int:
    """At most this many moves from a position."""
    return sum(g.count * len(g.placements) for g in puzzle.groups) * 4 + 1


def bound(puzzle: SlidingPuzzle) -> tuple[int, str]:
    """An upper bound on the positions reachable and what it is: the arrangements of the pieces
    on the board without overlaps, counted exactly where that count is small enough to make,
    else all codes (overlaps included)."""
    counted = arrangements(puzzle)
    if counted is None:
        return puzzle.code_space, "all codes (arrangements of the groups, overlaps included)"
    return counted, "arrangements of the pieces on the board without overlap"


def arrangements(puzzle: SlidingPuzzle) -> int | None:
    """The positions (reachable or not): every non-overlapping arrangement of the groups' pieces,
    counted cell by cell; None when the count would need more than BOUND_STATES memo entries."""
    by_anchor: dict[int, list[tuple[int, int]]] = {}
    for g, group in enumerate(puzzle.groups):
        for cells in group.placements:
            by_anchor.setdefault(min(cells), []).append(
                (g, sum(1 << (c - min(cells)) for c in cells)))
    board = sorted(puzzle.cells)
    empties = len(board) - sum(g.count * len(g.shape) for g in puzzle.groups)
    memo: dict = {}

    def count(at: int, covered: int, left: tuple[int, ...], free: int) -> int:
        while at < len(board) and covered & 1:
            covered >>= board[at + 1] - board[at] if at + 1 < len(board) else 1
            at += 1
        if at == len(board):
            return 1 if not any(left) else 0
        key = (at, covered, left, free)
        if key in memo:
            return memo[key]
        if len(memo) > BOUND_STATES:
            raise OverflowError
        cell = board[at]
        step = board[at + 1] - cell if at + 1 < len(board) else 1
        total = count(at + 1, covered >> step, left, free - 1) if free else 0
        for g, shape in by_anchor.get(cell, ()):
            if left[g] and not shape & covered:
                rest = left[:g] + (left[g] - 1,) + left[g + 1:]
                total += count(at + 1, (covered | shape) >> step, rest, free)
        memo[key] = total
        return total

    try:
        return count(0, 0, tuple(g.count for g in puzzle.groups), empties)
    except (OverflowError, RecursionError):
        return None
