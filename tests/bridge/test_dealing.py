"""Computer-dealt boards (R12.7): uniform, reproducible, verifiable."""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from itertools import combinations, product
from math import comb

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bridgeko.bridge.cards import FULL_PACK, Card, Deal, Hand, Seat
from bridgeko.bridge.dealing import (
    DEAL_COUNT,
    METHOD,
    DealSetProtocol,
    board_deal_number,
    card_seats,
    commitment,
    deal_board,
    deal_number,
    deal_number_indices,
    deal_numbers,
    deal_numbers_array,
    deal_numbers_seats,
    deal_set,
    deal_set_array,
    deal_set_indices,
    deal_set_seats,
    hmac_sha256,
    new_seed,
    number_of_deal,
    parse_board_range,
    parse_seed,
    verify_commitment,
)
from bridgeko.bridge.errors import BridgeInputError
from tests.sizes import examples

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


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(min_value=0, max_value=DEAL_COUNT - 1))
@example(0)
@example(1)
@example(DEAL_COUNT - 1)
def test_deal_number_and_number_of_deal_are_inverse(n: int) -> None:
    deal = deal_number(n)
    assert deal.is_complete
    assert number_of_deal(deal) == n


@given(st.permutations(range(52)))
@settings(max_examples=examples(100), deadline=None)
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


def test_R12_7_each_card_is_equally_likely_in_each_seat_chi_square() -> None:
    # 100,000 boards; every card in every seat should be near 25,000. The batch path: one
    # (n, 52) array of the seat of each card.
    n = 100_000
    seats = deal_set_seats(SEED, EVENT, "chi-square", range(1, n + 1))
    assert seats.shape == (n, 52)
    counts = np.stack([(seats == s).sum(axis=0) for s in range(4)])  # counts[seat, card]
    expected = n / 4
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # 52 cards x 3 degrees of freedom = 156; the 99.9 % point of chi-square(156) is about 213.
    assert chi2 < 213, chi2
    # And no single card is far off in any seat (5 standard deviations, sd = 137).
    assert np.abs(counts - expected).max() < 5 * 137
    # The seats' totals are exact: 13 cards each per deal.
    assert counts.sum(axis=1).tolist() == [13 * n] * 4
    # The first boards are the ones the tuple path deals.
    for row, hands in zip(
        seats[:50], deal_set_indices(SEED, EVENT, "chi-square", range(1, 51)), strict=True
    ):
        assert [sorted(np.flatnonzero(row == s).tolist()) for s in range(4)] == [
            list(h) for h in hands
        ]


# --- the batch path (numpy) gives the same deals as the scalar path ---------------------------


