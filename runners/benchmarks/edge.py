"""The edge-matching benchmark as library code: instances, contenders, timed runs, the tables.

Instances: the four Eternity II clue puzzles and Heule's eight em_* boards (from the catalog:
eternity-ii-clue1..4, em-R-B-C), the em_* boards shuffled and turned
under several seeds (their files list the pieces in the order of a solution, unturned), and
planted boards with 17 interior colours (Eternity II's design) from 8 x 8 up, several seeds per
size. Contenders: a backend (by registry name: exec:cadical, race:..., pysat:..., cpsat) and the
model it is given (CNF `placements` or Heule's `compact`, with or without the redundant
at-most-one per cell; CP-SAT `booleans` or `integers`).

Every run is one process of its own (forked; the group is ended at the time limit plus GRACE,
whatever the backend does): it encodes the board, solves, and checks the grid edge by edge
(`check_grid`); a grid that breaks a rule is a failure, not a time. A run may start children of
its own (a race's members, a time-limited PySAT solve). Results: one row per run in
results/edge-bench.csv and medians with their spread over seeds in results/edge-bench.md, both
written atomically once every run is done, with the machine's load average beside the figures;
a benchmark stopped before the end (Ctrl-C, SIGTERM) prints the table of what it measured and
leaves the files as they were (`Stopped`).
"""

from __future__ import annotations

import csv
import io
import os
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import output as report
from ..backends import Backend
from ..children import WorkerDied, run_in_child, start_method
from ..models import files as puzzlefile
from ..models.edge_matching import EdgePuzzle, check_grid, planted
from ..models.edge_matching.encode import encode_cnf, encode_cpsat, grid_of, layout
from ..models.errors import InputError
from ..models.words import plural

CLUES = ("clue1", "clue2", "clue3", "clue4")  # catalog: eternity-ii-clue1 ...
EM_BOARDS = ("em_7_3_6", "em_7_4_8", "em_7_4_9", "em_8_4_5", "em_9_3_5", "em_11_3_4", "em_12_2_4",
             "em_14_7_3")  # Heule's names; in the catalog as em-7-3-6 ...
GRACE = 10.0  # seconds beyond the time limit before a run's process group is ended from here
INTERIOR_COLOURS = 17  # as Eternity II
FIELDS = [
    "date", "group", "board", "seed", "rows", "cols", "contender", "backend", "model",
    "redundant", "status", "seconds", "encode_seconds", "time_limit", "load", "cores",
    "python", "ortools", "python-sat", "solver_versions",
]


@dataclass
class Instance:
    """One board to time: `board` names the family member, `seed` how it was shuffled/made."""

    group: str  # "clue", "em" or "planted"
    board: str
    puzzle: EdgePuzzle
    seed: int | None = None


@dataclass(frozen=True)
class Contender:
    """A backend (registry name) and the model it is given."""

    backend: str
    model: str = "placements"  # CNF: placements, compact; CP-SAT: booleans, integers
    redundant: bool = True  # the at-most-one per cell (CNF only)

    @property
    def label(self) -> str:
        if self.model in ("booleans", "integers"):
            return self.backend if self.model == "booleans" else f"{self.backend} ({self.model})"
        extra = "" if self.redundant else ", no AMO"
        model = "" if self.model == "placements" and self.redundant else f" ({self.model}{extra})"
        return self.backend + model


MODELS = ("placements", "compact", "booleans", "integers")
# What the benchmark runs by default (results/edge-bench.md): every CNF variant through CaDiCaL,
# the other solvers on our default encoding, both CP-SAT models, and a race of two seeds.
DEFAULT_CONTENDERS = (
    "exec:cadical", "exec:cadical+noamo", "exec:cadical+compact", "exec:cadical+compact+noamo",
    "race:exec:cadical*2", "exec:cryptominisat5", "pysat:cadical195", "pysat:glucose4",
    "pysat:kissat404", "cpsat+booleans", "cpsat+integers",
)
TIME_LIMITS = {"clue": 10.0, "em": 10.0, "planted": 60.0}


