"""Hand records (*rozbor rozdání*): the data of one board and of a segment's set, as plain values
(no HTML, no translated words) for the pages, the JSON API and the PDF.

A board's record holds its four hands by suit with their high-card points, the dealer and the
vulnerability (:mod:`bridgeko.bridge.board`), the double-dummy table (tricks for each declarer
N/E/S/W in each denomination), the par (score and contracts), the makeable contracts (the highest
level each declarer makes in each denomination) and both rooms' results of the match.

**The stored shape of the analysis** is decided here, once: :func:`dd_to_json` /
:func:`dd_from_json` for ``BoardDeal.dd`` and :func:`par_to_json` / :func:`par_from_json` for
``BoardDeal.par``. Whoever fills the analysis (the background job) writes through them::

    dd  = {"N": {"NT": 9, "S": 10, "H": 8, "D": 7, "C": 6}, "E": {...}, "S": {...}, "W": {...}}
    par = {"score": 420,
           "contracts": [{"contract": "4S", "declarers": "NS", "over_under": 0}, ...]}

``score`` is the par score from North-South's view; a sacrifice is ``"5DX"`` with a negative
``over_under``; a deal with par "pass" has one contract ``"Pass"`` with no declarers. (The
background analysis, ``boards.services.analyse_set``, stores it with these functions; the
readers also accept the shape of
:func:`bridgeko.bridge.annotate.dd_dict`/``par_dict`` — ``"score_ns"`` and contracts spelt
``"NS 4S"``, ``"EW 5DX-2"`` — so that either writer works.)

**Secrecy** (I15): nothing here checks who asks. The callers decide with
:func:`bridgeko.boards.secrecy.may_see` (staff pages) or :func:`~bridgeko.boards.secrecy.revealed`
(the public site) before they call :func:`hand_records` or :func:`board_record`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bridgeko.bridge import board as board_rules
from bridgeko.bridge.cards import Card, Deal, Hand, Rank, Seat, Strain, Suit, Vulnerability
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.result import BoardResult as TableResult
from bridgeko.bridge.scoring import imps as imp_of
from bridgeko.bridge.scoring import parse_result

__all__ = [
    "SEATS",
    "STRAINS",
    "BoardRecord",
    "DDRow",
    "HandView",
    "Makeable",
    "ParLine",
    "RoomResult",
    "SetRecord",
    "SuitLine",
    "board_record",
    "dd_from_json",
    "dd_to_json",
    "hand_records",
    "holding_text",
    "par_from_json",
    "par_to_json",
    "segment_set",
    "set_record",
]

SEATS: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
STRAINS: tuple[Strain, ...] = (
    Strain.NOTRUMP,
    Strain.SPADES,
    Strain.HEARTS,
    Strain.DIAMONDS,
    Strain.CLUBS,
)
"""The columns of the double-dummy table, as hand records print them."""

VOID = "—"


# ---------------------------------------------------------------------------------------------
# The stored shape of the analysis (BoardDeal.dd, BoardDeal.par)


def dd_to_json(table: DDTable) -> dict[str, dict[str, int]]:
    """``BoardDeal.dd``: ``{declarer: {denomination: tricks}}`` (N, E, S, W × NT, S, H, D, C)."""
    return {s.value: {t.value: table[s, t] for t in STRAINS} for s in SEATS}


def dd_from_json(data: Any) -> DDTable | None:
    """The table stored by :func:`dd_to_json`; None when nothing (or something else) is stored."""
    if not isinstance(data, Mapping):
        return None
    try:
        return DDTable({(s, t): int(data[s.value][t.value]) for s in SEATS for t in STRAINS})
    except (KeyError, TypeError, ValueError, BridgeInputError):
        return None


def par_to_json(par: Par) -> dict[str, Any]:
    """``BoardDeal.par``: the score from North-South's view and the par contracts."""
    return {
        "score": par.score,
        "contracts": [
            {
                "contract": str(pc.contract),
                "declarers": "".join(s.value for s in pc.declarers),
                "over_under": pc.over_under,
            }
            for pc in par.contracts
        ],
    }


def par_from_json(data: Any) -> Par | None:
    """The par stored by :func:`par_to_json`; None when nothing (or something else) is stored."""
    if not isinstance(data, Mapping):
        return None
    try:
        score = data["score"] if "score" in data else data["score_ns"]
        return Par(int(score), tuple(_par_contract(c) for c in data["contracts"]))
    except (KeyError, TypeError, ValueError, AttributeError, BridgeInputError):
        return None


