"""Pictures of the whole catalog (issue 42): `draw`, `play` and `gallery` of every catalog
puzzle, each a whole `puzzlesat` process, timed, against the promise that each finishes within
a minute on 2 cores or refuses in one line.

Each command runs in a temporary folder (nothing is left in the working tree), timed as a whole
process (processes.timed), killed at `--timeout`, and held to the minute by processes.judged
(its wall on a quiet machine, else its CPU seconds). A refusal is exit 2 with one error line.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ..models.words import plural
from .processes import QUIET, judged, timed

VERBS = {"draw": "svg", "play": "html", "gallery": "html"}  # verb -> the output's suffix
LIMIT = 60.0  # seconds: the minute


@dataclass
class Run:
    """One command of the sweep: what it printed last, how long it took, and the verdict."""

    puzzle: str
    verb: str
    exit_code: int
    wall: float
    cpu: float
    load: float
    lines: int
    last: str
    verdict: str  # wrote, refused, over, failed


def verdict(exit_code: int, wall: float, cpu: float, load: float, errors: str,
            killed: bool) -> str:
    """wrote / refused (exit 2, one error line) / over (past the minute) / failed (a traceback,
    a kill at the timeout, another exit code, or an error of more than one line)."""
    if killed or "Traceback (most recent call last)" in errors:
        return "failed"
    if judged(wall, cpu, load) > LIMIT:
        return "over"
    if exit_code == 0:
        return "wrote"
    said = [line for line in errors.splitlines() if line.startswith("puzzlesat: error")]
    if exit_code == 2 and len(said) == 1:  # progress lines may come before the refusal
        return "refused"
    return "failed"


def run_one(puzzle: str, verb: str, timeout: float) -> Run:
    """`puzzlesat VERB PUZZLE -o FILE` in a temporary folder, timed and judged."""
    with tempfile.TemporaryDirectory(prefix="puzzlesat-pictures-") as folder:
        done = timed([sys.executable, "-m", "puzzlesat", verb, puzzle, "-o",
                      f"{puzzle}.{VERBS[verb]}"], timeout, cwd=folder)
    # the last line said: the output's where it wrote, the error stream's where it did not
    lines = (done["err"] + done["out"] if done["code"] == 0
             else done["out"] + done["err"]).strip().splitlines()
    return Run(puzzle, verb, done["code"], round(done["wall"], 2), round(done["cpu"], 2),
               round(done["load"], 1), len(lines), lines[-1][:160] if lines else "",
               verdict(done["code"], done["wall"], done["cpu"], done["load"], done["err"],
                       done["killed"]))


def sweep(puzzles: list[str], verbs: list[str], timeout: float,
          say: Callable[[str], None]) -> list[Run]:
    """Every verb of every puzzle, one after another (one at a time: the timings are each
    command's alone)."""
    runs = []
    for puzzle in puzzles:
        for verb in verbs:
            run = run_one(puzzle, verb, timeout)
            say(f"{puzzle} {verb}: {run.verdict}, {run.wall:.1f} s wall, {run.cpu:.1f} CPU s "
                f"(load {run.load:.1f}): {run.last}")
            runs.append(run)
    return runs


def table(runs: list[Run], timeout: float) -> str:
    """The sweep as Markdown: a summary by verb, then every run past 20 s or not written."""
    lines = ["# Pictures of the whole catalog: draw, play, gallery", "",
             f"`puzzlesat bench pictures`; {plural(len(runs), 'command')}, each a whole process "
             f"in a temporary folder, killed at {timeout:.0f} s. The promise (issue 42): each "
             f"finishes within {LIMIT:.0f} s on 2 cores or refuses in one line (exit 2). Judged "
             f"by the wall where the load average was at most {QUIET:.0f} when the command "
             "started, else by its CPU seconds (children included), which bound a quiet "
             "machine's wall.", "",
             "| verb | commands | wrote | refused | over | failed | median CPU s | most CPU s "
             "| load (median) |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for verb in VERBS:
        mine = [r for r in runs if r.verb == verb]
        if not mine:
            continue
        tally = {v: sum(r.verdict == v for r in mine) for v in ("wrote", "refused", "over",
                                                                 "failed")}
        lines.append(f"| {verb} | {len(mine)} | {tally['wrote']} | {tally['refused']} | "
                     f"{tally['over']} | {tally['failed']} | "
                     f"{statistics.median(r.cpu for r in mine):.1f} | "
                     f"{max(r.cpu for r in mine):.1f} | "
                     f"{statistics.median(r.load for r in mine):.1f} |")
    notable = [r for r in runs if r.cpu > 20 or r.verdict != "wrote"]
    if notable:
        lines += ["", "Every command that took over 20 CPU s or did not write its file:", "",
                  "| puzzle | verb | verdict | exit | wall s | CPU s | load | last line |",
                  "|---|---|---|---:|---:|---:|---:|---|"]
        lines += [f"| {r.puzzle} | {r.verb} | {r.verdict} | {r.exit_code} | {r.wall:.1f} | "
                  f"{r.cpu:.1f} | {r.load:.1f} | {r.last.replace('|', '/')} |"
                  for r in notable]
    return "\n".join(lines) + "\n"


def kept(path: Path, runs: list[Run]) -> list[Run]:
    """The recorded runs of the commands this run did not make again (a sweep of a few puzzles
    updates their rows of the whole catalog's table)."""
    import json

    if not path.is_file():
        return []
    made = {(r.puzzle, r.verb) for r in runs}
    return [Run(**r) for r in json.loads(path.read_text(encoding="utf-8"))
            if (r["puzzle"], r["verb"]) not in made]


def bench_pictures(args) -> int:
    """`puzzlesat bench pictures`: the sweep; exit 1 where a command was over or failed; with
    --record (or --results DIR), pictures-sweep.md and .json there."""
    from ..models.files import catalog
    from ..output import record_folder, write_json_atomic, write_text_atomic

    folder = record_folder(args)
    puzzles = args.puzzles or sorted(catalog())
    runs = sweep(puzzles, args.verbs, args.timeout, print)
    if folder is not None:
        path = Path(folder) / "pictures-sweep.md"
        every = kept(path.with_suffix(".json"), runs) + runs
        write_text_atomic(path, table(every, args.timeout), "the sweep's table")
        write_json_atomic(path.with_suffix(".json"), [asdict(r) for r in every], "the sweep")
        print(f"wrote {path} and {path.with_suffix('.json')}")
    bad = [r for r in runs if r.verdict in ("over", "failed")]
    print(f"{plural(len(runs), 'command')}: {len(runs) - len(bad):,} wrote or refused in one "
          f"line, {len(bad):,} over the minute or failed")
    return 1 if bad else 0
