"""The double-dummy annotation of PBN games (what ``bridgeko analyse`` writes), without DDS:
the tables and the par calculation are given."""

from __future__ import annotations

import pytest

from bridgeko.bridge import pbn
from bridgeko.bridge.annotate import (
    ANNOTATION_TAGS,
    annotate,
    dd_dict,
    deals_to_solve,
    par_dict,
    par_items,
    par_result,
    par_text,
)
from bridgeko.bridge.cards import Deal, Seat, Strain, Vulnerability
from bridgeko.bridge.contract import PASSED_OUT, Contract
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.bridge.result import BoardResult

DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
OTHER = Deal.from_pbn("N:T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98")
FOUR_SPADES = Par(420, (ParContract(Contract.parse("4S"), (Seat.NORTH, Seat.SOUTH)),))


def table(tricks: int) -> DDTable:
    return DDTable({(s, t): tricks for s in Seat for t in Strain})


def test_a_deal_played_at_two_tables_is_solved_once_and_both_games_annotated() -> None:
    games = [*pbn.games_for_board(1, DEAL), *pbn.games_for_board(2, OTHER)]
    assert deals_to_solve(games) == [DEAL, OTHER]
    asked: list[tuple[int, Seat, Vulnerability]] = []

    def par_of(t: DDTable, dealer: Seat, vul: Vulnerability) -> Par:
        asked.append((t[Seat.NORTH, Strain.SPADES], dealer, vul))
        return FOUR_SPADES

    done = annotate(games, [table(10), table(6)], par_of=par_of)
    assert done.solved == 2 and done.left == 0 and len(done.annotations) == 4
    # The par of each game: its deal's table, the dealer and vulnerability of its board.
    assert (
        asked == [(10, Seat.NORTH, Vulnerability.NONE)] * 2 + [(6, Seat.EAST, Vulnerability.NS)] * 2
    )
    first = done.games[0]
    assert first["OptimumScore"] == "NS 420" and first["ParContract"] == "NS 4S"
    assert first.section("OptimumResultTable")[0] == ("N", "NT", "10")
    assert done.games[3].section("OptimumResultTable")[0] == ("N", "NT", "6")
    assert [a.room for a in done.annotations] == ["Open", "Closed", "Open", "Closed"]
    # Written back, the file reads the tables and the par.
    again = pbn.parse(pbn.dumps(done.games)).games
    assert again[2].dd_table == table(6) and again[0].par == FOUR_SPADES


def test_a_game_without_a_complete_deal_is_left_as_it_was() -> None:
    partial = pbn.parse('[Board "3"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n').games[0]
    games = [partial, pbn.game_for_board(4, DEAL)]
    done = annotate(games, [table(7)], par_of=lambda t, d, v: FOUR_SPADES)
    assert done.games[0] == partial and done.left == 1
    assert [a.index for a in done.annotations] == [1]
    assert all(name in done.games[1] for name in ANNOTATION_TAGS)


def test_a_game_without_dealer_or_board_gets_a_table_but_no_par() -> None:
    game = pbn.parse(f'[Deal "{DEAL.to_pbn()}"]\n').games[0]
    done = annotate([game], [table(7)], par_of=lambda t, d, v: FOUR_SPADES)
    assert done.annotations[0].par is None
    assert "OptimumResultTable" in done.games[0] and "OptimumScore" not in done.games[0]
    assert done.annotations[0].to_dict()["par"] is None


def test_the_tables_must_be_those_of_the_deals_to_solve() -> None:
    with pytest.raises(ValueError, match="1 tables for 2 distinct deals"):
        annotate([pbn.game_for_board(1, DEAL), pbn.game_for_board(2, OTHER)], [table(7)])


def test_the_json_record_of_a_game() -> None:
    done = annotate([pbn.game_for_board(5, DEAL)], [table(8)], par_of=lambda t, d, v: FOUR_SPADES)
    record = done.annotations[0].to_dict()
    assert record["board"] == 5 and record["room"] is None and record["deal"] == DEAL.to_pbn()
    assert record["dd"] == dd_dict(table(8))
    assert list(dd_dict(table(8))) == ["N", "E", "S", "W"]
    assert list(dd_dict(table(8))["N"]) == ["NT", "S", "H", "D", "C"]
    assert record["par"] == par_dict(FOUR_SPADES) == {"score_ns": 420, "contracts": ["NS 4S"]}


def test_par_contracts_are_spelt_as_in_the_par_contract_tag() -> None:
    sacrifice = Par(
        -100,
        (
            ParContract(Contract.parse("5DX"), (Seat.EAST, Seat.WEST), -2),
            ParContract(Contract.parse("4H"), (Seat.NORTH,), 1),
        ),
    )
    assert par_items(sacrifice) == ["EW 5DX-2", "N 4H+1"]
    assert par_text(sacrifice) == "EW 5DX-2; N 4H+1"
    assert par_text(Par(0, (ParContract(PASSED_OUT, ()),))) == "Pass"


def test_par_result_plays_the_first_par_contract_with_the_double_dummy_tricks() -> None:
    assert par_result(FOUR_SPADES, table(10)) == BoardResult(Contract.parse("4S"), Seat.NORTH, 10)
    assert par_result(Par(0, (ParContract(PASSED_OUT, ()),)), table(7)).is_passed_out
