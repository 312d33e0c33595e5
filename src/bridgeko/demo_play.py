"""The demo's matches (``make demo``, :mod:`bridgeko.demo`): results made up by a seeded random
generator (:class:`Results`: partscores, games, slams, doubled undertricks, passed-out boards,
the two rooms of a board often in the same contract) and entered through the same services as the
TD's pages — board by board (:func:`bridgeko.matches.services.save_board`), a whole match from a
PBN file, segment totals from the scorecards, a walkover (R15.2), a lateness (R12.9) and a
slow-play penalty (R12.8). The same seed gives the same demo every run.

* :func:`play_1999` — the 13-team edition in play: the first round played (three matches board by
  board, one from a PBN file, one walkover, one lateness), the quarterfinals under way (QF1 tied
  after 32 boards and in its extra segment, boards 33-36 partly entered; QF3 with computer-dealt
  boards: segment 1 played from its deals, ended and revealed, segment 2's commitment published;
  the others partly played).
* :func:`appeal_1999` — one appeal in a first-round match, decided: the score stands (R16).
* :func:`play_1998` — the 8-team edition of 1998 played to its final (segment totals from the
  scorecards, a slow-play penalty in a semifinal, the final's last segment board by board), so
  that its standings and prize list exist.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bridgeko.bridge import pbn
from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.cards import Card, Deal, Hand, Seat
from bridgeko.bridge.scoring import imps, parse_result, result_score

PRAGUE = ZoneInfo("Europe/Prague")
SEED_1999 = 1999
SEED_1998 = 1998

DEALT_QF = "QF3"
"""The 1999 quarterfinal with computer-dealt boards from a committed seed (R12.7, issue 11):
segment 1 played (results from the deals' double-dummy tables), ended in both rooms, its seed
revealed and its set analysed; segment 2's set made and its commitment published."""
DEALT_SEEDS = {
    1: bytes.fromhex("3c1f5e0b9a7d24c86f13e2a5b7049d6e8c21f4a39b5d07e6c8a1f2b3d4e5f607"),
    2: bytes.fromhex("a94e2c7b10d5f83e6b29c4a71f0e8d3b5c62a9174e3f80d1b2c5a6e7f8091a2b"),
}
"""The fixed seeds of the demo's dealt sets (a deterministic demo; a real set's seed is made by
the server)."""
TIED_QF = "QF1"
"""The 1999 quarterfinal tied after 32 boards, in its first extra segment (R12.5)."""
PBN_MATCH = "R1-M6"
"""The 1999 first-round match whose results came as a PBN file (both rooms)."""
AGREED_MATCH = "R1-M7"
"""The 1999 first-round match the captains moved by agreement (R14.2a, issue 21): the visitors
proposed Thursday evening, the home team accepted in time (their captains have no login in the
demo: the proposal and the answer are recorded without a user). Its record came from the
winning captain board by board with the scorecards (R14.2b); the opponents disputed one board
and the TD approved the record after reading the signed scorecards."""
DISPUTED_BOARD = 23
RECORD_QF = "QF4"
"""The 1999 quarterfinal its captains played on the Wednesday before the round's Friday: the
winners' record (segment totals and the scorecards) is confirmed by the opponents and waits
for the TD's approval (R14.2b); the bracket does not move on until then."""
RECORD_QF_TOTALS = {1: (41, 23), 2: (30, 35)}
BRIDGEMATE_QF = "QF2"
"""The 1999 quarterfinal whose segment 2 comes from Bridgemate terminals (issue 20): the server
follows a real BCS file (``demo_files/bridgemate-session.bws``), tables 1 and 2 its rooms."""
BRIDGEMATE_SEGMENT = 2
WALKOVER_MATCH = "R1-M3"
"""The 1999 first-round match whose visitors failed to appear (R15.2)."""
LATE_MATCH = "R1-M4"
"""The 1999 first-round match in which the visitors came 10 minutes late (R12.9)."""
LATE_MINUTES = 10
SLOW_PLAY_MATCH_1998 = "SF2"
"""The 1998 semifinal with a slow-play penalty (R12.8)."""

WINNERS_1998 = {
    # the scripted 1998 bracket (draw numbers 1-8): who won each match
    "QF1": "home",
    "QF2": "home",
    "QF3": "visitors",
    "QF4": "home",
    "SF1": "home",
    "SF2": "visitors",
    "3RD": "home",
}

STRAINS = ("C", "D", "H", "S", "NT")
SEATS = ("N", "E", "S", "W")


# ---------------------------------------------------------------------------------------------
# Made-up results


def _made(delta: int) -> str:
    return "=" if delta == 0 else f"{delta:+d}"


@dataclass
class Results:
    """A seeded generator of realistic table results (the TD's quick text)."""

    rng: random.Random

    def one(self, seats: Sequence[str] = SEATS) -> str:
        """One table's result, declared from one of ``seats``."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.04:
            return "P"
        declarer = rng.choice(seats)
        doubled = ""
        if roll < 0.42:  # a partscore
            level = rng.choice((1, 2, 2, 2, 3, 3))
            strain = (
                rng.choice(("C", "D", "H", "S", "S", "NT"))
                if level < 3
                else rng.choice(("C", "D", "H", "S"))
            )
            delta = rng.choices((-2, -1, 0, 1, 2), (1, 5, 8, 5, 2))[0]
        elif roll < 0.88:  # a game
            level, strain = rng.choice(
                ((3, "NT"), (3, "NT"), (4, "H"), (4, "S"), (4, "S"), (5, "D"))
            )
            delta = rng.choices((-2, -1, 0, 1, 2), (1, 5, 9, 5, 1))[0]
        elif roll < 0.95:  # doubled, going down
            level = rng.choice((2, 3, 4, 5))
            strain = rng.choice(STRAINS)
            doubled = "X"
            delta = -rng.choices((1, 2, 3, 4), (5, 4, 2, 1))[0]
        else:  # a slam
            level = 7 if rng.random() < 0.12 else 6
            strain = rng.choice(STRAINS)
            delta = rng.choices((-1, 0, 1), (3, 8, 1 if level == 6 else 0))[0]
        delta = max(-(level + 6), min(delta, 7 - level))
        return f"{level}{strain}{doubled} {declarer} {_made(delta)}"

    def pair(self) -> tuple[str, str]:
        """The open and the closed room's result of one board: often the same contract."""
        first = self.one()
        if first != "P" and self.rng.random() < 0.7:
            contract, declarer, _made_text = first.split()
            result = parse_result(first)
            if self.rng.random() < 0.3:
                declarer = SEATS[(SEATS.index(declarer) + 2) % 4]  # the partner declares
            level = result.contract.level
            delta = result.over_under + self.rng.choice((-1, 0, 0, 0, 0, 1))
            delta = max(-(level + 6), min(delta, 7 - level))
            second = f"{contract} {declarer} {_made(delta)}"
        elif first != "P" and self.rng.random() < 0.85:  # another contract, the same side
            side = ("N", "S") if first.split()[1] in ("N", "S") else ("E", "W")
            second = self.one(side)
        else:
            second = self.one()
        return (first, second) if self.rng.random() < 0.5 else (second, first)

    def deal(self) -> Deal:
        cards = [Card.from_index(i) for i in range(52)]
        self.rng.shuffle(cards)
        return Deal.from_hands(
            {seat: Hand.of(cards[13 * k : 13 * k + 13]) for k, seat in enumerate(Seat)}
        )

    def totals(self) -> tuple[int, int]:
        """A segment's IMPs from the scorecards (16 boards)."""
        return self.rng.randint(12, 52), self.rng.randint(12, 52)


def board_imps(board: int, open_text: str, closed_text: str) -> int:
    """IMPs to the home team (NS in the open room, R12.2) of one board."""
    vul = vulnerability(board)
    diff = result_score(parse_result(open_text), vul) - result_score(parse_result(closed_text), vul)
    return imps(diff)


def levelling_pair(board: int, need: int, gen: Results) -> tuple[str, str] | None:
    """Results of ``board`` giving the home team exactly ``need`` IMPs (negative: the visitors),
    or None when none of the tried results does."""
    for _attempt in range(400):
        open_text, closed_text = gen.pair()
        if board_imps(board, open_text, closed_text) == need:
            return open_text, closed_text
    return None


# ---------------------------------------------------------------------------------------------
# Entering


class Player:
    """Enters results of one edition as ``user`` (the TD)."""

    def __init__(self, edition: Any, user: Any, gen: Results) -> None:
        self.edition = edition
        self.user = user
        self.gen = gen
        self._ids: dict[str, int] = {}

    def match(self, code: str) -> Any:
        """The match as stored now (its status and totals fresh)."""
        from bridgeko.matches.models import Match

        return Match.objects.get(edition=self.edition, code=code)

    def _handle(self, code: str) -> Any:
        """A match to pass to the services, which lock and read its row themselves."""
        from bridgeko.matches.models import Match

        if code not in self._ids:
            self._ids[code] = self.match(code).pk
        return Match(pk=self._ids[code])

    def save(
        self, code: str, board: int, room: str, text: str, now: datetime, source: str = ""
    ) -> None:
        from bridgeko.matches import services

        services.save_board(
            match=self._handle(code),
            board=board,
            room=room,
            text=text,
            version=0,
            user=self.user,
            now=now,
            source=source,
        )

    def boards(
        self,
        code: str,
        numbers: Iterable[int],
        start: datetime,
        *,
        skip: Sequence[int] = (),
        closed_too: bool = True,
    ) -> None:
        """Made-up results of ``numbers`` (both rooms, or the open room only), one board every
        7 minutes from ``start``."""
        for k, number in enumerate(numbers):
            if number in skip:
                continue
            open_text, closed_text = self.gen.pair()
            now = start + timedelta(minutes=7 * (k + 1))
            self.save(code, number, "open", open_text, now)
            if closed_too:
                self.save(code, number, "closed", closed_text, now + timedelta(minutes=2))

    def totals(self, code: str, number: int, home: int, visitors: int, now: datetime) -> None:
        from bridgeko.matches import services
        from bridgeko.matches.models import Segment

        segment = Segment.objects.get(match=self.match(code), number=number)
        services.set_segment_totals(
            segment=segment, home_imps=home, visitors_imps=visitors, user=self.user, now=now
        )


def _start(match: Any, fallback: datetime) -> datetime:
    from bridgeko.draw.models import MatchDate

    date = MatchDate.objects.filter(draw__edition=match.edition, match=match.code).first()
    start = match.start or (date.start if date is not None else None) or fallback
    return start.astimezone(PRAGUE)


def match_pbn(match: Any, gen: Results, *, event: str, site: str) -> bytes:
    """A PBN file of the whole match as a scoring program writes it: every board's deal and the
    contract, declarer and result of both rooms (``[Room "Open"]``/``[Room "Closed"]``)."""
    start = _start(match, datetime(1999, 3, 19, 19, tzinfo=PRAGUE))
    games: list[pbn.PbnGame] = []
    last = max(s.last_board for s in match.segments.all())
    for board in range(1, last + 1):
        open_text, closed_text = gen.pair()
        games.extend(
            pbn.games_for_board(
                board,
                gen.deal(),
                open_result=parse_result(open_text),
                closed_result=parse_result(closed_text),
                event=event,
                site=site,
                date=start.date(),
            )
        )
    return pbn.dumps(games).encode("utf-8")


def enter_pbn(player: Player, code: str, data: bytes, now: datetime) -> None:
    """The match's results from its PBN file, through the TD's import service (the same as
    the import page and ``bridgeko import-results``)."""
    from bridgeko.matches import pbn_import

    imported = pbn_import.import_results(
        match=player.match(code), data=data, user=player.user, now=now, replace=False
    )
    assert not imported.problems, imported.problems


# ---------------------------------------------------------------------------------------------
# 1999: the first round played, the quarterfinals under way


def play_1999(edition: Any, td: Any) -> None:
    """Call inside the demo's transaction, after the draw and the schedule."""
    from bridgeko.draw import no_shows
    from bridgeko.matches import services
    from bridgeko.matches.models import Match, MatchStatus

    player = Player(edition, td, Results(random.Random(SEED_1999)))
    agree_1999(edition)
    first_round = list(
        Match.objects.filter(edition=edition, round=1, status=MatchStatus.TO_PLAY).order_by(
            "position"
        )
    )
    for match in first_round:
        start = _start(match, datetime(1999, 3, 19, 19, tzinfo=PRAGUE))
        code = match.code
        if code == WALKOVER_MATCH:
            absent = match.visitors
            assert absent is not None
            no_shows.record_no_show(
                team=absent,
                match=code,
                timely_notice=False,
                note="Družstvo nepřijelo a nedalo vědět.",
                user=td,
                now=start + timedelta(minutes=45),
            )
            continue
        if code == AGREED_MATCH:
            _record_by_captains(player, code, start, td)
            continue
        if code == PBN_MATCH:
            data = match_pbn(
                match, player.gen, event="Bridge Open K.O. 1999", site="Nové Město nad Metují"
            )
            enter_pbn(player, code, data, start + timedelta(hours=5))
            continue
        skip: tuple[int, ...] = ()
        if code == LATE_MATCH:
            services.add_penalty(
                match=match,
                segment=1,
                kind="lateness",
                side="visitors",
                minutes=LATE_MINUTES,
                reason="Hosté přišli v 19:10.",
                user=td,
                now=start + timedelta(minutes=10),
            )
            skip = (15, 16)  # R12.9, I6: two started periods of 7 minutes, the last two boards
        player.boards(code, range(1, 17), start, skip=skip)
        player.boards(code, range(17, 33), start + timedelta(hours=2, minutes=15))
        _decide(player, code, start + timedelta(hours=4, minutes=30))
    quarter_start = datetime(1999, 4, 16, 19, tzinfo=PRAGUE)
    agree_quarterfinal(edition)
    for match in Match.objects.filter(edition=edition, round=2).order_by("position"):
        start = _start(match, quarter_start)
        code = match.code
        if code == RECORD_QF:
            record_quarterfinal(match)
        elif code == DEALT_QF:
            dealt_quarterfinal(player, code, start)
        elif code == TIED_QF:
            _tied_after_32(player, code, start)
            extra = start + timedelta(hours=5)
            player.boards(code, range(33, 35), extra)  # R12.5: the extra segment under way
            player.boards(code, range(35, 36), extra + timedelta(minutes=14), closed_too=False)
        elif match.position % 3 == 0:
            player.boards(code, range(1, 17), start)
            player.boards(code, range(17, 25), start + timedelta(hours=2, minutes=15))
        elif match.position % 3 == 1:
            player.boards(code, range(1, 11), start)
        else:
            player.boards(code, range(1, 17), start)


def _agree(
    edition: Any,
    code: str,
    side: str,
    start: datetime,
    place: str,
    note: str,
    proposed: datetime,
    accepted: datetime,
) -> None:
    """``side``'s captain proposes ``start`` at ``place``; the other captain accepts (the
    captains have no login in the demo: recorded without a user)."""
    from bridgeko.matches import agreements
    from bridgeko.matches.models import Match

    proposal = agreements.propose(
        match=Match.objects.get(edition=edition, code=code),
        side=side,
        start=start,
        place=place,
        note=note,
        user=None,
        now=proposed,
    )
    other = "home" if side == "visitors" else "visitors"
    agreements.accept(proposal=proposal, side=other, user=None, now=accepted)


def agree_1999(edition: Any) -> None:
    """:data:`AGREED_MATCH` moved by its captains: proposed on Sunday 14 March, accepted on
    Monday 15 March (the organiser told in time: R14.2a), played on Thursday 18 March."""
    _agree(
        edition,
        AGREED_MATCH,
        "visitors",
        datetime(1999, 3, 18, 18, 30, tzinfo=PRAGUE),
        "Klubovna BK Nové Město, Komenského 1",
        "V pátek máme dva hráče na turnaji v Brně; čtvrtek by šel?",
        proposed=datetime(1999, 3, 14, 20, 15, tzinfo=PRAGUE),
        accepted=datetime(1999, 3, 15, 9, 40, tzinfo=PRAGUE),
    )


def demo_pdf(line: str) -> bytes:
    """A one-page PDF with one line of text, standing for an uploaded file (a convention card,
    signed scorecards)."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", line)
    text = plain.encode("ascii", "ignore").replace(b"(", b"[").replace(b")", b"]")
    stream = b"BT /F1 14 Tf 60 780 Td (" + text + b") Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += str(number).encode() + b" 0 obj\n" + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 " + str(len(objects) + 1).encode() + b"\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size " + str(len(objects) + 1).encode() + b" /Root 1 0 R >>\n"
    out += b"startxref\n" + str(xref).encode() + b"\n%%EOF\n"
    return bytes(out)


def _scorecards(code: str) -> bytes:
    return demo_pdf(f"Zapis o utkani {code} [demo]: podepsane zapisni listky obou mistnosti")


def _record_by_captains(player: Player, code: str, start: datetime, td: Any) -> None:
    """:data:`AGREED_MATCH`'s record (R14.2b): the winning captain types the 32 boards (the
    same made-up results the TD would have entered) with the scorecards at night; the opponents
    dispute one board the next morning; the TD reads the scorecards and approves the record."""
    from bridgeko.matches import records
    from bridgeko.matches.models import RecordSubmission

    match = player.match(code)
    boards: dict[tuple[int, str], str] = {}
    for board in range(1, 33):
        boards[(board, "open")], boards[(board, "closed")] = player.gen.pair()
    trial = RecordSubmission(match=match, boards={f"{b} {r}": t for (b, r), t in boards.items()})
    home, visitors = records.provisional_score(trial)
    side = "home" if home > visitors else "visitors"
    played = start + timedelta(hours=4, minutes=45)
    sub = records.submit(
        match=match,
        side=side,
        scorecards=_scorecards(code),
        filename="zapis.pdf",
        boards=boards,
        note="Hráno ve čtvrtek v klubovně, zápisy podepsali oba kapitáni.",
        user=None,
        now=played,
    )
    records.dispute(
        submission=sub,
        side="visitors" if side == "home" else "home",
        note=(
            f"Rozdání {DISPUTED_BOARD}, zavřená místnost: podle nás "
            f"{boards[(DISPUTED_BOARD, 'closed')]} o zdvih lépe."
        ),
        user=None,
        now=played + timedelta(hours=9),
    )
    records.approve(
        submission=sub,
        user=td,
        now=played + timedelta(hours=11),
        note="Podle podepsaných zápisních lístků platí zápis, jak byl poslán.",
    )


def agree_quarterfinal(edition: Any) -> None:
    """:data:`RECORD_QF` moved to the Wednesday by its captains (in time, R14.2a)."""
    _agree(
        edition,
        RECORD_QF,
        "home",
        datetime(1999, 4, 14, 18, 0, tzinfo=PRAGUE),
        "Hotel Metuje, salonek",
        "Středa nám vyhovuje lépe, hráli bychom se zástěnami jako v klubu.",
        proposed=datetime(1999, 4, 8, 19, 0, tzinfo=PRAGUE),
        accepted=datetime(1999, 4, 9, 8, 20, tzinfo=PRAGUE),
    )


def record_quarterfinal(match: Any) -> None:
    """:data:`RECORD_QF`'s record from the scorecards' totals, confirmed by the opponents the
    next morning: it waits for the TD's approval (R14.2b)."""
    from bridgeko.matches import records

    played = datetime(1999, 4, 14, 23, 50, tzinfo=PRAGUE)
    sub = records.submit(
        match=match,
        side="home",
        scorecards=_scorecards(match.code),
        filename="zapis.pdf",
        totals=RECORD_QF_TOTALS,
        user=None,
        now=played,
    )
    records.confirm(submission=sub, side="visitors", user=None, now=played + timedelta(hours=9))


