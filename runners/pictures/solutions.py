"""The solutions the pictures show, and their classes under the puzzle's symmetries.

Solutions come from the API (`puzzlesat.solutions`, whose default enumerator is the reference
solver): packing grids as dict (row, col) -> piece index, edge-matching grids as (tile index,
rotation) per cell, Mind Lock optimal solutions walked down the God's-algorithm table. Classes
are found from the solutions themselves: two solutions are in one class when a symmetry of the
board maps one onto the other, and the orbit size is how many solutions the class holds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .. import api
from ..models import edge_matching as em
from ..models import mind_lock as ml
from ..models.geometry import Cell
from ..models.packing import PackingPuzzle
from ..models.packing.plan import puzzle_symmetries

G = TypeVar("G")


@dataclass(frozen=True)
class Member(Generic[G]):
    """A solution, the number of its class (from 1) and the size of that class's orbit."""

    grid: G
    klass: int
    orbit: int


def group_by_class(grids: Iterable[G], key: Callable, by_index: bool = False
                   ) -> list[Member[G]]:
    """Solutions with their class (numbered by first appearance) and orbit size.

    `key` gives the same value exactly for solutions mapped onto each other by a symmetry
    (e.g. the least image under the group); it is given each solution, or its index where
    `by_index`. Complete only when `grids` holds every solution.
    """
    grids = list(grids)
    keys = [key(i) if by_index else key(g) for i, g in enumerate(grids)]
    number: dict[Hashable, int] = {}
    sizes: dict[Hashable, int] = {}
    for k in keys:
        number.setdefault(k, len(number) + 1)
        sizes[k] = sizes.get(k, 0) + 1
    return [Member(g, number[k], sizes[k]) for g, k in zip(grids, keys)]


def representatives(members: Sequence[Member[G]]) -> list[Member[G]]:
    """The first member met of each class."""
    seen: set[int] = set()
    out = []
    for member in members:
        if member.klass not in seen:
            seen.add(member.klass)
            out.append(member)
    return out


# ---------------------------------------------------------------- packing


def packing_solutions(puzzle: PackingPuzzle, limit: int | None = None) -> list[dict[Cell, int]]:
    """Every solution (up to `limit`), as piece index per board cell."""
    return [solution.grid for solution in api.solutions(puzzle, limit=limit)]


def packing_classes(puzzle: PackingPuzzle, grids: list[dict[Cell, int]],
                    modulo: str = "symmetry") -> list[Member]:
    """The solutions grouped into classes under the board's symmetries (rotations, and mirror
    images where the set holds each piece's mirror image: a mirror gives a piece its twin's
    place) or, modulo 'rotation', its rotations alone."""
    return group_by_class(grids, packing_class_keys(puzzle, grids, modulo).__getitem__,
                          by_index=True)


def packing_class_keys(puzzle: PackingPuzzle, grids: list[dict[Cell, int]],
                       modulo: str = "symmetry") -> list[bytes]:
    """Each solution's least image under the symmetries (pieces listed in the board's cell
    order), the same exactly for solutions one symmetry maps onto the other."""
    return class_keyer(puzzle, modulo)(grids)


def class_keyer(puzzle: PackingPuzzle, modulo: str = "symmetry"
                ) -> Callable[[list[dict[Cell, int]]], list[bytes]]:
    """The class keys of packing_class_keys, the symmetries worked out once: computed on arrays
    (numpy), the Soma cube's 11,520 solutions under 48 symmetries take a fraction of a second."""
    import numpy

    cells = sorted(puzzle.board_cells)
    index = {cell: i for i, cell in enumerate(cells)}
    moves = [(numpy.array([index[s.move(cell)] for cell in cells]),
              numpy.asarray(s.twin, dtype=numpy.int16))
             for s in puzzle_symmetries(puzzle, modulo)]

    def keys(grids: list[dict[Cell, int]]) -> list[bytes]:
        if not grids:
            return []
        pieces = numpy.array([[grid[cell] for cell in cells] for grid in grids],
                             dtype=numpy.int16)
        rows = numpy.arange(len(grids))
        least = None
        for where, twin in moves:
            image = numpy.empty_like(pieces)
            image[:, where] = twin[pieces]
            if least is None:
                least = image
                continue
            differ = image != least
            first = differ.argmax(axis=1)
            smaller = differ.any(axis=1) & (image[rows, first] < least[rows, first])
            least[smaller] = image[smaller]
        return [row.tobytes() for row in least]

    return keys


def distinct_packing_solutions(puzzle: PackingPuzzle, wanted: int, looked_at: int
                               ) -> list[dict[Cell, int]]:
    """Up to `wanted` solutions no symmetry of the board maps onto one another, the first met
    among the first `looked_at` solutions the enumerator lists."""
    keys = class_keyer(puzzle, "symmetry")
    seen: set[bytes] = set()
    kept = []
    for solution in api.solutions(puzzle, limit=looked_at):
        [key] = keys([solution.grid])
        if key not in seen:
            seen.add(key)
            kept.append(solution.grid)
            if len(kept) == wanted:
                break
    return kept


def packing_symmetries(puzzle: PackingPuzzle, modulo: str = "symmetry") -> int:
    """How many symmetries of the board the classes are taken under."""
    return len(puzzle_symmetries(puzzle, modulo))


# ---------------------------------------------------------------- edge matching

Placed = tuple[int, int]


def edge_solutions(puzzle: em.EdgePuzzle, limit: int | None = None, backend: str | None = None
                   ) -> list[list[Placed]]:
    """Distinct grids (identical tiles interchangeable), up to `limit` (by default listed by
    the reference solver)."""
    return [list(solution.grid) for solution in api.solutions(puzzle, backend, limit=limit)]


def edge_classes(puzzle: em.EdgePuzzle, grids: list[list[Placed]]) -> list[Member]:
    """The grids grouped into classes up to turning the whole board."""
    turns = em.board_turns(puzzle)

    def key(grid: list[Placed]) -> Hashable:
        shown = em.looks(puzzle, grid)
        return min(em.turned_looks(puzzle, shown, t) for t in turns)

    return group_by_class(grids, key)


# ---------------------------------------------------------------- Mind Lock


@dataclass(frozen=True)
class Walk:
    """An optimal solution: the positions from the start to solved and the moves between."""

    positions: tuple[ml.Position, ...]
    moves: tuple[str, ...]


def mind_lock_table(puzzle: ml.MindLockPuzzle):
    """The God's-algorithm table (distance mod 3 of every position, by rank), cached."""
    from ..families.mind_lock import FAMILY

    return FAMILY.table(puzzle)


def optimal_walk(puzzle: ml.MindLockPuzzle, start: ml.Position) -> Walk:
    """An optimal solution from `start`, as the API plans it (the table's walk by default)."""
    solution = next(api.solutions(puzzle, start=start))
    return Walk(tuple(solution.grid), tuple(solution.moves))


def hardest(puzzle: ml.MindLockPuzzle) -> tuple[int, list[ml.Position]]:
    """The greatest distance from solved and the positions at that distance (by rank)."""
    table = mind_lock_table(puzzle)
    return table.build.gods_number, table.hardest()
