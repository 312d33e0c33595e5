"""What was done at the table: the auction (the calls) and the play (the cards), checked by the
laws, and the result they give.

These are the core values behind the readers of hand records (LIN: :mod:`bridgeko.bridge.lin`);
they know nothing of any file format.

* :class:`Auction`: the dealer and the calls in the order made, spelt ``"1S"``, ``"3NT"``,
  ``"P"``, ``"X"``, ``"XX"`` (:func:`normalise_call` reads the LIN, PBN and Bridgemate
  spellings). Making one checks it (Law 18: a bid must be higher than the last one; Law 19: a
  double only of an opponents' undoubled bid, a redouble only of an opponents' double; Law 22:
  the auction ends after three passes following a call, or four passes at the start). An auction
  that has not ended is allowed (a record broken off, a board still being bid) and says so
  (:attr:`Auction.is_complete`); a call after the end is an error. Errors are
  :class:`AuctionError` and name the call and its seat: ``call 5 (W): 1H is not higher than
  2C``.
* :class:`Play`: the opening leader, the trump suit and the cards in the order played. The seat
  to play is not stored with each card: it follows from the leader and the winner of each
  trick, as in every hand record. Making one checks that no card is played twice and that there
  are at most 13 tricks; :meth:`Play.check` also checks it against the deal (each card from the
  hand of the seat to play, following suit when able). Errors are :class:`PlayError` and name
  the trick, the card and the seat: ``trick 3, card 2 (W): HK is not in West's hand``.
* :func:`table_result`: the :class:`~bridgeko.bridge.result.BoardResult` of an auction and a
  play: the declarer's tricks come from a claim when there is one (the declarer's *total*
  tricks, as LIN's ``mc|10|`` gives them), else from 13 tricks played; None when neither.

>>> auction = Auction(Seat.NORTH, ("1n", "p", "3n!", "p", "p", "pass"))
>>> auction.calls, dict(auction.alerts), str(auction.contract), auction.declarer
(('1NT', 'P', '3NT', 'P', 'P', 'P'), {2: ''}, '3NT', <Seat.NORTH: 'N'>)
>>> Auction(Seat.WEST, ("1C", "1D", "X", "P", "2C", "1H"))
Traceback (most recent call last):
...
bridgeko.bridge.play_record.AuctionError: call 6 (N): 1H is not higher than 2C
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bridgeko.bridge.cards import Card, Deal, Seat, Strain, Suit
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.result import BoardResult

__all__ = [
    "Auction",
    "AuctionError",
    "Play",
    "PlayError",
    "Trick",
    "normalise_call",
    "table_result",
]


class AuctionError(BridgeInputError):
    """An impossible call or auction; :attr:`index` is the call's place (0-based), if any."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        """The 0-based place of the call in the auction; None when the error has no call."""


