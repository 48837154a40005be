"""The puzzlesat command line: list, backends, solve, count, verify, export and bench any puzzle;
read a count's checkpoint.

Commands parse their flags, call the Python API (runners/api.py) and print. Each family's own
flags and printing live in runners/cli/STEM.py, found from the one declaration of families
(`registry.FAMILIES`); nothing below this package
sees an argparse namespace.
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from types import ModuleType

from .. import api
from .. import output as report
from ..children import WorkerDied
from ..executors import EXECUTOR_NAMES
from ..models import files
from ..models.errors import InputError
from ..models.words import in_seconds, plural
from ..registry import DEFAULTS, FAMILIES, default_backend, family_of, module_name, part
from . import pictures

COMMANDS = ("solve", "count", "verify", "export", "bench", "solutions")

# The one translation of the library's words into the command line's: an InputError raised below
# the command line names the API's parameter (field="jobs"); the user at the terminal reads the
# flag that sets it (--jobs).
PARAMETER_FLAGS = {
    "backend": "--backend", "jobs": "--jobs", "executor": "--executor", "modulo": "--modulo",
    "time_limit": "--time-limit", "checkpoint": "--checkpoint", "encoding": "--encoding",
    "split_for": "--split-for", "split_after": "--split-after",
    "format": "--format", "output": "--output", "results": "--results", "path": "-o",
    "level": "--level", "start": "--from", "steps": "--steps", "sample": "--sample",
    "seed": "--seed", "repeat": "--repeat", "queries": "--queries", "workers": "--workers",
    "cnf_model": "--cnf-model", "cpsat_model": "--cpsat-model", "amo": "--no-amo",
    "label_tiles": "--label-tiles", "unreduced_time_limit": "--unreduced-time-limit",
    "interior_colours": "--interior-colours", "border_colours": "--border-colours",
    "contender": "--contender", "metric": "--metric", "memory": "--memory",
    "within": "--within", "cube": "--cube", "clearance": "--clearance",
    "sample_cubes": "--sample-cubes", "checks": "--checks", "cards": "--cards",
    "check_backends": "--check-backend", "clues": "--clues", "attempts": "--attempts",
    "revision": "--against", "limit": "--limit",
}

PATH_PARAMETERS = {"output", "results", "checkpoint", "path"}
# The commands `puzzlesat --help` lists, in this order (a family's own, e.g. `sliding`, before
# `bench`); every benchmark is a suite of `bench` (runners/cli/bench.py's SUITES), never a command
# of its own here (tests/test_commands.py).
TOP_LEVEL = ("list", "backends", "solve", "count", "solutions", "verify", "draw", "gallery",
             "play", "export", "cards", "booklet", "audit", "generate", "best", "estimate",
             "checkpoint", "campaign", "results", "calendar", "sliding", "mind-lock", "serve",
             "bench")
PUZZLE_HELP = "a catalog name (see 'puzzlesat list') or the path of a puzzle file"


def in_flags(error: InputError) -> InputError:
    """The error as the command line says it: the parameter it names given as its flag."""
    flag = PARAMETER_FLAGS.get(error.field or "")
    # a field of a puzzle file (a sliding puzzle's `start`) is no flag; a path given as a
    # parameter (output, results, checkpoint) is named as the file it is
    if flag is None or (error.file and error.field not in PATH_PARAMETERS):
        return error
    return InputError(error.message, file=error.file, line=error.line, field=flag)


def family_cli(kind: str) -> ModuleType:
    """The command-line module of a family (runners/cli/STEM.py)."""
    return part(kind, "cli")


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"puzzlesat: error: {message} (see '{self.prog} --help')\n")


def amount_of(unit: str) -> Callable[[str], float]:
    """A flag's reader of a finite positive number of `unit` (seconds, hours)."""
    def amount(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of {unit}: {text!r}") from None
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"must be a positive number of {unit}, not {text}")
        return value
    return amount


