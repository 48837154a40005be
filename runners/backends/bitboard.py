"""A bitboard backtracker for exact cover without colours (packing puzzles), compiled by numba.

Items become bits of two 63-bit words (up to 126 items) in the model's fill order (for packing:
the board's cells along its shorter side, then the pieces). The search covers the first
uncovered item; the only options that can cover it are those whose first item it is, so each
item's options are one slice of a sorted array and a clash is two ANDs. Every solution is a
leaf of this search, so counting is exact; nothing is enumerated into Python.

numba (the `dlx` extra) compiles the search once and caches it on disk (`warm_up()` does that
and times it); without numba the same code runs as plain Python, correct but slow. The search
runs in slices of a given number of nodes, so a deadline and Ctrl-C are honoured between slices.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..compiled import COMPILED, njit, trailing_zeros
from ..models.encoded import CoverModel
from ..models.errors import InputError
from . import STOP, Backend, Cube, Interrupted, Outcome, Values

WORD = 63  # bits per word: int64 without its sign bit, so no arithmetic overflows
MAX_ITEMS = 2 * WORD
SLICE = 2_000_000  # nodes between two looks at the clock


def _memo_entries() -> int:
    """The most entries a worker's memo grows to (32 bytes each): 2 GiB, or an eighth of this
    machine's memory where that is less (the 6x15 one-sided pentominoes on one thread: 537 s
    with 2 GiB, 1.23 G nodes; fewer nodes than with 256 MiB, which drops more sub-problems)."""
    import os

    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        memory = 8 << 30
    entries = 1 << 26
    while entries > 1 << 20 and 32 * entries > memory // 8:
        entries >>= 1
    return entries


MEMO_ENTRIES = _memo_entries()
MEMO_FIRST = 1 << 14  # a memo starts with 512 KiB and grows fourfold while it fills
# The default memoises a cube whose search tree Knuth's estimator puts above this many nodes:
# on small trees the memo's table and its look-up per node cost about what they save
# (results/bitboard-search.md, quiet machine, buckets of two and dead regions: the 8x8 centre hole
# --modulo symmetry, cubes estimated at 40-80 k nodes, 0.21 s plain against 0.20 s memoised;
# IQ Block 10, cubes of 60 k (median) to 6 M, 0.91 s against 0.66 s; the 6x10, 320 k (median)
# to 2.4 M, 0.76 s against 0.67 s; the one-sided 3x30, 5-70 k, 0.41 s against 0.34 s).
MEMO_FROM_NODES = 100_000
# A region of uncovered cells next to a placed piece is grown to REACH times the smallest piece's
# cells before it is taken as coverable; a closed one too small or of the wrong size is a dead
# end (one-sided 5x18: 2.6 times fewer nodes, 1.5 times faster).
REACH = 1
MEMO_PROBE_PATHS = 200  # paths of that estimate (about a millisecond)
# Random paths per cube for its weight (the progress bar's share). Paths that drop the options
# closing off a dead region follow the tree the search walks: on the one-sided 9x10 (665 cubes,
# 9 s in all) 1,000 such paths correlate 0.89-0.91 (logarithms) with the seconds of the 325
# cubes timed above a second, and put the share of the work in its first 222 cubes counted at
# 0.46-0.50 over three seeds (their share of the solutions: 0.49); 4,000 paths through the
# whole first-empty-cell tree correlated 0.67-0.68 and put it anywhere from 0.39 to 0.80 over
# four seeds. With them the time left held within 2x through the run that finished the 9x10.
ESTIMATE_PATHS = 1000
# ... and where the board's geometry is unknown (no dead regions): on the 6x10 (37 cubes) 64
# paths correlate 0.50 with the nodes, 1,000 0.84, 5,000 0.92 (13 ms a cube)
PLAIN_ESTIMATE_PATHS = 4000


@njit(cache=True, nogil=True, inline="always")
def _slot(w0, w1, mask):  # pragma: no cover - compiled
    """Where a covered state's entry starts in the memo table (a multiplicative hash)."""
    h = (w0 * -7046029254386353131) ^ (w1 * -4417276706812531889)  # odd 64-bit constants
    h ^= h >> 29
    return h & mask


