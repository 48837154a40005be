"""Labelled cells and a target: a packing board whose cells carry names (a calendar's months,
days and weekdays), and the labels left uncovered, whose cells become holes of the board.

labels = \"\"\"
Jan Feb Mar Apr May Jun
1   2   3   4   5   6   7
\"\"\"                         # one line per row of the board that has cells, one word per cell
target = ["Jan", "1"]        # the labels left uncovered: holes of the board

A calendar puzzle is a packing puzzle like any other once its target is chosen: its board is the
labelled board less the target's cells. `with_target` chooses another target on the same board.
"""

from __future__ import annotations

import dataclasses

from ..errors import InputError
from ..files import TomlDoc
from ..geometry import SQUARE, Cell
from ..words import plural
from . import PackingPuzzle


def read_labels(doc: TomlDoc, puzzle: PackingPuzzle) -> PackingPuzzle:
    """The puzzle with its `labels` and `target` fields read (unchanged where it has none);
    errors name the file, line and field."""
    if "labels" not in doc.data:
        if "target" in doc.data:
            raise doc.error("target", "a target names labels of the board's cells, but the "
                            "board has none (add `labels`)")
        return puzzle
    text = doc.get("labels", str)
    if puzzle.lattice.dimensions != 2:
        raise doc.error("labels", f"labels name the cells of a flat board, not of the "
                        f"{puzzle.lattice.name} lattice")
    rows: dict[int, list[Cell]] = {}
    for cell in sorted(puzzle.board_cells):
        rows.setdefault(cell[0], []).append(cell)
    lines = [(n, line.split()) for n, line in enumerate(text.split("\n")) if line.strip()]
    first = doc.value_line("labels")
    if len(lines) != len(rows):
        raise doc.error("labels", f"{plural(len(lines), 'line')} of labels, but the board has "
                        f"cells on {plural(len(rows), 'row')}: one line per row, one word per cell")
    labels: dict[str, Cell] = {}
    for (n, words), cells in zip(lines, rows.values()):
        where = {"file": doc.path, "line": None if first is None else first + n,
                 "field": "labels"}
        if len(words) != len(cells):
            raise InputError(f"{plural(len(words), 'label')} for the {plural(len(cells), 'cell')} "
                             f"of board row {cells[0][0] + 1}", **where)
        for word, cell in zip(words, cells):
            if word in labels:
                raise InputError(f"label {word!r} is written twice", **where)
            labels[word] = cell
    target = doc.get("target", list, [])
    if not all(isinstance(word, str) for word in target):
        raise doc.error("target", f"a list of labels (strings), not {target!r}")
    labelled = dataclasses.replace(puzzle, labels=tuple((c, w) for w, c in labels.items()))
    try:
        return with_target(labelled, target)
    except InputError as error:
        raise doc.error("target", error.message) from None


def label_cells(puzzle: PackingPuzzle) -> dict[str, Cell]:
    """Each label's cell, in the order the labels are written."""
    return {word: cell for cell, word in puzzle.labels}


def whole_board(puzzle: PackingPuzzle) -> list[Cell]:
    """The labelled board's cells, the target's among them."""
    at = label_cells(puzzle)
    return sorted(set(puzzle.board_cells) | {at[word] for word in puzzle.target})


def with_target(puzzle: PackingPuzzle, target) -> PackingPuzzle:
    """The puzzle on the same labelled board with another target: the cells of these labels
    left uncovered (InputError, field 'target', for a label not on the board or named twice)."""
    at = label_cells(puzzle)
    target = tuple(target)
    for word in target:
        if word not in at:
            raise InputError(f"label {word!r} is not on the board (its labels: "
                             f"{' '.join(at)})", field="target")
        if target.count(word) > 1:
            raise InputError(f"label {word!r} is named twice", field="target")
    holes = {at[word] for word in target}
    cells = [c for c in whole_board(puzzle) if c not in holes]
    if puzzle.lattice is SQUARE and puzzle.board and isinstance(puzzle.board[0], str):
        ends = {r: c for r, c in sorted(whole_board(puzzle))}  # each row's last cell
        grid = [["."] * (ends.get(r, -1) + 1) for r in range(len(puzzle.board))]
        for r, c in cells:
            grid[r][c] = "X"
        board: tuple = tuple("".join(row) for row in grid)  # a target's cells drawn as holes
    else:
        board = tuple(cells)
    return dataclasses.replace(puzzle, board=board, target=target)


def area_hint(puzzle: PackingPuzzle, area: int) -> str:
    """What to add to the area check's message on a labelled board: how many labels the target
    would have to name."""
    if not puzzle.labels or area >= len(puzzle.board_cells):
        return ""
    left = len(whole_board(puzzle)) - area
    return (f": the pieces leave {left} of the labelled board's cells uncovered, the target "
            f"names {len(puzzle.target)} (target = [the labels left uncovered])")
