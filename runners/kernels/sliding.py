"""Sliding-block puzzles in the breadth-first engine: the compiled move kernels, the goal test of
a piece-at-a-place goal, and the bound on positions the memory estimate uses.

A position has one of two codes (models/sliding):
- its rank among the arrangements of the pieces (models/sliding/ranking.py), where the puzzle has
  a ranking: dense, so the search keeps a byte per arrangement and no codes (`ranked_kernel`);
- else per group the rank of its placement set, in mixed radix (`moves_kernel`, for the search
  that keeps the codes it reaches).
A kernel decodes a code into the pieces' placements and the occupied cells as a 64-bit mask, and
writes the code of every position one move away in the puzzle's metric. The ranked search runs
`ranked_level` on parts of the ranks, one thread a part (the kernels release the GIL). The
kernels are checked against the rules written in Python (models/sliding, `SlidingPuzzle.moves`)
by `verify` on sampled positions, and by the tests on random boards.

`data` is (tables, scratch): the tables are read only; the scratch arrays have one row per slot,
so that threads of one search each work in their own (`slot`).
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..breadth_first import njit
from ..models.sliding import SlidingPuzzle
from ..models.sliding.ranking import Ranking, ranking

METRIC_NUMBERS = {"step": 0, "slide": 1, "path": 2}
UNSEEN = 255  # a byte of the ranked search: the arrangement not reached (yet)


# ---------------------------------------------------------------- moves of one piece
# The helpers take their arrays one by one: a tuple's item is a new reference to count, and
# these run for every move of every position.


@njit
def _targets(p, other, gmask, shifts, metric, seen, queue, targets, stamps, slot):
    """The placements (global indices) piece placement `p` can move to, the other pieces
    standing on `other`, written to the slot's `targets`; how many."""
    n = 0
    if metric == 2:
        stamps[slot] += 1
        stamp = stamps[slot]
        seen[slot, p] = stamp
        queue[slot, 0] = p
        head, tail = 0, 1
        while head < tail:
            a = queue[slot, head]
            head += 1
            for d in range(4):
                q = shifts[a, d]
                if q >= 0 and seen[slot, q] != stamp and (gmask[q] & other) == 0:
                    seen[slot, q] = stamp
                    queue[slot, tail] = q
                    tail += 1
                    targets[slot, n] = q
                    n += 1
        return n
    for d in range(4):
        q = shifts[p, d]
        while q >= 0 and (gmask[q] & other) == 0:
            targets[slot, n] = q
            n += 1
            if metric == 0:
                break
            q = shifts[q, d]
    return n


@njit
def _all_moves(occ, gmask, shifts, off, kcount, metric, pieces, seen, queue, targets, stamps,
               slot, group, piece, where):
    """Every move of every piece from the position in the slot's pieces (occupying `occ`):
    the n-th moves the piece of group group[slot, n] at pieces[slot, piece[slot, n]] to the
    placement where[slot, n] (a global index); how many."""
    n = 0
    t = 0
    for g in range(off.size):
        for j in range(t, t + kcount[g]):
            p = off[g] + pieces[slot, j]
            m = _targets(p, occ & ~gmask[p], gmask, shifts, metric, seen, queue, targets,
                         stamps, slot)
            for i in range(m):
                group[slot, n] = g
                piece[slot, n] = j
                where[slot, n] = targets[slot, i]
                n += 1
        t += kcount[g]
    return n


# ---------------------------------------------------------------- mixed-radix codes