@njit(cache=True, nogil=True, inline="always")
def _place(i, w0, w1, low, high, step, copies_low, copies_high):  # pragma: no cover - compiled
    """(whether option i fits, the covered items after it) on covered items (w0, w1); an option
    placing copies of a piece takes the next free bits of its counter."""
    if (low[i] & w0) != 0 or (high[i] & w1) != 0:
        return False, w0, w1
    n0 = w0 | low[i]
    n1 = w1 | high[i]
    if step[i]:
        c0 = copies_low[i]
        if c0:
            first = c0 & -c0
            more = (((w0 & c0) + first) << step[i]) - first
            if (w0 & c0) == c0 or (more & ~c0) != 0:
                return False, w0, w1
            n0 |= more
        else:
            c1 = copies_high[i]
            first = c1 & -c1
            more = (((w1 & c1) + first) << step[i]) - first
            if (w1 & c1) == c1 or (more & ~c1) != 0:
                return False, w0, w1
            n1 |= more
    return True, n0, n1


@njit(cache=True, nogil=True)
def _fewest(w0, w1, choose_low, choose_high, members, member_start, member_end, low, high, step,
            copies_low, copies_high):  # pragma: no cover - compiled
    """The uncovered item (a cell or a piece) with the fewest options that fit, the first such
    in fill order; -1 when there is none to choose."""
    best = -1
    fewest = 1 << 62
    for word in range(2):
        x = (choose_low & ~w0) if word == 0 else (choose_high & ~w1)
        while x:
            u = WORD * word + trailing_zeros(x)
            x &= x - 1
            k = 0
            for j in range(member_start[u], member_end[u]):
                fits, _, _ = _place(members[j], w0, w1, low, high, step, copies_low, copies_high)
                if fits:
                    k += 1
                    if k >= fewest:
                        break
            if k < fewest:
                best, fewest = u, k
                if k == 0:
                    return best
    return best


@njit(cache=True, nogil=True)
def _closed_small(c, n0, n1, near_low, near_high, smallest, granule, reach):  # pragma: no cover
    """Whether the region of uncovered cells holding cell c is closed and cannot be covered:
    fewer than `smallest` cells, or a number that is no multiple of `granule`. The region is
    grown face by face from c; one that passes `reach` cells is taken as coverable."""
    r0 = np.int64(0)
    r1 = np.int64(0)
    if c < WORD:
        r0 = np.int64(1) << c
    else:
        r1 = np.int64(1) << (c - WORD)
    f0, f1 = r0, r1
    size = 1
    while True:
        g0 = np.int64(0)
        g1 = np.int64(0)
        while f0:
            b = trailing_zeros(f0)
            f0 &= f0 - 1
            g0 |= near_low[b]
            g1 |= near_high[b]
        while f1:
            b = WORD + trailing_zeros(f1)
            f1 &= f1 - 1
            g0 |= near_low[b]
            g1 |= near_high[b]
        g0 &= ~(n0 | r0)
        g1 &= ~(n1 | r1)
        if g0 == 0 and g1 == 0:
            return size < smallest or size % granule != 0
        x = g0
        while x:
            x &= x - 1
            size += 1
        x = g1
        while x:
            x &= x - 1
            size += 1
        if size > reach:
            return False
        r0 |= g0
        r1 |= g1
        f0, f1 = g0, g1


@njit(cache=True, nogil=True, inline="always")
def _dead_end(i, n0, n1, halo_low, halo_high, near_low, near_high, smallest, granule,
              reach):  # pragma: no cover - compiled
    """Whether option i, just placed (n0, n1 covered), closed off a region of cells next to it
    that no piece can fill."""
    e0 = halo_low[i] & ~n0
    e1 = halo_high[i] & ~n1
    while e0:
        c = trailing_zeros(e0)
        e0 &= e0 - 1
        if _closed_small(c, n0, n1, near_low, near_high, smallest, granule, reach):
            return True
    while e1:
        c = WORD + trailing_zeros(e1)
        e1 &= e1 - 1
        if _closed_small(c, n0, n1, near_low, near_high, smallest, granule, reach):
            return True
    return False


