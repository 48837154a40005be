"""`puzzlesat bench SUITE`: every benchmark of the house, one suite each (SUITES below); `bench
backends PUZZLE...` times backends on puzzles, prints medians and ratios, appends to bench.csv.

The one benchmark command: other benchmarks (the edge-matching set) call `time_runs` in
process rather than running the command line again. The names benchmarks had before (`ladder`,
`edge-bench`, `bench --anchor xcover`, ...) still work for one release, with a one-line notice
(RENAMED, `renamed`).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from .. import api
from .. import output as report
from ..models.errors import InputError
from ..models.words import plural
from ..pictures import charts
from ..registry import family_of

BENCH_FIELDS = [
    "date", "puzzle", "task", "backend", "executor", "jobs", "runs", "median_seconds",
    "min_seconds", "max_seconds", "complete", "result", "load", "cores", "python", "ortools",
    "python-sat",
]


# ---------------------------------------------------------------- the suites of `bench SUITE`


@dataclass(frozen=True)
class Suite:
    """One `puzzlesat bench NAME`: `add` (a function of the command-line module `module`,
    runners/cli/MODULE.py) adds the suite's flags to its parser and sets the function that runs
    it (`parser.set_defaults(run=...)`). Adding a benchmark is one entry in SUITES."""

    name: str
    module: str
    add: str
    help: str


SUITES = (
    Suite("backends", "bench", "add_backends", "time backends on puzzles (medians, ratios to "
          "the default); --record appends the figures to results/bench.csv"),
    Suite("packing", "bench", "add_packing", "packing: our counting path against dancing links "
          "(xcover, one thread) side by side; writes results/dlx-bench.*"),
    Suite("startup", "bench", "add_startup", "packing: where a whole `puzzlesat count` process "
          "spends its time, against xcover's and the C dancing-links program's; writes "
          "results/startup-profile.*"),
    Suite("dlx", "bench", "add_dlx", "packing: our whole count against a C dancing-links "
          "program built here (minutes); writes results/dlx-anchor.*"),
    Suite("search", "bench", "add_search", "packing: the bitboard search plain against memoised "
          "(or on threads, against a revision, profiled); writes results/bitboard-*.*"),
    Suite("edgecount", "bench", "add_edgecount", "edge matching: edgecount against a plain C "
          "row-scan counter built here; writes results/edgecount-bench.*"),
    Suite("edge", "edge_matching", "add_edge_bench", "edge matching: backends and encodings "
          "solving the clue puzzles, em_* boards and planted boards; writes "
          "results/edge-bench.*"),
    Suite("macmahon", "edge_matching", "add_macmahon_bench", "MacMahon's 24 colour triangles: "
          "every grid counted, timed beside xcover, classes by Burnside; --squares: the 24 "
          "squares; writes results/macmahon-24-*.*"),
    Suite("ladder", "best", "add_ladder", "Brendan Owen's boards (6x6 to 10x10) counted by "
          "edgecount with their nodes and seconds, or solved, beside the published figures "
          "(hours for the whole ladder); writes results/eternity-ii-ladder.*"),
    Suite("best", "best", "add_best_bench", "every best-board search on one puzzle under the "
          "same budget, side by side; writes results/best-bench.*"),
    Suite("cards", "makers", "add_bench", "packing: the cards search timed (IQ Block 10 by "
          "default); writes results/cards-bench.*"),
    Suite("counters", "bench", "add_counters", "every counting backend, model counters too, "
          "on a ladder of counts (dominoes, pieces once, edge matching); writes "
          "results/counters-bench.*"),
    Suite("any-number", "bench", "add_any_number", "packing: the catalog's tilings by pieces "
          "in any number against issue 43's targets; writes results/any-number-bench.md"),
    Suite("calendar", "bench", "add_calendar", "calendar puzzles: every date of a calendar "
          "(default A-Puzzle-A-Day), both rules, against the dates counted one by one; writes "
          "results/calendar-bench.*"),
    Suite("pictures", "bench", "add_pictures", "draw, play and gallery of every catalog puzzle, "
          "each a whole process, against the minute each may take (an hour or more); writes "
          "results/pictures-sweep.*"),
    Suite("pages", "bench", "add_pages", "every command of the README and the reference pages "
          "against the time its comment states (a minute where it states none); writes "
          "results/pages-bench.*"),
    Suite("first-run", "bench", "add_first_run", "a newcomer's first commands: puzzlesat "
          "installed into brand-new venvs, then list and the first counts timed (minutes); "
          "writes results/first-run.md"),
    Suite("split", "bench", "add_split", "packing: cubes split on demand: the split plan's "
          "timed parts handed to 16 and 64 workers, its total work against one worker's, 2 "
          "workers' wall, and apart the split plan on one worker and the plan unsplit on 2 "
          "(the 5x18, the 4x20; the 9x10 on 4 of its cubes drawn by their estimates); writes "
          "results/split.md"),
    Suite("workshop", "serve", "add_bench", "the workshop: a count from a click to the number "
          "(IQ Block 10 by default) against `puzzlesat count`'s wall; writes "
          "results/workshop-bench.md"),
    Suite("sliding", "sliding", "add_bench", "sliding blocks: the largest catalog search "
          "(states/s, peak memory) and Klotski in every metric; writes "
          "results/sliding-bench.json"),
    Suite("mind-lock", "mind_lock", "add_bench", "Mind Lock: the table (build, query) and the "
          "planners timed; writes results/mind-lock-bench.json"),
)

# Command lines renamed by issue 42, which still work for one release with a one-line notice:
# the old words at the start of a command line -> the new ones.
RENAMED: dict[tuple[str, ...], tuple[str, ...]] = {
    ("cards-bench",): ("bench", "cards"),
    ("best-bench",): ("bench", "best"),
    ("edge-bench",): ("bench", "edge"),
    ("macmahon-bench",): ("bench", "macmahon"),
    ("ladder",): ("bench", "ladder"),
    ("sliding", "bench"): ("bench", "sliding"),
    ("mind-lock", "bench"): ("bench", "mind-lock"),
}
# `bench --anchor NAME` (and --startup, --search) before the suites: the suite each is now
ANCHORS = {"xcover": "packing", "dlx": "dlx", "rowscan": "edgecount"}


def add_suites(bench: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The suites under `bench`, each with its flags; name -> parser (a suite whose module is
    not installed is left out)."""
    from . import Parser

    suites = bench.add_subparsers(dest="suite", required=True, metavar="SUITE",
                                  parser_class=Parser)
    parsers = {}
    for suite in SUITES:
        name = f"{__package__}.{suite.module}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:  # a family whose command line is not installed
            if error.name != name:
                raise
            continue
        parsers[suite.name] = suites.add_parser(suite.name, help=suite.help,
                                                description=suite.help)
        getattr(module, suite.add)(parsers[suite.name])
    return parsers


