"""Cards for puzzle makers: the least cards found are those a brute force over every placement
finds (its own placements, solutions and symmetries, written here), generated booklet cards
count one solution on two backends, audits count each card, bad input is one line and exit 2.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat import cards as cards_module
from puzzlesat.booklet import make_booklet, search_nodes
from puzzlesat.cards import minimal_cards
from puzzlesat.models.errors import InputError
from puzzlesat.models.packing import CellPiece, CellPuzzle, PackingPuzzle, Piece

# ---------------------------------------------------------------- small puzzles

PTVW = PackingPuzzle(  # 8 solutions; no card of one piece is unique, 32 of two are
    "ptvw-4x5", ("XXXXX",) * 4,
    (Piece("P", ("XX", "XX", "X.")), Piece("T", ("XXX", ".X.", ".X.")),
     Piece("V", ("X..", "X..", "XXX")), Piece("W", ("X..", "XX.", ".XX"))))
TETRACUBES = {"O": [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)],
              "L": [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0)],
              "A": [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 1)],
              "B": [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 1, 0)]}
OLAB = CellPuzzle(  # A and B are mirror twins: a mirror of the box swaps them
    "olab-2x2x4", board=tuple((a, b, c) for a in range(2) for b in range(2) for c in range(4)),
    pieces=tuple(CellPiece(n, tuple(sorted(cells))) for n, cells in TETRACUBES.items()),
    flip=False, lattice_name="cubic")


def small_puzzles():
    return {"ptvw": PTVW, "ptvw-one-sided": dataclasses.replace(PTVW, flip=False),
            "olab": OLAB, "iq-block-8": puzzlesat.load("iq-block-8"),
            "iq-block-challenge-several": puzzlesat.load("iq-block-challenge-several")}


SLOW = {"iq-block-challenge-several"}  # its brute force tries 10^6 pairs: 80 s


# ---------------------------------------------------------------- the brute force, our own


def _normal(cells):
    low = [min(axis) for axis in zip(*cells)]
    return tuple(sorted(tuple(x - m for x, m in zip(cell, low)) for cell in cells))


def _turns(dimensions: int, mirrors: bool):
    """Every signed permutation matrix (rotations, and mirror images where asked) as a map."""
    found = []
    for axes in itertools.permutations(range(dimensions)):
        for signs in itertools.product((1, -1), repeat=dimensions):
            matrix = np.zeros((dimensions, dimensions), dtype=int)
            for row, (axis, sign) in enumerate(zip(axes, signs)):
                matrix[row, axis] = sign
            if round(np.linalg.det(matrix)) == 1 or mirrors:
                found.append(matrix)
    return found


def _shapes(cells, flip: bool, dimensions: int):
    return {_normal([tuple(int(x) for x in m @ np.array(c)) for c in cells])
            for m in _turns(dimensions, flip and dimensions == 2)}


def brute_cards(puzzle: PackingPuzzle):
    """(least, the unique cards of that many pieces as frozensets of (piece, cells), classes)
    by trying every set of placements on the board."""
    board = sorted(puzzle.board_cells)
    on_board = set(board)
    dimensions = len(board[0])
    shapes = [_shapes(p.cells, puzzle.flip, dimensions) for p in puzzle.pieces]
    held = {p.piece: frozenset(p.cells) for p in puzzle.placed}
    options = []
    for piece, orientations in enumerate(shapes):
        for shape in orientations:
            for at in board:
                cells = frozenset(tuple(a + x for a, x in zip(at, c)) for c in shape)
                if cells <= on_board and (piece not in held or held[piece] == cells):
                    options.append((piece, cells))
    options = sorted(set(options), key=lambda o: (o[0], sorted(o[1])))
    solutions = []
    by_cell = {cell: [o for o in options if cell in o[1]] for cell in board}

    def fill(used: frozenset, covered: frozenset, chosen: list) -> None:
        empty = next((c for c in board if c not in covered), None)
        if empty is None:
            solutions.append(frozenset(chosen))
            return
        for piece, cells in by_cell[empty]:
            if piece not in used and not cells & covered:
                fill(used | {piece}, covered | cells, chosen + [(piece, cells)])

    fill(frozenset(), frozenset(), [])
    free = [o for o in options if o[0] not in held]
    for k in range(len(puzzle.pieces) + 1):
        unique = set()
        for combo in itertools.combinations(free, k):
            pieces = [o[0] for o in combo]
            if len(set(pieces)) < k or any(a[1] & b[1] for a, b in itertools.combinations(
                    combo, 2)):
                continue
            if sum(set(combo) <= s for s in solutions) == 1:
                unique.add(frozenset(combo))
        if unique:
            return k, unique, len(solutions), _classes(puzzle, unique, shapes, on_board)
    return None, set(), len(solutions), 0


def _classes(puzzle, cards, shapes, on_board) -> int:
    """Classes of cards under the board's symmetries, each a signed permutation about the
    board's centre; a mirror gives a piece the place of the piece of the mirrored shape."""
    dimensions = len(next(iter(on_board)))
    low = [min(axis) for axis in zip(*on_board)]
    high = [max(axis) for axis in zip(*on_board)]
    twins_exist = all(any(_shapes([tuple(-x if i == 0 else x for i, x in enumerate(c))
                                   for c in p.cells], False, dimensions) & s
                          for s in shapes) for p in puzzle.pieces)
    maps = []
    for matrix in _turns(dimensions, True):
        mirrored = round(np.linalg.det(matrix)) == -1
        if mirrored and not (puzzle.flip or twins_exist):
            continue

        def move(cell, matrix=matrix):
            centred = np.array(cell) * 2 - np.array(low) - np.array(high)
            return tuple(int((y + a + b) // 2) for y, a, b in zip(matrix @ centred, low, high))

        if {move(c) for c in on_board} != on_board:
            continue
        maps.append(move)

    def image(placement, move):
        cells = frozenset(move(c) for c in placement[1])
        owner = [i for i, s in enumerate(shapes) if _normal(cells) in s]
        return (owner[0] if len(owner) == 1 else placement[0]), cells

    held = {(p.piece, frozenset(p.cells)) for p in puzzle.placed}
    maps = [m for m in maps if {image(h, m) for h in held} == held]
    seen, classes = set(), 0
    for card in cards:
        if card in seen:
            continue
        classes += 1
        seen |= {frozenset(image(o, m) for o in card) for m in maps}
    return classes


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in small_puzzles()])
def test_the_least_cards_are_those_a_brute_force_finds(name):
    puzzle = small_puzzles()[name]
    found = minimal_cards(puzzle, "reference", checks=0)
    least, unique, solutions, classes = brute_cards(puzzle)
    assert (found.solutions, found.least, found.labelled, found.classes) == (
        solutions, least, len(unique), classes)
    assert sum(card.orbit for card in found.cards) == found.labelled
    for card in found.cards:  # each class's card is one the brute force found unique
        assert frozenset((p.piece, frozenset(p.cells)) for p in card.placed) in unique
        assert all(card.solution[c] == p.piece for p in card.placed for c in p.cells)


