"""STL print sets: every file parses with numpy-stl (the library that wrote it), each piece is
one closed body of the right volume lying on its flattest side, the assembly fills the box."""

from __future__ import annotations

import io
import zipfile

import pytest

from puzzlesat.models.errors import InputError
from puzzlesat.output import zipped
from puzzlesat.pictures import stl as print_stl
from puzzlesat.pictures.solid import Assembly

mesh = pytest.importorskip("stl.mesh", reason="numpy-stl is not installed (extra 'stl')")

SMALL = Assembly.of(
    {
        "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)],
        "I": [(0, 1, 0), (1, 1, 0), (0, 2, 0), (1, 2, 0), (2, 2, 0)],
        "O": [(0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1)],
        "S/5": [(2, 0, 1), (2, 1, 1), (2, 2, 1), (1, 2, 1), (0, 2, 1)],
    },
    (3, 3, 2),
)


def parsed(data: bytes, name: str):
    return mesh.Mesh.from_file(name, fh=io.BytesIO(data))


def test_print_set_parses_with_volumes_and_closed_pieces():
    cube = 15.0
    files = print_stl.print_set(SMALL, "small", cube)
    sizes = {name: len(cells) for name, cells in SMALL.pieces}
    assert set(files) == {"piece-L.stl", "piece-I.stl", "piece-O.stl", "piece-S_5.stl",
                          "assembled.stl", "README.txt"}
    for name, cells in sizes.items():
        piece = parsed(files[print_stl.piece_file_name(name)], name)
        volume, _, _ = piece.get_mass_properties()
        assert volume == pytest.approx(cells * cube**3)
        assert piece.is_closed(exact=True)
        assert piece.min_.tolist() == [0, 0, 0]  # at the origin, on the bed
    whole = parsed(files["assembled.stl"], "assembled")
    assert whole.get_mass_properties()[0] == pytest.approx(18 * cube**3)
    assert whole.max_.tolist() == pytest.approx([3 * cube, 3 * cube, 2 * cube])
    assert b"piece-S_5.stl" in files["README.txt"]


def test_pieces_lie_flat_without_turning_over():
    upright = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 2)]  # an L standing on its foot
    flat = print_stl.lying_flat(upright)
    assert max(c[2] for c in flat) == 0  # one layer high
    # turned by (x, y, z) -> (y, z, x), a rotation: never the mirror image
    assert flat == ((0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 2, 0))


def test_zip_holds_every_file():
    files = print_stl.print_set(SMALL, "small")
    archive = zipfile.ZipFile(io.BytesIO(zipped(files)))
    assert sorted(archive.namelist()) == sorted(files)
    assert archive.read("assembled.stl") == files["assembled.stl"]


def test_print_set_written_to_a_folder_or_a_zip(tmp_path, capsys):
    from puzzlesat import output
    from puzzlesat.models.errors import InputError

    files = print_stl.print_set(SMALL, "small")
    folder = tmp_path / "small-stl"
    output.check_export(str(folder), "stl")
    output.write_export(str(folder), files, "4 pieces")
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)
    assert (folder / "piece-O.stl").read_bytes() == files["piece-O.stl"]
    archive = tmp_path / "small.zip"
    output.check_export(str(archive), "stl")
    output.write_export(str(archive), files, "4 pieces")
    assert zipfile.ZipFile(archive).read("README.txt") == files["README.txt"]
    with pytest.raises(InputError, match="standard output"):
        output.check_export("-", "stl")
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(InputError, match="names a file"):
        output.check_export(str(tmp_path / "a-file"), "stl")


def test_clearance_moves_every_face_inwards():
    cube, gap = 10.0, 0.3
    files = print_stl.print_set(SMALL, "small", cube, clearance=gap)
    o = parsed(files["piece-O.stl"], "O")  # a 2x2 square of cubes, one layer
    assert o.get_mass_properties()[0] == pytest.approx((20 - 2 * gap) ** 2 * (10 - 2 * gap),
                                                       rel=1e-5)
    assert o.min_.tolist() == [0, 0, 0]  # still on the bed, at the origin
    assert o.is_closed(exact=True)
    assert b"0.3 mm inside" in files["README.txt"]
    with pytest.raises(InputError, match="quarter"):
        print_stl.print_set(SMALL, "small", cube, clearance=cube / 4)
