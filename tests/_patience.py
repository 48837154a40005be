"""How long a test waits: a test must not fail only because the machine is slow (DEVELOPERS.md).

Issue 42: at load 4-10 on 2 cores the suite ran 4 times slower than on an idle machine, and 9
README commands failed on a 60 s limit that the first counts of a new install spent compiling.
So:
- HANG: a process or a thread that should end in seconds is called hung only after HANG
  seconds: a guard against a hang, never a measure of speed (speed targets live in benchmarks).
- Work done in this process (reading a file, building a model, a search on threads) is
  measured in CPU seconds of this process, `cpu()`, which a busy machine does not stretch as it
  stretches the clock: the figure grows only with the work done.
"""

from __future__ import annotations

import time

HANG = 900.0  # seconds


def cpu() -> float:
    """CPU seconds of this process so far, every thread's."""
    return time.process_time()
