"""The matches app's news for the draw app's pages (registered with
:mod:`bridgeko.core.match_info`): the score of each match for the bracket, and a start
rescheduled by agreement (R14.2) that wins over the draw's date (R14.1). One query."""

from __future__ import annotations

from django.db.models import Q

from bridgeko.core import match_info
from bridgeko.editions.models import Edition
from bridgeko.matches.models import Match, MatchStatus

PLAYING = (
    MatchStatus.IN_PROGRESS,
    MatchStatus.EXTRA_SEGMENT_REQUIRED,
    MatchStatus.DECIDED,
    MatchStatus.WALKOVER,
    MatchStatus.NO_WINNER,
)
"""The statuses with a score (or an outcome) to show."""


@match_info.register
def infos(edition: Edition) -> dict[str, match_info.MatchInfo]:
    rows = Match.objects.filter(edition=edition).filter(
        Q(status__in=PLAYING) | Q(start__isnull=False) | Q(swapped=True)
    )
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
        )
    return out
