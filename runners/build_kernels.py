"""How `pip install` builds the compiled searches (issue 39): pyproject.toml lists one C
extension `puzzlesat._NAME` a kernel (runners/csrc/NAME.c) and names this command for
build_ext, so that no search is compiled while a user waits.

The kernels are built for the processor they are installed on (-O3 -march=native), as a JIT
would; where the compiler refuses those flags they are built again with portable ones, and
PUZZLESAT_CFLAGS replaces them (say, for a wheel shared between machines). Each kernel is
optional: without a C compiler the install goes on, and the backends that need a kernel say
they are absent (runners/native.py). Imported only by the build, never at run time.
"""

from __future__ import annotations

import os
import shlex

from setuptools.command.build_ext import build_ext

NATIVE = ["-O3", "-march=native", "-std=c11", "-Wall", "-Wno-unused-function"]
PORTABLE = ["-O3", "-std=c11"]


class BuildKernels(build_ext):
    """build_ext with the native flags, and the portable ones where the compiler refuses them."""

    def build_extension(self, ext) -> None:
        flags = os.environ.get("PUZZLESAT_CFLAGS")
        if flags is not None or self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = shlex.split(flags or "")
            super().build_extension(ext)
            return
        ext.extra_compile_args = list(NATIVE)
        try:
            super().build_extension(ext)
        except Exception:  # noqa: BLE001 - the compiler's own message has been printed
            ext.extra_compile_args = list(PORTABLE)
            super().build_extension(ext)
