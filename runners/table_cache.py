"""Tables cached on disk: written whole or not at all, read back or rebuilt, with a warning that
reaches the user when the cache cannot be written. Shared by every family with a table (Mind
Lock's, the sliding-block puzzles'); light to import (no numpy, no C module)."""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .models.errors import PuzzlesatWarning

T = TypeVar("T")


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if base and os.path.isabs(base) else Path.home() / ".cache") / "puzzlesat"


def write_atomic(path: Path, chunks: Sequence[bytes]) -> None:
    """Write a file whole or not at all: a temporary file in its folder, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


class CorruptTable(ValueError):
    """A cache file that is not a valid table for this puzzle; the message says why."""


@dataclass(frozen=True)
class CacheReport:
    """What happened to a cached table: read, or built (and why), and whether it is stored.

    It is true when the table was built now, so `table, built = load_or_build(...)` still reads.
    """

    path: Path
    built: bool
    why: str = ""  # why it was built: missing, corrupt: ..., unreadable: ...
    stored: bool = True  # whether the file now holds the table
    warning: str = ""  # one line when it could not be stored (the table is used from memory)
    what: str = "the table"

    def __bool__(self) -> bool:
        return self.built

    def message(self) -> str:
        """One line for the person at the terminal ('' when the cached table was simply read)."""
        if not self.built:
            return ""
        if self.stored:
            return f"built {self.what} ({self.why}) and stored it in {self.path}"
        return f"built {self.what} ({self.why}); {self.warning}"


def cached(path: Path, read_bytes: Callable[[bytes], T], build: Callable[[], T],
           chunks: Callable[[T], Sequence[bytes]], what: str = "the table", fresh: bool = False
           ) -> tuple[T, CacheReport]:
    """The table in the file at `path`, or a fresh build then stored there (atomically) when the
    file is missing, unreadable or corrupt (`read_bytes` raises CorruptTable). A cache that cannot
    be written gives a warning (PuzzlesatWarning) and the table is used from memory; never an
    error. fresh: built whatever the file holds (then stored). Every family's cache (Mind
    Lock's, the sliding-block puzzles') goes through here."""
    why = "a fresh build was asked for"
    if not fresh:
        try:
            return read_bytes(path.read_bytes()), CacheReport(path, built=False, what=what)
        except FileNotFoundError:
            why = f"no cached table at {path}"
        except OSError as error:
            why = f"the cached table is unreadable: {error.strerror or error}"
        except CorruptTable as error:
            why = f"the cached table is corrupt: {error}"
    made = build()
    try:
        write_atomic(path, chunks(made))
    except OSError as error:
        warning = (f"warning: cannot store it in {path} ({error.strerror or error}); the table "
                   "is used from memory and will be built again next time")
        warnings.warn(warning.removeprefix("warning: "), PuzzlesatWarning, stacklevel=3)
        return made, CacheReport(path, True, why, stored=False, warning=warning, what=what)
    return made, CacheReport(path, True, why, what=what)
