"""The puzzlesat command line: list, backends, solve, count, verify, export and bench any puzzle;
read a count's checkpoint (runners/cli/commands.py).

This first module holds only the entry point, so that start-up stays near Python's: `puzzlesat
list` answers from the catalog's summaries (runners/cli/listing.py) and `puzzlesat --help` from
the verbs' index (runners/cli/verbs.py) without importing the API, the families or a solver;
every other command loads the whole command line. The names of
commands.py (`main`, `build_parser`, `TOP_LEVEL`, ...) are read through this package as before.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys


def command() -> None:
    """The `puzzlesat` program (and `python -m puzzlesat`)."""
    from . import listing, verbs  # (submodules: __getattr__ below leaves them to the imports)

    if listing.wanted(sys.argv[1:]):
        listing.command(sys.argv[1:])
    if verbs.wanted(sys.argv[1:]):
        verbs.command()
    from .commands import command as whole

    whole()


def __getattr__(name: str):
    """A name of the whole command line (commands.py), loaded when first read."""
    if name.startswith("__") or importlib.util.find_spec(f"{__name__}.{name}") is not None:
        raise AttributeError(name)  # a submodule: the import system loads it
    return getattr(importlib.import_module(".commands", __name__), name)
