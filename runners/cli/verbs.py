"""`puzzlesat --help` at Python's start-up speed.

The top-level help lists every verb with its line of help; the whole parser that knows them
declares every family's flags and took 0.30 s to build. The verbs and their help are kept in
verbs.json beside this module, made from the whole parser (`python -m puzzlesat.cli.verbs`);
`puzzlesat --help` formats them with argparse as the whole parser does, so the text is the
same at any terminal width. tests/test_startup.py fails when verbs.json is out of date and
when the two texts differ.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

INDEX = Path(__file__).with_name("verbs.json")
ASKED = (["--help"], ["-h"])


def wanted(argv: list[str]) -> bool:
    """Whether `argv` asks for the top-level help only."""
    return argv in ASKED and INDEX.is_file()


def skeleton(index: dict) -> argparse.ArgumentParser:
    """A parser with the whole parser's top level: its options and its verbs' lines."""
    parser = argparse.ArgumentParser(prog="puzzlesat", description=index["description"])
    parser.add_argument("--version", action="store_true", help=index["version"])
    verbs = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, line in index["verbs"]:
        verbs.add_parser(name, help=line)
    return parser


def command() -> None:
    """`puzzlesat --help`, then out of the process at once."""
    try:
        skeleton(json.loads(INDEX.read_text(encoding="utf-8"))).print_help()
        sys.stdout.flush()
        code = 0
    except BrokenPipeError:
        code = 0
    os._exit(code)


def index_of(parser: argparse.ArgumentParser) -> dict:
    """The top level of the whole parser: its description, --version's help, the verbs."""
    version = next(a for a in parser._actions if "--version" in a.option_strings)  # noqa: SLF001
    verbs = next(a for a in parser._actions  # noqa: SLF001
                 if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    return {"description": parser.description, "version": version.help,
            "verbs": [[a.dest, a.help] for a in verbs._choices_actions]}  # noqa: SLF001


def write_index() -> bool:
    """Write verbs.json again from the whole parser; whether it changed."""
    from ..output import write_if_changed
    from .commands import build_parser

    return write_if_changed(INDEX, json.dumps(index_of(build_parser()), indent=1) + "\n",
                            "the verbs' index")


if __name__ == "__main__":
    print(f"{'wrote' if write_index() else 'up to date:'} {INDEX}")
