"""`python -m puzzlesat`: the same command line as `puzzlesat`."""

from .cli import command

if __name__ == "__main__":
    command()
