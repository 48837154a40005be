"""Modules imported when first used, so that a command pays only for the path it takes.

`puzzlesat count` of a packing puzzle has no use for the breadth-first engine (numpy), the
edge-matching tables (numpy) or the pictures, yet the command line declares every family's
flags; a family module names its heavy parts with `lazy_module` and they load on the first
attribute read (results/dlx-bench.md: start-up).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name` (absolute), executed when one of its attributes is first read; the
    module itself where it is already imported."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
