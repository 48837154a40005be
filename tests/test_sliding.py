"""Sliding-block puzzles: God's algorithm against published figures, the planners against the
table, the compiled moves against the rules, bad files, refusals, the table cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _patience import HANG

from puzzlesat.backends import table as table_backend
from puzzlesat.backends.table import forget
from puzzlesat.breadth_first import TooBig
from puzzlesat.cli import main
from puzzlesat.families import sliding as family
from puzzlesat.models import files
from puzzlesat.models.errors import InputError
from puzzlesat.registry import resolve

CATALOG = ["eight-puzzle", "klotski", "rush-hour-51"]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget()


def test_eight_puzzle_figures():
    """The 8-puzzle: 181,440 positions reachable, God's number 31 in unit moves (two
    positions at 31), as Reinefeld 1993 published."""
    found = family.FAMILY.table(files.load("eight-puzzle"))
    figures = family.report(found)
    assert figures["positions"] == 181_440
    assert figures["gods_number"] == 31
    assert figures["hardest_positions"] == 2
    assert figures["metric"] == "step"
    assert sum(figures["distance_counts"].values()) == 181_440


def test_klotski_and_rush_hour_published():
    """Klotski's classic start: 25,955 positions reachable, 81 moves (any path); Fogleman's
    Rush Hour puzzle: 4,780 positions, 51 slides."""
    klotski = family.report(family.FAMILY.table(files.load("klotski")))
    assert (klotski["positions"], klotski["start_moves"]) == (25_955, 81)
    rush = family.report(family.FAMILY.table(files.load("rush-hour-51")))
    assert (rush["positions"], rush["start_moves"]) == (4_780, 51)


def planners_agree(name: str, sample: int, within: int) -> None:
    puzzle = files.load(name)
    found = family.FAMILY.table(puzzle)
    cases = family.chosen_positions(found, sample, 7, within=within)
    assert cases
    for _, position in cases:
        distance = found.distance(position)
        for backend in ("cpsat", "pysat:cadical195"):
            plan = family.FAMILY.plan_by_search(puzzle, position,
                                                resolve(backend, puzzle.kind, "solve"))
            assert plan.complete and len(plan.moves) == distance
    checks = family.check_kernel(found, [p for _, p in cases], 3)
    assert all(checks.values()), checks


@pytest.mark.parametrize("name", CATALOG)
def test_planners_agree_with_the_table(name):
    """CP-SAT and a SAT solver (iterative deepening) find plans exactly as long as the table's
    distance on sampled positions (within 3 moves of the goal) of every catalog puzzle but the
    L-piece Klotski (its 6.3 million positions take a minute: slow, below); the compiled moves
    equal the rules."""
    planners_agree(name, 2, 3)


@pytest.mark.slow
@pytest.mark.parametrize("name", CATALOG)
def test_planners_agree_farther_from_the_goal(name):
    planners_agree(name, 4, 7)


def test_table_walk_is_a_legal_optimal_solution():
    puzzle = files.load("klotski")
    found = family.FAMILY.table(puzzle)
    path = found.walk(puzzle.start)
    assert len(path) == 81
    position = puzzle.start
    for move, after in path:
        assert (move, after) in puzzle.neighbours(position)
        position = after
    assert puzzle.is_goal(position)


@pytest.mark.parametrize("metric", ["step", "slide"])
def test_other_metrics_agree_with_a_planner(metric):
    """The metric is a load option: Klotski in unit steps and straight slides, checked by
    CP-SAT on a near position."""
    puzzle = family.FAMILY.at(files.load("klotski"), metric=metric)
    found = family.FAMILY.table(puzzle)
    assert found.build.positions == 25_955  # the same positions in every metric
    _, position = family.chosen_positions(found, 1, 5, within=3)[0]
    plan = family.FAMILY.plan_by_search(puzzle, position, resolve("cpsat", puzzle.kind, "solve"))
    assert len(plan.moves) == found.distance(position)


BAD = [
    ('metric = "diagonal"', "metric", "unknown metric"),
    ('start = """\nAB\nA?\n"""', "start", "unexpected character"),
    ('goal = { piece = "Z", row = 0, column = 0 }', "goal.piece", "no piece type"),
    ('axis = "sideways"', "axis", "expected 'long-side'"),
    ('colour = "red"', "colour", "unknown field"),
]


@pytest.mark.parametrize("line, field, words", BAD)
def test_bad_files_one_line_error(tmp_path, capsys, line, field, words):
    """Bad puzzle files: one line naming file, line and field; exit code 2."""
    lines = {"kind": 'kind = "sliding-block"', "metric": 'metric = "step"',
             "start": 'start = """\nAB\n.B\n"""', "goal": 'goal = { piece = "A", row = 1, '
             'column = 0 }'}
    key = line.split(" ")[0]
    lines[key] = line
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines.values()) + "\n")
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"{path}:" in err and f"{field}:" in err and words in err
    assert "Traceback" not in err


def test_too_big_refused_before_it_starts(capsys):
    """A search whose memory estimate exceeds the limit is refused before it starts."""
    puzzle = files.load("eight-puzzle")
    with pytest.raises(TooBig, match="refused before starting"):
        family.FAMILY.table(puzzle, memory=2**20)
    assert not table_backend._FOUND
    assert main(["sliding", "table", "eight-puzzle", "--memory", "0.001"]) == 2
    err = capsys.readouterr().err
    assert "GiB" in err and "refused before starting" in err and len(err.splitlines()) == 1


def test_cache_written_read_and_rebuilt(tmp_path):
    puzzle = files.load("rush-hour-51")
    first = family.FAMILY.table(puzzle)
    report = first.found.report
    assert report.built and report.stored and report.path.exists()
    forget()
    again = family.FAMILY.table(puzzle)
    assert again.found.source == "cache" and again.build.positions == 4_780
    data = bytearray(first.found.report.path.read_bytes())
    data[-1] ^= 0xFF
    first.found.report.path.write_bytes(bytes(data))
    forget()
    rebuilt = family.FAMILY.table(puzzle)
    assert rebuilt.found.report.built and "corrupt" in rebuilt.found.report.why
    assert rebuilt.distance(puzzle.start) == 51


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_unwritable_cache_warns(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    with pytest.warns(UserWarning, match="cannot store it in"):
        found = family.FAMILY.table(files.load("rush-hour-51"))
    assert found.found.report.built and not found.found.report.stored


def test_unwritable_cache_warning_reaches_the_cli(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert main(["sliding", "table", "rush-hour-51"]) == 0
    captured = capsys.readouterr()
    assert "puzzlesat: warning: cannot store it in" in captured.err
    assert "positions reached: 4,780" in captured.out
    assert "'slide' metric" in captured.out


def test_cli_solve_names_the_metric(capsys):
    assert main(["solve", "rush-hour-51"]) == 0
    out = capsys.readouterr().out
    assert "solved in 51 moves (slide metric)" in out


def test_from_position_and_errors():
    puzzle = files.load("eight-puzzle")
    assert family.FAMILY.start_position(puzzle, "123/456/7.8") == puzzle.parse("123/456/7.8")
    with pytest.raises(InputError, match="expected 3 rows"):
        family.FAMILY.start_position(puzzle, "123/456")
    with pytest.raises(InputError, match="pieces 9|no piece type"):
        family.FAMILY.start_position(puzzle, "123/456/79.")


def test_codes_round_trip():
    for name in CATALOG:
        puzzle = files.load(name)
        assert puzzle.decode(puzzle.code(puzzle.start)) == puzzle.start
        for _, after in puzzle.neighbours(puzzle.start):
            assert puzzle.decode(puzzle.code(after)) == after


def test_catalog_files_name_sources():
    for name in CATALOG:
        assert files.load(name).source
    assert Path(files.catalog()["klotski"]).read_text().count("81") >= 1


@pytest.mark.slow
def test_l_piece_klotski_settled():
    """PSE 95123: 6,288,084 positions reachable ('about 6 million'); the bar to the bottom
    middle takes 187 moves in the any-path metric (the box's claim) and 295 unit steps (the
    answer's breadth-first search); CP-SAT agrees with the table near the goal."""
    puzzle = files.load("klotski-l-pieces")
    found = family.FAMILY.table(puzzle)
    assert found.build.positions == 6_288_084
    assert found.distance(puzzle.start) == 187
    steps = family.FAMILY.table(family.FAMILY.at(puzzle, metric="step"))
    assert steps.distance(puzzle.start) == 295
    for _, position in family.chosen_positions(found, 2, 7, within=3):
        plan = family.FAMILY.plan_by_search(puzzle, position,
                                            resolve("cpsat", puzzle.kind, "solve"))
        assert len(plan.moves) == found.distance(position)


# ---------------------------------------------------------------- random boards

from contextlib import contextmanager  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from puzzlesat.models.files import read_puzzle_text  # noqa: E402

SHAPES = [((0, 0),), ((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 0), (1, 0), (1, 1))]


@st.composite
def small_puzzles(draw):
    """A random board (2x2 to 4x4, maybe a hole), pieces of 1-3 cells dropped where they fit,
    some made one type, a random metric and maybe Rush Hour axes; its text as a puzzle file."""
    rows, columns = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    grid = [["." for _ in range(columns)] for _ in range(rows)]
    if draw(st.booleans()):
        grid[draw(st.integers(0, rows - 1))][draw(st.integers(0, columns - 1))] = "#"
    letters = iter("ABCDEFGH")
    shapes = {}
    for _ in range(draw(st.integers(1, 6))):
        shape = draw(st.sampled_from(SHAPES))
        r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, columns - 1))
        cells = [(r + dr, c + dc) for dr, dc in shape]
        if all(0 <= a < rows and 0 <= b < columns and grid[a][b] == "." for a, b in cells):
            letter = next(letters)
            shapes.setdefault(shape, []).append(letter)
            for a, b in cells:
                grid[a][b] = letter
    free = sum(row.count(".") for row in grid)
    if free == 0 or not shapes:
        grid[0][0] = "." if grid[0][0] != "#" else grid[0][0]
    metric = draw(st.sampled_from(["step", "slide", "path"]))
    lines = ['kind = "sliding-block"', f'metric = "{metric}"',
             'start = """', *("".join(row) for row in grid), '"""']
    if draw(st.booleans()):
        lines.append('axis = "long-side"')
    if shapes and draw(st.booleans()):
        goal = draw(st.sampled_from([m for members in shapes.values() for m in members]))
        lines.append(f'goal = {{ piece = "{goal}", row = {draw(st.integers(0, rows - 1))}, '
                     f'column = {draw(st.integers(0, columns - 1))} }}')
    types = [members for members in shapes.values() if len(members) > 1]
    if types and draw(st.booleans()):
        lines += ["[types]", f'x = "{"".join(types[0])}"']
    return "\n".join(lines) + "\n"


