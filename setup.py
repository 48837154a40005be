"""The package list, found by setuptools rather than written by hand: runners/ is the package
`puzzlesat` and models/ its subpackage `puzzlesat.models` (the package-dir of pyproject.toml, where
everything else about the build is declared)."""

from setuptools import find_packages, setup

ROOTS = {"puzzlesat": "runners", "puzzlesat.models": "models"}

setup(packages=[name for root, folder in ROOTS.items()
                for name in (root, *(f"{root}.{found}" for found in find_packages(folder)))])
