"""The dashboard per role (issue 9): each provider's items with the exact amounts, dates and
links, and the page as the organiser, a TD and a captain see it."""

from __future__ import annotations

import html
from datetime import UTC, date, datetime

import pytest
from django.urls import NoReverseMatch, reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.core import dashboard
from bridgeko.draw import schedule_services
from bridgeko.draw.models import MatchDate
from bridgeko.editions.dashboard_items import viewer_for
from bridgeko.entries import services as entry_services
from bridgeko.entries.dashboard_items import captain_team_url
from bridgeko.entries.models import Team
from tests.web.conftest import CAPTAIN_TEAM_ID, World, make_user
from tests.web.test_draw import DRAW_AT, announce_and_commit, enter_13, held
from tests.web.test_entries import IN_TIME, NOW, enter_team, make_players

BEFORE = date(1999, 3, 1)
"""Before the 1999 entry deadline (5 March 1999)."""
BEFORE_NOW = datetime(1999, 3, 1, 12, tzinfo=UTC)
AFTER = date(1999, 3, 10)
NBSP = "\N{NO-BREAK SPACE}"


def _items(world: World, who: str, today: date, now: datetime) -> list[dashboard.Item]:
    viewer = viewer_for(world.users[who], world.edition)
    return dashboard.items(world.edition, viewer, today, now)


def _group(items: list[dashboard.Item], group: dashboard.Group) -> list[dashboard.Item]:
    return [i for i in items if i.group is group]


def _captain_of(world: World, team: Team, username: str = "captain-b") -> None:
    world.users[username] = make_user(username)
    RoleAssignment.objects.create(
        user=world.users[username], edition=world.edition, role=Role.CAPTAIN, team=team
    )


@pytest.fixture
def three(world: World) -> dict[str, Team]:
    """Paid in full (600), unpaid (600), unpaid with a non-member (1200), 200 of 600 paid."""
    organiser = world.users["organiser"]
    paid = enter_team(world.edition, "Placení", make_players(4, start=1), organiser)
    unpaid = enter_team(world.edition, "Dlužníci", make_players(4, start=5), organiser, pay=False)
    other = enter_team(
        world.edition,
        "Cizinci",
        make_players(4, start=9, member=False),
        organiser,
        received=None,
    )
    part = enter_team(world.edition, "Zálohou", make_players(4, start=13), organiser, pay=False)
    entry_services.record_conditions(
        team=part,
        form_received=IN_TIME,
        fee_received=IN_TIME,
        fee_paid=200,
        cards={p.pk: IN_TIME for p in part.pairs.all()},
        user=organiser,
        now=NOW,
    )
    return {"paid": paid, "unpaid": unpaid, "other": other, "part": part}


@pytest.mark.django_db
def test_R4_dashboard_sums_unpaid_fees(world: World, three: dict[str, Team]) -> None:
    fees = _group(_items(world, "organiser", BEFORE, BEFORE_NOW), dashboard.Group.FEES)
    assert [i.title for i in fees if not i.total] == [
        f"Cizinci: CZK{NBSP}1,200 of the entry fee to pay",
        f"Dlužníci: CZK{NBSP}600 of the entry fee to pay",
        f"Zálohou: CZK{NBSP}400 of the entry fee to pay",
    ]
    (total,) = [i for i in fees if i.total]
    assert total.title == f"In all: CZK{NBSP}2,200 from 3 teams"  # 1200 + 600 + (600 - 200)
    part = next(i for i in fees if i.title.startswith("Zálohou"))
    assert part.detail.endswith(f"paid so far: CZK{NBSP}200")
    assert part.due == date(1999, 3, 5) and not part.overdue
    assert part.url == reverse(
        "entries:conditions", kwargs={"edition": "ko-1999", "team": three["part"].pk}
    )
    grouped = dashboard.groups(fees)
    assert grouped[0].items[0] is total and grouped[0].count == 3


@pytest.mark.django_db
def test_R4_fees_are_the_organisers_a_td_sees_none_a_captain_their_own(
    world: World, three: dict[str, Team]
) -> None:
    assert _group(_items(world, "td", BEFORE, BEFORE_NOW), dashboard.Group.FEES) == []
    _captain_of(world, three["other"])
    fees = _group(_items(world, "captain-b", BEFORE, BEFORE_NOW), dashboard.Group.FEES)
    assert [i.title for i in fees] == [f"Cizinci: CZK{NBSP}1,200 of the entry fee to pay"]
    assert fees[0].url == captain_team_url(world.edition, three["other"].pk)