def python_search(puzzle):
    """Breadth-first search in plain Python over the rules (no codes, no kernel, no table)."""
    level, seen, counts = [puzzle.start], {puzzle.start}, []
    while level:
        counts.append(len(level))
        following = []
        for position in level:
            for _, after in puzzle.neighbours(position):
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        level = following
    return counts, seen


@contextmanager
def codes_engine(mixed: bool):
    """The search on mixed-radix codes in a hash set (as for a puzzle too large to rank), or
    the default: on ranks, a byte each."""
    if not mixed:
        yield
        return
    ranked = family.ranks_of
    family.kernel_parts.cache_clear()
    family.ranks_of = lambda puzzle: None
    try:
        yield
    finally:
        family.ranks_of = ranked
        family.kernel_parts.cache_clear()
        forget()


def test_the_two_engines_agree_on_rush_hour():
    """The search on ranks (a byte an arrangement, two threads) and the one on mixed-radix
    codes (a hash set) give the same counts at every distance and the same start distance on
    the catalog's Rush Hour (cars locked to their lines, the goal a car at the exit; the random
    boards below try both engines on every kind of board)."""
    puzzle, start_moves = files.load("rush-hour-51"), 51
    figures = []
    for mixed in (False, True):
        with codes_engine(mixed):
            found = family.FAMILY.table(puzzle, fresh=True)
            assert (found.build.keys is not None) == mixed
            figures.append(family.report(found))
    assert figures[0]["start_moves"] == figures[1]["start_moves"] == start_moves
    assert figures[0]["distance_counts"] == figures[1]["distance_counts"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.booleans())
