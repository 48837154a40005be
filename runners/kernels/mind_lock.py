"""Mind Lock in the breadth-first engine: the arrays its C move kernel (runners/csrc/moves.c,
kernel MIND_LOCK) reads, its three moves on ranks from its move tables (models/mind_lock,
`move_tables`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from .. import native
from ..models.mind_lock import move_tables

moves = native.kernel("moves")  # KernelMissing where the install built no C module
KERNEL = moves.MIND_LOCK


@cache
def kernel_data() -> tuple:
    """The arrays the kernel reads: for each move (push, horizontal, vertical), the rank
    reached from every rank."""
    return tuple(np.array(t, dtype=np.uint64) for t in move_tables())
