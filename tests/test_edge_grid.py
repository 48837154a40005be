"""Edge matching on every grid (models/edge_matching/grid.py): triangles beside squares.

Small triangle boards and tile sets, drawn by hypothesis, are counted alike by every backend,
with and without symmetry (the board's turns, its mirror images, colour exchanges): the solvers
by Burnside's lemma over the grids each element keeps, the reference by least images under a
group it makes again itself (canonical forms). A tile's turns and the board's symmetries are
checked against a construction in the plane written here. MacMahon's catalogs are what their
definition makes.
"""

from __future__ import annotations

import cmath
import math
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat.cli import main
from puzzlesat.models import files
from puzzlesat.models.edge_matching import EdgePuzzle, Tile, board, rotated, turned_looks
from puzzlesat.models.edge_matching.grid import GRIDS, SQUARE, TRIANGLE, grid_named
from puzzlesat.models.edge_matching.macmahon import colour_tiles
from puzzlesat.models.edge_matching.symmetry import fixing_alike, puzzle_group
from puzzlesat.models.errors import InputError

BACKENDS = ("reference", "cpsat", "pysat:cadical195", "xcover", "edgecount")
MOST_GRIDS = 2_000  # grids a board may hold for the backends that list them to count it
MODULI = ("none", "symmetry", "mirror", "colours")

# small triangle boards: a triangle of side 2, the hexagon of side 1, a parallelogram, a
# trapezoid, a chevron-like shape (pictures as a person types them)
BOARDS = {
    "triangle": [".^.", "^v^"],
    "hexagon": ["^v^", "v^v"],
    "parallelogram": ["^v^v", ".^v^v"],
    "trapezoid": [".^v^v^", "^v^v^v^"],
    "bar": ["^v^v^v"],
}


def shape_of(picture: list[str]) -> tuple:
    return TRIANGLE.read_picture("\n".join(picture))


def planted(shape: tuple, colours: int, seed: int, border: bool, closed: bool) -> EdgePuzzle:
    """A random grid's tiles (one colour per joint), turned at random; with `closed`, tiles
    replaced by members of the MacMahon set on two colours, so mirror images and colour
    exchanges keep the tile set more often."""
    rng = random.Random(seed)
    here = board(EdgePuzzle("shape", 1, 1, (), grid="triangle", shape=shape))
    edges = {cell: [None] * 3 for cell in here.cells}
    names = "abcd"[:colours]
    for a, b, side in here.pairs:
        colour = (rng.choice(names), "")
        edges[a][side] = colour
        edges[b][here.grid.facing(side)] = colour
    outside = ("W", "") if border else None
    for cell in here.cells:
        for side in range(3):
            if edges[cell][side] is None:
                edges[cell][side] = outside or (rng.choice(names), "")
    tiles = tuple(Tile(rotated(tuple(edges[cell]), rng.randrange(3)), name=str(i + 1))
                  for i, cell in enumerate(here.cells))
    if closed and not border:
        pool = colour_tiles(("a", "b"), 3)
        tiles = tuple(Tile(pool[rng.randrange(len(pool))].edges, name=str(i + 1))
                      for i in range(len(here)))
    return EdgePuzzle(f"planted-{seed}", 1, 1, tiles, grid="triangle", shape=shape,
                      border=outside)


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def counts(puzzle: EdgePuzzle, modulo: str) -> dict[str, int]:
    out = {}
    for backend in BACKENDS:
        if backend == "xcover" and modulo != "none":
            continue  # exact cover cannot say "unchanged by a symmetry"
        found = puzzlesat.count(puzzle, backend, modulo, jobs=1)
        assert found.complete, backend
        out[backend] = (found.number, found.details["grids"])
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BOARDS)), st.integers(1, 3), st.integers(0, 10**6),
       st.booleans(), st.booleans(), st.sampled_from(MODULI))
def test_every_backend_counts_small_triangle_boards_alike(name, colours, seed, border, closed,
                                                          modulo):
    puzzle = planted(shape_of(BOARDS[name]), colours, seed, border, closed)
    # CP-SAT and the SAT solvers list grids one at a time: a board of one colour can hold tens of
    # thousands, which held a CI run for 20 minutes; such boards are the compiled search's
    assume(puzzlesat.count(puzzle, "edgecount", "none", jobs=1).details["grids"] <= MOST_GRIDS)
    found = counts(puzzle, modulo)
    assert len(set(found.values())) == 1, found
    number, grids = next(iter(found.values()))
    assert grids >= (1 if not closed or border else 0)  # a planted grid is a grid
    if modulo != "none":
        order = len(puzzle_group(puzzle, modulo))
        assert grids / order <= number <= grids


