"""``bridgeko analyse-pending`` end to end (issue 11): the sets of boards whose double-dummy
analysis is missing (a server restarted while its background thread ran) are analysed board by
board; the boards done before are kept."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bridgeko.boards.models import BoardDeal, DealSet
from bridgeko.bridge import dealing
from bridgeko.cli import main

REGULATIONS = Path(__file__).resolve().parents[1] / "editions" / "bridge-open-ko-1999.toml"
SEED = bytes(range(32))


@pytest.fixture
def deal_set(db: Any) -> DealSet:
    from django.contrib.auth import get_user_model

    from bridgeko.editions.services import create_edition
    from bridgeko.matches.models import Match, Segment

    organiser = get_user_model().objects.create_user("organiser", password="x")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS.read_text(encoding="utf-8"), user=organiser
    )
    match = Match.objects.create(
        edition=edition, code="QF1", position=9, round=2, stage="quarterfinal"
    )
    segment = Segment.objects.create(match=match, number=1, first_board=1, last_board=6)
    made = DealSet.objects.create(
        segment=segment,
        source="loaded",
        made_at=datetime(1999, 4, 16, tzinfo=UTC),
        analysis_started_at=datetime(1999, 4, 16, tzinfo=UTC),  # the process died meanwhile
    )
    for board, deal in dealing.deal_set(SEED, "E", "S", range(1, 7)).items():
        BoardDeal.objects.create(
            deal_set=made,
            board=board,
            deal=deal.to_pbn(),
            dd={"done": "before"} if board == 1 else None,
        )
    return made


def test_analyse_pending_fills_every_board_without_a_table(
    capsys: pytest.CaptureFixture[str], deal_set: DealSet
) -> None:
    assert main(["analyse-pending", "--edition", "ko-1999"]) == 0
    out = capsys.readouterr().out
    assert out == "ko-1999 QF1/1: 6 of 6 boards analysed\n"
    boards = list(BoardDeal.objects.filter(deal_set=deal_set).order_by("board"))
    assert boards[0].dd == {"done": "before"}  # kept
    for b in boards[1:]:
        assert b.dd is not None and set(b.dd) == {"N", "E", "S", "W"}
        assert b.par is not None and "score" in b.par
    deal_set.refresh_from_db()
    assert deal_set.analysis_finished_at is not None
    assert main(["analyse-pending"]) == 0
    assert capsys.readouterr().out == "nothing to analyse\n"