def test_the_checks_pass_and_can_fail(monkeypatch):
    found = minimal_cards(PTVW, "reference", checks=4, per_solution=True)
    assert (found.least, found.labelled, found.classes) == (2, 32, 8)
    assert found.per_solution == {2: 8}
    assert len(found.checks) == 3 and "Hitman" in found.checks[1]
    real = cards_module.held_once

    def one_card_lost(rows, k, base):  # the counting loses a card: Hitman sees it
        sets, owners = real(rows, k, base)
        return sets[1:], owners[1:]

    monkeypatch.setattr(cards_module, "held_once", one_card_lost)
    with pytest.raises(ArithmeticError, match="Burnside"):  # the classes no longer add up
        minimal_cards(PTVW, "reference", checks=40)

    def one_class_lost(rows, k, base):  # a whole class lost: the classes add up, Hitman sees
        sets, owners = real(rows, k, base)
        if not len(sets):
            return sets, owners
        _, maps = cards_module.placement_maps(PTVW, cards_module.placements(PTVW))
        klass, _ = cards_module.card_classes(sets, maps, base)
        return sets[klass != 0], owners[klass != 0]

    monkeypatch.setattr(cards_module, "held_once", one_class_lost)
    with pytest.raises(ArithmeticError, match="Hitman"):
        minimal_cards(PTVW, "reference", checks=40)


