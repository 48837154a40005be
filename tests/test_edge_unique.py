"""Edge-matching puzzles with one solution (runners/edge_puzzles.py, `puzzlesat generate
--unique`): a generated puzzle counts one solution on two backends besides the counter that
chose it, with and without clues, on squares and triangles; bad requests are one line, exit 2."""

from __future__ import annotations

import pytest

import puzzlesat
from puzzlesat.cli import main
from puzzlesat.edge_puzzles import board_cells, unique
from puzzlesat.models import files
from puzzlesat.models.edge_matching import board_turns, check_grid


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("grid, size, border, interior, clues, seed", [
    ("square", 4, 2, 4, 0, 1), ("square", 4, 2, 3, 2, 1), ("triangle", 2, 2, 5, 0, 40),
    ("triangle", 2, 2, 5, 1, 40)])
def test_a_generated_puzzle_has_one_solution_on_two_backends(grid, size, border, interior, clues,
                                                              seed):
    made = unique(size, border, interior, clues, grid, seed=seed)
    puzzle = made.puzzle
    assert check_grid(puzzle, puzzle.published["planted"]) is None  # its solution is one
    assert len(puzzle.fixed) == clues
    for backend in ("cpsat", "reference"):
        if clues:
            found = puzzlesat.count(puzzle, backend, "none", jobs=1)
            assert found.complete and found.number == 1, backend
        else:
            found = puzzlesat.count(puzzle, backend, "symmetry", jobs=1)
            assert found.complete and found.number == 1, backend
            assert found.details["grids"] <= len(board_turns(puzzle))
    assert made.grids == found.details["grids"]
    assert made.estimated_nodes > 0 and made.nodes_searched > 0
    assert made.estimated_nodes / 10 < made.nodes_searched < made.estimated_nodes * 10
    assert "one solution" in made.summary() and "Knuth's estimate" in made.summary()


def test_boards_of_a_size():
    assert len(board_cells("square", 5)) == 25
    assert board_cells("triangle", 2) == puzzlesat.load("macmahon-24-triangles").shape
    assert len(board_cells("triangle", 3)) == 54


def test_the_command_writes_a_puzzle_file_that_counts_one(tmp_path, capsys):
    path = tmp_path / "one.toml"
    code, out, err = cli(capsys, "generate", "4", "--unique", "--border-colours", "2",
                         "--interior-colours", "4", "--clues", "1", "-o", str(path))
    assert code == 0, err
    assert "one solution" in err and "Knuth's estimate" in err
    puzzle = files.load(str(path))
    assert len(puzzle.fixed) == 1
    assert puzzlesat.count(puzzle, "xcover", "none").number == 1


@pytest.mark.parametrize("args, flag", [
    (["generate", "4", "--clues", "2", "-o", "x.toml"], "--clues"),
    (["generate", "4", "--grid", "triangle", "-o", "x.toml"], "--grid"),
    (["generate", "4", "--unique", "--clues", "16", "-o", "x.toml"], "--clues"),
    (["generate", "4", "--unique", "--attempts", "0", "-o", "x.toml"], "--attempts"),
    (["generate", "1", "--unique", "-o", "x.toml"], "SIZE"),
    (["generate", "4", "--unique", "-o", "x.toml"], "--interior-colours"),  # 17 on 4 joints
    (["generate", "3", "--unique", "--grid", "hexagon", "-o", "x.toml"], "--grid"),
])
def test_bad_requests_are_one_line(tmp_path, capsys, monkeypatch, args, flag):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, *args) if "hexagon" not in args else _argparse(capsys, args)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert flag in err, err
    assert not (tmp_path / "x.toml").exists()


def _argparse(capsys, args):
    with pytest.raises(SystemExit) as stopped:
        main(args)
    out, err = capsys.readouterr()
    return stopped.value.code, out, err.strip().splitlines()[-1]


def test_no_board_found_is_said_and_nothing_written(tmp_path, capsys):
    path = tmp_path / "none.toml"
    code, out, err = cli(capsys, "generate", "5", "--unique", "--border-colours", "2",
                         "--interior-colours", "2", "--attempts", "3", "-o", str(path))
    assert code == 1 and "none of seeds 1 to 3" in err and not path.exists()
