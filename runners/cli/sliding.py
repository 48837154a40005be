"""Sliding-block puzzles on the command line: their flags, how answers are printed,
`puzzlesat sliding table` (God's algorithm) and `puzzlesat sliding bench`."""

from __future__ import annotations

import argparse

from .. import output as report
from ..families import sliding as family
from ..models.errors import InputError
from ..models.sliding import METRICS
from ..outcomes import Verification
from . import add_flag, positive
from . import moves as shared
from .moves import count_lines, print_solution  # noqa: F401 (this family's printing)

METRIC_HELP = ("sliding-block: the move metric, " + "; ".join(f"{k}: {v}" for k, v in
                                                              METRICS.items())
               + " (default: the puzzle's)")


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    shared.add_arguments(command, parser, family.DEFAULT_SAMPLE, family.DEFAULT_SEED)
    if command in ("solve", "count", "verify", "export", "solutions"):
        add_flag(parser, "--metric", choices=list(METRICS), help=METRIC_HELP)
    if command == "verify":
        add_flag(parser, "--within", type=int, metavar="K",
                 help=f"sliding-block: plan positions at most K moves from the goal (default "
                      f"{family.PLAN_DISTANCE}; the planners' models grow with K)")


def own_flags(args: argparse.Namespace) -> dict[str, object]:
    return {**shared.own_flags(args), "--metric": getattr(args, "metric", None),
            "--within": getattr(args, "within", None)}


def load_options(args: argparse.Namespace) -> dict[str, object]:
    return {"metric": getattr(args, "metric", None)}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    if getattr(args, "encoding", None) is not None:
        raise InputError("sliding-block CNF writes its 'exactly one' constraints one way",
                         field="--encoding")
    found = shared.options(args, command)
    if command == "verify":
        found["within"] = getattr(args, "within", None)
    return found


def verify_lines(puzzle, found: Verification) -> list[str]:
    r = found.result
    lines = [f"{puzzle.name}: {r['positions']:,} {r['counted']}; God's number "
             f"{r['gods_number']}",
             f"{puzzle.name}: the table's distance equals the optimal plan length of every "
             f"planner on {r['sample']['size']} positions within {r['sample']['within_moves']} "
             f"moves of the goal; the compiled moves equal the rules"]
    differs = [k for k, ok in r["published_agrees"].items() if not ok]
    if differs:
        lines.append(f"{puzzle.name}: differs from the published figure for: "
                     f"{', '.join(differs)} (published: {puzzle.published})")
    return lines


# ---------------------------------------------------------------- sliding table, bench

table_figures = family.report


def table_heading(figures: dict) -> str:
    return (f"{figures['puzzle']}: God's algorithm, '{figures['metric']}' metric "
            f"({figures['metric_means']}); goal: {figures['goal']}")


def bench_command(args: argparse.Namespace) -> int:
    from ..benchmarks import sliding as bench

    folder = report.record_folder(args)
    result = bench.run(args.puzzle or None, args.repeat, args.memory, args.scale,
                       say=report.say)
    out = None if folder is None else folder / "sliding-bench.json"
    if out is not None:
        report.write_json_atomic(out, result)
        report.write_results_index(folder)
    if args.json:
        print(report.json_line(result))
        return 0
    for line in bench.lines(result):
        print(line)
    if out is not None:
        print(f"wrote {out}")
    return 0


def extra_commands(subparsers) -> None:
    """`puzzlesat sliding table PUZZLE` and `puzzlesat sliding bench`."""
    group = subparsers.add_parser(
        "sliding", help="sliding-block puzzles: God's algorithm table, benchmark")
    commands = group.add_subparsers(dest="sliding_command", required=True,
                                    parser_class=type(group))
    table = shared.add_table_command(
        commands, family.KIND, None, "every reachable position's distance to the goal; God's "
                                     "number, the hardest positions, the distribution")
    table.add_argument("--metric", choices=list(METRICS), help=METRIC_HELP)
    bench = commands.add_parser(
        "bench", help="time the largest catalog search (states/s, peak memory) and Klotski "
                      "in every metric; write results/sliding-bench.json")
    bench.add_argument("puzzle", metavar="PUZZLE", nargs="?",
                       help="the puzzle to time (default: the largest in the catalog)")
    bench.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    bench.add_argument("--memory", type=shared.gibibytes, metavar="GIB", help=shared.MEMORY_HELP)
    bench.add_argument("--scale", action="store_true",
                       help="also the 10^8 search of runners/benchmarks/targets.toml (minutes, "
                            "about 3 GiB)")
    report.add_record_arguments(bench, "the figures (results/sliding-bench.json)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=bench_command)
