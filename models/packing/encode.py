"""Encoders for the exact cover of a packing puzzle: CP-SAT, CNF and exact cover for dancing
links. They never run a solver."""

from __future__ import annotations

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
    piece and per cell, encoded as chosen, and for a piece in any number from MIN to MAX, at
    least MIN and at most MAX of its placements (a counter: seqcounter where the encoding
    chosen only says "at most one")."""
    if encoding not in CARD_ENCODINGS:
        raise ValueError(f"unknown cardinality encoding {encoding!r}")
    n = len(cover.rows)
    pool = IDPool(start_from=n + 1)
    clauses: list[list[int]] = []
    needed = cover.multiplicity or [1] * len(cover.columns)
    least = cover.least or needed
    for number, (rows, times, fewest) in enumerate(zip(columns_of(cover), needed, least)):
        if number % 256 == 0:
            step("CNF constraints", number, len(cover.columns))
        lits = []
        for k in rows:
            if k + 1 in lits:  # a row placing two copies counts twice: a copy of its variable
                copy = pool.id()
                clauses += [[-copy, k + 1], [copy, -(k + 1)]]
                lits.append(copy)
            else:
                lits.append(k + 1)
        if len(lits) < fewest:
            clauses.append([])  # a column that cannot be covered often enough: no solution
            continue
        if fewest != times:
            clauses += ranged(lits, fewest, times, encoding, pool)
            continue
        # pairwise, ladder and bitwise encode "at most one" only: copies take a counter
        kind = encoding if times == 1 or encoding not in ONE_ONLY else "seqcounter"
        clauses += CardEnc.equals(
            lits=lits, bound=times, vpool=pool, encoding=CARD_ENCODINGS[kind]
        ).clauses
    return CnfModel(
        clauses,
        max(pool.top, n),
        list(range(1, n + 1)),
        list(cover.labels),
        short_blocking=cover.least is None,  # pieces in any number: solutions of any size
        title=f"exact cover, {plural(len(cover.columns), 'column')}, exactly-one as {encoding}",
    )


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
