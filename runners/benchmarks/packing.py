"""Packing counts against dancing links: xcover (Knuth's Algorithm C) as the anchor, side by side.

Each row times, in the same run and as whole work (count plan, encoding, worker start-up and
every cube), one count of a puzzle:
- the anchor: xcover on one thread, with the one-piece restriction of the count plan (the piece
  with fewest orbits kept to one placement per orbit, Knuth's classic trick) for
  --modulo symmetry, the whole cover for --modulo none;
- ours: the compiled bitboard search on cubes spread over a pool of spawned worker processes
  (their start timed too), and over threads of this process (the compiled search releases the
  GIL, so no worker has to start).
Compiling xcover's Algorithm C is done before any timed run; its cold cost (an empty numba
cache, in a fresh process) is reported on its own rows (the bitboard search is C, compiled when
puzzlesat is installed: its rows are the module's load in a fresh process). Medians of
`repeats` runs; the ratio is ours / anchor, both medians from the same run.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from types import ModuleType

from ..backends.bitboard import BitboardBackend
from ..backends.xcover import XcoverBackend
from ..children import cpu_seconds as _cpu
from ..models.errors import InputError
from ..models.files import load
from ..models.packing import exact_cover
from ..models.packing.encode import encode_cover
from ..models.packing.plan import count_plan
from ..models.words import plural
from ..output import write_text_atomic
from . import whole

PUZZLES = ("iq-block-10", "pentomino-6x10", "pentomino-8x8-centre-hole")
MODULOS = ("symmetry", "none")
EXTRA = (("pentomino-8x8-square", "symmetry"),)  # timed for our paths only, no anchor
# Knuth's DLX1 (C, one thread, one piece in one orientation), measured on this machine and
# quoted from issue 9: seconds of CPU, by (puzzle, modulo).
DLX1_SECONDS = {
    ("iq-block-10", "symmetry"): 3.8,
    ("iq-block-10", "none"): 28.0,
    ("pentomino-6x10", "symmetry"): 1.9,
    ("pentomino-6x10", "none"): 7.8,
    ("pentomino-8x8-centre-hole", "symmetry"): 0.26,
}
ANCHOR = "xcover, 1 thread (anchor)"
WHOLE_ANCHOR = "xcover, whole `puzzlesat count --jobs 1` (anchor)"


@dataclass
class Row:
    """One timed count: what was counted, by what, the median seconds and every run."""

    puzzle: str
    modulo: str
    method: str
    solutions: int
    classes: int | None
    median_seconds: float
    runs: str  # the seconds of every run, ';'-separated
    median_cpu_seconds: float | None  # CPU of this process and its workers (all threads)
    ratio_to_anchor: float | None
    dlx1_seconds: float | None
    load: str  # the 1-minute load average as each run started, ';'-separated


# ---------------------------------------------------------------- counting a plan


def plan_models(name: str, modulo: str, min_cubes: int):
    """The count plan of a catalog puzzle and the exact-cover model of each of its tasks."""
    puzzle = load(name)
    plan = count_plan(puzzle, modulo, min_cubes)
    models = [encode_cover(exact_cover(puzzle, task.options)) for task in plan.tasks]
    return plan, models


def count_in_process(backend, name: str, modulo: str) -> tuple[int, int | None]:
    """A whole count on one thread: the plan with one cube per orbit (or one cube)."""
    plan, models = plan_models(name, modulo, 1)
    counts = []
    for task, model in zip(plan.tasks, models):
        state = backend.prepare(backend.payload(model))
        counts.append([backend.count_cube(state, cube, None)[0][0] for cube in task.cubes])
    return plan.combine(counts)


@dataclass
class Searched:
    """One in-process count by the bitboard search: the answer and the size of its tree."""

    answer: tuple[int, int | None]
    nodes: int  # options tried
    hits: int  # sub-problems taken from the memo
    cpu_seconds: float


def count_searched(name: str, modulo: str, mode: str, engine: ModuleType | None = None
                   ) -> Searched:
    """A whole count on one thread by the bitboard search in a mode ('plain', 'memo', 'fewest' or
    'bitboard' for the default choice), cube by cube as the engine runs it, with its nodes;
    `engine`: the search's module (today's, or one of `search_at`)."""
    from ..backends import bitboard

    engine = engine or bitboard
    SLICE, grow = engine.SLICE, engine.grow  # noqa: N806 - the module's names
    backend = engine.BitboardBackend(None if mode == "bitboard" else mode)
    start = time.process_time()
    plan, models = plan_models(name, modulo, 1)
    counts, nodes, hits = [], 0, 0
    for task, model in zip(plan.tasks, models):
        state = backend.prepare(backend.payload(model))
        found = []
        for cube in task.cubes:
            search = backend._search(state, cube, counting=True)
            while not search.run(SLICE):
                grow(state, search)
            found.append(search.found)
            nodes += search.nodes
            hits += search.hits
        counts.append(found)
    return Searched(plan.combine(counts), nodes, hits, time.process_time() - start)


def count_zdd_plan(name: str, modulo: str) -> Searched:
    """The memoised anchor: xcover's covers_zdd (DXZ, memo cache on) on every cube of the plan."""
    from ..backends.xcover import count_zdd

    start = time.process_time()
    plan, models = plan_models(name, modulo, 1)
    counts = [[count_zdd(model, cube) for cube in task.cubes]
              for task, model in zip(plan.tasks, models)]
    return Searched(plan.combine(counts), 0, 0, time.process_time() - start)


SEARCH_CASES = (  # the dlx benchmark's boards, and a one-sided set (within minutes here)
    ("pentomino-8x8-centre-hole", "symmetry"), ("pentomino-8x8-centre-hole", "none"),
    ("iq-block-10", "symmetry"), ("pentomino-6x10", "symmetry"), ("pentomino-6x10", "none"),
    ("one-sided-pentomino-3x30", "symmetry"),
)
# today's search against an earlier revision: the dlx benchmark's boards (up to 126 items) and
# one of copies (32 dominoes)
ANCHOR_CASES = (("iq-block-10", "symmetry"), ("pentomino-6x10", "symmetry"),
                ("pentomino-8x8-centre-hole", "symmetry"), ("pentomino-8x8-centre-hole", "none"),
                ("domino-8x8", "none"))
SEARCH_METHODS = ("bitboard:plain", "bitboard:memo", "bitboard:fewest",
                  "bitboard (the default's choice)", "xcover covers_zdd (memo cache)")


def run_search(cases=SEARCH_CASES, repeats: int = 3, results: Path | None = Path("results"),
               progress: Callable[[str], None] | None = print) -> list[dict]:
    """Plain search against memoised counting, one thread in this process, on every case:
    CPU seconds (medians of `repeats`), nodes, nodes per second, memo hits, and the ratio to the
    plain search; xcover's memoised ZDD count as the anchor. Writes results/bitboard-search.md."""
    from ..backends import bitboard, xcover

    say = progress or (lambda _: None)
    bitboard.warm_up()  # compiled code loaded before any timed run
    xcover.warm_up()
    count_zdd_plan("iq-block-8", "none")
    rows = []
    for name, modulo in cases:
        plain = None
        for method in SEARCH_METHODS:
            if method.startswith("xcover") and load(name).pieces[0].count > 1:
                continue  # exact cover without multiplicities
            runs = []
            for _ in range(repeats):
                done = (count_zdd_plan(name, modulo) if method.startswith("xcover")
                        else count_searched(name, modulo, method.split(" ")[0].partition(":")[2]
                                            or "bitboard"))
                runs.append(done)
                say(f"{name} {modulo} {method}: {done.answer} in {done.cpu_seconds:.2f} s CPU, "
                    f"{plural(done.nodes, 'node')}, {plural(done.hits, 'hit')} (load {_load()})")
            middle = statistics.median(r.cpu_seconds for r in runs)
            plain = middle if plain is None else plain
            nodes = runs[0].nodes
            rows.append({
                "puzzle": name, "modulo": modulo, "method": method,
                "solutions": runs[0].answer[0], "classes": runs[0].answer[1],
                "agrees": len({r.answer for r in runs}) == 1,
                "median_cpu_seconds": round(middle, 3),
                "runs": ";".join(f"{r.cpu_seconds:.3f}" for r in runs),
                "nodes": nodes, "nodes_per_second": round(nodes / middle) if nodes else None,
                "memo_hits": runs[0].hits, "ratio_to_plain": round(middle / plain, 3),
                "load": _load(),
            })
    if results is not None:
        write_search(rows, results, repeats)
    return rows


# ---------------------------------------------------------------- the search against its past


