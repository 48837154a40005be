"""The Python API on packing puzzles (the other families test theirs in their own files)."""

from __future__ import annotations

import json

import pytest

import puzzlesat


def test_load_solve_count_list_verify():
    puzzle = puzzlesat.load("iq-block-8")
    assert puzzlesat.backends(puzzle)[0] == "cpsat"
    assert {"reference", "pysat:cadical195"} <= set(puzzlesat.backends(puzzle))

    solution = puzzlesat.solve(puzzle)
    assert solution.found and set(solution.grid.values()) == set(range(len(puzzle.pieces)))
    assert len(solution.grid) == 64
    assert json.loads(json.dumps(solution.to_json()))["solved"] is True
    assert "iq-block-8" in repr(solution)

    count = puzzlesat.count(puzzle, modulo="symmetry", jobs=1)
    assert (count.number, count.complete, count.modulo) == (6, True, "symmetry")
    assert count.group.order == 8 and "classes" in count.counted
    assert count.details["solutions"] == 48
    assert "6" in repr(count) and "complete" in repr(count)
    assert count.to_json()["group"]["order"] == 8

    grids = [s.grid for s in puzzlesat.solutions(puzzle, limit=5)]
    assert len(grids) == 5 and len({tuple(sorted(g.items())) for g in grids}) == 5
    every = list(puzzlesat.solutions(puzzle, backend="cpsat"))
    assert len(every) == 48

    verified = puzzlesat.verify(puzzle, backends=["cpsat", "reference"], jobs=1)
    assert verified.agree, verified.why
    assert verified.result["count"] == 48 and verified.result["classes"] == 6


def test_every_backend_lists_the_same_solutions():
    puzzle = puzzlesat.load("pentomino-3x20")
    found = {
        backend: sorted(tuple(sorted(s.grid.items())) for s in puzzlesat.solutions(puzzle, backend))
        for backend in ("cpsat", "pysat:cadical195", "reference")
    }
    assert len(found["cpsat"]) == 8
    assert found["cpsat"] == found["pysat:cadical195"] == found["reference"]


def test_a_count_stopped_by_its_time_limit_is_a_lower_bound():
    count = puzzlesat.count("pentomino-6x10", backend="reference", time_limit=0.5, jobs=1)
    assert not count.complete and 0 <= count.number < 9356
    assert "INCOMPLETE" in count.sentence()


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: puzzlesat.load("no-such-puzzle"), "PUZZLE"),
        (lambda: puzzlesat.load("iq-block-8", level=2), "level"),
        (lambda: puzzlesat.count("iq-block-8", backend="nope"), "backend"),
        (lambda: puzzlesat.count("iq-block-8", backend=""), "backend"),
        (lambda: puzzlesat.count("iq-block-8", backend="pysat:nope"), "backend"),
        (lambda: puzzlesat.count("iq-block-8", backend="pysat:kissat404"), "backend"),
        (lambda: puzzlesat.count("iq-block-8", modulo="turns"), "modulo"),
        (lambda: puzzlesat.count("iq-block-8", jobs=0), "jobs"),
        (lambda: puzzlesat.count("iq-block-8", time_limit=float("nan")), "time_limit"),
        (lambda: puzzlesat.count("iq-block-8", executor="slurm"), "executor"),
        (lambda: puzzlesat.count("iq-block-8", backend="cpsat", encoding="ladder"), "encoding"),
        (lambda: puzzlesat.count("iq-block-8", backend="table"), "backend"),
        (lambda: puzzlesat.solve("iq-block-8", start="0x76bd98"), "start"),
        (lambda: puzzlesat.export("iq-block-8", "xml"), "format"),
    ],
)
def test_errors_name_their_field(call, field):
    with pytest.raises(puzzlesat.InputError) as error:
        call()
    assert error.value.field == field
    assert "--" not in str(error.value)  # the library's words, never the command line's


def test_the_command_line_names_each_parameter_by_its_flag(capsys):
    """One table turns parameters into flags; every flag in it is one the command line takes."""
    from puzzlesat.cli import PARAMETER_FLAGS, build_parser, in_flags, main

    def flags(parser) -> set[str]:
        found = set(parser._option_string_actions)
        for action in parser._subparsers._group_actions if parser._subparsers else ():
            for command in action.choices.values():
                found |= flags(command)
        return found

    assert set(PARAMETER_FLAGS.values()) <= flags(build_parser())
    error = in_flags(puzzlesat.InputError("must be at least 1", field="jobs"))
    assert str(error) == "--jobs: must be at least 1"
    assert str(in_flags(puzzlesat.InputError("bad", file="f.toml", line=3, field="tiles"))) == \
        "f.toml:3: tiles: bad"
    assert str(in_flags(puzzlesat.InputError("bad", file="f.toml", line=3, field="start"))) == \
        "f.toml:3: start: bad"  # a puzzle file's field, not the parameter
    assert str(in_flags(puzzlesat.InputError("is a directory", file="d", field="output"))) == \
        "d: --output: is a directory"
    assert main(["count", "iq-block-8", "--executor", "slurm"]) == 2
    assert capsys.readouterr().err.startswith("puzzlesat: error: --executor: unknown executor")


def test_no_error_below_the_command_line_names_a_flag():
    """Every InputError raised in the library (runners/ but cli/, models/) in library words:
    its field and message name parameters, never a flag ("--jobs")."""
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    found = []
    for path in [*(root / "runners").rglob("*.py"), *(root / "models").rglob("*.py")]:
        if "cli" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "InputError":
                for part in ast.walk(node):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str) and \
                            re.search(r"(^|[\s(])--[a-z]", part.value):
                        found.append(f"{path.relative_to(root)}:{part.lineno}: {part.value!r}")
    assert not found, "\n".join(found)


def test_sources_are_named_not_internal_seed_files():
    """Titles, comments and docstrings name the public sources (an article, its author, a
    repository), never the project's internal seed files ('seed 003')."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    found = []
    for folder in ("models", "runners", "results"):
        for path in (root / folder).rglob("*"):
            if path.suffix in (".py", ".toml", ".md", ".html", ".json", ".svg", ".csv"):
                text = path.read_text(encoding="utf-8", errors="replace")
                found += [f"{path.relative_to(root)}: {m.group()}"
                          for m in re.finditer(r"seed \d{3}", text)]
    readme = (root / "README.md").read_text(encoding="utf-8")
    found += [f"README.md: {m.group()}" for m in re.finditer(r"seed \d{3}", readme)]
    assert not found, found
