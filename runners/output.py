"""Shared output: atomic results files, library versions, JSON lines, progress bars.

The one writer of files (`write_text_atomic`) never replaces anything but a regular file or a
new path: a symbolic link is followed, a character device or a pipe is written in place, a
directory, a block device or a socket is refused; every failure is an InputError naming the
path. `check_output` and `check_folder` test an output path or results folder before long work;
neither lets a command replace a file the user has (an existing file, or a folder that holds
files) unless asked with --force (`add_force_argument`, the same flag on every command that
takes -o/--output).
"""

from __future__ import annotations

import errno
import io
import json
import os
import platform
import stat
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .models.errors import InputError
from .models.words import plural

STDOUT = "-"  # an output path that means standard output


@dataclass(frozen=True)
class Target:
    """Where an output path leads: the path written (a symbolic link followed), what is there
    now, and a note for the person at the terminal when it is not a plain file."""

    path: Path
    kind: str  # new, file, character device, pipe, directory, block device, socket
    note: str = ""


# What is at a path, by the type bits of its mode; None: a path that does not exist yet.
_KINDS = (
    (stat.S_ISREG, "file"),
    (stat.S_ISDIR, "directory"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISFIFO, "pipe"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)
WRITTEN_IN_PLACE = ("character device", "pipe")  # opened and written, never replaced
REFUSED = ("directory", "block device", "socket")


def target(path: str | Path, what: str = "output") -> Target:
    """What writing to a path would touch; InputError (naming the path) for what is refused.

    A symbolic link is followed (the file it points to is written, the link kept); a directory,
    a block device or a socket is refused; a character device (such as /dev/null) or a pipe is
    opened and written in place; anything else is replaced atomically or created.
    """
    named(path, what)
    given = Path(path)
    note = ""
    if given.is_symlink():
        resolved = Path(os.path.realpath(given))
        note = f"followed the symbolic link {given} to {resolved}"
        given = resolved
    try:
        mode = os.stat(given).st_mode
    except (FileNotFoundError, NotADirectoryError):  # a new path (its folder is checked later)
        return Target(given, "new", note)
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", file=str(path), field=what) from None
    kind = next((name for test, name in _KINDS if test(mode)), "special file")
    if kind in REFUSED or kind == "special file":
        raise InputError(
            f"is a {kind}, not a file: give a file name ('-' for standard output)",
            file=str(path), field=what,
        )
    if kind in WRITTEN_IN_PLACE:
        note = "; ".join(filter(None, [note, f"wrote in place to the {kind} {given}"]))
    return Target(given, kind, note)


def named(path: str | Path, what: str) -> None:
    """InputError for an empty name: it is no file or folder (Path('') would quietly be the
    current folder, whose files would then be replaced)."""
    if not str(path).strip():
        raise InputError("an empty name: give a file or folder name", field=what)


FORCE_HELP = ("replace an existing output file, or write into an output folder that already "
              "holds files (without it, either is refused before any work)")


def add_force_argument(command) -> None:
    """--force: the one flag, on every command that writes -o/--output, that lets it replace
    what is there."""
    command.add_argument("--force", action="store_true", help=FORCE_HELP)


def check_output(path: str | Path, what: str = "output", force: bool = False) -> Target:
    """Before the work starts: InputError naming the path if the output cannot be written
    there (a directory, a folder that does not exist or cannot be written, a read-only file
    system), or if a file is there already and `force` is not given (a device or a pipe is
    written in place, never replaced).
    Writes nothing that stays: a probe file is created in the folder and removed."""
    if str(path) == STDOUT:
        return Target(Path(STDOUT), "standard output")
    found = target(path, what)
    if found.kind in WRITTEN_IN_PLACE:
        if not os.access(found.path, os.W_OK):
            raise InputError(f"cannot write to this {found.kind}", file=str(path), field=what)
        return found
    if found.kind == "file" and not os.access(found.path, os.W_OK):
        raise InputError("the file is read-only", file=str(path), field=what)
    if found.kind == "file" and not force:
        raise InputError("the file exists: it is replaced only when asked to force it",
                         file=str(path), field=what)
    if not found.path.parent.is_dir():  # a typo in a folder name is not a folder to make
        raise InputError(
            f"its folder {found.path.parent} does not exist", file=str(path), field=what
        )
    _probe_folder(found.path.parent, str(path), what)
    return found


def check_folder(folder: str | Path, what: str = "results", force: bool | None = None
                 ) -> Path:
    """Before the work starts: InputError naming the folder if results cannot be written in it
    (it names a file, or it cannot be written or created). An output folder (`force` False or
    True, where None is a results folder that commands add to) that already holds files is
    refused unless `force`: its files could be replaced."""
    named(folder, what)
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InputError("names a file, not a folder", file=str(folder), field=what)
    if force is False and folder.is_dir() and any(folder.iterdir()):
        raise InputError("the folder holds files already: it is written into only when asked "
                         "to force it (files of the same names are replaced)", file=str(folder),
                         field=what)
    _probe_folder(folder, str(folder), what)
    return folder


def _probe_folder(folder: Path, shown: str, what: str) -> None:
    """Whether a file can be created in a folder (or, where it does not exist yet, in the
    nearest folder above it): tried for real, since permissions say nothing of a read-only
    file system and root passes every permission check."""
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise InputError(
            f"{existing} is a file, so no folder can be made there", file=shown, field=what
        )
    try:
        fd, probe = tempfile.mkstemp(prefix=".puzzlesat-probe.", dir=existing)
    except OSError as error:
        raise InputError(
            f"cannot write in {existing}: {error.strerror}", file=shown, field=what
        ) from None
    os.close(fd)
    os.unlink(probe)


def write_text_atomic(path: str | Path, text: str | bytes, what: str = "output") -> str:
    """Write a file (text, or bytes such as a PNG picture) so readers see the old or the new
    content, never half of it.

    Only a regular file (or a new path) is ever replaced: see `target` for links, devices and
    pipes. Returns a note on how it was written ('' for a plain file); InputError when it
    cannot be written, naming the path.
    """
    found = target(path, what)
    try:
        if found.kind in WRITTEN_IN_PLACE:
            _write_in_place(found, text)
        else:
            _replace_atomically(found.path, text)
    except OSError as error:
        raise InputError(
            f"cannot write: {error.strerror or error}", file=str(path), field=what
        ) from None
    return found.note


def _write_in_place(found: Target, text: str | bytes) -> None:
    flags = os.O_WRONLY | (os.O_NONBLOCK if found.kind == "pipe" else 0)
    try:
        fd = os.open(found.path, flags)
    except OSError as error:
        if error.errno == errno.ENXIO:  # a pipe that no process reads
            raise OSError(error.errno, "a pipe with no reader") from None
        raise
    if found.kind == "pipe":
        os.set_blocking(fd, True)
    with os.fdopen(fd, "wb") as out:
        out.write(text if isinstance(text, bytes) else text.encode("utf-8"))


def _replace_atomically(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        try:  # a file replaced keeps its permissions; a new one gets the usual ones
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()  # mkstemp makes files private; results are not
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Export formats made of several files (one per piece...): written to a folder, or a .zip file.
FILE_SETS = ("stl",)


def check_export(output: str, fmt: str, force: bool = False) -> None:
    """Before the work starts: InputError naming the path where an export cannot be written
    (or would replace a file, without `force`)."""
    if fmt in FILE_SETS and not str(output).lower().endswith(".zip"):
        if output == STDOUT:
            raise InputError(f"{fmt} files cannot go to standard output: give a folder or a "
                             ".zip file", field="output")
        check_folder(output, "output", force)
    else:
        check_output(output, force=force)


def zipped(files: dict[str, bytes]) -> bytes:
    """Files (name -> content) as one zip archive."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def write_files(output: str, files: dict[str, bytes], summary: str) -> None:
    """Write a set of files: one zip archive where the output ends in .zip, else a folder
    holding them (made where missing; only the files of the set are replaced), each atomically."""
    if str(output).lower().endswith(".zip"):
        found = target(output, "output")
        try:
            _replace_atomically(found.path, zipped(files))
        except OSError as error:
            raise InputError(f"cannot write: {error.strerror or error}", file=str(output),
                             field="output") from None
        say(f"wrote {output}: {summary}, {plural(len(files), 'file')} in a zip archive")
        return
    folder = check_folder(output, "output")
    for name, data in files.items():
        try:
            _replace_atomically(folder / name, data)
        except OSError as error:
            raise InputError(f"cannot write: {error.strerror or error}", file=str(folder / name),
                             field="output") from None
    say(f"wrote {plural(len(files), 'file')} to {folder}/: {summary}")


def write_export(output: str, text: str | dict[str, bytes], summary: str) -> None:
    """Write an exported file (or to stdout for '-'), or a set of files (see write_files),
    saying what was written."""
    if isinstance(text, dict):
        write_files(output, text, summary)
        return
    if output == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    note = write_text_atomic(output, text, "output")
    say(f"wrote {output}: {summary}" + (f" ({note})" if note else ""))


def write_verified(folder: str | Path, name: str, result: dict) -> Path:
    """Stamp a verified result (library versions, machine, date), write it, rebuild the index.

    A fuller record of the same puzzle (a larger sample, more cubes or plans, complete where
    this one is not) is never replaced: InputError, and the result is printed instead. When
    the file cannot be written (after what may have been a long count), the result is printed
    to standard output rather than lost, and the InputError says so.
    """
    result = {**result, "versions": versions(), "machine": machine(), "date": now()}
    path = Path(folder) / f"{name}.json"
    try:
        check_folder(folder)
        refuse_smaller_record(path, result)
        write_json_atomic(path, result, "results")
    except InputError as error:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        sys.stdout.flush()
        raise InputError(
            f"{error.message}; the result was printed to standard output instead",
            file=error.file, line=error.line, field=error.field,
        ) from None
    write_results_index(Path(folder))
    return path


def record_size(record: dict) -> tuple[int, ...]:
    """How much evidence a verified record holds, to compare two records of one puzzle: its
    sample's size, its cubes, its plans, its complete runs (a record without a sample is a
    whole run and counts as the largest sample)."""
    sample = record.get("sample")
    size = sample.get("size", 0) if isinstance(sample, dict) else (1 << 62)
    listed = [len(record[key]) if isinstance(record.get(key), list) else 0
              for key in ("cubes", "plans")]
    complete = sum(1 for run in record.get("runs") or () if isinstance(run, dict)
                   and run.get("complete", True))
    return (size, *listed, complete)


def refuse_smaller_record(path: Path, result: dict) -> None:
    """InputError if the record at `path` holds more evidence than `result` in some respect
    and no more in any (a sample must not replace the fuller run it samples)."""
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(old, dict):
        return
    before, after = record_size(old), record_size(result)
    if any(b > a for b, a in zip(before, after)) and not any(
            a > b for b, a in zip(before, after)):
        raise InputError(
            f"holds a fuller record than this run ({_describe(old)} against {_describe(result)}):"
            " not replaced; record this one in another folder",
            file=str(path), field="results")


def _describe(record: dict) -> str:
    sample = record.get("sample")
    if isinstance(sample, dict):
        return f"a sample of {sample.get('size')}"
    for key in ("cubes", "plans"):
        if isinstance(record.get(key), list):
            return f"{len(record[key])} {key}"
    return f"{sum(1 for r in record.get('runs') or () if r.get('complete', True))} complete runs"


def add_record_arguments(command, what: str) -> None:
    """--record and --results DIR on a command that can record evidence (verify, bench, the
    family benches): without either it writes nothing under results/."""
    command.add_argument("--record", action="store_true",
                         help=f"record {what} under results/ (or --results DIR)")
    command.add_argument("--results", default=None, metavar="DIR",
                         help="record in DIR instead of results/ (implies --record)")


def record_folder(args) -> Path | None:
    """The folder a command records its evidence in, checked before the work; None: asked not
    to record."""
    folder = getattr(args, "results", None)
    if not getattr(args, "record", False) and folder is None:
        return None
    return check_folder("results" if folder is None else folder)


def write_if_changed(path: Path, text: str, what: str) -> bool:
    """Write a generated index (the catalog's summaries, the verbs, the flags' values) where its
    text changed; whether it did."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    write_text_atomic(path, text, what)
    return True


def write_json_atomic(path: str | Path, obj: object, what: str = "output") -> str:
    return write_text_atomic(path, json.dumps(obj, indent=2, sort_keys=False) + "\n", what)


def json_line(obj: object) -> str:
    return json.dumps(obj, sort_keys=False)


def versions() -> dict[str, str]:
    """The versions of Python and of the libraries a result depends on."""
    from importlib import metadata

    found = {"python": platform.python_version()}
    for package in ("puzzlesat", "ortools", "python-sat", "numba"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), recorded beside every timing."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return ""


def machine() -> dict[str, object]:
    return {"cores": os.cpu_count(), "platform": platform.platform()}


def now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def say(message: str) -> None:
    """A line for the person at the terminal (on stderr, so --json output stays clean)."""
    print(message, file=sys.stderr)


INDEX = "index.md"  # results/index.md: every results file, generated (never edited by hand)


def write_results_index(folder: Path) -> None:
    """results/index.md, rebuilt from the folder's files."""
    write_text_atomic(folder / INDEX, results_index(folder), "results")


def results_index(folder: Path) -> str:
    """The index of a results folder: every file and folder in it with what it holds (the
    figures of each verified count), and where a count differs from a published figure."""
    rows, notes = [], []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name == INDEX or path.name.startswith("."):
            continue
        what, figures = _index_entry(path)
        name = path.name + ("/" if path.is_dir() else "")
        link = f"[{name}]({name})"
        rows.append(f"| {link} | {what} | {figures} |")
        if path.suffix == ".json":
            notes += _differences(_read_json(path))
    lines = [
        "# Index of results",
        "",
        "Generated by `puzzlesat results` (and rebuilt by every `--record`): every file of this",
        "folder and what it holds. Do not edit by hand; the narrative is [README.md](README.md).",
        "",
        "`count`: every solution (packing: rotations and reflections of a solution count as",
        "different; edge matching: distinct grids, identical tiles interchangeable; moves",
        "puzzles: positions); `classes`: under the board's symmetries. Each JSON file's",
        "`counted` says exactly what, and names the machine, load, versions and date.",
        "",
        "| file | what | figures |",
        "|---|---|---|",
        *rows,
    ]
    if notes:
        lines += ["", "## Where we differ from published figures", "", *notes]
    return "\n".join(lines) + "\n"


def _read_json(path: Path) -> dict:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


# What a results file is, by its name's ending (JSON files say more of themselves).
_KIND_BY_SUFFIX = {".md": "report", ".csv": "benchmark rows", ".png": "chart",
                   ".svg": "chart", ".checkpoint": "checkpoint of a count (`count --checkpoint`)"}
_FOLDERS = {"gallery": "galleries of solutions (`puzzlesat results`)",
            "play": "playable pages and their screenshots (`puzzlesat results`)",
            "cards": "least cards of packing puzzles (`puzzlesat cards --record`)",
            "booklets": "booklets of graded cards, printable and playable (`puzzlesat results`)",
            "open-counts": "exact counts of open boards: their checkpoints (`count --checkpoint`), "
                           "sampled cubes (`verify --sample-cubes`) and their cubes recounted "
                           "(`campaign --check`)"}


def _index_entry(path: Path) -> tuple[str, str]:
    if path.is_dir():
        files = sum(1 for p in path.rglob("*") if p.is_file())
        return _FOLDERS.get(path.name, "folder"), plural(files, "file")
    if path.name == "README.md":
        return "the narrative: what we found and how we know", ""
    if path.suffix != ".json":
        return _KIND_BY_SUFFIX.get(path.suffix, "file"), ""
    record = _read_json(path)
    if "bench" in path.stem or "estimates" in path.stem:
        return "benchmark", _dated(record)
    if isinstance(record.get("cubes"), list) and "checkpoint" in record:
        from .campaign import checked_words

        return "a finished count's own cubes recounted (`campaign --check`)", checked_words(record)
    if isinstance(record.get("cubes"), list):
        agree = "all agree" if record.get("agree") else "DISAGREE"
        return ("sampled cubes of a count (`verify --sample-cubes`)",
                f"{plural(len(record['cubes']), 'cube')}, {', '.join(record.get('backends', []))}: "
                f"{agree}")
    what, record = _counted_record(record)
    return what, "; ".join(_record_figures(record)) or _dated(record)


def _counted_record(record: dict) -> tuple[str, dict]:
    """What a recorded count is, and the record whose figures the index shows."""
    if isinstance(record.get("count"), dict):  # `count --json` kept with its evidence
        record = {**record["count"], "runs": None}
        if "solutions" in record:  # the count is then its classes, shown as such
            record.pop("count")
        return "a count with its evidence (`count --json`)", record
    if any(key in record for key in ("runs", "plans", "checks")):
        return "verified count (`verify`)", record
    return "a count and its conventions", record


def _record_figures(record: dict) -> list[str]:
    """A recorded count's figures, each once (a key kept under its old name too, once)."""
    figures = []
    for key, label in (("count", "count"), ("solutions", "solutions"),
                       ("grids_counted", "grids"), ("positions", "positions")):
        if isinstance(record.get(key), int) and not (key != "count" and "count" in record
                                                     and record[key] == record["count"]):
            figures.append(f"{label} {record[key]:,}")
    classes = record.get("classes", record.get("rotation_classes"))
    if isinstance(classes, int):
        figures.append(f"classes {classes:,}")
    gods = next((record[k] for k in ("gods_number", "hardest_distance")
                 if isinstance(record.get(k), int)), None)
    if gods is not None:
        figures.append(f"God's number {gods}")
    if record.get("runs"):
        backends = dict.fromkeys(r.get("backend") for r in record["runs"] if isinstance(r, dict))
        figures.append("backends " + ", ".join(str(b) for b in backends))
    elif isinstance(record.get("backend"), str):
        figures.append(f"backend {record['backend']}")
    return figures


def _dated(record: dict) -> str:
    return str(record.get("date", ""))[:10]


def _differences(result: dict) -> list[str]:
    notes = []
    for key, agrees in (result.get("published_agrees") or {}).items():
        published = (result.get("published") or {}).get(key)
        ours = result.get("count" if key in ("solutions", "count") else key)
        if not agrees and isinstance(published, int) and isinstance(ours, int):
            notes.append(
                f"- **{result['puzzle']}**: published {key} {published:,}, computed {ours:,} "
                f"(every backend agrees). {result['published'].get('note', '')}")
    return notes
