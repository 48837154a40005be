"""The SAT solvers shipped with PySAT as backends; counting adds a blocking clause per solution."""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator

import pysolvers
from pysat.solvers import Solver, SolverNames

from ..children import run_in_child
from ..models.encoded import CnfModel
from ..models.errors import InputError
from . import Backend, Cube, Interrupted, Outcome, Values

# PySAT solvers that cannot solve again after a solve (no incremental mode, no assumptions).
NOT_INCREMENTAL = set(SolverNames.kissat404)


def pysat_solvers() -> list[str]:
    """The canonical names of the SAT solvers PySAT ships (CryptoMiniSat only if installed)."""
    families = [names for names in vars(SolverNames).values() if isinstance(names, tuple)]
    names = [aliases[-1] for aliases in families if aliases]
    if importlib.util.find_spec("pycryptosat") is None:
        names = [n for n in names if n not in SolverNames.cryptosat]
    return sorted(names)


def _aliases() -> set[str]:
    return {a for names in vars(SolverNames).values() if isinstance(names, tuple) for a in names}


class PysatBackend(Backend):
    """A SAT solver shipped with PySAT, counting with blocking clauses on the keys."""

    takes = "cnf"
    # deep cubes: each SAT call is then cheap (IQ Block 10: 0.4 ms a call at 40,000 per job)
    cubes_per_job = 40_000
    solves_in_child = True  # a solve with a time limit: in a forked process (see solve)

    def __init__(self, solver: str) -> None:
        if solver not in _aliases():
            raise InputError(
                f"unknown PySAT solver {solver!r}; known: {', '.join(pysat_solvers())}",
                field="backend",
            )
        self.solver = solver
        self.name = f"pysat:{solver}"
        self.about = f"{solver} through PySAT"
        self.can_count = solver not in NOT_INCREMENTAL
        if self.can_count:
            with Solver(name=solver) as sat:
                self.stops_itself = _interruptible(sat)
        else:
            self.stops_itself = False
        self.why_not_count = (
            f"{self.name} cannot enumerate solutions: it does not solve incrementally (no "
            "assumptions, no clauses added between solves); it can only solve"
        )

    def solve(self, model: CnfModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        if time_limit is None:
            found, values = _solve_cnf(self.solver, model.clauses, model.keys)
        else:  # in a forked process, ended at the deadline whatever the solver (forked: a
            # spawned one imports OR-Tools and PySAT again, 4.8-8.2 s against 0.4-2.8 s at load 10)
            found, values = _solve_in_child(self.solver, model, time_limit)
        seconds = time.perf_counter() - start
        return Outcome(values, seconds, complete=found is not None)

    def payload(self, model: CnfModel) -> tuple:
        return (model.clauses, model.keys, model.short_blocking)

    def prepare(self, payload: tuple) -> tuple:
        clauses, keys, short = payload
        return Solver(name=self.solver, bootstrap_with=clauses), keys, short

    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        sat, keys, short = state
        assumptions = [keys[abs(lit) - 1] * (1 if lit > 0 else -1) for lit in cube]
        found = 0
        while True:
            if deadline is None:
                try:
                    result = sat.solve(assumptions=assumptions)
                except pysolvers.error:  # PySAT's form of Ctrl-C
                    raise Interrupted((found,)) from None
            else:
                if time.time() >= deadline:
                    return (found,), False
                result = _solve_limited(sat, assumptions, deadline)
                if result is None:
                    return (found,), False
            if not result:
                return (found,), True
            found += 1
            _block(sat, keys, _key_values(sat.get_model(), keys), short)

    def enumerate(self, state, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        sat, keys, short = state
        assumptions = [keys[abs(lit) - 1] * (1 if lit > 0 else -1) for lit in cube]
        found = 0
        while (limit is None or found < limit) and sat.solve(assumptions=assumptions):
            values = _key_values(sat.get_model(), keys)
            yield values
            found += 1
            _block(sat, keys, values, short)


def _block(sat: Solver, keys: list[int], values: list[int], short: bool) -> None:
    if short:  # every solution sets as many keys true: its true keys alone exclude it
        sat.add_clause([-k for k, v in zip(keys, values) if v])
    else:
        sat.add_clause([-k if v else k for k, v in zip(keys, values)])


def _solve_in_child(name: str, model: CnfModel, time_limit: float
                    ) -> tuple[bool | None, list | None]:
    """Solve in a forked child, ended at the time limit: (None, None) when it was."""
    answered, found = run_in_child(_solve_cnf, (name, model.clauses, model.keys), time_limit,
                                   label=f"the {name} solve", method="fork")
    return found if answered else (None, None)


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

    A solver that cannot be interrupted solves without limit here; the executor ends its
    worker process at the deadline.
    """
    if not _interruptible(sat):
        return sat.solve(assumptions=assumptions)
    timer = threading.Timer(max(0.0, deadline - time.time()), sat.interrupt)
    timer.start()
    try:
        return sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
        sat.clear_interrupt()
