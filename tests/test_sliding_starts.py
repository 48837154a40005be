"""The starts of a set of sliding blocks (`puzzlesat sliding starts`, issue 26 item 3): the
clusters of positions, each one's farthest start from its goal positions in every metric, the
hardest start, and starts drawn at a given number of moves, against a brute-force search of a
tiny set written here apart from the project's rules, codes and kernels."""

from __future__ import annotations

import json
from collections import deque
from itertools import permutations

import pytest

from puzzlesat.cli import main
from puzzlesat.families import sliding
from puzzlesat.models.files import read_puzzle_text

TINY = '''kind = "sliding-block"
metric = "path"
start = """
AAB
C.D
.EE
"""
[goal]
piece = "A"
row = 2
column = 1
'''
# the blocks: name -> cells relative to the top-left of their box
SHAPES = {"A": ((0, 0), (0, 1)), "B": ((0, 0),), "C": ((0, 0),), "D": ((0, 0),),
          "E": ((0, 0), (0, 1))}
ROWS, COLUMNS = 3, 3


def cells_of(name, at):
    return {(at[0] + r, at[1] + c) for r, c in SHAPES[name]}


def fits(name, at):
    return all(0 <= r < ROWS and 0 <= c < COLUMNS for r, c in cells_of(name, at))


def brute_positions():
    """Every placement of the five blocks without overlap: {name: top-left}."""
    spots = [(r, c) for r in range(ROWS) for c in range(COLUMNS)]
    names = sorted(SHAPES)
    found = []
    for choice in permutations(spots, len(names)):
        position = dict(zip(names, choice))
        if not all(fits(n, a) for n, a in position.items()):
            continue
        taken = [cell for n, a in position.items() for cell in cells_of(n, a)]
        if len(taken) == len(set(taken)):
            found.append(tuple(sorted(position.items())))
    return found


def brute_moves(position, metric):
    """The positions one move away: a block shifted a step, slid in a line, or moved along a
    path of steps, through free cells."""
    here = dict(position)
    found = set()
    for name, at in here.items():
        others = {cell for n, a in here.items() if n != name for cell in cells_of(n, a)}

        def free(spot, name=name, others=others):
            return fits(name, spot) and not cells_of(name, spot) & others

        steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        if metric == "path":
            seen, queue = {at}, deque([at])
            while queue:
                spot = queue.popleft()
                for dr, dc in steps:
                    nxt = (spot[0] + dr, spot[1] + dc)
                    if nxt not in seen and free(nxt):
                        seen.add(nxt)
                        queue.append(nxt)
            targets = seen - {at}
        else:
            targets = set()
            for dr, dc in steps:
                spot = (at[0] + dr, at[1] + dc)
                while free(spot):
                    targets.add(spot)
                    if metric == "step":
                        break
                    spot = (spot[0] + dr, spot[1] + dc)
        for spot in targets:
            found.add(tuple(sorted({**here, name: spot}.items())))
    return found


def picture(position):
    grid = [["."] * COLUMNS for _ in range(ROWS)]
    for name, at in position:
        for r, c in cells_of(name, at):
            grid[r][c] = name
    return "/".join("".join(row) for row in grid)


def brute_force(metric):
    """Clusters (breadth-first from each unclustered position) and every position's distance to
    the nearest goal position (A's cells at row 2, columns 1-2) by breadth-first search."""
    positions = brute_positions()
    moves = {p: brute_moves(p, metric) for p in positions}
    cluster, clusters = {}, 0
    for p in positions:
        if p in cluster:
            continue
        cluster[p], queue = clusters, deque([p])
        while queue:
            for q in moves[queue.popleft()]:
                if q not in cluster:
                    cluster[q] = clusters
                    queue.append(q)
        clusters += 1
    level = [p for p in positions if dict(p)["A"] == (2, 1)]
    distance = {p: 0 for p in level}
    d = 0
    while level:
        d += 1
        level = [q for p in level for q in moves[p] if q not in distance]
        level = list(dict.fromkeys(level))
        for q in level:
            distance[q] = d
    return positions, cluster, clusters, distance


@pytest.fixture(scope="module")
def puzzle():
    return read_puzzle_text("tiny.toml", TINY)


