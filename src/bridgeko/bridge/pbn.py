r"""Read and write PBN 2.1 (Portable Bridge Notation) files.

The file format is kept apart from the model: a :class:`PbnGame` is the ordered list of tag pairs of
one game (with the section data and commentary that follow each tag), and typed accessors turn the
tag values into bridge values (:class:`~bridgeko.bridge.cards.Deal`,
:class:`~bridgeko.bridge.result.BoardResult`, :class:`~bridgeko.bridge.ddtable.DDTable` ...).

Reading follows the PBN 2.1 *import* format (tags in any order, several on a line, ``%`` escape
lines, ``;`` and ``{}`` commentary, ``#`` and ``##`` tag value inheritance, PBN 2.1 §4.8).
:func:`parse` never raises anything but :class:`PbnError`; with ``lenient=True`` it skips a bad
game instead and says so in :attr:`PbnFile.problems`.

>>> f = parse('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
...           '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
...           '[Declarer "S"]\n[Contract "3NTX"]\n[Result "10"]\n')
>>> game = f.games[0]
>>> game.board, game.dealer, game.vulnerability
(1, <Seat.NORTH: 'N'>, <Vulnerability.NONE: 'None'>)
>>> str(game.result)
'3NTX S +1'

End positions (PBN 2.1 §3.10) are read: a game whose Deal tag gives fewer than 13 cards to every
hand (:attr:`PbnGame.is_end_position`; :attr:`PbnGame.deal` is then a partial :class:`Deal`,
``deal.is_complete`` False) has a denomination only as its Contract (``"S"``, ``"NT"``:
:attr:`PbnGame.trump`), no :attr:`~PbnGame.contract` and no :attr:`~PbnGame.result`; it is
written back as read. What needs a whole deal (dealing machines, loading the deals played,
``verify-deal``) takes :attr:`PbnGame.complete_deal`, which refuses an end position naming its
board and line; the analysis leaves incomplete deals out.

>>> ending = parse('[Board "1"]\n[Deal "N:A... K... Q... J..."]\n[Contract "NT"]\n').games[0]
>>> ending.is_end_position, ending.trump, ending.contract
(True, <Strain.NOTRUMP: 'NT'>, None)

Writing produces the *export* format (§2.3, §3.4): ``% PBN 2.1`` and ``% EXPORT`` header lines,
CRLF line ends, the 15 tags of the mandatory tag set in their fixed order (``"?"`` when unknown),
the supplemental tags sorted by name, then the auction, play and supplemental sections.

>>> text = dumps([game])
>>> text.splitlines()[:4]
['% PBN 2.1', '% EXPORT', '[Event "?"]', '[Site "?"]']
>>> parse(text).games[0].result == game.result
True

Choices where the standard leaves room (also in the project report):

* ``#`` with no earlier value: the standard gives ``""``; strict mode rejects the file instead (it
  is almost always a truncated or mis-ordered file), lenient mode applies the standard's ``""``
  and records a problem.
* A tag repeated in one game is ignored, as the standard says for import format (``Note`` may
  repeat); a problem is recorded.
* ``OptimumResultTable`` is written as ``Declarer;Denomination\2R;Result\2R`` with the rows in the
  order N, S, E, W x NT, S, H, D, C (as Bridge Composer / DDS tools write it); any order is read.
  ``OptimumScore`` is written ``"NS <score>"`` (North-South's view) and ``ParContract`` (not part
  of the PBN 2.1 text, a de-facto tag of Bridge Composer and DDS tools) as ``"NS 4S"``,
  ``"EW 5DX-2"``, contracts separated by ``"; "``.
* A value that starts with ``#`` (an event called "#1") is written with a leading space, as
  PBN has no escape for it; the typed accessors strip it.
* Text is :class:`str`. PBN 2.1 says ISO 8859-1, which cannot hold Czech names (č, ř, ě):
  bridgeko writes files in UTF-8 (:data:`ENCODING`; ASCII text is the same in both) and
  :func:`decode` reads UTF-8, Windows-1250 and ISO 8859-1 files, with or without a byte order
  mark.

Making games: :func:`game_for_board` (one table), :func:`games_for_board` (Open and Closed rooms),
:func:`write_board` (their text); :func:`boards` groups games read back by board and room.
:func:`iter_dumps` gives the text a game at a time, for a long file written as it is made.

Speed: export checks a ``Deal`` value already in the canonical spelling as text instead of
parsing it into cards and writing it back, and reading builds hands from cached per-suit card
sets; both hand anything else to the general path (``Deal.from_pbn``/``to_pbn``) and give the
same text and the same errors (``benchmarks/bench_pbn.py`` measures both paths).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache

from bridgeko.bridge import board as _board
from bridgeko.bridge.cards import FULL_PACK, Card, Deal, Hand, Seat, Strain, Suit, Vulnerability
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.bridge.errors import BridgeInputError, LineError, Problem
from bridgeko.bridge.result import BoardResult
from bridgeko.bridge.scoring import result_score

__all__ = [
    "DECODINGS",
    "ENCODING",
    "MANDATORY_TAGS",
    "PbnError",
    "PbnFile",
    "PbnGame",
    "Problem",
    "TagPair",
    "boards",
    "decode",
    "dumps",
    "game_for_board",
    "games_for_board",
    "iter_dumps",
    "parse",
    "write_board",
    "write_game",
]

MANDATORY_TAGS: tuple[str, ...] = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
"""The 15 tags of the PBN mandatory tag set, in the export order (PBN 2.1 §3.4)."""

NO_INHERITANCE: frozenset[str] = frozenset(
    {"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"}
)
"""Tags whose value may not be ``#`` or ``##...`` (PBN 2.1 §4.8)."""

ORT_HEADER = "Declarer;Denomination\\2R;Result\\2R"
"""The column specification written for the ``OptimumResultTable`` section."""

_ORT_SEATS: tuple[Seat, ...] = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_ORT_STRAINS: tuple[Strain, ...] = (
    Strain.NOTRUMP,
    Strain.SPADES,
    Strain.HEARTS,
    Strain.DIAMONDS,
    Strain.CLUBS,
)
_PLAYER_TAGS: dict[Seat, str] = {
    Seat.WEST: "West",
    Seat.NORTH: "North",
    Seat.EAST: "East",
    Seat.SOUTH: "South",
}
_SECTION_TAGS = frozenset({"Auction", "Play"})
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_BLANKS = " \t\v\f"
_TOKEN_STOP = frozenset(' \t\v\f[]{};"')
_SEAT_LETTERS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_DD_DIGITS = "0123456789abcd"

_Fail = Callable[[str], "PbnError"]
"""Makes the error for a bad value; the value helpers call it with the message."""


class PbnError(LineError):
    """A PBN file that cannot be read; :attr:`line` is the 1-based line of the problem."""


