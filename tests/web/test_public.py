"""Public pages: no login, a fixed handful of queries whatever the number of teams."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from bridgeko.draw.models import DrawNumber
from bridgeko.editions.models import Edition
from tests.web.conftest import demo_loaded

PAGES = ("public:home", "public:teams", "public:draw", "public:schedule")
MAX_QUERIES = 12
LIVE_QUERIES = 18
"""The pages with the bracket's matches in progress (issue 12): their running score, boards and
chances in six more queries, whatever the number of matches (tests/web/test_public_bracket.py
compares 8 and 32 teams)."""


@pytest.fixture
def demo(db: Any) -> Edition:
    demo_loaded()
    return Edition.objects.get(slug="ko-1999")


@pytest.mark.django_db
@pytest.mark.parametrize("name", PAGES)
def test_public_pages_need_no_login_and_few_queries(
    demo: Edition, name: str, django_assert_max_num_queries: Any
) -> None:
    client = Client()
    bound = LIVE_QUERIES if name in ("public:home", "public:draw") else MAX_QUERIES
    with django_assert_max_num_queries(bound):
        response = client.get(reverse(name, kwargs={"edition": demo.slug}))
    assert response.status_code == 200


@pytest.mark.django_db
def test_teams_page_lists_rosters_and_elo(demo: Edition) -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    page = client.get(reverse("public:teams", kwargs={"edition": demo.slug})).content.decode()
    assert page.count('class="team-card"') == 13
    assert "Sokol Hradec Králové" in page and "(captain)" in page
    assert "Elo 571" in page  # (R10) the demo's returning team


@pytest.mark.django_db
def test_draw_page_shows_numbering_bracket_and_byes(demo: Edition) -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    page = client.get(reverse("public:draw", kwargs={"edition": demo.slug})).content.decode()
    numbers = DrawNumber.objects.filter(draw__edition=demo).select_related("team")
    for n in numbers:
        assert n.team.name in page
    assert page.count("goes straight on (R11.4)") == 3  # numbers 1-3 against missing 14-16
    # the demo's first round is decided (issue 10), the quarterfinals are not
    assert "winner of R1-M2" not in page and "winner of QF1" in page and "loser of SF1" in page
    assert "Quarterfinals" in page and "Preliminary round 1" in page


@pytest.mark.django_db
def test_public_pages_in_czech(demo: Edition) -> None:
    """The language is the URL's (/cs/…): a reader's English cookie does not change it."""
    client = Client()
    client.cookies["django_language"] = "en"
    with translation.override("cs"):
        url = reverse("public:draw", kwargs={"edition": demo.slug})
    assert url.startswith("/cs/")
    page = client.get(url).content.decode()
    assert "Los a pavouk" in page
    assert "vítěz QF1" in page


@pytest.mark.django_db
def test_unknown_edition_is_404(db: Any) -> None:
    assert Client().get(reverse("public:draw", kwargs={"edition": "nope"})).status_code == 404


@pytest.mark.django_db
def test_query_count_does_not_grow_with_teams(
    demo: Edition, django_assert_max_num_queries: Any
) -> None:
    """The same bound holds for 13 teams and for the 8 teams of 1998 (no per-row query)."""
    client = Client()
    for slug in ("ko-1998", "ko-1999"):
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(reverse("public:teams", kwargs={"edition": slug})).status_code == 200


@pytest.mark.django_db
def test_edition_teams_in_at_most_9_queries(
    demo: Edition, django_assert_max_num_queries: Any
) -> None:
    """Teams, rosters, pairs, Elo, the previous edition's teams and rosters, its no-shows."""
    from bridgeko.entries.queries import edition_teams

    fresh = Edition.objects.get(pk=demo.pk)
    with django_assert_max_num_queries(9):
        teams = edition_teams(fresh)
    assert len(teams) == 14  # 13 entered and the demo's late entry (issue 9)
    assert sum(len(t.roster) for t in teams) == 60 + 4


def test_czech_catalogue_is_complete() -> None:
    """Every string of the application (the one project catalogue, which holds the strings of
    every app) has a Czech translation (none empty, none fuzzy)."""
    from pathlib import Path

    import bridgeko

    po = Path(bridgeko.__file__).parent / "locale" / "cs" / "LC_MESSAGES" / "django.po"
    text = po.read_text(encoding="utf-8")
    assert "fuzzy" not in text
    entries = text.split("\n\n")[1:]
    assert len(entries) > 700  # the strings of every app, not one app's
    untranslated = [e for e in entries if 'msgstr ""' in e and 'msgstr ""\n"' not in e]
    assert untranslated == []
