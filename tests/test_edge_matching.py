"""Edge-matching puzzles: counts on every backend, published solutions, turns, levels, formats.

The counts asserted here are the ones CP-SAT, the PySAT solvers and the reference solver agree
on (results/*.json); no source publishes counts for these puzzles.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.solvers import Solver

from puzzlesat.models import files as puzzlefile
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
from puzzlesat.models.edge_matching import (
    EdgePuzzle,
    FixedTile,
    Tile,
    at_level,
    check_grid,
    grid_from_looks,
    label_factor,
    looks,
    tile_types,
)
from puzzlesat.models.edge_matching.encode import encode_cnf, encode_cpsat, placements
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import read_puzzle_text
from puzzlesat import reference_edge
from puzzlesat.backends import backend_named
from puzzlesat.family_edge_matching import count_edge, count_grids, parity_split

SHARED = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "edge-matching"

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


def load(name: str, level: int = 1) -> EdgePuzzle:
    puzzle = puzzlefile.load(name)
    return at_level(puzzle, level) if puzzle.levels else puzzle


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "puzzlesat.cli", *args],
        capture_output=True, text=True, timeout=600,
    )


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
    tally = backend_named("cpsat").count(encode_cpsat(puzzle), [tuple(keys)], jobs=1)
    assert tally.complete and tally.total == 1
    # the reference: the published grid is among all the grids it enumerates
    shown = tuple(published_looks(puzzle, f"solution_level{level}"))
    found = {looks(puzzle, grid) for grid in reference_edge.grids(puzzle)}
    assert len(found) == AGREED[("diamond-blocks", level)][0]
    assert shown in found


# ---------------------------------------------------------------- counts on every backend


@pytest.mark.parametrize("name, level", sorted(AGREED))
def test_catalog_counts_agree(name, level):
    puzzle = load(name, level)
    grids, classes = AGREED[(name, level)]
    jobs = 2 if len(puzzle.tiles) > 9 else 1
    for backend in ("cpsat", "pysat:cadical195", "reference"):
        found = count_edge(puzzle, backend, "none", jobs=jobs)
        assert found.complete and found.grids == grids, backend
    if len(puzzle.tiles) <= 9 or level == 2:  # the turns, quickly; the blocks' Level 1 below
        for backend in ("pysat:glucose4", "reference"):
            found = count_edge(puzzle, backend, "rotation", jobs=jobs)
            assert found.complete and found.classes == classes, backend


def test_catalog_is_complete():
    names = {name for name, path in puzzlefile.catalog().items()
             if "edge-matching" in path.read_text(encoding="utf-8")}
    assert names == {name for name, _ in AGREED}


def test_block_turns_burnside_and_orbits():
    """No Level 1 block grid looks the same after a turn: classes = grids / 4, by Burnside on
    CP-SAT (grids each turn fixes) and by sorting the reference's grids into orbits."""
    puzzle = load("diamond-blocks", 1)
    burnside = count_edge(puzzle, "cpsat", "rotation", jobs=2)
    assert burnside.fixed == {0: 17_920, 1: 0, 2: 0, 3: 0}
    assert burnside.classes == 17_920 // 4 == AGREED[("diamond-blocks", 1)][1]


def test_cpsat_integer_model_agrees():
    for name in ("scramble-frog", "scramble-crazy-planes"):
        puzzle = load(name)
        n, _, complete = count_grids(puzzle, "cpsat", variant="integers")
        assert complete and n == AGREED[(name, 1)][0]


@pytest.mark.parametrize("encoding", ["pairwise", "totalizer", "ladder"])
def test_cnf_cardinality_encodings_agree(encoding):
    puzzle = load("diamond-blocks", 2)
    n, _, complete = count_grids(puzzle, "pysat:glucose4", encoding=encoding)
    assert complete and n == 12


# ---------------------------------------------------------------- Level 2 = its two parities


