"""The open JSON API, version 1 (issue 12, item 5; docs/api.md): every resource answers JSON
with an ``ETag`` and a 304 for a current copy, sets no cookie, is open to other sites for
reading (CORS), keeps the first addresses working, is listed in the OpenAPI document, and costs a
number of queries that grows neither with the teams nor with the boards (item 6). The document
is tested against its own schema in ``test_api_schema.py``; the deals stay secret until the end
of their segment (item 7) in ``test_secrecy.py``, which walks these URLs too."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, get_resolver, reverse
from django.utils.http import http_date

from bridgeko.draw import schedule_services
from bridgeko.editions.models import Edition
from bridgeko.editions.services import create_edition
from bridgeko.entries import services as entry_services
from bridgeko.matches import services as match_services
from bridgeko.matches.models import Match, MatchStatus
from bridgeko.public.openapi import document
from tests.web.conftest import World
from tests.web.test_api_match import PLAY, first_r1, save
from tests.web.test_draw import NOW, held
from tests.web.test_entries import enter_team, make_players
from tests.web.test_matches import play_segment

pytestmark = pytest.mark.django_db

ORIGIN = "https://club.example"
EDITION_RESOURCES = ("edition", "teams", "bracket", "matches", "schedule", "standings")
MAX_QUERIES = 18
"""The most any resource of the API costs (the edition, its version, the draw, numbers, dates,
the matches and their facts, the teams' rosters and Elo ...)."""


def urls(edition: Edition, match: Match | None = None) -> dict[str, str]:
    """Every resource of the API for ``edition`` (and ``match``)."""
    slug = edition.slug
    out = {
        "openapi": reverse("api:openapi"),
        "editions": reverse("api:editions"),
        **{name: reverse(f"api:{name}", kwargs={"edition": slug}) for name in EDITION_RESOURCES},
    }
    if match is not None:
        out["match"] = reverse("api:match", kwargs={"edition": slug, "code": match.code})
        out["team"] = reverse("api:team", kwargs={"edition": slug, "team": match.home_id})
    return out


def get(url: str, client: Client | None = None, **headers: Any) -> Any:
    return (client or Client()).get(url, headers=headers)


def data(url: str) -> Any:
    response = get(url)
    assert response.status_code == 200, (url, response.content[:300])
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


@pytest.fixture
def played(drawn: World) -> Match:
    """A first-round match with board 1 played in both rooms and board 2 in the open room."""
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "4S N =")
    save(drawn, match, 1, "closed", "4S N -1")
    save(drawn, match, 2, "open", "3NT S +1")
    return match


# ------------------------------------------------------------------------------------ HTTP


def test_api_every_resource_answers_json_with_an_etag_and_a_304(played: Match) -> None:
    for name, url in urls(played.edition, played).items():
        first = get(url)
        assert first.status_code == 200, name
        assert first["Content-Type"] == "application/json", name
        etag = first["ETag"]
        assert etag.startswith('"') and etag.endswith('"'), name
        assert first["Cache-Control"] == "public, max-age=0, must-revalidate", name
        if name != "openapi":
            assert first["Last-Modified"], name
        again = get(url, if_none_match=etag)
        assert again.status_code == 304 and again.content == b"", name
        assert again["ETag"] == etag, name
        head = Client().head(url)
        assert head.status_code == 200 and head["ETag"] == etag, name


def test_api_a_saved_board_moves_the_etags_and_the_bracket_score(drawn: World) -> None:
    match = first_r1(drawn)
    addresses = urls(drawn.edition, match)
    before = {name: get(url)["ETag"] for name, url in addresses.items()}
    save(drawn, match, 5, "open", "P")
    save(drawn, match, 5, "closed", "P")
    for name in ("bracket", "matches", "team", "match", "edition"):
        response = get(addresses[name], if_none_match=before[name])
        assert response.status_code == 200 and response["ETag"] != before[name], name
    assert get(addresses["openapi"], if_none_match=before["openapi"]).status_code == 304
    scored = next(m for m in data(addresses["matches"])["matches"] if m["code"] == match.code)
    assert scored["score"]["boards_played"] == 1 and scored["score"]["status"] == "in_progress"