@dataclass(frozen=True, slots=True)
class TagPair:
    """One tag pair, with the section data and commentary that follow it."""

    name: str
    """The tag name, e.g. ``"Deal"``."""
    value: str
    """The tag value, escapes resolved and ``#`` inheritance already applied."""
    rows: tuple[tuple[str, ...], ...] = ()
    """Section data after the tag (auction calls, played cards, table rows), one tuple a line."""
    comments: tuple[str, ...] = ()
    """Commentary after the tag, with its delimiters (``"{...}"`` or ``"; ..."``)."""
    line: int = field(default=0, compare=False)
    """The line of the tag in the file read; 0 for a tag made in code."""


@dataclass(frozen=True, slots=True)
class PbnGame:
    """One PBN game: tag pairs in file order and the commentary before the first tag."""

    tags: tuple[TagPair, ...]
    """The tag pairs, in order; a name occurs once except ``Note``."""
    comments: tuple[str, ...] = ()
    """Commentary before the first tag."""
    line: int = field(default=0, compare=False)
    """The line where the game starts in the file read; 0 for a game made in code."""

    # -- raw access ---------------------------------------------------------------------------
    def tag(self, name: str) -> TagPair | None:
        """The first tag pair called ``name``, or None."""
        for t in self.tags:
            if t.name == name:
                return t
        return None

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name``, or ``default`` when the game has no such tag."""
        t = self.tag(name)
        return default if t is None else t.value

    def __getitem__(self, name: str) -> str:
        t = self.tag(name)
        if t is None:
            raise KeyError(name)
        return t.value

    def __contains__(self, name: object) -> bool:
        return any(t.name == name for t in self.tags)

    def section(self, name: str) -> tuple[tuple[str, ...], ...]:
        """The section rows after tag ``name`` (empty when there are none)."""
        t = self.tag(name)
        return () if t is None else t.rows

    def with_tag(self, name: str, value: str, rows: tuple[tuple[str, ...], ...] = ()) -> PbnGame:
        """A copy with tag ``name`` set to ``value`` (replaced in place, or appended)."""
        new = TagPair(name, value, rows)
        tags = list(self.tags)
        for i, t in enumerate(tags):
            if t.name == name:
                tags[i] = replace(new, comments=t.comments)
                return replace(self, tags=tuple(tags))
        return replace(self, tags=(*tags, new))

    def _known(self, name: str) -> str | None:
        """The value of ``name``, or None when missing, ``"?"`` (unknown) or ``""``."""
        v = self.get(name)
        if v is None:
            return None
        v = v.strip()
        return None if v in ("", "?") else v

    def _fail(self, name: str, message: str) -> PbnError:
        t = self.tag(name)
        return PbnError(t.line if t is not None and t.line else self.line, message)

    # -- typed accessors ----------------------------------------------------------------------
    @property
    def event(self) -> str | None:
        return self._known("Event")

    @property
    def site(self) -> str | None:
        return self._known("Site")

    @property
    def date(self) -> str | None:
        """The Date tag value (``"YYYY.MM.DD"``), None when unknown."""
        return self._known("Date")

    @property
    def scoring(self) -> str | None:
        return self._known("Scoring")

    @property
    def players(self) -> dict[Seat, str]:
        """The names given in the West/North/East/South tags (unknown seats left out)."""
        out: dict[Seat, str] = {}
        for seat, name in _PLAYER_TAGS.items():
            v = self._known(name)
            if v is not None:
                out[seat] = v
        return out

    @property
    def board(self) -> int | None:
        """The board number, None when unknown."""
        v = self._known("Board")
        if v is None:
            return None
        n = _int(v)
        if n is None or n < 1 or not v[:1].isdigit():
            raise self._fail("Board", f"the Board tag must be a positive whole number, not {v!r}")
        return n

    @property
    def dealer(self) -> Seat | None:
        v = self._known("Dealer")
        if v is None:
            return None
        return _seat(v, lambda m: self._fail("Dealer", f"Dealer: {m}"))

    @property
    def vulnerability(self) -> Vulnerability | None:
        v = self._known("Vulnerable")
        if v is None:
            return None
        try:
            return Vulnerability.parse(v)
        except BridgeInputError:
            raise self._fail(
                "Vulnerable",
                f"unknown vulnerability {v!r} (expected None, NS, EW or All; also Love, -, Both)",
            ) from None

    @property
    def deal(self) -> Deal | None:
        v = self._known("Deal")
        if v is None:
            return None
        try:
            return _deal_from_text(v)
        except BridgeInputError as exc:
            raise self._fail("Deal", f"bad Deal {v!r}: {exc}") from None

    @property
    def is_end_position(self) -> bool:
        """Whether the game is an end position (PBN 2.1 §3.10): its Deal tag gives fewer than
        13 cards to every hand. Its Contract tag is then a denomination only (``"S"``,
        ``"NT"``: :attr:`trump`), its play section starts with the first trick of the ending,
        and it has no :attr:`contract` or :attr:`result`."""
        v = self._known("Deal")
        if v is None or not _short_hands(v):  # the usual case, told from the text alone
            return False
        deal = self.deal
        return deal is not None and max(len(deal[s]) for s in Seat) < 13

    @property
    def contract(self) -> Contract | None:
        """The contract; None when unknown, and in an end position (see :attr:`trump`)."""
        v = self._known("Contract")
        if v is None:
            return None
        if _denomination(v) is not None:
            if self.is_end_position:
                return None
            raise self._fail(
                "Contract",
                f"bad Contract {v!r}: a denomination alone is the contract of an end position "
                "(PBN 2.1 §3.10: fewer than 13 cards in every hand of the Deal), and this "
                "game's Deal is not one",
            )
        try:
            return Contract.parse(v)
        except BridgeInputError as exc:
            raise self._fail("Contract", f"bad Contract: {exc}") from None

    @property
    def trump(self) -> Strain | None:
        """The denomination played: the contract's, or the one an end position's Contract tag
        gives (``"S"`` -> spades, ``"NT"`` -> notrump); None when unknown or passed out."""
        v = self._known("Contract")
        if v is None:
            return None
        strain = _denomination(v)
        if strain is not None and self.is_end_position:
            return strain
        contract = self.contract
        return None if contract is None else contract.strain

    @property
    def complete_deal(self) -> Deal | None:
        """The deal, for the uses that need one with 13 cards in each hand (dealing machines,
        double-dummy analysis, loading the deals played); None when the game has no Deal tag.
        Raises :class:`PbnError` with a clear message for an end position or a deal missing
        cards."""
        deal = self.deal
        if deal is None or deal.is_complete:
            return deal
        counts = "/".join(str(len(deal[s])) for s in Seat)
        if self.is_end_position:
            raise self._fail(
                "Deal",
                f"board {self.board or '?'} is an end position (PBN 2.1 §3.10; {counts} cards "
                "in N/E/S/W), not a whole deal",
            )
        raise self._fail(
            "Deal",
            f"board {self.board or '?'} is not a whole deal ({counts} cards in N/E/S/W, not 13 "
            "each)",
        )

    @property
    def declarer(self) -> Seat | None:
        """The declarer (a leading ``^``, declarer and dummy swapped, is dropped)."""
        v = self._known("Declarer")
        if v is None:
            return None
        return _seat(v.removeprefix("^"), lambda m: self._fail("Declarer", f"Declarer: {m}"))

    @property
    def result(self) -> BoardResult | None:
        """The result at this table from the Contract, Declarer and Result tags.

        None when the contract, the declarer or the number of tricks is unknown, and in an end
        position (its Result, if any, counts the tricks of the ending only).
        """
        contract = self.contract
        if contract is None or self.is_end_position:
            return None
        if contract.is_passed_out:
            if self._known("Result") is not None:
                raise self._fail("Result", 'a passed-out board has no Result (write "")')
            return BoardResult.passed_out()
        declarer = self.declarer
        raw = self._known("Result")
        if declarer is None or raw is None:
            return None
        tricks = _declarer_tricks(raw, declarer, lambda m: self._fail("Result", m))
        return BoardResult(contract, declarer, tricks)

    @property
    def room(self) -> str | None:
        """``"Open"`` or ``"Closed"`` (teams), None when not given."""
        v = self._known("Room")
        if v is None:
            return None
        for room in ("Open", "Closed"):
            if v.lower() == room.lower():
                return room
        raise self._fail("Room", f"the Room tag is Open or Closed, not {v!r}")

    @property
    def dd_table(self) -> DDTable | None:
        """Double-dummy tricks from the OptimumResultTable section (or DoubleDummyTricks tag)."""
        t = self.tag("OptimumResultTable")
        if t is not None and (t.rows or t.value.strip() not in ("", "?")):
            return _parse_ort(t, lambda m: self._fail("OptimumResultTable", m))
        v = self._known("DoubleDummyTricks")
        if v is not None:
            return _parse_dd_tricks(v, lambda m: self._fail("DoubleDummyTricks", m))
        return None

    @property
    def par(self) -> Par | None:
        """Par from the OptimumScore tag (score, NS view) and the ParContract tag."""
        score = self._known("OptimumScore")
        if score is None:
            return None
        ns = _parse_ns_score(score, lambda m: self._fail("OptimumScore", m))
        contracts: tuple[ParContract, ...] = ()
        pc = self._known("ParContract")
        if pc is not None:
            contracts = _parse_par_contracts(pc, lambda m: self._fail("ParContract", m))
        return Par(ns, contracts)

    @property
    def score(self) -> int | None:
        """The Score tag as North-South's score (``"NS 420"``, ``"EW 100"``, or declarer's)."""
        v = self._known("Score")
        if v is None:
            return None
        parts = v.split()
        if len(parts) == 1:
            n, decl = _int(parts[0]), self.declarer
            if n is not None and decl is not None:
                return n if decl.side == "NS" else -n
            raise self._fail("Score", f'bad Score {v!r} (expected e.g. "NS 420")')
        return _parse_ns_score(v, lambda m: self._fail("Score", m.replace("OptimumScore", "Score")))

    @property
    def notes(self) -> dict[int, str]:
        """The Note tags as ``{index: text}``."""
        out: dict[int, str] = {}
        for t in self.tags:
            if t.name == "Note":
                idx, _, text = t.value.partition(":")
                n = _int(idx)
                if n is not None:
                    out[n] = text
        return out

    def validate(self) -> None:
        """Read every typed tag once; raise :class:`PbnError` naming the line of a bad one."""
        _ = (self.board, self.dealer, self.vulnerability, self.deal, self.result, self.room)
        _ = (self.dd_table, self.par, self.trump)


@dataclass(frozen=True, slots=True)
class PbnFile:
    """What :func:`parse` read: the games, and what it could not read."""

    games: tuple[PbnGame, ...]
    problems: tuple[Problem, ...] = ()
    """Skipped games and repairs, with their lines."""
    version: str | None = None
    """The version of a ``% PBN x.y`` header line, e.g. ``"2.1"``."""
    export: bool = False
    """Whether the file says ``% EXPORT``."""
    comments: tuple[str, ...] = ()
    """Commentary standing alone between games (not part of any game)."""


# ---------------------------------------------------------------------------------------------
# Value helpers

# Deals as text, fast. Export writes a Deal tag for every game and reading checks one in every
# game, so these avoid building Card objects from text (and text from Card objects) one character
# at a time. Each fast path gives exactly what the general one (Deal.from_pbn / Deal.to_pbn)
# gives, and hands anything it does not recognise to the general one.

_RANKS = "AKQJT98765432"
_HOLDING = r"A?K?Q?J?T?9?8?7?6?5?4?3?2?"
_HAND = rf"(?:-|{_HOLDING}\.{_HOLDING}\.{_HOLDING}\.{_HOLDING})"
_CANONICAL_DEAL = re.compile(rf"([NESW]):({_HAND}) ({_HAND}) ({_HAND}) ({_HAND})")
"""A Deal value as :meth:`Deal.to_pbn` writes it (apart from ``"..."`` for an empty hand)."""
_SUIT_SHIFT: dict[Suit, int] = {suit: 13 * k for k, suit in enumerate(Suit)}
_SEAT_AT: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_RANK_AT: dict[str, int] = {c: k for k, c in enumerate(_RANKS)}


@cache
def _holding_texts() -> tuple[str, ...]:
    """The ranks (``"AK2"``) held in one suit, indexed by a 13-bit mask (bit 0 = the ace)."""
    return tuple("".join(c for k, c in enumerate(_RANKS) if mask >> k & 1) for mask in range(8192))


def _hand_text(cards: frozenset[Card]) -> str:
    """``Hand(cards).to_pbn()``, from a 52-bit mask and a table instead of sorting cards."""
    if not cards:
        return "-"
    mask, shift = 0, _SUIT_SHIFT
    for c in cards:
        mask |= 1 << (shift[c.suit] + 14 - c.rank)
    t = _holding_texts()
    return f"{t[mask & 8191]}.{t[mask >> 13 & 8191]}.{t[mask >> 26 & 8191]}.{t[mask >> 39]}"


def _deal_text(deal: Deal, first: Seat = Seat.NORTH) -> str:
    """``deal.to_pbn(first=first)``, faster."""
    hands = (deal.north, deal.east, deal.south, deal.west)
    k = first.number
    texts = [_hand_text(hands[(k + i) % 4].cards) for i in range(4)]
    return f"{first.value}:{' '.join(texts)}"


def _canonical_hands(text: str) -> tuple[Seat, tuple[str, str, str, str]] | None:
    """The first seat and the four hands of a Deal value that :meth:`Deal.from_pbn` reads and
    :meth:`Deal.to_pbn` writes back unchanged (a valid deal, spelt canonically); None otherwise.
    """
    m = _CANONICAL_DEAL.fullmatch(text)
    if m is None:
        return None
    first, n, e, s, w = m.groups()
    hands = (n, e, s, w)
    for h in hands:
        if h == "..." or len(h) > 16:  # an empty hand is "-"; at most 13 cards and 3 dots
            return None
    split = [h.split(".") if h != "-" else ["", "", "", ""] for h in hands]
    for k in range(4):
        suit = split[0][k] + split[1][k] + split[2][k] + split[3][k]
        if len(set(suit)) != len(suit):  # a card in two hands
            return None
    return _SEAT_LETTERS[first], hands


class _SuitCardSets(dict[tuple[int, str], frozenset[Card]]):
    """``(suit number, "AK2")`` -> the frozenset of those cards, made on first use.

    A hand made as the union of these reuses the cards' stored hashes (the cost of a hand made
    card by card)."""

    def __missing__(self, key: tuple[int, str]) -> frozenset[Card]:
        base, ranks = 13 * key[0], key[1]
        cards = frozenset(FULL_PACK[base + _RANK_AT[c]] for c in ranks)
        self[key] = cards
        return cards


_SUIT_CARDS = _SuitCardSets()


@lru_cache(maxsize=4096)
def _deal_from_text(text: str) -> Deal:
    """``Deal.from_pbn(text)``: the same deal, or the same error, faster for canonical text.

    Cached: a game's deal is read when it is checked, exported and used (immutable values).
    """
    found = _canonical_hands(text)
    if found is None:
        return Deal.from_pbn(text)
    first, texts = found
    hands: list[Hand] = []
    for h in texts:
        if h == "-":
            hands.append(Hand(frozenset()))
            continue
        s, he, d, c = h.split(".")
        suits = _SUIT_CARDS
        hands.append(Hand(suits[0, s].union(suits[1, he], suits[2, d], suits[3, c])))
    k = first.number
    by_seat = {_SEAT_AT[(k + i) % 4]: hand for i, hand in enumerate(hands)}
    return Deal(by_seat[Seat.NORTH], by_seat[Seat.EAST], by_seat[Seat.SOUTH], by_seat[Seat.WEST])


_DENOMINATIONS: dict[str, Strain] = {
    "S": Strain.SPADES,
    "H": Strain.HEARTS,
    "D": Strain.DIAMONDS,
    "C": Strain.CLUBS,
    "NT": Strain.NOTRUMP,
    "N": Strain.NOTRUMP,
}


def _short_hands(text: str) -> bool:
    """Whether a Deal value may be an end position: no hand spelled with 13 cards or more
    (the deal itself is checked when it may be one)."""
    hands = text.strip()[2:].split()
    return all(len(h.replace("10", "T")) - h.count(".") - h.count("-") < 13 for h in hands)


def _denomination(text: str) -> Strain | None:
    """The strain of an end position's Contract value (``"S"``, ``"nt"``), else None."""
    return _DENOMINATIONS.get(text.strip().upper())


