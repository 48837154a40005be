"""The bad inputs of issue 17, each as a file and a command: shared by tests/test_bad_inputs.py
and by the closing note's before/after table (run this file: python tests/_bad_inputs.py DIR)."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

HUGE = "7" * 5000  # past Python's 4,300-digit limit on int() of a decimal string

FROG = """kind = "edge-matching"
rows = 3
cols = 3
rule = "complement"
halves = ["H", "T"]
tiles = \"\"\"
T-B H-Y H-R T-R  name=0
T-R H-G H-B H-Y  name=1
T-B H-B H-G T-R  name=2
T-B H-R H-G H-R  name=3
T-Y H-B H-G T-G  name=4
T-Y T-Y T-G T-R  name=5
H-Y H-B H-G H-Y  name=6
T-Y T-G H-Y T-B  name=7
T-G T-R T-B H-R  {last}
\"\"\"
fixed = \"\"\"
{fixed}
\"\"\"
"""

PACKING = """kind = "packing"
board = \"\"\"
XX
XX
\"\"\"
[pieces]
A = \"\"\"
XX
\"\"\"
B = \"\"\"
XX
\"\"\"
[published]
solutions = {solutions}
"""

E2 = "0\n0 0 1 1\n0 1 1 0\n1 1 0 0\n1 0 0 {colour}\n"

SOLUTION = """kind = "edge-matching"
rows = 1
cols = 2
rule = "equal"
tiles = \"\"\"
R G B Y
B Y R G
\"\"\"
[published]
solutions = 2
solution = \"\"\"
{cells}
\"\"\"
"""


def frog(last: str = "name=8", fixed: str = "") -> str:
    return FROG.format(last=last, fixed=fixed)


def nested(depth: int, open_: str = "[", close: str = "]") -> str:
    return f'kind = "packing"\nx = {open_ * depth}1{close * depth}\n'


# (name, file name, file text, command after 'puzzlesat')
CASES: list[tuple[str, str, str, list[str]]] = [
    ("count= with 5,000 digits", "big-count.toml", frog(f"name=8 count={HUGE}"), ["count"]),
    ("fixed row with 5,000 digits", "big-fixed.toml", frog(fixed=f"{HUGE} 1 0 0"), ["count"]),
    ("published figure with 5,000 digits", "big-published.toml", PACKING.format(solutions=HUGE),
     ["count"]),
    ("rows with 5,000 digits", "big-rows.toml", frog().replace("rows = 3", f"rows = {HUGE}"),
     ["count"]),
    ("benchmark colour with 5,000 digits", "big-colour.txt", E2.format(colour=HUGE), ["count"]),
    ("nested arrays 100,000 deep", "deep-array.toml", nested(100_000), ["count"]),
    ("nested inline tables 100,000 deep", "deep-table.toml",
     nested(100_000, "{a=", "}"), ["count"]),
    ("count=\u00b2 (a Unicode digit int() refuses)", "count-superscript.toml",
     frog("name=8 count=\u00b2"), ["count"]),
    ("fixed row \u00b9", "fixed-superscript.toml", frog(fixed="\u00b9 1 0 0"), ["count"]),
    ("count=\u0663 (an Arabic-Indic digit)", "count-arabic.toml", frog("name=8 count=\u0663"),
     ["count"]),
    ("benchmark colour \u00b2", "colour-superscript.txt", E2.format(colour="\u00b2"), ["count"]),
    ("verify with a malformed published solution", "bad-solution.toml",
     SOLUTION.format(cells="ABC RGBY"), ["verify", "--results", "{dir}"]),
]


def run(command: list[str]) -> tuple[int | str, str]:
    """(exit code, or the exception's class when one escaped; the first line of stderr)."""
    from puzzlesat.cli import main

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code: int | str = main(command)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException as error:  # noqa: BLE001 - what a user would have seen as a traceback
        return f"traceback: {type(error).__name__}", str(error).splitlines()[0][:160]
    lines = err.getvalue().strip().splitlines()
    return code, (lines[-1] if lines else "")[:160]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def table(folder: Path) -> list[str]:
    rows = ["| case | exit | what the user reads |", "|---|---|---|"]
    for what, name, text, command in CASES:
        path = write(folder, name, text)
        args = [a.format(dir=folder) for a in command]
        code, said = run([args[0], str(path), *args[1:]])
        said = said.replace(str(folder) + "/", "").replace("|", "\\|")
        rows.append(f"| {what} | {code} | {said} |")
    return rows


if __name__ == "__main__":
    sys.setrecursionlimit(1000)
    print("\n".join(table(Path(sys.argv[1]))))
