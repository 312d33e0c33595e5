"""Results from Bridgemate terminals (issue 20), through the services of the TD's import page
(:mod:`bridgeko.matches.bws_import`):

- ``bridgeko import-bws FILE --edition SLUG --match CODE --open TABLE --closed TABLE
  [--section LETTER_OR_ID] [--segment N] [--replace] [--follow SECONDS] [--user NAME]``: the
  results of the two tables, all or nothing; with ``--follow`` the file is read again every
  SECONDS while the segment is played, each result stored as it arrives, until the segment (or
  the match) is over or the command is stopped (Ctrl+C).
- ``bridgeko follow [--every SECONDS]``: follows every file a TD switched on on a match's
  *Import from Bridgemate* page (the server's own copy of BCS's file), until stopped.

Messages in English like every command; one line per problem on stderr, exit code 2 on an
error (nothing stored then)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bridgeko.cli import CommandError
from bridgeko.cli.import_results import match_of, read_bytes, report, user_of
from bridgeko.cli.web_cmds import CLI_LANGUAGE, setup_django

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

IMPORT_HELP = "import a match's results from a Bridgemate (BCS .bws) file, or follow it live"
FOLLOW_HELP = "follow the Bridgemate files switched on in the TD's pages (results live)"

sleep: Callable[[float], None] = time.sleep
"""How the followers wait between two reads (a test replaces it)."""


def import_bws(args: argparse.Namespace) -> int:
    setup_django()
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):
        return _import(args)


def _import(args: argparse.Namespace) -> int:
    from django.utils import timezone

    from bridgeko.core.errors import ServiceError
    from bridgeko.matches import bws_import

    match = match_of(args.edition, args.match)
    user = user_of(args.user)
    tables = bws_import.Tables(open=args.open, closed=args.closed, section=args.section or "")
    path = Path(args.file)
    try:
        bws_import.remember(
            match=match, tables=tables, segment=args.segment, user=user, now=timezone.now()
        )
    except ServiceError as exc:
        raise CommandError("\n".join([exc.message, *exc.errors])) from None
    if args.follow is not None:
        return _follow(args, match, tables, path, user)
    data = read_bytes(path)
    return report(
        match,
        lambda: bws_import.import_results(
            match=match,
            data=data,
            tables=tables,
            user=user,
            now=timezone.now(),
            replace=args.replace,
            segment=args.segment,
        ),
    )


def _row_line(code: str, row: Any) -> str:
    room = "open room" if row.room == "open" else "closed room"
    if row.erases:
        return f"{code} board {row.board}, {room}: erased at the table (was {row.old})"
    was = f" (was {row.old})" if row.old else ""
    return f"{code} board {row.board}, {room}: {row.new}{was}"


def _follow(args: argparse.Namespace, match: Any, tables: Any, path: Path, user: Any) -> int:
    from django.utils import timezone

    from bridgeko.matches import bws_import

    if args.follow <= 0:
        raise CommandError("--follow takes the seconds between two reads, more than 0")
    seen: dict[str, int] = {}
    reported: tuple[str, ...] = ()
    last_error = ""
    stored = 0
    what = f"segment {args.segment}" if args.segment else "the match"
    print(f"{match.code}: following {path} every {args.follow:g} s until {what} is over")
    sys.stdout.flush()
    try:
        while True:
            try:
                data = path.read_bytes()
            except OSError as exc:
                step = bws_import.FollowStep(
                    error=f"cannot read {path}: {exc.strerror or exc}", seen=seen
                )
            else:
                match.refresh_from_db()
                step = bws_import.follow_step(
                    match=match,
                    data=data,
                    tables=tables,
                    segment=args.segment,
                    seen=seen,
                    user=user,
                    now=timezone.now(),
                    replace=args.replace,
                    reported=reported,
                )
            seen, reported = dict(step.seen), step.reported
            for row in step.stored:
                print(_row_line(match.code, row))
            stored += len(step.stored)
            for problem in step.problems:
                print(problem, file=sys.stderr)
            for row in step.left:
                print(
                    f"{match.code} board {row.board}: stored {row.old!r} differs from the "
                    f"table's {row.new or 'erasure'!r}; left as stored (--replace to take the "
                    "table's)",
                    file=sys.stderr,
                )
            if step.error != last_error:
                if step.error:
                    print(f"not read this time: {step.error}", file=sys.stderr)
                last_error = step.error
            sys.stdout.flush()
            if step.finished:
                print(f"{match.code}: {what} is over; {stored} results stored while following.")
                return 0
            sleep(args.follow)
    except KeyboardInterrupt:
        print(f"{match.code}: stopped; {stored} results stored while following.")
        return 0


def follow(args: argparse.Namespace) -> int:
    setup_django()
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):
        return _follow_all(args)


def _follow_all(args: argparse.Namespace) -> int:
    from bridgeko.matches import bws_follow

    if args.every <= 0:
        raise CommandError("--every takes the seconds between two reads, more than 0")
    print(f"following the Bridgemate files switched on in the pages, every {args.every:g} s")
    sys.stdout.flush()
    try:
        while True:
            for line in bws_follow.read_all():
                print(line)
            sys.stdout.flush()
            if args.once:
                return 0
            sleep(args.every)
    except KeyboardInterrupt:
        print("stopped.")
        return 0


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's commands to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "import-bws",
        help=IMPORT_HELP,
        description=(
            "Stores a match's results from the .bws file Bridgemate Control Software writes "
            "(an MS Access database, read without Access or ODBC): the last record each of the "
            "two tables sent for each board (a correction is a later record; an erased one "
            "takes the result back). All or nothing; a result different from the stored one is "
            "refused unless --replace. Without --segment the file's board numbers are the "
            "match's; with --segment N, boards numbered from 1 are the segment's. --follow "
            "SECONDS reads the file again every SECONDS while the segment is played and stores "
            "each result as it arrives, until the segment is over. The tables are remembered "
            "for the match's import page. Messages in English; one line per problem, exit code "
            "2 on an error."
        ),
        epilog=(
            "example: bridgeko import-bws --edition ko-1999 --match QF1 --segment 2 "
            "--open 1 --closed 2 --follow 2 'C:/BCS/QF.bws'"
        ),
    )
    p.add_argument("file", metavar="FILE", help="the Bridgemate file (.bws)")
    p.add_argument("--edition", required=True, help="the edition's short name, e.g. ko-1999")
    p.add_argument("--match", required=True, help="the match's code, e.g. R1-M2 or QF1")
    p.add_argument("--open", type=int, required=True, metavar="TABLE", help="the open room's table")
    p.add_argument(
        "--closed", type=int, required=True, metavar="TABLE", help="the closed room's table"
    )
    p.add_argument(
        "--section",
        default=None,
        metavar="LETTER_OR_ID",
        help="the section of the two tables (needed when the file has several)",
    )
    p.add_argument(
        "--segment",
        type=int,
        default=None,
        metavar="N",
        help="the file holds segment N (its boards may be numbered from 1)",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="replace stored results that differ from the file's (else they are refused)",
    )
    p.add_argument(
        "--follow",
        type=float,
        default=None,
        metavar="SECONDS",
        help="read the file again every SECONDS until the segment is over",
    )
    p.add_argument("--user", default=None, help="account recorded in the audit log")
    p.set_defaults(handler=import_bws)
    f = sub.add_parser(
        "follow",
        help=FOLLOW_HELP,
        description=(
            "Reads every Bridgemate file a TD switched on (Follow this file, on a match's "
            "Import from Bridgemate page) every SECONDS and stores each result as it arrives, "
            "until stopped; a file stops being followed when its segment is over. Run it on the "
            "server next to `bridgeko serve` while matches are played."
        ),
    )
    f.add_argument(
        "--every", type=float, default=2.0, metavar="SECONDS", help="seconds between reads (2)"
    )
    f.add_argument("--once", action="store_true", help="read every followed file once and stop")
    f.set_defaults(handler=follow)