seconds = amount_of("seconds")  # a --time-limit value


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_flag(parser: argparse.ArgumentParser, flag: str, **options) -> None:
    """Add a flag unless another family already added it to this shared command."""
    if flag not in parser._option_string_actions:  # noqa: SLF001 (argparse has no public test)
        parser.add_argument(flag, **options)


def defaults_help(task: str) -> str:
    return "; ".join(f"{kind}: {name} ({why})" for (kind, t), (name, why) in DEFAULTS.items()
                     if t == task)


def version() -> str:
    """The installed distribution's version (the source's, where it runs uninstalled)."""
    from importlib import metadata

    try:
        return metadata.version("puzzlesat")
    except metadata.PackageNotFoundError:
        return "(not installed)"


class VersionAction(argparse.Action):
    """--version: the distribution's metadata is read only when asked (it costs start-up)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"puzzlesat {version()}")  # on standard output, as argparse's own action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="puzzlesat", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="show the installed version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser,
                                     metavar="COMMAND")
    puzzle_help = PUZZLE_HELP

    listing_of = commands.add_parser("list", help="show the built-in puzzles")
    listing_of.add_argument("--open", action="store_true",
                            help="the open boards: those Polyform Puzzler lists with 'solutions "
                            "incomplete' (estimated by `puzzlesat estimate --open`)")
    backends = commands.add_parser("backends", help="the backends usable for a puzzle")
    solve = commands.add_parser("solve", help="find one solution and draw it")
    count = commands.add_parser("count", help="count every solution, saying what is counted")
    listing = commands.add_parser("solutions", help="list solutions, one after another")
    verify = commands.add_parser(
        "verify", help="count with every backend and method; --record writes results/PUZZLE.json"
    )
    export = commands.add_parser("export", help="write the puzzle for external solvers")
    from .bench import add_suites

    suites = add_suites(commands.add_parser(
        "bench", help="every benchmark: bench SUITE (backends, packing, edge, ladder, ...; "
        "see 'puzzlesat bench --help'); --record appends the figures to results/",
        description="Every benchmark of puzzlesat, one suite each."))
    bench = suites["backends"]  # `bench backends PUZZLE...` has the shared flags below
    timing = commands.add_parser(
        "checkpoint", help="a count's checkpoint: the cubes it holds, their seconds, and how "
        "long N workers would take")
    timing.add_argument("file", metavar="FILE", help="a file written by count --checkpoint")
    timing.add_argument("--workers", type=positive, nargs="+", default=[1, 2, 4, 8, 20, 40],
                        metavar="N", help="worker counts to work out (default 1 2 4 8 20 40)")
    timing.add_argument("--json", action="store_true", help="print JSON")

    for command in (backends, solve, count, listing, verify, export):
        command.add_argument("puzzle", metavar="PUZZLE", help=puzzle_help)

    for command in (solve, count, listing, bench):
        task = "solve" if command is solve else "count"
        command.add_argument(
            "--backend",
            action="append" if command is bench else "store",
            help="cpsat, pysat:NAME (e.g. pysat:cadical195), reference, ... (see 'puzzlesat "
            f"backends PUZZLE'); default, measured fastest: {defaults_help(task)}"
            + ("; repeat for several" if command is bench else ""),
        )
    verify.add_argument(
        "--backend", action="append",
        help="a backend to count with (repeat for several; default: those the family checks "
        "with); with --sample-cubes, a mode of the search that draws the cubes (e.g. "
        "bitboard:fewest) counts them, and the others named count them again")
    for command in (solve, count, verify, bench):
        command.add_argument("--time-limit", type=seconds, metavar="S",
                             help="seconds before giving up (model building included)")
    for command in (count, verify, bench):
        command.add_argument("--jobs", type=positive, default=None,
                             help="worker processes (default: the cores here)")
        command.add_argument("--modulo", default=None,
                             help="none: every solution; symmetry: classes under the board's "
                             "symmetries")
        command.add_argument("--executor", default=None,
                             action="append" if command is bench else "store",
                             help=f"where cubes run: {EXECUTOR_NAMES} (default local; Dask "
                             "needs pip install 'puzzlesat[cluster]')"
                             + ("; repeat to compare executors" if command is bench else ""))
    count.add_argument("--checkpoint", metavar="FILE",
                       help="record each finished cube in FILE; run again with it to resume")
    count.add_argument("--split-for", type=positive, default=None, metavar="N",
                       help="split cubes while counting, for N workers: a cube running past its "
                       "share of the estimated time is split where its search is (default: "
                       "the jobs from 16 jobs on, else not split; 1: not split)")
    count.add_argument("--split-after", type=seconds, default=None, metavar="S",
                       help="stop a cube that runs longer than S seconds and count what "
                       "follows where its search was as parts (default: with --split-for N, "
                       "0.25 s until its pace is known (on Dask the estimated time over N x 4), "
                       "then its time at that pace over N x 4, at most the estimated time's)")
    solve.add_argument("--jobs", type=positive, default=None,
                       help="edge matching on edgecount: search the cubes a count searches on "
                       "N threads, stopping at the first grid")
    solve.add_argument("--checkpoint", metavar="FILE",
                       help="edge matching on edgecount: record each cube searched in FILE; run "
                       "again with it to resume")
    listing.add_argument("--limit", type=positive, default=10, help="how many (default 10)")
    count.add_argument("--limit", type=positive, default=None, metavar="N",
                       help="stop at the N-th solution: --limit 2 tells whether a puzzle (a "
                       "challenge) has exactly one solution")
    for command in (solve, count, listing, export, verify, bench):
        command.add_argument(
            "--encoding", default=None,
            help="how CNF encodes 'exactly one': pairwise, seqcounter, ladder, totalizer, ...",
        )
    for command in (solve, count, listing, backends):
        command.add_argument("--json", action="store_true", help="print JSON")
    for command in (solve, count):
        command.add_argument("-v", "--verbose", action="store_true",
                             help="also say why the default backend is the default, with the "
                             "figures it was chosen by (as `puzzlesat backends PUZZLE` does)")
    verify.add_argument(
        "--sample-cubes", type=positive, default=None, metavar="N",
        help="packing and edge-matching counts too large for every backend: count N random "
        "cubes of the compiled search (bitboard, edgecount) there and with xcover, CP-SAT (and "
        "the reference) instead; with --record writes results/PUZZLE-sample-cubes.json")
    report.add_record_arguments(verify, "the counts of every backend (results/PUZZLE.json)")
    export.add_argument("--format", default="dimacs", help="file format (default dimacs)")
    export.add_argument("-o", "--output", required=True, help="the file to write ('-': stdout)")
    report.add_force_argument(export)
    pictures.add_commands(commands)  # draw, gallery, play
    from .serve import add_command as add_serve

    add_serve(commands)  # the workshop
    by_name = {"solve": solve, "count": count, "verify": verify, "export": export,
               "bench": bench, "solutions": listing, "backends": backends}
    for kind in FAMILIES:
        try:
            module = family_cli(kind)
        except ModuleNotFoundError as error:  # a family whose command line is not installed
            if error.name != module_name(kind, "cli"):
                raise
            continue
        for name, command in by_name.items():
            module.add_arguments(name, command)
        if hasattr(module, "extra_commands"):
            module.extra_commands(commands)
    # --help lists the user's verbs in TOP_LEVEL's order, any other after them, `bench` last
    order = {name: at for at, name in enumerate(TOP_LEVEL)}
    commands._choices_actions.sort(  # noqa: SLF001 (argparse has no public order)
        key=lambda action: order.get(action.dest, order["bench"] - 0.5))
    return parser


def family_options(module: ModuleType, args: argparse.Namespace, command: str) -> dict:
    """The family's options for an API call, from its flags (None where not given)."""
    return {k: v for k, v in module.options(args, command).items() if v is not None}


