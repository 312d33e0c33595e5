"""``bridgeko analyse``: double-dummy tables and par of every deal of a PBN file.

A thin shell: the file is read with :mod:`bridgeko.bridge.pbn`, the deals are solved with
:mod:`bridgeko.bridge.analysis` (DDS, through endplay: imported only when the command runs) and
written in by :mod:`bridgeko.bridge.annotate`.
"""

from __future__ import annotations

import argparse
import os
import sys

from bridgeko.cli import CommandError
from bridgeko.cli.common import check_writable, encoding_option, output, progress, read_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``analyse`` (``analyze``) to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="double-dummy tables and par of every deal of a PBN file",
        description=(
            "Compute the double-dummy table (tricks for each declarer and strain) and the par "
            "of every deal of a PBN file, and write the file again with OptimumResultTable, "
            "OptimumScore and ParContract tags (in UTF-8). A game that cannot be read is "
            "skipped with a warning naming its line, unless --strict. "
            "Example: bridgeko analyse qf1.pbn -o qf1-dd.pbn"
        ),
    )
    p.add_argument("file", metavar="FILE.pbn", help="the PBN file to analyse")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT.pbn",
        help="write to OUT.pbn instead of stdout (the input file itself only with --force)",
    )
    p.add_argument("--force", action="store_true", help="let -o replace the input file")
    p.add_argument(
        "--strict", action="store_true", help="stop at the first game that cannot be read"
    )
    encoding_option(p)
    p.add_argument(
        "--json", action="store_true", help="print the tables and pars as JSON instead of PBN"
    )
    p.set_defaults(handler=cmd_analyse)


def _same_file(a: str, b: str) -> bool:
    from pathlib import Path

    try:
        return Path(a).resolve() == Path(b).resolve() or (
            Path(b).exists() and os.path.samefile(a, b)
        )
    except OSError:
        return False


def cmd_analyse(args: argparse.Namespace) -> int:
    from bridgeko.bridge import annotate, pbn

    text = read_text(args.file, args.encoding)
    if args.output is not None:  # checked before the long work, not after it
        if _same_file(args.file, args.output) and not args.force:
            raise CommandError(
                f"-o {args.output} is the input file: give another file, or --force to replace it"
            )
        check_writable(args.output)
    try:
        read = pbn.parse(text, lenient=not args.strict)
    except pbn.PbnError as exc:
        raise CommandError(f"{args.file}: {exc} (without --strict the game is skipped)") from None
    for problem in read.problems:
        print(f"bridgeko: warning: {args.file}: {problem}", file=sys.stderr)
    games = list(read.games)
    skipped = sum(1 for p in read.problems if p.message.startswith("skipped"))
    if not games:
        why = f"no game could be read ({skipped} skipped)" if skipped else "no PBN game in it"
        raise CommandError(f"{args.file}: nothing to analyse: {why}")
    deals = annotate.deals_to_solve(games)
    if not deals:
        raise CommandError(
            f"{args.file}: no complete deal to analyse (none of its {len(games)} game(s) has a "
            "Deal tag with 13 cards in each hand)"
        )
    from bridgeko.bridge import analysis  # endplay: loaded only by the commands that use it

    with progress(len(deals), "double dummy") as update:
        tables = analysis.dd_tables(deals, progress=update)
    done = annotate.annotate(games, tables, par_of=analysis.par_of_table)
    with output(args.output) as write:
        if args.json:
            import json

            records = [a.to_dict() for a in done.annotations]
            write(json.dumps(records, ensure_ascii=False, indent=2) + "\n")
        else:
            for piece in pbn.iter_dumps(done.games):
                write(piece)
    notes = []
    if done.left:
        notes.append(f"{done.left} game(s) without a complete deal left as they were")
    if skipped:
        notes.append(f"{skipped} game(s) skipped (see the warnings above)")
    where = f" to {args.output}" if args.output is not None else ""
    print(
        f"analysed {done.solved} deal(s) in {len(done.annotations)} game(s){where}"
        + (f"; {'; '.join(notes)}" if notes else ""),
        file=sys.stderr,
    )
    return 0
