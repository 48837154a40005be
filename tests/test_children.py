"""Nothing hangs: child processes that die or cannot start are noticed, signals end everything.

The API is run as a user runs it (a script file, a script on standard input, `python -c`), and
SIGTERM or SIGINT is sent while its pool starts; afterwards no process of the run is left.
"""

from __future__ import annotations

import contextlib
import copy
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _patience import HANG

from puzzlesat import children
from puzzlesat.children import Pool, WorkerDied, run_in_child
from puzzlesat.models.errors import PuzzlesatWarning

METHODS = ["fork", "spawn"]


def session_processes(session: int) -> set[int]:
    """The processes of a session (read from /proc): a run started in a session of its own."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def descendants(pid: int) -> set[int]:
    found, parents = set(), {pid}
    for _ in range(4):
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except OSError:
                    continue
                if parent in parents:
                    found.add(int(entry.name))
        parents |= found
    return found


@pytest.mark.parametrize("method", METHODS)
def test_a_worker_that_cannot_start_is_noticed(method):
    with pytest.warns(PuzzlesatWarning, match="starting the workers forked instead") \
            if method == "spawn" else _nothing():
        with pytest.raises(WorkerDied) as died, Pool(2, os._exit, (3,), method=method) as pool:
            list(pool.results([1, 2, 3]))
    message = str(died.value)
    assert "\n" not in message and "exited with code 3 before it started" in message


def test_a_worker_killed_while_working_is_noticed():
    begin = time.monotonic()
    with pytest.raises(WorkerDied, match="was killed by SIGKILL .*while working"), \
            Pool(2, copy.copy, (signal.raise_signal,), method="fork") as pool:
        list(pool.results([signal.SIGKILL] * 4))
    assert time.monotonic() - begin < HANG  # noticed at all: a death missed hangs


def test_a_pool_answers_every_task():
    with Pool(2, copy.copy, (abs,), method="spawn") as pool:
        answers = dict(pool.results([-1, -2, -3, 4, -5]))
    assert answers == {-1: 1, -2: 2, -3: 3, 4: 4, -5: 5}
    assert not pool.workers


@pytest.mark.parametrize("method", METHODS)
def test_a_child_is_ended_at_its_time_limit(method):
    begin = time.monotonic()
    assert run_in_child(time.sleep, (60,), 0.5, method=method) == (False, None)
    assert time.monotonic() - begin < 30  # half the child's 60 s: ended, however busy the machine
    assert not descendants(os.getpid()) - _resource_tracker()


def test_a_child_answers_raises_and_dies_in_one_line():
    assert run_in_child(pow, (2, 10), 30, method="fork") == (True, 1024)
    with pytest.raises(ValueError, match="invalid literal"):
        run_in_child(int, ("x",), 30, method="fork")
    with pytest.raises(WorkerDied, match="^the solve exited with code 7"):
        run_in_child(os._exit, (7,), 30, label="the solve", method="fork")


def test_spawn_falls_back_where_main_cannot_be_imported_again(monkeypatch):
    monkeypatch.setattr(sys.modules["__main__"], "__spec__", None, raising=False)
    monkeypatch.setattr(sys.modules["__main__"], "__file__", "<stdin>", raising=False)
    assert not children.main_reimportable()
    assert children.start_method() == "fork"
    assert children.start_method("forkserver") == "forkserver"


# ---------------------------------------------------------------- the API run as users run it

LONG = """\
import puzzlesat

if __name__ == "__main__":
    print("go", flush=True)
    found = puzzlesat.count("pentomino-6x10", backend="pysat:cadical195", jobs=2)
    print("complete" if found.complete else "incomplete", found.number, flush=True)
"""
# the issue's script: it hung from standard input (spawned workers died re-importing <stdin>)
ISSUE = """\
import puzzlesat

if __name__ == "__main__":
    found = puzzlesat.count(puzzlesat.load("diamond-blocks", level=2), jobs=2)
    print("complete" if found.complete else "incomplete", found.number, flush=True)