@njit(cache=True, nogil=True)
def _search(
    low,
    high,
    start,
    end,
    full_low,
    full_high,
    stack_low,
    stack_high,
    nxt,
    last,
    below,
    depth,
    budget,
    record,
    chosen,
    memo,
    memo_depth,
    tally,
    step,
    copies_low,
    copies_high,
    halo_low,
    halo_high,
    near_low,
    near_high,
    smallest,
    granule,
    reach,
    fewest_levels,
    listed,
    begun,
    members,
    member_start,
    member_end,
    choose_low,
    choose_high,
    last_low,
    last_high,
    run_end,
):  # pragma: no cover - compiled
    """Run the search from its saved stack for at most `budget` nodes.

    Level d holds the items covered so far, the slice [nxt[d], last[d]) of options still to try
    for its first uncovered item, and below[d], the solutions found under it so far. Levels
    below `fewest_levels` branch instead on the item with the fewest options that fit (listed[d]
    set: the slice is of `members`, the options of that item). A level
    whose options are exhausted has counted its whole sub-problem: with a memo table (its size
    a power of two, 0 for none) the count is stored under the covered items, and a later level
    that reaches the same covered items (the same cells filled, the same pieces left) takes it
    from there instead of searching again. Returns whether the search is over; depth[0] is
    kept for the next call, tally[0] counts nodes, tally[1] memo hits, tally[2] stores and
    tally[3] options dropped for closing off a region no piece can fill (where the board's
    geometry is known: `reach` > 0). With record, the first solution's options are written to
    `chosen` (one per level, -1 after the last) and the search stops there.
    """
    d = depth[0]
    steps = 0
    size = memo.shape[0] // 4
    mask = size // 2 - 1  # buckets of two entries
    while d >= 0:
        if steps >= budget:
            depth[0] = d
            tally[0] += steps
            return False
        i = nxt[d]
        if i >= last[d]:
            found = below[d]
            if size and 0 < d < memo_depth:  # level 0 is the cube's own start: never met again
                w0 = stack_low[d]
                w1 = stack_high[d]
                _store(memo, 8 * _slot(w0, w1, mask), w0, w1, found,
                       tally[0] + steps - begun[d])
                tally[2] += 1
            d -= 1
            if d >= 0:
                below[d] += found
            else:
                below[0] = found
                break
            continue
        nxt[d] = i + 1
        w0 = stack_low[d]
        w1 = stack_high[d]
        if listed[d]:
            i = members[i]
        fits, n0, n1 = _place(i, w0, w1, low, high, step, copies_low, copies_high)
        if not fits:
            if not listed[d] and ((last_low[i] & w0) != 0 or (last_high[i] & w1) != 0):
                nxt[d] = run_end[i]  # its piece is placed: so are the rest of the run's
            continue
        if reach and _dead_end(i, n0, n1, halo_low, halo_high, near_low, near_high, smallest,
                               granule, reach):
            tally[3] += 1
            continue
        steps += 1
        if n0 == full_low:
            if n1 == full_high:
                below[d] += 1
                if record:
                    for k in range(d + 1):
                        chosen[k] = members[nxt[k] - 1] if listed[k] else nxt[k] - 1
                    chosen[d + 1] = -1
                    depth[0] = d
                    tally[0] += steps
                    return False
                continue
            b = WORD + trailing_zeros(~n1 & (n1 + 1))
        else:
            b = trailing_zeros(~n0 & (n0 + 1))
        if size and d + 1 < memo_depth:
            h = 8 * _slot(n0, n1, mask)
            if memo[h + 1] == n1 and memo[h] == n0:
                below[d] += memo[h + 2]
                tally[1] += 1
                continue
            if memo[h + 5] == n1 and memo[h + 4] == n0:
                below[d] += memo[h + 6]
                tally[1] += 1
                continue
        d += 1
        stack_low[d] = n0
        stack_high[d] = n1
        below[d] = 0
        begun[d] = tally[0] + steps
        u = -1
        if d < fewest_levels:
            u = _fewest(n0, n1, choose_low, choose_high, members, member_start, member_end, low,
                        high, step, copies_low, copies_high)
        if u >= 0:
            nxt[d] = member_start[u]
            last[d] = member_end[u]
            listed[d] = 1
        else:
            nxt[d] = start[b]
            last[d] = end[b]
            listed[d] = 0
    depth[0] = -1
    tally[0] += steps
    return True


@njit(cache=True, nogil=True, inline="always")
def _store(memo, at, w0, w1, found, work):  # pragma: no cover - compiled
    """Keep a sub-problem's count in the bucket of two entries at `at`: in its own entry or an
    empty one, else in place of the entry that took less work to count (the work, nodes, is
    kept in an entry's fourth word). Large sub-problems stay, small ones come and go, as a chess
    engine's transposition table keeps deep entries."""
    k = at
    if memo[at] == w0 and memo[at + 1] == w1:
        k = at
    elif memo[at + 4] == w0 and memo[at + 5] == w1:
        k = at + 4
    elif memo[at] == -1:
        k = at
    elif memo[at + 4] == -1:
        k = at + 4
    elif memo[at + 7] < memo[at + 3]:
        k = at + 4
    memo[k] = w0
    memo[k + 1] = w1
    memo[k + 2] = found
    memo[k + 3] = work