def load(args: argparse.Namespace, name: str | None = None):
    """The puzzle named on the command line, with the family's load options (e.g. --level)."""
    puzzle = files.load(name or args.puzzle)
    module = family_cli(puzzle.kind)
    options = {k: v for k, v in module.load_options(args).items() if v is not None}
    for kind in FAMILIES:  # flags of other families given for this puzzle are refused
        if kind != puzzle.kind and importlib.util.find_spec(module_name(kind, "cli")):
            for flag, value in family_cli(kind).own_flags(args).items():
                if value is not None and flag not in module.own_flags(args):
                    raise InputError(f"does not apply to {puzzle.kind} puzzles", field=flag)
    return family_of(puzzle).at(puzzle, **options), module


def main(argv: list[str] | None = None) -> int:
    started = time.time()
    from .bench import renamed

    parser = build_parser()
    argv, notice = renamed(sys.argv[1:] if argv is None else list(argv))
    if notice:  # an old name: it works for one release, saying so in one line
        print(notice, file=sys.stderr)
    args = parser.parse_args(argv)
    args.started = started  # --time-limit counts from here (reading the puzzle file included)
    # SIGINT and SIGTERM stop a count the same way, even where the shell started us with
    # SIGINT ignored (a background job): the user who sends it means it
    previous = signal.signal(signal.SIGTERM, _terminate)
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    with warnings.catch_warnings():  # the library's warnings reach the user, one line each
        warnings.showwarning = show_warning
        return _run(args, previous, previous_int)