def test_api_etag_changes_only_with_the_path(played: Match) -> None:
    """Two resources of one edition at one version have different tags (a cache keyed by the
    tag alone would mix them up); the same resource in Czech and English is one document."""
    addresses = urls(played.edition, played)
    tags = {get(url)["ETag"] for url in addresses.values()}
    assert len(tags) == len(addresses)
    for url in addresses.values():
        english = Client(headers={"accept-language": "en"}).get(url)
        czech = Client(headers={"accept-language": "cs"}).get(url)
        assert english.content == czech.content and english["ETag"] == czech["ETag"], url


def test_api_sets_no_cookie_and_does_not_vary_on_it(played: Match, drawn: World) -> None:
    for who in ("anonymous", "td", "organiser"):
        client = drawn.client(who)
        for name, url in urls(played.edition, played).items():
            response = client.get(url)
            assert response.status_code == 200, (name, who)
            assert "Set-Cookie" not in response.headers and not response.cookies, (name, who)
            assert "cookie" not in response.get("Vary", "").lower(), (name, who)


def test_api_cors_is_open_for_reading(played: Match) -> None:
    for name, url in urls(played.edition, played).items():
        response = get(url, origin=ORIGIN)
        assert response["Access-Control-Allow-Origin"] == "*", name
        assert "Access-Control-Allow-Credentials" not in response.headers, name
        exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
        assert {"etag", "last-modified"} <= exposed, name
        not_modified = get(url, origin=ORIGIN, if_none_match=response["ETag"])
        assert not_modified.status_code == 304, name
        assert not_modified["Access-Control-Allow-Origin"] == "*", name
    preflight = Client().options(
        urls(played.edition)["bracket"],
        headers={
            "origin": ORIGIN,
            "access-control-request-method": "GET",
            "access-control-request-headers": "if-none-match",
        },
    )
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == "*"
    methods = {m.strip() for m in preflight["Access-Control-Allow-Methods"].split(",")}
    assert methods == {"GET", "HEAD", "OPTIONS"}
    assert "if-none-match" in preflight["Access-Control-Allow-Headers"].lower()
    plain = Client().options(urls(played.edition)["bracket"])
    assert plain.status_code == 204 and plain["Allow"] == "GET, HEAD, OPTIONS"


def test_api_cors_stays_off_the_html_pages(played: Match) -> None:
    for url in ("/", reverse("public:draw", kwargs={"edition": played.edition.slug})):
        response = get(url, origin=ORIGIN)
        assert "Access-Control-Allow-Origin" not in response.headers, url


def test_api_is_read_only(played: Match, drawn: World) -> None:
    client = drawn.client("organiser")
    for method in ("post", "put", "patch", "delete"):
        for name, url in urls(played.edition, played).items():
            response = getattr(client, method)(url, {}, headers={"origin": ORIGIN})
            assert response.status_code == 405, (name, method)
            assert json.loads(response.content)["error"] == "method not allowed", (name, method)


def test_api_404s_are_json(played: Match) -> None:
    slug = played.edition.slug
    for url in (
        reverse("api:edition", kwargs={"edition": "no-such-edition"}),
        reverse("api:bracket", kwargs={"edition": "no-such-edition"}),
        reverse("api:team", kwargs={"edition": slug, "team": 999999}),
        reverse("api:match", kwargs={"edition": slug, "code": "X9"}),
        "/api/v1/nothing/",
        "/api/v2/editions/",
    ):
        response = get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json", url
        assert json.loads(response.content)["error"] == "not found", url


def test_api_first_addresses_still_answer_the_same(played: Match) -> None:
    slug, code = played.edition.slug, played.code
    old = data(reverse("api:legacy_match", kwargs={"edition": slug, "code": code}))
    new = data(reverse("api:match", kwargs={"edition": slug, "code": code}))
    assert old == new
    assert reverse("api:legacy_match", kwargs={"edition": slug, "code": code}) == (
        f"/api/e/{slug}/matches/{code}/"
    )


# ------------------------------------------------------------------------------------ content


def test_api_editions_and_edition(played: Match) -> None:
    edition = played.edition
    listed = data(reverse("api:editions"))["editions"]
    assert [e["slug"] for e in listed] == [edition.slug]
    doc = data(listed[0]["links"]["self"])
    assert doc["name"] == edition.name and doc["stage"] == edition.stage
    assert doc["dates"]["entry_deadline"] == "1999-03-05"
    assert doc["draw"]["held_at"] and doc["draw"]["scheme_size"] == 16
    for link in doc["links"].values():
        assert get(link).status_code == 200, link