def contender(text: str) -> Contender:
    """'BACKEND[+MODEL][+noamo]', e.g. 'exec:cadical+compact+noamo' or 'cpsat+integers'."""
    backend, *options = text.split("+")
    model = next((o for o in options if o in MODELS), None)
    unknown = [o for o in options if o not in MODELS and o != "noamo"]
    if not backend or unknown:
        raise InputError(
            f"contender {text!r}: BACKEND[+MODEL][+noamo], MODEL one of {', '.join(MODELS)}",
            field="contender",
        )
    if model is None:
        model = "booleans" if backend.partition(":")[0] == "cpsat" else "placements"
    return Contender(backend, model, "noamo" not in options)


@dataclass
class Run:
    status: str  # "solved", "timeout" or "failed: why"
    seconds: float  # encoding and solving, as a user waits for them
    encode_seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def clue_instances() -> list[Instance]:
    """The four Eternity II clue puzzles (from the catalog), as published."""
    return [Instance("clue", name, puzzlefile.load(f"eternity-ii-{name}")) for name in CLUES]


def em_instances(seeds: Iterable[int] = (1, 2, 3)) -> list[Instance]:
    """Heule's em_R_B_C boards (from the catalog), each shuffled and turned under every seed
    (by planted.shuffle): their files list the pieces in the order of a solution, unturned."""
    found = []
    for name in EM_BOARDS:
        base = puzzlefile.load(name.replace("_", "-"))
        found += [Instance("em", name, planted.shuffle(base, s), s) for s in seeds]
    return found


def planted_instances(
    sizes: Iterable[int] = (8, 9, 10, 11, 12),
    seeds: Iterable[int] = (1, 2, 3),
    interior: int = INTERIOR_COLOURS,
) -> list[Instance]:
    """Planted N x N boards with `interior` interior colours, every seed per size."""
    found = []
    for size in sizes:
        border = border_colours(size)
        for seed in seeds:
            found.append(Instance(
                "planted", f"planted {size}x{size}, {border}+{interior} colours",
                planted.generate(size, border, interior, seed), seed,
            ))
    return found


def border_colours(size: int) -> int:
    """Border colours for a planted board: 3 up to 7 x 7, 4 up to 9 x 9, then 5 (as E2's 16)."""
    return 3 if size <= 7 else 4 if size <= 9 else 5


def encode(puzzle: EdgePuzzle, contender: Contender, takes: str):
    if takes == "cpsat":
        return encode_cpsat(puzzle, variant=contender.model)
    return encode_cnf(puzzle, model=contender.model, redundant=contender.redundant)


def _child(puzzle: EdgePuzzle, contender: Contender, backend: Backend, limit: float) -> Run:
    """One run, in its own process group: encode, solve, check the grid."""
    try:
        start = time.perf_counter()
        model = encode(puzzle, contender, backend.takes)
        encoded = time.perf_counter() - start
        outcome = backend.solve(model, limit - encoded)
        seconds = time.perf_counter() - start
        if outcome.values is None:
            status = "timeout" if not outcome.complete else "failed: no solution found"
        else:
            grid = grid_of(puzzle, layout(puzzle).options, outcome.values)
            why = check_grid(puzzle, grid)
            status = "solved" if why is None else f"failed: wrong grid ({why})"
        return Run(status, seconds, encoded, {"winner": getattr(backend, "winner", "")})
    except Exception as error:  # noqa: BLE001 - reported in the table
        return Run(f"failed: {type(error).__name__}: {error}", 0.0)


def run_one(
    puzzle: EdgePuzzle, contender: Contender, backend: Backend, time_limit: float
) -> Run:
    """A run in a forked process, its group ended if it overstays the limit by GRACE."""
    start = time.perf_counter()
    try:
        answered, run = run_in_child(_child, (puzzle, contender, backend, time_limit),
                                     time_limit + GRACE, label="the run",
                                     method=start_method("fork"), own_group=True,
                                     daemon=False)  # a race or a PySAT solve has children
    except WorkerDied as died:
        return Run(f"failed: {died}", 0.0)
    if not answered:
        return Run("timeout", time.perf_counter() - start, extra={"ended": True})
    if run.status == "solved" and run.seconds > time_limit:
        run.status = "timeout"  # finished, but after the time limit
    return run


