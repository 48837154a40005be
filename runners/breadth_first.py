"""God's algorithm: breadth-first search over every reachable position, and its 2-bit table.

One engine for every family whose positions have a 64-bit code and whose moves can be undone
(Mind Lock, the sliding-block puzzles). A family names a move kernel (a number of the C module,
`moves.MIND_LOCK`, `moves.SLIDING_CODES`, `moves.SLIDING_RANKS`) and the arrays it reads: from a
position's code the kernel gives the codes of the positions one move away, and where the family
has one, whether a goal stands there. The engine searches from the distance-0 positions (the
solved ones) and keeps:
- where the codes are a perfect rank (every arrangement one number, 0 to n-1, reached or not:
  `search_ranked`), a byte per rank while searching, level by level, on as many threads as asked,
  and no codes at all: 1 byte an arrangement, then 2 bits;
- else the codes reached, in a hash set while searching, then sorted: a position's rank is its
  index among the sorted codes of the reachable positions (a perfect hash, found by binary
  search); where the codes are exactly 0..n-1 (Mind Lock's ranks) no key array is kept at all;
- per rank the distance modulo 3 in 2 bits (four positions a byte, 3 meaning not reached): from a
  position at distance d the neighbour whose residue is (d - 1) mod 3 is one move nearer, so
  walking those steps gives an optimal solution and the distance itself;
- how many positions lie at each distance, and the positions at the greatest (God's number over
  the reachable set).
The kernels and the search's loops are C (runners/csrc/moves.c, built when puzzlesat is
installed): a family's table model names its kernel by number and gives the arrays it reads;
this module drives the levels, looks at the deadline between calls and runs the threads. Where
the install found no C compiler, importing this module raises `native.KernelMissing`.

Before it starts the search estimates its memory from an upper bound on the positions and
refuses, with a message saying how much it needs and has, when that exceeds the limit (the
memory the machine has available, or the caller's). Tables are cached in the user's cache folder
(XDG_CACHE_HOME, else ~/.cache, then puzzlesat/), written atomically with a checksum; a cache
that cannot be written leaves the table in memory with a warning (a Python warning, which the
command line prints on stderr).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import native
from .models.errors import InputError
from .models.words import plural
from .table_cache import CacheReport, CorruptTable, cache_folder, cached

moves = native.kernel("moves")  # the C engine and kernels: KernelMissing where not built

EMPTY_KEY = np.uint64(2**64 - 1)
UNREACHED = 3
LOAD = 0.6  # the hash set is made for the bound at most this full
MAGIC = b"PZSGOD02"
HARDEST_KEPT = 10_000  # the hardest positions a table keeps (all of them where fewer)


class TooBig(InputError):
    """A search refused before it starts: its memory estimate exceeds what can be used."""


class SearchStopped(Exception):
    """A search stopped before its end, by its deadline or an interrupt: how many positions it
    had reached (a lower bound on the positions reachable) and how long it ran."""

    def __init__(self, positions: int, seconds: float, interrupted: bool = False) -> None:
        super().__init__(f"stopped after reaching {plural(positions, 'position')}")
        self.positions = positions
        self.seconds = seconds
        self.interrupted = interrupted


# ---------------------------------------------------------------- memory


def available_memory() -> int:
    """Bytes the machine has available now (MemAvailable), or its physical memory."""
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return 2**32


def hash_bits(positions: int) -> int:
    """log2 of the hash set's slots for at most `positions` codes (filled at most LOAD)."""
    bits = 16
    while (1 << bits) * LOAD < positions:
        bits += 1
    return bits


def estimate_bytes(positions: int, second_pass: bool = False) -> int:
    """Memory a search of at most `positions` positions needs at its peak: the queue (8 bytes a
    position, later the sorted codes), the hash set (8 bytes a slot), a byte a slot more for a
    second pass, the packed residues, and 64 MiB for the rest."""
    slots = 1 << hash_bits(positions)
    return 8 * positions + (9 if second_pass else 8) * slots + positions // 4 + 64 * 2**20


