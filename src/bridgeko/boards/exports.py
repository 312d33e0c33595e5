"""Results out to other programs (issue 20): a match's whole result file as PBN (both rooms, both
teams, the scores and the IMPs of each board: what RealBridge and JFR Teamy read) and an
edition's matches board by board as USEBIO XML (:mod:`bridgeko.bridge.usebio`).

The deals of a segment are written only once it has ended (I15, :func:`secrecy.revealed`):
before, a PBN file has no game for its boards (PBN needs the deal) and USEBIO has the results
without the hands. Results are public as they are entered (the live pages show them).

Who sat where comes from the line-ups (R12.6: ``first`` North or East, ``second`` South or West;
the home team North-South in the open room, R12.2)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _

import bridgeko
from bridgeko.boards.models import BoardDeal
from bridgeko.boards.secrecy import revealed
from bridgeko.bridge import pbn, usebio
from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.cards import Deal, Seat
from bridgeko.bridge.result import BoardResult as TableResult
from bridgeko.bridge.scoring import WBF_IMP_SCALE, imps, result_score
from bridgeko.core.errors import ServiceError
from bridgeko.draw.models import DrawNumber
from bridgeko.editions.models import Edition
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches import bracket_sync, services, standings
from bridgeko.matches.cbs import play_days
from bridgeko.matches.models import BoardResult, LineUp, Match, MatchStatus, Segment

__all__ = ["MatchBoard", "match_boards", "match_pbn", "match_pbn_name", "usebio_document"]


@dataclass(frozen=True)
class MatchBoard:
    number: int
    segment: Segment
    deal: Deal | None
    """None until the segment has ended (I15) or when it has no set of deals."""
    open: TableResult | None
    closed: TableResult | None

    @property
    def home_imps(self) -> int | None:
        """IMPs to the home team (negative: to the visitors); None unless both rooms played."""
        if self.open is None or self.closed is None:
            return None
        vul = vulnerability(self.number)
        return imps(result_score(self.open, vul) - result_score(self.closed, vul), WBF_IMP_SCALE)


def match_boards(match: Match) -> list[MatchBoard]:
    """Every board of the match's segments with its results, the deal when public."""
    segments = list(Segment.objects.filter(match=match).order_by("number"))
    results = {(r.board, r.room): r.text for r in BoardResult.objects.filter(match=match)}
    deals: dict[int, str] = {}
    public = [s.pk for s in segments if revealed(s)]
    for row in BoardDeal.objects.filter(deal_set__segment_id__in=public):
        deals[row.board] = row.deal
    boards = []
    for segment in segments:
        for number in segment.board_numbers:
            text = deals.get(number)
            open_text, closed_text = results.get((number, "open")), results.get((number, "closed"))
            boards.append(
                MatchBoard(
                    number=number,
                    segment=segment,
                    deal=Deal.from_pbn(text) if text else None,
                    open=services.parse_text(open_text) if open_text else None,
                    closed=services.parse_text(closed_text) if closed_text else None,
                )
            )
    return boards


def _seats(match: Match) -> dict[tuple[int, str], dict[Seat, str]]:
    """(segment ID, room) -> the players at the table, from the line-ups."""
    out: dict[tuple[int, str], dict[Seat, str]] = {}
    line_ups = LineUp.objects.filter(segment__match=match).select_related(
        "open_first", "open_second", "closed_first", "closed_second"
    )
    for lu in line_ups:
        home = lu.side == "home"
        open_seats = (Seat.NORTH, Seat.SOUTH) if home else (Seat.EAST, Seat.WEST)
        closed_seats = (Seat.EAST, Seat.WEST) if home else (Seat.NORTH, Seat.SOUTH)
        for room, seats, pair in (
            ("open", open_seats, (lu.open_first, lu.open_second)),
            ("closed", closed_seats, (lu.closed_first, lu.closed_second)),
        ):
            table = out.setdefault((lu.segment_id, room), {})
            for seat, player in zip(seats, pair, strict=True):
                table[seat] = player.name
    return out


def match_pbn_name(match: Match) -> str:
    return f"{match.edition.slug}-{match.code}.pbn"


