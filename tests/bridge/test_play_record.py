"""The auction and the play as values: call spellings, the laws of the auction, tricks and their
winners, the play checked against the deal, and the result of a table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.bridge.cards import FULL_PACK, Card, Deal, Hand, Seat, Strain
from bridgeko.bridge.contract import PASSED_OUT, Contract
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.play_record import (
    Auction,
    AuctionError,
    Play,
    PlayError,
    normalise_call,
    table_result,
)
from bridgeko.bridge.result import BoardResult
from tests.sizes import examples

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
"""North holds the top spades, East the top clubs, South the top diamonds, West the top hearts."""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


# --- calls --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("p", "P"),
        ("P", "P"),
        ("pass", "P"),
        ("Pass", "P"),
        ("PASS", "P"),
        ("d", "X"),
        ("x", "X"),
        ("dbl", "X"),
        ("Double", "X"),
        ("r", "XX"),
        ("xx", "XX"),
        ("rdbl", "XX"),
        ("REDBL", "XX"),
        ("1n", "1NT"),
        ("1N", "1NT"),
        ("1nt", "1NT"),
        ("1N!", "1NT"),
        ("3 NT", "3NT"),
        ("2c", "2C"),
        ("7s", "7S"),
        ("4H!", "4H"),
        ("p!", "P"),
        (" 2 d ", "2D"),
    ],
)
def test_normalise_call_reads_lin_pbn_and_bridgemate_spellings(text: str, call: str) -> None:
    assert normalise_call(text) == call


@pytest.mark.parametrize("text", ["", "8S", "0C", "1Z", "4SX", "AP", "pp", "!", "1", "NT"])
def test_normalise_call_refuses_what_is_not_one_call(text: str) -> None:
    with pytest.raises(AuctionError, match="call"):
        normalise_call(text)


# --- the auction --------------------------------------------------------------------------------


def test_auction_contract_and_declarer_is_first_of_the_side_to_name_the_strain() -> None:
    # N opens 1H, S raises, N bids 4H: N declares. E overcalls spades, W bids 4S over 4H, doubled.
    auction = Auction(N, ("1H", "1S", "2H", "3S", "4H", "4S", "X", "P", "P", "P"))
    assert auction.is_complete
    assert auction.contract == Contract.parse("4SX")
    assert auction.declarer is E  # East named spades first, West bid them last
    assert auction.seat(5) is E


def test_auction_declarer_names_south_when_south_bid_notrump_first() -> None:
    auction = Auction(W, ("p", "1d", "p", "1n", "d", "r", "p", "p", "p"))
    assert auction.calls == ("P", "1D", "P", "1NT", "X", "XX", "P", "P", "P")
    assert auction.seat(3) is S
    assert auction.declarer is S
    assert str(auction.contract) == "1NTXX"


def test_auction_four_passes_is_passed_out_and_has_no_declarer() -> None:
    auction = Auction(S, ("p", "p", "p", "p"))
    assert auction.is_complete
    assert auction.contract == PASSED_OUT
    assert auction.declarer is None


def test_auction_unfinished_is_allowed_and_flagged() -> None:
    for calls in ((), ("1S",), ("1S", "P", "P"), ("P", "P", "P")):
        auction = Auction(E, calls)
        assert not auction.is_complete
        assert auction.contract is None
        assert auction.declarer is None


def test_auction_alerts_from_the_mark_and_from_explanations() -> None:
    auction = Auction(N, ("1C!", "P", "1H"), {2: "4+ spades"})
    assert dict(auction.alerts) == {0: "", 2: "4+ spades"}
    assert auction == Auction(N, ("1C", "P", "1H"), {0: "", 2: "4+ spades"})
    assert hash(auction) == hash(Auction(N, ("1C", "P", "1H"), {0: "", 2: "4+ spades"}))
    with pytest.raises(AuctionError, match="alert for call 4"):
        Auction(N, ("1C",), {3: "?"})


@pytest.mark.parametrize(
    ("dealer", "calls", "message"),
    [
        (W, ("1C", "1D", "X", "P", "2C", "1H"), r"call 6 \(N\): 1H is not higher than 2C"),
        (N, ("1S", "1S"), r"call 2 \(E\): 1S is not higher than 1S"),
        (N, ("1NT", "P", "2C", "P", "2C"), r"call 5 \(N\): 2C is not higher than 2C"),
        (N, ("X",), r"call 1 \(N\): X with no bid to double"),
        (N, ("1S", "P", "X"), r"call 3 \(S\): X of 1S, which is their own side's bid"),
        (N, ("1S", "X", "P", "X"), r"call 4 \(W\): X of 1SX, already doubled"),
        (N, ("1S", "XX"), r"call 2 \(E\): XX with no double to redouble"),
        (N, ("1S", "X", "P", "XX"), r"call 4 \(W\): XX of 1SX, which their own side doubled"),
        (N, ("1S", "X", "XX", "XX"), r"call 4 \(W\): XX with no double to redouble"),
        (N, ("1S", "P", "P", "P", "2C"), r"call 5 \(N\): 2C after the end of the auction"),
        (N, ("P", "P", "P", "P", "P"), r"call 5 \(N\): P after the end .*four passes"),
        (E, ("1S", "P", "zz"), r"call 3 \(W\): not a call: 'zz'"),
    ],
)
def test_auction_error_names_the_call_its_seat_and_the_problem(
    dealer: Seat, calls: tuple[str, ...], message: str
) -> None:
    with pytest.raises(AuctionError, match=message) as info:
        Auction(dealer, calls)
    assert info.value.index == int(message.split()[1]) - 1
    assert isinstance(info.value, BridgeInputError)


def test_auction_double_and_redouble_after_passes_are_legal() -> None:
    # The opponent two seats on doubles after two passes; the bidder's partner redoubles.
    auction = Auction(N, ("1S", "P", "P", "X", "XX", "P", "P", "P"))
    assert auction.contract == Contract.parse("1SXX")
    assert auction.declarer is N


calls_text = st.lists(
    st.sampled_from(["P", "X", "XX", "1C", "1NT", "2H", "3S", "7NT", "p", "d", "r"]), max_size=12
)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(list(Seat)), calls_text)
def test_auction_of_any_calls_is_an_auction_or_an_auction_error(
    dealer: Seat, calls: list[str]
) -> None:
    try:
        auction = Auction(dealer, tuple(calls))
    except AuctionError as exc:
        assert exc.index is not None and 0 <= exc.index < len(calls)
        # every call before the bad one makes a legal auction
        Auction(dealer, tuple(calls[: exc.index]))
        return
    if auction.is_complete:
        assert auction.contract is not None
        assert (auction.declarer is None) == auction.contract.is_passed_out


# --- the play -----------------------------------------------------------------------------------


def test_play_tricks_and_winners_with_trumps_and_discards() -> None:
    # Spades trumps, East leads: trick 1 ruffed by South; trick 2 won by the highest heart.
    play = Play(E, Strain.SPADES, cards("C2 S5 CJ H4 H2 H3 HA HK"))
    tricks = play.tricks()
    assert [t.winner for t in tricks] == [S, N]
    assert tricks[0].leader is E and tricks[1].leader is S
    assert tricks[0].player(3) is N
    assert play.completed_tricks == 2
    assert play.declarer_tricks(S) == 2
    assert play.declarer_tricks(E) == 0


def test_play_in_notrump_a_discard_does_not_win_and_last_trick_may_be_unfinished() -> None:
    play = Play(W, Strain.NOTRUMP, cards("D2 S2 C2 H2 CA C3"))
    first, second = play.tricks()
    assert first.winner is W  # a diamond led, nobody followed
    assert second.winner is None and not second.is_complete
    assert play.seats() == [W, N, E, S, W, N]
    assert Play(W, None, play.cards).tricks()[0].winner is W


def test_play_refuses_a_card_played_twice_and_more_than_thirteen_tricks() -> None:
    with pytest.raises(PlayError, match=r"trick 2, card 1: SA was played already \(trick 1\)"):
        Play(N, None, cards("SA S2 S3 S4 SA"))
    with pytest.raises(PlayError, match="53 cards played"):
        Play(N, None, (*FULL_PACK, FULL_PACK[0]))


def test_play_check_names_trick_card_and_seat_of_a_card_not_in_the_hand() -> None:
    play = Play(E, Strain.HEARTS, cards("CA D5"))  # East leads, South plays North's D5
    with pytest.raises(PlayError, match=r"trick 1, card 2 \(S\): D5 is not in South's hand"):
        play.check(DEAL)
    with pytest.raises(PlayError, match=r"CA is not in South's hand \(it is East's\)"):
        Play(S, None, cards("CA")).check(DEAL)


def test_play_check_refuses_a_revoke_and_allows_a_discard_when_void() -> None:
    # West leads the HA (West holds the top hearts); North holds HT98 and plays a spade.
    revoke = Play(W, Strain.NOTRUMP, cards("HA SA"))
    with pytest.raises(
        PlayError,
        match=r"trick 1, card 2 \(N\): SA does not follow suit \(H led, North's hand still "
        r"holds HT, H9, H8\)",
    ):
        revoke.check(DEAL)
    # A whole legal trick: every hand follows suit.
    Play(W, Strain.NOTRUMP, cards("HA HT H7 H4")).check(DEAL)


def test_play_check_with_a_partial_deal_checks_what_it_knows() -> None:
    partial = Deal(Hand.from_pbn("AKQJ.T98.765.432"), *(Hand(frozenset()) for _ in range(3)))
    Play(E, None, cards("CA D2 H2")).check(partial)  # the unknown hands are not checked
    with pytest.raises(PlayError, match=r"\(E\): SA is not in East's hand \(it is North's\)"):
        Play(E, None, cards("SA")).check(partial)


# --- the result ---------------------------------------------------------------------------------

AUCTION_4S = Auction(N, ("1S", "P", "4S", "P", "P", "P"))  # North declares, East leads


def whole_play() -> Play:
    """A legal 13 tricks of 4S by North: each seat plays its highest card of the suit led, or
    its highest card when void."""
    order: list[Card] = []
    hands = {s: sorted(DEAL[s], key=lambda c: c.index) for s in Seat}
    leader = E
    play = Play(E, Strain.SPADES)
    for _ in range(13):
        trick: list[Card] = []
        for k in range(4):
            seat = leader.next(k)
            hand = hands[seat]
            follow = [c for c in hand if trick and c.suit is trick[0].suit]
            card = (follow or hand)[0]
            hand.remove(card)
            trick.append(card)
        order += trick
        play = Play(E, Strain.SPADES, tuple(order))
        winner = play.tricks()[-1].winner
        assert winner is not None
        leader = winner
    return play


def test_table_result_from_thirteen_tricks_played() -> None:
    play = whole_play()
    play.check(DEAL)
    result = table_result(AUCTION_4S, play, None, DEAL)
    assert result is not None
    assert result.contract == Contract.parse("4S") and result.declarer is N
    assert result.tricks == play.declarer_tricks(N)
    assert result.lead == play.cards[0]


def test_table_result_from_a_claim_counts_the_declarer_total() -> None:
    play = Play(E, Strain.SPADES, cards("CA C8 C5 C2 CK C9 C6 C3"))  # East wins two clubs
    assert play.declarer_tricks(N) == 0
    result = table_result(AUCTION_4S, play, 11, DEAL)
    assert result == BoardResult(Contract.parse("4S"), N, 11, Card.parse("CA"))
    assert str(result) == "4S N +1"
    with pytest.raises(PlayError, match=r"a claim of 12 tricks .* \(possible: 0 to 11\)"):
        table_result(AUCTION_4S, play, 12, DEAL)
    assert table_result(AUCTION_4S, None, 10) == BoardResult(Contract.parse("4S"), N, 10)


def test_table_result_none_without_claim_or_thirteen_tricks_and_passed_out() -> None:
    assert table_result(AUCTION_4S, Play(E, Strain.SPADES, cards("CA")), None, DEAL) is None
    assert table_result(AUCTION_4S, None, None) is None
    assert table_result(None, None, None) is None
    assert table_result(Auction(N, ("1S",)), None, None) is None
    passed = Auction(N, ("P",) * 4)
    assert table_result(passed, None, None) == BoardResult.passed_out()
    with pytest.raises(PlayError, match="passed-out"):
        table_result(passed, None, 7)
    with pytest.raises(PlayError, match="before the end of the auction"):
        table_result(Auction(N, ("1S",)), None, 7)


def test_table_result_refuses_the_play_of_another_contract() -> None:
    with pytest.raises(PlayError, match=r"opening leader is E \(declarer N\), not S"):
        table_result(AUCTION_4S, Play(S, Strain.SPADES), None)
    with pytest.raises(PlayError, match="trumps"):
        table_result(AUCTION_4S, Play(E, Strain.HEARTS), None)
    with pytest.raises(PlayError, match=r"trick 1, card 1 \(E\): SA is not in East's hand"):
        table_result(AUCTION_4S, Play(E, Strain.SPADES, cards("SA")), 10, DEAL)
