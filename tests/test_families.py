"""Every family is declared once (registry.FAMILIES) and found from there by convention: its
reader, library object, command line and pictures; the build packages every package folder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from puzzlesat import registry
from puzzlesat.cli import main
from puzzlesat.models import files
from puzzlesat.models.errors import InputError
from puzzlesat.pictures import gallery, play

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ("pieces", "gallery", "page")  # what draw, gallery and play ask a pictures module
CLI = ("add_arguments", "own_flags", "load_options", "options", "print_solution", "count_lines",
       "verify_lines")


@pytest.mark.parametrize("kind", list(registry.FAMILIES))
def test_every_part_of_a_family_is_found_from_its_stem(kind):
    family = registry.family(kind)
    assert family.kind == kind
    assert callable(registry.part(kind, "reader").read)
    cli = registry.part(kind, "cli")
    assert [name for name in CLI if not hasattr(cli, name)] == []
    pictures = registry.part(kind, "pictures")
    assert [name for name in PICTURES if not callable(getattr(pictures, name, None))] == [], (
        f"{kind} lacks a pictures module with {', '.join(PICTURES)}")
    assert family.own_backends, f"{kind} has no reference backend of its own"
    for name in family.own_backends:
        assert registry.resolve(name, kind, "solve").name.startswith(name)
        assert name in registry.names_for(kind)


@pytest.mark.parametrize("name", list(files.catalog()))
def test_every_catalog_puzzle_belongs_to_a_declared_family(name):
    assert files.load(name).kind in registry.FAMILIES


def test_an_unknown_kind_is_an_error_never_another_familys_page():
    @dataclasses.dataclass
    class Stranger:
        kind: str = "sliding-tiles"
        name: str = "stranger"

    for make in (lambda: play.play_page(Stranger()), lambda: gallery.build_gallery(Stranger()),
                 lambda: registry.part("sliding-tiles", "pictures")):
        with pytest.raises(InputError, match="unknown kind 'sliding-tiles'"):
            make()


def test_an_unknown_kind_in_a_file_names_the_declared_ones(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('kind = "sliding-tiles"\n')
    with pytest.raises(InputError) as caught:
        files.load(str(path))
    assert caught.value.line == 1 and caught.value.field == "kind"
    for kind in registry.FAMILIES:
        assert kind in caught.value.message


def test_gallery_takes_the_moduli_and_aliases_of_count(tmp_path, capsys):
    """`gallery diamond-blocks --modulo symmetry` works as `count` does; 'rotation' is its alias."""
    for word in ("symmetry", "rotation"):
        assert main(["gallery", "diamond-blocks", "--level", "2", "--modulo", word,
                     "-o", str(tmp_path / word)]) == 0
    assert "3 classes" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "symmetry").glob("*.svg")) == sorted(
        p.name for p in (tmp_path / "rotation").glob("*.svg"))


def _setuptools() -> dict:
    """pyproject.toml's [tool.setuptools] table."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]


def _built_packages() -> list[str]:
    """The packages the build installs, as pyproject.toml lists them for setuptools."""
    return sorted(_setuptools()["packages"])


# files beside the modules that an install leaves out on purpose: the pages (read in a clone)
# and the kernels' C sources (compiled into the extensions)
NOT_INSTALLED = ("README.md", "csrc/*")


def test_every_file_the_package_reads_is_installed():
    """Regression: runners/cli/choices.json (the flags' values) was missing from package-data,
    so a plain `pip install .` (README's first command) ended every count in a traceback
    (FileNotFoundError); the editable installs the tests used found it in the clone."""
    import fnmatch
    import subprocess

    config = _setuptools()
    roots = config["package-dir"]  # puzzlesat -> runners, puzzlesat.models -> models

    def folder(package: str) -> Path:
        root = max((r for r in roots if package == r or package.startswith(r + ".")), key=len)
        return Path(roots[root], *package[len(root):].split(".")[1:])

    places = sorted(((folder(p), p) for p in config["packages"]),
                    key=lambda place: -len(place[0].parts))
    tracked = subprocess.run(["git", "ls-files", "runners", "models"], cwd=ROOT, text=True,
                             capture_output=True, check=True).stdout.split()
    missing = []
    for path in map(Path, tracked):
        if path.suffix == ".py":
            continue
        where, package = next((f, p) for f, p in places if path.is_relative_to(f))
        inside = str(path.relative_to(where))
        if any(fnmatch.fnmatch(inside, pattern) for pattern in NOT_INSTALLED):
            continue
        if not any(fnmatch.fnmatch(inside, pattern)
                   for pattern in config["package-data"].get(package, ())):
            missing.append(str(path))
    assert missing == [], "add these to [tool.setuptools.package-data]: " + ", ".join(missing)


