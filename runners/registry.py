"""One registry: the puzzle families, and the backends by name (`base` or `base:argument`).

A family is declared once, in `FAMILIES` (kind -> stem; `models.kinds.KINDS`, where reading a
file needs it). Everything else about it is found from the stem by one convention (`part`):

    models/STEM/reader.py        its file reader: `read(doc)`, and optional `FOREIGN_FORMATS`
    runners/families/STEM.py     `FAMILY`, the library object (solve, count, ..., its moduli and
                                 its own backends such as 'reference')
    runners/cli/STEM.py          its command-line flags and printing
    runners/pictures/STEM.py     its drawings, gallery and play page

Backend names are parsed in one place (`parse`). A family's own solvers (the reference
backtrackers, the God's-algorithm table of a family solved by moves) are its `own_backends`,
under the names 'reference' and 'table'. The default backend of each family and task comes
from figures the project measured, kept here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from .backends import Backend
from .models.errors import InputError
from .models.kinds import KINDS, check_kind

# The one declaration of the puzzle families, kind -> stem, lives in the models (reading a file
# needs it there); adding a family adds a line to models/kinds.py.
FAMILIES = KINDS

# Where each part of a family lives, by its stem.
PARTS = {
    "reader": "puzzlesat.models.{}.reader",
    "family": "puzzlesat.families.{}",
    "cli": "puzzlesat.cli.{}",
    "pictures": "puzzlesat.pictures.{}",
}


def module_name(kind: str, part_name: str) -> str:
    """The module holding one part ('reader', 'family', 'cli', 'pictures') of a family."""
    return PARTS[part_name].format(FAMILIES[check_kind(kind)])


def part(kind: str, part_name: str) -> ModuleType:
    """One part of a family, imported when first needed."""
    return importlib.import_module(module_name(kind, part_name))


def family(kind: str):
    """The Family object that runs puzzles of a kind."""
    return part(kind, "family").FAMILY


def family_of(puzzle):
    return family(puzzle.kind)


@dataclass(frozen=True)
class Entry:
    """A backend family in the registry: its base name and how to build one from the argument."""

    base: str
    module: str  # where its class lives
    cls: str
    argument: str = ""  # what follows 'base:', if anything ('' = nothing)
    per_family: bool = False  # one per puzzle family ('reference', 'table')
    example: str = ""
    optional: bool = False  # the argument may be left out ('bitboard' or 'bitboard:memo')
    instances: str = ""  # a function of the module listing the names installed ('mc:ganak')

    def build(self, argument: str | None) -> Backend:
        cls = getattr(importlib.import_module(self.module), self.cls)
        if self.optional:
            return cls(argument)
        return cls(argument) if self.argument else cls()


# The ordered table of backends: the order listings show them in.
BACKENDS = (
    Entry("cpsat", "puzzlesat.backends.cpsat", "CpsatBackend", example="cpsat"),
    Entry("pysat", "puzzlesat.backends.pysat", "PysatBackend", argument="NAME",
          example="pysat:cadical195"),
    Entry("bitboard", "puzzlesat.backends.bitboard", "BitboardBackend",
          argument="memo|plain|fewest", example="bitboard", optional=True),
    Entry("xcover", "puzzlesat.backends.xcover", "XcoverBackend", example="xcover"),
    Entry("edgecount", "puzzlesat.backends.edgecount", "EdgecountBackend", example="edgecount"),
    Entry("exec", "puzzlesat.backends.exec", "ExecBackend", argument="NAME_OR_PATH",
          example="exec:cadical"),
    Entry("race", "puzzlesat.backends.race", "RaceBackend", argument="B1,B2,... or B*N",
          example="race:exec:cadical*2"),
    Entry("mc", "puzzlesat.backends.mc", "McBackend", argument="NAME", example="mc:ganak",
          instances="installed_counters"),
    Entry("reference", "", "", per_family=True, example="reference"),
    Entry("table", "", "", per_family=True, example="table"),
)

# Defaults from measurements (results/bench.csv and results/dlx-bench.md, on this project's
# 2-core machine); where a default needs an optional extra, the next one serves without it.
FALLBACKS: dict[tuple[str, str], tuple[str, str]] = {
    ("packing", "count"): (
        "cpsat", "measured fastest without the dlx extra: IQ Block 10 in 6.2 s (reference 37 s, "
        "CaDiCaL 32 s)"),
    ("edge-matching", "count"): (
        "cpsat", "measured fastest without the dlx extra: the diamond blocks Level 1 in 4.0 s "
        "(CaDiCaL 5.7 s, Glucose 8.4 s)"),
    ("packing", "solutions"): ("cpsat", "lists solutions without the dlx extra"),
    ("edge-matching", "solutions"): ("cpsat", "lists grids without the dlx extra"),
}
DEFAULTS: dict[tuple[str, str], tuple[str, str]] = {
    ("packing", "count"): (
        "bitboard", "measured fastest counting IQ Block 10: 1.4 s on 2 threads against 2.8 s "
        "for xcover (dancing links) and 6.2 s for CP-SAT (results/dlx-bench.md); it branches "
        "per cube on the first empty cell or on the fewest fits, whichever Knuth's estimator "
        "says is faster (the Bedlam cube's fewest-fits tree 13 times smaller, a node 4 times "
        "dearer: results/README.md)"),
    ("packing", "solve"): (
        "cpsat", "solves each of the 36 catalog packing puzzles: 24 in under a CPU second, "
        "Kanoodle's pyramid in 3.5 CPU s, the longest (the Tetris Cube, the Bedlam cube, "
        "one-sided pentominoes 3x30) in 10-14 CPU s, 84-103 s of wall at load 16-19 on 2 "
        "cores (measured 2026-11-28)"),
    ("packing", "solutions"): (
        "bitboard", "lists solutions fastest, one at a time: the first of Kanoodle's pyramid in "
        "4 s where the pure-Python reference took minutes to list what a picture drew"),
    ("edge-matching", "count"): (
        "edgecount", "measured fastest counting edge matching: the diamond blocks Level 1 in "
        "0.05 s of search against 1.6 s for the reference and 4.0 s for CP-SAT "
        "(results/edgecount-bench.md)"),
    ("edge-matching", "solutions"): (
        "edgecount", "lists grids fastest, one at a time: the first of Eternity II's clue "
        "puzzle 1 in 1.6 s, where the reference listed every one of its 74,916,428 first"),
    ("edge-matching", "solve"): (
        "pysat:glucose4",
        "solved the Eternity II clue puzzles fastest (0.05-0.28 s) and honours a time limit"),
    ("mind-lock", "solve"): (
        "table", "God's-algorithm table: an optimal solution in 0.08 ms after a 0.4 s build"),
    ("mind-lock", "count"): ("table", "the breadth-first search counts every position"),
    ("sliding-block", "solve"): (
        "table", "God's-algorithm table: an optimal plan by walking it (results/"
        "sliding-bench.json)"),
    ("sliding-block", "count"): ("table", "the breadth-first search counts every position"),
}

NAMES = ("cpsat, pysat:NAME (e.g. pysat:cadical195), bitboard, xcover, edgecount, "
         "exec:NAME_OR_PATH (a SAT solver binary, "
         "e.g. exec:cadical), race:B1,B2 or race:B*N (e.g. race:pysat:cadical195*2), mc:NAME (a "
         "model counter, e.g. mc:ganak), reference or table")


def parse(name: str) -> tuple[str, str | None]:
    """'base' or 'base:argument' -> (base, argument); the one place names are split."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a backend name is needed ({NAMES})", field="backend")
    base, colon, argument = name.strip().partition(":")
    entry = _entry(base)
    if entry.argument and not argument and not entry.optional:
        raise InputError(f"{base} needs {base}:{entry.argument}, e.g. {entry.example}",
                         field="backend")
    if colon and not entry.argument and not entry.per_family:
        raise InputError(f"{base} takes no ':{argument}'", field="backend")
    return base, (argument if colon else None)


