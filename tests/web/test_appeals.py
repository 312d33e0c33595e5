"""The appeals procedure (R16, I15): lodging within the deadline, the committee from the
organiser's list, the final decision that changes the match, and who sees what."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone as django_timezone

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.appeals import services
from bridgeko.appeals import views as appeal_views
from bridgeko.appeals.models import AdjustedResult, Appeal, AppealStatus
from bridgeko.audit.models import AuditEntry
from bridgeko.competition import schedule
from bridgeko.core import events
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches import match_admin
from bridgeko.matches import services as match_services
from bridgeko.matches.models import BoardResult, Match, MatchStatus, Segment
from tests.web.conftest import World, make_user
from tests.web.test_matches import PLAY, play_segment

END = datetime(1999, 4, 10, 13, 0, tzinfo=UTC)
"""The end of the match's last segment in both rooms (15:00 in Prague, summer time)."""
CANDIDATES = ["Karel Soudný", "Eva Moudrá", "Jan Rozvážný", "Petr Klidný"]

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- helpers


def first_match(world: World) -> Match:
    match = (
        Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY)
        .order_by("position")
        .first()
    )
    assert match is not None
    return match


def end_segment(world: World, match: Match, number: int, at: datetime) -> None:
    seg = Segment.objects.get(match=match, number=number)
    for room in ("open", "closed"):
        seg = match_services.mark_room_end(
            segment=seg, room=room, at=at, user=world.users["td"], now=at
        )


def played(world: World, *, end: datetime = END) -> Match:
    """The first match to play, both segments played (the home team ahead) and ended."""
    match = first_match(world)
    play_segment(world, match, 1, "4S N =", "4S N -1")
    play_segment(world, match, 2, "3NT S =", "3NT S =")
    end_segment(world, match, 1, end - timedelta(hours=2))
    end_segment(world, match, 2, end)
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    return match


def candidates(world: World, *extra: str, segments: bool = False) -> None:
    services.save_settings(
        edition=world.edition,
        candidates_text="\n".join([*extra, *CANDIDATES]),
        segment_deadlines=segments,
        user=world.users["organiser"],
        now=PLAY,
    )


def lodge(world: World, match: Match, at: datetime, **extra: Any) -> Appeal:
    args: dict[str, Any] = {
        "match": match,
        "appellant": match.visitors,
        "subject": "Board 5: misinformation about 2NT",
        "deposit_paid": 200,
        "through_td": "Pavel Rozhodčí",
        "user": world.users["td"],
        "now": at,
    }
    return services.lodge(**(args | extra))


def committee_of(world: World, appeal: Appeal) -> Appeal:
    return services.name_committee(
        appeal=appeal, members=None, user=world.users["organiser"], now=appeal.lodged_at
    )


def roster_name(team: Any) -> str:
    return str(RosterEntry.objects.filter(team=team).order_by("position")[0].player.name)


# ---------------------------------------------------------------- R16.3: the deadline


def test_R16_3_appeal_one_minute_late_is_refused(drawn: World) -> None:
    match = played(drawn)
    with pytest.raises(ServiceError) as late:
        lodge(drawn, match, END + timedelta(minutes=31))
    # the deadline named, in Prague time: 30 minutes after 15:00 (I15, R16.3)
    assert "10 April 1999, 15:30" in str(late.value) and "R16.3" in str(late.value)
    assert "too late" in str(late.value)
    assert not Appeal.objects.exists()
    assert not AuditEntry.objects.filter(action="bridgeko.appeal.lodged").exists()
    appeal = lodge(drawn, match, END + timedelta(minutes=30))  # the last minute is in time
    assert appeal.status == AppealStatus.LODGED and appeal.deposit == 200


