"""The booklet file: cards of one packing puzzle, each with pieces already placed, in TOML.

puzzle = "iq-block-10"       # a catalog name, or a puzzle file (a path from this file's folder)
title = "IQ Block: twelve cards"   # optional

[card.1]                     # a card, named "1"
note = "8 pieces to place"   # optional words about it
[card.1.placed]              # the pieces already on the board, as a challenge's [placed]
B2 = [[1, 0], [1, 1], [2, 0], [2, 1], [2, 2], [3, 0], [3, 1], [3, 2]]
B4 = [[6, 0], [6, 1], [6, 2], [6, 3], [7, 0], [7, 1], [7, 2], [7, 3]]

A card's pieces are read as a challenge's are (models/packing/reader.py): a piece of the puzzle
in an orientation it may take, on the board, no cell covered twice. A puzzle file with pieces
placed (a challenge) is read as a booklet of one card.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import files
from ..errors import InputError
from . import PackingPuzzle, Placed
from .reader import read_placed

FIELDS = {"puzzle", "title", "card"}
CARD_FIELDS = {"note", "placed"}


@dataclass(frozen=True)
class BookletCard:
    """A card of a booklet: its name, the pieces it places, words about it."""

    name: str
    placed: tuple[Placed, ...]
    note: str = ""


@dataclass(frozen=True)
class Booklet:
    """Cards of one packing puzzle (the puzzle itself places no piece)."""

    puzzle: PackingPuzzle
    cards: tuple[BookletCard, ...]
    title: str = ""
    path: str = ""

    def challenge(self, card: BookletCard) -> PackingPuzzle:
        """The puzzle a card poses: the booklet's puzzle with the card's pieces placed."""
        return dataclasses.replace(self.puzzle, name=f"{self.puzzle.name}-card-{card.name}",
                                   placed=card.placed)


def read_booklet(path: str) -> Booklet:
    """A booklet file, or a challenge (a puzzle file with pieces placed) as a booklet of one."""
    try:
        shown, text = files.file_text(path)
        doc = files.read_toml(shown, text)
    except InputError as error:  # the file is the booklet named, not a puzzle
        raise InputError(error.message, file=error.file, line=error.line,
                         field=None if error.field == "PUZZLE" else error.field) from None
    if "kind" in doc.data:
        puzzle = files.read_puzzle_text(shown, text)
        if not isinstance(puzzle, PackingPuzzle):
            raise doc.error("kind", f"a booklet holds cards of packing puzzles, not {puzzle.kind}")
        card = BookletCard(puzzle.name, puzzle.placed)
        return Booklet(dataclasses.replace(puzzle, placed=()), (card,), puzzle.title, shown)
    doc.reject_unknown("", FIELDS)
    name = doc.get("puzzle", str, required=True)
    beside = Path(shown).parent / name
    try:
        puzzle = files.load(name if name in files.catalog() or not beside.exists()
                            else str(beside))
    except InputError as error:
        raise doc.error("puzzle", str(error) if error.file else error.message) from None
    if not isinstance(puzzle, PackingPuzzle):
        raise doc.error("puzzle", f"a booklet holds cards of packing puzzles, not {puzzle.kind}")
    if puzzle.placed:
        raise doc.error("puzzle", f"{name} places pieces itself; a booklet's puzzle places "
                        "none (each card places its own)")
    cards = []
    table = doc.get("card", dict, {})
    if not table:
        raise doc.error("card", "no cards: a booklet has [card.NAME.placed] tables")
    for key in table:
        where = f"card.{key}"
        doc.get(where, dict)
        doc.reject_unknown(where, CARD_FIELDS)
        placed = read_placed(doc, puzzle, f"{where}.placed")
        cards.append(BookletCard(key, placed, doc.get(f"{where}.note", str, "")))
    return Booklet(puzzle, tuple(cards), doc.get("title", str, ""), shown)


def booklet_text(puzzle: str, cards: Sequence[BookletCard], piece_names: Sequence[str],
                 title: str = "", heading: Sequence[str] = ()) -> str:
    """A booklet file's text: `puzzle` as the file names it (a catalog name or a path), each
    card's pieces as a challenge places them; `heading` as comment lines at the top."""
    lines = [f"# {line}" for line in heading]
    lines.append(f"puzzle = {json.dumps(puzzle)}")
    if title:
        lines.append(f"title = {json.dumps(title)}")
    for card in cards:
        lines += ["", f"[card.{card.name}]"]
        if card.note:
            lines.append(f"note = {json.dumps(card.note)}")
        lines.append(f"[card.{card.name}.placed]")
        for p in card.placed:
            cells = ", ".join(f"[{', '.join(map(str, c))}]" for c in p.cells)
            lines.append(f"{piece_names[p.piece]} = [{cells}]")
    return "\n".join(lines) + "\n"