def bench(
    instances: list[Instance],
    contenders: list[Contender],
    make: Callable[[str], Backend],
    time_limits: dict[str, float],
    results: Path | None = Path("results"),
    say: Callable[[str], None] = report.say,
    extra_versions: dict[str, str] | None = None,
) -> list[dict]:
    """Run every contender on every instance, then write the tables to `results`. `make`
    builds a backend from its name (the registry's `backend`). A planted series stops for a
    contender at the first size where most of its seeds timed out. Stopped before the end
    (KeyboardInterrupt, as SIGTERM is raised here), it writes nothing and raises `Stopped`
    with the table of the runs it finished."""
    rows: list[dict] = []
    backends = {c.backend: make(c.backend) for c in contenders}
    stopped: dict[Contender, int] = {}  # contender -> the size it timed out on
    versions = {k: v for k, v in report.versions().items() if k in FIELDS}
    try:
        for instance in instances:
            _instance(instance, contenders, backends, time_limits, stopped, versions, rows,
                      say, extra_versions)
    except KeyboardInterrupt:
        raise Stopped(markdown(rows, contenders, time_limits), len(rows)) from None
    if results is not None:
        write(results, rows, contenders, time_limits)
    return rows


class Stopped(KeyboardInterrupt):
    """The benchmark was stopped before its end: `table` holds what it measured (not written)."""

    def __init__(self, table: str, runs: int) -> None:
        super().__init__(f"stopped after {plural(runs, 'run')}; results not written")
        self.table = table
        self.runs = runs


def _instance(instance: Instance, contenders: list[Contender], backends: dict,
              time_limits: dict[str, float], stopped: dict, versions: dict, rows: list[dict],
              say: Callable[[str], None], extra_versions: dict[str, str] | None) -> None:
    """Every contender's run on one instance, appended to `rows`."""
    for contender in contenders:
        backend = backends[contender.backend]
        if (contender.model in ("booleans", "integers")) != (backend.takes == "cpsat"):
            continue
        size = instance.puzzle.rows
        if instance.group == "planted" and stopped.get(contender, size + 1) < size:
            continue
        limit = time_limits[instance.group]
        run = run_one(instance.puzzle, contender, backend, limit)
        say(f"{instance.board} seed {instance.seed} {contender.label}: {run.status} "
            f"{run.seconds:.2f} s")
        rows.append({
            "date": report.now(), "group": instance.group, "board": instance.board,
            "seed": instance.seed, "rows": instance.puzzle.rows, "cols": instance.puzzle.cols,
            "contender": contender.label, "backend": contender.backend,
            "model": contender.model, "redundant": contender.redundant,
            "status": run.status, "seconds": f"{run.seconds:.3f}",
            "encode_seconds": f"{run.encode_seconds:.3f}", "time_limit": limit,
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
            "cores": os.cpu_count(), "solver_versions": " ".join(
                f"{k}={v}" for k, v in (extra_versions or {}).items()),
            **versions,
        })
        if instance.group == "planted":
            timed_out(rows, instance, contender, stopped)


def timed_out(rows: list[dict], instance: Instance, contender: Contender, stopped: dict) -> None:
    """Stop a contender's planted series once most seeds of a size have timed out."""
    mine = [r for r in rows if r["board"] == instance.board and r["contender"] == contender.label]
    if sum(r["status"] != "solved" for r in mine) * 2 > len(mine):
        stopped[contender] = instance.puzzle.rows
    elif stopped.get(contender) == instance.puzzle.rows:
        del stopped[contender]  # a later seed of the same size brought the majority back