def test_R16_3_appeal_in_time_is_decided_and_the_match_changes(drawn: World) -> None:
    seen: list[dict[str, Any]] = []

    def listener(**kwargs: Any) -> None:
        seen.append(kwargs)

    events.subscribe("appeal.decided", listener)
    try:
        match = played(drawn)
        candidates(drawn)
        before = (match.home_total, match.visitors_total)
        appeal = lodge(drawn, match, END + timedelta(minutes=29))
        appeal = committee_of(drawn, appeal)
        assert appeal.committee == CANDIDATES[:3]
        old = BoardResult.objects.get(match=match, board=5, room="closed")
        decided = services.decide(
            appeal=appeal,
            outcome="adjusted",
            reasons="The misinformation damaged East-West: 4S N -1 in the closed room.",
            adjustments=[services.Adjustment(5, "closed", "4S N -2")],
            user=drawn.users["organiser"],
            now=END + timedelta(hours=1),
        )
    finally:
        events._listeners["appeal.decided"].remove(listener)
    assert decided.status == AppealStatus.DECIDED and decided.deposit_fate == "returned"
    match.refresh_from_db()
    assert (match.home_total, match.visitors_total) != before  # the IMPs follow
    result = BoardResult.objects.get(match=match, board=5, room="closed")
    assert result.text == "4S N -2" and result.version == old.version + 1
    (adjusted,) = AdjustedResult.objects.filter(appeal=appeal)
    assert (adjusted.text, adjusted.before) == ("4S N -2", old.text)
    saved = AuditEntry.objects.filter(action="bridgeko.board.saved").latest("pk")
    assert saved.after["source"] == f"appeal {appeal.pk}"  # the audit names the appeal
    entry = AuditEntry.objects.get(action="bridgeko.appeal.decided")
    assert entry.after["outcome"] == "adjusted" and entry.after["adjusted"][0]["board"] == 5
    (event,) = seen
    assert event["match"] == match and event["appellant"] == match.visitors
    assert (event["outcome"], event["deposit"]) == ("adjusted", "returned")
    assert event["user"] == drawn.users["organiser"] and "misinformation" in event["reasons"]


def test_R16_3_I15_without_a_recorded_end_the_td_is_asked_to_record_it(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "3NT S =", "3NT S =")
    end_segment(drawn, match, 1, END - timedelta(hours=2))
    seg = Segment.objects.get(match=match, number=2)
    match_services.mark_room_end(segment=seg, room="open", at=END, user=None, now=END)
    with pytest.raises(ServiceError, match="record the end of its last segment in both rooms"):
        lodge(drawn, match, END + timedelta(minutes=5))


def test_R16_3_segment_deadline_when_announced(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    first_end = END - timedelta(hours=2)
    end_segment(drawn, match, 1, first_end)
    candidates(drawn, segments=True)
    # an appeal about segment 1 while segment 2 is played: 30 minutes after segment 1's end
    with pytest.raises(ServiceError, match="13:30") as late:
        lodge(drawn, match, first_end + timedelta(minutes=31), segment=1)
    assert "about the segment" in str(late.value)
    appeal = lodge(drawn, match, first_end + timedelta(minutes=30), segment=1)
    assert appeal.segment == 1
    # not announced: the same appeal waits for the end of the match
    candidates(drawn, segments=False)
    with pytest.raises(ServiceError, match="not recorded"):
        lodge(drawn, match, first_end + timedelta(minutes=10), segment=1)


def _local(*args: int) -> datetime:
    return datetime(*args, tzinfo=schedule.zone("Europe/Prague"))  # type: ignore[misc]


def test_R16_4_I12_match_played_early_needs_the_form_by_13_00(drawn: World) -> None:
    from tests.web.test_standings import _dates

    _dates(drawn)
    match = first_match(drawn)
    match_admin.reschedule(
        match=match,
        start=_local(1999, 3, 17, 18, 0),  # two days before its normal date, 19 March
        location="Hradec Králové",
        agreed_by="both captains",
        reason="",
        user=drawn.users["td"],
        now=_local(1999, 3, 15, 10, 0),
        notice_received_at=_local(1999, 3, 15, 10, 0),
    )
    match.refresh_from_db()
    assert services.played_early_round_date(match) is not None
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "3NT S =", "3NT S =")
    end = _local(1999, 3, 17, 22, 0)
    end_segment(drawn, match, 1, end - timedelta(hours=2))
    end_segment(drawn, match, 2, end)
    lodged = end + timedelta(minutes=20)
    later = _local(1999, 3, 19, 14, 0)
    with pytest.raises(ServiceError, match="13:00") as missing:
        lodge(drawn, match, later, lodged_at=lodged)
    assert "has not received the form" in str(missing.value)
    with pytest.raises(ServiceError, match="19 March 1999, 13:00"):
        lodge(drawn, match, later, lodged_at=lodged, form_received_at=_local(1999, 3, 19, 13, 1))
    appeal = lodge(
        drawn, match, later, lodged_at=lodged, form_received_at=_local(1999, 3, 19, 13, 0)
    )
    assert appeal.form_received_at == _local(1999, 3, 19, 13, 0)


