"""The play pages in a real browser: Playwright driving the system's Chromium (headless).

Skipped, with the reason, when the playwright package or a Chromium binary is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from puzzlesat.models import edge_matching as em
from puzzlesat.models import mind_lock as ml
from puzzlesat.models.files import load
from puzzlesat.pictures import browser, play, solutions

REASON = browser.unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"no browser: {REASON}")

PAGES = {"diamond-blocks": 2, "scramble-frog": None, "iq-block-8": None, "mind-lock": None,
         "rush-hour-51": None, "klotski": None, "iq-block-challenge-unique": None,
         "hexiamonds-4x9": None, "tetrahexes-coin": None}


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for name, level in PAGES.items():
        out[name] = folder / f"{name}.html"
        out[name].write_text(play.play_page(load(name), level), encoding="utf-8")
    out["diamond-blocks-level1"] = folder / "diamond-blocks-level1.html"
    out["diamond-blocks-level1"].write_text(play.play_page(load("diamond-blocks"), 1))
    return out


@pytest.fixture(scope="module")
def context():
    try:
        with browser.chromium() as started:
            yield started
    except Exception as error:  # noqa: BLE001 - any launch failure is a reason to skip
        pytest.skip(f"Chromium did not start: {error}")


class Opened:
    """A page opened from a file, with what it printed to the console and what it requested."""

    def __init__(self, context, path: Path) -> None:
        self.page = context.new_page()
        self.page.set_default_timeout(30000)  # a wait for the page, ended by it
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning")
                     and self.errors.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)

    def status(self) -> str:
        return self.page.inner_text("#status")

    def counter(self, name: str) -> str:
        return self.page.inner_text(f"#{name}")

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def opened(context):
    made = []

    def open_page(path: Path) -> Opened:
        made.append(Opened(context, path))
        return made[-1]

    yield open_page
    for page in made:
        assert page.errors == [], f"console errors: {page.errors}"
        assert page.requests == [page.url], f"requests besides the page: {page.requests}"
        page.close()


@pytest.mark.parametrize("name", [*PAGES])
def test_page_loads_offline_without_errors(opened, pages, name):
    page = opened(pages[name])
    assert page.page.locator("#counters span").count() >= 1
    assert page.status() == ""  # not solved at the start


# ---------------------------------------------------------------- edge matching


def cell_states(page: Opened) -> list[tuple[int, int]]:
    return page.page.eval_on_selector_all(
        "#cells .cell",
        "gs => gs.sort((a, b) => a.dataset.cell - b.dataset.cell)"
        ".map(g => [Number(g.dataset.tile), Number(g.dataset.rotation)])",
    )


def click_cell(page: Opened, cell: int, button: str = "left") -> None:
    page.page.locator(f'#cells .cell[data-cell="{cell}"]').click(button=button)


def play_grid(page: Opened, grid: list[tuple[int, int]]) -> None:
    """Lay the grid by clicks: two clicks swap tiles, a right click turns one clockwise."""
    for cell, (tile, rotation) in enumerate(grid):
        where = [t for t, _ in cell_states(page)].index(tile)
        if where != cell:
            click_cell(page, where)
            click_cell(page, cell)
        turns = (rotation - cell_states(page)[cell][1]) % 4
        for _ in range(turns):
            click_cell(page, cell, "right")
    assert cell_states(page) == [tuple(x) for x in grid] or cell_states(page) == [
        list(x) for x in grid
    ]


def test_playing_a_solution_by_clicks_ends_solved(opened, pages):
    puzzle = em.at_level(load("diamond-blocks"), 2)
    grid = solutions.edge_solutions(puzzle, limit=1)[0]
    page = opened(pages["diamond-blocks"])
    play_grid(page, grid)
    assert page.status() == "solved"
    assert page.counter("matched") == "matched edges 24/24"
    assert page.page.locator(".mismatch").count() == 0


def test_a_wrong_placement_is_highlighted(opened, pages):
    puzzle = em.at_level(load("diamond-blocks"), 2)
    grid = solutions.edge_solutions(puzzle, limit=1)[0]
    page = opened(pages["diamond-blocks"])
    play_grid(page, grid)
    click_cell(page, 0, "right")  # turn the corner tile: its two inner edges no longer match
    lines = page.page.eval_on_selector_all(
        ".mismatch", "ls => ls.map(l => [Number(l.dataset.a), Number(l.dataset.b)])"
    )
    assert sorted(lines) == [[0, 1], [0, 4]]
    assert page.status() != "solved"
    matched = int(re.search(r"(\d+)/24", page.counter("matched")).group(1))
    assert matched == 22
    page.page.click("#undo")
    assert page.status() == "solved"


def test_level_2_diamond_conflicts_are_highlighted(opened, pages):
    level1 = em.at_level(load("diamond-blocks"), 1)
    level2 = em.at_level(load("diamond-blocks"), 2)
    grid = next(g for g in solutions.edge_solutions(level1, limit=50)
                if em.check_grid(level2, g) is not None)
    page = opened(pages["diamond-blocks-level1"])
    play_grid(page, grid)
    assert page.status() == "solved"
    page.page.select_option("#level", "2")
    assert page.page.locator(".conflict").count() > 0
    assert page.status() != "solved"
    conflicts = int(re.search(r"(\d+)", page.counter("conflicts")).group(1))
    assert conflicts > 0


def test_a_hint_places_a_correct_tile(opened, pages):
    puzzle = em.at_level(load("diamond-blocks"), 2)
    looks = [em.looks(puzzle, g) for g in solutions.edge_solutions(puzzle)]
    page = opened(pages["diamond-blocks"])
    hints = 0
    while page.status() != "solved" and hints < 16:  # each hint fixes one more cell at least
        hints += 1
        page.page.click("#hint")
        cell = int(page.page.get_attribute("#stage svg", "data-hinted"))
        tile, rotation = cell_states(page)[cell]
        shown = (em.rotated(puzzle.tiles[tile].edges, rotation), puzzle.tiles[tile].mark)
        assert any(look[cell] == shown for look in looks)
    assert page.status() == "solved" and hints <= 16


def test_scramble_tiles_swap_by_drag(opened, pages):
    page = opened(pages["scramble-frog"])
    before = cell_states(page)
    source = page.page.locator('#cells .cell[data-cell="0"]').bounding_box()
    target = page.page.locator('#cells .cell[data-cell="8"]').bounding_box()
    mouse = page.page.mouse
    mouse.move(source["x"] + 30, source["y"] + 30)
    mouse.down()
    mouse.move(target["x"] + 30, target["y"] + 30, steps=5)
    mouse.up()
    after = cell_states(page)
    assert after[0] == before[8] and after[8] == before[0]


# ---------------------------------------------------------------- packing


def turn(cells):  # as the page turns a piece: clockwise, then back to the origin
    return normalise([(c, -r) for r, c in cells])


def mirror(cells):
    return normalise([(r, -c) for r, c in cells])


def normalise(cells):
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return sorted((r - r0, c - c0) for r, c in cells)


def keys_for(start, target):
    """The keys (f, then r's) that turn the page's orientation `start` into `target`."""
    for flips in (0, 1):
        cells = mirror(start) if flips else normalise(start)
        for turns in range(4):
            if cells == normalise(target):
                return "f" * flips + "r" * turns
            cells = turn(cells)
    raise AssertionError("no orientation matches")


def test_packing_solution_by_clicks_ends_solved(opened, pages):
    puzzle = load("iq-block-8")
    grid = solutions.packing_solutions(puzzle, limit=1)[0]
    page = opened(pages["iq-block-8"])
    for index, piece in enumerate(puzzle.pieces):
        cells = sorted(cell for cell, p in grid.items() if p == index)
        page.page.locator(f'#pieces .piece[data-piece="{index}"] polygon').first.click()
        for key in keys_for(piece.cells, cells):
            page.page.keyboard.press(key)
        r, c = cells[0]  # the first cell of the piece goes on the clicked cell
        page.page.locator(f'#board .cell[data-row="{r}"][data-col="{c}"]').click()
        placed = page.page.get_attribute(f'#pieces .piece[data-piece="{index}"]', "data-placed")
        assert placed == f"{min(r for r, _ in cells)},{min(c for _, c in cells)}"
    assert page.status() == "solved"
    assert page.counter("covered") == "cells covered 64/64"
    assert page.page.locator(".piece.wrong").count() == 0


def test_packing_drag_snaps_and_a_wrong_placement_is_highlighted(opened, pages):
    puzzle = load("iq-block-8")
    grids = solutions.packing_solutions(puzzle)
    used = {frozenset(c for c, p in g.items() if p == 0) for g in grids}
    shape = normalise(puzzle.pieces[0].cells)  # A0, a 2x4 block, as the page first shows it
    spot = next(
        (r, c) for r in range(7) for c in range(5)
        if frozenset((r + dr, c + dc) for dr, dc in shape) not in used
    )
    page = opened(pages["iq-block-8"])
    piece = page.page.locator('#pieces .piece[data-piece="0"] polygon').first.bounding_box()
    cell = page.page.locator(f'#board .cell[data-row="{spot[0]}"][data-col="{spot[1]}"]')
    target = cell.bounding_box()
    mouse = page.page.mouse
    mouse.move(piece["x"] + 5, piece["y"] + 5)
    mouse.down()
    mouse.move(target["x"] + 9, target["y"] + 9, steps=6)  # near the cell's corner: snaps
    mouse.up()
    placed = page.page.get_attribute('#pieces .piece[data-piece="0"]', "data-placed")
    assert placed == f"{spot[0]},{spot[1]}"
    assert "wrong" in page.page.get_attribute('#pieces .piece[data-piece="0"]', "class")
    page.page.click("#hint")  # no solution has A0 there: the hint takes it off
    assert page.page.get_attribute('#pieces .piece[data-piece="0"]', "data-placed") == ""


def solved_by_hints(page, puzzle) -> dict:
    """A hint for every piece, none placed wrong, the page solved: the pieces' cells."""
    for _ in puzzle.pieces:
        page.page.click("#hint")
        assert page.page.locator(".piece.wrong").count() == 0
    assert page.status() == "solved"
    grid = {}
    for index in range(len(puzzle.pieces)):
        cells = page.page.get_attribute(f'#pieces .piece[data-piece="{index}"]', "data-cells")
        for cell in cells.split():
            grid[tuple(map(int, cell.split(",")))] = index
    return grid


def test_packing_hints_solve_the_puzzle(opened, pages):
    puzzle = load("iq-block-8")
    solved = {tuple(sorted((c, p) for c, p in g.items()))
              for g in solutions.packing_solutions(puzzle)}
    page = opened(pages["iq-block-8"])
    assert tuple(sorted(solved_by_hints(page, puzzle).items())) in solved


def test_a_challenge_starts_from_its_placed_pieces_which_stay(opened, pages):
    puzzle = load("iq-block-challenge-unique")
    page = opened(pages["iq-block-challenge-unique"])
    for placed in puzzle.placed:
        selector = f'#pieces .piece[data-piece="{placed.piece}"]'
        corner = f"{min(r for r, _ in placed.cells)},{min(c for _, c in placed.cells)}"
        assert page.page.get_attribute(selector, "data-placed") == corner
        assert "fixed" in page.page.get_attribute(selector, "class")
    first = puzzle.placed[0].piece
    page.page.locator(f'#pieces .piece[data-piece="{first}"] polygon').first.click()
    assert "placed by the challenge" in page.status()
    for _ in range(len(puzzle.pieces) - len(puzzle.placed)):
        page.page.click("#hint")
    assert page.status() == "solved"
    assert page.page.locator(".piece.fixed").count() == len(puzzle.placed)


# ---------------------------------------------------------------- triangles and hexagons


def plane_keys(lattice, start, target, flips: bool) -> str:
    """The keys (f, then r's) that turn `start` into `target` on a lattice, by its own turn."""
    for flipped in (0, 1) if flips else (0,):
        cells = lattice.normalise(lattice.mirror(start) if flipped else start)
        for turns in range(6):
            if cells == lattice.normalise(target):
                return "f" * flipped + "r" * turns
            cells = lattice.normalise(lattice.turn(cells))
    raise AssertionError("no orientation matches")


@pytest.mark.parametrize("name", ["hexiamonds-4x9", "tetrahexes-coin"])
def test_triangles_and_hexagons_played_by_clicks_end_solved(opened, pages, name):
    puzzle = load(name)
    lattice = puzzle.lattice
    grid = solutions.packing_solutions(puzzle, limit=1)[0]
    page = opened(pages[name])
    assert page.page.locator("#board polygon.cell").count() == len(puzzle.board_cells)
    for index, piece in enumerate(puzzle.pieces):
        cells = sorted(cell for cell, p in grid.items() if p == index)
        page.page.locator(f'#pieces .piece[data-piece="{index}"] polygon').first.click()
        for key in plane_keys(lattice, piece.cells, cells, puzzle.flip):
            page.page.keyboard.press(key)
        shown = page.page.get_attribute(f'#pieces .piece[data-piece="{index}"]',
                                        "data-orientation")
        first = lattice.orientations(piece.cells, puzzle.flip)[int(shown)][0]
        # the orientation's first cell goes on the clicked cell: the one it covers there
        move = [c for c in cells if lattice.translation(first, c) is not None
                and sorted(lattice.translate(lattice.orientations(
                    piece.cells, puzzle.flip)[int(shown)], lattice.translation(first, c)))
                == cells][0]
        page.page.locator(f'#board .cell[data-row="{move[0]}"][data-col="{move[1]}"]').click()
        placed = page.page.get_attribute(f'#pieces .piece[data-piece="{index}"]', "data-cells")
        assert sorted(tuple(map(int, k.split(","))) for k in placed.split()) == cells
    assert page.status() == "solved"
    assert page.page.locator(".piece.wrong").count() == 0


@pytest.mark.parametrize("name", ["hexiamonds-4x9", "tetrahexes-coin"])
def test_triangles_and_hexagons_turn_six_times_round_and_hints_solve(opened, pages, name):
    puzzle = load(name)
    page = opened(pages[name])
    piece = '#pieces .piece[data-piece="1"]'
    page.page.locator(f"{piece} polygon").first.click()
    seen = []
    for _ in range(6):  # six turns of 60 degrees: every rotation, then the first again
        seen.append(page.page.get_attribute(piece, "data-orientation"))
        page.page.keyboard.press("r")
    assert page.page.get_attribute(piece, "data-orientation") == seen[0]
    turns = len(puzzle.lattice.orientations(puzzle.pieces[1].cells, False))
    assert len(set(seen)) == turns
    page.page.keyboard.press("Escape")
    assert solved_by_hints(page, puzzle) in solutions.packing_solutions(puzzle)


def test_a_triangle_dragged_snaps_onto_a_triangle_of_its_kind(opened, pages):
    puzzle = load("hexiamonds-4x9")
    lattice = puzzle.lattice
    page = opened(pages["hexiamonds-4x9"])
    shape = lattice.orientations(puzzle.pieces[0].cells, True)[0]  # 6a, the bar, as first shown
    target = next(c for c in sorted(puzzle.board_cells)
                  if lattice.translation(shape[0], c) is not None
                  and all(x in puzzle.board_cells for x in lattice.translate(
                      shape, lattice.translation(shape[0], c))))
    first = page.page.locator('#pieces .piece[data-piece="0"] polygon').first.bounding_box()
    cell = page.page.locator(
        f'#board .cell[data-row="{target[0]}"][data-col="{target[1]}"]').bounding_box()
    mouse = page.page.mouse
    mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] * 0.6)
    mouse.down()
    mouse.move(cell["x"] + cell["width"] / 2 + 3, cell["y"] + cell["height"] * 0.6 + 2, steps=6)
    mouse.up()
    placed = page.page.get_attribute('#pieces .piece[data-piece="0"]', "data-cells")
    expected = lattice.translate(shape, lattice.translation(shape[0], target))
    assert sorted(tuple(map(int, k.split(","))) for k in placed.split()) == sorted(expected)


