"""The matches of an edition (issue 10): created from the bracket when the draw is held (I2),
results board by board (R12.2-R12.3), totals from the scorecards, ties and extra segments (R12.5),
penalties (R12.8, R12.9, I6, I13), walkovers (R15.2, I16), the bracket moving on and a later
correction carried through it, and edits of one board by two TDs (versions)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.draw import no_shows
from bridgeko.entries.models import Team
from bridgeko.matches import bracket_sync, services, state
from bridgeko.matches.models import BoardResult, Match, MatchStatus, Segment
from tests.web.conftest import World

PLAY = datetime(1999, 4, 10, 9, 0, tzinfo=UTC)


def m(world: World, code: str) -> Match:
    return Match.objects.get(edition=world.edition, code=code)


def play_segment(
    world: World, match: Match, number: int, open_text: str, closed_text: str, *, user: str = "td"
) -> None:
    """Every board of segment ``number`` with the same two results."""
    seg = Segment.objects.get(match=match, number=number)
    for board in seg.board_numbers:
        for room, text in (("open", open_text), ("closed", closed_text)):
            services.save_board(
                match=match,
                board=board,
                room=room,
                text=text,
                version=0,
                user=world.users[user],
                now=PLAY,
            )


def test_I2_matches_exist_when_the_draw_is_held(drawn: World) -> None:
    matches = list(Match.objects.filter(edition=drawn.edition))
    assert [x.code for x in matches][:8] == [f"R1-M{k}" for k in range(1, 9)]
    assert len(matches) == 16  # 8 + 4 + 2 + final + 3rd place
    byes = [x for x in matches if x.status == MatchStatus.BYE]
    assert len(byes) == 3  # 13 teams in a scheme of 16 (R11.4)
    to_play = [x for x in matches if x.status == MatchStatus.TO_PLAY]
    assert len(to_play) == 5
    first = to_play[0]
    assert [(s.number, s.first_board, s.last_board) for s in first.segments.all()] == [
        (1, 1, 16),
        (2, 17, 32),
    ]
    quarter = [x for x in matches if x.stage == "quarterfinal"]
    assert sum(1 for q in quarter if q.home_id is not None or q.visitors_id is not None) >= 3


def test_R12_3_board_by_board_decides_and_the_winner_moves_on(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    play_segment(drawn, match, 1, "4S N =", "4S N -1")  # board 1 not vulnerable: +10 each
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS
    play_segment(drawn, match, 2, "3NT N =", "3NT S =")
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    assert match.winner == "home"
    view = state.view(match)
    assert view.segments[0].home_imps == sum(
        b.imps for b in view.segments[0].boards if b.imps is not None
    )
    assert match.home_total == view.segments[0].home_imps and match.visitors_total == 0
    nxt = Match.objects.filter(edition=drawn.edition, round=2)
    assert any(match.home_id in (q.home_id, q.visitors_id) for q in nxt)


def test_R12_5_tie_adds_4_board_segment(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    play_segment(drawn, match, 1, "4S N =", "4S N =")
    play_segment(drawn, match, 2, "P", "P")
    match.refresh_from_db()
    assert match.status == MatchStatus.EXTRA_SEGMENT_REQUIRED
    extra = Segment.objects.get(match=match, number=3)
    assert (extra.first_board, extra.last_board, extra.is_extra) == (33, 36, True)
    play_segment(drawn, match, 3, "4S N =", "4S N -1")
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
    # Correcting the extra segment into a tie again asks for a 4th segment.
    services.save_board(
        match=match,
        board=33,
        room="closed",
        text="4S N =",
        version=1,
        user=drawn.users["td"],
        now=PLAY,
        confirm=True,
    )


def test_conflict_shows_both_values(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    td = drawn.users["td"]
    services.save_board(
        match=match, board=5, room="open", text="4h s +1", version=0, user=td, now=PLAY
    )
    stored = BoardResult.objects.get(match=match, board=5, room="open")
    assert stored.text == "4H S +1" and stored.version == 1
    with pytest.raises(services.BoardConflict) as caught:
        services.save_board(
            match=match, board=5, room="open", text="4H S =", version=0, user=td, now=PLAY
        )
    assert "4H S +1" in caught.value.message and "4H S =" in caught.value.message
    with pytest.raises(ServiceError) as bad:
        services.save_board(
            match=match, board=5, room="closed", text="4Q S", version=0, user=td, now=PLAY
        )
    assert "4Q S" in bad.value.message
    assert AuditEntry.objects.filter(action="bridgeko.board.saved").count() == 1


def test_R15_2_walkover_through_a_failure_to_appear(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    visitors = Team.objects.get(pk=match.visitors_id)
    no_shows.record_no_show(
        team=visitors,
        match=match.code,
        timely_notice=False,
        note="",
        user=drawn.users["td"],
        now=PLAY,
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.WALKOVER and match.winner == "home"


def test_correction_of_a_winner_who_played_on_needs_confirmation(drawn: World) -> None:
    r1 = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert r1 is not None
    play_segment(drawn, r1, 1, "4S N =", "4S N -1")
    play_segment(drawn, r1, 2, "P", "P")
    r1.refresh_from_db()
    qf = next(
        q
        for q in Match.objects.filter(edition=drawn.edition, round=2)
        if r1.home_id in (q.home_id, q.visitors_id)
    )
    assert qf.status == MatchStatus.TO_PLAY
    services.save_board(
        match=qf, board=1, room="open", text="P", version=0, user=drawn.users["td"], now=PLAY
    )
    with pytest.raises(bracket_sync.ConfirmationNeeded) as caught:
        for board in range(1, 17):
            services.save_board(
                match=r1,
                board=board,
                room="closed",
                text="4S N +1",
                version=1,
                user=drawn.users["td"],
                now=PLAY,
            )
    assert caught.value.affected[0].code == qf.code
