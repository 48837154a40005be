"""Child processes with a deadline: the one way puzzlesat runs work in another process.

A count's local pool, a PySAT solve with a time limit, a race's members, a benchmark's runs and
Mind Lock's planner all start their children here, so that each of them:

- notices a child that dies or cannot start (`WorkerDied`, saying why in one line) instead of
  waiting for it forever;
- starts children that never run the caller's main module again: a spawned child is started
  without it (a plain script without an `if __name__ == "__main__"` guard would otherwise be run
  again by each child, which dies trying to start children of its own), and what it is to run
  is handed over once it has started, so that one that dies while starting is noticed instead
  of the parent waiting to write to it for ever; where spawn cannot start Python, a pool whose
  spawned workers die at start is started again forked, with a warning;
- ends every child on SIGINT and SIGTERM, whatever the state (starting, running, ending): signals
  are held while a child starts, children ignore Ctrl-C (the parent ends them), die with their
  parent (Linux), and a SIGTERM to a Python program that left it at its default still ends that
  program once the children are gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
import types
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait

from .models.errors import PuzzlesatWarning

# Seconds a child is given to end after SIGTERM before SIGKILL.
END_GRACE = 0.5
PR_SET_PDEATHSIG = 1
SIGNALS = (signal.SIGINT, signal.SIGTERM)
# The start method, where a test (or a user) needs to force one; None: `start_method()` decides.
START: str | None = None


class WorkerDied(RuntimeError):
    """A child process ended without its answer (killed, crashed, or it could not start)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C while children run, so that they are ended first."""


def main_reimportable() -> bool:
    """Whether a spawned child can import `__main__` again: not a script read from standard
    input (`python - < script.py`) or from a file that is gone."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None):
        return True  # `python -m module`, a notebook kernel: imported again by name
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)  # None: `python -c`, an interactive session


def start_method(preferred: str = "spawn") -> str:
    """The start method to use: `preferred` unless it cannot work here (spawn where `__main__`
    cannot be imported again, fork where there is none)."""
    methods = multiprocessing.get_all_start_methods()
    if START is not None:
        return START
    if preferred == "spawn" and not main_reimportable() and "fork" in methods:
        return "fork"
    if preferred not in methods:
        return "spawn"
    return preferred


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (nothing left behind by a SIGKILL)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


def _child_main(conn: Connection, parent: int, own_group: bool, serve: bool,
                work: tuple[Callable, tuple] | None) -> None:
    """A child's life: Ctrl-C left to the parent, dies with it, what to run given (forked) or
    received, then one call (or, serving, an initializer and then one call per task received)
    with each answer sent back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # held while it started
    die_with_parent()
    if own_group:
        os.setpgid(0, 0)
    if os.getppid() != parent:  # the parent died before we asked to die with it
        os._exit(1)
    try:
        try:
            function, args = work or conn.recv()
        except (EOFError, OSError):
            raise
        except Exception as error:  # noqa: BLE001 - it cannot be read here: said to the parent
            conn.send(("raised", _portable(error)))
            return
        if not serve:
            _answer(conn, function, args)
            return
        handler = function(*args)  # an initializer, returning the function tasks go to
        conn.send(("ready", None))
        while True:
            task = conn.recv()
            if task is None:
                return
            _answer(conn, handler, (task,))
    except (EOFError, OSError):  # the parent closed its end: nothing to answer
        return
    finally:
        conn.close()


def _answer(conn: Connection, function: Callable, args: tuple) -> None:
    try:
        value = function(*args)
    except KeyboardInterrupt:
        # a solver that catches SIGINT itself (CP-SAT) stopped on the user's Ctrl-C, sent to the
        # whole process group: the parent has it too and ends this child; no traceback here
        return
    except Exception as error:  # noqa: BLE001 - raised again in the parent
        conn.send(("raised", _portable(error)))
        return
    conn.send(("ok", value))


def _portable(error: Exception) -> Exception:
    """The error itself where it survives pickling, else a RuntimeError with its text."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any failure to pickle
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


@dataclass(eq=False)
class Child:
    """A started child: its process, its end of the pipe, and what to call it in messages."""

    label: str
    process: multiprocessing.process.BaseProcess
    conn: Connection
    method: str
    own_group: bool = False
    ready: bool = False  # a serving child said it started
    busy: object = None  # the task it is working on (a pool's)

    def why_died(self) -> str:
        """One line: how the child ended without its answer."""
        self.process.join(0.1)
        code = self.process.exitcode
        if code is None:
            how = "closed its pipe"
        elif code < 0:
            name = signal.Signals(-code).name
            how = f"was killed by {name}" + (" (out of memory?)" if name == "SIGKILL" else "")
        else:
            how = f"exited with code {code}"
        when = "before it started" if not self.ready and self.busy is None else "while working"
        return f"{self.label} {how} {when}"

    def hand_over(self, work: bytes) -> None:
        """Send a spawned child what it is to run (pickled by `pickled`; a forked one has it
        already); WorkerDied if it died."""
        if self.method == "fork":
            return
        try:
            self.conn.send_bytes(work)
        except OSError:  # BrokenPipeError: it died while it started
            raise WorkerDied(self.why_died()) from None


