"""Bridgemate Control Software's ``.bws`` file (issue 20): what the tables entered.

A ``.bws`` file is an MS Access database (Jet 3 or 4) that BCS keeps open while the session is
played and writes every result into as a Bridgemate terminal sends it. It is read here with the
pure-Python ``access-parser`` (no ODBC, no mdbtools, no Java), in the tables and columns of the
Bridgemate developer's guide:

- ``ReceivedData``: one record per result sent (``ID``, ``Section``, ``Table``, ``Round``,
  ``Board``, ``PairNS``, ``PairEW``, ``Declarer``, ``NS/EW`` — the declarer's seat —,
  ``Contract`` such as ``4 S``, ``2 D x``, ``3 NT xx`` or ``PASS``, ``Result`` ``=``/``+1``/``-2``,
  ``LeadCard``, ``Erased``, ``DateLog``/``TimeLog``). A result corrected at the table is a later
  record of the same section, table and board; one erased is a record with ``Erased`` set.
- ``Section`` (``ID``, ``Letter``), ``PlayerNumbers`` (who sat where), ``BiddingData`` and
  ``PlayData`` (each call and card, when the terminals were set to collect them).

Two things ``access-parser`` 0.0.6 does not do are done here: it reads every data page that
names a table as its owner, also pages Access has freed (a file used for several sessions then
gives back rows long deleted), so only the pages of the table's *usage map* are read — as
mdbtools and Access do; and it returns dates as text, the time of day (``TimeLog``) as a time on
30 December 1899 off by float rounding, so date and time are joined and rounded to the second.

Everything here is pure: :func:`read` takes the file's bytes and returns plain values; what a
record means for a match is the importer's business (:mod:`bridgeko.matches.bws_import`).
"""

from __future__ import annotations

import logging
import os
import re
import struct
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bridgeko.bridge.cards import Card, Seat
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.result import BoardResult

__all__ = [
    "BwsBid",
    "BwsCard",
    "BwsError",
    "BwsFile",
    "BwsPlayer",
    "BwsRecord",
    "looks_like_bws",
    "read",
]

_MAGIC = (b"Standard Jet DB", b"Standard ACE DB")
T = TypeVar("T")


class BwsError(BridgeInputError):
    """A file that is not a Bridgemate database, or a record that cannot be read."""


@dataclass(frozen=True)
class BwsRecord:
    """One record of ``ReceivedData``: a result as a table sent it."""

    id: int
    section: int
    table: int
    round: int
    board: int
    pair_ns: int
    pair_ew: int
    seat: str
    """The declarer's seat as written (``N``, ``E``, ``S``, ``W``; empty for a pass)."""
    contract: str
    """As written: ``4 S``, ``2 D x``, ``3 NT xx``, ``PASS``."""
    result: str
    """As written: ``=``, ``+1``, ``-2`` (empty for a pass)."""
    lead: str
    """As written (``SA``, ``H10``, ``DT``; empty when not collected)."""
    remarks: str
    """BCS's remark: ``Not played``, an artificial score (``40%-60%``), ``Result erased``."""
    erased: bool
    logged: datetime | None
    """When BCS received it (the event's local time, to the second)."""

    @property
    def is_artificial(self) -> bool:
        """No contract: a board not played or given an artificial score (see ``remarks``)."""
        return not self.contract

    @property
    def where(self) -> str:
        """The record named for a message: ``record 12 (table 3, board 7)``."""
        return f"record {self.id} (table {self.table}, board {self.board})"

    def table_result(self) -> BoardResult:
        """The result the record states. A :class:`BwsError` naming the record when its
        contract, declarer or result is not one the Laws allow."""
        try:
            contract = Contract.parse(self.contract)
            if contract.is_passed_out:
                return BoardResult.passed_out()
            declarer = Seat.parse(self.seat)
            text = self.result.strip()
            if text in ("=", "0", "+0", "-0"):
                over = 0
            elif re.fullmatch(r"[+-]\d{1,2}", text):
                over = int(text)
            else:
                raise BwsError(f"the result {self.result!r} is not =, +N or -N")
            lead = _card(self.lead) if self.lead.strip() else None
            return BoardResult(contract, declarer, contract.tricks_needed + over, lead)
        except BridgeInputError as exc:
            raise BwsError(
                f"{self.where}: {exc} (contract {self.contract!r}, declarer {self.seat!r}, "
                f"result {self.result!r})"
            ) from None


@dataclass(frozen=True)
class BwsPlayer:
    """One record of ``PlayerNumbers``: who sat in a seat of a table (from a round on)."""

    section: int
    table: int
    seat: str
    number: str
    name: str
    round: int | None


