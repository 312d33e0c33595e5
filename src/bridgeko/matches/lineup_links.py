"""The captain's link to the line-up of the team's next segment, on "My team" (the entries app
lies below this app: the link reaches it through :mod:`bridgeko.core.team_matches`)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import team_matches
from bridgeko.core.team_matches import Action
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches.lineups import sits_first
from bridgeko.matches.models import BoardResult, LineUp, Match, MatchStatus, Segment

OPEN = (MatchStatus.TO_PLAY, MatchStatus.IN_PROGRESS, MatchStatus.EXTRA_SEGMENT_REQUIRED)


def _label(number: int, mine: bool, first: bool, other_in: bool) -> str:
    if first:
        if mine:
            return _("Change the line-up for segment %(number)s") % {"number": number}
        return _("Give the line-up for segment %(number)s (you sit first)") % {"number": number}
    if not other_in:
        return _("Segment %(number)s: the opponents give their line-up first") % {"number": number}
    if mine:
        return _("Change the line-up for segment %(number)s") % {"number": number}
    return _("Give the line-up for segment %(number)s (the opponents' is in)") % {"number": number}


@team_matches.register_actions
def line_up_links(edition: Edition, team: Team, ids: Sequence[str]) -> dict[str, list[Action]]:
    """For each of the team's matches with both teams known and still to be played: a link to
    the line-up of its next segment that has not started (four queries in all)."""
    matches = list(
        Match.objects.filter(edition=edition, code__in=list(ids), status__in=OPEN)
        .filter(Q(home=team) | Q(visitors=team))
        .exclude(home__isnull=True)
        .exclude(visitors__isnull=True)
    )
    if not matches:
        return {}
    segments = Segment.objects.filter(match__in=matches).order_by("match", "number")
    played = set(
        BoardResult.objects.filter(match__in=matches).values_list("match_id", "board").distinct()
    )
    given = set(LineUp.objects.filter(segment__match__in=matches).values_list("segment_id", "side"))
    by_match: dict[int, list[Segment]] = {}
    for seg in segments:
        by_match.setdefault(seg.match_id, []).append(seg)
    out: dict[str, list[Action]] = {}
    for match in matches:
        side = "home" if match.home_id == team.pk else "visitors"
        other = "visitors" if side == "home" else "home"
        for seg in by_match.get(match.pk, []):
            begun = (
                seg.started_at is not None
                or seg.closed_at is not None
                or seg.has_totals
                or any((match.pk, b) in played for b in seg.board_numbers)
            )
            if begun:
                continue
            first = sits_first(seg) == side
            label = _label(seg.number, (seg.pk, side) in given, first, (seg.pk, other) in given)
            url = reverse(
                "matches:line_up",
                kwargs={
                    "edition": edition.slug,
                    "code": match.code,
                    "number": seg.number,
                    "side": side,
                },
            )
            out[match.code] = [Action(label, url)]
            break
    return out
