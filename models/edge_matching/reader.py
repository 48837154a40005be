"""The edge-matching puzzle file (TOML), and two foreign formats read as they are.

    kind = "edge-matching"
    title = "what it is"                  # optional
    source = "where the facts come from"  # optional
    grid = "square"            # optional: "square" (the default) or "triangle" (grid.py)
    rows = 3                   # a full rectangle of rows x cols cells, or instead a picture:
    cols = 3
    board = \"\"\"              # X a cell, . none; on triangles ^ up, v down, . none
    ..^v^v^
    .^v^v^v^
    \"\"\"
    rule = "complement"        # "equal": same colour; "complement": same picture, other half
    halves = ["H", "T"]        # complement rule: the two halves of every picture
    frame = "0"                # optional: an edge that must face the border, and only the border
    apart = "diamond"          # optional: no two touching tiles may both carry this mark
    levels = ["", "diamond"]   # optional instead of apart: the apart mark at each level
    tiles = \"\"\"
    # one tile per line: edges clockwise (a square's top right bottom left, a triangle's
    # three sides clockwise from any), then optional
    # mark=NAME count=N name=NAME; a complement edge is HALF-PICTURE (as T-BLUE)
    T-B H-Y H-R T-R  name=0
    \"\"\"
    fixed = \"\"\"
    # row column tile rotation: 1-based row and column, the tile's name, degrees clockwise
    # (squares 0/90/180/270, triangles 0/120/240)
    \"\"\"

    [colours]                  # optional: what the colour letters mean, for drawing
    R = "red"

    [published]                # optional: what others have published (not checked by readers)
    note = "..."
    solution = \"\"\"
    GRYB* YBGR ...             # one row of cells per line: its edge letters, '*' for the mark
    \"\"\"

Foreign formats (chosen by content, or by extension):
- the card file of the CodeProject article "Solving Scramble Squares - Backtracking Algorithm
  in C#" (6 Sep 2014): three header lines, then `Name TOP RIGHT BOTTOM LEFT` with sides
  HEAD-COLOUR or TAIL-COLOUR, on a square board;
- the Eternity II benchmark format (Heule's edge-matching instances): a hint count H, H hint
  lines, then one line per piece `N E S W`; colour 0 is the frame; the board size follows from
  the pieces.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..files import ForeignFormat, TomlDoc, whole_number
from ..geometry import PictureError
from ..limits import MAX_TILES, check_tiles
from ..words import plural
from . import (
    RULES,
    Cell,
    Edge,
    EdgePuzzle,
    FixedTile,
    Look,
    Tile,
    board,
    border_sides,
    cells,
    fits_frame,
    matches,
    rotated,
)
from .grid import EdgeGrid, grid_named

FIELDS = {
    "kind", "name", "title", "source", "grid", "board", "rows", "cols", "rule", "halves",
    "frame", "border", "apart",
    "levels", "tiles", "fixed", "colours", "published",
}
PUBLISHED = {
    "note": str, "solutions": int, "solution": str, "solution_level1": str, "solution_level2": str,
}
TILE_OPTIONS = ("mark", "count", "name")
TOML_FORMAT = "puzzlesat TOML"
ARTICLE_FORMAT = "C# article card file"
E2_FORMAT = "Eternity II benchmark format"


# ---------------------------------------------------------------- TOML


def lines_of(doc: TomlDoc, field: str, value: str) -> list[tuple[int | None, str]]:
    """(file line, text) for each non-blank, non-comment line of a multi-line string field."""
    start = doc.value_line(field)
    out = []
    for i, text in enumerate(value.split("\n")):
        text = text.split("#", 1)[0].strip()
        if text:
            out.append((None if start is None else start + i, text))
    return out


def parse_edge(word: str, rule: str, halves: tuple[str, ...]) -> Edge:
    """One edge: a colour (equal rule) or HALF-PICTURE (complement rule)."""
    if rule == "equal":
        if word.startswith("-"):
            raise ValueError(f"colour {word!r} starts with '-': no negative colours")
        return (word, "")
    if "-" not in word:
        raise ValueError(f"edge {word!r} is not HALF-PICTURE (e.g. {halves[0]}-RED)")
    half, picture = word.split("-", 1)
    if half not in halves:
        raise ValueError(f"unknown half {half!r} in {word!r} (halves: {', '.join(halves)})")
    if not picture:
        raise ValueError(f"edge {word!r} names no picture")
    return (picture, half)


def edge_word(edge: Edge) -> str:
    """How an edge is written in the TOML file."""
    return edge[0] if not edge[1] else f"{edge[1]}-{edge[0]}"


def read_board(doc: TomlDoc, grid: EdgeGrid) -> tuple[int, int, tuple[Cell, ...]]:
    """rows, cols and the cells of a board picture (() for a full rows x cols rectangle)."""
    if "board" not in doc.data:
        if not grid.rectangles:
            raise doc.error(next((f for f in ("rows", "cols") if f in doc.data), "board"),
                            f"a {grid.name} board is given as a picture (board = \"\"\"...\"\"\"), "
                            "not as rows and cols")
        rows = positive(doc, "rows")
        cols = positive(doc, "cols")
        too_many = check_tiles(rows * cols, f"a {rows:,}x{cols:,} board")
        if too_many is not None:
            raise doc.error("rows", too_many.message)
        return rows, cols, ()
    for field in ("rows", "cols"):
        if field in doc.data:
            raise doc.error(field, "give rows and cols, or a board picture, not both")
    text = doc.get("board", str)
    first = doc.value_line("board")
    too_many = check_tiles(text.count("^") + text.count("v") + text.count("X"),
                           "a board picture")
    if too_many is not None:
        raise doc.error("board", too_many.message)
    try:
        shape = grid.read_picture(text)
    except PictureError as error:
        if first is None or error.line is None:
            raise doc.error("board", error.message) from None
        raise InputError(error.message, file=doc.path, line=first + error.line,
                         field="board") from None
    rows = max(r for r, _ in shape) + 1
    cols = max(c for _, c in shape) + 1
    return rows, cols, shape


def read_edge_toml(doc: TomlDoc) -> EdgePuzzle:
    doc.reject_unknown("", FIELDS)
    grid_name = doc.get("grid", str, "square")
    try:
        grid = grid_named(grid_name)
    except InputError as error:
        raise doc.error("grid", error.message) from None
    rows, cols, shape = read_board(doc, grid)
    cell_count = len(shape) if shape else rows * cols
    where = f"the {plural(cell_count, 'cell')} of the board" if shape else (
        f"the {plural(rows * cols, 'cell')} of a {rows}x{cols} board")
    rule, halves = read_rule(doc)

    def edge(field: str, word: str, line: int | None = None) -> Edge:
        return read_edge(doc, rule, halves, field, word, line)

    frame_word = doc.get("frame", str)
    frame = None if frame_word is None else edge("frame", frame_word)
    border_word = doc.get("border", str)
    border = None if border_word is None else edge("border", border_word)
    apart, levels = read_levels(doc)
    tiles, tile_lines, names = read_tiles(doc, grid, edge, cell_count, where)
    fixed, fixed_lines = read_fixed(doc, grid, rows, cols, shape, names, tiles)
    colours = doc.get("colours", dict, {})
    for key, value in colours.items():
        if not isinstance(value, str):
            raise doc.error(f"colours.{key}", f"expected a colour name, got {value!r}")
    published = doc.published(PUBLISHED)
    check_published(doc, published, grid.sides)
    puzzle = EdgePuzzle(
        name=doc.get("name", str, Path(doc.path).stem),
        rows=rows,
        cols=cols,
        tiles=tuple(tiles),
        rule=rule,
        frame=frame,
        apart=apart,
        fixed=fixed,
        title=doc.get("title", str, ""),
        source=doc.get("source", str, ""),
        published=published,
        levels=levels,
        level=1 if levels else 0,
        file_format=TOML_FORMAT,
        colour_names=dict(colours),
        border=border,
        grid=grid.name,
        shape=shape,
    )
    check_frame(puzzle, tile_lines, doc.path, "tiles", doc.line_of("frame"))
    check_fixed(puzzle, fixed_lines, doc.path)
    check_size(puzzle, doc.path, doc.line_of("tiles"), "tiles")
    return puzzle


def read_rule(doc: TomlDoc) -> tuple[str, tuple[str, ...]]:
    """The matching rule, and the two halves of a picture under the complement rule."""
    rule = doc.get("rule", str, "equal")
    if rule not in RULES:
        raise doc.error("rule", f"unknown rule {rule!r} (one of: {', '.join(RULES)})")
    if rule != "complement":
        if "halves" in doc.data:
            raise doc.error("halves", "halves belong to the complement rule only")
        return rule, ()
    listed = doc.get("halves", list, required=True)
    if len(listed) != 2 or not all(isinstance(h, str) and h for h in listed) or (
        listed[0] == listed[1]
    ):
        raise doc.error("halves", "give the two halves of a picture, e.g. [\"HEAD\", \"TAIL\"]")
    return rule, tuple(listed)


def read_edge(doc: TomlDoc, rule: str, halves: tuple[str, ...], field: str, word: str,
              line: int | None = None) -> Edge:
    """One edge of a field, refused at the field (or at its line in a multi-line value)."""
    try:
        return parse_edge(word, rule, halves)
    except ValueError as error:
        if line is None:
            raise doc.error(field, str(error)) from None
        raise InputError(str(error), file=doc.path, line=line, field=field) from None


def read_levels(doc: TomlDoc) -> tuple[str | None, tuple[str | None, ...]]:
    """The `apart` mark, and the apart mark of each level where `levels` gives them."""
    if "apart" in doc.data and "levels" in doc.data:
        raise doc.error("levels", "give apart or levels, not both")
    if "levels" not in doc.data:
        return doc.get("apart", str), ()
    listed = doc.get("levels", list)
    if not listed or not all(isinstance(m, str) for m in listed):
        raise doc.error("levels", "give the apart mark of each level, \"\" for none")
    levels = tuple(m or None for m in listed)
    return levels[0], levels


def tile_settings(doc: TomlDoc, line: int | None, options: list[str]) -> tuple[dict, int]:
    """A tile line's options (mark=, count=, name=) and its count, checked."""
    settings = {"mark": "", "count": "1", "name": ""}
    for option in options:
        key, _, value = option.partition("=")
        if key not in TILE_OPTIONS or not value:
            raise InputError(
                f"unknown tile option {option!r} "
                f"(use {', '.join(k + '=...' for k in TILE_OPTIONS)})",
                file=doc.path, line=line, field="tiles",
            )
        settings[key] = value
    try:
        n = whole_number(settings["count"])
    except ValueError as error:
        raise InputError(f"count: {error}", file=doc.path, line=line, field="tiles") from None
    if n < 1:
        raise InputError(
            f"count must be a positive whole number, not {settings['count']!r}",
            file=doc.path, line=line, field="tiles",
        )
    return settings, n