@njit(cache=True, nogil=True)
def _rehash(old, new):  # pragma: no cover - compiled
    """Copy a memo's entries into a larger table."""
    mask = new.shape[0] // 8 - 1
    for h in range(0, old.shape[0], 4):
        if old[h] != -1:
            _store(new, 8 * _slot(old[h], old[h + 1], mask), old[h], old[h + 1], old[h + 2],
                   old[h + 3])


@njit(cache=True, nogil=True)
def _probe(low, high, start, end, full_low, full_high, step, copies_low, copies_high, w0, w1,
           seed, samples, halo_low, halo_high, near_low, near_high, smallest, granule,
           reach):  # pragma: no cover - compiled
    """Knuth's estimate of the search tree's size below a covered state: follow `samples`
    random paths down the tree, each node's branching multiplying the weight of those below;
    the mean of the paths' sums is an unbiased estimate of the nodes. With `reach` > 0 the tree
    is the one the search walks: options closing off a dead region are not branches."""
    np.random.seed(seed)
    fits = np.empty(end.shape[0] and (end - start).max() + 1, dtype=np.int64)
    total = 0.0
    for _ in range(samples):
        a0, a1 = w0, w1
        weight, estimate = 1.0, 1.0
        while not (a0 == full_low and a1 == full_high):
            if a0 == full_low:
                b = WORD + trailing_zeros(~a1 & (a1 + 1))
            else:
                b = trailing_zeros(~a0 & (a0 + 1))
            k = 0
            for i in range(start[b], end[b]):
                fitting, n0, n1 = _place(i, a0, a1, low, high, step, copies_low, copies_high)
                if fitting and not (reach and _dead_end(i, n0, n1, halo_low, halo_high, near_low,
                                                        near_high, smallest, granule, reach)):
                    fits[k] = i
                    k += 1
            if k == 0:
                break
            weight *= k
            estimate += weight
            _, a0, a1 = _place(fits[np.random.randint(k)], a0, a1, low, high, step, copies_low,
                               copies_high)
        total += estimate
    return total / samples


@dataclass
class Board:
    """A model as bit masks: options sorted by their first item, each item's slice of them.

    An item covered several times (identical copies of a piece) takes one bit per copy, within
    one word; an option placing copies takes the next free ones (`step` of them), so the copies
    are interchangeable and a covering is reached once."""

    low: np.ndarray  # int64 per option: its items among the first WORD bits
    high: np.ndarray  # int64 per option: its items among the next WORD bits
    option: np.ndarray  # the model's index of each (sorted) option
    start: np.ndarray  # per bit: the first option whose first item it is
    end: np.ndarray
    full_low: int
    full_high: int
    bit_of: dict[int, int]  # item -> bit (its first bit, for an item covered several times)
    step: np.ndarray  # int64 per option: copies it places (0: none)
    copies_low: np.ndarray  # int64 per option: the bits of those copies' item, first word
    copies_high: np.ndarray  # ... or second word
    padding: int = 0  # bits no item has (counted as covered from the start)
    # the board's geometry (CoverModel.regions), for dropping an option that closes off a region
    # no piece can fill: per bit, the bits next to it; per option, the bits next to it outside it
    near_low: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    near_high: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    halo_low: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    halo_high: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    smallest: int = 1
    granule: int = 1
    reach: int = 0  # cells a region is grown to before it is taken as coverable (0: no geometry)
    # for branching on the item with the fewest fits: per bit, its options (positions in the
    # sorted options) members[member_start[b]:member_end[b]]; the bits that may be chosen (items
    # covered once: a piece's copies are counted, not chosen)
    members: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    member_start: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    member_end: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    choose_low: int = 0
    choose_high: int = 0
    # per option: its last item's bit, and the end of the run of options sharing its first and
    # last items (options of one piece on one cell: all fail once the piece is placed)
    last_low: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    last_high: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    run_end: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    def take(self, covered: int, j: int) -> int | None:
        """The covered bits after option j (its place in the sorted options), None on a clash."""
        mask = int(self.low[j]) | int(self.high[j]) << WORD
        if covered & mask:
            return None
        covered |= mask
        step = int(self.step[j])
        if step:
            copies = int(self.copies_low[j]) | int(self.copies_high[j]) << WORD
            lowest = copies & -copies
            taken = covered & copies
            more = ((taken + lowest) << step) - lowest
            if more & ~copies:
                return None
            covered |= more
        return covered


