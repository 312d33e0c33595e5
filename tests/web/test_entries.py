"""Team entries: services (R3, R4.1, R7, R8.1, R10, R15.3, I4, I11, I12) and their pages.

Every refused write is checked to have saved nothing (counts before and after)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.editions.services import create_edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries import services
from bridgeko.entries.models import EntriesClosing, Pair, RosterEntry, Team
from bridgeko.players.models import EloList, EloRating, Player
from tests.web.conftest import CAPTAIN_TEAM_ID, World, make_user

NOW = datetime(1999, 3, 10, 12, 0, tzinfo=UTC)
"""After the 1999 entry deadline (5 March 1999)."""
IN_TIME = date(1999, 3, 1)
LATE = date(1999, 3, 6)


def make_players(
    count: int, *, elo: Sequence[int | None] | None = None, member: bool = True, start: int = 1
) -> list[Player]:
    """Players CZ001... with Elo on the 1999 reference list (30 June 1998) where given."""
    elo_list, _created = EloList.objects.get_or_create(
        reference_date=date(1998, 6, 30), defaults={"imported_at": NOW}
    )
    players = []
    for k in range(start, start + count):
        player = Player.objects.create(
            federation_id=f"CZ{k:03d}", name=f"Hráč {k:03d}", member=member
        )
        value = elo[k - start] if elo is not None else 500 + k
        if value is not None:
            EloRating.objects.create(elo_list=elo_list, player=player, elo=value)
        players.append(player)
    return players


def enter_team(
    edition: Edition,
    name: str,
    roster: Sequence[Player],
    user: Any,
    *,
    received: date | None = IN_TIME,
    pay: bool = True,
) -> Team:
    """Enters a team and records its conditions of entry (all received on ``received``)."""
    team = services.create_team(edition=edition, name=name, roster=roster, user=user, now=NOW)
    pairs = [(roster[k], roster[k + 1]) for k in range(0, len(roster) - 1, 2)]
    created = services.set_pairs(team=team, pairs=pairs, user=user, now=NOW)
    if received is not None:
        fee = entry_queries.team_info(team).fee
        assert fee is not None
        services.record_conditions(
            team=team,
            form_received=received,
            fee_received=received if pay else None,
            fee_paid=fee.amount if pay else 0,
            cards={p.pk: received for p in created},
            user=user,
            now=NOW,
        )
    team.refresh_from_db()
    return team


def counts() -> tuple[int, int, int, int, int]:
    return (
        Team.objects.count(),
        RosterEntry.objects.count(),
        Pair.objects.count(),
        EntriesClosing.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def organiser(world: World) -> Any:
    return world.users["organiser"]


# ---------------------------------------------------------------------------------------------
# R7: the roster


@pytest.mark.django_db
def test_R7_1_seven_players_refused_and_nothing_saved(world: World, organiser: Any) -> None:
    players = make_players(7)
    before = counts()
    with pytest.raises(ServiceError) as exc:
        services.create_team(
            edition=world.edition, name="Sedm", roster=players, user=organiser, now=NOW
        )
    assert "R7.1" in " ".join(exc.value.errors)
    assert "7" in " ".join(exc.value.errors)
    assert counts() == before


@pytest.mark.django_db
def test_R7_1_three_players_refused(world: World, organiser: Any) -> None:
    with pytest.raises(ServiceError) as exc:
        services.create_team(
            edition=world.edition, name="Tři", roster=make_players(3), user=organiser, now=NOW
        )
    assert any("R7.1" in e for e in exc.value.errors)


@pytest.mark.django_db
def test_R7_3_player_on_two_rosters_refused(world: World, organiser: Any) -> None:
    players = make_players(8)
    services.create_team(
        edition=world.edition, name="Orli", roster=players[:4], user=organiser, now=NOW
    )
    before = counts()
    with pytest.raises(ServiceError) as exc:
        services.create_team(
            edition=world.edition,
            name="Lvi",
            roster=[players[3], *players[4:7]],
            user=organiser,
            now=NOW,
        )
    message = " ".join(exc.value.errors)
    assert "R7.3" in message and "Orli" in message and "Hráč 004" in message
    assert counts() == before


@pytest.mark.django_db
def test_R7_3_message_names_the_federation_id_not_the_database_key(
    world: World, organiser: Any
) -> None:
    """The roster messages show the player's federation id (or the name alone without one)."""
    Player.objects.create(federation_id="PAD", name="Výplň")  # database keys differ from ids
    players = make_players(4)
    nameless = Player.objects.create(federation_id=None, name="Bez Čísla")
    services.create_team(
        edition=world.edition,
        name="Orli",
        roster=[*players[:3], nameless],
        user=organiser,
        now=NOW,
    )
    with pytest.raises(ServiceError) as exc:
        services.create_team(
            edition=world.edition,
            name="Lvi",
            roster=[players[0], nameless, *make_players(2, start=5)],
            user=organiser,
            now=NOW,
        )
    assert [e for e in exc.value.errors if "R7.3" in e] == [
        "Hráč 001 (CZ001) is already on the roster of team Orli (R7.3)",
        "Bez Čísla is already on the roster of team Orli (R7.3)",
    ]


