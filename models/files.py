"""Reading puzzle files: TOML documents whose errors name the file, line and field.

Every puzzle file has a top-level `kind` naming its family; the family's reader is found by the
one declaration of families (`kinds.KINDS`): models/STEM/reader.py, whose `read(doc)` reads the
TOML document. Files in other formats are recognised by the `sniff` of a
reader's `FOREIGN_FORMATS` and read by its own function.
"""

from __future__ import annotations

import functools
import re
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import kinds as kinds_
from .errors import InputError
from .words import plural

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


# A size, count or row written with more digits than this names nothing a puzzle could hold
# (and past 4,300 digits Python's int() refuses the text).
MAX_DIGITS = 18
# Values nested deeper than this are refused before Python's parser recurses past its limit;
# puzzle files nest two deep.
MAX_NESTING = 64


def whole_number(text: str) -> int:
    """A whole number written with the digits 0-9; ValueError saying why otherwise: not a sign,
    not a Unicode digit ('²' int() refuses, '٣' it reads as 3), not more than MAX_DIGITS."""
    if not (text.isascii() and text.isdigit()):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise ValueError(f"{shown!r} is not a whole number written with the digits 0-9")
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise ValueError(f"a whole number of {plural(len(text), 'digit')}: more than any puzzle "
                         f"holds (at most {MAX_DIGITS})")
    return int(text)


def shown_value(value: object, most: int = 60) -> str:
    """A value as an error message quotes it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


@dataclass
class TomlDoc:
    """A parsed TOML file that can say on which line a field stands."""

    path: str
    data: dict
    text: str

    def line_of(self, field: str) -> int | None:
        """The line where a dotted field ('pieces.A0') is defined, if it can be found."""
        return _key_lines(self.text).get(field)

    def value_line(self, field: str) -> int | None:
        """The line on which a string field's value starts: a multi-line string whose opening
        quotes end their line starts on the next one (TOML drops that newline)."""
        start = self.line_of(field)
        if start is None:
            return None
        lines = _text_lines(self.text)
        key_line = lines[start - 1] if start <= len(lines) else ""
        after = key_line.split("=", 1)[1].strip() if "=" in key_line else ""
        return start + 1 if after in ('"""', "'''") else start

    def error(self, field: str, message: str, offset: int = 0) -> InputError:
        """An error at a field; `offset` counts lines into a multi-line value."""
        line = self.line_of(field)
        while line is None and "." in field:  # fall back to the enclosing table
            field_parent = field.rsplit(".", 1)[0]
            line = self.line_of(field_parent)
            if line is None:
                field = field_parent
        return InputError(
            message, file=self.path, line=None if line is None else line + offset, field=field
        )

    def get(self, field: str, kind: type | tuple, default=None, required: bool = False):
        """A top-level or dotted field of the expected type."""
        value = self.data
        for part in field.split("."):
            if not isinstance(value, dict) or part not in value:
                if required:
                    raise InputError(
                        f"missing field {field!r}", file=self.path, line=None, field=field
                    )
                return default
            value = value[part]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds):
            names = (
                kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            )
            raise self.error(
                field, f"expected {names}, got {type(value).__name__} {shown_value(value)}"
            )
        return value

    def published(self, kinds: dict[str, type]) -> dict[str, object]:
        """The optional [published] table: figures others have published, each of its type;
        a count (an int) is 0 or more."""
        self.reject_unknown("published", set(kinds))
        found: dict[str, object] = {}
        for key in self.get("published", dict, {}):
            value = self.get(f"published.{key}", kinds[key])
            if kinds[key] is int and value < 0:
                raise self.error(f"published.{key}", f"must be 0 or more, not {value}")
            found[key] = value
        return found

    def reject_unknown(self, table: str, allowed: set[str]) -> None:
        """Name the first field of a table (or the top level, '') that the format does not have."""
        values = self.data if not table else self.get(table, dict, {})
        for key in values:
            if key not in allowed:
                field = f"{table}.{key}" if table else key
                raise self.error(
                    field, f"unknown field {key!r} (allowed: {', '.join(sorted(allowed))})"
                )


_TABLE = re.compile(r"^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)\s*=""")


@functools.lru_cache(maxsize=4)  # asked once per field: a file of 40,000 pieces stays linear
def _text_lines(text: str) -> list[str]:
    return text.splitlines()


