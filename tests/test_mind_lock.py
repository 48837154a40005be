"""Mind Lock: the state space, the moves, God's-algorithm table and planning that agrees with it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from types import SimpleNamespace

import pytest

from puzzlesat.models import mindlock_table, puzzlefile
from puzzlesat.models.mind_lock.encode import slide_identities
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
from puzzlesat import family_mind_lock as family


@pytest.fixture(scope="module")
def puzzle():
    return puzzlefile.load("mind-lock")


@pytest.fixture(scope="module")
def build(puzzle):
    return mindlock_table.breadth_first(puzzle.solved)


@pytest.fixture(scope="module")
def table(build, puzzle):
    return mindlock_table.table_of(build, puzzle.solved)


def test_solved_positions_are_the_authors_win_states(puzzle):
    win_states = {0x0055FEA8, 0x0055FBA2, 0x0055EF8A, 0x0055BF2A,
                  0x0054FDAA, 0x0051F7AA, 0x0045DFAA, 0x00157FAA}
    assert {code(p) for p in puzzle.solved} == win_states


def test_state_count_by_breadth_first_search(build, puzzle):
    # every rank is reached from the solved positions: the count is found, not assumed
    assert build.positions == sum(1 for d in build.distances if d != mindlock_table.UNREACHED)
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
    for number in random.Random(1).sample(range(POSITIONS), 300) + build.hardest():
        position = unrank(number)
        path = table.walk(position)
        assert len(path) == build.distances[number]
        for move, after in path:
            assert apply_move(position, move) == after
            position = after
        assert position in puzzle.solved


def test_table_is_2_bits_a_position_and_a_corrupt_file_is_rebuilt(tmp_path, table, puzzle):
    path = tmp_path / "table.bin"
    mindlock_table.save(table, puzzle.solved, path)
    assert path.stat().st_size <= 25_000
    assert len(table.packed) == POSITIONS // 4
    loaded, built = mindlock_table.load_or_build(puzzle.solved, path)
    assert not built and loaded.packed == table.packed
    data = bytearray(path.read_bytes())
    data[1000] ^= 0x04
    path.write_bytes(bytes(data))
    loaded, built = mindlock_table.load_or_build(puzzle.solved, path)
    assert built and loaded.packed == table.packed
    path.unlink()
    loaded, built = mindlock_table.load_or_build(puzzle.solved, path)
    assert built and path.exists()


def plan_args():
    return SimpleNamespace(workers=2, time_limit=None)


@pytest.mark.parametrize("backend", ["cpsat", "pysat:cadical195", "pysat:minisat22"])
def test_planning_agrees_with_the_table(backend, build, puzzle):
    hardest = build.hardest()[0]
    sample = [hardest] + random.Random(7).sample(range(POSITIONS), 3)
    for number in sample:
        plan = family.solve_position(puzzle, unrank(number), backend, plan_args())
        assert plan.complete
        assert len(plan.moves) == build.distances[number]
    assert build.distances[hardest] == build.hardest_distance


def test_replay_rejects_a_plan_that_breaks_the_rules(puzzle):
    from puzzlesat.models.mind_lock.encode import plan_cnf
    from puzzlesat.backends import backend_named

    start = parse_position("0x76bd98")
    model = plan_cnf(start, puzzle.solved, 12)
    values = backend_named("pysat:cadical195").solve(model).values
    assert len(family.replay(start, puzzle.solved, 12, values).moves) == 12
    broken = list(values)
    first = broken[:3].index(1)
    broken[first], broken[(first + 1) % 3] = 0, 1  # another move type, same positions
    with pytest.raises(family.PlanError):
        family.replay(start, puzzle.solved, 12, broken)


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
    assert caught.value.field == "--from" and needle in caught.value.message


def test_notation_round_trip():
    for number in random.Random(3).sample(range(POSITIONS), 200):
        position = unrank(number)
        assert parse_position(notation(position)) == position
        assert parse_position(hex_code(position)) == position
        assert parse_position(notation(position).lower()) == position


# ---------------------------------------------------------------- the command line


def run(*args: str, cache) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    return subprocess.run(
        [sys.executable, "-m", "puzzlesat.cli", *args],
        capture_output=True, text=True, timeout=600, env=env,
    )


@pytest.mark.parametrize(
    "position", ["PPPP/YYYY/GGG.", "P.PP/Y.YY/GGGG", "PPPP/Y.YY/GGGG", "PPQP/YYY./GGGG",
                 "0x76bd90", "PP"],
)
def test_cli_rejects_malformed_positions_in_one_line(position, tmp_path):
    result = run("solve", "mind-lock", "--from", position, cache=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--from" in lines[0], result.stderr


def test_cli_table_and_solve(tmp_path):
    table = run("mind-lock", "table", "--json", cache=tmp_path)
    assert table.returncode == 0, table.stderr
    found = json.loads(table.stdout)
    assert found["positions"] == 92_400
    assert sum(found["distance_counts"].values()) == 92_400
    assert found["distance_counts"][str(found["hardest_distance"])] == found["hardest_positions"]
    assert found["table_bytes"] <= 25_000
    assert (tmp_path / "puzzlesat" / "mind-lock-table.bin").stat().st_size == found["table_bytes"]
    solved = run("solve", "mind-lock", "--from", "0x76bd98", "--json", cache=tmp_path)
    assert solved.returncode == 0, solved.stderr
    plan = json.loads(solved.stdout)
    assert plan["length"] == len(plan["moves"]) == len(plan["positions"]) == 12
    assert plan["positions"][-1] in {
        ".PPP/PYYY/GGGG", "P.PP/YPYY/GGGG", "PP.P/YYPY/GGGG", "PPP./YYYP/GGGG",
        "PPPP/GYYY/.GGG", "PPPP/YGYY/G.GG", "PPPP/YYGY/GG.G", "PPPP/YYYG/GGG.",
    }
    text = run("solve", "mind-lock", "--from", "0x76bd98", "--backend", "cpsat", cache=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "solved in 12 moves" in text.stdout


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
    from puzzlesat.backends import backend_named

    start = parse_position("0x76bd98")
    expected = brute_force_plans(start, set(puzzle.solved), steps)
    assert expected > 0
    cnf = backend_named("pysat:cadical195").count(plan_cnf(start, puzzle.solved, steps), [()])
    cpsat = backend_named("cpsat").count(plan_cpsat(start, puzzle.solved, steps), [()])
    assert cnf.complete and cpsat.complete
    assert cnf.total == cpsat.total == expected