@pytest.mark.django_db
def test_team_name_taken_ignoring_case_and_spaces(world: World, organiser: Any) -> None:
    players = make_players(8)
    services.create_team(
        edition=world.edition, name="Sokol Praha", roster=players[:4], user=organiser, now=NOW
    )
    with pytest.raises(ServiceError, match="already entered"):
        services.create_team(
            edition=world.edition,
            name="  sokol   PRAHA",
            roster=players[4:],
            user=organiser,
            now=NOW,
        )


def _previous_with(world: World, toml_1999: str, organiser: Any) -> Edition:
    """A 1998 edition linked as the previous one of ``world.edition``."""
    previous = create_edition(
        slug="ko-1998",
        toml_text=toml_1999.replace("Bridge Open K.O. 1999", "Bridge Open K.O. 1998"),
        user=organiser,
    )
    Edition.objects.filter(pk=world.edition.pk).update(previous=previous)
    world.edition.refresh_from_db()
    return previous


DRAW_AT = datetime(1999, 3, 12, 17, 0, tzinfo=UTC)


def hold_draw_of(edition: Edition, organiser: Any, *, fill_to: int = 8) -> None:
    """Enters teams "Doplněk k" until ``fill_to`` teams (R8.1: 8 at least), closes the
    entries of ``edition`` and holds its draw (through the services)."""
    from bridgeko.draw import services as draw_services

    have = RosterEntry.objects.filter(edition=edition).values("team").distinct().count()
    if have < fill_to:
        start = (
            1 + max(int(p.federation_id[2:]) for p in Player.objects.all())
            if Player.objects.exists()
            else 1
        )
        extra = make_players(4 * (fill_to - have), start=start)
        for k in range(fill_to - have):
            enter_team(edition, f"Doplněk {k}", extra[4 * k : 4 * k + 4], organiser)

    services.close_entries(edition=edition, user=organiser, now=NOW)
    draw_services.announce_draw(edition=edition, place="Praha", at=DRAW_AT, user=organiser, now=NOW)
    draw_services.publish_commitment(edition=edition, user=organiser, now=NOW)
    draw_services.hold_draw(edition=edition, user=organiser, now=DRAW_AT)


def first_match(team: Team) -> str:
    """The id of the first match of the bracket that ``team`` plays."""
    from bridgeko.draw import no_shows

    team.refresh_from_db()
    return no_shows.team_matches(team)[0].id


