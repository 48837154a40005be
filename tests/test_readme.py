"""Every example of the README and the reference pages as written: their commands, their puzzle
files, their Python sessions.

The default run checks that every command parses and runs the quick ones in a scratch folder;
`pytest -m slow` runs every command (but those that need a running Dask scheduler). A command
whose comment says it takes minutes or hours is slow; every other one takes under a minute on an
idle machine, and is stopped here only past QUICK_LIMIT, a guard against a hang: a test must not
fail because the machine is slow (issue 42: at load 4-10, 9 commands failed a 60 s limit, the
first counts of a new install spending it compiling).
A fenced block whose first line names a file (```toml three-bars.toml) is written into the
scratch folder first, so commands run on it as a reader would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlesat
from puzzlesat.benchmarks import pages
from puzzlesat.cli import build_parser
from puzzlesat.pictures import viewer

ROOT = Path(__file__).resolve().parent.parent
TEXT = pages.text(ROOT)
LINES = pages.command_lines(TEXT)
COMMANDS = [c.args for c in pages.commands(TEXT)]  # each once, in the pages' order
SAYS_SLOW = pages.SAYS_SLOW
EXEC = re.compile(r"exec:([\w.-]+)")  # a DIMACS solver binary a command runs
QUICK_LIMIT = 600  # seconds before a quick command is called hung (a minute idle, ten at load 10)


def blocks(language: str) -> list[str]:
    return pages.blocks(TEXT, language)


def label(args: list[str]) -> str:
    return " ".join(args)[:60]


def test_the_pages_have_examples():
    assert len(COMMANDS) >= 30
    assert blocks("toml") and blocks("python")
    assert any(SAYS_SLOW.search(comment) for _, comment in LINES)


@pytest.mark.parametrize("args", COMMANDS, ids=label)
def test_every_command_parses(args):
    build_parser().parse_args(args)  # argparse exits (SystemExit) on a bad command line


def runnable(args: list[str]) -> str | None:
    """Why a command cannot run here, or None."""
    for needle, why in pages.NEEDS.items():
        if any(needle in a for a in args):
            return f"needs {why}"
    for program in EXEC.findall(" ".join(args)):
        if shutil.which(program) is None:
            return f"the exec: backend needs the solver binary {program!r} on PATH"
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


def quick_limit(args: list[str]) -> float:
    """Seconds before a quick command is called hung: QUICK_LIMIT, past the time limit it sets
    itself (a solve given --time-limit 60 may use it whole)."""
    own = float(args[args.index("--time-limit") + 1]) if "--time-limit" in args else 0.0
    return QUICK_LIMIT + own


def is_slow(args: list[str]) -> bool:
    """A command the page says takes minutes or more."""
    return any(SAYS_SLOW.search(comment) for line, comment in LINES if line == args)


@pytest.mark.parametrize("comment", ["(minutes)", "(~15 min)", "about 2 mins", "(an hour)",
                                     "(3 hours)"])
def test_a_comment_saying_minutes_in_any_spelling_marks_the_command_slow(comment):
    """Regression: results/README.md's "(~15 min)" was not read as slow, so the quiet bench
    of the 4x4x4 boxes ran in the default run under the 60 s limit of a quick command."""
    assert SAYS_SLOW.search(comment)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """One scratch folder for the commands, run in the pages' order (board.txt is written
    before it is solved), holding the files the pages write out."""
    made = tmp_path_factory.mktemp("readme")
    for name, text in pages.named_files(TEXT).items():
        (made / name).write_text(text, encoding="utf-8")
    return made


def records(folder: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in (folder / "results").rglob("*")}


@pytest.mark.parametrize(
    "args",
    [pytest.param(a, marks=pytest.mark.slow) if is_slow(a) else a for a in COMMANDS],
    ids=label,
)
def test_every_command_runs(args, folder):
    why = runnable(args)
    if why:
        pytest.skip(why)
    if args[:1] == ["solve"] and "board.txt" in args and not (folder / "board.txt").exists():
        subprocess.run([sys.executable, "-m", "puzzlesat.cli", "generate", "10",
                        "--interior-colours", "17", "-o", "board.txt"], cwd=folder, check=True)
    before = records(folder)
    args = pages.with_force(args)  # (test_output_safety.py checks the refusal without it)
    result = subprocess.run([sys.executable, "-m", "puzzlesat.cli", *args], cwd=folder,
                            capture_output=True, text=True, env=environment(),
                            timeout=None if is_slow(args) else quick_limit(args))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    if "--record" not in args and "--results" not in args:  # evidence only when asked
        assert records(folder) == before, "wrote under results/ unasked"


def test_no_page_command_runs_the_whole_ladder_without_an_end():
    """`bench ladder` (was `ladder`) with no board counts the 8x8s (about 19 CPU hours by
    Knuth's estimates) and solves the 10x10s with no time limit: days, so a page that offered it
    as a command (it did, saying "hours") could never see it run to its end. A ladder command of
    the pages names its boards or gives each a time limit."""
    ladders = [a for a in COMMANDS if a[:2] == ["bench", "ladder"]]
    assert ladders
    parser = build_parser()
    for args in ladders:
        parsed = parser.parse_args(args)
        assert parsed.boards or parsed.solve or parsed.time_limit is not None, args


def test_the_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_the_pages_name_no_file_outside_the_clone():
    for page in pages.PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "../shared" not in text, page


@pytest.mark.parametrize("text", blocks("toml"), ids=lambda t: t.split("\n", 2)[1][:30])
def test_every_puzzle_file_example_reads_and_agrees_with_its_published_figures(text, tmp_path):
    path = tmp_path / "example.toml"
    path.write_text(text)
    if not text.startswith("kind") and "\nkind" not in text:  # a booklet: its cards counted
        assert puzzlesat.audit(str(path), grade=False).cards
        return
    puzzle = puzzlesat.load(str(path))
    if puzzle.kind == "packing":
        verified = puzzlesat.verify(puzzle, backends=["cpsat", "reference"], jobs=1)
        assert verified.agree
        assert all(verified.result["published_agrees"].values()), verified.result


# The pages' sessions saved as one plain script (no `if __name__ == "__main__"` guard), as a
# reader saves them; run as a program, each >>> line shows what the REPL shows, and what it
# shows is checked against the page (doctest's ELLIPSIS; a line the page shows no output for,
# and a count's seconds, are free). Such a script hung for ever (issue 42). It replaces running
# each session with exec in this process, which checked neither.
PLAIN_SCRIPT = """\
import doctest
import re

PAGES = {pages!r}


class Checker(doctest.OutputChecker):
    def check_output(self, want, got, optionflags):
        if not want:
            return True
        want = re.sub(r"\\b[0-9.]+ s>", "... s>", want)
        return super().check_output(want, got, optionflags)


test = doctest.DocTestParser().get_doctest(PAGES, {{}}, "the pages", None, 0)
runner = doctest.DocTestRunner(Checker(), optionflags=doctest.ELLIPSIS
                               | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
print("failed", runner.summarize(verbose=False).failed, "of", len(test.examples))
"""


def test_the_pages_sessions_run_as_a_plain_script(tmp_path):
    text = "\n".join(block for block in blocks("python") if ">>> " in block)
    script = tmp_path / "pages.py"
    script.write_text(PLAIN_SCRIPT.format(pages=text))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            cwd=tmp_path, timeout=900)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    last = result.stdout.splitlines()[-1]
    assert last.startswith("failed 0 of") and int(last.split()[-1]) > 20, result.stdout


def test_no_command_of_the_pages_rewrites_the_committed_results():
    """Run from a clone, the pages' commands leave `git status` clean: one that records evidence
    names its own folder (--results DIR), never the committed results/ (--record alone)."""
    assert [a for a in COMMANDS if "--record" in a and "--results" not in a] == []
    assert [a for a in COMMANDS if "--results" in a
            and a[a.index("--results") + 1].rstrip("/") == "results"] == []
    # nor a file or folder inside it (a checkpoint resumed in place, evidence in a sub-folder)
    writes = ("--results", "--checkpoint", "-o", "--output")
    assert [a for a in COMMANDS for flag, path in zip(a, a[1:])
            if flag in writes and path.startswith("results/")] == []
