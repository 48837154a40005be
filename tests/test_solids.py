"""Packing in space: the cubic lattice, solid puzzle files, and counts that agree.

- The Soma cube is counted on every backend, in total, up to the cube's rotations and up to its
  rotations and reflections (A and B are mirror twins); classes by Burnside's lemma (the count
  plan) agree with the reference's canonical forms of every solution (its own rotations, found
  as the closure of two quarter turns, sharing no code with models/geometry.py).
- Random small solids (random boxes cut into random connected pieces, each turned at random):
  the plan's counts (Burnside) equal the reference's canonical forms, modulo symmetry and
  rotation, where the set holds each piece's mirror image and where it does not.
- Random small solids are counted alike by every backend, with and without symmetry reduction.
- A polycube's orientations are its orbit under the cube's rotations (with mirror images, its 48
  symmetries), checked against integer rotation matrices built here as the closure of two
  quarter turns, sharing no code with models/geometry.py.
- Solid puzzle files read layers or coordinates; bad ones fail at their file, line and field.
"""

from __future__ import annotations

import itertools
import random

import pytest
from _counting import count_packing, partition
from hypothesis import strategies as st
from test_properties import MANY, run_property

import puzzlesat
from puzzlesat.backends import reference_packing
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import read_puzzle_text
from puzzlesat.models.geometry import CUBIC, motions
from puzzlesat.models.packing import CellPiece, CellPuzzle
from puzzlesat.models.packing.plan import mirror_twins, symmetry_group

SOMA = {"none": 11_520, "rotation": 480, "symmetry": 240}  # counted here, then compared below
SOLID_EXAMPLES = 6  # about 5 s (10 s on a loaded machine)


def test_the_cubic_lattice_turns_by_24_rotations_and_48_symmetries():
    assert len(motions(3)) == 48 and len(CUBIC.rotations) == 24
    assert sum(m.proper for m in motions(2)) == 4
    cube = list(itertools.product(range(3), repeat=3))
    assert len(CUBIC.board_symmetries(cube, False)) == 24
    assert len(CUBIC.board_symmetries(cube, True)) == 48
    box = list(itertools.product(range(3), range(4), range(5)))
    assert len(CUBIC.board_symmetries(box, False)) == 4  # a box of three sizes: half-turns
    assert len(CUBIC.board_symmetries(box, True)) == 8


def test_soma_pieces_turn_as_physical_pieces():
    soma = puzzlesat.load("soma")
    turns = {p.name: len(CUBIC.orientations(p.cells, False)) for p in soma.pieces}
    assert turns == {"V": 12, "L": 24, "T": 12, "Z": 12, "A": 12, "B": 12, "P": 8}
    names = [p.name for p in soma.pieces]
    twins = mirror_twins(soma)
    assert {names[i]: names[j] for i, j in enumerate(twins) if i != j} == {"A": "B", "B": "A"}
    assert symmetry_group(soma).order == 48 and symmetry_group(soma, "rotation").order == 24


@pytest.mark.parametrize("backend", ["bitboard", "xcover", "cpsat", "pysat:cadical195",
                                     "reference"])
def test_soma_on_every_backend(backend):
    """The full-size 3D count of the default run: up to rotations and reflections (Burnside,
    or canonical forms for the reference), with the total that reduction yields."""
    soma = puzzlesat.load("soma")
    found = puzzlesat.count(soma, backend, modulo="symmetry", jobs=1)
    assert found.complete
    assert (found.details["solutions"], found.number) == (SOMA["none"], SOMA["symmetry"])


def test_soma_totals_and_rotation_classes():
    soma = puzzlesat.load("soma")
    assert puzzlesat.count(soma, "bitboard", modulo="none", jobs=1).number == SOMA["none"]
    assert puzzlesat.count(soma, "bitboard", modulo="rotation", jobs=1).number == SOMA["rotation"]
    # the published figures, compared after counting
    assert (soma.published["solutions"], soma.published["classes"]) == (
        SOMA["none"], SOMA["symmetry"])


