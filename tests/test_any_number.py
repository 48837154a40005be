"""Pieces in any number (issue 43, item 3): `count = [MIN, MAX]`, `count = "any"` and a
top-level `count` for every piece.

- Small random boards on every lattice, random pieces and counts: every backend that takes
  ranges (the compiled search, CP-SAT, a SAT solver on the CNF, the reference) counts the same
  solutions and the same classes (hypothesis).
- Larger boards: the compiled search's two fill orders (the first empty cell, the fewest
  fits) agree, and a count past 2^63 is exact: the domino tilings of rectangles, checked
  against Kasteleyn's product formula (written here, sharing nothing with the search).
- Bad input: one line, exit 2.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat.models.geometry import LATTICES

BACKENDS = ("bitboard", "cpsat", "pysat:cadical195", "reference")
EXAMPLES = 25  # four backends twice each: about 20 s


def board_cells(lattice: str, size: int, rnd: random.Random) -> list[tuple[int, ...]]:
    """A connected board of `size` cells of the lattice, grown from one cell at random."""
    grid = LATTICES[lattice]
    start = tuple([4] * grid.dimensions) if lattice != "triangular" else (4, 4)
    cells = {start}
    while len(cells) < size:
        border = sorted({n for c in cells for n in grid.adjacent(c)} - cells)
        cells.add(rnd.choice(border))
    return sorted(grid.normalise(cells))


def toml_of(lattice: str, cells, orders: list[int], default: str, counts: dict[str, str],
            pieces: dict[str, str]) -> str:
    lines = ['kind = "packing"', f'lattice = "{lattice}"', f"polyforms = {orders}"]
    if default:
        lines.append(f"count = {default}")
    lines.append("board = " + str([list(c) for c in cells]))
    lines.append("[pieces]")
    for name, picture in pieces.items():
        count = f", count = {counts[name]}" if name in counts else ""
        lines.append(f"{name} = {{ picture = {picture}{count} }}")
    return "\n".join(lines) + "\n"


COUNTS = st.sampled_from(['"any"', "[0, 2]", "[1, 3]", "[0, 1]", "[1, 1]", "[0, 9]"])


@st.composite
def any_number_puzzles(draw):
    lattice = draw(st.sampled_from(["square", "triangular", "hexagonal", "cubic"]))
    size = draw(st.integers(4, 9 if lattice != "cubic" else 7))
    cells = board_cells(lattice, size, random.Random(draw(st.integers(0, 10 ** 6))))
    orders = [1, 2] if draw(st.booleans()) else [2, 3]
    default = draw(st.one_of(st.just(""), COUNTS))
    # a piece of its own beside the generated ones: cells of a straight line, with a count
    extra = draw(st.booleans())
    pieces, counts = {}, {}
    if extra:
        line = [list(c) for c in sorted(LATTICES[lattice].normalise(
            board_cells(lattice, 2, random.Random(1))))]
        pieces["Q"] = str(line)
        counts["Q"] = draw(COUNTS)
    if not default and not extra:
        default = '"any"'
    return toml_of(lattice, cells, orders, default, counts, pieces)


def load(tmp_path, text: str, name: str = "board"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return puzzlesat.load(path)


@settings(deadline=None, derandomize=True, max_examples=EXAMPLES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(any_number_puzzles())
def test_every_backend_counts_pieces_in_any_number_alike(tmp_path, text):
    try:
        puzzle = load(tmp_path, text)
    except puzzlesat.InputError as error:  # e.g. the pieces can never fill this board
        assert "cells but the board has" in str(error) or "no pieces" in str(error), error
        return
    found = {}
    for backend in BACKENDS:
        plain = puzzlesat.count(puzzle, backend=backend, modulo="none", jobs=1)
        reduced = puzzlesat.count(puzzle, backend=backend, modulo="symmetry", jobs=1)
        assert plain.complete and reduced.complete
        assert reduced.details["solutions"] == plain.number, (backend, text)
        found[backend] = (plain.number, reduced.number)
    assert len(set(found.values())) == 1, (found, text)


def test_a_range_is_honoured_on_a_strip(tmp_path):
    """1x6 strip, monominoes [0, 2] and dominoes "any": the tilings with at most two monominoes,
    counted here by hand: C(6-k, k) ways with k dominoes and 6-2k monominoes; k = 2 (2
    monominoes): 6, k = 3: 1."""
    text = ('kind = "packing"\nboard = "XXXXXX"\n[pieces]\n'
            'mono = { picture = "X", count = [0, 2] }\n'
            'domino = { picture = "XX", count = "any" }\n')
    puzzle = load(tmp_path, text)
    expected = math.comb(4, 2) + math.comb(3, 3)
    for backend in BACKENDS:
        assert puzzlesat.count(puzzle, backend=backend, jobs=1).number == expected, backend
    at_least = text.replace("[0, 2]", "[2, 6]")  # at least two monominoes: k = 0, 1, 2
    puzzle = load(tmp_path, at_least, "least")
    expected = 1 + math.comb(5, 1) + math.comb(4, 2)
    for backend in BACKENDS:
        assert puzzlesat.count(puzzle, backend=backend, jobs=1).number == expected, backend


def kasteleyn(m: int, n: int) -> float:
    """The domino tilings of an m x n rectangle by Kasteleyn's product formula (1961), in
    floating point: the product over j <= ceil(m/2), k <= ceil(n/2) of
    4 cos^2(pi j/(m+1)) + 4 cos^2(pi k/(n+1))."""
    product = 1.0
    for j in range(1, math.ceil(m / 2) + 1):
        for k in range(1, math.ceil(n / 2) + 1):
            product *= 4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(
                math.pi * k / (n + 1)) ** 2
    return product


def _spread(m: int, mask: int, row: int, into: int, count: int, nxt: dict[int, int]) -> None:
    """Fill the column's free rows from `row` on (a vertical domino or one sticking into the
    next column, `into`), adding `count` to each next column's state."""
    if row >= m:
        nxt[into] = nxt.get(into, 0) + count
        return
    if mask >> row & 1:
        _spread(m, mask, row + 1, into, count, nxt)
        return
    _spread(m, mask, row + 1, into | 1 << row, count, nxt)  # a horizontal domino
    if row + 1 < m and not mask >> (row + 1) & 1:
        _spread(m, mask, row + 2, into, count, nxt)  # a vertical domino


