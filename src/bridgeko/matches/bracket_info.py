"""The matches app's news for the draw app's pages (registered with
:mod:`bridgeko.core.match_info`): the score of each match for the bracket, a start rescheduled
by agreement (R14.2) that wins over the draw's date (R14.1), and for the matches in progress
what a spectator follows (:class:`~bridgeko.core.match_info.Live`: the running score, the boards
played and left, the segment being played, the chances to win).

One query; asked for ``live`` while matches are in progress, six more whatever their number
(their facts in four, :func:`bridgeko.matches.state.load_many`, and the teams' Elo in two)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q

from bridgeko.competition import chances
from bridgeko.core import match_info
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.matches import state
from bridgeko.matches.models import Match, MatchStatus

PLAYING = (
    MatchStatus.IN_PROGRESS,
    MatchStatus.EXTRA_SEGMENT_REQUIRED,
    MatchStatus.DECIDED,
    MatchStatus.WALKOVER,
    MatchStatus.NO_WINNER,
)
"""The statuses with a score (or an outcome) to show."""

IN_PROGRESS = (MatchStatus.IN_PROGRESS, MatchStatus.EXTRA_SEGMENT_REQUIRED)
"""The statuses of a match being played (a running score, boards left, chances)."""


def live_of(view: state.MatchView, elos: dict[int, int], edition: Edition) -> match_info.Live:
    """A match in progress as a spectator follows it: ``view``'s running score (R12.2-R12.3 with
    the penalties, I13), boards scored and left, the first segment not completed and the home
    team's chance to win (:mod:`bridgeko.competition.chances`) from the teams' Elo (R10)."""
    played = left = total = 0
    segment = None
    for seg in view.segments:
        count = len(seg.segment.board_numbers)
        total += count
        if seg.segment.has_totals:
            played += count
            continue
        played += seg.scored
        if not seg.complete:
            left += sum(1 for b in seg.boards if not b.complete)
            if segment is None:
                segment = seg.segment.number
    home, visitors = view.running
    match = view.match
    reg = edition.regulations
    chance = chances.chance_to_win(
        home - visitors,
        played,
        left,
        elos.get(match.home_id) if match.home_id is not None else None,
        elos.get(match.visitors_id) if match.visitors_id is not None else None,
        chances.params_for(reg),
    )
    return match_info.Live(home, visitors, played, total, left, segment, chance)


def _live(edition: Edition, matches: Sequence[Match]) -> dict[int, match_info.Live]:
    """Match id -> :class:`~bridgeko.core.match_info.Live` of the matches in progress."""
    playing = [m for m in matches if m.status in IN_PROGRESS]
    if not playing:
        return {}
    facts = state.load_many(playing)
    teams = [t for m in playing for t in (m.home_id, m.visitors_id) if t is not None]
    elos = entry_queries.team_elos(edition, teams)
    out: dict[int, match_info.Live] = {}
    reg = edition.regulations
    for m in playing:
        try:
            view = state.compute(facts[m.pk], reg)
        except ServiceError:  # contradicting facts: the staff pages say so; no live score
            continue
        out[m.pk] = live_of(view, elos, edition)
    return out


@match_info.register
def infos(edition: Edition, *, live: bool = False) -> dict[str, match_info.MatchInfo]:
    rows = list(
        Match.objects.filter(edition=edition).filter(
            Q(status__in=PLAYING) | Q(start__isnull=False) | Q(swapped=True)
        )
    )
    running = _live(edition, rows) if live else {}
    out: dict[str, match_info.MatchInfo] = {}
    for m in rows:
        winner = None
        if m.winner and m.status in (MatchStatus.DECIDED, MatchStatus.WALKOVER):
            winner = m.home_id if m.winner == "home" else m.visitors_id
        out[m.code] = match_info.MatchInfo(
            code=m.code,
            home_team=m.home_id,
            visitors_team=m.visitors_id,
            home_score=m.home_total,
            visitors_score=m.visitors_total,
            status=str(m.status),
            status_label=str(MatchStatus(m.status).label),
            started=m.status in PLAYING,
            winner_team=winner,
            start=m.start,
            location=m.location,
            swapped=m.swapped,
            decided_at=m.decided_at if m.is_over else None,
            live=running.get(m.pk),
        )
    return out