def test_burnside_equals_canonical_forms_on_macmahon_sets():
    """Classes by Burnside's lemma over the grids each element keeps (CP-SAT, SAT, the
    compiled counter) equal classes by least images (the reference, its own group), on sets
    whose mirror images and colour exchanges keep the tiles: the group grows to 12 and 24."""
    sets = [
        EdgePuzzle("two-colour triangles", 1, 1, colour_tiles(("a", "b"), 3), grid="triangle",
                   shape=shape_of(BOARDS["triangle"])),
        EdgePuzzle("hexagon", 1, 1, colour_tiles(("a", "b"), 3) + (
            Tile((("a", ""), ("a", ""), ("b", ""))), Tile((("a", ""), ("b", ""), ("b", "")))),
            grid="triangle", shape=shape_of(BOARDS["hexagon"])),
        EdgePuzzle("two-colour squares", 2, 3, colour_tiles(("a", "b"), 4)),
    ]
    expected = {  # grids; classes under turns, board symmetries, and colours too
        "two-colour triangles": (12, 4, 2, 1), "hexagon": (156, 26, 14, 8),
        "two-colour squares": (416, 208, 104, 52)}
    for puzzle in sets:
        seen = []
        for modulo in MODULI:
            found = counts(puzzle, modulo)
            assert len(set(found.values())) == 1, (puzzle.name, modulo, found)
            seen.append(next(iter(found.values()))[0])
        assert tuple(seen) == expected[puzzle.name]
    hexagon = sets[1]
    assert [len(puzzle_group(hexagon, m)) for m in MODULI] == [1, 6, 12, 24]


def test_elements_fixing_alike_are_conjugate_or_generate_one_group():
    puzzle = puzzlesat.load("macmahon-24-triangles")
    group = puzzle_group(puzzle, "colours")
    alike = fixing_alike(group)
    assert len(group) == 72 and len(set(alike)) == 18  # D6 x S3: 6 classes times 3
    shown = tuple((edges, "") for edges in (t.edges for t in puzzle.tiles))
    for i, g in enumerate(group):  # alike elements have the same order
        assert len(g.powers()) == len(group[alike[i]].powers())
    assert turned_looks(puzzle, shown, group[0]) == shown


# ---------------------------------------------------------------- geometry, checked in the plane


def plane_corners(cell: tuple[int, int]) -> list[complex]:
    """A triangle's corners as complex numbers, sides of length 1, y upwards, written here:
    (row, col) points up when row + col is even; corners listed so that side s runs from
    corner s to corner s + 1 in the documented order (up: bottom, left, right)."""
    r, c = cell
    h = math.sqrt(3) / 2
    left, top, bottom = c / 2, -r * h, -(r + 1) * h
    if (r + c) % 2 == 0:
        return [complex(left + 1, bottom), complex(left, bottom), complex(left + 0.5, top)]
    return [complex(left, top), complex(left + 1, top), complex(left + 0.5, bottom)]


def read_sides(corners: list[complex], segments: dict[frozenset, object]) -> tuple:
    """What each side of a cell shows, from coloured segments keyed by their rounded ends."""
    def key(z: complex) -> tuple[float, float]:
        return (round(z.real, 6), round(z.imag, 6))
    return tuple(segments[frozenset((key(corners[s]), key(corners[(s + 1) % 3])))]
                 for s in range(3))


@pytest.mark.parametrize("cell", [(0, 0), (0, 1), (3, 4), (2, 7)])
def test_a_triangle_tiles_turns_are_turns_in_the_plane(cell):
    """Turning a tile by 120 degrees clockwise about its centre, drawn as coloured segments,
    shows what `rotated` says on every cell, pointing up or down."""
    corners = plane_corners(cell)
    centre = sum(corners) / 3
    edges = (("R", ""), ("G", ""), ("B", ""))

    def key(z: complex) -> tuple[float, float]:
        return (round(z.real, 6), round(z.imag, 6))

    for turns in range(3):
        turn = cmath.exp(-2j * math.pi / 3 * turns)  # clockwise, y upwards
        moved = {}
        for s, edge in enumerate(edges):
            a, b = corners[s], corners[(s + 1) % 3]
            moved[frozenset((key(centre + (a - centre) * turn),
                             key(centre + (b - centre) * turn)))] = edge
        assert read_sides(corners, moved) == rotated(edges, turns)


