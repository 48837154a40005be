"""Pictures of solids: faces of unions of unit cubes, the isometric view's culling and painter's
order (checked by casting rays, a method sharing nothing with the sort), layers and drawings."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlesat.models.errors import InputError
from puzzlesat.pictures import solid, viewer
from puzzlesat.pictures.solid import Assembly

NS = "{http://www.w3.org/2000/svg}"

# A 3x3x2 box cut by hand into four pieces (an L, a bar, a square and an S), and a 2x2x2 one.
SMALL = Assembly.of(
    {
        "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)],
        "I": [(0, 1, 0), (1, 1, 0), (0, 2, 0), (1, 2, 0), (2, 2, 0)],
        "O": [(0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1)],
        "S": [(2, 0, 1), (2, 1, 1), (2, 2, 1), (1, 2, 1), (0, 2, 1)],
    },
    (3, 3, 2),
)
CUBE = Assembly.of({"a": [(0, 0, 0), (1, 0, 0)], "b": [(0, 1, 0), (1, 1, 0), (1, 1, 1)],
                    "c": [(0, 0, 1), (1, 0, 1), (0, 1, 1)]}, (2, 2, 2))


def random_assembly(seed: int, size=(3, 3, 3), pieces=5, fill=0.8) -> Assembly:
    """Random cells of a box, dealt out to pieces (pieces need not be connected here)."""
    rng = random.Random(seed)
    cells = [c for c in itertools.product(*map(range, size)) if rng.random() < fill]
    deal: dict[str, list] = {}
    for cell in cells:
        deal.setdefault(f"p{rng.randrange(pieces)}", []).append(cell)
    return Assembly.of(deal, size, sorted(deal))


def test_surface_leaves_out_shared_faces():
    assert len(solid.surface([(0, 0, 0)])) == 6
    assert len(solid.surface([(0, 0, 0), (1, 0, 0)])) == 10
    box = list(itertools.product(range(3), range(3), range(3)))
    assert len(solid.surface(box)) == 6 * 9


def test_small_assembly_fills_its_box():
    owner = SMALL.owner()
    assert len(owner) == 18 == sum(len(cells) for _, cells in SMALL.pieces)
    assert set(owner) == set(itertools.product(range(3), range(3), range(2)))


def mesh_volume(tris) -> float:
    """Volume enclosed by a triangle mesh (divergence theorem: signed tetrahedra from 0)."""
    total = 0.0
    for a, b, c in tris:
        total += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                  + a[2] * (b[0] * c[1] - b[1] * c[0]))
    return total / 6


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(*[st.integers(0, 3)] * 3), min_size=1, max_size=30))
def test_triangles_close_a_mesh_of_the_cells_volume(cells):
    tris = solid.triangles(cells)
    assert len(tris) == 2 * len(solid.surface(cells))
    edges = Counter()
    for tri in tris:
        for i in range(3):
            edges[(tri[i], tri[(i + 1) % 3])] += 1
    # closed and consistently oriented: every edge is walked once each way as often
    assert all(edges[(b, a)] == n for (a, b), n in edges.items())
    assert abs(mesh_volume(tris) - len(cells)) < 1e-9
    assert abs(mesh_volume(solid.triangles(cells, 2.0, (5, -1, 3))) - 8 * len(cells)) < 1e-6


def test_full_box_shows_three_sides():
    for assembly in (SMALL, CUBE):
        w, d, h = assembly.size
        faces = solid.visible_faces(assembly.owner())
        assert len(faces) == w * d + w * h + d * h
        assert {direction for _, direction in faces} == set(solid.SEEN)


def test_outline_of_one_piece_box_is_its_silhouette():
    box = Assembly.of({"all": list(itertools.product(range(3), range(2), range(4)))}, (3, 2, 4))
    owner = box.owner()
    thick = [e for f in solid.visible_faces(owner) for e in solid.piece_edges(owner, f)]
    # a hexagon of unit segments: 2 (w + d + h); the three near edges are thin creases
    assert len({frozenset(e) for e in thick}) == 2 * (3 + 2 + 4)


def test_pieces_are_outlined_where_they_meet():
    owner = SMALL.owner()
    thick = {frozenset(e) for f in solid.visible_faces(owner) for e in solid.piece_edges(owner, f)}
    silhouette = 2 * (3 + 3 + 2)
    assert len(thick) > silhouette
    # the top layer's O and S meet along a visible line from (2,0,2) to (2,2,2) and (0,2,2)
    assert frozenset({(2, 0, 2), (2, 1, 2)}) in thick
    assert frozenset({(0, 2, 2), (1, 2, 2)}) in thick


def _inside(point, polygon) -> bool:
    signs = set()
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
        signs.add(cross > 0)
    return len(signs) == 1


def _seen_by_ray(owner, u, v):
    """The cell and side a ray from the viewer through (u, v) meets first, by walking the ray
    through space: points p(t) = p0 + t (1, 1, 1) all land on (u, v)."""
    # p0 on z = 0 with isometric(p0) = (u, v): x - y = u / cos30, (x + y) / 2 = v
    a, b = u / solid.COS30, 2 * v
    x0, y0 = (a + b) / 2, (b - a) / 2
    best = None
    for cell in owner:
        for side in solid.SEEN:
            k = side.index(1)
            plane = cell[k] + 1
            t = plane - (x0, y0, 0.0)[k]
            p = (x0 + t, y0 + t, t)
            if all(cell[i] < p[i] < cell[i] + 1 for i in range(3) if i != k):
                if best is None or t > best[0]:
                    best = (t, cell, side)
    return None if best is None else best[1:]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_painters_order_agrees_with_ray_casting(seed):
    assembly = random_assembly(seed)
    owner = assembly.owner()
    faces = solid.visible_faces(owner)
    shapes = [[solid.isometric(p) for p in solid.face_corners(f)] for f in faces]
    rng = random.Random(seed)
    for _ in range(120):
        u, v = rng.uniform(-3, 3), rng.uniform(-3.5, 3.5)
        painted = None
        for face, shape in zip(faces, shapes):
            if _inside((u, v), shape):
                painted = face  # drawn last wins
        assert painted == _seen_by_ray(owner, u, v)


def test_layers_give_back_every_cell():
    grids = solid.layers(SMALL)
    assert len(grids) == 2
    back = {(x, y, z): piece for z, grid in enumerate(grids) for (x, y), piece in grid.items()}
    assert back == SMALL.owner()


def test_drawing_has_one_face_per_visible_side_and_the_layers():
    root = ET.fromstring(solid.draw_solution(SMALL, "a small box").to_string())
    faces = [e for e in root.iter(f"{NS}polygon") if e.get("class") == "face"]
    assert len(faces) == len(solid.visible_faces(SMALL.owner()))
    assert {f.get("data-piece") for f in faces} == {"L", "I", "O", "S"}
    # layers: one square per cell of the box (the square lattice's outline), named by its piece
    cells = [e for e in root.iter() if e.get("class") == "cell"]
    assert len(cells) == 18
    assert all(e.tag == f"{NS}polygon" and len(e.get("points").split()) == 4 for e in cells)
    layer_of = {g.get("data-layer") for g in root.iter(f"{NS}g") if g.get("class") == "layer"}
    assert layer_of == {"1", "2"}
    assert Counter(c.get("data-piece") for c in cells) == Counter(
        {name: len(cells_) for name, cells_ in SMALL.pieces})


def test_isometric_drawing_fits_its_view_box():
    svg = solid.draw_isometric(CUBE)
    root = ET.fromstring(svg.to_string())
    for polygon in root.iter(f"{NS}polygon"):
        for pair in polygon.get("points").split():
            x, y = map(float, pair.split(","))
            assert 0 <= x <= svg.width and 0 <= y <= svg.height


def test_assembly_goes_in_bottom_up():
    order = viewer.assembly_order(SMALL)
    names = [SMALL.pieces[i][0] for i in order]
    assert names == ["L", "I", "O", "S"]  # bottom layer first, each layer in the puzzle's order
    lows = [min(z for *_, z in SMALL.pieces[i][1]) for i in order]
    assert lows == sorted(lows)


def test_page_without_three_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLESAT_THREE", str(tmp_path))
    install = re.escape(f"npm install --prefix ~/.local/share/puzzlesat --no-save --no-audit "
                        f"--no-fund three@{viewer.THREE_VERSION}")
    with pytest.raises(InputError, match=install):
        viewer.solid_page([SMALL], "no library")


def test_from_owner_keeps_names_and_colours():
    names = [name for name, _ in SMALL.pieces]
    again = Assembly.from_owner(SMALL.owner(), names, SMALL.size)
    assert again.pieces == SMALL.pieces
    assert [again.colour(i) for i in range(4)] == [SMALL.colour(i) for i in range(4)]
    # a piece left out (e.g. not yet placed) does not shift the others' colours
    partial = Assembly.of({n: c for n, c in SMALL.pieces if n != "I"}, SMALL.size, names)
    assert [name for name, _ in partial.pieces] == ["L", "O", "S"]
    assert partial.colour(1) == SMALL.colour(2)


def test_piece_reference_draws_each_piece_alone():
    root = ET.fromstring(solid.draw_pieces(SMALL.pieces, "the pieces").to_string())
    groups = [g for g in root.iter(f"{NS}g") if g.get("class") == "piece"]
    assert [g.get("data-piece") for g in groups] == ["L", "I", "O", "S"]
    for group, (_, cells) in zip(groups, SMALL.pieces):
        faces = [e for e in group.iter(f"{NS}polygon") if e.get("class") == "face"]
        alone = {tuple(c): 0 for c in cells}
        assert len(faces) == len(solid.visible_faces(alone))


def test_puzzle_cells_turn_without_mirroring():
    # (layer, row, column) -> (row, column, layer): a cyclic permutation of the coordinates, a
    # rotation, so a chiral piece is drawn and printed as itself
    solution = {(0, 0, 0): 0, (0, 0, 1): 0, (0, 1, 0): 0, (1, 0, 0): 0, (1, 1, 1): 1}
    made = Assembly.from_layers(solution, ["A", "B"], layers=2, rows=2, columns=2)
    assert made.pieces == (("A", ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))),
                           ("B", ((1, 1, 1),)))
    assert made.size == (2, 2, 2)
    bottom, top = solid.layers(made)
    assert bottom == {(0, 0): 0, (0, 1): 0, (1, 0): 0}  # (row, column) as the file draws it
    assert top == {(0, 0): 0, (1, 1): 1}


def test_boxes_are_named_shortest_side_first():
    assert solid.box_name((4, 4, 2)) == "2x4x4" and solid.box_name((3, 10, 2)) == "2x3x10"


def test_a_challenges_pieces_go_in_first():
    order = viewer.assembly_order(SMALL, first={"S", "I"})
    assert [SMALL.pieces[i][0] for i in order] == ["I", "S", "L", "O"]


@settings(max_examples=40, deadline=None)
@given(st.sets(st.tuples(*[st.integers(0, 2)] * 3), min_size=1, max_size=12),
       st.sampled_from([0.05, 0.1, 0.2]))
def test_inset_mesh_stays_closed_inside_the_exact_one(cells, inset):
    tris = solid.triangles(cells, 1.0, (0, 0, 0), inset)
    edges = Counter()
    for tri in tris:
        for i in range(3):
            edges[(tri[i], tri[(i + 1) % 3])] += 1
    assert all(edges[(b, a)] == n for (a, b), n in edges.items())
    assert mesh_volume(tris) < len(cells)  # every face moved inwards: less volume


def test_inset_of_a_cube_and_a_bar():
    assert mesh_volume(solid.triangles([(0, 0, 0)], 10.0, (0, 0, 0), 0.5)) == pytest.approx(9**3)
    ell = solid.triangles([(0, 0, 0), (1, 0, 0), (1, 1, 0)], 10.0, (0, 0, 0), 0.5)
    # an L of three cubes, every face 0.5 inwards, by parts: the bar of two cubes 19 x 9 x 9
    # and the third cube beside it 9 x 10 x 9 (the face it shares with the bar does not move)
    assert mesh_volume(ell) == pytest.approx(19 * 9 * 9 + 9 * 10 * 9)
