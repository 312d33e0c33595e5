"""Small immutable values: seats, suits, strains, ranks, cards, hands and deals.

>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> deal[Seat.NORTH].to_pbn()
'AKQJ.T98.765.432'
>>> deal.to_pbn(first=Seat.EAST).split()[0]
'E:T98.765.432.AKQJ'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from bridgeko.bridge.errors import CardError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Self


class Seat(StrEnum):
    """A compass seat; the value is its PBN letter."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @classmethod
    def parse(cls, text: str) -> Seat:
        """The seat named by ``"N"``, ``"n"``, ``"North"`` ..."""
        key = text.strip().upper()
        for seat in cls:
            if key in (seat.value, seat.name):
                return seat
        raise CardError(f"not a seat: {text!r} (expected N, E, S or W)")

    @property
    def number(self) -> int:
        """0 for North, 1 for East, 2 for South, 3 for West."""
        return _SEAT_ORDER.index(self)

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (1 = left-hand opponent)."""
        return _SEAT_ORDER[(self.number + steps) % 4]

    @property
    def partner(self) -> Seat:
        """The partner of this seat."""
        return self.next(2)

    @property
    def side(self) -> str:
        """``"NS"`` or ``"EW"``."""
        return "NS" if self in (Seat.NORTH, Seat.SOUTH) else "EW"

    @classmethod
    def clockwise_from(cls, first: Seat) -> tuple[Seat, Seat, Seat, Seat]:
        """The four seats in clockwise order starting with ``first``."""
        return (first, first.next(1), first.next(2), first.next(3))


_SEAT_ORDER: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)


class Strain(StrEnum):
    """The strain of a contract; the value is its PBN spelling."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NOTRUMP = "NT"

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)

    @property
    def rank(self) -> int:
        """Bidding rank: clubs 0 ... notrump 4."""
        return list(Strain).index(self)


