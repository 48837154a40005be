"""Calendar puzzles (issue 41): labelled boards and targets in the packing file, the dates of a
calendar, `puzzlesat calendar` and its counts checked against the same boards counted as plain
packing files."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from test_cli import run
from test_fuzz_readers import FUZZ, TOKENS, mutated, read_cleanly

from puzzlesat import api
from puzzlesat.calendar import calendar
from puzzlesat.models import files
from puzzlesat.models.errors import InputError
from puzzlesat.models.packing.calendar import (
    Date,
    calendar_cover,
    dates,
    on_date,
    parse_date,
)
from puzzlesat.models.packing.labels import label_cells, with_target
from puzzlesat.pictures import browser, play
from puzzlesat.registry import backend as backend_named

HAS_NUMBA = backend_named("bitboard").supported()


def plain_file(puzzle, flip: bool) -> str:
    """A date's board written as a plain packing file: its holes drawn, no labels, no target."""
    pieces = "\n".join(f'{p.name} = """\n' + "\n".join(p.picture) + '\n"""'
                       for p in puzzle.pieces)
    board = "\n".join(row.replace(" ", ".") or "." for row in puzzle.board)
    return (f'kind = "packing"\nflip = {str(flip).lower()}\nboard = """\n{board}\n"""\n'
            f"[pieces]\n{pieces}\n")


def test_the_target_labels_are_holes_of_the_board():
    puzzle = files.load("a-puzzle-a-day")
    at = label_cells(puzzle)
    assert puzzle.target == ("May", "1")
    assert len(at) == 43 and len(puzzle.board_cells) == 41
    assert at["May"] not in puzzle.board_cells and at["1"] not in puzzle.board_cells
    assert at["Oct"] == (1, 3) and at["31"] == (6, 2)
    moved = with_target(puzzle, ["Oct", "6"])
    assert at["May"] in moved.board_cells and at["Oct"] not in moved.board_cells
    assert len(moved.board_cells) == 41 and moved.target == ("Oct", "6")
    weekdays = files.load("calendar-weekdays")
    assert len(label_cells(weekdays)) == 50 and len(weekdays.board_cells) == 47
    assert label_cells(weekdays)["Thu"] == (7, 4)


def test_the_dates_of_a_calendar():
    assert len(dates(files.load("a-puzzle-a-day"))) == 366
    assert len(dates(files.load("calendar-weekdays"))) == 366 * 7
    assert parse_date("feb 29", False) == Date(2, 29)
    assert parse_date("2025-11-28", True) == Date(11, 28, 4)  # a Friday
    assert parse_date("Jan 1 Mon", True).name == "Jan 1 Mon"
    for text, weekdays in (("Feb 30", False), ("Apr 31", False), ("Jan 0", False),
                           ("Jan 1", True), ("Jan 1 Mon", False), ("Jan 1 Xyz", True),
                           ("2025-02-30", False), ("Janu 1", False)):
        with pytest.raises(InputError) as refused:
            parse_date(text, weekdays)
        assert refused.value.field == "date"


def test_a_label_not_on_the_board_is_refused():
    with pytest.raises(InputError, match="'Foo' is not on the board"):
        with_target(files.load("a-puzzle-a-day"), ["Jan", "Foo"])


def test_a_board_without_the_calendars_labels_is_no_calendar():
    with pytest.raises(InputError, match="no calendar"):
        dates(files.load("pentomino-6x10"))


@pytest.mark.parametrize(("name", "when", "backend"), [
    ("a-puzzle-a-day", Date(10, 6), "cpsat"),
    ("a-puzzle-a-day", Date(5, 1), "reference"),
    ("a-puzzle-a-day", Date(2, 29), "cpsat"),
    ("calendar-weekdays", Date(1, 1, 0), "cpsat"),
    ("calendar-weekdays", Date(12, 31, 6), "cpsat"),
])
def test_calendar_counts_equal_the_boards_counted_as_plain_packing_files(name, when, backend,
                                                                         tmp_path):
    """The cover of every date at once (one cube a date) against the date's board written as a
    plain packing file, read back and counted by another backend, both rules."""
    puzzle = files.load(name)
    table = calendar(puzzle, None if HAS_NUMBA else "cpsat", jobs=1, only=[when])
    assert table.complete
    for rule, flip in (("dates", True), ("face_up", False)):
        path = tmp_path / f"{rule}.toml"
        path.write_text(plain_file(on_date(puzzle, when), flip), encoding="utf-8")
        plain = api.load(str(path))
        assert not plain.labels and len(plain.board_cells) == len(puzzle.board_cells)
        count = api.count(plain, backend, jobs=1)
        assert count.complete
        assert getattr(table, rule)[when.name] == count.number, (rule, when.name)


