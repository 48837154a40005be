"""Sliding-block puzzles: God's algorithm over every reachable position, optimal plans, verify.

The calls (solve, count, export) are the moves base's (runners/families/moves.py); this module
gives the sliding-block hooks: positions and moves from models/sliding, the table model of the
breadth-first search with the C kernel (runners/kernels/sliding.py), the plan encodings.
`report` is the library side of `puzzlesat sliding table`: the positions reachable, how many lie
at each distance from the goal, God's number over the reachable set, the hardest positions and
the start's distance, in the puzzle's metric (named in every output). `verify` checks the
planners against the table on the hardest and on random positions near the goal, and the
C kernel against the rules in Python.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from ..backends.table import TableModel
from ..executors import cores
from ..lazy import lazy_module
from ..models.errors import InputError
from ..models.sliding import KIND, METRICS, Position, SlidingPuzzle
from ..models.sliding.ranking import Ranking, ranking
from ..models.words import plural
from ..outcomes import Count, Verification
from ..planning import Plan, PlanError
from . import Encoder
from .moves import TABLE, MovesFamily, MovesTable

# the breadth-first engine and the move kernels (numpy, the C module) and the encodings (PySAT) load
# when a sliding puzzle is first solved, never for the command line's flags or the catalog
engine = lazy_module("puzzlesat.breadth_first")
kernels = lazy_module("puzzlesat.kernels.sliding")
encodings = lazy_module("puzzlesat.models.sliding.encode")

Say = Callable[[str], None]

DEFAULT_SAMPLE = 4  # positions verify plans with every planner: hardest first, then random
DEFAULT_SEED = 2002
# verify plans only positions this near the goal: a planner's model grows with k, and
# iterative deepening to 81 moves (Klotski's start) takes hours; at 3 moves a position takes
# 1-30 s per planner on the shared 2-core machine (tests/test_sliding.py)
PLAN_DISTANCE = 5


def counted(puzzle: SlidingPuzzle) -> str:
    """What a count of positions counts, with the metric."""
    start = ("reachable from the goal" if puzzle.goal.position is not None
             else "reachable from the start")
    return (f"positions {start} (pieces of one type interchangeable), moves: "
            f"{METRICS[puzzle.metric]} ('{puzzle.metric}' metric)")


def cache_key(puzzle: SlidingPuzzle) -> str:
    return engine.fingerprint(KIND, puzzle.rows, puzzle.columns, sorted(puzzle.cells),
                              [(g.letter, g.count, g.placements) for g in puzzle.groups],
                              puzzle.metric, puzzle.goal.position, puzzle.goal.cells,
                              puzzle.start if puzzle.goal.position is None else None,
                              "ranks" if ranks_of(puzzle) else "mixed-radix codes")


@lru_cache(maxsize=8)
def ranks_of(puzzle: SlidingPuzzle) -> Ranking | None:
    """The perfect rank of the puzzle's arrangements (None where its count is too large to
    make): where there is one, a position's code is its rank."""
    return ranking(puzzle)


@lru_cache(maxsize=8)
def kernel_parts(puzzle: SlidingPuzzle) -> tuple[tuple, int]:
    """The kernel's arrays and the bound on positions: worth keeping between calls."""
    ranks = ranks_of(puzzle)
    return kernels.kernel_data(puzzle, ranks), kernels.bound(puzzle, ranks)[0]


def by_mixed_codes(found: MovesTable):
    """The table as sorted mixed-radix codes (models/sliding, `SlidingPuzzle.code`) and their
    residues packed in that order: what a play page's script looks positions up in."""
    import numpy as np

    build = found.build
    if ranks_of(found.puzzle) is None:  # the table is kept by those codes already
        keys = build.keys if build.keys is not None else np.arange(build.positions,
                                                                   dtype=np.uint64)
        return keys, build.packed
    span = build.span or build.positions
    residues = ((build.packed[:, None] >> np.arange(0, 8, 2, dtype=np.uint8)) & 3
                ).reshape(-1)[:span]
    ranks = np.flatnonzero(residues != 3).astype(np.uint64)
    codes = np.empty(ranks.size, dtype=np.uint64)
    kernels.moves.mixed_codes(kernel_parts(found.puzzle)[0], ranks, codes)
    order = np.argsort(codes, kind="stable")
    kept = residues[ranks[order].astype(np.int64)]
    kept = np.concatenate([kept, np.zeros(-kept.size % 4, dtype=np.uint8)]).reshape(-1, 4)
    packed = (kept << np.arange(0, 8, 2, dtype=np.uint8)).sum(axis=1).astype(np.uint8)
    return codes[order], packed