@njit
def moves_kernel(code, data, slot, out):
    """The mixed-radix codes one move away from `code`, written to `out`; how many."""
    tables, scratch = data
    gmask, shifts, off, nplace, kcount, size, mult, binom, info = tables[:9]
    start = tables[13]
    pieces, seen, queue, targets, tmp, stamps, _, _, group, piece, where = scratch
    metric = info[0]
    # the pieces' placements and the occupied cells, from the code
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
            pieces[slot, t + i - 1] = c
            r -= binom[c, i]
            c -= 1
        for i in range(k):
            occ |= gmask[off[g] + pieces[slot, t + i]]
        t += k
    moves = _all_moves(occ, gmask, shifts, off, kcount, metric, pieces, seen, queue, targets,
                       stamps, slot, group, piece, where)
    for e in range(moves):
        # piece j of group g (its pieces at pieces[t:t+k]) goes to placement q: the group's
        # rank again, the others' unchanged
        g = group[slot, e]
        t = start[g]
        k = kcount[g]
        j = piece[slot, e] - t
        q = where[slot, e] - off[g]
        old = np.uint64(0)
        h = 0
        for i in range(k):
            old += binom[pieces[slot, t + i], i + 1]
            if i != j:
                tmp[slot, h] = pieces[slot, t + i]
                h += 1
        tmp[slot, h] = q
        h += 1
        for a in range(h - 1, 0, -1):  # insertion of q into the sorted others
            if tmp[slot, a] < tmp[slot, a - 1]:
                tmp[slot, a], tmp[slot, a - 1] = tmp[slot, a - 1], tmp[slot, a]
            else:
                break
        new = np.uint64(0)
        for i in range(h):
            new += binom[tmp[slot, i], i + 1]
        out[e] = code - old * mult[g] + new * mult[g]
    return moves


@njit
def goal_kernel(code, data):
    """Whether a piece of the goal's group stands on the goal's placement (mixed-radix code)."""
    tables = data[0]
    nplace, kcount, size, mult, binom, info = (tables[3], tables[4], tables[5], tables[6],
                                               tables[7], tables[8])
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


# ---------------------------------------------------------------- ranks (a perfect rank)


@njit
def _unrank(rank, gmask, off, cells, nxt, offset, anchored, start, end, pieces, anchor, fill,
            slot):
    """Fill the slot's pieces and anchors from a rank; the occupied cells."""
    for g in range(off.size):
        fill[slot, g] = start[g]
    for c in range(anchor.shape[1]):
        anchor[slot, c] = 0
    occ = np.uint64(0)
    state = 0
    r = np.uint64(rank)
    choices = nxt.shape[1]
    while state != end:
        chosen = 0
        for c in range(1, choices):
            if nxt[state, c] >= 0 and offset[state, c] <= r:
                chosen = c
        r -= offset[state, chosen]
        if chosen:
            g = chosen - 1
            cell = cells[state]
            p = anchored[g, cell]
            pieces[slot, fill[slot, g]] = p
            fill[slot, g] += 1
            anchor[slot, cell] = chosen
            occ |= gmask[off[g] + p]
        state = nxt[state, chosen]
    return occ


@njit
def _rank(cells, nxt, offset, anchor, end, slot):
    """The rank of the arrangement the slot's anchors describe."""
    total = np.uint64(0)
    state = 0
    while state != end:
        choice = anchor[slot, cells[state]]
        total += offset[state, choice]
        state = nxt[state, choice]
    return total


@njit
def _ranked_moves(rank, gmask, shifts, off, kcount, metric, cells, nxt, offset, anchored,
                  start, end, first, pieces, seen, queue, targets, stamps, anchor, fill, group,
                  piece, where, slot, out):
    occ = _unrank(rank, gmask, off, cells, nxt, offset, anchored, start, end, pieces, anchor,
                  fill, slot)
    moves = _all_moves(occ, gmask, shifts, off, kcount, metric, pieces, seen, queue, targets,
                       stamps, slot, group, piece, where)
    for e in range(moves):
        g = group[slot, e]
        was = first[off[g] + pieces[slot, piece[slot, e]]]
        to = first[where[slot, e]]
        anchor[slot, was] = 0
        anchor[slot, to] = g + 1
        out[e] = _rank(cells, nxt, offset, anchor, end, slot)
        anchor[slot, to] = 0
        anchor[slot, was] = g + 1
    return moves


@njit
def ranked_kernel(rank, data, slot, out):
    """The ranks one move away from `rank`, written to `out`; how many."""
    tables, scratch = data
    gmask, shifts, off, _, kcount, _, _, _, info, cells, nxt, offset, anchored, start, \
        first = tables
    pieces, seen, queue, targets, _, stamps, anchor, fill, group, piece, where = scratch
    return _ranked_moves(rank, gmask, shifts, off, kcount, info[0], cells, nxt, offset,
                         anchored, start, info[4], first, pieces, seen, queue, targets, stamps,
                         anchor, fill, group, piece, where, slot, out)