def renamed(argv: list[str]) -> tuple[list[str], str | None]:
    """A command line in today's names, and the notice to print where it used an old one."""
    for old, new in RENAMED.items():
        if tuple(argv[:len(old)]) == old:
            return [*new, *argv[len(old):]], _notice(old, new)
    if argv[:1] != ["bench"] or argv[1:2] in ([], ["-h"], ["--help"]) or argv[1] in {
            s.name for s in SUITES}:
        return argv, None
    rest, suite, taken = _old_bench_flags(argv[1:])
    return ["bench", suite, *rest], _notice(("bench", *(taken or ["PUZZLE..."])),
                                            ("bench", suite))


def _old_bench_flags(rest: list[str]) -> tuple[list[str], str, list[str]]:
    """`bench [--anchor NAME] [--startup] [--search] ...`: the flags left, the suite they name
    (`backends` where none) and the words taken away. Flags that name two suites are left for
    the first one's parser to refuse."""
    flags = {"--startup": "startup", "--search": "search"}
    suite, kept, taken = None, [], []
    at = 0
    while at < len(rest):
        word = rest[at]
        anchor = word.partition("=")[2] if word.startswith("--anchor=") else (
            rest[at + 1] if word == "--anchor" and at + 1 < len(rest) else None)
        if anchor in ANCHORS and (suite is None or (suite, anchor) == ("startup", "xcover")):
            suite = suite or ANCHORS[anchor]
            width = 1 if "=" in word else 2
        elif word in flags and (suite is None or (suite, word) == ("packing", "--startup")):
            suite = flags[word]
            width = 1
        else:
            kept.append(word)
            at += 1
            continue
        taken += rest[at:at + width]
        at += width
    return kept, suite or "backends", taken


def _notice(old: tuple[str, ...], new: tuple[str, ...]) -> str:
    return (f"puzzlesat: note: `{' '.join(old)}` is now `puzzlesat {' '.join(new)}`; the old "
            "name works for this release only")


def _puzzles(parser: argparse.ArgumentParser, default: str) -> None:
    from . import PUZZLE_HELP

    parser.add_argument("puzzles", metavar="PUZZLE", nargs="*",
                        help=f"{PUZZLE_HELP} (default {default})")


def _packing_flags(parser: argparse.ArgumentParser, default: str, what: str) -> None:
    """The flags of the packing suites: puzzles, --modulo, --repeat, --jobs, --record."""
    from . import positive

    _puzzles(parser, default)
    parser.add_argument("--modulo", default=None,
                        help="none: every solution; symmetry: classes under the board's "
                        "symmetries (default: the suite's own)")
    parser.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    parser.add_argument("--jobs", type=positive, default=None,
                        help="worker processes or threads (default 2)")
    report.add_record_arguments(parser, what)


def add_backends(parser: argparse.ArgumentParser) -> None:
    """`bench backends PUZZLE...` (was `bench PUZZLE...`); --backend, --time-limit, --jobs,
    --modulo, --executor and --encoding are added with the other commands' (cli.build_parser)."""
    from . import PUZZLE_HELP, positive

    parser.add_argument("puzzles", metavar="PUZZLE", nargs="+", help=PUZZLE_HELP)
    parser.add_argument("--repeat", type=positive, default=3,
                        help="runs per backend (default 3)")
    parser.add_argument("--solve", action="store_true", help="time solve instead of count")
    report.add_record_arguments(parser, "the figures (results/bench.csv and the chart)")
    parser.add_argument("--no-chart", action="store_true",
                        help="do not redraw results/bench-chart.png (needs matplotlib)")
    parser.set_defaults(run=bench)