def _seat(text: str, fail: _Fail) -> Seat:
    key = text.strip().upper()
    if key not in _SEAT_LETTERS:
        raise fail(f"expected N, E, S or W, not {text!r}")
    return _SEAT_LETTERS[key]


_MAX_DIGITS = 100
"""The longest number (leading zeros aside) the reader converts: every number of a PBN file is a
few digits; a longer one is a bad value (and would exceed Python's limit for ``int(str)``)."""


def _int(text: str) -> int | None:
    """An optionally signed ASCII whole number, or None (also for more than ``_MAX_DIGITS``).

    >>> _int(" -12 "), _int("+0007"), _int("1" * 5000), _int("0" * 5000 + "3"), _int("٣")
    (-12, 7, None, 3, None)
    """
    t = text.strip()
    digits = t[1:] if t[:1] in ("-", "+") else t
    if not digits or not all("0" <= c <= "9" for c in digits):
        return None
    digits = digits.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return None
    return -int(digits) if t[:1] == "-" else int(digits)


def _digits(text: str) -> int | None:
    """``int(text)`` for a regular expression's ``[+-]?\\d+`` match, None for more than
    ``_MAX_DIGITS`` digits (``int`` refuses over 4,300 and would raise ValueError)."""
    if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
        return None
    return int(text)


