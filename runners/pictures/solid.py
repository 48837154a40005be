"""Drawings of solids packed in a box: an isometric view of the assembly and its layers.

An `Assembly` is plain data: each piece's name and cells (integer (x, y, z)) in the puzzle's
order of pieces (its colours are the packing drawing's), and the box's size. A puzzle file's
cell (layer, row, column) is (x, y, z) = (row, column, layer): rows run towards the viewer,
columns to the right, layers up, a right-handed frame, so pieces are drawn and printed as
themselves, never as their mirror images. The pure geometry here (faces of a union of unit
cubes, which of them the isometric view shows and in what order, the layers) is shared by the
SVG drawings, the 3D page and the STL meshes, so the three show the same surfaces.

The isometric view looks along (-1, -1, -1), from above the corner at the last row and the last
column of the layers as drawn (their bottom right): the faces seen are those facing +x, +y and
+z (shaded medium, dark and light) and a cube can hide only cubes of smaller x + y + z, so drawing
cubes by increasing x + y + z is a correct painter's order (cubes of equal sum project onto
hexagons that tile the plane, never overlapping).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .packing import draw_owner_grid, piece_colour
from .svg import Svg, darker, lighter

Cell3 = tuple[int, int, int]  # (x, y, z): z the layer, 0 at the bottom
Direction = tuple[int, int, int]  # a unit vector along one axis
Face = tuple[Cell3, Direction]  # the side of a cell facing a direction
Point = tuple[float, float, float]

DIRECTIONS: tuple[Direction, ...] = (
    (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1),
)
# What the isometric view shows: the sides facing +x, +y, +z, each with its shade.
SEEN: dict[Direction, float] = {(0, 0, 1): 0.0, (1, 0, 0): 0.18, (0, 1, 0): 0.36}


@dataclass(frozen=True)
class Assembly:
    """A solution in 3D: (piece name, its cells) for every piece, and the box (rows along x,
    columns along y, layers along z). Pieces keep the puzzle's order, which gives their
    colours."""

    pieces: tuple[tuple[str, tuple[Cell3, ...]], ...]
    size: tuple[int, int, int]
    colours: tuple[str, ...] = ()  # each piece's colour (default: the packing palette in order)

    @classmethod
    def of(cls, cells_by_piece: Mapping[str, Iterable[Cell3]], size: Sequence[int],
           order: Sequence[str] | None = None) -> Assembly:
        """An assembly from a mapping piece name -> cells (order: the puzzle's piece names; a
        piece of the order missing from the mapping keeps its colour, and is left out)."""
        names = list(order) if order is not None else list(cells_by_piece)
        kept = [i for i, name in enumerate(names) if name in cells_by_piece]
        return cls(tuple((names[i], tuple(sorted(map(tuple, cells_by_piece[names[i]]))))
                         for i in kept), tuple(size), tuple(piece_colour(i) for i in kept))

    @classmethod
    def from_owner(cls, owner: Mapping[Cell3, int], names: Sequence[str],
                   size: Sequence[int]) -> Assembly:
        """An assembly from a solution given as cell (x, y, z) -> piece index (names: the
        puzzle's)."""
        cells: dict[str, list[Cell3]] = {}
        for cell, piece in owner.items():
            cells.setdefault(names[piece], []).append(tuple(cell))
        return cls.of(cells, size, names)

    @classmethod
    def from_layers(cls, solution: Mapping[tuple[int, int, int], int], names: Sequence[str],
                    layers: int, rows: int, columns: int) -> Assembly:
        """An assembly from a puzzle's solution: cell (layer, row, column) -> piece index."""
        owner = {(r, c, layer): piece for (layer, r, c), piece in solution.items()}
        return cls.from_owner(owner, names, (rows, columns, layers))

    def owner(self) -> dict[Cell3, int]:
        """Which piece (its index) fills each cell."""
        return {cell: index for index, (_, cells) in enumerate(self.pieces) for cell in cells}

    def colour(self, index: int) -> str:
        return self.colours[index] if self.colours else piece_colour(index)

    def drawn(self, cells: Iterable[Cell3]) -> dict[str, object]:
        """What the 3D page draws of a piece: the faces of its surface (faces inside it left
        out), each as its cell and direction."""
        return {"faces": [[*cell, *direction] for cell, direction in surface(cells)]}


def box_name(size: Sequence[int]) -> str:
    """A box as puzzle makers name it, shortest side first: '2x3x10'."""
    return "x".join(str(n) for n in sorted(size))


def _add(a: Cell3, b: Direction) -> Cell3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def surface(cells: Iterable[Cell3]) -> list[Face]:
    """The faces of a union of unit cubes: every side of a cell whose neighbour is not in it
    (a face shared by two cells is inside and left out)."""
    filled = set(cells)
    return [(cell, d) for cell in sorted(filled) for d in DIRECTIONS
            if _add(cell, d) not in filled]


def face_corners(face: Face) -> list[Cell3]:
    """The four corners of a face, counter-clockwise seen from outside (so the right-hand rule
    gives the outward normal)."""
    cell, d = face
    k = next(i for i in range(3) if d[i])
    i, j = (k + 1) % 3, (k + 2) % 3  # e_i x e_j = e_k
    base = list(cell)
    if d[k] > 0:
        base[k] += 1
    corners = []
    for a, b in ((0, 0), (1, 0), (1, 1), (0, 1)):
        corner = list(base)
        corner[i] += a
        corner[j] += b
        corners.append(tuple(corner))
    return corners if d[k] > 0 else corners[::-1]


def triangles(cells: Iterable[Cell3], scale: float = 1.0,
              offset: Sequence[float] = (0, 0, 0), inset: float = 0.0
              ) -> list[tuple[Point, Point, Point]]:
    """The surface of a union of unit cubes as triangles (two per face), vertices counter-
    clockwise from outside: a closed mesh whose volume is the number of cells (times scale^3).

    `inset` (in output units) moves every face that far inwards (corners mitred: a corner moves
    along the sum of the outward normals of the faces meeting there), the clearance a printed
    piece needs to slide into its box; a corner where a piece touches itself across a plane
    (faces of opposite normals) keeps that coordinate."""
    faces = surface(cells)
    normals: dict[Cell3, set[Direction]] = {}
    if inset:
        for face in faces:
            for corner in face_corners(face):
                normals.setdefault(corner, set()).add(face[1])

    def place(corner: Cell3) -> Point:
        shift = [0.0, 0.0, 0.0]
        for d in normals.get(corner, ()):
            k = next(i for i in range(3) if d[i])
            opposite = tuple(-v for v in d)
            if opposite not in normals[corner]:
                shift[k] -= inset * d[k]
        return tuple(offset[n] + scale * corner[n] + shift[n] for n in range(3))

    out = []
    for face in faces:
        a, b, c, d = (place(p) for p in face_corners(face))
        out.append((a, b, c))
        out.append((a, c, d))
    return out


# ---------------------------------------------------------------- isometric view

COS30 = math.cos(math.pi / 6)


def isometric(point: Sequence[float], unit: float = 1.0) -> tuple[float, float]:
    """Where a point of space lands in the isometric drawing (y of the drawing downwards)."""
    x, y, z = point
    return ((x - y) * COS30 * unit, ((x + y) * 0.5 - z) * unit)


def visible_faces(owner: Mapping[Cell3, int]) -> list[Face]:
    """The faces the isometric view shows, in painter's order (farthest first): sides facing
    +x, +y or +z whose neighbour cell is empty, by increasing x + y + z of their cell."""
    faces = [(cell, d) for cell in owner for d in SEEN if _add(cell, d) not in owner]
    return sorted(faces, key=lambda f: (sum(f[0]), f[0], tuple(-v for v in f[1])))


def _perpendicular(d: Direction) -> list[Direction]:
    return [e for e in DIRECTIONS if not any(a and b for a, b in zip(d, e))]


def piece_edges(owner: Mapping[Cell3, int], face: Face) -> list[tuple[Cell3, Cell3]]:
    """The edges of a visible face drawn thick: where the surface across the edge belongs to
    another piece, and where the surface turns away from the viewer (the outline)."""
    cell, d = face
    mine = owner[cell]
    corners = face_corners(face)
    thick = []
    for e in _perpendicular(d):
        ahead = _add(_add(cell, d), e)
        beside = _add(cell, e)
        if ahead in owner:  # a concave edge: the surface goes on along the cell ahead
            other = owner[ahead] != mine
        elif beside in owner:  # the surface goes on flat
            other = owner[beside] != mine
        else:  # a convex edge: seen only when the side across it faces the viewer too
            other = e not in SEEN
        if other:
            # the corners lying on the side of the face towards e
            k = next(i for i in range(3) if e[i])
            edge_value = cell[k] + (1 if e[k] > 0 else 0)
            ends = [p for p in corners if p[k] == edge_value]
            thick.append((ends[0], ends[1]))
    return thick


MARGIN = 8


def draw_isometric(assembly: Assembly, title: str = "", unit: float = 26.0) -> Svg:
    """The assembled solution seen from above a corner: every visible face shaded in its piece's
    colour, thick lines between pieces and around the outline."""
    owner = assembly.owner()
    w, d, h = assembly.size
    box = [(x, y, z) for x in (0, w) for y in (0, d) for z in (0, h)]
    us, vs = zip(*(isometric(p, unit) for p in box))
    top = MARGIN + (18 if title else 0)
    dx, dy = MARGIN - min(us), top - min(vs)
    svg = Svg(max(us) - min(us) + 2 * MARGIN, max(vs) - min(vs) + top + MARGIN,
              title or "an assembly")
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    group = svg.group(class_="isometric")
    names = [name for name, _ in assembly.pieces]

    def at(p: Sequence[float]) -> tuple[float, float]:
        u, v = isometric(p, unit)
        return (u + dx, v + dy)

    for face in visible_faces(owner):
        cell, direction = face
        piece = owner[cell]
        colour = assembly.colour(piece)
        fill = darker(colour, SEEN[direction]) if SEEN[direction] else lighter(colour, 0.12)
        svg.polygon([at(p) for p in face_corners(face)], group, class_="face", fill=fill,
                    stroke=darker(colour, 0.45), stroke_width=0.5, stroke_linejoin="round",
                    data_piece=names[piece], data_cell=",".join(map(str, cell)),
                    data_side="xyz"[direction.index(1)])
        for a, b in piece_edges(owner, face):
            svg.line(*at(a), *at(b), group, stroke="#222222", stroke_width=1.8,
                     stroke_linecap="round")
    return svg


# ---------------------------------------------------------------- layers


def layers(assembly: Assembly) -> list[dict[tuple[int, int], int]]:
    """Each layer from the bottom, as (row, column) = (x, y) -> piece index."""
    owner = assembly.owner()
    out: list[dict[tuple[int, int], int]] = [{} for _ in range(assembly.size[2])]
    for (x, y, z), piece in owner.items():
        out[z][(x, y)] = piece
    return out


def draw_layers(assembly: Assembly, title: str = "", cell: float = 22.0, gap: float = 18.0) -> Svg:
    """The layers side by side, bottom (layer 1) first, each drawn as a packing board coloured by
    piece, as a puzzle file draws them (rows x downwards, columns y to the right; the isometric
    view's nearest corner is each layer's bottom right)."""
    d, w, h = assembly.size  # rows, columns, layers
    names = [name for name, _ in assembly.pieces]
    top = MARGIN + (18 if title else 0) + 16
    slot = max(w * cell, 46) + gap
    svg = Svg(h * slot - gap + 2 * MARGIN, d * cell + top + MARGIN, title or "layers")
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    for z, grid in enumerate(layers(assembly)):
        x0 = MARGIN + z * slot
        label = "bottom" if z == 0 else "top" if z == h - 1 else f"layer {z + 1}"
        svg.text(x0, top - 9, label, size=11, anchor="start")
        group = svg.group(class_="layer", data_layer=z + 1)
        draw_owner_grid(svg, grid, names, [(r, c) for r in range(d) for c in range(w)],
                        x0, top, cell, group, colour=assembly.colour)
    return svg


def draw_solution(assembly: Assembly, title: str = "", unit: float = 26.0) -> Svg:
    """The isometric view with the layers beside it: what `draw` and `gallery` show in 3D."""
    view = draw_isometric(assembly, "", unit)
    flat = draw_layers(assembly, "", cell=max(12.0, unit * 0.75))
    top = MARGIN + (18 if title else 0)
    svg = Svg(view.width + flat.width, max(view.height, flat.height) + top, title or "a solution")
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    left = svg.group(transform=f"translate(0,{top})")
    left.extend(list(view.root)[1:])  # leave out the title element
    right = svg.group(transform=f"translate({view.width:.2f},{top})")
    right.extend(list(flat.root)[1:])
    return svg


def draw_pieces(pieces: Sequence[tuple[str, Iterable[Cell3]]], title: str = "",
                unit: float = 18.0, per_row: int = 7) -> Svg:
    """The piece reference of a 3D puzzle: each piece alone, in the isometric view, named."""
    drawn = []
    for index, (name, cells) in enumerate(pieces):
        cells = list(cells)
        low = [min(c[i] for c in cells) for i in range(3)]
        placed = [tuple(c[i] - low[i] for i in range(3)) for c in cells]
        size = tuple(max(c[i] for c in placed) + 1 for i in range(3))
        alone = Assembly(((name, tuple(sorted(placed))),), size, (piece_colour(index),))
        drawn.append((name, draw_isometric(alone, "", unit)))
    slot_w = max(view.width for _, view in drawn)
    slot_h = max(view.height for _, view in drawn) + 16
    columns = min(per_row, len(drawn))
    lines = -(-len(drawn) // columns)
    top = MARGIN + (18 if title else 0)
    svg = Svg(columns * slot_w, lines * slot_h + top, title or "the pieces")
    if title:
        svg.text(MARGIN, MARGIN + 8, title, size=12, anchor="start")
    for index, (name, view) in enumerate(drawn):
        x0 = (index % columns) * slot_w
        y0 = top + (index // columns) * slot_h
        group = svg.group(class_="piece", data_piece=name,
                          transform=f"translate({x0:.2f},{y0 + 16:.2f})")
        svg.text(x0 + MARGIN, y0 + 10, name, size=12, anchor="start", font_weight="bold")
        group.extend(list(view.root)[1:])
    return svg
