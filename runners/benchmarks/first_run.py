"""A newcomer's first commands (issue 39): puzzlesat installed from this source tree into a
brand-new virtual environment, then `puzzlesat list` and the first counts timed there.

Before issue 39 the compiled searches were compiled on a user's first count (numba): IQ Block 8's
first `count --modulo symmetry` took 25.6 s and the 5x8 polyhexes' 117.8 s against 22.9 s warm.
Each round here makes a new venv, installs `.[dlx]` (timed), times `puzzlesat list` three times,
then each count once right after the install (its first) and twice more (warm); a last run of
the first count under `python -X importtime` tells whether it imported a JIT (numba, llvmlite).
Medians over the rounds; targets in targets.toml [first-run]. The library side of `puzzlesat
bench first-run`; the figures in results/first-run.md.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..models.errors import InputError
from ..models.words import plural
from . import targets
from .processes import timed

Say = Callable[[str], None]
JITS = ("numba", "llvmlite")
INSTALL_SECONDS = 1800  # an install that takes longer is stuck (a network wait)
COUNT_SECONDS = 1800


def source_tree() -> Path:
    """The source tree this module runs from (a clone), which the benchmark installs."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file() or not (root / "runners" / "csrc").is_dir():
        raise InputError("bench first-run installs puzzlesat from its source tree, and this "
                         "puzzlesat was installed from a wheel: run it from a clone "
                         "(pip install -e .)", field="suite")
    return root


def checked(run: dict, what: str) -> dict:
    """The run, or RuntimeError with the end of its output where it failed."""
    if run["code"] != 0:
        raise RuntimeError(f"{what} failed (exit {run['code']}): {run['err'][-600:]}")
    return run


def install(venv: Path, root: Path, say: Say) -> float:
    """A new venv with `.[dlx]` installed from the source tree; the install's wall seconds."""
    checked(timed([sys.executable, "-m", "venv", str(venv)], 300), "python -m venv")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{root}[dlx]"]
    done = checked(timed(pip, INSTALL_SECONDS), "pip install '.[dlx]'")
    say(f"  installed in {done['wall']:.1f} s")
    return done["wall"]


def jits_imported(venv: Path, argv: list[str]) -> list[str]:
    """The JIT modules (numba, llvmlite) a command imports."""
    run = checked(timed([str(venv / "bin" / "python"), "-X", "importtime", "-m", "puzzlesat",
                         *argv], COUNT_SECONDS), " ".join(argv))
    names = {line.split("|")[-1].strip().split(".")[0] for line in run["err"].splitlines()
             if line.startswith("import time:")}
    return sorted(names & set(JITS))


def round_in(venv: Path, root: Path, aims: dict, say: Say) -> dict:
    """One round: install, list three times, each count first then twice warm."""
    figures: dict = {"install": install(venv, root, say), "list": [], "counts": {}}
    program = str(venv / "bin" / "puzzlesat")
    for _ in range(3):
        figures["list"].append(checked(timed([program, "list"], 120), "list")["wall"])
    say(f"  list: {', '.join(f'{s:.3f}' for s in figures['list'])} s")
    for name in (aims["first_count_puzzle"], aims["warm_puzzle"]):
        argv = ["count", name, "--modulo", "symmetry"]
        runs = [checked(timed([program, *argv], COUNT_SECONDS), " ".join(argv))
                for _ in range(3)]
        figures["counts"][name] = {"first": runs[0]["wall"], "first_cpu": runs[0]["cpu"],
                                   "warm": [r["wall"] for r in runs[1:]],
                                   "answer": runs[0]["out"].strip().splitlines()[:1]}
        later = ", ".join(f"{r['wall']:.2f}" for r in runs[1:])
        say(f"  {name}: first {runs[0]['wall']:.2f} s, then {later} s")
    figures["jits"] = jits_imported(venv, ["count", aims["first_count_puzzle"], "--modulo",
                                           "symmetry"])
    return figures


def run(rounds: int, say: Say) -> dict:
    """`rounds` new venvs, each timed (round_in); the medians and the targets met."""
    root, aims = source_tree(), targets()["first-run"]
    done = []
    for number in range(1, rounds + 1):
        say(f"round {number} of {rounds}: a new venv, pip install '.[dlx]' from {root}")
        with tempfile.TemporaryDirectory(prefix="puzzlesat-first-run-") as folder:
            done.append(round_in(Path(folder) / "venv", root, aims, say))
    return summary(done, aims)


def summary(done: list[dict], aims: dict) -> dict:
    """The rounds' medians against the targets."""
    first, warm = aims["first_count_puzzle"], aims["warm_puzzle"]
    first_wall = statistics.median(r["counts"][first]["first"] for r in done)
    warm_first = statistics.median(r["counts"][warm]["first"] for r in done)
    warm_wall = statistics.median(s for r in done for s in r["counts"][warm]["warm"])
    listing = statistics.median(s for r in done for s in r["list"])
    return {
        "rounds": done, "list_median": listing, "first_median": first_wall,
        "warm_first_median": warm_first, "warm_median": warm_wall,
        "install_median": statistics.median(r["install"] for r in done),
        "jits": sorted({j for r in done for j in r["jits"]}),
        "met": {"list": listing <= aims["list_seconds"],
                "first": first_wall <= aims["first_count_seconds"],
                "warm": warm_first <= aims["warm_ratio"] * warm_wall},
        "aims": aims,
    }


def table(result: dict, load: str) -> str:
    """results/first-run.md."""
    aims, met = result["aims"], result["met"]
    first, warm = aims["first_count_puzzle"], aims["warm_puzzle"]

    def verdict(key: str) -> str:
        return "met" if met[key] else "NOT met"

    rounds = len(result["rounds"])
    return "\n".join([
        "# A newcomer's first commands: a brand-new venv right after `pip install '.[dlx]'`", "",
        f"`puzzlesat bench first-run`: {plural(rounds, 'round')}, each a new virtual environment "
        "with puzzlesat installed from the source tree; medians over the rounds (wall seconds); "
        f"{load}; {os.cpu_count()} CPUs.", "",
        "| what | median | target | |", "|---|---:|---|---|",
        f"| `pip install '.[dlx]'` (C kernels built) | {result['install_median']:.1f} s | | |",
        f"| `puzzlesat list` | {result['list_median']:.3f} s | at most "
        f"{aims['list_seconds']} s | {verdict('list')} |",
        f"| first `count {first} --modulo symmetry` | {result['first_median']:.2f} s | at most "
        f"{aims['first_count_seconds']} s | {verdict('first')} |",
        f"| first `count {warm} --modulo symmetry` | {result['warm_first_median']:.2f} s | at "
        f"most {aims['warm_ratio']} x warm | {verdict('warm')} |",
        f"| the same, warm (2 more runs a round) | {result['warm_median']:.2f} s | | ratio "
        f"{result['warm_first_median'] / result['warm_median']:.2f} |",
        "", "JIT modules imported by the first count: "
        + (", ".join(result["jits"]) or "none") + ".", ""])


def bench_first_run(args) -> int:
    """`puzzlesat bench first-run`: the rounds; with --record (or --results DIR) write
    first-run.md there. Exit 1 where a target is not met."""
    from ..output import record_folder, say, write_text_atomic

    folder = record_folder(args)
    result = run(args.repeat, say)
    text = table(result, f"load average {os.getloadavg()[0]:.1f} at the end")
    print(text)
    if folder is not None:
        path = Path(folder) / "first-run.md"
        write_text_atomic(path, text, "the benchmark's table")
        print(f"wrote {path}")
    return 0 if all(result["met"].values()) else 1