def board_of(model: CoverModel, left_out: frozenset[int] = frozenset()) -> Board:
    """The bit masks of a model (options in left_out dropped)."""
    if len(model.items) > model.primary or model.coloured:
        raise ValueError("the bitboard search takes exact covers without secondary items")
    times = model.multiplicity or [1] * len(model.items)
    order = model.fill_order if model.fill_order is not None else range(len(model.items))
    bit_of: dict[int, int] = {}
    n = padding = 0
    for item in order:
        if times[item] > 1 and n < WORD < n + times[item]:  # copies stay within one word
            padding |= ((1 << WORD) - 1) & ~((1 << n) - 1)
            n = WORD
        bit_of[item] = n
        n += times[item]
    if n > MAX_ITEMS:
        raise ValueError(
            f"the bitboard search takes at most {MAX_ITEMS} items (one a copy of a piece); this "
            f"model has {n:,}")
    rows = []
    for k, option in enumerate(model.options):
        if k in left_out or not option:
            continue
        single = [i for i in option if times[i] == 1]
        counted = sorted(set(i for i in option if times[i] > 1))
        if len(counted) > 1:
            raise ValueError("the bitboard search places copies of one piece an option at most")
        bits = sorted(bit_of[i] for i in single)
        mask = sum(1 << b for b in bits)
        step = copies = 0
        if counted:
            [item] = counted
            step = option.count(item)
            copies = ((1 << times[item]) - 1) << bit_of[item]
            if not bits:  # the option's first item is then its piece
                bits = [bit_of[item]]
        top = mask.bit_length() - 1  # a packing option's piece: items after the cells
        rows.append((bits[0], top, mask & ((1 << WORD) - 1), mask >> WORD, k, step,
                     copies & ((1 << WORD) - 1), copies >> WORD))
    rows.sort()  # by first item, then by last: a piece's options in a run of their own
    firsts = np.array([r[0] for r in rows], dtype=np.int64)
    start = np.searchsorted(firsts, np.arange(n), side="left").astype(np.int64)
    end = np.searchsorted(firsts, np.arange(n), side="right").astype(np.int64)
    full = (1 << n) - 1

    def column(i: int) -> np.ndarray:
        return np.array([r[i] for r in rows], dtype=np.int64)

    board = Board(column(2), column(3), column(4), start, end, full & ((1 << WORD) - 1),
                  full >> WORD, bit_of, column(5), column(6), column(7), padding)
    # each option's last item, and where the run of options sharing it (and the first item)
    # ends: once that item is covered (the piece placed) the search skips the whole run
    tops = [(1 << r[1]) if r[1] >= 0 else 0 for r in rows]
    board.last_low = np.array([t & ((1 << WORD) - 1) for t in tops] or [0], dtype=np.int64)
    board.last_high = np.array([t >> WORD for t in tops] or [0], dtype=np.int64)
    run_end = np.zeros(max(1, len(rows)), dtype=np.int64)
    for j in range(len(rows) - 1, -1, -1):
        same = j + 1 < len(rows) and rows[j + 1][:2] == rows[j][:2]
        run_end[j] = run_end[j + 1] if same else j + 1
    board.run_end = run_end
    of_bit: list[list[int]] = [[] for _ in range(n)]
    for j, row in enumerate(rows):
        mask = row[2] | row[3] << WORD
        for b in range(mask.bit_length()):
            if mask >> b & 1:
                of_bit[b].append(j)
    board.members = np.array([j for js in of_bit for j in js] or [0], dtype=np.int64)
    sizes = np.array([len(js) for js in of_bit], dtype=np.int64)
    board.member_end = np.cumsum(sizes).astype(np.int64)
    board.member_start = (board.member_end - sizes).astype(np.int64)
    single = sum(1 << bit_of[item] for item in bit_of if times[item] == 1)
    board.choose_low, board.choose_high = _words(single)
    if model.regions is not None:
        add_regions(board, model)
    return board


def _words(bits: int) -> tuple[int, int]:
    return bits & ((1 << WORD) - 1), bits >> WORD


