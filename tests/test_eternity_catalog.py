"""The Eternity II entries of the catalog and the benchmark ladder (issue 25): the published
facts copied with their source, and the pieces and clues read exactly; bad piece sets and
contradicting clues refused in one line."""

from __future__ import annotations

import json

import pytest

import puzzlesat
from puzzlesat.models import files
from puzzlesat.models.edge_matching import neighbour_pairs, rotated
from puzzlesat.models.errors import InputError


def test_eternity_ii_with_the_centre_clue_and_with_all_five():
    centre, five = files.load("eternity-ii"), files.load("eternity-ii-clues")
    for puzzle in (centre, five):
        assert (puzzle.rows, puzzle.cols, len(puzzle.tiles)) == (16, 16, 256)
        assert len(neighbour_pairs(puzzle)) == 480  # the seams between cells
        assert "eternity2.dev" in puzzle.source and "Eternity2Puzzles.jl" in puzzle.source
        colours = {e[0] for t in puzzle.tiles for e in t.edges}
        assert colours == {str(c) for c in range(23)}  # the frame and 22 patterns
    (clue,) = centre.fixed
    assert (clue.row + 1, clue.col + 1, centre.tiles[clue.tile].name) == (9, 8, "139")
    assert rotated(centre.tiles[clue.tile].edges, clue.rotation) == tuple(
        (c, "") for c in ("8", "9", "9", "12"))
    cells = {(f.row + 1, f.col + 1): five.tiles[f.tile].name for f in five.fixed}
    assert cells == {(9, 8): "139", (3, 3): "208", (3, 14): "255", (14, 3): "181",
                     (14, 14): "249"}


def test_the_ladder_and_heules_boards_are_in_the_catalog():
    for n in range(6, 11):
        for s in (1, 2):
            puzzle = files.load(f"owen-{n}x{n}-set{s}")
            assert (puzzle.rows, puzzle.cols, len(puzzle.tiles)) == (n, n, n * n)
            assert "david3x3x3/eternity2" in puzzle.source and puzzle.published["note"]
    assert "Eternity2Puzzles.jl" in files.load("owen-8x8-set2").source
    for name, size in (("eternity-ii-clue1", (6, 6)), ("eternity-ii-clue2", (6, 12)),
                       ("em-14-7-3", (14, 14))):
        puzzle = files.load(name)
        assert (puzzle.rows, puzzle.cols) == size and "marijnheule" in puzzle.source


PIECES = '''kind = "edge-matching"
rows = 3
cols = 3
frame = "0"
tiles = """
0 0 1 1  name=a
0 0 1 1  name=b
0 0 1 1  name=c
0 0 1 1  name=d
0 1 1 1  name=e
0 1 1 1  name=f
0 1 1 1  name=g
0 1 1 1  name=h
1 1 1 1  name=i
"""
'''


@pytest.mark.parametrize("change, field, words", [
    (("0 0 1 1  name=d", "0 1 1 1  name=d"), "frame", "frame edges"),
    (("0 0 1 1  name=d", "0 1 1 1  name=d", "1 1 1 1  name=i", "0 1 1 1  name=i"), "frame",
     "3 tiles with two frame edges (corners) for the 4 cells"),
    (("", "fixed = \"\"\"\n2 2 a 0\n\"\"\"\n"), "fixed", "breaks the frame rule"),
    (("0 0 1 1  name=a", "0 0 2 1  name=a", "", "fixed = \"\"\"\n1 1 a 270\n1 2 e 0\n\"\"\"\n"),
     "fixed", "contradict each other"),
    (("", "fixed = \"\"\"\n1 1 a 270\n1 1 b 270\n\"\"\"\n"), "fixed", "fixed twice"),  # one cell
    (("", "fixed = \"\"\"\n1 1 a 270\n1 3 a 0\n\"\"\"\n"), "fixed", "fixed twice"),  # one tile
    (("0 1 1 1  name=e\n0 1 1 1  name=f\n0 1 1 1  name=g\n0 1 1 1  name=h",
      "0 1 1 1  name=e count=4", "", "fixed = \"\"\"\n1 2 e 0\n\"\"\"\n"), "fixed",
     "no tile named 'e' (its 4 copies are named e-1 to e-4)"),
])
def test_bad_pieces_and_clues_are_one_line_errors(tmp_path, change, field, words):
    text = PIECES
    for old, new in zip(change[::2], change[1::2]):
        text = text.replace(old, new) if old else text + new
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        files.load(str(path))
    assert caught.value.field == field and words in caught.value.message
    assert caught.value.line is not None


