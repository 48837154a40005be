"""Mind Lock ("Purple and Green"): positions, notation, the three moves and a perfect-hash rank.

Twelve cells in three 2x2 layers: the FRONT face (cells 0-3, purple side), a hidden MIDDLE layer
(4-7) and the BACK face (8-11, green side); inside a layer 0 top-left, 1 top-right, 2 bottom-left,
3 bottom-right, so cells n, n+4, n+8 form one front-to-back column. Pieces: 4 purple (P), 4 green
(G), 3 yellow (Y) and one gap ('.'), which is always on the front or back face.

Notation of a position: the three layers front/middle/back, each written row by row (top-left,
top-right, bottom-left, bottom-right), separated by '/', e.g. the solved position with the gap
top-left in front is `.PPP/PYYY/GGGG`. Every layer is drawn as seen from the front, through the
puzzle, so the columns line up. Letters may be lower case. Also accepted: the author's 24-bit hex
code (`0x76bd98`): 2 bits per cell, 00 gap, 01 green, 10 purple, 11 yellow, cell n in bits 2n..2n+1.

Moves (the author's GetPossibleMoves; f is the gap's cell): `push` moves the gap's column one layer
(front [gap, a, b] -> [a, b, gap], back the reverse); `horizontal` swaps the gap with its left/right
neighbour on its face; `vertical` with its up/down neighbour. Every position has exactly these
three, and each move is undone by the same move.

Rank: gap cell (8 choices) x arrangement of the other 11 pieces in cell order (purple cells among
11 slots, then green among the 7 left, both by the combinatorial number system) = 8 x 330 x 35 =
92,400 ranks, one per position, computed without any dictionary of positions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from ..errors import InputError
from ..words import plural

GAP, GREEN, PURPLE, YELLOW = 0, 1, 2, 3  # the author's 2-bit cell codes
LETTERS = ".GPY"
COLOUR_NAMES = ("gap", "green", "purple", "yellow")
PIECES = {GAP: 1, GREEN: 4, PURPLE: 4, YELLOW: 3}  # how many of each a position holds
CELLS = 12
LAYERS = ("front", "middle", "back")
GAP_CELLS = (0, 1, 2, 3, 8, 9, 10, 11)
MOVES = ("push", "horizontal", "vertical")
NOTATION_HELP = (
    "a position: the front/middle/back layers, each row by row as seen from the front, with "
    "P, G, Y and '.' for the gap (e.g. .PPP/PYYY/GGGG), or the author's 24-bit hex code "
    "(e.g. 0x76bd98)"
)

Position = tuple[int, ...]  # the code of the piece in each of the 12 cells


# ---------------------------------------------------------------- notation


def parse_position(text: str, field: str = "start") -> Position:
    """A position from its notation or hex code; anything else is an InputError naming `field`."""
    text = text.strip()
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
        code = int(text, 16)
        if code >= 1 << (2 * CELLS):
            raise InputError(
                f"hex code {text} has more than 24 bits (2 bits per cell)", field=field
            )
        return checked(tuple((code >> (2 * n)) & 3 for n in range(CELLS)), field, text)
    layers = text.split("/")
    if len(layers) != 3:
        raise InputError(
            f"{text!r} is not a position: expected three layers front/middle/back separated by "
            f"'/' (e.g. .PPP/PYYY/GGGG) or a hex code (e.g. 0x76bd98)",
            field=field,
        )
    cells = []
    for name, layer in zip(LAYERS, layers):
        if len(layer) != 4:
            raise InputError(
                f"the {name} layer {layer!r} has {plural(len(layer), 'cell')}, expected 4",
                field=field
            )
        for letter in layer.upper():
            if letter not in LETTERS:
                raise InputError(
                    f"bad letter {letter!r} in the {name} layer (use P, G, Y and '.' for the gap)",
                    field=field,
                )
            cells.append(LETTERS.index(letter))
    return checked(tuple(cells), field, text)


def checked(cells: Sequence[int], field: str = "start", text: str = "") -> Position:
    """The cells as a position, if they hold the right pieces and the gap is on a face."""
    shown = f"{text!r}: " if text else ""
    counts = [list(cells).count(colour) for colour in range(4)]
    if counts[GAP] > 1:
        raise InputError(f"{shown}{plural(counts[GAP], 'gap')}, a position has exactly one",
                         field=field)
    if [counts[c] for c in PIECES] != list(PIECES.values()):
        got = ", ".join(f"{counts[c]} {COLOUR_NAMES[c]}" for c in (PURPLE, GREEN, YELLOW, GAP))
        raise InputError(
            f"{shown}wrong number of pieces: {got}; expected 4 purple, 4 green, 3 yellow, 1 gap",
            field=field,
        )
    gap = list(cells).index(GAP)
    if gap not in GAP_CELLS:
        raise InputError(
            f"{shown}the gap is in the middle layer (cell {gap}); push it to the front or back",
            field=field,
        )
    return tuple(cells)


def notation(position: Position) -> str:
    """The readable notation, e.g. `.PPP/PYYY/GGGG`."""
    letters = "".join(LETTERS[c] for c in position)
    return "/".join(letters[i : i + 4] for i in (0, 4, 8))


def code(position: Position) -> int:
    """The author's 24-bit state code."""
    return sum(c << (2 * n) for n, c in enumerate(position))