@njit
def goal_ranked(rank, data, slot):
    """Whether a piece of the goal's group stands on the goal's placement (a rank)."""
    tables, scratch = data
    gmask, _, off, _, _, _, _, _, info, cells, nxt, offset, anchored, start, _ = tables
    pieces, anchor, fill = scratch[0], scratch[6], scratch[7]
    _unrank(rank, gmask, off, cells, nxt, offset, anchored, start, info[4], pieces, anchor,
            fill, slot)
    return anchor[slot, info[5]] == info[2] + 1


@njit
def _holds_byte(word, pattern):
    """Whether a byte of the 64-bit `word` equals that of `pattern` (a byte repeated 8 times).
    No step carries past 64 bits: run as Python (numba absent), numpy warns of an overflow."""
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    v = word ^ pattern  # a zero byte where the word holds the pattern's
    return ~(((v & low7) + low7) | v | low7) != 0


@njit
def ranked_level(distance, words, level, after, unseen, lo, hi, data, slot, out):
    """Expand every rank in [lo, hi) whose byte is `level`: each neighbour whose byte is
    `unseen` gets `after`. `words` is `distance` seen 8 bytes at a time (lo and hi multiples of
    8): a word without the level's byte is passed over whole. Threads of one search each take
    a part, with their own slot; two may write the same byte, always with the same value. How
    many ranks were expanded."""
    tables, scratch = data
    gmask, shifts, off, _, kcount, _, _, _, info, cells, nxt, offset, anchored, start, \
        first = tables
    pieces, seen, queue, targets, _, stamps, anchor, fill, group, piece, where = scratch
    metric, end = info[0], info[4]
    pattern = np.uint64(0x0101010101010101) * np.uint64(level)
    done = 0
    for w in range(lo // 8, hi // 8):
        if not _holds_byte(words[w], pattern):  # no byte of the word is the level's
            continue
        for r in range(8 * w, 8 * w + 8):
            if distance[r] == level:
                done += 1
                n = _ranked_moves(r, gmask, shifts, off, kcount, metric, cells, nxt, offset,
                                  anchored, start, end, first, pieces, seen, queue, targets,
                                  stamps, anchor, fill, group, piece, where, slot, out)
                for i in range(n):
                    x = out[i]
                    if distance[x] == unseen:
                        distance[x] = after
    return done


@njit
def ranked_goals(distance, unseen, lo, hi, data, slot):
    """For the goal's component: every reached rank in [lo, hi) (byte not `unseen`) becomes 0
    where a goal stands, else 252 (to be reached again from the goals); how many goals."""
    found = 0
    for r in range(lo, hi):
        if distance[r] != unseen:
            if goal_ranked(r, data, slot):
                distance[r] = 0
                found += 1
            else:
                distance[r] = 252
    return found


@njit
def mixed_codes(ranks, data, codes):
    """The mixed-radix code of each rank's arrangement, into `codes` (for the play page, whose
    script computes those codes)."""
    tables, scratch = data
    gmask, _, off, _, kcount, _, mult, binom, info, cells, nxt, offset, anchored, start, \
        _ = tables
    pieces, anchor, fill = scratch[0], scratch[6], scratch[7]
    for i in range(ranks.size):
        _unrank(ranks[i], gmask, off, cells, nxt, offset, anchored, start, info[4], pieces,
                anchor, fill, 0)
        code = np.uint64(0)
        t = 0
        for g in range(off.size):
            rank = np.uint64(0)
            for j in range(kcount[g]):
                rank += binom[pieces[0, t + j], j + 1]
            code += rank * mult[g]
            t += kcount[g]
        codes[i] = code


# ---------------------------------------------------------------- the arrays


def kernel_data(puzzle: SlidingPuzzle, slots: int = 1, ranks: Ranking | None = None
                ) -> tuple[tuple, tuple]:
    """(tables, scratch): placements as masks, their shifts, the code's radices, the ranking's
    states where `ranks` is given; scratch rows for `slots` threads."""
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
    tables = (gmask, table, np.array(offsets, dtype=np.int64),
              np.array([len(g.placements) for g in puzzle.groups], dtype=np.int64),
              np.array([g.count for g in puzzle.groups], dtype=np.int64),
              np.array([g.size if g.size < 2**63 else 0 for g in puzzle.groups],
                       dtype=np.uint64),
              np.array(mult, dtype=np.uint64), binom, info, *states, start, first)
    scratch = (np.zeros((slots, puzzle.pieces()), dtype=np.int64),
               np.zeros((slots, total), dtype=np.int64),
               np.zeros((slots, total), dtype=np.int64),
               np.zeros((slots, total), dtype=np.int64),
               np.zeros((slots, max(g.count for g in puzzle.groups) + 1), dtype=np.int64),
               np.zeros(slots, dtype=np.int64),
               np.zeros((slots, span), dtype=np.int64),
               np.zeros((slots, groups), dtype=np.int64),
               *(np.zeros((slots, degree(puzzle)), dtype=np.int64) for _ in range(3)))
    return tables, scratch


def kernel_neighbours(puzzle: SlidingPuzzle, code: int, data: tuple | None = None,
                      ranked: bool = False) -> list[int]:
    """The kernel's answer for one position (for checks against the rules in Python)."""
    data = kernel_data(puzzle, ranks=ranking(puzzle) if ranked else None) if data is None \
        else data
    out = np.empty(degree(puzzle), dtype=np.uint64)
    kernel = ranked_kernel if ranked else moves_kernel
    n = kernel(np.uint64(code), data, 0, out)
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


# ---------------------------------------------------------------- clusters of positions


@njit
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit
def clusters(size, data, out, parent) -> int:
    """Label every arrangement (rank) with its cluster: the positions joined to it by moves.
    `parent` (size entries) ends holding each rank's cluster number, 0 to (clusters - 1), the
    clusters numbered by their smallest rank; how many clusters. Joining is the same in every
    metric (a slide or a path is steps through free cells), so `data` may be the step
    metric's."""
    for r in range(size):
        parent[r] = r
    for r in range(size):
        n = ranked_kernel(r, data, 0, out)
        for i in range(n):
            a, b = _root(parent, r), _root(parent, np.int64(out[i]))
            if a < b:  # the smaller rank is the root: a cluster's root is its smallest rank
                parent[b] = a
            elif b < a:
                parent[a] = b
    for r in range(size):
        parent[r] = _root(parent, r)
    found = 0
    for r in range(size):  # ascending: a root comes before the rest of its cluster
        if parent[r] == r:
            parent[r] = found
            found += 1
        else:
            parent[r] = parent[parent[r]]
    return found


@njit
def distances_to_goals(data, goals, single, label, count, distance, farthest, far_rank,
                       goal_count, out) -> int:
    """Every rank's distance to the nearest goal position of its cluster (the goals: the rank
    `single`, or where `goals` the goal test holds), in `distance` (65535: a cluster with no
    goal); per cluster its farthest distance and the smallest rank at it, and its goals; the
    positions at each distance into `count`. How many levels."""
    size = distance.size
    for r in range(size):
        distance[r] = 65535
    for c in range(farthest.size):
        farthest[c] = -1
        far_rank[c] = -1
        goal_count[c] = 0
    for r in range(size):
        if (goals and goal_ranked(r, data, 0)) or (not goals and r == single):
            distance[r] = 0
            goal_count[label[r]] += 1
    level = 0
    while level < 65534:
        expanded = 0
        for r in range(size):
            if distance[r] == level:
                expanded += 1
                c = label[r]
                if level > farthest[c]:
                    farthest[c] = level
                    far_rank[c] = r
                n = ranked_kernel(r, data, 0, out)
                for i in range(n):
                    x = out[i]
                    if distance[x] == 65535:
                        distance[x] = level + 1
        if expanded == 0:
            return level
        count[level] = expanded
        level += 1
    return level


@njit
def at_distance(distance, moves, picks, found) -> int:
    """The ranks at `moves` moves whose ordinal among them (in rank order) is in the sorted
    `picks`, into `found`; how many positions lie at that distance."""
    seen = 0
    j = 0
    for r in range(distance.size):
        if distance[r] == moves:
            while j < picks.size and picks[j] == seen:
                found[j] = r
                j += 1
            seen += 1
    return seen
