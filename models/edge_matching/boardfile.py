"""Board files (a best partial board, or the checkpoint of a search for one) and their check.

A board file is JSON:

    {"format": "puzzlesat board", "puzzle": "eternity-ii", "key": "<16 hex digits>",
     "rows": 16, "cols": 16, "score": 431, "most": 480,
     "board": [["1", 0], ["57", 90], ...],      # row by row: tile name, clockwise degrees
     ...}                                       # anything else: kept, not read

`key` identifies the puzzle's rules and tiles (not its name or title): a board of another puzzle
is refused in one line. `rescore` counts the matched seams of a board edge by edge, written
here apart from the searches' own scores (models/edge_matching/best.py, the compiled search),
so that a claimed score is checked by an independent count.
"""

from __future__ import annotations

import hashlib
import json

from ..errors import InputError
from ..words import plural
from . import EdgePuzzle, Placed

FORMAT = "puzzlesat board"


def puzzle_key(puzzle: EdgePuzzle) -> str:
    """16 hex digits naming the rules and the tiles (their edges and marks, in order)."""
    facts = {
        "rows": puzzle.rows, "cols": puzzle.cols, "rule": puzzle.rule,
        "frame": puzzle.frame, "border": puzzle.border, "apart": puzzle.apart,
        "tiles": [[list(map(list, t.edges)), t.mark] for t in puzzle.tiles],
        "fixed": [[f.row, f.col, f.tile, f.rotation] for f in puzzle.fixed],
    }
    text = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def board_json(puzzle: EdgePuzzle, grid: list[Placed], score: int, most: int,
               extra: dict | None = None) -> str:
    """The text of a board file."""
    doc = {
        "format": FORMAT, "puzzle": puzzle.name, "key": puzzle_key(puzzle),
        "rows": puzzle.rows, "cols": puzzle.cols, "score": score, "most": most,
        **(extra or {}),
        "board": [[puzzle.tiles[t].name, r * 90] for t, r in grid],
    }
    head = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items() if k != "board"]
    rows = [", ".join(json.dumps(cell) for cell in doc["board"][i:i + puzzle.cols])
            for i in range(0, len(grid), puzzle.cols)]
    return "{\n" + ",\n".join(head) + ',\n "board": [\n  ' + ",\n  ".join(rows) + "\n ]\n}\n"


