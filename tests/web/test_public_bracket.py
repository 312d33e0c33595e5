"""The public home page, bracket, team pages, feeds and the embeddable bracket (issue 12, items
1 and 5): what is being played now, the latest results and the next matches by the matches'
status (never the clock); byes as byes, "winner of" slots filled once known, the running score,
boards, segment in progress and chances of matches in progress; a team's roster, Elo and path;
the per-team iCalendar feed; the bracket in another site's ``<iframe>``; a number of queries that
does not grow with the teams (8 and 32 teams with matches in progress)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bridgeko.competition import chances
from bridgeko.draw import schedule_services
from bridgeko.draw import services as draw_services
from bridgeko.editions.models import Edition
from bridgeko.editions.services import create_edition
from bridgeko.entries import services as entry_services
from bridgeko.entries.models import Team
from bridgeko.entries.queries import team_elos
from bridgeko.matches import services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import REGULATIONS_1999, World
from tests.web.test_draw import held
from tests.web.test_entries import NOW, enter_team, make_players
from tests.web.test_matches import PLAY
from tests.web.test_standings import decide_by_totals


def url(name: str, edition: Edition, **kwargs: Any) -> str:
    return reverse(f"public:{name}", kwargs={"edition": edition.slug, **kwargs})


def get(address: str, **headers: Any) -> Any:
    return Client().get(address, **headers)


def text_of(address: str) -> str:
    response = get(address)
    assert response.status_code == 200, (address, response.status_code)
    return str(response.content.decode())


def to_play(edition: Edition) -> list[Match]:
    return list(
        Match.objects.filter(edition=edition, status=MatchStatus.TO_PLAY).order_by("position")
    )


def decide(world: World, match: Match, at: datetime, home: int = 30, visitors: int = 10) -> None:
    """Every segment of ``match`` from the scorecards (the home team wins unless told)."""
    decide_by_totals(world, match, home, visitors, now=at)


BOARDS = (("4S N =", "4S N -1"), ("3NT N -1", "3NT S ="), ("2H E =", "2H E ="))
"""The results of the open and the closed room, board after board (the home team sits NS in
the open room, R12.2)."""


def start(world: World, match: Match, boards: int = 4, *, segment_done: bool = False) -> None:
    """The first ``boards`` boards of ``match`` played in both rooms (all of segment 1 and
    ``boards`` of segment 2 when ``segment_done``)."""
    numbers = list(range(1, boards + 1))
    if segment_done:
        seg = Segment.objects.get(match=match, number=1)
        services.set_segment_totals(
            segment=seg, home_imps=25, visitors_imps=12, user=world.users["td"], now=PLAY
        )
        numbers = [n + seg.last_board for n in numbers]
    for k, board in enumerate(numbers):
        open_text, closed_text = BOARDS[k % len(BOARDS)]
        for room, text in (("open", open_text), ("closed", closed_text)):
            services.save_board(
                match=match,
                board=board,
                room=room,
                text=text,
                version=0,
                user=world.users["td"],
                now=PLAY,
            )


@dataclass
class Played:
    world: World
    decided: list[Match]
    live: Match
    waiting: list[Match]


@pytest.fixture
def played(drawn: World) -> Played:
    """13 teams drawn (3 byes in the scheme for 16): two first-round matches decided (the
    second later), one in progress (segment 1 done, 4 boards of segment 2), two to play."""
    first, second, live, *waiting = to_play(drawn.edition)
    decide(drawn, first, PLAY)
    decide(drawn, second, PLAY + timedelta(hours=2), home=5, visitors=40)
    start(drawn, live, 4, segment_done=True)
    return Played(drawn, [first, second], Match.objects.get(pk=live.pk), waiting)


# ---------------------------------------------------------------- the home page


@pytest.mark.django_db
def test_public_home_shows_now_the_latest_results_and_the_next_matches(played: Played) -> None:
    edition = played.world.edition
    page = text_of(url("home", edition))
    live = played.live
    now = page[page.index('id="now"') : page.index('id="latest"')]
    assert f'id="now-{live.code}"' in now
    # segment 1 25:12 from the scorecards, then boards 17-20: 10 IMP to the home team
    # (+420, +50), 12 to the visitors (-100, +600 vulnerable), flat, 12 to the home team
    assert "47:24" in now and "20 of 32 boards" in now and "segment 2" in now
    assert "chance to win" in now
    latest = page[page.index('id="latest"') : page.index('id="next"')]
    first, second = played.decided
    # the most recently decided first
    assert latest.index(f'id="latest-{second.code}"') < latest.index(f'id="latest-{first.code}"')
    assert "5:40" in latest and "30:10" in latest
    nxt = page[page.index('id="next"') : page.index("The competition")]
    for m in played.waiting:
        assert f'id="next-{m.code}"' in nxt
    assert f'id="next-{live.code}"' not in nxt and f'id="next-{first.code}"' not in nxt
    # what it showed before stays: organiser, dates, entries, the draw's commitment
    assert "Organiser" in page and "Commitment to the draw" in page


@pytest.mark.django_db
def test_public_home_is_the_same_bytes_until_the_data_changes(played: Played) -> None:
    address = url("home", played.world.edition)
    one, two = get(address), get(address)
    assert one.content == two.content and one["ETag"] == two["ETag"]
    assert not one.cookies
    assert get(address, HTTP_IF_NONE_MATCH=one["ETag"]).status_code == 304
    start(played.world, played.waiting[0], 1)
    three = get(address)
    assert three["ETag"] != one["ETag"]
    assert f'id="now-{played.waiting[0].code}"' in three.content.decode()


@pytest.mark.django_db
def test_public_home_in_czech(played: Played) -> None:
    with_cs = Client()
    page = with_cs.get(f"/cs/e/{played.world.edition.slug}/public/").content.decode()
    assert "Právě se hraje" in page and "Poslední výsledky" in page and "Nejbližší utkání" in page
    assert "sestava 2" in page and "rozdání" in page


# ---------------------------------------------------------------- the bracket


@pytest.mark.django_db
def test_public_bracket_byes_filled_slots_running_score_and_segment_link(played: Played) -> None:
    edition = played.world.edition
    page = text_of(url("draw", edition))
    assert page.count('class="bracket-match bye"') == 3
    assert page.count("goes straight on (R11.4)") == 3
    live = played.live
    block = page[page.index(f'id="match-{live.code}"') :]
    block = block[: block.index('<div class="bracket-match')]
    assert "47:24" in block and "20 of 32 boards" in block
    assert "#segment-2" in block  # the segment in progress one click away
    assert re.search(r'class="chance"[^>]*>\d+ %<', block)
    # the winners of the decided matches are in their quarterfinal's slot
    for m in played.decided:
        m.refresh_from_db()
        winner = Team.objects.get(pk=m.home_id if m.winner == "home" else m.visitors_id)
        shown = page[page.index('class="bracket"') : page.index('id="numbering"')]
        assert shown.count(f">{winner.name}</a>") == 2  # in its match and in the next round
    assert "winner of QF1" in page and "loser of SF1" in page
    # team pages one click away
    team = Team.objects.get(pk=live.home_id)
    assert url("team", edition, team=team.pk) in page


@pytest.mark.django_db
def test_public_bracket_chances_follow_the_chances_model_from_each_side(played: Played) -> None:
    live = played.live
    elos = team_elos(live.edition, [live.home_id, live.visitors_id])
    assert live.home_id is not None and live.visitors_id is not None
    home = chances.chance_to_win(
        47 - 24,
        20,
        12,
        elos[live.home_id],
        elos[live.visitors_id],
        chances.params_for(live.edition.regulations),
    )
    page = text_of(url("team", live.edition, team=live.home_id))
    assert f"chance to win {round(home * 100)} %" in page
    page = text_of(url("team", live.edition, team=live.visitors_id))
    assert f"chance to win {round((1 - home) * 100)} %" in page


@pytest.mark.django_db
def test_public_bracket_in_the_staff_print_keeps_working(played: Played) -> None:
    world = played.world
    page = world.client("td").get(
        reverse("draw:print_draw", kwargs={"edition": world.edition.slug})
    )
    assert page.status_code == 200
    text = page.content.decode()
    assert "47:24" in text and 'class="bracket-match bye"' in text
    assert "/public/teams/" not in text  # no links on paper


# ---------------------------------------------------------------- the team page


@pytest.mark.django_db
def test_public_team_page_roster_elo_and_path(played: Played) -> None:
    edition = played.world.edition
    first = played.decided[0]
    first.refresh_from_db()
    assert first.home_id is not None
    page = text_of(url("team", edition, team=first.home_id))
    team = Team.objects.get(pk=first.home_id)
    assert f"<h1>{team.name}</h1>" in page
    roster = page[page.index('id="roster"') :]
    assert roster.index("(captain)") < roster.index("</li>")  # captain first
    assert f"Elo {team_elos(edition, [team.pk])[team.pk]}" in page
    path = page[page.index('id="path"') :]
    assert f'id="path-{first.code}"' in path and "30:10" in path and "won" in path
    qf = Match.objects.get(Q(home=team) | Q(visitors=team), edition=edition, stage="quarterfinal")
    assert f'id="path-{qf.code}"' in path
    # the teams page links here
    assert url("team", edition, team=team.pk) in text_of(url("teams", edition))


@pytest.mark.django_db
def test_public_team_page_of_a_seeded_team_shows_its_bye(played: Played) -> None:
    edition = played.world.edition
    bye = Match.objects.filter(edition=edition, status=MatchStatus.BYE).order_by("position")[0]
    team_id = bye.home_id or bye.visitors_id
    page = text_of(url("team", edition, team=team_id))
    row = page[page.index(f'id="path-{bye.code}"') :]
    assert "goes straight on (R11.4)" in row[: row.index("</tr>")]


@pytest.mark.django_db
def test_public_team_page_unknown_or_other_or_not_accepted_team_is_404(played: Played) -> None:
    edition = played.world.edition
    assert get(url("team", edition, team=999999)).status_code == 404
    other = create_edition(
        slug="ko-2000",
        toml_text=REGULATIONS_1999.read_text(encoding="utf-8"),
        user=played.world.users["organiser"],
    )
    stranger = Team.objects.create(edition=other, name="Cizí", created_at=NOW)
    assert get(url("team", edition, team=stranger.pk)).status_code == 404
    late = Team.objects.get(edition=edition, name="Kapitáni")  # not accepted, after the closing
    assert get(url("team", edition, team=late.pk)).status_code == 404
    assert get(url("team_ics", edition, team=late.pk)).status_code == 404


# ---------------------------------------------------------------- the feeds


def publish_dates(world: World) -> None:
    at = datetime(1999, 3, 13, 9, tzinfo=UTC)
    organiser = world.users["organiser"]
    schedule_services.default_schedule(
        edition=world.edition, first_date=date(1999, 3, 13), user=organiser, now=at
    )
    schedule_services.publish_schedule(edition=world.edition, user=organiser, now=at)


@pytest.mark.django_db
def test_public_team_feed_has_the_teams_matches_only(drawn: World) -> None:
    edition = drawn.edition
    match = to_play(edition)[0]
    assert get(url("team_ics", edition, team=match.home_id)).status_code == 404  # not published
    publish_dates(drawn)
    whole = get(url("schedule_ics", edition))
    assert whole.status_code == 200 and whole.content.count(b"BEGIN:VEVENT") == 5
    mine = get(url("team_ics", edition, team=match.home_id))
    assert mine.status_code == 200 and mine["Content-Type"].startswith("text/calendar")
    body = mine.content.decode()
    assert body.count("BEGIN:VEVENT") == 1 and f"({match.code})" in body
    # the same bytes until the data changes; 304 for a reader who has them
    assert get(url("team_ics", edition, team=match.home_id)).content == mine.content
    again = get(url("team_ics", edition, team=match.home_id), HTTP_IF_NONE_MATCH=mine["ETag"])
    assert again.status_code == 304
    page = text_of(url("team", edition, team=match.home_id))
    assert url("team_ics", edition, team=match.home_id) in page
    assert url("schedule_ics", edition) in text_of(url("schedule", edition))


# ---------------------------------------------------------------- embedding


@pytest.mark.django_db
def test_public_embedded_bracket_may_be_framed_anywhere_and_stays_live(played: Played) -> None:
    edition = played.world.edition
    response = get(url("embed_bracket", edition))
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    policy = response["Content-Security-Policy"]
    assert policy.endswith("frame-ancestors *") and "script-src 'self';" in policy
    body = response.content.decode()
    assert '<base target="_top">' in body and 'target="_top"' in body
    assert 'data-live="/e/ko-1999/live.json"' in body and "data-version=" in body
    assert "live.js" in body and "<main>" in body
    assert "47:24" in body and body.count('class="bracket-match bye"') == 3
    assert 'class="public-nav"' not in body and "site-header" not in body
    # the other public pages may not be framed
    assert get(url("draw", edition))["X-Frame-Options"] == "DENY"
    # the draw page gives the code to copy
    draw = text_of(url("draw", edition))
    assert "&lt;iframe src=&quot;" in draw or '&lt;iframe src="' in draw
    assert url("embed_bracket", edition) in draw


# ---------------------------------------------------------------- checking the draw


@pytest.mark.django_db
def test_I8_draw_page_tells_in_plain_words_how_to_check_the_draw(drawn: World) -> None:
    page = text_of(url("draw", drawn.edition))
    steps = page[page.index('id="check-yourself"') :]
    draw = draw_services.draw_of(drawn.edition)
    assert draw is not None
    assert f"printf %s {draw.revealed_seed} | xxd -r -p | sha256sum" in steps
    # what the command computes is indeed the commitment
    assert hashlib.sha256(bytes.fromhex(draw.revealed_seed)).hexdigest() == draw.commitment
    assert "bridgeko verify-draw draw-ko-1999.json" in steps


# ---------------------------------------------------------------- bounded queries


def edition_of(world: World, slug: str, teams: int, first_player: int) -> World:
    """A new edition ``slug`` with ``teams`` teams entered and the draw held: one match of its
    first round decided, the others in progress (2 boards each)."""
    organiser = world.users["organiser"]
    edition = create_edition(
        slug=slug, toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    other = World(edition=edition, users=world.users)
    players = make_players(4 * teams, start=first_player)
    for k in range(teams):
        enter_team(edition, f"{slug} {k:02d}", players[4 * k : 4 * k + 4], organiser)
    entry_services.close_entries(edition=edition, user=organiser, now=NOW)
    held(other)
    matches = to_play(edition)
    decide(other, matches[0], PLAY)
    for m in matches[1:]:
        start(other, m, 2)
    return other


def count(address: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(address)
    assert response.status_code == 200, address
    return len(queries)


MAX_QUERIES = 16


@pytest.mark.django_db
def test_public_bracket_pages_make_as_many_queries_for_8_as_for_32_teams(
    world: World, django_assert_max_num_queries: Any
) -> None:
    small = edition_of(world, "ko-8", 8, 1001).edition
    big = edition_of(world, "ko-32", 32, 2001).edition
    assert Match.objects.filter(edition=big, status=MatchStatus.IN_PROGRESS).count() == 15
    assert Match.objects.filter(edition=small, status=MatchStatus.IN_PROGRESS).count() == 3
    for name in ("home", "draw", "embed_bracket"):
        counts = [count(url(name, e)) for e in (small, big)]
        assert counts[0] == counts[1], (name, counts)
        with django_assert_max_num_queries(MAX_QUERIES):
            Client().get(url(name, big))
    teams = [
        Match.objects.filter(edition=e, status=MatchStatus.IN_PROGRESS).first()
        for e in (small, big)
    ]
    counts = [count(url("team", m.edition, team=m.home_id)) for m in teams if m is not None]
    assert counts[0] == counts[1], ("team", counts)
    with django_assert_max_num_queries(MAX_QUERIES + 4):
        Client().get(url("team", big, team=teams[1].home_id))  # type: ignore[union-attr]


@pytest.mark.django_db
def test_public_team_feed_makes_as_many_queries_for_16_as_for_32_teams(drawn: World) -> None:
    big = edition_of(drawn, "ko-32", 32, 2001)
    for w in (drawn, big):
        publish_dates(w)
    counts = []
    for w in (drawn, big):
        m = Match.objects.filter(edition=w.edition, stage="preliminary", home__isnull=False)[1]
        counts.append(count(url("team_ics", w.edition, team=m.home_id)))
    assert counts[0] == counts[1] and counts[0] <= MAX_QUERIES, counts
