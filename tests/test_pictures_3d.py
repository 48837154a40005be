"""Pictures of the 3D catalog puzzles through the packing family's pictures module: drawings,
galleries, classes of solutions (checked against orbits walked one symmetry at a time), the STL
print set from the command line."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile

import pytest

from puzzlesat import api
from puzzlesat.cli import main
from puzzlesat.models.packing.plan import puzzle_symmetries
from puzzlesat.pictures import gallery, packing3d, solid
from puzzlesat.pictures import solutions as found

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def soma():
    return api.load("soma")


@pytest.fixture(scope="module")
def some(soma):
    """A few Soma solutions and every image of them under the cube's 48 symmetries."""
    grids = found.packing_solutions(soma, limit=2)
    seen: dict[tuple, dict] = {}
    for s in puzzle_symmetries(soma, "symmetry"):
        move = {cell: s.move(cell) for cell in soma.board_cells}
        for grid in grids:
            image = {move[cell]: s.twin[piece] for cell, piece in grid.items()}
            seen.setdefault(tuple(sorted(image.items())), image)
    return list(seen.values())


def orbits(puzzle, grids, modulo) -> list[int]:
    """Class numbers by walking orbits: a solution joins the class of the first solution one
    of the symmetries maps onto it."""
    number: dict[tuple, int] = {}
    out = []
    symmetries = [({c: s.move(c) for c in puzzle.board_cells}, s.twin)
                  for s in puzzle_symmetries(puzzle, modulo)]
    for grid in grids:
        images = [tuple(sorted({move[c]: twin[p] for c, p in grid.items()}.items()))
                  for move, twin in symmetries]
        known = next((number[i] for i in images if i in number), None)
        klass = known if known is not None else len(set(number.values())) + 1
        for image in images:
            number.setdefault(image, klass)
        out.append(klass)
    return out


@pytest.mark.parametrize("modulo", ["symmetry", "rotation"])
def test_classes_agree_with_orbits(soma, some, modulo):
    members = found.packing_classes(soma, some, modulo)
    assert [m.klass for m in members] == orbits(soma, some, modulo)
    # these grids are whole orbits: each class holds its full orbit
    sizes = {m.klass: m.orbit for m in members}
    assert sum(sizes.values()) == len(some)


def test_classes_agree_with_orbits_in_the_plane():
    puzzle = api.load("iq-block-8")
    grids = found.packing_solutions(puzzle)
    members = found.packing_classes(puzzle, grids)
    assert [m.klass for m in members] == orbits(puzzle, grids, "symmetry")
    assert len({m.klass for m in members}) == 6


def test_soma_solution_drawing(soma):
    grid = found.packing_solutions(soma, limit=1)[0]
    made = packing3d.assembly(soma, grid)
    assert made.size == (3, 3, 3) and len(made.owner()) == 27
    root = ET.fromstring(packing3d.draw(soma, grid, "a Soma solution").to_string())
    faces = [e for e in root.iter(f"{NS}polygon") if e.get("class") == "face"]
    assert len(faces) == 27  # a full 3x3x3 cube shows three sides of nine faces
    cells = [e for e in root.iter() if e.get("class") == "cell"]
    assert len(cells) == 27
    names = [p.name for p in soma.pieces]
    assert sorted(c.get("data-piece") for c in cells) == sorted(
        names[piece] for piece in grid.values())


def test_soma_pieces_drawing_shows_each_piece(soma):
    root = ET.fromstring(packing3d.pieces(soma).to_string())
    groups = [g for g in root.iter(f"{NS}g") if g.get("class") == "piece"]
    assert [g.get("data-piece") for g in groups] == [p.name for p in soma.pieces]
    for group, piece in zip(groups, soma.pieces):
        faces = [e for e in group.iter(f"{NS}polygon") if e.get("class") == "face"]
        cells = {c: 0 for c in packing3d.piece_cells(piece.cells)}
        assert len(faces) == len(solid.visible_faces(cells))


@pytest.mark.slow
def test_soma_gallery_classes(tmp_path, soma, monkeypatch):
    monkeypatch.setattr(gallery, "COUNT_SECONDS", None)  # its count is no race with the clock
    shown = gallery.build_gallery(soma, "symmetry", cap=12)
    assert shown.statement.startswith("11,520 solutions")
    assert "240 classes under the box's 48 symmetries" in shown.statement
    assert shown.total == 240 and len(shown.figures) == 12
    assert sum(1 for f in shown.figures if "orbit of 48" in f.caption) == 12
    pages = gallery.write_gallery(shown, tmp_path)
    assert (tmp_path / "class-0001.svg").exists() and pages[0].name == "index.html"


