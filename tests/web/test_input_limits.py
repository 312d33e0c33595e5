"""No input ends in a server error (issue 8): search strings of any length, time zones of any
length and content, and the captain line of a roster (R7.1).

Each of these was a 500 (or a silent promotion of player 2 to captain) before; each is now a
page with a clear message."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from bridgeko.editions.forms import EditionEditForm
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import Team
from tests.web.conftest import World, make_user
from tests.web.test_entries import make_players

pytestmark = pytest.mark.django_db

HUGE = "x" * 50_001
"""Longer than SQLite's longest LIKE pattern (50,000 bytes): the search failed with a 500."""


# ---------------------------------------------------------------- search strings of any length


def test_players_list_search_of_50000_characters_is_a_page_not_a_server_error(
    world: World,
) -> None:
    make_players(3)
    url = reverse("players:list", kwargs={"edition": world.edition.slug})
    page = world.client("organiser").get(url, {"q": HUGE})
    assert page.status_code == 200
    assert page.context["q"] == HUGE[:100]  # cut at the search limit, and shown so
    assert page.context["search_cut"]
    assert "only its first 100 characters" in page.content.decode()
    short = world.client("organiser").get(url, {"q": "Hráč 002"})
    assert [p.name for p, _elo in short.context["rows"]] == ["Hráč 002"]
    assert not short.context["search_cut"]


def test_audit_filter_of_50000_characters_is_a_field_error_not_a_server_error(
    world: World,
) -> None:
    page = world.client("organiser").get(reverse("audit:log"), {"action": HUGE})
    assert page.status_code == 200
    errors = page.context["form"].errors["action"]
    assert errors == ["Ensure this value has at most 100 characters (it has 50001)."]


def test_roster_suggestions_for_50000_characters_are_a_page_not_a_server_error(
    world: World,
) -> None:
    make_players(3)
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    page = world.client("organiser").get(url, {"q": HUGE})
    assert page.status_code == 200
    assert page.context["q"] == HUGE[:100]
    assert "only its first 100 characters" in page.content.decode()
    found = world.client("organiser").get(url, {"q": "CZ003"})
    assert [p.federation_id for p in found.context["found"]] == ["CZ003"]


@pytest.mark.parametrize(
    "admin_list",
    [
        "admin:players_player_changelist",
        "admin:audit_auditentry_changelist",
        "admin:auth_user_changelist",
        "admin:auth_group_changelist",
    ],
)
def test_admin_search_of_50000_characters_is_a_page_not_a_server_error(
    world: World, admin_list: str
) -> None:
    make_players(2)
    client = Client()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = client.get(reverse(admin_list), {"q": HUGE})
    assert page.status_code == 200
    assert client.get(reverse(admin_list), {"q": "Hráč 001"}).status_code == 200


def test_search_limit_in_czech(world: World) -> None:
    url = reverse("players:list", kwargs={"edition": world.edition.slug})
    page = world.client("organiser", language="cs").get(url, {"q": HUGE})
    assert page.status_code == 200
    assert "jen jeho prvních 100 znaků" in page.content.decode()


# ---------------------------------------------------------------- time zones of any length


def _settings_data(world: World, **changes: str) -> dict[str, Any]:
    # the form's values in Czech ("5. 3. 1999", "60 000"): read in either language
    with translation.override("cs"):
        form = EditionEditForm(edition=world.edition)
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    return data | changes


@pytest.mark.parametrize(
    "zone",
    [
        "x" * 300,  # OSError: file name too long
        "Europe/" + "a" * 300,
        "Europe",  # IsADirectoryError
        "zone.tab",  # a file of the time zone database that is not a zone
        "Europe/Prague\x00",  # ValueError: embedded null byte
        "..",
        "../../etc/passwd",
        "/etc/localtime",
        "Europe/../Europe/Prague",
        "Nowhere/Atlantis",
        "a" * 100_000,
    ],
)
def test_edition_settings_time_zone_of_any_length_is_a_field_error(world: World, zone: str) -> None:
    before = world.edition.regulations_toml
    url = reverse("editions:edit", kwargs={"edition": world.edition.slug})
    page = world.client("organiser").post(url, _settings_data(world, edition__timezone=zone))
    assert page.status_code == 200
    errors = page.context["form"].errors["edition__timezone"]
    expected = "Null characters are not allowed." if "\x00" in zone else "unknown time zone"
    assert len(errors) == 1 and expected in errors[0]
    assert len(errors[0]) < 200  # the message does not repeat a 100,000-character value
    assert Edition.objects.get(pk=world.edition.pk).regulations_toml == before


def test_edition_settings_time_zone_error_in_czech(world: World) -> None:
    url = reverse("editions:edit", kwargs={"edition": world.edition.slug})
    page = world.client("organiser", language="cs").post(
        url, _settings_data(world, edition__timezone="x" * 300)
    )
    assert page.status_code == 200
    assert "časové pásmo" in page.context["form"].errors["edition__timezone"][0]


