"""Notebook display: a Solution of every family shows its drawing (as `draw` draws it), a Count
and a Verification show as small tables (what Jupyter calls: _repr_svg_, _repr_html_)."""

from __future__ import annotations

import re

import pytest

import puzzlesat
from puzzlesat.outcomes import Count, Solution, Verification
from puzzlesat.registry import part

SOLVED = [  # (puzzle, solve options, the drawing's marks of one cell or step, how many)
    ("iq-block-8", {}, r'class="cell"', 64),
    ("scramble-frog", {}, r'class="cell"', 9),
    ("mind-lock", {"start": "0x76bd98"}, r"data-step=", 13),
    ("eight-puzzle", {}, r"data-step=", None),
    ("soma", {}, r"<svg", 1),  # in space: the box drawn with its layers
]


@pytest.mark.parametrize("name, options, mark, cells", SOLVED, ids=[s[0] for s in SOLVED])
def test_a_solution_shows_its_drawing(name, options, mark, cells):
    puzzle = puzzlesat.load(name)
    solution = puzzlesat.solve(puzzle, **options)
    svg = solution._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    # the drawing `draw` makes, by the family's own drawing function
    assert svg == part(puzzle.kind, "pictures").solution_drawing(puzzle, solution).to_string()
    found = len(re.findall(mark, svg))
    assert found == (cells if cells is not None else len(solution.grid)), found
    listed = next(iter(puzzlesat.solutions(puzzle, limit=1, **options)))
    assert listed._repr_svg_().startswith("<svg")


def test_a_solution_not_found_shows_its_repr():
    missing = Solution("p", "packing", None, "cpsat", 1.0, False, note="time ran out")
    assert missing._repr_svg_() is None and "none (time ran out)" in repr(missing)


def test_a_count_shows_as_a_table():
    count = puzzlesat.count("scramble-frog", modulo="symmetry", jobs=1)
    html = count._repr_html_()
    assert html.startswith("<table>") and "<caption" in html
    assert f"<td style='text-align:left'>{count.number:,}</td>" in html
    assert "4 symmetries" in html and "INCOMPLETE" not in html
    partial = Count("big", 12_345, "grids", "none", False, 2.0, "cpsat")
    assert "at least 12,345 (INCOMPLETE" in partial._repr_html_()
    escaped = Count("<b>", 1, "a & b", "none", True, 0.1, "cpsat")._repr_html_()
    assert "<b>" not in escaped and "a &amp; b" in escaped


def test_a_verification_shows_its_counts_side_by_side():
    counts = [Count("frog", 2, "grids", "none", True, 0.5, name) for name in ("cpsat", "dlx")]
    html = Verification("frog", True, "", counts, {}, "")._repr_html_()
    assert "frog: all agree" in html and html.count("<tr>") == 3
    failed = Verification("frog", False, "cpsat says 2, dlx says 3", counts, {}, "")
    assert "FAILED: cpsat says 2, dlx says 3" in failed._repr_html_()
