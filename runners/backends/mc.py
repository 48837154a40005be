"""Model counters as backends: `mc:NAME` counts a CNF model's solutions without listing them.

A model counter (Ganak, tididi-cnf) reads the family's CNF and answers with the number of its
models, found by component caching or by compiling the formula, never one solution at a time.
The count is projected onto the model's keys (the placement variables) wherever the encoding
has other variables: by the keys contract (models/encoded.py) those follow from the keys, so
the projected count is the number of solutions however many auxiliary variables an encoding
adds (cardinality counters included). A cube's literals become unit clauses.

Each count runs in a child process (runners/children.py) ended at the time limit, on Ctrl-C
or SIGTERM, and under a memory limit (RLIMIT_AS, `PUZZLESAT_MC_MEMORY_MB`, default
DEFAULT_MEMORY_MB): a counter that runs out says so in one line. A counter cannot report a
partial count, so a count stopped by the time limit counts nothing (0, a lower bound) and is
incomplete. Counters only count: `solve` and the listing of solutions refuse them.

Probabilistic options: neither counter approximates (Ganak's switch to ApproxMC after a
timeout is off by default and pyganak never sets it; ApproxMC's (epsilon, delta) counts are not
offered). tididi-cnf compiles the formula; its counts are exact (its documentation's word).
Ganak's component cache is keyed by hashes by default (its command line's `--prob 1`), and
pyganak 2.9 offers no way to switch that off: a hash collision, with the tiny probability
Ganak's command line reports as delta, could make its count wrong. `puzzlesat backends` says
so (`Counter.exactness`), and the tests check both counters against the compiled searches and
the reference.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import multiprocessing
import os
import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..children import WorkerDied, run_in_child
from ..models.encoded import CnfModel
from ..models.errors import InputError
from . import Backend, Cube, Interrupted, Outcome, Values

DEFAULT_MEMORY_MB = 4096  # each count's address space, at most (PUZZLESAT_MC_MEMORY_MB)
MEMORY_VARIABLE = "PUZZLESAT_MC_MEMORY_MB"


class CounterFailed(WorkerDied):
    """A counter ended without a count (to the counting engine a worker's death: the count
    stops, incomplete, and says why in one line)."""


class OutOfMemory(CounterFailed):
    """A counter ran out of the memory it was given."""


@dataclass(frozen=True)
class Counter:
    """One model counter: the Python distribution that brings it, the module to import, its
    upstream, its licence, and the function that counts (clauses, variables, projection)."""

    name: str
    distribution: str
    module: str
    upstream: str
    licence: str
    count: Callable[[list[list[int]], int, list[int] | None, int], int]
    exactness: str  # how exact its count is, said with every count

    def installed(self) -> bool:
        return importlib.util.find_spec(self.module) is not None

    def version(self) -> str:
        try:
            return importlib.metadata.version(self.distribution)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def credit(self) -> str:
        """Name, version and licence, as a count's output gives them."""
        return f"{self.upstream} {self.version()}, {self.licence}"


def _ganak(clauses: list[list[int]], nvars: int, show: list[int] | None, memory_mb: int) -> int:
    import pyganak

    counter = pyganak.Counter(verbose=0, seed=0)
    counter.new_vars(nvars)
    counter.add_clauses(clauses)
    if show is not None:
        counter.set_sampling_set(show)
    return int(counter.count())


def _tididi(clauses: list[list[int]], nvars: int, show: list[int] | None, memory_mb: int) -> int:
    import tididi_cnf

    try:
        if show is None:
            answer = tididi_cnf.count(clauses, mode="mc", num_vars=nvars, mem_limit_mb=memory_mb)
        else:
            answer = tididi_cnf.count(clauses, mode="pmc", num_vars=nvars, show=show,
                                      mem_limit_mb=memory_mb)
    except tididi_cnf.Error as error:
        if "memory" in str(error).lower():
            raise MemoryError(str(error)) from None
        raise CounterFailed(f"mc:tididi gave no count: {error}") from None
    return int(answer.count)


COUNTERS = {
    "ganak": Counter("ganak", "pyganak", "pyganak", "Ganak", "MIT (FlowCutter: BSD-2-Clause)",
                     _ganak, "exact but for its hashed cache, which pyganak cannot switch off"),
    "tididi": Counter("tididi", "tididi-cnf", "tididi_cnf", "tididi-cnf", "Apache-2.0",
                      _tididi, "exact: a compilation, nothing probabilistic"),
}
EXTRA = "pip install 'puzzlesat[mc]'"


def installed_counters() -> list[str]:
    """The `mc:NAME` backends whose counter is installed here."""
    return [f"mc:{name}" for name, counter in COUNTERS.items() if counter.installed()]


