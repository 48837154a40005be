"""Printed booklets: pages of challenge cards, then pages of their solutions (SVG, and one PDF
through cairosvg, the optional extra 'plots'), and a play page per card.

Each card is drawn as the packing pictures draw a board (runners/pictures/packing.py: its
placed pieces coloured, the cells left to fill white; in space the box's isometric view and
layers) and set on an A4 page with its number, its grade and the pieces to place.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..models.errors import InputError, PuzzlesatWarning
from ..models.geometry import Cell
from ..models.packing import PackingPuzzle
from . import packing as drawings
from . import play as plays
from .svg import Svg

PAGE = (794.0, 1123.0)  # A4 at 96 pixels an inch, in the SVG's user units
PDF_PAGE = (595.0, 842.0)  # A4 in PDF points
MARGIN = 48.0
GAP = 22.0
CAPTION = 34.0  # two lines under each card


@dataclass
class Panel:
    """One card (or its solution) on a page: the pieces on the board, two lines of words."""

    grid: dict[Cell, int]
    heading: str
    words: str


def pages(puzzle: PackingPuzzle, panels: Sequence[Panel], title: str) -> list[Svg]:
    """A4 pages of panels, as many to a page as fit (three across where the board is about
    square, two where it is wide), each page headed by the title."""
    drawn = [drawings.draw_grid(puzzle, panel.grid, "") for panel in panels]
    wide = max(svg.width / svg.height for svg in drawn) if drawn else 1.0
    across = 2 if wide > 1.4 else 3
    width = (PAGE[0] - 2 * MARGIN - (across - 1) * GAP) / across
    tall = max(svg.height / svg.width for svg in drawn) if drawn else 1.0
    room = PAGE[1] - 2 * MARGIN - 30 + GAP  # below the title, for rows of cards
    down = max(1, int(room // (width * tall + CAPTION + GAP)))
    if room / (down + 1) - CAPTION - GAP >= 0.8 * width * tall:  # a row more, a little smaller
        down += 1
    height = min(width * tall, room / down - CAPTION - GAP)
    width = height / tall
    found = []
    for first in range(0, len(panels), across * down):
        page = Svg(*PAGE, title)
        page.rect(0, 0, *PAGE, fill="#ffffff")
        page.text(MARGIN, MARGIN, title, size=16, anchor="start", font_weight="bold")
        for n, (panel, svg) in enumerate(zip(panels[first:first + across * down],
                                             drawn[first:first + across * down])):
            x = MARGIN + (n % across) * (width + GAP)
            y = MARGIN + 30 + (n // across) * (height + CAPTION + GAP)
            svg.root.set("x", f"{x:.1f}")
            svg.root.set("y", f"{y:.1f}")
            svg.root.set("width", f"{width:.1f}")
            svg.root.set("height", f"{height:.1f}")
            page.root.append(svg.root)
            page.text(x, y + height + 10, panel.heading, size=12, anchor="start",
                      font_weight="bold")
            size = min(10.0, 1.8 * width / max(1, len(panel.words)))  # one line, no overflow
            page.text(x, y + height + 25, panel.words, size=size, anchor="start",
                      fill="#444444")
        found.append(page)
    return found


def creation_date() -> str:
    """The PDF's creation date: from SOURCE_DATE_EPOCH where it is set (the reproducible-builds
    convention), else none (''), so that the same cards give the same bytes and a committed
    booklet is not rewritten only because time passed (cairo stamps the present otherwise)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return ""
    try:
        when = datetime.fromtimestamp(int(epoch), timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise InputError(f"must be a whole number of seconds since 1970, not {epoch!r}",
                         field="SOURCE_DATE_EPOCH") from None
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_pdf(pages: Sequence[Svg], path: str, title: str = "") -> None:
    """The pages as one PDF, an A4 page each, drawn as vectors by cairosvg; dated only by
    SOURCE_DATE_EPOCH (`creation_date`)."""
    created = creation_date()
    try:  # optional extra 'plots'; OSError: the cairo library is missing
        import cairocffi
        from cairosvg.parser import Tree
        from cairosvg.surface import Surface
    except (ImportError, OSError) as error:
        raise InputError("PDF output needs the optional package cairosvg (pip install "
                         "'puzzlesat[plots]')", field="output") from error

    class Recording(Surface):  # a page drawn once, replayed onto the PDF as vectors
        device_units_per_user_units = 1

        def _create_surface(self, width, height):
            return (cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA,
                                               (0, 0, width, height)), width, height)

    try:
        pdf = cairocffi.PDFSurface(path, *PDF_PAGE)
        pdf.set_metadata(cairocffi.PDF_METADATA_TITLE, title)
        pdf.set_metadata(cairocffi.PDF_METADATA_CREATOR, "puzzlesat booklet")
        pdf.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, created)  # '': no date written
        context = cairocffi.Context(pdf)
        scale = min(PDF_PAGE[0] / PAGE[0], PDF_PAGE[1] / PAGE[1])
        for page in pages:
            drawn = Recording(Tree(bytestring=page.to_string().encode()), None, 96)
            context.save()
            context.scale(scale, scale)
            context.set_source_surface(drawn.cairo, 0, 0)
            context.paint()
            context.restore()
            pdf.show_page()
        pdf.finish()
    except (OSError, cairocffi.CairoError) as error:
        raise InputError(f"cannot write: {error}", file=path, field="output") from None


