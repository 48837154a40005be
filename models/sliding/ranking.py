"""A perfect rank of a sliding-block puzzle's arrangements: every way to place its pieces on the
board without overlap gets one number, 0 to (arrangements - 1), and back.

The arrangements are counted cell by cell, in board order: at the first cell not yet covered
either nothing stands (an empty cell) or a piece of some group has it as its first cell (its
anchor). A state is (that cell, the cells ahead already covered, the pieces left per group, the
empty cells left); its choices are ordered (empty first, then the groups in order), and the
arrangements through a choice are counted once per state. An arrangement's rank is the sum, along
its path of choices, of the arrangements through the choices before the one taken (the ranking of
paths in a DAG of states). Ranks are dense, so God's algorithm can keep a byte (or 2 bits) per
arrangement and no codes at all; the same arrays serve the compiled kernel
(runners/kernels/sliding.py) and this module's Python.

Where the states would be too many (`MAX_STATES`), there is no ranking: the puzzle's positions
keep their mixed-radix codes (models/sliding, `SlidingPuzzle.code`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cached_property

from ..words import plural
from . import Position, SlidingPuzzle

MAX_STATES = 3_000_000  # states the count may make; more and the puzzle has no ranking
EMPTY_CHOICE = 0  # choice 0: the cell stays empty; choice g + 1: a piece of group g anchored there


@dataclass(frozen=True, eq=False)
class Ranking:
    """The states of the count and, per state and choice, the next state (-1: not a choice) and
    the arrangements through the choices before it. State 0 is the start; `end` the state after
    the last cell."""

    size: int  # how many arrangements
    cells: tuple[int, ...]  # per state, the board cell (row * columns + column) it decides
    next: tuple[tuple[int, ...], ...]  # per state, per choice
    offset: tuple[tuple[int, ...], ...]  # per state, per choice
    anchored: tuple[tuple[int, ...], ...]  # per group, per board cell: the placement anchored
    end: int

    def rank(self, position: Position) -> int:
        """The rank of an arrangement (per group, its pieces' placement indices)."""
        anchor = self.anchors(position)
        state, total = 0, 0
        while state != self.end:
            choice = anchor.get(self.cells[state], EMPTY_CHOICE)
            total += self.offset[state][choice]
            state = self.next[state][choice]
            if state < 0:
                raise ValueError("not an arrangement of this puzzle's pieces")
        return total

    def unrank(self, rank: int) -> Position:
        """The arrangement of a rank (inverse of `rank`)."""
        if not 0 <= rank < self.size:
            raise ValueError(f"rank {rank} is not among the {plural(self.size, 'arrangement')}")
        found: list[list[int]] = [[] for _ in self.anchored]
        state = 0
        while state != self.end:
            choices = self.next[state]
            chosen = max(k for k in range(len(choices))
                         if choices[k] >= 0 and self.offset[state][k] <= rank)
            rank -= self.offset[state][chosen]
            if chosen != EMPTY_CHOICE:
                found[chosen - 1].append(self.anchored[chosen - 1][self.cells[state]])
            state = choices[chosen]
        return tuple(tuple(group) for group in found)

    def anchors(self, position: Position) -> dict[int, int]:
        """cell -> the choice taken there (group + 1) for each piece's anchor."""
        return {self.first_cell[g][p]: g + 1 for g, chosen in enumerate(position)
                for p in chosen}

    @cached_property
    def first_cell(self) -> list[dict[int, int]]:
        """Per group, placement -> its anchor (first) cell."""
        return [{p: cell for cell, p in enumerate(row) if p >= 0} for row in self.anchored]


def ranking(puzzle: SlidingPuzzle, most: int = MAX_STATES) -> Ranking | None:
    """The perfect rank of the puzzle's arrangements, or None where the count needs more than
    `most` states."""
    board = sorted(puzzle.cells)
    groups = puzzle.groups
    anchored, by_anchor = _anchors(puzzle)
    empties = len(board) - sum(g.count * len(g.shape) for g in groups)
    if empties < 0:
        return None
    states = _States(board, by_anchor, len(groups) + 1, most)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(board) + 100))
    try:
        start = states.state(0, 0, tuple(g.count for g in groups), empties)
    except OverflowError:
        return None
    finally:
        sys.setrecursionlimit(limit)
    if start < 0:
        return None
    return states.ranking(start, anchored)


