"""Edge-matching puzzles on the command line: their flags (--level, --cpsat-model,
--label-tiles), how their answers are printed, `puzzlesat generate` (planted boards) and the
family's benchmarks (`edge-bench`, `macmahon-bench`)."""

from __future__ import annotations

import argparse

from .. import output as report
from ..models import words
from ..models.errors import InputError
from ..models.words import plural
from ..outcomes import Count, Solution, Verification
from ..terminal import draw_edges, use_colour
from . import add_flag
from .choices import value

KIND = "edge-matching"


def family():
    """The family itself (its tables, its backends' modules), imported when a puzzle of it is
    printed, not when the command line declares its flags: a packing count never loads it. (A
    plain import: a lazily executed module is not safe where threads load it at once, as the
    workshop's do.)"""
    from ..families import edge_matching

    return edge_matching

LEVEL_COMMANDS = ("solve", "count", "verify", "export", "bench", "solutions", "backends")
CPSAT_MODEL_COMMANDS = ("solve", "count", "solutions", "verify", "bench")


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "verify":
        from .best import add_verify_flag

        add_verify_flag(parser)
    if command in LEVEL_COMMANDS:
        add_flag(
            parser, "--level", type=int, choices=(1, 2), default=None,
            help="edge-matching puzzles with levels (diamond blocks): 1 (default) matching "
            "edges; 2 also no two diamond tiles side by side",
        )
    if command in CPSAT_MODEL_COMMANDS:
        add_flag(
            parser, "--cpsat-model", choices=value(KIND, "cpsat_variants"), default=None,
            help=f"edge-matching CP-SAT model (default {value(KIND, 'default_cpsat_variant')}, "
            "measured faster)",
        )
    if command in CPSAT_MODEL_COMMANDS or command == "export":
        add_flag(
            parser, "--cnf-model", choices=value(KIND, "cnf_models"), default=None,
            help="edge-matching CNF: placements (ours: placement variables with seam colours, "
            "the default) or compact (Heule's: tile type on cell, colour per edge)",
        )
        add_flag(
            parser, "--no-amo", dest="amo", action="store_false", default=None,
            help="edge-matching CNF: leave out the at-most-one per cell (the tile counts imply "
            "it; counts stay exact)",
        )
    if command == "count":
        add_flag(
            parser, "--label-tiles", action="store_true", default=None,
            help="edge-matching: count arrangements of physically distinct tiles (identical "
            "tiles told apart) instead of distinct grids",
        )


def own_flags(args: argparse.Namespace) -> dict[str, object]:
    return {
        "--level": getattr(args, "level", None),
        "--cpsat-model": getattr(args, "cpsat_model", None),
        "--label-tiles": getattr(args, "label_tiles", None) or None,
        "--cnf-model": getattr(args, "cnf_model", None),
        "--no-amo": getattr(args, "amo", None),
        "--board": getattr(args, "board", None),
    }


def load_options(args: argparse.Namespace) -> dict[str, object]:
    return {"level": getattr(args, "level", None)}


def options(args: argparse.Namespace, command: str) -> dict[str, object]:
    found: dict[str, object] = {"encoding": getattr(args, "encoding", None),
                                "cnf_model": getattr(args, "cnf_model", None),
                                "amo": getattr(args, "amo", None)}
    if command != "export":
        found["cpsat_model"] = getattr(args, "cpsat_model", None)
    if command == "count":
        found["label_tiles"] = getattr(args, "label_tiles", None) or None
    return found


def say_reader(puzzle) -> None:
    """Name the reader of a file not in the TOML format (the format was recognised)."""
    from ..models.edge_matching.reader import TOML_FORMAT

    if puzzle.file_format != TOML_FORMAT:
        report.say(f"read {puzzle.source or puzzle.name} as: {puzzle.file_format}")


def print_solution(puzzle, solution: Solution, as_json: bool) -> int:
    from . import show_solution

    say_reader(puzzle)
    drawn = draw_edges(puzzle, solution.grid, colour=use_colour()) if solution.found else None
    extra = {"format": puzzle.file_format, "rules": family().rules_text(puzzle)}
    return show_solution(family().display_name(puzzle), solution, as_json, drawn, extra,
                         family().rules_text(puzzle))


