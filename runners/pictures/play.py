"""Playable pages: one self-contained HTML file per puzzle that works offline from file://.

The page holds everything inline: the drawing (SVG made by the same code as the pictures), the
script (templates/*.js), the style and the data, including solutions found by the reference
solvers for hints, and for Mind Lock the God's-algorithm table (2 bits a position). A
Content-Security-Policy of `default-src 'none'` keeps the page from fetching anything.
"""

from __future__ import annotations

import base64
import html
import json
from importlib import resources

from ..models import edge_matching as em
from ..models import mind_lock as ml
from ..models.errors import InputError
from ..models.packing import PackingPuzzle
from . import edge_matching as draw_edge
from . import mind_lock as draw_lock
from . import packing as draw_packing
from . import solutions as found
from .svg import Svg, text_colour

HINT_SOLUTIONS = 64  # edge matching: solutions embedded per level for hints
PACKING_SOLUTIONS = 1000  # packing: solutions embedded (all of them when there are fewer)


def template(name: str) -> str:
    return (resources.files("puzzlesat.pictures") / "templates" / name).read_text("utf-8")


def _page(family: str, title: str, rules: str, controls: str, svg: str, data: dict,
          script: str, help_text: str) -> str:
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    fields = {
        "title": html.escape(title), "family": family, "rules": html.escape(rules),
        "controls": controls, "svg": svg, "data": payload, "help": html.escape(help_text),
        "css": template("play.css"), "common": template("common.js"), "script": template(script),
    }
    page = template("play.html")
    for key, value in fields.items():
        page = page.replace("{{" + key + "}}", value)
    return page


def _buttons(*names: tuple[str, str]) -> str:
    return " ".join(f'<button id="{i}" type="button">{html.escape(label)}</button>'
                    for i, label in names)


# ---------------------------------------------------------------- edge matching


