"""TEMPLATE: a new solver backend. Copy it to runners/backends/NAME.py and follow the notes.

Read runners/README.md ("A backend") first. A backend knows models and cubes, never puzzles:
every family whose encoder table makes the model it `takes` can use it once its `Entry` is in
`registry.BACKENDS`. This module is registered nowhere; tests/test_families.py checks that it
still implements every method `Backend` asks for, so a copy starts complete.

[GUIDELINE] Import the solver's library inside the methods (or `supported`), never at the top
of the module: `puzzlesat --help` must not load it, and a missing optional extra must be a
one-line message (`needs`), not an ImportError.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from . import Backend, Cube, Interrupted, Outcome, Values


class TemplateBackend(Backend):
    """[GUIDELINE] One line: what solver this is and what it is good at."""

    name = "template"  # [GUIDELINE] the registry name (`base`, or `base:argument`)
    takes = "cnf"  # [GUIDELINE] one of backends.TAKES: the model it solves
    about = "[GUIDELINE] one line for `puzzlesat backends`"
    needs = "pip install '[GUIDELINE] the package'"  # shown when supported() is False
    cubes_per_job = 8  # [GUIDELINE] how finely counting should split the work for it
    stops_itself = True  # [GUIDELINE] False if only ending its process stops it at a deadline
    releases_gil = False  # [GUIDELINE] True if its cubes may run on threads of one process

    @classmethod
    def supported(cls) -> bool:
        """Whether its library or binary is here."""
        try:
            import pysat  # noqa: F401  [GUIDELINE] the solver's own library
        except ImportError:
            return False
        return True

    def solve(self, model, time_limit: float | None = None) -> Outcome:
        """One solution: the keys' values (1 true, 0 false, in the model's key order), or None
        with complete=True when there is none, complete=False when the time ran out first."""
        start = time.perf_counter()
        values = self._search(model, (), time_limit)
        return Outcome(values, time.perf_counter() - start, complete=True)

    def payload(self, model) -> object:
        """A picklable form of the model, sent once to every worker (a clause list, arrays)."""
        return model

    def prepare(self, payload: object) -> object:
        """Worker side: the state its cubes are counted against, built once per worker."""
        return payload

    def count_cube(self, state, cube: Cube, deadline: float | None) -> tuple[Values, bool]:
        """The solutions in one cube (+k: key k-1 true, -k: false): ((count,), finished).

        [GUIDELINE] Honour `deadline` (a time.time() value): return what was found with
        finished False. On KeyboardInterrupt raise Interrupted((found,)) so that the count
        keeps it."""
        found = 0
        try:
            for _ in self.enumerate(state, cube, None):
                found += 1
                if deadline is not None and time.time() >= deadline:
                    return (found,), False
        except KeyboardInterrupt:
            raise Interrupted((found,)) from None
        return (found,), True

    def enumerate(self, state, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        """[GUIDELINE] Every solution in the cube, one after another (up to `limit`)."""
        raise NotImplementedError("the solver's enumeration, blocking each solution found")

    def _search(self, model, cube: Cube, time_limit: float | None) -> list[int] | None:
        raise NotImplementedError("[GUIDELINE] call the solver")
