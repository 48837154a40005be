"""Galleries: an index page and one SVG per solution (or per class, with its orbit size).

`write_gallery(puzzle, folder)` writes `folder/index.html` (more pages `page-2.html`... when
there are many pictures), headed by the count and what it counts, the piece or tile reference,
and one SVG file per picture. A gallery lists only the solutions it draws (the first `cap`, or
the first of the first `cap` classes); its count comes from that listing where it ended, else
from the fastest counter within COUNT_SECONDS, else it says how many it listed and how to count
them all.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import registry
from ..models.errors import InputError
from ..models.words import plural  # noqa: F401 (galleries.plural: the drawings' captions)
from . import solutions as found
from .svg import Svg

PER_PAGE = 60
CAP = 600
COUNT_SECONDS = 20.0  # a gallery's count where its listing did not reach every solution


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
    total: int  # how many pictures there would be without the cap (where known)
    notes: list[str] = field(default_factory=list)
    listing: found.Listing | None = None  # the solutions listed for it (None: no listing)


def figures(members: list[found.Member], by_class: bool, word: str, cap: int,
            draw: Callable[[object, str], Svg], only: int | None = None) -> list[Figure]:
    """One figure per member (at most `cap`; `only`: just the only-th): a class with its
    orbit, or a solution with both."""
    figures = []
    for i, member in enumerate(members[:cap], 1):
        if only is not None and i != only:
            continue
        if by_class:
            caption = f"class {member.klass}: orbit of {member.orbit}"
        else:
            caption = f"{word} {i}: class {member.klass} (orbit of {member.orbit})"
        name = f"{'class' if by_class else word}-{i:04d}.svg"
        figures.append(Figure(name, draw(member.grid, caption), caption))
    return figures


def shown(puzzle, modulo: str, cap: int, classify, say=None, only: int | None = None
          ) -> tuple[found.Listing, list[found.Member]]:
    """What a gallery shows: the first `cap` solutions, or modulo a symmetry group the first
    solution of each of the first `cap` classes; only: the first `only` (what `draw --solution
    K` needs). Listed within the time bound (found.first_solutions), never more."""
    by_class = modulo != "none"
    listed = found.first_solutions(puzzle, only or cap, classify, by_class, say=say)
    if only is None and listed.out_of_time and not listed.members:
        # a gallery of nothing, headed "there are more", is no picture: refused as draw is
        raise InputError(found.nothing_found(puzzle, listed), field="PUZZLE")
    return listed, (found.representatives(listed.members) if by_class else listed.members)


def bounded_count(puzzle, modulo: str, say=None):
    """A gallery's count where its listing did not reach every solution: the fastest counter
    within COUNT_SECONDS (modulo the gallery's group, so that its details hold both numbers);
    None where it did not finish."""
    from .. import api

    if say:
        say(f"{puzzle.name}: counting them{counted_within(', at most')} ...")
    count = api.count(puzzle, modulo=modulo, time_limit=COUNT_SECONDS, progress=False)
    if say:
        say(count.sentence() if count.complete else
            f"{puzzle.name}: not counted{counted_within()}")
    return count if count.complete else None


def counted_within(words: str = " in") -> str:
    """The count's time bound in words ('' where there is none)."""
    return "" if COUNT_SECONDS is None else f"{words} {COUNT_SECONDS:g} s"


def more_than(puzzle, listed: found.Listing, word: str) -> str:
    """A heading's words where the count is not known: how many were listed, how to count."""
    why = (f"listing stopped at its time bound of {found.LIST_SECONDS:g} CPU s"
           if listed.out_of_time else "a gallery lists only what it draws")
    return (f"The first {plural(len(listed.members), word)} {listed.backend} listed ({why}); "
            f"there are more, not counted{counted_within()} here: `puzzlesat count "
            f"{puzzle.name}` counts them all.")


def build_gallery(puzzle, modulo: str = "none", cap: int = CAP, say=None,
                  only: int | None = None) -> Gallery:
    """The gallery of any puzzle (its level already applied), drawn by its family's pictures
    module; the modulo is checked by the family (its words and their aliases, as `count`).
    only: the only-th picture alone, with no count (what `draw --solution K` draws)."""
    modulo = registry.family_of(puzzle).check_modulo(puzzle, modulo)
    return registry.part(puzzle.kind, "pictures").gallery(puzzle, modulo, cap, say=say,
                                                          only=only)


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
            f"Showing the first {len(gallery.figures):,} of {plural(gallery.total, 'picture')}: "
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