def pickled(function: Callable, args: tuple) -> bytes:
    """What a child is to run, as `Child.hand_over` sends it (pickled once for a pool)."""
    from multiprocessing.reduction import ForkingPickler

    return bytes(ForkingPickler.dumps((function, args)))


_MAIN_SWAP = threading.Lock()
_main_hidden: list[types.ModuleType | None] = []  # the caller's main module, while hidden


@contextlib.contextmanager
def main_left_out(method: str) -> Iterator[None]:
    """While children are spawned (by us, or by a Dask local cluster's nannies, which start a
    worker again when one dies): `__main__` an empty module, so that a child does not import the
    caller's main module again (a script without an `if __name__ == "__main__"` guard would run
    again in it). Children run only what the library hands them: nothing of `__main__`. Blocks
    may nest and overlap across threads; the last to end puts the main module back."""
    if method not in ("spawn", "forkserver"):
        yield
        return
    with _MAIN_SWAP:
        if not _main_hidden:
            _main_hidden.append(sys.modules.get("__main__"))
            sys.modules["__main__"] = types.ModuleType("__main__")
        else:
            _main_hidden.append(None)
    try:
        yield
    finally:
        with _MAIN_SWAP:
            main = _main_hidden.pop()  # the caller's main module comes out last
            if not _main_hidden and main is not None:
                sys.modules["__main__"] = main