def bridgemate_1999(edition: Any, td: Any, now: datetime) -> None:
    """The Bridgemate file of :data:`BRIDGEMATE_QF` copied into the data directory and switched
    on for the server's follower (``make demo`` runs it; ``bridgeko follow`` elsewhere)."""
    from importlib import resources

    from django.conf import settings

    from bridgeko.matches import bws_import
    from bridgeko.matches.models import Match

    folder = Path(settings.DATA_DIR) / "bridgemate"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{BRIDGEMATE_QF}.bws"
    source = resources.files("bridgeko") / "demo_files" / "bridgemate-session.bws"
    target.write_bytes(source.read_bytes())
    bws_import.remember(
        match=Match.objects.get(edition=edition, code=BRIDGEMATE_QF),
        tables=bws_import.Tables(open=1, closed=2),
        segment=BRIDGEMATE_SEGMENT,
        user=td,
        now=now,
        path=str(target),
        follow=True,
    )


def appeal_1999(edition: Any, td: Any, organiser: Any) -> None:
    """One appeal decided in 1999 (R16): the TD records the end of both segments of the first
    first-round match played board by board (I15), lodges the visitors' appeal 20 minutes after
    the end with the deposit, the organiser names the committee of 3 from the list (the first
    captains of other teams, the match's players left out, R16.1) and the committee lets the
    score stand, the deposit returned (R16.2, R16.5). Call after :func:`play_1999`."""
    from bridgeko.appeals import services as appeals
    from bridgeko.entries.models import RosterEntry
    from bridgeko.matches import services
    from bridgeko.matches.models import Match, MatchStatus, Segment

    match = (
        Match.objects.filter(edition=edition, round=1, status=MatchStatus.DECIDED)
        .exclude(code__in=(PBN_MATCH, LATE_MATCH, WALKOVER_MATCH, AGREED_MATCH))
        .order_by("position")
        .first()
    )
    assert match is not None and match.visitors is not None
    start = _start(match, datetime(1999, 3, 19, 19, tzinfo=PRAGUE))
    end = start
    for segment in Segment.objects.filter(match=match).order_by("number"):
        end = start + timedelta(hours=2 + 2 * (segment.number - 1), minutes=10 * segment.number)
        for room in ("open", "closed"):
            services.mark_room_end(segment=segment, room=room, at=end, user=td, now=end)
    captains = (
        RosterEntry.objects.filter(edition=edition, position=1)
        .exclude(team__in=(match.home_id, match.visitors_id))
        .order_by("team__name")
        .values_list("player__name", flat=True)
    )
    appeals.save_settings(
        edition=edition,
        candidates_text="\n".join(list(captains)[:5]),
        segment_deadlines=False,
        user=organiser,
        now=datetime(1999, 3, 15, 10, tzinfo=PRAGUE),
    )
    lodged = end + timedelta(minutes=20)
    appeal = appeals.lodge(
        match=match,
        appellant=match.visitors,
        subject="Rozdání 7: vysvětlení hlášky 2BT bylo podle odvolávajících se zavádějící.",
        deposit_paid=edition.regulations.appeals.deposit,
        through_td=td.get_full_name() or td.get_username(),
        user=td,
        now=lodged,
    )
    appeal = appeals.name_committee(
        appeal=appeal, members=None, user=organiser, now=lodged + timedelta(minutes=10)
    )
    appeals.decide(
        appeal=appeal,
        outcome="dismissed",
        reasons="Vysvětlení odpovídalo systémové kartě; výsledek platí.",
        user=organiser,
        now=lodged + timedelta(hours=1),
    )