def _declarer_tricks(raw: str, declarer: Seat, fail: _Fail) -> int:
    """Tricks of the declarer from a Result value (``"9"``, ``"NS 9"``, ``"EW 4 NS 9"``)."""
    parts = raw.removeprefix("^").split()
    found: int | None = None
    if len(parts) == 1:
        found = _int(parts[0])
    elif len(parts) in (2, 4):
        for side, num in zip(parts[::2], parts[1::2], strict=True):
            n = _int(num)
            if side.upper() not in ("NS", "EW") or n is None:
                found = None
                break
            if side.upper() == declarer.side:
                found = n
            elif found is None and len(parts) == 2:
                found = 13 - n if 0 <= n <= 13 else n
    if found is None:
        raise fail(f"bad Result {raw!r} (expected the tricks won by declarer, 0 to 13)")
    if not 0 <= found <= 13:
        raise fail(f"Result {raw!r}: tricks must be 0 to 13")
    return found


def _strain(text: str) -> Strain | None:
    t = text.strip().upper()
    if t in ("N", "NT"):
        return Strain.NOTRUMP
    return {"S": Strain.SPADES, "H": Strain.HEARTS, "D": Strain.DIAMONDS, "C": Strain.CLUBS}.get(t)


def _columns(spec: str) -> list[tuple[str, int, str]]:
    """Column name tokens of a table tag value: ``[(name, min width, "L"/"R"), ...]``."""
    out: list[tuple[str, int, str]] = []
    for col in spec.split(";"):
        name, _, fmt = col.partition("\\")
        name = name.strip().lstrip("+-")
        m = re.match(r"^(\d+)([LR]?)", fmt)
        width, align = (_digits(m.group(1)) or 0, m.group(2) or "L") if m else (0, "L")
        out.append((name, width, align))
    return out


def _parse_ort(tag: TagPair, fail: _Fail) -> DDTable:
    cols = [name for name, _, _ in _columns(tag.value)] if tag.value.strip() else []
    if not {"Declarer", "Denomination", "Result"} <= set(cols):
        cols = ["Declarer", "Denomination", "Result"]
    i_decl, i_den, i_res = (cols.index(c) for c in ("Declarer", "Denomination", "Result"))
    tokens = [tok for row in tag.rows for tok in row]
    if len(tokens) % len(cols):
        raise fail(f"OptimumResultTable: {len(tokens)} values do not fill rows of {len(cols)}")
    tricks: dict[tuple[Seat, Strain], int] = {}
    for k in range(0, len(tokens), len(cols)):
        row = tokens[k : k + len(cols)]
        seat_txt, den_txt, res_txt = row[i_decl], row[i_den], row[i_res]
        seat = _SEAT_LETTERS.get(seat_txt.upper())
        strain = _strain(den_txt)
        n = _int(res_txt)
        if seat is None or strain is None or n is None or not 0 <= n <= 13:
            raise fail(f"OptimumResultTable: bad row {' '.join(row)!r}")
        if (seat, strain) in tricks:
            raise fail(f"OptimumResultTable: {seat.value} {strain.value} given twice")
        tricks[(seat, strain)] = n
    if len(tricks) != 20:
        raise fail(
            f"OptimumResultTable: 20 rows needed (4 declarers x 5 strains), {len(tricks)} found"
        )
    return DDTable(tricks)