class PlayError(BridgeInputError):
    """An impossible card or play; :attr:`index` is the card's place (0-based), if any."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        """The 0-based place of the card in the play; None when the error has no card."""


# -- calls -------------------------------------------------------------------------------------

PASS, DOUBLE, REDOUBLE = "P", "X", "XX"
"""The normalised spellings of the three calls that are not bids."""

_CALL_WORDS: dict[str, str] = {
    "P": PASS,
    "PASS": PASS,
    "PAS": PASS,
    "X": DOUBLE,
    "D": DOUBLE,
    "DBL": DOUBLE,
    "DOUBLE": DOUBLE,
    "XX": REDOUBLE,
    "R": REDOUBLE,
    "RDBL": REDOUBLE,
    "REDBL": REDOUBLE,
    "REDOUBLE": REDOUBLE,
}
_BID = re.compile(r"([1-7])(NT|N|SA|S|H|D|C)")
_BID_STRAIN = {"N": "NT", "NT": "NT", "SA": "NT"}


def normalise_call(text: str) -> str:
    """One call in the spelling of :class:`Auction`: ``"1S"``, ``"3NT"``, ``"P"``, ``"X"``,
    ``"XX"``.

    Reads LIN (``p``, ``d``, ``r``, ``1n``, an alert mark ``!`` which is dropped), PBN
    (``Pass``, ``X``, ``XX``, ``1NT``) and Bridgemate (``PASS``, ``x``, ``xx``, ``1 NT``,
    ``dbl``, ``rdbl``); case and blanks do not matter. PBN's ``AP`` ("all pass") stands for
    several calls and is refused, as is anything else, with :class:`AuctionError`.

    >>> [normalise_call(t) for t in ("p", "Pass", "d", "Dbl", "r", "xx", "1n", "2N!", "7 nt")]
    ['P', 'P', 'X', 'X', 'XX', 'XX', '1NT', '2NT', '7NT']
    """
    compact = "".join(text.split()).upper().rstrip("!")
    if compact in _CALL_WORDS:
        return _CALL_WORDS[compact]
    m = _BID.fullmatch(compact)
    if m is not None:
        return m.group(1) + _BID_STRAIN.get(m.group(2), m.group(2))
    if compact == "AP":
        raise AuctionError("'AP' (all pass) stands for several passes, not one call")
    shown = text if len(text) <= 20 else text[:20] + "..."
    raise AuctionError(f"not a call: {shown!r} (expected e.g. 1S, 3NT, P, X or XX)")


def _bid_key(call: str) -> tuple[int, int]:
    """``(level, strain rank)`` of a normalised bid, in bidding order."""
    return int(call[0]), Strain(call[1:]).rank


def _is_bid(call: str) -> bool:
    return call[:1].isdigit()


# -- the auction -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls of one board from the dealer on, checked when made (:meth:`check`).

    ``calls`` may be given in any spelling :func:`normalise_call` reads; they are stored
    normalised. A call written with an alert mark (``"2N!"``) is alerted: its place is a key of
    :attr:`alerts` (with the text ``""`` unless ``alerts`` gives one).
    """

    dealer: Seat
    """The seat that made the first call."""
    calls: tuple[str, ...] = ()
    """The calls in the order made, normalised (``"1S"``, ``"3NT"``, ``"P"``, ``"X"``, ``"XX"``)."""
    alerts: Mapping[int, str] = field(default_factory=dict)
    """Alerted calls: the call's 0-based place -> the explanation (``""`` when none was given)."""

    def __post_init__(self) -> None:
        calls: list[str] = []
        alerts = dict(self.alerts)
        for i, text in enumerate(self.calls):
            try:
                calls.append(normalise_call(text))
            except AuctionError as exc:
                raise AuctionError(f"{self._where(i)}: {exc}", i) from None
            if text.strip().endswith("!"):
                alerts.setdefault(i, "")
        for i in alerts:
            if isinstance(i, bool) or not isinstance(i, int):
                raise AuctionError(f"an alert's key is the call's place (0, 1 ...), not {i!r}")
            if not 0 <= i < len(calls):
                raise AuctionError(f"an alert for call {i + 1}, which the auction does not have")
        object.__setattr__(self, "calls", tuple(calls))
        object.__setattr__(self, "alerts", MappingProxyType(dict(sorted(alerts.items()))))
        self.check()

    def __hash__(self) -> int:
        return hash((self.dealer, self.calls, tuple(self.alerts.items())))

    def seat(self, index: int) -> Seat:
        """The seat that makes call ``index`` (0-based)."""
        return self.dealer.next(index)

    def _where(self, index: int) -> str:
        return f"call {index + 1} ({self.seat(index).value})"

    def check(self) -> None:
        """Raise :class:`AuctionError` for the first call the laws do not allow."""
        self._walk()

    def _walk(self) -> tuple[bool, int | None, Doubling]:
        """Go through the calls: (ended, place of the last bid, its doubling)."""
        last: int | None = None
        doubling = Doubling.UNDOUBLED
        passes = 0
        ended = False
        for i, call in enumerate(self.calls):
            seat = self.seat(i)
            where = self._where(i)
            if ended:
                why = "four passes" if last is None else "three passes in a row"
                raise AuctionError(f"{where}: {call} after the end of the auction ({why})", i)
            if call == PASS:
                passes += 1
            elif call == DOUBLE:
                if last is None:
                    raise AuctionError(f"{where}: X with no bid to double", i)
                bid, bidder = self.calls[last], self.seat(last)
                if bidder.side == seat.side:
                    raise AuctionError(f"{where}: X of {bid}, which is their own side's bid", i)
                if doubling is not Doubling.UNDOUBLED:
                    raise AuctionError(f"{where}: X of {bid}{doubling.suffix}, already doubled", i)
                doubling, passes = Doubling.DOUBLED, 0
            elif call == REDOUBLE:
                if last is None or doubling is not Doubling.DOUBLED:
                    raise AuctionError(f"{where}: XX with no double to redouble", i)
                if self.seat(last).side != seat.side:
                    raise AuctionError(
                        f"{where}: XX of {self.calls[last]}X, which their own side doubled", i
                    )
                doubling, passes = Doubling.REDOUBLED, 0
            else:
                if last is not None and _bid_key(call) <= _bid_key(self.calls[last]):
                    raise AuctionError(f"{where}: {call} is not higher than {self.calls[last]}", i)
                last, doubling, passes = i, Doubling.UNDOUBLED, 0
            ended = passes == (4 if last is None else 3)
        return ended, last, doubling

    @property
    def is_complete(self) -> bool:
        """Whether the auction has ended (three passes after a call, or four passes)."""
        return self._walk()[0]

    @property
    def contract(self) -> Contract | None:
        """The final contract (``PASSED_OUT`` after four passes); None until the auction ends."""
        ended, last, doubling = self._walk()
        if not ended:
            return None
        if last is None:
            return PASSED_OUT
        bid = self.calls[last]
        return Contract(int(bid[0]), Strain(bid[1:]), doubling)

    @property
    def declarer(self) -> Seat | None:
        """The first player of the side that won the auction to name the contract's strain;
        None for a passed-out board and until the auction ends."""
        ended, last, _ = self._walk()
        if not ended or last is None:
            return None
        side, strain = self.seat(last).side, self.calls[last][1:]
        for i, call in enumerate(self.calls):
            if _is_bid(call) and call[1:] == strain and self.seat(i).side == side:
                return self.seat(i)
        raise AssertionError("unreachable: the last bid names the strain")  # pragma: no cover


