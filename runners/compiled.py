"""numba where it is installed (the `dlx` extra), else the same functions as plain Python.

The compiled searches (the bitboard, edgecount, the breadth-first engine) are written once:
with numba they are compiled and cached on disk; without it they run as Python, correct but
slow, and `COMPILED` says which (a search that releases the GIL only when compiled)."""

from __future__ import annotations

try:  # pragma: no cover - which branch runs depends on the machine
    from numba import njit, types
    from numba.cpython.unsafe.numbers import trailing_zeros
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typing, x):
        """LLVM's population count (one instruction where the processor has one)."""
        def generate(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.int64(types.int64), generate

    @njit(cache=True, nogil=True, inline="always")
    def popcount(x):
        """The number of set bits of a 64-bit integer."""
        return _ctpop(x)

    COMPILED = True
except ImportError:  # pragma: no cover
    COMPILED = False

    def njit(*args, **kwargs):
        """The function itself: `@njit(...)` without numba."""
        return lambda function: function

    def trailing_zeros(x: int) -> int:
        """The number of zero bits below the lowest set bit of x."""
        return (x & -x).bit_length() - 1

    def popcount(x: int) -> int:
        """The number of set bits of a 64-bit integer."""
        return bin(int(x) & (1 << 64) - 1).count("1")
