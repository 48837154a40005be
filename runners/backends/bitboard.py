"""A bitboard backtracker for exact cover without colours (packing puzzles), compiled in C.

Items are bits of as many 63-bit words as the model needs (no limit on the items), in the
model's fill order (for packing: the board's cells along its shorter side, then the pieces). A
piece with N copies is one item with a multiplicity: a counter of its copies placed, a field of
bits after the items covered once, so a covering is reached once whatever copy went where, and
the memo key (the covered items and the counters) merges equal sub-problems. Each option is its
nonzero words (most options touch one or two), so a clash is an AND a word it touches.

The search covers the first uncovered item (or the item with the fewest options that fit); the
only options that can cover the first uncovered item are those whose first item it is, so each
item's options are one slice of a sorted array. Every solution is a leaf of this search, so
counting is exact; nothing is enumerated into Python. The covered items are one array changed
in place (an option's words set, and cleared when the search backs up), with a Zobrist hash of
them kept beside it for the memo: no step costs more on a wider board but the first-item scan.

The search itself is C (runners/csrc/bitboard.c, the extension puzzlesat._bitboard, built when
puzzlesat is installed; where no C compiler was found the backend is absent and says so). This
module builds its arrays and keeps its resumable stack. The search runs in slices of a given
number of nodes, with the GIL released, so a deadline and Ctrl-C are honoured between slices and
threads count cubes at once.
"""

from __future__ import annotations

import functools
import mmap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import native
from ..models.encoded import CoverModel
from ..models.errors import InputError
from . import FEWEST, REST_FEWEST, STOP, Backend, Cube, Interrupted, Outcome, Slices, Values

WORD = 63  # bits per word: int64 without its sign bit, so no arithmetic overflows
# A count is two words, low and high, of LIMB bits each (the low word's carry goes to the high
# one): exact up to 2^(2 * LIMB) - 1; past that the search stops and says so, never wraps
LIMB = 62
LOW = (1 << LIMB) - 1
ENTRY = 3  # words of a memo entry after its key: the count's low and high words, its work
SLICE = 200_000  # nodes of a search's first slice (then sized by Slices: about 0.1 s each)
SLOW_PACE = 2_000_000  # nodes a second of a slow search (the default's runs at 5-30 M)
MEMO_FIRST = 512 << 10  # bytes of a memo's first table; it grows fourfold while it fills