def read_tiles(doc: TomlDoc, grid: EdgeGrid, edge: Callable[..., Edge], cell_count: int,
               where: str) -> tuple[list[Tile], list[int | None], dict[str, int]]:
    """The tiles (copies made), the file line of each, and the index of each tile's name."""
    tiles: list[Tile] = []
    tile_lines: list[int | None] = []
    names: dict[str, int] = {}
    for line, text in lines_of(doc, "tiles", doc.get("tiles", str, required=True)):
        words = text.split()
        edge_words = [w for w in words if "=" not in w]
        if len(edge_words) != grid.sides:
            raise InputError(
                f"a tile has {plural(len(edge_words), 'edge')}; expected {grid.sides} "
                f"({grid.side_words}): {text!r}",
                file=doc.path, line=line, field="tiles",
            )
        settings, n = tile_settings(doc, line, [w for w in words if "=" in w])
        edges = tuple(edge("tiles", w, line) for w in edge_words)
        if len(tiles) + n > cell_count:  # checked before making the tiles: count=10**9
            raise InputError(
                f"more tiles than {where} (counting repeats: {len(tiles) + n} so far)",
                file=doc.path, line=line, field="tiles",
            )
        for k in range(n):
            name = settings["name"] or str(len(tiles) + 1)
            if settings["name"] and n > 1:
                name = f"{name}-{k + 1}"
            if name in names:
                raise InputError(
                    f"two tiles are named {name!r}", file=doc.path, line=line, field="tiles"
                )
            names[name] = len(tiles)
            tiles.append(Tile(edges, settings["mark"], name))  # type: ignore[arg-type]
            tile_lines.append(line)
    if len(tiles) != cell_count:
        raise doc.error(
            "tiles", f"{plural(len(tiles), 'tile')} (counting repeats) "
            f"{'does' if len(tiles) == 1 else 'do'} not fill {where}")
    return tiles, tile_lines, names


