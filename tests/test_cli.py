"""The command line: bad input is one line naming file, line and field, with exit code 2."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from _patience import HANG

from puzzlesat.cli import main


def run(*args: str, cwd=None) -> SimpleNamespace:
    """The command line's `main` in this process (a process each cost 0.8-1 CPU s of imports,
    27 of them for the malformed files alone); its exit code, standard output and error as a
    process's. The tests below that start `python -m puzzlesat` keep the real entry checked."""
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as stop:  # argparse's refusals
                code = stop.code
    finally:
        os.chdir(here)
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def assert_one_line_error(result: SimpleNamespace, *needles: str) -> None:
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
                            text=True, timeout=HANG)
    assert result.returncode == 0, result.stderr
    assert "pentomino-6x10" in result.stdout


def test_the_command_line_declares_its_flags_without_the_heavy_engines():
    """Start-up (issue 27): building the parser of every command imports neither numba (the
    breadth-first engine, the compiled searches) nor numpy (Eternity II's boards): a count
    loads only what its family and backend need."""
    code = ("import sys; from puzzlesat import cli; cli.build_parser(); "
            "print(sorted(m for m in ('numba', 'numpy', 'puzzlesat.breadth_first', "
            "'puzzlesat.booklet', 'puzzlesat.cards', 'puzzlesat.api') if m in sys.modules "
            "and type(sys.modules[m]).__name__ != '_LazyModule'))")  # named, not yet loaded
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=HANG)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["['puzzlesat.api']"]


def test_the_package_names_stay_its_functions_when_submodules_load():
    """puzzlesat.best and puzzlesat.backends are functions of the API although modules of the
    same names exist, whichever is imported first (the names load lazily)."""
    code = ("import puzzlesat.backends.bitboard, puzzlesat.best, puzzlesat; "
            "import puzzlesat as p; from puzzlesat import backends, best, count, Group; "
            "print(callable(p.best) and callable(p.backends), backends is p.backends, "
            "type(best).__name__, set(p.__all__) <= set(dir(p)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=HANG)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "function", "True"]


def test_the_program_flushes_its_output_and_runs_exit_handlers(tmp_path):
    """The program leaves without Python's module teardown (0.3 CPU s of a small count), yet
    everything printed reaches a pipe or file, exit handlers run and the exit code holds."""
    code = ("import atexit, sys; from puzzlesat.cli import command; "
            "atexit.register(lambda: print('handler ran', file=sys.stderr)); "
            "sys.argv = ['puzzlesat'] + {args!r}; command()")
    ok = subprocess.run([sys.executable, "-c", code.format(args=["count", "iq-block-8",
                                                                 "--json"])],
                        capture_output=True, text=True, timeout=600)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["count"] == 48
    assert "handler ran" in ok.stderr
    bad = subprocess.run([sys.executable, "-c", code.format(args=["count", "no-such-puzzle"])],
                         capture_output=True, text=True, timeout=HANG)
    assert bad.returncode == 2
    assert "no puzzle named 'no-such-puzzle'" in bad.stderr and "handler ran" in bad.stderr
    piped = subprocess.run(f"{sys.executable} -m puzzlesat list | head -1", shell=True,
                           capture_output=True, text=True, timeout=HANG)
    assert piped.stdout.count("\n") == 1 and "Traceback" not in piped.stderr
