"""`bench split` (issue 40, items 1 and 3): how well a split plan spends many workers' time.

For each board, counted here (the one-sided 5x18 and the tetrominoes and pentominoes' 4x20,
both `--modulo symmetry`): one count on one worker with the cubes as planned (no split), and one
count of the split plan (cubes split while running, by the budget for the most workers asked,
on 2 threads here), each with a checkpoint. From the split count's checkpoint, its timed parts
handed to 16 and 64 workers (`puzzlesat checkpoint FILE --workers N`'s figure:
`checkpoint.makespan`) against the total work over the workers (target: within 1.25 times);
the split count's total work (its parts' seconds; and its process's CPU) against one worker's
(target: at most 1.1 times); the wall of 2 workers here against half the one-worker CPU
(target: within 1.1 times; the machine is shared: the load is written beside). Medians over
--repeat runs.

For a board too long to count here (the one-sided 9x10, 43,726 s), its committed checkpoint's
figure, and what a budget would make of it from Knuth's estimates: each stopped cube's
measured seconds shared among the parts it leaves in proportion to their estimates -- an
ESTIMATE, labelled so, never a measurement.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import api, splitting
from ..checkpoint import Checkpoint, makespan, timing
from ..models.words import plural
from .processes import timed

Say = Callable[[str], None]
WORK_TARGET = 1.1  # the split plan's total work over one worker's, at most
SPREAD_TARGET = 1.25  # N workers' wall over the total work / N, at most
WALL_TARGET = 1.1  # 2 workers' wall over half the one-worker CPU, at most
COUNT_TIMEOUT = 3600.0  # seconds one count of a board may take here before the bench stops
DEEPEST = 6  # levels of children the estimate of --split-after follows a stopped search down


class Failed(Exception):
    """A count of the bench failed, or the split plan counted another number: said in one line
    by the command (exit code 1), never a figure."""


@dataclass(frozen=True)
class Board:
    puzzle: str
    modulo: str = "symmetry"
    checkpoint: str | None = None  # a committed checkpoint (its cube times)
    too_long: bool = False  # worked out from the checkpoint alone, never counted here


BOARDS = {
    "5x18": Board("one-sided-pentomino-5x18"),
    "4x20": Board("polyominoes-45-4x20",
                  checkpoint="results/open-counts/polyominoes-45-4x20.checkpoint"),
    "9x10": Board("one-sided-pentomino-9x10",
                  checkpoint="results/one-sided-pentomino-9x10-recount.checkpoint",
                  too_long=True),
}


def counted(board: Board, folder: Path, jobs: int, split_for: int, n: int,
            after: float | None = None) -> dict:
    """One count as a user runs it: a whole `puzzlesat count` process with a checkpoint (each
    count in a process of its own: counted one after another in one process, the second paid
    for the memory the first had let go, 18.3 s wall against 11.0 s alone on the 5x18); its
    wall, its CPU (with its children), its cubes' or parts' seconds."""
    path = folder / f"{board.puzzle}-{jobs}-{n}.checkpoint"
    command = [sys.executable, "-m", "puzzlesat", "count", board.puzzle, "--backend", "bitboard",
               "--modulo", board.modulo, "--jobs", str(jobs), "--split-for", str(split_for),
               "--checkpoint", str(path), "--json"]
    if after is not None:
        command += ["--split-after", repr(float(after))]
    run = timed(command, COUNT_TIMEOUT)
    if run["code"] != 0 or run["killed"]:
        said = (run["err"].strip().splitlines() or ["(nothing)"])[-1]
        raise Failed(f"{board.puzzle}: the count ended with exit code {run['code']}"
                           f"{' at the timeout' if run['killed'] else ''}: {said}")
    found = json.loads(run["out"])
    recorded = timing(path)
    return {"wall": run["wall"], "cpu": run["cpu"], "seconds": recorded.seconds,
            "number": found["count"], "complete": found["complete"],
            "busy": found.get("workers_busy"), "split": found.get("split") or {},
            "cubes": recorded.cubes + recorded.split, "parts": recorded.parts}


def measured(board: Board, workers: list[int], repeat: int, after: str | None,
             say: Say) -> dict:
    """One worker and the split plan on 2 workers, `repeat` times each, in turns (the split
    plan first every other run: on this machine a count that follows one which let go of a
    large memo pays for the memory again, the 5x18's split plan 18.7 s wall after the one
    worker, 11.6 s before it); medians. `after`: the split plan's budget (seconds; 'auto':
    one worker's work over the most workers * SHARE, which runs the one worker first)."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-split-") as folder:
        for n in range(repeat):
            first = n % 2 and after != "auto"
            two = counted(board, Path(folder), 2, max(workers), n, after) if first else None
            one = counted(board, Path(folder), 1, 1, n)
            say(f"  {board.puzzle}: one worker {one['wall']:.1f} s wall, {one['cpu']:.1f} s CPU")
            budget = (sum(one["seconds"]) / (max(workers) * splitting.SHARE) if after == "auto"
                      else None if after is None else float(after))
            two = two or counted(board, Path(folder), 2, max(workers), n, budget)
            say(f"  {board.puzzle}: split plan, 2 workers {two['wall']:.1f} s wall, "
                f"{two['cpu']:.1f} s CPU, {plural(two['parts'], 'part')}")
            if one["number"] != two["number"] or not (one["complete"] and two["complete"]):
                raise Failed(f"{board.puzzle}: the split plan counted {two['number']}, "
                             f"one worker {one['number']}")
            runs.append(figures(one, two, workers)
                        | {"budget": two["split"].get("budget_seconds") or 0.0})
    keys = runs[0].keys()
    return {k: statistics.median(r[k] for r in runs) if isinstance(runs[0][k], float)
            else runs[0][k] for k in keys} | {"runs": repeat}