def matchings(m: int, n: int) -> int:
    """Domino tilings of m rows x n columns by a column-by-column transfer over the rows a
    column's horizontal dominoes stick into the next (exact, Python integers)."""
    ways = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for mask, count in ways.items():
            _spread(m, mask, 0, 0, count, nxt)
        ways = nxt
    return ways.get(0, 0)


def domino_board(m: int, n: int) -> str:
    rows = "\n".join("X" * n for _ in range(m))
    return f'kind = "packing"\ncount = "any"\nboard = """\n{rows}\n"""\n[pieces]\nd = "XX"\n'


def test_kasteleyn_and_the_transfer_count_agree_on_small_rectangles():
    """The two independent figures the large test rests on agree where floats are exact."""
    for m, n in ((2, 2), (2, 3), (4, 4), (6, 6), (8, 8), (6, 9)):
        assert round(kasteleyn(m, n)) == matchings(m, n), (m, n)
    assert matchings(8, 8) == 12_988_816  # Kasteleyn (1961), Temperley and Fisher (1961)


def test_a_count_past_2_to_the_63_is_exact(tmp_path):
    """Dominoes in any number on 14 x 14: about 1e23 tilings, past 2^63, counted exactly by the
    compiled search (its two fill orders) and checked against the transfer count, whose size
    Kasteleyn's formula confirms."""
    puzzle = load(tmp_path, domino_board(14, 14))
    exact = matchings(14, 14)
    assert exact > 2 ** 63
    assert abs(kasteleyn(14, 14) - exact) < exact * 1e-9
    for backend in ("bitboard", "bitboard:fewest"):
        assert puzzlesat.count(puzzle, backend=backend, jobs=1).number == exact, backend


def test_two_fill_orders_agree_on_a_larger_board(tmp_path):
    """Monominoes, dominoes and trominoes in any number on a 5 x 6 board: the first-empty-cell
    search and the fewest-fits search, and the memo taken by default or always, count the
    same (about 1e10 tilings: the plain search, leaf by leaf, would take hours)."""
    text = ('kind = "packing"\ncount = "any"\npolyforms = [1, 2, 3]\nboard = """\n'
            + "XXXXXX\n" * 5 + '"""\n')
    puzzle = load(tmp_path, text)
    counts = {b: puzzlesat.count(puzzle, backend=b, jobs=1).number
              for b in ("bitboard", "bitboard:fewest", "bitboard:memo")}
    assert len(set(counts.values())) == 1, counts


