"""Mind Lock: the state space, the moves, God's-algorithm table and planning that agrees with it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import puzzlesat
from puzzlesat.cli import main
from puzzlesat.families import mind_lock as family
from puzzlesat.families.moves import MovesTable
from puzzlesat.models import files as puzzlefile
from puzzlesat.models.errors import InputError
from puzzlesat.models.mind_lock import (
    GAP_CELLS,
    MOVES,
    POSITIONS,
    apply_move,
    code,
    hex_code,
    neighbours,
    notation,
    parse_position,
    rank,
    unrank,
)
from puzzlesat.models.mind_lock.encode import slide_identities
from puzzlesat.models.words import plural
from puzzlesat.planning import PlanError
from puzzlesat.registry import backend as backend_named
from puzzlesat.registry import resolve

SOLVED = {
    ".PPP/PYYY/GGGG", "P.PP/YPYY/GGGG", "PP.P/YYPY/GGGG", "PPP./YYYP/GGGG",
    "PPPP/GYYY/.GGG", "PPPP/YGYY/G.GG", "PPPP/YYGY/GG.G", "PPPP/YYYG/GGG.",
}


@pytest.fixture(autouse=True)
def table_cache(tmp_path_factory, monkeypatch):
    """The table is cached in a folder of the tests' own, never the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="module")
def puzzle():
    return puzzlefile.load("mind-lock")


@pytest.fixture(scope="module")
def table(puzzle, tmp_path_factory):
    """The table with every distance kept, built once (in the tests' own cache folder)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))
        model = family.FAMILY.table_model(puzzle, keep_distances=True)
        return MovesTable(family.FAMILY, puzzle,
                          family.FAMILY.table_backend().table(model, fresh=True))


@pytest.fixture(scope="module")
def build(table):
    return table.build


def test_solved_positions_are_the_authors_win_states(puzzle):
    win_states = {0x0055FEA8, 0x0055FBA2, 0x0055EF8A, 0x0055BF2A,
                  0x0054FDAA, 0x0051F7AA, 0x0045DFAA, 0x00157FAA}
    assert {code(p) for p in puzzle.solved} == win_states


def test_state_count_by_breadth_first_search(build, puzzle):
    # every rank is reached from the solved positions: the count is found, not assumed
    assert build.keys is None  # the codes reached are exactly the ranks 0..92,399
    assert build.positions == len(build.distances)
    assert build.positions == POSITIONS == 92_400 == puzzle.published["positions"]
    assert build.distance_counts[0] == len(puzzle.solved) == 8


def test_rank_is_a_bijection():
    for number in range(POSITIONS):
        position = unrank(number)
        assert position.index(0) in GAP_CELLS
        assert rank(position) == number


def test_three_moves_from_every_position_each_undone_by_itself():
    for number in range(POSITIONS):
        position = unrank(number)
        after = neighbours(position)
        assert [move for move, _ in after] == list(MOVES)
        assert len({p for _, p in after} | {position}) == 4
        for move, reached in after:
            assert apply_move(reached, move) == position


def test_slide_identities_used_by_the_encodings_hold_everywhere():
    words = {"h": "horizontal", "v": "vertical"}
    for number in range(0, POSITIONS, 7):
        position = unrank(number)
        ends = []
        for pair in slide_identities():
            for word in pair:
                p = position
                for letter in word:
                    p = apply_move(p, words[letter])
                ends.append(p)
        assert ends[0::2] == ends[1::2]


def test_distance_of_the_authors_example(table, build, puzzle):
    # published: "13 moves from solved", counting the solved position as 1, i.e. 12 moves
    example = parse_position(puzzle.published["example"])
    assert hex_code(example) == "0x76bd98"
    path = table.walk(example)
    assert len(path) == build.distances[rank(example)] == puzzle.published["example_moves"] == 12
    assert path[-1][1] in puzzle.solved


def test_table_walk_is_optimal_and_legal(table, build, puzzle):
    for number in random.Random(1).sample(range(POSITIONS), 300) + build.hardest:
        position = unrank(number)
        path = table.walk(position)
        assert len(path) == build.distances[number]
        for move, after in path:
            assert apply_move(position, move) == after
            position = after
        assert position in puzzle.solved


def test_table_is_2_bits_a_position_on_disk(table):
    """The stored table: 2 bits a position and a header, no codes (they are the ranks); its
    rebuild when damaged is tests/test_table_cache.py's."""
    path = table.found.report.path
    assert path.stat().st_size <= 25_000
    assert table.build.packed.nbytes == POSITIONS // 4