def add_regions(board: Board, model: CoverModel) -> None:
    """The board's geometry as bit masks (see Board.near_low), from the model's Regions."""
    regions = model.regions
    near = [0] * max(1, len(board.start))
    for item, bit in board.bit_of.items():
        for other in regions.adjacent[item]:
            near[bit] |= 1 << board.bit_of[other]
    halo = []
    for k in board.option:
        mine = sum(1 << board.bit_of[i] for i in model.options[k] if regions.adjacent[i])
        around = 0
        for bit in range(mine.bit_length()):
            if mine >> bit & 1:
                around |= near[bit]
        halo.append(_words(around & ~mine))
    board.near_low = np.array([_words(n)[0] for n in near], dtype=np.int64)
    board.near_high = np.array([_words(n)[1] for n in near], dtype=np.int64)
    board.halo_low = np.array([h[0] for h in halo] or [0], dtype=np.int64)
    board.halo_high = np.array([h[1] for h in halo] or [0], dtype=np.int64)
    board.smallest, board.granule = regions.smallest, regions.granule
    board.reach = REACH * regions.smallest


class Memo:
    """Counts of sub-problems already searched, keyed by the items they leave uncovered.

    A table of `size` entries (a power of two) in buckets of two; a new entry takes the place
    of the one of its bucket that took less work to count, so memory stays bounded, large
    sub-problems stay, and a miss only costs a search. Valid for one Board: the count of a
    covered state depends on the options, never on how the state was reached, so one Memo
    serves every cube counted against that Board.
    """

    def __init__(self, size: int) -> None:
        # per entry: covered items (two words; -1: empty, a state never has bit 63), its count,
        # and the nodes its count took; a bucket is one 64-byte line
        self.table = np.full(4 * size, -1, dtype=np.int64)


NO_MEMO = Memo(0)


class Search:
    """One cube's search, resumable: run it slice by slice."""

    def __init__(self, board: Board, cube: Cube, memo: Memo = NO_MEMO,
                 fewest: bool = False) -> None:
        self.board = board
        self.memo = memo
        self.memo_depth = MAX_ITEMS + 2
        # levels that branch on the item with the fewest fits (the others: the first uncovered)
        self.fewest_levels = MAX_ITEMS + 2 if fewest else 0
        self.chosen = [k - 1 for k in cube if k > 0]
        levels = MAX_ITEMS + 2
        self.stack_low = np.zeros(levels, dtype=np.int64)
        self.stack_high = np.zeros(levels, dtype=np.int64)
        self.nxt = np.zeros(levels, dtype=np.int64)
        self.last = np.zeros(levels, dtype=np.int64)
        self.below = np.zeros(levels, dtype=np.int64)
        self.depth = np.zeros(1, dtype=np.int64)
        self.picked = np.full(levels, -1, dtype=np.int64)
        self.listed = np.zeros(levels, dtype=np.int64)  # levels branching on `members`
        self.begun = np.zeros(levels, dtype=np.int64)  # nodes counted when each level began
        # nodes, memo hits, memo stores, options dropped for closing off a region
        self.tally = np.zeros(4, dtype=np.int64)
        self.found = 0
        self.done = False
        covered: int | None = board.padding
        position = {int(k): j for j, k in enumerate(board.option)}
        for k in self.chosen:
            if k not in position:  # left out by the cube itself, or covering nothing
                self.done = True
                return
            covered = board.take(covered, position[k])
            if covered is None:
                self.done = True  # the cube's options overlap: no solution
                return
        full = board.full_low | board.full_high << WORD
        if covered == full:
            self.found, self.done = 1, True
            return
        first = ((~covered) & (covered + 1)).bit_length() - 1
        self.stack_low[0] = covered & ((1 << WORD) - 1)
        self.stack_high[0] = covered >> WORD
        self.nxt[0] = board.start[first]
        self.last[0] = board.end[first]
        if fewest:
            b = board
            u = _fewest(self.stack_low[0], self.stack_high[0], b.choose_low, b.choose_high,
                        b.members, b.member_start, b.member_end, b.low, b.high, b.step,
                        b.copies_low, b.copies_high)
            if u >= 0:
                self.nxt[0], self.last[0] = b.member_start[u], b.member_end[u]
                self.listed[0] = 1

    def estimate(self, samples: int | None = None, seed: int = 1, regions: bool = True) -> float:
        """Knuth's random-path estimate of this cube's search tree (its nodes, without memo):
        the tree the search walks, or with `regions` False the whole first-empty-cell tree,
        dead regions included. `samples` paths (default: ESTIMATE_PATHS where the board's
        geometry prunes dead regions, PLAIN_ESTIMATE_PATHS where it does not)."""
        if self.done:
            return 1.0
        b = self.board
        reach = b.reach if regions else 0
        if samples is None:
            samples = ESTIMATE_PATHS if reach else PLAIN_ESTIMATE_PATHS
        return float(_probe(b.low, b.high, b.start, b.end, b.full_low, b.full_high, b.step,
                            b.copies_low, b.copies_high, self.stack_low[0], self.stack_high[0],
                            seed, samples, b.halo_low, b.halo_high, b.near_low, b.near_high,
                            b.smallest, b.granule, reach))

    @property
    def nodes(self) -> int:
        """Options tried so far (the search tree's nodes)."""
        return int(self.tally[0])

    @property
    def stores(self) -> int:
        """Sub-problems written to the memo since it was last replaced."""
        return int(self.tally[2])

    @property
    def dead_ends(self) -> int:
        """Options dropped for closing off a region of cells no piece can fill."""
        return int(self.tally[3])

    @property
    def hits(self) -> int:
        """Sub-problems taken from the memo instead of searched."""
        return int(self.tally[1])

    def run(self, budget: int, record: bool = False) -> bool:
        """Search on for at most `budget` nodes; whether the cube is finished.

        `found` is then the cube's count (finished) or the solutions found so far."""
        if self.done:
            return True
        b = self.board
        memo = NO_MEMO if record else self.memo  # listing needs every solution's leaf
        over = _search(
            b.low,
            b.high,
            b.start,
            b.end,
            b.full_low,
            b.full_high,
            self.stack_low,
            self.stack_high,
            self.nxt,
            self.last,
            self.below,
            self.depth,
            budget,
            record,
            self.picked,
            memo.table,
            self.memo_depth,
            self.tally,
            b.step,
            b.copies_low,
            b.copies_high,
            b.halo_low,
            b.halo_high,
            b.near_low,
            b.near_high,
            b.smallest,
            b.granule,
            b.reach,
            self.fewest_levels,
            self.listed,
            self.begun,
            b.members,
            b.member_start,
            b.member_end,
            b.choose_low,
            b.choose_high,
            b.last_low,
            b.last_high,
            b.run_end,
        )
        self.done = bool(over)
        depth = int(self.depth[0])
        self.found = int(self.below[0] if self.done else self.below[: depth + 1].sum())
        return self.done

    def solution(self) -> list[int]:
        """The model's options of the solution just recorded."""
        picked = [int(self.board.option[j]) for j in self.picked if j >= 0]
        self.picked[:] = -1
        return sorted(self.chosen + picked)


