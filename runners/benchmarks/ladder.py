"""The benchmark ladder of Eternity II-like boards (Brendan Owen's sets, 6x6 to 10x10): each
counted exactly by `edgecount` (distinct grids, and the classes up to turning the board), with
its nodes and nodes a second, or solved (the 9x9s and 10x10s, whose searches are far longer);
the figures the community published are compared after the count, never used by it.

A node is a tile placed (the community's "committed valid placement"). Our search fills the
cells in the order its measurement picks (row by row on these boards but the 8x8 set 1) and
counts every grid through one corner tile pinned on the top left corner, weighted by the 4
turns of the board (or one corner layout per orbit of the turns where the corners go first);
the community's figures are full row scans. Where asked (`rowscan`), the plain C row scan of
runners/benchmarks/rowscan.c counts the same board to the end as well, so that the node counts
can be compared node for node.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from .. import output as report
from ..children import cpu_seconds as cpu
from ..models.words import plural

COUNTED = ("owen-6x6-set1", "owen-6x6-set2", "owen-7x7-set1", "owen-7x7-set2",
           "owen-8x8-set1", "owen-8x8-set2")
SOLVED = ("owen-9x9-set1", "owen-9x9-set2", "owen-10x10-set1", "owen-10x10-set2")
# What others published, compared after the count (sources in each catalog file's note):
# distinct grids counting the board's four turns, and full row-scan nodes.
PUBLISHED = {
    "owen-6x6-set1": {"grids": 260, "rowscan_nodes": 69_284_103,
                      "source": "eternity2 group, messages 4604, 7771, 7777"},
    # "6,297 solutions": counted (2026-11-26) 25,188 grids, 6,297 up to turning the board, so
    # the figure is read as classes up to turning (as 260 on the 6x6 is grids)
    "owen-7x7-set1": {"classes": 6_297, "rowscan_nodes": 67_667_477_364,
                      "source": "eternity2 group, message 9793 (2017)"},
    "owen-8x8-set1": {"grids": 52, "source": "Eternity2Puzzles.jl docs ('Puzzle C')"},
    "owen-8x8-set2": {"grids": 96, "source": "Eternity2Puzzles.jl docs ('Puzzle D'); 24 "
                      "with a corner fixed, eternity2 group message 6635"},
    "owen-9x9-set1": {"grids": 8, "source": "eternity2 group, messages 9332, 9342, 9822"},
    "owen-9x9-set2": {"grids": 12, "source": "eternity2 group, messages 9332, 9342"},
    "owen-10x10-set1": {"solved": True, "source": "eternity2 group, message 9686 (2017)"},
    "owen-10x10-set2": {"solved": False, "source": "no solution published"},
}


def check_boards(counted: list[str], solved: list[str], solver: str) -> None:
    """Refuse, before any work, a board the ladder cannot take, blaming the board (or the
    solver named), never the backend and modulo the ladder chooses itself: counts are
    edgecount's, up to turning the board; solves are `solver`'s."""
    from ..models import files
    from ..models.errors import InputError
    from ..registry import family_of, resolve

    for name, task in [(n, "count") for n in counted] + [(n, "solve") for n in solved]:
        puzzle = files.load(name)
        field = "BOARD" if task == "count" else "--solve BOARD"
        if puzzle.kind != "edge-matching":
            raise InputError(f"{name}: the ladder takes edge-matching boards, not "
                             f"{puzzle.kind} puzzles", field=field)
        try:
            if task == "count":
                family_of(puzzle).check_modulo(puzzle, "symmetry")
                resolve("edgecount", puzzle.kind, "count")
            else:
                resolve(solver, puzzle.kind, "solve")
        except InputError as error:
            if task == "solve" and error.field == "backend":
                field = "--solver"
            what = "counts up to turning the board, by edgecount" if task == "count" else (
                f"solves by {solver}")
            raise InputError(f"{name}: the ladder {what}: {error.message}",
                             field=field) from None


def count_row(name: str, jobs: int | None, time_limit: float | None,
              checkpoint: str | None, say: Callable[[str], None]) -> dict:
    """One board counted (resumed from and kept in `checkpoint` where given): grids, classes up
    to turning, nodes, wall and CPU seconds of this run, and the load."""
    import puzzlesat

    # a resumed count's seconds are this run's only (the cubes the checkpoint held cost before)
    resumed = checkpoint is not None and Path(checkpoint).is_file() and \
        Path(checkpoint).stat().st_size > 0
    start, spent = time.perf_counter(), cpu()
    found = puzzlesat.count(name, backend="edgecount", modulo="symmetry", jobs=jobs,
                            time_limit=time_limit, checkpoint=checkpoint, say=say)
    seconds, cpu_seconds = time.perf_counter() - start, cpu() - spent
    nodes = found.details.get("nodes") or 0
    searched = found.details.get("nodes_this_call")  # without those read from a checkpoint
    searched = nodes if searched is None else searched
    row = {"board": name, "task": "count", "complete": found.complete,
           "grids": found.details.get("grids"), "classes": found.number, "nodes": nodes,
           "nodes_this_run": searched,
           "seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2),
           "nodes_per_second": round(searched / seconds) if seconds else None,
           "nodes_per_cpu_second": round(searched / cpu_seconds) if cpu_seconds else None,
           "jobs": jobs, "load": report.load(), "date": report.now(),
           "resumed": resumed or searched != nodes,
           "interrupted": bool(found.details.get("interrupted"))}
    if found.details.get("cube_seconds") is not None:  # every run's cubes, the checkpoint's too
        row.update({k: found.details[k] for k in ("cube_seconds", "cubes_timed", "cubes")})
    spent = ("read whole from the checkpoint" if read_whole(row) else
             f"in {seconds:,.1f} s ({cpu_seconds:,.1f} s of CPU)")
    say(f"{name}: {'' if found.complete else 'INCOMPLETE, at least '}"
        f"{plural(row['grids'], 'grid')}, "
        f"{found.number:,} up to turning, {plural(nodes, 'node')} {spent}")
    return row


def rowscan_row(name: str, say: Callable[[str], None], pinned: bool = False, jobs: int = 1,
                checkpoint: str | None = None) -> dict | None:
    """The C row scan's full count of the board (None without a C compiler); `pinned`: with
    the board's first corner tile alone of its kind kept on the top left corner (a quarter of
    the grids on Owen's boards, the community's 7x7 scan), split by the tile on the second
    cell into parts run `jobs` at a time, each kept in `checkpoint` as it ends (resumed)."""
    import tempfile

    from ..models import files
    from .edgecount import build_anchor, run_anchor

    with tempfile.TemporaryDirectory() as folder:
        binary = build_anchor(Path(folder))
        if binary is None:
            say("no C compiler here: the row scan is left out")
            return None
        if pinned:
            return pinned_rowscan(name, binary, say, jobs, checkpoint)
        grids, nodes, seconds = run_anchor(binary, files.load(name), None)
    say(f"{name}: C row scan {plural(grids, 'grid')}, {plural(nodes, 'node')} in {seconds:,.1f} s")
    return {"rowscan_grids": grids, "rowscan_nodes": nodes, "rowscan_seconds": round(seconds, 2),
            "rowscan_load": report.load(), "rowscan_date": report.now()}


def rowscan_parts(name: str, checkpoint: str | None, tile: int | None = None) -> dict:
    """The parts of a pinned row scan kept in `checkpoint` ({} where there is none yet);
    InputError for a file that is not this board's (with this tile)."""
    from ..models.errors import InputError

    if checkpoint is None or not Path(checkpoint).is_file():
        return {}
    try:
        kept = json.loads(Path(checkpoint).read_text())
        ok = kept.get("board") == name and isinstance(kept.get("parts"), dict) and (
            tile is None or kept.get("first_tile") == tile)
    except (OSError, ValueError, AttributeError):
        ok = False
    if not ok:
        raise InputError(f"not the pinned row scan's parts of {name}", file=checkpoint,
                         field="checkpoint")
    return kept["parts"]


