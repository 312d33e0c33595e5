"""Public hand records as PDF (issue 20, item 5): a spectator downloads a segment's hand records
to print — the paper app's form — once the segment has ended in both rooms (I15,
``boards.secrecy.revealed``); before, the address answers 404 like the public hand-record pages
and holds no card. Like every public page: GET/HEAD only, no cookie, the language in the URL,
the same bytes for every reader until the data changes, ``ETag``/``Last-Modified`` and 304s.
The public hand-record pages link it only when it is there, and ``bridgeko export-site`` writes
it (and links it relatively); a secret segment's PDF is never written."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from bridgeko.audit.services import record
from bridgeko.boards.models import BoardDeal, DealSet
from bridgeko.bridge.cards import Seat, Suit
from bridgeko.cli import main
from bridgeko.matches.models import Segment
from bridgeko.public import export, render
from bridgeko.public.render import CACHE_CONTROL
from tests.web import handrecord_world as hw_
from tests.web.conftest import World

pytestmark = pytest.mark.django_db


@pytest.fixture
def hw(world: World) -> hw_.HandWorld:
    return hw_.make(world)


def _pdf_url(hw: hw_.HandWorld, language: str = "en", segment: int = 1) -> str:
    with translation.override(language):
        return reverse(
            "public:hand_records_pdf",
            kwargs={"edition": hw.edition.slug, "code": "QF1", "segment": segment},
        )


def _url(name: str, hw: hw_.HandWorld, language: str = "en", **kwargs: Any) -> str:
    with translation.override(language):
        return reverse(f"public:{name}", kwargs={"edition": hw.edition.slug, **kwargs})


def _text(body: bytes) -> str:
    """The PDF's text (every page), its white space made single spaces."""
    assert body.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(body))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def _holding(hw: hw_.HandWorld, board: int, seat: Seat) -> str:
    """The longest suit of a hand as the PDF writes it (``AKT96``, T for the ten)."""
    hand = hw.deals[board][seat]
    return max(("".join(r.char for r in hand.holding(s)) for s in Suit), key=len)


def _end_without_audit(segment: Segment) -> None:
    at = datetime(1999, 5, 8, 11, 0, tzinfo=UTC)
    Segment.objects.filter(pk=segment.pk).update(open_ended_at=at, closed_ended_at=at)
    render.forget()  # written past the services: the kept pages are dropped


# ----------------------------------------------------------------------- secret, then public


def test_I15_public_hand_record_pdf_only_after_the_segment_ends(hw: hw_.HandWorld) -> None:
    needles = hw_.secret_strings(hw)
    urls = [_pdf_url(hw, language) for language in ("cs", "en")]
    for url in urls:
        for who in ("anonymous", "organiser", "captain", "td"):  # the public site: public
            response = hw.client(who).get(url)
            assert response.status_code == 404, (url, who)
            assert hw_.leaks(response.content.decode(), needles) == []
    # the same answer as for a segment without a set and a segment that does not exist
    for segment in (2, 9):
        assert Client().get(_pdf_url(hw, segment=segment)).status_code == 404
    hw_.enter_closed_room(hw, {n: "3NT S =" for n in range(1, 17)})  # all played, not ended
    assert Client().get(urls[1]).status_code == 404

    hw_.end_segment(hw)
    response = Client().get(urls[1])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="ko-1999-hand-records-qf1-1.pdf"'
    english = _text(response.content)
    assert "Hand records: QF1, segment 1" in english
    for board in range(1, 17):
        assert f"Board {board} " in english, board
    assert _holding(hw, 1, Seat.NORTH) in english and _holding(hw, 16, Seat.WEST) in english
    assert "Par:" in english  # the stored analysis
    # the file is dated by the data (the end of the segment), not by the day it is read
    assert "Updated 8 May 1999" in english and "Printed" not in english
    assert "board 1: NORTH's hand as shown (♠AKQT…)" in hw_.leaks(english, needles)

    czech = Client().get(urls[0])
    assert czech["Content-Disposition"] == 'inline; filename="ko-1999-rozbor-rozdani-qf1-1.pdf"'
    text = _text(czech.content)
    assert "Rozbor rozdání: QF1, sestava 1" in text and "Aktualizováno 8. 5. 1999" in text
    assert _holding(hw, 1, Seat.NORTH) in text
    # a segment without a set stays a 404
    assert Client().get(_pdf_url(hw, segment=2)).status_code == 404


