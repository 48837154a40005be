"""How to count a packing puzzle exactly: cubes, and symmetry reduction by placement orbits.

With symmetry reduction one piece is restricted to one placement per orbit under the board's
symmetry group, each cube weighted by its orbit's size; classes then follow from Burnside's lemma
with the solutions every other symmetry leaves unchanged (models/symmetry.py).

Three conventions (the --modulo words of MODULI):
- none: every solution;
- symmetry: classes under the board's symmetries the rules keep (rotations only where pieces may
  not be turned over);
- mirror: for one-sided sets closed under mirror images (flip = false), classes under the
  board's whole group, a reflection turning each piece into its mirror twin: the convention of
  the published counts of one-sided pentominoes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import InputError
from ..geometry import (
    Cell,
    Transform,
    board_symmetries,
    is_reflection,
    normalise,
    orientations,
    reflect,
)
from ..symmetry import IDENTITY, Group, burnside, orbit_representatives
from . import Option, PackingPuzzle, Placement, placements

MODULI = ("none", "symmetry", "mirror")
MODULO_ALIASES = {"mirror-twins": "mirror", "published": "mirror"}

Cube = tuple[int, ...]  # signed 1-based placement indices: +k uses placement k-1, -k forbids it


def moved(placement: Placement, transform: Transform) -> frozenset[Cell]:
    return frozenset(transform(c) for c in placement.cells)


@dataclass
class CountTask:
    """One exact cover to count, split into cubes; each cube's count is multiplied by its weight."""

    label: str
    options: list[Option]  # placements, or groups of placements chosen together
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


def mirror_twins(puzzle: PackingPuzzle) -> list[int] | None:
    """Each piece's mirror twin (itself where its mirror image is one of its turns), or None
    where the set is not closed under mirror images."""
    turns = [set(orientations(p.cells, False)) for p in puzzle.pieces]
    twins = []
    for piece in puzzle.pieces:
        image = normalise(reflect(piece.cells))
        found = [j for j, shapes in enumerate(turns) if image in shapes]
        if len(found) != 1:
            return None
        twins.append(found[0])
    pairs = all(twins[t] == i and puzzle.pieces[t].count == puzzle.pieces[i].count
                for i, t in enumerate(twins))
    return twins if pairs else None


