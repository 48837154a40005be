"""Booklets for puzzle makers: challenge cards of a packing puzzle, each with exactly one
solution, graded by how hard they are to solve; and the audit of a booklet a user has.

Difficulty is the number of nodes of one fixed plain search, the grade printed on every card:
Knuth's Algorithm X with his minimum-remaining-values rule (branch on the item, an empty cell or
a piece still to place, that the fewest placements fit; ties to the first in the board's fill
order), counting placements tried until the search is exhausted, so that the one solution is
found and known to be the only one. Why this measure: it is what a careful solver does, look for
the spot with the fewest possibilities; a forced step costs one node, so a card whose pieces
fall into place one by one scores its pieces left, and each guess that must be taken back adds
the placements tried under it. It is exact and reproducible (no clock, no randomness), and it
does not move when the counting engine's own pruning and memo improve. The number of pieces
left to place is printed beside it.

A booklet's cards show different solutions, no two alike under the board's symmetries: it can
hold at most as many cards as the puzzle has classes of solutions.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .api import CALLABLE, FLAG, NAME, NAMES, PATH, PUZZLE, WHOLE, Kind, takes
from .cards import (
    CHECK_BACKENDS,
    Listing,
    card_puzzle,
    check_backends_named,
    check_packing,
    list_solutions,
    pieces,
    placed_words,
    placement_maps,
)
from .models.errors import InputError
from .models.geometry import Cell
from .models.packing import PackingPuzzle, Placed, Placement, placements
from .models.packing.booklet import Booklet, BookletCard, read_booklet
from .models.words import plural

Say = Callable[[str], None]

POOL = 4  # candidate cards drawn per card asked for, the grades spread over them
MEASURE = ("search nodes: placements tried by Algorithm X branching on the item (empty cell "
           "or piece to place) that the fewest placements fit, until the search is exhausted")


# ---------------------------------------------------------------- the difficulty


def search_nodes(puzzle: PackingPuzzle, options: list[Placement] | None = None
                 ) -> tuple[int, int]:
    """(solutions, nodes) of the fixed plain search that grades a card (see the module's
    docstring): every solution counted, every placement tried counted as a node; the pieces
    the puzzle places are on the board before it starts. `options`: the placements of the
    puzzle without its placed pieces, where the caller has them."""
    if options is None:
        options = placements(dataclasses.replace(puzzle, placed=()))
    cells = {cell: len(puzzle.pieces) + i for i, cell in enumerate(puzzle.cells)}
    items = len(puzzle.pieces) + len(cells)
    cover = np.zeros((len(options), items), dtype=bool)
    for i, option in enumerate(options):
        cover[i, option.piece] = True
        cover[i, [cells[c] for c in option.cells]] = True
    taken = np.zeros(items, dtype=bool)  # already on the board: no node
    for p in puzzle.placed:
        taken[[p.piece] + [cells[c] for c in p.cells]] = True
    live = ~cover[:, taken].any(axis=1)
    open_items = ~taken
    tally = [0, 0]  # solutions, nodes

    def walk(live: np.ndarray, open_items: np.ndarray) -> None:
        if not open_items.any():
            tally[0] += 1
            return
        columns = np.flatnonzero(open_items)
        fits = cover[live][:, columns].sum(axis=0)
        item = columns[int(np.argmin(fits))]
        for i in np.flatnonzero(live & cover[:, item]):
            tally[1] += 1
            walk(live & ~cover[:, cover[i]].any(axis=1), open_items & ~cover[i])

    walk(live, open_items)
    return tally[0], tally[1]


# ---------------------------------------------------------------- solution classes


def solution_classes(listing: Listing) -> np.ndarray:
    """Each solution's class under the board's symmetries (the family's 'symmetry'), numbered
    from 0 in the order first met: solutions alike when a symmetry maps one onto the other."""
    _, maps = placement_maps(listing.puzzle, listing.options)
    rows = listing.rows
    least = rows.copy()
    for move in maps[1:]:
        image = np.sort(move[rows], axis=1)
        differ = image != least
        first = differ.argmax(axis=1)
        at = np.arange(len(rows))
        smaller = differ.any(axis=1) & (image[at, first] < least[at, first])
        least[smaller] = image[smaller]
    _, first_met, klass = np.unique(least, axis=0, return_index=True, return_inverse=True)
    renumber = np.empty(len(first_met), dtype=np.int64)
    renumber[np.argsort(first_met)] = np.arange(len(first_met))
    return renumber[klass.ravel()]


def unique_subsets(listing: Listing, row: int, size: int, rng: random.Random,
                   tries: int = 60) -> list[tuple[int, ...]]:
    """Some sets of `size` placements of solution `row` that no other solution holds: all of
    them when there are few, else those among `tries` drawn at random."""
    mine = [int(x) for x in listing.free[row]]
    if math.comb(len(mine), size) <= tries:
        subsets = list(itertools.combinations(mine, size))
    else:
        subsets = list({tuple(sorted(rng.sample(mine, size))) for _ in range(tries)})
    return [s for s in subsets if len(listing.holders(s)) == 1]


# ---------------------------------------------------------------- the booklet


@dataclass
class GradedCard:
    """A card of a generated booklet: its pieces, its one solution, and its grade."""

    name: str
    placed: tuple[Placed, ...]
    solution: dict[Cell, int]
    pieces_left: int
    nodes: int

    def note(self) -> str:
        return f"{pieces(self.pieces_left)} to place; difficulty {self.nodes:,} search nodes"


@dataclass
class MadeBooklet:
    """A generated booklet: its puzzle, its cards easiest first, how they were checked."""

    puzzle: PackingPuzzle
    cards: list[GradedCard]
    classes: int  # solutions up to the board's symmetries: the most cards a booklet holds
    measure: str
    checks: list[str]
    seconds: float

    def lines(self) -> list[str]:
        name = self.puzzle.name
        out = [f"{name}: {plural(len(self.cards), 'card')}, each with exactly one solution, no "
               "two of the same solution up to the board's symmetries "
               f"({plural(self.classes, 'such class')}), easiest first"]
        out += [f"  card {c.name}: {pieces(c.pieces_left)} to place, difficulty {c.nodes:,}"
                for c in self.cards]
        out.append(f"difficulty: {self.measure}")
        out += [f"checked: {check}" for check in self.checks]
        return out

    def booklet(self) -> Booklet:
        """The booklet as its file holds it."""
        return Booklet(self.puzzle, tuple(BookletCard(c.name, c.placed, c.note())
                                          for c in self.cards), self.puzzle.title)

    def write(self, folder: str, puzzle_name: str) -> list[str]:
        """The booklet in a folder (runners/pictures/booklet.py: booklet.toml naming the
        puzzle as `puzzle_name`, A4 pages, a PDF, play pages); the files written."""
        from .models.packing.booklet import booklet_text
        from .pictures.booklet import write_booklet

        title = self.puzzle.title or self.puzzle.name
        text = booklet_text(puzzle_name, self.booklet().cards,
                            [p.name for p in self.puzzle.pieces],
                            f"{title}: {plural(len(self.cards), 'card')}",
                            [f"{plural(len(self.cards), 'card')}, each with exactly one solution, "
                             f"easiest first; difficulty: {self.measure}; written by puzzlesat "
                             "booklet"])
        return write_booklet(self.puzzle, self.cards, folder, text, title)


@takes(puzzle=PUZZLE, cards=WHOLE, seed=WHOLE, check_backends=NAMES, backend=NAME, say=CALLABLE)
def make_booklet(puzzle, cards: int = 12, seed: int = 1,
                 check_backends: Sequence[str] = CHECK_BACKENDS, backend: str | None = None,
                 say: Say | None = None) -> MadeBooklet:
    """`cards` challenge cards of a packing puzzle, each with exactly one solution (counted on
    the two `check_backends` and by the grading search), of different solutions up to the
    board's symmetries, graded by the search nodes of the module's fixed search and spread from
    easy to hard (drawn with `seed`); easiest first."""
    from .api import _puzzle

    puzzle = check_packing(_puzzle(puzzle))
    if puzzle.placed:
        raise InputError("a booklet is made of a puzzle that places no piece itself",
                         field="puzzle")
    if not isinstance(cards, int) or isinstance(cards, bool) or cards < 1:
        raise InputError(f"must be a whole number of at least 1, not {cards!r}", field="cards")
    check_backends = check_backends_named(puzzle, check_backends)
    start = time.perf_counter()
    listing = list_solutions(puzzle, backend, say)
    klass = solution_classes(listing)
    classes = int(klass.max()) + 1 if len(klass) else 0
    if cards > classes:
        raise InputError(f"{puzzle.name} has {plural(classes, 'solution')} up to the board's "
                         f"symmetries ({len(listing.rows):,} in all): a booklet of different "
                         "solutions "
                         f"holds at most {plural(classes, 'card')}, not {cards:,}", field="cards")
    rng = random.Random(seed)
    first_of = np.unique(klass, return_index=True)[1]
    chosen_rows = rng.sample(sorted(int(r) for r in first_of), min(classes, POOL * cards))
    width = listing.free.shape[1]
    pool: list[tuple[int, tuple[int, ...], int]] = []  # (nodes, card, row)
    for n, row in enumerate(chosen_rows, 1):
        for size in range(1, max(2, width - 1)):  # two pieces left at least, where there are
            found = unique_subsets(listing, row, size, rng)
            if found:
                card = rng.choice(found)
                challenge = card_puzzle(puzzle, listing.placed(card), "candidate")
                solutions, nodes = search_nodes(challenge, listing.options)
                if solutions != 1:
                    raise ArithmeticError(f"a card held by one listed solution has {solutions} "
                                          "by the grading search")
                pool.append((nodes, card, row))
        if say and n % 10 == 0:
            say(f"{puzzle.name}: {len(pool)} candidate cards graded from {plural(n, 'solution')}")
    picked = spread(pool, cards, klass)
    if len(picked) < cards:
        raise InputError(f"{puzzle.name}: only {plural(len(picked), 'card')} of different "
                         "solutions with one solution each turned up among "
                         f"{plural(len(chosen_rows), 'solution')} drawn; "
                         f"ask for {len(picked)} or fewer", field="cards")
    graded = [GradedCard(str(i), listing.placed(card), listing.grid(row), width - len(card),
                         nodes) for i, (nodes, card, row) in enumerate(picked, 1)]
    checks = [check_booklet(puzzle, graded, check_backends)]
    return MadeBooklet(puzzle, graded, classes, MEASURE, checks, time.perf_counter() - start)


def spread(pool: list[tuple[int, tuple[int, ...], int]], wanted: int, klass: np.ndarray
           ) -> list[tuple[int, tuple[int, ...], int]]:
    """`wanted` candidates of different solution classes whose grades spread evenly (on a log
    scale) from the easiest to the hardest of the pool, easiest first."""
    pool = sorted(pool, key=lambda c: (c[0], c[1]))
    if not pool:
        return []
    grades = [math.log(c[0]) for c in pool]
    low, high = grades[0], grades[-1]
    used_class: set[int] = set()
    used: set[int] = set()
    picked = []
    for step in range(wanted):
        target = low + (high - low) * step / max(1, wanted - 1)
        at = bisect.bisect_left(grades, target)
        order = sorted(range(len(pool)), key=lambda i: (abs(grades[i] - target), abs(i - at)))
        for i in order:
            if i not in used and int(klass[pool[i][2]]) not in used_class:
                used.add(i)
                used_class.add(int(klass[pool[i][2]]))
                picked.append(pool[i])
                break
    return sorted(picked, key=lambda c: (c[0], c[1]))


def check_booklet(puzzle: PackingPuzzle, cards: Sequence[GradedCard],
                  backends: Sequence[str]) -> str:
    """Every card counts exactly one solution on each backend (count --limit 2)."""
    from . import api

    for card in cards:
        challenge = card_puzzle(puzzle, card.placed, f"{puzzle.name}-card-{card.name}")
        for name in backends:
            counted = api.count(challenge, backend=name, limit=2)
            if not counted.details["unique"]:
                raise ArithmeticError(f"card {card.name} ({placed_words(puzzle, card.placed)}) "
                                      f"counts {plural(counted.number, 'solution')} on {name}, not "
                                      "1")
    return (f"each of the {plural(len(cards), 'card')} has exactly one solution on "
            f"{' and '.join(backends)} (count --limit 2) and by the grading search")


# ---------------------------------------------------------------- the audit


@dataclass
class AuditedCard:
    name: str
    placed: int
    solutions: int
    nodes: int | None  # the grading search's nodes (where the card has one solution)
    note: str = ""


@dataclass
class Audit:
    """Each card of a booklet counted: unique or not, and how many solutions."""

    path: str
    puzzle: str
    cards: list[AuditedCard]
    backend: str

    @property
    def unique(self) -> int:
        return sum(c.solutions == 1 for c in self.cards)

    def lines(self) -> list[str]:
        out = [f"{self.path}: {plural(len(self.cards), 'card')} of {self.puzzle}; "
               f"{self.unique} unique (exactly one solution), {len(self.cards) - self.unique} "
               "not (solutions: ways to cover the board with the card's pieces where they are; "
               f"counted by {self.backend})"]
        for c in self.cards:
            state = ("unique" if c.solutions == 1 else "no solution" if c.solutions == 0
                     else f"not unique: {plural(c.solutions, 'solution')}")
            grade = f", difficulty {c.nodes:,} search nodes" if c.nodes is not None else ""
            out.append(f"  card {c.name}: {pieces(c.placed)} placed: {state}{grade}")
        return out

    def to_json(self) -> dict[str, object]:
        return {"booklet": self.path, "puzzle": self.puzzle, "backend": self.backend,
                "counted": "solutions of each card: coverings of the board holding the card's "
                           "pieces where they are, rotations and reflections counted apart",
                "unique": self.unique,
                "cards": [dataclasses.asdict(c) for c in self.cards]}


BOOKLET = Kind("the path of a booklet or challenge file (a str or a pathlib.Path) or a Booklet",
               lambda v: PATH.accepts(v) or isinstance(v, Booklet), PATH.convert)


@takes(booklet=BOOKLET, backend=NAME, grade=FLAG)
def audit(booklet: str | Booklet, backend: str | None = None, grade: bool = True) -> Audit:
    """Count every card of a booklet (a booklet file, a challenge file, or a Booklet): which
    are unique, and how many solutions the others have; `grade`: the unique ones' search
    nodes too."""
    from . import api

    found = read_booklet(booklet) if isinstance(booklet, str) else booklet
    check_packing(found.puzzle)
    audited = []
    chosen = backend
    options = placements(found.puzzle) if grade else []
    for card in found.cards:
        challenge = found.challenge(card)
        counted = api.count(challenge, backend=backend, jobs=1)
        chosen = counted.backend
        if not counted.complete:
            raise ArithmeticError(f"card {card.name}: the count did not finish")
        nodes = search_nodes(challenge, options)[1] if grade and counted.number == 1 else None
        audited.append(AuditedCard(card.name, len(card.placed), counted.number, nodes,
                                   card.note))
    return Audit(found.path or found.puzzle.name, found.puzzle.name, audited, chosen or "")