def add_packing(parser: argparse.ArgumentParser) -> None:
    _packing_flags(parser, "IQ Block 10, pentominoes 6x10, 8x8 hole",
                   "the figures (results/dlx-bench.*)")
    parser.set_defaults(run=recording(bench_against_dancing_links, "bench packing",
                                      ("xcover", "bitboard")))


def add_startup(parser: argparse.ArgumentParser) -> None:
    _packing_flags(parser, "IQ Block 10 and the 8x8 hole, --modulo symmetry",
                   "the figures (results/startup-profile.*)")
    parser.set_defaults(run=recording(bench_startup, "bench startup", ("xcover", "bitboard")))


def add_dlx(parser: argparse.ArgumentParser) -> None:
    _packing_flags(parser, "the Tetris Cube and the Bedlam cube, --modulo symmetry",
                   "the figures (results/dlx-anchor.*)")
    parser.set_defaults(run=recording(bench_against_c_dancing_links, "bench dlx", ("bitboard",)))


def add_search(parser: argparse.ArgumentParser) -> None:
    from . import amount_of, positive

    _packing_flags(parser, "the suite's cases, --modulo symmetry",
                   "the figures (results/bitboard-*.*)")
    parser.add_argument("--against", default=None, metavar="REV",
                        help="today's bitboard search against itself at git revision REV of "
                        "this clone (nodes, nodes/s, CPU medians, ratios); with --record writes "
                        "results/bitboard-anchor.*")
    parser.add_argument("--sample", type=positive, default=None, metavar="CUBES", dest="cubes",
                        help="where the search's time goes on a count too long to repeat "
                        "whole: CUBES random cubes of each puzzle's plan, counted with the "
                        "dead-region check and the memo taken away in turn, and by fewest "
                        "fits; writes results/bitboard-profile.*")
    parser.add_argument("--choice", action="store_true",
                        help="with --sample CUBES: the figures FEWEST_FROM is chosen by: CUBES "
                        "cubes large enough for the default's choice, spread over their sizes, "
                        "each counted on the first empty cell and on the fewest fits (CPU s, "
                        "nodes, the estimated ratio), and the total at each threshold; writes "
                        "results/bitboard-choice.*")
    parser.add_argument("--race", type=amount_of("times the fewest-fits estimate"),
                        action="append", default=[], metavar="R",
                        help="with --choice, once or more: each sampled cube the default races "
                        "to the fewest fits counted again as the default counts it, with RACE "
                        "at R (--repeat times each, the median), and the total the default "
                        "takes at each R")
    parser.set_defaults(run=recording(bench_search, "bench search", ("bitboard",)))


def add_any_number(parser: argparse.ArgumentParser) -> None:
    from . import positive

    parser.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    parser.add_argument("--jobs", type=positive, default=None, help="threads (default 2)")
    report.add_record_arguments(parser, "the figures (results/any-number-bench.md)")
    parser.set_defaults(run=bench_any_number)


def bench_any_number(args: argparse.Namespace) -> int:
    """`bench any-number`: runners/benchmarks/any_number.py."""
    from ..benchmarks import any_number

    return any_number.bench_any_number(args)


def add_pictures(parser: argparse.ArgumentParser) -> None:
    from ..benchmarks.pictures import VERBS
    from . import seconds

    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE",
                        help="catalog names (default: the whole catalog)")
    parser.add_argument("--verbs", type=_verbs(VERBS), default=list(VERBS),
                        help=f"comma-separated, of {', '.join(VERBS)} (default all three)")
    parser.add_argument("--timeout", type=seconds, default=180.0,
                        help="seconds after which a command is killed and called failed "
                        "(default 180)")
    report.add_record_arguments(parser, "the sweep (results/pictures-sweep.*)")
    parser.set_defaults(run=bench_pictures)


def _verbs(known) -> Callable[[str], list[str]]:
    def verbs(text: str) -> list[str]:
        chosen = [v.strip() for v in text.split(",") if v.strip()]
        wrong = [v for v in chosen if v not in known]
        if wrong or not chosen:
            raise argparse.ArgumentTypeError(f"{', '.join(wrong) or 'nothing'}: give "
                                             f"{', '.join(known)}, comma-separated")
        return chosen
    return verbs


def bench_pictures(args: argparse.Namespace) -> int:
    """`bench pictures`: runners/benchmarks/pictures.py."""
    from ..benchmarks import pictures

    return pictures.bench_pictures(args)


def add_pages(parser: argparse.ArgumentParser) -> None:
    from . import seconds

    parser.add_argument("--slow", action="store_true",
                        help="also the commands whose comments say minutes or hours")
    parser.add_argument("--timeout", type=seconds, default=3600.0,
                        help="seconds after which a command is killed and called failed "
                        "(default 3600)")
    report.add_record_arguments(parser, "the figures (results/pages-bench.*)")
    parser.set_defaults(run=bench_pages)


def bench_pages(args: argparse.Namespace) -> int:
    """`bench pages`: runners/benchmarks/pages.py."""
    from ..benchmarks import pages

    return pages.bench_pages(args)


