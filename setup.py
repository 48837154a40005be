"""Build the compiled searches: one C extension a kernel, from runners/csrc/*.c.

Everything else about the package is declared in pyproject.toml; this file only lists the
kernels, so that `pip install .` compiles them once, at install, and no search is compiled while
a user waits (issue 39). Each kernel is optional: on a machine without a C compiler the install
goes on, and the backends that need a kernel say they are absent (`puzzlesat backends`).

The kernels are built for the processor they are installed on (-march=native), as a JIT would;
PUZZLESAT_CFLAGS replaces those flags (say, for a wheel shared between machines).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = Path("runners", "csrc")
FLAGS = ["-O3", "-march=native", "-std=c11", "-Wall", "-Wno-unused-function"]


class BuildKernels(build_ext):
    """build_ext that falls back to portable flags where the compiler refuses the native ones,
    and reports a kernel it could not build in one line."""

    def build_extension(self, ext: Extension) -> None:
        flags = os.environ.get("PUZZLESAT_CFLAGS")
        ext.extra_compile_args = shlex.split(flags) if flags is not None else list(FLAGS)
        try:
            super().build_extension(ext)
        except Exception:  # noqa: BLE001 - the compiler's own message has been printed
            if flags is not None or self.compiler.compiler_type == "msvc":
                raise
            ext.extra_compile_args = ["-O3", "-std=c11"]
            super().build_extension(ext)


def kernels() -> list[Extension]:
    """One extension `puzzlesat._NAME` for each runners/csrc/NAME.c."""
    return [Extension(f"puzzlesat._{source.stem}", [str(source)], include_dirs=[str(SOURCES)],
                      depends=[str(header) for header in sorted(SOURCES.glob("*.h"))],
                      optional=True)
            for source in sorted(SOURCES.glob("*.c"))]


setup(ext_modules=kernels(), cmdclass={"build_ext": BuildKernels})
