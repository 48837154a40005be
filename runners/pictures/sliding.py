"""Drawings of sliding-block puzzles: a position as its board, a solution as a strip of positions,
the hardest positions as a gallery, and the play page (drag a piece; the distance to the goal
comes from the God's-algorithm table embedded in the page)."""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np

from ..families import sliding as family
from ..models.errors import InputError
from ..models.sliding import METRICS, Position, SlidingPuzzle
from ..models.words import plural
from . import gallery as galleries
from . import play as plays
from .svg import Svg, palette

CELL = 22
GAP = 28  # between the positions of a strip
MAX_PAGE_POSITIONS = 400_000  # a page embeds 8 bytes a position (its sorted code) and 2 bits
MAX_PAGE_CODE = 2**53  # codes the page's script holds exactly (JavaScript numbers)
# A picture builds the God's-algorithm table it walks only where its bound on positions is at
# most this (klotski-l-pieces, 13.6 M: 15 CPU s; the 2x6 and 3x4 tiles, 479 M: 140 CPU s on 2
# threads, past the pictures' minute); a larger table is read where it was built before
# (`puzzlesat sliding table`, cached) or refused in one line.
DRAW_BUILD_BOUND = 50_000_000


def colours(puzzle: SlidingPuzzle) -> dict[str, str]:
    """A colour per type letter; the goal's type red."""
    letters = sorted({g.letter for g in puzzle.groups})
    found = {letter: palette(i) for i, letter in enumerate(letters)}
    if puzzle.goal.letter:
        found[puzzle.goal.letter] = "#d62728"
    return found


def draw_board(svg: Svg, puzzle: SlidingPuzzle, position: Position, x: float, y: float,
               cell: float = CELL, parent=None, **attributes):
    """The board at (x, y): its cells, the goal's place dotted, each piece a rounded block."""
    group = svg.group(parent, class_="position", data_position=puzzle.notation(position),
                      **attributes)
    fill = colours(puzzle)
    for c in range(puzzle.rows * puzzle.columns):
        r, k = divmod(c, puzzle.columns)
        on = c in puzzle.cells
        svg.rect(x + k * cell, y + r * cell, cell, cell, group, class_="cell board-cell",
                 data_cell=c, fill="#f3f3f3" if on else "#555555", stroke="#cccccc")
    for c in puzzle.goal.cells:
        r, k = divmod(c, puzzle.columns)
        svg.circle(x + (k + 0.5) * cell, y + (r + 0.5) * cell, cell * 0.12, group,
                   fill="#d62728", class_="goal-dot")
    for g, chosen in enumerate(position):
        letter = puzzle.groups[g].letter
        for p in chosen:
            cells = puzzle.groups[g].placements[p]
            piece = svg.group(group, class_="piece", data_group=g, data_placement=p,
                              data_letter=letter)
            for c in cells:
                left, top, width, height = block(c, cells, puzzle.columns, cell)
                svg.rect(x + left, y + top, width, height, piece, fill=fill[letter],
                         class_="piece-cell", data_cell=c)
    return group


def block(c: int, cells: Sequence[int], columns: int, cell: float
          ) -> tuple[float, float, float, float]:
    """A piece's cell as a rectangle reaching into the piece's neighbouring cells, so that a
    piece is one block and pieces stand apart by a thin margin (the page draws the same)."""
    r, k = divmod(c, columns)
    inset = 2.0
    left = k * cell + (0 if k and c - 1 in cells else inset)
    right = (k + 1) * cell - (0 if k + 1 < columns and c + 1 in cells else inset)
    top = r * cell + (0 if c - columns in cells else inset)
    bottom = (r + 1) * cell - (0 if c + columns in cells else inset)
    return left, top, right - left, bottom - top


