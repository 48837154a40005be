"""How to count a packing puzzle exactly: cubes, and symmetry reduction by placement orbits.

With symmetry reduction one piece is restricted to one placement per orbit under the board's
symmetry group, each cube weighted by its orbit's size; classes then follow from Burnside's lemma
with the solutions every other symmetry leaves unchanged (models/symmetry.py).

Three conventions (the --modulo words of MODULI):
- none: every solution (copies of a piece are alike: a covering counts once);
- rotation: classes under the board's rotations, each piece keeping its name;
- symmetry: classes under the board's whole group, where a reflection gives each piece the place
  of its mirror twin (a one-sided pentomino's or a chiral solid's mirror image is another piece of
  the set; where pieces may be turned over each piece is its own twin). Reflections count only
  where the set holds every piece's mirror image (always on the square lattice when pieces may be
  turned over, in space for sets like the Soma cube's, for one-sided sets closed under mirror
  images); otherwise 'symmetry' is 'rotation'. This is the convention of the published counts
  (one-sided pentominoes, the Soma cube); 'mirror' and 'published' are its aliases.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..geometry import Cell, Transform
from ..symmetry import IDENTITY, Group, burnside, orbit_representatives
from . import PackingPuzzle, Placement, placements

Cube = tuple[int, ...]  # signed 1-based placement indices: +k uses placement k-1, -k forbids it
MODULI = ("none", "symmetry", "rotation")
MODULO_ALIASES = {"mirror": "symmetry", "published": "symmetry", "mirror-twins": "symmetry"}


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of a puzzle: a map of the board's cells and the piece each piece becomes."""

    name: str
    move: Transform
    twin: tuple[int, ...]  # piece i becomes piece twin[i] (itself, unless the move mirrors)

    def placed(self, piece: int, cells) -> tuple[int, frozenset[Cell]]:
        return self.twin[piece], frozenset(self.move(c) for c in cells)


def mirror_twins(puzzle: PackingPuzzle) -> tuple[int, ...] | None:
    """Each piece's mirror twin (a piece whose shape is its mirror image, up to the turns it may
    take), paired one to one; None when the set lacks some piece's mirror image."""
    lattice = puzzle.lattice
    if puzzle.flip:
        return tuple(range(len(puzzle.pieces)))  # turned over, a piece is its own mirror image

    def canonical(cells) -> tuple:
        return min(lattice.orientations(cells, False))

    by_shape: dict[tuple, list[int]] = {}
    for i, piece in enumerate(puzzle.pieces):
        by_shape.setdefault(canonical(piece.cells), []).append(i)
    twin = [0] * len(puzzle.pieces)
    for shape, same in by_shape.items():
        mirrored = by_shape.get(canonical(lattice.mirror(shape)), [])
        if len(mirrored) != len(same):
            return None
        for i, j in zip(same, mirrored):
            twin[i] = j
    if any(puzzle.pieces[i].count != puzzle.pieces[j].count for i, j in enumerate(twin)):
        return None  # a piece and its twin must come with as many copies
    return tuple(twin)


def puzzle_symmetries(puzzle: PackingPuzzle, modulo: str = "symmetry") -> list[Symmetry]:
    """The symmetries a count modulo 'symmetry' or 'rotation' uses, the identity first; those
    that move a pre-placed piece of a challenge are left out."""
    modulo = MODULO_ALIASES.get(modulo, modulo)
    twins = mirror_twins(puzzle) if modulo == "symmetry" else None
    same = tuple(range(len(puzzle.pieces)))
    held = {(p.piece, frozenset(p.cells)) for p in puzzle.placed}
    found = []
    for name, move in puzzle.lattice.board_symmetries(puzzle.board_cells, twins is not None):
        mirrors = puzzle.lattice.is_reflection(name) and not puzzle.flip
        symmetry = Symmetry(name, move, twins if mirrors and twins else same)
        if {symmetry.placed(p.piece, p.cells) for p in puzzle.placed} == held:
            found.append(symmetry)
    return found


@dataclass
class CountTask:
    """One exact cover to count, split into cubes; each cube's count is multiplied by its weight."""

    label: str
    options: list  # placements, or bundles of placements chosen together (Bundle)
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
    piece: int, options: list[Placement], group: list[Symmetry]
) -> list[tuple[int, int]]:
    """One representative placement (index into options) per orbit of a piece, and its size,
    under the symmetries that keep the piece itself (a subgroup: its orbits weigh exactly)."""
    keeping = [s for s in group if s.twin[piece] == piece]
    of_piece = {frozenset(p.cells): k for k, p in enumerate(options) if p.piece == piece}
    orbits = orbit_representatives(
        of_piece, lambda cells: {s.placed(piece, cells)[1] for s in keeping}
    )
    return [(of_piece[cells], size) for cells, size in orbits]


