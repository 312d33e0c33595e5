"""``bridgeko analyse-pending [--edition SLUG]``: the double-dummy analysis of every set of
boards not fully analysed (:func:`bridgeko.boards.services.analyse_set`, board by board, each
board saved when done), for a worker or cron and after a restart of the server, whose
background threads stopped with it. Prints one line a set; exit code 1 when one failed."""

from __future__ import annotations

import argparse
import os

from bridgeko.cli import CommandError
from bridgeko.cli.web_cmds import CLI_LANGUAGE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

HELP = "analyse (double dummy) every set of boards not fully analysed"


def analyse_pending(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
    import django

    django.setup()
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from bridgeko.boards import services
    from bridgeko.boards.models import DealSet
    from bridgeko.editions.models import Edition

    if args.edition is not None and not Edition.objects.filter(slug=args.edition).exists():
        raise CommandError(f"no edition {args.edition!r}")
    failed = 0
    pending = services.pending_sets(args.edition)
    for set_id in pending:
        deal_set = DealSet.objects.select_related("segment__match__edition").get(pk=set_id)
        name = f"{deal_set.segment.match.edition.slug} {deal_set.segment}"
        try:
            services.analyse_set(set_id)
        except Exception as exc:  # recorded on the set; the next set is analysed all the same
            failed += 1
            print(f"{name}: failed: {exc}")
            continue
        p = services.progress(deal_set)
        print(f"{name}: {p.done} of {p.total} boards analysed")
    if not pending:
        print("nothing to analyse")
    return 1 if failed else 0


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's command to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "analyse-pending",
        help=HELP,
        description=(
            "Fills the double-dummy table and par of every board of the sets of boards whose "
            "analysis is missing, failed or stopped (the web application runs it in the "
            "background after a set is made or loaded; run this after a restart, or from a "
            "worker or cron). One line a set; exit code 1 when an analysis failed."
        ),
        epilog="example: bridgeko analyse-pending --edition ko-1999",
    )
    p.add_argument("--edition", default=None, help="only the sets of this edition, e.g. ko-1999")
    p.set_defaults(handler=analyse_pending)