def check_published(doc: TomlDoc, published: dict[str, object], sides: int) -> None:
    """Each published solution drawn as rows of cells of `sides` edge letters."""
    for key in published_solution_keys(published):
        try:
            published_looks_of(str(published[key]), "", sides)
        except PublishedError as error:
            start = doc.value_line(f"published.{key}")
            if start is None:
                raise doc.error(f"published.{key}", str(error)) from None
            raise InputError(str(error), file=doc.path, line=start + error.offset,
                             field=f"published.{key}") from None


def positive(doc: TomlDoc, field: str) -> int:
    value = doc.get(field, int, required=True)
    if value < 1:
        raise doc.error(field, f"must be at least 1, not {value}")
    return value


def read_fixed(
    doc: TomlDoc, grid: EdgeGrid, rows: int, cols: int, shape: tuple[Cell, ...],
    names: dict[str, int], tiles: list[Tile],
) -> tuple[tuple[FixedTile, ...], list[int | None]]:
    """The fixed tiles (clues) and the file line of each."""
    fixed = []
    fixed_lines: list[int | None] = []
    taken: set[tuple[int, int]] = set()
    for line, text in lines_of(doc, "fixed", doc.get("fixed", str, "")):

        def bad(message: str, line: int | None = line) -> InputError:
            return InputError(message, file=doc.path, line=line, field="fixed")

        words = text.split()
        if len(words) != 4:
            raise bad(f"expected: row column tile rotation, got {text!r}")
        row_text, col_text, name, turn = words
        try:
            row, col = whole_number(row_text), whole_number(col_text)
        except ValueError as error:
            raise bad(f"row and column: {error}") from None
        on_board = (row - 1, col - 1) in shape if shape else (
            1 <= row <= rows and 1 <= col <= cols)
        if not on_board:
            picture = doc.get("board", (str, list))
            meant = grid.cells_by_character(picture).get((row - 1, col - 1)) if (
                shape and isinstance(picture, str)) else None
            raise bad(f"no cell at row {row}, column {col} on the "
                      + ("board" if shape else f"{rows}x{cols} board") + (
                          " (a board's picture is read from its first cell: the cell drawn "
                          f"there is row {meant[0] + 1}, column {meant[1] + 1})" if meant else ""))
        if name not in names:
            copies = [n for n in names if n.startswith(f"{name}-") and n[len(name) + 1:].isdigit()]
            raise bad(f"no tile named {name!r}" + (
                f" (its {plural(len(copies), 'copy')} are named {copies[0]} to {copies[-1]})"
                if copies else ""))
        turns = [str(grid.rotation_degrees(r)) for r in range(grid.sides)]
        if turn not in turns:
            raise bad(f"rotation must be {', '.join(turns[:-1])} or {turns[-1]} (degrees "
                      f"clockwise), not {turn!r}")
        cell = (row - 1, col - 1)
        if cell in taken or any(f.tile == names[name] for f in fixed):
            raise bad("a cell or a tile is fixed twice")
        taken.add(cell)
        fixed.append(FixedTile(cell[0], cell[1], names[name], turns.index(turn)))
        fixed_lines.append(line)
    return tuple(fixed), fixed_lines


