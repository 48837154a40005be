"""The edge-matching reference solver against brute force, and the planted-board generator.

The brute force here tries every permutation of the tiles and every rotation of each, checks
the rules written out again in this file, and collects the distinct grids: per cell the edges
shown and the mark (identical tiles interchangeable, a symmetric tile's equal-looking rotations
counted once), which is what the reference counts.
"""

from __future__ import annotations

import itertools
import random

import pytest

import puzzlesat
from puzzlesat.backends import reference_edge
from puzzlesat.backends.reference_edge import ReferenceEdge
from puzzlesat.counting import Runner
from puzzlesat.executors import LocalExecutor, Work
from puzzlesat.models import files as puzzlefile
from puzzlesat.models.edge_matching import EdgePuzzle, FixedTile, Tile, at_level, planted

# ---------------------------------------------------------------- brute force


def turn(edges, q):
    """Turn clockwise q times: what was on top is on the right after one turn."""
    edges = list(edges)
    for _ in range(q % 4):
        edges = [edges[3], edges[0], edges[1], edges[2]]
    return tuple(edges)


def fits(a, b, rule):
    return a == b if rule == "equal" else (a[0] == b[0] and a[1] != b[1])


def valid(puzzle: EdgePuzzle, order, turns) -> bool:
    rows, cols = puzzle.rows, puzzle.cols
    shown = [turn(puzzle.tiles[t].edges, q) for t, q in zip(order, turns)]
    mark = [puzzle.tiles[t].mark for t in order]
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        if puzzle.frame is not None:
            outside = (r == 0, c == cols - 1, r == rows - 1, c == 0)
            for side in range(4):
                if (shown[i][side] == puzzle.frame) != outside[side]:
                    return False
        right, below = (i + 1, 1, 3, c + 1 < cols), (i + cols, 2, 0, r + 1 < rows)
        for j, mine, theirs, inside in (right, below):
            if not inside:
                continue
            if not fits(shown[i][mine], shown[j][theirs], puzzle.rule):
                return False
            if puzzle.apart is not None and mark[i] == mark[j] == puzzle.apart:
                return False
    for fixed in puzzle.fixed:
        i = fixed.row * cols + fixed.col
        if order[i] != fixed.tile or turns[i] % 4 != fixed.rotation % 4:
            return False
    return True


def look(puzzle: EdgePuzzle, order, turns) -> tuple:
    return tuple(
        (turn(puzzle.tiles[t].edges, q), puzzle.tiles[t].mark) for t, q in zip(order, turns)
    )


def brute_force(puzzle: EdgePuzzle) -> set[tuple]:
    """Every distinct grid, by trying all permutations x rotations."""
    found = set()
    cells = puzzle.rows * puzzle.cols
    for order in itertools.permutations(range(len(puzzle.tiles))):
        for turns in itertools.product(range(4), repeat=cells):
            if valid(puzzle, order, turns):
                found.add(look(puzzle, order, turns))
    return found


def reference_count(puzzle: EdgePuzzle, classes: bool = False) -> tuple[int, ...]:
    """The backend's count, cube by cube in this process: (grids,) or (grids, classes)."""
    backend = ReferenceEdge()
    model = reference_edge.model(puzzle, classes=classes)
    state = backend.prepare(backend.payload(model))
    totals = [0, 0] if classes else [0]
    for cube in reference_edge.cubes(model):
        values, finished = backend.count_cube(state, cube, None)
        assert finished
        totals = [a + b for a, b in zip(totals, values)]
    return tuple(totals)


def reference_grids(puzzle: EdgePuzzle) -> list[tuple]:
    out = []
    for grid in reference_edge.grids(puzzle):
        order = [t for t, _ in grid]
        turns = [q for _, q in grid]
        assert sorted(order) == list(range(len(puzzle.tiles))), "every tile used once"
        assert valid(puzzle, order, turns), "the reference returned an invalid grid"
        out.append(look(puzzle, order, turns))
    return out


def check(puzzle: EdgePuzzle) -> int:
    expected = brute_force(puzzle)
    found = reference_grids(puzzle)
    assert len(found) == len(set(found)), "a grid found twice"
    assert set(found) == expected
    assert reference_count(puzzle) == (len(expected),)
    first = reference_edge.solve(puzzle)
    assert (first is None) == (not expected)
    solved = ReferenceEdge().solve(reference_edge.model(puzzle))
    assert solved.complete and (solved.values is None) == (not expected)
    if not puzzle.fixed:  # classes up to turning the board: the orbits of the brute force
        turns = [1, 2, 3] if puzzle.rows == puzzle.cols else [2]
        orbits = {min([g] + [turn_grid(g, puzzle.rows, puzzle.cols, k) for k in turns])
                  for g in expected}
        assert reference_count(puzzle, classes=True) == (len(expected), len(orbits))
    return len(expected)


