"""The workshop's counts, cards and booklets: each in a worker process of its own, watched,
stopped (a count resumed).

A count runs `puzzlesat.count(puzzle, modulo=..., checkpoint=FILE, progress=...)` in a worker
process that leads its own process group (its pool of counting processes with it), and sends its
progress (work done, work in all, solutions so far) and then its answer over a pipe: the lines
`puzzlesat count` prints. A stop is SIGTERM, which the count takes as an interrupt (what it
finished is in the checkpoint, the count it returns is marked incomplete); a worker still there
STOP_GRACE seconds later is killed with its group. A count whose page stopped asking for it for
`idle` seconds (a closed tab) is stopped the same way. A later count of the same puzzle and
modulo with the same checkpoint resumes; the checkpoint of a complete count is taken away.
The least cards and a booklet (runners/cards.py, runners/booklet.py) run in workers the same way,
their progress the lines they say; a stop ends them (nothing to resume).

Nothing here imports the web framework: a worker process imports the library alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import shutil
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from .. import children

STOP_GRACE = 5.0  # seconds a stopped worker has to send what it counted, before SIGKILL
IDLE_SECONDS = 10.0  # a count no page asked about for this long is stopped (a closed tab)
FORGET_SECONDS = 3600.0  # a count that ended is forgotten this long after
PUZZLE_COPY = "puzzle.toml"  # a booklet's copy of the puzzle file it was made of
PROGRESS_EVERY = 0.2  # seconds between progress messages (the last one always goes)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def send(conn: Connection, message: tuple[str, object]) -> None:
    """A message to the server, whole: a stop (SIGTERM) that comes while it is written is taken
    once it is (a message cut in two would be read as garbage)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        conn.send(message)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def worker(conn: Connection, work: str, args: tuple) -> None:
    """A worker's life: its own process group, dead with its parent, SIGTERM as an interrupt;
    the work's progress, then ("done", answer) or ("error", one line) sent to `conn`."""
    os.setpgid(0, 0)
    children.die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server ends us, not a terminal's Ctrl-C
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        send(conn, WORKS[work](conn, *args))
    except KeyboardInterrupt:
        send(conn, ("stopped", f"stopped before the {work} was done"))
    except (BrokenPipeError, EOFError):  # the server went away: nobody to tell
        pass
    finally:
        conn.close()


