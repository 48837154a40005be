"""`puzzlesat best`: the best partial board of an edge-matching puzzle, anytime; and the board
check of `puzzlesat verify PUZZLE --board FILE` (runners/best.py does the work); the flags of
`bench best` and `bench ladder`."""

from __future__ import annotations

import argparse
import json

from .. import output as report
from ..models.errors import InputError
from ..models.words import plural
from .choices import value

KIND = "edge-matching"  # the family whose values the flags show (choices.py)


def add_commands(subparsers) -> None:
    from . import positive, seconds

    best = subparsers.add_parser(
        "best", help="the best partial board of an edge-matching puzzle (most seams matched), "
        "anytime: each better board printed with the time and kept in a checkpoint")
    best.add_argument("puzzle", metavar="PUZZLE",
                      help="a catalog name (see 'puzzlesat list') or an edge-matching file")
    best.add_argument("--backend", default=None,
                      help=f"the search: {value(KIND, 'best_names')} (default "
                      f"{value(KIND, 'best_default')}; compared in "
                      "results/best-bench.md)")
    best.add_argument("--time-limit", type=seconds, metavar="S",
                      help="seconds to search (default: until the board is proved best, or "
                      "Ctrl-C)")
    best.add_argument("--jobs", type=positive, default=None,
                      help="processes (edgesearch: one search each, other seeds) or threads "
                      "(cpsat); default: the cores here")
    best.add_argument("--checkpoint", metavar="FILE",
                      help="keep the best board in FILE (written atomically at each better "
                      "board); run again with it to resume")
    best.add_argument("--seed", type=int, default=None, help="random seed (default 1)")
    best.add_argument("--draw", metavar="FILE",
                      help="draw the best board, broken seams marked: FILE.svg or FILE.png")
    best.add_argument("--play", metavar="FILE",
                      help="write a play page (HTML) that starts from the best board")
    best.add_argument("--json", action="store_true", help="print JSON")
    report.add_force_argument(best)
    best.set_defaults(run=run_best)


def add_best_bench(compare: argparse.ArgumentParser) -> None:
    """`bench best` (was `best-bench`): every best-board search under the same budget."""
    from . import positive, seconds

    puzzle = value(KIND, "best_bench_puzzle")
    compare.add_argument("puzzle", metavar="PUZZLE", nargs="?", default=puzzle,
                         help=f"(default {puzzle})")
    compare.add_argument("--backend", action="append", default=None,
                         help="a search to run; repeat for several (default: "
                         f"{', '.join(value(KIND, 'best_bench_searches'))}, those installed)")
    compare.add_argument("--time-limit", type=seconds, default=60.0, metavar="S",
                         help="seconds per run (default 60)")
    compare.add_argument("--jobs", type=positive, default=1, help="cores per run (default 1)")
    compare.add_argument("--repeat", type=positive, default=1,
                         help="runs per search, seeds 1, 2, ... (default 1)")
    compare.add_argument("--again", action="store_true",
                         help="run again the searches already recorded with these settings "
                         "(default: they are left out, so that a long comparison is made in "
                         "several calls; needs --record or --results)")
    report.add_record_arguments(compare, "each run as it ends (results/best-bench.md and "
                                ".json)")
    compare.set_defaults(run=run_best_bench)


def add_ladder(ladder: argparse.ArgumentParser) -> None:
    """`bench ladder` (was `ladder`): Brendan Owen's boards counted or solved, timed, beside the
    published figures (runners/README.md says why it is a benchmark)."""
    from . import positive, seconds

    counted, solved = value(KIND, "ladder_counted"), value(KIND, "ladder_solved")

    ladder.add_argument("boards", metavar="BOARD", nargs="*",
                        help=f"boards to count (default: {' '.join(counted)})")
    ladder.add_argument("--solve", metavar="BOARD", nargs="*", default=None,
                        help=f"boards to solve (default, with no BOARD: {' '.join(solved)})")
    ladder.add_argument("--solver", default="edgecount",
                        help="the backend solving them (default edgecount)")
    ladder.add_argument("--jobs", type=positive, default=None,
                        help="threads counting or solving (default: the cores here)")
    ladder.add_argument("--time-limit", type=seconds, metavar="S",
                        help="seconds per board (an incomplete count or solve says so)")
    ladder.add_argument("--checkpoint", metavar="FILE",
                        help="keep the count, or the solve (the cubes searched, their nodes, "
                        "the grid found: also FILE.board.json), of the one board named in "
                        "FILE (written as it goes); the same command again resumes from it")
    ladder.add_argument("--rowscan", action="store_true",
                        help="also count each board to the end with the plain C row scan, to "
                        "compare node counts with the community's (row-scan) figures")
    ladder.add_argument("--rowscan-pinned", action="store_true",
                        help="the C row scan with the first corner tile alone of its kind kept "
                        "on the top left corner (a quarter of the grids, the community's 7x7 "
                        "scan), split by the second cell's tile and run --jobs parts at a "
                        "time; with --checkpoint FILE its parts are kept in FILE.rowscan")
    report.add_record_arguments(ladder, "the table (results/eternity-ii-ladder.md and .json)")
    ladder.set_defaults(run=run_ladder)


