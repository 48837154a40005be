"""Packing puzzles: solve, count (exactly, up to the board's symmetries), list, verify, export."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from ..backends import Backend
from ..backends import reference_packing as reference
from ..checkpoint import digest
from ..counting import Runner, cube_sizes
from ..executors import Work
from ..models.encoded import check_card_encoding, to_dimacs, to_dlx
from ..models.errors import InputError
from ..models.geometry import LATTICES
from ..models.packing import PackingPuzzle, Placement, exact_cover, placements
from ..models.packing.encode import (
    DEFAULT_CARD_ENCODING,
    encode_cnf,
    encode_cover,
    encode_cpsat,
)
from ..models.packing.plan import (
    MODULI,
    MODULO_ALIASES,
    count_plan,
    mirror_twins,
    symmetry_group,
)
from ..models.symmetry import IDENTITY
from ..models.words import plural
from ..outcomes import Count, Solution, Verification
from ..terminal import draw_packing
from . import WITNESS_SECONDS, Encoder, Family, check_sampled_cubes, verify_backends, witness


def meaning(puzzle: PackingPuzzle, modulo: str) -> str:
    """What a count of this puzzle counts."""
    placed = (f" with the {plural(len(puzzle.placed), 'pre-placed piece')} where they are"
              if puzzle.placed else "")
    copies = ("; copies of a piece are alike (a covering counts once)"
              if any(p.count > 1 for p in puzzle.pieces) else "")
    used = ("each piece used as many times as its count allows (a range: any number in it)"
            if any(p.fewest != p.count for p in puzzle.pieces) else "each piece used once")
    if modulo == "none":
        return (
            f"solutions: ways to cover the board{placed}, {used}{copies}; rotations"
            " and reflections of a solution count as different"
        )
    group = symmetry_group(puzzle, modulo)
    if modulo == "rotation":
        return (f"classes of solutions under the board's rotations, each piece keeping its name "
                f"({group.describe()})")
    if puzzle.flip:
        return f"classes of solutions under the board's symmetry group ({group.describe()})"
    twins = mirror_twins(puzzle)
    if twins is None:
        return (f"classes of solutions under the board's rotations only: the set lacks some "
                f"piece's mirror image, so reflections are left out and 'symmetry' equals "
                f"'rotation' ({group.describe()})")
    if all(i == j for i, j in enumerate(twins)):
        return (f"classes of solutions under the board's symmetry group, each piece's mirror "
                f"image being the piece itself turned ({group.describe()})")
    return (f"classes of solutions under the board's symmetry group, a reflection turning "
            f"each piece into its mirror twin (the convention of published counts of sets "
            f"with mirror twins, one-sided pentominoes or the Soma cube; "
            f"{group.describe()})")


def copies_refused(backend: Backend, cover) -> str | None:
    """Why an exact-cover backend cannot take a cover whose pieces have copies."""
    if cover is not None and cover.multiplicity and not backend.multiplicities:
        what = ("pieces in any number (count = [MIN, MAX] or \"any\")" if cover.least
                else "pieces with copies (count = N)")
        return (f"{backend.name} solves exact covers with each item once; {what} need "
                "bitboard, cpsat, a pysat solver, a model counter (mc:...) or the reference")
    return None


def cnf_of(cover, encoding: str = DEFAULT_CARD_ENCODING):
    return encode_cnf(cover, check_card_encoding(encoding, DEFAULT_CARD_ENCODING))


class Packing(Family):
    kind = "packing"
    # the models of the exact cover of the placements, by the kind of backend that takes them
    encoders = {
        "cpsat": Encoder(encode_cpsat),
        "cnf": Encoder(cnf_of, options=("encoding",)),
        "cover": Encoder(encode_cover, refuses=copies_refused),
    }
    takes = (*encoders, "reference")
    options = ("encoding",)
    export_formats = ("dimacs", "dlx", "stl")  # stl: puzzles in space, for 3D printing
    own_backends = {"reference": reference.ReferencePacking}
    moduli = MODULI  # none, symmetry (rotations and mirror images the set allows), rotation
    modulo_aliases = MODULO_ALIASES  # mirror, published: symmetry
    samples_cubes = "bitboard"  # verify --sample-cubes: cubes of the bitboard search

    def summary(self, puzzle: PackingPuzzle) -> str:
        board = puzzle.lattice.describe(puzzle.cells)
        if any(p.fewest != p.count for p in puzzle.pieces):
            return (f"{plural(len(puzzle.pieces), 'kind')} of piece in any number on {board}; "
                    f"{puzzle.title}")
        pieces = sum(p.count for p in puzzle.pieces)
        kinds = "" if pieces == len(puzzle.pieces) else f" of {plural(len(puzzle.pieces), 'kind')}"
        return f"{plural(pieces, 'piece')}{kinds} on {board}; {puzzle.title}"

    def encode(self, puzzle: PackingPuzzle, backend: Backend, options: list[Placement],
               encoding: str | None = None):
        """The model the backend takes, of the exact cover of these placements."""
        return self.encode_for(backend, exact_cover(puzzle, options), encoding=encoding)

    def why_none(self, puzzle) -> str | None:
        """The pieces that fit nowhere on the board (in no orientation, at no place)."""
        placed = {p.piece for p in placements(puzzle)}
        lost = [piece.name for i, piece in enumerate(puzzle.pieces) if i not in placed]
        if not lost:
            return None
        return (f"piece{'s' if len(lost) > 1 else ''} {', '.join(lost)} fit"
                f"{'' if len(lost) > 1 else 's'} nowhere on the board")

    def _solution(self, puzzle, grid, backend: str, seconds: float, complete=True) -> Solution:
        if grid is None:
            note = "no solution exists" if complete else "no solution found within the time limit"
            return Solution(puzzle.name, self.kind, None, backend, seconds, complete, note=note)
        lines = draw_packing(puzzle, grid, colour=False)
        return Solution(puzzle.name, self.kind, grid, backend, seconds, True, data=lines,
                        lines=lines)

    def _grid(self, options: list[Placement], values: list[int]) -> dict:
        grid = {}
        for placement, used in zip(options, values):
            if used:
                for cell in placement.cells:
                    grid[cell] = placement.piece
        return grid

    def solve(self, puzzle, backend, time_limit=None, encoding=None) -> Solution:
        start = time.perf_counter()
        self._check_encoding(backend, encoding)
        if self.owns(backend):  # the reference: its own model, sharing no encoder
            model = reference.model(puzzle)
            outcome = backend.solve(model, time_limit)
            grid = None if outcome.values is None else reference.grid_cells(model, outcome.values)
        else:
            options = placements(puzzle)
            model = self.encode(puzzle, backend, options, encoding)
            # what is left of the time limit once the model is built (encoding included)
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            outcome = backend.solve(model, None if left is None else max(0.001, left))
            grid = None if outcome.values is None else self._grid(options, outcome.values)
        return self._solution(puzzle, grid, backend.name, time.perf_counter() - start,
                              outcome.complete)

    def solutions(self, puzzle, backend, limit=None, encoding=None) -> Iterator[Solution]:
        start = time.perf_counter()
        self._check_encoding(backend, encoding)
        if self.owns(backend):  # the reference: its own model, sharing no encoder
            model = reference.model(puzzle)
            for grid in backend.enumerate(model, (), limit):
                yield self._solution(puzzle, reference.grid_cells(model, grid), backend.name,
                                     time.perf_counter() - start)
            return
        options = placements(puzzle)
        model = self.encode(puzzle, backend, options, encoding)
        for values in backend.solutions(model, limit):
            yield self._solution(puzzle, self._grid(options, values), backend.name,
                                 time.perf_counter() - start)

    def _check_encoding(self, backend: Backend, encoding: str | None) -> None:
        self.model_options(backend, {"encoding": encoding})

    def count(self, puzzle, backend, modulo, runner: Runner, encoding=None) -> Count:
        """Solutions (and classes, with modulo 'symmetry') on one backend."""
        self.check_modulo(puzzle, modulo)
        self._check_encoding(backend, encoding)
        start = time.perf_counter()
        key = {"puzzle": puzzle.name, "data": digest(puzzle), "modulo": modulo,
               "backend": backend.name, "encoding": encoding}
        if self.owns(backend):  # the reference: its own model, sharing no encoder
            return self._reference_count(puzzle, backend, modulo, runner, key, start)
        plan = count_plan(puzzle, modulo, min_cubes=runner.cubes_wanted(key, backend.cubes_per_job))
        works = []
        for task in plan.tasks:
            if runner.expired():
                break
            model = self.encode(puzzle, backend, task.options, encoding)
            payload = backend.payload(model)
            # each cube's estimated work, for the time left, where a bar is shown
            sizes = (cube_sizes(backend.name, payload, task.cubes)
                     if runner.progress and len(task.cubes) > 1 else None)
            works.append(Work(task.label, backend.name, payload, task.cubes,
                              task.weights, backend.stops_itself, shown=not works, sizes=sizes))
        tallies = runner.run(works, key) if len(works) == len(plan.tasks) else []
        complete = len(tallies) == len(plan.tasks) and all(t.complete for t in tallies)
        details: dict[str, object] = {"reduced_by": plan.reduced_by}
        if complete:
            solutions, classes = plan.combine([[v[0] for v in t.values] for t in tallies])
            details["fixed_points"] = {
                t.work.label: t.total() for t in tallies[1:]
            } or None
        else:  # a lower bound on the solutions, and so on the classes (at most |G| per class)
            solutions = tallies[0].total() if tallies else 0
            classes = None if modulo == "none" else -(-solutions // plan.group.order)
        details.update(solutions=solutions, classes=classes,
                       classes_by=None if modulo == "none" else "Burnside's lemma")
        return Count(
            puzzle.name, solutions if modulo == "none" else classes, meaning(puzzle, modulo),
            modulo, complete, time.perf_counter() - start, backend.name,
            runner.executor.name, plan.group if modulo != "none" else IDENTITY, details,
        )

    def _reference_count(self, puzzle, backend, modulo, runner, key, start) -> Count:
        """The reference enumerates every solution; classes by canonical forms."""
        classes = modulo != "none"
        model = reference.model(puzzle, group=modulo if classes else None)
        cubes = reference.cubes(model, runner.cubes_wanted(key, backend.cubes_per_job))
        work = Work("reference: all solutions", backend.name, backend.payload(model), cubes)
        [tally] = runner.run([work], key)
        solutions = tally.total(0)
        number = tally.total(1) if classes else solutions
        if classes and not tally.complete:  # a lower bound: at most |G| solutions per class
            number = max(number, -(-solutions // symmetry_group(puzzle, modulo).order))
        return Count(
            puzzle.name, number, meaning(puzzle, modulo), modulo, tally.complete,
            time.perf_counter() - start, backend.name, runner.executor.name,
            symmetry_group(puzzle, modulo) if classes else IDENTITY,
            {"solutions": solutions, "classes": number if classes else None,
             "classes_by": "canonical forms" if classes else None},
        )

    def verify(self, puzzle, runner_for, backends=None, unreduced_time_limit=None,
               encoding=None, say=None, sample_cubes=None) -> Verification:
        """Count on every backend, with and without symmetry reduction; all must agree. With
        sample_cubes N: for a count too large for the other backends, N random cubes of the
        bitboard search (random paths of its first-empty-cell branching, stopped with a few
        pieces left), each counted there and, as a challenge with those pieces pre-placed, by
        xcover, CP-SAT and the reference (or the `backends` named; one of them may be a mode
        of the bitboard search, e.g. 'bitboard:fewest', which then counts the cubes)."""
        from ..registry import resolve

        if sample_cubes is not None:
            return self._verify_sample(puzzle, runner_for, sample_cubes, backends, say)
        counts: list[Count] = []
        cover = exact_cover(puzzle, placements(puzzle))
        for name in backends or verify_backends(self.kind):
            backend = resolve(name, self.kind, "count")
            if not backends and not self.owns(backend) and self.refused(backend, cover):
                continue  # e.g. exact cover without multiplicities cannot hold copies
            for modulo in ("none", "symmetry"):
                runner = runner_for(unreduced_time_limit if modulo == "none" else None)
                counts.append(self.count(puzzle, backend, modulo, runner,
                                         **self.applicable(backend, encoding=encoding)))
                if say:
                    say(verify_table(counts[-1:]).splitlines()[1])
        witnessed = [] if backends else self._witness(puzzle, cover, counts, runner_for, say)
        counts += [c for c in witnessed if c.complete]  # an unfinished witness: shown only
        finished = [c for c in counts if c.complete]
        solutions = {c.details["solutions"] for c in finished}
        classes = {c.details["classes"] for c in finished if c.modulo == "symmetry"}
        why = _disagreement(counts, solutions, classes)
        counts += [c for c in witnessed if not c.complete]
        table = verify_table(counts)
        result: dict[str, object] = {}
        if not why:
            total, reduced = solutions.pop(), classes.pop()
            group = symmetry_group(puzzle)
            result = {
                "puzzle": puzzle.name, "title": puzzle.title, "kind": self.kind,
                "count": total, "counted": meaning(puzzle, "none"),
                "classes": reduced, "classes_counted": meaning(puzzle, "symmetry"),
                "group": group.to_json(),
                "published": puzzle.published,
                "published_agrees": {
                    k: puzzle.published[k] == v
                    for k, v in (("solutions", total), ("classes", reduced))
                    if k in puzzle.published
                },
                "runs": [_run_json(c) for c in counts],
            }
        return Verification(puzzle.name, not why, why or "", counts, result, table)

    def _witness(self, puzzle, cover, counts: list[Count], runner_for, say) -> list[Count]:
        """A model counter's counts (both modulos), where the witness rule expects them to
        finish; one not finished by WITNESS_SECONDS is shown, incomplete, and left out."""
        counter = witness({c.details["solutions"] for c in counts if c.complete},
                          lambda counter: self.encode_for(counter, cover).nvars)
        added = []
        for modulo in ("none", "symmetry") if counter else ():
            added.append(self.count(puzzle, counter, modulo, runner_for(WITNESS_SECONDS)))
            if say:
                say(verify_table(added[-1:]).splitlines()[1] + "  (witness)")
        return added

    def _verify_sample(self, puzzle, runner_for, n: int, backends=None, say=None
                       ) -> Verification:
        import dataclasses
        import random

        from ..models.packing import Placed

        if any(p.count > 1 for p in puzzle.pieces):
            raise InputError("sample cubes are drawn for puzzles whose pieces are each one of a "
                             "kind (these have copies)", field="sample_cubes")
        ours, others = self.sampled_and_others(backends, ("xcover", "cpsat", "reference"))
        options = placements(puzzle)
        state = ours.prepare(ours.payload(self.encode(puzzle, ours, options)))
        left = min(SAMPLE_PIECES_LEFT, 2 * (len(puzzle.pieces) - len(puzzle.placed)) // 3)
        rng = random.Random(len(options))
        picked: list[tuple[list[int], int]] = []  # every cube holds a solution by its making:
        misses = 0  # one counted 0 is kept, to show as a disagreement
        start = last_word = time.monotonic()

        def drawing(searched: int) -> None:  # a word at least every SAMPLE_WORD_SECONDS
            nonlocal last_word
            if say and time.monotonic() - last_word >= SAMPLE_WORD_SECONDS:
                last_word = time.monotonic()
                say(f"drawing cubes: {len(picked)} of {n} drawn, {misses} random searches "
                    f"found no solution, {plural(searched, 'placement')} tried in this one "
                    f"({last_word - start:.0f} s)")

        for _ in range(200 * n):
            if len(picked) >= n or misses >= SAMPLE_MISSES:
                break
            chosen = random_path(puzzle, options, left, rng, progress=drawing)
            if chosen is None:
                misses += 1
                drawing(0)
                continue
            if any(chosen == c for c, _ in picked):
                continue
            (found,), _ = ours.count_cube(state, tuple(i + 1 for i in chosen), None)
            picked.append((chosen, found))
        if picked and len(picked) < n and say:
            say(f"warning: {len(picked)} of the {plural(n, 'cube')} asked for were drawn ({misses} "
                f"random searches found no solution): the rest are not checked")
        cards = []
        for number, (chosen, found) in enumerate(picked, start=1):
            held = tuple(Placed(options[i].piece, options[i].cells) for i in chosen)
            card = dataclasses.replace(puzzle, name=f"{puzzle.name}-cube-{number}",
                                       placed=puzzle.placed + held)
            cards.append((found, card, {
                "pieces_placed": len(card.placed),
                "placed": {puzzle.pieces[p.piece].name: [list(c) for c in p.cells]
                           for p in held},
            }))

        def count_in(card, backend):  # small: no worker processes
            return self.count(card, backend, "none", dataclasses.replace(runner_for(), jobs=1))

        rows, counts, agree, table = check_sampled_cubes(cards, ours.name, others, count_in,
                                                          "solutions", say)
        names = [ours.name] + [b.name for b in others]
        result = {
            "puzzle": f"{puzzle.name}-sample-cubes",
            "title": puzzle.title,
            "kind": self.kind,
            "counted": "solutions in each cube: coverings holding the cube's pieces where they "
            "are (pre-placed pieces for the other backends), rotations and reflections of a "
            "solution counted as different",
            "pieces_left": left,
            "cubes_asked": n,
            "cubes": rows,
            "backends": names,
            "agree": agree,
        }
        why = "" if agree else "the backends DISAGREE on a sampled cube"
        return Verification(puzzle.name, agree, why, counts, result, table)

    def export(self, puzzle, fmt, encoding=None, cube=None, clearance=None
               ) -> tuple[str | dict[str, bytes], str]:
        """The puzzle as DIMACS or DLX text, or (fmt 'stl', puzzles in space) files to print:
        every piece and a solution, cubes of `cube` mm, faces `clearance` mm inwards."""
        if fmt == "stl":  # files to print: every piece and a solution (a folder or a .zip)
            if "stl" not in puzzle.lattice.capabilities:
                printed = [name for name, grid in LATTICES.items() if "stl" in grid.capabilities]
                raise InputError(f"STL files are made of puzzles in space (lattice "
                                 f"{' or '.join(map(repr, printed))}), not on the "
                                 f"{puzzle.lattice.name} lattice", field="format")
            if encoding is not None:
                raise InputError("does not apply to STL files", field="encoding")
            from ..pictures.packing import print_set  # numpy-stl, the optional extra 'stl'
            from ..pictures.stl import CUBE_MM

            return print_set(puzzle, CUBE_MM if cube is None else cube, clearance or 0.0)
        for name, value in (("cube", cube), ("clearance", clearance)):
            if value is not None:
                raise InputError('applies to STL files only (format "stl")', field=name)
        options = placements(puzzle)
        if fmt == "dlx":
            if any(p.count > 1 or p.fewest != p.count for p in puzzle.pieces):
                raise InputError("Knuth's DLX1 covers each item once: pieces with copies "
                                 "(count = N) or in any number (a range or \"any\") cannot be "
                                 "written in it; the DIMACS format takes them", field="format")
            cover = encode_cover(exact_cover(puzzle, options))
            header = [
                f"puzzlesat export of {puzzle.name}: {puzzle.title}",
                "exact cover for Knuth's DLX1: pieces and cells are items; one option per "
                "placement (a piece in an orientation at a position)",
            ]
            return to_dlx(cover, header), (
                f"{plural(len(cover.items), 'item')}, {plural(len(cover.options), 'option')} "
                "(placements)")
        encoding = check_card_encoding(encoding, DEFAULT_CARD_ENCODING)
        model = encode_cnf(exact_cover(puzzle, options), encoding)
        header = [
            f"puzzlesat export of {puzzle.name}: {puzzle.title}",
            "a model of this CNF is a solution; count models projected on the placement variables",
            f"variables 1..{len(options)}: one per placement; exactly one per cell, each piece "
            f"used as its count says ({encoding}; a bound on a piece left out where the cells "
            "imply it)",
        ]
        return to_dimacs(model, header), (
            f"{plural(model.nvars, 'variable')}, {plural(len(model.clauses), 'clause')}, "
            f"{len(options)} placement variables"
        )


# Pieces a sampled cube leaves to place: two-thirds of them, at most 12, so that the slower
# backends count it in seconds (the one-sided 9x10, 12 of 18 pentominoes left, 60 cells: 1 to 17
# solutions a cube, CP-SAT 1.2-3.8 s, the reference 0.1-2.9 s, xcover under 0.5 s)
SAMPLE_PIECES_LEFT = 12
# Random searches finding no solution (each of `random_path`'s 200,000 placements) before drawing
# cubes gives up: a board with very few solutions (the 24 heptiamonds' gasket: 27) is verified
# whole; without a bound the draws went on for hours there
SAMPLE_MISSES = 20
# Seconds between words while cubes are drawn: one random search on the heptiamonds' 28x3
# chevron takes about 20 s, and 24 of them ran 9 minutes with nothing said
SAMPLE_WORD_SECONDS = 5.0


def random_path(puzzle: PackingPuzzle, options: list[Placement], left: int, rng,
                budget: int = 200_000, progress: Callable[[int], None] | None = None
                ) -> list[int] | None:
    """The first placements of a random solution, down to `left` pieces left: a depth-first
    search of the first empty cell (the fill order) trying the placements that fit it in a
    random order, so that the cube it names holds at least that solution; None where no
    solution turned up within `budget` placements (`progress`, where given, hears the
    placements tried every 10,000, for a word on a long draw). Written apart from the bitboard
    search it samples, so that the cube is checked, not assumed."""
    by_cell: dict = {}
    for i, option in enumerate(options):
        for cell in option.cells:
            by_cell.setdefault(cell, []).append(i)
    covered = {cell for p in puzzle.placed for cell in p.cells}
    used = {p.piece for p in puzzle.placed}
    open_cells = [c for c in puzzle.cells if c not in covered]
    chosen: list[int] = []

    def fits() -> list[int]:
        cell = next((c for c in open_cells if c not in covered), None)
        found = [] if cell is None else [
            i for i in by_cell.get(cell, ()) if options[i].piece not in used
            and not covered.intersection(options[i].cells)]
        rng.shuffle(found)
        return found

    tried = budget
    to_try = [fits()]  # per level: the placements that fit, in a random order, left to try
    while to_try and budget > 0:
        if len(chosen) == len(to_try):  # this level's placement was tried: take it back
            last = chosen.pop()
            covered.difference_update(options[last].cells)
            used.discard(options[last].piece)
        if not to_try[-1]:
            to_try.pop()
            continue
        i = to_try[-1].pop()
        budget -= 1
        if progress and budget % 10_000 == 0:
            progress(tried - budget)
        chosen.append(i)
        covered.update(options[i].cells)
        used.add(options[i].piece)
        if len(used) == len(puzzle.pieces) and all(c in covered for c in open_cells):
            return sorted(chosen[:len(chosen) - left])
        to_try.append(fits())
    return None


def _disagreement(counts: list[Count], solutions: set, classes: set) -> str | None:
    """Why a verification fails, or None when every finished count agrees.

    A count stopped by a time limit is a lower bound: it must not exceed the agreed count, and
    every backend must have finished at least one count.
    """
    if len(solutions) != 1 or len(classes) != 1:
        return "the backends DISAGREE" if solutions else "no count finished"
    total = next(iter(solutions))
    if any(c.details["solutions"] > total for c in counts if not c.complete):
        return "an unfinished count found more solutions than the others: the backends DISAGREE"
    unfinished = {c.backend for c in counts} - {c.backend for c in counts if c.complete}
    if unfinished:
        return f"no count finished on {', '.join(sorted(unfinished))}"
    if not any(c.modulo == "none" for c in counts if c.complete):
        return "no unreduced count finished to check the reduced ones"
    return None


def _run_json(count: Count) -> dict[str, object]:
    return {
        "backend": count.backend, "modulo": count.modulo,
        "solutions": count.details["solutions"], "classes": count.details["classes"],
        "seconds": round(count.seconds, 3), "complete": count.complete,
    }


def verify_table(counts: list[Count]) -> str:
    lines = [f"{'backend':22} {'modulo':9} {'solutions':>10} {'classes':>8} {'seconds':>8}"]
    # a count stopped by the time limit shows its lower bound, marked incomplete
    for c in counts:
        classes = "-" if c.details["classes"] is None else f"{c.details['classes']:,}"
        state = "" if c.complete else "  incomplete (a lower bound)"
        lines.append(f"{c.backend:22} {c.modulo:9} {c.details['solutions']:>10,} {classes:>8} "
                     f"{c.seconds:8.2f}{state}")
    return "\n".join(lines)


FAMILY = Packing()
