"""Cubes split on demand (issue 40, items 1 and 3): a split plan counts exactly.

- Random small boards (hypothesis): the cubes split before the run by their estimates, and
  cubes stopped by a budget and split while running, give the count of the plain plan, with
  and without symmetry reduction; a cube's children hold exactly its solutions.
- Threads, a process pool and dask-local: the 6x10 pentominoes' known count (2,339 classes,
  9,356 solutions) with cubes split both ways.
- A checkpoint cut midway while cubes were being split resumes to the exact total, whatever
  the resumed count splits; a part no split makes is refused.
- Bad input: one line, exit 2; `checkpoint --workers` reports the split plan; the JSON output
  says how busy the workers were.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesat import api
from puzzlesat.models.errors import InputError
from puzzlesat.registry import backend as backend_named

PENTOMINO_6X10 = {"none": 9356, "symmetry": 2339}  # published; README's table agrees


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    """Small boards split by --split-for alone too (its budget is at least LEAST_BUDGET, longer
    than their cubes take)."""
    monkeypatch.setattr("puzzlesat.splitting.LEAST_BUDGET", 1e-6)


def board_toml(cells: list[tuple[int, int]], orders: list[int]) -> str:
    return ('kind = "packing"\nlattice = "square"\n'
            f"polyforms = {orders}\ncount = \"any\"\n"
            f"board = {[list(c) for c in cells]}\n")


@st.composite
def boards(draw) -> str:
    """A connected square board of 6 to 14 cells grown at random, packed by dominoes and
    trominoes (or monominoes to trominoes) in any number."""
    rnd = random.Random(draw(st.integers(0, 10 ** 6)))
    size = draw(st.integers(6, 14))
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = rnd.choice(sorted(cells))
        cells.add(rnd.choice([(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]))
    low_r, low_c = min(r for r, _ in cells), min(c for _, c in cells)
    moved = sorted((r - low_r, c - low_c) for r, c in cells)
    return board_toml(moved, draw(st.sampled_from([[2, 3], [1, 2, 3]])))


def load(tmp_path, text: str):
    path = tmp_path / "board.toml"
    path.write_text(text)
    return api.load(str(path))


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=boards(), modulo=st.sampled_from(["none", "symmetry"]))
def test_split_plans_count_random_boards_exactly(tmp_path_factory, text, modulo):
    """... and their progress ends where the plain plan's does: all of the work done, the same
    count shown (each part's found added once, a stopped part's own share of the work)."""
    puzzle = load(tmp_path_factory.mktemp("b"), text)
    seen: list[tuple[int, int, int]] = []
    plain = api.count(puzzle, "bitboard", modulo, jobs=1, progress=lambda *said: seen.append(
        said))
    shown = seen[-1][2]
    for split_for, after in ((64, None), (8, 1e-6)):
        seen.clear()
        split = api.count(puzzle, "bitboard", modulo, jobs=2, split_for=split_for,
                          split_after=after, progress=lambda *said: seen.append(said))
        assert (split.number, split.details["solutions"]) == (
            plain.number, plain.details["solutions"]), (split_for, after)
        assert split.complete
        done, total, found = seen[-1]
        assert found == shown and abs(done - total) <= 0.001 * total, (split_for, after)


def test_children_hold_exactly_the_cube(tmp_path):
    """Backend.split: the children's counts add up to the cube's, on cubes at every depth."""
    from puzzlesat.models.packing import placements
    from puzzlesat.models.packing.plan import count_plan

    puzzle = api.load("pentomino-6x10")
    chosen = backend_named("bitboard")
    plan = count_plan(puzzle, "symmetry", min_cubes=4)
    family = api.family_of(puzzle)
    model = family.encode(puzzle, chosen, placements(puzzle), None)
    state = chosen.prepare(chosen.payload(model))
    rnd = random.Random(5)
    walked = 0
    for root in rnd.sample(plan.tasks[0].cubes, 6):
        cube = root
        for _ in range(3):  # down a random path of splits
            children = chosen.split(state, cube)
            whole = chosen.count_cube(state, cube, None)[0][0]
            if children is None:  # a cube with no step left
                break
            assert sum(chosen.count_cube(state, c, None)[0][0] for c in children) == whole
            assert all(c[:len(cube)] == cube and len(c) == len(cube) + 1 for c in children)
            walked += 1
            if not children:  # none fits: the cube has no solution
                assert whole == 0
                break
            cube = rnd.choice(children)
    assert walked >= 6


@pytest.fixture(params=["threads", "processes", "dask-local:2"])
def executor(request, monkeypatch):
    if request.param == "processes":  # the pool of processes, not the GIL-free threads
        monkeypatch.setattr("puzzlesat.executors._releases_gil", lambda name: False)
        return "local"
    if request.param.startswith("dask"):
        pytest.importorskip("distributed")
        return request.param
    return "local"


@pytest.mark.parametrize(("puzzle", "modulo", "known"), [
    ("pentomino-6x10", "symmetry", PENTOMINO_6X10), ("pentomino-6x10", "none", PENTOMINO_6X10)])
def test_split_plan_counts_on_every_executor(executor, puzzle, modulo, known):
    """Split while running (the 6x10's cubes run past 2 ms: their parts go to the workers that
    are free), on threads, processes and Dask. Dask's parts are cut at 20 ms: each part is a
    task of the scheduler's, about 7 ms of round trip here (at 2 ms, modulo none: 18,772 parts
    in 126 s, against 12,502 in 8 s on threads; at 20 ms 1,714 parts in 10 s)."""
    found = api.count(puzzle, "bitboard", modulo, jobs=2, executor=executor, split_for=32,
                      split_after=0.02 if executor.startswith("dask") else 0.002)
    assert found.complete
    assert found.details["solutions"] == known["none"]
    assert found.number == known[modulo]
    assert found.details["split"]["cubes_split"] > 0
    assert 0 < found.details["workers_busy"] <= 1


def test_a_budget_splits_running_cubes_keeping_what_they_counted(tmp_path):
    """Cubes of the 6x10 (modulo none, 8 cubes) run far past a budget of 2 ms: each is stopped,
    what its search finished is kept (a line with `rest`), and the rest of it is counted as
    parts; nothing is thrown away where the search stopped in first-empty-cell order."""
    path = tmp_path / "budget.checkpoint"
    found = api.count("pentomino-6x10", "bitboard", "none", jobs=2, split_for=1,
                      split_after=0.002, checkpoint=str(path))
    assert found.number == PENTOMINO_6X10["none"]
    assert found.details["split"]["cubes_split"] > 0
    assert any('"rest"' in line for line in lines(path))


@pytest.mark.parametrize("searched", ["bitboard:plain", "bitboard:fewest"])
def test_a_stopped_search_says_exactly_how_far_it_got(searched):
    """Backend.count_part: stopped at a deadline, its numbers are exactly those of the branches
    before the path it returns, so they and the parts after the path (splitting's `the_rest`)
    add up to the cube, at whatever depth the search stopped: on the first empty cell
    everywhere, and on the fewest fits everywhere (which said nothing before: rest None, its
    work thrown away)."""
    import time

    from puzzlesat import splitting
    from puzzlesat.executors import Work
    from puzzlesat.models.packing import placements
    from puzzlesat.models.packing.plan import count_plan

    puzzle = api.load("pentomino-6x10")
    chosen = backend_named(searched)
    family = api.family_of(puzzle)
    plan = count_plan(puzzle, "none", min_cubes=2)
    payload = chosen.payload(family.encode(puzzle, chosen, placements(puzzle), None))
    state = chosen.prepare(payload)
    parts = splitting.Parts(Work("w", chosen.name, payload, plan.tasks[0].cubes), [], chosen)
    depths = set()
    for cube in plan.tasks[0].cubes[:4]:  # (the third runs past 200,000 nodes: stopped)
        whole = chosen.count_cube(state, cube, None)[0][0]
        # (a state of its own: the memo the whole count filled would finish it at once)
        values, finished, rest = chosen.count_part(chosen.prepare(payload), cube,
                                                   time.time() + 0.0002)
        if finished:
            assert values[0] == whole
            continue
        depths.add(len(rest))
        after = parts.the_rest(splitting.Part(0, (), cube, 1.0), rest)
        assert all(p.literals[:len(cube)] == cube for p in after)
        assert values[0] + sum(chosen.count_cube(state, p.literals, None)[0][0]
                               for p in after) == whole
    assert depths and max(depths) > 1  # stopped deep in a cube's search


@pytest.fixture
def fewest_at_once(monkeypatch):
    """Every counting search of the default turns to the fewest fits after its first 1,000
    nodes (as the one-sided 9x10's large cubes do after millions)."""
    from puzzlesat.backends import bitboard

    monkeypatch.setattr(bitboard, "fewest_race", lambda board, cube, race: 1000)


def test_a_part_the_fewest_fits_took_over_splits_on_them_and_resumes_exactly(
        tmp_path, fewest_at_once, monkeypatch):
    """Regression: a part kept the first empty cell where the whole cube's search would have
    turned to the fewest fits (the one-sided 9x10's drawn cubes split for 64 workers searched
    1.8 times the nodes, 1.46 times the seconds, of one worker). A part now races as a cube;
    one the fewest fits took over says where it was among their children (rest beginning
    with REST_FEWEST), its parts hold FEWEST and split on the fewest fits; cut midway, the
    checkpoint resumes to the exact total, with the race or without."""
    from puzzlesat.backends import FEWEST, REST_FEWEST

    path = tmp_path / "6x10.checkpoint"
    whole = api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2, checkpoint=str(path),
                      split_for=16, split_after=0.002)
    assert (whole.number, whole.details["solutions"]) == (PENTOMINO_6X10["symmetry"],
                                                          PENTOMINO_6X10["none"])
    written = lines(path)
    parts = [json.loads(line) for line in written[1:]]
    assert any(p.get("rest", [None])[0] == REST_FEWEST for p in parts)
    assert any(FEWEST in p.get("part", ()) and "rest" in p for p in parts)  # split again
    cut = tmp_path / "cut.checkpoint"
    cut.write_text("\n".join(written[:len(written) // 2]) + "\n")
    for raced in (True, False):
        if not raced:
            monkeypatch.undo()
            monkeypatch.setattr("puzzlesat.splitting.LEAST_BUDGET", 1e-6)
        again = tmp_path / f"again-{raced}.checkpoint"
        again.write_bytes(cut.read_bytes())
        resumed = api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2,
                            checkpoint=str(again), split_for=16, split_after=0.002)
        assert resumed.complete and resumed.number == PENTOMINO_6X10["symmetry"], raced
        assert resumed.details["solutions"] == PENTOMINO_6X10["none"]


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=boards(), modulo=st.sampled_from(["none", "symmetry"]))
def test_parts_the_fewest_fits_took_over_count_random_boards_exactly(tmp_path_factory, text,
                                                                     modulo):
    """The class of the regression above: on random boards, every search turning to the
    fewest fits at once and every part stopped at once, the count is the plain plan's (the
    boards' pieces in any number, which never race, made to race)."""
    import dataclasses
    from unittest import mock

    from puzzlesat.backends import bitboard

    puzzle = load(tmp_path_factory.mktemp("b"), text)
    plain = api.count(puzzle, "bitboard:plain", modulo, jobs=1)
    made = bitboard.board_of

    def racing(*args):
        return dataclasses.replace(made(*args), free=0)

    with mock.patch.object(bitboard, "fewest_race", lambda board, cube, race: 1), \
            mock.patch.object(bitboard, "CHOICE_FROM_NODES", 0), \
            mock.patch.object(bitboard, "board_of", racing), \
            mock.patch.object(bitboard.Slices, "LEAST", 20):
        split = api.count(puzzle, "bitboard", modulo, jobs=1, split_for=8, split_after=1e-6)
    assert split.complete
    assert (split.number, split.details["solutions"]) == (plain.number,
                                                          plain.details["solutions"])


def lines(path) -> list[str]:
    return path.read_text().splitlines()


def test_a_checkpoint_cut_while_splitting_resumes_exactly(tmp_path):
    path = tmp_path / "6x10.checkpoint"
    whole = api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2, checkpoint=str(path),
                      split_for=16, split_after=0.002)
    assert whole.number == PENTOMINO_6X10["symmetry"]
    written = lines(path)
    parts = [json.loads(line) for line in written[1:]]
    assert any("part" in p for p in parts)  # split cubes recorded by their parts
    assert len({(p["work"], p["cube"], tuple(p.get("part", ()))) for p in parts}) == len(parts)
    for keep in (len(written) // 2,):  # cut midway
        cut = tmp_path / f"cut-{keep}.checkpoint"
        cut.write_text("\n".join(written[:keep]) + "\n" + written[keep][:9])  # a torn line
        for split_for, after in ((1, None), (64, 0.001)):
            again = tmp_path / f"again-{keep}-{split_for}.checkpoint"
            again.write_bytes(cut.read_bytes())
            resumed = api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2,
                                checkpoint=str(again), split_for=split_for, split_after=after)
            assert resumed.complete
            assert resumed.number == PENTOMINO_6X10["symmetry"], (keep, split_for)
            assert resumed.details["solutions"] == PENTOMINO_6X10["none"]


def test_a_part_no_split_makes_is_refused(tmp_path):
    path = tmp_path / "6x10.checkpoint"
    api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2, checkpoint=str(path),
              split_for=16)
    written = lines(path)
    entry = next(json.loads(line) for line in written[1:] if "part" in line)
    entry["part"] = [999_999]
    path.write_text("\n".join([*written, json.dumps(entry)]) + "\n")
    with pytest.raises(InputError, match="parts of cube"):
        api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2, checkpoint=str(path))


def cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesat", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


@pytest.mark.parametrize("flags", [["--split-for", "0"], ["--split-for", "many"],
                                   ["--split-after", "-1"], ["--split-after", "soon"]])
def test_bad_split_sizes_are_one_line_exit_2(flags):
    done = cli("count", "iq-block-8", *flags)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert flags[0] in done.stderr


@pytest.mark.parametrize("split_for", [0, -3, True, 2.5])
def test_bad_split_sizes_in_the_library(split_for):
    with pytest.raises((InputError, TypeError)):
        api.count("iq-block-8", jobs=1, split_for=split_for)


def test_checkpoint_report_and_busy_share(tmp_path):
    path = tmp_path / "kept.checkpoint"
    done = cli("count", "pentomino-6x10", "--modulo", "none", "--jobs", "2",
               "--split-after", "0.002", "--checkpoint", str(path))
    assert done.returncode == 0, done.stderr
    assert "workers busy" in done.stdout and "split into" in done.stdout
    report = cli("checkpoint", str(path), "--workers", "1", "16", "--json")
    found = json.loads(report.stdout)
    assert found["split_cubes"] > 0 and found["parts"] > found["split_cubes"]
    assert found["timed"] == found["cubes"] + found["parts"]
    assert found["wall_seconds"]["16"] <= found["wall_seconds"]["1"]
    shown = cli("checkpoint", str(path), "--workers", "4")
    assert "split while counting" in shown.stdout
    counted = json.loads(cli("count", "iq-block-8", "--jobs", "1", "--json").stdout)
    assert 0 < counted["workers_busy"] <= 1


