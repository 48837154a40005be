"""No line reads "1 classes" (issue 42): every f-string under runners/ and models/ that puts a
number before a plural noun of the puzzles' vocabulary says it with models/words.py (`plural`,
`counted`), and those helpers say "1 class", "2 classes" for any number."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlesat.cli import main
from puzzlesat.models.words import counted, in_seconds, plural, singular

ROOT = pathlib.Path(__file__).parent.parent

# Plural count nouns of the puzzles' vocabulary (and of the machine's: cores, jobs, files).
NOUNS = (
    "arrangements", "balls", "boards", "boxes", "bytes", "cards", "cells", "classes", "clauses",
    "clusters", "colours", "columns", "copies", "cores", "corners", "counts", "cubes", "dates",
    "digits", "edges", "elements", "files", "gaps", "grids", "groups", "hits", "holes", "images",
    "items", "jobs", "joints", "kinds", "labels", "layers", "lines", "moves", "nodes", "options",
    "orbits", "orientations", "pages", "parts", "paths", "pictures", "pieces", "placements",
    "positions", "processes", "puzzles", "rotations", "rounds", "rows", "rungs", "runs", "seams",
    "sides", "solutions", "squares", "starts", "steps", "symmetries", "threads", "tiles",
    "tilings", "triangles", "turns", "variables", "workers",
)

# Formatted values that are words, not numbers: "packing puzzles", "black cells".
WORDS = {
    "a family's name ('no cpsat backend for sliding puzzles')":
        ("puzzle.kind", "self.kind", "fam.kind", "kind", "argument"),
    "a backend's name, 'counts' the verb ('mc:ganak counts solutions without listing them')":
        ("self.name", "chosen.name", "backend"),
    "a kind of cell or tile ('marks on black cells', 'no two dark tiles side by side')":
        ("puzzle.grid", "grid_name", "name", "mark", "puzzle.apart"),
    "a file format ('svg files cannot go to standard output')": ("fmt",),
    "a placement's label, the cells its next field ('piece L orientation 3 cells (0, 1) ...')":
        ("names", "placement.orientation"),
}
SAID_AS_WORDS = {expression for expressions in WORDS.values() for expression in expressions}
FLOAT = re.compile(r"[eEfFgG%]$")  # a float's format: '1.2e+06 nodes', '0.5 s' is never one


def modules() -> list[pathlib.Path]:
    return sorted([*ROOT.glob("runners/**/*.py"), *ROOT.glob("models/**/*.py")])


def constant(value: ast.expr) -> bool:
    """A literal or a module's constant (UPPER_CASE): its number is fixed, never 1."""
    while isinstance(value, ast.Subscript):
        value = value.value
    name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")
    return isinstance(value, ast.Constant) or (name.isupper() and len(name) > 1)


def a_number(value: ast.FormattedValue) -> bool:
    """Whether a formatted value can be a whole number, 1 among others."""
    spec = ast.unparse(value.format_spec)[2:-1] if value.format_spec else ""
    return not (value.conversion != -1 or FLOAT.search(spec) or constant(value.value)
                or ast.unparse(value.value) in SAID_AS_WORDS)


def not_a_count(before: str, noun: str) -> bool:
    """Whether the text before a number says it does not count the noun: a factor or a term
    ('6 x 6 cells', '4+5 colours': the noun counts the product or the sum), or a label ('move 3
    moves nothing': the noun's singular before the number, the noun a verb)."""
    return bool(re.search(r"(\bx|\+) ?$", before)) or before.endswith(f"{singular(noun)} ")


def noun_after(rest: list[ast.expr]) -> str | None:
    """The word the values after a number begin with: text (' cells of ...'), or a noun chosen
    between two (' ' then {'rotations' if ... else 'symmetries'})."""
    if not rest or not isinstance(rest[0], ast.Constant):
        return None
    word = re.match(r" ([a-z]+)\b", rest[0].value)
    if word:
        return word[1]
    chosen = rest[1].value if rest[0].value == " " and len(rest) > 1 else None
    if isinstance(chosen, ast.IfExp):
        arms = [arm.value for arm in (chosen.body, chosen.orelse) if isinstance(arm, ast.Constant)]
        return next((arm for arm in arms if arm in NOUNS), None)
    return None


def hand_made(value: ast.expr) -> bool:
    """A plural's ending chosen by hand: {'s' * (n != 1)}, {'es' if n != 1 else ''}."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return any(isinstance(side, ast.Constant) and side.value in ("s", "es")
                   for side in (value.left, value.right))
    return (isinstance(value, ast.IfExp) and isinstance(value.body, ast.Constant)
            and isinstance(value.orelse, ast.Constant) and value.body.value in ("s", "es")
            and value.orelse.value == "")  # (a verb's 's' comes when the number is 1: 'fits')


def after_a_number(before: list[ast.expr | None]) -> bool:
    """Whether the values before an ending are a number and a noun: {n} solution{...}."""
    return (len(before) == 2 and isinstance(before[0], ast.FormattedValue)
            and isinstance(before[1], ast.Constant)
            and bool(re.fullmatch(r" [a-z]+", before[1].value)))


def bare_counts(source: str, name: str) -> list[str]:
    """'name:line: {value} noun' for each number put before a plural noun by hand, and each
    ending of a counted noun chosen by hand."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.JoinedStr):
            continue
        values = [None, *node.values]
        for i, value in enumerate(values[1:], 1):
            if not isinstance(value, ast.FormattedValue):
                continue
            said = f"{name}:{node.lineno}: {{{ast.unparse(value.value)}}}"
            if hand_made(value.value) and after_a_number(values[i - 2:i]):
                found.append(f"{said} (a plural made by hand)")
            noun = noun_after(values[i + 1:])
            before = values[i - 1]
            if noun in NOUNS and a_number(value) and not (
                    isinstance(before, ast.Constant) and not_a_count(before.value, noun)):
                found.append(f"{said} {noun}")
    return found


