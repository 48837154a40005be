"""`puzzlesat list` at Python's start-up speed.

Listing the catalog by loading every puzzle took 0.3-1.7 s (readers, checks of size, the
families' modules); a user who asks what puzzles there are should not wait for that. Each
puzzle's line is kept in models/catalog/summaries.tsv beside the files it describes, with the
CRC-32 of the file it was made from: a line whose file changed (or a file with no line) is made
again by loading the puzzle, so the listing is never stale, only slower where the index is.
tests/test_startup.py fails when the committed index is out of date; `python -m
puzzlesat.cli.listing` writes it again.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import zlib
from pathlib import Path

INDEX = "summaries.tsv"  # name, CRC-32 of its file, kind, summary: one puzzle a line
OPEN = "open"  # the catalog's folder of open boards (models/files.py's OPEN)
FLAGS = {(): False, ("--open",): True}  # `list`'s flags this module answers; others: the parser


def wanted(argv: list[str]) -> bool:
    """Whether `argv` is a listing this module answers (`list` or `list --open`)."""
    return bool(argv) and argv[0] == "list" and tuple(argv[1:]) in FLAGS


def catalog_dir() -> Path:
    """The catalog's folder, found without importing the models package."""
    spec = importlib.util.find_spec("puzzlesat.models")
    return Path(next(iter(spec.submodule_search_locations))) / "catalog"


def puzzle_files(folder: Path) -> dict[str, Path]:
    """A catalog folder's puzzle files by name, sorted."""
    return {path.stem: path for path in sorted(folder.glob("*.toml"))}


def read_index(folder: Path) -> dict[str, tuple[int, str, str]]:
    """The index's lines by name: CRC-32, kind, summary (empty where there is no index)."""
    try:
        text = (folder / INDEX).read_text(encoding="utf-8")
    except OSError:
        return {}
    lines = {}
    for row in text.splitlines():
        parts = row.split("\t")
        if len(parts) == 4 and parts[1].isdigit():
            lines[parts[0]] = (int(parts[1]), parts[2], parts[3])
    return lines


def summary_of(path: Path) -> tuple[str, str]:
    """A puzzle's kind and summary, from the puzzle file itself (its family's `summary`)."""
    from ..models import files
    from ..registry import family_of

    puzzle = files.load(str(path))
    return puzzle.kind, family_of(puzzle).summary(puzzle)


def lines(folder: Path) -> list[tuple[str, str, str]]:
    """(name, kind, summary) of every puzzle in a catalog folder, from the index where it is up
    to date, else from the puzzle."""
    index = read_index(folder)
    rows = []
    for name, path in puzzle_files(folder).items():
        crc = zlib.crc32(path.read_bytes())
        known = index.get(name)
        kind, summary = known[1:] if known and known[0] == crc else summary_of(path)
        rows.append((name, kind, summary))
    return rows


def print_catalog(open_boards: bool = False) -> int:
    """Print the catalog (or its open boards), one puzzle a line."""
    folder = catalog_dir()
    for name, kind, summary in lines(folder / OPEN if open_boards else folder):
        print(f"{name:28} {kind:14} {summary}")
    if not open_boards:
        count = len(puzzle_files(folder / OPEN))
        print(f"... and {count} open boards (Polyform Puzzler lists them with 'solutions "
              "incomplete'): puzzlesat list --open")
    return 0


def command(argv: list[str]) -> None:
    """`puzzlesat list [--open]`, then out of the process at once."""
    try:
        code = print_catalog(FLAGS[tuple(argv[1:])])
        sys.stdout.flush()
    except BrokenPipeError:  # piped into a command that stopped reading (e.g. head)
        code = 0
    except KeyboardInterrupt:
        print("puzzlesat: interrupted", file=sys.stderr)
        code = 130
    os._exit(code)


def index_text(folder: Path) -> str:
    """The index of a catalog folder as it should be, made from the puzzles themselves."""
    rows = []
    for name, path in puzzle_files(folder).items():
        kind, summary = summary_of(path)
        if any(c in kind + summary for c in "\t\n"):
            raise ValueError(f"{name}: a summary with a tab or a line break cannot be indexed")
        rows.append(f"{name}\t{zlib.crc32(path.read_bytes())}\t{kind}\t{summary}\n")
    return "".join(rows)


def write_indexes() -> list[Path]:
    """Write the index of the catalog and of its open boards again; the files written."""
    from ..output import write_if_changed

    return [folder / INDEX for folder in (catalog_dir(), catalog_dir() / OPEN)
            if write_if_changed(folder / INDEX, index_text(folder), "the catalog's summaries")]


if __name__ == "__main__":
    for path in write_indexes():
        print(f"wrote {path}")