def test_hitting_sets_agree_with_counting_per_solution():
    listing = cards_module.list_solutions(puzzlesat.load("iq-block-8"), "reference")
    each = cards_module.least_per_solution(listing.rows, len(listing.options))
    for row in range(0, len(listing.rows), 5):
        least, found = cards_module.hitting_sets(listing.rows, row)
        assert least == each[row]
        assert all(len(listing.holders(card)) == 1 for card in found)


def test_a_puzzle_with_one_solution_needs_no_piece_and_copies_are_refused():
    one = PackingPuzzle("one", ("XX", "X."), (Piece("a", ("XX", "X.")),))
    found = minimal_cards(one, "reference", checks=0)
    assert (found.solutions, found.least, found.labelled, found.classes) == (1, 0, 1, 1)
    assert found.cards[0].placed == ()
    with pytest.raises(InputError, match="copies"):
        minimal_cards("domino-8x8", checks=0)


# ---------------------------------------------------------------- booklets and audits


def test_search_nodes_counts_forced_steps_once():
    solutions, nodes = search_nodes(puzzlesat.load("iq-block-challenge-unique"))
    assert solutions == 1 and nodes >= 5  # five pieces left, each at least one node
    assert search_nodes(puzzlesat.load("iq-block-challenge-several"))[0] == 5


def test_a_booklet_is_graded_unique_and_printed(tmp_path):
    from puzzlesat.models.packing.booklet import booklet_text, read_booklet
    from puzzlesat.pictures.booklet import write_booklet

    puzzle = puzzlesat.load("iq-block-8")
    made = make_booklet(puzzle, 3, check_backends=("reference",))
    assert [c.nodes for c in made.cards] == sorted(c.nodes for c in made.cards)
    for card in made.cards:  # each counted here on two backends
        challenge = dataclasses.replace(puzzle, placed=card.placed)
        for backend in ("cpsat", "bitboard"):
            assert puzzlesat.count(challenge, backend, jobs=1).number == 1
    text = booklet_text("iq-block-8", made.booklet().cards, [p.name for p in puzzle.pieces])
    written = write_booklet(puzzle, made.cards, str(tmp_path), text, "IQ Block")
    names = {path.rsplit("/", 1)[1] for path in written}
    assert {"booklet.toml", "cards-1.svg", "solutions-1.svg", "card-1.html"} <= names
    ET.parse(tmp_path / "cards-1.svg")
    if "booklet.pdf" in names:  # cairosvg installed: one page of cards, one of solutions
        pages = len(re.findall(rb"/Type /Page\b", (tmp_path / "booklet.pdf").read_bytes()))
        assert pages == 2
    again = read_booklet(str(tmp_path / "booklet.toml"))
    assert [c.placed for c in again.cards] == [c.placed for c in made.cards]
    audited = puzzlesat.audit(str(tmp_path / "booklet.toml"))
    assert audited.unique == 3
    assert [c.nodes for c in audited.cards] == [c.nodes for c in made.cards]


def test_a_booklet_pdf_is_the_same_bytes_each_time_and_dated_only_when_asked(tmp_path,
                                                                           monkeypatch):
    """Regression: cairo stamped the present as the PDF's creation date, so `puzzlesat
    results` rewrote the committed booklet on every run; SOURCE_DATE_EPOCH dates it."""
    pytest.importorskip("cairosvg", reason="PDF pages need the 'plots' extra (cairosvg)")
    from puzzlesat.pictures.booklet import PAGE, write_pdf
    from puzzlesat.pictures.svg import Svg

    page = Svg(*PAGE, "a page")
    page.text(48, 48, "Card 1", size=16, anchor="start")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first, second = tmp_path / "1.pdf", tmp_path / "2.pdf"
    write_pdf([page], str(first), "IQ Block")
    write_pdf([page], str(second), "IQ Block")
    assert b"/CreationDate" not in first.read_bytes()
    assert first.read_bytes() == second.read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    write_pdf([page], str(first), "IQ Block")
    assert re.search(rb"/CreationDate \((D:)?20231114221320", first.read_bytes())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(InputError, match="SOURCE_DATE_EPOCH|whole number of seconds"):
        write_pdf([page], str(first), "IQ Block")


