"""The match record from the captains (R14.2b, issue 21): the winning team's captain submits the
totals or the boards with the scorecards; the opponents confirm or dispute; the TD approves (the
results are stored, the bracket moves on) or rejects; provisional until then; late records
flagged; bad input refused with nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.matches import records
from bridgeko.matches.models import (
    BoardResult,
    Match,
    MatchStatus,
    RecordStatus,
    RecordSubmission,
    Segment,
)
from tests.web.conftest import World
from tests.web.test_standings import _dates, _local

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
PLAYED = _local(1999, 3, 19, 11, 0)  # before 13:00 of the round's last day (R14.2b)


@pytest.fixture
def match(drawn: World) -> Match:
    _dates(drawn)
    found = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert found is not None
    return found


def submit(match: Match, **kw: Any) -> RecordSubmission:
    values: dict[str, Any] = {
        "match": match, "side": "home", "scorecards": PNG, "filename": "zapis.png",
        "user": None, "now": PLAYED, "totals": {1: (40, 12), 2: (25, 30)},
    }  # fmt: skip
    values.update(kw)
    return records.submit(**values)


def test_R14_2b_a_confirmed_record_approved_by_the_td_moves_the_bracket(
    drawn: World, match: Match
) -> None:
    sub = submit(match)
    assert sub.status == RecordStatus.SUBMITTED and not sub.late
    assert records.provisional_score(sub) == (65, 42)
    match.refresh_from_db()
    assert match.status == MatchStatus.TO_PLAY  # provisional: nothing stored
    assert sub.scorecards.name.endswith(".png")
    with pytest.raises(ServiceError, match="opponents answer"):
        records.confirm(submission=sub, side="home", user=None, now=PLAYED)
    records.confirm(submission=sub, side="visitors", user=None, now=PLAYED)
    done = records.approve(submission=sub, user=drawn.users["td"], now=PLAYED)
    assert done.status == RecordStatus.APPROVED
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
    assert (match.home_total, match.visitors_total) == (65, 42)
    assert [
        a
        for a in AuditEntry.objects.filter(action__startswith="bridgeko.record.")
        .order_by("pk")
        .values_list("action", flat=True)
    ] == ["bridgeko.record.submitted", "bridgeko.record.confirmed", "bridgeko.record.approved"]


def test_R14_2b_a_board_by_board_record_is_stored_board_by_board(
    drawn: World, match: Match
) -> None:
    boards = {}
    for seg in Segment.objects.filter(match=match):
        for b in seg.board_numbers:
            boards[(b, "open")] = "4S N ="
            boards[(b, "closed")] = "4S N -1"  # 10 IMPs a board to the home team, vulnerable or not
    with pytest.raises(ServiceError, match="contradict the boards"):
        submit(match, boards=boards, totals={1: (1, 0), 2: (1, 0)})
    sub = submit(match, totals=None, boards=boards)
    home, visitors = records.provisional_score(sub)
    assert home > 0 and visitors == 0
    records.confirm(submission=sub, side="visitors", user=None, now=PLAYED)
    records.approve(submission=sub, user=None, now=PLAYED)
    assert BoardResult.objects.filter(match=match).count() == len(boards)


def test_a_disputed_record_goes_to_the_td_who_may_reject_it(drawn: World, match: Match) -> None:
    sub = submit(match)
    with pytest.raises(ServiceError, match="Say what is wrong"):
        records.dispute(submission=sub, side="visitors", note=" ", user=None, now=PLAYED)
    records.dispute(
        submission=sub, side="visitors", note="Board 7 was 4H-1.", user=None, now=PLAYED
    )
    with pytest.raises(ServiceError, match="reason"):
        records.reject(submission=sub, user=None, now=PLAYED, note="")
    done = records.reject(submission=sub, user=None, now=PLAYED, note="Replay board 7 scores.")
    assert done.status == RecordStatus.REJECTED and records.pending(match) is None
    assert not BoardResult.objects.filter(match=match).exists()


def test_R14_2b_a_late_record_is_flagged_for_the_td(drawn: World, match: Match) -> None:
    sub = submit(match, now=_local(1999, 3, 19, 13, 1))
    assert sub.late


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"side": "visitors"}, "winning team delivers"),
        ({"totals": {1: (10, 10), 2: (5, 5)}}, "tie"),
        ({"totals": {1: (10, 0)}}, "totals of segment 2"),
        ({"totals": {1: (-1, 0), 2: (3, 0)}}, "whole number"),
        ({"scorecards": b"<html>", "filename": "x.html"}, "not a PDF, PNG or JPEG"),
        ({"scorecards": b""}, "Attach the signed scorecards"),
        ({"totals": None}, "segment totals or the boards"),
    ],
)
def test_a_record_the_rules_do_not_allow_is_refused(
    drawn: World, match: Match, changes: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ServiceError, match=problem):
        submit(match, **changes)
    assert not RecordSubmission.objects.exists()


def test_a_second_record_while_one_waits_is_refused(drawn: World, match: Match) -> None:
    sub = submit(match)
    with pytest.raises(ServiceError, match="waits already"):
        submit(match)
    records.revoke(submission=sub, side="home", user=None, now=PLAYED)
    submit(match)
    assert RecordSubmission.objects.count() == 2


# --- the pages --------------------------------------------------------------------------------


def test_R14_2b_captains_submit_and_confirm_and_the_td_approves_on_the_pages(
    drawn: World, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse
    from django.utils import timezone

    from tests.web.test_agreements import _captains

    monkeypatch.setattr(timezone, "now", lambda: PLAYED)
    home, visitors = _captains(drawn, match)
    slug = drawn.edition.slug
    url = {
        side: reverse("matches:record", kwargs={"edition": slug, "code": match.code, "side": side})
        for side in ("home", "visitors")
    }
    home_client, visitors_client = drawn.client(home), drawn.client(visitors)
    assert home_client.get(url["visitors"]).status_code == 403
    form = {"action": "submit", "s1_home": "40", "s1_visitors": "12", "s2_home": "25",
            "s2_visitors": "30"}  # fmt: skip
    bad = home_client.post(url["home"], form | {"scorecards": SimpleUploadedFile("z.txt", b"hi")})
    assert "not a PDF, PNG or JPEG" in bad.content.decode()
    sent = home_client.post(url["home"], form | {"scorecards": SimpleUploadedFile("z.png", PNG)})
    assert sent.status_code == 302
    sub = RecordSubmission.objects.get(match=match)
    card = reverse(
        "matches:record_scorecards", kwargs={"edition": slug, "code": match.code, "record": sub.pk}
    )
    assert b"".join(visitors_client.get(card).streaming_content) == PNG
    page = visitors_client.get(url["visitors"]).content.decode()
    assert "65 : 42" in page and 'value="confirm"' in page
    assert visitors_client.post(url["visitors"], {"action": "confirm"}).status_code == 302
    review = reverse("matches:record_review", kwargs={"edition": slug, "code": match.code})
    td = drawn.client("td")
    board = td.get(reverse("editions:dashboard", kwargs={"edition": slug})).content.decode()
    assert review in board
    assert td.post(review, {"action": "approve", "note": ""}).status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"


def test_R14_2b_the_record_is_mailed_to_the_opponents_then_to_both_and_the_organisers(
    drawn: World, match: Match
) -> None:
    from bridgeko.mail.models import Outbox
    from tests.web.test_agreements import _captains

    home, visitors = _captains(drawn, match)
    for name in (home, visitors, "organiser"):
        drawn.users[name].email = f"{name}@example.org"
        drawn.users[name].save()
    sub = submit(match, user=drawn.users[home])
    sent = Outbox.objects.filter(event="record.submitted")
    assert [m.to for m in sent] == [f"{visitors}@example.org"]
    assert "65:42" in sent[0].body and "/record/visitors/" in sent[0].body
    records.dispute(
        submission=sub, side="visitors", note="Board 7 was 4H-1.", user=None, now=PLAYED
    )
    answered = sorted(m.to for m in Outbox.objects.filter(event="record.answered"))
    assert answered == sorted(f"{n}@example.org" for n in (home, visitors, "organiser"))
    assert all(
        "Board 7 was 4H-1." in m.body for m in Outbox.objects.filter(event="record.answered")
    )


def test_R14_2b_the_public_match_page_shows_a_waiting_record_as_provisional(
    drawn: World, match: Match
) -> None:
    from django.test import Client
    from django.urls import reverse

    url = reverse("public:match", kwargs={"edition": drawn.edition.slug, "code": match.code})
    assert 'id="provisional"' not in Client().get(url).content.decode()
    submit(match)
    page = Client().get(url).content.decode()
    assert 'id="provisional"' in page and "65:42" in page
    match.refresh_from_db()
    assert match.status == MatchStatus.TO_PLAY  # the bracket does not move on


# --- the edition's time to answer, automatic approval, the TD alone after the time ------------


def _edition_rule(world: World, old: str, new: str) -> None:
    from bridgeko.editions.models import Edition

    text = world.edition.regulations_toml
    assert old in text
    Edition.objects.filter(pk=world.edition.pk).update(regulations_toml=text.replace(old, new))


def test_R14_2b_a_confirmed_record_is_approved_at_once_when_the_edition_says_so(
    drawn: World, match: Match
) -> None:
    _edition_rule(drawn, "record_auto_approve = false", "record_auto_approve = true")
    match = Match.objects.get(pk=match.pk)
    sub = submit(match)
    done = records.confirm(submission=sub, side="visitors", user=None, now=PLAYED)
    assert done.status == RecordStatus.APPROVED and done.auto_approved
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
    approved = AuditEntry.objects.get(action="bridgeko.record.approved")
    assert approved.after["auto_approved"] is True


def test_R14_2b_a_late_record_waits_for_the_td_even_with_automatic_approval(
    drawn: World, match: Match
) -> None:
    _edition_rule(drawn, "record_auto_approve = false", "record_auto_approve = true")
    late = _local(1999, 3, 19, 14, 0)
    sub = submit(Match.objects.get(pk=match.pk), now=late)
    done = records.confirm(submission=sub, side="visitors", user=None, now=late)
    assert done.status == RecordStatus.CONFIRMED and not done.auto_approved
    match.refresh_from_db()
    assert match.status == MatchStatus.TO_PLAY


def test_R14_2b_the_td_approves_an_unanswered_record_only_after_the_opponents_time(
    drawn: World, match: Match
) -> None:
    from datetime import timedelta

    from bridgeko.core import dashboard

    _edition_rule(drawn, "record_confirm_hours = 24", "record_confirm_hours = 6")
    sub = submit(Match.objects.get(pk=match.pk))
    assert records.answer_deadline(sub).at == PLAYED + timedelta(hours=6)
    with pytest.raises(ServiceError, match="may still confirm or dispute"):
        records.approve(submission=sub, user=None, now=PLAYED + timedelta(hours=5))
    td = dashboard.Viewer(drawn.users["td"], td=True)
    later = PLAYED + timedelta(hours=7)
    items = [
        i
        for i in dashboard.items(drawn.edition, td, later.date(), later)
        if "not answered" in i.title
    ]
    assert len(items) == 1 and items[0].overdue
    records.approve(submission=sub, user=drawn.users["td"], now=later)
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED


def test_R14_2b_segment_totals_above_24_imps_a_board_are_refused(
    drawn: World, match: Match
) -> None:
    with pytest.raises(ServiceError, match="at most 384 IMPs"):
        submit(match, totals={1: (385, 0), 2: (0, 0)})
    assert not RecordSubmission.objects.exists()


# --- the record board by board or from a file, on the page ------------------------------------


def _page(drawn: World, match: Match, side: str) -> tuple[Any, str]:
    from django.urls import reverse

    from tests.web.test_agreements import _captains

    home, visitors = _captains(drawn, match)
    url = reverse(
        "matches:record", kwargs={"edition": drawn.edition.slug, "code": match.code, "side": side}
    )
    return drawn.client(home if side == "home" else visitors), url


def winning_pbn(match: Match) -> tuple[bytes, tuple[int, int]]:
    """A PBN file of the whole match as a scoring program writes it (our own writer, through
    the demo's ``match_pbn``: a round trip) that the home team wins, and its IMPs."""
    import random

    from bridgeko.demo_play import Results, match_pbn
    from bridgeko.matches import file_import

    for seed in range(50):
        data = match_pbn(match, Results(random.Random(seed)), event="KO", site="Praha")
        found = file_import.read_results(match, data).results
        trial = RecordSubmission(match=match, boards={f"{b} {r}": t for (b, r), t in found.items()})
        home, visitors = records.provisional_score(trial)
        if home > visitors:
            return data, (home, visitors)
    raise AssertionError("no seed of 50 gives the home team the match")


def _card() -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("zapis.png", PNG, content_type="image/png")


def test_R14_2b_the_captain_types_the_boards_as_the_td_does(
    drawn: World, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: PLAYED)
    client, url = _page(drawn, match, "home")
    form = client.get(url).content.decode()
    assert 'name="b1_open"' in form and 'name="b32_closed"' in form and 'name="results"' in form
    boards = {}
    for seg in Segment.objects.filter(match=match):
        for b in seg.board_numbers:
            boards[f"b{b}_open"], boards[f"b{b}_closed"] = "3NT S +1", "3NT S -1"
    missing = dict(boards)
    missing.pop("b7_closed")
    sent = client.post(url, {"action": "submit", "scorecards": _card()} | missing)
    assert "Board 7, closed room: no result." in sent.content.decode()
    assert not RecordSubmission.objects.exists()
    totals = {"s1_home": "1", "s1_visitors": "0", "s2_home": "1", "s2_visitors": "0"}
    wrong = client.post(url, {"action": "submit", "scorecards": _card()} | totals | boards)
    assert "contradict the boards" in wrong.content.decode()
    assert not RecordSubmission.objects.exists()
    sent = client.post(url, {"action": "submit", "scorecards": _card()} | boards)
    assert sent.status_code == 302
    sub = RecordSubmission.objects.get(match=match)
    assert sub.boards["7 closed"] == "3NT S -1" and not sub.totals
    page = client.get(url).content.decode()
    assert "3NT S +1" in page and "by" in page and 'id="answer-by"' in page


def test_R14_2b_the_record_from_a_scoring_programs_pbn_file(
    drawn: World, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PBN file here is written by our own writer (``pbn.games_for_board`` via the demo's
    ``match_pbn``): it proves the round trip through the captain's page; the importers are
    tested on real files in test_pbn_import, test_lin_import and test_bws_import."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: PLAYED)
    data, (home, visitors) = winning_pbn(match)
    client, url = _page(drawn, match, "home")
    both = client.post(url, {"action": "submit", "scorecards": _card(), "b1_open": "4S N =",
                             "results": SimpleUploadedFile("m.pbn", data)})  # fmt: skip
    assert "either typed or in a file, not both" in both.content.decode()
    sent = client.post(
        url,
        {"action": "submit", "scorecards": _card(), "results": SimpleUploadedFile("m.pbn", data)},
    )
    assert sent.status_code == 302
    sub = RecordSubmission.objects.get(match=match)
    assert len(sub.boards) == 64 and records.provisional_score(sub) == (home, visitors)


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        # BBO vugraph, USBF 2010 semifinal, segment 4 (tests/data/lin/README.md): boards 46-60
        ("lin/usbf-2010-sf-segment4.lin", "holds no result of a board of match"),
        # BCS's file of a club pairs session (tests/data/bws/README.md): many tables
        ("bws/260119M.bws", "only from a match played at two tables"),
    ],
)
def test_R14_2b_a_real_file_that_is_not_this_match_is_refused_with_the_reason(
    drawn: World, match: Match, monkeypatch: pytest.MonkeyPatch, name: str, problem: str
) -> None:
    from pathlib import Path

    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: PLAYED)
    data = (Path(__file__).resolve().parents[1] / "data" / name).read_bytes()
    client, url = _page(drawn, match, "home")
    sent = client.post(
        url,
        {"action": "submit", "scorecards": _card(), "results": SimpleUploadedFile("f", data)},
    )
    assert sent.status_code == 200 and problem in sent.content.decode()
    assert not RecordSubmission.objects.exists()


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"s1_home": "40", "s1_visitors": "12"}, "Give the totals of every segment, or none."),
        ({}, "Give the segment totals, the boards&#x27; results or a results file."),
        (
            {
                "s1_home": "99999999999999999999",
                "s1_visitors": "0",
                "s2_home": "1",
                "s2_visitors": "0",
            },
            "less than or equal to 384",
        ),
        (
            {
                "s1_home": "40",
                "s1_visitors": "12",
                "s2_home": "25",
                "s2_visitors": "30",
                "note": "x" * 10_000,
            },
            "at most 2000 characters",
        ),
        ({"b1_open": "x" * 10_000}, "at most 20 characters"),
    ],
)
def test_R14_2b_bad_input_on_the_record_page_names_the_problem(
    drawn: World, match: Match, values: dict[str, str], problem: str
) -> None:
    client, url = _page(drawn, match, "home")
    sent = client.post(url, {"action": "submit", "scorecards": _card()} | values)
    assert sent.status_code == 200 and problem in sent.content.decode()
    assert not RecordSubmission.objects.exists()


def test_R14_2b_the_tds_decision_and_a_withdrawal_are_mailed_to_both_captains(
    drawn: World, match: Match
) -> None:
    from bridgeko.mail.models import Outbox
    from tests.web.test_agreements import _captains

    home, visitors = _captains(drawn, match)
    for name in (home, visitors):
        drawn.users[name].email = f"{name}@example.org"
        drawn.users[name].save()
    both = sorted(f"{n}@example.org" for n in (home, visitors))
    first = submit(match, user=drawn.users[home])
    records.revoke(submission=first, side="home", user=drawn.users[home], now=PLAYED)
    withdrawn = list(Outbox.objects.filter(event="record.decided"))
    assert sorted(m.to for m in withdrawn) == both
    second = submit(match, user=drawn.users[home])
    records.dispute(submission=second, side="visitors", note="Board 7.", user=None, now=PLAYED)
    records.reject(submission=second, user=drawn.users["td"], now=PLAYED, note="Replay board 7.")
    rejected = Outbox.objects.filter(event="record.decided").exclude(
        pk__in=[m.pk for m in withdrawn]
    )
    assert sorted(m.to for m in rejected) == both
    assert all("Replay board 7." in m.body for m in rejected)
