"""The Python API: load a puzzle, solve it, count its solutions, list them, verify the count.

    >>> import puzzlesat
    >>> puzzle = puzzlesat.load("iq-block-8")
    >>> puzzlesat.count(puzzle, modulo="symmetry")
    <Count iq-block-8: 6 (symmetry: classes of solutions ...); complete, cpsat, local, 0.61 s>

In a notebook the results show themselves: a Solution drawn (as `puzzlesat draw` draws it), a
Count or a Verification as a table:

    >>> puzzlesat.solve("scramble-frog")              # the board drawn, each tile turned
    >>> puzzlesat.count("scramble-frog", modulo="symmetry")   # number, meaning, complete

Every family answers the same calls and returns the same types (Count, Solution,
Verification); backends are named as on the command line ('cpsat', 'pysat:cadical195',
'reference', ...).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .backends import Backend
from .counting import Progress, Runner, progress_bar
from .executors import Executor, executor_named
from .models import files
from .models.errors import InputError
from .models.limits import BuildStopped, building
from .models.words import plural
from .outcomes import Count, Solution, Verification
from .registry import BACKENDS, default_backend, family_of, names_for, resolve
from .splitting import Split

Say = Callable[[str], None]


# ---------------------------------------------------------------- what each call takes
# The one check of the public API's argument types (runners/README.md: a wrong type is a
# TypeError saying what the call takes): each public function declares the kind of each
# parameter with `takes`; values are then checked in the API's words before any work.


@dataclass(frozen=True)
class Kind:
    """What a parameter takes, in words, and the test of a value (None passes wherever the
    parameter's default is None); `convert` puts an accepted value in the form the body reads
    (a pathlib.Path as the str the readers take)."""

    what: str
    accepts: Callable[[object], bool]
    convert: Callable[[object], object] = lambda value: value


def _of(*types: type) -> Callable[[object], bool]:
    """A test of a value's type; bool is no number (True is no count of jobs)."""
    return lambda value: isinstance(value, types) and (
        bool in types or not isinstance(value, bool))


def _path(value: object) -> object:
    return os.fspath(value) if isinstance(value, os.PathLike) else value


NAME = Kind("a name (a str)", _of(str))
NAMES = Kind("a list of names (a list or tuple of str)",
             lambda v: isinstance(v, (list, tuple)) and all(isinstance(n, str) for n in v))
PATH = Kind("a file path (a str or a pathlib.Path)", _of(str, os.PathLike), _path)
WHOLE = Kind("a whole number (an int)", _of(int))
SECONDS = Kind("a number of seconds (an int or a float)", _of(int, float))
FLAG = Kind("True or False", _of(bool))
CALLABLE = Kind("a callable", callable)
PUZZLE = Kind("a catalog name, the path of a puzzle file (a str or a pathlib.Path) or what "
              "load() returned", lambda v: isinstance(v, (str, os.PathLike))
              or isinstance(getattr(v, "kind", None), str), _path)
FILE = Kind("a catalog name or the path of a puzzle file (a str or a pathlib.Path)",
            _of(str, os.PathLike), _path)
EXECUTOR = Kind("an executor's name ('local', 'dask-local[:N]', 'dask://HOST:PORT') or an "
                "Executor", lambda v: isinstance(v, (str, Executor)))
PROGRESS = Kind("True (a bar on standard error), False or a callable(done, total, found)",
                lambda v: isinstance(v, bool) or callable(v))


def shown(value: object) -> str:
    """A wrong value as a message names it: its type, and the value where short."""
    text = repr(value)
    return type(value).__name__ + (f" {text}" if len(text) <= 40 else "")


def takes(**kinds: Kind) -> Callable:
    """Declare the kind of each named parameter of a public function; a value of another type
    is a TypeError naming the function, the parameter and what it takes, raised before work."""

    def wrap(func: Callable) -> Callable:
        signature = inspect.signature(func)
        unknown = set(kinds) - set(signature.parameters)
        if unknown:
            raise AssertionError(f"{func.__name__} has no parameter {', '.join(unknown)}")

        @functools.wraps(func)
        def checked(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as error:
                raise TypeError(f"{func.__name__}(): {error}") from None
            for name, kind in kinds.items():
                if name not in bound.arguments:
                    continue
                value = bound.arguments[name]
                if value is None and signature.parameters[name].default is None:
                    continue
                if not kind.accepts(value):
                    raise TypeError(f"{func.__name__}() takes {name} as {kind.what}, not "
                                    f"{shown(value)}")
                bound.arguments[name] = kind.convert(value)
            return func(*bound.args, **bound.kwargs)

        checked.takes = kinds  # type: ignore[attr-defined]
        return checked

    return wrap


@takes(name_or_path=FILE)
def load(name_or_path: str | os.PathLike, **options):
    """A puzzle from the catalog by name, or from a file by path; options such as level=2."""
    puzzle = files.load(name_or_path)
    return family_of(puzzle).at(puzzle, **options)


def catalog() -> list[str]:
    """The names of the built-in puzzles, as `load` takes them."""
    return list(files.catalog())


@takes(puzzle=PUZZLE, task=NAME)
def backends(puzzle, task: str = "solve") -> list[str]:
    """The backend names usable for the puzzle (for `task`: 'solve' or 'count'), default first."""
    return names_for(_puzzle(puzzle).kind, task)


def counters(puzzle) -> dict[str, str]:
    """The model counters usable for the puzzle (`mc:NAME`), each with its name, version,
    licence and how exact its counts are."""
    kind = _puzzle(puzzle).kind
    found = {}
    for name in names_for(kind, "count"):
        try:
            made = resolve(name, kind, "count")
        except InputError:  # listed for a solve only (a PySAT solver that cannot count)
            continue
        if hasattr(made, "credit"):
            found[made.name] = made.about
    return found


def check_time_limit(time_limit: float | None) -> float | None:
    if time_limit is None:
        return None
    if not isinstance(time_limit, (int, float)) or isinstance(time_limit, bool) or not (
        math.isfinite(time_limit) and time_limit > 0
    ):
        raise InputError(f"must be a positive number of seconds, not {time_limit!r}",
                         field="time_limit")
    return float(time_limit)


@takes(puzzle=PUZZLE, backend=NAME, time_limit=SECONDS, say=CALLABLE, jobs=WHOLE,
       executor=EXECUTOR, checkpoint=PATH)
def solve(puzzle, backend: str | None = None, time_limit: float | None = None,
          say: Say | None = None, jobs: int | None = None,
          executor: str | Executor | None = None, checkpoint: str | None = None,
          **options) -> Solution:
    """One solution, decoded (Solution.found is False when there is none or time ran out).

    jobs, executor, checkpoint (edge matching on edgecount): the search split into the cubes
    a count searches, run as a count runs them (`count`'s arguments), each cube until its
    first grid, all stopped at the first grid found; the checkpoint keeps the cubes searched,
    so the same call resumes (Solution.details: nodes, cubes searched)."""
    begin = time.time()  # the time limit holds from the call (a backend's import included)
    puzzle = _puzzle(puzzle)
    fam = family_of(puzzle)
    fam.check_options(options, fam.options, "solve")
    time_limit = check_time_limit(time_limit)
    in_cubes = {"jobs": jobs, "executor": executor, "checkpoint": checkpoint}
    asked = [name for name, value in in_cubes.items() if value is not None]
    if asked and not hasattr(fam, "solve_in_cubes"):
        raise InputError(f"a {puzzle.kind} solve runs whole: no jobs, executor or checkpoint",
                         field=asked[0])
    chosen = resolve(backend, puzzle.kind, "solve")
    default = chosen.name
    if asked and backend is None and not chosen.solves_in_cubes:  # the one that does
        chosen = _cube_solver(puzzle.kind, asked[0])
    left = None if time_limit is None else max(0.001, begin + time_limit - time.time())
    try:
        with building(None if time_limit is None else begin + time_limit, say):
            if asked:
                if options:
                    raise InputError("a solve in cubes takes no model options",
                                     field=next(iter(options)))
                runner = make_runner(jobs, executor, left, checkpoint, say)
                found = fam.solve_in_cubes(puzzle, chosen, runner)
            else:
                found = fam.solve(puzzle, chosen, left, **options)
    except BuildStopped as stopped:  # the time limit came before the model was whole
        found = Solution(puzzle.name, puzzle.kind, None, chosen.name, time.time() - begin,
                         False, note=str(stopped))
    found.puzzle_object = puzzle
    if found.grid is None and found.complete:
        why = fam.why_none(puzzle)
        found.note = f"{found.note}: {why}" if why else found.note
    if chosen.name != default and say:
        say(f"backend: {chosen.name}, the one that searches cubes (jobs, checkpoint)")
    else:
        _say_default(say, backend, puzzle.kind, "solve")
    return found


def _cube_solver(kind: str, field: str) -> Backend:
    """The backend that solves a family's puzzles in the cubes a count searches; where none is
    installed, an InputError at the argument that asked for cubes, saying what to install."""
    for name in names_for(kind, "count"):
        try:
            made = resolve(name, kind, "count")
        except InputError:  # listed for solving only
            continue
        if made.solves_in_cubes:
            return made
    classes = [getattr(importlib.import_module(entry.module), entry.cls) for entry in BACKENDS
               if entry.module and not entry.argument]
    absent = [f"{cls.name}: {cls.needs}" for cls in classes if cls.solves_in_cubes]
    raise InputError("a solve in cubes needs " + (" or ".join(absent) or "a backend that "
                                                  "searches cubes"), field=field)


@takes(puzzle=PUZZLE, backend=NAME, limit=WHOLE)
def solutions(puzzle, backend: str | None = None, limit: int | None = None,
              **options) -> Iterator[Solution]:
    """Every solution (up to `limit`), decoded, one at a time."""
    puzzle = _puzzle(puzzle)
    fam = family_of(puzzle)
    fam.check_options(options, fam.options, "solutions")
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise InputError(f"must be 0 or more, not {limit!r}", field="limit")
    chosen = resolve(backend or _enumerator(puzzle), puzzle.kind, "count")
    return _drawable(puzzle, fam.solutions(puzzle, chosen, limit, **options))


def _drawable(puzzle, found: Iterator[Solution]) -> Iterator[Solution]:
    """Solutions that know their puzzle, so that a notebook draws them."""
    for solution in found:
        solution.puzzle_object = puzzle
        yield solution


def _enumerator(puzzle) -> str:
    # the measured fastest lister (registry.DEFAULTS, task 'solutions'): pictures list the
    # solutions `puzzlesat solutions` shows, in the same order
    return default_backend(puzzle.kind, "solutions")[0]


@takes(puzzle=PUZZLE, backend=NAME, modulo=NAME, jobs=WHOLE, executor=EXECUTOR,
       time_limit=SECONDS, checkpoint=PATH, progress=PROGRESS, say=CALLABLE, limit=WHOLE,
       split_for=WHOLE, split_after=SECONDS)
def count(puzzle, backend: str | None = None, modulo: str | None = None,
          jobs: int | None = None, executor: str | Executor | None = None,
          time_limit: float | None = None, checkpoint: str | None = None,
          progress: bool | Progress | None = None, say: Say | None = None,
          limit: int | None = None, split_for: int | None = None,
          split_after: float | None = None, **options) -> Count:
    """Count every solution (modulo 'none') or the classes up to symmetry (modulo 'symmetry').

    limit: stop at the limit-th solution (modulo 'none'): limit=2 tells a puzzle with one
    solution (complete, number 1) from one with several (complete False, number 2: at least
    2), as a puzzle maker asks of a challenge; details['unique'] says which.

    jobs: worker processes (or cluster slots); executor: 'local', 'dask-local[:N]',
    'dask://HOST:PORT' or an Executor; checkpoint: a file recording each finished cube, so that
    the same call resumes after a crash; progress: True for a bar on standard error, or a
    callable(done, total, found). A count stopped by the time limit or an interrupt is returned
    with complete=False (its number a lower bound).

    split_for: cubes split while counting, for this many workers (default: the jobs from 16
    jobs on, else not split; 1: not split); split_after: a cube running longer than this many
    seconds is stopped and split where its search is, the parts after that point counted by the
    workers that are free (default: with split_for N, 0.25 s until the count's pace is known,
    on Dask the estimated time over N * 4, then its time at that pace over N * 4, at most the
    estimated time's; else never). Either needs a backend that splits cubes (the bitboard
    search); the count is the same.
    details['workers_busy'] is the share of the workers' time spent searching.
    """
    puzzle = _puzzle(puzzle)
    fam = family_of(puzzle)
    fam.check_options(options, fam.options + getattr(fam, "count_options", ()), "count")
    time_limit = check_time_limit(time_limit)
    modulo = fam.check_modulo(puzzle, modulo or "none")
    if limit is not None:
        ignored = {"time_limit": time_limit, "jobs": jobs, "executor": executor,
                   "split_for": split_for, "split_after": split_after}
        found = _count_to(puzzle, fam, backend, modulo, limit, checkpoint, say, options,
                          [name for name, value in ignored.items() if value is not None])
        found.details.setdefault("workers_busy", None)  # one search here: no workers
        return found
    runner = make_runner(jobs, executor, time_limit, checkpoint, say)
    if split_for is not None or split_after is not None:
        runner.split = Split(split_for if split_for is not None else runner.split_plan().workers,
                             split_after)
    chosen = resolve(backend, puzzle.kind, "count")
    begin = time.time()
    with progress_bar(f"{puzzle.name} ({chosen.name})", progress) as shown:
        runner.progress = shown
        built_partly = False
        try:
            with building(runner.deadline, say):
                found = fam.count(puzzle, chosen, modulo, runner, **options)
        except BuildStopped as stopped:  # a lower bound of 0: the model was not whole
            built_partly = True
            found = Count(puzzle.name, 0, f"solutions: none counted, {stopped}", modulo, False,
                          time.time() - begin, chosen.name, runner.executor.name)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM before the cubes ran (a plan, a cluster)
            runner.interrupted = True
            found = Count(puzzle.name, 0, "solutions: none counted, interrupted before the "
                          "count began", modulo, False, time.time() - begin, chosen.name,
                          runner.executor.name)
    if runner.interrupted and not found.complete:  # Ctrl-C or SIGTERM: what it got, said so
        found.details["interrupted"] = True
    elif (not found.complete and runner.deadline is not None and time.time() >= runner.deadline
          and not built_partly):  # (a count stopped while its model was built says so itself)
        found.details["stopped_by"] = "time_limit"
    found.details.setdefault("workers_busy", _rounded(runner.busy.share))
    if runner.busy.splits:
        found.details.setdefault("split", {
            "cubes_split": runner.busy.splits, "parts": runner.busy.parts,
            "wasted_seconds": round(runner.busy.wasted, 3),
            "budget_seconds": None if runner.busy.budget is None else round(runner.busy.budget,
                                                                            3)})
    if hasattr(chosen, "credit"):  # a model counter: its name, version and licence
        found.details["counter"] = chosen.credit()
    if found.number == 0 and found.complete:
        why = fam.why_none(puzzle)
        if why:
            found.details["why_none"] = why
    _say_default(say, backend, puzzle.kind, "count")
    return found


def _count_to(puzzle, fam, backend: str | None, modulo: str, limit: int,
              checkpoint: str | None, say: Say | None, options: dict,
              runner_options: list[str]) -> Count:
    """Solutions counted one by one until the limit: one search in this process that stops at
    the limit-th (so no time limit, jobs or executor: refused, never ignored)."""
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise InputError(f"must be a whole number of at least 1, not {limit!r}", field="limit")
    if fam.counts_to_a_limit is not None:
        raise InputError(f"a {fam.kind} count counts {fam.counts_to_a_limit}: no count up to "
                         "a limit (solve gives an optimal plan)", field="limit")
    if runner_options:
        raise InputError("a count up to a limit is one search in this process, listing "
                         "solutions until the limit: it takes no time limit, jobs or executor",
                         field=runner_options[0])
    if modulo != "none":
        raise InputError("a count up to a limit counts solutions: modulo 'none'",
                         field="modulo")
    if checkpoint is not None:
        raise InputError("a count up to a limit keeps no checkpoint", field="checkpoint")
    chosen = resolve(backend, puzzle.kind, "count")
    start = time.perf_counter()
    found = sum(1 for _ in fam.solutions(puzzle, chosen, limit, **options))
    stopped = found >= limit
    what = (("solution" if found == 1 else "solutions") + ", counted one by one"
            + (f" until the limit of {limit:,} (there may be more)" if stopped else
               " (every one: the search ended before the limit)"))
    unique = None if found == 0 else found == 1 and not stopped
    _say_default(say, backend, puzzle.kind, "count")
    return Count(puzzle.name, found, what, "none", not stopped, time.perf_counter() - start,
                 chosen.name, "local", details={"solutions": found, "limit": limit,
                                                "unique": unique})


def _say_default(say: Say | None, backend: str | None, kind: str, task: str) -> None:
    """Say which backend was chosen for the user, in one short line (after the work: errors
    stay one line); why it is the default, with its figures, is `default_backend`'s to say."""
    if say and backend is None:
        say(f"backend: {default_backend(kind, task)[0]} (the default)")


def _rounded(share: float | None) -> float | None:
    return None if share is None else round(share, 3)


def make_runner(jobs: int | None, executor: str | Executor | None, time_limit: float | None,
                checkpoint: str | None, say: Say | None = None) -> Runner:
    """A Runner from the API's arguments, checked."""
    from .executors import cores

    if not (executor is None or isinstance(executor, (str, Executor))):
        raise TypeError("executor takes a name ('local', 'dask-local[:N]', 'dask://HOST:PORT') "
                        f"or an Executor, not {type(executor).__name__}")
    chosen = executor if isinstance(executor, Executor) else executor_named(executor)
    if jobs is None:
        jobs = cores()
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise InputError(f"must be a whole number of at least 1, not {jobs!r}", field="jobs")
    most = 4096  # more cubes than this many jobs' worth only lengthen the planning
    if jobs > most:
        if say:
            say(f"note: jobs={jobs} is capped at {most}")
        jobs = most
    if say and chosen.capped():
        say(chosen.capped())
    if say and jobs > cores() and chosen.name == "local":
        say(f"note: jobs={jobs} is more than the {plural(cores(), 'core')} here; the local pool "
            f"uses {plural(cores(), 'process')}")
    deadline = None if time_limit is None else time.time() + time_limit
    return Runner(chosen, jobs, deadline, checkpoint)


@takes(puzzle=PUZZLE, backends=NAMES, jobs=WHOLE, executor=EXECUTOR, time_limit=SECONDS,
       say=CALLABLE)
def verify(puzzle, backends: list[str] | None = None, jobs: int | None = None,
           executor: str | Executor | None = None, time_limit: float | None = None,
           say: Say | None = None, **options) -> Verification:
    """Count with every backend and method (with and without symmetry reduction where the family
    has it); Verification.agree says whether every count agrees (and every claim of the
    file holds: an edge-matching file's published solutions)."""
    puzzle = _puzzle(puzzle)
    fam = family_of(puzzle)
    time_limit = check_time_limit(time_limit)

    def runner_for(limit: float | None = None) -> Runner:
        return make_runner(jobs, executor, limit if limit is not None else time_limit, None)

    sample = options.get("sample_cubes")
    if sample is not None and not fam.samples_cubes:
        raise InputError(f"does not apply to {fam.kind} puzzles (their counts are checked "
                         "whole)", field="sample_cubes")
    if sample is not None and (not isinstance(sample, int) or isinstance(sample, bool)
                               or sample < 1):
        raise InputError(f"must be a whole number of at least 1, not {sample!r}",
                         field="sample_cubes")
    return fam.verify(puzzle, runner_for, backends=backends, say=say, **options)


@takes(puzzle=PUZZLE, fmt=NAME)
def export(puzzle, fmt: str = "dimacs", **options) -> tuple[str, str]:
    """The puzzle in an export format: (text, one-line summary)."""
    puzzle = _puzzle(puzzle)
    fam = family_of(puzzle)
    if fmt not in fam.export_formats:
        raise InputError(f"{puzzle.kind} puzzles export as {', '.join(fam.export_formats)}",
                         field="format")
    return fam.export(puzzle, fmt, **options)


def _puzzle(puzzle):
    """A puzzle given by name, path or as loaded; TypeError for anything else."""
    if isinstance(puzzle, (str, os.PathLike)):
        return load(puzzle)
    if not isinstance(getattr(puzzle, "kind", None), str):
        raise TypeError("a puzzle is a catalog name, the path of a puzzle file, or what "
                        f"load() returned, not {type(puzzle).__name__}")
    return puzzle
