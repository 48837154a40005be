"""TEMPLATE: a new puzzle family. Copy it to runners/families/STEM.py and follow the notes.

Read runners/README.md ("Adding a family") first: it lists every file a family adds and the one
line of models/kinds.py that declares it. This module is no family (nothing registers it);
tests/test_families.py checks that it still implements every method `Family` asks for, so a
copy starts complete.

[GUIDELINE] The docstring atop the copy says what the family is and why it counts as it does.
[GUIDELINE] Keep heavy imports (numpy, numba, solver libraries, pictures) out of the module's top
level: import them inside the method that needs them, or name them with `lazy.lazy_module`,
so that `puzzlesat --help` and `puzzlesat list` stay fast.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..backends import Backend
from ..counting import Runner
from ..executors import Work
from ..models.symmetry import IDENTITY
from ..outcomes import Count, Solution, Verification
from . import Encoder, Family


def encode_cpsat(puzzle) -> object:
    """[GUIDELINE] Encoders live in models/STEM/encode.py: they build a `CpsatModel`, a
    `CnfModel` or a `CoverModel` (models/encoded.py) whose keys say what each variable means,
    and never run a solver. Import them from there; this stand-in only marks the place."""
    raise NotImplementedError("models/STEM/encode.py: the CP-SAT model of the puzzle")


class TemplateFamily(Family):
    """[GUIDELINE] One kind of puzzle: its words (moduli, options) and how it solves and counts."""

    kind = "template"  # [GUIDELINE] the `kind` of its puzzle files, as in models/kinds.py
    # [GUIDELINE] One table: the model each kind of backend takes -> the Encoder that makes it.
    # A backend whose `takes` is not here is refused in one line; add a row (`"cnf":
    # Encoder(encode_cnf, options=("encoding",))`, `"cover": Encoder(encode_cover)`) and every
    # backend taking that model works. An option listed in a row (a CNF's `encoding`) is
    # refused, in one line, for a backend taking another model. A model read its own way says
    # so in its row (`keys`, `decode`, `cubes`, `nodes`, `turned`), never an `if takes ==`;
    # `self.owns(backend)` tells the family's own solvers (the reference) from the rest.
    encoders = {"cpsat": Encoder(encode_cpsat)}
    takes = (*encoders, "reference")
    moduli = ("none",)  # [GUIDELINE] add "symmetry" once classes are counted (and checked)
    load_options: tuple[str, ...] = ()  # [GUIDELINE] options of `load`, e.g. ("level",)
    options: tuple[str, ...] = ()  # [GUIDELINE] options of solve/count/export
    export_formats = ("dimacs",)
    # [GUIDELINE] {"reference": ReferenceSTEM}: a solver written apart from the encoders (its
    # own geometry, its own search) that every count is checked against by `verify`.
    own_backends: dict[str, type[Backend]] = {}

    def summary(self, puzzle) -> str:
        """[GUIDELINE] One line for `puzzlesat list`: its size in the puzzle's own words."""
        return f"{puzzle.kind} puzzle"

    def model(self, puzzle, backend: Backend, **options) -> object:
        """The model the backend takes, from the family's encoder table."""
        return self.encode_for(backend, puzzle, **options)

    def decode(self, puzzle, values: list[int]) -> object:
        """[GUIDELINE] The solution in the puzzle's words, from the keys' values."""
        raise NotImplementedError

    def solve(self, puzzle, backend: Backend, time_limit: float | None, **options) -> Solution:
        start = time.perf_counter()
        outcome = backend.solve(self.model(puzzle, backend), time_limit)
        grid = None if outcome.values is None else self.decode(puzzle, outcome.values)
        # [GUIDELINE] say why there is none: no solution exists, or none within the time limit
        note = "" if grid is not None else (
            "no solution exists" if outcome.complete else "none found within the time limit")
        return Solution(puzzle.name, self.kind, grid, backend.name,
                        time.perf_counter() - start, outcome.complete, note=note)

    def solutions(self, puzzle, backend: Backend, limit: int | None, **options
                  ) -> Iterator[Solution]:
        start = time.perf_counter()
        for values in backend.solutions(self.model(puzzle, backend), limit):
            yield Solution(puzzle.name, self.kind, self.decode(puzzle, values), backend.name,
                           time.perf_counter() - start)

    def count(self, puzzle, backend: Backend, modulo: str, runner: Runner, **options) -> Count:
        """[GUIDELINE] Count through `runner.run`: the time limit, jobs, executors, checkpoints
        and progress then hold as for every family. Split the work into cubes (a cube fixes a
        few keys: +k true, -k false) so that it spreads over workers; the checkpoint key names
        everything the count depends on."""
        modulo = self.check_modulo(puzzle, modulo)
        start = time.perf_counter()
        key = {"puzzle": puzzle.name, "modulo": modulo, "backend": backend.name}
        payload = backend.payload(self.model(puzzle, backend))
        [tally] = runner.run([Work("all solutions", backend.name, payload, [()])], key)
        return Count(puzzle.name, tally.total(), "solutions: [GUIDELINE] say what is counted",
                     modulo, tally.complete, time.perf_counter() - start, backend.name,
                     runner.executor.name, IDENTITY, {"solutions": tally.total()})

    def verify(self, puzzle, runner_for, **options) -> Verification:
        """[GUIDELINE] Count on every backend of `verify_backends(self.kind)` and the
        reference (`runner_for()` gives a fresh Runner per count), compare with each other and
        with the puzzle's `published` figures, and return what `--record` writes."""
        raise NotImplementedError

    def export(self, puzzle, fmt: str, **options) -> tuple[str, str]:
        """[GUIDELINE] (file text, one-line summary) in one of `export_formats`."""
        raise NotImplementedError


# [GUIDELINE] The registry finds the family by this name in runners/families/STEM.py.
FAMILY = TemplateFamily()
