"""A campaign of first counts: the open boards the estimates put within reach, counted with
`--modulo symmetry` one after another, each count's checkpoint kept in the campaign's folder
(results/open-counts/, or the folder named); where the campaign stands (what is counted, what
stopped midway, what runs next and its estimate), and the check every finished count needs
before it is called new: cubes of its own plan, drawn at random (seeded), recounted whole by
two methods that share no search or symmetry code with the bitboard search.

A checkpoint names its count's work (the puzzle's data, the modulo, the backend, the cubes asked
for and a digest of the cubes); the plan is rebuilt from those and checked against the digest,
so that a cube's index means the same cube it meant when it was counted. A cube of the plan
holds placements of the board (one piece held to one placement per orbit, then the first empty
cell's placements): its recorded number is every solution holding them (no symmetry inside a
cube; the orbit's weight multiplies it in the total), which is what another method counts of the
board with those pieces placed.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .checkpoint import Checkpoint, digest
from .models.errors import InputError
from .models.words import plural

FOLDER_ENV = "PUZZLESAT_CAMPAIGN"  # the campaign's folder where --folder is not given
DEFAULT_FOLDER = Path("results") / "open-counts"
ESTIMATES = Path("results") / "open-boards-estimates.json"
MODULO, BACKEND = "symmetry", "bitboard"  # how a campaign counts
HOURS = 24.0  # within reach: the estimate with --modulo symmetry under this many CPU hours
ORDERS = ("savings", "hours")  # largest |G| first (what symmetry saves), or the least estimate
CHECK_BACKENDS = ("xcover", "cpsat")  # no code shared with the bitboard search or its symmetry
CHECK_SUFFIX = "-cube-check.json"
SAMPLED_SUFFIX = "-sample-cubes.json"  # `verify --sample-cubes --record`
CHECKS_PAGE = "checks.md"
Say = Callable[[str], None]


def folder_of(given: str | os.PathLike | None = None) -> Path:
    """The campaign's folder: the one given, else $PUZZLESAT_CAMPAIGN, else results/open-counts."""
    chosen = Path(given or os.environ.get(FOLDER_ENV) or DEFAULT_FOLDER)
    try:
        taken = chosen.exists() and not chosen.is_dir()
    except OSError as error:  # a name no folder can have (too long)
        raise InputError(f"cannot be a folder: {error.strerror}", file=str(chosen)[:200],
                         field="folder") from None
    if taken:
        raise InputError("is not a folder", file=str(chosen), field="folder")
    return chosen


@dataclass(frozen=True)
class Estimate:
    """Knuth's estimate of an open board (`puzzlesat estimate --open`): its symmetries, and the
    CPU hours of a plain count and of one with --modulo symmetry."""

    board: str
    symmetries: int
    plain_hours: float
    hours: float


def estimates(path: str | os.PathLike | None = None) -> dict[str, Estimate]:
    """The estimates of the open boards, by board (`estimate --open --record` writes them)."""
    source = Path(path or ESTIMATES)
    try:
        rows = json.loads(source.read_text(encoding="utf-8"))["boards"]
        return {r["puzzle"]: Estimate(r["puzzle"], int(r["symmetries"]),
                                      float(r["count_cpu_hours"]),
                                      float(r["reduced_count_cpu_hours"])) for r in rows}
    except FileNotFoundError:
        raise InputError("no such file (an estimate of the open boards writes it where it is "
                         "asked to record its figures)",
                         file=str(source), field="estimates") from None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InputError(f"not the estimates of the open boards ({error})", file=str(source),
                         field="estimates") from None


def ordered(found: list[Estimate], order: str) -> list[Estimate]:
    """The order a campaign counts in: 'savings', the boards symmetry cuts most first (largest
    |G|), the least estimate first among equals; 'hours', the least estimate first."""
    if order not in ORDERS:
        raise InputError(f"is one of {', '.join(ORDERS)}, not {order!r}", field="order")
    if order == "hours":
        return sorted(found, key=lambda e: (e.hours, e.board))
    return sorted(found, key=lambda e: (-e.symmetries, e.hours, e.board))


