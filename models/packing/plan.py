"""How to count a packing puzzle exactly: cubes, and symmetry reduction by placement orbits.

With symmetry reduction one piece is restricted to one placement per orbit under the board's
symmetry group, each cube weighted by its orbit's size; classes then follow from Burnside's lemma
with the solutions every other symmetry leaves unchanged (models/symmetry.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..geometry import Cell, Transform, board_symmetries
from ..symmetry import IDENTITY, Group, burnside, orbit_representatives
from . import PackingPuzzle, Placement, placements

Cube = tuple[int, ...]  # signed 1-based placement indices: +k uses placement k-1, -k forbids it


def moved(placement: Placement, transform: Transform) -> frozenset[Cell]:
    return frozenset(transform(c) for c in placement.cells)


@dataclass
class CountTask:
    """One exact cover to count, split into cubes; each cube's count is multiplied by its weight."""

    label: str
    options: list[Placement]
    cubes: list[Cube]
    weights: list[int]


@dataclass
class CountPlan:
    """How to count a packing puzzle, and how to combine the tasks' counts.

    total solutions = sum of weighted counts of task 0;
    classes under the group = (total + sum of the other tasks' counts) / |group|  (Burnside:
    the other tasks count the solutions each non-identity symmetry maps onto themselves).
    """

    modulo: str
    group: Group
    tasks: list[CountTask]
    reduced_by: str | None = None  # the piece whose placements were cut to one per orbit

    def combine(self, counts: list[list[int]]) -> tuple[int, int | None]:
        """(total solutions, classes under the group) from per-cube counts of every task;
        classes are None when counting without symmetry."""
        weighted = [sum(w * n for w, n in zip(t.weights, c)) for t, c in zip(self.tasks, counts)]
        if self.modulo == "none":
            return weighted[0], None
        return weighted[0], burnside(weighted)


def placement_orbits(
    piece: int, options: list[Placement], group: list[Transform]
) -> list[tuple[int, int]]:
    """One representative placement (index into options) per orbit of a piece, and its size."""
    of_piece = {frozenset(p.cells): k for k, p in enumerate(options) if p.piece == piece}
    orbits = orbit_representatives(
        of_piece, lambda cells: {frozenset(t(c) for c in cells) for t in group}
    )
    return [(of_piece[cells], size) for cells, size in orbits]


def count_plan(puzzle: PackingPuzzle, modulo: str, min_cubes: int = 1) -> CountPlan:
    """Tasks whose counts give the exact number of solutions (and, for 'symmetry', of classes).

    'none' counts every solution; 'symmetry' counts one representative placement per orbit of the
    piece that gains most, multiplies by the orbit size (exact: the group permutes solutions), and
    adds the fixed points of every other symmetry (Burnside) for the number of classes.
    """
    options = placements(puzzle)
    named = board_symmetries(puzzle.cells, puzzle.flip)
    if modulo == "none" or len(named) == 1:
        # the identity alone: every class is one solution
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        task = CountTask("all solutions", options, cubes, [1] * len(cubes))
        return CountPlan(modulo, symmetry_group(puzzle) if modulo != "none" else IDENTITY, [task])
    group = [t for _, t in named]
    # Each orbit becomes a cube, so the piece with the fewest orbits leaves the least work
    # (measured on IQ Block 10: CPU time grows with the orbits, 12 orbits 3x faster than 35);
    # among those, the one whose orbits are largest reduces most.
    orbits_of = [placement_orbits(i, options, group) for i in range(len(puzzle.pieces))]
    best = min(
        range(len(puzzle.pieces)),
        key=lambda i: (len(orbits_of[i]), -sum(size for _, size in orbits_of[i])),
    )
    orbits = orbits_of[best]
    cubes, weights = [], []
    for k, size in orbits:
        for cube in split_cubes(puzzle, options, [(k + 1,)], max(1, min_cubes // len(orbits))):
            cubes.append(cube)
            weights.append(size)
    tasks = [CountTask("one placement per orbit", options, cubes, weights)]
    for name, transform in named[1:]:
        fixed = [p for p in options if moved(p, transform) == frozenset(p.cells)]
        tasks.append(CountTask(f"fixed by {name}", fixed, [()], [1]))
    return CountPlan(modulo, symmetry_group(puzzle), tasks, reduced_by=puzzle.pieces[best].name)


def symmetry_group(puzzle: PackingPuzzle) -> Group:
    """The board's symmetries that the rules keep (mirror images only where pieces flip)."""
    return Group(tuple(name for name, _ in board_symmetries(puzzle.cells, puzzle.flip)))


def split_cubes(
    puzzle: PackingPuzzle, options: list[Placement], cubes: list[Cube], at_least: int
) -> list[Cube]:
    """Split cubes by the placement covering the first empty cell until there are at least N.

    Every solution of a cube extends exactly one of its sub-cubes, so counts add up exactly.
    Cubes that cannot be extended are dropped (they have no solutions).
    """
    order = {cell: i for i, cell in enumerate(puzzle.cells)}
    masks = [sum(1 << order[c] for c in p.cells) for p in options]
    covering: dict[int, list[int]] = {}
    for k, p in enumerate(options):
        first = min(order[c] for c in p.cells)
        covering.setdefault(first, []).append(k)
    full = (1 << len(order)) - 1
    while len(cubes) < at_least:
        finer: list[Cube] = []
        grew = False
        for cube in cubes:
            used = [k - 1 for k in cube if k > 0]
            filled = 0
            for k in used:
                filled |= masks[k]
            if filled == full:
                finer.append(cube)
                continue
            pieces = {options[k].piece for k in used}
            first = (~filled & (filled + 1)).bit_length() - 1
            for k in covering.get(first, []):
                if not masks[k] & filled and options[k].piece not in pieces:
                    finer.append((*cube, k + 1))
            grew = True
        cubes = finer
        if not grew:
            break
    return cubes