@functools.lru_cache(maxsize=4)
def _key_lines(text: str) -> dict[str, int]:
    """Dotted key -> line number for keys and tables written one per line (as this format is)."""
    lines: dict[str, int] = {}
    table = ""
    in_multiline = False
    for number, line in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
                in_multiline = False
            continue
        match = _TABLE.match(line)
        if match:
            table = match.group(1).strip()
            lines.setdefault(table, number)
            continue
        match = _KEY.match(line)
        if match:
            key = match.group(1).strip("\"'")
            lines.setdefault(f"{table}.{key}" if table else key, number)
            rest = line[match.end() :]
            if rest.count('"""') % 2 == 1 or rest.count("'''") % 2 == 1:
                in_multiline = True
    return lines


def read_toml(path: str, text: str) -> TomlDoc:
    """Parse TOML text; a syntax error becomes an InputError at its line, as do what Python's
    parser cannot read: values nested past MAX_NESTING, integers past int()'s digit limit."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line = getattr(error, "lineno", None)
        if line is None:
            found = re.search(r"line (\d+)", message)
            line = int(found.group(1)) if found else None
        if line is None and "end of document" in message:  # unclosed to the end: the last line
            line = max(1, len(text.splitlines()))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise InputError(
            f"not valid TOML: {message}", file=path, line=line, field="syntax"
        ) from None
    except RecursionError:
        raise _too_deep(path, text) from None
    except ValueError:  # an integer past int()'s limit on digits
        line = _longest_number_line(text)
        raise InputError(
            "a number with more digits than Python reads (4,300); no puzzle needs one",
            file=path, line=line, field=(_field_at(text, line) if line else None) or "syntax",
        ) from None
    if _depth(data) > MAX_NESTING:
        raise _too_deep(path, text)
    return TomlDoc(path, data, text)


def _depth(value: object) -> int:
    """How deep lists and tables nest in parsed TOML (without recursion)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        value, depth = todo.pop()
        deepest = max(deepest, depth)
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            todo.extend((v, depth + 1) for v in value)
    return deepest


def _too_deep(path: str, text: str) -> InputError:
    line = _deepest_line(text)
    return InputError(
        f"values nested more than {MAX_NESTING} deep (a puzzle file nests two deep)",
        file=path, line=line, field=(_field_at(text, line) if line else None) or "syntax",
    )


def _deepest_line(text: str) -> int | None:
    """The line where values nest deepest: brackets and braces outside strings and comments
    (the first line past MAX_NESTING), or else the key with the most dots."""
    depth, deepest, found, line, quote = 0, 0, None, 1, ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line += 1
        elif quote:
            if ch == "\\" and quote.startswith('"'):
                i += 1
            elif text.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote) - 1
        elif ch == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, found = depth, line
                if depth > MAX_NESTING:
                    return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    keys = _key_lines(text)
    dotted = max(keys, key=lambda k: k.count("."), default=None)
    if dotted is not None and dotted.count(".") + 1 > deepest:
        return keys[dotted]
    return found


def _longest_number_line(text: str) -> int | None:
    found = max(re.finditer(r"\d+", text), key=lambda m: len(m.group()), default=None)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def _field_at(text: str, line: int) -> str | None:
    """The dotted key defined on a line, if one is."""
    for key, number in _key_lines(text).items():
        if number == line:
            return key
    return None


# ---------------------------------------------------------------- kinds, formats and the catalog

Reader = Callable[[TomlDoc], object]


@dataclass
class ForeignFormat:
    """A format read as it is, recognised by its content or extension."""

    name: str
    sniff: Callable[[str, str], bool]  # (path, text) -> whether this format applies
    read: Callable[[str, str], object]  # (path, text) -> puzzle
    # sniffed only by an exact header: asked before the formats that also claim near misses (to
    # name what is wrong in them), so that those never take a file of this format
    exact: bool = False


def _reader(kind: str):
    """The reader module of a kind's family (models/STEM/reader.py)."""
    return kinds_.reader(kind)


def kinds() -> list[str]:
    """The kinds of puzzle files, one per declared family."""
    return list(kinds_.KINDS)


def foreign_formats() -> list[ForeignFormat]:
    """Every format read as it is, from the readers that have one."""
    return [fmt for kind in kinds() for fmt in getattr(_reader(kind), "FOREIGN_FORMATS", ())]


def catalog_dir() -> Path:
    return Path(str(resources.files("puzzlesat.models") / "catalog"))


