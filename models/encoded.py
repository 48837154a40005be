"""Solver-ready models: what an encoder produces and a runner consumes.

Each model names its "keys": the variables a solution is read from and counted on. Every other
variable must be determined by the keys, so counting key assignments counts solutions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model
from pysat.card import EncType

# PySAT's encodings of "exactly one", selectable by name.
CARD_ENCODINGS = {
    "pairwise": EncType.pairwise,
    "seqcounter": EncType.seqcounter,
    "ladder": EncType.ladder,
    "totalizer": EncType.totalizer,
    "sortnetwrk": EncType.sortnetwrk,
    "cardnetwrk": EncType.cardnetwrk,
    "bitwise": EncType.bitwise,
    "mtotalizer": EncType.mtotalizer,
    "kmtotalizer": EncType.kmtotalizer,
}


@dataclass
class CnfModel:
    """Clauses over variables 1..nvars; keys[i] is the variable of key i.

    short_blocking: every solution sets the same number of keys true, so a solution is excluded by
    a clause over its true keys alone.
    """

    clauses: list[list[int]]
    nvars: int
    keys: list[int]
    key_labels: list[str] = field(default_factory=list)
    short_blocking: bool = False
    title: str = ""


@dataclass
class CpsatModel:
    """A CP-SAT model; keys are its Boolean (or integer) variables a solution is read from.

    fixed_search: the model carries a decision strategy that the solver should follow exactly.
    """

    model: cp_model.CpModel
    keys: list[cp_model.IntVar]
    fixed_search: bool = False
    title: str = ""


def to_dimacs(model: CnfModel, header: list[str]) -> str:
    """DIMACS CNF text; comment lines map every key variable to what it means."""
    lines = [f"c {line}" for line in header]
    for key, label in zip(model.keys, model.key_labels):
        lines.append(f"c var {key} = {label}")
    if model.nvars > len(model.keys):
        lines.append(f"c variables {len(model.keys) + 1}..{model.nvars} are auxiliary")
    lines.append(f"p cnf {model.nvars} {len(model.clauses)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in model.clauses)
    return "\n".join(lines) + "\n"


def check_card_encoding(encoding: str | None, default: str) -> str:
    """The cardinality encoding asked for (or the default), checked against CARD_ENCODINGS."""
    from .errors import InputError

    if encoding is None:
        return default
    if encoding not in CARD_ENCODINGS:
        raise InputError(
            f"unknown encoding {encoding!r}; one of: {', '.join(CARD_ENCODINGS)}",
            field="--encoding",
        )
    return encoding
