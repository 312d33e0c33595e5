"""The Bridgemate (``.bws``) reader on real files written by Bridgemate Control Software
(``tests/data/bws/README.md``: where they come from, their licence). The expected values were
read from the same files with mdbtools' ``mdb-export``, a reader independent of ours."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from bridgeko.bridge import bws
from bridgeko.bridge.cards import Seat
from bridgeko.bridge.contract import Contract, Doubling

DATA = Path(__file__).parent.parent / "data" / "bws"
LBC = DATA / "LBC-2026-01-26.bws"
MONDAY = DATA / "260119M.bws"
PAGE = 2048  # both files are Jet 3 (Access 97) databases


@pytest.fixture(scope="module")
def lbc() -> bws.BwsFile:
    return bws.read(LBC.read_bytes())


def test_bws_reads_every_received_record_as_mdbtools_does(lbc: bws.BwsFile) -> None:
    assert len(lbc.records) == 270  # mdb-export: 270 rows; IDs run to 274 (4 deleted)
    assert lbc.records[-1].id == 274
    assert dict(lbc.sections) == {1: "A"}  # stored as "A  "
    first = lbc.records[0]
    assert (first.id, first.section, first.table, first.round, first.board) == (1, 1, 1, 1, 1)
    assert (first.pair_ns, first.pair_ew, first.seat, first.contract, first.result) == (
        1, 1, "N", "4 S", "+2",
    )  # fmt: skip
    # DateLog "01/26/26 00:00:00" joined with TimeLog "12/30/99 10:13:02" (read as 10:13:02.0006)
    assert first.logged is not None and first.logged.isoformat() == "2026-01-26T10:13:02"
    by_id = {r.id: r for r in lbc.records}
    assert (by_id[248].table, by_id[248].board, by_id[248].contract) == (2, 1, "4 D")
    assert str(by_id[274].logged) == "2026-01-26 14:17:48"
    assert len(lbc.players) == 40
    assert lbc.problems == ()


def test_bws_records_become_table_results(lbc: bws.BwsFile) -> None:
    first = lbc.records[0].table_result()
    assert first.contract == Contract.parse("4S")
    assert (first.declarer, first.tricks) == (Seat.NORTH, 12)
    artificial = [r for r in lbc.records if r.is_artificial]
    assert [(r.table, r.board, r.remarks) for r in artificial][:2] == [
        (7, 10, "Not played"),
        (7, 11, "Not played"),
    ]
    assert len(artificial) == 6
    for record in lbc.records:
        if not record.is_artificial:
            record.table_result()  # every other record is a result the Laws allow


def test_bws_doubled_contracts_and_a_second_file() -> None:
    monday = bws.read(MONDAY.read_bytes())
    assert len(monday.records) == 297  # mdb-export: 297 rows
    doubled = [r for r in monday.records if r.contract.endswith(("x", "X"))]
    assert doubled, "the file has doubled contracts (e.g. '2 D x')"
    for record in doubled:
        assert record.table_result().contract.doubling is not Doubling.UNDOUBLED


def _received_data_pages(data: bytes) -> list[int]:
    """The data pages (type 1) owned by ReceivedData's definition (a Jet 3 data page: its owner
    at byte 4)."""
    from access_parser import AccessParser  # the test finds the table's page, not the reader

    tdef = AccessParser(str(LBC)).catalog["ReceivedData"]  # the page of its definition
    return [
        page
        for page in range(len(data) // PAGE)
        if data[page * PAGE] == 1 and struct.unpack_from("<I", data, page * PAGE + 4)[0] == tdef
    ]


def test_bws_reads_only_the_pages_of_the_usage_map(lbc: bws.BwsFile) -> None:
    """Access leaves a freed page naming its old table as owner; only the table's usage map
    tells. A page dropped from the map is not read, though it still names ReceivedData."""
    data = bytearray(LBC.read_bytes())
    pages = _received_data_pages(bytes(data))
    assert len(pages) == 8
    # The usage map: the record ``page << 8 | row`` the table's definition points to (Jet 3: a
    # data page's record count at byte 8, the records' offsets after it); a type-0 map is a
    # start page and a bitmap.
    from access_parser import AccessParser
    from access_parser.parsing_primitives import parse_table_head

    parser = AccessParser(str(LBC))
    tdef = parser.catalog["ReceivedData"]
    pointer = parse_table_head(bytes(data[tdef * PAGE : (tdef + 1) * PAGE]), version=3).row_page_map
    page, row = pointer >> 8, pointer & 0xFF
    offset = struct.unpack_from("<H", data, page * PAGE + 10 + 2 * row)[0] & 0x1FFF
    at = page * PAGE + offset
    assert data[at] == 0  # type 0
    start = struct.unpack_from("<I", data, at + 1)[0]
    last = pages[-1] - start
    assert data[at + 5 + last // 8] >> (last % 8) & 1  # the last page is in the map
    data[at + 5 + last // 8] &= ~(1 << (last % 8)) & 0xFF
    fewer = bws.read(bytes(data))
    assert 0 < len(fewer.records) < len(lbc.records)
    kept = {r.id for r in fewer.records}
    assert kept < {r.id for r in lbc.records}


def test_bws_refuses_a_file_that_is_not_an_access_database() -> None:
    for data in (b"", b"PK\x03\x04" + b"\x00" * 4000, b"%PBN 2.1\n" * 500):
        with pytest.raises(bws.BwsError, match="not a Bridgemate file"):
            bws.read(data)


def test_bws_refuses_a_truncated_file() -> None:
    data = LBC.read_bytes()
    with pytest.raises(bws.BwsError, match=r"ReceivedData.*truncated"):
        bws.read(data[: len(data) // 3])


def test_bws_refuses_a_database_without_received_data() -> None:
    """The same real file with its table renamed in the catalog (MSysObjects' rows)."""
    data = bytearray(LBC.read_bytes())
    catalog_pages = [
        page
        for page in range(len(data) // PAGE)
        if data[page * PAGE] == 1 and struct.unpack_from("<I", data, page * PAGE + 4)[0] == 2
    ]
    renamed = 0
    for page in catalog_pages:
        chunk = bytes(data[page * PAGE : (page + 1) * PAGE])
        if b"ReceivedData" in chunk:
            data[page * PAGE : (page + 1) * PAGE] = chunk.replace(b"ReceivedData", b"ReceivedDatX")
            renamed += 1
    assert renamed
    with pytest.raises(bws.BwsError, match="no ReceivedData table"):
        bws.read(bytes(data))


def _record(**changes: object) -> bws.BwsRecord:
    values: dict[str, object] = {
        "id": 1, "section": 1, "table": 1, "round": 1, "board": 1, "pair_ns": 1, "pair_ew": 1,
        "seat": "N", "contract": "4 S", "result": "=", "lead": "", "remarks": "",
        "erased": False, "logged": None,
    }  # fmt: skip
    values.update(changes)
    return bws.BwsRecord(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("contract", "seat", "result", "problem"),
    [
        ("4 S", "N", "+4", "tricks taken must be 0 to 13"),
        ("8 S", "N", "=", "level must be 1 to 7"),
        ("4 Z", "N", "=", "strain must be"),
        ("4 S", "Q", "=", "not a seat"),
        ("4 S", "N", "made", "not =, \\+N or -N"),
    ],
)
def test_bws_record_the_laws_do_not_allow_names_the_record(
    contract: str, seat: str, result: str, problem: str
) -> None:
    record = _record(id=17, table=3, board=9, contract=contract, seat=seat, result=result)
    with pytest.raises(bws.BwsError, match=rf"record 17 \(table 3, board 9\): .*{problem}"):
        record.table_result()


def test_bws_contract_spellings_of_bcs() -> None:
    assert str(_record(contract="3 NT xx", seat="W", result="-2").table_result()) == "3NTXX W -2"
    assert str(_record(contract="2 D x", seat="e", result="+1").table_result()) == "2DX E +1"
    assert _record(contract="PASS", seat="", result="").table_result().is_passed_out
    led = _record(lead="H10").table_result().lead
    assert led is not None and str(led) == "HT"


def test_bws_latest_record_of_a_table_corrects_and_erases() -> None:
    """A correction is a later record of the same board and table; an erased record takes the
    board's result back."""
    records = (
        _record(id=1, board=1, contract="4 S", result="="),
        _record(id=2, board=2, contract="3 NT", result="+1"),
        _record(id=3, table=2, board=1, contract="4 S", result="-1"),
        _record(id=4, board=1, contract="4 S", result="+1"),  # corrected
        _record(id=5, board=2, contract="3 NT", result="+1", erased=True),  # erased
    )
    file = bws.BwsFile(sections={1: "A"}, records=records, players=(), bids=(), cards=(),
                       problems=())  # fmt: skip
    latest = file.latest(1, 1)
    assert latest[1].id == 4 and latest[2].erased
    assert file.latest(1, 2)[1].result == "-1"
    assert file.section_id("a") == 1 and file.section_id("1") == 1
    with pytest.raises(bws.BwsError, match=r"no section 'B'.*A \(1\)"):
        file.section_id("B")


def test_bws_auction_and_play_in_counter_order() -> None:
    bids = tuple(
        bws.BwsBid(
            id=i, section=1, table=1, round=1, board=5, counter=c, seat=s, call=call, erased=erased
        )
        for i, (c, s, call, erased) in enumerate(
            [
                (1, "N", "1S", False),
                (2, "E", "P", False),
                (3, "S", "4S", False),
                (3, "S", "3S", False),
                (4, "W", "P", False),
                (2, "E", "X", True),
            ],
            start=1,
        )
    )
    file = bws.BwsFile(sections={}, records=(), players=(), bids=bids, cards=(), problems=())
    # counter 3 entered again (id 4 replaces id 3); an erased call is left out
    assert file.auction(1, 1, 5) == ("1S", "P", "3S", "P")
    assert file.auction(1, 1, 6) == ()


def test_bws_bidding_and_play_rows_as_the_guide_shapes_them() -> None:
    """BiddingData and PlayData rows (no public file has them filled: the guide's columns)."""
    row = {"ID": 3, "Section": 1, "Table": 2, "Round": 1, "Board": 5, "Counter": 1,
           "Direction": "North", "Erased": False}  # fmt: skip
    (bid,) = bws._bids([row | {"Bid": "1 NT"}])
    assert (bid.id, bid.table, bid.board, bid.seat, bid.call) == (3, 2, 5, "N", "1NT")
    (card,) = bws._cards([row | {"Card": "H10"}])
    assert card.card == "HT" and not card.erased
    with pytest.raises(bws.BwsError, match=r"record 3: '9Z' is not a call"):
        list(bws._bids([row | {"Bid": "9Z"}]))
    with pytest.raises(bws.BwsError, match=r"record 3: .*not a card"):
        list(bws._cards([row | {"Card": "X1"}]))
