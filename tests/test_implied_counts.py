"""The packing CNF leaves out each bound on a piece's count that the cells imply
(models/packing/encode.py, `implied_counts`): its models on the placements stay the same.

- On hypothesis-generated small boards of every lattice, with pieces in copies (areas adding up
  to the board exactly, where the cells imply the counts), in ranges and in any number: the
  CNF's models on the placement variables, under every cardinality encoding, are the exact
  covers enumerated here by a plain search written for this test, for every task of the count
  plan (the fixed-point tasks' bundles of placements included).
- On the same boards every counting backend (the compiled search, CP-SAT, a SAT solver, the
  reference, every model counter installed) counts the same solutions and classes.
- What is left out, where: a board of dominoes is its cells alone (no counter, no auxiliary
  variable); a bound that the cells do not imply stays.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from test_any_number import any_number_puzzles, board_cells, toml_of

import puzzlesat
from puzzlesat.backends import mc
from puzzlesat.models.encoded import CARD_ENCODINGS
from puzzlesat.models.geometry import LATTICES
from puzzlesat.models.packing import ExactCover, exact_cover, placements
from puzzlesat.models.packing.encode import encode_cnf, implied_counts
from puzzlesat.models.packing.plan import count_plan

BACKENDS = ("bitboard", "cpsat", "pysat:cadical195", "reference", *mc.installed_counters())
SETTINGS = settings(deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
RANGES = ['"any"', "[0, 2]", "[1, 3]", "[0, 1]", "[2, 9]"]


@st.composite
def counted_puzzles(draw) -> str:
    """A small board of any lattice and one or two pieces (random shapes of 1 to 3 cells) in
    copies whose areas fill the board exactly; sometimes one count made a range or "any"."""
    lattice = draw(st.sampled_from(["square", "triangular", "hexagonal", "cubic"]))
    rnd = random.Random(draw(st.integers(0, 10 ** 6)))
    areas = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2, unique=True))
    counts = [draw(st.integers(1, 4)) for _ in areas]
    size = sum(a * n for a, n in zip(areas, counts))
    assume(4 <= size <= (8 if lattice == "cubic" else 10))
    pieces, written = {}, {}
    for number, (area, count) in enumerate(zip(areas, counts)):
        name = "PQ"[number]
        cells = board_cells(lattice, area, rnd)
        pieces[name] = str([list(c) for c in LATTICES[lattice].normalise(cells)])
        written[name] = str(count)
    if draw(st.booleans()):
        written[draw(st.sampled_from(sorted(written)))] = draw(st.sampled_from(RANGES))
    return toml_of(lattice, board_cells(lattice, size, rnd), [], "", written, pieces)


def load(tmp_path, text: str):
    path = tmp_path / "board.toml"
    path.write_text(text)
    try:
        return puzzlesat.load(path)
    except puzzlesat.InputError as error:  # the pieces can never fill this board
        assert "cells but the board has" in str(error), error
        return None


def exact_covers(cover: ExactCover) -> set[frozenset[int]]:
    """Every set of rows covering each cell once, each piece within its bounds: a plain search
    on the first uncovered cell, sharing nothing with the encoders."""
    needed = cover.multiplicity or [1] * len(cover.columns)
    least = cover.least or needed
    found: set[frozenset[int]] = set()

    def search(chosen: list[int], used: Counter) -> None:
        free = [c for c in range(cover.pieces, len(cover.columns)) if used[c] < needed[c]]
        if not free:
            if all(least[p] <= used[p] <= needed[p] for p in range(cover.pieces)):
                found.add(frozenset(chosen))
            return
        for k, row in enumerate(cover.rows):
            adds = Counter(row)
            if free[0] in adds and all(used[c] + n <= needed[c] for c, n in adds.items()):
                search([*chosen, k], used + adds)

    search([], Counter())
    return found


def cnf_covers(cover: ExactCover, encoding: str) -> set[frozenset[int]]:
    """The CNF's models on its placement variables (the keys), listed by a SAT solver."""
    model = encode_cnf(cover, encoding)
    found: set[frozenset[int]] = set()
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        while solver.solve():
            true = {v for v in solver.get_model() if v > 0}
            chosen = frozenset(k - 1 for k in model.keys if k in true)
            assert chosen not in found
            found.add(chosen)
            solver.add_clause([-k if k - 1 in chosen else k for k in model.keys])
    return found


def check_models(puzzle, encoding: str) -> None:
    for task in count_plan(puzzle, "symmetry").tasks:
        cover = exact_cover(puzzle, task.options)
        assert cnf_covers(cover, encoding) == exact_covers(cover), (task.label, encoding)


@SETTINGS
@given(st.one_of(counted_puzzles(), any_number_puzzles()), st.sampled_from(sorted(CARD_ENCODINGS)))
def test_the_cnf_has_the_exact_covers_as_models_on_every_lattice(tmp_path, text, encoding):
    puzzle = load(tmp_path, text)
    if puzzle is not None:
        check_models(puzzle, encoding)


