"""Seats, suits, ranks, cards, hands, deals and vulnerability: round trips and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.bridge.cards import (
    FULL_PACK,
    Card,
    Deal,
    Hand,
    Rank,
    Seat,
    Strain,
    Suit,
    Vulnerability,
)
from bridgeko.bridge.errors import BridgeInputError, CardError

SAMPLE = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"

# --- seats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seat"),
    [("N", Seat.NORTH), ("e", Seat.EAST), ("South", Seat.SOUTH), (" w ", Seat.WEST)],
)
def test_seat_parse(text: str, seat: Seat) -> None:
    assert Seat.parse(text) is seat


@pytest.mark.parametrize("bad", ["X", "", "1", "?"])
def test_seat_parse_error_names_the_problem(bad: str) -> None:
    with pytest.raises(CardError, match="not a seat") as info:
        Seat.parse(bad)
    assert "expected N, E, S or W" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_seat_order_partner_side() -> None:
    assert [s.value for s in Seat] == ["N", "E", "S", "W"]
    assert [s.number for s in Seat] == [0, 1, 2, 3]
    assert Seat.NORTH.next() is Seat.EAST
    assert Seat.WEST.next() is Seat.NORTH
    assert Seat.SOUTH.next(3) is Seat.EAST
    assert [s.partner for s in Seat] == [Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST]
    assert [s.side for s in Seat] == ["NS", "EW", "NS", "EW"]
    assert Seat.clockwise_from(Seat.SOUTH) == (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)


# --- strains, suits, ranks -----------------------------------------------------------------------


def test_strain_properties() -> None:
    assert [s.rank for s in Strain] == [0, 1, 2, 3, 4]
    assert [s for s in Strain if s.is_major] == [Strain.HEARTS, Strain.SPADES]
    assert [s for s in Strain if s.is_minor] == [Strain.CLUBS, Strain.DIAMONDS]
    assert not Strain.NOTRUMP.is_major and not Strain.NOTRUMP.is_minor


def test_suit_order_strain_symbol() -> None:
    assert "".join(s.value for s in Suit) == "SHDC"
    assert Suit.HEARTS.strain is Strain.HEARTS
    assert "".join(s.symbol for s in Suit) == "♠♥♦♣"


def test_rank_chars_and_hcp() -> None:
    assert "".join(r.char for r in Rank) == "23456789TJQKA"
    assert [r.hcp for r in Rank][-4:] == [1, 2, 3, 4]
    assert sum(r.hcp for r in Rank) == 10
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("10") is Rank.TEN


@pytest.mark.parametrize("bad", ["1X", "Z", "", "0", "11"])
def test_rank_parse_error(bad: str) -> None:
    with pytest.raises(CardError, match="not a card rank"):
        Rank.parse(bad)


# --- cards ---------------------------------------------------------------------------------------


def test_full_pack_is_52_distinct_cards_in_pbn_order() -> None:
    assert len(set(FULL_PACK)) == 52
    assert str(FULL_PACK[0]) == "SA"
    assert str(FULL_PACK[13]) == "HA"
    assert str(FULL_PACK[51]) == "C2"
    assert [c.index for c in FULL_PACK] == list(range(52))


@given(st.integers(min_value=0, max_value=51))
def test_card_round_trips(index: int) -> None:
    card = Card.from_index(index)
    assert card.index == index
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize(
    ("bad", "words"),
    [("S", "expected suit and rank"), ("SAK", "expected suit and rank"),
     ("XA", "unknown suit 'X'"), ("SZ", "not a card rank")],
)  # fmt: skip
def test_card_parse_errors(bad: str, words: str) -> None:
    with pytest.raises(CardError, match=words):
        Card.parse(bad)


@pytest.mark.parametrize("bad", [-1, 52])
def test_card_index_out_of_range(bad: int) -> None:
    with pytest.raises(CardError, match="out of range"):
        Card.from_index(bad)


# --- hands ---------------------------------------------------------------------------------------

hands = st.lists(st.sampled_from(FULL_PACK), max_size=13, unique=True).map(Hand.of)


@given(hands)
def test_hand_pbn_round_trip(hand: Hand) -> None:
    assert Hand.from_pbn(hand.to_pbn()) == hand
    assert eval(repr(hand), {"Hand": Hand}) == hand
    assert len(hand) == sum(hand.shape)


def test_hand_properties() -> None:
    hand = Hand.from_pbn("AKQJ.T98.765.432")
    assert hand.shape == (4, 3, 3, 3)
    assert hand.hcp == 10
    assert hand.holding(Suit.SPADES) == (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
    assert Card.parse("SA") in hand and Card.parse("HA") not in hand
    assert str(hand) == "AKQJ.T98.765.432"
    assert Hand.from_pbn("-").to_pbn() == "-"
    assert Hand.from_pbn("akqj.10 9 8.765.432".replace(" ", "")).to_pbn() == "AKQJ.T98.765.432"
    assert Hand.from_pbn("JQKA...").to_pbn() == "AKQJ..."


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("AA.2.3.4", "holds the same card twice"),
        ("AKQJT98765432.A..", "at most 13 cards, this one has 14"),
        ("AKQ.T98.765", "expected 4 suits"),
        ("AKQ.T98.765.43Z", "not a card rank"),
    ],
)
def test_hand_errors_name_the_problem(bad: str, words: str) -> None:
    with pytest.raises(CardError, match=words) as info:
        Hand.from_pbn(bad)
    assert isinstance(info.value, BridgeInputError)


def test_hand_of_14_cards() -> None:
    with pytest.raises(CardError, match="at most 13 cards, this one has 14"):
        Hand(frozenset(FULL_PACK[:14]))


def test_hand_of_duplicate_card() -> None:
    with pytest.raises(CardError, match="same card twice"):
        Hand.of([Card.parse("SA"), Card.parse("SA")])


# --- deals ---------------------------------------------------------------------------------------


@given(st.permutations(FULL_PACK), st.sampled_from(Seat))
def test_deal_pbn_round_trip(pack: list[Card], first: Seat) -> None:
    deal = Deal(*(Hand.of(pack[13 * i : 13 * i + 13]) for i in range(4)))
    assert deal.is_complete
    assert Deal.from_pbn(deal.to_pbn(first)) == deal
    assert eval(repr(deal), {"Deal": Deal}) == deal
    for card in FULL_PACK:
        owner = deal.owner(card)
        assert owner is not None and card in deal[owner]


def test_deal_sample() -> None:
    deal = Deal.from_pbn(SAMPLE)
    assert deal[Seat.EAST].to_pbn() == "T98.765.432.AKQJ"
    assert deal.to_pbn(Seat.SOUTH) == (
        "S:765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432 T98.765.432.AKQJ"
    )
    assert Deal.from_pbn("E:" + SAMPLE[2:])[Seat.EAST].to_pbn() == "AKQJ.T98.765.432"
    assert sum(h.hcp for h in deal.hands().values()) == 40


def test_partial_deal() -> None:
    deal = Deal.from_pbn("N:AKQ... - - -")
    assert not deal.is_complete
    assert deal.owner(Card.parse("C2")) is None
    assert deal.owner(Card.parse("SA")) is Seat.NORTH


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("AKQJ.T98.765.432 T98.765.432.AKQJ", "expected e.g. 'N:"),
        ("X:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "not a seat"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98", "expected 4 hands, found 3"),
        ("N:AKQJ.T98.765.432 AKQJ.765.432.AKQ - -", "a card is in two hands: SA, SJ, SK, SQ"),
    ],
)
def test_deal_errors_name_the_problem(bad: str, words: str) -> None:
    with pytest.raises(CardError, match=words):
        Deal.from_pbn(bad)


# --- vulnerability -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "vul"),
    [("None", Vulnerability.NONE), ("love", Vulnerability.NONE), ("-", Vulnerability.NONE),
     ("ns", Vulnerability.NS), ("EW", Vulnerability.EW), ("All", Vulnerability.ALL),
     ("both", Vulnerability.ALL)],
)  # fmt: skip
def test_vulnerability_parse(text: str, vul: Vulnerability) -> None:
    assert Vulnerability.parse(text) is vul
    assert Vulnerability.parse(vul.value) is vul


def test_vulnerability_parse_error() -> None:
    with pytest.raises(CardError, match="not a vulnerability: 'NE'"):
        Vulnerability.parse("NE")


@pytest.mark.parametrize(
    ("vul", "ns", "ew"),
    [("None", False, False), ("NS", True, False), ("EW", False, True), ("All", True, True)],
)
def test_vulnerability_of_each_seat(vul: str, ns: bool, ew: bool) -> None:
    v = Vulnerability(vul)
    assert [v.is_vulnerable(s) for s in Seat] == [ns, ew, ns, ew]
