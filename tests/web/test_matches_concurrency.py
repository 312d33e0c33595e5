"""Several TDs at once (issue 10, item 8): 32 threads saving different boards of one match at the
same moment lose nothing, and two edits of the same board give the second a conflict showing both
values — on SQLite and on PostgreSQL::

    .venv/bin/python -m pytest -q tests/web/test_matches_concurrency.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python -m pytest -q tests/web/test_matches_concurrency.py

Each thread has its own database connection (Django's are per thread) and closes it at the end.
The test database of SQLite is an in-memory database in shared-cache mode, whose table locks do
not wait (``database table is locked`` at once, whatever the timeout): :func:`file_database`
copies it into a file for the test, so that the threads meet the real settings
(``transaction_mode=IMMEDIATE``, ``timeout=20``: a writer waits for the one before it)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.matches import services, state
from bridgeko.matches.models import BoardResult, Match
from tests.web.conftest import World
from tests.web.test_api_match import final_match

PLAY = datetime(1999, 5, 1, 9, 0, tzinfo=UTC)
THREADS = 32
TIMEOUT = 120


@pytest.fixture
def file_database(transactional_db: Any, tmp_path: Path) -> Iterator[None]:
    """On SQLite with an in-memory test database: the database copied into a file, used by this
    thread and by every thread the test starts; the in-memory one is put back afterwards.
    Elsewhere (a file already, PostgreSQL): nothing to do."""
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield
        return
    settings = connection.settings_dict  # the dict every new thread's connection is made from
    name = settings["NAME"]
    path = tmp_path / "concurrency.sqlite3"
    connection.ensure_connection()
    target = sqlite3.connect(path)
    connection.connection.backup(target)
    target.close()
    memory: BaseDatabaseWrapper = connections["default"]
    settings["NAME"] = str(path)
    connections["default"] = type(memory)(settings, "default")
    try:
        yield
    finally:
        connections["default"].close()
        settings["NAME"] = name
        connections["default"] = memory


def run_together(work: list[Callable[[], Any]]) -> list[Any]:
    """Runs each callable in its own thread, all released at once (a barrier); returns what each
    returned or raised. Every thread closes its database connection."""
    barrier = threading.Barrier(len(work))
    out: list[Any] = [None] * len(work)

    def run(k: int) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            out[k] = work[k]()
        except BaseException as exc:  # reported to the test
            out[k] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a thread hangs (deadlock?)"
    return out


@pytest.mark.django_db(transaction=True)
def test_R12_concurrency_32_threads_save_different_boards_of_one_match(
    file_database: None, world: World
) -> None:
    match = final_match(world.edition, now=PLAY)
    td = world.users["td"]
    audit_before = AuditEntry.objects.count()
    texts = {"open": "4S N =", "closed": "4S N -1"}
    jobs = [(board, room) for board in range(1, 17) for room in ("open", "closed")]
    assert len(jobs) == THREADS

    def saver(board: int, room: str) -> Callable[[], Any]:
        def save() -> Any:
            return services.save_board(
                match=Match.objects.get(pk=match.pk),
                board=board,
                room=room,
                text=texts[room],
                version=0,
                user=td,
                now=PLAY + timedelta(seconds=board),
            )

        return save

    outcomes = run_together([saver(board, room) for board, room in jobs])
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert errors == []
    stored = {(r.board, r.room): r for r in BoardResult.objects.filter(match=match)}
    assert sorted(stored) == sorted(jobs)
    assert {r.version for r in stored.values()} == {1}
    assert all(r.text == texts[r.room] for r in stored.values())
    # The match's cached state equals a recomputation from the stored facts.
    match.refresh_from_db()
    view = state.view(match)
    assert view.error == ""
    home, visitors = view.running
    first = view.segments[0]
    assert all(b.imps is not None and b.imps > 0 for b in first.boards)
    assert (match.home_total, match.visitors_total) == (view.state.home_total, 0)
    assert (home, visitors) == (first.home_imps, 0) and home > 0
    assert match.status == "in_progress"
    assert match.version >= 1 + THREADS  # one rise per save
    saved = AuditEntry.objects.filter(action="bridgeko.board.saved").count()
    assert AuditEntry.objects.count() - audit_before == THREADS == saved


@pytest.mark.django_db(transaction=True)
def test_R12_concurrency_two_edits_of_the_same_board(file_database: None, world: World) -> None:
    match = final_match(world.edition, now=PLAY)
    td, chief = world.users["td"], world.users["organiser"]

    def saver(text: str, user: Any) -> Callable[[], Any]:
        def save() -> Any:
            return services.save_board(
                match=Match.objects.get(pk=match.pk),
                board=7,
                room="closed",
                text=text,
                version=0,
                user=user,
                now=PLAY,
            )

        return save

    outcomes = run_together([saver("3NT S +1", td), saver("4H E -2", chief)])
    saved = [o for o in outcomes if isinstance(o, services.Saved)]
    conflicts = [o for o in outcomes if isinstance(o, services.BoardConflict)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    assert not [o for o in outcomes if isinstance(o, ServiceError) and o not in conflicts]
    winner = saved[0].result
    assert winner is not None
    conflict = conflicts[0]
    stored = BoardResult.objects.get(match=match, board=7, room="closed")
    assert stored.version == 1 and stored.text == winner.text
    assert conflict.theirs == stored.text and conflict.yours != stored.text
    assert {conflict.theirs, conflict.yours} == {"3NT S +1", "4H E -2"}
    assert conflict.theirs in conflict.message and conflict.yours in conflict.message
    assert AuditEntry.objects.filter(action="bridgeko.board.saved").count() == 1
    with transaction.atomic():
        assert BoardResult.objects.filter(match=match).count() == 1
