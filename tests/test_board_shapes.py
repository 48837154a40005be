"""Counting on every board shape: margins before or after the board, boards with no symmetry.

Regression tests for two defects that gave wrong answers looking right:
1. a board drawn with an empty margin before it lost its symmetries (four or eight times too
   many classes), in the models and, independently, in the reference solver;
2. a board whose only symmetry is the identity reported no number of classes (null).
"""

from __future__ import annotations

import pytest
from _counting import count_packing, reference_grids

from puzzlesat.backends import reference_packing
from puzzlesat.models.geometry import board_symmetries, picture_cells
from puzzlesat.models.packing import PackingPuzzle, Piece
from puzzlesat.models.packing.plan import count_plan, symmetry_group


def puzzle(board: list[str], pieces: dict[str, list[str]], flip: bool = True) -> PackingPuzzle:
    return PackingPuzzle(
        "test", tuple(board), tuple(Piece(n, tuple(p)) for n, p in pieces.items()), flip
    )


# four tetrominoes on a 4x4 square (square_puzzle): 240 solutions, 30 classes under 8 symmetries

SQUARE = ["XXXX"] * 4
MARGINS = {
    "none": SQUARE,
    "left": [".XXXX"] * 4,
    "top": ["...."] + SQUARE,
    "top and left": ["....."] + [".XXXX"] * 4,
    "two left, right": ["..XXXX."] * 4,
    "right": ["XXXX."] * 4,
    "bottom": [*SQUARE, "...."],
}


def square_puzzle(board: list[str]) -> PackingPuzzle:
    pieces = {"A": ["X.", "X.", "XX"], "B": ["X.", "X.", "XX"], "C": ["XX", "X.", "X."],
              "D": ["XXX", "X.."]}
    return puzzle(board, pieces)


@pytest.mark.parametrize("margin", list(MARGINS))
def test_a_margin_keeps_the_board_symmetries_in_the_models(margin):
    board = MARGINS[margin]
    assert len(board_symmetries(picture_cells(board), flip=True)) == 8
    assert len(board_symmetries(picture_cells(board), flip=False)) == 4
    found = square_puzzle(board)
    assert symmetry_group(found).order == 8
    solutions, classes, plan = count_packing(found, "symmetry")
    assert (solutions, classes) == (240, 30)
    assert plan.group.to_json()["order"] == 8


@pytest.mark.parametrize("margin", list(MARGINS))
def test_a_margin_keeps_the_board_symmetries_in_the_reference(margin):
    found = square_puzzle(MARGINS[margin])
    board, grids = reference_grids(found)
    assert len(board.symmetries) == 8  # was 2 with a leading margin (largest index + 1)
    assert len(grids) == 240
    assert len({reference_packing.canonical(board, g) for g in grids}) == 30


def test_a_margin_on_a_rectangle_keeps_its_four_symmetries():
    board = ["......", ".XXXX.", ".XXXX.", "......"]
    found = puzzle(board, {"I": ["XXXX"], "J": ["XXXX"]})
    assert symmetry_group(found).order == 4
    assert len(reference_packing.model(found, group="symmetry").board.symmetries) == 4
    solutions, classes, _ = count_packing(found, "symmetry")
    assert (solutions, classes) == (2, 1)  # I above J, or J above I: one class


# a 3x3 square missing two cells of its last row: no symmetry but the identity
NO_SYMMETRY = ["XXX", "XXX", "X.."]


@pytest.mark.parametrize(
    "pieces, flip, expected",
    [
        ({"V": ["XX", "X."], "L": ["X.", "X.", "XX"]}, True, 2),
        ({"V": ["XX", "X."], "J": [".X", ".X", "XX"]}, False, 2),
        ({"I": ["XXX"], "O": ["XX", "XX"]}, False, 1),
    ],
)
def test_a_board_with_only_the_identity_counts_its_classes(pieces, flip, expected):
    found = puzzle(NO_SYMMETRY, pieces, flip)
    plan = count_plan(found, "symmetry")
    assert plan.group.to_json() == {"order": 1, "elements": ["identity"]}
    solutions, classes, _ = count_packing(found, "symmetry")
    assert classes is not None  # was null with complete = true
    assert solutions == classes == expected
    board, grids = reference_grids(found)
    assert len(board.symmetries) == 1
    assert len(grids) == len({reference_packing.canonical(board, g) for g in grids}) == expected


def test_counting_without_symmetry_gives_no_classes():
    solutions, classes, plan = count_packing(square_puzzle(SQUARE), "none")
    assert (solutions, classes) == (240, None)
    assert plan.group.order == 1
