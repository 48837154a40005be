"""Mind Lock's God's-algorithm table as a backend (an optimal plan read off the table), and its
move kernel for the shared breadth-first engine."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..breadth_first import njit
from ..models.mind_lock import MOVES, Position
from ..models.mind_lock import table as tables
from . import Backend, Outcome


@dataclass
class TableQuery:
    """Plan from `start` to any of the `solved` positions."""

    start: Position
    solved: tuple[Position, ...]


class MindLockTable(Backend):
    """The breadth-first table of every position's distance (2 bits a position, cached)."""

    name = "table:mind-lock"
    takes = "table"
    about = "God's-algorithm table (breadth-first search, 2 bits a position)"
    # it counts positions: the family runs its breadth-first search (no cubes to split)
    can_count = True

    def solve(self, model: TableQuery, time_limit: float | None = None) -> Outcome:
        start = time.perf_counter()
        table, _ = tables.load_or_build(model.solved)  # warns where it cannot be stored
        path = table.walk(model.start)
        return Outcome([MOVES.index(m) for m, _ in path], time.perf_counter() - start)

    def count_cube(self, state, cube, deadline):
        raise NotImplementedError("Mind Lock positions are counted by the breadth-first search")


@njit
def moves_kernel(code, data, out):
    """Mind Lock's three moves on ranks (push, horizontal, vertical), from its move tables."""
    push, horizontal, vertical = data
    out[0] = push[code]
    out[1] = horizontal[code]
    out[2] = vertical[code]
    return 3
