"""Every example of the README as written: its commands, its puzzle files, its Python sessions.

The default run checks that every command parses and runs the quick ones in a scratch folder;
`pytest -m slow` runs every command (but those that need ../shared or a running scheduler).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlesat
from puzzlesat.cli import build_parser
from puzzlesat.pictures import viewer

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", TEXT, re.S)


def commands() -> list[list[str]]:
    """Every `puzzlesat ...` line of the README's shell blocks, split as a shell would."""
    found = []
    for block in blocks("sh"):
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith("puzzlesat "):
                found.append(shlex.split(line, comments=True)[1:])
    return found


COMMANDS = commands()
# Commands that take minutes, or need ../shared, or a running Dask scheduler.
SLOW = ("verify", "bench", "edge-bench", "mind-lock bench", "sliding bench",
        "sliding table klotski-l-pieces", "count one-sided-pentomino-5x18",
        "count one-sided-pentomino-6x15", "count one-sided-pentomino-9x10",
        "count eternity-ii-clue1")
NEEDS = {"../shared": "the benchmark instances of ../shared", "dask://": "a running scheduler"}
QUICK_LIMIT = 60  # seconds a quick command may take here


def label(args: list[str]) -> str:
    return " ".join(args)[:60]


def test_the_readme_has_examples():
    assert len(COMMANDS) >= 30
    assert blocks("toml") and blocks("python")


@pytest.mark.parametrize("args", COMMANDS, ids=label)
def test_every_command_parses(args):
    build_parser().parse_args(args)  # argparse exits (SystemExit) on a bad command line


def runnable(args: list[str]) -> str | None:
    """Why a command cannot run here, or None."""
    for needle, why in NEEDS.items():
        if any(needle in a for a in args):
            return f"needs {why}"
    if args[:1] == ["play"] and viewer.three_folder() is None:
        lattice = getattr(puzzlesat.load(args[1]), "lattice", None)  # packing puzzles have one
        if lattice is not None and lattice.dimensions == 3:
            return f"the 3D page needs three.js ({viewer.INSTALL})"
    return None


def environment() -> dict[str, str]:
    """The commands' environment: where this checkout's three.js is, for the 3D pages (the
    commands run in a scratch folder, away from the checkout's node_modules)."""
    found = viewer.three_folder()
    return {**os.environ, **({"PUZZLESAT_THREE": str(found)} if found else {})}


def is_slow(args: list[str]) -> bool:
    line = " ".join(args)
    return any(line.startswith(word) for word in SLOW) or (
        "iq-block-10" in args and "--backend" in args and "pysat:cadical195" in args)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """One scratch folder for the commands, run in the README's order (board.txt is written
    before it is solved)."""
    return tmp_path_factory.mktemp("readme")


@pytest.mark.parametrize(
    "args",
    [pytest.param(a, marks=pytest.mark.slow) if is_slow(a) else a for a in COMMANDS],
    ids=label,
)
def test_every_command_runs(args, folder, tmp_path):
    why = runnable(args)
    if why:
        pytest.skip(why)
    if "silly.txt" in args:  # Knuth's example in sliding.w's format
        (folder / "silly.txt").write_text("5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n"
                                          "3 = 1\n1xx200000000033\n000xx00033001002\n")
    if args[:1] == ["solve"] and "board.txt" in args and not (folder / "board.txt").exists():
        subprocess.run([sys.executable, "-m", "puzzlesat.cli", "generate", "10",
                        "--interior-colours", "17", "-o", "board.txt"], cwd=folder, check=True)
    if args[:1] in (["verify"], ["bench"], ["edge-bench"]) or args[:2] in (
            ["mind-lock", "bench"], ["sliding", "bench"]):
        args = [*args, "--results", str(tmp_path)]  # the project's results stay as committed
    result = subprocess.run([sys.executable, "-m", "puzzlesat.cli", *args], cwd=folder,
                            capture_output=True, text=True, env=environment(),
                            timeout=None if is_slow(args) else QUICK_LIMIT)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("text", blocks("toml"), ids=lambda t: t.split("\n", 2)[1][:30])
def test_every_puzzle_file_example_reads_and_agrees_with_its_published_figures(text, tmp_path):
    path = tmp_path / "example.toml"
    path.write_text(text)
    puzzle = puzzlesat.load(str(path))
    if puzzle.kind == "packing":
        verified = puzzlesat.verify(puzzle, backends=["cpsat", "reference"], jobs=1)
        assert verified.agree
        assert all(verified.result["published_agrees"].values()), verified.result


def sessions() -> list[str]:
    """The README's Python sessions (>>> lines), each as one program."""
    found = []
    for block in blocks("python"):
        lines = [line[4:] for line in block.splitlines() if line.startswith(">>> ")]
        if lines:
            found.append("\n".join(lines))
    return found


@pytest.mark.parametrize("program", sessions(), ids=lambda p: p.splitlines()[1][:40])
def test_every_python_session_runs(program):
    """Each session as a notebook would run it after the first (`import puzzlesat` done)."""
    exec(compile(program, "README.md", "exec"), {"puzzlesat": puzzlesat})  # noqa: S102
