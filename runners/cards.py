"""Cards for puzzle makers: the fewest pieces to place on a packing puzzle's board so that exactly
one solution is left, how many such cards there are, and the cards themselves.

A card (a challenge of a puzzle booklet) places some pieces where one solution has them; it is
unique when no other solution holds all of them. So a card of k pieces is a set of k placements
of one solution that no other solution contains: a hitting set of the differences between that
solution and every other. Found exactly from the set of all solutions:

- every solution is listed (by the default enumerator, or a backend asked for) as the sorted
  indices of its placements;
- for k = 0, 1, 2, ... every k-set of every solution's placements is given one number (its rank
  in the combinatorial number system) and the numbers are counted over all solutions (numpy:
  sorted and counted); the least k with a set held by one solution alone is the answer, and those
  sets are its cards;
- classes of cards under the board's symmetries (the family's 'symmetry': rotations, and mirror
  images where the set allows, a mirror giving each piece its twin's place) by the least image of
  each card, its orbit the labelled cards of its class; checked by Burnside's lemma.

Checks (each can fail): the listed solutions are distinct exact covers, as many as a second
backend counts; for sampled solutions, PySAT's minimum hitting-set solver (Hitman) over the
differences finds the same least card and the same cards of that size; sampled cards, posed as
challenges, count exactly one solution on two backends, and with a piece taken off at least two.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from .api import CALLABLE, FLAG, NAME, NAMES, PUZZLE, WHOLE, takes
from .benchmarks import whole
from .models.errors import InputError
from .models.geometry import Cell
from .models.packing import PackingPuzzle, Placed, Placement, placements
from .models.packing.plan import puzzle_symmetries, symmetry_group
from .models.symmetry import Group, burnside
from .models.words import plural
from .registry import default_backend

Say = Callable[[str], None]

# Sets of placements ranked at once: the sets themselves (8 bytes a placement), their ranks and
# the sort's copies, about 200 MB a pass at 4 x 10^6 sets of 4 (IQ Block 10's per-solution run
# peaked at 2.0 GB with 10^7); more sets are counted in several passes, each keeping the ranks of
# one residue.
MAX_SETS = 4_000_000
# Solutions listed at most: IQ Block 10's 101,792 take 18 s to list and 8 MB as placements; a
# puzzle with 10^7 solutions would take half an hour to list (count it, do not list it).
MAX_SOLUTIONS = 5_000_000
# Figures of a puzzle file's [published] table that are each a lower bound on its solutions
# (every class holds at least one): past MAX_SOLUTIONS the puzzle is refused before the listing
# (the one-sided pentominoes' 9x10, 10,440,433 classes published, listed for minutes first).
LOWER_BOUNDS = ("solutions", "classes", "rotation_classes")
SAY_EVERY = 5.0  # seconds between progress lines while solutions are listed
CHECK_BACKENDS = ("cpsat", "reference")  # each sampled card is counted on both
SMALL_LISTING = 20_000  # solutions counted again in this process, without workers


@dataclass
class Listing:
    """Every solution of a packing puzzle as the placements it uses.

    `rows[s]` holds solution s's placement indices (into `options`), ascending; `free` says which
    columns are pieces a card may place (not pre-placed by the puzzle itself)."""

    puzzle: PackingPuzzle
    options: list[Placement]
    rows: np.ndarray  # (solutions, pieces) int64
    backend: str
    seconds: float
    _held_by: list[np.ndarray] | None = field(default=None, repr=False)

    @property
    def free(self) -> np.ndarray:
        """The rows without the puzzle's own pre-placed pieces: what a card chooses from."""
        held = [i for i, o in enumerate(self.options)
                if any(o.piece == p.piece for p in self.puzzle.placed)]
        if not held:
            return self.rows
        return self.rows[~np.isin(self.rows, held)].reshape(len(self.rows), -1)

    def holders(self, card: Sequence[int]) -> np.ndarray:
        """The solutions (row numbers) holding every placement of the card."""
        if self._held_by is None:
            flat = self.rows.ravel()
            order = np.argsort(flat, kind="stable")
            bounds = np.searchsorted(flat[order], np.arange(len(self.options) + 1))
            width = self.rows.shape[1]
            self._held_by = [order[bounds[i]:bounds[i + 1]] // width
                             for i in range(len(self.options))]
        if not len(card):
            return np.arange(len(self.rows))
        lists = sorted((self._held_by[i] for i in card), key=len)  # the shortest first
        found = lists[0]
        for more in lists[1:]:
            found = np.intersect1d(found, more, assume_unique=True)
        return found

    def placed(self, card: Sequence[int]) -> tuple[Placed, ...]:
        """A card's placements as a challenge's pre-placed pieces."""
        return tuple(Placed(self.options[i].piece, tuple(sorted(self.options[i].cells)))
                     for i in card)

    def grid(self, row: int) -> dict[Cell, int]:
        """A solution as the piece on every cell."""
        return {cell: self.options[i].piece for i in self.rows[row]
                for cell in self.options[i].cells}


