"""The one base of the puzzles solved by moves (runners/families/moves.py) and its one 'table'
backend (runners/backends/table.py), on Mind Lock and the sliding-block puzzles: the backend
counts and solves for true, a count honours its runner, the seconds are the call's, the metric
is an option of every call, and the bad inputs of issue 28 are one line each."""

from __future__ import annotations

import dataclasses
import json
import time

import pytest

import puzzlesat
from puzzlesat.backends.table import TableQuery, forget
from puzzlesat.breadth_first import RANK_CHUNK, table_path
from puzzlesat.cli import main
from puzzlesat.families import mind_lock, sliding
from puzzlesat.models import files
from puzzlesat.models.errors import InputError
from puzzlesat.registry import resolve

UNREACHABLE = '''kind = "sliding-block"
metric = "step"
start = """
213
456
78.
"""
goal = """
123
456
78.
"""
'''


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget()
    yield
    forget()


@pytest.mark.parametrize("family, name", [(mind_lock, "mind-lock"), (sliding, "rush-hour-51")])
def test_the_table_backend_counts_and_solves_for_true(family, name):
    puzzle = files.load(name)
    backend = resolve("table", puzzle.kind, "count")
    assert backend.can_count and backend.name == f"table:{puzzle.kind}"
    model = family.FAMILY.table_model(puzzle)
    values, finished = backend.count_cube(model, (), None)
    assert finished and values[0] == sum(values[1:]) > 0
    forget()
    table_path(model.name, model.key).unlink()  # searched again, with a deadline already past
    values, finished = backend.count_cube(model, (), time.time())
    assert not finished and len(values) == 1 and values[0] > 0
    # solve: the moves themselves, which lead from the start to a goal under the rules
    table = family.FAMILY.table(puzzle)
    start = table.hardest()[0]
    outcome = backend.solve(TableQuery(model, family.FAMILY.code(puzzle, start),
                                       table.code_neighbours))
    position = start
    for move in outcome.values:
        assert (move, family.FAMILY.apply(puzzle, position, move)) in \
            family.FAMILY.neighbours(puzzle, position)
        position = family.FAMILY.apply(puzzle, position, move)
    assert len(outcome.values) == table.build.gods_number and table.distance(position) == 0


def test_a_count_honours_its_time_limit_and_checkpoint(tmp_path, capsys):
    """`count klotski-l-pieces --time-limit 1 --checkpoint F`: stopped with a lower bound,
    marked incomplete, nothing recorded; a finished count is recorded, and resumed from it.

    Nothing here depends on the machine's load: the 1 s may run out while the search is being
    prepared (about 0.5 s on an idle machine, over 1 s at load 17), so the CLI's lower bound
    may be 0; that the search itself looks at its deadline after every chunk of ranks and
    reports what it reached is checked with a deadline already past, which stops it at its
    first look whatever the load."""
    checkpoint = tmp_path / "count.jsonl"
    code = main(["count", "klotski-l-pieces", "--time-limit", "1", "--jobs", "7",
                 "--checkpoint", str(checkpoint), "--json"])
    found = json.loads(capsys.readouterr().out)
    assert code == 1 and not found["complete"] and found["lower_bound"]
    assert found["stopped_by"] == "time_limit" and 0 <= found["count"] < 6_288_084
    # no cube finished: nothing recorded but, at most, the checkpoint's header
    assert not checkpoint.exists() or len(checkpoint.read_text().splitlines()) <= 1
    # the ranked search (a byte a rank) stops at its first look at a deadline already past,
    # after one chunk of ranks (one call of its level kernel on one thread), with the positions
    # it reached (the start at least), and caches no table
    puzzle = files.load("klotski-l-pieces")
    model = sliding.FAMILY.table_model(puzzle, threads=1)
    assert model.level is not None and model.bound > RANK_CHUNK  # ranked, in several chunks
    calls, level = [], model.level

    def counted_level(*args):
        calls.append(args[-5:-3])  # the chunk [lo, hi)
        return level(*args)

    model = dataclasses.replace(model, level=counted_level)
    values, finished = resolve("table", puzzle.kind, "count").count_cube(model, (), time.time())
    assert not finished and len(values) == 1 and 1 <= values[0] <= RANK_CHUNK
    assert len(calls) == 1 and calls[0][1] - calls[0][0] == RANK_CHUNK
    assert not table_path(model.name, model.key).exists()
    other = tmp_path / "rush.jsonl"
    first = puzzlesat.count("rush-hour-51", checkpoint=str(other))
    assert first.complete and first.number == 4_780
    assert json.loads(other.read_text().splitlines()[1])["values"][0] == 4_780
    forget()
    again = puzzlesat.count("rush-hour-51", checkpoint=str(other))  # resumed: the cube is read
    assert again.complete and again.number == 4_780 and again.details["gods_number"] == 51


