"""Memoised counting, the conventions of one-sided sets, and identical pieces (issue 14).

- The memoised bitboard search agrees with the plain one, xcover, CP-SAT, a PySAT solver and the
  reference on catalog puzzles and on random boards (holes, margins, one-sided sets closed under
  mirror images, boards with no symmetry, pieces with copies).
- Classes of one-sided sets closed under mirror images (--modulo symmetry: a reflection turns
  each piece into its mirror twin, the published convention) and under rotations alone
  (--modulo rotation), counted by Burnside's lemma on the count plan, equal the reference's
  canonical forms, which compute the twins and the board's symmetries in code of their own.
- Copies of a piece (count = N) are interchangeable: the 8x8 domino tilings, counted here, then
  compared with the figure published in 1961; a 30x30 domino board is refused at once, with its
  size, by the bitboard search.
"""

from __future__ import annotations

import numpy as np
import pytest
from _patience import cpu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat.backends.bitboard import Search, board_of, race_of
from puzzlesat.models.encoded import CoverModel
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import load
from puzzlesat.models.packing import PackingPuzzle, Piece, exact_cover, placements
from puzzlesat.models.packing.encode import encode_cover
from puzzlesat.models.packing.plan import count_plan, mirror_twins

SETTINGS = settings(deadline=None, derandomize=True, database=None, max_examples=25,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

SHAPES = {  # name -> picture; L4/J4 and S4/Z4 are mirror twins, the others their own
    "mono": ("X",),
    "domino": ("XX",),
    "I3": ("XXX",),
    "V3": ("X.", "XX"),
    "L4": ("X.", "X.", "XX"),
    "J4": (".X", ".X", "XX"),
    "S4": (".XX", "XX."),
    "Z4": ("XX.", ".XX"),
    "T4": ("XXX", ".X."),
    "O4": ("XX", "XX"),
}
TWINS = {"L4": "J4", "S4": "Z4"}


def counts(puzzle, backend: str, modulo: str, jobs: int = 1) -> tuple[int, int | None]:
    found = puzzlesat.count(puzzle, backend=backend, modulo=modulo, jobs=jobs)
    assert found.complete, backend
    return found.details["solutions"], found.details["classes"]


@st.composite
def puzzles(draw, one_sided: bool = False) -> PackingPuzzle:
    """A small board (holes, margins) and pieces of that area, some with copies; one-sided sets
    closed under mirror images where asked."""
    names = draw(st.lists(st.sampled_from(sorted(SHAPES)), min_size=1, max_size=3, unique=True))
    if one_sided:
        names += [TWINS[n] for n in names if n in TWINS]
        names += [k for k, v in TWINS.items() if v in names and k not in names]
    pieces = []
    for name in names:  # copies of the small pieces (each their own mirror twin)
        small = "".join(SHAPES[name]).count("X") <= 2
        pieces.append(Piece(name, SHAPES[name], draw(st.integers(1, 3)) if small else 1))
    area = sum(p.count * len(p.cells) for p in pieces)
    width = draw(st.integers(2, 5))
    height = -(-area // width)
    holes = height * width - area
    cells = [(r, c) for r in range(height) for c in range(width)]
    dropped = set(draw(st.permutations(cells))[:holes])
    top, left = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    board = tuple("." * width for _ in range(top)) + tuple(
        "." * left + "".join("." if (r, c) in dropped else "X" for c in range(width))
        for r in range(height))
    flip = False if one_sided else draw(st.booleans())
    return PackingPuzzle("random", board, tuple(pieces), flip)


BACKENDS = ("bitboard", "bitboard:memo", "bitboard:plain", "bitboard:fewest", "cpsat",
            "pysat:cadical195", "reference")


@SETTINGS
@given(puzzles())
def test_every_backend_agrees_with_copies_holes_and_margins(puzzle):
    if not puzzle.cells:
        return
    expected = counts(puzzle, "reference", "none")[0], counts(puzzle, "reference", "symmetry")[1]
    backends = BACKENDS[:-1] + (() if any(p.count > 1 for p in puzzle.pieces) else ("xcover",))
    for backend in backends:
        assert (counts(puzzle, backend, "none")[0],
                counts(puzzle, backend, "symmetry")[1]) == expected, backend


@SETTINGS
@given(puzzles(one_sided=True))
def test_one_sided_classes_by_burnside_equal_canonical_forms(puzzle):
    if not puzzle.cells or mirror_twins(puzzle) is None:
        return
    for modulo in ("symmetry", "rotation"):
        assert counts(puzzle, "bitboard", modulo) == counts(puzzle, "reference", modulo), modulo
    mirrored = counts(puzzle, "bitboard", "symmetry")
    rotations = counts(puzzle, "bitboard", "rotation")
    assert rotations[0] == mirrored[0]
    # each class with mirror images merged holds one or two rotation classes
    assert mirrored[1] <= rotations[1] <= 2 * mirrored[1]
    assert counts(puzzle, "cpsat", "symmetry") == mirrored


def test_one_sided_3x30_in_every_convention():
    puzzle = load("one-sided-pentomino-3x30")
    assert counts(puzzle, "bitboard", "none") == (184, None)
    assert counts(puzzle, "bitboard", "rotation") == (184, 92)
    assert counts(puzzle, "bitboard", "symmetry") == (184, 46)
    found = puzzlesat.count(puzzle, modulo="symmetry", jobs=1)
    assert "mirror twin" in found.counted and found.details["classes_by"] == "Burnside's lemma"


@pytest.mark.slow
def test_one_sided_3x30_classes_on_xcover_and_the_reference():
    puzzle = load("one-sided-pentomino-3x30")
    assert counts(puzzle, "xcover", "symmetry") == (184, 46)
    assert counts(puzzle, "reference", "symmetry") == (184, 46)


@pytest.mark.parametrize("name", ["pentomino-8x8-centre-hole", "iq-block-8"])
def test_memo_agrees_with_plain_search_cube_by_cube(name):
    puzzle = load(name)
    plan = count_plan(puzzle, "symmetry", 8)
    task = plan.tasks[0]
    board = board_of(encode_cover(exact_cover(puzzle, task.options)))
    from puzzlesat.backends.bitboard import Memo

    memo = Memo(1 << 12)  # small: entries are replaced, the counts stay exact
    for cube in task.cubes:
        plain, memoised = Search(board, cube), Search(board, cube, memo)
        while not plain.run(1000):
            pass
        while not memoised.run(1000):  # resumed slice after slice
            pass
        assert plain.found == memoised.found
        assert memoised.nodes <= plain.nodes


def test_dominoes_on_small_boards_every_backend():
    board = ("XXXX",) * 4
    puzzle = PackingPuzzle("d4", board, (Piece("domino", ("XX",), 8),), True)
    for backend in BACKENDS:
        assert counts(puzzle, backend, "none")[0] == 36, backend  # 4x4 domino tilings
    with pytest.raises(InputError, match="each item once"):
        puzzlesat.count(puzzle, backend="xcover")


def test_domino_tilings_of_the_chessboard():
    found = puzzlesat.count("domino-8x8", modulo="none")
    assert found.complete and found.number == 12_988_816  # Kasteleyn; Temperley and Fisher, 1961
    assert "copies of a piece are alike" in found.counted


def test_a_30x30_domino_board_builds_quickly_and_its_count_is_refused_past_124_bits():
    puzzle = PackingPuzzle("d30", ("X" * 30,) * 30, (Piece("domino", ("XX",), 450),), True)
    start = cpu()  # the work done, which a busy machine does not stretch
    cover = encode_cover(exact_cover(puzzle, placements(puzzle)))
    assert len(cover.options) == 2 * 30 * 29
    assert cpu() - start < 5
    with pytest.raises(InputError, match="solutions by Knuth's estimator.*2\\^124 - 1"):
        puzzlesat.count(puzzle, modulo="none")  # about 10^114


def test_copies_take_the_next_free_bits():
    # two copies of item 0 (a piece) and cells 1, 2: options place a copy on one cell each
    model = CoverModel(["p", "a", "b"], 3, [(0, 1), (0, 2), (0, 0, 1, 2)], multiplicity=[2, 1, 1],
                       fill_order=[1, 2, 0])
    search = Search(board_of(model), ())
    while not search.run(100):
        pass
    assert search.found == 2  # {a}{b} once, not twice; and the two-copy option alone


def test_mirror_and_published_are_other_words_for_symmetry():
    found = puzzlesat.count("one-sided-pentomino-3x30", backend="bitboard", modulo="published",
                            jobs=1)
    assert found.modulo == "symmetry" and found.number == 46
    assert puzzlesat.count("one-sided-pentomino-3x30", backend="bitboard", modulo="mirror",
                           jobs=1).number == 46


def test_a_set_without_mirror_images_counts_symmetry_as_rotation_and_says_so():
    chiral = PackingPuzzle("x", ("XXXX", "XXXX"), (Piece("L", SHAPES["L4"]),
                                                   Piece("L2", SHAPES["L4"])), False)
    found = puzzlesat.count(chiral, backend="bitboard", modulo="symmetry", jobs=1)
    rotations = puzzlesat.count(chiral, backend="bitboard", modulo="rotation", jobs=1)
    assert found.number == rotations.number
    assert found.details["solutions"] == rotations.details["solutions"] > 0
    assert "reflections are left out" in found.counted
    assert counts(chiral, "reference", "symmetry") == counts(chiral, "bitboard", "symmetry")


@pytest.mark.parametrize("name", ["pentomino-8x8-centre-hole", "iq-block-8"])
def test_dead_regions_and_fewest_fits_agree_with_the_first_cell_cube_by_cube(name):
    """Dropping options that close off a region no piece fills, and branching on the item with
    the fewest fits, change the tree, never a cube's count."""
    from dataclasses import replace

    puzzle = load(name)
    task = count_plan(puzzle, "symmetry", 8).tasks[0]
    model = encode_cover(exact_cover(puzzle, task.options))
    assert model.regions is not None
    pruned, blind = board_of(model), board_of(replace(model, regions=None))
    nodes = {"pruned": 0, "blind": 0, "fewest": 0}
    for cube in task.cubes:
        runs = {"pruned": Search(pruned, cube), "blind": Search(blind, cube),
                "fewest": Search(pruned, cube, fewest=True)}
        for key, search in runs.items():
            while not search.run(500):  # resumed slice after slice
                pass
            nodes[key] += search.nodes
        assert runs["pruned"].found == runs["blind"].found == runs["fewest"].found
        assert runs["blind"].dead_ends == 0
    assert nodes["pruned"] < nodes["blind"] / 2
    assert nodes["fewest"] < nodes["pruned"]


def test_the_default_chooses_the_branching_per_cube_by_the_estimate_and_counts_alike():
    """The default backend branches on the fewest fits where Knuth's estimator puts the
    first-empty-cell tree FEWEST_FROM times larger (some cubes of the 8x8 centre hole without
    symmetry), on the first empty cell where it does not (the one-sided 3x30, whose
    fewest-fits tree is the larger); the counts equal every mode's, xcover's and the
    reference's, and the choice follows the two estimates."""
    from puzzlesat.backends.bitboard import (
        CHOICE_PATHS,
        FEWEST_FROM,
        BitboardBackend,
        fewest_pays,
    )

    default = BitboardBackend()
    for name, modulo, chosen in (("pentomino-8x8-centre-hole", "none", True),
                                 ("one-sided-pentomino-3x30", "symmetry", False)):
        puzzle = load(name)
        task = count_plan(puzzle, modulo, 8).tasks[0]
        state = default.prepare(default.payload(encode_cover(exact_cover(puzzle,
                                                                         task.options))))
        picks = [race_of(default._search(state, cube, counting=True), cube) is not None
                 for cube in task.cubes]
        assert any(picks) is chosen
        board = state.board
        for cube, pick in zip(task.cubes, picks):
            first = Search(board, cube).estimate(CHOICE_PATHS)
            fewest = Search(board, cube, fewest=True).estimate(CHOICE_PATHS)
            if pick:
                assert fewest_pays(board, cube) and first > FEWEST_FROM * fewest
        found = {b: counts(puzzle, b, modulo) for b in
                 ("bitboard", "bitboard:plain", "bitboard:fewest", "bitboard:memo", "xcover")}
        assert len(set(found.values())) == 1, found
    assert counts(load("iq-block-8"), "bitboard", "symmetry") == counts(
        load("iq-block-8"), "reference", "symmetry")


def test_a_piece_in_parts_turns_region_pruning_off():
    """A closed region may be covered by a piece in two parts: no pruning is then sound."""
    whole = PackingPuzzle("whole", ("XXXX",), (Piece("A", ("XX",)), Piece("B", ("XX",))), True)
    parted = PackingPuzzle("parted", ("XXXX",), (Piece("A", ("X.X",)), Piece("B", ("X.X",))),
                           True)
    assert exact_cover(whole, placements(whole)).regions.smallest == 2
    assert exact_cover(parted, placements(parted)).regions is None
    assert counts(parted, "bitboard", "none") == counts(parted, "reference", "none") == (2, None)


def test_cube_estimates_follow_the_tree_the_search_walks():
    """Knuth's estimator is unbiased for the tree its paths follow: with dead regions dropped it
    estimates the nodes the search visits (plus the cube's own node), and without them the
    larger first-empty-cell tree (the progress bar's weights were that one until the 9x10
    showed its shares off by up to 1.6x)."""
    from dataclasses import replace

    puzzle = load("pentomino-8x8-centre-hole")
    task = count_plan(puzzle, "symmetry", 8).tasks[0]
    model = encode_cover(exact_cover(puzzle, task.options))
    pruned, blind = board_of(model), board_of(replace(model, regions=None))
    walked = {"pruned": 0, "blind": 0}
    estimated = {"pruned": 0.0, "blind": 0.0, "pruned, whole tree": 0.0}
    for cube in task.cubes[:6]:
        for key, board in (("pruned", pruned), ("blind", blind)):
            search = Search(board, cube)
            estimated[key] += search.estimate(20_000, seed=3)
            if key == "pruned":
                estimated["pruned, whole tree"] += search.estimate(20_000, seed=3, regions=False)
            while not search.run(10_000):
                pass
            walked[key] += search.nodes + 1
    for key in walked:  # heavy-tailed: a path-mean undershoots more often than it overshoots
        assert abs(estimated[key] / walked[key] - 1) < 0.2, (key, estimated, walked)
    assert abs(estimated["pruned, whole tree"] / walked["blind"] - 1) < 0.2
    assert walked["pruned"] < walked["blind"] / 2  # so each estimate tells the trees apart


# ---------------------------------------------------------------- the memo the threads share


def _count_on_threads(board, cubes, shared, threads: int, budget: int) -> list[list[int]]:
    """Each of `threads` threads counts every cube (each thread in its own order) with the
    shared memo, slice by slice, growing it between slices as a count does; each thread's
    counts in the cubes' order."""
    import threading

    from puzzlesat.backends.bitboard import Prepared, grow

    found = [[-1] * len(cubes) for _ in range(threads)]

    def work(t: int) -> None:
        state = Prepared(None, board, shared=shared)
        for i in sorted(range(len(cubes)), key=lambda i: (i * (t + 1)) % len(cubes)):
            search = Search(board, cubes[i], shared.take(board.words))
            while not search.run(budget):
                grow(state, search)
            found[t][i] = search.found

    team = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for thread in team:
        thread.start()
    for thread in team:
        thread.join()
    return found


def _shared_counts_as_plain(puzzle, modulo: str, threads: int, budget: int):
    """The first task's cubes counted by `threads` threads into one memo of four entries at
    first (slices of `budget` nodes), each thread's counts equal to the plain search's, cube
    by cube; the shared memo."""
    from puzzlesat.backends.bitboard import Memo, SharedMemo

    task = count_plan(puzzle, modulo, 8).tasks[0]
    board = board_of(encode_cover(exact_cover(puzzle, task.options)))
    plain = []
    for cube in task.cubes:
        search = Search(board, cube)
        while not search.run(10_000):
            pass
        plain.append(search.found)
    shared = SharedMemo(threads)
    shared.memo = Memo(4, board.words, shared=True)
    for counted in _count_on_threads(board, task.cubes, shared, threads, budget):
        assert counted == plain
    return shared


@SETTINGS
@given(puzzles(), st.integers(2, 4))
def test_a_memo_shared_by_threads_counts_as_the_plain_search(puzzle, threads):
    """Several threads counting the same cubes into one memo (a table of four entries at
    first, so that entries are replaced, written by one thread while another reads them, and
    the table is grown while the others go on) count each cube as the search without memo, and
    a count on threads (which share the memo) equals the reference's."""
    if not puzzle.cells:
        return
    assert _shared_counts_as_plain(puzzle, "none", threads, 20).memo.shared
    for backend in ("bitboard:memo", "bitboard"):
        assert counts(puzzle, backend, "none", jobs=threads) == counts(puzzle, "reference",
                                                                        "none")


def test_a_shared_memo_grows_and_its_hits_are_exact_on_a_catalog_puzzle():
    """IQ Block 8's cubes, counted by three threads each into one memo of four entries at
    first, in slices of 50 nodes: the memo grows, and every cube's count is the
    plain search's."""
    assert _shared_counts_as_plain(load("iq-block-8"), "symmetry", 3, 50).settled().size > 4


def test_a_shared_memo_never_returns_a_torn_entry():
    """Two threads hammer a table of four buckets, storing keys of three words (the count a
    function of the key) and reading them back: with the version word of each bucket no read
    returns a count that is not its key's. (Unguarded, the same hammering on this machine read
    3,392 and 3,377 wrong counts in 20 M rounds a thread: a key's words, then another key's
    count.)"""
    import threading

    from puzzlesat.backends.bitboard import Memo

    memo = Memo(8, 3, shared=True)
    outs = [np.zeros(2, dtype=np.int64) for _ in range(2)]
    team = [threading.Thread(target=_hammer, args=(memo.table, 3, s + 1, 2_000_000, outs[s]))
            for s in range(2)]
    for thread in team:
        thread.start()
    for thread in team:
        thread.join()
    assert [int(o[0]) for o in outs] == [0, 0]  # no wrong count
    assert all(o[1] > 0 for o in outs)  # and counts were read back


def _hammer(table, words, seed, rounds, out):
    """Random stores and reads of keys 0-63 in a shared memo table: out[0] wrong counts read,
    out[1] counts read (the C kernel's own memo functions, the GIL released)."""
    from puzzlesat import native

    native.kernel("bitboard").hammer(table, words, seed, rounds, out)


def test_a_threads_memo_grows_by_the_stores_of_all_its_searches():
    """Regression: the memo grew only where one search stored twice its entries, so a cube
    split into many short parts kept its first table (the one-sided 5x18 split into 2,326
    parts took 3 times its whole cubes' time). Stores now add up over a thread's searches."""
    from puzzlesat.backends.bitboard import Memo, Prepared, grow

    puzzle = load("pentomino-6x10")
    task = count_plan(puzzle, "none", 1).tasks[0]
    model = encode_cover(exact_cover(puzzle, task.options))
    board = board_of(model)
    state = Prepared(model, board, Memo.first(board.words))
    first = state.memo.size
    for _ in range(3):  # each search under twice the entries, together past it
        search = Search(board, ())
        search.memo = state.memo
        search.tally[2] = first
        grow(state, search)
    assert state.memo.size == 4 * first
    assert search.memo is state.memo


def test_a_shared_memo_grows_on_a_thread_of_its_own():
    """Regression: the thread whose report passed the stores grew the shared memo itself, so
    its part waited for the growth (the one-sided 5x18's growth to 33 M entries: 2.0 s, a part
    of 2.5 s where the others took at most 0.4 s). Now the search goes on with the old table
    and the larger one is the memo once it is filled."""
    from puzzlesat.backends.bitboard import Prepared, SharedMemo, grow

    puzzle = load("pentomino-6x10")
    task = count_plan(puzzle, "none", 1).tasks[0]
    board = board_of(encode_cover(exact_cover(puzzle, task.options)))
    shared = SharedMemo(2)
    old = shared.take(board.words)
    search = Search(board, ())
    search.memo = old
    search.tally[2] = 2 * old.size + 1
    grow(Prepared(None, board, shared=shared), search)
    assert search.memo is old  # it searches on at once
    larger = shared.settled()
    assert larger.size == 4 * old.size and larger.shared
    grow(Prepared(None, board, shared=shared), search)  # its next slice takes the larger
    assert search.memo is larger


def test_a_growing_memo_leaves_behind_the_entries_cheaper_to_count_again():
    """Growing a memo rehashed every entry: on the one-sided 5x18 --modulo symmetry the growth
    to 33 M entries took 2.1 s for 7.8 M entries, 53% of which had taken under 8 nodes to count
    (3% of the work they stand for), and a part split for 64 workers that grew it took 3.1 s
    against a budget of 0.25 s. The larger table now takes only the entries that took at least
    COPIED nodes, each of them (a table four times larger has room), and the count stays
    exact."""
    from puzzlesat import native
    from puzzlesat.backends.bitboard import COPIED, ENTRY, Memo

    puzzle = load("pentomino-6x10")
    task = count_plan(puzzle, "none", 1).tasks[0]
    board = board_of(encode_cover(exact_cover(puzzle, task.options)))
    old = Memo(1 << 12, board.words)
    search = Search(board, (), old)
    search.run(300_000)
    larger = Memo(4 * old.size, board.words)
    native.kernel("bitboard").rehash(old.table, larger.table, board.words, board.masks.zobrist,
                                     board.masks.fields, False, COPIED)

    def entries(memo):
        rows = memo.table.reshape(-1, board.words + ENTRY)
        return {tuple(r[:board.words]): int(r[board.words + 2]) for r in rows if r[0] != -1}

    before, after = entries(old), entries(larger)
    kept = {key: work for key, work in before.items() if work >= COPIED}
    assert 0 < len(kept) < len(before)  # both kinds were there
    assert after == kept
    plain, again = Search(board, ()), Search(board, (), larger)
    for each in (plain, again):
        while not each.run(10 ** 7):
            pass
    assert again.found == plain.found > 0


def test_the_default_memoises_a_cube_its_estimate_puts_small():
    """Regression: a cube of the one-sided 5x18 --modulo symmetry put at 34,000 nodes by the
    200-path estimate searched 50 M nodes without the memo (11.4 s, against 2.1 s with it):
    the default now memoises every cube it counts (but one with options left out)."""
    from puzzlesat.backends.bitboard import BitboardBackend

    default = BitboardBackend()
    puzzle = load("pentomino-6x10")
    task = count_plan(puzzle, "symmetry", 8).tasks[0]
    state = default.prepare(default.payload(encode_cover(exact_cover(puzzle, task.options))))
    searches = [default._search(state, cube, counting=True) for cube in task.cubes
                if not any(k < 0 for k in cube)]
    assert searches and all(s.memo.size > 0 for s in searches if not s.done)


def raced_cubes(name: str, modulo: str, jobs: int):
    """The default bitboard backend, its state for the first work of a catalog puzzle's plan,
    and that work's cubes it races (those a first-cell search may hand to the fewest fits)."""
    from puzzlesat.backends.bitboard import BitboardBackend

    default = BitboardBackend()
    puzzle = load(name)
    task = count_plan(puzzle, modulo, jobs).tasks[0]
    state = default.prepare(default.payload(encode_cover(exact_cover(puzzle, task.options))))
    return default, state, [c for c in task.cubes
                            if race_of(default._search(state, c, counting=True), c) is not None]


@pytest.mark.parametrize("race", [0.0, 1e9])
def test_the_fewest_fits_take_over_only_past_the_race(monkeypatch, race):
    """Regression: the estimates that choose the fewest fits cannot see the memo (a cube of
    the one-sided 5x18 at ratio 3.84: 44.6 s by the fewest fits, 1.1 s by the first empty cell
    with the memo). The default now searches the first empty cell until RACE times the
    fewest-fits tree's estimate: with no race at all the fewest fits take over at the first
    slice, with an endless one never; the count is the same either way."""
    from puzzlesat.backends import bitboard

    monkeypatch.setattr(bitboard, "RACE", race)
    monkeypatch.setattr(bitboard, "SLICE", 1_000)
    default, state, raced = raced_cubes("pentomino-8x8-centre-hole", "none", 8)
    assert raced
    for cube in raced[:2]:
        search = default._counted(state, cube, None)
        assert (search.fewest_levels > 0) is (race == 0.0)
        alone = Search(state.board, cube)
        while not alone.run(1 << 30):
            pass
        assert search.found == alone.found


def test_a_part_counted_for_a_budget_keeps_the_first_empty_cell(monkeypatch):
    """A part counted to be split where it stops (count_part) searches the first empty cell
    throughout, the branching its path is told in: with a race that would hand every cube to
    the fewest fits at once, a stopped part still says where it was (a fewest-fits race per
    part cost the 4x20 split on 2 threads 30% of its CPU, and a part it turned could not be
    split)."""
    import time

    from puzzlesat.backends import bitboard

    monkeypatch.setattr(bitboard, "RACE", 0.0)
    monkeypatch.setattr(bitboard, "SLICE", 1_000)
    default, state, raced = raced_cubes("one-sided-pentomino-5x18", "symmetry", 1)
    values, finished, rest = default.count_part(state, raced[0], time.time() + 0.05)
    assert not finished and rest is not None


def test_a_large_memo_table_is_empty_and_in_small_pages():
    """Regression: made by NumPy, a large memo table asked for transparent huge pages, and the
    kernel compacted memory as it was first written (7.7-10.6 s of system time on the 5x18 on
    one thread, against 0.7 s). A table of a huge page or more is now a mapping advised
    against them (where the system has the advice), every word -1, writable."""
    import mmap

    from puzzlesat.backends.bitboard import HUGE_PAGE, Memo, empty_table

    table = empty_table(HUGE_PAGE // 8 + 5)
    assert len(table) == HUGE_PAGE // 8 + 5 and (table == -1).all() and table.flags.writeable
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        assert isinstance(getattr(table.base, "obj", table.base), mmap.mmap)
    table[3] = 7
    assert table[3] == 7
    memo = Memo(1 << 16, 3, shared=True)
    stride = 2 * (3 + 3) + 1
    assert (memo.table[::stride] == 0).all() and memo.size == 1 << 16
