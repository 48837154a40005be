"""Best partial boards of edge-matching puzzles: the most matched seams a search finds, anytime.

    >>> import puzzlesat
    >>> found = puzzlesat.best("eternity-ii", time_limit=60, checkpoint="e2.board")
    >>> found.score, found.most        # (a number, 480)

Every cell is filled under the puzzle's rules (frame, border colour, fixed tiles, the apart
mark); the score is the number of matched seams (models/edge_matching/best.py). The searches,
selectable by name and compared by `puzzlesat best-bench`, are in OPTIMISERS:

- `cpsat`: CP-SAT maximising the matched seams, its parallel workers (large-neighbourhood search
  among them) on `jobs` threads;
- `maxsat:rc2`, `maxsat:rc2s` (stratified), `maxsat:fm`, `maxsat:lsu`: PySAT's MaxSAT solvers on
  the weighted CNF (one soft clause per seam); LSU improves a board step by step, the others
  answer at the end, with an optimum;
- `exec:NAME`: a MaxSAT solver binary reading WCNF (`exec:sat4j`: Debian's sat4j, run by Java);
- `edgesearch`: our compiled search (C, built at install): depth-first with slips (mismatched
  edges) allowed on a depth-dependent budget, restarted with new random orders; on boards of up to
  SMALL_BOARD cells it raises an even budget one by one and so proves its optimum.

Each search runs in a child process of its own (`jobs` copies with different seeds for
edgesearch, one for the others) that sends every better board it finds; this process scores it
again, prints it with the time, and writes it to the checkpoint atomically, so an interrupt or
the time limit keeps the best board, and the same call with the same checkpoint resumes from it.
"""

from __future__ import annotations

import importlib
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

from . import native
from .api import CALLABLE, NAME, PATH, PUZZLE, SECONDS, WHOLE, takes
from .children import Child, cpu_seconds, end, interruptible, receive, start
from .lazy import lazy_module
from .models.edge_matching import EdgePuzzle, Placed
from .models.edge_matching.boardfile import board_json, read_board
from .models.errors import InputError
from .models.words import plural
from .output import now, write_text_atomic

# the boards' scoring (numpy, PySAT) loads when a board is first checked: the command line
# names this module's searches in its help without paying for them
boards = lazy_module("puzzlesat.models.edge_matching.best")

Say = Callable[[str], None]
Report = Callable[[list[Placed], dict], None]  # a child's way to send a better board


@dataclass(frozen=True)
class Optimiser:
    """A search for best boards: `module.entry(report, puzzle, start, time_limit, jobs, seed,
    argument)`, run in a child process; `copies`: one child per job (independent seeds) or one
    child using the jobs as threads."""

    base: str
    module: str
    entry: str
    about: str
    argument: str = ""
    copies: bool = False
    example: str = ""

    def function(self) -> Callable:
        return getattr(importlib.import_module(self.module), self.entry)


OPTIMISERS = (
    Optimiser("edgesearch", "puzzlesat.backends.edgesearch", "run",
              "our compiled depth-first search with slips allowed on a depth-dependent budget "
              "(C)", copies=True),
    Optimiser("cpsat", "puzzlesat.backends.maxsat", "cpsat",
              "CP-SAT maximising matched seams, its workers (neighbourhood search among them) "
              "on the jobs' threads"),
    Optimiser("maxsat", "puzzlesat.backends.maxsat", "maxsat",
              "PySAT's MaxSAT solvers on a weighted CNF", argument="rc2|rc2s|fm|lsu",
              example="maxsat:rc2"),
    Optimiser("exec", "puzzlesat.backends.maxsat", "exec_maxsat",
              "a MaxSAT solver binary reading WCNF", argument="NAME_OR_PATH",
              example="exec:sat4j"),
)
MAXSAT = ("rc2", "rc2s", "fm", "lsu")
# Measured (results/best-bench.md): on Eternity II the compiled search is the one that reaches
# the 400s within a minute; CP-SAT and the MaxSAT solvers prove optima on small boards.
DEFAULT = "edgesearch"
NAMES = "edgesearch, cpsat, maxsat:rc2, maxsat:rc2s, maxsat:fm, maxsat:lsu, exec:NAME_OR_PATH"
POLL = 0.5  # seconds between two looks at the clock while the searches run


