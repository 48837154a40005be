"""Full cross-checks that take minutes: run with `pytest -m slow`."""

from __future__ import annotations

import pytest
from test_packing import count_solutions

from puzzlesat.models import files as puzzlefile

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("backend", ["cpsat", "reference", "pysat:cadical195", "pysat:glucose4"])
def test_iq_block_10_on_more_backends(backend):
    found = count_solutions(puzzlefile.load("iq-block-10"), backend, "symmetry", jobs=2)
    assert found.complete and (found.solutions, found.classes) == (101_792, 12_724)


@pytest.mark.parametrize(
    "name, solutions",
    [("pentomino-6x10", 9356), ("pentomino-5x12", 4040), ("pentomino-4x15", 1472),
     ("pentomino-3x20", 8), ("pentomino-8x8-centre-hole", 520)],
)
def test_pentominoes_unreduced_on_cpsat(name, solutions):
    found = count_solutions(puzzlefile.load(name), "cpsat", "none", jobs=2)
    assert found.complete and found.solutions == solutions
