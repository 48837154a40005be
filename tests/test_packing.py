"""Packing puzzles: orientations, counts on every backend, symmetry reduction, export."""

from __future__ import annotations

import itertools

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import puzzlesat
from puzzlesat.models import files as puzzlefile
from puzzlesat.models.files import read_puzzle_text
from puzzlesat.models.packing import piece_orientations, placements
from puzzlesat.models.packing.plan import count_plan


def count_solutions(puzzle, backend, modulo="none", jobs=1, encoding=None, quiet=True):
    """A count through the API; its details hold the solutions and the classes."""
    found = puzzlesat.count(puzzle, backend=backend, modulo=modulo, jobs=jobs,
                            encoding=encoding)
    found.solutions = found.details["solutions"]
    found.classes = found.details["classes"]
    return found


def test_orientation_counts():
    assert sum(map(len, piece_orientations(puzzlefile.load("iq-block-8")))) == 38
    assert sum(map(len, piece_orientations(puzzlefile.load("iq-block-10")))) == 62
    # the free pentominoes: 63 orientations in all, X has 1, I has 2, F has 8
    pentominoes = puzzlefile.load("pentomino-6x10")
    by_name = dict(zip([p.name for p in pentominoes.pieces], piece_orientations(pentominoes)))
    assert sum(map(len, by_name.values())) == 63
    assert (len(by_name["X"]), len(by_name["I"]), len(by_name["F"])) == (1, 2, 8)


@pytest.mark.parametrize("backend", [
    "cpsat", "pysat:cadical195", "reference",
    # more SAT solvers on the same CNF: minisat22 counts it in every encoding below
    pytest.param("pysat:glucose4", marks=pytest.mark.slow),
    pytest.param("pysat:minisat22", marks=pytest.mark.slow),
])
def test_iq_block_8_on_every_backend(backend):
    puzzle = puzzlefile.load("iq-block-8")
    plain = count_solutions(puzzle, backend, "none", jobs=2, quiet=True)
    reduced = count_solutions(puzzle, backend, "symmetry", jobs=2, quiet=True)
    assert plain.complete and reduced.complete
    assert (plain.solutions, reduced.solutions, reduced.classes) == (48, 48, 6)


@pytest.mark.parametrize("encoding", ["pairwise", "seqcounter", "ladder", "totalizer"])
def test_cnf_encodings_agree(encoding):
    puzzle = puzzlefile.load("iq-block-8")
    found = count_solutions(puzzle, "pysat:minisat22", "symmetry", 2, encoding=encoding)
    assert (found.solutions, found.classes) == (48, 6)


def test_iq_block_10_full_count():
    """101,792 = 8 x 12,724; the published 101,972 is not a multiple of 8 (see README). Counted
    by the default counter (CP-SAT's count, 16 CPU s, and the others': test_packing_slow.py)."""
    found = count_solutions(puzzlefile.load("iq-block-10"), "bitboard", "symmetry", jobs=2,
                            quiet=True)
    assert found.complete
    assert (found.solutions, found.classes) == (101_792, 12_724)


@pytest.mark.parametrize(
    "name, backend, classes",
    [
        ("pentomino-6x10", "bitboard", 2339),  # the default counter, at full size: 3 s
        # the reference's canonical forms at full size: 2 minutes at load 12 (random boards
        # check them in the default run: tests/test_conventions.py, tests/test_solids.py)
        pytest.param("pentomino-6x10", "reference", 2339, marks=pytest.mark.slow),
        # CP-SAT at full size: the 4x15 and the 8x8 hole in the default run, the 5x12 (9 CPU s)
        pytest.param("pentomino-5x12", "cpsat", 1010, marks=pytest.mark.slow),
        ("pentomino-4x15", "cpsat", 368),
        ("pentomino-3x20", "pysat:glucose4", 2),
        ("pentomino-8x8-centre-hole", "cpsat", 65),
    ],
)
def test_pentomino_classes(name, backend, classes):
    found = count_solutions(puzzlefile.load(name), backend, "symmetry", jobs=2, quiet=True)
    assert found.complete and found.classes == classes


def test_reference_on_a_board_with_a_hole():
    """Shapes whose bounding-box corner lies over the hole must be placed too (520, not 326)."""
    found = count_solutions(puzzlefile.load("pentomino-8x8-centre-hole"), "reference", jobs=2)
    assert found.complete and found.solutions == 520


def test_reduced_count_equals_unreduced_on_an_odd_side():
    """5x12 has an odd side: the reduced count (one placement per orbit) must still be exact."""
    puzzle = puzzlefile.load("pentomino-5x12")
    reduced = count_solutions(puzzle, "cpsat", "symmetry", jobs=2, quiet=True)
    plain = count_solutions(puzzle, "reference", jobs=2)
    assert plain.complete and reduced.complete
    assert reduced.solutions == plain.solutions == 4 * reduced.classes