def _memo_bytes() -> int:
    """The most a worker's memo grows to (a memo N threads share: N times this): 2 GiB, or an
    eighth of this machine's memory where that is less (the 6x15 one-sided pentominoes on one
    thread: 537 s with 2 GiB, 1.23 G nodes; fewer nodes than with 256 MiB, which drops more
    sub-problems)."""
    import os

    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        memory = 8 << 30
    return max(32 << 20, min(2 << 30, memory // 8))


MEMO_BYTES = _memo_bytes()
# The default memoises every cube it counts (but one with options left out: another board).
# Measured, the memo cost no more than it saved even on small trees (results/bitboard-search.md,
# quiet machine, buckets of two and dead regions: the 8x8 centre hole --modulo symmetry, cubes
# estimated at 40-80 k nodes, 0.21 s plain against 0.20 s memoised; IQ Block 10, cubes of 60 k
# (median) to 6 M, 0.91 s against 0.66 s; the 6x10, 320 k (median) to 2.4 M, 0.76 s against
# 0.67 s; the one-sided 3x30, 5-70 k, 0.41 s against 0.34 s), while the estimate that once
# chose the trees large enough for it missed: a cube of the one-sided 5x18 --modulo symmetry
# put at 34,000 nodes by 200 paths searched 50 M nodes without the memo, 11.4 s, against 5 M
# and 2.1 s with it (session 12).
# A region of uncovered cells next to a placed piece is grown to REACH times the smallest piece's
# cells before it is taken as coverable; a closed one too small or of the wrong size is a dead
# end (one-sided 5x18: 2.6 times fewer nodes, 1.5 times faster).
REACH = 1
MEMO_PROBE_PATHS = 200  # paths of that estimate (about a millisecond)
# The default branches on the item with the fewest fits instead of the first empty cell where
# Knuth's estimator (CHOICE_PATHS paths through each of the two trees the search would walk)
# puts the first-empty-cell tree FEWEST_FROM times larger. Measured cube by cube (issue 27,
# session 8: cubes spread over the sizes of each plan's cubes large enough for the choice, each
# counted in both branchings with the memo the default takes, thread CPU s at load 14-22; the
# total each threshold gives, the cubes weighted by how many they stand for):
#   O'Beirne's hexagon (12 of 152 cubes): 3 or 3.5: 255 s; 4: 367; 5: 380; first cell only 764.
#     Its cubes estimated at 3.57 counted 2.3 and 2.8 times faster by fewest fits (13.4 s
#     against 4.8 for the largest sampled);
#   the Tetris Cube (10 of its cubes): those at 4.34 and 4.39, 1.7 and 1.9 times faster by fewest;
#   the polyhexes 1-4 on the 5x8 (16 of 371): 3: 17.2 s; 3.5 to 5: 14.3; 8: 13.6; first cell
#     only 25.9, fewest only 25.8 (its cubes at 1.8-3.4 are 2.7-8 times slower by fewest fits:
#     the memo cuts their first-cell tree about tenfold, which the estimate does not see);
#   the one-sided 5x18 (11 of its cubes): estimates 0.5-1.9 and one at 3.33, all 2.4-8 times
#     slower by fewest fits (3.33: 1.28 s against 0.39);
#   IQ Block 10 without symmetry (16 of 150): 3: 2.56 s; 3.5: 2.50; 4: 2.46; 5: 2.68;
#   the 6x10 without symmetry (16 of 52): 3: 0.78; 3.5: 0.77; 4: 0.71; 5: 0.74;
#   the Bedlam cube (10 of 698): 46.6 s at any threshold up to 6 (its cubes: 7.3-62).
# (These came from a script; `puzzlesat bench --search --choice --sample N PUZZLE` now counts
# such a sample, the same cubes large enough of the same plan, and writes the table per cube
# and the weighted totals at each threshold: results/bitboard-choice.md.)
# 3.5 is within 1.1 of each one's best (5 cost O'Beirne 1.5 times); the line between the
# 5x18's 3.33 and O'Beirne's 3.57 is thin: a rule that sees the memo and the cost of a node
# (2.1 times a first-cell node's on O'Beirne, 3.2 on the polyhexes) would be the better one.
FEWEST_FROM = 3.5
# ... and then only after the first-cell search, memo and all, has taken RACE times the
# fewest-fits tree's estimated nodes unfinished (fewest_race). Measured (session 17, `bench
# search --choice --race R`, the cubes the default races counted as it counts them, medians of
# 3; weighted CPU s at 0.1 / 0.25 / 0.5): O'Beirne's hexagon 1,177 / 1,213 / 1,265; the Tetris
# Cube 201 / 210 / 211; the one-sided 5x18 362 / 323 / 241 (its racing cube's first cell
# with the memo finishes in 3.8 s); the 5x8 polyhexes 27.1 / 27.2 / 30.9; the Bedlam cube 130 at
# each (its cubes' first slice of SLICE nodes outlasts any race); the pentahexes' hexagon 4
# (4 cubes, session 16, one run) 102 at 0.1, 125 at 0.5. 0.5 costs at most 1.23 times the best
# value; 0.1 costs the 5x18 1.50 times.
RACE = 0.5
CHOICE_PATHS = 1000
# ... a choice made only for cubes whose whole tree (the memo's estimate) passes this many
# nodes: below it the two estimates would cost more than the choice saves
CHOICE_FROM_NODES = 100_000
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

WINDOW = 4  # words of an option kept whole (its window); bits beyond are listed apart (rare)
# Search.var: the saved registers of a resumable search
V_DEPTH, V_LEFT, V_HASH, V_OVERFLOW = 0, 1, 2, 3


def _kernel():
    """The compiled search (runners/csrc/bitboard.c), loaded once a process; KernelMissing
    where it was not built."""
    return native.kernel("bitboard")


class Masks(NamedTuple):
    """A board as the compiled search reads it (arrays of int64; per option in the search's
    order, per bit of an item covered once, per counter of an item with copies). The C kernel
    reads its fields in this order (runners/csrc/bitboard.c, struct Masks): keep them so."""

    base: np.ndarray  # per option: the first word of its window
    window: np.ndarray  # [option, width]: its bits in words base, base + 1, ...
    # per option: where its rare parts start in `spill`, -1 for none: the number of its words
    # beyond the window, each (word, bits); the number of counters it adds to, each (counter,
    # word, shift, most copies, mask of the counter's bits, copies it places)
    rare: np.ndarray
    spill: np.ndarray
    # per option: the counter it adds to (-1: none), the counter's word, shift, most copies and
    # mask of bits, and the copies it places (a second counter, if any, is in `spill`)
    copy: np.ndarray
    fields: np.ndarray  # [counter, 6]: its word, shift, most copies, mask of its bits, the
    # most copies one option places, and the fewest copies a solution holds (a piece in any
    # number from a least to a most; the most where exactly that many)
    units: np.ndarray  # per option: items it covers, each copy once
    hash: np.ndarray  # per option: the Zobrist hash of its items covered once
    last_word: np.ndarray  # per option: its last item covered once (for a packing: its piece)
    last_mask: np.ndarray
    run_end: np.ndarray  # per option: the end of the run sharing its first and last items
    halo_word: np.ndarray  # [option, k]: the cells next to it outside it, as bits of words
    halo_mask: np.ndarray
    start: np.ndarray  # per bit: the options whose first item it is, start[b]:end[b]
    end: np.ndarray
    member_at: np.ndarray  # per bit (and one more): the options covering it
    members: np.ndarray
    near_word: np.ndarray  # [bit, k]: the cells next to it, as bits of words
    near_mask: np.ndarray
    single: np.ndarray  # per word: the bits of items covered once
    zobrist: np.ndarray  # per bit: its random key for the memo's hash
    # on a board of at most two words (126 items), the same geometry as two words a row (each
    # bit's neighbours, each option's halo), grown in registers: twice as fast as by words
    near_pair: np.ndarray  # [bit, 2]
    halo_pair: np.ndarray  # [option, 2]
    # for the fewest-fits choice, the options as bits of option words (bit j % WORD of word
    # j // WORD: option j in the search's order), as BurrTools keeps them (AND a word):
    cover_word: np.ndarray  # [bit, k]: the options covering it
    cover_mask: np.ndarray
    copies_word: np.ndarray  # [counter, k]: the options adding to it
    copies_mask: np.ndarray
    # [option, k]: the bits of the items it covers once, then -1: the fewest-fits search keeps
    # each item's fits counted, taking an option off its items' counts as it stops fitting
    option_bits: np.ndarray


def _words_of(rows: np.ndarray, bits: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, bit) pairs as each row's bits by word: [row, k] arrays of words and of their bits,
    k as many as the row with most words needs (no bits where a row needs fewer)."""
    word, bit = bits // WORD, np.left_shift(1, bits % WORD)
    order = np.lexsort((word, rows))
    rows, word, bit = rows[order], word[order], bit[order]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = (rows[1:] != rows[:-1]) | (word[1:] != word[:-1])
    at = np.flatnonzero(new)
    rows, word = rows[at], word[at]
    bit = np.bitwise_or.reduceat(bit, at) if len(at) else bit[:0]
    first = np.ones(len(rows), dtype=bool)
    first[1:] = rows[1:] != rows[:-1]
    begins = np.flatnonzero(first)
    column = np.arange(len(rows)) - np.repeat(begins, np.diff(np.append(begins, len(rows))))
    k = int(column.max()) + 1 if len(column) else 1
    words = np.zeros((max(1, count), k), dtype=np.int64)
    masks = np.zeros((max(1, count), k), dtype=np.int64)
    words[rows, column], masks[rows, column] = word, bit
    return words, masks


def _lists_of(rows: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """(row, value) pairs as [row, k]: each row's values in order, then -1."""
    order = np.lexsort((values, rows))
    rows, values = rows[order], values[order]
    begins = np.searchsorted(rows, np.arange(count), side="left")
    column = np.arange(len(rows)) - begins[rows] if len(rows) else rows
    lists = np.full((max(1, count), int(column.max(initial=0)) + 2), -1, dtype=np.int64)
    lists[rows, column] = values
    return lists


def _pairs(words: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """[row, k] bits of words as [row, 2]: each row's bits in words 0 and 1."""
    pairs = np.zeros((len(words), 2), dtype=np.int64)
    for w in range(2):
        pairs[:, w] = np.bitwise_or.reduce(np.where(words == w, masks, 0), axis=1)
    return pairs


def _starts(keys: np.ndarray, count: int) -> np.ndarray:
    """Where each of `count` keys starts in sorted `keys` (and one more: the end)."""
    return np.searchsorted(keys, np.arange(count + 1), side="left").astype(np.int64)


@dataclass
class Board:
    """A model as bit masks: options sorted by their first item, each item's slice of them.

    An item covered once is a bit (`bit_of`); an item covered several times (identical copies
    of a piece) is a counter of how many are placed, a field of bits after them (`field_of`),
    so copies are interchangeable and a covering is reached once. Every option covers at least
    one item once (for a packing: its cells)."""

    masks: Masks
    words: int  # 63-bit words of the covered items
    option: np.ndarray  # the model's index of each (sorted) option
    bit_of: dict[int, int]  # item covered once -> its bit
    field_of: dict[int, int]  # item with copies -> its counter
    units: int  # items to cover, each copy once
    # the board's geometry (CoverModel.regions), for dropping an option that closes off a region
    # no piece can fill (Masks.near_word, Masks.halo_word)
    smallest: int = 1
    granule: int = 1
    reach: int = 0  # cells a region is grown to before it is taken as coverable (0: no geometry)
    scratch: int = 1  # cells a region may hold while it is grown
    # items in any number that never run out (pieces with `count = "any"`): none of them has a
    # counter, so the memo's key is the cells covered, and the first-empty-cell order makes it
    # a transfer matrix over the profile of the board (the fewest-fits order would not)
    free: int = 0

    @functools.cached_property
    def position(self) -> dict[int, int]:
        """Each model option's place in the sorted options, made once a board (a split count
        starts thousands of searches on one: 0.7 ms each when made a search)."""
        return {int(k): j for j, k in enumerate(self.option)}

    def take(self, state: np.ndarray, j: int) -> bool:
        """Option j (its place in the sorted options) placed on `state` where it fits; whether
        it did."""
        return _kernel().take(self.masks, state, j)


def board_of(model: CoverModel, left_out: frozenset[int] = frozenset()) -> Board:
    """The bit masks of a model (options in left_out dropped)."""
    if len(model.items) > model.primary or model.coloured:
        raise ValueError("the bitboard search takes exact covers without secondary items")
    times = model.multiplicity or [1] * len(model.items)
    least = model.least or times
    order = model.fill_order if model.fill_order is not None else range(len(model.items))
    bit_of = {item: 0 for item in order if times[item] == least[item] == 1}
    for n, item in enumerate(bit_of):
        bit_of[item] = n
    singles = len(bit_of)
    free = free_items(model, times, least, bit_of)
    # each counter after the items covered once, within one word
    field_of: dict[int, int] = {}
    layout = []  # (word, shift, most, mask, largest step, least)
    at = singles
    for item in order:
        if item not in bit_of and item not in free:
            width = times[item].bit_length()
            if at % WORD + width > WORD:
                at += WORD - at % WORD
            field_of[item] = len(layout)
            layout.append([at // WORD, at % WORD, times[item], (1 << width) - 1, 0, least[item]])
            at += width
    words = max(1, -(-at // WORD))
    width = min(words, WINDOW)
    zobrist = np.random.default_rng(20_250_101).integers(
        -(1 << 62), 1 << 62, size=singles, dtype=np.int64)
    # the options' items as (option, bit) pairs, and their copies as (option, counter) pairs
    kept = [k for k, option in enumerate(model.options) if option and k not in left_out]
    lengths = np.array([len(model.options[k]) for k in kept], dtype=np.int64)
    items = np.fromiter((i for k in kept for i in model.options[k]), dtype=np.int64,
                        count=int(lengths.sum()))
    owner = np.repeat(np.arange(len(kept), dtype=np.int64), lengths)
    bit_at = np.full(len(model.items), -1, dtype=np.int64)
    bit_at[list(bit_of)] = list(bit_of.values())
    field_at = np.full(len(model.items), -1, dtype=np.int64)
    field_at[list(field_of)] = list(field_of.values())
    once = bit_at[items] >= 0
    rows, bits = owner[once], bit_at[items[once]]
    kept_count = field_at[items] >= 0  # an item in any number that cannot run out: no counter
    counted_rows, counted = owner[kept_count], field_at[items[kept_count]]
    n = len(kept)
    covering = np.bincount(rows, minlength=n)
    if n and covering.min() == 0:
        raise ValueError("the bitboard search takes options that cover an item once")
    first = np.full(n, singles, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    np.minimum.at(first, rows, bits)
    np.maximum.at(last, rows, bits)
    m = max(1, n)
    base = np.zeros(m, dtype=np.int64)
    base[:n] = np.minimum(first // WORD, words - width)
    inside = (bits // WORD >= base[rows]) & (bits // WORD < base[rows] + width)
    window = np.zeros((m, width), dtype=np.int64)
    np.bitwise_or.at(window, (rows[inside], bits[inside] // WORD - base[rows[inside]]),
                     np.left_shift(1, bits[inside] % WORD))
    # the search's order: by first item, then by last (a piece's options in a run), then by
    # their words and the model's order (as the two-word search had them: the same estimates)
    sort = np.lexsort((np.array(kept, dtype=np.int64), *window[:n, ::-1].T, last, first))
    rank = np.empty(n, dtype=np.int64)
    rank[sort] = np.arange(n, dtype=np.int64)
    rows, counted_rows = rank[rows], rank[counted_rows]
    first, last = first[sort], last[sort]
    base[:n], window[:n] = base[:n][sort], window[:n][sort]
    hashes = np.zeros(m, dtype=np.int64)
    np.bitwise_xor.at(hashes, rows, zobrist[bits])
    units = np.zeros(m, dtype=np.int64)
    exact = np.array([layout[f][2] == layout[f][5] for f in range(len(layout))], dtype=bool)
    units[:n] = covering[sort] + np.bincount(counted_rows[exact[counted]], minlength=n)
    # the rare parts: bits beyond the window, copies placed
    rare = np.full(m, -1, dtype=np.int64)
    spill = [0]
    beyond: dict[int, dict[int, int]] = {}
    for r, b in zip(rows[~inside].tolist(), bits[~inside].tolist()):
        by_word = beyond.setdefault(r, {})
        by_word[b // WORD] = by_word.get(b // WORD, 0) | 1 << (b % WORD)
    copies: dict[int, dict[int, int]] = {}
    for r, f in zip(counted_rows.tolist(), counted.tolist()):
        copies.setdefault(r, {})[f] = copies.get(r, {}).get(f, 0) + 1
    copy = np.full((m, 6), -1, dtype=np.int64)
    for r in sorted(set(beyond) | set(copies)):
        extra, mine = sorted(beyond.get(r, {}).items()), sorted(copies.get(r, {}).items())
        if mine:  # the first counter in `copy`, any other in `spill`
            f, step = mine[0]
            copy[r] = [f, *layout[f][:4], step]
            layout[f][4] = max(layout[f][4], step)
            mine = mine[1:]
            if not extra and not mine:
                continue
        rare[r] = len(spill)
        spill += [len(extra), *(x for e in extra for x in e), len(mine)]
        for f, step in mine:
            spill += [f, *layout[f][:4], step]
            layout[f][4] = max(layout[f][4], step)  # the largest step of its options
    # where the run of options sharing the first and last items ends: once that item is
    # covered (the piece placed) the search skips the whole run
    run_end = np.zeros(m, dtype=np.int64)
    if n:
        new = np.ones(n, dtype=bool)
        new[1:] = (first[1:] != first[:-1]) | (last[1:] != last[:-1])
        begins = np.flatnonzero(new)
        ends = np.append(begins[1:], n)
        run_end[:n] = np.repeat(ends, np.diff(np.append(begins, n)))
    start = np.searchsorted(first, np.arange(singles), side="left").astype(np.int64)
    end = np.searchsorted(first, np.arange(singles), side="right").astype(np.int64)
    by_bit = np.lexsort((rows, bits))
    members = rows[by_bit] if len(by_bit) else np.zeros(1, dtype=np.int64)
    member_at = _starts(bits[by_bit], singles)
    single = np.array([(1 << min(WORD, max(0, singles - WORD * w))) - 1 for w in range(words)],
                      dtype=np.int64)
    fields = np.array(layout, dtype=np.int64).reshape(len(layout), 6)
    nothing = np.zeros(0, dtype=np.int64)
    halo_word, halo_mask = _words_of(nothing, nothing, m)
    near_word, near_mask = _words_of(nothing, nothing, singles)
    masks = Masks(base, window, rare, np.array(spill, dtype=np.int64), copy, fields, units, hashes,
                  np.where(last >= 0, last // WORD, 0) if n else np.zeros(1, dtype=np.int64),
                  np.left_shift(1, last % WORD) if n else np.zeros(1, dtype=np.int64),
                  run_end, halo_word, halo_mask, start, end, member_at, members, near_word,
                  near_mask, single, zobrist, np.zeros((1, 2), dtype=np.int64),
                  np.zeros((1, 2), dtype=np.int64), *_words_of(bits, rows, singles),
                  *_words_of(counted, counted_rows, len(layout)), _lists_of(rows, bits, m))
    board = Board(masks, words, np.array(kept, dtype=np.int64)[sort], bit_of, field_of,
                  singles + sum(times[i] for i in field_of if times[i] == least[i]),
                  free=len(free))
    if model.regions is not None:
        add_regions(board, model, rows, bits)
    return board


def free_items(model: CoverModel, times: list[int], least: list[int], bit_of: dict[int, int]
               ) -> set[int]:
    """The items that may go uncovered and can never be covered more often than allowed (a
    piece in any number that never runs out: its most copies, each covering at least as many
    items covered once as its smallest option, fill them all): no counter need be kept of
    them, and the memo's key is the cells alone (the profile of a transfer matrix)."""
    loose = {i for i in range(len(times)) if least[i] == 0}
    if not loose:
        return set()
    smallest = dict.fromkeys(loose, len(bit_of))
    for option in model.options:
        touched = loose.intersection(option)
        if touched:
            cells = sum(1 for i in option if i in bit_of)
            for i in touched:
                smallest[i] = min(smallest[i], cells)
    return {i for i in loose if smallest[i] > 0 and times[i] >= len(bit_of) // smallest[i]}


def add_regions(board: Board, model: CoverModel, rows: np.ndarray, bits: np.ndarray) -> None:
    """The board's geometry (Masks.near_word, Masks.halo_word), from the model's Regions:
    `rows` and `bits` pair each option (its place in the search's order) with its bits."""
    regions = model.regions
    singles = len(board.bit_of)
    bit_at = np.full(len(model.items), -1, dtype=np.int64)
    bit_at[list(board.bit_of)] = list(board.bit_of.values())
    cells = np.zeros(singles, dtype=np.int64)  # each bit's item
    cells[list(board.bit_of.values())] = list(board.bit_of)
    degree = np.array([len(regions.adjacent[i]) for i in cells.tolist()], dtype=np.int64)
    near = bit_at[np.fromiter((j for i in cells.tolist() for j in regions.adjacent[i]),
                              dtype=np.int64, count=int(degree.sum()))]
    near_at = np.zeros(singles + 1, dtype=np.int64)
    np.cumsum(degree, out=near_at[1:])
    near_word, near_mask = _words_of(np.repeat(np.arange(singles, dtype=np.int64), degree), near,
                                     singles)
    # each option's cells' neighbours, less its own cells
    spread = degree[bits]
    owner = np.repeat(rows, spread)
    offsets = np.repeat(near_at[bits] - np.cumsum(spread) + spread, spread)
    around = near[offsets + np.arange(len(owner), dtype=np.int64)]
    keys = np.unique(owner * singles + around)
    keys = keys[~np.isin(keys, rows * singles + bits)]
    halo_word, halo_mask = _words_of(keys // singles, keys % singles, len(board.masks.base))
    board.masks = board.masks._replace(near_word=near_word, near_mask=near_mask,
                                       halo_word=halo_word, halo_mask=halo_mask)
    if board.words <= 2:
        board.masks = board.masks._replace(near_pair=_pairs(near_word, near_mask),
                                           halo_pair=_pairs(halo_word, halo_mask))
    board.smallest, board.granule = regions.smallest, regions.granule
    board.reach = REACH * regions.smallest
    board.scratch = board.reach + 2 + int(degree.max(initial=0))


class Memo:
    """Counts of sub-problems already searched, keyed by the items they leave uncovered.

    A table of `size` entries (a power of two) in buckets of two; a new entry takes the place
    of the one of its bucket that took less work to count, so memory stays bounded, large
    sub-problems stay, and a miss only costs a search. Valid for one Board: the count of a
    covered state depends on the options, never on how the state was reached, so one Memo
    serves every cube counted against that Board, on any thread. A `shared` table (one the
    threads of a process write at once: SharedMemo) starts each bucket with a version word.
    """

    def __init__(self, size: int, words: int = 2, shared: bool = False) -> None:
        # per entry: covered items (`words` words; -1: empty, a state never has bit 63), its
        # count (low and high words), and the nodes its count took; shared: a version word
        # (0) before each bucket
        self.words = words
        self.shared = shared
        stride = 2 * (words + ENTRY) + shared
        self.table = empty_table(size // 2 * stride)
        if shared:
            self.table[::stride] = 0

    @property
    def size(self) -> int:
        return 2 * (len(self.table) // (2 * (self.words + ENTRY) + self.shared))

    @classmethod
    def first(cls, words: int, shared: bool = False) -> Memo:
        """A memo's first table (MEMO_FIRST bytes, at least two entries)."""
        entries = 2
        while 2 * entries * 8 * (words + ENTRY) <= MEMO_FIRST:
            entries *= 2
        return cls(entries, words, shared)


def empty_table(words: int) -> np.ndarray:
    """A memo's table of `words` words, each -1 (empty), in pages of 4 KiB. With transparent
    huge pages (NumPy asks for them on large arrays) the kernel compacted memory to find 2 MiB
    pages as the table was first written: the one-sided 5x18 --modulo symmetry on one thread
    spent 7.7-10.6 s of system time against 0.7-0.8 s in small pages (27-30 s wall against
    19-20 s), and searched no faster in huge ones (18.0-18.1 s of user time against
    18.5-19.3; session 12)."""
    size = words * 8
    if size < HUGE_PAGE or not hasattr(mmap, "MADV_NOHUGEPAGE"):
        return np.full(words, -1, dtype=np.int64)
    pages = mmap.mmap(-1, size)
    pages.madvise(mmap.MADV_NOHUGEPAGE)
    table = np.frombuffer(pages, dtype=np.int64)  # (it keeps the mapping alive)
    table.fill(-1)
    return table


# A memo grown four times larger takes only the entries that took at least COPIED nodes to
# count: one that took fewer costs more to copy (a random write into the larger table) than to
# count again. On the one-sided 5x18 --modulo symmetry the growth to 33 M entries copied 7.8 M
# entries in 2.1 s, 53% of them under 8 nodes (3% of their work); on one worker, medians of 3
# (session 13): 19.9 s and 40.6 M nodes with 8, 20.5 s and 38.3 M copying all, 22.1 s with 32.
COPIED = 8
HUGE_PAGE = 2 << 20  # bytes: a table smaller than a huge page is made as any array
NO_MEMO = Memo(0)


class SharedMemo:
    """One memo for the threads of a process counting cubes of one Board (`--jobs N` on the
    local executor runs the compiled search on N threads): a sub-problem counted on one thread
    is a hit on every other, where each thread's own memo would count it again.

    Exactness under races: each bucket of the table has a version word, a seqlock. A writer
    takes the bucket by compare-and-swap of its version from even to odd (the compiler's
    atomics: runners/csrc/kernel.h), writes, and stores the next even version; a reader
    takes an entry only where the version it read before the entry equals the one after it
    (acquire loads and fence, the entry read by atomic loads), so a torn entry is a miss, never
    a count; nothing rests on a checksum not colliding. A version word counts 2^63 writes of its
    bucket before it could come round again. Neither side ever waits: a writer finding the
    bucket taken drops its store, a reader a miss. Chosen over a lock per bucket (a reader
    would have to take it: a shared cache line written on every probe, where the seqlock's
    readers write nothing) and over a lock-free table keyed by one word (the keys are several
    words, the count and work two more).

    Memory stays bounded: the table grows fourfold once the threads' stores pass twice its
    entries (as a thread's own, see `grow`), up to `threads` times memo_entries, the memory
    the threads' own memos would take; a thread of its own grows it while the searches go on
    with the old table (their stores meanwhile may be lost: misses) and take the new one at
    their next slice."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.memo = NO_MEMO  # made when a cube first wants it
        self.stores = 0  # stores into self.memo the threads have reported
        self.grower: threading.Thread | None = None  # the growth under way
        self.room = True  # False once a larger table found no memory
        self.lock = threading.Lock()

    def __reduce__(self):  # pickled (to another process): a memo of its own there
        return SharedMemo, (self.threads,)

    def take(self, words: int) -> Memo:
        """The memo as it is now (its first table made by the first thread to want one)."""
        with self.lock:
            if self.memo is NO_MEMO:
                self.memo = Memo.first(words, shared=True)
            return self.memo

    def grow(self, board: Board, search: Search) -> None:
        """The search's stores since its last report counted; where they pass twice the
        table's entries, a table four times larger made and filled on a thread of its own
        (`grower`), the searches going on with the old one meanwhile; the search given the
        table as it is now. Grown on the searching thread, the growth stopped that thread's
        part: the one-sided 5x18's growth to 33 M entries took 2.0 s (0.9 s to make the table,
        1.1 s to copy), its part 2.5 s where the others took at most 0.4 s (split for 64
        workers: 6.0 times the work over 64)."""
        with self.lock:
            self.stores += int(search.tally[2])
            search.tally[2] = 0
            old, stored_in = self.memo, search.memo
            size, most = old.size, self.threads * memo_entries(board.words)
            search.memo = old
            if stored_in is not old or self.grower is not None or not self.room or not (
                    0 < size < most and self.stores > 2 * size):
                return
            self.grower = threading.Thread(target=self._grown, name="puzzlesat memo growth",
                                           args=(board, old, min(most, 4 * size)))
            self.grower.start()

    def _grown(self, board: Board, old: Memo, size: int) -> None:
        """The table of `size` entries made and given old's entries (those worth their copy:
        COPIED), then made the memo the searches take at their next slice (where there was no
        memory for it, the searches keep the table they have and it grows no more)."""
        larger = None
        try:
            made = Memo(size, board.words, shared=True)
            _kernel().rehash(old.table, made.table, board.words, board.masks.zobrist,
                             board.masks.fields, True, COPIED)
            larger = made
        except MemoryError:
            pass
        finally:
            with self.lock:
                self.room = larger is not None
                if larger is not None:
                    self.memo, self.stores = larger, 0
                self.grower = None

    def settled(self) -> Memo:
        """The memo once a growth under way has finished."""
        grower = self.grower
        if grower is not None:
            grower.join()
        return self.memo


def memo_entries(words: int) -> int:
    """The most entries a memo of covered states of `words` words grows to (MEMO_BYTES)."""
    entries = 1 << 10
    while 2 * entries * 8 * (words + ENTRY) <= MEMO_BYTES:
        entries *= 2
    return entries


class Overflow(ArithmeticError):
    """A count past 2^124 - 1 in the compiled search (its counts are two words of LIMB bits)."""


class Search:
    """One cube's search, resumable: run it slice by slice."""

    def __init__(self, board: Board, cube: Cube, memo: Memo = NO_MEMO,
                 fewest: bool = False) -> None:
        self.board = board
        self.memo = memo
        levels = len(board.bit_of) + 2  # each option covers an item once: depth at most that
        self.memo_depth = levels
        # levels that branch on the item with the fewest fits (the others: the first uncovered)
        self.fewest_levels = levels if fewest else 0
        # the default's first-cell nodes before the fewest fits take over (fewest_race); the
        # nodes and memo hits of a first-cell search this one replaced
        self.race: int | None = None
        self.racing = False  # a race to price (race_of) before the next slice
        self.raced = (0, 0)
        self.chosen = [k - 1 for k in cube if k > 0]
        self.state = np.zeros(board.words, dtype=np.int64)
        self.var = np.zeros(4, dtype=np.int64)
        self.nxt = np.zeros(levels, dtype=np.int64)
        self.last = np.zeros(levels, dtype=np.int64)
        self.below = np.zeros(levels, dtype=np.int64)  # each level's count: its low word
        self.above = np.zeros(levels, dtype=np.int64)  # ... and its high word
        self.begun = np.zeros(levels, dtype=np.int64)  # nodes counted when each level began
        self.listed = np.zeros(levels, dtype=np.int64)  # levels branching on `members`
        self.placed = np.zeros(levels, dtype=np.int64)
        self.first = np.zeros(levels, dtype=np.int64)  # the word of each level's first item
        self.picked = np.full(levels, -1, dtype=np.int64)
        # with the fewest-fits choice, each level's options that fit, as bits of option words
        self.alive = np.zeros((levels, max(1, -(-len(board.option) // WORD))) if fewest
                              else (1, 1), dtype=np.int64)
        # ... and each level's fits of every item covered once (counted as options drop)
        self.fits = np.zeros((levels, max(1, len(board.bit_of))) if fewest else (1, 1),
                             dtype=np.int64)
        self.pend = np.zeros(levels, dtype=np.int64)  # of those, the bits of a word left to try
        self.pend_word = np.zeros(levels, dtype=np.int64)  # ... and that word
        self.scratch = np.zeros(board.scratch, dtype=np.int64)  # a region's cells
        self.seen = np.zeros(board.words, dtype=np.int64)  # cells of regions found large
        # nodes, memo hits, memo stores, options dropped for closing off a region
        self.tally = np.zeros(4, dtype=np.int64)
        self.found = 0
        self.done = False
        self.hashed = False  # whether var[V_HASH] is the hash of `state`
        position = board.position
        left = board.units
        for k in self.chosen:
            if k not in position or not board.take(self.state, position[k]):
                self.done = True  # left out by the cube itself, covering nothing, or a clash
                return
            left -= int(board.masks.units[position[k]])
        m, kernel = board.masks, _kernel()
        if left == 0:
            self.found, self.done = int(kernel.enough(m, self.state)), True
            return
        w, b = kernel.first_uncovered(m, self.state, 0)
        if b < 0:  # every cell covered, some copies not placed
            self.done = True
            return
        b = int(b)
        self.var[V_LEFT] = left
        self.var[V_HASH] = kernel.hash_of(m, self.state)
        self.hashed = True
        self.first[0] = w
        self.nxt[0], self.last[0] = m.start[b], m.end[b]
        if fewest:
            u = self._fewest()
            if u >= 0:
                self.nxt[0], self.last[0] = 0, u
                self.listed[0] = 1

    def _fewest(self) -> int:
        m, kernel = self.board.masks, _kernel()
        kernel.alive_of(m, self.state, self.alive, self.fits, 0, len(self.board.option))
        kernel.fits_of(m, self.alive, self.fits, 0)
        return kernel.least(m, self.state, 0, self.alive, self.fits, 0)

    def estimates(self, samples: int | None = None, seed: int = 1, regions: bool = True
                  ) -> tuple[float, float, float, float]:
        """Knuth's random-path estimates of this cube's search tree (without memo): (nodes,
        solutions, and the standard deviation over the paths of each; their standard errors are
        these over the square root of `samples`). The tree is the one the search walks (its
        branching: the first uncovered item, or the fewest fits), or with `regions` False the
        tree without dropping dead regions. `samples` paths (default: ESTIMATE_PATHS where the
        board's geometry prunes dead regions, PLAIN_ESTIMATE_PATHS where it does not)."""
        if self.done:
            return 1.0, float(self.found), 0.0, 0.0
        b = self.board
        reach = b.reach if regions else 0
        if samples is None:
            samples = ESTIMATE_PATHS if reach else PLAIN_ESTIMATE_PATHS
        out = np.zeros(4)
        _kernel().probe(b.masks, self.scratch, self.seen, self.state, int(self.var[V_LEFT]),
                        seed, samples, self.fewest_levels > 0, b.smallest, b.granule, reach,
                        np.empty_like(self.state), np.empty(len(b.option) + 1, dtype=np.int64),
                        out,
               self.alive[:2].copy(), self.fits[:2].copy())
        return float(out[0]), float(out[1]), float(out[2]), float(out[3])

    def estimate(self, samples: int | None = None, seed: int = 1, regions: bool = True) -> float:
        """Knuth's random-path estimate of this cube's search tree: its nodes (`estimates`)."""
        return self.estimates(samples, seed, regions)[0]

    @property
    def nodes(self) -> int:
        """Options tried so far (the search tree's nodes)."""
        return int(self.tally[0])

    @property
    def stores(self) -> int:
        """Sub-problems written to the memo since this search last reported them to `grow`."""
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

        `found` is then the cube's count (finished) or the solutions found so far. A count past
        2^124 - 1 raises Overflow."""
        if self.done:
            return True
        b = self.board
        memo = NO_MEMO if record else self.memo  # listing needs every solution's leaf
        if memo.size and not self.hashed:  # searched so far without a memo: no hash kept
            self.var[V_HASH] = _kernel().hash_of(b.masks, self.state)
        self.hashed = memo.size > 0
        over = _kernel().search(
            b.masks, self.scratch, self.seen, self.state, self.var, self.nxt, self.last,
            self.below, self.above, self.begun, self.listed, self.placed, self.first, budget,
            record, self.picked, memo.table, memo.shared, self.memo_depth, self.tally,
            self.fewest_levels, b.smallest, b.granule, b.reach, self.alive, self.fits, self.pend,
            self.pend_word)
        if self.var[V_OVERFLOW]:
            raise Overflow(f"the count passes 2^{2 * LIMB} - 1 solutions, more than the "
                           f"compiled search counts in two words of {LIMB} bits")
        self.done = bool(over)
        depth = 0 if self.done else int(self.var[V_DEPTH])
        self.found = sum(int(self.below[d]) + (int(self.above[d]) << LIMB)
                         for d in range(depth + 1))
        return self.done

    def solution(self) -> list[int]:
        """The model's options of the solution just recorded."""
        picked = [int(self.board.option[j]) for j in self.picked if j >= 0]
        self.picked[:] = -1
        return sorted(self.chosen + picked)


_SEARCHED = [0, 0]  # nodes and memo hits of count_cube in this process, every thread
_SEARCHED_LOCK = threading.Lock()


def nodes_searched() -> int:
    """The nodes the compiled search has tried in this process's counts so far (every thread):
    a benchmark reads it before and after a count to report the count's nodes."""
    with _SEARCHED_LOCK:
        return _SEARCHED[0]


def memo_hits() -> int:
    """The sub-problems this process's counts have taken from a memo so far (every thread)."""
    with _SEARCHED_LOCK:
        return _SEARCHED[1]


def warm_up() -> float:
    """Load the compiled search (nothing is compiled at run time); the seconds this took."""
    start = time.perf_counter()
    _kernel()
    return time.perf_counter() - start


def check_model(model: CoverModel) -> None:
    """A model the search cannot take is refused before any work, saying what serves."""
    if len(model.items) > model.primary or model.coloured:
        raise InputError("bitboard takes exact covers without secondary items or colours: use "
                         "xcover or cpsat", field="backend")
    times = model.multiplicity or [1] * len(model.items)
    if any(all(times[i] > 1 for i in option) for option in model.options if option):
        raise InputError("bitboard takes options that each cover some item once (a board "
                         "cell): use cpsat or a pysat solver", field="backend")


# How far past 2^124 a cube's estimated solutions must be for its count to be refused before it
# starts (Knuth's estimator undershoots far more often than it overshoots); the estimate's paths
# are fewer on a board so large that they would take seconds (paths x cells at most ESTIMATE_STEPS)
OVERFLOW_MARGIN = 1 << 10
ESTIMATE_STEPS = 1_000_000


def check_overflow(solutions: float, paths: int) -> None:
    """A cube whose estimated solutions are far past the 2^124 - 1 the search counts to is
    refused before any work, instead of failing hours later."""
    if solutions > OVERFLOW_MARGIN * 2.0 ** (2 * LIMB):
        raise InputError(
            f"about {solutions:.1e} solutions by Knuth's estimator ({paths} random paths), far "
            f"more than the 2^{2 * LIMB} - 1 the compiled search counts to: no backend here "
            "counts this many", field="backend")


@dataclass
class Prepared:
    """A model's board in one worker thread, and that thread's memo for it, or the memo the
    threads of its process share (`shared`, from BitboardBackend.share)."""

    model: CoverModel
    board: Board
    memo: Memo = NO_MEMO
    shared: SharedMemo | None = None
    stores: int = 0  # sub-problems this thread's searches wrote to `memo` since it was made
    race: float | None = None  # the race's length (fewest_race; None: RACE): the bench's --race


MODES = {
    None: "bitboard backtracker, compiled in C (exact cover), branching per cube on the "
          "first empty cell, or on the item with the fewest fits where Knuth's estimator says "
          "that is faster and the first-cell search has not finished in its share of that; "
          "sub-problems memoised",
    "memo": "the bitboard search counting each sub-problem once (same cells covered, as many "
            "copies of each piece left)",
    "plain": "the bitboard search without a memo",
    "fewest": "the bitboard search branching on the item (a cell or a piece) with the fewest "
              "options that fit, instead of the first empty cell; sub-problems memoised",
}


def wants_memo(mode: str | None) -> bool:
    """Whether a cube's count uses the memo: always but with 'plain'."""
    return mode != "plain"


def fewest_pays(board: Board, cube: Cube) -> bool:
    """Whether a cube's count is faster branching on the item with the fewest fits than on the
    first empty cell: where Knuth's estimator puts the first-empty-cell tree more than
    FEWEST_FROM times the fewest-fits tree (the trees the search walks, dead regions dropped),
    a fewest-fits node costing about that many first-cell nodes."""
    return fewest_race(board, cube) is not None


def fewest_race(board: Board, cube: Cube, race: float | None = None) -> int | None:
    """Where the fewest fits pay by the estimates (fewest_pays), the first-cell nodes the
    default's first-cell search may take before the fewest-fits search replaces it: `race`
    (None: RACE) times the fewest-fits tree's estimate. The estimates cannot see the memo,
    which may cut the first-cell tree far below them (one cube of the one-sided 5x18 --modulo
    symmetry, ratio 3.84: 44.6 s branching on the fewest fits, 1.1 s and 2.5 M nodes on the
    first empty cell with the memo); where it does not, the race costs at most RACE times the
    fewest-fits tree's nodes at a first-cell node's price (a third to a half of a fewest-fits
    node's). None: the first empty cell throughout."""
    paths = max(4, min(CHOICE_PATHS, ESTIMATE_STEPS // max(1, len(board.bit_of))))
    first = Search(board, cube).estimate(paths)
    fewest = Search(board, cube, fewest=True).estimate(paths)
    length = RACE if race is None else race
    return int(length * fewest) if first > FEWEST_FROM * fewest else None


def race_of(search: Search, cube: Cube, race: float | None = None) -> int | None:
    """The search's race (fewest_race), priced the first time it is asked: after a first
    slice left the search unfinished, so that the many small parts a split makes never pay
    for the fewest-fits estimates (priced up front, every part of the one-sided 5x18 split
    for 64 workers paid: 32.0 s of CPU against 23.7 s on one worker)."""
    if search.racing:
        search.racing = False
        search.race = fewest_race(search.board, cube, race)
    return search.race


def branches(search: Search, d: int) -> list[int]:
    """The options level d of a search tries, in its order (the board's option indexes): on
    the fewest fits, those alive that cover the item it chose; else those that fit of the
    options covering its first empty cell (for a level below the top, d > 0, only the fewest
    fits' listing is read from the stack: a first-cell level is read from a new Search)."""
    board = search.board
    if not search.listed[d]:
        return [j for j in range(int(search.nxt[d]), int(search.last[d]))
                if board.take(search.state.copy(), j)]
    return _alive_covering(search, d, 0)


def _alive_covering(search: Search, d: int, start: int) -> list[int]:
    """The options alive at fewest-fits level d that cover its chosen item, from its cover
    word `start` on, in the search's order."""
    board, u = search.board, int(search.last[d])
    m, alive, found = board.masks, search.alive[d], []
    for i in range(start, m.cover_mask.shape[1]):
        mask = int(m.cover_mask[u, i])
        if mask == 0:
            break
        w = int(m.cover_word[u, i])
        bits = (int(alive[w]) & mask) & (1 << WORD) - 1
        found += [WORD * w + b for b in range(WORD) if bits >> b & 1]
    return found


def where(search: Search, node: Cube) -> list[int] | None:
    """Where a stopped search of `node` was, as a path down `split`'s children of node: at each
    level the place of the branch it was in, at the last the place of the next it would try
    (None where a level branched otherwise than a new search of its node would: the engine
    then counts the node's children instead)."""
    board, prefix, path = search.board, tuple(node), []
    depth = int(search.var[V_DEPTH])
    fewest = FEWEST in node or bool(search.fewest_levels)
    for d in range(depth + 1):
        root = Search(board, prefix, fewest=fewest)
        if root.done or bool(root.listed[0]) != bool(search.listed[d]):
            return None
        options = branches(root, 0)
        if d < depth:
            current = int(search.placed[d])
            if current not in options:
                return None
            path.append(options.index(current))
            prefix = (*prefix, int(board.option[current]) + 1)
            continue
        left = _untried(search, d)
        if left is None:
            path.append(sum(1 for j in options if j < int(search.nxt[d])))
        elif left != options[len(options) - len(left):]:
            return None
        else:
            path.append(len(options) - len(left))
    return path


def _untried(search: Search, d: int) -> list[int] | None:
    """The options a fewest-fits level has not tried yet, in its order (None: a first-cell
    level, whose next option is nxt[d])."""
    if not search.listed[d]:
        return None
    found = [WORD * int(search.pend_word[d]) + b for b in range(WORD)
             if int(search.pend[d]) >> b & 1]
    return found + _alive_covering(search, d, int(search.nxt[d]))


def grow(state: Prepared, search: Search) -> None:
    """A memo that has taken twice as many stores as it has entries gets four times as many
    (up to memo_entries): small counts never pay for a large table, large ones get one. The
    stores of every search of this thread add up (a cube split into many short parts fills
    the memo as the whole cube would: counted per search, the one-sided 5x18 split into 2,326
    parts kept its first table and took 3 times the whole cubes' time). (A memo the threads
    share: SharedMemo.grow.)"""
    if state.shared is not None and search.memo.shared:
        state.shared.grow(state.board, search)
        return
    if search.memo is not state.memo or state.memo.size == 0:
        return
    state.stores += search.stores
    search.tally[2] = 0
    size, words = state.memo.size, state.board.words
    most = memo_entries(words)
    if size < most and state.stores > 2 * size:
        larger = Memo(min(most, 4 * size), words)
        b = state.board
        _kernel().rehash(state.memo.table, larger.table, words, b.masks.zobrist, b.masks.fields,
                         False, COPIED)
        state.memo, state.stores = larger, 0
        search.memo = state.memo


class BitboardBackend(Backend):
    """Counts exact covers (packing puzzles) by a compiled bitboard search."""

    name = "bitboard"
    takes = "cover"
    about = MODES[None]
    cubes_per_job = 4
    stops_itself = True
    multiplicities = True  # copies of a piece are one item: a counter of the copies placed
    # The compiled search releases the GIL: its cubes may run on threads of one process, which
    # saves each worker process's start.
    releases_gil = True
    needs = ("a C compiler when puzzlesat is installed (the compiled search, "
             "runners/csrc/bitboard.c): install one, then reinstall puzzlesat (pip install .)")

    def __init__(self, mode: str | None = None) -> None:
        if mode not in MODES:
            raise InputError(
                f"unknown bitboard mode {mode!r}; use bitboard (the branching and the memo "
                "chosen per cube), "
                "bitboard:memo, bitboard:plain or bitboard:fewest", field="backend")
        self.mode = mode
        self.fewest = mode == "fewest"
        self.name = "bitboard" if mode is None else f"bitboard:{mode}"
        self.about = MODES[mode]

    @classmethod
    def supported(cls) -> bool:
        return native.available("bitboard")

    def payload(self, model: CoverModel) -> Prepared:
        """The model and its board, refused here (before any worker starts) when the search
        cannot take it; the board is built once, here, for every worker."""
        check_model(model)
        return Prepared(model, board_of(model))

    def share(self, payload: Prepared, threads: int) -> Prepared:
        """For `threads` threads of this process: one memo for all of them (SharedMemo)."""
        if threads < 2:
            return payload
        return Prepared(payload.model, payload.board, shared=SharedMemo(threads),
                        race=payload.race)

    def prepare(self, payload: Prepared) -> Prepared:
        # each thread its own memo (made when a cube wants it) or the one its process's threads
        # share, the board shared: it is read only
        return Prepared(payload.model, payload.board, shared=payload.shared, race=payload.race)

    def _search(self, state: Prepared, cube: Cube, counting: bool = False,
                race: bool = True) -> Search:
        """The cube's search; counting, with the memo where it is taken, and, for the default
        (`race`), the nodes after which the fewest fits replace the first empty cell. A cube
        holding FEWEST is searched by the fewest fits throughout."""
        left_out = frozenset(-k - 1 for k in cube if k < 0)
        # another board where options are left out: the memo of the whole one does not hold
        board = board_of(state.model, left_out) if left_out else state.board
        fewest = self.fewest or FEWEST in cube
        search = Search(board, cube, fewest=fewest)
        race = race and not fewest
        if counting and not search.done:
            paths = max(4, min(MEMO_PROBE_PATHS, ESTIMATE_STEPS // max(1, len(board.bit_of))))
            nodes, solutions, _, _ = search.estimates(paths, regions=False)
            check_overflow(solutions, paths)
            # pieces in any number: the first empty cell keeps the memo a transfer matrix (the
            # 8x8 by monominoes to trominoes: 1.7 CPU s, against 31 s where cubes took the
            # fewest fits by Knuth's estimate, which cannot see the memo)
            if race and self.mode is None and not board.free and nodes > CHOICE_FROM_NODES:
                search.racing = True  # priced once a slice left it unfinished (race_of)
            if not left_out and wants_memo(self.mode):
                self._memo(state, search)
        return search

    @staticmethod
    def _memo(state: Prepared, search: Search) -> None:
        """The search given its thread's memo, or the one its process's threads share."""
        if state.shared is not None:
            search.memo = state.shared.take(search.board.words)
            return
        if state.memo is NO_MEMO:
            state.memo = Memo.first(search.board.words)
        search.memo = state.memo

    def _raced(self, state: Prepared, search: Search, cube: Cube) -> Search:
        """The first-cell search past its `race`: the fewest-fits search of the same cube in
        its place, with the same memo (a covered state's count holds whichever way it was
        reached)."""
        fewest = Search(search.board, cube, fewest=True)
        fewest.memo = search.memo
        fewest.raced = (search.nodes + search.raced[0], search.hits + search.raced[1])
        return fewest

    def prepare_for_estimates(self, payload: Prepared) -> Prepared:
        return self.prepare(payload)  # no memo table: estimates never count

    def estimate(self, state: Prepared, cube: Cube) -> float:
        """The cube's work, by Knuth's estimator of its search tree (random paths)."""
        return self._search(state, cube).estimate()

    def split(self, state: Prepared, cube: Cube) -> list[Cube] | None:
        """The cube's children by its search's own first branching (the options covering its
        first empty cell, or for a cube holding FEWEST, or bitboard:fewest, the item with the
        fewest fits), so every solution is in exactly one child; those that clash left out."""
        left_out = frozenset(-k - 1 for k in cube if k < 0)
        board = board_of(state.model, left_out) if left_out else state.board
        search = Search(board, cube, fewest=self.fewest or FEWEST in cube)
        if search.done:
            return None
        return [(*cube, int(board.option[j]) + 1) for j in branches(search, 0)]

    def count_cube(
        self, state: Prepared, cube: Cube, deadline: float | None
    ) -> tuple[Values, bool]:
        search = self._counted(state, cube, deadline)
        return (search.found,), search.done

    def count_part(self, state: Prepared, cube: Cube, deadline: float | None
                   ) -> tuple[Values, bool, list[int] | None]:
        """Stopped unfinished, the solutions of every branch its search finished, and where it
        was, as a path through `split`'s children: at each level down to the one it was on,
        the place of the branch it was in (at the last level, of the next branch it would try).
        Everything after that path is left to count (Backend.count_part); only the node it was
        at is searched again. A part races as a whole cube does (a part that kept the first
        empty cell searched the one-sided 9x10's drawn cubes in 1.8 times the nodes: the
        fewest fits had taken over in them); a search the fewest fits took over speaks of the
        children of the cube with FEWEST added (its rest begins with REST_FEWEST), and its
        parts hold FEWEST: searched and split by the fewest fits, they race no more."""
        search = self._counted(state, cube, deadline)
        if search.done:
            return (search.found,), True, None
        turned = bool(search.fewest_levels) and FEWEST not in cube and not self.fewest
        path = where(search, (*cube, FEWEST) if turned else tuple(cube))
        if path is None:
            return (search.found,), False, None
        return (search.found,), False, [REST_FEWEST, *path] if turned else path

    def _counted(self, state: Prepared, cube: Cube, deadline: float | None,
                 race: bool = True) -> Search:
        """The cube's search, run to its end or to the deadline (or a stop)."""
        search = self._search(state, cube, counting=True, race=race)
        # a near deadline (a part's budget) is met within a slice: the first one no longer
        # than the time left at a slow search's pace
        left = SLICE if deadline is None else int((deadline - time.time()) * SLOW_PACE)
        slices = Slices(max(Slices.LEAST, min(SLICE, left)))
        try:
            while not search.run(slices.next()):
                grow(state, search)
                if race_of(search, cube, state.race) is not None and search.nodes > search.race:
                    # (before the deadline: a part stopped then is split on the fewest fits)
                    search = self._raced(state, search, cube)
                if deadline is not None and time.time() >= deadline or STOP.is_set():
                    break
            grow(state, search)  # (its stores count toward the next search's table)
        except KeyboardInterrupt:
            raise Interrupted((search.found,)) from None
        except Overflow as error:
            raise InputError(f"{error}: no backend here counts this many", field="backend"
                             ) from None
        finally:
            with _SEARCHED_LOCK:
                _SEARCHED[0] += search.nodes + search.raced[0]
                _SEARCHED[1] += search.hits + search.raced[1]
        return search

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
        slices = Slices(SLICE)
        while True:
            over = search.run(slices.next(), record=True)
            if search.found:
                return Outcome(model.values(search.solution()), time.perf_counter() - start)
            if over:
                return Outcome(None, time.perf_counter() - start)
            if deadline is not None and time.time() >= deadline:
                return Outcome(None, time.perf_counter() - start, complete=False)
