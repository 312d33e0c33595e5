"""``bridgeko import-results --edition SLUG --match CODE FILE.pbn|FILE.lin [--replace] [--segment N]
[--user USERNAME]``: a match's results from a PBN or LIN file, through the same service as the TD's
import page (:mod:`bridgeko.matches.file_import`: PBN or LIN): all or nothing, in one transaction.

On success it prints the summary (new, the same as stored, replaced) and lists on stderr what
the file held but was not imported (a game without a result, a board the match has not); on an
error it prints one line per problem to stderr and exits 2, having stored nothing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bridgeko.cli import CommandError
from bridgeko.cli.web_cmds import CLI_LANGUAGE, setup_django

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

HELP = "import a match's results from a PBN or LIN file (the whole match or one segment)"


def import_results(args: argparse.Namespace) -> int:
    """Imports the results of FILE into the match; nothing when any of them is refused."""
    setup_django()
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):  # the messages in English, as every command's
        return _import(args)


def match_of(edition_slug: str, code: str) -> Any:
    """The match ``code`` of the edition ``edition_slug``, or a :class:`CommandError` naming
    what there is."""
    from bridgeko.editions.models import Edition
    from bridgeko.matches.models import Match

    edition = Edition.objects.filter(slug=edition_slug).first()
    if edition is None:
        raise CommandError(f"no edition {edition_slug!r}")
    match = (
        Match.objects.select_related("home", "visitors", "edition")
        .filter(edition=edition, code=code)
        .first()
    )
    if match is None:
        codes = ", ".join(Match.objects.filter(edition=edition).values_list("code", flat=True))
        raise CommandError(
            f"edition {edition.slug!r} has no match {code!r}"
            + (f" (its matches: {codes})" if codes else " (the draw is not held yet)")
        )
    return match


def user_of(name: str | None) -> Any:
    """The account recorded in the audit log (None when not given)."""
    from django.contrib.auth import get_user_model

    if not name:
        return None
    user = get_user_model().objects.filter(username=name).first()
    if user is None:
        raise CommandError(f"no account {name!r}")
    return user


def read_bytes(path: Path) -> bytes:
    """The file's bytes, read at once."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None


def report(match: Any, run: Callable[[], Any]) -> int:
    """Runs an import (``run()`` returns its preview), prints what it did — the problems on
    stderr, the summary on stdout — or raises a :class:`CommandError` with one line per
    problem (the differences with the hint to ``--replace``)."""
    from bridgeko.core.errors import ServiceError
    from bridgeko.matches.result_import import DifferencesFound

    try:
        done = run()
    except DifferencesFound as exc:
        hint = "run again with --replace to store the file's results instead"
        raise CommandError("\n".join([exc.message, *exc.errors, hint])) from None
    except ServiceError as exc:
        raise CommandError("\n".join([exc.message, *exc.errors])) from None
    for problem in done.problems:
        print(problem, file=sys.stderr)
    new, same, replaced = done.count("new"), done.count("same"), done.count("different")
    print(
        f"{match.code}: {new} new, {same} the same as stored, {replaced} replaced"
        + (f"; {len(done.problems)} not imported (listed above)" if done.problems else "")
        + "."
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    from django.utils import timezone

    from bridgeko.matches import file_import

    match = match_of(args.edition, args.match)
    user = user_of(args.user)
    data = read_bytes(Path(args.file))
    return report(
        match,
        lambda: file_import.import_results(
            match=match,
            data=data,
            user=user,
            now=timezone.now(),
            replace=args.replace,
            segment=args.segment,
        ),
    )


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's command to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "import-results",
        help=HELP,
        description=(
            "Stores a match's results from a PBN file (PBN 2.1 exports of scoring programs and "
            "online platforms; UTF-8 or Windows-1250) or a LIN file (BBO vugraph and team "
            "matches: the auctions and the play are stored too), through the same service as the "
            "TD's import page: all or nothing. A PBN file's tables are told apart by the Room "
            "tag, else by the team sitting North-South, else by the Table tag (1 open, 2 closed); "
            "a LIN file's by its open and closed rooms (qx|o|, qx|c|). A result "
            "different from the stored one is refused unless --replace. Its messages are in "
            "English, like every bridgeko command; one line per problem, exit code 2 on an error."
        ),
        epilog=(
            "example: bridgeko import-results --edition ko-1999 --match R1-M2 "
            "--segment 2 round1-segment2.pbn"
        ),
    )
    p.add_argument(
        "file", metavar="FILE", help="the PBN (.pbn) or LIN (.lin) file of the match or a segment"
    )
    p.add_argument("--edition", required=True, help="the edition's short name, e.g. ko-1999")
    p.add_argument("--match", required=True, help="the match's code, e.g. R1-M2 or QF1")
    p.add_argument(
        "--segment",
        type=int,
        default=None,
        metavar="N",
        help="the file holds segment N only (its boards may be numbered from 1)",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="replace stored results that differ from the file's (else they are refused)",
    )
    p.add_argument("--user", default=None, help="account recorded in the audit log")
    p.set_defaults(handler=import_results)