def test_board_symmetries_move_cells_and_sides_as_in_the_plane():
    """Every symmetry of the hexagon of side 2 (turns and mirror images about its centre, made
    from the grid's whole-number lattice) moves each cell's coloured sides as rotating or
    mirroring the plane does."""
    shape = shape_of(["  ^v^v^", " ^v^v^v^", " v^v^v^v", "  v^v^v"])
    here = board(EdgePuzzle("hexagon", 1, 1, (), grid="triangle", shape=shape))
    motions = here.motions(mirror=True)
    assert len(motions) == 12
    points = [plane_corners(cell) for cell in here.cells]
    centre = sum(sum(p) for p in points) / (3 * len(points))

    def key(z: complex) -> tuple[float, float]:
        return (round(z.real, 6), round(z.imag, 6))

    for motion in motions:
        angle = cmath.exp(-1j * math.pi / 3 * motion.steps)  # clockwise
        for i, corners in enumerate(points):
            moved = {}
            for s in range(3):
                ends = []
                for z in (corners[s], corners[(s + 1) % 3]):
                    w = z - centre
                    if motion.mirror:
                        w = complex(-w.real, w.imag)
                    ends.append(key(centre + w * angle))
                moved[frozenset(ends)] = s
            target = points[motion.to[i]]
            assert read_sides(target, moved) == motion.look((0, 1, 2)), motion.name


def test_every_grid_has_every_part():
    for name, grid in GRIDS.items():
        assert grid_named(name) is grid and grid.sides >= 3 and grid.turn_degrees
        assert grid.bordered_order and grid.lattice_name
        cell = (0, 0)
        for side in range(grid.sides):
            across = grid.neighbour(cell, side)
            assert grid.neighbour(across, grid.facing(side)) == cell
        cells = grid.normalise(list(grid.rectangle(2, 3)))
        assert grid.read_picture(grid.picture(cells)) == cells
        assert len(grid.corners(cell)) == grid.sides
    with pytest.raises(InputError, match="'hex'.*one of: square, triangle"):
        grid_named("hex")
    with pytest.raises(InputError, match="grid"):
        EdgePuzzle("x", 1, 1, (), grid="hexagon")
    assert SQUARE.sides == 4 and TRIANGLE.sides == 3


# ---------------------------------------------------------------- MacMahon's sets


@pytest.mark.parametrize("name, colours, sides", [
    ("macmahon-24-squares", ("R", "G", "B"), 4),
    ("macmahon-24-triangles", ("W", "R", "G", "B"), 3), ("macmahon-4-triangles", ("R", "B"), 3)])
def test_macmahon_catalogs_list_what_the_definition_makes(name, colours, sides):
    puzzle = puzzlesat.load(name)
    made = colour_tiles(colours, sides)
    assert len(made) == (4 if len(colours) == 2 else 24)
    assert [(t.edges, t.name) for t in puzzle.tiles] == [(t.edges, t.name) for t in made]


def test_macmahon_triangles_every_symmetry_fixes_no_grid():
    """The grids each element of the hexagon's 12 symmetries with the 6 exchanges of the inner
    colours leaves unchanged: none but the identity (on two backends). Its classes are then the
    grids / 72 (tests marked slow count the grids)."""
    puzzle = puzzlesat.load("macmahon-24-triangles")
    group = puzzle_group(puzzle, "colours")
    from puzzlesat.backends.edgecount import Search
    from puzzlesat.models.edge_matching.encode import encode_cpsat
    from puzzlesat.models.edge_matching.tables import build_tables
    from puzzlesat.registry import resolve

    cpsat = resolve("cpsat", "edge-matching", "count")
    for i in sorted(set(fixing_alike(group)))[1:]:
        search = Search(build_tables(puzzle, group[i]), ())
        search.run(10**12)
        assert search.found == 0, group[i].name
        assert next(iter(cpsat.solutions(encode_cpsat(puzzle, group[i]), 1)), None) is None


