"""Sliding-block puzzles: God's algorithm against published figures, the planners against the
table, the compiled moves against the rules, bad files, refusals, the table cache."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from puzzlesat.breadth_first import TooBig
from puzzlesat.cli import main
from puzzlesat.families import sliding as family
from puzzlesat.models import files
from puzzlesat.models.errors import InputError
from puzzlesat.registry import resolve

CATALOG = ["eight-puzzle", "klotski", "rush-hour-51"]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    family._TABLES.clear()


def test_eight_puzzle_figures():
    """The 8-puzzle: 181,440 positions reachable, God's number 31 in unit moves (two
    positions at 31), as Reinefeld 1993 published."""
    found = family.table_of(files.load("eight-puzzle"))
    figures = family.report(found)
    assert figures["positions"] == 181_440
    assert figures["gods_number"] == 31
    assert figures["hardest_positions"] == 2
    assert figures["metric"] == "step"
    assert sum(figures["distance_counts"].values()) == 181_440


def test_klotski_and_rush_hour_published():
    """Klotski's classic start: 25,955 positions reachable, 81 moves (any path); Fogleman's
    Rush Hour puzzle: 4,780 positions, 51 slides."""
    klotski = family.report(family.table_of(files.load("klotski")))
    assert (klotski["positions"], klotski["start_moves"]) == (25_955, 81)
    rush = family.report(family.table_of(files.load("rush-hour-51")))
    assert (rush["positions"], rush["start_moves"]) == (4_780, 51)


@pytest.mark.parametrize("name", CATALOG)
def test_planners_agree_with_the_table(name):
    """CP-SAT and a SAT solver (iterative deepening) find plans exactly as long as the table's
    distance on sampled positions of every catalog puzzle; the compiled moves equal the rules."""
    puzzle = files.load(name)
    found = family.verify_positions = None
    found = family.table_of(puzzle)
    cases = family.chosen_positions(found, 2, 7, within=4)
    assert cases
    for _, position in cases:
        distance = found.distance(position)
        for backend in ("cpsat", "pysat:cadical195"):
            plan = family.plan_by_search(puzzle, position, resolve(backend, puzzle.kind, "solve"))
            assert plan.complete and len(plan.moves) == distance
    checks = family.check_kernel(found, [p for _, p in cases], 3)
    assert all(checks.values()), checks


def test_table_walk_is_a_legal_optimal_solution():
    puzzle = files.load("klotski")
    found = family.table_of(puzzle)
    path = found.walk(puzzle.start)
    assert len(path) == 81
    position = puzzle.start
    for move, after in path:
        assert (move, after) in puzzle.neighbours(position)
        position = after
    assert puzzle.is_goal(position)


@pytest.mark.parametrize("metric", ["step", "slide"])
def test_other_metrics_agree_with_a_planner(metric):
    """The metric is a load option: Klotski in unit steps and straight slides, checked by
    CP-SAT on a near position."""
    puzzle = family.FAMILY.at(files.load("klotski"), metric=metric)
    found = family.table_of(puzzle)
    assert found.build.positions == 25_955  # the same positions in every metric
    _, position = family.chosen_positions(found, 1, 5, within=3)[0]
    plan = family.plan_by_search(puzzle, position, resolve("cpsat", puzzle.kind, "solve"))
    assert len(plan.moves) == found.distance(position)


BAD = [
    ('metric = "diagonal"', "metric", "unknown metric"),
    ('start = """\nAB\nA?\n"""', "start", "unexpected character"),
    ('goal = { piece = "Z", row = 0, column = 0 }', "goal.piece", "no piece type"),
    ('axis = "sideways"', "axis", "expected 'long-side'"),
    ('colour = "red"', "colour", "unknown field"),
]


@pytest.mark.parametrize("line, field, words", BAD)
def test_bad_files_one_line_error(tmp_path, capsys, line, field, words):
    """Bad puzzle files: one line naming file, line and field; exit code 2."""
    lines = {"kind": 'kind = "sliding-block"', "metric": 'metric = "step"',
             "start": 'start = """\nAB\n.B\n"""', "goal": 'goal = { piece = "A", row = 1, '
             'column = 0 }'}
    key = line.split(" ")[0]
    lines[key] = line
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines.values()) + "\n")
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"{path}:" in err and f"{field}:" in err and words in err
    assert "Traceback" not in err


def test_too_big_refused_before_it_starts(capsys):
    """A search whose memory estimate exceeds the limit is refused before it starts."""
    puzzle = files.load("eight-puzzle")
    with pytest.raises(TooBig, match="refused before starting"):
        family.table_of(puzzle, memory=2**20)
    assert not family._TABLES
    assert main(["sliding", "table", "eight-puzzle", "--memory", "0.001"]) == 2
    err = capsys.readouterr().err
    assert "GiB" in err and "refused before starting" in err and len(err.splitlines()) == 1


def test_cache_written_read_and_rebuilt(tmp_path):
    puzzle = files.load("rush-hour-51")
    first = family.table_of(puzzle)
    assert first.cache.built and first.cache.stored and first.cache.path.exists()
    family._TABLES.clear()
    again = family.table_of(puzzle)
    assert not again.cache.built and again.build.positions == 4_780
    data = bytearray(first.cache.path.read_bytes())
    data[-1] ^= 0xFF
    first.cache.path.write_bytes(bytes(data))
    family._TABLES.clear()
    rebuilt = family.table_of(puzzle)
    assert rebuilt.cache.built and "corrupt" in rebuilt.cache.why
    assert rebuilt.distance(puzzle.start) == 51


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_unwritable_cache_warns(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    with pytest.warns(UserWarning, match="cannot store the table"):
        found = family.table_of(files.load("rush-hour-51"))
    assert found.cache.built and not found.cache.stored


def test_unwritable_cache_warning_reaches_the_cli(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["sliding", "table", "rush-hour-51"]) == 0
    captured = capsys.readouterr()
    assert "puzzlesat: warning: cannot store the table" in captured.err
    assert "positions reached: 4,780" in captured.out
    assert "'slide' metric" in captured.out


def test_cli_solve_names_the_metric(capsys):
    assert main(["solve", "rush-hour-51"]) == 0
    out = capsys.readouterr().out
    assert "solved in 51 moves (slide metric)" in out


def test_from_position_and_errors():
    puzzle = files.load("eight-puzzle")
    assert family.FAMILY.start_position(puzzle, "123/456/7.8") == puzzle.parse("123/456/7.8")
    with pytest.raises(InputError, match="expected 3 rows"):
        family.FAMILY.start_position(puzzle, "123/456")
    with pytest.raises(InputError, match="pieces 9|no piece type"):
        family.FAMILY.start_position(puzzle, "123/456/79.")


def test_codes_round_trip():
    for name in CATALOG:
        puzzle = files.load(name)
        assert puzzle.decode(puzzle.code(puzzle.start)) == puzzle.start
        for _, after in puzzle.neighbours(puzzle.start):
            assert puzzle.decode(puzzle.code(after)) == after


def test_catalog_files_name_sources():
    for name in CATALOG:
        assert files.load(name).source
    assert Path(files.catalog()["klotski"]).read_text().count("81") >= 1


@pytest.mark.slow
def test_l_piece_klotski_settled():
    """PSE 95123: 6,288,084 positions reachable ('about 6 million'); the bar to the bottom
    middle takes 187 moves in the any-path metric (the box's claim) and 295 unit steps (the
    answer's breadth-first search); CP-SAT agrees with the table near the goal."""
    puzzle = files.load("klotski-l-pieces")
    found = family.table_of(puzzle)
    assert found.build.positions == 6_288_084
    assert found.distance(puzzle.start) == 187
    steps = family.table_of(family.FAMILY.at(puzzle, metric="step"))
    assert steps.distance(puzzle.start) == 295
    for _, position in family.chosen_positions(found, 2, 7, within=3):
        plan = family.plan_by_search(puzzle, position, resolve("cpsat", puzzle.kind, "solve"))
        assert len(plan.moves) == found.distance(position)
