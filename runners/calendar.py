"""Calendar puzzles counted date by date: the number of solutions of every date, with pieces
turned over and face up only, as one count on the counting engine.

The whole board's exact cover is built once per rule (models/packing/calendar.py); each date is
one cube of it, the options that leave its labels uncovered, so the placements are built once
and the cubes spread over the jobs like any count's. The compiled bitboard search (the `dlx`
extra) counts the cubes; without it the default falls back to CP-SAT, which is slow here.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from .api import Say, check_time_limit, make_runner
from .counting import progress_bar
from .executors import Executor, Work
from .models.encoded import CoverModel
from .models.errors import InputError
from .models.packing import PackingPuzzle
from .models.packing.calendar import Date, calendar_cover, dates, has_weekdays
from .registry import family, resolve

# what each rule's numbers count, said wherever they are printed
COUNTED = {
    "dates": "solutions: placements of the pieces leaving the date uncovered, pieces "
             "turned and turned over, each placement different (no symmetry taken out)",
    "face_up": "solutions face up: placements of the pieces leaving the date uncovered, pieces "
               "turned but never turned over (each lies with the side drawn in the puzzle file "
               "up), each placement different",
}
SLOW = ("cpsat", "pysat")
# The default where the compiled search is here: its memo kept for every date (a sub-problem,
# the cells left and the pieces left, recurs across dates), measured in CPU s a date, one
# thread: A-Puzzle-A-Day (all 366) 0.0034 against 0.0054 choosing the memo per date; the
# weekday board (Oct 1-10, every weekday; the cells taken from the last row) 0.026 against 0.054.
MEMO = "bitboard:memo"
MEMO_WHY = ("the compiled bitboard search keeping its memo for every date: twice as fast as "
            "choosing it date by date")  # backends that count each date by a solver call: slow here


@dataclass
class CalendarTable:
    """Every date's number of solutions, by rule: `dates` with pieces turned over, `face_up`
    without. A count stopped early (time limit, Ctrl-C) lacks the dates it did not finish and
    has `complete` False."""

    puzzle: str
    dates: dict[str, int]
    face_up: dict[str, int]
    complete: bool
    seconds: float
    backend: str
    jobs: int
    counted: dict[str, str] = field(default_factory=lambda: dict(COUNTED))

    def extremes(self, rule: str = "dates") -> dict[str, object]:
        """The hardest dates (fewest solutions), the easiest (most), those with exactly one
        solution and those with none, under one rule."""
        table: dict[str, int] = getattr(self, rule)
        if not table:
            return {"hardest": [], "fewest": None, "easiest": [], "most": None, "one": [],
                    "none": []}
        fewest = min(n for n in table.values() if n > 0) if any(table.values()) else 0
        most = max(table.values())
        return {"fewest": fewest, "hardest": [d for d, n in table.items() if n == fewest],
                "most": most, "easiest": [d for d, n in table.items() if n == most],
                "one": [d for d, n in table.items() if n == 1],
                "none": [d for d, n in table.items() if n == 0]}

    def to_json(self) -> dict[str, object]:
        return {"puzzle": self.puzzle, "dates": self.dates, "face_up": self.face_up,
                "counted": self.counted, "complete": self.complete,
                "summary": {rule: self.extremes(rule) for rule in ("dates", "face_up")},
                "backend": self.backend, "jobs": self.jobs, "seconds": self.seconds}


def calendar(puzzle: PackingPuzzle, backend: str | None = None, jobs: int | None = None,
             executor: str | Executor | None = None, time_limit: float | None = None,
             progress: bool | None = None, say: Say | None = None,
             only: list[Date] | None = None) -> CalendarTable:
    """Count every date of a calendar puzzle (or the dates in `only`), pieces turned over and
    face up."""
    if not isinstance(puzzle, PackingPuzzle):
        raise InputError(f"a calendar is a packing puzzle, not a {puzzle.kind} puzzle",
                         field="puzzle")
    time_limit = check_time_limit(time_limit)
    chosen = resolve(backend, "packing", "count")
    if backend is None and chosen.name == "bitboard":
        chosen = resolve(MEMO, "packing", "count")
    if chosen.takes == "reference":
        raise InputError(f"{chosen.name} counts a puzzle file of its own; a calendar is counted "
                         "on a model of every date (bitboard, xcover, cpsat, pysat:...)",
                         field="backend")
    if say and chosen.name.split(":")[0] in SLOW:
        say(f"note: {chosen.name} counts each date by a solver's search, many times slower "
            "than the compiled bitboard search (built when puzzlesat is installed with a C "
            "compiler)")
    wanted = dates(puzzle) if only is None else only
    for date in wanted:
        if (date.weekday is not None) != has_weekdays(puzzle):
            raise InputError(f"{date.name} is no date of {puzzle.name}", field="date")
    runner = make_runner(jobs, executor, time_limit, None, say)
    begin = time.perf_counter()
    fam = family("packing")
    works = []
    for rule, flip in (("dates", True), ("face_up", False)):
        made = calendar_cover(puzzle, flip)
        model = fam.encode_for(chosen, made.cover)
        if isinstance(model, CoverModel):
            model = dataclasses.replace(model, fill_order=made.fill_order)
        cubes = [tuple(k + 1 for k in made.date_options(d)) for d in wanted]
        works.append(Work(rule, chosen.name, chosen.payload(model), cubes,
                          stops_itself=chosen.stops_itself, shown=rule == "dates"))
    key = {"puzzle": puzzle.name, "calendar": [d.name for d in wanted], "backend": chosen.name}
    with progress_bar(f"{puzzle.name}: every date ({chosen.name})", progress) as shown:
        runner.progress = shown
        tallies = runner.run(works, key)
    table: dict[str, dict[str, int]] = {}
    for tally in tallies:
        table[tally.work.label] = {d.name: v[0] for d, v, ok in
                                   zip(wanted, tally.values, tally.finished) if ok}
    if say and backend is None:
        say(f"backend: {chosen.name}, the calendar's default"
            + (f" ({MEMO_WHY})" if chosen.name == MEMO else ", the packing count's"))
    return CalendarTable(puzzle.name, table["dates"], table["face_up"],
                         all(t.complete for t in tallies), time.perf_counter() - begin,
                         chosen.name, runner.jobs)


def date_solutions(puzzle: PackingPuzzle, per_date: int) -> dict[str, tuple[list[dict], bool]]:
    """For every date, up to `per_date` of its solutions (pieces turned over where the puzzle's
    `flip` allows), each as piece index per covered cell, and whether they are all of them:
    listed by the compiled search on the whole board's cover, a date a cube (where it was
    not built, each date's board listed by the packing family's default)."""
    from . import api
    from .models.packing.calendar import on_date

    every = dates(puzzle)
    bitboard = resolve("bitboard", "packing", "count")
    if not bitboard.supported():
        found = {}
        for date in every:
            grids = [one.grid for one in api.solutions(on_date(puzzle, date),
                                                       limit=per_date + 1)]
            found[date.name] = (grids[:per_date], len(grids) <= per_date)
        return found
    made = calendar_cover(puzzle, puzzle.flip)
    model = family("packing").encode_for(bitboard, made.cover)
    state = bitboard.prepare(bitboard.payload(
        dataclasses.replace(model, fill_order=made.fill_order)))
    found = {}
    for date in every:
        cube = tuple(k + 1 for k in made.date_options(date))
        grids = [made.grid([k for k, v in enumerate(values) if v])
                 for values in bitboard.enumerate(state, cube, per_date + 1)]
        found[date.name] = (grids[:per_date], len(grids) <= per_date)
    return found
