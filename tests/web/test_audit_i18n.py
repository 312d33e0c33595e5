"""Audit summaries are stored as an English template + params and shown in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

from bridgeko.audit.messages import message_from_json, message_to_json
from bridgeko.audit.models import AuditEntry
from bridgeko.audit.services import record
from bridgeko.competition.messages import N_, Message
from bridgeko.editions.services import create_edition

from .conftest import make_user

pytestmark = pytest.mark.django_db

ENGLISH = "Edition Bridge Open K.O. 1999 created"
CZECH = "Vytvořen ročník Bridge Open K.O. 1999"


def _summaries(client: Any, **query: Any) -> list[str]:
    page = client.get(reverse("audit:log"), query)
    assert page.status_code == 200
    return [e.display_summary for e in page.context["page"]]


def _created_in_czech(world: Any, toml_1999: str) -> AuditEntry:
    with translation.override("cs"):  # the actor reads Czech
        create_edition(slug="cs-made", toml_text=toml_1999, user=world.users["organiser"])
    return AuditEntry.objects.get(action="bridgeko.edition.created", edition__slug="cs-made")


def test_entry_made_in_czech_stores_english_text_template_and_params(
    world: Any, toml_1999: str
) -> None:
    entry = _created_in_czech(world, toml_1999)
    assert entry.summary == ENGLISH
    assert entry.summary_template == "Edition %(name)s created"
    assert entry.summary_params == {"name": "Bridge Open K.O. 1999"}


def test_entry_made_in_czech_reads_in_each_readers_language(world: Any, toml_1999: str) -> None:
    _created_in_czech(world, toml_1999)
    query = {"action": "bridgeko.edition.created"}
    english = _summaries(world.client("organiser", "en"), **query)
    czech = _summaries(world.client("organiser", "cs"), **query)
    assert english.count(ENGLISH) == 2 and CZECH not in english  # ko-1999 (made in English) too
    assert czech.count(CZECH) == 2 and ENGLISH not in czech
    html = world.client("organiser", "cs").get(reverse("audit:log"), query).content.decode()
    assert CZECH in html and ENGLISH not in html


def test_plain_text_summary_is_shown_as_stored(world: Any) -> None:
    with translation.override("cs"), transaction.atomic():
        record("bridgeko.test.done", edition=world.edition, summary="Šťastný Jan, club")
    entry = AuditEntry.objects.get(action="bridgeko.test.done")
    assert (entry.summary, entry.summary_template, entry.summary_params) == (
        "Šťastný Jan, club",
        "",
        {},
    )
    for language in ("en", "cs"):
        client = world.client("organiser", language)
        assert _summaries(client, action="bridgeko.test.done") == ["Šťastný Jan, club"]


def test_old_entry_without_template_is_shown_as_stored(world: Any) -> None:
    AuditEntry.objects.create(  # written before templates were stored: text in the actor's language
        action="bridgeko.draw.held",
        at=timezone.now(),
        edition=world.edition,
        summary="Losování provedeno: 16 družstev, schéma pro 16",
    )
    for language in ("en", "cs"):
        assert _summaries(world.client("organiser", language), action="bridgeko.draw.held") == [
            "Losování provedeno: 16 družstev, schéma pro 16"
        ]


def test_nested_message_round_trips_and_translates(world: Any) -> None:
    message = Message(
        N_("Roster changed after entry (R7.2): %(reason)s"),
        {"reason": Message(N_("Edition %(name)s created"), {"name": "X"})},
    )
    assert message_from_json(message_to_json(message)) == message
    with transaction.atomic():
        entry = record("bridgeko.test.nested", edition=world.edition, summary=message)
    entry.refresh_from_db()
    assert entry.summary == "Roster changed after entry (R7.2): Edition X created"
    with translation.override("cs"):
        assert entry.display_summary == "Soupiska změněna po přihlášení (R7.2): Vytvořen ročník X"


def test_admin_search_matches_the_english_summary(world: Any, toml_1999: str) -> None:
    _created_in_czech(world, toml_1999)
    from django.test import Client

    admin = make_user("root", is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(admin)
    page = client.get(reverse("admin:audit_auditentry_changelist"), {"q": "1999 created"})
    assert page.status_code == 200
    assert page.context["cl"].result_count == 2
    none = client.get(reverse("admin:audit_auditentry_changelist"), {"q": "Vytvořen"})
    assert none.context["cl"].result_count == 0


def test_role_assigned_in_czech_reads_in_each_readers_language(world: Any) -> None:
    from bridgeko.accounts.services import assign_role, revoke_role
    from bridgeko.entries.models import Team

    Team.objects.create(pk=3, edition=world.edition, name="Tři", created_at="1999-02-01T10:00Z")
    make_user("cap")
    with translation.override("cs"):
        assignment = assign_role(
            edition=world.edition,
            username="cap",
            role="captain",
            team_id=3,
            user=world.users["organiser"],
        )
        revoke_role(assignment=assignment, user=world.users["organiser"])
    for action in ("bridgeko.role.assigned", "bridgeko.role.revoked"):
        entry = AuditEntry.objects.get(action=action)
        assert entry.summary == "cap – Team captain (team Tři)"
        assert _summaries(world.client("organiser", "en"), action=action) == [
            "cap – Team captain (team Tři)"
        ]
        assert _summaries(world.client("organiser", "cs"), action=action) == [
            "cap – Kapitán družstva (družstvo Tři)"
        ]


def test_deadline_summary_reads_in_each_readers_language(world: Any) -> None:
    from datetime import date

    from bridgeko.competition import schedule

    deadline = schedule.dates_publication_deadline(date(1999, 3, 1), world.edition.regulations)
    with translation.override("cs"), transaction.atomic():
        entry = record("bridgeko.schedule.published", summary=deadline.detail)
    assert entry.summary == str(deadline)
    assert entry.summary.startswith("publish the dates of the preliminary matches by 1999-03-15")
    with translation.override("cs"):
        # the stored English keeps ISO; each reader sees the date in their own format
        shown = entry.display_summary
        assert shown.startswith("zveřejnit termíny utkání rozehrávky do 15. 3. 1999")
    with translation.override("en"):
        assert entry.display_summary == str(deadline).replace(
            "1999-03-15 23:59", "15 March 1999, 23:59"
        )
