"""Challenges: packing puzzles with pieces already placed, in 2D and 3D.

A challenge with one solution and one with several are told apart by a count that stops at the
second solution (`count --limit 2`); full counts agree on several backends; every solution
holds the placed pieces where they are; bad [placed] tables fail at their file, line and field.
"""

from __future__ import annotations

import pytest

import puzzlesat
from puzzlesat.cli import main
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import read_puzzle_text
from puzzlesat.models.packing.plan import symmetry_group

CHALLENGES = {"iq-block-challenge-unique": 1, "iq-block-challenge-several": 5,
              "soma-challenge": 1}  # counted by the backends below (made from our own counts)


@pytest.mark.parametrize("name", list(CHALLENGES))
def test_a_count_up_to_two_tells_unique_from_several(name):
    found = puzzlesat.count(puzzlesat.load(name), "reference", limit=2)
    unique = CHALLENGES[name] == 1
    assert found.details["unique"] is unique
    assert (found.number, found.complete) == ((1, True) if unique else (2, False))


@pytest.mark.parametrize("name", list(CHALLENGES))
@pytest.mark.parametrize("backend", ["reference", "bitboard", "cpsat"])
def test_challenge_counts_agree_and_hold_the_placed_pieces(name, backend):
    puzzle = puzzlesat.load(name)
    assert puzzlesat.count(puzzle, backend, jobs=1).number == CHALLENGES[name]
    for solution in puzzlesat.solutions(puzzle, backend):
        for placed in puzzle.placed:
            assert all(solution.grid[cell] == placed.piece for cell in placed.cells)


def test_a_challenge_keeps_only_the_symmetries_that_keep_its_placed_pieces():
    puzzle = puzzlesat.load("iq-block-challenge-several")
    assert symmetry_group(puzzle).order == 1
    found = puzzlesat.count(puzzle, "cpsat", modulo="symmetry", jobs=1)
    assert (found.number, found.details["solutions"]) == (5, 5)


def test_count_limit_on_the_command_line(capsys):
    assert main(["count", "iq-block-challenge-several", "--limit", "2", "--backend",
                 "reference"]) == 0
    out = capsys.readouterr().out
    assert "at least 2 solutions" in out and "not unique" in out
    assert main(["count", "soma-challenge", "--limit", "2", "--backend", "bitboard"]) == 0
    assert "unique: exactly one solution" in capsys.readouterr().out
    assert main(["count", "soma-challenge", "--limit", "2", "--modulo", "symmetry"]) == 2
    assert "modulo 'none'" in capsys.readouterr().err


CARD = '''kind = "packing"
board = """
XXX
XXX
"""
[pieces]
L = """
XX
X.
"""
J = """
XX
.X
"""
[placed]
L = [[0, 0], [0, 1], [1, 0]]
'''


def test_a_placed_piece_is_read_and_counted():
    puzzle = read_puzzle_text("card.toml", CARD)
    assert [(p.piece, p.cells) for p in puzzle.placed] == [(0, ((0, 0), (0, 1), (1, 0)))]
    assert puzzlesat.count(puzzle, "reference").number == 1  # J fills the rest


@pytest.mark.parametrize("change, field, message", [
    (("L = [[0, 0], [0, 1], [1, 0]]", "Q = [[0, 0], [0, 1], [1, 0]]"), "placed.Q",
     "no piece named 'Q'"),
    (("L = [[0, 0], [0, 1], [1, 0]]", "L = [[0, 0], [0, 1], [0, 2]]"), "placed.L",
     "not piece L in any orientation"),
    (("L = [[0, 0], [0, 1], [1, 0]]", "L = [[1, 1], [1, 2], [2, 1]]"), "placed.L",
     "not on the board"),
    (("L = [[0, 0], [0, 1], [1, 0]]", "L = [[0, 0], [0, 1], [1, 0]]\nJ = [[0, 0], [0, 1], "
      "[1, 1]]"), "placed.J", "covered by L too"),
    (("L = [[0, 0], [0, 1], [1, 0]]", "L = [[0, 0, 0], [0, 1, 0], [1, 0, 0]]"), "placed.L",
     "[row, column]"),
])
def test_bad_placed_pieces_name_file_line_and_field(change, field, message):
    text = CARD.replace(*change)
    with pytest.raises(InputError) as caught:
        read_puzzle_text("card.toml", text)
    error = caught.value
    line = next(i for i, row in enumerate(text.splitlines(), 1)
                if row.startswith(field.split(".")[1] + " = [["))
    assert (error.file, error.line, error.field) == ("card.toml", line, field), error
    assert message in error.message
