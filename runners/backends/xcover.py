"""Knuth's Algorithm C (exact cover with colours, dancing cells) from the xcover library.

xcover (PyPI, by John F. Rudge) compiles Algorithm C with numba; the first import compiles it
(20-56 s on this project's busy 2-core machine), later imports load numba's cache (0.7-3.6 s),
kept beside xcover's own files (or in $NUMBA_CACHE_DIR where those are read-only). `warm_up()`
does that once and says how long it took, so timings never include it.

A cube (+k: option k-1 chosen, -k: option k-1 left out) is applied before the search: chosen
options take their items, options that clash with them or are left out are dropped, and the
rest is searched as a smaller exact cover. Algorithm C cannot be stopped inside a search, so
the deadline is checked between solutions (stops_itself is False: an executor must end it).
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from dataclasses import dataclass

from ..models.encoded import CoverModel
from . import Backend, Cube, Interrupted, Outcome, Values

NEEDS = "pip install 'puzzlesat[dlx]' (xcover and numba)"


def warm_up() -> float:
    """Import xcover (compiling Algorithm C, or loading numba's cache) and solve a tiny cover;
    the seconds this took."""
    start = time.perf_counter()
    from xcover import algorithm_c  # noqa: F401  (importing compiles it)

    tiny = CoverModel(["a", "b"], 2, [(0,), (1,), (0, 1)])
    assert count_cover(tiny) == 2
    return time.perf_counter() - start


@dataclass
class Restricted:
    """A cube applied to a model: the options chosen up front and the rest still to search."""

    chosen: list[int]
    kept: list[int]  # indices into the model's options, in order
    open_primary: list[int]  # primary items the chosen options leave uncovered


def restrict(model: CoverModel, cube: Cube) -> Restricted | None:
    """The options left after choosing the cube's +k and dropping its -k; None when the chosen
    options clash with each other (no solution in the cube)."""
    chosen = [k - 1 for k in cube if k > 0]
    left_out = {-k - 1 for k in cube if k < 0}
    if left_out.intersection(chosen):
        return None
    taken: dict[int, str] = {}  # item -> colour it holds ("" when taken without a colour)
    for k in chosen:
        for item in model.options[k]:
            colour = model.colour(k, item)
            if item in taken and (not colour or taken[item] != colour):
                return None
            taken[item] = colour
    kept = []
    for j, option in enumerate(model.options):
        if j in left_out or j in chosen:
            continue
        if all(
            item not in taken or (taken[item] and model.colour(j, item) == taken[item])
            for item in option
        ):
            kept.append(j)
    open_primary = [i for i in range(model.primary) if i not in taken]
    return Restricted(chosen, kept, open_primary)


def cover_arrays(model: CoverModel, restricted: Restricted):
    """Algorithm C's input: items renumbered (open primary items first), the options' items,
    where each option starts, and colours as numbers (0 for none)."""
    import numpy as np

    number = {item: n for n, item in enumerate(restricted.open_primary)}
    secondary = range(model.primary, len(model.items))
    for item in secondary:
        number[item] = len(number)
    colour_number: dict[str, int] = {}
    items, starts, colours = [], [0], []
    for j in restricted.kept:
        for item in model.options[j]:
            items.append(number[item])
            colour = model.colour(j, item)
            colours.append(
                colour_number.setdefault(colour, len(colour_number) + 1) if colour else 0
            )
        starts.append(len(items))
    return (
        np.array(items, dtype=np.uint32),
        np.array(starts, dtype=np.uint32),
        np.array(colours, dtype=np.uint32),
        np.uint32(len(number)),
        np.uint32(len(secondary)),
    )


def solutions_in_cube(model: CoverModel, cube: Cube) -> Iterator[list[int]]:
    """Every solution in a cube, as the indices of its options (into model.options)."""
    from xcover import algorithm_c

    restricted = restrict(model, cube)
    if restricted is None:
        return
    if not restricted.kept:
        if not restricted.open_primary:
            yield sorted(restricted.chosen)
        return
    for found in algorithm_c(*cover_arrays(model, restricted)):
        yield sorted(restricted.chosen + [restricted.kept[j] for j in found])


def count_zdd(model: CoverModel, cube: Cube = ()) -> int:
    """How many solutions a cube has, by xcover's `covers_zdd` with its memo cache (Nishino et
    al.'s DXZ: equal sub-problems share one node): the paths of the ZDD to its 1 terminal.
    Exact cover without colours or multiplicities: the anchor of memoised counting."""
    from xcover import covers_zdd

    restricted = restrict(model, cube)
    if restricted is None:
        return 0
    if not restricted.open_primary:
        return 1
    number = {item: n for n, item in enumerate(restricted.open_primary)}
    options = [[number[i] for i in model.options[j]] for j in restricted.kept]
    if not options:
        return 0
    paths = [0, 1]  # the terminals: 0 and 1
    for index, _, lo, hi in covers_zdd(options, primary=list(range(len(number))),
                                       use_memo_cache=True):
        paths.extend([0] * (index + 1 - len(paths)))
        paths[index] = paths[lo] + paths[hi]
    return paths[-1] if len(paths) > 2 else 0


def count_cover(model: CoverModel, cube: Cube = (), deadline: float | None = None) -> int:
    """How many solutions a cube has (every one enumerated); stops at the deadline."""
    return _count(model, cube, deadline)[0]


def _count(model: CoverModel, cube: Cube, deadline: float | None) -> tuple[int, bool]:
    found = 0
    try:
        for _ in solutions_in_cube(model, cube):
            found += 1
            if deadline is not None and not found & 63 and time.time() >= deadline:
                return found, False
    except KeyboardInterrupt:
        raise Interrupted((found,)) from None
    return found, True


class XcoverBackend(Backend):
    """xcover's Algorithm C on exact cover (with colours) models."""

    name = "xcover"
    takes = "cover"
    about = "Knuth's Algorithm C, exact cover with colours (xcover, compiled by numba)"
    cubes_per_job = 4
    colours = True
    stops_itself = False  # Algorithm C runs to its next solution before the deadline is seen
    needs = NEEDS

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("xcover") is not None and (
            importlib.util.find_spec("numba") is not None
        )

    def solve(self, model: CoverModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        first = next(solutions_in_cube(model, ()), None)
        values = None if first is None else model.values(first)
        return Outcome(values, time.perf_counter() - start)

    def enumerate(self, state: CoverModel, cube: Cube, limit: int | None) -> Iterator[list[int]]:
        for n, chosen in enumerate(solutions_in_cube(state, cube)):
            if limit is not None and n >= limit:
                return
            yield state.values(chosen)

    def count_cube(
        self, state: CoverModel, cube: Cube, deadline: float | None
    ) -> tuple[Values, bool]:
        found, finished = _count(state, cube, deadline)
        return (found,), finished
