"""Mind Lock planning as CNF and as CP-SAT: "reach a solved position in at most k moves".

Per step t = 0..k a Boolean per cell and colour (gap, green, purple, yellow; the middle layer
never holds the gap) and, per move t = 0..k-1, exactly one of the three move types push,
horizontal, vertical. A move type means a different change for each gap cell, so every
(gap cell, move type) pair enforces its change: the cells it touches take their pieces from where
the rules say, all other cells keep theirs. The goal holds if some step t <= k equals a solved
position. Iterative deepening on k (the runner's job) gives the optimal length.

Redundant but sound: no move directly follows a move of the same type, since that move undoes
it (every move is its own inverse), so no shortest plan contains such a pair.

Keys: the k move types, then the cells of steps 1..k; every other variable (the start, the
goal indicators) is fixed or determined by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model
from pysat.formula import IDPool

from .encoded import CnfModel, CpsatModel
from .mindlock import CELLS, COLOUR_NAMES, GAP, GAP_CELLS, MOVES, Position, move_cells


def colours_of(cell: int) -> tuple[int, ...]:
    """The colours a cell can hold (the gap never stays in the middle layer)."""
    return (0, 1, 2, 3) if cell in GAP_CELLS else (1, 2, 3)


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


def _changes(gap: int, move: str) -> list[int]:
    """For each cell, the cell whose piece it holds after the move (itself when untouched)."""
    source = list(range(CELLS))
    for cell, origin in move_cells(gap, move):
        source[cell] = origin
    return source


def plan_cnf(start: Position, solved: Sequence[Position], steps: int) -> CnfModel:
    """CNF: a plan of `steps` moves from `start` that passes through a solved position."""
    layout = PlanLayout(steps)
    labels = layout.labels()
    pool = IDPool()
    move = [[pool.id(("move", t, j)) for j in range(3)] for t in range(steps)]
    x: list[list[dict[int, int]]] = [[{} for _ in range(CELLS)] for _ in range(steps + 1)]
    for t in range(1, steps + 1):
        for cell in range(CELLS):
            for colour in colours_of(cell):
                x[t][cell][colour] = pool.id(("cell", t, cell, colour))
    keys = list(range(1, pool.top + 1))
    for cell in range(CELLS):
        for colour in colours_of(cell):
            x[0][cell][colour] = pool.id(("cell", 0, cell, colour))
    clauses: list[list[int]] = []
    for cell in range(CELLS):
        for colour, var in x[0][cell].items():
            clauses.append([var if start[cell] == colour else -var])
    for t in range(steps):
        clauses.append(list(move[t]))
        clauses += [[-move[t][a], -move[t][b]] for a in range(3) for b in range(a + 1, 3)]
        if t:
            clauses += [[-move[t - 1][j], -move[t][j]] for j in range(3)]
        for gap in GAP_CELLS:
            for j, kind in enumerate(MOVES):
                when = [-x[t][gap][GAP], -move[t][j]]
                for cell, origin in enumerate(_changes(gap, kind)):
                    for colour in range(4):
                        before, after = x[t][origin].get(colour), x[t + 1][cell].get(colour)
                        if before and after:
                            clauses.append(when + [-before, after])
                            clauses.append(when + [before, -after])
                        elif before:
                            clauses.append(when + [-before])
                        elif after:
                            clauses.append(when + [-after])
    reached = []
    for t in range(steps + 1):
        for i, target in enumerate(solved):
            w = pool.id(("solved", t, i))
            literals = [x[t][cell][target[cell]] for cell in range(CELLS)]
            clauses += [[-w, lit] for lit in literals]
            clauses.append([w] + [-lit for lit in literals])
            reached.append(w)
    clauses.append(reached)
    return CnfModel(
        clauses, pool.top, keys, labels,
        title=f"Mind Lock: reach a solved position in at most {steps} moves",
    )


def plan_cpsat(start: Position, solved: Sequence[Position], steps: int) -> CpsatModel:
    """CP-SAT: the same plan with exactly-one constraints and enforced equalities."""
    model = cp_model.CpModel()
    move = [[model.new_bool_var(f"move{t}_{m}") for m in MOVES] for t in range(steps)]
    x = [
        [{c: model.new_bool_var(f"s{t}_c{cell}_{c}") for c in colours_of(cell)}
         for cell in range(CELLS)]
        for t in range(steps + 1)
    ]
    keys = [var for t in range(steps) for var in move[t]]
    keys += [x[t][cell][c] for t in range(1, steps + 1) for cell in range(CELLS)
             for c in colours_of(cell)]
    for cell in range(CELLS):
        for colour, var in x[0][cell].items():
            model.add(var == (1 if start[cell] == colour else 0))
    for t in range(1, steps + 1):
        for cell in range(CELLS):
            model.add_exactly_one(x[t][cell].values())
    for t in range(steps):
        model.add_exactly_one(move[t])
        if t:
            for j in range(3):
                model.add_bool_or([~move[t - 1][j], ~move[t][j]])
        for gap in GAP_CELLS:
            for j, kind in enumerate(MOVES):
                when = [x[t][gap][GAP], move[t][j]]
                for cell, origin in enumerate(_changes(gap, kind)):
                    for colour in range(4):
                        before, after = x[t][origin].get(colour), x[t + 1][cell].get(colour)
                        if before is not None and after is not None:
                            model.add(after == before).only_enforce_if(when)
                        elif before is not None:
                            model.add(before == 0).only_enforce_if(when)
                        elif after is not None:
                            model.add(after == 0).only_enforce_if(when)
    reached = []
    for t in range(steps + 1):
        for i, target in enumerate(solved):
            w = model.new_bool_var(f"solved{t}_{i}")
            literals = [x[t][cell][target[cell]] for cell in range(CELLS)]
            model.add_bool_and(literals).only_enforce_if(w)
            model.add_bool_or([w] + [~lit for lit in literals])
            reached.append(w)
    model.add_bool_or(reached)
    return CpsatModel(
        model, keys, title=f"Mind Lock: reach a solved position in at most {steps} moves"
    )
