"""The compiled edge-matching counter (`edgecount`) against the other backends.

Every catalog edge puzzle and hypothesis-generated boards (repeated tiles, symmetric tiles,
fixed tiles, frames, the diamond rule, the complement rule): edgecount's grids equal the
reference backtracker's, its classes up to turns (Burnside, each turn's unchanged grids counted
by a search over one cell per orbit) equal the canonical forms of the reference's enumeration
(turned by code written here), and a count killed and resumed from its checkpoint is whole.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np
import pytest
from _patience import HANG
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat import native
from puzzlesat.backends import reference_edge
from puzzlesat.backends.edgecount import Search, TileMasks, estimate, tile_masks
from puzzlesat.models import files
from puzzlesat.models.edge_matching import (
    EdgePuzzle,
    FixedTile,
    Tile,
    at_level,
    check_grid,
    planted,
)
from puzzlesat.models.edge_matching.reader import to_toml
from puzzlesat.models.edge_matching.tables import (
    ORDERS,
    build_tables,
    grid_of_nodes,
    pin_choices,
    plan_cubes,
    random_cube,
)

if not native.available("edgecount"):
    pytest.skip("the compiled edgecount search was not built (no C compiler at install)",
                allow_module_level=True)

CATALOG = [name for name in files.catalog()
           if files.load(name).kind == "edge-matching"]
# the reference (a Python backtracker) counts boards up to 24 cells in a test; the larger
# catalog boards (Eternity II, its clue puzzles, Heule's and Owen's boards) are counted by
# edgecount and checked on sampled cubes and against published figures (results/)
SMALL_CATALOG = [name for name in CATALOG
                 if files.load(name).rows * files.load(name).cols <= 24]


def levels(name: str) -> list[EdgePuzzle]:
    puzzle = files.load(name)
    return [at_level(puzzle, k + 1) for k in range(len(puzzle.levels))] or [puzzle]


@pytest.mark.parametrize("name", [
    # the 2001 edition: the same check on a sibling 4x4 board (the default run keeps one)
    pytest.param(n, marks=pytest.mark.slow) if n.startswith("macmahon") or n.endswith("2001")
    else n for n in SMALL_CATALOG])
def test_edgecount_agrees_with_the_reference_on_every_small_catalog_puzzle(name):
    for puzzle in levels(name):
        ours = puzzlesat.count(puzzle, backend="edgecount", modulo="symmetry", jobs=2)
        theirs = puzzlesat.count(puzzle, backend="reference", modulo="symmetry", jobs=1)
        assert ours.complete and theirs.complete
        assert ours.details["grids"] == theirs.details["grids"]
        assert ours.details["grid_classes"] == theirs.details["grid_classes"]


@pytest.mark.parametrize("name", [n for n in CATALOG if n.startswith("scramble")])
def test_verify_runs_edgecount_with_every_backend(name):
    found = puzzlesat.verify(name, jobs=1)
    assert found.agree
    assert "edgecount" in {run["backend"] for run in found.result["runs"]}


# ---------------------------------------------------------------- generated boards


@st.composite
def boards(draw) -> EdgePuzzle:
    """A planted board (seams coloured at random, cut into tiles, turned, shuffled) with, at
    random, few colours (identical and symmetric tiles), a frame or a border colour (MacMahon's
    rule: one colour all round, which may show inside), the complement rule, marks
    that may not touch, a fixed tile, or a tile replaced by a copy of another."""
    rnd = draw(st.randoms(use_true_random=False))
    rows, cols = draw(st.sampled_from([(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4),
                                       (3, 4)]))
    frame = draw(st.booleans()) or rows * cols >= 9
    complement = draw(st.booleans())
    border = not complement and draw(st.booleans())  # one colour all round, inside too
    frame = frame and not border
    colours = [str(k) for k in range(1, draw(st.integers(1, 3)) + 1)]

    def seam(outside: bool) -> tuple:  # (what the first side shows, what the second shows)
        if outside and frame:
            return ("0", ""), ("0", "")
        if outside and border:
            return ("1", ""), ("1", "")
        picture = rnd.choice(colours)
        if not complement:
            return (picture, ""), (picture, "")
        halves = ("H", "T") if rnd.random() < 0.5 else ("T", "H")
        return (picture, halves[0]), (picture, halves[1])

    across = [[seam(r in (0, rows)) for _ in range(cols)] for r in range(rows + 1)]
    down = [[seam(c in (0, cols)) for c in range(cols + 1)] for _ in range(rows)]
    apart = draw(st.booleans())
    planted = []
    for r in range(rows):
        for c in range(cols):
            edges = (across[r][c][1], down[r][c + 1][0], across[r + 1][c][0], down[r][c][1])
            mark = "d" if apart and (r + c) % 2 == 0 and rnd.random() < 0.6 else ""
            planted.append(((r, c), edges, mark))
    if draw(st.booleans()) and len(planted) > 2:  # a copy of another tile (maybe unsolvable)
        a, b = rnd.sample(range(len(planted)), 2)
        planted[a] = (planted[a][0], planted[b][1], planted[b][2])
    tiles, fixed = [], []
    pin = draw(st.booleans())
    order = list(range(len(planted)))
    rnd.shuffle(order)
    for k, i in enumerate(order):
        (r, c), edges, mark = planted[i]
        turns = rnd.randrange(4)
        tiles.append(Tile(edges[turns:] + edges[:turns], mark, str(k + 1)))
        if pin and not fixed:
            fixed.append(FixedTile(r, c, k, (4 - turns) % 4))
    frame_edge = ("0", "") if frame else None
    return EdgePuzzle("generated", rows, cols, tuple(tiles),
                      "complement" if complement else "equal", frame_edge,
                      apart="d" if apart else None, fixed=tuple(fixed),
                      border=("1", "") if border else None)


def turn_grid(rows: int, cols: int, shown: tuple, quarter_turns: int) -> tuple:
    """A grid of looks turned clockwise, written here (no symmetry code shared)."""
    grid = [list(shown[r * cols:(r + 1) * cols]) for r in range(rows)]
    for _ in range(quarter_turns):
        grid = [[((e[3], e[0], e[1], e[2]), mark)
                 for e, mark in (grid[len(grid) - 1 - k][c] for k in range(len(grid)))]
                for c in range(len(grid[0]))]
    return tuple(look for row in grid for look in row)


def looks_of(puzzle: EdgePuzzle, grid) -> tuple:
    out = []
    for t, q in grid:
        e = puzzle.tiles[t].edges
        out.append((tuple(e[(i - q) % 4] for i in range(4)), puzzle.tiles[t].mark))
    return tuple(out)


def check_board(puzzle: EdgePuzzle) -> None:
    grids = list(reference_edge.grids(puzzle))
    shown = {looks_of(puzzle, g) for g in grids}
    assert len(shown) == len(grids)
    modulo = "none" if puzzle.fixed else "symmetry"
    ours = puzzlesat.count(puzzle, backend="edgecount", modulo=modulo, jobs=1)
    assert ours.complete
    assert ours.details["grids"] == len(grids)
    if modulo == "symmetry":
        turns = (0, 1, 2, 3) if puzzle.rows == puzzle.cols else (0, 2)
        canonical = {min(turn_grid(puzzle.rows, puzzle.cols, s, k) for k in turns)
                     for s in shown}
        assert ours.details["grid_classes"] == len(canonical)
        unchanged = {k: sum(turn_grid(puzzle.rows, puzzle.cols, s, k) == s for s in shown)
                     for k in turns}
        assert ours.details["fixed_by_turn"] == {str(k * 90): v for k, v in unchanged.items()}
    for order in ORDERS:  # every fill order, and cubes of every size, count the same
        model = build_tables(puzzle, 0, order)
        cubes, weights, sizes = plan_cubes(model, 7)
        assert len(sizes) == len(cubes) and all(0 < x <= 1 for x in sizes)
        total = 0
        for cube, w in zip(cubes, weights):
            search = Search(model, cube)
            search.run(10**9)
            total += w * search.found
        assert total == len(grids), order
    for parts in pin_choices(puzzle):  # a tile alone of its kind pinned, in every order
        for order in ("rows", "corners"):
            total = 0
            for part, weight, _ in parts:
                search = Search(build_tables(part, 0, order), ())
                search.run(10**9)
                total += weight * search.found
            assert total == len(grids), (order, parts[0][2])
    listed = {looks_of(puzzle, s.grid) for s in puzzlesat.solutions(puzzle, backend="edgecount")}
    assert listed == shown


@pytest.mark.parametrize("examples", [25, pytest.param(300, marks=pytest.mark.slow)])
def test_edgecount_agrees_with_the_reference_on_generated_boards(examples):
    settings(max_examples=examples, deadline=None,
             suppress_health_check=list(HealthCheck))(given(boards())(check_board))()


def run_to_the_end(search: Search, budget: int, first: bool = False, puzzle=None,
                   checked: set | None = None) -> tuple:
    """(grids, nodes) of a search run in slices of `budget` nodes; with `first`, stopped at
    each last cell with grids and resumed, the grid it holds there checked against the rules
    (the cube's cells and the found last cell: a whole grid), once where `checked` holds the
    grids of this search's model checked already (as their nodes)."""
    checked = set() if checked is None else checked
    while True:
        before = search.found
        over = search.run(budget, first=first)
        if first and search.found > before:
            nodes = tuple(search.placed.tolist())
            if nodes not in checked:
                grid = grid_of_nodes(search.model, puzzle, list(nodes))
                assert check_grid(puzzle, grid) is None, grid
                checked.add(nodes)
        if over:
            return search.found, search.nodes


def word_sizes(model) -> list[int]:
    """Words of fewer bits than 64, so that these small boards take the two-word search as a
    board of 65-128 tiles does (the bits of a word a parameter of the tables alone)."""
    tiles = int(model.stock.sum())
    return sorted({b for b in (-(-tiles // 2), -(-tiles // 2) + 1, tiles - 1, tiles)
                   if b >= 1 and TileMasks.fit(model, b)})


def check_tile_search(puzzle: EdgePuzzle) -> None:
    """`search_tiles` (the default where its tables fit) and `search_tiles2` (tiles in two
    words: words of a few bits here) against the scan `search`: every fill order, cubes of
    every size, the grids of each cube and the nodes, run in slices of a few nodes (a search
    stopped and resumed anywhere) and stopped at every grid found (a solve), each grid
    checked: each grid once per fill order, though every cube size and search finds it
    (checked at every find, one random board of 10,202 grids took 150 s, and the test once
    301 s)."""
    for order in ORDERS:
        model = build_tables(puzzle, 0, order)
        checked: set = set()  # the grids of this model checked, as their nodes
        assert (tile_masks(model) is not None) == TileMasks.fit(model)
        masks = [TileMasks(model, bits) for bits in word_sizes(model)]
        assert all(m.words == (1 if bits >= model.stock.sum() else 2)
                   for m, bits in zip(masks, word_sizes(model)))
        for wanted in (1, 7, 60):
            cubes, _, _ = plan_cubes(model, wanted)
            for cube in cubes:
                runs = []
                for tiles, budget in ((True, 10**9), (True, 3), (False, 10**9),
                                      *((m, b) for m in masks for b in (10**9, 3))):
                    search = Search(model, cube, tiles)
                    if tiles is True:
                        assert (search.masks is not None) == TileMasks.fit(model)
                    runs.append(run_to_the_end(search, budget))
                for tiles in (True, False, *masks):
                    runs.append(run_to_the_end(Search(model, cube, tiles), 5, True, puzzle,
                                               checked))
                assert len(set(runs)) == 1, (order, cube, runs)


@pytest.mark.parametrize("examples", [25, pytest.param(400, marks=pytest.mark.slow)])
def test_the_tile_search_counts_the_grids_and_nodes_of_the_scan(examples):
    settings(max_examples=examples, deadline=None,
             suppress_health_check=list(HealthCheck))(given(boards())(check_tile_search))()


@pytest.mark.parametrize("size, border, interior", [(9, 7, 14), (10, 8, 16), (11, 10, 24)])
def test_the_tile_search_over_64_tiles_counts_the_grids_and_nodes_of_the_scan(
        size, border, interior):
    """Planted boards of 81, 100 and 121 tiles (two words: the border's and the interior's
    tiles apart on the 9x9 and 10x10, the 11x11's 81 interior tiles across both words), whole
    in cubes, and stopped at every grid found."""
    puzzle = planted.generate(size, border, interior, 1)
    model = build_tables(puzzle, 0, "rows")  # (frame first: 10^9 nodes and more here)
    assert tile_masks(model).words == 2
    cubes, weights, _ = plan_cubes(model, 8)
    runs = [[], [], []]
    for cube in cubes:
        for run, tiles, first in zip(runs, (True, False, True), (False, False, True)):
            run.append(run_to_the_end(Search(model, cube, tiles), 10**7, first, puzzle))
    assert runs[0] == runs[1] == runs[2]
    assert sum(w * grids for w, (grids, _) in zip(weights, runs[0])) == 4  # its turns


@pytest.mark.parametrize("name, order, depth", [("owen-9x9-set1", "frame", 40),
                                                ("eternity-ii-clue2", "rows", 46),
                                                ("owen-10x10-set1", "frame", 50)])
def test_the_tile_search_counts_cubes_of_the_large_catalog_boards_as_the_scan(name, order,
                                                                              depth):
    """Random cubes of Owen's 9x9 and 10x10 and the clue puzzle 2 (81, 100, 72 tiles), deep
    enough to search whole: the same grids and nodes as the scan."""
    model = build_tables(files.load(name), 0, order)
    rng = np.random.default_rng(3)
    searched = 0
    for _ in range(3000):
        cube = random_cube(model, depth, rng)
        if cube is None:
            continue
        tiles = Search(model, cube)
        assert tiles.masks is not None and tiles.masks.words == 2
        if not tiles.run(2 * 10**6):
            continue  # (too long for a test)
        scan = Search(model, cube, tiles=False)
        while not scan.run(10**9):
            pass
        assert (tiles.found, tiles.nodes) == (scan.found, scan.nodes), cube
        searched += 1
        if searched == 10:
            break
    assert searched == 10


def kernel_arguments(search: Search) -> list:
    """The arguments `Search.run` gives the compiled search it runs (the scan, or the tile
    search in one or two words), for a budget of 1,000 nodes."""
    m, masks = search.model, search.masks
    if masks is None:
        return [m.node_mark, m.near, search.keyed, m.base_key, m.mult, m.table, m.candidates,
                m.apart, search.stock, search.placed, search.pos, search.last, search.state,
                search.base, 1000, False, search.cand_type, search.known]
    return [masks.older, masks.older_keyed, masks.base_key, masks.layers, masks.cands,
            search.placed, search.frame, search.state, search.base, 1000, masks.older_count,
            False]


@pytest.mark.parametrize("tiles", [False, True, "two words"])
def test_a_wrong_argument_to_the_compiled_search_is_a_python_error(tiles):
    """The C kernel (runners/csrc/edgecount.c) checks what it is given: the wrong number of
    arguments, a list, a float array, an array of the wrong item size or shape, a read-only
    array it writes, a saved depth outside the search, a negative budget: each a TypeError
    or ValueError, never a crash; the right arguments then still search."""
    from puzzlesat.backends.edgecount import _kernel

    model = build_tables(files.load("diamond-blocks"), 0, "rows")
    search = Search(model, (), TileMasks(model, bits=10) if tiles == "two words" else tiles)
    name = "search" if search.masks is None else search.masks.kernel
    assert name == {False: "search", True: "search_tiles", "two words": "search_tiles2"}[tiles]
    kernel = getattr(_kernel(), name)
    right = kernel_arguments(search)
    written = [i for i, a in enumerate(right) if isinstance(a, np.ndarray) and
               any(a is b for b in (search.placed, search.state, search.stock, search.pos,
                                    search.last, getattr(search, "frame", None)))]
    state = next(i for i, a in enumerate(right) if a is search.state)
    placed = next(i for i, a in enumerate(right) if a is search.placed)
    with pytest.raises(TypeError, match="arguments"):
        kernel(*right[:-1])
    for i, value in enumerate(right):
        if not isinstance(value, np.ndarray):
            continue
        wrong = [value.tolist(), value.astype(np.float64 if value.itemsize == 8 else
                                              np.float32),
                 value.astype(np.int16), value.reshape(-1)[:1].reshape((1,) * (value.ndim + 1))]
        if i in written:
            frozen = value.copy()
            frozen.flags.writeable = False
            wrong.append(frozen)
        for bad in wrong:
            with pytest.raises((TypeError, ValueError)):
                kernel(*right[:i], bad, *right[i + 1:])
    with pytest.raises(ValueError, match="length"):
        kernel(*right[:placed], search.placed[:-1].copy(), *right[placed + 1:])
    for bad_state in ([-1, 0, 0], [model.depths, 0, 0]):
        with pytest.raises(ValueError, match="depth"):
            kernel(*right[:state], np.array(bad_state, dtype=np.int64), *right[state + 1:])
    budget = state + 2
    with pytest.raises(ValueError, match="budget"):
        kernel(*right[:budget], -1, *right[budget + 1:])
    with pytest.raises(TypeError, match="budget"):
        kernel(*right[:budget], "many", *right[budget + 1:])
    assert search.nodes == 0  # nothing ran
    kernel(*right)
    assert 0 < search.nodes <= 1000 + model.depths * len(model.candidates)


def test_symmetric_boards_have_grids_a_turn_keeps():
    """One colour: every tile the same and symmetric, a single grid, kept by every turn."""
    tile = Tile((("a", ""),) * 4)
    for rows, cols in ((2, 2), (3, 3), (2, 3)):
        puzzle = EdgePuzzle("plain", rows, cols, (tile,) * (rows * cols))
        found = puzzlesat.count(puzzle, backend="edgecount", modulo="symmetry", jobs=1)
        assert found.details["grids"] == 1 and found.details["grid_classes"] == 1
        assert set(found.details["fixed_by_turn"].values()) == {1}


def test_the_estimate_is_exact_on_a_tree_with_one_path():
    puzzle = files.load("scramble-frog")
    model = build_tables(puzzle)
    grids, nodes, grids_error, _ = estimate(model, (), 200)
    assert grids > 0 and nodes > 0 and grids_error >= 0


# ---------------------------------------------------------------- checkpoint


def test_an_edgecount_killed_and_resumed_from_its_checkpoint_gives_the_full_count(tmp_path):
    board = tmp_path / "planted.toml"
    board.write_text(to_toml(planted.generate(6, 4, 4, 1)))  # about 10^8 nodes: seconds
    checkpoint = tmp_path / "count.jsonl"
    command = [sys.executable, "-m", "puzzlesat.cli", "count", str(board), "--backend",
               "edgecount", "--jobs", "1", "--json", "--checkpoint", str(checkpoint)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    end = time.time() + 120
    while time.time() < end and process.poll() is None:
        if checkpoint.exists() and checkpoint.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    process.kill()
    process.communicate()
    done_before = checkpoint.read_text().count("\n") - 1
    assert done_before >= 2
    result = subprocess.run(command, capture_output=True, text=True, timeout=HANG)
    assert result.returncode == 0, result.stderr
    whole = puzzlesat.count(str(board), backend="edgecount", jobs=2)
    assert json.loads(result.stdout)["count"] == whole.number > 0
    assert checkpoint.read_text().count("\n") - 1 > done_before


def test_a_resumed_count_gives_the_rate_of_its_own_nodes(tmp_path):
    """Regression: a count resumed from its checkpoint divided every node, those read back
    included, by its own seconds (57 M nodes a second shown, about 24 M true)."""
    checkpoint = tmp_path / "count.jsonl"
    first = puzzlesat.count("diamond-blocks", backend="edgecount", jobs=1,
                            checkpoint=str(checkpoint))
    nodes = first.details["nodes"]
    assert first.complete and first.details["nodes_this_call"] == nodes > 0
    again = puzzlesat.count("diamond-blocks", backend="edgecount", jobs=1,
                            checkpoint=str(checkpoint))  # every cube read back
    assert again.number == first.number and again.details["nodes"] == nodes
    assert again.details["nodes_this_call"] == 0 == again.details["nodes_per_second"]
    lines = checkpoint.read_text().splitlines()
    assert len(lines) >= 3
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[: len(lines) // 2 + 1]) + "\n")  # header, half the cubes
    resumed = puzzlesat.count("diamond-blocks", backend="edgecount", jobs=1,
                              checkpoint=str(part))
    assert resumed.number == first.number and resumed.details["nodes"] == nodes
    now = resumed.details["nodes_this_call"]
    assert 0 < now < nodes
    assert resumed.details["nodes_per_second"] <= 1.05 * now / resumed.seconds  # not nodes


@pytest.mark.slow
def test_edgecount_counts_on_a_dask_cluster():
    pytest.importorskip("dask.distributed")
    found = puzzlesat.count("diamond-blocks-2001", backend="edgecount", modulo="symmetry",
                            jobs=2, executor="dask-local:2")
    assert found.complete and (found.details["grids"], found.number) == (5544, 1386)


def test_progress_moves_by_estimated_work_and_ends_full():
    from puzzlesat.counting import SCALE, work_units
    from puzzlesat.executors import Work

    work = Work("w", "edgecount", None, [(1,), (2,), (3,)], sizes=[0.5, 0.25, 0.0])
    units = work_units([work])[work.token]
    assert units == [round(SCALE * 2 / 3), round(SCALE / 3), 1]  # an empty one still counts
    seen = []
    found = puzzlesat.count("diamond-blocks", backend="edgecount", jobs=2,
                            progress=lambda done, total, grids: seen.append((done, total, grids)))
    assert seen[-1] == (seen[-1][1], seen[-1][1], found.number)
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    assert found.details["nodes"] > 0 and found.details["nodes_per_second"] > 0


def test_the_pins_of_a_board_are_measured_once_a_process(monkeypatch):
    """Regression: each count of a board re-measured which tile to pin (Knuth's paths in
    Python: 10 CPU s on the 4x4 Diamond Blocks, whose count then takes 0.1 s). The measurement
    has a fixed seed; the process's next count of the board takes its answer."""
    from puzzlesat.backends import edgecount

    puzzle = files.load("diamond-blocks")
    edgecount._measured_pins.cache_clear()
    monkeypatch.setattr(edgecount, "PIN_PATHS", 40)  # a cheap measurement, forgotten after
    try:
        first = edgecount.measured_pins(puzzle, "rows")
        calls = []
        monkeypatch.setattr(edgecount, "estimate",
                            lambda *a, **k: calls.append(a) or (0.0, 1.0, 0.0, 0.0))
        again = edgecount.measured_pins(puzzle, "rows")
        assert calls == [] and again == first and again is not first
        edgecount.measured_pins(files.load("diamond-blocks-2001"), "rows")  # another board
        assert calls  # measured
    finally:
        edgecount._measured_pins.cache_clear()


def test_a_small_board_is_not_measured_for_its_pin(monkeypatch):
    """Regression: `count diamond-blocks` spent 10.3 CPU s choosing which tile to pin (4,000
    random paths per choice, in Python) for a search of 390,063 nodes (0.1 s). A first look
    says the search is small, and the first choice is pinned unmeasured."""
    from puzzlesat.backends import edgecount
    from puzzlesat.models.edge_matching.tables import pin_choices

    puzzle = files.load("diamond-blocks")
    paths = []
    estimate = edgecount.estimate
    monkeypatch.setattr(edgecount, "estimate",
                        lambda model, cube, n, seed: paths.append(n) or estimate(model, cube, n,
                                                                                 seed))
    edgecount._measured_pins.cache_clear()
    try:
        chosen = edgecount.measured_pins(puzzle, "rows")
    finally:
        edgecount._measured_pins.cache_clear()
    assert chosen == pin_choices(puzzle)[0]
    assert set(paths) == {edgecount.PIN_LOOK_PATHS}  # the first look only
    found = puzzlesat.count(puzzle, backend="edgecount", jobs=1)
    assert found.complete and found.details["grids"] == 17_920


def test_the_row_scan_bench_rates_a_whole_board_node_for_node(monkeypatch, tmp_path):
    """`bench --anchor rowscan`'s rate row: edgecount's tile search, its scan and the C row
    scan count a whole board with the same grids and nodes (checked: a row scan counting other
    nodes is refused), the ratio printed in the table."""
    from puzzlesat.benchmarks import edgecount as bench

    binary = bench.build_anchor(tmp_path)
    if binary is None:
        pytest.skip("no C compiler: the row-scan anchor is not built")
    puzzle = files.load("diamond-blocks")
    row = bench.rate_row("diamond-blocks Level 1", puzzle, None, binary, 1)
    assert row["whole"] and (row["grids"], row["nodes"]) == (17_920, 1_546_363)
    assert row["ratio"] > 0 and row["scan_ratio"] > 0
    figures = {"date": "d", "cores": 2, "load": "1", "repeat": 1, "in_process_seconds": 0.1,
               "whole_process_seconds": 1.0, "rates": [row]}
    assert "| diamond-blocks Level 1 | 1,546,363 | " in bench.markdown(figures)
    monkeypatch.setattr(bench, "run_anchor", lambda *a, **k: (17_920, 1_546_364, 0.1))
    with pytest.raises(AssertionError, match="differ"):
        bench.rate_row("diamond-blocks Level 1", puzzle, None, binary, 1)