def puzzle_from(text: str):
    return read_puzzle_text("test.toml", text)


SYMMETRIC = '''
kind = "packing"
board = """
XXX
XXX
XXX
"""
[pieces]
a = """
XXX
"""
b = """
XXX
"""
c = """
XXX
"""
'''


def brute_force(puzzle) -> list[tuple]:
    """Every solution as a grid, by trying every combination of placements (tiny puzzles only)."""
    options = placements(puzzle)
    by_piece = [[p for p in options if p.piece == i] for i in range(len(puzzle.pieces))]
    cells = set(puzzle.cells)
    grids = []
    for choice in itertools.product(*by_piece):
        covered = [c for p in choice for c in p.cells]
        if len(covered) == len(set(covered)) == len(cells):
            grid = {c: p.piece for p in choice for c in p.cells}
            grids.append(tuple(grid[c] for c in sorted(cells)))
    return grids


def test_symmetric_solutions_are_counted_by_burnside():
    """A board where some solutions map onto themselves: classes are not solutions / |group|."""
    puzzle = puzzle_from(SYMMETRIC)
    grids = brute_force(puzzle)
    cells = sorted(puzzle.cells)
    images = [  # the eight symmetries of the 3x3 square
        lambda r, c: (r, c),
        lambda r, c: (c, 2 - r),
        lambda r, c: (2 - r, 2 - c),
        lambda r, c: (2 - c, r),
        lambda r, c: (r, 2 - c),
        lambda r, c: (2 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (2 - c, 2 - r),
    ]
    classes = {
        min(tuple(dict(zip(cells, g))[f(*cell)] for cell in cells) for f in images) for g in grids
    }
    fixed = sum(
        1
        for g in grids
        for f in images[1:]
        if tuple(dict(zip(cells, g))[f(*cell)] for cell in cells) == g
    )
    assert fixed > 0, "the test puzzle must have symmetric solutions"
    assert (len(grids), len(classes)) == (12, 3)  # 12 / 8 is not even a whole number
    for backend in ("cpsat", "pysat:cadical195", "reference"):
        found = count_solutions(puzzle, backend, "symmetry", jobs=1, quiet=True)
        assert (found.solutions, found.classes) == (len(grids), len(classes)), backend
    plan = count_plan(puzzle, "symmetry")
    assert plan.group.order == 8 and len(plan.tasks) == 8


ONE_SIDED = '''
kind = "packing"
flip = false
board = """
XXXX
XXXX
"""
[pieces]
L = """
XXX
X..
"""
M = """
%s
"""
'''


@pytest.mark.parametrize("other, group", [
    ("XXX\nX..", ("identity", "rotate 180")),  # L twice: no piece is the other's mirror image
    ("XXX\n..X", ("identity", "rotate 180", "mirror left-right", "mirror top-bottom")),
])
def test_one_sided_pieces_mirror_only_where_the_set_holds_each_mirror_image(other, group):
    """One-sided pieces: a mirror image of a solution is a solution only where every piece's
    mirror image is in the set (then the mirror gives each piece its twin's place)."""
    puzzle = puzzle_from(ONE_SIDED % other)
    assert count_plan(puzzle, "symmetry").group.elements == group
    assert count_plan(puzzle, "rotation").group.elements == group[:2]
    grids = brute_force(puzzle)
    cells = sorted(puzzle.cells)
    twin = [0, 1] if len(group) == 2 else [1, 0]
    images = [lambda r, c: (r, c), lambda r, c: (1 - r, 3 - c)]
    relabel = [lambda k: k, lambda k: k]
    if len(group) == 4:
        images += [lambda r, c: (r, 3 - c), lambda r, c: (1 - r, c)]
        relabel += [lambda k: twin[k]] * 2
    classes = {min(tuple(f(dict(zip(cells, g))[image(*cell)]) for cell in cells)
                   for image, f in zip(images, relabel)) for g in grids}
    for backend in ("cpsat", "reference"):
        found = count_solutions(puzzle, backend, "symmetry", jobs=1, quiet=True)
        assert (found.solutions, found.classes) == (len(grids), len(classes)), backend


def test_exported_dimacs_counts_the_same(tmp_path):
    """The exported CNF, read back by PySAT alone, has 48 models on its placement variables."""
    from puzzlesat.cli import main

    path = tmp_path / "iq8.cnf"
    assert main(["export", "iq-block-8", "--format", "dimacs", "-o", str(path)]) == 0
    text = path.read_text()
    keys = [int(line.split()[2]) for line in text.splitlines() if line.startswith("c var ")]
    assert any("piece A0 orientation 0 cells" in line for line in text.splitlines())
    cnf = CNF(from_string=text)
    found = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as sat:
        while sat.solve():
            model = set(sat.get_model())
            found += 1
            sat.add_clause([-k for k in keys if k in model])
    assert found == 48
