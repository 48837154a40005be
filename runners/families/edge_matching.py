"""Edge-matching puzzles: solve, count distinct grids (also up to turning the board), list,
verify on every backend, export.

What is counted: distinct grids, a tile kind turned one way on each cell, identical tiles
interchangeable (with label_tiles: arrangements of physically distinct tiles, the grids times
the product of m! over the tile kinds). Up to symmetry (the board's turns; with 'mirror' also
its mirror images; with 'colours' also exchanges of colours: models/edge_matching/symmetry.py),
the solvers count by Burnside's lemma (the mean over the group of the grids each element leaves
unchanged, each its own model, elements known to fix the same grids counted once), the
reference by keeping the grids that are the least of their images under a group it makes
again itself.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator

from ..backends import Backend
from ..backends import reference_edge as reference
from ..checkpoint import digest
from ..counting import Runner, Tally, solution_found
from ..executors import Work
from ..lazy import lazy_module
from ..models import words
from ..models.edge_matching import (
    EdgePuzzle,
    Placed,
    at_level,
    board,
    board_motion,
    board_turns,
    check_grid,
    distinct_rotations,
    grid_from_looks,
    label_factor,
    rotated,
    tile_types,
)
from ..models.edge_matching.cover import cover_options, encode_cover
from ..models.edge_matching.encode import (
    CNF_MODELS,
    CPSAT_VARIANTS,
    DEFAULT_CARD_ENCODING,
    DEFAULT_CNF_MODEL,
    DEFAULT_CPSAT_VARIANT,
    board_words,
    encode_cnf,
    encode_cpsat,
    grid_of,
    placements,
    split_cubes,
)
from ..models.edge_matching.grid import Motion
from ..models.edge_matching.reader import edge_word, published_looks, published_solution_keys
from ..models.edge_matching.symmetry import exchangeable, fixing_alike, puzzle_group
from ..models.encoded import check_card_encoding, to_dimacs, to_dlx
from ..models.errors import InputError
from ..models.symmetry import IDENTITY, Group, burnside
from ..models.words import plural
from ..outcomes import Count, Solution, Verification
from ..terminal import draw_edges
from . import (
    VERIFY_SOLVERS,
    WITNESS_SECONDS,
    Encoder,
    Family,
    check_sampled_cubes,
    verify_backends,
    witness,
)

# the edgecount tables (numpy) load when an edge-matching puzzle is first counted
tables = lazy_module("puzzlesat.models.edge_matching.tables")

# Boards up to this many cells (and the counts of grids a turn leaves unchanged) are counted in
# one cube in this process: a 3x3 deck counts in 0.2 s, starting two worker processes takes
# about 5 s here.
SMALL_BOARD = 12
PARITIES = reference.PARITIES  # ("even", "odd"): the marks on cells of even / odd row + col


# ---------------------------------------------------------------- words


def display_name(puzzle: EdgePuzzle) -> str:
    """The puzzle's name, with its level for puzzles that have levels (diamond-blocks-level2)."""
    return f"{puzzle.name}-level{puzzle.level}" if puzzle.levels else puzzle.name


def rules_text(puzzle: EdgePuzzle) -> str:
    parts = ["touching edges " + ("equal" if puzzle.rule == "equal" else "complement")]
    if puzzle.frame is not None:
        parts.append(f"frame edge {puzzle.frame[0]!r} on the border only")
    if puzzle.border is not None:
        parts.append(f"every border side {puzzle.border[0]!r}")
    if puzzle.apart:
        parts.append(f"no two {puzzle.apart} tiles side by side")
    if puzzle.fixed:
        parts.append(f"{len(puzzle.fixed)} fixed tiles")
    level = f"Level {puzzle.level}: " if puzzle.levels else ""
    return level + ", ".join(parts)


def group_text(puzzle: EdgePuzzle) -> str:
    turns = len(board_turns(puzzle))
    if turns == 4 and puzzle.grid == "square":
        return "quarter turns"
    if turns == 2:
        return "a half turn"
    if turns > 1:
        return f"{plural(turns, 'turn')} by {360 // turns} degrees"
    return "no turn but the identity"


def turn_name(puzzle: EdgePuzzle, steps: int) -> str:
    return board(puzzle).grid.turn_name(steps)


def turn_group(puzzle: EdgePuzzle, modulo: str = "symmetry") -> Group:
    """The symmetries a count merges by (identity first): the board's turns that keep the
    rules, with 'mirror' and 'colours' more (models/edge_matching/symmetry.py)."""
    if modulo == "symmetry":
        return Group(tuple(turn_name(puzzle, k) for k in board_turns(puzzle)))
    return Group(tuple(m.name for m in puzzle_group(puzzle, modulo)))


def group_words(puzzle: EdgePuzzle, modulo: str) -> str:
    """What a count up to symmetry merges, in words."""
    if modulo == "symmetry":
        return f"turning the whole board ({group_text(puzzle)})"
    group = puzzle_group(puzzle, modulo)
    mirrors = sum(m.mirror for m in group)
    coloured = sum(bool(m.recolour) for m in group)
    words = f"the board's {plural(len(group), 'symmetry')}: turning it ({group_text(puzzle)})"
    words += (", mirroring it (a mirrored grid shows the tiles' mirror images, which are "
              "tiles of the set)" if mirrors else ", no mirror image (the tiles' mirror images "
              "are not the tiles)" if modulo == "mirror" else "")
    if modulo == "colours":
        pictures = ", ".join(exchangeable(puzzle))
        kept = [e[0] for e in (puzzle.frame, puzzle.border) if e is not None]
        never = f" (never {', '.join(kept)}, on the border)" if kept else ""
        words += (f", exchanging the colours {pictures}{never}"
                  if coloured else f", no exchange of the colours {pictures} keeps the tiles")
    return words


