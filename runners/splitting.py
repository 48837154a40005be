"""Cubes split on demand: a count's cubes as parts that a long cube is cut into.

The largest cube sets a count's wall (the one-sided 9x10's longest cube, 2,651 of 43,726 s,
held 64 workers to 16.5 times one). Where a backend can split a cube (Backend.split: children
one step deeper whose solutions are exactly the cube's), the counting engine counts parts:

- before the run, parts whose Knuth estimate (Backend.estimate) is above their share of the
  estimated work (all of it over workers * SHARE) are replaced by their children, again while
  any is, up to DEPTH levels (`presplit`);
- during it, a part given a budget (Split.after seconds) that runs past it unfinished is
  stopped where its search is: what it finished stands (Backend.count_part) and the branches
  after that point are counted in the next round, with the same budget (where a backend cannot
  say where it was, its partial work is thrown away, counted as wasted, its children counted
  instead, and the budget doubled: a cube wastes at most about its own time).

A checkpoint records a part by the literals its splits added to its cube; a resumed count
rebuilds the same parts from those lines (a cube's children are the same in every process), so
a split cube counts once, by its parts, whichever run split it, and a count cut while cubes were
being split resumes to the exact total.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .backends import Cube, Values
from .executors import Work
from .models.errors import InputError

# Workers from which a count splits its cubes unless told (--split-for): the one-sided 5x18
# modulo symmetry (results/split.md), its cubes as planned handed to 16 workers took 8.2 times
# the work over 16 and to 64 workers 32.8 times, split 1.00 and 1.3-1.7; the split plan's CPU
# was 1.38 times one worker's (each part's estimates and set-up): a price worth paying where
# the planned cubes hold many workers back, not yet measured as one below 16.
SPLIT_FROM_WORKERS = 16
SHARE = 4  # parts per worker the split before the run aims at
DEPTH = 8  # levels a cube is split at most before the run
MOST_PARTS = 50_000  # parts a split before the run stops at (the estimates' time)
# Knuth's estimate of the bitboard search's tree (dead regions cut) runs at about 6.5 M nodes a
# second of its count (the one-sided 5x18 --modulo symmetry: 7.7e8 nodes, 110 s; the
# tetrominoes and pentominoes' 4x20: 6.6e9, 1,100 s), and costs about 10 ms a part (1,000
# paths). A count estimated under SPLIT_FROM_NODES (about 15 s of search) is not split before
# the run (the 6x10 pentominoes, 7e5 nodes and 1 s: 581 parts' estimates took 5.7 s), and no
# part under MIN_PART_NODES (about 0.15 s, 15 estimates' time) is split.
SPLIT_FROM_NODES = 1e8
MIN_PART_NODES = 1e6
NODES_PER_SECOND = 6.5e6
# A count split before the run splits while running too, where no budget was asked for: a part
# running past its share of the estimated seconds (estimates miss: the one-sided 9x10's
# longest cubes, 1,500-2,651 s, were estimated at 4-28% of that), at least LEAST_BUDGET seconds.
LEAST_BUDGET = 1.0


@dataclass(frozen=True)
class Split:
    """How a count splits its cubes: before the run, for `workers` workers (None: not before
    the run); during it, a part running past `after` seconds (None: a count split before the
    run takes `auto_budget`, another none)."""

    workers: int | None = None
    after: float | None = None

    def __post_init__(self) -> None:
        if self.workers is not None and (type(self.workers) is not int or self.workers < 1):
            raise InputError(f"split for a whole number of workers, at least 1, not "
                             f"{self.workers!r}", field="split_for")
        if self.after is not None and not (isinstance(self.after, (int, float))
                                           and not isinstance(self.after, bool)
                                           and self.after > 0):
            raise InputError(f"split after a number of seconds above 0, not {self.after!r}",
                             field="split_after")


@dataclass
class Part:
    """A part of one of a work's cubes: the cube's index, the literals splits added, and its
    count once it finished (or was read from the checkpoint)."""

    cube: int
    added: tuple[int, ...]
    literals: Cube
    share: float  # its fraction of the cube (for the progress bar): 1 for a whole cube
    size: float | None = None  # Knuth's estimate, where made
    values: Values | None = None
    finished: bool = False
    seconds: float | None = None
    resumed: bool = False
    replaced: bool = False  # split into children (which count instead)
    # stopped to be split where its search was at this path down its children
    # (Backend.count_part): its numbers are those of the branches before the path, and the
    # branches after it are parts of their own
    rest: list[int] | None = None


@dataclass
class Parts:
    """One work's parts, and what splitting cost: `wasted` seconds of parts stopped to be
    split, `splits` parts split in all."""

    work: Work
    parts: list[Part]
    backend: object = None
    state: object = None  # the backend's state for split and estimate, made when first asked
    wasted: float = 0.0
    splits: int = 0
    live: list[int] = field(default_factory=list)

    @property
    def splittable(self) -> bool:
        return self.backend is not None and type(self.backend).split is not _no_split()

    def _state(self) -> object:
        if self.state is None:
            self.state = self.backend.prepare_for_estimates(self.work.payload)
        return self.state

    def children(self, part: Part) -> list[Part] | None:
        """A part's children (None: it cannot be split)."""
        found = self.backend.split(self._state(), part.literals) if self.splittable else None
        if found is None:
            return None
        n = max(1, len(found))
        return [Part(part.cube, part.added + tuple(c[len(part.literals):]), tuple(c),
                     part.share / n) for c in found]

    def the_rest(self, part: Part, rest: list[int]) -> list[Part]:
        """A part stopped where its search was at the path `rest` (Backend.count_part): the
        parts that follow the path, level by level (its own numbers are those before it)."""
        part.rest = list(rest)
        self.splits += 1
        found: list[Part] = []
        node = part
        for level, place in enumerate(rest):
            children = self.children(node) or []
            if level == len(rest) - 1:
                return found + children[place:]
            if place >= len(children):
                break
            found += children[place + 1:]
            node = children[place]
        raise InputError(f"a stopped part's path {rest} is not one of its search's: written by "
                         "another version of the backend", field="checkpoint")

    def replace(self, index: int, children: list[Part]) -> list[int]:
        """Part `index` replaced by its children (indexes of the new parts returned)."""
        self.parts[index].replaced = True
        self.splits += 1
        start = len(self.parts)
        self.parts.extend(children)
        return list(range(start, start + len(children)))

    def counted(self) -> Work:
        """The work the executors run: the parts as its cubes (same token and payload)."""
        w = self.work
        weights = None if w.weights is None else [w.weights[p.cube] for p in self.parts]
        sizes = ([p.size or 1.0 for p in self.parts] if any(p.size for p in self.parts)
                 else None)
        return dataclasses.replace(w, cubes=[p.literals for p in self.parts], weights=weights,
                                   sizes=sizes)

    def pending(self) -> list[int]:
        """The parts left to count, the largest estimate first."""
        left = [i for i, p in enumerate(self.parts) if not p.finished and not p.replaced]
        return sorted(left, key=lambda i: -(self.parts[i].size or 0.0))


