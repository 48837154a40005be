"""The bad inputs of issue 28 outside the moves families: each a one-line error and exit code 2
on the command line (or a TypeError or InputError with a message in Python), nothing written or
replaced, and no long silence before the error."""

from __future__ import annotations

import pytest

import puzzlesat
from puzzlesat.cli import main
from puzzlesat.models.errors import InputError

NOWHERE = '''kind = "packing"
board = """
XXX
XXX
"""
[pieces]
I = "XXXX"
J = "XX"
'''


def one_line_error(capsys, args: list[str], *words: str) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("puzzlesat: error:"), err
    assert "Traceback" not in err and all(w in err for w in words), err
    return err


@pytest.mark.parametrize("args", [
    ["export", "soma", "--format", "stl", "-o", ""],
    ["gallery", "iq-block-8", "-o", ""],
    ["draw", "iq-block-8", "--all", "-o", ""],
    ["draw", "iq-block-8", "-o", ""],
    ["play", "iq-block-8", "-o", ""],
], ids=lambda a: " ".join(a[:2]))
def test_an_empty_output_name_is_refused_and_nothing_in_the_folder_is_replaced(
        args, tmp_path, monkeypatch, capsys):
    """Regression: `export soma --format stl -o ""` wrote into the current folder and replaced
    a user's own README.txt (Path('') is the current folder)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.txt").write_text("mine")
    one_line_error(capsys, args, "an empty name")
    assert [p.name for p in tmp_path.iterdir()] == ["README.txt"]
    assert (tmp_path / "README.txt").read_text() == "mine"


@pytest.mark.parametrize("flag, value", [("--cube", "inf"), ("--cube", "1e300"),
                                         ("--cube", "nan"), ("--clearance", "inf")])
def test_a_cube_size_no_printer_prints_is_refused(flag, value, tmp_path, capsys):
    """Regression: --cube inf and --cube 1e300 wrote STL files full of inf and NaN."""
    out = tmp_path / "soma.zip"
    one_line_error(capsys, ["export", "soma", "--format", "stl", flag, value, "-o", str(out)],
                   flag)
    assert not out.exists()


def never(*args, **kwargs):
    raise AssertionError("the work started before its output was checked")


def test_a_missing_folder_is_reported_before_any_drawing(tmp_path, capsys, monkeypatch):
    """Regression: `draw ... -o missing/dir/x.svg` searched for 7 s before naming the folder.
    No solution is searched for first (whatever the load: no clock is read)."""
    from puzzlesat.cli import pictures

    monkeypatch.setattr(pictures.galleries, "build_gallery", never)
    one_line_error(capsys, ["draw", "pentomino-6x10", "--solution", "3", "-o",
                            str(tmp_path / "missing" / "dir" / "x.svg")], "does not exist")


@pytest.mark.parametrize("call, words", [
    (lambda: puzzlesat.load(123), "not int"),
    (lambda: puzzlesat.load(None), "not NoneType"),
    (lambda: puzzlesat.count(["soma"]), "not list"),
    (lambda: puzzlesat.solve(3.5), "not float"),
    (lambda: puzzlesat.count("soma", executor=5), "not int"),
    (lambda: puzzlesat.count("soma", progress="yes"), "not str 'yes'"),
], ids=["load-int", "load-none", "count-list", "solve-float", "executor-int", "progress-str"])
def test_the_api_says_what_it_takes(call, words):
    """Regression: these raised AttributeError or TypeError from deep inside, or (progress)
    were accepted silently."""
    with pytest.raises(TypeError, match=words):
        call()


def test_the_api_loads_a_path_object(tmp_path):
    path = tmp_path / "nowhere.toml"
    path.write_text(NOWHERE)
    assert puzzlesat.load(path).kind == "packing"


def test_a_piece_that_fits_nowhere_is_named(tmp_path, capsys):
    """Regression: a piece that fits nowhere gave '0 solutions' with no hint."""
    path = tmp_path / "nowhere.toml"
    path.write_text(NOWHERE)
    found = puzzlesat.count(str(path), backend="reference")
    assert found.number == 0 and found.details["why_none"] == "piece I fits nowhere on the board"
    assert found.sentence().endswith("; piece I fits nowhere on the board")
    assert "fits nowhere" in puzzlesat.solve(str(path), backend="reference").note
    assert main(["count", str(path)]) == 0
    assert "piece I fits nowhere on the board" in capsys.readouterr().out


def test_a_count_up_to_a_limit_says_unique_in_a_notebook():
    """Regression: a limit=2 count never said 'unique' outside the command line."""
    unique = puzzlesat.count("soma-challenge", limit=2, backend="reference")
    assert unique.uniqueness() == "unique: exactly one solution"
    assert "unique: exactly one solution" in unique._repr_html_()
    assert "unique: exactly one solution" in repr(unique)
    several = puzzlesat.count("iq-block-challenge-several", limit=2, backend="reference")
    assert several.uniqueness().startswith("not unique: at least 2")
    assert puzzlesat.count("soma-challenge", backend="reference").uniqueness() is None


def test_a_count_that_cannot_start_leaves_no_checkpoint(tmp_path):
    """Regression: a count that could not reach its Dask scheduler left its checkpoint's header
    behind. Any count that records no cube takes away the file it made."""
    from puzzlesat.checkpoint import Checkpoint

    path = tmp_path / "x.ckpt"
    made = Checkpoint(path, {"puzzle": "p"})
    made.check_writable()
    assert path.exists()
    made.close()
    assert not path.exists()
    kept = Checkpoint(path, {"puzzle": "p"})
    kept.record("w", [0], [[5]])
    kept.close()
    again = Checkpoint(path, {"puzzle": "p"})
    again.check_writable()
    again.close()
    assert again.done == {("w", 0): [5]} and path.exists()  # a file with cubes is kept


def test_an_input_error_of_the_api_names_its_parameter():
    with pytest.raises(InputError) as caught:
        puzzlesat.count("soma", executor="nowhere")
    assert caught.value.field == "executor"


def test_an_empty_results_folder_is_refused_before_the_work(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(puzzlesat.api, "verify", never)  # nothing verified first
    one_line_error(capsys, ["verify", "iq-block-8", "--results", ""], "an empty name")


@pytest.mark.parametrize("args, flag", [
    (["count", "pentomino-6x10", "--limit", "3", "--time-limit", "2"], "--time-limit"),
    (["count", "pentomino-6x10", "--limit", "3", "--jobs", "5"], "--jobs"),
    (["count", "pentomino-6x10", "--limit", "3", "--executor", "local"], "--executor"),
    (["count", "klotski", "--limit", "2"], "--limit"),
    (["count", "mind-lock", "--limit", "1"], "--limit"),
])
def test_a_count_to_a_limit_refuses_what_it_cannot_honour(args, flag, capsys):
    """Regression: `count pentomino-6x10 --limit 3000 --time-limit 2 --jobs 5` ran 7.8 s on one
    process, both options ignored; `count klotski --limit 2` said "unique: exactly one
    solution" of a puzzle with many optimal plans (its solutions list one)."""
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"puzzlesat: error: {flag}:") and len(err.strip().splitlines()) == 1


