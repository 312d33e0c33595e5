"""The draw: announcement (R11.5), commitment and revealed seed (I8), numbering by Elo and lot
(R11, I3), byes (R11.4), the protocol checked by the engine and by ``bridgeko verify-draw``,
a draw made by hand, and the preliminary-round dates (R14.1)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from bridgeko.audit.models import AuditEntry
from bridgeko.cli import main as cli_main
from bridgeko.competition.draw import commitment, verify_protocol
from bridgeko.core.errors import ServiceError
from bridgeko.draw import schedule_services, services
from bridgeko.draw.models import Draw, DrawNumber, MatchDate
from bridgeko.entries import services as entry_services
from bridgeko.entries.models import Team
from tests.web.conftest import World, extend
from tests.web.test_entries import NOW, enter_team, make_players

DRAW_AT = datetime(1999, 3, 12, 17, 0, tzinfo=UTC)  # Friday 12 March 1999, 18:00 in Prague
SEED = bytes(range(32))
TEAM_ELO = [700 - 10 * k for k in range(13)]
"""Team k (Tým 00 .. Tým 12): every player has this Elo, so the team has it too."""


def enter_13(world: World) -> list[Team]:
    organiser = world.users["organiser"]
    teams = []
    for k, elo in enumerate(TEAM_ELO):
        players = make_players(4, elo=[elo] * 4, start=1 + 4 * k)
        teams.append(enter_team(world.edition, f"Tým {k:02d}", players, organiser))
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    return teams


@pytest.fixture
def teams(world: World) -> list[Team]:
    return extend(world, "teams", enter_13)


def announce_and_commit(world: World, seed: bytes = SEED) -> Draw:
    organiser = world.users["organiser"]
    services.announce_draw(
        edition=world.edition, place="Nové Město nad Metují", at=DRAW_AT, user=organiser, now=NOW
    )
    return services.publish_commitment(edition=world.edition, user=organiser, now=NOW, seed=seed)


def held(world: World) -> Draw:
    announce_and_commit(world)
    return services.hold_draw(edition=world.edition, user=world.users["organiser"], now=DRAW_AT)


@pytest.mark.django_db
def test_R11_draw_seeds_four_by_elo_and_draws_the_rest(world: World, teams: list[Team]) -> None:
    draw = held(world)
    assert (draw.scheme_size, draw.seeded) == (16, 4)  # R9.2: 13 teams -> 16; R11.1: 16/4
    numbers = {n.number: n.team.name for n in DrawNumber.objects.filter(draw=draw)}
    assert sorted(numbers) == list(range(1, 14))  # R11.4: 14-16 missing
    # R11.1, R11.2: the four best Elo get 1-4 in order of Elo.
    assert [numbers[n] for n in range(1, 5)] == ["Tým 00", "Tým 01", "Tým 02", "Tým 03"]
    assert sorted(numbers[n] for n in range(5, 14)) == [f"Tým {k:02d}" for k in range(4, 13)]
    doc = json.loads(draw.protocol)
    assert doc["commitment"] == commitment(SEED) and doc["seed"] == SEED.hex()
    assert [b["number"] for b in doc["byes"]] == [1, 2, 3]  # opponents 16, 15, 14 missing
    assert doc["place"] == "Nové Město nad Metují"
    assert verify_protocol(draw.protocol).ok
    assert AuditEntry.objects.filter(action="bridgeko.draw.held").count() == 1


@pytest.mark.django_db
def test_I8_tampered_protocol_is_caught(world: World, teams: list[Team], tmp_path: Path) -> None:
    draw = held(world)
    doc = json.loads(draw.protocol)
    five, six = doc["numbering"]["5"], doc["numbering"]["6"]
    doc["numbering"]["5"], doc["numbering"]["6"] = six, five
    report = verify_protocol(doc)
    assert not report.ok
    assert any(p.startswith("number 5:") for p in report.problems)
    # The published file through the command line: ok, then tampered.
    client = world.client("anonymous")
    response = client.get(reverse("public:protocol", kwargs={"edition": world.edition.slug}))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    good = tmp_path / "draw.json"
    good.write_bytes(response.content)
    assert cli_main(["verify-draw", str(good)]) == 0
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert cli_main(["verify-draw", str(bad)]) == 1
    other_seed = json.loads(draw.protocol) | {"seed": bytes(range(1, 33)).hex()}
    report = verify_protocol(other_seed)
    assert any("does not match the commitment" in p for p in report.problems)


@pytest.mark.django_db
def test_I8_seed_secret_until_the_draw(world: World, teams: list[Team]) -> None:
    announce_and_commit(world)
    client = world.client("anonymous")
    url = reverse("public:draw", kwargs={"edition": world.edition.slug})
    page = client.get(url).content.decode()
    assert commitment(SEED) in page and SEED.hex() not in page
    protocol = reverse("public:protocol", kwargs={"edition": world.edition.slug})
    assert client.get(protocol).status_code == 404
    services.hold_draw(edition=world.edition, user=world.users["organiser"], now=DRAW_AT)
    page = client.get(url).content.decode()
    assert SEED.hex() in page


@pytest.mark.django_db
def test_commitment_cannot_change(world: World, teams: list[Team]) -> None:
    announce_and_commit(world)
    with pytest.raises(ServiceError, match="cannot change"):
        services.publish_commitment(
            edition=world.edition, user=world.users["organiser"], now=NOW, seed=bytes(range(1, 33))
        )
    assert Draw.objects.get().commitment == commitment(SEED)


@pytest.mark.django_db
def test_draw_refused_before_closing_commitment_or_announcement(world: World) -> None:
    organiser = world.users["organiser"]
    players = make_players(32)
    for k in range(8):
        enter_team(world.edition, f"Tým {k}", players[4 * k : 4 * k + 4], organiser)
    audit = AuditEntry.objects.count()
    with pytest.raises(ServiceError, match="Close the entries"):
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    audit += 2  # the closing and the edition's stage moving to "entries closed"
    with pytest.raises(ServiceError, match="Announce"):
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    services.announce_draw(edition=world.edition, place="Klub", at=DRAW_AT, user=organiser, now=NOW)
    audit += 1
    with pytest.raises(ServiceError, match="commitment"):
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    assert AuditEntry.objects.count() == audit
    assert DrawNumber.objects.count() == 0
    assert Draw.objects.get().held_at is None


@pytest.mark.django_db
def test_R11_5_draw_not_held_before_the_announced_time(world: World, teams: list[Team]) -> None:
    """Announced for 12 March 1999 18:00 (Prague): refused a minute earlier, nothing saved;
    held from the announced minute on. A new announcement (audited) may bring it forward."""
    organiser = world.users["organiser"]
    announce_and_commit(world)
    audit = AuditEntry.objects.count()
    for early in (
        datetime(1999, 3, 10, 12, 0, tzinfo=UTC),
        datetime(1999, 3, 12, 16, 59, tzinfo=UTC),
    ):
        with pytest.raises(ServiceError, match=r"12 March 1999, 18:00.*R11\.5"):
            services.hold_draw(edition=world.edition, user=organiser, now=early)
    assert AuditEntry.objects.count() == audit
    assert DrawNumber.objects.count() == 0 and Draw.objects.get().held_at is None
    earlier = datetime(1999, 3, 11, 17, 0, tzinfo=UTC)
    services.announce_draw(edition=world.edition, place="Klub", at=earlier, user=organiser, now=NOW)
    draw = services.hold_draw(
        edition=world.edition, user=organiser, now=datetime(1999, 3, 11, 17, 0, 30, tzinfo=UTC)
    )
    assert draw.held_at is not None and DrawNumber.objects.count() == 13


@pytest.mark.django_db
def test_R11_5_manual_draw_not_dated_before_the_announced_time(
    world: World, teams: list[Team]
) -> None:
    organiser = world.users["organiser"]
    services.announce_draw(edition=world.edition, place="Klub", at=DRAW_AT, user=organiser, now=NOW)
    order = [t.pk for t in teams[4:]]
    with pytest.raises(ServiceError, match=r"R11\.5") as exc:
        services.enter_manual_draw(
            edition=world.edition,
            drawn_order=order,
            drawn_at=datetime(1999, 3, 12, 16, 0, tzinfo=UTC),
            user=organiser,
            now=NOW,
        )
    assert exc.value.field == "drawn_at"
    assert DrawNumber.objects.count() == 0
    services.enter_manual_draw(
        edition=world.edition, drawn_order=order, drawn_at=DRAW_AT, user=organiser, now=NOW
    )
    assert DrawNumber.objects.count() == 13


@pytest.mark.django_db
def test_R11_5_early_draw_message_in_czech(world: World, teams: list[Team]) -> None:
    announce_and_commit(world)
    with translation.override("cs"), pytest.raises(ServiceError) as exc:
        services.hold_draw(edition=world.edition, user=world.users["organiser"], now=NOW)
    assert "12. 3. 1999 18:00" in exc.value.message and "losování" in exc.value.message.lower()


@pytest.mark.django_db
def test_no_draw_when_cancelled(world: World) -> None:
    organiser = world.users["organiser"]
    players = make_players(8)
    for k in range(2):
        enter_team(world.edition, f"Tým {k}", players[4 * k : 4 * k + 4], organiser)
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    with pytest.raises(ServiceError, match=r"R8\.1"):
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)


@pytest.mark.django_db
def test_draw_cannot_be_held_twice_and_entries_not_reopened(
    world: World, teams: list[Team]
) -> None:
    held(world)
    organiser = world.users["organiser"]
    with pytest.raises(ServiceError, match="already"):
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    with pytest.raises(ServiceError, match="draw"):
        entry_services.reopen_entries(edition=world.edition, reason="x", user=organiser, now=NOW)


@pytest.mark.django_db
def test_I8_manual_draw(world: World, teams: list[Team]) -> None:
    organiser = world.users["organiser"]
    services.announce_draw(edition=world.edition, place="Klub", at=DRAW_AT, user=organiser, now=NOW)
    unseeded = [t.pk for t in reversed(teams[4:])]  # drawn: Tým 12 first ... Tým 04 last
    with pytest.raises(ServiceError, match="must be in the drawn order"):
        services.enter_manual_draw(
            edition=world.edition,
            drawn_order=unseeded[:-1],
            drawn_at=DRAW_AT,
            user=organiser,
            now=NOW,
        )
    assert DrawNumber.objects.count() == 0
    draw = services.enter_manual_draw(
        edition=world.edition, drawn_order=unseeded, drawn_at=DRAW_AT, user=organiser, now=NOW
    )
    numbers = {n.number: n.team.name for n in DrawNumber.objects.filter(draw=draw)}
    assert numbers == {
        **{k + 1: f"Tým {k:02d}" for k in range(4)},
        **{5 + k: f"Tým {12 - k:02d}" for k in range(9)},
    }
    report = verify_protocol(draw.protocol)
    assert report.ok and report.method == "manual"


@pytest.mark.django_db
def test_R14_1_default_dates_edit_and_publish(world: World, teams: list[Team]) -> None:
    organiser = world.users["organiser"]
    held(world)
    rows = schedule_services.default_schedule(
        edition=world.edition, first_date=date(1999, 3, 13), user=organiser, now=NOW
    )
    # 16-scheme: one preliminary round; 8 first-round matches, 3 of them byes (R11.4).
    assert len(rows) == 5
    # Friday 19 March 1999, 19:00 in Prague (18:00 UTC).
    assert {r.start for r in rows} == {datetime(1999, 3, 19, 18, 0, tzinfo=UTC)}
    assert {r.location for r in rows} == {"Bridžový klub Nové Město nad Metují"}
    moved = schedule_services.set_match_date(
        edition=world.edition,
        match=rows[0].match,
        start=datetime(1999, 3, 18, 17, 0, tzinfo=UTC),
        location="Hradec Králové",
        user=organiser,
        now=NOW,
    )
    assert moved.location == "Hradec Králové"
    with pytest.raises(ServiceError, match=r"R14\.3"):
        schedule_services.set_match_date(
            edition=world.edition,
            match=rows[0].match,
            start=datetime(1999, 6, 5, 17, 0, tzinfo=UTC),
            location="",
            user=organiser,
            now=NOW,
        )
    schedule_services.publish_schedule(edition=world.edition, user=organiser, now=NOW)
    entry = AuditEntry.objects.get(action="bridgeko.schedule.published")
    assert entry.after["in_time"] is True
    with pytest.raises(ServiceError, match="published"):
        schedule_services.set_match_date(
            edition=world.edition,
            match=rows[1].match,
            start=datetime(1999, 3, 18, 17, 0, tzinfo=UTC),
            location="",
            user=organiser,
            now=NOW,
        )
    client = world.client("anonymous")
    ics = client.get(reverse("public:schedule_ics", kwargs={"edition": world.edition.slug}))
    assert ics.status_code == 200
    text = ics.content.decode()
    assert text.count("BEGIN:VEVENT") == 5
    assert "Hradec Králové" in text


def held_8(world: World) -> Draw:
    """Eight teams drawn: a scheme for 8, the quarterfinals first (no preliminary round)."""
    organiser = world.users["organiser"]
    players = make_players(32)
    for k in range(8):
        enter_team(world.edition, f"Tým {k}", players[4 * k : 4 * k + 4], organiser)
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    draw = held(world)
    assert draw.scheme_size == 8
    return draw


@pytest.mark.django_db
def test_R11_6_eight_teams_have_no_preliminary_dates(world: World) -> None:
    held_8(world)
    organiser = world.users["organiser"]
    audit = AuditEntry.objects.count()
    with pytest.raises(ServiceError, match=r"no preliminary rounds.*R11\.6"):
        schedule_services.default_schedule(
            edition=world.edition, first_date=date(1999, 3, 13), user=organiser, now=NOW
        )
    with pytest.raises(ServiceError, match=r"no preliminary rounds.*R11\.6"):
        schedule_services.publish_schedule(edition=world.edition, user=organiser, now=NOW)
    assert AuditEntry.objects.count() == audit
    assert MatchDate.objects.count() == 0 and Draw.objects.get().schedule_published_at is None
    slug = world.edition.slug
    page = world.client("organiser").get(reverse("draw:schedule", kwargs={"edition": slug}))
    text = page.content.decode()
    assert "no preliminary rounds" in text and "R11.6" in text
    assert "R14.1" not in text  # no publishing deadline
    assert reverse("draw:schedule_defaults", kwargs={"edition": slug}) not in text
    assert reverse("draw:schedule_publish", kwargs={"edition": slug}) not in text
    czech = world.client("organiser", "cs").get(reverse("draw:schedule", kwargs={"edition": slug}))
    assert "Rozehrávka se nehraje" in czech.content.decode()
    with translation.override("en"):  # the Czech request above left Czech active
        public_url = reverse("public:schedule", kwargs={"edition": slug})
    public = world.client("anonymous").get(public_url)
    assert "There are no preliminary rounds" in public.content.decode()
    assert "not published yet" not in public.content.decode()
    dashboard = world.client("organiser").get(
        reverse("editions:dashboard", kwargs={"edition": slug})
    )
    assert "Publish the dates of the preliminary matches" not in dashboard.content.decode()


@pytest.mark.django_db
def test_R14_1_dashboard_asks_for_the_dates_with_preliminary_rounds(
    world: World, teams: list[Team]
) -> None:
    held(world)
    dashboard = world.client("organiser").get(
        reverse("editions:dashboard", kwargs={"edition": world.edition.slug})
    )
    assert "Publish the dates of the preliminary matches" in dashboard.content.decode()


@pytest.mark.django_db
def test_R8_1_cancelled_edition_draw_page_offers_nothing(world: World) -> None:
    organiser = world.users["organiser"]
    players = make_players(8)
    for k in range(2):
        enter_team(world.edition, f"Tým {k}", players[4 * k : 4 * k + 4], organiser)
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    slug = world.edition.slug
    text = (
        world.client("organiser")
        .get(reverse("draw:manage", kwargs={"edition": slug}))
        .content.decode()
    )
    assert "The competition is cancelled (R8.1); there is no draw." in text
    for action in ("announce", "commit", "hold", "manual"):
        assert reverse(f"draw:{action}", kwargs={"edition": slug}) not in text
    audit = AuditEntry.objects.count()
    with pytest.raises(ServiceError, match=r"R8\.1"):
        services.announce_draw(
            edition=world.edition, place="Klub", at=DRAW_AT, user=organiser, now=NOW
        )
    with pytest.raises(ServiceError, match=r"R8\.1"):
        services.publish_commitment(edition=world.edition, user=organiser, now=NOW)
    assert AuditEntry.objects.count() == audit and Draw.objects.count() == 0


@pytest.mark.django_db
def test_R14_1_first_round_cannot_precede_the_draw(world: World, teams: list[Team]) -> None:
    held(world)
    with pytest.raises(ServiceError, match="before the draw"):
        schedule_services.default_schedule(
            edition=world.edition,
            first_date=date(1999, 3, 1),
            user=world.users["organiser"],
            now=NOW,
        )
    assert MatchDate.objects.count() == 0


@pytest.mark.django_db
def test_organiser_holds_the_draw_through_the_pages(world: World, teams: list[Team]) -> None:
    client = world.client("organiser")
    slug = world.edition.slug
    response = client.post(
        reverse("draw:announce", kwargs={"edition": slug}),
        {"place": "Klub", "at": "1999-03-12T18:00"},
    )
    assert response.status_code == 302
    assert client.post(reverse("draw:commit", kwargs={"edition": slug})).status_code == 302
    assert client.post(reverse("draw:hold", kwargs={"edition": slug})).status_code == 302
    draw = Draw.objects.get()
    assert draw.held and verify_protocol(draw.protocol).ok
    page = client.get(reverse("draw:manage", kwargs={"edition": slug})).content.decode()
    assert "Tým 00" in page


@pytest.mark.django_db
def test_dashboard_draw_items(world: World, teams: list[Team]) -> None:
    client = world.client("organiser")
    client.cookies["django_language"] = "en"
    url = reverse("editions:dashboard", kwargs={"edition": world.edition.slug})
    text = client.get(url).content.decode()
    assert "Announce the place and time of the draw" in text
    assert "Publish the commitment" in text
    held(world)
    text = client.get(url).content.decode()
    assert "Announce the place" not in text
    assert "Publish the dates of the preliminary matches" in text
    assert "26 March 1999, 23:59 CET" in text  # R14.1: 14 days after the draw


@pytest.mark.django_db
def test_I8_admin_never_shows_the_seed_before_the_draw(world: World, teams: list[Team]) -> None:
    from django.test import Client

    from tests.web.conftest import make_user

    draw = announce_and_commit(world)
    admin = Client()
    admin.force_login(make_user("root", is_superuser=True, is_staff=True))
    url = reverse("admin:draw_draw_change", args=[draw.pk])
    page = admin.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert draw.commitment in text and SEED.hex() not in text
    services.hold_draw(edition=world.edition, user=world.users["organiser"], now=DRAW_AT)
    assert SEED.hex() in admin.get(url).content.decode()
    team_page = admin.get(reverse("admin:entries_team_changelist"))
    assert team_page.status_code == 200 and "Tým 00" in team_page.content.decode()


@pytest.mark.django_db
def test_protocol_records_the_local_time_of_the_draw(world: World, teams: list[Team]) -> None:
    draw = held(world)
    assert json.loads(draw.protocol)["drawn_at"] == "1999-03-12T18:00:00+01:00"


@pytest.mark.django_db
def test_draw_refused_when_the_editions_numbers_changed_meanwhile(
    world: World, teams: list[Team]
) -> None:
    announce_and_commit(world)
    stale = world.edition
    stale.regulations  # noqa: B018 - the numbers the draw will be computed from
    changed = stale.regulations_toml.replace("seeded_divisor = 4", "seeded_divisor = 8")
    assert changed != stale.regulations_toml
    type(stale).objects.filter(pk=stale.pk).update(regulations_toml=changed)
    with pytest.raises(ServiceError, match="changed meanwhile"):
        services.hold_draw(edition=stale, user=world.users["organiser"], now=DRAW_AT)
    assert Draw.objects.get(edition=stale).held_at is None
    assert not DrawNumber.objects.exists()
    assert not AuditEntry.objects.filter(action="bridgeko.draw.held").exists()
