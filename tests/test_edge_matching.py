"""Edge-matching puzzles: counts on every backend, published solutions, turns, levels, formats,
the Python API and the command line.

The counts asserted here are the ones CP-SAT, the PySAT solvers and the reference solver agree
on (results/*.json); no source publishes counts for these puzzles. Counts of the 4x4 blocks on
the SAT solvers take minutes on a loaded 2-core machine: they are marked slow (pytest -m slow).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from pysat.solvers import Solver

import puzzlesat
from puzzlesat.backends import reference_edge
from puzzlesat.cli import edge_matching as edge_cli
from puzzlesat.cli import main
from puzzlesat.counting import Runner
from puzzlesat.executors import LocalExecutor
from puzzlesat.families.edge_matching import FAMILY
from puzzlesat.models import files as puzzlefile
from puzzlesat.models.edge_matching import (
    EdgePuzzle,
    FixedTile,
    Tile,
    check_grid,
    grid_from_looks,
    label_factor,
    looks,
    tile_types,
)
from puzzlesat.models.edge_matching.encode import encode_cnf, encode_cpsat, placements
from puzzlesat.models.edge_matching.reader import (
    ARTICLE_FORMAT,
    E2_FORMAT,
    published_looks,
    read_article,
    read_e2,
    to_article,
    to_e2,
    to_toml,
)
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import read_puzzle_text
from puzzlesat.registry import backend as backend_named
from puzzlesat.registry import resolve

# (catalog name, level): distinct grids, and grids up to turning the board
AGREED = {
    ("scramble-frog", 1): (8, 2),
    ("scramble-insects", 1): (4, 1),
    ("scramble-wizards", 1): (4, 1),
    ("scramble-cowboys", 1): (4, 1),
    ("scramble-crazy-planes", 1): (8, 2),
    ("diamond-blocks", 1): (17_920, 4_480),
    ("diamond-blocks", 2): (12, 3),
    ("diamond-blocks-2001", 1): (5_544, 1_386),
    ("diamond-blocks-2001", 2): (0, 0),
}
BIG = {"diamond-blocks", "diamond-blocks-2001"}  # 4x4: the SAT solvers take long here


def load(name: str, level: int = 1) -> EdgePuzzle:
    return puzzlesat.load(name, level=level) if name in BIG else puzzlesat.load(name)


def count(puzzle, backend: str, modulo: str = "none", jobs: int = 1, **options):
    return puzzlesat.count(puzzle, backend, modulo, jobs=jobs, **options)


def grids(puzzle, backend: str, **options) -> int:
    found = count(puzzle, backend, **options)
    assert found.complete
    return found.number


def parity_split(puzzle, backend: str) -> dict[str, int]:
    chosen = resolve(backend, "edge-matching", "count")
    return FAMILY.parity_counts(puzzle, chosen, Runner(LocalExecutor(), 1))


def cli(capsys, *args: str) -> tuple[int, str, str]:
    """The command line, in this process: (exit code, standard output, standard error)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- the published block solutions


@pytest.mark.parametrize("level", [1, 2])
def test_published_solution_is_valid(level):
    puzzle = load("diamond-blocks", level)
    grid = grid_from_looks(puzzle, published_looks(puzzle, f"solution_level{level}"))
    assert grid is not None
    assert check_grid(puzzle, grid) is None


def test_level1_solution_breaks_level2():
    """The published Level 1 grid has diamonds side by side: not a Level 2 solution."""
    puzzle = load("diamond-blocks", 2)
    grid = grid_from_looks(puzzle, published_looks(puzzle, "solution_level1"))
    assert "diamond" in check_grid(puzzle, grid)


def published_keys(puzzle: EdgePuzzle, level: int) -> list[int]:
    """The placement keys (1-based) the published grid sets true."""
    shown = published_looks(puzzle, f"solution_level{level}")
    options = placements(puzzle)
    types = tile_types(puzzle)
    keys = []
    for cell_index, (edges, mark) in enumerate(shown):
        cell = divmod(cell_index, puzzle.cols)
        hits = [
            k + 1 for k, p in enumerate(options)
            if p.cell == cell and p.edges == edges and types[p.tile_type].mark == mark
        ]
        assert len(hits) == 1
        keys += hits
    return keys


