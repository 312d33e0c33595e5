"""Line-ups per segment (issue 10 item 2): the seating order (R12.6: the home team sits second in
segment 1, then alternately; extra segments continue, I5), the engine's checks (a roster
mistake; the same pairs facing each other again in consecutive segments, named, I14), who may
give or change a line-up and until when (a captain his own team's until the segment starts,
the TD any time), the audit, the pages (the line-up form, clearing, starting a segment, the
printable table cards) and the link on the captain's "My team" page."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import Team
from bridgeko.matches import lineups
from bridgeko.matches.models import LineUp, Match, MatchStatus, Segment
from bridgeko.players.models import Player
from tests.web.conftest import World, make_user
from tests.web.test_matches import PLAY, play_segment

Four = tuple[Player, Player, Player, Player]


@pytest.fixture
def match(drawn: World) -> Match:
    found = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert found is not None
    return found


def players(match: Match, side: str) -> list[Player]:
    team = match.home if side == "home" else match.visitors
    assert isinstance(team, Team)
    return lineups.roster_of(team)


def seg(match: Match, number: int) -> Segment:
    return Segment.objects.get(match=match, number=number)


def give(
    world: World,
    match: Match,
    number: int,
    side: str,
    order: tuple[int, int, int, int] = (0, 1, 2, 3),
    *,
    who: str = "td",
    as_td: bool = True,
    chosen: Four | None = None,
) -> LineUp:
    p = players(match, side)
    four = chosen or (p[order[0]], p[order[1]], p[order[2]], p[order[3]])
    return lineups.set_line_up(
        segment=seg(match, number),
        side=side,
        open_first=four[0],
        open_second=four[1],
        closed_first=four[2],
        closed_second=four[3],
        user=world.users[who],
        now=PLAY,
        as_td=as_td,
    )


def captain(world: World, match: Match, side: str, language: str = "en") -> Client:
    """A logged-in captain of ``side``'s team (a user made for it)."""
    team = match.home if side == "home" else match.visitors
    username = f"captain-{side}"
    user = world.users.get(username) or make_user(username)
    world.users[username] = user
    RoleAssignment.objects.get_or_create(
        user=user, edition=world.edition, role=Role.CAPTAIN, team=team
    )
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    return client


def url(match: Match, number: int, side: str, name: str = "matches:line_up") -> str:
    return reverse(
        name,
        kwargs={"edition": match.edition.slug, "code": match.code, "number": number, "side": side},
    )


def slips_url(match: Match, number: int) -> str:
    return reverse(
        "matches:slips",
        kwargs={"edition": match.edition.slug, "code": match.code, "number": number},
    )


def form(p: list[Player], order: tuple[int, int, int, int] = (0, 1, 2, 3)) -> dict[str, Any]:
    keys = ("open_first", "open_second", "closed_first", "closed_second")
    return {k: str(p[i].pk) for k, i in zip(keys, order, strict=True)}


# ------------------------------------------------------------------ the seating order (R12.6)


def test_R12_6_segment_1_visitors_sit_first_home_second(drawn: World, match: Match) -> None:
    one, two = seg(match, 1), seg(match, 2)
    assert (lineups.sits_first(one), lineups.sits_second(one)) == ("visitors", "home")
    assert (lineups.sits_first(two), lineups.sits_second(two)) == ("home", "visitors")
    # R12.2: home North-South in the open room, East-West in the closed room
    assert lineups.line_of(one, "home", "open") == "NS"
    assert lineups.line_of(one, "home", "closed") == "EW"
    assert lineups.line_of(one, "visitors", "open") == "EW"


def test_R12_6_second_team_cannot_go_first(drawn: World, match: Match) -> None:
    audit = AuditEntry.objects.count()
    for as_td in (False, True):
        with pytest.raises(ServiceError, match=r"sit first in segment 1 \(R12\.6\)"):
            give(drawn, match, 1, "home", as_td=as_td)
    assert LineUp.objects.count() == 0 and AuditEntry.objects.count() == audit
    give(drawn, match, 1, "visitors")
    give(drawn, match, 1, "home")
    assert LineUp.objects.filter(segment__match=match).count() == 2