def figures(one: dict, two: dict, workers: list[int]) -> dict:
    total = sum(two["seconds"])
    found = {"number": one["number"], "parts": two["parts"], "cubes": one["cubes"],
             "one_work": float(sum(one["seconds"])), "one_cpu": one["cpu"],
             "one_wall": one["wall"], "split_work": float(total), "split_cpu": two["cpu"],
             "split_wall": two["wall"], "busy": float(two["busy"] or 0.0),
             "wasted": float(two["split"].get("wasted_seconds", 0.0)),
             "one_longest": float(max(one["seconds"])), "split_longest": float(max(two["seconds"]))}
    for n in workers:
        found[f"plan_{n}"] = float(makespan(two["seconds"], n)) / (total / n)
        found[f"unsplit_{n}"] = float(makespan(one["seconds"], n)) / (sum(one["seconds"]) / n)
    found["work_ratio"] = total / found["one_work"]
    found["cpu_ratio"] = two["cpu"] / one["cpu"]
    found["wall_ratio"] = two["wall"] / (one["cpu"] / 2)
    return found


def estimated(board: Board, workers: list[int], say: Say) -> dict:
    """The committed checkpoint's figure, and what a budget would make of its cubes (each
    cube's measured seconds shared among the parts a stopped search leaves by their Knuth
    estimates): an ESTIMATE."""
    from ..executors import Work
    from ..models.packing.plan import count_plan
    from ..registry import backend as backend_named
    from ..registry import family_of

    recorded = Checkpoint(board.checkpoint, None)
    puzzle = api.load(board.puzzle)
    chosen = backend_named("bitboard")
    plan = count_plan(puzzle, board.modulo, min_cubes=recorded.key["split"])
    family = family_of(puzzle)
    timed: list[tuple[splitting.Parts, tuple, float]] = []
    for task in plan.tasks:
        payload = chosen.payload(family.encode(puzzle, chosen, task.options))
        parts = splitting.Parts(Work(task.label, chosen.name, payload, task.cubes), [], chosen)
        timed += [(parts, tuple(cube), recorded.seconds[(task.label, i)])
                  for i, cube in enumerate(task.cubes) if (task.label, i) in recorded.seconds]
    seconds = [took for _, _, took in timed]
    total = sum(seconds)
    budget = total / (max(workers) * splitting.SHARE)
    run, wasted = [], 0.0
    for parts, literals, took in timed:
        times, lost = stopped(parts, literals, took, budget)
        run += times
        wasted += lost
    say(f"  {board.puzzle}: {len(seconds)} timed cubes, {total:,.0f} s; with a budget of "
        f"{budget:,.0f} s {plural(len(run), 'part')} (estimated)")
    found = {"cubes": len(seconds), "one_work": total, "one_longest": max(seconds),
             "budget": budget, "run_parts": len(run), "run_work": sum(run),
             "run_wasted": wasted, "run_longest": max(run)}
    for n in workers:
        found[f"unsplit_{n}"] = makespan(seconds, n) / (total / n)
        found[f"unsplit_wall_{n}"] = makespan(seconds, n)
        found[f"run_{n}"] = makespan(run, n) / (total / n)
        found[f"run_wall_{n}"] = makespan(run, n)
    return found


