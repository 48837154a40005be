"""Encoders for the exact cover of a packing puzzle: CP-SAT, CNF and exact cover for dancing
links. They never run a solver."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from pysat.card import CardEnc
from pysat.formula import IDPool

from ..encoded import CARD_ENCODINGS, CnfModel, CoverModel, CpsatModel
from ..limits import step
from ..words import plural
from . import ExactCover

DEFAULT_CARD_ENCODING = "pairwise"
ONE_ONLY = ("pairwise", "ladder", "bitwise")  # encodings of "exactly one" and nothing more


def columns_of(cover: ExactCover) -> list[list[int]]:
    """For each column, the rows that cover it (a row placing two copies of a piece twice)."""
    rows_of: list[list[int]] = [[] for _ in cover.columns]
    for k, row in enumerate(cover.rows):
        for column in row:
            rows_of[column].append(k)
    return rows_of


def encode_cpsat(cover: ExactCover) -> CpsatModel:
    """One Boolean per placement; exactly one per piece and per cell.

    The search covers the first empty cell first: placements are branched on in the order of the
    first cell they cover, trying 'use it' before 'not'.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    use = []
    for k, label in enumerate(cover.labels):
        if k % 8192 == 0:
            step("CP-SAT variables", k, len(cover.labels))
        use.append(model.new_bool_var(label))
    needed = cover.multiplicity or [1] * len(cover.columns)
    least = cover.least or needed
    for n, (rows, times, fewest) in enumerate(zip(columns_of(cover), needed, least)):
        if n % 1024 == 0:
            step("CP-SAT constraints", n, len(cover.columns))
        if fewest == times == 1 and len(set(rows)) == len(rows):
            model.add_exactly_one(use[k] for k in rows)
        elif fewest == times:  # copies of a piece: as many placements as copies
            model.add(sum(use[k] for k in rows) == times)
        else:  # a piece in any number from `fewest` to `times`
            model.add_linear_constraint(sum(use[k] for k in rows), fewest, times)
    first_cell = sorted(range(len(cover.rows)), key=lambda k: (cover.rows[k][1:], k))
    model.add_decision_strategy(
        [use[k] for k in first_cell], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
    )
    return CpsatModel(model, use, fixed_search=True)


def encode_cnf(cover: ExactCover, encoding: str = DEFAULT_CARD_ENCODING) -> CnfModel:
    """Variables 1..n for the placements (the keys; auxiliaries after them); exactly one per
    cell, and per piece exactly its count, encoded as chosen (for a piece in any number from MIN
    to MAX, at least MIN and at most MAX of its placements; a counter: seqcounter where the
    encoding chosen only says "at most one"), each bound on a piece left out where the cells
    imply it (`implied_counts`): the models on the placements are the same, and a model
    counter's work far less (a counter over every domino of a board ties all its placements
    together)."""
    if encoding not in CARD_ENCODINGS:
        raise ValueError(f"unknown cardinality encoding {encoding!r}")
    n = len(cover.rows)
    pool = IDPool(start_from=n + 1)
    clauses: list[list[int]] = []
    needed = cover.multiplicity or [1] * len(cover.columns)
    least = cover.least or needed
    most_implied, least_implied = implied_counts(cover)
    for number, (rows, times, fewest) in enumerate(zip(columns_of(cover), needed, least)):
        if number % 256 == 0:
            step("CNF constraints", number, len(cover.columns))
        if len(rows) < fewest:
            clauses.append([])  # a column that cannot be covered often enough: no solution
            continue
        low = 0 if number in least_implied else fewest
        high = len(rows) if number in most_implied else times
        if low == 0 and high >= len(rows):
            continue  # nothing left to say: no variable, no clause
        lits = []
        for k in rows:
            if k + 1 in lits:  # a row placing two copies counts twice: a copy of its variable
                copy = pool.id()
                clauses += [[-copy, k + 1], [copy, -(k + 1)]]
                lits.append(copy)
            else:
                lits.append(k + 1)
        if low != high:
            clauses += ranged(lits, low, high, encoding, pool)
            continue
        # pairwise, ladder and bitwise encode "at most one" only: copies take a counter
        kind = encoding if high == 1 or encoding not in ONE_ONLY else "seqcounter"
        clauses += CardEnc.equals(
            lits=lits, bound=high, vpool=pool, encoding=CARD_ENCODINGS[kind]
        ).clauses
    return CnfModel(
        clauses,
        max(pool.top, n),
        list(range(1, n + 1)),
        list(cover.labels),
        short_blocking=cover.least is None,  # pieces in any number: solutions of any size
        title=f"exact cover, {plural(len(cover.columns), 'column')}, exactly-one as {encoding}",
    )


