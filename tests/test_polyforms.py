"""Polyiamonds and polyhexes: the triangular and hexagonal lattices work as squares do.

- The polyform sets generated from their definition have the published sizes, on every lattice.
- A piece's orientations are its orbit under the lattice's group, checked against a construction
  written here (triangles as their three corners, hexagons as their centres, turned as complex
  numbers), sharing no code with models/geometry.py.
- Neighbours (the dead-region pruning's) are the cells sharing a side, found here by corners.
- Placements move pieces by lattice vectors only: every placement is an orientation of its piece.
- Random small boards (parallelograms, hexagons, triangles, random blobs, with holes) and random
  pieces cut from them: counted alike with and without symmetry reduction, classes by Burnside's
  lemma equal to the reference's canonical forms, every backend agreeing.
- The catalog's small boards have the counts Polyform Puzzler publishes (compared after counting).
- Bad pictures and cells are one line and exit code 2.
"""

from __future__ import annotations

import cmath
import math
import random

import pytest
from _counting import count_packing, partition, reference_classes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat.backends import reference_packing
from puzzlesat.models.geometry import HEXAGONAL, LATTICES, SQUARE, TRIANGULAR, polyforms
from puzzlesat.models.packing import CellPiece, CellPuzzle, placements

PLANE = (TRIANGULAR, HEXAGONAL)
BOUNDED = settings(deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- the sets


# free and one-sided polyforms of orders 1, 2, ... (OEIS A000105/A000988, A000577/A006534,
# A000228/A006535, A000162 (rotations alone)/A038119)
PUBLISHED = {
    "square": ([1, 1, 2, 5, 12, 35], [1, 1, 2, 7, 18, 60]),
    "triangular": ([1, 1, 1, 3, 4, 12, 24], [1, 1, 1, 4, 6, 19, 43]),
    "hexagonal": ([1, 1, 3, 7, 22], [1, 1, 3, 10, 33]),
    "cubic": ([1, 1, 2, 7, 23], [1, 1, 2, 8, 29]),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_polyform_sets_have_their_published_sizes(name):
    free, one_sided = PUBLISHED[name]
    grid = LATTICES[name]
    assert [len(polyforms(grid, n, True)) for n in range(1, len(free) + 1)] == free
    assert [len(polyforms(grid, n, False)) for n in range(1, len(one_sided) + 1)] == one_sided
    for n in range(1, len(free) + 1):
        for shape in polyforms(grid, n, True):
            assert len(shape) == n and grid.connected(shape)


def test_a_generated_set_is_its_lattice_and_flip():
    hexiamonds = puzzlesat.load("hexiamonds-4x9")
    assert len(hexiamonds.pieces) == 12 and hexiamonds.pieces[0].name == "6a"
    obeirne = puzzlesat.load("one-sided-hexiamonds-obeirne")
    assert len(obeirne.pieces) == 19 and not obeirne.flip
    assert sum(p.name.endswith("'") for p in obeirne.pieces) == 7  # the chiral ones' twins
    assert len(puzzlesat.load("pentahexes-10x11").pieces) == 22
    assert len(puzzlesat.load("heptiamonds-4x21").pieces) == 24
    assert [len(puzzlesat.load("polyhexes-1234-5x8").pieces)] == [12]


# ---------------------------------------------------------------- geometry, checked apart

H = math.sqrt(3) / 2


def corners(cell) -> frozenset:
    """A triangle's three corners as points of the plane: the one at (row, column) covers
    columns c/2 to c/2 + 1 of row r; pointing up where r + c is even."""
    r, c = cell
    if (r + c) % 2 == 0:
        points = [complex(c / 2, (r + 1) * H), complex(c / 2 + 1, (r + 1) * H),
                  complex(c / 2 + 0.5, r * H)]
    else:
        points = [complex(c / 2, r * H), complex(c / 2 + 1, r * H),
                  complex(c / 2 + 0.5, (r + 1) * H)]
    return frozenset(points)


def centre(cell) -> complex:
    """A hexagon's centre: two columns apart in a row, rows 1.5 sides apart (side 1/sqrt 3)."""
    r, c = cell
    return complex(c / 2, r * H)


def as_points(grid, cells) -> list[frozenset]:
    """Each cell as points of the plane: a triangle's corners, a hexagon's or square's centre."""
    if grid is TRIANGULAR:
        return [corners(c) for c in cells]
    if grid is SQUARE:
        return [frozenset([complex(c, r)]) for r, c in cells]
    return [frozenset([centre(c)]) for c in cells]


def shape_key(shapes: list[frozenset]) -> frozenset:
    """A shape (sets of points) up to translation: moved so that its least point is 0."""
    low = min((p for s in shapes for p in s), key=lambda p: (round(p.real, 6), round(p.imag, 6)))
    return frozenset(frozenset((round((p - low).real, 6), round((p - low).imag, 6)) for p in s)
                     for s in shapes)


def images(grid, cells, flip: bool) -> list[frozenset]:
    """The shape turned by every multiple of the lattice's least angle (60 degrees, 90 on
    squares) and mirrored where `flip`, as complex numbers, each up to translation."""
    turns = 4 if grid is SQUARE else 6
    found = []
    for k in range(turns):
        for mirror in (False, True) if flip else (False,):
            turn = cmath.exp(2j * math.pi / turns * k)
            found.append(shape_key([frozenset((p.conjugate() if mirror else p) * turn for p in s)
                                    for s in as_points(grid, cells)]))
    return found


@st.composite
def blobs(draw, grid, low=1, high=8):
    """A random connected shape of `low` to `high` cells, grown from a cell."""
    rnd = draw(st.randoms(use_true_random=False))
    size = draw(st.integers(low, high))
    cells = [(0, 0)]
    while len(cells) < size:
        step = rnd.choice(grid.adjacent(rnd.choice(cells)))
        if step not in cells:
            cells.append(step)
    return cells


@pytest.mark.parametrize("grid", (*PLANE, SQUARE), ids=lambda g: g.name)
def test_orientations_are_the_orbit_under_the_lattice_group(grid):
    @settings(BOUNDED, max_examples=60)
    @given(blobs(grid), st.booleans())
    def check(cells, flip):
        found = grid.orientations(cells, flip)
        assert len(found) == len(set(found))
        keys = {shape_key(as_points(grid, shape)) for shape in found}
        moved = images(grid, cells, flip)
        assert keys == set(moved)
        kept = moved.count(shape_key(as_points(grid, cells)))  # the shape's stabiliser
        assert len(found) * kept == grid.group_order(flip) == len(moved)
        for shape in found:  # each normalised, read back from its own picture
            assert grid.normalise(shape) == shape
            assert grid.normalise(grid.picture_cells(grid.picture(shape))) == shape

    check()


@pytest.mark.parametrize("grid", PLANE, ids=lambda g: g.name)
def test_neighbours_share_a_side(grid):
    cells = [(r, c) for r in range(-2, 3) for c in range(-3, 4) if grid.is_cell((r, c))]
    for cell in cells:
        if grid is TRIANGULAR:
            sides = {b for b in cells if len(_near(corners(cell)) & _near(corners(b))) == 2}
        else:  # hexagons side by side: centres one hexagon's width apart
            sides = {b for b in cells if abs(abs(centre(b) - centre(cell)) - 1) < 1e-9}
        assert set(grid.adjacent(cell)) & set(cells) == sides


def _near(points: frozenset) -> frozenset:
    return frozenset(complex(round(p.real, 9), round(p.imag, 9)) for p in points)


def test_corners_are_shared_exactly():  # the check above compares corners computed alike
    assert len(corners((0, 0)) & corners((0, 1))) == 2


@pytest.mark.parametrize("grid", PLANE, ids=lambda g: g.name)
def test_placements_move_pieces_by_lattice_vectors(grid):
    """Every placement is an orientation of its piece moved: a lone triangle pointing up is
    never placed on one pointing down by shifting coordinates (issue 24)."""
    board = [(r, c) for r in range(3) for c in range(r, r + 6) if grid.is_cell((r, c))]
    pieces = (CellPiece("one", grid.normalise([board[0]])),
              CellPiece("rest", grid.normalise(board[1:])))
    puzzle = CellPuzzle("p", tuple(board), pieces, flip=False, lattice_name=grid.name)
    for p in placements(puzzle):
        shapes = grid.orientations(puzzle.pieces[p.piece].cells, False)
        assert grid.normalise(p.cells) in shapes
        assert shape_key(as_points(grid, p.cells)) in set(images(grid, shapes[0], False))
    lone = [p for p in placements(puzzle) if p.piece == 0]
    assert len(lone) == len(board)  # a turned triangle covers every cell, once each


# ---------------------------------------------------------------- random puzzles


def region(grid, kind: str, size: int, rnd: random.Random) -> set:
    """A board: a parallelogram, a hexagon, a triangle or a random blob of the lattice."""
    if kind == "parallelogram":
        rows, width = size, rnd.randint(1, 3)
        per = 2 if grid is TRIANGULAR else 1  # a triangle row holds 2 per unit of width
        return {(r, r + (2 * k if grid is HEXAGONAL else k)) for r in range(rows)
                for k in range(per * width)}
    if kind == "hexagon":  # about a vertex (triangles) or a hexagon
        if grid is TRIANGULAR:
            return set(grid.picture_cells("^v^\nv^v"))
        return set(grid.picture_cells(" X X\nX X X\n X X"))
    if kind == "triangle":
        if grid is TRIANGULAR:
            return set(grid.picture_cells("  ^\n ^v^\n^v^v^"))
        return set(grid.picture_cells("  X\n X X\nX X X"))
    cells = [(0, 0)]
    while len(cells) < 3 + 2 * size:
        step = rnd.choice(grid.adjacent(rnd.choice(cells)))
        if step not in cells:
            cells.append(step)
    return set(cells)


@st.composite
def plane_puzzles(draw, grid) -> CellPuzzle:
    rnd = draw(st.randoms(use_true_random=False))
    kind = draw(st.sampled_from(["parallelogram", "hexagon", "triangle", "blob"]))
    cells = region(grid, kind, draw(st.integers(1, 3)), rnd)
    if draw(st.booleans()) and len(cells) > 5:  # a hole, or a cell more: fewer symmetries
        cells.discard(rnd.choice(sorted(cells)))
    flip = draw(st.booleans())
    parts = partition(cells, draw(st.integers(2, 4)), rnd, grid.adjacent)
    pieces = tuple(CellPiece(chr(65 + i), rnd.choice(grid.orientations(part, flip)))
                   for i, part in enumerate(parts))
    return CellPuzzle("random", tuple(sorted(cells)), pieces, flip=flip,
                      lattice_name=grid.name)


@pytest.mark.parametrize("grid", PLANE, ids=lambda g: g.name)
def test_burnside_equals_canonical_forms_on_random_boards(grid):
    @settings(BOUNDED, max_examples=40)
    @given(plane_puzzles(grid))
    def check(puzzle):
        plain, _, _ = count_packing(puzzle, "none")
        reduced, classes, plan = count_packing(puzzle, "symmetry")
        assert reduced == plain  # symmetry reduction keeps the count of solutions
        solutions, canonical = reference_classes(puzzle)
        assert (solutions, classes) == (plain, canonical)
        assert plain > 0  # the pieces were cut from the board
        assert plan.group.order % len(reference_packing.build(puzzle).symmetries) == 0

    check()


BACKENDS = ("cpsat", "pysat:cadical195", "bitboard", "xcover", "reference")


@pytest.mark.parametrize("grid", PLANE, ids=lambda g: g.name)
def test_every_backend_agrees_on_random_boards(grid):
    @settings(BOUNDED, max_examples=6)
    @given(plane_puzzles(grid))
    def check(puzzle):
        solutions, classes = reference_classes(puzzle)
        for backend in BACKENDS:
            plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
            reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
            assert (plain.number, reduced.number) == (solutions, classes), backend

    check()


# ---------------------------------------------------------------- the catalog


@pytest.mark.parametrize("name", ["hexiamonds-4x9", "tetrahexes-4x7", "tetrahexes-coin"])
def test_small_catalog_boards_count_as_published(name):
    puzzle = puzzlesat.load(name)
    counts = {backend: puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
              for backend in ("bitboard", "reference")}
    assert len({(c.number, c.details["solutions"]) for c in counts.values()}) == 1
    assert counts["bitboard"].number == puzzle.published["classes"]


# ---------------------------------------------------------------- bad input


def plane_file(lattice: str, board: str, piece: str, extra: str = "") -> str:
    return (f'kind = "packing"\nlattice = "{lattice}"\n{extra}board = """\n{board}\n"""\n'
            f'[pieces]\nA = """\n{piece}\n"""\n')


BAD = [
    ("a triangle out of place", plane_file("triangular", "^v^\n^v^", "^v^v^v"),
     "a triangle up ('^') at [1, 0] (row and column from 0, as cells are written) of the "
     "picture, where one pointing down"),
    ("a hexagon out of line", plane_file("hexagonal", "X X\nX X", "X X"),
     "a hexagon at [1, 0] (row and column from 0, as cells are written) of the picture is "
     "out of line"),
    ("a hexagon cell not on the lattice",
     'kind = "packing"\nlattice = "hexagonal"\nboard = [[0, 0], [0, 1]]\n'
     '[pieces]\nA = """\nX X\n"""\n', "[0, 1] is not a cell of the hexagonal lattice"),
    ("a square piece on triangles", plane_file("triangular", "^v", "XX"),
     "drawn on the square lattice, but the puzzle is on the triangular lattice"),
    ("a triangle piece on hexagons", plane_file("hexagonal", "X X X", "^v^"),
     "drawn on the triangular lattice, but the puzzle is on the hexagonal lattice"),
    ("a hexagon board on squares", plane_file("square", "X X", "XX"),
     "drawn on the hexagonal lattice, but the puzzle is on the square lattice"),
    ("a cell of three numbers on triangles",
     'kind = "packing"\nlattice = "triangular"\nboard = [[0, 0, 0], [0, 1, 0]]\n'
     '[pieces]\nA = """\n^v\n"""\n', "a cell is [row, column]"),
    ("an unknown character", plane_file("triangular", "^v^", "^x"), "unexpected character 'x'"),
    ("polyforms that are not orders", plane_file("hexagonal", "X X", "X X", "polyforms = [0]\n"),
     "a list of orders"),
    ("a piece named as a polyform", plane_file("hexagonal", "X X X", "X", "polyforms = [2]\n")
     .replace("A = ", "2a = "), "piece 2a is one of the polyforms"),
]


@pytest.mark.parametrize("what, text, said", BAD, ids=[b[0] for b in BAD])
def test_bad_lattice_input_is_one_line_and_exit_2(what, text, said, tmp_path, capsys):
    from puzzlesat.cli import main

    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    code = main(["count", str(path)])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"puzzlesat: error: {path}:") and said in lines[0], lines


# ---------------------------------------------------------------- challenges


def test_a_placed_cell_typed_where_its_character_stands_is_told_the_cell_drawn_there(
        tmp_path, capsys):
    """Regression: ' ^' over '^v^' is read one column to the right (its first triangle points
    up), so [0, 1] typed by the character's place was refused with no word of [0, 2]."""
    from puzzlesat.cli import main

    path = tmp_path / "placed.toml"
    path.write_text('kind = "packing"\nlattice = "triangular"\nboard = """\n ^\n^v^\n"""\n'
                    '[pieces]\nA = "^v"\nB = "^v"\n[placed]\nA = [[0, 1], [1, 1]]\n',
                    encoding="utf-8")
    assert main(["count", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"puzzlesat: error: {path}:11: placed.A: cell [0, 1] is not on the board (the board's "
        "picture is read one column to the right, so that its first triangle keeps its kind: "
        "the one drawn there is [0, 2])")


def test_a_challenge_on_triangles_holds_its_placed_pieces(tmp_path):
    """A card of hexiamonds with two pieces placed (cells as [row, column] of the picture):
    every backend counts the solutions that keep them where they are."""
    puzzle = puzzlesat.load("hexiamonds-4x9")
    grid = next(puzzlesat.solutions(puzzle, limit=1)).grid
    placed = {puzzle.pieces[i].name: sorted(c for c, p in grid.items() if p == i)
              for i in (0, 5)}
    from puzzlesat.models.files import catalog

    text = (catalog()["hexiamonds-4x9"].read_text(encoding="utf-8")
            + "\n[placed]\n" + "".join(f"{name} = {[list(c) for c in cells]}\n"
                                       for name, cells in placed.items()))
    path = tmp_path / "card.toml"
    path.write_text(text)
    card = puzzlesat.load(str(path))
    counts = {b: puzzlesat.count(card, backend=b, modulo="none", jobs=1).number
              for b in ("bitboard", "cpsat", "reference")}
    assert len(set(counts.values())) == 1 and counts["reference"] >= 1, counts
    everything = [s.grid for s in puzzlesat.solutions(puzzle)]
    keeping = [g for g in everything
               if all(g[c] == i for i in (0, 5) for c in placed[puzzle.pieces[i].name])]
    assert counts["reference"] == len(keeping)


def test_triangles_and_hexagons_export_as_dlx_and_dimacs():
    for name in ("tetrahexes-4x7", "hexiamonds-4x9"):
        puzzle = puzzlesat.load(name)
        count = len(placements(puzzle))
        dlx, _ = puzzlesat.export(puzzle, "dlx")
        options = [line for line in dlx.splitlines() if line and not line.startswith("|")][1:]
        assert len(options) == count
        cnf, _ = puzzlesat.export(puzzle, "dimacs")
        assert f"variables 1..{count}" in cnf
