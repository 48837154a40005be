"""Issue 42's defects, each with its regression test; where a defect shows a class, a sweep or a
hypothesis property covers the class: every public call checks its arguments' types in the
library's words (never AttributeError, KeyError or a command-line flag), and every command's
error blames only flags and arguments the user gave."""

from __future__ import annotations

import inspect
import json
import pathlib
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import puzzlesat
from puzzlesat import registry
from puzzlesat.cli import main
from puzzlesat.models.errors import InputError
from puzzlesat.models.words import counted, plural, singular

CATALOG = pathlib.Path(puzzlesat.__file__).parent / "models" / "catalog"
if not CATALOG.is_dir():  # run from the source tree
    CATALOG = pathlib.Path(__file__).parent.parent / "models" / "catalog"


def one_line_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("puzzlesat: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


# ---------------------------------------------------------------- 9: the API's types


PUBLIC_CALLS = sorted(name for name in puzzlesat.__all__
                      if name[0].islower() and inspect.isfunction(getattr(puzzlesat, name)))
# the puzzle each call is made on where its first parameter is a puzzle
PUZZLE_OF = {"best": "scramble-frog", "verify_board": "scramble-frog"}
ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                      st.binary(max_size=4), st.lists(st.text(max_size=3), max_size=2),
                      st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
                      st.just(object()), st.just(pathlib.Path("x")), st.just(print))


def test_every_public_call_declares_what_each_parameter_takes():
    """One checking mechanism for the whole API: every public function's parameters (but
    **options, which the family checks by name) are declared with `api.takes`."""
    assert {"count", "solve", "verify", "audit", "minimal_cards", "best"} <= set(PUBLIC_CALLS)
    for name in PUBLIC_CALLS:
        func = getattr(puzzlesat, name)
        parameters = [p for p, spec in inspect.signature(func).parameters.items()
                      if spec.kind is not inspect.Parameter.VAR_KEYWORD]
        assert set(getattr(func, "takes", {})) == set(parameters), name


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_wrong_type_is_a_type_error_saying_what_the_call_takes(data):
    """Property: any public call given a value its parameter does not take raises a TypeError
    naming the call, the parameter and what it takes, before any work; never AttributeError,
    KeyError, a message iterated out of a string, or a command-line flag."""
    name = data.draw(st.sampled_from([n for n in PUBLIC_CALLS
                                      if getattr(getattr(puzzlesat, n), "takes", {})]))
    func = getattr(puzzlesat, name)
    parameter = data.draw(st.sampled_from(sorted(func.takes)))
    kind = func.takes[parameter]
    value = data.draw(ANY_VALUE)
    default = inspect.signature(func).parameters[parameter].default
    assume(not kind.accepts(value) and not (value is None and default is None))
    arguments = {parameter: value}
    for other, spec in inspect.signature(func).parameters.items():  # the others required: valid
        if other != parameter and spec.default is inspect.Parameter.empty and spec.kind not in (
                inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL):
            arguments[other] = "board.json" if other == "path" else PUZZLE_OF.get(
                name, "iq-block-8")
    with pytest.raises(TypeError) as raised:
        func(**arguments)
    message = str(raised.value)
    assert message.startswith(f"{name}() takes {parameter} as "), message
    assert "--" not in message


@pytest.mark.parametrize("call", [
    lambda: puzzlesat.audit(None),
    lambda: puzzlesat.count("iq-block-8", modulo=["symmetry"]),
    lambda: puzzlesat.count("iq-block-8", checkpoint=123),
    lambda: puzzlesat.verify("iq-block-8", backends="cpsat"),
    lambda: puzzlesat.minimal_cards("iq-block-8", per_solution="yes"),
    lambda: puzzlesat.solve("iq-block-8", time_limit="10"),
    lambda: puzzlesat.best("scramble-frog", jobs=1.5),
], ids=["audit-none", "modulo-list", "checkpoint-int", "backends-str", "per-solution-str",
        "time-limit-str", "best-jobs-float"])
def test_the_issues_wrong_types_are_type_errors(call):
    """Regression: AttributeError, "unhashable type: 'list'", pathlib's bare message, "unknown
    backend 'c'" (the string iterated), or accepted."""
    with pytest.raises(TypeError, match=r"^\w+\(\) takes \w+ as .*, not "):
        call()


