"""The line-ups of a segment (R12.2, R12.6, I5, I14): who plays in which room and on which seats.

In every segment one team gives its line-up first and the other "sits down second" (*přisedá*):
it sees the first team's line-up and then gives its own (R12.6; the home team sits second in
segment 1, then alternately; extra segments continue the alternation, I5). The engine
(:mod:`bridgeko.competition.seating`) checks each line-up against the team's roster and refuses
the same two pairs facing each other again in consecutive segments (I14), naming the pairs; it
is given the players' names, so that its messages name people.

Which line a team takes in each room follows R12.2 (:func:`bridgeko.competition.match.
room_assignment`: home North-South in the open room, East-West in the closed room); a stored
line-up's ``*_first`` player sits North (or East), ``*_second`` South (or West).

A captain gives and changes their own team's line-up until the segment starts
(:func:`started`); the team sitting first can no longer change its line-up once the team
sitting second has given its own. The TD (and the chief TD, the organiser) enters either team's
line-up at any time, clears one (with a reason) and starts a segment (:func:`start_segment`).
Every write locks the match first and writes one audit entry."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import seating
from bridgeko.competition.match import Room, Side, room_assignment
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches.models import BoardResult, LineUp, Match, MatchStatus, Segment
from bridgeko.matches.services import locked
from bridgeko.players.models import Player

__all__ = [
    "SIDES",
    "SeatView",
    "SegmentLineUps",
    "clear_line_up",
    "line_of",
    "roster_of",
    "segment_line_ups",
    "set_line_up",
    "sits_first",
    "sits_second",
    "start_segment",
    "started",
]

SIDES = ("home", "visitors")
SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}
"""The seats of a line: a line-up's ``*_first`` player takes the first, ``*_second`` the
second."""


# ---------------------------------------------------------------------------------------------
# Reading


def sits_first(segment: Segment) -> str:
    """``"home"`` or ``"visitors"``: the team giving its line-up first (R12.6, I5)."""
    return seating.sits_first(segment.number).value


def sits_second(segment: Segment) -> str:
    """The team that sits down second: it gives its line-up after seeing the first's."""
    return seating.sits_second(segment.number).value


def line_of(segment: Segment, side: str, room: str) -> str:
    """``"NS"`` or ``"EW"``: where ``side`` sits in ``room`` (R12.2)."""
    return room_assignment(segment.number).line_of(Side(side), Room(room))


def started(segment: Segment, boards_with_results: Collection[int] | None = None) -> bool:
    """The segment has started: the TD started it (``started_at``), or a result of one of its
    boards (or its totals) is in, or the TD closed it. From then on only the TD changes its
    line-ups (and the public pages show them). ``boards_with_results``: the match's boards with
    a result in either room when the caller has them (no query then)."""
    if segment.started_at is not None or segment.closed_at is not None or segment.has_totals:
        return True
    if boards_with_results is not None:
        return any(b in boards_with_results for b in segment.board_numbers)
    return BoardResult.objects.filter(
        match_id=segment.match_id, board__gte=segment.first_board, board__lte=segment.last_board
    ).exists()


