"""What the API returns, the same for every family: a Count, a Solution, a Verification."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .models import words
from .models.symmetry import IDENTITY, Group

# why a count stopped before its end (details["stopped_by"]), as its sentence says it
STOPPED_BY = {"time_limit": "stopped at the time limit"}


@dataclass
class Count:
    """An exact count and what it means; with complete False, `number` is a lower bound."""

    puzzle: str
    number: int | None
    counted: str  # what is counted, as a sentence
    modulo: str  # "none" or "symmetry"
    complete: bool
    seconds: float
    backend: str
    executor: str = "local"
    group: Group = IDENTITY  # the symmetry group the classes are taken under
    details: dict[str, object] = field(default_factory=dict)  # the family's other numbers

    def sentence(self) -> str:
        counter = self.details.get("counter")  # a model counter: its name, version, licence
        backend = f"{self.backend} = {counter}" if counter else self.backend
        where = f"({backend}, {self.executor}, {self.seconds:.2f} s)"
        if self.number is None:
            return f"{self.puzzle}: no count: {self.counted} {where}"
        if not self.complete:
            why = STOPPED_BY.get(self.details.get("stopped_by"), "stopped early")
            if counter:
                why += (" (a model counter reports no partial count: each count it had not "
                        "finished adds 0)")
            return (f"{self.puzzle}: INCOMPLETE count, {why}: at least "
                    f"{words.counted(self.number, self.counted)} {where}")
        why = self.details.get("why_none")
        return f"{self.puzzle}: {words.counted(self.number, self.counted)} {where}" + (
            f"; {why}" if why and self.number == 0 else "")

    def uniqueness(self) -> str | None:
        """What a count up to a limit (`limit=2`) says of the puzzle: unique, not unique, or no
        solution; None for a count without a limit."""
        if "limit" not in self.details:
            return None
        if self.number == 0:
            return "no solution"
        if self.details.get("unique"):
            return "unique: exactly one solution"
        if self.complete:
            return f"not unique: exactly {words.plural(self.number, 'solution')}"
        return (f"not unique: at least {words.plural(self.number, 'solution')} "
                "(stopped at the limit)")

    def to_json(self) -> dict[str, object]:
        return {
            "puzzle": self.puzzle,
            "count": None if self.number is None else words.written(self.number),
            "counted": self.counted,
            "modulo": self.modulo,
            "group": self.group.to_json(),
            "complete": self.complete,
            "lower_bound": not self.complete,
            "backend": self.backend,
            "executor": self.executor,
            "seconds": round(self.seconds, 3),
            **self.details,
        }

    def __repr__(self) -> str:
        bound = "" if self.complete else "at least "
        what = re.split(r'[:(;]', self.counted)[0].strip()
        number = f"? {what}" if self.number is None else words.counted(self.number, what)
        verdict = self.uniqueness()
        return (
            f"<Count {self.puzzle}: {bound}{number}; "
            + (f"{verdict}; " if verdict else "") +
            f"{'complete' if self.complete else 'INCOMPLETE'}, {self.backend}, {self.executor}, "
            f"{self.seconds:.2f} s>"
        )

    def _repr_html_(self) -> str:
        """A notebook shows a Count as a small table (number, what it counts, complete?)."""
        from .pictures.display import count_html

        return count_html(self)


@dataclass
class Solution:
    """One solution, decoded: `grid` is the family's own form (None when none was found).

    Packing: {(row, col): piece index}. Edge matching: [(tile index, quarter turns)] per cell in
    reading order. Mind Lock: the positions from the start to a solved one (`moves` between).
    """

    puzzle: str
    kind: str
    grid: object | None
    backend: str
    seconds: float
    complete: bool = True  # False: stopped by the time limit before it could decide
    moves: list[str] | None = None
    data: object = None  # the solution as JSON-able data
    lines: list[str] = field(default_factory=list)  # the solution drawn as text
    note: str = ""  # what the solution is (e.g. "optimal: 12 moves"), or why there is none
    # the puzzle solved, as loaded (the API sets it): what a notebook needs to draw the solution
    puzzle_object: object = field(default=None, repr=False, compare=False)
    # a search in cubes (solve with jobs or a checkpoint): its nodes, cubes searched, ...
    details: dict[str, object] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return self.grid is not None

    def to_json(self) -> dict[str, object]:
        return {
            "puzzle": self.puzzle,
            "kind": self.kind,
            "solved": self.found,
            "complete": self.complete,
            "backend": self.backend,
            "seconds": round(self.seconds, 3),
            "note": self.note,
            "solution": self.data,
            **({"moves": self.moves} if self.moves is not None else {}),
            **({"details": self.details} if self.details else {}),
        }

    def __str__(self) -> str:
        return "\n".join(self.lines) if self.found else f"{self.puzzle}: {self.note}"

    def __repr__(self) -> str:
        if not self.found:
            return f"<Solution {self.puzzle}: none ({self.note}); {self.backend}>"
        what = self.note or "found"
        return f"<Solution {self.puzzle}: {what}; {self.backend}, {self.seconds:.2f} s>"

    def _repr_svg_(self) -> str | None:
        """A notebook shows a Solution drawn, as `puzzlesat draw` draws it (None: none found)."""
        from .pictures.display import solution_svg

        return solution_svg(self)


@dataclass
class Verification:
    """Counts of one puzzle on several backends and methods, and whether they all agree."""

    puzzle: str
    agree: bool
    why: str  # why not, when they do not agree
    counts: list[Count]
    result: dict[str, object]  # the figures to record (results/PUZZLE.json), with the evidence
    table: str  # the counts side by side, for the terminal

    def __repr__(self) -> str:
        state = "all agree" if self.agree else f"FAILED: {self.why}"
        return f"<Verification {self.puzzle}: {state}; {words.plural(len(self.counts), 'count')}>"

    def _repr_html_(self) -> str:
        """A notebook shows a Verification as a table of its counts, and whether they agree."""
        from .pictures.display import verification_html

        return verification_html(self)