def _parse_dd_tricks(value: str, fail: _Fail) -> DDTable:
    v = value.strip().lower()
    if len(v) != 20 or any(c not in _DD_DIGITS for c in v):
        raise fail(f"DoubleDummyTricks must be 20 digits 0-9, a-d, not {value!r}")
    it = iter(v)
    tricks = {(s, t): _DD_DIGITS.index(next(it)) for s in _ORT_SEATS for t in _ORT_STRAINS}
    return DDTable(tricks)


def _parse_ns_score(value: str, fail: _Fail) -> int:
    parts = value.split()
    if len(parts) == 1:
        n = _int(parts[0])
        if n is not None:
            return n
    elif len(parts) in (2, 4):
        side, num = parts[0].upper(), _int(parts[1])
        if side in ("NS", "EW") and num is not None:
            return num if side == "NS" else -num
    raise fail(f'bad OptimumScore {value!r} (expected e.g. "NS 420" or "EW 100")')


_PAR_ITEM = re.compile(r"^(?:([NESW]{1,4})\s+)?(.+?)\s*([+-]\d+)?$")


def _parse_par_contracts(value: str, fail: _Fail) -> tuple[ParContract, ...]:
    out: list[ParContract] = []
    for item in re.split(r"[;,]", value):
        item = item.strip()
        if not item:
            continue
        m = _PAR_ITEM.match(item.upper())
        if not m:
            raise fail(f"bad ParContract {item!r}")
        seats = tuple(_SEAT_LETTERS[c] for c in (m.group(1) or ""))
        try:
            contract = Contract.parse(m.group(2))
        except BridgeInputError as exc:
            raise fail(f"bad ParContract {item!r}: {exc}") from None
        over = _digits(m.group(3) or "0")
        if over is None:
            raise fail(f"bad ParContract {item!r}: too many over/undertricks")
        if contract.is_passed_out and over:
            raise fail(f"bad ParContract {item!r}: a passed-out par has no over/undertricks")
        out.append(ParContract(contract, seats, over))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Lexer


@dataclass(slots=True)
class _Event:
    kind: str  # "tag", "data", "comment"
    line: int
    name: str = ""
    value: str = ""


@dataclass(slots=True)
class _RawGame:
    line: int
    events: list[_Event]
    error: PbnError | None = None


_SIMPLE_TAG = re.compile(r'\[[ \t\v\f]*(\w+)[ \t\v\f]*"([^"\\]*)"[ \t\v\f]*\]', re.ASCII)
"""A tag pair on one line without escapes: read as :meth:`_Lexer._tag` reads it, faster."""
_TAG_LINE = re.compile(
    r'[ \t\v\f]*\[[ \t\v\f]*(\w+)[ \t\v\f]*"([^"\\]*)"[ \t\v\f]*\][ \t\v\f]*', re.ASCII
)
"""A line holding one such tag pair and nothing else."""


class _Lexer:
    def __init__(self, text: str) -> None:
        self.lines = _LINE_SPLIT.split(text)
        self.version: str | None = None
        self.export = False

    @staticmethod
    def blank(line: str) -> bool:
        return not line.strip(_BLANKS)

    def escape(self, line: str) -> None:
        m = re.match(r"^%\s*PBN\s+(\d+\.\d+)", line)
        if m and self.version is None:
            self.version = m.group(1)
        if re.match(r"^%\s*EXPORT\s*$", line):
            self.export = True

    def games(self) -> Iterator[_RawGame]:
        lines, n, i = self.lines, len(self.lines), 0
        while i < n:
            if self.blank(lines[i]):
                i += 1
                continue
            if lines[i].startswith("%"):
                self.escape(lines[i])
                i += 1
                continue
            game = _RawGame(i + 1, [])
            try:
                i = self._game(i, game.events)
            except PbnError as exc:
                game.error = exc
                i = max(i, exc.line)  # exc.line is 1-based: the next line to look at
                while i < n and not self.blank(lines[i]):
                    i += 1
            yield game

    def _game(self, i: int, events: list[_Event]) -> int:
        """Lex one game from line index ``i``; return the index of the line after it."""
        lines, n = self.lines, len(self.lines)
        j = 0
        while True:
            if j == 0:
                if i >= n:
                    return i
                m = _TAG_LINE.fullmatch(lines[i])
                if m is not None:  # the usual line: one tag pair and nothing else
                    events.append(_Event("tag", i + 1, name=m.group(1), value=m.group(2)))
                    i += 1
                    continue
                if self.blank(lines[i]):
                    return i
                if lines[i].startswith("%"):
                    self.escape(lines[i])
                    i += 1
                    continue
            line = lines[i]
            while j < len(line) and line[j] in _BLANKS:
                j += 1
            if j >= len(line):
                i, j = i + 1, 0
                continue
            c = line[j]
            if c == ";":
                events.append(_Event("comment", i + 1, value=line[j:]))
                i, j = i + 1, 0
            elif c == "{":
                i, j = self._brace(i, j, events)
            elif c == "[":
                m = _SIMPLE_TAG.match(line, j)
                if m is not None:  # the usual case: one tag pair, on one line, nothing escaped
                    events.append(_Event("tag", i + 1, name=m.group(1), value=m.group(2)))
                    j = m.end()
                else:
                    i, j = self._tag(i, j, events)
            elif c in "]}":
                raise PbnError(i + 1, f"{c!r} without an opening {'[' if c == ']' else '{'!r}")
            elif c == '"':
                _, end = self._string(i, j, "section data")
                events.append(_Event("data", i + 1, value=line[j:end]))
                j = end
            else:
                k = j
                while k < len(line) and line[k] not in _TOKEN_STOP:
                    k += 1
                events.append(_Event("data", i + 1, value=line[j:k]))
                j = k

    def _brace(self, i: int, j: int, events: list[_Event]) -> tuple[int, int]:
        start, parts = i, []
        line = self.lines[i]
        k = line.find("}", j + 1)
        while k < 0:
            parts.append(line[j:])
            i, j = i + 1, 0
            if i >= len(self.lines):
                raise PbnError(start + 1, "a comment opened with '{' is never closed with '}'")
            line = self.lines[i]
            k = line.find("}")
        parts.append(line[j : k + 1])
        events.append(_Event("comment", start + 1, value="\n".join(parts)))
        return i, k + 1

    def _skip(self, i: int, j: int, what: str, start: int) -> tuple[int, int]:
        """Skip white space, across line ends, inside a tag pair."""
        while True:
            line = self.lines[i]
            while j < len(line) and line[j] in _BLANKS:
                j += 1
            if j < len(line):
                return i, j
            i, j = i + 1, 0
            if i >= len(self.lines) or self.blank(self.lines[i]):
                raise PbnError(start + 1, f"{what}: missing closing bracket ']'")

    def _string(self, i: int, j: int, what: str) -> tuple[str, int]:
        """Read the string token starting at the quote at (i, j); return (value, end column)."""
        line, out, k = self.lines[i], [], j + 1
        while k < len(line):
            c = line[k]
            if c == "\\" and k + 1 < len(line) and line[k + 1] in '"\\':
                out.append(line[k + 1])
                k += 2
            elif c == '"':
                return "".join(out), k + 1
            else:
                out.append(c)
                k += 1
        raise PbnError(i + 1, f"unterminated quote in {what} (a string ends on its own line)")

    def _tag(self, i: int, j: int, events: list[_Event]) -> tuple[int, int]:
        start = i
        i, j = self._skip(i, j + 1, "tag pair opened with '['", start)
        line = self.lines[i]
        k = j
        while k < len(line) and line[k] in _NAME_CHARS:
            k += 1
        name = line[j:k]
        if not name:
            raise PbnError(i + 1, f"expected a tag name after '[', found {line[j : j + 10]!r}")
        i, j = self._skip(i, k, f"tag {name}", start)
        line = self.lines[i]
        if line[j] != '"':
            raise PbnError(
                i + 1, f"tag {name}: expected a quoted value, found {line[j : j + 10]!r}"
            )
        value, j = self._string(i, j, f"the value of tag {name}")
        tag_line = i + 1
        i, j = self._skip(i, j, f"tag {name}", i)
        if self.lines[i][j] != "]":
            raise PbnError(tag_line, f"tag {name}: missing closing bracket ']' after the value")
        events.append(_Event("tag", tag_line, name=name, value=value))
        return i, j + 1


