"""Dancing links and the bitboard search: exact-cover models, DLX export, agreement with the
reference solvers on packing and edge-matching puzzles."""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest
from _patience import cpu

import puzzlesat
from puzzlesat.backends.bitboard import BitboardBackend, board_of, warm_up
from puzzlesat.backends.xcover import XcoverBackend, count_cover
from puzzlesat.models.edge_matching import at_level, check_grid
from puzzlesat.models.edge_matching import cover as edge_cover
from puzzlesat.models.edge_matching.encode import grid_of, split_cubes
from puzzlesat.models.encoded import CoverModel, read_dlx, to_dlx
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import load
from puzzlesat.models.packing import exact_cover, placements
from puzzlesat.models.packing.encode import encode_cover
from puzzlesat.models.packing.plan import count_plan

needs_xcover = pytest.mark.skipif(
    not XcoverBackend.supported(), reason="xcover and numba not installed (the dlx extra)"
)
needs_numba = pytest.mark.skipif(
    not BitboardBackend.supported(), reason="the compiled bitboard search was not built"
)


def backends() -> list:
    found = []
    if BitboardBackend.supported():
        found.append(BitboardBackend())
    if XcoverBackend.supported():
        found.append(XcoverBackend())
    return found


def plan_count(backend, name: str, modulo: str, min_cubes: int = 1) -> tuple[int, int | None]:
    puzzle = load(name)
    plan = count_plan(puzzle, modulo, min_cubes)
    counts = []
    for task in plan.tasks:
        state = backend.prepare(backend.payload(encode_cover(exact_cover(puzzle, task.options))))
        counts.append([])
        for cube in task.cubes:
            values, finished = backend.count_cube(state, cube, None)
            assert finished
            counts[-1].append(values[0])
    return plan.combine(counts)


def reference_grids(puzzle) -> int:
    """Distinct grids by the reference backtracker, through the API."""
    found = puzzlesat.count(puzzle, backend="reference", jobs=1)
    assert found.complete
    return found.number


@pytest.mark.parametrize("backend", backends(), ids=lambda b: b.name)
@pytest.mark.parametrize("name", ["iq-block-8", "pentomino-3x20"])
def test_packing_agrees_with_reference(backend, name):
    reference = puzzlesat.count(name, backend="reference", modulo="symmetry", jobs=1)
    assert reference.complete
    total = reference.details["solutions"]
    assert plan_count(backend, name, "none") == (total, None)
    assert plan_count(backend, name, "symmetry", min_cubes=20) == (total, reference.number)
    # and through the API, as a user counts
    found = puzzlesat.count(name, backend=backend.name, modulo="symmetry", jobs=2)
    assert (found.details["solutions"], found.number) == (total, reference.number)


@needs_numba
def test_bitboard_counts_pentomino_5x12():
    puzzle = load("pentomino-5x12")
    total, classes = plan_count(BitboardBackend(), "pentomino-5x12", "symmetry")
    assert classes == puzzle.published["classes"]  # 1,010 classes
    assert total == 4 * classes  # no solution is symmetric on a 5x12 board: 4,040
    assert plan_count(BitboardBackend(), "pentomino-5x12", "none") == (total, None)


@pytest.mark.parametrize("backend", backends(), ids=lambda b: b.name)
def test_cubes_with_negative_literals_add_up(backend):
    puzzle = load("iq-block-8")
    model = encode_cover(exact_cover(puzzle, placements(puzzle)))
    state = backend.prepare(backend.payload(model))
    for k in (1, 7, 40):
        used = backend.count_cube(state, (k,), None)[0][0]
        unused = backend.count_cube(state, (-k,), None)[0][0]
        assert used + unused == 48
    assert backend.count_cube(state, (1, -1), None)[0] == (0,)


@pytest.mark.parametrize("backend", backends(), ids=lambda b: b.name)
def test_solutions_are_covers(backend):
    puzzle = load("iq-block-8")
    model = encode_cover(exact_cover(puzzle, placements(puzzle)))
    found = list(backend.solutions(model))
    assert len({tuple(v) for v in found}) == 48
    for values in found:
        covered = sorted(i for k, v in enumerate(values) if v for i in model.options[k])
        assert covered == list(range(len(model.items)))
    assert backend.solve(model).values in found


