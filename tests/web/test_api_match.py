"""The read-only JSON API of a match (issue 10, item 11): ``GET /api/e/<edition>/matches/<code>/``
— its exact shape, a board played in one room only, the score after a decided match, penalties,
conditional requests (ETag, 304), no cookie, HEAD, JSON 404s and 405, and a number of queries that
does not grow with the boards."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import http_date

from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.scoring import parse_result, result_score
from bridgeko.competition import match as engine
from bridgeko.competition.regulations import Stage
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches import services
from bridgeko.matches.models import BoardResult, Match, MatchStatus, Segment
from tests.web.conftest import World
from tests.web.test_matches import PLAY, play_segment

pytestmark = pytest.mark.django_db

MATCH_KEYS = {
    "code",
    "stage",
    "home",
    "visitors",
    "status",
    "winner",
    "total",
    "segments",
    "penalties",
    "results_pbn",  # issue 20: the address of the PBN result file, null before a segment ends
}
SEGMENT_KEYS = {"number", "home_imps", "visitors_imps", "boards"}
BOARD_KEYS = {"number", "open", "closed", "imps"}
PENALTY_KEYS = {"kind", "side", "segment", "boards", "minutes", "imps", "reason"}
MAX_QUERIES = 8


# ------------------------------------------------------------------------------------ helpers


def final_match(edition: Edition, *, now: datetime = PLAY) -> Match:
    """A final (48 boards in three segments, R1.3) between two new teams of ``edition``, made
    directly: no draw is needed, and without a held draw a decided final moves no bracket."""
    made = datetime(1999, 2, 1, 10, tzinfo=UTC)
    home = Team.objects.create(edition=edition, name="Domácí Hradec", created_at=made)
    visitors = Team.objects.create(edition=edition, name="Hosté Žďár", created_at=made)
    match = Match.objects.create(
        edition=edition,
        code="F",
        position=99,
        round=9,
        stage=Stage.FINAL.value,
        home=home,
        visitors=visitors,
        updated_at=now,
    )
    Segment.objects.bulk_create(
        Segment(match=match, number=s.number, first_board=s.first_board, last_board=s.last_board)
        for s in engine.segments_for_stage(Stage.FINAL, edition.regulations)
    )
    with transaction.atomic():
        services.refresh(services.locked(match), now=now)
    match.refresh_from_db()
    return match


def fill(match: Match, boards: range, open_text: str, closed_text: str) -> None:
    """Both rooms of ``boards`` stored at once (test data; the services are tested elsewhere),
    then the match's cached state refreshed as a service would."""
    rows = []
    for board in boards:
        for room, text in (("open", open_text), ("closed", closed_text)):
            score = result_score(parse_result(text), vulnerability(board))
            rows.append(
                BoardResult(
                    match=match, board=board, room=room, text=text, ns_score=score, entered_at=PLAY
                )
            )
    BoardResult.objects.bulk_create(rows)
    with transaction.atomic():
        services.refresh(services.locked(match), now=PLAY)


def url(match: Match, code: str | None = None, edition: str | None = None) -> str:
    return reverse(
        "api:match",
        kwargs={"edition": edition or match.edition.slug, "code": code or match.code},
    )


def get(match: Match, **headers: Any) -> Any:
    return Client().get(url(match), headers=headers)


def document(match: Match) -> dict[str, Any]:
    response = get(match)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    data: dict[str, Any] = json.loads(response.content)
    return data


def first_r1(world: World) -> Match:
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    return match


def save(world: World, match: Match, board: int, room: str, text: str, version: int = 0) -> None:
    services.save_board(
        match=match,
        board=board,
        room=room,
        text=text,
        version=version,
        user=world.users["td"],
        now=PLAY,
    )


# ------------------------------------------------------------------------------------ shape