def test_the_cover_of_every_date_takes_the_date_as_its_gap_options():
    made = calendar_cover(files.load("calendar-weekdays"), True)
    taken = made.date_options(Date(4, 8, 3))
    assert [made.cover.labels[k] for k in taken] == [
        "Apr left uncovered", "8 left uncovered", "Thu left uncovered"]
    assert made.cover.columns[-3:] == ["month left uncovered", "day left uncovered",
                                       "weekday left uncovered"]


@pytest.mark.parametrize("given", ["Feb 30", "Apr 31", "Jan 1 Mon", "tomorrow"])
def test_a_date_that_does_not_exist_is_one_line_and_exit_2(given):
    done = run("calendar", "a-puzzle-a-day", "--date", given)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--date" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_target_label_not_on_the_board_is_one_line_and_exit_2(tmp_path):
    text = files.catalog()["a-puzzle-a-day"].read_text(encoding="utf-8")
    path = tmp_path / "bad.toml"
    path.write_text(text.replace('target = ["May", "1"]', 'target = ["May", "32"]'),
                    encoding="utf-8")
    for command in (("calendar", str(path)), ("count", str(path))):
        done = run(*command)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1
        assert f"{path}:" in done.stderr and "target" in done.stderr
        assert "'32' is not on the board" in done.stderr


