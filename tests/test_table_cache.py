"""The one table cache of the puzzles solved by moves (runners/table_cache.py, through the 'table'
backend): the rebuild says why, and a cache that cannot be written is a one-line warning (the
table is used from memory), never a claim that it was stored. Shown on Mind Lock's table (a
search of a second); the sliding-block puzzles' goes the same way (tests/test_sliding.py)."""

from __future__ import annotations

import os

import pytest
from _readonly import run_read_only

from puzzlesat.backends.table import forget
from puzzlesat.breadth_first import table_path
from puzzlesat.families.mind_lock import FAMILY
from puzzlesat.models.files import load


@pytest.fixture(scope="module")
def puzzle():
    return load("mind-lock")


@pytest.fixture(autouse=True)
def nothing_kept():
    """Each test reads the cache (or builds), never a table kept by another test."""
    forget()
    yield
    forget()


def cache_in(monkeypatch, folder) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))


def test_a_missing_table_is_built_and_stored(tmp_path, monkeypatch, puzzle):
    cache_in(monkeypatch, tmp_path / "cache")
    found = FAMILY.table(puzzle).found
    report = found.report
    assert found.source == "built" and report.built and report.stored and report.path.exists()
    assert "no cached table" in report.why
    assert report.message() == (f"built the table of Mind Lock ({report.why}) and stored it "
                                f"in {report.path}")
    forget()
    again = FAMILY.table(puzzle).found
    assert again.source == "cache" and again.report.message() == ""
    assert bytes(again.build.packed) == bytes(found.build.packed)


@pytest.mark.parametrize(
    "damage, why",
    [
        (lambda data: b"NOTATABL" + data[8:], "corrupt: not a table file"),
        (lambda data: data[:-1], "corrupt"),
        (lambda data: data[:100] + bytes([data[100] ^ 4]) + data[101:], "checksum mismatch"),
    ],
)
def test_a_corrupt_table_is_rebuilt_and_the_report_says_why(tmp_path, monkeypatch, puzzle,
                                                            damage, why):
    cache_in(monkeypatch, tmp_path)
    first = FAMILY.table(puzzle).found
    path = first.report.path
    good = path.read_bytes()
    path.write_bytes(damage(good))
    forget()
    rebuilt = FAMILY.table(puzzle).found
    assert rebuilt.source == "built" and why in rebuilt.report.why and rebuilt.report.stored
    assert bytes(rebuilt.build.packed) == bytes(first.build.packed)
    forget()
    assert FAMILY.table(puzzle).found.source == "cache"


def test_an_unreadable_table_is_rebuilt_and_not_stored(tmp_path, monkeypatch, puzzle):
    cache_in(monkeypatch, tmp_path)
    model = FAMILY.table_model(puzzle)
    table_path(model.name, model.key).mkdir(parents=True)  # a folder where the file should be
    with pytest.warns(UserWarning, match="cannot store it in"):
        report = FAMILY.table(puzzle).found.report
    assert report.built and not report.stored
    assert "unreadable" in report.why
    assert report.warning.startswith("warning: cannot store it in")
    assert "stored it" not in report.message() and "\n" not in report.message()


def test_a_cache_folder_that_is_a_file_gives_a_warning(tmp_path, monkeypatch, puzzle):
    (tmp_path / "cache").write_text("not a folder")
    cache_in(monkeypatch, tmp_path / "cache")
    with pytest.warns(UserWarning, match="cannot store it in"):
        found = FAMILY.table(puzzle)  # never a traceback
    report = found.found.report
    assert report.built and not report.stored
    assert "used from memory" in report.message() and "\n" not in report.message()
    assert found.distance(puzzle.solved[0]) == 0


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders anyway")
def test_a_read_only_cache_folder_gives_a_warning(tmp_path, monkeypatch, puzzle):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    cache_in(monkeypatch, folder)
    try:
        with pytest.warns(UserWarning):
            report = FAMILY.table(puzzle).found.report
    finally:
        folder.chmod(0o700)
    assert report.built and not report.stored and "Permission denied" in report.warning


def test_the_cache_path_follows_xdg_cache_home(monkeypatch, tmp_path):
    cache_in(monkeypatch, tmp_path)
    assert table_path("mind-lock", "abc") == tmp_path / "puzzlesat" / "mind-lock-abc.table"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the specification says
    from pathlib import Path

    assert table_path("x", "y").parent.parent == Path.home() / ".cache"


READ_ONLY_CACHE = """
import os, sys, warnings
os.environ["XDG_CACHE_HOME"] = sys.argv[1]
warnings.simplefilter("ignore")
from puzzlesat.families.mind_lock import FAMILY
from puzzlesat.models.files import load
puzzle = load("mind-lock")
found = FAMILY.table(puzzle)
print(found.found.report.message())
print(found.distance(puzzle.solved[0]))
"""


def test_a_read_only_file_system_gives_a_warning(tmp_path):
    source, run = run_read_only(tmp_path, READ_ONLY_CACHE)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    message, distance = run.stdout.splitlines()
    assert "Read-only file system" in message and "used from memory" in message
    assert "stored it" not in message and distance == "0"
    assert list(source.iterdir()) == []


def test_a_cache_that_cannot_be_written_is_a_warning_the_user_reads(tmp_path, monkeypatch,
                                                                     capsys, puzzle):
    """The library warns (PuzzlesatWarning); the command line prints it on stderr, one line."""
    import warnings

    from puzzlesat.cli import main
    from puzzlesat.models.errors import PuzzlesatWarning

    (tmp_path / "cache").write_text("not a folder")
    cache_in(monkeypatch, tmp_path / "cache")
    with pytest.warns(PuzzlesatWarning, match="cannot store it in .* used from memory"):
        FAMILY.table(puzzle)
    forget()
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        assert main(["solve", "mind-lock", "--from", "0x76bd98"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(said) == 1 and said[0].startswith("puzzlesat: warning: cannot store it in "), said
