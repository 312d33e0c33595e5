"""Expensive test worlds built once per worker and replayed (issue 19).

A *world* is what a fixture builds through the services before a test starts: the demo (two
editions, one of them played), thirteen teams entered and the draw held, a quarterfinal with a
secret set. Building one costs from half a second to a quarter of a minute; hundreds of tests
need one. :func:`once` builds it the usual way the first time a worker needs it (so that first
test runs exactly as before), and records what the building changed:

* the rows of every table that the building added, changed or removed (the database's own
  values: ``COPY`` text on PostgreSQL, SQLite's stored values on SQLite, its
  ``sqlite_sequence`` included);
* the files it wrote under the data directory and ``MEDIA_ROOT`` (uploaded convention cards,
  the demo's mail files);
* the mail it sent into ``django.core.mail.outbox``;
* the value the builder returned (pickled: model instances with their primary keys).

Every later test that needs the same world from the same starting point gets the rows written
back in one go (``COPY FROM``/``executemany``, a few milliseconds), the files, the mail and a
fresh copy of the value. The starting point is part of the key: a fingerprint of every row of
every table before the building, so a world is never replayed on top of other data than it was
built on (the test then builds it itself).

What else could make the same building come out differently is part of the key as well: the
settings a test overrides, the active language and the attributes and items a test has
monkeypatched.

Whether the test's transaction is rolled back (``db``) or committed (``transactional_db``, the
browser tests) is part of the key too: work run after a commit (``core.background``: mail, the
double-dummy analysis) happens in the second case only, as when the world is built for real.

Under pytest-xdist a recording is also written to a folder the run's workers share (the demo
is built by one worker and replayed by the other, which waits for it rather than building it a
second time).

Nothing here changes what a test sees: ``tests/web/test_worlds.py`` checks that a replayed
world is the built one row for row, file for file.
"""

from __future__ import annotations

import hashlib
import pickle
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.core import mail
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import translation

from tests.shared import locked

T = TypeVar("T")

Key = Any
"""A row's primary key as the database gives it (the whole row for a table without one)."""


@dataclass(frozen=True)
class Table:
    """The rows of one table: by primary key, each as the database stores it."""

    name: str
    columns: tuple[str, ...]
    pk: str | None
    rows: dict[Key, Any]


@dataclass(frozen=True)
class Change:
    """What a building did to one table: the rows to delete (by key) and to write."""

    table: str
    columns: tuple[str, ...]
    pk: str | None
    removed: tuple[Key, ...]
    added: tuple[Any, ...]


@dataclass(frozen=True)
class Recording:
    changes: tuple[Change, ...]
    files: dict[tuple[str, str], bytes]
    mail: tuple[Any, ...]
    value: bytes


_recorded: dict[tuple[Any, ...], Recording] = {}
stats = {"built": 0, "replayed": 0, "shared": 0}
"""How many worlds this worker built, replayed and took from another worker's building."""

shared: Path | None = None
"""A folder the run's workers share (set by ``tests/conftest.py`` under pytest-xdist): a
recording is written there too, and a worker that needs a world another one built (or is
building) reads it instead of building it again (the demo: half a minute of each worker)."""
SHARED_WAIT = 600.0
"""Seconds to wait for another worker's building before building it here as well."""


def once(key: Key, build: Callable[[], T]) -> T:
    """``build()`` the first time this worker needs ``key`` from the database's present
    state; afterwards what it did, replayed."""
    committed = not connection.in_atomic_block
    before = dump()
    mark = (key, committed, fingerprint(before), _context())
    recording = _recorded.get(mark)
    if recording is not None:
        return _replayed(recording)
    if shared is None:
        return _built(mark, before, build)
    signature = repr(mark)
    path = shared / (hashlib.sha256(signature.encode()).hexdigest() + ".pickle")
    with locked(path.with_suffix(".lock"), wait=SHARED_WAIT):
        recording = _load(path, signature)
        if recording is None:
            value = _built(mark, before, build)
            if mark in _recorded:
                _store(path, signature, _recorded[mark])
            return value
    _recorded[mark] = recording
    stats["shared"] += 1
    return _replayed(recording)