def add_first_run(parser: argparse.ArgumentParser) -> None:
    from . import positive

    parser.add_argument("--repeat", type=positive, default=3,
                        help="rounds, each a new venv (default 3)")
    report.add_record_arguments(parser, "the figures (results/first-run.md)")
    parser.set_defaults(run=bench_first_run)


def bench_first_run(args: argparse.Namespace) -> int:
    """`bench first-run`: runners/benchmarks/first_run.py."""
    from ..benchmarks import first_run

    return first_run.bench_first_run(args)


def add_split(parser: argparse.ArgumentParser) -> None:
    from ..benchmarks.split import BOARDS
    from . import positive

    parser.add_argument("boards", nargs="*", metavar="BOARD",
                        help=f"boards: {', '.join(BOARDS)} (default all; the 9x10, too long to "
                        "count whole here, is measured on cubes drawn by their estimates)")
    parser.add_argument("--workers", type=positive, nargs="+", default=[16, 64], metavar="N",
                        help="worker counts the split plan is judged for (default 16 64)")
    parser.add_argument("--repeat", type=positive, default=3,
                        help="runs of each board counted (default 3)")
    parser.add_argument("--split-after", default=None, metavar="S",
                        help="the split plan's budget: cubes that run past S seconds are split "
                        "(auto: one worker's measured work over the most workers x 4; default: "
                        "the count's own, its time at its pace over the most workers x 4, at "
                        "most its estimated time's)")
    parser.add_argument("--estimate", action="store_true",
                        help="boards with a committed checkpoint (the 4x20, the 9x10) worked out "
                        "from it instead of counted (an estimate, labelled so)")
    report.add_record_arguments(parser, "the figures (results/split.md)")
    parser.set_defaults(run=recording(bench_split))


def bench_split(args: argparse.Namespace) -> int:
    """`bench split`: runners/benchmarks/split.py."""
    from ..benchmarks import split

    names = args.boards or list(split.BOARDS)
    for name in names:
        if name not in split.BOARDS:
            raise InputError(f"no board {name!r} in bench split; use "
                             f"{', '.join(split.BOARDS)}", field="BOARD")
    after = args.split_after
    if after not in (None, "auto"):
        try:
            if not float(after) > 0:
                raise ValueError
        except ValueError:
            raise InputError(f"takes seconds above 0 or auto, not {after!r}",
                             field="--split-after") from None
    try:
        found = split.bench_split(names, args.workers, args.repeat, report.say, after,
                                  args.estimate)
    except split.Failed as failed:
        report.say(f"puzzlesat: bench split: {failed}")
        return 1
    if args.record_in is not None:
        found = split.merged(found, args.record_in)
    text = split.table(found, args.workers)
    print(text, end="")
    if args.record_in is not None:
        report.write_json_atomic(args.record_in / "split.json", found, "results")
        path = args.record_in / "split.md"
        report.write_text_atomic(path, text, "results")
        print(f"wrote {path} and split.json beside it")
    return 0


def add_calendar(parser: argparse.ArgumentParser) -> None:
    _packing_flags(parser, "a-puzzle-a-day", "the figures (results/calendar-bench.*)")
    parser.set_defaults(run=recording(bench_calendar))


def add_counters(parser: argparse.ArgumentParser) -> None:
    from . import positive

    _puzzles(parser, "every rung; a word picks the rungs whose label holds it")
    parser.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help="seconds a run may take (default 60)")
    parser.add_argument("--backend", action="append", default=None, metavar="NAME",
                        help="time only this backend (repeatable; default every counting "
                        "backend)")
    report.add_record_arguments(parser, "the figures (results/counters-bench.*)")
    parser.set_defaults(run=recording(bench_counters))


def bench_counters(args: argparse.Namespace) -> int:
    """Every counting backend on the ladder of counts (runners/benchmarks/counters.py); with
    --record, results/counters-bench.md and .json, rewritten as each rung ends. PUZZLE words
    pick the rungs whose label holds one, --backend the backends."""
    from ..benchmarks import counters

    figures = counters.run(args.repeat, args.record_in, args.time_limit,
                           only=tuple(args.puzzles), named=tuple(args.backend or ()))
    print(counters.markdown(figures))
    if args.record_in is not None:
        report.write_results_index(args.record_in)
    return 0


def add_edgecount(parser: argparse.ArgumentParser) -> None:
    from . import positive

    parser.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    parser.add_argument("--estimate", type=positive, default=None, metavar="PATHS",
                        help="also estimate each Eternity II clue puzzle's grids and search by "
                        "Knuth's estimator over PATHS random paths")
    report.add_record_arguments(parser, "the figures (results/edgecount-bench.*)")
    parser.set_defaults(run=recording(bench_against_rowscan))


@dataclass
class Timed:
    """One timed run: seconds, whether it finished, and what it found."""

    seconds: float
    complete: bool
    what: str
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM (not by its time limit)


class RunStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a timed run, carrying what the run had got."""

    def __init__(self, timed: Timed) -> None:
        super().__init__()
        self.timed = timed


# Seconds each run of a backend timed only for comparison may take (`bench PUZZLE` without
# --backend): CP-SAT, CaDiCaL and the reference count IQ Block 10 in seconds to hours (CaDiCaL
# enumerating every solution: about 40 minutes), so each is stopped here and shown as slower
# than this. --time-limit sets it; --backend times only the backends named, with no limit.
COMPARED_SECONDS = 60.0
COMPARED = ("cpsat", "pysat:cadical195", "reference")


def timed_run(puzzle, backend: str, executor: str | None, modulo: str, options: dict,
              args: argparse.Namespace, time_limit: float | None) -> Timed:
    """One solve or count through the API, timed as a whole."""
    start = time.perf_counter()
    if args.solve:
        found = api.solve(puzzle, backend, time_limit, **options)
        what = "solved" if found.found else found.note
        return Timed(time.perf_counter() - start, found.complete, what)
    count = api.count(puzzle, backend, modulo, args.jobs, executor, time_limit, **options)
    what = f"{count.number} {count.counted.split(' (')[0]}"
    if count.details.get("interrupted"):  # a lower bound, never timed as a whole count
        raise RunStopped(Timed(time.perf_counter() - start, False, f"at least {what}", True))
    return Timed(time.perf_counter() - start, count.complete, what)


def warm_up(puzzle, backend: str, executor: str, jobs: int | None) -> float:
    """Start a Dask cluster and its workers' imports before timing (one small count), so that
    the runs time the counting; returns the seconds it took (reported, never in a median)."""
    start = time.perf_counter()
    api.count("iq-block-8", "cpsat", "symmetry", jobs, executor)
    seconds = time.perf_counter() - start
    report.say(f"{executor}: started and warmed up in {seconds:.2f} s (not timed)")
    return seconds


def time_runs(run: Callable[[], Timed], repeat: int, runs: list[Timed] | None = None
              ) -> list[Timed]:
    """`repeat` runs, into `runs` as each ends; a run that did not finish (its time limit) ends
    the repeats, as the next would end alike. Ctrl-C or SIGTERM during a run is recorded as an
    incomplete run ('interrupted') before it is passed on."""
    runs = [] if runs is None else runs
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            runs.append(run())
        except RunStopped as stopped:
            runs.append(stopped.timed)
            raise
        except KeyboardInterrupt:
            runs.append(Timed(time.perf_counter() - start, False, "nothing", True))
            raise
        if not runs[-1].complete:
            break
    return runs


def chosen_backends(puzzle, task: str, args: argparse.Namespace) -> list[tuple[str, float | None]]:
    """The backends to time, each with its time limit: those named (--backend) with
    --time-limit, or the task's default with it and, for comparison, CP-SAT, CaDiCaL and the
    reference, each stopped at --time-limit or COMPARED_SECONDS."""
    if args.backend:
        return [(b, args.time_limit) for b in args.backend]
    first, usable = api.backends(puzzle, task)[0], api.backends(puzzle)
    compared = args.time_limit or COMPARED_SECONDS
    return [(first, args.time_limit)] + [(b, compared) for b in COMPARED
                                         if b in usable and b != first]


def bench(args: argparse.Namespace) -> int:
    """`bench backends`: time each backend on each puzzle, print medians and ratios, append
    rows to bench.csv."""
    from . import load

    args.record_in = report.record_folder(args)  # None: print only, record nothing
    loaded = [load(args, name) for name in args.puzzles]  # every name checked before timing
    task = "solve" if args.solve else "count"
    rows: list[dict] = []
    stopped = False
    try:
        for (puzzle, module), name in zip(loaded, args.puzzles):
            time_puzzle(name, puzzle, module, task, args, rows)
    except KeyboardInterrupt:
        stopped = True
    print_bench(rows)
    if stopped:
        report.say("bench: stopped (Ctrl-C or SIGTERM) before its end: the table shows what it "
                   "measured; nothing recorded")
        return 1
    if args.record_in is not None:
        record_bench(args.record_in, rows, chart=not args.no_chart)
    return 0


def time_puzzle(name: str, puzzle, module, task: str, args: argparse.Namespace,
                rows: list[dict]) -> None:
    """Time each chosen backend (and executor) on one puzzle; its rows go into `rows`, also
    when Ctrl-C or SIGTERM stops it."""
    from . import family_options

    options = family_options(module, args, task)
    backends = chosen_backends(puzzle, task, args)
    if not args.backend:
        first, *others = backends
        report.say(f"{name}: timing {first[0]} (the default) and, for comparison, "
                   f"{', '.join(b for b, _ in others)}, each run of those stopped at "
                   f"{others[0][1]:g} s (--time-limit S sets it; --backend NAME times "
                   "only the backends named)" if others else
                   f"{name}: timing {first[0]} (the default)")
    modulo = family_of(puzzle).check_modulo(puzzle, args.modulo or "none")
    measured: list[tuple[str, str | None, list[Timed]]] = []
    try:
        for (backend, limit), executor in [(b, e) for b in backends
                                           for e in args.executor or [None]]:
            run = partial(timed_run, puzzle, backend, executor, modulo, options, args, limit)
            if executor and executor.startswith("dask"):
                warm_up(puzzle, backend, executor, args.jobs)
            runs: list[Timed] = []
            measured.append((backend, executor, runs))
            time_runs(run, args.repeat, runs)
            report.say(f"{name} {backend} {executor or 'local'}: "
                       f"{', '.join(f'{r.seconds:.2f}' for r in runs)} s")
    finally:  # what was measured is shown, also when Ctrl-C or SIGTERM stopped it
        rows += bench_rows(name, task, modulo, measured, args)


def record_bench(folder: Path, rows: list[dict], chart: bool) -> None:
    """Append the rows to FOLDER/bench.csv, redraw its chart (unless asked not to), index."""
    append_csv(folder / "bench.csv", rows)
    report.say(f"appended {plural(len(rows), 'row')} to {folder / 'bench.csv'}")
    if chart:
        charts.write_chart(folder, "bench.csv", report.say)
    report.write_results_index(folder)


def recording(run: Callable[[argparse.Namespace], int], flag: str = "SUITE",
              compiled: tuple[str, ...] = ()) -> Callable[[argparse.Namespace], int]:
    """A suite's run: its folder to record in (args.record_in, checked first) and the compiled
    searches it times (installed, or a one-line error) before any timing."""
    def start(args: argparse.Namespace) -> int:
        args.record_in = report.record_folder(args)
        if compiled:
            needs_compiled(flag, compiled)
        return run(args)

    start.__doc__ = run.__doc__
    return start


def bench_rows(name: str, task: str, modulo: str,
               measured: list[tuple[str, str | None, list[Timed]]],
               args: argparse.Namespace) -> list[dict]:
    """The table's rows of one puzzle: each backend and executor's median (of its finished runs,
    or of all where none finished) and its ratio to the first one measured, in the same run."""
    rows = []
    anchor = None
    for backend, executor, runs in [m for m in measured if m[2]]:
        finished = [r.seconds for r in runs if r.complete]
        middle = statistics.median(finished or [r.seconds for r in runs])
        complete = len(finished) == len(runs)
        if not rows:
            anchor = middle if complete else None
        rows.append({
            "date": report.now(), "puzzle": name,
            "task": "solve" if task == "solve" else f"count --modulo {modulo}",
            "backend": backend, "executor": executor or "local",
            "jobs": args.jobs or "", "runs": len(runs),
            "median_seconds": f"{middle:.3f}",
            "min_seconds": f"{min(r.seconds for r in runs):.3f}",
            "max_seconds": f"{max(r.seconds for r in runs):.3f}",
            "complete": complete, "result": runs[-1].what,
            "load": report.load(), "cores": report.machine()["cores"],
            **{k: v for k, v in report.versions().items() if k in BENCH_FIELDS},
            "ratio": (middle / anchor) if anchor else None,
            "stopped": "interrupted" if runs[-1].interrupted else "time limit",
        })
    return rows


def print_bench(rows: list[dict]) -> None:
    print(f"{'puzzle':26} {'task':22} {'backend':18} {'executor':14} {'median s':>9} "
          f"{'ratio':>6}  result")
    for row in rows:
        ratio = row["ratio"]
        # a run stopped at its limit took longer than shown: its ratio is a lower bound
        shown = "-" if ratio is None else f"{ratio:.2f}" if row["complete"] else f">{ratio:.1f}"
        flag = "" if row["complete"] else f"  (incomplete: {row['stopped']})"
        print(f"{row['puzzle']:26} {row['task']:22} {row['backend']:18} {row['executor']:14} "
              f"{float(row['median_seconds']):9.3f} {shown:>6}  {row['result']}{flag}")
    report.say("ratio: median over the first backend and executor's median, in this run")


def needs_compiled(flag: str, names: tuple[str, ...], doing: str = "times") -> None:
    """Before any timing: the compiled searches a bench times are installed, or a one-line
    error saying what to install (run as Python, the bitboard search fails in numpy's types)."""
    from ..registry import backend

    for name in names:
        try:
            backend(name)
        except InputError as error:  # "... is not available here: pip install ...", named
            raise InputError(f"{doing} {name}: {error.message}", field=flag) from None


def packing_puzzles(args: argparse.Namespace, default: tuple[str, ...]) -> dict:
    """The puzzles a dancing-links bench times (those named, else `default`), name -> puzzle,
    each loaded and checked to be a packing puzzle before any timing."""
    from . import load

    puzzles = {}
    for name in tuple(args.puzzles) or default:
        puzzle, _ = load(args, name)
        if puzzle.kind != "packing":
            raise InputError(f"{name} is not a packing puzzle", field="PUZZLE")
        puzzles[name] = puzzle
    return puzzles


def bench_against_dancing_links(args: argparse.Namespace) -> int:
    """`bench packing` (was `bench --anchor xcover`): runners/benchmarks/packing.py, in this
    process."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.PUZZLES)
    modulos = (args.modulo,) if args.modulo else packing.MODULOS
    extra = packing.EXTRA if not args.puzzles else ()
    rows = packing.run(tuple(puzzles), modulos, extra, args.repeat, args.jobs or 2, args.record_in,
                       report.say)
    for row in rows:
        if row.ratio_to_anchor is not None:
            print(f"{row.puzzle:26} {row.modulo:9} {row.method:52} {row.median_seconds:8.2f} s "
                  f"ratio {row.ratio_to_anchor:.2f}")
    wrote(args.record_in, "dlx-bench.md")
    return 0


def refuse_copies(puzzles: dict, flag: str) -> None:
    """Before any timing: no puzzle with copies of a piece, which the dancing-links anchors
    (dlx.c, xcover's exact cover) do not count."""
    for name, puzzle in puzzles.items():
        if any(piece.count > 1 or piece.fewest != piece.count for piece in puzzle.pieces):
            raise InputError(f"{name} has pieces with copies: the dancing-links anchor counts "
                             "exact covers with each item once", field=flag)


def bench_startup(args: argparse.Namespace) -> int:
    """`bench startup` (was `bench --startup`): runners/benchmarks/packing.run_startup."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.STARTUP_PUZZLES)
    refuse_copies(puzzles, "PUZZLE")
    rows = packing.run_startup(tuple(puzzles), args.modulo or "symmetry", args.repeat,
                               args.jobs or 2, args.record_in, report.say)
    said = {True: "met", False: "NOT met"}
    for row in rows:
        share = row["share_of_staged_cpu"]
        ratio = ("" if row["ratio_to_anchor"] is None else
                 f"  ratio {row['ratio_to_anchor']:.2f} (CPU {row['cpu_ratio_to_anchor']:.2f}) "
                 f"to {row['against'].split(':')[0].split(',')[0]}, target "
                 f"{row['ratio_target']:g}: {said[row['ratio_target_met']]}")
        print(f"{row['puzzle']:26} {row['method'][:64]:64} {row['median_seconds']:7.3f} s "
              f"{row['median_cpu_seconds']:7.3f} s CPU"
              + ("" if share is None else f" {share:5.0%}") + ratio)
    wrote(args.record_in, "startup-profile.md")
    return 0


def bench_against_c_dancing_links(args: argparse.Namespace) -> int:
    """`bench dlx` (was `bench --anchor dlx`): runners/benchmarks/packing.run_dlx, in this
    process."""
    from ..benchmarks import packing

    puzzles = packing_puzzles(args, packing.DLX_PUZZLES)
    refuse_copies(puzzles, "PUZZLE")
    rows = packing.run_dlx(tuple(puzzles), args.modulo or "symmetry", args.repeat, args.jobs or 2,
                           args.record_in, report.say)
    said = {True: "met", False: "NOT met", None: "-"}
    for row in rows:
        ratio = ("" if row["ratio_to_anchor"] is None else
                 f"ratio {row['ratio_to_anchor']:.2f} (CPU {row['cpu_ratio_to_anchor']:.2f})")
        rate = row["nodes_per_cpu_second"] or 0
        print(f"{row['puzzle']:14} {row['modulo']:9} {row['method']:52} "
              f"{row['median_seconds']:8.2f} s {row['median_cpu_seconds']:8.2f} s CPU "
              f"{plural(row['nodes'], 'node'):>19} {plural(rate, 'node'):>17}/s {ratio}"
              + (f"  60 s: {said[row['seconds_target_met']]}, half the anchor's: "
                 f"{said[row['ratio_target_met']]}" if row["seconds_target_met"] is not None
                 else f"  no slower than the anchor: {said[row['ratio_target_met']]}"
                 if row["ratio_target_met"] is not None else ""))
    wrote(args.record_in, "dlx-anchor.md")
    return 0


def bench_search(args: argparse.Namespace) -> int:
    """`bench search` (was `bench --search`): runners/benchmarks/packing.run_search and its
    kin, in this process."""
    from ..benchmarks import packing

    cases = search_cases(args)
    if args.race and not args.choice:
        raise InputError("counts the sampled cubes of --choice again: add --choice",
                         field="--race")
    if args.choice:
        return _search_choice(args, cases)
    if args.jobs and args.jobs > 1:  # threads: the memo they share against each one's own
        if args.against:
            raise InputError("--against times one thread: leave out --jobs", field="--jobs")
        return _search_shared(args, cases)
    if args.cubes:
        return _search_profile(args, cases)
    if args.against:
        return _search_against(args, cases)
    rows = packing.run_search(cases, args.repeat, args.record_in, report.say)
    for row in rows:
        rate = ("" if row["nodes_per_second"] is None
                else f"{plural(row['nodes_per_second'], 'node'):>18}/s")
        print(f"{row['puzzle']:26} {row['modulo']:9} {row['method']:32} "
              f"{row['median_cpu_seconds']:8.2f} s CPU {plural(row['nodes'], 'node'):>18} {rate} "
              f"ratio {row['ratio_to_plain']:.2f}")
    wrote(args.record_in, "bitboard-search.md")
    return 0


def search_cases(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The (puzzle, modulo) cases `bench search` times: those named (each checked to be a
    packing puzzle), else the suite's own."""
    from ..benchmarks import packing
    from . import load

    if not args.puzzles:
        return packing.SEARCH_CASES
    modulo = args.modulo or "symmetry"
    for name in args.puzzles:
        puzzle, _ = load(args, name)
        if puzzle.kind != "packing":
            raise InputError(f"{name} is not a packing puzzle", field="bench search")
    return tuple((name, modulo) for name in args.puzzles)


def _search_choice(args: argparse.Namespace, cases) -> int:
    from ..benchmarks import packing

    if not args.cubes or args.against or (args.jobs and args.jobs > 1):
        raise InputError("--choice counts --sample CUBES cubes on one thread: give --sample, "
                         "without --against or --jobs", field="--choice")
    rows = packing.run_choice(cases, args.cubes, args.record_in, report.say,
                              tuple(dict.fromkeys(args.race)), args.repeat)
    for row in rows:
        print(f"{row['puzzle']:26} {row['modulo']:9} ratio {row['ratio']:>8} first cell "
              f"{row['first_cell_cpu_seconds']:8.2f} s fewest fits "
              f"{row['fewest_cpu_seconds']:8.2f} s CPU")
    for name, modulo in dict.fromkeys((r["puzzle"], r["modulo"]) for r in rows):
        totals = next(r for r in rows if (r["puzzle"], r["modulo"]) == (name, modulo))
        print(f"{name} {modulo}, weighted CPU s: {totals['weighted_totals']}")
    wrote(args.record_in, "bitboard-choice.md")
    return 0


def _search_shared(args: argparse.Namespace, cases) -> int:
    from ..benchmarks import packing

    rows = packing.run_shared(cases, args.jobs, args.repeat, args.cubes, 1, args.record_in,
                              report.say)
    for row in rows:
        print(f"{row['puzzle']:26} {row['modulo']:9} {row['memo']:31} "
              f"{row['median_wall_seconds']:8.2f} s wall {row['median_cpu_seconds']:8.2f} s "
              f"CPU {plural(row['median_nodes'], 'node'):>19} "
              f"{plural(row['median_memo_hits'], 'hit'):>16} ratio {row['cpu_ratio_to_own']:.2f}")
    wrote(args.record_in, "bitboard-shared.md")
    return 0


def _search_profile(args: argparse.Namespace, cases) -> int:
    from ..benchmarks import packing

    rows = [row for name, modulo in cases
            for row in packing.profile_search(name, modulo, args.cubes, 1, report.say)]
    if args.record_in is not None:
        packing.write_profile(rows, args.record_in)
    for row in rows:
        print(f"{row['puzzle']:26} {row['modulo']:9} {row['part']:24} "
              f"{row['cpu_seconds']:8.2f} s CPU {plural(row['nodes'], 'node'):>19} "
              f"{row['ns_per_node']:>6,} ns/node")
    wrote(args.record_in, "bitboard-profile.md")
    return 0


def _search_against(args: argparse.Namespace, cases) -> int:
    from ..benchmarks import packing

    rows = packing.run_against(args.against, cases if args.puzzles else packing.ANCHOR_CASES,
                               args.repeat, args.record_in, report.say)
    for row in rows:
        print(f"{row['puzzle']:26} {row['modulo']:9} {row['method']:36} "
              f"{row['median_cpu_seconds']:8.2f} s CPU {plural(row['nodes'], 'node'):>18} "
              f"{plural(row['nodes_per_second'], 'node'):>18}/s ratio {row['ratio_to_anchor']:.2f}")
    wrote(args.record_in, "bitboard-anchor.md")
    return 0


def bench_against_rowscan(args: argparse.Namespace) -> int:
    """`bench edgecount` (was `bench --anchor rowscan`): runners/benchmarks/edgecount.py, in
    this process."""
    from ..benchmarks import edgecount

    figures = edgecount.run(args.repeat, args.record_in, report.say)
    wrote(args.record_in, "edgecount-bench.md")
    if args.estimate:
        rate = min(r["edgecount_nodes_per_second"] for r in figures["rates"])
        edgecount.estimate_clues(args.estimate, args.record_in, rate, report.say)
        wrote(args.record_in, "eternity-ii-estimates.json")
    return 0


def bench_calendar(args: argparse.Namespace) -> int:
    """`bench calendar`: runners/benchmarks/calendar.py, in this process."""
    from ..benchmarks import calendar

    for line in calendar.bench(args.puzzles or ["a-puzzle-a-day"], args.repeat, args.jobs,
                               args.record_in, report.say):
        print(line)
    return 0


def wrote(folder: Path | None, name: str) -> None:
    """Say what a bench recorded (with --record), and rebuild the results index."""
    if folder is not None:
        report.write_results_index(folder)
        report.say(f"wrote {folder / name}")


def append_csv(path: Path, rows: list[dict], fields: list[str] = BENCH_FIELDS) -> None:
    """Append rows to a CSV file, atomically (the whole file is rewritten through a rename).

    Columns added since the file was started are appended to its header."""
    old_rows: list[dict] = []
    header = list(fields)
    if path.exists():
        try:
            reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
            old_rows = list(reader)
            header = list(reader.fieldnames or []) + [f for f in fields
                                                      if f not in (reader.fieldnames or [])]
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            raise InputError(f"cannot read: {error}", file=str(path), field="--results") from None
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(old_rows + rows)
    report.write_text_atomic(path, out.getvalue())
