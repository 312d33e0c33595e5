"""Backup and restore of the whole database: ``bridgeko backup FILE`` / ``bridgeko restore FILE``.

The format (``bridgeko-backup``, version 1) is a gzip-compressed text file of JSON lines, the
same on SQLite and PostgreSQL (a backup made on one restores on the other):

1. a **header**: ``{"format": "bridgeko-backup", "format_version": 1, "bridgeko": "0.1.0",
   "created_at": ..., "database": "sqlite", "migrations": {"<app>": ["0001_initial", ...]},
   "counts": {"<app>.<model>": N, ...}}`` — the migrations applied to the database that was
   backed up (its schema), and how many rows each model had;
2. one line per **row**, in Django's serializer format (``{"model": "editions.edition",
   "pk": 1, "fields": {...}}``), models in dependency order, foreign keys to users, content types
   and permissions by their natural keys (content type and permission ids differ between
   databases); date-times keep their microseconds;
3. one line per **uploaded file** under ``MEDIA_ROOT`` (``{"file": "relative/path", "data":
   "<base64>"}``) — the captains' convention cards (``entries.ConventionCard``, R3.1b);
4. a **trailer**: ``{"end": "bridgeko-backup", "objects": N, "files": M}`` — a file without
   it was cut short.

Left out: content types and permissions (``migrate`` makes them; rows refer to them by natural
key) and sessions (the logins: they depend on the secret key, and a session copied into another
database would log its bearer in as whoever has that user id there). After a restore everyone
logs in again. The file holds password hashes and personal data: it is written with mode 0600.

**Consistency**: the backup reads every table in one read transaction (on PostgreSQL ``REPEATABLE
READ``), so it is a snapshot of one moment even while the server runs and TDs keep entering
data. It is written to a temporary file next to ``FILE`` and renamed at the end: ``FILE`` is
either the old file or the complete new one.

**Restore** first reads and checks the whole file (no database work on a damaged file), then
loads every row in one transaction: either all of it is there or nothing changed. The rows are
loaded with this bridgeko's models, so the backup's schema (its migrations) must be this
bridgeko's: a backup made by a newer bridgeko is refused (upgrade first), so is one made by an
older bridgeko at an older schema (restore it with the version it names, then upgrade: the
upgrade's migrations bring the data forward). A new database is migrated first (its tables).
A database that holds data is refused unless ``force``, which replaces everything in it.

Errors are :class:`BackupError`, with a message for the command line.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO
from uuid import UUID

import bridgeko  # its version (``from bridgeko import ...`` reads as an app to the layer test)

FORMAT = "bridgeko-backup"
FORMAT_VERSION = 1
EXCLUDED_MODELS = frozenset({"contenttypes.contenttype", "auth.permission", "sessions.session"})
"""Not in a backup: made by ``migrate`` (content types, permissions) or logins (sessions)."""
WIPED_NOT_RESTORED = frozenset({"sessions.session"})
"""Emptied by a restore with ``force`` although not in the backup."""
HEADLINE_MODELS = ("editions.edition", "entries.team", "players.player", "auth.user")
"""Named first when a restore refuses a database that holds data."""
BATCH = 500
"""Rows serialised at a time (the memory a backup needs does not grow with the database)."""


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why (one line)."""


@dataclass
class Header:
    """What a backup file says about itself (its first line)."""

    bridgeko: str
    created_at: str
    database: str
    migrations: dict[str, list[str]]
    counts: dict[str, int]
    format_version: int = FORMAT_VERSION

    def migration_set(self) -> set[tuple[str, str]]:
        return {(app, name) for app, names in self.migrations.items() for name in names}


@dataclass
class Result:
    """What a backup wrote or a restore loaded."""

    path: Path
    header: Header
    objects: int
    files: int
    replaced: dict[str, int] = field(default_factory=dict)
    """With ``force``: what the database held before it was replaced."""

    def describe(self) -> str:
        return describe_counts(self.header.counts) or "no data"


# --- the file -------------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    """JSON for what Django's python serializer leaves as Python values (full precision)."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal | UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError(f"cannot write {type(value).__name__} to a backup")


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, default=_encode) + "\n").encode("utf-8")