def write(results: Path, rows: list[dict], contenders: list[Contender], limits: dict) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    report.write_text_atomic(results / "edge-bench.csv", out.getvalue())
    report.write_text_atomic(results / "edge-bench.md", markdown(rows, contenders, limits))


def summary_cell(runs: list[dict], limit: float) -> str:
    """Median seconds over the runs (a time-out counts as the limit), spread, solved count."""
    if not runs:
        return "-"
    seconds = [float(r["seconds"]) if r["status"] == "solved" else float("inf") for r in runs]
    solved = sum(r["status"] == "solved" for r in runs)
    middle = statistics.median(seconds)
    text = f"{middle:.2f}" if middle != float("inf") else f"> {limit:g}"
    finite = [s for s in seconds if s != float("inf")]
    if len(runs) > 1 and finite:
        high = f"{max(seconds):.2f}" if max(seconds) != float("inf") else f"> {limit:g}"
        text += f" ({min(finite):.2f}–{high}, {solved}/{len(runs)})"
    elif len(runs) > 1:
        text += f" (0/{len(runs)})"
    if any(r["status"].startswith("failed") for r in runs):
        text += " FAILED"
    return text


def largest_within(rows: list[dict], label: str, limit: float) -> str:
    """The largest planted size whose median over seeds is within the limit, for a contender."""
    if not any(r["group"] == "planted" and r["contender"] == label for r in rows):
        return "-"
    best = ""
    for size in sorted({int(r["rows"]) for r in rows if r["group"] == "planted"}):
        runs = [r for r in rows if r["group"] == "planted" and int(r["rows"]) == size
                and r["contender"] == label]
        seconds = [float(r["seconds"]) if r["status"] == "solved" else float("inf") for r in runs]
        if runs and statistics.median(seconds) <= limit:
            best = f"{size}x{size}"
    return best or "none"


def markdown(rows: list[dict], contenders: list[Contender], limits: dict) -> str:
    """Tables per group: a board per line, a contender per column."""
    if not rows:
        return "No instances were run.\n"
    labels = [c.label for c in contenders if any(r["contender"] == c.label for r in rows)]
    loads = [float(r["load"].split()[0]) for r in rows]
    first = rows[0]
    lines = [
        "# Edge-matching benchmark: seconds to find one solution (encoding and solving)",
        "",
        f"{plural(first['cores'], 'core')}, Python {first.get('python')}, OR-Tools "
        f"{first.get('ortools')}, "
        f"python-sat {first.get('python-sat')}, {first.get('solver_versions')}; "
        f"{first['date']} to {rows[-1]['date']}. 1-minute load average during the runs "
        f"{min(loads):.1f} to {max(loads):.1f} (above {first['cores']}, other work shared the "
        "cores: times are then longer than on an idle machine). Each cell: median over seeds "
        "(a time-out counts as above the limit), then (fastest–slowest, solved/runs). Every "
        "run is a process of its own that encodes, solves and checks the grid edge by edge. "
        "`no AMO`: without the at-most-one per cell (implied by the tile counts).",
        "",
    ]
    titles = {
        "clue": "Eternity II clue puzzles (as published)",
        "em": "Heule's em_R_B_C boards (R x R, B border and C interior colours), shuffled and "
        "turned under each seed",
        "planted": "Planted boards (17 interior colours as Eternity II; a contender's series "
        "stops after a size where most seeds timed out)",
    }
    for group, title in titles.items():
        mine = [r for r in rows if r["group"] == group]
        if not mine:
            continue
        lines += [f"## {title}; time limit {limits[group]:g} s", ""]
        lines += ["| board | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
        for board in dict.fromkeys(r["board"] for r in mine):
            cells = [
                summary_cell([r for r in mine if r["board"] == board and r["contender"] == x],
                             limits[group])
                for x in labels
            ]
            lines.append(f"| {board} | " + " | ".join(cells) + " |")
        if group == "planted":
            lines.append(
                "| largest size, median within the limit | "
                + " | ".join(largest_within(rows, x, limits[group]) for x in labels) + " |"
            )
        lines.append("")
    return "\n".join(lines)
