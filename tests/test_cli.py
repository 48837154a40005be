"""The command line: bad input is one line naming file, line and field, with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "puzzlesat.cli", *args],
        capture_output=True, text=True, cwd=cwd, timeout=600,
    )


def assert_one_line_error(result: subprocess.CompletedProcess, *needles: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


GOOD = '''kind = "packing"
board = """
XXX
XXX
"""
[pieces]
a = """
XXX
"""
b = """
XXX
"""
'''


@pytest.mark.parametrize(
    "text, needles",
    [
        (GOOD.replace('a = """', 'a = """\nXQX'), ["bad.toml:8", "pieces.a", "'Q'"]),
        (GOOD.replace("[pieces]", "[pieces"), ["bad.toml:6", "syntax"]),
        (GOOD.replace('b = """\nXXX', 'b = """\nXX'), ["bad.toml:6", "pieces", "5 cells"]),
        (GOOD.replace('kind = "packing"', 'kind = "packing"\nflipp = true'), [":2", "flipp"]),
        (GOOD.replace('kind = "packing"', 'kind = "packing"\nflip = "yes"'), [":2", "flip"]),
        (GOOD.replace('kind = "packing"', 'kind = "jigsaw"'), [":1", "kind"]),
        (GOOD.replace('kind = "packing"\n', ""), ["bad.toml:1", "kind"]),
        (GOOD.replace('board = """\nXXX\nXXX\n"""', 'board = """\n...\n"""'), [":2", "board"]),
    ],
)
def test_malformed_files_are_one_line_errors(tmp_path, text, needles):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    for command in (["count", str(path)], ["solve", str(path)], ["verify", str(path)]):
        assert_one_line_error(run(*command, cwd=tmp_path), *needles)


@pytest.mark.parametrize("backend", ["cpsat", "pysat:cadical195", "reference"])
def test_a_good_file_works_on_every_backend(tmp_path, backend):
    path = tmp_path / "good.toml"
    path.write_text(GOOD)
    result = run("count", str(path), "--backend", backend, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["count"] == 2  # a above b, or b above a


@pytest.mark.parametrize(
    "args, needles",
    [
        (["count", "iq-block-8", "--backend", "gurobi"], ["--backend", "gurobi"]),
        (["count", "iq-block-8", "--backend", "pysat:nosuch"], ["--backend", "nosuch"]),
        (["solve", "iq-block-8", "--backend", "pysat:nosuch"], ["--backend", "nosuch"]),
        (["count", "iq-block-8", "--backend", "pysat:kissat404"], ["cannot enumerate"]),
        (["count", "iq-block-8", "--modulo", "colour"], ["--modulo"]),
        (["count", "iq-block-8", "--encoding", "magic"], ["--encoding"]),
        (["count", "iq-block-8", "--jobs", "0"], ["--jobs"]),
        (["count", "no-such-puzzle"], ["PUZZLE", "no-such-puzzle"]),
        (["count"], ["PUZZLE"]),
        (["solve", "iq-block-8", "--colour"], ["--colour"]),
    ],
)
def test_bad_command_lines_are_one_line_errors(args, needles):
    assert_one_line_error(run(*args), *needles)


def test_a_timed_out_count_says_it_is_incomplete():
    result = run("count", "iq-block-10", "--backend", "cpsat", "--time-limit", "1", "--json")
    assert result.returncode == 1
    found = json.loads(result.stdout)
    assert found["complete"] is False and found["count"] is not None


def test_solve_draws_every_cell():
    result = run("solve", "pentomino-3x20", "--backend", "cpsat")
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()[:3]
    assert all(len(row.split()) == 20 for row in rows)
    assert sorted(set("".join(rows).replace(" ", ""))) == sorted("FILNPTUVWXYZ")


def test_list_shows_the_catalog():
    result = run("list")
    assert result.returncode == 0
    for name in ("iq-block-8", "iq-block-10", "pentomino-6x10", "pentomino-8x8-centre-hole"):
        assert name in result.stdout


def test_python_dash_m_puzzlesat_is_the_command_line():
    """Regression: `python -m puzzlesat` printed nothing and exited 0 (no __main__ module)."""
    result = subprocess.run([sys.executable, "-m", "puzzlesat", "list"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "pentomino-6x10" in result.stdout