@pytest.mark.parametrize("line", ['{"work":"w","cube":0,"values":[1],"part":["a"]}',
                                  '{"work":"w","cube":0,"values":[1],"part":[3],"rest":[-1]}',
                                  '{"work":"w","cube":0,"values":[1],"part":[3],"rest":2}',
                                  '{"work":"w","cube":0,"values":[1],"part":[]}'])
def test_a_damaged_part_line_is_one_line_exit_2(tmp_path, line):
    path = tmp_path / "bad.checkpoint"
    path.write_text(json.dumps({"format": "puzzlesat checkpoint 1", "key": {"puzzle": "p"}})
                    + "\n" + line + "\n")
    done = cli("checkpoint", str(path))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and ":2:" in done.stderr


def test_bench_split_keeps_the_boards_it_did_not_run(tmp_path):
    """`bench split --record` writes every board it has figures of: this run's, and an earlier
    run's (the 4x20 runs on its own); an estimate is labelled so."""
    from puzzlesat.benchmarks import split

    earlier = {"9x10": {"estimate": True, "workers": [16, 64], "cubes": 2, "parts": 3,
                        "one_work": 10.0, "one_longest": 6.0, "split_longest": 3.0,
                        "budget": 1.0, "run_parts": 4, "run_work": 10.5, "run_wasted": 0.5,
                        "run_longest": 2.0, "date": "d", "load": "l"}
               | {f"{k}_{n}": 1.0 for k in ("unsplit", "plan", "run", "unsplit_wall",
                                            "plan_wall", "run_wall") for n in (16, 64)}}
    (tmp_path / "split.json").write_text(json.dumps(earlier))
    now = {"4x20": dict(earlier["9x10"], board="4x20")}
    found = split.merged(now, tmp_path)
    assert list(found) == ["4x20", "9x10"]
    text = split.table(found, [16, 64])
    assert text.count("an ESTIMATE, not a measurement") == 2
    # a board measured on drawn cubes: what was measured, and what is worked out from it
    plan = {"cubes": 668, "budget": 6.4, "picks": [[0, 5, 0.01], [0, 9, 0.02], [0, 5, 0.01]]}
    one = {"seconds": {"0 5": [10.0], "0 9": [20.0]}, "cpu": 30.0, "nodes": 1, "hits": 0}
    two = {"seconds": {"0 5": [4.0, 7.0], "0 9": [12.0, 9.0]}, "cpu": 32.0, "wall": 17.0,
           "busy": 0.9, "nodes": 1, "hits": 0}
    figures = split.sample_figures(plan, one, two, [16, 64])
    assert figures["work_ratio"] == pytest.approx(32.0 / 30.0)
    assert figures["whole_one"] == pytest.approx((1000 + 1000 + 1000) / 3)
    assert figures["split_longest"] == 12.0 and figures["drawn"] == 2
    row = figures | {"sample": True, "estimate": False, "runs": 1, "date": "d", "load": "l",
                     "board": "9x10", "workers": [16, 64]}
    text = split.table({"9x10": row}, [16, 64])
    assert "measured on 2 cubes drawn of 668" in text and "an ESTIMATE of the whole" in text


