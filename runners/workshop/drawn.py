"""The workshop's pictures: what `puzzlesat draw` and `puzzlesat play` make, for a page.

A puzzle's small picture (its empty board, or its pieces) is drawn in the server's process: no
solver runs. A solution, a page of solutions and a play page list solutions, so each is made in
a child process (`in_child`) whose main thread holds the pictures' time bound on listing, and
which a page left by its reader cannot keep busy for long.
"""

from __future__ import annotations

from .. import api, registry
from ..children import run_in_child
from ..models.errors import InputError
from ..models.words import plural

CHILD_SECONDS = 120.0  # a picture's child process is ended past this (its listing is bounded)


def thumbnail(target: str) -> str:
    """A small picture of a puzzle without solving it: a packing puzzle's empty board on its
    lattice (the board `draw` colours), any other puzzle's pieces (`draw --pieces`)."""
    puzzle = api.load(target)
    drawings = registry.part(puzzle.kind, "pictures")
    if puzzle.kind == "packing":
        return drawings.draw_grid(puzzle, {}, "").to_string()
    return drawings.pieces(puzzle).to_string()


def first_solution(target: str) -> dict:
    """What `puzzlesat draw PUZZLE` draws: the first solution with its caption."""
    from ..pictures import gallery

    puzzle = api.load(target)
    shown = gallery.build_gallery(puzzle, "none", 1, only=1)
    if not shown.figures:
        listed = shown.listing
        why = ("listing stopped at its time bound" if listed is not None and listed.out_of_time
               else "it has no solution")
        return {"svg": None, "caption": f"{puzzle.name}: nothing to draw ({why})"}
    [figure] = shown.figures
    return {"svg": figure.svg.to_string(), "caption": f"{figure.caption} of {puzzle.name}"}


def solutions_page(target: str, page: int, per: int) -> dict:
    """Solutions (page - 1) * per + 1 to page * per, as the library lists them (`puzzlesat
    solutions`' order), each drawn as `draw` draws a solution; `more`: whether one follows."""
    from ..pictures import solutions as found

    puzzle = api.load(target)
    drawings = registry.part(puzzle.kind, "pictures")
    first = (page - 1) * per
    figures, more, out_of_time = [], False, False
    try:
        with found.time_bound(found.LIST_SECONDS):
            for number, solution in enumerate(api.solutions(puzzle, limit=first + per + 1), 1):
                if number > first + per:
                    more = True
                    break
                if number > first:
                    figures.append({"caption": f"solution {number}",
                                    "svg": drawings.solution_drawing(puzzle, solution)
                                    .to_string()})
    except found.OutOfTime:
        out_of_time = True
    note = (f"listing stopped at its time bound of {found.LIST_SECONDS:g} CPU s"
            if out_of_time else "")
    return {"page": page, "per": per, "figures": figures, "more": more, "note": note}


def play(target: str) -> str:
    """The play page `puzzlesat play` writes."""
    from ..pictures import play as pages

    return pages.play_page(api.load(target))


def in_child(function, *args) -> object:
    """`function(*args)` in a child process; its InputError raised here, a child past
    CHILD_SECONDS ended and said so."""
    finished, value = run_in_child(function, args, CHILD_SECONDS, label="a picture's process")
    if not finished:
        raise InputError(f"no answer in {CHILD_SECONDS:g} s", field="puzzle")
    return value


SOLVE_SECONDS = 20.0  # the editor's "is there a solution?" gives up past this


def solve_text(text: str) -> dict:
    """Whether a design (a puzzle file's text) has a solution: one drawn, or why none."""
    from ..models import files

    puzzle = files.read_puzzle_text("the design", text)
    solution = api.solve(puzzle, time_limit=SOLVE_SECONDS)
    if not solution.found:
        return {"found": False, "complete": solution.complete,
                "note": f"no solution found: {solution.note}" if solution.complete else
                f"not decided in {SOLVE_SECONDS:g} s: {solution.note}"}
    drawing = registry.part(puzzle.kind, "pictures").solution_drawing(puzzle, solution)
    return {"found": True, "complete": True, "svg": drawing.to_string(),
            "note": "it has a solution: count it to know how many"}


def uniqueness_text(text: str) -> dict:
    """Whether a design (a puzzle file's text; a card where it places pieces) has exactly one
    solution, as `puzzlesat count FILE --limit 2` tells it."""
    from ..models import files

    puzzle = files.read_puzzle_text("the design", text)
    count = api.count(puzzle, limit=2)
    unique = count.complete and count.number == 1
    note = ("exactly one solution: unique" if unique else
            "no solution" if count.complete and count.number == 0 else
            f"at least {plural(count.number, 'solution')}: not unique")
    return {"unique": unique, "solutions": count.number, "complete": count.complete,
            "placed": len(puzzle.placed), "note": note}


def calendar_date(target: str, text: str) -> dict:
    """A calendar's date as `puzzlesat calendar PUZZLE --date TEXT` gives it: its solutions
    pieces turned over and face up (their meanings), and one solution drawn; "today" (or an
    empty text) is today's date. A date that does not exist: InputError, in one line."""
    from ..calendar import COUNTED, calendar
    from ..models.packing.calendar import dates, has_weekdays, on_date, parse_date, today
    from ..pictures.packing import draw_grid

    puzzle = api.load(target)
    dates(puzzle)  # refused in one line where the board is no calendar
    text = text.strip()
    date = (today(puzzle) if text.lower() in ("", "today")
            else parse_date(text, has_weekdays(puzzle)))
    table = calendar(puzzle, only=[date], jobs=1, progress=False)
    found = {"date": date.name, "dates": table.dates.get(date.name),
             "face_up": table.face_up.get(date.name), "counted": COUNTED,
             "complete": table.complete, "svg": None}
    if found["dates"]:
        one = on_date(puzzle, date)
        solution = api.solve(one, time_limit=SOLVE_SECONDS)
        if solution.found:
            found["svg"] = draw_grid(one, solution.grid,
                                     f"{puzzle.name} {date.name}: one solution").to_string()
    return found


def classes_page(target: str, page: int, per: int) -> dict:
    """Classes (page - 1) * per + 1 to page * per under the board's symmetries, one solution
    drawn for each as `puzzlesat gallery --modulo symmetry` draws it (its orbit in its
    caption), headed by the gallery's sentence naming the group; `more`: whether one
    follows."""
    from ..pictures import gallery
    from ..pictures import solutions as found

    puzzle = api.load(target)
    first = (page - 1) * per
    shown = gallery.build_gallery(puzzle, "symmetry", first + per + 1)
    figures = [{"caption": figure.caption, "svg": figure.svg.to_string()}
               for figure in shown.figures[first:first + per]]
    listed = shown.listing
    note = (f"listing stopped at its time bound of {found.LIST_SECONDS:g} CPU s"
            if listed is not None and listed.out_of_time else "")
    return {"page": page, "per": per, "figures": figures,
            "more": len(shown.figures) > first + per, "note": note,
            "statement": shown.statement}
