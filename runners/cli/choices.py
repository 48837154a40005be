"""The families' values the command line declares its flags with (choices, defaults shown in
help), without importing the families.

The parser declares every family's flags, so that a flag of another family is refused by name
("does not apply to packing puzzles"); importing each family for its choices made a packing
count load the edge-matching encoders, the sliding-block and Mind Lock families and their
tables (issue 39: a count imports only what its family and backend need). The values are kept
in choices.json beside this module, read from the families themselves by
`python -m puzzlesat.cli.choices`; tests/test_startup.py fails when choices.json differs from
what the families say.
"""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path

INDEX = Path(__file__).with_name("choices.json")

# kind -> name -> where the family keeps the value ("module:attribute.attribute")
SOURCES: dict[str, dict[str, str]] = {
    "edge-matching": {
        "cnf_models": "puzzlesat.models.edge_matching.encode:CNF_MODELS",
        "cpsat_variants": "puzzlesat.models.edge_matching.encode:CPSAT_VARIANTS",
        "default_cpsat_variant": "puzzlesat.models.edge_matching.encode:DEFAULT_CPSAT_VARIANT",
        "best_names": "puzzlesat.best:NAMES",
        "best_default": "puzzlesat.best:DEFAULT",
        "best_bench_puzzle": "puzzlesat.benchmarks.best:DEFAULT_PUZZLE",
        "best_bench_searches": "puzzlesat.benchmarks.best:DEFAULT_SEARCHES",
        "ladder_counted": "puzzlesat.benchmarks.ladder:COUNTED",
        "ladder_solved": "puzzlesat.benchmarks.ladder:SOLVED",
    },
    "sliding-block": {
        "metrics": "puzzlesat.models.sliding:METRICS",
        "default_sample": "puzzlesat.families.sliding:DEFAULT_SAMPLE",
        "default_seed": "puzzlesat.families.sliding:DEFAULT_SEED",
        "plan_distance": "puzzlesat.families.sliding:PLAN_DISTANCE",
    },
    "mind-lock": {
        "notation_help": "puzzlesat.models.mind_lock:NOTATION_HELP",
        "default_sample": "puzzlesat.families.mind_lock:DEFAULT_SAMPLE",
        "default_seed": "puzzlesat.families.mind_lock:DEFAULT_SEED",
        "planners": "puzzlesat.families.mind_lock:FAMILY.planners",
    },
}


@functools.cache
def _index() -> dict:
    return json.loads(INDEX.read_text(encoding="utf-8"))


def value(kind: str, name: str):
    """A family's value for the command line (a tuple where the family keeps a sequence)."""
    found = _index()[kind][name]
    return tuple(found) if isinstance(found, list) else found


def from_families() -> dict:
    """Every value of SOURCES as the families hold it now (sequences as lists, as in JSON)."""
    table: dict[str, dict] = {}
    for kind, names in SOURCES.items():
        for name, source in names.items():
            module, _, path = source.partition(":")
            found = importlib.import_module(module)
            for attribute in path.split("."):
                found = getattr(found, attribute)
            table.setdefault(kind, {})[name] = json.loads(json.dumps(found))
    return table


def write_index() -> bool:
    """Write choices.json again from the families; whether it changed."""
    from ..output import write_if_changed

    text = json.dumps(from_families(), indent=1, ensure_ascii=False) + "\n"
    return write_if_changed(INDEX, text, "the families' flag values")


if __name__ == "__main__":
    print(f"{'wrote' if write_index() else 'up to date:'} {INDEX}")