def turn_grid(shown: tuple, rows: int, cols: int, k: int) -> tuple:
    """A grid of looks turned clockwise k quarter turns (rows x cols; k odd: square only)."""
    out = dict(enumerate(shown))
    for _ in range(k):
        turned = {}
        for i, (edges, mark) in out.items():
            r, c = divmod(i, cols)
            turned[c * rows + (rows - 1 - r)] = (turn(edges, 1), mark)
        out = turned
        rows, cols = cols, rows
    return tuple(out[i] for i in range(len(shown)))


# ---------------------------------------------------------------- tiny random puzzles


def equal_tile(rng: random.Random, colours: str, mark: str = "") -> Tile:
    return Tile(tuple((rng.choice(colours), "") for _ in range(4)), mark)


def complement_tile(rng: random.Random, pictures: str) -> Tile:
    return Tile(tuple((rng.choice(pictures), rng.choice("HT")) for _ in range(4)))


SHAPES = [(2, 2), (1, 4), (4, 1), (1, 3), (3, 1)]


@pytest.mark.parametrize("seed", range(12))
def test_equal_rule_with_identical_tiles(seed):
    rng = random.Random(seed)
    rows, cols = SHAPES[seed % len(SHAPES)]
    tiles = [equal_tile(rng, "RG") for _ in range(rows * cols - 1)]
    tiles.append(Tile(turn(tiles[0].edges, 1)))  # a turned copy of the first: identical
    check(EdgePuzzle(f"equal{seed}", rows, cols, tuple(tiles)))


@pytest.mark.parametrize("seed", range(12))
def test_complement_rule(seed):
    rng = random.Random(100 + seed)
    rows, cols = SHAPES[seed % len(SHAPES)]
    tiles = tuple(complement_tile(rng, "AB") for _ in range(rows * cols))
    check(EdgePuzzle(f"complement{seed}", rows, cols, tiles, rule="complement"))


def test_symmetric_tiles_count_once_per_look():
    """Four all-red tiles: one grid, though 4! x 4^4 arrangements of the physical tiles."""
    red = Tile(tuple(("R", "") for _ in range(4)))
    assert check(EdgePuzzle("red", 2, 2, (red,) * 4)) == 1
    half_turn = Tile((("R", ""), ("G", ""), ("R", ""), ("G", "")))  # looks the same turned twice
    assert check(EdgePuzzle("stripes", 1, 2, (half_turn, half_turn))) == 2


def planted_tiles(rng: random.Random, rows: int, cols: int, colours: str) -> list[Tile]:
    """Tiles of a random grid with frame colour 0 on the border, shuffled and turned."""
    frame = ("0", "")
    across = {(r, c): (rng.choice(colours), "") for r in range(rows) for c in range(cols)}
    down = {(r, c): (rng.choice(colours), "") for r in range(rows) for c in range(cols)}
    tiles = []
    for r in range(rows):
        for c in range(cols):
            edges = (
                down[(r - 1, c)] if r > 0 else frame,
                across[(r, c)] if c < cols - 1 else frame,
                down[(r, c)] if r < rows - 1 else frame,
                across[(r, c - 1)] if c > 0 else frame,
            )
            tiles.append(Tile(turn(edges, rng.randrange(4))))
    rng.shuffle(tiles)
    return tiles


@pytest.mark.parametrize("seed", range(8))
def test_frame(seed):
    rng = random.Random(200 + seed)
    rows, cols = [(2, 2), (1, 4), (3, 1), (1, 5)][seed % 4]
    tiles = planted_tiles(rng, rows, cols, "RG")
    assert check(EdgePuzzle(f"frame{seed}", rows, cols, tuple(tiles), frame=("0", ""))) >= 1


def test_frame_edge_inside_is_refused():
    """A frame edge that would have to face a neighbour: no grid."""
    frame = ("0", "")
    tiles = tuple(Tile((frame, frame, frame, frame)) for _ in range(2))
    assert check(EdgePuzzle("frames", 1, 2, tiles, frame=frame)) == 0


