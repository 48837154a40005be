"""Reference solver for packing puzzles, written independently of the models and encodings.

It shares only the puzzle file reader: orientations, placements and symmetry are computed here
again, in a different way (bitmasks over the board's cells), and solutions are found by filling
the first empty cell. Classes under the board's symmetries are counted by canonical forms of the
solutions themselves, not by Burnside's lemma as the solver backends do.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..models.packing import PackingPuzzle
from . import Backend, Outcome

Grid = tuple[int, ...]  # the piece index on every board cell, in reading order


@dataclass
class Board:
    """The board's cells as bit positions, and every piece's placements by their first cell."""

    cells: list[tuple[int, int]]
    starting_at: list[list[tuple[int, int]]]  # first bit -> [(piece bit, cell mask)]
    pieces: int
    symmetries: list[list[int]]  # each a permutation of bit positions


def _turn(cells: list[tuple[int, int]], quarter_turns: int, mirrored: bool) -> frozenset:
    out = []
    for r, c in cells:
        if mirrored:
            c = -c
        for _ in range(quarter_turns):
            r, c = c, -r
        out.append((r, c))
    r0 = min(r for r, _ in out)
    c0 = min(c for _, c in out)
    return frozenset((r - r0, c - c0) for r, c in out)


def build(puzzle: PackingPuzzle) -> Board:
    cells = [(r, c) for r, row in enumerate(puzzle.board) for c, ch in enumerate(row) if ch == "X"]
    if len(puzzle.board[0]) > len(puzzle.board):  # wide: fill column by column
        cells.sort(key=lambda cell: (cell[1], cell[0]))
    bit = {cell: i for i, cell in enumerate(cells)}
    starting_at: list[list[tuple[int, int]]] = [[] for _ in cells]
    for index, piece in enumerate(puzzle.pieces):
        shape = [
            (r, c) for r, row in enumerate(piece.picture) for c, ch in enumerate(row) if ch == "X"
        ]
        variants = {
            _turn(shape, q, m)
            for q in range(4)
            for m in ((False, True) if puzzle.flip else (False,))
        }
        masks = set()
        height = max(r for r, _ in cells) + 1
        width = max(c for _, c in cells) + 1
        for variant in variants:
            # every offset of the shape's bounding box, even where its corner lies on a hole
            for r0, c0 in itertools.product(range(height), range(width)):
                mask = 0
                for r, c in variant:
                    b = bit.get((r + r0, c + c0))
                    if b is None:
                        break
                    mask |= 1 << b
                else:
                    masks.add(mask)
        for mask in masks:
            first = (mask & -mask).bit_length() - 1
            starting_at[first].append((1 << index, mask))
    return Board(cells, starting_at, len(puzzle.pieces), _symmetries(cells, puzzle.flip))


def _symmetries(cells: list[tuple[int, int]], flip: bool) -> list[list[int]]:
    """Permutations of cell positions for every turn (and mirror, if flip) that keeps the board."""
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    index = {cell: i for i, cell in enumerate(cells)}
    found = []
    for mirrored in (False, True) if flip else (False,):
        for q in range(4):
            perm = []
            for r, c in cells:
                rr, cc = r, (width - 1 - c if mirrored else c)
                h, w = height, width
                for _ in range(q):  # a quarter turn of an h x w rectangle
                    rr, cc = cc, h - 1 - rr
                    h, w = w, h
                if (h, w) != (height, width) or (rr, cc) not in index:
                    break
                perm.append(index[(rr, cc)])
            else:
                if perm not in found:
                    found.append(perm)
    return found


def _search(board: Board, filled: int, used: int, placed: list, found: Callable) -> None:
    if used == (1 << board.pieces) - 1:
        found(placed)
        return
    first = (~filled & (filled + 1)).bit_length() - 1
    for piece_bit, mask in board.starting_at[first]:
        if not used & piece_bit and not filled & mask:
            placed.append((piece_bit, mask))
            _search(board, filled | mask, used | piece_bit, placed, found)
            placed.pop()


def grid_of(board: Board, placed: list[tuple[int, int]]) -> Grid:
    grid = [0] * len(board.cells)
    for piece_bit, mask in placed:
        piece = piece_bit.bit_length() - 1
        while mask:
            low = mask & -mask
            grid[low.bit_length() - 1] = piece
            mask ^= low
    return tuple(grid)


def canonical(board: Board, grid: Grid) -> Grid:
    """The least image of a solution under the board's symmetries: one per class."""
    return min(tuple(grid[i] for i in perm) for perm in board.symmetries)