@pytest.mark.django_db
def test_R3_dashboard_lists_missing_conditions_per_team(
    world: World, three: dict[str, Team]
) -> None:
    items = _items(world, "organiser", AFTER, datetime(1999, 3, 10, 12, tzinfo=UTC))
    conditions = {i.title: i for i in _group(items, dashboard.Group.CONDITIONS)}
    # the late test team of the world has no roster: no fee yet, its conditions still missing
    assert sorted(conditions) == [
        "Cizinci: conditions of entry not met",
        "Dlužníci: conditions of entry not met",
        "Kapitáni: conditions of entry not met",
        "Zálohou: conditions of entry not met",
    ]
    other = conditions["Cizinci: conditions of entry not met"]
    assert other.detail == (
        "entry form: not received (R3.1a); convention card of pair “Hráč 009 – Hráč 010”: "
        "not received (R3.1b); convention card of pair “Hráč 011 – Hráč 012”: not received "
        "(R3.1b); entry fee: not received (R3.1c)"
    )
    assert other.overdue and other.level is dashboard.Level.WARNING  # the deadline has passed
    short = conditions["Zálohou: conditions of entry not met"]
    assert short.detail == "entry fee: 200 received, 600 due (R4.1)"
    late = conditions["Kapitáni: conditions of entry not met"]
    assert late.due is None and not late.overdue  # a late entry: the organiser decides
    # the overdue entry deadline and closing come first
    assert items[0].overdue
    td = {i.title: i for i in _group(_items(world, "td", AFTER, NOW), dashboard.Group.CONDITIONS)}
    assert sorted(td) == sorted(conditions)
    assert td["Cizinci: conditions of entry not met"].url == reverse(
        "entries:detail", kwargs={"edition": "ko-1999", "team": three["other"].pk}
    )
    captain = _group(_items(world, "captain", AFTER, NOW), dashboard.Group.CONDITIONS)
    assert [i.title for i in captain] == ["Kapitáni: conditions of entry not met"]


@pytest.mark.django_db
def test_dashboard_late_entry_awaits_a_decision(world: World) -> None:
    enter_13(world)  # the entries closed on 10 March 1999
    late = entry_services.create_team(
        edition=world.edition,
        name="Opozdilci",
        roster=make_players(4, start=101),
        user=world.users["organiser"],
        now=NOW,
        late_reason="the post was slow",
    )
    items = _items(world, "organiser", AFTER, NOW)
    waiting = {i.title: i for i in _group(items, dashboard.Group.LATE_ENTRIES)}
    assert sorted(waiting) == [
        "Kapitáni: late entry awaiting a decision",
        "Opozdilci: late entry awaiting a decision",
    ]
    item = waiting["Opozdilci: late entry awaiting a decision"]
    assert item.detail.startswith("the post was slow — entry form: not received (R3.1a)")
    assert item.url == reverse("entries:detail", kwargs={"edition": "ko-1999", "team": late.pk})
    fees = _group(items, dashboard.Group.FEES)
    assert [i.title for i in fees if not i.total] == [
        f"Opozdilci: CZK{NBSP}600 of the entry fee to pay"
    ]
    assert fees[0].due is None and not fees[0].overdue
    # the entry deadline and the closing are done
    assert not [i for i in items if i.title.startswith(("Entry deadline", "Close the entries"))]
    td = _group(_items(world, "td", AFTER, NOW), dashboard.Group.LATE_ENTRIES)
    assert len(td) == 2
    # the captain of the late team: told, without the organiser's note
    captain = _group(_items(world, "captain", AFTER, NOW), dashboard.Group.LATE_ENTRIES)
    assert [(i.title, i.detail) for i in captain] == [
        ("Kapitáni: the late entry awaits the organiser's decision", "")
    ]


@pytest.mark.django_db
def test_R11_5_dashboard_shows_the_announced_draw_overdue_when_not_held(world: World) -> None:
    enter_13(world)
    announce_and_commit(world)
    before = datetime(1999, 3, 11, 12, tzinfo=UTC)
    (draw,) = [
        i
        for i in _items(world, "td", date(1999, 3, 11), before)
        if i.group is dashboard.Group.DEADLINES and i.source == "draw"
    ]
    assert (draw.title, draw.at, draw.due, draw.overdue) == (
        "The draw",
        DRAW_AT,
        date(1999, 3, 12),
        False,
    )
    assert draw.detail == "Place: Nové Město nad Metují (R11.5)"
    after = datetime(1999, 3, 12, 20, tzinfo=UTC)
    organiser = [
        i for i in _items(world, "organiser", date(1999, 3, 12), after) if i.source == "draw"
    ]
    assert organiser[0].title == "Hold the draw" and organiser[0].overdue
    assert organiser[0].url == reverse("draw:manage", kwargs={"edition": "ko-1999"})


