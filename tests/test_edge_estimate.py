"""`puzzlesat estimate` on an edge-matching board (issue 25): Knuth's estimate of edgecount's
search as its count runs it, and the estimate from the count's own cubes searched whole."""

import json

import pytest

import puzzlesat
from puzzlesat import native
from puzzlesat.cli import main

if not native.available("edgecount"):
    pytest.skip("edgecount's compiled search was not built (no C compiler at install)",
                allow_module_level=True)

BOARD = "owen-6x6-set1"


@pytest.fixture(scope="module")
def counted() -> int:
    found = puzzlesat.count(BOARD, backend="edgecount", jobs=1)
    assert found.complete and found.details["grids"] == 260
    return found.details["nodes"]


def test_every_cube_sampled_gives_the_counted_nodes_and_knuth_is_near(counted, capsys):
    assert main(["estimate", BOARD, "--seconds", "0.5", "--sample-cubes", "100000",
                 "--jobs", "1", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    sampled = row["sampled"]
    assert sampled["sampled"] == sampled["cubes"] == row["cubes"] > 1
    assert sampled["nodes_searched"] == counted
    assert sampled["nodes"] == pytest.approx(counted) and sampled["nodes_standard_error"] == 0
    assert sampled["smallest"] <= counted / sampled["cubes"] <= sampled["largest"]
    knuth = row["knuth"]
    assert knuth["nodes"] > 0 and knuth["nodes_per_cpu_second"] > 0
    assert counted / 4 < knuth["nodes"] < 4 * counted  # an estimate: a loose factor


def test_a_sample_is_drawn_from_the_plan_seeded_and_said(capsys):
    args = ["estimate", BOARD, "--seconds", "0.1", "--sample-cubes", "5", "--jobs", "2"]
    assert main(args) == 0
    first = capsys.readouterr().err
    assert "nodes of edgecount's search" in first and "corner tile pinned" in first
    assert "5 of the count's" in first and "± " in first
    assert main([*args, "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["sampled"]["sampled"] == 5 and row["sampled"]["nodes"] > 0
    assert row["sampled"]["smallest"] <= row["sampled"]["largest"]


@pytest.mark.parametrize("args", [
    ["iq-block-8", "--sample-cubes", "2"],  # a packing board
    [BOARD, "--sample-cubes", "0"],
    [BOARD, "--sample-cubes", "-3"],
    [BOARD, "--record"],
])
def test_bad_input_gets_one_line_and_exit_2(args, capsys):
    try:
        code = main(["estimate", *args, "--seconds", "0.1"])
    except SystemExit as stop:  # argparse's refusals
        code = stop.code
    assert code == 2
    captured = capsys.readouterr()
    assert len(captured.err.strip().splitlines()) == 1 and "Traceback" not in captured.err
