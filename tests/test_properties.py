"""Property-based tests (hypothesis) on small random puzzles of every board shape.

Packing: random boards with holes and margins on any side (rows and columns of '.' before and
after the board), random connected pieces, pieces that may be turned over or not, boards whose
only symmetry is the identity. For each puzzle:
- the count with symmetry reduction equals the count without;
- the classes by Burnside's lemma (the models' count plan) equal the classes found by putting
  every solution of the reference solver in canonical form (its own symmetries, no shared code);
- the reference finds as many solutions as CP-SAT on the models' encoding.
Edge-matching: random planted boards (square and not, repeated tiles, with and without a frame,
marked tiles that may not touch):
the grids counted by CP-SAT equal the reference's; the classes up to turning the board by
Burnside (CP-SAT counts of the grids each turn leaves unchanged) equal the canonical forms of
the reference's grids, turned by code written here.

Bounded (max_examples, deadline) so that the default run stays fast.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from _counting import count_cpsat, count_packing, reference_classes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat.backends import reference_edge, reference_packing
from puzzlesat.models.edge_matching import EdgePuzzle, Tile, board_turns
from puzzlesat.models.edge_matching.encode import encode_cpsat as encode_edge
from puzzlesat.models.packing import PackingPuzzle, Piece

PACKING_EXAMPLES = 100  # about 3 s of CPU time
EDGE_BACKEND_EXAMPLES = 15  # four backends each: keeps the default run short
EDGE_EXAMPLES = 60  # about 2 s
API_EXAMPLES = 40  # every backend, with and without symmetry: about 10 s
MANY = 2000  # in the slow run (pytest -m slow)
BOUNDED = settings(
    deadline=None,  # a few examples take a second on a loaded machine; the counts bound them
    derandomize=True,  # the same examples on every run: a failure is reproducible
    suppress_health_check=[HealthCheck.too_slow],
)

Cell = tuple[int, int]
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


# ---------------------------------------------------------------- random packing puzzles


def draw_picture(cells: set[Cell], top=0, left=0, bottom=0, right=0) -> tuple[str, ...]:
    """Rows of 'X' and '.', with margins of '.' on each side."""
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    height = max(r for r, _ in cells) - r0 + 1 + top + bottom
    width = max(c for _, c in cells) - c0 + 1 + left + right
    return tuple(
        "".join("X" if (r - top + r0, c - left + c0) in cells else "." for c in range(width))
        for r in range(height)
    )


def partition(cells: set[Cell], pieces: int, rnd: random.Random) -> list[set[Cell]]:
    """Cells split into connected regions grown from random seeds (about `pieces` of them)."""
    free = set(cells)
    regions: list[set[Cell]] = []
    for seed in rnd.sample(sorted(free), min(pieces, len(free))):
        if seed in free:
            free.discard(seed)
            regions.append({seed})
    while free:
        grown = False
        for region in rnd.sample(regions, len(regions)):
            border = sorted(
                (r + dr, c + dc) for r, c in region for dr, dc in STEPS if (r + dr, c + dc) in free
            )
            if border:
                cell = rnd.choice(border)
                free.discard(cell)
                region.add(cell)
                grown = True
        if not grown:  # cells cut off from every region start their own
            cell = min(free)
            free.discard(cell)
            regions.append({cell})
    return regions


def turned(cells: set[Cell], quarter_turns: int, mirror: bool) -> set[Cell]:
    out = {(r, -c) for r, c in cells} if mirror else set(cells)
    for _ in range(quarter_turns):
        out = {(c, -r) for r, c in out}
    return out


@st.composite
def packing_puzzles(draw) -> PackingPuzzle:
    rnd = draw(st.randoms(use_true_random=False))
    height, width = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    cells = {(r, c) for r in range(height) for c in range(width)}
    shape = draw(st.sampled_from(["rectangle", "holes", "bump"]))
    if shape == "holes":
        for cell in rnd.sample(sorted(cells), draw(st.integers(1, 2))):
            if len(cells) > 3:
                cells.discard(cell)
    elif shape == "bump":  # one extra cell on one side: often no symmetry but the identity
        if draw(st.booleans()):
            cells.add((height, rnd.randrange(width)))  # below the last row
        else:
            cells.add((rnd.randrange(height), width))  # right of the last column
    flip = draw(st.booleans())
    regions = partition(cells, draw(st.integers(2, 4)), rnd)
    pieces = []
    for number, region in enumerate(regions):
        # each piece drawn in a random orientation (turned over only where the rules allow)
        shown = turned(region, rnd.randrange(4), flip and rnd.random() < 0.5)
        pieces.append(Piece(chr(ord("A") + number), draw_picture(shown)))
    margins = [draw(st.integers(0, 2)) for _ in range(4)]
    board = draw_picture(cells, *margins)
    return PackingPuzzle("random", board, tuple(pieces), flip)


def run_property(strategy, check, examples: int) -> None:
    """A property over `examples` examples: the same ones every run, new ones in the slow run."""
    fresh = examples == MANY
    chosen = settings(BOUNDED, max_examples=examples, derandomize=not fresh, database=None)
    chosen(given(strategy)(check))()


@pytest.mark.parametrize("size", ["default", pytest.param("many", marks=pytest.mark.slow)])
def test_packing_counts_agree_on_every_board_shape(size):
    run_property(packing_puzzles(), check_packing, MANY if size == "many" else PACKING_EXAMPLES)


def check_packing(puzzle: PackingPuzzle) -> None:
    plain, no_classes, _ = count_packing(puzzle, "none")
    reduced, classes, plan = count_packing(puzzle, "symmetry")
    assert no_classes is None
    assert reduced == plain  # symmetry reduction keeps the count of solutions
    solutions, canonical_classes = reference_classes(puzzle)
    assert solutions == plain
    assert classes == canonical_classes  # Burnside = canonical forms, however the board is drawn
    assert plain > 0  # the pieces were cut from the board
    if plan.group.order == 1:
        assert classes == plain


# Every backend through the API (puzzlesat.count): the solvers, dancing links, the reference.
BACKENDS = ("cpsat", "pysat:cadical195", "bitboard", "xcover", "reference")


@settings(BOUNDED, max_examples=API_EXAMPLES)
@given(packing_puzzles())
def test_every_backend_agrees_on_every_board_shape(puzzle):
    solutions, classes = reference_classes(puzzle)
    symmetries = len(reference_packing.build(puzzle).symmetries)
    for backend in BACKENDS:
        plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
        reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
        assert plain.complete and reduced.complete, backend
        assert (plain.number, reduced.number) == (solutions, classes), backend
        assert reduced.details["solutions"] == solutions, backend
        # the JSON names the group the classes are taken under: its order and its elements
        group = reduced.to_json()["group"]
        assert group["order"] == len(group["elements"]) and group["elements"][0] == "identity"
        # the reference keeps distinct permutations of the cells: on a board one cell high or
        # wide a mirror can move no cell, so the group named may be twice as large
        assert group["order"] % symmetries == 0, backend
        height = len({r for r, _ in puzzle.cells})
        width = len({c for _, c in puzzle.cells})
        if height > 1 and width > 1:
            assert group["order"] == symmetries, backend


# ---------------------------------------------------------------- random edge-matching boards


@st.composite
def edge_puzzles(draw) -> EdgePuzzle:
    """A planted board: random seam colours cut into tiles, each turned at random, shuffled."""
    rnd = draw(st.randoms(use_true_random=False))
    rows, cols = draw(st.sampled_from([(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4)]))
    colours = [str(k) for k in range(1, draw(st.integers(1, 3)) + 1)]
    frame = draw(st.booleans()) or rows * cols >= 8  # a frame keeps the larger boards small

    def colour(border: bool) -> str:
        return "0" if border and frame else rnd.choice(colours)

    # horizontal seams (above each row, and below the last), vertical seams (left of each col)
    across = [[colour(r in (0, rows)) for _ in range(cols)] for r in range(rows + 1)]
    down = [[colour(c in (0, cols)) for c in range(cols + 1)] for _ in range(rows)]
    apart = draw(st.booleans())  # marked tiles that may not touch: planted on a checkerboard
    tiles = []
    for r in range(rows):
        for c in range(cols):
            edges = (across[r][c], down[r][c + 1], across[r + 1][c], down[r][c])
            turns = rnd.randrange(4)
            edges = edges[turns:] + edges[:turns]
            mark = "d" if apart and (r + c) % 2 == 0 and rnd.random() < 0.6 else ""
            tiles.append(Tile(tuple((e, "") for e in edges), mark, str(len(tiles) + 1)))
    rnd.shuffle(tiles)
    return EdgePuzzle(
        "random", rows, cols, tuple(tiles), "equal", ("0", "") if frame else None,
        apart="d" if apart else None,
    )


def turn_grid(rows: int, cols: int, shown: tuple, quarter_turns: int) -> tuple:
    """A grid of looks (edges top, right, bottom, left; mark) turned clockwise: written here
    again, sharing nothing with the models' turning."""
    grid = [list(shown[r * cols : (r + 1) * cols]) for r in range(rows)]
    for _ in range(quarter_turns):
        grid = [
            [
                ((edges[3], edges[0], edges[1], edges[2]), mark)
                for edges, mark in (grid[len(grid) - 1 - k][c] for k in range(len(grid)))
            ]
            for c in range(len(grid[0]))
        ]
    return tuple(look for row in grid for look in row)