@pytest.mark.parametrize(("old", "new", "says"), [
    ("1   2   3   4   5   6   7\n", "1   2   3   4   5   6\n", "6 labels for the 7 cells"),
    ("29  30  31\n", "29  30  31\nextra\n", "8 lines of labels"),
    ("29  30  31\n", "29  30  1\n", "'1' is written twice"),
    ('target = ["May", "1"]', 'target = ["May"]', "the pieces cover 41 cells but the board "
     "has 42: the pieces leave 2 of the labelled board's cells uncovered, the target names 1"),
    ('target = ["May", "1"]', 'target = "May"', "target"),
])
def test_malformed_labels_are_one_line_naming_the_field(old, new, says, tmp_path):
    text = files.catalog()["a-puzzle-a-day"].read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    done = run("count", str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert says in done.stderr and str(path) in done.stderr


def test_labels_on_a_solid_are_refused(tmp_path):
    path = tmp_path / "solid.toml"
    path.write_text('kind = "packing"\nlattice = "cubic"\nboard = [[0, 0, 0], [0, 0, 1]]\n'
                    'labels = "a b"\n[pieces]\nD = [[0, 0, 0], [0, 0, 1]]\n', encoding="utf-8")
    done = run("count", str(path))
    assert done.returncode == 2 and "flat board" in done.stderr


def test_one_date_counted_and_drawn_on_the_command_line():
    done = run("calendar", "a-puzzle-a-day", "--date", "Oct 6", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("a-puzzle-a-day Oct 6: 7 solutions: placements of the pieces")
    assert "face up" in lines[1]
    assert "one solution of Oct 6" in done.stdout


def test_the_json_table_names_dates_as_the_issue_writes_them():
    done = run("calendar", "calendar-weekdays", "--date", "Apr 8 Thu", "--json", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert list(found["dates"]) == ["Apr 8 Thu"] and list(found["face_up"]) == ["Apr 8 Thu"]
    assert found["dates"]["Apr 8 Thu"] >= 1  # the source draws a solution of it
    assert found["complete"] and "turned over" in found["counted"]["dates"]


def test_a_calendar_of_another_family_or_board_is_refused():
    for name in ("pentomino-6x10", "klotski"):
        done = run("calendar", name)
        assert done.returncode == 2 and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_the_whole_table_of_a_puzzle_a_day():
    """Every date, both rules; May 1's 57 as github.com/andrewmk/PuzzleADaySolver prints it,
    Oct 6 the hardest with 7, every date solvable with pieces turned over."""
    table = calendar(files.load("a-puzzle-a-day"), jobs=2)
    assert table.complete and len(table.dates) == len(table.face_up) == 366
    assert table.dates["May 1"] == 57
    extremes = table.extremes()
    assert extremes["hardest"] == ["Oct 6"] and extremes["fewest"] == 7
    assert extremes["none"] == []
    assert all(table.face_up[d] <= table.dates[d] for d in table.dates)


@pytest.fixture(scope="module")
def calendar_page_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("calendar") / "a-puzzle-a-day.html"
    path.write_text(play.play_page(files.load("a-puzzle-a-day")), encoding="utf-8")
    return path


def page_data(path) -> dict:
    text = path.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="puzzle-data">(.*?)</script>', text,
                      re.S)
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_the_play_page_picks_a_date_and_holds_each_dates_solutions(calendar_page_file):
    puzzle = files.load("a-puzzle-a-day")
    text = calendar_page_file.read_text(encoding="utf-8")
    assert text.count("<option ") == 366 and 'id="date"' in text and 'id="hint"' in text
    data = page_data(calendar_page_file)["calendar"]
    assert len(data["solutions"]) == 366 and data["first"] == "May 1"
    cells = [tuple(c) for c in data["cells"]]
    for name in ("Oct 6", "Jan 25", "Feb 29"):
        when = parse_date(name, False)
        board = on_date(puzzle, when)
        assert data["complete"][name] == (name == "Oct 6")  # 7 fit; 216 and more do not
        grids = set()
        for text in data["solutions"][name]:
            holes = {c for c, ch in zip(cells, text) if ch == "."}
            assert holes == {label_cells(puzzle)[w] for w in when.labels}
            for index, piece in enumerate(board.pieces):
                mine = [c for c, ch in zip(cells, text) if ch == chr(97 + index)]
                assert board.lattice.normalise(mine) in board.lattice.orientations(
                    piece.cells, True)
            grids.add(text)
        assert len(grids) == len(data["solutions"][name]) == (7 if name == "Oct 6" else 54)


@pytest.mark.skipif(browser.unavailable() is not None,
                    reason=f"no browser: {browser.unavailable()}")
def test_the_play_page_in_a_browser_picks_a_date_and_hints_solve_it(calendar_page_file):
    try:
        with browser.chromium() as context:
            page = context.new_page()
            page.set_default_timeout(5000)
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(calendar_page_file.resolve().as_uri())
            assert page.get_attribute("body", "data-date")  # today's, picked on opening
            page.select_option("#date", "Oct 6")
            assert page.get_attribute("body", "data-date") == "Oct 6"
            holes = {(p.get_attribute("data-row"), p.get_attribute("data-col"))
                     for p in page.query_selector_all("#board polygon.hole")}
            assert holes == {("1", "3"), ("2", "5")}  # Oct and 6
            for _ in range(8):
                page.click("#hint")
            assert page.inner_text("#status") == "solved" and not errors
    except ImportError as error:  # pragma: no cover - reported by unavailable() first
        pytest.skip(str(error))


def test_cpsat_counts_a_date_alike_and_is_said_to_be_slow():
    said = []
    when = Date(10, 6)
    slow = calendar(files.load("a-puzzle-a-day"), "cpsat", jobs=1, say=said.append, only=[when])
    assert slow.complete and slow.dates == {"Oct 6": 7} and slow.face_up == {"Oct 6": 0}
    assert any("many times slower" in line for line in said)


def test_a_table_stopped_by_the_time_limit_is_marked_incomplete():
    done = run("calendar", "calendar-weekdays", "--time-limit", "0.2", "--jobs", "1")
    assert done.returncode == 1, done.stderr
    assert "INCOMPLETE" in done.stdout.splitlines()[0]
    found = run("calendar", "calendar-weekdays", "--time-limit", "0.2", "--jobs", "1", "--json")
    assert found.returncode == 1 and json.loads(found.stdout)["complete"] is False


LABEL_TOKENS = ["labels = ", "target = ", '["Jan", "1"]', '["Feb", "30"]', "[]", "Jan ", "31",
                "Mon", '"""', "  ", "\n"]


@FUZZ
@given(mutated(files.catalog()["calendar-weekdays"].read_text(encoding="utf-8"),
               TOKENS + LABEL_TOKENS))
def test_mutated_calendar_files_are_read_or_refused_in_one_line(mutant):
    """Labels and targets refused at their file, line and field, never a traceback."""
    read_cleanly("calendar.toml", mutant)


def test_a_labelled_board_that_is_no_calendar_plays_as_a_plain_puzzle(tmp_path):
    path = tmp_path / "labelled.toml"
    path.write_text('kind = "packing"\nboard = """\nXXX\nXXXX\n"""\nlabels = """\na b c\n'
                    'd e f g\n"""\ntarget = ["g"]\n[pieces]\nD = { picture = "XX", count = 3 }\n',
                    encoding="utf-8")
    puzzle = api.load(str(path))
    assert api.count(puzzle, "cpsat", jobs=1).number == 3
    page = play.play_page(puzzle)
    assert 'id="date"' not in page and '"calendar"' not in page and 'id="hint"' in page


def test_a_record_keeps_the_whole_table_only(tmp_path):
    done = run("calendar", "a-puzzle-a-day", "--date", "Oct 6", "--results", str(tmp_path))
    assert done.returncode == 2 and "--record" in done.stderr
    done = run("calendar", "calendar-weekdays", "--time-limit", "0.2", "--jobs", "1",
               "--results", str(tmp_path))
    assert done.returncode == 1 and "nothing recorded" in done.stderr
    assert not list(tmp_path.glob("calendar-*.json"))