@pytest.mark.parametrize("name", ["diamond-blocks", "diamond-blocks-2001"])
def test_level2_is_the_sum_of_its_parities(name):
    puzzle = load(name, 2)
    total = AGREED[(name, 2)][0]
    cases = [parity_split(puzzle, backend, 1, None)
             for backend in ("cpsat", "pysat:cadical195", "reference")]
    assert cases[0] == cases[1] == cases[2]
    assert cases[0]["even"] + cases[0]["odd"] == total
    if name == "diamond-blocks":
        assert cases[0] == {"even": 6, "odd": 6}


def test_parity_not_forced_is_counted_honestly():
    """Marks on a 3x3 board (odd cells): the parity cases need not add up; nothing assumes so."""
    red = ("R", "")
    tiles = tuple([Tile((red, red, red, red), "diamond")] * 2 + [Tile((red, red, red, red))] * 7)
    puzzle = EdgePuzzle("marks", 3, 3, tiles, apart="diamond")
    # 2 apart diamonds on 3x3: pairs of cells not side by side = 36 - 12 = 24
    n, _, _ = count_grids(puzzle, "cpsat")
    assert n == 24 == reference_edge.count(puzzle).grids
    cases = parity_split(puzzle, "pysat:glucose4", 1, None)
    assert cases == {"even": math.comb(5, 2), "odd": math.comb(4, 2)}  # 10 + 6 < 24


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


@pytest.mark.parametrize("edges, grids, classes", [("AABB", 16, 6), ("AAAB", 34, 11)])
def test_rotation_count_with_symmetric_solutions(edges, grids, classes):
    """Four identical tiles on 2x2: some grids look the same after a turn; Burnside's count
    (CP-SAT, PySAT) and the reference's orbits equal the orbits of a brute force."""
    tile = Tile(tuple((ch, "") for ch in edges))  # type: ignore[arg-type]
    puzzle = EdgePuzzle("sym", 2, 2, (tile,) * 4)
    every = brute_force(puzzle)
    orbits = {min(turn_look(g, 2, 2, k) for k in range(4)) for g in every}
    assert (len(every), len(orbits)) == (grids, classes)
    assert classes != grids / 4  # a symmetric case indeed
    for backend in ("cpsat", "pysat:cadical195", "reference"):
        found = count_edge(puzzle, backend, "rotation")
        assert (found.grids, found.classes) == (grids, classes), backend
        assert found.fixed[1] == sum(turn_look(g, 2, 2, 1) == g for g in every)


def test_rotation_on_a_rectangle_is_the_half_turn():
    tiles = tuple(Tile(((a, ""), (b, ""), (a, ""), (b, ""))) for a, b in ["RG"] * 6)
    puzzle = EdgePuzzle("strip", 2, 3, tiles)
    every = brute_force(puzzle)
    orbits = {min(g, turn_look(g, 2, 3, 2)) for g in every}
    found = count_edge(puzzle, "pysat:glucose4", "rotation")
    assert (found.grids, found.classes) == (len(every), len(orbits))
    assert sorted(found.fixed) == [0, 2]


def test_rotation_refused_with_fixed_tiles():
    puzzle = load("scramble-frog")
    pinned = EdgePuzzle(
        puzzle.name, 3, 3, puzzle.tiles, puzzle.rule, fixed=(FixedTile(0, 0, 0, 0),)
    )
    with pytest.raises(InputError, match="fixed tiles"):
        count_edge(pinned, "cpsat", "rotation")


def test_label_tiles_factor():
    # 2026 blocks: kinds of 3, 3, 1, 1, 1, 2, 5 tiles
    assert label_factor(load("diamond-blocks")) == 6 * 6 * 2 * 120
    assert label_factor(load("scramble-crazy-planes")) == 2  # one card appears twice
    assert label_factor(load("scramble-frog")) == 1
    # a symmetric tile (R G R G) adds no factor of its own: only identical tiles are permuted
    sym = Tile((("R", ""), ("G", ""), ("R", ""), ("G", "")))
    other = Tile((("R", ""), ("R", ""), ("G", ""), ("G", "")))
    assert label_factor(EdgePuzzle("x", 2, 2, (sym, sym, sym, other))) == 6


