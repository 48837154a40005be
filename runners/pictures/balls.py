"""The pictures of packing puzzles of balls (the ball lattice): what `draw`, `gallery`, `play`
and `export --format stl` make of them.

The packing family's pictures module (packing.py) hands puzzles on the ball lattice over to this
module. A solution (ball (layer, row, column) -> piece index) becomes a `BallAssembly`: each
piece's balls as centres in space, where the lattice puts them (`Lattice.position`: x along the
rows, y along the columns, z up, a right-handed frame, so a piece is never shown as its mirror
image; balls of diameter 1). It is drawn as shaded balls in the isometric view of the solid
drawings (farthest first) with the layers beside it seen from above, shown as spheres on the 3D
page (viewer.py), and printed as spheres joined by rods (`print_set`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models.errors import InputError
from ..models.geometry import Cell, Lattice
from ..models.packing import PackingPuzzle
from ..models.words import plural
from . import packing3d
from . import stl as print_stl
from .packing import piece_colour
from .solid import MARGIN, isometric
from .svg import Svg, darker, lighter, text_colour

Point = tuple[float, float, float]
RADIUS = 0.5  # a ball's radius, balls touching one another 1 apart
ROD = 0.2  # the radius of a printed rod joining two balls of a piece, a ball's diameter 1
SPHERE_STEPS = 16  # a printed sphere's facets: 16 around, 8 from pole to pole


@dataclass(frozen=True)
class BallAssembly:
    """A solution of balls in space: (piece name, its balls' centres) for every piece, in the
    puzzle's order of pieces (which gives their colours), and the size of the box holding the
    balls (its corner at the origin)."""

    pieces: tuple[tuple[str, tuple[Point, ...]], ...]
    size: tuple[float, float, float]
    colours: tuple[str, ...] = ()

    @classmethod
    def of(cls, lattice: Lattice, cells_by_piece: dict[str, Iterable[Cell]],
           order: Sequence[str], board: Iterable[Cell] | None = None) -> BallAssembly:
        """The pieces (name -> balls on the lattice, in the puzzle's `order` of names) at the
        lattice's positions; the box holds the board's balls (default: the pieces')."""
        kept = [i for i, name in enumerate(order) if name in cells_by_piece]
        pieces = tuple((order[i], tuple(lattice.position(c) for c in sorted(cells_by_piece[
            order[i]]))) for i in kept)
        every = [lattice.position(c) for c in board] if board is not None else [
            p for _, centres in pieces for p in centres]
        low = [min(p[k] for p in every) - RADIUS for k in range(3)]
        moved = tuple((name, tuple(tuple(p[k] - low[k] for k in range(3)) for p in centres))
                      for name, centres in pieces)
        size = tuple(max(p[k] for p in every) + RADIUS - low[k] for k in range(3))
        return cls(moved, size, tuple(piece_colour(i) for i in kept))

    def colour(self, index: int) -> str:
        return self.colours[index] if self.colours else piece_colour(index)

    def drawn(self, centres: Sequence[Point]) -> dict[str, object]:
        """What the 3D page draws of a piece: its balls and the rods between those touching."""
        return {"balls": [[round(x, 4) for x in p] for p in centres],
                "bonds": [list(pair) for pair in bonds(centres)]}


def bonds(centres: Sequence[Point]) -> list[tuple[int, int]]:
    """The pairs of balls of a piece that touch (centres a diameter apart)."""
    return [(i, j) for i in range(len(centres)) for j in range(i + 1, len(centres))
            if abs(math.dist(centres[i], centres[j]) - 2 * RADIUS) < 1e-6]


def assembly(puzzle: PackingPuzzle, grid: dict[Cell, int]) -> BallAssembly:
    """A solution of the puzzle as balls in space, in the box of the board."""
    cells: dict[str, list[Cell]] = {}
    for cell, piece in grid.items():
        cells.setdefault(puzzle.pieces[piece].name, []).append(cell)
    return BallAssembly.of(puzzle.lattice, cells, [p.name for p in puzzle.pieces],
                           puzzle.board_cells)


# ---------------------------------------------------------------- drawings


def _shaded(svg: Svg, colour: str) -> str:
    """A radial gradient lighting a ball of this colour from above (its id, made once)."""
    key = "ball-" + colour.lstrip("#")
    if svg.root.find(f".//*[@id='{key}']") is None:
        defs = svg.add("defs")
        gradient = svg.add("radialGradient", defs, id=key, cx="38%", cy="32%", r="70%")
        svg.add("stop", gradient, offset="0%", stop_color=lighter(colour, 0.55))
        svg.add("stop", gradient, offset="55%", stop_color=colour)
        svg.add("stop", gradient, offset="100%", stop_color=darker(colour, 0.35))
    return f"url(#{key})"


def draw_isometric(made: BallAssembly, unit: float = 26.0) -> Svg:
    """The balls seen from above the corner at the largest x and y (the cubic drawings' view),
    the farthest first."""
    every = [(p, index) for index, (_, centres) in enumerate(made.pieces) for p in centres]
    w, d, h = made.size
    corners = [(x, y, z) for x in (0, w) for y in (0, d) for z in (0, h)]
    us, vs = zip(*(isometric(p, unit) for p in corners))
    svg = Svg(max(us) - min(us) + 2 * MARGIN, max(vs) - min(vs) + 2 * MARGIN, "balls")
    dx, dy = MARGIN - min(us), MARGIN - min(vs)
    group = svg.group(class_="isometric")
    names = [name for name, _ in made.pieces]
    for p, index in sorted(every, key=lambda e: (sum(e[0]), e[0])):
        u, v = isometric(p, unit)
        colour = made.colour(index)
        svg.circle(u + dx, v + dy, RADIUS * unit, group, class_="ball",
                   fill=_shaded(svg, colour), stroke=darker(colour, 0.5), stroke_width=0.7,
                   data_piece=names[index])
    return svg


def draw_layers(made: BallAssembly, puzzle: PackingPuzzle, grid: dict[Cell, int],
                cell: float = 20.0, gap: float = 18.0) -> Svg:
    """The layers side by side, bottom first, each seen from above as its picture draws it
    (rows downwards, columns to the right), a ball in its piece's colour and the balls of a
    piece that touch in the layer joined."""
    names = [p.name for p in puzzle.pieces]
    board = puzzle.board_cells
    levels = sorted({c[0] for c in board})
    rows = 1 + max(c[1] for c in board) - min(c[1] for c in board)
    columns = 1 + max(c[2] for c in board) - min(c[2] for c in board)
    r0, c0 = min(c[1] for c in board), min(c[2] for c in board)
    top = MARGIN + 16
    slot = max(columns * cell, 46) + gap
    svg = Svg(len(levels) * slot - gap + 2 * MARGIN, rows * cell + top + MARGIN, "layers")
    for k, level in enumerate(levels):
        x0 = MARGIN + k * slot
        label = "bottom" if k == 0 else "top" if k == len(levels) - 1 else f"layer {k + 1}"
        svg.text(x0, top - 9, label, size=11, anchor="start")
        group = svg.group(class_="layer", data_layer=k + 1)
        here = {(r, c): grid.get((level, r, c)) for lv, r, c in board if lv == level}

        def centre(r: int, c: int, x0: float = x0) -> tuple[float, float]:
            return x0 + (c - c0 + 0.5) * cell, top + (r - r0 + 0.5) * cell

        for (r, c), piece in here.items():  # joins first, under the balls
            for nr, nc in ((r, c + 1), (r + 1, c)):
                if piece is not None and here.get((nr, nc)) == piece:
                    svg.line(*centre(r, c), *centre(nr, nc), group, stroke=darker(
                        made.colour(piece), 0.45), stroke_width=cell * 0.28)
        for (r, c), piece in sorted(here.items()):
            fill = "#ffffff" if piece is None else made.colour(piece)
            svg.circle(*centre(r, c), cell * 0.44, group, class_="ball", fill=fill,
                       stroke="#00000066", stroke_width=0.6, data_layer=level, data_row=r,
                       data_col=c, data_piece="" if piece is None else names[piece])
            if piece is not None:
                svg.text(*centre(r, c), names[piece][:1], group, size=cell * 0.45,
                         fill=text_colour(made.colour(piece)), font_weight="bold")
    return svg


def draw(puzzle: PackingPuzzle, grid: dict[Cell, int], caption: str) -> Svg:
    """One solution: the balls in the isometric view and the layers beside it (a challenge's
    caption names its pre-placed pieces)."""
    if puzzle.placed:
        caption += "; pre-placed: " + ", ".join(puzzle.pieces[p.piece].name
                                               for p in puzzle.placed)
    made = assembly(puzzle, grid)
    view = draw_isometric(made)
    flat = draw_layers(made, puzzle, grid)
    top = MARGIN + (18 if caption else 0)
    svg = Svg(view.width + flat.width, max(view.height, flat.height) + top, caption or
              puzzle.name)
    if caption:
        svg.text(MARGIN, MARGIN + 8, caption, size=12, anchor="start")
    left = svg.group(transform=f"translate(0,{top})")
    left.extend(list(view.root)[1:])
    right = svg.group(transform=f"translate({view.width:.2f},{top})")
    right.extend(list(flat.root)[1:])
    return svg


def pieces(puzzle: PackingPuzzle, unit: float = 20.0, per_row: int = 6) -> Svg:
    """The piece reference: each piece as the file gives it, its balls in the isometric view."""
    drawn = []
    for index, piece in enumerate(puzzle.pieces):
        alone = BallAssembly.of(puzzle.lattice, {piece.name: piece.cells}, [piece.name])
        alone = BallAssembly(alone.pieces, alone.size, (piece_colour(index),))
        drawn.append((piece.name, draw_isometric(alone, unit)))
    slot_w = max(view.width for _, view in drawn)
    slot_h = max(view.height for _, view in drawn) + 16
    columns = min(per_row, len(drawn))
    lines = -(-len(drawn) // columns)
    title = f"{puzzle.name}: the {plural(len(drawn), 'piece')}"
    svg = Svg(columns * slot_w, lines * slot_h + MARGIN + 18, title)
    svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    for index, (name, view) in enumerate(drawn):
        x0 = (index % columns) * slot_w
        y0 = MARGIN + 18 + (index // columns) * slot_h
        group = svg.group(class_="piece", data_piece=name,
                          transform=f"translate({x0:.2f},{y0 + 16:.2f})")
        svg.text(x0 + MARGIN, y0 + 10, name, size=12, anchor="start", font_weight="bold")
        group.extend(list(view.root)[1:])
    return svg


def gallery(puzzle: PackingPuzzle, modulo: str, cap: int, say=None, only: int | None = None):
    """The first solutions (or one per class under the board's symmetries), drawn as balls."""
    return packing3d.gallery(puzzle, modulo, cap, draw=draw, pieces=pieces, say=say, only=only)


def page(puzzle: PackingPuzzle, say=None) -> str:
    """The 3D page: solutions of different classes as spheres, turned by dragging and built
    piece by piece."""
    return packing3d.page(puzzle, assembly=assembly, say=say)


# ---------------------------------------------------------------- files to print


def _sphere(centre: Point, radius: float) -> list[tuple[Point, Point, Point]]:
    """A closed sphere of triangles (a UV sphere: SPHERE_STEPS around, half as many from
    pole to pole), its faces turned outwards."""
    n, m = SPHERE_STEPS, SPHERE_STEPS // 2

    def at(i: int, j: int) -> Point:
        theta, phi = 2 * math.pi * i / n, math.pi * j / m
        return (centre[0] + radius * math.sin(phi) * math.cos(theta),
                centre[1] + radius * math.sin(phi) * math.sin(theta),
                centre[2] + radius * math.cos(phi))

    triangles = []
    for j in range(m):
        for i in range(n):
            a, b, c, d = at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)
            if j > 0:
                triangles.append((a, c, b))
            if j < m - 1:
                triangles.append((a, d, c))
    return triangles


def _rod(start: Point, end: Point, radius: float) -> list[tuple[Point, Point, Point]]:
    """A closed cylinder of triangles from one centre to another."""
    axis = [e - s for s, e in zip(start, end)]
    length = math.hypot(*axis)
    w = [a / length for a in axis]
    helper = (1.0, 0.0, 0.0) if abs(w[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = _unit(_cross(w, helper))
    v = _cross(w, u)
    n = SPHERE_STEPS

    def ring(base: Point, i: int) -> Point:
        t = 2 * math.pi * i / n
        return tuple(base[k] + radius * (math.cos(t) * u[k] + math.sin(t) * v[k])
                     for k in range(3))

    triangles = []
    for i in range(n):
        a, b = ring(start, i), ring(start, i + 1)
        c, d = ring(end, i + 1), ring(end, i)
        triangles += [(a, b, c), (a, c, d), (start, b, a), (end, d, c)]
    return triangles


def _cross(a: Sequence[float], b: Sequence[float]) -> Point:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(a: Sequence[float]) -> Point:
    length = math.hypot(*a)
    return tuple(x / length for x in a)


def _mesh(bodies: Sequence[Sequence[Point]], ball: float, clearance: float, name: str,
          lift: bool = False):
    """One numpy-stl mesh of pieces of balls: each ball a sphere `ball` mm across less the
    clearance, each pair touching joined by a rod (lift: the piece resting on the bed)."""
    numpy, mesh = print_stl._numpy_stl()
    radius = RADIUS * ball - clearance
    triangles = []
    for centres in bodies:
        points = [tuple(x * ball for x in p) for p in centres]
        if lift:
            low = [min(p[k] for p in points) - radius for k in range(3)]
            points = [tuple(p[k] - low[k] for k in range(3)) for p in points]
        for p in points:
            triangles += _sphere(p, radius)
        for i, j in bonds(centres):
            triangles += _rod(points[i], points[j], ROD * ball)
    made = mesh.Mesh(numpy.zeros(len(triangles), dtype=mesh.Mesh.dtype), name=name)
    made.vectors[:] = numpy.array(triangles, dtype=numpy.float32)
    made.update_normals()
    return made


def lying_flat(lattice: Lattice, cells: Iterable[Cell]) -> list[Point]:
    """A piece's centres turned (by a rotation of the lattice) to lie on the bed with as many
    balls on it as can be: a flat piece lies flat."""
    best = None
    for shape in lattice.orientations(list(cells), False):
        centres = [lattice.position(cell) for cell in shape]
        low = min(p[2] for p in centres)
        key = (-sum(abs(p[2] - low) < 1e-6 for p in centres), shape)
        if best is None or key < best[0]:
            best = (key, centres)
    return best[1]


def print_set(puzzle: PackingPuzzle, ball: float = print_stl.CUBE_MM, clearance: float = 0.0
              ) -> tuple[dict[str, bytes], str]:
    """STL files to print the puzzle (every piece lying on its flattest side, the first
    solution assembled) and README.txt, and a line saying what they are."""
    if not ball > 0:
        raise InputError(f"a ball's diameter must be more than 0 mm, not {ball:g}",
                         field="cube")
    if not 0 <= clearance < ball / 4:
        raise InputError(f"the clearance must be at least 0 and less than a quarter of the "
                         f"ball ({ball / 4:g} mm), not {clearance:g}", field="clearance")
    from . import solutions as found

    grids = found.packing_solutions(puzzle, limit=1)
    if not grids:
        raise InputError(f"{puzzle.name} has no solution to assemble", field="PUZZLE")
    made = assembly(puzzle, grids[0])
    title = puzzle.title or puzzle.name
    fit = (f"Every ball is {clearance:g} mm smaller in radius than the exact ball, so that the "
           "pieces fit." if clearance else "The balls are exact: print them slightly "
           "undersized (export --clearance MM) so that the pieces fit.")
    lines = [f"{title}: {plural(len(puzzle.pieces), 'piece')} to print, and the first solution the "
             "solver finds assembled.",
             f"Units: millimetres; a ball is {ball:g} mm across, the balls of a piece that "
             f"touch are joined by a rod {2 * ROD * ball:g} mm thick (each ball and rod a "
             "closed body: slicers merge them). " + fit, ""]
    files: dict[str, bytes] = {}
    for piece in puzzle.pieces:
        file_name = print_stl.piece_file_name(piece.name)
        centres = lying_flat(puzzle.lattice, piece.cells)
        files[file_name] = print_stl.stl_bytes(
            _mesh([centres], ball, clearance, piece.name, lift=True), piece.name)
        lines.append(f"{file_name}: piece {piece.name}, {plural(len(piece.cells), 'ball')}")
    files["assembled.stl"] = print_stl.stl_bytes(
        _mesh([centres for _, centres in made.pieces], ball, clearance, "assembled"),
        "assembled")
    lines.append(f"assembled.stl: the first solution, {puzzle.lattice.describe(puzzle.cells)}, "
                 "each piece at its place")
    files["README.txt"] = ("\n".join(lines) + "\n").encode()
    inset = f", radius {clearance:g} mm smaller" if clearance else ""
    return files, (f"{plural(len(puzzle.pieces), 'piece')} and the assembled solution as binary "
                   f"STL ({ball:g} mm balls{inset})")
