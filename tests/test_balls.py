"""Packing balls: the ball lattice (the square-pyramid stacking of Kanoodle and IQ Puzzler, a
face-centred cubic lattice), its puzzle files, pictures and counts that agree.

- The lattice's neighbours and its pieces' orientations are checked against a construction of
  this test's own: balls as centres in Cartesian space, turned by rotation matrices (the
  closure of a quarter turn about the vertical and one about a layer's diagonal), sharing no
  code with models/geometry.py or the reference solver.
- Random small boards of balls cut into random pieces, each turned at random, are counted
  alike by every backend with and without symmetry reduction, and the count plan's classes
  (Burnside's lemma) equal the reference's canonical forms.
- The same on the flat lattice (ball-layer, Kanoodle's tray): random small boards counted alike
  by every backend, and equal to the reference's solutions and canonical forms.
- The Kanoodle pieces stack into a published solution of the pyramid; the pyramid and a
  challenge on it count alike on every backend.
- Bad ball files (a piece in parts, a cell that is not one) get one line and exit 2.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import zipfile

import numpy
import pytest
from _counting import partition, reference_classes
from hypothesis import strategies as st
from test_properties import MANY, run_property
from test_solids import check_solid

import puzzlesat
from puzzlesat.cli import main
from puzzlesat.models.files import catalog, read_puzzle_text
from puzzlesat.models.geometry import BALLS, LATTICES
from puzzlesat.models.packing import CellPiece, CellPuzzle, placements
from puzzlesat.models.packing.plan import symmetry_group
from puzzlesat.pictures import packing as pictures

ROOT2 = math.sqrt(2)
BACKENDS = ["bitboard", "xcover", "cpsat", "pysat:cadical195", "reference"]
BALL_EXAMPLES = 4  # small boards counted by every backend, with and without symmetry: ~10 s


# ---------------------------------------------------------------- an independent construction


def centre(cell) -> numpy.ndarray:
    """Where a ball (layer, row, column) is in space, balls of diameter 1: a layer's balls in
    rows and columns 1 apart, each resting in the hollow between four below it."""
    layer, r, c = cell
    return numpy.array([c + layer / 2, r + layer / 2, layer / ROOT2])


def ball(point) -> tuple[int, int, int]:
    x, y, z = point
    layer = round(z * ROOT2)
    r, c = y - layer / 2, x - layer / 2
    assert abs(z * ROOT2 - layer) < 1e-9 and abs(r - round(r)) < 1e-9 and abs(c - round(c)) < 1e-9
    return layer, round(r), round(c)


def quarter_turn(axis) -> numpy.ndarray:
    """A quarter turn about an axis through the origin (Rodrigues' formula)."""
    k = numpy.asarray(axis, dtype=float) / numpy.linalg.norm(axis)
    cross = numpy.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return cross + numpy.outer(k, k)


def closure(generators) -> list[numpy.ndarray]:
    found = {tuple(numpy.round(numpy.eye(3), 9).ravel()): numpy.eye(3)}
    todo = [numpy.eye(3)]
    while todo:
        m = todo.pop()
        for g in generators:
            image = g @ m
            key = tuple(numpy.round(image, 9).ravel())
            if key not in found:
                found[key] = image
                todo.append(image)
    return list(found.values())


# The lattice's turns: a quarter turn about the vertical, and one about the horizontal line
# through a layer's diagonal (both carry the stacking onto itself about a ball's centre).
ROTATIONS = closure([quarter_turn((0, 0, 1)), quarter_turn((1, 1, 0))])
SYMMETRIES = ROTATIONS + [-m for m in ROTATIONS]  # the lattice is symmetric about a ball


def shifted(cells) -> tuple:
    low = [min(x) for x in zip(*cells)]
    return tuple(sorted(tuple(x - x0 for x, x0 in zip(cell, low)) for cell in cells))


def turned(cells, matrix) -> tuple:
    return shifted([ball(matrix @ centre(cell)) for cell in cells])


def touching(cell) -> list[tuple[int, int, int]]:
    """The balls whose centres are a diameter from this one's, found by distance."""
    near = itertools.product(*(range(x - 2, x + 3) for x in cell))
    return [other for other in near
            if abs(numpy.linalg.norm(centre(other) - centre(cell)) - 1) < 1e-9]


def test_the_construction_is_the_cubes_group():
    assert len(ROTATIONS) == 24
    assert len({tuple(numpy.round(m, 9).ravel()) for m in SYMMETRIES}) == 48


@pytest.mark.parametrize("cell", [(0, 0, 0), (2, -1, 3), (-1, 4, -2)])
def test_a_ball_touches_the_twelve_its_centre_is_a_diameter_from(cell):
    assert sorted(BALLS.adjacent(cell)) == sorted(touching(cell))
    assert len(touching(cell)) == 12


@st.composite
def ball_shapes(draw) -> list:
    """A connected shape of balls grown at random by balls touching (found by distance)."""
    rnd = draw(st.randoms(use_true_random=False))
    cells = [(0, 0, 0)]
    for _ in range(draw(st.integers(0, 6))):
        options = sorted({n for cell in cells for n in touching(cell)} - set(cells))
        cells.append(rnd.choice(options))
    return cells


def check_orientations(cells) -> None:
    expected = {turned(cells, m) for m in ROTATIONS}
    found = BALLS.orientations(cells, False)
    assert len(found) == len(set(found)) and set(found) == expected
    assert found[0] == shifted(cells)  # its own first
    assert 24 % len(found) == 0  # an orbit of the group
    assert set(BALLS.orientations(cells, True)) == {turned(cells, m) for m in SYMMETRIES}
    mirrored = shifted(BALLS.mirror(cells))  # a mirror image: among the 48, reached by no turn
    assert mirrored in {turned(cells, m) for m in SYMMETRIES}


@pytest.mark.parametrize("examples", [30, pytest.param(MANY, marks=pytest.mark.slow)])
def test_a_pieces_orientations_are_its_orbit_under_the_rotations(examples):
    run_property(ball_shapes(), check_orientations, examples)


def test_flat_pieces_lie_in_a_layer_or_upright_in_a_diagonal_plane():
    square = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    shapes = BALLS.orientations(square, False)
    assert len(shapes) == 3  # flat, and upright in the two planes through a layer's diagonal
    ell = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 2, 1)]
    shapes = BALLS.orientations(ell, False)
    flat = [s for s in shapes if len({c[0] for c in s}) == 1]
    assert len(shapes) == 24 and len(flat) == 8  # lying flat: turned and turned over


