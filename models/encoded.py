"""Solver-ready models: what an encoder produces and a runner consumes.

Each model names its "keys": the variables a solution is read from and counted on. Every other
variable must be determined by the keys, so counting key assignments counts solutions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pysat.card import EncType

if TYPE_CHECKING:  # only for type hints: exact-cover workers need not import OR-Tools
    from ortools.sat.python import cp_model

from .errors import InputError

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
            field="encoding",
        )
    return encoding


@dataclass(frozen=True)
class Regions:
    """What a backtracker may know of a packing's geometry to drop dead ends early.

    adjacent[i]: the items next to item i (cells sharing a face; none for a piece's item). Every
    option's adjacent items are connected and every piece has at least `smallest` cells, a
    multiple of `granule`; so a closed region of uncovered items (no uncovered item next to it
    outside) is covered by whole options inside it, and one of fewer than `smallest` items or of
    a number that is no multiple of `granule` has no cover.
    """

    adjacent: tuple[tuple[int, ...], ...]
    smallest: int
    granule: int


@dataclass
class CoverModel:
    """Exact cover with colours (Knuth's XCC); key i is option i (1 when chosen, 0 when not).

    items: the item names, the `primary` first ones primary (each covered exactly once), the rest
    secondary (covered at most once, or by several options that give it the same colour).
    options[i]: the items option i covers (indices into items); colours[i]: the colour option i
    gives each coloured secondary item it covers (empty when none); labels[i]: what it means.
    fill_order: the items in the order a search covering the first uncovered item should take
    them (None: as listed); a hint for backtrackers, it never changes the solutions.
    """

    items: list[str]
    primary: int
    options: list[tuple[int, ...]]
    labels: list[str] = field(default_factory=list)
    colours: list[dict[int, str]] = field(default_factory=list)
    fill_order: list[int] | None = None
    title: str = ""
    # how many times each primary item is covered (None: once each, exact cover); an option
    # lists an item once per time it covers it (Knuth's MCC, exact cover with multiplicities)
    multiplicity: list[int] | None = None
    regions: Regions | None = None  # a packing's geometry, for pruning (None: unknown)
    # the fewest times each primary item is covered, where that may be fewer than its
    # multiplicity (a piece in any number from MIN to MAX; None: exactly the multiplicity)
    least: list[int] | None = None

    @property
    def coloured(self) -> bool:
        return any(self.colours)

    def values(self, chosen: list[int]) -> list[int]:
        """Key values of a solution given by its options: 1 for chosen, 0 for the others."""
        values = [0] * len(self.options)
        for k in chosen:
            values[k] = 1
        return values

    def colour(self, option: int, item: int) -> str:
        """The colour option `option` gives `item` ("" when none)."""
        return self.colours[option].get(item, "") if self.colours else ""


# Knuth's programs read names of at most 8 printable characters without ':' or '|'.
_DLX_NAME = re.compile(r"^[^\s:|]{1,8}$")


def to_dlx(model: CoverModel, header: list[str]) -> str:
    """The model as input for Knuth's DLX1 (exact cover) or DLX2 (colours, `item:colour`).

    Comment lines start with '|' (the header, then what every option means); the items line
    lists the primary items, then '|' and the secondary items; one option per line after it.
    Names Knuth's programs cannot read (more than 8 characters, spaces, ':' or '|') are replaced
    by short ones (items i1, i2, ...; colours c1, c2, ...), each named in a comment line.
    """
    lines = [f"| {line}" for line in header]
    items, renamed = _dlx_names(model.items, "i")
    colours, recoloured = _dlx_names(sorted({c for cs in model.colours for c in cs.values()}), "c")
    colour_name = dict(zip(sorted({c for cs in model.colours for c in cs.values()}), colours))
    lines += [f"| item {new} = {old}" for new, old in renamed]
    lines += [f"| colour {new} = {old}" for new, old in recoloured]
    lines += [f"| option {i + 1}: {label}" for i, label in enumerate(model.labels)]
    head = " ".join(items[: model.primary])
    if len(items) > model.primary:
        head += " | " + " ".join(items[model.primary :])
    lines.append(head)
    for k, option in enumerate(model.options):
        words = []
        for i in option:
            colour = model.colour(k, i)
            words.append(items[i] + (f":{colour_name[colour]}" if colour else ""))
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"


def _dlx_names(names: list[str], prefix: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The names as they are when Knuth's programs read them all, else short replacements
    (with the pairs (new, old) to name in comments)."""
    if all(_DLX_NAME.match(name) for name in names):
        return list(names), []
    short = [f"{prefix}{n + 1}" for n in range(len(names))]
    return short, list(zip(short, names))


def read_dlx(text: str, file: str = "") -> CoverModel:
    """A model from DLX1/DLX2 input (the inverse of to_dlx, option labels left out)."""
    lines = [
        (n, line.strip())
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("|")
    ]
    if not lines:
        raise InputError("no items line", file=file or None)
    n0, head = lines[0]
    primary_part, _, secondary_part = head.partition("|")
    names = primary_part.split() + secondary_part.split()
    index = {name: i for i, name in enumerate(names)}
    if len(index) != len(names):
        raise InputError("an item is named twice", file=file or None, line=n0)
    primary = len(primary_part.split())
    options: list[tuple[int, ...]] = []
    colours: list[dict[int, str]] = []
    for n, line in lines[1:]:
        option, colour = [], {}
        for word in line.split():
            name, _, col = word.partition(":")
            if name not in index:
                raise InputError(f"unknown item {name!r}", file=file or None, line=n)
            if col and index[name] < primary:
                raise InputError(f"primary item {name!r} given a colour", file=file or None, line=n)
            option.append(index[name])
            if col:
                colour[index[name]] = col
        options.append(tuple(option))
        colours.append(colour)
    return CoverModel(names, primary, options, colours=colours if any(colours) else [])