PLANNERS = ["cpsat", "pysat:cadical195", "pysat:minisat22"]


@pytest.mark.parametrize("backend", PLANNERS)
def test_planning_agrees_with_the_table(backend, build, puzzle):
    for number in random.Random(7).sample(range(POSITIONS), 3):
        plan = family.FAMILY.plan(puzzle, unrank(number), resolve(backend, "mind-lock", "solve"))
        assert plan.complete
        assert len(plan.moves) == build.distances[number]


@pytest.mark.slow  # 3-7 s a planner on a quiet 2-core machine; verify plans it in the default run
@pytest.mark.parametrize("backend", PLANNERS)
def test_planning_agrees_with_the_table_on_a_hardest_position(backend, build, puzzle):
    hardest = build.hardest[0]
    plan = family.FAMILY.plan(puzzle, unrank(hardest), resolve(backend, "mind-lock", "solve"))
    assert plan.complete
    assert len(plan.moves) == build.distances[hardest] == build.gods_number


def test_replay_rejects_a_plan_that_breaks_the_rules(puzzle):
    from puzzlesat.models.mind_lock.encode import plan_cnf

    start = parse_position("0x76bd98")
    model = plan_cnf(start, puzzle.solved, 12)
    values = backend_named("pysat:cadical195").solve(model).values
    assert len(family.FAMILY.replay(puzzle, start, 12, values).moves) == 12
    broken = list(values)
    first = broken[:3].index(1)
    broken[first], broken[(first + 1) % 3] = 0, 1  # another move type, same positions
    with pytest.raises(PlanError):
        family.FAMILY.replay(puzzle, start, 12, broken)


@pytest.mark.parametrize(
    "text, needle",
    [
        ("PPPP/YYYY/GGG.", "wrong number of pieces"),
        ("P.PP/Y.YY/GGGG", "2 gaps"),
        ("PPPP/Y.YY/GGGG", "middle layer"),
        ("PPXP/YYY./GGGG", "bad letter 'X'"),
        ("PPP/YYY/GGG", "front layer"),
        ("0x1000000", "24 bits"),
        ("0x76bd90", "gaps"),
        ("nonsense", "not a position"),
    ],
)
def test_malformed_positions_are_rejected(text, needle):
    with pytest.raises(InputError) as caught:
        parse_position(text)
    assert caught.value.field == "start" and needle in caught.value.message


def test_notation_round_trip():
    for number in random.Random(3).sample(range(POSITIONS), 200):
        position = unrank(number)
        assert parse_position(notation(position)) == position
        assert parse_position(hex_code(position)) == position
        assert parse_position(notation(position).lower()) == position


# ---------------------------------------------------------------- the command line


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The command line in this process: (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "position", ["PPPP/YYYY/GGG.", "P.PP/Y.YY/GGGG", "PPPP/Y.YY/GGGG", "PPQP/YYY./GGGG",
                 "0x76bd90", "PP"],
)
def test_cli_rejects_malformed_positions_in_one_line(position, capsys):
    code, _, err = run(capsys, "solve", "mind-lock", "--from", position)
    assert code == 2, err
    assert "Traceback" not in err
    # the error in one line (after the note naming the default backend, if any)
    lines = [line for line in err.strip().splitlines() if not line.startswith("backend: ")]
    assert len(lines) == 1 and "--from" in lines[0], err


