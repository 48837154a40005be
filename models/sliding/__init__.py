"""Sliding-block puzzles: a board, polyomino pieces of types, a goal, and three move metrics.

The board is a set of cells inside a rectangle (rows x columns, at most 64 cells; '#' marks a
cell that is not part of it). A piece is a polyomino; pieces of one type have one shape and are
interchangeable (Klotski's four 1x1 soldiers), so a position says which placements each type
occupies, not which piece is where. A piece may be locked to one axis (Rush Hour's cars): it then
moves only along its line.

A move moves one piece; what counts as one move is the puzzle's metric, named in every output:
- `step`: one cell up, down, left or right (the 8-puzzle's and 15-puzzle's moves);
- `slide`: a straight slide any distance in one direction (Rush Hour's moves);
- `path`: any path of one piece through free cells (the usual Klotski metric: 81 moves).
Every move can be undone by a move of the same metric, so distances are symmetric.

A group is what a position is made of: the pieces of one type (for a type locked to an axis, the
pieces of that type on one line), with the list of its placements. A position is, per group, the
sorted placement indices of its pieces. Its code ranks it among all arrangements of the groups
(pieces may overlap there): per group the rank of its placement set by the combinatorial number
system, the groups combined in mixed radix. The code is a position's key in God's-algorithm table.

Notation: a position is drawn as rows of cells, '.' empty, '#' not on the board, each piece by
its type's letter; written on one line the rows are separated by '/', e.g. the 8-puzzle solved
`123/456/78.`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb

from ..errors import InputError
from ..geometry import SQUARE
from ..words import plural

KIND = "sliding-block"
METRICS = {
    "step": "one step of one piece: one cell up, down, left or right",
    "slide": "one straight slide of one piece, any distance in one direction",
    "path": "one piece moved along any path through free cells",
}
AXES = ("horizontal", "vertical")
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # up, down, left, right
EMPTY, BLOCKED = ".", "#"
MAX_CELLS = 64  # a position's occupied cells are one 64-bit mask in the search

Position = tuple[tuple[int, ...], ...]  # per group, its pieces' placement indices, sorted
Move = tuple[int, int, int]  # (group, placement before, placement after)


@dataclass(frozen=True)
class Group:
    """Interchangeable pieces: a type's letter and shape, its axis, where it can stand."""

    letter: str
    shape: tuple[tuple[int, int], ...]  # cells (row, column) relative to the top-left of its box
    count: int
    placements: tuple[tuple[int, ...], ...]  # cells (row * columns + column) of each placement
    axis: str = ""  # '', 'horizontal' or 'vertical'

    @property
    def size(self) -> int:
        """How many placement sets the group can have (overlaps included)."""
        return comb(len(self.placements), self.count)


@dataclass(frozen=True)
class Goal:
    """Either a whole configuration, or a piece of a type at a place (any other cells free)."""

    position: Position | None = None
    letter: str = ""  # the type's letter, for a piece at a place
    cells: tuple[int, ...] = ()  # the cells it must cover

    def describe(self, columns: int) -> str:
        if self.position is not None:
            return "the whole configuration of the goal picture"
        if not self.cells:
            return "none given: distances are from the start"
        row, column = divmod(min(self.cells), columns)
        return f"a piece {self.letter} at row {row}, column {column} (its top-left cell)"