@pytest.mark.django_db
def test_R15_3_barred_player_refused(world: World, organiser: Any, toml_1999: str) -> None:
    previous = _previous_with(world, toml_1999, organiser)
    from bridgeko.draw import no_shows

    players = make_players(12)
    absent = enter_team(previous, "Nepřišli", players[:4], organiser)
    excused = enter_team(previous, "Omluvení", players[4:8], organiser)
    hold_draw_of(previous, organiser)
    no_shows.record_no_show(
        team=absent,
        match=first_match(absent),
        timely_notice=False,
        note="",
        user=organiser,
        now=NOW,
    )
    no_shows.record_no_show(
        team=excused,
        match=first_match(excused),
        timely_notice=True,
        note="",
        user=organiser,
        now=NOW,
    )
    before = counts()
    with pytest.raises(ServiceError) as exc:
        services.create_team(
            edition=world.edition,
            name="Noví",
            roster=[players[8], players[1], players[9], players[10]],
            user=organiser,
            now=NOW,
        )
    assert [e for e in exc.value.errors if "R15.3" in e] == [
        "Hráč 002 (CZ002) is barred from this edition for failing to appear "
        "without timely notice (R15.3)"
    ]
    assert counts() == before
    # The excused team's players may enter.
    team = services.create_team(
        edition=world.edition, name="Noví", roster=players[4:8], user=organiser, now=NOW
    )
    assert [line.player for line in entry_queries.team_info(team).roster] == players[4:8]


# ---------------------------------------------------------------------------------------------
# R7.2: the roster freeze


@pytest.mark.django_db
def test_R7_2_roster_change_after_entry_needs_the_chief_tds_reason(
    world: World, organiser: Any
) -> None:
    players = make_players(6)
    team = enter_team(world.edition, "Orli", players[:4], organiser)
    assert team.frozen
    captain = make_user("kapitan")  # before the counts: a new account is itself audited
    RoleAssignment.objects.create(
        user=captain, edition=world.edition, role=Role.CAPTAIN, team_id=team.pk
    )
    before = counts()
    with pytest.raises(ServiceError, match=r"R7\.2"):
        services.update_team(
            team=team, name="Orli", roster=[*players[:3], players[4]], user=organiser, now=NOW
        )
    assert counts() == before
    assert [p.pk for p in players[:4]] == list(
        RosterEntry.objects.filter(team=team).order_by("position").values_list("player", flat=True)
    )
    # The captain (not an organiser) cannot even with a reason.
    with pytest.raises(ServiceError, match="chief TD"):
        services.update_team(
            team=team,
            name="Orli",
            roster=[*players[:3], players[4]],
            user=captain,
            now=NOW,
            exception_reason="injury",
        )
    assert counts() == before
    # The chief TD's exception with a reason: saved and audited.
    services.update_team(
        team=team,
        name="Orli",
        roster=[*players[:3], players[4]],
        user=organiser,
        now=NOW,
        exception_reason="Hráč 004 is in hospital",
    )
    entry = AuditEntry.objects.filter(action="bridgeko.team.roster_exception").get()
    assert entry.after["exception_reason"] == "Hráč 004 is in hospital"
    assert entry.before["roster"][3] == f"Hráč 004 ({players[3].pk})"
    assert entry.after["roster"][3] == f"Hráč 005 ({players[4].pk})"


@pytest.mark.django_db
def test_R7_2_exception_still_checks_R7_1(world: World, organiser: Any) -> None:
    players = make_players(7)
    team = enter_team(world.edition, "Orli", players[:4], organiser)
    before = counts()
    with pytest.raises(ServiceError) as exc:
        services.update_team(
            team=team, name="Orli", roster=players, user=organiser, now=NOW, exception_reason="x"
        )
    assert any("R7.1" in e for e in exc.value.errors)
    assert counts() == before


@pytest.mark.django_db
def test_roster_free_before_entry(world: World, organiser: Any) -> None:
    players = make_players(5)
    team = services.create_team(
        edition=world.edition, name="Orli", roster=players[:4], user=organiser, now=NOW
    )
    services.update_team(team=team, name="Orli", roster=players, user=organiser, now=NOW)
    assert RosterEntry.objects.filter(team=team).count() == 5
    assert AuditEntry.objects.filter(action="bridgeko.team.changed").count() == 1


# ---------------------------------------------------------------------------------------------
# R4.1, I4: fees


