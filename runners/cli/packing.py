"""Packing puzzles on the command line: their flags and how their answers are printed."""

from __future__ import annotations

import argparse

from ..models.words import plural
from ..outcomes import Count, Solution, Verification
from ..terminal import draw_packing, use_colour


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "export":
        parser.add_argument("--cube", type=float, default=None, metavar="MM",
                            help="--format stl: a cube's edge or a ball's diameter in "
                            "millimetres (default 20)")
        parser.add_argument("--clearance", type=float, default=None, metavar="MM",
                            help="--format stl: move every face of a piece this far inwards, so "
                            "printed pieces fit the box (default 0)")
    if command == "verify":
        parser.add_argument(
            "--unreduced-time-limit", type=float, default=None, metavar="S",
            help="packing: seconds for each count without symmetry reduction (the slow "
            "cross-check; one stopped early is a lower bound); default: --time-limit",
        )


def own_flags(args: argparse.Namespace) -> dict[str, object]:
    return {"--unreduced-time-limit": getattr(args, "unreduced_time_limit", None),
            "--cube": getattr(args, "cube", None), "--clearance": getattr(args, "clearance", None)}


def load_options(args: argparse.Namespace) -> dict[str, object]:
    return {}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    found = {"encoding": getattr(args, "encoding", None)}
    if command == "verify":
        found["unreduced_time_limit"] = getattr(args, "unreduced_time_limit", None)
    if command == "export":
        found["cube"] = getattr(args, "cube", None)
        found["clearance"] = getattr(args, "clearance", None)
    return found


def print_solution(puzzle, solution: Solution, as_json: bool) -> int:
    from . import show_solution

    drawn = draw_packing(puzzle, solution.grid, colour=use_colour()) if solution.found else None
    return show_solution(puzzle.name, solution, as_json, drawn)


def count_lines(puzzle, count: Count) -> list[str]:
    lines = []
    if count.modulo != "none" and count.complete:
        lines.append(f"{puzzle.name}: {plural(count.details['solutions'], 'solution')} in all "
                     f"(rotations and reflections counted as different)")
        lines.append(f"{puzzle.name}: symmetry group: {count.group.describe()}")
        fixed = count.details.get("fixed_points")
        if fixed:  # Burnside's table: what every symmetry leaves unchanged, the identity all
            shown = "; ".join(f"{element.removeprefix('fixed by ')}: {kept:,}" for element, kept
                              in {"identity": count.details["solutions"], **fixed}.items())
            lines.append(f"{puzzle.name}: solutions each of the "
                         f"{plural(count.group.order, 'symmetry')} "
                         f"leaves unchanged (Burnside: the classes are their mean): {shown}")
    return lines


def verify_lines(puzzle, found: Verification) -> list[str]:
    result = found.result
    if "cubes" in result:
        from . import sampled_cubes_line

        return [sampled_cubes_line(result)]
    lines = [
        f"{puzzle.name}: all backends agree: {result['count']:,} {result['counted']}; "
        f"{result['classes']:,} {result['classes_counted']}"
    ]
    differs = [k for k, ok in result["published_agrees"].items() if not ok]
    if differs:
        lines.append(f"{puzzle.name}: differs from the published figure for: "
                     f"{', '.join(differs)} (published: {puzzle.published})")
    return lines


def extra_commands(subparsers) -> None:
    """The puzzle makers' commands: cards, booklet, audit, cards-bench (runners/cli/makers.py),
    `estimate` (runners/cli/estimates.py), `campaign` (runners/cli/campaign.py) and
    `calendar` (runners/cli/calendar.py)."""
    from . import calendar, campaign, estimates, makers

    makers.add_commands(subparsers)
    estimates.add_commands(subparsers)
    campaign.add_commands(subparsers)
    calendar.add_commands(subparsers)