def _read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, JSON object) of every line; damage is a :class:`BackupError`."""
    number = 0
    try:
        with gzip.open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    data = json.loads(raw)
                except ValueError:
                    if number == 1:
                        raise BackupError(f"{path}: not a bridgeko backup") from None
                    raise BackupError(f"{path}: line {number} is damaged") from None
                if not isinstance(data, dict):
                    if number == 1:
                        raise BackupError(f"{path}: not a bridgeko backup")
                    raise BackupError(f"{path}: line {number} is damaged")
                yield number, data
    except FileNotFoundError:
        raise BackupError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BackupError(f"{path}: is a directory, not a backup file") from None
    except PermissionError:
        raise BackupError(f"{path}: permission denied") from None
    except gzip.BadGzipFile as exc:
        if number == 0 and str(exc).startswith("Not a gzipped file"):
            raise BackupError(f"{path}: not a bridgeko backup (not a gzip file)") from None
        raise BackupError(f"{path}: the file is damaged ({exc})") from None
    except EOFError:
        where = f" after line {number}" if number else ""
        raise BackupError(
            f"{path}: the file is cut short (truncated{where}); it cannot be restored"
        ) from None
    except (zlib.error, OSError) as exc:
        raise BackupError(f"{path}: the file is damaged ({exc})") from None


def _header(path: Path, data: dict[str, Any]) -> Header:
    if data.get("format") != FORMAT:
        raise BackupError(f"{path}: not a bridgeko backup")
    version = data.get("format_version")
    if not isinstance(version, int):
        raise BackupError(f"{path}: not a bridgeko backup (no format version)")
    if version > FORMAT_VERSION:
        raise BackupError(
            f"{path}: made by a newer bridgeko ({data.get('bridgeko', '?')}, backup format "
            f"{version}; this bridgeko {bridgeko.__version__} reads format {FORMAT_VERSION}); "
            "upgrade bridgeko to restore it"
        )
    migrations = data.get("migrations")
    counts = data.get("counts")
    if not (
        isinstance(migrations, dict)
        and all(
            isinstance(v, list) and all(isinstance(n, str) for n in v) for v in migrations.values()
        )
        and isinstance(counts, dict)
        and all(isinstance(v, int) for v in counts.values())
    ):
        raise BackupError(f"{path}: the header of the backup is damaged")
    return Header(
        bridgeko=str(data.get("bridgeko", "?")),
        created_at=str(data.get("created_at", "?")),
        database=str(data.get("database", "?")),
        migrations={str(k): list(v) for k, v in migrations.items()},
        counts={str(k): v for k, v in counts.items()},
        format_version=version,
    )


def _rows(path: Path) -> Iterator[tuple[int, Header | dict[str, Any]]]:
    """The header, then every row and file line; checks the trailer (raises if it is wrong)."""
    header: Header | None = None
    objects = files = 0
    ended = False
    for number, data in _read_lines(path):
        if header is None:
            header = _header(path, data)
            yield number, header
        elif ended:
            raise BackupError(f"{path}: line {number}: data after the end of the backup")
        elif data.get("end") == FORMAT:
            if data.get("objects") != objects or data.get("files") != files:
                raise BackupError(f"{path}: the end of the backup does not match its content")
            ended = True
        elif "model" in data:
            objects += 1
            yield number, data
        elif "file" in data:
            files += 1
            yield number, data
        else:
            raise BackupError(f"{path}: line {number} is damaged")
    if header is None:
        raise BackupError(f"{path}: not a bridgeko backup (empty)")
    if not ended:
        raise BackupError(f"{path}: the file is cut short (no end mark); it cannot be restored")


def read_header(path: Path) -> Header:
    """The header of a backup file (only its first line is read)."""
    for number, data in _read_lines(path):
        del number
        return _header(path, data)
    raise BackupError(f"{path}: not a bridgeko backup (empty)")


def check_file(path: Path) -> tuple[Header, int, int]:
    """Reads the whole file: its header, rows and files; a damaged file is a BackupError."""
    header: Header | None = None
    objects = files = 0
    known = {model._meta.label_lower for model in _models()}
    for number, data in _rows(path):
        if isinstance(data, Header):
            header = data
        elif "model" in data:
            label = data.get("model")
            if not isinstance(label, str) or not isinstance(data.get("fields"), dict):
                raise BackupError(f"{path}: line {number} is damaged")
            if label not in known:
                raise BackupError(f"{path}: line {number}: a table this bridgeko lacks ({label})")
            objects += 1
        else:
            _file_target(path, number, data)
            try:
                base64.b64decode(data["data"], validate=True)
            except ValueError:
                raise BackupError(f"{path}: line {number}: a damaged file entry") from None
            files += 1
    assert header is not None  # _rows raises otherwise
    return header, objects, files


def _file_target(path: Path, number: int, data: dict[str, Any]) -> PurePosixPath:
    name = data.get("file")
    relative = PurePosixPath(name) if isinstance(name, str) else None
    if (
        relative is None
        or relative.is_absolute()
        or ".." in relative.parts
        or not relative.parts
        or not isinstance(data.get("data"), str)
    ):
        raise BackupError(f"{path}: line {number}: a damaged file entry")
    return relative


# --- the database ---------------------------------------------------------------------------


def _models() -> list[Any]:
    """Every model a backup holds, in an order that loads (dependencies first)."""
    from django.apps import apps
    from django.core import serializers

    app_list = {
        config: [
            model
            for model in config.get_models()
            if model._meta.managed
            and not model._meta.proxy
            and model._meta.label_lower not in EXCLUDED_MODELS
        ]
        for config in apps.get_app_configs()
    }
    return list(serializers.sort_dependencies(app_list.items(), allow_cycles=True))


def _counted_models() -> list[Any]:
    from django.apps import apps

    return _models() + [
        apps.get_model(label) for label in sorted(WIPED_NOT_RESTORED) if _installed(label)
    ]


def _installed(label: str) -> bool:
    from django.apps import apps

    try:
        apps.get_model(label)
    except LookupError:
        return False
    return True


def database_contents(using: str = "default") -> dict[str, int]:
    """Rows per model (``app.model``: count) of what a backup holds, the empty ones left out."""
    counts = {}
    for model in _models():
        count = model._base_manager.using(using).count()
        if count:
            counts[model._meta.label_lower] = count
    return counts


def describe_counts(counts: dict[str, int]) -> str:
    """``2 editions, 21 teams, 70 players, 3 users and 6 other tables`` (the headline first)."""
    from django.apps import apps

    def name(label: str, count: int) -> str:
        try:
            meta = apps.get_model(label)._meta
        except LookupError:
            return f"{count} × {label}"
        return f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}"

    parts = [name(label, counts[label]) for label in HEADLINE_MODELS if counts.get(label)]
    others = [label for label in counts if label not in HEADLINE_MODELS and counts[label]]
    if others:
        parts.append(f"{len(others)} other table{'s' if len(others) != 1 else ''} with data")
    return ", ".join(parts)


def _applied_migrations(using: str) -> dict[str, list[str]]:
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    recorder = MigrationRecorder(connections[using])
    if not recorder.has_table():
        return {}
    migrations: dict[str, list[str]] = {}
    for app, name in sorted(recorder.applied_migrations()):
        migrations.setdefault(app, []).append(name)
    return migrations


@contextlib.contextmanager
def _snapshot(using: str) -> Iterator[None]:
    """One read transaction: every table as at one moment, whatever the server writes meanwhile."""
    from django.db import connections, transaction

    connection = connections[using]
    outermost = not connection.in_atomic_block
    with transaction.atomic(using=using):
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _serialised(model: Any, using: str) -> Iterator[dict[str, Any]]:
    from django.core import serializers

    queryset = model._base_manager.using(using).order_by(model._meta.pk.name)
    batch: list[Any] = []
    for obj in queryset.iterator(chunk_size=BATCH):
        batch.append(obj)
        if len(batch) == BATCH:
            yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)
            batch = []
    if batch:
        yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)


def _media_root() -> Path | None:
    from django.conf import settings

    root = getattr(settings, "MEDIA_ROOT", "")
    return Path(root) if root else None


def _media_files() -> list[Path]:
    root = _media_root()
    if root is None or not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def write_backup(path: Path, using: str = "default") -> Result:
    """Writes a snapshot of the whole database (and the uploaded files) to ``path``."""
    from django.db import connections

    path = Path(path)
    if path.is_dir():
        raise BackupError(f"{path}: is a directory; give a file name, e.g. {path}/bridgeko.gz")
    directory = path.parent
    if not directory.is_dir():
        raise BackupError(f"{directory}: no such directory")
    _require_migrated(using)
    try:
        fd, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise BackupError(f"{directory}: cannot write there ({exc.strerror})") from None
    temp = Path(temp_name)
    try:
        os.fchmod(fd, 0o600)
        with (
            os.fdopen(fd, "wb") as raw,
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as out,
        ):
            result = _write(out, path, connections[using].vendor, using)
            out.flush()
        with open(temp, "rb") as done:
            os.fsync(done.fileno())
        os.replace(temp, path)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise BackupError(f"{path}: cannot write the backup ({exc.strerror or exc})") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return result


def _write(out: BinaryIO | gzip.GzipFile, path: Path, vendor: str, using: str) -> Result:
    models = _models()
    objects = 0
    with _snapshot(using):
        counts = {
            model._meta.label_lower: model._base_manager.using(using).count() for model in models
        }
        header = Header(
            bridgeko=bridgeko.__version__,
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            database=vendor,
            migrations=_applied_migrations(using),
            counts={label: n for label, n in counts.items() if n},
        )
        out.write(_line({"format": FORMAT, **header.__dict__}))
        for model in models:
            for row in _serialised(model, using):
                out.write(_line(row))
                objects += 1
    files = _media_files()
    root = _media_root()
    for file in files:
        assert root is not None
        relative = file.relative_to(root).as_posix()
        data = base64.b64encode(file.read_bytes()).decode("ascii")
        out.write(_line({"file": relative, "data": data}))
    out.write(_line({"end": FORMAT, "objects": objects, "files": len(files)}))
    return Result(path=path, header=header, objects=objects, files=len(files))


# --- restore --------------------------------------------------------------------------------


def _known_migrations(using: str) -> set[tuple[str, str]]:
    from django.db import connections
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(connections[using], ignore_no_migrations=True)
    return set(loader.disk_migrations)


def _applied_set(using: str) -> set[tuple[str, str]]:
    return {(app, name) for app, names in _applied_migrations(using).items() for name in names}


def _check_schema(path: Path, header: Header, using: str) -> None:
    """The backup's schema must be this bridgeko's; the database is then migrated to it.

    The rows are loaded with this bridgeko's models, so a backup of another schema cannot be
    loaded: one of a newer bridgeko is refused (upgrade first), one of an older bridgeko too
    (restore it with the bridgeko that made it, then upgrade: its migrations bring the data
    forward). Nothing in the database changes before these checks.
    """
    from django.core.management import call_command

    known = _known_migrations(using)
    wanted = header.migration_set()
    unknown = sorted(wanted - known)
    if unknown:
        shown = ", ".join(f"{app}.{name}" for app, name in unknown[:3])
        raise BackupError(
            f"{path}: made by a newer bridgeko ({header.bridgeko}): its database has "
            f"migrations this bridgeko ({bridgeko.__version__}) does not know ({shown}"
            f"{', ...' if len(unknown) > 3 else ''}); upgrade bridgeko to restore it"
        )
    missing = sorted(known - wanted)
    if missing:
        shown = ", ".join(f"{app}.{name}" for app, name in missing[:3])
        raise BackupError(
            f"{path}: made by an older bridgeko ({header.bridgeko}) at an older database schema "
            f"(without {shown}{', ...' if len(missing) > 3 else ''}); restore it with bridgeko "
            f"{header.bridgeko}, then upgrade (the upgrade's migrations bring the data forward)"
        )
    if _applied_set(using) != known:  # a new database (or one never migrated): its tables
        call_command("migrate", verbosity=0, interactive=False, database=using)


def _require_migrated(using: str) -> None:
    """A backup is made of a database at this bridgeko's schema (its models read the rows)."""
    applied = _applied_set(using)
    if not applied:
        raise BackupError("the database is empty (never migrated): there is nothing to back up")
    missing = len(_known_migrations(using) - applied)
    if missing:
        raise BackupError(
            f"the database lacks {missing} migration(s) of this bridgeko: run "
            "'bridgeko manage migrate' (or restart 'bridgeko serve') first"
        )