def test_a_count_to_a_limit_from_the_api_names_its_parameter():
    with pytest.raises(InputError, match="jobs") as refused:
        puzzlesat.count("soma-challenge", limit=2, jobs=2)
    assert refused.value.field == "jobs" and "--" not in str(refused.value)


def test_an_interrupted_count_stops_the_benchmark_that_times_it(monkeypatch):
    """Regression: SIGTERM during `cards-bench`'s anchor count (25 s of CP-SAT in a base
    install) was taken as the count's end: the API hands back an interrupted count as a lower
    bound, and the benchmark timed it and carried on for minutes. The count now says it was
    interrupted, and a benchmark stops there."""
    from puzzlesat import api
    from puzzlesat.benchmarks import cards, whole

    calls = []

    def stop_at_the_second_report(done, total, found):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as Ctrl-C or SIGTERM arrives during the count

    stopped = puzzlesat.count("iq-block-8", backend="cpsat", jobs=1,
                              progress=stop_at_the_second_report)
    assert not stopped.complete and stopped.details["interrupted"]
    with pytest.raises(KeyboardInterrupt):
        whole(stopped)
    assert "interrupted" not in puzzlesat.count("iq-block-8", jobs=1).details
    monkeypatch.setattr(api, "count", lambda *a, **k: stopped)
    with pytest.raises(KeyboardInterrupt):
        cards.bench(["iq-block-8"], 1, None, say=lambda _: None)


@pytest.mark.parametrize("args, flag", [(["bench", "search"], "bench search"),
                                        (["bench", "search", "iq-block-8"], "bench search"),
                                        (["bench", "packing"], "bench packing"),
                                        (["bench", "dlx"], "bench dlx"),
                                        (["estimate", "iq-block-8"], "PUZZLE")])
def test_a_bench_of_the_compiled_searches_without_them_is_one_line(args, flag, monkeypatch,
                                                                  capsys):
    """Regression: in a base install (no numba), `bench --search` ran the bitboard search as
    Python and ended in a traceback ('numpy.int64' object has no attribute 'bit_length');
    `bench --anchor xcover` raised a RuntimeError."""
    from puzzlesat import registry
    from puzzlesat.backends.bitboard import BitboardBackend
    from puzzlesat.backends.xcover import XcoverBackend

    for made in (BitboardBackend, XcoverBackend):
        monkeypatch.setattr(made, "supported", classmethod(lambda cls: False))
    registry.backend.cache_clear()  # a backend made by an earlier test was checked then
    try:
        assert main(args) == 2
    finally:
        registry.backend.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith(f"puzzlesat: error: {flag}: ") and "pip install" in err
    assert len(err.strip().splitlines()) == 1


