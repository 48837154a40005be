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
--repeat runs. Each run also counts the split plan on one worker and the plan unsplit on 2
workers: the split's own cost told apart from what two threads cost on this machine.

For a board too long to count whole here (the one-sided 9x10: about 12,000 CPU s with the
search of session 12), a random sample of its cubes is counted both ways (`sampled`): cubes
drawn with probability in proportion to their Knuth estimates (the large cubes, where
splitting matters, are drawn), each counted on one worker unsplit and, on 2 threads, split by
the budget the whole count would take for the most workers (`splitting.auto_budget` of the
whole plan's estimate). Measured: each drawn cube's work both ways, the parts' longest
against the budget, the 2 threads' wall; worked out from the draws (Hansen-Hurwitz: each
draw's seconds over its probability, averaged): the whole count's work, and so about what N
workers take -- labelled so. With --estimate, its committed checkpoint's figure, and what a
budget would make of it from Knuth's estimates: an ESTIMATE, labelled so.
"""

from __future__ import annotations

import json
import os
import random
import resource
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
    too_long: bool = False  # never counted whole here: a sample of its cubes, or estimated
    sample: int = 0  # cubes drawn (by their estimates) where it is too long


BOARDS = {
    "5x18": Board("one-sided-pentomino-5x18"),
    "4x20": Board("polyominoes-45-4x20",
                  checkpoint="results/open-counts/polyominoes-45-4x20.checkpoint"),
    "9x10": Board("one-sided-pentomino-9x10",
                  checkpoint="results/one-sided-pentomino-9x10-recount.checkpoint",
                  too_long=True, sample=4),
}
PLAN_CUBES = 128  # the cubes a drawn sample is taken from ask for (`count --jobs 32`'s plan)
SEED = 40


def counted(board: Board, folder: Path, jobs: int, split_for: int, n: int,
            after: float | None = None) -> dict:
    """One count as a user runs it: a whole `puzzlesat count` process with a checkpoint (each
    count in a process of its own: counted one after another in one process, the second paid
    for the memory the first had let go, 18.3 s wall against 11.0 s alone on the 5x18); its
    wall, its CPU (with its children), its cubes' or parts' seconds."""
    path = folder / f"{board.puzzle}-{jobs}-{split_for}-{n}.checkpoint"
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
    one worker's work over the most workers * SHARE, which runs the one worker first).
    Beside them, to tell the split's own cost from that of running two threads here: the
    split plan on one worker, and the plan unsplit on 2 workers (`apart`)."""
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
            alone = counted(board, Path(folder), 1, max(workers), n, budget)
            pair = counted(board, Path(folder), 2, 1, n)
            say(f"  {board.puzzle}: split plan, 1 worker {alone['cpu']:.1f} s CPU; unsplit, "
                f"2 workers {pair['wall']:.1f} s wall, {pair['cpu']:.1f} s CPU")
            for other, what in ((two, "the split plan"), (alone, "the split plan on one worker"),
                                (pair, "2 workers unsplit")):
                if one["number"] != other["number"] or not (one["complete"]
                                                            and other["complete"]):
                    raise Failed(f"{board.puzzle}: {what} counted {other['number']}, "
                                 f"one worker {one['number']}")
            runs.append(figures(one, two, workers) | apart(one, alone, pair)
                        | {"budget": two["split"].get("budget_seconds") or 0.0})
    return medians(runs)


def medians(runs: list[dict]) -> dict:
    """Each figure's median over the runs (a figure that is no float: the first run's)."""
    return {k: statistics.median(r[k] for r in runs) if isinstance(v, float) else v
            for k, v in runs[0].items()} | {"runs": len(runs)}


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


def apart(one: dict, alone: dict, pair: dict) -> dict:
    """The split's own cost (the split plan on one worker against the plan on one worker) and
    that of two threads on this machine (the plan unsplit on 2 workers against one worker)."""
    return {"alone_work": float(sum(alone["seconds"])), "alone_cpu": alone["cpu"],
            "alone_work_ratio": sum(alone["seconds"]) / sum(one["seconds"]),
            "alone_cpu_ratio": alone["cpu"] / one["cpu"],
            "pair_cpu": pair["cpu"], "pair_wall": pair["wall"],
            "pair_cpu_ratio": pair["cpu"] / one["cpu"],
            "pair_wall_ratio": pair["wall"] / (one["cpu"] / 2)}


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


def _plan(board: Board) -> tuple[object, list[tuple[object, object]]]:
    """The board's plan as `count --jobs 32` cuts it (PLAN_CUBES) and each task's payload for
    the bitboard search, as a count encodes it."""
    from ..models.packing.plan import count_plan
    from ..registry import backend as backend_named
    from ..registry import family_of

    puzzle = api.load(board.puzzle)
    chosen = backend_named("bitboard")
    family = family_of(puzzle)
    plan = count_plan(puzzle, board.modulo, min_cubes=PLAN_CUBES)
    return plan, [(task, chosen.payload(family.encode(puzzle, chosen, task.options)))
                  for task in plan.tasks]


def drawn(board: Board, workers: int) -> dict:
    """`board.sample` cubes of its plan drawn with replacement, each with probability its share
    of the plan's Knuth estimates (seeded: the same cubes every run), and the budget the
    whole count split for `workers` workers would take (splitting.auto_budget of the plan's
    estimate, as `count --split-for N` computes it)."""
    from ..executors import Work
    from ..registry import backend as backend_named

    chosen = backend_named("bitboard")
    plan, tasks = _plan(board)
    cubes, whole = [], 0.0
    for t, (task, payload) in enumerate(tasks):
        parts = splitting.resumed(Work(task.label, chosen.name, payload, task.cubes), None,
                                  chosen)
        whole += splitting.estimated(parts)
        state = parts._state()
        cubes += [(t, i, max(1.0, float(chosen.estimate(state, cube))))
                  for i, cube in enumerate(task.cubes)]
    total = sum(size for _, _, size in cubes)
    picks = random.Random(SEED).choices(cubes, [size for _, _, size in cubes], k=board.sample)
    return {"puzzle": board.puzzle, "modulo": board.modulo, "cubes": len(cubes),
            "picks": [[t, i, size / total] for t, i, size in picks],
            "budget": splitting.auto_budget(whole, workers)}


def arm(spec_path: str, jobs: int, after: float | None, out_path: str) -> None:
    """One arm of `sampled`, in a process of its own: the drawn cubes (each once) counted as a
    count runs them, on `jobs` workers, split by the budget `after` (None: unsplit); writes
    each cube's numbers and its parts' seconds, the count's wall and CPU (the model's
    building left out) to out_path as JSON."""
    from ..backends.bitboard import memo_hits, nodes_searched
    from ..counting import Busy
    from ..counting import run as run_count
    from ..executors import LocalExecutor, Work

    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    _, tasks = _plan(Board(spec["puzzle"], spec["modulo"]))
    chosen: dict[int, list[int]] = {}
    for t, i, _ in spec["picks"]:
        if i not in chosen.setdefault(t, []):
            chosen[t].append(i)
    works = [Work(f"{t}", "bitboard", tasks[t][1], [tasks[t][0].cubes[i] for i in indexes])
             for t, indexes in sorted(chosen.items())]
    with tempfile.TemporaryDirectory(prefix="bench-split-arm-") as folder:
        saved = Checkpoint(Path(folder) / "arm.checkpoint", {"arm": spec_path})
        busy, start = Busy(), time.perf_counter()
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        split = splitting.Split(after=after) if after else None
        tallies, stopped = run_count(works, LocalExecutor(), jobs, checkpoint=saved, split=split,
                                     busy=busy)
        wall, used = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
        saved.close()
        recorded = Checkpoint(Path(folder) / "arm.checkpoint", None)
    seconds: dict[str, list[float]] = {}
    for (label, index), took in recorded.seconds.items():
        seconds.setdefault(f"{label} {chosen[int(label)][index]}", []).append(took)
    for (label, index, _), took in recorded.part_seconds.items():
        seconds.setdefault(f"{label} {chosen[int(label)][index]}", []).append(took)
    values = {f"{w.label} {chosen[int(w.label)][i]}": v[0] if v else None
              for w, tally in zip(works, tallies) for i, v in enumerate(tally.values)}
    Path(out_path).write_text(json.dumps({
        "nodes": nodes_searched(), "hits": memo_hits(), "wall": wall,
        "cpu": used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime,
        "seconds": seconds, "values": values, "busy": busy.share,
        "complete": not stopped and all(t.complete for t in tallies)}), encoding="utf-8")


def _arm_run(spec: Path, jobs: int, after: float | None, name: str) -> dict:
    """`arm` run in a process of its own (each count's memory its own)."""
    out = spec.with_name(f"{name}.json")
    command = [sys.executable, "-c", "import sys; from puzzlesat.benchmarks.split import arm; "
               "arm(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) or None, sys.argv[4])",
               str(spec), str(jobs), repr(float(after or 0.0)), str(out)]
    run = timed(command, COUNT_TIMEOUT)
    if run["code"] != 0 or run["killed"]:
        said = (run["err"].strip().splitlines() or ["(nothing)"])[-1]
        raise Failed(f"the drawn cubes' count ({name}) ended with exit code {run['code']}"
                     f"{' at the timeout' if run['killed'] else ''}: {said}")
    found = json.loads(out.read_text(encoding="utf-8"))
    if not found["complete"]:
        raise Failed(f"the drawn cubes' count ({name}) did not finish")
    return found


def sampled(board: Board, workers: list[int], repeat: int, say: Say) -> dict:
    """A board too long to count whole here, measured on cubes drawn by `drawn`: each counted
    on one worker unsplit and split on 2 threads by the whole count's budget, `repeat` times
    in turns (medians); the whole count's work worked out from the draws (Hansen-Hurwitz),
    and N workers' wall from it: the work / N plus the longest part at most (no worker idles
    while a part waits; a worker waits at most a budget for a running part to be split)."""
    with tempfile.TemporaryDirectory(prefix="bench-split-sample-") as folder:
        plan = drawn(board, max(workers))
        spec = Path(folder) / "spec.json"
        spec.write_text(json.dumps(plan), encoding="utf-8")
        distinct = {(t, i) for t, i, _ in plan["picks"]}
        say(f"  {board.puzzle}: {plural(len(distinct), 'cube')} drawn of {plan['cubes']:,} "
            f"by their estimates; the whole count's budget for {plural(max(workers), 'worker')} "
            f"{plan['budget']:,.1f} s")
        runs = []
        for n in range(repeat):
            arms = ["split", "one"] if n % 2 else ["one", "split"]
            got = {a: _arm_run(spec, 1 if a == "one" else 2,
                               None if a == "one" else plan["budget"], f"{a}-{n}")
                   for a in arms}
            if got["one"]["values"] != got["split"]["values"]:
                raise Failed(f"{board.puzzle}: the drawn cubes split counted "
                             f"{got['split']['values']}, on one worker {got['one']['values']}")
            say(f"  {board.puzzle}: one worker {got['one']['wall']:.1f} s wall, split on 2 "
                f"threads {got['split']['wall']:.1f} s wall, "
                f"{plural(sum(map(len, got['split']['seconds'].values())), 'part')}")
            runs.append(sample_figures(plan, got["one"], got["split"], workers))
    return medians(runs)


def sample_figures(plan: dict, one: dict, two: dict, workers: list[int]) -> dict:
    """The drawn cubes' figures: measured on them, and worked out for the whole count."""
    def whole(arm: dict) -> float:
        return statistics.fmean(sum(arm["seconds"][f"{t} {i}"]) / p for t, i, p in plan["picks"])

    parts = [s for took in two["seconds"].values() for s in took]
    one_work = sum(sum(took) for took in one["seconds"].values())
    found = {"cubes": plan["cubes"], "drawn": len(one["seconds"]), "budget": plan["budget"],
             "parts": len(parts), "one_work": float(one_work), "one_cpu": one["cpu"],
             "split_work": float(sum(parts)), "split_cpu": two["cpu"], "split_wall": two["wall"],
             "one_longest": float(max(max(t) for t in one["seconds"].values())),
             "split_longest": float(max(parts)), "busy": float(two["busy"] or 0.0),
             "whole_one": whole(one), "whole_split": whole(two),
             "one_nodes": float(one["nodes"]), "split_nodes": float(two["nodes"]),
             "one_hits": float(one["hits"]), "split_hits": float(two["hits"])}
    found["work_ratio"] = found["split_work"] / one_work
    found["cpu_ratio"] = two["cpu"] / one["cpu"]
    found["wall_ratio"] = two["wall"] / (one["cpu"] / 2)
    for n in workers:
        found[f"bound_{n}"] = 1 + n * found["split_longest"] / found["whole_split"]
        found[f"unsplit_{n}"] = max(found["whole_one"] / n, found["one_longest"]) / (
            found["whole_one"] / n)
    return found


def bench_split(names: list[str], workers: list[int], repeat: int, say: Say,
                after: str | None = None, estimate: bool = False) -> dict:
    """Each board measured, or (`estimate`, or a board too long to count here) worked out from
    its committed checkpoint."""
    results = {}
    for name in names:
        board = BOARDS[name]
        say(f"{name}: {board.puzzle} --modulo {board.modulo}")
        if board.too_long and board.sample and not estimate:
            found = {"estimate": False, "sample": True} | sampled(board, workers, repeat, say)
        elif board.checkpoint and (estimate or board.too_long):
            found = {"estimate": True} | estimated(board, workers, say)
        else:
            found = {"estimate": False} | measured(board, workers, repeat, after,
                                                   say)
        row = name if found["estimate"] or not after else f"{name} --split-after {after}"
        results[row] = found | {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
                                "workers": workers, "board": name}
    return results


def apart_lines(results: dict) -> list[str]:
    """The measured boards' split cost told apart from two threads' (`apart`), where a run
    measured both."""
    rows = {k: r for k, r in results.items() if "alone_work_ratio" in r}
    if not rows:
        return []
    head = ("| board | the split plan on 1 worker: work (parts' s) / CPU, over one worker's | "
            "unsplit on 2 workers: CPU over one worker's / wall over half its CPU | split on 2 "
            "workers: CPU over one worker's |")
    lines = ["", "The split's own cost told apart from that of two threads on this machine "
             "(each run also counts the split plan on one worker, and the plan unsplit on 2 "
             "workers): the same medians.", "", head, "|" + "---|" * (head.count("|") - 1)]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['alone_work']:,.1f} / {r['one_work']:,.1f} s = "
            f"{ok(r['alone_work_ratio'], WORK_TARGET)} / {r['alone_cpu']:,.1f} / "
            f"{r['one_cpu']:,.1f} s = {r['alone_cpu_ratio']:.2f} | {r['pair_cpu']:,.1f} s = "
            f"{r['pair_cpu_ratio']:.2f} / {r['pair_wall']:,.1f} s = {r['pair_wall_ratio']:.2f} | "
            f"{r['cpu_ratio']:.2f} |")
    return lines


