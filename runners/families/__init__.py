"""Puzzle families: how each kind of puzzle is solved, counted, listed, verified and exported.

A family turns a puzzle into the model a backend takes, runs the backend (counting through
runners/counting.py), decodes what comes back and says what a count means. Nothing here parses
command lines or prints; runners/cli/ does that, and `import puzzlesat` offers the same calls.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator

from ..backends import Backend
from ..counting import Runner
from ..models.errors import InputError
from ..outcomes import Count, Solution, Verification

# Options whose command-line flag is not their name with dashes.
FLAGS = {"start": "--from"}

# The solver backends every verify runs; each family adds its own reference method.
VERIFY_SOLVERS = ("cpsat", "pysat:cadical195", "pysat:glucose4")


class Family(ABC):
    """One kind of puzzle."""

    kind: str
    takes: tuple[str, ...]  # the models its encoders make (see backends.TAKES)
    moduli: tuple[str, ...] = ("none", "symmetry")
    load_options: tuple[str, ...] = ()  # options of `load`, e.g. ('level',)
    options: tuple[str, ...] = ()  # options of solve/count/export, e.g. ('encoding',)
    export_formats: tuple[str, ...] = ("dimacs",)

    @abstractmethod
    def summary(self, puzzle) -> str: ...

    def at(self, puzzle, **options):
        """The puzzle with the load options applied (e.g. a level)."""
        self.check_options(options, self.load_options, "load")
        return puzzle

    def check_options(self, options: dict, allowed: tuple[str, ...], where: str) -> None:
        for name, value in options.items():
            if value is None:
                continue
            if name not in allowed:
                flag = FLAGS.get(name, "--" + name.replace("_", "-"))
                raise InputError(
                    f"does not apply to {self.kind} puzzles"
                    + (f" (options of {where}: {', '.join(allowed)})" if allowed else ""),
                    field=flag,
                )

    def check_modulo(self, puzzle, modulo: str) -> None:
        if modulo not in self.moduli:
            raise InputError(
                f"{self.kind} puzzles count with --modulo {' or '.join(self.moduli)}, "
                f"not {modulo!r}",
                field="--modulo",
            )

    @abstractmethod
    def solve(self, puzzle, backend: Backend, time_limit: float | None, **options) -> Solution:
        ...

    @abstractmethod
    def count(self, puzzle, backend: Backend, modulo: str, runner: Runner, **options) -> Count:
        ...

    @abstractmethod
    def solutions(self, puzzle, backend: Backend, limit: int | None, **options
                  ) -> Iterator[Solution]: ...

    @abstractmethod
    def verify(self, puzzle, runner_for, **options) -> Verification:
        """Count on every backend and method; `runner_for()` gives a fresh Runner per count."""

    @abstractmethod
    def export(self, puzzle, fmt: str, **options) -> tuple[str, str]:
        """(file text, one-line summary) of the puzzle in an export format."""
