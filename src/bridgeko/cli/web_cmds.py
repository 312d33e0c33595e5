"""Web commands: ``bridgeko serve``, ``bridgeko manage ...``, ``bridgeko import-elo``.

Thin shells: they set up Django and hand over to Django's commands and the players service.
"""

from __future__ import annotations

import argparse
import os

from bridgeko.cli import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

CLI_LANGUAGE = "en"
"""The language of the ``bridgeko`` commands' output: English, like the rest of the command line
(the web application's default language, Czech, is for its pages)."""


def setup_django() -> None:
    """Django set up with the project's settings (a command that needs the web application)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
    import django

    django.setup()


def serve(args: argparse.Namespace) -> int:
    """Applies the migrations, then runs the development server (it serves /static/ too)."""
    setup_django()
    from django.core.management import call_command
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):  # the pages follow each visitor's language
        call_command("migrate", interactive=False, verbosity=1)
        call_command("runserver", f"{args.host}:{args.port}", use_reloader=False)
    return 0


def manage(args: argparse.Namespace) -> int:
    """Passes the arguments through to Django's ``manage.py``."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(["bridgeko manage", *args.args])
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) else 1
    return 0


def import_elo(args: argparse.Namespace) -> int:
    """Imports the federation's Elo list for an edition (nothing when any row is bad)."""
    setup_django()
    from django.utils import translation

    from bridgeko.core.errors import ServiceError
    from bridgeko.players.cli import run_import_command

    with translation.override(CLI_LANGUAGE):  # the messages in English, as every command's
        try:
            message = run_import_command(
                path=args.file,
                edition_slug=args.edition,
                columns=args.columns,
                encoding=args.encoding,
                has_header=not args.no_header,
                username=args.user,
                missing=args.missing,
            )
        except ServiceError as exc:
            raise CommandError("\n".join([exc.message, *exc.errors])) from None
    print(message)
    return 0


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's commands to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "serve",
        help="migrate the database and run the web application",
        description=(
            "Applies the database migrations, then runs the web application with Django's "
            "development server (it serves the static files too), until Ctrl+C. "
            "Its messages are in English."
        ),
        epilog="example: bridgeko serve --host 0.0.0.0 --port 8080",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; 0.0.0.0 for every interface"
    )
    p.add_argument("--port", type=int, default=8000, help="TCP port to listen on")
    p.set_defaults(handler=serve)
    p = sub.add_parser(
        "manage",
        help="run a Django management command (bridgeko manage createsuperuser ...)",
        add_help=False,
    )
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(handler=manage, passthrough=True)

    p = sub.add_parser(
        "import-elo",
        help="import the federation's Elo list (CSV) for an edition",
        description=(
            "Imports the federation's Elo list (a CSV file) into the player register for the "
            "edition's reference date (R10.1). Nothing is imported when any line is bad; every "
            "problem is listed. Its messages are in English, like every bridgeko command."
        ),
        epilog=(
            "example: bridgeko import-elo elo-1998-06.csv --edition ko-1999 "
            "--columns id=1,name=2,club=3,elo=4,member=5"
        ),
    )
    p.add_argument(
        "file",
        metavar="FILE",
        help="the CSV file of the Elo list (semicolon-separated, UTF-8 or cp1250)",
    )
    p.add_argument("--edition", required=True, help="the edition's short name, e.g. ko-1999")
    p.add_argument(
        "--columns",
        required=True,
        help=(
            "id=N,name=N[,elo=N,club=N,member=N]: column numbers from 1, or names from the "
            "header row (names need a header row)"
        ),
    )
    p.add_argument("--encoding", default=None, help="utf-8 or cp1250 (default: detect)")
    p.add_argument("--no-header", action="store_true", help="the file has no header line")
    p.add_argument("--user", default=None, help="account recorded in the audit log")
    p.add_argument(
        "--missing",
        choices=("keep", "drop"),
        default=None,
        help=(
            "what happens to the players of the date's current list who are not in the file: "
            "keep their ratings, or drop them (needed when the file lacks any)"
        ),
    )
    p.set_defaults(handler=import_elo)
