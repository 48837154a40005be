"""numba where it is installed (the `dlx` extra), else the same functions as plain Python.

The compiled searches (the bitboard, edgecount, the breadth-first engine) are written once:
with numba they are compiled and cached on disk; without it they run as Python, correct but
slow, and `COMPILED` says which (a search that releases the GIL only when compiled)."""

from __future__ import annotations

try:  # pragma: no cover - which branch runs depends on the machine
    from numba import njit
    from numba.cpython.unsafe.numbers import trailing_zeros

    COMPILED = True
except ImportError:  # pragma: no cover
    COMPILED = False

    def njit(*args, **kwargs):
        """The function itself: `@njit(...)` without numba."""
        return lambda function: function

    def trailing_zeros(x: int) -> int:
        """The number of zero bits below the lowest set bit of x."""
        return (x & -x).bit_length() - 1
