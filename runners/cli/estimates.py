"""`puzzlesat estimate`: Knuth's estimate of a packing board's search and solutions, for boards
too large to count at once (the catalog's open boards with --open); of an edge-matching board's
search as edgecount's count (or, --solve, its solve) runs it, and with --sample-cubes N from N of
that count's own cubes searched whole. Added by the packing family's command line."""

from __future__ import annotations

import argparse
import json

from .. import output as report
from ..models.errors import InputError


def add_commands(subparsers) -> None:
    from . import positive, seconds

    estimate = subparsers.add_parser(
        "estimate", help="packing: Knuth's estimate of a board's search nodes and solutions "
        "(with their standard errors) and of a count's CPU time; --open: every open board "
        "(those Polyform Puzzler lists with 'solutions incomplete'); edge matching: the nodes "
        "and CPU time of edgecount's count (or --solve), by Knuth's estimate and, with "
        "--sample-cubes N, from N of the count's cubes searched whole")
    estimate.add_argument("puzzles", metavar="PUZZLE", nargs="*",
                          help="catalog names or packing puzzle files")
    estimate.add_argument("--open", action="store_true",
                          help="every board of the catalog's open/ folder (`puzzlesat list "
                          "--open`)")
    estimate.add_argument("--seconds", type=seconds, default=2.0, metavar="S",
                          help="CPU seconds a board, its model's building included (at "
                          "least one batch of 100 random paths; default 2)")
    estimate.add_argument("--seed", type=int, default=1, help="the first paths' seed (default 1)")
    estimate.add_argument("--json", action="store_true", help="print JSON")
    estimate.add_argument("--sample-cubes", type=positive, default=None, metavar="N",
                          help="edge matching: N of the cubes edgecount's count (or --solve: "
                          "its solve) splits the board into, drawn at random (--seed), each "
                          "searched whole: total nodes = cubes x mean, with its standard error")
    estimate.add_argument("--solve", action="store_true",
                          help="edge matching: estimate the solve in cubes (`ladder --solve`), "
                          "in its cubes, instead of the count")
    estimate.add_argument("--jobs", type=positive, default=None,
                          help="edge matching: the count's jobs (its cubes depend on them) and "
                          "the threads searching the sampled cubes (default: the cores)")
    report.add_record_arguments(estimate, "the estimates as open-boards-estimates.json and .md")
    estimate.set_defaults(run=run_estimate)


def run_estimate(args: argparse.Namespace) -> int:
    from ..benchmarks import estimates
    from ..models import files
    from .bench import needs_compiled

    needs_compiled("PUZZLE", ("bitboard",), "the estimate walks random paths of")
    if args.open and args.puzzles:
        raise InputError("estimates every open board: give PUZZLE names or --open, not both",
                         field="--open")
    names = list(args.puzzles) + (list(files.open_boards()) if args.open else [])
    if not names:
        raise InputError("no board to estimate: give PUZZLE names or --open", field="PUZZLE")
    kinds = {name: files.load(name).kind for name in names}  # read (refused) before any work
    if any(kind == "edge-matching" for kind in kinds.values()):
        return _run_edge(args, names, kinds)
    for flag, value in (("--sample-cubes", args.sample_cubes), ("--solve", args.solve),
                        ("--jobs", args.jobs)):
        if value:
            raise InputError(f"is for edge-matching boards (edgecount's cubes); "
                             f"{names[0]} is a {kinds[names[0]]} puzzle", field=flag)
    for name in names:
        if kinds[name] != "packing":
            raise InputError("estimates are made for packing and edge-matching puzzles",
                             file=name, field="PUZZLE")
    folder = report.record_folder(args)
    stem = "open-boards-estimates" if args.open else "estimates"
    rows = estimates.run(names, args.seconds, args.seed, folder,
                         (lambda _: None) if args.json else report.say, stem)
    if args.json:
        print(json.dumps(rows))
    if folder is not None:
        report.write_results_index(folder)
        report.say(f"wrote {folder / (stem + '.json')} and {folder / (stem + '.md')}")
    return 0


def _run_edge(args: argparse.Namespace, names: list[str], kinds: dict[str, str]) -> int:
    """Edge-matching boards, one at a time (every name one); no --record (see runners/README)."""
    from ..benchmarks.edge_estimates import estimate_edge_board
    from ..executors import cores
    from ..models import files
    from .bench import needs_compiled

    if args.open:
        raise InputError("estimates the packing open boards: name edge-matching boards "
                         "without it", field="--open")
    for name in names:
        if kinds[name] != "edge-matching":
            raise InputError("estimate edge-matching boards apart from other puzzles", file=name,
                             field="PUZZLE")
    if getattr(args, "record", False) or getattr(args, "results", None):
        raise InputError("an edge-matching estimate is printed, not recorded",
                         field="--record")
    needs_compiled("PUZZLE", ("edgecount",), "the estimate searches cubes of")
    rows = [estimate_edge_board(files.load(name), args.seconds, args.seed, args.sample_cubes,
                                args.solve, args.jobs or cores(),
                                (lambda _: None) if args.json else report.say)
            for name in names]
    if args.json:
        print(json.dumps(rows))
    return 0