def command() -> None:
    """The `puzzlesat` program (and `python -m puzzlesat`): `main`, then out of the process at
    once. Python's own shutdown, which tears down every module (numba's and LLVM's among them),
    took about 0.3 CPU s of a 1.1 CPU s `puzzlesat count` of the 8x8 centre hole; the exit
    handlers still run and the output is flushed. Where a thread that is no daemon is still at
    work, Python's shutdown waits for it as always."""
    from .silence import watching

    with watching(" ".join(sys.argv[1:3]) or "puzzlesat"):
        code = main()
    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()  # noqa: SLF001 (what Python's shutdown calls first)
    try:
        for stream in (sys.stdout, sys.stderr):
            if not stream.closed:  # standard error is closed after a broken pipe (_run)
                stream.flush()
    except OSError:  # a pipe closed meanwhile: Python's shutdown deals with it as always
        sys.exit(code)
    os._exit(code)


def show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as the command line says it: one line on standard error."""
    text = " ".join(str(message).split())
    print(f"puzzlesat: warning: {text}", file=sys.stderr, flush=True)


def _run(args: argparse.Namespace, previous, previous_int) -> int:
    try:
        if hasattr(args, "run"):  # a family's own command
            return args.run(args)
        if args.command == "list":
            from .listing import print_catalog

            return print_catalog(args.open)
        if args.command == "checkpoint":
            return run_checkpoint(args)
        puzzle, module = load(args)
        return globals()[f"run_{args.command}"](puzzle, module, args)
    except InputError as error:
        print(f"puzzlesat: error: {in_flags(error)}", file=sys.stderr)
        return 2
    except WorkerDied as died:  # a solve's child process ended without its answer
        print(f"puzzlesat: error: {died}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("puzzlesat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_int)


def _terminate(signum, frame) -> None:
    """SIGTERM: stop like Ctrl-C, so a count reports what it found and no worker is left."""
    raise KeyboardInterrupt


def run_checkpoint(args: argparse.Namespace) -> int:
    """How long N workers would take a count, from the cube times its checkpoint records."""
    from ..checkpoint import purpose, timing

    try:
        found = timing(args.file)
    except InputError as error:  # FILE is this command's argument, not count's --checkpoint
        raise InputError(error.message, file=error.file, line=error.line) from None
    total = sum(found.seconds)
    workers = {n: found.makespan(n) for n in args.workers}
    if args.json:
        print(json.dumps({"key": found.key, "cubes": found.cubes, "timed": len(found.seconds),
                          "seconds": total, "longest": max(found.seconds, default=0.0),
                          "wall_seconds": workers, "split_cubes": found.split,
                          "parts": found.parts}))
        return 0
    key = found.key
    named = key.get("puzzle") or "a puzzle it does not name"
    print(f"{args.file}: {purpose(key)} of {named} (backend {key.get('backend') or 'not named'}): "
          f"{plural(found.cubes + found.split, 'cube')} recorded, {len(found.seconds):,} "
          f"{'of them' if not found.split else 'cubes or parts'} timed on their workers: "
          f"{in_seconds(total)} s in all, the longest "
          f"{in_seconds(max(found.seconds, default=0.0))} s")
    if found.split:
        print(f"  ({plural(found.split, 'cube')} split while counting, recorded by "
              f"{plural(found.parts, 'part')}; each part timed on its own: the split plan)")
    untimed = found.cubes + found.parts - len(found.seconds)
    if untimed:
        print(f"  ({untimed:,} cube{'s were' if untimed > 1 else ' was'} recorded before cube "
              "times were kept: the figures below leave them out)")
    print("  workers  wall seconds (the timed cubes handed out largest first to the worker "
          "free first)")
    for n, wall in workers.items():
        print(f"  {n:7,}  {in_seconds(wall):>12}")
    return 0


def run_backends(puzzle, module, args) -> int:
    names = {task: api.backends(puzzle, task) for task in ("solve", "count")}
    counters = api.counters(puzzle)  # the model counters: name, version and licence
    if args.json:
        print(json.dumps({**names, **({"counters": counters} if counters else {})}))
        return 0
    for task, found in names.items():
        print(f"{task}: {found[0]} (default), " + ", ".join(found[1:]))
    for name, credit in counters.items():
        print(f"{name}: counts without listing (count only): {credit}")
    for task in names:
        print(why_default(puzzle, task))
    return 0


def time_left(args: argparse.Namespace) -> float | None:
    """What is left of --time-limit, counted from the command's start (the puzzle file's
    reading included): the user's seconds are the command's."""
    if args.time_limit is None:
        return None
    return max(0.001, args.time_limit - (time.time() - args.started))


def why_default(puzzle, task: str) -> str:
    """Why a family's default backend for a task is the default, with its figures."""
    name, why = default_backend(puzzle.kind, task)
    return f"{puzzle.name}: {task} by {name}, the default: {why}"