@settings(SETTINGS, max_examples=25)
@given(counted_puzzles())
def test_every_backend_counts_pieces_in_copies_alike(tmp_path, text):
    puzzle = load(tmp_path, text)
    if puzzle is None:
        return
    found = {}
    for backend in BACKENDS:
        plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
        reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
        assert plain.complete and reduced.complete, backend
        assert reduced.details["solutions"] == plain.number, (backend, text)
        found[backend] = (plain.number, reduced.number)
    assert len(set(found.values())) == 1, (found, text)


@pytest.mark.skipif(len(BACKENDS) == 4, reason="no model counter installed: "
                    "pip install 'puzzlesat[mc]'")
@settings(SETTINGS, max_examples=15)
@given(any_number_puzzles())
def test_model_counters_count_pieces_in_any_number_as_the_others(tmp_path, text):
    puzzle = load(tmp_path, text)
    if puzzle is None:
        return
    expected = puzzlesat.count(puzzle, backend="reference", modulo="symmetry", jobs=1)
    for backend in BACKENDS[4:]:
        plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
        reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
        assert (plain.number, reduced.number) == (expected.details["solutions"],
                                                  expected.number), (backend, text)


# ---------------------------------------------------------------- what is left out, where


def cover_of(tmp_path, text: str) -> ExactCover:
    puzzle = load(tmp_path, text)
    return exact_cover(puzzle, placements(puzzle))


def test_a_board_of_dominoes_is_its_cells_alone(tmp_path):
    """One kind of piece filling the board: both bounds follow from the cells, so no counter
    over the dominoes (with "exactly one" pairwise, no auxiliary variable at all) and the 4x4
    board's 36 tilings under every encoding."""
    text = 'kind = "packing"\nboard = """\nXXXX\nXXXX\nXXXX\nXXXX\n"""\n[pieces]\n' \
           'd = { picture = "XX", count = 8 }\n'
    cover = cover_of(tmp_path, text)
    assert implied_counts(cover) == ({0}, {0})
    assert encode_cnf(cover, "pairwise").nvars == len(cover.rows)
    for encoding in CARD_ENCODINGS:
        assert len(cnf_covers(cover, encoding)) == 36, encoding


def test_pieces_used_once_keep_exactly_one(tmp_path):
    """Areas adding up to the board, each piece once: "at least one" follows only from the
    others' "at most one", which the cells do not imply (two of either would fit): both stay."""
    cover = cover_of(tmp_path, 'kind = "packing"\nboard = """\nXXXX\nXXXX\n"""\n[pieces]\n'
                     'i = "XXXX"\no = """\nXX\nXX\n"""\n')
    assert implied_counts(cover) == (set(), set())


def test_a_bound_the_cells_do_not_imply_stays(tmp_path):
    """A 1x6 strip, dominoes in any number: monominoes [0, 2] keep "at most two" (six would
    fit), monominoes [2, 6] keep "at least two" (three dominoes would fill the strip)."""
    strip = ('kind = "packing"\nboard = "XXXXXX"\n[pieces]\n'
             'mono = { picture = "X", count = [0, 2] }\n'
             'domino = { picture = "XX", count = "any" }\n')
    assert implied_counts(cover_of(tmp_path, strip)) == ({1}, {0, 1})
    at_least = strip.replace("[0, 2]", "[2, 6]")
    assert implied_counts(cover_of(tmp_path, at_least)) == ({0, 1}, {1})


def test_copies_short_of_the_board_keep_their_count(tmp_path):
    """Two dominoes and two monominoes exactly, filling a 2x3: "at most" follows for neither
    (three dominoes, or six monominoes, would fit), "at least" only from the other's "at most":
    both stay. On a 1x7 strip, dominoes in any number, "at least one monomino" follows from the
    cells alone (seven cells are no dominoes' cover)."""
    text = ('kind = "packing"\nboard = """\nXXX\nXXX\n"""\n[pieces]\n'
            'mono = { picture = "X", count = 2 }\ndomino = { picture = "XX", count = 2 }\n')
    cover = cover_of(tmp_path, text)
    assert implied_counts(cover) == (set(), set())
    odd = ('kind = "packing"\nboard = "XXXXXXX"\n[pieces]\n'
           'mono = { picture = "X", count = [1, 7] }\ndomino = { picture = "XX", count = "any" }\n')
    assert implied_counts(cover_of(tmp_path, odd)) == ({0, 1}, {0, 1})
    assert cnf_covers(cover, "seqcounter") == exact_covers(cover)


def test_a_calendar_cover_keeps_its_counts_and_its_dates():
    """A calendar's cover has items besides cells and pieces ("day left uncovered", each
    covered once by a date's row): nothing follows for the pieces there, and a SAT solver on
    the CNF counts a date as the compiled search does."""
    from puzzlesat.calendar import calendar
    from puzzlesat.models.packing.calendar import calendar_cover, dates

    puzzle = puzzlesat.load("a-puzzle-a-day")
    assert implied_counts(calendar_cover(puzzle, True).cover) == (set(), set())
    first = dates(puzzle)[:1]
    counts = [calendar(puzzle, backend=b, jobs=1, only=first).dates
              for b in ("bitboard", "pysat:cadical195")]
    assert counts[0] == counts[1] == {"Jan 1": 64}
