"""Any DIMACS SAT solver binary as a backend: `exec:NAME_OR_PATH` (cadical, kissat, minisat, ...).

The CNF model is written to a temporary DIMACS file and the binary run on it in its own process
group; at the time limit the whole group is ended (SIGKILL), and on Linux the solver is also
ended if this process dies (so a race that ends its member leaves no solver behind). The answer
is read from the SAT competition output: an `s SATISFIABLE` / `s UNSATISFIABLE` line and `v`
lines with the model. MiniSat prints neither: it writes `SAT` and the model to a result file
named after the input, which is read instead.

Counting is refused: a binary starts from scratch on every call, so counting by blocking
clauses would re-read and re-solve the whole CNF once per solution (the diamond blocks' 17,920
grids at Level 1 would be 17,920 runs of a process), and no common solver binary counts
projected solutions. Count with an incremental backend (`pysat:...`, `cpsat`) instead.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from ..models.encoded import CnfModel
from ..models.errors import InputError
from . import Backend, Cube, Outcome, Values


@dataclass(frozen=True)
class Flavour:
    """How to call one family of solver binaries.

    quiet: options that cut the output down to the s and v lines; seed: the option setting the
    random seed ({seed} filled in; options that make the seed matter come along); model_file:
    the solver writes its answer to a second file argument (MiniSat) instead of s/v lines.
    """

    quiet: tuple[str, ...] = ()
    seed: tuple[str, ...] = ()
    model_file: bool = False


# Keyed by the binary's file name. Seeds: CaDiCaL's --seed only matters with its variable
# shuffling on; MiniSat's random seed only with random decisions (-rnd-freq) on.
FLAVOURS = {
    "cadical": Flavour(("-q",), ("--seed={seed}", "--shuffle=1", "--shufflerandom=1")),
    "kissat": Flavour(("-q",), ("--seed={seed}",)),
    "cryptominisat5": Flavour(("--verb=0",), ("--random={seed}",)),
    "picosat": Flavour((), ("-s", "{seed}")),
    "minisat": Flavour(("-verb=0",), ("-rnd-seed={seed}", "-rnd-freq=0.01"), model_file=True),
    "glucose": Flavour(("-verb=0",), ("-rnd-seed={seed}", "-rnd-freq=0.01"), model_file=True),
}
GENERIC = Flavour()  # any other binary: DIMACS file in, s and v lines out, no seed option

PR_SET_PDEATHSIG = 1
# solvers running now, and their scratch folders: what `end_all` ends (a race member's SIGTERM)
_LIVE: dict[int, tuple[subprocess.Popen, str]] = {}


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Ask Linux to kill the solver when the process that started it dies."""
    os.setsid()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


def end_all() -> None:
    """End every solver this process is running and remove its scratch folder."""
    for process, scratch in list(_LIVE.values()):
        end_group(process)
        shutil.rmtree(scratch, ignore_errors=True)
    _LIVE.clear()