def counted(conn: Connection, target: str, modulo: str, checkpoint: str | None
            ) -> tuple[str, object]:
    """The count of `target` (a catalog name or a puzzle file's path) as `puzzlesat count`
    prints it: ("done", {lines, number, counted, complete, ...}) or ("error", message)."""
    from .. import api, registry
    from ..models.errors import InputError

    last = [0.0]

    def progress(done: int, total: int, found: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or done >= total:
            last[0] = now
            send(conn, ("progress", (done, total, found)))

    try:
        puzzle = api.load(target)
        count = api.count(puzzle, modulo=modulo, checkpoint=checkpoint, progress=progress)
        lines = [count.sentence(), *registry.part(puzzle.kind, "cli").count_lines(puzzle, count)]
    except InputError as error:
        return "error", str(error)
    if count.complete and checkpoint:  # nothing left to resume
        Path(checkpoint).unlink(missing_ok=True)
    return "done", {"lines": lines, **count.to_json()}


def _said(conn: Connection):
    """A `say` for the library: each line sent to the server as the work's progress."""
    return lambda line: send(conn, ("note", str(line)))


def cards_made(conn: Connection, target: str, shown: int) -> tuple[str, object]:
    """The least cards of `target` as `puzzlesat cards` finds and prints them, with the first
    `shown` cards (one per class) drawn: ("done", {lines, cards: [{caption, svg}], ...})."""
    from .. import api, cards, registry
    from ..models.errors import InputError

    try:
        puzzle = api.load(target)
        found = cards.minimal_cards(puzzle, say=_said(conn))
    except InputError as error:
        return "error", str(error)
    except ArithmeticError as error:  # a check failed: a defect, said as `cards` says it
        return "error", f"a check FAILED: {error}"
    drawings = registry.part(puzzle.kind, "pictures")
    drawn = []
    for n, card in enumerate(found.cards[:shown] if found.least else [], 1):
        caption = f"card {n} (its class holds {card.orbit})"
        grid = {cell: p.piece for p in card.placed for cell in p.cells}
        drawn.append({"caption": caption, "placed": cards.placed_words(puzzle, card.placed),
                      "svg": drawings.draw_grid(puzzle, grid, caption).to_string()})
    return "done", {**found.to_json(puzzle, shown), "lines": found.lines(), "drawn": drawn,
                    "complete": True}


def booklet_made(conn: Connection, target: str, cards: int, seed: int, folder: str
                 ) -> tuple[str, object]:
    """A booklet of `target` as `puzzlesat booklet -n CARDS --seed SEED -o FOLDER` makes and
    writes it: ("done", {lines, files, folder, cards}). The booklet names its puzzle as its
    file does: a catalog name, or a path from its folder, where a puzzle file of the
    workshop's folder is copied (so that the folder, or its zip, is whole)."""
    from .. import api, booklet
    from ..models.errors import InputError

    mine = os.path.isabs(target)
    try:
        puzzle = api.load(target)
        made = booklet.make_booklet(puzzle, cards, seed, say=_said(conn))
        written = made.write(folder, PUZZLE_COPY if mine else target)
        if mine:
            written.append(shutil.copyfile(target, os.path.join(folder, PUZZLE_COPY)))
    except InputError as error:
        return "error", str(error)
    except ArithmeticError as error:
        return "error", f"a check FAILED: {error}"
    except OSError as error:
        return "error", f"{folder}: cannot write: {error.strerror}"
    return "done", {"lines": made.lines(), "files": [Path(w).name for w in written],
                    "folder": folder, "complete": True,
                    "cards": [{"name": c.name, "pieces_left": c.pieces_left, "nodes": c.nodes}
                              for c in made.cards]}


WORKS = {"count": counted, "cards": cards_made, "booklet": booklet_made}


@dataclass
class Job:
    """One count: its worker, what it reported, and when a page last asked about it."""

    puzzle: str
    modulo: str  # a count's; "" for other work
    process: multiprocessing.process.BaseProcess
    conn: Connection
    checkpoint: str | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    state: str = "running"  # running, stopping, done, stopped, error, died
    progress: tuple[int, int, int] | None = None
    first: tuple[float, int] | None = None  # (time, work done) at the first report
    started: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    ended: float | None = None  # when its answer came (or the worker was found gone)
    stop_asked: float | None = None
    why_stopped: str = ""
    answer: dict | None = None
    message: str = ""
    work: str = "count"  # a key of WORKS
    note: str = ""  # the last line the work said (cards, booklet)
    made_for: str | None = None  # an empty folder made for its output: removed if it fails

    def take(self, message: tuple[str, object]) -> None:
        """One message of the worker."""
        kind, value = message
        if kind == "note":
            self.note = str(value)
        elif kind == "progress":
            self.progress = tuple(value)  # type: ignore[assignment]
            if self.first is None:
                self.first = (time.monotonic(), self.progress[0])
        elif kind == "done":
            self.answer = value  # type: ignore[assignment]
            complete = bool(value.get("complete"))  # type: ignore[union-attr]
            self.state = "done" if complete else "stopped"
        else:
            self.state = "error" if kind == "error" else "stopped"
            self.message = str(value)

    def drain(self) -> None:
        """Read whatever the worker sent; notice a worker that ended without its answer."""
        try:
            while self.running and self.conn.poll():
                self.take(self.conn.recv())
                if not self.running:
                    self.ended = time.monotonic()
                    self.conn.close()
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):  # gone, or cut short
            if self.state in ("running", "stopping"):
                code = self.process.exitcode
                self.state = "stopped" if self.stop_asked else "died"
                self.message = ("stopped" if self.stop_asked else
                                f"the worker ended without its answer (exit code {code})")
                self.ended = time.monotonic()
        if self.made_for is not None and not self.running and self.state != "done":
            with contextlib.suppress(OSError):  # refused or stopped: nothing written in it
                os.rmdir(self.made_for)
            self.made_for = None

    def seconds_left(self) -> float | None:
        """The time left, from this run's pace (the work a checkpoint held is not its pace)."""
        if self.progress is None or self.first is None:
            return None
        done, total, _ = self.progress
        spent = time.monotonic() - self.first[0]
        made = done - self.first[1]
        if made <= 0 or spent <= 0:
            return None
        return (total - done) * spent / made

    def status(self) -> dict:
        done, total, found = self.progress or (0, 0, 0)
        return {
            "id": self.id, "puzzle": self.puzzle, "modulo": self.modulo, "state": self.state,
            "done": done, "total": total, "found": found,
            "percent": 100.0 * done / total if total else 0.0,
            "seconds": (self.ended or time.monotonic()) - self.started,
            "seconds_left": self.seconds_left() if self.running else None,
            "answer": self.answer, "message": self.message, "why_stopped": self.why_stopped,
            "work": self.work, "note": self.note,
        }

    @property
    def running(self) -> bool:
        return self.state in ("running", "stopping")