def _replayed(recording: Recording) -> Any:
    replay(recording)
    stats["replayed"] += 1
    return pickle.loads(recording.value)


def _built(mark: tuple[Any, ...], before: dict[str, Table], build: Callable[[], T]) -> T:
    files_before = _files()
    outbox_before = len(getattr(mail, "outbox", []))
    value = build()
    stats["built"] += 1
    files_after = _files()
    changes = diff(before, dump())
    if any(change.table in UNRECORDED for change in changes):
        return value
    _recorded[mark] = Recording(
        changes=changes,
        files={
            where: _read(where)
            for where, stamp in files_after.items()
            if files_before.get(where) != stamp
        },
        mail=tuple(getattr(mail, "outbox", [])[outbox_before:]),
        value=pickle.dumps(value),
    )
    return value


def _load(path: Path, signature: str) -> Recording | None:
    if not path.is_file():
        return None
    stored, recording = pickle.loads(path.read_bytes())
    return recording if stored == signature else None  # type: ignore[no-any-return]


def _store(path: Path, signature: str, recording: Recording) -> None:
    """Writes a recording for the other workers (not at all when its mail cannot be pickled)."""
    try:
        data = pickle.dumps((signature, recording))
    except (pickle.PicklingError, TypeError, AttributeError):
        return
    part = path.with_suffix(".part")
    part.write_bytes(data)
    part.replace(path)


def forget() -> None:
    """Drops every recording (a test of this module)."""
    _recorded.clear()


# ----------------------------------------------------------------------------- the context

_patchers: weakref.WeakSet[pytest.MonkeyPatch] = weakref.WeakSet()
_original_init = pytest.MonkeyPatch.__init__


def _init(self: pytest.MonkeyPatch) -> None:
    _original_init(self)
    _patchers.add(self)


pytest.MonkeyPatch.__init__ = _init  # type: ignore[method-assign]


def _context() -> str:
    """What besides the rows may change a building: the overridden settings, the language,
    what is monkeypatched now."""
    overrides = []
    holder = getattr(settings, "_wrapped", None)
    while holder is not None and hasattr(holder, "default_settings"):
        overrides.append(sorted((k, repr(v)) for k, v in vars(holder).items() if k.isupper()))
        holder = holder.default_settings
    patched = sorted(
        repr((type(target).__name__, getattr(target, "__name__", ""), name))
        for patcher in list(_patchers)
        for target, name, _old in [*patcher._setattr, *patcher._setitem]
    )
    return repr((overrides, translation.get_language(), patched))


# ------------------------------------------------------------------------------- the rows


Layout = dict[str, tuple[tuple[str, ...], str | None]]
"""Each table's columns in the database's order and its primary key column (None: none, or
one of several)."""

_layouts: dict[str, Layout] = {}


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _layout_sqlite(cursor: Any) -> Layout:
    cursor.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name != 'django_migrations'"
        " AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )
    tables = cursor.fetchall()
    signature = repr(tables)
    if signature not in _layouts:
        layout: Layout = {}
        for name, _sql in tables:
            cursor.execute(f"PRAGMA table_info({_quote(name)})")
            info = sorted(cursor.fetchall())  # cid, name, type, notnull, default, pk
            keys = [row[1] for row in info if row[5]]
            layout[name] = (tuple(row[1] for row in info), keys[0] if len(keys) == 1 else None)
        _layouts[signature] = layout
    return _layouts[signature]


