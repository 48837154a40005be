"""A calendar puzzle's play page: the packing page (drag, turn, flip, hint, check, undo) on the
labelled board, with a date picked on the page (today's by default, from the browser's clock).
The date's labels are left uncovered; a hint places one more piece as a solution of that date
has it (solutions listed once for every date, up to a share of PAGE_SOLUTIONS each)."""

from __future__ import annotations

import html

from ..models.packing import PackingPuzzle
from ..models.packing.calendar import (
    MONTHS,
    WEEKDAYS,
    Date,
    dates,
    has_weekdays,
    on_date,
)
from ..models.packing.labels import label_cells, whole_board
from ..models.words import plural
from .packing import plane_page

PAGE_SOLUTIONS = 20_000  # solutions embedded in all (A-Puzzle-A-Day: 54 a date; weekdays: 7)
LEAST_PER_DATE = 3
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a piece in a solution's text


def calendar_page(puzzle: PackingPuzzle) -> str:
    """The page, opened on the puzzle file's own date until the browser picks today's."""
    from ..calendar import date_solutions

    every = dates(puzzle)  # refused in one line where the board is no calendar
    if len(puzzle.pieces) > len(LETTERS):
        raise ValueError("a calendar page writes a piece as one letter")
    per_date = max(LEAST_PER_DATE, PAGE_SOLUTIONS // len(every))
    cells = whole_board(puzzle)
    found = date_solutions(puzzle, per_date)
    solutions = {name: ["".join(LETTERS[grid[c]] if c in grid else "." for c in cells)
                        for grid in grids] for name, (grids, _) in found.items()}
    first = _first(puzzle)
    options = "".join(f'<option value="{html.escape(d.name)}">{html.escape(d.name)}</option>'
                      for d in every)
    calendar = {
        "words": [(cell, word) for word, cell in label_cells(puzzle).items()],
        "data": {"cells": [list(c) for c in cells], "at": {w: list(c) for w, c in
                                                            label_cells(puzzle).items()},
                 "solutions": solutions,
                 "complete": {name: whole for name, (_, whole) in found.items()},
                 "months": list(MONTHS), "weekdays": list(WEEKDAYS) if has_weekdays(puzzle)
                 else None, "first": first.name},
        "controls": f'<label>Date <select id="date">{options}</select></label>',
        "rules": (f"Pick a date (today's when the page opens) and cover every white cell with "
                  f"the {plural(len(puzzle.pieces), 'piece')}, each used once, leaving the date's "
                  f"{'month, day and weekday' if has_weekdays(puzzle) else 'month and day'} "
                  "uncovered. A hint places one more piece as a solution of that date has it "
                  f"(the page holds up to {plural(per_date, 'solution')} of each date; the pieces "
                  f"{'may' if puzzle.flip else 'may not'} be turned over)."),
    }
    return plane_page(on_date(puzzle, first), calendar=calendar)


def _first(puzzle: PackingPuzzle) -> Date:
    """The date the page is drawn with: the file's target where it is a date, else Jan 1."""
    named = {d.name: d for d in dates(puzzle)}
    return named.get(" ".join(puzzle.target), Date(1, 1, 0 if has_weekdays(puzzle) else None))
