"""The files of a finished edition for Matrika ČBS, the Czech federation's register (issue 20):
the edition's teams, their players and the final standings mapped onto
:mod:`bridgeko.competition.cbs_export`, which writes them (Windows-1250, the columns Czech TDs
import today).

- A team's number is its draw number (the numbers of the draw protocol, I8); its players are
  its roster (R2.1: entered and frozen), in the roster's order; a player's name is stored
  "Surname First names" (the federation's lists and the Elo import write it so): the first word
  is the surname. The ČBS number is the player's federation number when it is a number.
- Places are the standings' (I7: teams knocked out in the same round share a range, 5-8);
  IMPs won and lost are the sums of the team's match totals (carry-over, penalties and
  adjustments included, as the scoreboard shows them). A knockout has no victory points: the
  result column holds the IMP difference.
- The club column is left empty: bridgeko keeps a club's name, Matrika wants its code; the
  players are matched by their ČBS numbers.

Nothing is written before the edition is finished (every match decided, every place the
regulations leave to the organiser decided)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.utils.translation import gettext as _

from bridgeko.competition import cbs_export
from bridgeko.core.errors import ServiceError
from bridgeko.draw.models import DrawNumber, MatchDate
from bridgeko.editions.models import Edition
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches import bracket_sync, standings
from bridgeko.matches.models import Match, MatchStatus

__all__ = ["CbsFiles", "files", "play_days"]


@dataclass(frozen=True)
class CbsFiles:
    files: dict[str, bytes]
    """File name -> its bytes (``players.csv``, ``teams.csv``, ``rankings.csv``)."""
    problems: tuple[str, ...]
    """What the TD should look at before importing (a player without a ČBS number)."""
    event: cbs_export.CbsEvent


def _player(name: str, federation_id: str) -> cbs_export.CbsPlayer:
    words = name.split()
    last, first = (words[0], " ".join(words[1:])) if words else ("", "")
    digits = federation_id.strip()
    return cbs_export.CbsPlayer(
        last_name=last,
        first_name=first,
        federation_number=int(digits) if digits.isdigit() and int(digits) > 0 else None,
    )


def _imps(edition: Edition) -> dict[int, tuple[int, int]]:
    """Team ID -> (IMPs won, IMPs lost) over the edition's matches played."""
    totals: dict[int, list[int]] = {}
    played = Match.objects.filter(edition=edition).exclude(
        status__in=(
            MatchStatus.BYE,
            MatchStatus.WALKOVER,
            MatchStatus.PENDING,
            MatchStatus.NOT_NEEDED,
        )
    )
    for m in played:
        if m.home_id is None or m.visitors_id is None:
            continue
        for team, won, lost in (
            (m.home_id, m.home_total, m.visitors_total),
            (m.visitors_id, m.visitors_total, m.home_total),
        ):
            row = totals.setdefault(team, [0, 0])
            row[0] += won
            row[1] += lost
    return {team: (won, lost) for team, (won, lost) in totals.items()}


def files(edition: Edition) -> CbsFiles:
    """The three files of a finished edition; a :class:`ServiceError` before it is finished or
    when a name cannot be written (a character Windows-1250 has not)."""
    summary = standings.summary(edition)
    if not summary.finished or summary.needed:
        raise ServiceError(
            _(
                "The edition is not finished: the files for Matrika ČBS are written once every "
                "match and every place is decided."
            )
        )
    draw = bracket_sync.held_draw(edition)
    numbers = {
        n.team_id: n.number for n in DrawNumber.objects.filter(draw=draw) if n.team_id is not None
    }
    imps = _imps(edition)
    rosters: dict[int, list[cbs_export.CbsPlayer]] = {}
    entries = (
        RosterEntry.objects.filter(team__edition=edition)
        .select_related("player")
        .order_by("team_id", "position")
    )
    for entry in entries:
        rosters.setdefault(entry.team_id, []).append(
            _player(entry.player.name, entry.player.federation_id or "")
        )
    teams: list[cbs_export.CbsTeam] = []
    for placing in summary.placings:
        for team in placing.teams:
            won, lost = imps.get(team.pk, (0, 0))
            teams.append(
                cbs_export.CbsTeam(
                    number=numbers.get(team.pk, 0) or _fallback_number(team, numbers),
                    name=team.name,
                    players=tuple(rosters.get(team.pk, ())),
                    place=placing.first,
                    place_to=placing.last if placing.last != placing.first else None,
                    imps_won=won,
                    imps_lost=lost,
                    result=won - lost,
                )
            )
    days = play_days(edition)
    event = cbs_export.CbsEvent(
        name=edition.name,
        start=min(days, default=date(edition.year, 1, 1)),
        end=max(days, default=date(edition.year, 1, 1)),
        place=edition.regulations.edition.venue,
        teams=tuple(teams),
    )
    try:
        written = cbs_export.files(event)
    except cbs_export.CbsExportError as exc:
        raise ServiceError(
            _("The files for Matrika ČBS cannot be written: %(error)s.") % {"error": exc}
        ) from None
    problems = tuple(
        _("%(player)s (team %(team)s): %(problem)s")
        % {"player": p.player, "team": p.team, "problem": p.message}
        for p in cbs_export.problems(event)
    )
    return CbsFiles(files=written, problems=problems, event=event)


def _fallback_number(team: Team, numbers: dict[int, int]) -> int:
    """A team without a draw number (entered, not drawn: should not reach the standings)."""
    return max(numbers.values(), default=0) + team.pk


def play_days(edition: Edition) -> list[date]:
    """The days the matches were (or are) played: the draw's schedule, a rescheduled start."""
    draw = bracket_sync.held_draw(edition)
    scheduled = {d.match: d.start for d in MatchDate.objects.filter(draw=draw)} if draw else {}
    days: list[date] = []
    for m in Match.objects.filter(edition=edition).exclude(
        status__in=(MatchStatus.BYE, MatchStatus.NOT_NEEDED)
    ):
        start: datetime | None = m.start or scheduled.get(m.code)
        if start is not None:
            days.append(start.date())
    return days