@pytest.mark.django_db
def test_R4_1_fee_tiers(world: World, organiser: Any, toml_1999: str) -> None:
    previous = _previous_with(world, toml_1999, organiser)
    members = make_players(8)
    outsider = make_players(1, member=False, start=50)[0]
    old = enter_team(previous, "Sokol Praha", members[:4], organiser)
    Team.objects.filter(pk=old.pk).update(accepted=True)  # took part (I4)

    returning = services.create_team(
        edition=world.edition,
        name="sokol  praha",
        roster=members[:4],
        user=organiser,
        now=NOW,
    )
    new_members = services.create_team(
        edition=world.edition, name="Noví", roster=members[4:8], user=organiser, now=NOW
    )
    fees = {t.name: t.fee for t in entry_queries.edition_teams(world.edition)}
    assert fees["sokol praha"] is not None and fees["sokol praha"].amount == 300
    assert fees["sokol praha"].tier == "returning"
    assert fees["Noví"] is not None and fees["Noví"].amount == 600
    assert "R4.1" in fees["Noví"].reason

    services.update_team(
        team=new_members,
        name="Noví",
        roster=[*members[4:8], outsider],
        user=organiser,
        now=NOW,
    )
    fee = entry_queries.team_info(new_members).fee
    assert fee is not None and fee.amount == 1200 and fee.tier == "other"

    # I4: the organiser's override needs a reason; a refused override saves nothing.
    before = counts()
    with pytest.raises(ServiceError, match="reason"):
        services.override_fee(team=returning, amount=0, reason=" ", user=organiser, now=NOW)
    assert counts() == before
    services.override_fee(
        team=returning, amount=150, reason="half of the team abroad", user=organiser, now=NOW
    )
    fee = entry_queries.team_info(returning).fee
    assert fee is not None and (fee.amount, fee.rule_amount) == (150, 300)
    assert "half of the team abroad" in fee.reason
    services.override_fee(team=returning, amount=None, reason="", user=organiser, now=NOW)
    fee = entry_queries.team_info(returning).fee
    assert fee is not None and fee.amount == 300 and not fee.overridden


# ---------------------------------------------------------------------------------------------
# R10: team Elo


@pytest.mark.django_db
def test_R10_team_elo_from_the_reference_list(world: World, organiser: Any) -> None:
    players = make_players(4, elo=[600, 601, None, 700])
    team = services.create_team(
        edition=world.edition, name="Orli", roster=players, user=organiser, now=NOW
    )
    info = entry_queries.team_info(team)
    assert [line.elo for line in info.roster] == [600, 601, None, 700]
    assert info.elo == 634  # (600 + 601 + 700) / 3 = 633.67, rounded half up
    nobody = services.create_team(
        edition=world.edition,
        name="Neznámí",
        roster=make_players(4, elo=[None] * 4, start=20),
        user=organiser,
        now=NOW,
    )
    assert entry_queries.team_info(nobody).elo == 500  # R10.2


# ---------------------------------------------------------------------------------------------
# R3, R8.1, I11, I12: closing of entries


@pytest.mark.django_db
def test_R8_1_cancelled_below_8_with_refunds(world: World, organiser: Any) -> None:
    players = make_players(28)
    teams = [
        enter_team(world.edition, f"Tým {k}", players[4 * k : 4 * k + 4], organiser)
        for k in range(7)
    ]
    closing = services.close_entries(edition=world.edition, user=organiser, now=NOW)
    assert closing.cancelled
    assert "R8.1" in closing.reason and "fewer than 8" in closing.reason
    assert sorted((r["name"], r["amount"]) for r in closing.refunds) == [
        (f"Tým {k}", 600) for k in range(7)
    ]
    assert all(t.accepted for t in Team.objects.filter(pk__in=[t.pk for t in teams]))
    assert AuditEntry.objects.filter(action="bridgeko.entries.closed").count() == 1


