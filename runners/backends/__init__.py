"""Solver backends behind one interface: solve a model, or count its solutions cube by cube.

A backend knows models (CP-SAT or CNF, with their keys) and cubes (signed key literals), never
puzzles. Counting splits the work into cubes that worker processes count independently.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pysolvers
from ortools.sat.python import cp_model
from pysat.solvers import Solver, SolverNames

from ..models.encoded import CnfModel, CpsatModel
from ..models.errors import InputError

Cube = tuple[int, ...]  # +k: key k-1 true; -k: key k-1 false (k is 1-based)


@dataclass
class Outcome:
    """A solve: the keys' values of one solution, or None; 'complete' is False on a time-out."""

    values: list[int] | None
    seconds: float
    complete: bool = True


@dataclass
class Tally:
    """A count per cube (a lower bound where the cube was not finished) and whether all finished."""

    counts: list[int]
    seconds: float
    complete: bool

    @property
    def total(self) -> int:
        return sum(self.counts)


Progress = Callable[[int, int], None]  # (cubes done, solutions so far)


class Backend(ABC):
    """One solver behind the common interface."""

    name: str
    encoding: str  # which model it takes: "cpsat" or "cnf"
    cubes_per_job: int = 8  # how finely counting likes the work split
    stops_itself: bool = True  # whether the solver honours a deadline without being killed

    @abstractmethod
    def solve(self, model, time_limit: float | None = None) -> Outcome: ...

    def count(
        self,
        model,
        cubes: Sequence[Cube],
        jobs: int = 1,
        time_limit: float | None = None,
        progress: Progress | None = None,
    ) -> Tally:
        """Count the solutions in each cube, in `jobs` worker processes."""
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        payload = self._payload(model)
        chunks = _chunks(list(range(len(cubes))), 16 * max(1, jobs) if len(cubes) > 1 else 1)
        counts = [0] * len(cubes)
        finished = [False] * len(cubes)
        complete = True
        jobs_args = [(self.name, [cubes[i] for i in chunk], deadline) for chunk in chunks]

        def record(chunk: list[int], result: list[tuple[int, bool]]) -> None:
            for i, (n, done) in zip(chunk, result):
                counts[i], finished[i] = n, done
            if progress:
                progress(sum(finished), sum(counts))

        partial: list[tuple[int, bool]] = []
        current: list[int] = []
        # with a time limit, worker processes let the deadline be enforced from here, even on
        # solvers that cannot be interrupted (CaDiCaL, Lingeling)
        in_process = (jobs <= 1 or len(chunks) <= 1) and (deadline is None or self.stops_itself)
        try:
            if in_process:
                _init_worker(payload, ignore_interrupt=False)
                for chunk, args in zip(chunks, jobs_args):
                    current[:] = chunk
                    record(chunk, _count_chunk(args, partial))
                current.clear()
            else:
                context = multiprocessing.get_context("spawn")
                with context.Pool(jobs, _init_worker, (payload, True)) as pool:
                    try:
                        results = pool.imap_unordered(_count_indexed, list(enumerate(jobs_args)))
                        while True:
                            # workers stop at the deadline themselves; a second's grace, then we do
                            wait = None if deadline is None else max(0.0, deadline - time.time())
                            wait = None if wait is None else wait + 1
                            try:
                                index, result = results.next(timeout=wait)
                            except StopIteration:
                                break
                            except multiprocessing.TimeoutError:
                                pool.terminate()
                                break
                            record(chunks[index], result)
                    except KeyboardInterrupt:
                        pool.terminate()
                        raise
        except KeyboardInterrupt:
            complete = False
            for i, (n, done) in zip(current, partial):  # the chunk that was interrupted
                counts[i], finished[i] = n, done
        complete = complete and all(finished)
        return Tally(counts, time.perf_counter() - start, complete)

    @abstractmethod
    def _payload(self, model) -> tuple: ...


# ---------------------------------------------------------------- CP-SAT


