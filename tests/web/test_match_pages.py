"""The TD's match pages (issue 10, items 3, 5, 10): the edition's matches, one match on one
screen, board-by-board entry (R12.2-R12.3) with its JSON answers (conflict, confirmation), the
segment totals, closing a segment, penalties (R12.8, R12.9) and their withdrawal; who may use
them; a number of queries that does not grow with the boards."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse, reverse_lazy
from django.utils import timezone

from bridgeko.audit.models import AuditEntry
from bridgeko.matches import bracket_sync, services
from bridgeko.matches.models import BoardResult, Match, MatchStatus, Penalty, Segment
from tests.web.conftest import World
from tests.web.test_matches import PLAY, play_segment

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
LIST = reverse_lazy("matches:list", kwargs={"edition": "ko-1999"})


def first_match(world: World) -> Match:
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    return match


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(
        f"matches:{name}", kwargs={"edition": match.edition.slug, "code": match.code, **kwargs}
    )


def board_url(match: Match, board: int, room: str) -> str:
    return url("save_board", match, board=board, room=room)


# ------------------------------------------------------------------------------ the list


def test_matches_list_by_round_with_score(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    response = drawn.client("td").get(LIST)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('id="match-') == 16
    assert 'id="round-1"' in page and 'id="round-4"' in page
    assert url("detail", match) in page
    match.refresh_from_db()
    assert match.home_total > 0 and match.visitors_total == 0  # home gains on every board
    assert f"{match.home_total} : 0" in page
    assert 'id="nav-matches"' in page  # the edition's menu once the draw is held


def test_matches_list_before_the_draw(world: World) -> None:
    page = world.client("td").get(LIST)
    assert 'id="no-matches"' in page.content.decode()
    assert 'id="nav-matches"' not in page.content.decode()


# ------------------------------------------------------------------------------ the match page


def test_issue10_item10_match_page_shows_everything(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    services.save_board(
        match=match, board=17, room="open", text="3NT N =", version=0,
        user=drawn.users["td"], now=PLAY,
    )  # fmt: skip
    services.add_penalty(
        match=match, segment=2, kind="slow_play", side="visitors", boards=2,
        reason="pomalá hra", user=drawn.users["td"], now=PLAY,
    )  # fmt: skip
    response = drawn.client("td").get(url("detail", match))
    assert response.status_code == 200
    page = response.content.decode()
    match.refresh_from_db()
    assert match.home.name in page and match.visitors.name in page
    assert 'id="segment-1"' in page and 'id="segment-2"' in page
    assert 'value="4S N ="' in page and 'value="4S N -1"' in page  # both rooms
    assert '<td class="num imps" id="imps-1">10</td>' in page  # IMPs from the home team's view
    assert f'<span id="seg-1-home">{match.home_total}</span>' in page
    # the running score: segment 1, the slow play of the visitors in segment 2 (R12.8), and
    # board 17 (only one room in: no IMPs yet)
    assert _running(page) == (str(match.home_total), str(match.visitors_total))
    assert match.visitors_total == -6
    assert 'id="time-limit"' in page  # R12.8: the time allowed for segment 2
    assert "120 minutes" in page
    assert "results of boards 17–32" in page  # board 17 has only the open room
    assert "line-up of" in page  # no line-ups entered
    assert "pomalá hra" in page
    assert reverse("draw:no_show", kwargs={"edition": "ko-1999", "team": match.home_id}) in page


def _running(page: str) -> tuple[str, str]:
    home = page.split('<span id="running-home">')[1].split("<")[0]
    visitors = page.split('<span id="running-visitors">')[1].split("<")[0]
    return home, visitors


def test_R16_3_appeal_deadline_once_decided(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "P", "P")
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    page = drawn.client("td").get(url("detail", match)).content.decode()
    assert 'id="appeal-deadline"' in page
    assert "R16.3" in page
    assert 'id="time-limit"' not in page
    assert 'class="board-form"' in page  # a TD may still correct


def test_appeals_reads_without_entry_fields(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    response = drawn.client("appeals").get(url("detail", match))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="board-form"' not in page
    assert "4S N -1" in page
    assert drawn.client("appeals").get(LIST).status_code == 200


@pytest.mark.parametrize("who", ["captain", "public"])
def test_captain_and_public_are_refused(drawn: World, who: str) -> None:
    match = first_match(drawn)
    client = drawn.client(who)
    assert client.get(url("detail", match)).status_code == 403
    assert client.get(LIST).status_code == 403
    response = client.post(board_url(match, 1, "open"), {"text": "4S N =", "version": 0})
    assert response.status_code == 403
    assert not BoardResult.objects.exists()


def test_anonymous_goes_to_login(drawn: World) -> None:
    match = first_match(drawn)
    response = drawn.client("anonymous").get(url("detail", match))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = drawn.client("anonymous").post(board_url(match, 1, "open"), {"text": "P"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_czech_match_page(drawn: World) -> None:
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    page = drawn.client("td", language="cs").get(url("detail", match)).content.decode()
    assert "Utkání" in page and "Sestava 1" in page and "otevřená místnost" in page.lower()
    assert "Segment" not in page.replace("segment-", "").replace("data-segment", "")
    listing = drawn.client("td", language="cs").get(LIST)
    assert "Utkání" in listing.content.decode()


def test_unknown_match_is_404(drawn: World) -> None:
    response = drawn.client("td").get(
        reverse("matches:detail", kwargs={"edition": "ko-1999", "code": "X9"})
    )
    assert response.status_code == 404


# ------------------------------------------------------------------------------ board by board


def test_R12_3_save_board_json_answers_scores_and_imps(drawn: World) -> None:
    match = first_match(drawn)
    client = drawn.client("td")
    first = client.post(board_url(match, 1, "open"), {"text": "4s n =", "version": 0}, **JSON)
    assert first.status_code == 200
    data = first.json()
    assert data["ok"] and data["text"] == "4S N =" and data["version"] == 1
    assert data["ns_score"] == 420 and data["imps"] is None
    second = client.post(board_url(match, 1, "closed"), {"text": "4S N -1", "version": 0}, **JSON)
    data = second.json()
    assert data["ns_score"] == -50 and data["imps"] == 10  # 470 -> 10 IMPs to home (R12.3)
    assert data["segment"] == {"number": 1, "home": 10, "visitors": 0, "complete": False}
    assert data["running"] == {"home": 10, "visitors": 0}
    # a passed-out board, then the visitors' gain on board 2
    client.post(board_url(match, 2, "open"), {"text": "P", "version": 0}, **JSON)
    data = client.post(
        board_url(match, 2, "closed"), {"text": "3NT N =", "version": 0}, **JSON
    ).json()
    assert data["ns_score"] == 600 and data["imps"] == -12  # the visitors sit NS in the closed room
    assert data["running"]["visitors"] == -data["imps"]
    assert BoardResult.objects.filter(match=match).count() == 4
    assert AuditEntry.objects.filter(action="bridgeko.board.saved").count() == 4


def test_R12_3_wrong_entry_is_a_400_with_its_message(drawn: World) -> None:
    match = first_match(drawn)
    response = drawn.client("td").post(
        board_url(match, 3, "open"), {"text": "8S N =", "version": 0}, **JSON
    )
    assert response.status_code == 400
    data = response.json()
    assert not data["ok"] and "8S N =" in data["error"] and data["field"] == "open-3"
    assert not BoardResult.objects.exists()
    # a board the match does not have, a room that is not one
    client = drawn.client("td")
    for board, room, version in ((99, "open", 0), (1, "lobby", 0), (1, "open", "x")):
        response = client.post(
            board_url(match, board, room), {"text": "P", "version": version}, **JSON
        )
        assert response.status_code == 400, (board, room, version)
        assert response.json()["error"]
    assert not BoardResult.objects.exists()


def test_save_board_without_javascript_redirects_with_a_message(drawn: World) -> None:
    match = first_match(drawn)
    client = drawn.client("td")
    response = client.post(board_url(match, 1, "open"), {"text": "3NT S +1", "version": 0})
    assert response.status_code == 302
    assert response["Location"] == url("detail", match) + "#board-1"
    page = client.get(response["Location"]).content.decode()
    assert "3NT S +1" in page and "saved" in page
    bad = client.post(board_url(match, 2, "open"), {"text": "nonsense", "version": 0}, follow=True)
    assert "is not a result" in bad.content.decode()


def test_issue10_item8_conflict_is_409_with_both_values(drawn: World) -> None:
    match = first_match(drawn)
    services.save_board(
        match=match, board=5, room="open", text="4H S +1", version=0,
        user=drawn.users["organiser"], now=PLAY,
    )  # fmt: skip
    response = drawn.client("td").post(
        board_url(match, 5, "open"), {"text": "4H S =", "version": 0}, **JSON
    )
    assert response.status_code == 409
    data = response.json()
    assert data["conflict"] and data["theirs"] == "4H S +1" and data["yours"] == "4H S ="
    assert data["version"] == 1
    assert "4H S +1" in data["error"] and "4H S =" in data["error"]
    assert BoardResult.objects.get(match=match, board=5, room="open").text == "4H S +1"
    # saved again knowingly from the version now seen
    again = drawn.client("td").post(
        board_url(match, 5, "open"), {"text": "4H S =", "version": 1}, **JSON
    )
    assert again.status_code == 200 and again.json()["version"] == 2


def _decide_and_play_on(drawn: World) -> tuple[Match, Match]:
    """A first-round match won by home, and the quarterfinal it feeds with a result in it."""
    match = first_match(drawn)
    play_segment(drawn, match, 1, "4S N =", "4S N -1")
    play_segment(drawn, match, 2, "P", "P")
    match.refresh_from_db()
    winner = match.home_id
    nxt = Match.objects.get(
        Q(home_id=winner) | Q(visitors_id=winner), edition=drawn.edition, round=2
    )
    assert nxt.home_id and nxt.visitors_id
    services.save_board(
        match=nxt, board=1, room="open", text="P", version=0, user=drawn.users["td"], now=PLAY
    )
    return match, nxt


def test_R13_correction_moving_a_winner_needs_confirmation(drawn: World) -> None:
    match, nxt = _decide_and_play_on(drawn)
    client = drawn.client("td")
    before = BoardResult.objects.count()
    # the second segment corrected into the visitors' (closed room: they sit NS, R12.2) until
    # their total passes the home team's: the winner changes, who has played on
    response = None
    for board in range(17, 33):
        response = client.post(
            board_url(match, board, "closed"), {"text": "7NTXX N =", "version": 1}, **JSON
        )
        if response.status_code != 200:
            break
    assert response is not None and response.status_code == 409
    data = response.json()
    assert data["confirm"] and data["affected"] and nxt.code in " ".join(data["affected"])
    saved = BoardResult.objects.count()
    assert saved == before  # replacing, never adding
    confirmed = client.post(
        board_url(match, board, "closed"),
        {"text": "7NTXX N =", "version": 1, "confirm": "1"},
        **JSON,
    )
    assert confirmed.status_code == 200
    match.refresh_from_db()
    assert match.winner == "visitors"
    # back again, without JavaScript: the confirmation page (what it affects, nothing saved),
    # then the same request with confirm
    page = client.post(board_url(match, board, "closed"), {"text": "P", "version": 2})
    assert page.status_code == 409
    assert nxt.code in page.content.decode() and 'name="confirm" value="1"' in page.content.decode()
    assert BoardResult.objects.get(match=match, board=board, room="closed").text == "7NTXX N ="
    done = client.post(
        board_url(match, board, "closed"), {"text": "P", "version": 2, "confirm": "1"}
    )
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.winner == "home"


def test_R12_5_segment_totals_and_close(drawn: World) -> None:
    match = first_match(drawn)
    client = drawn.client("td")
    response = client.post(
        url("segment_totals", match, segment=1), {"s1-home_imps": "40", "s1-visitors_imps": "12"}
    )
    assert response.status_code == 302
    seg = Segment.objects.get(match=match, number=1)
    assert (seg.home_imps, seg.visitors_imps) == (40, 12)
    bad = client.post(url("segment_totals", match, segment=1), {"s1-home_imps": "40"})
    assert bad.status_code == 400
    assert "Give the IMPs of both teams, or neither." in bad.content.decode()
    # closing segment 2 with boards missing: a reason is required
    no_reason = client.post(url("close_segment", match, segment=2), {"c2-reason": ""})
    assert no_reason.status_code == 400
    assert Segment.objects.get(match=match, number=2).closed_at is None
    ok = client.post(url("close_segment", match, segment=2), {"c2-reason": "nehráno"})
    assert ok.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
    assert (match.home_total, match.visitors_total) == (40, 12)


def test_R12_9_lateness_penalty_removes_boards_and_withdrawal_asks_first(drawn: World) -> None:
    match = first_match(drawn)
    client = drawn.client("td")
    page = client.get(url("detail", match)).content.decode()
    assert 'id="add-penalty"' in page
    response = client.post(
        url("add_penalty", match),
        {"kind": "lateness", "segment": "1", "side": "visitors", "minutes": "15"}
        | {"reason": "pozdě"},
    )
    assert response.status_code == 302
    penalty = Penalty.objects.get(match=match)
    page = client.get(url("detail", match)).content.decode()
    assert "minutes late: 15; boards removed: 3" in page
    assert page.count("removed for lateness (R12.9)") == 3
    # a removed board (the last ones of the segment, I6) takes no result
    refused = client.post(board_url(match, 16, "open"), {"text": "P", "version": 0}, **JSON)
    assert refused.status_code == 400 and "removed for lateness" in refused.json()["error"]
    # bad: no reason
    bad = client.post(
        url("add_penalty", match),
        {"kind": "adjustment", "segment": "1", "side": "home", "imps": "3", "reason": ""},
    )
    assert bad.status_code == 400 and Penalty.objects.count() == 1
    # withdraw: a confirmation page, then a reason is required
    confirm = client.get(url("withdraw_penalty", match, penalty=penalty.pk))
    assert confirm.status_code == 200
    shown = confirm.content.decode()
    assert "pozdě" in shown and 'id="withdrawn-penalty"' in shown and "3" in shown
    assert Penalty.objects.get(pk=penalty.pk).withdrawn_at is None  # GET changes nothing
    withdraw = url("withdraw_penalty", match, penalty=penalty.pk)
    assert client.post(withdraw, {"reason": ""}).status_code == 400
    done = client.post(url("withdraw_penalty", match, penalty=penalty.pk), {"reason": "omyl"})
    assert done.status_code == 302
    assert Penalty.objects.get(pk=penalty.pk).withdrawn_at is not None
    page = client.get(url("detail", match)).content.decode()
    assert 'class="withdrawn"' in page and "<s>pozdě</s>" in page and "omyl" in page
    assert "removed for lateness (R12.9)" not in page


def test_R12_8_slow_play_and_adjustment_in_the_totals(drawn: World) -> None:
    match = first_match(drawn)
    client = drawn.client("td")
    play_segment(drawn, match, 1, "4S N =", "4S N =")
    client.post(
        url("add_penalty", match),
        {"kind": "slow_play", "segment": "1", "side": "home", "boards": "2", "reason": "pomalu"},
    )
    client.post(
        url("add_penalty", match),
        {"kind": "adjustment", "segment": "1", "side": "visitors", "imps": "-4", "reason": "TD"},
    )
    match.refresh_from_db()
    page = client.get(url("detail", match)).content.decode()
    assert "Penalties (R12.8, R12.9)" in page and "TD adjustments" in page
    assert (match.home_total, match.visitors_total) == (-6, -4)
    assert _running(page) == ("-6", "-4")


# ------------------------------------------------------------------------------ queries


def _fill(match: Match, drawn: World) -> None:
    """Every board of every segment, both rooms, in one go (then the state refreshed)."""
    now = timezone.now()
    rows = []
    for seg in Segment.objects.filter(match=match):
        for board in seg.board_numbers:
            for room, text, score in (("open", "4S N =", 420), ("closed", "4S N -1", -50)):
                rows.append(
                    BoardResult(
                        match=match,
                        board=board,
                        room=room,
                        text=text,
                        ns_score=score,
                        entered_at=now,
                        entered_by=drawn.users["td"],
                    )
                )
    BoardResult.objects.bulk_create(rows)
    with transaction.atomic():
        services.refresh(services.locked(match), now=now)


def _small_and_big(drawn: World) -> tuple[Match, Match]:
    """A 16-board match (a first-round match cut to its first segment) and the final (48
    boards), both with the same two teams."""
    small = first_match(drawn)
    Segment.objects.filter(match=small, number__gt=1).delete()
    big = Match.objects.get(edition=drawn.edition, code="F")
    Match.objects.filter(pk=big.pk).update(home_id=small.home_id, visitors_id=small.visitors_id)
    big.refresh_from_db()
    bracket_sync._create_segments(big, drawn.edition)
    return small, big


def test_issue10_match_page_queries_do_not_grow_with_the_boards(drawn: World) -> None:
    small, big = _small_and_big(drawn)
    assert sum(len(s.board_numbers) for s in small.segments.all()) == 16
    assert sum(len(s.board_numbers) for s in big.segments.all()) == 48
    _fill(small, drawn)
    _fill(big, drawn)
    client = drawn.client("td")
    for match in (small, big):  # the session, the edition's caches and the like, once
        client.get(url("detail", match))
    counts: list[int] = []
    queries: list[list[str]] = []
    for match in (small, big):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url("detail", match))
        assert response.status_code == 200
        counts.append(len(ctx.captured_queries))
        queries.append([q["sql"][:150] for q in ctx.captured_queries])
    assert counts[0] == counts[1], "\n".join(
        f"{a}\n   {b}" for a, b in zip(queries[0] + [""], queries[1], strict=False)
    )
    assert counts[1] <= 20


def test_issue10_save_board_queries_bounded(
    drawn: World, django_assert_max_num_queries: Any
) -> None:
    _small, big = _small_and_big(drawn)
    _fill(big, drawn)
    client = drawn.client("td")
    client.get(url("detail", big))
    with django_assert_max_num_queries(40):
        response = client.post(
            board_url(big, 40, "closed"), {"text": "4S N =", "version": 1}, **JSON
        )
    assert response.status_code == 200, response.content


def test_match_page_with_16_and_48_boards_max_queries(
    drawn: World, django_assert_max_num_queries: Any
) -> None:
    small, big = _small_and_big(drawn)
    _fill(small, drawn)
    _fill(big, drawn)
    client = drawn.client("td")
    client.get(url("detail", small))
    for match in (small, big):
        with django_assert_max_num_queries(20):
            assert client.get(url("detail", match)).status_code == 200


def test_confirmation_page_without_javascript(drawn: World, monkeypatch: Any) -> None:
    match = first_match(drawn)

    def needs(*args: Any, **kwargs: Any) -> None:
        if not kwargs.get("confirm"):
            raise bracket_sync.ConfirmationNeeded(
                [bracket_sync.Affected("QF1", "home", "Tým A", "Tým B")]
            )

    monkeypatch.setattr(services, "_after_change", needs)
    client = drawn.client("td")
    response = client.post(board_url(match, 1, "open"), {"text": "P", "version": 0})
    assert response.status_code == 409
    page = response.content.decode()
    assert "QF1" in page and 'name="confirm" value="1"' in page and 'name="text" value="P"' in page
    assert not BoardResult.objects.exists()
    data = client.post(board_url(match, 1, "open"), {"text": "P", "version": 0}, **JSON)
    assert data.status_code == 409 and data.json()["confirm"]
    done = client.post(board_url(match, 1, "open"), {"text": "P", "version": 0, "confirm": "1"})
    assert done.status_code == 302
    assert BoardResult.objects.get(match=match, board=1, room="open").text == "P"
    json.dumps(data.json())


def test_missing_boards_are_shown_as_ranges() -> None:
    from bridgeko.matches.views import ranges

    assert ranges([1, 2, 3, 7, 9, 10]) == ["1–3", "7", "9–10"]
    assert ranges([]) == []
    assert ranges([16]) == ["16"]


def test_R12_3_board_rows_markup_fields_labels_and_escaping() -> None:
    """The board rows are built in Python (speed): each room is a form of its own with the
    CSRF token, the stored version, a label for the field and the field's message; open room
    before closed room (the Tab order); a typed text is escaped; a removed board has no field;
    without entry the results are read-only text."""
    import re

    from django.utils import translation

    from bridgeko.matches.state import BoardLine
    from bridgeko.matches.views import _board_rows_html

    opened = BoardResult(board=3, room="open", text='4S N =<b>"', ns_score=420, version=2)
    lines = [
        BoardLine(3, opened, None, removed=False),
        BoardLine(4, None, None, removed=True),
    ]
    with translation.override("en"):
        html = _board_rows_html(lines, entry=True, csrf_token="tok", save_base="/x/F/board/")
        read = _board_rows_html(lines, entry=False, csrf_token="", save_base="")
    row3 = html.split('<tr id="board-4"')[0]
    assert re.findall(r'id="(open|closed)-3"', row3) == ["open", "closed"]
    assert 'action="/x/F/board/3/open/"' in row3 and 'action="/x/F/board/3/closed/"' in row3
    assert row3.count('name="csrfmiddlewaretoken" value="tok"') == 2
    assert 'name="version" value="2"' in row3 and 'name="version" value="0"' in row3
    assert '<label class="visually-hidden" for="open-3">Board 3, open room</label>' in row3
    assert 'aria-describedby="closed-3-msg"' in row3 and 'id="closed-3-msg"' in row3
    assert 'value="4S N =&lt;b&gt;&quot;"' in row3 and "<b>" not in row3
    assert '<span class="ns" id="open-3-ns">420</span>' in row3
    assert '<td class="num imps" id="imps-3"></td>' in row3  # one room only: no IMPs yet
    assert '<tr id="board-4" class="removed">' in html and 'id="open-4"' not in html
    assert "removed for lateness (R12.9)" in html
    assert "<form" not in read and '<span class="text">4S N =&lt;b&gt;&quot;</span>' in read