def check_flat(cells) -> None:
    """A piece lying in one layer: its orientations on the flat board are those of the ball
    lattice that stay in a layer (a flat piece turns over by a turn of space)."""
    flat = [(0, r, c) for _, r, c in cells]
    in_a_layer = {s for s in BALLS.orientations(flat, False) if len({c[0] for c in s}) == 1}
    on_the_board = {tuple((0, r, c) for r, c in s)
                    for s in LATTICES["ball-layer"].orientations([c[1:] for c in flat], True)}
    assert in_a_layer == on_the_board


@st.composite
def flat_shapes(draw) -> list:
    rnd = draw(st.randoms(use_true_random=False))
    cells = [(0, 0, 0)]
    for _ in range(draw(st.integers(0, 6))):
        options = sorted({n for cell in cells for n in touching(cell) if n[0] == 0} - set(cells))
        cells.append(rnd.choice(options))
    return cells


def test_the_flat_board_turns_a_piece_as_the_stacking_does_in_a_layer():
    run_property(flat_shapes(), check_flat, 30)


# ---------------------------------------------------------------- random small boards

BOARDS = {
    "pyramid of 3 layers": [(lv, r, c) for lv in range(3) for r in range(3 - lv)
                            for c in range(3 - lv)],
    "two layers": [(lv, r, c) for lv in range(2) for r in range(3 - lv) for c in range(3 - lv)],
    "a slab": [(lv, r, c) for lv in range(2) for r in range(2) for c in range(3 - lv)],
}


@st.composite
def ball_puzzles(draw) -> CellPuzzle:
    rnd = draw(st.randoms(use_true_random=False))
    cells = list(BOARDS[draw(st.sampled_from(sorted(BOARDS)))])
    if draw(st.booleans()):  # a ball less: fewer symmetries
        cells.remove(rnd.choice(cells))
    regions = partition(set(cells), draw(st.integers(2, 4)), rnd, touching)
    pieces = [CellPiece(chr(65 + i), turned(sorted(region), rnd.choice(ROTATIONS)))
              for i, region in enumerate(regions)]
    return CellPuzzle(name="balls", board=tuple(sorted(cells)), pieces=tuple(pieces),
                      flip=False, lattice_name="balls")


def check_backends(puzzle: CellPuzzle) -> None:
    """Every backend counts alike, every solution and the classes under the symmetries."""
    counts = {}
    for backend in BACKENDS:
        total = puzzlesat.count(puzzle, backend, modulo="none", jobs=1)
        classes = puzzlesat.count(puzzle, backend, modulo="symmetry", jobs=1)
        assert total.complete and classes.complete
        assert classes.details["solutions"] == total.number, backend
        counts[backend] = (total.number, classes.number)
    assert len(set(counts.values())) == 1, counts