def check_memory(positions: int, limit: int | None, what: str, second_pass: bool = False
                 ) -> int:
    """The estimate for `positions`; TooBig when it exceeds `limit` (default: available)."""
    need = estimate_bytes(positions, second_pass)
    have = available_memory() if limit is None else limit
    if need > have:
        source = "available on this machine" if limit is None else "allowed (the limit given)"
        raise TooBig(
            f"{what}: up to {plural(positions, 'position')}, about {need / 2**30:.2f} GiB to "
            f"search, but {have / 2**30:.2f} GiB {source}; refused before starting",
            field="memory",
        )
    return need


# ---------------------------------------------------------------- the search


@dataclass
class Build:
    """A finished search: sorted codes (None: they are 0..n-1), residues, levels, time."""

    keys: np.ndarray | None
    packed: np.ndarray
    distance_counts: list[int]
    hardest: list[int]  # codes at the greatest distance, sorted
    seconds: float
    bytes_estimated: int = 0
    notes: list[str] = field(default_factory=list)
    distances: np.ndarray | None = None  # by rank, when asked for (keep_distances)
    span: int = 0  # with no keys: the codes are 0..span-1, reached or not (0: the positions)

    @property
    def positions(self) -> int:
        return sum(self.distance_counts)

    @property
    def gods_number(self) -> int:
        return len(self.distance_counts) - 1

    def table(self) -> Table:
        return Table(self.keys, self.packed, self.positions, self.span or self.positions)


def search(kernel: int, data: tuple, seeds: Sequence[int], bound: int, *,
           what: str = "search", component: int | None = None,
           memory: int | None = None, progress: bool = False, dense: bool = False,
           keep_distances: bool = False, deadline: float | None = None) -> Build:
    """Breadth-first search from `seeds` (distance 0) over the positions the moves reach.

    kernel, data: the family's kernel (a number of the C module) and the arrays it reads.
    bound: at most this many positions are reachable (the memory estimate's basis; a search
    that finds more stops with an error).
    component: first find every position reachable from `component`, then search from those
    of them where the kernel's goal test holds (a goal that is a property, not a list).
    dense: the codes reached are exactly 0..n-1, so no key array is kept.
    keep_distances: also give every position's whole distance (a byte each, by rank; for a
    search small enough that a byte a position is nothing).
    deadline: a time.time() value; the search raises SearchStopped at it (or at Ctrl-C), saying
    how many positions it had reached.
    """
    begin = time.perf_counter()
    need = check_memory(bound, memory, what, second_pass=component is not None)
    queue = np.empty(max(bound, 1), dtype=np.uint64)
    bits = hash_bits(bound)
    keys = np.full(1 << bits, EMPTY_KEY, dtype=np.uint64)
    bar = _bar(progress, what)

    so_far = [0]  # positions reached: what a stopped search reports

    def stop_at(reached: int) -> None:
        so_far[0] = max(so_far[0], reached)
        if deadline is not None and time.time() >= deadline:
            bar(None)
            raise SearchStopped(so_far[0], time.perf_counter() - begin)

    def levels(tail: int, expand: Callable[[int, int, int], int]) -> list[int]:
        """Expand the queue level by level from its first `tail` codes, in chunks (a look at
        the deadline after each): `expand(head, stop, tail)` adds the new codes of
        queue[head:stop] at the tail and gives the new tail. The levels' ends."""
        ends, head = [tail], 0
        while head < tail:
            end = tail
            while head < end:
                step = min(end - head, 1 << 16)
                tail = expand(head, head + step, tail)
                head += step
                bar(step)
                stop_at(tail)
            if tail > end:
                ends.append(tail)
        return ends

    shift = 64 - bits

    def first_pass(starts: Sequence[int]) -> list[int]:
        tail = 0
        for code in sorted(set(int(s) for s in starts)):
            queue[tail] = code
            tail += 1
        moves.fill(keys, queue, tail, shift)

        def expand(head: int, stop: int, tail: int) -> int:
            tail = moves.expand(kernel, data, queue, head, stop, tail, keys, shift)
            if tail < 0:
                raise InputError(f"{what}: more than {plural(bound, 'position')} reached, the "
                                 "bound the memory estimate was made for", field="bound")
            return tail

        return levels(tail, expand)

    try:
        if component is None:
            ends = first_pass(seeds)
        else:
            reached = first_pass([component])[-1]
            so_far[0] = reached  # the component's size: the distances are what is left
            tail, seen = _goal_seeds(kernel, data, queue, reached, keys, shift, what)
            bar(0, "distances")
            ends = levels(tail, lambda head, stop, tail: moves.expand_again(
                kernel, data, queue, head, stop, tail, keys, shift, seen))
            del seen
            if ends[-1] != reached:  # moves are undone: the goal's component is the start's
                raise InputError(f"{what}: {plural(reached - ends[-1], 'position')} reached from "
                                 "the start do not reach the goal although every move can be "
                                 "undone",
                                 field="goal")
    except KeyboardInterrupt:
        bar(None)
        raise SearchStopped(so_far[0], time.perf_counter() - begin, interrupted=True) from None
    keys = None  # the hash set is done with: its memory goes back before the sort
    bar(None)
    return _finished(queue, ends, dense, keep_distances, begin, need)


