"""The events the mail app listens to (:mod:`bridgeko.core.events`) and what each mails to
whom (docs/web-mail.md). Each listener runs inside the transaction of the action that emitted
the event, so its outbox rows commit or roll back with the action."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bridgeko.competition import scheme
from bridgeko.competition.messages import Message
from bridgeko.core import events
from bridgeko.core import team_matches as core_team_matches
from bridgeko.core.i18n import tr
from bridgeko.draw.models import Draw, DrawNumber
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.mail.models import Event
from bridgeko.mail.services import link, organisers, queue
from bridgeko.matches import state as match_state
from bridgeko.matches.models import Match, MatchStatus


def _my_team(team: Team) -> str:
    return link("entries:my_team_of", edition=team.edition.slug, team=team.pk)


def _side(match: Match, team: Team) -> str:
    """``home`` or ``visitors``: the side of ``team`` in ``match``."""
    return "home" if match.home_id == team.pk else "visitors"


def _opponent(match: Match, team: Team) -> Team | None:
    return match.visitors if match.home_id == team.pk else match.home


def on_entry_confirmed(*, team: Team, fee: int, **_kwargs: Any) -> None:
    """The captain: the entry confirmed (the entry form received, R3.1a) with the fee due."""
    edition = team.edition

    def context(team: Team) -> dict[str, Any]:
        return {
            "fee": fee,
            "paid": team.fee_paid,
            "outstanding": max(fee - team.fee_paid, 0),
            "link": _my_team(team),
        }

    queue(
        edition=edition,
        event=Event.ENTRY,
        template="entry_confirmed",
        teams=[team],
        context=context,
    )


def _drawn_teams(edition: Edition) -> list[Team]:
    draw = Draw.objects.filter(edition=edition).first()
    if draw is None:
        return []
    numbers = DrawNumber.objects.filter(draw=draw).select_related("team").order_by("number")
    return [n.team for n in numbers]


def _queue_to_drawn(
    edition: Edition, event: str, template: str, context: Callable[[Team], dict[str, Any]]
) -> None:
    """Queue a mail to the captain of every drawn team."""
    queue(
        edition=edition,
        event=event,
        template=template,
        teams=_drawn_teams(edition),
        context=context,
    )


_REF = re.compile(r"^(winner|loser) of (\S+)$")


def _ref(text: str) -> str:
    """An opponent not known yet ("winner of R1-M2", the bracket's English) in the reader's
    language."""
    found = _REF.match(text)
    if found is None:
        return text
    template = scheme.REF_WINNER if found[1] == "winner" else scheme.REF_LOSER
    return tr(Message(template, {"match": found[2]}))


def _schedule(edition: Edition, team: Team) -> list[dict[str, Any]]:
    """The team's matches (the draw app's list for "My team"), each with its side."""
    rows = {
        m.code: m
        for m in Match.objects.filter(edition=edition).select_related("home", "visitors")
        if team.pk in (m.home_id, m.visitors_id)
    }
    out = []
    for tm in core_team_matches.matches(edition, team):
        match = rows.get(tm.id)
        bye = match is not None and match.status == MatchStatus.BYE  # R11.4
        out.append(
            {
                "code": tm.id,
                "round": tm.round_name,
                "bye": bye,
                "opponent": tm.opponent.name if tm.opponent is not None else _ref(tm.opponent_ref),
                "side": _side(match, team) if match is not None and not bye else "",
                "start": tm.start,
                "location": tm.location,
                "contacts": tm.contacts,
            }
        )
    return out


def on_draw_held(*, edition: Edition, **_kwargs: Any) -> None:
    """Every drawn team's captain: the draw number, the first match (opponent, side, date and
    place once published) and the team's matches as far as they are known."""
    numbers = {
        n.team_id: n.number
        for n in DrawNumber.objects.filter(draw__edition=edition).only("team_id", "number")
    }

    def context(team: Team) -> dict[str, Any]:
        schedule = _schedule(edition, team)
        playing = [m for m in schedule if not m["bye"]]
        return {
            "number": numbers.get(team.pk),
            "bye": any(m["bye"] for m in schedule),
            "first": playing[0] if playing else None,
            "schedule": schedule,
            "link": _my_team(team),
        }

    _queue_to_drawn(edition, Event.DRAW, "draw_held", context)


def on_schedule_published(*, edition: Edition, **_kwargs: Any) -> None:
    """Every drawn team's captain: the dates and places of the team's matches (R14.1)."""

    def context(team: Team) -> dict[str, Any]:
        return {"schedule": _schedule(edition, team), "link": _my_team(team)}

    _queue_to_drawn(edition, Event.SCHEDULE, "schedule_published", context)


def _both(match: Match) -> list[Team]:
    return [t for t in (match.home, match.visitors) if t is not None]


def _about_match(match: Match, team: Team, **extra: Any) -> dict[str, Any]:
    """A match mail's context for ``team``: the match, the team's side and opponent, and the
    link to My team, with ``extra``."""
    return {
        "match": match,
        "side": _side(match, team),
        "opponent": _opponent(match, team),
        **extra,
        "link": _my_team(team),
    }


def _queue_to_both(
    match: Match, event: str, template: str, context: Callable[[Team], dict[str, Any]]
) -> None:
    """Queue a match mail to both captains."""
    queue(
        edition=match.edition,
        event=event,
        template=template,
        teams=_both(match),
        context=context,
        match=match,
    )


def on_match_rescheduled(*, match: Match, before: datetime | None = None, **_kwargs: Any) -> None:
    """Both captains: the match's new date and place (R14.2)."""

    def context(team: Team) -> dict[str, Any]:
        return _about_match(match, team, before=before)

    _queue_to_both(match, Event.RESCHEDULED, "match_rescheduled", context)