def _entry(base: str) -> Entry:
    for entry in BACKENDS:
        if entry.base == base:
            return entry
    raise InputError(f"unknown backend {base!r}; use {NAMES}", field="backend")


@cache
def backend(name: str) -> Backend:
    """The backend of a full name ('reference:packing' for a family's own; see `resolve`)."""
    base, argument = parse(name)
    entry = _entry(base)
    if entry.per_family:
        own = family(argument).own_backends if argument in FAMILIES else {}
        if base not in own:
            raise InputError(f"no {base} backend for {argument} puzzles", field="backend")
        made = own[base]()
    else:
        made = entry.build(argument)
    if not made.supported():
        raise InputError(f"{name} is not available here: {made.needs}", field="backend")
    return made


def default_backend(kind: str, task: str) -> tuple[str, str]:
    """The measured default backend of a family for a task, and why."""
    name, why = DEFAULTS.get((kind, task), DEFAULTS[(kind, "solve")])
    if (kind, task) in FALLBACKS:
        try:
            backend(name)
        except InputError:  # its optional extra is not installed
            return FALLBACKS[(kind, task)]
    return name, why


def resolve(name: str | None, kind: str, task: str) -> Backend:
    """The backend for a user's name (None: the measured default) on a puzzle of `kind`."""
    if name is None:
        name = default_backend(kind, task)[0]
    base, argument = parse(name)
    if _entry(base).per_family:
        name = f"{base}:{kind}"
    made = backend(name)
    fam = family(kind)
    if not fam.accepts(made):
        raise InputError(
            f"{made.name} does not solve {kind} puzzles (usable: {', '.join(names_for(kind))})",
            field="backend",
        )
    if task == "count" and not made.can_count:
        raise InputError(getattr(made, "why_not_count", f"{made.name} cannot count"),
                         field="backend")
    if task == "solve" and not made.can_solve:
        raise InputError(getattr(made, "why_not_solve", f"{made.name} cannot solve"),
                         field="backend")
    return made


def _available(name: str) -> bool:
    """Whether a backend can be made here (its library or compiled kernel installed)."""
    try:
        backend(name)
    except InputError:
        return False
    return True


def names_for(kind: str, task: str = "solve") -> list[str]:
    """The backend names usable for a family, the default first."""
    from .backends.pysat import pysat_solvers

    fam = family(kind)
    found = []
    for entry in BACKENDS:
        if entry.per_family:
            if entry.base in fam.own_backends and _available(f"{entry.base}:{kind}"):
                found.append(entry.base)
        elif entry.base == "pysat":
            if "cnf" in fam.takes:
                found += [f"pysat:{s}" for s in pysat_solvers()]
        elif entry.instances:  # one per library installed (the model counters)
            listed = getattr(importlib.import_module(entry.module), entry.instances)()
            made_all = [backend(name) for name in listed]
            found += [b.name for b in made_all if fam.accepts(b)
                      and (b.can_solve if task == "solve" else b.can_count)]
        else:
            try:
                made = backend(entry.example or entry.base)
            except InputError:
                continue
            if fam.accepts(made):
                found.append(entry.example or entry.base)
    default = default_backend(kind, task)[0]
    return [default] + [n for n in found if n != default]
