"""Optimal plans by iterative deepening, for every family whose puzzles are reached by moves.

A family gives `model_of(k)`, the model "reach a goal in at most k moves" for a backend (CP-SAT
or CNF), and `replay(k, values)`, which checks a solver's plan move by move against the rules
and returns it; `deepen` tries k = 0, 1, 2, ... and the first k with a plan is the optimal
length. The time limit covers the whole deepening; a search stopped by it is a Plan marked
incomplete, with the bounds tried. Used by Mind Lock and the sliding-block puzzles.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .backends import Backend
from .models.words import plural


class PlanError(Exception):
    """A plan read from a solver that breaks the rules (a fault of the encoding, not the input)."""


@dataclass
class Plan:
    """Moves and the position after each; `complete` is False if the search stopped early."""

    moves: list
    positions: list
    seconds: float
    complete: bool = True
    bounds: list[dict] = field(default_factory=list)  # per k tried: seconds and outcome


def deepen(model_of: Callable[[int], object], replay: Callable[[int, list[int]], Plan],
           backend: Backend, time_limit: float | None = None, most: int = 1000) -> Plan:
    """The first k in 0..most with a plan of at most k moves, and that plan."""
    begin = time.perf_counter()
    bounds: list[dict] = []

    def left() -> float | None:
        return None if time_limit is None else time_limit - (time.perf_counter() - begin)

    for steps in range(most + 1):
        if left() is not None and left() <= 0:
            return Plan([], [], time.perf_counter() - begin, False, bounds)
        model = model_of(steps)
        remaining = left()  # model building included
        if remaining is not None and remaining <= 0:
            return Plan([], [], time.perf_counter() - begin, False, bounds)
        outcome = backend.solve(model, remaining)
        bounds.append({"k": steps, "seconds": round(outcome.seconds, 3),
                       "plan": outcome.values is not None})
        if outcome.values is None:
            if not outcome.complete:
                return Plan([], [], time.perf_counter() - begin, False, bounds)
            continue
        found = replay(steps, outcome.values)
        if len(found.moves) != steps:
            raise PlanError(f"a plan of {plural(len(found.moves), 'move')} was found at k = "
                            f"{steps} although k = {steps - 1} had none")
        found.seconds, found.bounds = time.perf_counter() - begin, bounds
        return found
    raise PlanError(f"no plan within {plural(most, 'move')}")


def plan_in_child(function: Callable[..., Plan], args: tuple, time_limit: float,
                  label: str) -> Plan:
    """`function(*args)` (a whole deepening, without a time limit) in one child process ended
    at the time limit: a PySAT solve with a time limit otherwise starts a process for every k.
    A Plan marked incomplete when the time ran out."""
    from .children import run_in_child

    begin = time.perf_counter()
    answered, found = run_in_child(function, args, time_limit, label=label)
    if not answered:
        return Plan([], [], time.perf_counter() - begin, False)
    found.seconds = time.perf_counter() - begin
    return found