def test_the_seconds_are_this_calls():
    first = puzzlesat.count("klotski")  # the table is searched now
    forget()
    cached = puzzlesat.count("klotski")  # read from the cache
    kept = puzzlesat.count("klotski")  # kept in memory
    assert first.number == cached.number == kept.number == 25_955
    assert cached.seconds < first.seconds and kept.seconds < first.seconds
    figures = sliding.report(sliding.FAMILY.table(files.load("klotski")))
    assert figures["table_from"] == "memory" and figures["seconds"] < figures["build_seconds"]


def test_the_metric_is_an_option_of_every_call():
    solution = puzzlesat.solve("eight-puzzle", start="123/456/.78", metric="slide")
    assert solution.note == "optimal: 2 moves (slide metric)"
    assert puzzlesat.solve("eight-puzzle", start="123/456/.78").note == \
        "optimal: 2 moves (step metric)"
    count = puzzlesat.count("rush-hour-51", metric="step")
    assert count.details["metric"] == "step" and count.number == 4_780
    text, _ = puzzlesat.export("eight-puzzle", start="1.3/425/786", steps=3, metric="path")
    assert "p cnf" in text
    with pytest.raises(InputError) as caught:
        puzzlesat.solve("eight-puzzle", metric="diagonal")
    assert caught.value.field == "metric"
    with pytest.raises(InputError) as caught:
        puzzlesat.solve("mind-lock", start="0x76bd98", metric="step")
    assert caught.value.field == "metric"


@pytest.mark.parametrize("start, words", [
    ([1, 2, 3], "expected a position"),
    ([[0], [1]], "expected a position"),
    ([(0,), (1,), (2,), (3,), (4,), (5,), (6,), (6,)], "overlap"),
    ([None] * 8, "expected placement numbers"),
    (["12", "34"], "expected 3 rows of 3 cells"),
    (123, "expected a position picture"),
    ({"a": 1}, "expected a position picture"),
])
def test_a_start_given_to_the_api_is_checked(start, words):
    """`solve("eight-puzzle", start=[...])` raised from inside (issue 28): now an InputError."""
    with pytest.raises(InputError) as caught:
        puzzlesat.solve("eight-puzzle", start=start)
    assert caught.value.field == "start" and words in caught.value.message
    # its rows, or its parts, are a start
    assert puzzlesat.solve("eight-puzzle", start=["123", "456", "7.8"]).note == \
        "optimal: 1 move (step metric)"


@pytest.mark.parametrize("command", [["sliding", "table"], ["solve"], ["count"]])
def test_a_start_that_cannot_reach_its_goal_is_one_line(tmp_path, capsys, command):
    """The start in another cluster of positions than the goal configuration: not the goal's
    table with no word (exit 0), nor a blamed --from that was not given (issue 28)."""
    path = tmp_path / "odd.toml"
    path.write_text(UNREACHABLE)
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    assert err[0].startswith(f"puzzlesat: error: {path}: start: the puzzle's start "
                             "213/456/78. cannot reach its goal")
    assert "--from" not in err[0]


