"""Captains agree a date and place for their match themselves (R14.2a, I12; issue 21).

A captain proposes a start and a place — or to play online, with the link — and a note; the
other captain accepts, answers with a proposal of their own (the first is then *countered*) or
declines; the proposer may withdraw a proposal while it waits. One proposal waits at a time.

An acceptance is the teams' agreement, and bridgeko tells the organiser of it at once: the
acceptance is the notice of R14.2a (``told_at``). The match then moves through
:func:`bridgeko.matches.match_admin.reschedule`, the TD's own service, so the engine's rule
(:func:`bridgeko.competition.schedule.reschedule_by_agreement`) is applied once: a notice by
the end of the day before the normal date moves the match at once; a later one waits for the
TD's ruling (I12: :func:`decide`), listed on the TD's dashboard. The public schedule and the
calendar feeds follow the match's date, and the captains get the mail of a moved match.

Refused with a message, nothing changed: a start in the past, a start after the round's record
deadline (R14.2b: the record must reach the organiser by 13:00 on the round's last day, so the
match is played before), a place of more than 200 characters, a link that is not an http(s)
address, a note of more than 1,000 characters, a second proposal while one waits from the same
side, a match that has started or is over, an answer by the side that proposed."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlparse

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import schedule
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.matches import match_admin
from bridgeko.matches.models import DateProposal, Match, ProposalStatus
from bridgeko.matches.services import locked

__all__ = [
    "MAX_NOTE",
    "MAX_PLACE",
    "accept",
    "decide",
    "decline",
    "pending",
    "propose",
    "revoke",
]

MAX_PLACE = 200
MAX_NOTE = 1000
SIDES = ("home", "visitors")


def pending(match: Match) -> DateProposal | None:
    """The proposal waiting for an answer or for the TD, if any."""
    return (
        DateProposal.objects.filter(
            match=match, status__in=(ProposalStatus.PENDING, ProposalStatus.AWAITING_TD)
        )
        .order_by("-created_at", "-id")
        .first()
    )


def _where(proposal: DateProposal) -> str:
    if proposal.online:
        return _("online: %(link)s") % {"link": proposal.online}
    return proposal.place


def _when(match: Match, start: datetime) -> str:
    return f"{start.astimezone(schedule.zone(match.edition.regulations)):%Y-%m-%d %H:%M}"


def _playable(match: Match) -> None:
    if match.home_id is None or match.visitors_id is None:
        raise ServiceError(
            _("The teams of match %(code)s are not known yet.") % {"code": match.code}
        )
    if match_admin.started(match):
        raise ServiceError(
            _("Match %(code)s has started or is over: it can no longer be moved.")
            % {"code": match.code}
        )


def _check(
    match: Match, start: datetime, place: str, online: str, note: str, now: datetime
) -> None:
    if start is None or timezone.is_naive(start):
        raise ServiceError(_("Give the start as a date and time."), field="start")
    if start <= now:
        raise ServiceError(_("The start is in the past."), field="start")
    if len(place) > MAX_PLACE:
        raise ServiceError(
            _("The place is too long (at most %(max)s characters).") % {"max": MAX_PLACE},
            field="place",
        )
    if len(note) > MAX_NOTE:
        raise ServiceError(
            _("The note is too long (at most %(max)s characters).") % {"max": MAX_NOTE},
            field="note",
        )
    if online:
        parsed = urlparse(online)
        if parsed.scheme not in ("http", "https") or not parsed.netloc or len(online) > 500:
            raise ServiceError(
                _("The link to play online is an address starting with https://."),
                field="online",
            )
    elif not place:
        raise ServiceError(_("Give the place, or the link to play online."), field="place")
    _normal, last = match_admin.normal_dates(match)
    if last is not None:
        deadline = schedule.result_record_deadline(last, match.edition.regulations)
        if not deadline.met_by(start):
            raise ServiceError(
                _(
                    "The start is after the round's deadline: the match record must reach the "
                    "organiser by %(deadline)s (R14.2b)."
                )
                % {"deadline": _when(match, deadline.at)},
                field="start",
            )


def _team_name(match: Match, side: str) -> str:
    team = match.home if side == "home" else match.visitors
    return team.name if team is not None else side


def _audit(
    action: str,
    proposal: DateProposal,
    user: Any,
    now: datetime,
    summary: str,
    before: dict[str, Any] | None = None,
) -> None:
    match = proposal.match
    record(
        action,
        user=user,
        edition=match.edition,
        obj=match,
        before=before,
        after={
            "proposal": proposal.pk,
            "side": proposal.side,
            "start": proposal.start,
            "place": proposal.place,
            "online": proposal.online,
            "note": proposal.note,
            "status": proposal.status,
            "answer_note": proposal.answer_note,
        },
        summary=Message(
            summary,
            {
                "match": match.code,
                "start": _when(match, proposal.start),
                "where": _where(proposal),
                "team": _team_name(match, proposal.side),
            },
        ),
        at=now,
    )


def propose(
    *,
    match: Match,
    side: str,
    start: datetime,
    place: str = "",
    online: str = "",
    note: str = "",
    user: Any,
    now: datetime,
) -> DateProposal:
    """A captain's proposal (``side``: their team's side). A proposal of the other side that
    waits is answered by it (countered)."""
    if side not in SIDES:
        raise ServiceError(_("A side is home or visitors."))
    place, online, note = (place or "").strip(), (online or "").strip(), (note or "").strip()
    with transaction.atomic():
        match = locked(match)
        _playable(match)
        _check(match, start, place, online, note, now)
        waiting = pending(match)
        if waiting is not None and waiting.side == side:
            raise ServiceError(
                _(
                    "Your proposal of %(start)s still waits for an answer: withdraw it first to "
                    "propose another."
                )
                % {"start": _when(match, waiting.start)}
            )
        if waiting is not None and waiting.status == ProposalStatus.AWAITING_TD:
            raise ServiceError(
                _("An agreement waits for the TD's ruling (I12): propose again after it.")
            )
        if waiting is not None:
            waiting.status = ProposalStatus.COUNTERED
            waiting.answered_by = user if getattr(user, "pk", None) else None
            waiting.answered_at = now
            waiting.save(update_fields=["status", "answered_by", "answered_at"])
        proposal = DateProposal.objects.create(
            match=match,
            side=side,
            proposed_by=user if getattr(user, "pk", None) else None,
            start=start,
            place=place,
            online=online,
            note=note,
            created_at=now,
        )
        _audit(
            "bridgeko.date.proposed",
            proposal,
            user,
            now,
            N_("%(match)s: %(team)s propose to play on %(start)s, %(where)s (R14.2)"),
            before={"countered": waiting.pk} if waiting is not None else None,
        )
        emit("date.proposed", proposal=proposal, user=user)
    return proposal


def _waiting(proposal: DateProposal) -> DateProposal:
    fresh = DateProposal.objects.select_for_update().get(pk=proposal.pk)
    if fresh.status != ProposalStatus.PENDING:
        raise ServiceError(
            _("This proposal was answered or withdrawn meanwhile (%(status)s).")
            % {"status": fresh.get_status_display()}
        )
    return fresh


def revoke(*, proposal: DateProposal, side: str, user: Any, now: datetime) -> DateProposal:
    """The proposer withdraws a proposal while it waits."""
    with transaction.atomic():
        locked(proposal.match)
        proposal = _waiting(proposal)
        if side != proposal.side:
            raise ServiceError(_("Only the team that proposed may withdraw it."))
        proposal.status = ProposalStatus.REVOKED
        proposal.answered_by = user if getattr(user, "pk", None) else None
        proposal.answered_at = now
        proposal.save(update_fields=["status", "answered_by", "answered_at"])
        _audit(
            "bridgeko.date.revoked",
            proposal,
            user,
            now,
            N_("%(match)s: the proposal to play on %(start)s withdrawn"),
        )
        emit("date.answered", proposal=proposal, user=user)
    return proposal


def decline(
    *, proposal: DateProposal, side: str, user: Any, now: datetime, note: str = ""
) -> DateProposal:
    """The other captain declines; the match keeps its date."""
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise ServiceError(
            _("The note is too long (at most %(max)s characters).") % {"max": MAX_NOTE},
            field="note",
        )
    with transaction.atomic():
        locked(proposal.match)
        proposal = _waiting(proposal)
        if side == proposal.side:
            raise ServiceError(_("The other team answers a proposal, not the one that made it."))
        proposal.status = ProposalStatus.DECLINED
        proposal.answered_by = user if getattr(user, "pk", None) else None
        proposal.answered_at = now
        proposal.answer_note = note
        proposal.save(update_fields=["status", "answered_by", "answered_at", "answer_note"])
        _audit(
            "bridgeko.date.declined",
            proposal,
            user,
            now,
            N_("%(match)s: the proposal to play on %(start)s declined"),
        )
        emit("date.answered", proposal=proposal, user=user)
    return proposal


def _agreed_by(proposal: DateProposal, user: Any) -> str:
    names = [
        getattr(u, "get_full_name", lambda: "")() or getattr(u, "username", "")
        for u in (proposal.proposed_by, user)
        if u is not None
    ]
    return _("the captains in bridgeko (%(names)s)") % {"names": ", ".join(n for n in names if n)}


def accept(*, proposal: DateProposal, side: str, user: Any, now: datetime) -> DateProposal:
    """The other captain accepts: the organiser is told now (R14.2a) and the match moves, or
    the agreement waits for the TD's ruling when the notice comes too late (I12)."""
    with transaction.atomic():
        match = locked(proposal.match)
        proposal = _waiting(proposal)
        if side == proposal.side:
            raise ServiceError(_("The other team answers a proposal, not the one that made it."))
        _playable(match)
        if proposal.start <= now:
            raise ServiceError(_("The start is in the past."), field="start")
        proposal.answered_by = user if getattr(user, "pk", None) else None
        proposal.answered_at = now
        proposal.told_at = now
        try:
            match_admin.reschedule(
                match=match,
                start=proposal.start,
                location=_where(proposal),
                agreed_by=_agreed_by(proposal, user),
                reason=proposal.note,
                user=user,
                now=now,
                notice_received_at=now,
            )
        except match_admin.RulingNeeded:
            proposal.status = ProposalStatus.AWAITING_TD
        else:
            proposal.status = ProposalStatus.ACCEPTED
        proposal.save(update_fields=["status", "answered_by", "answered_at", "told_at"])
        _audit(
            "bridgeko.date.accepted",
            proposal,
            user,
            now,
            N_("%(match)s: the captains agreed to play on %(start)s, %(where)s (R14.2)"),
        )
        emit("date.answered", proposal=proposal, user=user)
    return proposal


