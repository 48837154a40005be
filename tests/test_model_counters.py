"""Model counters as backends (`mc:NAME`, runners/backends/mc.py): they count without listing.

On hypothesis-generated small boards of every lattice (square, triangular, hexagonal, cubic,
balls, the flat ball layer) and small edge puzzles, every installed
model counter agrees with the compiled search and the reference, with and without symmetry: the
classes by Burnside's lemma from the counter's fixed points equal the reference's canonical
forms (its own symmetries, no shared code), and the fixed-point table equals the compiled
search's. Then what a user meets: a counter missing, `solve` with a counter, a time limit, a
memory limit, each said in one line.
"""

from __future__ import annotations

import pytest
from _counting import reference_classes
from hypothesis import given, settings
from test_balls import ball_puzzles, flat_puzzles
from test_polyforms import PLANE, plane_puzzles
from test_properties import BOUNDED, edge_puzzles, packing_puzzles
from test_solids import solid_puzzles

import puzzlesat
from puzzlesat.backends import mc, reference_edge
from puzzlesat.cli import main
from puzzlesat.models.edge_matching import board_turns

COUNTERS = mc.installed_counters()
pytestmark = pytest.mark.skipif(not COUNTERS, reason="no model counter installed: "
                                "pip install 'puzzlesat[mc]'")
COMPILED = "bitboard"  # the compiled packing search


def check_packing(puzzle, counters=None) -> None:
    """Each counter: the reference's solutions, its canonical forms as classes, and the compiled
    search's fixed points."""
    solutions, classes = reference_classes(puzzle)
    compiled = puzzlesat.count(puzzle, backend=COMPILED, modulo="symmetry", jobs=1)
    assert (compiled.details["solutions"], compiled.number) == (solutions, classes)
    for backend in counters or COUNTERS:
        plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
        reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
        assert plain.complete and reduced.complete, backend
        assert (plain.number, reduced.number) == (solutions, classes), backend
        assert reduced.details["solutions"] == solutions, backend
        assert reduced.details["fixed_points"] == compiled.details["fixed_points"], backend
        assert reduced.details["counter"] == mc.COUNTERS[backend[3:]].credit()


@settings(BOUNDED, max_examples=12)
@given(packing_puzzles())
def test_model_counters_agree_on_random_square_boards(puzzle):
    check_packing(puzzle)


@pytest.mark.parametrize("grid", PLANE, ids=lambda g: g.name)
def test_model_counters_agree_on_random_boards_of_every_plane_lattice(grid):
    @settings(BOUNDED, max_examples=4)
    @given(plane_puzzles(grid))
    def check(puzzle):
        check_packing(puzzle)

    check()


@settings(BOUNDED, max_examples=2)
@given(solid_puzzles())
def test_model_counters_agree_on_random_solids(puzzle):
    check_packing(puzzle)


@settings(BOUNDED, max_examples=2)
@given(ball_puzzles())
def test_model_counters_agree_on_random_ball_boards(puzzle):
    check_packing(puzzle)


@settings(BOUNDED, max_examples=3)
@given(flat_puzzles())
def test_model_counters_agree_on_random_flat_ball_boards(puzzle):
    check_packing(puzzle)


@settings(BOUNDED, max_examples=6)
@given(edge_puzzles())
def test_model_counters_agree_on_random_edge_puzzles(puzzle):
    """Grids, and classes up to turning the board: the reference's least images, the compiled
    counter's (edgecount) fixed grids of every turn."""
    grids = list(reference_edge.grids(puzzle))
    reference = puzzlesat.count(puzzle, backend="reference", modulo="symmetry", jobs=1)
    compiled = puzzlesat.count(puzzle, backend="edgecount", modulo="symmetry", jobs=1)
    assert compiled.details["grid_classes"] == reference.details["grid_classes"]
    for backend in COUNTERS:
        plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
        reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
        assert plain.complete and reduced.complete, backend
        assert plain.details["grids"] == len(grids), backend
        assert reduced.details["grid_classes"] == reference.details["grid_classes"], backend
        assert reduced.details["fixed_by_turn"] == compiled.details["fixed_by_turn"], backend
        assert len(reduced.details["fixed_by_turn"]) == len(board_turns(puzzle))


def test_a_cardinality_encoding_is_counted_projected_onto_the_placements():
    """Copies of a piece (a counter over its placements, auxiliary variables a solution does
    not fix): the 2x4 board's 5 domino tilings, whatever the auxiliaries do."""
    from puzzlesat.models.packing import PackingPuzzle, Piece

    puzzle = PackingPuzzle("dominoes", ("XXXX", "XXXX"), (Piece("d", ("XX",), count=4),), True)
    for backend in COUNTERS:
        for encoding in ("seqcounter", "totalizer"):
            found = puzzlesat.count(puzzle, backend=backend, jobs=1, encoding=encoding)
            assert found.number == 5, (backend, encoding)


def test_a_counter_in_worker_processes_counts_as_in_this_one():
    """With --jobs 2 each count runs in a pool worker, which may start no child of its own:
    the worker counts itself (under the same memory limit), and the figures are the same."""
    from puzzlesat.benchmarks.counters import dominoes

    puzzle = dominoes(4)
    reference = puzzlesat.count(puzzle, backend="reference", modulo="symmetry", jobs=1)
    for backend in COUNTERS:
        found = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=2)
        assert found.complete, backend
        assert (found.details["solutions"], found.number) == (
            reference.details["solutions"], reference.number), backend


# ---------------------------------------------------------------- what a user meets