_GAME_LEVEL = {"NT": 3, "S": 4, "H": 4, "D": 5, "C": 5}


def dd_pair(board: int, dd: dict[str, dict[str, int]]) -> tuple[str, str]:
    """Plausible results of a board from its double-dummy table: the open room plays the best
    contract of the deal (the longest trick count; game or slam when it makes) and takes its
    double-dummy tricks; in the closed room the partner declares it, one level lower on every
    third board (a missed game or slam), and takes the partner's double-dummy tricks."""
    order = {"NT": 4, "S": 3, "H": 2, "D": 1, "C": 0}
    tricks, _rank, seat, strain = max(
        (dd[seat][strain], order[strain], seat, strain) for seat in SEATS for strain in order
    )
    level = tricks - 6
    game = _GAME_LEVEL[strain]
    bid = level if level >= 6 or level < game else game
    partner = SEATS[(SEATS.index(seat) + 2) % 4]
    closed_bid = bid - 1 if board % 3 == 0 and bid > 1 else bid
    open_text = f"{bid}{strain} {seat} {_made(tricks - bid - 6)}"
    closed_tricks = dd[partner][strain]
    closed_text = f"{closed_bid}{strain} {partner} {_made(closed_tricks - closed_bid - 6)}"
    return open_text, closed_text


