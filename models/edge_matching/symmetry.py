"""The symmetries of an edge-matching puzzle that counts up to symmetry merge: the board's
turns, its mirror images, and exchanges of colours, each kept only where the rules stay the
same under it.

- 'symmetry': the turns of the board (about its centre) that map it onto itself;
- 'mirror': those and the board's mirror images, where the tiles' mirror images are the tiles
  again (as a set with repeats: MacMahon's sets are; a mirrored grid uses mirrored tiles);
- 'colours': each of those combined with each exchange of the colours (pictures) other than
  the frame or border colour that maps the tiles onto themselves.

Fixed tiles pin the board: only the identity is left. Every element is a grid.Motion (a
recolouring is its `recolour`); the identity comes first. Elements that fix the same grids (one
generates the other's cyclic group, or they are conjugate) are grouped, so a Burnside count
counts each group once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import permutations

from . import Edge, EdgePuzzle, board, rotated
from .grid import Motion

MODULI = ("symmetry", "mirror", "colours")


def _tile_set(puzzle: EdgePuzzle, motion: Motion) -> Counter:
    """The tiles as a set with repeats of looks up to turning, after a motion's side map and
    recolouring (a mirror reverses each tile's edges)."""
    out: Counter = Counter()
    for tile in puzzle.tiles:
        moved = motion.look(tile.edges)
        out[(min(rotated(moved, r) for r in range(len(moved))), tile.mark)] += 1
    return out


def keeps_tiles(puzzle: EdgePuzzle, motion: Motion) -> bool:
    """Whether the motion maps the tiles onto themselves (and the frame and border colours
    onto themselves)."""
    for kept in (puzzle.frame, puzzle.border):
        if kept is not None and motion.colour(kept) != kept:
            return False
    return _tile_set(puzzle, motion) == _tile_set(puzzle, motion.powers()[0])


def exchangeable(puzzle: EdgePuzzle) -> tuple[str, ...]:
    """The pictures a colour exchange may move: all but the frame's and the border's."""
    kept = {e[0] for e in (puzzle.frame, puzzle.border) if e is not None}
    return tuple(sorted({e[0] for t in puzzle.tiles for e in t.edges} - kept))


def recolourings(puzzle: EdgePuzzle) -> list[tuple[tuple[Edge, Edge], ...]]:
    """Every exchange of the exchangeable pictures (halves kept), as edge -> edge pairs (the
    identity first, as ())."""
    pictures = exchangeable(puzzle)
    edges = sorted({e for t in puzzle.tiles for e in t.edges if e[0] in pictures})
    out = []
    for order in permutations(pictures):
        to = dict(zip(pictures, order))
        pairs = tuple((e, (to[e[0]], e[1])) for e in edges if to[e[0]] != e[0])
        out.append(pairs)
    return out


def colour_name(pairs: tuple[tuple[Edge, Edge], ...]) -> str:
    """A recolouring in cycle notation of its pictures, as 'colours (R G)(B W)'."""
    to = {old[0]: new[0] for old, new in pairs}
    cycles, seen = [], set()
    for start in sorted(to):
        if start in seen:
            continue
        cycle, at = [], start
        while at not in seen:
            seen.add(at)
            cycle.append(at)
            at = to[at]
        cycles.append("(" + " ".join(cycle) + ")")
    return "colours " + "".join(cycles)


def puzzle_group(puzzle: EdgePuzzle, modulo: str) -> list[Motion]:
    """The group a count modulo 'none', 'symmetry', 'mirror' or 'colours' merges by (see the
    module's docstring), the identity first."""
    here = board(puzzle)
    motions = here.motions(mirror=modulo in ("mirror", "colours"))
    if modulo == "none" or puzzle.fixed:
        return motions[:1]
    colourings = recolourings(puzzle) if modulo == "colours" else [()]
    out = []
    for pairs in colourings:
        for motion in motions:
            element = replace(motion, recolour=pairs)
            if pairs:
                name = colour_name(pairs) if motion.identity else (
                    f"{motion.name} and {colour_name(pairs)}")
                element = replace(element, name=name)
            if (not motion.mirror and not pairs) or keeps_tiles(puzzle, element):
                out.append(element)
    return out


def _key(motion: Motion) -> tuple:
    return (motion.to, motion.side(0), motion.side(1 % motion.sides), motion.mirror,
            motion.recolour)


def fixing_alike(group: list[Motion]) -> list[int]:
    """For each element, the first element known to fix the same grids: conjugates (h g h^-1)
    and elements generating the same cyclic group."""
    index = {_key(g): i for i, g in enumerate(group)}
    parent = list(range(len(group)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = root(i), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)

    inverse = {}
    for i, g in enumerate(group):
        for j, h in enumerate(group):
            if g.then(h).identity:
                inverse[i] = j
                break
    for i, g in enumerate(group):
        powers = g.powers()
        order = len(powers)
        for k in range(2, order):
            if _gcd(k, order) == 1 and _key(powers[k]) in index:
                join(i, index[_key(powers[k])])
        for j, h in enumerate(group):
            conjugate = group[inverse[j]].then(g).then(h)
            if _key(conjugate) in index:
                join(i, index[_key(conjugate)])
    return [root(i) for i in range(len(group))]


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
