"""The command line of the puzzles solved by moves (Mind Lock, the sliding-block puzzles): the
flags they share, how their plans and counts are printed, and the `table` command each of them
has (`puzzlesat mind-lock table`, `puzzlesat sliding table PUZZLE`). A family's own module
(runners/cli/STEM.py) adds its own flags and lines to these."""

from __future__ import annotations

import argparse
import sys

from .. import output as report
from ..models.errors import InputError
from ..models.words import plural
from ..outcomes import Count, Solution
from ..registry import family
from . import add_flag

FROM_HELP = ("the start: a position (mind-lock: front/middle/back layers such as .PPP/PYYY/GGGG "
             "or the author's hex code; sliding-block: the board row by row with '/' between "
             "rows) or 'hardest' (a position at God's number); default: the puzzle's start")
MEMORY_HELP = ("GiB the breadth-first search may use; a search estimated to need more is refused "
               "before it starts (default: the memory available)")


def gibibytes(text: str) -> int:
    """A --memory value in GiB, as bytes."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of GiB: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of GiB, not {text}")
    return int(value * 2**30)


def add_arguments(command: str, parser: argparse.ArgumentParser, sample: int, seed: int
                  ) -> None:
    """The flags every family solved by moves takes (the first family to add one names it)."""
    if command in ("solve", "count", "verify", "export", "solutions"):
        add_flag(parser, "--memory", type=gibibytes, metavar="GIB", help=MEMORY_HELP)
    if command in ("solve", "export", "solutions"):
        add_flag(parser, "--from", dest="start", metavar="POSITION", help=FROM_HELP)
    if command == "export":
        add_flag(parser, "--steps", type=int, metavar="K",
                 help="the plan length bound k of the exported CNF (puzzles solved by moves)")
    if command == "verify":
        add_flag(parser, "--sample", type=int, metavar="N",
                 help=f"positions to plan with every planner, the hardest first (half, rounded "
                      f"up), then random ones (default {sample})")
        add_flag(parser, "--seed", type=int, metavar="S",
                 help=f"seed of the random positions (default {seed})")


def own_flags(args: argparse.Namespace) -> dict[str, object]:
    return {"--from": getattr(args, "start", None), "--steps": getattr(args, "steps", None),
            "--sample": getattr(args, "sample", None), "--seed": getattr(args, "seed", None),
            "--memory": getattr(args, "memory", None)}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    """The options of an API call, from the shared flags."""
    found: dict[str, object] = {"memory": getattr(args, "memory", None)}
    if command in ("solve", "export", "solutions"):
        found["start"] = getattr(args, "start", None)
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
    """God's number and the hardest positions after a finished count."""
    if not count.complete:
        return []
    d = count.details
    metric = f" ({d['metric']} metric)" if d.get("metric") else ""
    lines = [f"{puzzle.name}: God's number {plural(d['gods_number'], 'move')}{metric}, "
             f"{plural(d['hardest_positions'], 'position')} at "
             "that distance"]
    if d.get("start_moves") is not None:
        lines.append(f"{puzzle.name}: the start needs {plural(d['start_moves'], 'move')}")
    lines.append(f"{puzzle.name}: counted by {d['search']}")
    return lines


def published_lines(puzzle, result: dict) -> list[str]:
    """verify's line on the published figures that differ from ours (none where all agree)."""
    differs = [k for k, ok in result["published_agrees"].items() if not ok]
    if not differs:
        return []
    return [f"{puzzle.name}: differs from the published figure for: {', '.join(differs)} "
            f"(published: {puzzle.published})"]


# ---------------------------------------------------------------- the table command