def edge_page(puzzle: em.EdgePuzzle, level: int | None = None, seed: int = 11) -> str:
    """The page of an edge-matching puzzle: swap, turn, check, hint, undo, reset, level."""
    levels = list(puzzle.levels)
    if level is None:
        level = 1
    if levels and not 1 <= level <= len(levels):
        raise InputError(f"{puzzle.name} has levels 1..{len(levels)}", field="level")
    if not levels and level != 1:
        raise InputError(f"{puzzle.name} has no levels", field="level")
    solutions = {}
    for n in range(1, max(1, len(levels)) + 1):
        rules = em.at_level(puzzle, n) if levels else puzzle
        solutions[str(n)] = [list(map(list, g))
                             for g in found.edge_solutions(rules, limit=HINT_SOLUTIONS)]
    size = max(40, min(130, 480 // max(puzzle.rows, puzzle.cols)))  # 4x4: 120 pixels a tile
    colours = draw_edge.edge_colours(puzzle)
    svg = Svg(puzzle.cols * size, puzzle.rows * size, puzzle.title or puzzle.name)
    defs = svg.add("defs")
    for index, tile in enumerate(puzzle.tiles):  # every tile in its four rotations, upright text
        for rotation in range(4):
            draw_edge.draw_tile(svg, puzzle, em.rotated(tile.edges, rotation), tile.mark, 0, 0,
                                size, colours, defs, id=f"tile-{index}-{rotation}")
    svg.group(id="cells")
    svg.group(id="marks")
    data = {
        "rows": puzzle.rows, "cols": puzzle.cols, "rule": puzzle.rule, "size": size,
        "tiles": [{"edges": [list(e) for e in t.edges], "mark": t.mark, "name": t.name}
                  for t in puzzle.tiles],
        "levels": [mark or None for mark in levels], "level": level, "apart": puzzle.apart,
        "frame": list(puzzle.frame) if puzzle.frame else None, "solutions": solutions,
        "seed": seed,
    }
    controls = _buttons(("rotate", "Rotate"), ("check", "Check"), ("hint", "Hint"),
                        ("undo", "Undo"), ("reset", "Reset"))
    if levels:
        options = "".join(
            f'<option value="{n}"{" selected" if n == level else ""}>Level {n}'
            f'{f" (no two {mark} tiles side by side)" if mark else ""}</option>'
            for n, mark in enumerate(levels, 1)
        )
        controls += f' <select id="level" aria-label="level">{options}</select>'
    rules = ("Touching edges must show the same colour."
             if puzzle.rule == "equal" else
             "Touching edges must show the same picture, one of each half (head and tail).")
    if puzzle.frame:
        rules += " The frame edge faces the outer border, and only there."
    help_text = ("Drag a tile onto another, or click two tiles, to swap them. Right-click a tile, "
                 "or select it and press r (R turns back), to turn it clockwise. Red lines: "
                 "edges that do not match; dashed orange squares: marked tiles side by side.")
    return _page("edge-matching", puzzle.title or puzzle.name, rules, controls, svg.inline(),
                 data, "edge.js", help_text)


# ---------------------------------------------------------------- packing


def packing_page(puzzle: PackingPuzzle) -> str:
    """The page of a packing puzzle: drag, turn, flip, snap, hint, check, undo."""
    size = 34
    grids = found.packing_solutions(puzzle, limit=PACKING_SOLUTIONS + 1)
    complete = len(grids) <= PACKING_SOLUTIONS
    grids = grids[:PACKING_SOLUTIONS]
    board_cells = sorted((r, c) for r, row in enumerate(puzzle.board)
                         for c, ch in enumerate(row) if ch == "X")
    height, width = len(puzzle.board), max(len(row) for row in puzzle.board)
    extent = max(max(max(r for r, _ in p.cells), max(c for _, c in p.cells)) + 1
                 for p in puzzle.pieces)
    slot = (extent + 0.5) * size
    origin = (20, 20)
    tray_x = origin[0] + width * size + 40
    columns = max(2, int((1060 - tray_x) // slot))  # the page fits about 1,100 pixels across
    tray = [(tray_x + (i % columns) * slot, origin[1] + (i // columns) * slot)
            for i in range(len(puzzle.pieces))]
    lines = -(-len(puzzle.pieces) // columns)
    bottom = origin[1] + max(height * size, lines * slot) + 20
    svg = Svg(tray_x + columns * slot, bottom, puzzle.title or puzzle.name)
    board = svg.group(id="board")
    for r in range(height):
        for c in range(width):
            on = (r, c) in board_cells
            svg.rect(origin[0] + c * size, origin[1] + r * size, size, size, board,
                     class_="cell" if on else "hole", data_row=r, data_col=c,
                     fill="#ffffff" if on else "#d8d8d8", stroke="#bbbbbb")
    svg.group(id="pieces")
    data = {
        "size": size, "origin": origin, "width": width, "height": height, "tray": tray,
        "cells": board_cells, "flip": puzzle.flip, "complete": complete,
        "pieces": [{"name": p.name, "cells": p.cells, "colour": draw_packing.piece_colour(i),
                    "text": text_colour(draw_packing.piece_colour(i))}
                   for i, p in enumerate(puzzle.pieces)],
        "solutions": [[grid[cell] for cell in board_cells] for grid in grids],
    }
    controls = _buttons(("rotate", "Rotate (r)"), ("flip", "Flip (f)"), ("hint", "Hint"),
                        ("check", "Check"), ("undo", "Undo"), ("reset", "Reset"))
    total = f"all {len(grids)}" if complete else f"the first {len(grids)}"
    rules = (f"Cover every white cell with the {len(puzzle.pieces)} pieces, each used once. "
             f"The page holds {total} solutions found by the reference solver: hints follow "
             "them" + (", and a piece placed where no solution has it is outlined in red."
                       if complete else "."))
    help_text = ("Drag a piece onto the board (it snaps to the grid), or click a piece and then "
                 "a cell for its first cell. Right-click or r turns the selected piece "
                 "clockwise, f flips it. Drag a piece off the board to put it back.")
    return _page("packing", puzzle.title or puzzle.name, rules, controls, svg.inline(), data,
                 "packing.js", help_text)


# ---------------------------------------------------------------- Mind Lock


def mind_lock_page(puzzle: ml.MindLockPuzzle, start: ml.Position | None = None) -> str:
    """The page of Mind Lock: legal moves, distance from the embedded table, hints."""
    table = found.mind_lock_table(puzzle)
    distance, hardest = found.hardest(puzzle)
    start = start or hardest[0]
    cell = 64
    svg = Svg(draw_lock.position_width(cell) + 40, 2 * cell + 64, "Mind Lock")
    draw_lock.draw_position(svg, start, 20, 14, cell)
    options = "".join(
        f'<option value="{ml.notation(p)}"{" selected" if p == start else ""}>'
        f"{ml.notation(p)} ({distance} moves)</option>"
        for p in hardest
    )
    controls = _buttons(("move-push", "Push"), ("move-horizontal", "Horizontal"),
                        ("move-vertical", "Vertical"), ("hint", "Hint"), ("undo", "Undo"),
                        ("reset", "Reset"), ("random", "Random position"))
    controls += f' <select id="start" aria-label="start position">{options}</select>'
    data = {
        "table": base64.b64encode(table.packed).decode(),
        "solved_ranks": sorted(table.solved),
        "solved_positions": [list(p) for p in puzzle.solved],
        "start": list(start),
        "colours": [draw_lock.PIECE_COLOURS[k] for k in range(4)],
    }
    rules = ("Bring purple to the front, yellow to the middle and green to the back. "
             "Moves: slide a piece beside the gap on its face (horizontal, vertical), or push "
             "the gap's column one layer through the puzzle (push). The distance comes from the "
             "God's-algorithm table in this page: distance modulo 3, 2 bits a position.")
    help_text = ("Click a piece beside the gap to slide it, or a piece in the gap's column to "
                 "push; Hint plays a move one step nearer to solved.")
    return _page("mind-lock", puzzle.title or puzzle.name, rules, controls, svg.inline(), data,
                 "mind_lock.js", help_text)


def play_page(puzzle, level: int | None = None) -> str:
    """The page of any puzzle."""
    if puzzle.kind == "packing":
        return packing_page(puzzle)
    if puzzle.kind == "edge-matching":
        return edge_page(puzzle, level)
    if level is not None:
        raise InputError("Mind Lock has no levels", field="level")
    return mind_lock_page(puzzle)
