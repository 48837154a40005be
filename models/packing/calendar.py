"""Calendar puzzles: a labelled packing board (models/packing/labels.py) whose labels are months,
days and, on some, weekdays; a date leaves its month, day (and weekday) uncovered.

The dates of a calendar are every month with each of its days (February with 29), and where
the board has weekdays, each of those with each of the seven weekdays (every one falls on each
weekday in some year). A date is written as its month's three English letters, the day, and the
weekday's three letters: "Jan 1", "Jan 1 Mon".

`calendar_cover` is the exact cover of the whole board, built once for every date: the
placements of the pieces on the whole labelled board, and for each kind of label (month, day,
weekday) one more item, "the month left uncovered", covered by one option per label of that
kind, which covers the label's cell. A date is those options taken (`date_options`): its target
cells are covered by them, and the placements over them can no longer be taken, so the date's
solutions are the solutions of the cover that take its options.
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass

from ..encoded import Regions
from ..errors import InputError
from ..geometry import Cell
from . import ExactCover, PackingPuzzle, Placement, exact_cover, placements
from .labels import label_cells, with_target

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
DAYS_IN = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
KINDS = ("month", "day", "weekday")


@dataclass(frozen=True, order=True)
class Date:
    """A calendar date: month 1-12, day, weekday 0-6 (Monday 0) or None (a board without
    weekdays)."""

    month: int
    day: int
    weekday: int | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels it leaves uncovered: month, day (and weekday)."""
        found = (MONTHS[self.month - 1], str(self.day))
        return found if self.weekday is None else (*found, WEEKDAYS[self.weekday])

    @property
    def name(self) -> str:
        return " ".join(self.labels)


def kind_of(label: str) -> str | None:
    """Which kind of calendar label this is (month, day, weekday), or None."""
    if label in MONTHS:
        return "month"
    if label in WEEKDAYS:
        return "weekday"
    if label.isdigit() and 1 <= int(label) <= 31 and label == str(int(label)):
        return "day"
    return None


def has_weekdays(puzzle: PackingPuzzle) -> bool:
    return any(kind_of(word) == "weekday" for _, word in puzzle.labels)


def check_calendar(puzzle: PackingPuzzle) -> None:
    """InputError (field 'labels') unless the board's labels hold every month and day (and
    every weekday, where it has one)."""
    words = set(label_cells(puzzle))
    wanted = [*MONTHS, *(str(d) for d in range(1, 32))]
    if has_weekdays(puzzle):
        wanted += WEEKDAYS
    missing = [w for w in wanted if w not in words]
    if not puzzle.labels or missing:
        raise InputError(f"{puzzle.name} is no calendar: its board's labels lack "
                         + (", ".join(missing[:12]) + (", ..." if len(missing) > 12 else "")
                            if puzzle.labels else "everything (it has no labels)")
                         + " (a calendar labels its cells with the months Jan-Dec, the days "
                         "1-31 and, where it has them, the weekdays Mon-Sun)", field="labels")


def is_calendar(puzzle: PackingPuzzle) -> bool:
    """Whether the board's labels hold every month and day (see check_calendar)."""
    try:
        check_calendar(puzzle)
    except InputError:
        return False
    return True


def dates(puzzle: PackingPuzzle) -> list[Date]:
    """Every date of the calendar, in calendar order (then by weekday, Monday first)."""
    check_calendar(puzzle)
    weekdays: list[int | None] = list(range(7)) if has_weekdays(puzzle) else [None]
    return [Date(m, d, w) for m in range(1, 13) for d in range(1, DAYS_IN[m - 1] + 1)
            for w in weekdays]