def test_a_pathlib_path_is_taken_wherever_a_file_is():
    """Regression: audit(pathlib.Path(...)) raised AttributeError."""
    path = CATALOG / "iq-block-challenge-unique.toml"
    assert puzzlesat.load(path).name == "iq-block-challenge-unique"
    assert puzzlesat.audit(path, grade=False).unique == 1


@pytest.mark.parametrize("call, field", [
    (lambda: puzzlesat.count("iq-block-8", jobs=0), "jobs"),
    (lambda: puzzlesat.count("iq-block-8", modulo="sideways"), "modulo"),
    (lambda: puzzlesat.count("iq-block-8", time_limit=-1), "time_limit"),
    (lambda: puzzlesat.solve("iq-block-8", backend="nothing"), "backend"),
    (lambda: puzzlesat.minimal_cards("iq-block-8", checks=-1), "checks"),
    (lambda: puzzlesat.make_booklet("iq-block-8", cards=0), "cards"),
    (lambda: puzzlesat.verify("iq-block-8", backends=["nothing"]), "backend"),
])
def test_a_wrong_value_is_an_input_error_in_the_librarys_words(call, field):
    with pytest.raises(InputError) as raised:
        call()
    assert raised.value.field == field and "--" not in str(raised.value)


# ---------------------------------------------------------------- 5: blame what was given


def without_edgecount(monkeypatch):
    """An install without a C compiler: edgecount's kernel absent."""
    from puzzlesat.backends.edgecount import EdgecountBackend

    monkeypatch.setattr(EdgecountBackend, "supported", classmethod(lambda cls: False))
    registry.backend.cache_clear()


def test_a_base_installs_solve_in_cubes_names_what_to_install(monkeypatch, capsys):
    """Regression: `solve owen-6x6-set1 --jobs 2` without edgecount (then numba, now its C
    kernel) fell through to the default SAT backend and blamed --backend ("pysat:... cannot
    enumerate solutions")."""
    without_edgecount(monkeypatch)
    try:
        err = one_line_error(capsys, ["solve", "owen-6x6-set1", "--jobs", "2"])
        with pytest.raises(InputError) as raised:
            puzzlesat.solve("owen-6x6-set1", jobs=2)
    finally:
        registry.backend.cache_clear()
    assert err.startswith("puzzlesat: error: --jobs: a solve in cubes needs edgecount: a C "
                          "compiler when puzzlesat is installed"), err
    assert raised.value.field == "jobs"


FOUR_CARDS = re.search(r"```toml four-cards.toml\n(.*?)```", (
    pathlib.Path(__file__).parent.parent / "models" / "README.md").read_text(), re.S).group(1)


def blamed(err: str) -> str:
    """The flag or argument an error line blames: 'puzzlesat: error: FIELD: ...'."""
    return err.removeprefix("puzzlesat: error: ").split(": ", 1)[0]


