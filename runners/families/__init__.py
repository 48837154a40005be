"""Puzzle families: how each kind of puzzle is solved, counted, listed, verified and exported.

A family turns a puzzle into the model a backend takes, runs the backend (counting through
runners/counting.py), decodes what comes back and says what a count means. The model is chosen
from one table per family, `encoders` (the kind of model a backend takes -> the `Encoder` that
makes it, with the options that choose within that model), as PySAT's EncType names encodings
behind one signature: a new kind of model is a row, never another `if takes ==` branch.
Nothing here parses command lines or prints; runners/cli/ does that, and `import puzzlesat`
offers the same calls.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..backends import Backend
from ..counting import Runner
from ..models.encoded import check_card_encoding
from ..models.errors import InputError
from ..outcomes import Count, Solution, Verification

# The solver backends every verify runs; each family adds its own reference method.
VERIFY_SOLVERS = ("cpsat", "pysat:cadical195", "pysat:glucose4")
# Verified too where their optional extra is installed (pip install 'puzzlesat[dlx]').
VERIFY_OPTIONAL = ("bitboard", "xcover", "edgecount")


def verify_backends(kind: str) -> tuple[str, ...]:
    """The backends verify counts on for a family: the solvers, the dancing-links family where
    installed and usable, and the family's own reference."""
    from ..registry import backend, family

    usable = []
    for name in VERIFY_OPTIONAL:
        try:
            made = backend(name)
        except InputError:
            continue
        if family(kind).accepts(made):
            usable.append(name)
    return (*VERIFY_SOLVERS, *usable, "reference")


# A model counter joins a verify as a witness (when no backend is named) where its run is
# expected to finish: the backends before it agree on at most WITNESS_SOLUTIONS solutions and
# the CNF it counts has at most WITNESS_VARIABLES variables. Measured with mc:ganak (Ganak 2.9,
# one run each, 20 s cap, 2 cores at load 8): finished macmahon-4-triangles (94 variables,
# 12 grids, 0.1 s), the five Scramble decks (1,044-1,050 variables, 4-8 grids, 1.4-2.8 s), the
# tetrahex coin and 4x7 (428 and 488, 16 and 18 solutions, 4.3 and 5.1 s), IQ Block's unique
# challenge (1,341, 1 solution, 1.4 s); not within 20 s: Soma (688 variables, 11,520
# solutions), the diamond blocks (2,735; 17,920), dominoes on 8x8 (5,232 variables then, 112
# since the piece counts the cells imply are left out; 12,988,816 tilings), the
# 1234-polyhex triangle (837), pentominoes 3x20 (1,236 variables, 8 solutions: the rule's one
# miss), the em-* boards (8,837 variables and more). A counter's count grows with its
# solutions here as a search's does: it finds no components to split on these encodings.
WITNESS_SOLUTIONS = 64
WITNESS_VARIABLES = 1_500
WITNESS_SECONDS = 60.0  # a witness that has not finished by then is shown, incomplete, and ignored


def witness(solutions: set[int], variables: Callable[[Backend], int]) -> Backend | None:
    """The model counter a verify adds as a witness where the backends before it agree on
    `solutions` (one number), or None where none is installed or its run is not expected to
    finish (WITNESS_SOLUTIONS; WITNESS_VARIABLES of the CNF, `variables(counter)`, made only
    where the solutions pass)."""
    from ..backends.mc import installed_counters
    from ..registry import backend

    if len(solutions) != 1 or min(solutions) > WITNESS_SOLUTIONS:
        return None
    for name in installed_counters():
        counter = backend(name)
        return counter if variables(counter) <= WITNESS_VARIABLES else None
    return None


# The models backends take, as a message names them.
MODEL_NAMES = {"cpsat": "CP-SAT", "cnf": "CNF", "cover": "exact cover",
               "tables": "edgecount's tables"}


@dataclass(frozen=True)
class Encoder:
    """How a family makes the model one kind of backend takes.

    `make(source, *task, **options)`: the family's source (a puzzle, an exact cover), the
    task's arguments common to every encoder of the family (e.g. the turns a count is taken
    under), and the options that choose within this model (`options`, e.g. 'encoding' for CNF);
    `refuses(backend, source)`: why a backend taking this model cannot take this one (None: it
    can; source None: whether it can take any of the family's). The rest say how the family
    reads the model, where it differs from the family's usual way: `keys(source, *task)` the
    options the model's keys stand for, `decode(source, model, values)` a solution from a
    backend's values, `cubes(model, wanted)` the model's own split into (cubes, weights,
    sizes), `nodes` whether its counts carry the nodes searched (a cube's second number), and
    `turned` whether it can count the solutions a symmetry leaves unchanged.
    """

    make: Callable[..., object]
    options: tuple[str, ...] = ()
    refuses: Callable[[Backend, object], str | None] | None = None
    keys: Callable[..., list] | None = None
    decode: Callable[..., object] | None = None
    cubes: Callable[..., tuple] | None = None
    nodes: bool = False
    turned: bool = True