_PAR_ITEM = re.compile(r"^(?:([NESW]{1,4})\s+)?(.+?)([+-]\d+)?$")


def _par_contract(item: Any) -> ParContract:
    """``{"contract": "5DX", "declarers": "EW", "over_under": -2}`` or ``"EW 5DX-2"``."""
    if isinstance(item, Mapping):
        return ParContract(
            Contract.parse(str(item["contract"])),
            tuple(Seat.parse(ch) for ch in str(item.get("declarers") or "")),
            int(item.get("over_under") or 0),
        )
    m = _PAR_ITEM.match(str(item).strip().upper())
    if m is None:
        raise ValueError(f"not a par contract: {item!r}")
    seats = tuple(Seat.parse(ch) for ch in (m.group(1) or ""))
    return ParContract(Contract.parse(m.group(2)), seats, int(m.group(3) or 0))


# ---------------------------------------------------------------------------------------------
# The values of a hand record


def holding_text(ranks: Iterable[Rank]) -> str:
    """A suit's cards as the hand records show them: ``"AKQ1032"`` (ten as ``10``), a void
    as ``"—"``."""
    text = "".join("10" if r is Rank.TEN else r.char for r in ranks)
    return text or VOID


@dataclass(frozen=True, slots=True)
class SuitLine:
    suit: Suit
    ranks: tuple[Rank, ...]

    @property
    def symbol(self) -> str:
        return self.suit.symbol

    @property
    def text(self) -> str:
        """``"AKQ1032"``; ``"—"`` for a void."""
        return holding_text(self.ranks)

    @property
    def pbn(self) -> str:
        return "".join(r.char for r in self.ranks)


@dataclass(frozen=True, slots=True)
class HandView:
    seat: Seat
    suits: tuple[SuitLine, ...]
    """Spades, hearts, diamonds, clubs."""
    hcp: int
    pbn: str
    """The hand as PBN writes it (``AKQ.T98.765.432``)."""


@dataclass(frozen=True, slots=True)
class DDRow:
    """The tricks one declarer takes in each denomination (:data:`STRAINS` order)."""

    declarer: Seat
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Makeable:
    """The makeable contracts of one declarer: (level, denomination) for each denomination in
    which they take at least seven tricks, highest level first."""

    declarer: Seat
    contracts: tuple[tuple[int, Strain], ...]


@dataclass(frozen=True, slots=True)
class ParLine:
    """One par contract: ``level``/``strain`` (0/None: passed out), ``doubled`` (``""``,
    ``"X"``, ``"XX"``), the declarers (``"NS"``, ``"E"``...) and the over- or undertricks."""

    level: int
    strain: Strain | None
    doubled: str
    declarers: str
    over_under: int

    @property
    def passed_out(self) -> bool:
        return self.level == 0


@dataclass(frozen=True, slots=True)
class CallView:
    """One call of an auction as shown: a bid (its level and strain), pass, X or XX."""

    text: str
    """Normalised: ``1S``, ``3NT``, ``P``, ``X``, ``XX``."""
    level: int
    strain: Strain | None
    alerted: bool


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int
    leader: Seat
    cards: tuple[Card, ...]
    """In the order played, from the leader."""
    winner: Seat | None


@dataclass(frozen=True, slots=True)
class RoomResult:
    """One room's result of the board in the match (``text`` as the TD entered it)."""

    room: str
    """``"open"`` or ``"closed"``."""
    text: str
    level: int
    """0 for a passed-out board."""
    strain: Strain | None
    doubled: str
    declarer: Seat | None
    over_under: int
    tricks: int | None
    ns_score: int
    auction: tuple[tuple[CallView | None, ...], ...] = ()
    """The auction as a table of rows West, North, East, South (``None``: before the dealer's
    first call), when a file gave it (LIN, Bridgemate)."""
    play: tuple[TrickView, ...] = ()
    """The tricks played, when a file gave them."""


@dataclass(frozen=True, slots=True)
class BoardRecord:
    board: int
    dealer: Seat
    vulnerability: Vulnerability
    deal: str
    """The PBN Deal value (``N:… … … …``)."""
    hands: Mapping[Seat, HandView]
    dd: tuple[DDRow, ...] | None
    """None while the analysis has not reached this board."""
    par_score: int | None
    """North-South's par score; None while not analysed."""
    par: tuple[ParLine, ...]
    makeable: tuple[Makeable, ...]
    open: RoomResult | None
    closed: RoomResult | None
    imps: int | None
    """IMPs to the home team (negative: to the visitors) when both rooms are in."""

    @property
    def analysed(self) -> bool:
        return self.dd is not None

    @property
    def north(self) -> HandView:
        return self.hands[Seat.NORTH]

    @property
    def east(self) -> HandView:
        return self.hands[Seat.EAST]

    @property
    def south(self) -> HandView:
        return self.hands[Seat.SOUTH]

    @property
    def west(self) -> HandView:
        return self.hands[Seat.WEST]

    @property
    def results(self) -> tuple[RoomResult, ...]:
        return tuple(r for r in (self.open, self.closed) if r is not None)