def test_bench_split_tells_the_splits_cost_from_two_threads(monkeypatch):
    """Each measured run also counts the split plan on one worker and the plan unsplit on 2
    workers (the 4x20's split work, 1.17 on 2 threads, was 1.00 on one: the rest is what two
    threads cost here); a count of either that disagrees fails the bench."""
    from puzzlesat.benchmarks import split

    def counted(board, folder, jobs, split_for, n, after=None):
        seconds = {(1, 1): [4.0, 4.0], (1, 64): [3.0, 2.0, 3.2], (2, 64): [3.0, 3.0, 3.0],
                   (2, 1): [4.5, 4.5]}[(jobs, split_for)]
        return {"wall": sum(seconds) / jobs, "cpu": sum(seconds) + 0.5, "seconds": seconds,
                "number": 7, "complete": True, "busy": 0.9, "split": {}, "cubes": 2,
                "parts": len(seconds)}

    monkeypatch.setattr(split, "counted", counted)
    found = split.measured(split.BOARDS["4x20"], [16, 64], 1, None, lambda line: None)
    assert found["alone_work_ratio"] == pytest.approx(8.2 / 8.0)
    assert found["alone_cpu_ratio"] == pytest.approx(8.7 / 8.5)
    assert found["pair_cpu_ratio"] == pytest.approx(9.5 / 8.5)
    assert found["pair_wall_ratio"] == pytest.approx(4.5 / (8.5 / 2))
    text = split.table({"4x20": found | {"estimate": False, "date": "d", "load": "l",
                                         "board": "4x20", "workers": [16, 64]}}, [16, 64])
    assert "| 4x20 | 8.2 / 8.0 s = 1.02 (met) / 8.7 / 8.5 s = 1.02 | 9.5 s = 1.12" in text

    def disagreeing(board, folder, jobs, split_for, n, after=None):
        return counted(board, folder, jobs, split_for, n) | (
            {"number": 6} if (jobs, split_for) == (2, 1) else {})

    monkeypatch.setattr(split, "counted", disagreeing)
    with pytest.raises(split.Failed, match="2 workers unsplit counted 6, one worker 7"):
        split.measured(split.BOARDS["4x20"], [16, 64], 1, None, lambda line: None)