@pytest.mark.parametrize("level", [1, 2])
def test_published_solution_found_by_solvers_and_reference(level):
    puzzle = load("diamond-blocks", level)
    keys = published_keys(puzzle, level)
    # the CNF: the published placements are a model
    with Solver(name="cadical195", bootstrap_with=encode_cnf(puzzle).clauses) as sat:
        assert sat.solve(assumptions=keys)
    # CP-SAT: exactly one solution extends the published placements (they fill the board)
    cpsat = backend_named("cpsat")
    state = cpsat.prepare(cpsat.payload(encode_cpsat(puzzle)))
    assert cpsat.count_cube(state, tuple(keys), None) == ((1,), True)
    # the reference: the published grid is among all the grids it enumerates
    shown = tuple(published_looks(puzzle, f"solution_level{level}"))
    found = {looks(puzzle, grid) for grid in reference_edge.grids(puzzle)}
    assert len(found) == AGREED[("diamond-blocks", level)][0]
    assert shown in found


# ---------------------------------------------------------------- counts on every backend


def _slow_if_big(name, level):
    return pytest.param(name, level, marks=[pytest.mark.slow] if name in BIG else [])


@pytest.mark.parametrize("name, level", [_slow_if_big(n, lv) for n, lv in sorted(AGREED)])
def test_catalog_counts_agree(name, level):
    puzzle = load(name, level)
    total, classes = AGREED[(name, level)]
    jobs = 2 if len(puzzle.tiles) > 9 else 1
    for backend in ("cpsat", "pysat:cadical195", "reference"):
        found = count(puzzle, backend, jobs=jobs)
        assert found.complete and found.number == total, backend
    if len(puzzle.tiles) <= 9 or level == 2:  # the turns, quickly; the blocks' Level 1 below
        for backend in ("pysat:glucose4", "reference"):
            found = count(puzzle, backend, "symmetry", jobs=jobs)
            assert found.complete and found.number == classes, backend


@pytest.mark.parametrize("name, level", sorted(k for k in AGREED if k[0] in BIG))
def test_block_counts_on_cpsat_and_reference(name, level):
    """The default run's share of the 4x4 counts: CP-SAT at Level 2, the reference at both."""
    puzzle = load(name, level)
    total, classes = AGREED[(name, level)]
    found = count(puzzle, "reference", "symmetry")
    assert found.complete and (found.details["grids"], found.number) == (total, classes)
    if level == 2:
        assert grids(puzzle, "cpsat") == total


def test_catalog_is_complete():
    names = {name for name, path in puzzlefile.catalog().items()
             if "edge-matching" in path.read_text(encoding="utf-8")}
    # too large for the reference and the SAT solvers in a test: counted by edgecount and
    # checked on sampled cubes by xcover and CP-SAT (tests/test_edgecount.py)
    large = {"eternity-ii", "eternity-ii-clues"} | {f"eternity-ii-clue{k}" for k in range(1, 5)} | {
        f"owen-{n}x{n}-set{s}" for n in range(6, 11) for s in (1, 2)} | {
        "em-7-3-6", "em-7-4-8", "em-7-4-9", "em-8-4-5", "em-9-3-5", "em-11-3-4", "em-12-2-4",
        "em-14-7-3"}
    macmahon = {"macmahon-24-squares", "macmahon-24-triangles", "macmahon-4-triangles"}
    assert names == {name for name, _ in AGREED} | macmahon | large


@pytest.mark.slow
def test_block_turns_burnside_and_orbits():
    """No Level 1 block grid looks the same after a turn: classes = grids / 4, by Burnside on
    CP-SAT (grids each turn fixes) and by least turned images on the reference."""
    puzzle = load("diamond-blocks", 1)
    burnside = count(puzzle, "cpsat", "symmetry", jobs=2)
    assert burnside.details["fixed_by_turn"] == {"0": 17_920, "90": 0, "180": 0, "270": 0}
    assert burnside.number == 17_920 // 4 == AGREED[("diamond-blocks", 1)][1]
    assert count(puzzle, "reference", "symmetry", jobs=2).number == burnside.number


def test_cpsat_integer_model_agrees():
    for name in ("scramble-frog", "scramble-crazy-planes"):
        puzzle = load(name)
        assert grids(puzzle, "cpsat", cpsat_model="integers") == AGREED[(name, 1)][0]


@pytest.mark.parametrize("encoding", ["pairwise", "totalizer", "ladder"])
@pytest.mark.parametrize("name, level", [
    ("scramble-crazy-planes", 1), pytest.param("diamond-blocks", 2, marks=pytest.mark.slow),
])
def test_cnf_cardinality_encodings_agree(name, level, encoding):
    puzzle = load(name, level)
    assert grids(puzzle, "pysat:glucose4", encoding=encoding) == AGREED[(name, level)][0]


# ---------------------------------------------------------------- Level 2 = its two parities


