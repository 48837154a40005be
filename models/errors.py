"""The one error type for bad user input."""

from __future__ import annotations


class PuzzlesatWarning(UserWarning):
    """Something the user must know that does not stop the work (a cache that cannot be
    written, a worker that died): said through Python's warnings, which a notebook shows and
    the command line prints on standard error, one line each."""


class InputError(Exception):
    """Bad input: reported as one line naming file, line and field; the CLI exits with code 2."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        elif self.line:
            where = f"line {self.line}: "
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.message}"