def test_I15_public_hand_record_pdf_of_a_set_without_deals_is_404(hw: hw_.HandWorld) -> None:
    second = hw.match.segments.get(number=2)
    DealSet.objects.create(segment=second, source="loaded")  # no deal stored yet
    _end_without_audit(second)
    assert Client().get(_url("hand_records", hw, code="QF1", segment=2)).status_code == 200
    assert Client().get(_pdf_url(hw, segment=2)).status_code == 404


# ----------------------------------------------------------------------- a public page's rules


def test_public_hand_record_pdf_sets_no_cookie_and_is_the_same_for_everyone(
    hw: hw_.HandWorld,
) -> None:
    hw_.end_segment(hw)
    url = _pdf_url(hw)
    anonymous = Client().get(url)
    assert anonymous.status_code == 200
    for who in ("anonymous", "organiser", "captain"):
        response = hw.client(who, language="cs").get(url)  # the URL's language wins
        assert response.status_code == 200
        assert not response.cookies, (who, response.cookies)
        assert "Cookie" not in response.get("Vary", "")
        assert "Accept-Language" not in response.get("Vary", "")
        assert response["Content-Language"] == "en"
        assert response.content == anonymous.content  # the same bytes for every reader
        assert response["ETag"] == anonymous["ETag"]
    render.forget()  # made again: the same bytes (nothing depends on the clock)
    assert Client().get(url).content == anonymous.content
    assert Client().post(url).status_code == 405
    assert Client().head(url).status_code == 200


