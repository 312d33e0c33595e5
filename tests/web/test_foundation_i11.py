"""What the boards, appeals and mail of issue 11 stand on: the end of a segment in each room
(I15, recorded by the TD), work run after the commit (``core.background``) and events told to
the apps above (``core.events``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction

from bridgeko.audit.models import AuditEntry
from bridgeko.core import background, events
from bridgeko.core.errors import ServiceError
from bridgeko.matches import services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import World

NOW = datetime(1999, 4, 10, 13, 0, tzinfo=UTC)


def test_I15_segment_ends_when_both_rooms_have_ended(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    seg = Segment.objects.get(match=match, number=1)
    open_end, closed_end = NOW - timedelta(minutes=20), NOW - timedelta(minutes=5)
    seg = services.mark_room_end(
        segment=seg, room="open", at=open_end, user=drawn.users["td"], now=NOW
    )
    assert seg.ended_at is None  # the closed room still plays
    seg = services.mark_room_end(
        segment=seg, room="closed", at=closed_end, user=drawn.users["td"], now=NOW
    )
    assert seg.ended_at == closed_end
    entry = AuditEntry.objects.filter(action="bridgeko.segment.room_ended").latest("pk")
    assert entry.after["room"] == "closed"
    assert entry.before["ended_at"] is None
    match.refresh_from_db()
    assert match.version > 1  # the public API's ETag changes


def test_I15_end_of_a_segment_cannot_lie_in_the_future(drawn: World) -> None:
    seg = Segment.objects.filter(match__edition=drawn.edition).first()
    assert seg is not None
    with pytest.raises(ServiceError):
        services.mark_room_end(
            segment=seg, room="open", at=NOW + timedelta(minutes=1), user=None, now=NOW
        )
    with pytest.raises(ServiceError):
        services.mark_room_end(segment=seg, room="attic", at=NOW, user=None, now=NOW)
    assert not AuditEntry.objects.filter(action="bridgeko.segment.room_ended").exists()


def test_background_work_runs_after_the_commit_only(
    db: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    done: list[int] = []
    settings.BRIDGEKO_BACKGROUND = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            background.after_commit(done.append, 1)
            raise RuntimeError("rolled back")
        with transaction.atomic():
            background.after_commit(done.append, 2)
            assert done == []  # not before the commit
    assert done == [2]


def test_background_thread_failure_is_logged_not_raised(
    db: Any, settings: Any, caplog: Any
) -> None:
    settings.BRIDGEKO_BACKGROUND = "thread"

    def fail() -> None:
        raise ValueError("boom")

    background.start(fail)
    background.wait()
    assert "background work" in caplog.text and "boom" in caplog.text


def test_event_listener_failure_is_rolled_back_and_logged(db: Any, caplog: Any) -> None:
    seen: list[str] = []

    def good(**kwargs: Any) -> None:
        seen.append(kwargs["what"])

    def bad(**kwargs: Any) -> None:
        AuditEntry.objects.create(action="bridgeko.test.half", summary="half-written", at=NOW)
        raise ValueError("listener broke")

    events.subscribe("test.event", bad)
    events.subscribe("test.event", good)
    events.subscribe("test.event", good)  # idempotent
    try:
        with transaction.atomic():
            events.emit("test.event", what="it")
    finally:
        events._listeners.pop("test.event")
    assert seen == ["it"]
    assert not AuditEntry.objects.filter(action="bridgeko.test.half").exists()
    assert "listener broke" in caplog.text