def test_a_good_clue_is_read():
    path_text = PIECES + "fixed = \"\"\"\n1 1 a 270\n1 2 e 0\n\"\"\"\n"
    from puzzlesat.models.files import read_puzzle_text

    puzzle = read_puzzle_text("good.toml", path_text)
    assert len(puzzle.fixed) == 2


def test_owens_6x6_counted_with_its_nodes_and_the_row_scan_compared(tmp_path, capsys):
    """The ladder's first rung, counted by edgecount (260 grids, 65 up to turning), and the
    plain C row scan's node count beside it (where a C compiler is), compared after with the
    published 260 grids and 69,284,103 row-scan nodes."""
    import shutil

    from puzzlesat.benchmarks import ladder

    figures = ladder.ladder(["owen-6x6-set1"], [], 2, None, "edgecount",
                            rowscan=shutil.which("cc") is not None, say=lambda _: None)
    (row,) = figures["rows"]
    assert (row["grids"], row["classes"], row["complete"]) == (260, 65, True)
    assert 0 < row["nodes"] < 69_284_103 // 4  # row by row, a corner tile pinned
    if "rowscan_nodes" in row:
        assert (row["rowscan_grids"], row["rowscan_nodes"]) == (260, 69_284_103)
    table = ladder.markdown(figures)
    assert "| owen-6x6-set1 | 260 | 65 |" in table and "yes" in table
    paths = ladder.record(figures, tmp_path)
    assert json.loads(paths[1].read_text())["rows"][0]["grids"] == 260


@pytest.mark.parametrize("name, grids", [("owen-6x6-set1", 260),
                                         pytest.param("owen-6x6-set2", 160,
                                                      marks=pytest.mark.slow)])