def test_export_stl_from_the_command_line(tmp_path, soma):
    pytest.importorskip("stl.mesh", reason="numpy-stl is not installed (extra 'stl')")
    from stl import mesh

    archive = tmp_path / "soma.zip"
    assert main(["export", "soma", "--format", "stl", "-o", str(archive)]) == 0
    files = zipfile.ZipFile(archive)
    names = sorted(files.namelist())
    assert names == sorted(["assembled.stl", "README.txt"]
                           + [f"piece-{p.name}.stl" for p in soma.pieces])
    cube = 20.0
    for piece in soma.pieces:
        body = mesh.Mesh.from_file("p", fh=io.BytesIO(files.read(f"piece-{piece.name}.stl")))
        assert body.get_mass_properties()[0] == pytest.approx(len(piece.cells) * cube**3)
        assert body.is_closed(exact=True)
        lowest = min(max(axis) + 1 for axis in zip(*piece.cells))
        assert body.max_[2] == pytest.approx(lowest * cube)  # on its flattest side
    whole = mesh.Mesh.from_file("a", fh=io.BytesIO(files.read("assembled.stl")))
    assert whole.get_mass_properties()[0] == pytest.approx(27 * cube**3)
    folder = tmp_path / "soma-stl"
    assert main(["export", "soma", "--format", "stl", "-o", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == names


def test_export_stl_of_a_flat_puzzle_is_refused(tmp_path, capsys):
    assert main(["export", "iq-block-8", "--format", "stl", "-o", str(tmp_path / "x.zip")]) == 2
    assert "puzzles in space" in capsys.readouterr().err


def test_page_solutions_are_of_different_classes(soma):
    grids = found.distinct_packing_solutions(soma, 5, 100)
    assert len(grids) == 5
    keys = found.packing_class_keys(soma, grids)
    assert len(set(keys)) == 5
    # each is the first of its class met: every solution listed before it is of an earlier class
    listed = found.packing_solutions(soma, limit=100)
    firsts = []
    for key, grid in zip(found.packing_class_keys(soma, listed), listed):
        if key not in {k for k, _ in firsts}:
            firsts.append((key, grid))
    assert grids == [grid for _, grid in firsts[:5]]


def test_export_stl_sizes_from_the_command_line(tmp_path, capsys):
    pytest.importorskip("stl.mesh", reason="numpy-stl is not installed (extra 'stl')")
    from stl import mesh

    folder = tmp_path / "small"
    assert main(["export", "soma", "--format", "stl", "--cube", "15", "--clearance", "0.25",
                 "-o", str(folder)]) == 0
    v = mesh.Mesh.from_file(str(folder / "piece-V.stl"))  # three cubes in an L, one layer
    assert v.get_mass_properties()[0] == pytest.approx(
        (29.5 * 14.5 + 14.5 * 15) * 14.5, rel=1e-5)
    assert main(["export", "soma", "--format", "dimacs", "--cube", "15",
                 "-o", str(tmp_path / "x.cnf")]) == 2
    assert '--cube: applies to STL files only (format "stl")' in capsys.readouterr().err
    assert main(["export", "soma", "--format", "stl", "--cube", "0", "-o", str(folder)]) == 2


def test_a_challenge_drawing_names_its_placed_pieces():
    card = api.load("soma-challenge")
    grid = found.packing_solutions(card, limit=1)[0]
    title = ET.fromstring(packing3d.draw(card, grid, "the solution").to_string()).find(
        f"{NS}title").text
    assert title == "the solution; pre-placed: " + ", ".join(
        card.pieces[p.piece].name for p in card.placed)


def test_a_gallery_not_counted_in_its_bound_says_so(soma, monkeypatch):
    """A gallery lists only what it draws (3 classes here, not the first 256 solutions as it
    did); its count, not finished within COUNT_SECONDS, is said to be missing."""
    monkeypatch.setattr(gallery, "COUNT_SECONDS", 0.01)
    shown = gallery.build_gallery(soma, "symmetry", cap=3)
    listed = len(shown.listing.members)
    assert shown.statement.startswith(f"The first {listed} solutions ")
    assert "not counted in 0.01 s here: `puzzlesat count soma` counts them all" in \
        shown.statement
    assert [f.caption for f in shown.figures] == [f"class {i}: orbit of 48" for i in (1, 2, 3)]
    keys = found.packing_class_keys(soma, found.packing_solutions(soma, limit=listed))
    assert len(set(keys)) == 3 == shown.total and len(set(keys[:-1])) == 2