def test_R12_6_roster_mistake_refused(drawn: World, match: Match) -> None:
    home = players(match, "home")
    visitors = players(match, "visitors")
    with pytest.raises(ServiceError) as caught:
        give(drawn, match, 1, "visitors", chosen=(visitors[0], visitors[1], visitors[2], home[0]))
    assert "not on its roster" in caught.value.message
    assert home[0].name in caught.value.message  # named, not an id
    v = visitors
    with pytest.raises(ServiceError, match=r"not .* twice"):
        give(drawn, match, 1, "visitors", chosen=(v[0], v[0], v[2], v[3]))
    with pytest.raises(ServiceError, match="cannot play in both rooms"):
        give(drawn, match, 1, "visitors", chosen=(v[0], v[1], v[1], v[3]))
    assert LineUp.objects.count() == 0
    assert not AuditEntry.objects.filter(action="bridgeko.line_up.set").exists()


def test_I14_repeated_matchup_in_consecutive_segments_refused_naming_the_pairs(
    drawn: World, match: Match
) -> None:
    give(drawn, match, 1, "visitors")
    give(drawn, match, 1, "home")
    give(drawn, match, 2, "home")  # home sits first in segment 2: the same pairs
    with pytest.raises(ServiceError) as caught:
        give(drawn, match, 2, "visitors")  # the same pairs against the same pairs
    message = caught.value.message
    h, v = players(match, "home"), players(match, "visitors")
    assert "segment 2" in message and "segment 1" in message and "(R12.6)" in message
    assert f"{h[0].name}-{h[1].name} v {v[0].name}-{v[1].name}" in message
    assert LineUp.objects.filter(segment__number=2).count() == 1
    # the visitors swap rooms: no pair meets the same pair again
    give(drawn, match, 2, "visitors", (2, 3, 0, 1))
    # ... and the TD may not change segment 1 so that segment 2 repeats it
    with pytest.raises(ServiceError, match=r"segment 2: .*segment 1"):
        give(drawn, match, 1, "visitors", (2, 3, 0, 1))
    assert LineUp.objects.get(segment__number=1, side="visitors").open_first == v[0]


def test_I14_repeated_matchup_in_czech(drawn: World, match: Match) -> None:
    from django.utils import translation

    give(drawn, match, 1, "visitors")
    give(drawn, match, 1, "home")
    give(drawn, match, 2, "home")
    with translation.override("cs"), pytest.raises(ServiceError) as caught:
        give(drawn, match, 2, "visitors")
    assert "přisedají hosté" in caught.value.message
    assert players(match, "home")[0].name in caught.value.message


def test_I5_extra_segment_continues_the_alternation(drawn: World, match: Match) -> None:
    for number, first, second in ((1, "visitors", "home"), (2, "home", "visitors")):
        give(drawn, match, number, first)
        give(drawn, match, number, second, (2, 3, 0, 1) if number == 2 else (0, 1, 2, 3))
    play_segment(drawn, match, 1, "4S N =", "4S N =")
    play_segment(drawn, match, 2, "P", "P")
    extra = seg(match, 3)
    assert extra.is_extra
    assert lineups.sits_first(extra) == "visitors"  # 3 continues 1, 2 (I5)
    with pytest.raises(ServiceError, match=r"sit first in segment 3"):
        give(drawn, match, 3, "home")
    give(drawn, match, 3, "visitors")
    with pytest.raises(ServiceError, match=r"segment 3: .*segment 2"):
        give(drawn, match, 3, "home", (2, 3, 0, 1))  # segment 2's tables again
    give(drawn, match, 3, "home")  # segment 1's tables: not consecutive, allowed
    page = drawn.client("td").get(url(match, 3, "home"))
    assert page.status_code == 200
    assert "sit first and give their line-up first" in page.content.decode()
    assert page.context["view"].first == "visitors"


# ---------------------------------------------------------- who may, and until when


def test_R12_6_captain_before_the_start_only(drawn: World, match: Match) -> None:
    give(drawn, match, 1, "visitors", who="organiser", as_td=False)
    give(drawn, match, 1, "visitors", (1, 0, 2, 3), who="organiser", as_td=False)  # a change
    lineups.start_segment(segment=seg(match, 1), user=drawn.users["td"], now=PLAY)
    with pytest.raises(ServiceError, match="has started: only the TD"):
        give(drawn, match, 1, "home", as_td=False)
    give(drawn, match, 1, "home")  # the TD any time
    with pytest.raises(ServiceError, match="started already"):
        lineups.start_segment(segment=seg(match, 1), user=drawn.users["td"], now=PLAY)
    # a board result starts segment 2 as well
    assert not lineups.started(seg(match, 2))
    from bridgeko.matches import services

    services.save_board(
        match=match, board=17, room="open", text="P", version=0, user=drawn.users["td"], now=PLAY
    )
    assert lineups.started(seg(match, 2))
    with pytest.raises(ServiceError, match="has started"):
        give(drawn, match, 2, "home", as_td=False)