@pytest.mark.parametrize("metric", ["step", "slide", "path"])
def test_the_hardest_start_of_a_tiny_set_is_the_brute_forces(puzzle, metric):
    positions, cluster, clusters, distance = brute_force(metric)
    result = sliding.starts(puzzle)
    assert result["arrangements"] == len(positions)
    assert result["clusters"] == clusters
    with_goal = {cluster[p] for p in distance}
    assert result["clusters_with_a_goal"] == len(with_goal)
    figures = result["metrics"][metric]
    top = max(distance.values())
    hardest = figures["hardest"]
    by_picture = {picture(p): p for p in positions}
    assert hardest["moves"] == top
    assert distance[by_picture[hardest["start"]]] == top
    counts = [0] * (top + 1)
    for d in distance.values():
        counts[d] += 1
    assert figures["distance_counts"] == {str(d): n for d, n in enumerate(counts)}
    # each cluster's farthest start, and the clusters counted by it
    farthest = {}
    for p, d in distance.items():
        farthest[cluster[p]] = max(farthest.get(cluster[p], 0), d)
    listed = result["listed_clusters"]
    assert sorted(c["farthest"][metric]["moves"] for c in listed) == sorted(farthest.values())
    for c in listed:
        start = by_picture[c["farthest"][metric]["start"]]
        assert distance[start] == c["farthest"][metric]["moves"]
        assert c["positions"] == sum(1 for p in positions if cluster[p] == cluster[start])


def test_starts_drawn_at_a_number_of_moves(puzzle, tmp_path, capsys):
    positions, _, _, distance = brute_force("path")
    by_picture = {picture(p): p for p in positions}
    moves = max(distance.values()) - 1
    at = sum(1 for d in distance.values() if d == moves)
    out = tmp_path / "made"
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    assert main(["sliding", "starts", str(path), "--moves", str(moves), "--count", "3",
                 "-o", str(out), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)["metrics"]["path"]["generated"]
    assert made["positions_at_that_distance"] == at
    assert len(made["starts"]) == min(3, at) == len(set(made["starts"]))
    assert all(distance[by_picture[s]] == moves for s in made["starts"])
    files = sorted(out.glob("*.toml"))
    assert len(files) == len(made["starts"])
    # each file is a puzzle whose start needs exactly that many moves
    for file in files:
        assert main(["sliding", "table", str(file), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["start_moves"] == moves


@pytest.mark.parametrize("text, field, words", [
    # the goal's place cannot be taken: B (two cells) never fits beside A at column 1
    ('kind = "sliding-block"\nmetric = "step"\nstart = """\nABB\n"""\n'
     '[goal]\npiece = "A"\nrow = 0\ncolumn = 1\n', "goal", "the goal cannot be reached"),
    ('kind = "sliding-block"\nmetric = "step"\nstart = """\nAB.\n"""\n', "goal",
     "the puzzle has no goal"),
])
def test_a_set_whose_goal_cannot_be_reached_is_one_line(tmp_path, capsys, text, field, words):
    path = tmp_path / "set.toml"
    path.write_text(text)
    assert main(["sliding", "starts", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"{path}: {field}: " in err and words in err


def test_a_goal_place_a_piece_cannot_take_is_named_at_its_line(tmp_path, capsys):
    """B (two cells wide) cannot stand at column 1 of a two-column board: refused where the
    goal says so, by every command that reads the set."""
    path = tmp_path / "set.toml"
    path.write_text('kind = "sliding-block"\nmetric = "step"\nstart = """\nA.\nBB\n"""\n'
                    '[goal]\npiece = "B"\nrow = 1\ncolumn = 1\n')
    for command in (["sliding", "starts"], ["sliding", "table"], ["solve"]):
        assert main([*command, str(path)]) == 2
        err = capsys.readouterr().err.strip()
        assert err == (f"puzzlesat: error: {path}:9: goal.row: piece B does not fit at row 1, "
                       "column 1"), err


def test_output_needs_moves(tmp_path, capsys):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    assert main(["sliding", "starts", str(path), "-o", str(tmp_path / "x")]) == 2
    assert "--output: writes the generated starts: give --moves too" in capsys.readouterr().err
