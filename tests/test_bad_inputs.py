"""Issue 17's bad inputs: each ends in one line naming file, line and field, exit code 2.

The cases live in tests/_bad_inputs.py (run it to print the table of the closing note); the
class of each is covered by the properties in tests/test_fuzz_readers.py (numeric fields,
nesting depth). SIGINT to a count from standard input: tests/test_children.py.
"""

from __future__ import annotations

import re

import pytest
from _bad_inputs import CASES, run, write

# the benchmark format's colours are names: a long one is a colour like any other
READ = {"benchmark colour with 5,000 digits"}


@pytest.mark.parametrize("what, name, text, command", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_ends_in_one_line_with_file_line_and_field(what, name, text, command,
                                                                tmp_path):
    path = write(tmp_path, name, text)
    args = [a.format(dir=tmp_path) for a in command]
    code, said = run([args[0], str(path), *args[1:]])
    if what in READ:
        assert code == 0, said
        return
    assert code == 2, said
    assert re.match(rf"puzzlesat: error: {re.escape(str(path))}:\d+: [\w.]+: ", said), said


def test_an_unknown_revision_to_time_against_is_named_by_its_flag(capsys):
    """Regression: the library named its parameter as the flag ('--against'); the library says
    'revision', the command line '--against'."""
    from puzzlesat.benchmarks.packing import search_at
    from puzzlesat.cli import main
    from puzzlesat.models.errors import InputError

    with pytest.raises(InputError) as caught:
        search_at("no-such-revision")
    assert caught.value.field == "revision"
    assert main(["bench", "search", "--against", "no-such-revision"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("puzzlesat: error: --against:") and len(err.splitlines()) == 1