def test_solid_pentominoes_2x3x10_agree_with_the_published_12():
    box = puzzlesat.load("solid-pentominoes-2x3x10")
    found = puzzlesat.count(box, "bitboard", modulo="symmetry", jobs=2)
    assert (found.details["solutions"], found.number) == (96, 12)
    assert found.number == box.published["classes"]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["bitboard", "xcover", "cpsat"])
def test_solid_pentominoes_3x4x5_by_burnside(backend):
    box = puzzlesat.load("solid-pentominoes-3x4x5")
    found = puzzlesat.count(box, backend, modulo="symmetry", jobs=2)
    assert found.number == box.published["classes"] == 3940


@pytest.mark.slow
def test_tetracubes_2x4x4_on_every_backend():
    box = puzzlesat.load("tetracubes-2x4x4")
    for backend in ("bitboard", "xcover", "cpsat", "reference"):
        for modulo, expected in (("none", 11_120), ("rotation", 1_390), ("symmetry", 695)):
            assert puzzlesat.count(box, backend, modulo=modulo, jobs=2).number == expected


def test_bitboard_solves_a_solid_of_216_items_and_refuses_to_count_past_124_bits(tmp_path):
    """72 dominoes, each its own piece, in a 6x6x4 box: 216 items, past the 126 the search once
    took. A solution comes at once; the count (about 72! tilings times those of the box) is
    refused before it starts, saying why."""
    cubes = "\n".join(f"[{a}, {b}, {c}]," for a in range(6) for b in range(6) for c in range(4))
    pieces = "\n".join(f'D{i} = [[0, 0, 0], [0, 0, 1]]' for i in range(72))
    path = tmp_path / "big.toml"
    path.write_text(f'kind = "packing"\nlattice = "cubic"\nboard = [{cubes}]\n[pieces]\n{pieces}\n')
    puzzle = puzzlesat.load(str(path))
    solution = puzzlesat.solve(puzzle, "bitboard")
    assert solution.found and sorted(solution.grid) == sorted(puzzle.board_cells)
    assert sorted(solution.grid.values()) == sorted(k for k in range(72) for _ in range(2))
    with pytest.raises(InputError, match="solutions by Knuth's estimator.*2\\^124 - 1"):
        puzzlesat.count(puzzle, "bitboard", modulo="none", jobs=1)


# ---------------------------------------------------------------- random small solids


@st.composite
def solid_puzzles(draw) -> CellPuzzle:
    rnd = draw(st.randoms(use_true_random=False))
    size = sorted([draw(st.integers(1, 2)), draw(st.integers(2, 2)), draw(st.integers(2, 3))])
    cells = set(itertools.product(*(range(n) for n in size)))
    if draw(st.booleans()) and len(cells) > 6:  # a notch: fewer symmetries
        cells.discard(max(cells))
    if draw(st.booleans()):  # a set holding a chiral piece and its mirror image
        return _twin_puzzle(rnd)
    regions = partition(cells, draw(st.integers(2, 4)), rnd, CUBIC.adjacent)
    pieces = [CellPiece(chr(65 + i), _shape(rnd.choice(CUBIC.rotations), region))
              for i, region in enumerate(regions)]
    return CellPuzzle(name="random", board=tuple(sorted(cells)), pieces=tuple(pieces),
                      flip=False, lattice_name="cubic")


def _shape(motion, region) -> tuple:
    moved = [motion(cell) for cell in region]
    low = [min(x) for x in zip(*moved)]
    return tuple(sorted(tuple(x - x0 for x, x0 in zip(cell, low)) for cell in moved))


