"""Fuzzing the command line (hypothesis), and its limits on size and time.

Random command lines through `puzzlesat.cli.main(argv)`, in this process with a watchdog: the
exit code is 0, 1 or 2, an error is one line (the last on standard error), there is never a
traceback, and a run ends within its --time-limit (plus a grace for start-up). Explicit cases
for the size and time items of issue 8 run in a subprocess so that a hang can be stopped.

The command line is being rebuilt; until every family's part of it is on this branch these
tests are skipped with that reason.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CLI_MODULES = (
    "puzzlesat.api", "puzzlesat.cli", "puzzlesat.cli.packing", "puzzlesat.cli.edge_matching",
    "puzzlesat.cli.mind_lock",
)
MISSING = [name for name in CLI_MODULES if importlib.util.find_spec(name) is None]
pytestmark = pytest.mark.skipif(
    bool(MISSING), reason=f"the rebuilt command line is not on this branch yet: {MISSING}"
)

EXAMPLES = 25
GRACE = 120.0  # seconds beyond a run's --time-limit (start-up, model building on a busy machine:
# generous, as a test must not fail only because the machine is slow; issue 42 saw load 10)
UNLIMITED = 600.0  # the most a fuzzed run without --time-limit may take (a hang guard)
LONG = ("count", "verify", "bench", "solve", "solutions")  # runs that may take long
TINY = 'kind = "packing"\nboard = """\nXXX\nXXX\n"""\n[pieces]\nL = """\nXX\nX.\n"""\nI = "XXX"\n'


class Watchdog(BaseException):
    """Raised in the main thread when a run goes past its time (not caught by the CLI)."""


def run_cli(argv: list[str], seconds: float) -> tuple[int, str, str, float]:
    """(exit code, stdout, stderr, seconds) of main(argv) in this process, stopped after
    `seconds` by a watchdog."""
    from puzzlesat.cli import main

    def bark(signum, frame):
        raise Watchdog(f"{argv} ran past {seconds} s")

    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, bark)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit:  # argparse: usage errors and --help
                code = exit.code if isinstance(exit.code, int) else 1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - start


def check_outcome(argv: list[str], code: int, err: str) -> None:
    assert code in (0, 1, 2), f"{argv}: exit code {code}\n{err}"
    assert "Traceback" not in err, f"{argv}:\n{err}"
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines and "error" in lines[-1], f"{argv}: no error line\n{err}"
        assert sum("error" in line for line in lines) == 1, f"{argv}: more than one error\n{err}"


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Path:
    """A folder with a tiny puzzle, a folder, a file in place of a folder, a pipe, a link."""
    folder = tmp_path_factory.mktemp("cli")
    (folder / "tiny.toml").write_text(TINY)
    (folder / "bad.toml").write_text(TINY.replace("XXX\nXXX", "  XX\nXXXX"))
    (folder / "folder").mkdir()
    (folder / "file").write_text("a file")
    os.mkfifo(folder / "pipe")
    (folder / "null").symlink_to(os.devnull)
    return folder


PUZZLES = ["tiny.toml", "tiny.toml", "tiny.toml", "bad.toml", "iq-block-8", "mind-lock",
           "scramble-frog", "folder", "missing.toml", "", "-", "file", "pipe"]
VALUES = ["", "0", "1", "2", "-1", "nan", "inf", "-inf", "1e9", "100000", "0.5", "abc",
          "cpsat", "reference", "pysat:cadical195", "pysat:nonsense", "none", "symmetry",
          "local", "dimacs", "-", "folder", "file", "null", "out.txt", "pipe", "results"]
FAMILY_FLAGS = ["--level", "--from", "--steps", "--label-tiles"]  # each family's own
FLAGS = {  # the flags each command has (as the issue and the command line describe them)
    "solve": ["--backend", "--time-limit", "--encoding", "--json"],
    "count": ["--backend", "--time-limit", "--jobs", "--modulo", "--executor", "--checkpoint",
              "--encoding", "--json"],
    "solutions": ["--backend", "--limit", "--encoding", "--json"],
    "verify": ["--time-limit", "--jobs", "--modulo", "--executor", "--encoding", "--results"],
    "export": ["-o", "-o", "--format", "--encoding"],
    "bench": ["--backend", "--time-limit", "--jobs", "--modulo", "--repeat", "--solve",
              "--results"],
    "backends": ["--json"],
    "list": [],
    "generate": ["-o", "--rows", "--cols", "--colours", "--seed"],
}
COMMANDS = [*FLAGS, "nonsense", ""]
SWITCHES = {"--json", "--solve", "--help", "--label-tiles", "--nonsense"}


GOOD = {  # values that make a run go on to do its work
    "--backend": ["cpsat", "reference", "pysat:cadical195"], "--time-limit": ["1", "2"],
    "--jobs": ["1", "2", "100000"], "--modulo": ["none", "symmetry"], "--executor": ["local"],
    "--checkpoint": ["checkpoint.json"], "--encoding": ["pairwise", "ladder"],
    "--limit": ["1", "3"], "--results": ["results", "new/results", "file", "null"],
    "-o": ["out.txt", "-", "null", "folder", "file", "pipe", "new/out.txt"],
    "--format": ["dimacs"], "--repeat": ["1"],
}


@st.composite
def command_lines(draw) -> list[str]:
    """Mostly the flags a command has, with good and bad values; sometimes anything."""
    rnd = random.Random(draw(st.integers(0, 2**32)))  # a seed: every example a new line
    command = rnd.choice(COMMANDS)
    argv = [command]
    if command == "generate":
        argv.append(rnd.choice(["3", "100000", "-1", "abc"]))
    elif command != "list" and rnd.random() < 0.9:
        argv.append(rnd.choice(PUZZLES))
    known = FLAGS.get(command, [])
    for _ in range(rnd.randrange(5)):
        if known and rnd.random() < 0.8:
            flag = rnd.choice(known)
        else:
            flag = rnd.choice([*FAMILY_FLAGS, "--help", "--nonsense", "--jobs", "-o"])
        argv.append(flag)
        if flag in SWITCHES and rnd.random() < 0.8:
            continue
        argv.append(rnd.choice(GOOD[flag] if flag in GOOD and rnd.random() < 0.7 else VALUES))
    if command in LONG and (argv[1:2] != ["tiny.toml"] or rnd.random() < 0.5):
        # bounded (the last --time-limit given counts); only the tiny puzzle may run unbounded
        argv += ["--time-limit", rnd.choice(["1", "2", "3"])]
    return argv


def time_allowed(argv: list[str]) -> float:
    if argv[0] in ("verify", "bench"):
        return UNLIMITED  # there --time-limit bounds each backend's run, not the whole command
    if "--time-limit" in argv:
        try:
            limit = float(argv[argv.index("--time-limit") + 1])
        except (ValueError, IndexError):
            return UNLIMITED
        if 0 < limit < UNLIMITED:
            return limit + GRACE
    return UNLIMITED


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command_lines())
def test_random_command_lines_end_cleanly(place, argv):
    here = os.getcwd()
    os.chdir(place)  # results folders and output files land in the temporary folder
    try:
        code, _, err, seconds = run_cli(argv, time_allowed(argv))
    finally:
        os.chdir(here)
    check_outcome(argv, code, err)


# ---------------------------------------------------------------- size and time, explicitly


def run_subprocess(argv: list[str], folder: Path, seconds: float) -> subprocess.CompletedProcess:
    """The command line in a fresh process, killed after `seconds` (a failure of the test)."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "puzzlesat.cli", *argv], cwd=folder, capture_output=True,
            text=True, timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{argv} ran past {seconds} s")