@needs_numba
def test_bitboard_stops_at_its_deadline():
    # a count of many slices (the 6x10 now counts within one: pruning and the memo)
    puzzle = load("one-sided-pentomino-5x18")
    backend = BitboardBackend()
    state = backend.prepare(backend.payload(encode_cover(exact_cover(puzzle, placements(puzzle)))))
    warm_up()  # compiled before the clock starts
    start = cpu()  # the search's work, which a busy machine does not stretch
    (found,), finished = backend.count_cube(state, (), time.time())
    assert not finished and found < 2_746_512 and cpu() - start < 5


@needs_numba
def test_bitboard_refuses_colours():
    model = CoverModel(["a", "s"], 1, [(0, 1)], colours=[{1: "red"}])
    with pytest.raises(ValueError, match="without secondary items"):
        board_of(model)


@needs_xcover
def test_dlx_export_of_iq_block_8_read_back():
    puzzle = load("iq-block-8")
    model = encode_cover(exact_cover(puzzle, placements(puzzle)))
    text = to_dlx(model, ["IQ Block 8", "every solution"])
    assert text.startswith("| IQ Block 8\n")
    again = read_dlx(text)
    assert again.items == model.items and again.options == model.options
    assert count_cover(again) == 48


def test_dlx_reader_names_the_line():
    with pytest.raises(InputError) as error:
        read_dlx("| a comment\na b | c\na c:red\nb d\n", file="x.dlx")
    assert (error.value.line, error.value.file) == (4, "x.dlx")


@needs_xcover
@pytest.mark.parametrize(
    "name, level", [("scramble-frog", 0), ("scramble-cowboys", 0), ("diamond-blocks", 2)]
)
def test_edge_cover_agrees_with_reference(name, level):
    puzzle = load(name)
    if level:
        puzzle = at_level(puzzle, level)
    reference = reference_grids(puzzle)
    model = edge_cover.encode_cover(puzzle)
    assert count_cover(model) == reference
    # the XCC export (colours as item:colour) reads back to the same count
    assert count_cover(read_dlx(to_dlx(model, [name]))) == reference


@needs_xcover
def test_edge_cover_diamond_blocks_level_1():
    """17,920 grids (identical tiles interchangeable), as the reference counts them."""
    puzzle = at_level(load("diamond-blocks"), 1)
    assert count_cover(edge_cover.encode_cover(puzzle)) == reference_grids(puzzle)


@needs_xcover
def test_edge_cover_cubes_add_up():
    """Cubes on the options of the first cells (as the family splits them) sum to the count."""
    puzzle = at_level(load("diamond-blocks"), 2)
    model = edge_cover.encode_cover(puzzle)
    backend = XcoverBackend()
    cubes = split_cubes(edge_cover.cover_options(puzzle), puzzle, 8)
    assert len(cubes) >= 8
    assert sum(backend.count_cube(model, cube, None)[0][0] for cube in cubes) == (
        reference_grids(puzzle)
    )


@needs_xcover
def test_edge_cover_solution_is_a_valid_grid():
    puzzle = at_level(load("diamond-blocks"), 2)
    model = edge_cover.encode_cover(puzzle)
    values = XcoverBackend().solve(model).values
    assert values is not None
    grid = grid_of(puzzle, edge_cover.cover_options(puzzle), values)
    assert check_grid(puzzle, grid) is None


def test_edge_cover_refuses_turns():
    with pytest.raises(ValueError, match="turn"):
        edge_cover.encode_cover(load("scramble-frog"), turns=2)


def test_dlx_export_renames_what_knuth_cannot_read():
    model = CoverModel(
        ["a", "a long item name", "s"],
        2,
        [(0, 2), (1, 2), (0, 1)],
        colours=[{2: "red"}, {2: "light red"}, {}],
    )
    text = to_dlx(model, ["renamed"])
    assert "| item i2 = a long item name" in text and "| colour c1 = light red" in text
    again = read_dlx(text)
    assert again.options == model.options and again.primary == 2
    assert again.colours[0][2] != again.colours[1][2]  # two colours stay two


@pytest.mark.parametrize("name", ["scramble-frog", "scramble-insects", "scramble-wizards",
                                  "scramble-cowboys", "scramble-crazy-planes"])
