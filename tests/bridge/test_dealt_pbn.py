"""The fast PBN writer of dealt boards writes exactly what the PBN model writes (R12.7)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from bridgeko.bridge import board, dealing, pbn
from bridgeko.bridge.cards import Deal, Hand, Seat
from bridgeko.bridge.dealt_pbn import _VULNERABLE, DealtPbn, deal_value, deal_values, hand_text

SEED = hashlib.sha256(b"bridgeko dealt PBN test").digest()
NAMES = [
    ("Bridge Open K.O.", "Praha", "1999.06.04"),
    ('Open "K.O." \\ #1 {x} Dvořák', "Nové Město", "1999.??.??"),
    ("#hash", "", ""),
    ("Tab\tand\nnew line", "back\\slash", "1999.06.04"),
    ("", "?", "?"),
]


def _model_text(deals: dict[int, Deal], event: str, site: str, date: str, note: str | None) -> str:
    """The text of the same games made and written by the PBN model (the general path)."""
    games = [pbn.game_for_board(b, d, event=event, site=site, date=date) for b, d in deals.items()]
    if note is not None:
        text = note.replace("{", "(").replace("}", ")")
        games[0] = replace(games[0], comments=("{" + text + "}",))
    return pbn.dumps(games)


@pytest.mark.parametrize(("event", "site", "date"), NAMES)
def test_R12_7_a_small_set_is_written_as_the_pbn_model_writes_it(
    event: str, site: str, date: str
) -> None:
    boards = tuple(range(1, 301))
    hands = dealing.deal_set_small(SEED, event, "QF-1", boards)
    note = f"Dealt by bridgeko: event {event!r} {{seed}}"
    writer = DealtPbn(event=event, site=site, date=date, note=note)
    pieces = [writer.header()]
    for start, end in ((0, 7), (7, 150), (150, 300)):  # the pieces follow on
        part = boards[start:end]
        values = [deal_value(h, b) for b, h in zip(part, hands[start:end], strict=True)]
        pieces.append(writer.games(part, values))
    deals = dealing.deal_set(SEED, event, "QF-1", boards)
    assert "".join(pieces) == _model_text(deals, event, site, date, note)


def test_R12_7_a_batch_is_written_as_the_pbn_model_writes_it() -> None:
    boards = (*range(5, 10), *range(20, 41), *range(100, 700))  # gaps: every dealer and vul
    cards = dealing.deal_set_array(SEED, "Open", "", boards)
    values = deal_values(cards, boards)
    writer = DealtPbn(event="Open")
    text = writer.header() + writer.games(boards, values)
    deals = dealing.deal_set(SEED, "Open", "", boards)
    assert text == _model_text(deals, "Open", "", "", None)
    small = dealing.deal_set_small(SEED, "Open", "", boards)
    assert values == [deal_value(h, b) for b, h in zip(boards, small, strict=True)]


def test_deal_value_is_the_deal_from_its_dealer_and_hand_text_the_hand() -> None:
    boards = range(1, 9)
    hands = dealing.deal_set_small(SEED, "Open", "", boards)
    for b, h in zip(boards, hands, strict=True):
        deal = dealing.deal_from_indices(h)
        assert deal_value(h, b) == deal.to_pbn(first=board.dealer(b))
        assert hand_text(h[0]) == deal[Seat.NORTH].to_pbn()
    assert hand_text([]) == "-" == Hand(frozenset()).to_pbn()


def test_the_vulnerability_table_is_the_board_cycle() -> None:
    assert tuple(board.vulnerability(b).value for b in range(1, 17)) == _VULNERABLE


def test_a_piece_without_games_is_empty_and_mismatched_lengths_are_refused() -> None:
    writer = DealtPbn()
    assert writer.games([], []) == ""
    with pytest.raises(ValueError):
        writer.games([1, 2], ["N:..."])
    with pytest.raises(ValueError):
        deal_values(dealing.deal_set_array(SEED, "Open", "", [1]), [1, 2])
    assert deal_values(dealing.deal_set_array(SEED, "Open", "", []), []) == []
