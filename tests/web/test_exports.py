"""Results out to other programs (issue 20): an edition as USEBIO XML and a match's whole result
file as PBN, from the demo (its played 1998 edition; the 1999 quarterfinal QF3 whose first
segment has ended); the deals only of segments that have ended (I15)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from bridgeko.boards import exports
from bridgeko.bridge import pbn
from bridgeko.cli import main
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.matches import pbn_import
from bridgeko.matches.models import BoardResult, Match, MatchStatus, Segment
from tests.web.conftest import demo_loaded


@pytest.fixture
def demo(db: Any) -> Edition:
    demo_loaded()
    return Edition.objects.get(slug="ko-1998")


def test_usebio_of_the_played_edition_has_every_team_place_and_match(demo: Edition) -> None:
    root = ET.fromstring(exports.usebio_document(demo))
    assert root.tag == "USEBIO" and root.get("Version") == "1.3"
    event = root.find("EVENT")
    assert event is not None and event.findtext("EVENT_DESCRIPTION") == demo.name
    teams = event.findall("PARTICIPANTS/TEAM")
    assert len(teams) == 8
    places = sorted(t.findtext("PLACE") or "" for t in teams)
    assert places == ["1", "2", "3", "4", "5=", "5=", "5=", "5="]  # I7: 5-8 shared
    played = Match.objects.filter(edition=demo).exclude(
        status__in=(MatchStatus.BYE, MatchStatus.PENDING)
    )
    written = event.findall("MATCH")
    assert len(written) == played.count()
    final = played.get(code="F")
    ids = {t.get("TEAM_NAME"): t.get("TEAM_ID") for t in teams}
    match = next(
        m
        for m in written
        if m.findtext("TEAM") == ids[final.home.name]
        and m.findtext("OPPOSING_TEAM") == ids[final.visitors.name]
    )
    assert match.findtext("ROUND_NUMBER") == str(final.round)
    assert match.findtext("TEAM_SCORE") == str(final.home_total)
    assert match.findtext("OPPOSING_TEAM_SCORE") == str(final.visitors_total)


def test_I15_usebio_writes_the_hands_of_ended_segments_only(demo: Edition) -> None:
    edition = Edition.objects.get(slug="ko-1999")
    qf3 = Match.objects.get(edition=edition, code="QF3")
    first, second = Segment.objects.filter(match=qf3).order_by("number")[:2]
    assert first.ended_at is not None and second.ended_at is None
    root = ET.fromstring(exports.usebio_document(edition))
    ids = {t.get("TEAM_NAME"): t.get("TEAM_ID") for t in root.iter("TEAM") if t.get("TEAM_ID")}
    match = next(m for m in root.iter("MATCH") if m.findtext("TEAM") == ids[qf3.home.name])
    hands = {
        int(b.findtext("BOARD_NUMBER") or 0)
        for b in match.findall("BOARD")
        if b.find("HAND") is not None
    }
    assert hands == set(first.board_numbers)
    lines = [b for b in match.findall("BOARD") if b.find("TRAVELLER_LINE") is not None]
    stored = {r.board for r in BoardResult.objects.filter(match=qf3)}
    assert {int(b.findtext("BOARD_NUMBER") or 0) for b in lines} == stored


def test_match_pbn_holds_both_rooms_of_the_ended_segment_and_reads_back(demo: Edition) -> None:
    edition = Edition.objects.get(slug="ko-1999")
    qf3 = Match.objects.get(edition=edition, code="QF3")
    data = exports.match_pbn(qf3)
    games = pbn.parse(pbn.decode(data)).games
    assert sorted({g.board for g in games}) == list(range(1, 17))  # segment 2 is still secret
    assert {g.room for g in games} == {"Open", "Closed"}
    open_one = next(g for g in games if g.board == 1 and g.room == "Open")
    assert open_one.get("HomeTeam") == qf3.home.name  # the team sitting North-South
    assert (open_one.get("ScoreIMP") or "").startswith("NS ")
    # bridgeko's own importer reads it back as stored (the writer's round trip)
    preview = pbn_import.preview(qf3, data)
    stored = {(r.board, r.room) for r in BoardResult.objects.filter(match=qf3, board__lte=16)}
    assert {(r.board, r.room) for r in preview.rows} == stored
    assert {r.status for r in preview.rows} == {"same"}


def test_match_pbn_waits_for_the_end_of_a_segment(demo: Edition) -> None:
    edition = Edition.objects.get(slug="ko-1999")
    Segment.objects.filter(match__edition=edition).update(open_ended_at=None, closed_ended_at=None)
    qf3 = Match.objects.get(edition=edition, code="QF3")
    with pytest.raises(ServiceError, match="No segment of match QF3 has ended yet"):
        exports.match_pbn(qf3)


def test_export_usebio_writes_the_file(
    demo: Edition, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out" / "ko-1998.xml"
    assert main(["export-usebio", "--edition", "ko-1998", str(target)]) == 0
    assert capsys.readouterr().out.startswith(f"{target}: ")
    assert target.read_bytes() == exports.usebio_document(demo)
    assert main(["export-usebio", "--edition", "nope", str(target)]) == 2
    assert "no edition 'nope'" in capsys.readouterr().err


# --- the public downloads ---------------------------------------------------------------------


def test_I15_public_match_pbn_download_after_a_segment_has_ended(demo: Edition) -> None:
    from django.test import Client
    from django.urls import reverse

    edition = Edition.objects.get(slug="ko-1999")
    client = Client()
    url = reverse("site:match_pbn", kwargs={"edition": edition.slug, "code": "QF3"})
    response = client.get(url)
    assert response.status_code == 200 and not response.cookies
    assert response["Content-Disposition"] == 'attachment; filename="ko-1999-QF3.pbn"'
    assert response.content == exports.match_pbn(Match.objects.get(edition=edition, code="QF3"))
    again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    page = client.get(reverse("public:match", kwargs={"edition": edition.slug, "code": "QF3"}))
    assert url in page.content.decode()
    # a match whose segments have not ended: 404, and no link
    qf2 = reverse("site:match_pbn", kwargs={"edition": edition.slug, "code": "QF2"})
    assert client.get(qf2).status_code == 404
    page = client.get(reverse("public:match", kwargs={"edition": edition.slug, "code": "QF2"}))
    assert qf2 not in page.content.decode()
    # the JSON API gives its address
    api = reverse("api:match", kwargs={"edition": edition.slug, "code": "QF3"})
    assert client.get(api).json()["results_pbn"] == url
    api = reverse("api:match", kwargs={"edition": edition.slug, "code": "QF2"})
    assert client.get(api).json()["results_pbn"] is None


def test_public_usebio_download_of_an_edition(demo: Edition) -> None:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    url = reverse("site:usebio", kwargs={"edition": demo.slug})
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/xml"
    assert response.content == exports.usebio_document(demo) and not response.cookies
    standings = client.get(reverse("public:standings", kwargs={"edition": demo.slug}))
    assert url in standings.content.decode()
    assert client.get(reverse("site:usebio", kwargs={"edition": "nope"})).status_code == 404
