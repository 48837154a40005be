"""Reference solver for packing puzzles, written independently of the models and encodings.

It shares only the puzzle file reader (and the size limit in models/limits.py): orientations,
placements and symmetry are computed here again, in a different way (bitmasks over the board's
cells), and solutions are found by filling the first empty cell. Classes under the board's
symmetries are counted by canonical forms of the solutions themselves, not by Burnside's lemma
as the solver backends do.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..models.limits import check_placements
from ..models.packing import PackingPuzzle

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
    shapes = {
        piece.picture: [
            (r, c) for r, row in enumerate(piece.picture) for c, ch in enumerate(row) if ch == "X"
        ]
        for piece in puzzle.pieces
    }
    variants_of = {
        picture: {
            _turn(shape, q, m)
            for q in range(4)
            for m in ((False, True) if puzzle.flip else (False,))
        }
        for picture, shape in shapes.items()
    }
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    # every variant at every offset is tried: refused before the work, not after it
    tries = sum(len(variants_of[piece.picture]) for piece in puzzle.pieces) * height * width
    check_placements(tries, f"{len(puzzle.pieces):,} pieces", "pieces")
    for index, piece in enumerate(puzzle.pieces):
        variants = variants_of[piece.picture]
        masks = set()
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
    """Permutations of cell positions for every turn (and mirror, if flip) that keeps the board.

    The turns are those of the board's own bounding box: a picture with empty rows or columns
    before the board (a margin of '.') has the same symmetries as without them.
    """
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    height = max(r for r, _ in cells) - top + 1
    width = max(c for _, c in cells) - left + 1
    index = {cell: i for i, cell in enumerate(cells)}
    found = []
    for mirrored in (False, True) if flip else (False,):
        for q in range(4):
            perm = []
            for r, c in cells:
                rr, cc = r - top, c - left  # within the bounding box
                if mirrored:
                    cc = width - 1 - cc
                h, w = height, width
                for _ in range(q):  # a quarter turn of an h x w rectangle
                    rr, cc = cc, h - 1 - rr
                    h, w = w, h
                image = (rr + top, cc + left)
                if (h, w) != (height, width) or image not in index:
                    break
                perm.append(index[image])
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


def _count(board: Board, filled: int, used: int) -> int:
    if used == (1 << board.pieces) - 1:
        return 1
    first = (~filled & (filled + 1)).bit_length() - 1
    total = 0
    for piece_bit, mask in board.starting_at[first]:
        if not used & piece_bit and not filled & mask:
            total += _count(board, filled | mask, used | piece_bit)
    return total


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


def solve(puzzle: PackingPuzzle) -> dict[tuple[int, int], int] | None:
    """One solution as piece index per cell, or None."""
    board = build(puzzle)
    if _area_mismatch(puzzle, board):
        return None
    first: list[Grid] = []

    class Found(Exception):
        pass

    def keep(placed: list) -> None:
        first.append(grid_of(board, placed))
        raise Found

    try:
        _search(board, 0, 0, [], keep)
    except Found:
        return dict(zip(board.cells, first[0]))
    return None


def _area_mismatch(puzzle: PackingPuzzle, board: Board) -> bool:
    return sum(row.count("X") for piece in puzzle.pieces for row in piece.picture) != len(
        board.cells
    )


# ---------------------------------------------------------------- counting, in parallel


@dataclass
class ReferenceCount:
    total: int
    classes: int | None
    seconds: float
    complete: bool


_board: Board | None = None


def _start(board: Board) -> None:
    global _board
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _board = board


def _branch_count(branch: tuple[int, int]) -> int:
    assert _board is not None
    piece_bit, mask = branch
    return _count(_board, mask, piece_bit)


def _branch_classes(branch: tuple[int, int]) -> tuple[int, set[Grid]]:
    assert _board is not None
    board = _board
    piece_bit, mask = branch
    classes: set[Grid] = set()
    total = 0

    def keep(placed: list) -> None:
        nonlocal total
        total += 1
        classes.add(canonical(board, grid_of(board, [(piece_bit, mask), *placed])))

    _search(board, mask, piece_bit, [], keep)
    return total, classes


def count(
    puzzle: PackingPuzzle,
    classes: bool = False,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ReferenceCount:
    """All solutions, and with `classes` the number of classes under the board's symmetries.

    The work is split by the placement covering the first cell, one branch per task.
    """
    start = time.perf_counter()
    board = build(puzzle)
    if _area_mismatch(puzzle, board):
        return ReferenceCount(0, 0 if classes else None, time.perf_counter() - start, True)
    branches = board.starting_at[0]
    work = _branch_classes if classes else _branch_count
    total, seen, done, complete = 0, set(), 0, True
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(max(1, jobs), _start, (board,))
    try:
        for result in pool.imap_unordered(work, branches):
            if classes:
                n, found = result
                seen |= found
            else:
                n = result
            total += n
            done += 1
            if progress:
                progress(done, total)
        pool.close()
    except KeyboardInterrupt:
        complete = False
        pool.terminate()
    finally:
        pool.join()
    return ReferenceCount(
        total, len(seen) if classes else None, time.perf_counter() - start, complete
    )