def test_xcover_counts_every_scramble_deck_as_the_reference(name):
    """Colour names longer than 8 characters (DRAGONFLY-T, DRAGONFLY-H) once ran together:
    xcover counted 28 insect grids for 4, and verify caught it."""
    if not XcoverBackend.supported():
        pytest.skip("xcover is an extra: pip install 'puzzlesat[dlx]'")
    found = puzzlesat.count(name, backend="xcover", jobs=1)
    assert found.complete and found.number == reference_grids(puzzlesat.load(name))
    for solution in puzzlesat.solutions(name, backend="xcover"):
        assert solution.found  # every grid checked edge by edge on the way out


def test_bench_sample_says_where_the_search_time_goes(tmp_path, capsys):
    """`bench --search PUZZLE --sample N`: the search's parts taken away in turn on a sample of
    the plan's cubes; the dead-region check must cut nodes, and every part agree cube by cube
    (profile_search raises otherwise)."""
    import csv

    from puzzlesat.cli import main

    assert main(["bench", "search", "pentomino-6x10", "--sample", "6", "--results",
                 str(tmp_path)]) == 0
    capsys.readouterr()
    rows = {r["part"]: r for r in csv.DictReader((tmp_path / "bitboard-profile.csv").open())}
    assert set(rows) == {"plain, no dead regions", "plain", "memo", "fewest fits",
                         "fewest fits, memo"}
    assert int(rows["plain"]["nodes"]) < int(rows["plain, no dead regions"]["nodes"])
    assert int(rows["plain"]["dead_region_drops"]) > 0
    assert int(rows["plain, no dead regions"]["dead_region_drops"]) == 0
    assert "ns/node" in (tmp_path / "bitboard-profile.md").read_text()


def test_bench_search_on_threads_times_the_shared_memo_against_each_threads_own(tmp_path,
                                                                                capsys):
    """`bench --search --jobs 2`: the whole count, then sampled cubes, on two threads with one
    memo for both and with one each; the arms agree (run_shared raises otherwise), and a second
    call keeps the first one's rows."""
    import csv

    from puzzlesat.cli import main

    assert main(["bench", "search", "--jobs", "2", "--repeat", "1", "pentomino-6x10",
                 "--results", str(tmp_path)]) == 0
    assert main(["bench", "search", "--jobs", "2", "--repeat", "1", "--sample", "3",
                 "pentomino-6x10", "--results", str(tmp_path)]) == 0
    assert "one memo shared by the threads" in capsys.readouterr().out
    rows = list(csv.DictReader((tmp_path / "bitboard-shared.csv").open()))
    assert [(r["counted"].startswith("3 sampled"), r["memo"]) for r in rows] == [
        (False, "each thread its own memo"), (False, "one memo shared by the threads"),
        (True, "each thread its own memo"), (True, "one memo shared by the threads")]
    assert rows[0]["answer"] == rows[1]["answer"] == "9,356 solutions, 2,339 classes"
    assert all(int(r["median_nodes"]) > 0 for r in rows)
    assert main(["bench", "search", "--jobs", "2", "--against", "HEAD"]) == 2


def test_bench_search_on_threads_stops_promptly_on_ctrl_c():
    """Regression (0da9971): `bench --search --jobs 2` on the one-sided 5x18, interrupted,
    said 'interrupted' and went on for the rest of the count (its threads were never told to
    stop): it now runs on executors.run_on_threads, which stops them at their next slice."""
    import os
    import signal
    import threading

    from puzzlesat.benchmarks import packing

    plan, models = packing.plan_models("one-sided-pentomino-5x18", "symmetry", 8)
    parts = [(model, task.cubes) for task, model in zip(plan.tasks, models)]
    # Ctrl-C as Python takes it in a terminal: a run started in the background by a shell
    # (`cmd &`, nohup) inherits SIGINT ignored, and the signal would never arrive
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    try:
        start = cpu()  # every thread's work: about 2 CPU minutes if the stop were missed
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            packing.count_on_threads(parts, 2, True)  # about a minute on two idle cores
        assert cpu() - start < 15
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_bench_choice_counts_sampled_cubes_in_both_branchings(tmp_path, capsys, monkeypatch):
    """`bench --search --choice --sample N`: FEWEST_FROM's figures from a command (they came
    from a script): cubes spread over the sizes of those the default chooses for, each counted
    on the first empty cell and on the fewest fits (run_choice raises where they disagree),
    their estimated ratio, and the weighted total at each threshold; a second puzzle's call
    keeps the first one's rows. (Every cube is made large enough here: IQ Block 8's are small.)"""
    import csv

    from puzzlesat.backends import bitboard
    from puzzlesat.cli import main

    monkeypatch.setattr(bitboard, "CHOICE_FROM_NODES", 0)
    for name in ("iq-block-8", "pentomino-8x8-centre-hole"):
        assert main(["bench", "search", "--choice", "--sample", "3", name, "--results",
                     str(tmp_path)]) == 0
    assert "weighted CPU s: at 1.5:" in capsys.readouterr().out
    rows = list(csv.DictReader((tmp_path / "bitboard-choice.csv").open()))
    assert [r["puzzle"] for r in rows] == ["iq-block-8"] * 3 + ["pentomino-8x8-centre-hole"] * 3
    assert sum(int(r["first_cell_nodes"]) + int(r["fewest_nodes"]) for r in rows) > 0
    for row in rows:
        assert float(row["ratio"]) > 0
        assert "at 3.5:" in row["weighted_totals"] and "fewest fits only" in row["weighted_totals"]
    assert "## iq-block-8, symmetry" in (tmp_path / "bitboard-choice.md").read_text()
    assert main(["bench", "search", "--choice", "iq-block-8"]) == 2  # no --sample


