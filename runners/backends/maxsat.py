"""Best boards by optimisation solvers: CP-SAT with an objective, PySAT's MaxSAT solvers, and a
MaxSAT solver binary (`exec:NAME`). Each `run` is called in a child process by runners/best.py
and sends every better board it reads with `report`; it returns {"optimal": proved}.

CP-SAT: the placement model with an objective (models/edge_matching/best.py), its workers
(`jobs` threads, large-neighbourhood search among them), a board it resumes from given as a
hint. PySAT: RC2 (core-guided; `rc2s` stratified), FM (Fu and Malik) and LSU (linear search,
SAT then UNSAT: every model it finds is a better board, sent as found). A binary: the weighted
CNF written to a temporary file (the classic `p wcnf` header), the binary's `o` lines followed
and its `v` line (a model as literals, or as a string of 0s and 1s) read at its end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable

from ..models.edge_matching import EdgePuzzle, Placed, rotated, tile_types
from ..models.edge_matching.best import encode_best_cpsat, encode_best_wcnf
from ..models.edge_matching.encode import Layout, grid_of
from ..models.errors import InputError

Report = Callable[[list[Placed], dict], None]
SAT4J_JARS = ("org.ow2.sat4j.maxsat.jar", "org.ow2.sat4j.core.jar", "org.ow2.sat4j.pb.jar",
              "commons-cli.jar")
JAVA_LIBRARY = "/usr/share/java"


def placements_of(puzzle: EdgePuzzle, lay: Layout, grid: list[Placed]) -> set[int]:
    """The placement numbers (as `layout` numbers them) of a board."""
    kind_of = {t: k for k, kind in enumerate(tile_types(puzzle)) for t in kind.tiles}
    chosen = set()
    board = list(lay.at_cell)
    for cell, (t, r) in zip(board, grid):
        shown = rotated(puzzle.tiles[t].edges, r)
        for i in lay.at_cell[cell]:
            p = lay.options[i]
            if p.tile_type == kind_of[t] and p.edges == shown:
                chosen.add(i)
                break
    return chosen


# ---------------------------------------------------------------- CP-SAT


def run_cpsat(report: Report, puzzle: EdgePuzzle, start: list[Placed] | None,
              time_limit: float | None, jobs: int, seed: int) -> dict:
    from ortools.sat.python import cp_model

    encoded = encode_best_cpsat(puzzle)
    lay, use = encoded.lay, encoded.use
    if start is not None:
        chosen = placements_of(puzzle, lay, start)
        for i, var in enumerate(use):
            encoded.model.add_hint(var, i in chosen)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = jobs
    solver.parameters.random_seed = seed
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit

    class Better(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            values = [self.boolean_value(v) for v in use]
            report(grid_of(puzzle, lay.options, values), {})

    status = solver.solve(encoded.model, Better())
    return {"optimal": status == cp_model.OPTIMAL}


# ---------------------------------------------------------------- PySAT's MaxSAT solvers


def run_pysat(report: Report, puzzle: EdgePuzzle, which: str, seed: int) -> dict:
    from pysat.examples.fm import FM
    from pysat.examples.lsu import LSU
    from pysat.examples.rc2 import RC2, RC2Stratified

    encoded = encode_best_wcnf(puzzle)
    keys = len(encoded.lay.options)

    def send(model: list[int]) -> None:
        values = [0] * keys
        for literal in model:
            if 0 < literal <= keys:
                values[literal - 1] = 1
        report(grid_of(puzzle, encoded.lay.options, values), {})

    if which == "lsu":

        class Stepwise(LSU):  # every model LSU finds is a better board: sent as found
            def _assert_lt(self, cost: int) -> None:
                send(self.model)
                super()._assert_lt(cost)

        with Stepwise(encoded.wcnf, solver="g4") as lsu:
            if not lsu.solve():
                return {"optimal": False}
            send(lsu.get_model())
            return {"optimal": lsu.found_optimum()}
    if which == "fm":
        fm = FM(encoded.wcnf, verbose=0)
        if fm.compute():
            send(fm.model)
            return {"optimal": True}
        return {"optimal": False}
    kind = RC2Stratified if which == "rc2s" else RC2
    with kind(encoded.wcnf, solver="g3") as rc2:
        model = rc2.compute()
        if model is None:
            return {"optimal": False}
        send(model)
        return {"optimal": True}


# ---------------------------------------------------------------- a MaxSAT binary


def exec_command(name: str) -> list[str]:
    """The command running the MaxSAT binary NAME on a WCNF file (appended); InputError where
    it is not installed. `sat4j`: Debian's sat4j package, run by Java."""
    if name == "sat4j":
        jars = [os.path.join(JAVA_LIBRARY, jar) for jar in SAT4J_JARS]
        java = shutil.which("java")
        if java is None or not all(os.path.exists(jar) for jar in jars):
            raise InputError("exec:sat4j needs Debian's sat4j package and Java (apt-get "
                             "install sat4j)", field="backend")
        return [java, "-cp", ":".join(jars), "org.sat4j.maxsat.GenericOptLauncher"]
    found = shutil.which(name)
    if found is None:
        raise InputError(f"exec:{name}: no MaxSAT solver binary {name!r} here (on PATH or as "
                         "a path); Debian packages one as sat4j (exec:sat4j)", field="backend")
    return [found]