# -- the play ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: its leader, the cards in the order played, and who won it."""

    leader: Seat
    """The seat that played the first card."""
    cards: tuple[Card, ...]
    """One to four cards, in the order played."""
    winner: Seat | None
    """The seat that won the trick; None while it has fewer than four cards."""

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    def player(self, k: int) -> Seat:
        """The seat that played card ``k`` (0-based) of the trick."""
        return self.leader.next(k)


def _trick_winner(leader: Seat, cards: tuple[Card, ...], trump: Suit | None) -> Seat:
    best = 0
    for k, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best = k
        elif card.suit is trump:
            best = k
        # any other card (a discard, or a card of the led suit over a trump) loses
    return leader.next(best)


def _trump_suit(trump: Strain | None) -> Suit | None:
    return None if trump is None or trump is Strain.NOTRUMP else Suit(trump.value)


@dataclass(frozen=True, slots=True)
class Play:
    """The cards played, in order, from the opening lead on.

    ``trump`` is the contract's strain; ``None`` and ``Strain.NOTRUMP`` both mean no trumps.
    Making a play checks that no card is played twice and that there are at most 52 cards;
    :meth:`check` checks it against the deal.
    """

    leader: Seat
    """The opening leader (the declarer's left-hand opponent)."""
    trump: Strain | None
    """The trump strain; None or ``Strain.NOTRUMP`` for a notrump contract."""
    cards: tuple[Card, ...] = ()
    """The cards in the order played."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))
        if len(self.cards) > 52:
            raise PlayError(f"{len(self.cards)} cards played, more than 13 tricks", 52)
        seen: dict[Card, int] = {}
        for i, card in enumerate(self.cards):
            if card in seen:
                first = seen[card]
                raise PlayError(
                    f"{self._where(i)}: {card} was played already (trick {first // 4 + 1})", i
                )
            seen[card] = i

    def _where(self, index: int, seat: Seat | None = None) -> str:
        where = f"trick {index // 4 + 1}, card {index % 4 + 1}"
        return where if seat is None else f"{where} ({seat.value})"

    def tricks(self) -> list[Trick]:
        """The tricks in order, each with its winner; the last may be unfinished (winner None)."""
        out: list[Trick] = []
        leader, trump = self.leader, _trump_suit(self.trump)
        for start in range(0, len(self.cards), 4):
            cards = self.cards[start : start + 4]
            winner = _trick_winner(leader, cards, trump) if len(cards) == 4 else None
            out.append(Trick(leader, cards, winner))
            if winner is not None:
                leader = winner
        return out

    def seats(self) -> list[Seat]:
        """The seat that played each card, in order."""
        return [t.player(k) for t in self.tricks() for k in range(len(t.cards))]

    @property
    def completed_tricks(self) -> int:
        """The number of tricks with four cards."""
        return len(self.cards) // 4

    def declarer_tricks(self, declarer: Seat) -> int:
        """The completed tricks won by ``declarer``'s side."""
        return sum(
            1 for t in self.tricks() if t.winner is not None and t.winner.side == declarer.side
        )

    def check(self, deal: Deal) -> None:
        """Raise :class:`PlayError` for the first card not in the hand of the seat to play, or
        not following suit when that hand could.

        A card is checked against the hand only where the deal says who holds it, and following
        suit only for a hand of 13 cards; a whole deal checks everything."""
        played: set[Card] = set()
        for t, trick in enumerate(self.tricks()):
            led = trick.cards[0].suit
            for k, card in enumerate(trick.cards):
                seat, index = trick.player(k), 4 * t + k
                where = self._where(index, seat)
                owner = deal.owner(card)
                hand = deal[seat]
                if owner is not None and owner is not seat:
                    raise PlayError(
                        f"{where}: {card} is not in {_name(seat)} hand (it is {_name(owner)})",
                        index,
                    )
                if owner is None and len(hand) == 13:
                    raise PlayError(f"{where}: {card} is not in {_name(seat)} hand", index)
                if k and card.suit is not led and len(hand) == 13:
                    left = sorted(
                        (c for c in hand if c.suit is led and c not in played), key=_by_index
                    )
                    if left:
                        held = ", ".join(map(str, left))
                        raise PlayError(
                            f"{where}: {card} does not follow suit ({led.value} led, "
                            f"{_name(seat)} hand still holds {held})",
                            index,
                        )
                played.add(card)