@pytest.mark.parametrize("size", ["default", pytest.param("many", marks=pytest.mark.slow)])
def test_edge_matching_classes_by_burnside_equal_canonical_forms(size):
    run_property(edge_puzzles(), check_edge, MANY if size == "many" else EDGE_EXAMPLES)


def check_edge(puzzle: EdgePuzzle) -> None:
    grids = list(reference_edge.grids(puzzle))
    shown = {
        tuple((tuple(e for e in _turn(puzzle.tiles[t].edges, q)), puzzle.tiles[t].mark)
              for t, q in grid)
        for grid in grids
    }
    assert len(shown) == len(grids) > 0  # distinct grids; the planted one among them
    turns = board_turns(puzzle)
    assert turns == ((0, 1, 2, 3) if puzzle.rows == puzzle.cols else (0, 2))
    fixed = [count_cpsat(encode_edge(puzzle, turns=k)) for k in turns]
    assert fixed[0] == len(grids)
    assert sum(fixed) % len(turns) == 0
    canonical = {
        min(turn_grid(puzzle.rows, puzzle.cols, look, k) for k in turns) for look in shown
    }
    assert sum(fixed) // len(turns) == len(canonical)


def _turn(edges: tuple, quarter_turns: int) -> tuple:
    """A tile's edges turned clockwise (the reference's rotation convention)."""
    k = quarter_turns % 4
    return tuple(edges[(i - k) % 4] for i in range(4))