@pytest.mark.django_db
def test_I11_only_teams_in_time_are_entered(world: World, organiser: Any) -> None:
    players = make_players(40)
    for k in range(8):
        enter_team(world.edition, f"Tým {k}", players[4 * k : 4 * k + 4], organiser)
    late = enter_team(world.edition, "Pozdě", players[32:36], organiser, received=LATE)
    unpaid = enter_team(world.edition, "Nezaplatili", players[36:40], organiser, pay=False)
    closing = services.close_entries(edition=world.edition, user=organiser, now=NOW)
    assert not closing.cancelled and closing.refunds == []
    assert "8 teams" in closing.reason
    late.refresh_from_db()
    unpaid.refresh_from_db()
    assert late.accepted is False and unpaid.accepted is False
    assert Team.objects.filter(edition=world.edition, accepted=True).count() == 8
    entry = AuditEntry.objects.get(action="bridgeko.entries.closed")
    assert set(entry.after["not_accepted"]) == {"Pozdě", "Nezaplatili"}


@pytest.mark.django_db
def test_I12_entries_cannot_close_before_the_end_of_the_deadline_day(
    world: World, organiser: Any
) -> None:
    before = counts()
    # 5 March 1999 22:59 UTC is 23:59 in Prague: still the deadline day.
    with pytest.raises(ServiceError, match=r"R3\.2"):
        services.close_entries(
            edition=world.edition,
            user=organiser,
            now=datetime(1999, 3, 5, 22, 59, tzinfo=UTC),
        )
    assert counts() == before
    services.close_entries(
        edition=world.edition, user=organiser, now=datetime(1999, 3, 5, 23, 0, tzinfo=UTC)
    )
    with pytest.raises(ServiceError, match="already closed"):
        services.close_entries(edition=world.edition, user=organiser, now=NOW)


@pytest.mark.django_db
def test_late_entry_after_closing_needs_the_chief_td_and_a_reason(
    world: World, organiser: Any
) -> None:
    players = make_players(8)
    services.close_entries(edition=world.edition, user=organiser, now=NOW)
    before = counts()
    with pytest.raises(ServiceError, match="closed"):
        services.create_team(
            edition=world.edition, name="Pozdní", roster=players[:4], user=organiser, now=NOW
        )
    with pytest.raises(ServiceError, match="closed"):
        services.create_team(
            edition=world.edition,
            name="Pozdní",
            roster=players[:4],
            user=world.users["td"],
            now=NOW,
            late_reason="x",
        )
    assert counts() == before
    team = services.create_team(
        edition=world.edition,
        name="Pozdní",
        roster=players[:4],
        user=organiser,
        now=NOW,
        late_reason="the form was lost in the post",
    )
    assert team.late_entry and team.accepted is None
    assert AuditEntry.objects.filter(action="bridgeko.team.late_entered").count() == 1


@pytest.mark.django_db
def test_reopen_entries_needs_a_reason(world: World, organiser: Any) -> None:
    services.close_entries(edition=world.edition, user=organiser, now=NOW)
    with pytest.raises(ServiceError, match="reason"):
        services.reopen_entries(edition=world.edition, reason=" ", user=organiser, now=NOW)
    services.reopen_entries(
        edition=world.edition, reason="deadline extended", user=organiser, now=NOW
    )
    assert entry_queries.closing_of(world.edition) is None


@pytest.mark.django_db
def test_every_write_is_one_audit_entry(world: World, organiser: Any) -> None:
    players = make_players(4)
    start = AuditEntry.objects.count()
    enter_team(world.edition, "Orli", players, organiser)  # create, pairs, conditions
    assert AuditEntry.objects.count() == start + 3
    actions = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))[-3:]
    assert actions == [
        "bridgeko.team.entered",
        "bridgeko.team.pairs_declared",
        "bridgeko.team.conditions_recorded",
    ]