@pytest.mark.parametrize("name, backends", [
    ("diamond-blocks", ("cpsat", "reference")),
    pytest.param("diamond-blocks", ("cpsat", "pysat:cadical195", "reference"),
                 marks=pytest.mark.slow),
    pytest.param("diamond-blocks-2001", ("cpsat", "pysat:cadical195", "reference"),
                 marks=pytest.mark.slow),
])
def test_level2_is_the_sum_of_its_parities(name, backends):
    puzzle = load(name, 2)
    total = AGREED[(name, 2)][0]
    cases = [parity_split(puzzle, backend) for backend in backends]
    assert all(case == cases[0] for case in cases)
    assert cases[0]["even"] + cases[0]["odd"] == total
    if name == "diamond-blocks":
        assert cases[0] == {"even": 6, "odd": 6}


def test_parity_not_forced_is_counted_honestly():
    """Marks on a 3x3 board (odd cells): the parity cases need not add up; nothing assumes so."""
    red = ("R", "")
    tiles = tuple([Tile((red, red, red, red), "diamond")] * 2 + [Tile((red, red, red, red))] * 7)
    puzzle = EdgePuzzle("marks", 3, 3, tiles, apart="diamond")
    # 2 apart diamonds on 3x3: pairs of cells not side by side = 36 - 12 = 24
    assert grids(puzzle, "cpsat") == 24 == grids(puzzle, "reference")
    cases = parity_split(puzzle, "pysat:glucose4")
    assert cases == {"even": math.comb(5, 2), "odd": math.comb(4, 2)}  # 10 + 6 < 24
    with pytest.raises(ValueError, match="checkerboard"):  # the reference refuses to split
        parity_split(puzzle, "reference")


# ---------------------------------------------------------------- counting up to turns


def turn_look(shown, rows, cols, k):
    """The test's own turn of a grid of looks: cell (r, c) goes to (c, n-1-r), tiles turn too."""
    out = dict(enumerate(shown))
    for _ in range(k):
        turned = {}
        for i, (edges, mark) in out.items():
            r, c = divmod(i, cols)
            turned[c * rows + (rows - 1 - r)] = ((edges[3],) + tuple(edges[:3]), mark)
        out = turned
    return tuple(out[i] for i in range(rows * cols))


def brute_force(puzzle: EdgePuzzle) -> set:
    """Every distinct grid, by trying all orders and turns (small puzzles only)."""
    found = set()
    n = len(puzzle.tiles)
    kinds = [puzzle.tiles.index(tile) for tile in puzzle.tiles]  # identical tiles: one order
    for order in set(itertools.permutations(kinds)):
        tiles = [[i for i in range(n) if kinds[i] == k] for k in range(n)]
        physical = [tiles[k].pop() for k in order]
        for turns in itertools.product(range(4), repeat=n):
            grid = list(zip(physical, turns))
            if check_grid(puzzle, grid) is None:
                found.add(looks(puzzle, grid))
    return found


@pytest.mark.parametrize("edges, total, classes", [("AABB", 16, 6), ("AAAB", 34, 11)])
def test_rotation_count_with_symmetric_solutions(edges, total, classes):
    """Four identical tiles on 2x2: some grids look the same after a turn; Burnside's count
    (CP-SAT, PySAT) and the reference's least images equal the orbits of a brute force."""
    tile = Tile(tuple((ch, "") for ch in edges))  # type: ignore[arg-type]
    puzzle = EdgePuzzle("sym", 2, 2, (tile,) * 4)
    every = brute_force(puzzle)
    orbits = {min(turn_look(g, 2, 2, k) for k in range(4)) for g in every}
    assert (len(every), len(orbits)) == (total, classes)
    assert classes != total / 4  # a symmetric case indeed
    for backend in ("cpsat", "pysat:cadical195", "reference"):
        found = count(puzzle, backend, "symmetry")
        assert (found.details["grids"], found.number) == (total, classes), backend
        if backend != "reference":  # the reference sorts grids into orbits instead
            fixed = found.details["fixed_by_turn"]
            assert fixed["90"] == sum(turn_look(g, 2, 2, 1) == g for g in every)
            assert fixed["180"] == sum(turn_look(g, 2, 2, 2) == g for g in every)