def test_api_match_has_exactly_the_issues_shape(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "4s n =")
    save(drawn, match, 1, "closed", "4S N -1")
    doc = document(match)
    assert set(doc) == MATCH_KEYS
    home = Team.objects.get(pk=match.home_id)
    visitors = Team.objects.get(pk=match.visitors_id)
    assert doc["code"] == match.code and doc["stage"] == "preliminary"
    assert doc["home"] == {"name": home.name} and doc["visitors"] == {"name": visitors.name}
    assert doc["status"] == "in_progress" and doc["winner"] is None
    assert doc["total"] == {"home": 10, "visitors": 0}  # board 1 not vulnerable: 420 + 50
    assert doc["penalties"] == [] and doc["results_pbn"] is None
    assert [s["number"] for s in doc["segments"]] == [1, 2]
    for seg in doc["segments"]:
        assert set(seg) == SEGMENT_KEYS
        for board in seg["boards"]:
            assert set(board) == BOARD_KEYS
    first = doc["segments"][0]
    assert [b["number"] for b in first["boards"]] == list(range(1, 17))
    assert [b["number"] for b in doc["segments"][1]["boards"]] == list(range(17, 33))
    assert first["boards"][0] == {"number": 1, "open": "4S N =", "closed": "4S N -1", "imps": 10}
    assert (first["home_imps"], first["visitors_imps"]) == (10, 0)
    assert first["boards"][1] == {"number": 2, "open": None, "closed": None, "imps": None}


def test_api_match_board_in_one_room_only_shows_no_result(drawn: World) -> None:
    """A board still being played in the other room shows neither room's result (the players
    of the closed room must not read the open room's)."""
    match = first_r1(drawn)
    save(drawn, match, 3, "open", "3NT S +1")
    save(drawn, match, 4, "closed", "2H E =")
    boards = document(match)["segments"][0]["boards"]
    assert boards[2] == {"number": 3, "open": None, "closed": None, "imps": None}
    assert boards[3] == {"number": 4, "open": None, "closed": None, "imps": None}
    raw = get(match).content.decode()
    assert "3NT" not in raw and "2H" not in raw
    save(drawn, match, 3, "closed", "3NT S +1")
    board = document(match)["segments"][0]["boards"][2]
    assert board == {"number": 3, "open": "3NT S +1", "closed": "3NT S +1", "imps": 0}


def test_api_match_imps_from_the_home_teams_view(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "4S N -1")  # home NS in the open room (R12.2): -50
    save(drawn, match, 1, "closed", "4S N =")  # visitors NS in the closed room: +420
    doc = document(match)
    assert doc["segments"][0]["boards"][0]["imps"] == -10
    assert (doc["segments"][0]["home_imps"], doc["segments"][0]["visitors_imps"]) == (0, 10)
    assert doc["total"] == {"home": 0, "visitors": 10}


def test_api_match_decided_winner_and_total(drawn: World) -> None:
    match = first_r1(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "P", "P")
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
    doc = document(match)
    assert doc["status"] == "decided" and doc["winner"] == "home"
    assert doc["total"] == {"home": match.home_total, "visitors": match.visitors_total}
    assert match.home_total > 0 and match.visitors_total == 0
    assert [(s["home_imps"], s["visitors_imps"]) for s in doc["segments"]] == [
        (match.home_total, 0),
        (0, 0),
    ]
    assert all(b["open"] == "P" for b in doc["segments"][1]["boards"])


def test_api_match_walkover_and_pending(drawn: World) -> None:
    from bridgeko.draw import no_shows

    match = first_r1(drawn)
    no_shows.record_no_show(
        team=Team.objects.get(pk=match.home_id),
        match=match.code,
        timely_notice=False,
        note="",
        user=drawn.users["td"],
        now=PLAY,
    )
    doc = document(match)
    assert doc["status"] == "walkover" and doc["winner"] == "visitors"
    pending = Match.objects.get(edition=drawn.edition, code="F")
    doc = document(pending)
    assert doc["home"] is None and doc["visitors"] is None
    assert doc["status"] == "pending" and doc["winner"] is None and doc["segments"] == []