def has_goal(puzzle: SlidingPuzzle) -> bool:
    """Whether distances are to a goal (else they are from the start: no goal given)."""
    return puzzle.goal.position is not None or bool(puzzle.goal.cells)


def start_distance(found: MovesTable) -> int | None:
    """The start's distance to the goal (None where there is no start or no goal); an
    InputError naming the puzzle's start where it cannot reach the goal."""
    puzzle = found.puzzle
    if puzzle.start is None or not has_goal(puzzle):
        return None
    FAMILY.check_reached(puzzle, found, puzzle.start, given=False)
    return found.distance(puzzle.start)


def published_agrees(puzzle: SlidingPuzzle, figures: dict) -> dict[str, bool]:
    """Each published figure against ours, where both are in the same metric (a figure
    published in the puzzle file's metric says nothing of another metric's)."""
    if puzzle.metric != (puzzle.published_metric or puzzle.metric):
        return {}
    return {k: puzzle.published[k] == v for k, v in figures.items() if k in puzzle.published}


def report(found: MovesTable) -> dict:
    """The table's figures, as results files and --json hold them."""
    puzzle, build = found.puzzle, found.build
    distance = start_distance(found)
    hardest = found.hardest()
    ours = {"positions": build.positions, "gods_number": build.gods_number,
            "start_moves": distance}
    return {
        "puzzle": puzzle.name,
        "title": puzzle.title,
        "kind": KIND,
        "metric": puzzle.metric,
        "metric_means": METRICS[puzzle.metric],
        "goal": puzzle.goal.describe(puzzle.columns),
        "positions": build.positions,
        "counted": counted(puzzle),
        "gods_number": build.gods_number,
        "gods_number_means": ("the greatest distance to the goal over the positions counted"
                              if has_goal(puzzle) else
                              "the greatest distance from the start (no goal given)"),
        "hardest_positions": build.distance_counts[-1],
        "hardest": [puzzle.notation(p) for p in hardest[:20]],
        "distance_counts": {str(d): n for d, n in enumerate(build.distance_counts)},
        "start": None if puzzle.start is None else puzzle.notation(puzzle.start),
        "start_moves": distance,
        "published": puzzle.published,
        "published_metric": puzzle.published_metric or puzzle.metric,
        "published_agrees": published_agrees(puzzle, ours),
        "table_bytes": build.packed.nbytes + (0 if build.keys is None else build.keys.nbytes),
        "keys": build.keys is not None,
        "memory_estimate_bytes": build.bytes_estimated,
        "table_from": found.found.source,
        "compiled": True,  # the C kernels (the table backend is absent without them)
        "build_seconds": round(build.seconds, 3),
        "seconds": round(found.found.seconds, 3),
        **({"cache": str(found.found.report.path)} if found.found.report else {}),
    }


# ---------------------------------------------------------------- the family