@pytest.mark.slow
def test_macmahon_triangles_counted_in_every_convention():
    puzzle = puzzlesat.load("macmahon-24-triangles")
    found = puzzlesat.count(puzzle, "edgecount", "colours", jobs=2)
    assert found.details["grids"] == 11_853_792
    assert found.number == 11_853_792 // 72 == 164_636
    assert set(found.details["fixed_by"].values()) == {0, 11_853_792}


# ---------------------------------------------------------------- files, text, bad input


TRIANGLES = '''kind = "edge-matching"
grid = "triangle"
board = """
.^.
^v^
"""
tiles = """
a a a
a a b
a b b
b b b
"""
'''


def test_a_triangle_gallery_draws_every_grid_as_triangles():
    from puzzlesat.pictures import gallery

    shown = gallery.build_gallery(puzzlesat.load("macmahon-4-triangles"), "symmetry")
    assert "12 grids" in shown.statement and "4 classes" in shown.statement, shown.statement
    assert len(shown.figures) == 4
    drawn = shown.figures[0].svg.inline()
    assert drawn.count('class="edge"') == 4 * 3  # four cells, three sides each


def test_a_triangle_file_reads_counts_and_draws(tmp_path, capsys):
    path = tmp_path / "tri.toml"
    path.write_text(TRIANGLES, encoding="utf-8")
    puzzle = files.load(str(path))
    assert puzzle.grid == "triangle" and len(puzzle.shape) == 4
    assert puzzlesat.count(puzzle, "edgecount").number == 12
    code, out, err = cli(capsys, "solve", str(path))
    assert code == 0 and "^" in out and "v" in out, err
    from puzzlesat.models.edge_matching.reader import to_toml
    again = tmp_path / "again.toml"
    again.write_text(to_toml(puzzle), encoding="utf-8")
    assert files.load(str(again)).shape == puzzle.shape


@pytest.mark.parametrize("change, field, line", [
    (("board = \"\"\"\n.^.\n^v^", "board = \"\"\"\n.^.\n^^^"), "board", 5),
    (("a a b\n", "a a b c\n"), "tiles", None),
    (('grid = "triangle"', 'grid = "hexagonal"'), "grid", 2),
    (("b b b\n\"\"\"\n", "b b b\n\"\"\"\nfixed = \"1 2 1 90\"\n"), "fixed", None),
])
def test_bad_triangle_files_are_one_line(tmp_path, capsys, change, field, line):
    path = tmp_path / "bad.toml"
    text = TRIANGLES.replace(*change)
    assert text != TRIANGLES
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(capsys, "count", str(path))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert f"{field}:" in err, err
    if line is not None:
        assert f"bad.toml:{line}:" in err, err


@pytest.mark.parametrize("clue, words", [
    ("1 2 1 0", "no cell at row 1, column 2 on the board (a board's picture is read from its "
     "first cell: the cell drawn there is row 1, column 3)"),  # '.^.': the '^' is read right
    ("1 1 1 0", "no cell at row 1, column 1 on the board"),  # a '.': nothing drawn there
])
def test_a_clue_typed_where_its_character_stands_is_told_the_cell_drawn_there(
        tmp_path, capsys, clue, words):
    """Regression: a triangle board's picture is read from its first cell, so a clue typed by
    its character's place was refused as off the board with no word of the cell meant."""
    path = tmp_path / "clue.toml"
    path.write_text(TRIANGLES + f'fixed = "{clue}"\n', encoding="utf-8")
    code, out, err = cli(capsys, "count", str(path))
    assert code == 2 and err.strip() == f"puzzlesat: error: {path}:13: fixed: {words}", err


# ---------------------------------------------------------------- the play page, in Chromium