@pytest.mark.parametrize("examples", [BALL_EXAMPLES,
                                      pytest.param(60, marks=pytest.mark.slow)])
def test_every_backend_counts_random_ball_boards_alike(examples):
    run_property(ball_puzzles(), check_backends, examples)


@pytest.mark.parametrize("examples", [8, pytest.param(MANY, marks=pytest.mark.slow)])
def test_burnside_agrees_with_canonical_forms_on_random_ball_boards(examples):
    run_property(ball_puzzles(), check_solid, examples)  # as for cubes


@st.composite
def flat_puzzles(draw) -> CellPuzzle:
    """A small board of the flat lattice (ball-layer: Kanoodle's 5x11 tray), a rectangle with a
    ball taken away or not, cut into random pieces, each turned and turned over at random."""
    rnd = draw(st.randoms(use_true_random=False))
    height, width = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    cells = {(r, c) for r in range(height) for c in range(width)}
    if draw(st.booleans()) and len(cells) > 3:  # fewer symmetries
        cells.discard(rnd.choice(sorted(cells)))
    grid = LATTICES["ball-layer"]
    regions = partition(cells, draw(st.integers(2, 4)), rnd, grid.adjacent)
    pieces = tuple(CellPiece(chr(65 + i), rnd.choice(grid.orientations(sorted(region), True)))
                   for i, region in enumerate(regions))
    return CellPuzzle(name="flat", board=tuple(sorted(cells)), pieces=pieces, flip=True,
                      lattice_name="ball-layer")


def check_flat_backends(puzzle: CellPuzzle) -> None:
    """The flat lattice: every backend alike, and equal to the reference's solutions and the
    classes of their canonical forms (the reference's own symmetries)."""
    check_backends(puzzle)
    solutions, classes = reference_classes(puzzle)
    found = puzzlesat.count(puzzle, "bitboard", modulo="symmetry", jobs=1)
    assert (found.details["solutions"], found.number) == (solutions, classes)


@pytest.mark.parametrize("examples", [BALL_EXAMPLES, pytest.param(60, marks=pytest.mark.slow)])
def test_every_backend_counts_random_flat_boards_alike(examples):
    run_property(flat_puzzles(), check_flat_backends, examples)


def test_a_pyramids_symmetries_are_the_squares_seen_from_above():
    pyramid = BOARDS["pyramid of 3 layers"]
    names = [name for name, _ in BALLS.board_symmetries(pyramid, True)]
    assert names == ["identity", "rotate 90 about the vertical", "rotate 180 about the vertical",
                     "rotate 270 about the vertical", "mirror left-right", "mirror top-bottom",
                     "mirror diagonal", "mirror anti-diagonal"]
    for _, move in BALLS.board_symmetries(pyramid, True):  # each an isometry of the centres
        images = [centre(move(cell)) for cell in pyramid]
        for a, b in itertools.combinations(range(len(pyramid)), 2):
            assert numpy.linalg.norm(images[a] - images[b]) == pytest.approx(
                numpy.linalg.norm(centre(pyramid[a]) - centre(pyramid[b])))


# ---------------------------------------------------------------- Kanoodle

# A solution of the pyramid published by github.com/nsnichols/kanoodle-solver (README): its
# layers bottom first, its letters A-L the pieces by shape, as the catalog names them (A the L of
# four, B the P, C the L of five, D the Y, E the N, F the V of three, G the V of five, H the W,
# I the U, J the I of four, K the square, L the plus).
PUBLISHED_PYRAMID = ["ADDDD EFLDJ BFFLJ BBKKJ BBKKJ", "AGGG EALG CEIG CCCC", "ALH EHL HEI",
                     "IH HI", "I"]


@pytest.fixture(scope="module")
def pyramid():
    return puzzlesat.load("kanoodle-pyramid")


def test_the_kanoodle_pieces_stack_into_the_published_pyramid(pyramid):
    cells = published_cells()
    assert sorted(c for found in cells.values() for c in found) == sorted(pyramid.board_cells)
    for piece in pyramid.pieces:
        assert shifted(cells[piece.name]) in BALLS.orientations(piece.cells, False), piece.name
    assert len(pyramid.board_cells) == 55 and len(pyramid.pieces) == 12
    assert symmetry_group(pyramid).order == 8 and symmetry_group(pyramid, "rotation").order == 4


