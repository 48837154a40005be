"""Sliding-block puzzles on the command line: their flags, how answers are printed,
`puzzlesat sliding table` (God's algorithm) and `puzzlesat sliding bench`."""

from __future__ import annotations

import argparse
import sys

from .. import output as report
from ..families import sliding as family
from ..models.errors import InputError
from ..models.sliding import METRICS
from ..outcomes import Count, Solution, Verification
from . import add_flag, positive


def gibibytes(text: str) -> int:
    """A --memory value in GiB, as bytes."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of GiB: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of GiB, not {text}")
    return int(value * 2**30)


METRIC_HELP = ("sliding-block: the move metric, " + "; ".join(f"{k}: {v}" for k, v in
                                                              METRICS.items())
               + " (default: the puzzle's)")
MEMORY_HELP = ("sliding-block: GiB the breadth-first search may use; a search estimated to need "
               "more is refused before it starts (default: the memory available)")


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command in ("solve", "count", "verify", "export", "solutions"):
        add_flag(parser, "--metric", choices=list(METRICS), help=METRIC_HELP)
        add_flag(parser, "--memory", type=gibibytes, metavar="GIB", help=MEMORY_HELP)
    if command in ("solve", "export", "solutions"):
        add_flag(parser, "--from", dest="start", metavar="POSITION",
                 help="sliding-block: a position drawn row by row with '/' between rows, or "
                      "'hardest' (default: the puzzle's start)")
    if command == "export":
        add_flag(parser, "--steps", type=int, metavar="K",
                 help="sliding-block: the plan length bound k of the exported CNF")
    if command == "verify":
        add_flag(parser, "--sample", type=int, metavar="N",
                 help=f"positions to plan with every planner (default "
                      f"{family.DEFAULT_SAMPLE})")
        add_flag(parser, "--seed", type=int, metavar="S",
                 help=f"seed of the random positions (default {family.DEFAULT_SEED})")
        add_flag(parser, "--within", type=int, metavar="K",
                 help=f"sliding-block: plan positions at most K moves from the goal (default "
                      f"{family.PLAN_DISTANCE}; the planners' models grow with K)")


def own_flags(args: argparse.Namespace) -> dict[str, object]:
    return {"--from": getattr(args, "start", None), "--steps": getattr(args, "steps", None),
            "--sample": getattr(args, "sample", None), "--seed": getattr(args, "seed", None),
            "--metric": getattr(args, "metric", None), "--memory": getattr(args, "memory", None),
            "--within": getattr(args, "within", None)}


def load_options(args: argparse.Namespace) -> dict[str, object]:
    return {"metric": getattr(args, "metric", None)}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    if getattr(args, "encoding", None) is not None:
        raise InputError("sliding-block CNF writes its 'exactly one' constraints one way",
                         field="--encoding")
    found: dict[str, object] = {"memory": getattr(args, "memory", None)}
    if command in ("solve", "export", "solutions"):
        found["start"] = getattr(args, "start", None)
    if command == "export":
        found["steps"] = getattr(args, "steps", None)
    if command == "verify":
        found["sample"] = getattr(args, "sample", None)
        found["seed"] = getattr(args, "seed", None)
        found["within"] = getattr(args, "within", None)
    return found


def print_solution(puzzle, solution: Solution, as_json: bool) -> int:
    from . import show_solution

    return show_solution(puzzle.name, solution, as_json)


def count_lines(puzzle, count: Count) -> list[str]:
    if not count.complete:
        return []
    d = count.details
    lines = [f"{puzzle.name}: God's number {d['gods_number']} moves ({d['metric']} metric), "
             f"{d['hardest_positions']:,} positions at that distance"]
    if d.get("start_moves") is not None:
        lines.append(f"{puzzle.name}: the start needs {d['start_moves']} moves")
    return lines


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


def table_lines(figures: dict) -> list[str]:
    lines = [
        f"{figures['puzzle']}: God's algorithm, '{figures['metric']}' metric "
        f"({figures['metric_means']}); goal: {figures['goal']}",
        f"positions reached: {figures['positions']:,} ({figures['counted']})",
        f"God's number: {figures['gods_number']} moves ({figures['gods_number_means']}), "
        f"{figures['hardest_positions']:,} position{'s' * (figures['hardest_positions'] != 1)} "
        f"at that distance, e.g. "
        f"{figures['hardest'][0]}",
    ]
    if figures["start_moves"] is not None:
        lines.append(f"the start {figures['start']} needs {figures['start_moves']} moves")
    lines += ["positions at each distance:", "distance  positions",
              *(f"{d:>8}  {n:>9,}" for d, n in figures["distance_counts"].items())]
    lines.append(f"table: {figures['table_bytes']:,} bytes (sorted codes and 2 bits a position)"
                 f"; searched in {figures['search_seconds']:.2f} s"
                 + (f" (memory estimated before it started: "
                    f"{figures['memory_estimate_bytes'] / 2**20:,.0f} MiB)"
                    if figures["memory_estimate_bytes"] else " (read from the cache)")
                 + ("" if figures["compiled"] else " (numba not installed: not compiled)"))
    differs = [k for k, ok in figures["published_agrees"].items() if not ok]
    if differs:
        lines.append(f"differs from the published figure for: {', '.join(differs)} "
                     f"(published: {figures['published']})")
    elif figures["published_agrees"]:
        lines.append("agrees with the published figures: "
                     + ", ".join(figures["published_agrees"]))
    return lines


def _puzzle(args: argparse.Namespace):
    from . import load

    puzzle, _ = load(args)
    if puzzle.kind != family.KIND:
        raise InputError(f"a {puzzle.kind} puzzle, not a sliding-block one", field="PUZZLE")
    return puzzle


def table_command(args: argparse.Namespace) -> int:
    puzzle = _puzzle(args)
    found = family.table_of(puzzle, args.memory, progress=sys.stderr.isatty())
    for note in found.notes:  # a warning (the cache not written) is shown by the command line
        report.say(note)
    figures = family.report(found)
    if args.json:
        print(report.json_line(figures))
    else:
        print("\n".join(table_lines(figures)))
    return 0


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
    table = commands.add_parser(
        "table", help="every reachable position's distance to the goal; God's number, the "
                      "hardest positions, the distribution")
    table.add_argument("puzzle", metavar="PUZZLE", help="a catalog name or a puzzle file")
    table.add_argument("--metric", choices=list(METRICS), help=METRIC_HELP)
    table.add_argument("--memory", type=gibibytes, metavar="GIB", help=MEMORY_HELP)
    table.add_argument("--json", action="store_true", help="print one JSON object")
    table.set_defaults(run=table_command)
    bench = commands.add_parser(
        "bench", help="time the largest catalog search (states/s, peak memory) and Klotski "
                      "in every metric; write results/sliding-bench.json")
    bench.add_argument("puzzle", metavar="PUZZLE", nargs="?",
                       help="the puzzle to time (default: the largest in the catalog)")
    bench.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    bench.add_argument("--memory", type=gibibytes, metavar="GIB", help=MEMORY_HELP)
    bench.add_argument("--scale", action="store_true",
                       help="also the 10^8 search of runners/benchmarks/targets.toml (minutes, "
                            "about 3 GiB)")
    report.add_record_arguments(bench, "the figures (results/sliding-bench.json)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=bench_command)