def test_api_teams_show_what_the_public_teams_page_shows(played: Match) -> None:
    teams = data(urls(played.edition)["teams"])["teams"]
    assert len(teams) == 13  # the accepted ones: the captain's late team is not
    assert [t["elo"] for t in teams] == sorted((t["elo"] for t in teams), reverse=True)
    first = teams[0]
    assert set(first) == {"id", "name", "elo", "number", "roster", "links"}
    assert first["roster"][0]["captain"] and not first["roster"][1]["captain"]
    assert set(first["roster"][0]) == {"name", "elo", "captain"}  # no fee, no federation id
    assert sorted(t["number"] for t in teams) == list(range(1, 14))


def test_api_team_and_its_path_through_the_bracket(played: Match) -> None:
    team = data(urls(played.edition, played)["team"])
    assert team["id"] == played.home_id
    assert [m["code"] for m in team["path"]] == [played.code]
    step = team["path"][0]
    assert step["score"] == {
        "home": 10,
        "away": 0,
        "status": "in_progress",
        "winner": None,
        "boards_played": 1,  # board 2 is in one room only
        "boards": 32,
    }


def test_api_bracket_shows_byes_and_winner_of_slots(played: Match) -> None:
    doc = data(urls(played.edition)["bracket"])
    assert doc["held"] is True
    first = doc["rounds"][0]["matches"]
    byes = [m for m in first if m["status"] == "bye"]
    assert len(byes) == 3  # R11.4: numbers 14-16 missing
    assert all(m["away"]["kind"] == "empty" and m["away"]["team"] is None for m in byes)
    final = doc["rounds"][-1]["matches"]
    assert {m["stage"] for m in final} == {"final", "third_place"}
    pending = [s for m in final for s in (m["home"], m["away"])]
    assert all(s["kind"] == "pending" and s["team"] is None and s["ref"] for s in pending)
    playing = next(m for m in first if m["code"] == played.code)
    assert playing["score"]["boards_played"] == 1 and playing["links"]["match"].endswith(
        f"/matches/{played.code}/"
    )


def test_api_a_decided_match_moves_its_winner_on(drawn: World) -> None:
    match = first_r1(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "P", "P")
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    doc = data(urls(drawn.edition)["bracket"])
    games = {m["code"]: m for r in doc["rounds"] for m in r["matches"]}
    assert games[match.code]["score"]["winner"] == "home"
    assert games[match.code]["score"]["boards_played"] == 32
    later = [
        s
        for m in games.values()
        for s in (m["home"], m["away"])
        if s["team"] is not None and s["team"]["id"] == match.home_id and m["code"] != match.code
    ]
    assert len(later) == 1  # the winner's slot in the next round shows the team


def test_api_schedule_and_standings_before_and_after_publication(played: Match) -> None:
    addresses = urls(played.edition)
    schedule = data(addresses["schedule"])
    assert schedule == {
        "edition": played.edition.slug,
        "published": False,
        "matches": [],
        "links": {"ical": None},
    }
    standings = data(addresses["standings"])
    assert standings["finished"] is False and standings["prizes"] is None


def test_api_schedule_once_published_R14_1(drawn: World) -> None:
    organiser = drawn.users["organiser"]
    address = urls(drawn.edition)["schedule"]
    before = get(address)["ETag"]
    schedule_services.default_schedule(
        edition=drawn.edition, first_date=date(1999, 3, 13), user=organiser, now=NOW
    )
    assert data(address)["published"] is False  # dates being prepared are not public
    schedule_services.publish_schedule(edition=drawn.edition, user=organiser, now=NOW)
    response = get(address, if_none_match=before)
    assert response.status_code == 200
    doc = json.loads(response.content)
    assert doc["published"] is True and len(doc["matches"]) == 5  # R11.4: 3 byes have no date
    assert {m["start"] for m in doc["matches"]} == {"1999-03-19T18:00:00+00:00"}
    assert all(m["home"]["team"] and m["away"]["team"] for m in doc["matches"])
    assert doc["links"]["ical"] and get(doc["links"]["ical"]).status_code == 200
    bracket = data(urls(drawn.edition)["bracket"])
    dated = [m for m in bracket["rounds"][0]["matches"] if m["start"]]
    assert len(dated) == 5