@dataclass(frozen=True, slots=True)
class SetRecord:
    """The hand records of a segment: its boards (those stored) and the analysis so far."""

    segment: Any
    boards: tuple[BoardRecord, ...]
    analysed: int
    total: int
    first_board: int
    last_board: int

    @property
    def in_progress(self) -> bool:
        """Some boards still wait for their double-dummy analysis."""
        return self.analysed < self.total

    def board(self, number: int) -> BoardRecord | None:
        return next((b for b in self.boards if b.board == number), None)

    def neighbours(self, number: int) -> tuple[int | None, int | None]:
        """The previous and the next board of the set around ``number``."""
        numbers = [b.board for b in self.boards]
        if number not in numbers:
            return None, None
        i = numbers.index(number)
        return (numbers[i - 1] if i > 0 else None, numbers[i + 1] if i + 1 < len(numbers) else None)


def _hand(seat: Seat, hand: Hand) -> HandView:
    return HandView(
        seat=seat,
        suits=tuple(SuitLine(s, hand.holding(s)) for s in Suit),
        hcp=hand.hcp,
        pbn=hand.to_pbn(),
    )


def _makeable(table: DDTable) -> tuple[Makeable, ...]:
    out = []
    for seat in SEATS:
        made = [(table[seat, t] - 6, t) for t in STRAINS if table[seat, t] >= 7]
        made.sort(key=lambda x: (-x[0], STRAINS.index(x[1])))
        out.append(Makeable(seat, tuple(made)))
    return tuple(out)


def _par_lines(par: Par) -> tuple[ParLine, ...]:
    return tuple(
        ParLine(
            pc.contract.level,
            pc.contract.strain,
            pc.contract.doubling.suffix,
            "".join(s.value for s in pc.declarers),
            pc.over_under,
        )
        for pc in par.contracts
    )


_COLUMNS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)


def auction_rows(board: int, auction: str) -> tuple[tuple[CallView | None, ...], ...]:
    """The stored auction (``1S P 2N! P``) as rows of four calls, West first; () when there is
    none or it cannot be read (it was checked when stored)."""
    from bridgeko.bridge.play_record import Auction

    try:
        read = Auction(board_rules.dealer(board), tuple(auction.split()))
    except BridgeInputError:
        return ()
    cells: list[CallView | None] = [None] * _COLUMNS.index(read.dealer)
    for i, call in enumerate(read.calls):
        bid = re.fullmatch(r"([1-7])(NT|[SHDC])", call)
        cells.append(
            CallView(
                text=call,
                level=int(bid.group(1)) if bid else 0,
                strain=Strain(bid.group(2)) if bid else None,
                alerted=i in read.alerts,
            )
        )
    return tuple(tuple(cells[i : i + 4]) for i in range(0, len(cells), 4))


def tricks(board: int, auction: str, play: str) -> tuple[TrickView, ...]:
    """The stored play (``HA H2 H5 H9 ...``) as tricks, from the contract's opening leader."""
    from bridgeko.bridge.play_record import Auction, Play

    try:
        read = Auction(board_rules.dealer(board), tuple(auction.split()))
        contract, declarer = read.contract, read.declarer
        if contract is None or declarer is None or contract.is_passed_out:
            return ()
        done = Play(declarer.next(), contract.strain, tuple(Card.parse(c) for c in play.split()))
    except BridgeInputError:
        return ()
    return tuple(
        TrickView(i, t.leader, t.cards, t.winner) for i, t in enumerate(done.tricks(), start=1)
    )


def _room(room: str, result: Any) -> RoomResult | None:
    """A ``matches.BoardResult`` row as a :class:`RoomResult` (None when there is none)."""
    if result is None:
        return None
    try:
        parsed: TableResult | None = parse_result(result.text)
    except BridgeInputError:
        parsed = None
    auction_text = getattr(result, "auction", "") or ""
    play_text = getattr(result, "play", "") or ""
    board = result.board
    auction = auction_rows(board, auction_text) if auction_text else ()
    play = tricks(board, auction_text, play_text) if auction_text and play_text else ()
    if parsed is None or parsed.is_passed_out:
        return RoomResult(
            room, result.text, 0, None, "", None, 0, None, result.ns_score, auction, play
        )
    return RoomResult(
        room=room,
        text=result.text,
        level=parsed.contract.level,
        strain=parsed.contract.strain,
        doubled=parsed.contract.doubling.suffix,
        declarer=parsed.declarer,
        over_under=parsed.over_under,
        tricks=parsed.tricks,
        ns_score=result.ns_score,
        auction=auction,
        play=play,
    )


