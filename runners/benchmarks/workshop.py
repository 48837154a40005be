"""The workshop's count against the command line's (issue 41): from a click to the number.

The anchor is `puzzlesat count PUZZLE`'s wall, a whole process (start-up included), as a user
at a terminal waits for it. The workshop is a `puzzlesat serve` started once on a scratch
folder; each of its runs is what a click on "Count" does: the count asked for over HTTP, then
its progress asked for every 0.25 s as the page asks (static/puzzle.js), until the number is
there. The two are run in turns, so that both see the same load; medians of `--repeat` runs,
their ratio against the target of 1.5, and the two numbers, which must agree. The library side
of `puzzlesat bench workshop`; the figures in results/workshop-bench.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timezone

from ..models.errors import InputError
from ..models.words import plural

TARGET = 1.5  # the workshop's wall over the command line's, at most (issue 41)
POLL = 0.25  # seconds between a page's questions about its count
LIMIT = 3600.0  # seconds a run may take before the benchmark gives up on it


def command_line(puzzle: str) -> tuple[float, int]:
    """`puzzlesat count PUZZLE` timed whole: (wall seconds, the number it printed)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "puzzlesat", "count", puzzle, "--json"],
                          capture_output=True, text=True, timeout=LIMIT)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"puzzlesat count {puzzle} failed: {done.stderr.strip()[-400:]}")
    return wall, int(json.loads(done.stdout)["count"])


class Served:
    """`puzzlesat serve --port 0` on a scratch folder."""

    def __init__(self, folder: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "puzzlesat", "serve", "--port", "0", "--folder", folder],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        found = re.search(r"http://\S+/", self.process.stdout.readline() if ready else "")
        if not found:
            self.close()
            raise RuntimeError("puzzlesat serve printed no address")
        self.url = found.group(0)

    def ask(self, path: str, data: dict | None = None) -> dict:
        request = urllib.request.Request(
            self.url + path, None if data is None else json.dumps(data).encode(),
            {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=LIMIT) as answer:
            return json.loads(answer.read())

    def count(self, puzzle: str) -> tuple[float, int]:
        """A click on Count, to the number shown: (wall seconds, the number)."""
        start = time.perf_counter()
        status = self.ask("api/count", {"puzzle": puzzle, "modulo": "none"})
        while status["state"] in ("running", "stopping"):
            if time.perf_counter() - start > LIMIT:
                raise RuntimeError(f"the workshop's count of {puzzle} took over {LIMIT:g} s")
            time.sleep(POLL)
            status = self.ask(f"api/jobs/{status['id']}")
        wall = time.perf_counter() - start
        if status["state"] != "done":
            raise RuntimeError(f"the workshop's count ended {status['state']}: "
                               f"{status['message']}")
        return wall, int(status["answer"]["count"])

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.communicate()


def measure(puzzle: str, repeat: int, say) -> dict:
    """Both timed in turns: their walls and numbers."""
    walls: dict[str, list[float]] = {"command line": [], "workshop": []}
    numbers: set[int] = set()
    with tempfile.TemporaryDirectory(prefix="puzzlesat-workshop-bench-") as folder:
        served = Served(folder)
        try:
            for run in range(1, repeat + 1):
                for name, timed in (("command line", command_line), ("workshop", served.count)):
                    wall, number = timed(puzzle)
                    walls[name].append(wall)
                    numbers.add(number)
                    say(f"run {run}: {name}: {number:,} in {wall:.2f} s")
        finally:
            served.close()
    if len(numbers) != 1:
        raise RuntimeError(f"the counts differ: {sorted(numbers)}")
    medians = {name: statistics.median(w) for name, w in walls.items()}
    return {"puzzle": puzzle, "number": numbers.pop(), "walls": walls, "medians": medians,
            "ratio": medians["workshop"] / medians["command line"]}


def table(found: dict) -> str:
    """results/workshop-bench.md."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    verdict = "met" if found["ratio"] <= TARGET else "NOT met"
    rows = "\n".join(
        f"| {name} | {found['medians'][name]:.2f} | "
        f"{', '.join(f'{w:.2f}' for w in walls)} |" for name, walls in found["walls"].items())
    return (
        "# The workshop's count against `puzzlesat count` (issue 41)\n\n"
        f"`puzzlesat bench workshop {found['puzzle']} --record`, {when}, "
        f"{plural(os.cpu_count() or 1, 'core')}, load {load:.1f} at the end, Python "
        f"{platform.python_version()}.\n\n"
        f"Both counted {plural(found['number'], 'solution')} of {found['puzzle']}. The command "
        "line: a whole `puzzlesat count` process. The workshop: a count asked for over HTTP from a "
        "running `puzzlesat serve`, its progress asked for every 0.25 s as the page does, to "
        "the number. Run in turns, medians.\n\n"
        "| | median wall (s) | runs (s) |\n|---|---|---|\n"
        f"{rows}\n\n"
        f"Ratio workshop / command line: **{found['ratio']:.2f}** (target at most "
        f"{TARGET:g}: {verdict}).\n")


def bench_workshop(args: argparse.Namespace) -> int:
    """`puzzlesat bench workshop`: exit 1 where the target is not met."""
    from .. import api
    from ..output import record_folder, say, write_results_index, write_text_atomic

    if args.puzzle not in api.catalog():
        raise InputError("the workshop's benchmark counts a catalog puzzle (see 'puzzlesat "
                         f"list'), not {args.puzzle!r}", field="PUZZLE")
    folder = record_folder(args)
    try:
        found = measure(args.puzzle, args.repeat, say)
    except (RuntimeError, OSError) as error:
        raise InputError(str(error), field="suite") from None
    text = table(found)
    print(text)
    if folder is not None:
        path = folder / "workshop-bench.md"
        write_text_atomic(path, text, "the benchmark's table")
        write_results_index(folder)
        print(f"wrote {path}")
    return 0 if found["ratio"] <= TARGET else 1