@dataclass(frozen=True)
class BwsBid:
    """One call of ``BiddingData`` (``counter``: its place in the auction, from 1)."""

    id: int
    section: int
    table: int
    round: int
    board: int
    counter: int
    seat: str
    call: str
    """Normalised: ``1S``, ``3NT``, ``P``, ``X``, ``XX``."""
    erased: bool


@dataclass(frozen=True)
class BwsCard:
    """One card of ``PlayData`` (``counter``: its place in the play, from 1)."""

    id: int
    section: int
    table: int
    round: int
    board: int
    counter: int
    seat: str
    card: str
    """Normalised: ``SA``, ``HT``."""
    erased: bool


@dataclass(frozen=True)
class BwsFile:
    """What a ``.bws`` file holds, as plain values."""

    sections: Mapping[int, str]
    """Section ID -> its letter (``A``)."""
    records: tuple[BwsRecord, ...]
    """``ReceivedData`` in the order BCS received it (by ``ID``)."""
    players: tuple[BwsPlayer, ...]
    bids: tuple[BwsBid, ...]
    cards: tuple[BwsCard, ...]
    problems: tuple[str, ...]
    """Tables that could not be read (the file is still used without them)."""

    def section_id(self, name: str) -> int:
        """The section named by its letter (``A``) or its ID (``1``)."""
        wanted = name.strip()
        for number, letter in self.sections.items():
            if letter.strip().upper() == wanted.upper():
                return number
        if wanted.isdigit() and (int(wanted) in self.sections or not self.sections):
            return int(wanted)
        known = ", ".join(f"{letter} ({n})" for n, letter in sorted(self.sections.items()))
        raise BwsError(f"the file has no section {name!r} (it has {known or 'none'})")

    def latest(self, section: int, table: int) -> dict[int, BwsRecord]:
        """Board -> the last record a table sent for it: a correction replaces the earlier
        record; an erased record stands for the board's result taken back."""
        found: dict[int, BwsRecord] = {}
        for record in self.records:
            if record.section == section and record.table == table:
                found[record.board] = record
        return found

    def auction(self, section: int, table: int, board: int) -> tuple[str, ...]:
        """The calls of a board at a table, in order (erased ones left out)."""
        return _in_order(
            (b.counter, b.id, b.call)
            for b in self.bids
            if (b.section, b.table, b.board) == (section, table, board) and not b.erased
        )

    def play(self, section: int, table: int, board: int) -> tuple[str, ...]:
        """The cards played on a board at a table, in order (erased ones left out)."""
        return _in_order(
            (c.counter, c.id, c.card)
            for c in self.cards
            if (c.section, c.table, c.board) == (section, table, board) and not c.erased
        )


def _in_order(items: Iterable[tuple[int, int, str]]) -> tuple[str, ...]:
    """The last value of each counter (a call entered again replaces the first), by counter."""
    latest: dict[int, tuple[int, str]] = {}
    for counter, ident, value in items:
        if counter not in latest or ident > latest[counter][0]:
            latest[counter] = (ident, value)
    return tuple(value for _, (_, value) in sorted(latest.items()))


# ---------------------------------------------------------------------------------------------
# Reading the database


def looks_like_bws(data: bytes) -> bool:
    """Whether the bytes start as an MS Access database (as a ``.bws`` file does)."""
    return data[4:19] in _MAGIC


def read(data: bytes) -> BwsFile:
    """Reads a ``.bws`` file's bytes. A :class:`BwsError` when they are not an Access database
    or hold no ``ReceivedData`` table, or when a record of it cannot be read."""
    if len(data) < 2048 or data[4:19] not in _MAGIC:
        raise BwsError(
            "not a Bridgemate file: a .bws file is an MS Access database, and this one does not "
            "start as one"
        )
    database = _open(data)
    names = set(database.catalog)
    if "ReceivedData" not in names:
        raise BwsError("the file has no ReceivedData table: it is not a Bridgemate results file")
    problems: list[str] = []
    received = _table(database, "ReceivedData")
    records = tuple(sorted(_records(received), key=lambda r: r.id))
    sections: dict[int, str] = {}
    if "Section" in names:
        try:
            for row in _rows(_table(database, "Section")):
                sections[_int(row, "ID")] = _text(row, "Letter")
        except BwsError as exc:
            problems.append(f"{exc}; sections go by number")
    players = _optional(database, names, "PlayerNumbers", _players, problems)
    bids = _optional(database, names, "BiddingData", _bids, problems)
    cards = _optional(database, names, "PlayData", _cards, problems)
    return BwsFile(
        sections=sections,
        records=records,
        players=tuple(players),
        bids=tuple(bids),
        cards=tuple(cards),
        problems=tuple(problems),
    )


