"""Where each counting backend wins: every counting backend timed on a ladder of counts.

The ladder spans the regimes a count meets (issue 43): many identical pieces (the domino
tilings of the 8x8 to 12x12 boards: billions of solutions, each a product of few choices, where
a model counter's component caching should win and any enumeration loses); pieces used once
(pentominoes 3x20 and 6x10, IQ Block 10, the 8x8 with a centre hole: few solutions, hard to
find, where dancing links and the compiled search win); edge matching (the diamond blocks, a
Scramble deck, MacMahon's 24 squares); and pieces in any number (the catalog's tilings:
pentominoes on the 6x10, monominoes, dominoes and trominoes on the 8x8, L and straight
trominoes on the 9x12).

Every run is `puzzlesat.count` in this process on one job (the machine is shared; the model
counters are single-threaded), modulo 'none', with a time limit per run; a run stopped there
ends that backend's repeats (the next would stop alike) and shows as slower than the limit.
Medians of `repeat` runs. Where a backend refuses a puzzle (dancing links without copies of a
piece) the cell says so. The table is rewritten after every rung, so whatever finished is kept.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import api
from .. import output as report
from ..backends.mc import installed_counters
from ..models.errors import InputError
from ..models.packing import PackingPuzzle, Piece
from ..models.words import plural
from . import whole

LIMIT_SECONDS = 60.0  # each run's time limit, unless the command line gives one
# a warm-up's limit: numba compiling xcover's search took 64 s at load 15 (4 s once cached)
WARM_UP_SECONDS = 600.0
# the counting backends timed: the compiled searches, dancing links, CP-SAT, one SAT solver
# through PySAT (CaDiCaL 1.9.5: the others count alike, one blocking clause per solution), the
# reference and every model counter installed
PACKING = ("bitboard", "xcover", "cpsat", "pysat:cadical195", "reference")
EDGES = ("edgecount", "xcover", "cpsat", "pysat:cadical195", "reference")
# pieces in any number: dancing links takes no piece counted as a range (it refuses them)
ANY_NUMBER = ("bitboard", "cpsat", "pysat:cadical195", "reference")


def dominoes(side: int) -> PackingPuzzle:
    """The side x side board tiled by side*side/2 identical dominoes."""
    return PackingPuzzle(f"domino-{side}x{side}", ("X" * side,) * side,
                         (Piece("domino", ("XX",), count=side * side // 2),), True,
                         title=f"Domino tilings of the {side}x{side} board")


@dataclass(frozen=True)
class Rung:
    """One count of the ladder: its regime, its puzzle (a catalog name or one built here), the
    backends that count it, and the published count where one exists."""

    regime: str
    label: str
    puzzle: str | Callable[[], object]
    backends: tuple[str, ...]
    published: int | None = None
    pending: str = ""  # why the rung is not run yet


LADDER = (
    # Kasteleyn (1961), Temperley and Fisher (1961): OEIS A004003
    Rung("identical pieces", "dominoes 8x8", "domino-8x8", PACKING, 12_988_816),
    Rung("identical pieces", "dominoes 10x10", lambda: dominoes(10), PACKING, 258_584_046_368),
    Rung("identical pieces", "dominoes 12x12", lambda: dominoes(12), PACKING,
         53_060_477_521_960_000),
    Rung("pieces once", "pentominoes 3x20", "pentomino-3x20", PACKING, 8),
    Rung("pieces once", "pentominoes 6x10", "pentomino-6x10", PACKING, 9_356),
    Rung("pieces once", "IQ Block 10", "iq-block-10", PACKING),
    Rung("pieces once", "pentominoes 8x8, centre hole", "pentomino-8x8-centre-hole", PACKING,
         520),
    Rung("edge matching", "diamond blocks, Level 1", "diamond-blocks", EDGES),
    Rung("edge matching", "Scramble: frog", "scramble-frog", EDGES),
    Rung("edge matching", "MacMahon's 24 squares", "macmahon-24-squares", EDGES),
    Rung("pieces in any number", "pentominoes in any number, 6x10", "pentominoes-any-6x10",
         ANY_NUMBER),
    Rung("pieces in any number", "monominoes, dominoes, trominoes on 8x8", "mono-dom-trom-8x8",
         ANY_NUMBER),
    Rung("pieces in any number", "L and straight trominoes, 9x12", "trominoes-9x12",
         ANY_NUMBER),
)


def warm_puzzle(kind: str):
    """A small puzzle of the family, counted once by each backend before it is timed: a first
    count loads and compiles what a backend needs (numba's cache: xcover's first 3x20 ran past
    20 s at load 15, its later ones well under a second)."""
    if kind == "packing":
        return PackingPuzzle("warm-up", ("XXX", "XXX"), (Piece("a", ("XXX",)),
                                                         Piece("b", ("XX", "X."))), True)
    return "scramble-frog"


def backends_of(rung: Rung, named: tuple[str, ...] = ()) -> list[str]:
    """The rung's backends and every model counter installed (those of them `named`, if any)."""
    found = list(rung.backends) + installed_counters()
    return [b for b in found if b in named] if named else found