def roster_of(team: Team) -> list[Player]:
    """The team's players in the roster's order (the captain first, R7.1)."""
    entries = RosterEntry.objects.filter(team=team).select_related("player").order_by("position")
    return [e.player for e in entries]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at one table: N, E, S or W, who sits there (None: not given yet) and for which
    team."""

    seat: str
    player: Player | None
    team: Team | None
    side: str


@dataclass(frozen=True, slots=True)
class SegmentLineUps:
    """The line-ups of one segment as the pages show them."""

    segment: Segment
    match: Match
    home: LineUp | None
    visitors: LineUp | None
    first: str
    """The side giving its line-up first (R12.6)."""
    second: str
    started: bool

    def of(self, side: str) -> LineUp | None:
        return self.home if side == "home" else self.visitors

    def team(self, side: str) -> Team | None:
        team = self.match.home if side == "home" else self.match.visitors
        return team if isinstance(team, Team) else None

    @property
    def first_team(self) -> Team | None:
        return self.team(self.first)

    @property
    def second_team(self) -> Team | None:
        return self.team(self.second)

    @property
    def turn(self) -> str | None:
        """The side whose line-up is awaited now (None: both are in)."""
        if self.of(self.first) is None:
            return self.first
        if self.of(self.second) is None:
            return self.second
        return None

    def visible_to(self, side: str) -> bool:
        """May ``side``'s captain see the opposing line-up? The team sitting second sees the
        first's once it is in (R12.6); the first sees the second's once both are in."""
        other = "visitors" if side == "home" else "home"
        if self.of(other) is None:
            return False
        return side == self.second or self.of(side) is not None

    def rooms(self) -> list[tuple[str, list[SeatView]]]:
        """For each room (open, closed) its four seats N, E, S, W."""
        out = []
        for room in ("open", "closed"):
            seats: dict[str, SeatView] = {}
            for side in SIDES:
                line = line_of(self.segment, side, room)
                first_seat, second_seat = SEATS[line]
                line_up = self.of(side)
                first = getattr(line_up, f"{room}_first") if line_up is not None else None
                second = getattr(line_up, f"{room}_second") if line_up is not None else None
                team = self.team(side)
                seats[first_seat] = SeatView(first_seat, first, team, side)
                seats[second_seat] = SeatView(second_seat, second, team, side)
            out.append((room, [seats[s] for s in ("N", "E", "S", "W")]))
        return out


def _line_ups_query() -> Any:
    return LineUp.objects.select_related(
        "open_first", "open_second", "closed_first", "closed_second", "entered_by"
    )


def segment_line_ups(segment: Segment) -> SegmentLineUps:
    """The segment's line-ups, its seating order and whether it has started."""
    match = Match.objects.select_related("home", "visitors", "edition").get(pk=segment.match_id)
    stored = {lu.side: lu for lu in _line_ups_query().filter(segment=segment)}
    return SegmentLineUps(
        segment=segment,
        match=match,
        home=stored.get("home"),
        visitors=stored.get("visitors"),
        first=sits_first(segment),
        second=sits_second(segment),
        started=started(segment),
    )


# ---------------------------------------------------------------------------------------------
# The engine's view of a line-up: players named by their names


def _labels(players: Iterable[Player]) -> dict[int, str]:
    """Player id -> the name the engine is given: the name, made unique with the federation id
    (or the id) when two players share it."""
    unique = {p.pk: p for p in players}
    counts = Counter(p.name.strip() for p in unique.values())
    out = {}
    for pk, p in unique.items():
        name = p.name.strip()
        if not name or counts[name] > 1:
            name = f"{name} ({p.federation_id or pk})".strip()
        out[pk] = name
    return out


def _engine_line_up(line_up: Any, labels: dict[int, str]) -> seating.LineUp:
    return seating.LineUp(
        seating.Pair.of(labels[line_up.open_first_id], labels[line_up.open_second_id]),
        seating.Pair.of(labels[line_up.closed_first_id], labels[line_up.closed_second_id]),
    )


def _players_of(line_ups: Iterable[Any]) -> list[Player]:
    return [
        p
        for lu in line_ups
        for p in (lu.open_first, lu.open_second, lu.closed_first, lu.closed_second)
    ]


def _pairs_text(line_up: Any, room: str) -> str:
    first = getattr(line_up, f"{room}_first")
    second = getattr(line_up, f"{room}_second")
    return f"{first.name} – {second.name}"


def _snapshot(line_up: Any | None) -> dict[str, Any]:
    if line_up is None:
        return {}
    return {
        "open_room": _pairs_text(line_up, "open"),
        "closed_room": _pairs_text(line_up, "closed"),
        "players": [
            line_up.open_first_id,
            line_up.open_second_id,
            line_up.closed_first_id,
            line_up.closed_second_id,
        ],
    }


def _bump(match: Match, now: datetime) -> None:
    match.version += 1
    match.updated_at = now
    match.save(update_fields=["version", "updated_at"])


def _check_side(side: str) -> None:
    if side not in SIDES:
        raise ServiceError(_("A team is home or visitors, not %(side)s.") % {"side": side})


def _playable(match: Match) -> tuple[Team, Team]:
    home, visitors = match.home, match.visitors
    if home is None or visitors is None:
        raise ServiceError(
            _("The teams of match %(code)s are not known yet.") % {"code": match.code}
        )
    if match.status in (
        MatchStatus.WALKOVER,
        MatchStatus.NO_WINNER,
        MatchStatus.BYE,
        MatchStatus.NOT_NEEDED,
    ):
        raise ServiceError(
            _("Match %(code)s is not played: no line-ups are given.") % {"code": match.code}
        )
    return home, visitors