def check_packing(puzzle) -> PackingPuzzle:
    """The puzzle, if cards can be made of it: a packing puzzle whose pieces are each one of a
    kind (a challenge places pieces of one copy only)."""
    if not isinstance(puzzle, PackingPuzzle):
        raise InputError(f"cards are made of packing puzzles, not {puzzle.kind} puzzles",
                         field="puzzle")
    ranged = [p for p in puzzle.pieces if p.fewest != p.count]
    if ranged:
        raise InputError(f"piece {ranged[0].name} comes in any number ({ranged[0].fewest} to "
                         f"{ranged[0].count}); a card places pieces that are each one of a kind",
                         field="puzzle")
    copies = [p for p in puzzle.pieces if p.count > 1]
    if copies:
        raise InputError(f"piece {copies[0].name} comes in {plural(copies[0].count, 'copy')}; a "
                         "card places pieces that are each one of a kind", field="puzzle")
    return puzzle


def check_backends_named(puzzle: PackingPuzzle, names: Sequence[str]) -> tuple[str, ...]:
    """The backends each checked card is counted on, known and able to count the puzzle
    (refused before any work, in the words of the parameter that names them)."""
    from .registry import resolve

    if isinstance(names, str) or not names:
        raise InputError(f"names backends (a list), not {names!r}", field="check_backends")
    for name in names:
        try:
            resolve(name, puzzle.kind, "count")
        except InputError as error:
            raise InputError(error.message, field="check_backends") from None
    return tuple(names)


def list_solutions(puzzle: PackingPuzzle, backend: str | None = None,
                   say: Say | None = None) -> Listing:
    """Every solution, as placement indices (refused once more than MAX_SOLUTIONS are
    listed)."""
    puzzle = check_packing(puzzle)
    start = time.perf_counter()
    refuse_published(puzzle)
    options = placements(puzzle)
    index = {(o.piece, frozenset(o.cells)): i for i, o in enumerate(options)}
    lister = backend or default_backend(puzzle.kind, "count")[0]  # the fastest: bitboard
    rows = []
    said = start
    for n, chosen in enumerate(_chosen(puzzle, lister, options, index), 1):
        if n > MAX_SOLUTIONS:
            raise InputError(f"{puzzle.name} has more than {MAX_SOLUTIONS:,} solutions: too "
                             "many to list for cards (count them instead)", field="puzzle")
        rows.append(chosen)
        if say and time.perf_counter() - said > SAY_EVERY:
            said = time.perf_counter()
            say(f"{puzzle.name}: {plural(n, 'solution')} listed with {lister} (at most "
                f"{MAX_SOLUTIONS:,}), {said - start:.0f} s ...")
    array = np.array(rows, dtype=np.int64).reshape(len(rows), len(puzzle.pieces))
    return Listing(puzzle, options, array, lister, time.perf_counter() - start)


def refuse_published(puzzle: PackingPuzzle) -> None:
    """InputError, before any listing, where the puzzle file publishes more than MAX_SOLUTIONS
    solutions, or classes (each at least one solution)."""
    for key in LOWER_BOUNDS:
        figure = puzzle.published.get(key)
        if isinstance(figure, int) and not isinstance(figure, bool) and figure > MAX_SOLUTIONS:
            words = key.replace("_", " ")
            raise InputError(
                f"{puzzle.name} has at least {plural(figure, 'solution')} (its file's published "
                f"{words}, each at least one solution): more than the {MAX_SOLUTIONS:,} cards "
                "lists "
                f"(`puzzlesat count {puzzle.name}` counts them)", field="puzzle")


