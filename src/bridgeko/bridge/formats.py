r"""Files for the Jannersten Duplimate dealing machines: DUP (binary) and DLM (text).

Sources (public descriptions; the vendor's ``convert.pdf`` itself could not be read here):

* DUP — the Duplimate "Convert" description as quoted by the hand_record_utility project's
  DESIGN.md and a public copy of the document: one 156-byte record a board, ``BRI`` (78 bytes:
  North's, East's and South's 13 cards as two-digit numbers, ``01`` = spade ace ... ``52`` = club
  two; West gets the rest), ``DGE`` (68 bytes: each hand N, E, S, W as 17 bytes, a suit symbol
  before each suit, ranks ``AKQJT98765432``), then 10 bytes: ``Y``/``N`` random hands, ``Y``/``N``
  backwards counting, lowest board (3 bytes), copies of each board (2 bytes), highest board
  (3 bytes), each left-aligned and padded with spaces (``"YN1  1 32 "`` for a set of 32).
* DLM — Big Deal's ``output.c`` (Hans van Staveren), which writes the format for the Duplimate
  software: an INI-like text with a ``[Document]`` header (``Status=Show|Sealed``,
  ``Duplicates``, ``From board``, ``To board``, ``Checksum`` = duplicates XOR from XOR to, XOR 1
  when shown) and, for boards 1 to 99, ``Duplicates NN=0`` and ``Board NN=`` followed by 26
  lowercase letters, one a pair of cards in the order spade ace ... club two,
  ``'a' + 4 * seat(first) + seat(second)`` with N=0, E=1, S=2, W=3, then a three-digit checksum
  (the board number XOR every letter). Boards outside From..To are filled with the sorted deal
  (N spades, E hearts, S diamonds, W clubs), as Big Deal does.

Not confirmed from public material (kept as the sources do; to check on a machine):

* DUP suit symbols are the DOS code page 437 bytes 6, 3, 4, 5 for spades, hearts, diamonds,
  clubs (as Big Deal writes them); the "copies of each board" field is written as ``copies``
  (default 1, the Convert example; Big Deal writes 0) and the lowest and highest board come from
  the boards given (Big Deal always writes 1 and the count).
* DLM line ends: CRLF is written (the Duplimate software runs on Windows; Big Deal writes the
  platform's line end); both are read. The ``Headline`` is the ``title`` argument.

>>> from bridgeko.bridge.cards import Deal
>>> suits = "AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
>>> sorted_deal = Deal.from_pbn("N:" + suits)
>>> to_dlm({1: sorted_deal}, title="t").splitlines()[11]
'Board 01=aaaaaabffffffkkkkkklpppppp015'
>>> from_dlm(to_dlm({1: sorted_deal}, title="t")) == {1: sorted_deal}
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bridgeko.bridge.cards import FULL_PACK, Card, Deal, Hand, Seat, Suit
from bridgeko.bridge.errors import BridgeInputError

__all__ = [
    "DLM_MAX_BOARD",
    "DUP_MAX_BOARD",
    "FormatError",
    "HandIndices",
    "from_dlm",
    "from_dup",
    "to_dlm",
    "to_dup",
]

DLM_MAX_BOARD = 99
"""A DLM file always holds boards 1 to 99; so does the Duplimate's board counter."""

DUP_MAX_BOARD = 999
"""The highest board a DUP file can number (three digits)."""

DUP_RECORD = 156
"""Bytes a board in a DUP file."""

HandIndices = Sequence[Sequence[int]]
"""A deal as the card indices (:attr:`Card.index`) of North, East, South and West, as
:func:`bridgeko.bridge.dealing.deal_set_small` gives it: :func:`to_dlm` takes it as a
:class:`Deal` and writes it without making one."""

_SEATS: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_DUP_SUIT_BYTES: dict[Suit, int] = {Suit.SPADES: 6, Suit.HEARTS: 3, Suit.DIAMONDS: 4, Suit.CLUBS: 5}
_FILLER = Deal.from_hands(
    {
        seat: Hand.of(c for c in FULL_PACK if c.suit is suit)
        for seat, suit in zip(_SEATS, Suit, strict=True)
    }
)


class FormatError(BridgeInputError):
    """Deals that a dealing-machine file cannot hold, or a file that cannot be read."""