def decide(
    *, proposal: DateProposal, allowed: bool, reason: str, user: Any, now: datetime
) -> DateProposal:
    """The TD's ruling on an agreement the notice of R14.2a did not cover (I12): allowed, the
    match moves; refused, it keeps its date. The reason is required and recorded."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason for the ruling."), field="reason")
    with transaction.atomic():
        match = locked(proposal.match)
        fresh = DateProposal.objects.select_for_update().get(pk=proposal.pk)
        if fresh.status != ProposalStatus.AWAITING_TD:
            raise ServiceError(_("This agreement does not wait for a ruling."))
        _playable(match)
        match_admin.reschedule(
            match=match,
            start=fresh.start,
            location=_where(fresh),
            agreed_by=_agreed_by(fresh, fresh.answered_by),
            reason=reason,
            user=user,
            now=now,
            notice_received_at=fresh.told_at or now,
            td_allowed=allowed,
        )
        fresh.status = ProposalStatus.ACCEPTED if allowed else ProposalStatus.REFUSED
        fresh.decided_by = user if getattr(user, "pk", None) else None
        fresh.decided_at = now
        fresh.decision_note = reason
        fresh.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        _audit(
            "bridgeko.date.ruled",
            fresh,
            user,
            now,
            N_("%(match)s: the TD allowed the agreement to play on %(start)s (I12)")
            if allowed
            else N_("%(match)s: the TD refused the agreement to play on %(start)s (I12)"),
        )
        emit("date.answered", proposal=fresh, user=user)
    return fresh
