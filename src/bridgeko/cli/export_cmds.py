"""``bridgeko export-site DIR [--edition SLUG]``: the public pages of the editions as static
files in DIR (relative links, the assets with them): open ``DIR/index.html`` from the disk or
publish DIR on any web host (README, "Publishing the results site"). Run again, it writes only
the files that changed and removes those of pages that are gone. Exit code 0; 2 for an unknown
edition or a directory that cannot be written (a one-line message)."""

from __future__ import annotations

import argparse
import sys

from bridgeko.cli import CommandError
from bridgeko.cli.web_cmds import CLI_LANGUAGE, setup_django

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

HELP = "write the public results site as static files into DIR (for any web host)"
CBS_HELP = "write the files Matrika ČBS imports for a finished edition into DIR"
USEBIO_HELP = "write an edition's matches board by board as USEBIO XML into FILE"


def _edition(slug: str) -> Any:
    from bridgeko.editions.models import Edition

    edition = Edition.objects.filter(slug=slug).first()
    if edition is None:
        known = ", ".join(Edition.objects.order_by("slug").values_list("slug", flat=True))
        raise CommandError(f"no edition {slug!r} (the editions: {known or 'none'})")
    return edition


def _write(folder: str, files: dict[str, bytes]) -> list[str]:
    from pathlib import Path

    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (target / name).write_bytes(data)
    except OSError as exc:
        raise CommandError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    return [str(target / name) for name in files]


def export_cbs(args: argparse.Namespace) -> int:
    """The three files of Matrika ČBS (players, teams, rankings) of a finished edition."""
    setup_django()
    from django.utils import translation

    from bridgeko.core.errors import ServiceError
    from bridgeko.matches import cbs

    with translation.override(CLI_LANGUAGE):
        edition = _edition(args.edition)
        try:
            out = cbs.files(edition)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        for path in _write(args.dir, out.files):
            print(path)
        for problem in out.problems:
            print(problem, file=sys.stderr)
    return 0


def export_site(args: argparse.Namespace) -> int:
    setup_django()
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


def export_usebio(args: argparse.Namespace) -> int:
    """The edition's teams, places and matches board by board as USEBIO 1.3 XML."""
    setup_django()
    from pathlib import Path

    from django.utils import translation

    from bridgeko.boards import exports
    from bridgeko.core.errors import ServiceError

    with translation.override(CLI_LANGUAGE):
        edition = _edition(args.edition)
        try:
            data = exports.usebio_document(edition)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
    target = Path(args.file)
    _write(str(target.parent), {target.name: data})
    print(f"{target}: {len(data):,} bytes")
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
    c = sub.add_parser(
        "export-cbs",
        help=CBS_HELP,
        description=(
            "Writes players.csv, teams.csv and rankings.csv of a finished edition into DIR, as "
            "Matrika ČBS (the Czech Bridge Federation's register) imports a teams event: "
            "Windows-1250, comma-separated, the teams by their draw numbers, the places of the "
            "final standings (5-8 shared), the IMPs won and lost. Players without a ČBS number "
            "are listed on stderr. The same files are a download of the Standings page."
        ),
        epilog="example: bridgeko export-cbs --edition ko-1998 ./matrika",
    )
    c.add_argument("dir", metavar="DIR", help="the target directory (made when missing)")
    c.add_argument("--edition", required=True, metavar="SLUG", help="the edition's short name")
    c.set_defaults(handler=export_cbs)
    u = sub.add_parser(
        "export-usebio",
        help=USEBIO_HELP,
        description=(
            "Writes the edition's teams (with their places), its matches and each board's "
            "results in both rooms as USEBIO 1.3 XML (the EBU's exchange format, read by "
            "results sites), into FILE. The deals are written for the segments that have ended "
            "(I15). The same file is a download of the public standings page."
        ),
        epilog="example: bridgeko export-usebio --edition ko-1998 ko-1998.xml",
    )
    u.add_argument("file", metavar="FILE", help="the XML file to write")
    u.add_argument("--edition", required=True, metavar="SLUG", help="the edition's short name")
    u.set_defaults(handler=export_usebio)