def test_rotation_on_a_rectangle_is_the_half_turn():
    tiles = tuple(Tile(((a, ""), (b, ""), (a, ""), (b, ""))) for a, b in ["RG"] * 6)
    puzzle = EdgePuzzle("strip", 2, 3, tiles)
    every = brute_force(puzzle)
    orbits = {min(g, turn_look(g, 2, 3, 2)) for g in every}
    found = count(puzzle, "pysat:glucose4", "rotation")  # the old word for symmetry
    assert found.modulo == "symmetry"
    assert (found.details["grids"], found.number) == (len(every), len(orbits))
    assert sorted(found.details["fixed_by_turn"]) == ["0", "180"]
    assert found.group.elements == ("identity", "rotate 180")
    assert count(puzzle, "reference", "symmetry").number == len(orbits)


def test_rotation_refused_with_fixed_tiles():
    puzzle = load("scramble-frog")
    pinned = EdgePuzzle(
        puzzle.name, 3, 3, puzzle.tiles, puzzle.rule, fixed=(FixedTile(0, 0, 0, 0),)
    )
    for modulo in ("symmetry", "rotation"):
        with pytest.raises(InputError, match="fixed tiles") as error:
            count(pinned, "cpsat", modulo)
        assert error.value.field == "modulo"


def test_label_tiles_factor():
    # 2026 blocks: kinds of 3, 3, 1, 1, 1, 2, 5 tiles
    assert label_factor(load("diamond-blocks")) == 6 * 6 * 2 * 120
    assert label_factor(load("scramble-crazy-planes")) == 2  # one card appears twice
    assert label_factor(load("scramble-frog")) == 1
    # a symmetric tile (R G R G) adds no factor of its own: only identical tiles are permuted
    sym = Tile((("R", ""), ("G", ""), ("R", ""), ("G", "")))
    other = Tile((("R", ""), ("R", ""), ("G", ""), ("G", "")))
    assert label_factor(EdgePuzzle("x", 2, 2, (sym, sym, sym, other))) == 6