@dataclass
class Board:
    """Where one board of the campaign stands. state: 'counted' (every cube of its plan in the
    checkpoint), 'incomplete' (some), 'not started' (no checkpoint), 'other work' (a checkpoint
    written for other data or another plan: not this campaign's count), 'unreadable' (damaged,
    or not a checkpoint)."""

    name: str
    estimate: Estimate | None
    state: str
    checkpoint: Path
    cubes_done: int = 0
    cubes: int = 0
    seconds: float = 0.0  # the recorded cubes' and parts' seconds on their workers
    solutions: int | None = None
    classes: int | None = None
    symmetric: int | None = None  # solutions fixed by some symmetry (Burnside's fixed points)
    check: dict | None = None  # the check of its cubes, where one was recorded

    def row(self) -> dict[str, object]:
        """The board as plain data (for --json and the recorded page)."""
        found = {k: v for k, v in dataclasses.asdict(self).items()
                 if k not in ("estimate", "check", "checkpoint")}
        found["checkpoint"] = self.checkpoint.name
        if self.estimate:
            found["estimated_hours"] = self.estimate.hours
            found["group_order"] = self.estimate.symmetries
        found["checked"] = checked_words(self.check)
        return found


def recorded_plan(puzzle, saved: Checkpoint):
    """The count plan a checkpoint was written for (models/packing/plan.py), rebuilt and checked
    against the checkpoint's digests; an InputError where the puzzle's data or its plan differ
    (the cubes' indexes would mean other cubes)."""
    from .models.packing.plan import count_plan

    key, where = saved.key or {}, str(saved.path)
    if key.get("data") != digest(puzzle):
        raise InputError(f"written for other data of {puzzle.name} (the board or its pieces "
                         "changed since)", file=where, line=1, field="checkpoint")
    if key.get("backend") != BACKEND or not isinstance(key.get("split"), int):
        raise InputError(f"not a count by {BACKEND} in cubes: {key.get('backend')!r}",
                         file=where, line=1, field="checkpoint")
    plan = count_plan(puzzle, key.get("modulo", "none"), min_cubes=key["split"])
    if digest([[t.label, t.cubes] for t in plan.tasks]) != key.get("cubes"):
        raise InputError("its cubes are not those this version plans (the plan changed since)",
                         file=where, line=1, field="checkpoint")
    return plan


@dataclass(frozen=True)
class Recorded:
    """A count's cubes as its checkpoint finished them: a cube recorded whole, or split while
    counting and recorded by parts that cover it (its number their sum, its seconds theirs)."""

    values: dict[tuple[str, int], tuple[int, ...]]
    seconds: dict[tuple[str, int], float]

    def number(self, label: str, cube: int) -> int:
        """A finished cube's solutions (its first number)."""
        return self.values[(label, cube)][0]


def recorded_cubes(puzzle, plan, saved: Checkpoint) -> Recorded:
    """The cubes of `plan` the checkpoint finished. A split cube's parts are rebuilt by the
    same splits as the count made them (splitting.resumed): it is finished only where every
    part of it is, so a cube some of whose parts are missing stays unfinished."""
    from . import splitting
    from .executors import Work
    from .registry import backend as backend_named
    from .registry import family_of

    chosen = backend_named(BACKEND)
    values, seconds = {}, {}
    for task in plan.tasks:
        cubes = range(len(task.cubes))
        split = any((task.label, i) in saved.parts for i in cubes)
        # the model is encoded only to split cubes again (the splits need it)
        payload = (chosen.payload(family_of(puzzle).encode(puzzle, chosen, task.options))
                   if split else None)
        parts = splitting.resumed(Work(task.label, chosen.name, payload, task.cubes), saved,
                                  chosen)
        numbers, finished, times, _ = splitting.cube_tallies(parts)
        for i in cubes:
            if finished[i] and numbers[i] is not None:
                values[(task.label, i)] = tuple(numbers[i])
                if times[i] is not None:
                    seconds[(task.label, i)] = times[i]
    return Recorded(values, seconds)