@pytest.mark.parametrize("argv, given", [
    (["bench", "ladder", "iq-block-8"], "BOARD"),
    (["bench", "ladder", "four-cards.toml"], "BOARD"),
    (["bench", "ladder", "--solve", "iq-block-8"], "--solve BOARD"),
    (["bench", "ladder", "--solve", "owen-9x9-set1", "--solver", "nothing"], "--solver"),
    (["estimate", "--open", "soma", "--seconds", "0.1"], "--open"),
    (["count", "iq-block-8", "--modulo", "sideways"], "--modulo"),
    (["count", "iq-block-8", "--backend", "nothing"], "--backend"),
    (["solve", "iq-block-8", "--jobs", "2"], "--jobs"),
    (["count", "four-cards.toml", "--modulo", "symmetry"], "--modulo"),
    (["verify", "iq-block-8", "--sample-cubes", "2", "--backend", "nothing"], "--backend"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_an_error_blames_only_what_the_user_gave(argv, given, capsys, tmp_path, monkeypatch):
    """Sweep: each error names a flag or argument present on the command line (regression:
    `ladder iq-block-8` and `ladder four-cards.toml` blamed --backend and --modulo, which the
    ladder chooses itself; `estimate --open soma` took both)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "four-cards.toml").write_text(FOUR_CARDS)
    err = one_line_error(capsys, argv)
    field = blamed(err)
    assert field == given, err
    assert all(word in argv for word in field.split() if word.startswith("-")), err


# ---------------------------------------------------------------- 2: estimate --seconds


def test_estimate_keeps_its_seconds_model_building_included():
    """Regression: `--seconds 0.1` took 0.6 CPU s a board (the model's building came on top of
    the budget). At least one batch of paths is walked whatever the budget."""
    from puzzlesat import native

    if not native.available("bitboard"):
        pytest.skip("the compiled bitboard search was not built")
    from puzzlesat.benchmarks.estimates import FIRST_PATHS, estimate_board

    row = estimate_board(puzzlesat.load("iq-block-8"), 0.01)
    assert row["paths"] == FIRST_PATHS  # the budget was spent by the first batch
    assert row["cpu_seconds"] >= row["model_cpu_seconds"]


# ---------------------------------------------------------------- 3: verify's exit code


def test_verify_of_a_wrong_published_solution_fails(tmp_path, capsys):
    """Regression: a published solution that breaks the rules printed "NOT VALID" and exited
    0; it is a claim of the file that fails, as `verify --board` exits 1 on a wrong claim."""
    text = (CATALOG / "scramble-frog.toml").read_text()
    puzzle = puzzlesat.load("scramble-frog")
    sides = len(puzzle.tiles[0].edges)
    wrong = "\n".join(" ".join("Z" * sides for _ in range(puzzle.cols)) for _ in range(puzzle.rows))
    if "[published]" in text:
        text = text.replace("[published]", f'[published]\nsolution = """\n{wrong}\n"""', 1)
    else:
        text += f'\n[published]\nsolution = """\n{wrong}\n"""\n'
    path = tmp_path / "frog.toml"
    path.write_text(text)
    found = puzzlesat.verify(path, backends=["reference"], jobs=1)
    assert not found.agree and "published solution" in found.why
    assert main(["verify", str(path), "--backend", "reference", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "published solution: NOT VALID here" in out and "verification failed" in out


# ---------------------------------------------------------------- 4: triangle boards


@pytest.mark.parametrize("size", ['rows = 2\ncols = 4\n', 'rows = 2\n', ''])
def test_a_triangle_board_is_a_picture_not_rows_and_cols(tmp_path, capsys, size):
    """Regression: `grid = "triangle"` with rows and cols was counted on a shape no page
    describes; it is refused in one line naming the file, the line and the field."""
    path = tmp_path / "t.toml"
    path.write_text('kind = "edge-matching"\ngrid = "triangle"\n' + size
                    + 'tiles = """\nA B C count=8\n"""\n')
    err = one_line_error(capsys, ["count", str(path)])
    field = "rows" if "rows" in size else "board"
    line = ":3: " if size else ": "
    assert f"t.toml{line}{field}: a triangle board is given as a picture" in err, err


# ---------------------------------------------------------------- 6: checkpoints and the ladder


def test_the_checkpoint_command_says_what_a_solves_checkpoint_holds(tmp_path, capsys):
    """Regression: a solve's checkpoint was called a count "modulo None"."""
    path = tmp_path / "solve.jsonl"
    key = {"task": "solve", "puzzle": "owen-6x6-set1", "backend": "edgecount"}
    path.write_text(json.dumps({"format": "puzzlesat checkpoint 1", "key": key}) + "\n"
                    + '{"work":"w","cube":0,"values":[5],"seconds":1.5}\n')
    assert main(["checkpoint", str(path), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "None" not in out and "a solve of owen-6x6-set1" in out
    assert "1 cube recorded" in out


def test_a_count_read_back_from_its_checkpoint_shows_no_time_of_its_own():
    """Regression: the ladder's table gave a count read whole from its checkpoint the reading
    run's 1.7 s as its time."""
    from puzzlesat.benchmarks.ladder import markdown

    row = {"board": "owen-6x6-set1", "task": "count", "complete": True, "grids": 260,
           "classes": 65, "nodes": 1000, "nodes_this_run": 0, "seconds": 1.7,
           "cpu_seconds": 1.6, "nodes_per_cpu_second": None, "load": 1.0, "resumed": True,
           "cube_seconds": 500.0, "cubes_timed": 10, "cubes": 10, "date": "2026-11-28"}
    table = markdown({"date": "2026-11-28", "cores": 2, "rows": [row]})
    line = table.strip().splitlines()[-1]
    assert "| 1.7 |" not in line and "| 1.6 |" not in line
    assert "read whole from its checkpoint" in line and "500.0 s" in line


# ---------------------------------------------------------------- 8: plurals


@given(st.integers(min_value=0, max_value=10**6),
       st.sampled_from(["class", "grid", "solution", "card", "cube", "position", "box"]))
def test_a_number_is_said_with_its_noun_singular_only_at_one(n, word):
    said = plural(n, word)
    assert said.split()[0] == f"{n:,}"
    assert (said.split()[1] == word) == (n == 1)
    assert singular(said.split()[1]) == word
    phrase = said.split(" ", 1)[1] + " of the board (what is counted)"
    assert counted(n, plural(2, word).split(" ", 1)[1] + " of the board (what is counted)") == \
        f"{n:,} {phrase}"


def test_a_count_of_one_class_is_said_so():
    """Regression: "1 classes", "1 cards"."""
    from puzzlesat.outcomes import Count

    one = Count("p", 1, "classes of solutions under the board's symmetries (8)", "symmetry",
                True, 0.1, "cpsat", "local")
    assert "p: 1 class of solutions under" in one.sentence() and "1 class" in repr(one)
    audit = puzzlesat.audit(CATALOG / "iq-block-challenge-unique.toml", grade=False)
    assert ": 1 card of " in audit.lines()[0]


# ---------------------------------------------------------------- 1: sizes and time limits


def one_kind_board(tmp_path, side: int) -> pathlib.Path:
    path = tmp_path / "one.toml"
    path.write_text(f'kind = "edge-matching"\nrows = {side}\ncols = {side}\ntiles = """\n'
                    f'A A A A count={side * side}\n"""\n')
    return path


def test_a_labelled_count_too_long_to_write_is_said_by_its_size(tmp_path):
    """Regression: 1,600 tiles of one kind ended in "Exceeds the limit (4300 digits) for
    integer string conversion" (1,600! labelled arrangements a grid)."""
    from puzzlesat.families.edge_matching import conventions

    puzzle = puzzlesat.load(one_kind_board(tmp_path, 40))
    said = conventions(puzzle, 1, None, True)
    assert said["labelled_tiles"]["count"] is None
    assert "a number of 4,434 digits" in said["labelled_tiles"]["counted"]
    json.dumps(said)
    from puzzlesat.models.words import number, written

    assert number(10**59) == f"{10**59:,}" and written(10**59) == 10**59
    assert number(2 * 10**70) == "about 2.00e+70, a number of 71 digits"


def test_a_time_limit_holds_while_a_large_triangle_board_is_built(tmp_path):
    """Regression: a 28,800-cell triangle edge board ignored --time-limit 10 (silent past
    120 s): its tables were built without looking at the clock, a lookup of its board hashed
    every cell once a cell, and the orbits were counted in quadratic time."""
    rows, cols = 120, 240
    picture = "\n".join("".join("^" if (r + c) % 2 == 0 else "v" for c in range(cols))
                        for r in range(rows))
    path = tmp_path / "tri.toml"
    path.write_text(f'kind = "edge-matching"\ngrid = "triangle"\nboard = """\n{picture}\n"""\n'
                    f'tiles = """\nA A A count={rows * cols}\n"""\n')
    found = puzzlesat.count(path, backend="edgecount", time_limit=0.2)
    assert not found.complete
    assert "the time limit came while the model was built" in found.counted


def test_a_solves_time_limit_counts_the_model_building(monkeypatch):
    """Regression: `solve --time-limit 10` on 90,000 monoiamonds took 21.5 s: the clock
    started after the backend's import, and the solver was given the time left before the
    model was encoded. The solver is given at most what is left once the model is built."""
    import time

    from puzzlesat.backends.cpsat import CpsatBackend
    from puzzlesat.families.packing import Packing as PackingFamily

    built, given = [], []
    encode = PackingFamily.encode

    def timed_encode(self, *args, **kwargs):
        model = encode(self, *args, **kwargs)
        time.sleep(0.5)  # an encoding that takes its time
        built.append(time.time())
        return model

    solve = CpsatBackend.solve

    def recorded(self, model, time_limit=None):
        given.append(time_limit)
        return solve(self, model, time_limit)

    monkeypatch.setattr(PackingFamily, "encode", timed_encode)
    monkeypatch.setattr(CpsatBackend, "solve", recorded)
    begin = time.time()
    found = puzzlesat.solve("pentomino-6x10", backend="cpsat", time_limit=30)
    assert found.found and given and built
    assert given[0] <= 30 - (built[0] - begin) + 0.05  # (the call starts its clock after ours)


# ---------------------------------------------------------------- 8: pages and help say true


ROOT = pathlib.Path(__file__).parent.parent
CITED = re.compile(r"\b((?:models|runners|results|tests)/[A-Za-z0-9_./-]+"
                   r"\.(?:py|md|toml|json|csv|c))\b")


def test_every_file_a_docstring_or_page_cites_is_in_the_repository():
    """Sweep (regression: docstrings of tests/test_families.py cited a file the repository
    does not have, as did models/edge_matching/encode.py): every path the sources, tests and
    pages name exists, placeholders in capitals (STEM, NAME, PUZZLE) aside."""
    if not (ROOT / "models" / "README.md").exists():
        pytest.skip("not a source checkout")
    sources = [*ROOT.glob("tests/*.py"), *ROOT.glob("runners/**/*.py"),
               *ROOT.glob("models/**/*.py"), ROOT / "README.md", ROOT / "runners" / "README.md",
               ROOT / "models" / "README.md"]
    missing = {(str(path.relative_to(ROOT)), cited) for path in sources
               for cited in CITED.findall(path.read_text(encoding="utf-8"))
               if not re.search(r"[A-Z]{3,}", cited) and not (ROOT / cited).exists()}
    assert missing == set()
    assert "DEVELOPERS.md" not in (ROOT / "tests" / "test_families.py").read_text()


def test_verify_help_says_sample_cubes_writes_only_when_recorded(capsys):
    """Regression: `verify --help` said --sample-cubes writes results/ (only --record does)."""
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "with --record writes results/PUZZLE-sample-cubes.json" in text


def test_the_readme_family_table_says_edge_matching_is_on_every_grid():
    """Regression: the README's family table said edge matching is on square tiles; it is on
    every grid the project supports (models/edge_matching/grid.py)."""
    from puzzlesat.models.edge_matching.grid import GRIDS

    row = next(line for line in (ROOT / "README.md").read_text().splitlines()
               if line.startswith("| edge matching"))
    assert "square tiles)" not in row
    assert all(name in row for name in GRIDS), row


# ---------------------------------------------------------------- 7: places in pictures


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 6), data=st.data())
def test_a_picture_error_names_the_place_as_its_cell_is_written(rows, cols, data):
    """Property (regression: picture errors counted rows and columns from 1 while cells are
    numbered from 0): a stray character at row r and column c of a picture, after its common
    indentation, is named [r, c], as the cell drawn there is written."""
    from puzzlesat.models.geometry import HEXAGONAL, TRIANGULAR, PictureError, place

    r, c = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    lattice = data.draw(st.sampled_from([TRIANGULAR, HEXAGONAL]))
    lines = [["." for _ in range(cols)] for _ in range(rows)]
    lines[r][c] = "?"
    text = "\n".join("    " + "".join(line) for line in lines)  # indented alike
    with pytest.raises(PictureError) as raised:
        lattice.picture_cells(text)
    assert place(r, c) in raised.value.message
    assert place(r, c).startswith(f"[{r}, {c}]")


def test_a_misplaced_triangle_is_named_by_its_cell(tmp_path):
    from puzzlesat.models.geometry import TRIANGULAR, PictureError

    with pytest.raises(PictureError) as raised:
        TRIANGULAR.picture_cells("^v^\n^v^")
    assert "at [1, 0] (row and column from 0" in raised.value.message
    assert "as the first one ('^' at [0, 0])" in raised.value.message


def test_a_piece_set_is_generated_once_a_process():
    """Regression: `list --open` took 81 s ("under a minute" on the page): each of its 221
    boards generated its piece set (polyforms) anew. The set is made once; callers get their
    own list, so that none can change another's."""
    from puzzlesat.models.geometry import TRIANGULAR, _polyforms, polyforms

    first = polyforms(TRIANGULAR, 6, True)
    before = _polyforms.cache_info().hits
    again = polyforms(TRIANGULAR, 6, True)
    assert again == first and len(first) == 12  # the 12 hexiamonds
    assert _polyforms.cache_info().hits == before + 1
    again.clear()
    assert len(polyforms(TRIANGULAR, 6, True)) == 12
