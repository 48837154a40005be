"""Edge-matching puzzles: tiles placed on a board and turned so that touching edges match.

Plain data and pure functions only; all geometry (cells, sides, neighbours, the border, the
board's symmetries) is the puzzle's grid's (grid.py: square or triangle cells). An edge is
(picture, half): under the 'equal' rule two touching edges match when they are the same (half
is "" there); under 'complement' they match when they show the same picture and opposite halves
(head/tail, top/bottom).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import InputError
from ..words import plural
from .grid import Board, Cell, EdgeGrid, Motion, board_of, grid_named

Edge = tuple[str, str]  # (picture or colour, half; "" under the 'equal' rule)
RULES = ("equal", "complement")
TOP, RIGHT, BOTTOM, LEFT = range(4)  # a square cell's sides


@dataclass(frozen=True)
class Tile:
    """A tile's edges clockwise (a square's from the top), and an optional mark (such as a
    diamond)."""

    edges: tuple[Edge, ...]
    mark: str = ""
    name: str = ""


@dataclass(frozen=True)
class FixedTile:
    """A tile (index into the puzzle's tiles) fixed at a cell, turned `rotation` times."""

    row: int
    col: int
    tile: int
    rotation: int


@dataclass(frozen=True)
class EdgePuzzle:
    """Tiles (one entry per physical tile) for a board, and the rules they obey.

    The board: on the `grid` (GRIDS in grid.py), the cells of `shape`, or where the shape is
    empty every cell of rows x cols; rows and cols are the shape's extent otherwise.

    frame: an edge that must face the outer border, and nowhere else (None: border is free).
    border: an edge every side on the outer border must show; unlike the frame it may show
    inside too (MacMahon's squares with a one-colour border).
    apart: a mark that no two orthogonally adjacent tiles may both carry (None: no such rule).
    """

    name: str
    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    rule: str = "equal"
    frame: Edge | None = None
    apart: str | None = None
    fixed: tuple[FixedTile, ...] = ()
    title: str = ""
    source: str = ""
    published: dict[str, object] = field(default_factory=dict, compare=False)
    kind: str = "edge-matching"
    # added by the edge-matching family (defaults keep the fields above as they were):
    levels: tuple[str | None, ...] = ()  # the `apart` mark at each level (Level 1 first); () none
    level: int = 0  # the level these rules are (0: the puzzle has no levels)
    file_format: str = "puzzlesat TOML"  # which reader read it
    colour_names: dict[str, str] = field(default_factory=dict, compare=False)  # for drawing
    border: Edge | None = None  # every outer side shows it (and it may show inside)
    grid: str = "square"  # the cells' grid (grid.py); an unknown grid is refused
    shape: tuple[Cell, ...] = ()  # the board's cells (): every cell of rows x cols

    def __post_init__(self) -> None:
        sides = grid_named(self.grid).sides
        for i, tile in enumerate(self.tiles):
            if len(tile.edges) != sides:
                raise InputError(
                    f"tile {tile.name or i + 1} has {plural(len(tile.edges), 'edge')}; a "
                    f"{self.grid} tile has {sides}", field="tiles")


_BOARDS: dict[tuple[str, int, int, int], tuple[tuple[Cell, ...], Board]] = {}


def board(puzzle: EdgePuzzle) -> Board:
    """The puzzle's board: its cells on its grid, their sides on the border, symmetries.

    Found by the identity of the puzzle's shape first: asked once a cell, a lookup that hashed
    the 28,800 cells of a large board each time took minutes before any model was built."""
    key = (puzzle.grid, puzzle.rows, puzzle.cols, id(puzzle.shape))
    kept = _BOARDS.get(key)
    if kept is not None and kept[0] is puzzle.shape:
        return kept[1]
    made = board_of(puzzle.grid, puzzle.rows, puzzle.cols, puzzle.shape)
    if len(_BOARDS) >= 64:
        _BOARDS.pop(next(iter(_BOARDS)))
    _BOARDS[key] = (puzzle.shape, made)  # the shape kept alive: its id stays its own
    return made


def grid_of_puzzle(puzzle: EdgePuzzle) -> EdgeGrid:
    return board(puzzle).grid


def rotated(edges: tuple, rotation: int) -> tuple:
    """The edges by side after turning a tile clockwise `rotation` times (edge i goes to side
    i + rotation): on squares quarter turns, on triangles thirds of a full turn."""
    n = len(edges)
    r = rotation % n
    return tuple(edges[(i - r) % n] for i in range(n))


def matches(a: Edge, b: Edge, rule: str) -> bool:
    """Whether two touching edges match under the puzzle's rule."""
    if rule == "equal":
        return a == b
    return a[0] == b[0] and a[1] != b[1]


# ---------------------------------------------------------------- added by the edge-matching family
# (the names above are shared with the reference solver and must stay as they are)

Placed = tuple[int, int]  # (tile index, rotation) at one cell


@dataclass(frozen=True)
class TileType:
    """Tiles that look the same once turned: one of them is a rotation of another.

    tiles: the physical tiles of this type (indices into the puzzle's tiles, the first one is the
    representative whose edges are `edges`); rotations: the rotations of the representative that
    look different (on squares 1, 2 or 4 of them: a tile like R G R G looks the same after a
    half turn; on triangles 1 or 3).
    """

    edges: tuple[Edge, ...]
    mark: str
    tiles: tuple[int, ...]
    rotations: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.tiles)