def rowscan_measured(checkpoint: str | None) -> dict:
    """The load and date kept in the pinned row scan's `checkpoint` when its last part ended
    ({} where none are kept): a scan read whole from it reports when it was measured."""
    try:
        kept = json.loads(Path(checkpoint).read_text()) if checkpoint else {}
    except (OSError, ValueError):
        return {}
    return {k: kept[k] for k in ("rowscan_load", "rowscan_date") if k in kept}


def pinned_rowscan(name: str, binary: Path, say: Callable[[str], None], jobs: int,
                   checkpoint: str | None) -> dict:
    """The C row scan with a corner tile pinned, part by part (see `rowscan_row`)."""
    import subprocess
    import threading
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
    from concurrent.futures import wait as wait_for

    from ..models import files
    from ..models.edge_matching import fits_frame, rotated, tile_types
    from ..models.edge_matching.tables import pinned as pins
    from ..models.errors import InputError
    from .edgecount import anchor_input

    puzzle = files.load(name)
    parts = pins(puzzle)
    if len(parts) != 1 or (parts[0][0].fixed[0].row, parts[0][0].fixed[0].col) != (0, 0):
        raise InputError(f"{name} has no corner tile alone of its kind for the pinned row "
                         "scan (it is for boards like Owen's)", field="rowscan")
    pin, weight, label = parts[0]
    tile = pin.fixed[0].tile
    kinds = tile_types(puzzle)
    first = next(k for k, kind in enumerate(kinds) if tile in kind.tiles)
    edges = puzzle.tiles[tile].edges
    at_first = len({rotated(edges, r) for r in range(4)
                    if fits_frame(puzzle, (0, 0), rotated(edges, r))})  # nodes every part counts
    done = rowscan_parts(name, checkpoint, tile)
    todo = [k for k in range(len(kinds)) if str(k) not in done]
    say(f"{name}: C row scan with {label} (x{weight}), {plural(len(kinds), 'part')} by the second "
        f"cell's tile, {len(done)} done before, {jobs} at a time")
    lock = threading.Lock()
    running: set = set()
    text = anchor_input(puzzle)

    def part(k: int) -> None:
        process = subprocess.Popen([str(binary), "-1", str(first), str(k)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        with lock:
            running.add(process)
        out, _ = process.communicate(text)
        with lock:
            running.discard(process)
        if process.returncode != 0:
            raise RuntimeError(f"the C row scan ended with {process.returncode}")
        grids, nodes, seconds = out.split()[:3]  # then CPU seconds
        with lock:
            done[str(k)] = [int(grids), int(nodes), float(seconds)]
            if checkpoint is not None:
                report.write_text_atomic(checkpoint, json.dumps(
                    {"board": name, "first_tile": tile, "pinned": label, "weight": weight,
                     "parts": done, "rowscan_load": report.load(),
                     "rowscan_date": report.now()}) + "\n", "checkpoint")

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(part, k) for k in todo}
        try:
            while futures:
                finished, futures = wait_for(futures, timeout=1.0, return_when=FIRST_COMPLETED)
                for future in finished:
                    future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            with lock:
                for process in running:
                    process.kill()
            raise
    grids = sum(g for g, _, _ in done.values())
    nodes = sum(n for _, n, _ in done.values()) - (len(kinds) - 1) * at_first
    seconds = sum(s for _, _, s in done.values())
    say(f"{name}: C row scan with {label}: {plural(grids, 'grid')} there (x{weight}: "
        f"{weight * grids:,}), {plural(nodes, 'node')} in {seconds:,.1f} s of the parts")
    return {"rowscan_grids": weight * grids, "rowscan_nodes": nodes,
            "rowscan_seconds": round(seconds, 2), "rowscan_pinned": label,
            "rowscan_pinned_grids": grids, "rowscan_weight": weight,
            "rowscan_load": report.load(), "rowscan_date": report.now(),
            **(rowscan_measured(checkpoint) if not todo else {})}


def solve_row(name: str, backend: str, time_limit: float | None,
              say: Callable[[str], None], jobs: int | None = None,
              checkpoint: str | None = None) -> dict:
    """One board solved: on a backend that searches cubes (edgecount) the cubes of the count
    (its pinned corner tile, its measured order) on `jobs`, each cube kept in `checkpoint` as
    it ends (resumed), stopped at the first grid, which is printed with the nodes spent."""
    import puzzlesat

    from ..executors import cores
    from ..registry import backend as backend_named

    in_cubes = backend_named(backend).solves_in_cubes
    start, spent = time.perf_counter(), cpu()
    found = puzzlesat.solve(name, backend=backend, time_limit=time_limit,
                            **({"jobs": jobs or cores(), "checkpoint": checkpoint}
                               if in_cubes else {"checkpoint": checkpoint} if checkpoint else {}))
    seconds, cpu_seconds = time.perf_counter() - start, cpu() - spent
    nodes = found.details.get("nodes")
    now = found.details.get("nodes_this_call")
    if found.found:
        for line in found.lines:
            say(line)
    said = (f"{plural(nodes, 'node')}" + (f" ({now:,} this run)" if now != nodes else "")
            + f", {found.details['cubes_searched']:,} of {plural(found.details['cubes'], 'cube')} "
            "searched" if nodes is not None else "")
    state = ("solved" if found.found else "not solved: " + found.note if found.complete
             else "INCOMPLETE, " + found.note)
    say(f"{name}: {state} by {backend} in {seconds:,.1f} s ({cpu_seconds:,.1f} s of CPU)"
        + (f", {said}" if said and found.found else ""))
    if found.found and checkpoint:
        from ..models.edge_matching.best import most
        from ..models.edge_matching.boardfile import board_json

        puzzle = puzzlesat.load(name)
        path = checkpoint + ".board.json"
        report.write_text_atomic(path, board_json(puzzle, found.grid, most(puzzle),
                                                  most(puzzle)), "checkpoint")
        say(f"{name}: the grid written to {path} (puzzlesat verify {name} --board {path})")
    return {"board": name, "task": "solve", "backend": backend, "solved": found.found,
            "complete": found.found or found.complete, "seconds": round(seconds, 2),
            "cpu_seconds": round(cpu_seconds, 2), "load": report.load(),
            "nodes": nodes, "nodes_this_run": now,
            "nodes_per_cpu_second": round(now / cpu_seconds) if now and cpu_seconds else None,
            "jobs": jobs or cores() if in_cubes else None, "details": found.details,
            "solution": found.data if found.found else None}


def ladder(counted: list[str], solved: list[str], jobs: int | None, time_limit: float | None,
           solver: str, rowscan: bool, say: Callable[[str], None] = report.say,
           checkpoint: str | None = None, pinned: bool = False) -> dict:
    """Count the boards `counted` and solve those `solved`; a checkpoint keeps (and resumes)
    the count of one board (and the pinned row scan's parts in CHECKPOINT.rowscan);
    `rowscan`: the C row scan counts each board too, with a corner tile `pinned` or not."""
    from ..models.errors import InputError

    if checkpoint is not None and len(counted) + len(solved) != 1:
        raise InputError("a checkpoint keeps the count or the solve of one board: name one "
                         f"board ({len(counted) + len(solved)} named)", field="checkpoint")
    if rowscan and pinned and checkpoint is not None and counted:
        rowscan_parts(counted[0], checkpoint + ".rowscan")  # another board's: refused now
    rows = []
    for name in counted:
        row = count_row(name, jobs, time_limit, checkpoint, say)
        if rowscan and row["complete"]:
            from ..executors import cores

            row.update(rowscan_row(name, say, pinned, jobs or cores(), None if checkpoint is None
                                   else checkpoint + ".rowscan") or {})
        rows.append(row)
        if row["interrupted"]:  # Ctrl-C or SIGTERM stops the ladder, not only this board
            say("ladder: interrupted; the boards after it were not counted or solved")
            solved = []
            break
    for name in solved:
        rows.append(solve_row(name, solver, time_limit, say, jobs, checkpoint))
    for row in rows:
        row["published"] = PUBLISHED.get(row["board"], {})
        row.setdefault("date", report.now())
    return {"date": report.now(), **report.machine(), **report.versions(), "rows": rows}


def markdown(figures: dict) -> str:
    lines = [
        "# The ladder: Brendan Owen's boards counted and solved (`puzzlesat ladder`)",
        "",
        f"{figures['date']} (each row on its own date); {plural(figures['cores'], 'core')} shared "
        f"with other work (the load beside each row); Python {figures.get('python')}, numba "
        f"{figures.get('numba')}. Counts by `edgecount` (distinct grids; up to turning the "
        "board by Burnside's lemma); a node is a tile placed. Our search fills the board in the "
        "order its measurement picks (row by row on these boards, but corners first on the "
        "8x8 set 1) and counts every grid through one corner tile pinned on the top left "
        "corner, weighted by the board's 4 turns (corners first: one corner layout per orbit "
        "of the turns), so its nodes are not a full row scan's; the C row scan (rowscan.c), "
        "where run, counts the same board row by row to the end without any reduction, or "
        "with the first corner tile pinned (x4, as the community's 7x7 scan), in the seconds "
        "of its search (pinned: the sum of its parts, each a process on a core of its own). "
        "A count read whole from its checkpoint keeps the timing of the run that counted it "
        "('-' where none is recorded). "
        "Published figures are compared after the count.",
        "",
        "| board | grids | up to turning | nodes | wall s | CPU s | M nodes / CPU s | load "
        "| C row scan: nodes, seconds | published | agrees | date |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---|---|---|",
    ]
    for r in figures["rows"]:
        pub = r.get("published", {})
        if r["task"] == "count":
            said = [f"{plural(pub['grids'], 'grid')}"] if "grids" in pub else []
            if "classes" in pub:
                said.append(f"{pub['classes']:,} up to turning")
            if "rowscan_nodes" in pub:
                said.append(f"{pub['rowscan_nodes']:,} row-scan nodes")
            checks = []
            for what in ("grids", "classes"):
                if what in pub and r["complete"]:
                    checks.append("yes" if pub[what] == r[what] else "**differs**")
            if "rowscan_grids" in r and r["complete"]:
                checks.append("row scan agrees" if r["rowscan_grids"] == r["grids"]
                              else "**row scan differs**")
            if "rowscan_nodes" in pub and "rowscan_nodes" in r:
                checks.append("yes" if pub["rowscan_nodes"] == r["rowscan_nodes"]
                              else "**nodes differ**")
            rate = (f"{r['nodes_per_cpu_second'] / 1e6:.1f}" if r.get("nodes_per_cpu_second")
                    else "-")
            read_back = read_whole(r)
            grids = f"{r['grids']:,}" + ("" if r["complete"] else " (incomplete)") + (
                f" (read whole from its checkpoint: no time of its own{summed(r)})"
                if read_back else f" (resumed: seconds and rate of the last run, "
                f"{r.get('nodes_this_run', 0):,} of the nodes{summed(r)})"
                if r.get("resumed") else "")
            wall, spent = (("-", "-") if read_back else
                           (f"{r['seconds']:,.1f}", f"{r['cpu_seconds']:,.1f}"))
            scan = f"{r['rowscan_nodes']:,}" if "rowscan_nodes" in r else "-"
            if "rowscan_pinned" in r:
                scan += (f" ({r['rowscan_pinned']}: {plural(r['rowscan_pinned_grids'], 'grid')} "
                         f"x{r['rowscan_weight']})")
            if "rowscan_seconds" in r:
                scan += f" in {r['rowscan_seconds']:,.1f} s" + (
                    f" (load {r['rowscan_load']}, {r['rowscan_date'][:10]})"
                    if "rowscan_load" in r else "")
            lines.append(
                f"| {r['board']} | {grids} | {r['classes']:,} | {r['nodes']:,} | "
                f"{wall} | {spent} | {rate} | {r['load']} | "
                f"{scan} | {'; '.join(said) + ' (' + pub['source'] + ')' if said else '-'} | "
                f"{', '.join(checks) or '-'} | {r.get('date', '-')[:16]} |")
        else:
            state = ("solved" if r["solved"] else "not solved (searched to the end)"
                     if r["complete"] else "not solved yet (incomplete)")
            nodes = f"{r['nodes']:,}" if r.get("nodes") is not None else "-"
            if r.get("nodes") is not None and r.get("nodes_this_run") != r["nodes"]:
                nodes += f" ({r.get('nodes_this_run') or 0:,} this run)"
            rate = (f"{r['nodes_per_cpu_second'] / 1e6:.1f}" if r.get("nodes_per_cpu_second")
                    else "-")
            lines.append(
                f"| {r['board']} | {state} by {r['backend']} | - | {nodes} | "
                f"{r['seconds']:,.1f} | {r['cpu_seconds']:,.1f} | {rate} | {r['load']} | - "
                f"| {plural(pub['grids'], 'grid') if 'grids' in pub else '- grids'} "
                f"({pub.get('source', '')}) | - | "
                f"{r.get('date', '-')[:16]} |")
    return "\n".join(lines) + "\n"


def read_whole(row: dict) -> bool:
    """A count whose every cube was read from its checkpoint: this run searched nothing, so
    its seconds are the reading's, not the count's."""
    return bool(row.get("resumed")) and row.get("nodes_this_run") == 0 and row["complete"]


def summed(row: dict) -> str:
    """A resumed count's whole effort: its cubes' seconds on their workers summed over every
    run (wall seconds, so a loaded machine inflates them), where the checkpoint timed them."""
    if not row.get("cube_seconds"):
        return ""
    rate = row["nodes"] / row["cube_seconds"] / 1e6 if row["cubes_timed"] == row["cubes"] else None
    return (f"; every run's cubes: {row['cube_seconds']:,.1f} s on their workers summed"
            + (f", {rate:.1f} M nodes a second" if rate else
               f" ({row['cubes_timed']:,} of {plural(row['cubes'], 'cube')} timed)"))


def merged(figures: dict, folder: Path) -> dict:
    """The figures with the rows recorded before in `folder` for other boards (or tasks) kept,
    in the ladder's order: a run of one board replaces that board's row only."""
    path = folder / "eternity-ii-ladder.json"
    try:
        before = json.loads(path.read_text())["rows"]
    except (OSError, ValueError, KeyError, TypeError):
        before = []
    before = [r for r in before if isinstance(r, dict)]
    kept = {(r.get("board"), r.get("task")): r for r in before}
    fresh = {(r["board"], r["task"]) for r in figures["rows"]}
    rows = [r for r in before if (r.get("board"), r.get("task")) not in fresh] + [
        measured(r, kept.get((r["board"], r["task"]))) for r in figures["rows"]]
    place = {name: i for i, name in enumerate(COUNTED + SOLVED)}
    rows.sort(key=lambda r: (r["task"] != "count", place.get(r["board"], len(place))))
    return {**figures, "rows": rows}


COUNT_FIGURES = ("seconds", "cpu_seconds", "nodes_per_second", "nodes_per_cpu_second", "jobs",
                 "load", "date", "resumed", "nodes_this_run")


def measured(row: dict, before: dict | None) -> dict:
    """The row to record for a board: a count read whole from its checkpoint (no node counted
    in this run, say to add the row scan) keeps the timing of the recorded run that counted
    the same grids and nodes; otherwise this run's row."""
    if (before is None or row["task"] != "count" or row.get("nodes_this_run") != 0
            or not before.get("complete") or not row["complete"]
            or (before.get("grids"), before.get("nodes")) != (row["grids"], row["nodes"])):
        return row
    return {**row, **{k: before[k] for k in COUNT_FIGURES if k in before}}


def record(figures: dict, folder: Path) -> list[Path]:
    """Write eternity-ii-ladder.json and .md in `folder` (atomically), this run's rows replacing
    those of the same boards recorded before."""
    figures = merged(figures, folder)
    json_path = folder / "eternity-ii-ladder.json"
    md_path = folder / "eternity-ii-ladder.md"
    report.write_text_atomic(json_path, json.dumps(figures, indent=1) + "\n")
    report.write_text_atomic(md_path, markdown(figures))
    return [md_path, json_path]