def test_label_tiles_on_the_command_line(capsys):
    code, out, err = cli(capsys, "count", "scramble-crazy-planes", "--label-tiles", "--modulo",
                         "rotation", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert {"puzzle", "count", "modulo", "backend", "seconds", "complete", "label_tiles",
            "counted"} <= set(found)
    assert (found["count"], found["label_tiles"], found["grids"]) == (4, True, 8)  # 8 x 2! / 4
    assert found["solutions"] == 16 and found["label_factor"] == 2
    assert "physically distinct" in found["counted"]


def test_label_tiles_on_every_backend():
    puzzle = load("scramble-crazy-planes")
    for backend in ("cpsat", "reference"):
        assert count(puzzle, backend, label_tiles=True).number == 16
        assert count(puzzle, backend, "symmetry", label_tiles=True).number == 4


# ---------------------------------------------------------------- formats

FROG_ARTICLE = """\
# Frog deck, in the input format of the C# article
# (3 header lines are skipped)
#
0 TAIL-BLUE HEAD-YELLOW HEAD-RED TAIL-RED
1 TAIL-RED HEAD-GREEN HEAD-BLUE HEAD-YELLOW
2 TAIL-BLUE HEAD-BLUE HEAD-GREEN TAIL-RED
3 TAIL-BLUE HEAD-RED HEAD-GREEN HEAD-RED
4 TAIL-YELLOW HEAD-BLUE HEAD-GREEN TAIL-GREEN
5 TAIL-YELLOW TAIL-YELLOW TAIL-GREEN TAIL-RED
6 HEAD-YELLOW HEAD-BLUE HEAD-GREEN HEAD-YELLOW
7 TAIL-YELLOW TAIL-GREEN HEAD-YELLOW TAIL-BLUE
8 TAIL-GREEN TAIL-RED TAIL-BLUE HEAD-RED
"""


def test_article_format_round_trip():
    puzzle = read_puzzle_text("frog.in", FROG_ARTICLE)
    assert puzzle.file_format == ARTICLE_FORMAT and (puzzle.rows, puzzle.cols) == (3, 3)
    again = read_article("again.in", to_article(puzzle))
    assert again.tiles == puzzle.tiles
    via_toml = read_puzzle_text("frog.toml", to_toml(puzzle))
    assert via_toml.tiles == puzzle.tiles and via_toml.rule == "complement"
    # the same deck as the catalog's, written there as T-B (tail of blue)...
    catalog = load("scramble-frog")
    short = tuple(
        tuple((picture[0], half[0]) for picture, half in tile.edges) for tile in puzzle.tiles
    )
    assert short == tuple(tile.edges for tile in catalog.tiles)
    assert grids(puzzle, "pysat:glucose4") == AGREED[("scramble-frog", 1)][0]


def test_article_format_without_extension_is_sniffed(tmp_path, capsys):
    path = tmp_path / "cards.txt"
    path.write_text(FROG_ARTICLE, encoding="utf-8")
    code, out, err = cli(capsys, "count", str(path), "--backend", "pysat:glucose4")
    assert code == 0, err
    assert ARTICLE_FORMAT in err and "8 distinct grids" in out


# a 3x3 board built around a planted solution (border colours 1, 2; interior 3, 4)
E2_SMALL = "0\r\n" + "\r\n".join([
    "0 1 2 0 ", "0 2 3 1", "0 0 1 2  ", "2 4 1 0", "3 3 4 4", "1 0 2 3", "1 2 0 0", "4 1 0 2",
    "2 0 0 1",
]) + "\r\n\r\n"


def test_e2_format_round_trip():
    puzzle = read_puzzle_text("small.txt", E2_SMALL)
    assert puzzle.file_format == E2_FORMAT and (puzzle.rows, puzzle.cols) == (3, 3)
    assert puzzle.frame == ("0", "")
    again = read_e2("again.txt", to_e2(puzzle))
    assert again.tiles == puzzle.tiles
    via_toml = read_puzzle_text("small.toml", to_toml(puzzle))
    assert via_toml.tiles == puzzle.tiles and via_toml.frame == puzzle.frame
    counts = {grids(puzzle, b) for b in ("cpsat", "pysat:glucose4")}
    assert counts == {grids(puzzle, "reference")} and counts != {0}


@pytest.mark.parametrize("name, size", [("clue1", (6, 6)), ("clue2", (6, 12))])
def test_e2_benchmark_files_read_and_solve(name, size, tmp_path, capsys):
    """The catalog's clue puzzles written in Heule's format (as his files are) and read back."""
    catalog = puzzlefile.load(f"eternity-ii-{name}")
    path = tmp_path / f"{name}.txt"
    path.write_text(to_e2(catalog), encoding="utf-8")
    puzzle = puzzlefile.load(str(path))
    assert (puzzle.rows, puzzle.cols) == size and puzzle.tiles == catalog.tiles
    code, out, err = cli(capsys, "solve", str(path), "--backend", "pysat:glucose4", "--json")
    assert code == 0, err
    assert json.loads(out)["solved"] and E2_FORMAT in err


# ---------------------------------------------------------------- bad input

GOOD = '''kind = "edge-matching"
rows = 2
cols = 2
rule = "complement"
halves = ["HEAD", "TAIL"]
tiles = """
HEAD-RED TAIL-RED HEAD-BLUE TAIL-BLUE  count=4
"""
'''

FRAMED = '''kind = "edge-matching"
rows = 3
cols = 3
frame = "0"
tiles = """
0 1 1 0
0 1 1 1
0 0 1 1
1 1 1 0
1 1 1 1
1 0 1 1
1 1 0 0
1 1 0 1
1 0 0 1
"""
'''


@pytest.mark.parametrize(
    "name, text, needles",
    [
        ("bad.toml", GOOD.replace("HEAD-BLUE TAIL-BLUE", "HEAD-BLUE"),
         ["bad.toml:7", "tiles", "3 edges"]),
        ("bad.toml", GOOD.replace("HEAD-BLUE TAIL", "NECK-BLUE TAIL"),
         ["bad.toml:7", "tiles", "'NECK'"]),
        ("bad.toml", GOOD.replace("count=4", "count=3"), ["bad.toml:6", "tiles", "do not fill"]),
        ("bad.toml", FRAMED.replace("1 1 1 1\n", "0 1 0 1\n"),
         ["bad.toml:10", "tiles", "cannot all face the border"]),
        ("bad.toml", FRAMED.replace("1 1 1 1\n", "1 1 1 0\n"), ["bad.toml:4", "frame", "13"]),
        ("bad.in", FROG_ARTICLE.replace("5 TAIL-YELLOW TAIL-YELLOW", "5 NECK-YELLOW TAIL-YELLOW"),
         ["bad.in:9", "TOP", "'NECK'"]),
        ("bad.in", FROG_ARTICLE.replace("TAIL-BLUE HEAD-RED\n", "TAIL-BLUE\n"),
         ["bad.in:12", "card", "3 sides"]),
        ("bad.in", FROG_ARTICLE.replace("8 TAIL-GREEN TAIL-RED TAIL-BLUE HEAD-RED\n", ""),
         ["bad.in", "card", "8 cards"]),
        ("bad.txt", E2_SMALL.replace("2 0 0 1", "2 0 0"), ["bad.txt:10", "piece", "3 edges"]),
    ],
)
def test_bad_input_is_one_line(tmp_path, capsys, name, text, needles):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(capsys, "count", str(path), "--backend", "pysat:glucose4")
    assert code == 2, out + err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.mark.parametrize("args, needle", [
    (["count", "scramble-frog", "--modulo", "reflection"], "--modulo"),
    (["count", "scramble-frog", "--level", "2"], "--level"),
    (["solve", "scramble-frog", "--backend", "cpsat", "--encoding", "totalizer"], "--encoding"),
    (["solve", "scramble-frog", "--backend", "reference", "--cpsat-model", "integers"],
     "--cpsat-model"),
    (["count", "scramble-frog", "--encoding", "nosuch", "--backend", "pysat:glucose4"],
     "--encoding"),
    (["count", "iq-block-8", "--label-tiles"], "--label-tiles"),
    (["solve", "iq-block-8", "--level", "1"], "--level"),
])
def test_bad_options_are_one_line(capsys, args, needle):
    code, out, err = cli(capsys, *args)
    assert code == 2 and "Traceback" not in err
    assert needle in err and len(err.strip().splitlines()) == 1, err


# ---------------------------------------------------------------- the command line


def test_solve_draws_the_grid_without_colour_off_a_terminal(capsys):
    code, out, err = cli(capsys, "solve", "diamond-blocks", "--level", "2")
    assert code == 0, err
    assert "\x1b[" not in out
    lines = out.splitlines()
    assert lines[0] == "+" + "+".join(["-----"] * 4) + "+"
    assert sum("*" in line or "◆" in line for line in lines[:17]) == 4  # 2 diamonds per row
    assert "checked" in lines[-1] and "Level 2" in lines[-1]
    assert "backend: pysat:glucose4" in err  # the measured default, named


def test_solve_json_and_solutions(capsys):
    code, out, err = cli(capsys, "solve", "scramble-frog", "--backend", "reference", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert found["solved"] and found["rules"] == "touching edges complement"
    assert len(found["solution"]) == 3 and {"tile", "rotation", "edges", "mark"} <= set(
        found["solution"][0][0])
    code, out, err = cli(capsys, "solutions", "scramble-frog", "--limit", "3", "--json")
    assert code == 0, err
    assert len(out.splitlines()) == 3


def test_count_prints_burnside(capsys):
    code, out, err = cli(capsys, "count", "scramble-frog", "--modulo", "symmetry",
                         "--backend", "cpsat")
    assert code == 0, err
    assert out.startswith("scramble-frog: 2 distinct grids")
    assert "rules: touching edges complement" in out
    assert "(Burnside): 0°: 8, 90°: 0, 180°: 0, 270°: 0" in out


def test_verify_writes_results(tmp_path, capsys):
    code, out, err = cli(capsys, "verify", "scramble-insects", "--results", str(tmp_path),
                         "--jobs", "1")
    assert code == 0, out + err
    result = json.loads((tmp_path / "scramble-insects.json").read_text())
    assert (result["count"], result["rotation_classes"]) == AGREED[("scramble-insects", 1)]
    backends = {run["backend"] for run in result["runs"]}
    assert {"cpsat", "pysat:cadical195", "pysat:glucose4"} <= backends
    assert any(b.startswith("reference") for b in backends)
    assert "all backends agree: 4 distinct grids" in out


def test_export_dimacs(tmp_path, capsys):
    out_file = tmp_path / "frog.cnf"
    code, _, err = cli(capsys, "export", "scramble-frog", "--format", "dimacs", "-o",
                       str(out_file))
    assert code == 0, err
    text = out_file.read_text()
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    clauses = [[int(x) for x in line.split()[:-1]] for line in text.splitlines()
               if line and line[0] not in "cp"]
    assert int(header.split()[3]) == len(clauses)
    with Solver(name="glucose4", bootstrap_with=clauses) as sat:
        assert sat.solve()


def test_generate_writes_a_planted_board(tmp_path, capsys):
    path = tmp_path / "board.txt"
    code, _, err = cli(capsys, "generate", "4", "--border-colours", "2", "--interior-colours",
                       "3", "--seed", "5", "-o", str(path))
    assert code == 0, err
    assert f"wrote {path}" in err
    puzzle = puzzlesat.load(str(path))
    assert (puzzle.rows, puzzle.cols, puzzle.file_format) == (4, 4, E2_FORMAT)
    assert puzzlesat.solve(puzzle, "reference").found
    code, _, err = cli(capsys, "generate", "3", "--interior-colours", "50", "-o", str(path),
                       "--force")  # (the board written above is replaced only with --force)
    assert code == 2 and "--interior-colours" in err
    code, _, err = cli(capsys, "generate", "3", "-o", str(tmp_path / "absent" / "b.txt"))
    assert code == 2 and "--output" in err


def test_fixed_tiles_from_toml_agree_on_every_backend():
    """Fix the frog deck's card in the top left corner as one solution has it."""
    frog = load("scramble-frog")
    tile, rotation = reference_edge.solve(frog)[0]
    text = Path(puzzlefile.catalog()["scramble-frog"]).read_text(encoding="utf-8").replace(
        "[colours]", f'fixed = """\n1 1 {frog.tiles[tile].name} {rotation * 90}\n"""\n[colours]'
    )
    pinned = read_puzzle_text("pinned.toml", text)
    assert pinned.fixed == (FixedTile(0, 0, tile, rotation),)
    counts = {grids(pinned, b) for b in ("cpsat", "pysat:glucose4")}
    assert counts == {grids(pinned, "reference")}
    assert 1 <= counts.pop() < AGREED[("scramble-frog", 1)][0]
    verified = puzzlesat.verify(pinned, jobs=1)  # no turns with fixed tiles: plain counts only
    assert verified.agree and verified.result["rotation_classes"] is None


# ---------------------------------------------------------------- the Python API


def test_api_load_levels():
    blocks = puzzlesat.load("diamond-blocks")
    assert (blocks.level, blocks.apart) == (1, None)  # Level 1 by default
    level2 = puzzlesat.load("diamond-blocks", level=2)
    assert (level2.level, level2.apart) == (2, "diamond")
    assert puzzlesat.load("scramble-frog", level=1).tiles == load("scramble-frog").tiles
    for name, level in (("scramble-frog", 2), ("diamond-blocks", 3), ("diamond-blocks", "2")):
        with pytest.raises(InputError) as error:
            puzzlesat.load(name, level=level)
        assert error.value.field == "level"
    with pytest.raises(InputError):
        puzzlesat.load("diamond-blocks", colour=True)
    assert "16 tiles (7 kinds) on 4x4" in FAMILY.summary(blocks)


def test_api_solve():
    puzzle = puzzlesat.load("diamond-blocks", level=2)
    for backend in ("cpsat", "pysat:cadical195", "reference", None):
        solution = puzzlesat.solve(puzzle, backend)
        assert solution.found and solution.complete, backend
        assert solution.puzzle == "diamond-blocks-level2" and solution.kind == "edge-matching"
        assert check_grid(puzzle, solution.grid) is None
        assert len(solution.data) == 4 and len(solution.data[0]) == 4
        assert str(solution).startswith("+-----+") and solution.to_json()["solved"]
    assert puzzlesat.solve(puzzle, "cpsat", cpsat_model="integers").found
    assert puzzlesat.solve(puzzle, "pysat:glucose4", encoding="totalizer").found
    none = puzzlesat.solve(puzzlesat.load("diamond-blocks-2001", level=2), "reference")
    assert not none.found and none.complete and none.note == "no solution exists"


def test_api_solve_never_returns_a_broken_grid():
    puzzle = load("scramble-frog")
    broken = [(t, 0) for t in range(9)]
    assert check_grid(puzzle, broken) is not None
    with pytest.raises(AssertionError, match="breaks the rules"):
        FAMILY._solution(puzzle, broken, "test", 0.0)


def test_api_solutions():
    puzzle = load("scramble-frog")
    for backend in ("reference", "cpsat", "pysat:glucose4"):
        found = list(puzzlesat.solutions(puzzle, backend))
        assert len(found) == 8, backend
        assert len({looks(puzzle, s.grid) for s in found}) == 8
        assert all(check_grid(puzzle, s.grid) is None for s in found)
    assert len(list(puzzlesat.solutions(puzzle, limit=3))) == 3
    assert list(puzzlesat.solutions(puzzle, "cpsat", limit=0)) == []
    assert list(puzzlesat.solutions(puzzle, "reference", limit=0)) == []


def test_api_count():
    puzzle = load("scramble-frog")
    plain = puzzlesat.count(puzzle, "cpsat", jobs=1)
    assert (plain.number, plain.modulo, plain.complete) == (8, "none", True)
    assert plain.group.order == 1 and plain.counted.startswith("distinct grids")
    turned = puzzlesat.count(puzzle, "reference", "rotation", jobs=1)
    assert (turned.number, turned.modulo) == (2, "symmetry")
    assert turned.group.elements == ("identity", "rotate 90", "rotate 180", "rotate 270")
    assert "up to turning the whole board (quarter turns)" in turned.counted
    assert turned.to_json()["count"] == 2 and turned.details["classes_by"]


def test_api_count_stopped_early_is_a_lower_bound():
    puzzle = puzzlesat.load("diamond-blocks")
    found = puzzlesat.count(puzzle, "reference", "symmetry", jobs=1, time_limit=0.3)
    assert not found.complete
    assert found.details["grids"] <= 17_920 and found.number <= 4_480
    assert found.number >= -(-found.details["grids"] // 4)
    assert "INCOMPLETE" in found.sentence()


def test_api_errors():
    puzzle = load("scramble-frog")
    for call, field in [
        (lambda: puzzlesat.count(puzzle, modulo="reflection"), "modulo"),
        (lambda: puzzlesat.solve(puzzle, "cpsat", encoding="pairwise"), "encoding"),
        (lambda: puzzlesat.solve(puzzle, "pysat:glucose4", encoding="nosuch"), "encoding"),
        (lambda: puzzlesat.solve(puzzle, "pysat:glucose4", cpsat_model="integers"),
         "cpsat_model"),
        (lambda: puzzlesat.solve(puzzle, "cpsat", cpsat_model="floats"), "cpsat_model"),
        (lambda: puzzlesat.solve(puzzle, label_tiles=True), "label_tiles"),
        (lambda: puzzlesat.solve(puzzle, "table"), "backend"),
        (lambda: puzzlesat.export(puzzle, "opb"), "format"),
    ]:
        with pytest.raises(InputError) as error:
            call()
        assert error.value.field == field


def test_api_backends_and_export():
    names = puzzlesat.backends("scramble-frog")
    assert names[0] == "pysat:glucose4" and "cpsat" in names and "reference" in names
    # the compiled counter where it was built (a C compiler at install), CP-SAT otherwise
    from puzzlesat import native

    compiled = native.available("edgecount")
    assert puzzlesat.backends("scramble-frog", "count")[0] == ("edgecount" if compiled else "cpsat")
    text, summary = puzzlesat.export(puzzlesat.load("diamond-blocks", level=2))
    assert "diamond-blocks-level2" in text and "no two diamond tiles" in text
    assert "placement variables" in summary


def test_api_verify():
    found = puzzlesat.verify("scramble-frog", jobs=1)
    assert found.agree and found.why == ""
    # the solvers, xcover where installed (grids only: --modulo none), and the reference
    assert len(found.counts) >= 4
    assert all(c.modulo == ("none" if c.backend == "xcover" else "symmetry") for c in found.counts)
    result = found.result
    assert (result["count"], result["rotation_classes"]) == AGREED[("scramble-frog", 1)]
    assert result["label_tiles"] == 8 and result["parity"] is None
    assert "fixed by turns" in found.table
    small = puzzlesat.verify("scramble-frog", backends=["reference", "cpsat"], jobs=1)
    assert small.agree and len(small.counts) == 2


def test_api_verify_level2_parities():
    """Level 2 of the blocks: every backend, and the two checkerboard parities (slow SAT runs
    left to the slow test above: CP-SAT and the reference here)."""
    puzzle = puzzlesat.load("diamond-blocks", level=2)
    found = puzzlesat.verify(puzzle, backends=["cpsat", "reference"], jobs=1)
    assert found.agree, found.why
    parity = found.result["parity"]
    assert (parity["even"], parity["odd"], parity["agree"]) == (6, 6, True)
    assert parity["sum_equals_count"]
    assert found.result["published_solutions"] == {"solution_level2": True}
    assert found.result["puzzle"] == "diamond-blocks-level2"
    lines = edge_cli.verify_lines(puzzle, found)
    assert "diamond-blocks-level2: all backends agree: 12 distinct grids" in lines[0]
    assert any("on even cells 6 + on odd cells 6 = 12" in line and "equal to" in line
               for line in lines)
    assert lines[-1] == "diamond-blocks-level2: published solution_level2: a valid solution"


def test_api_count_with_a_checkpoint(tmp_path):
    puzzle = puzzlesat.load("diamond-blocks", level=2)
    path = tmp_path / "count.checkpoint"
    first = puzzlesat.count(puzzle, "reference", "symmetry", jobs=1, checkpoint=str(path))
    assert path.exists() and first.complete
    again = puzzlesat.count(puzzle, "reference", "symmetry", jobs=1, checkpoint=str(path))
    assert (again.number, again.details["grids"]) == (first.number, 12) == (3, 12)
