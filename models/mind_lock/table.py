"""God's algorithm for Mind Lock: breadth-first search from the solved positions over all ranks.

The search is the project's one engine (puzzlesat.breadth_first, shared with the sliding-block
puzzles) run on ranks with Mind Lock's move tables; this module keeps what is Mind Lock's: the
moves on ranks, and its table file. The table keeps, per position rank, only its distance
modulo 3 (2 bits, four positions a byte, the value 3 meaning "not reached"): from a position at
distance d the neighbour whose residue is (d - 1) mod 3 is one move nearer, since neighbours lie
at d - 1, d or d + 1. Walking those steps to a solved position gives an optimal solution and, by
its length, the distance itself.

The table is cached in the user's cache folder (XDG_CACHE_HOME, else ~/.cache, then puzzlesat/)
with a checksum; a missing, unreadable, stale or corrupt file is rebuilt, and the report says
which; a cache folder that cannot be written leaves the table in memory, with a warning.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ...table_cache import CacheReport, CorruptTable, cache_folder, cached, write_atomic
from ..errors import InputError
from . import (
    ARRANGEMENTS,
    GAP_CELLS,
    MOVES,
    POSITIONS,
    Position,
    apply_move,
    arrangement,
    code,
    neighbours,
    rank,
    unrank,
)

UNREACHED = 255  # in the byte-per-position distances of a build
MAGIC = b"PZSMLK01"  # file format and version of the cached table
DIGEST_BYTES = 16


# ---------------------------------------------------------------- move tables on ranks


def move_tables() -> tuple[list[int], list[int], list[int]]:
    """For each move (push, horizontal, vertical), the rank reached from every rank.

    Only moves with the gap on the front (push) or top row (vertical) are computed from the
    rules; the others are their inverses, since every move is undone by the same move.
    """
    horizontal = [0] * POSITIONS
    vertical = [0] * POSITIONS
    push = [0] * POSITIONS
    for gap_index, gap in enumerate(GAP_CELLS):
        base = gap_index * ARRANGEMENTS
        other = GAP_CELLS.index(gap ^ 1) * ARRANGEMENTS
        horizontal[base : base + ARRANGEMENTS] = range(other, other + ARRANGEMENTS)
    computed = [(gap, "vertical", vertical) for gap in (0, 1, 8, 9)]
    computed += [(gap, "push", push) for gap in (0, 1, 2, 3)]
    bases = [GAP_CELLS.index(gap) * ARRANGEMENTS for gap, _, _ in computed]
    for number in range(ARRANGEMENTS):
        pieces = arrangement(number)
        for (gap, move, table), base in zip(computed, bases):
            before = tuple(pieces[:gap] + [0] + pieces[gap:])
            table[base + number] = rank(apply_move(before, move))
    for (_gap, _move, table), base in zip(computed, bases):
        for source in range(base, base + ARRANGEMENTS):
            table[table[source]] = source
    return push, horizontal, vertical


# ---------------------------------------------------------------- the search


@dataclass
class Build:
    """A finished search: distances (a byte per rank), how many at each distance, the time."""

    distances: bytearray
    distance_counts: list[int]
    seconds: float

    @property
    def positions(self) -> int:
        return sum(self.distance_counts)

    @property
    def hardest_distance(self) -> int:
        return len(self.distance_counts) - 1

    def hardest(self) -> list[int]:
        """The ranks at the greatest distance, in increasing order."""
        last = self.hardest_distance
        return [r for r, d in enumerate(self.distances) if d == last]


def breadth_first(solved: Sequence[Position]) -> Build:
    """Distances of all ranks from the nearest solved position (255: never reached), by the
    shared breadth-first engine on ranks."""
    import numpy as np

    from ...backends.mind_lock_table import moves_kernel
    from ...breadth_first import search

    start = time.perf_counter()
    data = tuple(np.array(t, dtype=np.uint64) for t in move_tables())
    found = search(moves_kernel, data, sorted({rank(p) for p in solved}), POSITIONS, 3,
                   what="Mind Lock", dense=True, keep_distances=True)
    distances = bytearray([UNREACHED]) * POSITIONS
    if found.keys is None:
        distances[: found.positions] = found.distances.tobytes()
    else:  # not every rank reached (solved positions given that do not reach them all)
        for i, code in enumerate(found.keys.tolist()):
            distances[code] = int(found.distances[i])
    return Build(distances, found.distance_counts, time.perf_counter() - start)


# ---------------------------------------------------------------- the packed table

_RESIDUE = bytes(3 if d == UNREACHED else d % 3 for d in range(256))


def pack(distances: bytearray) -> bytes:
    """Distance mod 3 in 2 bits per rank, rank r in bits 2(r%4).. of byte r//4."""
    residues = distances.translate(_RESIDUE) + bytes(-len(distances) % 4)
    packed = 0
    for shift in range(4):
        packed |= int.from_bytes(residues[shift::4], "little") << (2 * shift)
    return packed.to_bytes(len(residues) // 4, "little")


@dataclass(frozen=True)
class Table:
    """Distance mod 3 of every rank, and the ranks of the solved positions."""

    packed: bytes
    solved: frozenset[int]

    def residue(self, number: int) -> int:
        return (self.packed[number >> 2] >> ((number & 3) << 1)) & 3

    def walk(self, position: Position) -> list[tuple[str, Position]]:
        """An optimal solution: the moves, and the position after each, to a solved position
        (the shared engine's walk down the residues)."""
        import numpy as np

        from ...breadth_first import Table as Residues

        residues = Residues(None, np.frombuffer(self.packed, dtype=np.uint8), POSITIONS)

        def moves(number: int) -> list[tuple[str, int]]:
            return [(move, rank(after)) for move, after in neighbours(unrank(number))]

        path = residues.walk(rank(position), moves)
        if (rank(position) if not path else path[-1][1]) not in self.solved:
            raise ValueError("the table is inconsistent: the walk ends off the solved positions")
        return [(move, unrank(number)) for move, number in path]

    def distance(self, position: Position) -> int:
        return len(self.walk(position))


def table_of(build: Build, solved: Sequence[Position]) -> Table:
    return Table(pack(build.distances), frozenset(rank(p) for p in solved))


def fingerprint(solved: Sequence[Position]) -> bytes:
    """What a cached table depends on: the format, the moves and the solved positions."""
    text = MAGIC + ",".join(MOVES).encode() + b"".join(
        code(p).to_bytes(3, "little") for p in sorted(solved)
    )
    return hashlib.sha256(text).digest()


def to_file_bytes(table: Table, solved: Sequence[Position]) -> bytes:
    digest = hashlib.blake2b(fingerprint(solved) + table.packed, digest_size=DIGEST_BYTES)
    return MAGIC + digest.digest() + table.packed


def read_file_bytes(data: bytes, solved: Sequence[Position]) -> Table:
    """The table in a file's bytes; CorruptTable says why they are not a valid table."""
    size = len(MAGIC) + DIGEST_BYTES + (POSITIONS + 3) // 4
    if not data.startswith(MAGIC):
        raise CorruptTable("not a table file of this version (its first bytes differ)")
    if len(data) != size:
        raise CorruptTable(f"wrong size ({len(data):,} bytes, expected {size:,})")
    digest, packed = data[len(MAGIC) : len(MAGIC) + DIGEST_BYTES], data[len(MAGIC) + DIGEST_BYTES :]
    expected = hashlib.blake2b(fingerprint(solved) + packed, digest_size=DIGEST_BYTES).digest()
    if digest != expected:
        raise CorruptTable("checksum mismatch (damaged, or built for other solved positions)")
    return Table(packed, frozenset(rank(p) for p in solved))


def from_file_bytes(data: bytes, solved: Sequence[Position]) -> Table | None:
    """The table in a file's bytes, or None when they are not a valid table for these rules."""
    try:
        return read_file_bytes(data, solved)
    except CorruptTable:
        return None


# ---------------------------------------------------------------- the cache file


def cache_path() -> Path:
    """The table's file in the user's cache folder."""
    return cache_folder() / "mind-lock-table.bin"


def save(table: Table, solved: Sequence[Position], path: Path | None = None) -> Path:
    """Write the table file atomically; returns its path. InputError, naming the file, when it
    cannot be written (a read-only folder or file system, a file in place of a folder)."""
    path = path or cache_path()
    try:
        _write(table, solved, path)
    except OSError as error:
        raise InputError(
            f"cannot store the Mind Lock table: {error.strerror or error}", file=str(path)
        ) from None
    return path


def _write(table: Table, solved: Sequence[Position], path: Path) -> None:
    write_atomic(path, [to_file_bytes(table, solved)])


def load_or_build(
    solved: Sequence[Position], path: Path | None = None
) -> tuple[Table, CacheReport]:
    """The cached table, or a fresh one (then stored, where the folder can be written) when the
    file is missing, unreadable or corrupt: the one table cache (puzzlesat.table_cache). The
    report says which, and never raises for a cache folder that cannot be written: the table is
    then used from memory, with a warning.
    """
    return cached(path or cache_path(), lambda data: read_file_bytes(data, solved),
                  lambda: table_of(breadth_first(solved), solved),
                  lambda table: [to_file_bytes(table, solved)], what="the Mind Lock table")