@dataclass(frozen=True)
class Bundle:
    """Placements a symmetry maps onto one another: a solution it leaves unchanged holds all of
    them or none, so they are one option of its exact cover. A piece with copies may be in a
    bundle more than once (its column is then covered once per copy)."""

    pieces: tuple[int, ...]
    cells: tuple[Cell, ...]
    orientation: int = -1


def fixed_options(options: list[Placement], symmetry: Symmetry,
                  counts: tuple[int, ...] | None = None) -> list[Placement | Bundle]:
    """The options of the exact cover whose solutions are those `symmetry` leaves unchanged:
    each placement with its images under the symmetry's powers, where they fit together (no
    piece more often than it has copies, `counts`; once each when None)."""
    known = {(p.piece, frozenset(p.cells)) for p in options}
    found: list[Placement | Bundle] = []
    seen: set = set()
    for p in options:
        start = (p.piece, frozenset(p.cells))
        if start in seen:
            continue
        cycle = [start]
        while True:
            image = symmetry.placed(*cycle[-1])
            if image == start or image not in known:
                break
            cycle.append(image)
        seen.update(cycle)
        if image != start:
            continue
        if len(cycle) == 1:
            found.append(p)
            continue
        pieces = [piece for piece, _ in cycle]
        cells = [c for _, covered in cycle for c in covered]
        uses = Counter(pieces)
        if all(n <= (counts[i] if counts else 1) for i, n in uses.items()) and len(
                set(cells)) == len(cells):
            found.append(Bundle(tuple(sorted(pieces)), tuple(sorted(cells))))
    return found


def count_plan(puzzle: PackingPuzzle, modulo: str, min_cubes: int = 1) -> CountPlan:
    """Tasks whose counts give the exact number of solutions (and, for 'symmetry' and
    'rotation', of classes).

    'none' counts every solution; otherwise one representative placement per orbit of the
    piece (of one copy) that gains most is counted, multiplied by the orbit size (exact: the
    symmetries keeping that piece permute solutions), and the fixed points of every other
    symmetry are added (Burnside) for the number of classes.
    """
    options = placements(puzzle)
    group = puzzle_symmetries(puzzle, modulo) if modulo != "none" else []
    if len(group) <= 1:
        # the identity alone: every class is one solution
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        task = CountTask("all solutions", options, cubes, [1] * len(cubes))
        return CountPlan(modulo, IDENTITY if modulo == "none" else symmetry_group(puzzle, modulo),
                         [task])
    # Each orbit becomes a cube, so the piece with the fewest orbits leaves the least work
    # (measured on IQ Block 10: CPU time grows with the orbits, 12 orbits 3x faster than 35);
    # among those, the one whose orbits are largest reduces most.
    # only a piece of one copy can be held to one placement per orbit
    single = [i for i, piece in enumerate(puzzle.pieces) if piece.count == 1]
    orbits_of = {i: placement_orbits(i, options, group) for i in single}
    if orbits_of:
        best = min(orbits_of, key=lambda i: (len(orbits_of[i]),
                                             -sum(size for _, size in orbits_of[i])))
        orbits = orbits_of[best]
        cubes, weights = [], []
        for k, size in orbits:
            for cube in split_cubes(puzzle, options, [(k + 1,)],
                                    max(1, min_cubes // len(orbits))):
                cubes.append(cube)
                weights.append(size)
        tasks = [CountTask("one placement per orbit", options, cubes, weights)]
        reduced = puzzle.pieces[best].name
    else:  # every piece has copies: every solution is counted, classes by Burnside
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        tasks = [CountTask("all solutions", options, cubes, [1] * len(cubes))]
        reduced = None
    counts = tuple(p.count for p in puzzle.pieces)
    for symmetry in group[1:]:
        fixed = fixed_options(options, symmetry, counts)
        tasks.append(CountTask(f"fixed by {symmetry.name}", fixed, [()], [1]))
    return CountPlan(modulo, symmetry_group(puzzle, modulo), tasks, reduced_by=reduced)


def symmetry_group(puzzle: PackingPuzzle, modulo: str = "symmetry") -> Group:
    """The board's symmetries that the rules keep: mirror images only where the set holds every
    piece's mirror image (modulo 'symmetry'), rotations alone for modulo 'rotation'."""
    return Group(tuple(s.name for s in puzzle_symmetries(puzzle, modulo)))


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
