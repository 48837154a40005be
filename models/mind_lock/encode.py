"""Mind Lock planning as CNF and as CP-SAT: "reach a solved position in at most k moves".

Per step t = 0..k a Boolean per cell and colour (gap, green, purple, yellow; the middle layer never
holds the gap); per move t = 0..k-1 exactly one of the three move types push, horizontal,
vertical. A move type changes different cells for each gap cell, so the model has, per move, a
Boolean for each (gap cell, move type) pair: "this move is made with the gap there", true exactly
when the gap is on that cell and that type is chosen. Each pair moves the pieces the rules say;
a cell no pair touches keeps its piece (frame axioms). The goal holds if the position after some
move t <= k is a solved one. Iterative deepening on k (the runner's job) gives the optimal length.

Redundant constraints, sound for optimal plans (some shortest plan always satisfies them):
- no move follows a move of the same type (each move type undoes itself);
- no 7 slides in a row: 7 alternating slides hvhvhvh lead where the 5 slides vhvhv do (and
  vhvhvhv where hvhvh do), since the gap going round its face 3 times, 12 slides, is the identity;
- no run of 6 slides starting with a vertical one: vhvhvh leads where hvhvhv does.
(`slide_identities` states these facts so that a verifier can check them on every position.)

Keys: the k move types, then the cells after each move; every other variable (the start, the
pair and goal indicators) is fixed or determined by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pysat.formula import IDPool

from ..encoded import CnfModel, CpsatModel
from ..limits import check_steps
from ..words import plural
from . import CELLS, COLOUR_NAMES, GAP, GAP_CELLS, MOVES, Position, move_cells

if TYPE_CHECKING:  # OR-Tools is imported where a CP-SAT model is made
    from ortools.sat.python import cp_model

PUSH, HORIZONTAL, VERTICAL = range(3)  # indices into MOVES
LONGEST_SLIDE_RUN = 6


def slide_identities() -> list[tuple[str, str]]:
    """Pairs of move sequences that lead from every position to the same position (h, v)."""
    return [("hvhvhvh", "vhvhv"), ("vhvhvhv", "hvhvh"), ("vhvhvh", "hvhvhv")]


def colours_of(cell: int) -> tuple[int, ...]:
    """The colours a cell can hold (the gap never stays in the middle layer)."""
    return (0, 1, 2, 3) if cell in GAP_CELLS else (1, 2, 3)


PAIRS = [(gap, j) for gap in GAP_CELLS for j in range(3)]  # a move made with the gap on a cell
_CHANGES = {(gap, j): move_cells(gap, MOVES[j]) for gap, j in PAIRS}
_TOUCHING = {
    cell: [pair for pair in PAIRS if any(c == cell for c, _ in _CHANGES[pair])]
    for cell in range(CELLS)
}


@dataclass(frozen=True)
class PlanLayout:
    """Where each key of a k-move plan model is: move types first, then the cells of each step."""

    steps: int

    def labels(self) -> list[str]:
        labels = [f"move {t + 1} is {move}" for t in range(self.steps) for move in MOVES]
        labels += [
            f"after move {t}: cell {cell} holds {COLOUR_NAMES[colour]}"
            for t in range(1, self.steps + 1)
            for cell in range(CELLS)
            for colour in colours_of(cell)
        ]
        return labels

    def read(self, values: Sequence[int]) -> tuple[list[list[str]], list[list[list[int]]]]:
        """From key values: the move types set at each move (one, if the model is right) and,
        for each step 1..k and cell, the colours set."""
        given = iter(values)
        moves = [[move for move in MOVES if next(given)] for _ in range(self.steps)]
        states = [
            [[colour for colour in colours_of(cell) if next(given)] for cell in range(CELLS)]
            for _ in range(self.steps)
        ]
        return moves, states


def _title(steps: int) -> str:
    return f"Mind Lock: reach a solved position in at most {plural(steps, 'move')}"


def plan_cnf(start: Position, solved: Sequence[Position], steps: int) -> CnfModel:
    """CNF: a plan of at most `steps` moves from `start` to a solved position."""
    check_steps(steps)
    pool = IDPool()
    move = [[pool.id(("move", t, j)) for j in range(3)] for t in range(steps)]
    x: list[list[dict[int, int]]] = [[] for _ in range(steps + 1)]
    for t in [*range(1, steps + 1), 0]:  # the start after the keys
        x[t] = [{c: pool.id(("cell", t, cell, c)) for c in colours_of(cell)}
                for cell in range(CELLS)]
    keys = [v for row in move for v in row]
    keys += [x[t][cell][c] for t in range(1, steps + 1) for cell in range(CELLS)
             for c in colours_of(cell)]
    clauses: list[list[int]] = []
    for cell in range(CELLS):
        for colour, var in x[0][cell].items():
            clauses.append([var if start[cell] == colour else -var])
    for t in range(steps):
        clauses.append(list(move[t]))
        clauses += [[-move[t][a], -move[t][b]] for a in range(3) for b in range(a + 1, 3)]
        clauses += [[move[s][j] if chosen else -move[s][j] for s, j, chosen in rule]
                    for rule in _order_rules(t)]
        made = {}
        for gap, j in PAIRS:
            pair = made[gap, j] = pool.id(("made", t, gap, j))
            clauses += [[-pair, x[t][gap][GAP]], [-pair, move[t][j]],
                        [pair, -x[t][gap][GAP], -move[t][j]]]
        for cell in range(CELLS):
            touching = [made[pair] for pair in _TOUCHING[cell]]
            for colour in colours_of(cell):
                before, after = x[t][cell][colour], x[t + 1][cell][colour]
                clauses += [touching + [-before, after], touching + [before, -after]]
        for pair in PAIRS:
            for cell, origin in _CHANGES[pair]:
                for colour in range(4):
                    before, after = x[t][origin].get(colour), x[t + 1][cell].get(colour)
                    if before and after:
                        clauses += [[-made[pair], -before, after], [-made[pair], before, -after]]
                    elif before or after:
                        clauses.append([-made[pair], -(before or after)])
    reached = []
    for t in range(steps + 1):
        for i, target in enumerate(solved):
            w = pool.id(("solved", t, i))
            literals = [x[t][cell][target[cell]] for cell in range(CELLS)]
            clauses += [[-w, lit] for lit in literals]
            clauses.append([w] + [-lit for lit in literals])
            reached.append(w)
    clauses.append(reached)
    assert keys == list(range(1, len(keys) + 1))  # keys come first, auxiliaries after
    return CnfModel(clauses, pool.top, keys, PlanLayout(steps).labels(), title=_title(steps))


def _order_rules(t: int) -> list[list[tuple[int, int, bool]]]:
    """The redundant constraints ending at move t (see the module doc), as clauses of
    (move, move type, whether chosen)."""
    rules = []
    if t >= 1:
        rules += [[(t - 1, j, False), (t, j, False)] for j in range(3)]
    run = LONGEST_SLIDE_RUN
    if t >= run:  # a push among any 7 moves in a row
        rules.append([(t - i, PUSH, True) for i in range(run + 1)])
    if t >= run - 1:  # 6 slides in a row do not start vertically
        first = [(t - run + 1, VERTICAL, False)]
        rules.append(first + [(t - i, PUSH, True) for i in range(run - 1)])
    return rules


def plan_cpsat(start: Position, solved: Sequence[Position], steps: int) -> CpsatModel:
    """CP-SAT: the same plan, with exactly-one constraints and enforced equalities."""
    from ortools.sat.python import cp_model

    check_steps(steps)
    model = cp_model.CpModel()
    move = [[model.new_bool_var(f"move{t + 1}_{m}") for m in MOVES] for t in range(steps)]
    x = [
        [{c: model.new_bool_var(f"after{t}_cell{cell}_{COLOUR_NAMES[c]}")
          for c in colours_of(cell)} for cell in range(CELLS)]
        for t in range(steps + 1)
    ]
    keys = [var for row in move for var in row]
    keys += [x[t][cell][c] for t in range(1, steps + 1) for cell in range(CELLS)
             for c in colours_of(cell)]
    for cell in range(CELLS):
        for colour, var in x[0][cell].items():
            model.add(var == (1 if start[cell] == colour else 0))
    for t in range(1, steps + 1):
        for cell in range(CELLS):
            model.add_exactly_one(x[t][cell].values())
    for t in range(steps):
        _cpsat_move(model, t, move, x)
    reached = []
    for t in range(steps + 1):
        for i, target in enumerate(solved):
            w = model.new_bool_var(f"after{t}_solved{i}")
            literals = [x[t][cell][target[cell]] for cell in range(CELLS)]
            model.add_bool_and(literals).only_enforce_if(w)
            model.add_bool_or([w] + [~lit for lit in literals])
            reached.append(w)
    model.add_bool_or(reached)
    return CpsatModel(model, keys, title=_title(steps))


def _cpsat_move(model: cp_model.CpModel, t: int, move: list[list], x: list[list[dict]]) -> None:
    """Move t of the CP-SAT plan: one move type, the redundant order rules, a (gap cell, move
    type) pair made exactly when the gap is there and that type is chosen, the cells no pair
    touches kept (frame axioms), and each pair's pieces moved as the rules say."""
    model.add_exactly_one(move[t])
    for rule in _order_rules(t):
        model.add_bool_or([move[s][j] if chosen else ~move[s][j] for s, j, chosen in rule])
    made = {}
    for gap, j in PAIRS:
        pair = made[gap, j] = model.new_bool_var(f"move{t + 1}_{MOVES[j]}_gap{gap}")
        model.add_bool_and([x[t][gap][GAP], move[t][j]]).only_enforce_if(pair)
        model.add_bool_or([pair, ~x[t][gap][GAP], ~move[t][j]])
    model.add_exactly_one(made.values())
    for cell in range(CELLS):
        touching = [made[pair] for pair in _TOUCHING[cell]]
        for colour in colours_of(cell):
            before, after = x[t][cell][colour], x[t + 1][cell][colour]
            model.add_bool_or(touching + [~before, after])
            model.add_bool_or(touching + [before, ~after])
    for pair in PAIRS:
        for cell, origin in _CHANGES[pair]:
            for colour in range(4):
                before, after = x[t][origin].get(colour), x[t + 1][cell].get(colour)
                if before is not None and after is not None:
                    model.add(after == before).only_enforce_if(made[pair])
                elif before is not None or after is not None:
                    model.add((before if after is None else after) == 0).only_enforce_if(
                        made[pair]
                    )
