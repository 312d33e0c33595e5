"""Computer-dealt boards (R12.7): uniform, reproducible, verifiable."""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections import Counter
from itertools import combinations, product
from math import comb

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bridgeko.bridge.cards import FULL_PACK, Card, Deal, Hand, Seat
from bridgeko.bridge.dealing import (
    DEAL_COUNT,
    METHOD,
    DealSetProtocol,
    board_deal_number,
    commitment,
    deal_board,
    deal_number,
    deal_number_indices,
    deal_numbers,
    deal_set,
    deal_set_indices,
    hmac_sha256,
    new_seed,
    number_of_deal,
    parse_board_range,
    parse_seed,
    verify_commitment,
)
from bridgeko.bridge.errors import BridgeInputError

SEED = bytes.fromhex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")
EVENT = "Bridge Open K.O. 1999"


def test_deal_count_is_52_factorial_over_13_factorial_to_the_4th() -> None:
    assert DEAL_COUNT == 53_644_737_765_488_792_839_237_440_000


# --- reference numbering, written independently of the library's tables -----------------------


def _reference_unrank(free: list[int], index: int) -> list[int]:
    """Combination ``index`` of 13 among ``free`` as documented: windows of 13, groups by the
    number of cards per window in lexicographic order, mixed radix (first window least
    significant), lexicographic combinations inside a window."""
    m = len(free) // 13
    for js in product(range(14), repeat=m):
        if sum(js) != 13:
            continue
        size = 1
        for j in js:
            size *= comb(13, j)
        if index >= size:
            index -= size
            continue
        chosen: list[int] = []
        for w, j in enumerate(js):
            index, r = divmod(index, comb(13, j))
            offsets = list(combinations(range(13), j))[r]
            chosen += [free[13 * w + o] for o in offsets]
        return chosen
    raise AssertionError("index out of range")


def _reference_deal(n: int) -> list[list[int]]:
    c26, c39 = comb(26, 13), comb(39, 13)
    rest, s_index = divmod(n, c26)
    n_index, e_index = divmod(rest, c39)
    free = list(range(52))
    hands = []
    for index in (n_index, e_index, s_index):
        hand = _reference_unrank(free, index)
        hands.append(hand)
        free = [c for c in free if c not in hand]
    hands.append(free)
    return hands


@pytest.mark.parametrize(
    "n",
    [0, 1, 2, 10**20, 12345678901234567890123456789, DEAL_COUNT // 2, DEAL_COUNT - 1],
)
def test_deal_number_matches_the_documented_numbering(n: int) -> None:
    assert [list(h) for h in deal_number_indices(n)] == _reference_deal(n)


def test_first_and_last_deal_numbers() -> None:
    # Number 0: every window of North's choice is empty but the last (clubs); and so on.
    assert deal_number(0).to_pbn() == (
        "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432..."
    )
    assert deal_number(DEAL_COUNT - 1).to_pbn() == (
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    )


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=DEAL_COUNT - 1))
@example(0)
@example(1)
@example(DEAL_COUNT - 1)
def test_deal_number_and_number_of_deal_are_inverse(n: int) -> None:
    deal = deal_number(n)
    assert deal.is_complete
    assert number_of_deal(deal) == n


@given(st.permutations(range(52)))
@settings(max_examples=100, deadline=None)
def test_number_of_deal_of_any_deal_is_in_range_and_round_trips(perm: list[int]) -> None:
    hands = [perm[13 * i : 13 * i + 13] for i in range(4)]
    deal = Deal.from_hands(
        {seat: _hand(h) for seat, h in zip(Seat.clockwise_from(Seat.NORTH), hands, strict=True)}
    )
    n = number_of_deal(deal)
    assert 0 <= n < DEAL_COUNT
    assert deal_number(n) == deal


def _hand(indices: list[int]) -> Hand:
    return Hand.of(FULL_PACK[i] for i in indices)


@pytest.mark.parametrize("n", [-1, DEAL_COUNT, True, 1.0])
def test_deal_number_out_of_range_is_an_input_error(n: object) -> None:
    with pytest.raises(BridgeInputError, match="deal number"):
        deal_number(n)  # type: ignore[arg-type]


def test_number_of_an_incomplete_deal_is_an_input_error() -> None:
    with pytest.raises(BridgeInputError, match="complete deal"):
        number_of_deal(Deal.from_pbn("N:AKQ... - - -"))


# --- hashing ------------------------------------------------------------------------------


def _message(event: str, session: str, board: int, counter: int) -> bytes:
    def field(text: str) -> bytes:
        data = text.encode("utf-8")
        return len(data).to_bytes(4, "big") + data

    return (
        field(METHOD) + field(event) + field(session) + board.to_bytes(4, "big")
        + counter.to_bytes(4, "big")
    )  # fmt: skip