def _is_complete(deal: Deal | HandIndices) -> bool:
    if isinstance(deal, Deal):
        return deal.is_complete
    return len(deal) == 4 and all(len(h) == 13 for h in deal) and _cards_of(deal) == _ALL_CARDS


def _cards_of(hands: HandIndices) -> set[int]:
    return {c for hand in hands for c in hand}


_ALL_CARDS = set(range(52))


def _check_boards(deals: Mapping[int, Deal | HandIndices], limit: int) -> tuple[int, int]:
    if not deals:
        raise FormatError("no boards to write")
    numbers = sorted(deals)
    low, high = numbers[0], numbers[-1]
    if low < 1 or high > limit:
        raise FormatError(f"the boards must be numbered 1 to {limit}, not {low} to {high}")
    missing = sorted(set(range(low, high + 1)) - set(numbers))
    if missing:
        raise FormatError(
            f"the boards must follow one another; missing: {', '.join(map(str, missing))}"
        )
    for n in numbers:
        if not _is_complete(deals[n]):
            raise FormatError(f"board {n} is not a complete deal (13 cards in each hand)")
    return low, high


_SEAT_NUMBER = {seat: k for k, seat in enumerate(Seat)}


def _owners(deal: Deal | HandIndices) -> list[int]:
    """The number (0 = N ... 3 = W) of the seat holding each card of :data:`FULL_PACK`: what
    ``deal.owner(card).number`` gives, card by card, from one pass over the hands."""
    if not isinstance(deal, Deal):  # card indices, complete (checked first)
        numbers = [0] * 52
        for number, hand in enumerate(deal):
            for c in hand:
                numbers[c] = number
        return numbers
    holder: dict[Card, int] = {}
    for seat in reversed(Seat):  # deal.owner gives the first seat holding a card
        number = _SEAT_NUMBER[seat]
        for card in deal[seat].cards:
            holder[card] = number
    owners: list[int] = []
    for card in FULL_PACK:
        owner = holder.get(card)
        if owner is None:  # pragma: no cover - complete deals are checked first
            raise FormatError(f"the card {card} is in no hand")
        owners.append(owner)
    return owners


# ---------------------------------------------------------------------------------------------
# DLM


def _dlm_board(number: int, deal: Deal | HandIndices) -> str:
    owners = _owners(deal)
    letters = "".join(chr(ord("a") + 4 * owners[k] + owners[k + 1]) for k in range(0, 52, 2))
    return f"{letters}{_xor(number, letters):03d}"


def to_dlm(
    deals: Mapping[int, Deal | HandIndices],
    *,
    title: str,
    show: bool = False,
    newline: str = "\r\n",
) -> str:
    """A DLM file for boards numbered 1 to 99 that follow one another (as :class:`Deal` values
    or as card indices, :data:`HandIndices`).

    ``show`` lets the machine show the hands on its screen (``Status=Show``); the default is
    ``Sealed``.
    """
    low, high = _check_boards(deals, DLM_MAX_BOARD)
    headline = " ".join(title.split())
    checksum = 0 ^ low ^ high ^ (1 if show else 0)
    lines = [
        "[Document]",
        f"Headline={headline}",
        f"Status={'Show' if show else 'Sealed'}",
        "Duplicates=0",
        f"From board={low}",
        f"To board={high}",
        "Next board to duplimate=0",
        "PrintOuts=0",
        "Crypto key=0",
        f"Checksum={checksum}",
    ]
    for n in range(1, DLM_MAX_BOARD + 1):
        lines.append(f"Duplicates {n:02d}=0")
        lines.append(f"Board {n:02d}={_dlm_board(n, deals.get(n, _FILLER))}")
    return newline.join(lines) + newline