def test_api_match_penalties_without_the_withdrawn(drawn: World) -> None:
    match = first_r1(drawn)
    td = drawn.users["td"]
    late = services.add_penalty(
        match=match,
        segment=1,
        kind="lateness",
        side="visitors",
        minutes=9,
        reason="Hosté přišli o 9 minut později.",
        user=td,
        now=PLAY,
    )
    services.add_penalty(
        match=match,
        segment=1,
        kind="slow_play",
        side="home",
        boards=1,
        reason="Pomalá hra",
        user=td,
        now=PLAY,
    )
    withdrawn = services.add_penalty(
        match=match,
        segment=1,
        kind="adjustment",
        side="home",
        imps=-3,
        reason="omyl",
        user=td,
        now=PLAY,
    )
    services.withdraw_penalty(penalty=withdrawn, reason="zapsáno omylem", user=td, now=PLAY)
    services.add_penalty(
        match=match,
        segment=1,
        kind="adjustment",
        side="visitors",
        imps=2,
        reason="Úprava rozhodčího",
        user=td,
        now=PLAY,
    )
    doc = document(match)
    for p in doc["penalties"]:
        assert set(p) == PENALTY_KEYS
    assert doc["penalties"] == [
        {
            "kind": "lateness",
            "side": "visitors",
            "segment": 1,
            "boards": 2,  # R12.9: 9 minutes at 7 a board, every started period
            "minutes": 9,
            "imps": None,
            "reason": "Hosté přišli o 9 minut později.",
        },
        {
            "kind": "slow_play",
            "side": "home",
            "segment": 1,
            "boards": 1,
            "minutes": None,
            "imps": None,
            "reason": "Pomalá hra",
        },
        {
            "kind": "adjustment",
            "side": "visitors",
            "segment": 1,
            "boards": None,
            "minutes": None,
            "imps": 2,
            "reason": "Úprava rozhodčího",
        },
    ]
    assert late.boards is None
    # The boards removed for lateness (the last two of segment 1, I6) show no result.
    assert doc["segments"][0]["boards"][-1] == {
        "number": 16,
        "open": None,
        "closed": None,
        "imps": None,
    }
    assert "omyl" not in get(match).content.decode()
    assert "Úprava rozhodčího" in get(match).content.decode()  # UTF-8, not \\u escapes


def test_api_match_segment_totals_from_the_scorecards(drawn: World) -> None:
    match = first_r1(drawn)
    seg = Segment.objects.get(match=match, number=1)
    services.set_segment_totals(
        segment=seg, home_imps=41, visitors_imps=17, user=drawn.users["td"], now=PLAY
    )
    first = document(match)["segments"][0]
    assert (first["home_imps"], first["visitors_imps"]) == (41, 17)
    assert all(b["open"] is None and b["imps"] is None for b in first["boards"])


# ------------------------------------------------------------------------------------ HTTP


