"""The pages' commands (issue 42): every `puzzlesat ...` line of the README and the reference
pages, read as a reader reads them, run and timed against the time its comment states.

A command's promise is the longest time its comment states ("(11 s at a load of 5)", "about
25 minutes", "an hour"), else a minute; a command whose comment says minutes or hours is slow,
run only with `--slow` (with no figure, it promises only to end before the timeout).
tests/test_readme.py runs the same commands from the same reading (`commands`) without a clock.
Each command is held to its promise by processes.judged, as the pictures' sweep is.
"""

from __future__ import annotations

import re
import shlex
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from ..models.errors import InputError
from ..models.words import plural
from .processes import QUIET, judged, timed

PAGES = ("README.md", "models/README.md", "runners/README.md", "results/README.md")
FENCE = re.compile(r"```(\w+)(?: ([\w.-]+))?\n(.*?)```", re.S)
SAYS_SLOW = re.compile(r"\b(min|mins|minutes?|hours?)\b")
LIMIT = 60.0  # seconds a command whose comment states no time promises
UNITS = {"s": 1, "sec": 1, "second": 1, "seconds": 1, "min": 60, "mins": 60, "minute": 60,
         "minutes": 60, "hour": 3600, "hours": 3600}
DURATION = re.compile(r"\b(?:(an?)\s+|(\d+(?:[.,]\d+)?)\s*)(?:CPU\s+)?(s|sec|seconds?|mins?|"
                      r"minutes?|hours?)(?![\w-])")
NEEDS = {"dask://": "a running scheduler"}  # a command that needs what a page cannot start


def source_root() -> Path:
    """The clone this module runs from (its pages are not installed with a wheel)."""
    root = Path(__file__).resolve().parents[2]
    if not all((root / page).is_file() for page in PAGES):
        raise InputError("bench pages reads the pages of a clone, and this puzzlesat was "
                         "installed from a wheel: run it from a clone (pip install -e .)",
                         field="suite")
    return root


def text(root: Path) -> str:
    return "\n".join((root / page).read_text(encoding="utf-8") for page in PAGES)


def blocks(pages: str, language: str) -> list[str]:
    return [body for lang, _, body in FENCE.findall(pages) if lang == language]


def named_files(pages: str) -> dict[str, str]:
    """The blocks that name a file (```toml three-bars.toml): name -> text."""
    return {name: body for _, name, body in FENCE.findall(pages) if name}


def split_comment(line: str) -> tuple[str, str]:
    """A shell line's command and its comment (a # after a space, outside quotes)."""
    quote = None
    for at, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and line[at - 1:at].isspace():
            return line[:at], line[at + 1:].strip()
    return line, ""