@contextlib.contextmanager
def _held() -> Iterator[list[int]]:
    """SIGINT and SIGTERM held (blocked, and recorded by Python) while a child starts: a child
    half started would print a traceback and be left unrecorded. The child inherits them
    blocked until it has set its own handling; here they are delivered by `_deliver`."""
    came: list[int] = []
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number in SIGNALS:
            if signal.getsignal(number) not in (signal.SIG_IGN, None):
                previous[number] = signal.signal(number, lambda signum, frame: came.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield came
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def ctrl_c_left_to_us() -> Iterator[None]:
    """Processes started in the block (whatever thread starts them: a Dask local cluster's
    workers) ignore Ctrl-C for their life, so that a terminal's Ctrl-C to the whole group
    reaches this process alone, which ends them (before: a traceback from every worker). The
    block itself ignores Ctrl-C (seconds, while a cluster starts); SIGTERM still ends it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


def start(function: Callable, args: tuple, into: list[Child], *,
          label: str = "a child process", method: str | None = None, own_group: bool = False,
          serve: bool = False, daemon: bool = True, hand_over: bool = True) -> Child:
    """Start `function(*args)` in a child (with `serve`: an initializer returning the function
    that each task sent with `Pool` goes to), appended to `into` before a signal that came while
    it started is delivered: whoever ends `into` ends it too. daemon=False: the child may start
    children of its own (a benchmark's run of a race or of a time-limited PySAT solve); it is
    ended like any other (`end`), with its process group when it leads one. hand_over=False:
    the caller sends `pickled(function, args)` with `Child.hand_over` (a pool starts all its
    workers first)."""
    method = method or start_method()
    context = multiprocessing.get_context(method)
    mine, theirs = context.Pipe()
    work = (function, args) if method == "fork" else None  # a forked child has it already
    process = context.Process(
        target=_child_main, args=(theirs, os.getpid(), own_group, serve, work), daemon=daemon,
    )
    with _held() as came, main_left_out(method):
        process.start()
    theirs.close()
    child = Child(label, process, mine, method, own_group)
    into.append(child)
    for number in dict.fromkeys(came):
        signal.raise_signal(number)
    if hand_over and work is None:
        child.hand_over(pickled(function, args))
    return child


def cpu_seconds() -> float:
    """CPU seconds of this process (every thread) and of the children it has reaped: the
    difference across some work is what that work cost, its child processes included."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def end(children: list[Child], grace: float = END_GRACE) -> None:
    """End children: SIGTERM (a child may end what it started), then SIGKILL to the child, or
    to its whole group; reap them and close their pipes."""
    for child in children:
        if child.process.pid is not None and child.process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                child.process.terminate()
    limit = time.monotonic() + grace
    for child in children:
        if child.process.pid is not None:
            child.process.join(max(0.0, limit - time.monotonic()))
    for child in children:
        pid = child.process.pid
        if pid is None:
            continue
        if child.own_group:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)  # its group: anything it started
        if child.process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                child.process.kill()
        child.process.join()
        child.conn.close()


def receive(child: Child) -> object:
    """A child's answer once it is ready to read: its value, its error raised again, or
    WorkerDied when the child ended without one."""
    try:
        kind, value = child.conn.recv()
    except (EOFError, ConnectionResetError, OSError):
        raise WorkerDied(child.why_died()) from None
    if kind == "raised":
        raise value
    if kind == "ready":
        child.ready = True
    return value


def answered(children: list[Child], timeout: float | None) -> list[Child]:
    """The children with an answer to read or that ended, waiting up to `timeout` seconds."""
    ready = wait([c.conn for c in children] + [c.process.sentinel for c in children], timeout)
    return [c for c in children if c.conn in ready or c.process.sentinel in ready]


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """While children run: Ctrl-C raises KeyboardInterrupt even where a C library (PySAT) took
    it over, and a SIGTERM that would have ended this program at once raises `Terminated`; the
    program is still ended by it once the block has ended the children."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous_int = signal.getsignal(signal.SIGINT)
    previous_term = signal.getsignal(signal.SIGTERM)
    came: list[int] = []

    def terminated(signum, frame):
        came.append(signum)
        raise Terminated

    if previous_int is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if previous_term in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous_int if previous_int is not None else signal.SIG_DFL)
        signal.signal(signal.SIGTERM, previous_term if previous_term is not None
                      else signal.SIG_DFL)
        if came:  # SIGTERM's default: this program ends, its children already ended
            os.kill(os.getpid(), signal.SIGTERM)


def run_in_child(function: Callable, args: tuple = (), time_limit: float | None = None, *,
                 label: str = "a child process", method: str | None = None,
                 own_group: bool = False, daemon: bool = True) -> tuple[bool, object]:
    """`function(*args)` in a child ended at the time limit: (True, its value), or (False, None)
    when the time ran out. Its errors are raised here; WorkerDied if it died without an answer.
    daemon=False lets the child start children (see `start`)."""
    with interruptible():
        started: list[Child] = []
        try:
            child = start(function, args, started, label=label, method=method,
                          own_group=own_group, daemon=daemon)
            if not answered([child], None if time_limit is None else max(0.0, time_limit)):
                return False, None
            return True, receive(child)
        finally:
            end(started)


@dataclass
class Pool:
    """Worker processes that each take one task at a time; `results` yields (task, answer) as
    they finish. Tasks go to `initializer(*initargs)`'s returned function in each worker.

    A worker that dies raises WorkerDied; if every spawned worker dies before it starts, the
    pool starts again forked, once, with a warning (spawn could not start Python here)."""

    size: int
    initializer: Callable
    initargs: tuple
    label: str = "a worker process"
    method: str | None = None
    workers: list[Child] = field(default_factory=list)
    todo: list = field(default_factory=list)  # the tasks `results` has still to send, last first
    left: int = 0  # the tasks `results` waits for (sent or not)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start(self, method: str) -> None:
        for number in range(self.size):
            start(self.initializer, self.initargs, self.workers, serve=True,
                  label=f"{self.label} {number + 1}", method=method, hand_over=False)
        if method != "fork":
            work = pickled(self.initializer, self.initargs)
            for child in self.workers:  # each imports while the next starts
                child.hand_over(work)

    def close(self) -> None:
        end(self.workers)
        self.workers.clear()

    def _again_forked(self, method: str, died: WorkerDied) -> str:
        """Every spawned worker died before it started, exiting of itself (spawn cannot start
        Python here): the pool started again forked, with a warning; WorkerDied raised again
        otherwise (one killed from outside is no reason to fork)."""
        codes = [c.process.exitcode for c in self.workers if c.process.exitcode is not None]
        if method != "spawn" or not codes or min(codes) < 0:
            raise died
        warnings.warn(f"{died}; starting the workers forked instead", PuzzlesatWarning,
                      stacklevel=3)
        self.close()
        self._start("fork")
        return "fork"

    def results(self, tasks: list, deadline: float | None = None, grace: float = 0.0,
                current: Callable[[object], object] | None = None
                ) -> Iterator[tuple[object, object]]:
        """Run every task; stops early (without an error): no task is sent past `deadline`, and
        none is waited for past `deadline` + `grace`; the tasks not answered are left undone.
        `current`, where given, makes a task as it should be sent now (what it yields is the
        task as sent)."""
        method = self.method or start_method()
        retried = False
        try:
            self._start(method)
        except WorkerDied as died:
            retried, method = True, self._again_forked(method, died)
        self.todo = todo = list(reversed(tasks))
        self.left = len(tasks)
        while self.left:
            if deadline is not None and time.time() >= deadline:
                todo.clear()  # past the deadline a task would only come back unfinished
                if not any(child.busy is not None for child in self.workers):
                    return
            for child in self.workers:
                if child.ready and child.busy is None and todo:
                    child.busy = todo.pop() if current is None else current(todo.pop())
                    try:
                        child.conn.send(child.busy)
                    except OSError:  # BrokenPipeError: it died since its last answer
                        raise WorkerDied(child.why_died()) from None
            wait_for = None if deadline is None else max(0.0, deadline + grace - time.time())
            found = answered(self.workers, wait_for)
            if not found:
                return
            for child in found:
                try:
                    value = receive(child)
                except WorkerDied as died:
                    if retried or any(c.ready for c in self.workers):
                        raise
                    retried, method = True, self._again_forked(method, died)
                    break
                if child.busy is None:  # 'ready'
                    continue
                task, child.busy = child.busy, None
                self.left -= 1
                yield task, value

    def add(self, task: object) -> None:
        """One more task for the `results` running: sent to the next free worker, before the
        tasks still waiting (a count's parts of a cube it stopped to split)."""
        self.todo.append(task)
        self.left += 1