# ---------------------------------------------------------------------------------------------
# Parser


class _Inheritance:
    """The ``#`` / ``##`` state carried from game to game (PBN 2.1 §4.8)."""

    def __init__(self) -> None:
        self.last: dict[str, str] = {}
        self.defaults: dict[str, str] = {}

    def copy(self) -> _Inheritance:
        new = _Inheritance()
        new.last, new.defaults = dict(self.last), dict(self.defaults)
        return new


def _build(raw: _RawGame, state: _Inheritance, lenient: bool, problems: list[Problem]) -> PbnGame:
    leading: list[str] = []
    tags: list[TagPair] = []
    rows: list[list[str]] = []
    row_lines: list[int] = []
    comments: list[str] = []
    current: int | None = None  # index in tags of the tag that owns data and comments
    ignoring = False

    names: set[str] = set()

    def close() -> None:
        if current is not None and not ignoring and (rows or comments):
            t = tags[current]
            tags[current] = replace(t, rows=tuple(tuple(r) for r in rows), comments=tuple(comments))

    for ev in raw.events:
        if ev.kind == "tag":
            close()
            rows, row_lines, comments = [], [], []
            name, value = ev.name, ev.value
            if name != "Note" and name in names:
                problems.append(
                    Problem(ev.line, f"tag {name} repeated in one game; the repeat is ignored")
                )
                ignoring = True
                continue
            ignoring = False
            if value == "#" or value.startswith("##"):
                if name in NO_INHERITANCE:
                    raise PbnError(ev.line, f"tag {name} may not inherit its value with '#'")
                if value == "#":
                    if name in state.last:
                        value = state.last[name]
                    elif lenient:
                        problems.append(
                            Problem(ev.line, f"'#' for {name} with no earlier value; set to \"\"")
                        )
                        value = ""
                    else:
                        raise PbnError(
                            ev.line,
                            f"tag {name} has the value '#' but no earlier game gives a "
                            f"value for {name}",
                        )
                else:
                    value = value[2:]
                    state.defaults[name] = value
            elif name in state.defaults:
                state.defaults[name] = value
            tags.append(TagPair(name, value, line=ev.line))
            names.add(name)
            current = len(tags) - 1
        elif ev.kind == "comment":
            if current is None:
                leading.append(ev.value)
            elif not ignoring:
                comments.append(ev.value)
        else:
            if current is None:
                raise PbnError(ev.line, f"text {ev.value[:20]!r} before the first tag of the game")
            if ignoring:
                continue
            if row_lines and row_lines[-1] == ev.line:
                rows[-1].append(ev.value)
            else:
                rows.append([ev.value])
                row_lines.append(ev.line)
    close()
    present = {t.name for t in tags}
    implicit = [
        TagPair(name, value, line=raw.line)
        for name, value in state.defaults.items()
        if name not in present
    ]
    game = PbnGame((*implicit, *tags), tuple(leading), raw.line)
    game.validate()
    for t in game.tags:
        state.last[t.name] = t.value
    return game


def parse(text: str, *, lenient: bool = False) -> PbnFile:
    r"""Read PBN text (import or export format) into games.

    Strict mode raises :class:`PbnError` at the first problem, naming its line; lenient mode skips
    a bad game, records a :class:`Problem` saying so, and goes on with the next game.

    >>> parse('[Board "1"]\n[Deal "N:AK - - -"]\n')
    Traceback (most recent call last):
    ...
    bridgeko.bridge.pbn.PbnError: line 2: bad Deal 'N:AK - - -': not a hand: 'AK' (...)
    >>> f = parse('[Board "1"]\n[Deal "N:AK - - -"]\n\n[Board "2"]\n', lenient=True)
    >>> [g.board for g in f.games]
    [2]
    >>> print(f.problems[0])
    line 2: skipped the game starting on line 1: bad Deal 'N:AK - - -': not a hand: 'AK' (...)
    """
    lexer = _Lexer(text)
    state = _Inheritance()
    games: list[PbnGame] = []
    problems: list[Problem] = []
    loose: list[str] = []
    for raw in lexer.games():
        try:
            if raw.error is not None:
                raise raw.error
            if not any(ev.kind != "comment" for ev in raw.events):
                loose.extend(ev.value for ev in raw.events)
                continue
            trial = state.copy()
            local: list[Problem] = []
            games.append(_build(raw, trial, lenient, local))
            state = trial
            problems.extend(local)
        except PbnError as exc:
            if not lenient:
                raise
            problems.append(
                Problem(
                    exc.line or raw.line,
                    f"skipped the game starting on line {raw.line}: {exc.reason}",
                )
            )
    return PbnFile(tuple(games), tuple(problems), lexer.version, lexer.export, tuple(loose))


def boards(games: PbnFile | Iterable[PbnGame]) -> dict[int, dict[str, PbnGame]]:
    r"""Games grouped by board number and room (``"Open"``, ``"Closed"``; ``""`` when no Room).

    Raises :class:`PbnError` when a board has two games for one room, or two rooms disagree on
    the deal.

    >>> text = dumps(games_for_board(5, Deal.from_pbn(
    ...     "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")))
    >>> sorted(boards(parse(text))[5])
    ['Closed', 'Open']
    """
    seq = games.games if isinstance(games, PbnFile) else tuple(games)
    out: dict[int, dict[str, PbnGame]] = {}
    for g in seq:
        number = g.board
        if number is None:
            continue
        rooms = out.setdefault(number, {})
        room = g.room or ""
        if room in rooms:
            raise PbnError(g.line, f"board {number} has two games for room {room or '(none)'!r}")
        for other in rooms.values():
            a, b = g.deal, other.deal
            if a is not None and b is not None and a != b:
                raise PbnError(g.line, f"board {number}: the rooms have different deals")
        rooms[room] = g
    return out


# ---------------------------------------------------------------------------------------------
# Writer


