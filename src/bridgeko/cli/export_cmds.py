"""``bridgeko export-site DIR [--edition SLUG]``: the public pages of the editions as static
files in DIR (relative links, the assets with them): open ``DIR/index.html`` from the disk or
publish DIR on any web host (README, "Publishing the results site"). Run again, it writes only
the files that changed and removes those of pages that are gone. Exit code 0; 2 for an unknown
edition or a directory that cannot be written (a one-line message)."""

from __future__ import annotations

import argparse
import os
import sys

from bridgeko.cli import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

HELP = "write the public results site as static files into DIR (for any web host)"


def export_site(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
    import django

    django.setup()
    from bridgeko.editions.models import Edition
    from bridgeko.public import export

    if args.edition:
        editions = list(Edition.objects.filter(slug__in=args.edition))
        missing = sorted(set(args.edition) - {e.slug for e in editions})
        if missing:
            known = ", ".join(Edition.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(f"no edition {', '.join(missing)} (the editions: {known or 'none'})")
    else:  # every edition: the public pages show every one (the edition list's rule)
        editions = list(Edition.objects.order_by("-year", "slug"))
        if not editions:
            raise CommandError("there is no edition to export")

    def warn(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr)

    try:
        summary = export.export_site(args.dir, editions, warn=warn)
    except export.ExportError as exc:
        raise CommandError(str(exc)) from exc
    print(f"{args.dir}: {summary.line()}")
    return 0


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's command to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "export-site",
        help=HELP,
        description=(
            "Writes the public pages (both languages), live.json and the assets of the editions "
            "into DIR as static files with relative links: they work opened from the disk and "
            "on any web host (publish DIR with rsync or an FTP mirror). Only the files whose "
            "bytes changed are written; the files of pages that are gone are removed (only "
            "those the export wrote, listed in DIR/.bridgeko-export.json). Hand records appear "
            "once their segment has ended in both rooms. With BRIDGEKO_PUBLIC_DIR set, the "
            "server re-exports after every change by itself."
        ),
        epilog="example: bridgeko export-site /srv/www/ko --edition ko-2026",
    )
    p.add_argument("dir", metavar="DIR", help="the target directory (made when missing)")
    p.add_argument(
        "--edition",
        metavar="SLUG",
        action="append",
        help="export only this edition (repeatable; default: every edition)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no warning lines for skipped pages")
    p.set_defaults(handler=export_site)
