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
from ..models import mind_lock as ml
from ..models.errors import InputError

# the drawings load when a picture is made, not for every command's flags
galleries = lazy_module("puzzlesat.pictures.gallery")
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
                       help=f"Mind Lock: an optimal solution from {ml.NOTATION_HELP}")
    draw.add_argument("-o", "--output", required=True, metavar="FILE",
                      help="FILE.svg, or FILE.png (needs cairosvg); with --all a folder")
    gallery.add_argument("--cap", type=positive, default=galleries.CAP,
                         help=f"most pictures written (default {galleries.CAP})")
    gallery.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder")
    play.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.html")
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
    print(f"wrote {len(written)} files under {folder} and {folder / report.INDEX}")
    return 0


def load_puzzle(name: str, level: int | None):
    """The puzzle, at the level asked for (edge-matching puzzles with levels only)."""
    return api.load(name, level=level)


def _drawings(puzzle, modulo: str, cap: int = 10**9) -> tuple[list[tuple[str, svgs.Svg]], int]:
    """The first `cap` pictures the gallery of the puzzle holds, as (file name, drawing), and
    how many it holds (only those asked for are drawn: a 3D puzzle has thousands)."""
    shown = galleries.build_gallery(puzzle, modulo, cap=cap)
    return [(figure.name, figure.svg) for figure in shown.figures], shown.total


def run_draw(args: argparse.Namespace) -> int:
    # where the picture goes is checked before any solution is searched for
    (report.check_folder if args.all else report.check_output)(args.output, "-o")
    puzzle = load_puzzle(args.puzzle, args.level)
    drawn = registry.part(puzzle.kind, "pictures")  # the family's pictures module
    if args.pieces:
        svgs.write(drawn.pieces(puzzle), args.output)
        print(f"wrote the pieces of {puzzle.name} to {args.output}")
        return 0
    if args.start is not None:
        if not hasattr(drawn, "draw_from"):
            raise InputError(f"{puzzle.kind} puzzles draw no solution from a position",
                             field="--from")
        svg, title = drawn.draw_from(puzzle, args.start)
        svgs.write(svg, args.output)
        print(f"wrote {title} to {args.output}")
        return 0
    drawings, total = _drawings(puzzle, args.modulo, 10**9 if args.all else args.solution)
    if args.all:
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for name, svg in drawings:
            svgs.write(svg, str(folder / name))
        print(f"wrote {len(drawings)} pictures of {puzzle.name} to {folder}/")
        return 0
    if not drawings:
        raise InputError(f"{puzzle.name} has no solution to draw (try --pieces)", field="PUZZLE")
    if args.solution > total:
        raise InputError(f"there are only {total} to draw", field="--solution")
    svgs.write(drawings[args.solution - 1][1], args.output)
    print(f"wrote picture {args.solution} of {total} of {puzzle.name} to {args.output}")
    return 0


def run_gallery(args: argparse.Namespace) -> int:
    report.check_folder(args.output, "-o")
    puzzle = load_puzzle(args.puzzle, args.level)
    shown = galleries.build_gallery(puzzle, args.modulo, args.cap)
    written = galleries.write_gallery(shown, Path(args.output))
    print(shown.statement)
    print(f"wrote {written[0]} ({len(written)} pages, {len(shown.figures)} pictures)")
    return 0


def run_play(args: argparse.Namespace) -> int:
    report.check_output(args.output, "-o")
    puzzle = api.load(args.puzzle, level=args.level)
    page = pages.play_page(puzzle, args.level)
    report.write_text_atomic(args.output, page, "-o")
    print(f"wrote {args.output}: open it in a browser, it needs no network")
    return 0