def _chosen(puzzle: PackingPuzzle, lister: str, options: list[Placement],
            index: dict) -> Iterator[list[int]]:
    """Each solution's placement indices, ascending: from the values of a backend solving the
    family's own model of these placements, or (a backend with its own model, the reference)
    from the solutions' grids."""
    from . import api
    from .registry import family_of, resolve

    backend = resolve(lister, puzzle.kind, "count")
    if family_of(puzzle).owns(backend):  # the reference: its own model, read from its grids
        for solution in api.solutions(puzzle, lister, limit=MAX_SOLUTIONS + 1):
            by_piece: dict[int, list[Cell]] = {}
            for cell, piece in solution.grid.items():
                by_piece.setdefault(piece, []).append(cell)
            yield sorted(index[(piece, frozenset(cells))] for piece, cells in by_piece.items())
        return
    model = family_of(puzzle).encode(puzzle, backend, options)
    for values in backend.solutions(model, MAX_SOLUTIONS + 1):
        yield np.flatnonzero(np.frombuffer(bytes(values), dtype=np.uint8)).tolist()


# ---------------------------------------------------------------- sets held by one solution


def rank_table(base: int, k: int) -> np.ndarray:
    """comb(c, i + 1) for every c < base and position i < k: the rank of a sorted k-set
    c_0 < c_1 < ... is the sum of table[i, c_i] (the combinatorial number system), below
    comb(base, k)."""
    if math.comb(base, k) >= 2**62:
        raise InputError(f"sets of {k} of {plural(base, 'placement')} are too many to rank in 64 "
                         "bits",
                         field="puzzle")
    return np.array([[math.comb(c, i + 1) for c in range(base)] for i in range(k)],
                    dtype=np.int64).reshape(k, base)