def optimiser(name: str | None) -> tuple[Optimiser, str | None]:
    """The search of a name ('maxsat:rc2'), and its argument; InputError for an unknown one."""
    if name is None:
        name = DEFAULT
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a search is needed ({NAMES})", field="backend")
    base, colon, argument = name.strip().partition(":")
    for entry in OPTIMISERS:
        if entry.base == base:
            if entry.argument and not argument:
                raise InputError(f"{base} needs {base}:{entry.argument}, e.g. {entry.example}",
                                 field="backend")
            if colon and not entry.argument:
                raise InputError(f"{base} takes no ':{argument}'", field="backend")
            if base == "maxsat" and argument not in MAXSAT:
                raise InputError(f"unknown PySAT MaxSAT solver {argument!r} (one of "
                                 f"{', '.join(MAXSAT)})", field="backend")
            if base == "exec":
                from .backends.maxsat import exec_command

                exec_command(argument)  # refused here, in one line, where it is not installed
            if base == "edgesearch" and not native.available("edgesearch"):
                raise InputError("edgesearch: the compiled search was not built when puzzlesat "
                                 "was installed (no C compiler was found)", field="backend")
            return entry, argument or None
    raise InputError(f"unknown search {base!r} for best boards (one of: {NAMES})",
                     field="backend")


@dataclass
class Best:
    """The best board a search found: `score` matched seams out of `most`; `optimal` when the
    search proved that no board scores more; `stopped` says why it ended."""

    puzzle: str
    grid: list[Placed] | None
    score: int | None
    most: int
    optimal: bool
    seconds: float
    backend: str
    stopped: str
    history: list[tuple[float, int]] = field(default_factory=list)
    resumed: int | None = None  # the checkpoint's score this search started from
    checkpoint: str | None = None
    details: dict = field(default_factory=dict)
    puzzle_object: object = field(default=None, repr=False, compare=False)

    @property
    def broken(self) -> int | None:
        return None if self.score is None else self.most - self.score

    def sentence(self) -> str:
        where = f"({self.backend}, {self.seconds:.1f} s)"
        if self.score is None:
            return f"{self.puzzle}: no board found: {self.stopped} {where}{self.starved()}"
        proof = ("the best possible (proved)" if self.optimal
                 else "the best found, not proved best")
        return (f"{self.puzzle}: {self.score} of {plural(self.most, 'seam')} matched "
                f"({self.broken} broken), {proof}; {self.stopped} {where}")

    def starved(self) -> str:
        """Why a time limit ended a search before its first board, where the CPU it had says so:
        on a loaded machine a minute of wall can be a few CPU seconds, spent building the model
        (Regression: a starved `best --time-limit 60` said only "no board found")."""
        cpu = self.details.get("search_cpu_seconds")
        if cpu is None or self.stopped != "time limit reached":
            return ""
        return (f": the search had {cpu:.1f} CPU s in that time (a loaded machine, or a model "
                "slow to build); give it a longer time limit")

    def to_json(self) -> dict:
        from .models.edge_matching import EdgePuzzle

        puzzle = self.puzzle_object
        board = None
        if self.grid is not None and isinstance(puzzle, EdgePuzzle):
            board = [[puzzle.tiles[t].name, r * 90] for t, r in self.grid]
        return {"puzzle": self.puzzle, "score": self.score, "most": self.most,
                "optimal": self.optimal, "seconds": self.seconds, "backend": self.backend,
                "stopped": self.stopped, "history": self.history, "resumed": self.resumed,
                "checkpoint": self.checkpoint, "board": board, **self.details}

    def __str__(self) -> str:
        return self.sentence()


def check_number(value, field_name: str, least: int = 1) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or value < least):
        raise InputError(f"must be a whole number of at least {least}, not {value!r}",
                         field=field_name)


@takes(puzzle=PUZZLE, backend=NAME, time_limit=SECONDS, jobs=WHOLE, checkpoint=PATH, seed=WHOLE,
       say=CALLABLE, on_better=CALLABLE)
