"""``bridgeko send-mail [--retry-failed]``: sends the mail to captains still queued (a server
stopped before its background sending ended) and, with ``--retry-failed``, the mail that
failed (the mail server was down). Prints what it sent; exit code 1 when a mail failed."""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

HELP = "send the queued mail to captains (--retry-failed: also the mail that failed)"


def send_mail(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
    import django

    django.setup()
    from bridgeko.mail import services
    from bridgeko.mail.models import Outbox

    ids = services.pending(retry_failed=args.retry_failed)
    if not ids:
        print("nothing to send")
        return 0
    sent, failed = services.send(ids)
    print(
        f"{sent} sent, {failed} failed"
        + (f", {len(ids) - sent - failed} skipped" if len(ids) > sent + failed else "")
    )
    if failed:
        for row in Outbox.objects.filter(pk__in=ids, status="failed").order_by("id"):
            print(f"{row.to}: {row.subject}: {row.error}", file=sys.stderr)
        return 1
    return 0


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's command to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "send-mail",
        help=HELP,
        description=(
            "Sends the mail to captains that is still queued (the web application sends each "
            "mail in the background after the action that caused it; a mail left queued by a "
            "stopped server, or one that failed, is sent here). The mail server is the one of "
            "the EMAIL_* environment variables. Exit code 1 when a mail failed (listed on "
            "stderr with the server's error)."
        ),
        epilog="example: bridgeko send-mail --retry-failed",
    )
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="also send again the mail that failed before",
    )
    p.set_defaults(handler=send_mail)
