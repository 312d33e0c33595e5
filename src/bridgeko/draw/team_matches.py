"""A team's matches for its captain's "My team" page (registered with
:mod:`bridgeko.core.team_matches` in ``DrawConfig.ready``): the matches of the resolved bracket
in which the team has a slot, with the date and place once the dates are published (R14.1)
and the opposing captain's contact (R15.1: a team that cannot play tells the opponents)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.competition.regulations import Stage
from bridgeko.core import team_matches
from bridgeko.core.team_matches import Contact, TeamMatch
from bridgeko.draw import display, services
from bridgeko.editions.models import Edition
from bridgeko.entries.models import RosterEntry, Team


def _round_name(stage: Stage, number: int) -> str:
    names = {
        Stage.QUARTERFINAL: _("Quarterfinals"),
        Stage.SEMIFINAL: _("Semifinals"),
        Stage.THIRD_PLACE: _("3rd place"),
        Stage.FINAL: pgettext("round", "Final"),
    }
    return names.get(stage) or _("Preliminary round %(n)s") % {"n": number}


def _contacts(team: Team) -> list[Contact]:
    """The opposing captain: the accounts holding the captain's role for ``team`` (name and
    e-mail), else the first player of the roster (R7.1) without an address."""
    out = []
    assignments = RoleAssignment.objects.filter(team=team, role=Role.CAPTAIN).select_related("user")
    for assignment in assignments.order_by("user__username"):
        user = assignment.user
        out.append(Contact(user.get_full_name() or user.get_username(), user.email or ""))
    if out:
        return out
    first = RosterEntry.objects.filter(team=team).select_related("player").order_by("position")
    captain = first.first()
    return [Contact(captain.player.name)] if captain is not None else []


@team_matches.register
def draw_matches(edition: Edition, team: Team) -> Sequence[TeamMatch]:
    if not edition.draw_held:
        return []
    draw = services.draw_of(edition)
    if draw is None or draw.held_at is None:
        return []
    published = draw.schedule_published_at is not None
    dates = display.match_dates(draw) if published else {}
    out: list[TeamMatch] = []
    for round_ in display.bracket_rounds(draw, display.numbers_of(draw), dates):
        for m in round_.matches:
            sides = (m.home, m.away)
            mine = [s for s in sides if s.team is not None and s.team.pk == team.pk]
            if not mine:
                continue
            other = m.away if mine[0] is m.home else m.home
            bye = m.status == "bye"
            opponent = None if bye else other.team
            result = ""
            if m.score is not None:
                ours, theirs = (m.score.home, m.score.away)
                if mine[0] is not m.home:
                    ours, theirs = theirs, ours
                result = m.score.label
                if m.score.shown:
                    result = _("%(ours)s:%(theirs)s IMP · %(status)s") % {
                        "ours": ours,
                        "theirs": theirs,
                        "status": m.score.label,
                    }
            out.append(
                TeamMatch(
                    id=m.id,
                    round_name=_round_name(m.stage, round_.number),
                    start=m.start,
                    location=m.location
                    or (edition.regulations.edition.venue if m.start is not None else ""),
                    opponent=opponent,
                    opponent_ref=_("a bye (R11.4): no match") if bye else other.ref,
                    contacts=_contacts(opponent) if opponent is not None else (),
                    result=result,
                )
            )
    return out