def count_lines(puzzle, count: Count) -> list[str]:
    say_reader(puzzle)
    name = count.puzzle
    lines = [f"{name}: rules: {family().rules_text(puzzle)}"]
    fixed = count.details.get("fixed_by_turn")
    if count.complete and fixed:
        shown = ", ".join(f"{k}°: {v:,}" for k, v in fixed.items())
        lines.append(f"{name}: grids unchanged by each turn of the board (Burnside): {shown}")
    elif count.complete and count.details.get("fixed_by"):
        # each element of the group and the grids it leaves unchanged, equal counts together
        by_count: dict[int, list[str]] = {}
        for element, kept in count.details["fixed_by"].items():
            by_count.setdefault(kept, []).append(element)
        shown = "; ".join(
            f"{kept:,} by {', '.join(names) if len(names) <= 3 else plural(len(names), 'element')}"
            for kept, names in sorted(by_count.items(), reverse=True))
        lines.append(f"{name}: grids each of the {plural(count.group.order, 'symmetry')} leaves "
                     f"unchanged (Burnside: the classes are their mean): {shown}")
    for key, entry in count.details.get("conventions", {}).items():
        if key != "grids" and entry["count"] != count.number:
            shown = "-" if entry["count"] is None else words.number(entry["count"])
            lines.append(f"{name}: {key.replace('_', ' ')}: {shown}: "
                         f"{entry['counted']}")
    if count.details.get("nodes") is not None:
        nodes, now = count.details["nodes"], count.details["nodes_this_call"]
        earlier = f" ({nodes - now:,} of them read from the checkpoint)" if now != nodes else ""
        lines.append(f"{name}: {plural(nodes, 'node')} searched{earlier}, "
                     f"{plural(count.details['nodes_per_second'] or 0, 'node')} a second in "
                     "this run")
    return lines


def verify_lines(puzzle, found: Verification) -> list[str]:
    say_reader(puzzle)
    result = found.result
    if "cubes" in result:
        from . import sampled_cubes_line

        return [sampled_cubes_line(result)]
    name = result["puzzle"]
    total = result["count"]
    lines = [f"{name}: all backends agree: {total:,} {result['counted']}"]
    if result["rotation_classes"] is not None:
        lines.append(f"{name}: {result['rotation_classes']:,} {result['rotation_counted']}")
    labelled = result["label_tiles"]  # None: too long to write out (its size is in the text)
    lines.append(f"{name}: {'-' if labelled is None else words.number(labelled)} "
                 f"{result['label_tiles_counted']}")
    parities = result.get("parity")
    if parities is not None:
        both = parities["even"] + parities["odd"]
        lines.append(
            f"{name}: grids with the marks on even cells {parities['even']:,} + on odd cells "
            f"{parities['odd']:,} = {both:,} ({', '.join(parities['backends'])} agree), "
            + ("equal to" if both == total else "NOT equal to")
            + f" the {plural(total, 'grid')}"
        )
        for note in parities.get("notes", []):
            lines.append(f"{name}: note: {note}")
    for key, ok in result["published_solutions"].items():
        lines.append(f"{name}: published {key}: {'a valid solution' if ok else 'NOT VALID here'}")
    return lines


# ---------------------------------------------------------------- puzzlesat generate


def run_generate(args: argparse.Namespace) -> int:
    """Write a planted board in the Eternity II benchmark format, or with --unique a board with
    one solution in the TOML format."""
    from ..models.edge_matching import planted

    report.check_output(args.output, force=args.force)
    if args.unique:
        return run_unique(args)
    for flag, given in (("--clues", args.clues), ("--grid", args.grid),
                        ("--attempts", args.attempts)):
        if given is not None:
            raise InputError("belongs to --unique (a board with one solution)", field=flag)
    puzzle = planted.generate(args.size, args.border_colours, args.interior_colours, args.seed)
    report.write_export(args.output, planted.benchmark_text(puzzle), puzzle.title)
    return 0


