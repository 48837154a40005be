"""Symmetry groups, orbits and Burnside's lemma: the one place where counts meet a group.

Counting "up to symmetry" takes a group of symmetries of the board (named elements, identity
first). The number of classes is the mean number of solutions each element leaves unchanged
(Burnside's lemma); a piece's placements fall into orbits, one representative each.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .words import plural

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Group:
    """A symmetry group, by the names of its elements (identity first)."""

    elements: tuple[str, ...]

    @property
    def order(self) -> int:
        return len(self.elements)

    def describe(self) -> str:
        if self.order == 1:
            return "the identity only (the board has no other symmetry the rules keep)"
        if self.order > 8:  # a solid's: too many to list in a sentence
            mirrors = sum(name.startswith("mirror") for name in self.elements)
            return (f"{plural(self.order, 'symmetry')}: {plural(self.order - mirrors, 'rotation')} "
                    "(the identity among "
                    "them)" + (f" and {mirrors} mirror images" if mirrors else ""))
        return f"{plural(self.order, 'symmetry')}: {', '.join(self.elements)}"

    def to_json(self) -> dict[str, object]:
        return {"order": self.order, "elements": list(self.elements)}


IDENTITY = Group(("identity",))


def burnside(fixed: Sequence[int]) -> int:
    """Classes from the solutions each group element leaves unchanged (identity first: all)."""
    if not fixed:
        raise ValueError("a group has at least the identity")
    total = sum(fixed)
    if total % len(fixed):
        raise ArithmeticError(
            f"Burnside sum {total} is not divisible by the group's order {len(fixed)}: "
            "a count is wrong"
        )
    return total // len(fixed)


def orbit_representatives(
    items: Iterable[T], images: Callable[[T], Iterable[T]]
) -> list[tuple[T, int]]:
    """One representative of each orbit, in the order first met, and the orbit's size.

    `images(x)` gives x under every element of the group (x itself included).
    """
    seen: set[T] = set()
    found = []
    for item in items:
        if item in seen:
            continue
        orbit = set(images(item))
        seen |= orbit
        found.append((item, len(orbit)))
    return found
