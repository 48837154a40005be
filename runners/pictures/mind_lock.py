"""Drawings of Mind Lock: a position as its three 2x2 layers side by side, a solution as a strip.

A position is a 12-tuple (cells 0-3 front, 4-7 middle, 8-11 back, each layer row by row as seen
from the front); a solution is the list of positions from the start to a solved position and
the moves between them.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

from ..models import mind_lock as ml
from ..models.errors import InputError
from ..models.mind_lock import GAP, LAYERS, Position, notation
from ..models.words import plural
from . import gallery as galleries
from . import play as plays
from . import solutions as found
from .svg import Svg

PIECE_COLOURS = {0: "#ffffff", 1: "#2e9e4f", 2: "#7d3c98", 3: "#f4c20d"}  # gap, G, P, Y
CELL = 18
FACE_GAP = 10


def position_width(cell: float = CELL) -> float:
    return 3 * 2 * cell + 2 * FACE_GAP


def draw_position(svg: Svg, position: Position, x: float, y: float, cell: float = CELL,
                  labels: bool = True, parent=None, **attributes):
    """The front, middle and back layers side by side at (x, y); the gap dashed."""
    group = svg.group(parent, class_="position", data_position=notation(position), **attributes)
    label = max(12.0, cell * 0.4)  # the height of the layer names above the faces
    top = y + (label if labels else 0)
    for layer, name in enumerate(LAYERS):
        fx = x + layer * (2 * cell + FACE_GAP)
        if labels:
            svg.text(fx + cell, y + label / 2 - 1, name, group, size=label * 0.75,
                     fill="#555555")
        svg.rect(fx - 1.5, top - 1.5, 2 * cell + 3, 2 * cell + 3, group, rx=3,
                 fill="#dddddd" if layer == 1 else "#f3f3f3", stroke="#999999")
        for k in range(4):
            n = layer * 4 + k
            piece = position[n]
            svg.rect(fx + (k % 2) * cell + 1, top + (k // 2) * cell + 1, cell - 2, cell - 2,
                     group, rx=3, class_="cell", data_cell=n, fill=PIECE_COLOURS[piece],
                     stroke="#555555" if piece != GAP else "#888888",
                     stroke_dasharray="3 2" if piece == GAP else None)
    return group


def draw_faces(position: Position, title: str = "") -> Svg:
    """One position, large."""
    cell = 40
    svg = Svg(position_width(cell) + 20, 2 * cell + 44, title or notation(position))
    draw_position(svg, position, 10, 10, cell)
    svg.text(10 + position_width(cell) / 2, 2 * cell + 34, notation(position), size=12)
    return svg


def draw_path(positions: Sequence[Position], moves: Sequence[str], title: str = "",
              per_row: int = 6) -> Svg:
    """A solution as a strip of positions, wrapped in rows, the move written between them."""
    step_w = position_width() + 64
    step_h = 2 * CELL + 44
    columns = min(per_row, len(positions))
    lines = -(-len(positions) // columns)
    top = 24 if title else 6
    svg = Svg(columns * step_w, lines * step_h + top, title or "Mind Lock solution")
    if title:
        svg.text(6, 12, title, size=12, anchor="start")
    for i, position in enumerate(positions):
        x = (i % columns) * step_w + 6
        y = top + (i // columns) * step_h
        draw_position(svg, position, x, y, labels=i == 0 or i % columns == 0, data_step=i)
        svg.text(x + position_width() / 2, y + 2 * CELL + 24, f"{i}", size=9, fill="#777777")
        if i < len(moves):
            ax = x + position_width() + 6
            ay = y + 12 + CELL
            svg.line(ax, ay, ax + 48, ay, stroke="#444444", stroke_width=1.2)
            svg.polygon([(ax + 48, ay), (ax + 42, ay - 4), (ax + 42, ay + 4)], fill="#444444")
            svg.text(ax + 24, ay - 8, moves[i], size=9, class_="move")
    return svg


# ---------------------------------------------------------------- the family's pictures


def pieces(puzzle: ml.MindLockPuzzle) -> Svg:
    """What `draw --pieces` draws: the faces of the first solved position."""
    return draw_faces(puzzle.solved[0], "solved")


def draw_from(puzzle: ml.MindLockPuzzle, start: str) -> tuple[Svg, str]:
    """What `draw --from POSITION` draws: an optimal solution from a position, and its title."""
    position = ml.parse_position(start)
    walk = found.optimal_walk(puzzle, position)
    title = f"{ml.notation(position)}: an optimal solution, {plural(len(walk.moves), 'move')}"
    return draw_path(walk.positions, walk.moves, title), title


def solution_drawing(puzzle: ml.MindLockPuzzle, solution) -> Svg:
    """A Solution drawn as `draw --from` draws one (what a notebook shows)."""
    title = (f"{ml.notation(solution.grid[0])}: an optimal solution, "
             f"{plural(len(solution.moves), 'move')}")
    return draw_path(solution.grid, solution.moves, title)


def gallery(puzzle: ml.MindLockPuzzle, modulo: str, cap: int, say=None,
            only: int | None = None) -> galleries.Gallery:
    """The hardest positions, each with an optimal solution (modulo is always 'none'); only:
    the only-th alone."""
    distance, positions = found.hardest(puzzle)
    statement = (
        f"{galleries.plural(len(positions), 'position')} at the greatest distance from solved, "
        f"{plural(distance, 'move')} (of {ml.POSITIONS:,} positions), each with an optimal "
        f"solution walked down the God's-algorithm table; {len(puzzle.solved)} solved positions."
    )
    figures = []
    for i, start in enumerate(positions[:cap], 1):
        if only is not None and i != only:
            continue
        walk = found.optimal_walk(puzzle, start)
        if len(walk.moves) != distance:
            raise AssertionError("an optimal walk from a hardest position has the wrong length")
        caption = f"{ml.notation(start)} ({ml.hex_code(start)}): {plural(len(walk.moves), 'move')}"
        figures.append(galleries.Figure(f"hardest-{i:02d}.svg",
                              draw_path(walk.positions, walk.moves, caption), caption))
    reference = draw_faces(puzzle.solved[0], "solved: " + ml.notation(puzzle.solved[0]))
    return galleries.Gallery(puzzle.title or puzzle.name, statement, reference, figures,
                             len(positions))




def page(puzzle: ml.MindLockPuzzle, level: int | None = None,
         start: ml.Position | None = None, say=None) -> str:
    """The page of Mind Lock: legal moves, distance from the embedded table, hints."""
    if level is not None:
        raise InputError("Mind Lock has no levels", field="level")
    if level is not None:
        raise InputError("Mind Lock has no levels", field="level")
    table = found.mind_lock_table(puzzle)
    distance, hardest = found.hardest(puzzle)
    start = start or hardest[0]
    cell = 64
    svg = Svg(position_width(cell) + 40, 2 * cell + 64, "Mind Lock")
    draw_position(svg, start, 20, 14, cell)
    options = "".join(
        f'<option value="{ml.notation(p)}"{" selected" if p == start else ""}>'
        f"{ml.notation(p)} ({plural(distance, 'move')})</option>"
        for p in hardest
    )
    controls = plays.buttons(("move-push", "Push"), ("move-horizontal", "Horizontal"),
                        ("move-vertical", "Vertical"), ("hint", "Hint"), ("undo", "Undo"),
                        ("reset", "Reset"), ("random", "Random position"))
    controls += f' <select id="start" aria-label="start position">{options}</select>'
    data = {
        "table": base64.b64encode(bytes(table.build.packed)).decode(),
        "solved_ranks": sorted(ml.rank(p) for p in puzzle.solved),
        "solved_positions": [list(p) for p in puzzle.solved],
        "start": list(start),
        "colours": [PIECE_COLOURS[k] for k in range(4)],
    }
    rules = ("Bring purple to the front, yellow to the middle and green to the back. "
             "Moves: slide a piece beside the gap on its face (horizontal, vertical), or push "
             "the gap's column one layer through the puzzle (push). The distance comes from the "
             "God's-algorithm table in this page: distance modulo 3, 2 bits a position.")
    help_text = ("Click a piece beside the gap to slide it, or a piece in the gap's column to "
                 "push; Hint plays a move one step nearer to solved.")
    return plays.html_page("mind-lock", puzzle.title or puzzle.name, rules, controls,
                           svg.inline(), data, "mind_lock.js", help_text)