@pytest.mark.parametrize("limit", ["nan", "inf", "-inf", "0", "-1", "", "soon"])
def test_a_time_limit_that_is_not_a_positive_number_is_refused(place, limit):
    code, _, err, _ = run_cli(["count", str(place / "tiny.toml"), "--time-limit", limit],
                              UNLIMITED)
    assert code == 2 and "--time-limit" in err
    check_outcome(["--time-limit", limit], code, err)


@pytest.mark.parametrize("jobs", ["64", "100000"])
def test_many_jobs_are_capped_or_refused(place, jobs):
    code, out, err, seconds = run_cli(["count", str(place / "tiny.toml"), "--jobs", jobs],
                                      UNLIMITED)
    check_outcome(["--jobs", jobs], code, err)
    assert code == 0 or (code == 2 and "--jobs" in err), err


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "mind-lock", "--from", "0x76bd98", "--steps", "-1", "-o", "-"],
        ["export", "mind-lock", "--from", "0x76bd98", "--steps", "100000", "-o", "out.cnf"],
        ["generate", "100000", "-o", "out.txt"],
    ],
)
def test_sizes_beyond_reach_are_refused_or_bounded(place, argv):
    code, _, err, seconds = run_cli(argv, UNLIMITED)
    check_outcome(argv, code, err)
    if "-1" in argv:
        assert code == 2 and "0 or more" in err


def test_a_huge_board_is_refused_or_stops_within_its_time_limit(place):
    """200x200 cells and 40,000 monominoes once used 2.5 GB and printed nothing for a minute."""
    pieces = "\n".join(f'm{k} = "X"' for k in range(40_000))
    board = "\n".join(["X" * 200] * 200)
    (place / "huge.toml").write_text(
        f'kind = "packing"\nboard = """\n{board}\n"""\n[pieces]\n{pieces}\n'
    )
    run = run_subprocess(["count", "huge.toml", "--time-limit", "10"], place, 10 + 2 * GRACE)
    assert run.returncode in (0, 1, 2) and "Traceback" not in run.stderr, run.stderr