def read_model(lines: list[str], keys: int) -> list[int] | None:
    """The model of a MaxSAT solver's `v` lines: literals, or one string of 0s and 1s."""
    words = [w for line in lines if line.startswith("v ") for w in line[2:].split()]
    if not words:
        return None
    if len(words) == 1 and set(words[0]) <= {"0", "1"} and len(words[0]) >= keys:
        return [i + 1 if bit == "1" else -(i + 1) for i, bit in enumerate(words[0])]
    return [int(w) for w in words if w.lstrip("-").isdigit() and int(w) != 0]


def write_wcnf(wcnf, path: str) -> None:
    """The classic WCNF format (a `p wcnf VARS CLAUSES TOP` line, hard clauses weighted TOP),
    which old and new MaxSAT solvers read alike."""
    top = sum(wcnf.wght) + 1
    with open(path, "w", encoding="ascii") as out:
        out.write(f"p wcnf {wcnf.nv} {len(wcnf.hard) + len(wcnf.soft)} {top}\n")
        for clause in wcnf.hard:
            out.write(f"{top} {' '.join(map(str, clause))} 0\n")
        for weight, clause in zip(wcnf.wght, wcnf.soft):
            out.write(f"{weight} {' '.join(map(str, clause))} 0\n")


def stop_before(time_limit: float) -> float:
    """Seconds a MaxSAT binary is given of a time limit: it is stopped (SIGTERM) a little
    before, so that it prints its best model and the board is read before the limit, as the
    MaxSAT Evaluations stop their solvers (sat4j prints its best model on SIGTERM)."""
    return max(0.5 * time_limit, time_limit - min(30.0, max(1.0, 0.05 * time_limit)))


def run_exec(report: Report, puzzle: EdgePuzzle, name: str,
             time_limit: float | None = None) -> dict:
    import threading
    import time

    begin = time.monotonic()
    command = exec_command(name)
    encoded = encode_best_wcnf(puzzle)
    keys = len(encoded.lay.options)
    stopped = threading.Event()
    with tempfile.TemporaryDirectory(prefix="puzzlesat-best-") as folder:
        path = os.path.join(folder, "board.wcnf")
        write_wcnf(encoded.wcnf, path)
        process = subprocess.Popen(command + [path], stdout=subprocess.PIPE, text=True)

        def stop() -> None:
            if process.poll() is None:
                stopped.set()
                process.terminate()

        timer = None
        if time_limit is not None:
            timer = threading.Timer(max(0.0, begin + stop_before(time_limit)
                                        - time.monotonic()), stop)
            timer.daemon = True
            timer.start()
        lines = []
        try:
            for line in process.stdout:  # `o` lines as it improves; `s` and `v` at its end
                lines.append(line.strip())
            process.wait()
        finally:
            if timer is not None:
                timer.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()
    status = next((line[2:].strip() for line in lines if line.startswith("s ")), "")
    model = read_model(lines, keys)
    if model is not None:
        values = [0] * keys
        for literal in model:
            if 0 < literal <= keys:
                values[literal - 1] = 1
        report(grid_of(puzzle, encoded.lay.options, values), {})
    return {"optimal": status == "OPTIMUM FOUND" and not stopped.is_set()}


# ---------------------------------------------------------------- the entries runners/best.py calls


def cpsat(report: Report, puzzle: EdgePuzzle, start: list[Placed] | None,
          time_limit: float | None, jobs: int, seed: int, argument: str | None) -> dict:
    return run_cpsat(report, puzzle, start, time_limit, jobs, seed)


def maxsat(report: Report, puzzle: EdgePuzzle, start: list[Placed] | None,
           time_limit: float | None, jobs: int, seed: int, argument: str | None) -> dict:
    return run_pysat(report, puzzle, argument or "rc2", seed)


def exec_maxsat(report: Report, puzzle: EdgePuzzle, start: list[Placed] | None,
                time_limit: float | None, jobs: int, seed: int, argument: str | None) -> dict:
    return run_exec(report, puzzle, argument or "sat4j", time_limit)