def check_frame(
    puzzle: EdgePuzzle,
    tile_lines: list[int | None],
    path: str,
    field: str,
    frame_line: int | None,
) -> None:
    """Every tile's frame edges must be able to face the border, and fill it exactly."""
    if puzzle.frame is None:
        return
    # the frame rule (fits_frame) asks only which sides show the frame and which sides of the
    # cell face the border: a tile fits somewhere if a turn of its frame sides is the border
    # sides of some cell (at most 9 kinds on a rectangle), so this is quick on any board
    from .encode import board_words

    kinds = {border_sides(puzzle, cell) for cell in cells(puzzle)}
    for i, tile in enumerate(puzzle.tiles):
        sides = tuple(edge == puzzle.frame for edge in tile.edges)
        if not any(rotated(sides, r) in kinds for r in range(len(sides))):
            count = sum(edge == puzzle.frame for edge in tile.edges)
            raise InputError(
                f"tile {tile.name!r}: its {count} frame edge(s) cannot all face the border of a "
                f"{board_words(puzzle)} board (and the border only)",
                file=path, line=tile_lines[i], field=field,
            )
    border = board(puzzle).border_count()
    frames = sum(edge == puzzle.frame for tile in puzzle.tiles for edge in tile.edges)
    if frames != border:
        raise InputError(
            f"the tiles have {frames} frame edges; the border of a {board_words(puzzle)} "
            f"board has {border}",
            file=path, line=frame_line, field="frame",
        )
    # a tile fits exactly the cells whose border sides are a turn of its frame sides: as many
    # tiles of each pattern (corner, side, inside, ...) as cells
    cells_of: dict[tuple[bool, ...], int] = {}
    for cell in cells(puzzle):
        outside = border_sides(puzzle, cell)
        key = min(rotated(outside, r) for r in range(len(outside)))
        cells_of[key] = cells_of.get(key, 0) + 1
    tiles_of: dict[tuple[bool, ...], int] = {}
    for tile in puzzle.tiles:
        key = min(rotated(tuple(edge == puzzle.frame for edge in tile.edges), r)
                  for r in range(len(tile.edges)))
        tiles_of[key] = tiles_of.get(key, 0) + 1
    for key in sorted(cells_of, key=sum, reverse=True):
        if tiles_of.get(key, 0) != cells_of[key]:
            what = FRAME_PATTERNS.get(sum(key), f"{sum(key)} frame edges")
            raise InputError(
                f"{plural(tiles_of.get(key, 0), 'tile')} with {what} for the "
                f"{plural(cells_of[key], 'cell')} that "
                f"take them on a {board_words(puzzle)} board: the pieces cannot fill the frame",
                file=path, line=frame_line, field="frame",
            )


