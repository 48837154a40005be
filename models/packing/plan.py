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
from dataclasses import dataclass, field

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
    # each cell's image, kept as first met: a plan maps thousands of placements' cells through
    # the same few dozen (the count plan's Python time, results/dlx-bench.md)
    images: dict = field(default_factory=dict, compare=False, repr=False)

    def placed(self, piece: int, cells) -> tuple[int, frozenset[Cell]]:
        images = self.images
        try:
            return self.twin[piece], frozenset([images[c] for c in cells])
        except KeyError:
            images.update((c, self.move(c)) for c in cells if c not in images)
            return self.twin[piece], frozenset([images[c] for c in cells])


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
    if any((puzzle.pieces[i].count, puzzle.pieces[i].fewest)
           != (puzzle.pieces[j].count, puzzle.pieces[j].fewest) for i, j in enumerate(twin)):
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
                  counts: tuple[int, ...] | None = None,
                  keys: list[tuple[int, frozenset[Cell]]] | None = None
                  ) -> list[Placement | Bundle]:
    """The options of the exact cover whose solutions are those `symmetry` leaves unchanged:
    each placement with its images under the symmetry's powers, where they fit together (no
    piece more often than it has copies, `counts`; once each when None). `keys`: each option's
    (piece, cells), where the caller has them already (one list for every symmetry)."""
    if keys is None:
        keys = placement_keys(options)
    where = {key: k for k, key in enumerate(keys)}
    image = [where.get(symmetry.placed(*key), -1) for key in keys]
    found: list[Placement | Bundle] = []
    seen = [False] * len(options)
    for start, p in enumerate(options):
        if seen[start]:
            continue
        cycle = [start]
        step = image[start]
        while step != start and step >= 0:
            cycle.append(step)
            step = image[step]
        for k in cycle:
            seen[k] = True
        if step != start:  # an image off the options: no fixed solution holds this placement
            continue
        if len(cycle) == 1:
            found.append(p)
            continue
        pieces = [keys[k][0] for k in cycle]
        cells = [c for k in cycle for c in keys[k][1]]
        uses = Counter(pieces)
        if all(n <= (counts[i] if counts else 1) for i, n in uses.items()) and len(
                set(cells)) == len(cells):
            found.append(Bundle(tuple(sorted(pieces)), tuple(sorted(cells))))
    return found


def placement_keys(options: list[Placement]) -> list[tuple[int, frozenset[Cell]]]:
    """Each placement as (piece, cells), the form a symmetry maps."""
    return [(p.piece, frozenset(p.cells)) for p in options]


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
    single = [i for i, piece in enumerate(puzzle.pieces) if piece.count == piece.fewest == 1]
    orbits_of = {i: placement_orbits(i, options, group) for i in single}
    if orbits_of:
        best = min(orbits_of, key=lambda i: (len(orbits_of[i]),
                                             -sum(size for _, size in orbits_of[i])))
        orbits = orbits_of[best]
        cubes, weights = [], []
        index = cover_index(puzzle, options)
        for k, size in orbits:
            for cube in split_cubes(puzzle, options, [(k + 1,)],
                                    max(1, min_cubes // len(orbits)), index):
                cubes.append(cube)
                weights.append(size)
        tasks = [CountTask("one placement per orbit", options, cubes, weights)]
        reduced = puzzle.pieces[best].name
    else:  # every piece has copies: every solution is counted, classes by Burnside
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        tasks = [CountTask("all solutions", options, cubes, [1] * len(cubes))]
        reduced = None
    counts = tuple(p.count for p in puzzle.pieces)
    keys = placement_keys(options)
    for symmetry in group[1:]:
        fixed = fixed_options(options, symmetry, counts, keys)
        tasks.append(CountTask(f"fixed by {symmetry.name}", fixed, [()], [1]))
    return CountPlan(modulo, symmetry_group(puzzle, modulo), tasks, reduced_by=reduced)


def symmetry_group(puzzle: PackingPuzzle, modulo: str = "symmetry") -> Group:
    """The board's symmetries that the rules keep: mirror images only where the set holds every
    piece's mirror image (modulo 'symmetry'), rotations alone for modulo 'rotation'."""
    return Group(tuple(s.name for s in puzzle_symmetries(puzzle, modulo)))


@dataclass(frozen=True)
class CoverIndex:
    """The placements as bit masks of the board's cells (in fill order), and the placements
    whose first cell is each cell: what splitting cubes reads."""

    masks: list[int]
    covering: dict[int, list[int]]
    full: int


def cover_index(puzzle: PackingPuzzle, options: list[Placement]) -> CoverIndex:
    order = {cell: i for i, cell in enumerate(puzzle.cells)}
    masks = []
    covering: dict[int, list[int]] = {}
    for k, p in enumerate(options):
        at = [order[c] for c in p.cells]
        masks.append(sum(1 << i for i in at))
        covering.setdefault(min(at), []).append(k)
    return CoverIndex(masks, covering, (1 << len(order)) - 1)


def split_cubes(
    puzzle: PackingPuzzle, options: list[Placement], cubes: list[Cube], at_least: int,
    index: CoverIndex | None = None,
) -> list[Cube]:
    """Split cubes by the placement covering the first empty cell until there are at least N
    (`index`: the options' cover_index, where the caller splits several times).

    Every solution of a cube extends exactly one of its sub-cubes, so counts add up exactly.
    Cubes that cannot be extended are dropped (they have no solutions).
    """
    index = index or cover_index(puzzle, options)
    masks, covering, full = index.masks, index.covering, index.full
    copies = [piece.count for piece in puzzle.pieces]
    # each cube as a list with what it fills and the pieces it places, kept from one split to
    # the next, and extended in place where it has one way on: a board of forced cells (unit
    # squares on a large board) costs a pass a cell, not the whole cube again a pass
    states = []
    for cube in cubes:
        filled = 0
        for k in cube:
            if k > 0:
                filled |= masks[k - 1]
        states.append((list(cube), filled, Counter(options[k - 1].piece for k in cube if k > 0)))
    while len(states) < at_least:
        finer = []
        grew = False
        for cube, filled, pieces in states:
            if filled == full:
                finer.append((cube, filled, pieces))
                continue
            first = (~filled & (filled + 1)).bit_length() - 1
            ways = [k for k in covering.get(first, []) if not masks[k] & filled
                    and pieces[options[k].piece] < copies[options[k].piece]]
            for n, k in enumerate(ways):
                piece = options[k].piece
                if n == len(ways) - 1:  # the last way on takes the cube itself
                    cube.append(k + 1)
                    pieces[piece] += 1
                    finer.append((cube, filled | masks[k], pieces))
                else:
                    finer.append(([*cube, k + 1], filled | masks[k], pieces + Counter([piece])))
            grew = True
        states = finer
        if not grew:
            break
    return [tuple(cube) for cube, _, _ in states]
