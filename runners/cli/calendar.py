"""`puzzlesat calendar PUZZLE`: a calendar puzzle's number of solutions for every date, with
pieces turned over and face up only; the hardest and easiest dates, those with exactly one
solution and those with none; `--date` one date's counts and a drawing of a solution; `--json`
the table. Added by the packing family's command line."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .. import output as report
from ..models.errors import InputError
from ..models.words import plural
from ..terminal import draw_packing, use_colour

# the calendars' dates (models/packing/calendar.py) are imported where a calendar is counted:
# this command declares its flags for every command line, a count of another family's puzzle
# included (issue 39)
if TYPE_CHECKING:
    from ..models.packing.calendar import Date

LISTED = 12  # dates named in a line of the summary before "and N more"


def add_commands(subparsers) -> None:
    from . import positive, seconds

    command = subparsers.add_parser(
        "calendar", help="packing: a calendar puzzle's solutions for every date (pieces turned "
        "over, and face up only), its hardest and easiest dates; --date: one date, drawn")
    command.add_argument("puzzle", metavar="PUZZLE",
                         help="a calendar puzzle: a catalog name (a-puzzle-a-day, "
                         "calendar-weekdays) or a packing file with labels")
    command.add_argument("--date", default=None, metavar="DATE",
                         help="one date: 'Jan 1', 'Jan 1 Mon' (a board with weekdays), "
                         "2025-01-01, or 'today'")
    command.add_argument("--backend", default=None,
                         help="default: the packing count's (the compiled bitboard search; "
                         "CP-SAT where it was not built, much slower)")
    command.add_argument("--jobs", type=positive, default=None,
                         help="worker processes (default: the cores here)")
    command.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                         help="seconds before giving up (the dates counted by then are shown, "
                         "marked incomplete)")
    command.add_argument("--json", action="store_true",
                         help='print {"dates": {"Jan 1": N, ...}, "face_up": {...}, ...}')
    report.add_record_arguments(command, "the whole table as results/calendar-PUZZLE.json")
    command.set_defaults(run=run_calendar)


def run_calendar(args: argparse.Namespace) -> int:
    from .. import api
    from ..calendar import calendar
    from ..models.packing import calendar as cal

    puzzle = api.load(args.puzzle)
    if puzzle.kind != "packing":
        raise InputError(f"{args.puzzle} is a {puzzle.kind} puzzle; a calendar is a packing "
                         "puzzle with labelled cells")
    cal.dates(puzzle)  # refused here, in one line, where the board is no calendar
    folder = report.record_folder(args)  # checked before the count
    if folder is not None and args.date is not None:
        raise InputError("a record keeps the whole table: leave out --date", field="--record")
    date = None
    if args.date is not None:
        try:
            date = (cal.today(puzzle) if args.date.lower() == "today"
                    else cal.parse_date(args.date, cal.has_weekdays(puzzle)))
        except InputError as error:
            raise InputError(error.message, field="--date") from None
    say = None if args.json else report.say
    table = calendar(puzzle, args.backend, args.jobs, None, args.time_limit,
                     progress=not args.json, say=say, only=None if date is None else [date])
    if args.json:
        print(json.dumps(table.to_json()))
    elif date is not None:
        show_date(puzzle, table, date, args)
    else:
        show_table(puzzle, table)
    if folder is not None:
        if not table.complete:
            report.say("the table is incomplete: nothing recorded")
        else:
            path = report.write_verified(folder, f"calendar-{puzzle.name}", table.to_json())
            report.say(f"wrote {path}")
    return 0 if table.complete else 1


def show_date(puzzle, table, date: Date, args: argparse.Namespace) -> None:
    from .. import api
    from ..models.packing import calendar as cal

    name = date.name
    counted = table.counted
    if name not in table.dates:
        print(f"{puzzle.name} {name}: INCOMPLETE: not counted within the time limit")
        return
    print(f"{puzzle.name} {name}: {table.dates[name]:,} {counted['dates']}")
    if name in table.face_up:
        print(f"{puzzle.name} {name}: {table.face_up[name]:,} {counted['face_up']}")
    if table.dates[name] == 0:
        return
    solution = api.solve(cal.on_date(puzzle, date), time_limit=args.time_limit)
    if solution.found:
        print("\n".join(draw_packing(cal.on_date(puzzle, date), solution.grid, use_colour())))
        print(f"one solution of {name} (left uncovered: the blanks at {', '.join(date.labels)}; "
              f"found by {solution.backend})")


def show_table(puzzle, table) -> None:
    """Every date's counts, one line per day of the year (a board with weekdays: one column
    per weekday), then the summary."""
    from ..models.packing import calendar as cal

    weekdays = cal.has_weekdays(puzzle)
    where = f"({table.backend}, {plural(table.jobs, 'job')}, {table.seconds:.2f} s)"
    state = "" if table.complete else "INCOMPLETE (stopped early: dates missing are shown as -) "
    print(f"{puzzle.name}: {state}every date {where}")
    print(f"  {table.counted['dates']}")
    print(f"  {table.counted['face_up']}")
    if weekdays:
        print("date    " + " ".join(f"{w:>5}" for w in cal.WEEKDAYS) + "  | face up "
              + " ".join(f"{w:>3}" for w in cal.WEEKDAYS))
    else:
        print("date    solutions  face up")
    for m, month in enumerate(cal.MONTHS):
        for day in sorted({d.day for d in cal.dates(puzzle) if d.month == m + 1}):
            keys = ([f"{month} {day} {w}" for w in cal.WEEKDAYS] if weekdays
                    else [f"{month} {day}"])
            flip = [_cell(table.dates, k) for k in keys]
            up = [_cell(table.face_up, k) for k in keys]
            if weekdays:
                print(f"{month} {day:<3} " + " ".join(f"{n:>5}" for n in flip) + "  |         "
                      + " ".join(f"{n:>3}" for n in up))
            else:
                print(f"{month} {day:<3} {flip[0]:>10} {up[0]:>8}")
    for rule, words in (("dates", "solutions"), ("face_up", "solutions face up")):
        for line in summary(table.extremes(rule), words, len(getattr(table, rule))):
            print(f"{puzzle.name}: {line}")


def _cell(found: dict[str, int], key: str) -> str:
    return f"{found[key]:,}" if key in found else "-"


def summary(extremes: dict, words: str, counted: int) -> list[str]:
    """The hardest and easiest dates, those with one solution and with none, in lines."""
    def named(found: list[str]) -> str:
        more = len(found) - LISTED
        return ", ".join(found[:LISTED]) + (f" and {more:,} more" if more > 0 else "")

    lines = []
    if extremes["fewest"]:
        lines.append(f"hardest ({words}: the fewest above none, {extremes['fewest']:,}): "
                     f"{named(extremes['hardest'])}")
        lines.append(f"easiest ({words}: the most, {extremes['most']:,}): "
                     f"{named(extremes['easiest'])}")
    for key, what in (("one", f"exactly one {words.replace('solutions', 'solution')}"),
                      ("none", f"no {words}")):
        found = extremes[key]
        lines.append(f"dates with {what}: "
                     f"{len(found):,} of {counted:,}" + (f": {named(found)}" if found else ""))
    return lines
