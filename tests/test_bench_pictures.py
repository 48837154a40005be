"""`puzzlesat bench pictures` (issue 42): the sweep of draw, play and gallery over the catalog
judges each command as the issue asks, writes only where asked, and leaves nothing behind."""

from __future__ import annotations

import json
import subprocess
import sys

from puzzlesat.benchmarks.pictures import LIMIT, QUIET, verdict


def test_a_command_is_judged_by_its_wall_on_a_quiet_machine_and_by_its_cpu_on_a_busy_one():
    quiet, busy = QUIET - 0.5, QUIET + 5
    assert verdict(0, LIMIT + 1, 1.0, quiet, "", False) == "over"
    assert verdict(0, LIMIT + 1, 1.0, busy, "", False) == "wrote"  # the wall was the others'
    assert verdict(0, 5.0, LIMIT + 1, busy, "", False) == "over"


def test_a_refusal_is_one_line_with_exit_2_and_anything_else_fails():
    assert verdict(2, 1.0, 1.0, 0.0, "puzzlesat: error: PUZZLE: too many\n", False) == "refused"
    assert verdict(2, 1.0, 1.0, 0.0, "x: listing ... 5 s\npuzzlesat: error: PUZZLE: x\n",
                   False) == "refused"  # progress lines before the one line of the refusal
    assert verdict(2, 1.0, 1.0, 0.0, "puzzlesat: error: one\npuzzlesat: error: two\n",
                   False) == "failed"
    assert verdict(1, 1.0, 1.0, 0.0, "puzzlesat: stopped\n", False) == "failed"
    assert verdict(0, 1.0, 1.0, 0.0, "Traceback (most recent call last):\n", False) == "failed"
    assert verdict(0, 1.0, 1.0, 0.0, "", True) == "failed"  # killed at the timeout


def test_the_sweep_of_one_puzzle_records_where_asked_and_leaves_the_folder_clean(tmp_path):
    results = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "puzzlesat", "bench", "pictures", "iq-block-8",
                           "--verbs", "draw", "--results", str(results)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    runs = json.loads((results / "pictures-sweep.json").read_text())
    assert [(r["puzzle"], r["verb"], r["verdict"]) for r in runs] == [
        ("iq-block-8", "draw", "wrote")]
    assert "| draw | 1 | 1 | 0 | 0 | 0 |" in (results / "pictures-sweep.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


def test_an_unknown_verb_is_refused_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "puzzlesat", "bench", "pictures", "--verbs",
                           "draw,paint"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "paint" in done.stderr


def test_a_page_command_promises_the_longest_time_its_comment_states():
    from puzzlesat.benchmarks.pages import LIMIT, promised

    assert promised("every backend agrees: 48, 6 (2 minutes)") == 120
    assert promised("(33 CPU s: 8 minutes of wall at load 17-20)") == 480
    assert promised("11,853,792 grids (11 s at a load of 5)") == 11
    assert promised("about a minute on 2 cores") == 60 and promised("an hour") == 3600
    assert promised("all 221 boards, 1,240 s in all") == 1240
    # words that only look like times: "as a strip", "an s-piece", "2 pieces"
    assert promised("an optimal solution as a strip") == LIMIT
    assert promised("an s-piece, 2 pieces") == LIMIT
    assert promised("the whole ladder (hours)") is None  # slow, with no figure


def test_a_sweep_of_a_few_puzzles_updates_their_rows_and_keeps_the_others(tmp_path):
    from dataclasses import asdict

    from puzzlesat.benchmarks.pictures import Run, kept

    old = [Run("a", "draw", 0, 1.0, 1.0, 0.1, 1, "wrote", "wrote"),
           Run("b", "draw", 0, 99.0, 99.0, 0.1, 1, "still", "over")]
    path = tmp_path / "pictures-sweep.json"
    path.write_text(json.dumps([asdict(r) for r in old]))
    again = [Run("b", "draw", 2, 1.0, 1.0, 0.1, 1, "puzzlesat: error: x", "refused")]
    assert kept(path, again) == old[:1]
