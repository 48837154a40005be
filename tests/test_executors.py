"""The same counts on every executor: the local pool, a Dask LocalCluster, a Dask scheduler."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _patience import HANG

import puzzlesat

pytest.importorskip("dask.distributed", reason="Dask is an extra: pip install 'puzzlesat[cluster]'")

CASES = [("iq-block-8", "symmetry", 6), ("iq-block-8", "none", 48), ("pentomino-3x20", "none", 8)]


@pytest.mark.parametrize("executor", ["local", "dask-local:2"])
@pytest.mark.parametrize("name, modulo, number", CASES)
def test_the_same_count_on_each_executor(executor, name, modulo, number):
    found = puzzlesat.count(name, modulo=modulo, jobs=2, executor=executor)
    assert found.complete and found.number == number
    assert found.executor == executor


@pytest.mark.parametrize("executor", ["local", "dask-local:2"])
def test_a_board_past_126_items_with_copies_counts_alike_on_each_executor(executor):
    """Issue 27 item 1 (no item limit, "every executor as today"): a board of three 63-bit
    words (126 cells and one piece with 63 copies, a counter) counted on threads of this
    process and on a Dask LocalCluster's worker processes (the payload pickled, a memo per
    worker): every tiling as Kasteleyn's formula gives it, and the classes alike."""
    from test_engine import kasteleyn

    from puzzlesat.backends.bitboard import board_of
    from puzzlesat.models.packing import PackingPuzzle, Piece, exact_cover, placements
    from puzzlesat.models.packing.encode import encode_cover

    puzzle = PackingPuzzle("d9x14", ("X" * 14,) * 9, (Piece("domino", ("XX",), 63),), True)
    assert board_of(encode_cover(exact_cover(puzzle, placements(puzzle)))).words == 3
    every = puzzlesat.count(puzzle, modulo="none", jobs=2, executor=executor)
    assert every.complete and every.executor == executor and every.number == kasteleyn(9, 14)
    classes = puzzlesat.count(puzzle, modulo="symmetry", jobs=2, executor=executor)
    assert classes.complete and classes.details["solutions"] == every.number
    assert classes.number == puzzlesat.count(puzzle, modulo="symmetry", jobs=1).number


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A real `dask scheduler` and two `dask worker` processes on 127.0.0.1."""
    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed")
    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    started = [subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(address_file)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)]
    try:
        end = time.time() + 60
        while not address_file.exists() and time.time() < end:
            time.sleep(0.2)
        assert address_file.exists(), "the scheduler did not start"
        for _ in range(2):
            started.append(subprocess.Popen(
                [dask, "worker", "--scheduler-file", str(address_file), "--nthreads", "1",
                 "--no-dashboard", "--host", "127.0.0.1"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder))
        address = json.loads(address_file.read_text())["address"]
        from dask.distributed import Client

        with Client(address, timeout=300) as client:
            client.wait_for_workers(2, timeout=HANG)
        yield address.replace("tcp://", "dask://")
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            process.wait(timeout=30)


@pytest.mark.parametrize("name, modulo, number", CASES)
def test_the_same_count_on_a_dask_scheduler_with_two_workers(scheduler, name, modulo, number):
    found = puzzlesat.count(name, modulo=modulo, jobs=2, executor=scheduler)
    assert found.complete and found.number == number


def test_the_command_line_takes_an_executor(scheduler):
    result = subprocess.run(
        [sys.executable, "-m", "puzzlesat.cli", "count", "iq-block-8", "--modulo", "symmetry",
         "--executor", scheduler, "--json"], capture_output=True, text=True, timeout=HANG)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["count"] == 6


def test_unknown_executors_are_one_line_errors():
    result = subprocess.run(
        [sys.executable, "-m", "puzzlesat.cli", "count", "iq-block-8", "--executor", "slurm"],
        capture_output=True, text=True, timeout=HANG)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--executor" in result.stderr


def test_cubes_left_when_the_deadline_passes_are_not_started(monkeypatch):
    """Regression: `count heptiamonds-28x3-chevron --jobs 2 --checkpoint F --time-limit 12` ran
    108 s (stopped by Ctrl-C): a chunk's cubes were each started after the deadline, and each
    spent seconds on its search's estimates before its first look at the clock."""
    from puzzlesat import executors
    from puzzlesat.counting import run
    from puzzlesat.executors import LocalExecutor, Work

    started = []

    class SlowToStart:
        def count_cube(self, state, cube, deadline):
            started.append(cube)
            time.sleep(0.4)  # the set-up, before the search looks at the clock
            return (1,), time.time() < deadline

    monkeypatch.setattr(executors, "_state", lambda *args: (SlowToStart(), None))
    from puzzlesat.backends.bitboard import BitboardBackend  # its threads' payload: none here

    monkeypatch.setattr(BitboardBackend, "share", lambda self, payload, threads: payload)
    work = Work("slow", "bitboard", None, [(k,) for k in range(12)], stops_itself=True)
    for jobs in (1, 2):  # in this process, and on threads (chunks of cubes)
        started.clear()
        begin = time.time()
        [tally], interrupted = run([work], LocalExecutor(), jobs, begin + 0.6)
        assert not interrupted  # the cubes started (below) show the stop, not the clock
        assert len(started) <= 2 * jobs + 1 and not tally.complete  # 12 x 0.4 s before
        assert tally.total() == sum(1 for v in tally.values if v is not None) == len(started)


# a count whose Dask workers are killed again and again (a worker that dies is noticed there too)
KILLED_AGAIN = """\
import os, signal, threading, time
import psutil
import puzzlesat

def kill():
    end = time.monotonic() + 600
    while time.monotonic() < end:
        for child in psutil.Process().children(recursive=True):
            try:
                if "spawn_main" in " ".join(child.cmdline()) and child.cpu_times().user > 2:
                    os.kill(child.pid, signal.SIGKILL)
            except psutil.Error:
                pass
        time.sleep(0.5)

threading.Thread(target=kill, daemon=True).start()
found = puzzlesat.count("bedlam", executor="dask-local:2", jobs=2)
print("complete" if found.complete else "incomplete", found.number, flush=True)
"""


@pytest.mark.slow
def test_a_dask_worker_killed_again_and_again_is_noticed(tmp_path):
    script = tmp_path / "killed.py"
    script.write_text(KILLED_AGAIN)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            cwd=tmp_path, timeout=900)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.startswith("incomplete"), result.stdout
    assert "the count stopped early: the Dask workers died" in result.stderr
