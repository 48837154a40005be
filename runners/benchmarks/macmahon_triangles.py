"""MacMahon's 24 colour triangles in the regular hexagon with a one-colour border: every distinct
grid counted by the compiled counter, medians of `repeat` runs (target: at most 60 s on 2
cores), the classes under the hexagon's turns, its 12 symmetries and those with exchanges of
the three inner colours by Burnside's lemma (the grids each element keeps printed), and an
anchor measured in the same run.

    puzzlesat macmahon-bench [--repeat 3] [--jobs 2] [--anchor-limit S | --no-anchor]
        [--canonical] [--record | --results DIR]

The anchor: xcover, whose examples count this puzzle as exact cover with colours (its
examples/macmahon_triangles.ipynb, about ten minutes). Its repository could not be fetched
where this was written, so the anchor is xcover's own solver counting the exact cover with
colours of the same puzzle (`count --backend xcover`: cells and tiles primary, the seams
between cells coloured), run once in a child process, stopped at --anchor-limit seconds (its
count then a lower bound, and its rate the grids a second so far).

With --canonical, every grid is listed (edgecount's listing, one grid at a time: minutes) and
the classes are counted again as least images (canonical forms) under each group: they must
equal Burnside's. Nothing is written under results/ unless asked (--record or --results).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from .. import api
from .. import output as report
from ..models import files
from ..models.edge_matching.symmetry import puzzle_group
from ..models.words import plural
from . import whole

PUZZLE = "macmahon-24-triangles"
GROUPS = {  # modulo -> what its classes are taken under
    "symmetry": "the hexagon's 6 turns",
    "mirror": "the hexagon's 12 symmetries (turns and mirror images)",
    "colours": "the hexagon's 12 symmetries and the 6 exchanges of the inner colours (72)",
}


def ours(jobs: int, repeat: int, say=report.say) -> tuple[list[dict], dict]:
    """The count up to every group, `repeat` times (the grids each element keeps come with
    it); each run's seconds and nodes, and the last count's details."""
    runs = []
    details: dict = {}
    for run in range(repeat):
        start = time.perf_counter()
        found = whole(api.count(PUZZLE, backend="edgecount", modulo="colours", jobs=jobs))
        seconds = time.perf_counter() - start
        if not found.complete:
            raise RuntimeError("the count did not finish")
        details = found.details
        runs.append({"seconds": round(seconds, 2), "grids": details["grids"],
                     "nodes": details.get("nodes"), "load": report.load()})
        say(f"run {run + 1}: {plural(details['grids'], 'grid')} in {seconds:.1f} s "
            f"({plural(details.get('nodes', 0), 'node')})")
    return runs, details


def burnside(details: dict) -> dict[str, dict]:
    """Classes under each group from the grids each element keeps (the count's `fixed_by`)."""
    puzzle = files.load(PUZZLE)
    kept = details["fixed_by"]
    out = {}
    for modulo, words in GROUPS.items():
        names = [m.name for m in puzzle_group(puzzle, modulo)]
        fixed = [kept[name] for name in names]
        total = sum(fixed)
        if total % len(names):
            raise ArithmeticError(f"{modulo}: Burnside's sum {total} is not a multiple of "
                                  f"{len(names)}")
        out[modulo] = {"group": words, "order": len(names), "classes": total // len(names),
                       "grids_each_element_keeps": dict(zip(names, fixed))}
    return out


def canonical(say=report.say) -> dict[str, int]:
    """Every grid listed by edgecount, and the classes under each group counted as the grids
    that are the least of their images (canonical forms), images made here from the group's
    cell and side maps and recolourings."""
    from ..backends.edgecount import EdgecountBackend
    from ..models.edge_matching import rotated
    from ..models.edge_matching.tables import build_tables

    puzzle = files.load(PUZZLE)
    model = build_tables(puzzle, order="rings")
    looks = [(tuple(model.kinds[int(model.node_kind[n])][1]), int(model.node_turn[n]))
             for n in range(len(model.node_kind))]
    node_of = {(rotated(edges, turn), ""): n for n, (edges, turn) in enumerate(looks)}
    group = puzzle_group(puzzle, "colours")
    cells = len(model.cells)
    to = np.array([m.to for m in group], dtype=np.int64)  # element x cell -> cell
    image = np.array([[node_of[(m.look(rotated(edges, turn)), "")] for edges, turn in looks]
                      for m in group], dtype=np.int64)  # element x node -> node
    members = {modulo: [i for i, m in enumerate(group) if m.name in
                        {g.name for g in puzzle_group(puzzle, modulo)}] for modulo in GROUPS}
    least = dict.fromkeys(GROUPS, 0)
    batch: list[list[int]] = []
    listed = 0

    def settle() -> None:
        nonlocal listed
        grids = np.array(batch, dtype=np.int64)  # grid x cell -> node
        listed += len(grids)
        for modulo, elements in members.items():
            smallest = np.ones(len(grids), dtype=bool)
            for e in elements:
                moved = np.empty_like(grids)
                moved[:, to[e]] = image[e][grids]
                difference = moved - grids
                first = np.argmax(difference != 0, axis=1)
                sign = difference[np.arange(len(grids)), first]
                smallest &= sign >= 0  # the image is not smaller (equal: a fixed grid)
            least[modulo] += int(smallest.sum())
        batch.clear()

    for nodes in EdgecountBackend().enumerate(model, (), None):
        grid = [0] * cells
        for depth, n in enumerate(nodes):
            grid[int(model.cell[depth])] = int(n)
        batch.append(grid)
        if len(batch) == 200_000:
            settle()
            say(f"canonical forms: {plural(listed, 'grid')} listed")
    if batch:
        settle()
    return {"grids_listed": listed, **least}


def anchor(limit: float, say=report.say) -> dict:
    """xcover counting the exact cover with colours of the puzzle, in a child process stopped
    after `limit` seconds (see the module's docstring)."""
    command = [sys.executable, "-m", "puzzlesat", "count", PUZZLE, "--backend", "xcover",
               "--jobs", "1", "--time-limit", str(limit), "--json"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=limit + 600,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    seconds = time.perf_counter() - start
    try:  # an incomplete count exits with 1 and still prints its JSON
        found = json.loads(done.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"the anchor failed (exit {done.returncode}): "
                           f"{done.stderr.strip().splitlines()[-1:]}") from None
    grids, complete = found["count"], found["complete"]
    say(f"anchor (xcover, exact cover with colours): {plural(grids, 'grid')} in {seconds:.1f} s"
        + ("" if complete else " (stopped: a lower bound)"))
    return {"solver": "xcover (Algorithm C, exact cover with colours), one process",
            "grids": grids, "complete": complete, "seconds": round(seconds, 1),
            "grids_per_second": round(grids / seconds) if seconds else None}


def markdown(figures: dict) -> str:
    lines = [f"# {figures['title']}", "",
             f"Counted {figures['date']} (load {figures['timings'][0]['load']}), "
             f"{plural(figures['jobs'], 'job')}, edgecount (compiled counter):", "",
             f"- distinct grids: **{figures['grids_counted']:,}** (which tile, turned which way, "
             "on "
             "each cell; the 24 tiles are all different; a tile that looks the same turned, "
             "W W W, counts once)",
             f"- seconds, median of {len(figures['timings'])}: **{figures['median_seconds']}** "
             f"(target at most 60 s on 2 cores); runs: "
             + ", ".join(f"{r['seconds']} s" for r in figures["timings"]),
             f"- nodes: {figures['timings'][0]['nodes']:,} (the counter pins the tile W W W to "
             "one cell of each orbit of cells under the turns, weighted by the orbit)", ""]
    for group in figures["classes"].values():
        kept = {name: n for name, n in group["grids_each_element_keeps"].items()}
        lines.append(f"- classes under {group['group']}: **{group['classes']:,}** (Burnside "
                     f"over {plural(group['order'], 'element')}; grids kept: identity "
                     f"{kept['identity']:,}, every other element "
                     f"{sorted(set(v for k, v in kept.items() if k != 'identity'))})")
    if figures.get("canonical"):
        c = figures["canonical"]
        lines += ["", f"Canonical forms (every grid listed, {c['grids_listed']:,}): "
                  + ", ".join(f"{k} {c[k]:,}" for k in GROUPS)]
    a = figures.get("anchor")
    if a:
        lines += ["", f"Anchor, same run: {a['solver']}: {plural(a['grids'], 'grid')} in "
                  f"{a['seconds']} s" + ("" if a["complete"] else " (stopped, a lower bound)")
                  + f"; ours {figures['median_seconds']} s for all of them"
                  + (f"; the anchor takes {a['seconds_for_every_grid']} s for all"
                     + (" (projected from its rate)" if a["projected"] else "")
                     + f", {figures['anchor_over_ours']}x ours" if a.get("seconds_for_every_grid")
                     else "") + "."]
    lines += ["", "Published: the issue names a published count of grids; none was found in "
              "the sources searched here (compared after counting, never used to steer)."]
    return "\n".join(lines) + "\n"


def run(jobs: int = 2, repeat: int = 3, anchor_limit: float | None = 900,
        check_canonical: bool = False, folder: Path | None = None, say=report.say) -> dict:
    puzzle = files.load(PUZZLE)
    api.count(PUZZLE, backend="edgecount", modulo="none", jobs=1, time_limit=1)  # warm up
    runs, details = ours(jobs, repeat, say)
    classes = burnside(details)
    for group in classes.values():
        say(f"classes under {group['group']}: {group['classes']:,} (Burnside; grids kept by "
            f"each element: {sorted(set(group['grids_each_element_keeps'].values()))})")
    figures = {
        "puzzle": PUZZLE, "title": puzzle.title, "date": report.now(), **report.versions(),
        "jobs": jobs, "grids_counted": details["grids"], "counted": details["conventions"],
        "timings": runs, "median_seconds": round(statistics.median(r["seconds"] for r in runs), 2),
        "classes": classes,
    }
    if check_canonical:
        found = canonical(say)
        figures["canonical"] = found
        for modulo in GROUPS:
            if found[modulo] != classes[modulo]["classes"]:
                raise AssertionError(f"{modulo}: {found[modulo]} least images, "
                                     f"{classes[modulo]['classes']} by Burnside")
        if found["grids_listed"] != details["grids"]:
            raise AssertionError("the listing and the count disagree")
        say("canonical forms agree with Burnside under every group")
    if anchor_limit:
        figures["anchor"] = found = anchor(anchor_limit, say)
        # a stopped anchor's time for every grid at the rate it kept so far (a projection)
        whole = found["seconds"] if found["complete"] else (
            found["seconds"] * figures["grids_counted"] / found["grids"]
            if found["grids"] else None)
        found["seconds_for_every_grid"] = None if whole is None else round(whole, 1)
        found["projected"] = not found["complete"]
        if whole:
            figures["anchor_over_ours"] = round(whole / figures["median_seconds"], 1)
            say(f"anchor / ours: {figures['anchor_over_ours']}x"
                + (" (the anchor's time projected from its rate)" if found["projected"] else ""))
    if folder is not None:
        report.write_json_atomic(folder / f"{PUZZLE}.json", figures)
        report.write_text_atomic(folder / f"{PUZZLE}.md", markdown(figures))
        report.write_results_index(folder)
        say(f"recorded {folder / PUZZLE}.json and .md")
    return figures