@pytest.mark.django_db
def test_R14_dashboard_deadlines_and_next_matches(world: World) -> None:
    teams = enter_13(world)
    held(world)  # Friday 12 March 1999
    day = date(1999, 3, 15)
    now = datetime(1999, 3, 15, 12, tzinfo=UTC)
    (publish,) = [i for i in _items(world, "td", day, now) if "R14.1" in i.title]
    assert publish.due == date(1999, 3, 26) and not publish.overdue and publish.url == ""
    late_now = datetime(1999, 3, 27, 12, tzinfo=UTC)
    (publish,) = [
        i for i in _items(world, "organiser", date(1999, 3, 27), late_now) if "R14.1" in i.title
    ]
    assert publish.overdue and publish.url == reverse(
        "draw:schedule", kwargs={"edition": "ko-1999"}
    )
    organiser = world.users["organiser"]
    schedule_services.default_schedule(
        edition=world.edition, first_date=date(1999, 3, 13), user=organiser, now=now
    )
    schedule_services.publish_schedule(edition=world.edition, user=organiser, now=now)
    items = _items(world, "td", day, now)
    assert not [i for i in items if "R14.1" in i.title]
    (record,) = [i for i in items if i.title.startswith("Round 1:")]
    # R14.2b: by 13:00 on the day of the round's last match (Friday 19 March 1999)
    assert record.at == datetime(1999, 3, 19, 12, tzinfo=UTC) and record.due == date(1999, 3, 19)
    assert record.detail == (
        "deliver the match record to the organiser by 19 March 1999, 13:00 CET (R14.2b)"
    )
    matches = _group(items, dashboard.Group.MATCHES)
    dates = MatchDate.objects.filter(round=1)
    assert len(matches) == dates.count() == 5  # 13 teams in a scheme for 16: three byes
    assert {m.at for m in matches} == {datetime(1999, 3, 19, 18, tzinfo=UTC)}  # 19:00 CET
    assert {m.detail for m in matches} == {world.edition.regulations.edition.venue}
    # a captain: their own team's match and round only
    team = next(t for t in teams if t.name == "Tým 07")
    _captain_of(world, team)
    mine = _items(world, "captain-b", day, now)
    own = _group(mine, dashboard.Group.MATCHES)
    assert len(own) == 1 and "Tým 07" in own[0].title
    assert own[0].url == captain_team_url(world.edition, team.pk)
    assert [i.title for i in mine if i.title.startswith("Round")] == [record.title]
    # after the round: no match, no record deadline
    after = _items(world, "td", date(1999, 3, 20), datetime(1999, 3, 20, 12, tzinfo=UTC))
    assert not _group(after, dashboard.Group.MATCHES)
    assert not [i for i in after if i.title.startswith("Round 1:")]


@pytest.mark.django_db
def test_dashboard_setup_items_are_the_organisers(world: World) -> None:
    organiser = {i.source for i in _items(world, "organiser", BEFORE, BEFORE_NOW)}
    assert {"players", "editions", "draw"} <= organiser
    for who in ("td", "captain"):
        titles = [i.title for i in _items(world, who, BEFORE, BEFORE_NOW)]
        assert not [t for t in titles if t.startswith(("Import the Elo", "Link the previous"))]
        assert "Entry deadline" in titles


def test_captain_link_is_my_team_when_the_project_has_it(world: World) -> None:
    try:
        expected = reverse("entries:my_team", kwargs={"edition": "ko-1999"})
    except NoReverseMatch:
        expected = reverse("entries:detail", kwargs={"edition": "ko-1999", "team": CAPTAIN_TEAM_ID})
    assert captain_team_url(world.edition, CAPTAIN_TEAM_ID) == expected


@pytest.mark.django_db
def test_dashboard_page_as_td_and_captain(world: World, three: dict[str, Team]) -> None:
    url = reverse("editions:dashboard", kwargs={"edition": "ko-1999"})
    organiser = html.unescape(world.client("organiser").get(url).content.decode())
    assert "Entry fees not paid" in organiser and "In all:" in organiser
    assert "Conditions of entry not met" in organiser
    td = world.client("td").get(url)
    assert td.status_code == 200
    text = html.unescape(td.content.decode())
    assert "Late entries awaiting a decision" in text
    assert "the captain's team of the test world" in text  # the late entry's reason: staff only
    assert "Entry fees not paid" not in text
    captain = world.client("captain").get(url)
    assert captain.status_code == 200
    text = html.unescape(captain.content.decode())
    assert "Kapitáni" in text and "Cizinci" not in text
    assert "the captain's team of the test world" not in text
    cs = html.unescape(world.client("organiser", language="cs").get(url).content.decode())
    assert "Nezaplacené vklady" in cs and "Celkem: 2" in cs


@pytest.mark.django_db
def test_editions_list_counts_the_due_items_of_ones_editions(world: World) -> None:
    url = reverse("home")
    page = world.client("captain").get(url)
    dashboard_url = reverse("editions:dashboard", kwargs={"edition": "ko-1999"})
    text = page.content.decode()
    assert dashboard_url in text
    due = page.context["editions"][0][1]
    assert due.count >= 3  # the entry deadline, the late entry, its conditions
    assert f"{due.count} items due" in text
    assert dashboard_url not in world.client("anonymous").get(url).content.decode()


@pytest.mark.django_db
def test_edition_page_links_the_dashboard_for_its_roles(world: World) -> None:
    url = reverse("editions:detail", kwargs={"edition": "ko-1999"})
    dashboard_url = reverse("editions:dashboard", kwargs={"edition": "ko-1999"})
    for who in ("organiser", "td", "captain"):
        assert dashboard_url in world.client(who).get(url).content.decode(), who
    for who in ("public", "appeals", "anonymous"):
        assert dashboard_url not in world.client(who).get(url).content.decode(), who
