"""Inputs far beyond what could finish are refused up front, naming the limit (models/limits.py).

A 200x200 board of 40,000 monominoes once used 2.5 GB and printed nothing for a minute; the
reader itself took minutes on it (every piece's line was looked up by reading the whole file
again). Now it is read in about a second and refused before any model is built.
"""

from __future__ import annotations

import random

import pytest
from _patience import cpu

from puzzlesat.backends import reference_edge, reference_packing
from puzzlesat.models import limits
from puzzlesat.models.edge_matching import EdgePuzzle, Tile
from puzzlesat.models.edge_matching.encode import placement_estimate
from puzzlesat.models.edge_matching.encode import placements as edge_placements
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import catalog, load, read_puzzle_text
from puzzlesat.models.mind_lock import parse_position
from puzzlesat.models.mind_lock.encode import plan_cnf, plan_cpsat
from puzzlesat.models.packing import PackingPuzzle, Piece, placements
from puzzlesat.models.packing.plan import count_plan

SECONDS = 20.0  # CPU seconds (cpu()), generous: each case takes about one alone


MONOMINOES = 'kind = "packing"\nboard = """\n{board}\n"""\n[pieces]\n{pieces}\n'.format(
    board="\n".join(["X" * 200] * 200), pieces="\n".join(f'm{k} = "X"' for k in range(40_000)))


@pytest.fixture(scope="module")
def monominoes():
    """The puzzle itself (its file is refused by the reader: see the next test)."""
    return PackingPuzzle("huge", ("X" * 200,) * 200,
                         tuple(Piece(f"m{k}", ("X",)) for k in range(40_000)))


def test_a_huge_packing_file_is_refused_at_its_line_with_the_figure():
    start = cpu()
    with pytest.raises(InputError) as caught:
        read_puzzle_text("huge.toml", MONOMINOES)
    assert cpu() - start < SECONDS  # reading stays linear in the file's size
    error = caught.value
    assert (error.file, error.line, error.field) == ("huge.toml", 204, "pieces")
    assert "1,600,000,000 placements" in error.message


def test_a_huge_box_file_is_refused_at_its_line_with_the_figure():
    """Issue 28: an 8 MB file of 200x200x200 unit cubes was refused after 34 s of silence; it is
    refused while read (10.7 s at a load of 4 from the command line). Here 130x130x130: the
    least box past the limit."""
    layer = "\n".join(["X" * 130] * 130)
    text = ('kind = "packing"\nlattice = "cubic"\nboard = """\n'
            + "\n---\n".join([layer] * 130) + '\n"""\n[pieces]\nu = { picture = "X", '
            'count = 2197000 }\n')
    start = cpu()
    with pytest.raises(InputError) as caught:
        read_puzzle_text("box.toml", text)
    assert cpu() - start < SECONDS
    error = caught.value
    assert (error.file, error.line, error.field) == ("box.toml", 130 * 131 + 4, "pieces")
    assert "2,197,000 placements" in error.message


def test_a_huge_packing_puzzle_is_refused_before_any_model(monominoes):
    start = cpu()
    for build in (lambda: count_plan(monominoes, "symmetry"), lambda: placements(monominoes)):
        with pytest.raises(InputError) as caught:
            build()
        assert f"more than the {limits.MAX_PLACEMENTS:,}" in str(caught.value)
        assert "1,600,000,000 placements" in str(caught.value)
    assert cpu() - start < SECONDS


def test_the_reference_refuses_it_too(monominoes):
    start = cpu()
    with pytest.raises(InputError, match="more than the 2,000,000"):
        reference_packing.build(monominoes)
    assert cpu() - start < SECONDS


@pytest.fixture(scope="module")
def huge_edge_board():
    rnd = random.Random(8)
    tiles = tuple(Tile(tuple((str(rnd.randrange(50)), "") for _ in range(4))) for _ in range(3600))
    return EdgePuzzle("huge", 60, 60, tiles)  # type: ignore[arg-type]


def test_a_huge_edge_matching_board_is_refused_before_any_model(huge_edge_board):
    start = cpu()
    with pytest.raises(InputError, match="3,600 tiles on 60x60"):
        edge_placements(huge_edge_board)
    with pytest.raises(InputError, match="more than the 2,000,000"):
        reference_edge.build(huge_edge_board)
    assert cpu() - start < SECONDS


def test_every_catalog_puzzle_is_within_the_limits():
    for name in catalog():
        puzzle = load(name)
        if puzzle.kind == "packing":
            assert 0 < len(placements(puzzle)) <= limits.MAX_PLACEMENTS
        elif puzzle.kind == "edge-matching":
            estimate = placement_estimate(puzzle)  # fixed tiles aside: an upper bound with them
            found = len(edge_placements(puzzle))
            assert found <= estimate <= limits.MAX_PLACEMENTS
            assert found == estimate or puzzle.fixed


@pytest.mark.parametrize("steps", [-1, 100_000, limits.MAX_PLAN_STEPS + 1, True, 2.5])
@pytest.mark.parametrize("plan", [plan_cnf, plan_cpsat])
def test_plan_lengths_out_of_reach_are_refused(plan, steps):
    start = parse_position("0x76bd98")
    solved = load("mind-lock").solved
    with pytest.raises(InputError) as caught:
        plan(start, solved, steps)
    assert caught.value.field == "steps"
    if steps == -1:
        assert "0 or more" in caught.value.message


@pytest.mark.parametrize("plan", [plan_cnf, plan_cpsat])
def test_a_plan_of_no_moves_is_built(plan):
    solved = load("mind-lock").solved
    assert plan(solved[0], solved, 0).keys == []
