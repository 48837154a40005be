"""Modules imported when first used, so that a command pays only for the path it takes.

`puzzlesat count` of a packing puzzle has no use for the breadth-first engine, the
edge-matching tables or the pictures, yet the command line declares every family's flags; a
family module names its heavy parts with `lazy_module` and they load on the first attribute
read (results/dlx-bench.md: start-up).

The stand-in is not put in sys.modules: the first read imports the module by the import
system's own path, under its per-module lock, so threads that read at once (the workshop's)
each find it whole. (importlib's LazyLoader, used before, let a second thread see the module
half executed: "module 'puzzlesat.families.edge_matching' has no attribute 'FAMILY'".)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType


class LazyModule(ModuleType):
    """A module's stand-in that imports it on the first attribute read."""

    def __getattr__(self, attribute: str):
        return getattr(importlib.import_module(self.__name__), attribute)


def lazy_module(name: str) -> ModuleType:
    """The module `name` (absolute), imported when one of its attributes is first read; the
    module itself where it is already imported."""
    if name in sys.modules:
        return sys.modules[name]
    if importlib.util.find_spec(name) is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    return LazyModule(name)
