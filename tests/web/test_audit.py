"""The audit helper and the organiser's log page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from bridgeko.audit.models import AuditEntry
from bridgeko.audit.services import AuditOutsideTransaction, record
from bridgeko.core.errors import ServiceError
from bridgeko.players import services as players

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
def test_record_refuses_outside_a_transaction() -> None:
    with pytest.raises(AuditOutsideTransaction):
        record("bridgeko.test.done")


def test_record_refuses_unnamespaced_action(world: Any) -> None:
    with transaction.atomic(), pytest.raises(ValueError, match="bridgeko"):
        record("player.created")


def test_service_writes_one_entry_with_before_and_after(world: Any) -> None:
    user = world.users["organiser"]
    count = AuditEntry.objects.count()
    player = players.create_player(
        data={"federation_id": "501", "name": "Šťastný Jan", "club": "BK Praha", "member": True},
        user=user,
        edition=world.edition,
    )
    players.update_player(
        player=player,
        data={"federation_id": "501", "name": "Šťastný Jan", "club": "BK Brno", "member": True},
        user=user,
        edition=world.edition,
    )
    assert AuditEntry.objects.count() == count + 2
    entry = AuditEntry.objects.filter(action="bridgeko.player.changed").get()
    assert entry.user == user and entry.edition == world.edition
    assert entry.object_type == "players.player" and entry.object_id == str(player.pk)
    assert entry.before["club"] == "BK Praha" and entry.after["club"] == "BK Brno"
    assert entry.summary == "club"


def test_service_error_leaves_no_entry_and_no_row(world: Any) -> None:
    user = world.users["organiser"]
    players.create_player(data={"federation_id": "9", "name": "A"}, user=user)
    entries = AuditEntry.objects.count()
    with pytest.raises(ServiceError) as info:
        players.create_player(data={"federation_id": "9", "name": "B"}, user=user)
    assert info.value.field == "federation_id"
    assert AuditEntry.objects.count() == entries


def test_log_page_filters_and_paginates(world: Any) -> None:
    user = world.users["organiser"]
    for i in range(55):
        players.create_player(data={"name": f"P{i}"}, user=user, edition=world.edition)
    client = world.client("organiser")
    page = client.get(reverse("audit:log"), {"action": "bridgeko.player"})
    assert page.status_code == 200
    assert page.context["page"].paginator.count == 55
    assert len(page.context["page"].object_list) == 50
    page2 = client.get(reverse("audit:log"), {"action": "bridgeko.player", "page": 2})
    assert len(page2.context["page"].object_list) == 5
    edition_only = client.get(reverse("audit:log"), {"action": "bridgeko.edition"})
    assert [e.action for e in edition_only.context["page"]] == ["bridgeko.edition.created"]
    by_user = client.get(reverse("audit:log"), {"user": world.users["td"].pk})
    assert by_user.context["page"].paginator.count == 0
    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()
    future = client.get(reverse("audit:log"), {"date_from": tomorrow})
    assert future.context["page"].paginator.count == 0
    today = timezone.localdate().isoformat()
    now = client.get(reverse("audit:log"), {"date_from": today, "date_to": today})
    assert now.context["page"].paginator.count == 56


def test_log_shows_only_the_organisers_editions(world: Any, toml_1999: str) -> None:
    from bridgeko.editions.services import create_edition

    other = world.users["td"]
    create_edition(slug="other", toml_text=toml_1999, user=other)  # td organises "other"
    page = world.client("td").get(reverse("audit:log"))
    assert {e.edition.slug for e in page.context["page"]} == {"other"}
