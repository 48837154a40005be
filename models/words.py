"""How a number is said with the noun it counts: one helper, so that no line reads "1 classes"
(the library's messages, the command line, drawings and pages alike)."""

from __future__ import annotations

import math
import re

_ES = ("s", "x", "z", "ch", "sh")
_ES_CUT = ("ss", "x", "ch", "sh")  # 'classes' -> 'class', but 'clauses' -> 'clause'
_VOWELS = "aeiou"
_SAME = ("series", "species")  # the same word for one and for many


def plural(n: int, word: str) -> str:
    """The number and its noun, plural unless the number is 1: '1 class', '2,339 classes'."""
    if n == 1 or word in _SAME:
        return f"{n:,} {word}"
    if word.endswith("y") and word[-2:-1] not in _VOWELS:
        return f"{n:,} {word[:-1]}ies"  # 'copy' -> '2 copies'
    return f"{n:,} {word}{'es' if word.endswith(_ES) else 's'}"


def singular(word: str) -> str:
    """A plural noun as one ('classes' -> 'class', 'grids' -> 'grid', 'copies' -> 'copy');
    other words unchanged."""
    if word in _SAME:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(_ES_CUT):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        return word[:-1]
    return word


def duration(seconds: float) -> str:
    """A span of time as a line says it: '5 s', '3 min 27 s', '2 h 10 min'."""
    minutes, whole = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {whole} s" if minutes else f"{whole} s"


def in_seconds(value: float) -> str:
    """A number of seconds to the places its size needs ('2,651', '16.1', '0.36'): whole
    seconds alone read a small count's figures as 0."""
    places = 0 if value >= 100 else 1 if value >= 10 else 2
    return f"{value:,.{places}f}"


_HEAD = re.compile(r"^([^(:;,]*?)\b([A-Za-z]+s)\b")  # the phrase's first plural noun


def counted(n: int, phrase: str) -> str:
    """The number and a phrase saying what it counts ('classes of solutions under ...'), its
    first noun singular where the number is 1: '1 class of solutions under ...'."""
    if n == 1:
        found = _HEAD.match(phrase)
        if found:
            phrase = found.group(1) + singular(found.group(2)) + phrase[found.end():]
    return f"{number(n)} {phrase}"


PRINTED = 60  # digits printed in a line; a longer number is said by its size
WRITTEN = 4000  # digits written in JSON (Python refuses to write 4,300 or more)


def digits(n: int) -> int:
    """How many digits a whole number has (without writing it out)."""
    return 1 if n == 0 else math.floor(math.log10(abs(n))) + 1


def number(n: int) -> str:
    """A whole number as printed: exact, with thousands separators, up to PRINTED digits;
    beyond, its leading digits and its size ('about 3.2e+4474, a number of 4,475 digits')."""
    if digits(n) <= PRINTED:
        return f"{n:,}"
    exponent = math.log10(abs(n))
    lead = 10 ** (exponent - math.floor(exponent))
    return (f"about {'-' if n < 0 else ''}{lead:.2f}e+{math.floor(exponent)}, a number of "
            f"{plural(digits(n), 'digit')}")


def written(n: int) -> int | None:
    """The number where it can be written out (JSON, a table), None where it is too long."""
    return n if digits(n) <= WRITTEN else None
