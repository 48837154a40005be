"""The compiled bitboard search without an item limit, and copies of a piece counted once.

- Random boards of more than 126 items (three words and more), with and without copies of a
  piece: the compiled search agrees with CP-SAT, xcover and the reference, with and without
  symmetry (xcover takes no copies: it counts each copy as its own piece, so its count is the
  search's times the ways to tell the copies apart).
- A piece with N copies is one item with a counter: the memo merges sub-problems whatever copy
  filled them (the 2 x 40 domino board is a linear count only if it does).
- Domino tilings far too many to list, against Kasteleyn's product formula.
- Boards of forced cells (unit squares on a large board) are planned and counted quickly.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from decimal import Decimal, getcontext

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import draw_picture, partition, turned

import puzzlesat
from puzzlesat import native
from puzzlesat.backends.bitboard import (
    NO_MEMO,
    WORD,
    Memo,
    Search,
    board_of,
)
from puzzlesat.models.errors import InputError
from puzzlesat.models.packing import PackingPuzzle, Piece, exact_cover, placements
from puzzlesat.models.packing.encode import encode_cover
from puzzlesat.models.packing.plan import split_cubes

WIDE_EXAMPLES = 2  # CP-SAT and the reference list every solution of boards of 130-170 cells
MOST = 100  # solutions of the boards they are asked to list
SETTINGS = settings(deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@st.composite
def wide_puzzles(draw) -> PackingPuzzle:
    """A board of 130 to 170 cells cut into pieces of about 14 cells (large pieces keep the
    lists of CP-SAT and the reference short); with `copies`, its first two columns are cut into
    vertical dominoes, one piece with four or six copies."""
    rnd = draw(st.randoms(use_true_random=False))
    height = draw(st.integers(4, 6))
    width = draw(st.integers(-(-131 // height), 170 // height))
    copies = draw(st.booleans())
    dominoes = 2 if copies and height % 2 == 0 else 0  # 4 or 6 copies: 6! labellings at most
    cells = {(r, c) for r in range(height) for c in range(dominoes, width)}
    for cell in rnd.sample(sorted(cells), draw(st.integers(0, 3))):
        cells.discard(cell)
    flip = draw(st.booleans())
    pieces = []
    for number, region in enumerate(partition(cells, len(cells) // 14, rnd)):
        shown = turned(region, rnd.randrange(4), flip and rnd.random() < 0.5)
        pieces.append(Piece(f"P{number}", draw_picture(shown)))
    if dominoes:
        cells |= {(r, c) for r in range(height) for c in range(dominoes)}
        pieces.append(Piece("domino", ("X", "X"), height * dominoes // 2))
    return PackingPuzzle("wide", draw_picture(cells), tuple(pieces), flip)


def labelled(puzzle: PackingPuzzle) -> tuple[PackingPuzzle, int]:
    """The puzzle with each copy of a piece its own piece, and the ways to tell copies apart."""
    pieces, ways = [], 1
    for piece in puzzle.pieces:
        for k in range(piece.count):
            pieces.append(Piece(f"{piece.name}{k}", piece.picture))
        ways *= math.factorial(piece.count)
    return PackingPuzzle(puzzle.name, puzzle.board, tuple(pieces), puzzle.flip), ways


def counts(puzzle: PackingPuzzle, backend: str) -> tuple[int, int]:
    plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
    reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
    assert plain.complete and reduced.complete, backend
    assert reduced.details["solutions"] == plain.number, backend
    return plain.number, reduced.number


@pytest.mark.parametrize("size", ["default", pytest.param("many", marks=pytest.mark.slow)])
def test_wide_boards_with_copies_agree_on_every_method(size):
    examples = 40 if size == "many" else WIDE_EXAMPLES
    settings(SETTINGS, max_examples=examples, derandomize=size != "many")(
        given(wide_puzzles())(check_wide))()


def check_wide(puzzle: PackingPuzzle) -> None:
    model = encode_cover(exact_cover(puzzle, placements(puzzle)))
    board = board_of(model)
    assert len(model.items) > 2 * WORD and board.words >= 3  # past the old 126 items
    ours = counts(puzzle, "bitboard")
    assert ours[0] >= 1  # the pieces were cut from the board
    assume(ours[0] <= MOST)  # CP-SAT and the reference list every solution
    assert counts(puzzle, "cpsat") == ours
    assert counts(puzzle, "reference") == ours
    alike, ways = labelled(puzzle)
    if ways <= 24:  # four copies at most: six labelled dominoes roam the board (minutes)
        assert puzzlesat.count(alike, backend="xcover", modulo="none", jobs=1).number == (
            ways * ours[0])
    if ways == 1:
        assert counts(puzzle, "xcover") == ours


def test_copies_are_one_item_with_a_counter():
    """Twenty copies take five bits, not twenty: 100 cells and a domino counter fit two words."""
    puzzle = PackingPuzzle("d10", ("X" * 10,) * 10, (Piece("domino", ("XX",), 50),), True)
    board = board_of(encode_cover(exact_cover(puzzle, placements(puzzle))))
    assert board.words == 2 and board.units == 150 and len(board.field_of) == 1


def test_the_memo_merges_sub_problems_whatever_copy_filled_them():
    """On a 2 x 40 board of dominoes (F(41) tilings) a memo keyed on which copy went where
    would meet no state twice: the count would take F(41) leaves. Keyed on the cells covered
    and the copies placed, each state is met once: a few hundred nodes."""
    puzzle = PackingPuzzle("d2x40", ("X" * 40,) * 2, (Piece("domino", ("XX",), 40),), True)
    board = board_of(encode_cover(exact_cover(puzzle, placements(puzzle))))
    search = Search(board, (), Memo.first(board.words))
    while not search.run(10_000):
        pass
    assert search.found == 165_580_141  # the Fibonacci number F(41)
    assert search.nodes < 1_000 and search.hits > 0


def _cos(x: Decimal) -> Decimal:
    """cos x by its series, to the context's precision."""
    total, term, k = Decimal(1), Decimal(1), 0
    while True:
        k += 2
        term *= -x * x / (k * (k - 1))
        if abs(term) < Decimal(10) ** -(getcontext().prec + 2):
            return total
        total += term