def test_public_hand_record_pdf_etag_last_modified_and_304(
    hw: hw_.HandWorld, django_assert_max_num_queries: Any
) -> None:
    hw_.end_segment(hw)
    url = _pdf_url(hw)
    first = Client().get(url)
    etag, last_modified = first["ETag"], first["Last-Modified"]
    assert etag and last_modified
    assert first["Cache-Control"] == CACHE_CONTROL
    with django_assert_max_num_queries(5):  # edition, match, segment, its deals, the version
        again = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and not again.content
    assert Client().get(url, HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304
    assert Client().get(_pdf_url(hw, "cs"))["ETag"] != etag  # the language is part of the tag
    # the analysis changes (the background analysis is not audited): a new tag, a new file
    BoardDeal.objects.filter(deal_set=hw.deal_set, board=16).update(dd=None, par=None)
    changed = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.content != first.content


# ----------------------------------------------------------------------- the links


def test_public_hand_record_pages_link_the_pdf_only_when_available(hw: hw_.HandWorld) -> None:
    index = {language: _url("hand_records_index", hw, language) for language in ("cs", "en")}
    match = {language: _url("match", hw, language, code="QF1") for language in ("cs", "en")}
    for language in ("cs", "en"):
        pdf = _pdf_url(hw, language)
        assert pdf not in Client().get(index[language]).content.decode()
        assert pdf not in Client().get(match[language]).content.decode()

    hw_.end_segment(hw)
    for language in ("cs", "en"):
        pdf = _pdf_url(hw, language)
        pages = {
            "index": index[language],
            "match": match[language],
            "set": _url("hand_records", hw, language, code="QF1", segment=1),
            "board": _url("hand_record", hw, language, code="QF1", board=5),
        }
        for what, page in pages.items():
            text = Client().get(page).content.decode()
            assert f'href="{pdf}"' in text, (language, what)
            assert "csrfmiddlewaretoken" not in text
        board = Client().get(pages["board"]).content.decode()
        label = {"cs": "Rozbory rozdání sestavy (PDF)", "en": "Hand records of the segment (PDF)"}
        assert f"{label[language]}</a>" in board
        # segment 2 has no set: no PDF of it is linked
        assert _pdf_url(hw, language, 2) not in Client().get(index[language]).content.decode()
        assert _pdf_url(hw, language, 2) not in Client().get(match[language]).content.decode()


def test_public_hand_record_pages_do_not_link_the_pdf_of_a_set_without_deals(
    hw: hw_.HandWorld,
) -> None:
    second = hw.match.segments.get(number=2)
    DealSet.objects.create(segment=second, source="loaded")
    _end_without_audit(second)
    pdf = _pdf_url(hw, segment=2)
    index = Client().get(_url("hand_records_index", hw)).content.decode()
    assert _url("hand_records", hw, code="QF1", segment=2) in index and pdf not in index
    page = Client().get(_url("hand_records", hw, code="QF1", segment=2)).content.decode()
    assert pdf not in page


# ----------------------------------------------------------------------- export-site


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hrefs += [v for k, v in attrs if k == "href" and v is not None]


def _hrefs(path: Path) -> list[str]:
    parser = _Links()
    parser.feed(path.read_text("utf-8"))
    return parser.hrefs


def test_public_export_site_writes_the_hand_record_pdf_only_after_the_segment_ends(
    hw: hw_.HandWorld, tmp_path: Path
) -> None:
    slug = hw.edition.slug
    root = tmp_path / "site"
    assert main(["export-site", str(root), "--quiet"]) == 0
    assert not list(root.rglob("*.pdf"))  # a secret segment's PDF is not written
    manifest = json.loads((root / export.MANIFEST).read_text())
    assert not any(url.endswith(".pdf") for url in manifest["editions"][slug]["urls"])

    hw_.end_segment(hw)
    assert main(["export-site", str(root), "--quiet"]) == 0
    for language in ("cs", "en"):
        url = _pdf_url(hw, language)
        name = export.file_of(url)
        assert name == f"{language}/e/{slug}/public/matches/QF1/segments/1/hand-records.pdf"
        written = (root / name).read_bytes()
        assert written == Client().get(url).content  # the server's bytes
        assert _holding(hw, 1, Seat.NORTH) in _text(written)
        # every hand-record page links it relatively, and the link leads to the file
        pages = [
            f"{language}/e/{slug}/public/hand-records/index.html",
            f"{language}/e/{slug}/public/matches/QF1/index.html",
            f"{language}/e/{slug}/public/matches/QF1/segments/1/hand-records/index.html",
            f"{language}/e/{slug}/public/matches/QF1/hand-records/7/index.html",
        ]
        for page in pages:
            links = [h for h in _hrefs(root / page) if h.endswith(".pdf")]
            assert links, page
            for href in links:
                assert not href.startswith("/") and not urlsplit(href).scheme, href
                target = ((root / page).parent / unquote(href)).resolve()
                assert target == (root / name).resolve(), (page, href)
    assert not list(root.rglob("segments/2/*.pdf"))  # segment 2 has no set

    # nothing changed: nothing is written again
    summary = export.export_site(root, [hw.edition])
    assert summary.written == 0
    # a change elsewhere in the edition: the pages are restamped, the PDF is reused as it is
    # (it is dated by its match) and is still the server's bytes
    record("bridgeko.test.changed", edition=hw.edition, obj=hw.edition, summary="x")
    summary = export.export_site(root, [hw.edition])
    assert summary.written > 0 and summary.reused > 0
    assert not any(n.endswith(".pdf") for n in summary.written_files)
    url = _pdf_url(hw)
    assert (root / export.file_of(url)).read_bytes() == Client().get(url).content