FRAME_PATTERNS = {2: "two frame edges (corners)", 1: "one frame edge (border pieces)",
                  0: "no frame edge (inner pieces)", 3: "three frame edges"}


def check_fixed(puzzle: EdgePuzzle, lines: list[int | None], path: str) -> None:
    """Clues (fixed tiles) that contradict the rules or each other: a clue that breaks the frame
    at its cell, or two touching clues whose edges do not match (or both carry the `apart`
    mark)."""
    shown = {}
    here = board(puzzle)
    for fixed, line in zip(puzzle.fixed, lines):
        cell = (fixed.row, fixed.col)
        edges = rotated(puzzle.tiles[fixed.tile].edges, fixed.rotation)
        if not fits_frame(puzzle, cell, edges):
            raise InputError(
                f"tile {puzzle.tiles[fixed.tile].name!r} turned "
                f"{here.grid.rotation_degrees(fixed.rotation)} at row {cell[0] + 1}, column "
                f"{cell[1] + 1} breaks the frame rule there",
                file=path, line=line, field="fixed")
        shown[cell] = (edges, puzzle.tiles[fixed.tile].mark, line)
    for a, b, side in here.pairs:
        if a not in shown or b not in shown:
            continue
        (edges, mark, line), other = shown[a], shown[b]
        where = f"the clues at row {a[0] + 1}, column {a[1] + 1} and row {b[0] + 1}, column " \
            f"{b[1] + 1}"
        if not matches(edges[side], other[0][here.grid.facing(side)], puzzle.rule):
            raise InputError(
                f"{where} touch with edges that do not match: they contradict each other",
                file=path, line=max(line or 0, other[2] or 0) or None, field="fixed")
        if puzzle.apart and mark == other[1] == puzzle.apart:
            raise InputError(
                f"{where} both carry a {puzzle.apart}: they contradict each other",
                file=path, line=max(line or 0, other[2] or 0) or None, field="fixed")