def test_engine_equals_a_plain_search_on_random_boards(text, mixed):
    """On random boards, metrics, types and axes: both engines (on ranks, a byte each; on
    codes, a hash set; the compiled moves, the 2-bit table) count the same positions at the
    same distances from the start as a plain Python search over the rules, and every position's
    table distance is its BFS distance."""
    try:
        puzzle = read_puzzle_text("random.toml", text)
    except InputError:
        return  # a board the generator left without pieces
    with codes_engine(mixed):
        check_against_a_plain_search(puzzle, text)


def check_against_a_plain_search(puzzle, text):
    counts, seen = python_search(puzzle)
    if puzzle.goal.cells:  # distances to the goal: a second plain search from the goal's side
        level = [p for p in seen if puzzle.is_goal(p)]
        if not level:
            with pytest.raises(InputError, match="no goal position is reachable"):
                family.FAMILY.table(puzzle, fresh=True)
            return
        reached, counts = set(level), []
        while level:
            counts.append(len(level))
            level = list({a for p in level for _, a in puzzle.neighbours(p)} - reached)
            reached |= set(level)
    found = family.FAMILY.table(puzzle, fresh=True)
    assert found.build.distance_counts == counts
    for position in list(seen)[:30]:
        assert found.table.residue(family.FAMILY.code(puzzle, position)) != 3
        assert puzzle.decode(puzzle.code(position)) == position
    checks = family.check_kernel(found, list(seen)[:20], 1)
    assert all(checks.values()), (checks, text)


