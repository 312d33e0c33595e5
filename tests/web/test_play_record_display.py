"""The auction and the play a file gave (issue 20: LIN, Bridgemate) on the board's hand record:
public after the segment's end like the rest of the hand record (I15), in the page (a bidding
table West-North-East-South, the tricks) and in the JSON API; the Bridgemate import stores the
calls and cards of BiddingData/PlayData when they make a legal auction and play."""

from __future__ import annotations

import json
import pickle

import pytest
from django.db import transaction
from django.urls import reverse

from bridgeko.bridge import bws
from bridgeko.matches import bws_import, services
from bridgeko.matches.bws_import import Tables
from bridgeko.matches.models import BoardResult
from tests.web import handrecord_world as hw_
from tests.web.conftest import World
from tests.web.test_bws_import import FAKE, fakes, record  # noqa: F401 (the fixture)
from tests.web.test_matches import PLAY
from tests.web.test_pbn_import import name_the_teams

AUCTION = "1S P 2NT! P 4S P P P"  # board 1: North deals
PLAY_1 = "HA H2 H5 H9 SA S2 S3 S4"


def test_I15_the_auction_and_play_appear_with_the_hand_record_after_the_end(
    world: World,
) -> None:
    hw = hw_.make(world)
    match = hw.match
    with transaction.atomic():
        assert services.set_play_record(
            match=match, board=1, room="open", auction=AUCTION, play=PLAY_1
        )
    kwargs = {"edition": hw.edition.slug, "code": match.code, "board": 1}
    url = reverse("public:hand_record", kwargs=kwargs)
    client = hw.client("anonymous")
    assert client.get(url).status_code == 404  # secret until the end (I15)
    hw_.end_segment(hw)
    page = client.get(url).content.decode()
    assert 'id="play-open"' in page and "hr-auction" in page
    assert "2NT*" in page or "2BT*" in page  # the alerted call
    assert "♥A" in page and "→ " in page  # the first trick and its winner
    api = reverse(
        "api:hand_records",
        kwargs={"edition": hw.edition.slug, "code": match.code, "segment": 1},
    )
    data = json.loads(client.get(api).content)
    boards = {b["number"]: b for b in data["boards"]}
    room = boards[1]["results"]["open"] if "results" in boards[1] else boards[1]["open"]
    assert room["auction"] == AUCTION.split() and room["play"] == PLAY_1.split()
    assert (boards[2].get("results") or boards[2])["open"]["auction"] is None


@pytest.mark.usefixtures("fakes")
def test_bws_bidding_and_play_data_are_stored_with_the_result(drawn: World) -> None:
    match = name_the_teams(drawn)
    records = (record(1, 1, 1, "4 S N ="), record(2, 2, 1, "3 NT S +1"))
    calls = ["1S", "P", "2NT", "P", "4S", "P", "P", "P"]
    bids = tuple(
        bws.BwsBid(
            id=i, section=1, table=1, round=1, board=1, counter=i, seat="", call=c, erased=False
        )
        for i, c in enumerate(calls, start=1)
    )
    cards = tuple(
        bws.BwsCard(
            id=i, section=1, table=1, round=1, board=1, counter=i, seat="", card=c, erased=False
        )
        for i, c in enumerate(["HA", "H2", "H5", "H9"], start=1)
    )
    # table 2's calls do not make a legal auction: not stored
    bad = (
        bws.BwsBid(
            id=99, section=1, table=2, round=1, board=1, counter=1, seat="", call="1S", erased=False
        ),
        bws.BwsBid(
            id=98, section=1, table=2, round=1, board=1, counter=2, seat="", call="1C", erased=False
        ),
    )
    file = bws.BwsFile(
        sections={1: "A"}, records=records, players=(), bids=bids + bad, cards=cards, problems=()
    )
    bws_import.import_results(
        match=match, data=FAKE + pickle.dumps(file), tables=Tables(1, 2), user=None, now=PLAY
    )
    stored = {(r.board, r.room): r for r in BoardResult.objects.filter(match=match)}
    assert stored[(1, "open")].auction == " ".join(calls)
    assert stored[(1, "open")].play == "HA H2 H5 H9"
    assert stored[(1, "closed")].auction == "" and stored[(1, "closed")].text == "3NT S +1"