def stopped(parts: splitting.Parts, literals: tuple, took: float, budget: float,
            depth: int = 0) -> tuple[list[float], float]:
    """A part's times under --split-after `budget` (twice as long each round), estimated: its
    `took` seconds shared among its children by their Knuth estimates, in the search's order,
    and so on down; stopped at the budget, what it finished stands as one part taking the
    budget, and the branches after the path it was at run on as parts (Backend.count_part).
    Only below DEEPEST levels is the branch it was in thrown away. (parts' times, seconds
    wasted)"""
    if took <= budget or depth >= DEEPEST:
        return [took], 0.0
    rest, wasted = cut(parts, literals, took, budget, 0)
    found = [budget]
    for child, t in rest:
        more, lost = stopped(parts, child, t, 2 * budget, depth + 1)
        found += more
        wasted += lost
    return found, wasted


def cut(parts: splitting.Parts, literals: tuple, took: float, left: float, level: int
        ) -> tuple[list[tuple[tuple, float]], float]:
    """Where a search of `took` seconds stops after `left` seconds: the branches after its
    path with their shares of the time (estimated), and the seconds thrown away."""
    children = parts.backend.split(parts._state(), literals) if level < DEEPEST else None
    if not children:
        return [(literals, took)], left  # (the branch it was in searched again)
    sizes = [max(1.0, float(parts.backend.estimate(parts._state(), c))) for c in children]
    times = [took * s / sum(sizes) for s in sizes]
    done, place = 0.0, 0
    while place < len(times) - 1 and done + times[place] <= left:
        done += times[place]
        place += 1
    inner, wasted = cut(parts, children[place], times[place], left - done, level + 1)
    return inner + list(zip(children[place + 1:], times[place + 1:])), wasted


def bench_split(names: list[str], workers: list[int], repeat: int, say: Say,
                after: str | None = None, estimate: bool = False) -> dict:
    """Each board measured, or (`estimate`, or a board too long to count here) worked out from
    its committed checkpoint."""
    results = {}
    for name in names:
        board = BOARDS[name]
        say(f"{name}: {board.puzzle} --modulo {board.modulo}")
        if board.checkpoint and (estimate or board.too_long):
            found = {"estimate": True} | estimated(board, workers, say)
        else:
            found = {"estimate": False} | measured(board, workers, repeat, after,
                                                   say)
        row = name if found["estimate"] or not after else f"{name} --split-after {after}"
        results[row] = found | {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
                                "workers": workers, "board": name}
    return results


def merged(results: dict, folder: Path) -> dict:
    """This run's boards, and the boards an earlier run recorded in folder/split.json that this
    one did not run (each with its own date and load)."""
    path = folder / "split.json"
    try:
        earlier = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        earlier = {}
    kept = {k: v for k, v in earlier.items() if k not in results and isinstance(v, dict)
            and board_of(k, v) in BOARDS and v.get("workers") == next(
                iter(results.values()), {}).get("workers")}
    every = results | kept
    return {k: every[k] for k in sorted(every, key=lambda k: (list(BOARDS).index(
        board_of(k, every[k])), k))}


def board_of(row: str, figures: dict) -> str:
    """The board a row of figures is of (its name, then what the run added: --split-after)."""
    return figures.get("board") or row.split()[0]


def ok(value: float, target: float) -> str:
    return f"{value:.2f} ({'met' if value <= target else 'NOT met'})"