class Jobs:
    """Every count of a server, with a watcher thread that reads their progress, stops the
    ones no page watches, and kills a stopped worker that does not end."""

    def __init__(self, idle: float = IDLE_SECONDS) -> None:
        self.idle = idle
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="workshop jobs", daemon=True)
        self.watcher.start()

    def start(self, target: str, modulo: str, checkpoint: str | None, puzzle: str) -> Job:
        """A count in a worker of its own; where one with the same checkpoint runs (the same
        puzzle and modulo, another tab), that one, which two workers would write at once."""
        return self.run("count", (target, modulo, checkpoint), puzzle, modulo, checkpoint)

    def run(self, work: str, args: tuple, puzzle: str, modulo: str = "",
            checkpoint: str | None = None, made_for: str | None = None) -> Job:
        """`work` (a key of WORKS) on `args` in a worker of its own (a count: see start);
        made_for: an empty folder made for its output, removed if the work ends without its
        answer."""
        with self.lock:
            for job in self.jobs.values():
                job.drain()
                if job.running and job.checkpoint == checkpoint is not None:
                    job.seen = time.monotonic()
                    return job
        method = children.start_method()
        context = multiprocessing.get_context(method)
        mine, theirs = context.Pipe(duplex=False)
        process = context.Process(target=worker, args=(theirs, work, args),
                                  name=f"{work} of {puzzle}", daemon=False)
        with children.main_left_out(method):
            process.start()
        theirs.close()
        job = Job(puzzle, modulo, process, mine, checkpoint, work=work, made_for=made_for)
        with self.lock:
            self.jobs[job.id] = job
        return job

    def status(self, job_id: str) -> dict | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                return None
            job.seen = time.monotonic()
            job.drain()
            return job.status()

    def stop(self, job_id: str, why: str = "stopped") -> dict | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                return None
            self._stop(job, why)
            return job.status()

    def _stop(self, job: Job, why: str) -> None:
        job.drain()
        if not job.running or job.stop_asked is not None:
            return
        job.state, job.stop_asked, job.why_stopped = "stopping", time.monotonic(), why
        with contextlib.suppress(ProcessLookupError):
            os.kill(job.process.pid, signal.SIGTERM)

    def _watch(self) -> None:
        while not self.closing.wait(0.25):
            with self.lock:
                for job in list(self.jobs.values()):
                    self._tend(job)

    def _tend(self, job: Job) -> None:
        job.drain()
        now = time.monotonic()
        if job.ended is not None and now - job.ended > FORGET_SECONDS:
            del self.jobs[job.id]  # its page has long had its answer
            return
        if job.state == "running" and now - job.seen > self.idle:
            self._stop(job, f"no page asked about it for {self.idle:g} s")
        if (job.stop_asked is not None and job.running and now - job.stop_asked > STOP_GRACE
                and job.process.exitcode is None):
            _kill_group(job.process)
            job.drain()
        if not job.running and job.process.exitcode is None:
            job.process.join(0.05)  # reaped once it has sent its answer

    def close(self) -> None:
        """End every worker (the server stops): SIGTERM, then SIGKILL to its group."""
        self.closing.set()
        self.watcher.join()
        with self.lock:
            jobs = list(self.jobs.values())
        # only the workers still there: a group id of one long gone may be another's by now
        alive = [job for job in jobs if job.process.exitcode is None]
        for job in alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(job.process.pid, signal.SIGTERM)
        limit = time.monotonic() + STOP_GRACE
        for job in alive:
            job.process.join(max(0.0, limit - time.monotonic()))
            _kill_group(job.process)
            job.process.join()
        for job in jobs:
            job.drain()  # its end taken (a folder made for it and left empty, removed)
            job.conn.close()


def _kill_group(process: multiprocessing.process.BaseProcess) -> None:
    """SIGKILL to a worker's process group (its counting pool with it)."""
    if process.pid is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.exitcode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