# ---------------------------------------------------------------- every edge backend agrees


def long_names(puzzle: EdgePuzzle, prefix: str) -> EdgePuzzle:
    """The same puzzle with every colour renamed to a long name sharing a long prefix (names
    that agree in their first 8 characters once made xcover count 28 grids for 4)."""
    def renamed(edge):
        return (prefix + edge[0], edge[1]) if edge[0] != "0" else edge

    tiles = tuple(dataclasses.replace(t, edges=tuple(renamed(e) for e in t.edges))
                  for t in puzzle.tiles)
    return dataclasses.replace(puzzle, tiles=tiles)


def check_edge_backends(puzzle: EdgePuzzle) -> None:
    puzzle = long_names(puzzle, "DRAGONFLY")
    counts = {}
    for backend in puzzlesat.backends(puzzle, "count"):
        if backend in EDGE_BACKENDS:
            found = puzzlesat.count(puzzle, backend=backend, jobs=1)
            assert found.complete, backend
            counts[backend] = found.number
    assert len(set(counts.values())) == 1, counts
    for backend in counts:  # and every solution each lists obeys the rules
        for solution in puzzlesat.solutions(puzzle, backend=backend, limit=3):
            assert solution.found


EDGE_BACKENDS = ("cpsat", "pysat:cadical195", "xcover", "reference")


@pytest.mark.parametrize("size", ["default", pytest.param("many", marks=pytest.mark.slow)])
def test_every_edge_backend_agrees_whatever_the_colour_names(size):
    run_property(edge_puzzles(), check_edge_backends,
                 MANY if size == "many" else EDGE_BACKEND_EXAMPLES)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1e4), max_size=40), st.integers(1, 12))
def test_how_long_n_workers_take_is_within_the_list_scheduling_bounds(seconds, workers):
    """`makespan` (how long N workers take on cubes of these durations, the largest first): never
    less than the work shared evenly or the longest cube, never more than both added."""
    from puzzlesat.checkpoint import makespan

    took = makespan(seconds, workers)
    longest, even = max(seconds, default=0.0), sum(seconds) / workers
    assert max(longest, even) - 1e-6 <= took <= even + longest + 1e-6
    if workers >= len(seconds):
        assert took == longest


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 1000) | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["work", "cube", "values", "seconds", "key", "format", "x"]), inner,
        max_size=4),
    max_leaves=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.lists(JSON, max_size=4), st.booleans(), st.booleans())
def test_any_checkpoint_file_is_read_or_refused_in_words(tmp_path, lines, header, torn):
    """A checkpoint of any content (cube lines of any JSON, a torn last line) is read, or
    refused with an InputError naming the file and line: never another exception (a line of
    JSON without a cube's fields once raised KeyError)."""
    import json

    from puzzlesat.checkpoint import Checkpoint
    from puzzlesat.models.errors import InputError

    path = tmp_path / "count.jsonl"
    text = [json.dumps({"format": "puzzlesat checkpoint 1", "key": {"puzzle": "p"}})] * header
    text += [json.dumps(line) for line in lines]
    path.write_text("\n".join(text) + ("\n" if text and not torn else ""))
    try:
        read = Checkpoint(path, None)
    except InputError as error:
        assert error.file == str(path)
        return
    assert all(isinstance(work, str) and isinstance(cube, int) for work, cube in read.done)
    assert all(type(v) is int for values in read.done.values() for v in values)