def _open(data: bytes) -> Any:
    from access_parser import AccessParser  # imported when needed: the CLI starts without it

    logging.getLogger("access_parser").setLevel(logging.CRITICAL)  # it logs what it skips
    handle, path = tempfile.mkstemp(suffix=".bws")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        return AccessParser(path)
    except Exception as exc:  # a damaged or truncated database: any error of the parser
        raise BwsError(f"the database cannot be read ({type(exc).__name__}: {exc})") from None
    finally:
        os.unlink(path)


def _table(database: Any, name: str) -> dict[str, list[Any]]:
    """A table's columns (name -> values), from the pages its usage map lists."""
    try:
        table = database.get_table(name)
        pages = _used_pages(database, database.catalog[name])
        size = database.page_size
        if any((page + 1) * size > len(database.db_data) for page in pages):
            raise BwsError("its pages lie beyond the end of the file (is the file truncated?)")
        table.table.linked_pages = [
            database._data_pages[page * size]
            for page in sorted(pages)
            if page * size in database._data_pages
        ]
        columns: dict[str, list[Any]] = dict(table.parse())
    except BwsError as exc:
        raise BwsError(f"the table {name} cannot be read: {exc}") from None
    except Exception as exc:  # the parser's own errors on a damaged page
        raise BwsError(f"the table {name} cannot be read ({type(exc).__name__}: {exc})") from None
    return columns