def _dealt_set(player: Player, code: str, number: int, organiser: Any, now: datetime) -> Any:
    """A computer-dealt set of the segment from its fixed seed, committed and made by the
    organiser, analysed at once (inline: the demo leaves no background work behind)."""
    from django.db import transaction

    from bridgeko.boards import services as boards
    from bridgeko.matches.models import Segment

    segment = Segment.objects.select_related("match__edition").get(
        match=player.match(code), number=number
    )
    deal_set = boards.commit_set(
        segment=segment,
        event=boards.default_event(segment),
        session=boards.default_session(segment),
        user=organiser,
        now=now,
        seed=DEALT_SEEDS[number],
    )
    with transaction.atomic():  # the background analysis starts after this: nothing left
        boards.make_set(deal_set=deal_set, user=organiser, now=now + timedelta(minutes=5))
        boards.analyse_set(deal_set.pk)
    return deal_set


def dealt_quarterfinal(player: Player, code: str, start: datetime) -> None:
    """:data:`DEALT_QF`: segment 1 computer-dealt, played, ended in both rooms (its seed
    revealed, I15) and analysed; segment 2's set made, its commitment published."""
    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.boards.models import BoardDeal
    from bridgeko.matches import services

    assignment = RoleAssignment.objects.filter(edition=player.edition, role=Role.ORGANISER).first()
    organiser = assignment.user if assignment is not None else player.user
    first = _dealt_set(player, code, 1, organiser, start - timedelta(days=2))
    for k, row in enumerate(BoardDeal.objects.filter(deal_set=first).order_by("board")):
        assert row.dd is not None  # analysed above
        open_text, closed_text = dd_pair(row.board, row.dd)
        now = start + timedelta(minutes=7 * (k + 1))
        player.save(code, row.board, "open", open_text, now)
        player.save(code, row.board, "closed", closed_text, now + timedelta(minutes=2))
    segment = first.segment
    end = start + timedelta(minutes=7 * 16 + 3)
    for room, at in (("open", end), ("closed", end + timedelta(minutes=4))):
        segment = services.mark_room_end(
            segment=segment, room=room, at=at, user=player.user, now=at + timedelta(minutes=1)
        )
    _dealt_set(player, code, 2, organiser, end + timedelta(minutes=10))