def test_an_interrupt_after_cubes_were_stopped_leaves_the_count_incomplete():
    """Regression: a part stopped for its budget was kept as finished (what it counted) while
    the parts after it were made only at the round's end, so a count interrupted in between
    (Ctrl-C, a lost worker) read complete, and short. Its parts are now made at once."""
    from puzzlesat import executors

    class StopsAtTheRoundsEnd(executors.Executor):
        """Counts every part here, then is interrupted if a part was stopped (before the
        next round could run its rest)."""

        name = "test"

        def run(self, works, pending, jobs, deadline, record):
            split = False
            for work in works:
                for i in pending.get(work.token, []):
                    backend, state = executors._state(work.backend, work.token, work.payload)
                    result = executors.counted(backend, state, work.cubes[i],
                                               executors.budgeted(deadline, work.budget),
                                               work.first, work.budget is not None)
                    record(work, [i], [result])
                    split = split or len(result) == 4 and result[3] is not None
            if split:
                raise KeyboardInterrupt

    found = api.count("pentomino-6x10", "bitboard", "none", jobs=2,
                      executor=StopsAtTheRoundsEnd(), split_for=1, split_after=0.001)
    assert not found.complete
    assert found.number < PENTOMINO_6X10["none"]


def test_a_count_splits_its_cubes_unasked_only_from_16_jobs_on():
    """A split costs its parts' set-up (the 5x18: 1.00-1.03 times one worker's CPU): worth it
    where the planned cubes hold many workers back (8.2 times the work over 16), not measured
    as a gain on 2 cores."""
    from puzzlesat.api import make_runner
    from puzzlesat.splitting import SPLIT_FROM_WORKERS

    assert make_runner(2, None, None, None, None).split_plan().workers is None
    assert make_runner(SPLIT_FROM_WORKERS, None, None, None, None).split_plan().workers == (
        SPLIT_FROM_WORKERS)