def read_board(puzzle: EdgePuzzle, text: str, path: str, field: str = "board"
               ) -> tuple[list[Placed], dict]:
    """The grid of a board file of this puzzle, and its other fields; InputError otherwise
    (naming the file and what is wrong: another puzzle's board among others)."""

    def bad(message: str, line: int | None = None) -> InputError:
        return InputError(message, file=path, line=line, field=field)

    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise bad(f"not a board file (JSON): {error.msg}", error.lineno) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise bad(f"not a board file: expected \"format\": \"{FORMAT}\"", 1)
    if doc.get("key") != puzzle_key(puzzle):
        raise bad(f"a board of {shown(doc.get('puzzle'))}, not of {puzzle.name} (its tiles "
                  "or rules differ)")
    cells = doc.get("board")
    if not isinstance(cells, list) or len(cells) != puzzle.rows * puzzle.cols:
        raise bad(f"\"board\" must list the {plural(puzzle.rows * puzzle.cols, 'cell')} row by row")
    names = {t.name: i for i, t in enumerate(puzzle.tiles)}
    grid: list[Placed] = []
    for i, cell in enumerate(cells):
        where = f"cell {i + 1} (row {i // puzzle.cols + 1}, column {i % puzzle.cols + 1})"
        if (not isinstance(cell, list) or len(cell) != 2 or cell[0] not in names
                or cell[1] not in (0, 90, 180, 270) or isinstance(cell[1], bool)):
            raise bad(f"{where}: expected [tile name, 0/90/180/270], got {shown(cell)}")
        grid.append((names[cell[0]], cell[1] // 90))
    return grid, {k: v for k, v in doc.items() if k != "board"}


def shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "..."


def rescore(puzzle: EdgePuzzle, grid: list[Placed]) -> tuple[int, list[str]]:
    """(matched seams, the rules the board breaks) counted edge by edge, cell by cell."""
    rows, cols = puzzle.rows, puzzle.cols
    broken = _tiles_broken(puzzle, grid)

    def side(cell: int, s: int) -> tuple[str, str]:
        tile, turns = grid[cell]
        return puzzle.tiles[tile].edges[(s - turns) % 4]  # turned clockwise

    matched = 0
    for r in range(rows):
        for c in range(cols):
            here = r * cols + c
            if c + 1 < cols:
                matched += _same(puzzle, side(here, 1), side(here + 1, 3))
            if r + 1 < rows:
                matched += _same(puzzle, side(here, 2), side(here + cols, 0))
            broken += _border_broken(puzzle, (r, c), [side(here, s) for s in range(4)])
            broken += _apart_broken(puzzle, grid, (r, c))
    for f in puzzle.fixed:
        here = f.row * cols + f.col
        want = tuple(puzzle.tiles[f.tile].edges[(s - f.rotation) % 4] for s in range(4))
        if tuple(side(here, s) for s in range(4)) != want or \
                puzzle.tiles[grid[here][0]].mark != puzzle.tiles[f.tile].mark:
            broken.append(f"row {f.row + 1}, column {f.col + 1}: the clue is not there")
    return matched, broken


def _same(puzzle: EdgePuzzle, a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether two touching edges match under the puzzle's rule."""
    if puzzle.rule == "equal":
        return a == b
    return a[0] == b[0] and a[1] != b[1]


def _tiles_broken(puzzle: EdgePuzzle, grid: list[Placed]) -> list[str]:
    """A tile laid twice or more, and the tiles missing."""
    counts: dict[int, int] = {}
    for t, _ in grid:
        counts[t] = counts.get(t, 0) + 1
    broken = [f"tile {puzzle.tiles[t].name} lies on {plural(n, 'cell')}"
              for t, n in sorted(counts.items()) if n > 1]
    if len(counts) != len(puzzle.tiles):
        missing = len(puzzle.tiles) - len(counts)
        broken.append(f"{plural(missing, 'tile')} {'is' if missing == 1 else 'are'} missing")
    return broken


def _border_broken(puzzle: EdgePuzzle, cell: tuple[int, int], edges: list[tuple[str, str]]
                   ) -> list[str]:
    """The frame and border rules at a cell, its edges top, right, bottom, left as laid."""
    r, c = cell
    outside = (r == 0, c == puzzle.cols - 1, r == puzzle.rows - 1, c == 0)
    broken = []
    for s, edge in enumerate(edges):
        if puzzle.frame is not None and (edge == puzzle.frame) != outside[s]:
            broken.append(f"row {r + 1}, column {c + 1}: a frame edge "
                          + ("missing on the border" if outside[s] else "inside"))
        if puzzle.border is not None and outside[s] and edge != puzzle.border:
            broken.append(f"row {r + 1}, column {c + 1}: the border shows {edge[0]}")
    return broken


def _apart_broken(puzzle: EdgePuzzle, grid: list[Placed], cell: tuple[int, int]) -> list[str]:
    """Two tiles with the `apart` mark side by side, right of or below the cell."""
    if not puzzle.apart:
        return []
    r, c = cell
    here = r * puzzle.cols + c
    mark = puzzle.tiles[grid[here][0]].mark
    others = ((here + 1) if c + 1 < puzzle.cols else None,
              (here + puzzle.cols) if r + 1 < puzzle.rows else None)
    return [f"row {r + 1}, column {c + 1}: two {mark}s side by side" for other in others
            if other is not None and mark == puzzle.apart == puzzle.tiles[grid[other][0]].mark]