def meaning(puzzle: EdgePuzzle, modulo: str, label_tiles: bool = False) -> str:
    """What a count of this puzzle counts."""
    if label_tiles:
        what = (
            "arrangements of physically distinct tiles (distinct grids x "
            f"{words.number(label_factor(puzzle))}, the product of m! over the tile kinds, m tiles "
            "of a kind; "
            "equal-looking turns of one tile are not told apart)"
        )
    else:
        what = (
            "distinct grids (which tile kind, turned which way, on each cell); identical tiles "
            "are interchangeable"
        )
    if modulo != "none":
        what += f", counted once up to {group_words(puzzle, modulo)}"
    return what


def solution_json(puzzle: EdgePuzzle, grid: list[Placed]) -> list[list[dict]]:
    """Rows of cells: the tile (its name, or its number from 1), its turn in degrees, edges and
    mark (on a board that is not a full rectangle, each cell also its row and column)."""
    here = board(puzzle)
    rows: dict[int, list[dict]] = {}
    for (r, c), (t, rotation) in zip(here.cells, grid):
        tile = puzzle.tiles[t]
        cell = {
            "tile": tile.name or str(t + 1),
            "rotation": here.grid.rotation_degrees(rotation),
            "edges": [edge_word(e) for e in rotated(tile.edges, rotation)],
            "mark": tile.mark,
        }
        if puzzle.shape:
            cell = {"row": r + 1, "col": c + 1, **cell}
        rows.setdefault(r, []).append(cell)
    return list(rows.values())


def published_solutions(puzzle: EdgePuzzle) -> dict[str, bool]:
    """Whether each published solution stored with the puzzle obeys the rules of this level."""
    out = {}
    for key in published_solution_keys(puzzle.published):
        other_level = key.startswith("solution_level") and key != f"solution_level{puzzle.level}"
        if puzzle.levels and other_level:
            continue
        grid = grid_from_looks(puzzle, published_looks(puzzle, key))
        out[key] = grid is not None and check_grid(puzzle, grid) is None
    return out


def turn_factor(puzzle: EdgePuzzle) -> int:
    """Ways to turn the tiles of one grid without changing how it looks: the product over the
    tiles of the turns that leave each one looking the same (on squares 4 for one colour all
    round, 2 for a tile like R G R G, else 1; on triangles 3 or 1)."""
    factor = 1
    for tile in puzzle.tiles:
        factor *= len(tile.edges) // len(distinct_rotations(tile.edges))
    return factor


def conventions(puzzle: EdgePuzzle, grids: int, classes: int | None, complete: bool,
                modulo: str = "symmetry") -> dict[str, dict[str, object]]:
    """The count in each convention, each number with what it counts and the factor from the
    distinct grids (labelled counts are multiples of the grids; nothing is enumerated)."""
    label = label_factor(puzzle)
    turns = turn_factor(puzzle)
    bound = "" if complete else " (a lower bound: the count did not finish)"
    # (a factor too long to write out, 1,600! of a board of one tile kind, is said by its size
    # and recorded as None)
    out: dict[str, dict[str, object]] = {
        "grids": {"count": grids, "factor": 1, "counted": meaning(puzzle, "none") + bound},
        "labelled_tiles": {
            "count": words.written(grids * label), "factor": words.written(label),
            "counted": "arrangements of physically distinct tiles: grids x the product of m! "
            f"over the tile kinds (m tiles of a kind) = grids x {words.number(label)}" + bound},
        "labelled_tiles_and_turns": {
            "count": words.written(grids * label * turns), "factor": words.written(label * turns),
            "counted": "arrangements of physically distinct tiles, every turn of a tile told "
            "apart even where it looks the same: grids x the product of m! over the kinds x the "
            "product over the tiles of the turns that keep its look = grids x "
            f"{words.number(label)} x {words.number(turns)}" + bound},
    }
    if classes is not None:
        name = {"symmetry": "classes_up_to_turns", "mirror": "classes_up_to_board_symmetries",
                "colours": "classes_up_to_board_symmetries_and_colours"}[modulo]
        out[name] = {
            "count": classes, "factor": None,
            "counted": meaning(puzzle, modulo) + " (Burnside's lemma over the group, the "
            "grids each element keeps counted directly)" + bound}
    return out


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# ---------------------------------------------------------------- the family


def cpsat_of(puzzle: EdgePuzzle, turns: int | Motion, parity: int | None,
             cpsat_model: str = DEFAULT_CPSAT_VARIANT):
    return encode_cpsat(puzzle, turns, parity, cpsat_model)


def cnf_of(puzzle: EdgePuzzle, turns: int | Motion, parity: int | None,
           encoding: str = DEFAULT_CARD_ENCODING, cnf_model: str = DEFAULT_CNF_MODEL,
           amo: bool = True):
    return encode_cnf(puzzle, check_card_encoding(encoding, DEFAULT_CARD_ENCODING), turns,
                      parity, cnf_model, amo is not False)


def cover_of(puzzle: EdgePuzzle, turns: int | Motion, parity: int | None):
    if not board_motion(puzzle, turns).identity:
        raise InputError(
            "exact cover counts edge-matching grids with modulo 'none': classes up to turns need "
            "the grids a turn leaves unchanged, which exact cover with colours cannot say",
            field="modulo")
    return encode_cover(puzzle, 0, parity)


