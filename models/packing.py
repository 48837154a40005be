"""Packing puzzles: pieces that cover every cell of a board exactly once.

The puzzle is plain data; the exact cover built from it (one option per placement of a piece)
is what the encoders turn into solver models.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import (
    Cell,
    Shape,
    Transform,
    board_symmetries,
    fill_order,
    orientations,
    picture_cells,
)


@dataclass(frozen=True)
class Piece:
    """A named piece, drawn as a picture of 'X' and '.'."""

    name: str
    picture: tuple[str, ...]

    @property
    def cells(self) -> list[Cell]:
        return picture_cells(self.picture)


@dataclass(frozen=True)
class PackingPuzzle:
    """A board (cells that must be covered) and the pieces that cover it, each used once."""

    name: str
    board: tuple[str, ...]
    pieces: tuple[Piece, ...]
    flip: bool = True
    title: str = ""
    source: str = ""
    published: dict[str, object] = field(default_factory=dict, compare=False)
    kind: str = "packing"

    @property
    def cells(self) -> list[Cell]:
        """The board's cells in the order a search fills them (see geometry.fill_order)."""
        return fill_order(picture_cells(self.board))


@dataclass(frozen=True)
class Placement:
    """One piece in one orientation at one position."""

    piece: int
    orientation: int
    cells: tuple[Cell, ...]


def piece_orientations(puzzle: PackingPuzzle) -> list[list[Shape]]:
    """The distinct orientations of every piece."""
    return [orientations(piece.cells, puzzle.flip) for piece in puzzle.pieces]


def placements(puzzle: PackingPuzzle) -> list[Placement]:
    """Every placement of every piece that lies wholly on the board."""
    board = set(puzzle.cells)
    found = []
    for index, shapes in enumerate(piece_orientations(puzzle)):
        for o, shape in enumerate(shapes):
            fr, fc = shape[0]
            for r0, c0 in sorted(board):
                # the shape's first cell on each board cell: every position is tried once
                cells = tuple((r0 + r - fr, c0 + c - fc) for r, c in shape)
                if all(cell in board for cell in cells):
                    found.append(Placement(index, o, cells))
    return found


@dataclass
class ExactCover:
    """Rows (placements) covering columns; a solution picks rows covering every column once.

    Columns are the pieces (each used once) followed by the board's cells (each covered once).
    """

    columns: list[str]
    rows: list[tuple[int, ...]]
    labels: list[str]


def exact_cover(puzzle: PackingPuzzle, options: list[Placement]) -> ExactCover:
    """The exact-cover matrix of a puzzle, restricted to the given placements."""
    cells = puzzle.cells
    cell_column = {cell: len(puzzle.pieces) + i for i, cell in enumerate(cells)}
    columns = [p.name for p in puzzle.pieces] + [f"r{r}c{c}" for r, c in cells]
    rows = [(p.piece, *sorted(cell_column[c] for c in p.cells)) for p in options]
    labels = [placement_label(puzzle, p) for p in options]
    return ExactCover(columns, rows, labels)


def placement_label(puzzle: PackingPuzzle, placement: Placement) -> str:
    """Piece, orientation and cells, as written in exported files."""
    cells = " ".join(f"r{r}c{c}" for r, c in placement.cells)
    name = puzzle.pieces[placement.piece].name
    return f"piece {name} orientation {placement.orientation} cells {cells}"


# ---------------------------------------------------------------- symmetry and cubes

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

    group: list[str]
    tasks: list[CountTask]
    reduced_by: str | None = None  # the piece whose placements were cut to one per orbit

    def combine(self, counts: list[list[int]]) -> tuple[int, int | None]:
        """(total solutions, classes under the group) from per-cube counts of every task."""
        weighted = [sum(w * n for w, n in zip(t.weights, c)) for t, c in zip(self.tasks, counts)]
        total = weighted[0]
        if len(self.tasks) == 1:
            return total, None
        burnside = total + sum(weighted[1:])
        if burnside % len(self.group):
            raise ArithmeticError(f"Burnside sum {burnside} is not divisible by {len(self.group)}")
        return total, burnside // len(self.group)


def placement_orbits(
    puzzle: PackingPuzzle, piece: int, options: list[Placement], group: list[Transform]
) -> list[tuple[int, int]]:
    """One representative placement (index into options) per orbit of a piece, and its size."""
    of_piece = {frozenset(p.cells): k for k, p in enumerate(options) if p.piece == piece}
    seen: set[frozenset[Cell]] = set()
    orbits = []
    for cells, k in of_piece.items():
        if cells in seen:
            continue
        orbit = {frozenset(t(c) for c in cells) for t in group}
        seen |= orbit
        orbits.append((k, len(orbit)))
    return orbits


def count_plan(puzzle: PackingPuzzle, modulo: str, min_cubes: int = 1) -> CountPlan:
    """Tasks whose counts give the exact number of solutions (and, for 'symmetry', of classes).

    'none' counts every solution; 'symmetry' counts one representative placement per orbit of the
    piece that gains most, multiplies by the orbit size (exact: the group permutes solutions), and
    adds the fixed points of every other symmetry (Burnside) for the number of classes.
    """
    options = placements(puzzle)
    named = board_symmetries(puzzle.cells, puzzle.flip)
    names = [n for n, _ in named]
    if modulo == "none" or len(named) == 1:
        cubes = split_cubes(puzzle, options, [()], min_cubes)
        task = CountTask("all solutions", options, cubes, [1] * len(cubes))
        return CountPlan(names if modulo != "none" else ["identity"], [task])
    group = [t for _, t in named]
    # Each orbit becomes a cube, so the piece with the fewest orbits leaves the least work
    # (measured on IQ Block 10: CPU time grows with the orbits, 12 orbits 3x faster than 35);
    # among those, the one whose orbits are largest reduces most.
    orbits_of = [placement_orbits(puzzle, i, options, group) for i in range(len(puzzle.pieces))]
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
    return CountPlan(names, tasks, reduced_by=puzzle.pieces[best].name)


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