# ---------------------------------------------------------------- R16.1, R16.2: committee, deposit


def test_R16_1_committee_member_from_a_team_is_refused(drawn: World) -> None:
    match = played(drawn)
    home_player, visiting_player = roster_name(match.home), roster_name(match.visitors)
    candidates(drawn, home_player, visiting_player)
    appeal = lodge(drawn, match, END + timedelta(minutes=10))
    suggested, why_not = services.suggest_committee(appeal)
    assert suggested == CANDIDATES[:3] and why_not == ""  # the players of the match left out
    for members, problem in (
        ([home_player, *CANDIDATES[:2]], "plays in the match"),
        ([visiting_player, *CANDIDATES[:2]], "plays in the match"),
        (["Nobody Listed", *CANDIDATES[:2]], "not on the organiser's list"),
        (CANDIDATES[:2], "not 3"),
    ):
        with pytest.raises(ServiceError, match=problem):
            services.name_committee(
                appeal=appeal, members=members, user=drawn.users["organiser"], now=PLAY
            )
    appeal.refresh_from_db()
    assert appeal.committee == [] and appeal.status == AppealStatus.LODGED
    chosen = [CANDIDATES[3], CANDIDATES[0], CANDIDATES[1]]
    appeal = services.name_committee(
        appeal=appeal, members=chosen, user=drawn.users["organiser"], now=PLAY
    )
    assert appeal.committee == chosen
    assert AuditEntry.objects.filter(action="bridgeko.appeal.committee").count() == 1


def test_R16_1_too_few_candidates_says_how_many_are_missing(drawn: World) -> None:
    match = played(drawn)
    appeal = lodge(drawn, match, END + timedelta(minutes=10))
    with pytest.raises(ServiceError, match="3 missing"):
        committee_of(drawn, appeal)


def test_R16_2_deposit_short_is_refused(drawn: World) -> None:
    match = played(drawn)
    with pytest.raises(ServiceError, match="the deposit is 200; 150 was lodged"):
        lodge(drawn, match, END + timedelta(minutes=10), deposit_paid=150)
    assert not Appeal.objects.exists()


def test_R16_2_deposit_forfeited_only_if_frivolous(drawn: World) -> None:
    match = played(drawn)
    candidates(drawn)
    appeal = committee_of(drawn, lodge(drawn, match, END + timedelta(minutes=10)))
    decide: dict[str, Any] = {
        "appeal": appeal,
        "reasons": "No merit.",
        "user": drawn.users["organiser"],
        "now": END + timedelta(hours=1),
    }
    with pytest.raises(ServiceError, match="forfeited only if the appeal is frivolous"):
        services.decide(outcome="dismissed", forfeit_deposit=True, **decide)
    with pytest.raises(ServiceError, match="cannot be frivolous"):
        services.decide(outcome="upheld", frivolous=True, **decide)
    appeal.refresh_from_db()
    assert appeal.status == AppealStatus.COMMITTEE
    done = services.decide(outcome="dismissed", frivolous=True, **decide)
    assert (done.outcome, done.deposit_fate, done.frivolous) == ("dismissed", "forfeited", True)