def from_dlm(text: str) -> dict[int, Deal]:
    """The deals of boards From..To of a DLM file; checksums are verified."""
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("["):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise FormatError(f"DLM line {number}: expected 'key=value', found {line[:30]!r}")
        values[key.strip().lower()] = value.strip()

    def number_of(key: str) -> int:
        v = values.get(key)
        if v is None or not v.isascii() or not v.isdigit():
            raise FormatError(f"DLM: '{key}' is missing or not a number")
        return int(v)

    low, high = number_of("from board"), number_of("to board")
    if not 1 <= low <= high <= DLM_MAX_BOARD:
        raise FormatError(f"DLM: boards {low} to {high} are not within 1 to {DLM_MAX_BOARD}")
    show = values.get("status", "").lower() == "show"
    expected = number_of("duplicates") ^ low ^ high ^ (1 if show else 0)
    if number_of("checksum") != expected:
        raise FormatError("DLM: the header checksum does not match")
    out: dict[int, Deal] = {}
    for n in range(low, high + 1):
        rec = values.get(f"board {n:02d}")
        if rec is None or len(rec) != 29:
            raise FormatError(f"DLM: board {n} is missing or not 26 letters and a checksum")
        letters, check = rec[:26], rec[26:]
        codes = [ord(c) - ord("a") for c in letters]
        if any(not 0 <= c < 16 for c in codes):
            raise FormatError(f"DLM: board {n} has a letter outside a-p")
        if f"{_xor(n, letters):03d}" != check:
            raise FormatError(f"DLM: the checksum of board {n} does not match")
        hands: dict[Seat, list[Card]] = {s: [] for s in _SEATS}
        for k, code in enumerate(codes):
            hands[_SEATS[code >> 2]].append(FULL_PACK[2 * k])
            hands[_SEATS[code & 3]].append(FULL_PACK[2 * k + 1])
        if any(len(cs) != 13 for cs in hands.values()):
            raise FormatError(f"DLM: board {n} does not give 13 cards to each hand")
        out[n] = Deal.from_hands({s: Hand.of(cs) for s, cs in hands.items()})
    return out


def _xor(number: int, letters: str) -> int:
    check = number
    for c in letters:
        check ^= ord(c)
    return check


# ---------------------------------------------------------------------------------------------
# DUP


def _dup_record(deal: Deal, low: int, high: int, copies: int) -> bytes:
    bri = "".join(
        f"{card.index + 1:02d}"
        for seat in _SEATS[:3]
        for card in sorted(deal[seat].cards, key=lambda c: c.index)
    ).encode("ascii")
    dge = bytearray()
    for seat in _SEATS:
        for suit in Suit:
            dge.append(_DUP_SUIT_BYTES[suit])
            dge.extend("".join(r.char for r in deal[seat].holding(suit)).encode("ascii"))
    tail = f"YN{low:<3d}{copies:<2d}{high:<3d}".encode("ascii")
    return bri + bytes(dge) + tail


def to_dup(deals: Mapping[int, Deal], *, copies: int = 1) -> bytes:
    """A DUP file: one 156-byte record a board, boards in order (at most 999, following on)."""
    if not 0 <= copies <= 99:
        raise FormatError(f"copies of each board must be 0 to 99, not {copies}")
    low, high = _check_boards(deals, DUP_MAX_BOARD)
    return b"".join(_dup_record(deals[n], low, high, copies) for n in range(low, high + 1))


def from_dup(data: bytes) -> dict[int, Deal]:
    """The deals of a DUP file, numbered from its "lowest board" field (BRI part read)."""
    if not data or len(data) % DUP_RECORD:
        raise FormatError(f"a DUP file is a whole number of {DUP_RECORD}-byte records")
    out: dict[int, Deal] = {}
    for k in range(len(data) // DUP_RECORD):
        rec = data[k * DUP_RECORD : (k + 1) * DUP_RECORD]
        low_txt = rec[148:151].decode("ascii", "replace").strip()
        if not low_txt.isascii() or not low_txt.isdigit():
            raise FormatError(f"DUP record {k + 1}: the lowest board is not a number")
        bri = rec[:78].decode("ascii", "replace")
        if not bri.isascii() or not bri.isdigit():
            raise FormatError(f"DUP record {k + 1}: the BRI part must be 78 digits")
        numbers = [int(bri[i : i + 2]) for i in range(0, 78, 2)]
        if any(not 1 <= x <= 52 for x in numbers) or len(set(numbers)) != 39:
            raise FormatError(f"DUP record {k + 1}: the BRI part does not give 39 different cards")
        hands = {
            seat: Hand.of(FULL_PACK[x - 1] for x in numbers[13 * i : 13 * i + 13])
            for i, seat in enumerate(_SEATS[:3])
        }
        hands[Seat.WEST] = Hand.of(c for c in FULL_PACK if c.index + 1 not in numbers)
        out[int(low_txt) + k] = Deal.from_hands(hands)
    return out
