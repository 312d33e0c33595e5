"""Double-dummy tables and par of deals: a thin adapter over endplay (DDS).

This is the only module that imports endplay (pinned 0.5.12); it turns our values into endplay's
and back, so that the rest of bridgeko works with :class:`~bridgeko.bridge.ddtable.DDTable`,
:class:`~bridgeko.bridge.ddtable.Par` and :class:`~bridgeko.bridge.ddtable.ParContract` only.

Tables are computed with ``endplay.dds.calc_all_tables`` (DDS ``CalcAllTables``, multi-threaded)
in chunks of at most :data:`CHUNK` deals, the most DDS takes in one call for all five strains.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import endplay._dds as _dds
from endplay.dds import calc_all_tables
from endplay.dds import par as _endplay_par
from endplay.dds.ddtable import DDTable as _EDDTable
from endplay.types import Deal as _EDeal
from endplay.types import Denom, Player, Vul

from bridgeko.bridge.cards import Deal, Seat, Strain, Suit, Vulnerability
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.bridge.errors import BridgeInputError

__all__ = ["CHUNK", "Progress", "dd_table", "dd_tables", "par", "par_of_table", "pars"]

CHUNK = 40
"""Deals per ``calc_all_tables`` call: DDS solves at most 200 (deal, strain) pairs at a time."""

Progress = Callable[[int], None]
"""Called with the number of deals just analysed (for a progress bar)."""

_SEATS: tuple[Seat, ...] = Seat.clockwise_from(Seat.NORTH)
_PLAYER: dict[Seat, Player] = {s: Player(s.number) for s in Seat}
_DENOM: dict[Strain, Denom] = {
    Strain.SPADES: Denom.spades,
    Strain.HEARTS: Denom.hearts,
    Strain.DIAMONDS: Denom.diamonds,
    Strain.CLUBS: Denom.clubs,
    Strain.NOTRUMP: Denom.nt,
}
_VUL: dict[Vulnerability, Vul] = {
    Vulnerability.NONE: Vul.none,
    Vulnerability.NS: Vul.ns,
    Vulnerability.EW: Vul.ew,
    Vulnerability.ALL: Vul.both,
}
# DDS contractType.denom: 0 = notrump, 1 = spades, 2 = hearts, 3 = diamonds, 4 = clubs.
_CONTRACT_STRAIN: tuple[Strain, ...] = (
    Strain.NOTRUMP,
    Strain.SPADES,
    Strain.HEARTS,
    Strain.DIAMONDS,
    Strain.CLUBS,
)
# DDS contractType.seats: 0-3 one seat (N, E, S, W), 4 = N and S, 5 = E and W.
_CONTRACT_SEATS: tuple[tuple[Seat, ...], ...] = (
    (Seat.NORTH,),
    (Seat.EAST,),
    (Seat.SOUTH,),
    (Seat.WEST,),
    (Seat.NORTH, Seat.SOUTH),
    (Seat.EAST, Seat.WEST),
)
_SUIT_NUMBER: dict[Suit, int] = {s: i for i, s in enumerate(Suit)}  # S=0, H=1, D=2, C=3 as DDS


def _to_endplay(deal: Deal) -> _EDeal:
    if not deal.is_complete:
        raise BridgeInputError(
            "double-dummy analysis needs a complete deal (13 cards in each hand), not "
            f"{deal.to_pbn()}"
        )
    edeal = _EDeal()
    # DDS holdings: one bit per rank (bit 14 = ace ... bit 2 = two), per hand and suit.
    cards = edeal._data.remainCards
    for seat in _SEATS:
        row = [0, 0, 0, 0]
        for card in deal[seat].cards:
            row[_SUIT_NUMBER[card.suit]] |= 1 << card.rank.value
        hand = cards[seat.number]
        for s in range(4):
            hand[s] = row[s]
    return edeal


def _from_endplay(table: _EDDTable) -> DDTable:
    return DDTable({(s, t): int(table[_DENOM[t], _PLAYER[s]]) for s in _SEATS for t in Strain})


def dd_tables(deals: Sequence[Deal], *, progress: Progress | None = None) -> list[DDTable]:
    """The double-dummy table (tricks for each declarer and strain) of every deal, in order.

    ``progress`` is called after each chunk with the number of deals it held.
    """
    edeals = [_to_endplay(d) for d in deals]
    out: list[DDTable] = []
    for start in range(0, len(edeals), CHUNK):
        chunk = edeals[start : start + CHUNK]
        out.extend(_from_endplay(t) for t in calc_all_tables(chunk))
        if progress is not None:
            progress(len(chunk))
    return out


def dd_table(deal: Deal) -> DDTable:
    """The double-dummy table of one deal."""
    return dd_tables([deal])[0]


def _endplay_table(table: DDTable) -> _EDDTable:
    data = _dds.ddTableResults()
    for (seat, strain), tricks in table.tricks.items():
        data.resTable[_DENOM[strain]][_PLAYER[seat]] = tricks
    return _EDDTable(data)


def par_of_table(table: DDTable, dealer: Seat, vulnerability: Vulnerability) -> Par:
    """The par of a deal from its double-dummy table (DDS ``DealerParBin``).

    The dealer matters: when both sides can make the same level, the side that can bid first
    gets there first. The score is from North-South's point of view; sacrifices are doubled.
    """
    result = _endplay_par(_endplay_table(table), _VUL[vulnerability], _PLAYER[dealer])
    # endplay's ParList iteration splits two-seat contracts and in 0.5.12 repeats one of the
    # seats; the raw DDS result is read instead.
    data = result._data
    contracts: list[ParContract] = []
    for i in range(data.number):
        c = data.contracts[i]
        if c.level == 0:
            continue
        doubling = Doubling.DOUBLED if c.underTricks > 0 else Doubling.UNDOUBLED
        contract = Contract(int(c.level), _CONTRACT_STRAIN[c.denom], doubling)
        over_under = -int(c.underTricks) if c.underTricks else int(c.overTricks)
        contracts.append(ParContract(contract, _CONTRACT_SEATS[c.seats], over_under))
    if not contracts:
        contracts.append(ParContract(PASSED_OUT, ()))
    return Par(int(data.score), tuple(contracts))


def par(deal_or_table: Deal | DDTable, dealer: Seat, vulnerability: Vulnerability) -> Par:
    """The par of a deal (its table is computed) or of a double-dummy table."""
    table = deal_or_table if isinstance(deal_or_table, DDTable) else dd_table(deal_or_table)
    return par_of_table(table, dealer, vulnerability)


def pars(
    tables: Iterable[DDTable],
    dealers: Iterable[Seat],
    vulnerabilities: Iterable[Vulnerability],
) -> list[Par]:
    """The par of each table with its dealer and vulnerability."""
    return [par_of_table(t, d, v) for t, d, v in zip(tables, dealers, vulnerabilities, strict=True)]
