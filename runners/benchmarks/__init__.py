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