def test_R12_7_deal_number_is_the_first_hmac_value_below_the_deal_count() -> None:
    # Computed here from the published method, without the library's hashing code.
    for board in range(1, 9):
        counter = 0
        while True:
            digest = hmac.new(SEED, _message(EVENT, "QF-1", board, counter), "sha256").digest()
            value = int.from_bytes(digest[:12], "big")
            if value < DEAL_COUNT:
                break
            counter += 1
        assert board_deal_number(SEED, EVENT, "QF-1", board) == value


def test_R12_7_values_too_large_are_rejected_and_the_counter_moves_on() -> None:
    calls: list[tuple[bytes, bytes]] = []
    answers = [
        (2**96 - 1).to_bytes(12, "big"),  # >= DEAL_COUNT: rejected
        DEAL_COUNT.to_bytes(12, "big") + b"\0" * 20,  # == DEAL_COUNT: rejected
        (4242).to_bytes(12, "big") + b"\xff" * 20,  # accepted: deal number 4242
    ]

    def stub(key: bytes, message: bytes) -> bytes:
        calls.append((key, message))
        return answers[len(calls) - 1]

    deal = deal_board(SEED, EVENT, "SF", 7, hash_fn=stub)
    assert deal == deal_number(4242)
    assert [m for _k, m in calls] == [_message(EVENT, "SF", 7, c) for c in (0, 1, 2)]
    assert all(k == SEED for k, _m in calls)


def test_a_hash_giving_too_few_bytes_is_refused() -> None:
    with pytest.raises(BridgeInputError, match="12 bytes"):
        deal_board(SEED, EVENT, "1", 1, hash_fn=lambda k, m: b"\0" * 8)


def test_default_hash_equals_plain_hmac_sha256_over_the_whole_message() -> None:
    fast = deal_set(SEED, EVENT, "F-2", range(1, 33))
    plain = deal_set(SEED, EVENT, "F-2", range(1, 33), hash_fn=hmac_sha256)
    assert fast == plain


# --- reproducibility and independence ---------------------------------------------------------


def test_R12_7_same_inputs_give_the_same_deals() -> None:
    first = deal_set(SEED, EVENT, "QF-1", range(1, 17))
    again = deal_set(bytes(SEED), EVENT, "QF-1", list(range(1, 17)))
    assert first == again
    assert deal_board(SEED, EVENT, "QF-1", 5) == first[5]


def test_R12_7_the_method_is_frozen() -> None:
    # Published sets must stay verifiable: board 1 of this set was dealt by method v1.
    assert deal_board(SEED, EVENT, "QF-1", 1).to_pbn() == _GOLDEN_QF1_B1


_GOLDEN_QF1_B1 = "N:K8.QJ65.AK93.872 AQT632.A.762.Q96 94.T842.QJ85.AJ5 J75.K973.T4.KT43"


def test_R12_7_every_input_changes_the_deals() -> None:
    base = deal_set(SEED, EVENT, "QF-1", range(1, 17))
    other_seed = bytes([SEED[0] ^ 1]) + SEED[1:]
    variants = [
        deal_set(other_seed, EVENT, "QF-1", range(1, 17)),
        deal_set(SEED, EVENT + " ", "QF-1", range(1, 17)),
        deal_set(SEED, EVENT, "QF-2", range(1, 17)),
    ]
    for variant in variants:
        assert all(variant[b] != base[b] for b in range(1, 17))
    # Different boards of one set differ from each other.
    assert len({d.to_pbn() for d in base.values()}) == 16


def test_fields_are_length_prefixed_so_shifting_text_between_them_changes_the_deal() -> None:
    assert deal_board(SEED, "AB", "C", 1) != deal_board(SEED, "A", "BC", 1)


def test_event_names_are_compared_in_unicode_nfc() -> None:
    composed = unicodedata.normalize("NFC", "Přebor Brna")
    decomposed = unicodedata.normalize("NFD", "Přebor Brna")
    assert composed != decomposed
    assert deal_board(SEED, composed, "1", 1) == deal_board(SEED, decomposed, "1", 1)


def test_every_produced_deal_is_complete() -> None:
    for hands in deal_set_indices(SEED, EVENT, "RR", range(1, 3001)):
        assert [len(h) for h in hands] == [13, 13, 13, 13]
        assert sorted(c for h in hands for c in h) == list(range(52))
    for deal in deal_set(SEED, EVENT, "RR", range(1, 41)).values():
        assert deal.is_complete
        assert {c for s in Seat for c in deal[s].cards} == set(FULL_PACK)


def test_indices_fast_path_gives_the_same_deals_as_deal_set() -> None:
    deals = deal_set(SEED, EVENT, "R16", range(1, 25))
    fast = deal_set_indices(SEED, EVENT, "R16", range(1, 25))
    for board, hands in zip(range(1, 25), fast, strict=True):
        for seat, hand in zip(Seat.clockwise_from(Seat.NORTH), hands, strict=True):
            assert {c.index for c in deals[board][seat].cards} == set(hand)