def board_state(name: str, folder: Path, estimate: Estimate | None = None) -> Board:
    """Where a board stands in the campaign's folder (its checkpoint, and its check)."""
    from .models import files

    path = folder / f"{name}.checkpoint"
    found = Board(name, estimate, "not started", path, check=read_check(folder, name))
    if not path.exists():
        return found
    try:
        saved = Checkpoint(path, None)
    except InputError:  # damaged, or not a checkpoint: said, not fatal to the survey
        found.state = "unreadable"
        return found
    try:
        puzzle = files.load(name)
        plan = recorded_plan(puzzle, saved)
        finished = recorded_cubes(puzzle, plan, saved)
    except InputError:  # another version's plan, or parts its splits do not make
        found.state = "other work"
        return found
    found.cubes = sum(len(t.cubes) for t in plan.tasks)
    found.cubes_done = len(finished.values)
    found.seconds = sum(saved.seconds.values()) + sum(saved.part_seconds.values())
    if found.cubes_done < found.cubes:
        found.state = "incomplete"
        return found
    found.state = "counted"
    counts = [[finished.number(t.label, i) for i in range(len(t.cubes))] for t in plan.tasks]
    found.solutions, found.classes = plan.combine(counts)
    found.symmetric = sum(sum(c) for c in counts[1:])
    return found


@dataclass
class Campaign:
    """The boards within reach (in the campaign's order) and any other board the folder holds a
    checkpoint of; `next` is the board a run counts next."""

    folder: Path
    hours: float
    order: str
    boards: list[Board] = field(default_factory=list)
    estimates: str | None = None  # the estimates' file where not the default

    def command(self) -> str:
        """The command that continues this campaign (`--run --record`), with the folder,
        estimates, hours and order it was surveyed with where they are not the defaults, so
        that following it runs the board it names."""
        import shlex

        given = {"--folder": None if self.folder == DEFAULT_FOLDER else str(self.folder),
                 "--estimates": self.estimates,
                 "--hours": None if self.hours == HOURS else repr(float(self.hours)),
                 "--order": None if self.order == ORDERS[0] else self.order}
        words = ["puzzlesat", "campaign"]
        for flag, value in given.items():
            if value is not None:  # a value that starts with '-' is joined to its flag
                words += [f"{flag}={value}"] if value.startswith("-") else [flag, value]
        return shlex.join([*words, "--run", "--record"])

    @property
    def next(self) -> Board | None:
        """The board to count next: one stopped midway first (it resumes), else the first not
        started, in the campaign's order."""
        for state in ("incomplete", "not started"):
            for board in self.boards:
                if board.state == state and (state == "incomplete" or self.within(board)):
                    return board
        return None

    def within(self, board: Board) -> bool:
        return board.estimate is not None and board.estimate.hours <= self.hours


def survey(folder: Path, hours: float = HOURS, order: str = "savings",
           estimates_path: str | os.PathLike | None = None) -> Campaign:
    """Where the campaign stands: every board within `hours` of CPU by the estimate, and every
    board the folder holds a checkpoint of."""
    known = estimates(estimates_path)
    reach = ordered([e for e in known.values() if e.hours <= hours], order)
    names = [e.board for e in reach]
    if folder.is_dir():
        names += sorted(p.name.removesuffix(".checkpoint") for p in folder.glob("*.checkpoint")
                        if p.name.removesuffix(".checkpoint") not in names)
    campaign = Campaign(folder, hours, order,
                        estimates=None if estimates_path is None else str(estimates_path))
    campaign.boards = [board_state(n, folder, known.get(n)) for n in names]
    return campaign


# --- the check of a finished count: its own cubes, recounted by two other methods ---

@dataclass(frozen=True)
class CheckPlan:
    """What a check draws: cubes holding solutions and empty ones, at random (seed) among the
    cheapest of each kind by their recorded seconds (`pool` of them: the other methods take
    several times the bitboard search's time, CP-SAT far more), each counted by each backend
    within `time_limit` seconds."""

    with_solutions: int = 2
    empty: int = 1
    pool: int = 4
    seed: int = 1
    backends: tuple[str, ...] = CHECK_BACKENDS
    time_limit: float = 600.0
    # a drawn cube holding more solutions than this is checked on a part of it (`descended`);
    # None: whole cubes
    most: int | None = None


def draw_cubes(finished: Recorded, label: str, cubes: int, plan: CheckPlan) -> list[int]:
    """The cubes a check counts (indexes into the work's cubes): drawn at random with the plan's
    seed among the `pool` cheapest cubes with solutions, and likewise among the empty ones; those
    with solutions first, each kind the cheapest first."""
    rng = random.Random(plan.seed)
    timed = sorted(range(cubes),
                   key=lambda i: (finished.seconds.get((label, i), float("inf")), i))
    chosen = []
    for wanted, holds in ((plan.with_solutions, True), (plan.empty, False)):
        kind = [i for i in timed if (finished.number(label, i) > 0) == holds]
        pool = kind[:max(plan.pool, wanted)]
        drawn = set(rng.sample(pool, min(wanted, len(pool))))
        chosen += [i for i in pool if i in drawn]  # the cheapest first: evidence comes soonest
    return chosen


