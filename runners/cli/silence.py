"""No command runs silent: a line on standard error when the program has said nothing for a
while (issue 42: every command that can run long says what it is doing within 10 s).

Progress bars are drawn only on a terminal; a count piped into a file, a table built by a
script or a benchmark in CI printed nothing for minutes, which reads as a hang. `watching`
notes every write to standard output and error; after FIRST seconds without one it says which
command is still at work and for how long, then again after each AGAIN seconds of silence. A
command that prints (a bar, progress lines, results) is never interrupted by it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..models.words import duration

FIRST = 5.0  # seconds of silence before the first line
AGAIN = 60.0  # seconds of silence before each line after it
# set by a command that now waits for others (`puzzlesat serve` once it listens): its silence
# is no hang, and nothing more is said of it
RESTING = threading.Event()


def at_rest() -> None:
    """The command has said what it does and now waits (a server): no more lines of silence."""
    RESTING.set()


class Noted:
    """A stream that notes the time of its last write and is otherwise the stream itself."""

    def __init__(self, stream, clock: list[float]) -> None:
        self._stream = stream
        self._clock = clock

    def write(self, text: str) -> int:
        if text:
            self._clock[0] = time.monotonic()
        return self._stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def watching(what: str) -> Iterator[None]:
    """Say on standard error that `what` is still at work whenever it has been silent long."""
    began = time.monotonic()
    clock = [began]
    RESTING.clear()
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Noted(streams[0], clock), Noted(streams[1], clock)
    done = threading.Event()

    def watch() -> None:
        wait = FIRST
        while not done.wait(max(0.1, clock[0] + wait - time.monotonic())):
            if RESTING.is_set():
                return
            if time.monotonic() - clock[0] < wait:
                continue  # something was said meanwhile
            try:
                print(f"puzzlesat: {what}: still at work ({duration(time.monotonic() - began)})",
                      file=sys.stderr, flush=True)
            except (OSError, ValueError):  # standard error closed (a broken pipe)
                return
            wait = AGAIN

    watcher = threading.Thread(target=watch, name="silence", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        if isinstance(sys.stdout, Noted):
            sys.stdout = streams[0]
        if isinstance(sys.stderr, Noted):
            sys.stderr = streams[1]
