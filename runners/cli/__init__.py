"""The puzzlesat command line: list, solve, count, verify, export and bench any puzzle.

Commands load a puzzle (a catalog name or a file path) and hand it to its family's module,
`runners/family_<kind>.py`, which knows how to encode, run and report that kind of puzzle.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import sys
from pathlib import Path
from types import ModuleType

from ..models import files as puzzlefile
from ..models.errors import InputError
from .. import output as report

FAMILY_MODULES = ("packing", "edge_matching", "mind_lock")


def families() -> dict[str, ModuleType]:
    """kind -> the module that runs puzzles of that kind."""
    found = {}
    for name in FAMILY_MODULES:
        try:
            module = importlib.import_module(f"puzzlesat.families.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"puzzlesat.families.{name}":
                continue
            raise
        found[module.KIND] = module
    return found


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"puzzlesat: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="puzzlesat", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    puzzle_help = "a catalog name (see 'puzzlesat list') or the path of a puzzle file"

    commands.add_parser("list", help="show the built-in puzzles")

    solve = commands.add_parser("solve", help="find one solution and draw it")
    count = commands.add_parser("count", help="count every solution, saying what is counted")
    verify = commands.add_parser(
        "verify", help="count with every backend and the reference; write results/PUZZLE.json"
    )
    export = commands.add_parser("export", help="write the puzzle's CNF for external SAT solvers")
    bench = commands.add_parser("bench", help="time backends and append the figures to results/")

    for command in (solve, count, verify, export):
        command.add_argument("puzzle", metavar="PUZZLE", help=puzzle_help)
    bench.add_argument("puzzles", metavar="PUZZLE", nargs="+", help=puzzle_help)

    for command in (solve, count, bench):
        command.add_argument(
            "--backend",
            action="append" if command is bench else "store",
            help="cpsat, pysat:NAME (e.g. pysat:cadical195) or reference; default: the fastest "
            "measured for the puzzle's family"
            + ("; repeat for several" if command is bench else ""),
        )
    for command in (solve, count, verify, bench):
        command.add_argument("--time-limit", type=float, help="seconds before giving up")
        command.add_argument(
            "--workers", type=int, default=2, help="CP-SAT search workers for a solve (default 2)"
        )
    for command in (count, verify, bench):
        command.add_argument(
            "--jobs", type=int, default=2, help="worker processes for counting (default 2)"
        )
        command.add_argument(
            "--modulo",
            default="none",
            help="count all solutions (none) or classes under the puzzle's symmetries",
        )
    for command in (solve, count, verify, export, bench):
        command.add_argument(
            "--encoding",
            default=None,
            help="how CNF encodes 'exactly one': pairwise, seqcounter, ladder, totalizer, ...",
        )
    for command in (solve, count):
        command.add_argument("--json", action="store_true", help="print one JSON object")
    for command in (verify, bench):
        command.add_argument(
            "--results", default="results", help="folder for results files (default: results)"
        )
    export.add_argument("--format", default="dimacs", choices=["dimacs"], help="file format")
    export.add_argument("-o", "--output", required=True, help="the file to write ('-': stdout)")
    bench.add_argument("--repeat", type=int, default=3, help="runs per backend (default 3)")
    bench.add_argument("--solve", action="store_true", help="time solve instead of count")

    by_name = {"solve": solve, "count": count, "verify": verify, "export": export, "bench": bench}
    for family in families().values():
        for name, command in by_name.items():
            family.add_arguments(name, command)
        if hasattr(family, "extra_commands"):
            family.extra_commands(commands)
    return parser


def family_of(puzzle) -> ModuleType:
    return families()[puzzle.kind]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        for option in ("jobs", "workers", "repeat"):
            if getattr(args, option, 1) is not None and getattr(args, option, 1) < 1:
                raise InputError("must be at least 1", field=f"--{option}")
        if getattr(args, "time_limit", None) is not None and args.time_limit <= 0:
            raise InputError("must be a positive number of seconds", field="--time-limit")
        if hasattr(args, "run"):  # a family's own command
            return args.run(args)
        if args.command == "list":
            return list_catalog()
        if args.command == "bench":
            return bench(args)
        puzzle = puzzlefile.load(args.puzzle)
        return getattr(family_of(puzzle), args.command)(puzzle, args)
    except InputError as error:
        print(f"puzzlesat: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("puzzlesat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (e.g. head)
        sys.stderr.close()
        return 0


def list_catalog() -> int:
    by_kind = families()
    for name in puzzlefile.catalog():
        puzzle = puzzlefile.load(name)
        summary = by_kind[puzzle.kind].summary(puzzle) if puzzle.kind in by_kind else ""
        print(f"{name:28} {puzzle.kind:14} {summary}")
    return 0


# ---------------------------------------------------------------- bench

BENCH_FIELDS = [
    "date",
    "puzzle",
    "task",
    "backend",
    "runs",
    "median_seconds",
    "min_seconds",
    "max_seconds",
    "complete",
    "result",
    "cores",
    "python",
    "ortools",
    "python-sat",
]


def bench(args: argparse.Namespace) -> int:
    """Time each backend on each puzzle, print medians and ratios, append rows to bench.csv."""
    rows = []
    for name in args.puzzles:
        puzzle = puzzlefile.load(name)
        family = family_of(puzzle)
        backends = args.backend or family.bench_backends(puzzle, args)
        measured = []
        for backend in backends:
            runs = [family.bench_run(puzzle, backend, args, args.solve) for _ in range(args.repeat)]
            seconds = [run.seconds for run in runs]
            measured.append((backend, runs, report.median(seconds)))
            report.say(f"{name} {backend}: {', '.join(f'{s:.2f}' for s in seconds)} s")
        fastest = min((m for _, r, m in measured if all(x.complete for x in r)), default=None)
        for backend, runs, middle in measured:
            complete = all(run.complete for run in runs)
            rows.append(
                {
                    "date": report.now(),
                    "puzzle": name,
                    "task": "solve" if args.solve else f"count --modulo {args.modulo}",
                    "backend": backend,
                    "runs": len(runs),
                    "median_seconds": f"{middle:.3f}",
                    "min_seconds": f"{min(r.seconds for r in runs):.3f}",
                    "max_seconds": f"{max(r.seconds for r in runs):.3f}",
                    "complete": complete,
                    "result": runs[-1].what,
                    "cores": report.machine()["cores"],
                    **{k: v for k, v in report.versions().items() if k in BENCH_FIELDS},
                    "ratio": (middle / fastest) if fastest and complete else None,
                }
            )
    print(f"{'puzzle':28} {'task':22} {'backend':20} {'median s':>9} {'ratio':>7}  result")
    for row in rows:
        ratio = f"{row['ratio']:.2f}" if row["ratio"] is not None else "-"
        flag = "" if row["complete"] else "  (incomplete: time limit)"
        print(
            f"{row['puzzle']:28} {row['task']:22} {row['backend']:20} "
            f"{float(row['median_seconds']):9.3f} {ratio:>7}  {row['result']}{flag}"
        )
    append_csv(Path(args.results) / "bench.csv", rows)
    report.say(f"appended {len(rows)} rows to {Path(args.results) / 'bench.csv'}")
    return 0


def append_csv(path: Path, rows: list[dict]) -> None:
    """Append rows to a CSV file, atomically (the whole file is rewritten through a rename)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=BENCH_FIELDS, extrasaction="ignore")
    if not old:
        writer.writeheader()
    writer.writerows(rows)
    report.write_text_atomic(path, old + out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
