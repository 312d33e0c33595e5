"""Where agreeing a match's date shows (issue 21): the captain's link on "My team" for each match
still to be played (the entries app lies below this app: through
:mod:`bridgeko.core.team_matches`), and the dashboard items of whom a proposal waits for — the
other captain, or the TD for a late agreement (I12)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date, datetime

from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from bridgeko.core import dashboard, team_matches
from bridgeko.core.team_matches import Action
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches import records
from bridgeko.matches.models import (
    DateProposal,
    Match,
    MatchStatus,
    ProposalStatus,
    RecordStatus,
    RecordSubmission,
)


def _when(moment: datetime) -> str:
    return str(formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT"))


@team_matches.register_actions
def date_links(edition: Edition, team: Team, ids: Sequence[str]) -> dict[str, list[Action]]:
    """For each of the team's matches still to be played: agree another date, or answer the
    opponents' proposal; for a match moved by agreement, its match record (R14.2b)."""
    matches = list(
        Match.objects.filter(edition=edition, code__in=list(ids), status=MatchStatus.TO_PLAY)
        .filter(Q(home=team) | Q(visitors=team))
        .exclude(home__isnull=True)
        .exclude(visitors__isnull=True)
    )
    if not matches:
        return {}
    waiting = {
        p.match_id: p
        for p in DateProposal.objects.filter(
            match__in=matches, status__in=(ProposalStatus.PENDING, ProposalStatus.AWAITING_TD)
        )
    }
    records_waiting = {
        r.match_id: r
        for r in RecordSubmission.objects.filter(
            match__in=matches,
            status__in=(RecordStatus.SUBMITTED, RecordStatus.CONFIRMED, RecordStatus.DISPUTED),
        )
    }
    out: dict[str, list[Action]] = {}
    for match in matches:
        side = "home" if match.home_id == team.pk else "visitors"
        url = reverse(
            "matches:date", kwargs={"edition": edition.slug, "code": match.code, "side": side}
        )
        proposal = waiting.get(match.pk)
        if proposal is None:
            label = _("Agree another date (R14.2)")
        elif proposal.status == ProposalStatus.AWAITING_TD:
            label = _("Agreed date %(start)s: waiting for the TD") % {
                "start": _when(proposal.start)
            }
        elif proposal.side == side:
            label = _("Your proposal %(start)s waits for the opponents") % {
                "start": _when(proposal.start)
            }
        else:
            label = _("The opponents propose %(start)s: answer") % {"start": _when(proposal.start)}
        out[match.code] = [Action(label, url)]
        record = records_waiting.get(match.pk)
        record_url = reverse(
            "matches:record", kwargs={"edition": edition.slug, "code": match.code, "side": side}
        )
        if record is None and match.start is None:
            continue  # the record of R14.2b: a match the teams play elsewhere, by agreement
        if record is None:
            out[match.code].append(Action(_("Submit the match record (R14.2b)"), record_url))
        elif record.side != side and record.status == RecordStatus.SUBMITTED:
            out[match.code].append(
                Action(_("Confirm or dispute the opponents' record"), record_url)
            )
        else:
            out[match.code].append(
                Action(
                    _("Match record: %(status)s") % {"status": record.get_status_display()},
                    record_url,
                )
            )
    return out


@dashboard.register
def record_items(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    """A match record waiting for the viewer: the opponents' confirmation, the TD's approval."""
    if not edition.draw_held:
        return
    waiting = RecordSubmission.objects.filter(
        match__edition=edition,
        status__in=(RecordStatus.SUBMITTED, RecordStatus.CONFIRMED, RecordStatus.DISPUTED),
    ).select_related("match")
    for r in waiting:
        match = r.match
        review = reverse(
            "matches:record_review", kwargs={"edition": edition.slug, "code": match.code}
        )
        if r.status == RecordStatus.SUBMITTED:
            deadline = records.answer_deadline(r)
            late = not deadline.met_by(now)
            answering = match.visitors_id if r.side == "home" else match.home_id
            if answering is not None and answering in viewer.team_ids:
                side = "visitors" if r.side == "home" else "home"
                yield dashboard.Item(
                    _("Match %(code)s: confirm or dispute the opponents' record")
                    % {"code": match.code},
                    detail=_("by %(at)s") % {"at": _when(deadline.at)},
                    url=reverse(
                        "matches:record",
                        kwargs={"edition": edition.slug, "code": match.code, "side": side},
                    ),
                    source="matches",
                    at=deadline.at,
                    overdue=late,
                )
            elif late and viewer.staff:
                # the opponents let their time pass: the TD approves or rejects it alone
                yield dashboard.Item(
                    _("The match record of %(code)s was not answered in time")
                    % {"code": match.code},
                    detail=_("the opponents had until %(at)s") % {"at": _when(deadline.at)},
                    url=review,
                    source="matches",
                    at=deadline.at,
                    overdue=True,
                    level=dashboard.Level.WARNING,
                )
        elif viewer.staff:
            yield dashboard.Item(
                _("Approve the match record of %(code)s (%(status)s)")
                % {"code": match.code, "status": r.get_status_display()},
                url=review,
                source="matches",
                at=r.answered_at,
                level=dashboard.Level.WARNING
                if r.late or r.status == RecordStatus.DISPUTED
                else dashboard.Level.TODO,
            )


@dashboard.register
def agreement_items(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    """A proposal waiting for the viewer: the TD's ruling on a late agreement (I12); the
    captain's answer to the opponents' proposal."""
    if not edition.draw_held:
        return
    waiting = DateProposal.objects.filter(
        match__edition=edition,
        status__in=(ProposalStatus.PENDING, ProposalStatus.AWAITING_TD),
    ).select_related("match")
    for p in waiting:
        match = p.match
        if p.status == ProposalStatus.AWAITING_TD:
            if viewer.staff:
                yield dashboard.Item(
                    _("Rule on the date the captains agreed for match %(code)s (I12)")
                    % {"code": match.code},
                    detail=_when(p.start),
                    url=reverse(
                        "matches:date_ruling", kwargs={"edition": edition.slug, "code": match.code}
                    ),
                    source="matches",
                    at=p.told_at,
                )
            continue
        answering = match.visitors_id if p.side == "home" else match.home_id
        if answering is not None and answering in viewer.team_ids:
            side = "visitors" if p.side == "home" else "home"
            yield dashboard.Item(
                _("Match %(code)s: the opponents propose another date") % {"code": match.code},
                detail=_when(p.start),
                url=reverse(
                    "matches:date",
                    kwargs={"edition": edition.slug, "code": match.code, "side": side},
                ),
                source="matches",
                at=p.created_at,
            )