def kasteleyn(m: int, n: int) -> int:
    """Domino tilings of an m x n board by Kasteleyn's product formula (1961), computed to 60
    digits: prod over j <= m/2, k <= n/2 of 4 cos^2(pi j/(m+1)) + 4 cos^2(pi k/(n+1))."""
    getcontext().prec = 60
    pi = Decimal("3.14159265358979323846264338327950288419716939937510582097494")
    product = Decimal(1)
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            a, b = _cos(pi * j / (m + 1)), _cos(pi * k / (n + 1))
            product *= 4 * a * a + 4 * b * b
    return int(product.to_integral_value())


@pytest.mark.parametrize("rows, cols", [(10, 10), (12, 12), (9, 14)])
def test_domino_tilings_far_too_many_to_list_are_counted_exactly(rows, cols):
    puzzle = PackingPuzzle(f"d{rows}x{cols}", ("X" * cols,) * rows,
                           (Piece("domino", ("XX",), rows * cols // 2),), True)
    found = puzzlesat.count(puzzle, modulo="none", jobs=2)
    assert found.complete and found.number == kasteleyn(rows, cols) > 10 ** 11
    assert "copies of a piece are alike" in found.counted


def test_a_count_far_past_124_bits_is_refused_before_it_starts():
    """The compiled search counts in two words of 62 bits (issue 43: exact past 2^63)."""
    puzzle = PackingPuzzle("d30", ("X" * 30,) * 30, (Piece("domino", ("XX",), 450),), True)
    with pytest.raises(InputError, match="solutions by Knuth's estimator.*2\\^124"):
        puzzlesat.count(puzzle, modulo="none", jobs=1)


def test_a_board_of_forced_cells_is_split_and_counted_in_one_pass():
    """Unit squares on a large board: each first empty cell has one placement. The plan's split
    once took a pass a cell over the whole cube (quadratic: minutes, silent); it extends the
    cube in place."""
    side = 150
    puzzle = PackingPuzzle("unit", ("X" * side,) * side, (Piece("unit", ("X",), side * side),),
                           True)
    options = placements(puzzle)
    [cube] = split_cubes(puzzle, options, [()], 8)
    assert len(cube) == side * side  # one way on from every cell: the whole cover
    found = puzzlesat.count(puzzle, modulo="none", jobs=1, time_limit=60)
    assert found.complete and found.number == 1


def test_a_box_of_forced_cells_is_split_and_counted_in_one_pass(tmp_path):
    """The same in space (issue 28: 40x40x40 unit cubes hung silently, past --time-limit):
    a 24x24x24 box of unit cubes, read from its file, split into the one whole cover and
    counted."""
    side = 24
    layer = "\n".join(["X" * side] * side)
    (tmp_path / "box.toml").write_text(
        'kind = "packing"\nlattice = "cubic"\nboard = """\n' + "\n---\n".join([layer] * side)
        + f'\n"""\n[pieces]\nu = {{ picture = "X", count = {side ** 3} }}\n')
    puzzle = puzzlesat.load(str(tmp_path / "box.toml"))
    [cube] = split_cubes(puzzle, placements(puzzle), [()], 8)
    assert len(cube) == side ** 3
    found = puzzlesat.count(puzzle, modulo="none", jobs=1, time_limit=60)
    assert found.complete and found.number == 1


def test_a_random_cube_of_a_wide_board_counts_as_cpsat_counts_it():
    """Cubes (placements held or left out) on a board of three words."""
    rnd = random.Random(7)
    cells = {(r, c) for r in range(5) for c in range(30)}
    pieces = tuple(Piece(f"P{k}", draw_picture(region))
                   for k, region in enumerate(partition(cells, 11, rnd)))
    puzzle = PackingPuzzle("cubes", draw_picture(cells), pieces, True)
    options = placements(puzzle)
    model = encode_cover(exact_cover(puzzle, options))
    backend = puzzlesat.registry.backend("bitboard")
    state = backend.prepare(backend.payload(model))
    total = backend.count_cube(state, (), None)[0][0]
    assert total >= 1
    cubes = split_cubes(puzzle, options, [()], 6)
    assert sum(backend.count_cube(state, cube, None)[0][0] for cube in cubes) == total
    k = cubes[0][0]
    held = backend.count_cube(state, (k,), None)[0][0]
    left = backend.count_cube(state, (-k,), None)[0][0]
    assert held + left == total


def test_a_wide_count_resumed_from_part_of_its_checkpoint_gives_the_full_count(tmp_path):
    """A board of three words (126 cells and a counter of 63 dominoes): the checkpoint of its
    count cut to its first half of cubes, as a killed count leaves it, resumes to the count."""
    puzzle = PackingPuzzle("d9x14", ("X" * 14,) * 9, (Piece("domino", ("XX",), 63),), True)
    assert board_of(encode_cover(exact_cover(puzzle, placements(puzzle)))).words == 3
    checkpoint = tmp_path / "count.jsonl"
    whole = puzzlesat.count(puzzle, modulo="none", jobs=2, checkpoint=str(checkpoint))
    lines = checkpoint.read_text().splitlines(keepends=True)
    assert whole.complete and len(lines) > 3
    checkpoint.write_text("".join(lines[: 1 + (len(lines) - 1) // 2]))
    again = puzzlesat.count(puzzle, modulo="none", jobs=2, checkpoint=str(checkpoint))
    assert again.complete and again.number == whole.number == kasteleyn(9, 14)
    assert checkpoint.read_text().count("\n") > (len(lines) - 1) // 2 + 1


def test_the_options_that_fit_are_kept_as_bits_and_their_fits_counted():
    """The fewest-fits choice keeps the options that fit as bits from one level to the next,
    and each item's fits counted: on a board of three words with a counter of copies, at every
    step they are exactly the options that fit (the copies' options gone once the copies are
    placed), the fits kept per item are their number, and the item chosen is the one with the
    fewest fits."""
    rnd = random.Random(3)
    cells = {(r, c) for r in range(4) for c in range(2, 36)}
    pieces = [Piece(f"P{k}", draw_picture(region))
              for k, region in enumerate(partition(cells, 10, rnd))]
    cells |= {(r, c) for r in range(4) for c in range(2)}
    pieces.append(Piece("domino", ("X", "X"), 4))
    puzzle = PackingPuzzle("alive", draw_picture(cells), tuple(pieces), True)
    model = encode_cover(exact_cover(puzzle, placements(puzzle)))
    board = board_of(model)
    m, n = board.masks, len(board.option)
    [counter] = board.field_of
    assert board.words >= 3
    dominoes = {j for j in range(n) if counter in model.options[board.option[j]]}

    def fitting(state: np.ndarray) -> set[int]:
        return {j for j in range(n) if board.take(state.copy(), j)}

    def kept(alive: np.ndarray, row: int) -> set[int]:
        return {j for j in range(n) if alive[row, j // WORD] >> (j % WORD) & 1}

    def fewest(state: np.ndarray, fits: set[int]) -> int:
        best, most = -1, n + 1
        for u in range(len(board.bit_of)):
            if not state[u // WORD] >> (u % WORD) & 1:
                k = len(fits & set(m.members[m.member_at[u]:m.member_at[u + 1]].tolist()))
                if k < most:
                    best, most = u, k
        return best

    def counted(state: np.ndarray, fits: set[int]) -> list[int]:
        return [len(fits & set(m.members[m.member_at[u]:m.member_at[u + 1]].tolist()))
                for u in range(len(board.bit_of))]

    state = np.zeros(board.words, dtype=np.int64)
    alive = np.zeros((2, -(-n // WORD)), dtype=np.int64)
    kept_fits = np.zeros((2, len(board.bit_of)), dtype=np.int64)  # each item's fits, counted
    kernel = native.kernel("bitboard")  # the C search's own bookkeeping
    kernel.alive_of(m, state, alive, kept_fits, 0, n)
    kernel.fits_of(m, alive, kept_fits, 0)
    assert kept(alive, 0) == fitting(state)
    for step in range(8):
        fits = fitting(state)
        assert kept_fits[0].tolist() == counted(state, fits)
        assert kernel.least(m, state, 0, alive, kept_fits, 0) == fewest(state, fits)
        o = rnd.choice(sorted(fits & dominoes if step < 4 else fits - dominoes))
        assert board.take(state, o)
        kernel.alive_after(m, state, alive, kept_fits, o, 0, 1)
        assert kept(alive, 1) == fitting(state)
        alive[0] = alive[1]
        kept_fits[0] = kept_fits[1]
    assert not kept(alive, 0) & dominoes  # the four copies placed: none of their options fits


def test_a_wrong_argument_to_the_compiled_search_is_a_python_error_not_a_crash():
    """The C kernel (runners/csrc/bitboard.c) checks what it is given: a wrong number of
    arguments, an array of the wrong item size, a read-only array it writes, a strided one, a
    state or stack too small for the board, a memo table of no power of two buckets, a region's
    room too small, an option that is none: each a TypeError, ValueError or IndexError, and the
    search still counts afterwards. Counting a board in a fresh process imports no numba."""
    kernel = native.kernel("bitboard")
    puzzle = PackingPuzzle("wrong", ("XXXX", "XXXX"), (Piece("L", ("X.", "XX")),
                                                       Piece("I", ("XXXX",)),
                                                       Piece("O", ("X",))), True)
    board = board_of(encode_cover(exact_cover(puzzle, placements(puzzle))))
    m = board.masks
    search = Search(board, ())
    state = np.zeros(board.words, dtype=np.int64)

    def run(**changed):
        a = dict(masks=m, scratch=search.scratch, seen=search.seen, state=search.state,
                 var=search.var, nxt=search.nxt, last=search.last, below=search.below,
                 above=search.above, begun=search.begun, listed=search.listed,
                 placed=search.placed, first=search.first, budget=10, record=False,
                 chosen=search.picked, memo=NO_MEMO.table, shared=False,
                 memo_depth=search.memo_depth, tally=search.tally,
                 fewest_levels=search.fewest_levels, smallest=board.smallest,
                 granule=board.granule, reach=board.reach, alive=search.alive,
                 fits=search.fits, pend=search.pend, pend_word=search.pend_word)
        a.update(changed)
        return kernel.search(*a.values())

    read_only = state.copy()
    read_only.flags.writeable = False
    wrong = [
        (TypeError, lambda: kernel.take(m, state)),  # an argument short
        (TypeError, lambda: kernel.take(m, state.astype(np.int32), 0)),
        (TypeError, lambda: kernel.take(m, read_only, 0)),
        (TypeError, lambda: kernel.add(np.zeros(4, np.int64)[::2], np.zeros(2, np.int64), 0, 0,
                                       0)),  # strided
        (TypeError, lambda: kernel.take(m, "state", 0)),
        (TypeError, lambda: kernel.take(m, state, "0")),
        (TypeError, lambda: kernel.take(tuple(m)[:-1], state, 0)),  # not the board's Masks
        (TypeError, lambda: kernel.take(m._replace(window=m.window.astype(np.float32)), state,
                                        0)),
        (ValueError, lambda: kernel.take(m, np.zeros(board.words + 1, np.int64), 0)),
        (IndexError, lambda: kernel.take(m, state, len(board.option))),
        (IndexError, lambda: kernel.take(m, state, -1)),
        (ValueError, lambda: run(nxt=np.zeros(1, np.int64))),
        (ValueError, lambda: run(memo=np.full(3 * (board.words + 3) * 2, -1, np.int64))),
        (ValueError, lambda: run(seen=np.zeros(0, np.int64))),
        (ValueError, lambda: run(granule=0)),
        (ValueError, lambda: run(memo_depth=10 ** 6)),
        (TypeError, lambda: run(budget=None)),
        (ValueError, lambda: kernel.probe(m, search.scratch, search.seen, search.state, 4, 1, 0,
                                          False, 1, 1, 0, state, np.zeros(100, np.int64),
                                          np.zeros(4), search.alive, search.fits)),
        (IndexError, lambda: kernel.add(np.zeros(1, np.int64), np.zeros(1, np.int64), 1, 0, 0)),
        (ValueError, lambda: kernel.rehash(np.zeros(8, np.int64), np.zeros(3, np.int64), 0,
                                           m.zobrist, m.fields, False, 1)),
    ]
    for error, call in wrong:
        with pytest.raises(error):
            call()
    while not search.run(1000):
        pass
    assert search.found == puzzlesat.count(puzzle, backend="reference", modulo="none").number
    code = ("import sys, puzzlesat; puzzlesat.count('iq-block-8', backend='bitboard', "
            "modulo='symmetry', jobs=2); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=600)  # a hang guard, never a measure
    assert out.stdout.split()[-1] == "False"