def test_no_more_cards_than_classes_of_solutions():
    with pytest.raises(InputError, match="at most 2 cards"):
        make_booklet("pentomino-3x20", 3)


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesat.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


def one_line(result: subprocess.CompletedProcess, *needles: str) -> str:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_bad_requests_are_one_line(tmp_path):
    one_line(run("booklet", "pentomino-3x20", "-n", "3", "-o", str(tmp_path / "b")),
             "at most 2 cards", "--cards")
    overlap = tmp_path / "overlap.toml"
    overlap.write_text('puzzle = "iq-block-8"\n\n[card.1.placed]\n'
                       "A1 = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 3], [2, 0], [2, 3]]\n"
                       "A2 = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 1], [2, 2], [3, 1], [3, 2]]\n")
    one_line(run("audit", str(overlap)), "overlap.toml:5:", "card.1.placed.A2",
             "covered by A1 too")
    nowhere = tmp_path / "nowhere.toml"
    nowhere.write_text('puzzle = "no-such-puzzle"\n[card.1.placed]\n')
    one_line(run("audit", str(nowhere)), "nowhere.toml:1: puzzle:", "no-such-puzzle")
    one_line(run("cards", "diamond-blocks"), "packing puzzles")
    one_line(run("cards", "iq-block-8", "--check-backend", "nosuch"), "--check-backend",
             "nosuch")
    one_line(run("cards", "iq-block-8", "--checks", "-1"), "--checks")


def test_the_commands_answer(tmp_path):
    out = tmp_path / "cards.toml"
    result = run("cards", "pentomino-3x20", "--checks", "1", "-o", str(out), "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert (found["solutions"], found["least"], found["labelled"], found["classes"]) == (
        8, 1, 48, 12)
    result = run("audit", str(out), "iq-block-challenge-several")
    assert result.returncode == 0, result.stderr
    assert "12 cards of pentomino-3x20; 12 unique" in result.stdout
    assert "not unique: 5 solutions" in result.stdout


# ---------------------------------------------------------------- the counting, any shape


@st.composite
def solution_rows(draw):
    """Rows of distinct ascending placement indices, as a listing holds them."""
    base = draw(st.integers(4, 40))
    width = draw(st.integers(1, min(6, base)))
    rows = draw(st.lists(st.lists(st.integers(0, base - 1), min_size=width, max_size=width,
                                  unique=True).map(sorted), min_size=1, max_size=25))
    return np.array(rows, dtype=np.int64), base


@settings(max_examples=60, deadline=None)
@given(solution_rows(), st.integers(0, 6), st.sampled_from([3, 50, 10**6]))
def test_sets_held_once_are_those_a_counter_finds(found, k, most):
    rows, base = found
    k = min(k, rows.shape[1])
    original = cards_module.MAX_SETS
    cards_module.MAX_SETS = most  # a few sets a pass: many passes
    try:
        sets, owners = cards_module.held_once(rows, k, base)
        holding = cards_module.holding_once(rows, k, base)
    finally:
        cards_module.MAX_SETS = original
    counted: dict[tuple, list[int]] = {}
    for r, row in enumerate(rows.tolist()):
        for combo in set(itertools.combinations(row, k)):
            counted.setdefault(combo, []).append(r)
    once = {combo: r[0] for combo, r in counted.items() if len(r) == 1}
    assert {tuple(s): int(o) for s, o in zip(sets.tolist(), owners.tolist())} == once
    assert len(sets) == len(once)
    assert set(np.flatnonzero(holding).tolist()) == set(once.values())