class Sliding(MovesFamily):
    kind = KIND
    load_options = ("metric",)
    options = ("start", "memory", "metric")
    # the plan "reach the goal in at most `steps` moves", by the kind of backend
    encoders = {"cpsat": Encoder(lambda puzzle, start, steps: encodings.plan_cpsat(
                    puzzle, start, steps)),
                "cnf": Encoder(lambda puzzle, start, steps: encodings.plan_cnf(
                    puzzle, start, steps))}

    def summary(self, puzzle: SlidingPuzzle) -> str:
        return (f"sliding blocks, {plural(len(puzzle.cells), 'cell')}, "
                f"{plural(puzzle.pieces(), 'piece')}, '{puzzle.metric}' metric; {puzzle.title}")

    def at(self, puzzle: SlidingPuzzle, metric: str | None = None, **options) -> SlidingPuzzle:
        """The puzzle in another move metric (step, slide or path)."""
        self.check_options(options, (), "load")
        if metric is None or metric == puzzle.metric:
            return puzzle
        if metric not in METRICS:
            raise InputError(f"one of {', '.join(METRICS)}, not {metric!r}", field="metric")
        return replace(puzzle, metric=metric, published_metric=puzzle.published_metric
                       or puzzle.metric)

    def prepare(self, puzzle: SlidingPuzzle, backend=None, metric: str | None = None, **extra
                ) -> SlidingPuzzle:
        self.check_options(extra, (), "this call")
        return self.at(puzzle, metric=metric)

    # ---- positions and moves: the model's

    def code(self, puzzle: SlidingPuzzle, position: Position) -> int:
        """Its rank among the arrangements, or its mixed-radix code where there is no
        ranking."""
        ranks = ranks_of(puzzle)
        return puzzle.code(position) if ranks is None else ranks.rank(position)

    def decode(self, puzzle: SlidingPuzzle, code: int) -> Position:
        ranks = ranks_of(puzzle)
        return puzzle.decode(code) if ranks is None else ranks.unrank(code)

    def neighbours(self, puzzle: SlidingPuzzle, position: Position) -> list:
        return puzzle.neighbours(position)

    def apply(self, puzzle: SlidingPuzzle, position: Position, move) -> Position:
        return puzzle.apply(position, move)

    def notation(self, puzzle: SlidingPuzzle, position: Position) -> str:
        return puzzle.notation(position)

    def counted(self, puzzle: SlidingPuzzle) -> str:
        return counted(puzzle)

    def default_start(self, puzzle: SlidingPuzzle) -> Position:
        if puzzle.start is None:
            raise InputError("this puzzle has no start: give one", field="start")
        return puzzle.start

    def read_start(self, puzzle: SlidingPuzzle, start) -> Position:
        """A picture (rows separated by '/'), its rows as a list of strings, or a position
        (per group, its pieces' placement indices)."""
        if isinstance(start, str):
            return puzzle.parse(start)
        if isinstance(start, (tuple, list)) and start and all(isinstance(r, str) for r in start):
            return puzzle.position_of([r.strip() for r in start], "start")
        if isinstance(start, (tuple, list)):
            return puzzle.checked(start, "start")
        raise InputError(f"expected a position picture (rows separated by '/'), not "
                         f"{start!r}", field="start")

    # ---- the table

    def table_model(self, puzzle: SlidingPuzzle, memory: int | None = None,
                    progress: bool = False, threads: int | None = None) -> TableModel:
        """God's algorithm: distances to the goal of every position in the goal
        configuration's component (or the start's, for a goal that is a piece at a place, or
        from the start where no goal is given). With a ranking, a byte an arrangement on
        `threads` (default: every core), else the codes reached in a hash set."""
        data, most = kernel_parts(puzzle)
        ranked = ranks_of(puzzle) is not None
        model = TableModel(f"sliding-{puzzle.name}-{puzzle.metric}", cache_key(puzzle),
                           f"{puzzle.name} ({puzzle.metric} metric)",
                           kernels.kernel_number(ranked), data, [], most, memory=memory,
                           progress=progress)
        if ranked:
            model.level = kernels.moves.level
            model.threads = max(1, min(threads or cores(), cores()))
        if puzzle.goal.position is not None:
            model.seeds = [self.code(puzzle, puzzle.goal.position)]
        elif puzzle.goal.cells:
            model.component = self.code(puzzle, puzzle.start)
        else:
            model.seeds = [self.code(puzzle, puzzle.start)]
        return model

    def count_details(self, puzzle: SlidingPuzzle, model: TableModel) -> dict:
        found = self.table_backend().lookup(model)
        if found is None:  # counted elsewhere (a checkpoint, a cluster) and not cached here
            return {"metric": puzzle.metric}
        return {"metric": puzzle.metric,
                "start_moves": start_distance(MovesTable(self, puzzle, found))}

    # ---- plans

    def replay(self, puzzle: SlidingPuzzle, start: Position, steps: int, values: list[int]
               ) -> Plan:
        """Check a solver's plan move by move against the rules (in Python)."""
        states = encodings.read_plan(puzzle, steps, values)
        position, moves, positions = start, [], []
        if puzzle.is_goal(position):
            return Plan([], [], 0.0)
        for t, after in enumerate(states, start=1):
            if after == position:
                raise PlanError(f"move {t} moves nothing before the goal is reached")
            legal = {p: m for m, p in puzzle.neighbours(position)}
            if after not in legal:
                raise PlanError(f"move {t} from {puzzle.notation(position)} to "
                                f"{puzzle.notation(after)} is not a move in the "
                                f"'{puzzle.metric}' metric")
            moves.append(legal[after])
            positions.append(after)
            position = after
            if puzzle.is_goal(position):
                return Plan(moves, positions, 0.0)
        raise PlanError(f"the plan of {plural(steps, 'move')} does not reach the goal")

    # ---- how a plan is shown

    def start_lines(self, puzzle: SlidingPuzzle, start: Position) -> list[str]:
        return [f"start ({puzzle.metric} metric: {METRICS[puzzle.metric]}):",
                *("  " + row for row in puzzle.rows_of(start))]

    def move_lines(self, puzzle: SlidingPuzzle, number: int, before, move, after) -> list[str]:
        return [f"move {number}: {puzzle.describe_move(move)}",
                *("  " + row for row in puzzle.rows_of(after))]

    def move_name(self, puzzle: SlidingPuzzle, before, move) -> str:
        return puzzle.describe_move(move)

    def moves_said(self, puzzle: SlidingPuzzle, moves: int) -> str:
        return f"{plural(moves, 'move')} ({puzzle.metric} metric)"

    def solution_data(self, puzzle: SlidingPuzzle, start, plan: Plan) -> dict:
        return {"metric": puzzle.metric}

    # ---- verify

    def verify(self, puzzle, runner_for, backends=None, sample=None, seed=None,
               time_limit=None, memory=None, within=None, metric=None, say: Say | None = None
               ) -> Verification:
        """The table against CP-SAT and SAT planning on `sample` positions within
        PLAN_DISTANCE moves of the goal (the hardest such first, then random ones), and the
        C move kernel against the rules in Python on those and on random positions."""
        puzzle = self.prepare(puzzle, metric=metric)
        sample = DEFAULT_SAMPLE if sample is None else sample
        seed = DEFAULT_SEED if seed is None else seed
        within = PLAN_DISTANCE if within is None else within
        for name, value in (("sample", sample), ("within", within)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InputError(f"must be 0 or more, not {value!r}", field=name)
        say = say or (lambda message: None)
        found = self.table(puzzle, memory, fresh=True)
        build = found.build
        say(f"table: {plural(build.positions, 'position')}, God's number {build.gods_number} "
            f"({puzzle.metric} metric), built in {build.seconds:.2f} s")
        planners = self.verify_planners(backends)
        cases = chosen_positions(found, sample, seed, within)
        checks = check_kernel(found, [p for _, p in cases], seed)
        say("rules: " + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in checks.items()))
        plans = self.plan_rows(puzzle, [(why, p, found.distance(p)) for why, p in cases],
                               planners, time_limit, say, memory)
        why = [k for k, v in checks.items() if not v] + plans.why()
        count = Count(puzzle.name, build.positions, counted(puzzle), "none", True,
                      build.seconds, f"{TABLE}:{KIND}",
                      details={"gods_number": build.gods_number})
        result: dict = {}
        if not why:
            result = {**report(found), "count": build.positions, "checks": checks,
                      "plans_agree_with_table": plans.agree if plans.rows and planners
                      else None,
                      "sample": {"size": len(cases), "seed": seed, "within_moves": within},
                      "solve_seconds": plans.solve_seconds(), "plans": plans.rows}
        return Verification(puzzle.name, not why, "; ".join(why), [count], result,
                            plans.table())