def _used_pages(database: Any, tdef_page: int) -> set[int]:
    """The data pages a table uses, from the usage map its definition points to (a record
    ``page << 8 | row``: type 0 is a bitmap from a start page, type 1 a list of map pages each
    a bitmap of ``(page_size - 4) * 8`` pages)."""
    from access_parser.parsing_primitives import parse_table_head

    size: int = database.page_size
    data: bytes = database.db_data
    head = parse_table_head(database._table_defs[tdef_page * size], version=database.version)
    record = _record(data, size, database.version, head.row_page_map)
    if not record:
        raise BwsError("its usage map is empty")
    pages: set[int] = set()
    if record[0] == 0:
        start = struct.unpack_from("<I", record, 1)[0]
        pages.update(start + bit for bit in _bits(record[5:]))
    elif record[0] == 1:
        per_page = (size - 4) * 8
        for k in range((len(record) - 1) // 4):
            map_page = struct.unpack_from("<I", record, 1 + 4 * k)[0]
            if map_page:
                bitmap = data[map_page * size + 4 : (map_page + 1) * size]
                pages.update(k * per_page + bit for bit in _bits(bitmap))
    else:
        raise BwsError(f"its usage map is of an unknown type {record[0]}")
    return pages


def _bits(bitmap: bytes) -> Iterable[int]:
    for index, byte in enumerate(bitmap):
        if byte:
            for bit in range(8):
                if byte >> bit & 1:
                    yield index * 8 + bit


def _record(data: bytes, size: int, version: int, pointer: int) -> bytes:
    """The record ``pointer`` (``page << 8 | row``) of a data page."""
    page, row = pointer >> 8, pointer & 0xFF
    start_of_page = page * size
    if start_of_page + size > len(data):
        raise BwsError("its usage map lies outside the file (is the file truncated?)")
    count_at = 8 if version == 3 else 12
    count = struct.unpack_from("<H", data, start_of_page + count_at)[0]
    if row >= count:
        raise BwsError("its usage map points to no record")
    offsets = struct.unpack_from(f"<{count}H", data, start_of_page + count_at + 2)
    start = offsets[row] & 0x1FFF
    end = size if row == 0 else offsets[row - 1] & 0x1FFF
    return data[start_of_page + start : start_of_page + end]


def _rows(columns: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    if not columns:
        return []
    count = max(len(values) for values in columns.values())
    return [
        {name: (values[i] if i < len(values) else None) for name, values in columns.items()}
        for i in range(count)
    ]


def _optional(
    database: Any,
    names: set[str],
    name: str,
    convert: Any,
    problems: list[str],
) -> list[Any]:
    if name not in names:
        return []
    try:
        return list(convert(_rows(_table(database, name))))
    except BwsError as exc:
        problems.append(f"{exc}; it is left out")
        return []


# ---------------------------------------------------------------------------------------------
# Values


def _int(row: Mapping[str, Any], column: str, default: int | None = None) -> int:
    value = row.get(column)
    if value is None or value == "":
        if default is not None:
            return default
        raise BwsError(f"the column {column} is empty")
    if isinstance(value, bool):
        return int(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BwsError(f"the column {column} holds {value!r}, not a number") from None


def _text(row: Mapping[str, Any], column: str) -> str:
    value = row.get(column)
    return "" if value is None else str(value).strip()


def _flag(row: Mapping[str, Any], column: str) -> bool:
    value = row.get(column)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "-1")
    return bool(value)


def _when(row: Mapping[str, Any]) -> datetime | None:
    """``DateLog`` (a date at midnight) joined with ``TimeLog`` (a time of day on 30 December
    1899), rounded to the second."""
    day = _datetime(row.get("DateLog"))
    time = _datetime(row.get("TimeLog"))
    if day is None:
        return None
    if time is not None:
        day += time - time.replace(hour=0, minute=0, second=0, microsecond=0)
    return (day + timedelta(microseconds=500_000)).replace(microsecond=0)


def _datetime(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value).strip())
    except ValueError:
        return None


def _card(text: str) -> Card:
    """``SA``, ``H10``, ``DT``, ``C 9`` (as terminals write a lead or a card played)."""
    compact = "".join(text.split()).upper()
    if compact[1:] == "10":
        compact = compact[0] + "T"
    return Card.parse(compact)


_CALLS = {"PASS": "P", "P": "P", "X": "X", "DBL": "X", "XX": "XX", "RDBL": "XX", "REDBL": "XX"}


def _call(text: str) -> str:
    compact = "".join(text.split()).upper()
    if compact in _CALLS:
        return _CALLS[compact]
    match = re.fullmatch(r"([1-7])(NT|N|S|H|D|C)", compact)
    if not match:
        raise BwsError(f"{text!r} is not a call")
    return match.group(1) + ("NT" if match.group(2) in ("N", "NT") else match.group(2))


def _records(columns: Mapping[str, Sequence[Any]]) -> Iterable[BwsRecord]:
    for row in _rows(columns):
        ident = _int(row, "ID", 0)
        try:
            yield BwsRecord(
                id=ident,
                section=_int(row, "Section"),
                table=_int(row, "Table"),
                round=_int(row, "Round", 0),
                board=_int(row, "Board"),
                pair_ns=_int(row, "PairNS", 0),
                pair_ew=_int(row, "PairEW", 0),
                seat=_text(row, "NS/EW").upper(),
                contract=_text(row, "Contract"),
                result=_text(row, "Result"),
                lead=_text(row, "LeadCard"),
                remarks=_text(row, "Remarks"),
                erased=_flag(row, "Erased"),
                logged=_when(row),
            )
        except BwsError as exc:
            raise BwsError(f"ReceivedData record {ident}: {exc}") from None


def _players(rows: Iterable[Mapping[str, Any]]) -> Iterable[BwsPlayer]:
    for row in rows:
        yield BwsPlayer(
            section=_int(row, "Section"),
            table=_int(row, "Table"),
            seat=_text(row, "Direction").upper()[:1],
            number=_text(row, "Number"),
            name=_text(row, "Name"),
            round=_int(row, "Round", 0) if row.get("Round") is not None else None,
        )


def _steps(
    rows: Iterable[Mapping[str, Any]], make: Callable[[Mapping[str, Any], dict[str, Any]], T]
) -> Iterable[T]:
    """The rows of BiddingData or PlayData: the fields both have, given to ``make`` with the
    row; a value that cannot be read names the record."""
    for row in rows:
        ident = _int(row, "ID", 0)
        try:
            yield make(
                row,
                {
                    "id": ident,
                    "section": _int(row, "Section"),
                    "table": _int(row, "Table"),
                    "round": _int(row, "Round", 0),
                    "board": _int(row, "Board"),
                    "counter": _int(row, "Counter"),
                    "seat": _text(row, "Direction").upper()[:1],
                    "erased": _flag(row, "Erased"),
                },
            )
        except BridgeInputError as exc:
            raise BwsError(f"record {ident}: {exc}") from None


def _bids(rows: Iterable[Mapping[str, Any]]) -> Iterable[BwsBid]:
    return _steps(rows, lambda row, common: BwsBid(call=_call(_text(row, "Bid")), **common))


def _cards(rows: Iterable[Mapping[str, Any]]) -> Iterable[BwsCard]:
    return _steps(rows, lambda row, common: BwsCard(card=str(_card(_text(row, "Card"))), **common))