def _by_index(card: Card) -> int:
    return card.index


def _name(seat: Seat) -> str:
    return f"{seat.name.title()}'s"


# -- the result --------------------------------------------------------------------------------


def table_result(
    auction: Auction | None,
    play: Play | None,
    claim: int | None,
    deal: Deal | None = None,
) -> BoardResult | None:
    """The result of an auction and its play: the declarer's tricks from ``claim`` (the
    declarer's total tricks, those already won included) when given, else from 13 tricks played.

    None when the auction is missing or has not ended, or when it ended in a contract that has
    neither a claim nor 13 tricks played. The play, when given, must be the one of the contract
    (the declarer's left-hand opponent leads, the contract's strain is trumps) and, when
    ``deal`` is given, possible with it (:meth:`Play.check`); a claim must be possible after
    the tricks played. The opening lead is the result's lead. Raises :class:`PlayError`.
    """
    cards = play.cards if play is not None else ()
    if auction is None or not auction.is_complete:
        if cards or claim is not None:
            raise PlayError("cards played or a claim before the end of the auction")
        return None
    contract, declarer = auction.contract, auction.declarer
    if contract is None or contract.is_passed_out or declarer is None:
        if cards or claim is not None:
            raise PlayError("cards played or a claim on a passed-out board")
        return BoardResult.passed_out()
    if play is not None:
        if play.leader is not declarer.next():
            raise PlayError(
                f"the opening leader is {declarer.next().value} (declarer {declarer.value}), "
                f"not {play.leader.value}"
            )
        if _trump_suit(play.trump) != _trump_suit(contract.strain):
            raise PlayError(f"the play's trumps ({play.trump}) are not those of {contract}")
        if deal is not None:
            play.check(deal)
    done = play.completed_tricks if play is not None else 0
    won = play.declarer_tricks(declarer) if play is not None else 0
    if claim is not None:
        if isinstance(claim, bool) or not 0 <= claim <= 13:
            raise PlayError(f"a claim of {claim!r} tricks: declarer's tricks are 0 to 13")
        if not won <= claim <= won + 13 - done:
            raise PlayError(
                f"a claim of {claim} tricks for declarer is impossible after {done} tricks "
                f"played, of which declarer won {won} (possible: {won} to {won + 13 - done})"
            )
        tricks = claim
    elif done == 13:
        tricks = won
    else:
        return None
    return BoardResult(contract, declarer, tricks, cards[0] if cards else None)
