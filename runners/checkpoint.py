"""Checkpoints: each finished cube's count, appended durably, so a count survives a crash.

The file holds JSON lines: a header naming what is counted (the puzzle, its options, the
backend, the cubes), then one line per finished cube: its numbers, and the seconds it took on its
worker (how long N workers would take follows from those: `makespan`); a cube the count split
(runners/splitting.py) is recorded by its parts, a line each, naming the literals its splits
added to the cube (`part`). Each line is flushed and
fsynced before the count goes on. Run again with the same file, only the cubes not in it are
counted. A torn last line (the process killed mid-write) is ignored; a file written for other
work is refused.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import json
import os
from pathlib import Path

from .backends import REST_FEWEST
from .models.errors import InputError

FORMAT = "puzzlesat checkpoint 1"


def digest(obj: object) -> str:
    """A short stable hash of data (puzzles included), the same in every process."""
    text = json.dumps(_plain(obj), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(obj: object) -> object:
    """JSON-able data with sets sorted, so that the hash does not depend on hash seeds."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                if not _left_out(obj, f)}
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((_plain(v) for v in obj), key=repr)
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return repr(obj)


def _left_out(obj: object, field: dataclasses.Field) -> bool:
    """A field added to puzzle data after checkpoints were written (metadata `since`) is left
    out of the hash while it holds its default, so that those checkpoints stay valid for every
    puzzle that does not use it."""
    return "since" in field.metadata and field.default is not dataclasses.MISSING and \
        getattr(obj, field.name) == field.default