def _anchors(puzzle: SlidingPuzzle) -> tuple[list[list[int]], dict[int, list[tuple[int, int]]]]:
    """Per group and board cell, the placement anchored there (-1: none); per anchor cell, the
    (group, shape as a bit mask of the cells from the anchor on) of each placement there."""
    span = puzzle.rows * puzzle.columns
    anchored = [[-1] * span for _ in puzzle.groups]
    by_anchor: dict[int, list[tuple[int, int]]] = {}
    for g, group in enumerate(puzzle.groups):
        for p, cells in enumerate(group.placements):
            first = min(cells)
            anchored[g][first] = p
            by_anchor.setdefault(first, []).append(
                (g, sum(1 << (c - first) for c in cells)))
    return anchored, by_anchor


_END = ("end",)  # the key of the state after the last cell


class _States:
    """The states of the count, numbered as they finish (each after every state it leads to),
    with per state the cell it decides, the next state per choice and its arrangements."""

    def __init__(self, board: list[int], by_anchor: dict[int, list[tuple[int, int]]],
                 choices: int, most: int) -> None:
        self.board, self.by_anchor, self.choices, self.most = board, by_anchor, choices, most
        self.ids: dict[tuple, int] = {}
        self.cells: list[int] = []
        self.nexts: list[list[int]] = []
        self.counts: list[int] = []

    def state(self, at: int, covered: int, left: tuple[int, ...], free: int) -> int:
        """The id of a state (skipping covered cells first); -1 where no arrangement
        completes it (OverflowError past `most` states)."""
        board, ids = self.board, self.ids
        while at < len(board) and covered & 1:
            covered >>= board[at + 1] - board[at] if at + 1 < len(board) else 1
            at += 1
        if at == len(board):
            if any(left) or free:
                return -1
            key = _END
        else:
            key = (at, covered, left, free)
        if key in ids:
            return ids[key]
        if len(ids) >= self.most:
            raise OverflowError
        if key == _END:
            return self._add(key, -1, [-1] * self.choices, 1)
        cell = board[at]
        step = board[at + 1] - cell if at + 1 < len(board) else 1
        row = [-1] * self.choices
        if free:
            row[EMPTY_CHOICE] = self.state(at + 1, covered >> step, left, free - 1)
        for g, shape in self.by_anchor.get(cell, ()):
            if left[g] and not shape & covered:
                rest = left[:g] + (left[g] - 1,) + left[g + 1:]
                row[g + 1] = self.state(at + 1, (covered | shape) >> step, rest, free)
        total = sum(self.counts[n] for n in row if n >= 0)
        if not total:
            return -1
        return self._add(key, cell, row, total)

    def _add(self, key: tuple, cell: int, row: list[int], total: int) -> int:
        """Number a finished state (the next number); its id."""
        self.ids[key] = len(self.cells)
        self.cells.append(cell)
        self.nexts.append(row)
        self.counts.append(total)
        return self.ids[key]

    def ranking(self, start: int, anchored: list[list[int]]) -> Ranking:
        """The ranking from these states, renumbered so that the start is 0, with per state
        and choice the arrangements through the choices before it."""
        order = [start] + [s for s in range(len(self.cells)) if s != start]
        new = {old: i for i, old in enumerate(order)}
        offsets, rows = [], []
        for old in order:
            row, run, offset = self.nexts[old], 0, [0] * self.choices
            for k in range(self.choices):
                offset[k] = run
                if row[k] >= 0:
                    run += self.counts[row[k]]
            offsets.append(tuple(offset))
            rows.append(tuple(new[n] if n >= 0 else -1 for n in row))
        return Ranking(self.counts[start], tuple(self.cells[old] for old in order), tuple(rows),
                       tuple(offsets), tuple(tuple(r) for r in anchored),
                       new[self.ids[_END]])
