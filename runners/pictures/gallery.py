"""Galleries: an index page and one SVG per solution (or per class, with its orbit size).

`write_gallery(puzzle, folder)` writes `folder/index.html` (more pages `page-2.html`... when
there are many pictures), headed by the count and what it counts, the piece or tile reference,
and one SVG file per picture. Large sets are capped with a note saying how many are not shown.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import registry
from ..models.words import plural  # noqa: F401 (galleries.plural: the drawings' captions)
from . import solutions as found
from .svg import Svg

PER_PAGE = 60
CAP = 600


@dataclass
class Figure:
    """One picture of the gallery: its file name, drawing and caption."""

    name: str
    svg: Svg
    caption: str


@dataclass
class Gallery:
    """What a gallery shows: a heading, the sentence stating the count, the pictures."""

    title: str
    statement: str
    reference: Svg | None
    figures: list[Figure]
    total: int  # how many pictures there would be without the cap
    notes: list[str] = field(default_factory=list)


def figures(members: list[found.Member], by_class: bool, word: str, cap: int,
             draw: Callable[[object, str], Svg]) -> list[Figure]:
    """One figure per member (at most `cap`): a class with its orbit, or a solution with both."""
    figures = []
    for i, member in enumerate(members[:cap], 1):
        if by_class:
            caption = f"class {member.klass}: orbit of {member.orbit}"
        else:
            caption = f"{word} {i}: class {member.klass} (orbit of {member.orbit})"
        name = f"{'class' if by_class else word}-{i:04d}.svg"
        figures.append(Figure(name, draw(member.grid, caption), caption))
    return figures


def build_gallery(puzzle, modulo: str = "none", cap: int = CAP) -> Gallery:
    """The gallery of any puzzle (its level already applied), drawn by its family's pictures
    module; the modulo is checked by the family (its words and their aliases, as `count`)."""
    modulo = registry.family_of(puzzle).check_modulo(puzzle, modulo)
    return registry.part(puzzle.kind, "pictures").gallery(puzzle, modulo, cap)


PAGE_STYLE = """
body{font-family:system-ui,Arial,sans-serif;margin:1.5em;color:#222;max-width:1200px}
h1{font-size:1.4em} p.count{font-size:1.1em;background:#f4f4f4;padding:.6em;border-radius:4px}
.figures{display:flex;flex-wrap:wrap;gap:14px} figure{margin:0;text-align:center}
figure img{border:1px solid #ddd;background:#fff;max-width:100%} figcaption{font-size:.85em}
nav a{margin-right:.6em} .note{color:#8a4b00}
"""


def _page_name(page: int) -> str:
    return "index.html" if page == 1 else f"page-{page}.html"


def write_gallery(gallery: Gallery, folder: Path, per_page: int = PER_PAGE) -> list[Path]:
    """Write the SVG files and the HTML pages; returns the pages written."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in list(folder.glob("*.svg")) + list(folder.glob("page-*.html")):
        stale.unlink()
    if gallery.reference is not None:
        (folder / "reference.svg").write_text(gallery.reference.to_string(), encoding="utf-8")
    for figure in gallery.figures:
        (folder / figure.name).write_text(figure.svg.to_string(), encoding="utf-8")
    pages = max(1, -(-len(gallery.figures) // per_page))
    notes = list(gallery.notes)
    if gallery.total > len(gallery.figures):
        notes.append(
            f"Showing the first {len(gallery.figures):,} of {gallery.total:,} pictures: "
            f"{gallery.total - len(gallery.figures):,} are not shown."
        )
    written = []
    for page in range(1, pages + 1):
        chunk = gallery.figures[(page - 1) * per_page : page * per_page]
        nav = ""
        if pages > 1:
            links = [
                f"<b>{p}</b>" if p == page else f'<a href="{_page_name(p)}">{p}</a>'
                for p in range(1, pages + 1)
            ]
            nav = f"<nav>Pages: {' '.join(links)}</nav>"
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(gallery.title)}</title><style>{PAGE_STYLE}</style></head><body>",
            f"<h1>{html.escape(gallery.title)}</h1>",
            f'<p class="count">{html.escape(gallery.statement)}</p>',
            *(f'<p class="note">{html.escape(note)}</p>' for note in notes),
        ]
        if gallery.reference is not None and page == 1:
            parts.append('<figure><img src="reference.svg" alt="the pieces"></figure>')
        parts.append(nav)
        parts.append('<div class="figures">')
        for figure in chunk:
            parts.append(
                f'<figure><img src="{figure.name}" alt="{html.escape(figure.caption)}">'
                f"<figcaption>{html.escape(figure.caption)}</figcaption></figure>"
            )
        parts += ["</div>", nav, "</body></html>"]
        path = folder / _page_name(page)
        path.write_text("\n".join(parts) + "\n", encoding="utf-8")
        written.append(path)
    return written