def test_every_package_folder_is_in_the_build():
    """A folder of modules under runners/ or models/ that the build would leave out fails."""
    folders = {"puzzlesat": ROOT / "runners", "puzzlesat.models": ROOT / "models"}
    expected = set()
    for root, folder in folders.items():
        for module in folder.rglob("*.py"):
            parts = module.parent.relative_to(folder).parts
            if "__pycache__" in parts:
                continue
            assert (module.parent / "__init__.py").exists(), (
                f"{module.parent} holds modules but no __init__.py: it would not be packaged")
            expected.add(".".join((root, *parts)))
    built = _built_packages()
    assert sorted(expected) == built
    for kind in registry.FAMILIES:  # and every part of every family is in a built package
        for part in registry.PARTS:
            assert registry.module_name(kind, part).rsplit(".", 1)[0] in built


def test_the_top_level_is_the_products_design():
    """The checkout's top level holds the design's folders and files only (pyproject.toml,
    README.md, models/, runners/, tests/, results/ and .ci/, as README.md describes them)."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    top = {path.split("/")[0] for path in tracked}
    assert top <= {"pyproject.toml", "README.md", "models", "runners", "tests", "results",
                   ".ci", ".gitignore"}, sorted(top)


@pytest.mark.parametrize("module, base", [
    ("puzzlesat.families.TEMPLATE", "Family"), ("puzzlesat.backends.TEMPLATE", "Backend")])
def test_the_templates_to_copy_implement_every_method_asked(module, base):
    """runners/README.md sends a new family and a new backend to these templates: each must
    stay a complete, buildable class of its base as the base grows."""
    import importlib
    import inspect

    found = importlib.import_module(module)
    [made] = [c for _, c in inspect.getmembers(found, inspect.isclass)
              if c.__module__ == module and base in [b.__name__ for b in c.__mro__[1:]]]
    assert not inspect.isabstract(made), made.__abstractmethods__
    made()  # buildable
    text = inspect.getsource(found)
    assert text.count("[GUIDELINE]") >= 8


def runner_imports(path: Path) -> list[str]:
    """The imports of a models module that reach outside puzzlesat.models."""
    import ast

    package = ["puzzlesat", *path.relative_to(ROOT).parent.parts]  # models -> puzzlesat.models
    package[1:2] = ["models"]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [name for name in names if name.split(".")[0] == "puzzlesat"
                  and not (name + ".").startswith("puzzlesat.models.")]
    return found


def test_the_models_import_nothing_from_the_runners():
    """The ground floor stands alone: models/ reads, describes and encodes puzzles without the
    runners. Regression: models/files.py imported the registry to find readers, and Mind Lock's
    own table module (since folded into runners/table_cache.py) the table cache and
    breadth-first engine."""
    found = {str(p.relative_to(ROOT)): runner_imports(p) for p in (ROOT / "models").rglob("*.py")}
    assert {path: names for path, names in found.items() if names} == {}


def test_every_encoder_table_names_models_backends_take():
    """A family's encoder rows are keyed by the models of backends.TAKES (a backend taking any
    other is refused when its class is made)."""
    from puzzlesat.backends import TAKES, Backend

    for kind in registry.FAMILIES:
        assert set(registry.family(kind).encoders) <= set(TAKES), kind
        assert set(registry.family(kind).takes) <= set(TAKES), kind
    with pytest.raises(TypeError, match="not one of"):
        type("Stray", (Backend,), {"takes": "sudoku"})
