"""The committed pictures under results/: galleries, play pages, their screenshots, bench charts,
booklets of graded cards.

`generate_results(results)` (the command `puzzlesat results`) rebuilds them all from the
catalog (the solutions come from `puzzlesat.solutions`, the fastest lister by default; counts
and classes from them, or from a count: gallery.py); screenshots need the browser (see
browser.py) and charts need matplotlib, each skipped with a note when missing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from .. import api
from ..models.words import plural
from . import browser, charts, gallery, play

SCRAMBLE_DECKS = ("scramble-cowboys", "scramble-crazy-planes", "scramble-frog",
                  "scramble-insects", "scramble-wizards")


@dataclass(frozen=True)
class GallerySpec:
    """One committed gallery: puzzle, level (None: the puzzle has none), modulo, folder, and
    most pictures drawn (3D galleries hold hundreds of classes: a sample is committed)."""

    puzzle: str
    level: int | None
    modulo: str
    folder: str
    cap: int = gallery.CAP


GALLERIES = (
    GallerySpec("iq-block-8", None, "none", "iq-block-8"),
    GallerySpec("diamond-blocks", 2, "none", "diamond-blocks-level2"),
    GallerySpec("diamond-blocks-2001", 2, "none", "diamond-blocks-2001-level2"),
    *(GallerySpec(deck, None, "none", deck) for deck in SCRAMBLE_DECKS),
    GallerySpec("pentomino-3x20", None, "none", "pentomino-3x20"),
    GallerySpec("pentomino-8x8-centre-hole", None, "symmetry", "pentomino-8x8-centre-hole"),
    GallerySpec("mind-lock", None, "none", "mind-lock-hardest"),
    GallerySpec("rush-hour-51", None, "none", "rush-hour-51-hardest"),
    GallerySpec("klotski", None, "none", "klotski-hardest"),
    GallerySpec("soma", None, "symmetry", "soma", cap=48),
    GallerySpec("tetracubes-2x4x4", None, "symmetry", "tetracubes-2x4x4", cap=24),
    GallerySpec("solid-pentominoes-2x3x10", None, "symmetry", "solid-pentominoes-2x3x10"),
    GallerySpec("hexiamonds-4x9", None, "symmetry", "hexiamonds-4x9"),
    GallerySpec("tetrahexes-coin", None, "symmetry", "tetrahexes-coin"),
)

# play pages: puzzle, level, and how many hints the screenshot shows played
PAGES = (("diamond-blocks", 2, 6), ("scramble-frog", None, 0), ("iq-block-8", None, 3),
         ("mind-lock", None, 5), ("klotski", None, 5), ("rush-hour-51", None, 10),
         ("hexiamonds-4x9", None, 5), ("tetrahexes-4x7", None, 3), ("kanoodle-5x11", None, 4))


# 3D pages (puzzles in space): puzzle, and how many pieces the screenshot shows in the box
SOLID_PAGES = (("soma", 4), ("bedlam", 7), ("kanoodle-pyramid", 6))

# booklets of graded cards with one solution each (puzzlesat booklet): puzzle, cards
BOOKLETS = (("iq-block-10", 12),)  # 2D: a 3D booklet's play pages inline three.js, 2.2 MB each


def puzzles() -> set[str]:
    """The catalog puzzles whose galleries or pages are committed."""
    return ({spec.puzzle for spec in GALLERIES} | {name for name, _, _ in PAGES}
            | {name for name, _ in SOLID_PAGES} | {name for name, _ in BOOKLETS})


def load_at(name: str, level: int | None):
    """A catalog puzzle at one of its levels."""
    return api.load(name, level=level)


def generate_results(results: Path, say: Callable[[str], None] = print,
                     only: Collection[str] | None = None) -> list[Path]:
    """Write every gallery, play page, screenshot and chart (or only those of the puzzles named
    in `only`, charts left out); returns the files written."""
    written: list[Path] = []
    for spec in GALLERIES:
        if only is not None and spec.puzzle not in only:
            continue
        shown = gallery.build_gallery(load_at(spec.puzzle, spec.level), spec.modulo, spec.cap)
        pages = gallery.write_gallery(shown, results / "gallery" / spec.folder)
        written += pages
        say(f"gallery {spec.folder}: {shown.statement}")
    shots = []
    solid_pages = tuple((name, None, -pieces) for name, pieces in SOLID_PAGES)
    for name, level, hints in PAGES + solid_pages:
        if only is not None and name not in only:
            continue
        path = results / "play" / f"{name}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(play.play_page(api.load(name, level=level), level), encoding="utf-8")
        written.append(path)
        shots.append((path, path.with_suffix(".png"), hints))
        say(f"play page {path}")
    reason = browser.unavailable()
    if reason:
        say(f"no screenshots: {reason}")
    else:
        with browser.chromium() as context:
            page = context.new_page()
            for source, target, hints in shots:
                page.goto(source.resolve().as_uri())
                for _ in range(hints):
                    page.click("#hint")
                if hints < 0:  # a 3D page: the box with the first -hints pieces in
                    page.wait_for_selector("body[data-ready=true]")
                    page.click("#none")
                    for _ in range(-hints):
                        page.click("#next")
                page.screenshot(path=str(target), full_page=True)
                written.append(target)
    for name, cards in BOOKLETS:
        if only is not None and name not in only:
            continue
        from ..booklet import make_booklet  # the cards' search: loaded where booklets are made

        made = make_booklet(name, cards)
        written += [Path(p) for p in made.write(str(results / "booklets" / name), name)]
        say(f"booklet {name}: {plural(len(made.cards), 'card')}, grades {made.cards[0].nodes:,} to "
            f"{made.cards[-1].nodes:,} search nodes")
    if only is None:
        from ..workshop import screenshot

        why = screenshot.unavailable()
        if why:
            say(f"no screenshot of the workshop: {why}")
        else:
            screenshot.screenshot(results / "workshop.png")
            written.append(results / "workshop.png")
        for csv_name in ("bench.csv", "edge-bench.csv"):
            written += charts.write_chart(results, csv_name, say)
    return written