def fake_runs(monkeypatch, stop_at: str | None = None, slow: tuple[str, ...] = ()) -> list:
    """bench's timed runs replaced: each call recorded as (backend, time limit); a backend in
    `slow` stops at its limit, and `stop_at` is interrupted (Ctrl-C) during its run."""
    from puzzlesat.cli import bench

    calls = []

    def run(puzzle, backend, executor, modulo, options, args, time_limit):
        calls.append((backend, time_limit))
        if backend == stop_at:
            raise KeyboardInterrupt
        if backend in slow:
            return bench.Timed(time_limit, False, "at least 5 solutions")
        return bench.Timed(0.5, True, "96 solutions")

    monkeypatch.setattr(bench, "timed_run", run)
    return calls


def test_bench_without_a_backend_stops_each_compared_backend_at_a_limit(monkeypatch, capsys):
    """Regression: `bench iq-block-10` timed CP-SAT, CaDiCaL and the reference with no time
    limit, three runs each (CaDiCaL enumerating every solution: about 40 minutes a run). Each
    compared backend now stops at a limit the bench says up front, once: a run stopped at its
    limit is not repeated, and its ratio is shown as a lower bound."""
    from puzzlesat.cli import bench

    calls = fake_runs(monkeypatch, slow=("reference",))
    assert main(["bench", "backends", "iq-block-8"]) == 0
    out, err = capsys.readouterr()
    first = puzzlesat.backends("iq-block-8", "count")[0]
    assert calls[:3] == [(first, None)] * 3
    compared = [c for c in calls[3:]]
    assert {b for b, _ in compared} == {"cpsat", "pysat:cadical195", "reference"} - {first}
    assert {limit for _, limit in compared} == {bench.COMPARED_SECONDS}
    assert [b for b, _ in compared].count("reference") == 1  # stopped at its limit: once
    assert f"stopped at {bench.COMPARED_SECONDS:g} s" in err and "--time-limit" in err
    reference = next(line for line in out.splitlines() if " reference " in line)
    assert "(incomplete: time limit)" in reference and " >" in reference
    calls.clear()
    assert main(["bench", "backends", "iq-block-8", "--time-limit", "7"]) == 0
    assert {limit for b, limit in calls if b != first} == {7.0}
    calls.clear()
    assert main(["bench", "backends", "iq-block-8", "--backend", "cpsat", "--repeat",
                 "2"]) == 0
    assert calls == [("cpsat", None)] * 2  # the backends named: as asked, no limit added


def test_one_ctrl_c_stops_bench_and_shows_what_it_measured(monkeypatch, capsys):
    """Regression: Ctrl-C on `bench` printed only "interrupted" (and a Ctrl-C the API took as
    a count's end let the bench run on): one now stops it, with the table of the runs done and
    the run stopped marked incomplete; nothing is recorded, exit code 1."""
    calls = fake_runs(monkeypatch, stop_at="cpsat")
    assert main(["bench", "backends", "iq-block-8", "--backend", "xcover", "--backend", "cpsat",
                 "--backend", "reference"]) == 1
    out, err = capsys.readouterr()
    assert [b for b, _ in calls] == ["xcover"] * 3 + ["cpsat"]  # nothing after the Ctrl-C
    rows = {b: line for line in out.splitlines()[1:] for b in ("xcover", "cpsat", "reference")
            if f" {b} " in line}
    assert "96 solutions" in rows["xcover"] and "(incomplete" not in rows["xcover"]
    assert "(incomplete: interrupted)" in rows["cpsat"] and "reference" not in rows
    assert "stopped" in err and "nothing recorded" in err and "Traceback" not in err


def test_an_interrupted_count_in_bench_is_shown_as_a_lower_bound(monkeypatch):
    """The count a Ctrl-C stopped inside a bench run: what it had counted, 'at least'."""
    import argparse

    from puzzlesat.cli import bench

    calls = []

    def stop_at_the_second_report(done, total, found):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as Ctrl-C or SIGTERM arrives during the count

    original = bench.api.count
    monkeypatch.setattr(bench.api, "count", lambda *a, **k: original(
        *a, progress=stop_at_the_second_report, **k))
    args = argparse.Namespace(solve=False, jobs=1)
    with pytest.raises(bench.RunStopped) as stopped:
        bench.timed_run(puzzlesat.load("iq-block-8"), "cpsat", None, "none", {}, args, None)
    timed = stopped.value.timed
    assert timed.interrupted and not timed.complete and timed.what.startswith("at least ")