@pytest.mark.slow
def test_R12_7_each_card_is_equally_likely_in_each_seat_chi_square() -> None:
    # 100,000 boards; every card in every seat should be near 25,000.
    n = 100_000
    counts = [Counter[int]() for _ in range(4)]
    for hands in deal_set_indices(SEED, EVENT, "chi-square", range(1, n + 1)):
        for seat_counts, hand in zip(counts, hands, strict=True):
            seat_counts.update(hand)
    expected = n / 4
    chi2 = sum((counts[s][c] - expected) ** 2 / expected for s in range(4) for c in range(52))
    # 52 cards x 3 degrees of freedom = 156; the 99.9 % point of chi-square(156) is about 213.
    assert chi2 < 213, chi2
    # And no single card is far off in any seat (5 standard deviations, sd = 137).
    assert all(abs(counts[s][c] - expected) < 5 * 137 for s in range(4) for c in range(52))
    # The seats' totals are exact: 13 cards each per deal.
    assert [sum(counts[s].values()) for s in range(4)] == [13 * n] * 4


# --- seeds and commitments -------------------------------------------------------------------


def test_new_seed_is_32_random_bytes() -> None:
    a, b = new_seed(), new_seed()
    assert len(a) == len(b) == 32
    assert a != b


def test_commitment_is_the_hex_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_R12_7_commitment_accepts_the_seed_and_fails_for_a_forged_one() -> None:
    published = commitment(SEED)
    assert verify_commitment(SEED, published)
    assert verify_commitment(SEED, published.upper())
    forged = SEED[:-1] + bytes([SEED[-1] ^ 0x80])
    assert not verify_commitment(forged, published)
    assert not verify_commitment(SEED, "not a commitment")
    assert not verify_commitment(SEED, "")
    assert not verify_commitment(SEED, "č" * 64)


def test_parse_seed() -> None:
    assert parse_seed(SEED.hex().upper()) == SEED
    assert parse_seed(" " + SEED.hex()[:32] + " " + SEED.hex()[32:]) == SEED
    with pytest.raises(BridgeInputError, match="not a seed"):
        parse_seed("zz" * 32)
    with pytest.raises(BridgeInputError, match="at least 16 bytes"):
        parse_seed("abcd")


def test_short_seed_is_refused_for_dealing() -> None:
    with pytest.raises(BridgeInputError, match="at least 16 bytes"):
        deal_board(b"short", EVENT, "1", 1)


# --- boards ----------------------------------------------------------------------------------


def test_parse_board_range() -> None:
    assert parse_board_range("1-32") == tuple(range(1, 33))
    assert parse_board_range("5") == (5,)
    assert parse_board_range("1-4, 9-10") == (1, 2, 3, 4, 9, 10)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5-2", "first board is after the last"),
        ("0-3", "start at 1"),
        ("a-b", "not a board range"),
        ("", "not a board range"),
        ("1-3,2", "listed twice"),
        ("1-1000000000", "too many boards"),
    ],
)
def test_bad_board_ranges_are_named(text: str, message: str) -> None:
    with pytest.raises(BridgeInputError, match=message):
        parse_board_range(text)


@pytest.mark.parametrize("board", [0, -3, True, "1"])
def test_bad_board_numbers_are_refused(board: object) -> None:
    with pytest.raises(BridgeInputError, match="board number"):
        deal_board(SEED, EVENT, "1", board)  # type: ignore[arg-type]


def test_deal_numbers_are_below_the_deal_count() -> None:
    assert all(0 <= v < DEAL_COUNT for v in deal_numbers(SEED, EVENT, "x", range(1, 200)))


# --- the published protocol ------------------------------------------------------------------


def test_R12_7_protocol_publish_reveal_verify() -> None:
    protocol = DealSetProtocol.create(SEED, EVENT, "SF-1", range(1, 17))
    assert protocol.seed_hex is None
    assert protocol.to_dict()["commitment"] == commitment(SEED)
    with pytest.raises(BridgeInputError, match="not been revealed"):
        protocol.verify({})
    with pytest.raises(BridgeInputError, match="does not match"):
        protocol.revealed(new_seed())
    revealed = protocol.revealed(SEED)
    deals = deal_set(SEED, EVENT, "SF-1", range(1, 17))
    assert revealed.verify(deals) == []
    tampered = dict(deals)
    tampered[9] = deals[10]
    del tampered[16]
    assert revealed.verify(tampered) == [9, 16]


def test_card_indices_follow_card_index() -> None:
    assert Card.parse("SA").index == 0 and FULL_PACK[51] == Card.parse("C2")