def _decide(player: Player, code: str, now: datetime) -> None:
    """A first-round match tied after its 32 boards (it happens with made-up results): the
    extra segments are played until one team leads (R12.5)."""
    from bridgeko.matches.models import MatchStatus, Segment

    while player.match(code).status == MatchStatus.EXTRA_SEGMENT_REQUIRED:
        segment = Segment.objects.filter(match=player.match(code)).order_by("-number").first()
        assert segment is not None
        player.boards(code, segment.board_numbers, now)


def _tied_after_32(player: Player, code: str, start: datetime) -> None:
    """Segment 1 made up; in segment 2 each board's results are drawn until their IMPs bring the
    teams closer, so that they are level after board 32 (R12.5: tied, an extra segment)."""
    from bridgeko.matches import state

    player.boards(code, range(1, 17), start)
    second = start + timedelta(hours=2, minutes=15)
    for board in range(17, 33):
        home, visitors = state.view(player.match(code)).running
        left = 33 - board
        need = visitors - home
        target = need if left == 1 else max(-14, min(14, round(need / left)))
        pair = None
        for wider in range(0, 6):
            for candidate in (target - wider, target + wider):
                pair = levelling_pair(board, candidate, player.gen)
                if pair is not None:
                    break
            if pair is not None:
                break
        assert pair is not None and (left > 1 or board_imps(board, *pair) == need), board
        now = second + timedelta(minutes=7 * (board - 16))
        player.save(code, board, "open", pair[0], now)
        player.save(code, board, "closed", pair[1], now + timedelta(minutes=2))