def search_at(revision: str) -> tuple[ModuleType, str]:
    """The bitboard search's module as it was at a git revision of this checkout (the anchor of
    `bench --search --against REV`), loaded beside today's and compiled on its own; and the
    revision's commit. Needs git and a clone (not an installed wheel)."""
    root = Path(__file__).resolve().parents[2]

    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                                  text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as error:
            said = (getattr(error, "stderr", "") or str(error)).strip().splitlines()
            raise InputError(f"no bitboard search at {revision!r} in {root}: "
                             f"{said[-1] if said else 'git failed'}", field="revision") from None

    commit = git("rev-parse", "--verify", f"{revision}^{{commit}}").strip()
    source = git("show", f"{commit}:runners/backends/bitboard.py")
    folder = Path(tempfile.gettempdir()) / f"puzzlesat-search-{commit[:12]}"
    folder.mkdir(exist_ok=True)
    path = folder / "bitboard_anchor.py"  # numba caches its compiled code beside it
    if not path.exists() or path.read_text() != source:
        write_text_atomic(path, source)
    name = f"puzzlesat.backends._bitboard_{commit[:12]}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its relative imports resolve in puzzlesat.backends
    spec.loader.exec_module(module)
    return module, commit


ANCHOR_MODES = ("plain", "bitboard")  # the search without a memo, and the default's choice


def run_against(revision: str, cases=ANCHOR_CASES, repeats: int = 3,
                results: Path | None = Path("results"),
                progress: Callable[[str], None] | None = print) -> list[dict]:
    """Today's bitboard search against itself at `revision`, one thread in this process, the
    same count plans: CPU seconds (medians of `repeats`, the two taking turns run by run so
    that the load falls on both alike), nodes, nodes/s and the ratio today / anchor per mode.
    Writes results/bitboard-anchor.md and .csv."""
    from ..backends import bitboard

    say = progress or (lambda _: None)
    past, commit = search_at(revision)
    engines = (("today", bitboard), (f"at {commit[:10]} (anchor)", past))
    for _, engine in engines:
        engine.warm_up()  # compiled code loaded before any timed run
    rows = []
    for name, modulo in cases:
        for mode in ANCHOR_MODES:
            runs: dict[str, list[Searched]] = {label: [] for label, _ in engines}
            for _ in range(repeats):
                for label, engine in engines:
                    done = count_searched(name, modulo, mode, engine)
                    runs[label].append(done)
                    say(f"{name} {modulo} {mode} {label}: {done.answer} in "
                        f"{done.cpu_seconds:.2f} s CPU, {plural(done.nodes, 'node')} (load "
                        f"{_load()})")
            medians = {label: statistics.median(r.cpu_seconds for r in runs[label])
                       for label, _ in engines}
            anchor = medians[engines[1][0]]
            answers = {r.answer for label, _ in engines for r in runs[label]}
            for label, _ in engines:
                nodes = runs[label][0].nodes
                rows.append({
                    "puzzle": name, "modulo": modulo,
                    "method": f"bitboard{'' if mode == 'bitboard' else ':' + mode} {label}",
                    "solutions": runs[label][0].answer[0], "classes": runs[label][0].answer[1],
                    "agrees": len(answers) == 1,
                    "median_cpu_seconds": round(medians[label], 3),
                    "runs": ";".join(f"{r.cpu_seconds:.3f}" for r in runs[label]),
                    "nodes": nodes, "nodes_per_second": round(nodes / medians[label]),
                    "memo_hits": runs[label][0].hits,
                    "ratio_to_anchor": round(medians[label] / anchor, 3), "load": _load(),
                })
            if len(answers) != 1:
                say(f"{name} {modulo} {mode}: the two searches disagree: {sorted(answers)}")
    if results is not None:
        write_against(rows, results, repeats, commit)
    return rows


def machine_line() -> str:
    """The line of a benchmark's report that names the machine."""
    return (f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
            f"Python {platform.python_version()}.")


def write_against(rows: list[dict], folder: Path, repeats: int, commit: str) -> None:
    """results/bitboard-anchor.md and .csv, each written whole or not at all."""
    lines = [
        "# Bitboard search: today against an earlier revision of itself",
        "",
        f"`puzzlesat bench --search --against REV`: the anchor is runners/backends/bitboard.py "
        f"at commit {commit}, loaded from git beside today's and compiled on its own. One thread "
        "in one process, the whole count plan as `puzzlesat count --jobs 1` makes it; CPU "
        f"seconds of this process, medians of {plural(repeats, 'run')}, the two searches taking "
        "turns run by run. Nodes: options placed (a memo hit is no node); nodes/s = nodes / median "
        "CPU "
        "seconds; ratio: median CPU seconds over the anchor's in the same mode, same run. "
        "`plain`: no memo; `bitboard`: the default's choice of memo per cube.",
        machine_line(),
        "",
        "| puzzle | modulo | method | solutions | classes | agrees | median CPU s | runs | nodes "
        "| nodes/s | memo hits | ratio to anchor | load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        classes = "" if r["classes"] is None else f"{r['classes']:,}"
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {r['method']} | {r['solutions']:,} | {classes} | "
            f"{'yes' if r['agrees'] else 'NO'} | {r['median_cpu_seconds']:.2f} | {r['runs']} | "
            f"{r['nodes']:,} | {r['nodes_per_second']:,} | {r['memo_hits']:,} | "
            f"{r['ratio_to_anchor']} | {r['load']} |")
    write_rows(folder, "bitboard-anchor", rows, lines)


PROFILE_SPLIT = 128  # cubes as `puzzlesat count --jobs 32` cuts a plan (the 9x10 checkpoint's)
PROFILE_PARTS = (
    ("plain, no dead regions", "plain", False),
    ("plain", "plain", True),
    ("memo", "memo", True),
    ("fewest fits", "fewest", True),  # branching on the item with the fewest fits
    ("fewest fits, memo", "fewest memo", True),
)


def profile_search(name: str, modulo: str, sample: int, seed: int = 1,
                   progress: Callable[[str], None] | None = print) -> list[dict]:
    """Where the bitboard search's time goes on a count too long to repeat whole: a random
    sample of the plan's cubes (among those holding the 1st to the 10th per cent of the
    estimated work, from the smallest up: real work, the large cubes left out so that the
    sample takes minutes), each counted on one thread with the search's parts taken away in turn
    (the dead-region check, the memo) and with the fewest-fits branching. Rows per part: CPU
    seconds, nodes, nanoseconds a node, options dropped by the dead-region check, memo hits;
    every part must agree cube by cube."""
    import dataclasses

    from ..backends.bitboard import (
        SLICE,
        Memo,
        Prepared,
        Search,
        board_of,
        grow,
        warm_up,
    )

    say = progress or (lambda _: None)
    warm_up()
    chosen, of = sampled_cubes(name, modulo, sample, seed)
    totals = {part: {"cpu": 0.0, "nodes": 0, "dead": 0, "hits": 0} for part, _, _ in PROFILE_PARTS}
    boards = {}  # per task: the board, with and without its geometry
    for k, (t, model, cube, estimated) in enumerate(chosen, start=1):
        if t not in boards:
            whole = board_of(model)
            boards[t] = {True: whole, False: dataclasses.replace(whole, reach=0)}
        found = set()
        for part, mode, regions in PROFILE_PARTS:
            board = boards[t][regions]
            search = Search(board, cube, fewest=mode.startswith("fewest"))
            state = None
            if mode.endswith("memo") and not search.done:
                state = Prepared(model, board, Memo.first(board.words))
                search.memo = state.memo
            start = time.thread_time()
            while not search.run(SLICE):
                if state is not None:
                    grow(state, search)
            seconds = time.thread_time() - start
            found.add(search.found)
            row = totals[part]
            row["cpu"] += seconds
            row["nodes"] += search.nodes
            row["dead"] += search.dead_ends
            row["hits"] += search.hits
            say(f"cube {k}/{len(chosen)} (task {t}, estimated {estimated:.3g} nodes) {part}: "
                f"{search.found:,} found, {plural(search.nodes, 'node')}, {seconds:.2f} s CPU")
        if len(found) != 1:
            raise ArithmeticError(f"{name} cube {cube}: the parts disagree: {sorted(found)}")
    rows = []
    for part, _, _ in PROFILE_PARTS:
        row = totals[part]
        nodes = max(1, row["nodes"])
        rows.append({
            "puzzle": name, "modulo": modulo, "cubes": len(chosen), "of": of,
            "seed": seed, "part": part, "cpu_seconds": round(row["cpu"], 3),
            "nodes": row["nodes"], "ns_per_node": round(1e9 * row["cpu"] / nodes),
            "dead_region_drops": row["dead"], "memo_hits": row["hits"], "load": _load(),
        })
    return rows