def budget(r: dict) -> str:
    """A run's budget (--split-after), in words."""
    return f"{r['budget']:.2f} s" if r.get("budget") else "none"


def table(results: dict, workers: list[int]) -> str:
    """results/split.md: the figures and the targets, a board a row."""
    lines = ["# bench split: cubes split on demand (issue 40, items 1 and 3)", "",
             "Written by `puzzlesat bench split --record` on shared cores "
             f"({os.cpu_count()} here; each board's date and load average (1, 5, 15 min) at "
             "its end in its row: the machine is shared by several sessions). Each board is "
             "counted --modulo symmetry on the bitboard search: once on one worker (the cubes as "
             f"planned) and once with the plan split for {plural(max(workers), 'worker')} on 2 "
             "threads. "
             "Ratios: N workers' wall (the timed parts handed out largest first, the "
             "`puzzlesat checkpoint FILE --workers N` figure) over the total work / N (target "
             f"{SPREAD_TARGET}); the split plan's total work over one worker's (target "
             f"{WORK_TARGET}; its parts' seconds, and its process's CPU); the wall of 2 workers "
             f"over half the one-worker CPU (target {WALL_TARGET}). Medians of the runs shown.",
             ""]
    head = "| board | runs | cubes -> parts | " + " | ".join(
        f"{plural(n, 'worker')}: unsplit / split" for n in workers) + \
        " | work (parts' s) | CPU | 2 workers' wall / half 1-worker CPU | busy | budget | " \
        "when, load |"
    lines += [head, "|" + "---|" * (head.count("|") - 1)]
    for name, r in results.items():
        if r["estimate"]:
            continue
        spread = " | ".join(f"{r[f'unsplit_{n}']:.2f} / {ok(r[f'plan_{n}'], SPREAD_TARGET)}"
                            for n in workers)
        lines.append(
            f"| {name} ({BOARDS[board_of(name, r)].puzzle}) | {r['runs']} | "
            f"{r['cubes']:,} -> {r['parts']:,} | "
            f"{spread} | {r['split_work']:,.1f} / {r['one_work']:,.1f} s = "
            f"{ok(r['work_ratio'], WORK_TARGET)} | {r['split_cpu']:,.1f} / "
            f"{r['one_cpu']:,.1f} s = {r['cpu_ratio']:.2f} | {r['split_wall']:,.1f} / "
            f"{r['one_cpu'] / 2:,.1f} s = {ok(r['wall_ratio'], WALL_TARGET)} | "
            f"{r['busy']:.0%} | {budget(r)} | {r['date']}, {r['load']} |")
    for name, r in results.items():
        if not r["estimate"]:
            continue
        board = BOARDS[board_of(name, r)]
        lines += ["", f"**{board.puzzle}: an ESTIMATE, not a measurement.** Its "
                  f"committed checkpoint ({board.checkpoint}): {r['cubes']:,} timed "
                  f"cubes, {r['one_work']:,.0f} s in all, the longest {r['one_longest']:,.0f} s "
                  f"(worked out {r['date']})."]
        for n in workers:
            lines.append(
                f"- {plural(n, 'worker')}: the committed cubes {r[f'unsplit_wall_{n}']:,.0f} s "
                f"({r[f'unsplit_{n}']:.2f} x total/{n}); split by a budget of "
                f"{r['budget']:,.0f} s (total / ({max(workers)} x {splitting.SHARE})), "
                f"{plural(r['run_parts'], 'part')}: {r[f'run_wall_{n}']:,.0f} s "
                f"({r[f'run_{n}']:.2f} x total/{n}), total work {r['run_work']:,.0f} s "
                f"({r['run_work'] / r['one_work']:.2f} x; {r['run_wasted']:,.0f} s thrown away "
                f"{DEEPEST} levels down where the stopped searches were), its longest part "
                f"{r['run_longest']:,.0f} s (estimated: the parts are handed out as if all "
                "were there at the start, though a stopped part's rest exists only once it "
                "stopped; the set-up of each part, a few ms of the search's own estimates, "
                "and sub-problems a memo shares across a split are not modelled)")
    return "\n".join(lines) + "\n"