def test_a_given_start_that_cannot_reach_the_goal_is_one_line(capsys):
    assert main(["solve", "eight-puzzle", "--from", "213/456/78."]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("puzzlesat: error: --from: 213/456/78. cannot reach the goal: no move "
                   "sequence joins them (it lies in another cluster of positions)")


def test_published_figures_of_another_metric_are_not_compared(capsys):
    """`sliding table klotski --metric step` compared 116 steps with the 81 moves published in
    the path metric and said it differs (issue 28)."""
    assert main(["sliding", "table", "klotski", "--metric", "step"]) == 0
    out = capsys.readouterr().out
    assert "the start" in out and "needs 116 moves" in out
    assert "differs" not in out
    assert "the published figures are in the path metric: not compared" in out
    assert main(["sliding", "table", "klotski"]) == 0
    assert "agrees with the published figures: positions, start_moves" in \
        capsys.readouterr().out


def test_an_interrupted_search_reports_what_it_reached():
    """Ctrl-C in the middle of a search on ranks: SearchStopped with the positions expanded so
    far (it said 1, the seed, after 24 minutes of a 3x4 search)."""
    from puzzlesat.backends.table import run_search
    from puzzlesat.breadth_first import SearchStopped, moves

    model = sliding.FAMILY.table_model(files.load("eight-puzzle"), threads=1)
    calls, seen = [0], [0]

    def level(*args):
        calls[0] += 1
        if calls[0] == 12:
            raise KeyboardInterrupt
        done = moves.level(*args)
        seen[0] += done
        return done

    model.level = level
    with pytest.raises(SearchStopped) as caught:
        run_search(model)
    assert caught.value.interrupted and caught.value.positions == seen[0] == 706


def test_a_wrong_argument_to_the_c_kernel_is_a_python_error():
    """The C engine and kernels (puzzlesat._moves) check what they are given: a wrong kernel
    number, data of the wrong shape or item size, a read-only array they write, a part of the
    ranks outside the array or not whole words, arrays that disagree: each a TypeError or
    ValueError, never a crash or a read outside an array."""
    import numpy as np

    from puzzlesat.breadth_first import moves

    model = sliding.FAMILY.table_model(files.load("eight-puzzle"), threads=1)
    kernel, data = model.kernel, model.data
    distance = np.full(model.bound + (-model.bound) % 8, 255, dtype=np.uint8)
    assert moves.level(kernel, data, distance, 0, 8, 0, 1, 255) == 0  # the arguments work
    read_only = distance.copy()
    read_only.flags.writeable = False
    shorter = (data[0][:-1], *data[1:])  # a placement array shorter than the others
    far = list(data)
    far[1] = np.full_like(data[1], 10**6)  # a shift to a placement that is not there
    bad = [
        (kernel, data, read_only, 0, 8, 0, 1, 255),  # written, read only
        (kernel, data, distance.astype(np.uint16), 0, 8, 0, 1, 255),  # bytes expected
        (kernel, data, distance, 0, distance.size + 8, 0, 1, 255),  # past the end
        (kernel, data, distance, 3, 8, 0, 1, 255),  # not a whole word
        (kernel, data, distance, 0, 8, 0, 1, 256),  # not a byte
        (7, data, distance, 0, 8, 0, 1, 255),  # no such kernel
        (kernel, data[:5], distance, 0, 8, 0, 1, 255),  # too few arrays
        (kernel, shorter, distance, 0, 8, 0, 1, 255),
        (kernel, tuple(far), distance, 0, 8, 0, 1, 255),
        (kernel, "data", distance, 0, 8, 0, 1, 255),
        (moves.MIND_LOCK, data, distance, 0, 8, 0, 1, 255),  # another kernel's data
        (kernel, data, distance, 0, 8, 0, 1),  # an argument short
    ]
    for arguments in bad:
        with pytest.raises((TypeError, ValueError)):
            moves.level(*arguments)
    keys = np.full(1 << 16, 2**64 - 1, dtype=np.uint64)
    queue = np.zeros(4, dtype=np.uint64)
    with pytest.raises(ValueError, match="power of two"):
        moves.expand(kernel, data, queue, 0, 1, 1, keys[:1000], 48)
    with pytest.raises(ValueError, match="tail"):
        moves.expand(kernel, data, queue, 0, 1, 9, keys, 48)
    with pytest.raises(ValueError, match="more slots"):  # a set that could fill: refused
        moves.expand(kernel, data, queue, 0, 1, 1, keys[:4], 62)
    with pytest.raises(ValueError, match="no goal test"):
        moves.pick(moves.MIND_LOCK, mind_lock.kernels.kernel_data(), queue, 1, queue.copy())
    with pytest.raises(ValueError, match="room"):
        moves.neighbours(kernel, data, 0, np.empty(1, dtype=np.uint64))
    # a shift table with a cycle (every placement slides onto itself) ends, within the room
    rush = sliding.FAMILY.table_model(files.load("rush-hour-51"), threads=1)
    looped = list(rush.data)
    looped[1] = rush.data[1].copy()
    looped[1][:, 0] = np.arange(len(looped[1]))
    out = np.empty(sliding.kernels.degree(files.load("rush-hour-51")), dtype=np.uint64)
    assert 0 < moves.neighbours(rush.kernel, tuple(looped), 0, out) <= out.size
    # so does a ranking whose states lead back to the first (a walk takes a step a state)
    cycled = list(rush.data)
    cycled[10] = np.zeros_like(rush.data[10])
    assert 0 <= moves.neighbours(rush.kernel, tuple(cycled), 5, out) <= out.size


def test_without_the_c_module_the_table_backend_says_so_in_one_line(tmp_path):
    """Where the install built no C module (no C compiler), the table backend is absent: a
    count or a table says so in one line (exit 2), and the families still load."""
    import subprocess
    import sys

    script = ("import sys; sys.modules['puzzlesat._moves'] = None\n"
              "from puzzlesat.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    for args in (["count", "klotski"], ["sliding", "table", "klotski"],
                 ["solve", "mind-lock"]):
        run = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                             text=True, timeout=120,
                             env={**__import__("os").environ,
                                  "XDG_CACHE_HOME": str(tmp_path / "cache")})
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
        assert "was not built when puzzlesat was installed" in run.stderr, run.stderr


