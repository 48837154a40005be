"""One command timed as a whole process: the benchmarks that time what a user runs (a first
install, the catalog's pictures, the pages' commands) measure it the same way.

The command runs in a session of its own, so that it and every process it starts are ended
together at the timeout, on Ctrl-C or on SIGTERM. Its CPU seconds are its own and those of every
child it waited for (`os.wait4`): on a shared machine the wall measures the other work too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

QUIET = 2.0  # load average at or below which a command's wall is its time, else its CPU


def timed(command: list[str], timeout: float, cwd: str | Path | None = None,
          env: dict | None = None) -> dict:
    """Run a command to its end or its timeout: wall and CPU seconds, exit code ('code'), what
    it printed ('out', 'err'), whether it was killed at the timeout ('killed'), and the load
    average when it started ('load')."""
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="puzzlesat-timed-") as scratch:
        with open(Path(scratch) / "out", "w+") as out, open(Path(scratch) / "err", "w+") as err:
            start = time.perf_counter()
            child = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
            code, usage, killed = _wait(child, timeout)
            wall = time.perf_counter() - start
            out.seek(0)
            err.seek(0)
            return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "code": code,
                    "out": out.read(), "err": err.read(), "killed": killed, "load": load}


def judged(wall: float, cpu: float, load: float) -> float:
    """The seconds a command is held to: its wall where the machine was quiet when it started,
    else its CPU seconds, which bound the wall a quiet 2-core machine would show for a command
    on one core (a shared machine's wall measures the other work too)."""
    return wall if load <= QUIET else cpu


def _wait(child: subprocess.Popen, timeout: float) -> tuple[int, os.struct_rusage, bool]:
    """The child's exit code and resource use; its whole group killed at the timeout."""
    deadline = time.monotonic() + timeout
    killed = False
    try:
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                child.returncode = os.waitstatus_to_exitcode(status)
                return child.returncode, usage, killed
            if time.monotonic() > deadline and not killed:
                killed = True
                _end_group(child.pid)
            time.sleep(0.05)
    finally:  # also on Ctrl-C or SIGTERM: the command runs in a session of its own
        _end_group(child.pid)


def _end_group(pid: int) -> None:
    """Nothing of the command's process group is left running."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
