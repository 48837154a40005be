"""Reference solver for packing puzzles, written independently of the models and encodings.

It shares only the puzzle file reader (and the size limit in models/limits.py): orientations,
placements and symmetry are computed here again, in a different way (bitmasks over the board's
cells), and solutions are found by filling the first empty cell. Classes under the board's
symmetries are counted by canonical forms of the solutions themselves, not by Burnside's lemma
as the solver backends do.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..models.limits import check_placements
from ..models.packing import PackingPuzzle
from . import Backend, Outcome

Grid = tuple[int, ...]  # the piece index on every board cell, in reading order


@dataclass
class Board:
    """The board's cells as bit positions, and every piece's placements by their first cell."""

    cells: list[tuple[int, int]]
    # first bit -> [(piece bit, cell mask, the piece bit that must be used before it)]: the
    # copies of a piece are placed in order, so each covering is found once
    starting_at: list[list[tuple[int, int, int]]]
    pieces: int  # pieces counted with their copies
    types: list[int]  # each piece bit's piece in the file
    symmetries: list[list[int]]  # each a permutation of bit positions
    relabels: list[list[int]]  # with each: the piece each piece becomes (mirror classes)


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


def build(puzzle: PackingPuzzle, mirror: bool = False) -> Board:
    """The board; with `mirror`, its symmetries include mirror images that turn each piece into
    its mirror twin (classes of one-sided sets as published)."""
    cells = [(r, c) for r, row in enumerate(puzzle.board) for c, ch in enumerate(row) if ch == "X"]
    if len(puzzle.board[0]) > len(puzzle.board):  # wide: fill column by column
        cells.sort(key=lambda cell: (cell[1], cell[0]))
    bit = {cell: i for i, cell in enumerate(cells)}
    starting_at: list[list[tuple[int, int, int]]] = [[] for _ in cells]
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
    types = [index for index, piece in enumerate(puzzle.pieces) for _ in range(piece.count)]
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
        copy = types.index(index)
        for mask in masks:
            first = (mask & -mask).bit_length() - 1
            for k in range(copy, copy + piece.count):
                starting_at[first].append((1 << k, mask, (1 << (k - 1)) if k > copy else 0))
    same = list(range(len(puzzle.pieces)))
    twins = _twins(puzzle, shapes) if mirror else same
    pairs: list[tuple[list[int], list[int]]] = []  # (permutation of cells, of pieces), distinct
    for mirrored in (False, True) if puzzle.flip or mirror else (False,):
        for perm in _symmetries_of(cells, mirrored):
            pair = (perm, twins if mirrored else same)
            if pair not in pairs:
                pairs.append(pair)
    return Board(cells, starting_at, len(types), types, [p for p, _ in pairs],
                 [r for _, r in pairs])


def _twins(puzzle: PackingPuzzle, shapes: dict) -> list[int]:
    """The piece whose turns include each piece's mirror image."""
    turns = [{_turn(shapes[p.picture], q, False) for q in range(4)} for p in puzzle.pieces]
    twins = []
    for piece in puzzle.pieces:
        image = _turn(shapes[piece.picture], 0, True)
        found = [j for j, shapes_j in enumerate(turns) if image in shapes_j]
        if len(found) != 1:
            raise ValueError("the pieces are not closed under mirror images")
        twins.append(found[0])
    return twins



def _symmetries_of(cells: list[tuple[int, int]], mirrored: bool) -> list[list[int]]:
    """The distinct permutations of the board's quarter turns, after a mirror if `mirrored`.

    The turns are those of the board's own bounding box: a picture with empty rows or columns
    before the board (a margin of '.') has the same symmetries as without them.
    """
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    height = max(r for r, _ in cells) - top + 1
    width = max(c for _, c in cells) - left + 1
    index = {cell: i for i, cell in enumerate(cells)}
    found: list[list[int]] = []
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
    for piece_bit, mask, need in board.starting_at[first]:
        if not used & piece_bit and not filled & mask and used & need == need:
            placed.append((piece_bit, mask))
            _search(board, filled | mask, used | piece_bit, placed, found)
            placed.pop()


def grid_of(board: Board, placed: list[tuple[int, int]]) -> Grid:
    """The piece (of the file: copies alike) on every cell."""
    grid = [0] * len(board.cells)
    for piece_bit, mask in placed:
        piece = board.types[piece_bit.bit_length() - 1]
        while mask:
            low = mask & -mask
            grid[low.bit_length() - 1] = piece
            mask ^= low
    return tuple(grid)


def copies_of(board: Board, placed: list[tuple[int, int]]) -> Grid:
    """Which placed piece covers every cell (its place in `placed`)."""
    grid = [0] * len(board.cells)
    for k, (_, mask) in enumerate(placed):
        while mask:
            low = mask & -mask
            grid[low.bit_length() - 1] = k
            mask ^= low
    return tuple(grid)


def canonical(board: Board, grid: Grid, copies: Grid | None = None) -> tuple:
    """The least image of a solution under the board's symmetries (each piece relabelled as
    the symmetry says: its mirror twin under a mirror image, for mirror classes): one per
    class. A cell's image is its piece and which of the pieces met so far covers it, so that
    copies of a piece are told apart by where they lie, never by a name (`copies`: which
    placed piece covers each cell; None where every piece is one of a kind)."""
    copies = grid if copies is None else copies
    images = []
    for perm, relabel in zip(board.symmetries, board.relabels):
        met: dict[int, int] = {}
        images.append(tuple((relabel[grid[i]], met.setdefault(copies[i], len(met)))
                            for i in perm))
    return min(images)


def is_canonical(board: Board, placed: list[tuple[int, int]]) -> bool:
    """Whether a solution is its class's canonical form (the identity's image is the least)."""
    grid, copies = grid_of(board, placed), copies_of(board, placed)
    met: dict[int, int] = {}
    own = tuple((grid[i], met.setdefault(copies[i], len(met))) for i in range(len(grid)))
    return canonical(board, grid, copies) == own


def _area_mismatch(puzzle: PackingPuzzle, board: Board) -> bool:
    area = sum(row.count("X") * piece.count for piece in puzzle.pieces for row in piece.picture)
    return area != len(board.cells)


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
                found[1] += is_canonical(board, placed)
            return
        first = (~filled & (filled + 1)).bit_length() - 1
        for piece_bit, mask, need in board.starting_at[first]:
            if not used & piece_bit and not filled & mask and used & need == need:
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


def model(puzzle: PackingPuzzle, classes: bool = False, mirror: bool = False) -> ReferenceModel:
    board = build(puzzle, mirror)
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
            for k, (piece_bit, mask, need) in enumerate(board.starting_at[first]):
                if not used & piece_bit and not filled & mask and used & need == need:
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
        piece_bit, mask, _ = board.starting_at[first][k]
        filled |= mask
        used |= piece_bit
        placed.append((piece_bit, mask))
    return filled, used, placed


def grid_cells(model: ReferenceModel, grid: Grid) -> dict[tuple[int, int], int]:
    """A solution as piece index per board cell."""
    return dict(zip(model.board.cells, grid))