# Counted here first (bitboard and xcover agreeing, verify's backends after them), never taken
# from elsewhere: we found no published count of the pyramid, nor one of the flat board.
PYRAMID = {"none": 2_448, "symmetry": 306}  # classes under the pyramid's 8 symmetries
FLAT = {"none": 371_020, "symmetry": 92_755}  # classes under the rectangle's 4 symmetries


@pytest.mark.slow
def test_the_pyramid_counted_in_full(pyramid):
    """Bitboard about 7 s of CPU; xcover (dancing links, no symmetry) about 30 s."""
    found = puzzlesat.count(pyramid, "bitboard", modulo="symmetry", jobs=1)
    assert (found.details["solutions"], found.number) == (PYRAMID["none"], PYRAMID["symmetry"])
    assert puzzlesat.count(pyramid, "xcover", modulo="none", jobs=1).number == PYRAMID["none"]


@pytest.mark.slow
def test_the_flat_board_counted_in_full():
    """Bitboard about 25 s at a high load."""
    flat = puzzlesat.load("kanoodle-5x11")
    found = puzzlesat.count(flat, "bitboard", modulo="symmetry", jobs=1)
    assert (found.details["solutions"], found.number) == (FLAT["none"], FLAT["symmetry"])
    assert symmetry_group(flat).order == 4


def published_cells() -> dict[str, list]:
    """The balls of each piece in the published solution, by the piece's name."""
    cells: dict[str, list] = {}
    for layer, rows in enumerate(PUBLISHED_PYRAMID):
        for r, row in enumerate(rows.split()):
            for c, letter in enumerate(row):
                cells.setdefault(letter, []).append((layer, r, c))
    return cells


def test_a_pyramid_challenge_counts_alike_on_every_backend():
    """A card of the pyramid, five pieces of the published solution placed (written in the
    file's [placed] table), counted on every backend: the full-size board in the default run;
    every solution keeps the placed pieces where they are."""
    placed = published_cells()
    table = "\n".join(f"{name} = {[list(c) for c in placed[name]]}"
                      for name in "ABFJK")
    text = catalog()["kanoodle-pyramid"].read_text(encoding="utf-8")
    card = read_puzzle_text("card.toml", f"{text}\n[placed]\n{table}\n")
    assert len(card.placed) == 5
    counts = {b: puzzlesat.count(card, b, modulo="none", jobs=1).number for b in BACKENDS}
    assert len(set(counts.values())) == 1 and counts["reference"] >= 1, counts
    for solution in puzzlesat.solutions(card, limit=3):
        assert all(solution.grid[cell] == p.piece for p in card.placed for cell in p.cells)


# ---------------------------------------------------------------- files and bad input

SMALL = '''kind = "packing"
lattice = "balls"
board = """
XXX
XXX
XXX
---
XX
XX
---
X
"""
[pieces]
L = "XXX\\nX.."
O = "XX\\nXX"
V = "XX\\nX."
I = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
'''


def test_a_ball_file_reads_layers_and_coordinates():
    puzzle = read_puzzle_text("small.toml", SMALL)
    assert puzzle.lattice is BALLS and not puzzle.flip and len(puzzle.board_cells) == 14
    upright = next(p for p in puzzle.pieces if p.name == "I")
    assert upright.cells == [(0, 0, 0), (1, 0, 0), (2, 0, 0)]  # a line rising along a diagonal
    assert puzzlesat.count(puzzle, "bitboard", modulo="symmetry", jobs=1).number >= 1


@pytest.mark.parametrize("change, line, field, message", [
    ('I = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]', 'I = [[0, 0, 0], [0, 0, 2], [2, 0, 0]]',
     "pieces.I", "piece I is in parts: on the balls lattice a piece is one body"),
    ('V = "XX\\nX."', 'V = "X.X\\nX.."', "pieces.V", "piece V is in parts"),
    ('I = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]', 'I = [[0, 0], [1, 0], [2, 0]]', "pieces.I",
     "a cell is [layer, row, column]"),
    ('I = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]', 'I = [[0, 0, 0], [1, 0, 0], [-1, 2, 0]]',
     "pieces.I", "whole numbers from 0"),
    ('lattice = "balls"', 'lattice = "balls"\nflip = true', "flip", "does not apply to balls"),
    ('L = "XXX\\nX.."', 'L = "XXX\\nXo."', "pieces.L", "unexpected character 'o'"),
])
def test_bad_ball_files_get_one_line_and_exit_2(tmp_path, capsys, change, line, field, message):
    path = tmp_path / "bad.toml"
    assert change in SMALL
    path.write_text(SMALL.replace(change, line), encoding="utf-8")
    assert main(["count", str(path)]) == 2
    said = capsys.readouterr().err.strip()
    assert "\n" not in said and "Traceback" not in said, said
    assert f"{path}:" in said and f": {field}: " in said and message in said, said


