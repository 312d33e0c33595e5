"""DUP and DLM files for Duplimate dealing machines: known records, round trips, errors."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.bridge import formats
from bridgeko.bridge.cards import FULL_PACK, Deal, Hand
from tests.sizes import examples

# N all spades, E all hearts, S all diamonds, W all clubs: the deal Big Deal writes for the
# boards a DLM file holds beyond the set ("aaaaaabffffffkkkkkklpppppp").
SORTED = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# Card k of the pack (spade ace = 0 ... club two = 51) to seat k mod 4 (N, E, S, W).
ROUND_ROBIN = Deal.from_pbn("N:AT62.J73.Q84.K95 K95.AT62.J73.Q84 Q84.K95.AT62.J73 J73.Q84.K95.AT62")

deals = st.permutations(FULL_PACK).map(
    lambda cards: Deal(*(Hand.of(cards[13 * i : 13 * i + 13]) for i in range(4)))
)


def test_round_robin_fixture_really_deals_card_k_to_seat_k_mod_4() -> None:
    for k, card in enumerate(FULL_PACK):
        assert ROUND_ROBIN.owner(card) is not None
        assert ROUND_ROBIN.owner(card).number == k % 4  # type: ignore[union-attr]


# --- DLM ----------------------------------------------------------------------------------------


def test_dlm_header_and_records_of_a_two_board_set() -> None:
    text = formats.to_dlm({3: SORTED, 4: ROUND_ROBIN}, title="Bridge  Open\tK.O.")
    lines = text.split("\r\n")
    assert lines[:10] == [
        "[Document]",
        "Headline=Bridge Open K.O.",
        "Status=Sealed",
        "Duplicates=0",
        "From board=3",
        "To board=4",
        "Next board to duplimate=0",
        "PrintOuts=0",
        "Crypto key=0",
        "Checksum=7",  # 0 ^ 3 ^ 4
    ]
    records = dict(line.split("=") for line in lines[10:] if line)
    assert len(records) == 2 * 99
    assert all(records[f"Duplicates {n:02d}"] == "0" for n in range(1, 100))
    # "ab" pairs: a = N,N ... b = N,E ... l = S,W ... p = W,W; checksum = board ^ letters.
    assert records["Board 03"] == "aaaaaabffffffkkkkkklpppppp013"  # 3 ^ 14
    assert records["Board 04"] == "bl" * 13 + "010"  # 4 ^ 14
    for n in (1, 2, *range(5, 100)):  # outside the set: the sorted filler deal
        assert records[f"Board {n:02d}"] == f"aaaaaabffffffkkkkkklpppppp{n ^ 14:03d}"
    assert text.endswith("\r\n")


def test_dlm_show_status_changes_the_header_checksum() -> None:
    text = formats.to_dlm({1: SORTED}, title="x", show=True, newline="\n")
    assert "Status=Show\n" in text
    assert "Checksum=1\n" in text  # 0 ^ 1 ^ 1 ^ 1
    assert formats.from_dlm(text) == {1: SORTED}


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(1, 99), st.lists(deals, min_size=1, max_size=6))
def test_dlm_round_trip(first: int, hands: list[Deal]) -> None:
    first = min(first, 100 - len(hands))
    sets = {first + k: d for k, d in enumerate(hands)}
    assert formats.from_dlm(formats.to_dlm(sets, title="t")) == sets


def test_dlm_reader_checks_the_checksums() -> None:
    text = formats.to_dlm({1: ROUND_ROBIN}, title="t")
    with pytest.raises(formats.FormatError, match="the checksum of board 1 does not match"):
        formats.from_dlm(text.replace("Board 01=blbl", "Board 01=bbbl"))
    with pytest.raises(formats.FormatError, match="the header checksum does not match"):
        formats.from_dlm(text.replace("Checksum=0", "Checksum=5"))
    with pytest.raises(formats.FormatError, match="'to board' is missing"):
        formats.from_dlm(text.replace("To board=1", "Till=1"))


@pytest.mark.parametrize(
    ("boards", "message"),
    [
        ({}, "no boards to write"),
        ({0: SORTED}, "numbered 1 to 99, not 0 to 0"),
        ({99: SORTED, 100: SORTED}, "numbered 1 to 99, not 99 to 100"),
        ({1: SORTED, 2: SORTED, 5: SORTED}, "missing: 3, 4"),
        ({1: Deal.from_pbn("N:AKQ... - - -")}, "board 1 is not a complete deal"),
    ],
)
def test_dlm_refuses_boards_it_cannot_hold(boards: dict[int, Deal], message: str) -> None:
    with pytest.raises(formats.FormatError, match=message):
        formats.to_dlm(boards, title="t")


# --- DUP ----------------------------------------------------------------------------------------


def test_dup_record_of_the_sorted_deal_byte_by_byte() -> None:
    data = formats.to_dup({1: SORTED})
    bri = "".join(f"{k:02d}" for k in range(1, 40)).encode()
    ranks = b"AKQJT98765432"
    dge = (
        b"\x06" + ranks + b"\x03\x04\x05"
        + b"\x06\x03" + ranks + b"\x04\x05"
        + b"\x06\x03\x04" + ranks + b"\x05"
        + b"\x06\x03\x04\x05" + ranks
    )  # fmt: skip
    assert data == bri + dge + b"YN1  1 1  "
    assert len(data) == 156


def test_dup_trailer_gives_lowest_and_highest_board_and_copies() -> None:
    data = formats.to_dup({n: ROUND_ROBIN for n in range(17, 49)}, copies=2)
    assert len(data) == 32 * 156
    for k in range(32):
        assert data[156 * k + 146 : 156 * (k + 1)] == b"YN17 2 48 "
    # North's cards of the round-robin deal in the BRI part: 01, 05, 09 ... 49.
    assert data[:26] == b"".join(f"{k:02d}".encode() for k in range(1, 53, 4))


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(1, 900), st.lists(deals, min_size=1, max_size=5))
def test_dup_round_trip(first: int, hands: list[Deal]) -> None:
    sets = {first + k: d for k, d in enumerate(hands)}
    assert formats.from_dup(formats.to_dup(sets)) == sets


def test_dup_reader_refuses_broken_records() -> None:
    good = formats.to_dup({1: SORTED})
    with pytest.raises(formats.FormatError, match="whole number of 156-byte records"):
        formats.from_dup(good[:-1])
    with pytest.raises(formats.FormatError, match="39 different cards"):
        formats.from_dup(b"02" + good[2:])
    with pytest.raises(formats.FormatError, match="must be 78 digits"):
        formats.from_dup(b"xx" + good[2:])
    with pytest.raises(formats.FormatError, match="copies of each board must be 0 to 99"):
        formats.to_dup({1: SORTED}, copies=100)


def _converter_file(deals: dict[int, Deal], filler: bytes) -> bytes:
    """A DUP file as some converters write it: the trailer (random/backwards flags, lowest
    board, copies, highest board) in the first record only, ``filler`` in the later ones."""
    data = formats.to_dup(deals)
    records = [data[k : k + 156] for k in range(0, len(data), 156)]
    return records[0] + b"".join(r[:146] + filler for r in records[1:])


@pytest.mark.parametrize("filler", [b" " * 10, b"0" * 10, b"\0" * 10, b"NN0  0 0  "])
def test_dup_reader_numbers_records_on_from_the_first_when_later_ones_give_no_range(
    filler: bytes,
) -> None:
    deals = {n: (SORTED, ROUND_ROBIN)[n % 2] for n in range(17, 33)}
    data = _converter_file(deals, filler)
    assert data[146:156] == b"YN17 1 32 "
    assert data[156 + 146 : 2 * 156] == filler
    assert formats.from_dup(data) == deals


def test_dup_reader_needs_the_lowest_board_in_the_first_record() -> None:
    good = formats.to_dup({1: SORTED, 2: ROUND_ROBIN})
    for bad in (b"   ", b"0  ", b"x  "):
        with pytest.raises(formats.FormatError, match="record 1: the lowest board"):
            formats.from_dup(good[:148] + bad + good[151:])


def test_dup_options_copies_style_and_sealed() -> None:
    five = {n: ROUND_ROBIN for n in range(1, 6)}
    assert formats.to_dup(five)[146:156] == b"YN1  1 5  "
    assert formats.to_dup(five, copies=0, style="bigdeal")[146:156] == b"YN1  0 05 "
    assert formats.to_dup(five, copies=3, style="bigdeal")[146:156] == b"YN1  3 05 "
    later = {n: ROUND_ROBIN for n in range(17, 33)}
    assert formats.to_dup(later, copies=0, style="bigdeal")[146:156] == b"YN1  0 16 "
    sealed = formats.to_dup(five, sealed=True)
    shown = formats.to_dup(five)
    assert sealed[78:146] == b" " * 68  # the first record only
    assert sealed[156:] == shown[156:] and sealed[:78] == shown[:78]
    assert formats.from_dup(sealed) == five
    with pytest.raises(formats.FormatError, match="numbered 1 to 99"):
        formats.to_dup({n: ROUND_ROBIN for n in range(95, 101)}, style="bigdeal")
    with pytest.raises(formats.FormatError, match="unknown DUP style"):
        formats.to_dup(five, style="jannersten")  # type: ignore[arg-type]


def test_an_end_position_is_refused_with_a_clear_message() -> None:
    ending = Deal.from_pbn("N:AK.Q2.. .AK.J2. QJ.J.A. T..KQ.2")
    for write in (formats.to_dup, lambda d: formats.to_dlm(d, title="x")):
        with pytest.raises(formats.FormatError, match=r"board 1 is not a complete deal.*end pos"):
            write({1: ending})


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=400))
def test_dlm_reader_on_garbage_raises_only_format_errors(text: str) -> None:
    with contextlib.suppress(formats.FormatError):
        formats.from_dlm(text)


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=400).map(lambda b: (b * 2)[:156] if len(b) > 78 else b))
def test_dup_reader_on_garbage_raises_only_format_errors(data: bytes) -> None:
    with contextlib.suppress(formats.FormatError):
        formats.from_dup(data)
