"""The command line's shape (issue 42): the user's verbs at the top, every benchmark a suite of
`bench`, the old names working one more release with a one-line notice, and a quiet default
(one short line names the backend; the reason for a default under --verbose and in `backends`).
"""

from __future__ import annotations

import argparse

import pytest

from puzzlesat.cli import TOP_LEVEL, build_parser, main
from puzzlesat.cli.bench import RENAMED, SUITES, renamed


def listed(parser: argparse.ArgumentParser) -> list[str]:
    """The commands `--help` lists, in its order."""
    (commands,) = [a for a in parser._actions  # noqa: SLF001 (argparse has no public walk)
                   if isinstance(a, argparse._SubParsersAction)]  # noqa: SLF001
    return [action.dest for action in commands._choices_actions]  # noqa: SLF001


def test_the_top_level_lists_the_users_verbs_and_no_benchmark():
    """A benchmark is a suite of `bench`: none is a command of its own in `--help` (the old
    names are still accepted, hidden)."""
    shown = listed(build_parser())
    assert shown == list(TOP_LEVEL)
    benchmarks = [name for name in shown if "bench" in name and name != "bench"]
    old = [name for name in shown if (name,) in RENAMED]
    assert benchmarks == [] and old == [], shown
    assert shown[-1] == "bench"


def test_every_benchmark_is_a_suite_of_bench_with_its_run():
    parser = build_parser()
    for suite in SUITES:
        args = parser.parse_args(["bench", suite.name, *(["iq-block-8"] if suite.name ==
                                                         "backends" else [])])
        assert args.suite == suite.name and callable(args.run), suite.name
    assert "ladder" in {s.name for s in SUITES}  # a benchmark: runners/README.md says why
    for family in ("sliding", "mind-lock"):  # the families' benches moved under bench
        with pytest.raises(SystemExit):
            parser.parse_args([family, "bench"])


@pytest.mark.parametrize("old, new", list(RENAMED.items()), ids=lambda o: " ".join(o))
def test_an_old_name_still_works_with_a_one_line_notice(old, new, capsys):
    with pytest.raises(SystemExit) as done:
        main([*old, "--help"])
    assert done.value.code == 0
    out, err = capsys.readouterr()
    assert f"usage: puzzlesat {' '.join(new)}" in out
    (notice,) = err.strip().splitlines()
    assert notice.startswith("puzzlesat: note: ") and f"puzzlesat {' '.join(new)}" in notice


@pytest.mark.parametrize("argv, suite, left", [
    (["bench", "iq-block-8", "--repeat", "1"], "backends", ["iq-block-8", "--repeat", "1"]),
    (["bench", "--anchor", "xcover", "--repeat", "1"], "packing", ["--repeat", "1"]),
    (["bench", "--anchor=dlx", "iq-block-8"], "dlx", ["iq-block-8"]),
    (["bench", "--anchor", "rowscan", "--estimate", "5"], "edgecount", ["--estimate", "5"]),
    (["bench", "--startup", "iq-block-8"], "startup", ["iq-block-8"]),
    (["bench", "--anchor", "xcover", "--startup"], "startup", []),
    (["bench", "--startup", "--anchor", "xcover"], "startup", []),
    (["bench", "--search", "--against", "HEAD"], "search", ["--against", "HEAD"]),
    # two suites named: the first one's parser refuses what is left
    (["bench", "--startup", "--anchor", "dlx"], "startup", ["--anchor", "dlx"]),
])
def test_the_old_bench_flags_name_their_suite(argv, suite, left):
    made, notice = renamed(argv)
    assert made == ["bench", suite, *left] and f"puzzlesat bench {suite}`" in notice


@pytest.mark.parametrize("argv", [["bench"], ["bench", "--help"], ["bench", "ladder", "x"],
                                  ["count", "ladder"], ["best", "bench"]])
def test_todays_command_lines_are_left_as_they_are(argv):
    assert renamed(argv) == (argv, None)


def test_bench_puzzle_in_the_old_form_times_with_a_notice(capsys, monkeypatch):
    """`bench PUZZLE` (before the suites) still runs, as `bench backends PUZZLE`."""
    from puzzlesat.cli import bench

    timed = []
    monkeypatch.setattr(bench, "time_puzzle", lambda name, *rest: timed.append(name))
    assert main(["bench", "iq-block-8", "--backend", "cpsat", "--repeat", "1"]) == 0
    assert timed == ["iq-block-8"]
    assert "`bench PUZZLE...` is now `puzzlesat bench backends`" in capsys.readouterr().err


def backend_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if "default" in line]


def test_a_count_names_its_backend_in_one_short_line(capsys):
    """Regression (issue 42): every count printed a paragraph on why its backend is the
    default; now one short line, the paragraph under --verbose."""
    assert main(["count", "iq-block-8", "--jobs", "1"]) == 0
    (line,) = backend_lines(capsys.readouterr().err)
    assert line.startswith("backend: ") and line.endswith(" (the default)") and len(line) < 60
    assert main(["count", "iq-block-8", "--jobs", "1", "--verbose"]) == 0
    said = backend_lines(capsys.readouterr().err)
    assert said[0] == line and len(said) == 2 and "measured" in said[1]
    assert main(["count", "iq-block-8", "--jobs", "1", "--backend", "cpsat", "-v"]) == 0
    assert backend_lines(capsys.readouterr().err) == []  # a backend named: no default to explain


def test_backends_says_why_each_default_is_the_default(capsys):
    assert main(["backends", "diamond-blocks"]) == 0
    out = capsys.readouterr().out
    assert "solve by pysat:glucose4, the default: " in out
    assert "count by edgecount, the default: measured fastest" in out
