"""Fuzzing the readers (hypothesis): random mutations of every file format.

Each example starts from a well-formed file (packing TOML, edge-matching TOML, the C# article's
card file, the Eternity II format, Mind Lock TOML) and applies a few random edits: characters
and tokens that readers trip on inserted, lines deleted, duplicated or swapped, numbers made
huge, negative or fractional. Reading must give a puzzle or an InputError whose message is one
line naming the file, within a time limit; never another exception. Mind Lock positions are
fuzzed through parse_position the same way.
"""

from __future__ import annotations

import re

import pytest
from _patience import cpu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesat.models.edge_matching import EdgePuzzle, Tile
from puzzlesat.models.edge_matching.reader import to_e2
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import catalog, read_puzzle_text
from puzzlesat.models.mind_lock import parse_position

EXAMPLES = 250  # per format
SECONDS = 5.0  # the most CPU seconds one read may take (cpu(): a busy machine does not stretch it)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # timed below with a generous limit instead: the machine is shared
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def seed(name: str) -> str:
    return catalog()[name].read_text(encoding="utf-8")


E2_SEED = to_e2(EdgePuzzle(  # a 2x2 board, frame colour 0
    "e2", 2, 2,
    tuple(
        Tile(tuple((c, "") for c in edges))  # type: ignore[arg-type]
        for edges in (("0", "0", "1", "2"), ("0", "2", "1", "0"), ("1", "2", "0", "0"),
                      ("1", "0", "0", "2"))
    ),
    "equal", ("0", ""),
))
ARTICLE_SEED = "Scramble cards\nwritten for the fuzzer\n\n" + "\n".join(
    f"{n} {' '.join(f'{h}-{c}' for h, c in zip(halves, colours))}"
    for n, (halves, colours) in enumerate(
        [(("HEAD", "TAIL", "TAIL", "HEAD"), ("RED", "BLUE", "GREEN", "RED"))] * 4
    )
) + "\n"
SEEDS = {
    "packing": ("iq-block-8.toml", seed("iq-block-8")),
    "edge-matching": ("frog.toml", seed("scramble-frog")),
    "levels": ("diamond.toml", seed("diamond-blocks")),
    "article": ("cards.in", ARTICLE_SEED),
    "article-sniffed": ("cards.txt", ARTICLE_SEED),
    "eternity-ii": ("board.txt", E2_SEED),
    "mind-lock": ("mind-lock.toml", seed("mind-lock")),
    "sliding-block": ("klotski.toml", seed("klotski")),
    "rush-hour": ("rush.toml", seed("rush-hour-51")),
    "sliding-l-pieces": ("l.toml", seed("klotski-l-pieces")),
    "knuth-sliding": ("silly.txt", "5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n"
                                   "3 = 1\n1xx200000000033\n000xx00033001002\n"),
}

# what readers trip on: quotes, table headers, separators, numbers of every kind, odd characters
TOKENS = [
    '"', '"""', "'", "=", "[", "]", "[[", "{", "}", ",", "#", "\n", "\r\n", "\t", " ", "  ",
    ".", "X", "x", "-", "*", "/", "\\", "\x00", "\ufeff", "\u00e9", "\U0001f600",
    "0", "1", "-1", "-4", "07", "1.5", "1e400", "nan", "inf", "-0", "+3",
    "99999999999999999999", "count=", "count=1000000000", "name=", "mark=", "name=0",
    "true", "false", "kind", 'kind = "packing"', 'kind = "edge-matching"', 'kind = "mind-lock"',
    "rows = ", "cols = ", "rows = 0", "rows = 100000", "flip = ", "board = ", "tiles = ",
    "[pieces]", "[published]", "solutions = -4", "HEAD-", "TAIL-", "HEAD-RED", "H-", "T-",
    "P", "G", "Y", "0x", "0xfffffffff", "..PP", "PPPP/",
]
# and sliding-block files besides (kept apart: the list above fixes the other formats' examples)
SLIDING_TOKENS = [
    'kind = "sliding-block"', "[types]", "[goal]", "[axis]", 'axis = "long-side"',
    'metric = "path"', "row = 99", "column = -1", "#", "AAAAAAAA", " x ", "1 = 111/01",
]