# ---------------------------------------------------------------------------------------------
# 1998: played to the final


def play_1998(edition: Any, td: Any, *, before_final: datetime) -> None:
    """Every match of the 8-team edition of 1998 (its no-show's match is a walkover already):
    segment totals from the scorecards, a slow-play penalty in a semifinal, the final board by
    board; each match won by the side :data:`WINNERS_1998` names."""
    from bridgeko.matches import services
    from bridgeko.matches.models import Match, MatchStatus

    player = Player(edition, td, Results(random.Random(SEED_1998)))
    days = {1: datetime(1998, 4, 3, 19, tzinfo=PRAGUE), 2: before_final, 3: before_final}
    for round_no in (1, 2, 3):
        for match in Match.objects.filter(edition=edition, round=round_no).order_by("position"):
            if match.is_over or match.status == MatchStatus.BYE:
                continue
            start = days[round_no] + (timedelta(days=1) if match.code == "F" else timedelta())
            code = match.code
            if code == "F":  # the last segment board by board; the cards decide
                segments = list(match.segments.all())
                for k, segment in enumerate(segments[:-1]):
                    home, visitors = player.gen.totals()
                    player.totals(
                        code, segment.number, home, visitors, start + timedelta(hours=2 * k + 2)
                    )
                player.boards(
                    code, segments[-1].board_numbers, start + timedelta(hours=4, minutes=30)
                )
                _decide(player, code, start + timedelta(hours=7))
                continue
            want = WINNERS_1998[code]
            (h1, v1), (h2, v2) = player.gen.totals(), player.gen.totals()
            penalty = 3 if code == SLOW_PLAY_MATCH_1998 else 0
            lead = (h1 + h2 - penalty) - (v1 + v2)
            if (lead > 0) != (want == "home") or lead == 0:
                # the scripted winner: swap the second segment's totals, or widen it
                h2, v2 = v2, h2
                lead = (h1 + h2 - penalty) - (v1 + v2)
                if (lead > 0) != (want == "home") or lead == 0:
                    if want == "home":
                        h2 += 1 - lead
                    else:
                        v2 += lead + 1
            player.totals(code, 1, h1, v1, start + timedelta(hours=2))
            if code == SLOW_PLAY_MATCH_1998:
                services.add_penalty(
                    match=player.match(code),
                    segment=2,
                    kind="slow_play",
                    side="home",
                    boards=1,
                    reason="Jedno rozdání nedohrané v čase (130 minut).",
                    user=td,
                    now=start + timedelta(hours=4, minutes=20),
                )
            player.totals(code, 2, h2, v2, start + timedelta(hours=4, minutes=30))
            assert player.match(code).winner == want, code