def board_record(
    board: int,
    deal: str,
    dd: Any = None,
    par: Any = None,
    *,
    open_result: Any = None,
    closed_result: Any = None,
) -> BoardRecord:
    """The record of one board from its stored values (``BoardDeal.deal``/``dd``/``par``) and
    the match's rows of both rooms (``matches.BoardResult`` or None)."""
    parsed = Deal.from_pbn(deal)
    table = dd_from_json(dd)
    par_value = par_from_json(par) if table is not None else None
    open_view = _room("open", open_result)
    closed_view = _room("closed", closed_result)
    imps = None
    if open_view is not None and closed_view is not None:
        imps = imp_of(open_view.ns_score - closed_view.ns_score)
    return BoardRecord(
        board=board,
        dealer=board_rules.dealer(board),
        vulnerability=board_rules.vulnerability(board),
        deal=parsed.to_pbn(),
        hands={s: _hand(s, parsed[s]) for s in SEATS},
        dd=(
            tuple(DDRow(s, tuple(table[s, t] for t in STRAINS)) for s in SEATS)
            if table is not None
            else None
        ),
        par_score=par_value.score if par_value is not None else None,
        par=_par_lines(par_value) if par_value is not None else (),
        makeable=_makeable(table) if table is not None else (),
        open=open_view,
        closed=closed_view,
        imps=imps,
    )


def set_record(
    segment: Any, deals: Sequence[Any], results: Mapping[tuple[int, str], Any]
) -> SetRecord:
    """The records of ``deals`` (``BoardDeal`` rows of the segment's set) with the match's
    ``results`` (``(board, room) -> matches.BoardResult``)."""
    boards = tuple(
        board_record(
            d.board,
            d.deal,
            d.dd,
            d.par,
            open_result=results.get((d.board, "open")),
            closed_result=results.get((d.board, "closed")),
        )
        for d in sorted(deals, key=lambda d: d.board)
        if segment.first_board <= d.board <= segment.last_board
    )
    return SetRecord(
        segment=segment,
        boards=boards,
        analysed=sum(1 for b in boards if b.analysed),
        total=len(boards),
        first_board=segment.first_board,
        last_board=segment.last_board,
    )


def segment_set(segment: Any) -> SetRecord | None:
    """The hand records of ``segment`` read from the database (two queries); None when the
    segment has no set of deals."""
    from bridgeko.boards.models import BoardDeal, DealSet
    from bridgeko.matches.models import BoardResult

    deal_set = DealSet.objects.filter(segment=segment).first()
    if deal_set is None:
        return None
    deals = list(BoardDeal.objects.filter(deal_set=deal_set).order_by("board"))
    results = {
        (r.board, r.room): r
        for r in BoardResult.objects.filter(
            match_id=segment.match_id,
            board__gte=segment.first_board,
            board__lte=segment.last_board,
        )
    }
    return set_record(segment, deals, results)


def hand_records(segment: Any) -> list[BoardRecord]:
    """The hand record of every board of ``segment``'s set, in board order (empty when the
    segment has no set). The caller checks secrecy first (module docstring)."""
    found = segment_set(segment)
    return list(found.boards) if found is not None else []


# ---------------------------------------------------------------------------------------------
# Finding a segment and the state of its set (for the pages)


def segment_of_board(match: Any, board: int) -> Any:
    """The segment of ``match`` holding ``board`` (None when no segment does)."""
    from bridgeko.matches.models import Segment

    return Segment.objects.filter(
        match=match, first_board__lte=board, last_board__gte=board
    ).first()


def set_version(segment: Any) -> str:
    """A short text that changes whenever what the hand records of ``segment`` show changes:
    the match's version (results, the end of the segment), the analysis so far (one query)."""
    from django.db.models import Count, Q

    from bridgeko.boards.models import BoardDeal

    counts = BoardDeal.objects.filter(deal_set__segment=segment).aggregate(
        n=Count("id"), done=Count("id", filter=Q(dd__isnull=False))
    )
    match = segment.match
    return f"{match.pk}.{match.version}.{segment.pk}.{counts['n']}.{counts['done']}"