def _wipe(using: str) -> None:
    """Empties every table a backup holds (and the sessions), in the current transaction."""
    from django.core.management.color import no_style
    from django.db import connections

    connection = connections[using]
    models = _counted_models()
    tables: list[str] = []
    for model in models:
        tables.append(model._meta.db_table)
        tables.extend(
            m2m.remote_field.through._meta.db_table
            for m2m in model._meta.local_many_to_many
            if m2m.remote_field.through._meta.auto_created
        )
    existing = set(connection.introspection.table_names())
    statements = connection.ops.sql_flush(
        no_style(), [t for t in dict.fromkeys(tables) if t in existing], reset_sequences=True
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # TRUNCATE refuses a table with deferred constraint checks still pending from
            # earlier writes of the same transaction: run those checks now
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for sql in statements:
            cursor.execute(sql)
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _load(path: Path, rows: Iterable[dict[str, Any]], using: str) -> tuple[int, set[Any]]:
    from django.core import serializers
    from django.core.exceptions import FieldDoesNotExist, ValidationError
    from django.core.serializers.base import DeserializationError
    from django.db import DatabaseError, connections

    connection = connections[using]
    loaded = 0
    models: set[Any] = set()
    deferred = []
    batch: list[Any] = []

    def flush() -> None:
        # Rows without many-to-many values go in batches: one INSERT for many rows, raw as in
        # DeserializedObject.save() (no save(), no signals, every value as stored: an
        # ``auto_now_add`` keeps its time, which bulk_create would not); the others one by one.
        if not batch:
            return
        model = type(batch[0])
        fields = list(model._meta.local_concrete_fields)
        size = max(1, connection.ops.bulk_batch_size(fields, batch) or len(batch))
        for start in range(0, len(batch), size):
            model._base_manager._insert(
                batch[start : start + size], fields=fields, using=using, raw=True
            )
        batch.clear()

    with connection.constraint_checks_disabled():
        try:
            for obj in serializers.deserialize(
                "python", rows, using=using, handle_forward_references=True
            ):
                model = type(obj.object)
                models.add(model)
                loaded += 1
                if obj.deferred_fields or any((obj.m2m_data or {}).values()) or model._meta.parents:
                    flush()
                    obj.save(using=using)
                    if obj.deferred_fields:
                        deferred.append(obj)
                    continue
                if (batch and type(batch[0]) is not model) or len(batch) >= BATCH:
                    flush()
                batch.append(obj.object)
            flush()
            for obj in deferred:
                obj.save_deferred_fields(using=using)
        except (DeserializationError, ValidationError, FieldDoesNotExist, LookupError) as exc:
            raise BackupError(f"{path}: a row cannot be loaded ({_first_line(exc)})") from None
        except DatabaseError as exc:
            raise BackupError(f"{path}: the database refused a row ({_first_line(exc)})") from None
    try:
        connection.check_constraints(table_names=[m._meta.db_table for m in models])
    except DatabaseError as exc:
        raise BackupError(f"{path}: the backup is inconsistent ({_first_line(exc)})") from None
    return loaded, models


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _reset_sequences(models: set[Any], using: str) -> None:
    """PostgreSQL: the next id after the restored ones (SQLite needs nothing)."""
    from django.core.management.color import no_style
    from django.db import connections

    connection = connections[using]
    statements = connection.ops.sequence_reset_sql(no_style(), sorted(models, key=str))
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def restore_backup(path: Path, *, force: bool = False, using: str = "default") -> Result:
    """Loads a backup into an empty database (with ``force``, one that holds data: replaced)."""
    from django.db import transaction

    path = Path(path)
    header, objects, files = check_file(path)  # the whole file, before any database work
    root = _media_root()
    if files and root is None:
        raise BackupError(f"{path}: the backup holds uploaded files but MEDIA_ROOT is not set")
    _check_schema(path, header, using)
    replaced: dict[str, int] = {}
    with transaction.atomic(using=using):
        present = database_contents(using)
        if present and not force:
            raise BackupError(
                f"the database is not empty: it holds {describe_counts(present)}; "
                "restore into an empty database, or add --force to replace everything in it"
            )
        if force:
            replaced = present
            _wipe(using)
        rows = (data for _number, data in _rows(path) if isinstance(data, dict) and "model" in data)
        loaded, models = _load(path, rows, using)
        _reset_sequences(models, using)
        if loaded != objects:
            raise BackupError(f"{path}: {loaded} rows loaded of {objects}")
    if files:
        assert root is not None
        _restore_files(path, root)
    return Result(path=path, header=header, objects=objects, files=files, replaced=replaced)


def _restore_files(path: Path, root: Path) -> None:
    """Writes each uploaded file to a temporary name, then renames them all into MEDIA_ROOT."""
    written: list[tuple[Path, Path]] = []
    try:
        for number, data in _rows(path):
            if isinstance(data, Header) or "file" not in data:
                continue
            target = root / _file_target(path, number, data)
            target.parent.mkdir(parents=True, exist_ok=True)
            temp = target.with_name(f".{target.name}.restore-tmp")
            temp.write_bytes(base64.b64decode(data["data"]))
            written.append((temp, target))
    except (OSError, ValueError) as exc:
        for temp, _target in written:
            temp.unlink(missing_ok=True)
        raise BackupError(f"{root}: cannot restore the uploaded files ({exc})") from None
    for temp, target in written:
        os.replace(temp, target)
