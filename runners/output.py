"""Shared output: atomic results files, library versions, JSON lines, progress bars."""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
from contextlib import contextmanager
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from tqdm import tqdm


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write a file so readers see the old or the new content, never half of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes files private; results are not
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_export(output: str, text: str, summary: str) -> None:
    """Write an exported file (or to stdout for '-'), saying what was written."""
    if output == "-":
        sys.stdout.write(text)
    else:
        write_text_atomic(output, text)
        say(f"wrote {output}: {summary}")


def write_verified(folder: str | Path, name: str, result: dict) -> Path:
    """Stamp a verified result (library versions, machine, date), write it, rebuild the index."""
    result = {**result, "versions": versions(), "machine": machine(), "date": now()}
    path = Path(folder) / f"{name}.json"
    write_json_atomic(path, result)
    write_results_readme(Path(folder))
    return path


def write_json_atomic(path: str | Path, obj: object) -> None:
    write_text_atomic(path, json.dumps(obj, indent=2, sort_keys=False) + "\n")


def json_line(obj: object) -> str:
    return json.dumps(obj, sort_keys=False)


def versions() -> dict[str, str]:
    """The versions of Python and of the libraries a result depends on."""
    found = {"python": platform.python_version()}
    for package in ("puzzlesat", "ortools", "python-sat"):
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


@contextmanager
def progress_bar(total: int, what: str):
    """A progress bar over `total` units of work showing the running count; silent off a terminal.

    Yields a function (done, count) to call as work completes.
    """
    bar = tqdm(total=total, desc=what, unit="cube", file=sys.stderr, disable=None, leave=False)

    def update(done: int, count: int) -> None:
        bar.update(done - bar.n)
        bar.set_postfix_str(f"{count:,} so far", refresh=False)

    try:
        yield update
    finally:
        bar.close()


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


class BenchRun:
    """One timed run for the bench command: seconds, whether it finished, and what it found."""

    def __init__(self, seconds: float, complete: bool, what: str) -> None:
        self.seconds = seconds
        self.complete = complete
        self.what = what


def write_results_readme(folder: Path) -> None:
    """results/README.md: a table of the verified counts in the folder, rebuilt from its JSON."""
    rows, notes = [], []
    for path in sorted(folder.glob("*.json")):
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(result, dict) or "count" not in result or "runs" not in result:
            continue
        seconds: dict[str, list[str]] = {}
        for run in result["runs"]:
            label = f"{run['seconds']:.2f}" + ("" if run.get("complete", True) else " (incomplete)")
            seconds.setdefault(run["backend"], []).append(label)
        timing = "; ".join(f"{b} {' / '.join(s)}" for b, s in seconds.items())
        classes = result.get("classes", result.get("rotation_classes"))
        rows.append(
            f"| [{result['puzzle']}]({path.name}) | {result['count']:,} | "
            f"{'-' if classes is None else f'{classes:,}'} | {timing} |"
        )
        for key, agrees in (result.get("published_agrees") or {}).items():
            if not agrees:
                notes.append(
                    f"- **{result['puzzle']}**: published {key} {result['published'][key]:,}, "
                    f"computed {result['count' if key in ('solutions', 'count') else key]:,} "
                    f"(every backend agrees). {result['published'].get('note', '')}"
                )
    lines = [
        "# Results",
        "",
        "Generated by `puzzlesat verify PUZZLE` (one JSON file per puzzle, with the counts of",
        "every backend, library versions and the date) and `puzzlesat bench` (`bench.csv`).",
        "Do not edit by hand.",
        "",
        "`count`: every solution (for packing puzzles: rotations and reflections of a solution",
        "count as different; for edge-matching: distinct grids, identical tiles interchangeable;",
        "each JSON file's `counted` says). `classes`: solutions up to the board's symmetries",
        "(packing: rotations and reflections; edge-matching: turning the whole board).",
        "Seconds: per backend; for packing puzzles the count without / with symmetry reduction",
        "(a count stopped by verify's time limit is marked incomplete: a lower bound), on the",
        "machine named in each JSON file.",
        "",
        "| puzzle | count | classes | seconds per backend (plain / reduced) |",
        "|---|---:|---:|---|",
        *rows,
    ]
    if notes:
        lines += ["", "## Where we differ from published figures", "", *notes]
    write_text_atomic(folder / "README.md", "\n".join(lines) + "\n")


def check_folder(folder: str | Path) -> None:
    """Refuse, before any work, a results folder that cannot be written."""
    from .models.errors import InputError

    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise InputError("is not a folder", file=str(path), field="--results")
    probe = path if path.exists() else next((p for p in path.parents if p.exists()), Path("."))
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InputError("cannot be written", file=str(path), field="--results")


def check_output(output: str) -> None:
    """Refuse, before any work, an output path that cannot be written."""
    from .models.errors import InputError

    if output == "-":
        return
    path = Path(output)
    if path.is_dir():
        raise InputError("is a directory", file=output, field="--output")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError("its folder does not exist", file=output, field="--output")