def test_a_stopped_parts_rest_runs_in_the_same_pass():
    """Parts go to the workers that are free as soon as a part is stopped: the executor is
    run once (before, each round of stopped parts waited for the slowest part of the one
    before it, and every round started its workers' memos afresh)."""
    from puzzlesat import executors

    class Counted(executors.LocalExecutor):
        runs = 0

        def run(self, *args, **kwargs):
            Counted.runs += 1
            return super().run(*args, **kwargs)

    found = api.count("pentomino-6x10", "bitboard", "none", jobs=2, executor=Counted(),
                      split_for=1, split_after=0.002)
    assert found.number == PENTOMINO_6X10["none"] and found.complete
    assert found.details["split"]["cubes_split"] > 1
    assert Counted.runs == 1


def test_a_bench_count_that_fails_is_one_line(monkeypatch, capsys):
    """bench split counts each board in a process of its own (`puzzlesat count ... --json`):
    one that fails is said in one line, exit code 1, and no figure is written."""
    from puzzlesat.benchmarks import split
    from puzzlesat.cli.commands import main

    monkeypatch.setattr(split, "timed", lambda command, timeout: {
        "wall": 1.0, "cpu": 1.0, "code": 2, "out": "", "killed": False, "load": 0.0,
        "err": "puzzlesat: count: something went wrong\n"})
    assert main(["bench", "split", "5x18", "--repeat", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("puzzlesat: bench split: one-sided-pentomino-5x18: the count ended with "
                       "exit code 2: puzzlesat: count: something went wrong")


def test_a_budget_split_for_workers_follows_the_counts_pace(monkeypatch):
    """Split for N workers with no budget asked for: LEAST_BUDGET until PACED_FROM of the work
    is done, then the work that pace gives over N * SHARE, never past the estimate's budget."""
    from puzzlesat import splitting as sp

    monkeypatch.setattr(sp, "LEAST_BUDGET", 0.25)
    assert sp.paced_budget(10.0, 64, 0.0, 0.0) == 0.25
    assert sp.paced_budget(10.0, 64, sp.PACED_FROM / 2, 5.0) == 0.25
    assert sp.paced_budget(0.1, 64, 0.0, 0.0) == 0.1
    assert sp.paced_budget(10.0, 2, 0.1, 4.0) == pytest.approx(4.0 / 0.1 / (2 * sp.SHARE))
    assert sp.paced_budget(1.0, 2, 0.1, 4.0) == 1.0  # the estimate's is less
    assert sp.paced_budget(10.0, 64, 0.5, 1.0) == 0.25  # at least LEAST_BUDGET


@pytest.mark.parametrize("executor", ["threads", "processes"])
def test_parts_sent_later_take_the_budget_as_it_is_then(monkeypatch, executor):
    """Regression: a part's budget was the one when it was handed to the executor (every
    cube at the count's start), so a budget that follows the count's pace reached none of
    the first cubes: the 4x20's took the estimate's 0.95 s where 0.25 s was known after the
    first two. Here the budget is 50 ms until the first part comes back, then 1,000 s: the 6x10
    (8 cubes) splits at most those started before then (one a worker), where the old code split
    7 (on threads) and 10 (processes); on threads, a worker then took its next cube before the
    first was recorded (6 split on a loaded CI machine)."""
    from puzzlesat import splitting as sp

    def paced(budget, workers, share_done, seconds):
        return 0.05 if seconds == 0 and share_done == 0 else 1e3

    monkeypatch.setattr(sp, "paced_budget", paced)
    if executor == "processes":  # a pool of processes even for a backend on threads
        monkeypatch.setattr("puzzlesat.executors._releases_gil", lambda name: False)
    found = api.count("pentomino-6x10", "bitboard", "none", jobs=2, split_for=64)
    assert found.number == PENTOMINO_6X10["none"] and found.complete
    split = found.details.get("split", {})  # (none split: no part ran 50 ms)
    assert split.get("cubes_split", 0) <= 2
    assert split.get("budget_seconds", 1e3) == 1e3


def test_a_thread_takes_its_next_chunk_once_the_last_is_recorded(monkeypatch):
    """Regression (CI, a loaded machine): the threads took their chunks from the pool's own
    queue, so a thread that finished one started the next with the budget of that moment,
    before the main thread had recorded what it returned (and moved the budget). Here recording
    is slow and moves the budget each time: every chunk after the first two (one a thread)
    starts with the budget its last recorded result set."""
    from puzzlesat import executors as ex

    started = []

    def chunk(backend, token, payload, cubes, deadline, first, budget):
        started.append(budget)
        return [None] * len(cubes)

    monkeypatch.setattr(ex, "run_chunk", chunk)
    work = ex.Work("w", "bitboard", None, list(range(12)), budget=0.0)
    recorded = []

    def record(work, part, results):
        time.sleep(0.05)  # a slow record: the threads would have run on without it
        recorded.append(part)
        work.budget = float(len(recorded))
        return None

    ex.run_on_threads([work], {work.token: list(range(12))}, 2, None, record, share=False)
    assert sorted(i for part in recorded for i in part) == list(range(12))
    assert started[:2] == [0.0, 0.0] and len(started) > 4
    assert all(budget >= 1.0 for budget in started[2:])  # the old code: most started at 0.0
    assert started == sorted(started)
    assert max(started.count(budget) for budget in started) <= 2  # one a thread at most


def test_cubes_submitted_at_the_start_keep_the_estimates_budget_on_dask(monkeypatch):
    """Dask takes every cube at the count's start, each with the budget of that moment: the
    least budget, which threads and the process pool give parts until the count's pace is
    known, would cut every cube there. On Dask a count starts with the estimate's budget."""
    pytest.importorskip("distributed")
    from puzzlesat import splitting as sp

    asked = []
    plain = sp.paced_budget

    def paced(budget, workers, share_done, seconds):
        asked.append((share_done, seconds))
        return plain(budget, workers, share_done, seconds)

    monkeypatch.setattr(sp, "paced_budget", paced)
    found = api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2, split_for=64,
                      executor="dask-local:2")
    assert found.number == PENTOMINO_6X10["symmetry"] and found.complete
    assert asked and (0.0, 0.0) not in asked
    asked.clear()
    api.count("pentomino-6x10", "bitboard", "symmetry", jobs=2, split_for=64)
    assert asked[0] == (0.0, 0.0)  # threads: the least first


def test_progress_counts_a_stopped_parts_own_share_once(tmp_path):
    """Regression: a part stopped where its search was moved the progress by nothing while the
    count ran (so a split count ended short of its total) and, read back from a checkpoint, by
    its whole share beside its rest's parts (a resumed pentahex count said 59.2% where 47.5% was
    done). Its own share is now its share less its rest's: a count split while running ends at
    its total, and the same count resumed from its finished checkpoint starts there."""
    path = tmp_path / "split.checkpoint"
    seen: list[tuple[int, int]] = []
    shown: list[int] = []

    def progress(done, total, found):
        seen.append((done, total))
        shown.append(found)

    found = api.count("pentomino-6x10", "bitboard", "none", jobs=2, split_for=1,
                      split_after=0.002, checkpoint=str(path), progress=progress)
    assert found.complete and found.details["split"]["cubes_split"] > 0
    done, total = seen[-1]
    assert abs(done - total) <= 0.001 * total
    assert shown[-1] == PENTOMINO_6X10["none"]  # the running count shown: every part once
    seen.clear()
    again = api.count("pentomino-6x10", "bitboard", "none", jobs=2, split_for=1,
                      split_after=0.002, checkpoint=str(path), progress=progress)
    assert again.number == found.number
    done, total = seen[0]
    assert abs(done - total) <= 0.001 * total
