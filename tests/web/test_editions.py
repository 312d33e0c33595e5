"""Editions: created from the 1999 regulations file or a broken one; the numbers form."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.models import AuditEntry
from bridgeko.competition import regulations as regs
from bridgeko.editions.forms import EditionEditForm
from bridgeko.editions.models import Edition
from bridgeko.editions.services import RegulationsServiceError, create_edition, update_edition

pytestmark = pytest.mark.django_db


def test_edition_from_the_1999_file(world: Any) -> None:
    edition = world.edition
    assert (edition.slug, edition.year, edition.language) == ("ko-1999", 1999, "cs")
    reg = edition.regulations
    assert reg.entry.deadline == date(1999, 3, 5)  # R3.2
    assert reg.rating.reference_date == date(1998, 6, 30)  # R10.1
    assert reg.prizes == (60000, 20000, 15000, 5000)  # R5.1
    assert RoleAssignment.objects.filter(
        edition=edition, user=world.users["organiser"], role=Role.ORGANISER
    ).exists()
    entry = AuditEntry.objects.get(action="bridgeko.edition.created")
    assert entry.after["regulations"]["match"]["boards"] == 32


def test_create_page_with_the_bundled_file(world: Any) -> None:
    client = world.client("registrar")
    page = client.get(reverse("editions:create"))
    assert "bridge-open-ko-1999.toml" in page.content.decode()
    response = client.post(
        reverse("editions:create"),
        {"slug": "ko-2000", "bundled": "bridge-open-ko-1999.toml", "previous": world.edition.pk},
    )
    assert response.status_code == 302
    new = Edition.objects.get(slug="ko-2000")
    assert new.previous == world.edition


def test_broken_file_lists_every_key_and_saves_nothing(world: Any, toml_1999: str) -> None:
    broken = toml_1999.replace("boards = 32", 'boards = "x"').replace(
        "deadline = 1999-03-05", "deadline = 5"
    )
    counts = (Edition.objects.count(), AuditEntry.objects.count(), RoleAssignment.objects.count())
    with pytest.raises(RegulationsServiceError) as info:
        create_edition(slug="broken", toml_text=broken, user=world.users["organiser"])
    keys = {p.key for p in info.value.problems}
    assert {"match.boards", "entry.deadline"} <= keys
    after = (Edition.objects.count(), AuditEntry.objects.count(), RoleAssignment.objects.count())
    assert after == counts

    upload = SimpleUploadedFile("broken.toml", broken.encode())
    page = world.client("registrar").post(
        reverse("editions:create"), {"slug": "broken", "upload": upload}
    )
    assert page.status_code == 200
    text = page.content.decode()
    assert "match.boards" in text and "entry.deadline" in text
    assert not Edition.objects.filter(slug="broken").exists()


def test_bad_slug_is_a_field_error(world: Any, toml_1999: str) -> None:
    page = world.client("registrar").post(
        reverse("editions:create"), {"slug": "ko-1999", "bundled": "bridge-open-ko-1999.toml"}
    )
    assert "slug" in page.context["form"].errors


def test_edit_form_has_every_section_and_saves(world: Any) -> None:
    form = EditionEditForm(edition=world.edition)
    titles = [s for s, _t, _n in form.sections]
    assert titles == [
        "edition", "entry", "fees", "prizes", "rating", "draw",
        "match", "penalties", "schedule", "appeals", "systems", "format",
    ]  # fmt: skip
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    data["fees__other"] = "1500"
    data["prizes"] = "70000, 20000, 15000, 5000"
    response = world.client("organiser").post(
        reverse("editions:edit", kwargs={"edition": "ko-1999"}), data
    )
    assert response.status_code == 302
    edition = Edition.objects.get(pk=world.edition.pk)
    assert edition.regulations.fees.other == 1500
    assert edition.regulations.prizes == (70000, 20000, 15000, 5000)
    entry = AuditEntry.objects.get(action="bridgeko.edition.changed")
    assert entry.before["fees"]["other"] == 1200 and entry.after["fees"]["other"] == 1500
    assert set(entry.summary.split(", ")) == {"fees.other", "prizes"}


def test_issue22_the_format_and_a_stage_of_its_own_are_edited_in_czech(world: Any) -> None:
    from django.utils import translation

    with translation.override("cs"):
        form = EditionEditForm(edition=world.edition)
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    data |= {
        "format__template": "double",
        "format__prizes_per_player": "on",
        "match__final_boards": "64",
        "match__stage_segment_boards": "finále: 8",
    }
    client = world.client("organiser", "cs")
    url = reverse("editions:edit", kwargs={"edition": "ko-1999"})
    assert client.post(url, data).status_code == 302
    reg = Edition.objects.get(pk=world.edition.pk).regulations
    assert reg.format.template == "double" and reg.format.prizes_per_player
    assert reg.match.segment_boards_of(regs.Stage.FINAL) == 8
    bad = client.post(url, data | {"match__stage_segment_boards": "finále: 10"})
    assert "finále: 64 rozdání nejsou celé sestavy po 10 rozdáních" in bad.content.decode()
    unreadable = client.post(url, data | {"match__stage_segment_boards": "osmifinále 8"})
    assert "Napište každou fázi a její číslo jako „finále: 8“" in unreadable.content.decode()
    assert Edition.objects.get(pk=world.edition.pk).regulations == reg  # nothing saved


def test_edit_form_shows_the_error_next_to_the_field(world: Any) -> None:
    form = EditionEditForm(edition=world.edition)
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    data["match__boards"] = "x"
    before = world.edition.regulations_toml
    page = world.client("organiser").post(
        reverse("editions:edit", kwargs={"edition": "ko-1999"}), data
    )
    assert page.status_code == 200
    assert "match__boards" in page.context["form"].errors
    assert Edition.objects.get(pk=world.edition.pk).regulations_toml == before


def test_previous_edition_cannot_be_itself_or_later(world: Any, toml_1999: str) -> None:
    user = world.users["organiser"]
    later = create_edition(slug="ko-2000", toml_text=toml_1999, user=user, previous=world.edition)
    from bridgeko.competition import regulations as regs

    data = regs.to_dict(world.edition.regulations)
    with pytest.raises(Exception, match="previous"):
        update_edition(edition=world.edition, data=data, user=user, previous=later)
    update_edition(edition=later, data=data, user=user, previous=world.edition)


def test_reader_language_wins_over_the_edition_language(world: Any) -> None:
    """The reader's choice (the browser's language, then the switcher's cookie) applies on an
    edition page; the edition's language only when the reader expressed nothing (see
    tests/web/test_i18n.py for every page)."""
    from django.test import Client

    client = Client()
    url = reverse("editions:detail", kwargs={"edition": "ko-1999"})
    page = client.get(url)
    assert page["Content-Language"] == "cs"
    assert "Uzávěrka přihlášek" in page.content.decode()  # the Czech catalogue is compiled
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "en" and "Entry deadline" in page.content.decode()
    client.post(reverse("set_language"), {"language": "cs", "next": url})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "cs"


def test_czech_error_next_to_the_field(world: Any) -> None:
    client = world.client("organiser", language="cs")
    url = reverse("accounts:roles", kwargs={"edition": "ko-1999"})
    page = client.post(url, {"username": "nikdo", "role": "td"})
    assert page.context["form"].errors["username"] == ["Účet nikdo neexistuje."]


def test_dashboard_lists_what_is_due(world: Any) -> None:
    page = world.client("organiser").get(
        reverse("editions:dashboard", kwargs={"edition": "ko-1999"})
    )
    sources = [item.source for item in page.context["items"]]
    assert "players" in sources  # the Elo list of 1998-06-30 is not imported yet
    assert "editions" in sources  # no previous edition


def test_dashboard_providers_are_merged_by_due_date(world: Any) -> None:
    from bridgeko.core import dashboard
    from bridgeko.editions.dashboard_items import viewer_for

    def extra(edition: Any, viewer: Any, today: date, now: Any) -> list[dashboard.Item]:
        return [
            dashboard.Item("late", due=date(1999, 1, 1), source="test"),
            dashboard.Item("undated", source="test"),
        ]

    dashboard.register(extra)
    dashboard.register(extra)  # idempotent
    viewer = viewer_for(world.users["organiser"], world.edition)
    now = datetime(1998, 12, 1, 12, tzinfo=UTC)
    try:
        items = dashboard.items(world.edition, viewer, date(1998, 12, 1), now)
    finally:
        dashboard._providers.remove(extra)
    titles = [i.title for i in items if i.source == "test"]
    assert titles == ["late", "undated"]
    dues = [i.due for i in items if i.due is not None]
    assert dues == sorted(dues) and items[-1].due is None
