"""Benchmarks as library code: instances, timed runs side by side and results tables
(written to results/); the command line calls them in process."""


def targets() -> dict:
    """The benchmarks' targets (targets.toml beside this module), kept out of the code."""
    import sys
    from importlib import resources

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib.loads((resources.files(__package__) / "targets.toml").read_text())


def whole(count):
    """A count a benchmark times or checks against, or KeyboardInterrupt where Ctrl-C or SIGTERM
    stopped it: the API hands back an interrupted count as a lower bound, which a benchmark
    must not time as a whole count (nor carry on past the interrupt for minutes)."""
    if count.details.get("interrupted"):
        raise KeyboardInterrupt
    return count


def build_c(source, folder):
    """Compile a C anchor (a file beside these modules) into `folder` with cc or gcc -O2: the
    binary's path, or None where there is no C compiler."""
    import shutil
    import subprocess
    from pathlib import Path

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    binary = Path(folder) / Path(source).stem
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True,
                   capture_output=True)
    return binary
