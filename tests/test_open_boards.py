"""The open boards (Polyform Puzzler's 'solutions incomplete', the catalog's open/ folder) and
Knuth's estimates of them (`puzzlesat estimate`)."""

from __future__ import annotations

import json

import pytest

from puzzlesat.models import files

# One board of each set: (name, lattice, pieces, cells, Puzzler's class named in its source)
ONE_OF_EACH = [
    ("pentacubes-5x5x6-tower-1", "cubic", 29, 145, "Pentacubes5x5x6Tower1"),
    ("polycubes-234-5x4x2", "cubic", 11, 40, "Polycubes234_5x4x2"),
    ("hexominoes-parallelogram-35x6", "square", 35, 210, "HexominoesParallelogram35x6"),
    ("polyominoes-45-8x10", "square", 17, 80, "Polyominoes45_8x10"),
    ("heptiamonds-3x28", "triangular", 24, 168, "Heptiamonds3x28"),
    ("pentahexes-5x22", "hexagonal", 22, 110, "Pentahexes5x22"),
]


@pytest.mark.parametrize("name,lattice,pieces,cells,source", ONE_OF_EACH)
def test_an_open_board_of_each_set_is_its_set_on_puzzlers_board(name, lattice, pieces, cells,
                                                                  source):
    puzzle = files.load(name)
    assert puzzle.lattice.name == lattice
    assert sum(p.count for p in puzzle.pieces) == pieces
    assert len(puzzle.cells) == cells == sum(len(p.cells) * p.count for p in puzzle.pieces)
    assert source in puzzle.source and "solutions incomplete" in puzzle.source


def test_the_open_boards_are_listed_apart_and_loaded_by_name():
    found = files.open_boards()
    assert len(found) == 221
    assert not set(found) & set(files.catalog())  # one place a name
    by_set = {}
    for name in found:
        by_set[name.split("-")[0]] = by_set.get(name.split("-")[0], 0) + 1
    assert by_set == {"heptiamonds": 116, "pentacubes": 46, "pentahexes": 22, "polycubes": 21,
                      "hexominoes": 12, "polyominoes": 4}


@pytest.mark.slow
def test_every_open_board_holds_its_pieces_exactly():
    for name in files.open_boards():
        puzzle = files.load(name)
        assert len(puzzle.cells) == sum(len(p.cells) * p.count for p in puzzle.pieces), name


def test_knuths_estimate_is_within_its_spread_of_the_count():
    """The estimator is unbiased: on a board counted exactly (the Soma cube: 11,520 solutions,
    398,414 nodes of the plain search), the estimates of both lie within four standard errors
    of the counts (Knuth's estimate of the solutions is heavy-tailed where solutions are rare:
    the pentominoes' 5x12 needs 400,000 paths to come within two; the Soma cube's need few)."""
    from puzzlesat.benchmarks import estimates

    row = estimates.estimate_board(files.load("soma"), seconds=0.3)
    assert row["paths"] >= 5000
    search = estimates._search_of(files.load("soma"))[0]()
    while not search.run(10_000_000):
        pass
    assert search.found == 11520
    assert abs(row["solutions"] - search.found) < 4 * row["solutions_standard_error"]
    assert abs(row["nodes"] - search.nodes) < 4 * row["nodes_standard_error"]
    assert row["symmetries"] == 48 and row["classes"] == pytest.approx(row["solutions"] / 48)


def test_estimate_records_only_when_asked(tmp_path, capsys):
    from puzzlesat.cli import main

    assert main(["estimate", "polycubes-234-5x4x2", "--seconds", "0.2", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["puzzle"] == "polycubes-234-5x4x2" and row["nodes"] > row["solutions"] > 0
    assert not (tmp_path / "estimates.json").exists()
    assert main(["estimate", "polycubes-234-5x4x2", "--seconds", "0.2", "--results",
                 str(tmp_path)]) == 0
    written = json.loads((tmp_path / "estimates.json").read_text())
    assert [r["puzzle"] for r in written["boards"]] == ["polycubes-234-5x4x2"]
    assert "| polycubes-234-5x4x2 | 40 | 11 |" in (tmp_path / "estimates.md").read_text()


@pytest.mark.parametrize("args,needle", [
    ((), "give PUZZLE names or --open"),
    (("no-such-board",), "no puzzle named 'no-such-board'"),
    (("pentomino-6x10", "mind-lock"), "estimates are made for packing and edge-matching"),
])
def test_estimate_refuses_in_one_line(args, needle, capsys):
    from puzzlesat.cli import main

    assert main(["estimate", *args]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and needle in err