def say_why(puzzle, task: str, args: argparse.Namespace) -> None:
    """--verbose, where the default backend ran: why it is the default (standard error)."""
    if args.verbose and args.backend is None:
        report.say(why_default(puzzle, task))


def run_solve(puzzle, module, args) -> int:
    options = family_options(module, args, "solve")
    solution = api.solve(puzzle, args.backend, time_left(args), say=report.say, jobs=args.jobs,
                         checkpoint=args.checkpoint, **options)
    say_why(puzzle, "solve", args)
    nodes = solution.details.get("nodes")
    if nodes is not None and not args.json:  # a search in cubes: what it spent
        report.say(f"{plural(nodes, 'node')} ({solution.details['nodes_this_call']:,} this run), "
                   f"{solution.details['cubes_searched']:,} of "
                   f"{plural(solution.details['cubes'], 'cube')} searched")
    return module.print_solution(puzzle, solution, args.json)


def show_solution(name: str, solution, as_json: bool, drawn: list[str] | None = None,
                  extra: dict | None = None, rules: str = "") -> int:
    """Print a Solution: as JSON, drawn (the family's drawing, or its own text), or why not."""
    within = f"{rules}; " if rules else ""
    if as_json:
        print(json.dumps({**solution.to_json(), **(extra or {})}))
    elif not solution.found:
        print(f"{name}: {solution.note} ({within}{solution.backend}, {solution.seconds:.2f} s)")
    elif drawn is None:
        print(str(solution))
    else:
        print("\n".join(drawn))
        print(f"{name}: solved by {solution.backend} in {solution.seconds:.2f} s"
              + (f" ({within}checked)" if rules else ""))
    return 0 if solution.found else 1