@st.composite
def mutated(draw, text: str, tokens: list[str] = TOKENS) -> str:
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["insert", "delete", "replace", "line", "swap", "number"]))
        joined = "\n".join(lines)
        at = draw(st.integers(0, len(joined)))
        if edit == "insert":
            joined = joined[:at] + draw(st.sampled_from(tokens)) + joined[at:]
        elif edit == "delete":
            joined = joined[:at] + joined[at + draw(st.integers(1, 40)) :]
        elif edit == "replace":
            joined = joined[:at] + draw(st.text(max_size=3)) + joined[at + 1 :]
        lines = joined.split("\n")
        if edit == "line" and lines:
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k]) if draw(st.booleans()) else lines.pop(k)
        elif edit == "swap" and len(lines) > 1:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif edit == "number":  # a number in the file made huge, negative, fractional or zero
            digits = [k for k, ch in enumerate(joined) if ch.isdigit()]
            if digits:
                k = draw(st.sampled_from(digits))
                new = draw(st.sampled_from(["0", "-1", "1.5", "10000000", "99999999999"]))
                joined = joined[:k] + new + joined[k + 1 :]
                lines = joined.split("\n")
    return "\n".join(lines)


def read_cleanly(path: str, text: str, not_toml: bool = False) -> None:
    """A puzzle or a one-line InputError naming the file, in time; anything else fails.

    not_toml: the text is in a foreign format, so its errors must not be TOML errors.
    """
    start = cpu()
    try:
        read_puzzle_text(path, text)
    except InputError as error:
        message = str(error)
        assert "\n" not in message and message.strip(), repr(message)
        assert error.file == path, f"the error does not name the file: {message}"
        assert "Traceback" not in message
        assert not (not_toml and "TOML" in message), message
    assert cpu() - start < SECONDS, f"reading took over {SECONDS} s"


@pytest.mark.parametrize("format_name", list(SEEDS))
def test_the_seeds_are_read(format_name):
    path, text = SEEDS[format_name]
    read_puzzle_text(path, text)


def fuzz(format_name: str):
    path, text = SEEDS[format_name]

    sliding = format_name in ("sliding-block", "rush-hour", "sliding-l-pieces", "knuth-sliding")

    @FUZZ
    @given(mutated(text, TOKENS + SLIDING_TOKENS if sliding else TOKENS))
    def run(mutant: str) -> None:
        # an Eternity II file with numbers and nothing of TOML in it is reported as Eternity II;
        # a card file is read by its extension
        looks_e2 = re.fullmatch(r"[^=\[\]{}\"']*\d[^=\[\]{}\"']*", mutant)
        not_toml = (format_name == "eternity-ii" and bool(looks_e2)) or format_name == "article"
        read_cleanly(path, mutant, not_toml)

    return run


@pytest.mark.parametrize("format_name", list(SEEDS))
def test_mutated_files_are_read_or_refused_in_one_line(format_name):
    fuzz(format_name)()


@FUZZ
@given(st.sampled_from(list(SEEDS)), st.text(max_size=200))
def test_any_text_in_any_format_is_read_or_refused(format_name, text):
    read_cleanly(SEEDS[format_name][0], text)


# ---------------------------------------------------------------- Mind Lock positions

POSITION_TOKENS = [".", "P", "G", "Y", "p", "g", "y", "/", "0x", "0X", " ", "x", "9", "f", "-"]


@FUZZ
@given(
    st.one_of(
        st.text(max_size=30),
        st.lists(st.sampled_from(POSITION_TOKENS), max_size=20).map("".join),
        mutated(".PPP/PYYY/GGGG"),
        mutated("0x76bd98"),
    )
)
def test_mind_lock_positions_are_read_or_refused_in_one_line(text):
    try:
        position = parse_position(text, "start")
    except InputError as error:
        assert "\n" not in str(error) and error.field == "start"
    else:
        assert len(position) == 12 and sorted(position).count(0) == 1


# ---------------------------------------------------------------- numeric fields and nesting

FROG_TILES = "\n".join(seed("scramble-frog").split('tiles = """\n', 1)[1].split('"""')[0]
                       .strip().splitlines()[1:])
# Each reader's numeric fields, `{v}` where the value goes: a file of each format around it.
EDGE_TOML = ('kind = "edge-matching"\nrows = {rows}\ncols = {cols}\nrule = "complement"\n'
             'halves = ["H", "T"]\ntiles = """\n' + FROG_TILES.replace("name=8", "name=8 {count}")
             + '\n"""\nfixed = """\n{fixed}\n"""\n[published]\nsolutions = {solutions}\n')
