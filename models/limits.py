"""Limits on the size of the models built: inputs far beyond what could finish are refused up
front, with a message naming the limit, instead of using gigabytes and printing nothing; and
what is allowed is built under the time limit, with progress (`building`, `step`).

The limits are far above every puzzle in the catalog and the benchmarks (the largest, the
16x16 Eternity II benchmark, has 156,816 placements; IQ Block 10 has 2,110).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from .errors import InputError
from .words import plural

MAX_PLACEMENTS = 2_000_000  # a Boolean each in a solver's model: about 2 GB of CP-SAT model
MAX_PLAN_STEPS = 1_000  # Mind Lock plans; every position is solved in far fewer moves


def check_placements(estimate: int, what: str, field: str | None = None) -> None:
    """Refuse a puzzle whose model would have more than MAX_PLACEMENTS placements."""
    if estimate > MAX_PLACEMENTS:
        raise InputError(
            f"{what}: about {plural(estimate, 'placement')}, more than the {MAX_PLACEMENTS:,} a "
            "model is built for (it could not be counted or solved in reasonable time and memory)",
            field=field,
        )


def check_steps(steps: int, field: str = "steps") -> None:
    """A plan length must be a whole number from 0 to MAX_PLAN_STEPS."""
    if isinstance(steps, bool) or not isinstance(steps, int):
        raise InputError(f"must be a whole number, not {steps!r}", field=field)
    if steps < 0:
        raise InputError(f"must be 0 or more, not {steps}", field=field)
    if steps > MAX_PLAN_STEPS:
        raise InputError(
            f"at most {MAX_PLAN_STEPS} (asked {steps:,}): a plan's model grows with every move "
            "and every catalog position is solved in far fewer", field=field,
        )


# ---------------------------------------------------------------- building a model

# Cell tests to find a packing puzzle's placements (orientations x board cells x piece cells):
# a 300x300 board with one 300x300 piece would take 8.1e9, hours; the catalog's largest 33,000.
MAX_CELL_TESTS = 50_000_000
# Cells of an edge-matching board: Eternity II has 256; past this the model could not be built
# in reasonable time and memory (its placements alone pass MAX_PLACEMENTS for most tile sets).
MAX_TILES = 250_000
PROGRESS_EVERY = 2.0  # seconds between progress lines while a model is built


def check_cell_tests(estimate: int, what: str, field: str | None = None) -> None:
    """Refuse a packing puzzle whose placements would take more than MAX_CELL_TESTS to find."""
    if estimate > MAX_CELL_TESTS:
        raise InputError(
            f"{what}: about {estimate:,} cell tests to find the placements (orientations x "
            f"board cells x piece cells), more than the {MAX_CELL_TESTS:,} a model is built for",
            field=field,
        )


def check_tiles(tiles: int, what: str, field: str | None = None) -> InputError | None:
    """The error for an edge-matching board of more than MAX_TILES cells (None: not too big)."""
    if tiles <= MAX_TILES:
        return None
    return InputError(
        f"{what}: {plural(tiles, 'tile')}, more than the {MAX_TILES:,} a model is built for "
        "(Eternity II has 256)", field=field,
    )


class BuildStopped(Exception):
    """The time limit came while a model was being built (what was built so far, in words)."""


@dataclass
class Building:
    """The deadline and progress of the model being built (see `building` and `step`)."""

    deadline: float | None
    say: Callable[[str], None] | None
    started: float = field(default_factory=time.monotonic)
    shown: float = 0.0


_building: ContextVar[Building | None] = ContextVar("building", default=None)


@contextmanager
def building(deadline: float | None, say: Callable[[str], None] | None) -> Iterator[None]:
    """While a model is built: `step` stops at the deadline (a time.time() value) and says how
    far the building is every PROGRESS_EVERY seconds."""
    token = _building.set(Building(deadline, say))
    try:
        yield
    finally:
        _building.reset(token)


def step(what: str, done: int, total: int | None = None) -> None:
    """Called now and then by the loops that build a model: raises BuildStopped once the
    deadline has passed, and says how far it is (`done` of `total` WHAT) every few seconds."""
    now = _building.get()
    if now is None:
        return
    far = f"{done:,}" + (f" of {total:,}" if total else "") + f" {what}"
    if now.deadline is not None and time.time() >= now.deadline:
        raise BuildStopped(f"the time limit came while the model was built ({far})")
    if now.say is not None:
        clock = time.monotonic()
        if clock - now.started >= PROGRESS_EVERY and clock - now.shown >= PROGRESS_EVERY:
            now.shown = clock
            now.say(f"building the model: {far} ({clock - now.started:.0f} s)")