def _layout_postgresql(cursor: Any) -> Layout:
    cursor.execute(
        """SELECT c.relname, a.attname,
                  EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary
                          AND i.indnatts = 1 AND a.attnum = i.indkey[0])
           FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
           WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()
             AND c.relname != 'django_migrations'
           ORDER BY c.relname, a.attnum"""
    )
    columns: dict[str, list[str]] = {}
    keys: dict[str, str] = {}
    for table, column, primary in cursor.fetchall():
        columns.setdefault(table, []).append(column)
        if primary:
            keys[table] = column
    return {table: (tuple(cols), keys.get(table)) for table, cols in columns.items()}


def dump() -> dict[str, Table]:
    """Every row of every table (but the migrations'), as the database stores it."""
    if connection.vendor == "postgresql":
        return _dump_postgresql()
    return _dump_sqlite()


def _dump_sqlite() -> dict[str, Table]:
    out: dict[str, Table] = {}
    with connection.cursor() as cursor:
        layout = dict(_layout_sqlite(cursor))
        cursor.execute("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'")
        if cursor.fetchone() is not None:
            layout["sqlite_sequence"] = (("name", "seq"), "name")
        for name, (columns, pk) in layout.items():
            # ``+column`` is the stored value without the declared type: the connection's
            # converters (dates, booleans) leave it alone, so it goes back in unchanged.
            select = ", ".join(f"+{_quote(c)}" for c in columns)
            cursor.execute(f"SELECT {select} FROM {_quote(name)}")
            index = columns.index(pk) if pk is not None else None
            rows = {(row if index is None else row[index]): row for row in cursor.fetchall()}
            out[name] = Table(name, columns, pk, rows)
    return out


def _dump_postgresql() -> dict[str, Table]:
    out: dict[str, Table] = {}
    with connection.cursor() as cursor:
        layout = _layout_postgresql(cursor)
        names = sorted(layout)
        # One query finds the tables with rows; only those are copied out.
        cursor.execute(
            " UNION ALL ".join(
                f"SELECT %s WHERE EXISTS (SELECT 1 FROM {_quote(name)})" for name in names
            ),
            names,
        )
        filled = {name for (name,) in cursor.fetchall()}
        raw = cursor.cursor
        for name in names:
            columns, pk = layout[name]
            index = columns.index(pk) if pk is not None else None
            rows: dict[Key, Any] = {}
            if name in filled:
                data = bytearray()
                with raw.copy(f"COPY {_quote(name)} TO STDOUT") as copy:
                    for block in copy:
                        data += block
                for line in bytes(data).split(b"\n"):
                    if line:
                        rows[line if index is None else line.split(b"\t")[index]] = line
            out[name] = Table(name, columns, pk, rows)
    return out


UNKEYED = frozenset({"django_content_type", "auth_permission", "sqlite_sequence"})
"""Tables left out of the fingerprint: a committed test's end empties the database and makes the
content types and permissions again with new ids, and leaves SQLite's sequences as they were;
without this, no world would be replayed in the browser tests."""
UNRECORDED = frozenset(
    {
        "django_content_type",
        "auth_permission",
        "auth_group_permissions",
        "auth_user_user_permissions",
        "django_admin_log",
    }
)
"""A building that changes these (rows naming a content type or permission by id) is not
recorded: its ids would not be those of the next database."""


def fingerprint(tables: dict[str, Table]) -> str:
    digest = hashlib.sha256()
    for name in sorted(set(tables) - UNKEYED):
        digest.update(name.encode() + b"\0")
        for key in sorted(tables[name].rows, key=repr):
            digest.update(repr(tables[name].rows[key]).encode() + b"\n")
    return digest.hexdigest()


def diff(before: dict[str, Table], after: dict[str, Table]) -> tuple[Change, ...]:
    changes = []
    for name, table in after.items():
        old = before[name].rows if name in before else {}
        removed = tuple(k for k, row in old.items() if table.rows.get(k) != row)
        added = tuple(row for k, row in table.rows.items() if old.get(k) != row)
        if removed or added:
            changes.append(Change(name, table.columns, table.pk, removed, added))
    return tuple(changes)