def run_unique(args: argparse.Namespace) -> int:
    """A board with one solution (runners/edge_puzzles.py), written as a puzzle file."""
    from ..edge_puzzles import unique
    from ..models.edge_matching.reader import to_toml

    try:
        made = unique(args.size, args.border_colours, args.interior_colours, args.clues or 0,
                      args.grid or "square", args.seed,
                      200 if args.attempts is None else args.attempts)
    except LookupError as error:
        report.say(f"generate: {error}")
        return 1
    header = [f"# {line}" for line in (
        made.summary(),
        f"made by: puzzlesat generate {args.size} --unique --grid {made.puzzle.grid} "
        f"--border-colours {args.border_colours} --interior-colours {args.interior_colours} "
        f"--clues {args.clues or 0} --seed {made.seed}",
        "its solution: puzzlesat solve THIS_FILE")]
    report.write_export(args.output, "\n".join(header) + "\n" + to_toml(made.puzzle),
                        made.puzzle.title)
    report.say(made.summary())
    return 0


def extra_commands(subparsers) -> None:
    """`puzzlesat generate` and `best` (runners/cli/best.py); the family's benchmarks are
    `bench edge` and `bench macmahon` (runners/cli/bench.py's SUITES)."""
    from . import best

    best.add_commands(subparsers)
    generate = subparsers.add_parser(
        "generate", help="write a random N x N edge-matching board with a planted solution "
        "(--unique: one with exactly one solution)"
    )
    generate.add_argument("size", type=int, help="the board is SIZE x SIZE (triangles: the "
                          "regular hexagon of side SIZE)")
    generate.add_argument("--border-colours", type=int, default=5, help="(default 5)")
    generate.add_argument("--interior-colours", type=int, default=17, help="(default 17)")
    generate.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    generate.add_argument(
        "--unique", action="store_true",
        help="a board with exactly one solution (up to turning the board; with --clues, one "
        "grid), checked by a count, its expected difficulty by Knuth's estimate; written as a "
        "puzzle file (TOML)")
    generate.add_argument("--clues", type=int, default=None,
                          help="with --unique: tiles of the solution fixed on random cells")
    generate.add_argument("--grid", choices=("square", "triangle"), default=None,
                          help="with --unique: square tiles (default) or triangles")
    generate.add_argument("--attempts", type=int, default=None,
                          help="with --unique: seeds to try (default 200)")
    generate.add_argument(
        "-o", "--output", required=True,
        help="the file to write (Eternity II benchmark format, with --unique a puzzle file; "
        "'-': standard output)",
    )
    report.add_force_argument(generate)
    generate.set_defaults(run=run_generate)


def add_edge_bench(bench: argparse.ArgumentParser) -> None:
    """`bench edge` (was `edge-bench`): backends and encodings solving edge-matching boards."""
    bench.add_argument(
        "--contender", action="append", metavar="BACKEND[+MODEL][+noamo]",
        help="e.g. exec:cadical+compact+noamo or cpsat+integers; repeat for several "
        "(default: every backend and encoding measured in results/edge-bench.md)")
    bench.add_argument("--seeds", type=int, default=3, help="shuffling seeds per board (3)")
    bench.add_argument("--sizes", type=int, nargs="+", default=[8, 9, 10, 11, 12],
                       help="planted board sizes (default 8 to 12)")
    bench.add_argument("--planted-only", action="store_true",
                       help="skip the catalog's clue puzzles and em_* boards")
    bench.add_argument("--catalog-only", action="store_true", help="skip the planted boards")
    bench.add_argument("--time-limit", type=float, default=None,
                       help="seconds per run (default: 10 on clue and em_* boards, 60 planted)")
    report.add_record_arguments(bench, "the table (results/edge-bench.md and .csv)")
    bench.set_defaults(run=run_edge_bench)