def run_solutions(puzzle, module, args) -> int:
    options = family_options(module, args, "solutions")
    shown = 0
    for solution in api.solutions(puzzle, args.backend, args.limit, **options):
        shown += 1
        if args.json:
            print(json.dumps(solution.to_json()))
        else:
            print(f"solution {shown}:")
            print(str(solution))
    report.say(f"{plural(shown, 'solution')} shown (--limit {args.limit})")
    return 0


def run_count(puzzle, module, args) -> int:
    options = family_options(module, args, "count")
    count = api.count(
        puzzle, args.backend, args.modulo, args.jobs, args.executor, time_left(args),
        args.checkpoint, progress=not args.json, say=report.say, limit=args.limit,
        split_for=args.split_for, split_after=args.split_after, **options,
    )
    say_why(puzzle, "count", args)
    if args.json:
        print(json.dumps(count.to_json()))
    else:
        print(count.sentence())
        if args.limit is not None:
            print(f"{puzzle.name}: {count.uniqueness()}")
        else:
            for line in module.count_lines(puzzle, count):
                print(line)
        busy_line = workers_busy_line(count)
        if busy_line:
            print(busy_line)
    if args.limit is not None:  # the answer asked for: stopping at the limit is no failure
        return 0
    return 0 if count.complete else 1


def workers_busy_line(count) -> str | None:
    """How busy a count's workers were, and what splitting its cubes cost, in a line (None
    where no worker ran)."""
    share = count.details.get("workers_busy")
    if share is None:
        return None
    line = f"{count.puzzle}: workers busy {share:.0%} of their time (searching cubes)"
    split = count.details.get("split")
    if split:
        line += (f"; {plural(split['cubes_split'], 'cube')} split into "
                 f"{plural(split['parts'], 'part')}, {split['wasted_seconds']:,.1f} s of work "
                 "thrown away by splits while running")
    return line


def run_verify(puzzle, module, args) -> int:
    if getattr(args, "board", None) is not None:  # a board file checked (edge matching)
        from .best import run_verify_board

        return run_verify_board(puzzle, args)
    folder = report.record_folder(args)
    options = family_options(module, args, "verify")
    if args.sample_cubes is not None:
        options["sample_cubes"] = args.sample_cubes
    found = api.verify(puzzle, args.backend, jobs=args.jobs, executor=args.executor,
                       time_limit=args.time_limit, say=report.say, **options)
    print(found.table)
    if found.result:  # what was checked, a claim that failed among it
        for line in module.verify_lines(puzzle, found):
            print(line)
    if not found.agree:
        print(f"{puzzle.name}: verification failed: {found.why}; nothing written")
        return 1
    if folder is not None:
        path = report.write_verified(folder, found.result["puzzle"], found.result)
        print(f"wrote {path}")
    return 0


def sampled_cubes_line(result: dict) -> str:
    """What verify --sample-cubes checked, in a line (every family that samples cubes)."""
    return (f"{result['puzzle']}: {len(result['cubes'])} random cubes, each counted alike by "
            f"{', '.join(result['backends'])} ({result['counted']})")


def run_export(puzzle, module, args) -> int:
    report.check_export(args.output, args.format, args.force)
    options = family_options(module, args, "export")
    text, summary = api.export(puzzle, args.format, **options)
    report.write_export(args.output, text, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
