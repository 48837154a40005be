"""The commands `draw`, `gallery` and `play`: pictures of puzzles and pages to play them.

`add_commands(subparsers)` adds the three commands to the main parser; each sets `run`, the
handler the main program calls with the parsed arguments (returning the exit code). Bad input
raises InputError, which the main program reports in one line.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import api, registry
from .. import output as report
from ..lazy import lazy_module
from ..models.errors import InputError
from ..models.words import plural
from .choices import value

# the drawings load when a picture is made, not for every command's flags
galleries = lazy_module("puzzlesat.pictures.gallery")
found = lazy_module("puzzlesat.pictures.solutions")
pages = lazy_module("puzzlesat.pictures.play")
svgs = lazy_module("puzzlesat.pictures.svg")

PUZZLE_HELP = "a catalog name (see 'puzzlesat list') or the path of a puzzle file"


def add_commands(subparsers) -> None:
    """Add `draw`, `gallery` and `play` to the command line's subparsers."""
    from . import positive  # here: the command line's package imports this module first

    draw = subparsers.add_parser(
        "draw", help="draw a solution, all of them, or the pieces (SVG, or PNG)"
    )
    gallery = subparsers.add_parser(
        "gallery", help="write DIR/index.html and one SVG per solution or class, with the count"
    )
    play = subparsers.add_parser("play", help="write one self-contained HTML page to play offline")
    for command in (draw, gallery, play):
        command.add_argument("puzzle", metavar="PUZZLE", help=PUZZLE_HELP)
        command.add_argument("--level", type=positive, default=None,
                             help="the level's rules, for puzzles that have levels")
    for command in (draw, gallery):
        command.add_argument("--modulo", default="none",
                             help="none: every solution; symmetry: one per class under the "
                             "board's symmetries, with its orbit size (the words of `count`)")
    which = draw.add_mutually_exclusive_group()
    which.add_argument("--solution", type=positive, default=1, metavar="K",
                       help="draw the K-th solution (default 1)")
    which.add_argument("--all", action="store_true", help="draw every solution, one SVG each")
    which.add_argument("--pieces", action="store_true",
                       help="draw the pieces (packing) or the block reference (edge matching)")
    which.add_argument("--from", dest="start", metavar="POSITION",
                       help="Mind Lock: an optimal solution from "
                       + value("mind-lock", "notation_help"))
    draw.add_argument("-o", "--output", required=True, metavar="FILE",
                      help="FILE.svg, or FILE.png (needs cairosvg); with --all a folder")
    gallery.add_argument("--cap", type=positive, default=galleries.CAP,
                         help=f"most pictures drawn (default {galleries.CAP}); the gallery "
                         "lists only the solutions it draws")
    gallery.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder")
    play.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.html")
    for command in (draw, gallery, play):
        report.add_force_argument(command)
    draw.set_defaults(run=run_draw)
    gallery.set_defaults(run=run_gallery)
    play.set_defaults(run=run_play)
    results = subparsers.add_parser(
        "results", help="regenerate every committed picture and page under results/ (galleries, "
        "play pages, screenshots, charts) and its index")
    results.add_argument("--only", nargs="+", metavar="PUZZLE", default=None,
                         help="only the galleries and pages of these catalog puzzles")
    results.add_argument("--results", default="results", metavar="DIR",
                         help="the results folder (default results)")
    results.set_defaults(run=run_results)


def run_results(args) -> int:
    """`puzzlesat results`: every committed picture and page, and results/index.md."""
    from ..pictures import generate, viewer

    folder = report.check_folder(args.results)
    if args.only:
        known = generate.puzzles()
        unknown = [name for name in args.only if name not in known]
        if unknown:
            raise InputError(f"no committed pictures of {', '.join(unknown)} (those of: "
                             f"{', '.join(sorted(known))})", field="--only")
    wanted = generate.puzzles() if not args.only else set(args.only)
    if wanted & {name for name, _ in generate.SOLID_PAGES}:
        viewer.three_library()  # a 3D page cannot be written: said before minutes of drawing
    written = generate.generate_results(folder, report.say, args.only)
    report.write_results_index(folder)
    print(f"wrote {plural(len(written), 'file')} under {folder} and {folder / report.INDEX}")
    return 0


def load_puzzle(name: str, level: int | None):
    """The puzzle, at the level asked for (edge-matching puzzles with levels only)."""
    return api.load(name, level=level)


# draw --all draws at most this many pictures; past it, it refuses before writing any
ALL_MOST = 1000