@pytest.mark.django_db
def test_pairs_must_be_on_the_roster(world: World, organiser: Any) -> None:
    players = make_players(6)
    team = services.create_team(
        edition=world.edition, name="Orli", roster=players[:4], user=organiser, now=NOW
    )
    before = counts()
    with pytest.raises(ServiceError, match="on the roster"):
        services.set_pairs(team=team, pairs=[(players[0], players[5])], user=organiser, now=NOW)
    with pytest.raises(ServiceError, match="twice"):
        services.set_pairs(
            team=team,
            pairs=[(players[0], players[1]), (players[1], players[0])],
            user=organiser,
            now=NOW,
        )
    assert counts() == before


# ---------------------------------------------------------------------------------------------
# Pages


@pytest.mark.django_db
def test_organiser_enters_a_team_through_the_page(world: World) -> None:
    players = make_players(4, elo=[600, 601, None, 700])
    client = world.client("organiser")
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    response = client.post(
        url, {"name": "Orli", "roster": f"CZ001\nHráč 002\nHráč 003 (CZ003)\n#{players[3].pk}"}
    )
    team = Team.objects.get(name="Orli")
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "entries:detail", kwargs={"edition": world.edition.slug, "team": team.pk}
    )
    page = client.get(response["Location"]).content.decode()
    assert 'id="team-elo">634<' in page
    assert "CZK\xa0600" in page  # R4.1 members only


@pytest.mark.django_db
def test_page_shows_the_roster_problems(world: World) -> None:
    make_players(7)
    client = world.client("organiser")
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    response = client.post(
        url, {"name": "Sedm", "roster": "\n".join(f"CZ{k:03d}" for k in range(1, 8))}
    )
    assert response.status_code == 200
    assert "R7.1" in response.content.decode()
    response = client.post(url, {"name": "X", "roster": "CZ999"})
    assert "CZ999" in response.content.decode()
    assert not Team.objects.exclude(pk=CAPTAIN_TEAM_ID).exists()  # none entered


@pytest.mark.django_db
def test_captain_sees_and_edits_only_their_own_team_before_the_freeze(world: World) -> None:
    organiser = world.users["organiser"]
    players = make_players(9)
    own = services.create_team(
        edition=world.edition, name="Vlastní", roster=players[:4], user=organiser, now=NOW
    )
    other = services.create_team(
        edition=world.edition, name="Cizí", roster=players[4:8], user=organiser, now=NOW
    )
    captain = make_user("kapitan")
    RoleAssignment.objects.create(
        user=captain, edition=world.edition, role=Role.CAPTAIN, team_id=own.pk
    )
    from django.test import Client

    client = Client()
    client.force_login(captain)
    slug = world.edition.slug
    assert (
        client.get(reverse("entries:detail", kwargs={"edition": slug, "team": own.pk})).status_code
        == 200
    )
    assert (
        client.get(
            reverse("entries:detail", kwargs={"edition": slug, "team": other.pk})
        ).status_code
        == 403
    )
    assert client.get(reverse("entries:list", kwargs={"edition": slug})).status_code == 403
    edit = reverse("entries:edit", kwargs={"edition": slug, "team": own.pk})
    response = client.post(
        edit,
        {
            "name": "Vlastní",
            "roster": "\n".join(p.federation_id for p in [*players[:4], players[8]]),
        },
    )
    assert response.status_code == 302
    assert RosterEntry.objects.filter(team=own).count() == 5
    services.record_conditions(
        team=own,
        form_received=IN_TIME,
        fee_received=None,
        fee_paid=0,
        cards={},
        user=organiser,
        now=NOW,
    )
    assert client.get(edit).status_code == 403  # R7.2: frozen after entry


@pytest.mark.django_db
def test_dashboard_lists_missing_conditions(world: World, organiser: Any) -> None:
    players = make_players(4)
    services.create_team(
        edition=world.edition, name="Orli", roster=players, user=organiser, now=NOW
    )
    client = world.client("organiser")
    page = client.get(reverse("editions:dashboard", kwargs={"edition": world.edition.slug}))
    text = page.content.decode()
    assert "Orli" in text and "entry form" in text
    assert "5 March 1999" in text