def test_R16_2_frivolous_appeal_may_still_have_its_deposit_returned(drawn: World) -> None:
    match = played(drawn)
    candidates(drawn)
    appeal = committee_of(drawn, lodge(drawn, match, END + timedelta(minutes=10)))
    done = services.decide(
        appeal=appeal,
        outcome="dismissed",
        reasons="Frivolous, but a first offence.",
        frivolous=True,
        forfeit_deposit=False,
        user=drawn.users["organiser"],
        now=END + timedelta(hours=1),
    )
    assert done.deposit_fate == "returned"


# ---------------------------------------------------------------- R16.5: final


def test_R16_5_no_change_after_the_decision(drawn: World) -> None:
    match = played(drawn)
    candidates(drawn)
    appeal = committee_of(drawn, lodge(drawn, match, END + timedelta(minutes=10)))
    services.decide(
        appeal=appeal,
        outcome="dismissed",
        reasons="The score stands.",
        user=drawn.users["organiser"],
        now=END + timedelta(hours=1),
    )
    organiser = drawn.users["organiser"]
    with pytest.raises(ServiceError, match="final"):
        services.decide(
            appeal=appeal, outcome="upheld", reasons="Second thoughts.", user=organiser, now=END
        )
    with pytest.raises(ServiceError, match="final"):
        services.name_committee(appeal=appeal, members=None, user=organiser, now=END)
    with pytest.raises(ServiceError, match="final"):
        services.withdraw(appeal=appeal, reason="too late", user=organiser, now=END)
    appeal.refresh_from_db()
    assert appeal.outcome == "dismissed"
    assert AuditEntry.objects.filter(action="bridgeko.appeal.decided").count() == 1


def test_R16_dismissed_appeal_adjusts_no_board_and_adjusted_needs_one(drawn: World) -> None:
    match = played(drawn)
    candidates(drawn)
    appeal = committee_of(drawn, lodge(drawn, match, END + timedelta(minutes=10)))
    args: dict[str, Any] = {
        "appeal": appeal,
        "reasons": "x",
        "user": drawn.users["organiser"],
        "now": END + timedelta(hours=1),
    }
    with pytest.raises(ServiceError, match="no board result is adjusted"):
        services.decide(
            outcome="dismissed", adjustments=[services.Adjustment(5, "open", "4S N -1")], **args
        )
    with pytest.raises(ServiceError, match="adjusted board result"):
        services.decide(outcome="adjusted", **args)
    with pytest.raises(ServiceError, match="is not a result"):
        services.decide(
            outcome="adjusted", adjustments=[services.Adjustment(5, "open", "4Q N")], **args
        )
    appeal.refresh_from_db()
    assert appeal.status == AppealStatus.COMMITTEE
    assert BoardResult.objects.get(match=match, board=5, room="open").text == "4S N ="


def test_withdrawal_before_the_decision_is_audited(drawn: World) -> None:
    match = played(drawn)
    appeal = lodge(drawn, match, END + timedelta(minutes=10))
    with pytest.raises(ServiceError, match="reason"):
        services.withdraw(appeal=appeal, reason=" ", user=drawn.users["td"], now=END)
    done = services.withdraw(
        appeal=appeal, reason="The captain withdrew it.", user=drawn.users["td"], now=END
    )
    assert done.status == AppealStatus.WITHDRAWN and done.deposit_fate == "returned"
    entry = AuditEntry.objects.get(action="bridgeko.appeal.withdrawn")
    assert entry.before["status"] == "lodged"
    assert entry.after["reason"] == "The captain withdrew it."
    with pytest.raises(ServiceError, match="withdrawn"):
        committee_of(drawn, appeal)


# ---------------------------------------------------------------- pages


class _Clock:
    """``django.utils.timezone`` as the appeals views see it: an hour after the match."""

    @staticmethod
    def now() -> datetime:
        return END + timedelta(hours=1)

    localtime = staticmethod(django_timezone.localtime)
    is_naive = staticmethod(django_timezone.is_naive)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(appeal_views, "timezone", _Clock)


