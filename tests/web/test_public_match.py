"""The public match page (issue 12): teams, status, running score and boards played, chances to
win while in progress, line-ups once a segment has started (R12.6), segments with penalties and
adjustments (R12.8, R12.9) and their reasons, the board-by-board table of both rooms — a board's
results only once both rooms have played it, as in the API —, links to the board pages after the
end of a segment (I15) and back, links from the bracket, the schedule and the hand records, no
cookie, a 304, and a number of queries that grows neither with the boards nor with the teams."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from bridgeko.competition import match as engine
from bridgeko.competition.regulations import Stage
from bridgeko.entries.models import Team
from bridgeko.matches import lineups, services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web import handrecord_world as hw_
from tests.web.conftest import World
from tests.web.test_api_match import fill, first_r1, save
from tests.web.test_matches import PLAY, play_segment

pytestmark = pytest.mark.django_db

MAX_QUERIES = 20


@pytest.fixture(autouse=True)
def _fresh_page_cache() -> None:
    """The rendered pages are kept by path and ETag; a test's rolled-back database may give a
    new match the version of another test's (the audit entries' ids start again)."""
    from bridgeko.public import render

    render._cache.clear()


def url(match: Match, language: str = "en") -> str:
    with translation.override(language):
        return reverse("public:match", kwargs={"edition": match.edition.slug, "code": match.code})


def get(match: Match, language: str = "en", **headers: Any) -> Any:
    return Client().get(url(match, language), headers=headers)


def text(match: Match, language: str = "en") -> str:
    response = get(match, language)
    assert response.status_code == 200, response.content[:500]
    return str(response.content.decode())


def board_row(page: str, board: int) -> str:
    start = page.index(f'id="board-{board}"')
    return page[start : page.index("</tr>", start)]


def give_line_ups(world: World, match: Match, number: int) -> list[str]:
    """Both teams' line-ups of segment ``number`` (the team sitting first first, R12.6); the
    names of the eight players."""
    seg = Segment.objects.get(match=match, number=number)
    names = []
    for side in (lineups.sits_first(seg), lineups.sits_second(seg)):
        team = match.home if side == "home" else match.visitors
        assert isinstance(team, Team)
        p = lineups.roster_of(team)[:4]
        lineups.set_line_up(
            segment=seg,
            side=side,
            open_first=p[0],
            open_second=p[1],
            closed_first=p[2],
            closed_second=p[3],
            user=world.users["td"],
            now=PLAY,
            as_td=True,
        )
        names += [x.name for x in p]
    return names


# ------------------------------------------------------------------------- what the page shows


def test_public_match_shows_teams_status_running_score_and_boards_played(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "4s n =")
    save(drawn, match, 1, "closed", "4S N -1")
    match.refresh_from_db()
    page = text(match)
    assert match.home is not None and match.visitors is not None
    assert match.home.name in page and match.visitors.name in page
    assert 'id="home-name">' + match.home.name in page
    assert "In progress: segment 1" in page
    assert "boards played: 1 of 32" in page
    assert '<span id="score-home">10</span>' in page
    assert '<span id="score-visitors">0</span>' in page
    row = board_row(page, 1)
    assert "4S N =" in row and "420" in row and "4S N -1" in row and "50" in row
    assert '<td class="num imps">10</td>' in row


def test_public_match_board_in_one_room_only_shows_no_result(drawn: World) -> None:
    """As in the API (one rule, ``api.results_shown``): the other room may still be playing."""
    match = first_r1(drawn)
    save(drawn, match, 3, "open", "3NT S +1")
    save(drawn, match, 4, "closed", "2H E =")
    page = text(match)
    assert "3NT" not in page and "2H E" not in page
    assert "not played in both rooms yet" in board_row(page, 3)
    save(drawn, match, 3, "closed", "3NT S +1")
    row = board_row(text(match), 3)
    assert row.count("3NT S +1") == 2


def test_R12_2_imps_to_the_visitors_in_their_column(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "4S N -1")  # home NS in the open room: -50
    save(drawn, match, 1, "closed", "4S N =")  # visitors NS in the closed room: +420
    row = board_row(text(match), 1)
    assert '<td class="num imps"></td><td class="num imps">10</td>' in row


def test_R12_6_line_ups_are_public_once_the_segment_has_started(drawn: World) -> None:
    match = first_r1(drawn)
    names = give_line_ups(drawn, match, 1)
    page = text(match)
    assert not any(n in page for n in names)  # the captains may still change them
    save(drawn, match, 1, "open", "P")
    page = text(match)
    assert all(n in page for n in names)
    assert "Line-ups" in page and "Open room" in page


def test_R12_8_R12_9_penalty_and_adjustment_shown_with_reasons(drawn: World) -> None:
    match = first_r1(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N =")
    for kind, extra, reason in (
        ("lateness", {"minutes": 16}, "Arrived 16 minutes late"),
        ("adjustment", {"imps": -3}, "Wrong board moved"),
    ):
        services.add_penalty(
            match=match,
            segment=2,
            kind=kind,
            side="visitors",
            reason=reason,
            user=drawn.users["td"],
            now=PLAY,
            **extra,
        )
    page = text(match)
    assert "Arrived 16 minutes late" in page and "Wrong board moved" in page
    assert "lateness (R12.9)" in page and "TD adjustment" in page
    section = page[page.index('id="penalties"') :]
    removed = engine.boards_removed_for_lateness(
        16,
        minutes_per_board=drawn.edition.regulations.penalties.lateness_minutes_per_board,
        segment_boards=16,
    )
    assert f"16 minutes late, boards removed: {removed}." in section  # R12.9, I6
    assert "-3 IMPs" in page


def test_public_match_decided_shows_the_winner_and_no_chances(drawn: World) -> None:
    match = first_r1(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "P", "P")
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    page = text(match)
    assert match.home is not None
    assert f"Decided: {match.home.name} won" in page
    assert 'id="chances"' not in page
    assert "Running score after this segment" in page


def test_public_match_bye_and_not_started(drawn: World) -> None:
    bye = Match.objects.filter(edition=drawn.edition, status=MatchStatus.BYE).first()
    assert bye is not None
    assert "Bye: the team goes straight on (R11.4)" in text(bye)
    assert "Not started" in text(first_r1(drawn))


def test_R15_2_public_match_walkover(drawn: World) -> None:
    from bridgeko.draw import no_shows

    match = first_r1(drawn)
    no_shows.record_no_show(
        team=Team.objects.get(pk=match.visitors_id),
        match=match.code,
        timely_notice=False,
        note="",
        user=drawn.users["td"],
        now=PLAY,
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.WALKOVER
    assert match.home is not None
    page = text(match)
    assert f"Walkover: {match.home.name} goes on (R15.2)" in page
    assert "boards played" not in page


def test_issue12_chances_to_win_while_in_progress(drawn: World) -> None:
    match = first_r1(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")  # home 10 IMPs a board
    page = text(match)
    home = int(page.split('id="chance-home">')[1].split("&nbsp;")[0])
    visitors = int(page.split('id="chance-visitors">')[1].split("&nbsp;")[0])
    assert home + visitors == 100 and home > 95
    assert "16 boards left" in page
    assert 'href="#chances-explained"' in page and 'id="chances-explained"' in page


# ---------------------------------------------------------------- board pages and links (I15)


@pytest.fixture
def hw(world: World) -> hw_.HandWorld:
    hand = hw_.make(world)
    hw_.enter_closed_room(hand, {1: "4S N -1", 2: "3NT E -1", 3: "P", 4: "2HX W +1"})
    return hand


def test_I15_board_numbers_link_to_the_board_pages_after_the_end_only(hw: hw_.HandWorld) -> None:
    with translation.override("en"):
        board_url = reverse(
            "public:hand_record", kwargs={"edition": hw.edition.slug, "code": "QF1", "board": 1}
        )
    page = text(hw.match)
    assert board_url not in page and "Hand records of the segment" not in page
    hw_.end_segment(hw)
    page = text(hw.match)
    assert f'<a href="{board_url}">1</a>' in page
    assert "Hand records of the segment" in page
    # ...and the board page links back to the match page, with both rooms' results
    board = Client().get(board_url).content.decode()
    assert f'href="{url(hw.match)}"' in board
    assert "hr-results" in board


def test_board_page_after_play_shows_deal_hcp_dd_par_and_both_rooms(hw: hw_.HandWorld) -> None:
    hw_.end_segment(hw)
    with translation.override("en"):
        board_url = reverse(
            "public:hand_record", kwargs={"edition": hw.edition.slug, "code": "QF1", "board": 1}
        )
    page = Client().get(board_url).content.decode()
    assert page.count('class="hr-hand') == 4  # the deal diagram
    assert 'class="hr-table"' in page  # high-card points
    assert 'class="hr-dd"' in page and "Par" in page
    results = page[page.index('class="hr-results"') :]
    assert results.count("<tr>") >= 3  # heading, the open room, the closed room


# ---------------------------------------------------------------------------- links to the page


def test_public_match_linked_from_the_bracket(drawn: World) -> None:
    match = first_r1(drawn)
    client = Client()
    with translation.override("en"):
        draw_page = client.get(reverse("public:draw", kwargs={"edition": "ko-1999"}))
    assert f'href="{url(match)}"' in draw_page.content.decode()


def test_public_match_linked_from_the_hand_records_index(hw: hw_.HandWorld) -> None:
    hw_.end_segment(hw)
    with translation.override("en"):
        index = Client().get(
            reverse("public:hand_records_index", kwargs={"edition": hw.edition.slug})
        )
        the_set = Client().get(
            reverse(
                "public:hand_records",
                kwargs={"edition": hw.edition.slug, "code": "QF1", "segment": 1},
            )
        )
    assert f'href="{url(hw.match)}"' in index.content.decode()
    assert f'href="{url(hw.match)}"' in the_set.content.decode()


# ------------------------------------------------------------------------------------ HTTP


def test_public_match_no_cookie_etag_and_304(drawn: World) -> None:
    match = first_r1(drawn)
    response = get(match)
    assert response.status_code == 200 and not response.cookies
    tag = response["ETag"]
    assert get(match, **{"If-None-Match": tag}).status_code == 304
    save(drawn, match, 1, "open", "P")
    assert get(match, **{"If-None-Match": tag}).status_code == 200


def test_public_match_unknown_match_or_edition_is_404(drawn: World) -> None:
    with translation.override("en"):
        for kwargs in ({"edition": "ko-1999", "code": "NOPE"}, {"edition": "no", "code": "F"}):
            assert Client().get(reverse("public:match", kwargs=kwargs)).status_code == 404


def test_public_match_in_czech(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "P")
    save(drawn, match, 1, "closed", "P")
    page = text(match, "cs")
    assert "Utkání" in page and "Sestava 1" in page and "Domácí" in page and "Hosté" in page
    assert "Šance na výhru" in page
    assert "Otevřená místnost" in page


# ----------------------------------------------------------------------------- bounded queries


def _count(match: Match) -> int:
    from bridgeko.public import render

    client = Client()
    client.get(url(match))  # the first request after a write reads the edition once more
    render._cache.clear()  # count the rendering, not the cached bytes
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url(match))
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_public_match_queries_do_not_grow_with_boards_or_teams(
    drawn: World, django_assert_max_num_queries: Any
) -> None:
    """A 32-board match with 15 boards played and the 48-board final with 47 played (both in
    progress, line-ups in, teams with rosters and Elo): the same number of queries; the same
    again with 20 more teams."""
    small = first_r1(drawn)
    give_line_ups(drawn, small, 1)
    fill(small, range(1, 16), "4S N =", "4S N -1")
    other = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).exclude(
        pk=small.pk
    )[0]
    final = Match.objects.get(edition=drawn.edition, code="F")  # 48 boards (R1.3)
    Match.objects.filter(pk=final.pk).update(home=other.home, visitors=other.visitors)
    final.refresh_from_db()
    if not Segment.objects.filter(match=final).exists():  # made when the teams are known
        Segment.objects.bulk_create(
            Segment(
                match=final, number=x.number, first_board=x.first_board, last_board=x.last_board
            )
            for x in engine.segments_for_stage(Stage.FINAL, drawn.edition.regulations)
        )
    give_line_ups(drawn, final, 1)
    fill(final, range(1, 48), "3NT S =", "3NT S -1")
    for m in (small, final):
        m.refresh_from_db()
        assert m.status == MatchStatus.IN_PROGRESS
    assert Segment.objects.filter(match=final).count() == 3
    counts = [_count(small), _count(final)]
    made = datetime(1999, 2, 1, 10, tzinfo=UTC)
    Team.objects.bulk_create(
        Team(edition=drawn.edition, name=f"Další {i}", created_at=made, late_entry=True)
        for i in range(20)
    )
    save(drawn, small, 16, "open", "P")  # a new version: the pages are rendered again
    counts += [_count(small), _count(final)]
    assert len(set(counts)) == 1, counts
    with django_assert_max_num_queries(MAX_QUERIES):
        Client().get(url(final, "cs"))
