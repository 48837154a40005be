"""Big inputs (issue 17): the model is built under the time limit, with progress, or the input is
refused by a size limit naming the figure that decides (models/limits.py)."""

from __future__ import annotations

import time

import pytest
from _patience import cpu

import puzzlesat
from puzzlesat.models import limits
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import read_puzzle_text

SLACK = 60.0  # seconds past the time limit a loaded machine may take to stop and answer (the
# model alone takes minutes on an idle machine; issue 42: load 10 stretched 15 s past it)


def dominoes(side: int) -> str:
    board = "\n".join("X" * side for _ in range(side))
    pieces = "\n".join(f'P{i} = "XX"' for i in range(side * side // 2))
    return f'kind = "packing"\nboard = """\n{board}\n"""\n[pieces]\n{pieces}\n'


@pytest.fixture(scope="module")
def thirty(tmp_path_factory):
    """30x30 dominoes: 450 pieces, 783,000 placements (a model of minutes)."""
    path = tmp_path_factory.mktemp("big") / "dominoes-30.toml"
    path.write_text(dominoes(30))
    return puzzlesat.load(str(path))


@pytest.fixture
def quick_progress(monkeypatch):
    monkeypatch.setattr(limits, "PROGRESS_EVERY", 0.1)


def test_solving_obeys_the_time_limit_while_the_model_is_built(thirty, quick_progress):
    said: list[str] = []
    begin = time.perf_counter()
    solution = puzzlesat.solve(thirty, "cpsat", time_limit=4, say=said.append)
    assert time.perf_counter() - begin < 4 + SLACK
    assert not solution.found and not solution.complete
    assert solution.note.startswith("the time limit came while the model was built (")
    assert any(line.startswith("building the model: ") for line in said), said


def test_counting_obeys_the_time_limit_while_the_model_is_built(thirty, quick_progress):
    said: list[str] = []
    begin = time.perf_counter()
    count = puzzlesat.count(thirty, "cpsat", jobs=1, time_limit=4, say=said.append)
    assert time.perf_counter() - begin < 4 + SLACK
    assert not count.complete and count.number == 0  # a lower bound: nothing was counted
    # the limit came while the model was built: inside CP-SAT's model of the cube, or between
    # the placements and the cube (which is then never started); either way the sentence says so
    assert ("the time limit came while the model was built" in count.sentence()
            or "stopped at the time limit" in count.sentence()), count.sentence()
    assert any(line.startswith("building the model: ") for line in said), said


def test_one_piece_as_big_as_a_big_board_is_refused_with_its_figure():
    side = 100  # 10,000 board cells x 10,000 piece cells: 100,000,000 cell tests
    picture = "\n".join("X" * side for _ in range(side))
    text = f'kind = "packing"\nboard = """\n{picture}\n"""\n[pieces]\nA = """\n{picture}\n"""\n'
    with pytest.raises(InputError) as caught:
        read_puzzle_text("one-piece.toml", text)
    error = caught.value
    assert (error.file, error.field) == ("one-piece.toml", "pieces") and error.line
    assert f"about {side ** 4:,} cell tests" in error.message
    assert f"more than the {limits.MAX_CELL_TESTS:,}" in error.message


def test_an_edge_file_of_too_many_tiles_is_refused_at_the_first_tile_past_the_limit():
    pieces = limits.MAX_TILES + 50
    text = "0\n" + "1 1 1 1\n" * pieces
    begin = cpu()  # the reading's work, which a busy machine does not stretch
    with pytest.raises(InputError) as caught:
        read_puzzle_text("board.txt", text)
    assert cpu() - begin < 15
    error = caught.value
    assert (error.file, error.line, error.field) == ("board.txt", limits.MAX_TILES + 2, "piece")
    assert f"{pieces:,} tiles, more than the {limits.MAX_TILES:,}" in error.message


def test_an_edge_toml_board_too_big_is_refused_at_its_rows():
    text = 'kind = "edge-matching"\nrows = 1000\ncols = 1000\ntiles = """\nR G B Y\n"""\n'
    with pytest.raises(InputError) as caught:
        read_puzzle_text("big.toml", text)
    error = caught.value
    assert (error.line, error.field) == (2, "rows") and "1,000,000 tiles" in error.message


def test_a_count_stopped_by_its_time_limit_says_so():
    """A count whose time limit passed before some cubes started (they are then never started)
    names the limit, not only 'stopped early'."""
    from puzzlesat.outcomes import Count

    stopped = Count("p", 3, "solutions", "none", False, 4.1, "cpsat",
                    details={"stopped_by": "time_limit"})
    assert "INCOMPLETE count, stopped at the time limit: at least 3 solutions" in stopped.sentence()
    early = Count("p", 3, "solutions", "none", False, 4.1, "cpsat")
    assert "INCOMPLETE count, stopped early: at least 3" in early.sentence()