def _twin_puzzle(rnd: random.Random) -> CellPuzzle:
    """A 2x2x4 box holding a piece and its mirror image (each of four cubes), side by side."""
    left = {(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 1)}  # a chiral tetracube
    right = {(a, b, 3 - c) for a, b, c in left}  # its mirror image across the box
    box = set(itertools.product(range(2), range(2), range(4)))
    rest = partition(box - left - right, 2, rnd, CUBIC.adjacent)
    regions = [left, right, *rest]
    pieces = [CellPiece(chr(65 + i), _shape(rnd.choice(CUBIC.rotations), region))
              for i, region in enumerate(regions)]
    return CellPuzzle(name="twins", board=tuple(sorted(box)), pieces=tuple(pieces), flip=False,
                      lattice_name="cubic")


def check_solid(puzzle: CellPuzzle) -> None:
    for modulo in ("symmetry", "rotation"):
        solutions, classes, _ = count_packing(puzzle, modulo)
        board = reference_packing.model(puzzle, group=modulo).board
        found = list(reference_packing.ReferencePacking().enumerate(
            reference_packing.ReferenceModel(board, True, False), (), None))
        canonical = {reference_packing.canonical(board, g) for g in found}
        assert (solutions, classes) == (len(found), len(canonical)), modulo


@pytest.mark.parametrize("examples", [SOLID_EXAMPLES, pytest.param(MANY, marks=pytest.mark.slow)])
def test_burnside_agrees_with_canonical_forms_on_random_solids(examples):
    run_property(solid_puzzles(), check_solid, examples)


BACKENDS = ("bitboard", "xcover", "cpsat", "pysat:cadical195", "reference")


def check_solid_backends(puzzle: CellPuzzle) -> None:
    """Every backend counts alike, every solution and the classes under the symmetries, and as
    many as the reference's solutions and their canonical forms."""
    board = reference_packing.model(puzzle, group="symmetry").board
    found = list(reference_packing.ReferencePacking().enumerate(
        reference_packing.ReferenceModel(board, True, False), (), None))
    expected = (len(found), len({reference_packing.canonical(board, g) for g in found}))
    for backend in BACKENDS:
        total = puzzlesat.count(puzzle, backend, modulo="none", jobs=1)
        classes = puzzlesat.count(puzzle, backend, modulo="symmetry", jobs=1)
        assert total.complete and classes.complete, backend
        assert classes.details["solutions"] == total.number, backend
        assert (total.number, classes.number) == expected, backend


@pytest.mark.parametrize("examples", [4, pytest.param(60, marks=pytest.mark.slow)])
def test_every_backend_counts_random_solids_alike(examples):
    run_property(solid_puzzles(), check_solid_backends, examples)


# ---------------------------------------------------------------- orientations, checked apart


def rotation_matrices() -> list[tuple]:
    """The cube's 24 rotations as integer matrices: the closure of a quarter turn about the
    vertical and one about a horizontal axis (matrices multiplied here)."""
    def times(a, b):
        return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3))
                     for i in range(3))

    turns = (((1, 0, 0), (0, 0, -1), (0, 1, 0)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)))
    found = {((1, 0, 0), (0, 1, 0), (0, 0, 1))}
    todo = list(found)
    while todo:
        m = todo.pop()
        for turn in turns:
            image = times(turn, m)
            if image not in found:
                found.add(image)
                todo.append(image)
    return sorted(found)


ROTATION_MATRICES = rotation_matrices()


def moved(cells, matrix, mirror: bool = False) -> tuple:
    """Cells turned by a matrix (and mirrored through the origin), shifted to the origin."""
    sign = -1 if mirror else 1
    turned = [tuple(sign * sum(row[k] * cell[k] for k in range(3)) for row in matrix)
              for cell in cells]
    return _shape(lambda cell: cell, turned)


@st.composite
def polycubes(draw) -> list:
    """A connected shape of 1 to 8 cubes grown at random, a face to a face (steps written here)."""
    rnd = draw(st.randoms(use_true_random=False))
    steps = [s for axis in range(3) for s in ((0,) * axis + (d,) + (0,) * (2 - axis)
                                               for d in (-1, 1))]
    cells = [(0, 0, 0)]
    for _ in range(draw(st.integers(0, 7))):
        options = sorted({tuple(x + d for x, d in zip(cell, step)) for cell in cells
                          for step in steps} - set(cells))
        cells.append(rnd.choice(options))
    return cells