def best(puzzle, backend: str | None = None, time_limit: float | None = None,
         jobs: int | None = None, checkpoint: str | None = None, seed: int | None = None,
         say: Say | None = None, on_better: Callable[[Best], None] | None = None) -> Best:
    """The best board the search finds within the time limit (None: until it proves its board
    best, or is interrupted). jobs: processes or threads (default: the cores here);
    checkpoint: a board file kept with the best board so far (written atomically), and resumed
    from when it exists; seed: the searches' random seed; say: a callable given each better
    score as a line; on_better: a callable given a Best at each better board."""
    from .api import _puzzle, check_time_limit
    from .executors import cores

    puzzle = _puzzle(puzzle)
    if puzzle.kind != "edge-matching":
        raise InputError(f"best boards are for edge-matching puzzles, not {puzzle.kind}",
                         field="puzzle")
    boards.check_board(puzzle)
    time_limit = check_time_limit(time_limit)
    check_number(jobs, "jobs")
    check_number(seed, "seed", 0)
    chosen, argument = optimiser(backend)
    jobs = jobs or cores()
    seed = 1 if seed is None else seed
    top = boards.most(puzzle)
    found = Best(puzzle.name, None, None, top, False, 0.0, chosen.base + (
        f":{argument}" if argument else ""), "", checkpoint=checkpoint, puzzle_object=puzzle)
    start_grid = None
    if checkpoint is not None:
        start_grid = resume(puzzle, checkpoint, found)
        if found.score is not None and say:
            say(f"resumed from {checkpoint}: {found.score} of {plural(top, 'seam')} matched")
    if found.score == top:
        found.stopped, found.optimal = "the checkpoint's board matches every seam", True
        return found
    begin = time.perf_counter()

    def better(grid: list[Placed], extra: dict) -> None:
        value = boards.score(puzzle, grid)  # scored here again: a search's word is not taken
        if found.score is not None and value <= found.score:
            return
        seconds = time.perf_counter() - begin
        found.grid, found.score, found.seconds = list(grid), value, seconds
        found.history.append((round(seconds, 3), value))
        found.details.update(extra)
        if checkpoint is not None:
            write_board(puzzle, checkpoint, found)
        if say:
            say(f"{seconds:8.1f} s  {value} of {plural(top, 'seam')} matched ({top - value} broken)"
                f"  {found.backend}")
        if on_better:
            on_better(found)

    runs = jobs if chosen.copies else 1
    args = [(puzzle, start_grid, time_limit, 1 if chosen.copies else jobs, seed + k, argument)
            for k in range(runs)]
    used = cpu_seconds()
    found.stopped, found.optimal = _search(chosen.function(), args, better, time_limit, top,
                                           found)
    found.seconds = time.perf_counter() - begin
    found.details["search_cpu_seconds"] = round(cpu_seconds() - used, 1)  # children reaped
    if found.optimal and found.score is not None and checkpoint is not None:
        write_board(puzzle, checkpoint, found)  # marked proved
    return found


def resume(puzzle: EdgePuzzle, checkpoint: str, found: Best) -> list[Placed] | None:
    """The checkpoint's board, if the file exists (of this puzzle: another's is refused)."""
    path = Path(checkpoint)
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read: {getattr(error, 'strerror', None) or error}",
                         file=checkpoint, field="checkpoint") from None
    grid, header = read_board(puzzle, text, checkpoint, field="checkpoint")
    from .models.edge_matching.boardfile import rescore

    value, broken = rescore(puzzle, grid)
    if broken:
        raise InputError(f"its board breaks the rules: {broken[0]}", file=checkpoint,
                         field="checkpoint")
    found.grid, found.score, found.resumed = grid, value, value
    found.history = [tuple(h) for h in header.get("history", []) if isinstance(h, list)]
    return grid


def write_board(puzzle: EdgePuzzle, path: str, found: Best) -> None:
    extra = {"optimal": found.optimal, "backend": found.backend, "written": now(),
             "seconds": round(found.seconds, 3), "history": found.history}
    write_text_atomic(path, board_json(puzzle, found.grid, found.score, found.most, extra),
                      "checkpoint")


def _child(send, function: Callable, args: tuple):
    """In the child: run a search, sending ('better', grid, extra) for each board."""

    def report(grid: list[Placed], extra: dict | None = None) -> None:
        send.send(("better", [(int(t), int(r)) for t, r in grid], extra or {}))

    return function(report, *args)