def warm_up() -> float:
    """Compile the search (or load numba's cache) on a tiny cover; the seconds this took."""
    start = time.perf_counter()
    tiny = CoverModel(["a", "b"], 2, [(0,), (1,), (0, 1)])
    board = board_of(tiny)
    for fewest in (False, True):  # every compiled function: both orders, the memo, estimates
        search = Search(board, (), Memo(MEMO_FIRST), fewest=fewest)
        search.run(SLICE)
        assert search.found == 2 and search.estimate(1) >= 1
    _rehash(Memo(2).table, Memo(4).table)
    return time.perf_counter() - start


def check_items(model: CoverModel) -> None:
    """A model beyond the bitboard's items is refused before any work, saying what serves."""
    needed = sum(model.multiplicity or [1] * len(model.items))
    if needed > MAX_ITEMS:
        raise InputError(
            f"bitboard takes at most {MAX_ITEMS} items (board cells, pieces and copies of "
            f"pieces); this puzzle has {needed:,}: use "
            + ("cpsat or a pysat solver" if model.multiplicity else "xcover or cpsat"),
            field="backend")


@dataclass
class Prepared:
    """A model's board in one worker thread, and that thread's memo for it."""

    model: CoverModel
    board: Board
    memo: Memo = NO_MEMO


MODES = {
    None: "bitboard backtracker on the first empty cell, compiled by numba (exact cover); "
          "sub-problems memoised where that pays",
    "memo": "the bitboard search counting each sub-problem once (same cells covered, same "
            "pieces left)",
    "plain": "the bitboard search without a memo",
    "fewest": "the bitboard search branching on the item (a cell or a piece) with the fewest "
              "options that fit, instead of the first empty cell; memo where it pays",
}