class PublishedError(ValueError):
    """A published solution that is not rows of cells of one letter a side; `offset`: its line
    in the value."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def published_solution_keys(published: dict[str, object]) -> list[str]:
    """The published fields holding a solution drawn as text (not the count 'solutions')."""
    return [k for k in published if k == "solution" or k.startswith("solution_level")]


def check_size(puzzle: EdgePuzzle, path: str, line: int | None, field: str) -> None:
    """Refuse, at its file and line, a board whose model would pass the placement limit."""
    from .encode import check_size as within_limits

    try:
        within_limits(puzzle)
    except InputError as error:
        raise InputError(error.message, file=path, line=line, field=field) from None


def published_looks(puzzle: EdgePuzzle, key: str) -> list[Look]:
    """A published solution stored as text: rows of cells, each its edge letters, '*' if marked."""
    mark = puzzle.apart or next((t.mark for t in puzzle.tiles if t.mark), "")
    return published_looks_of(str(puzzle.published[key]), mark, len(puzzle.tiles[0].edges))


def published_looks_of(text: str, mark: str, sides: int = 4) -> list[Look]:
    shown: list[Look] = []
    for offset, row in enumerate(text.split("\n")):
        for word in row.split():
            marked = word.endswith("*")
            letters = word.rstrip("*")
            if len(letters) != sides:
                shown_word = word if len(word) <= 40 else word[:40] + "..."
                raise PublishedError(
                    f"published cell {shown_word!r} is not {sides} edge letters (and '*' for "
                    "a mark)", offset)
            shown.append((tuple((ch, "") for ch in letters), mark if marked else ""))
    return shown


def to_toml(puzzle: EdgePuzzle) -> str:
    """The puzzle written in the TOML format (one line per physical tile)."""
    lines = ['kind = "edge-matching"', f"name = {quote(puzzle.name)}"]
    if puzzle.title:
        lines.append(f"title = {quote(puzzle.title)}")
    if puzzle.source:
        lines.append(f"source = {quote(puzzle.source)}")
    if puzzle.grid != "square":
        lines.append(f"grid = {quote(puzzle.grid)}")
    if puzzle.shape:
        picture = grid_named(puzzle.grid).picture(puzzle.shape)
        lines += ['board = """', *picture.split("\n"), '"""']
    else:
        lines += [f"rows = {puzzle.rows}", f"cols = {puzzle.cols}"]
    lines.append(f"rule = {quote(puzzle.rule)}")
    if puzzle.rule == "complement":
        halves = sorted({e[1] for t in puzzle.tiles for e in t.edges})
        lines.append("halves = [" + ", ".join(quote(h) for h in halves) + "]")
    if puzzle.frame is not None:
        lines.append(f"frame = {quote(edge_word(puzzle.frame))}")
    if puzzle.border is not None:
        lines.append(f"border = {quote(edge_word(puzzle.border))}")
    if puzzle.levels:
        lines.append("levels = [" + ", ".join(quote(m or "") for m in puzzle.levels) + "]")
    elif puzzle.apart:
        lines.append(f"apart = {quote(puzzle.apart)}")
    lines.append('tiles = """')
    for tile in puzzle.tiles:
        words = [edge_word(e) for e in tile.edges]
        if tile.mark:
            words.append(f"mark={tile.mark}")
        if tile.name:
            words.append(f"name={tile.name}")
        lines.append(" ".join(words))
    lines.append('"""')
    if puzzle.fixed:
        lines.append('fixed = """')
        for f in puzzle.fixed:
            degrees = grid_named(puzzle.grid).rotation_degrees(f.rotation)
            lines.append(f"{f.row + 1} {f.col + 1} {puzzle.tiles[f.tile].name} {degrees}")
        lines.append('"""')
    return "\n".join(lines) + "\n"


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------- the C# article's card file

ARTICLE_HALVES = ("HEAD", "TAIL")
SNIFFED = 2000  # the lines a format is recognised by: quick on a file of a million tiles
_ARTICLE_SIDE = re.compile(r"^[A-Za-z]+-[A-Za-z]+$")


def sniff_article(path: str, text: str) -> bool:
    """Card lines `Name SIDE SIDE ...` with sides WORD-WORD after three header lines (or .in)."""
    if Path(path).suffix in (".in", ".toml"):
        return Path(path).suffix == ".in"
    body = [line.split() for line in text.splitlines()[3:SNIFFED] if line.strip()]
    return bool(body) and all(
        len(words) >= 2 and all(_ARTICLE_SIDE.match(w) for w in words[1:]) for words in body
    )


