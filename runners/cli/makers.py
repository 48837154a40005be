"""The puzzle makers' commands: `cards` (the fewest pieces that make a card unique), `booklet`
(graded challenge cards, printable and playable), `audit` (which cards of a booklet are unique)
and `bench cards` (the cards search timed); added by the packing family's command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import output as report
from ..models.words import plural

RECORDED_CARDS = 100  # cards a record keeps (IQ Block 10 has 14,323 classes: 10 MB of JSON)
CARDS_HELP = ("a catalog name or the path of a packing puzzle file (a challenge too: its "
              "placed pieces stay)")


def add_commands(subparsers) -> None:
    from . import positive

    cards = subparsers.add_parser(
        "cards", help="packing: the fewest pre-placed pieces that leave exactly one solution, "
        "how many such cards (labelled and up to symmetry), the cards")
    cards.add_argument("puzzle", metavar="PUZZLE", help=CARDS_HELP)
    cards.add_argument("--per-solution", action="store_true",
                       help="also the fewest pieces making a card of each solution")
    cards.add_argument("-o", "--output", metavar="FILE",
                       help="write the cards (one per class) as a booklet file, for `audit` "
                       "and `booklet`")
    report.add_record_arguments(cards, "the result as cards/PUZZLE.json")
    report.add_force_argument(cards)
    booklet = subparsers.add_parser(
        "booklet", help="packing: N challenge cards with one solution each, graded easy to "
        "hard; printable pages (SVG, PDF), solutions, a play page per card")
    booklet.add_argument("puzzle", metavar="PUZZLE", help=CARDS_HELP)
    booklet.add_argument("-n", "--cards", type=positive, default=12,
                         help="how many cards (default 12)")
    booklet.add_argument("-o", "--output", required=True, metavar="DIR",
                         help="the folder to write booklet.toml, pages and play pages in")
    report.add_force_argument(booklet)
    audit = subparsers.add_parser(
        "audit", help="packing: count every card of a booklet (or challenge files): which are "
        "unique, how many solutions the others have")
    audit.add_argument("booklets", metavar="BOOKLET", nargs="+",
                       help="a booklet file, or a puzzle file with pieces placed")
    audit.add_argument("--no-grade", action="store_true",
                       help="do not grade the unique cards (the search nodes)")
    for command in (cards, booklet, audit):
        command.add_argument("--backend", default=None,
                             help="lists the solutions (cards, booklet) or counts each card "
                             "(audit); default: the family's default for counting")
        command.add_argument("--json", action="store_true", help="print JSON")
    for command in (cards, booklet):
        command.add_argument("--check-backend", action="append", dest="check_backends",
                             metavar="NAME", help="count each checked card on this backend; "
                             "twice for two (default: cpsat and reference)")
        command.add_argument("--seed", type=int, default=1,
                             help="the random draws of cards (default 1)")
    cards.add_argument("--checks", type=int, default=10, metavar="N",
                       help="solutions and cards sampled for the checks (default 10; 0: none)")
    cards.set_defaults(run=run_cards)
    booklet.set_defaults(run=run_booklet)
    audit.set_defaults(run=run_audit)


def add_bench(bench: argparse.ArgumentParser) -> None:
    """`bench cards` (was `cards-bench`): the cards search timed."""
    from . import positive

    bench.add_argument("puzzles", metavar="PUZZLE", nargs="*", default=["iq-block-10"])
    bench.add_argument("--repeat", type=positive, default=3, help="runs (default 3)")
    report.add_record_arguments(bench, "the figures as cards-bench.json and .md")
    bench.set_defaults(run=run_bench)


def _failed(command: str, error: ArithmeticError) -> int:
    """A check that failed: said in one line, exit 1 (a defect, not the user's input)."""
    print(f"puzzlesat: {command}: a check FAILED: {error}", file=sys.stderr)
    return 1


def _check_backends(args: argparse.Namespace) -> dict:
    return {} if not args.check_backends else {"check_backends": tuple(args.check_backends)}


def run_cards(args: argparse.Namespace) -> int:
    from .. import api, cards
    from ..models.packing.booklet import BookletCard, booklet_text

    folder = report.record_folder(args)
    if args.output:
        report.check_output(args.output, force=args.force)
    puzzle = api.load(args.puzzle)
    try:
        found = cards.minimal_cards(puzzle, args.backend, args.checks,
                                    per_solution=args.per_solution, seed=args.seed,
                                    say=report.say, **_check_backends(args))
    except ArithmeticError as error:
        return _failed("cards", error)
    if args.json:
        print(json.dumps({**found.to_json(puzzle), "load": report.load()}))
    else:
        for line in found.lines():
            print(line)
        for n, card in enumerate(found.cards[:3] if found.least else [], 1):
            print(f"  card {n} (its class holds {card.orbit}): "
                  f"{cards.placed_words(puzzle, card.placed)}")
    if args.output:
        width = len(str(len(found.cards)))
        least = cards.pieces(found.least or 0)
        text = booklet_text(
            args.puzzle, [BookletCard(str(n).zfill(width), card.placed,
                                      f"one of {card.orbit} alike under the board's symmetries")
                          for n, card in enumerate(found.cards, 1)],
            [p.name for p in puzzle.pieces],
            f"{puzzle.title or puzzle.name}: the least cards ({least} placed)",
            [f"{plural(found.classes, 'card')} of {least} placed, one per class under the board's "
             f"symmetries ({found.labelled:,} labelled); written by puzzlesat cards"])
        note = report.write_text_atomic(args.output, text)
        report.say(f"wrote {args.output}: {plural(len(found.cards), 'card')}"
                   + (f" ({note})" if note else ""))
    if folder is not None:
        path = folder / "cards" / f"{puzzle.name}.json"
        report.check_folder(path.parent)
        result = {**found.to_json(puzzle, RECORDED_CARDS), "load": report.load()}
        report.write_json_atomic(path, {**result, "versions": report.versions(),
                                        "machine": report.machine(), "date": report.now()},
                                 "results")
        write_cards_index(path.parent)
        report.write_results_index(folder)
        report.say(f"wrote {path}")
    return 0


def write_cards_index(folder: Path) -> None:
    """RESULTS/cards/README.md: a table of the recorded cards searches, rebuilt from their JSON."""
    rows = []
    for path in sorted(folder.glob("*.json")):
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(found, dict) or "least" not in found:
            continue
        spread = found.get("per_solution") or {}
        each = ", ".join(f"{n:,} need {k}" for k, n in spread.items()) or "-"
        rows.append(f"| [{found['puzzle']}]({path.name}) | {found['solutions']:,} | "
                    f"{found['least']} | {found['labelled']:,} | {found['classes']:,} "
                    f"({found['group']['order']}) | {each} | "
                    f"{sum(found['seconds'].values()):.0f} (load {found.get('load', '?')}) |")
    text = "\n".join([
        "# Least cards", "",
        "Written by `puzzlesat cards PUZZLE --per-solution --record`; do not edit by hand.",
        "A card places pieces where one solution has them; it is unique when no other solution "
        "holds them all. `least`: the fewest pieces a unique card places; `labelled`: the "
        "unique cards of that many pieces, a card and its turned or mirrored images counted "
        "apart; `classes`: those cards under the board's symmetries (the group's order in "
        "brackets); `per solution`: how many solutions need how many pieces to make a card of "
        "them. `solutions` count rotations and reflections as different. Each JSON file says "
        "how it was found and checked.", "",
        "| puzzle | solutions | least | labelled | classes (symmetries) | per solution | "
        "seconds |", "|---|---:|---:|---:|---:|---|---:|", *rows, ""])
    report.write_text_atomic(folder / "README.md", text, "results")


def run_booklet(args: argparse.Namespace) -> int:
    from .. import api, booklet

    report.check_folder(args.output, "output", args.force)
    puzzle = api.load(args.puzzle)
    try:
        made = booklet.make_booklet(puzzle, args.cards, args.seed, backend=args.backend,
                                    say=report.say, **_check_backends(args))
    except ArithmeticError as error:
        return _failed("booklet", error)
    written = made.write(args.output, args.puzzle)
    if args.json:
        print(json.dumps({"puzzle": puzzle.name, "measure": made.measure,
                          "checks": made.checks, "files": written,
                          "cards": [{"name": c.name, "pieces_left": c.pieces_left,
                                     "nodes": c.nodes} for c in made.cards]}))
        return 0
    for line in made.lines():
        print(line)
    print(f"wrote {plural(len(written), 'file')} to {args.output}/: booklet.toml, "
          + ", ".join(sorted({Path(w).suffix for w in written} - {".toml"})))
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from .. import booklet

    for path in args.booklets:
        try:
            found = booklet.audit(path, args.backend, grade=not args.no_grade)
        except ArithmeticError as error:
            return _failed("audit", error)
        if args.json:
            print(json.dumps(found.to_json()))
        else:
            for line in found.lines():
                print(line)
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from ..benchmarks.cards import bench

    folder = report.record_folder(args)
    for line in bench(args.puzzles, args.repeat, folder, report.say):
        print(line)
    return 0