def test_edition_settings_accept_a_real_time_zone(world: World) -> None:
    url = reverse("editions:edit", kwargs={"edition": world.edition.slug})
    page = world.client("organiser").post(
        url, _settings_data(world, edition__timezone="Europe/London")
    )
    assert page.status_code == 302
    assert Edition.objects.get(pk=world.edition.pk).regulations.edition.timezone == "Europe/London"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("boards = 32", "boards = " + "[" * 5000 + "]" * 5000),
            "not valid TOML: nested too deeply",
        ),
        (("boards = 32", "boards = " + "9" * 5000), "not valid TOML: Exceeds the limit"),
        (("boards = 32", "boards = 0x" + "f" * 5000), "match.boards: must be at most 2147483647"),
        (("year = 1999", "year = 99999999999999999999"), "edition.year: must be at most"),
        (('timezone = "Europe/Prague"', 'timezone = "' + "x" * 300 + '"'), "unknown time zone"),
    ],
)
def test_uploaded_regulations_of_any_size_are_a_message_not_a_server_error(
    world: World, toml_1999: str, change: tuple[str, str], message: str
) -> None:
    text = toml_1999.replace(*change, 1)
    assert text != toml_1999
    upload = SimpleUploadedFile("big.toml", text.encode())
    page = world.client("registrar").post(
        reverse("editions:create"), {"slug": "ko-2000", "upload": upload}
    )
    assert page.status_code == 200
    assert message in page.content.decode()
    assert not Edition.objects.filter(slug="ko-2000").exists()


# ---------------------------------------------------------------- R7.1 the captain line


def test_R7_1_empty_captain_line_with_players_2_to_5_is_an_error_on_that_line(
    world: World,
) -> None:
    players = make_players(5)
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    data = {"name": "Bez kapitána", "player_1": ""} | {
        f"player_{k}": f"{p.name} ({p.federation_id})" for k, p in enumerate(players[1:], start=2)
    }
    page = world.client("organiser").post(url, data)
    assert page.status_code == 200
    assert page.context["form"].errors["player_1"] == [
        "The captain goes on the first line (R7.1): fill it in or move the captain up."
    ]
    assert not Team.objects.filter(name="Bez kapitána").exists()  # nobody was made captain


def test_R7_1_empty_captain_line_on_the_edit_page_changes_nothing(world: World) -> None:
    players = make_players(5)
    client = world.client("organiser")
    data = {"name": "Orli"} | {
        f"player_{k}": f"{p.name} ({p.federation_id})" for k, p in enumerate(players, start=1)
    }
    create = reverse("entries:create", kwargs={"edition": "ko-1999"})
    assert client.post(create, data).status_code == 302
    team = Team.objects.get(name="Orli")
    edit = reverse("entries:edit", kwargs={"edition": "ko-1999", "team": team.pk})
    page = client.post(edit, data | {"player_1": "  "})
    assert page.status_code == 200
    assert "player_1" in page.context["form"].errors
    roster = [line.player for line in entry_queries.team_info(team).roster]
    assert roster == players  # the captain is still player 1


def test_R7_1_captain_error_in_czech(world: World) -> None:
    players = make_players(4)
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    data = {"name": "X"} | {f"player_{k}": p.federation_id for k, p in enumerate(players, 2)}
    page = world.client("organiser", language="cs").post(url, data)
    assert "Kapitán patří na první řádek" in page.context["form"].errors["player_1"][0]


def test_R7_1_a_pasted_roster_still_names_the_captain_first(world: World) -> None:
    make_players(4)
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    roster = "\n\nCZ002\nCZ001\nCZ003\nCZ004\n"  # blank lines are not roster lines
    response = world.client("organiser").post(url, {"name": "Vložení", "roster": roster})
    assert response.status_code == 302
    team = Team.objects.get(name="Vložení")
    assert entry_queries.team_info(team).roster[0].player.federation_id == "CZ002"


@pytest.mark.parametrize(
    "line",
    [
        "y" * 60_000,  # a LIKE pattern SQLite refuses: a server error before
        "#²",  # str.isdigit() but not int(): a server error before
        "#" + "9" * 30,  # a key no database column holds
    ],
)
def test_pasted_roster_line_of_any_length_is_an_error_on_the_roster(
    world: World, line: str
) -> None:
    make_players(4)
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    roster = f"CZ001\nCZ002\n{line}\nCZ004"
    page = world.client("organiser").post(url, {"name": "Dlouhý", "roster": roster})
    assert page.status_code == 200
    errors = page.context["form"].errors["roster"]
    assert len(errors) == 1 and errors[0].endswith(": no such player in the register.")
    assert len(errors[0]) < 200
    assert not Team.objects.filter(name="Dlouhý").exists()


@pytest.mark.parametrize("imps", ["99999999999999999999", "385"])
def test_R12_1_segment_totals_beyond_24_imps_a_board_are_a_field_error(
    drawn: World, imps: str
) -> None:
    """A segment's IMPs are bounded by its boards (24 IMPs a board at most): 20 digits (once a
    server error: an integer too large for the database) or one IMP too many for 16 boards is
    named on the form, nothing saved."""
    from django.urls import reverse

    from bridgeko.matches.models import Match, Segment

    match = Match.objects.filter(edition=drawn.edition, status="to_play").first()
    assert match is not None
    url = reverse(
        "matches:segment_totals",
        kwargs={"edition": drawn.edition.slug, "code": match.code, "segment": 1},
    )
    response = drawn.client("td").post(
        url, {"s1-home_imps": imps, "s1-visitors_imps": "10"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "At most 384 IMPs in segment 1: 16 boards of at most 24 IMPs each." in (
        response.content.decode()
    )
    segment = Segment.objects.get(match=match, number=1)
    assert (segment.home_imps, segment.visitors_imps) == (None, None)
    ok = drawn.client("td").post(url, {"s1-home_imps": "384", "s1-visitors_imps": "0"})
    assert ok.status_code == 302
