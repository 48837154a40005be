"""Mind Lock in the breadth-first engine: its three moves on ranks, read from its move tables
(models/mind_lock, `move_tables`), as a compiled kernel."""

from __future__ import annotations

from functools import cache

import numpy as np

from ..breadth_first import njit
from ..models.mind_lock import move_tables


@cache
def kernel_data() -> tuple:
    """The arrays the kernel reads: for each move, the rank reached from every rank (no
    scratch)."""
    return tuple(np.array(t, dtype=np.uint64) for t in move_tables())


@njit
def moves_kernel(code, data, slot, out):
    """Mind Lock's three moves on ranks (push, horizontal, vertical), from its move tables."""
    push, horizontal, vertical = data
    out[0] = push[code]
    out[1] = horizontal[code]
    out[2] = vertical[code]
    return 3