def test_bench_choice_counts_the_raced_cubes_at_each_race(tmp_path, capsys, monkeypatch):
    """`bench search --choice --race R`: each sampled cube the default races counted again as
    the default counts it at each R (its count equal to both branchings': run_choice raises
    otherwise), and the total at each R; RACE as it was after the bench; --race alone is
    refused in one line."""
    import csv

    from puzzlesat.backends import bitboard
    from puzzlesat.cli import main

    monkeypatch.setattr(bitboard, "CHOICE_FROM_NODES", 0)
    monkeypatch.setattr(bitboard, "FEWEST_FROM", 0.0)  # every sampled cube races ...
    monkeypatch.setattr(bitboard, "SLICE", 100)  # ... priced after a first slice this small
    monkeypatch.setattr(bitboard.Slices, "LEAST", 100)
    assert main(["bench", "search", "--choice", "--sample", "3", "--race", "0.01", "--race",
                 "2", "--repeat", "2", "pentomino-8x8-centre-hole", "--results",
                 str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "default at RACE 0.01:" in out and "default at RACE 2:" in out
    rows = list(csv.DictReader((tmp_path / "bitboard-choice.csv").open()))
    assert len(rows) == 3
    nodes = []
    for row in rows:
        runs = row["race_runs"].split("; ")
        assert [run.split(":")[0] for run in runs] == ["0.01", "2"]
        nodes.append([int(run.split(", ")[1].split()[0].replace(",", "")) for run in runs])
    # the largest cube: RACE 0.01 hands it to the fewest fits early, RACE 2 never
    assert nodes[-1][0] < nodes[-1][1] == int(rows[-1]["first_cell_nodes"])
    assert main(["bench", "search", "--race", "0.5", "iq-block-8"]) == 2
    assert "add --choice" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["iq-block-8", "soma"])
def test_sampled_cubes_are_counted_alike_by_every_backend(name, tmp_path):
    """verify --sample-cubes: random cubes of the bitboard search (the first pieces of a random
    solution), each counted there and, as a challenge with those pieces pre-placed, by xcover,
    CP-SAT and the reference: 2D and 3D."""
    from puzzlesat.cli import main

    assert main(["verify", name, "--sample-cubes", "3", "--results", str(tmp_path)]) == 0
    written = json.loads((tmp_path / f"{name}-sample-cubes.json").read_text())
    assert written["agree"] and len(written["cubes"]) == 3
    assert written["backends"] == ["bitboard", "xcover", "cpsat", "reference:packing"]
    for cube in written["cubes"]:
        assert cube["bitboard"] >= 1  # a prefix of a solution holds at least that solution
        assert cube["pieces_placed"] == len(cube["placed"]) >= 1


def test_a_sampled_cube_counted_wrong_is_reported(monkeypatch):
    """The check can fail: a bitboard count off by one on every cube is a disagreement."""
    from puzzlesat.backends.bitboard import BitboardBackend

    counted = BitboardBackend.count_cube

    def off_by_one(self, state, cube, deadline):
        (found,), finished = counted(self, state, cube, deadline)
        return (found + 1,), finished

    monkeypatch.setattr(BitboardBackend, "count_cube", off_by_one)
    found = puzzlesat.verify("iq-block-8", sample_cubes=2)
    assert not found.agree and "DISAGREE" in found.why

    def none_found(self, state, cube, deadline):  # a cube holding a solution counted empty
        return (0,), True

    monkeypatch.setattr(BitboardBackend, "count_cube", none_found)
    found = puzzlesat.verify("iq-block-8", sample_cubes=2)
    assert not found.agree and [c["bitboard"] for c in found.result["cubes"]] == [0, 0]


def test_edge_matching_sampled_cubes_agree():
    found = puzzlesat.verify("scramble-frog", sample_cubes=2)
    assert found.agree and [c["edgecount"] for c in found.result["cubes"]] == [8, 8]
    assert found.result["backends"] == ["edgecount", "xcover", "cpsat"]


def test_sampled_cubes_are_counted_by_the_search_mode_named(monkeypatch, capsys):
    """Regression: `verify --sample-cubes` always drew and counted its cubes with the default
    bitboard mode (verify took no --backend). The mode named counts them, and the other
    backends named count them again; two modes of the search are refused in one line."""
    from puzzlesat.backends.bitboard import BitboardBackend
    from puzzlesat.cli import main

    modes = []
    counted = BitboardBackend.count_cube

    def recorded(self, state, cube, deadline):
        modes.append(self.name)
        return counted(self, state, cube, deadline)

    monkeypatch.setattr(BitboardBackend, "count_cube", recorded)
    found = puzzlesat.verify("iq-block-8", ["bitboard:fewest", "cpsat"], sample_cubes=2)
    assert found.agree and found.result["backends"] == ["bitboard:fewest", "cpsat"]
    assert set(modes) == {"bitboard:fewest"}
    assert main(["verify", "iq-block-8", "--sample-cubes", "2", "--backend", "bitboard:plain"]) == 0
    assert "bitboard:plain" in capsys.readouterr().out
    assert main(["verify", "iq-block-8", "--sample-cubes", "2", "--backend", "bitboard:plain",
                 "--backend", "bitboard:fewest"]) == 2
    err = capsys.readouterr().err
    assert "--backend" in err and len(err.strip().splitlines()) == 1
    found = puzzlesat.verify("scramble-frog", ["edgecount", "cpsat"], sample_cubes=1)
    assert found.agree and found.result["backends"] == ["edgecount", "cpsat"]


def test_sample_cubes_where_no_family_offers_them_is_refused():
    with pytest.raises(InputError, match="does not apply to mind-lock") as refused:
        puzzlesat.verify("mind-lock", sample_cubes=2)
    assert refused.value.field == "sample_cubes"
    with pytest.raises(InputError, match="at least 1"):
        puzzlesat.verify("iq-block-8", sample_cubes=0)
    with pytest.raises(InputError, match="copies"):
        puzzlesat.verify("domino-8x8", sample_cubes=1)


NO_SOLUTION = '''kind = "packing"
board = """
XXX
X.X
XXX
"""
[pieces]
I = "XXX"
V = """
XXX
X..
X..
"""
'''


def test_sample_cubes_of_a_puzzle_without_solutions_are_refused_not_agreed(tmp_path, capsys):
    """Regression: with no random search reaching a solution, no cube was drawn and the check
    agreed over nothing (and on boards with very few solutions the draws went on for hours); now
    it stops after a bounded number of fruitless searches and says why, in one line."""
    from puzzlesat.cli import main

    path = tmp_path / "ring.toml"
    path.write_text(NO_SOLUTION)
    assert puzzlesat.count(str(path), backend="xcover").number == 0
    with pytest.raises(InputError, match="no cube could be drawn") as refused:
        puzzlesat.verify(str(path), sample_cubes=2)
    assert refused.value.field == "sample_cubes"
    assert main(["verify", str(path), "--sample-cubes", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--sample-cubes" in err and len(err.splitlines()) == 1


needs_cc = pytest.mark.skipif(
    not (shutil.which("cc") or shutil.which("gcc")),
    reason="no C compiler (cc or gcc): the dancing-links anchor cannot be built")


@needs_cc
@pytest.mark.parametrize("name, modulo", [("iq-block-8", "symmetry"), ("soma", "symmetry"),
                                          ("pentomino-8x8-centre-hole", "none")])
def test_the_c_dancing_links_anchor_counts_what_our_count_counts(name, modulo, tmp_path):
    """dlx.c (our Algorithm X with dancing links, the anchor of `bench --anchor dlx`) counts
    the same count plan to the same solutions and classes as `puzzlesat.count`, 2D and 3D,
    with and without symmetry; cubes that leave options out or clash are counted too."""
    from puzzlesat.benchmarks import build_c
    from puzzlesat.benchmarks.packing import DLX_SOURCE, count_dlx, dlx_input, plan_models

    binary = build_c(DLX_SOURCE, tmp_path)
    found = puzzlesat.count(name, modulo=modulo, jobs=1)
    done = count_dlx(binary, name, modulo)
    assert done.answer == (found.details["solutions"], found.details["classes"])
    assert done.nodes > 0
    # a cube leaving out options (-k), and one choosing two options that clash
    _, [model, *_] = plan_models(name, "none", 1)
    first = [k for k, option in enumerate(model.options) if model.fill_order[0] in option]
    whole, kept, clash = (run_dlx_cubes(binary, model, [cube])
                          for cube in [(), tuple(-(k + 1) for k in first[1:]),
                                       (first[0] + 1, first[1] + 1)])
    assert whole == count_cover(model) and clash == 0
    assert kept == count_cover(model, (first[0] + 1,))
    assert dlx_input(model, [()]).startswith(f"{len(model.items)} {len(model.options)}\n")


def run_dlx_cubes(binary, model, cubes) -> int:
    """The solutions dlx.c counts in the given cubes of an exact cover."""
    from puzzlesat.benchmarks.packing import dlx_input

    out = subprocess.run([str(binary)], input=dlx_input(model, cubes), capture_output=True,
                         text=True, check=True).stdout.split("\n")
    return sum(int(line.split()[0]) for line in out if line and not line.startswith("cpu"))


@needs_cc
def test_bench_anchor_dlx_prints_both_counts_and_records_only_when_asked(tmp_path, capsys,
                                                                         monkeypatch):
    """`bench --anchor dlx PUZZLE`: ours and the C anchor, medians, nodes, nodes/s and ratios
    printed; nothing written without --record, dlx-anchor.md and .csv with --results, a second
    puzzle's call keeping the first one's rows (the boxes of item 4 and the small boards of
    item 6 are two calls: a board other than the boxes is held to item 6's ratio only)."""
    import csv

    from puzzlesat.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["bench", "dlx", "iq-block-8", "--repeat", "1"]) == 0
    said = capsys.readouterr().out
    assert "dlx.c" in said and "ratio" in said and "nodes/s" in said
    assert "no slower than the anchor: " in said and "60 s:" not in said
    assert not list(tmp_path.iterdir())
    for name in ("iq-block-8", "pentomino-8x8-centre-hole"):
        assert main(["bench", "dlx", name, "--repeat", "1", "--results",
                     str(tmp_path / "r")]) == 0
    text = (tmp_path / "r" / "dlx-anchor.md").read_text()
    assert "| iq-block-8 | symmetry | dlx.c" in text
    assert "| pentomino-8x8-centre-hole | symmetry | dlx.c" in text
    rows = list(csv.DictReader((tmp_path / "r" / "dlx-anchor.csv").open()))
    assert [r["puzzle"] for r in rows] == ["iq-block-8"] * 2 + ["pentomino-8x8-centre-hole"] * 2
    ours = [r for r in rows if r["method"].startswith("ours")]
    assert all(r["seconds_target_met"] in ("", "None") for r in ours)
    assert all(r["ratio_target_met"] in ("True", "False") for r in ours)
    assert main(["bench", "dlx", "domino-8x8"]) == 2  # copies: refused in words


@needs_xcover
def test_bench_startup_writes_the_stages_of_a_whole_count_beside_its_anchors(tmp_path, capsys,
                                                                             monkeypatch):
    """`bench --startup PUZZLE` (issue 27 item 6: where a whole `puzzlesat count` process
    spends its time): ours, xcover's and (with a C compiler) dlx.c's whole runs, and every
    stage of the same steps in fresh processes (imports, numba's cache load, plan, encoding,
    the search, exit; ours and xcover's), with the two targets' ratios; nothing written without
    --record; startup-profile.md and .csv with --results. Not timed: the stages are asserted
    present, numbers and answers agreeing (run_startup raises where they do not)."""
    import csv

    from puzzlesat.benchmarks.startup import stages
    from puzzlesat.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["bench", "startup", "iq-block-8", "--repeat", "1"]) == 0
    assert "ratio" in capsys.readouterr().out and not list(tmp_path.iterdir())
    assert main(["bench", "startup", "iq-block-8", "--repeat", "1",
                 "--results", str(tmp_path / "r")]) == 0
    rows = list(csv.DictReader((tmp_path / "r" / "startup-profile.csv").open()))
    methods = [r["method"] for r in rows]
    named = [s["stage"] for s in stages("iq-block-8", "symmetry", 1)["stages"]]
    for stage in ["exit (the answer printed, os._exit)", *named[:-1]]:
        assert stage in methods and "xcover: " + stage in methods
    search = next(r for r in rows if r["method"].startswith("the search"))
    assert all(float(r["median_seconds"]) >= 0 and float(r["median_cpu_seconds"]) >= 0
               for r in rows)
    assert {r["solutions"] for r in rows} == {"48"} and {r["classes"] for r in rows} == {"6"}
    whole = next(r for r in rows if r["method"].startswith("ours: whole"))
    assert whole["against"].startswith("xcover") and whole["ratio_target"] == "0.5"
    assert whole["ratio_target_met"] in ("True", "False")
    if shutil.which("cc") or shutil.which("gcc"):
        assert search["against"].startswith("dlx.c") and search["ratio_target"] == "1.0"
    text = (tmp_path / "r" / "startup-profile.md").read_text()
    assert "| iq-block-8 | symmetry | 48 | 6 | the compiled kernel loaded (warm_up) |" in text
    assert (tmp_path / "r" / "index.md").exists()
    with pytest.raises(SystemExit) as refused:  # the old flags naming two suites: a usage error
        main(["bench", "--startup", "--anchor", "dlx", "iq-block-8"])
    assert refused.value.code == 2 and "unrecognized arguments: --anchor" in capsys.readouterr().err
    # regression: a puzzle with copies ended in a traceback (xcover's process refused it)
    assert main(["bench", "startup", "domino-8x8"]) == 2
    err = capsys.readouterr().err
    assert "copies" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_xcover_bench_keeps_other_puzzles_rows(tmp_path):
    """Regression: results/dlx-bench.* were written whole from one call's rows, so recording
    one board (`bench --anchor xcover PUZZLE --record`) dropped every other board's rows."""
    from puzzlesat.benchmarks import packing

    def row(name: str, seconds: float) -> packing.Row:
        return packing.Row(name, "symmetry", packing.ANCHOR, 48, 6, seconds, f"{seconds:.3f}",
                           seconds, 1.0, None, "1.00")

    packing.write([row("iq-block-8", 1.5)], tmp_path, 3, 2)
    packing.write([row("iq-block-10", 2.5)], tmp_path, 3, 2)
    packing.write([row("iq-block-10", 3.5)], tmp_path, 3, 2)  # the same board: replaced
    text = (tmp_path / "dlx-bench.md").read_text()
    assert "| iq-block-8 | symmetry |" in text and "| 1.50 | 1.500 |" in text
    assert "| 3.50 | 3.500 |" in text and "| 2.50 |" not in text


def test_drawing_sampled_cubes_is_never_silent(monkeypatch):
    """Regression: `verify heptiamonds-28x3-chevron --sample-cubes 6` drew its cubes for 9
    minutes (24 random searches of about 20 s each) with nothing said. Each random search now
    reports its placements as it goes; every word is passed on once its interval is up (0 here)."""
    import functools

    import puzzlesat
    from puzzlesat.families import packing

    monkeypatch.setattr(packing, "SAMPLE_WORD_SECONDS", 0.0)
    monkeypatch.setattr(packing, "SAMPLE_MISSES", 2)
    monkeypatch.setattr(packing, "random_path",
                        functools.partial(packing.random_path, budget=20_000))
    words: list[str] = []
    try:  # 27 solutions: random searches of 20,000 placements find none
        puzzlesat.verify("heptiamonds-hexagon-hexagram-gasket-2", sample_cubes=2,
                         say=words.append)
    except puzzlesat.InputError:
        pass
    drawing = [w for w in words if w.startswith("drawing cubes")]
    assert any("10,000 placements tried" in w for w in drawing), words
    assert any("2 random searches found no solution" in w for w in drawing), words