def test_api_openapi_lists_every_address_of_the_api() -> None:
    doc = document()
    assert doc["openapi"].startswith("3.1")
    paths = set(doc["paths"])

    def route(p: URLPattern, prefix: str) -> str:
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", prefix + str(p.pattern))

    api = [r for r in get_resolver().url_patterns if getattr(r, "namespace", None) == "api"]
    assert len(api) == 1
    routes = {route(p, str(api[0].pattern)) for p in api[0].url_patterns}
    assert routes - {"/api/openapi.json"} == paths
    served = data(reverse("api:openapi"))
    assert served == json.loads(json.dumps(doc))


# ------------------------------------------------------------------------------------ queries


def _queries(url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert Client().get(url).status_code == 200, url
    return len(ctx.captured_queries)


def _counts(edition: Edition, match: Match) -> dict[str, int]:
    return {name: _queries(url) for name, url in urls(edition, match).items()}


def _small(world: World, toml_1999: str) -> tuple[Edition, Match]:
    """A second edition of 8 teams, drawn, nothing played."""
    organiser = world.users["organiser"]
    edition = create_edition(slug="ko-small", toml_text=toml_1999, user=organiser)
    players = make_players(32, start=500)
    for k in range(8):
        enter_team(edition, f"Malý {k}", players[4 * k : 4 * k + 4], organiser)
    entry_services.close_entries(edition=edition, user=organiser, now=NOW)
    held(World(edition=edition, users=world.users))
    match = Match.objects.filter(edition=edition, home__isnull=False).order_by("position")[0]
    return edition, match


def test_api_queries_grow_neither_with_teams_nor_with_boards(
    drawn: World, toml_1999: str, django_assert_max_num_queries: Any
) -> None:
    small_edition, small_match = _small(drawn, toml_1999)
    small = _counts(small_edition, small_match)
    match = first_r1(drawn)
    empty = _counts(drawn.edition, match)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")  # 16 boards in both rooms
    other = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).exclude(
        pk=match.pk
    )[0]
    play_segment(drawn, other, 1, "3NT N =", "3NT N -1")
    play_segment(drawn, other, 2, "P", "P")  # a whole match decided: the bracket moves on
    big = _counts(drawn.edition, match)
    assert big == empty, (empty, big)
    assert big == small, (small, big)
    for url in urls(drawn.edition, match).values():
        with django_assert_max_num_queries(MAX_QUERIES):
            Client().get(url)


def test_api_304_costs_two_queries(played: Match, django_assert_max_num_queries: Any) -> None:
    for name, url in urls(played.edition, played).items():
        if name in ("openapi", "editions"):
            continue
        etag = get(url)["ETag"]
        with django_assert_max_num_queries(2):  # the edition and its version (or the match)
            assert get(url, if_none_match=etag).status_code == 304, name


def test_api_last_modified_follows_the_newest_change(drawn: World) -> None:
    match = first_r1(drawn)
    later = PLAY + timedelta(hours=2)
    match_services.save_board(
        match=match, board=1, room="open", text="P", version=0, user=drawn.users["td"], now=later
    )
    for name, url in urls(drawn.edition, match).items():
        if name not in ("openapi", "editions"):  # the list: the newest change of the site
            assert get(url)["Last-Modified"] == http_date(later.timestamp()), name


def test_api_views_of_reads_every_match_as_view_does(
    drawn: World, django_assert_max_num_queries: Any
) -> None:
    """``matches.state.views_of`` (the bracket's running scores, 4 queries) computes each match
    exactly as ``state.view`` (the match page, the match document)."""
    from bridgeko.matches import state

    match = first_r1(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    save(drawn, match, 17, "open", "3NT S =")
    save(drawn, match, 17, "closed", "3NT S -2")
    rows = list(Match.objects.filter(edition=drawn.edition).select_related("edition"))
    with django_assert_max_num_queries(4):
        views = state.views_of(rows)
    for m in rows:
        one = state.view(m)
        many = views[m.pk]
        assert many.running == one.running, m.code
        assert [(s.home_imps, s.visitors_imps, s.complete) for s in many.segments] == [
            (s.home_imps, s.visitors_imps, s.complete) for s in one.segments
        ], m.code
        assert many.state == one.state, m.code
    assert views[match.pk].running[0] > 0