def draw_strip(puzzle: SlidingPuzzle, positions: Sequence[Position], moves: Sequence[str],
               title: str = "", per_row: int = 8) -> Svg:
    """A solution as a strip of positions, wrapped in rows, each numbered, the move below."""
    width = puzzle.columns * CELL
    height = puzzle.rows * CELL
    columns = min(per_row, len(positions))
    lines = -(-len(positions) // columns)
    top = 24 if title else 6
    step_w, step_h = width + GAP, height + 30
    svg = Svg(columns * step_w + 6, lines * step_h + top, title or puzzle.name)
    if title:
        svg.text(6, 14, title, size=12, anchor="start")
    for i, position in enumerate(positions):
        x = (i % columns) * step_w + 6
        y = top + (i // columns) * step_h
        draw_board(svg, puzzle, position, x, y, data_step=i)
        words = f"{i}" if i == 0 else f"{i}: {moves[i - 1]}"
        svg.text(x + width / 2, y + height + 12, words[:28], size=8, fill="#555555")
    return svg


def unbuilt_bound(puzzle: SlidingPuzzle) -> int | None:
    """The bound on positions of a table too large to build for a picture (DRAW_BUILD_BOUND)
    and not kept or cached; None where the table is at hand or quick to build."""
    fam = family.FAMILY
    bound = family.kernel_parts(puzzle)[1]
    if bound > DRAW_BUILD_BOUND and fam.table_backend().lookup(fam.table_model(puzzle)) is None:
        return bound
    return None


def table(puzzle: SlidingPuzzle):
    """The God's-algorithm table a picture walks: kept or cached, else built where that takes
    well under a minute (DRAW_BUILD_BOUND), else refused in one line before any work."""
    bound = unbuilt_bound(puzzle)
    if bound is not None:
        raise InputError(f"{puzzle.name}: its pictures walk the God's-algorithm table of up to "
                         f"{plural(bound, 'position')}, not built here yet (minutes): build it "
                         f"once with `puzzlesat sliding table {puzzle.name}`, which keeps it for "
                         "the pictures", field="PUZZLE")
    return family.FAMILY.table(puzzle)


def _walk(puzzle: SlidingPuzzle, start: Position) -> tuple[list[Position], list[str]]:
    path = table(puzzle).walk(start)
    return [start, *(p for _, p in path)], [_short(puzzle.describe_move(m)) for m, _ in path]


def _short(described: str) -> str:
    """A move as a strip writes it under its position."""
    return (described.replace(" from row ", " ").replace(", column ", ",")
            .replace(" to row ", "->"))


# ---------------------------------------------------------------- the family's pictures


def pieces(puzzle: SlidingPuzzle) -> Svg:
    """What `draw --pieces` draws: the start (or the goal configuration)."""
    position = puzzle.start if puzzle.start is not None else puzzle.goal.position
    svg = Svg(puzzle.columns * 40 + 20, puzzle.rows * 40 + 40, puzzle.title or puzzle.name)
    draw_board(svg, puzzle, position, 10, 10, 40)
    svg.text(10 + puzzle.columns * 20, puzzle.rows * 40 + 28, puzzle.notation(position), size=11)
    return svg


def draw_from(puzzle: SlidingPuzzle, start: str) -> tuple[Svg, str]:
    """What `draw --from POSITION` draws: an optimal solution as a strip (POSITION may be
    'start' or 'hardest')."""
    word = start.strip().lower()
    table(puzzle)  # refused here, before any search, where it would take minutes
    position = puzzle.start if word == "start" else family.FAMILY.start_position(puzzle, start)
    positions, moves = _walk(puzzle, position)
    title = (f"{puzzle.name}: an optimal solution from {puzzle.notation(position)}, "
             f"{plural(len(moves), 'move')} ({puzzle.metric} metric: {METRICS[puzzle.metric]})")
    return draw_strip(puzzle, positions, moves, title), title


def solution_drawing(puzzle: SlidingPuzzle, solution) -> Svg:
    """A Solution drawn as `draw --from` draws one (what a notebook shows)."""
    moves = [_short(m) for m in solution.moves]
    title = (f"{puzzle.name}: an optimal solution from {puzzle.notation(solution.grid[0])}, "
             f"{plural(len(moves), 'move')} ({puzzle.metric} metric: {METRICS[puzzle.metric]})")
    return draw_strip(puzzle, solution.grid, moves, title)


def gallery(puzzle: SlidingPuzzle, modulo: str, cap: int, say=None,
            only: int | None = None) -> galleries.Gallery:
    """The hardest positions (at God's number), each with an optimal solution as a strip;
    only: the only-th alone."""
    found = table(puzzle)
    hardest = found.hardest()
    distance = found.build.gods_number
    statement = (f"{galleries.plural(found.build.distance_counts[-1], 'position')} at the "
                 f"greatest distance from the goal, {plural(distance, 'move')} in the "
                 f"'{puzzle.metric}' metric ({METRICS[puzzle.metric]}), of "
                 f"{plural(found.build.positions, 'position')} reachable; each with an optimal "
                 f"solution walked down the God's-algorithm "
                 f"table.")
    figures = []
    for i, start in enumerate(hardest[:cap], 1):
        if only is not None and i != only:
            continue
        positions, moves = _walk(puzzle, start)
        if len(moves) != distance:
            raise AssertionError("an optimal walk from a hardest position has the wrong length")
        caption = f"{puzzle.notation(start)}: {plural(len(moves), 'move')}"
        figures.append(galleries.Figure(f"hardest-{i:02d}.svg",
                                        draw_strip(puzzle, positions, moves, caption), caption))
    return galleries.Gallery(puzzle.title or puzzle.name, statement, pieces(puzzle), figures,
                             found.build.distance_counts[-1])


def page(puzzle: SlidingPuzzle, level: int | None = None, say=None) -> str:
    """The play page: drag (or click) a piece to move it; distance, hint and undo from the
    God's-algorithm table embedded in the page (sorted codes and 2 bits a position)."""
    if level is not None:
        raise InputError("sliding-block puzzles have no levels", field="level")
    if puzzle.start is None:
        raise InputError("the puzzle has no start to play from", field="puzzle")
    bound = unbuilt_bound(puzzle)
    if bound is not None:  # no need to build it to say so: far past what a page holds
        raise InputError(f"up to {plural(bound, 'position')}: a page embeds at most "
                         f"{MAX_PAGE_POSITIONS:,} (8 bytes each)", field="puzzle")
    found = table(puzzle)
    build = found.build
    if build.positions > MAX_PAGE_POSITIONS or puzzle.code_space > MAX_PAGE_CODE:
        raise InputError(f"{plural(build.positions, 'position')}: a page embeds at most "
                         f"{MAX_PAGE_POSITIONS:,} (8 bytes each)", field="puzzle")
    keys, packed = family.by_mixed_codes(found)
    keys = keys.astype(np.float64)
    cell = 48
    svg = Svg(puzzle.columns * cell + 20, puzzle.rows * cell + 20, puzzle.title or puzzle.name)
    draw_board(svg, puzzle, puzzle.start, 10, 10, cell)
    fill = colours(puzzle)
    data = {
        "rows": puzzle.rows, "columns": puzzle.columns, "cells": sorted(puzzle.cells),
        "metric": puzzle.metric, "metric_means": METRICS[puzzle.metric],
        "groups": [{"letter": g.letter, "count": g.count, "placements": g.placements,
                    "shifts": puzzle.shifts()[i], "colour": fill[g.letter],
                    "size": g.size} for i, g in enumerate(puzzle.groups)],
        "start": [list(c) for c in puzzle.start],
        "keys": base64.b64encode(keys.tobytes()).decode(),
        "table": base64.b64encode(packed.tobytes()).decode(),
        "positions": build.positions, "cell": cell, "origin": 10,
    }
    goal = puzzle.goal.describe(puzzle.columns)
    rules = (f"Bring the puzzle to its goal: {goal}. One move: {METRICS[puzzle.metric]} "
             f"('{puzzle.metric}' metric). The distance comes from the God's-algorithm table in "
             f"this page ({plural(build.positions, 'position')}, distance modulo 3 in 2 bits "
             "each).")
    controls = plays.buttons(("hint", "Hint"), ("undo", "Undo"), ("reset", "Reset"))
    help_text = ("Drag a piece to where it should go (or click it when it has one move); Hint "
                 "plays a move one step nearer to the goal.")
    return plays.html_page("sliding-block", puzzle.title or puzzle.name, rules, controls,
                           svg.inline(), data, "sliding.js", help_text)