def read_article(path: str, text: str) -> EdgePuzzle:
    """The article's CardReader: skip three lines; each card `Name TOP RIGHT BOTTOM LEFT`."""
    tiles = []
    names: dict[str, int] = {}  # card name -> its line
    lines = text.splitlines()
    for number, line in enumerate(lines[3:], start=4):
        words = line.split()
        if not words:
            continue

        def bad(message: str, field: str = "card", number: int = number) -> InputError:
            return InputError(message, file=path, line=number, field=field)

        name, sides = words[0], words[1:]
        if len(sides) != 4:
            raise bad(f"card {name!r} has {plural(len(sides), 'side')}; expected 4 (TOP RIGHT "
                      "BOTTOM LEFT)")
        edges = []
        for side_name, word in zip(("TOP", "RIGHT", "BOTTOM", "LEFT"), sides):
            half, _, colour = word.partition("-")
            if half.upper() not in ARTICLE_HALVES:
                raise bad(f"unknown half {half!r} in {word!r} (HEAD or TAIL)", side_name)
            if not colour.isalpha():
                raise bad(f"side {word!r} is not HEAD-COLOUR or TAIL-COLOUR", side_name)
            edges.append((colour.upper(), half.upper()))
        if name in names:
            raise bad(f"two cards are named {name!r} (the first on line {names[name]})")
        names[name] = number
        tiles.append(Tile(tuple(edges), "", name))  # type: ignore[arg-type]
    if not tiles:
        raise InputError("no cards after the three header lines", file=path, line=4, field="card")
    side = math.isqrt(len(tiles))
    if side * side != len(tiles):
        raise InputError(
            f"{plural(len(tiles), 'card')} do not fill a square board (4, 9, 16, ... cards)",
            file=path, line=len(lines), field="card",
        )
    return EdgePuzzle(
        name=Path(path).stem,
        rows=side,
        cols=side,
        tiles=tuple(tiles),
        rule="complement",
        title=f"{plural(len(tiles), 'card')} read from a card file of the C# article",
        source=path,
        file_format=ARTICLE_FORMAT,
    )


def to_article(puzzle: EdgePuzzle) -> str:
    """A complement-rule puzzle with HEAD/TAIL halves written as the article's card file."""
    lines = [f"# {puzzle.name}", "# written by puzzlesat", "#"]
    for i, tile in enumerate(puzzle.tiles):
        sides = [f"{half}-{picture}" for picture, half in tile.edges]
        lines.append(" ".join([tile.name or str(i), *sides]))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the Eternity II benchmark format