def tables_of(puzzle: EdgePuzzle, turns: int | Motion, parity: int | None,
              order: str | None = None):
    """edgecount's tables, in the fill order of the smaller search, measured (or the order
    given: a pinned part of a count keeps the order measured for the whole board)."""
    from ..backends.edgecount import measured_order

    if order is None:
        identity = board_motion(puzzle, turns).identity
        order = measured_order(puzzle) if identity else tables.DEFAULT_ORDER
    return tables.build_tables(puzzle, turns, order=order, parity=parity)


def colours_refused(backend: Backend, source) -> str | None:
    """Exact cover needs colours here (the seams between tiles): the bitboard search has none."""
    return None if backend.colours else (
        f"{backend.name} solves exact cover without colours; edge matching needs them (xcover)")


class EdgeMatching(Family):
    kind = "edge-matching"
    # the models of a board (grids a turn leaves unchanged, marks on a parity), by the kind of
    # backend that takes them
    # (keys: placements of tile kinds, or of tile copies for exact cover; decoded by grid_of
    # unless the model says; edgecount's tables plan their own cubes and report their nodes)
    encoders = {
        "cpsat": Encoder(cpsat_of, options=("cpsat_model",)),
        "cnf": Encoder(cnf_of, options=("encoding", "cnf_model", "amo")),
        "cover": Encoder(cover_of, refuses=colours_refused, keys=cover_options, turned=False),
        "tables": Encoder(tables_of, options=("order",), cubes=lambda model, wanted:
                          tables.plan_cubes(model, wanted), nodes=True,  # (tables: lazy)
                          decode=lambda puzzle, model, values: tables.grid_of_nodes(
                              model, puzzle, values)),
    }
    takes = (*encoders, "reference")
    export_formats = ("dimacs", "xcc")
    own_backends = {"reference": reference.ReferenceEdge}
    moduli = ("none", "symmetry", "mirror", "colours")
    load_options = ("level",)
    options = ("encoding", "cpsat_model", "cnf_model", "amo")
    count_options = ("label_tiles",)
    samples_cubes = "edgecount"  # verify --sample-cubes: cubes of edgecount's search

    def summary(self, puzzle: EdgePuzzle) -> str:
        types = len(tile_types(puzzle))
        levels = f", levels 1-{len(puzzle.levels)}" if puzzle.levels else ""
        return (
            f"{plural(len(puzzle.tiles), 'tile')} ({plural(types, 'kind')}) on "
            f"{board_words(puzzle)}, rule {puzzle.rule}{levels}; {puzzle.title}"
        )

    def at(self, puzzle: EdgePuzzle, level: int | None = None, **options) -> EdgePuzzle:
        """The puzzle at a level (Level 1 by default for puzzles that have levels)."""
        self.check_options(options, self.load_options, "load")
        if level is None:
            return at_level(puzzle, 1) if puzzle.levels and not puzzle.level else puzzle
        if not isinstance(level, int) or isinstance(level, bool):
            raise InputError(f"a level is a whole number, not {level!r}", field="level")
        if not puzzle.levels:
            if level == 1:  # every puzzle is its own Level 1
                return puzzle
            raise InputError(f"{puzzle.name} has no levels", field="level")
        if not 1 <= level <= len(puzzle.levels):
            raise InputError(
                f"{puzzle.name} has levels 1..{len(puzzle.levels)}, not {level}", field="level"
            )
        return at_level(puzzle, level)

    modulo_aliases = {"rotation": "symmetry"}  # the word of the first version

    def check_modulo(self, puzzle: EdgePuzzle, modulo: str) -> str:
        modulo = super().check_modulo(puzzle, modulo)
        if modulo != "none" and puzzle.fixed:
            raise InputError(
                f"{modulo!r} needs rules that stay the same when the board is turned; "
                f"{puzzle.name} has fixed tiles",
                field="modulo",
            )
        return modulo

    # ---- models

    def _check(self, backend: Backend, encoding: str | None, cpsat_model: str | None,
               cnf_model: str | None = None, amo: bool | None = None) -> None:
        """The model options named, and each meant for the model the backend takes."""
        if cnf_model is not None and cnf_model not in CNF_MODELS:
            raise InputError(f"unknown CNF model {cnf_model!r}; one of: {', '.join(CNF_MODELS)}",
                             field="cnf_model")
        if cpsat_model is not None and cpsat_model not in CPSAT_VARIANTS:
            raise InputError(
                f"unknown CP-SAT model {cpsat_model!r}; one of: {', '.join(CPSAT_VARIANTS)}",
                field="cpsat_model")
        self.model_options(backend, {"encoding": encoding, "cpsat_model": cpsat_model,
                                     "cnf_model": cnf_model, "amo": amo})

    def encode(self, puzzle: EdgePuzzle, backend: Backend, turns: int = 0,
               parity: int | None = None, encoding: str | None = None,
               cpsat_model: str | None = None, cnf_model: str | None = None,
               amo: bool | None = None, order: str | None = None):
        """The solver model of the puzzle (grids unchanged by `turns`, marks on a parity; the
        compiled counter's tables in a given fill order)."""
        return self.encode_for(backend, puzzle, turns, parity, encoding=encoding,
                               cpsat_model=cpsat_model, cnf_model=cnf_model, amo=amo,
                               order=order)

    def _options(self, puzzle: EdgePuzzle, backend: Backend, parity: int | None = None) -> list:
        """The options a model's keys stand for: placements of tile kinds, or (exact cover) of
        tile copies."""
        return (self.encoder(backend).keys or placements)(puzzle, parity)

    def _solution(self, puzzle: EdgePuzzle, grid: list[Placed] | None, backend: str,
                  seconds: float, complete: bool = True) -> Solution:
        name = display_name(puzzle)
        if grid is None:
            note = "no solution exists" if complete else "no solution found within the time limit"
            return Solution(name, self.kind, None, backend, seconds, complete, note=note)
        problem = check_grid(puzzle, grid)
        if problem:  # never hand out a wrong answer as a solution
            raise AssertionError(f"{backend} returned a grid that breaks the rules: {problem}")
        return Solution(
            name, self.kind, list(grid), backend, seconds, True,
            data=solution_json(puzzle, grid), lines=draw_edges(puzzle, grid, colour=False),
            note=f"{rules_text(puzzle)}; checked",
        )

    # ---- solve, solutions

    def solve(self, puzzle, backend, time_limit=None, encoding=None, cpsat_model=None,
              cnf_model=None, amo=None) -> Solution:
        puzzle = self.at(puzzle)
        self._check(backend, encoding, cpsat_model, cnf_model, amo)
        start = time.perf_counter()
        if self.owns(backend):  # the reference: its own model, sharing no encoder
            model = reference.model(puzzle)
            outcome = backend.solve(model, time_limit)
            grid = None if outcome.values is None else reference.placements_of(
                model, outcome.values)
        else:
            model = self.encode(puzzle, backend, encoding=encoding, cpsat_model=cpsat_model,
                                cnf_model=cnf_model, amo=amo)
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            outcome = backend.solve(model, None if left is None else max(0.001, left))
            grid = None if outcome.values is None else self._grid(puzzle, backend, model,
                                                                  outcome.values)
        return self._solution(puzzle, grid, backend.name, time.perf_counter() - start,
                              outcome.complete)

    def solve_in_cubes(self, puzzle, backend, runner: Runner) -> Solution:
        """One grid found by the compiled search in the cubes a count of every grid searches
        (its fill order and pinned tile, measured), on the runner's jobs, each cube until its
        first grid, the run stopped at the first grid found; with the runner's checkpoint,
        the cubes searched (and their nodes) kept, so that the same call resumes. details:
        the nodes (all, and this call's), the cubes searched and in all."""
        puzzle = self.at(puzzle)
        if not self.encoder(backend).cubes:
            raise InputError(f"{backend.name} solves a puzzle whole: a solve in cubes (jobs, a "
                             "checkpoint) runs on edgecount", field="backend")
        start = time.perf_counter()
        key = {"task": "solve", "puzzle": display_name(puzzle), "data": digest(puzzle),
               "backend": backend.name}
        works = self.cube_works(puzzle, backend, runner, solve=True, key=key)
        tallies = self._run(works, runner, key, self._small(puzzle))
        nodes = sum(v[1] for t in tallies for v in t.values if v is not None)
        now = sum(v[1] for t in tallies for v, old in zip(t.values, t.resumed)
                  if v is not None and not old)
        searched = sum(sum(t.finished) for t in tallies)
        details = {"nodes": nodes, "nodes_this_call": now, "cubes_searched": searched,
                   "cubes": sum(len(t.values) for t in tallies)}
        at = solution_found(tallies)
        seconds = time.perf_counter() - start
        if at is None:
            complete = all(t.complete for t in tallies)
            found = self._solution(puzzle, None, backend.name, seconds, complete)
            if not complete:
                found.note = (f"{'interrupted' if runner.interrupted else 'stopped'}: no grid "
                              f"in the {searched:,} of {plural(details['cubes'], 'cube')} "
                              f"searched ({plural(nodes, 'node')})")
            found.details = details
            return found
        tally, i = at
        grid = tables.grid_of_nodes(tally.work.payload, puzzle, list(tally.values[i][2:]))
        found = self._solution(puzzle, grid, backend.name, seconds)
        found.details = {**details, "found_in": f"{tally.work.label}, cube {i}",
                         "read_from_checkpoint": tally.resumed[i]}
        return found

    def cube_works(self, puzzle, backend, runner: Runner, solve: bool = False,
                   key: dict | None = None) -> list[Work]:
        """The works (and their cubes) a count of every grid (modulo 'none') on `backend` with
        the runner's jobs splits the puzzle into, or with `solve` those of `solve_in_cubes`
        (each cube until its first grid); nothing run. `puzzlesat estimate --sample-cubes`
        draws its cubes from these."""
        puzzle = self.at(puzzle)
        if solve:
            from ..backends.edgecount import cubes_to_solve

            key = key or {"task": "solve", "puzzle": display_name(puzzle),
                          "data": digest(puzzle), "backend": backend.name}
            wanted = 1 if self._small(puzzle) else cubes_to_solve(
                puzzle, self.encode(puzzle, backend, 0).order)
            works, _ = self._solver_works(puzzle, backend, runner, key, [0], per_job=max(
                backend.cubes_per_job, -(-wanted // max(1, runner.jobs))))
            for work in works:
                work.first = True
            return works
        key = key or self._count_key(puzzle, "none", backend)
        return self._solver_works(puzzle, backend, runner, key, [0])[0]

    def solutions(self, puzzle, backend, limit=None, encoding=None, cpsat_model=None,
                  cnf_model=None, amo=None) -> Iterator[Solution]:
        puzzle = self.at(puzzle)
        self._check(backend, encoding, cpsat_model, cnf_model, amo)
        return self._solutions(puzzle, backend, limit, encoding, cpsat_model, cnf_model, amo)

    def _solutions(self, puzzle, backend, limit, encoding, cpsat_model, cnf_model=None,
                   amo=None) -> Iterator[Solution]:
        if limit == 0:
            return
        start = time.perf_counter()
        if self.owns(backend):
            model = reference.model(puzzle)
            for nodes in backend.enumerate(model, (), limit):
                yield self._solution(puzzle, reference.placements_of(model, nodes),
                                     backend.name, time.perf_counter() - start)
            return
        options = self._options(puzzle, backend)
        model = self.encode(puzzle, backend, encoding=encoding, cpsat_model=cpsat_model,
                            cnf_model=cnf_model, amo=amo)
        for values in backend.solutions(model, limit):
            yield self._solution(puzzle, self._grid(puzzle, backend, model, values, options),
                                 backend.name, time.perf_counter() - start)

    def _grid(self, puzzle, backend, model, values, options=None) -> list[Placed]:
        """A backend's values decoded to (tile index, rotation) per cell."""
        decode = self.encoder(backend).decode
        if decode is not None:
            return decode(puzzle, model, values)
        return grid_of(puzzle, options or self._options(puzzle, backend), values)

    # ---- counting

    def _run(self, works: list[Work], runner: Runner, key: dict, small: bool) -> list[Tally]:
        """Run works; a small board's in this process (starting workers costs more)."""
        if small and runner.executor.name == "local" and runner.jobs > 1:
            alone = dataclasses.replace(runner, jobs=1)
            tallies = alone.run(works, key)
            runner.interrupted = runner.interrupted or alone.interrupted
            return tallies
        return runner.run(works, key)

    def _small(self, puzzle: EdgePuzzle) -> bool:
        return len(puzzle.tiles) <= SMALL_BOARD

    def _solver_works(self, puzzle, backend, runner, key, motions, parity=None, encoding=None,
                      cpsat_model=None, cnf_model=None, amo=None, per_job: int | None = None
                      ) -> tuple[list[Work], list[int]]:
        """Works counting, for each symmetry (a grid.Motion, or a turn in steps), the grids it
        leaves unchanged (the identity: every grid, in cubes of `per_job` a job, by default
        the backend's); and which symmetry each work counts for (the compiled counter may
        split every grid over pinned tiles)."""
        per_job = per_job or backend.cubes_per_job
        from ..backends.edgecount import measured_pins

        works: list[Work] = []
        owner: list[int] = []
        plans = self.encoder(backend).cubes  # the compiled counter's tables split themselves
        for number, motion in enumerate(motions):
            motion = board_motion(puzzle, motion)
            parts = [(puzzle, 1, "")]
            order = None
            if plans and motion.identity and parity is None:
                model = self.encode(puzzle, backend, 0)
                if not model.prefix and not self._small(puzzle):
                    parts = measured_pins(puzzle, model.order) or parts
                    order = model.order  # measured with the pin (measured_order)
            for part, weight, pin in parts:
                model = self.encode(part, backend, motion, parity, encoding, cpsat_model,
                                    cnf_model, amo, order)
                weights = sizes = None
                if plans:  # cubes on the first cells, corner orbits weighted
                    wanted = 1 if self._small(puzzle) else max(
                        1, runner.cubes_wanted(key, per_job) // len(parts))
                    cubes, weights, sizes = plans(model, wanted)
                    weights = [w * weight for w in weights]
                elif not motion.identity or self._small(puzzle):
                    cubes = [()]
                else:
                    cubes = split_cubes(self._options(puzzle, backend, parity), puzzle,
                                        runner.cubes_wanted(key, per_job))
                label = "all grids" if motion.identity else f"grids fixed by {motion.name}"
                if pin:
                    label += f", {pin} (weighted {weight})"
                if parity is not None:
                    label += f", marks on {PARITIES[parity]} cells"
                works.append(Work(label, backend.name, backend.payload(model), cubes, weights,
                                  stops_itself=backend.stops_itself, shown=motion.identity,
                                  sizes=sizes))
                owner.append(number)
        return works, owner

    def _count_key(self, puzzle, modulo, backend, encoding=None, cpsat_model=None,
                   cnf_model=None, amo=None) -> dict:
        """What a count's checkpoint is of (and its cubes' split recorded under)."""
        return {"puzzle": display_name(puzzle), "data": digest(puzzle), "modulo": modulo,
                "backend": backend.name, "encoding": encoding, "cpsat_model": cpsat_model,
                "cnf_model": cnf_model, "amo": amo}

    def count(self, puzzle, backend, modulo, runner: Runner, encoding=None, cpsat_model=None,
              cnf_model=None, amo=None,
              label_tiles=None) -> Count:
        """Distinct grids on one backend; with modulo 'symmetry', 'mirror' or 'colours' the
        classes under that group (Burnside on the solvers, least images on the reference)."""
        puzzle = self.at(puzzle)
        modulo = self.check_modulo(puzzle, modulo)
        self._check(backend, encoding, cpsat_model, cnf_model, amo)
        start = time.perf_counter()
        key = self._count_key(puzzle, modulo, backend, encoding, cpsat_model, cnf_model, amo)
        if label_tiles and modulo in ("mirror", "colours"):
            raise InputError(f"labelled tiles are counted with modulo 'none' or 'symmetry', "
                             f"not {modulo!r}", field="label_tiles")
        motions = puzzle_group(puzzle, modulo)
        fixed: dict[int, int] | None = None
        nodes = searched_now = cube_seconds = None
        if self.owns(backend):  # the reference: classes by least images, its own way
            classes_wanted = modulo != "none"
            model = reference.model(puzzle, classes=modulo if classes_wanted else None)
            work = Work("reference: all grids", backend.name, backend.payload(model),
                        reference.cubes(model), stops_itself=backend.stops_itself)
            [tally] = self._run([work], runner, key, self._small(puzzle))
            complete = tally.complete
            grids = tally.total(0)
            classes = tally.total(1) if classes_wanted else None
            classes_by = "least image" if classes_wanted else None
        else:
            # elements that generate one another's cyclic group, or are conjugate, leave the
            # same number of grids unchanged: one of them is counted
            alike = fixing_alike(motions)
            counted = sorted(set(alike))
            works, owner = self._solver_works(puzzle, backend, runner, key,
                                              [motions[i] for i in counted], None, encoding,
                                              cpsat_model, cnf_model, amo)
            tallies = self._run(works, runner, key, self._small(puzzle))
            complete = all(t.complete for t in tallies)
            if self.encoder(backend).nodes:  # nodes searched (each cube once, not weighted)
                nodes = sum(v[1] for t in tallies for v in t.values if v is not None)
                searched_now = sum(v[1] for t in tallies for v, old in zip(t.values, t.resumed)
                                   if v is not None and not old)  # the rest: a checkpoint's
                timed = [s for t in tallies for s, ok in zip(t.seconds, t.finished)
                         if ok and s is not None]
                cube_seconds = (round(sum(timed), 1), len(timed),
                                sum(len(t.finished) for t in tallies))
            found = dict.fromkeys(counted, 0)
            for number, tally in zip(owner, tallies):
                found[counted[number]] += tally.total()
            fixed = {i: found[alike[i]] for i in range(len(motions))}
            grids = fixed[0]
            classes = burnside(list(fixed.values())) if complete and modulo != "none" else None
            classes_by = "Burnside" if modulo != "none" else None
        group = turn_group(puzzle, modulo) if modulo != "none" else IDENTITY
        if modulo != "none" and not complete:  # a lower bound: at most |G| grids per class
            classes = max(classes or 0, _ceil_div(grids, group.order))
        factor = label_factor(puzzle) if label_tiles else 1
        number = self._number(puzzle, modulo, factor, grids, classes, group, complete)
        details: dict[str, object] = {
            "solutions": words.written(grids * factor),
            "classes": None if modulo == "none" else words.written(number),
            "grids": grids,
            "grid_classes": classes,
            "fixed_by_turn": None if fixed is None or modulo != "symmetry"
            else {str(motions[i].steps * board(puzzle).grid.turn_degrees): v
                  for i, v in fixed.items()},
            "fixed_by": None if fixed is None or modulo == "none"
            else {motions[i].name: v for i, v in fixed.items()},
            "classes_by": classes_by,
            "label_tiles": bool(label_tiles),
            "label_factor": words.written(factor),
            "rules": rules_text(puzzle),
            "format": puzzle.file_format,
        }
        details["conventions"] = conventions(puzzle, grids, classes if modulo != "none" else
                                             None, complete, modulo)
        seconds = time.perf_counter() - start
        if nodes is not None:  # the rate is this call's: nodes read from a checkpoint left out
            details["nodes"] = nodes
            details["nodes_this_call"] = searched_now
            # a count over several runs (a checkpoint): the wall seconds each finished cube took
            # on its worker, summed over every run, how many cubes were timed, and of how many
            details["cube_seconds"], details["cubes_timed"], details["cubes"] = cube_seconds
            details["nodes_per_second"] = round(searched_now / seconds) if seconds else None
        return Count(display_name(puzzle), number, meaning(puzzle, modulo, bool(label_tiles)),
                     modulo, complete, time.perf_counter() - start, backend.name,
                     runner.executor.name, group, details)

    def _number(self, puzzle, modulo, factor, grids, classes, group, complete) -> int | None:
        """The count asked for. With labelled tiles, the grids times the factor; up to turns,
        divided by the turns: no turn but the identity leaves an arrangement of physically
        distinct tiles unchanged when the board has more than one cell."""
        if modulo == "none":
            return grids * factor
        if factor == 1 or classes is None:
            return classes
        if len(puzzle.tiles) <= 1:
            return classes * factor
        if not complete:
            return _ceil_div(grids * factor, group.order)
        if grids * factor % group.order:
            raise ArithmeticError("labelled arrangements are not a multiple of the turns")
        return grids * factor // group.order

    def parity_counts(self, puzzle, backend, runner: Runner, encoding=None) -> dict[str, int]:
        """Grids with the marked tiles only on cells with (row + col) even, and only on odd
        cells. The reference refuses (ValueError) when the marks do not force a checkerboard."""
        puzzle = self.at(puzzle)
        found = {}
        for p, name in enumerate(PARITIES):
            key = {"puzzle": display_name(puzzle), "data": digest(puzzle), "parity": name,
                   "backend": backend.name, "encoding": encoding}
            if self.owns(backend):
                model = reference.model(puzzle, parity=p)
                works = [Work(f"reference: marks on {name} cells", backend.name,
                              backend.payload(model), reference.cubes(model),
                              stops_itself=backend.stops_itself)]
            else:
                works, _ = self._solver_works(puzzle, backend, runner, key, [0], p,
                                              **self.applicable(backend, encoding=encoding))
            [tally] = self._run(works, runner, key, self._small(puzzle))
            if not tally.complete:
                raise TimeoutError(f"{backend.name}: the {name} parity count did not finish")
            found[name] = tally.total(0)
        return found

    # ---- verify

    def verify(self, puzzle, runner_for, backends=None, encoding=None, cpsat_model=None,
               say=None, sample_cubes=None) -> Verification:
        """Count on every backend, plainly and up to turns; for the `apart` rule also the two
        checkerboard parities; and check the published solutions. All must agree. With
        sample_cubes N: for a count too large for the other backends, N random cubes of
        edgecount's search, each counted by edgecount, xcover and CP-SAT (or the `backends`
        named)."""
        from ..registry import resolve

        puzzle = self.at(puzzle)
        if sample_cubes is not None:
            return self._verify_sample(puzzle, runner_for, sample_cubes, backends, say)
        modulo = "none" if puzzle.fixed else "symmetry"
        counts: list[Count] = []
        for name in backends or verify_backends(self.kind):
            backend = resolve(name, self.kind, "count")
            counts.append(self.count(
                puzzle, backend, modulo if self.owns(backend) or self.encoder(backend).turned
                else "none", runner_for(),
                **self.applicable(backend, encoding=encoding, cpsat_model=cpsat_model)))
            if say:
                say(verify_table(counts[-1:]).splitlines()[1])
        complete = all(c.complete for c in counts)
        if complete and not backends:  # a witness unfinished by its time: shown only
            witnessed = self._witness(puzzle, counts, modulo, runner_for, say)
            counts += [c for c in witnessed if c.complete]
        grids = {c.details["grids"] for c in counts if c.complete}
        classes = {c.details["grid_classes"] for c in counts if c.complete and c.modulo == modulo}
        agree = complete and len(grids) == 1 and len(classes) == 1
        why = "" if agree else (
            "some counts did not finish" if not complete else "the backends DISAGREE")
        parities = None
        if agree and puzzle.apart:
            parities = self._parity_check(puzzle, runner_for, min(grids), backends, encoding)
            if parities is not None and not parities["agree"]:
                agree, why = False, "the backends DISAGREE on the checkerboard parities"
        if complete and not backends:
            counts += [c for c in witnessed if not c.complete]
        table = verify_table(counts)
        if not agree:
            return Verification(display_name(puzzle), False, why, counts, {}, table)
        total, reduced = grids.pop(), classes.pop()
        factor = label_factor(puzzle)
        result: dict[str, object] = {
            "puzzle": display_name(puzzle),
            "title": puzzle.title,
            "kind": self.kind,
            "format": puzzle.file_format,
            "rules": rules_text(puzzle),
            "count": total,
            "counted": meaning(puzzle, "none"),
            "rotation_classes": reduced,
            "rotation_counted": None if reduced is None else meaning(puzzle, "symmetry"),
            "group": (turn_group(puzzle) if reduced is not None else IDENTITY).to_json(),
            "label_tiles": words.written(total * factor),
            "label_tiles_counted": meaning(puzzle, "none", True),
            "label_factor": words.written(factor),
            "conventions": conventions(puzzle, total, reduced, True),
            "parity": parities,
            "published": {k: v for k, v in puzzle.published.items()
                          if not k.startswith("solution")},
            "published_solutions": published_solutions(puzzle),
            "runs": [
                {
                    "backend": c.backend,
                    "grids": c.details["grids"],
                    "fixed_by_turn": c.details["fixed_by_turn"],
                    "rotation_classes": c.details["grid_classes"],
                    "seconds": round(c.seconds, 3),
                    "complete": c.complete,
                }
                for c in counts
            ],
            "jobs": runner_for().jobs,
        }
        wrong = [k for k, ok in result["published_solutions"].items() if not ok]
        if wrong:  # a claim of the file that fails: no verified puzzle
            return Verification(display_name(puzzle), False, f"the published {', '.join(wrong)} "
                                f"is not a valid solution here (the backends agree on "
                                f"{plural(total, 'grid')})", counts, result, table)
        return Verification(display_name(puzzle), True, "", counts, result, table)

    def _witness(self, puzzle, counts: list[Count], modulo: str, runner_for, say
                 ) -> list[Count]:
        """A model counter's count, where the witness rule expects it to finish (shown,
        incomplete, and left out where it has not finished by WITNESS_SECONDS)."""
        counter = witness({c.details["grids"] for c in counts},
                          lambda counter: self.encode(puzzle, counter).nvars)
        if counter is None:
            return []
        done = self.count(puzzle, counter, modulo if self.encoder(counter).turned else "none",
                          runner_for(WITNESS_SECONDS))
        if say:
            say(verify_table([done]).splitlines()[1] + "  (witness)")
        return [done]

    def _verify_sample(self, puzzle, runner_for, n: int, backends=None, say=None
                       ) -> Verification:
        """Random cubes (paths of edgecount's search down to 16 cells before the end, those
        with grids preferred) counted by edgecount and by each other backend, the cube's tiles
        given to them as fixed tiles."""
        import numpy as np

        from ..backends.edgecount import Search
        from ..models.edge_matching.tables import cube_puzzle, random_cube

        sampler, others = self.sampled_and_others(backends, ("xcover", "cpsat"))
        model = tables.build_tables(puzzle)
        depth = max(model.prefix, model.depths - 16)
        rng = np.random.default_rng(len(puzzle.tiles))
        picked: list[tuple[tuple[int, ...], int]] = []
        empty: list[tuple[tuple[int, ...], int]] = []
        for _ in range(200 * n):
            if len(picked) >= n:
                break
            cube = random_cube(model, depth, rng)
            if cube is None:
                continue
            search = Search(model, cube)
            search.run(10**15)
            (picked if search.found else empty).append((cube, search.found))
        picked = (picked + empty)[:n]
        cards = []
        for cube, ours in picked:
            fixed = cube_puzzle(model, puzzle, cube)
            cards.append((ours, fixed, {"cells_fixed": len(fixed.fixed)}))

        def count_in(fixed, backend):  # small: no worker processes
            return self.count(fixed, backend, "none", dataclasses.replace(runner_for(), jobs=1))

        rows, counts, agree, table = check_sampled_cubes(cards, sampler.name, others, count_in,
                                                          "grids", say)
        names = [sampler.name] + [b.name for b in others]
        result = {
            "puzzle": f"{display_name(puzzle)}-sample-cubes",
            "title": puzzle.title,
            "kind": self.kind,
            "rules": rules_text(puzzle),
            "counted": "distinct grids in each cube (the cube's cells hold given tiles, turned "
            "given ways, as fixed tiles for the other backends)",
            "cube_depth": depth,
            "cubes": rows,
            "backends": names,
            "agree": agree,
        }
        why = "" if agree else "the backends DISAGREE on a sampled cube"
        return Verification(display_name(puzzle), agree, why, counts, result, table)

    def _parity_check(self, puzzle, runner_for, total: int, backends=None, encoding=None
                      ) -> dict | None:
        """The two checkerboard cases on CP-SAT, a SAT solver and the reference (or on the
        backends verify was given), and their sum."""
        from ..registry import resolve

        if not any(t.mark == puzzle.apart for t in puzzle.tiles):
            return None
        cases: dict[str, dict[str, int]] = {}
        notes = []
        for name in backends or (*VERIFY_SOLVERS[:2], "reference"):
            backend = resolve(name, self.kind, "count")
            try:
                cases[name] = self.parity_counts(
                    puzzle, backend, runner_for(), **self.applicable(backend, encoding=encoding))
            except ValueError as error:  # the reference: marks do not force a checkerboard
                notes.append(f"{name}: {error}")
            except TimeoutError as error:
                notes.append(str(error))
                return {"agree": False, "notes": notes, "backends": sorted(cases)}
        first = next(iter(cases.values()))
        return {
            "even": first["even"],
            "odd": first["odd"],
            "sum_equals_count": first["even"] + first["odd"] == total,
            "backends": sorted(cases),
            "agree": all(c == first for c in cases.values()),
            "counted": "distinct grids with every marked tile on a cell with (row + col) even, "
            "and with every marked tile on an odd cell",
            **({"notes": notes} if notes else {}),
        }

    # ---- export

    def export(self, puzzle, fmt, encoding=None, cnf_model=None, amo=None) -> tuple[str, str]:
        puzzle = self.at(puzzle)
        if fmt == "xcc":
            cover = encode_cover(puzzle)
            header = [
                f"puzzlesat export of {display_name(puzzle)}: {puzzle.title}",
                f"rules: {rules_text(puzzle)}",
                "exact cover with colours for Knuth's DLX2: cells and tile copies are primary "
                "items, each seam between two cells a secondary item coloured by the edge shown",
                "each solution is one distinct grid (copies of identical tiles in cell order)",
            ]
            return to_dlx(cover, header), (
                f"{plural(len(cover.items), 'item')} ({cover.primary} primary), "
                f"{plural(len(cover.options), 'option')}")
        encoding = check_card_encoding(encoding, DEFAULT_CARD_ENCODING)
        if cnf_model is not None and cnf_model not in CNF_MODELS:
            raise InputError(f"unknown CNF model {cnf_model!r}; one of: {', '.join(CNF_MODELS)}",
                             field="cnf_model")
        model = encode_cnf(puzzle, encoding, 0, None, cnf_model or DEFAULT_CNF_MODEL,
                           amo is not False)
        header = [
            f"puzzlesat export of {display_name(puzzle)}: {puzzle.title}",
            f"rules: {rules_text(puzzle)}",
            "a model of this CNF is a solution; count models projected on the placement "
            "variables to count distinct grids (identical tiles interchangeable)",
            f"variables 1..{len(model.keys)}: one per tile kind, rotation and cell; "
            f"exactly one per cell, each kind as often as it has tiles ({encoding}); edge colours",
        ]
        return to_dimacs(model, header), (
            f"{plural(model.nvars, 'variable')}, "
            f"{plural(len(model.clauses), 'clause')}, {len(model.keys)} placement variables"
        )


def verify_table(counts: list[Count]) -> str:
    lines = [
        f"{'backend':24} {'grids':>10} {'up to turns':>12} {'fixed by turns':>24} {'seconds':>8}"
    ]
    for c in counts:
        classes = c.details["grid_classes"]
        shown = "-" if classes is None else f"{classes:,}"
        fixed = " ".join(f"{v}" for v in (c.details["fixed_by_turn"] or {}).values()) or "-"
        state = "" if c.complete else "  incomplete (a lower bound)"
        lines.append(
            f"{c.backend:24} {c.details['grids']:>10,} {shown:>12} {fixed:>24} "
            f"{c.seconds:8.2f}{state}"
        )
    return "\n".join(lines)


FAMILY = EdgeMatching()