def _area_mismatch(puzzle: PackingPuzzle, board: Board) -> bool:
    return sum(row.count("X") for piece in puzzle.pieces for row in piece.picture) != len(
        board.cells
    )


# ---------------------------------------------------------------- the backend


class _Timeout(Exception):
    """The deadline passed during a search."""


def _counter(board: Board, deadline: float | None, classes: bool):
    """A search counting solutions (and, with `classes`, those that are their class's canonical
    form, one per class), checking the clock every few thousand nodes."""
    ticks = 0
    full = (1 << board.pieces) - 1
    found = [0, 0]

    def walk(filled: int, used: int, placed: list) -> None:
        nonlocal ticks
        ticks += 1
        if deadline is not None and not ticks & 4095 and time.time() > deadline:
            raise _Timeout
        if used == full:
            found[0] += 1
            if classes:
                grid = grid_of(board, placed)
                found[1] += canonical(board, grid) == grid
            return
        first = (~filled & (filled + 1)).bit_length() - 1
        for piece_bit, mask in board.starting_at[first]:
            if not used & piece_bit and not filled & mask:
                placed.append((piece_bit, mask))
                walk(filled | mask, used | piece_bit, placed)
                placed.pop()

    return walk, found


class ReferencePacking(Backend):
    """The independent backtracker: fills the first empty cell; classes by canonical forms."""

    name = "reference:packing"
    takes = "reference"
    about = "independent backtracker (bitmasks); classes by canonical forms, not Burnside"
    cubes_per_job = 16

    def solve(self, model: ReferenceModel, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        try:
            for grid in self.enumerate(model, (), 1, deadline):
                return Outcome(list(grid), time.perf_counter() - start)
        except _Timeout:
            return Outcome(None, time.perf_counter() - start, complete=False)
        return Outcome(None, time.perf_counter() - start)

    def enumerate(self, state, cube, limit, deadline: float | None = None):
        model: ReferenceModel = state
        board = model.board
        if model.area_mismatch:
            return
        found: list[Grid] = []

        class Enough(Exception):
            pass

        def keep(placed: list) -> None:
            found.append(grid_of(board, placed))
            if limit is not None and len(found) >= limit:
                raise Enough

        filled, used, placed = _cube_start(board, cube)
        try:
            _search(board, filled, used, list(placed), keep)
        except Enough:
            pass
        yield from found

    def count_cube(self, state, cube, deadline):
        model: ReferenceModel = state
        if model.area_mismatch:
            return (0, 0) if model.classes else (0,), True
        filled, used, placed = _cube_start(model.board, cube)
        walk, found = _counter(model.board, deadline, model.classes)
        finished = True
        try:
            walk(filled, used, list(placed))
        except _Timeout:
            finished = False
        return (tuple(found) if model.classes else (found[0],)), finished


@dataclass
class ReferenceModel:
    """What the reference solver works on: its own board, and whether to count classes."""

    board: Board
    classes: bool
    area_mismatch: bool


def model(puzzle: PackingPuzzle, classes: bool = False) -> ReferenceModel:
    board = build(puzzle)
    return ReferenceModel(board, classes, _area_mismatch(puzzle, board))


def cubes(model: ReferenceModel, at_least: int) -> list[tuple[int, ...]]:
    """Branches of the search (the placement index at each of the first empty cells), at least
    `at_least` of them where the search is that wide; together they cover it once."""
    board = model.board
    found: list[tuple[int, ...]] = [()]
    while len(found) < at_least:
        deeper = []
        for cube in found:
            filled, used, _ = _cube_start(board, cube)
            if used == (1 << board.pieces) - 1:
                deeper.append(cube)
                continue
            first = (~filled & (filled + 1)).bit_length() - 1
            for k, (piece_bit, mask) in enumerate(board.starting_at[first]):
                if not used & piece_bit and not filled & mask:
                    deeper.append((*cube, k))
        if deeper == found or not deeper:
            return deeper
        found = deeper
        if len(found[0]) > 3:
            break
    return found


def _cube_start(board: Board, cube: tuple[int, ...]) -> tuple[int, int, list]:
    filled = used = 0
    placed = []
    for k in cube:
        first = (~filled & (filled + 1)).bit_length() - 1
        piece_bit, mask = board.starting_at[first][k]
        filled |= mask
        used |= piece_bit
        placed.append((piece_bit, mask))
    return filled, used, placed


def grid_cells(model: ReferenceModel, grid: Grid) -> dict[tuple[int, int], int]:
    """A solution as piece index per board cell."""
    return dict(zip(model.board.cells, grid))
