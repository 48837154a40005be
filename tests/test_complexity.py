"""Functions a reader can hold in mind (DEVELOPERS.md): no function of the tree is over
complexity 15 (ruff's C901, McCabe; the limit is pyproject.toml's [tool.ruff.lint.mccabe]), the
C kernels' (runners/csrc/) included, by lizard's cyclomatic complexity (named exemptions, each
with its measured reason: C_EXEMPT below).

No function is exempted: the five numba kernels that carried a noqa comment for C901 are C
since issue 39 (runners/csrc/), and no noqa may come back (test_no_function_is_exempted).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 15


def over_limit(paths: list[str], config: list[str] = ()) -> list[str]:
    """Every function of `paths` over the limit: 'file:line: name (complexity)'."""
    found = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "json",
         "--no-cache", "--exit-zero", *config, *paths],
        cwd=ROOT, capture_output=True, text=True, timeout=600,  # a hang guard, never a measure
    )
    assert found.returncode == 0, found.stderr
    return [f"{shown(e['filename'])}:{e['location']['row']}: {e['message']}"
            for e in json.loads(found.stdout)]


def shown(filename: str) -> str:
    path = Path(filename)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


needs_ruff = pytest.mark.skipif(importlib.util.find_spec("ruff") is None,
                                reason="ruff is not installed (pip install -e '.[test]')")


@needs_ruff
def test_no_function_is_over_complexity_15():
    found = over_limit(["models", "runners", "tests"])
    assert found == [], f"{len(found)} functions over complexity {LIMIT}:\n" + "\n".join(found)


@needs_ruff
def test_the_check_finds_a_function_over_the_limit(tmp_path):
    """The check can fail: a function of 16 branches is listed, with its name."""
    branches = "\n".join(f"    if x == {k}:\n        return {k}" for k in range(LIMIT))
    (tmp_path / "tangled.py").write_text(f"def tangled(x):\n{branches}\n    return -1\n")
    found = over_limit([str(tmp_path / "tangled.py")],
                       ["--config", f"lint.mccabe.max-complexity={LIMIT}"])
    assert len(found) == 1 and "`tangled` is too complex (16 > 15)" in found[0]


def test_pyproject_sets_the_limit_for_ruff():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f"max-complexity = {LIMIT}" in text and '"C901"' in text


# no function is exempted by a noqa comment: the five numba kernels that were are C since
# issue 39 (runners/csrc/)
MARK = "noqa: " + "C901"  # written in two parts, so that this file holds no mark itself


def test_no_function_is_exempted():
    """An exemption would hide a function over the limit from the check."""
    found = []
    for folder in ("models", "runners", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for at, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if MARK in line:
                    found.append(f"{shown(str(path))}:{at + 1}")
    assert found == []


# ---------------------------------------------------------------- the C kernels (runners/csrc)

needs_lizard = pytest.mark.skipif(importlib.util.find_spec("lizard") is None,
                                  reason="lizard is not installed (pip install -e '.[test]')")

# Functions of runners/csrc allowed over the limit ('file:function'), each with its measured
# reason (results/kernels/split.md, old and new builds alternating). The compiled searches are
# sensitive to their code and to where it lies: the packing search with the same instructions
# at another address (regions_of and py_probe split) counted pentomino-6x10 in 2.24-2.29 CPU s
# against 2.16-2.26; each split of its loop or entry point tried, 3-8 % slower. edgecount's scan
# is inlined into its entry point: read by a table of arguments (both entry points), the scan
# ran 0.6 % slower (owen-6x6-set1, 12 runs each), kept out of line 7 % slower. The moves
# engine's checks of the sliding data, split, made read_sliding 16 bytes longer and moved every
# function after it: the hash-set search of eight-puzzle:codes 3-4 % slower. As they are, the
# modules compile these to the same instructions at the same addresses as before the splits.
C_EXEMPT: dict[str, str] = {
    "bitboard.c:search": "the packing search's loop: each split measured 3-8 % slower",
    "bitboard.c:py_search": "the search is inlined into it: each split measured 3-8 % slower",
    "bitboard.c:regions_of": "placed before py_search: split, it moves the search (2-3 % slower)",
    "bitboard.c:py_probe": "placed before py_search: split, it moves the search (2-3 % slower)",
    "edgecount.c:py_search": "the scan is inlined into it: split, 0.6 % slower",
    "edgecount.c:tiles_call": "read by the scan's table of arguments: 0.6 % slower scan",
    "moves.c:check_groups": "split, it moves the searches after it: 3-4 % slower",
    "moves.c:check_placements": "split, it moves the searches after it: 3-4 % slower",
}


def c_over_limit(paths: list[Path]) -> dict[str, str]:
    """Every C function of `paths` over the limit: 'file:function' -> 'path:line: function
    (complexity)'."""
    import lizard

    found = {}
    for path in paths:
        for function in lizard.analyze_file(str(path)).function_list:
            if function.cyclomatic_complexity > LIMIT:
                found[f"{path.name}:{function.name}"] = (
                    f"{shown(str(path))}:{function.start_line}: {function.name} "
                    f"({function.cyclomatic_complexity})")
    return found


@needs_lizard
def test_no_c_function_is_over_complexity_15():
    sources = sorted((ROOT / "runners" / "csrc").glob("*.[ch]"))
    assert len(sources) >= 5  # the kernels and their header
    found = c_over_limit(sources)
    over = [line for key, line in found.items() if key not in C_EXEMPT]
    assert over == [], f"{len(over)} C functions over complexity {LIMIT}:\n" + "\n".join(over)
    assert set(C_EXEMPT) <= set(found), "exempted, no longer over the limit: drop the exemption"


@needs_lizard
def test_the_c_check_finds_a_function_over_the_limit(tmp_path):
    """The check can fail: a C function of 16 branches is listed, with its name."""
    branches = "\n".join(f"    if (x == {k}) return {k};" for k in range(LIMIT))
    (tmp_path / "tangled.c").write_text(f"int tangled(int x) {{\n{branches}\n    return -1;\n}}\n")
    found = c_over_limit([tmp_path / "tangled.c"])
    assert list(found) == ["tangled.c:tangled"] and found["tangled.c:tangled"].endswith(
        "tangled (16)"), found
