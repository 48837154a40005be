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

from .api import backends, catalog, count, export, load, solutions, solve, verify
from .best import Best, BoardCheck, best, verify_board
from .booklet import audit, make_booklet
from .cards import minimal_cards
from .children import WorkerDied
from .models.errors import InputError, PuzzlesatWarning
from .models.symmetry import Group
from .outcomes import Count, Solution, Verification

__all__ = [
    "Best",
    "BoardCheck",
    "Count",
    "Group",
    "InputError",
    "PuzzlesatWarning",
    "Solution",
    "Verification",
    "WorkerDied",
    "audit",
    "backends",
    "best",
    "catalog",
    "count",
    "export",
    "load",
    "make_booklet",
    "minimal_cards",
    "solutions",
    "solve",
    "verify",
    "verify_board",
]
