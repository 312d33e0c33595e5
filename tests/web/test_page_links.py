"""``core.page_links``: the links a higher app adds to a page of a lower app
(docs/web-architecture.md). The lower page works without the higher app: with no provider for
its slots it shows none of their links and no empty paragraph."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bridgeko.core import page_links
from bridgeko.core.page_links import Link
from bridgeko.matches.models import Match, MatchStatus
from tests.web.conftest import World


def test_a_slot_lists_its_providers_by_position_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_links, "_providers", {})

    def late(request: object, n: int) -> list[Link]:
        return [Link(f"late {n}", "/late/")]

    def early(request: object, n: int) -> list[Link]:
        return [Link(f"early {n}", "/early/", id="early")]

    page_links.register("slot", late, position=20)
    page_links.register("slot", early, position=10)
    page_links.register("slot", late)  # registering again changes nothing
    assert [link.label for link in page_links.links("slot", None, 3)] == ["early 3", "late 3"]
    assert page_links.links("no such slot", None, 3) == []


@pytest.mark.django_db
def test_the_match_page_without_the_apps_above_shows_none_of_their_links(
    drawn: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    page = reverse("matches:detail", args=[drawn.edition.slug, match.code])
    client = drawn.client("organiser")
    html = client.get(page).content.decode()
    assert 'id="paper-links"' in html and "/paper/" in html
    monkeypatch.setattr(page_links, "_providers", {})
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="paper-links"' not in html
    assert "/paper/" not in html
