"""Double-dummy tables and par through the endplay adapter."""

from __future__ import annotations

from typing import Any

import pytest

from bridgeko.bridge import analysis
from bridgeko.bridge.analysis import dd_table, dd_tables, par
from bridgeko.bridge.cards import Deal, Seat, Strain, Vulnerability
from bridgeko.bridge.contract import PASSED_OUT, Contract
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.bridge.errors import BridgeInputError

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
ORDER = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)


def _table(rows: list[int]) -> dict[tuple[Seat, Strain], int]:
    """20 numbers in the DDS order: spades N E S W, hearts N E S W, ... notrump N E S W."""
    return {(seat, strain): rows[4 * i + j] for i, strain in enumerate(ORDER)
            for j, seat in enumerate((N, E, S, W))}  # fmt: skip


# The three deals of the DDS distribution (dds-bridge/dds, examples/hands.cpp) with the double
# dummy tables and dealer par published there as expected outputs.
DDS_EXAMPLES = [
    (
        "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3",
        [5, 8, 5, 8, 6, 6, 6, 6, 5, 7, 5, 7, 7, 5, 7, 5, 6, 6, 6, 6],
        (N, Vulnerability.NONE),
        Par(-110, (ParContract(Contract.parse("2S"), (E, W), 0),)),
    ),
    (
        "E:QJT5432.T.6.QJ82 .J97543.K7532.94 87.A62.QJT4.AT75 AK96.KQ8.A98.K63",
        [4, 9, 4, 9, 10, 2, 10, 2, 8, 3, 8, 3, 6, 7, 6, 7, 9, 3, 9, 3],
        (E, Vulnerability.NS),
        Par(100, (ParContract(Contract.parse("4SX"), (E, W), -1),)),
    ),
    (
        "N:73.QJT.AQ54.T752 QT6.876.KJ9.AQ84 5.A95432.7632.K6 AKJ9842.K.T8.J93",
        [3, 10, 3, 10, 9, 4, 9, 4, 8, 4, 8, 4, 3, 9, 3, 9, 4, 8, 4, 8],
        (N, Vulnerability.NONE),
        Par(-300, (ParContract(Contract.parse("5HX"), (N, S), -2),)),
    ),
]

# Each hand holds one whole suit. Declarer's side takes all 13 tricks in its own suits (the
# trumps win every trick, whoever leads); in the other side's suits the defenders lead and cash
# 13; in notrump the opening leader (declarer's left) runs his suit: declarer takes none.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
ONE_SUIT_EACH_TABLE = [13, 0, 13, 0, 0, 13, 0, 13, 13, 0, 13, 0, 0, 13, 0, 13, 0, 0, 0, 0]


def test_dd_tables_match_the_dds_examples() -> None:
    deals = [Deal.from_pbn(pbn) for pbn, *_ in DDS_EXAMPLES]
    tables = dd_tables(deals)
    assert [t.tricks for t in tables] == [_table(rows) for _, rows, *_ in DDS_EXAMPLES]


@pytest.mark.parametrize(("pbn", "rows", "board", "expected"), DDS_EXAMPLES)
def test_dealer_par_matches_the_dds_examples(
    pbn: str, rows: list[int], board: tuple[Seat, Vulnerability], expected: Par
) -> None:
    dealer, vul = board
    assert par(DDTable(_table(rows)), dealer, vul) == expected


def test_par_of_a_deal_computes_its_table() -> None:
    pbn, _rows, (dealer, vul), expected = DDS_EXAMPLES[2]
    assert par(Deal.from_pbn(pbn), dealer, vul) == expected


def test_one_suit_each_table_by_reasoning() -> None:
    assert dd_table(Deal.from_pbn(ONE_SUIT_EACH)).tricks == _table(ONE_SUIT_EACH_TABLE)


def test_one_suit_each_par_is_the_grand_slam_in_spades() -> None:
    # NS make 7S (and 7D), EW 7H (and 7C); spades outrank hearts, a 7NT sacrifice goes 13 down.
    table = DDTable(_table(ONE_SUIT_EACH_TABLE))
    grand = ParContract(Contract.parse("7S"), (N, S), 0)
    assert par(table, N, Vulnerability.NONE) == Par(1510, (grand,))  # 210 + 300 + 1000
    assert par(table, E, Vulnerability.ALL) == Par(2210, (grand,))  # 210 + 500 + 1500


def test_nobody_makes_anything_is_a_passed_out_par() -> None:
    table = DDTable(dict.fromkeys(_table([0] * 20), 6))
    assert par(table, S, Vulnerability.ALL) == Par(0, (ParContract(PASSED_OUT, ()),))


def test_ns_making_seven_tricks_everywhere_par_is_1nt() -> None:
    # A doubled 1-level sacrifice by EW costs 100, more than the 90 of 1NT.
    table = DDTable(_table([7, 6, 7, 6] * 5))
    assert par(table, W, Vulnerability.NONE) == Par(
        90, (ParContract(Contract.parse("1NT"), (N, S)),)
    )


def test_incomplete_deal_is_an_input_error() -> None:
    with pytest.raises(BridgeInputError, match="complete deal"):
        dd_table(Deal.from_pbn("N:AKQ... - - -"))


class _FakeTable:
    def __getitem__(self, key: Any) -> int:
        return 7


def test_deals_are_sent_to_dds_in_chunks_of_40_with_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sizes: list[int] = []

    def fake_calc_all_tables(deals: Any) -> list[_FakeTable]:
        sizes.append(len(deals))
        return [_FakeTable() for _ in deals]

    monkeypatch.setattr(analysis, "calc_all_tables", fake_calc_all_tables)
    progress: list[int] = []
    tables = dd_tables([Deal.from_pbn(ONE_SUIT_EACH)] * 100, progress=progress.append)
    assert sizes == [40, 40, 20]
    assert progress == [40, 40, 20]
    assert len(tables) == 100
    assert all(v == 7 for t in tables for v in t.tricks.values())


def test_no_deals_no_call() -> None:
    assert dd_tables([]) == []


def test_only_the_adapter_imports_endplay() -> None:
    import pathlib

    root = pathlib.Path(analysis.__file__).parents[1]
    importers = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "import endplay" in p.read_text() or "from endplay" in p.read_text()
    )
    assert importers == ["bridge/analysis.py"]
