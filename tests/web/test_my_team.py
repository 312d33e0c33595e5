"""A captain's own team (issue 9): the "My team" page (roster with Elo, pairs and their
convention cards, conditions of entry R3, the fee R4.1, the matches with the opposing captain),
no internal notes of the organiser or the TDs, pairs declared by the captain until the
deadline or the freeze (R3.2, R7.2), convention cards uploaded (R3.1b), checked by content,
kept when replaced and sent only to whoever may see them; where a user lands after login."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.models import AuditEntry
from bridgeko.competition import entries as rules
from bridgeko.draw import services as draw_services
from bridgeko.editions.models import Edition
from bridgeko.entries import services
from bridgeko.entries import views as entry_views
from bridgeko.entries.models import ConventionCard, Pair, Team
from tests.web.conftest import PASSWORD, World, demo_loaded, make_user
from tests.web.test_entries import NOW, enter_team, make_players

PDF = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
SECRET_LATE = "secret: the chief TD let them in because of the snow"
SECRET_FEE = "secret: a discount agreed on the phone"


BEFORE_DEADLINE = datetime(1999, 3, 1, 12, tzinfo=UTC)


class _Clock:
    """``django.utils.timezone`` as the entries views see it, on 1 March 1999."""

    @staticmethod
    def now() -> datetime:
        return BEFORE_DEADLINE


@pytest.fixture
def in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages are used before the 1999 entry deadline (the captain may still declare)."""
    monkeypatch.setattr(entry_views, "timezone", _Clock)


def _captain(edition: Edition, team: Team, username: str, **extra: Any) -> Client:
    user = make_user(username, **extra)
    RoleAssignment.objects.create(user=user, edition=edition, role=Role.CAPTAIN, team=team)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


@pytest.fixture
def team(world: World) -> Team:
    """Orli: four players, no conditions received yet, two pairs declared by the organiser."""
    return enter_team(
        world.edition,
        "Orli",
        make_players(4, elo=[1500, 1400, None, 1300]),
        world.users["organiser"],
        received=None,
    )


@pytest.fixture
def kapitan(world: World, team: Team) -> Client:
    return _captain(world.edition, team, "kapitan")


def _url(name: str, team: Team, **kwargs: Any) -> str:
    return reverse(name, kwargs={"edition": team.edition.slug, "team": team.pk, **kwargs})


def _upload(client: Client, pair: Pair, name: str, data: bytes, **extra: str) -> Any:
    return client.post(
        _url("entries:card_upload", pair.team, pair=pair.pk),
        {"file": SimpleUploadedFile(name, data), **extra},
    )


# ---------------------------------------------------------------- the page and its privacy


