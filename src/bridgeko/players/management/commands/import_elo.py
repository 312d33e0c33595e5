"""``manage.py import_elo FILE --edition SLUG --columns id=1,name=2,elo=4,club=3``"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bridgeko.core.errors import ServiceError
from bridgeko.players.cli import MISSING_HELP, run_import_command


class Command(BaseCommand):
    help = "Import the federation's Elo list (CSV with semicolons) for an edition's date."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--edition", required=True, help="the edition's short name")
        parser.add_argument(
            "--columns",
            required=True,
            help="id=N,name=N[,elo=N,club=N,member=N]: column numbers from 1 or header names",
        )
        parser.add_argument("--encoding", default=None, help="utf-8 or cp1250 (default: detect)")
        parser.add_argument("--no-header", action="store_true", help="the file has no header")
        parser.add_argument("--user", default=None, help="account recorded in the audit log")
        parser.add_argument("--missing", choices=("keep", "drop"), default=None, help=MISSING_HELP)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            message = run_import_command(
                path=options["file"],
                edition_slug=options["edition"],
                columns=options["columns"],
                encoding=options["encoding"],
                has_header=not options["no_header"],
                username=options["user"],
                missing=options["missing"],
            )
        except ServiceError as exc:
            raise CommandError("\n".join([exc.message, *exc.errors])) from None
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(message)
