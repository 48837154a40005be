"""Every lattice has every part, and a lattice without one is an error naming it.

A lattice (models/geometry.py) answers every geometric question; the parts kept elsewhere on
purpose are keyed by the lattice's name: the reference solver's own geometry
(runners/backends/reference_packing.py GEOMETRIES), the drawing as text (runners/terminal.py
TEXT) and the pictures (runners/pictures/packing.py DRAWINGS). A lattice missing any of them
fails here; a puzzle on such a lattice is refused with its name, never drawn or solved as
another lattice's.
"""

from __future__ import annotations

import inspect

import pytest

from puzzlesat import terminal
from puzzlesat.backends import reference_packing as reference
from puzzlesat.models import geometry
from puzzlesat.models.errors import InputError
from puzzlesat.models.geometry import LATTICES, Lattice, SquareLattice
from puzzlesat.models.packing import CellPiece, CellPuzzle, placements
from puzzlesat.pictures import packing as pictures

CAPABILITIES = {"plane", "space", "stl"}
# a piece of each lattice, as a picture in its own format (turned and moved, it stays itself)
SAMPLE = {
    "square": "XX.\n.XX\n.X.",
    "cubic": "XX\nX.\n---\n.X\n..",
    "triangular": " ^v^\n^v",
    "hexagonal": " X X\nX . X\n X",
    "balls": "XX\nX.\n---\nX",
    "ball-layer": "XX.\n.XX\n.X.",
}


@pytest.mark.parametrize("name", sorted(LATTICES))
def test_a_lattice_has_every_part(name):
    grid = LATTICES[name]
    assert isinstance(grid, Lattice) and not type(grid).__abstractmethods__
    assert grid.name == name and grid.dimensions == len(grid.letters)
    assert grid.capabilities and grid.capabilities <= CAPABILITIES
    assert ("plane" in grid.capabilities) != ("space" in grid.capabilities)
    assert "stl" not in grid.capabilities or "space" in grid.capabilities
    assert name in reference.GEOMETRIES, "the reference solver has no geometry of its own"
    assert name in terminal.TEXT, "no drawing as text"
    assert name in pictures.DRAWINGS, "no pictures"
    assert name in SAMPLE, "no sample piece in this test"
    cells = grid.picture_cells(SAMPLE[name])
    assert grid.normalise(grid.picture_cells(grid.picture(cells))) == grid.normalise(cells)
    if "plane" in grid.capabilities:
        assert pictures.DRAWINGS[name] == "plane"
        for cell in cells:
            assert len(grid.outline(cell)) >= 3
            assert len(grid.text_cell(cell)) == 2
    else:  # cubes or balls in space
        assert pictures.DRAWINGS[name] in ("space", "balls")
        assert all(len(grid.position(cell)) == 3 for cell in cells)


def test_a_lattice_missing_a_method_cannot_be_built():
    class Half(Lattice):
        name = "half"

    with pytest.raises(TypeError, match="abstract"):
        Half()
    assert "adjacent" in Half.__abstractmethods__  # no default neighbours: squares' are wrong


class Fake(SquareLattice):
    """The square lattice under another name: it has none of the parts kept by name."""

    name = "fake"


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setitem(LATTICES, "fake", Fake())
    board = tuple((r, c) for r in range(2) for c in range(2))
    return CellPuzzle("on-fake", board, (CellPiece("A", ((0, 0), (0, 1))),
                                         CellPiece("B", ((0, 0), (0, 1)))), lattice_name="fake")


def test_a_lattice_without_its_parts_is_an_error_naming_it(fake):
    assert len(placements(fake)) == 8  # the lattice itself answers the models' questions
    grid = {(0, 0): 0, (0, 1): 0, (1, 0): 1, (1, 1): 1}
    for attempt in (lambda: reference.model(fake),
                    lambda: terminal.draw_packing(fake, grid, colour=False),
                    lambda: pictures.pieces(fake),
                    lambda: pictures.page(fake),
                    lambda: pictures.gallery(fake, "symmetry", 10)):
        with pytest.raises(InputError, match="the fake lattice has no"):
            attempt()


def test_an_unknown_lattice_name_is_an_error():
    with pytest.raises(InputError, match="unknown lattice 'hexagonal-ish'"):
        geometry.lattice("hexagonal-ish")
    with pytest.raises(InputError, match="unknown lattice"):
        _ = CellPuzzle("x", ((0, 0),), (CellPiece("A", ((0, 0),)),), lattice_name="nope").lattice


def test_no_code_guesses_a_lattice_from_the_length_of_a_cell():
    """The silent fall-throughs of issue 24: geometry chosen by 'is it 3D' or a cell's length."""
    for module in (reference, terminal, pictures):
        source = inspect.getsource(module)
        assert "dimensions ==" not in source and "len(cells[0])" not in source
        assert "len(puzzle.board_cells[0])" not in source
