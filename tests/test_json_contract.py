"""The JSON contract (runners/cli/json-contract.toml): every `--json` output of the command line
holds the keys the contract promises, with their types; every command with --json is in it; a
renamed key keeps its old name beside the new one for one release.

Issue 42: `hardest_distance` of `mind-lock table --json` was renamed `gods_number` and broke a
consumer without a word.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

import pytest

from puzzlesat.cli import build_parser, main

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same reader, installed with the project (pyproject.toml)
    import tomli as tomllib

CONTRACT_FILE = Path(__file__).resolve().parent.parent / "runners" / "cli" / "json-contract.toml"
CONTRACT = tomllib.loads(CONTRACT_FILE.read_text(encoding="utf-8"))
TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def promised(name: str) -> dict[str, str]:
    """An output's promised keys and their types, those of the output it is `like` included."""
    section = CONTRACT[name]
    keys = promised(section["like"]) if "like" in section else {}
    return {**keys, **{key: entry["type"] for key, entry in section.get("keys", {}).items()}}


def broken(record: dict, keys: dict[str, str], deprecated: dict[str, str]) -> list[str]:
    """What in one JSON object breaks the contract, in words (nothing: it keeps it)."""
    found = []
    for key, kind in keys.items():
        if key not in record:
            found.append(f"{key}: missing")
        elif not any(TYPES[t](record[key]) for t in kind.split(" or ")):
            found.append(f"{key}: {type(record[key]).__name__}, not {kind}")
    for old, new in deprecated.items():
        if old not in record or record.get(old) != record.get(new):
            found.append(f"{old}: the old name of {new} is gone or differs from it")
    return found


def objects(text: str, shape: str) -> list[dict]:
    """The JSON objects an output printed, by its shape."""
    if shape == "lines":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    made = json.loads(text)
    return made if shape == "array" else [made]


def run(command: str, capsys) -> str:
    capsys.readouterr()
    assert main(shlex.split(command)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if CONTRACT[n].get("slow") else n
             for n in CONTRACT])
def test_every_json_output_keeps_its_promised_keys_and_types(name, tmp_path, monkeypatch,
                                                             capsys):
    section = CONTRACT[name]
    monkeypatch.chdir(tmp_path)  # files the examples write (checkpoints, booklets) land here
    for command in section.get("before", []):
        run(command, capsys)
    out = run(section["example"], capsys)
    made = objects(out, section["shape"])
    assert made, f"{section['example']}: no JSON printed"
    for record in made:
        assert broken(record, promised(name), section.get("deprecated", {})) == [], out


def json_commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> set[str]:
    """Every command (its words after `puzzlesat`) that takes --json."""
    found = set()
    if "--json" in parser._option_string_actions:  # noqa: SLF001 (argparse has no public test)
        found.add(" ".join(words))
    for action in parser._actions:  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in action.choices.items():
                found |= json_commands(sub, (*words, name))
    return found


def test_every_command_with_json_is_in_the_contract():
    documented = {section["command"] for section in CONTRACT.values()}
    assert json_commands(build_parser()) - documented == set()


def test_the_contract_names_known_types_and_runs_its_examples_with_json():
    for name, section in CONTRACT.items():
        assert section["shape"] in ("object", "lines", "array"), name
        assert section["example"].startswith(section["command"] + " "), name
        assert "--json" in shlex.split(section["example"]), name
        for key, kind in promised(name).items():
            assert set(kind.split(" or ")) <= set(TYPES), (name, key, kind)


def test_the_check_fails_on_a_key_gone_or_of_another_type():
    """The contract test can fail: a key missing, a type changed, an old name dropped."""
    keys = {"gods_number": "integer", "hardest": "array"}
    kept = {"gods_number": 14, "hardest_distance": 14, "hardest": []}
    assert broken(kept, keys, {"hardest_distance": "gods_number"}) == []
    assert broken({"hardest": []}, keys, {}) == ["gods_number: missing"]
    assert broken({"gods_number": "14", "hardest": []}, keys, {}) == [
        "gods_number: str, not integer"]
    assert broken({"gods_number": True, "hardest": []}, keys, {}) == [
        "gods_number: bool, not integer"]
    assert broken({"gods_number": 14, "hardest": []}, keys, {"hardest_distance": "gods_number"})


def test_mind_lock_table_keeps_its_old_key_beside_the_new(capsys):
    """Regression (issue 42): `mind-lock table --json` renamed `hardest_distance` to
    `gods_number` and a consumer reading the old key broke; both are there for one release."""
    figures = json.loads(run("mind-lock table --json", capsys))
    assert figures["hardest_distance"] == figures["gods_number"] == 22
    assert "hardest_distance" in CONTRACT["mind-lock table"]["deprecated"]