def on_match_result(*, match: Match, **_kwargs: Any) -> None:
    """Both captains: the score after a segment's result is complete, and when the match is
    decided (or a decided match's score corrected)."""
    view = match_state.view(match)
    segments = [
        {
            "number": s.segment.number,
            "home": s.home_imps,
            "visitors": s.visitors_imps,
            "complete": s.complete,
        }
        for s in view.segments
        if s.complete
    ]
    decided = match.status in (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.NO_WINNER)
    winner = match.home if match.winner == "home" else match.visitors if match.winner else None

    def context(team: Team) -> dict[str, Any]:
        return _about_match(
            match,
            team,
            segments=segments,
            decided=decided,
            without_play=match.status in (MatchStatus.WALKOVER, MatchStatus.NO_WINNER),
            winner=winner,
            status=match.get_status_display(),
        )

    _queue_to_both(match, Event.RESULT, "match_result", context)


def on_date_proposed(*, proposal: Any, **_kwargs: Any) -> None:
    """The other team's captains: a proposal to answer (R14.2a)."""
    match = proposal.match
    other = match.visitors if proposal.side == "home" else match.home
    if other is None:
        return

    def context(team: Team) -> dict[str, Any]:
        return _about_match(match, team, proposal=proposal) | {"link": _date_link(match, team)}

    queue(
        edition=match.edition,
        event=Event.DATE_PROPOSED,
        template="date_proposed",
        teams=[other],
        context=context,
        match=match,
    )


def _date_link(match: Match, team: Team) -> str:
    return link(
        "matches:date", edition=match.edition.slug, code=match.code, side=_side(match, team)
    )


def on_date_answered(*, proposal: Any, **_kwargs: Any) -> None:
    """Both captains: what became of a proposal; the organisers too when the captains agreed
    (the notice of R14.2a) or the TD ruled."""
    match = proposal.match
    told = proposal.status in ("accepted", "awaiting_td", "refused")

    def context(team: Team) -> dict[str, Any]:
        return _about_match(match, team, proposal=proposal) | {"link": _date_link(match, team)}

    people = [(match.home, person) for person in organisers(match.edition)] if told else []
    queue(
        edition=match.edition,
        event=Event.DATE_ANSWERED,
        template="date_answered",
        teams=_both(match),
        context=context,
        match=match,
        people=[(team, person) for team, person in people if team is not None],
    )


def _record_link(match: Match, team: Team) -> str:
    return link(
        "matches:record", edition=match.edition.slug, code=match.code, side=_side(match, team)
    )


def _record_context(submission: Any, team: Team) -> dict[str, Any]:
    from bridgeko.matches.records import provisional_score

    home, visitors = provisional_score(submission)
    return _about_match(submission.match, team, submission=submission) | {
        "score": f"{home}:{visitors}",
        "link": _record_link(submission.match, team),
    }


def on_record_submitted(*, submission: Any, **_kwargs: Any) -> None:
    """The opponents' captains: a match record to confirm or dispute (R14.2b)."""
    match = submission.match
    other = match.visitors if submission.side == "home" else match.home
    if other is None:
        return
    queue(
        edition=match.edition,
        event=Event.RECORD_SUBMITTED,
        template="record_submitted",
        teams=[other],
        context=lambda team: _record_context(submission, team),
        match=match,
    )


def on_record_answered(*, submission: Any, **_kwargs: Any) -> None:
    """Both captains and the organisers: the record confirmed or disputed (the TD decides)."""
    match = submission.match
    people = [(match.home, person) for person in organisers(match.edition)]
    queue(
        edition=match.edition,
        event=Event.RECORD_ANSWERED,
        template="record_answered",
        teams=_both(match),
        context=lambda team: _record_context(submission, team),
        match=match,
        people=[(team, person) for team, person in people if team is not None],
    )


def on_record_decided(*, submission: Any, **_kwargs: Any) -> None:
    """Both captains: the TD approved or rejected the record, or its team withdrew it."""
    match = submission.match
    queue(
        edition=match.edition,
        event=Event.RECORD_DECIDED,
        template="record_answered",
        teams=_both(match),
        context=lambda team: _record_context(submission, team),
        match=match,
    )


def on_appeal_decided(
    *,
    match: Match,
    appellant: Team,
    outcome: str,
    deposit: str,
    reasons: str = "",
    **_kwargs: Any,
) -> None:
    """Both captains: the appeals committee's decision (final, R16.5) and the deposit's fate."""

    def context(team: Team) -> dict[str, Any]:
        return {
            "match": match,
            "appellant": appellant,
            "ours": appellant.pk == team.pk,
            "outcome": outcome,
            "deposit": deposit,
            "reasons": reasons,
            "link": _my_team(team),
        }

    _queue_to_both(match, Event.APPEAL, "appeal_decided", context)


LISTENERS: dict[str, Callable[..., None]] = {
    Event.ENTRY: on_entry_confirmed,
    Event.DRAW: on_draw_held,
    Event.SCHEDULE: on_schedule_published,
    Event.RESCHEDULED: on_match_rescheduled,
    Event.RESULT: on_match_result,
    Event.APPEAL: on_appeal_decided,
    Event.DATE_PROPOSED: on_date_proposed,
    Event.DATE_ANSWERED: on_date_answered,
    Event.RECORD_SUBMITTED: on_record_submitted,
    Event.RECORD_ANSWERED: on_record_answered,
    Event.RECORD_DECIDED: on_record_decided,
}


def subscribe_all() -> None:
    for event, listener in LISTENERS.items():
        events.subscribe(str(event), listener)