def time_backend(puzzle, backend: str, repeat: int, limit: float) -> dict:
    """`repeat` counts (fewer where one is stopped by the limit): each run's seconds, whether
    it finished, and the number counted; or why the backend refused the puzzle."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            count = whole(api.count(puzzle, backend=backend, jobs=1, time_limit=limit))
        except InputError as refused:
            return {"backend": backend, "refused": str(refused)}
        runs.append({"seconds": round(time.perf_counter() - start, 3),
                     "complete": count.complete, "count": count.number,
                     "counter": count.details.get("counter")})
        if not count.complete:
            break
    return {"backend": backend, "runs": runs, **summary(runs)}


def summary(runs: list[dict]) -> dict:
    """The median of the runs that finished, the number they counted (a stopped run counts
    nothing: never its 0), whether any finished, and how many were stopped at the limit."""
    done = [r for r in runs if r["complete"]]
    return {"median_seconds": round(statistics.median(r["seconds"] for r in done), 3)
            if done else None, "count": done[-1]["count"] if done else None,
            "complete": bool(done), "stopped": len(runs) - len(done)}


def run(repeat: int, results: Path | None, limit: float | None = None,
        say: Callable[[str], None] = report.say, only: tuple[str, ...] = (),
        named: tuple[str, ...] = ()) -> dict:
    """Time every backend (or those `named`) on every rung (or the rungs whose label holds a
    word of `only`); the figures, also written to results/ as each rung ends where `results`
    is a folder."""
    limit = limit or LIMIT_SECONDS
    figures: dict = {"date": report.now(), "limit_seconds": limit, "repeat": repeat,
                     "load_at_start": report.load(), "machine": report.machine(),
                     "versions": report.versions(), "rungs": []}
    chosen = [r for r in LADDER if not only or any(w in r.label for w in only)]
    warmed: set[tuple[str, str]] = set()
    for rung in chosen:
        row: dict = {"regime": rung.regime, "label": rung.label, "published": rung.published}
        figures["rungs"].append(row)
        if rung.pending:
            row["pending"] = rung.pending
        else:
            row["times"] = time_rung(rung, repeat, limit, warmed, say, named)
        figures["finished_rungs"] = sum(1 for r in figures["rungs"] if "times" in r)
        figures["rungs_asked"] = len(chosen)
        if results is not None:
            write(results, figures)
    return figures


def time_rung(rung: Rung, repeat: int, limit: float, warmed: set[tuple[str, str]],
              say: Callable[[str], None], named: tuple[str, ...] = ()) -> list[dict]:
    """Every backend's runs on one rung, each backend warmed up first on its family's small
    puzzle (once a run)."""
    puzzle = rung.puzzle() if callable(rung.puzzle) else api.load(rung.puzzle)
    kind = puzzle.kind
    times = []
    for backend in backends_of(rung, named):
        if (backend, kind) not in warmed:
            warmed.add((backend, kind))
            try:
                whole(api.count(warm_puzzle(kind), backend=backend, jobs=1,
                                time_limit=WARM_UP_SECONDS))
            except InputError:
                pass  # refused: said with the puzzle itself
        timed = time_backend(puzzle, backend, repeat, limit)
        timed["load"] = report.load()
        times.append(timed)
        say(f"{rung.label}: {backend}: {cell(timed, limit)} (load {timed['load']})")
    return times


def cell(timed: dict, limit: float) -> str:
    if "refused" in timed:
        return "refused"
    if not timed["complete"]:
        return f"> {limit:g} s"
    stopped = timed.get("stopped", 0)
    if stopped:  # a run past the limit ended the repeats: the median is of those that finished
        return (f"{timed['median_seconds']:.2f} s ({len(timed['runs']) - stopped} of "
                f"{plural(len(timed['runs']), 'run')}; {stopped} > {limit:g} s)")
    return f"{timed['median_seconds']:.2f} s"


def markdown(figures: dict) -> str:
    """The table: one row per rung, one column per backend, each a median (or why none)."""
    limit = figures["limit_seconds"]
    names: list[str] = []
    for row in figures["rungs"]:
        names += [t["backend"] for t in row.get("times", []) if t["backend"] not in names]
    counted_by_counters = {t["backend"] for row in figures["rungs"] for t in row.get("times", [])
                           for r in t.get("runs", []) if r.get("counter")}
    names.sort(key=lambda name: name in counted_by_counters)  # the model counters last
    lines = [
        "# Where each counting backend wins (`puzzlesat bench counters`)",
        "",
        f"{figures['date']}; medians of {plural(figures['repeat'], 'run')}, each `puzzlesat.count` "
        f"on one job in one process, modulo 'none', stopped at {limit:g} s (a run stopped there "
        "ends "
        "that backend's repeats: '>' below); 'refused': the backend cannot take the puzzle. "
        f"Load at the start {figures['load_at_start']} on "
        f"{plural(figures['machine']['cores'], 'core')}; the load during each run is in "
        f"counters-bench.json. {figures.get('finished_rungs', 0)} of "
        f"{plural(figures.get('rungs_asked', 0), 'rung')} "
        "ran.",
        "",
        "| regime | count | solutions | " + " | ".join(names) + " |",
        "|" + " --- |" * (3 + len(names)),
    ]
    for row in figures["rungs"]:
        if "times" not in row:
            why = row.get("pending", "not run")
            lines.append(f"| {row['regime']} | {row['label']} | {why} |" + " |" * len(names))
            continue
        by = {t["backend"]: t for t in row["times"]}
        counts = {t["count"] for t in row["times"] if t.get("complete")}
        found = f"{counts.pop():,}" if len(counts) == 1 else (
            "DISAGREE" if counts else "none finished")
        if row["published"] is not None and found != f"{row['published']:,}":
            found += f" (published {row['published']:,})"
        lines.append(f"| {row['regime']} | {row['label']} | {found} | " + " | ".join(
            cell(by[n], limit) if n in by else "" for n in names) + " |")
    counters = {t["backend"]: r["counter"] for row in figures["rungs"]
                for t in row.get("times", []) for r in t.get("runs", []) if r.get("counter")}
    if counters:
        lines += ["", "Model counters: " + "; ".join(f"{n} = {c}" for n, c in counters.items())
                  + "."]
    return "\n".join(lines) + "\n"


def write(results: Path, figures: dict) -> None:
    report.write_json_atomic(results / "counters-bench.json", figures, "results")
    report.write_text_atomic(results / "counters-bench.md", markdown(figures), "results")