def wants_memo(search: Search, mode: str | None) -> bool:
    """Whether a cube's count uses the memo: always with 'memo', never with 'plain', and by
    default where the estimated tree is large enough to pay for it (the whole first-empty-cell
    tree: the measure MEMO_FROM_NODES was measured in)."""
    if mode in ("memo", "plain"):
        return mode == "memo"
    return search.estimate(MEMO_PROBE_PATHS, regions=False) > MEMO_FROM_NODES


def grow(state: Prepared, search: Search) -> None:
    """A memo that has taken twice as many stores as it has entries gets four times as many
    (up to MEMO_ENTRIES): small counts never pay for a large table, large ones get one."""
    size = len(state.memo.table) // 4
    if search.memo is state.memo and 0 < size < MEMO_ENTRIES and search.stores > 2 * size:
        larger = Memo(min(MEMO_ENTRIES, 4 * size))
        _rehash(state.memo.table, larger.table)  # what is known stays known
        state.memo = larger
        search.memo = state.memo
        search.tally[2] = 0


class BitboardBackend(Backend):
    """Counts exact covers (packing puzzles) by a compiled bitboard search."""

    name = "bitboard"
    takes = "cover"
    about = MODES[None]
    cubes_per_job = 4
    stops_itself = True
    multiplicities = True  # copies of a piece take the next free bits of their counter
    # The compiled search releases the GIL: its cubes may run on threads of one process, which
    # saves each worker process's start (numba's import and cache load, 1-4 s on a busy machine).
    releases_gil = COMPILED
    needs = "pip install 'puzzlesat[dlx]' (numba; without it the search runs slowly in Python)"

    def __init__(self, mode: str | None = None) -> None:
        if mode not in MODES:
            raise InputError(
                f"unknown bitboard mode {mode!r}; use bitboard (memo where it pays), "
                "bitboard:memo, bitboard:plain or bitboard:fewest", field="backend")
        self.mode = mode
        self.fewest = mode == "fewest"
        self.name = "bitboard" if mode is None else f"bitboard:{mode}"
        self.about = MODES[mode]

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("numba") is not None

    def payload(self, model: CoverModel) -> CoverModel:
        """The model, refused here (before any worker starts) when it is too big for the search."""
        check_items(model)
        return model

    def prepare(self, payload: CoverModel) -> Prepared:
        return Prepared(payload, board_of(payload))  # the memo is made when a cube wants it

    def _search(self, state: Prepared, cube: Cube, counting: bool = False) -> Search:
        left_out = frozenset(-k - 1 for k in cube if k < 0)
        if left_out:  # another board: the memo of the whole one does not hold for it
            return Search(board_of(state.model, left_out), cube, fewest=self.fewest)
        search = Search(state.board, cube, fewest=self.fewest)
        if counting and not search.done and wants_memo(search, self.mode):
            if state.memo is NO_MEMO:
                state.memo = Memo(MEMO_FIRST)
            search.memo = state.memo
        return search

    def prepare_for_estimates(self, payload: CoverModel) -> Prepared:
        return Prepared(payload, board_of(payload))  # no memo table: estimates never count

    def estimate(self, state: Prepared, cube: Cube) -> float:
        """The cube's work, by Knuth's estimator of its search tree (random paths)."""
        return self._search(state, cube).estimate()

    def count_cube(
        self, state: Prepared, cube: Cube, deadline: float | None
    ) -> tuple[Values, bool]:
        search = self._search(state, cube, counting=True)
        try:
            while not search.run(SLICE):
                if deadline is not None and time.time() >= deadline or STOP.is_set():
                    return (search.found,), False
                grow(state, search)
        except KeyboardInterrupt:
            raise Interrupted((search.found,)) from None
        return (search.found,), True

    def enumerate(self, state: Prepared, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        search = self._search(state, cube)
        if search.done:
            if search.found:
                yield state.model.values(search.chosen)
            return
        given = 0
        while limit is None or given < limit:
            over = search.run(SLICE, record=True)
            if search.picked[0] >= 0:
                yield state.model.values(search.solution())
                given += 1
            if over:
                return

    def solve(self, model: CoverModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        state = self.prepare(self.payload(model))
        search = self._search(state, ())
        if search.done:
            values = model.values(search.chosen) if search.found else None
            return Outcome(values, time.perf_counter() - start)
        while True:
            over = search.run(SLICE, record=True)
            if search.found:
                return Outcome(model.values(search.solution()), time.perf_counter() - start)
            if over:
                return Outcome(None, time.perf_counter() - start)
            if deadline is not None and time.time() >= deadline:
                return Outcome(None, time.perf_counter() - start, complete=False)