def match_pbn(match: Match) -> bytes:
    """The match's result file: two games a board (Open and Closed, the deal, the players,
    the result, North-South's score, the IMPs to the pair sitting North-South as
    ``ScoreIMP``), for the boards whose segment has ended. A :class:`ServiceError` when no
    segment has ended yet."""
    if match.home is None or match.visitors is None:
        raise ServiceError(
            _("The teams of match %(code)s are not known yet.") % {"code": match.code}
        )
    seats = _seats(match)
    games: list[pbn.PbnGame] = []
    for board in match_boards(match):
        if board.deal is None:
            continue
        net = board.home_imps
        for room, result, players, ns_home in (
            ("Open", board.open, seats.get((board.segment.pk, "open")), True),
            ("Closed", board.closed, seats.get((board.segment.pk, "closed")), False),
        ):
            game = pbn.game_for_board(
                board.number,
                board.deal,
                event=match.edition.name,
                site=match.location or match.edition.regulations.edition.venue,
                date=match.start.date() if match.start else "",
                room=room,
                result=result,
                players=players,
            )
            ns_team, ew_team = (
                (match.home, match.visitors) if ns_home else (match.visitors, match.home)
            )
            game = (
                game.with_tag("HomeTeam", ns_team.name)
                .with_tag("VisitTeam", ew_team.name)
                .with_tag("Stage", match.code)
            )
            if net is not None:
                game = game.with_tag("ScoreIMP", f"NS {net if ns_home else -net}")
            games.append(game)
    if not games:
        raise ServiceError(
            _(
                "No segment of match %(code)s has ended yet: its result file is written once "
                "the deals are public (I15)."
            )
            % {"code": match.code}
        )
    return pbn.dumps(games).encode(pbn.ENCODING)


# ---------------------------------------------------------------------------------------------
# USEBIO


def usebio_document(edition: Edition) -> bytes:
    """The edition's teams, places and matches board by board as USEBIO XML (the deals of the
    segments that have ended)."""
    summary = standings.summary(edition)
    draw = bracket_sync.held_draw(edition)
    numbers = (
        {n.team_id: n.number for n in DrawNumber.objects.filter(draw=draw) if n.team_id}
        if draw is not None
        else {}
    )
    if not numbers:  # matches made without a draw: the teams that play, numbered in order
        playing = Match.objects.filter(edition=edition).values_list("home_id", "visitors_id")
        ids = sorted({pk for pair in playing for pk in pair if pk is not None})
        numbers = {pk: i for i, pk in enumerate(ids, start=1)}
    if not numbers:
        raise ServiceError(_("The draw is not held yet: there is nothing to export."))
    places = {team.pk: (p.first, p.last) for p in summary.placings for team in p.teams}
    names = dict(Team.objects.filter(edition=edition).values_list("pk", "name"))
    rosters: dict[int, list[usebio.UsebioPlayer]] = {}
    for entry in (
        RosterEntry.objects.filter(team__edition=edition)
        .select_related("player")
        .order_by("team_id", "position")
    ):
        rosters.setdefault(entry.team_id, []).append(
            usebio.UsebioPlayer(entry.player.name, entry.player.federation_id or None)
        )
    teams = []
    for team_id, number in sorted(numbers.items(), key=lambda kv: kv[1]):
        first, last = places.get(team_id, (None, None))
        name = names[team_id]
        teams.append(
            usebio.UsebioTeam(
                number=number,
                name=name,
                players=tuple(rosters.get(team_id, ())),
                place=first,
                place_to=last if last != first else None,
            )
        )
    matches = []
    played = (
        Match.objects.filter(edition=edition)
        .exclude(status__in=(MatchStatus.BYE, MatchStatus.PENDING, MatchStatus.NOT_NEEDED))
        .select_related("home", "visitors")
        .order_by("round", "position")
    )
    for m in played:
        if m.home_id not in numbers or m.visitors_id not in numbers:
            continue
        boards = tuple(
            usebio.UsebioBoard(number=b.number, open_room=b.open, closed_room=b.closed, deal=b.deal)
            for b in match_boards(m)
            if b.open is not None or b.closed is not None or b.deal is not None
        )
        won_home = sum(max(b.net_imps or 0, 0) for b in boards)
        won_away = sum(max(-(b.net_imps or 0), 0) for b in boards)
        matches.append(
            usebio.UsebioMatch(
                stage=m.stage,
                round_number=m.round,
                home=numbers[m.home_id],
                away=numbers[m.visitors_id],
                boards=boards,
                # carry-over, penalties and adjustments: what the stored totals add to the boards
                home_extra_imps=Decimal(m.home_total - won_home),
                away_extra_imps=Decimal(m.visitors_total - won_away),
            )
        )
    days = play_days(edition)
    first_day = min(days, default=date(edition.year, 1, 1))
    regulations = edition.regulations.edition
    event = usebio.UsebioEvent(
        name=edition.name,
        start=first_day,
        end=max(days, default=first_day),
        organiser=regulations.organiser or edition.name,
        venue=regulations.venue,
        teams=tuple(teams),
        matches=tuple(matches),
        program_version=bridgeko.__version__,
    )
    try:
        return usebio.write(event)
    except usebio.UsebioError as exc:
        raise ServiceError(
            _("The USEBIO file cannot be written: %(error)s.") % {"error": exc}
        ) from None
