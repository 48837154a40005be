"""No command runs silent (issue 42): after FIRST seconds with nothing said, a line on standard
error names the command still at work; a command that keeps printing is left alone."""

from __future__ import annotations

import time

from puzzlesat.cli import silence


def test_a_silent_command_is_said_to_be_at_work(monkeypatch, capsys):
    monkeypatch.setattr(silence, "FIRST", 0.2)
    monkeypatch.setattr(silence, "AGAIN", 0.3)
    with silence.watching("count demo"):
        time.sleep(0.9)
    lines = capsys.readouterr().err.splitlines()
    assert 2 <= len(lines) <= 3, lines
    assert lines[0].startswith("puzzlesat: count demo: still at work (")


def test_a_command_that_prints_is_not_interrupted(monkeypatch, capsys):
    monkeypatch.setattr(silence, "FIRST", 0.3)
    with silence.watching("count demo"):
        for _ in range(10):
            print("progress", flush=True)
            time.sleep(0.1)
    captured = capsys.readouterr()
    assert "still at work" not in captured.err
    assert captured.out.count("progress") == 10


def test_the_streams_are_given_back(capsys):
    import sys

    before = sys.stdout, sys.stderr
    with silence.watching("x"):
        assert isinstance(sys.stdout, silence.Noted) and sys.stdout.isatty() is False
    assert (sys.stdout, sys.stderr) == before