def test_label_tiles_on_the_command_line():
    done = run("count", "scramble-crazy-planes", "--label-tiles", "--modulo", "rotation", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert {"puzzle", "count", "modulo", "backend", "seconds", "complete", "label_tiles",
            "counted"} <= set(out)
    assert (out["count"], out["label_tiles"], out["grids"]) == (4, True, 8)  # 8 x 2! / 4
    assert "physically distinct" in out["counted"]


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
    n, _, _ = count_grids(puzzle, "pysat:glucose4")
    assert n == AGREED[("scramble-frog", 1)][0]


def test_article_format_without_extension_is_sniffed(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text(FROG_ARTICLE, encoding="utf-8")
    done = run("count", str(path), "--backend", "pysat:glucose4")
    assert done.returncode == 0, done.stderr
    assert ARTICLE_FORMAT in done.stderr and "8 distinct grids" in done.stdout


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
    counts = {count_grids(puzzle, b)[0] for b in ("cpsat", "pysat:glucose4")}
    assert counts == {reference_edge.count(puzzle).grids} and counts != {0}


@pytest.mark.skipif(not SHARED.is_dir(), reason="benchmark instances absent")
@pytest.mark.parametrize("name, size", [("clue1", (6, 6)), ("clue2", (6, 12))])
def test_e2_benchmark_files_read_and_solve(name, size):
    path = SHARED / f"{name}.txt"
    puzzle = puzzlefile.load(str(path))
    assert (puzzle.rows, puzzle.cols) == size
    numbers = [line.split() for line in path.read_text().splitlines() if line.strip()]
    assert [line.split() for line in to_e2(puzzle).splitlines()] == numbers
    done = run("solve", str(path), "--backend", "pysat:glucose4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["solved"] and E2_FORMAT in done.stderr


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
def test_bad_input_is_one_line(tmp_path, name, text, needles):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    done = run("count", str(path), "--backend", "pysat:glucose4")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_bad_modulo_and_level():
    for args, needle in [
        (["count", "scramble-frog", "--modulo", "symmetry"], "--modulo"),
        (["count", "scramble-frog", "--level", "2"], "--level"),
    ]:
        done = run(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert needle in done.stderr and len(done.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- the command line


def test_solve_draws_the_grid_without_colour_off_a_terminal():
    done = run("solve", "diamond-blocks", "--level", "2")
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout
    lines = done.stdout.splitlines()
    assert lines[0] == "+" + "+".join(["-----"] * 4) + "+"
    assert sum("*" in line or "◆" in line for line in lines[:17]) == 4  # 2 diamonds per row
    assert "checked" in lines[-1] and "Level 2" in lines[-1]


def test_verify_writes_results(tmp_path):
    done = run("verify", "scramble-insects", "--results", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads((tmp_path / "scramble-insects.json").read_text())
    assert (result["count"], result["rotation_classes"]) == AGREED[("scramble-insects", 1)]
    backends = {run["backend"] for run in result["runs"]}
    assert {"cpsat", "pysat:cadical195", "pysat:glucose4", "reference"} <= backends


def test_export_dimacs(tmp_path):
    out = tmp_path / "frog.cnf"
    done = run("export", "scramble-frog", "--format", "dimacs", "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    clauses = [[int(x) for x in line.split()[:-1]] for line in text.splitlines()
               if line and line[0] not in "cp"]
    assert int(header.split()[3]) == len(clauses)
    with Solver(name="glucose4", bootstrap_with=clauses) as sat:
        assert sat.solve()


def test_fixed_tiles_from_toml_agree_on_every_backend():
    """Fix the frog deck's card in the top left corner as one solution has it."""
    frog = load("scramble-frog")
    tile, rotation = reference_edge.solve(frog)[0]
    text = Path(puzzlefile.catalog()["scramble-frog"]).read_text(encoding="utf-8").replace(
        "[colours]", f'fixed = """\n1 1 {frog.tiles[tile].name} {rotation * 90}\n"""\n[colours]'
    )
    pinned = read_puzzle_text("pinned.toml", text)
    assert pinned.fixed == (FixedTile(0, 0, tile, rotation),)
    counts = {count_grids(pinned, b)[0] for b in ("cpsat", "pysat:glucose4")}
    assert counts == {reference_edge.count(pinned).grids}
    assert 1 <= counts.pop() < AGREED[("scramble-frog", 1)][0]