# ---------------------------------------------------------------------------------------------
# Writing


def set_line_up(
    *,
    segment: Segment,
    side: str,
    open_first: Player,
    open_second: Player,
    closed_first: Player,
    closed_second: Player,
    user: Any,
    now: datetime,
    as_td: bool,
) -> LineUp:
    """Gives (or changes) ``side``'s line-up for ``segment``: ``open_first``/``open_second``
    take the team's line in the open room (North and South, or East and West: R12.2),
    ``closed_*`` in the closed room.

    Refused: the team sitting second before the first team's line-up is in (R12.6); a captain
    (``as_td`` False) once the segment has started, and the team sitting first once the second
    has given its line-up; a player not on the team's roster, a player twice, the same two pairs
    facing each other as in the previous segment, or making the next segment repeat this one
    (the engine's messages, naming the pairs: I14)."""
    _check_side(side)
    chosen = (open_first, open_second, closed_first, closed_second)
    with transaction.atomic():
        match = locked(segment.match)
        home, visitors = _playable(match)
        segment = Segment.objects.get(pk=segment.pk)
        teams = {"home": home, "visitors": visitors}
        first, second = sits_first(segment), sits_second(segment)
        number = segment.number
        if not as_td and started(segment):
            raise ServiceError(
                _("Segment %(number)s has started: only the TD can change its line-ups now.")
                % {"number": number}
            )
        stored: dict[int, dict[str, Any]] = {number: {}, number - 1: {}, number + 1: {}}
        for lu in (
            _line_ups_query()
            .select_related("segment")
            .filter(segment__match=match, segment__number__in=(number - 1, number, number + 1))
        ):
            stored[lu.segment.number][lu.side] = lu
        current = stored[number].get(side)
        if side == second and first not in stored[number]:
            raise ServiceError(
                _(
                    "%(first)s sit first in segment %(number)s (R12.6): their line-up comes "
                    "first, and %(second)s give theirs after seeing it."
                )
                % {"first": teams[first].name, "second": teams[second].name, "number": number}
            )
        if side == first and second in stored[number] and not as_td:
            raise ServiceError(
                _(
                    "%(second)s have given their line-up after seeing yours: only the TD can "
                    "change yours now (R12.6)."
                )
                % {"second": teams[second].name}
            )
        home_players = roster_of(home)
        visitors_players = roster_of(visitors)
        others = [lu for lus in stored.values() for lu in lus.values()]
        labels = _labels([*home_players, *visitors_players, *chosen, *_players_of(others)])
        roster = {
            "home": [labels[p.pk] for p in home_players],
            "visitors": [labels[p.pk] for p in visitors_players],
        }
        candidate = LineUp(
            segment=segment,
            side=side,
            open_first=open_first,
            open_second=open_second,
            closed_first=closed_first,
            closed_second=closed_second,
        )
        try:
            engine_line_up = _engine_line_up(candidate, labels)
            seating.check_line_up(engine_line_up, roster[side], Side(side))
            this = dict(stored[number])
            this[side] = candidate
            previous = _matchups_of(stored, number - 1, labels)
            matchups = _check(number, this, roster, labels, previous=previous)
            if matchups is not None:  # the next segment must not repeat this one
                _check(number + 1, stored[number + 1], roster, labels, previous=matchups)
        except seating.SeatingError as exc:
            raise ServiceError(tr(exc.detail)) from None
        before = _snapshot(current)
        if current is None:
            line_up = candidate
        else:
            line_up = current
            line_up.open_first, line_up.open_second = open_first, open_second
            line_up.closed_first, line_up.closed_second = closed_first, closed_second
        line_up.entered_by = user if getattr(user, "is_authenticated", False) else None
        line_up.entered_at = now
        line_up.save()
        _bump(match, now)
        after = _snapshot(line_up)
        where = {"segment": number, "team": teams[side].name}
        record(
            "bridgeko.line_up.set",
            user=user,
            edition=match.edition,
            obj=match,
            before=(before | where) if before else {},
            after=after | where,
            summary=Message(
                N_(
                    "%(match)s, segment %(number)s: line-up of %(team)s — open room %(open)s, "
                    "closed room %(closed)s"
                ),
                {
                    "match": match.code,
                    "number": number,
                    "team": teams[side].name,
                    "open": after["open_room"],
                    "closed": after["closed_room"],
                },
            ),
            at=now,
        )
    return line_up