def run_best_bench(args: argparse.Namespace) -> int:
    from .. import api
    from ..benchmarks import best as bench
    from ..best import optimiser
    from ..models.edge_matching.best import check_board

    if args.again and not (args.record or args.results):
        raise InputError("runs again the searches recorded: give --record or --results DIR",
                         field="--again")
    folder = report.record_folder(args)
    puzzle = api.load(args.puzzle)
    if puzzle.kind != "edge-matching":
        raise InputError(f"best boards are for edge-matching puzzles, not {puzzle.kind}",
                         field="PUZZLE")
    check_board(puzzle)
    searches = args.backend
    if searches is None:
        searches = []
        for name in bench.DEFAULT_SEARCHES:
            try:
                optimiser(name)
                searches.append(name)
            except InputError as error:
                report.say(f"best-bench: {name} left out: {error.message}")
    twice = next((name for k, name in enumerate(searches) if name in searches[:k]), None)
    if twice is not None:
        raise InputError(f"{twice} is named twice", field="--backend")
    for name in searches:
        optimiser(name)  # every search checked before anything runs
    todo, kept = bench.plan(args.puzzle, searches, args.time_limit, args.jobs, args.repeat,
                            bench.recorded(folder), args.again)
    for row in kept:
        report.say(f"best-bench: {row['backend']} seed {row['seed']} recorded {row['date'][:16]} "
                   f"(score {row['score'] if row['score'] is not None else '-'}): left out "
                   "(--again runs it anew)")
    report.say(f"best-bench: {plural(len(todo), 'run')} of "
               f"{args.time_limit:g} s on {plural(args.jobs, 'core')}, one after "
               f"another: about {bench.clock(len(todo) * args.time_limit)} of wall time"
               + (f" ({len(kept)} recorded before left out)" if kept else "")
               + (", each written as it ends" if folder is not None else ""))

    made: list[dict] = []

    def done(row: dict) -> None:  # each run recorded as it ends
        made.append(row)
        if folder is not None:
            bench.record([row], folder)

    interrupted = False
    try:
        bench.run(args.puzzle, todo, args.time_limit, args.jobs, done=done, folder=folder)
    except KeyboardInterrupt:
        interrupted = True
    rows = bench.merged(kept, made)  # every run of these settings, earlier calls' too
    print(bench.markdown(rows) if rows else "best-bench: no run ended")
    if folder is not None and made:
        report.say(f"wrote {folder / 'best-bench.md'} and best-bench.json")
        report.write_results_index(folder)
    return 130 if interrupted else 0


def run_ladder(args: argparse.Namespace) -> int:
    from ..benchmarks import ladder

    folder = report.record_folder(args)
    counted = args.boards or ([] if args.solve else list(ladder.COUNTED))
    solved = args.solve if args.solve is not None else ([] if args.boards
                                                         else list(ladder.SOLVED))
    ladder.check_boards(counted, solved, args.solver)  # every board checked before the work
    figures = ladder.ladder(counted, solved, args.jobs, args.time_limit, args.solver,
                            args.rowscan or args.rowscan_pinned, checkpoint=args.checkpoint,
                            pinned=args.rowscan_pinned)
    print(ladder.markdown(figures))
    if folder is not None:
        for path in ladder.record(figures, folder):
            report.say(f"wrote {path}")
        report.write_results_index(folder)
    return 0 if all(row["complete"] for row in figures["rows"]) else 1


def add_verify_flag(verify: argparse.ArgumentParser) -> None:
    verify.add_argument("--board", metavar="FILE", default=None,
                        help="edge-matching: check a board file (as 'best' writes): count its "
                        "matched seams again edge by edge and compare the score it claims")


def run_best(args: argparse.Namespace) -> int:
    from .. import api
    from ..best import best
    from ..pictures import svg as svgs
    from . import family_cli

    for path, what in ((args.draw, "--draw"), (args.play, "--play")):
        if path is not None:
            report.check_output(path, what, args.force)
    if args.draw is not None:
        svgs.check_path(args.draw, "--draw")
    puzzle = api.load(args.puzzle)
    if puzzle.kind == "edge-matching":
        family_cli(puzzle.kind).say_reader(puzzle)
    found = best(puzzle, args.backend, args.time_limit, args.jobs, args.checkpoint, args.seed,
                 say=report.say)
    if found.grid is not None and args.draw is not None:
        from ..pictures.best import best_drawing

        svgs.write(best_drawing(puzzle, found.grid, puzzle.title or puzzle.name), args.draw,
                   "--draw")
        report.say(f"wrote {args.draw}")
    if found.grid is not None and args.play is not None:
        from ..pictures.best import best_page

        report.write_text_atomic(args.play, best_page(puzzle, found.grid), "--play")
        report.say(f"wrote {args.play}")
    if found.grid is None:
        for path, what in ((args.draw, "--draw"), (args.play, "--play")):
            if path is not None:
                report.say(f"no board, so {path} ({what}) was not written")
    if args.json:
        print(json.dumps(found.to_json()))
    else:
        print(found.sentence())
        if found.checkpoint and found.grid is not None:
            print(f"{puzzle.name}: the best board is in {found.checkpoint}")
    if found.stopped == "interrupted":
        return 130
    return 0 if found.grid is not None else 1


def run_verify_board(puzzle, args: argparse.Namespace) -> int:
    from ..best import verify_board

    try:
        checked = verify_board(puzzle, args.board)
    except InputError as error:  # FILE is --board's
        raise InputError(error.message, file=error.file, line=error.line,
                         field="--board") from None
    print(json.dumps(checked.to_json()) if getattr(args, "json", False) else checked.sentence())
    return 0 if checked.agree else 1