# ---------------------------------------------------------------- Mind Lock


def test_mind_lock_hints_from_a_hardest_position_take_22_moves(opened, pages):
    puzzle = load("mind-lock")
    distance, hardest = solutions.hardest(puzzle)
    assert distance == 22
    page = opened(pages["mind-lock"])
    page.page.select_option("#start", ml.notation(hardest[-1]))
    assert page.counter("distance") == "distance to solved 22"
    for move in range(1, 23):
        page.page.click("#hint")
        assert page.counter("distance") == f"distance to solved {22 - move}"
    assert page.counter("moves") == "moves made 22"
    assert page.status() == "solved in 22 moves (optimum 22)"
    final = ml.parse_position(page.counter("position"))
    assert final in puzzle.solved


def test_mind_lock_click_makes_a_legal_move(opened, pages):
    page = opened(pages["mind-lock"])
    start = ml.parse_position(page.counter("position"))
    gap = start.index(ml.GAP)
    page.page.locator(f'#stage .cell[data-cell="{gap ^ 1}"]').click()
    assert ml.parse_position(page.counter("position")) == ml.apply_move(start, "horizontal")
    assert page.counter("moves") == "moves made 1"
    moved = gap ^ 1  # the gap's cell after the slide; a click in its column's middle pushes
    page.page.locator(f'#stage .cell[data-cell="{moved % 4 + 4}"]').click()
    assert ml.parse_position(page.counter("position")) == ml.apply_move(
        ml.apply_move(start, "horizontal"), "push"
    )
    page.page.click("#undo")
    page.page.click("#undo")
    assert ml.parse_position(page.counter("position")) == start