def sampled_cubes(name: str, modulo: str, sample: int, seed: int = 1
                  ) -> tuple[list[tuple[int, object, tuple[int, ...], float]], int]:
    """`sample` random cubes of the plan as `count --jobs 32` cuts it, among those holding the
    1st to the 10th per cent of the estimated work from the smallest up (real work, the large
    cubes left out so that the sample takes minutes: a cube of the 9x10 in the 5-50 % band took
    over 10 minutes without dead regions): (task, its model, cube, estimated nodes) each, and
    the plan's cubes."""
    import random

    plan, models = plan_models(name, modulo, PROFILE_SPLIT)
    ours = BitboardBackend()
    cubes = []  # (task, model, cube, estimated nodes)
    for t, (task, model) in enumerate(zip(plan.tasks, models)):
        state = ours.prepare_for_estimates(ours.payload(model))
        cubes += [(t, model, cube, ours.estimate(state, cube)) for cube in task.cubes]
    cubes.sort(key=lambda c: c[3])
    total, running, middle = sum(c[3] for c in cubes), 0.0, []
    for c in cubes:
        running += c[3]
        if 0.01 * total <= running <= 0.1 * total:
            middle.append(c)
    return random.Random(seed).sample(middle, min(sample, len(middle))), len(cubes)


# ---------------------------------------------------------------- one memo for the threads

SHARED_ARMS = ("each thread its own memo", "one memo shared by the threads")


def count_on_threads(parts: list[tuple[object, list[tuple[int, ...]]]], jobs: int, shared: bool
                     ) -> tuple[list[list[int]], dict]:
    """Cubes counted by the default bitboard backend on `jobs` threads of this process as
    `count --jobs N` runs them (executors.run_on_threads), the threads of each model sharing
    one memo or each keeping its own: each part's counts (parts: a model and its cubes), and
    the wall and CPU seconds (every thread), nodes and memo hits."""
    from ..backends import bitboard
    from ..executors import Work, run_on_threads

    backend = BitboardBackend()
    works = [Work(str(p), backend.name, backend.payload(model), cubes)
             for p, (model, cubes) in enumerate(parts)]
    found: list[list[int]] = [[0] * len(cubes) for _, cubes in parts]

    def record(work: Work, indexes: list[int], results: list) -> None:
        for i, (values, finished, _) in zip(indexes, results):
            if not finished:
                raise ArithmeticError(f"cube {work.cubes[i]} not finished")
            found[int(work.label)][i] = values[0]

    before = (bitboard.nodes_searched(), bitboard.memo_hits())
    load, start, cpu = _load(), time.perf_counter(), _cpu()
    run_on_threads(works, {w.token: list(range(len(w.cubes))) for w in works}, jobs, None,
                   record, share=shared)
    return found, {"wall_seconds": time.perf_counter() - start, "cpu_seconds": _cpu() - cpu,
                   "nodes": bitboard.nodes_searched() - before[0],
                   "memo_hits": bitboard.memo_hits() - before[1], "load": load}


def run_shared(cases, jobs: int, repeats: int = 3, sample: int | None = None, seed: int = 1,
               results: Path | None = Path("results"),
               progress: Callable[[str], None] | None = print) -> list[dict]:
    """The memo shared by the threads of a process against each thread's own, `jobs` threads:
    the whole count plan as `count --jobs N` cuts it, or with `sample` the cubes
    `sampled_cubes` draws (the 9x10's whole count is hours); the two arms take turns run by
    run, medians of `repeats` (wall, CPU of every thread, nodes, memo hits), every run's counts
    equal. Writes results/bitboard-shared.md and .csv."""
    from ..backends.bitboard import warm_up

    say = progress or (lambda _: None)
    warm_up()
    rows = []
    for name, modulo in cases:
        if sample:
            chosen, of = sampled_cubes(name, modulo, sample, seed)
            by_task: dict[int, tuple[object, list]] = {}
            for t, model, cube, _ in chosen:
                by_task.setdefault(t, (model, []))[1].append(cube)
            parts, combine = list(by_task.values()), None
            what = f"{len(chosen)} sampled cubes of {of} (seed {seed})"
        else:
            plan, models = plan_models(name, modulo, BitboardBackend.cubes_per_job * jobs)
            parts = [(model, task.cubes) for task, model in zip(plan.tasks, models)]
            combine, what = plan.combine, "whole count"
        runs: dict[bool, list[dict]] = {False: [], True: []}
        answers = set()
        for r in range(repeats):
            for shared in ((False, True) if r % 2 == 0 else (True, False)):
                found, figures = count_on_threads(parts, jobs, shared)
                answer = combine(found) if combine else tuple(map(tuple, found))
                answers.add(answer)
                runs[shared].append(figures)
                say(f"{name} {modulo} {what}, {SHARED_ARMS[shared]}: "
                    f"{figures['wall_seconds']:.2f} s wall, {figures['cpu_seconds']:.2f} s CPU, "
                    f"{plural(figures['nodes'], 'node')}, {plural(figures['memo_hits'], 'hit')} "
                    f"(load {figures['load']})")
        if len(answers) != 1:
            raise ArithmeticError(f"{name} {modulo}: the arms disagree: {sorted(answers)}")
        own = None
        for shared in (False, True):
            arm = runs[shared]
            middle = {k: statistics.median(f[k] for f in arm)
                      for k in ("wall_seconds", "cpu_seconds", "nodes", "memo_hits")}
            own = own or middle
            rows.append({
                "puzzle": name, "modulo": modulo, "counted": what, "threads": jobs,
                "memo": SHARED_ARMS[shared],
                "answer": (f"{plural(answer[0], 'solution')}" + ("" if answer[1] is None else
                                                         f", {plural(answer[1], 'class')}")
                           if combine else f"{plural(sum(map(sum, found)), 'solution')}"),
                "median_wall_seconds": round(middle["wall_seconds"], 3),
                "median_cpu_seconds": round(middle["cpu_seconds"], 3),
                "cpu_runs": ";".join(f"{f['cpu_seconds']:.2f}" for f in arm),
                "median_nodes": int(middle["nodes"]), "median_memo_hits": int(middle["memo_hits"]),
                "cpu_ratio_to_own": round(middle["cpu_seconds"] / own["cpu_seconds"], 3),
                "load": ";".join(f["load"] for f in arm),
            })
    if results is not None:
        write_shared(rows, results)
    return rows


# ---------------------------------------------------------------- the branching, cube by cube

CHOICE_THRESHOLDS = (1.5, 2, 3, 3.5, 4, 5, 6, 8, 12)  # FEWEST_FROM values the totals are given at


