"""Reading a sliding-block puzzle file (TOML): board and pieces drawn, types, axes, goal, metric.

    kind = "sliding-block"
    metric = "path"            # step, slide or path (see models/sliding)
    start = '''
    ABBC
    ABBC
    DEEF
    DGHF
    I..J
    '''                        # '.' an empty cell, '#' no cell, each letter or digit one piece
    [types]                    # pieces of one shape made interchangeable: type letter = pieces
    v = "ACDF"
    s = "GHIJ"
    [goal]                     # a piece of a type at a place (row, column of its top-left cell)
    piece = "B"
    row = 3
    column = 1

A goal may instead be a whole configuration drawn like the start with type letters
(`goal = '''...'''`). `axis = "long-side"` locks every oblong piece to its long side (Rush Hour's
cars); `[axis]` locks single pieces (`A = "horizontal"`). Knuth's `sliding.w` reads a similar
picture of the board, one character per cell; here a piece is one letter, so any polyomino
(Klotski's L-pieces) is drawn as it is.
"""

from __future__ import annotations

import re
import string
from dataclasses import replace
from pathlib import Path

from ..errors import InputError
from ..files import ForeignFormat, TomlDoc
from ..words import plural
from . import (
    AXES,
    BLOCKED,
    EMPTY,
    KIND,
    MAX_CELLS,
    METRICS,
    Goal,
    Group,
    Position,
    SlidingPuzzle,
    connected,
    normal_shape,
    placements_of,
)

FIELDS = {"kind", "name", "title", "source", "metric", "start", "goal", "types", "axis",
          "published"}
PUBLISHED = {"positions": int, "gods_number": int, "start_moves": int, "claimed_moves": int,
             "note": str}
LABELS = set(string.ascii_letters + string.digits + "*@$%&+=")



def picture(doc: TomlDoc, field: str) -> list[str]:
    """The rows of a drawn picture, each character one cell; errors at the row's line."""
    text = doc.get(field, str, required=True)
    first = doc.value_line(field)
    raw = text.split("\n")
    rows = [(i, row.strip()) for i, row in enumerate(raw) if row.strip()]
    if not rows:
        raise doc.error(field, "an empty picture")
    for i, row in rows:
        for ch in row:
            if ch not in LABELS and ch not in (EMPTY, BLOCKED):
                message = (f"unexpected character {ch!r} (a letter or digit is a piece, "
                           f"'{EMPTY}' an empty cell, '{BLOCKED}' no cell)")
                raise InputError(message, file=doc.path,
                                 line=None if first is None else first + i, field=field)
    width = len(rows[0][1])
    for i, row in rows:
        if len(row) != width:
            raise InputError(f"a row of {plural(len(row), 'cell')} where the first has {width}",
                             file=doc.path, line=None if first is None else first + i,
                             field=field)
    return [row for _, row in rows]


def read_sliding(doc: TomlDoc) -> SlidingPuzzle:
    doc.reject_unknown("", FIELDS)
    metric = doc.get("metric", str, required=True)
    if metric not in METRICS:
        raise doc.error("metric", f"unknown metric {metric!r} (one of: {', '.join(METRICS)})")
    rows = picture(doc, "start")
    height, width = len(rows), len(rows[0])
    if height * width > MAX_CELLS:
        raise doc.error("start", f"{height} x {width} cells: at most {MAX_CELLS} cells in the "
                                 "rectangle around the board")
    cells = frozenset(r * width + c for r in range(height) for c in range(width)
                      if rows[r][c] != BLOCKED)
    pieces = _pieces(doc, rows)
    types = _types(doc, pieces)
    groups, start = _groups(types, pieces, _axes(doc, pieces), height, width, cells)
    if len(groups) > 64:
        raise doc.error("start", f"{plural(len(groups), 'group')} of pieces: at most 64")
    goal = _goal(doc, height, width, types, pieces, groups)
    puzzle = SlidingPuzzle(
        name=doc.get("name", str, Path(doc.path).stem), rows=height, columns=width, cells=cells,
        groups=tuple(groups), goal=Goal(), metric=metric,
        start=tuple(tuple(s) for s in start), title=doc.get("title", str, ""),
        source=doc.get("source", str, ""), published=doc.published(PUBLISHED),
        file=str(doc.path or ""),
    )
    puzzle = _goal_set(doc, puzzle, goal)
    if puzzle.code_space >= 2**62:
        raise doc.error("start", f"{puzzle.code_space:.3g} arrangements of the pieces: more "
                                 "than a position's 62-bit code holds")
    return puzzle


