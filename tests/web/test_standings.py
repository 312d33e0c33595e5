"""Standings and prizes (I7, R5.1) with the organiser's decisions where the regulations do not
decide a place (I16), swapping home and visitors before the start (I2), rescheduling by
agreement (R14.2) and the scores in the bracket (issue 10, items 1, 7 and 9)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.competition import schedule
from bridgeko.core.errors import ServiceError
from bridgeko.draw import display, no_shows, schedule_services
from bridgeko.draw import services as draw_services
from bridgeko.entries.models import Team
from bridgeko.matches import match_admin, services, standings
from bridgeko.matches.models import Match, MatchStatus, PlaceDecision, Segment
from tests.web.conftest import World
from tests.web.test_matches import PLAY, m

DATES_FROM = date(1999, 3, 13)
"""The first preliminary Friday on or after this day: 19 March 1999."""


def decide_by_totals(
    world: World, match: Match, home: int = 30, visitors: int = 10, *, now: datetime = PLAY
) -> None:
    """Every segment of ``match`` from the scorecards: the home team wins unless told."""
    first = True
    for seg in Segment.objects.filter(match=match).order_by("number"):
        services.set_segment_totals(
            segment=seg,
            home_imps=home if first else 0,
            visitors_imps=visitors if first else 0,
            user=world.users["td"],
            now=now,
        )
        first = False


def play_out(world: World, *, stop: frozenset[str] = frozenset()) -> None:
    """Decides every match to be played (home wins), round by round, except those in
    ``stop``."""
    while True:
        todo = [
            x
            for x in Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY)
            if x.code not in stop
        ]
        if not todo:
            return
        for x in todo:
            decide_by_totals(world, x)


def team(pk: int | None) -> Team:
    assert pk is not None
    return Team.objects.get(pk=pk)


# ---------------------------------------------------------------- standings and prizes


@pytest.mark.django_db
def test_I7_R5_1_standings_and_prize_list_after_a_played_out_bracket(drawn: World) -> None:
    play_out(drawn, stop=frozenset({"F", "3RD"}))
    so_far = standings.summary(drawn.edition)
    assert not so_far.finished and so_far.awards is None
    assert standings.prize_list(drawn.edition) is None
    # I7: the quarterfinal losers (5-8) and the first-round losers (9-13) are known already.
    assert [p.place for p in so_far.placings] == ["5–8", "9–13"]
    play_out(drawn)
    final, third = m(drawn, "F"), m(drawn, "3RD")
    assert final.status == MatchStatus.DECIDED and third.status == MatchStatus.DECIDED
    places = standings.standings(drawn.edition)
    assert [(p.place, len(p.teams)) for p in places] == [
        ("1", 1),
        ("2", 1),
        ("3", 1),
        ("4", 1),
        ("5–8", 4),
        ("9–13", 5),
    ]
    assert [p.teams[0] for p in places[:4]] == [
        team(final.home_id),
        team(final.visitors_id),
        team(third.home_id),
        team(third.visitors_id),
    ]
    assert not any(p.needs_decision for p in places)
    awards = standings.prize_list(drawn.edition)
    assert awards is not None
    assert [(a.place, a.team.pk, a.amount, a.currency) for a in awards] == [  # R5.1
        ("1", final.home_id, 60000, "CZK"),
        ("2", final.visitors_id, 20000, "CZK"),
        ("3", third.home_id, 15000, "CZK"),
        ("4", third.visitors_id, 5000, "CZK"),
    ]


@pytest.mark.django_db
def test_I16_both_finalists_absent_the_organiser_decides_the_places(drawn: World) -> None:
    play_out(drawn, stop=frozenset({"F"}))
    final = m(drawn, "F")
    home, visitors = team(final.home_id), team(final.visitors_id)
    for absent in (home, visitors):
        no_shows.record_no_show(
            team=absent,
            match="F",
            timely_notice=True,
            note="",
            user=drawn.users["td"],
            now=PLAY,
        )
    final.refresh_from_db()
    assert final.status == MatchStatus.NO_WINNER
    result = standings.summary(drawn.edition)
    assert result.finished
    top = result.placings[0]
    assert (top.place, {t.pk for t in top.teams}, top.needs_decision) == (
        "1–2",
        {home.pk, visitors.pk},
        True,
    )
    assert result.awards is None and standings.prize_list(drawn.edition) is None
    organiser = drawn.users["organiser"]
    # The regulations decide the 3rd place (the 3rd-place match): nothing to decide.
    with pytest.raises(ServiceError, match="decided by play"):
        standings.decide_place(
            edition=drawn.edition, place=3, team=home, reason="x", user=organiser, now=PLAY
        )
    third = team(m(drawn, "3RD").home_id)
    with pytest.raises(ServiceError, match="does not share places 1–2"):
        standings.decide_place(
            edition=drawn.edition, place=1, team=third, reason="x", user=organiser, now=PLAY
        )
    with pytest.raises(ServiceError, match="reason"):
        standings.decide_place(
            edition=drawn.edition, place=1, team=home, reason=" ", user=organiser, now=PLAY
        )
    decision = standings.decide_place(
        edition=drawn.edition,
        place=1,
        team=visitors,
        reason="Notified the organiser first",
        user=organiser,
        now=PLAY,
    )
    entry = AuditEntry.objects.get(action="bridgeko.place.decided")
    assert entry.after["team"] == visitors.name and entry.after["place"] == 1
    with pytest.raises(ServiceError, match="decided already"):
        standings.decide_place(
            edition=drawn.edition, place=2, team=home, reason="y", user=organiser, now=PLAY
        )
    awards = standings.prize_list(drawn.edition)
    assert awards is not None
    assert [(a.place, a.team.pk, a.amount) for a in awards[:2]] == [
        ("1", visitors.pk, 60000),
        ("2", home.pk, 20000),
    ]
    standings.withdraw_decision(decision=decision, reason="wrong team", user=organiser, now=PLAY)
    assert not PlaceDecision.objects.exists()
    assert standings.summary(drawn.edition).needed
    assert AuditEntry.objects.filter(action="bridgeko.place.withdrawn").count() == 1


@pytest.mark.django_db
def test_I16_standings_page_as_each_role(drawn: World) -> None:
    play_out(drawn, stop=frozenset({"F"}))
    final = m(drawn, "F")
    for pk in (final.home_id, final.visitors_id):
        no_shows.record_no_show(
            team=team(pk), match="F", timely_notice=True, note="", user=drawn.users["td"], now=PLAY
        )
    url = reverse("matches:standings", kwargs={"edition": drawn.edition.slug})
    dashboard = reverse("editions:dashboard", kwargs={"edition": drawn.edition.slug})
    assert "Decide places 1–2" in drawn.client("organiser").get(dashboard).content.decode()
    assert "Decide places" not in drawn.client("td").get(dashboard).content.decode()
    for who in ("td", "captain", "appeals"):
        page = drawn.client(who).get(url).content.decode()
        assert 'id="standings"' in page and 'id="decision-needed"' in page, who
        assert 'id="decide"' not in page
    assert drawn.client("public").get(url).status_code == 403
    organiser = drawn.client("organiser")
    page = organiser.get(url).content.decode()
    assert 'id="decide"' in page and 'id="no-prizes"' in page
    decide = reverse("matches:decide_place", kwargs={"edition": drawn.edition.slug})
    refused = organiser.post(decide, {"place": "1", "team": str(final.home_id), "reason": ""})
    assert refused.status_code == 200 and not PlaceDecision.objects.exists()
    done = organiser.post(
        decide, {"place": "2", "team": str(final.home_id), "reason": "Lot drawn by the TD"}
    )
    assert done.status_code == 302
    page = organiser.get(url).content.decode()
    assert 'id="prizes"' in page and "60 000" in page.replace("\xa0", " ").replace(",", " ")
    decision = PlaceDecision.objects.get()
    assert (decision.place, decision.team_id) == (2, final.home_id)
    withdraw = reverse(
        "matches:withdraw_decision",
        kwargs={"edition": drawn.edition.slug, "decision": decision.pk},
    )
    ask = organiser.get(withdraw)
    assert ask.status_code == 200 and "Lot drawn by the TD" in ask.content.decode()
    assert PlaceDecision.objects.exists()  # a GET asks first
    assert "Decide places" not in organiser.get(dashboard).content.decode()
    assert organiser.post(withdraw, {"reason": "by mistake"}).status_code == 302
    assert not PlaceDecision.objects.exists()


# ---------------------------------------------------------------- home and visitors (I2)


@pytest.mark.django_db
def test_I2_chief_td_swaps_home_and_visitors_before_the_start_only(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    home, visitors = match.home_id, match.visitors_id
    organiser = drawn.users["organiser"]
    with pytest.raises(ServiceError, match="reason"):
        match_admin.swap_home(match=match, reason="", user=organiser, now=PLAY)
    match_admin.swap_home(match=match, reason="Club hall booked", user=organiser, now=PLAY)
    match.refresh_from_db()
    assert (match.home_id, match.visitors_id, match.swapped) == (visitors, home, True)
    assert match.swap_reason == "Club hall booked"
    entry = AuditEntry.objects.get(action="bridgeko.match.swapped")
    assert entry.before["home"] == team(home).name and entry.after["home"] == team(visitors).name
    # The bracket moving on keeps the swap (bracket_sync respects it).
    other = (
        Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY)
        .exclude(pk=match.pk)
        .first()
    )
    assert other is not None
    decide_by_totals(drawn, other)
    match.refresh_from_db()
    assert (match.home_id, match.visitors_id) == (visitors, home)
    # Once a board is entered the match has started: no more swaps.
    services.save_board(
        match=match, board=1, room="open", text="P", version=0, user=drawn.users["td"], now=PLAY
    )
    with pytest.raises(ServiceError, match="has started"):
        match_admin.swap_home(match=match, reason="again", user=organiser, now=PLAY)
    assert AuditEntry.objects.filter(action="bridgeko.match.swapped").count() == 1


@pytest.mark.django_db
def test_I2_swap_page_asks_first_and_is_the_chief_tds(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    url = reverse("matches:swap", kwargs={"edition": drawn.edition.slug, "match": match.code})
    assert drawn.client("td").get(url).status_code == 403
    organiser = drawn.client("organiser")
    ask = organiser.get(url).content.decode()
    assert "After the swap" in ask and team(match.home_id).name in ask
    match.refresh_from_db()
    assert not match.swapped  # a GET changes nothing
    assert organiser.post(url, {"reason": ""}).status_code == 200
    assert organiser.post(url, {"reason": "Agreed"}).status_code == 302
    match.refresh_from_db()
    assert match.swapped


# ---------------------------------------------------------------- rescheduling (R14.2)


def _dates(world: World, *, publish: bool = True) -> None:
    at = datetime(1999, 3, 13, 9, tzinfo=UTC)
    organiser = world.users["organiser"]
    schedule_services.default_schedule(
        edition=world.edition, first_date=DATES_FROM, user=organiser, now=at
    )
    if publish:
        schedule_services.publish_schedule(edition=world.edition, user=organiser, now=at)


def _local(*args: int) -> datetime:
    return datetime(*args, tzinfo=schedule.zone("Europe/Prague"))  # type: ignore[misc]


@pytest.mark.django_db
def test_R14_2_reschedule_by_agreement_with_the_engines_checks(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    td = drawn.users["td"]
    new_start = _local(1999, 3, 17, 18, 0)
    for step in ("no dates", "not published"):
        with pytest.raises(ServiceError, match="no published date yet"):
            match_admin.reschedule(
                match=match,
                start=new_start,
                location="Hradec",
                agreed_by="both captains",
                reason="",
                user=td,
                now=PLAY,
            )
        if step == "no dates":
            _dates(drawn, publish=False)  # the organiser still moves it on the schedule page
    schedule_services.publish_schedule(
        edition=drawn.edition, user=drawn.users["organiser"], now=PLAY
    )
    normal, last = match_admin.normal_dates(match)
    assert normal == last == date(1999, 3, 19)  # a Friday (R14.1)
    with pytest.raises(ServiceError, match="who agreed"):
        match_admin.reschedule(
            match=match, start=new_start, location="", agreed_by=" ", reason="", user=td, now=PLAY
        )
    done = match_admin.reschedule(
        match=match,
        start=new_start,
        location="Hradec Králové",
        agreed_by="both captains by e-mail",
        reason="",
        user=td,
        now=PLAY,
        notice_received_at=_local(1999, 3, 18, 23, 59),  # the day before the normal date
    )
    assert done.allowed and done.decision.status is schedule.RescheduleStatus.ACCEPTED
    assert done.record_deadline is not None
    assert done.record_deadline.at == _local(1999, 3, 19, 13, 0)  # R14.2b
    match.refresh_from_db()
    assert match.start == new_start and match.location == "Hradec Králové"
    assert AuditEntry.objects.filter(action="bridgeko.match.rescheduled").count() == 1
    # The rescheduled start wins over the draw's date where the dates are shown.
    draw = draw_services.draw_of(drawn.edition)
    assert draw is not None
    shown = {
        x.id: x
        for r in display.bracket_rounds(draw, display.numbers_of(draw), display.match_dates(draw))
        for x in r.matches
    }
    assert shown[match.code].start == new_start and shown[match.code].rescheduled
    assert shown[match.code].location == "Hradec Králové"
    # R14.2a not met: the TD rules, and the ruling is recorded.
    late = _local(1999, 3, 19, 8, 0)
    with pytest.raises(match_admin.RulingNeeded, match=r"R14\.2a"):
        match_admin.reschedule(
            match=match,
            start=_local(1999, 3, 19, 10, 0),
            location="",
            agreed_by="captains",
            reason="",
            user=td,
            now=PLAY,
            notice_received_at=late,
        )
    refused = match_admin.reschedule(
        match=match,
        start=_local(1999, 3, 19, 10, 0),
        location="",
        agreed_by="captains",
        reason="too late",
        user=td,
        now=PLAY,
        notice_received_at=late,
        td_allowed=False,
    )
    assert not refused.allowed and refused.decision.status is schedule.RescheduleStatus.TD_REFUSED
    match.refresh_from_db()
    assert match.start == new_start  # unchanged
    assert AuditEntry.objects.filter(action="bridgeko.match.not_rescheduled").count() == 1
    # R14.2b: a start after the record deadline goes to the TD too.
    with pytest.raises(match_admin.RulingNeeded, match=r"R14\.2b"):
        match_admin.reschedule(
            match=match,
            start=_local(1999, 3, 19, 14, 0),
            location="",
            agreed_by="captains",
            reason="",
            user=td,
            now=PLAY,
            notice_received_at=_local(1999, 3, 17, 9, 0),
        )
    # A match that has started is not rescheduled.
    services.save_board(match=match, board=1, room="open", text="P", version=0, user=td, now=PLAY)
    with pytest.raises(ServiceError, match="has started"):
        match_admin.reschedule(
            match=match,
            start=new_start,
            location="",
            agreed_by="captains",
            reason="",
            user=td,
            now=PLAY,
            notice_received_at=_local(1999, 3, 17, 9, 0),
        )


@pytest.mark.django_db
def test_R14_2_reschedule_and_dates_pages(drawn: World) -> None:
    _dates(drawn)
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    slug = drawn.edition.slug
    dates = reverse("matches:dates", kwargs={"edition": slug})
    page = drawn.client("td").get(dates).content.decode()
    assert f'id="row-{match.code}"' in page
    assert reverse("matches:swap", kwargs={"edition": slug, "match": match.code}) not in page
    organiser_page = drawn.client("organiser").get(dates).content.decode()
    assert reverse("matches:swap", kwargs={"edition": slug, "match": match.code}) in organiser_page
    assert drawn.client("captain").get(dates).status_code == 403
    url = reverse("matches:reschedule", kwargs={"edition": slug, "match": match.code})
    td = drawn.client("td")
    form = td.get(url).content.decode()
    assert 'id="record-deadline"' in form and 'id="notice-deadline"' in form
    data = {
        "start": "1999-03-17T18:00",
        "location": "Hradec Králové",
        "agreed_by": "both captains",
        "notice_received_at": "1999-03-19T08:00",  # on the normal date: too late
        "reason": "",
        "ruling": "",
    }
    late = td.post(url, data)
    assert late.status_code == 200 and "R14.2a" in late.content.decode()
    match.refresh_from_db()
    assert match.start is None
    assert td.post(url, data | {"ruling": "allow"}).status_code == 302
    match.refresh_from_db()
    assert match.start == _local(1999, 3, 17, 18, 0)
    page = td.get(dates).content.decode()
    assert "rescheduled" in page


# ---------------------------------------------------------------- the bracket shows the scores


@pytest.mark.django_db
def test_bracket_shows_the_scores_in_the_order_of_its_slots(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    scheme_home = match.home_id
    match_admin.swap_home(match=match, reason="agreed", user=drawn.users["organiser"], now=PLAY)
    match.refresh_from_db()
    decide_by_totals(drawn, match, home=12, visitors=40)  # the (new) visitors win 40:12
    draw = draw_services.draw_of(drawn.edition)
    assert draw is not None
    shown = {
        x.id: x for r in display.bracket_rounds(draw, display.numbers_of(draw)) for x in r.matches
    }
    view = shown[match.code]
    assert view.home.team is not None and view.home.team.pk == scheme_home
    assert view.score is not None
    # The bracket's first slot is the scheme's home team, now the visitors: 40:12 to it.
    assert (view.score.home, view.score.away, view.score.winner) == (40, 12, "home")
    public = drawn.client("anonymous").get(
        reverse("public:draw", kwargs={"edition": drawn.edition.slug})
    )
    text = public.content.decode()
    assert f'id="score-{match.code}"' in text and "40:12" in text


@pytest.mark.django_db
def test_I2_R14_2_lists_of_home_and_visitors_follow_the_swap_and_my_team_shows_the_score(
    drawn: World,
) -> None:
    from bridgeko.core import team_matches

    _dates(drawn)
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    scheme_home, scheme_visitors = team(match.home_id), team(match.visitors_id)
    match_admin.swap_home(match=match, reason="agreed", user=drawn.users["organiser"], now=PLAY)
    schedule_page = drawn.client("anonymous").get(
        reverse("public:schedule", kwargs={"edition": drawn.edition.slug})
    )
    row = next(
        line
        for line in schedule_page.content.decode().split("<tr>")
        if f">{match.code}</a></td>" in line or f"<td>{match.code}</td>" in line
    )
    # Home first: after the swap the scheme's visitors play at home.
    assert row.index(scheme_visitors.name) < row.index(scheme_home.name) and "swapped" in row
    match.refresh_from_db()
    decide_by_totals(drawn, match, home=12, visitors=40)
    mine = {x.id: x for x in team_matches.matches(drawn.edition, scheme_home)}
    assert mine[match.code].result.startswith("40:12 IMP")  # the team's IMPs first
    theirs = {x.id: x for x in team_matches.matches(drawn.edition, scheme_visitors)}
    assert theirs[match.code].result.startswith("12:40 IMP")


@pytest.mark.django_db
def test_I7_public_standings_and_the_menu(drawn: World) -> None:
    slug = drawn.edition.slug
    public = reverse("public:standings", kwargs={"edition": slug})
    empty = drawn.client("anonymous").get(public).content.decode()
    assert 'id="no-standings"' in empty
    play_out(drawn, stop=frozenset({"F"}))
    final = m(drawn, "F")
    for pk in (final.home_id, final.visitors_id):
        no_shows.record_no_show(
            team=team(pk), match="F", timely_notice=True, note="", user=drawn.users["td"], now=PLAY
        )
    standings.decide_place(
        edition=drawn.edition,
        place=1,
        team=team(final.home_id),
        reason="Secret reason of the organiser",
        user=drawn.users["organiser"],
        now=PLAY,
    )
    page = drawn.client("anonymous").get(public).content.decode()
    assert 'id="prizes"' in page and team(final.home_id).name in page
    assert "Secret reason of the organiser" not in page  # the reason stays on the staff page
    staff = reverse("matches:standings", kwargs={"edition": slug})
    dates = reverse("matches:dates", kwargs={"edition": slug})
    for who in ("organiser", "td", "captain", "appeals"):
        html = drawn.client(who).get(reverse("editions:detail", kwargs={"edition": slug}))
        text = html.content.decode()
        assert staff in text, who
        assert (dates in text) == (who in ("organiser", "td")), who