def add_macmahon_bench(macmahon: argparse.ArgumentParser) -> None:
    """`bench macmahon` (was `macmahon-bench`): MacMahon's triangles counted and timed."""
    from . import positive, seconds

    macmahon.add_argument("--repeat", type=positive, default=None,
                          help="timed counts (default 3)")
    macmahon.add_argument("--jobs", type=positive, default=None,
                          help="worker processes of each count (default 2)")
    macmahon.add_argument("--anchor-limit", type=seconds, default=None, metavar="S",
                          help="seconds for the xcover anchor, stopped there: its count a lower "
                          "bound, its time projected from its rate (default 900)")
    macmahon.add_argument("--no-anchor", action="store_true", help="leave the anchor out")
    macmahon.add_argument("--canonical", action="store_true",
                          help="list every grid and count the classes again as canonical forms, "
                          "which must equal Burnside's (minutes more)")
    macmahon.add_argument("--squares", action="store_true",
                          help="instead: MacMahon's 24 squares in the 4x6 rectangle, every grid "
                          "listed and its classes under each group found by canonical forms")
    report.add_record_arguments(macmahon, "the figures (results/macmahon-24-triangles.json and "
                                ".md; with --squares results/macmahon-24-squares.json)")
    macmahon.set_defaults(run=run_macmahon_bench)


def run_macmahon_bench(args: argparse.Namespace) -> int:
    """MacMahon's triangles timed (runners/benchmarks/macmahon_triangles.py), or the squares'
    conventions (runners/benchmarks/macmahon.py), in this process."""
    record = report.record_folder(args)
    if args.squares:
        for flag, value in (("--repeat", args.repeat), ("--jobs", args.jobs),
                            ("--anchor-limit", args.anchor_limit),
                            ("--no-anchor", args.no_anchor or None),
                            ("--canonical", args.canonical or None)):
            if value is not None:
                raise InputError("belongs to the triangles' benchmark (--squares always lists "
                                 "every grid and has no timed runs or anchor)", field=flag)
        from ..benchmarks import macmahon

        macmahon.conventions(record)
        return 0
    if args.no_anchor and args.anchor_limit is not None:
        raise InputError("--anchor-limit and --no-anchor contradict each other",
                         field="--anchor-limit")
    from ..benchmarks import macmahon_triangles

    macmahon_triangles.run(
        jobs=args.jobs or 2, repeat=args.repeat or 3,
        anchor_limit=None if args.no_anchor else args.anchor_limit or 900,
        check_canonical=args.canonical, folder=record)
    return 0


def run_edge_bench(args: argparse.Namespace) -> int:
    """The edge-matching benchmark (runners/benchmarks/edge.py), in this process."""

    from ..benchmarks import edge
    from ..registry import backend

    record = report.record_folder(args)
    seeds = range(1, args.seeds + 1)
    instances = []
    if not args.planted_only:
        instances += edge.clue_instances() + edge.em_instances(seeds)
    if not args.catalog_only:
        instances += edge.planted_instances(args.sizes, seeds)
    contenders = [edge.contender(name) for name in args.contender or edge.DEFAULT_CONTENDERS]
    if args.contender is None:  # the default list: those not available here are left out
        missing = {}
        for name in dict.fromkeys(c.backend for c in contenders):
            try:
                backend(name)
            except InputError as error:
                missing[name] = error.message
                report.say(f"edge-bench: {name} left out: {error.message}")
        contenders = [c for c in contenders if c.backend not in missing]
    for name in {c.backend for c in contenders}:
        backend(name)  # every backend checked (and available) before anything is timed
    limits = dict(edge.TIME_LIMITS)
    if args.time_limit is not None:
        limits = dict.fromkeys(limits, args.time_limit)
    try:
        rows = edge.bench(instances, contenders, backend, limits, record)
    except edge.Stopped as stopped:
        print(stopped.table)
        if record is not None:
            report.say(f"edge-bench: {stopped}: {record / 'edge-bench.md'} and edge-bench.csv "
                       "left as they were")
        raise
    print(edge.markdown(rows or [], contenders, limits))  # the table, recorded or not
    if record is None:
        return 0
    report.say(f"wrote {record / 'edge-bench.md'} and edge-bench.csv")
    from ..pictures import charts

    charts.write_chart(record, "edge-bench.csv", report.say)
    report.write_results_index(record)
    return 0