def _pieces(doc: TomlDoc, rows: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Each piece's letter and cells (row, column) in the start picture; each one connected."""
    pieces: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in (EMPTY, BLOCKED):
                pieces.setdefault(ch, []).append((r, c))
    if not pieces:
        raise doc.error("start", "no pieces drawn")
    for letter, where in pieces.items():
        if not connected(where):
            raise doc.error("start", f"piece {letter!r} is not connected: each letter is one "
                                     "piece (make interchangeable pieces one type in [types])")
    return pieces


def _types(doc: TomlDoc, pieces: dict[str, list[tuple[int, int]]]) -> dict[str, list[str]]:
    """The types: letter of the type -> its pieces, those of [types] (pieces of one shape made
    interchangeable) first, then every other piece a type of its own under its letter."""
    types: dict[str, list[str]] = {}
    doc.get("types", dict, {})
    of_type: dict[str, str] = {}
    for key, members in doc.get("types", dict, {}).items():
        field = f"types.{key}"
        members = doc.get(field, str)
        if len(key) != 1 or key not in LABELS:
            raise doc.error(field, f"a type's name is one letter or digit, not {key!r}")
        if not members:
            raise doc.error(field, "no pieces")
        for letter in members:
            if letter not in pieces:
                raise doc.error(field, f"no piece {letter!r} in the start picture")
            if letter in of_type:
                raise doc.error(field, f"piece {letter!r} is in two types")
            of_type[letter] = key
        shapes = {normal_shape(pieces[m]) for m in members}
        if len(shapes) != 1:
            raise doc.error(field, f"pieces {members} have different shapes; pieces of one "
                                   "type must be alike")
        types[key] = list(members)
    for letter in pieces:
        if letter not in of_type:
            if letter in types:
                raise doc.error("types", f"type {letter!r} is also a piece's letter in the "
                                         "start picture")
            of_type[letter] = letter
            types[letter] = [letter]
    return types


def _groups(types: dict[str, list[str]], pieces: dict[str, list[tuple[int, int]]],
            axes: dict[str, str], height: int, width: int, cells: frozenset[int]
            ) -> tuple[list[Group], list[list[int]]]:
    """The groups (a type's pieces, split by line where locked to an axis), and per group the
    placements its pieces take in the start."""
    groups: list[Group] = []
    start: list[list[int]] = []
    for key, members in types.items():
        shape = normal_shape(pieces[members[0]])
        lines: dict[tuple, list[str]] = {}
        for m in members:
            axis = axes.get(m, "")
            top = min(r for r, _ in pieces[m])
            left = min(c for _, c in pieces[m])
            line = ("", -1, -1) if not axis else (axis, top if axis == "horizontal" else -1,
                                                   left if axis == "vertical" else -1)
            lines.setdefault(line, []).append(m)
        for line, on_line in lines.items():
            placements = placements_of(shape, height, width, cells,
                                       line if line[0] else None)
            groups.append(Group(key, shape, len(on_line), placements, line[0]))
            start.append(sorted(placements.index(tuple(sorted(r * width + c
                                                              for r, c in pieces[m])))
                                for m in on_line))
    return groups, start


def _goal_set(doc: TomlDoc, puzzle: SlidingPuzzle, goal: Goal | list[str]) -> SlidingPuzzle:
    """The puzzle with its goal (as `_goal` read it: none, a piece at a place, or a picture),
    checked against its pieces; errors at the goal's field."""
    if isinstance(goal, Goal) and not goal.cells:
        return puzzle
    if isinstance(goal, Goal):
        puzzle = _with_goal(puzzle, goal)
        try:
            puzzle.goal_placement()
        except InputError as error:
            raise doc.error("goal", error.message) from None
        return puzzle
    try:
        position = puzzle.position_of(goal, "goal")
    except InputError as error:
        raise doc.error("goal", error.message) from None
    return _with_goal(puzzle, Goal(position=position))


def _with_goal(puzzle: SlidingPuzzle, goal: Goal) -> SlidingPuzzle:
    from dataclasses import replace

    return replace(puzzle, goal=goal)


def _axes(doc: TomlDoc, pieces: dict[str, list[tuple[int, int]]]) -> dict[str, str]:
    value = doc.data.get("axis")
    if value is None:
        return {}
    if isinstance(value, str):
        if value != "long-side":
            raise doc.error("axis", f"expected 'long-side' or a table of pieces, not {value!r}")
        found = {}
        for letter, where in pieces.items():
            height = max(r for r, _ in where) - min(r for r, _ in where) + 1
            width = max(c for _, c in where) - min(c for _, c in where) + 1
            if height != width:
                found[letter] = "horizontal" if width > height else "vertical"
        return found
    if not isinstance(value, dict):
        raise doc.error("axis", "expected 'long-side' or a table of pieces")
    found = {}
    for letter in value:
        axis = doc.get(f"axis.{letter}", str)
        if letter not in pieces:
            raise doc.error(f"axis.{letter}", f"no piece {letter!r} in the start picture")
        if axis not in AXES:
            raise doc.error(f"axis.{letter}", f"expected one of {', '.join(AXES)}, not {axis!r}")
        found[letter] = axis
    return found


def _goal(doc: TomlDoc, height: int, width: int, types, pieces, groups) -> Goal | list[str]:
    value = doc.data.get("goal")
    if value is None:  # no goal: the table holds every position's distance from the start
        return Goal()
    if isinstance(value, str):
        rows = picture(doc, "goal")
        if len(rows) != height or len(rows[0]) != width:
            raise doc.error("goal", f"{len(rows)} x {len(rows[0])} cells, the start has "
                                    f"{height} x {width}")
        return rows
    if not isinstance(value, dict):
        raise doc.error("goal", "expected a picture or a table with piece, row, column")
    doc.reject_unknown("goal", {"piece", "row", "column"})
    letter = doc.get("goal.piece", str, required=True)
    if letter not in types:
        raise doc.error("goal.piece", f"no piece type {letter!r} (types: {''.join(types)})")
    row = doc.get("goal.row", int, required=True)
    column = doc.get("goal.column", int, required=True)
    shape = normal_shape(pieces[types[letter][0]])
    cells = tuple(sorted((row + r) * width + column + c for r, c in shape))
    if not (0 <= row < height and 0 <= column < width) or any(
            not (0 <= row + r < height and 0 <= column + c < width) for r, c in shape):
        raise doc.error("goal.row", f"piece {letter} does not fit at row {row}, column {column}")
    return Goal(letter=letter, cells=cells)


read = read_sliding  # the reader models/files.py finds by convention


def write_sliding(puzzle: SlidingPuzzle, start: Position, title: str, source: str) -> str:
    """A puzzle file of the same board, blocks, goal and metric from another start (what
    `read_sliding` reads back as that puzzle with that start): each piece its own letter,
    interchangeable pieces one type in [types], pieces locked to an axis in [axis]."""
    taken = {g.letter for g in puzzle.groups}
    spare = iter(sorted(LABELS - taken))
    alone = {g.letter for g in puzzle.groups
             if sum(h.letter == g.letter for h in puzzle.groups) == 1 and g.count == 1}
    grid = [[EMPTY if r * puzzle.columns + c in puzzle.cells else BLOCKED
             for c in range(puzzle.columns)] for r in range(puzzle.rows)]
    types: dict[str, str] = {}
    axes: dict[str, str] = {}
    for g, chosen in enumerate(start):
        group = puzzle.groups[g]
        for p in chosen:
            letter = group.letter if group.letter in alone else next(spare)
            if letter != group.letter:
                types[group.letter] = types.get(group.letter, "") + letter
            if group.axis:
                axes[letter] = group.axis
            for cell in group.placements[p]:
                grid[cell // puzzle.columns][cell % puzzle.columns] = letter
    lines = ['kind = "sliding-block"', f"title = {_quoted(title)}", f"source = {_quoted(source)}",
             f'metric = "{puzzle.metric}"', 'start = """',
             *("".join(row) for row in grid), '"""']
    if puzzle.goal.position is not None:
        lines += ['goal = """', *puzzle.rows_of(puzzle.goal.position), '"""']
    if types:
        lines += ["[types]", *(f'{key} = "{members}"' for key, members in types.items())]
    if axes:
        lines += ["[axis]", *(f'{letter} = "{axis}"' for letter, axis in axes.items())]
    if puzzle.goal.cells:
        row, column = divmod(min(puzzle.goal.cells), puzzle.columns)
        lines += ["[goal]", f'piece = "{puzzle.goal.letter}"', f"row = {row}",
                  f"column = {column}"]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A TOML basic string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------- Knuth's sliding.w format

KNUTH_FORMAT = "Knuth's sliding.w format"
_SIZE = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\b\s*(.*)$")
_PIECE = re.compile(r"^\s*([0-9a-fA-F])\s*=\s*([01/]+)\s*$")
_INSTANCE_LETTERS = "ghijklmnopqrstuvwyzGHIJKLMNOPQRSTUVWYZ"


def sniff_knuth(path: str, text: str) -> bool:
    """A first line `ROWS x COLUMNS ...`: no other format starts so (a file in this format with
    a fault further on is then read here, and the fault named in its words)."""
    if Path(path).suffix == ".toml":
        return False
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and bool(_SIZE.match(lines[0]))


def read_knuth(path: str, text: str) -> SlidingPuzzle:
    """A puzzle in sliding.w's format: `R x C title`, pieces `NAME = PATTERN` (rows of 0/1
    separated by '/'), then the start and the stop configuration, each naming in turn what fills
    the topmost, leftmost cell not yet filled: a piece, 0 (empty) or x (no cell); trailing 0s
    may be left out. Pieces with one name are interchangeable. The metric is `step` (choose
    another with --metric); the stop configuration is the goal."""
    numbered = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]

    def bad(line: int, field: str, message: str) -> InputError:
        return InputError(message, file=path, line=line, field=field)

    size = _SIZE.match(numbered[0][1])
    rows, columns, title = int(size.group(1)), int(size.group(2)), size.group(3).strip()
    if not rows or not columns or rows * columns > MAX_CELLS:
        raise bad(numbered[0][0], "size", f"{rows} x {columns}: 1 to {MAX_CELLS} cells")
    shapes: dict[str, tuple[tuple[int, int], ...]] = {}
    at = 1
    while at < len(numbered) and "=" in numbered[at][1]:
        line, found = numbered[at][0], _PIECE.match(numbered[at][1])
        if found is None:
            raise bad(line, "piece", "expected NAME = PATTERN: a name 0-9 or a-f, and rows of "
                                     "0s and 1s separated by '/' (e.g. 1 = 11/10)")
        name, pattern = found.group(1).lower(), found.group(2)
        cells = [(r, c) for r, row in enumerate(pattern.split("/")) for c, ch in enumerate(row)
                 if ch == "1"]
        if not cells or not connected(cells):
            raise bad(line, f"piece {name}", "a piece is one connected set of 1s")
        if name in shapes:
            raise bad(line, f"piece {name}", "defined twice")
        shapes[name] = normal_shape(cells)
        at += 1
    if len(numbered) - at != 2:
        raise bad(numbered[min(at, len(numbered) - 1)][0], "configuration",
                  f"expected two configuration lines (start, stop) after the pieces, found "
                  f"{len(numbered) - at}")
    start, stop = (_fill(numbered[at + i], rows, columns, shapes, bad, field)
                   for i, field in enumerate(("start", "stop")))
    blocked = [[ch == BLOCKED for ch in row] for row in start[0]]
    if blocked != [[ch == BLOCKED for ch in row] for row in stop[0]]:
        raise bad(numbered[at + 1][0], "stop", "its blocked cells (x) differ from the start's")
    if sorted(start[1]) != sorted(stop[1]):
        raise bad(numbered[at + 1][0], "stop", "it has other pieces than the start")
    drawn, goal, types, letters = start[0], stop[0], {}, iter(_INSTANCE_LETTERS)
    picture = [list(row) for row in drawn]
    for name, cells in start[2]:
        try:
            letter = next(letters)
        except StopIteration:
            raise bad(numbered[at][0], "start", "more pieces than this reader names") from None
        types.setdefault(name, []).append(letter)
        for r, c in cells:
            picture[r][c] = letter
    data = {"kind": KIND, "metric": "step", "title": title, "source": KNUTH_FORMAT,
            "start": "\n".join("".join(row) for row in picture), "goal": "\n".join(goal),
            "types": {name: "".join(members) for name, members in types.items()}}
    doc = TomlDoc(path, data, "")
    try:
        puzzle = read_sliding(doc)
    except InputError as error:
        raise bad(numbered[at][0], "configuration", error.message) from None
    return replace(puzzle, name=Path(path).stem, file=path)


def _fill(numbered_line, rows, columns, shapes, bad, field):
    """The picture a configuration line fills (type names as letters), its pieces' names, and
    each piece's cells."""
    line, text = numbered_line
    grid = [[None] * columns for _ in range(rows)]
    pieces = []
    cursor = 0
    for ch in text.strip().lower():
        while cursor < rows * columns and grid[cursor // columns][cursor % columns] is not None:
            cursor += 1
        if cursor == rows * columns:
            raise bad(line, field, f"{ch!r} after the board is full")
        r0, c0 = divmod(cursor, columns)
        if ch in "0x":
            grid[r0][c0] = EMPTY if ch == "0" else BLOCKED
            continue
        if ch not in shapes:
            raise bad(line, field, f"{ch!r} is no piece defined above (nor 0 or x)")
        dr, dc = shapes[ch][0]
        cells = [(r0 + r - dr, c0 + c - dc) for r, c in shapes[ch]]
        if any(not (0 <= r < rows and 0 <= c < columns) or grid[r][c] is not None
               for r, c in cells):
            raise bad(line, field, f"piece {ch} at row {r0}, column {c0} leaves the board or "
                                   "covers a cell already filled")
        for r, c in cells:
            grid[r][c] = ch
        pieces.append((ch, cells))
    picture = ["".join(EMPTY if ch is None else ch for ch in row) for row in grid]
    return picture, [name for name, _ in pieces], pieces


FOREIGN_FORMATS = (ForeignFormat(KNUTH_FORMAT, sniff_knuth, read_knuth, exact=True),)