# ---------------------------------------------------------------- the starts of a set of blocks

LISTED_CLUSTERS = 1000  # clusters a result lists one by one (the distributions count them all)


def starts(puzzle: SlidingPuzzle, metrics: tuple[str, ...] | None = None,
           memory: int | None = None, moves: int | None = None, count: int = 1,
           seed: int = 2002) -> dict:
    """The starts of a board and its blocks: every arrangement of the blocks, split into
    clusters (the positions joined by moves); per cluster and metric its farthest start from
    its goal positions; per metric the positions at each distance, the clusters by their
    farthest distance, and the hardest start overall. With `moves`: `count` starts drawn at
    random (seeded) among those exactly that many moves from a goal, in the puzzle's metric.

    Every arrangement is ranked (models/sliding/ranking.py) and kept in 6 bytes: its cluster
    and its distance, so the sets are those of up to some hundred million arrangements."""
    import numpy as np

    metrics = tuple(metrics or METRICS)
    for metric in metrics:
        if metric not in METRICS:
            raise InputError(f"one of {', '.join(METRICS)}, not {metric!r}", field="metric")
    if not has_goal(puzzle):
        raise InputError("the puzzle has no goal: starts are measured from its goal positions",
                         file=puzzle.file or puzzle.name, field="goal")
    if moves is not None and (not isinstance(moves, int) or isinstance(moves, bool)
                              or moves < 0):
        raise InputError(f"must be 0 or more, not {moves!r}", field="moves")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise InputError(f"must be a whole number of at least 1, not {count!r}", field="count")
    ranks = ranks_of(puzzle)
    if ranks is None:
        raise InputError(f"{puzzle.code_space:.3g} codes: too many arrangements to rank, so "
                         "too many to take one by one", field="puzzle")
    size = ranks.size
    need = 6 * size + 64 * 2**20
    have = engine.available_memory() if memory is None else memory
    if need > have:
        raise engine.TooBig(f"{puzzle.name}: {plural(size, 'arrangement')}, about "
                            f"{need / 2**30:.2f} GiB to take one by one (6 bytes each), but "
                            f"{have / 2**30:.2f} GiB to use; refused before starting",
                            field="memory")
    label = np.empty(size, dtype=np.uint32)
    step_data = kernels.kernel_data(replace(puzzle, metric="step"), ranks)
    clusters = int(kernels.moves.clusters(step_data, label))
    sizes = np.bincount(label, minlength=clusters)
    single = -1 if puzzle.goal.position is None else ranks.rank(puzzle.goal.position)
    distance = np.empty(size, dtype=np.uint16)
    per_cluster = {m: (np.empty(clusters, dtype=np.int64), np.empty(clusters, dtype=np.int64))
                   for m in metrics}
    goal_count = np.empty(clusters, dtype=np.int64)
    result: dict = {"puzzle": puzzle.name, "title": puzzle.title, "kind": KIND,
                    "goal": puzzle.goal.describe(puzzle.columns), "arrangements": size,
                    "clusters": clusters, "metrics": {}}
    for metric in metrics:
        data = kernels.kernel_data(replace(puzzle, metric=metric), ranks)
        counts = np.zeros(65536, dtype=np.int64)
        farthest, far_rank = per_cluster[metric]
        levels = kernels.moves.distances_to_goals(data, single < 0, max(single, 0), label,
                                                  counts, distance, farthest, far_rank,
                                                  goal_count)
        solvable = farthest >= 0
        if not solvable.any():
            where = (f"no arrangement of these blocks has {puzzle.goal.describe(puzzle.columns)}"
                     if single < 0 else "its goal configuration is no arrangement of them")
            raise InputError(f"the goal cannot be reached: {where}",
                             file=puzzle.file or puzzle.name, field="goal")
        top = int(farthest.max())
        hardest = int(min(far_rank[farthest == top]))
        by_farthest = np.bincount(farthest[solvable])
        figures = {
            "means": METRICS[metric],
            "hardest": {"moves": top, "start": puzzle.notation(ranks.unrank(hardest)),
                        "cluster": int(label[hardest]),
                        "cluster_positions": int(sizes[label[hardest]])},
            "positions_with_a_goal": int(sizes[solvable].sum()),
            "distance_counts": {str(d): int(n) for d, n in enumerate(counts[:levels])},
            "clusters_by_farthest": {str(d): int(n) for d, n in enumerate(by_farthest) if n},
        }
        if moves is not None and metric == puzzle.metric:
            figures["generated"] = pick_starts(puzzle, ranks, distance, moves, count, seed)
        result["metrics"][metric] = figures
    solvable = per_cluster[metrics[0]][0] >= 0
    result["clusters_with_a_goal"] = int(solvable.sum())
    result["clusters_without"] = clusters - result["clusters_with_a_goal"]
    key = per_cluster[puzzle.metric if puzzle.metric in metrics else metrics[0]][0]
    order = sorted(np.flatnonzero(solvable).tolist(), key=lambda c: (-key[c], -sizes[c], c))
    result["listed_clusters"] = [
        {"cluster": c, "positions": int(sizes[c]), "goal_positions": int(goal_count[c]),
         "farthest": {m: {"moves": int(per_cluster[m][0][c]),
                          "start": puzzle.notation(ranks.unrank(int(per_cluster[m][1][c])))}
                      for m in metrics}}
        for c in order[:LISTED_CLUSTERS]]
    return result


