"""Reading a Mind Lock puzzle file: its solved positions and published figures."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..files import TomlDoc
from . import MindLockPuzzle, parse_position

FIELDS = {"kind", "name", "title", "source", "solved", "published"}
PUBLISHED = {"positions": int, "example": str, "example_moves": int, "note": str}


def read_mind_lock(doc: TomlDoc) -> MindLockPuzzle:
    doc.reject_unknown("", FIELDS)
    written = doc.get("solved", list, required=True)
    if not written:
        raise doc.error("solved", "no solved positions")
    solved = []
    for text in written:
        if not isinstance(text, str):
            raise doc.error("solved", f"expected a position as a string, got {text!r}")
        try:
            solved.append(parse_position(text, "solved"))
        except InputError as error:
            raise doc.error("solved", error.message) from None
    if len(set(solved)) != len(solved):
        raise doc.error("solved", "a solved position is listed twice")
    published = doc.published(PUBLISHED)
    return MindLockPuzzle(
        name=doc.get("name", str, Path(doc.path).stem),
        solved=tuple(solved),
        title=doc.get("title", str, ""),
        source=doc.get("source", str, ""),
        published=published,
    )


read = read_mind_lock  # the reader models/files.py finds by convention
