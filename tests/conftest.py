"""What every test module shares: no Dask cluster outlives the module that started it.

A count on `dask-local` keeps its cluster for the next count of the process (executors.py);
under pytest-xdist one worker process runs several files, and a later file that checks its
process has no children left (test_children.py) met the workers an earlier file's cluster kept.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module", autouse=True)
def _no_cluster_outlives_its_module():
    yield
    from puzzlesat import executors

    executors._close_dask()  # noqa: SLF001 (the module's own clean-up, called at exit too)