class Family(ABC):
    """One kind of puzzle."""

    kind: str
    takes: tuple[str, ...]  # the models its encoders make (see backends.TAKES)
    moduli: tuple[str, ...] = ("none", "symmetry")
    load_options: tuple[str, ...] = ()  # options of `load`, e.g. ('level',)
    options: tuple[str, ...] = ()  # options of solve/count/export, e.g. ('encoding',)
    export_formats: tuple[str, ...] = ("dimacs",)
    # verify(..., sample_cubes=N): random cubes of a count too large for the other backends,
    # drawn and counted by this compiled search (a registry name; a mode of it may be named in
    # `backends`, e.g. 'bitboard:fewest') and counted again by the others; None: not sampled
    samples_cubes: str | None = None
    # count(..., limit=N) lists solutions until the N-th (None: what a count of this family
    # counts instead, for the one-line refusal)
    counts_to_a_limit: str | None = None
    # The family's own solvers, by backend name ('reference', 'table') -> the Backend class
    own_backends: dict[str, type[Backend]] = {}
    # The model each kind of backend takes -> how the family makes it (see Encoder); the models
    # of its own backends ('reference', 'table') are the family's own and listed in `takes` only
    encoders: dict[str, Encoder] = {}

    @abstractmethod
    def summary(self, puzzle) -> str: ...

    def owns(self, backend: Backend) -> bool:
        """Whether the backend is one of the family's own solvers (the reference, a moves
        table): its model is the family's own, made by no encoder, and read its own way."""
        return backend.takes in self.takes and backend.takes not in self.encoders

    def encoder(self, backend: Backend) -> Encoder:
        """The family's encoder for the model the backend takes."""
        return self.encoders[backend.takes]

    def refused(self, backend: Backend, source) -> str | None:
        """Why the backend cannot take the family's model of `source` (None: it can)."""
        entry = self.encoders.get(backend.takes)
        if entry is None:
            return (f"{self.kind} puzzles are not encoded as {backend.takes} models, which "
                    f"{backend.name} takes")
        return None if entry.refuses is None else entry.refuses(backend, source)

    def accepts(self, backend: Backend) -> bool:
        """Whether the family can encode the model the backend takes."""
        entry = self.encoders.get(backend.takes)
        if entry is not None and entry.refuses is not None and entry.refuses(backend, None):
            return False
        return backend.takes in self.takes

    def model_options(self, backend: Backend | None, options: dict) -> dict:
        """The options given (not None), each checked to choose within the model the backend
        takes (a CNF encoding given for CP-SAT is refused in one line); a card encoding's name
        is checked here, before any work."""
        given = {name: value for name, value in options.items() if value is not None}
        if backend is None:
            return given
        entry = self.encoders.get(backend.takes)
        for name, value in given.items():
            if entry is None or name not in entry.options:
                models = " or ".join(MODEL_NAMES.get(takes, takes) for takes, e in
                                     self.encoders.items() if name in e.options) or "no"
                raise InputError(f"chooses within the {models} model; {backend.name} does not "
                                 f"take {models}", field=name)
            if name == "encoding":
                check_card_encoding(value, value)
        return given

    def applicable(self, backend: Backend, **options) -> dict:
        """Of options meant for some models, those the backend's model takes (where one call
        runs many backends, as verify does)."""
        entry = self.encoders.get(backend.takes)
        return {name: value for name, value in options.items()
                if value is not None and entry is not None and name in entry.options}

    def encode_for(self, backend: Backend, source, *task, **options):
        """The model the backend takes, made by the family's encoder for it."""
        given = self.model_options(backend, options)
        why = self.refused(backend, source)
        if why:
            raise InputError(why, field="backend")
        return self.encoder(backend).make(source, *task, **given)

    def at(self, puzzle, **options):
        """The puzzle with the load options applied (e.g. a level)."""
        self.check_options(options, self.load_options, "load")
        return puzzle

    def check_options(self, options: dict, allowed: tuple[str, ...], where: str) -> None:
        for name, value in options.items():
            if value is None:
                continue
            if name not in allowed:
                raise InputError(
                    f"does not apply to {self.kind} puzzles"
                    + (f" (options of {where}: {', '.join(allowed)})" if allowed else ""),
                    field=name,
                )

    modulo_aliases: dict[str, str] = {}  # other words for a modulo, e.g. 'rotation'

    def check_modulo(self, puzzle, modulo: str) -> str:
        """The modulo in its one word, checked for this puzzle."""
        modulo = self.modulo_aliases.get(modulo, modulo)
        if modulo not in self.moduli:
            raise InputError(
                f"{self.kind} puzzles count with modulo {' or '.join(self.moduli)}, "
                f"not {modulo!r}",
                field="modulo",
            )
        return modulo

    def why_none(self, puzzle) -> str | None:
        """Where a puzzle has no solution for a reason seen without searching (a piece that
        fits nowhere), that reason in one phrase; None otherwise."""
        return None

    @abstractmethod
    def solve(self, puzzle, backend: Backend, time_limit: float | None, **options) -> Solution:
        ...

    @abstractmethod
    def count(self, puzzle, backend: Backend, modulo: str, runner: Runner, **options) -> Count:
        ...

    @abstractmethod
    def solutions(self, puzzle, backend: Backend, limit: int | None, **options
                  ) -> Iterator[Solution]: ...

    @abstractmethod
    def verify(self, puzzle, runner_for, **options) -> Verification:
        """Count on every backend and method; `runner_for()` gives a fresh Runner per count."""

    @abstractmethod
    def export(self, puzzle, fmt: str, **options) -> tuple[str, str]:
        """(file text, one-line summary) of the puzzle in an export format."""

    def sampled_and_others(self, backends: list[str] | None, others: tuple[str, ...]
                           ) -> tuple[Backend, list[Backend]]:
        """verify --sample-cubes: the compiled search that draws and counts the cubes (the
        family's `samples_cubes`, or the mode of it named among `backends`, e.g.
        'bitboard:fewest') and the backends that count them again (the rest of `backends`, or
        `others`)."""
        from ..registry import parse, resolve

        named = list(backends or ())
        searches = [n for n in named if parse(n)[0] == self.samples_cubes]
        if len(searches) > 1:
            raise InputError(f"name one mode of {self.samples_cubes} (it draws the sampled "
                             f"cubes), not {len(searches)}", field="backend")
        ours = resolve(searches[0] if searches else self.samples_cubes, self.kind, "count")
        checks = [n for n in named if n not in searches] or list(others)
        return ours, [resolve(name, self.kind, "count") for name in checks]


