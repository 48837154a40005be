"""The packing puzzle file: a board and pieces drawn as pictures, in TOML.

kind = "packing"
title = "IQ Block, eight pieces"      # optional
source = "where the shapes come from" # optional
flip = true                           # may pieces be turned over? (default true)
board = \"\"\"
XXXXXXXX
XXX..XXX                              # '.' is a hole: not part of the board
\"\"\"

Pictures are read exactly as drawn: every '.' counts and nothing is shifted. Rows may be
indented all alike, but a row indented differently is refused (draw the cells outside the board
as '.'), as are blanks inside a row and blank lines between rows. A row shorter than the others
ends early: its missing cells are holes, as if drawn with '.'.

[pieces]                              # name = picture, 'X' a cell of the piece
L = \"\"\"
X.
XX
\"\"\"
domino = { picture = "XX", count = 32 }  # identical copies: a covering is counted once,
                                         # however its copies are permuted

[published]                           # optional: figures others have published
solutions = 48
classes = 6
note = "what was published, and where"
"""

from __future__ import annotations

from pathlib import Path

from ..files import TomlDoc, picture_rows
from . import PackingPuzzle, Piece

FIELDS = {"kind", "name", "title", "source", "flip", "board", "pieces", "published"}
PUBLISHED = {"solutions": int, "classes": int, "mirror_classes": int, "note": str}


def read_packing(doc: TomlDoc) -> PackingPuzzle:
    doc.reject_unknown("", FIELDS)
    board = picture_rows(doc, "board", doc.get("board", str, required=True))
    pieces_table = doc.get("pieces", dict, required=True)
    if not pieces_table:
        raise doc.error("pieces", "no pieces")
    pieces = []
    for name in pieces_table:
        field = f"pieces.{name}"
        count = 1
        if isinstance(pieces_table[name], dict):
            doc.reject_unknown(field, {"picture", "count"})
            count = doc.get(f"{field}.count", int, 1)
            if count < 1:
                raise doc.error(f"{field}.count", f"must be 1 or more, not {count}")
            field = f"{field}.picture"
            text = doc.get(field, str, required=True)
        else:
            text = doc.get(field, str)
        pieces.append(Piece(name, picture_rows(doc, field, text), count))
    published = doc.published(PUBLISHED)
    puzzle = PackingPuzzle(
        name=doc.get("name", str, Path(doc.path).stem),
        board=board,
        pieces=tuple(pieces),
        flip=doc.get("flip", bool, True),
        title=doc.get("title", str, ""),
        source=doc.get("source", str, ""),
        published=published,
    )
    area = sum(len(p.cells) * p.count for p in puzzle.pieces)
    if area != len(puzzle.cells):
        raise doc.error(
            "pieces", f"the pieces cover {area} cells but the board has {len(puzzle.cells)}"
        )
    return puzzle


read = read_packing  # the reader models/files.py finds by convention
