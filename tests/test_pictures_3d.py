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
    for grid in grids:
        for s in puzzle_symmetries(soma, "symmetry"):
            image = {s.move(cell): s.twin[piece] for cell, piece in grid.items()}
            seen.setdefault(tuple(sorted(image.items())), image)
    return list(seen.values())


def orbits(puzzle, grids, modulo) -> list[int]:
    """Class numbers by walking orbits: a solution joins the class of the first solution one
    of the symmetries maps onto it."""
    number: dict[tuple, int] = {}
    out = []
    for grid in grids:
        images = [tuple(sorted({s.move(c): s.twin[p] for c, p in grid.items()}.items()))
                  for s in puzzle_symmetries(puzzle, modulo)]
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
    cells = [e for e in root.iter(f"{NS}rect") if e.get("class") == "cell"]
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
def test_soma_gallery_classes(tmp_path, soma):
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
