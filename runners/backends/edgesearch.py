"""Our compiled search for best boards (numba): depth-first, with slips on a budget.

The cells are filled row by row (fixed tiles are there from the start). At each cell the
candidates, a tile turned one allowed way, come first from a table keyed by the colours its
filled neighbours above and to the left ask for, as in edgecount (every seam met); then, where
the budget allows, those that match only one of the two (a slip: one broken seam), then those
matching neither. The slips are read from the unused tiles as words of bits: the tiles that
show a colour on a side (a word each 64 tiles), and with the unused ones, then each such
tile's turns; the tables' slices of one colour, mostly used tiles at the deep cells where most
slips are tried, were scanned entry by entry before (on Eternity II 25 entries a node, 96% of
them used tiles: a median of 11.1 M nodes a CPU second against 35.5 M now, the same run and
tree, load 10.5; results/README.md).
A neighbour that is fixed (a clue to the right or below) is checked too. The budget is a number
of broken seams allowed so far at each depth (a "slip array", as the 2008 prize winner's
search had): none in the first part of the board, then more and more towards its end, so the
search spends its time filling most of the board exactly and finishes every deep path.
On a large board a cell may break only one of the seams to its filled neighbours above and to
the left (its tile meets one of them), unless a whole restart found no full board that way
(SINGLE_FIRST): then double breaks are allowed, and each fruitless restart doubles the slips
and lets them start earlier (a board with a tile that meets nothing still gets its boards).
Every full board it meets is scored (seams less the broken ones); the best is kept and sent.
The search restarts with the candidates in a new random order (the tables' slices shuffled,
the tiles numbered anew for the slips) when it has gone long without a better board.

On a board of at most EXACT_CELLS cells the budget is the same at every depth and raised one
by one from 0: the first budget under which a full board exists is that board's number of
broken seams, so the board is proved best (every board with fewer breaks was searched for).

The search runs in slices of nodes (a node: a tile placed), between which the time is looked
at and better boards are sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..compiled import njit, trailing_zeros
from ..models.edge_matching import EdgePuzzle, Placed
from ..models.edge_matching.best import SearchArrays, search_arrays

SLICE = 2_000_000  # nodes between two looks at the clock
EXACT_CELLS = 25  # boards up to 5x5 are searched to a proof of their best
# Measured on Eternity II with the centre clue, 20 s of CPU each (results/best-bench.md has the
# runs of the whole search): slips from 70% of the cells on, 8% of the seams by the end: 442;
# 75%, 7%: 448; 75%, 6%: 451; 77%, 6%: 452; 76%, 5.5%: no full board. The budget starts at
# SLIPS and, after each better board, is scaled down to one break fewer than that board has
# (60 s of CPU, seeds 1 and 2: 451 and 453).
FIRST_SLIP = 0.77  # of the free cells filled before the first slip is allowed (large boards)
SLIPS = 0.07  # broken seams allowed by the end at first, as a share of the seams
PATIENCE = 20_000_000  # nodes without a better board before a restart in a new order
POLISH = 200_000  # steps of local search (swaps and turns) on each better board
# On large boards a cell breaks at most one of its seams to its neighbours above and to the left
# until the first restart that found no full board (a board some tile of which can meet
# neither is then searched with double breaks as before). Measured on Eternity II with the
# centre clue, 6e8 nodes from the root, seeds 1 and 2 (load 20): 454 and 453 without double
# breaks, 451 and 453 with them, 11.4 against 10.3 M nodes a CPU second.
SINGLE_FIRST = True


U = np.uint64  # indexes cast unsigned: numba then checks no negative index (as in edgecount)


@njit(cache=True, nogil=True)
def _search(  # noqa: C901 - a numba kernel, kept whole until issue 39's C
        order, cls, left, top, extra, extra_side, allow, start, stop, cand_tile,
        cand_turn, has, turn_left, turn_top, allowed, edge, partner, wild, tile_at,
        turn_at, used, free, ph, pos, end, word, bits, tile_now, turns_now, need_l, need_t,
        slips, state, best_tile, best_turn, real, base_broken, seams,
        budget):  # pragma: no cover - compiled
    """Run the depth-first search from its saved stack for at most `budget` nodes.

    state = [depth, nodes, best score, improved flag, over flag, double breaks allowed (a
    tile meeting neither neighbour above and to the left)]. Tiles are numbered by the
    shuffle (real[t]: the puzzle's tile). Phase 0 (every seam met): the candidates (tile,
    turn) cand_tile/cand_turn[start:stop[class, L, T]] showing colour L on the left and T on
    top (`wild`: any), the used ones skipped. Phases 1-3 (slips): the unused tiles as words of
    bits, `free` and has[slice + word] (the tiles of the class that show a colour on a side
    in a turn allowed), then the turns of each such tile: turn_left/turn_top[t, colour] (a
    bit per turn showing it) and allowed[class, t]."""
    depths = len(order)
    words = len(free)
    classes = allowed.shape[0]
    d = state[0]
    nodes = 0
    while nodes < budget:
        if d == depths:  # a full board
            broken = base_broken + (slips[d - 1] if d > 0 else 0)
            if seams - broken > state[2]:
                state[2] = seams - broken
                state[3] = 1
                for c in range(len(tile_at)):
                    best_tile[c] = real[tile_at[c]]
                    best_turn[c] = turn_at[c]
            d -= 1
            if d < 0:
                state[4] = 1
                break
            t = tile_at[order[d]]
            used[t] = 0
            free[t >> 6] |= 1 << (t & 63)
            continue
        p = ph[U(d)]
        t = -1
        r = 0
        if p == 0:  # every seam met: the table's slice, used tiles skipped
            i = pos[U(d)]
            e = end[U(d)]
            while i < e and used[cand_tile[U(i)]]:
                i += 1
            if i < e:
                pos[U(d)] = i + 1
                t = cand_tile[U(i)]
                r = cand_turn[U(i)]
        else:  # a slip: the next unused tile of the phase's bits, turned each way that fits
            rb = turns_now[U(d)]
            if rb == 0:
                k = cls[U(d)]
                L = need_l[U(d)]
                T = need_t[U(d)]
                x = bits[U(d)]
                w = word[U(d)]
                base = (((0 if p == 2 else 1) * classes + k) * (wild + 1)
                        + (T if p == 2 else (L if p == 1 else wild))) * words
                while True:
                    while x == 0 and w + 1 < words:
                        w += 1
                        x = has[U(base + w)] & free[U(w)]
                    if x == 0:
                        break
                    t = (w << 6) + trailing_zeros(x)
                    x &= x - 1
                    a = turn_left[U(t), U(L)]
                    b = turn_top[U(t), U(T)]
                    if p == 1:
                        rb = a & ~b
                    elif p == 2:
                        rb = b & ~a
                    else:
                        rb = ~(a | b)
                    rb &= allowed[U(k), U(t)]
                    if rb != 0:
                        break
                bits[U(d)] = x
                word[U(d)] = w
                if rb != 0:
                    tile_now[U(d)] = t
                else:
                    t = -1
            if rb != 0:
                t = tile_now[U(d)]
                r = trailing_zeros(rb)
                turns_now[U(d)] = rb & (rb - 1)
        before = slips[U(d - 1)] if d > 0 else 0
        if t < 0:  # the next phase of candidates, or back
            L = need_l[U(d)]
            T = need_t[U(d)]
            p += 1
            while p <= 3:
                cost = 1 if p < 3 else 2
                usable = (p == 1 and T != wild) or (p == 2 and L != wild) or (
                    p == 3 and L != wild and T != wild and state[5] != 0)
                if usable and before + cost <= allow[U(d)]:
                    break
                p += 1
            if p > 3:
                d -= 1
                if d < 0:
                    state[4] = 1
                    break
                t = tile_at[order[U(d)]]
                used[U(t)] = 0
                free[U(t >> 6)] |= 1 << (t & 63)
                continue
            ph[U(d)] = p
            word[U(d)] = -1
            bits[U(d)] = 0
            turns_now[U(d)] = 0
            continue
        cost = 0 if p == 0 else (1 if p < 3 else 2)
        for s in range(extra.shape[1]):  # fixed neighbours to the right or below
            n = extra[U(d), U(s)]
            if n < 0:
                break
            side = extra_side[U(d), U(s)]
            shown = edge[U(tile_at[U(n)]), U((side + 2 - turn_at[U(n)]) & 3)]
            if partner[U(shown)] != edge[U(t), U((side - r) & 3)]:
                cost += 1
        total = before + cost
        if total > allow[U(d)]:
            continue
        nodes += 1
        c = order[U(d)]
        tile_at[U(c)] = t
        turn_at[U(c)] = r
        used[U(t)] = 1
        free[U(t >> 6)] &= ~(1 << (t & 63))
        slips[U(d)] = total
        d += 1
        if d < depths:
            a = left[U(d)]
            b = top[U(d)]
            L = wild if a < 0 else partner[U(edge[U(tile_at[U(a)]), U((1 - turn_at[U(a)]) & 3)])]
            T = wild if b < 0 else partner[U(edge[U(tile_at[U(b)]), U((2 - turn_at[U(b)]) & 3)])]
            need_l[U(d)] = L
            need_t[U(d)] = T
            ph[U(d)] = 0
            k = cls[U(d)]
            pos[U(d)] = start[U(k), U(L), U(T)]
            end[U(d)] = stop[U(k), U(L), U(T)]
    state[0] = d
    state[1] += nodes


# The local search's random numbers: splitmix64 (Steele, Lea and Flood 2014), one 64-bit word of
# state, written out so that the compiled kernel and any port of it draw the same numbers.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True)
def _next(rng):  # pragma: no cover - compiled
    """The next 64-bit word of the generator whose state is rng[0] (a uint64 array)."""
    rng[0] += GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _below(rng, n):  # pragma: no cover - compiled
    """A random integer in [0, n)."""
    return np.int64(_next(rng) % np.uint64(n))


@njit(cache=True, nogil=True)
def _uniform(rng):  # pragma: no cover - compiled
    """A random float in [0, 1): the word's top 53 bits."""
    return np.float64(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def _around(c, tile_at, turn_at, neighbour, edge, partner):  # pragma: no cover - compiled
    """Matched seams around cell c."""
    found = 0
    t = tile_at[c]
    r = turn_at[c]
    for s in range(4):
        n = neighbour[c, s]
        if n >= 0:
            if partner[edge[t, (s - r) & 3]] == edge[tile_at[n], (s + 2 - turn_at[n]) & 3]:
                found += 1
    return found


@njit(cache=True, nogil=True)
def _polish(  # noqa: C901 - a numba kernel, kept whole until issue 39's C
        tile_at, turn_at, free, turns, neighbour, edge, partner, steps, heat, seed, state,
        best_tile, best_turn):  # pragma: no cover - compiled
    """Local search on a full board: swap two tiles (or turn one), each turned its best way,
    accepted if the matched seams do not drop (or, at temperature `heat`, with probability
    exp(drop / heat)). state = [score, best score]; the best board is kept in best_*."""
    rng = np.full(1, seed, dtype=np.uint64)
    cells = len(free)
    for _ in range(steps):
        a = free[_below(rng, cells)]
        b = a
        if _uniform(rng) < 0.9:
            found = False
            for _try in range(20):
                b = free[_below(rng, cells)]
                if b != a and turns[b, tile_at[a]] != 0 and turns[a, tile_at[b]] != 0:
                    found = True
                    break
            if not found:
                continue
        ta = tile_at[a]
        tb = tile_at[b]
        ra = turn_at[a]
        rb = turn_at[b]
        old = _around(a, tile_at, turn_at, neighbour, edge, partner)
        if b != a:
            old += _around(b, tile_at, turn_at, neighbour, edge, partner)
            for s in range(4):
                if neighbour[a, s] == b:
                    old -= int(partner[edge[ta, (s - ra) & 3]] == edge[tb, (s + 2 - rb) & 3])
        best_new = -1
        ties = 0
        pick_a = ra
        pick_b = rb
        tile_at[a] = tb
        tile_at[b] = ta
        for qa in range(4):
            if not (turns[a, tb] >> qa) & 1:
                continue
            for qb in range(4):
                if b != a and not (turns[b, ta] >> qb) & 1:
                    continue
                if b == a and qb > 0:
                    break
                turn_at[a] = qa
                if b != a:
                    turn_at[b] = qb
                new = _around(a, tile_at, turn_at, neighbour, edge, partner)
                if b != a:
                    new += _around(b, tile_at, turn_at, neighbour, edge, partner)
                    for s in range(4):
                        if neighbour[a, s] == b:
                            new -= int(partner[edge[tb, (s - qa) & 3]]
                                       == edge[ta, (s + 2 - qb) & 3])
                if new > best_new:
                    best_new = new
                    ties = 1
                    pick_a = qa
                    pick_b = qb
                elif new == best_new:
                    ties += 1
                    if _below(rng, ties) == 0:
                        pick_a = qa
                        pick_b = qb
        delta = best_new - old
        if delta >= 0 or (heat > 0 and _uniform(rng) < np.exp(delta / heat)):
            turn_at[a] = pick_a
            if b != a:
                turn_at[b] = pick_b
            state[0] += delta
            if state[0] > state[1]:
                state[1] = state[0]
                for c in range(len(tile_at)):
                    best_tile[c] = tile_at[c]
                    best_turn[c] = turn_at[c]
        else:
            tile_at[a] = ta
            tile_at[b] = tb
            turn_at[a] = ra
            turn_at[b] = rb


def words_of(bits: np.ndarray) -> np.ndarray:
    """Booleans (tile, ...) as 64-bit words (..., word): tile t at bit t % 64 of word t // 64."""
    tiles = bits.shape[0]
    padded = np.zeros((-(-tiles // 64) * 64, *bits.shape[1:]), dtype=bool)
    padded[:tiles] = bits
    packed = np.packbits(np.moveaxis(padded, 0, -1), axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view(np.int64)


class Search:
    """The arrays of one search (one seed) and its stack, resumable slice by slice."""

    def __init__(self, arrays: SearchArrays, seed: int) -> None:
        self.arrays = a = arrays
        n = a.rows * a.cols
        self.rng = np.random.default_rng(seed)
        self.order = np.array([c for c in range(n) if a.fixed[c] < 0], dtype=np.int64)
        depth_of = {int(c): d for d, c in enumerate(self.order)}
        depths = len(self.order)
        known = lambda c, d: c >= 0 and (a.fixed[c] >= 0 or depth_of.get(c, depths) < d)  # noqa: E731
        self.left = np.full(depths, -1, dtype=np.int64)
        self.top = np.full(depths, -1, dtype=np.int64)
        self.extra = np.full((depths, 2), -1, dtype=np.int64)
        self.extra_side = np.zeros((depths, 2), dtype=np.int64)
        for d, c in enumerate(self.order):
            up, right, down, left = a.neighbour[c]
            self.top[d] = up if known(up, d) else -1
            self.left[d] = left if known(left, d) else -1
            k = 0
            for side, other in ((1, right), (2, down)):
                if known(other, d):
                    self.extra[d, k], self.extra_side[d, k] = other, side
                    k += 1
        colours = len(a.partner) - 1
        self.wild = colours  # also the id that meets nothing: never a candidate's colour
        classes: dict[bytes, int] = {}
        self.cls = np.zeros(depths, dtype=np.int64)
        members: list[np.ndarray] = []
        for d, c in enumerate(self.order):
            key = a.turns[c].tobytes()
            if key not in classes:
                classes[key] = len(members)
                members.append(a.turns[c].copy())
            self.cls[d] = classes[key]
        self.members = members
        self.tile_at = np.full(n, -1, dtype=np.int64)
        self.turn_at = np.zeros(n, dtype=np.int64)
        for c in range(n):
            if a.fixed[c] >= 0:
                self.tile_at[c], self.turn_at[c] = a.fixed[c], a.fixed_turn[c]
        self.base_broken = 0  # seams between two fixed tiles that do not match
        for c in range(n):
            for side in (1, 2):
                other = a.neighbour[c, side]
                if a.fixed[c] >= 0 and other >= 0 and a.fixed[other] >= 0:
                    mine = a.edge[a.fixed[c], (side - a.fixed_turn[c]) & 3]
                    theirs = a.edge[a.fixed[other], (side + 2 - a.fixed_turn[other]) & 3]
                    self.base_broken += int(a.partner[mine] != theirs)
        self.best_tile = self.tile_at.copy()
        self.best_turn = self.turn_at.copy()
        self.state = np.zeros(6, dtype=np.int64)
        self.state[2] = -1
        self.state[5] = 1
        self.allow = np.zeros(depths, dtype=np.int64)
        self.shuffle()

    def shuffle(self) -> None:
        """The tiles numbered in a new random order (the order the slips try them in), the
        candidate tables, each slice in a new random order, and the stack at the root."""
        a = self.arrays
        wild = self.wild
        count = len(a.edge)
        self.real = self.rng.permutation(count).astype(np.int64)  # our number -> the tile
        self.number = np.argsort(self.real)
        self.edge = edge = a.edge[self.real].astype(np.int64)
        self.allowed = allowed = np.array([m[self.real] for m in self.members], dtype=np.int64)
        tiles = np.arange(count)
        self.turn_left = np.zeros((count, wild + 1), dtype=np.int64)
        self.turn_top = np.zeros((count, wild + 1), dtype=np.int64)
        for r in range(4):
            self.turn_left[tiles, edge[:, (3 - r) & 3]] |= 1 << r
            self.turn_top[tiles, edge[:, -r & 3]] |= 1 << r
        self.turn_left[:, wild] = self.turn_top[:, wild] = 15
        shows = np.stack([self.turn_top, self.turn_left])  # side (top, left) x tile x colour
        self.has = words_of((shows.transpose(1, 0, 2)[:, :, None, :]
                             & allowed.T[:, None, :, None]) != 0).ravel()
        cand_tile, cand_turn = [], []
        start = np.zeros((len(self.members), wild + 1, wild + 1), dtype=np.int64)
        stop = np.zeros_like(start)
        for k in range(len(self.members)):
            cands = [(t, r) for t in np.nonzero(allowed[k])[0] for r in range(4)
                     if allowed[k, t] >> r & 1]
            buckets: dict[tuple[int, int], list[int]] = {}
            for j, (t, r) in enumerate(cands):
                lc, tc = int(edge[t, (3 - r) & 3]), int(edge[t, -r & 3])
                for key in ((lc, tc), (lc, wild), (wild, tc), (wild, wild)):
                    buckets.setdefault(key, []).append(j)
            for (lc, tc), js in buckets.items():
                start[k, lc, tc] = len(cand_tile)
                for i in self.rng.permutation(len(js)):
                    cand_tile.append(cands[js[i]][0])
                    cand_turn.append(cands[js[i]][1])
                stop[k, lc, tc] = len(cand_tile)
        self.start, self.stop = start, stop
        self.cand_tile = np.array(cand_tile, dtype=np.int64)
        self.cand_turn = np.array(cand_turn, dtype=np.int64)
        self.restart()

    def restart(self) -> None:
        depths = len(self.order)
        a = self.arrays
        count = len(a.edge)
        self.used = np.zeros(count, dtype=np.int64)
        for c in range(len(self.tile_at)):
            if a.fixed[c] >= 0:
                self.tile_at[c] = self.number[a.fixed[c]]
                self.used[self.tile_at[c]] = 1
        self.free = words_of(self.used[:, None] == 0)[0]
        self.ph = np.zeros(depths + 1, dtype=np.int64)
        self.pos = np.zeros(depths + 1, dtype=np.int64)
        self.end = np.zeros(depths + 1, dtype=np.int64)
        self.word = np.full(depths + 1, -1, dtype=np.int64)
        self.bits = np.zeros(depths + 1, dtype=np.int64)
        self.tile_now = np.zeros(depths + 1, dtype=np.int64)
        self.turns_now = np.zeros(depths + 1, dtype=np.int64)
        self.need_l = np.zeros(depths + 1, dtype=np.int64)
        self.need_t = np.zeros(depths + 1, dtype=np.int64)
        self.slips = np.zeros(depths + 1, dtype=np.int64)
        self.state[0] = 0
        self.state[4] = 0
        if depths:
            self.need_l[0] = self.wild if self.left[0] < 0 else self._need(self.left[0], 1)
            self.need_t[0] = self.wild if self.top[0] < 0 else self._need(self.top[0], 2)
            k = self.cls[0]
            self.pos[0] = self.start[k, self.need_l[0], self.need_t[0]]
            self.end[0] = self.stop[k, self.need_l[0], self.need_t[0]]

    def _need(self, cell: int, side: int) -> int:
        a = self.arrays
        return int(a.partner[self.edge[self.tile_at[cell], (side - self.turn_at[cell]) & 3]])

    def run(self, budget: int) -> bool:
        """Search on for at most `budget` nodes; whether the search is over."""
        a = self.arrays
        if len(self.order) == 0:
            if self.state[2] < 0:
                self.state[2] = a.seams - self.base_broken
                self.state[3] = 1
            return True
        _search(self.order, self.cls, self.left, self.top, self.extra, self.extra_side,
                self.allow, self.start, self.stop, self.cand_tile, self.cand_turn, self.has,
                self.turn_left, self.turn_top, self.allowed, self.edge, a.partner, self.wild,
                self.tile_at, self.turn_at, self.used, self.free, self.ph, self.pos, self.end,
                self.word, self.bits, self.tile_now, self.turns_now, self.need_l, self.need_t,
                self.slips, self.state, self.best_tile, self.best_turn, self.real,
                self.base_broken, a.seams, budget)
        return bool(self.state[4])

    def board(self) -> list[Placed]:
        return [(int(t), int(r)) for t, r in zip(self.best_tile, self.best_turn)]

    @property
    def nodes(self) -> int:
        return int(self.state[1])


def schedule(depths: int, seams: int, first: float = FIRST_SLIP, share: float = SLIPS
             ) -> np.ndarray:
    """Broken seams allowed so far at each depth: none before `first` of the cells, then
    rising evenly to `share` of the seams at the last cell."""
    most = max(1, round(share * seams))
    gate = int(first * depths)
    allow = np.zeros(depths, dtype=np.int64)
    for d in range(gate, depths):
        allow[d] = int(np.ceil(most * (d - gate + 1) / max(1, depths - gate)))
    return allow


def run(report: Callable, puzzle: EdgePuzzle, start: list[Placed] | None,
        time_limit: float | None, jobs: int, seed: int, argument: str | None) -> dict:
    """The entry runners/best.py calls (in a child process): search until the time limit."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    return optimise(report, Search(search_arrays(puzzle), seed), seed,
                    lambda search: deadline is not None and time.monotonic() >= deadline)


def optimise(report: Callable, search: Search, seed: int,
             stop: Callable[[Search], bool]) -> dict:
    """Search until `stop(search)` (asked between two slices) or a proof: on a board of at most
    EXACT_CELLS cells the budget raised one by one, on a larger one slips and restarts."""
    if search.arrays.rows * search.arrays.cols <= EXACT_CELLS:
        return _exact(report, search, stop)
    return _anytime(report, search, seed, stop)


def _exact(report: Callable, search: Search, stop: Callable[[Search], bool]) -> dict:
    """The budget raised one by one: the first full board is the best there is."""
    for k in range(0, 2 * search.arrays.seams + 1):
        search.allow[:] = k
        search.restart()
        while not search.run(SLICE) and search.state[2] < 0:
            if stop(search):
                return {"optimal": False}
        if search.state[2] >= 0:  # the first full board under the budget
            report(search.board(), {"nodes": search.nodes})
            return {"optimal": True}
    return {"optimal": False}


def _anytime(report: Callable, search: Search, seed: int,
             stop: Callable[[Search], bool]) -> dict:
    """Slips on a depth-dependent budget, a restart in a new order after PATIENCE nodes
    without a better board; each better board polished and sent."""
    seams = search.arrays.seams
    depths = len(search.order)
    first, share = FIRST_SLIP, SLIPS
    search.allow[:] = schedule(depths, seams, first, share)
    search.state[5] = 0 if SINGLE_FIRST else 1
    free = search.order.copy()
    best = -1
    since = 0
    while not stop(search):
        over = search.run(SLICE)
        since += SLICE
        if search.state[3]:
            search.state[3] = 0
            if search.state[2] > best:
                best = polish(search, free, seed + since)
                since = 0
                report(search.board(), {"nodes": search.nodes})
                # only better boards from now on: one break fewer than this one by the end
                search.allow[:] = schedule(depths, seams, FIRST_SLIP, (seams - best - 1) / seams)
                search.state[2] = best
        if over or since >= PATIENCE:
            if best < 0:  # no full board yet: double breaks, and twice the slips, earlier
                search.state[5] = 1
                first, share = first / 2, min(1.0, share * 2)
                search.allow[:] = schedule(depths, seams, first, share)
            search.shuffle()
            since = 0
    return {"optimal": False}


def kept() -> bool:
    """Whether the compiled search and local search are in numba's cache on disk (a warm-up
    then loads them: no compile to announce)."""
    from ..compiled import on_disk

    return on_disk(_search, _polish)


def warm_up() -> bool:
    """Compile the search and the local search (or load them from numba's cache on disk) on a
    tiny board, so that a time limit is spent searching; whether they were compiled (a first
    run: 8.6 s of wall at load 11, 3.5 CPU s; a load from the cache: 0.3-1.5 s)."""
    from ..models.edge_matching import Tile

    tile = Tile((("a", ""),) * 4)
    search = Search(search_arrays(EdgePuzzle("tiny", 1, 2, (tile, tile))), 1)
    search.run(SLICE)
    polish(search, search.order.copy(), 1)
    return any(sum(kernel.stats.cache_misses.values()) for kernel in (_search, _polish)
               if hasattr(kernel, "stats"))


def polish(search: Search, free: np.ndarray, seed: int) -> int:
    """A better board improved by local search (swaps and turns that do not lose a seam): its
    score; the search's best board is the polished one."""
    a = search.arrays
    tiles, turns = search.best_tile.copy(), search.best_turn.copy()
    state = np.array([search.state[2], search.state[2]], dtype=np.int64)
    _polish(tiles, turns, free, a.turns, a.neighbour, a.edge, a.partner, POLISH, 0.0,
            seed % (2**31), state, search.best_tile, search.best_turn)
    return int(state[1])