def check_mirror(puzzle: PackingPuzzle) -> list[int]:
    """The mirror twins for --modulo mirror, or a refusal saying why it does not apply."""
    if puzzle.flip:
        raise InputError("mirror classes are for one-sided sets (flip = false); with flip = true "
                         "--modulo symmetry already merges mirror images", field="modulo")
    twins = mirror_twins(puzzle)
    if twins is None:
        raise InputError("mirror classes need a set closed under mirror images (each piece's "
                         "mirror image one other piece, or itself)", field="modulo")
    return twins


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of the puzzle: a map of the board, and where pieces go (None: each stays)."""

    name: str
    transform: Transform
    relabel: tuple[int, ...] | None = None


def symmetries(puzzle: PackingPuzzle, modulo: str) -> list[Symmetry]:
    """The group a count is taken under (identity first; the identity alone for 'none')."""
    if modulo == "none":
        return [Symmetry("identity", lambda p: p)]
    if modulo == "mirror":
        twins = tuple(check_mirror(puzzle))
        return [Symmetry(name, t, twins if is_reflection(name) else None)
                for name, t in board_symmetries(puzzle.cells, True)]
    return [Symmetry(name, t) for name, t in board_symmetries(puzzle.cells, puzzle.flip)]


def fixed_options(options: list[Placement], symmetry: Symmetry, counts: list[int]) -> list[Option]:
    """The options of the solutions a symmetry maps onto themselves: each placement joined with
    its images (an orbit under the symmetry's powers), kept where those are disjoint and use no
    piece more often than it has copies (`counts`)."""
    index = {(p.piece, frozenset(p.cells)): p for p in options}
    seen: set = set()
    found: list[Option] = []
    for p in options:
        key = (p.piece, frozenset(p.cells))
        if key in seen:
            continue
        orbit = [key]
        while True:
            piece, cells = orbit[-1]
            image = (piece if symmetry.relabel is None else symmetry.relabel[piece],
                     frozenset(symmetry.transform(c) for c in cells))
            if image == key:
                break
            orbit.append(image)
        seen.update(orbit)
        pieces = [piece for piece, _ in orbit]
        cells = [c for _, cs in orbit for c in cs]
        if any(pieces.count(i) > counts[i] for i in set(pieces)) or len(set(cells)) < len(cells):
            continue  # a piece too often, or a cell covered twice: in no fixed solution
        members = [index.get(k) for k in orbit]
        if any(m is None for m in members):
            continue
        found.append(members[0] if len(members) == 1 else tuple(members))
    return found


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
    """Tasks whose counts give the exact number of solutions (and, for 'symmetry' and 'mirror',
    of classes).

    'none' counts every solution; otherwise one representative placement per orbit of the
    piece that gains most is counted, multiplied by the orbit size (exact: the group permutes
    solutions), and the fixed points of every other symmetry are added (Burnside) for the
    number of classes. Under 'mirror' only a piece that is its own twin can be reduced.
    """
    options = placements(puzzle)
    elements = symmetries(puzzle, modulo)
    group_of = Group(tuple(s.name for s in elements))
    if modulo == "none" or len(elements) == 1:
        # the identity alone: every class is one solution
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        task = CountTask("all solutions", options, cubes, [1] * len(cubes))
        return CountPlan(modulo, group_of if modulo != "none" else IDENTITY, [task])
    group = [s.transform for s in elements]
    # Each orbit becomes a cube, so the piece with the fewest orbits leaves the least work
    # (measured on IQ Block 10: CPU time grows with the orbits, 12 orbits 3x faster than 35);
    # among those, the one whose orbits are largest reduces most.
    # the piece must be one of a kind, and keep its name under every symmetry
    fixed_by_all = [i for i, piece in enumerate(puzzle.pieces) if piece.count == 1
                    and all(s.relabel is None or s.relabel[i] == i for s in elements)]
    orbits_of = {i: placement_orbits(i, options, group) for i in fixed_by_all}
    if orbits_of:
        best = min(orbits_of, key=lambda i: (len(orbits_of[i]), -sum(n for _, n in orbits_of[i])))
        cubes, weights = [], []
        orbits = orbits_of[best]
        for k, size in orbits:
            for cube in split_cubes(puzzle, options, [(k + 1,)], max(1, min_cubes // len(orbits))):
                cubes.append(cube)
                weights.append(size)
        tasks = [CountTask("one placement per orbit", options, cubes, weights)]
        reduced = puzzle.pieces[best].name
    else:  # no piece is one of a kind that keeps its name: count every solution
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        tasks = [CountTask("all solutions", options, cubes, [1] * len(cubes))]
        reduced = None
    for symmetry in elements[1:]:
        fixed = fixed_options(options, symmetry, [p.count for p in puzzle.pieces])
        tasks.append(CountTask(f"fixed by {symmetry.name}", fixed, [()], [1]))
    return CountPlan(modulo, group_of, tasks, reduced_by=reduced)


def symmetry_group(puzzle: PackingPuzzle, modulo: str = "symmetry") -> Group:
    """The board's symmetries that the rules keep (mirror images only where pieces flip, or,
    for 'mirror', with each piece turned into its twin)."""
    return Group(tuple(s.name for s in symmetries(puzzle, modulo)))


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
            pieces = Counter(options[k].piece for k in used)
            first = (~filled & (filled + 1)).bit_length() - 1
            for k in covering.get(first, []):
                piece = options[k].piece
                if not masks[k] & filled and pieces[piece] < puzzle.pieces[piece].count:
                    finer.append((*cube, k + 1))
            grew = True
        cubes = finer
        if not grew:
            break
    return cubes
