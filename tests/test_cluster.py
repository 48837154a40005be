"""A real cluster that survives its faults (issue 40, item 2): a `dask scheduler` and `dask
worker` processes on this machine's loopback, a count through `dask://HOST:PORT`, then a worker
killed midway (its cubes run again elsewhere: the count is exact) and, in another count, the
scheduler killed midway (the count stops in one line, and resumes from its checkpoint to the
exact total once a scheduler is back). The commands are the README's cluster section's.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

PUZZLE, SOLUTIONS = "pentomino-5x12", 4_040  # CP-SAT lists each: tens of seconds on 2 workers
HANG = 600


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A scheduler and its workers, each a process of its own, started and killed at will."""

    def __init__(self, folder: Path) -> None:
        self.dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or \
            shutil.which("dask")
        if self.dask is None:
            pytest.skip("the dask command is not installed: pip install 'puzzlesat[cluster]'")
        self.folder, self.port = folder, free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []

    def start(self, workers: int = 2) -> None:
        self.scheduler = self._process("scheduler", "--host", "127.0.0.1", "--port",
                                       str(self.port), "--no-dashboard")
        self.workers += [self._process("worker", self.address, "--nthreads", "1",
                                       "--no-dashboard", "--host", "127.0.0.1")
                         for _ in range(workers)]
        from dask.distributed import Client

        with Client(self.address, timeout=120) as client:
            client.wait_for_workers(workers, timeout=HANG)

    def _process(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen([self.dask, *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=self.folder)

    def kill_scheduler(self) -> None:
        self.scheduler.send_signal(signal.SIGKILL)
        self.scheduler.wait(timeout=30)

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=30)
        self.workers, self.scheduler = [], None


@pytest.fixture
def cluster(tmp_path):
    made = Cluster(tmp_path)
    yield made
    made.stop()


def start_count(cluster: Cluster, checkpoint: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "puzzlesat", "count", PUZZLE, "--backend", "cpsat",
         "--executor", f"dask://127.0.0.1:{cluster.port}", "--checkpoint", str(checkpoint),
         "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def cubes_recorded(checkpoint: Path) -> int:
    """Cubes a checkpoint holds (a line each, after its header line)."""
    try:
        return max(0, len(checkpoint.read_text().splitlines()) - 1)
    except OSError:
        return 0


def midway(count: subprocess.Popen, checkpoint: Path, cubes: int = 2) -> None:
    """Wait until the count has recorded `cubes` cubes (it is under way), still running."""
    end = time.monotonic() + HANG
    while cubes_recorded(checkpoint) < cubes and time.monotonic() < end:
        assert count.poll() is None, count.communicate()
        time.sleep(0.2)
    assert count.poll() is None, "the count ended before the fault: make it longer"


@pytest.mark.slow
def test_a_worker_killed_midway_loses_nothing(cluster, tmp_path):
    cluster.start(workers=2)
    checkpoint = tmp_path / "count.checkpoint"
    count = start_count(cluster, checkpoint)
    midway(count, checkpoint)
    cluster.workers[0].send_signal(signal.SIGKILL)  # its cubes run again on the other worker
    out, err = count.communicate(timeout=HANG)
    assert count.returncode == 0, err
    assert "Traceback" not in err
    found = json.loads(out)
    assert found["complete"] and found["count"] == SOLUTIONS


@pytest.mark.slow
def test_a_scheduler_killed_midway_stops_in_one_line_and_the_count_resumes(cluster, tmp_path):
    cluster.start(workers=2)
    checkpoint = tmp_path / "count.checkpoint"
    count = start_count(cluster, checkpoint)
    midway(count, checkpoint)
    cluster.kill_scheduler()
    out, err = count.communicate(timeout=HANG)
    assert count.returncode == 1, (out, err)
    assert "Traceback" not in err and "lost the Dask scheduler" in err, err
    stopped = json.loads(out)
    assert not stopped["complete"] and stopped["count"] <= SOLUTIONS
    done_before = cubes_recorded(checkpoint)
    cluster.stop()
    cluster.start(workers=2)  # a scheduler back at the same address
    resumed = start_count(cluster, checkpoint)
    out, err = resumed.communicate(timeout=HANG)
    assert resumed.returncode == 0, err
    found = json.loads(out)
    assert found["complete"] and found["count"] == SOLUTIONS
    assert done_before > 0 and cubes_recorded(checkpoint) >= done_before
