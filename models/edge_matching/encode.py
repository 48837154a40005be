"""Encoders for edge-matching puzzles: CP-SAT and CNF. They never run a solver.

Both encode the same placements: a tile type (identical tiles grouped) at a cell in one of its
different-looking rotations. These placement variables are the keys: a solution is a grid, a
tile type and rotation per cell, so counts are of distinct grids with identical tiles
interchangeable. Options shared by both encoders:

- turns: the grid must look the same after this turn of the board (steps of the grid's
  smallest turn, as `board_turns` gives them) or another of its symmetries (a grid.Motion);
  used to count the grids a symmetry fixes, for counting classes by Burnside's lemma;
- parity: marked tiles (the `apart` mark) only on cells with (row + col) % 2 == parity.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

from pysat.card import CardEnc
from pysat.formula import IDPool

from ..encoded import CARD_ENCODINGS, CnfModel, CpsatModel
from ..limits import check_placements, step
from ..words import plural
from . import (
    Cell,
    Edge,
    EdgePuzzle,
    Placed,
    board,
    board_motion,
    border_sides,
    cells,
    fits_frame,
    grid_of_puzzle,
    matches,
    neighbour_pairs,
    rotated,
    tile_types,
    type_rotation,
)
from .grid import Board, Motion

if TYPE_CHECKING:  # OR-Tools is imported where a CP-SAT model is made (0.4 s)
    from ortools.sat.python import cp_model

DEFAULT_CARD_ENCODING = "seqcounter"
ONE_ONLY = ("pairwise", "ladder", "bitwise")  # encodings PySAT has for a bound of one only
CPSAT_VARIANTS = ("booleans", "integers")
# Measured on 2 cores: counting the diamond blocks (Level 1) takes 5.0 s with placement Booleans
# and 276 s with placement integers and table constraints; solving the clue puzzles 0.27-2.2 s
# against 0.27-2.6 s. The Booleans are the default.
DEFAULT_CPSAT_VARIANT = "booleans"


@dataclass(frozen=True)
class Placement:
    """A tile type at a cell, turned `rotation` times clockwise; edges as they show."""

    cell: Cell
    tile_type: int
    rotation: int
    edges: tuple[Edge, ...]
    marked: bool

    def label(self) -> str:
        r, c = self.cell
        degrees = self.rotation * 360 // len(self.edges)
        return f"r{r + 1}c{c + 1} type {self.tile_type + 1} turned {degrees}"


def placement_estimate(puzzle: EdgePuzzle) -> int:
    """How many placements the frame allows (fixed tiles and parity aside): cells are grouped
    by the sides they have on the border, so this is quick on any board."""
    types = tile_types(puzzle)
    groups: dict[tuple[bool, ...], list[Cell]] = {}
    for cell in cells(puzzle):
        groups.setdefault(border_sides(puzzle, cell), []).append(cell)
    total = 0
    for members in groups.values():
        fitting = sum(
            fits_frame(puzzle, members[0], rotated(t.edges, r)) for t in types for r in t.rotations
        )
        total += fitting * len(members)
    return total


def check_size(puzzle: EdgePuzzle) -> None:
    """InputError (field 'tiles') for a puzzle past the placement limit of models/limits.py."""
    check_placements(
        placement_estimate(puzzle), f"{plural(len(puzzle.tiles), 'tile')} on "
        f"{board_words(puzzle)}", "tiles",
    )


def board_words(puzzle: EdgePuzzle) -> str:
    """The board in a few words: '4x6', or '24 triangle cells'."""
    if not puzzle.shape and puzzle.grid == "square":
        return f"{puzzle.rows:,}x{puzzle.cols:,}"
    return f"{len(board(puzzle)):,} {puzzle.grid} cells"


def placements(puzzle: EdgePuzzle, parity: int | None = None) -> list[Placement]:
    """Every placement allowed by the frame, the fixed tiles and the parity, cell by cell
    (refused beyond the limit of models/limits.py)."""
    check_size(puzzle)
    types = tile_types(puzzle)
    fixed = {}
    for f in puzzle.fixed:
        tile = puzzle.tiles[f.tile]
        k = next(i for i, t in enumerate(types) if f.tile in t.tiles)
        fixed[(f.row, f.col)] = (k, type_rotation(types[k], tile, f.rotation))
    out = []
    looks = [[(r, rotated(t.edges, r)) for r in t.rotations] for t in types]
    fit: dict[tuple, bool] = {}  # the frame rule depends on which sides face the border only
    board = cells(puzzle)
    for number, cell in enumerate(board):
        if number % 256 == 0:
            step("cells given their placements", number, len(board))
        outside = border_sides(puzzle, cell)
        for k, tile_type in enumerate(types):
            marked = bool(puzzle.apart) and tile_type.mark == puzzle.apart
            if parity is not None and marked and sum(cell) % 2 != parity:
                continue
            for rotation, edges in looks[k]:
                if cell in fixed and fixed[cell] != (k, rotation):
                    continue
                key = (outside, k, rotation)
                if key not in fit:
                    fit[key] = fits_frame(puzzle, cell, edges)
                if fit[key]:
                    out.append(Placement(cell, k, rotation, edges, marked))  # type: ignore[arg-type]
    return out


def image_placement(here: Board, p: Placement, mark: str, motion: Motion,
                    shown: dict[tuple, tuple[int, int]]) -> tuple[Cell, int, int] | None:
    """(cell, type, rotation) of a placement (its tile's mark given) moved by a symmetry of
    the board; None where no tile shows the moved look. `shown`: from `look_index`."""
    found = shown.get((motion.look(p.edges), mark))
    if found is None:
        return None
    return here.cells[motion.to[here.index[p.cell]]], found[0], found[1]


def look_index(puzzle: EdgePuzzle) -> dict[tuple, tuple[int, int]]:
    """Every look a tile type can show, (edges, mark) -> (type, rotation)."""
    return {(rotated(t.edges, r), t.mark): (k, r)
            for k, t in enumerate(tile_types(puzzle)) for r in t.rotations}


@dataclass
class Layout:
    """The placements grouped the ways both encoders need them."""

    options: list[Placement]
    at_cell: dict[Cell, list[int]]
    of_type: list[list[int]]
    counts: list[int]
    # per touching pair (a, b, side of a): values shown on a's side, and for each value the
    # placements at a showing it and the placements at b matching it
    seams: list[tuple[Cell, Cell, int, list[Edge], dict[Edge, list[int]], dict[Edge, list[int]]]]
    turn_pairs: list[tuple[int, int | None]]


def layout(puzzle: EdgePuzzle, turns: int | Motion = 0, parity: int | None = None) -> Layout:
    options = placements(puzzle, parity)
    types = tile_types(puzzle)
    at_cell: dict[Cell, list[int]] = {cell: [] for cell in cells(puzzle)}
    of_type: list[list[int]] = [[] for _ in types]
    index = {}
    for i, p in enumerate(options):
        at_cell[p.cell].append(i)
        of_type[p.tile_type].append(i)
        index[(p.cell, p.tile_type, p.rotation)] = i
    seams = []
    facing = grid_of_puzzle(puzzle).facing
    pairs = neighbour_pairs(puzzle)
    for number, (a, b, side) in enumerate(pairs):
        if number % 256 == 0:
            step("seams between cells", number, len(pairs))
        values: list[Edge] = []
        showing: dict[Edge, list[int]] = {}
        for i in at_cell[a]:
            value = options[i].edges[side]
            if value not in showing:
                values.append(value)
                showing[value] = []
            showing[value].append(i)
        matching = {
            v: [j for j in at_cell[b] if matches(v, options[j].edges[facing(side)], puzzle.rule)]
            for v in values
        }
        seams.append((a, b, side, values, showing, matching))
    turn_pairs: list[tuple[int, int | None]] = []
    motion = board_motion(puzzle, turns)
    if not motion.identity:
        shown = look_index(puzzle)
        for i, p in enumerate(options):
            image = image_placement(board(puzzle), p, types[p.tile_type].mark, motion, shown)
            turn_pairs.append((i, None if image is None else index.get(image)))
    return Layout(options, at_cell, of_type, [t.count for t in types], seams, turn_pairs)


def key_labels(options: list[Placement]) -> list[str]:
    return [p.label() for p in options]


# ---------------------------------------------------------------- CP-SAT


def encode_cpsat(
    puzzle: EdgePuzzle,
    turns: int | Motion = 0,
    parity: int | None = None,
    variant: str = DEFAULT_CPSAT_VARIANT,
) -> CpsatModel:
    """The CP-SAT model: placement Booleans (default) or a placement integer per cell."""
    from ortools.sat.python import cp_model

    if variant == "integers":
        return encode_cpsat_integers(puzzle, turns, parity)
    if variant != "booleans":
        raise ValueError(f"unknown CP-SAT variant {variant!r}")
    lay = layout(puzzle, turns, parity)
    model = cp_model.CpModel()
    use = []
    for number, p in enumerate(lay.options):
        if number % 8192 == 0:
            step("CP-SAT variables", number, len(lay.options))
        use.append(model.new_bool_var(p.label()))
    for indices in lay.at_cell.values():
        model.add_exactly_one(use[i] for i in indices)
    for indices, count in zip(lay.of_type, lay.counts):
        model.add(sum(use[i] for i in indices) == count)
    grid = grid_of_puzzle(puzzle)
    for number, (a, _, side, values, showing, matching) in enumerate(lay.seams):
        if number % 256 == 0:
            step("CP-SAT seams", number, len(lay.seams))
        name = grid.side_names(a)[side]
        colour = {v: model.new_bool_var(f"{a}{name}={v}") for v in values}
        model.add_exactly_one(colour.values())
        for v in values:
            for i in showing[v]:
                model.add_implication(use[i], colour[v])
            model.add_bool_or([use[i] for i in showing[v]]).only_enforce_if(colour[v])
            model.add_bool_or([use[j] for j in matching[v]]).only_enforce_if(colour[v])
    add_apart_cpsat(puzzle, model, use, lay)
    for i, j in lay.turn_pairs:
        if j is None:
            model.add(use[i] == 0)
        elif i != j:  # every pair: a symmetry need not be its own inverse
            model.add(use[i] == use[j])
    model.add_decision_strategy(use, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return CpsatModel(model, use, title=f"{len(use)} placement Booleans, edge colours")


def cell_table(
    puzzle: EdgePuzzle, here: Board, lay: Layout, cell: Cell, seam_var: dict[tuple, tuple]
) -> tuple[list, list[list[int]]]:
    """A cell's table constraint for the placement-integer model: the colour variables of the
    seams around it, and the rows (placement value, then each seam's colour index) its
    placements allow. A seam's colour is the value its top or left cell shows, so a placement
    on that cell allows its own value only, and one on the other cell every value it matches."""
    grid = here.grid
    sides = []  # (whether the seam's colour is this cell's own value, side, (variable, values))
    for side in range(grid.sides):
        if (cell, side) in seam_var:
            sides.append((True, side, seam_var[(cell, side)]))
        else:
            other = here.across(cell, side)
            if other is not None and (other, grid.facing(side)) in seam_var:
                sides.append((False, side, seam_var[(other, grid.facing(side))]))
    tables: list[list[int]] = []
    for k, i in enumerate(lay.at_cell[cell]):
        rows: list[list[int]] = [[k]]
        for own, side, (_, values) in sides:
            shown = lay.options[i].edges[side]
            if own:
                allowed = [values.index(shown)]
            else:
                allowed = [n for n, v in enumerate(values) if matches(v, shown, puzzle.rule)]
            rows = [row + [n] for row in rows for n in allowed]
        tables.extend(rows)
    return [var for _, _, (var, _) in sides], tables


def add_apart_cpsat(puzzle: EdgePuzzle, model: cp_model.CpModel, use: list, lay: Layout) -> None:
    if not puzzle.apart:
        return
    for a, b, _, _, _, _ in lay.seams:
        marked = [use[i] for cell in (a, b) for i in lay.at_cell[cell] if lay.options[i].marked]
        if marked:
            model.add(sum(marked) <= 1)


def encode_cpsat_integers(
    puzzle: EdgePuzzle, turns: int | Motion = 0, parity: int | None = None
) -> CpsatModel:
    """A placement integer per cell; edge colours as integers tied to it by table constraints."""
    from ortools.sat.python import cp_model

    lay = layout(puzzle, turns, parity)
    model = cp_model.CpModel()
    cells_in = list(lay.at_cell)
    choice = {cell: model.new_int_var(0, len(lay.at_cell[cell]) - 1, f"{cell}")
              for cell in cells_in}
    # edge colours: an integer per seam, the index of the value shown by the top or left cell
    seam_var = {}
    for a, _, side, values, _, _ in lay.seams:
        seam_var[(a, side)] = (model.new_int_var(0, max(0, len(values) - 1), f"{a}{side}"), values)
    here = board(puzzle)
    for cell in cells_in:
        seams, rows = cell_table(puzzle, here, lay, cell, seam_var)
        model.add_allowed_assignments([choice[cell]] + seams, rows)
    is_option = {}
    for cell in cells_in:
        for k, i in enumerate(lay.at_cell[cell]):
            flag = model.new_bool_var(f"{cell}={k}")
            model.add(choice[cell] == k).only_enforce_if(flag)
            model.add(choice[cell] != k).only_enforce_if(~flag)
            is_option[i] = flag
    for indices, count in zip(lay.of_type, lay.counts):
        model.add(sum(is_option[i] for i in indices) == count)
    add_apart_cpsat(puzzle, model, [is_option[i] for i in range(len(lay.options))], lay)
    for i, j in lay.turn_pairs:
        if j is None:
            model.add(is_option[i] == 0)
        elif i != j:  # every pair: a symmetry need not be its own inverse
            model.add(is_option[i] == is_option[j])
    keys = [is_option[i] for i in range(len(lay.options))]
    return CpsatModel(model, keys,
                      title=f"{len(cells_in)} placement integers, table constraints")


# ---------------------------------------------------------------- CNF


CNF_MODELS = ("placements", "compact")
# Measured (NOTES-issue10.md): on shuffled em_* boards CaDiCaL solves the placement encoding
# faster than Heule's compact one; the placements are the default.
DEFAULT_CNF_MODEL = "placements"


def encode_cnf(
    puzzle: EdgePuzzle,
    encoding: str = DEFAULT_CARD_ENCODING,
    turns: int | Motion = 0,
    parity: int | None = None,
    model: str = DEFAULT_CNF_MODEL,
    redundant: bool = True,
) -> CnfModel:
    """The CNF model: `placements` (ours, default) or Heule's `compact` encoding.

    Both have the same keys, variables 1..n, one per placement (`layout(...).options`), so a
    solution is read and counted the same way whichever is chosen. `redundant=False` leaves out
    the at-most-one placement (or tile type) per cell: each tile type is used exactly as often
    as it has tiles and the counts add up to the cells, so at least one per cell already means
    exactly one. Every variant is exact: counts agree (tests/test_edge_matching.py).
    """
    if encoding not in CARD_ENCODINGS:
        raise ValueError(f"unknown cardinality encoding {encoding!r}")
    if model == "compact":
        return encode_cnf_compact(puzzle, encoding, turns, parity, redundant)
    if model != "placements":
        raise ValueError(f"unknown CNF model {model!r}; one of {', '.join(CNF_MODELS)}")
    lay = layout(puzzle, turns, parity)
    n = len(lay.options)
    pool = IDPool(start_from=n + 1)
    clauses = one_per_cell_and_type(
        [[i + 1 for i in indices] for indices in lay.at_cell.values()],
        [[i + 1 for i in indices] for indices in lay.of_type],
        lay.counts, encoding, pool, redundant,
    )
    # implied[(cell, side)][placement]: the colour variables of that seam the placement allows
    implied: dict[tuple[Cell, int], dict[int, list[int]]] = {}
    facing = grid_of_puzzle(puzzle).facing
    for number, (a, b, side, values, showing, matching) in enumerate(lay.seams):
        if number % 256 == 0:
            step("CNF seams", number, len(lay.seams))
        colour = {v: pool.id(("colour", a, side, v)) for v in values}
        clauses.append([colour[v] for v in values])
        mine = implied.setdefault((a, side), {})
        theirs = implied.setdefault((b, facing(side)), {j: [] for j in lay.at_cell[b]})
        for v in values:
            for i in showing[v]:
                clauses.append([-(i + 1), colour[v]])
                mine[i] = [colour[v]]
            for j in matching[v]:
                theirs[j].append(colour[v])
            clauses.append([-colour[v]] + [i + 1 for i in showing[v]])
            clauses.append([-colour[v]] + [j + 1 for j in matching[v]])
        for j in lay.at_cell[b]:
            clauses.append([-(j + 1)] + theirs[j])
    clauses += forbidden_pairs(lay, implied, grid_of_puzzle(puzzle).sides)
    if puzzle.apart:
        for a, b, _, _, _, _ in lay.seams:
            for i in (i for i in lay.at_cell[a] if lay.options[i].marked):
                for j in (j for j in lay.at_cell[b] if lay.options[j].marked):
                    clauses.append([-(i + 1), -(j + 1)])
    title = f"{plural(n, 'placement')}, edge colours, cardinality as {encoding}"
    return placement_keyed(lay, clauses, pool, title, redundant)


def placement_keyed(
    lay: Layout, clauses: list[list[int]], pool: IDPool, title: str, redundant: bool
) -> CnfModel:
    """The CNF model with the placements 1..n as keys, after the board-turn clauses."""
    n = len(lay.options)
    return CnfModel(
        clauses + turn_clauses(lay),
        max(pool.top, n),
        list(range(1, n + 1)),
        key_labels(lay.options),
        short_blocking=True,
        title=title + ("" if redundant else ", no at-most-one per cell"),
    )


def one_per_cell_and_type(
    at_cell: list[list[int]],
    of_type: list[list[int]],
    counts: list[int],
    encoding: str,
    pool: IDPool,
    redundant: bool,
) -> list[list[int]]:
    """Exactly one variable true per cell (at least one without `redundant`), each tile type's
    variables true exactly as often as it has tiles."""
    clauses: list[list[int]] = []
    kind = CARD_ENCODINGS[encoding]
    for lits in at_cell:
        if not redundant or len(lits) <= 1:
            clauses.append(lits)  # empty when nothing fits: no solution
        else:
            clauses += CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=kind).clauses
    for lits, count in zip(of_type, counts):
        if len(lits) < count:
            clauses.append([])
            continue
        # pairwise, ladder and bitwise encode bounds of one only: larger ones go to seqcounter
        how = kind if count == 1 or encoding not in ONE_ONLY else CARD_ENCODINGS["seqcounter"]
        clauses += CardEnc.equals(lits=lits, bound=count, vpool=pool, encoding=how).clauses
    return clauses


def turn_clauses(lay: Layout) -> list[list[int]]:
    """The grid looks the same after the board's turn: each placement equals its turned one."""
    clauses = []
    for i, j in lay.turn_pairs:
        if j is None:
            clauses.append([-(i + 1)])
        elif i != j:  # every pair: a symmetry need not be its own inverse
            clauses += [[-(i + 1), j + 1], [i + 1, -(j + 1)]]
    return clauses


def encode_cnf_compact(
    puzzle: EdgePuzzle,
    encoding: str = DEFAULT_CARD_ENCODING,
    turns: int | Motion = 0,
    parity: int | None = None,
    redundant: bool = True,
) -> CnfModel:
    """Heule's compact encoding: a tile type on a cell (no rotation variables) and one colour
    variable per value of each edge; which rotation a tile takes follows from the colours.

    Edges are the seams between cells and, where the puzzle has no frame, the board's outer
    sides (their colour is part of what a grid shows). A type at a cell limits the colour of
    each edge to what its fitting rotations show there, and the colour of one edge limits each
    other edge's; where these pairwise limits let a colour combination through that no rotation
    shows, a clause forbids it, so the encoding is exact. The placement variables, the keys,
    are defined from the type and colours (placement <-> type and its colours), so a solution is
    read and counted as with `placements`; the solver needs them for nothing else.
    """
    lay = layout(puzzle, turns, parity)
    n = len(lay.options)
    pool = IDPool(start_from=n + 1)
    types_at: dict[Cell, dict[int, list[int]]] = {cell: {} for cell in lay.at_cell}
    for i, p in enumerate(lay.options):
        types_at[p.cell].setdefault(p.tile_type, []).append(i)
    x_var = {(c, k): pool.id(("type", c, k)) for c in types_at for k in types_at[c]}
    x_type: list[list[int]] = [[] for _ in lay.counts]
    for (_, k), var in x_var.items():
        x_type[k].append(var)
    clauses = one_per_cell_and_type(
        [[x_var[(c, k)] for k in by_type] for c, by_type in types_at.items()],
        x_type, lay.counts, encoding, pool, redundant,
    )
    edge_values, side_edge = compact_edges(puzzle, lay)
    colour = {(name, v): pool.id(("colour", name, v)) for name, vs in edge_values.items()
              for v in vs}
    for name, values in edge_values.items():
        clauses += CardEnc.equals(
            lits=[colour[(name, v)] for v in values], bound=1, vpool=pool,
            encoding=CARD_ENCODINGS[encoding],
        ).clauses
    grid = grid_of_puzzle(puzzle)
    for cell, by_type in types_at.items():
        sides = [side for side in range(grid.sides) if (cell, side) in side_edge]
        names = [side_edge[(cell, side)] for side in sides]
        for k, indices in by_type.items():
            shows = {i: tuple(edge_value(puzzle, edge_values, name, cell, lay.options[i].edges[s])
                              for s, name in zip(sides, names)) for i in indices}
            clauses += type_on_cell_clauses(x_var[(cell, k)], shows, names, colour)
    if puzzle.apart:
        for a, b, _, _, _, _ in lay.seams:
            for ka in (k for k in types_at[a] if lay.options[types_at[a][k][0]].marked):
                for kb in (k for k in types_at[b] if lay.options[types_at[b][k][0]].marked):
                    clauses.append([-x_var[(a, ka)], -x_var[(b, kb)]])
    title = (
        f"Heule's compact encoding: {len(x_var)} type-on-cell and {len(colour)} edge-colour "
        f"variables, cardinality as {encoding}"
    )
    return placement_keyed(lay, clauses, pool, title, redundant)


def compact_edges(
    puzzle: EdgePuzzle, lay: Layout
) -> tuple[dict[tuple, list[Edge]], dict[tuple[Cell, int], tuple]]:
    """The edges Heule's compact encoding colours, each named ("seam", top or left cell, its
    side) or ("border", cell, side): every seam, and where the puzzle has no frame the board's
    outer sides (their colour is part of what a grid shows). Each edge's values, and the edge
    on each side of each cell."""
    edge_values: dict[tuple, list[Edge]] = {}
    side_edge: dict[tuple[Cell, int], tuple] = {}
    grid = grid_of_puzzle(puzzle)
    for a, b, side, values, _, _ in lay.seams:
        edge_values[("seam", a, side)] = values
        side_edge[(a, side)] = ("seam", a, side)
        side_edge[(b, grid.facing(side))] = ("seam", a, side)
    if puzzle.frame is None:
        for cell, indices in lay.at_cell.items():
            for side, outside in enumerate(border_sides(puzzle, cell)):
                if outside:
                    shown = list(dict.fromkeys(lay.options[i].edges[side] for i in indices))
                    edge_values[("border", cell, side)] = shown
                    side_edge[(cell, side)] = ("border", cell, side)
    return edge_values, side_edge


def edge_value(
    puzzle: EdgePuzzle, edge_values: dict[tuple, list[Edge]], name: tuple, cell: Cell,
    shown: Edge,
) -> Edge | None:
    """The colour of edge `name` when a cell shows `shown` on it: the value itself on the
    edge's own cell (or a border), else the one value of the edge it matches (None: none)."""
    if name[0] == "border" or name[1] == cell:
        return shown
    found = [v for v in edge_values[name] if matches(v, shown, puzzle.rule)]
    if len(found) > 1:
        raise ValueError("the compact encoding needs at most one matching value per edge")
    return found[0] if found else None


def type_on_cell_clauses(
    x: int, shows: dict[int, tuple], names: list[tuple], colour: dict[tuple, int]
) -> list[list[int]]:
    """The clauses of one tile type on one cell (x): its placements' colour tuples allowed
    (`type_colour_clauses`), and each placement defined as the type with its colours. `shows`:
    per placement, the colour of each of the cell's edges (`names`) it gives, None where no
    neighbour can ever match that side (the placement is then false)."""
    clauses = []
    tuples: dict[int, tuple] = {}
    for i, shown in shows.items():
        if None in shown:
            clauses.append([-(i + 1)])  # no neighbour can ever match this side
        else:
            tuples[i] = shown
    clauses += type_colour_clauses(
        x, [colour_literals(name, colour) for name in names], set(tuples.values()),
    )
    for i, shown in tuples.items():  # placement <-> type and its colours
        lits = [colour[(name, v)] for name, v in zip(names, shown)]
        clauses.append([-(i + 1), x])
        clauses += [[-(i + 1), lit] for lit in lits]
        clauses.append([i + 1, -x] + [-lit for lit in lits])
    if not tuples:
        clauses.append([-x])
    return clauses


def colour_literals(name: tuple, colour: dict[tuple, int]) -> dict[Edge, int]:
    return {v: var for (edge, v), var in colour.items() if edge == name}


def type_colour_clauses(
    x: int, edges: list[dict[Edge, int]], allowed: set[tuple]
) -> list[list[int]]:
    """Clauses making a tile type at a cell (x) show one of the `allowed` colour tuples on its
    edges (each edge a dict value -> colour variable): per edge, per pair of edges, and any
    tuple the pairs let through forbidden outright."""
    if not allowed:
        return [[-x]]
    clauses = []
    width = len(edges)
    seen = [sorted({t[s] for t in allowed}) for s in range(width)]
    for s in range(width):
        clauses.append([-x] + [edges[s][v] for v in seen[s]])
    for s in range(width):
        for a in seen[s]:
            for t in range(width):
                if t == s:
                    continue
                after = sorted({u[t] for u in allowed if u[s] == a})
                if len(after) < len(seen[t]):
                    clauses.append([-x, -edges[s][a]] + [edges[t][v] for v in after])
    for candidate in product(*seen):
        if candidate in allowed:
            continue
        if all(
            any(u[s] == candidate[s] and u[t] == candidate[t] for u in allowed)
            for s in range(width)
            for t in range(width)
            if s < t
        ):
            clauses.append([-x] + [-edges[s][v] for s, v in enumerate(candidate)])
    return clauses


def forbidden_pairs(
    lay: Layout, implied: dict[tuple[Cell, int], dict[int, list[int]]], sides: int
) -> list[list[int]]:
    """Redundant clauses (Heule's forbidden colour pairs): two colours on neighbouring sides of a
    cell (top and right, ...) that no placement there shows together cannot both be chosen."""
    clauses = []
    for cell, options in lay.at_cell.items():
        for side in range(sides):
            first, second = implied.get((cell, side)), implied.get((cell, (side + 1) % sides))
            if first is None or second is None:
                continue
            allowed = {(x, y) for i in options for x in first[i] for y in second[i]}
            xs = {x for i in options for x in first[i]}
            ys = {y for i in options for y in second[i]}
            clauses += [[-x, -y] for x in sorted(xs) for y in sorted(ys) if (x, y) not in allowed]
    return clauses


# ---------------------------------------------------------------- reading a solution, splitting


def grid_of(puzzle: EdgePuzzle, options: list[Placement], values: list[int]) -> list[Placed]:
    """The (tile index, rotation) per cell of a solution, identical tiles handed out in order."""
    types = tile_types(puzzle)
    free = [list(t.tiles) for t in types]
    chosen = {options[i].cell: options[i] for i, v in enumerate(values) if v}
    grid = []
    for cell in cells(puzzle):
        p = chosen[cell]
        tile = free[p.tile_type].pop(0)
        target = p.edges
        rotation = next(r for r in range(len(target))
                        if rotated(puzzle.tiles[tile].edges, r) == target)
        grid.append((tile, rotation))
    return grid


def split_cubes(options: list[Placement], puzzle: EdgePuzzle, wanted: int) -> list[tuple[int, ...]]:
    """Cubes on the placements of the first cells (row by row) until there are `wanted` of them."""
    cubes: list[tuple[int, ...]] = [()]
    for cell in cells(puzzle):
        if len(cubes) >= wanted:
            break
        here = [i + 1 for i, p in enumerate(options) if p.cell == cell]
        cubes = [cube + (k,) for cube in cubes for k in here]
    return cubes

