"""Encoders for the exact cover of a packing puzzle: CP-SAT, CNF and exact cover for dancing
links. They never run a solver."""

from __future__ import annotations

from pysat.card import CardEnc
from pysat.formula import IDPool

from ..encoded import CARD_ENCODINGS, CnfModel, CoverModel, CpsatModel
from ..limits import step
from . import ExactCover

DEFAULT_CARD_ENCODING = "pairwise"


def columns_of(cover: ExactCover) -> list[list[int]]:
    """For each column, the rows that cover it."""
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
    for n, rows in enumerate(columns_of(cover)):
        if n % 1024 == 0:
            step("CP-SAT constraints", n, len(cover.columns))
        model.add_exactly_one(use[k] for k in rows)
    first_cell = sorted(range(len(cover.rows)), key=lambda k: (cover.rows[k][1:], k))
    model.add_decision_strategy(
        [use[k] for k in first_cell], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
    )
    return CpsatModel(model, use, fixed_search=True)


def encode_cnf(cover: ExactCover, encoding: str = DEFAULT_CARD_ENCODING) -> CnfModel:
    """Variables 1..n for the placements; exactly one per piece and per cell, encoded as chosen."""
    if encoding not in CARD_ENCODINGS:
        raise ValueError(f"unknown cardinality encoding {encoding!r}")
    n = len(cover.rows)
    pool = IDPool(start_from=n + 1)
    clauses: list[list[int]] = []
    for number, rows in enumerate(columns_of(cover)):
        if number % 256 == 0:
            step("CNF constraints", number, len(cover.columns))
        lits = [k + 1 for k in rows]
        if not lits:
            clauses.append([])  # a column nothing covers: no solution
            continue
        clauses += CardEnc.equals(
            lits=lits, bound=1, vpool=pool, encoding=CARD_ENCODINGS[encoding]
        ).clauses
    return CnfModel(
        clauses,
        max(pool.top, n),
        list(range(1, n + 1)),
        list(cover.labels),
        short_blocking=True,
        title=f"exact cover, {len(cover.columns)} columns, exactly-one as {encoding}",
    )


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
        title=f"exact cover, {len(cover.columns)} items, {len(cover.rows)} options",
    )
