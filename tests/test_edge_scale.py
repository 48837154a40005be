"""Edge matching at scale: solver binaries (exec:), races, Heule's compact encoding, shuffling.

Binaries are Debian's cadical, cryptominisat5, picosat and minisat; a test needing one is
skipped, saying which, where it is absent. Boards come from the planted generator (the clue
puzzles live outside the project); every solution is checked edge by edge with check_grid.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from pysat.solvers import Solver
from test_faults import children  # the /proc reader the fault tests use

from puzzlesat.backends.exec import ExecBackend, minisat_lines, read_answer
from puzzlesat.backends.race import RaceBackend, shuffled_cnf, split_members
from puzzlesat.models import files
from puzzlesat.models.edge_matching import at_level, check_grid, look_key, planted
from puzzlesat.models.edge_matching.encode import encode_cnf, grid_of, layout
from puzzlesat.models.errors import InputError

BINARIES = ("cadical", "cryptominisat5", "picosat", "minisat")


def need(binary: str) -> None:
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not installed (Debian: apt-get install {binary})")


def easy_board():
    """6 x 6, 3 border and 6 interior colours: every binary solves it in well under a second."""
    return planted.generate(6, 3, 6, 1)


def hard_board():
    """7 x 7, 3 border and 8 interior colours, seed 1: each binary took over 20 s on it."""
    return planted.generate(7, 3, 8, 1)


def checked(puzzle, values) -> str | None:
    assert values is not None, "no solution returned"
    return check_grid(puzzle, grid_of(puzzle, layout(puzzle).options, values))


def left_behind(before: set[int]) -> list[int]:
    """Processes below this one that were not there before (zombies included: an unreaped child
    is left behind too). Long-lived helpers of earlier tests (multiprocessing's resource
    tracker, say) were there before."""
    return [p for p in descendants(os.getpid()) if p not in before]


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (zombies included: an unreaped child is left behind too)."""
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


@pytest.mark.parametrize("binary", BINARIES)
def test_exec_binary_solves_and_the_grid_checks(binary):
    need(binary)
    puzzle = easy_board()
    outcome = ExecBackend(binary).solve(encode_cnf(puzzle), time_limit=30)
    assert outcome.complete
    assert checked(puzzle, outcome.values) is None


@pytest.mark.parametrize("binary", ("cadical", "minisat"))
def test_exec_proves_unsatisfiable(binary):
    need(binary)
    puzzle = easy_board()
    model = encode_cnf(puzzle)
    model.clauses += [[1], [-1]]
    outcome = ExecBackend(binary).solve(model, time_limit=30)
    assert outcome.values is None and outcome.complete


@needs_proc
def test_exec_time_limit_ends_the_solver():
    before = set(descendants(os.getpid()))
    need("cadical")
    start = time.perf_counter()
    outcome = ExecBackend("cadical").solve(encode_cnf(hard_board()), time_limit=1.0)
    assert not outcome.complete and outcome.values is None
    assert time.perf_counter() - start < 60  # generous: a busy machine stretches the clock
    assert left_behind(before) == []


def test_exec_refuses_counting_and_missing_binaries():
    backend = ExecBackend("no-such-solver-here")
    assert not backend.supported() and not backend.can_count
    with pytest.raises(InputError, match="no such solver binary"):
        backend.solve(encode_cnf(easy_board()), 5)
    with pytest.raises(InputError, match="one run of the binary per solution"):
        backend.count_cube(None, (), None)


def test_solver_output_is_read():
    answer, assignment = read_answer("c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n")
    assert answer is True and assignment == {1: True, 2: False, 3: True}
    assert read_answer("s UNSATISFIABLE\n")[0] is False
    assert read_answer("c only comments\n")[0] is None
    assert minisat_lines("SAT\n-1 2 0\n") == ["s SATISFIABLE", "v -1 2 0\n"]
    assert minisat_lines("UNSAT\n") == ["s UNSATISFIABLE"]


@needs_proc
def test_race_returns_a_checked_grid_and_leaves_no_process():
    before = set(descendants(os.getpid()))
    need("cadical")
    need("minisat")
    puzzle = easy_board()
    race = RaceBackend("cadical*2,minisat", make=ExecBackend)
    assert [(b.name, seed) for b, seed in race.members] == [
        ("exec:cadical", 0), ("exec:cadical", 1), ("exec:minisat", 0)]
    outcome = race.solve(encode_cnf(puzzle), time_limit=30)
    assert checked(puzzle, outcome.values) is None
    assert race.winner
    assert left_behind(before) == []