@pytest.mark.parametrize("seed", range(8))
def test_fixed_tiles(seed):
    rng = random.Random(300 + seed)
    rows, cols = SHAPES[seed % len(SHAPES)]
    tiles = tuple(equal_tile(rng, "RG") for _ in range(rows * cols))
    free = EdgePuzzle(f"free{seed}", rows, cols, tiles)
    solutions = brute_force(free)
    if solutions:  # fix a tile where some solution has it
        some = reference_edge.solve(free)
        cell = rng.randrange(rows * cols)
        tile, rotation = some[cell]
    else:
        cell, tile, rotation = 0, 0, 1
    fixed = (FixedTile(cell // cols, cell % cols, tile, rotation),)
    n = check(EdgePuzzle(f"fixed{seed}", rows, cols, tiles, fixed=fixed))
    assert (n >= 1) == bool(solutions)


@pytest.mark.parametrize("seed", range(10))
def test_apart_rule(seed):
    """Checkerboard case (2x2, two marks) and direct checks (one mark, or one row)."""
    rng = random.Random(400 + seed)
    rows, cols = [(2, 2), (2, 2), (1, 4), (4, 1), (1, 5)][seed % 5]
    marks = 2 if seed % 5 != 1 else 1
    tiles = tuple(
        equal_tile(rng, "RG", "diamond" if i < marks else "") for i in range(rows * cols)
    )
    puzzle = EdgePuzzle(f"apart{seed}", rows, cols, tiles, apart="diamond")
    n = check(puzzle)
    assert n <= len(brute_force(EdgePuzzle("no rule", rows, cols, tiles)))
    if reference_edge.build(puzzle).checkerboard:
        assert sum(reference_edge.parity_counts(puzzle).values()) == n
        by_parity = []
        for p in (0, 1):
            model = reference_edge.model(puzzle, parity=p)
            by_parity.append(sum(ReferenceEdge().count_cube(model, cube, None)[0][0]
                                 for cube in reference_edge.cubes(model)))
        assert by_parity == [reference_edge.parity_counts(puzzle)[name]
                             for name in reference_edge.PARITIES]


def test_parity_counts_refused_without_checkerboard():
    tiles = (Tile((("R", ""),) * 4, "diamond"),) + (Tile((("R", ""),) * 4),) * 3
    with pytest.raises(ValueError):
        reference_edge.parity_counts(EdgePuzzle("one", 2, 2, tiles, apart="diamond"))


def test_too_few_tiles_give_no_grid():
    tiles = (Tile((("R", ""),) * 4),) * 3
    assert reference_count(EdgePuzzle("short", 2, 2, tiles)) == (0,)
    assert reference_edge.solve(EdgePuzzle("short", 2, 2, tiles)) is None
    assert puzzlesat.count(EdgePuzzle("short", 2, 2, tiles), "reference").number == 0


# ---------------------------------------------------------------- the catalog's diamond blocks


def published_looks(text: str) -> tuple:
    """A published solution: per cell its four edge letters, '*' when it carries a diamond."""
    cells = []
    for word in text.split():
        cells.append((tuple((ch, "") for ch in word[:4]), "diamond" if word.endswith("*") else ""))
    return tuple(cells)


@pytest.mark.parametrize("level", [1, 2])
def test_diamond_blocks_published_solutions_found(level):
    puzzle = at_level(puzzlefile.load("diamond-blocks"), level)
    wanted = published_looks(str(puzzle.published[f"solution_level{level}"]))
    found = {
        look(puzzle, [t for t, _ in grid], [q for _, q in grid])
        for grid in reference_edge.grids(puzzle)
    }
    assert wanted in found
    result = puzzlesat.count(puzzle, "reference", jobs=1)
    assert result.complete and result.number == len(found)


def test_level2_is_the_sum_of_its_parities():
    puzzle = at_level(puzzlefile.load("diamond-blocks"), 2)
    parities = reference_edge.parity_counts(puzzle)
    assert set(parities) == {"even", "odd"}
    assert sum(parities.values()) == reference_count(puzzle)[0] > 0


def test_count_in_worker_processes_agrees():
    puzzle = puzzlefile.load("scramble-frog")
    one = reference_count(puzzle, classes=True)
    backend = ReferenceEdge()
    model = reference_edge.model(puzzle, classes=True)
    work = Work("all", "reference:edge-matching", backend.payload(model),
                reference_edge.cubes(model))
    runner = Runner(LocalExecutor(), 2)
    [tally] = runner.run([work], {"test": "reference in two processes"})
    assert tally.complete and (tally.total(0), tally.total(1)) == one
    assert one[0] > 0


# ---------------------------------------------------------------- planted boards


def test_planted_board_is_valid_and_solvable():
    puzzle = planted.generate(5, 2, 4, seed=7)
    assert puzzle == planted.generate(5, 2, 4, seed=7)  # reproducible
    assert puzzle.tiles != planted.generate(5, 2, 4, seed=8).tiles
    grid = puzzle.published["planted"]
    order = [t for t, _ in grid]
    assert sorted(order) == list(range(25))
    assert valid(puzzle, order, [q for _, q in grid])
    colours = {e[0] for tile in puzzle.tiles for e in tile.edges}
    assert colours == {str(c) for c in range(0, 2 + 4 + 1)}  # frame 0, interior 1-4, border 5-6
    found = reference_edge.solve(puzzle)
    assert found is not None and valid(puzzle, [t for t, _ in found], [q for _, q in found])


def test_planted_board_refuses_more_colours_than_joints():
    from puzzlesat.models.errors import InputError

    with pytest.raises(InputError):
        planted.generate(3, 2, 50, seed=1)


def test_benchmark_file_reads_back(tmp_path):
    puzzle = planted.generate(6, 3, 5, seed=3)
    path = tmp_path / "board.txt"
    path.write_text(planted.benchmark_text(puzzle))
    again = puzzlefile.load(str(path))
    assert (again.rows, again.cols, again.rule, again.frame) == (6, 6, "equal", ("0", ""))
    assert [t.edges for t in again.tiles] == [t.edges for t in puzzle.tiles]
    assert valid(again, [t for t, _ in puzzle.published["planted"]],
                 [q for _, q in puzzle.published["planted"]])
