"""Issue 9 (items 5 and 6): the printable lists, the confirmation before deleting a player, the
friendly 405 page, a title of its own on every page and the 1998 demo edition shown finished."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.draw import schedule_services
from bridgeko.editions.models import Edition, EditionStage
from bridgeko.entries.models import Team
from bridgeko.players.models import EloRating, Player
from tests.web.conftest import World, demo_loaded
from tests.web.test_draw import enter_13, held
from tests.web.test_entries import enter_team, make_players

PRINT_PAGES = (
    "draw:print_index",
    "draw:print_teams",
    "draw:print_fees",
    "draw:print_conditions",
    "draw:print_draw",
    "draw:print_schedule",
)
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def _english_client() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def _title(response: Any) -> str:
    match = TITLE.search(response.content.decode())
    assert match, response.content[:300]
    return " ".join(match.group(1).split())


@pytest.fixture
def drawn(world: World) -> World:
    """Thirteen teams entered, the draw held, the preliminary dates filled in."""
    enter_13(world)
    held(world)
    schedule_services.default_schedule(
        edition=world.edition,
        first_date=date(1999, 3, 13),
        user=world.users["organiser"],
        now=datetime(1999, 3, 13, 9, tzinfo=UTC),
    )
    return world


# ---------------------------------------------------------------- printable lists


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["organiser", "td"])
def test_printable_lists_open_for_organiser_and_td(drawn: World, who: str) -> None:
    client = drawn.client(who)
    for name in PRINT_PAGES:
        response = client.get(reverse(name, kwargs={"edition": drawn.edition.slug}))
        assert response.status_code == 200, name
        text = response.content.decode()
        if name != "draw:print_index":
            assert 'data-print id="print"' in text, name  # bridgeko/actions.js prints
    index = client.get(reverse("draw:print_index", kwargs={"edition": drawn.edition.slug}))
    for name in PRINT_PAGES[1:]:
        assert reverse(name, kwargs={"edition": drawn.edition.slug}) in index.content.decode()


@pytest.mark.django_db
def test_printable_teams_list_has_every_roster_and_elo(drawn: World) -> None:
    url = reverse("draw:print_teams", kwargs={"edition": drawn.edition.slug})
    text = drawn.client("organiser").get(url).content.decode()
    for k in range(13):
        assert f"Tým {k:02d}" in text
    assert "Kapitáni" not in text  # not entered: the entries are closed
    assert text.index("Tým 00") < text.index("Tým 12")  # by Elo, the strongest first
    assert text.count('class="team-block"') == 13
    assert "700" in text and "580" in text


@pytest.mark.django_db
def test_R4_1_printable_fees_with_paid_outstanding_and_totals(world: World) -> None:
    organiser = world.users["organiser"]
    paid = enter_team(world.edition, "Zaplatili", make_players(4, start=1), organiser)
    half = enter_team(world.edition, "Napůl", make_players(4, start=5), organiser)
    Team.objects.filter(pk=paid.pk).update(fee_paid=600, fee_received=date(1999, 3, 1))
    Team.objects.filter(pk=half.pk).update(fee_paid=200)
    url = reverse("draw:print_fees", kwargs={"edition": world.edition.slug})
    text = world.client("organiser").get(url).content.decode()
    # The captain's team of the test world has no roster: no fee due.
    assert re.search(r'id="fees-due">\s*1,200<', text), text
    assert re.search(r'id="fees-paid">\s*800<', text)
    assert re.search(r'id="fees-outstanding">\s*400<', text)


@pytest.mark.django_db
def test_R3_printable_conditions_list_names_what_is_missing(world: World) -> None:
    organiser = world.users["organiser"]
    enter_team(world.edition, "Bez přihlášky", make_players(4, start=1), organiser)
    url = reverse("draw:print_conditions", kwargs={"edition": world.edition.slug})
    text = world.client("organiser").get(url).content.decode()
    assert "Bez přihlášky" in text and "not received" in text


@pytest.mark.django_db
def test_R11_printable_draw_and_R14_1_schedule(drawn: World) -> None:
    client = drawn.client("organiser")
    slug = drawn.edition.slug
    text = client.get(reverse("draw:print_draw", kwargs={"edition": slug})).content.decode()
    assert text.count('<tr><td class="num">') == 13
    assert 'class="bracket"' in text and "QF1" in text and "Final" in text
    text = client.get(reverse("draw:print_schedule", kwargs={"edition": slug})).content.decode()
    assert "R1-M2" in text and "not published yet" in text
    assert "R1-M1" not in text  # a bye (R11.4) is no match


@pytest.mark.django_db
def test_printable_lists_before_the_draw_say_so(world: World) -> None:
    client = world.client("td")
    for name in ("draw:print_draw", "draw:print_schedule"):
        response = client.get(reverse(name, kwargs={"edition": world.edition.slug}))
        assert "The draw has not been made yet." in response.content.decode()


# ---------------------------------------------------------------- deleting a player


def _player_with_elo() -> Player:
    return make_players(1, elo=[612], start=900)[0]


@pytest.mark.django_db
def test_deleting_a_player_asks_first_and_shows_what_is_lost(world: World) -> None:
    player = _player_with_elo()
    client = world.client("registrar")
    url = reverse("players:delete", kwargs={"edition": world.edition.slug, "pk": player.pk})
    listing = client.get(reverse("players:list", kwargs={"edition": world.edition.slug}))
    assert url in listing.content.decode()  # the list links to the confirmation page
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert player.name in text and "Elo ratings: 1" in text and "612" in text
    assert 'id="confirm-delete"' in text
    assert Player.objects.filter(pk=player.pk).exists()  # a GET deletes nothing
    response = client.post(url)
    assert response.status_code == 302
    assert not Player.objects.filter(pk=player.pk).exists()
    assert not EloRating.objects.filter(player_id=player.pk).exists()
    assert AuditEntry.objects.filter(action="bridgeko.player.deleted").count() == 1


@pytest.mark.django_db
def test_a_rostered_player_confirmation_page_says_it_cannot_be_deleted(world: World) -> None:
    players = make_players(4, start=1)
    enter_team(world.edition, "Soupiska", players, world.users["organiser"])
    client = world.client("registrar")
    url = reverse("players:delete", kwargs={"edition": world.edition.slug, "pk": players[0].pk})
    text = client.get(url).content.decode()
    assert 'id="cannot-delete"' in text and world.edition.name in text
    assert 'id="confirm-delete"' not in text
    client.post(url)
    assert Player.objects.filter(pk=players[0].pk).exists()


# ---------------------------------------------------------------- 405


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"), [("en", "cannot be opened this way"), ("cs", "nelze otevřít")]
)
def test_get_on_a_post_only_url_gets_the_friendly_405_page(
    world: World, language: str, heading: str
) -> None:
    client = world.client("organiser", language=language)
    response = client.get(reverse("draw:hold", kwargs={"edition": world.edition.slug}))
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    text = response.content.decode()
    assert heading in text and 'class="site-header"' in text


@pytest.mark.django_db
def test_post_to_a_read_only_page_gets_the_friendly_405_page(world: World) -> None:
    response = _english_client().post(
        reverse("public:home", kwargs={"edition": world.edition.slug})
    )
    assert response.status_code == 405
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD"}
    assert "only shows information" in response.content.decode()


# ---------------------------------------------------------------- a title on every page


@pytest.mark.django_db
def test_every_page_has_a_title_of_its_own(drawn: World) -> None:
    from tests.web.test_hardening import EXAMPLE_KWARGS, _unprotected
    from tests.web.test_permissions import REGISTRY

    edition_name = drawn.edition.name
    seen: dict[str, str] = {}
    superuser = drawn.client("superuser")
    for entry in REGISTRY:
        if entry.method != "get":
            continue
        response = superuser.get(reverse(entry.name, kwargs=entry.kwargs(drawn)))
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        seen[entry.name] = _title(response)
    anonymous = _english_client()
    for name, pattern in _unprotected():
        kwargs = {"edition": drawn.edition.slug} if "<slug:edition>" in str(pattern.pattern) else {}
        kwargs |= EXAMPLE_KWARGS.get(name, {})
        response = anonymous.get(reverse(name, kwargs=kwargs))
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        seen[name] = _title(response)
    seen["login"] = _title(anonymous.get(reverse("login")))
    assert len(seen) >= 25, sorted(seen)
    for name, title in seen.items():
        assert title, name
        assert title not in (edition_name, "Bridge Open K.O."), (name, title)


# ---------------------------------------------------------------- the 1998 demo edition


@pytest.mark.django_db
def test_demo_1998_is_a_finished_edition(db: Any) -> None:
    demo_loaded()
    previous = Edition.objects.get(slug="ko-1998")
    assert previous.stage == EditionStage.FINISHED
    assert previous.draw_held
    client = _english_client()
    for name in ("public:home", "public:draw", "editions:detail"):
        text = client.get(reverse(name, kwargs={"edition": "ko-1998"})).content.decode()
        assert 'id="finished"' in text and "This edition is finished." in text, name
    assert "Final standings and prizes" in text  # the 1998 matches are played (issue 10)
    current = Edition.objects.get(slug="ko-1999")
    assert current.stage == EditionStage.IN_PLAY  # the demo's 1999 is in play (issue 10)
    text = client.get(reverse("public:home", kwargs={"edition": "ko-1999"})).content.decode()
    assert 'id="finished"' not in text