def test_api_match_etag_and_304(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "P")
    first = get(match)
    etag = first["ETag"]
    assert etag.startswith('"') and first["Last-Modified"]
    assert "max-age=0" in first["Cache-Control"] and "public" in first["Cache-Control"]
    again = get(match, if_none_match=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    since = get(match, if_modified_since=first["Last-Modified"])
    assert since.status_code == 304
    # A change raises the match's version: a new ETag, the new content.
    later = PLAY + timedelta(minutes=5)
    services.save_board(
        match=match, board=1, room="closed", text="P", version=0, user=drawn.users["td"], now=later
    )
    changed = get(match, if_none_match=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed["Last-Modified"] == http_date(later.timestamp())
    assert json.loads(changed.content)["segments"][0]["boards"][0]["closed"] == "P"
    assert get(match, if_modified_since=first["Last-Modified"]).status_code == 200


def test_api_match_304_after_one_query(drawn: World, django_assert_max_num_queries: Any) -> None:
    match = first_r1(drawn)
    etag = get(match)["ETag"]
    address = url(match)
    with django_assert_max_num_queries(2):  # the edition (middleware) and the match
        assert Client().get(address, headers={"if_none_match": etag}).status_code == 304


def test_api_match_renamed_team_changes_the_etag(drawn: World) -> None:
    match = first_r1(drawn)
    etag = get(match)["ETag"]
    Team.objects.filter(pk=match.home_id).update(name="Nové jméno")
    response = get(match, if_none_match=etag)
    assert response.status_code == 200 and json.loads(response.content)["home"]["name"] == (
        "Nové jméno"
    )


@pytest.mark.parametrize("who", ["anonymous", "td"])
def test_api_match_sets_no_cookie(drawn: World, who: str) -> None:
    match = first_r1(drawn)
    client = drawn.client(who)
    response = client.get(url(match))
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers and not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    not_found = client.get(url(match, code="X9"))
    assert not_found.status_code == 404 and not not_found.cookies


def test_api_match_head(drawn: World) -> None:
    match = first_r1(drawn)
    got = get(match)
    head = Client().head(url(match))
    assert head.status_code == 200
    assert head["ETag"] == got["ETag"] and head["Content-Type"] == "application/json"
    assert not head.cookies


def test_api_match_404s_are_json(drawn: World) -> None:
    match = first_r1(drawn)
    for address in (url(match, code="X9"), url(match, edition="no-such-edition")):
        response = Client().get(address)
        assert response.status_code == 404, address
        assert response["Content-Type"] == "application/json"
        assert json.loads(response.content)["error"] == "not found"
    other = Client().get("/api/nothing-here/")
    assert other.status_code == 404 and json.loads(other.content)["error"] == "not found"
    # Outside /api/ the 404 stays the friendly page.
    page = Client().get("/cs/e/no-such-edition/public/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_api_match_is_read_only(drawn: World, method: str) -> None:
    match = first_r1(drawn)
    client = drawn.client("organiser")
    response = getattr(client, method)(url(match), {})
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, OPTIONS"
    assert json.loads(response.content)["error"] == "method not allowed"


def test_api_match_in_czech_is_the_same_document(drawn: World) -> None:
    match = first_r1(drawn)
    save(drawn, match, 1, "open", "P")
    english = drawn.client("anonymous", "en").get(url(match)).content
    czech = drawn.client("anonymous", "cs").get(url(match)).content
    assert english == czech


# ------------------------------------------------------------------------------------ queries


def _queries(match: Match) -> int:
    address = url(match)
    with CaptureQueriesContext(connection) as ctx:
        assert Client().get(address).status_code == 200
    return len(ctx.captured_queries)


def test_api_match_queries_do_not_grow_with_the_boards(
    world: World, django_assert_max_num_queries: Any
) -> None:
    match = final_match(world.edition)
    empty = _queries(match)
    fill(match, range(1, 17), "4S N =", "4S N -1")
    doc = document(match)
    assert all(b["imps"] in (10, 12) for b in doc["segments"][0]["boards"])  # R12.3
    sixteen = _queries(match)
    fill(match, range(17, 49), "3NT N =", "3NT N =")
    doc = document(match)
    assert doc["status"] == "decided" and doc["winner"] == "home"
    assert sum(len(s["boards"]) for s in doc["segments"]) == 48
    with django_assert_max_num_queries(MAX_QUERIES):
        forty_eight = _queries(match)
    assert empty == sixteen == forty_eight


def test_api_match_error_detail_in_the_readers_language(drawn: World) -> None:
    match = first_r1(drawn)
    response = drawn.client("anonymous", "cs").get(url(match, code="X9"))
    assert json.loads(response.content) == {
        "error": "not found",
        "detail": "Utkání X9 v tomto ročníku není.",
    }
