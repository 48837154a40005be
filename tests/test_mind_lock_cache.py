"""The Mind Lock table's cache: the rebuild says why, and a cache that cannot be written is a
one-line warning (the table is used from memory), never a claim that it was stored."""

from __future__ import annotations

import os

import pytest
from _readonly import run_read_only

from puzzlesat.models.errors import InputError
from puzzlesat.models.files import load
from puzzlesat.models.mind_lock import table as tables


@pytest.fixture(scope="module")
def solved():
    return load("mind-lock").solved


@pytest.fixture(scope="module")
def build(solved):
    return tables.breadth_first(solved)


@pytest.fixture
def quick(monkeypatch, build):
    """Building the table again takes a second: reuse the one search of this module."""
    monkeypatch.setattr(tables, "breadth_first", lambda solved: build)


def test_a_missing_table_is_built_and_stored(tmp_path, solved, quick):
    path = tmp_path / "cache" / "table.bin"
    table, report = tables.load_or_build(solved, path)
    assert report and report.built and report.stored and path.exists()
    assert "no cached table" in report.why
    assert report.message() == f"built the Mind Lock table ({report.why}) and stored it in {path}"
    again, report = tables.load_or_build(solved, path)
    assert not report and report.message() == "" and again.packed == table.packed


@pytest.mark.parametrize(
    "damage, why",
    [
        (lambda data: b"NOTATABL" + data[8:], "corrupt: not a table file"),
        (lambda data: data[:-1], "corrupt: wrong size"),
        (lambda data: data[:100] + bytes([data[100] ^ 4]) + data[101:], "checksum mismatch"),
    ],
)
def test_a_corrupt_table_is_rebuilt_and_the_report_says_why(tmp_path, solved, quick, damage, why):
    path = tmp_path / "table.bin"
    table, _ = tables.load_or_build(solved, path)
    good = path.read_bytes()
    path.write_bytes(damage(good))
    rebuilt, report = tables.load_or_build(solved, path)
    assert report.built and why in report.why and report.stored
    assert rebuilt.packed == table.packed and path.read_bytes() == good  # stored again
    assert tables.load_or_build(solved, path)[1].built is False


def test_an_unreadable_table_is_rebuilt_and_not_stored(tmp_path, solved, quick):
    path = tmp_path / "table.bin"
    path.mkdir()  # a folder where the file should be: cannot be read, cannot be replaced
    table, report = tables.load_or_build(solved, path)
    assert report.built and not report.stored
    assert "unreadable" in report.why
    assert report.warning.startswith("warning: cannot store it in")
    assert "stored it" not in report.message() and "\n" not in report.message()


def test_a_cache_folder_that_is_a_file_gives_a_warning(tmp_path, solved, quick):
    (tmp_path / "cache").write_text("not a folder")
    path = tmp_path / "cache" / "puzzlesat" / "table.bin"
    table, report = tables.load_or_build(solved, path)  # never a traceback
    assert report.built and not report.stored
    assert "used from memory" in report.message() and "\n" not in report.message()
    assert table.distance(solved[0]) == 0


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders anyway")
def test_a_read_only_cache_folder_gives_a_warning(tmp_path, solved, quick):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        table, report = tables.load_or_build(solved, folder / "table.bin")
    finally:
        folder.chmod(0o700)
    assert report.built and not report.stored and "Permission denied" in report.warning


def test_the_cache_path_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert tables.cache_path() == tmp_path / "puzzlesat" / "mind-lock-table.bin"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the specification says
    assert tables.cache_path().parent.parent == tables.Path.home() / ".cache"


READ_ONLY_CACHE = """
import sys
from pathlib import Path
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import load
from puzzlesat.models.mind_lock import table as tables
solved = load("mind-lock").solved
table, report = tables.load_or_build(solved, Path(sys.argv[1]) / "puzzlesat" / "table.bin")
print(report.message())
print(table.distance(solved[0]))
"""


def test_a_read_only_file_system_gives_a_warning(tmp_path):
    source, run = run_read_only(tmp_path, READ_ONLY_CACHE)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    message, distance = run.stdout.splitlines()
    assert "Read-only file system" in message and "used from memory" in message
    assert "stored it" not in message and distance == "0"
    assert list(source.iterdir()) == []


def test_storing_where_it_cannot_is_a_one_line_error(tmp_path, build, solved):
    (tmp_path / "cache").write_text("not a folder")
    path = tmp_path / "cache" / "table.bin"
    with pytest.raises(InputError) as caught:
        tables.save(tables.table_of(build, solved), solved, path)
    assert str(caught.value).startswith(f"{path}: cannot store the Mind Lock table: ")


def test_a_cache_that_cannot_be_written_is_a_warning_the_user_reads(tmp_path, monkeypatch,
                                                                     capsys, quick):
    """The library warns (PuzzlesatWarning); the command line prints it on stderr, one line."""
    import warnings

    from puzzlesat.cli import main
    from puzzlesat.models.errors import PuzzlesatWarning

    (tmp_path / "cache").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.warns(PuzzlesatWarning, match="cannot store it in .* used from memory"):
        tables.load_or_build(load("mind-lock").solved)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        assert main(["solve", "mind-lock", "--from", "0x76bd98"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(said) == 1 and said[0].startswith("puzzlesat: warning: cannot store it in "), said
