"""The edge-matching benchmark's own defects (issue 28): a run whose backend starts children (a
race, a time-limited PySAT solve) was recorded as FAILED ("daemonic processes are not allowed to
have children"), and a benchmark stopped by SIGTERM rewrote the committed tables with a partial
one. Its instances come from the catalog (never ../shared)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _patience import HANG

from puzzlesat.benchmarks import edge
from puzzlesat.models.edge_matching import planted
from puzzlesat.registry import backend

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["pysat:glucose4", "race:pysat:glucose4*2"])
def test_a_run_whose_backend_has_children_is_timed_not_failed(name):
    puzzle = planted.generate(5, 3, 4, 1)
    run = edge.run_one(puzzle, edge.contender(name), backend(name), 20.0)
    assert run.status == "solved", run.status


def test_the_instances_come_from_the_catalog():
    clues = edge.clue_instances()
    assert [i.board for i in clues] == ["clue1", "clue2", "clue3", "clue4"]
    assert [(i.puzzle.rows, i.puzzle.cols) for i in clues] == [(6, 6), (6, 12), (6, 6), (6, 12)]
    boards = edge.em_instances(seeds=(1,))
    assert len(boards) == 8 and boards[0].board == "em_7_3_6" and boards[0].puzzle.rows == 7


def test_a_stopped_bench_writes_nothing_and_hands_back_what_it_measured(tmp_path, monkeypatch):
    kept = {"edge-bench.md": "the committed table\n", "edge-bench.csv": "a,b\n1,2\n"}
    for name, text in kept.items():
        (tmp_path / name).write_text(text)
    calls = []

    def run_one(puzzle, contender, chosen, limit):
        calls.append(contender)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as SIGTERM is raised in the command line
        return edge.Run("solved", 0.5)

    monkeypatch.setattr(edge, "run_one", run_one)
    instances = edge.planted_instances((5,), (1, 2), interior=4)
    with pytest.raises(edge.Stopped) as stopped:
        edge.bench(instances, [edge.contender("pysat:glucose4")], backend, {"planted": 5.0},
                   tmp_path, say=lambda _: None)
    assert stopped.value.runs == 1 and "planted 5x5" in stopped.value.table
    assert {name: (tmp_path / name).read_text() for name in kept} == kept


def test_sigterm_leaves_the_tables_as_they_were(tmp_path):
    (tmp_path / "edge-bench.md").write_text("the committed table\n")
    command = [sys.executable, "-m", "puzzlesat", "bench", "edge", "--planted-only", "--sizes", "5",
               "6", "--seeds", "3", "--contender", "pysat:glucose4", "--results", str(tmp_path)]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = child.stderr.readline()  # the first run's line: one run measured
        assert "planted 5x5" in line, line
        time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=HANG)
    finally:
        child.kill()
    assert child.returncode != 0
    assert (tmp_path / "edge-bench.md").read_text() == "the committed table\n"
    assert not (tmp_path / "edge-bench.csv").exists()
    assert "left as they were" in err and "planted 5x5" in out


def test_default_contenders_not_installed_are_left_out_in_a_line(monkeypatch, capsys):
    """Regression: `edge-bench` as the page writes it stopped at once where no `cadical` binary
    is on the PATH ("exec:cadical is not available here"); the contenders of the default list
    that cannot run here are left out, each said in one line; one asked for is still refused."""
    from puzzlesat import registry
    from puzzlesat.cli import main
    from puzzlesat.models.errors import InputError

    made = registry.backend

    def no_binaries(name):
        if "exec:" in name:
            raise InputError(f"{name} is not available here: no solver binary", field="backend")
        return made(name)

    ran = []
    monkeypatch.setattr(registry, "backend", no_binaries)
    monkeypatch.setattr(edge, "bench", lambda instances, contenders, *rest: ran.extend(contenders))
    assert main(["bench", "edge", "--catalog-only"]) == 0
    said = capsys.readouterr().err
    assert "edge-bench: exec:cadical left out: exec:cadical is not available here" in said
    assert ran and not any("exec:" in c.backend for c in ran)
    assert {c.backend for c in ran} >= {"pysat:glucose4", "cpsat"}
    assert main(["bench", "edge", "--contender", "exec:cadical"]) == 2


def test_a_bench_run_to_its_end_prints_its_table(monkeypatch, capsys):
    """Regression: `edge-bench` as the page writes it (nothing recorded) ran 25 minutes (80 at
    load 10-23) and ended on its last progress line: the table of what it measured was printed
    only when a SIGTERM stopped it, and otherwise only written where --results asked."""
    from puzzlesat.cli import main

    monkeypatch.setattr(edge, "run_one", lambda puzzle, contender, chosen, limit:
                        edge.Run("solved", 0.5))
    assert main(["bench", "edge", "--planted-only", "--sizes", "5", "--seeds", "1",
                 "--contender", "pysat:glucose4"]) == 0
    out = capsys.readouterr().out
    assert "planted 5x5" in out and "pysat:glucose4" in out