def test_R12_6_first_team_cannot_change_after_the_second_gave(drawn: World, match: Match) -> None:
    give(drawn, match, 1, "visitors", as_td=False)
    give(drawn, match, 1, "home", as_td=False)
    with pytest.raises(ServiceError, match="after seeing yours: only the TD"):
        give(drawn, match, 1, "visitors", (1, 0, 3, 2), as_td=False)
    give(drawn, match, 1, "visitors", (1, 0, 3, 2))  # the TD may
    assert (
        LineUp.objects.get(segment__number=1, side="visitors").open_first
        == players(match, "visitors")[1]
    )


def test_audit_of_set_clear_and_start(drawn: World, match: Match) -> None:
    give(drawn, match, 1, "visitors")
    give(drawn, match, 1, "visitors", (1, 0, 2, 3))
    entries = AuditEntry.objects.filter(action="bridgeko.line_up.set").order_by("pk")
    assert entries.count() == 2
    v = players(match, "visitors")
    assert entries[0].before == {}
    assert entries[0].after["open_room"] == f"{v[0].name} – {v[1].name}"
    assert entries[1].before["open_room"] == f"{v[0].name} – {v[1].name}"
    assert entries[1].after["open_room"] == f"{v[1].name} – {v[0].name}"
    assert match.code in entries[1].summary and "segment 1" in entries[1].summary
    give(drawn, match, 1, "home")
    with pytest.raises(ServiceError, match="clear theirs first"):
        lineups.clear_line_up(
            segment=seg(match, 1), side="visitors", reason="x", user=drawn.users["td"], now=PLAY
        )
    with pytest.raises(ServiceError, match="reason"):
        lineups.clear_line_up(
            segment=seg(match, 1), side="home", reason=" ", user=drawn.users["td"], now=PLAY
        )
    lineups.clear_line_up(
        segment=seg(match, 1), side="home", reason="wrong room", user=drawn.users["td"], now=PLAY
    )
    cleared = AuditEntry.objects.get(action="bridgeko.line_up.cleared")
    h = players(match, "home")
    assert cleared.before["open_room"] == f"{h[0].name} – {h[1].name}"
    assert cleared.after["reason"] == "wrong room"
    assert not LineUp.objects.filter(side="home").exists()
    lineups.start_segment(segment=seg(match, 1), user=drawn.users["td"], now=PLAY)
    assert AuditEntry.objects.filter(action="bridgeko.segment.started").count() == 1
    assert seg(match, 1).started_at == PLAY


# ------------------------------------------------------------------------------- the pages


def test_line_up_page_access(drawn: World, match: Match) -> None:
    home_captain = captain(drawn, match, "home")
    visitors_captain = captain(drawn, match, "visitors")
    assert visitors_captain.get(url(match, 1, "visitors")).status_code == 200
    assert home_captain.get(url(match, 1, "home")).status_code == 200
    assert home_captain.get(url(match, 1, "visitors")).status_code == 403  # not his team
    post = home_captain.post(url(match, 1, "visitors"), form(players(match, "visitors")))
    assert post.status_code == 403
    assert drawn.client("captain").get(url(match, 1, "home")).status_code == 403  # another team
    assert drawn.client("public").get(url(match, 1, "home")).status_code == 403
    anonymous = drawn.client("anonymous").get(url(match, 1, "home"))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert drawn.client("td").get(url(match, 1, "home")).status_code == 200
    assert drawn.client("td").get(url(match, 1, "nobody")).status_code == 404
    assert drawn.client("td").get(url(match, 9, "home")).status_code == 404
    assert LineUp.objects.count() == 0