def run_draw(args: argparse.Namespace) -> int:
    # where the picture goes is checked before any solution is searched for
    if args.all:
        report.check_folder(args.output, "-o", args.force)
    else:
        report.check_output(args.output, "-o", args.force)
        svgs.check_path(args.output, "-o")
    puzzle = load_puzzle(args.puzzle, args.level)
    drawn = registry.part(puzzle.kind, "pictures")  # the family's pictures module
    if args.pieces:
        svgs.write(drawn.pieces(puzzle), args.output, "-o")
        print(f"wrote the pieces of {puzzle.name} to {args.output}")
        return 0
    if args.start is not None:
        if not hasattr(drawn, "draw_from"):
            raise InputError(f"{puzzle.kind} puzzles draw no solution from a position",
                             field="--from")
        svg, title = drawn.draw_from(puzzle, args.start)
        svgs.write(svg, args.output, "-o")
        print(f"wrote {title} to {args.output}")
        return 0
    if args.all:
        return _draw_all(puzzle, args)
    shown = galleries.build_gallery(puzzle, args.modulo, args.solution, say=report.say,
                                    only=args.solution)
    if not shown.figures:
        why = _not_reached(puzzle, shown, args.solution)
        raise InputError(why, field="--solution" if shown.total else "PUZZLE")
    [figure] = shown.figures
    svgs.write(figure.svg, args.output, "-o")
    print(f"wrote {figure.caption} of {puzzle.name} to {args.output}")
    return 0


def _not_reached(puzzle, shown, k: int) -> str:
    """Why draw has no K-th picture (one line): there are fewer, or listing them stopped at its
    time bound (and what to do instead)."""
    listed = shown.listing
    if listed is not None and listed.out_of_time:
        if not listed.members:
            return found.nothing_found(puzzle, listed)
        return (f"{puzzle.name}: picture {k} not reached in {found.LIST_SECONDS:g} CPU s of "
                f"listing with {listed.backend} ({plural(len(listed.members), 'solution')} "
                f"listed): ask for an earlier one, or list them without a bound (`puzzlesat "
                "solutions "
                f"{puzzle.name} --limit {k}`)")
    if shown.total:
        return f"{puzzle.name}: there are only {shown.total:,} to draw"
    return f"{puzzle.name} has no solution to draw (try --pieces)"


def _draw_all(puzzle, args: argparse.Namespace) -> int:
    """draw --all: every picture, refused in one line (nothing written) past ALL_MOST."""
    beyond = galleries.build_gallery(puzzle, args.modulo, ALL_MOST + 1, say=report.say,
                                     only=ALL_MOST + 1)
    if beyond.listing is not None and beyond.listing.out_of_time:
        raise InputError(f"{puzzle.name}: not every picture listed in {found.LIST_SECONDS:g} CPU "
                         f"s ({len(beyond.listing.members):,} listed): --all draws only what it "
                         "can list (gallery draws the first ones with the count; --solution K "
                         "draws one)", field="--all")
    if beyond.figures:
        raise InputError(f"{puzzle.name} has more than {ALL_MOST:,} pictures to draw: --all "
                         f"draws at most {ALL_MOST:,} (gallery draws the first "
                         f"{galleries.CAP:,} with the count; --solution K draws one)",
                         field="--all")
    drawings = galleries.build_gallery(puzzle, args.modulo, ALL_MOST, say=report.say)
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    for figure in drawings.figures:
        svgs.write(figure.svg, str(folder / figure.name), "-o")
    print(f"wrote {plural(len(drawings.figures), 'picture')} of {puzzle.name} to {folder}/")
    return 0


def run_gallery(args: argparse.Namespace) -> int:
    report.check_folder(args.output, "-o", args.force)
    puzzle = load_puzzle(args.puzzle, args.level)
    shown = galleries.build_gallery(puzzle, args.modulo, args.cap, say=report.say)
    written = galleries.write_gallery(shown, Path(args.output))
    print(shown.statement)
    print(f"wrote {written[0]} ({plural(len(written), 'page')}, "
          f"{plural(len(shown.figures), 'picture')})")
    return 0


def run_play(args: argparse.Namespace) -> int:
    report.check_output(args.output, "-o", args.force)
    puzzle = api.load(args.puzzle, level=args.level)
    page = pages.play_page(puzzle, args.level, say=report.say)
    report.write_text_atomic(args.output, page, "-o")
    print(f"wrote {args.output}: open it in a browser, it needs no network")
    return 0