def cube_puzzle(puzzle, options, cube: tuple[int, ...], number: int):
    """The board with a cube's placements pre-placed (a challenge): its solutions are the
    cube's. A cube's entries are 1-based placement indexes (negative: forbidden; the plans
    this reads make none)."""
    from .cards import card_puzzle
    from .models.packing import Placed

    if any(k < 0 for k in cube):
        raise InputError("a cube that forbids placements cannot be counted as a challenge",
                         field="cube")
    held = [Placed(options[k - 1].piece, options[k - 1].cells) for k in cube]
    return card_puzzle(puzzle, held, f"{puzzle.name}-cube-{number}")


def counted_checkpoint(folder: Path, name: str) -> Path:
    """The checkpoint of a board to check; an InputError naming the board where the folder
    holds none (asked before anything slow, so a mistyped name is said at once)."""
    path = folder / f"{name}.checkpoint"
    if not path.exists():
        raise InputError(f"{name}: no checkpoint of this board in the campaign's folder "
                         f"({path}): nothing counted to check", field="board")
    return path


def check_count(name: str, folder: Path, plan: CheckPlan = CheckPlan(), jobs: int = 1,
                say: Say | None = None, previous: dict | None = None) -> dict:
    """Check a finished count of the campaign on cubes of its own plan: each drawn cube counted
    again, every solution in it (no symmetry), by each backend of `plan`, and compared with the
    number the checkpoint holds. A count a backend did not finish is a lower bound: above the
    recorded number it disagrees, otherwise it is 'unfinished' (no evidence either way). The
    record says what was drawn, how, and each count's seconds. `previous`: an earlier record of
    this check (the same seed and draw): the counts it finished are kept, only the others are
    counted again (a longer time limit finishes what a short one left)."""
    from . import api
    from .models import files
    from .models.packing import placements
    from .output import load, versions

    path = counted_checkpoint(folder, name)
    puzzle = files.load(name)
    saved = Checkpoint(path, None)
    count_plan = recorded_plan(puzzle, saved)
    task = count_plan.tasks[0]
    finished = recorded_cubes(puzzle, count_plan, saved)
    missing = [i for i in range(len(task.cubes)) if (task.label, i) not in finished.values]
    if missing:
        raise InputError(f"the count is not finished ({len(missing)} of "
                         f"{plural(len(task.cubes), 'cube')} left): check it when it is",
                         file=str(path), field="checkpoint")
    options = placements(puzzle)
    rows, began = [], time.time()
    for number, i in enumerate(draw_cubes(finished, task.label, len(task.cubes), plan),
                               start=1):
        recorded = finished.number(task.label, i)
        row: dict[str, object] = {
            "cube": i, "placements": len(task.cubes[i]),
            "placed": placed(puzzle, options, task.cubes[i]),
            "recorded": recorded,
            "recorded_seconds": finished.seconds.get((task.label, i)),
        }
        checked, solutions = task.cubes[i], recorded
        if plan.most is not None and recorded > plan.most:
            checked, solutions, row["steps"] = descended(puzzle, task, checked, recorded, plan)
            row["part"] = {"added": list(checked[len(task.cubes[i]):]), "solutions": solutions,
                           "placed": placed(puzzle, options, checked[len(task.cubes[i]):])}
        card = cube_puzzle(puzzle, options, checked, number)
        for backend in plan.backends:
            kept = _finished(previous, i, backend, row.get("part", {}).get("added"))
            if kept:
                row[backend] = {**kept, "earlier": True}  # counted by an earlier pass
                continue
            counted = api.count(card, backend=backend, modulo="none", jobs=jobs,
                                time_limit=plan.time_limit)
            if counted.details.get("interrupted"):  # Ctrl-C: the check stops, nothing recorded
                raise KeyboardInterrupt
            row[backend] = {"solutions": counted.details["solutions"],
                            "complete": counted.complete, "seconds": round(counted.seconds, 1)}
        row["verdict"] = ("DISAGREE" if any(not step["adds_up"] for step in row.get("steps", ()))
                          else verdict(solutions, [row[b] for b in plan.backends]))
        rows.append(row)
        if say:
            part = (f" (its part of {plural(len(checked), 'placement')}, {solutions:,} by the "
                    "bitboard search's split)" if checked is not task.cubes[i] else "")
            say(f"{name} cube {i}: recorded {recorded:,}{part}; " + ", ".join(
                f"{b} {row[b]['solutions']:,}{'' if row[b]['complete'] else ' (unfinished)'} "
                f"in {row[b]['seconds']} s" for b in plan.backends) + f": {row['verdict']}")
    return {
        "puzzle": name, "checkpoint": path.name, "work": task.label,
        "counted": "solutions in each cube: coverings of the board holding the cube's "
        "placements (pre-placed for the other backends), rotations and reflections counted as "
        "different; the checkpoint's number is the same (a cube's orbit weight multiplies it "
        "only in the total)",
        "drawn": f"{plural(plan.with_solutions, 'cube')} with solutions and {plan.empty} empty, "
        "at random "
        f"(seed {plan.seed}) among the {plan.pool} of each kind with the least recorded seconds, "
        f"of the {plural(len(task.cubes), 'cube')} of the work '{task.label}'" + (
            "" if plan.most is None else f"; a cube of more than {plural(plan.most, 'solution')} "
            "checked on a part of it, drawn down the bitboard search's split (each step's "
            "children counted by it add up to the step's number)"),
        "most": plan.most,
        "seed": plan.seed, "backends": list(plan.backends), "time_limit": plan.time_limit,
        "cubes": rows, "agree": all(r["verdict"] == "agree" for r in rows) and bool(rows),
        "disagree": any(r["verdict"] == "DISAGREE" for r in rows),
        "seconds": round(time.time() - began, 1), "date": time.strftime(
            "%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()), "load": load(), **versions(),
    }


def placed(puzzle, options, literals) -> dict[str, list[list[int]]]:
    """A cube's placements (1-based literals) as each piece's cells."""
    return {puzzle.pieces[options[k - 1].piece].name: [list(c) for c in options[k - 1].cells]
            for k in literals}


def descended(puzzle, task, cube: tuple[int, ...], recorded: int, plan: CheckPlan
              ) -> tuple[tuple[int, ...], int, list[dict]]:
    """A part of a cube too large for the other methods: down the bitboard search's split
    (Backend.split: children holding exactly its solutions), each step's children counted by
    the bitboard search (their sum the parent's number, or the step says not) and one with
    solutions drawn (the plan's seed), until the part holds at most plan.most solutions.
    (the part, its solutions, the steps)"""
    import random

    from .registry import backend as backend_named
    from .registry import family_of

    chosen = backend_named("bitboard")
    state = chosen.prepare(chosen.payload(family_of(puzzle).encode(puzzle, chosen,
                                                                   task.options)))
    rng = random.Random(plan.seed)
    steps: list[dict] = []
    while recorded > plan.most:
        children = chosen.split(state, cube) or []
        counts = [chosen.count_cube(state, child, None)[0][0] for child in children]
        steps.append({"placements": len(cube), "children": len(children),
                      "children_solutions": sum(counts), "adds_up": sum(counts) == recorded})
        held = [(child, n) for child, n in zip(children, counts) if n > 0]
        if not steps[-1]["adds_up"] or not held:
            break
        cube, recorded = rng.choice(held)
    return tuple(cube), recorded, steps


def _finished(previous: dict | None, cube: int, backend: str, added: list | None = None
              ) -> dict | None:
    """A backend's finished count of a cube (or of the part of it with the literals `added`)
    in an earlier record of the check, or None."""
    for row in (previous or {}).get("cubes", []):
        part = row.get("part") if isinstance(row, dict) else None
        if isinstance(row, dict) and row.get("cube") == cube and (
                part.get("added") if isinstance(part, dict) else None) == added:
            found = row.get(backend)
            if isinstance(found, dict) and found.get("complete"):
                return found
    return None


def unfinished(check: dict | None) -> bool:
    """Whether a recorded check of this module left some cube unfinished."""
    return bool(check) and "checkpoint" in check and any(
        isinstance(r, dict) and r.get("verdict") == "unfinished" for r in check["cubes"])


def verdict(recorded: int, counts: list[dict]) -> str:
    """'agree' where every backend finished with the recorded number; 'DISAGREE' where one
    finished with another number or, unfinished, found more; else 'unfinished'."""
    if any(c["solutions"] != recorded for c in counts if c["complete"]) or any(
            c["solutions"] > recorded for c in counts):
        return "DISAGREE"
    return "agree" if all(c["complete"] for c in counts) else "unfinished"


def read_check(folder: Path, name: str) -> dict | None:
    """A board's recorded check: this module's, else `verify --sample-cubes`'s (cubes of random
    solutions, counted by the same backends), else None."""
    for suffix in (CHECK_SUFFIX, SAMPLED_SUFFIX):
        try:
            found = json.loads((folder / f"{name}{suffix}").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(found, dict) and isinstance(found.get("cubes"), list):
            return found
    return None


def _verdict_of(row: dict) -> str:
    """A checked cube's verdict (a `verify --sample-cubes` row says only whether it agrees)."""
    return row.get("verdict") or ("agree" if row.get("agree") else "DISAGREE")


def checked_words(check: dict | None) -> str:
    """A check in a few words: 'not checked', or its cubes and what they said."""
    if not check or not isinstance(check.get("cubes"), list):
        return "not checked"
    verdicts = [_verdict_of(r) for r in check["cubes"] if isinstance(r, dict)]
    said = ", ".join(f"{verdicts.count(v)} {v}" for v in ("agree", "unfinished", "DISAGREE")
                     if v in verdicts)
    by = [b for b in check.get("backends", []) if b != BACKEND]
    parts = sum(1 for r in check["cubes"] if isinstance(r, dict) and r.get("part"))
    on = f" ({parts} on a part of the cube)" if parts else ""
    return f"{plural(len(verdicts), 'cube')}{on} by {', '.join(by)}: {said}"


def record_check(folder: Path, record: dict) -> Path:
    """Write a check (atomically) and the folder's page of checks."""
    from .output import write_json_atomic, write_text_atomic

    path = folder / f"{record['puzzle']}{CHECK_SUFFIX}"
    write_json_atomic(path, record, "results")
    write_text_atomic(folder / CHECKS_PAGE, checks_page(folder), "results")
    return path


def checks_page(folder: Path) -> str:
    """checks.md: every recorded check of the folder, cube by cube."""
    lines = ["# Counts of the campaign, checked on their own cubes", "",
             "Written by `puzzlesat campaign --check --record`; do not edit by hand. Each "
             "finished count's checkpoint names its plan; cubes of it are drawn at random "
             "(seeded) and counted again, whole and without symmetry reduction, by methods that "
             "share no search or symmetry code with the bitboard search (xcover: dancing links; "
             "CP-SAT), each on the board with the cube's placements pre-placed. 'unfinished': "
             "a backend ran out of its time limit below the recorded number (no evidence either "
             "way).", ""]
    for path in sorted(folder.glob(f"*{CHECK_SUFFIX}")):
        check = json.loads(path.read_text(encoding="utf-8"))
        backends = check["backends"]
        lines += [f"## {check['puzzle']}", "",
                  f"{check['drawn']}; each backend within {check['time_limit']:g} s; "
                  f"{check['seconds']:g} s in all, {check['date'][:16]} UTC, load "
                  f"{check['load']}. {checked_words(check)}.", "",
                  "| cube | placements | recorded | recorded s | "
                  + " | ".join(backends) + " | verdict |",
                  "|---:|---:|---:|---:|" + "---|" * len(backends) + "---|"]
        for row in check["cubes"]:
            cells = [_count_cell(row[b]) for b in backends]
            seconds = row["recorded_seconds"]
            part = row.get("part")
            recorded = f"{row['recorded']:,}" + (
                f" -> a part of {plural(row['placements'] + len(part['added']), 'placement')}: "
                f"{part['solutions']:,}" if part else "")
            lines.append(f"| {row['cube']} | {row['placements']} | {recorded} | "
                         f"{'-' if seconds is None else f'{seconds:g}'} | "
                         + " | ".join(cells) + f" | {row['verdict']} |")
        lines.append("")
    return "\n".join(lines)


def _count_cell(count: dict) -> str:
    """A backend's count of a cube in checks.md: its number, whether it finished, its seconds."""
    return (f"{count['solutions']:,}{'' if count['complete'] else ' (unfinished)'}, "
            f"{count['seconds']:g} s{' (earlier pass)' if count.get('earlier') else ''}")