def sample_lines(name: str, r: dict, workers: list[int]) -> list[str]:
    """A board measured on drawn cubes (`sampled`): what was measured, then what was worked
    out from it, each labelled."""
    board = BOARDS[board_of(name, r)]
    lines = [f"**{name} ({board.puzzle}): measured on {plural(r['drawn'], 'cube')} drawn of "
             f"{r['cubes']:,}** (by their Knuth estimates, seed {SEED}; {r['runs']} "
             f"{'run' if r['runs'] == 1 else 'runs, medians'}; {r['date']}, load {r['load']}). "
             f"Budget: the whole count's for {plural(max(workers), 'worker')}, "
             f"{r['budget']:,.1f} s.",
             f"- measured: one worker {r['one_work']:,.1f} s of cubes (the longest "
             f"{r['one_longest']:,.1f} s); split on 2 threads {plural(r['parts'], 'part')}, "
             f"{r['split_work']:,.1f} s = {ok(r['work_ratio'], WORK_TARGET)} of one worker's "
             f"work (CPU {r['split_cpu']:,.1f} / {r['one_cpu']:,.1f} s = {r['cpu_ratio']:.2f}), "
             f"the longest part {r['split_longest']:,.1f} s; 2 threads' wall "
             f"{r['split_wall']:,.1f} s / half one worker's CPU {r['one_cpu'] / 2:,.1f} s = "
             f"{ok(r['wall_ratio'], WALL_TARGET)}; busy {r['busy']:.0%}",
             f"- worked out from the draws (each draw's seconds over its probability, "
             f"averaged: an ESTIMATE of the whole count): {r['whole_one']:,.0f} s on one "
             f"worker, {r['whole_split']:,.0f} s split"]
    for n in workers:
        lines.append(
            f"- {plural(n, 'worker')}: split, at most the work / {n} plus the longest part: "
            f"{ok(r[f'bound_{n}'], SPREAD_TARGET)} x total/{n} (a bound from the estimate); "
            f"unsplit, at least {r[f'unsplit_{n}']:.2f} x total/{n} (the work / {n}, or the "
            "longest drawn cube where it is longer)")
    return lines


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
        if r["estimate"] or r.get("sample"):
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
    lines += apart_lines(results)
    for name, r in results.items():
        if r.get("sample"):
            lines += ["", *sample_lines(name, r, workers)]
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