def test_solve_with_a_counter_is_one_line_and_exit_2(capsys):
    assert main(["solve", "iq-block-8", "--backend", COUNTERS[0]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "counts solutions without listing them: it cannot solve" in err[0]


def test_a_counter_is_listed_for_counting_only_with_its_version_and_licence(capsys):
    assert main(["backends", "iq-block-8"]) == 0
    out = capsys.readouterr().out
    solve, count = out.splitlines()[:2]
    for name in COUNTERS:
        counter = mc.COUNTERS[name[3:]]
        assert name not in solve and name in count
        assert f"{name}: counts without listing" in out
        assert counter.version() in out and counter.licence in out


def test_a_counter_not_installed_is_one_line_and_exit_2(monkeypatch, capsys):
    from puzzlesat import registry

    monkeypatch.setattr(mc.Counter, "installed", lambda self: False)
    registry.backend.cache_clear()
    try:
        assert main(["count", "iq-block-8", "--backend", "mc:ganak"]) == 2
    finally:
        registry.backend.cache_clear()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pyganak is not installed: pip install 'puzzlesat[mc]'" in err[0]


def test_an_unknown_counter_is_one_line_and_exit_2(capsys):
    assert main(["count", "iq-block-8", "--backend", "mc:sharpsat"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown model counter 'sharpsat'" in err[0]


def test_a_time_limit_ends_the_counter_and_the_count_is_incomplete(capsys):
    """A counter cannot report a partial count: stopped, it counts 0, said so, exit 1 (an
    incomplete count's)."""
    code = main(["count", "pentomino-6x10", "--backend", COUNTERS[0], "--jobs", "1",
                 "--time-limit", "0.5"])
    out = capsys.readouterr().out
    assert code == 1
    assert "INCOMPLETE count" in out and "a model counter reports no partial count" in out


def test_a_counter_out_of_memory_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setenv(mc.MEMORY_VARIABLE, "64")
    code = main(["count", "pentomino-3x20", "--backend", COUNTERS[0], "--jobs", "1"])
    captured = capsys.readouterr()
    assert code == 1
    said = [line for line in captured.err.splitlines() if "memory" in line]
    assert len(said) == 1 and "limit: 64 MiB" in said[0] and mc.MEMORY_VARIABLE in said[0]
    assert "Traceback" not in captured.err


def test_a_bad_memory_limit_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setenv(mc.MEMORY_VARIABLE, "lots")
    assert main(["count", "scramble-frog", "--backend", COUNTERS[0]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "PUZZLESAT_MC_MEMORY_MB must be a whole number" in err[0]


def test_listing_solutions_with_a_counter_is_refused_in_words():
    from puzzlesat.models.errors import InputError

    with pytest.raises(InputError, match="counts solutions without listing them"):
        next(iter(puzzlesat.solutions("iq-block-8", backend=COUNTERS[0], limit=1)))


# ---------------------------------------------------------------- the counting ladder


def test_the_counting_ladder_times_every_backend_and_records_its_table(monkeypatch, tmp_path):
    """`bench counters` on a ladder of two small rungs (one pending): each backend's median,
    the count they agree on, the counter's name and licence, written under results/."""
    from puzzlesat.benchmarks import counters

    ladder = (
        counters.Rung("identical pieces", "dominoes 4x4", lambda: counters.dominoes(4),
                      ("cpsat", "xcover"), 36),
        counters.Rung("pieces in any number", "(to fill in)", "", ("cpsat",),
                      pending="not yet"),
    )
    monkeypatch.setattr(counters, "LADDER", ladder)
    said = []
    figures = counters.run(1, tmp_path, limit=120, say=said.append)
    [timed, pending] = figures["rungs"]
    assert pending["pending"] == "not yet" and "times" not in pending
    by = {t["backend"]: t for t in timed["times"]}
    assert set(by) == {"cpsat", "xcover", *COUNTERS}
    assert "refused" in by["xcover"]  # dancing links without copies of a piece
    for name in ["cpsat", *COUNTERS]:
        assert by[name]["complete"] and by[name]["count"] == 36, name
    table = (tmp_path / "counters-bench.md").read_text()
    assert "| identical pieces | dominoes 4x4 | 36 |" in table
    assert "| pieces in any number | (to fill in) | not yet |" in table
    assert mc.COUNTERS[COUNTERS[0][3:]].credit() in table
    assert (tmp_path / "counters-bench.json").exists()


# ---------------------------------------------------------------- verify's witness


def test_verify_adds_a_counter_as_witness_where_it_will_finish():
    """Issue 43: `verify` adds a model counter where the witness rule expects it to finish
    (the Scramble frog: 8 grids, 1,050 variables), and it agrees."""
    checked = puzzlesat.verify("scramble-frog")
    witnesses = [c for c in checked.counts if c.backend.startswith("mc:")]
    assert checked.agree and [c.backend for c in witnesses] == COUNTERS[:1]
    assert witnesses[0].complete and witnesses[0].details["grids"] == 8


def test_the_witness_rule():
    from puzzlesat.families import WITNESS_SOLUTIONS, WITNESS_VARIABLES, witness

    asked = []

    def variables(n):
        return lambda counter: asked.append(counter.name) or n

    assert witness({WITNESS_SOLUTIONS + 1}, variables(10)) is None
    assert witness({3, 4}, variables(10)) is None  # no agreed count: no witness
    assert asked == []  # the CNF is made only where the count passes
    assert witness({8}, variables(WITNESS_VARIABLES + 1)) is None
    assert witness({8}, variables(WITNESS_VARIABLES)).name == COUNTERS[0]


def test_verify_with_named_backends_adds_no_witness():
    checked = puzzlesat.verify("scramble-frog", backends=["cpsat", "reference"])
    assert [c.backend for c in checked.counts] == ["cpsat", "reference:edge-matching"]
