"""Readers say what is wrong where it is wrong; pictures are read exactly as drawn.

Regression tests for bad or unusual inputs that were silently shifted, misreported as TOML
errors, accepted although wrong, or ended in a traceback.
"""

from __future__ import annotations

import os

import pytest

from puzzlesat.models.edge_matching.reader import ARTICLE_FORMAT, E2_FORMAT, read_e2
from puzzlesat.models.errors import InputError
from puzzlesat.models.files import catalog, load, read_puzzle_text

PIECES = '[pieces]\nA = """\nXXX\n"""\nB = "XXX"\n'


def packing(board: str, pieces: str = PIECES, extra: str = "") -> str:
    return f'kind = "packing"\n{extra}board = """\n{board}\n"""\n{pieces}'


def refused(path: str, text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        read_puzzle_text(path, text)
    return caught.value


# ---------------------------------------------------------------- pictures


def test_leading_blanks_are_never_dropped():
    # "  XX" over "XXXX" was read as "XX.." over "XXXX"
    error = refused("p.toml", packing("  XX\nXXXX"))
    assert (error.line, error.field) == (4, "board")
    assert "starts with 0 blank(s) but row 0 with 2" in error.message


def test_leading_blanks_in_a_piece_are_refused_at_their_line():
    pieces = '[pieces]\nA = """\nXX\n X\n"""\nB = "XXXX"\n'
    error = refused("p.toml", packing("XXX\nXXX", pieces))
    assert (error.line, error.field) == (9, "pieces.A")


def test_a_picture_indented_all_alike_is_read_as_drawn():
    indented = read_puzzle_text("p.toml", packing("  ..XX\n  XXXX"))
    plain = read_puzzle_text("p.toml", packing("..XX\nXXXX"))
    assert indented.board == plain.board == ("..XX", "XXXX")


@pytest.mark.parametrize(
    "board, line, words",
    [
        ("XXX\n\nXXX", 4, "blank line inside the picture"),
        ("XX X\nXX", 3, "a blank is not a hole"),
        ("XXX\n\tXXX", 4, "leading blanks would shift"),
        ("XXO\nXXX", 3, "unexpected character 'O'"),
    ],
)
def test_a_bad_picture_is_refused_at_its_line(board, line, words):
    error = refused("p.toml", packing(board))
    assert error.line == line and words in error.message


def test_ragged_rows_end_in_holes():
    short = read_puzzle_text("p.toml", packing("XXXX\nXX"))
    assert short.cells == read_puzzle_text("p.toml", packing("XXXX\nXX..")).cells
    assert len(short.cells) == 6


def test_trailing_blanks_and_a_picture_on_the_key_line():
    text = 'kind = "packing"\nboard = """XXX   \nXXX"""\n' + PIECES
    assert read_puzzle_text("p.toml", text).board == ("XXX", "XXX")


# ---------------------------------------------------------------- the Eternity II format

E2 = "0\n0 0 1 2\n0 2 1 0\n1 2 0 0\n1 0 0 2\n"  # a 2x2 board: four corners


def test_a_well_formed_eternity_ii_file_is_read():
    puzzle = read_puzzle_text("b.txt", E2)
    assert (puzzle.rows, puzzle.cols, puzzle.file_format) == (2, 2, E2_FORMAT)


@pytest.mark.parametrize(
    "text, line, words",
    [
        (E2.replace("0 2 1 0", "0 2 B 0"), 3, "colour 'B' is not a whole number"),
        (E2.replace("0 2 1 0", "0 2 1.5 0"), 3, "colour '1.5' is not a whole number"),
        (E2.replace("0 2 1 0", "0 2 -1 0"), 3, "negative colour -1"),
        (E2.replace("1 2 0 0", "1 2 0 0 # corner"), 4, "no comments"),
        ("# pieces\n" + E2, 1, "no comments"),
        ("1.5" + E2[1:], 1, "hint count, a whole number"),
        ("-1" + E2[1:], 1, "hint count, a whole number"),
        ("x" + E2[1:], 1, "hint count, a whole number"),
        ("9" + E2[1:], 1, "bad hint count 9"),
        ("2" + E2[1:], 1, "hints are not supported"),
        (E2.replace("0 2 1 0", "0 2 1"), 3, "3 edges"),
        ("0\n", 1, "no pieces"),
        (E2.replace("0 0 1 2", "0 0 0 2"), 5, "do not make a rectangular board"),
    ],
)
def test_eternity_ii_errors_name_the_format_and_the_line(text, line, words):
    error = refused("b.txt", text)
    assert "not valid TOML" not in str(error)
    assert words in error.message
    if line is not None:
        assert error.line == line
        assert error.message.startswith(E2_FORMAT) or error.field in ("piece", "frame", "hints")


def test_eternity_ii_colours_are_numbers():
    same = read_puzzle_text("b.txt", E2.replace("0 0 1 2", "00 0 01 2"))
    assert same.tiles == read_puzzle_text("b.txt", E2).tiles


def test_read_e2_names_a_byte_order_mark_when_called_directly():
    with pytest.raises(InputError) as caught:
        read_e2("b.txt", "\ufeff" + E2)
    assert caught.value.line == 1 and "\\ufeff" in caught.value.message


# ---------------------------------------------------------------- byte-order marks, files

ARTICLE = "# cards\n# header\n#\n" + "\n".join(
    f"{name} HEAD-RED TAIL-RED HEAD-BLUE TAIL-BLUE" for name in "ABCD"
) + "\n"


@pytest.mark.parametrize(
    "path, text",
    [("b.txt", E2), ("c.in", ARTICLE), ("p.toml", packing("XXX\nXXX"))],
)
def test_a_byte_order_mark_is_accepted(path, text):
    assert read_puzzle_text(path, "\ufeff" + text) == read_puzzle_text(path, text)


def test_the_article_format_refuses_two_cards_with_one_name():
    text = ARTICLE.replace("C HEAD", "A HEAD")
    error = refused("c.in", text)
    assert (error.line, error.field) == (6, "card")
    assert "two cards are named 'A' (the first on line 4)" in error.message
    assert read_puzzle_text("c.in", ARTICLE).file_format == ARTICLE_FORMAT


EDGE = (
    'kind = "edge-matching"\nrows = 1\ncols = 2\ntiles = """\nR G B Y\nB Y R G\n"""\n'
)


def test_negative_colours_are_refused_in_toml():
    error = refused("e.toml", EDGE.replace("R G B Y", "-1 G B Y"))
    assert (error.line, error.field) == (5, "tiles") and "negative" in error.message


@pytest.mark.parametrize(
    "path, text, field",
    [
        ("p.toml", packing("XXX\nXXX", extra="") + "[published]\nsolutions = -4\n",
         "published.solutions"),
        ("p.toml", packing("XXX\nXXX") + "[published]\nclasses = -1\n", "published.classes"),
        ("e.toml", EDGE + "[published]\nsolutions = -4\n", "published.solutions"),
        ("m.toml", 'kind = "mind-lock"\nsolved = [".PPP/PYYY/GGGG"]\n[published]\n'
                   "positions = -2\n", "published.positions"),
    ],
)
def test_published_counts_are_not_negative(path, text, field):
    error = refused(path, text)
    assert error.field == field and "must be 0 or more" in error.message
    assert error.line == text.splitlines().index(next(
        line for line in text.splitlines() if line.startswith(field.split(".")[1])
    )) + 1


def test_a_directory_is_a_directory(tmp_path):
    with pytest.raises(InputError) as caught:
        load(str(tmp_path))
    assert "is a directory" in str(caught.value)


def test_a_pipe_is_not_read_as_a_puzzle(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError) as caught:
        load(str(fifo))  # would wait for a writer forever
    assert "not a regular file" in str(caught.value)


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "puzzle.toml"
    path.write_bytes(b"\xff\xfe\x00kind")
    with pytest.raises(InputError) as caught:
        load(str(path))
    assert "not UTF-8 text (byte 0xff at offset 0)" in str(caught.value)


@pytest.mark.parametrize(
    "name, words",
    [("", "no puzzle given"), ("  ", "no puzzle given"), ("a" * 5000, "File name too long"),
     ("no\x00where", "no puzzle named"), ("missing.toml", "no puzzle named")],
)
def test_odd_puzzle_names_are_one_line_errors(name, words):
    with pytest.raises(InputError) as caught:
        load(name)
    assert words in str(caught.value) and len(str(caught.value)) < 400


def test_a_file_too_large_for_any_puzzle_is_refused_unread(tmp_path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as out:
        out.truncate(65 * 2**20)  # sparse: takes no room on the disk
    with pytest.raises(InputError, match="larger than any puzzle"):
        load(str(path))


def test_a_text_file_that_is_no_puzzle_is_reported_as_toml_and_not_eternity_ii():
    error = refused("notes.txt", "root:x:0:0:root:/root:/bin/bash\nuser 1000 1000\n")
    assert "not valid TOML" in error.message and "is not in the Eternity II" in error.message


def test_a_byte_order_mark_in_a_file_is_accepted(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("\ufeff" + E2, encoding="utf-8")
    assert load(str(path)).rows == 2


@pytest.mark.parametrize("name", ["iq-block-8", "scramble-frog", "diamond-blocks", "mind-lock"])
def test_windows_line_endings_read_the_same(name):
    text = catalog()[name].read_text(encoding="utf-8")
    path = f"{name}.toml"
    assert read_puzzle_text(path, text.replace("\n", "\r\n")) == read_puzzle_text(path, text)
