"""`puzzlesat estimate`: Knuth's estimate of a packing board's search and solutions, for boards
too large to count at once (the catalog's open boards with --open); added by the packing
family's command line."""

from __future__ import annotations

import argparse
import json

from .. import output as report
from ..models.errors import InputError


def add_commands(subparsers) -> None:
    from . import seconds

    estimate = subparsers.add_parser(
        "estimate", help="packing: Knuth's estimate of a board's search nodes and solutions "
        "(with their standard errors) and of a count's CPU time; --open: every open board "
        "(those Polyform Puzzler lists with 'solutions incomplete')")
    estimate.add_argument("puzzles", metavar="PUZZLE", nargs="*",
                          help="catalog names or packing puzzle files")
    estimate.add_argument("--open", action="store_true",
                          help="every board of the catalog's open/ folder (`puzzlesat list "
                          "--open`)")
    estimate.add_argument("--seconds", type=seconds, default=2.0, metavar="S",
                          help="CPU seconds of random paths a board (default 2)")
    estimate.add_argument("--seed", type=int, default=1, help="the first paths' seed (default 1)")
    estimate.add_argument("--json", action="store_true", help="print JSON")
    report.add_record_arguments(estimate, "the estimates as open-boards-estimates.json and .md")
    estimate.set_defaults(run=run_estimate)


def run_estimate(args: argparse.Namespace) -> int:
    from ..benchmarks import estimates
    from ..models import files
    from .bench import needs_compiled

    needs_compiled("PUZZLE", ("bitboard",), "the estimate walks random paths of")
    names = list(args.puzzles) + (list(files.open_boards()) if args.open else [])
    if not names:
        raise InputError("no board to estimate: give PUZZLE names or --open", field="PUZZLE")
    for name in names:  # every board read (and refused in one line) before any work
        if files.load(name).kind != "packing":
            raise InputError("estimates are made for packing puzzles", file=name,
                             field="PUZZLE")
    folder = report.record_folder(args)
    stem = "open-boards-estimates" if args.open and not args.puzzles else "estimates"
    rows = estimates.run(names, args.seconds, args.seed, folder,
                         (lambda _: None) if args.json else report.say, stem)
    if args.json:
        print(json.dumps(rows))
    if folder is not None:
        report.write_results_index(folder)
        report.say(f"wrote {folder / (stem + '.json')} and {folder / (stem + '.md')}")
    return 0
