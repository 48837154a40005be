"""Mind Lock on the command line: its flags, how its answers are printed, `mind-lock table` and
`mind-lock bench`."""

from __future__ import annotations

import argparse

from .. import output as report
from ..families import mind_lock as family
from ..models import files
from ..models.mind_lock import NOTATION_HELP, POSITIONS
from ..outcomes import Count, Solution, Verification
from . import add_flag, positive, seconds


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command in ("solve", "export", "solutions", "bench"):
        add_flag(parser, "--from", dest="start", metavar="POSITION",
                 help=f"mind-lock: {NOTATION_HELP}, or 'hardest' (the first position at God's "
                      f"number)" + ("; bench --solve plans from it (default: hardest)"
                                    if command == "bench" else ""))
    if command == "export":
        add_flag(parser, "--steps", type=int, metavar="K",
                 help=f"mind-lock: the plan length bound k of the exported CNF (0 to "
                      f"{family.MAX_STEPS})")
    if command == "verify":
        add_flag(parser, "--sample", type=int, metavar="N",
                 help=f"mind-lock: positions to plan with every planner, the hardest first "
                      f"(half, rounded up), then random ones (default {family.DEFAULT_SAMPLE}, "
                      f"within about a minute on 2 cores)")
        add_flag(parser, "--seed", type=int, metavar="S",
                 help=f"mind-lock: seed of the random positions (default "
                      f"{family.DEFAULT_SEED})")


def own_flags(args: argparse.Namespace) -> dict[str, object]:
    return {"--from": getattr(args, "start", None), "--steps": getattr(args, "steps", None),
            "--sample": getattr(args, "sample", None), "--seed": getattr(args, "seed", None)}


def load_options(args: argparse.Namespace) -> dict[str, object]:
    return {}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    found: dict[str, object] = {"encoding": getattr(args, "encoding", None)}
    if command in ("solve", "export", "solutions"):
        found["start"] = getattr(args, "start", None)
        if getattr(args, "command", None) == "bench" and command == "solve":
            found["start"] = found["start"] or family.HARDEST
    if command == "export":
        found["steps"] = getattr(args, "steps", None)
    if command == "verify":
        found["sample"] = getattr(args, "sample", None)
        found["seed"] = getattr(args, "seed", None)
    return found


def print_solution(puzzle, solution: Solution, as_json: bool) -> int:
    from . import show_solution

    return show_solution(puzzle.name, solution, as_json)


def count_lines(puzzle, count: Count) -> list[str]:
    if not count.complete:
        return []
    return [f"{puzzle.name}: all reached by breadth-first search from the "
            f"{count.details['solved_positions']} solved positions; hardest distance "
            f"{count.details['hardest_distance']} moves ({count.details['hardest_positions']} "
            f"positions)"]


def verify_lines(puzzle, found: Verification) -> list[str]:
    result = found.result
    sample = result["sample"]
    planners = [r["backend"] for r in result["runs"] if r["backend"] != family.TABLE]
    hardest = (f"hardest distance {result['hardest_distance']} moves "
               f"({result['hardest_positions']} positions)")
    if sample["size"] and planners:
        planned = (f"{hardest}; the table's distance equals the optimal plan length of "
                   f"{', '.join(planners)} on {sample['hardest']} hardest position"
                   f"{'s' * (sample['hardest'] != 1)} and {sample['random']} random one"
                   f"{'s' * (sample['random'] != 1)} (seed {sample['seed']})")
    else:
        planned = f"{hardest}; no plans checked against the table (--sample 0 or no planner)"
    lines = [
        f"{puzzle.name}: {result['positions']:,} {result['counted']}",
        planned,
        f"every position has exactly three moves, each undone by itself; example "
        f"{result['example']['code']}: {result['example_moves']} moves (published: "
        f"{puzzle.published.get('example_moves', '-')})",
    ]
    differs = [k for k, ok in result["published_agrees"].items() if not ok]
    if differs:
        lines.append(f"{puzzle.name}: differs from the published figure for: "
                     f"{', '.join(differs)} (published: {puzzle.published})")
    return lines


# ---------------------------------------------------------------- mind-lock table, bench


def table_lines(puzzle, built: family.TableReport) -> list[str]:
    build = built.build
    unreached = POSITIONS - build.positions
    lines = [
        f"Mind Lock, God's algorithm: breadth-first search from the {len(puzzle.solved)} "
        f"solved positions",
        f"positions reached: {build.positions:,} ({family.COUNTED})"
        + (f"; {unreached:,} of the {POSITIONS:,} ranks NOT reached" if unreached else ""),
        f"hardest distance (God's number): {build.hardest_distance} moves, "
        f"{len(build.hardest())} positions at that distance",
        "positions at each distance (the fewest moves to a solved position):",
        "distance  positions",
        *(f"{distance:8}  {number:9,}" for distance, number in enumerate(build.distance_counts)),
        f"table: {built.table_bytes:,} bytes on disk (distance mod 3, 2 bits a position, "
        f"and a checksum) at {built.path}",
        f"built in {build.seconds:.2f} s",
    ]
    return lines


def table_command(args: argparse.Namespace) -> int:
    puzzle = files.load("mind-lock")
    built = family.build_table(puzzle)
    if args.json:
        print(report.json_line(built.as_json()))
    else:
        print("\n".join(table_lines(puzzle, built)))
    return 0


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
          f"{result['table_bytes']:,} bytes on disk (target 25 KB)")
    print(f"query by table: median {query['median'] * 1e3:.3f} ms over {query['queries']} random "
          f"positions (target 1 ms); hardest: {query['hardest_median'] * 1e3:.3f} ms")
    for backend, figures in result["planners"].items():
        length = (f"{figures['length']} moves" if figures["complete"]
                  else "incomplete: time limit")
        print(f"{backend:20} optimal plan of a hardest position ({length}): "
              f"median {figures['median_seconds']:.2f} s of {args.repeat} (target 10 s)")
    said = {True: "met", False: "NOT met", None: "not measured"}
    print("targets: " + ", ".join(f"{k} {said[v]}" for k, v in result["targets"].items()))
    if folder is not None:
        print(f"wrote {folder / 'mind-lock-bench.json'}")
    return 0


def extra_commands(subparsers) -> None:
    """`puzzlesat mind-lock table` and `puzzlesat mind-lock bench`."""
    group = subparsers.add_parser(
        "mind-lock", help="Mind Lock: build God's-algorithm table, benchmark it"
    )
    commands = group.add_subparsers(dest="mind_lock_command", required=True,
                                    parser_class=type(group))
    table = commands.add_parser(
        "table", help="search all positions from the solved ones; print the distance counts"
    )
    table.add_argument("--json", action="store_true", help="print one JSON object")
    table.set_defaults(run=table_command)
    bench = commands.add_parser(
        "bench", help="time the table (build, query) and the planners; write "
                      "results/mind-lock-bench.json"
    )
    bench.add_argument("--repeat", type=positive, default=3, help="runs per measure (default 3)")
    bench.add_argument("--queries", type=positive, default=2000,
                       help="random positions queried (default 2000)")
    bench.add_argument("--backend", action="append",
                       help="planner to time (repeat for several); default: "
                            + ", ".join(family.PLANNERS))
    bench.add_argument("--workers", type=positive, default=2, help="CP-SAT workers (default 2)")
    bench.add_argument("--time-limit", type=seconds, metavar="S",
                       help="seconds per plan (the whole deepening) before giving up")
    report.add_record_arguments(bench, "the figures (results/mind-lock-bench.json)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=bench_command)