def check_sampled_cubes(
    picked: list, ours: str, others: list[Backend], count_in: Callable, number: str,
    say: Callable[[str], None] | None = None,
) -> tuple[list[dict], list[Count], bool, str]:
    """Sampled cubes (each with what `ours` counted, and the puzzle the other backends count
    it as, with the row's own fields), counted by each other backend (`count_in(puzzle,
    backend)`, a Count whose details[number] is compared): the rows, the counts, whether every
    cube agrees, and a table. One check for every family that samples cubes; no cube at all is
    an error (nothing was checked), never an agreement."""
    if not picked:
        raise InputError("no cube could be drawn (no random search reached a solution): a "
                         "puzzle with so few solutions is verified whole, without sample_cubes",
                         field="sample_cubes")
    rows, counts, agree = [], [], True
    for found, puzzle, fields in picked:
        row: dict[str, object] = {**fields, ours: found}
        for backend in others:
            count = count_in(puzzle, backend)
            counts.append(count)
            row[backend.name] = count.details[number] if count.complete else None
            row[f"{backend.name}_seconds"] = round(count.seconds, 3)
        same = all(row[b.name] == found for b in others)
        agree = agree and same
        row["agree"] = same
        rows.append(row)
        if say:
            say(f"cube {len(rows)}: {ours} {found:,}, " + ", ".join(
                f"{b.name} {row[b.name]}" for b in others) + ("" if same else " DISAGREE"))
    names = [ours] + [b.name for b in others]
    table = "\n".join(["cube  " + " ".join(f"{x:>12}" for x in names)] + [
        f"{i + 1:4}  " + " ".join(f"{str(r[x]):>12}" for x in names)
        for i, r in enumerate(rows)])
    return rows, counts, agree, table
