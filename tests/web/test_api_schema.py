"""The open JSON API tested against its own OpenAPI document (issue 12, item 5) with
Schemathesis: the document is loaded from the application itself (``/api/openapi.json``), and
for every operation requests are generated from it and sent to the Django WSGI application in
process; each answer must match the document — a documented status (200, 304, 404), the content
type, the required headers (ETag, Cache-Control) and the body's schema — and none may be a server
error.

The path parameters are drawn from the test edition's real values (an edition, its matches,
teams and segments; one with played boards and a revealed set of deals) and some that do not
exist, so that both the documents and the 404s are checked. Kept small: a few examples per
operation, derandomized (the same cases every run)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeko.boards.models import BoardDeal, DealSet, SetSource
from bridgeko.bridge.commit_reveal import commitment
from bridgeko.matches import services
from bridgeko.matches.models import Match, Segment
from tests.web import handrecord_world as hw_
from tests.web.conftest import World
from tests.web.test_api_match import PLAY, first_r1
from tests.web.test_matches import play_segment

pytestmark = pytest.mark.django_db

EXAMPLES = 6
"""Examples per operation (12 operations)."""


@pytest.fixture
def in_process() -> Iterator[None]:
    """Requests through the WSGI handler inside the test's transaction: Django's test client
    keeps the connection open the same way (no closing of "old" connections per request)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def reveal(world: World, match: Match) -> None:
    """Segment 1 of ``match`` dealt by the computer, played and ended in both rooms (I15)."""
    segment = Segment.objects.get(match=match, number=1)
    dset = DealSet.objects.create(
        segment=segment,
        source=SetSource.DEALT,
        seed=hw_.SEED.hex(),
        commitment=commitment(hw_.SEED),
        event=hw_.EVENT,
        session=f"{match.code}-1",
        committed_at=PLAY - timedelta(days=2),
        made_at=PLAY - timedelta(days=2),
        made_by=world.users["organiser"],
        analysis_started_at=PLAY - timedelta(days=2),
        analysis_finished_at=PLAY - timedelta(days=2),
    )
    deals, analysis = hw_._deals(), hw_._analysis()
    BoardDeal.objects.bulk_create(
        BoardDeal(
            deal_set=dset,
            board=n,
            deal=deals[n].to_pbn(),
            dd=analysis[n][0] if n % 2 else None,  # half analysed: both shapes of the answer
            par=analysis[n][1] if n % 2 else None,
        )
        for n in sorted(deals)
    )
    play_segment(world, match, 1, "4S N =", "4S N -1")
    for room in ("open", "closed"):
        services.mark_room_end(
            segment=segment, room=room, at=PLAY, user=world.users["td"], now=PLAY
        )


def test_api_answers_as_its_openapi_document_says(drawn: World, in_process: None) -> None:
    match = first_r1(drawn)
    reveal(drawn, match)
    match.refresh_from_db()
    values: dict[str, list[Any]] = {
        "edition": [drawn.edition.slug, "no-such-edition"],
        "code": [match.code, "F", "QF1", "X9"],
        "team": [match.home_id, match.visitors_id, 999999],
        "segment": [1, 2, 9],
    }
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", WSGIHandler())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 12
    seen: dict[str, set[int]] = {}
    for operation in operations:
        label = operation.label
        names = [p.name for p in operation.path_parameters]
        fixed = st.fixed_dictionaries({n: st.sampled_from(values[n]) for n in names})
        cases = fixed.flatmap(lambda pp, op=operation: op.as_strategy(path_parameters=pp))

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=cases)
        def check(case: Any) -> None:
            response = case.call_and_validate()
            seen.setdefault(label, set()).add(response.status_code)  # noqa: B023 (run at once)

        check()
    assert len(seen) == 12
    # the real values were answered with documents, not only 404s
    assert sum(200 in codes for codes in seen.values()) >= 10, seen