def _search(function: Callable, args: list[tuple], better: Report, time_limit: float | None,
            top: int, found: Best) -> tuple[str, bool]:
    """Run the searches in children until the time limit, an optimum or their end; hand each
    board they send to `better`. Returns (why it stopped, optimum proved)."""
    context = multiprocessing.get_context("fork")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    children: list[Child] = []
    pipes = []
    with interruptible():
        try:
            for k, arg in enumerate(args):
                mine, theirs = context.Pipe(duplex=False)
                start(_child, (theirs, function, arg), children, label=f"search {k + 1}",
                      method="fork", own_group=True)
                theirs.close()
                pipes.append(mine)
            running = list(children)
            proved = False
            while running:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return "time limit reached", False
                timeout = POLL if left is None else min(POLL, max(left, 0.0))
                ready = wait(pipes + [c.conn for c in running]
                             + [c.process.sentinel for c in running], timeout)
                for pipe in list(pipes):
                    if pipe in ready:
                        try:
                            while pipe.poll():
                                _, grid, extra = pipe.recv()
                                better(grid, extra)
                        except EOFError:
                            pipes.remove(pipe)
                if found.score == top:
                    return "every seam matched", True
                for child in list(running):
                    if child.conn in ready or child.process.sentinel in ready:
                        answer = receive(child)  # WorkerDied if it died without one
                        running.remove(child)
                        proved = proved or bool(answer and answer.get("optimal"))
                        if proved:
                            _drain(pipes, better)
                            return "the search proved its board best", True
            _drain(pipes, better)
            return "the search ended", proved
        except KeyboardInterrupt:
            _drain(pipes, better)
            return "interrupted", False
        finally:
            end(children)
            for pipe in pipes:
                pipe.close()


def _drain(pipes: list, better: Report) -> None:
    """Boards sent but not yet read."""
    for pipe in pipes:
        try:
            while pipe.poll():
                _, grid, extra = pipe.recv()
                better(grid, extra)
        except (EOFError, OSError):
            continue



@dataclass
class BoardCheck:
    """A board file checked: its seams counted again edge by edge, its rules checked, its
    claimed score compared. `agree`: the board keeps the rules and its claim is right."""

    puzzle: str
    path: str
    score: int
    most: int
    claimed: object
    broken_rules: list[str]
    grid: list[Placed]

    @property
    def agree(self) -> bool:
        return not self.broken_rules and self.claimed == self.score

    def sentence(self) -> str:
        counted = f"{self.score} of {plural(self.most, 'seam')} match, counted edge by edge"
        if self.broken_rules:
            more = len(self.broken_rules) - 1
            return (f"{self.puzzle}: {self.path} REJECTED: the board breaks the rules: "
                    f"{self.broken_rules[0]}" + (f" (and {more} more)" if more else ""))
        if self.claimed != self.score:
            return (f"{self.puzzle}: {self.path} REJECTED: it claims {self.claimed} but "
                    f"{counted}")
        return f"{self.puzzle}: {self.path} verified: {counted}, as it claims"

    def to_json(self) -> dict:
        return {"puzzle": self.puzzle, "board": self.path, "score": self.score,
                "most": self.most, "claimed": self.claimed, "broken_rules": self.broken_rules,
                "agree": self.agree}


@takes(puzzle=PUZZLE, path=PATH)
def verify_board(puzzle, path: str) -> BoardCheck:
    """Check a board file (as `best` writes them): count its matched seams again by a count
    of its own (models/edge_matching/boardfile.py), check the rules, compare the claimed score."""
    from .api import _puzzle
    from .models.edge_matching.boardfile import rescore

    puzzle = _puzzle(puzzle)
    if puzzle.kind != "edge-matching":
        raise InputError(f"boards are checked for edge-matching puzzles, not {puzzle.kind}",
                         field="board")
    boards.check_board(puzzle)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read: {getattr(error, 'strerror', None) or error}",
                         file=path, field="board") from None
    grid, header = read_board(puzzle, text, path)
    value, broken = rescore(puzzle, grid)
    return BoardCheck(puzzle.name, path, value, boards.most(puzzle), header.get("score"), broken,
                      grid)