def check_cube_orientations(cells) -> None:
    found = CUBIC.orientations(cells, False)
    assert len(found) == len(set(found)) and 24 % len(found) == 0  # an orbit of the group
    assert set(found) == {moved(cells, m) for m in ROTATION_MATRICES}
    assert found[0] == _shape(lambda cell: cell, cells)  # its own first
    both = {moved(cells, m, mirror) for m in ROTATION_MATRICES for mirror in (False, True)}
    assert set(CUBIC.orientations(cells, True)) == both and 48 % len(both) == 0
    assert _shape(lambda cell: cell, CUBIC.mirror(cells)) in both  # the lattice's mirror image


def test_the_construction_is_the_cubes_rotation_group():
    assert len(ROTATION_MATRICES) == 24
    assert all(round(determinant(m)) == 1 for m in ROTATION_MATRICES)


def determinant(m) -> int:
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


@pytest.mark.parametrize("examples", [40, pytest.param(MANY, marks=pytest.mark.slow)])
def test_a_polycubes_orientations_are_its_orbit_under_the_rotations(examples):
    run_property(polycubes(), check_cube_orientations, examples)


def test_a_set_with_twins_gains_the_mirror_symmetries():
    puzzle = _twin_puzzle(random.Random(3))
    assert mirror_twins(puzzle) is not None
    assert symmetry_group(puzzle).order == 2 * symmetry_group(puzzle, "rotation").order
    check_solid(puzzle)


# ---------------------------------------------------------------- files

SOLID = '''kind = "packing"
lattice = "cubic"
board = """
XX
XX
---
XX
XX
"""
[pieces]
A = """
XX
X.
---
X.
..
"""
B = [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]]
'''


def test_a_solid_file_reads_layers_and_coordinates():
    puzzle = read_puzzle_text("s.toml", SOLID)
    assert isinstance(puzzle, CellPuzzle) and puzzle.lattice is CUBIC and not puzzle.flip
    assert puzzle.board_cells == sorted(itertools.product(range(2), repeat=3))
    assert puzzle.pieces[0].cells == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert puzzlesat.count(puzzle, "reference").number == puzzlesat.count(puzzle, "cpsat").number


@pytest.mark.parametrize("change, line, field, message", [
    (('lattice = "cubic"', 'lattice = "octagonal"'), 2, "lattice", "unknown lattice"),
    (('lattice = "cubic"', 'lattice = "cubic"\nflip = true'), 3, "flip", "mirror image"),
    (("---\nXX\nXX\n\"\"\"\n[pieces]", "---\nXX\nX,\n\"\"\"\n[pieces]"), 8, "board",
     "unexpected character ','"),
    (("---\nX.\n..", "---\n---\nX.\n.."), 15, "pieces.A",
     "layer 1 (from 0, the bottom layer 0) is empty"),
    (("[0, 1, 1], [1, 1, 1]]", "[0, 1, 1], [0, 1, 1]]"), 18, "pieces.B", "listed twice"),
    (("[0, 1, 1], [1, 1, 1]]", "[0, 1], [1, 1, 1]]"), 18, "pieces.B", "[layer, row, column]"),
])
def test_bad_solid_files_name_file_line_and_field(change, line, field, message):
    with pytest.raises(InputError) as caught:
        read_puzzle_text("s.toml", SOLID.replace(*change))
    error = caught.value
    assert (error.file, error.line, error.field) == ("s.toml", line, field), error
    assert message in error.message
    assert "\n" not in str(error)


def test_a_count_of_a_solid_says_what_it_counts():
    found = puzzlesat.count(puzzlesat.load("soma"), "bitboard", modulo="rotation", jobs=1)
    assert "rotations" in found.counted and "(24 symmetries: 24 rotations" in found.counted