def hex_code(position: Position) -> str:
    return f"0x{code(position):06x}"


def draw(position: Position, indent: str = "  ") -> list[str]:
    """The three layers side by side, two text rows."""
    letters = [LETTERS[c] for c in position]
    rows = []
    for row in (0, 2):
        faces = ["".join(letters[base + row : base + row + 2]) for base in (0, 4, 8)]
        rows.append(indent + "   ".join(f"{face:^6}" for face in faces))
    return rows


def draw_header(indent: str = "  ") -> str:
    return indent + "   ".join(f"{name:^6}" for name in LAYERS)


# ---------------------------------------------------------------- moves


def move_cells(gap: int, move: str) -> list[tuple[int, int]]:
    """(cell, cell whose piece it receives) for the cells a move changes, the gap at `gap`."""
    if move == "push":
        column = [gap % 4, gap % 4 + 4, gap % 4 + 8]
        if gap >= 8:
            column.reverse()
        # the gap's end takes the next piece, the far end takes the gap
        return [(column[0], column[1]), (column[1], column[2]), (column[2], column[0])]
    other = gap ^ (1 if move == "horizontal" else 2)
    return [(gap, other), (other, gap)]


def apply_move(position: Position, move: str) -> Position:
    """The position after one of the three moves."""
    cells = list(position)
    for cell, source in move_cells(position.index(GAP), move):
        cells[cell] = position[source]
    return tuple(cells)


def neighbours(position: Position) -> list[tuple[str, Position]]:
    """The three moves from a position and where each leads."""
    return [(move, apply_move(position, move)) for move in MOVES]


def describe_move(before: Position, move: str) -> str:
    """A move in words: which piece goes where."""
    gap = before.index(GAP)
    layer = "front" if gap < 4 else "back"
    if move == "push":
        return f"push column {gap % 4}: gap from the {layer} to the " + (
            "back" if gap < 4 else "front"
        )
    other = gap ^ (1 if move == "horizontal" else 2)
    colour = COLOUR_NAMES[before[other]]
    return f"slide the {colour} piece {move}ly on the {layer} into the gap (cell {other} -> {gap})"


# ---------------------------------------------------------------- rank

ARRANGEMENTS = 330 * 35  # purple cells among 11, then green among the 7 left
POSITIONS = len(GAP_CELLS) * ARRANGEMENTS  # 92,400
_BINOMIAL = [[comb(n, k) for k in range(5)] for n in range(12)]
_GAP_INDEX = {cell: i for i, cell in enumerate(GAP_CELLS)}