def _no_split():
    from .backends import Backend

    return Backend.split


def resumed(work: Work, checkpoint, backend) -> Parts:
    """A work's parts: its cubes, those the checkpoint holds whole finished, those it holds
    by parts rebuilt by the same splits (their recorded parts finished, the rest pending)."""
    found = Parts(work, [], backend)
    for i, cube in enumerate(work.cubes):
        whole = checkpoint.done.get((work.label, i)) if checkpoint else None
        recorded = checkpoint.parts.get((work.label, i), {}) if checkpoint else {}
        root = Part(i, (), tuple(cube), 1.0, work.sizes[i] if work.sizes else None)
        if whole is not None:
            root.values, root.finished, root.resumed = tuple(whole), True, True
            root.seconds = checkpoint.seconds.get((work.label, i))
            found.parts.append(root)
        elif recorded:
            _rebuild(found, root, recorded, checkpoint, work.label)
        else:
            found.parts.append(root)
    return found


def _rebuild(found: Parts, root: Part, recorded: dict, checkpoint, label: str) -> None:
    """A cube's parts from the checkpoint's lines of them: a part with recorded parts below it
    was split (its children made again), a recorded one finished; a line no split reaches is a
    checkpoint of other splits, refused (the count would lose its part)."""
    reached = 0
    stack = [root]
    while stack:
        part = stack.pop()
        if part.added in recorded:
            part.values, part.finished, part.resumed = tuple(recorded[part.added]), True, True
            part.seconds = checkpoint.part_seconds.get((label, part.cube, part.added))
            reached += 1
            found.parts.append(part)
            rest = checkpoint.rests.get((label, part.cube, part.added))
            if rest is not None:
                stack.extend(reversed(found.the_rest(part, rest)))
            continue
        n = len(part.added)
        below = any(len(a) > n and a[:n] == part.added for a in recorded)
        children = found.children(part) if below else None
        if children is None:
            found.parts.append(part)
            continue
        found.splits += 1
        part.replaced = True
        found.parts.append(part)
        stack.extend(reversed(children))
    if reached != len(recorded):
        raise InputError(f"parts of cube {root.cube} ({label}) that this count's splits do not "
                         "make: written by another version of the backend",
                         file=str(checkpoint.path), field="checkpoint")