NUMERIC_FIELDS = {
    "edge rows": ("e.toml", EDGE_TOML, dict(rows="{v}", cols="3", count="", fixed="",
                                            solutions="1")),
    "edge cols": ("e.toml", EDGE_TOML, dict(rows="3", cols="{v}", count="", fixed="",
                                            solutions="1")),
    "edge tile count": ("e.toml", EDGE_TOML, dict(rows="3", cols="3", count="count={v}",
                                                  fixed="", solutions="1")),
    "edge fixed row": ("e.toml", EDGE_TOML, dict(rows="3", cols="3", count="",
                                                 fixed="{v} 1 0 0", solutions="1")),
    "edge fixed column": ("e.toml", EDGE_TOML, dict(rows="3", cols="3", count="",
                                                    fixed="1 {v} 0 0", solutions="1")),
    "edge fixed rotation": ("e.toml", EDGE_TOML, dict(rows="3", cols="3", count="",
                                                      fixed="1 1 0 9{v}", solutions="1")),
    "edge published": ("e.toml", EDGE_TOML, dict(rows="3", cols="3", count="", fixed="",
                                                 solutions="{v}")),
    "packing published": ("p.toml", seed("iq-block-8").replace("solutions = 48",
                                                                 "solutions = {v}"), {}),
    "mind lock published": ("m.toml", seed("mind-lock").replace("positions = 92400",
                                                                  "positions = {v}"), {}),
    "eternity-ii hints": ("b.txt", "{v}" + E2_SEED[1:], {}),
    "eternity-ii colour": ("b.txt", E2_SEED.replace("1 2", "1 {v}", 1), {}),
}


def numeric_file(name: str, value: str) -> tuple[str, str]:
    path, template, fields = NUMERIC_FIELDS[name]
    text = template.format(**fields) if fields else template
    return path, text.replace("{v}", value)


NUMBERS = st.one_of(
    st.integers(4000, 6000).map(lambda n: "7" * n),  # past int()'s 4,300-digit limit
    st.integers(19, 200).map(lambda n: "9" * n),  # more digits than any size or count
    st.integers(-10**30, 10**30).map(lambda n: f"{n:+d}"),  # signed
    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=6),  # Unicode digits
    st.text(min_size=1, max_size=12).filter(lambda s: "\n" not in s and "{" not in s),
    st.sampled_from(["1.5", "1e400", "nan", "-0", "0", "007", "0x10", "1_000", "inf"]),
)


def read_located(path: str, text: str) -> None:
    """A puzzle, or a one-line InputError naming the file, the line and the field."""
    start = cpu()
    try:
        read_puzzle_text(path, text)
    except InputError as error:
        message = str(error)
        assert "\n" not in message, repr(message)
        assert error.file == path and error.line is not None and error.field, message
    assert cpu() - start < SECONDS, f"reading took over {SECONDS} s"


@pytest.mark.parametrize("field", list(NUMERIC_FIELDS))
def test_numeric_fields_are_read_or_refused_with_file_line_and_field(field):
    good = {"edge rows": "3", "edge cols": "3", "edge fixed rotation": "0",
            "eternity-ii hints": "0", "eternity-ii colour": "2"}.get(field, "1")
    read_puzzle_text(*numeric_file(field, good))  # the file around the field is well formed

    @FUZZ
    @given(NUMBERS)
    def run(value: str) -> None:
        read_located(*numeric_file(field, value))

    run()


NESTING_SEEDS = ["packing", "edge-matching", "mind-lock"]


@FUZZ
@given(st.sampled_from(NESTING_SEEDS), st.integers(1, 20_000), st.sampled_from(["[", "{a = "]),
       st.sampled_from(["title", "published.note", "colours.R", "solved", "zzz"]))
def test_nesting_of_any_depth_is_read_or_refused_with_its_line(format_name, depth, opener,
                                                                 key):
    path, text = SEEDS[format_name]
    closer = "]" if opener == "[" else "}"
    value = opener * depth + "1" + closer * depth
    table, _, name = key.rpartition(".")
    line = f"{name} = {value}"
    if table:
        text = text + f"\n[{table}x]\n{line}\n"
    else:
        text = line + "\n" + text
    read_located(path, text)