def test_cli_table_and_solve(capsys, tmp_path_factory):
    code, out, err = run(capsys, "mind-lock", "table", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert found["positions"] == 92_400
    assert sum(found["distance_counts"].values()) == 92_400
    assert found["distance_counts"][str(found["gods_number"])] == found["hardest_positions"]
    assert found["table_bytes"] == 92_400 // 4  # 2 bits a position
    cached = Path(found["table_file"])
    assert cached.parent == tmp_path_factory.getbasetemp() / "cache" / "puzzlesat"
    assert cached.stat().st_size <= 25_000
    code, out, err = run(capsys, "solve", "mind-lock", "--from", "0x76bd98", "--json")
    assert code == 0, err
    plan = json.loads(out)["solution"]
    assert plan["length"] == len(plan["moves"]) == len(plan["positions"]) == 12
    assert plan["positions"][-1] in SOLVED
    code, out, err = run(capsys, "solve", "mind-lock", "--from", "0x76bd98", "--backend", "cpsat")
    assert code == 0, err
    assert "solved in 12 moves" in out
    code, out, err = run(capsys, "mind-lock", "table")
    assert code == 0 and "God's number: 22 moves, 16 positions at that distance" in out, err


def brute_force_plans(start, solved, steps):
    """Move sequences of `steps` moves obeying the encodings' order rules that pass through a
    solved position, by enumeration."""
    words = {"horizontal": "h", "vertical": "v", "push": "p"}
    banned = [a for a, _ in slide_identities()[:2]] + [slide_identities()[2][0]]

    def allowed(word: str) -> bool:
        if len(word) >= 2 and word[-1] == word[-2]:
            return False
        slides = len(word) - len(word.rstrip("hv"))
        if slides >= 7:
            return False
        return not (slides == 6 and word[-6] == "v") and not any(word.endswith(b) for b in banned)

    def extend(position, word, reached):
        if len(word) == steps:
            return int(reached)
        total = 0
        for move, after in neighbours(position):
            longer = word + words[move]
            if allowed(longer):
                total += extend(after, longer, reached or after in solved)
        return total

    return extend(start, "", start in solved)


@pytest.mark.parametrize("steps", [12, 14])
def test_plan_models_have_exactly_the_legal_plans(steps, puzzle):
    from puzzlesat.models.mind_lock.encode import plan_cnf, plan_cpsat

    start = parse_position("0x76bd98")
    expected = brute_force_plans(start, set(puzzle.solved), steps)
    assert expected > 0
    counted = []
    for name, model in (("pysat:cadical195", plan_cnf(start, puzzle.solved, steps)),
                        ("cpsat", plan_cpsat(start, puzzle.solved, steps))):
        chosen = backend_named(name)
        (number,), finished = chosen.count_cube(chosen.prepare(chosen.payload(model)), (), None)
        assert finished
        counted.append(number)
    assert counted == [expected, expected]


# ---------------------------------------------------------------- the API


EXAMPLE = "0x76bd98"  # the author's example, 12 moves from solved


def test_load_and_backends(puzzle):
    loaded = puzzlesat.load("mind-lock")
    assert loaded.kind == "mind-lock" and loaded.solved == puzzle.solved
    assert "8 solved positions" in family.FAMILY.summary(loaded)
    names = puzzlesat.backends(loaded)
    assert names[0] == "table" and "cpsat" in names and "pysat:cadical195" in names


@pytest.mark.parametrize("backend", [None, "table", "cpsat", "pysat:cadical195"])
def test_solve_gives_an_optimal_plan_drawn_move_by_move(backend, puzzle):
    solution = puzzlesat.solve(puzzle, backend, start=EXAMPLE)
    assert solution.found and solution.complete
    assert solution.backend == ("table:mind-lock" if backend in (None, "table") else backend)
    assert solution.note == "optimal: 12 moves"
    start = parse_position(EXAMPLE)
    assert solution.grid[0] == start and len(solution.grid) == 13
    assert solution.grid[-1] in puzzle.solved
    assert len(solution.moves) == 12
    for before, move, after in zip(solution.grid, solution.moves, solution.grid[1:]):
        assert apply_move(before, move) == after
    data = solution.data
    assert data["length"] == 12 and data["optimal"] and data["start_code"] == EXAMPLE
    assert data["positions"] == [notation(p) for p in solution.grid[1:]]
    assert solution.lines[0] == f"start: {notation(start)} ({EXAMPLE})"
    assert solution.lines[-1].startswith("solved in 12 moves, the fewest possible")
    assert str(solution) == "\n".join(solution.lines)
    assert json.loads(json.dumps(solution.to_json()))["moves"] == solution.moves


def test_solve_a_solved_position_and_from_the_hardest(puzzle, build):
    solution = puzzlesat.solve(puzzle, start=".PPP/PYYY/GGGG")
    assert solution.found and solution.moves == [] and solution.note == "optimal: 0 moves"
    assert solution.lines[-1].startswith("already solved: 0 moves")
    hardest = puzzlesat.solve(puzzle, start="hardest")
    assert hardest.grid[0] == unrank(build.hardest[0])
    assert len(hardest.moves) == build.gods_number == 22


@pytest.mark.parametrize("backend", ["cpsat", "pysat:cadical195"])
def test_solve_within_a_time_limit_covers_the_whole_deepening(backend, puzzle):
    solution = puzzlesat.solve(puzzle, backend, time_limit=0.5, start="hardest")
    assert not solution.found and not solution.complete
    assert "time limit" in solution.note
    assert solution.seconds < 30  # generous: the note above shows the limit stopped it
    assert solution.data["complete"] is False and solution.data["length"] is None


def test_a_sat_planner_with_a_time_limit_deepens_in_one_worker(puzzle):
    solution = puzzlesat.solve(puzzle, "pysat:glucose4", time_limit=120, start=EXAMPLE)
    assert solution.found and len(solution.moves) == 12
    assert [b["k"] for b in solution.data["bounds"]] == list(range(13))


def test_solutions_lists_the_optimal_plan(puzzle):
    found = list(puzzlesat.solutions(puzzle, "cpsat", start=EXAMPLE))
    assert len(found) == 1 and found[0].note == "optimal: 12 moves"
    assert list(puzzlesat.solutions(puzzle, "cpsat", limit=0, start=EXAMPLE)) == []
    table = resolve("table", "mind-lock", "solve")  # the family directly, with the table
    [plan] = family.FAMILY.solutions(puzzle, table, None, start=EXAMPLE)
    assert len(plan.moves) == 12 and plan.grid[-1] in puzzle.solved


def test_count_positions_by_breadth_first_search(puzzle):
    runner = puzzlesat.api.make_runner(1, None, None, None)
    count = family.FAMILY.count(puzzle, resolve("table", "mind-lock", "solve"), "none", runner)
    assert count.complete and count.number == 92_400 and count.backend == "table:mind-lock"
    assert count.counted == family.COUNTED and count.modulo == "none"
    assert count.details["gods_number"] == 22
    assert count.details["distance_counts"]["22"] == 16
    with pytest.raises(InputError) as caught:
        family.FAMILY.count(puzzle, resolve("cpsat", "mind-lock", "solve"), "none", runner)
    assert caught.value.field == "backend" and "use backend 'table'" in caught.value.message
    with pytest.raises(InputError) as caught:
        puzzlesat.count(puzzle, modulo="symmetry")
    assert caught.value.field == "modulo"


def test_count_and_solutions_through_the_api_default_to_the_table(puzzle):
    assert puzzlesat.count(puzzle).number == 92_400
    [solution] = puzzlesat.solutions(puzzle, start=EXAMPLE)
    assert len(solution.moves) == 12


@pytest.mark.parametrize(
    "call, field, needle",
    [
        (lambda p: puzzlesat.solve(p), "start", "required"),
        (lambda p: puzzlesat.solve(p, start="PP"), "start", "not a position"),
        (lambda p: puzzlesat.solve(p, start=EXAMPLE, encoding="ladder"), "encoding",
         "pairwise"),
        (lambda p: puzzlesat.solve(p, "cpsat", start=EXAMPLE, encoding="pairwise"),
         "encoding", "does not take CNF"),
        (lambda p: puzzlesat.solve(p, "reference", start=EXAMPLE), "backend", "reference"),
        (lambda p: puzzlesat.solve(p, start=EXAMPLE, level=2), "level", "does not apply"),
        (lambda p: puzzlesat.export(p, start=EXAMPLE), "steps", "required"),
        (lambda p: puzzlesat.export(p, start=EXAMPLE, steps=-1), "steps", "must be 0 or more"),
        (lambda p: puzzlesat.export(p, start=EXAMPLE, steps=100_000), "steps", "at most 1000"),
        (lambda p: puzzlesat.export(p, steps=3), "start", "required"),
        (lambda p: puzzlesat.verify(p, sample=-1), "sample", "0 or more"),
    ],
)
def test_errors_name_the_option(call, field, needle, puzzle):
    with pytest.raises(InputError) as caught:
        call(puzzle)
    assert caught.value.field == field and needle in caught.value.message, caught.value


def test_export_dimacs(puzzle):
    text, summary = puzzlesat.export(puzzle, start=EXAMPLE, steps=3)
    assert text.startswith("c puzzlesat export of mind-lock")
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    variables, clauses = (int(n) for n in header.split()[2:4])
    assert summary.startswith(f"{plural(variables, 'variable')}, {plural(clauses, 'clause')}")


def test_verify_plans_follow_the_sample(table):
    assert family.chosen_positions(table, 0, 1) == []
    three = family.chosen_positions(table, 3, 1)
    assert [what for what, _ in three] == ["hardest", "hardest", "sample"]
    many = family.chosen_positions(table, 40, 1)
    assert sum(what == "hardest" for what, _ in many) == 16 and len(many) == 40
    assert family.DEFAULT_SAMPLE <= 6  # about a minute on 2 cores with three planners


def test_verify_a_small_sample(puzzle, monkeypatch):
    found = puzzlesat.verify(puzzle, backends=["pysat:cadical195"], sample=1)
    assert found.agree, found.why
    result = found.result
    assert result["count"] == result["positions"] == 92_400
    assert result["hardest_distance"] == 22 and result["example_moves"] == 12
    assert all(result["checks"].values())
    assert result["sample"] == {"size": 1, "seed": family.DEFAULT_SEED, "hardest": 1,
                                "random": 0}
    [row] = result["plans"]
    assert row["pysat:cadical195"]["length"] == row["table:mind-lock"]["length"] == 22
    assert "pysat:cadical195" in found.table and "22 in" in found.table
    from puzzlesat.cli import mind_lock as cli

    lines = cli.verify_lines(puzzle, found)
    assert "on 1 hardest position and 0 random ones" in lines[1]
    # with a time limit a planner that does not finish is incomplete, and the check fails
    monkeypatch.setattr(family, "check_rules", lambda found: {"checked above": True})
    stopped = puzzlesat.verify(puzzle, backends=["cpsat"], sample=1, time_limit=0.01)
    assert not stopped.agree and "cpsat on 1 position" in stopped.why
    assert "incomplete" in stopped.table and "None" not in stopped.table
    assert stopped.result == {}


def test_cli_bench_writes_its_figures(capsys, tmp_path):
    code, out, err = run(capsys, "bench", "mind-lock", "--repeat", "1", "--queries", "5",
                         "--backend", "cpsat", "--time-limit", "0.2", "--results",
                         str(tmp_path), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result == json.loads((tmp_path / "mind-lock-bench.json").read_text())
    assert result["positions"] == 92_400 and result["table_bytes"] <= 25_000
    assert result["planning_position"]["code"] == "0xabdb54"
    planner = result["planners"]["cpsat"]
    assert planner["complete"] is False and planner["length"] is None
    assert result["targets"]["cpsat_at_most_10_s"] is False
    assert result["targets"]["best_pysat_at_most_10_s"] is None  # no SAT planner timed
    code, _, err = run(capsys, "bench", "mind-lock", "--backend", "table", "--results",
                       str(tmp_path))
    assert code == 2 and "--backend" in err
