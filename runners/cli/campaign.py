"""`puzzlesat campaign`: the campaign of first counts (runners/campaign.py) from the command
line: where it stands (what is counted, what stopped midway, what runs next and its estimate),
--run to count the next board with its checkpoint in the campaign's folder (resumable), and
--check to recount cubes of finished counts by two other methods. Nothing is written without
--record. Added by the packing family's command line."""

from __future__ import annotations

import argparse
import json
import time

from .. import output as report
from ..models.errors import InputError
from ..models.words import duration, plural


def add_commands(subparsers) -> None:
    from . import amount_of, positive, seconds

    campaign = subparsers.add_parser(
        "campaign", help="packing: the campaign of first counts of the open boards: what is "
        "counted, what runs next and its estimate; --run counts the next board (resumable), "
        "--check recounts cubes of finished counts by xcover and CP-SAT")
    campaign.add_argument("--folder", default=None, metavar="DIR",
                          help="the campaign's folder of checkpoints and checks (default: "
                          "$PUZZLESAT_CAMPAIGN, else results/open-counts)")
    campaign.add_argument("--estimates", default=None, metavar="FILE",
                          help="the open boards' estimates (default "
                          "results/open-boards-estimates.json, from `estimate --open --record`)")
    campaign.add_argument("--hours", type=amount_of("hours"), default=24.0, metavar="H",
                          help="within reach: estimated CPU hours with --modulo symmetry at "
                          "most H (default 24)")
    campaign.add_argument("--order", default="savings", choices=("savings", "hours"),
                          help="savings: the boards symmetry cuts most first (largest |G|), "
                          "then the least estimate (default); hours: the least estimate first")
    campaign.add_argument("--run", action="store_true", dest="run_next",
                          help="count the next board (one stopped midway first: it resumes) "
                          "with --modulo symmetry, its checkpoint in the folder (needs --record)")
    campaign.add_argument("--jobs", type=positive, default=None,
                          help="--run: worker processes (default: the cores); --check: those "
                          "of each recount (default 1)")
    campaign.add_argument("--executor", default=None,
                          help="--run: local, dask-local[:N] or dask://HOST:PORT")
    campaign.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                          help="--run: stop after S seconds (the checkpoint keeps what is done)")
    campaign.add_argument("--check", nargs="*", default=None, metavar="BOARD",
                          help="recount cubes of finished counts (every counted board not yet "
                          "checked or whose check left a cube unfinished, or those named) by "
                          "xcover and CP-SAT, and compare; counts a check of the same seed "
                          "finished are kept")
    campaign.add_argument("--sample", type=positive, default=2, metavar="N",
                          help="--check: cubes with solutions drawn a board (default 2)")
    campaign.add_argument("--empty", type=int, default=1, metavar="N",
                          help="--check: empty cubes drawn a board (default 1)")
    campaign.add_argument("--pool", type=positive, default=3, metavar="N",
                          help="--check: draw among the N cubes of each kind with the least "
                          "recorded seconds (default 3)")
    campaign.add_argument("--seed", type=int, default=1, help="--check: the draw's seed "
                          "(default 1)")
    campaign.add_argument("--cube-time-limit", type=seconds, default=600.0, metavar="S",
                          help="--check: seconds for each backend's count of a cube (default "
                          "600); one not finished is a lower bound")
    campaign.add_argument("--most-solutions", type=positive, default=None, metavar="N",
                          help="--check: a drawn cube holding more than N solutions is checked "
                          "on a part of it, drawn down the bitboard search's split (each "
                          "step's children counted by it must add up); default: whole cubes")
    campaign.add_argument("--json", action="store_true", help="print JSON")
    campaign.add_argument("--record", action="store_true",
                          help="write in the campaign's folder: --run's checkpoint, --check's "
                          "records and checks.md, and campaign.md (where the campaign stands)")
    campaign.set_defaults(run=run_campaign)


def run_campaign(args: argparse.Namespace) -> int:
    from .. import campaign
    from .bench import needs_compiled

    folder = campaign.folder_of(args.folder)
    if args.empty < 0:
        raise InputError(f"must be a whole number of at least 0, not {args.empty}",
                         field="--empty")
    if args.run_next and args.check is not None:
        raise InputError("runs a count or checks counts: give --run or --check, not both",
                         field="--run")
    if args.run_next and not args.record:
        raise InputError(f"writes the count's checkpoint in {folder}: add --record to write "
                         "there", field="--run")
    for name in args.check or ():
        campaign.counted_checkpoint(folder, name)
    say = (lambda _: None) if args.json else report.say
    state = campaign.survey(folder, args.hours, args.order, args.estimates)
    failed = False  # a run stopped before its end, or a check that disagrees: exit 1
    if args.run_next:
        needs_compiled("--run", ("bitboard",), "the campaign counts with")
        failed = not _run_next(args, state, folder, say)
        state = campaign.survey(folder, args.hours, args.order, args.estimates)
    elif args.check is not None:
        failed = not _check(args, state, folder, say)
        state = campaign.survey(folder, args.hours, args.order, args.estimates)
    if args.record:
        folder.mkdir(parents=True, exist_ok=True)
        report.write_text_atomic(folder / "campaign.md", page(state), "results")
        report.write_results_index(folder)
        if (folder.parent / report.INDEX).exists():  # a folder of results/: its line there
            report.write_results_index(folder.parent)
    if args.json:
        print(json.dumps({"folder": str(folder), "hours": state.hours, "order": state.order,
                          "next": state.next.name if state.next else None,
                          "boards": [b.row() for b in state.boards]}))
    else:
        print(table(state))
    return 1 if failed else 0