def test_owens_6x6_row_by_row_with_a_corner_pinned_equals_the_search_without_reduction(
        name, grids):
    """The count's plan on Owen's boards (measured: row by row, one corner tile pinned on the
    top left, weighted by the 4 turns) gives the grids the plain row search finds with no
    reduction (no code of the pin or of the turns), in at most a quarter of its nodes and a
    little more (the pin's fourth of the tree may be the largest: measured 14.5 M of 69.3 M
    on set 1, 8.4 M of 44.0 M on set 2); the C row scan finds the same grids and nodes, with
    the tile kept to the first cell and without."""
    import tempfile
    from pathlib import Path

    from puzzlesat.backends.edgecount import Search, measured_order, measured_pins
    from puzzlesat.benchmarks.edgecount import build_anchor, run_anchor
    from puzzlesat.models.edge_matching.tables import build_tables

    puzzle = files.load(name)
    assert measured_order(puzzle) == "rows"
    parts = measured_pins(puzzle, "rows")
    assert [weight for _, weight, _ in parts] == [4]
    plain = Search(build_tables(puzzle, 0, "rows"), ())
    assert plain.masks is not None  # the tile search (`_search_tiles`) counts it
    plain.run(10**12)
    pinned = Search(build_tables(parts[0][0], 0, "rows"), ())
    pinned.run(10**12)
    assert plain.found == 4 * pinned.found == grids
    assert pinned.nodes < plain.nodes / 4 * 1.2
    with tempfile.TemporaryDirectory() as folder:  # the C row scan, with and without the pin
        binary = build_anchor(Path(folder))
        if binary is not None:
            assert run_anchor(binary, puzzle, None)[:2] == (plain.found, plain.nodes)
            tile = parts[0][0].fixed[0].tile
            assert run_anchor(binary, puzzle, None, tile)[:2] == (pinned.found, pinned.nodes)
    found = puzzlesat.count(name, backend="edgecount", modulo="symmetry", jobs=2)
    assert (found.details["grids"], found.number) == (grids, grids // 4)


def test_the_ladder_keeps_one_boards_count_in_a_checkpoint_and_records_beside_others(
        tmp_path):
    """`ladder --checkpoint` keeps one board's count (a second run resumes it whole); more
    boards with one checkpoint are refused in words; a recorded run replaces only its boards'
    rows."""
    from puzzlesat.benchmarks import ladder
    from puzzlesat.models.errors import InputError

    with pytest.raises(InputError, match="one board"):
        ladder.ladder(["owen-6x6-set1", "owen-6x6-set2"], [], 1, None, "edgecount", False,
                      say=lambda _: None, checkpoint=str(tmp_path / "c"))
    kept = tmp_path / "owen-6x6-set2.checkpoint"
    first = ladder.ladder(["owen-6x6-set2"], [], 2, None, "edgecount", False,
                          say=lambda _: None, checkpoint=str(kept))
    again = ladder.ladder(["owen-6x6-set2"], [], 2, None, "edgecount", False,
                          say=lambda _: None, checkpoint=str(kept))
    for figures in (first, again):
        (row,) = figures["rows"]
        assert (row["grids"], row["classes"], row["complete"]) == (160, 40, True)
    assert (first["rows"][0]["resumed"], again["rows"][0]["resumed"]) == (False, True)
    assert again["rows"][0]["nodes"] == first["rows"][0]["nodes"]
    assert (first["rows"][0]["nodes_this_run"], again["rows"][0]["nodes_this_run"]) == (
        first["rows"][0]["nodes"], 0)  # every cube read back from the checkpoint
    # the whole effort of a count over several runs: every cube's seconds, kept by the checkpoint
    for row in (first["rows"][0], again["rows"][0]):
        assert row["cubes_timed"] == row["cubes"] > 1 and row["cube_seconds"] > 0
    assert again["rows"][0]["cube_seconds"] == pytest.approx(first["rows"][0]["cube_seconds"],
                                                             abs=0.1 * row["cubes"])
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    ladder.record(again, fresh)  # read whole, nothing recorded before: the summed seconds shown
    assert "every run's cubes:" in (fresh / "eternity-ii-ladder.md").read_text()
    other = {**first, "rows": [{**first["rows"][0], "board": "owen-6x6-set1", "grids": 260}]}
    ladder.record(other, tmp_path)
    ladder.record(first, tmp_path)
    ladder.record(again, tmp_path)
    rows = json.loads((tmp_path / "eternity-ii-ladder.json").read_text())["rows"]
    # a count read whole from its checkpoint keeps the timing of the run that counted it
    assert [(r["board"], r["resumed"], r["seconds"]) for r in rows] == [
        ("owen-6x6-set1", False, first["rows"][0]["seconds"]),
        ("owen-6x6-set2", False, first["rows"][0]["seconds"])]
    partly = {**first, "rows": [{**first["rows"][0], "resumed": True,
                                 "nodes_this_run": 1000, "seconds": 0.5}]}
    ladder.record(partly, tmp_path)  # a resumed count that counted some: its own row
    rows = json.loads((tmp_path / "eternity-ii-ladder.json").read_text())["rows"]
    assert (rows[1]["resumed"], rows[1]["seconds"]) == (True, 0.5)
    assert "resumed" in (tmp_path / "eternity-ii-ladder.md").read_text()


@pytest.mark.skipif(__import__("shutil").which("cc") is None, reason="no C compiler (cc)")
def test_the_pinned_row_scan_in_parts_equals_the_whole_pinned_scan_and_resumes(tmp_path):
    """`ladder --rowscan-pinned`: the C row scan with the first corner tile kept on the top
    left corner, split by the second cell's tile and kept part by part in a checkpoint,
    adds up to the one pinned scan (grids x4 = every grid; the first cell's node counted
    once), resumes from its parts, and refuses another board's parts in one line."""
    import shutil
    import tempfile
    from pathlib import Path

    from puzzlesat.benchmarks import ladder
    from puzzlesat.benchmarks.edgecount import build_anchor, run_anchor
    from puzzlesat.models.edge_matching.tables import pinned

    puzzle = files.load("owen-6x6-set1")
    tile = pinned(puzzle)[0][0].fixed[0].tile
    with tempfile.TemporaryDirectory() as folder:
        whole = run_anchor(build_anchor(Path(folder)), puzzle, None, tile)
    keep = str(tmp_path / "count.checkpoint")
    row = ladder.ladder(["owen-6x6-set1"], [], 2, None, "edgecount", True,
                        say=lambda _: None, checkpoint=keep, pinned=True)["rows"][0]
    assert row["rowscan_pinned_grids"] == whole[0] and row["rowscan_grids"] == 260 == row["grids"]
    assert row["rowscan_nodes"] == whole[1]
    assert "row scan agrees" in ladder.markdown({"date": "d", "cores": 2, "rows": [row]})
    kept = json.loads(Path(keep + ".rowscan").read_text())
    some = dict(list(kept["parts"].items())[::2])  # half the parts lost: they are run again
    Path(keep + ".rowscan").write_text(json.dumps({**kept, "parts": some}))
    said = []
    again = ladder.ladder(["owen-6x6-set1"], [], 1, None, "edgecount", True,
                          say=said.append, checkpoint=keep, pinned=True)["rows"][0]
    assert (again["rowscan_grids"], again["rowscan_nodes"]) == (260, whole[1])
    assert any(f"{len(some)} done before" in line for line in said)
    # read whole from its parts: the load and date are those of the run that measured them
    Path(keep + ".rowscan").write_text(json.dumps(
        {**json.loads(Path(keep + ".rowscan").read_text()), "rowscan_load": "9.99 9.99 9.99",
         "rowscan_date": "2001-01-01T00:00:00+00:00"}))
    read = ladder.ladder(["owen-6x6-set1"], [], 1, None, "edgecount", True,
                         say=lambda _: None, checkpoint=keep, pinned=True)["rows"][0]
    assert (read["rowscan_nodes"], read["rowscan_load"], read["rowscan_date"][:4]) == (
        whole[1], "9.99 9.99 9.99", "2001")
    shutil.copy(keep + ".rowscan", tmp_path / "other.checkpoint.rowscan")
    from puzzlesat.cli import main

    assert main(["bench", "ladder", "owen-6x6-set2", "--rowscan-pinned", "--checkpoint",
                 str(tmp_path / "other.checkpoint")]) == 2
    assert not (tmp_path / "other.checkpoint").exists()  # refused before the count


def test_the_ladder_solves_a_board_in_cubes_resumes_and_refuses_another_boards(
        tmp_path, capsys):
    """`ladder --solve BOARD --jobs 2 --checkpoint FILE`: the cubes of the count (its pinned
    corner tile) searched on 2 threads until a grid, which `verify --board` accepts (the seams
    counted again edge by edge); one job finds the same grid again from a checkpoint cut short
    (the cubes it holds not searched again, the nodes all told); a time limit stops it
    incomplete; a checkpoint of another board gets one line and exit 2."""
    from puzzlesat.benchmarks import ladder
    from puzzlesat.best import verify_board
    from puzzlesat.cli import main

    kept = str(tmp_path / "solve.checkpoint")
    (row,) = ladder.ladder([], ["owen-6x6-set1"], 2, None, "edgecount", False,
                           say=lambda _: None, checkpoint=kept)["rows"]
    assert row["solved"] and row["complete"] and row["nodes"] > 0
    checked = verify_board("owen-6x6-set1", kept + ".board.json")
    assert checked.agree and checked.score == checked.most == 60
    whole = puzzlesat.solve("owen-6x6-set1", backend="edgecount", jobs=1,
                            checkpoint=str(tmp_path / "one"))
    assert whole.found and not whole.details["read_from_checkpoint"]
    lines = (tmp_path / "one").read_text().splitlines()
    searched = [line for line in lines[1:] if json.loads(line)["values"][0] == 0]
    assert len(searched) == whole.details["cubes_searched"] - 1 >= 1
    (tmp_path / "cut").write_text("\n".join([lines[0], *searched[:1]]) + "\n")
    resumed = puzzlesat.solve("owen-6x6-set1", backend="edgecount", jobs=1,
                              checkpoint=str(tmp_path / "cut"))
    assert resumed.grid == whole.grid
    assert resumed.details["nodes"] == whole.details["nodes"]
    assert 0 < resumed.details["nodes_this_call"] < whole.details["nodes"]
    again = puzzlesat.solve("owen-6x6-set1", backend="edgecount", jobs=2,
                            checkpoint=str(tmp_path / "cut"))  # read back: nothing searched
    assert (again.grid, again.details["nodes_this_call"]) == (whole.grid, 0)
    stopped = puzzlesat.solve("owen-7x7-set1", backend="edgecount", jobs=2, time_limit=0.05)
    assert not stopped.found and not stopped.complete
    capsys.readouterr()
    assert main(["bench", "ladder", "--solve", "owen-6x6-set2", "--checkpoint", kept]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "owen-6x6-set1" in error
    # `solve --jobs --checkpoint`: the same search (edgecount chosen for it), resumed whole
    assert main(["solve", "owen-6x6-set1", "--jobs", "1", "--checkpoint",
                 str(tmp_path / "one"), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["backend"], shown["details"]["nodes_this_call"]) == ("edgecount", 0)
    assert main(["solve", "iq-block-8", "--jobs", "2"]) == 2  # a packing solve runs whole
    assert "--jobs" in capsys.readouterr().err
