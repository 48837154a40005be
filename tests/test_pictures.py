"""Pictures without a browser: every SVG parses as XML with one shape per cell, galleries state
the right counts and classes, pages are self-contained."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from puzzlesat.models import edge_matching as em
from puzzlesat.models import mind_lock as ml
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import load
from puzzlesat.models.geometry import picture_cells
from puzzlesat.pictures import edge_matching as draw_edge
from puzzlesat.pictures import gallery, play, solutions
from puzzlesat.pictures import mind_lock as draw_lock
from puzzlesat.pictures import packing as draw_packing

NS = "{http://www.w3.org/2000/svg}"


def parsed(svg) -> ET.Element:
    return ET.fromstring(svg.to_string())


def cells_of(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "cell" in e.get("class", "").split()]


@pytest.mark.parametrize("name", ["iq-block-8", "pentomino-8x8-centre-hole"])
def test_packing_solution_has_one_shape_per_cell(name):
    puzzle = load(name)
    grid = solutions.packing_solutions(puzzle, limit=1)[0]
    root = parsed(draw_packing.draw_solution(puzzle, grid, "one"))
    cells = cells_of(root)
    assert len(cells) == len(picture_cells(puzzle.board)) == len(grid)
    for cell in cells:  # each cell names the piece the solution puts there
        at = (int(cell.get("data-row")), int(cell.get("data-col")))
        assert cell.get("data-piece") == puzzle.pieces[grid[at]].name
    holes = [e for e in root.iter() if e.get("class") == "hole"]
    assert len(holes) == len(puzzle.board) * len(puzzle.board[0]) - len(grid)


def test_packing_pieces_reference_draws_every_cell():
    puzzle = load("iq-block-8")
    root = parsed(draw_packing.draw_pieces(puzzle))
    assert len(cells_of(root)) == sum(len(p.cells) for p in puzzle.pieces)
    assert {g.get("data-piece") for g in root.iter(f"{NS}g") if g.get("class") == "piece"} == {
        p.name for p in puzzle.pieces
    }


@pytest.mark.parametrize("name", ["diamond-blocks", "scramble-frog"])
def test_edge_solution_has_one_tile_per_cell(name):
    puzzle = load(name)
    grid = solutions.edge_solutions(puzzle, limit=1)[0]
    assert em.check_grid(puzzle, grid) is None
    root = parsed(draw_edge.draw_solution(puzzle, grid))
    cells = cells_of(root)
    assert len(cells) == puzzle.rows * puzzle.cols
    for cell, (tile, rotation) in zip(cells, grid):
        triangles = [p for p in cell.iter(f"{NS}polygon") if p.get("class") == "edge"]
        assert len(triangles) == 4
        shown = em.rotated(puzzle.tiles[tile].edges, rotation)
        assert [t.get("data-edge") for t in triangles] == [p + h for p, h in shown]
        marks = [e for e in cell.iter() if e.get("class") == "mark"]
        assert len(marks) == (1 if puzzle.tiles[tile].mark else 0)


def test_complement_halves_look_different():
    puzzle = load("scramble-frog")
    root = parsed(draw_edge.draw_tiles(puzzle))
    fills = {}
    for polygon in root.iter(f"{NS}polygon"):
        if polygon.get("class") == "edge":
            fills.setdefault(polygon.get("data-edge"), set()).add(polygon.get("fill"))
    for picture in {key[0] for key in fills}:
        heads = fills.get(picture + "H", set())
        tails = fills.get(picture + "T", set())
        assert heads and tails and not heads & tails


def test_block_reference_counts_copies():
    puzzle = load("diamond-blocks")
    root = parsed(draw_edge.draw_tiles(puzzle))
    tiles = [g for g in root.iter(f"{NS}g") if g.get("class") == "tile"]
    assert len(tiles) == len(em.tile_types(puzzle))
    assert sum(int(g.get("data-count")) for g in tiles) == len(puzzle.tiles) == 16


def test_mind_lock_strip_has_twelve_cells_per_position():
    puzzle = load("mind-lock")
    start = ml.parse_position("0x76bd98")
    walk = solutions.optimal_walk(puzzle, start)
    assert len(walk.moves) == 12  # the author's example: 12 moves
    root = parsed(draw_lock.draw_path(walk.positions, walk.moves))
    assert len(cells_of(root)) == 12 * len(walk.positions)
    positions = [g for g in root.iter(f"{NS}g") if g.get("class") == "position"]
    assert [g.get("data-position") for g in positions] == [ml.notation(p) for p in walk.positions]
    assert ml.rank(walk.positions[-1]) in {ml.rank(p) for p in puzzle.solved}


def test_iq_block_gallery_shows_48_solutions_in_6_classes(tmp_path):
    shown = gallery.build_gallery(load("iq-block-8"))
    assert shown.statement.startswith("48 solutions: ways to cover the board")
    assert "6 classes under the board's 8 symmetries" in shown.statement
    assert len(shown.figures) == 48
    pages = gallery.write_gallery(shown, tmp_path)
    assert [p.name for p in pages] == ["index.html"]
    svgs = sorted(tmp_path.glob("solution-*.svg"))
    assert len(svgs) == 48
    for path in svgs:
        assert len(cells_of(ET.parse(path).getroot())) == 64
    index = pages[0].read_text()
    assert "48 solutions" in index and index.count("<figure>") == 49  # with the pieces


def test_classes_gallery_orbits_add_up():
    shown = gallery.build_gallery(load("iq-block-8"), modulo="symmetry")
    orbits = [int(re.search(r"orbit of (\d+)", f.caption).group(1)) for f in shown.figures]
    assert len(orbits) == 6 and sum(orbits) == 48


@pytest.mark.parametrize(
    ("name", "level", "grids", "classes"),
    [("diamond-blocks", 2, 12, 3), ("scramble-frog", None, 8, 2),
     ("diamond-blocks-2001", 2, 0, 0)],
)
def test_edge_gallery_counts(name, level, grids, classes):
    puzzle = load(name)
    if level:
        puzzle = em.at_level(puzzle, level)
    shown = gallery.build_gallery(puzzle)
    assert shown.statement.startswith(f"{grids} grids")
    assert f"{classes} classes up to the board's 4 turns" in shown.statement
    assert len(shown.figures) == grids
    if grids:
        orbits = gallery.build_gallery(puzzle, modulo="rotation").figures
        assert len(orbits) == classes
    else:  # an empty gallery says what the other level has
        [note] = shown.notes  # counted by the fastest counter, within the gallery's bound
        assert note.startswith("For comparison, Level 1 has 5,544 grids (counted by ")


def test_large_gallery_is_paged_and_capped(tmp_path, monkeypatch):
    # a gallery lists only the 5 it draws; the 8 come from a count (bounded in time: not here)
    monkeypatch.setattr(gallery, "COUNT_SECONDS", None)
    shown = gallery.build_gallery(load("pentomino-3x20"), cap=5)
    assert shown.total == 8 and len(shown.figures) == 5
    pages = gallery.write_gallery(shown, tmp_path, per_page=2)
    assert [p.name for p in pages] == ["index.html", "page-2.html", "page-3.html"]
    assert "3 are not shown" in pages[0].read_text()


def test_gallery_rejects_an_unknown_modulo():
    # 'rotation' is a packing modulo since 3D packing (issue 15); a nonsense word is refused
    with pytest.raises(InputError, match="modulo none or symmetry or rotation, not 'turns'"):
        gallery.build_gallery(load("iq-block-8"), modulo="turns")


def test_mind_lock_gallery_draws_the_16_hardest():
    shown = gallery.build_gallery(load("mind-lock"))
    assert shown.statement.startswith("16 positions at the greatest distance from solved, 22")
    assert len(shown.figures) == 16
    for figure in shown.figures:
        root = parsed(figure.svg)
        assert len(cells_of(root)) == 12 * 23


@pytest.mark.parametrize(("name", "level"), [("diamond-blocks", 2), ("scramble-frog", None),
                                             ("iq-block-8", None), ("mind-lock", None)])
def test_play_page_is_self_contained(name, level):
    page = play.play_page(load(name), level)
    assert "default-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "{{" not in page
    data = json.loads(
        re.search(r'id="puzzle-data">(.*?)</script>', page, re.S).group(1).replace("<\\/", "</")
    )
    assert data


def test_edge_page_embeds_valid_solutions_per_level():
    puzzle = load("diamond-blocks")
    page = draw_edge.page(puzzle, level=2)
    data = json.loads(re.search(r'id="puzzle-data">(.*?)</script>', page, re.S).group(1))
    assert data["levels"] == [None, "diamond"]
    assert len(data["solutions"]["2"]) == 12
    for grid in data["solutions"]["2"]:
        assert em.check_grid(em.at_level(puzzle, 2), [tuple(x) for x in grid]) is None


def test_play_rejects_a_level_the_puzzle_lacks():
    with pytest.raises(InputError, match="levels 1..2"):
        play.play_page(load("diamond-blocks"), 3)
    with pytest.raises(InputError, match="no levels"):
        play.play_page(load("scramble-frog"), 2)


def test_committed_gallery_pictures_parse_with_one_shape_per_cell():
    from pathlib import Path

    from puzzlesat.pictures.generate import GALLERIES, load_at

    results = Path(__file__).resolve().parent.parent / "results" / "gallery"
    if not results.exists():
        pytest.skip("no committed galleries in this checkout")
    for spec in GALLERIES:
        puzzle = load_at(spec.puzzle, spec.level)
        if puzzle.kind == "packing":  # in space: one square per cell in the layers drawn
            cells = len(puzzle.board_cells)
        elif puzzle.kind == "edge-matching":
            cells = puzzle.rows * puzzle.cols
        elif puzzle.kind == "sliding-block":  # a hardest position and the positions after it
            from puzzlesat.families.sliding import FAMILY

            cells = puzzle.rows * puzzle.columns * (FAMILY.table(puzzle).build.gods_number + 1)
        else:
            cells = 12 * 23  # a hardest position and the 22 after it
        pictures = sorted((results / spec.folder).glob("*-*.svg"))
        assert (results / spec.folder / "index.html").exists()
        for path in pictures:
            assert len(cells_of(ET.parse(path).getroot())) == cells, path
