"""How a number is said with the noun it counts: one helper, so that no line reads "1 classes"
(the library's messages, the command line, drawings and pages alike)."""

from __future__ import annotations

import re

_ES = ("s", "x", "z", "ch", "sh")


def plural(n: int, word: str) -> str:
    """The number and its noun, plural unless the number is 1: '1 class', '2,339 classes'."""
    if n == 1:
        return f"1 {word}"
    return f"{n:,} {word}{'es' if word.endswith(_ES) else 's'}"


def singular(word: str) -> str:
    """A plural noun as one ('classes' -> 'class', 'grids' -> 'grid'); other words unchanged."""
    if word.endswith("es") and word[:-2].endswith(_ES):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        return word[:-1]
    return word


_HEAD = re.compile(r"^([^(:;,]*?)\b([A-Za-z]+s)\b")  # the phrase's first plural noun


def counted(n: int, phrase: str) -> str:
    """The number and a phrase saying what it counts ('classes of solutions under ...'), its
    first noun singular where the number is 1: '1 class of solutions under ...'."""
    if n == 1:
        found = _HEAD.match(phrase)
        if found:
            phrase = found.group(1) + singular(found.group(2)) + phrase[found.end():]
    return f"{n:,} {phrase}"
