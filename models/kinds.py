"""The one declaration of the puzzle families: the `kind` of a puzzle file -> its stem.

Everything else about a family is found from the stem by convention: its reader here in
models/STEM/reader.py, and above, in the runners, its family object, command line and pictures
(`puzzlesat.registry.part`). Declared here, at the ground floor, so that reading a puzzle file
needs nothing from the runners. Adding a family adds a line here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import InputError

KINDS = {
    "packing": "packing",
    "edge-matching": "edge_matching",
    "mind-lock": "mind_lock",
    "sliding-block": "sliding",
}


def check_kind(kind: str, field: str = "kind") -> str:
    """The kind, if a family of that kind is declared; an InputError otherwise."""
    if kind not in KINDS:
        raise InputError(f"unknown kind {kind!r} (one of: {', '.join(KINDS)})", field=field)
    return kind


def reader(kind: str) -> ModuleType:
    """The reader module of a kind's family (models/STEM/reader.py), imported when first
    needed."""
    return importlib.import_module(f"{__package__}.{KINDS[check_kind(kind)]}.reader")