_PLAIN_VALUE = re.compile(r'(?!#)[^\\"\r\n\t\v\f]*')
"""A value written as it is between quotes (no escape, no control character, no leading #)."""


def _quote(value: str) -> str:
    """A PBN string token; a backslash is doubled only where it would be read as an escape.

    A value starting with ``#`` cannot be written as such (it would be read as inheritance); it
    gets a leading space, which the typed accessors ignore.
    """
    if _PLAIN_VALUE.fullmatch(value):
        return f'"{value}"'
    v = re.sub(r"[\r\n\t\v\f]", " ", value)
    if v.startswith("#"):
        v = " " + v
    out = ['"']
    for k, c in enumerate(v):
        if c == "\\":
            nxt = v[k + 1] if k + 1 < len(v) else ""
            out.append("\\\\" if nxt in ('"', "\\", "") else "\\")
        elif c == '"':
            out.append('\\"')
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _format_rows(tag: TagPair) -> list[str]:
    cols = _columns(tag.value) if tag.name.endswith("Table") else []
    lines: list[str] = []
    for row in tag.rows:
        if cols and len(row) == len(cols):
            cells = [
                tok.rjust(width) if align == "R" else tok.ljust(width)
                for tok, (_, width, align) in zip(row, cols, strict=True)
            ]
            lines.append(" ".join(cells).rstrip())
        else:
            lines.append(" ".join(row))
    return lines


def _emit(tag: TagPair, value: str | None = None) -> list[str]:
    out = [f"[{tag.name} {_quote(tag.value if value is None else value)}]"]
    out.extend(_format_rows(tag))
    for c in tag.comments:
        out.extend(c.split("\n"))
    return out


def _export_value(game: PbnGame, name: str) -> str:
    """The export spelling of mandatory tag ``name`` (``"?"`` when the game lacks it)."""
    raw = game.get(name)
    if raw is None:
        return "?"
    try:
        if name == "Vulnerable" and game.vulnerability is not None:
            return game.vulnerability.value
        if name == "Dealer" and game.dealer is not None:
            return game.dealer.value
        if name == "Deal" and game.deal is not None:
            return game.deal.to_pbn(first=game.dealer or Seat.NORTH)
        if name == "Contract" and _denomination(raw) is not None and game.is_end_position:
            return str(game.trump)  # PBN 2.1 §3.10: S, H, D, C or NT
        contract = game.contract
        if name == "Contract" and contract is not None:
            return str(contract)
        if contract is not None and contract.is_passed_out and name in ("Declarer", "Result"):
            return ""
        if name == "Result" and game.result is not None and game.result.tricks is not None:
            return str(game.result.tricks)
    except PbnError:
        return raw
    return raw


_VULNERABILITIES = frozenset(v.value for v in Vulnerability)


def _export_values(game: PbnGame, by_name: Mapping[str, TagPair]) -> dict[str, str]:
    """The export spelling of the mandatory tags that :func:`_export_value` may respell.

    The same values as :func:`_export_value` (the general path, kept as the reference), each
    computed once a game; a Deal value already in canonical form is checked as text, not parsed.
    Tags missing from the game are left out.
    """
    out: dict[str, str] = {}
    deal = by_name.get("Deal")
    if deal is not None:
        found = _canonical_hands(deal.value)
        if found is None:
            out["Deal"] = _export_value(game, "Deal")
        else:
            try:
                first = game.dealer or Seat.NORTH
            except PbnError:
                first = None
            start, hands = found
            if first is None or first is start:
                out["Deal"] = deal.value
            else:
                k = (first.number - start.number) % 4
                out["Deal"] = f"{first.value}:{' '.join(hands[k:] + hands[:k])}"
    for name, written in (("Dealer", _SEAT_LETTERS), ("Vulnerable", _VULNERABILITIES)):
        tag = by_name.get(name)
        if tag is not None:
            out[name] = tag.value if tag.value in written else _export_value(game, name)
    contract = by_name.get("Contract")
    unknown = contract is None or contract.value.strip() in ("", "?")
    for name in ("Contract", "Declarer", "Result"):
        tag = by_name.get(name)
        if tag is not None:
            # No contract: all three are written as they are (what _export_value gives too).
            out[name] = tag.value if unknown else _export_value(game, name)
    return out


def write_game(game: PbnGame, *, export: bool = True) -> list[str]:
    """The lines of one game (no line ends, no header, no separating blank line)."""
    lines: list[str] = []
    for c in game.comments:
        lines.extend(c.split("\n"))
    if not export:
        for t in game.tags:
            lines.extend(_emit(t))
        return lines
    by_name = {t.name: t for t in reversed(game.tags)}
    special = _export_values(game, by_name)
    for name in MANDATORY_TAGS:
        tag = by_name.get(name)
        if tag is None:
            lines.append(f'[{name} "?"]')
        elif not tag.rows and not tag.comments:
            lines.append(f"[{name} {_quote(special.get(name, tag.value))}]")
        else:
            lines.extend(_emit(tag, special.get(name, tag.value)))
    plain: list[TagPair] = []
    tables: list[TagPair] = []
    groups: dict[str, list[TagPair]] = {"Auction": [], "Play": []}
    owner: str | None = None
    for t in game.tags:
        if t.name in MANDATORY_TAGS:
            owner = None
            continue
        if t.name in _SECTION_TAGS:
            owner = t.name
            groups[owner].insert(0, t)
        elif t.name == "Note" and owner is not None:
            groups[owner].append(t)
        else:
            owner = None
            (tables if t.rows or t.name.endswith("Table") else plain).append(t)
    for t in sorted(plain, key=lambda t: t.name):
        lines.extend(_emit(t))
    for key in ("Auction", "Play"):
        for t in groups[key]:
            lines.extend(_emit(t))
    for t in sorted(tables, key=lambda t: t.name):
        lines.extend(_emit(t))
    return lines


def dumps(games: Iterable[PbnGame], *, export: bool = True) -> str:
    """PBN text for ``games``: export format (CRLF) by default, else import format (LF).

    Export format carries no ``#`` inheritance: every game states all its values.
    """
    return "".join(iter_dumps(games, export=export))


def iter_dumps(games: Iterable[PbnGame], *, export: bool = True) -> Iterator[str]:
    r""":func:`dumps` in pieces, for writing a long file as its games are made: the header, then
    one piece a game (with the empty line before it). The pieces joined are :func:`dumps`.

    >>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -")
    >>> pieces = list(iter_dumps(games_for_board(1, deal)))
    >>> len(pieces), pieces[0], pieces[2][:13]
    (3, '% PBN 2.1\r\n% EXPORT\r\n', '\r\n[Event "?"]')
    >>> "".join(pieces) == dumps(games_for_board(1, deal))
    True
    """
    newline = "\r\n" if export else "\n"
    yield newline.join(["% PBN 2.1", "% EXPORT"] if export else ["% PBN 2.1"]) + newline
    for k, game in enumerate(games):
        lines = write_game(game, export=export)
        if k:
            lines.insert(0, "")
        yield newline.join(lines) + newline if lines else ""