@pytest.mark.django_db
def test_my_team_shows_roster_pairs_conditions_and_fee(
    world: World, team: Team, kapitan: Client
) -> None:
    response = kapitan.get(reverse("entries:my_team", kwargs={"edition": world.edition.slug}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "My team: Orli" in html
    assert "1500" in html and "1300" in html  # Elo of the roster (R10.1)
    assert html.count('class="pair"') == 2
    assert "no convention card uploaded" in html
    assert "entry form: not received (R3.1a)" in html  # the engine's condition (R3)
    assert "<strong>CZK\xa0600</strong>" in html  # R4.1: a new team of members
    assert 'id="fee-outstanding"><strong class="error">CZK\xa0600' in html  # nothing paid
    assert "The draw has not been held yet" in html


@pytest.mark.django_db
def test_captain_sees_no_internal_notes_on_my_team_nor_team_page(
    world: World, team: Team, kapitan: Client
) -> None:
    Team.objects.filter(pk=team.pk).update(late_entry=True, late_reason=SECRET_LATE)
    services.override_fee(
        team=team, amount=300, reason=SECRET_FEE, user=world.users["organiser"], now=NOW
    )
    for url in (
        reverse("entries:my_team", kwargs={"edition": world.edition.slug}),
        _url("entries:detail", team),
    ):
        html = kapitan.get(url).content.decode()
        assert "snow" not in html and "phone" not in html, url
        assert "set by the organiser (I4)" in html
    organiser_html = world.client("organiser").get(_url("entries:detail", team)).content.decode()
    assert SECRET_LATE in organiser_html and SECRET_FEE in organiser_html


@pytest.mark.django_db
def test_another_teams_captain_gets_403(world: World, team: Team) -> None:
    other = world.client("captain")  # captain of the world's team, not of Orli
    assert other.get(_url("entries:my_team_of", team)).status_code == 403
    assert other.get(_url("entries:pairs", team)).status_code == 403
    pair = team.pairs.first()
    assert pair is not None
    assert other.get(_url("entries:card_upload", team, pair=pair.pk)).status_code == 403
    own = other.get(reverse("entries:my_team", kwargs={"edition": world.edition.slug}))
    assert "My team: Kapitáni" in own.content.decode()


@pytest.mark.django_db
def test_captain_of_two_teams_picks_one(world: World, team: Team) -> None:
    client = world.client("captain")
    RoleAssignment.objects.create(
        user=world.users["captain"], edition=world.edition, role=Role.CAPTAIN, team=team
    )
    html = client.get(reverse("entries:my_team", kwargs={"edition": world.edition.slug})).content
    assert b"Choose one" in html and b"Orli" in html and "Kapitáni".encode() in html
    assert client.get(_url("entries:my_team_of", team)).status_code == 200


@pytest.mark.django_db
def test_menu_links_to_my_team(world: World, team: Team, kapitan: Client) -> None:
    html = kapitan.get(_url("entries:detail", team)).content.decode()
    assert 'id="nav-my-team"' in html  # the edition menu
    assert f'href="{_url("entries:my_team_of", team)}"' in html  # the user menu
    assert "My team: Orli (" in html
    public = world.client("organiser").get(_url("entries:detail", team)).content.decode()
    assert 'id="nav-my-team"' not in public


# ---------------------------------------------------------------- pairs (R3.1b, R3.2, R7.2)


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_R3_1_captain_declares_pairs(world: World, team: Team, kapitan: Client) -> None:
    roster = [line.player for line in team.roster.select_related("player").order_by("position")]
    response = kapitan.post(
        _url("entries:pairs", team),
        {
            "pair1_a": roster[0].pk,
            "pair1_b": roster[2].pk,
            "pair2_a": roster[1].pk,
            "pair2_b": roster[3].pk,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == _url("entries:my_team_of", team)
    labels = sorted(p.label for p in Pair.objects.filter(team=team))
    assert labels == sorted(
        [f"{roster[0].name} – {roster[2].name}", f"{roster[1].name} – {roster[3].name}"]
    )
    assert AuditEntry.objects.filter(
        action="bridgeko.team.pairs_declared", user__username="kapitan"
    ).exists()


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_R7_2_pairs_refused_after_entry_with_the_reason(
    world: World, team: Team, kapitan: Client
) -> None:
    Team.objects.filter(pk=team.pk).update(form_received=date(1999, 3, 1))
    before = list(Pair.objects.filter(team=team).values_list("pk", "player_a", "player_b"))
    page = kapitan.get(_url("entries:pairs", team)).content.decode()
    assert "frozen (R7.2)" in page and "<form" not in page.split("<main>")[1]
    roster = list(team.roster.order_by("position").values_list("player_id", flat=True))
    response = kapitan.post(
        _url("entries:pairs", team), {"pair1_a": roster[0], "pair1_b": roster[3]}
    )
    assert "frozen (R7.2)" in response.content.decode()
    assert list(Pair.objects.filter(team=team).values_list("pk", "player_a", "player_b")) == before
    my = kapitan.get(_url("entries:my_team_of", team)).content.decode()
    assert 'id="pairs-closed"' in my and "Declare pairs" not in my


@pytest.mark.django_db
def test_R3_2_pairs_refused_after_the_deadline(world: World, team: Team, kapitan: Client) -> None:
    page = kapitan.get(_url("entries:pairs", team)).content.decode()  # 1999: long past
    assert "The entry deadline has passed (the end of 5 March 1999, R3.2, I12)" in page
    with pytest.raises(Exception, match="deadline has passed"):
        services.set_pairs(
            team=team, pairs=[], user=RoleAssignment.objects.get(team=team).user, now=NOW
        )


@pytest.mark.django_db
def test_rule_captain_changes_closed(world: World) -> None:
    reg = world.edition.regulations
    before = datetime(1999, 3, 5, 22, 59, tzinfo=UTC)  # 23:59 in Prague, the last minute
    assert rules.captain_changes_closed(entered=False, now=before, reg=reg) is None
    assert rules.captain_changes_closed(entered=True, now=before, reg=reg) is not None
    assert (
        rules.captain_changes_closed(entered=True, now=before, reg=reg, frozen_by_entry=False)
        is None
    )
    after = datetime(1999, 3, 5, 23, 0, 1, tzinfo=UTC)
    assert "R3.2" in str(rules.captain_changes_closed(entered=False, now=after, reg=reg))


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_pairs_declared_again_keep_their_cards(world: World, team: Team, kapitan: Client) -> None:
    pair = team.pairs.first()
    assert pair is not None
    assert _upload(kapitan, pair, "karta.pdf", PDF).status_code == 302
    roster = list(team.roster.order_by("position").values_list("player_id", flat=True))
    # the same first pair (the other way round), the second pair dropped
    kapitan.post(_url("entries:pairs", team), {"pair1_a": roster[1], "pair1_b": roster[0]})
    assert Pair.objects.filter(team=team).count() == 1
    card = ConventionCard.objects.get()
    assert card.pair_id == pair.pk  # kept with its pair


# ---------------------------------------------------------------- convention cards (R3.1b)


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [("karta.pdf", PDF, "application/pdf"), ("karta.png", PNG, "image/png")],
)
def test_R3_1_captain_uploads_convention_card(
    world: World, team: Team, kapitan: Client, name: str, data: bytes, kind: str
) -> None:
    pair = team.pairs.first()
    assert pair is not None and pair.card_received is None
    response = _upload(kapitan, pair, name, data)
    assert response.status_code == 302
    card = ConventionCard.objects.get()
    assert (card.pair_id, card.original_name, card.size, card.content_type) == (
        pair.pk,
        name,
        len(data),
        kind,
    )
    stored = Path(settings.MEDIA_ROOT) / card.file.name
    assert stored.read_bytes() == data
    assert name not in card.file.name  # stored under a name of our own
    pair.refresh_from_db()
    assert pair.card_received is not None  # the organiser's receipt date, set on upload
    assert AuditEntry.objects.filter(action="bridgeko.card.uploaded").count() == 1
    html = kapitan.get(_url("entries:my_team_of", team)).content.decode()
    assert name in html and "Replace the card" in html


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("karta.txt", b"just some text, not a card", "not a PDF, PNG or JPEG"),
        ("karta.pdf", b"<html>this only calls itself a PDF</html>", "not a PDF, PNG or JPEG"),
        ("karta.pdf", b"", "empty"),
    ],
)
def test_R3_1_wrong_card_refused(
    world: World, team: Team, kapitan: Client, name: str, data: bytes, message: str
) -> None:
    pair = team.pairs.first()
    assert pair is not None
    audits = AuditEntry.objects.count()
    response = _upload(kapitan, pair, name, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert ConventionCard.objects.count() == 0 and AuditEntry.objects.count() == audits


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_R3_1_too_large_card_refused(
    world: World, team: Team, kapitan: Client, settings: Any
) -> None:
    settings.BRIDGEKO_CARD_MAX_BYTES = 1000
    pair = team.pairs.first()
    assert pair is not None
    response = _upload(kapitan, pair, "karta.pdf", PDF + b"x" * 2000)
    assert "too large" in response.content.decode()
    assert ConventionCard.objects.count() == 0


@pytest.mark.django_db
def test_R3_2_card_refused_after_the_deadline(world: World, team: Team, kapitan: Client) -> None:
    pair = team.pairs.first()
    assert pair is not None
    response = _upload(kapitan, pair, "karta.pdf", PDF)
    assert "The entry deadline has passed" in response.content.decode()
    assert ConventionCard.objects.count() == 0
    # the organiser may still upload a card (R3: they decide what they received)
    organiser = world.client("organiser")
    assert _upload(organiser, pair, "karta.pdf", PDF).status_code == 302


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_card_may_be_sent_after_entry_until_the_deadline(
    world: World, team: Team, kapitan: Client
) -> None:
    Team.objects.filter(pk=team.pk).update(form_received=date(1999, 3, 1))  # entered: frozen
    pair = team.pairs.first()
    assert pair is not None
    assert _upload(kapitan, pair, "karta.pdf", PDF).status_code == 302


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_replacing_a_card_asks_and_keeps_the_old_file(
    world: World, team: Team, kapitan: Client
) -> None:
    pair = team.pairs.first()
    assert pair is not None
    _upload(kapitan, pair, "stara.pdf", PDF)
    old = ConventionCard.objects.get()
    page = kapitan.get(_url("entries:card_upload", team, pair=pair.pk)).content.decode()
    assert "already has a convention card" in page and "stara.pdf" in page
    refused = _upload(kapitan, pair, "nova.png", PNG)  # not confirmed
    assert "Confirm that the new file replaces it" in refused.content.decode()
    assert ConventionCard.objects.count() == 1
    assert _upload(kapitan, pair, "nova.png", PNG, replace="on").status_code == 302
    old.refresh_from_db()
    new = ConventionCard.objects.get(replaced_at__isnull=True)
    assert (new.original_name, old.replaced_by_id) == ("nova.png", new.pk)
    assert (Path(settings.MEDIA_ROOT) / old.file.name).read_bytes() == PDF  # kept
    entry = AuditEntry.objects.get(action="bridgeko.card.replaced")
    assert entry.before["card"]["file"] == "stara.pdf" and entry.after["card"]["file"] == "nova.png"
    html = kapitan.get(_url("entries:my_team_of", team)).content.decode()
    assert "nova.png" in html and "stara.pdf" in html and "Earlier cards: 1" in html


@pytest.mark.usefixtures("in_time")
@pytest.mark.django_db
def test_card_download_permissions(world: World, team: Team, kapitan: Client) -> None:
    pair = team.pairs.first()
    assert pair is not None
    _upload(kapitan, pair, "Karta páru.pdf", PDF)
    url = _url("entries:card", team, card=ConventionCard.objects.get().pk)
    response = kapitan.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert "Karta" in response["Content-Disposition"]
    assert world.client("td").get(url).status_code == 200
    assert world.client("organiser").get(url).status_code == 200
    assert world.client("captain").get(url).status_code == 403  # another team's captain
    assert world.client("public").get(url).status_code == 403
    anonymous = world.client("anonymous").get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    name = ConventionCard.objects.get().file.name
    assert Client().get(settings.MEDIA_URL + name).status_code == 404  # never served as is


# ---------------------------------------------------------------- the matches


@pytest.mark.django_db
def test_my_team_lists_matches_with_the_opposing_captain(world: World) -> None:
    organiser = world.users["organiser"]
    teams = [
        enter_team(
            world.edition,
            f"Tým {k}",
            make_players(4, elo=[900 - 10 * k] * 4, start=1 + 4 * k),
            organiser,
        )
        for k in range(8)
    ]
    from bridgeko.entries.services import close_entries

    close_entries(edition=world.edition, user=organiser, now=NOW)
    draw_services.announce_draw(
        edition=world.edition,
        place="Praha",
        at=datetime(1999, 3, 12, 17, tzinfo=UTC),
        user=organiser,
        now=NOW,
    )
    draw_services.publish_commitment(
        edition=world.edition, user=organiser, now=NOW, seed=bytes(range(32))
    )
    draw_services.hold_draw(
        edition=world.edition, user=organiser, now=datetime(1999, 3, 12, 17, tzinfo=UTC)
    )
    clients = {
        t.pk: _captain(
            world.edition,
            t,
            f"kap{k}",
            email=f"kap{k}@example.cz",
            first_name="Kap",
            last_name=str(k),
        )
        for k, t in enumerate(teams)
    }
    html = (
        clients[teams[0].pk]
        .get(reverse("entries:my_team", kwargs={"edition": world.edition.slug}))
        .content.decode()
    )
    assert "Quarterfinals" in html
    section = html.split('id="matches"')[1]
    opponents = [t for t in teams[1:] if t.name in section]
    assert len(opponents) == 1
    k = teams.index(opponents[0])
    assert f"kap{k}@example.cz" in section and f"Kap {k}" in section
    assert "not published yet (R14.1)" in section


# ---------------------------------------------------------------- after logging in


def _login(client: Client, username: str, next_url: str = "") -> str:
    data = {"username": username, "password": PASSWORD}
    url = reverse("login") + (f"?next={next_url}" if next_url else "")
    response = client.post(url, data, follow=True)
    return str(response.redirect_chain[-1][0]) if response.redirect_chain else ""


@pytest.mark.django_db
def test_after_login_captain_lands_on_my_team(world: World) -> None:
    slug = world.edition.slug
    assert _login(Client(), "captain") == reverse("entries:my_team", kwargs={"edition": slug})
    assert _login(Client(), "organiser") == reverse("editions:dashboard", kwargs={"edition": slug})
    assert _login(Client(), "public") == reverse("home")
    public_page = reverse("public:home", kwargs={"edition": slug})
    assert _login(Client(), "captain", public_page) == public_page  # an explicit next wins


@pytest.mark.django_db
def test_my_team_in_czech(world: World, team: Team) -> None:
    client = _captain(world.edition, team, "kapitanka")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    html = client.get(_url("entries:my_team_of", team)).content.decode()
    assert "Moje družstvo: Orli" in html
    assert "Uzávěrka přihlášek uplynula (konec dne 5. 3. 1999, R3.2, I12)" in html
    assert "Los ještě neproběhl" in html and "Zbývá zaplatit" in html


@pytest.mark.django_db
def test_demo_captain_lands_on_my_team_with_the_published_dates(db: Any) -> None:
    from bridgeko.demo import DEMO_SLUG

    demo_loaded()
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    landed = _login_as(client, "captain", "demo-pass")
    assert landed == reverse("entries:my_team", kwargs={"edition": DEMO_SLUG})
    html = client.get(landed).content.decode()
    section = html.split('id="matches"')[1]
    assert "Preliminary round 1" in section or "Quarterfinals" in section
    assert "not published yet" not in section.split("Quarterfinals")[0]  # R14.1: published
    assert "late_reason" not in html


def _login_as(client: Client, username: str, password: str) -> str:
    response = client.post(
        reverse("login"), {"username": username, "password": password}, follow=True
    )
    return str(response.redirect_chain[-1][0])