# ---------------------------------------------------------------- sliding blocks


def test_rush_hour_hints_take_51_moves_to_the_goal(opened, pages):
    """Hints walk the embedded table: Fogleman's puzzle in 51 slides, ending at the goal."""
    puzzle = load("rush-hour-51")
    page = opened(pages["rush-hour-51"])
    assert page.counter("distance") == "distance to the goal 51"
    assert page.counter("metric") == "slide metric"
    for move in range(1, 52):
        page.page.click("#hint")
        assert page.counter("distance") == f"distance to the goal {51 - move}"
    assert page.counter("distance") == "distance to the goal 0"
    assert page.status() == "solved in 51 moves (optimum 51)"
    assert puzzle.is_goal(puzzle.parse(page.counter("position")))


def test_klotski_drag_moves_a_piece_and_undo_restores(opened, pages):
    """Dragging a soldier into the free cell beside it is one legal move; undo takes it back."""
    puzzle = load("klotski")
    page = opened(pages["klotski"])
    start = page.counter("position")
    assert start == puzzle.notation(puzzle.start)
    assert page.counter("distance") == "distance to the goal 81"
    cell = 48
    box = page.page.locator("#stage svg").bounding_box()
    scale = box["width"] / float(page.page.locator("#stage svg").get_attribute("width"))

    def at(row, column):
        return (box["x"] + (10 + (column + 0.5) * cell) * scale,
                box["y"] + (10 + (row + 0.5) * cell) * scale)

    page.page.mouse.move(*at(4, 0))  # the soldier bottom left ...
    page.page.mouse.down()
    page.page.mouse.move(*at(4, 1))  # ... to the free cell on its right
    page.page.mouse.up()
    after = puzzle.parse(page.counter("position"))
    assert after in [p for _, p in puzzle.neighbours(puzzle.start)]
    assert page.counter("moves") == "moves made 1"
    page.page.click("#undo")
    assert page.counter("position") == start
    page.page.mouse.move(*at(0, 1))  # the 2x2 block cannot move
    page.page.mouse.down()
    page.page.mouse.up()
    assert page.status() == "this piece cannot move"