def _matchups_of(
    stored: dict[int, dict[str, Any]], number: int, labels: dict[int, str]
) -> tuple[seating.Matchup, ...]:
    """The matchups of segment ``number`` when both its line-ups are stored (else none): the
    previous segment's tables, which the next may not repeat."""
    line_ups = stored.get(number, {})
    if number < 1 or "home" not in line_ups or "visitors" not in line_ups:
        return ()
    return seating.segment_matchups(
        _engine_line_up(line_ups["home"], labels), _engine_line_up(line_ups["visitors"], labels)
    )


def _check(
    number: int,
    line_ups: dict[str, Any],
    roster: dict[str, list[str]],
    labels: dict[int, str],
    *,
    previous: Sequence[seating.Matchup],
) -> tuple[seating.Matchup, ...] | None:
    """The engine's check of segment ``number`` when both line-ups are given (its matchups);
    None while one is missing."""
    if "home" not in line_ups or "visitors" not in line_ups:
        return None
    return seating.check_segment(
        number,
        _engine_line_up(line_ups["home"], labels),
        _engine_line_up(line_ups["visitors"], labels),
        home_roster=roster["home"],
        visitors_roster=roster["visitors"],
        previous=previous,
    )


def clear_line_up(*, segment: Segment, side: str, reason: str, user: Any, now: datetime) -> LineUp:
    """The TD removes ``side``'s line-up of ``segment`` (with a reason; audited with what it
    removed). The line-up of the team sitting first stays while the second team's is in (that
    one was given after seeing it): clear the second's first. Returns the removed line-up
    (unsaved)."""
    _check_side(side)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    with transaction.atomic():
        match = locked(segment.match)
        segment = Segment.objects.get(pk=segment.pk)
        stored: dict[str, LineUp] = {
            lu.side: lu for lu in _line_ups_query().filter(segment=segment)
        }
        line_up = stored.get(side)
        names = {
            s: team.name if team is not None else s
            for s, team in (("home", match.home), ("visitors", match.visitors))
        }
        team_name = names[side]
        if line_up is None:
            raise ServiceError(
                _("%(team)s have no line-up for segment %(number)s.")
                % {"team": team_name, "number": segment.number}
            )
        second = sits_second(segment)
        if side != second and second in stored:
            raise ServiceError(
                _(
                    "%(second)s gave their line-up after seeing this one: clear theirs first "
                    "(R12.6)."
                )
                % {"second": names[second]}
            )
        before = _snapshot(line_up) | {"segment": segment.number, "team": team_name}
        line_up.delete()
        _bump(match, now)
        record(
            "bridgeko.line_up.cleared",
            user=user,
            edition=match.edition,
            obj=match,
            before=before,
            after={"segment": segment.number, "team": team_name, "reason": reason},
            summary=Message(
                N_("%(match)s, segment %(number)s: line-up of %(team)s cleared — %(reason)s"),
                {
                    "match": match.code,
                    "number": segment.number,
                    "team": team_name,
                    "reason": reason,
                },
            ),
            at=now,
        )
    return line_up


def start_segment(*, segment: Segment, user: Any, now: datetime) -> Segment:
    """The TD starts ``segment`` (``started_at``): from now on only the TD changes its
    line-ups. Refused when it was started already."""
    with transaction.atomic():
        match = locked(segment.match)
        segment = Segment.objects.get(pk=segment.pk)
        if segment.started_at is not None:
            raise ServiceError(
                _("Segment %(number)s was started already.") % {"number": segment.number}
            )
        segment.started_at = now
        segment.save(update_fields=["started_at"])
        _bump(match, now)
        record(
            "bridgeko.segment.started",
            user=user,
            edition=match.edition,
            obj=match,
            before={"segment": segment.number},
            after={"segment": segment.number, "started_at": now},
            summary=Message(
                N_("%(match)s, segment %(number)s started"),
                {"match": match.code, "number": segment.number},
            ),
            at=now,
        )
    return segment
