"""`python -m puzzlesat.cli`: the command line."""

from . import command

command()