ENCODING = "utf-8"
"""The encoding bridgeko writes PBN files in: UTF-8 (no byte order mark).

PBN 2.1 says ISO 8859-1, which cannot hold Czech names (č, ř, ě ...). A file of ASCII text is
the same in both; a file with other letters is written in UTF-8 rather than lose them.
"""

DECODINGS = ("auto", "utf-8", "cp1250", "latin-1")
"""What :func:`decode` accepts as ``encoding``."""

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_CZECH_NOT_LATIN1 = frozenset("ěščřžťďňůĺľŕĚŠČŘŽŤĎŇŮĹĽŔ")


def decode(data: bytes, encoding: str = "auto") -> str:
    r"""The text of a PBN (or DLM) file's bytes; a byte order mark is dropped.

    ``"auto"``: the encoding of a byte order mark (UTF-8, UTF-16); else UTF-8 when the bytes are
    valid UTF-8; else Windows-1250 (Czech Windows) when read so the text has a Czech letter that
    ISO 8859-1 lacks (č, ř, ě, š, ž, ů ...); else ISO 8859-1, the PBN 2.1 encoding. The two
    single-byte encodings share most byte values (0xE8 is č in one and è in the other), so
    guessing prefers the Czech reading; give the encoding to override the guess.

    >>> decode("Novák".encode("utf-8")), decode("Dvořák".encode("cp1250"))
    ('Novák', 'Dvořák')
    >>> decode("Müller".encode("latin-1")), decode(b"\xef\xbb\xbf[Event]")
    ('Müller', '[Event]')
    """
    if encoding not in DECODINGS:
        raise BridgeInputError(
            f"unknown encoding {encoding!r} (expected one of {', '.join(DECODINGS)})"
        )
    for bom, name in _BOMS:
        if data.startswith(bom) and encoding in ("auto", name):
            data, encoding = data[len(bom) :], name
            break
    if encoding == "auto":
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        try:
            text = data.decode("cp1250")
        except UnicodeDecodeError:
            return data.decode("latin-1")
        return text if _CZECH_NOT_LATIN1.intersection(text) else data.decode("latin-1")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise BridgeInputError(
            f"the file is not {encoding}: {exc.reason} at byte {exc.start}"
        ) from None


def _ort_rows(dd: DDTable) -> tuple[tuple[str, ...], ...]:
    return tuple((s.value, t.value, str(dd[(s, t)])) for s in _ORT_SEATS for t in _ORT_STRAINS)


def _par_value(par: Par) -> str:
    items = []
    for pc in par.contracts:
        seats = "".join(s.value for s in pc.declarers)
        ou = f"{pc.over_under:+d}" if pc.over_under else ""
        items.append(f"{seats} {pc.contract}{ou}".strip())
    return "; ".join(items)


def game_for_board(
    board: int,
    deal: Deal,
    *,
    event: str = "",
    site: str = "",
    date: str | _dt.date = "",
    room: str | None = None,
    result: BoardResult | None = None,
    dd: DDTable | None = None,
    par: Par | None = None,
    players: Mapping[Seat, str] | None = None,
    scoring: str = "IMP",
) -> PbnGame:
    """The game of ``board`` at one table; dealer and vulnerability come from the board number.

    Unknown values (empty event, site, date, names, a result still to come) are written ``"?"``.

    >>> deal = Deal.from_pbn(
    ...     "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    >>> res = BoardResult(Contract.parse("4SX"), Seat.WEST, 9)
    >>> g = game_for_board(2, deal, room="Closed", result=res)
    >>> g["Deal"], g["Dealer"], g["Vulnerable"], g["Contract"], g["Result"]
    ('E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432', 'E', 'NS', '4SX',
     '9')
    """
    if room is not None and room not in ("Open", "Closed"):
        raise PbnError(0, f"the room is Open or Closed, not {room!r}")
    dealer = _board.dealer(board)
    vul = _board.vulnerability(board)
    date_txt = date.strftime("%Y.%m.%d") if isinstance(date, _dt.date) else date
    names = players or {}
    tags: list[TagPair] = [
        TagPair("Event", event or "?"),
        TagPair("Site", site or "?"),
        TagPair("Date", date_txt or "?"),
        TagPair("Board", str(board)),
    ]
    tags += [TagPair(_PLAYER_TAGS[s], names.get(s) or "?") for s in _PLAYER_TAGS]
    tags += [
        TagPair("Dealer", dealer.value),
        TagPair("Vulnerable", vul.value),
        TagPair("Deal", _deal_text(deal, dealer)),
        TagPair("Scoring", scoring or "?"),
    ]
    if result is None:
        decl, contract, made = "?", "?", "?"
    elif result.is_passed_out or result.declarer is None:
        decl, contract, made = "", "Pass", ""
    else:
        decl, contract, made = result.declarer.value, str(result.contract), str(result.tricks)
    tags += [TagPair("Declarer", decl), TagPair("Contract", contract), TagPair("Result", made)]
    if room is not None:
        tags.append(TagPair("Room", room))
    if result is not None:
        tags.append(TagPair("Score", f"NS {result_score(result, vul)}"))
    if par is not None:
        tags.append(TagPair("OptimumScore", f"NS {par.score}"))
        if par.contracts:
            tags.append(TagPair("ParContract", _par_value(par)))
    if dd is not None:
        tags.append(TagPair("OptimumResultTable", ORT_HEADER, _ort_rows(dd)))
    return PbnGame(tuple(tags))


def games_for_board(
    board: int,
    deal: Deal,
    *,
    open_result: BoardResult | None = None,
    closed_result: BoardResult | None = None,
    event: str = "",
    site: str = "",
    date: str | _dt.date = "",
    dd: DDTable | None = None,
    par: Par | None = None,
    open_players: Mapping[Seat, str] | None = None,
    closed_players: Mapping[Seat, str] | None = None,
) -> tuple[PbnGame, PbnGame]:
    """The two games of a teams board: Room ``"Open"`` then ``"Closed"``, same Board and Deal."""
    open_game = game_for_board(
        board,
        deal,
        event=event,
        site=site,
        date=date,
        room="Open",
        result=open_result,
        players=open_players,
        dd=dd,
        par=par,
    )
    closed_game = game_for_board(
        board,
        deal,
        event=event,
        site=site,
        date=date,
        room="Closed",
        result=closed_result,
        players=closed_players,
        dd=dd,
        par=par,
    )
    return open_game, closed_game


def write_board(
    board: int,
    deal: Deal,
    *,
    open_result: BoardResult | None = None,
    closed_result: BoardResult | None = None,
    event: str = "",
    site: str = "",
    date: str | _dt.date = "",
    dd: DDTable | None = None,
    par: Par | None = None,
    export: bool = True,
) -> str:
    """The PBN text of one teams board: its Open and Closed room games (:func:`games_for_board`)."""
    games = games_for_board(
        board,
        deal,
        open_result=open_result,
        closed_result=closed_result,
        event=event,
        site=site,
        date=date,
        dd=dd,
        par=par,
    )
    return dumps(games, export=export)