def _captain(world: World, team: Team, username: str) -> Client:
    user = make_user(username)
    RoleAssignment.objects.create(user=user, edition=world.edition, role=Role.CAPTAIN, team=team)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def test_R16_pages_td_lodges_organiser_names_and_decides(drawn: World, clock: None) -> None:
    match = played(drawn)
    candidates(drawn)
    slug = drawn.edition.slug
    td = drawn.client("td")
    page = td.get(reverse("matches:detail", kwargs={"edition": slug, "code": match.code}))
    lodge_url = reverse("appeals:lodge", kwargs={"edition": slug, "code": match.code})
    assert lodge_url in page.content.decode() and "Lodge an appeal" in page.content.decode()
    form = td.get(lodge_url).content.decode()
    assert "10 April 1999, 15:30" in form  # the deadline, in Prague time
    data = {
        "appellant": match.visitors_id,
        "segment": "",
        "subject": "Board 5",
        "lodged_at": "1999-04-10T15:41",  # 11 minutes late (Prague time)
        "through_td": "td",
        "deposit_paid": "200",
    }
    late = td.post(lodge_url, data)
    errors = re.findall(r'field-error" role="alert">([^<]*)<', late.content.decode())
    assert late.status_code == 400 and "too late" in " ".join(errors), errors
    assert not Appeal.objects.exists()
    response = td.post(lodge_url, data | {"lodged_at": "1999-04-10T15:20"})
    appeal = Appeal.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/appeals/{appeal.pk}/")
    organiser = drawn.client("organiser")
    detail = reverse("appeals:detail", kwargs={"edition": slug, "appeal": appeal.pk})
    text = organiser.get(detail).content.decode()
    assert "Karel Soudný, Eva Moudrá, Jan Rozvážný" in text  # the suggestion
    bad = organiser.post(
        reverse("appeals:committee", kwargs={"edition": slug, "appeal": appeal.pk}),
        {"members": "Karel Soudný\n" + roster_name(match.home) + "\nEva Moudrá"},
    )
    assert bad.status_code == 400 and "plays in the match" in bad.content.decode()
    organiser.post(
        reverse("appeals:committee", kwargs={"edition": slug, "appeal": appeal.pk}),
        {"members": "\n".join(CANDIDATES[:3])},
    )
    decide = reverse("appeals:decide", kwargs={"edition": slug, "appeal": appeal.pk})
    assert td.get(decide).status_code == 403  # the TD whose ruling is appealed does not decide
    response = organiser.post(
        decide,
        {
            "outcome": "adjusted",
            "reasons": "Damaged by misinformation.",
            "deposit": "returned",
            "board1": "5",
            "room1": "closed",
            "result1": "4S N -2",
        },
    )
    assert response.status_code == 302
    appeal.refresh_from_db()
    assert appeal.status == AppealStatus.DECIDED
    assert BoardResult.objects.get(match=match, board=5, room="closed").text == "4S N -2"
    text = td.get(detail).content.decode()
    assert "final" in text and "4S N -2" in text
    assert reverse("appeals:withdraw", kwargs={"edition": slug, "appeal": appeal.pk}) not in text
    listed = td.get(reverse("appeals:list", kwargs={"edition": slug})).content.decode()
    assert "decided: adjusted" in listed


def test_R16_my_team_shows_the_state_to_both_captains(drawn: World) -> None:
    match = played(drawn)
    candidates(drawn)
    appeal = committee_of(drawn, lodge(drawn, match, END + timedelta(minutes=10)))
    assert match.home is not None and match.visitors is not None
    slug = drawn.edition.slug
    others = Team.objects.filter(edition=drawn.edition).exclude(
        pk__in=[match.home_id, match.visitors_id]
    )
    for team, client in (
        (match.home, _captain(drawn, match.home, "cap-home")),
        (match.visitors, _captain(drawn, match.visitors, "cap-visitors")),
    ):
        page = client.get(reverse("entries:my_team_of", kwargs={"edition": slug, "team": team.pk}))
        text = page.content.decode()
        assert f"Appeal of {match.visitors.name}: before the committee" in text
        kwargs = {"edition": slug, "team": team.pk, "appeal": appeal.pk}
        url = reverse("appeals:team", kwargs=kwargs)
        assert url in text
        assert "Karel Soudný" in client.get(url).content.decode()
    services.decide(
        appeal=appeal,
        outcome="dismissed",
        reasons="The score stands.",
        user=drawn.users["organiser"],
        now=END + timedelta(hours=1),
    )
    home = _captain(drawn, match.home, "cap-home-2")
    page = home.get(reverse("entries:my_team_of", kwargs={"edition": slug, "team": match.home.pk}))
    assert f"Appeal of {match.visitors.name}: decided, the score stands" in page.content.decode()
    # a captain of a team outside the match does not read it
    stranger_team = others.first()
    assert stranger_team is not None
    stranger = _captain(drawn, stranger_team, "cap-other")
    url = reverse(
        "appeals:team", kwargs={"edition": slug, "team": stranger_team.pk, "appeal": appeal.pk}
    )
    assert stranger.get(url).status_code == 403