def presplit(found: Parts, workers: int) -> float:
    """Split the pending parts whose estimated size is above their share (all the estimated
    work over workers * SHARE), level by level (at most DEPTH), until none is or MOST_PARTS;
    the estimated work (0: too little to split, or no estimates)."""
    if not found.splittable or not hasattr(found.backend, "estimate"):
        return 0.0
    state = found._state()
    for i in found.pending():
        part = found.parts[i]
        if part.size is None:  # (the count's own estimates, where it shows its time left)
            part.size = max(1.0, float(found.backend.estimate(state, part.literals)))
    work = sum(found.parts[i].size for i in found.pending())
    if work < SPLIT_FROM_NODES:
        return 0.0
    for _ in range(DEPTH):
        pending = found.pending()
        if not pending:
            break
        share = max(MIN_PART_NODES,
                    sum(found.parts[i].size for i in pending) / (workers * SHARE))
        large = [i for i in pending if found.parts[i].size > share]
        if not large or len(found.parts) + 8 * len(large) > MOST_PARTS:
            break
        for i in large:
            children = found.children(found.parts[i])
            if children is None:
                continue
            for child in children:
                child.size = max(1.0, float(found.backend.estimate(state, child.literals)))
            found.replace(i, children)
    return work


def auto_budget(work: float, workers: int) -> float | None:
    """The budget of a count split before the run for `workers` workers, where none was asked
    for: its estimated seconds (`work`, Knuth's nodes, over NODES_PER_SECOND) over workers *
    SHARE, at least LEAST_BUDGET; None where it was not split (too little work)."""
    if work <= 0:
        return None
    return max(LEAST_BUDGET, work / NODES_PER_SECOND / (workers * SHARE))


def cube_tallies(found: Parts) -> tuple[list, list[bool], list, list[bool]]:
    """Per cube of the work: its numbers (the sum of its finished parts'; None where no part
    is counted), whether every part finished, its seconds (its parts' together), and whether
    it was read from the checkpoint."""
    n = len(found.work.cubes)
    values: list = [None] * n
    finished = [True] * n
    seconds: list = [None] * n
    resumed = [True] * n
    for p in found.parts:
        if p.replaced:
            continue
        i = p.cube
        finished[i] = finished[i] and p.finished
        resumed[i] = resumed[i] and p.resumed
        if p.values is not None:
            values[i] = p.values if values[i] is None else tuple(
                a + b for a, b in zip(values[i], p.values))
        if p.seconds is not None:
            seconds[i] = (seconds[i] or 0.0) + p.seconds
    width = next((len(p.values) for p in found.parts if p.values is not None), 1)
    for i in range(n):  # a cube whose every part was found empty by its split
        if finished[i] and values[i] is None:
            values[i] = (0,) * width
    return values, finished, seconds, resumed
