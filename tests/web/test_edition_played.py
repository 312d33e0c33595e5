"""A whole 13-team edition played through the services (issue 10, Tests): the entries and the draw
(``tests/web/test_draw.py``), every match of every round — board by board for some, segment totals
from the scorecards for others — with a tie broken only by the second extra segment (R12.5), a
walkover (R15.2), a lateness (R12.9: the removed boards take no result) and a slow-play penalty
(R12.8), to the final and the 3rd-place match; then the standings (I7) and the prize list (R5.1),
asserted to the IMP and to the crown.

Deterministic: the draw's seed is fixed (the draw numbers are the same every run) and every result
is a fixed text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bridgeko.competition import bracket
from bridgeko.competition.prizes import prize_list
from bridgeko.core import bracket_hooks
from bridgeko.core.errors import ServiceError
from bridgeko.draw import no_shows
from bridgeko.draw.models import DrawNumber
from bridgeko.entries.models import Team
from bridgeko.matches import bracket_sync, services, state
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import World
from tests.web.test_draw import enter_13, held

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # seconds: ~250 results saved

ROUND_1 = datetime(1999, 3, 19, 18, 0, tzinfo=UTC)
QUARTERS = datetime(1999, 4, 16, 17, 0, tzinfo=UTC)
FINALS = datetime(1999, 6, 5, 8, 0, tzinfo=UTC)

PATTERN = (
    ("4S N =", "4S N -1"),  # a game made in the open room, one down in the closed room
    ("3NT S +1", "3NT S +1"),  # flat
    ("3H E =", "2H E -1"),  # a partscore each way
    ("5C N +1", "6C N ="),  # a slam bid in the closed room only
    ("3NTX W -2", "3NT W ="),  # doubled undertricks
    ("P", "1NT N -1"),  # passed out in the open room
    ("4H W =", "4SX N -1"),  # a game against a doubled sacrifice
    ("1S S +2", "2S S ="),
)
"""The results of a board by its position in the pattern (open room, closed room)."""


class Play:
    def __init__(self, world: World) -> None:
        self.world = world
        self.td = world.users["td"]

    def match(self, code: str) -> Match:
        return Match.objects.get(edition=self.world.edition, code=code)

    def board(
        self, code: str, number: int, open_text: str, closed_text: str, now: datetime
    ) -> None:
        match = self.match(code)
        for room, text in (("open", open_text), ("closed", closed_text)):
            services.save_board(
                match=match, board=number, room=room, text=text, version=0, user=self.td, now=now
            )

    def boards(self, code: str, numbers: range | list[int], now: datetime, shift: int = 0) -> None:
        for k, number in enumerate(numbers):
            open_text, closed_text = PATTERN[(k + shift) % len(PATTERN)]
            self.board(code, number, open_text, closed_text, now)

    def totals(self, code: str, number: int, home: int, visitors: int, now: datetime) -> None:
        segment = Segment.objects.get(match=self.match(code), number=number)
        services.set_segment_totals(
            segment=segment, home_imps=home, visitors_imps=visitors, user=self.td, now=now
        )

    def outcome(self, code: str) -> tuple[str, int, int, str]:
        m = self.match(code)
        team = m.home if m.winner == "home" else m.visitors if m.winner == "visitors" else None
        return m.status, m.home_total, m.visitors_total, team.name if team is not None else ""


def test_R1_2_a_whole_13_team_edition_is_played_to_the_prize_list(world: World) -> None:
    enter_13(world)
    held(world)
    edition = world.edition
    play = Play(world)
    number_of = {n.number: n.team.name for n in DrawNumber.objects.filter(draw__edition=edition)}
    # R11.1, R11.4: Tým 00-03 seeded 1-4; numbers 14-16 missing, so 1, 2 and 3 have byes.
    assert [number_of[n] for n in range(1, 5)] == ["Tým 00", "Tým 01", "Tým 02", "Tým 03"]
    byes = Match.objects.filter(edition=edition, status=MatchStatus.BYE)
    assert sorted(byes.values_list("code", flat=True)) == ["R1-M1", "R1-M5", "R1-M8"]

    # --- Round 1 -------------------------------------------------------------------------------
    # R1-M2 (8 v 9), board by board. R12.9: the visitors 10 minutes late for segment 1: two
    # started periods of 7 minutes, boards 15 and 16 removed, 2 x 3 IMPs to the home team.
    m2 = play.match("R1-M2")
    services.add_penalty(
        match=m2,
        segment=1,
        kind="lateness",
        side="visitors",
        minutes=10,
        reason="the visitors came at 19:10",
        user=play.td,
        now=ROUND_1,
    )
    with pytest.raises(ServiceError, match="removed for lateness"):
        play.board("R1-M2", 16, "4S N =", "4S N =", ROUND_1)
    play.boards("R1-M2", range(1, 15), ROUND_1)
    assert play.match("R1-M2").status == MatchStatus.IN_PROGRESS
    play.boards("R1-M2", range(17, 33), ROUND_1, shift=3)
    view = state.view(play.match("R1-M2"))
    assert view.segments[0].removed == (15, 16)
    assert view.segments[0].scored == 14
    line = view.state.lines[0]
    assert (line.home_imps, line.visitors_imps, line.home_penalties) == (52, 46, 6)
    assert play.outcome("R1-M2") == ("decided", 111, 94, "Tým 08")

    # R1-M3 (5 v 12): the visitors fail to appear without notice (R15.2): a walkover.
    m3 = play.match("R1-M3")
    no_shows.record_no_show(
        team=Team.objects.get(pk=m3.visitors_id),
        match="R1-M3",
        timely_notice=False,
        note="nobody came",
        user=play.td,
        now=ROUND_1,
    )
    assert play.outcome("R1-M3") == ("walkover", 0, 0, number_of[5])

    # R1-M4 (4 v 13): totals from the scorecards.
    play.totals("R1-M4", 1, 38, 21, ROUND_1)
    play.totals("R1-M4", 2, 29, 33, ROUND_1)
    assert play.outcome("R1-M4") == ("decided", 67, 54, number_of[4])

    # R1-M6 (6 v 11): tied 50:50 after 32 boards (R12.5) -> segment 3 (boards 33-36) appears;
    # tied again after it -> segment 4 (37-40); decided there.
    play.totals("R1-M6", 1, 31, 24, ROUND_1)
    play.totals("R1-M6", 2, 19, 26, ROUND_1)
    m6 = play.match("R1-M6")
    assert m6.status == MatchStatus.EXTRA_SEGMENT_REQUIRED
    third = Segment.objects.get(match=m6, number=3)
    assert (third.first_board, third.last_board, third.is_extra) == (33, 36, True)
    for number in third.board_numbers:
        play.board("R1-M6", number, "4S N =", "4S N =", ROUND_1)
    m6 = play.match("R1-M6")
    assert m6.status == MatchStatus.EXTRA_SEGMENT_REQUIRED
    fourth = Segment.objects.get(match=m6, number=4)
    assert (fourth.first_board, fourth.last_board, fourth.is_extra) == (37, 40, True)
    play.board("R1-M6", 37, "4S N -1", "4S N =", ROUND_1)  # board 37 as 5: NS vulnerable
    for number in (38, 39, 40):
        play.board("R1-M6", number, "P", "P", ROUND_1)
    assert play.outcome("R1-M6") == ("decided", 50, 62, number_of[11])

    # R1-M7 (7 v 10): the visitors win on the scorecards.
    play.totals("R1-M7", 1, 20, 35, ROUND_1)
    play.totals("R1-M7", 2, 28, 22, ROUND_1)
    assert play.outcome("R1-M7") == ("decided", 48, 57, number_of[10])

    # --- Quarterfinals: the byes' teams (1, 2, 3) meet the winners of round 1 (I2) ------------
    qf = {code: play.match(code) for code in ("QF1", "QF2", "QF3", "QF4")}
    assert all(m.status == MatchStatus.TO_PLAY for m in qf.values())
    assert number_of_team(qf["QF2"]) == (5, 4)
    assert number_of_team(qf["QF3"]) == (3, 11)
    assert number_of_team(qf["QF4"]) == (10, 2)
    play.totals("QF1", 1, 45, 30, QUARTERS)
    play.totals("QF1", 2, 33, 40, QUARTERS)
    play.totals("QF2", 1, 25, 41, QUARTERS)
    play.totals("QF2", 2, 36, 22, QUARTERS)
    play.boards("QF3", range(1, 17), QUARTERS, shift=5)  # segment 1 board by board
    play.totals("QF3", 2, 26, 30, QUARTERS)  # segment 2 from the scorecards
    play.totals("QF4", 1, 30, 44, QUARTERS)
    play.totals("QF4", 2, 27, 27, QUARTERS)
    assert play.outcome("QF1") == ("decided", 78, 70, "Tým 00")
    assert play.outcome("QF2") == ("decided", 61, 63, "Tým 03")
    assert play.outcome("QF3") == ("decided", 83, 82, "Tým 02")
    assert play.outcome("QF4") == ("decided", 57, 71, "Tým 01")

    # --- Semifinals: R12.8, a slow-play penalty of 2 boards decides SF2 ----------------------
    play.totals("SF1", 1, 40, 35, FINALS)
    play.totals("SF1", 2, 30, 41, FINALS)
    assert play.outcome("SF1") == ("decided", 70, 76, "Tým 03")
    play.totals("SF2", 1, 35, 30, FINALS)
    services.add_penalty(
        match=play.match("SF2"),
        segment=2,
        kind="slow_play",
        side="home",
        boards=2,
        reason="two boards not played in the 130 minutes",
        user=play.td,
        now=FINALS,
    )
    play.totals("SF2", 2, 33, 35, FINALS)
    assert play.outcome("SF2") == ("decided", 62, 65, "Tým 01")  # 68 - 2 x 3 IMPs

    # --- The 3rd-place match and the 48-board final ------------------------------------------
    play.totals("3RD", 1, 50, 31, FINALS)
    play.totals("3RD", 2, 22, 30, FINALS)
    final = play.match("F")
    assert [(s.first_board, s.last_board) for s in final.segments.all()] == [
        (1, 16),
        (17, 32),
        (33, 48),
    ]
    play.boards("F", range(1, 17), FINALS)
    play.totals("F", 2, 30, 28, FINALS)
    play.totals("F", 3, 25, 40, FINALS)
    assert play.outcome("3RD") == ("decided", 72, 61, "Tým 00")
    assert play.outcome("F") == ("decided", 108, 120, "Tým 01")  # 53:52 + 30:28 + 25:40

    # --- Standings (I7) and prizes (R5.1) ----------------------------------------------------
    scheme = bracket_sync.scheme_of(bracket_sync.held_draw(edition))
    assert scheme is not None
    resolved = bracket.resolve(scheme, bracket_hooks.results(edition), teams=set(number_of))
    assert resolved.finished
    standings = [(p.place, sorted(number_of[n] for n in p.numbers)) for p in resolved.standings()]
    assert standings == [
        ("1", ["Tým 01"]),
        ("2", ["Tým 03"]),
        ("3", ["Tým 00"]),
        ("4", ["Tým 02"]),
        ("5-8", ["Tým 08", "Tým 10", "Tým 11", "Tým 12"]),  # the quarterfinal losers (I7)
        ("9-13", ["Tým 04", "Tým 05", "Tým 06", "Tým 07", "Tým 09"]),  # round 1's, with the
    ]  # walkover's absent team
    assert number_of[12] in standings[-1][1]
    places = {
        p.first: number_of[p.numbers[0]]
        if len(p.numbers) == 1
        else [number_of[n] for n in p.numbers]
        for p in resolved.standings()
    }
    prizes = [
        (a.place, a.team, a.amount, a.currency) for a in prize_list(places, edition.regulations)
    ]
    assert prizes == [  # R5.1: the four prizes, places 5-13 none
        (1, "Tým 01", 60000, "CZK"),
        (2, "Tým 03", 20000, "CZK"),
        (3, "Tým 00", 15000, "CZK"),
        (4, "Tým 02", 5000, "CZK"),
    ]


def number_of_team(match: Match) -> tuple[int, int]:
    numbers = {n.team_id: n.number for n in DrawNumber.objects.filter(draw__edition=match.edition)}
    return numbers[match.home_id], numbers[match.visitors_id]
