"""What the appeals app adds to the pages of the apps below it: the state of a team's appeals
on its captain's "My team" (:mod:`bridgeko.core.team_matches`; both captains of the match see
it), on the TD's match page "Lodge an appeal" and the match's appeals (the ``match_appeals``
slot of :mod:`bridgeko.core.page_links`), and on the organiser's dashboard the appeals awaiting
a committee or a decision (:mod:`bridgeko.core.dashboard`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date, datetime
from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.accounts.models import ORGANISER_ROLES, Role
from bridgeko.appeals.models import Appeal, AppealStatus
from bridgeko.core import dashboard, page_links, team_matches
from bridgeko.core.page_links import Link
from bridgeko.core.team_matches import Action

LODGERS = frozenset({str(Role.TD)}) | ORGANISER_ROLES
"""Who lodges an appeal: the TD (the form goes through the TD, R16.2) or an organiser."""


def state_label(appeal: Appeal) -> str:
    """The appeal's state in words, in the reader's language."""
    if appeal.status == AppealStatus.DECIDED:
        return _("decided: %(outcome)s; deposit %(deposit)s") % {
            "outcome": appeal.get_outcome_display(),
            "deposit": appeal.get_deposit_fate_display(),
        }
    if appeal.status == AppealStatus.COMMITTEE:
        return _("before the committee")
    if appeal.status == AppealStatus.WITHDRAWN:
        return _("withdrawn")
    return _("lodged, the committee not yet named")


def short_state(appeal: Appeal) -> str:
    """The appeal's state in a few words (for My team on a phone)."""
    if appeal.status == AppealStatus.DECIDED:
        return {
            "upheld": _("decided, upheld"),
            "adjusted": _("decided, result adjusted"),
        }.get(appeal.outcome, _("decided, the score stands"))
    if appeal.status == AppealStatus.COMMITTEE:
        return _("before the committee")
    if appeal.status == AppealStatus.WITHDRAWN:
        return _("withdrawn")
    return _("lodged")


@team_matches.register_actions
def appeal_states(edition: Any, team: Any, ids: Sequence[str]) -> dict[str, list[Action]]:
    """For each of the team's matches with appeals: one line per appeal with its state, linking
    to the captain's page of the appeal (one query)."""
    appeals = (
        Appeal.objects.filter(edition=edition, match__code__in=list(ids))
        .filter(Q(match__home=team) | Q(match__visitors=team))
        .select_related("match", "appellant")
        .order_by("lodged_at", "pk")
    )
    out: dict[str, list[Action]] = {}
    for appeal in appeals:
        label = _("Appeal of %(team)s: %(state)s") % {
            "team": appeal.appellant.name,
            "state": short_state(appeal),
        }
        url = reverse(
            "appeals:team",
            kwargs={"edition": edition.slug, "team": team.pk, "appeal": appeal.pk},
        )
        out.setdefault(appeal.match.code, []).append(Action(label, url))
    return out


def match_page_links(request: Any, edition: Any, match: Any) -> list[Link]:
    """On the TD's match page: "Lodge an appeal" (TDs, organisers; both teams known) and each
    appeal of the match with its state."""
    roles: frozenset[str] = getattr(request, "edition_roles", frozenset())
    if not (request.user.is_superuser or roles & LODGERS):
        return []
    slug = edition.slug
    links: list[Link] = []
    if match.home_id is not None and match.visitors_id is not None:
        links.append(
            Link(
                _("Lodge an appeal"),
                reverse("appeals:lodge", kwargs={"edition": slug, "code": match.code}),
            )
        )
    for appeal in Appeal.objects.filter(match=match).select_related("appellant"):
        links.append(
            Link(
                _("Appeal of %(team)s: %(state)s")
                % {"team": appeal.appellant.name, "state": state_label(appeal)},
                reverse("appeals:detail", kwargs={"edition": slug, "appeal": appeal.pk}),
            )
        )
    return links


page_links.register("match_appeals", match_page_links)


@dashboard.register
def appeal_items(
    edition: Any, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    """For organisers: each appeal not decided yet, with what it waits for (R16.1, R16.5)."""
    if not viewer.organiser:
        return
    waiting = Appeal.objects.filter(
        edition=edition, status__in=(AppealStatus.LODGED, AppealStatus.COMMITTEE)
    ).select_related("match", "appellant")
    for appeal in waiting:
        title = (
            _("Appeal of %(team)s in %(code)s: name the committee (R16.1)")
            if appeal.status == AppealStatus.LODGED
            else _("Appeal of %(team)s in %(code)s: the committee's decision is due")
        )
        yield dashboard.Item(
            title % {"team": appeal.appellant.name, "code": appeal.match.code},
            url=reverse("appeals:detail", kwargs={"edition": edition.slug, "appeal": appeal.pk}),
            at=appeal.lodged_at,
            source="appeals",
        )
