"""Hand records (issue 11, item 3): the data of a board and of a set (hands, HCP, the
double-dummy table read back, par, makeable contracts, both rooms' results), the pages (staff
and public, Czech and English; the public 404 until the segment has ended in both rooms, I15),
the JSON API, the analysis in progress."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from bridgeko.boards import handrecords
from bridgeko.boards.handrecords import (
    dd_from_json,
    dd_to_json,
    hand_records,
    holding_text,
    par_from_json,
    par_to_json,
)
from bridgeko.boards.models import BoardDeal
from bridgeko.bridge import board as board_rules
from bridgeko.bridge.analysis import dd_table, par_of_table
from bridgeko.bridge.annotate import dd_dict, par_dict
from bridgeko.bridge.cards import Deal, Rank, Seat, Strain
from tests.web import handrecord_world as hw_
from tests.web.conftest import World

pytestmark = pytest.mark.django_db

SIMPLE = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


@pytest.fixture
def hw(world: World) -> hw_.HandWorld:
    return hw_.make(world)


def _public_board(hw: hw_.HandWorld, board: int = 1) -> str:
    return reverse(
        "public:hand_record", kwargs={"edition": hw.edition.slug, "code": "QF1", "board": board}
    )


def _public_set(hw: hw_.HandWorld) -> str:
    return reverse(
        "public:hand_records", kwargs={"edition": hw.edition.slug, "code": "QF1", "segment": 1}
    )


def _staff_board(hw: hw_.HandWorld, board: int = 1) -> str:
    return reverse(
        "boards:hand_record", kwargs={"edition": hw.edition.slug, "code": "QF1", "board": board}
    )


def _staff_set(hw: hw_.HandWorld) -> str:
    return reverse(
        "boards:hand_records", kwargs={"edition": hw.edition.slug, "code": "QF1", "segment": 1}
    )


# ------------------------------------------------------------------------------ the JSON shape


def test_dd_and_par_json_read_back_as_the_engine_computed_them() -> None:
    deal = Deal.from_pbn(SIMPLE)
    table = dd_table(deal)
    par = par_of_table(table, Seat.NORTH, board_rules.vulnerability(1))
    stored = dd_to_json(table)
    assert set(stored) == {"N", "E", "S", "W"} and set(stored["N"]) == {"NT", "S", "H", "D", "C"}
    assert dd_from_json(stored) == table
    assert par_from_json(par_to_json(par)) == par
    assert dd_from_json(None) is None and dd_from_json({"N": {}}) is None
    assert par_from_json("nonsense") is None
    # the shape of bridge.annotate (``bridgeko analyse``) is read too
    assert dd_from_json(dd_dict(table)) == table
    assert par_from_json(par_dict(par)) == par
    sacrifice = {"score_ns": -500, "contracts": ["NS 5DX-2", "Pass"]}
    read = par_from_json(sacrifice)
    assert read is not None and read.score == -500
    assert read.contracts[0].declarers == (Seat.NORTH, Seat.SOUTH)
    assert read.contracts[0].over_under == -2 and str(read.contracts[0].contract) == "5DX"


def test_holding_text_shows_the_ten_as_10_and_a_void_as_a_dash() -> None:
    assert holding_text([Rank.ACE, Rank.TEN, Rank.TWO]) == "A102"
    assert holding_text([]) == "—"


# ------------------------------------------------------------------------------ the data


def test_hand_record_data_hcp_dd_par_makeable_and_both_rooms(hw: hw_.HandWorld) -> None:
    hw_.enter_closed_room(hw, {1: "4S N -1", 2: "3NT E -1"})
    records = hand_records(hw.segment)
    assert [r.board for r in records] == list(range(1, 17))
    first = records[0]
    deal = hw.deals[1]
    assert first.deal == deal.to_pbn()
    assert first.dealer is Seat.NORTH and first.vulnerability.value == "None"
    assert {s: h.hcp for s, h in first.hands.items()} == {s: deal[s].hcp for s in Seat}
    assert sum(h.hcp for h in first.hands.values()) == 40
    assert [line.suit.value for line in first.north.suits] == ["S", "H", "D", "C"]
    table = dd_table(deal)
    assert first.dd is not None
    for row in first.dd:
        assert row.tricks == tuple(table[row.declarer, t] for t in handrecords.STRAINS)
    par = par_of_table(table, Seat.NORTH, first.vulnerability)
    assert first.par_score == par.score
    assert [p.level for p in first.par] == [pc.contract.level for pc in par.contracts]
    for m in first.makeable:
        for level, strain in m.contracts:
            assert table[m.declarer, strain] == level + 6
        assert {t for _l, t in m.contracts} == {t for t in Strain if table[m.declarer, t] >= 7}
    # both rooms joined: 4S N = (NS +420) in the open room, 4S N -1 (NS -50) in the closed
    assert first.open is not None and first.closed is not None
    assert (first.open.level, first.open.strain, first.open.declarer) == (
        4,
        Strain.SPADES,
        Seat.NORTH,
    )
    assert first.open.over_under == 0 and first.open.ns_score == 420
    assert first.closed.over_under == -1 and first.closed.ns_score == -50
    assert first.imps == 10  # 470 to the home team
    third = records[2]
    assert third.open is not None and third.open.level == 0 and third.closed is None
    assert third.imps is None


def test_hand_records_of_a_segment_without_a_set_are_empty(hw: hw_.HandWorld) -> None:
    second = hw.match.segments.get(number=2)
    assert hand_records(second) == []


# ------------------------------------------------------------------------------ the pages


def test_I15_public_hand_record_is_404_until_the_segment_has_ended(hw: hw_.HandWorld) -> None:
    for url in (_public_board(hw), _public_set(hw), _public_board(hw, 16)):
        assert hw.client("anonymous").get(url).status_code == 404
        assert hw.client("organiser").get(url).status_code == 404  # the public site: public
    missing = reverse(
        "public:hand_records", kwargs={"edition": hw.edition.slug, "code": "QF1", "segment": 9}
    )
    assert hw.client("anonymous").get(missing).status_code == 404  # the same answer
    hw_.end_segment(hw)
    page = hw.client("anonymous").get(_public_board(hw))
    assert page.status_code == 200
    text = page.content.decode()
    north = hw.deals[1][Seat.NORTH]
    assert hw_.flatten(text).count(hw_.flatten(_shown(north))) == 1
    assert hw.client("anonymous").get(_public_set(hw)).status_code == 200


def _shown(hand: Any) -> str:
    from bridgeko.bridge.cards import Suit

    return "".join(s.symbol + holding_text(hand.holding(s)) for s in Suit)


def test_organiser_and_chief_td_see_the_staff_pages_before_the_end(hw: hw_.HandWorld) -> None:
    north = _shown(hw.deals[5][Seat.NORTH])
    for who in ("organiser", "chief_td"):
        for url in (_staff_board(hw, 5), _staff_set(hw)):
            page = hw.client(who).get(url)
            assert page.status_code == 200, (who, url)
            text = page.content.decode()
            assert hw_.flatten(north) in hw_.flatten(text), (who, url)
            assert 'id="staff-only"' in text
    for who in ("td", "appeals", "superuser"):
        page = hw.client(who).get(_staff_board(hw, 5))
        assert page.status_code == 200
        assert 'id="secret"' in page.content.decode()
        assert hw_.flatten(north) not in hw_.flatten(page.content.decode())
    for who in ("captain", "captain2", "public", "registrar"):
        assert hw.client(who).get(_staff_board(hw, 5)).status_code == 403, who


def test_hand_record_page_in_czech_and_english(hw: hw_.HandWorld) -> None:
    hw_.enter_closed_room(hw, {1: "4S N -1"})
    hw_.end_segment(hw)
    en = hw.client("anonymous", "en").get(_public_board(hw)).content.decode()
    for words in (
        "Hand record: QF1, board 1",
        "Dealer",
        "North",
        "Double dummy",
        "Par",
        "Makeable contracts",
        "Open room",
        "Closed room",
        "Board 2",
    ):
        assert words in en, words
    with translation.override("cs"):  # the language is the public page's URL's
        cs_url = _public_board(hw)
    cs = hw.client("anonymous", "en").get(cs_url).content.decode()
    for words in (
        "Rozbor rozdání: QF1, rozdání 1",
        "Rozdávající",
        "Sever",
        "Par",
        "Splnitelné závazky",
        "Otevřená místnost",
        "Rozdání 2",
    ):
        assert words in cs, words
    assert "♠" in cs and "♥" in cs


def test_analysis_in_progress_shows_the_hands_and_the_count(world: World) -> None:
    hw = hw_.make(world, analysed=10)
    page = hw.client("organiser").get(_staff_set(hw)).content.decode()
    assert "analysis in progress (10 of 16 boards)" in page
    assert page.count("hr-pending") == 6
    hw_.end_segment(hw)
    page = hw.client("anonymous").get(_public_board(hw, 12)).content.decode()
    assert "analysis in progress (10 of 16 boards)" in page
    assert "not finished yet" in page


def test_public_hand_record_is_cacheable(hw: hw_.HandWorld) -> None:
    hw_.end_segment(hw)
    client = hw.client("anonymous")
    first = client.get(_public_board(hw))
    etag = first["ETag"]
    assert etag and first["Last-Modified"]
    assert "public" in first["Cache-Control"]
    again = client.get(_public_board(hw), headers={"if-none-match": etag})
    assert again.status_code == 304
    BoardDeal.objects.filter(deal_set=hw.deal_set, board=16).update(dd=None, par=None)
    changed = client.get(_public_board(hw), headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert client.post(_public_board(hw)).status_code == 405


def test_links_from_the_td_match_page_and_the_public_index(hw: hw_.HandWorld) -> None:
    detail = reverse("matches:detail", kwargs={"edition": hw.edition.slug, "code": "QF1"})
    assert _staff_set(hw) in hw.client("organiser").get(detail).content.decode()
    assert _staff_set(hw) not in hw.client("td").get(detail).content.decode()
    index = reverse("public:hand_records_index", kwargs={"edition": hw.edition.slug})
    assert _public_set(hw) not in hw.client("anonymous").get(index).content.decode()
    hw_.end_segment(hw)
    td_page = hw.client("td").get(detail).content.decode()
    assert _staff_set(hw) in td_page and _public_set(hw) in td_page
    assert _public_set(hw) in hw.client("anonymous").get(index).content.decode()


# ------------------------------------------------------------------------------ the JSON API


def test_I15_api_match_carries_the_deals_after_the_end_only(hw: hw_.HandWorld) -> None:
    url = reverse("api:match", kwargs={"edition": hw.edition.slug, "code": "QF1"})
    before = hw.client("anonymous").get(url).json()
    seg = before["segments"][0]
    assert "hand_records" not in seg
    assert all("deal" not in b and "dd" not in b for b in seg["boards"])
    hand_json = reverse(
        "api:hand_records",
        kwargs={"edition": hw.edition.slug, "code": "QF1", "segment": 1},
    )
    assert hw.client("anonymous").get(hand_json).status_code == 404
    hw_.end_segment(hw)
    after = hw.client("anonymous").get(url).json()
    seg = after["segments"][0]
    assert seg["hand_records"] == hand_json
    assert seg["boards"][0]["deal"] == hw.deals[1].to_pbn()
    assert dd_from_json(seg["boards"][0]["dd"]) == dd_table(hw.deals[1])
    assert "deal" not in after["segments"][1]["boards"][0]  # segment 2 has no set
    data = hw.client("anonymous").get(hand_json).json()
    assert data["analysis"] == {"done": 16, "total": 16}
    first = data["boards"][0]
    assert first["hands"]["N"] == hw.deals[1][Seat.NORTH].to_pbn()
    assert sum(first["hcp"].values()) == 40
    assert first["open"] == {"text": "4S N =", "ns_score": 420, "auction": None, "play": None}
    assert first["closed"] is None


def test_api_match_etag_changes_as_the_analysis_fills_in(world: World) -> None:
    hw = hw_.make(world, analysed=15)
    hw_.end_segment(hw)
    url = reverse("api:match", kwargs={"edition": hw.edition.slug, "code": "QF1"})
    etag = hw.client("anonymous").get(url)["ETag"]
    analysis = hw_._analysis()[16]
    BoardDeal.objects.filter(deal_set=hw.deal_set, board=16).update(dd=analysis[0], par=analysis[1])
    assert hw.client("anonymous").get(url, headers={"if-none-match": etag}).status_code == 200