def write_booklet(puzzle: PackingPuzzle, cards: Sequence, folder: str, booklet_text: str,
                  title: str) -> list[str]:
    """The booklet in a folder: booklet.toml (the cards, for `audit`), cards-N.svg and
    solutions-N.svg (A4 pages), booklet.pdf (the card pages, then the solution pages; where
    cairosvg is installed), card-NN.html (a play page per card). Returns the files written."""
    from ..cards import card_puzzle

    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot make the folder: {error.strerror}", file=folder,
                         field="output") from None
    written: list[str] = []

    def put(name: str, text: str) -> None:
        try:
            (out / name).write_text(text, encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot write: {error.strerror}", file=str(out / name),
                             field="output") from None
        written.append(str(out / name))

    put("booklet.toml", booklet_text)
    names = [p.name for p in puzzle.pieces]
    fronts = [Panel({cell: p.piece for p in card.placed for cell in p.cells},
                    f"Card {card.name} · difficulty {card.nodes:,}",
                    f"place {', '.join(_left(names, card))}") for card in cards]
    backs = [Panel(card.solution, f"Card {card.name}: solution",
                   f"{card.pieces_left} placed by the player") for card in cards]
    front_pages = pages(puzzle, fronts, f"{title}: cards")
    back_pages = pages(puzzle, backs, f"{title}: solutions")
    for stem, drawn in (("cards", front_pages), ("solutions", back_pages)):
        for n, page in enumerate(drawn, 1):
            put(f"{stem}-{n}.svg", page.to_string())
    try:
        write_pdf(front_pages + back_pages, str(out / "booklet.pdf"), title)
        written.append(str(out / "booklet.pdf"))
    except InputError as error:
        if error.field != "output" or error.file:
            raise
        warnings.warn(f"booklet.pdf not written: {error.message}; the SVG pages are",
                      PuzzlesatWarning, stacklevel=2)
    width = len(str(len(cards)))
    for card in cards:
        challenge = card_puzzle(puzzle, card.placed, f"{puzzle.name}-card-{card.name}")
        challenge = _titled(challenge, f"{title}: card {card.name}")
        try:
            page = plays.play_page(challenge)
        except InputError as error:  # a 3D page without three.js: the rest is written
            warnings.warn(f"play pages not written: {error.message}", PuzzlesatWarning,
                          stacklevel=2)
            break
        put(f"card-{card.name.zfill(width)}.html", page)
    return written


def _left(names: list[str], card) -> list[str]:
    held = {p.piece for p in card.placed}
    return [name for i, name in enumerate(names) if i not in held]


def _titled(puzzle: PackingPuzzle, title: str) -> PackingPuzzle:
    import dataclasses

    return dataclasses.replace(puzzle, title=title)