def test_the_triangle_play_page_plays_in_chromium(tmp_path):
    """MacMahon's triangles on their page: 24 triangles drawn as such, a right click turns a
    tile by a third, two clicks swap, and laying a solution (from the page's own hints) by
    clicks is announced as solved, without a console error or a request."""
    from puzzlesat.pictures import browser, play

    why = browser.unavailable()
    if why:
        pytest.skip(why)
    puzzle = puzzlesat.load("macmahon-24-triangles")
    path = tmp_path / "triangles.html"
    path.write_text(play.play_page(puzzle), encoding="utf-8")
    with browser.chromium() as context:
        page = context.new_page()
        page.set_default_timeout(30000)  # a wait for the page, ended by it
        errors: list[str] = []
        page.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.resolve().as_uri())

        def states() -> list[list[int]]:
            return page.eval_on_selector_all(
                "#cells .cell", "gs => gs.sort((a, b) => a.dataset.cell - b.dataset.cell)"
                ".map(g => [Number(g.dataset.tile), Number(g.dataset.rotation)])")

        def click(cell: int, button: str = "left") -> None:
            page.locator(f'#cells .cell[data-cell="{cell}"]').click(button=button)

        assert len(states()) == 24
        assert page.locator("#cells use").first.get_attribute("href").count("-") == 3
        before = states()
        for _ in range(3):
            click(4, "right")
        assert states() == before  # three thirds of a turn
        click(0)
        click(23)
        assert states()[0] == before[23] and states()[23] == before[0]
        solution = page.evaluate("DATA.solutions['1'][0]")
        for cell, (tile, rotation) in enumerate(solution):
            where = [t for t, _ in states()].index(tile)
            if where != cell:
                click(where)
                click(cell)
            for _ in range((rotation - states()[cell][1]) % 3):
                click(cell, "right")
        assert states() == solution
        assert page.inner_text("#status") == "solved"
        assert page.inner_text("#matched") == "matched edges 30/30"
        assert errors == []


@pytest.mark.parametrize("argv, flag", [
    (["--repeat", "0"], "--repeat"), (["--squares", "--repeat", "2"], "--repeat"),
    (["--squares", "--canonical"], "--canonical"), (["--anchor-limit", "5", "--no-anchor"],
                                                    "--anchor-limit")])
def test_the_macmahon_benchmark_refuses_bad_flags_in_one_line(argv, flag, capsys):
    try:
        code = main(["bench", "macmahon", *argv])
    except SystemExit as exited:  # argparse's refusals
        code = exited.code
    assert code == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("puzzlesat: error: ") and flag in said[0], said


def test_the_macmahon_benchmark_runs_whole_on_a_small_board(tmp_path, monkeypatch, capsys):
    """`puzzlesat macmahon-bench` end to end (count timed, Burnside, canonical forms, the record
    and its page) on MacMahon's four two-colour triangles instead of the 24: the same code, a
    board counted in a moment (the 24's full run is minutes: `--record`, by hand)."""
    import json

    from puzzlesat.benchmarks import macmahon_triangles as bench

    monkeypatch.setattr(bench, "PUZZLE", "macmahon-4-triangles")
    assert main(["bench", "macmahon", "--repeat", "2", "--jobs", "1", "--no-anchor", "--canonical",
                 "--results", str(tmp_path)]) == 0
    figures = json.loads((tmp_path / "macmahon-4-triangles.json").read_text(encoding="utf-8"))
    assert figures["grids_counted"] == 12 and len(figures["timings"]) == 2
    classes = {m: c["classes"] for m, c in figures["classes"].items()}
    assert classes == {m: figures["canonical"][m] for m in classes}
    assert classes["colours"] == 1 and figures["canonical"]["grids_listed"] == 12
    assert (tmp_path / "macmahon-4-triangles.md").read_text(encoding="utf-8") == \
        bench.markdown(figures)
    assert "canonical forms agree with Burnside" in capsys.readouterr().err


@pytest.mark.slow
def test_the_macmahon_squares_conventions_are_recorded_when_asked(tmp_path):
    import json

    assert main(["bench", "macmahon", "--squares", "--results", str(tmp_path)]) == 0
    figures = json.loads((tmp_path / "macmahon-24-squares.json").read_text(encoding="utf-8"))
    assert figures["grids_counted"] == figures["grids_listed"] == 106_624
    assert [c["classes"] for c in figures["classes"].values()] == [53_312, 26_656, 26_656,
                                                                   13_328]


def test_the_triangles_benchmark_report_follows_its_figures():
    import json
    from pathlib import Path

    from puzzlesat.benchmarks import macmahon_triangles as bench

    results = Path(__file__).parent.parent / "results"
    figures = json.loads((results / "macmahon-24-triangles.json").read_text(encoding="utf-8"))
    assert figures["grids_counted"] == 11_853_792 and figures["median_seconds"] <= 60
    assert {m: c["classes"] for m, c in figures["classes"].items()} == {
        "symmetry": 1_975_632, "mirror": 987_816, "colours": 164_636}
    assert bench.markdown(figures) == (results / "macmahon-24-triangles.md").read_text(
        encoding="utf-8")
