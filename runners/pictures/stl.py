"""STL files of a 3D packing puzzle, to print it: every piece, and a solution assembled.

Meshes are the surfaces of unions of unit cubes (solid.triangles: faces shared by two cubes of a
piece left out, so each piece is one closed body), scaled to a cube's edge in millimetres, and
written as binary STL by numpy-stl (optional extra `stl`). A print set is what printing sites
hand out: one file per piece, lying on its flattest side at the origin, and `assembled.stl` with
every piece at its place in the box (one closed body per piece); `export` writes them to a
folder or a zip archive (output.write_files).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from ..models.errors import InputError
from ..models.words import plural
from .solid import Assembly, Cell3, box_name, triangles

CUBE_MM = 20.0  # a cube's edge: the size of the wooden Soma cube's cubes (about 2 cm)


def _numpy_stl():
    try:
        import numpy
        from stl import mesh
    except ImportError as error:
        raise InputError(
            "STL files need the optional package numpy-stl (pip install 'puzzlesat[stl]')",
            field="format",
        ) from error
    return numpy, mesh


def lying_flat(cells: Iterable[Cell3]) -> tuple[Cell3, ...]:
    """The piece turned (a proper rotation: the axes permuted cyclically, so a chiral piece stays
    itself) to lie on its flattest side, as many cubes as can be on the bed, at the origin."""
    cells = list(cells)
    best = None
    for shift in range(3):
        turned = [tuple(cell[(i + shift) % 3] for i in range(3)) for cell in cells]
        low = [min(c[i] for c in turned) for i in range(3)]
        placed = tuple(sorted(tuple(c[i] - low[i] for i in range(3)) for c in turned))
        height = max(c[2] for c in placed) + 1
        on_bed = sum(1 for c in placed if c[2] == 0)
        key = (height, -on_bed, placed)
        if best is None or key < best[0]:
            best = (key, placed)
    return best[1]


def mesh_of(bodies: Sequence[Iterable[Cell3]], cube: float = CUBE_MM, name: str = "",
            clearance: float = 0.0, offset: Sequence[float] = (0, 0, 0)):
    """One numpy-stl mesh holding the surface of each body (a union of cells), cube mm a cell,
    every face moved `clearance` mm inwards."""
    numpy, mesh = _numpy_stl()
    tris = [t for body in bodies for t in triangles(body, cube, offset, clearance)]
    made = mesh.Mesh(numpy.zeros(len(tris), dtype=mesh.Mesh.dtype), name=name)
    made.vectors[:] = numpy.array(tris, dtype=numpy.float32)
    made.update_normals()
    return made


def stl_bytes(made, name: str) -> bytes:
    """A mesh as a binary STL file."""
    from stl import Mode

    buffer = io.BytesIO()
    made.save(name, fh=buffer, mode=Mode.BINARY)
    return buffer.getvalue()


def piece_file_name(name: str) -> str:
    """A piece's STL file name: piece-NAME.stl, NAME made safe for any file system."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)
    return f"piece-{safe}.stl"


MAX_CUBE_MM = 1000.0  # a metre: larger than any printer prints, and far inside float32's range


def check_sizes(cube: float, clearance: float) -> None:
    """InputError unless a cube has a finite size a printer could print and the clearance
    leaves most of it (an infinite or huge size would write STL files full of inf and NaN)."""
    for name, value in (("cube", cube), ("clearance", clearance)):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise InputError(f"must be a number of millimetres, not {value!r}", field=name)
    if not 0 < cube <= MAX_CUBE_MM:
        raise InputError(f"a cube's edge must be more than 0 mm and at most {MAX_CUBE_MM:g} mm,"
                         f" not {cube:g}", field="cube")
    if not 0 <= clearance < cube / 4:
        raise InputError(f"the clearance must be at least 0 and less than a quarter of the "
                         f"cube ({cube / 4:g} mm), not {clearance:g}", field="clearance")


def print_set(assembly: Assembly, puzzle: str, cube: float = CUBE_MM,
              solution: str = "a solution", clearance: float = 0.0) -> dict[str, bytes]:
    """The files of a print set, by name: one STL per piece (every face `clearance` mm inwards,
    so printed pieces slide into place), `assembled.stl`, and README.txt."""
    check_sizes(cube, clearance)
    files: dict[str, bytes] = {}
    fit = (f"Every face is {clearance:g} mm inside the exact cube surface, so that the pieces "
           "fit the box." if clearance else
           "The pieces are exact: print them slightly undersized (export --clearance MM) or sand "
           "them so that they fit the box.")
    lines = [
        f"{puzzle}: {plural(len(assembly.pieces), 'piece')} to print, and {solution} assembled.",
        f"Units: millimetres; a cube is {cube:g} mm. {fit}",
        "",
    ]
    for name, cells in assembly.pieces:
        file_name = piece_file_name(name)
        on_bed = (-clearance,) * 3  # the inset piece back at the origin, on the bed
        files[file_name] = stl_bytes(
            mesh_of([lying_flat(cells)], cube, name, clearance, on_bed), name)
        lines.append(f"{file_name}: piece {name}, {plural(len(cells), 'cube')}")
    files["assembled.stl"] = stl_bytes(
        mesh_of([cells for _, cells in assembly.pieces], cube, "assembled", clearance),
        "assembled")
    lines.append(f"assembled.stl: {solution} in the {box_name(assembly.size)} box, each piece a "
                 "closed body at its place")
    files["README.txt"] = ("\n".join(lines) + "\n").encode()
    return files
