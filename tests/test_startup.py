"""Start-up near Python's (issue 39): `puzzlesat list` answers from the catalog's summaries
without importing the API, a family, NumPy or a JIT, and those summaries are the puzzles' own."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zlib

import pytest

from puzzlesat.cli import listing


def imported(*argv: str) -> set[str]:
    """The modules `python -X importtime -m puzzlesat ARGV` imports, and its exit code 0."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "puzzlesat", *argv],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in run.stderr.splitlines()
            if line.startswith("import time:")}


@pytest.mark.parametrize("argv", [["list"], ["list", "--open"]])
def test_list_imports_neither_the_api_nor_numpy_nor_numba(argv):
    modules = imported(*argv)
    assert "puzzlesat.cli.listing" in modules  # the check sees the program's imports
    for heavy in ("numba", "numpy", "puzzlesat.api", "puzzlesat.registry", "ortools", "pysat"):
        assert heavy not in modules, heavy


def test_importing_puzzlesat_imports_no_jit():
    code = "import sys, puzzlesat; puzzlesat.catalog(); print(sorted(m for m in sys.modules " \
           "if m.split('.')[0] in ('numba', 'llvmlite', 'numpy')))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize("folder", [listing.catalog_dir(), listing.catalog_dir() / listing.OPEN],
                         ids=["catalog", "open"])
def test_the_committed_summaries_are_up_to_date(folder):
    """Else: python -m puzzlesat.cli.listing writes them again."""
    assert (folder / listing.INDEX).read_text(encoding="utf-8") == listing.index_text(folder)


def test_a_changed_file_is_listed_from_the_file_not_the_index(tmp_path):
    source = listing.catalog_dir()
    for name in ("iq-block-8", "scramble-frog"):
        shutil.copy(source / f"{name}.toml", tmp_path)
    (tmp_path / listing.INDEX).write_text(listing.index_text(tmp_path), encoding="utf-8")
    changed = tmp_path / "iq-block-8.toml"
    changed.write_text(changed.read_text(encoding="utf-8").replace(
        'title = "', 'title = "Changed: ', 1), encoding="utf-8")
    rows = dict((name, summary) for name, _, summary in listing.lines(tmp_path))
    assert "Changed: " in rows["iq-block-8"]
    assert rows["scramble-frog"] == listing.read_index(tmp_path)["scramble-frog"][2]
    assert listing.read_index(tmp_path)["iq-block-8"][0] != zlib.crc32(changed.read_bytes())


def test_list_prints_what_the_whole_command_line_prints(capsys):
    """The quick path (`list`) and the parser's (`list` reached through main) print the same."""
    run = subprocess.run([sys.executable, "-m", "puzzlesat", "list"], capture_output=True,
                         text=True, timeout=120)
    from puzzlesat.cli import main

    assert main(["list"]) == 0
    assert capsys.readouterr().out == run.stdout
    assert run.stdout.count("\n") == len(listing.puzzle_files(listing.catalog_dir())) + 1


def test_first_run_bench_medians_and_verdicts():
    """bench first-run's arithmetic: medians over rounds, each target judged on its own."""
    from puzzlesat.benchmarks import first_run, targets

    aims = targets()["first-run"]
    first, warm = aims["first_count_puzzle"], aims["warm_puzzle"]

    def one(listing, first_wall, warm_first, warm_walls):
        return {"install": 60.0, "list": listing, "jits": [],
                "counts": {first: {"first": first_wall, "warm": [1.0, 1.0]},
                           warm: {"first": warm_first, "warm": warm_walls}}}

    rounds = [one([0.05, 0.06, 0.07], 3.0, 11.0, [10.0, 10.0]),
              one([0.05, 0.2, 0.2], 9.0, 13.0, [10.0, 10.0]),
              one([0.05, 0.05, 0.05], 4.0, 30.0, [10.0, 10.0])]
    result = first_run.summary(rounds, aims)
    assert (result["list_median"], result["first_median"]) == (0.05, 4.0)
    assert (result["warm_first_median"], result["warm_median"]) == (13.0, 10.0)
    assert result["met"] == {"list": True, "first": True, "warm": False}
    assert "| NOT met |" in first_run.table(result, "load 1")


def test_every_kernel_source_is_built_at_install():
    """Each runners/csrc/NAME.c is an optional extension puzzlesat._NAME in pyproject.toml,
    built by runners/build_kernels.py."""
    from pathlib import Path

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parent.parent
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["cmdclass"] == {"build_ext": "puzzlesat.build_kernels.BuildKernels"}
    listed = {e["name"]: e for e in setuptools["ext-modules"]}
    sources = sorted((root / "runners" / "csrc").glob("*.c"))
    assert sorted(listed) == [f"puzzlesat._{path.stem}" for path in sources]
    for path in sources:
        entry = listed[f"puzzlesat._{path.stem}"]
        assert entry["sources"] == [f"runners/csrc/{path.name}"] and entry["optional"]
        assert entry["include-dirs"] == ["runners/csrc"]


