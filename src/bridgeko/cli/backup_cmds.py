"""``bridgeko backup FILE`` and ``bridgeko restore FILE [--force]``: thin shells over
:mod:`bridgeko.core.backup` (the format and what it holds are described there and in the README).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bridgeko.cli import CommandError
from bridgeko.cli.web_cmds import CLI_LANGUAGE, setup_django


def _size(path: Path) -> str:
    size = path.stat().st_size
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{max(1, size // 1000)} kB"


def backup(args: argparse.Namespace) -> int:
    """Writes a snapshot of the database (while the server runs) to FILE."""
    setup_django()
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):  # the tables' names in English
        return _backup(Path(args.file))


def _backup(path: Path) -> int:
    from django.db import DatabaseError

    from bridgeko.core.backup import BackupError, write_backup

    try:
        result = write_backup(path)
    except BackupError as exc:
        raise CommandError(str(exc)) from None
    except DatabaseError as exc:
        raise CommandError(f"cannot read the database: {_first_line(exc)}") from None
    print(
        f"Backup written to {path} ({_size(path)}): {result.describe()}; "
        f"{result.objects} rows, {result.files} uploaded files."
    )
    return 0


def restore(args: argparse.Namespace) -> int:
    """Loads a backup into an empty database (``--force``: replaces everything in it)."""
    setup_django()
    from django.utils import translation

    with translation.override(CLI_LANGUAGE):
        return _restore(Path(args.file), force=args.force)


def _restore(path: Path, *, force: bool) -> int:
    from django.db import DatabaseError

    from bridgeko.core.backup import BackupError, describe_counts, restore_backup

    try:
        result = restore_backup(path, force=force)
    except BackupError as exc:
        raise CommandError(str(exc)) from None
    except DatabaseError as exc:
        raise CommandError(f"the restore failed, nothing changed: {_first_line(exc)}") from None
    header = result.header
    print(
        f"Restored {path} (made {header.created_at} by bridgeko {header.bridgeko} on "
        f"{header.database}): {result.describe()}; {result.objects} rows, "
        f"{result.files} uploaded files."
    )
    if result.replaced:
        print(f"Replaced what the database held: {describe_counts(result.replaced)}.")
    print("Everyone logs in again (logins are not part of a backup).")
    return 0


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds this module's commands to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "backup",
        help="write a snapshot of the whole database to a file (while the server runs)",
        description=(
            "Writes every edition, player, team, draw, account and audit entry (the whole "
            "database, SQLite or PostgreSQL, and any uploaded files) to FILE: a gzip-compressed "
            "bridgeko backup, consistent even while the server runs. The file is written under a "
            "temporary name and renamed at the end, with mode 0600: it holds password hashes "
            "and personal data. Logins (sessions) are not included."
        ),
        epilog="example: bridgeko backup backups/ko-1999-$(date +%%Y%%m%%d-%%H%%M).bridgeko.gz",
    )
    p.add_argument("file", metavar="FILE", help="the backup file to write (replaced if it exists)")
    p.set_defaults(handler=backup)

    p = sub.add_parser(
        "restore",
        help="load a backup into an empty database (--force replaces a database's data)",
        description=(
            "Loads a backup written by 'bridgeko backup' into the database (on SQLite or "
            "PostgreSQL, whichever the backup came from), in one transaction: all of it or "
            "nothing. A new database gets its tables first; the backup must come from the "
            "same bridgeko version (schema). A database that already holds data is refused "
            "unless --force. "
            "Everyone logs in again afterwards."
        ),
        epilog=("example: BRIDGEKO_DATA_DIR=/srv/bridgeko bridgeko restore ko-1999.bridgeko.gz"),
    )
    p.add_argument("file", metavar="FILE", help="the backup file to load")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace everything the database holds (all editions, accounts, audit log) "
        "with the backup's content",
    )
    p.set_defaults(handler=restore)
