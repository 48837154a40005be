"""Pure geometry of grid shapes: pictures, orientations and the symmetries of a board."""

from __future__ import annotations

from collections.abc import Callable, Iterable

Cell = tuple[int, int]  # (row, column)
Shape = tuple[Cell, ...]  # sorted cells, normalised so the minimum row and column are 0

FILLED = "X"
EMPTY = "."


def picture_cells(rows: Iterable[str]) -> list[Cell]:
    """The cells marked 'X' in a picture given as rows of 'X' and '.'."""
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == FILLED]


def fill_order(cells: Iterable[Cell]) -> list[Cell]:
    """Cells in the order a search fills them: along the board's shorter side first.

    Filling a wide board column by column keeps the frontier of empty cells short.
    """
    cells = list(cells)
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    return sorted(cells, key=(lambda p: (p[1], p[0])) if width > height else None)


def normalise(cells: Iterable[Cell]) -> Shape:
    """Translate cells so the smallest row and column are 0; sorted."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def rotate(cells: Iterable[Cell]) -> list[Cell]:
    """A quarter turn clockwise (about the origin)."""
    return [(c, -r) for r, c in cells]


def reflect(cells: Iterable[Cell]) -> list[Cell]:
    """A mirror image left to right (about the origin)."""
    return [(r, -c) for r, c in cells]


def orientations(cells: Iterable[Cell], flip: bool) -> list[Shape]:
    """The distinct orientations of a shape: 4 rotations, and their mirror images if flip."""
    cells = list(cells)
    found: list[Shape] = []
    for start in [cells, reflect(cells)] if flip else [cells]:
        current = start
        for _ in range(4):
            shape = normalise(current)
            if shape not in found:
                found.append(shape)
            current = rotate(current)
    return found


def shape_picture(cells: Iterable[Cell]) -> list[str]:
    """Rows of 'X' and '.' drawing a shape (the inverse of picture_cells)."""
    shape = normalise(cells)
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    grid = [[EMPTY] * width for _ in range(height)]
    for r, c in shape:
        grid[r][c] = FILLED
    return ["".join(row) for row in grid]


Transform = Callable[[Cell], Cell]

# The eight symmetries of a rectangle of height h and width w, as maps of (row, column).
# Quarter turns and diagonal mirrors exist only on a square.
SYMMETRY_NAMES = (
    "identity",
    "rotate 90",
    "rotate 180",
    "rotate 270",
    "mirror left-right",
    "mirror top-bottom",
    "mirror diagonal",
    "mirror anti-diagonal",
)


def rectangle_symmetry(
    name: str, top: int, left: int, bottom: int, right: int
) -> Transform | None:
    """A named symmetry of the rectangle with corners (top, left) and (bottom, right), or None
    where it does not map that rectangle to itself. The rectangle need not start at (0, 0): a
    board drawn with an empty margin keeps its symmetries."""
    h, w = bottom - top, right - left
    square = h == w

    def shifted(f: Callable[[int, int], Cell]) -> Transform:
        # the symmetry of the rectangle at (0, 0), applied about the board's own corner
        return lambda p: (lambda q: (q[0] + top, q[1] + left))(f(p[0] - top, p[1] - left))

    table: dict[str, tuple[bool, Transform]] = {
        "identity": (True, lambda p: p),
        "rotate 90": (square, shifted(lambda r, c: (c, w - r))),
        "rotate 180": (True, shifted(lambda r, c: (h - r, w - c))),
        "rotate 270": (square, shifted(lambda r, c: (h - c, r))),
        "mirror left-right": (True, shifted(lambda r, c: (r, w - c))),
        "mirror top-bottom": (True, shifted(lambda r, c: (h - r, c))),
        "mirror diagonal": (square, shifted(lambda r, c: (c, r))),
        "mirror anti-diagonal": (square, shifted(lambda r, c: (w - c, h - r))),
    }
    exists, transform = table[name]
    return transform if exists else None


def is_reflection(name: str) -> bool:
    """Whether a named symmetry turns shapes over (needs pieces that may be flipped)."""
    return name.startswith("mirror")


def board_symmetries(cells: Iterable[Cell], flip: bool) -> list[tuple[str, Transform]]:
    """The symmetries of the board's bounding rectangle that map its cells onto themselves.

    Mirror images are symmetries of the puzzle only when pieces may be flipped.
    """
    cells = set(cells)
    top, bottom = min(r for r, _ in cells), max(r for r, _ in cells)
    left, right = min(c for _, c in cells), max(c for _, c in cells)
    group = []
    for name in SYMMETRY_NAMES:
        if is_reflection(name) and not flip:
            continue
        transform = rectangle_symmetry(name, top, left, bottom, right)
        if transform is not None and {transform(p) for p in cells} == cells:
            group.append((name, transform))
    return group