def command_lines(pages: str) -> list[tuple[list[str], str]]:
    """Every `puzzlesat ...` line of the pages' shell blocks, split as a shell would (without
    the program's name), with its comment."""
    found = []
    for block in blocks(pages, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith("puzzlesat "):
                command, comment = split_comment(line)
                found.append((shlex.split(command)[1:], comment))
    return found


def promised(comment: str) -> float | None:
    """The seconds a command's comment promises: the longest time it states; None where it
    says minutes or hours with no figure (a slow command); LIMIT where it states none."""
    stated = [(float(figure.replace(",", "")) if figure else 1.0) * UNITS[unit]
              for _, figure, unit in DURATION.findall(comment)]
    if stated:
        return max(stated)
    return None if SAYS_SLOW.search(comment) else LIMIT


@dataclass
class Command:
    """One page command: its arguments, its comment, what it promises, and how it ran."""

    args: list[str]
    comment: str
    promise: float | None
    verdict: str = "not run"  # kept, over, failed, skipped
    exit_code: int | None = None
    wall: float | None = None
    cpu: float | None = None
    load: float | None = None
    why: str = ""


def commands(pages: str) -> list[Command]:
    """Each page command once, in the pages' order, with the promise of its first comment."""
    seen: dict[tuple[str, ...], Command] = {}
    for args, comment in command_lines(pages):
        seen.setdefault(tuple(args), Command(list(args), comment, promised(comment)))
    return list(seen.values())


def with_force(args: list[str]) -> list[str]:
    """The pages' commands share one folder: a later one writes where an earlier one did, which
    a reader would be asked to force."""
    if set(args) & {"-o", "--output", "--draw", "--play"} and "-" not in args:
        return [*args, "--force"]
    return args


def run_one(command: Command, folder: Path, timeout: float) -> None:
    """Run one command in the scratch folder and judge it against its promise."""
    for needle, why in NEEDS.items():
        if any(needle in a for a in command.args):
            command.verdict, command.why = "skipped", f"needs {why}"
            return
    done = timed([sys.executable, "-m", "puzzlesat", *with_force(command.args)], timeout,
                 cwd=folder)
    command.exit_code, command.load = done["code"], round(done["load"], 1)
    command.wall, command.cpu = round(done["wall"], 2), round(done["cpu"], 2)
    seconds = judged(done["wall"], done["cpu"], done["load"])
    errors = done["err"].strip().splitlines()
    if done["killed"] or done["code"] != 0 or "Traceback (most recent" in done["err"]:
        command.verdict = "failed"
        command.why = "killed at the timeout" if done["killed"] else (errors or [""])[-1][:160]
    else:
        command.verdict = "kept" if seconds <= command.promise else "over"


def table(ran: list[Command], timeout: float) -> str:
    """The run as Markdown: a summary, then every command over its promise, failed or past
    20 CPU s."""
    tally = {v: sum(c.verdict == v for c in ran) for v in ("kept", "over", "failed", "skipped")}
    lines = ["# The pages' commands, timed against what their comments promise", "",
             f"`puzzlesat bench pages`: {plural(len(ran), 'command')} of {', '.join(PAGES)}, "
             f"run in the pages' order in one scratch folder, each killed at {timeout:.0f} s. "
             f"A command promises the longest time its comment states, else {LIMIT:.0f} s; "
             f"judged by the wall where the load average was at most {QUIET:.0f} when it "
             "started, else by its CPU seconds (children included).", "",
             f"kept {tally['kept']}, over {tally['over']}, failed {tally['failed']}, skipped "
             f"{tally['skipped']}; median load {_median_load(ran)}.", "",
             "| command | promise s | verdict | wall s | CPU s | load | note |",
             "|---|---:|---|---:|---:|---:|---|"]
    for c in ran:
        if c.verdict in ("over", "failed", "skipped") or (c.cpu or 0) > 20:
            line = " ".join(c.args).replace("|", "/")
            lines.append(f"| `{line}` | {c.promise:.0f} | {c.verdict} | {c.wall} | {c.cpu} | "
                         f"{c.load} | {(c.why or c.comment).replace('|', '/')[:120]} |")
    return "\n".join(lines) + "\n"


def _median_load(ran: list[Command]) -> str:
    loads = [c.load for c in ran if c.load is not None]
    return f"{statistics.median(loads):.1f}" if loads else "-"


def bench_pages(args) -> int:
    """`puzzlesat bench pages`: every quick page command (with --slow, those that say minutes
    or hours too), timed against its promise; exit 1 where one was over or failed; with
    --record (or --results DIR), pages-bench.md and .json there."""
    from ..output import record_folder, write_json_atomic, write_text_atomic

    results = record_folder(args)
    pages = text(source_root())
    chosen = [c for c in commands(pages) if args.slow or not SAYS_SLOW.search(c.comment)]
    with tempfile.TemporaryDirectory(prefix="puzzlesat-pages-") as scratch:
        folder = Path(scratch)
        for name, body in named_files(pages).items():
            (folder / name).write_text(body, encoding="utf-8")
        for command in chosen:
            command.promise = command.promise or float(args.timeout)
            run_one(command, folder, args.timeout)
            print(f"{' '.join(command.args)[:70]}: {command.verdict}, {command.wall} s wall, "
                  f"{command.cpu} CPU s (promise {command.promise:.0f} s){_why(command)}")
    if results is not None:
        path = Path(results) / "pages-bench.md"
        write_text_atomic(path, table(chosen, args.timeout), "the benchmark's table")
        write_json_atomic(path.with_suffix(".json"), [asdict(c) for c in chosen], "the runs")
        print(f"wrote {path} and {path.with_suffix('.json')}")
    bad = [c for c in chosen if c.verdict in ("over", "failed")]
    print(f"{plural(len(chosen), 'command')}: {len(bad):,} over their promise or failed")
    return 1 if bad else 0


def _why(command: Command) -> str:
    return f": {command.why}" if command.why else ""