def parse_date(text: str, weekdays: bool) -> Date:
    """A date as a user writes it: "Jan 1", "jan 1 mon" (a board with weekdays needs the
    weekday), or a day of the calendar, 2025-01-01 (its weekday taken from it). InputError
    (field 'date') for a date that does not exist (Feb 30) or lacks its weekday."""
    words = text.split()
    if len(words) == 1:
        try:
            day = datetime.date.fromisoformat(words[0])
        except ValueError:
            raise InputError(f"not a date: {text!r} (write 'Jan 1'{', Jan 1 Mon' * weekdays} "
                             "or 2025-01-01)", field="date") from None
        return Date(day.month, day.day, day.weekday() if weekdays else None)
    month = next((i + 1 for i, m in enumerate(MONTHS) if m.lower() == words[0].lower()), None)
    if month is None or len(words) > 3 or not words[1].isdigit():
        raise InputError(f"not a date: {text!r} (write the month's three letters and the day"
                         f"{', then the weekday' if weekdays else ''}: 'Jan 1"
                         f"{' Mon' if weekdays else ''}')", field="date")
    day = int(words[1])
    if not 1 <= day <= DAYS_IN[month - 1]:
        raise InputError(f"{MONTHS[month - 1]} {day} does not exist ({MONTHS[month - 1]} has "
                         f"{DAYS_IN[month - 1]} days)", field="date")
    if len(words) == 2:
        if weekdays:
            raise InputError(f"this calendar has weekdays: name one ('{text} Mon') or give a "
                             "day of the year (2025-01-01)", field="date")
        return Date(month, day)
    weekday = next((i for i, w in enumerate(WEEKDAYS) if w.lower() == words[2].lower()), None)
    if weekday is None:
        raise InputError(f"no weekday {words[2]!r} (one of {' '.join(WEEKDAYS)})",
                         field="date")
    if not weekdays:
        raise InputError("this calendar has no weekdays: write the month and the day only",
                         field="date")
    return Date(month, day, weekday)


def today(puzzle: PackingPuzzle) -> Date:
    """Today's date on this calendar."""
    day = datetime.date.today()
    return Date(day.month, day.day, day.weekday() if has_weekdays(puzzle) else None)


def on_date(puzzle: PackingPuzzle, date: Date) -> PackingPuzzle:
    """The plain packing puzzle of one date: the labelled board with the date's labels as its
    holes."""
    return dataclasses.replace(with_target(puzzle, date.labels), name=f"{puzzle.name} {date.name}")


@dataclass(frozen=True)
class CalendarCover:
    """The exact cover of a calendar's whole board (see the module's docstring): `gap[label]` is
    the row that leaves the label's cell uncovered."""

    cover: ExactCover
    gap: dict[str, int]
    puzzle: PackingPuzzle  # the whole board, no target
    options: list[Placement]  # the cover's first rows: the pieces' placements

    def grid(self, chosen: list[int]) -> dict[Cell, int]:
        """A solution given by its rows, as piece index per cell it covers."""
        return {cell: self.options[k].piece for k in chosen if k < len(self.options)
                for cell in self.options[k].cells}

    @property
    def fill_order(self) -> list[int]:
        """The items in the order a search covering the first uncovered item takes them: the
        cells from the board's last row to its first, then the pieces and the kinds of label.
        Counted with the memo shared by the dates (a sub-problem is the cells left to cover and
        the pieces left), the weekday board took 0.026 CPU s a date so against 0.062 from the
        first row (Oct 1-10, every weekday); A-Puzzle-A-Day the same either way."""
        pieces, cells = self.cover.pieces, len(self.puzzle.cells)
        return [*range(pieces + cells - 1, pieces - 1, -1), *range(pieces),
                *range(pieces + cells, len(self.cover.columns))]

    def date_options(self, date: Date) -> list[int]:
        """The rows a date takes: its labels' cells left uncovered."""
        return [self.gap[label] for label in date.labels]


def calendar_cover(puzzle: PackingPuzzle, flip: bool) -> CalendarCover:
    """The exact cover of every date at once, pieces turned over where `flip`, face up (as
    drawn) where not."""
    check_calendar(puzzle)
    whole = dataclasses.replace(with_target(puzzle, ()), flip=flip, placed=())
    options = placements(whole)
    cover = exact_cover(whole, options)
    at = label_cells(whole)
    kinds = [k for k in KINDS if any(kind_of(w) == k for w in at)]
    first = len(cover.columns)
    column_of = {cell: k for k, cell in enumerate(whole.cells, start=cover.pieces)}
    gap = {}
    rows, labels = list(cover.rows), list(cover.labels)
    for word, cell in at.items():
        kind = kind_of(word)
        if kind is None:
            continue
        gap[word] = len(rows)
        rows.append((column_of[cell], first + kinds.index(kind)))
        labels.append(f"{word} left uncovered")
    regions = cover.regions
    if regions is not None:  # the new items touch no cell: taken first, before any piece
        regions = Regions(tuple(regions.adjacent) + ((),) * len(kinds), regions.smallest,
                          regions.granule)
    multiplicity = None if cover.multiplicity is None else cover.multiplicity + [1] * len(kinds)
    extended = dataclasses.replace(
        cover, columns=cover.columns + [f"{k} left uncovered" for k in kinds], rows=rows,
        labels=labels, multiplicity=multiplicity, regions=regions)
    return CalendarCover(extended, gap, whole, options)
