"""Rich display in a notebook: a Solution drawn as `puzzlesat draw` draws it, a Count and a
Verification as small tables.

Jupyter asks an object for `_repr_svg_` or `_repr_html_`; the results (runners/outcomes.py)
answer by calling these functions, so that no drawing or markup lives in the results.
"""

from __future__ import annotations

from html import escape

from ..registry import part


def solution_svg(solution) -> str | None:
    """The solution drawn by its family's pictures module (None: nothing to draw)."""
    puzzle = solution.puzzle_object
    if not solution.found or puzzle is None:
        return None
    drawn = part(puzzle.kind, "pictures")
    return drawn.solution_drawing(puzzle, solution).to_string()


def _table(rows: list[tuple[str, object]], caption: str) -> str:
    cells = "".join(f"<tr><th style='text-align:left'>{escape(name)}</th>"
                    f"<td style='text-align:left'>{escape(str(value))}</td></tr>"
                    for name, value in rows)
    return f"<table><caption style='text-align:left'>{escape(caption)}</caption>{cells}</table>"


def count_html(count) -> str:
    """A Count as a table: the number, what it counts, whether it is complete."""
    number = "no count" if count.number is None else f"{count.number:,}"
    if count.number is not None and not count.complete:
        number = f"at least {number} (INCOMPLETE: stopped early)"
    rows = [("count", number), ("counted", count.counted), ("modulo", count.modulo)]
    if count.uniqueness():  # a count up to a limit answers whether the puzzle is unique
        rows.insert(1, ("unique?", count.uniqueness()))
    if count.modulo != "none":
        rows.append(("group", count.group.describe()))
    rows += [("backend", count.backend), ("executor", count.executor),
             ("seconds", f"{count.seconds:.2f}")]
    return _table(rows, count.puzzle)


def verification_html(found) -> str:
    """A Verification as a table: every count side by side, and whether they agree."""
    head = ("<tr><th style='text-align:left'>backend</th><th>count</th><th>complete</th>"
            "<th>seconds</th></tr>")
    rows = "".join(
        f"<tr><td style='text-align:left'>{escape(c.backend)}</td>"
        f"<td style='text-align:right'>{'—' if c.number is None else f'{c.number:,}'}</td>"
        f"<td>{'yes' if c.complete else 'no'}</td><td style='text-align:right'>"
        f"{c.seconds:.2f}</td></tr>"
        for c in found.counts
    )
    state = "all agree" if found.agree else f"FAILED: {found.why}"
    return (f"<table><caption style='text-align:left'>{escape(found.puzzle)}: "
            f"{escape(state)}</caption>{head}{rows}</table>")
