"""A race of backends: `race:B1,B2,...` and `race:B*4` solve in parallel, the first answer wins.

The standard answer to heavy-tailed run times: the same backend under several seeds, or several
backends, each in its own process; the first to decide (a solution, or proof there is none) is
returned and every other member is ended, with everything it started (each member leads its own
process group, and solver binaries started by `exec:` die with their member).

Seeds. A member repeated with `*N` runs under seeds 0..N-1; seed 0 is the model as encoded.
Under seed k > 0 a CNF is renumbered and its clauses and literals put in a random order (the
answer is mapped back to the keys), which changes the search of every SAT solver; a member that
offers `with_seed(seed)` (exec: passes the solver's own seed option, see exec.FLAVOURS) also gets
the seed. A CP-SAT member without `with_seed` runs under seed 0 only: repeating it would repeat
the same run.

Counting is refused: a race returns one answer; count with one of its members.
"""

from __future__ import annotations

import copy
import os
import random
import signal
import time
from collections.abc import Callable

from .. import children
from ..models.encoded import CnfModel
from ..models.errors import InputError
from . import Backend, Cube, Outcome, Values


def shuffled_cnf(model: CnfModel, seed: int) -> CnfModel:
    """The same CNF with variables renumbered and clauses and literals in a random order.

    keys[i] of the result is the new number of keys[i]: values read from it need no mapping.
    """
    if seed == 0:
        return model
    rng = random.Random(seed)
    numbers = list(range(1, model.nvars + 1))
    rng.shuffle(numbers)
    new = [0, *numbers]  # new[v]: the new number of variable v

    def renamed(clause: list[int]) -> list[int]:
        out = [new[lit] if lit > 0 else -new[-lit] for lit in clause]
        rng.shuffle(out)
        return out

    clauses = [renamed(clause) for clause in model.clauses]
    rng.shuffle(clauses)
    return CnfModel(
        clauses,
        model.nvars,
        [new[k] for k in model.keys],
        model.key_labels,
        model.short_blocking,
        f"{model.title} (shuffled, seed {seed})",
    )


def split_members(argument: str) -> list[tuple[str, int]]:
    """'B1,B2*3' -> [('B1', 1), ('B2', 3)]: member names and how many seeds each runs under."""
    members = []
    for part in argument.split(","):
        name, star, times = part.strip().rpartition("*")
        if not star:
            name, times = part.strip(), "1"
        if not name or not times.isdigit() or int(times) < 1:
            raise InputError(
                f"race: {part!r} is not a backend name or NAME*N with N >= 1 "
                "(e.g. race:pysat:cadical195*4 or race:cpsat,exec:cadical)",
                field="backend",
            )
        members.append((name, int(times)))
    return members


def _run_member(backend: Backend, model, seed: int) -> tuple[str, object, bool]:
    """Member process (in its own process group): on SIGTERM it ends its solver binaries (they
    are in groups of their own) and exits at once."""

    def stop(signum, frame):
        from . import exec as exec_backend

        exec_backend.end_all()
        os._exit(1)

    signal.signal(signal.SIGTERM, stop)
    try:
        if backend.takes == "cnf":
            model = shuffled_cnf(model, seed)  # here, so members shuffle in parallel
        outcome = backend.solve(model, None)  # the race enforces the time limit
        return "done", outcome.values, outcome.complete
    except Exception as error:  # noqa: BLE001 - reported to the race, which says which member
        return "error", f"{type(error).__name__}: {error}", False


class RaceBackend(Backend):
    """Several backends (or one under several seeds) in parallel processes; the first answer."""

    about = "parallel members, first answer wins (race:B1,B2 or race:B*N)"
    can_count = False
    stops_itself = True

    def __init__(self, argument: str, make: Callable[[str], Backend] | None = None) -> None:
        """The backend `race:ARGUMENT`; `make` builds a member from its name (by default the
        registry's `backend`)."""
        if make is None:
            from ..registry import backend as make
        members: list[tuple[Backend, int]] = []
        for name, times in split_members(argument):
            for seed in range(times):
                member = make(name)
                if isinstance(member, RaceBackend):
                    raise InputError("race: a race cannot run inside a race", field="backend")
                members.append((seeded(member, seed, name), seed))
        kinds = {member.takes for member, _ in members}
        if len(kinds) > 1:
            raise InputError(
                "race: the members take different models ("
                + ", ".join(f"{b.name} takes {b.takes}" for b, _ in members)
                + "); race backends that take the same model",
                field="backend",
            )
        self.members = members
        self.takes = kinds.pop()
        self.name = f"race:{argument}"
        self.winner = ""  # the last solve's winning member, e.g. 'exec:cadical@2'
        self.why_not_count = (
            f"{self.name} cannot count: a race returns the first answer of several; count with "
            "one of its members"
        )

    def supported(self) -> bool:  # type: ignore[override]  # depends on the members
        return all(
            b.supported() if callable(getattr(b, "supported", None)) else True
            for b, _ in self.members
        )

    def solve(self, model, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        running: list[children.Child] = []
        started: list[children.Child] = []
        errors: list[str] = []
        with children.interruptible():
            try:
                for backend, seed in self.members:
                    label = f"{backend.name}@{seed}" if seed else backend.name
                    member = children.start(_run_member, (backend, model, seed), started,
                                            label=label, method=children.start_method("fork"),
                                            own_group=True)
                    running.append(member)
                while running:
                    left = (None if time_limit is None
                            else time_limit - (time.perf_counter() - start))
                    if left is not None and left <= 0:
                        break
                    for member in children.answered(running, left):
                        running.remove(member)
                        try:
                            kind, values, complete = children.receive(member)
                        except children.WorkerDied as died:
                            errors.append(str(died))
                            continue
                        if kind == "error":
                            errors.append(f"{member.label}: {values}")
                        elif complete:
                            self.winner = member.label
                            return Outcome(values, time.perf_counter() - start)
            finally:
                children.end(started)  # the winner too: its group may hold what it started
        if errors and len(errors) == len(self.members):
            raise InputError("race: every member failed: " + "; ".join(errors), field="backend")
        return Outcome(None, time.perf_counter() - start, complete=False)

    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        raise InputError(self.why_not_count, field="backend")


def seeded(member: Backend, seed: int, name: str) -> Backend:
    """The member under a seed: its `with_seed`, else a copy with its `seed` attribute set (as
    CP-SAT's random_seed), else itself (a CNF member still differs: its CNF is shuffled)."""
    if not seed:
        return member
    if hasattr(member, "with_seed"):
        return member.with_seed(seed)
    if hasattr(member, "seed"):
        member = copy.copy(member)
        member.seed = seed
        return member
    if member.takes != "cnf":
        raise InputError(
            f"race: {name} cannot be seeded (no seed, and its model is not a CNF that could be "
            "shuffled); race it once, or race different backends",
            field="backend",
        )
    return member