@needs_proc
def test_race_time_limit_ends_every_member():
    before = set(descendants(os.getpid()))
    need("cadical")
    race = RaceBackend("cadical*2", make=ExecBackend)
    start = time.perf_counter()
    outcome = race.solve(encode_cnf(hard_board()), time_limit=1.0)
    assert not outcome.complete
    assert time.perf_counter() - start < 60  # generous: a busy machine stretches the clock
    assert left_behind(before) == []


def test_race_names():
    assert split_members("pysat:cadical195*4") == [("pysat:cadical195", 4)]
    assert split_members("cpsat,exec:/usr/bin/cadical*2") == [
        ("cpsat", 1), ("exec:/usr/bin/cadical", 2)]
    for bad in ("cadical*0", "*3", "cadical*x"):
        with pytest.raises(InputError):
            split_members(bad)


def test_shuffled_cnf_keeps_the_solutions():
    puzzle = easy_board()
    model = encode_cnf(puzzle)
    shuffled = shuffled_cnf(model, 7)
    assert shuffled.clauses != model.clauses and sorted(map(len, shuffled.clauses)) == sorted(
        map(len, model.clauses))
    with Solver(name="cadical195", bootstrap_with=shuffled.clauses) as sat:
        assert sat.solve()
        true = set(lit for lit in sat.get_model() if lit > 0)
    assert checked(puzzle, [1 if k in true else 0 for k in shuffled.keys]) is None


def test_shuffle_turns_and_reorders_the_same_tiles():
    puzzle = planted.generate(5, 3, 4, 2)
    shuffled = planted.shuffle(puzzle, 3)
    assert shuffled == planted.shuffle(puzzle, 3)  # same seed, same board
    assert [t.edges for t in shuffled.tiles] != [t.edges for t in puzzle.tiles]
    assert sorted(map(look_key, shuffled.tiles)) == sorted(map(look_key, puzzle.tiles))


def count(model) -> int:
    """Solutions (distinct key assignments) by blocking clauses on the true keys."""
    found = 0
    with Solver(name="cadical195", bootstrap_with=model.clauses) as sat:
        while sat.solve():
            assignment = sat.get_model()
            true = [k for k in model.keys if assignment[k - 1] > 0]
            sat.add_clause([-k for k in true])
            found += 1
    return found


VARIANTS = [("placements", True), ("placements", False), ("compact", True), ("compact", False)]
DECKS = {  # distinct grids, identical cards interchangeable (as the catalog's counts)
    "scramble-frog": 8, "scramble-insects": 4, "scramble-wizards": 4, "scramble-cowboys": 4,
    "scramble-crazy-planes": 8,
}


@pytest.mark.parametrize("deck", DECKS)
def test_every_encoding_counts_each_scramble_deck_alike(deck):
    puzzle = files.load(deck)
    counts = {v: count(encode_cnf(puzzle, model=v[0], redundant=v[1])) for v in VARIANTS}
    assert set(counts.values()) == {DECKS[deck]}, counts


@pytest.mark.parametrize("variant", [
    ("placements", True),
    ("compact", True),
    pytest.param(("placements", False), marks=pytest.mark.slow),
    pytest.param(("compact", False), marks=pytest.mark.slow),
])
def test_heule_compact_and_ours_count_the_diamond_blocks_alike(variant):
    puzzle = at_level(files.load("diamond-blocks"), 1)
    assert count(encode_cnf(puzzle, model=variant[0], redundant=variant[1])) == 17_920


def test_compact_encoding_solves_a_planted_board():
    puzzle = easy_board()
    model = encode_cnf(puzzle, model="compact", redundant=False)
    with Solver(name="cadical195", bootstrap_with=model.clauses) as sat:
        assert sat.solve()
        true = set(lit for lit in sat.get_model() if lit > 0)
    assert checked(puzzle, [1 if k in true else 0 for k in model.keys]) is None


def test_edge_bench_writes_its_tables(tmp_path):
    need("cadical")
    from puzzlesat.benchmarks import edge

    instances = edge.planted_instances((5,), (1, 2), interior=4)
    contenders = [edge.contender("exec:cadical"), edge.contender("exec:cadical+compact")]
    assert edge.contender("cpsat+integers") == edge.Contender("cpsat", "integers")
    assert not edge.contender("exec:cadical+noamo").redundant
    with pytest.raises(InputError):
        edge.contender("exec:cadical+fast")
    rows = edge.bench(instances, contenders, lambda name: ExecBackend(name.partition(":")[2]),
                      {"planted": 30.0}, tmp_path,
                      say=lambda _: None)
    assert len(rows) == 4 and all(r["status"] == "solved" for r in rows)
    table = (tmp_path / "edge-bench.md").read_text()
    assert "exec:cadical (compact)" in table and "5x5" in table
    assert (tmp_path / "edge-bench.csv").read_text().count("\n") == 5