def same_look(a: Tile, b: Tile) -> bool:
    """Whether tile b is tile a turned (same mark; names do not matter)."""
    return a.mark == b.mark and any(rotated(a.edges, r) == b.edges for r in range(len(a.edges)))


def look_key(tile: Tile) -> tuple:
    """A key shared exactly by tiles that are rotations of each other."""
    return (min(rotated(tile.edges, r) for r in range(len(tile.edges))), tile.mark)


def distinct_rotations(edges: tuple[Edge, ...]) -> tuple[int, ...]:
    """The rotations that give different-looking tiles, the first of each look."""
    seen: dict[tuple[Edge, ...], int] = {}
    for r in range(len(edges)):
        seen.setdefault(rotated(edges, r), r)
    return tuple(seen.values())


def tile_types(puzzle: EdgePuzzle) -> tuple[TileType, ...]:
    """The puzzle's tiles grouped into types of identical tiles, in order of first appearance."""
    groups: dict[tuple, list[int]] = {}
    for i, tile in enumerate(puzzle.tiles):
        groups.setdefault(look_key(tile), []).append(i)
    types = []
    for indices in groups.values():
        first = puzzle.tiles[indices[0]]
        turns = distinct_rotations(first.edges)
        types.append(TileType(first.edges, first.mark, tuple(indices), turns))
    return tuple(types)


def type_rotation(tile_type: TileType, tile: Tile, rotation: int) -> int:
    """The rotation of the type's representative that looks like `tile` turned by `rotation`."""
    target = rotated(tile.edges, rotation)
    for r in tile_type.rotations:
        if rotated(tile_type.edges, r) == target:
            return r
    raise ValueError("the tile is not of this type")


def cells(puzzle: EdgePuzzle) -> list[Cell]:
    """The board's cells in reading order."""
    return list(board(puzzle).cells)


def border_sides(puzzle: EdgePuzzle, cell: Cell) -> tuple[bool, ...]:
    """For each side of a cell: does it face the outer border?"""
    return board(puzzle).border(cell)


def fits_frame(puzzle: EdgePuzzle, cell: Cell, edges: tuple[Edge, ...]) -> bool:
    """Frame rule: frame edges face the border, every border side shows a frame edge. Border
    rule: every side on the border shows the border edge (which may show inside as well)."""
    if puzzle.frame is None and puzzle.border is None:
        return True
    outside = border_sides(puzzle, cell)
    if puzzle.border is not None and any(
            out and edge != puzzle.border for edge, out in zip(edges, outside)):
        return False
    return puzzle.frame is None or all(
        (edge == puzzle.frame) == out for edge, out in zip(edges, outside))


def neighbour_pairs(puzzle: EdgePuzzle) -> list[tuple[Cell, Cell, int]]:
    """Touching cells (a, b, side of a that b touches), a before b in reading order; b's side
    touching a is the grid's `facing(side)`."""
    return board(puzzle).pairs


