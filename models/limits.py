"""Limits on the size of the models built: inputs far beyond what could finish are refused up
front, with a message naming the limit, instead of using gigabytes and printing nothing.

The limits are far above every puzzle in the catalog and the benchmarks (the largest, the
16x16 Eternity II benchmark, has 156,816 placements; IQ Block 10 has 2,110).
"""

from __future__ import annotations

from .errors import InputError

MAX_PLACEMENTS = 2_000_000  # a Boolean each in a solver's model: about 2 GB of CP-SAT model
MAX_PLAN_STEPS = 1_000  # Mind Lock plans; every position is solved in far fewer moves


def check_placements(estimate: int, what: str, field: str | None = None) -> None:
    """Refuse a puzzle whose model would have more than MAX_PLACEMENTS placements."""
    if estimate > MAX_PLACEMENTS:
        raise InputError(
            f"{what}: about {estimate:,} placements, more than the {MAX_PLACEMENTS:,} a model "
            "is built for (it could not be counted or solved in reasonable time and memory)",
            field=field,
        )


def check_steps(steps: int, field: str = "steps") -> None:
    """A plan length must be a whole number from 0 to MAX_PLAN_STEPS."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise InputError(f"must be a whole number, 0 or more, not {steps!r}", field=field)
    if steps > MAX_PLAN_STEPS:
        raise InputError(
            f"{steps:,} moves: more than the {MAX_PLAN_STEPS:,} a plan is built for (every "
            "position is solved in far fewer)", field=field,
        )