def _edge_numbers() -> list[int]:
    """Deal numbers at the edges of the numbering: the first and last deal, the edges of the
    mixed radix (N/E/S indices 0 and their maxima) and of the 16-bit limbs of the long division,
    and the first and last combination index of every composition group of each hand."""
    c26, c39, c52 = comb(26, 13), comb(39, 13), comb(52, 13)
    out = {0, 1, DEAL_COUNT - 1, DEAL_COUNT - 2, DEAL_COUNT // 2}
    for k in range(1, 96):
        out.update(v for v in (2**k - 1, 2**k, 2**k + 1) if v < DEAL_COUNT)
    for i_n in (0, 1, c52 - 1):
        for i_e in (0, 1, c39 - 1):
            for i_s in (0, 1, c26 - 1):
                out.add((i_n * c39 + i_e) * c26 + i_s)
    for m, size, radix in ((4, c52, c39 * c26), (3, c39, c26), (2, c26, 1)):
        total = 0
        for js in product(range(14), repeat=m):
            if sum(js) != 13:
                continue
            group = 1
            for j in js:
                group *= comb(13, j)
            for index in (total, total + 1, total + group - 1, total + group // 2):
                if index < size:
                    out.add(index * radix + (radix - 1) // 3)
            total += group
        assert total == size
    return sorted(out)


def _as_tuples(cards: np.ndarray) -> list[tuple[tuple[int, ...], ...]]:
    return [tuple(tuple(h) for h in deal) for deal in cards.tolist()]


def test_batch_decoding_equals_the_scalar_path_on_thousands_of_numbers() -> None:
    rng = np.random.default_rng(1999)
    # Uniform numbers below DEAL_COUNT, from three 32-bit words each, plus the edge cases.
    words = rng.integers(0, 2**32, size=(6000, 3), dtype=np.uint64).tolist()
    uniform = [((a << 64) | (b << 32) | c) % DEAL_COUNT for a, b, c in words]
    numbers = _edge_numbers() + uniform
    assert len(numbers) > 8000 and 0 in numbers and DEAL_COUNT - 1 in numbers
    cards = deal_numbers_array(numbers)
    assert cards.shape == (len(numbers), 4, 13)
    assert cards.dtype == np.int8
    assert _as_tuples(cards) == [deal_number_indices(n) for n in numbers]
    seats = deal_numbers_seats(numbers)
    assert seats.shape == (len(numbers), 52)
    assert np.array_equal(seats, card_seats(cards))


def test_batch_decoding_matches_the_documented_numbering() -> None:
    numbers = [0, 1, 2, 10**20, 12345678901234567890123456789, DEAL_COUNT // 2, DEAL_COUNT - 1]
    cards = deal_numbers_array(numbers)
    assert [[list(h) for h in deal] for deal in cards.tolist()] == [
        _reference_deal(n) for n in numbers
    ]


def test_batch_first_and_last_deal_written_out() -> None:
    cards = deal_numbers_array([0, DEAL_COUNT - 1]).tolist()
    clubs, diamonds, hearts, spades = (list(range(13 * s, 13 * s + 13)) for s in (3, 2, 1, 0))
    assert cards[0] == [clubs, diamonds, hearts, spades]
    assert cards[1] == [spades, hearts, diamonds, clubs]
    seats = deal_numbers_seats([0]).tolist()[0]
    assert seats == [3] * 13 + [2] * 13 + [1] * 13 + [0] * 13


@pytest.mark.parametrize("n", [-1, DEAL_COUNT, True, 1.0])
def test_batch_deal_number_out_of_range_is_an_input_error(n: object) -> None:
    with pytest.raises(BridgeInputError, match="deal number"):
        deal_numbers_array([0, n])  # type: ignore[list-item]


def test_batch_of_no_numbers_is_empty() -> None:
    assert deal_numbers_array([]).shape == (0, 4, 13)
    assert deal_set_array(SEED, EVENT, "x", []).shape == (0, 4, 13)
    assert deal_set_seats(SEED, EVENT, "x", []).shape == (0, 52)
    assert deal_set(SEED, EVENT, "x", []) == {}
    assert list(deal_set_indices(SEED, EVENT, "x", [])) == []


def test_R12_7_the_batch_path_deals_the_frozen_method_too() -> None:
    cards = deal_set_array(SEED, EVENT, "QF-1", [1])
    deal = Deal.from_hands(
        {
            s: _hand(list(h))
            for s, h in zip(Seat.clockwise_from(Seat.NORTH), cards[0].tolist(), strict=True)
        }
    )
    assert deal.to_pbn() == _GOLDEN_QF1_B1
    assert deal_set(SEED, EVENT, "QF-1", [1])[1].to_pbn() == _GOLDEN_QF1_B1


def test_a_whole_deal_set_is_the_same_on_every_path() -> None:
    # More boards than one numpy batch (4096), in an order that is not the natural one.
    boards = [*range(1, 5002), 7777, 4242424]
    numbers = list(deal_numbers(SEED, EVENT, "F-1", boards))
    scalar = [deal_number_indices(n) for n in numbers]
    assert _as_tuples(deal_set_array(SEED, EVENT, "F-1", boards)) == scalar
    assert list(deal_set_indices(SEED, EVENT, "F-1", boards)) == scalar
    assert np.array_equal(
        deal_set_seats(SEED, EVENT, "F-1", boards),
        card_seats(deal_set_array(SEED, EVENT, "F-1", boards)),
    )
    deals = deal_set(SEED, EVENT, "F-1", boards)
    assert list(deals) == boards
    assert [deals[b] for b in boards[::37]] == [
        deal_number(numbers[i]) for i in range(0, len(boards), 37)
    ]
    # Deal objects from the batch path equal those of the scalar path, board by board.
    for b in (1, 2, 3, 4096, 4097, 5001, 4242424):
        assert deals[b] == deal_board(SEED, EVENT, "F-1", b)


def test_the_batch_path_uses_the_given_hash_too() -> None:
    calls: list[bytes] = []
    answers = [
        (2**96 - 1).to_bytes(12, "big"),  # rejected
        (4242).to_bytes(12, "big"),  # board 1: deal 4242
        (DEAL_COUNT - 1).to_bytes(12, "big"),  # board 2: the last deal
    ]

    def stub(key: bytes, message: bytes) -> bytes:
        calls.append(message)
        return answers[len(calls) - 1]

    cards = deal_set_array(SEED, EVENT, "SF", [1, 2], hash_fn=stub)
    assert calls == [
        _message(EVENT, "SF", 1, 0),
        _message(EVENT, "SF", 1, 1),
        _message(EVENT, "SF", 2, 0),
    ]
    assert _as_tuples(cards) == [deal_number_indices(4242), deal_number_indices(DEAL_COUNT - 1)]
    plain = deal_set_array(SEED, EVENT, "SF", range(1, 40), hash_fn=hmac_sha256)
    assert np.array_equal(plain, deal_set_array(SEED, EVENT, "SF", range(1, 40)))


def test_bad_inputs_are_refused_before_any_deal_is_made() -> None:
    with pytest.raises(BridgeInputError, match="at least 16 bytes"):
        deal_set_indices(b"short", EVENT, "1", [1])
    with pytest.raises(BridgeInputError, match="board number"):
        deal_set_array(SEED, EVENT, "1", [1, 0])
    with pytest.raises(BridgeInputError, match="event"):
        deal_set_seats(SEED, 5, "1", [1])  # type: ignore[arg-type]


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


def test_batch_bit_deposit_table_puts_pattern_bits_on_the_free_cards() -> None:
    # Checked against a bit-by-bit deposit written here, for sampled (free mask, pattern) pairs.
    from bridgeko.bridge.dealing import _array_tables

    at = _array_tables()
    rng = np.random.default_rng(7)
    frees = [0, 1, 0x1FFF, 0x1000, 0x0AAA, 0x1555, *rng.integers(0, 1 << 13, 300).tolist()]
    for free in frees:
        positions = [i for i in range(13) if free >> i & 1]
        for pattern in {0, (1 << len(positions)) - 1, *rng.integers(0, 1 << len(positions), 8)}:
            expected = sum(1 << pos for k, pos in enumerate(positions) if pattern >> k & 1)
            assert at.deposit[at.deposit_at[free] + pattern] == expected
