"""Mind Lock on the command line: its flags, how its answers are printed, `mind-lock table` and
`bench mind-lock`."""

from __future__ import annotations

import argparse

from .. import output as report
from ..models import files
from ..models.words import plural
from ..outcomes import Verification
from . import add_flag, positive, seconds
from . import moves as shared
from .choices import value
from .moves import count_lines, print_solution  # noqa: F401 (this family's printing)

KIND = "mind-lock"


def family():
    """The family itself, imported where a Mind Lock puzzle is at work (not where the parser
    declares its flags: their values come from choices.py)."""
    from ..families import mind_lock

    return mind_lock


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    shared.add_arguments(command, parser, value(KIND, "default_sample"),
                         value(KIND, "default_seed"))
    if command == "bench":
        add_flag(parser, "--from", dest="start", metavar="POSITION",
                 help=f"mind-lock: {value(KIND, 'notation_help')}, or 'hardest' (the first "
                      "position at God's number); bench --solve plans from it (default: hardest)")


own_flags = shared.own_flags


def load_options(args: argparse.Namespace) -> dict[str, object]:
    return {}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    found = {**shared.options(args, command), "encoding": getattr(args, "encoding", None)}
    if getattr(args, "command", None) == "bench" and command == "solve":
        found["start"] = getattr(args, "start", None) or family().HARDEST
    return found


def verify_lines(puzzle, found: Verification) -> list[str]:
    result = found.result
    sample = result["sample"]
    planners = [r["backend"] for r in result["runs"] if not r["backend"].startswith(family().TABLE)]
    hardest = (f"hardest distance {plural(result['hardest_distance'], 'move')} "
               f"({plural(result['hardest_positions'], 'position')})")
    if sample["size"] and planners:
        planned = (f"{hardest}; the table's distance equals the optimal plan length of "
                   f"{', '.join(planners)} on {plural(sample['hardest'], 'hardest position')} "
                   f"and {plural(sample['random'], 'random one')} (seed {sample['seed']})")
    else:
        planned = f"{hardest}; no plans checked against the table (--sample 0 or no planner)"
    lines = [
        f"{puzzle.name}: {result['positions']:,} {result['counted']}",
        planned,
        f"every position has exactly three moves, each undone by itself; example "
        f"{result['example']['code']}: {plural(result['example_moves'], 'move')} (published: "
        f"{puzzle.published.get('example_moves', '-')})",
    ]
    return lines + shared.published_lines(puzzle, result)


# ---------------------------------------------------------------- mind-lock table, bench mind-lock

def table_figures(found) -> dict:
    return family().report(found)


def table_heading(figures: dict) -> str:
    return (f"Mind Lock, God's algorithm: breadth-first search from the "
            f"{figures['solved_positions']} solved positions")


def bench_command(args: argparse.Namespace) -> int:
    """Time the table (build, size, query) and the planners; with --record write
    results/mind-lock-bench.json."""
    folder = report.record_folder(args)
    puzzle = files.load("mind-lock")
    from ..benchmarks import mind_lock as benchmark

    result = benchmark.run(puzzle, args.repeat, args.queries, args.backend, args.workers,
                          args.time_limit, say=report.say)
    if folder is not None:
        report.write_json_atomic(folder / "mind-lock-bench.json", result)
        report.write_results_index(folder)
    if args.json:
        print(report.json_line(result))
        return 0
    build, query = result["table_build_seconds"], result["query_seconds"]
    print(f"table build: median {build['median']:.3f} s of {args.repeat} (target 2 s); "
          f"{plural(result['table_bytes'], 'byte')} on disk (target 25 KB)")
    print(f"query by table: median {query['median'] * 1e3:.3f} ms over {query['queries']} random "
          f"positions (target 1 ms); hardest: {query['hardest_median'] * 1e3:.3f} ms")
    for backend, figures in result["planners"].items():
        length = (f"{plural(figures['length'], 'move')}" if figures["complete"]
                  else "incomplete: time limit")
        print(f"{backend:20} optimal plan of a hardest position ({length}): "
              f"median {figures['median_seconds']:.2f} s of {args.repeat} (target 10 s)")
    said = {True: "met", False: "NOT met", None: "not measured"}
    print("targets: " + ", ".join(f"{k} {said[v]}" for k, v in result["targets"].items()))
    if folder is not None:
        print(f"wrote {folder / 'mind-lock-bench.json'}")
    return 0


def extra_commands(subparsers) -> None:
    """`puzzlesat mind-lock table` (its benchmark is `bench mind-lock`)."""
    group = subparsers.add_parser("mind-lock", help="Mind Lock: build God's-algorithm table")
    commands = group.add_subparsers(dest="mind_lock_command", required=True,
                                    parser_class=type(group))
    shared.add_table_command(commands, KIND, "mind-lock",
                             "search all positions from the solved ones; print the distance "
                             "counts")


def add_bench(bench: argparse.ArgumentParser) -> None:
    """`bench mind-lock` (was `mind-lock bench`): the table and the planners timed."""
    bench.add_argument("--repeat", type=positive, default=3, help="runs per measure (default 3)")
    bench.add_argument("--queries", type=positive, default=2000,
                       help="random positions queried (default 2000)")
    bench.add_argument("--backend", action="append",
                       help="planner to time (repeat for several); default: "
                            + ", ".join(value(KIND, "planners")))
    bench.add_argument("--workers", type=positive, default=2, help="CP-SAT workers (default 2)")
    bench.add_argument("--time-limit", type=seconds, metavar="S",
                       help="seconds per plan (the whole deepening) before giving up")
    report.add_record_arguments(bench, "the figures (results/mind-lock-bench.json)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=bench_command)