# ---------------------------------------------------------------- pictures, pages, files


def test_drawings_show_balls():
    puzzle = read_puzzle_text("small.toml", SMALL)
    drawn = pictures.solution_drawing(puzzle, next(iter(puzzlesat.solutions(puzzle, limit=1))))
    text = drawn.to_string()
    assert text.count('class="ball"') == 2 * 14  # the isometric view and the layers
    assert 'class="cell"' not in text and 'class="face"' not in text  # no squares, no cubes
    assert pictures.pieces(puzzle).to_string().count('class="ball"') == 14
    shown = pictures.gallery(puzzle, "symmetry", 10)
    assert "8 symmetries" in shown.statement and shown.figures


def test_the_3d_page_shows_balls_in_a_browser(tmp_path):
    from puzzlesat.pictures import browser, viewer

    if viewer.three_folder() is None or browser.unavailable():
        pytest.skip(f"no 3D page: {browser.unavailable() or 'three.js is not installed'}")
    puzzle = read_puzzle_text("small.toml", SMALL)
    path = tmp_path / "page.html"
    path.write_text(pictures.page(puzzle), encoding="utf-8")
    with contextlib.ExitStack() as stack:
        try:
            context = stack.enter_context(browser.chromium())
        except Exception as error:  # noqa: BLE001 - any launch failure is a reason to skip
            pytest.skip(f"Chromium did not start: {error}")
        page = context.new_page()
        problems = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(path.resolve().as_uri())
        page.wait_for_selector("body[data-ready=true]")
        page.click("#none")
        assert page.evaluate("document.body.dataset.triangles") == "0"
        page.click("#next")
        assert int(page.evaluate("document.body.dataset.triangles")) > 0
        assert page.evaluate("document.body.dataset.shown") == "1" and problems == []


def test_export_stl_of_the_pyramid(tmp_path):
    mesh = pytest.importorskip("stl.mesh", reason="numpy-stl is not installed (extra 'stl')")
    archive = tmp_path / "pyramid.zip"
    puzzle = read_puzzle_text("small.toml", SMALL)
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    assert main(["export", str(path), "--format", "stl", "--cube", "10", "-o",
                 str(archive)]) == 0
    files = zipfile.ZipFile(archive)
    assert sorted(files.namelist()) == sorted(
        ["assembled.stl", "README.txt"] + [f"piece-{p.name}.stl" for p in puzzle.pieces])
    for piece in puzzle.pieces:
        body = mesh.Mesh.from_file("p", fh=io.BytesIO(files.read(f"piece-{piece.name}.stl")))
        low, high = body.min_, body.max_
        assert low[2] == pytest.approx(0, abs=1e-4)  # on the bed
        flat = len({c[0] for c in piece.cells}) == 1 or piece.name == "I"
        assert high[2] == pytest.approx(10, abs=1e-3) or not flat  # lying flat: one ball high
        volume = body.get_mass_properties()[0]  # balls and rods, overlapping where they meet
        assert volume > len(piece.cells) * 0.95 * math.pi / 6 * 10 ** 3


def test_a_flat_piece_in_parts_is_refused(tmp_path, capsys):
    path = tmp_path / "flat.toml"
    path.write_text('kind = "packing"\nlattice = "ball-layer"\nboard = "XXX"\n'
                    '[pieces]\nA = "X.X"\nB = "X"\n', encoding="utf-8")
    assert main(["count", str(path)]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"puzzlesat: error: {path}:5: pieces.A: piece A is in parts"), said


def test_only_lattices_with_every_part_are_in_the_table():
    assert "balls" in LATTICES and "space" in BALLS.capabilities and "stl" in BALLS.capabilities


def test_export_names_balls_by_layer_row_and_column(tmp_path, capsys):
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    options = len(placements(read_puzzle_text("small.toml", SMALL)))
    assert main(["export", str(path), "--format", "dlx", "-o", str(tmp_path / "s.dlx")]) == 0
    text = (tmp_path / "s.dlx").read_text()
    assert "l2r0c0" in text and text.count("| option ") == options
    assert main(["export", str(path), "--format", "dimacs", "-o", str(tmp_path / "s.cnf")]) == 0
    assert f"{options} placement variables" in capsys.readouterr().err