def catalog() -> dict[str, Path]:
    """Built-in puzzle names -> their files."""
    return {p.stem: p for p in sorted(catalog_dir().glob("*.toml"))}


OPEN = "open"  # the catalog's folder of open boards (Polyform Puzzler: 'solutions incomplete')


def open_boards() -> dict[str, Path]:
    """The open boards, names -> their files: those Polyform Puzzler lists with 'solutions
    incomplete' (no published count), loaded by name like the catalog's puzzles, listed apart
    (`puzzlesat list --open`) and estimated by `puzzlesat estimate --open`."""
    return {p.stem: p for p in sorted((catalog_dir() / OPEN).glob("*.toml"))}


BYTE_ORDER_MARK = "\ufeff"


def read_puzzle_text(path: str, text: str, toml: bool = False):
    """A puzzle from a file's text, by its kind (TOML) or a foreign format's reader.

    `toml`: the file is known to be TOML (a catalog file); a file named .toml is too. No
    foreign format claims such a file (tests/test_startup.py), so none is sniffed and no other
    family's reader is imported to read it."""
    text = text.removeprefix(BYTE_ORDER_MARK)  # written by some editors: accepted, never shown
    toml = toml or Path(path).suffix == ".toml"
    formats = [] if toml else foreign_formats()
    for fmt in sorted(formats, key=lambda fmt: not fmt.exact):  # exact headers first
        if fmt.sniff(path, text):
            return fmt.read(path, text)
    try:
        doc = read_toml(path, text)
    except InputError as error:
        if toml or not formats:
            raise
        others = " or ".join(fmt.name for fmt in formats)
        raise InputError(
            f"{error.message} (read as TOML: the file is not in the {others})",
            file=error.file, line=error.line, field=error.field,
        ) from None
    kind = doc.get("kind", str, required=False)
    if kind is None:
        raise InputError(
            f"missing field 'kind' (one of: {', '.join(sorted(kinds()))})",
            file=path,
            line=1,
            field="kind",
        )
    if kind not in kinds():
        raise doc.error(
            "kind", f"unknown kind {kind!r} (one of: {', '.join(sorted(kinds()))})"
        )
    return _reader(kind).read(doc)


MAX_FILE_BYTES = 64 * 2**20  # the largest benchmark files are far below a megabyte


def load(name_or_path: str):
    """A puzzle from the catalog by name, or from a user's file by path."""
    shown, text = file_text(name_or_path)
    return read_puzzle_text(shown, text, toml=name_or_path in catalog() | open_boards())


def file_text(name_or_path: str) -> tuple[str, str]:
    """The text of a catalog puzzle (by name) or of a user's file (by path), and the name to
    show for it in errors; refused in one line when it cannot be read as a puzzle file."""
    if not name_or_path.strip():
        raise InputError(
            "no puzzle given: a name from the catalog or a file", field="PUZZLE"
        )
    path = Path(name_or_path)
    known = catalog() | open_boards()
    shown = name_or_path if len(name_or_path) <= 200 else name_or_path[:200] + "..."
    try:
        mode = None if name_or_path in known else path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in it
        mode = None
    except OSError as error:  # a name too long, a loop of links, no permission
        raise InputError(f"cannot read: {error.strerror}", file=shown, field="PUZZLE") from None
    if name_or_path in known:
        path = known[name_or_path]
    elif mode is not None and stat.S_ISDIR(mode):
        raise InputError("is a directory, not a puzzle file", file=shown, field="PUZZLE")
    elif mode is not None and stat.S_ISREG(mode):
        pass
    elif mode is not None:
        raise InputError(
            "is not a regular file (a device, pipe or socket): give a puzzle file",
            file=shown, field="PUZZLE",
        )
    else:
        raise InputError(
            f"no puzzle named {name_or_path!r} in the catalog and no such file (the "
            "catalog's names: `puzzlesat list`, or puzzlesat.catalog() in Python)",
            field="PUZZLE",
        )
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(
                f"{plural(path.stat().st_size, 'byte')}: larger than any puzzle that could be "
                f"counted (at most {MAX_FILE_BYTES // 2**20} MB)", file=shown, field="PUZZLE",
            )
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", file=shown, field="PUZZLE") from None
    except UnicodeDecodeError as error:
        raise InputError(
            f"not UTF-8 text (byte {error.object[error.start]:#04x} at offset {error.start})",
            file=shown, field="PUZZLE",
        ) from None
    return shown, text

