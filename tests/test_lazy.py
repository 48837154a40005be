"""Lazily imported modules (runners/lazy.py) are whole in every thread that reads them at once
(regression: the workshop's threads read a half-executed family module under LazyLoader)."""

from __future__ import annotations

import sys
import threading

import pytest

from puzzlesat.lazy import lazy_module


def test_threads_reading_a_lazy_module_at_once_each_find_it_whole(tmp_path, monkeypatch):
    (tmp_path / "slow_module_for_lazy.py").write_text(
        "import time\ntime.sleep(0.3)\nFIRST = 1\ntime.sleep(0.3)\nLAST = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = lazy_module("slow_module_for_lazy")
    assert "slow_module_for_lazy" not in sys.modules  # nothing executed yet
    found, failed = [], []

    def read() -> None:
        try:
            found.append((module.FIRST, module.LAST))
        except AttributeError as error:
            failed.append(error)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failed == [] and found == [(1, 2)] * 8
    monkeypatch.delitem(sys.modules, "slow_module_for_lazy")


def test_a_missing_module_is_refused_at_once():
    with pytest.raises(ModuleNotFoundError):
        lazy_module("puzzlesat.no_such_module_here")