def table_lines(figures: dict, heading: str) -> list[str]:
    """`table`'s figures in lines: positions, God's number, each distance's positions, the
    table's size and how it came, and the published figures where there are some."""
    unreached = figures.get("unreached")
    hardest = figures["hardest"][0] if figures["hardest"] else None
    if isinstance(hardest, dict):
        hardest = f"{hardest['position']} ({hardest['code']})"
    number = figures["hardest_positions"]
    lines = [
        heading,
        f"positions reached: {figures['positions']:,} ({figures['counted']})"
        + (f"; {unreached:,} NOT reached" if unreached else ""),
        f"God's number: {plural(figures['gods_number'], 'move')}"
        + (f" ({figures['gods_number_means']})" if "gods_number_means" in figures else "")
        + f", {plural(number, 'position')} at that distance"
        + (f", e.g. {hardest}" if hardest else ""),
    ]
    if figures.get("start_moves") is not None:
        lines.append(f"the start {figures['start']} needs {plural(figures['start_moves'], 'move')}")
    lines += ["positions at each distance:", "distance  positions",
              *(f"{d:>8}  {n:>9,}" for d, n in figures["distance_counts"].items())]
    how = {"built": f"searched now in {figures['seconds']:.2f} s",
           "cache": f"read from the cache in {figures['seconds']:.2f} s (searched in "
                    f"{figures['build_seconds']:.2f} s when first built)",
           "memory": f"kept in memory (searched in {figures['build_seconds']:.2f} s when built)"}
    lines.append(f"table: {plural(figures['table_bytes'], 'byte')} (2 bits a position"
                 + (", and the sorted codes" if figures.get("keys") else "") + "); "
                 + how[figures["table_from"]])
    if figures.get("published"):
        agrees = figures.get("published_agrees", {})
        differs = [k for k, ok in agrees.items() if not ok]
        if figures.get("published_metric", figures.get("metric")) != figures.get("metric"):
            lines.append(f"the published figures are in the {figures['published_metric']} "
                         f"metric: not compared with the {figures['metric']} metric's")
        elif differs:
            lines.append(f"differs from the published figure for: {', '.join(differs)} "
                         f"(published: {figures['published']})")
        elif agrees:
            lines.append("agrees with the published figures: " + ", ".join(agrees))
    return lines


def table_command(args: argparse.Namespace) -> int:
    """`puzzlesat FAMILY table [PUZZLE]`: every reachable position's distance, in figures."""
    from . import load

    puzzle, module = load(args)
    if puzzle.kind != args.kind:
        raise InputError(f"a {puzzle.kind} puzzle, not a {args.kind} one", field="PUZZLE")
    fam = family(puzzle.kind)
    fam.table_backend()  # where the C module was not built, the one line that says so
    from ..breadth_first import SearchStopped  # the engine (numpy, C) only once it runs
    try:
        found = fam.table(puzzle, args.memory, progress=sys.stderr.isatty() and not args.json)
    except SearchStopped as stopped:  # Ctrl-C or SIGTERM: what it reached, said to be partial
        partial = {"puzzle": puzzle.name, "complete": False, "positions": stopped.positions,
                   "seconds": round(stopped.seconds, 2)}
        print(report.json_line(partial) if args.json else
              f"{puzzle.name}: stopped after {stopped.seconds:.1f} s, "
              f"{plural(stopped.positions, 'position')} reached: incomplete (a lower bound "
              "on the positions reachable)")
        return 1  # as an incomplete count
    figures = module.table_figures(found)
    for note in found.found.notes():  # a warning (the cache not written) is shown as one
        report.say(note)
    if args.json:
        print(report.json_line(figures))
    else:
        print("\n".join(table_lines(figures, module.table_heading(figures))))
    return 0


def add_table_command(commands, kind: str, default: str | None, help: str
                      ) -> argparse.ArgumentParser:
    """The `table` subcommand of a family's group of commands."""
    table = commands.add_parser("table", help=help)
    table.add_argument("puzzle", metavar="PUZZLE", nargs="?" if default else None,
                       default=default, help="a catalog name or a puzzle file"
                       + (f" (default {default})" if default else ""))
    table.add_argument("--memory", type=gibibytes, metavar="GIB", help=MEMORY_HELP)
    table.add_argument("--json", action="store_true", help="print one JSON object")
    table.set_defaults(run=table_command, kind=kind)
    return table
