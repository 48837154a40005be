"""Google OR-Tools CP-SAT as a backend: solve with several workers, count cubes with one each."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from ortools.sat.python import cp_model

from ..models.encoded import CpsatModel
from . import Backend, Cube, Interrupted, Outcome, Values


class CpsatBackend(Backend):
    """OR-Tools CP-SAT."""

    name = "cpsat"
    takes = "cpsat"
    about = "Google OR-Tools CP-SAT"
    # 32 cubes per job: IQ Block 10 counted with 2 jobs balanced best there (results/bench.csv)
    cubes_per_job = 32

    def __init__(self, workers: int = 2, seed: int | None = None) -> None:
        self.workers = workers
        self.seed = seed

    def solve(self, model: CpsatModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        if self.seed is not None:
            solver.parameters.random_seed = self.seed
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(0.001, time_limit)
        status = solved(solver, model.model)
        seconds = time.perf_counter() - start
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome([int(solver.value(k)) for k in model.keys], seconds)
        return Outcome(None, seconds, complete=status == cp_model.INFEASIBLE)

    def payload(self, model: CpsatModel) -> tuple:
        return (str(model.model.proto), [k.index for k in model.keys], model.fixed_search)

    def prepare(self, payload: tuple) -> tuple:
        text, keys, fixed_search = payload
        base = cp_model.CpModel()
        base.proto.parse_text_format(text)
        return base, keys, fixed_search

    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        base, keys, fixed_search = state
        counter = _Counter()
        try:
            status = _run(base, keys, fixed_search, cube, deadline, counter)
        except KeyboardInterrupt:
            raise Interrupted((counter.count,)) from None
        if status is None:
            return (0,), False
        return (counter.count,), status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)

    def enumerate(self, state, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        base, keys, fixed_search = state
        collector = _Collector(keys, limit)
        _run(base, keys, fixed_search, cube, None, collector)
        yield from collector.found


def _run(base, keys, fixed_search, cube, deadline, callback) -> int | None:
    model = base.clone()
    for literal in cube:
        var = model.get_bool_var_from_proto_index(keys[abs(literal) - 1])
        model.add(var == (1 if literal > 0 else 0))
    if isinstance(callback, _Collector):
        callback.variables = [model.get_bool_var_from_proto_index(k) for k in keys]
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
            return None
        solver.parameters.max_time_in_seconds = left
    return solved(solver, model, callback)


def solved(solver, model, callback=None) -> int:
    """solver.solve(model, callback), Ctrl-C told apart from a time limit: CP-SAT catches SIGINT
    itself and returns as if its time were up (a count on one worker read Ctrl-C as a cube's
    time running out and went on to the next cubes until its limit; a solve said 'no solution
    found within the time limit'). Here the search runs on a thread of its own, the signal
    reaches Python's handler on this one, which stops the search and raises (SIGTERM alike;
    where SIGINT is ignored, a worker process leaving Ctrl-C to its parent, it is ignored here
    too). Off the main thread, where no handler runs, CP-SAT keeps its own."""
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)
    solver.parameters.catch_sigint_signal = False
    status: list = []  # the status, or what the search raised (raised here in turn)
    done = threading.Event()  # (not Thread.join: interrupted, it may take a live thread for done)

    def search() -> None:
        try:
            status.append(solver.solve(model, callback))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            status.append(error)
        finally:
            done.set()

    threading.Thread(target=search, name="cp-sat", daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    except BaseException:
        solver.stop_search()
        while not done.wait(0.1):  # the search returns within moments of being stopped
            pass
        raise
    if isinstance(status[0], BaseException):
        raise status[0]
    return status[0]


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        self.count += 1


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, keys: list[int], limit: int | None) -> None:
        super().__init__()
        self.limit = limit
        self.variables: list = []
        self.found: list[list[int]] = []

    def on_solution_callback(self) -> None:
        self.found.append([int(self.value(v)) for v in self.variables])
        if self.limit is not None and len(self.found) >= self.limit:
            self.stop_search()