def ranks(sets: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The rank of every sorted set along the last axis."""
    found = np.zeros(sets.shape[:-1], dtype=np.int64)
    for i in range(sets.shape[-1]):
        found += table[i][sets[..., i]]
    return found


def _held_once_passes(rows: np.ndarray, k: int, base: int
                      ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The k-sets of placements held by exactly one solution, a pass at a time: (the row of
    the solution holding each, the columns of that row it takes). A pass ranks the sets whose
    largest placement falls in one residue class (a set and its copies in other solutions
    share it), at most about MAX_SETS at once."""
    count, width = rows.shape
    choose = np.array(list(itertools.combinations(range(width), k)), dtype=np.intp)
    table = rank_table(base, k)
    passes = max(1, -(-count * len(choose) // MAX_SETS))
    block = max(1, MAX_SETS // len(choose))
    for part in range(passes):
        keys, where = [], []
        for first in range(0, count, block):
            some = rows[first:first + block]
            at = np.arange(len(some) * len(choose))
            if passes > 1:  # the largest placement of each set: its last column
                at = np.flatnonzero(some[:, choose[:, -1]] % passes == part)
            sets = some[(at // len(choose))[:, None], choose[at % len(choose)]]
            keys.append(ranks(sets, table))
            where.append(at + first * len(choose))
        keys_all, where_all = np.concatenate(keys), np.concatenate(where)
        del keys, where
        _, first_at, times = np.unique(keys_all, return_index=True, return_counts=True)
        once = where_all[first_at[times == 1]]
        yield once // len(choose), choose[once % len(choose)]


def held_once(rows: np.ndarray, k: int, base: int) -> tuple[np.ndarray, np.ndarray]:
    """The k-sets of placements held by exactly one solution: (sets (m, k) ascending, the row
    of the solution holding each). Rows hold ascending placement indices below `base`."""
    count = len(rows)
    if k == 0:
        return (np.zeros((int(count == 1), 0), dtype=np.int64),
                np.zeros(int(count == 1), dtype=np.int64))
    sets, owners = [], []
    for owner, columns in _held_once_passes(rows, k, base):
        sets.append(np.sort(rows[owner[:, None], columns], axis=1))
        owners.append(owner)
    found, owner = np.concatenate(sets), np.concatenate(owners)
    order = np.lexsort(found.T[::-1]) if len(found) else np.arange(0)
    return found[order], owner[order]


def holding_once(rows: np.ndarray, k: int, base: int) -> np.ndarray:
    """Which solutions hold some k-set of placements that no other solution holds (the sets
    themselves are not kept: a tenth of held_once's memory where they are millions)."""
    found = np.zeros(len(rows), dtype=bool)
    if k == 0:
        found[:] = len(rows) == 1
        return found
    for owner, _ in _held_once_passes(rows, k, base):
        found[owner] = True
    return found


def least_per_solution(rows: np.ndarray, base: int, start: int = 0,
                       say: Say | None = None) -> np.ndarray:
    """The fewest pieces that make a card of each solution (the whole width where none does:
    only when the puzzle has one solution, or two solutions alike on every piece)."""
    count, width = rows.shape
    least = np.full(count, -1, dtype=np.int64)
    for k in range(start, width + 1):
        fresh = holding_once(rows, k, base) & (least < 0)
        least[fresh] = k
        if say:
            say(f"cards of {pieces(k)}: {int(fresh.sum()):,} more solutions have one")
        if (least >= 0).all():
            break
    return least


# ---------------------------------------------------------------- classes under symmetry


def placement_maps(puzzle: PackingPuzzle, options: list[Placement], modulo: str = "symmetry"
                   ) -> tuple[Group, np.ndarray]:
    """The board's symmetries as maps of placement indices (one row each, identity first)."""
    index = {(o.piece, frozenset(o.cells)): i for i, o in enumerate(options)}
    maps = []
    for symmetry in puzzle_symmetries(puzzle, modulo):
        maps.append([index[symmetry.placed(o.piece, o.cells)] for o in options])
    return symmetry_group(puzzle, modulo), np.array(maps, dtype=np.int64).reshape(
        len(maps), len(options))


def card_classes(cards: np.ndarray, maps: np.ndarray, base: int) -> tuple[np.ndarray, int]:
    """Each card's class (numbered from 0 in the order first met) and how many classes, from
    the least rank of its images; the number is checked by Burnside's lemma (the cards each
    symmetry leaves unchanged), which shares nothing with the least images but the maps."""
    if not len(cards):
        return np.zeros(0, dtype=np.int64), 0
    k = cards.shape[1]
    table = rank_table(base, max(k, 1))[:k]
    own = ranks(cards, table)
    least = own.copy()
    fixed = []
    for move in maps:
        image = ranks(np.sort(move[cards], axis=1), table)
        least = np.minimum(least, image)
        fixed.append(int((image == own).sum()))
    _, first, klass = np.unique(least, return_index=True, return_inverse=True)
    renumber = np.empty(len(first), dtype=np.int64)
    renumber[np.argsort(first)] = np.arange(len(first))
    classes = len(first)
    if burnside(fixed) != classes:
        raise ArithmeticError(f"{plural(classes, 'class')} of cards by least images, "
                              f"{burnside(fixed)} by Burnside's lemma: a symmetry is wrong")
    return renumber[klass.ravel()], classes


# ---------------------------------------------------------------- the result


@dataclass
class Card:
    """A card: the pieces it places (where they are), the one solution it leaves, and how many
    labelled cards its class under the board's symmetries holds."""

    placed: tuple[Placed, ...]
    solution: dict[Cell, int]
    orbit: int

    def to_json(self, puzzle: PackingPuzzle) -> dict[str, object]:
        return {"placed": {puzzle.pieces[p.piece].name: [list(c) for c in p.cells]
                           for p in self.placed}, "orbit": self.orbit}


@dataclass
class Cards:
    """The least cards of a packing puzzle: how few pieces, how many cards, the cards."""

    puzzle: str
    title: str
    solutions: int  # every solution, rotations and reflections counted as different
    least: int | None  # fewest pieces a unique card places (None: no solution at all)
    labelled: int  # cards of that many pieces: placed pieces where they are
    classes: int  # those cards up to the board's symmetries
    group: Group
    cards: list[Card]  # one per class, the first met
    method: str
    checks: list[str]
    per_solution: dict[int, int] | None  # solutions by the fewest pieces making a card of them
    seconds: dict[str, float]
    listed_by: str
    pieces: int  # pieces a card may place (those not pre-placed by the puzzle itself)
    placed_by_puzzle: int = 0

    def lines(self) -> list[str]:
        """What was found, each number with what it counts."""
        name = self.puzzle
        held = (f" (beside the {plural(self.placed_by_puzzle, 'piece')} the puzzle places itself)"
                if self.placed_by_puzzle else "")
        out = [f"{name}: {plural(self.solutions, 'solution')} (ways to cover the board, "
               f"rotations and reflections counted as different), listed by {self.listed_by}"]
        if self.least is None:
            return out + [f"{name}: no solution, so no card"]
        if self.least == 0:
            out.append(f"{name}: unique as it is" + (
                f", with the {pieces(self.placed_by_puzzle)} it places" if self.placed_by_puzzle
                else "") + ": no card needs a piece placed")
        else:
            out += self._found(held)
        out.append(f"method: {self.method}")
        out += [f"checked: {check}" for check in self.checks]
        return out

    def _found(self, held: str) -> list[str]:
        name = self.puzzle
        out = [f"{name}: the fewest pieces a card places for exactly one solution: "
               f"{self.least}{held}; no card of {pieces(self.least - 1)} has one solution"]
        out.append(f"{name}: {plural(self.labelled, 'card')} of {pieces(self.least)} (labelled: "
                   "pieces where they are, a card and its turned or mirrored images counted "
                   f"apart); {plural(self.classes, 'class')} under the board's symmetries "
                   f"({self.group.describe()})")
        if self.per_solution:
            parts = ", ".join(f"{n:,} need {k}" for k, n in sorted(self.per_solution.items()))
            out.append(f"{name}: the fewest pieces making a card of each solution: {parts} "
                       f"(of {plural(self.solutions, 'solution')})")
        return out

    def to_json(self, puzzle: PackingPuzzle, most: int | None = None) -> dict[str, object]:
        """The result as JSON, with the first `most` cards (all: None)."""
        shown = self.cards if most is None else self.cards[:most]
        return {
            "puzzle": self.puzzle, "title": self.title, "solutions": self.solutions,
            "solutions_counted": "ways to cover the board, rotations and reflections counted "
                                 "as different",
            "least": self.least, "labelled": self.labelled,
            "labelled_counted": "cards placing `least` pieces that leave exactly one solution; "
                                "pieces where they are: a card's turned or mirrored images are "
                                "counted apart",
            "classes": self.classes,
            "classes_counted": f"those cards under the board's symmetries "
                               f"({self.group.describe()})",
            "group": self.group.to_json(),
            "per_solution": None if self.per_solution is None else {
                str(k): n for k, n in sorted(self.per_solution.items())},
            "method": self.method, "checks": self.checks, "listed_by": self.listed_by,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "cards_shown": f"{len(shown):,} of the {plural(len(self.cards), 'class')}, one card "
                           "each (all of them: puzzlesat cards -o FILE)",
            "cards": [card.to_json(puzzle) for card in shown],
        }


def card_puzzle(puzzle: PackingPuzzle, placed: Sequence[Placed], name: str) -> PackingPuzzle:
    """The challenge a card poses: the puzzle with the card's pieces (and its own) placed."""
    return dataclasses.replace(puzzle, name=name, placed=tuple(puzzle.placed) + tuple(placed))


@takes(puzzle=PUZZLE, backend=NAME, checks=WHOLE, check_backends=NAMES, per_solution=FLAG,
       seed=WHOLE, say=CALLABLE)
def minimal_cards(puzzle, backend: str | None = None, checks: int = 10,
                  check_backends: Sequence[str] = CHECK_BACKENDS, per_solution: bool = False,
                  seed: int = 1, say: Say | None = None) -> Cards:
    """The fewest pieces a card of the puzzle places for exactly one solution, how many such
    cards there are (labelled, and classes under the board's symmetries), one card per class.

    backend: lists the solutions (default: the family's default for counting); checks: solutions and
    cards sampled for the checks (0: none); check_backends: the two backends each sampled card
    is counted on; per_solution: also the fewest pieces making a card of each solution."""
    from .api import _puzzle

    puzzle = check_packing(_puzzle(puzzle))
    if not isinstance(checks, int) or isinstance(checks, bool) or checks < 0:
        raise InputError(f"must be a whole number, 0 or more, not {checks!r}", field="checks")
    check_backends = check_backends_named(puzzle, check_backends)
    seconds: dict[str, float] = {}
    listing = list_solutions(puzzle, backend, say)
    seconds["list"] = listing.seconds
    rows, base = listing.free, len(listing.options)
    begin = time.perf_counter()
    least, sets, owners = None, np.zeros((0, 0), dtype=np.int64), np.zeros(0, dtype=np.int64)
    for k in range(rows.shape[1] + 1) if len(rows) else ():
        sets, owners = held_once(rows, k, base)
        if say and k:
            say(f"{puzzle.name}: {plural(len(sets), 'card')} of {pieces(k)}")
        if len(sets):
            least = k
            break
    seconds["sets"] = time.perf_counter() - begin
    begin = time.perf_counter()
    group, maps = placement_maps(puzzle, listing.options)
    klass, classes = card_classes(sets, maps, base)
    orbit = np.bincount(klass, minlength=classes) if classes else np.zeros(0, dtype=np.int64)
    first = np.unique(klass, return_index=True)[1] if classes else np.zeros(0, dtype=np.int64)
    cards = [Card(listing.placed(sets[i]), listing.grid(owners[i]), int(orbit[klass[i]]))
             for i in sorted(first, key=lambda i: klass[i])]
    seconds["classes"] = time.perf_counter() - begin
    spread = None
    if per_solution and least is not None:
        begin = time.perf_counter()
        each = least_per_solution(rows, base, least, say)
        spread = {int(k): int(n) for k, n in zip(*np.unique(each, return_counts=True))}
        seconds["per_solution"] = time.perf_counter() - begin
    method = (f"every solution listed by {listing.backend} as its placements; sets of k "
              "placements of every solution ranked and counted over all solutions for k = 0, "
              "1, ... (numpy): the least k with a set held by one solution alone, those sets "
              "its cards; classes by each card's least image under the board's symmetries, "
              "checked by Burnside's lemma")
    done = []
    if checks and least is not None:
        begin = time.perf_counter()
        done = check_cards(listing, sets, owners, least, checks, check_backends, seed, say)
        seconds["checks"] = time.perf_counter() - begin
    return Cards(puzzle.name, puzzle.title, len(listing.rows), least, len(sets), classes, group,
                 cards, method, done, spread, seconds, listing.backend, rows.shape[1],
                 len(puzzle.placed))


# ---------------------------------------------------------------- checks


def check_cards(listing: Listing, sets: np.ndarray, owners: np.ndarray, least: int, samples: int,
                backends: Sequence[str], seed: int, say: Say | None) -> list[str]:
    """Check the listing and the cards; an ArithmeticError names the first that fails."""
    from . import api

    puzzle = listing.puzzle
    done = [check_listing(listing, backends[0] if backends[0] != listing.backend
                          else backends[-1])]
    rng = random.Random(seed)
    rows = listing.free
    picked = sorted(rng.sample(range(len(owners)), min(samples, len(owners))))
    owning = sorted({int(owners[i]) for i in picked})
    others = sorted(set(rng.sample(range(len(rows)), min(samples, len(rows)))) - set(owning))
    for row in owning + others:
        found_least, found = hitting_sets(rows, row)
        if found_least < least:
            raise ArithmeticError(f"Hitman finds a card of {plural(found_least, 'piece')} for "
                                  f"solution {row + 1}, fewer than {least}")
        mine = {tuple(s) for s in sets[owners == row]}
        if found_least == least and found != mine:
            raise ArithmeticError(f"solution {row + 1}: Hitman's cards of {plural(least, 'piece')} "
                                  f"differ from those counted ({len(found)} against {len(mine)})")
        if row in owning and found_least != least:
            raise ArithmeticError(f"solution {row + 1} holds a card of {plural(least, 'piece')} "
                                  f"but Hitman's least is {found_least}")
    done.append(f"{plural(len(owning) + len(others), 'solution')} ({len(owning)} holding "
                f"sampled cards, "
                f"{len(others)} drawn at random): PySAT's minimum hitting-set solver (Hitman) "
                "over each one's differences with every other solution finds the same fewest "
                "pieces and, where that is the least, the same cards")
    for n, i in enumerate(picked, 1):
        card = listing.placed(sets[i])
        challenge = card_puzzle(puzzle, card, f"{puzzle.name}-card-{n}")
        for name in backends:
            counted = api.count(challenge, backend=name, limit=2)
            if not counted.details["unique"]:
                raise ArithmeticError(f"card {n} ({placed_words(puzzle, card)}) counts "
                                      f"{plural(counted.number, 'solution')} on {name}, not 1")
        if least:
            fewer = card_puzzle(puzzle, card[:-1], f"{puzzle.name}-card-{n}-less")
            counted = api.count(fewer, backend=backends[0], limit=2)
            if counted.number < 2:
                raise ArithmeticError(f"card {n} without its last piece counts "
                                      f"{counted.number} on {backends[0]}, not at least 2")
    done.append(f"{plural(len(picked), 'card')} drawn at random, each posed as a challenge: "
                "exactly one "
                f"solution on {' and '.join(backends)} (count --limit 2)"
                + (f"; with a piece taken off, at least two on {backends[0]}" if least else ""))
    return done


def check_listing(listing: Listing, backend: str) -> str:
    """The listed solutions are distinct exact covers of the board, as many as `backend`
    counts (modulo symmetry, its count of solutions by Burnside's lemma where it reduces)."""
    from . import api

    puzzle, rows = listing.puzzle, listing.rows
    cells = {cell: i for i, cell in enumerate(puzzle.cells)}
    cover = np.zeros((len(listing.options), len(cells)), dtype=np.int8)
    for i, option in enumerate(listing.options):
        cover[i, [cells[c] for c in option.cells]] = 1
    pieces = np.array([o.piece for o in listing.options])
    for first in range(0, len(rows), 65536):
        block = rows[first:first + 65536]
        if not (cover[block].sum(axis=1) == 1).all() or not (
                np.sort(pieces[block], axis=1) == np.arange(len(puzzle.pieces))).all():
            raise ArithmeticError(f"a solution listed by {listing.backend} is not an exact cover")
    if len(np.unique(rows, axis=0)) != len(rows):
        raise ArithmeticError(f"{listing.backend} listed a solution twice")
    # a small count is not worth starting worker processes (a few seconds each)
    jobs = 1 if len(rows) < SMALL_LISTING else None
    counted = whole(api.count(puzzle, backend=backend, modulo="symmetry", jobs=jobs))
    if not counted.complete or counted.details["solutions"] != len(rows):
        raise ArithmeticError(f"{listing.backend} listed {plural(len(rows), 'solution')}, "
                              f"{backend} counts {counted.details['solutions']:,}")
    return (f"{plural(len(rows), 'solution')} listed, each a distinct exact cover of the board, "
            f"as many as {backend} counts ({counted.seconds:.1f} s)")


def hitting_sets(rows: np.ndarray, row: int) -> tuple[int, set[tuple[int, ...]]]:
    """The fewest placements of solution `row` that no other solution holds, and every set of
    that many: minimum hitting sets of its differences with the others (PySAT's Hitman)."""
    from pysat.examples.hitman import Hitman

    mine = rows[row]
    shared = np.isin(rows, mine).any(axis=1)
    shared[row] = False
    inside = (rows[shared][:, :, None] == mine[None, None, :]).any(axis=1)
    differences = {tuple(int(x) for x in mine[~holds]) for holds in np.unique(inside, axis=0)}
    if (~shared).sum() > 1:  # a solution sharing no placement: its difference is all of `mine`
        differences.add(tuple(int(x) for x in mine))
    if not differences:
        return 0, {()}
    with Hitman(bootstrap_with=[list(d) for d in differences], htype="sorted") as hitman:
        first = hitman.get()
        found = {tuple(sorted(first))}
        hitman.block(first)
        for more in iter(hitman.get, None):
            if len(more) > len(first):
                break
            found.add(tuple(sorted(more)))
            hitman.block(more)
    return len(first), found


def pieces(n: int) -> str:
    """'1 piece', '2 pieces'."""
    return plural(n, "piece")


def placed_words(puzzle: PackingPuzzle, placed: Sequence[Placed]) -> str:
    """A card's pieces in a line: 'B2 at r1c0 r1c1 ...; B4 at ...'."""
    name = puzzle.lattice.cell_name
    return "; ".join(f"{puzzle.pieces[p.piece].name} at {' '.join(name(c) for c in p.cells)}"
                     for p in placed)