def check_grid(puzzle: EdgePuzzle, grid: list[Placed]) -> str | None:
    """Why a grid ((tile index, rotation) per cell, row by row) breaks the rules; None if valid."""
    board = cells(puzzle)
    if len(grid) != len(board):
        return f"{plural(len(grid), 'cell')} given for a board of {len(board)}"
    used = sorted(t for t, _ in grid)
    if used != list(range(len(puzzle.tiles))):
        return "the grid does not use every tile exactly once"
    at = dict(zip(board, grid))
    edges = {cell: rotated(puzzle.tiles[t].edges, rot) for cell, (t, rot) in at.items()}
    for cell in board:
        if not fits_frame(puzzle, cell, edges[cell]):
            return f"the tile at row {cell[0] + 1}, column {cell[1] + 1} breaks the frame rule"
    grid = grid_of_puzzle(puzzle)
    for a, b, side in neighbour_pairs(puzzle):
        if not matches(edges[a][side], edges[b][grid.facing(side)], puzzle.rule):
            return f"rows/columns {a} and {b} (0-based): touching edges do not match"
        marks = (puzzle.tiles[at[a][0]].mark, puzzle.tiles[at[b][0]].mark)
        if puzzle.apart and marks == (puzzle.apart, puzzle.apart):
            return f"cells {a} and {b} (0-based) both carry a {puzzle.apart}"
    for fixed in puzzle.fixed:
        t, rot = at[(fixed.row, fixed.col)]
        if rotated(puzzle.tiles[t].edges, rot) != rotated(
            puzzle.tiles[fixed.tile].edges, fixed.rotation
        ) or puzzle.tiles[t].mark != puzzle.tiles[fixed.tile].mark:
            return f"the fixed tile at row {fixed.row + 1}, column {fixed.col + 1} is not there"
    return None


Look = tuple[tuple[Edge, ...], str]  # what a cell shows: its edges after rotation, and its mark


def looks(puzzle: EdgePuzzle, grid: list[Placed]) -> tuple[Look, ...]:
    """What each cell shows: two grids are the same when their looks are the same."""
    return tuple((rotated(puzzle.tiles[t].edges, r), puzzle.tiles[t].mark) for t, r in grid)


def grid_from_looks(puzzle: EdgePuzzle, shown: list[Look]) -> list[Placed] | None:
    """Physical tiles and rotations that show the given looks, cell by cell; None if impossible."""
    free: dict[tuple, list[int]] = {}
    for i, tile in enumerate(puzzle.tiles):
        free.setdefault(look_key(tile), []).append(i)
    grid = []
    for edges, mark in shown:
        key = look_key(Tile(tuple(edges), mark))  # type: ignore[arg-type]
        if not free.get(key):
            return None
        t = free[key].pop(0)
        rotation = next(r for r in range(len(edges))
                        if rotated(puzzle.tiles[t].edges, r) == tuple(edges))
        grid.append((t, rotation))
    return grid


def board_turns(puzzle: EdgePuzzle) -> tuple[int, ...]:
    """Turns of the whole board under which the rules stay the same, in steps of the grid's
    smallest turn (a quarter turn on squares, a sixth on triangles), clockwise.

    A square board: 0..3 quarter turns; another rectangle: the half turn only; other boards
    what their shape allows. Fixed tiles pin the board, so only the identity is left.
    """
    if puzzle.fixed:
        return (0,)
    return board(puzzle).turns()


def board_motion(puzzle: EdgePuzzle, turns: int | Motion) -> Motion:
    """The board's symmetry given as a turn (steps, as `board_turns` gives them) or itself."""
    if isinstance(turns, Motion):
        return turns
    return board(puzzle).turn(turns)


def turned_cell(puzzle: EdgePuzzle, cell: Cell, turns: int | Motion) -> Cell:
    """Where a cell goes under a turn of the board (or another of its symmetries)."""
    here = board(puzzle)
    return here.cells[board_motion(puzzle, turns).to[here.index[cell]]]


def turned_looks(puzzle: EdgePuzzle, shown: tuple[Look, ...], turns: int | Motion
                 ) -> tuple[Look, ...]:
    """The looks of a grid after a turn of the whole board (or another of its symmetries):
    each cell's look moves to the cell's image, its edges following the sides."""
    motion = board_motion(puzzle, turns)
    out: list[Look | None] = [None] * len(shown)
    for i, (edges, mark) in enumerate(shown):
        out[motion.to[i]] = (motion.look(edges), mark)
    return tuple(out)  # type: ignore[arg-type]


def label_factor(puzzle: EdgePuzzle) -> int:
    """Ways to tell identical tiles apart in one grid: the product of m! over the tile types,
    m being how many physical tiles share a type (a tile that looks the same after a turn does
    not add to this: its turns do not make a different arrangement)."""
    factor = 1
    for tile_type in tile_types(puzzle):
        for k in range(2, tile_type.count + 1):
            factor *= k
    return factor


def at_level(puzzle: EdgePuzzle, level: int) -> EdgePuzzle:
    """The puzzle with the rules of one of its levels (for puzzles that have levels)."""
    if not puzzle.levels:
        if level == 1:
            return puzzle
        raise ValueError(f"{puzzle.name} has no levels")
    if not 1 <= level <= len(puzzle.levels):
        raise ValueError(f"{puzzle.name} has levels 1..{len(puzzle.levels)}")
    return replace(puzzle, apart=puzzle.levels[level - 1], level=level)

