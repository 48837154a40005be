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
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesat.models.edge_matching import EdgePuzzle, Tile
from puzzlesat.models.edge_matching.reader import to_e2
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import catalog, read_puzzle_text
from puzzlesat.models.mind_lock import parse_position

EXAMPLES = 250  # per format
SECONDS = 5.0  # the most one read may take, on a loaded machine
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


@st.composite
def mutated(draw, text: str) -> str:
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["insert", "delete", "replace", "line", "swap", "number"]))
        joined = "\n".join(lines)
        at = draw(st.integers(0, len(joined)))
        if edit == "insert":
            joined = joined[:at] + draw(st.sampled_from(TOKENS)) + joined[at:]
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
    start = time.perf_counter()
    try:
        read_puzzle_text(path, text)
    except InputError as error:
        message = str(error)
        assert "\n" not in message and message.strip(), repr(message)
        assert error.file == path, f"the error does not name the file: {message}"
        assert "Traceback" not in message
        assert not (not_toml and "TOML" in message), message
    assert time.perf_counter() - start < SECONDS, f"reading took over {SECONDS} s"


@pytest.mark.parametrize("format_name", list(SEEDS))
def test_the_seeds_are_read(format_name):
    path, text = SEEDS[format_name]
    read_puzzle_text(path, text)


def fuzz(format_name: str):
    path, text = SEEDS[format_name]

    @FUZZ
    @given(mutated(text))
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