def test_R16_committee_member_with_the_appeals_role_reads_and_decides(drawn: World) -> None:
    member = drawn.users["appeals"]
    member.first_name, member.last_name = "Eva", "Moudrá"
    member.save()
    match = played(drawn)
    candidates(drawn)
    appeal = lodge(drawn, match, END + timedelta(minutes=10))
    slug = drawn.edition.slug
    client = drawn.client("appeals")
    detail = reverse("appeals:detail", kwargs={"edition": slug, "appeal": appeal.pk})
    decide = reverse("appeals:decide", kwargs={"edition": slug, "appeal": appeal.pk})
    listing = reverse("appeals:list", kwargs={"edition": slug})
    assert client.get(detail).status_code == 403  # not on its committee (none named yet)
    assert match.code not in client.get(listing).content.decode()
    services.name_committee(
        appeal=appeal,
        members=[CANDIDATES[0], "Eva Moudrá", CANDIDATES[2]],
        user=drawn.users["organiser"],
        now=PLAY,
    )
    assert client.get(detail).status_code == 200
    assert match.code in client.get(listing).content.decode()
    assert client.get(decide).status_code == 200
    outsider = make_user("appeals-2")  # the appeals role, not on this committee
    RoleAssignment.objects.create(user=outsider, edition=drawn.edition, role=Role.APPEALS)
    other = Client()
    other.force_login(outsider)
    assert other.get(decide).status_code == 403
    assert other.get(detail).status_code == 403


def test_I15_match_page_deadline_runs_from_the_recorded_end(drawn: World) -> None:
    match = played(drawn)
    page = drawn.client("td").get(
        reverse("matches:detail", kwargs={"edition": drawn.edition.slug, "code": match.code})
    )
    text = page.content.decode()
    assert 'id="appeal-deadline"' in text and "15:30" in text  # 30 minutes after 15:00 (I15)


def test_R16_dashboard_lists_the_appeals_awaiting_the_organiser(drawn: World) -> None:
    from bridgeko.core import dashboard

    match = played(drawn)
    candidates(drawn)
    appeal = lodge(drawn, match, END + timedelta(minutes=10))
    organiser = dashboard.Viewer(user=drawn.users["organiser"], organiser=True)
    td = dashboard.Viewer(user=drawn.users["td"], td=True)

    def titles(viewer: Any) -> list[str]:
        items = dashboard.items(drawn.edition, viewer, END.date(), END)
        return [i.title for i in items if i.source == "appeals"]

    assert titles(organiser) == [
        f"Appeal of {appeal.appellant.name} in {match.code}: name the committee (R16.1)"
    ]
    assert titles(td) == []
    committee_of(drawn, appeal)
    assert "decision is due" in titles(organiser)[0]


def test_R16_2_appeal_for_a_team_outside_the_match_is_refused(drawn: World) -> None:
    match = played(drawn)
    outsider = Team.objects.filter(edition=drawn.edition).exclude(
        pk__in=[match.home_id, match.visitors_id]
    )[0]
    with pytest.raises(ServiceError, match="does not play in match"):
        lodge(drawn, match, END + timedelta(minutes=10), appellant=outsider)
