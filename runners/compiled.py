"""numba where it is installed (the `dlx` extra), else the same functions as plain Python.

The compiled searches (the bitboard, edgecount, the breadth-first engine) are written once:
with numba they are compiled and cached on disk; without it they run as Python, correct but
slow, and `COMPILED` says which (a search that releases the GIL only when compiled).

The atomics (`load_acquire` ... `compare_and_swap`, `fence_acquire`, `fence_release`) are LLVM's
atomic loads, stores and cmpxchg on one int64 of an array, with the orderings named, for tables
threads share (the bitboard search's memo: see Memo there); as plain Python they are plain
reads and writes (no threads run the Python fallback's searches)."""

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

    def _item(context, builder, signature, args):
        """The address of a[i] (a 1-D int64 array, i an int64)."""
        from numba.core import cgutils

        array = context.make_array(signature.args[0])(context, builder, args[0])
        return cgutils.get_item_pointer(context, builder, signature.args[0], array, [args[1]],
                                        wraparound=False)

    def _loader(ordering):
        @intrinsic
        def load(typing, a, i):
            def generate(context, builder, signature, args):
                return builder.load_atomic(_item(context, builder, signature, args), ordering, 8)

            return types.int64(a, i), generate

        return load

    def _storer(ordering):
        @intrinsic
        def store(typing, a, i, v):
            def generate(context, builder, signature, args):
                builder.store_atomic(args[2], _item(context, builder, signature, args), ordering,
                                     8)
                return context.get_dummy_value()

            return types.none(a, i, v), generate

        return store

    def _fencer(ordering):
        @intrinsic
        def fence(typing):
            def generate(context, builder, signature, args):
                builder.fence(ordering)
                return context.get_dummy_value()

            return types.none(), generate

        return fence

    load_relaxed = _loader("monotonic")
    load_acquire = _loader("acquire")
    store_relaxed = _storer("monotonic")
    store_release = _storer("release")
    fence_acquire = _fencer("acquire")
    fence_release = _fencer("release")

    @intrinsic
    def compare_and_swap(typing, a, i, old, new):
        """a[i] set to `new` where it holds `old`, at once (acquire and release); whether it
        did."""
        def generate(context, builder, signature, args):
            pair = builder.cmpxchg(_item(context, builder, signature, args), args[2], args[3],
                                   "acq_rel", "monotonic")
            return builder.extract_value(pair, 1)

        return types.boolean(a, i, old, new), generate

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

    def load_relaxed(a, i):
        return a[i]

    load_acquire = load_relaxed

    def store_relaxed(a, i, v) -> None:
        a[i] = v

    store_release = store_relaxed

    def fence_acquire() -> None:
        pass

    fence_release = fence_acquire

    def compare_and_swap(a, i, old, new) -> bool:
        if a[i] != old:
            return False
        a[i] = new
        return True


def on_disk(*kernels) -> bool:
    """Whether numba's cache on disk holds every one of these compiled functions for its
    present source, so that a first call loads it instead of compiling (False without numba,
    or where it cannot be told: a notice of a compile may then be said once too often)."""
    try:
        return all(bool(kernel._cache._cache_file._load_index()) for kernel in kernels)  # noqa: SLF001
    except (AttributeError, OSError, ValueError, EOFError):  # (numba's own cache layout)
        return False