def pick_starts(puzzle: SlidingPuzzle, ranks: Ranking, distance, moves: int, count: int,
                seed: int) -> dict:
    """`count` starts drawn with `seed` among the positions exactly `moves` moves from a goal
    (all of them where there are fewer)."""
    import numpy as np

    total = int(kernels.moves.at_distance(distance, moves, np.empty(0, dtype=np.int64),
                                    np.empty(0, dtype=np.int64)))
    if not total:
        raise InputError(f"no position is {plural(moves, 'move')} from a goal in the "
                         f"'{puzzle.metric}' metric", field="moves")
    picks = np.array(sorted(random.Random(seed).sample(range(total), min(count, total))),
                     dtype=np.int64)
    found = np.empty(picks.size, dtype=np.int64)
    kernels.moves.at_distance(distance, moves, picks, found)
    return {"moves": moves, "metric": puzzle.metric, "positions_at_that_distance": total,
            "seed": seed, "starts": [puzzle.notation(ranks.unrank(int(r))) for r in found]}


def chosen_positions(found: MovesTable, sample: int, seed: int, within: int = PLAN_DISTANCE
                     ) -> list[tuple[str, Position]]:
    """Positions verify plans: `sample` in all, 1 to `within` moves from the goal; the
    farthest such first (half, rounded up), then random ones drawn with `seed`."""
    puzzle = found.puzzle
    if not sample:
        return []
    rng = random.Random(seed)
    # walk out from the goal side: positions along random optimal walks from random positions
    pool: dict[Position, int] = {}
    for _ in range(min(400, 40 * sample)):
        position = found.random_position(rng)
        path = found.walk(position)
        tail = [position] + [p for _, p in path]
        for i, p in enumerate(tail):
            left = len(tail) - 1 - i
            if 0 < left <= within:  # the goal itself plans nothing
                pool[p] = left
    ordered = sorted(pool, key=lambda p: (-pool[p], FAMILY.code(puzzle, p)))
    far = ordered[: -(-sample // 2)]
    rest = [p for p in ordered if p not in far]
    drawn = rng.sample(rest, min(len(rest), sample - len(far)))
    return [("farthest", p) for p in far] + [("random", p) for p in drawn]


def at_zero(puzzle: SlidingPuzzle, position: Position) -> bool:
    """Whether a position is where the table's distances start: a goal, else the start."""
    if puzzle.goal.position is None and not puzzle.goal.cells:
        return position == puzzle.start
    return puzzle.is_goal(position)


def check_kernel(found: MovesTable, positions: list[Position], seed: int) -> dict[str, bool]:
    """The C kernel's moves equal the rules' (Python) on the positions given and on 200
    random reachable ones, each move undone by a move; the table's distances consistent (a
    neighbour at most one move farther or nearer, one nearer unless at the goal) on the
    positions given and 10 random ones."""
    puzzle, build = found.puzzle, found.build
    rng = random.Random(seed)
    drawn = [found.random_position(rng) for _ in range(200)]
    checks = {"kernel_moves_equal_the_rules": True, "every_move_undone": True,
              "distances_consistent": True, "hardest_at_gods_number": True}
    ranked = ranks_of(puzzle) is not None
    data = kernels.kernel_data(puzzle, ranks_of(puzzle))
    for position in list(positions) + drawn:
        code = FAMILY.code(puzzle, position)
        rules = sorted({FAMILY.code(puzzle, p) for _, p in puzzle.neighbours(position)})
        if sorted(set(kernels.kernel_neighbours(puzzle, code, data, ranked))) != rules:
            checks["kernel_moves_equal_the_rules"] = False
        for _, after in puzzle.neighbours(position):
            if position not in {p for _, p in puzzle.neighbours(after)}:
                checks["every_move_undone"] = False
    for position in list(positions) + drawn[:10]:
        d = found.distance(position)
        near = [found.distance(p) for _, p in puzzle.neighbours(position)]
        if d is None or any(n is None or abs(n - d) > 1 for n in near) or (
                d and d - 1 not in near) or (d == 0) != at_zero(puzzle, position):
            checks["distances_consistent"] = False
    for position in found.hardest()[:5]:
        if found.distance(position) != build.gods_number:
            checks["hardest_at_gods_number"] = False
    return checks


FAMILY = Sliding()
