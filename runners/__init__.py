"""puzzlesat: solve and count combinatorial puzzles with CP-SAT, SAT solvers and reference solvers.

    import puzzlesat
    puzzle = puzzlesat.load("iq-block-8")
    puzzlesat.solve(puzzle)                      # a Solution, decoded and drawn by str()
    puzzlesat.count(puzzle, modulo="symmetry")   # a Count: number, what it means, complete?
    list(puzzlesat.solutions(puzzle, limit=3))   # Solutions one by one
    puzzlesat.verify(puzzle)                     # every backend, all must agree
    puzzlesat.backends(puzzle)                   # names usable for it, default first
    puzzlesat.catalog()                          # the built-in puzzles' names
    puzzlesat.best("eternity-ii", time_limit=60)  # edge matching: the most seams matched
    puzzlesat.minimal_cards(puzzle)              # the fewest pieces placed for one solution
    puzzlesat.make_booklet(puzzle, cards=12)     # graded cards with one solution each
    puzzlesat.audit("my-booklet.toml")           # which cards of a booklet are unique

In a notebook a Solution shows itself drawn (as `puzzlesat draw` draws it), a Count and a
Verification as tables; warnings are PuzzlesatWarning:

    puzzlesat.solve("scramble-frog")             # the board drawn, each tile turned
    puzzlesat.count("scramble-frog", modulo="symmetry")   # a table: number, meaning, complete
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

# Each public name and the module it lives in, loaded when the name is first read: `puzzlesat
# count` of a packing puzzle imports the package and must not pay for Eternity II's optimiser,
# the booklets or numpy's edge-matching tables (start-up: results/dlx-bench.md).
_PUBLIC = {
    "backends": ".api", "catalog": ".api", "count": ".api", "export": ".api", "load": ".api",
    "solutions": ".api", "solve": ".api", "verify": ".api",
    "Best": ".best", "BoardCheck": ".best", "best": ".best", "verify_board": ".best",
    "audit": ".booklet", "make_booklet": ".booklet",
    "minimal_cards": ".cards",
    "WorkerDied": ".children",
    "InputError": ".models.errors", "PuzzlesatWarning": ".models.errors",
    "Group": ".models.symmetry",
    "Count": ".outcomes", "Solution": ".outcomes", "Verification": ".outcomes",
}

__all__ = sorted(_PUBLIC, key=lambda name: (name[0].islower(), name))


def __getattr__(name: str):
    """A public name, imported from its module when first read."""
    where = _PUBLIC.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


class _Package(ModuleType):
    """The package, whose public functions `best` and `backends` keep their names when the
    submodules of the same names (runners/best.py, runners/backends/) are imported: the import
    system binds a submodule on its package, and `puzzlesat.best(...)` must stay the function."""

    def __setattr__(self, name: str, value) -> None:
        if name in ("best", "backends") and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