def test_a_piece_in_a_range_in_counted_cubes_agrees_with_the_reference(tmp_path):
    """A count split into many cubes (two workers) keeps a range's least: pentominoes any
    number with the X pentomino at least once, on a 5 x 6."""
    text = ('kind = "packing"\ncount = "any"\npolyforms = [5]\nboard = """\n'
            + "XXXXXX\n" * 5 + '"""\n[pieces]\nplus = { picture = """\n.X.\nXXX\n.X.\n""", '
            'count = [1, 2] }\n')
    puzzle = load(tmp_path, text)
    counts = {b: puzzlesat.count(puzzle, backend=b, jobs=1).number for b in BACKENDS}
    assert len(set(counts.values())) == 1, counts


BAD = [
    ('count = [3, 1]', "MIN <= MAX"),
    ('count = -1', "must be 1 or more"),
    ('count = [-1, 2]', "MIN <= MAX"),
    ('count = "some"', '"any"'),
    ('count = [1, 2, 3]', "two whole numbers"),
    ('count = 0', "must be 1 or more"),
    ('count = true', "expected int or list or str, got bool"),  # was read as 1
]


@pytest.mark.parametrize("field, words", BAD)
def test_bad_counts_get_one_line_and_exit_2(tmp_path, field, words):
    path = tmp_path / "bad.toml"
    path.write_text(f'kind = "packing"\n{field}\nboard = "XXXX"\n[pieces]\nd = "XX"\n')
    done = subprocess.run([sys.executable, "-m", "puzzlesat", "count", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "bad.toml" in lines[0], done.stderr


def test_any_with_a_backend_that_cannot_take_it_gets_one_line(tmp_path):
    path = tmp_path / "any.toml"
    path.write_text(domino_board(2, 4))
    done = subprocess.run([sys.executable, "-m", "puzzlesat", "count", str(path),
                           "--backend", "xcover"], capture_output=True, text=True, timeout=120)
    if "xcover" not in done.stderr:
        pytest.skip("xcover is not installed")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "any number" in lines[0], done.stderr
    assert "a model counter (mc:...)" in lines[0]  # the backends that take it, counters too


@pytest.mark.parametrize("count", ['"any"', "[1, 4]", "4"])
def test_a_dlx_export_of_copies_or_ranges_is_refused_in_one_line(tmp_path, capsys, count):
    """Knuth's DLX1 covers each item once: a piece in copies or in any number was written as
    one item, a file whose exact covers are not the puzzle's (regression)."""
    from puzzlesat.cli import main

    path = tmp_path / "copies.toml"
    path.write_text(domino_board(2, 4).replace('"any"', count))
    assert main(["export", str(path), "--format", "dlx", "-o", str(tmp_path / "x.dlx")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "DLX1 covers each item once" in lines[0], lines
    assert not (tmp_path / "x.dlx").exists()
    assert main(["export", str(path), "--format", "dimacs", "-o", str(tmp_path / "x.cnf")]) == 0


def test_the_pieces_can_never_fill_the_board(tmp_path):
    text = 'kind = "packing"\nboard = "XXXXX"\n[pieces]\nd = { picture = "XX", count = [0, 1] }\n'
    with pytest.raises(puzzlesat.InputError, match="cover 0 to 2 cells but the board has 5"):
        load(tmp_path, text)


# ---------------------------------------------------------------- an independent profile count


def turns_of(cells: list[tuple[int, int]]) -> set[tuple[tuple[int, int], ...]]:
    """A free polyomino's orientations, each as offsets from its first cell in reading order."""
    found = set()
    for mirror in (False, True):
        shape = [(r, -c) if mirror else (r, c) for r, c in cells]
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            r0 = min(r for r, _ in shape)
            c0 = min(c for r, c in shape if r == r0)
            found.add(tuple(sorted((r - r0, c - c0) for r, c in shape)))
    return found


def profile_count(height: int, width: int, shapes: list[list[tuple[int, int]]]) -> int:
    """Tilings of a height x width rectangle by the free polyominoes `shapes`, any number of
    each: plain Python, the first empty cell in reading order filled by every orientation that
    fits, the count of each set of covered cells kept (a profile dynamic programme)."""
    offsets = sorted({o for s in shapes for o in turns_of(s)})
    full = (1 << height * width) - 1
    memo: dict[int, int] = {full: 1}
    stack = [0]
    while stack:  # iterative: a 108-cell board would pass the recursion limit
        mask = stack[-1]
        first = (~mask & (mask + 1)).bit_length() - 1
        r, c = divmod(first, width)
        nexts = []
        for shape in offsets:
            bits = 0
            for dr, dc in shape:
                rr, cc = r + dr, c + dc
                if not (0 <= rr < height and 0 <= cc < width) or mask >> (rr * width + cc) & 1:
                    break
                bits |= 1 << (rr * width + cc)
            else:
                nexts.append(mask | bits)
        todo = [n for n in nexts if n not in memo]
        if todo:
            stack.extend(todo)
            continue
        memo[mask] = sum(memo[n] for n in nexts)
        stack.pop()
    return memo[0]


TROMINOES = [[(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (1, 1)]]
UP_TO_TROMINOES = [[(0, 0)], [(0, 0), (0, 1)], *TROMINOES]
PENTOMINOES = [
    [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)], [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
    [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)], [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
    [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)], [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
    [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)], [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)], [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
    [(0, 1), (1, 0), (1, 1), (1, 2), (1, 3)], [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]]


def test_the_compiled_search_agrees_with_a_profile_count_on_a_6x6(tmp_path):
    text = ('kind = "packing"\ncount = "any"\npolyforms = [1, 2, 3]\nboard = """\n'
            + "XXXXXX\n" * 6 + '"""\n')
    puzzle = load(tmp_path, text)
    assert puzzlesat.count(puzzle, backend="bitboard", jobs=1).number == profile_count(
        6, 6, UP_TO_TROMINOES)


@pytest.mark.slow
@pytest.mark.parametrize("name, height, width, shapes", [
    ("pentominoes-any-6x10", 10, 6, PENTOMINOES),  # about 20 s of plain Python
    ("mono-dom-trom-8x8", 8, 8, UP_TO_TROMINOES),
    ("trominoes-9x12", 12, 9, TROMINOES),
])
def test_the_catalog_tilings_agree_with_a_profile_count(name, height, width, shapes):
    """The catalog's counts (past 2^63 on the 8x8) by the compiled search, with two threads,
    and by the profile count written here (the rectangle filled along its other side)."""
    counted = puzzlesat.count(name, backend="bitboard", jobs=2)
    assert counted.complete and counted.number == profile_count(height, width, shapes)


def test_two_word_counts_carry_and_overflow_is_detected_not_wrapped():
    """The compiled search's counts: the low word carries into the high one; a high word past
    its 62 bits is reported (the search then stops and says so), never wrapped."""
    import numpy as np

    from puzzlesat import native
    from puzzlesat.backends import bitboard

    add = native.kernel("bitboard").add  # the C kernel's own carry (runners/csrc/bitboard.c)
    below, above = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    low = (1 << bitboard.LIMB) - 1
    assert not add(below, above, 0, low, 0)
    assert not add(below, above, 0, 1, 0)
    assert (int(below[0]), int(above[0])) == (0, 1)  # 2^62 exactly
    assert not add(below, above, 0, low, low - 1)
    assert int(below[0]) + (int(above[0]) << bitboard.LIMB) == 2 ** 124 - 1
    assert add(below, above, 0, 1, 0)  # 2^124: past the two words


def test_a_challenge_or_a_card_refuses_a_piece_in_any_number(tmp_path):
    text = ('kind = "packing"\nboard = "XXX"\n[pieces]\nm = { picture = "X", count = [0, 1] }\n'
            'd = "XX"\n[placed]\nm = [[0, 0]]\n')
    with pytest.raises(puzzlesat.InputError, match="comes in any number"):
        load(tmp_path, text)
    puzzle = load(tmp_path, text.split("[placed]")[0], "plain")
    with pytest.raises(puzzlesat.InputError, match="comes in any number"):
        puzzlesat.minimal_cards(puzzle)
