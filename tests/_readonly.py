"""Test helper: run Python code against a read-only file system, without touching the machine.

A read-only bind mount of a temporary folder is made in a private mount namespace (`unshare`),
so it disappears when the process ends. Needs root, unshare and mount; skips otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _patience import HANG


def run_read_only(tmp_path: Path, code: str) -> tuple[Path, subprocess.CompletedProcess]:
    """(the writable folder behind the mount, the run of `code` with sys.argv[1] = the
    read-only folder); skips where a read-only bind mount cannot be made."""
    if not (os.geteuid() == 0 and shutil.which("unshare") and shutil.which("mount")):
        pytest.skip("needs root, unshare and mount for a read-only bind mount")
    source, mounted = tmp_path / "source", tmp_path / "mounted"
    source.mkdir()
    mounted.mkdir()
    script = (
        f"mount --bind {source} {mounted} && mount -o remount,bind,ro {mounted} && "
        f'exec {sys.executable} -c "$0" {mounted}'
    )
    run = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, code],
        capture_output=True, text=True, timeout=HANG,
    )
    if run.returncode != 0 and "mount" in run.stderr:
        pytest.skip(f"cannot make a read-only bind mount here: {run.stderr.strip()}")
    return source, run
