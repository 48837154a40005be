"""Cubes split on demand: a count's cubes as parts that a long cube is cut into.

The largest cube sets a count's wall (the one-sided 9x10's longest cube, 2,651 of 43,726 s,
held 64 workers to 16.5 times one). Where a backend can split a cube (Backend.split: children
one step deeper whose solutions are exactly the cube's), the counting engine counts parts: a
part given a budget (Split.after seconds, or for `workers` workers the estimated work over
workers * SHARE) that runs past it unfinished is stopped where its search is: what it finished
stands (Backend.count_part) and the branches after that point are new parts, which the workers
that are free take at once, with the same budget (where a backend cannot say where it was, its
partial work is thrown away, counted as wasted, its children counted instead, and the budget
made twice its seconds: a cube wastes at most about its own time).

Parts are cut by the time they take, never by Knuth's estimates of them: cutting the one-sided
5x18 --modulo symmetry into 2,277 parts by their estimates before the run cost 1.15-1.36 times
one worker's CPU (each part's estimates), against 1.00-1.03 cut by a budget (session 12).

A checkpoint records a part by the literals its splits added to its cube; a resumed count
rebuilds the same parts from those lines (a cube's children are the same in every process), so
a split cube counts once, by its parts, whichever run split it, and a count cut while cubes were
being split resumes to the exact total.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .backends import FEWEST, REST_FEWEST, Cube, Values
from .executors import Work
from .models.errors import InputError

# Workers from which a count splits its cubes unless told (--split-for): the one-sided 5x18
# modulo symmetry (results/split.md), its cubes as planned handed to 16 workers took 8.2 times
# the work over 16 and to 64 workers 32.8 times; split by a budget, its CPU is that of one
# worker (1.00-1.03 times): a split costs its parts' set-up, worth paying where the planned
# cubes hold many workers back, not measured as a gain below 16.
SPLIT_FROM_WORKERS = 16
SHARE = 4  # parts per worker a budget aims at
# The budget of a count split for N workers: its estimated seconds (Knuth's estimate of the
# cubes' trees over NODES_PER_SECOND) over N * SHARE. The bitboard search counts about
# NODES_PER_SECOND of the estimate's nodes a second (the one-sided 5x18 --modulo symmetry:
# 7.7e8 estimated nodes, 28 s on one thread: the memo cuts the tree the estimate sees; session
# 12); where it is faster, parts are cut finer than SHARE, which costs little.
NODES_PER_SECOND = 2.7e7
LEAST_BUDGET = 0.25  # seconds: a part's set-up (its search's estimates) is a few milliseconds
PACED_FROM = 0.02  # share of its work a count does before its own pace may set its budget
ESTIMATED_CUBES = 64  # cubes whose estimates give the work's (a sample where there are more)


@dataclass(frozen=True)
class Split:
    """How a count splits its cubes: a part running past `after` seconds is split where its
    search is (None: a count split for `workers` workers takes `auto_budget`, another is not
    split)."""

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
    searched: float = 0.0  # stopped so: the share of the cube it searched itself

    @property
    def done_share(self) -> float:
        """The share of its cube this part counted itself, once finished: all of its own, or
        stopped where its search was, its share less that of the parts after its path."""
        return self.share if self.rest is None else self.searched


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
        parts that follow the path, level by level (its own numbers are those before it). A
        rest beginning with REST_FEWEST is a path down the children of the part's cube with
        the literal FEWEST added (its search turned to the fewest fits)."""
        part.rest = list(rest)
        self.splits += 1
        found: list[Part] = []
        node = part
        if rest and rest[0] == REST_FEWEST:
            node = Part(part.cube, (*part.added, FEWEST), (*part.literals, FEWEST), part.share)
            rest = rest[1:]
        for level, place in enumerate(rest):
            children = self.children(node) or []
            if level == len(rest) - 1:
                found += children[place:]
                part.searched = max(0.0, part.share - sum(p.share for p in found))
                return found
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

    def fed(self, work: Work, start: int) -> list[int]:
        """The parts made since there were `start` (a part stopped to be split) appended to
        `work`, the one the executor runs (made by `counted`); the indexes of those to count."""
        new = self.parts[start:]
        work.cubes.extend(p.literals for p in new)
        if work.weights is not None:
            work.weights.extend(self.work.weights[p.cube] for p in new)
        if work.sizes is not None:
            work.sizes.extend(p.size or 1.0 for p in new)
        return [start + k for k, p in enumerate(new) if not p.finished and not p.replaced]

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


def estimated(found: Parts) -> float:
    """The estimated work of a plan's pending parts (Knuth's nodes: Backend.estimate), from
    their estimates where the count made them (the sizes it shows its time left by), else from
    at most ESTIMATED_CUBES of them drawn evenly; 0 where the backend cannot split or
    estimate."""
    if not found.splittable or not hasattr(found.backend, "estimate"):
        return 0.0
    pending = found.pending()
    if not pending:
        return 0.0
    step = max(1, len(pending) // ESTIMATED_CUBES)
    drawn = pending[::step]
    state = found._state()
    sizes = [found.parts[i].size or max(1.0, float(found.backend.estimate(
        state, found.parts[i].literals))) for i in drawn]
    return sum(sizes) * len(pending) / len(drawn)


def auto_budget(work: float, workers: int) -> float | None:
    """The budget of a count split for `workers` workers, where none was asked for: its
    estimated seconds (`work`, Knuth's nodes, over NODES_PER_SECOND) over workers * SHARE, at
    least LEAST_BUDGET; None where there is no estimate."""
    if work <= 0:
        return None
    return max(LEAST_BUDGET, work / NODES_PER_SECOND / (workers * SHARE))


def paced_budget(budget: float, workers: int, share_done: float, seconds: float) -> float:
    """The budget of a count split for `workers` workers where none was asked for, as it goes:
    LEAST_BUDGET until it has done PACED_FROM of its work (by its cubes' estimates and its
    parts' shares, `share_done`, in `seconds` of its parts), then the seconds that pace gives
    the whole work over workers * SHARE, at least LEAST_BUDGET and at most `budget` (the
    estimate's, auto_budget). The estimate's nodes cannot see the memo, which made the 4x20
    tetrominoes and pentominoes about 40 times faster than they say: split for 64 workers by
    the estimate alone (0.95 s), its parts handed to 16 workers took 2.27 times the work over
    16; its first parts alone, cut before its pace was known, would hold 16 workers to twice
    that (two parts of 1 s in 6.5 s of work)."""
    if share_done < PACED_FROM or seconds <= 0:
        return min(budget, LEAST_BUDGET)
    return max(LEAST_BUDGET, min(budget, seconds / share_done / (workers * SHARE)))


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