"""


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def launch(how: str, tmp_path: Path, script: str = LONG) -> subprocess.Popen:
    command = [sys.executable]
    stdin = None
    if how == "file":
        path = tmp_path / "count.py"
        path.write_text(script)
        command.append(str(path))
    elif how == "stdin":
        command.append("-")
        stdin = subprocess.PIPE
    else:
        command += ["-c", script]
    # Ctrl-C as a terminal gives it: a program started with SIGINT ignored (by `nohup cmd &` in
    # a shell without job control, as a CI script may be) keeps it ignored, as POSIX says
    process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               cwd=tmp_path, preexec_fn=_default_sigint)
    if stdin:
        process.stdin.write(script)
        process.stdin.close()
        process.stdin = None  # read: communicate() sends nothing more
    return process


# a file's run spawns as `python -c` does: the default run tries standard input (forked) and -c
MAINS = [pytest.param("file", marks=pytest.mark.slow), "stdin", "-c"]


@pytest.mark.parametrize("how", MAINS)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_while_the_pool_starts_ends_everything(how, sig, tmp_path):
    process = launch(how, tmp_path)
    assert process.stdout.readline() == "go\n"
    end = time.monotonic() + 60
    while not descendants(process.pid) and time.monotonic() < end:  # the pool is starting
        time.sleep(0.01)
    assert descendants(process.pid), "no worker was started"
    process.send_signal(sig)
    out, err = process.communicate(timeout=HANG)
    assert "Traceback" not in err, err
    if sig == signal.SIGTERM:
        assert process.returncode == -signal.SIGTERM, err
    else:  # Ctrl-C: the count stops early and says so
        assert process.returncode == 0 and out.startswith("incomplete"), (out, err)
    end = time.monotonic() + 5
    while session_processes(process.pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not session_processes(process.pid), "processes were left behind"


@pytest.mark.parametrize("how", [pytest.param("file", marks=pytest.mark.slow), "stdin",
                                 pytest.param("-c", marks=pytest.mark.slow)])
def test_the_api_counts_from_every_kind_of_main(how, tmp_path):
    process = launch(how, tmp_path, ISSUE)
    out, err = process.communicate(timeout=HANG)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert out.splitlines()[-1] == "complete 12"


# a plain script, as a reader saves the pages' sessions: no `if __name__ == "__main__"` guard.
# It hung for ever (issue 42): each spawned worker ran the script again, died trying to start
# workers of its own, and the parent, signals held, waited to write to it (SIGTERM ignored).
PLAIN = """\
import puzzlesat
print(puzzlesat.verify("iq-block-8", backends=["cpsat", "reference"]).agree, flush=True)
"""
PLAIN_LONG = """\
import puzzlesat
print("go", flush=True)
found = puzzlesat.count("pentomino-6x10", backend="pysat:cadical195", jobs=2)
print("complete" if found.complete else "incomplete", found.number, flush=True)
"""


def test_a_plain_script_without_a_main_guard_runs(tmp_path):
    process = launch("file", tmp_path, PLAIN)
    try:
        out, err = process.communicate(timeout=600)
    finally:
        kill_session(process)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert out == "True\n"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_ends_a_plain_script_and_its_workers(sig, tmp_path):
    process = launch("file", tmp_path, PLAIN_LONG)
    try:
        assert process.stdout.readline() == "go\n"
        end = time.monotonic() + 120
        while len(descendants(process.pid)) < 2 and time.monotonic() < end:  # workers started
            time.sleep(0.05)
        time.sleep(1.0)  # their work handed over
        process.send_signal(sig)
        out, err = process.communicate(timeout=120)
    finally:
        kill_session(process)
    assert "Traceback" not in err, err
    if sig == signal.SIGTERM:
        assert process.returncode == -signal.SIGTERM, err
    else:
        assert process.returncode == 0 and out.startswith("incomplete"), (out, err)
    _no_process_left(process)


def kill_session(process: subprocess.Popen) -> None:
    """Whatever a failed test left running (a run started in a session of its own)."""
    for pid in session_processes(process.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _no_process_left(process: subprocess.Popen) -> None:
    end = time.monotonic() + 10
    while session_processes(process.pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not session_processes(process.pid), "processes were left behind"


def _nothing():
    import contextlib

    return contextlib.nullcontext()


def _resource_tracker() -> set[int]:
    """multiprocessing's resource tracker: one process, alive as long as this one."""
    from multiprocessing import resource_tracker

    pid = getattr(resource_tracker._resource_tracker, "_pid", None)
    return {pid} if pid else set()


def test_a_worker_killed_during_a_count_gives_an_incomplete_count_and_a_warning():
    """The count does not wait for a dead worker: it keeps what was counted, says it is
    incomplete, and warns why (one line)."""
    import threading

    import puzzlesat

    def kill_a_worker() -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            workers = [p for p in descendants(os.getpid()) - _resource_tracker()]
            if len(workers) >= 2:
                time.sleep(1.0)  # some cubes under way
                os.kill(min(workers), signal.SIGKILL)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_a_worker)
    killer.start()
    with pytest.warns(puzzlesat.PuzzlesatWarning, match="stopped early: .* killed by SIGKILL"):
        count = puzzlesat.count("pentomino-6x10", "pysat:cadical195", jobs=2)
    killer.join()
    assert not count.complete and count.number < 9356
    assert not descendants(os.getpid()) - _resource_tracker()