class Checkpoint:
    """An append-only record of finished cubes for one count (key None: read whatever count
    the file was written for, and take its key from the file)."""

    def __init__(self, path: str | Path, key: dict[str, object] | None) -> None:
        self.path = Path(path)
        self.key = key
        self.done: dict[tuple[str, int], list[int]] = {}
        self.seconds: dict[tuple[str, int], float] = {}  # absent from files written before
        # the parts of split cubes: per (work, cube), each part's added literals -> its numbers,
        # and each part's seconds by (work, cube, added literals)
        self.parts: dict[tuple[str, int], dict[tuple[int, ...], list[int]]] = {}
        self.part_seconds: dict[tuple[str, int, tuple[int, ...]], float] = {}
        # a part stopped to be split (its line has `rest`, a path down its children: see
        # Backend.count_part): its numbers are those of the branches before the path, and what
        # follows it are parts of their own
        self.rests: dict[tuple[str, int, tuple[int, ...]], list[int]] = {}
        self._file = None
        self._made = False  # whether this run made the file (its header), and so may take it away
        self._read()

    def _read(self) -> None:
        field = "checkpoint"
        if self.path.is_dir():
            raise InputError("is a directory", file=str(self.path), field=field)
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        try:
            lines = self.path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read: {error}", file=str(self.path), field=field) from None
        complete = lines[-1] == ""  # a file ending without a newline has a torn last line
        lines = lines[:-1]  # the empty rest after the last newline, or the torn line
        for number, line in enumerate(lines, start=1):
            try:
                entry = json.loads(line)
            except ValueError:
                raise InputError(
                    "not a checkpoint line (a damaged file?)", file=str(self.path),
                    line=number, field=field,
                ) from None
            if number == 1:
                if not isinstance(entry, dict) or entry.get("format") != FORMAT:
                    raise InputError("not a puzzlesat checkpoint", file=str(self.path), line=1,
                                     field=field)
                if self.key is None and isinstance(entry.get("key"), dict):
                    self.key = entry["key"]
                if entry.get("key") != self.key:
                    raise InputError(
                        "written for other work: " + _difference(entry.get("key"), self.key)
                        + "; use another file or the same command", file=str(self.path),
                        line=1, field=field,
                    )
                continue
            if not (isinstance(entry, dict) and isinstance(entry.get("work"), str)
                    and type(entry.get("cube")) is int
                    and isinstance(entry.get("values"), list)
                    and all(type(v) is int for v in entry["values"])):
                raise InputError("not a cube's line: it needs work, cube and values (whole "
                                 "numbers)",
                                 file=str(self.path), line=number, field=field)
            self._keep(entry, file_line=number)
        if not complete and lines:
            self._truncate_torn()

    def _truncate_torn(self) -> None:
        """Cut a torn last line so that appended lines start on a line of their own."""
        data = self.path.read_bytes()
        self.path.write_bytes(data[: data.rfind(b"\n") + 1])

    def _open(self):
        if self._file is None:
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            try:
                self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            except OSError as error:
                raise InputError(f"cannot write: {error.strerror}", file=str(self.path),
                                 field="checkpoint") from None
            if fresh:
                self._made = True
                self._write([{"format": FORMAT, "key": self.key}])
        return self._file

    def check_writable(self) -> None:
        """Open the file now, so that a path that cannot be written fails before the work."""
        self._open()

    def _write(self, entries: list[dict]) -> None:
        out = self._open()
        out.write("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries))
        out.flush()
        os.fsync(out.fileno())

    def record(self, work: str, cubes: list[int], values: list[list[int]],
               seconds: list[float | None] | None = None,
               parts: list[tuple[int, ...]] | None = None,
               rests: list[list[int] | None] | None = None) -> None:
        """Append finished cubes (their index within the work, their numbers, and the seconds
        each took where known), or parts of split cubes (`parts`: the literals each part's
        splits added to its cube; () for a whole cube; `rests`: where a part stopped to be split
        got to, see `rests` above)."""
        seconds = seconds or [None] * len(cubes)
        parts = parts or [()] * len(cubes)
        rests = rests or [None] * len(cubes)
        entries = [{"work": work, "cube": i, "values": list(v)}
                   | ({"part": list(part)} if part or rest is not None else {})
                   | ({} if rest is None else {"rest": list(rest)})
                   | ({} if s is None else {"seconds": round(s, 3)})
                   for i, v, s, part, rest in zip(cubes, values, seconds, parts, rests)]
        for entry, s in zip(entries, seconds):
            self._keep(entry | ({} if s is None else {"seconds": s}))
        self._write(entries)

    def _keep(self, entry: dict, file_line: int | None = None) -> None:
        """A cube's line (or a part's) held in `done` or `parts`, with its seconds."""
        at = (entry["work"], entry["cube"])
        part, rest = entry.get("part"), entry.get("rest")
        if part is not None and not (isinstance(part, list) and (part or rest is not None)
                                     and all(type(k) is int for k in part)) or (
                rest is not None and not _a_rest(rest)):
            raise InputError("a part is a list of whole numbers (the literals its splits "
                             "added), its rest a list of whole numbers", file=str(self.path),
                             line=file_line, field="checkpoint")
        seconds = entry.get("seconds")
        timed = seconds is not None
        if timed and not (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                          and 0 <= seconds < float("inf")):
            raise InputError(f"a line's seconds are not a number at least 0: {seconds!r}",
                             file=str(self.path), line=file_line, field="checkpoint")
        if rest is not None:
            self.rests[(*at, tuple(part or ()))] = rest
        if part is not None:
            self.parts.setdefault(at, {})[tuple(part)] = entry["values"]
            if timed:
                self.part_seconds[(*at, tuple(part))] = float(seconds)
            return
        self.done[at] = entry["values"]
        if timed:
            self.seconds[at] = float(seconds)

    def close(self) -> None:
        """Close the file; one this run made and recorded no cube in (the count could not start:
        an unreachable scheduler, a stop before the first cube) is taken away again."""
        if self._file is not None:
            self._file.close()
            self._file = None
            if self._made and not self.done and not self.parts:
                self.path.unlink(missing_ok=True)
                self._made = False


def makespan(seconds: list[float], workers: int) -> float:
    """How long `workers` workers take on cubes of these durations, handed out the largest first
    to the worker free first (as counting does where it estimates the cubes' sizes): at least
    the larger of sum/workers and the longest cube, at most sum/workers plus the longest cube."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    free = [0.0] * workers
    for duration in sorted(seconds, reverse=True):
        heapq.heapreplace(free, free[0] + duration)
    return max(free)


@dataclasses.dataclass(frozen=True)
class Timing:
    """What a checkpoint says of its count's time: the cubes recorded, and the seconds each
    timed one took on its worker (lines written before cube times were kept have none)."""

    key: dict[str, object]
    cubes: int  # cubes recorded whole
    seconds: list[float]  # of the timed lines: whole cubes and parts of split cubes
    split: int = 0  # cubes recorded by parts (split while counting)
    parts: int = 0  # their parts recorded

    def makespan(self, workers: int) -> float:
        """How long `workers` workers take on the timed cubes (see `makespan`)."""
        return makespan(self.seconds, workers)


def _a_rest(rest: object) -> bool:
    """Whether a line's rest is a path (whole numbers), or REST_FEWEST and a path."""
    if isinstance(rest, list) and rest and type(rest[0]) is int and rest[0] == REST_FEWEST:
        rest = rest[1:]
    return isinstance(rest, list) and bool(rest) and all(type(r) is int and r >= 0
                                                         for r in rest)


def timing(path: str | Path) -> Timing:
    """The cube times a checkpoint records, for how long N workers would take its count."""
    if not Path(path).exists():
        raise InputError("no such file", file=str(path), field="checkpoint")
    recorded = Checkpoint(path, None)
    if recorded.key is None:
        raise InputError("an empty file, not a puzzlesat checkpoint", file=str(path),
                         field="checkpoint")
    return Timing(recorded.key, len(recorded.done),
                  [*recorded.seconds.values(), *recorded.part_seconds.values()],
                  len(recorded.parts), sum(len(p) for p in recorded.parts.values()))


def recorded_split(path: str | Path, key: dict[str, object]) -> int | None:
    """The number of cubes a checkpoint of this work asked for when it was written (None: no
    checkpoint of this work there). Cubes follow from the work and that number alone, so a
    count resumed with other jobs, executor or machine splits its cubes as before."""
    try:
        with open(path, encoding="utf-8") as lines:
            header = json.loads(lines.readline())
    except (OSError, ValueError):
        return None
    written = header.get("key") if isinstance(header, dict) else None
    if not isinstance(written, dict) or header.get("format") != FORMAT:
        return None
    split = written.get("split")
    same = {k: v for k, v in written.items() if k not in ("split", "cubes")} == key
    return split if same and isinstance(split, int) and split >= 1 else None


def purpose(key: dict[str, object]) -> str:
    """What a checkpoint's work is, in a user's words: a solve, or a count modulo a group."""
    if key.get("task"):
        return f"a {key['task']}"
    if key.get("modulo") in (None, "none"):
        return "a count of all solutions"
    return f"a count modulo {key['modulo']}"


def _difference(old: object, new: dict[str, object]) -> str:
    if not isinstance(old, dict):
        return "its header is damaged"
    if purpose(old) != purpose(new):
        return f"it holds the cubes of {purpose(old)}, this is {purpose(new)}"
    for name in new:
        if old.get(name) != new[name]:
            return f"its {name} is {old.get(name)!r}, this count's is {new[name]!r}"
    return "its header differs"