_WHOLE = re.compile(r"^[0-9]+$")  # not \d: Unicode digits are not colours of the format
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def _e2_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of the non-blank lines."""
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


_TOML_LINE = re.compile(r"""^\s*(\[|[A-Za-z_"'][^=]*=)""")  # a table header or a key


def sniff_e2(path: str, text: str) -> bool:
    """Lines of numbers, the first the hint count; no TOML keys or tables, no card sides.

    Files that are nearly in this format (a letter, a fraction, a comment or a bad or missing
    hint count somewhere) are recognised too, so that the Eternity II reader names what is
    wrong and where: more than half of the lines are mostly numbers.
    """
    if Path(path).suffix in (".toml", ".in"):
        return False
    lines = [line for _, line in _e2_lines(text)[:SNIFFED]
             if not line.lstrip().startswith("#")]
    if not lines or any(_TOML_LINE.match(line) for line in lines):
        return False
    if any(_ARTICLE_SIDE.match(word) for line in lines for word in line.split()):
        return False  # HEAD-RED: the C# article's card file
    numeric = [line for line in lines if _mostly_numbers(line)]
    return 2 * len(numeric) > len(lines)


def _mostly_numbers(line: str) -> bool:
    """At least half the words of a line are numbers (whole, negative or fractional)."""
    words = line.split("#", 1)[0].split()
    return bool(words) and 2 * sum(bool(_NUMBER.match(w)) for w in words) >= len(words)


def board_size(corners: int, borders: int, pieces: int) -> tuple[int, int] | None:
    """Rows and columns (rows <= cols) from the counts of corner, border and all pieces."""
    if corners != 4 or borders % 2:
        return None
    total = borders // 2 + 4  # rows + cols
    disc = total * total - 4 * pieces
    if disc < 0 or math.isqrt(disc) ** 2 != disc:
        return None
    rows = (total - math.isqrt(disc)) // 2
    cols = total - rows
    return (rows, cols) if rows >= 2 and rows * cols == pieces else None


def _e2_hints(lines: list[tuple[int, str]], bad: Callable[..., InputError]) -> int:
    """The hint count on the first line (0: hints are refused, their meaning undocumented)."""
    first_line, first = lines[0][0], lines[0][1].split()
    try:
        hints = whole_number(first[0]) if len(first) == 1 else -1
    except ValueError:
        hints = -1
    if hints < 0:
        shown = lines[0][1].strip()
        raise bad(
            f"the first line must be the hint count, a whole number 0 or more, not "
            f"{shown if len(shown) <= 40 else shown[:40] + '...'!r}", first_line, "hints",
        )
    if hints > len(lines) - 1:
        raise bad(
            f"bad hint count {hints}: the file has only {len(lines) - 1} more lines",
            first_line, "hints",
        )
    if hints:
        raise bad(
            f"{hints} hint lines: hints are not supported (their meaning is not documented "
            "with the instances)", first_line, "hints",
        )
    return hints


def _e2_pieces(lines: list[tuple[int, str]], bad: Callable[..., InputError]
               ) -> tuple[list[Tile], list[int]]:
    """One tile per piece line `N E S W` (colours whole numbers, 07 is 7), and its line."""
    tiles, tile_lines = [], []
    for number, line in lines:
        words = line.split()
        if len(words) != 4:
            raise bad(
                f"a piece has {plural(len(words), 'edge')}; expected 4 (north east south west)",
                number
            )
        for word in words:
            if word.startswith("-") and _WHOLE.match(word[1:]):
                raise bad(f"negative colour {word}: colours are whole numbers 0 or more", number)
            if not _WHOLE.match(word):
                raise bad(
                    f"colour {word!r} is not a whole number 0 or more (0 is the frame)", number
                )
        edges = tuple((w.lstrip("0") or "0", "") for w in words)  # 07 is colour 7
        tiles.append(Tile(edges, "", str(len(tiles) + 1)))  # type: ignore[arg-type]
        tile_lines.append(number)
    return tiles, tile_lines


def read_e2(path: str, text: str) -> EdgePuzzle:
    """Heule's format: H, H hint lines, then `N E S W` per piece; colour 0 is the frame.

    Colours are whole numbers 0 or more, written in any way (07 is 7); the format has no
    comments, no letters and no fractions.
    """
    lines = _e2_lines(text)

    def bad(message: str, line: int, field: str = "piece") -> InputError:
        return InputError(f"{E2_FORMAT}: {message}", file=path, line=line, field=field)

    if not lines:
        raise bad("the file is empty (expected the hint count on the first line)", 1, "hints")
    for number, line in lines:
        if "#" in line:
            raise bad("the format has no comments ('#')", number, "syntax")
    first_line = lines[0][0]
    hints = _e2_hints(lines, bad)
    too_many = check_tiles(len(lines) - 1 - hints, E2_FORMAT, "piece")
    if too_many is not None:
        raise bad(too_many.message.removeprefix(E2_FORMAT + ": "), lines[1 + hints + MAX_TILES][0])
    tiles, tile_lines = _e2_pieces(lines[1 + hints:], bad)
    if not tiles:
        raise bad("no pieces after the hint count", first_line)
    frame: Edge = ("0", "")
    sides = [sum(e == frame for e in t.edges) for t in tiles]
    size = board_size(sides.count(2), sides.count(1), len(tiles))
    if size is None:
        raise bad(
            f"{plural(len(tiles), 'piece')} with {plural(sides.count(2), 'corner')} and "
            f"{sides.count(1)} border pieces do not make a rectangular board", lines[-1][0],
        )
    puzzle = EdgePuzzle(
        name=Path(path).stem,
        rows=size[0],
        cols=size[1],
        tiles=tuple(tiles),
        rule="equal",
        frame=frame,
        title=f"{plural(len(tiles), 'piece')}, frame colour 0 (Eternity II benchmark format)",
        source=path,
        file_format=E2_FORMAT,
    )
    check_frame(puzzle, tile_lines, path, "piece", first_line)
    check_size(puzzle, path, first_line, "piece")
    return puzzle


def to_e2(puzzle: EdgePuzzle) -> str:
    """An equal-rule puzzle with integer colours and frame 0 in the benchmark format."""
    lines = ["0"] + [" ".join(e[0] for e in tile.edges) for tile in puzzle.tiles]
    return "\r\n".join(lines) + "\r\n"


read = read_edge_toml  # the reader models/files.py finds by convention
FOREIGN_FORMATS = (  # files read as they are, recognised by their content
    ForeignFormat(E2_FORMAT, sniff_e2, read_e2),
    ForeignFormat(ARTICLE_FORMAT, sniff_article, read_article),
)