def memory_mb() -> int:
    """Each count's memory limit in MiB (the environment's PUZZLESAT_MC_MEMORY_MB, if set)."""
    text = os.environ.get(MEMORY_VARIABLE, "")
    if not text:
        return DEFAULT_MEMORY_MB
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 64:
        raise InputError(f"{MEMORY_VARIABLE} must be a whole number of MiB, at least 64, not "
                         f"{text!r}", field="backend")
    return value


@contextmanager
def _address_space(limit_mb: int) -> Iterator[None]:
    """This process's address space held to `limit_mb` MiB more than it uses now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    wanted = used + limit_mb * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextmanager
def _quiet() -> Iterator[None]:
    """The counter's own printing (to the process's standard output and error, past Python's
    sys.stdout) sent to /dev/null: a count's output, JSON included, stays ours."""
    saved = [os.dup(fd) for fd in (1, 2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            os.dup2(null, fd)
        yield
    finally:
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)


def count_models(name: str, clauses: list[list[int]], nvars: int, show: list[int] | None,
                 limit_mb: int) -> int:
    """One count by the counter `name`, under the memory limit (run in a child process)."""
    counter = COUNTERS[name]
    if any(not clause for clause in clauses):  # an empty clause: no model (a counter may drop it)
        return 0
    try:
        with _address_space(limit_mb), _quiet():
            return counter.count(clauses, nvars, show, limit_mb)
    except (MemoryError, RuntimeError) as error:
        if isinstance(error, CounterFailed) or not (
                isinstance(error, MemoryError) or "bad_alloc" in str(error)):
            raise
        raise OutOfMemory(f"mc:{name} ran out of memory (its limit: {limit_mb:,} MiB; "
                          f"set {MEMORY_VARIABLE} to give it more)") from None


class McBackend(Backend):
    """A model counter counting a CNF model (projected onto its keys) without listing it."""

    takes = "cnf"
    cubes_per_job = 1  # a counter counts whole: a cube is a count of its own
    stops_itself = True  # each count runs in a child ended at the deadline
    can_solve = False

    def __init__(self, counter: str) -> None:
        if counter not in COUNTERS:
            raise InputError(f"unknown model counter {counter!r}; known: "
                             f"{', '.join(f'mc:{n}' for n in COUNTERS)}", field="backend")
        self.counter = COUNTERS[counter]
        self.name = f"mc:{counter}"
        self.about = (f"the model counter {self.counter.credit()} ({self.counter.distribution}"
                      f"; {self.counter.exactness})")
        self.needs = f"{self.counter.distribution} is not installed: {EXTRA}"
        self.why_not_solve = (f"{self.name} counts solutions without listing them: it cannot "
                              "solve; solve with cpsat or pysat:NAME")

    def supported(self) -> bool:  # type: ignore[override]  # per counter, so per instance
        return self.counter.installed()

    def credit(self) -> str:
        return self.counter.credit()

    def solve(self, model: CnfModel, time_limit: float | None = None) -> Outcome:
        raise InputError(self.why_not_solve, field="backend")

    def enumerate(self, state, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        raise InputError(f"{self.name} counts solutions without listing them; list them with "
                         "another backend (reference, cpsat, pysat:NAME)", field="backend")

    def payload(self, model: CnfModel) -> tuple:
        # projected onto the keys wherever other variables exist (they follow from the keys)
        show = None if model.nvars == len(model.keys) else list(model.keys)
        return (model.clauses, model.nvars, model.keys, show)

    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        clauses, nvars, keys, show = state
        units = [[keys[abs(lit) - 1] * (1 if lit > 0 else -1)] for lit in cube]
        args = (self.counter.name, clauses + units, nvars, show, memory_mb())
        left = None if deadline is None else deadline - time.time()
        if left is not None and left <= 0:
            return (0,), False
        if multiprocessing.current_process().daemon:
            # a pool worker may start no child: it counts itself, and the pool ends it at the
            # deadline
            return (count_models(*args),), True
        try:
            answered, found = run_in_child(count_models, args, left,
                                           label=f"the {self.name} count", method="fork")
        except KeyboardInterrupt:
            raise Interrupted((0,)) from None
        except CounterFailed:
            raise
        except WorkerDied as died:  # killed, or aborted (tididi-cnf's allocator at its limit)
            raise OutOfMemory(f"{died}: no count (out of memory? its limit: {memory_mb():,} "
                              f"MiB; set {MEMORY_VARIABLE} to give it more)") from None
        if not answered:
            return (0,), False
        return (int(found),), True