def test_line_up_page_post_good_and_bad(drawn: World, match: Match) -> None:
    home_captain = captain(drawn, match, "home")
    visitors_captain = captain(drawn, match, "visitors")
    h, v = players(match, "home"), players(match, "visitors")
    # the home team sits second in segment 1: it waits and sees no form
    page = home_captain.get(url(match, 1, "home")).content.decode()
    assert 'id="closed"' in page and "line-up-form" not in page
    assert f"<strong>{match.visitors.name}</strong> sit first" in page
    refused = home_captain.post(url(match, 1, "home"), form(h))
    assert refused.status_code == 200 and "sit first in segment 1" in refused.content.decode()
    # the visitors: a bad one (a player twice) shows the engine's refusal on the form
    bad = visitors_captain.post(url(match, 1, "visitors"), form(v, (0, 1, 1, 2)))
    assert bad.status_code == 200
    assert "cannot play in both rooms" in bad.content.decode()
    assert LineUp.objects.count() == 0
    good = visitors_captain.post(url(match, 1, "visitors"), form(v))
    assert good.status_code == 302 and good["Location"] == url(match, 1, "visitors")
    assert LineUp.objects.get(side="visitors").entered_by == drawn.users["captain-visitors"]
    # now the home team sees the visitors' line-up (R12.6) and gives its own
    page = home_captain.get(url(match, 1, "home")).content.decode()
    assert v[0].name in page and "line-up-form" in page
    assert home_captain.post(url(match, 1, "home"), form(h)).status_code == 302
    # the visitors can no longer change theirs, the TD can
    page = visitors_captain.get(url(match, 1, "visitors")).content.decode()
    assert "only the TD can change yours now" in page and h[0].name in page
    td = drawn.client("td")
    assert td.post(url(match, 1, "visitors"), form(v, (1, 0, 2, 3))).status_code == 302
    # segment 2: the same tables are refused on the page, naming the pairs (I14)
    assert td.post(url(match, 2, "home"), form(h)).status_code == 302
    bad = td.post(url(match, 2, "visitors"), form(v, (1, 0, 2, 3)))
    text = bad.content.decode()
    assert bad.status_code == 200 and "must not seat the same pairs" in text
    assert f"{h[0].name}-{h[1].name} v {v[0].name}-{v[1].name}" in text
    # the previous segment's tables are shown to help
    assert 'id="previous"' in text
    # the TD starts the segment: the captain is locked out
    start = reverse(
        "matches:segment_start",
        kwargs={"edition": drawn.edition.slug, "code": match.code, "number": 2},
    )
    assert home_captain.post(start, {"side": "home"}).status_code == 403
    assert td.post(start, {"side": "visitors"})["Location"] == url(match, 2, "visitors")
    assert seg(match, 2).started_at is not None
    page = home_captain.get(url(match, 2, "home")).content.decode()
    assert "The segment has started: only the TD" in page
    assert home_captain.post(url(match, 2, "home"), form(h, (1, 0, 2, 3))).status_code == 200
    assert LineUp.objects.get(segment__number=2, side="home").open_first == h[0]


def test_clear_page_asks_first(drawn: World, match: Match) -> None:
    give(drawn, match, 1, "visitors")
    v = players(match, "visitors")
    td = drawn.client("td")
    clear = url(match, 1, "visitors", "matches:line_up_clear")
    page = td.get(clear).content.decode()
    assert f"{v[0].name} – {v[1].name}" in page and "confirm-clear" in page
    assert LineUp.objects.count() == 1  # a GET changes nothing
    assert td.post(clear, {"reason": ""}).status_code == 200
    assert LineUp.objects.count() == 1
    assert td.post(clear, {"reason": "the captain wrote the wrong names"}).status_code == 302
    assert LineUp.objects.count() == 0
    assert "nothing to clear" in td.get(clear).content.decode()
    assert captain(drawn, match, "visitors").get(clear).status_code == 403


def test_slips_page_names_every_seat(drawn: World, match: Match) -> None:
    give(drawn, match, 1, "visitors")
    give(drawn, match, 1, "home")
    h, v = players(match, "home"), players(match, "visitors")
    response = drawn.client("td").get(slips_url(match, 1))
    assert response.status_code == 200
    rooms = dict(response.context["rooms"])
    # R12.2: home NS in the open room, visitors NS in the closed room
    assert [(s.seat, s.player) for s in rooms["open"]] == [
        ("N", h[0]),
        ("E", v[0]),
        ("S", h[1]),
        ("W", v[1]),
    ]
    assert [(s.seat, s.player) for s in rooms["closed"]] == [
        ("N", v[2]),
        ("E", h[2]),
        ("S", v[3]),
        ("W", h[3]),
    ]
    text = response.content.decode()
    assert 'id="slip-open"' in text and 'id="slip-closed"' in text
    assert match.home.name in text and match.visitors.name in text
    assert "boards 1–16" in text and 'id="print"' in text
    assert captain(drawn, match, "home").get(slips_url(match, 1)).status_code == 403
    czech = drawn.client("td", "cs").get(slips_url(match, 1)).content.decode()
    assert "Otevřená místnost" in czech and "Sever" in czech and "rozdání 1–16" in czech


