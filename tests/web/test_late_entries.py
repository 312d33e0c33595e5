"""The organiser's decision on a late entry (I11: "entered" are the teams that met every R3
condition by the deadline; a team entered after the closing waits for the organiser): accepted
before the draw it is drawn with the others, refused it takes no part; once, with a reason,
audited — from the team's page, where the dashboard's "awaiting a decision" item leads."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition, EditionStage
from bridgeko.entries import services
from bridgeko.entries.models import Team
from tests.web.conftest import World
from tests.web.test_entries import NOW, enter_team, make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def late(world: World) -> Team:
    organiser = world.users["organiser"]
    players = make_players(8)
    enter_team(world.edition, "Včas", players[:4], organiser)
    services.close_entries(edition=world.edition, user=organiser, now=NOW)
    Edition.objects.filter(pk=world.edition.pk).update(stage=EditionStage.ENTRIES_CLOSED)
    return services.create_team(
        edition=world.edition,
        name="Pozdní",
        roster=players[4:],
        user=organiser,
        now=NOW,
        late_reason="the form was lost in the post",
    )


def _url(team: Team) -> str:
    return reverse("entries:late_decision", kwargs={"edition": team.edition.slug, "team": team.pk})


def test_I11_late_entry_accepted_before_the_draw_from_the_team_page(
    world: World, late: Team
) -> None:
    client = world.client("organiser")
    page = client.get(
        reverse("entries:detail", kwargs={"edition": late.edition.slug, "team": late.pk})
    )
    assert 'id="late-decision"' in page.content.decode()
    response = client.post(_url(late), {"decision": "accept", "reason": "the post was late"})
    assert response.status_code == 302
    late.refresh_from_db()
    assert late.accepted is True
    entry = AuditEntry.objects.get(action="bridgeko.entries.late_decided")
    assert entry.before == {"accepted": None}
    assert entry.after == {"accepted": True, "reason": "the post was late"}
    assert entry.summary == "Late entry of Pozdní accepted: the post was late"
    after = client.get(
        reverse("entries:detail", kwargs={"edition": late.edition.slug, "team": late.pk})
    )
    assert 'id="late-decided"' in after.content.decode()


def test_I11_late_entry_needs_a_reason_and_is_decided_once(world: World, late: Team) -> None:
    organiser = world.users["organiser"]
    with pytest.raises(ServiceError) as info:
        services.decide_late_entry(team=late, accept=False, reason="  ", user=organiser, now=NOW)
    assert info.value.field == "reason"
    services.decide_late_entry(team=late, accept=False, reason="too late", user=organiser, now=NOW)
    late.refresh_from_db()
    assert late.accepted is False
    with pytest.raises(ServiceError, match="already been decided"):
        services.decide_late_entry(
            team=late, accept=True, reason="after all", user=organiser, now=NOW
        )
    late.refresh_from_db()
    assert late.accepted is False
    assert AuditEntry.objects.filter(action="bridgeko.entries.late_decided").count() == 1


def test_I11_after_the_draw_a_late_entry_can_only_be_refused(world: World, late: Team) -> None:
    Edition.objects.filter(pk=world.edition.pk).update(stage=EditionStage.DRAW_HELD)
    client = world.client("organiser")
    client.post(_url(late), {"decision": "accept", "reason": "please"})
    late.refresh_from_db()
    assert late.accepted is None  # refused with a message, nothing saved
    assert not AuditEntry.objects.filter(action="bridgeko.entries.late_decided").exists()
    client.post(_url(late), {"decision": "refuse", "reason": "the draw is made"})
    late.refresh_from_db()
    assert late.accepted is False


def test_a_team_entered_in_time_has_no_late_decision(world: World, late: Team) -> None:
    in_time = Team.objects.get(edition=world.edition, name="Včas")
    before = in_time.accepted
    with pytest.raises(ServiceError, match="did not enter late"):
        services.decide_late_entry(
            team=in_time, accept=False, reason="x", user=world.users["organiser"], now=NOW
        )
    in_time.refresh_from_db()
    assert in_time.accepted == before


@pytest.mark.parametrize("who", ["td", "captain"])
def test_only_the_organiser_decides_a_late_entry(world: World, late: Team, who: Any) -> None:
    response = world.client(who).post(_url(late), {"decision": "accept", "reason": "x"})
    assert response.status_code == 403
    late.refresh_from_db()
    assert late.accepted is None