def end_group(process: subprocess.Popen) -> None:
    """End a process started in its own group, and everything in the group; reap it."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait()


class ExecBackend(Backend):
    """A SAT solver binary, found on PATH or given by path, solving a DIMACS file."""

    takes = "cnf"
    about = "any DIMACS SAT solver binary (exec:cadical, exec:/path/to/kissat, ...)"
    stops_itself = True  # the time limit is enforced here, by ending the solver's process group
    can_count = False
    needs = "a SAT solver binary on PATH, e.g. `apt-get install cadical`"

    def __init__(self, program: str, seed: int | None = None) -> None:
        if not program:
            raise InputError(
                "exec: needs a solver binary, e.g. exec:cadical or exec:/usr/bin/kissat",
                field="backend",
            )
        self.program = program
        self.seed = seed
        self.name = f"exec:{program}"
        self.flavour = FLAVOURS.get(os.path.basename(program), GENERIC)
        self.needs = (
            f"no solver binary {program!r} on PATH or at that path; install one, e.g. "
            "`apt-get install cadical` for exec:cadical"
        )
        self.why_not_count = (
            f"{self.name} cannot count: a solver binary starts afresh on every run, so counting "
            "by blocking clauses would mean one run of the binary per solution (17,920 runs for "
            "the diamond blocks at Level 1); count with pysat:... or cpsat instead"
        )

    def supported(self) -> bool:  # type: ignore[override]  # per binary, so per instance
        return self.path() is not None

    def path(self) -> str | None:
        return shutil.which(self.program)

    def with_seed(self, seed: int) -> ExecBackend:
        """The same solver under another random seed (for races; a binary without a known seed
        option ignores it, and the race's shuffling of the CNF is what differs)."""
        return ExecBackend(self.program, seed)

    def command(self, dimacs: str, result: str) -> list[str]:
        path = self.path()
        if path is None:
            raise InputError(
                f"{self.program}: no such solver binary (not on PATH, not a file); "
                f"install one, e.g. `apt-get install cadical`",
                field="backend",
            )
        command = [path, *self.flavour.quiet]
        if self.seed is not None and self.flavour.seed:
            command += [part.format(seed=self.seed) for part in self.flavour.seed]
        command.append(dimacs)
        if self.flavour.model_file:
            command.append(result)
        return command

    def solve(self, model: CnfModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="puzzlesat-exec-") as scratch:
            dimacs = os.path.join(scratch, "model.cnf")
            result = os.path.join(scratch, "result.txt")
            write_dimacs(model, dimacs)
            process = subprocess.Popen(
                self.command(dimacs, result),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                preexec_fn=_die_with_parent,
            )
            _LIVE[process.pid] = (process, scratch)
            try:
                out, err = process.communicate(timeout=time_limit)
            except subprocess.TimeoutExpired:
                end_group(process)
                return Outcome(None, time.perf_counter() - start, complete=False)
            finally:
                end_group(process)  # on Ctrl-C or SIGTERM too: no solver left behind
                _LIVE.pop(process.pid, None)
            if self.flavour.model_file and os.path.exists(result):
                with open(result, encoding="utf-8") as handle:
                    out = "\n".join(minisat_lines(handle.read()))
        seconds = time.perf_counter() - start
        answer, assignment = read_answer(out)
        if answer is None:
            last = (err.strip().splitlines() or out.strip().splitlines() or ["no output"])[-1]
            raise InputError(
                f"{self.program} gave no answer (exit code {process.returncode}): {last}",
                field="backend",
            )
        if not answer:
            return Outcome(None, seconds)
        return Outcome([1 if assignment.get(k, False) else 0 for k in model.keys], seconds)

    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        raise InputError(self.why_not_count, field="backend")


def write_dimacs(model: CnfModel, path: str) -> None:
    """The model's clauses as a DIMACS file (no comments: solvers read them, people do not)."""
    with open(path, "w", encoding="ascii") as handle:
        handle.write(f"p cnf {model.nvars} {len(model.clauses)}\n")
        handle.writelines(" ".join(map(str, clause)) + " 0\n" for clause in model.clauses)


def minisat_lines(text: str) -> list[str]:
    """MiniSat's result file (`SAT` then the model, or `UNSAT`) as s and v lines."""
    lines = text.split("\n", 1)
    first = lines[0].strip()
    if first == "SAT":
        return ["s SATISFIABLE", "v " + (lines[1] if len(lines) > 1 else "")]
    if first == "UNSAT":
        return ["s UNSATISFIABLE"]
    return []


def read_answer(out: str) -> tuple[bool | None, dict[int, bool]]:
    """(satisfiable, variable -> value) from a solver's s and v lines; None if no s line."""
    answer: bool | None = None
    assignment: dict[int, bool] = {}
    for line in out.splitlines():
        if line.startswith("s "):
            status = line[2:].strip()
            if status == "SATISFIABLE":
                answer = True
            elif status == "UNSATISFIABLE":
                answer = False
        elif line.startswith("v "):
            for word in line[2:].split():
                literal = int(word)
                if literal:
                    assignment[abs(literal)] = literal > 0
    return answer, assignment