def _goal_seeds(kernel: int, data: tuple, queue: np.ndarray, reached: int, keys: np.ndarray,
                shift: int, what: str) -> tuple[int, np.ndarray]:
    """The second pass's start: the positions of the first pass (queue[:reached]) where the
    kernel's goal test holds, moved to the queue's head and marked seen (a byte a slot of the
    hash set `keys`); how many, and the marks. InputError where no goal position was
    reached."""
    picked = np.empty(reached, dtype=np.uint64)
    found = moves.pick(kernel, data, queue, reached, picked)
    if not found:
        raise InputError(f"{what}: no goal position is reachable from the start",
                         field="goal")
    seen = np.zeros(keys.size, dtype=np.uint8)
    queue[:found] = picked[:found]
    moves.mark_seen(keys, shift, queue, found, seen)
    return found, seen


def _finished(queue: np.ndarray, ends: list[int], dense: bool, keep_distances: bool,
              begin: float, need: int) -> Build:
    """The table of a finished search from its queue (the codes reached, level by level, the
    levels ending at `ends`): how many positions at each distance, the hardest, the codes sorted
    (none where they are 0..n-1 and `dense`) with their residues in 2 bits, and with
    `keep_distances` every position's whole distance."""
    count = ends[-1]
    counts = [ends[0]] + [b - a for a, b in zip(ends, ends[1:])]
    hardest = np.sort(queue[ends[-2] if len(ends) > 1 else 0: count])[:HARDEST_KEPT].tolist()
    queue = queue[:count]
    in_order = queue.copy() if keep_distances else None
    moves.mark_levels(queue, np.array(ends, dtype=np.int64))
    packed = np.full((count + 3) // 4, 255, dtype=np.uint8)
    if dense and count and int(queue.max()) >> 2 == count - 1:  # distinct codes: 0..count-1
        moves.scatter(queue, count, packed)  # each residue at its code, no sort
        keys_kept = None
    else:
        queue.sort()
        moves.split(queue, count, packed)
        keys_kept = queue
    distances = None
    if in_order is not None:
        distances = np.full(count, 255, dtype=np.uint8)
        for level, (a, b) in enumerate(zip([0, *ends], ends)):
            ranks = in_order[a:b] if keys_kept is None else np.searchsorted(queue, in_order[a:b])
            distances[ranks.astype(np.int64)] = min(level, 254)
    return Build(keys_kept, packed, counts, hardest, time.perf_counter() - begin, need,
                 distances=distances)


# ---------------------------------------------------------------- the search on ranks

# A byte per rank while searching: the distance modulo WRAP (a multiple of 3, so that the
# residue mod 3 is kept), WRAP + residue once a position is WRAP levels behind (so that it is
# never taken for the frontier again), IN_COMPONENT for a position of the start's component not
# yet reached from a goal, UNSEEN for one not reached at all.
WRAP = 249
IN_COMPONENT = 252
UNSEEN = 255
RANK_CHUNK = 1 << 22  # ranks a call of the level function scans (a multiple of 8): a look at
# the clock between calls


def ranked_bytes(size: int) -> int:
    """Memory a search on `size` ranks needs at its peak: a byte a rank, its 2-bit table, and
    64 MiB for the rest."""
    return size + (size + 3) // 4 + 64 * 2**20


def check_ranked_memory(size: int, limit: int | None, what: str) -> int:
    """`ranked_bytes(size)`; TooBig when it exceeds `limit` (default: available)."""
    need = ranked_bytes(size)
    have = available_memory() if limit is None else limit
    if need > have:
        source = "available on this machine" if limit is None else "allowed (the limit given)"
        raise TooBig(f"{what}: {plural(size, 'arrangement')}, about {need / 2**30:.2f} GiB to "
                     f"search (a byte each), but {have / 2**30:.2f} GiB {source}; refused before "
                     "starting", field="memory")
    return need


def search_ranked(kernel: int, data: tuple, seeds: Sequence[int], size: int, *,
                  what: str = "search", component: int | None = None,
                  memory: int | None = None, progress: bool = False,
                  deadline: float | None = None, threads: int = 1,
                  level: Callable | None = None) -> Build:
    """Breadth-first search over ranks 0..size-1 (a perfect rank of every arrangement), from
    `seeds` (distance 0), keeping a byte a rank and no codes.

    kernel, data: the family's kernel (a number of the C module) and the arrays it reads.
    level: `moves.level` unless given (a caller may wrap it): level(kernel, data, distance, lo,
    hi, level, after, unseen) expands the ranks in [lo, hi) whose byte is `level`, giving
    `after` to each neighbour whose byte is `unseen`, and says how many it expanded; it
    releases the GIL, so `threads` threads each take a part of the ranks (lo and hi multiples
    of 8).
    component: first every rank reachable from `component`, then the search from those of them
    where the kernel's goal test holds (`moves.goals` marks them 0 and the rest IN_COMPONENT,
    and says how many). deadline: SearchStopped at it (or at Ctrl-C).
    """
    begin = time.perf_counter()
    need = check_ranked_memory(size, memory, what)
    threads = max(1, threads)
    level = moves.level if level is None else level
    padded = -(-size // 8) * 8  # whole words: the bytes past the ranks are never reached
    distance = np.full(padded, UNSEEN, dtype=np.uint8)
    bar = _bar(progress, what)
    reached = [0]  # with a component: its size
    so_far = [1 if component is not None else len(set(seeds))]  # reached: the seeds at least
    pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def parts(function: Callable, lo: int, hi: int, *args) -> int:
        """function(kernel, data, distance, a, b, *args) on `threads` parts of [lo, hi), each
        a whole number of words."""
        if pool is None:
            return function(kernel, data, distance, lo, hi, *args)
        share = -(-(hi - lo) // (8 * threads)) * 8
        futures = [pool.submit(function, kernel, data, distance, a, min(hi, a + share), *args)
                   for a in range(lo, hi, share)]
        return sum(int(f.result()) for f in futures)

    def levels(unseen: int) -> list[int]:
        counts, depth = [], 0
        while True:
            if depth + 1 >= WRAP:  # positions WRAP levels behind: never the frontier again
                old = (depth + 1) % WRAP
                moves.retire(distance, old, WRAP + old % 3)
            expanded = 0
            for lo in range(0, padded, RANK_CHUNK):
                step = parts(level, lo, min(padded, lo + RANK_CHUNK), depth % WRAP,
                             (depth + 1) % WRAP, unseen)
                expanded += step
                bar(step)
                so_far[0] = max(so_far[0], sum(counts) + expanded)
                if deadline is not None and time.time() >= deadline:
                    bar(None)
                    raise SearchStopped(so_far[0], time.perf_counter() - begin)
            if not expanded:
                return counts
            counts.append(int(expanded))
            depth += 1

    try:
        if component is None:
            for seed in seeds:
                distance[int(seed)] = 0
            counts = levels(UNSEEN)
        else:
            distance[int(component)] = 0
            reached[0] = sum(levels(UNSEEN))  # the component's size: the distances are left
            so_far[0] = reached[0]
            bar(0, "distances")
            if not parts(moves.goals, 0, padded, UNSEEN):
                raise InputError(f"{what}: no goal position is reachable from the start",
                                 field="goal")
            counts = levels(IN_COMPONENT)
            if sum(counts) != reached[0]:  # moves are undone: the goal's component is the start's
                raise InputError(f"{what}: {plural(reached[0] - sum(counts), 'position')} reached "
                                 "from the start do not reach the goal although every move can be "
                                 "undone", field="goal")
    except KeyboardInterrupt:
        bar(None)
        raise SearchStopped(so_far[0], time.perf_counter() - begin, interrupted=True) from None
    finally:
        if pool is not None:
            pool.shutdown()
    bar(None)
    found = np.empty(HARDEST_KEPT, dtype=np.int64)
    hardest = found[:moves.collect(distance[:size], (len(counts) - 1) % WRAP, found)].tolist()
    packed = np.empty((size + 3) // 4, dtype=np.uint8)
    moves.pack_ranked(distance[:size], packed)
    distance = None  # its memory goes back before the table is kept
    return Build(None, packed, counts, hardest, time.perf_counter() - begin, need, span=size)


def _bar(progress: bool, what: str):
    """A progress bar on stderr counting positions expanded (tqdm), or nothing."""
    if not progress:
        return lambda step, label=None: None
    from tqdm import tqdm

    bar = tqdm(desc=f"{what}: positions", unit=" pos", unit_scale=True, file=sys.stderr,
               leave=False, mininterval=0.5)

    def update(step, label=None):
        if step is None:
            bar.close()
        elif label:
            bar.set_description(f"{what}: {label}")
            bar.reset()
        else:
            bar.update(step)

    return update


# ---------------------------------------------------------------- the table


@dataclass
class Table:
    """Per reachable position, its distance modulo 3; rank = index among the sorted codes."""

    keys: np.ndarray | None
    packed: np.ndarray
    positions: int
    span: int = 0  # with no keys: the codes are 0..span-1 (0: the positions)

    def rank(self, code: int) -> int:
        """The position's rank (its place in the residues), -1 when not reached."""
        if self.keys is None:
            inside = 0 <= code < (self.span or self.positions)
            return code if inside and self._residue(code) != UNREACHED else -1
        i = int(np.searchsorted(self.keys, np.uint64(code)))
        return i if i < self.positions and int(self.keys[i]) == code else -1

    def residue(self, code: int) -> int:
        """Distance mod 3, or 3 when not reached."""
        i = self.rank(code)
        return UNREACHED if i < 0 else self._residue(i)

    def _residue(self, i: int) -> int:
        return (int(self.packed[i >> 2]) >> ((i & 3) << 1)) & 3

    def walk(self, code: int, neighbours: Callable[[int], list[tuple[object, int]]]
             ) -> list[tuple[object, int]]:
        """An optimal solution from a position: (move, code after) to a distance-0 position.

        neighbours(code): the moves from a position and the codes they lead to. The walk ends
        where no neighbour is nearer: at distance 0 (the residue alone cannot tell distance 0
        from 3, so a position whose every neighbour has residue 1 is taken as solved).
        """
        path: list[tuple[object, int]] = []
        here = self.residue(code)
        if here == UNREACHED:
            raise ValueError("the position is not reached from a solved position")
        while True:
            nearer = (here + 2) % 3
            step = None
            for move, after in neighbours(code):
                if self.residue(after) == nearer:
                    step = (move, after)
                    break
            if step is None:
                return path
            path.append(step)
            code, here = step[1], nearer
            if len(path) > self.positions:
                raise ValueError("the table is inconsistent: the walk does not end")


# ---------------------------------------------------------------- the cache


def fingerprint(*parts: object) -> str:
    """What a cached table depends on, as a short hex digest."""
    return hashlib.sha256(MAGIC + json.dumps(parts, sort_keys=True, default=str).encode()
                          ).hexdigest()[:16]


def file_chunks(build: Build, key: str) -> list[bytes]:
    """The table file's bytes: magic, header (JSON), the key array, a checksum, the residues."""
    header = json.dumps({"key": key, "counts": build.distance_counts, "hardest": build.hardest,
                         "dense": build.keys is None, "span": build.span,
                         "seconds": build.seconds}).encode()
    keys = b"" if build.keys is None else build.keys.tobytes()
    digest = hashlib.blake2b(header, digest_size=16)
    digest.update(keys)
    digest.update(build.packed.tobytes())
    return [MAGIC + len(header).to_bytes(8, "little") + header
            + len(keys).to_bytes(8, "little") + digest.digest(), keys, build.packed.tobytes()]


def read(path: Path, key: str) -> Build:
    return from_bytes(path.read_bytes(), key)


def from_bytes(data: bytes, key: str) -> Build:
    """The table in a file's bytes; CorruptTable says why they are not a valid table for `key`."""
    if not data.startswith(MAGIC):
        raise CorruptTable("not a table file of this version")
    at = len(MAGIC)
    size = int.from_bytes(data[at:at + 8], "little")
    header_bytes = data[at + 8:at + 8 + size]
    at += 8 + size
    key_bytes = int.from_bytes(data[at:at + 8], "little")
    digest = data[at + 8:at + 24]
    at += 24
    keys, packed = data[at:at + key_bytes], data[at + key_bytes:]
    check = hashlib.blake2b(header_bytes, digest_size=16)
    check.update(keys)
    check.update(packed)
    if check.digest() != digest:
        raise CorruptTable("checksum mismatch (a damaged file)")
    try:
        header = json.loads(header_bytes)
    except ValueError:
        raise CorruptTable("unreadable header") from None
    if header.get("key") != key:
        raise CorruptTable("built for other rules")
    counts, span = header["counts"], header.get("span", 0)
    if len(packed) != ((span or sum(counts)) + 3) // 4 or (not header["dense"]
                                                           and len(keys) != 8 * sum(counts)):
        raise CorruptTable("wrong size")
    return Build(None if header["dense"] else np.frombuffer(keys, dtype=np.uint64),
                 np.frombuffer(packed, dtype=np.uint8), counts, header["hardest"],
                 header["seconds"], span=span)


def table_path(name: str, key: str) -> Path:
    """Where the table of `name` with key `key` is cached: puzzlesat/NAME-KEY.table."""
    return cache_folder() / f"{name}-{key}.table"


def load_or_build(name: str, key: str, build: Callable[[], Build], fresh: bool = False,
                  what: str = "the table") -> tuple[Build, CacheReport]:
    """The cached table of `name`, or a fresh build stored there (see `cached`); fresh: built
    whatever the cache holds."""
    return cached(table_path(name, key), lambda data: from_bytes(data, key), build,
                  lambda made: file_chunks(made, key), what, fresh)


def read_cached(name: str, key: str) -> Build | None:
    """The cached table of `name`, or None where there is none that is whole and current."""
    try:
        return read(table_path(name, key), key)
    except (OSError, CorruptTable):
        return None
