"""PBN end positions (PBN 2.1 §3.10): a game whose Deal gives fewer than 13 cards to every hand,
its Contract a denomination only. Read without error, written back, and refused with a clear
message by what needs a whole deal (dealing-machine files, the analysis, loading deals)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgeko.bridge import annotate, formats, pbn
from bridgeko.bridge.cards import Seat, Strain

DATA = Path(__file__).resolve().parent / "data"
FILE = DATA / "end_positions.pbn"


def read() -> pbn.PbnFile:
    return pbn.parse(FILE.read_text("ascii"))


def test_PBN_3_10_end_positions_are_read_in_strict_mode_without_problems() -> None:
    f = read()
    assert f.problems == ()
    assert [g.board for g in f.games] == [1, 2, 3]
    assert [g.is_end_position for g in f.games] == [True, True, False]
    first, second, whole = f.games
    assert first.deal is not None and [len(first.deal[s]) for s in Seat] == [4, 4, 4, 4]
    assert second.deal is not None and [len(second.deal[s]) for s in Seat] == [3, 3, 3, 3]
    assert whole.deal is not None and whole.deal.is_complete


def test_PBN_3_10_the_contract_of_an_end_position_is_its_denomination_only() -> None:
    first, second, whole = read().games
    assert (first.trump, first.contract, first.result) == (Strain.NOTRUMP, None, None)
    assert (second.trump, second.contract, second.result) == (Strain.SPADES, None, None)  # "s"
    assert first.declarer is Seat.SOUTH
    assert first.section("Play")[0] == ("CA", "HQ", "C2", "CK")
    assert whole.trump is Strain.NOTRUMP and str(whole.contract) == "3NT"
    assert str(whole.result) == "3NT S ="


@pytest.mark.parametrize(
    ("value", "strain"),
    [
        ("S", Strain.SPADES),
        ("h", Strain.HEARTS),
        ("D", Strain.DIAMONDS),
        ("C", Strain.CLUBS),
        ("NT", Strain.NOTRUMP),
        ("nt", Strain.NOTRUMP),
        ("N", Strain.NOTRUMP),
    ],
)
def test_PBN_3_10_every_denomination_is_read(value: str, strain: Strain) -> None:
    text = f'[Board "1"]\n[Deal "N:A... K... Q... J..."]\n[Contract "{value}"]\n'
    game = pbn.parse(text).games[0]
    assert game.is_end_position and game.trump is strain and game.contract is None


def test_end_positions_are_written_back_as_they_were_read() -> None:
    games = read().games
    text = pbn.dumps(games)
    assert '[Contract "S"]' in text  # "s" written in upper case (export format)
    again = pbn.parse(text).games
    assert [(g.board, g.deal, g.trump, g.is_end_position) for g in again] == [
        (g.board, g.deal, g.trump, g.is_end_position) for g in games
    ]
    assert again[0].section("Play") == games[0].section("Play")


def test_a_denomination_alone_on_a_whole_deal_is_a_clear_error() -> None:
    text = (DATA / "bad_contract_denomination_of_a_whole_deal.pbn").read_text("ascii")
    with pytest.raises(pbn.PbnError, match=r"line 4: bad Contract 'NT': a denomination alone"):
        pbn.parse(text)


def test_complete_deal_refuses_an_end_position_naming_the_board_and_the_cards() -> None:
    first, _second, whole = read().games
    with pytest.raises(pbn.PbnError) as info:
        _ = first.complete_deal
    assert str(info.value) == (
        "line 15: board 1 is an end position (PBN 2.1 §3.10; 4/4/4/4 cards in N/E/S/W), "
        "not a whole deal"
    )
    assert whole.complete_deal == whole.deal
    assert pbn.parse('[Board "4"]').games[0].complete_deal is None


def test_dealing_machine_files_refuse_an_end_position_clearly() -> None:
    first = read().games[0]
    assert first.deal is not None
    with pytest.raises(formats.FormatError, match="board 7 is not a complete deal"):
        formats.to_dup({7: first.deal})
    with pytest.raises(formats.FormatError, match="cannot deal an end position"):
        formats.to_dlm({7: first.deal}, title="x")


def test_the_analysis_leaves_end_positions_out() -> None:
    games = read().games
    assert annotate.deals_to_solve(games) == [games[2].deal]


def test_an_end_position_is_told_by_the_cards_not_by_the_spelling() -> None:
    whole = "N:AKQJ.1098.765.432 1098.765.432.AKQJ 765.432.AKQJ.1098 432.AKQJ.1098.765"
    assert not pbn.parse(f'[Deal "{whole}"]\n[Contract "3NT"]\n').games[0].is_end_position
    twelve = "N:AKQJ.1098.765.43 1098.765.432.AKQ 765.432.AKQJ.109 432.AKQJ.1098.7"
    game = pbn.parse(f'[Deal "{twelve}"]\n[Contract "h"]\n').games[0]
    assert game.is_end_position and game.trump is Strain.HEARTS
    assert not pbn.parse('[Deal "N:- - - -"]\n').games[0].deal.is_complete  # type: ignore[union-attr]
