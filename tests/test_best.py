"""Best partial boards (issue 25): every search finds the optimum of small boards whose optimum
is known (a planted board: every seam; the same board with one edge of an inner tile made a
colour no other edge has: every seam but one); a checkpoint survives an interrupt and resumes;
`verify --board` counts a board's seams again and rejects a wrong claim; bad input is one line.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _patience import HANG

import puzzlesat
from puzzlesat.best import best, verify_board
from puzzlesat.cli import main
from puzzlesat.models.edge_matching import planted
from puzzlesat.models.edge_matching.best import most, score
from puzzlesat.models.edge_matching.boardfile import board_json, rescore
from puzzlesat.models.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
SEARCHES = ["edgesearch", "cpsat", "maxsat:rc2", "maxsat:rc2s", "maxsat:fm", "maxsat:lsu",
            pytest.param("exec:sat4j", marks=pytest.mark.skipif(
                not Path("/usr/share/java/org.ow2.sat4j.maxsat.jar").exists()
                or shutil.which("java") is None,
                reason="Debian's sat4j (a MaxSAT solver run by Java) is not installed"))]


def one_colour_alone(puzzle):
    """The puzzle with one edge of its first inner tile changed to a colour found nowhere else:
    that seam can never match, and the planted board matches every other one."""
    tiles = list(puzzle.tiles)
    for i, tile in enumerate(tiles):
        if puzzle.frame not in tile.edges:
            edges = (("alone", ""),) + tile.edges[1:]
            tiles[i] = dataclasses.replace(tile, edges=edges)
            return dataclasses.replace(puzzle, tiles=tuple(tiles), name=puzzle.name + "-alone")
    raise AssertionError("no inner tile")


SOLVABLE = planted.generate(4, 2, 3, 1)  # 24 seams, a planted solution
ALONE = one_colour_alone(planted.generate(3, 2, 2, 3))  # 12 seams, at most 11 can match


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("puzzle, optimum", [(SOLVABLE, 24), (ALONE, 11)],
                         ids=["solvable", "one-colour-alone"])
def test_every_search_finds_the_known_optimum(search, puzzle, optimum):
    assert most(puzzle) == (24 if puzzle is SOLVABLE else 12)
    found = best(puzzle, backend=search, time_limit=60, jobs=1)
    assert found.score == optimum, found.sentence()
    assert rescore(puzzle, found.grid) == (optimum, [])
    assert found.optimal  # each of these proves it on boards this small


def test_a_bigger_board_with_one_colour_alone_on_the_compiled_search():
    puzzle = one_colour_alone(planted.generate(5, 2, 3, 2))
    found = best(puzzle, backend="edgesearch", time_limit=60, jobs=1)
    assert (found.score, found.most, found.optimal) == (39, 40, True)


def test_a_tile_that_meets_nothing_still_gets_a_board_on_a_large_board():
    """Regression: on large boards the compiled search first lets a cell break only one of its
    seams above and to the left; a tile whose four colours are found nowhere else breaks both
    wherever it lies, so no full board exists that way, and the search falls back to double
    breaks, more slips and earlier, after each fruitless restart (before: no board at all, on
the old search as on the new)."""
    puzzle = planted.generate(6, 2, 3, 1)
    tiles = list(puzzle.tiles)
    i = next(i for i, tile in enumerate(tiles) if puzzle.frame not in tile.edges)
    tiles[i] = dataclasses.replace(tiles[i], edges=tuple((f"alone{k}", "") for k in range(4)))
    puzzle = dataclasses.replace(puzzle, tiles=tuple(tiles), name="planted-6-alone4")
    found = best(puzzle, backend="edgesearch", time_limit=30, jobs=1)
    assert found.score == most(puzzle) - 4 == 56, found.sentence()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesat", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG)


def test_a_checkpoint_survives_an_interrupt_and_resumes(tmp_path):
    board = tmp_path / "best.board"
    child = subprocess.Popen(
        [sys.executable, "-m", "puzzlesat", "best", "owen-7x7-set1", "--jobs", "1",
         "--checkpoint", str(board)], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = child.stderr.readline()
        while line and "seams matched" not in line:
            line = child.stderr.readline()
        assert "seams matched" in line, line
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=HANG)
    finally:
        child.kill()
    assert child.returncode == 130 and "interrupted" in out
    kept = json.loads(board.read_text())
    checked = verify_board("owen-7x7-set1", str(board))
    assert checked.agree and checked.score == kept["score"] > 0
    again = run("best", "owen-7x7-set1", "--jobs", "1", "--checkpoint", str(board),
                "--time-limit", "2", "--json")
    assert again.returncode == 0, again.stderr
    assert f"resumed from {board}: {kept['score']} of 84" in again.stderr
    assert json.loads(again.stdout)["score"] >= kept["score"]


def test_a_checkpoint_of_another_puzzle_is_refused(tmp_path):
    board = tmp_path / "clue.board"
    found = best(ALONE, backend="maxsat:rc2", jobs=1, checkpoint=str(board))
    assert found.score == 11 and board.exists()
    with pytest.raises(InputError, match="not of planted_4_2_3_s1"):
        best(SOLVABLE, jobs=1, checkpoint=str(board))
    done = run("best", "eternity-ii-clue1", "--checkpoint", str(board), "--time-limit", "1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--checkpoint" in done.stderr and "not of eternity-ii-clue1" in done.stderr


def test_verify_rejects_a_wrong_claimed_score(tmp_path, capsys):
    puzzle = puzzlesat.load("eternity-ii-clue1")
    found = best(puzzle, backend="maxsat:lsu", jobs=1, time_limit=120)
    assert found.score == 60
    right, wrong = tmp_path / "right.board", tmp_path / "wrong.board"
    right.write_text(board_json(puzzle, found.grid, 60, 60))
    wrong.write_text(board_json(puzzle, found.grid, 59, 60))
    assert main(["verify", "eternity-ii-clue1", "--board", str(right)]) == 0
    assert "verified: 60 of 60 seams match" in capsys.readouterr().out
    assert main(["verify", "eternity-ii-clue1", "--board", str(wrong)]) == 1
    assert "REJECTED: it claims 59 but 60 of 60" in capsys.readouterr().out
    turned = [(t, (r + 1) % 4) if i == 14 else (t, r) for i, (t, r) in enumerate(found.grid)]
    assert score(puzzle, turned) < 60  # an inner tile turned: its seams broken
    claim = tmp_path / "turned.board"
    claim.write_text(board_json(puzzle, turned, 60, 60))
    checked = verify_board(puzzle, str(claim))
    assert not checked.agree and checked.score == score(puzzle, turned)


def test_the_drawing_marks_each_broken_seam_and_says_the_score():
    from puzzlesat.pictures.best import best_drawing, best_page

    found = best(ALONE, backend="maxsat:rc2", jobs=1)
    text = best_drawing(ALONE, found.grid, "alone").to_string()
    assert text.count('class="break"') == 1 and "11 of 12 seams matched" in text
    page = best_page(ALONE, found.grid)
    assert json.dumps([list(g) for g in found.grid]).replace(" ", "") in page.replace(" ", "")


@pytest.mark.parametrize("args, words", [
    (["best", "soma"], "edge-matching puzzles"),
    (["best", "eternity-ii-clue1", "--backend", "gurobi"], "unknown search 'gurobi'"),
    (["best", "eternity-ii-clue1", "--backend", "maxsat:open-wbo"], "unknown PySAT MaxSAT"),
    (["best", "eternity-ii-clue1", "--backend", "exec:no-such-maxsat"], "no MaxSAT solver"),
    (["best", "eternity-ii-clue1", "--draw", "board.pdf"], ".svg or .png"),
    (["verify", "eternity-ii-clue1", "--board", "no-such.board"], "cannot read"),
])
def test_bad_input_is_one_line(args, words, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_an_install_without_the_compiled_search_says_so_in_one_line(monkeypatch, capsys):
    """Where no C compiler built the search (the kernel absent), edgesearch is refused before
    any child starts, in one line (before: "needs numba")."""
    from puzzlesat import native

    monkeypatch.setattr(native, "available", lambda name: False)
    assert main(["best", "eternity-ii-clue1", "--time-limit", "1"]) == 2
    err = capsys.readouterr().err
    assert "edgesearch" in err and "was not built" in err and err.count("\n") == 1


# ------------------------------------------------------------ best-bench, in pieces


def bench(*args: str) -> int:
    return main(["bench", "best", *args])


def test_the_bench_records_each_run_as_it_ends_and_leaves_out_those_recorded(tmp_path, capsys):
    """A long comparison is made in several calls: each run is written as it ends, and a call
    with the same settings leaves out the runs recorded (--again runs them anew); the table
    printed holds the runs of those settings from every call."""
    folder = str(tmp_path)
    settings = ["eternity-ii-clue1", "--time-limit", "2", "--jobs", "1", "--results", folder]
    assert bench(*settings, "--backend", "maxsat:lsu") == 0
    err = capsys.readouterr().err
    assert "1 run of 2 s on 1 core, one after another: about 0:00:02 of wall time" in err
    rows = json.loads((tmp_path / "best-bench.json").read_text())
    assert [(r["backend"], r["seed"], r["time_limit"]) for r in rows] == [("maxsat:lsu", 1, 2.0)]
    first = rows[0]["date"]
    assert bench(*settings, "--backend", "maxsat:lsu", "--backend", "edgesearch") == 0
    out, err = capsys.readouterr()
    assert "maxsat:lsu seed 1 recorded" in err and "left out" in err
    assert "1 run of 2 s" in err and "(1 recorded before left out)" in err
    assert "| maxsat:lsu |" in out and "| edgesearch |" in out  # the earlier run shown too
    rows = json.loads((tmp_path / "best-bench.json").read_text())
    assert [r["backend"] for r in rows] == ["maxsat:lsu", "edgesearch"]
    assert rows[0]["date"] == first  # not run again
    assert bench(*settings[:-2], "--time-limit", "1", "--results", folder,
                 "--backend", "maxsat:lsu") == 0  # another budget: run, kept beside
    assert bench(*settings, "--backend", "maxsat:lsu", "--again") == 0
    rows = json.loads((tmp_path / "best-bench.json").read_text())
    assert sorted((r["backend"], r["time_limit"]) for r in rows) == [
        ("edgesearch", 2.0), ("maxsat:lsu", 1.0), ("maxsat:lsu", 2.0)]
    assert next(r for r in rows if r["backend"] == "maxsat:lsu" and r["time_limit"] == 2
                )["date"] >= first
    text = (tmp_path / "best-bench.md").read_text()
    assert "## eternity-ii-clue1, 2 s on 1 core" in text and "## eternity-ii-clue1, 1 s" in text


def test_a_recorded_run_keeps_its_best_board_for_verify(tmp_path, capsys):
    """Regression: best-bench recorded a score (461 on Eternity II in an hour) and dropped the
    board that made it, so the figure could not be checked. The board is kept beside the
    table, named by its row, and `verify --board` counts its seams again to the same score."""
    assert bench("eternity-ii-clue1", "--time-limit", "2", "--jobs", "1", "--results",
                 str(tmp_path), "--backend", "edgesearch") == 0
    (row,) = json.loads((tmp_path / "best-bench.json").read_text())
    board = tmp_path / row["board"]
    assert board.is_file() and row["board"] in (tmp_path / "best-bench.md").read_text()
    assert main(["verify", "eternity-ii-clue1", "--board", str(board)]) == 0
    from puzzlesat.best import verify_board

    checked = verify_board("eternity-ii-clue1", str(board))
    assert checked.agree and checked.score == row["score"]


def test_an_interrupted_run_is_not_recorded_and_stops_the_bench(tmp_path, capsys, monkeypatch):
    """Regression: a run stopped by Ctrl-C was recorded as if it had had its budget, and the
    bench went on to the next search."""
    import importlib

    module = importlib.import_module("puzzlesat.best")
    real, calls = module.best, []

    def second_interrupted(*args, **kwargs):
        calls.append(args[1])
        found = real(*args, **kwargs)
        if len(calls) == 2:
            found.stopped = "interrupted"
        return found

    monkeypatch.setattr(module, "best", second_interrupted)
    assert bench("eternity-ii-clue1", "--time-limit", "1", "--results", str(tmp_path),
                 "--backend", "maxsat:lsu", "--backend", "maxsat:rc2",
                 "--backend", "edgesearch") == 130
    assert calls == ["maxsat:lsu", "maxsat:rc2"]
    rows = json.loads((tmp_path / "best-bench.json").read_text())
    assert [r["backend"] for r in rows] == ["maxsat:lsu"]
    assert "not recorded; the benchmark stops here" in capsys.readouterr().err


def test_the_bench_says_what_a_search_can_show_and_the_cores_it_uses():
    from puzzlesat.benchmarks import best as module

    row = {"puzzle": "eternity-ii", "backend": "maxsat:rc2", "time_limit": 3600.0, "jobs": 2,
           "seed": 1, "score": None, "most": 480, "optimal": False, "at": None,
           "history": [], "stopped": "time limit reached", "date": "2026-11-26T15:00:00",
           "load": "1.00 1.00 1.00"}
    text = module.markdown([row])
    assert "(target: at least 461" in text
    assert ("| maxsat:rc2 | - | - | - | 1 | 1.00 1.00 1.00 | 2026-11-26 | time limit reached; "
            "core-guided: no board before its proof of the optimum; one core |") in text
    assert module.cores_used("edgesearch", 2) == 2 and module.cores_used("exec:sat4j", 2) == 1


@pytest.mark.parametrize("args, words", [
    (["--again"], "--again: runs again the searches recorded: give --record or --results"),
    (["--backend", "cpsat", "--backend", "cpsat"], "cpsat is named twice"),
    (["soma"], "edge-matching puzzles"),
    (["--backend", "maxsat"], "maxsat needs maxsat:rc2|rc2s|fm|lsu"),
])
def test_bad_bench_combinations_are_one_line(args, words, capsys):
    assert bench(*args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_maxsat_binary_is_stopped_before_the_limit_and_its_best_model_read(tmp_path):
    """Regression: `exec:` read a solver's model only at its own end, so a solver still
    working at the time limit (sat4j on Eternity II) was killed with its best board unread.
    It is now sent SIGTERM a little before the limit, as the MaxSAT Evaluations do, and its
    last `v` line is read (sat4j prints its best model then)."""
    from pysat.examples.rc2 import RC2

    from puzzlesat.backends.maxsat import run_exec, stop_before
    from puzzlesat.models.edge_matching.best import encode_best_wcnf

    with RC2(encode_best_wcnf(ALONE).wcnf) as rc2:
        model = rc2.compute()
    solver = tmp_path / "slow-maxsat"
    solver.write_text("#!/bin/sh\n"
                      f"trap 'echo \"s SATISFIABLE\"; echo \"v {' '.join(map(str, model))}\"; "
                      "exit 0' TERM\necho 'o 1'\nwhile true; do sleep 0.05; done\n")
    solver.chmod(0o755)
    boards = []
    answer = run_exec(lambda grid, extra: boards.append(grid), ALONE, str(solver),
                      time_limit=3)
    assert answer == {"optimal": False}  # stopped: not a proof
    assert len(boards) == 1 and score(ALONE, boards[0]) == 11
    assert 2 <= stop_before(3) < 3 and stop_before(3600) == 3570


def slip_tree_nodes(puzzle, allow: list[int], double: bool) -> tuple[int, int]:
    """The compiled search's whole tree counted again by plain recursion on the puzzle itself
    (its tiles' edges, the frame rule, the matching rule), sharing no table or bit with it:
    cells in reading order, the fixed ones given; a node is an unused tile turned a way the frame
    allows, breaking seams with the cells filled before it (and fixed ones after it) at most
    allow[depth] in all so far, and not both the seams above and to the left unless `double`.
    Returns (nodes, the best score of a full board, -1 if none)."""
    from puzzlesat.models.edge_matching import cells, fits_frame, matches, rotated

    board = cells(puzzle)
    index = {cell: c for c, cell in enumerate(board)}
    at = {f.row * puzzle.cols + f.col: (f.tile, f.rotation) for f in puzzle.fixed}
    order = [c for c in range(len(board)) if c not in at]
    unused = sorted(set(range(len(puzzle.tiles))) - {t for t, _ in at.values()})
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))

    def shows(c: int, side: int):
        t, r = at[c]
        return rotated(puzzle.tiles[t].edges, r)[side]

    fixed_broken = sum(1 for c in at for side in (1, 2)
                       if (o := index.get((board[c][0] + steps[side][0],
                                           board[c][1] + steps[side][1]))) in at
                       and not matches(shows(c, side), shows(o, (side + 2) % 4), puzzle.rule))
    seams = most(puzzle)
    nodes = 0
    best_score = -1

    def fill(d: int, slips: int) -> None:
        nonlocal nodes, best_score
        if d == len(order):
            best_score = max(best_score, seams - fixed_broken - slips)
            return
        c = order[d]
        for t in list(unused):
            for r in range(4):
                edges = rotated(puzzle.tiles[t].edges, r)
                if not fits_frame(puzzle, board[c], edges):
                    continue
                broken, near = 0, 0
                for side, (dr, dc) in enumerate(steps):
                    o = index.get((board[c][0] + dr, board[c][1] + dc))
                    if o in at and not matches(edges[side], shows(o, (side + 2) % 4),
                                               puzzle.rule):
                        broken += 1
                        near += side in (0, 3)
                if (near == 2 and not double) or slips + broken > allow[d]:
                    continue
                nodes += 1
                at[c] = (t, r)
                unused.remove(t)
                fill(d + 1, slips + broken)
                unused.insert(0, t)
                unused.sort()
                del at[c]

    fill(0, 0)
    return nodes, best_score


def test_the_compiled_search_tree_is_the_one_a_plain_count_of_the_rules_gives():
    """The compiled search (phase 0 by table slices, slips by words of bits over the unused
    tiles, the tiles numbered anew by each seed) makes exactly the nodes of the rules, counted
    by `slip_tree_nodes`, and finds the best full board within them. On an 81-tile board
    (two words of bits) with most cells fixed: the free tiles include those numbered 63 and 64
    (a word's top bit and the next word's first), and the fixed ones around the free cells are
    checked on every side."""
    from puzzlesat.backends.edgesearch import Search
    from puzzlesat.models.edge_matching import FixedTile
    from puzzlesat.models.edge_matching.best import search_arrays

    puzzle = planted.generate(9, 2, 3, 4)
    rough = Search(search_arrays(puzzle), 1)  # any full board: every break allowed
    rough.allow[:] = most(puzzle)
    rough.restart()
    rough.run(10_000)
    grid = rough.board()
    assert rough.state[2] >= 0 and rescore(puzzle, grid)[1] == []
    where = {t: c for c, (t, _) in enumerate(grid)}
    free = {where[t] for t in (0, 1, 63, 64, 80)}
    free |= set([c for c in (30, 31, 39, 40, 41) if c not in free][:8 - len(free)])
    fixed = tuple(FixedTile(c // 9, c % 9, t, r) for c, (t, r) in enumerate(grid)
                  if c not in free)
    puzzle = dataclasses.replace(puzzle, fixed=fixed, name="planted-9-mostly-fixed")
    depths = len(free)
    seen = set()
    for allow in ([0] * depths, [1] * depths, [2] * depths, [0, 0, 1, 1, 1, 2, 2, 3]):
        for double in (False, True):
            want = slip_tree_nodes(puzzle, allow, double)
            seen.add(want)
            for seed in (1, 2, 3):
                search = Search(search_arrays(puzzle), seed)
                search.allow[:] = allow
                search.state[5] = int(double)
                search.restart()
                while not search.run(1000):
                    pass
                assert (search.nodes, int(search.state[2])) == want, (allow, double, seed)
    assert len(seen) > 4 and max(nodes for nodes, _ in seen) > 500  # the budgets matter


def test_a_first_run_searches_from_its_first_second(tmp_path):
    """Regression: on a fresh install the first `best` spent its time limit compiling the
    search (numba) and said "no board found". The search is C, built at install: nothing is
    compiled or said, and a 2 s limit gives the clue puzzle's 60 of 60 (0.3 s of search)."""
    done = subprocess.run([sys.executable, "-m", "puzzlesat", "best", "eternity-ii-clue1",
                           "--jobs", "1", "--time-limit", "2", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["score"] == 60 and "compile_seconds" not in found, done.stderr
    assert "compil" not in done.stderr


def test_a_board_with_every_cell_fixed_is_its_own_best():
    """Regression: with no free cell the compiled search built its tables from no cell (an
    IndexError in the child) and the local search drew a cell from none. The board is sent,
    scored, at once."""
    from puzzlesat.backends.edgesearch import Search
    from puzzlesat.models.edge_matching import FixedTile
    from puzzlesat.models.edge_matching.best import search_arrays

    puzzle = puzzlesat.load("eternity-ii-clue1")
    rough = Search(search_arrays(puzzle), 1)  # any full board: every break allowed
    rough.allow[:] = most(puzzle)
    rough.restart()
    rough.run(100_000)
    grid = rough.board()
    fixed = tuple(FixedTile(c // 6, c % 6, t, r) for c, (t, r) in enumerate(grid))
    whole = dataclasses.replace(puzzle, fixed=fixed, name="clue1-every-cell-fixed")
    found = best(whole, backend="edgesearch", time_limit=5, jobs=1)
    assert found.grid == grid and found.score == score(whole, grid), found.sentence()


def test_the_compiled_kernel_refuses_wrong_arguments_with_python_errors():
    """The C kernel reads NumPy arrays in place: an array of the wrong type, size or range, a
    read-only one it writes, a wrong count of arguments, are Python errors, never a crash."""
    import numpy as np

    from puzzlesat import native
    from puzzlesat.backends.edgesearch import Search, polish
    from puzzlesat.models.edge_matching.best import search_arrays

    kernel = native.kernel("edgesearch")
    search = Search(search_arrays(planted.generate(4, 2, 3, 1)), 1)
    a = search.arrays
    good = [search.order, search.cls, search.left, search.top, search.extra, search.extra_side,
            search.allow, search.start, search.stop, search.cand_tile, search.cand_turn,
            search.has, search.turn_left, search.turn_top, search.allowed, search.edge,
            search.tables[3], search.wild, search.tile_at, search.turn_at, search.used,
            search.free, search.stack, search.state, search.best_tile, search.best_turn,
            search.real, search.base_broken, a.seams, 1000]

    def call(index: int, value: object) -> None:
        kernel.search(*good[:index], value, *good[index + 1:])

    with pytest.raises(TypeError, match="30 arguments"):
        kernel.search(*good[:-1])
    with pytest.raises(TypeError, match="items of 8 bytes"):
        call(0, search.order.astype(np.int32))
    with pytest.raises(TypeError, match="contiguous"):
        call(2, "not an array")
    with pytest.raises(TypeError, match="writable"):
        frozen = search.stack.copy()
        frozen.flags.writeable = False
        call(22, frozen)
    with pytest.raises(ValueError, match="items expected"):
        call(22, search.stack[:-1].copy())
    with pytest.raises(ValueError, match="cand_tile"):
        call(9, search.cand_tile + len(a.edge))
    with pytest.raises(ValueError, match="out of range"):
        call(0, search.order + 1000)
    with pytest.raises(TypeError, match="integer"):
        call(29, "many")
    with pytest.raises(TypeError, match="13 arguments"):
        kernel.polish(search.tile_at)
    search.allow[:] = a.seams  # any full board
    search.restart()
    search.run(1000)  # the right arguments still search
    assert search.nodes > 0 and search.state[2] >= 0
    assert polish(search, search.order.copy(), 1) >= 0


def test_a_starved_search_says_what_cpu_it_had_and_writes_no_empty_picture(tmp_path, capsys):
    """Regression: `best eternity-ii --backend cpsat --time-limit 60` at nice 19 on a loaded
    machine (2.6 CPU s in its 60 s: CP-SAT's model alone takes 3.2 CPU s) exited 1 saying only
    "no board found: time limit reached", and said nothing of its --draw and --play files. A
    0.5 s limit starves it the same way here: the line says the CPU the search had and what to
    do, and each picture asked for is said not written."""
    drawn, page = tmp_path / "e2.svg", tmp_path / "e2.html"
    found = best("eternity-ii", backend="cpsat", time_limit=0.5, jobs=1)
    assert found.score is None and 0 <= found.details["search_cpu_seconds"] < 60
    assert "CPU s in that time" in found.sentence() and "longer time limit" in found.sentence()
    assert "--" not in found.sentence()  # the library's words
    assert main(["best", "eternity-ii", "--backend", "cpsat", "--time-limit", "0.5",
                 "--jobs", "1", "--draw", str(drawn), "--play", str(page)]) == 1
    out, err = capsys.readouterr()
    assert len(out.strip().splitlines()) == 1 and "give it a longer time limit" in out
    assert f"{drawn} (--draw) was not written" in err and f"{page} (--play)" in err
    assert not drawn.exists() and not page.exists()