def test_a_table_search_imports_no_jit(tmp_path):
    """Issue 39: the moves engine and its kernels are C built at install; a count and a table
    search of each family (searched now, no cache) import no numba."""
    import os
    import subprocess
    import sys

    script = ("import sys; from puzzlesat.cli import main\n"
              "assert main(['count', 'rush-hour-51']) == 0\n"
              "assert main(['count', 'mind-lock']) == 0\n"
              "print('numba' in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[-1] == "False", run.stdout


def test_a_dense_table_is_placed_by_code_as_the_sorted_one():
    """Mind Lock's codes are its ranks 0..92,399: the dense search places each residue at its
    code (no sort, no key array); the same search keeping its sorted codes gives those codes
    0..n-1 and the same residues, the same positions at each distance and the same hardest."""
    import numpy as np

    from puzzlesat.backends.table import run_search

    model = mind_lock.FAMILY.table_model(files.load("mind-lock"))
    placed = run_search(model)
    sorted_build = run_search(dataclasses.replace(model, dense=False))
    assert placed.keys is None and sorted_build.keys is not None
    assert np.array_equal(sorted_build.keys, np.arange(placed.positions, dtype=np.uint64))
    assert bytes(placed.packed) == bytes(sorted_build.packed)
    assert (placed.distance_counts, placed.hardest) == (sorted_build.distance_counts,
                                                        sorted_build.hardest)