def test_no_number_is_put_before_a_plural_noun_by_hand():
    """Regression: `gallery a-puzzle-a-day` printed "(1 pages, 57 pictures)"; 324 f-strings
    under runners/ and models/ could say "1 classes", "1 cores", "1 moves" (found on main)."""
    found = [line for path in modules()
             for line in bare_counts(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, ("say these with models/words.py (plural(n, 'noun'), counted(n, "
                       "'phrase')):\n" + "\n".join(found))


# the play pages' scripts and the workshop's (templates/words.js: plural, served as /words.js)
PAGES = (ROOT / "runners" / "pictures" / "templates", ROOT / "runners" / "workshop" / "static")
PAGE_WORDS = {"data.order.length": "a 3D box holds more than one piece (solid.js has no common.js)"}


def test_no_page_puts_a_number_before_a_plural_noun_by_hand():
    """The play pages say it as the library does: "solved in 1 moves", "not solved yet: 1
    pieces to place" were written by the pages' scripts (common.js's plural now)."""
    by_hand = re.compile(r"(?:\$\{([^{}]+)\}|\+ ?[\"'`]) (" + "|".join(NOUNS) + r")\b")
    found = [f"{path.name}:{i}: {hit[0]}"
             for folder in PAGES for path in sorted(folder.glob("*.js"))
             for i, line in enumerate(path.read_text().splitlines(), 1)
             for hit in by_hand.finditer(line) if hit[1] not in PAGE_WORDS]
    assert not found, "say these with plural(n, 'noun') (words.js):\n" + "\n".join(found)


def test_the_sweep_finds_numbers_and_leaves_words_floats_and_constants():
    source = ('f"{n} pages {x:.1f} nodes {MAX} cells {puzzle.kind} puzzles {n!r} moves "\n'
              'f"{a} x {b} cells, {a}+{b} colours, move {t} moves nothing, box {b} cells"\n'
              'f"{len(cards):,} cards, {plural(n, \'class\')} {n} seconds"\n'
              'f"{n} {\'rotations\' if r else \'symmetries\'}, {n} class{\'es\' * (n != 1)}"\n'
              'f"piece{\'s\' if len(lost) > 1 else \'\'} {names}"\n')
    found = bare_counts(source, "probe.py")
    assert found == ["probe.py:1: {n} pages", "probe.py:2: {b} cells",
                     "probe.py:3: {len(cards)} cards", "probe.py:4: {n} rotations",
                     "probe.py:4: {'es' * (n != 1)} (a plural made by hand)"]


NUMBERS = st.one_of(st.integers(0, 10), st.integers(0, 10**30))


@given(NUMBERS, st.sampled_from(NOUNS))
def test_plural_never_says_one_with_a_plural_noun(n, nouns):
    word = singular(nouns)
    said = plural(n, word)
    assert said == (f"1 {word}" if n == 1 else f"{n:,} {nouns}")


@given(NUMBERS, st.sampled_from(NOUNS), st.sampled_from(["", " of the board", " (labelled)"]))
def test_counted_never_says_one_with_a_plural_noun(n, nouns, rest):
    said = counted(n, nouns + rest)
    assert said == (f"1 {singular(nouns)}{rest}" if n == 1 else f"{n:,} {nouns}{rest}")


@pytest.mark.parametrize("nouns, noun", [
    ("clauses", "clause"), ("classes", "class"), ("copies", "copy"), ("symmetries", "symmetry"),
    ("boxes", "box"), ("matches", "match"), ("processes", "process"), ("sizes", "size"),
    ("series", "series"), ("keys", "key"),
])
def test_a_plural_noun_said_as_one(nouns, noun):
    """Regression: 'clauses' was said as '1 claus' (its 'es' cut after an s), 'copies' as
    '2 copys'."""
    assert singular(nouns) == noun and plural(2, noun) == f"2 {nouns}"
    assert plural(1, noun) == f"1 {noun}" and counted(1, nouns) == f"1 {noun}"


def test_a_gallery_of_one_page_says_one_page(tmp_path, capsys):
    """Regression: `puzzlesat gallery a-puzzle-a-day -o x.html` printed "(1 pages, 57
    pictures)" and "57 classes under the board's 1 symmetries"."""
    assert main(["gallery", "a-puzzle-a-day", "-o", str(tmp_path / "x.html")]) == 0
    said = capsys.readouterr().out
    assert "(1 page, 57 pictures)" in said and "the board's 1 symmetry." in said, said


def test_seconds_keep_the_places_their_size_needs():
    """Regression: `checkpoint --workers` printed whole seconds, so the one-sided 5x18 split
    for 64 workers read "0" (0.44 s)."""
    assert [in_seconds(x) for x in (0.442, 1.571, 25.137, 2651.4, 43726.0)] == [
        "0.44", "1.57", "25.1", "2,651", "43,726"]


@given(st.floats(0, 1e7, allow_nan=False))
def test_seconds_in_words_read_back_within_their_places(value):
    said = in_seconds(value)
    assert abs(float(said.replace(",", "")) - value) <= 0.5 + 1e-9
    assert said.replace(",", "").strip("0.") != "" or value < 0.005