# ---------------------------------------------------------------- Knuth's sliding.w format

KNUTH_SILLY = """5 x 5 (a silly example)
1 = 111/01
2 = 101/111
3 = 1
1xx200000000033
000xx00033001002
"""

SILLY_TOML = '''kind = "sliding-block"
metric = "step"
start = """
AAA##
BAB..
BBB..
.....
CD...
"""
goal = """
...##
...33
..AAA
..BAB
..BBB
"""
[types]
3 = "CD"
'''


def test_knuth_format_reads_like_the_same_drawing(tmp_path):
    """Knuth's example in sliding.w's format and the same puzzle drawn in our TOML give the same
    positions at the same distances (the stop configuration is the goal)."""
    knuth = tmp_path / "silly.txt"
    knuth.write_text(KNUTH_SILLY)
    drawn = tmp_path / "silly.toml"
    drawn.write_text(SILLY_TOML)
    a = files.load(str(knuth))
    assert a.notation(a.start) == "111##/212../222../...../33..."
    assert a.notation(a.goal.position) == "...##/...33/..111/..212/..222"  # his drawing
    b = files.load(str(drawn))
    assert (family.FAMILY.table(a).build.distance_counts
            == family.FAMILY.table(b).build.distance_counts)


@pytest.mark.parametrize("text, line, field, words", [
    ("5 x 5\n1 = 111/01\n1 = 1\n1\n1\n", 3, "piece 1", "defined twice"),
    ("5 x 5\n1 = 11\n1z\n1\n", 3, "start", "'z' is no piece"),
    ("2 x 2\n1 = 11\n111\n11\n", 3, "start", "after the board is full"),
    ("2 x 2\n1 = 11\n1\n", 3, "configuration", "expected two configuration lines"),
    # malformed piece lines and a file of its size line alone: named as sliding.w's faults,
    # never read as an Eternity II file (issue 28)
    ("3 x 3 test\n1 = 12\n112233\n123456780\n", 2, "piece", "expected NAME = PATTERN"),
    ("3 x 3 test\n1 = 1/1\n2 : 11\n12\n21\n", 3, "configuration", "expected two"),
    ("4 x 4\n", 1, "configuration", "expected two configuration lines"),
])
def test_knuth_format_errors_name_line_and_field(tmp_path, capsys, text, line, field, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert main(["sliding", "table", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{path}:{line}: {field}: " in err and words in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- the perfect rank


def all_arrangements(puzzle):
    """Every arrangement of the groups' pieces without overlap, by brute force."""
    from itertools import combinations, product

    choices = [list(combinations(range(len(g.placements)), g.count)) for g in puzzle.groups]
    found = []
    for position in product(*choices):
        cells = [c for g, chosen in zip(puzzle.groups, position) for p in chosen
                 for c in g.placements[p]]
        if len(cells) == len(set(cells)):
            found.append(tuple(position))
    return found


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_the_rank_numbers_every_arrangement_once(text):
    """models/sliding/ranking.py: its size is the number of arrangements found by brute force,
    and rank and unrank are inverse bijections between them and 0..size-1."""
    from puzzlesat.models.sliding.ranking import ranking

    try:
        puzzle = read_puzzle_text("random.toml", text)
    except InputError:
        return
    ranks = ranking(puzzle)
    arrangements = all_arrangements(puzzle)
    assert ranks.size == len(arrangements)
    assert sorted(ranks.rank(a) for a in arrangements) == list(range(ranks.size))
    for r in range(ranks.size):
        assert ranks.rank(ranks.unrank(r)) == r


def test_the_plain_c_anchor_agrees_on_the_small_tile_puzzles(tmp_path):
    """The benchmark's anchor (runners/benchmarks/tiles_bfs.c, a plain C breadth-first search)
    counts what the engine counts at every distance, on the 8-puzzle and the 2x4 board."""
    from puzzlesat.benchmarks import sliding as bench

    binary = bench.build_anchor(tmp_path)
    if binary is None:
        pytest.skip("no C compiler (cc, gcc) to build the anchor")
    plain = bench.run_anchor(binary, 3, 3)
    ours = family.FAMILY.table(files.load("eight-puzzle")).build
    assert plain["distance_counts"] == ours.distance_counts
    assert (plain["positions"], plain["gods_number"]) == (181_440, 31)
    two_by_four = bench.run_anchor(binary, 2, 4)
    assert (two_by_four["positions"], two_by_four["gods_number"]) == (20_160, 36)


def test_the_tiles_bench_runs_both_searches_and_records(tmp_path, monkeypatch, capsys):
    """`sliding bench --tiles`, on the 8-puzzle in place of the 3x4 and 2x6 (minutes each):
    ours in a fresh process and the plain C search, the same counts at every distance, the
    figures recorded only where asked."""
    import json
    import shutil

    from puzzlesat.benchmarks import sliding as bench

    monkeypatch.setattr(bench, "TILES", (("eight-puzzle", 3, 3),))
    assert main(["bench", "sliding", "--tiles", "--results", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "eight-puzzle: 181,440 positions, God's number 31" in out
    recorded = json.loads((tmp_path / "sliding-tiles-bench.json").read_text())
    entry = recorded["puzzles"]["eight-puzzle"]
    assert entry["published_agrees"] == {"positions": True, "gods_number": True}
    assert entry["ours"]["peak_bytes"] > 0 and entry["targets"]["memory_at_most"]
    if shutil.which("cc") or shutil.which("gcc"):
        assert entry["anchor_agrees"] and entry["anchor"]["positions"] == 181_440
        assert "distances agree" in out
    assert main(["bench", "sliding", "--tiles", "klotski"]) == 2


# ---------------------------------------------------------------- the kernels run as Python

FIVE_PUZZLE = '''kind = "sliding-block"
metric = "step"
start = """
123
45.
"""
goal = """
123
45.
"""
'''


def test_a_count_says_no_warning(tmp_path):
    """`count` of the 2x3 five-puzzle: its 360 positions, and no numpy warning on the way (run
    as Python, numba absent, the ranked search's word test warned of an overflow)."""
    import subprocess
    import sys

    (tmp_path / "five.toml").write_text(FIVE_PUZZLE)
    run = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-m", "puzzlesat.cli",
                          "count", "five.toml"], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
                         timeout=HANG)
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr and "360 positions" in run.stdout, run.stdout