@dataclass(frozen=True)
class SlidingPuzzle:
    """A board, its groups of pieces, the start, the goal, the metric, and published figures."""

    name: str
    rows: int
    columns: int
    cells: frozenset[int]  # the board's cells, row * columns + column
    groups: tuple[Group, ...]
    goal: Goal
    metric: str
    start: Position | None = None
    title: str = ""
    source: str = ""
    published: dict[str, object] = field(default_factory=dict, compare=False)
    kind: str = KIND
    # the metric the published figures are in (the file's; '' when this is it)
    published_metric: str = field(default="", compare=False)
    file: str = field(default="", compare=False)  # the file it was read from, for messages

    # ---- geometry

    def index(self) -> dict[tuple[str, tuple[int, ...]], tuple[int, int]]:
        return _placement_index(self)

    def shifts(self) -> list[list[list[int]]]:
        """Per group and placement, the placement one cell up, down, left, right (-1: none)."""
        return _shifts(self)

    @property
    def code_space(self) -> int:
        """How many codes there are: arrangements of the groups, overlaps included."""
        total = 1
        for g in self.groups:
            total *= g.size
        return total

    def pieces(self) -> int:
        return sum(g.count for g in self.groups)

    # ---- codes

    def code(self, position: Position) -> int:
        total, multiplier = 0, 1
        for group, chosen in zip(self.groups, position):
            total += subset_rank(chosen) * multiplier
            multiplier *= group.size
        return total

    def decode(self, code: int) -> Position:
        found = []
        for group in self.groups:
            code, rank = divmod(code, group.size)
            found.append(subset_unrank(rank, group.count, len(group.placements)))
        return tuple(found)

    # ---- the rules

    def occupied(self, position: Position) -> dict[int, int]:
        """cell -> group of the piece on it."""
        taken: dict[int, int] = {}
        for g, chosen in enumerate(position):
            for p in chosen:
                for cell in self.groups[g].placements[p]:
                    taken[cell] = g
        return taken

    def moves(self, position: Position) -> list[Move]:
        """Every move from a position in the puzzle's metric (the reference rules, in Python)."""
        taken = self.occupied(position)
        shifts = self.shifts()
        found: list[Move] = []
        for g, chosen in enumerate(position):
            placements = self.groups[g].placements
            for p in chosen:
                own = set(placements[p])

                def free(q: int, own=own, placements=placements) -> bool:
                    return all(c not in taken or c in own for c in placements[q])

                if self.metric == "path":
                    seen, queue = {p}, deque([p])
                    while queue:
                        here = queue.popleft()
                        for q in shifts[g][here]:
                            if q >= 0 and q not in seen and free(q):
                                seen.add(q)
                                queue.append(q)
                    found += [(g, p, q) for q in sorted(seen - {p})]
                    continue
                for d in range(4):
                    q = shifts[g][p][d]
                    while q >= 0 and free(q):
                        found.append((g, p, q))
                        if self.metric == "step":
                            break
                        q = shifts[g][q][d]
        return found

    def apply(self, position: Position, move: Move) -> Position:
        g, before, after = move
        chosen = list(position[g])
        chosen[chosen.index(before)] = after
        return tuple(tuple(sorted(chosen)) if i == g else c for i, c in enumerate(position))

    def neighbours(self, position: Position) -> list[tuple[Move, Position]]:
        return [(m, self.apply(position, m)) for m in self.moves(position)]

    def is_goal(self, position: Position) -> bool:
        if self.goal.position is not None:
            return position == self.goal.position
        if not self.goal.cells:
            return False
        g, p = self.goal_placement()
        return p in position[g]

    def goal_placement(self) -> tuple[int, int]:
        """(group, placement) of a piece-at-a-place goal."""
        found = self.index().get((self.goal.letter, tuple(sorted(self.goal.cells))))
        if found is None:
            raise InputError(f"piece {self.goal.letter} cannot stand at the goal's place",
                             field="goal")
        return found

    # ---- notation

    def rows_of(self, position: Position) -> list[str]:
        grid = [[EMPTY if r * self.columns + c in self.cells else BLOCKED
                 for c in range(self.columns)] for r in range(self.rows)]
        for g, chosen in enumerate(position):
            for p in chosen:
                for cell in self.groups[g].placements[p]:
                    grid[cell // self.columns][cell % self.columns] = self.groups[g].letter
        return ["".join(row) for row in grid]

    def notation(self, position: Position) -> str:
        return "/".join(self.rows_of(position))

    def parse(self, text: str, field: str = "start") -> Position:
        """A position from its picture: rows separated by '/' (or new lines), type letters."""
        rows = [r for r in text.strip().replace("\n", "/").split("/")]
        return self.position_of([r.strip() for r in rows], field)

    def position_of(self, rows: Sequence[str], field: str) -> Position:
        """A position from its rows of cells drawn with type letters; an InputError otherwise."""
        if len(rows) != self.rows or any(len(r) != self.columns for r in rows):
            raise InputError(f"expected {plural(self.rows, 'row')} of "
                             f"{plural(self.columns, 'cell')} (the board), "
                             f"got {plural(len(rows), 'row')} of "
                             f"{', '.join(str(len(r)) for r in rows)}",
                             field=field)
        letters = {g.letter: [] for g in self.groups}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                cell = r * self.columns + c
                on_board = cell in self.cells
                if ch == BLOCKED or not on_board:
                    if ch != BLOCKED or on_board:
                        raise InputError(f"row {r}, column {c}: {ch!r} where the board "
                                         f"{'has a cell' if on_board else 'has none (#)'}",
                                         field=field)
                    continue
                if ch == EMPTY:
                    continue
                if ch not in letters:
                    raise InputError(f"row {r}, column {c}: {ch!r} is no piece type (types: "
                                     f"{''.join(letters)})", field=field)
                letters[ch].append(cell)
        index = self.index()
        chosen: list[list[int]] = [[] for _ in self.groups]
        for letter, cells in letters.items():
            left = sorted(cells)
            groups = [g for g, group in enumerate(self.groups) if group.letter == letter]
            shape = self.groups[groups[0]].shape
            while left:
                r0, c0 = divmod(left[0], self.columns)
                dr, dc = shape[0]
                piece = tuple(sorted((r0 - dr + r) * self.columns + (c0 - dc + c)
                                     for r, c in shape))
                found = index.get((letter, piece))
                if not set(piece) <= set(left) or found is None or found[0] not in groups:
                    lines = " on its lines" if self.groups[groups[0]].axis else ""
                    raise InputError(f"the cells of {letter} do not split into pieces of its "
                                     f"shape{lines} (near row {r0}, column {c0})", field=field)
                chosen[found[0]].append(found[1])
                left = [c for c in left if c not in piece]
        for g, group in enumerate(self.groups):
            if len(chosen[g]) != group.count:
                where = f" on its line {group.axis}" if group.axis else ""
                raise InputError(f"{plural(len(chosen[g]), 'piece')} {group.letter}{where}, the "
                                 f"puzzle has {group.count}", field=field)
        return tuple(tuple(sorted(c)) for c in chosen)

    def checked(self, position: Sequence, field: str = "start") -> Position:
        """A position given as its parts (per group, its pieces' placement indices), checked:
        an InputError naming `field` where it is not one."""
        if not isinstance(position, Sequence) or isinstance(position, str) or \
                len(position) != len(self.groups):
            raise InputError(f"expected a position: per group of pieces ({len(self.groups)}), "
                             "the placement numbers of its pieces", field=field)
        found = []
        for group, chosen in zip(self.groups, position):
            if not isinstance(chosen, Sequence) or isinstance(chosen, str) or any(
                    not isinstance(p, int) or isinstance(p, bool)
                    or not 0 <= p < len(group.placements) for p in chosen):
                raise InputError(f"group {group.letter}: expected placement numbers 0 to "
                                 f"{len(group.placements) - 1}, not {chosen!r}", field=field)
            if len(set(chosen)) != group.count:
                raise InputError(f"group {group.letter}: {group.count} distinct placements, "
                                 f"not {list(chosen)}", field=field)
            found.append(tuple(sorted(chosen)))
        cells = [c for g, chosen in enumerate(found) for p in chosen
                 for c in self.groups[g].placements[p]]
        if len(set(cells)) != len(cells):
            raise InputError("pieces overlap", field=field)
        return tuple(found)

    def describe_move(self, move: Move) -> str:
        g, before, after = move
        group = self.groups[g]
        (r0, c0), (r1, c1) = (divmod(min(group.placements[p]), self.columns)
                              for p in (before, after))
        return f"{group.letter} from row {r0}, column {c0} to row {r1}, column {c1}"


_INDEX_CACHE: dict[int, dict] = {}


def _placement_index(puzzle: SlidingPuzzle) -> dict:
    key = id(puzzle)
    found = _INDEX_CACHE.get(key)
    if found is None or found["puzzle"] is not puzzle:
        index = {}
        for g, group in enumerate(puzzle.groups):
            for p, cells in enumerate(group.placements):
                index[group.letter, tuple(sorted(cells))] = (g, p)
        shifts = []
        for group in puzzle.groups:
            own = {cells: p for p, cells in enumerate(group.placements)}
            rows = []
            for cells in group.placements:
                row = []
                for dr, dc in DIRECTIONS:
                    moved = []
                    for cell in cells:
                        r, c = divmod(cell, puzzle.columns)
                        r, c = r + dr, c + dc
                        moved.append(r * puzzle.columns + c
                                     if 0 <= r < puzzle.rows and 0 <= c < puzzle.columns else -1)
                    row.append(own.get(tuple(moved), -1) if -1 not in moved else -1)
                rows.append(row)
            shifts.append(rows)
        found = {"puzzle": puzzle, "index": index, "shifts": shifts}
        _INDEX_CACHE[key] = found
    return found["index"]


def _shifts(puzzle: SlidingPuzzle) -> list[list[list[int]]]:
    _placement_index(puzzle)
    return _INDEX_CACHE[id(puzzle)]["shifts"]


# ---------------------------------------------------------------- the combinatorial number system


def subset_rank(chosen: Sequence[int]) -> int:
    """The rank of a sorted k-subset among all k-subsets of 0..n-1 (colex order)."""
    return sum(comb(p, i + 1) for i, p in enumerate(chosen))


def subset_unrank(rank: int, k: int, n: int) -> tuple[int, ...]:
    found = []
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= rank and c + 1 < n:
            c += 1
        rank -= comb(c, i)
        found.append(c)
    return tuple(reversed(found))


# ---------------------------------------------------------------- building a puzzle


def placements_of(shape: Sequence[tuple[int, int]], rows: int, columns: int,
                  cells: frozenset[int], line: tuple[str, int, int] | None = None
                  ) -> tuple[tuple[int, ...], ...]:
    """Every translation of a shape onto the board's cells; with a line (axis, row or column of
    the piece's top-left, the other coordinate), only those along it. Ordered by top-left cell."""
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    found = []
    for top in range(rows - height + 1):
        for left in range(columns - width + 1):
            if line is not None:
                axis, fixed_row, fixed_column = line
                if axis == "horizontal" and top != fixed_row:
                    continue
                if axis == "vertical" and left != fixed_column:
                    continue
            placed = tuple(sorted((top + r) * columns + left + c for r, c in shape))
            if all(cell in cells for cell in placed):
                found.append(placed)
    found.sort(key=lambda p: (min(p), p))
    return tuple(found)


def normal_shape(cells: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Cells moved so that the bounding box starts at (0, 0), in row-major order."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def connected(cells: Sequence[tuple[int, int]]) -> bool:
    """Whether a piece is one piece: its cells reached from one another through sides."""
    return SQUARE.connected(cells)