def loaded(*argv: str) -> set[str]:
    """The modules in sys.modules when `puzzlesat ARGV` ends (those imported through
    importlib.import_module too, which -X importtime does not show), and its exit code 0."""
    code = ("import atexit, sys; atexit.register(lambda: print('LOADED', *sorted(sys.modules), "
            f"file=sys.stderr)); sys.argv = ['puzzlesat', *{list(argv)!r}]; "
            "from puzzlesat.cli import command; command()")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    line = next(line for line in run.stderr.splitlines() if line.startswith("LOADED "))
    return set(line.split()[1:])


def family_modules(kind: str) -> set[str]:
    """The modules (and packages) of a family: its parts found by the registry's convention,
    its models' package, its kernels, its own backends and the registry's backends whose model
    it alone of the families takes."""
    import importlib

    from puzzlesat import registry

    stem = registry.FAMILIES[kind]
    found = {registry.module_name(kind, part) for part in ("family", "pictures")}
    found |= {f"puzzlesat.models.{stem}", f"puzzlesat.kernels.{stem}"}
    family = registry.family(kind)
    for make in family.own_backends.values():
        found.add(make.__module__ if isinstance(make, type) else type(make()).__module__)
    for entry in registry.BACKENDS:
        takes = entry.module and getattr(
            getattr(importlib.import_module(entry.module), entry.cls), "takes", None)
        if takes and takes in family.takes and not any(
                takes in registry.family(other).takes
                for other in registry.FAMILIES if other != kind):
            found.add(entry.module)
    return found


@pytest.mark.parametrize("kind, argv", [
    ("packing", ["count", "iq-block-8", "--modulo", "symmetry"]),
    ("edge-matching", ["count", "diamond-blocks", "--jobs", "1"]),
])
def test_a_count_loads_only_its_own_familys_modules(kind, argv):
    """Issue 39: a count imports what its family and backend need: no JIT, and no module of
    another family (its models, family, pictures, kernels, backends), although the parser
    declares every family's flags (their values: runners/cli/choices.json)."""
    from puzzlesat import registry

    modules = loaded(*argv)
    own = family_modules(kind)
    assert own & modules, own  # the check sees the family's own modules
    others = set().union(*(family_modules(k) for k in registry.FAMILIES if k != kind)) - own
    assert "puzzlesat.families.edge_matching" in others | own  # the families' tables are read
    heavy = {"numba", "llvmlite"} | others
    found = sorted(m for m in modules if m in heavy or m.rpartition(".")[0] in heavy
                   or any(m.startswith(f"{h}.") for h in heavy))
    assert found == []


def test_the_flag_values_are_the_familys():
    """Else: python -m puzzlesat.cli.choices writes them again from the families."""
    import json

    from puzzlesat.cli import choices

    assert json.loads(choices.INDEX.read_text(encoding="utf-8")) == choices.from_families()


def test_no_foreign_format_claims_a_catalog_file_or_a_toml_file():
    """A catalog file and a file named .toml are read as TOML without sniffing the foreign
    formats (so without importing every family's reader): none of them would claim one."""
    from puzzlesat.models import files

    formats = files.foreign_formats()
    assert formats  # the check sees the foreign formats
    known = files.catalog() | files.open_boards()
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        claimed = [fmt.name for fmt in formats for shown in (name, str(path))
                   if fmt.sniff(shown, text)]
        assert claimed == [], name
    numbers = "0\n1 2 3 4\n5 6 7 8\n"  # a file of numbers, as the Eternity II format's
    assert [fmt.name for fmt in formats if fmt.sniff("board.toml", numbers)] == []
    assert [fmt.name for fmt in formats if fmt.sniff("board.txt", numbers)]


def test_the_verbs_index_is_up_to_date():
    """Else: python -m puzzlesat.cli.verbs writes it again."""
    import json

    from puzzlesat.cli import verbs
    from puzzlesat.cli.commands import build_parser

    assert json.loads(verbs.INDEX.read_text(encoding="utf-8")) == verbs.index_of(build_parser())


@pytest.mark.parametrize("columns", ["60", "100"])
def test_help_prints_what_the_whole_parser_prints(columns):
    """The quick `--help` (no API, no family imported) and the whole parser's, at two widths."""
    import os

    env = {**os.environ, "COLUMNS": columns}
    quick = subprocess.run([sys.executable, "-m", "puzzlesat", "--help"], capture_output=True,
                           text=True, timeout=120, env=env)
    whole = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['puzzlesat', "
                            "'--help']; from puzzlesat.cli.commands import main; main()"],
                           capture_output=True, text=True, timeout=120, env=env)
    assert quick.returncode == whole.returncode == 0, quick.stderr + whole.stderr
    assert quick.stdout == whole.stdout and "COMMAND" in quick.stdout


def test_help_imports_no_api():
    modules = imported("--help")
    assert "puzzlesat.cli.verbs" in modules
    for heavy in ("puzzlesat.api", "puzzlesat.cli.commands", "numpy", "ortools"):
        assert heavy not in modules, heavy