class CpsatBackend(Backend):
    """Google OR-Tools CP-SAT."""

    encoding = "cpsat"
    cubes_per_job = 32

    def __init__(self, workers: int = 2) -> None:
        self.name = "cpsat"
        self.workers = workers

    def solve(self, model: CpsatModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = time_limit
        status = solver.solve(model.model)
        seconds = time.perf_counter() - start
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome([int(solver.value(k)) for k in model.keys], seconds)
        return Outcome(None, seconds, complete=status == cp_model.INFEASIBLE)

    def _payload(self, model: CpsatModel) -> tuple:
        return ("cpsat", str(model.model.proto), [k.index for k in model.keys], model.fixed_search)


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        self.count += 1


_cpsat_base: tuple[str, cp_model.CpModel] | None = None


def _cpsat_count(payload: tuple, cube: Cube, deadline: float | None) -> tuple[int, bool]:
    global _cpsat_base
    _, text, keys, fixed_search = payload
    if _cpsat_base is None or _cpsat_base[0] is not text:  # parse once per worker
        base = cp_model.CpModel()
        base.proto.parse_text_format(text)
        _cpsat_base = (text, base)
    model = _cpsat_base[1].clone()
    for literal in cube:
        var = model.get_bool_var_from_proto_index(keys[abs(literal) - 1])
        model.add(var == (1 if literal > 0 else 0))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    if fixed_search:
        # follow the model's order like a plain backtracker: no presolve, LP, probing or
        # symmetry detection (measured: 18% less CPU on IQ Block 10, same tree)
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        solver.parameters.cp_model_presolve = False
        solver.parameters.linearization_level = 0
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.symmetry_level = 0
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return 0, False
        solver.parameters.max_time_in_seconds = left
    counter = _Counter()
    status = solver.solve(model, counter)
    finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    if not finished and deadline is None:
        # no time limit, so CP-SAT stopped on Ctrl-C (it returns): pass the interrupt on
        raise _Interrupted(counter.count)
    return counter.count, finished


class _Interrupted(KeyboardInterrupt):
    """Ctrl-C during a cube, carrying the solutions the cube had found."""

    def __init__(self, found: int) -> None:
        super().__init__()
        self.found = found


# ---------------------------------------------------------------- PySAT

# PySAT solvers that cannot solve again after a solve (no incremental mode, no assumptions).
NOT_INCREMENTAL = set(SolverNames.kissat404)


class PysatBackend(Backend):
    """A SAT solver shipped with PySAT, counting with blocking clauses on the keys."""

    encoding = "cnf"
    cubes_per_job = 40_000  # deep cubes: each SAT call is then cheap (IQ Block 10: 0.4 ms)

    def __init__(self, solver: str) -> None:
        known = {
            alias
            for names in vars(SolverNames).values()
            if isinstance(names, tuple)
            for alias in names
        }
        if solver not in known:
            raise InputError(
                f"unknown PySAT solver {solver!r}; known: {', '.join(sorted(pysat_solvers()))}",
                field="--backend",
            )
        self.solver = solver
        self.name = f"pysat:{solver}"
        if solver not in NOT_INCREMENTAL:
            with Solver(name=solver) as sat:
                self.stops_itself = _interruptible(sat)

    def solve(self, model: CnfModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        if time_limit is None:
            found, values = _solve_cnf(self.solver, model.clauses, model.keys)
        else:  # in a worker process, stopped at the deadline whatever the solver
            context = multiprocessing.get_context("spawn")
            with context.Pool(1) as pool:
                pending = pool.apply_async(_solve_cnf, (self.solver, model.clauses, model.keys))
                try:
                    found, values = pending.get(timeout=time_limit)
                except multiprocessing.TimeoutError:
                    pool.terminate()
                    found, values = None, None
        seconds = time.perf_counter() - start
        return Outcome(values, seconds, complete=found is not None)

    def count(self, model, cubes, jobs=1, time_limit=None, progress=None) -> Tally:
        if self.solver in NOT_INCREMENTAL:
            raise InputError(
                f"{self.name} cannot enumerate solutions: it does not solve incrementally "
                "(no assumptions, no clauses added between solves); it can only solve",
                field="--backend",
            )
        return super().count(model, cubes, jobs, time_limit, progress)

    def _payload(self, model: CnfModel) -> tuple:
        return ("cnf", self.solver, model.clauses, model.keys, model.short_blocking)


def pysat_solvers() -> list[str]:
    """The canonical names of the SAT solvers PySAT ships (CryptoMiniSat only if installed)."""
    families = [names for names in vars(SolverNames).values() if isinstance(names, tuple)]
    names = [aliases[-1] for aliases in families if aliases]
    if importlib.util.find_spec("pycryptosat") is None:
        names = [n for n in names if n not in SolverNames.cryptosat]
    return sorted(names)


def _key_values(assignment: list[int], keys: list[int]) -> list[int]:
    return [1 if assignment[k - 1] > 0 else 0 for k in keys]


def _solve_cnf(name: str, clauses: list[list[int]], keys: list[int]) -> tuple[bool, list | None]:
    """One solve: whether it is satisfiable, and the keys' values of a solution."""
    with Solver(name=name, bootstrap_with=clauses) as sat:
        if sat.solve():
            return True, _key_values(sat.get_model(), keys)
    return False, None


def _interruptible(sat: Solver) -> bool:
    try:
        sat.clear_interrupt()
    except NotImplementedError:
        return False
    return True


def _solve_limited(sat: Solver, assumptions: list[int], deadline: float) -> bool | None:
    """Solve with a wall-clock limit: True, False, or None when the time ran out.

    A solver that cannot be interrupted solves without limit here; its worker process is
    stopped from outside at the deadline.
    """
    if not _interruptible(sat):
        return sat.solve(assumptions=assumptions)
    timer = threading.Timer(max(0.0, deadline - time.perf_counter()), sat.interrupt)
    timer.start()
    try:
        return sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
        sat.clear_interrupt()


_sat_solver: Solver | None = None


def _cnf_count(payload: tuple, cube: Cube, deadline: float | None) -> tuple[int, bool]:
    global _sat_solver
    _, name, clauses, keys, short = payload
    if _sat_solver is None:
        _sat_solver = Solver(name=name, bootstrap_with=clauses)
    sat = _sat_solver
    assumptions = [keys[abs(lit) - 1] * (1 if lit > 0 else -1) for lit in cube]
    found = 0
    while True:
        if deadline is None:
            try:
                result = sat.solve(assumptions=assumptions)
            except pysolvers.error:  # PySAT's form of Ctrl-C
                raise _Interrupted(found) from None
        else:
            if time.time() >= deadline:
                return found, False
            result = _solve_limited(
                sat, assumptions, time.perf_counter() + (deadline - time.time())
            )
            if result is None:
                return found, False
        if not result:
            return found, True
        found += 1
        values = _key_values(sat.get_model(), keys)
        if short:
            sat.add_clause([-k for k, v in zip(keys, values) if v])
        else:
            sat.add_clause([-k if v else k for k, v in zip(keys, values)])


# ---------------------------------------------------------------- worker processes

_payload_of_worker: tuple | None = None


def _init_worker(payload: tuple, ignore_interrupt: bool) -> None:
    global _payload_of_worker, _sat_solver
    if ignore_interrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _payload_of_worker = payload
    if _sat_solver is not None:
        _sat_solver.delete()
    _sat_solver = None


def _count_chunk(args: tuple, partial: list | None = None) -> list[tuple[int, bool]]:
    """Count a chunk's cubes; on Ctrl-C, what was found so far is left in `partial`."""
    _, cubes, deadline = args
    payload = _payload_of_worker
    assert payload is not None
    count_cube = _cpsat_count if payload[0] == "cpsat" else _cnf_count
    results = [] if partial is None else partial
    results.clear()
    try:
        for cube in cubes:
            results.append(count_cube(payload, cube, deadline))
    except _Interrupted as interrupted:
        results.append((interrupted.found, False))
        raise
    return list(results)


def _count_indexed(item: tuple[int, tuple]) -> tuple[int, list[tuple[int, bool]]]:
    index, args = item
    return index, _count_chunk(args)


def _chunks(items: list[int], parts: int) -> list[list[int]]:
    """Split items into up to `parts` interleaved chunks (neighbouring cubes to different jobs)."""
    parts = max(1, min(parts, len(items)))
    return [items[i::parts] for i in range(parts)] if items else []


# ---------------------------------------------------------------- choosing a backend

SAT_SOLVERS_FOR_VERIFY = ("cadical195", "glucose4")
# the solver backends every verify runs (families add their reference solver)
VERIFY_SOLVERS = ("cpsat", *(f"pysat:{name}" for name in SAT_SOLVERS_FOR_VERIFY))
VERIFY_BACKENDS = (*VERIFY_SOLVERS, "reference")  # 'reference': each family's own reference


def backend_named(name: str, workers: int = 2) -> Backend:
    """The backend for a --backend value: 'cpsat' or 'pysat:NAME' ('reference' is the caller's)."""
    if name == "cpsat":
        return CpsatBackend(workers)
    if name.startswith("pysat:"):
        return PysatBackend(name.split(":", 1)[1])
    raise InputError(
        f"unknown backend {name!r}; use cpsat, pysat:NAME (e.g. pysat:cadical195) or reference",
        field="--backend",
    )
