"""The compiled searches: C extensions built when puzzlesat is installed (setup.py), one a
kernel, sources in runners/csrc/.

A backend asks `kernel(NAME)` for its module; where the install found no C compiler the module
is absent and `KernelMissing` says so in one line, as a backend whose extra is not installed
does. Nothing is compiled at run time, and no JIT is imported (issue 39).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from types import ModuleType


class KernelMissing(ImportError):
    """A compiled search that was not built when puzzlesat was installed."""


def available(name: str) -> bool:
    """Whether the compiled kernel `name` was built (without loading it)."""
    try:
        return importlib.util.find_spec(f"puzzlesat._{name}") is not None
    except (ImportError, ValueError):
        return False


# (kept: asked for at every step of a split's listing, 175,000 times to resume the pentahex
# count, where import_module took 1 s of its 4.7 s)
@functools.cache
def kernel(name: str) -> ModuleType:
    """The compiled kernel `name` (runners/csrc/NAME.c), loaded once a process."""
    try:
        return importlib.import_module(f"puzzlesat._{name}")
    except ImportError as error:
        raise KernelMissing(
            f"the compiled {name} search was not built when puzzlesat was installed (no C "
            "compiler was found): install a C compiler and reinstall puzzlesat") from error