def run_choice(cases, sample: int, results: Path | None = Path("results"),
               progress: Callable[[str], None] | None = print,
               races: tuple[float, ...] = (), repeat: int = 1) -> list[dict]:
    """The figures FEWEST_FROM is chosen by (runners/backends/bitboard.py): of the plan's cubes
    as `count --jobs 32` cuts it, those large enough for the default's choice (estimated above
    CHOICE_FROM_NODES), `sample` of them spread evenly over their sizes (Knuth's estimate of
    the first-empty-cell tree), each counted on one thread in both branchings with the memo the
    default takes: thread CPU seconds and nodes of each, the estimated ratio the choice reads
    (fewest_pays: first-cell tree / fewest-fits tree); then, the cubes weighted by how many
    they stand for, the CPU the whole would take at each threshold of CHOICE_THRESHOLDS, on the
    first empty cell only and on fewest fits only. `races`: RACE values (fewest_race) at which
    each sampled cube the default races (its ratio past FEWEST_FROM) is counted again as the
    default counts it, `repeat` times at each (the values taking turns; the median CPU
    seconds), and the total the default would take at each. Writes
    results/bitboard-choice.md and .csv (the rows of other puzzles kept)."""
    from ..backends.bitboard import (
        CHOICE_FROM_NODES,
        CHOICE_PATHS,
        ESTIMATE_STEPS,
        FEWEST_FROM,
        MEMO_PROBE_PATHS,
        SLICE,
        Memo,
        Prepared,
        Search,
        board_of,
        grow,
        wants_memo,
        warm_up,
    )

    say = progress or (lambda _: None)
    warm_up()
    rows = []
    for name, modulo in cases:
        plan, models = plan_models(name, modulo, PROFILE_SPLIT)
        eligible = []  # (first-cell estimate, model, board, cube, whole-tree estimate, ratio)
        for task, model in zip(plan.tasks, models):
            board = board_of(model)
            probe = max(4, min(MEMO_PROBE_PATHS, ESTIMATE_STEPS // max(1, len(board.bit_of))))
            paths = max(4, min(CHOICE_PATHS, ESTIMATE_STEPS // max(1, len(board.bit_of))))
            for cube in task.cubes:
                search = Search(board, cube)
                if any(k < 0 for k in cube) or search.done:
                    continue  # options left out (no choice made there), or nothing to search
                nodes = search.estimates(probe, regions=False)[0]
                if nodes <= CHOICE_FROM_NODES:
                    continue
                first = Search(board, cube).estimate(paths)
                fewest = Search(board, cube, fewest=True).estimate(paths)
                eligible.append((first, model, board, cube, nodes, first / max(1.0, fewest)))
        eligible.sort(key=lambda e: e[0])
        picks = sorted({round(i * (len(eligible) - 1) / max(1, sample - 1))
                        for i in range(sample)}) if eligible else []
        weight = len(eligible) / max(1, len(picks))
        cubes = []
        for n, i in enumerate(picks, start=1):
            estimated, model, board, cube, nodes, ratio = eligible[i]
            row = {"puzzle": name, "modulo": modulo, "cube": " ".join(map(str, cube)),
                   "estimated_first_cell_nodes": round(estimated), "ratio": round(ratio, 2)}
            found = set()
            for fewest, label in ((False, "first_cell"), (True, "fewest")):
                search = Search(board, cube, fewest=fewest)
                state = None
                if wants_memo(None):
                    state = Prepared(model, board, Memo.first(board.words))
                    search.memo = state.memo
                start = time.thread_time()
                while not search.run(SLICE):
                    if state is not None:
                        grow(state, search)
                row[f"{label}_cpu_seconds"] = round(time.thread_time() - start, 3)
                row[f"{label}_nodes"] = search.nodes
                found.add(search.found)
            runs = raced_runs(races if ratio > FEWEST_FROM else (), repeat, model, board, cube)
            found |= {solutions for _, _, solutions in runs}
            if len(found) != 1:
                raise ArithmeticError(f"{name} cube {cube}: the branchings disagree: {found}")
            row["solutions"] = found.pop()
            row["race_runs"] = "; ".join(f"{r:g}: {seconds:.3f} s, {plural(nodes, 'node')}"
                                         for r, (seconds, nodes, _) in zip(races, runs))
            row["race_seconds"] = {r: seconds for r, (seconds, _, _) in zip(races, runs)}
            row["load"] = _load()
            cubes.append(row)
            say(f"{name} {modulo} cube {n}/{len(picks)} (ratio {ratio:.2f}): first cell "
                f"{row['first_cell_cpu_seconds']:.2f} s, fewest fits "
                f"{row['fewest_cpu_seconds']:.2f} s CPU (load {row['load']})")
        totals = {f"at {t}": weight * sum(r["fewest_cpu_seconds"] if r["ratio"] > t
                                          else r["first_cell_cpu_seconds"] for r in cubes)
                  for t in CHOICE_THRESHOLDS}
        totals["first cell only"] = weight * sum(r["first_cell_cpu_seconds"] for r in cubes)
        totals["fewest fits only"] = weight * sum(r["fewest_cpu_seconds"] for r in cubes)
        for race in races:  # the cubes the default does not race take the first empty cell
            totals[f"default at RACE {race:g}"] = weight * sum(
                r["race_seconds"].get(race, r["first_cell_cpu_seconds"]) for r in cubes)
        for row in cubes:
            del row["race_seconds"]
            row["of"] = (f"{len(picks)} of {plural(len(eligible), 'cube')} large enough, of "
                         f"{sum(len(t.cubes) for t in plan.tasks)}")
            row["weighted_totals"] = "; ".join(f"{k}: {v:.1f}" for k, v in totals.items())
        rows += cubes
    if results is not None and rows:
        write_choice(rows, results)
    return rows


def raced_runs(races: tuple[float, ...], repeat: int, model, board, cube
               ) -> list[tuple[float, int, int]]:
    """The cube counted as the default counts it at each of `races` (default_at), `repeat`
    times each, the values taking turns (reversed every other round): at each, the median CPU
    seconds and nodes (the race is looked at between slices the clock sizes: the nodes vary a
    little), and the solutions (one number, or an ArithmeticError)."""
    runs: dict[float, list[tuple[float, int, int]]] = {race: [] for race in races}
    for k in range(repeat if races else 0):
        for race in races if k % 2 == 0 else races[::-1]:
            runs[race].append(default_at(race, model, board, cube))
    found = []
    for race, timed in runs.items():
        if len({solutions for _, _, solutions in timed}) != 1:
            raise ArithmeticError(f"cube {cube} at RACE {race:g}: its counts differ: {timed}")
        found.append((statistics.median(seconds for seconds, _, _ in timed),
                      int(statistics.median(nodes for _, nodes, _ in timed)), timed[0][2]))
    return found


def default_at(race: float, model, board, cube) -> tuple[float, int, int]:
    """One cube counted on this thread as the default backend counts it (the memo it takes,
    the race to the fewest fits) with RACE at `race` for this count: thread CPU seconds,
    nodes, solutions."""
    from ..backends import bitboard

    backend = BitboardBackend()
    state = backend.prepare(bitboard.Prepared(model, board, race=race))
    before, start = bitboard.nodes_searched(), time.thread_time()
    (solutions,), done = backend.count_cube(state, cube, None)
    if not done:
        raise ArithmeticError(f"cube {cube} not finished at RACE {race:g}")
    return time.thread_time() - start, bitboard.nodes_searched() - before, solutions


def write_choice(rows: list[dict], folder: Path) -> None:
    """results/bitboard-choice.md and .csv, each written whole or not at all; the rows of other
    puzzles kept."""
    rows = _kept_rows(folder / "bitboard-choice.csv", rows,
                      lambda r: (r["puzzle"], r["modulo"]))
    lines = [
        "# Bitboard search: the branching chosen per cube (FEWEST_FROM's figures)",
        "",
        "`puzzlesat bench --search --choice --sample N PUZZLE`. Of the count plan's cubes as "
        f"`puzzlesat count --jobs 32` cuts it ({PROFILE_SPLIT} cubes asked for), those the "
        "default chooses a branching for (estimated above CHOICE_FROM_NODES), N of them spread "
        "evenly over their sizes; each counted on one thread on the first empty cell and on the "
        "item with the fewest fits, with the memo the default takes (thread CPU seconds; every "
        "cube's two counts equal). Ratio: Knuth's estimate of the first-cell tree over the "
        "fewest-fits tree, what `fewest_pays` compares with FEWEST_FROM. Weighted totals: the "
        "CPU seconds the cubes large enough would take in all, each sampled cube standing for "
        "as many as the sample spreads over, at each threshold (fewest fits where the ratio "
        "passes it). The default at RACE (`--race R`): each sampled cube whose ratio passes "
        "FEWEST_FROM counted again as the default counts it (its estimates included, the "
        "first empty cell until RACE times the fewest-fits estimate, then the fewest fits), "
        "`--repeat` times at each R, the values taking turns (the median CPU seconds), and its "
        "total taking the first-cell figure for the cubes it does not race.",
        machine_line(),
        "",
    ]
    puzzles = list(dict.fromkeys((r["puzzle"], r["modulo"]) for r in rows))
    for name, modulo in puzzles:
        mine = [r for r in rows if (r["puzzle"], r["modulo"]) == (name, modulo)]
        lines += [f"## {name}, {modulo} ({mine[0]['of']})", "",
                  f"Weighted totals, CPU s: {mine[0]['weighted_totals']}.", "",
                  "| cube | estimated first-cell nodes | ratio | first cell: CPU s, nodes | "
                  "fewest fits: CPU s, nodes | the default at RACE: CPU s, nodes | solutions | "
                  "load |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in mine:
            lines.append(
                f"| {r['cube']} | {int(r['estimated_first_cell_nodes']):,} | {r['ratio']} | "
                f"{float(r['first_cell_cpu_seconds']):.2f}, {int(r['first_cell_nodes']):,} | "
                f"{float(r['fewest_cpu_seconds']):.2f}, {int(r['fewest_nodes']):,} | "
                f"{r.get('race_runs') or '-'} | {int(r['solutions']):,} | {r['load']} |")
        lines.append("")
    write_rows(folder, "bitboard-choice", rows, lines)


def _kept_rows(path: Path, rows: list[dict], key: Callable[[dict], tuple]) -> list[dict]:
    """The rows of a results CSV whose key no new row has, then the new rows."""
    if not path.exists():
        return rows
    fresh = {key({k: str(v) for k, v in r.items()}) for r in rows}
    with path.open(encoding="utf-8", newline="") as kept:
        return [r for r in csv.DictReader(kept) if key(r) not in fresh] + rows


def write_shared(rows: list[dict], folder: Path) -> None:
    """results/bitboard-shared.md and .csv, each written whole or not at all; the rows of
    other puzzles kept (a whole count and sampled cubes of the 9x10 are two calls)."""
    rows = _kept_rows(folder / "bitboard-shared.csv", rows,
                      lambda r: (r["puzzle"], r["modulo"], r["threads"], "sampled" in r["counted"]))
    lines = [
        "# Bitboard search: one memo shared by the threads against each thread's own",
        "",
        "`puzzlesat bench --search --jobs N PUZZLE` (with `--sample CUBES`: the cubes `--sample` "
        "draws for the profile). The default bitboard backend on N threads of this process, as "
        "`puzzlesat count --jobs N` runs it; the two arms take turns run by run, medians of "
        "the runs (every run's CPU seconds listed). CPU: every thread of this process; nodes: "
        "options placed (a memo hit "
        "is no node); answer: the count (and its classes for --modulo symmetry) or the "
        "sampled cubes' solutions, equal on every run. Load: the 1-minute load average as each "
        "run started.",
        machine_line(),
        "",
        "| puzzle | modulo | counted | threads | memo | answer | wall s | CPU s | CPU runs | "
        "nodes | memo hits | CPU ratio to own | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {r['counted']} | {r['threads']} | {r['memo']} | "
            f"{r['answer']} | {float(r['median_wall_seconds']):.2f} | "
            f"{float(r['median_cpu_seconds']):.2f} | {r['cpu_runs']} | "
            f"{int(r['median_nodes']):,} | {int(r['median_memo_hits']):,} | "
            f"{r['cpu_ratio_to_own']} | {r['load']} |")
    write_rows(folder, "bitboard-shared", rows, lines)


def write_profile(rows: list[dict], folder: Path) -> None:
    """results/bitboard-profile.md and .csv, each written whole or not at all."""
    lines = [
        "# Where the bitboard search's time goes",
        "",
        "`puzzlesat bench --search PUZZLE --sample N`: a random sample of N cubes of the count "
        f"plan as `puzzlesat count --jobs 32` cuts it ({PROFILE_SPLIT} cubes asked for), drawn "
        "among the cubes holding the 1st to the 10th per cent of the estimated work (Knuth's "
        "estimator), counted from the smallest cube up: real work, the large cubes left out so "
        "that the sample takes minutes; each cube counted on one thread five times, with the "
        "search's parts taken away in turn: the dead-region check (an option closing off a "
        "region of empty cells no piece can fill is dropped) and the memo (a fresh table per "
        "cube), and branching on the item with the fewest fits (without and with the memo). "
        "Every part agrees cube by cube. CPU seconds of the counting thread; nodes are "
        "options placed.",
        machine_line(),
        "",
        "| puzzle | modulo | cubes | of | seed | part | CPU s | nodes | ns/node | "
        "dead-region drops | memo hits | load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {r['cubes']} | {r['of']} | {r['seed']} | "
            f"{r['part']} | {r['cpu_seconds']:.2f} | {r['nodes']:,} | {r['ns_per_node']:,} | "
            f"{r['dead_region_drops']:,} | {r['memo_hits']:,} | {r['load']} |")
    write_rows(folder, "bitboard-profile", rows, lines)


def write_search(rows: list[dict], folder: Path, repeats: int) -> None:
    """results/bitboard-search.md and .csv, each written whole or not at all."""
    lines = [
        "# Bitboard search: plain against memoised counting",
        "",
        f"`puzzlesat bench --search`. One thread in one process, the whole count plan (every cube "
        f"of every task, the plan's cubes as `puzzlesat count --jobs 1` makes them); CPU seconds "
        f"of this process, medians of {plural(repeats, 'run')} (CPU rather than wall: the machine "
        "is shared and loaded, see the load column). Nodes: options placed by the search (a memo "
        "hit counts as no node); nodes/s = nodes / median CPU seconds. Ratio: median CPU "
        "seconds over the plain search's, same run. The anchor is xcover's `covers_zdd` with "
        "its memo cache (Nishino et al.'s DXZ), counted by the paths of its ZDD.",
        machine_line(),
        "",
        "| puzzle | modulo | method | solutions | classes | median CPU s | runs | nodes | "
        "nodes/s | memo hits | ratio to plain | load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    def number(value: int | None) -> str:
        return "" if value is None else f"{value:,}"

    for r in rows:
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {r['method']} | {r['solutions']:,} | "
            f"{number(r['classes'])} | {r['median_cpu_seconds']:.2f} | {r['runs']} | "
            f"{r['nodes']:,} | {number(r['nodes_per_second'])} | {r['memo_hits']:,} | "
            f"{r['ratio_to_plain']} | {r['load']} |")
    write_rows(folder, "bitboard-search", rows, lines)


def write_rows(folder: Path, stem: str, rows: list[dict], lines: list[str]) -> None:
    """folder/stem.csv (the rows) and folder/stem.md (the lines), each written whole or not at
    all."""
    folder.mkdir(parents=True, exist_ok=True)
    table = io.StringIO()
    # every row's columns, in the order met (rows kept from an older file may lack new ones)
    writer = csv.DictWriter(table, fieldnames=list(dict.fromkeys(k for r in rows for k in r)))
    writer.writeheader()
    writer.writerows(rows)
    for path, text in ((f"{stem}.csv", table.getvalue()), (f"{stem}.md", "\n".join(lines) + "\n")):
        write_text_atomic(folder / path, text)


def count_ours(name: str, modulo: str, jobs: int) -> tuple[int, int | None]:
    """Our counting path through the API: the default backend (the compiled bitboard search)
    on the local executor, which runs it on threads of this process (it releases the GIL)."""
    from .. import api

    found = whole(api.count(name, modulo=modulo, jobs=jobs))
    return found.details["solutions"], found.details["classes"]


def whole_process(args: list[str]) -> tuple[int, int | None]:
    """A whole `puzzlesat count` process, as a user runs it (start-up and imports included),
    with Python's bytecode cache on as an install leaves it, even where this shell turned it off
    (PYTHONDONTWRITEBYTECODE: every import then compiles its source again, 0.1 s a process)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, "-m", "puzzlesat.cli", "count", *args, "--json"],
                         capture_output=True, text=True, check=True, env=env)
    found = json.loads(out.stdout)
    return found["solutions"], found["classes"]


# ---------------------------------------------------------------- compile costs


def cold_compile_seconds(module: str) -> float:
    """Seconds a fresh process takes to compile a backend with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        code = f"from puzzlesat.backends.{module} import warm_up; print(warm_up())"
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.split()[-1])


def warm_seconds(module: str) -> float:
    """Seconds a fresh process takes to load a backend from numba's cache (after warm_up)."""
    code = f"from puzzlesat.backends.{module} import warm_up; print(warm_up())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


# ---------------------------------------------------------------- the benchmark


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def run(
    puzzles: tuple[str, ...] = PUZZLES,
    modulos: tuple[str, ...] = MODULOS,
    extra: tuple[tuple[str, str], ...] = EXTRA,
    repeats: int = 3,
    jobs: int = 2,
    results: Path | None = Path("results"),
    progress: Callable[[str], None] | None = print,
) -> list[Row]:
    """Time the anchor and our counting path; write results/dlx-bench.csv and .md."""
    say = progress or (lambda _: None)
    anchor, ours = XcoverBackend(), BitboardBackend()  # both must be installed
    if not anchor.supported() or not ours.supported():
        raise RuntimeError(f"the benchmark needs xcover and the compiled bitboard search: "
                           f"{anchor.needs}")
    rows = []
    for module in ("xcover", "bitboard"):
        warm_seconds(module)  # fill the cache before the cold measure's neighbour runs
        cold, warm = cold_compile_seconds(module), warm_seconds(module)
        # the bitboard search is C compiled at install: its one row is the module's load
        timed = (((f"{module} cold compile", cold), (f"{module} cached load", warm))
                 if module == "xcover" else (("bitboard load (C, built at install)", warm),))
        say(", ".join(f"{method} {seconds:.2f} s" for method, seconds in timed))
        for method, seconds in timed:
            rows.append(
                Row(
                    "-",
                    "-",
                    method,
                    0,
                    None,
                    round(seconds, 3),
                    f"{seconds:.3f}",
                    None,
                    None,
                    None,
                    _load(),
                )
            )
    cases = [(p, m) for p in puzzles for m in modulos] + list(extra)
    times: dict[tuple[str, str, str], list[float]] = {}
    answers: dict[tuple[str, str, str], tuple[int, int | None]] = {}
    loads: dict[tuple[str, str, str], list[str]] = {}
    cpu: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(repeats):
        for name, modulo in cases:
            methods = [
                (ANCHOR, partial(count_in_process, anchor, name, modulo)),
                (WHOLE_ANCHOR, partial(whole_process, [name, "--modulo", modulo, "--backend",
                                                       "xcover", "--jobs", "1"])),
                (f"ours: count, {plural(jobs, 'job')}", partial(count_ours, name, modulo, jobs)),
                (f"ours: whole `puzzlesat count`, {plural(jobs, 'job')}",
                 partial(whole_process, [name, "--modulo", modulo, "--jobs", str(jobs)])),
            ]
            for method, count in methods[2 * ((name, modulo) in extra):]:
                loads.setdefault((name, modulo, method), []).append(_load())
                start, start_cpu = time.perf_counter(), _cpu()
                answer = count()
                seconds = time.perf_counter() - start
                key = (name, modulo, method)
                cpu.setdefault(key, []).append(_cpu() - start_cpu)
                if answers.setdefault(key, answer) != answer:
                    raise ArithmeticError(f"{key}: {answer} after {answers[key]}")
                times.setdefault(key, []).append(seconds)
                say(
                    f"{name} --modulo {modulo} {method}: {answer} in {seconds:.2f} s "
                    f"(CPU {cpu[key][-1]:.2f} s, load {loads[key][-1]})"
                )
    for name, modulo in cases:
        keys = [k for k in times if k[:2] == (name, modulo)]
        medians = {k[2]: statistics.median(times[k]) for k in keys}
        # in-process rows against the in-process anchor, whole processes against a whole one
        published = load(name).published.get("classes")
        if len({answers[k] for k in keys}) != 1 or (
            modulo == "symmetry" and published not in (None, answers[keys[0]][1])
        ):
            raise ArithmeticError(
                f"{name} {modulo}: {[answers[k] for k in keys]}, published classes {published}"
            )
        for key in keys:
            solutions, classes = answers[key]
            rows.append(
                Row(
                    name,
                    modulo,
                    key[2],
                    solutions,
                    classes,
                    round(medians[key[2]], 3),
                    ";".join(f"{t:.3f}" for t in times[key]),
                    round(statistics.median(cpu[key]), 3),
                    _ratio(medians, key[2]),
                    DLX1_SECONDS.get((name, modulo)),
                    ";".join(loads[key]),
                )
            )
    if results is not None:
        write(rows, results, repeats, jobs)
    return rows


def _ratio(medians: dict[str, float], method: str) -> float | None:
    base = medians.get(WHOLE_ANCHOR if "whole" in method else ANCHOR)
    return None if base is None else round(medians[method] / base, 3)


def write(rows: list[Row], folder: Path, repeats: int, jobs: int) -> None:
    """results/dlx-bench.csv and dlx-bench.md, each written whole or not at all; the rows of
    other puzzles and modulos kept (recording one board keeps the others')."""
    kept = _kept_rows(folder / "dlx-bench.csv", [asdict(r) for r in rows],
                      lambda r: (r["puzzle"], r["modulo"]))
    lines = [
        "# Packing counts: xcover (Algorithm C) anchor and the bitboard search",
        "",
        f"Medians of {plural(repeats, 'run')}. In-process rows time the whole work of a count "
        f"(plan, encoding, every cube): the anchor on one thread, ours through `puzzlesat.count` "
        "with "
        f"{plural(jobs, 'job')} (the bitboard search on threads). Whole-process rows time "
        "`puzzlesat count ... --json` as a user runs it, start-up and imports included (Python's "
        "bytecode "
        "cache on, as an install leaves it): the anchor with "
        f"`--backend xcover --jobs 1`, ours with the default backend and `--jobs {jobs}`. Ratio "
        "= median / the anchor's median of the same kind, from the same run. Compile costs "
        "are measured apart, in fresh processes, and never inside a timed run. dlx1: Knuth's "
        "DLX1, one thread, CPU seconds quoted from issue 9 (same machine, not re-measured). "
        "Rows of other puzzles come from earlier runs: each has its own load.",
        machine_line(),
        "",
        "| puzzle | modulo | method | solutions | classes | median s | runs | ours/anchor | "
        "median CPU s | dlx1 s | load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in kept:  # the kept rows are read back as text
        blank = {k: v in (None, "", "None") for k, v in r.items()}
        classes = "" if blank["classes"] else f"{int(r['classes']):,}"
        cpu = "" if blank["median_cpu_seconds"] else f"{float(r['median_cpu_seconds']):.2f}"
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {r['method']} | {int(r['solutions']):,} | "
            f"{classes} | {float(r['median_seconds']):.2f} | {r['runs']} | "
            f"{'' if blank['ratio_to_anchor'] else r['ratio_to_anchor']} | {cpu} | "
            f"{'' if blank['dlx1_seconds'] else r['dlx1_seconds']} | {r['load']} |"
        )
    write_rows(folder, "dlx-bench", kept, lines)




# ---------------------------------------------------------------- where a whole process goes

STARTUP_PUZZLES = ("iq-block-10", "pentomino-8x8-centre-hole")  # issue 27 item 6's small boards
STARTUP_OURS = "ours: whole `puzzlesat count`, {jobs}"  # {jobs}: plural(jobs, "job")
STARTUP_STAGED = "ours, staged: the same steps, each timed (sum)"
STARTUP_STAGED_XCOVER = "xcover, staged: the same steps, each timed (sum)"


def staged_process(name: str, modulo: str, jobs: int, backend: str | None = None) -> dict:
    """A fresh `python -m puzzlesat.benchmarks.startup` process (the steps of `puzzlesat count`
    on its default path, each timed there), with Python's bytecode cache on as for
    `whole_process`: its stages, each (stage, wall, CPU), the interpreter's start timed from
    here, the exit (what is left of the process's wall and CPU after the last stage) added."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    began, cpu = time.time(), _cpu()
    out = subprocess.run([sys.executable, "-m", "puzzlesat.benchmarks.startup", name, modulo,
                          str(jobs), *([backend] if backend else [])],
                         capture_output=True, text=True, check=True, env=env)
    wall, cpu = time.time() - began, _cpu() - cpu
    found = json.loads(out.stdout)
    stages = found["stages"]
    stages[0]["wall"] = found["began"] - began  # the interpreter's start, from this clock
    stages.append({"stage": "exit (the answer printed, os._exit)",
                   "wall": max(0.0, wall - sum(s["wall"] for s in stages)),
                   "cpu": max(0.0, cpu - sum(s["cpu"] for s in stages))})
    return {"stages": stages, "wall": wall, "cpu": cpu,
            "answer": (found["solutions"], found["classes"]), "complete": found["complete"]}


def run_startup(puzzles: tuple[str, ...] = STARTUP_PUZZLES, modulo: str = "symmetry",
                repeats: int = 3, jobs: int = 2, results: Path | None = Path("results"),
                progress: Callable[[str], None] | None = print) -> list[dict]:
    """Where a whole `puzzlesat count PUZZLE --modulo MODULO` process spends its time, beside
    its anchors measured in the same run, taking turns run by run: our whole process, xcover's
    (`--backend xcover --jobs 1`, the anchor of the whole-process target) and dlx.c's whole run
    (built here where a C compiler is; the anchor of the search in process), then fresh
    processes making the same steps each timed (`staged_process`), ours and xcover's. Medians
    of `repeats` wall and CPU seconds per row; ratios: our whole process / xcover's
    (targets.toml [startup]) and our search stage / dlx.c's whole run ([dlx-anchor-in-process]).
    Writes results/startup-profile.md and .csv (the rows of other puzzles kept)."""
    from . import build_c, targets

    say = progress or (lambda _: None)
    aims = targets()
    rows = []
    with tempfile.TemporaryDirectory(prefix="puzzlesat-dlx-") as folder:
        binary = build_c(DLX_SOURCE, folder)
        if binary is None:
            say("no C compiler (cc or gcc) here: dlx.c is skipped, the rest is timed")
        for name in puzzles:  # numba's caches and the bytecode filled before any timed run
            whole_process([name, "--modulo", modulo, "--jobs", str(jobs)])
            whole_process([name, "--modulo", modulo, "--backend", "xcover", "--jobs", "1"])
        ours = STARTUP_OURS.format(jobs=plural(jobs, "job"))
        for name in puzzles:
            runs, answer = startup_runs(name, modulo, repeats, jobs, binary, say)
            rows += startup_rows(name, modulo, runs, answer, ours, aims)
    if results is not None:
        write_startup(rows, results, repeats, jobs, aims)
    return rows


def startup_runs(name: str, modulo: str, repeats: int, jobs: int, binary: Path | None,
                 say: Callable[[str], None]) -> tuple[dict, tuple]:
    """`repeats` rounds of the whole processes, dlx.c's run and the staged process of one
    puzzle, taking turns: each method's and stage's (wall, CPU, load) per run, and the answer
    they all agree on."""
    runs: dict[str, list[tuple[float, float, str]]] = {}
    answers: set[tuple] = set()
    staged: dict[str | None, list[tuple[dict, str]]] = {}

    def timed(method: str, work: Callable[[], tuple]) -> None:
        load_now, start, cpu = _load(), time.perf_counter(), _cpu()
        answers.add(work())
        wall, cpu = time.perf_counter() - start, _cpu() - cpu
        runs.setdefault(method, []).append((wall, cpu, load_now))
        say(f"{name} {modulo} {method}: {wall:.2f} s ({cpu:.2f} s CPU, load {load_now})")

    for _ in range(repeats):
        timed(STARTUP_OURS.format(jobs=plural(jobs, "job")),
              partial(whole_process, [name, "--modulo", modulo, "--jobs", str(jobs)]))
        timed(WHOLE_ANCHOR, partial(whole_process, [name, "--modulo", modulo, "--backend",
                                                    "xcover", "--jobs", "1"]))
        if binary is not None:
            load_now = _load()
            done = count_dlx(binary, name, modulo)
            answers.add(done.answer)
            runs.setdefault(DLX_ANCHOR, []).append((done.seconds, done.cpu_seconds, load_now))
            say(f"{name} {modulo} dlx.c: {done.seconds:.2f} s ({done.cpu_seconds:.2f} s CPU, "
                f"load {load_now})")
        for backend, threads in ((None, jobs), ("xcover", 1)):
            load_now = _load()
            found = staged_process(name, modulo, threads, backend)
            if not found["complete"]:
                raise ArithmeticError(f"{name} {modulo}: the staged count did not finish")
            answers.add(found["answer"])
            staged.setdefault(backend, []).append((found, load_now))
            say(f"{name} {modulo} staged {backend or 'ours'}: {found['wall']:.2f} s "
                f"({found['cpu']:.2f} s CPU, load {load_now}), CPU by stage: "
                + ", ".join(f"{s['cpu']:.2f}" for s in found["stages"]))
    if len(answers) != 1:
        raise ArithmeticError(f"{name} {modulo}: the counts disagree: {sorted(answers)}")
    for backend, done in staged.items():
        prefix = f"{backend}: " if backend else ""
        runs[STARTUP_STAGED_XCOVER if backend else STARTUP_STAGED] = [
            (f["wall"], f["cpu"], load) for f, load in done]
        for k, stage in enumerate(s["stage"] for s in done[0][0]["stages"]):
            runs[prefix + stage] = [(f["stages"][k]["wall"], f["stages"][k]["cpu"], load)
                                    for f, load in done]
    return runs, answers.pop()


def startup_rows(name: str, modulo: str, runs: dict, answer: tuple, ours: str,
                 aims: dict) -> list[dict]:
    """The table's rows of one puzzle: each whole process and stage with its medians, its share
    of the staged process's CPU, and the ratios of the two targets."""
    wall = {m: statistics.median(r[0] for r in rs) for m, rs in runs.items()}
    cpu = {m: statistics.median(r[1] for r in rs) for m, rs in runs.items()}
    search = next(m for m in runs if m.startswith("the search"))
    wholes = (ours, WHOLE_ANCHOR, DLX_ANCHOR)
    against = {ours: (WHOLE_ANCHOR, aims["startup"]["ratio"]),
               search: (DLX_ANCHOR, aims["dlx-anchor-in-process"]["ratio"])}
    rows = []
    for method, measured in runs.items():
        anchor, aim = against.get(method, (None, None))
        known = anchor in wall
        rows.append({
            "puzzle": name, "modulo": modulo, "solutions": answer[0], "classes": answer[1],
            "method": method, "median_seconds": round(wall[method], 3),
            "runs": ";".join(f"{r[0]:.3f}" for r in measured),
            "median_cpu_seconds": round(cpu[method], 3),
            "cpu_runs": ";".join(f"{r[1]:.3f}" for r in measured),
            "share_of_staged_cpu": (None if method in wholes else round(cpu[method] / cpu[
                STARTUP_STAGED_XCOVER if method.startswith("xcover") else STARTUP_STAGED], 3)),
            "against": anchor if known else None,
            "ratio_to_anchor": round(wall[method] / wall[anchor], 3) if known else None,
            "cpu_ratio_to_anchor": round(cpu[method] / cpu[anchor], 3) if known else None,
            "ratio_target": aim if known else None,
            "ratio_target_met": wall[method] <= aim * wall[anchor] if known else None,
            "load": ";".join(r[2] for r in measured),
        })
    return rows


def write_startup(rows: list[dict], folder: Path, repeats: int, jobs: int, aims: dict) -> None:
    """results/startup-profile.md and .csv, each written whole or not at all; the rows of other
    puzzles and modulos kept."""
    rows = _kept_rows(folder / "startup-profile.csv", rows, lambda r: (r["puzzle"], r["modulo"]))
    lines = [
        "# Where a whole `puzzlesat count` process spends its time, beside xcover and dlx.c",
        "",
        "`puzzlesat bench --anchor xcover --startup [PUZZLE ...]` (default IQ Block 10 and the "
        "8x8 centre hole, `--modulo symmetry`). In one run, taking turns run by run, in fresh "
        f"processes: our whole `puzzlesat count PUZZLE --modulo M --jobs {jobs} --json`; "
        "xcover's (the same command line with `--backend xcover --jobs 1`); dlx.c's whole run "
        "(runners/benchmarks/dlx.c, ours, Algorithm X with dancing links, built here with cc "
        "-O2; the count plan made before its clock starts, as in results/dlx-anchor.md); and "
        "fresh processes making the steps `puzzlesat count` makes (ours: the default path; "
        "then xcover's, its rows marked `xcover:`), each step timed around the library's calls "
        "(runners/benchmarks/startup.py; the search itself carries no timing code): the "
        "interpreter's start (to that module's first line), the command line's modules, numpy, "
        "the backend's module, the load of its compiled kernel (warm_up; a C extension built "
        "at install), the puzzle read, the count plan, the encoding, the "
        f"search ({plural(jobs, 'thread')}; xcover 1) through the count's own runner, the exit. "
        "Numba's caches and Python's bytecode are filled before any timed run. Medians of "
        f"{plural(repeats, 'run')} of wall and CPU seconds (CPU: the process and its threads, what "
        "a loaded machine distorts least); share: of that staged process's CPU. Ratios, wall "
        "medians of the same run (CPU ratio beside): our whole process / xcover's, target at "
        f"most {aims['startup']['ratio']} (issue 27 item 6); our search stage / dlx.c's whole "
        f"run, target at most {aims['dlx-anchor-in-process']['ratio']}. Rows of other puzzles "
        "come from earlier runs: each has its own load.",
        machine_line(),
        "",
        "| puzzle | modulo | solutions | classes | process or stage | median s | runs | median "
        "CPU s | CPU runs | share of staged CPU | against | ratio | CPU ratio | target | met | "
        "load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    said = {"True": "met", "False": "NOT met"}
    for r in rows:  # the kept rows are read back as text
        def shown(key: str, form: str, r: dict = r) -> str:
            return "" if r[key] in (None, "", "None") else form.format(float(r[key]))

        classes = "" if r["classes"] in (None, "", "None") else f"{int(r['classes']):,}"
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {int(r['solutions']):,} | {classes} | "
            f"{r['method']} | {float(r['median_seconds']):.3f} | {r['runs']} | "
            f"{float(r['median_cpu_seconds']):.3f} | {r['cpu_runs']} | "
            f"{shown('share_of_staged_cpu', '{:.0%}')} | "
            f"{'' if r['against'] in (None, '', 'None') else r['against']} | "
            f"{shown('ratio_to_anchor', '{:.3f}')} | {shown('cpu_ratio_to_anchor', '{:.3f}')} | "
            f"{shown('ratio_target', '{:g}')} | {said.get(str(r['ratio_target_met']), '')} | "
            f"{r['load']} |")
    write_rows(folder, "startup-profile", rows, lines)


# ---------------------------------------------------------------- a C dancing-links anchor

DLX_PUZZLES = ("tetris-cube", "bedlam")  # issue 27 item 4: the 4x4x4 boxes
DLX_SOURCE = Path(__file__).with_name("dlx.c")
DLX_ANCHOR = "dlx.c: Algorithm X, dancing links, 1 thread (anchor)"


def dlx_input(model, cubes) -> str:
    """An exact cover and its cubes as dlx.c reads them (its items renumbered in the model's
    fill order, the order its search breaks ties in)."""
    if model.multiplicity and any(n > 1 for n in model.multiplicity):
        raise InputError("the dancing-links anchor counts exact covers with each item once: "
                         "pieces with copies are not for it", field="puzzle")
    order = model.fill_order if model.fill_order is not None else range(len(model.items))
    where = {item: n for n, item in enumerate(order)}
    lines = [f"{len(model.items)} {len(model.options)}"]
    lines += [" ".join(map(str, (len(o), *(where[i] for i in o)))) for o in model.options]
    lines.append(str(len(cubes)))
    lines += [" ".join(map(str, (len(c), *c))) for c in cubes]
    return "\n".join(lines) + "\n"


@dataclass
class Anchored:
    """One count by dlx.c: the answer, its nodes (options placed), the seconds of its
    processes (wall, from start to exit, input read included) and their CPU seconds."""

    answer: tuple[int, int | None]
    nodes: int
    seconds: float
    cpu_seconds: float


def count_dlx(binary: Path, name: str, modulo: str) -> Anchored:
    """The count plan of `puzzlesat count --jobs 1` (one cube per orbit of the piece held to
    one placement per orbit, and each symmetry's fixed solutions) counted by dlx.c, one process
    per task; the plan and its input are made before the clock starts."""
    plan, models = plan_models(name, modulo, 1)
    inputs = [dlx_input(model, task.cubes) for task, model in zip(plan.tasks, models)]
    counts, nodes, seconds, cpu = [], 0, 0.0, 0.0
    for text in inputs:
        start, start_cpu = time.perf_counter(), _cpu()
        out = subprocess.run([str(binary)], input=text, capture_output=True, text=True,
                             check=True).stdout.split("\n")
        seconds += time.perf_counter() - start
        cpu += _cpu() - start_cpu
        lines = [line.split() for line in out if line and not line.startswith("cpu")]
        counts.append([int(found) for found, _ in lines])
        nodes += sum(int(tried) for _, tried in lines)
    return Anchored(plan.combine(counts), nodes, seconds, cpu)


def run_dlx(puzzles: tuple[str, ...] = DLX_PUZZLES, modulo: str = "symmetry", repeats: int = 3,
            jobs: int = 2, results: Path | None = Path("results"),
            progress: Callable[[str], None] | None = print) -> list[dict]:
    """Each puzzle counted completely by our counting path (`puzzlesat.count` with the default
    backend, `jobs` threads) and by dlx.c on one thread, taking turns run by run: medians of
    `repeats` wall seconds, CPU seconds, nodes, nodes per CPU second and the ratio ours /
    anchor (wall medians, same run), against targets.toml's [dlx-anchor] for the 4x4x4 boxes
    (DLX_PUZZLES) and [dlx-anchor-in-process] for any other puzzle. Where there is no C
    compiler, ours alone, saying why. Writes results/dlx-anchor.md and .csv (the rows of other
    puzzles kept)."""
    from ..backends import bitboard
    from . import build_c, targets

    say = progress or (lambda _: None)
    aims = targets()
    bitboard.warm_up()
    rows = []
    with tempfile.TemporaryDirectory(prefix="puzzlesat-dlx-") as folder:
        binary = build_c(DLX_SOURCE, folder)
        if binary is None:
            say("no C compiler (cc or gcc) here: the dancing-links anchor is skipped, ours "
                "alone is timed")
        for name in puzzles:
            aim = aims["dlx-anchor" if name in DLX_PUZZLES else "dlx-anchor-in-process"]
            runs: dict[str, list] = {"anchor": [], "ours": []}
            for _ in range(repeats):
                if binary is not None:
                    load_now = _load()
                    done = count_dlx(binary, name, modulo)
                    runs["anchor"].append((done.answer, done.seconds, done.cpu_seconds,
                                           done.nodes, load_now))
                    say(f"{name} {modulo} dlx.c: {done.answer} in {done.seconds:.2f} s "
                        f"({done.cpu_seconds:.2f} s CPU, {plural(done.nodes, 'node')}, load "
                        f"{load_now})")
                load_now = _load()
                before, start, start_cpu = bitboard.nodes_searched(), time.perf_counter(), _cpu()
                answer = count_ours(name, modulo, jobs)
                seconds, cpu = time.perf_counter() - start, _cpu() - start_cpu
                nodes = bitboard.nodes_searched() - before
                runs["ours"].append((answer, seconds, cpu, nodes, load_now))
                say(f"{name} {modulo} ours, {plural(jobs, 'job')}: {answer} in {seconds:.2f} s "
                    f"({cpu:.2f} s CPU, {plural(nodes, 'node')}, load {load_now})")
            answers = {r[0] for kind in runs for r in runs[kind]}
            if len(answers) != 1:
                raise ArithmeticError(f"{name} {modulo}: the counts disagree: {sorted(answers)}")
            anchor = statistics.median(r[1] for r in runs["anchor"]) if runs["anchor"] else None
            anchor_cpu = (statistics.median(r[2] for r in runs["anchor"]) if runs["anchor"]
                          else None)
            for kind, method in (("anchor", DLX_ANCHOR),
                                 ("ours", f"ours: `puzzlesat count`, {plural(jobs, 'job')}")):
                if not runs[kind]:
                    continue
                wall = statistics.median(r[1] for r in runs[kind])
                cpu = statistics.median(r[2] for r in runs[kind])
                nodes = statistics.median(r[3] for r in runs[kind])
                solutions, classes = runs[kind][0][0]
                rows.append({
                    "puzzle": name, "modulo": modulo, "method": method,
                    "solutions": solutions, "classes": classes,
                    "median_seconds": round(wall, 3),
                    "runs": ";".join(f"{r[1]:.3f}" for r in runs[kind]),
                    "median_cpu_seconds": round(cpu, 3),
                    "nodes": int(nodes),
                    "nodes_per_cpu_second": round(nodes / cpu) if cpu else None,
                    "ratio_to_anchor": round(wall / anchor, 3) if anchor else None,
                    "cpu_ratio_to_anchor": round(cpu / anchor_cpu, 3) if anchor_cpu else None,
                    "seconds_target_met": (wall <= aim["seconds"] if kind == "ours"
                                           and "seconds" in aim else None),
                    "ratio_target_met": (wall <= aim["ratio"] * anchor
                                         if kind == "ours" and anchor else None),
                    "load": ";".join(r[4] for r in runs[kind]),
                })
    if results is not None:
        write_dlx(rows, results, repeats, jobs, modulo, aims)
    return rows


def write_dlx(rows: list[dict], folder: Path, repeats: int, jobs: int, modulo: str,
              aims: dict) -> None:
    """results/dlx-anchor.md and .csv, each written whole or not at all; the rows of other
    puzzles and modulos kept (the boxes of item 4 and the small boards of item 6 are two
    calls)."""
    rows = _kept_rows(folder / "dlx-anchor.csv", rows, lambda r: (r["puzzle"], r["modulo"]))
    said = {"True": "met", "False": "NOT met", "None": "", "": ""}
    boxes, small = aims["dlx-anchor"], aims["dlx-anchor-in-process"]
    counted = ("every solution" if modulo == "none" else
               "classes under the board's symmetries (`--modulo " + modulo + "`; for the Tetris "
               "Cube and the Bedlam cube, whose sets lack mirror images: under the cube's 24 "
               "rotations), and every solution beside")
    lines = [
        "# Packing counts against a C dancing-links program (the 4x4x4 boxes, small boards)",
        "",
        f"`puzzlesat bench --anchor dlx`. Both count the same thing, {counted}, from the same "
        "count plan: one cube per orbit of the piece held to one placement per orbit, and the "
        "solutions each other symmetry fixes (Burnside). The anchor is runners/benchmarks/dlx.c "
        "(ours, written for this benchmark: Knuth's Algorithm X with dancing links, branching "
        "on the item with fewest options, one thread), built here with cc -O2; its seconds are "
        "those of its processes, from start to exit (the plan and its input are made before "
        "its clock starts). Ours: `puzzlesat.count` with the default backend and "
        f"{plural(jobs, 'job')}, the whole work (plan, encoding, every cube). The two take turns "
        f"run by run; medians of {plural(repeats, 'run')}; ratio = our median seconds / the "
        "anchor's, "
        "same run (CPU ratio: of CPU seconds, what a loaded machine distorts least). "
        "Nodes: options placed (ours: a memo hit is no node); nodes/s over CPU seconds. "
        "Targets: the Tetris Cube and the Bedlam cube (issue 27, item 4), at most "
        f"{boxes['seconds']} s on {plural(boxes['cores'], 'core')} and at most {boxes['ratio']} of "
        "the anchor's time; any other board (item 6: IQ Block 10 and the 8x8 centre hole), our "
        f"count in process at most {small['ratio']} of the anchor's whole run (ratio target "
        "only). Rows of other puzzles come from earlier runs: each has its own load.",
        machine_line(),
        "",
        "| puzzle | modulo | method | solutions | classes | median s | runs | median CPU s | "
        "nodes | nodes/CPU s | ratio to anchor | CPU ratio | seconds target | ratio target | "
        "load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:  # the kept rows are read back as text
        blank = {k: v in (None, "") for k, v in r.items()}
        classes = "" if blank["classes"] else f"{int(r['classes']):,}"
        rate = "" if blank["nodes_per_cpu_second"] else f"{int(r['nodes_per_cpu_second']):,}"
        ratio = "" if blank["ratio_to_anchor"] else r["ratio_to_anchor"]
        cpu_ratio = "" if blank["cpu_ratio_to_anchor"] else r["cpu_ratio_to_anchor"]
        lines.append(
            f"| {r['puzzle']} | {r['modulo']} | {r['method']} | {int(r['solutions']):,} | "
            f"{classes} | {float(r['median_seconds']):.2f} | {r['runs']} | "
            f"{float(r['median_cpu_seconds']):.2f} | {int(r['nodes']):,} | {rate} | {ratio} | "
            f"{cpu_ratio} | {said[str(r['seconds_target_met'])]} | "
            f"{said[str(r['ratio_target_met'])]} | {r['load']} |")
    write_rows(folder, "dlx-anchor", rows, lines)
