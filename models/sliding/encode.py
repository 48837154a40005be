"""Sliding-block planning as CNF and as CP-SAT: "reach the goal in at most k moves".

Per step t = 0..k a Boolean per group and placement: a piece of the group stands there (step 0
is the start). Per move t a choice of exactly one among its candidate moves (a piece of a group
from placement p to placement q, as the metric relates them on an empty board) and "no move";
a no-move is followed only by no-moves, so a plan of fewer than k moves ends in them. A move:
- needs its piece at p before, puts it at q after and takes it from p;
- needs free cells: for `step` the cells of q not in p, for `slide` every cell swept on the way,
  each not occupied by any piece before the move; for `path` q must be reached from p by a chain
  of one-cell shifts through placements whose cells are free or the moving piece's own, with
  one "reached within h shifts" Boolean per placement and h (h up to the group's placements);
- leaves every other placement as it was (a placement changes only by a move into or out of it).
The goal (a piece of a type at a place, or the whole configuration) holds after move k.
Iterative deepening on k (the family's job) gives the optimal length.

Keys: the placements after each move, t = 1..k; the moves follow from them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..encoded import CnfModel, CpsatModel
from ..limits import check_steps
from ..words import plural
from . import Position, SlidingPuzzle


class _Cnf:
    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []

    def var(self, label: str = ""):
        self.top += 1
        return self.top

    @staticmethod
    def neg(v):
        return -v

    def clause(self, lits) -> None:
        self.clauses.append(list(lits))

    def exactly_one(self, vs) -> None:
        vs = list(vs)
        self.clauses.append(vs)
        if len(vs) <= 6:
            self.clauses += [[-a, -b] for i, a in enumerate(vs) for b in vs[i + 1:]]
            return
        # sequential counter for "at most one"
        s = [self.var() for _ in vs[:-1]]
        self.clauses.append([-vs[0], s[0]])
        for i in range(1, len(vs) - 1):
            self.clauses += [[-vs[i], s[i]], [-s[i - 1], s[i]], [-vs[i], -s[i - 1]]]
        self.clauses.append([-vs[-1], -s[-1]])


class _Cpsat:
    def __init__(self) -> None:
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()

    def var(self, label: str = ""):
        return self.model.new_bool_var(label)

    @staticmethod
    def neg(v):
        return ~v

    def clause(self, lits) -> None:
        self.model.add_bool_or(list(lits))

    def exactly_one(self, vs) -> None:
        self.model.add_exactly_one(list(vs))


def candidate_moves(puzzle: SlidingPuzzle) -> list[tuple[int, int, int, frozenset[int]]]:
    """(group, p, q, cells that must be free) for every move the metric allows on an empty
    board; for `path` the cells set is empty (reachability is encoded apart)."""
    shifts = puzzle.shifts()
    found = []
    for g, group in enumerate(puzzle.groups):
        for p, cells in enumerate(group.placements):
            own = set(cells)
            if puzzle.metric == "path":
                seen, stack = {p}, [p]
                while stack:
                    a = stack.pop()
                    for q in shifts[g][a]:
                        if q >= 0 and q not in seen:
                            seen.add(q)
                            stack.append(q)
                found += [(g, p, q, frozenset()) for q in sorted(seen - {p})]
                continue
            for d in range(4):
                swept: set[int] = set()
                q = shifts[g][p][d]
                while q >= 0:
                    swept |= set(group.placements[q]) - own
                    found.append((g, p, q, frozenset(swept)))
                    if puzzle.metric == "step":
                        break
                    q = shifts[g][q][d]
    return found


def _title(puzzle: SlidingPuzzle, steps: int) -> str:
    return (f"{puzzle.name}: reach the goal in at most {plural(steps, 'move')} "
            f"({puzzle.metric} metric)")


def _encode(b, puzzle: SlidingPuzzle, start: Position, steps: int):
    check_steps(steps)
    groups = puzzle.groups
    x = [[[b.var(f"t{t}_{grp.letter}{g}_p{p}") for p in range(len(grp.placements))]
          for g, grp in enumerate(groups)] for t in range(steps + 1)]
    keys = [v for t in range(1, steps + 1) for row in x[t] for v in row]
    for g, grp in enumerate(groups):
        for p in range(len(grp.placements)):
            b.clause([x[0][g][p] if p in start[g] else b.neg(x[0][g][p])])
    candidates = candidate_moves(puzzle)
    covering: dict[int, list[tuple[int, int]]] = {c: [] for c in puzzle.cells}
    for g, grp in enumerate(groups):
        for p, cells in enumerate(grp.placements):
            for c in cells:
                covering[c].append((g, p))
    shifts = puzzle.shifts()
    none = [b.var(f"m{t}_none") for t in range(steps)]
    for t in range(steps):
        here, after = x[t], x[t + 1]
        move = [b.var(f"m{t}_{g}_{p}_{q}") for g, p, q, _ in candidates]
        b.exactly_one([*move, none[t]])
        if t + 1 < steps:
            b.clause([b.neg(none[t]), none[t + 1]])
        occ = {c: b.var(f"t{t}_occ{c}") for c in puzzle.cells}
        for c, pairs in covering.items():
            for g, p in pairs:
                b.clause([b.neg(here[g][p]), occ[c]])
        leaving: dict[tuple[int, int], list] = {}
        arriving: dict[tuple[int, int], list] = {}
        for m, (g, p, q, swept) in zip(move, candidates):
            b.clause([b.neg(m), here[g][p]])
            b.clause([b.neg(m), after[g][q]])
            b.clause([b.neg(m), b.neg(after[g][p])])
            for c in swept:
                b.clause([b.neg(m), b.neg(occ[c])])
            leaving.setdefault((g, p), []).append(m)
            arriving.setdefault((g, q), []).append(m)
        for g, grp in enumerate(groups):
            for p in range(len(grp.placements)):
                b.clause([b.neg(here[g][p]), after[g][p], *leaving.get((g, p), [])])
                b.clause([here[g][p], b.neg(after[g][p]), *arriving.get((g, p), [])])
        if puzzle.metric == "path":
            _reach(b, puzzle, here, occ, covering, shifts, move, candidates, t)
    _goal(b, puzzle, x[steps])
    return keys


def _reach(b, puzzle, here, occ, covering, shifts, move, candidates, t) -> None:
    """`path`: a move from p to q needs q reached from p through placements free for the mover."""
    groups = puzzle.groups
    selected: dict[tuple[int, int], list] = {}
    for m, (g, p, _q, _) in zip(move, candidates):
        selected.setdefault((g, p), []).append(m)
    sel = {}
    for (g, p), ms in selected.items():
        v = sel[g, p] = b.var(f"t{t}_sel{g}_{p}")
        b.clause([b.neg(v), *ms])
    mine = {}  # cell covered by the moving piece
    for c, pairs in covering.items():
        v = mine[c] = b.var(f"t{t}_mine{c}")
        b.clause([b.neg(v), *[sel[g, p] for g, p in pairs if (g, p) in sel]])
    free = {}
    for c in puzzle.cells:
        v = free[c] = b.var(f"t{t}_free{c}")
        b.clause([b.neg(v), b.neg(occ[c]), mine[c]])
    for g, grp in enumerate(groups):
        n = len(grp.placements)
        if n < 2 or not any((g, p) in sel for p in range(n)):
            continue
        fits = []
        for p, cells in enumerate(grp.placements):
            v = b.var(f"t{t}_fits{g}_{p}")
            for c in cells:
                b.clause([b.neg(v), free[c]])
            fits.append(v)
        into = [[a for a in range(n) if p in shifts[g][a]] for p in range(n)]
        reach = [sel.get((g, p)) for p in range(n)]
        layer = []
        for p in range(n):
            v = b.var(f"t{t}_r{g}_0_{p}")
            b.clause([b.neg(v)] + ([reach[p]] if reach[p] is not None else []))
            layer.append(v)
        for h in range(1, n):
            nxt = []
            for p in range(n):
                v = b.var(f"t{t}_r{g}_{h}_{p}")
                step = b.var(f"t{t}_s{g}_{h}_{p}")
                b.clause([b.neg(v), layer[p], step])
                b.clause([b.neg(step), fits[p]])
                b.clause([b.neg(step), *[layer[a] for a in into[p]]])
                nxt.append(v)
            layer = nxt
        for m, (gg, _p, q, _) in zip(move, candidates):
            if gg == g:
                b.clause([b.neg(m), layer[q]])


def _goal(b, puzzle: SlidingPuzzle, last) -> None:
    if puzzle.goal.position is not None:
        for g, grp in enumerate(puzzle.groups):
            for p in range(len(grp.placements)):
                want = p in puzzle.goal.position[g]
                b.clause([last[g][p] if want else b.neg(last[g][p])])
    else:
        g, p = puzzle.goal_placement()
        b.clause([last[g][p]])


def plan_cnf(puzzle: SlidingPuzzle, start: Position, steps: int) -> CnfModel:
    """CNF: a plan of at most `steps` moves from `start` to the goal."""
    b = _Cnf()
    keys = _encode(b, puzzle, start, steps)
    return CnfModel(b.clauses, b.top, keys, title=_title(puzzle, steps))


def plan_cpsat(puzzle: SlidingPuzzle, start: Position, steps: int) -> CpsatModel:
    """CP-SAT: the same plan, with exactly-one constraints."""
    b = _Cpsat()
    keys = _encode(b, puzzle, start, steps)
    return CpsatModel(b.model, keys, title=_title(puzzle, steps))


def read_plan(puzzle: SlidingPuzzle, steps: int, values: Sequence[int]) -> list[Position]:
    """The position after each move, from the keys' values."""
    given = iter(values)
    found = []
    for _ in range(steps):
        found.append(tuple(tuple(p for p in range(len(grp.placements)) if next(given))
                           for grp in puzzle.groups))
    return found