def replay(recording: Recording) -> None:
    """Writes a recording back: its rows (in one transaction: the foreign keys are checked at
    its end), its files and its mail."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            _replay_postgresql(recording.changes)
        else:
            _replay_sqlite(recording.changes)
    for (root, relative), data in recording.files.items():
        path = _roots()[root] / relative
        if not path.is_file() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if hasattr(mail, "outbox"):
        mail.outbox.extend(recording.mail)


def _replay_sqlite(changes: tuple[Change, ...]) -> None:
    with connection.cursor() as cursor:
        for change in changes:
            table = _quote(change.table)
            if change.removed and change.table != "sqlite_sequence":
                where = _quote(change.pk) if change.pk is not None else None
                if where is None:
                    columns = " AND ".join(f"{_quote(c)} IS %s" for c in change.columns)
                    cursor.executemany(f"DELETE FROM {table} WHERE {columns}", change.removed)
                else:
                    cursor.executemany(
                        f"DELETE FROM {table} WHERE {where} = %s", [(k,) for k in change.removed]
                    )
        for change in changes:
            if change.added and change.table != "sqlite_sequence":
                columns = ", ".join(_quote(c) for c in change.columns)
                marks = ", ".join(["%s"] * len(change.columns))
                cursor.executemany(
                    f"INSERT INTO {_quote(change.table)} ({columns}) VALUES ({marks})",
                    change.added,
                )
        # The inserts moved SQLite's sequences; they are set to what the building left.
        for change in changes:
            if change.table == "sqlite_sequence":
                names = [(name,) for name, _seq in change.added]
                cursor.executemany("DELETE FROM sqlite_sequence WHERE name = %s", names)
                cursor.executemany(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", change.added
                )


def _unescape_copy(text: bytes) -> str:
    """A value of ``COPY``'s text format (a key: numbers and simple strings)."""
    return text.decode().replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\")


def _replay_postgresql(changes: tuple[Change, ...]) -> None:
    from django.apps import apps

    with connection.cursor() as cursor:
        raw = cursor.cursor
        for change in changes:
            if change.removed:
                assert change.pk is not None, f"{change.table}: rows changed without a key"
                raw.execute(
                    f"DELETE FROM {_quote(change.table)} WHERE {_quote(change.pk)}::text = ANY(%s)",
                    ([_unescape_copy(k) for k in change.removed],),
                )
        for change in changes:
            if change.added:
                with raw.copy(f"COPY {_quote(change.table)} FROM STDIN") as copy:
                    copy.write(b"\n".join(change.added) + b"\n")
        tables = {c.table for c in changes if c.added}
        models = [
            m for m in apps.get_models(include_auto_created=True) if m._meta.db_table in tables
        ]
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


# ------------------------------------------------------------------------------- the files


def _roots() -> dict[str, Path]:
    return {"media": Path(settings.MEDIA_ROOT), "data": Path(settings.DATA_DIR)}


def _walk(root: Path, skip: set[Path]) -> Iterator[Path]:
    if not root.is_dir():
        return
    for path in root.iterdir():
        if path in skip:
            continue
        if path.is_dir():
            yield from _walk(path, skip)
        elif path.is_file() and not path.name.startswith("bridgeko.sqlite3"):
            yield path


def _files() -> dict[tuple[str, str], tuple[int, int]]:
    """The files under the data directory and MEDIA_ROOT (the static files and the database
    aside), by (root, path): their size and time."""
    roots = _roots()
    skip = {roots["media"], Path(settings.STATIC_ROOT)}
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for name, root in roots.items():
        for path in _walk(root, skip if name == "data" else set()):
            stat = path.stat()
            out[(name, str(path.relative_to(root)))] = (stat.st_size, stat.st_mtime_ns)
    return out


def _read(where: tuple[str, str]) -> bytes:
    return (_roots()[where[0]] / where[1]).read_bytes()
