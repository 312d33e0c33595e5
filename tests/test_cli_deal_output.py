"""``bridgeko deal`` writes, through its fast paths, exactly what the PBN model writes: a small
set dealt without numpy and a long one dealt and written in batches (R12.7)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import pytest

from bridgeko.bridge import dealing, pbn
from bridgeko.cli import deal, main

SEED = hashlib.sha256(b"bridgeko deal output test").hexdigest()


def expected_pbn(event: str, session: str, boards: str, site: str, date: str) -> str:
    """The text of the set as the PBN model makes and writes it (the general path)."""
    numbers = dealing.parse_board_range(boards)
    deals = dealing.deal_set(bytes.fromhex(SEED), event, session, numbers)
    games = [pbn.game_for_board(b, d, event=event, site=site, date=date) for b, d in deals.items()]
    note = (
        f"Dealt by bridgeko ({dealing.METHOD}): event {event!r}, session {session!r}, boards "
        f"{boards}; seed commitment {dealing.commitment(bytes.fromhex(SEED))}"
    )
    games[0] = replace(games[0], comments=("{" + note.replace("{", "(").replace("}", ")") + "}",))
    return pbn.dumps(games)


@pytest.mark.parametrize(
    ("event", "session", "boards", "site", "date"),
    [
        ('Open "K.O." \\ #1 {x} Dvořák', "QF-1", "1-300", "Nové Město", "1999.06.04"),
        ("#1", "", "5-9,20-40", "", ""),
        ("Bridge Open K.O.", "F-2", f"3-{deal.SMALL + 150}", "Praha", "1999.??.??"),
    ],
    ids=["small set, odd names", "small set with gaps", "long set, in batches"],
)
def test_R12_7_deal_writes_the_text_of_the_pbn_model(
    capsys: pytest.CaptureFixture[str], event: str, session: str, boards: str, site: str, date: str
) -> None:
    argv = ["deal", "--seed", SEED, "--event", event, "--session", session, "--boards", boards]
    assert main([*argv, "--site", site, "--date", date]) == 0
    out = capsys.readouterr().out
    assert out == expected_pbn(event, session, boards, site, date)


def test_R12_7_deal_json_of_a_long_set_gives_every_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    boards = range(1, deal.SMALL + 11)
    argv = ["deal", "--seed", SEED, "--event", "Open", "--boards", f"1-{boards[-1]}", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    deals = dealing.deal_set(bytes.fromhex(SEED), "Open", "", boards)
    assert data["deals"] == {str(b): d.to_pbn() for b, d in deals.items()}
