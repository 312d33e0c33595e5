"""The captain's links to the paper forms of the team's matches, on "My team" (the entries app
lies below this app: the links reach it through :mod:`bridgeko.core.team_matches`)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import team_matches
from bridgeko.core.team_matches import Action
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches.models import Match


@team_matches.register_actions
def paper_links(edition: Edition, team: Team, ids: Sequence[str]) -> dict[str, list[Action]]:
    """For each of the team's matches with both teams known: its match record (R14.2b: the
    winner of a match played early delivers it) and its appeal form (R16.2). One query."""
    found = (
        Match.objects.filter(edition=edition, code__in=list(ids))
        .filter(Q(home=team) | Q(visitors=team))
        .exclude(home__isnull=True)
        .exclude(visitors__isnull=True)
        .values_list("code", flat=True)
    )
    out: dict[str, list[Action]] = {}
    for code in found:
        kwargs = {"edition": edition.slug, "code": code}
        out[code] = [
            Action(_("Match record (PDF)"), reverse("paper:match_record", kwargs=kwargs)),
            Action(_("Appeal form (PDF)"), reverse("paper:appeal_form", kwargs=kwargs)),
        ]
    return out