def _run_next(args, state, folder, say) -> bool:
    """Count the next board; whether its count is complete (nothing to run: True)."""
    from .. import api

    board = state.next
    if board is None:
        say(f"nothing to run: every board within {state.hours:g} CPU hours is counted")
        return True
    folder.mkdir(parents=True, exist_ok=True)
    words = "resumes" if board.state == "incomplete" else "counts"
    say(f"{words} {board.name} ({estimate_words(board)}) with --modulo symmetry, checkpoint "
        f"{board.checkpoint}")
    begin = time.time()
    counted = api.count(board.name, backend="bitboard", modulo="symmetry", jobs=args.jobs,
                        executor=args.executor, time_limit=args.time_limit,
                        checkpoint=str(board.checkpoint), progress=not args.json, say=say)
    took = f"{time.time() - begin:.0f} s"
    if counted.complete:
        say(f"{board.name}: {plural(counted.details['solutions'], 'solution')}, "
            f"{plural(counted.number, 'class')} ({took})")
    else:
        say(f"{board.name}: INCOMPLETE, stopped after {took}: at least "
            f"{plural(counted.details.get('solutions', 0), 'solution')} so far; the checkpoint "
            "keeps the cubes done (run again to resume)")
    return counted.complete


def _check(args, state, folder, say) -> bool:
    """Check the boards asked for; whether none disagrees."""
    from .. import campaign

    plan = campaign.CheckPlan(args.sample, args.empty, args.pool, args.seed,
                              time_limit=args.cube_time_limit, most=args.most_solutions)
    names = args.check or [b.name for b in state.boards if b.state == "counted" and (
        b.check is None or campaign.unfinished(b.check))]
    if not names:
        say("nothing to check: every counted board has its check")
    agree = True
    for name in names:
        earlier = campaign.read_check(folder, name)
        same = earlier and earlier.get("seed") == args.seed and "checkpoint" in earlier
        record = campaign.check_count(name, folder, plan, jobs=args.jobs or 1, say=say,
                                      previous=earlier if same else None)
        if args.record:
            folder.mkdir(parents=True, exist_ok=True)
            say(f"wrote {campaign.record_check(folder, record)}")
        say(f"{name}: {campaign.checked_words(record)}")
        agree = agree and not record["disagree"]
    return agree


def estimate_words(board) -> str:
    if board.estimate is None:
        return "no estimate"
    return (f"|G| {board.estimate.symmetries}, estimated {hours_words(board.estimate.hours)} "
            "of CPU with --modulo symmetry")


def so_far(board) -> str:
    """What a board stopped midway holds (the estimate alone misleads where it runs long)."""
    if board.state != "incomplete":
        return ""
    return (f"; resumes with {board.cubes_done:,} of {plural(board.cubes, 'cube')} done, "
            f"{duration(board.seconds)} of work on its workers so far")


def hours_words(hours: float) -> str:
    if hours < 1 / 60:
        return f"{hours * 3600:.0f} s"
    return f"{hours * 60:.0f} min" if hours < 1 else f"{hours:.1f} h"


def table(state) -> str:
    """Where the campaign stands, a board a line, and what runs next."""
    order = ("largest |G| first" if state.order == "savings" else "least estimate first")
    lines = [f"campaign in {state.folder}: the open boards within {state.hours:g} CPU hours "
             f"with --modulo symmetry by the estimate ({order}), and any other counted there",
             f"{'board':44} {'|G|':>3} {'estimate':>9} {'state':12} {'cubes':>9} "
             f"{'solutions':>12} {'classes':>10}  checked"]
    for b in state.boards:
        est = hours_words(b.estimate.hours) if b.estimate else "-"
        group = b.estimate.symmetries if b.estimate else "-"
        cubes = f"{b.cubes_done}/{b.cubes}" if b.cubes else "-"
        sols = "-" if b.solutions is None else f"{b.solutions:,}"
        classes = "-" if b.classes is None else f"{b.classes:,}"
        lines.append(f"{b.name:44} {group:>3} {est:>9} {b.state:12} {cubes:>9} {sols:>12} "
                     f"{classes:>10}  {report_check(b)}")
    board = state.next
    lines.append(f"next: {board.name} ({estimate_words(board)}{so_far(board)}): "
                 f"{state.command()}" if board else "next: nothing left within reach")
    return "\n".join(lines)


def report_check(board) -> str:
    """The last column: a counted board's check; one stopped midway, its work so far (its
    estimate, from the plain search, can be far from what the count takes)."""
    from .. import campaign

    if board.state == "incomplete":
        return f"(so far: {duration(board.seconds)} of work)"
    return campaign.checked_words(board.check) if board.state == "counted" else ""


def page(state) -> str:
    """campaign.md: the table, as the command prints it, with its date."""
    return ("# The campaign of first counts\n\nWritten by `puzzlesat campaign --record`; do not "
            f"edit by hand ({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC). Solutions: "
            "every covering, rotations and reflections counted as different; classes under "
            "the board's |G| symmetries (Burnside's lemma). Checks: "
            "[checks.md](checks.md).\n\n```\n" + table(state) + "\n```\n")