@pytest.mark.django_db
def test_roster_boxes_complete_from_the_register(world: World) -> None:
    players = make_players(5)
    client = world.client("organiser")
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    page = client.get(url).content.decode()
    assert page.count('list="register"') == 6  # R7.1: max_players boxes
    assert '<option value="Hráč 001 (CZ001)">' in page
    data = {"name": "Orli"} | {
        f"player_{k}": f"{p.name} ({p.federation_id})" for k, p in enumerate(players, start=1)
    }
    assert client.post(url, data).status_code == 302
    team = Team.objects.get(name="Orli")
    assert [line.player for line in entry_queries.team_info(team).roster] == players
    edit = client.get(
        reverse("entries:edit", kwargs={"edition": world.edition.slug, "team": team.pk})
    )
    assert 'value="Hráč 005 (CZ005)"' in edit.content.decode()


@pytest.mark.django_db(transaction=True)
def test_R7_3_database_refuses_a_player_taken_meanwhile(
    world: World, organiser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If another entry takes a player between the check and the write, the database's unique
    roster constraint refuses it and nothing is half-saved."""
    players = make_players(7)
    services.create_team(
        edition=world.edition, name="Orli", roster=players[:4], user=organiser, now=NOW
    )
    monkeypatch.setattr(services, "_roster_problems", lambda *args: [])  # the race
    before = counts()
    with pytest.raises(ServiceError, match="meanwhile"):
        services.create_team(
            edition=world.edition,
            name="Lvi",
            roster=[players[3], *players[4:7]],
            user=organiser,
            now=NOW,
        )
    assert counts() == before


@pytest.mark.django_db
def test_R4_1_fee_reason_names_the_players_who_are_not_members(
    world: World, organiser: Any
) -> None:
    members = make_players(3)
    outsider = make_players(1, member=False, start=50)[0]
    team = services.create_team(
        edition=world.edition,
        name="Smíšení",
        roster=[*members, outsider],
        user=organiser,
        now=NOW,
    )
    fee = entry_queries.team_info(team).fee
    assert fee is not None and fee.amount == 1200
    assert "Hráč 050 (CZ050)" in fee.reason


# ---------------------------------------------------------------------------------------------
# R15: failure to appear, for the TDs


@pytest.mark.django_db
def test_R15_td_menu_leads_to_failure_to_appear(world: World, organiser: Any) -> None:
    """The TD's menu links to the failure-to-appear page: every team with its form; a recorded
    failure leads back there."""
    players = make_players(8)
    orli = enter_team(world.edition, "Orli", players[:4], organiser)
    enter_team(world.edition, "Lvi", players[4:], organiser)
    hold_draw_of(world.edition, organiser)
    match = first_match(orli)
    slug = world.edition.slug
    url = reverse("draw:no_shows", kwargs={"edition": slug})
    td = world.client("td")
    home = td.get(reverse("editions:detail", kwargs={"edition": slug})).content.decode()
    assert f'href="{url}"' in home and "Failure to appear" in home
    assert reverse("entries:list", kwargs={"edition": slug}) in home  # a TD reads (issue 9)
    assert reverse("accounts:roles", kwargs={"edition": slug}) not in home  # organisers only
    page = td.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    form = reverse("draw:no_show", kwargs={"edition": slug, "team": orli.pk})
    assert "Orli" in text and "Lvi" in text and f'href="{form}"' in text
    response = td.post(form, {"match": match, "timely_notice": "", "note": ""})
    assert response.status_code == 302 and response["Location"] == url
    text = td.get(url).content.decode()
    assert match in text and "R15.3" in text
    organiser_home = world.client("organiser").get(
        reverse("editions:detail", kwargs={"edition": slug})
    )
    assert f'href="{url}"' in organiser_home.content.decode()
    for who in ("captain", "appeals", "public", "anonymous"):
        other = world.client(who).get(reverse("editions:detail", kwargs={"edition": slug}))
        assert f'href="{url}"' not in other.content.decode(), who
    czech = world.client("td", "cs").get(url).content.decode()
    assert "Zaznamenat nenastoupení" in czech and "Včasná omluva" in czech