def _subsets_by_rank(n: int, k: int) -> list[tuple[int, ...]]:
    """The k-subsets of range(n) listed by their combinatorial-number-system rank."""
    found: list[tuple[int, ...]] = [()] * _BINOMIAL[n][k]
    for subset in combinations(range(n), k):
        found[sum(_BINOMIAL[s][i + 1] for i, s in enumerate(subset))] = subset
    return found


_PURPLE_SLOTS = _subsets_by_rank(11, 4)
_GREEN_SLOTS = _subsets_by_rank(7, 4)


def arrangement_rank(pieces: Sequence[int]) -> int:
    """The rank (0..11549) of 11 pieces in cell order, the gap left out."""
    purple = green = seen_purple = seen_green = other = 0
    for slot, piece in enumerate(pieces):
        if piece == PURPLE:
            seen_purple += 1
            purple += _BINOMIAL[slot][seen_purple]
        else:
            if piece == GREEN:
                seen_green += 1
                green += _BINOMIAL[other][seen_green]
            other += 1
    return purple * 35 + green


def arrangement(rank: int) -> list[int]:
    """The 11 pieces in cell order of an arrangement rank."""
    purple, green = divmod(rank, 35)
    pieces = [PURPLE] * 11
    others = [slot for slot in range(11) if slot not in _PURPLE_SLOTS[purple]]
    for i, slot in enumerate(others):
        pieces[slot] = YELLOW
        if i in _GREEN_SLOTS[green]:
            pieces[slot] = GREEN
    return pieces


def rank(position: Position) -> int:
    """The position's rank, 0..92,399: gap index x 11,550 + arrangement rank."""
    gap = position.index(GAP)
    return _GAP_INDEX[gap] * ARRANGEMENTS + arrangement_rank(
        position[:gap] + position[gap + 1 :]
    )


def unrank(number: int) -> Position:
    """The position of a rank (inverse of `rank`)."""
    gap_index, rest = divmod(number, ARRANGEMENTS)
    pieces = arrangement(rest)
    gap = GAP_CELLS[gap_index]
    return tuple(pieces[:gap] + [GAP] + pieces[gap:])


# ---------------------------------------------------------------- moves on ranks


def move_tables() -> tuple[list[int], list[int], list[int]]:
    """For each move (push, horizontal, vertical), the rank reached from every rank.

    Only moves with the gap on the front (push) or top row (vertical) are computed from the
    rules; the others are their inverses, since every move is undone by the same move.
    """
    horizontal = [0] * POSITIONS
    vertical = [0] * POSITIONS
    push = [0] * POSITIONS
    for gap_index, gap in enumerate(GAP_CELLS):
        base = gap_index * ARRANGEMENTS
        other = GAP_CELLS.index(gap ^ 1) * ARRANGEMENTS
        horizontal[base : base + ARRANGEMENTS] = range(other, other + ARRANGEMENTS)
    computed = [(gap, "vertical", vertical) for gap in (0, 1, 8, 9)]
    computed += [(gap, "push", push) for gap in (0, 1, 2, 3)]
    bases = [GAP_CELLS.index(gap) * ARRANGEMENTS for gap, _, _ in computed]
    for number in range(ARRANGEMENTS):
        pieces = arrangement(number)
        for (gap, move, table), base in zip(computed, bases):
            before = tuple(pieces[:gap] + [0] + pieces[gap:])
            table[base + number] = rank(apply_move(before, move))
    for (_gap, _move, table), base in zip(computed, bases):
        for source in range(base, base + ARRANGEMENTS):
            table[table[source]] = source
    return push, horizontal, vertical


# ---------------------------------------------------------------- the puzzle


@dataclass(frozen=True)
class MindLockPuzzle:
    """The puzzle: its solved positions (the moves are the rules above) and published figures."""

    name: str
    solved: tuple[Position, ...]
    title: str = ""
    source: str = ""
    published: dict[str, object] = field(default_factory=dict, compare=False)
    kind: str = "mind-lock"