def test_my_team_links_the_line_up(drawn: World, match: Match) -> None:
    home_captain = captain(drawn, match, "home")
    my_team = reverse("entries:my_team", kwargs={"edition": drawn.edition.slug})
    page = home_captain.get(my_team).content.decode()
    assert url(match, 1, "home") in page
    assert "Segment 1: the opponents give their line-up first" in page
    give(drawn, match, 1, "visitors")
    page = home_captain.get(my_team).content.decode()
    assert "Give the line-up for segment 1 (the opponents&#x27; is in)" in page
    visitors_page = captain(drawn, match, "visitors").get(my_team).content.decode()
    assert url(match, 1, "visitors") in visitors_page
    assert "Change the line-up for segment 1" in visitors_page
    lineups.start_segment(segment=seg(match, 1), user=drawn.users["td"], now=PLAY)
    page = home_captain.get(my_team).content.decode()
    assert url(match, 2, "home") in page and url(match, 1, "home") not in page
    assert "Give the line-up for segment 2 (you sit first)" in page
    czech = captain(drawn, match, "home", "cs").get(my_team).content.decode()
    assert "sestavení" in czech.lower()


def test_line_up_page_in_czech(drawn: World, match: Match) -> None:
    page = captain(drawn, match, "visitors", "cs").get(url(match, 1, "visitors"))
    text = page.content.decode()
    assert "Sestavení" in text and "přisedá" in text and "otevřené místnosti" in text


def test_not_known_teams_give_no_line_up(drawn: World) -> None:
    final = Match.objects.get(edition=drawn.edition, code="F")
    Segment.objects.get_or_create(
        match=final, number=1, defaults={"first_board": 1, "last_board": 16}
    )
    assert drawn.client("td").get(url(final, 1, "home")).status_code == 404
    p = list(Player.objects.all()[:4])
    with pytest.raises(ServiceError, match="not known yet"):
        lineups.set_line_up(
            segment=seg(final, 1),
            side="visitors",
            open_first=p[0],
            open_second=p[1],
            closed_first=p[2],
            closed_second=p[3],
            user=drawn.users["td"],
            now=PLAY,
            as_td=True,
        )


def test_td_is_sent_to_the_team_sitting_first(drawn: World, match: Match) -> None:
    page = drawn.client("td").get(url(match, 1, "home")).content.decode()
    assert "sit first: enter their line-up first (R12.6)" in page
    assert url(match, 1, "visitors") in page  # the link to the other team's line-up
    czech = drawn.client("td", "cs").get(url(match, 1, "home")).content.decode()
    assert "nejdřív zadejte jeho sestavení" in czech


def test_R12_6_the_team_sitting_first_sees_the_opponents_line_up_only_once_both_are_in(
    drawn: World, match: Match
) -> None:
    # segment 1: the visitors sit first, the home team (seating rights) second
    home, visitors = captain(drawn, match, "home"), captain(drawn, match, "visitors")
    home_names = [p.name for p in players(match, "home")]
    visitors_names = [p.name for p in players(match, "visitors")]
    assert 'id="other-hidden"' in home.get(url(match, 1, "home")).content.decode()
    give(drawn, match, 1, "visitors")
    seen_by_home = home.get(url(match, 1, "home")).content.decode()
    assert 'id="other-hidden"' not in seen_by_home  # the second team sees the first's
    assert all(name in seen_by_home for name in visitors_names)
    seen_by_visitors = visitors.get(url(match, 1, "visitors")).content.decode()
    assert 'id="other-hidden"' in seen_by_visitors  # not the other way round
    assert not any(name in seen_by_visitors for name in home_names)
    give(drawn, match, 1, "home")
    seen_by_visitors = visitors.get(url(match, 1, "visitors")).content.decode()
    assert 'id="other-hidden"' not in seen_by_visitors
    assert all(name in seen_by_visitors for name in home_names)