def implied_counts(cover: ExactCover) -> tuple[set[int], set[int]]:
    """The piece columns whose "at most `count`" (the first set) and whose "at least `least`"
    (the second) follow from "each cell covered exactly once", given the bounds on the pieces
    that are kept: a CNF may leave them out and keep its models on the placements.

    Proof. Call every column that is not a piece a cell (a calendar's "day left uncovered"
    items too: each is covered exactly once, or nothing is left out). Let x_r be the variable
    of row r, e_r the number of cells it covers, m_r(p) the copies of piece p it places, N the
    number of cells, u_p = sum_r m_r(p) x_r the copies of p a solution uses. Adding up "cell c
    covered exactly once" over every cell gives
    (1)  sum_r e_r x_r = N.
    At most. If every row placing p covers a cell, let w_p = max_r m_r(p) / e_r over those rows:
    m_r(p) <= w_p e_r for every row, so by (1) u_p <= w_p N, and u_p being whole,
    u_p <= top_p = floor(w_p N) (top_p = 0 where no row places p). Where count_p >= top_p,
    "at most count_p" holds in every assignment covering each cell once: it is left out. A
    piece in "any" number (count_p = floor(N / area_p) = top_p) is never bounded above.
    At least. Where a_p > 0 can be given to every piece so that every row covers exactly the
    cells of what it places, e_r = sum_p m_r(p) a_p (a_p read off a row placing p alone, the
    equation checked on every row), (1) becomes sum_p a_p u_p = N, so
    a_p u_p = N - sum_{q != p} a_q u_q >= N - sum_{q != p} a_q top_q (u_q <= top_q by the cells
    alone, as shown). Where N - sum_{q != p} a_q top_q > a_p (least_p - 1), u_p > least_p - 1,
    and u_p being whole, u_p >= least_p: "at least least_p" is left out (always where
    least_p = 0). Every bound left out thus follows from the cells alone, whatever else is
    kept or left out. Examples: one kind of piece (u_p = N / a_p: both bounds follow wherever
    least_p <= N / a_p <= count_p: the dominoes of a board need no counter at all); pieces in
    "any" number (nothing to say). A lower bound that follows only from the other pieces' upper
    bounds (pieces whose areas add up to the board, each used `count` times) is kept: it spares
    a solver a counting argument (a piece with no place left is a conflict at once), and
    keeping "at least one" made tididi-cnf count the 3x20 pentominoes in 12.4 and 13.7 s
    against 16.4 and 17.2 s without it (load 4).
    """
    needed = cover.multiplicity or [1] * len(cover.columns)
    least = cover.least or needed
    cells = range(cover.pieces, len(cover.columns))
    if any(least[c] != needed[c] for c in cells):
        return set(), set()  # a cell covered a varying number of times: (1) does not hold
    board = sum(needed[c] for c in cells)
    covered, placed = row_contents(cover)
    top = cell_bounds(cover.pieces, covered, placed, board)
    most = {p for p in range(cover.pieces) if top[p] is not None and needed[p] >= top[p]}
    areas = piece_areas(cover.pieces, covered, placed)
    if areas is None or None in top:
        return most, {p for p in range(cover.pieces) if least[p] <= 0}
    room = sum(a * t for a, t in zip(areas, top))
    return most, {p for p in range(cover.pieces) if least[p] <= 0
                  or board - (room - areas[p] * top[p]) > areas[p] * (least[p] - 1)}


def row_contents(cover: ExactCover) -> tuple[list[int], list[Counter[int]]]:
    """For each row, the cells it covers (counted with repeats) and the copies of each piece it
    places."""
    covered = [sum(1 for c in row if c >= cover.pieces) for row in cover.rows]
    placed = [Counter(c for c in row if c < cover.pieces) for row in cover.rows]
    return covered, placed


def cell_bounds(pieces: int, covered: list[int], placed: list[Counter[int]], board: int
                ) -> list[int | None]:
    """For each piece, the most copies of it the cells allow (`top` in `implied_counts`), or
    None where some row places it on no cell."""
    top: list[int | None] = [0] * pieces
    for cells, copies in zip(covered, placed):
        for p, m in copies.items():
            if top[p] is None:
                continue
            top[p] = None if cells == 0 else max(top[p] or 0, board * m // cells)
    return top


def piece_areas(pieces: int, covered: list[int], placed: list[Counter[int]]
                ) -> list[Fraction] | None:
    """Each piece's area (1 for a piece no row places), such that every row covers exactly the
    cells of the copies it places; None where no such areas exist or are seen."""
    areas: list[Fraction | None] = [None] * pieces
    for cells, copies in zip(covered, placed):
        if len(copies) == 1:
            (p, m), = copies.items()
            areas[p] = Fraction(cells, m)
    used = {p for copies in placed for p in copies}
    if any(areas[p] is None or areas[p] <= 0 for p in used):
        return None
    known = [Fraction(1) if a is None else a for a in areas]
    if any(cells != sum(m * known[p] for p, m in copies.items())
           for cells, copies in zip(covered, placed)):
        return None
    return known


def ranged(lits: list[int], fewest: int, most: int, encoding: str, pool: IDPool
           ) -> list[list[int]]:
    """Clauses for "from `fewest` to `most` of `lits` are true" (either side left out where it
    holds of itself)."""
    clauses: list[list[int]] = []
    if most < len(lits):
        kind = encoding if most == 1 or encoding not in ONE_ONLY else "seqcounter"
        clauses += CardEnc.atmost(lits=lits, bound=most, vpool=pool,
                                  encoding=CARD_ENCODINGS[kind]).clauses
    if fewest == 1:
        clauses.append(list(lits))
    elif fewest > 1:
        kind = encoding if encoding not in ONE_ONLY else "seqcounter"
        clauses += CardEnc.atleast(lits=lits, bound=fewest, vpool=pool,
                                   encoding=CARD_ENCODINGS[kind]).clauses
    return clauses


def encode_cover(cover: ExactCover) -> CoverModel:
    """The exact cover itself: pieces and cells are primary items, option i is placement i.

    A search covering the first uncovered item takes the cells in the puzzle's fill order (the
    order of its columns), then the pieces.
    """
    pieces = cover.pieces
    return CoverModel(
        items=list(cover.columns),
        primary=len(cover.columns),
        options=[tuple(row) for row in cover.rows],
        labels=list(cover.labels),
        fill_order=list(range(pieces, len(cover.columns))) + list(range(pieces)),
        title=f"exact cover, {plural(len(cover.columns), 'item')}, "
              f"{plural(len(cover.rows), 'option')}",
        multiplicity=cover.multiplicity,
        least=cover.least,
        regions=cover.regions,
    )
