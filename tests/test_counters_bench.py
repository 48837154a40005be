"""`puzzlesat bench counters` (runners/benchmarks/counters.py): how a backend's runs are summed up
and shown, on figures made here (no timing)."""

from __future__ import annotations

from puzzlesat.benchmarks import counters


def test_a_run_stopped_after_one_that_finished_neither_disagrees_nor_hides():
    """Regression: tididi counted the 3x20's 8 solutions in 33.7 s, then a second run was
    stopped at 60 s; the backend's count was read from the last run (a stopped run's 0) and
    the table said DISAGREE, with a median of 33.72 s that hid the stop."""
    runs = [{"seconds": 33.721, "complete": True, "count": 8, "counter": "tididi"},
            {"seconds": 60.353, "complete": False, "count": 0, "counter": "tididi"}]
    timed = {"backend": "mc:tididi", "runs": runs, **counters.summary(runs)}
    assert (timed["count"], timed["median_seconds"], timed["stopped"]) == (8, 33.721, 1)
    assert counters.cell(timed, 60.0) == "33.72 s (1 of 2 runs; 1 > 60 s)"
    plain = [{"seconds": s, "complete": True, "count": 8, "counter": None}
             for s in (0.19, 0.18, 0.2)]
    figures = {"date": "today", "limit_seconds": 60.0, "repeat": 3, "load_at_start": "1 1 1",
               "machine": {"cores": 2}, "rungs": [{
                   "regime": "pieces once", "label": "pentominoes 3x20", "published": 8,
                   "times": [{"backend": "bitboard", "runs": plain, **counters.summary(plain)},
                             timed]}]}
    row = next(line for line in counters.markdown(figures).splitlines() if "3x20" in line)
    assert "| 8 |" in row and "DISAGREE" not in row and "published" not in row
    stopped = [runs[1]]
    assert counters.summary(stopped) == {"median_seconds": None, "count": None,
                                         "complete": False, "stopped": 1}