class Suit(StrEnum):
    """A suit; the value is its PBN letter. Iteration order is the PBN order S, H, D, C."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def strain(self) -> Strain:
        return Strain(self.value)

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]


class Rank(IntEnum):
    """A card rank, 2 to 14 (ace)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """The PBN character: ``2`` ... ``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self.value - 2]

    @classmethod
    def parse(cls, char: str) -> Rank:
        c = char.upper()
        if c == "1" or c == "10":
            c = "T"
        idx = _RANK_CHARS.find(c) if len(c) == 1 else -1
        if idx < 0:
            raise CardError(f"not a card rank: {char!r}")
        return cls(idx + 2)

    @property
    def hcp(self) -> int:
        """Milton Work points: A=4, K=3, Q=2, J=1."""
        return max(0, self.value - 10)


_RANK_CHARS = "23456789TJQKA"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card."""

    suit: Suit
    """The card's suit."""
    rank: Rank
    """The card's rank."""

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from ``"SA"``, ``"HT"``, ``"C2"``."""
        t = text.strip()
        if len(t) != 2:
            raise CardError(f"not a card: {text!r} (expected suit and rank, e.g. SA)")
        try:
            suit = Suit(t[0].upper())
        except ValueError:
            raise CardError(f"not a card: {text!r} (unknown suit {t[0]!r})") from None
        return cls(suit, Rank.parse(t[1]))

    def __str__(self) -> str:
        return f"{self.suit.value}{self.rank.char}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def index(self) -> int:
        """0..51: spades ace = 0 ... clubs two = 51 (PBN order, high cards first)."""
        return list(Suit).index(self.suit) * 13 + (14 - self.rank.value)

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError(f"card index out of range: {index}")
        return cls(list(Suit)[index // 13], Rank(14 - index % 13))


FULL_PACK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
"""All 52 cards in PBN order (spades ace first, clubs two last)."""


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards of one player: at most 13, possibly fewer for a partly known deal."""

    cards: frozenset[Card]
    """The cards held."""

    def __post_init__(self) -> None:
        if len(self.cards) > 13:
            raise CardError(f"a hand has at most 13 cards, this one has {len(self.cards)}")

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        cards = list(cards)
        unique = frozenset(cards)
        if len(unique) != len(cards):
            raise CardError("a hand holds the same card twice")
        return cls(unique)

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """A hand from PBN ``"AKQ.T98.765.432"`` (suits S.H.D.C); ``"-"`` is empty."""
        t = text.strip()
        if t == "-":
            return cls(frozenset())
        parts = t.split(".")
        if len(parts) != 4:
            raise CardError(f"not a hand: {text!r} (expected 4 suits separated by dots)")
        cards: list[Card] = []
        for suit, holding in zip(Suit, parts, strict=True):
            h = holding.upper().replace("10", "T")
            for char in h:
                cards.append(Card(suit, Rank.parse(char)))
        try:
            return cls.of(cards)
        except CardError as exc:
            raise CardError(f"not a hand: {text!r} ({exc})") from None

    def to_pbn(self) -> str:
        """The PBN spelling, suits S.H.D.C, ranks high to low; ``"-"`` for an empty hand."""
        if not self.cards:
            return "-"
        return ".".join("".join(r.char for r in self.holding(s)) for s in Suit)

    def holding(self, suit: Suit) -> tuple[Rank, ...]:
        """The ranks held in ``suit``, highest first."""
        return tuple(sorted((c.rank for c in self.cards if c.suit is suit), reverse=True))

    def length(self, suit: Suit) -> int:
        return sum(1 for c in self.cards if c.suit is suit)

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Suit lengths in the order S, H, D, C."""
        s, h, d, c = (self.length(x) for x in Suit)
        return (s, h, d, c)

    @property
    def hcp(self) -> int:
        """High-card points (A=4, K=3, Q=2, J=1)."""
        return sum(c.rank.hcp for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(sorted(self.cards))

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand.from_pbn({self.to_pbn()!r})"


@dataclass(frozen=True, slots=True)
class Deal:
    """The four hands of a board. Hands are disjoint; a complete deal has 13 cards in each."""

    north: Hand
    east: Hand
    south: Hand
    west: Hand

    def __post_init__(self) -> None:
        seen: set[Card] = set()
        for hand in (self.north, self.east, self.south, self.west):
            dup = seen & hand.cards
            if dup:
                names = ", ".join(sorted(str(c) for c in dup))
                raise CardError(f"a card is in two hands: {names}")
            seen |= hand.cards

    @classmethod
    def from_hands(cls, hands: Mapping[Seat, Hand]) -> Self:
        empty = Hand(frozenset())
        return cls(
            hands.get(Seat.NORTH, empty),
            hands.get(Seat.EAST, empty),
            hands.get(Seat.SOUTH, empty),
            hands.get(Seat.WEST, empty),
        )

    @classmethod
    def from_pbn(cls, text: str) -> Self:
        """A deal from the PBN ``Deal`` tag value ``"N:AKQ... ... ... ..."``.

        The first letter names the seat of the first hand; the others follow clockwise.
        """
        t = text.strip()
        if len(t) < 2 or t[1] != ":":
            raise CardError(f"not a PBN deal: {text!r} (expected e.g. 'N:AKQ.xx... ...')")
        first = Seat.parse(t[0])
        parts = t[2:].split()
        if len(parts) != 4:
            raise CardError(f"not a PBN deal: {text!r} (expected 4 hands, found {len(parts)})")
        hands = {
            seat: Hand.from_pbn(p)
            for seat, p in zip(Seat.clockwise_from(first), parts, strict=True)
        }
        return cls.from_hands(hands)

    def to_pbn(self, first: Seat = Seat.NORTH) -> str:
        """The PBN ``Deal`` tag value, starting with ``first`` (PBN export: the dealer)."""
        hands = " ".join(self[s].to_pbn() for s in Seat.clockwise_from(first))
        return f"{first.value}:{hands}"

    def __getitem__(self, seat: Seat) -> Hand:
        return (self.north, self.east, self.south, self.west)[seat.number]

    def hands(self) -> dict[Seat, Hand]:
        return {s: self[s] for s in Seat}

    @property
    def is_complete(self) -> bool:
        """True when every hand holds 13 cards."""
        return all(len(self[s]) == 13 for s in Seat)

    def owner(self, card: Card) -> Seat | None:
        """The seat holding ``card``, or None when it is in no hand."""
        for seat in Seat:
            if card in self[seat]:
                return seat
        return None

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"


class Vulnerability(StrEnum):
    """Vulnerability of a board; the value is its PBN spelling."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """Reads the PBN values and their common aliases (``Love``, ``-``, ``Both``)."""
        t = text.strip().lower()
        aliases = {
            "none": cls.NONE,
            "love": cls.NONE,
            "-": cls.NONE,
            "ns": cls.NS,
            "ew": cls.EW,
            "all": cls.ALL,
            "both": cls.ALL,
        }
        if t not in aliases:
            raise CardError(f"not a vulnerability: {text!r} (expected None, NS, EW or All)")
        return aliases[t]

    def is_vulnerable(self, seat: Seat) -> bool:
        """Whether the side of ``seat`` is vulnerable."""
        return self is Vulnerability.ALL or self.value == seat.side
