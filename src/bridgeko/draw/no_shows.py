"""Failures to appear (R15.1-R15.3), tied to the matches of the bracket.

The record (:class:`bridgeko.entries.models.NoShow`) belongs to the entries app, which reads it
to bar players from the next edition (R15.3, ``entries.queries.barred_players``); but only the
draw app knows the bracket, and the entries app lies below it. So this module, in the draw app,
is the only writer: a failure to appear is recorded for a match of the resolved bracket
(:func:`bridgeko.draw.display.bracket_rounds`, i.e. :func:`bridgeko.competition.bracket.resolve`)
in which the team has a slot and its opponent is known — a bye (R11.4) is no match — once per
team and match (a unique constraint backs the check); it can be corrected or withdrawn with a
reason, each change audited with the record before and after. A withdrawn record bars nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from bridgeko.audit.services import record, snapshot
from bridgeko.core import bracket_hooks
from bridgeko.core.errors import ServiceError
from bridgeko.draw import display
from bridgeko.draw.models import Draw
from bridgeko.editions.models import Edition
from bridgeko.entries.models import NoShow, Team

FIELDS = ("match", "legacy_match", "timely_notice", "note", "withdrawn_at", "withdrawn_reason")
"""What the audit entries keep of a record, before and after."""

MATCH_STATUSES = frozenset({"to_play", "played"})
"""A match the team plays: both teams known (never a bye, R11.4, nor a match with nobody)."""


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A match of the bracket in which the team plays, as the form offers it."""

    id: str
    round: int
    opponent: Team
    home: bool
    start: datetime | None

    @property
    def label(self) -> str:
        return f"{self.id}: {self.opponent.name}"


def held_draw(edition: Edition) -> Draw | None:
    return Draw.objects.filter(edition=edition, held_at__isnull=False).first()


def matches_by_team(edition: Edition) -> dict[int, list[TeamMatch]]:
    """Team id -> the matches of the resolved bracket that the team plays (two queries)."""
    draw = held_draw(edition)
    if draw is None:
        return {}
    rounds = display.bracket_rounds(draw, display.numbers_of(draw), display.match_dates(draw))
    out: dict[int, list[TeamMatch]] = {}
    for rnd in rounds:
        for m in rnd.matches:
            home, away = m.home.team, m.away.team
            if m.status not in MATCH_STATUSES or home is None or away is None:
                continue
            out.setdefault(home.pk, []).append(TeamMatch(m.id, m.round, away, True, m.start))
            out.setdefault(away.pk, []).append(TeamMatch(m.id, m.round, home, False, m.start))
    return out


def team_matches(team: Team) -> list[TeamMatch]:
    """The matches of the bracket that ``team`` plays (empty before the draw)."""
    return matches_by_team(team.edition).get(team.pk, [])


def _check_match(team: Team, match: str) -> str:
    match = match.strip()
    offered = {m.id for m in team_matches(team)}
    if not offered:
        raise ServiceError(
            _("%(team)s plays no match of the bracket yet (the draw is not held, or a bye).")
            % {"team": team.name},
            field="match",
        )
    if match not in offered:
        raise ServiceError(
            _("Choose a match that %(team)s plays: %(matches)s.")
            % {"team": team.name, "matches": ", ".join(sorted(offered))},
            field="match",
        )
    return match


def _duplicate(team: Team, match: str) -> ServiceError:
    return ServiceError(
        _("A failure to appear of %(team)s in match %(match)s is recorded already.")
        % {"team": team.name, "match": match},
        field="match",
    )


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    return reason


def _summary(show: NoShow) -> str:
    return f"{show.team.name} {show.match_text}"


def record_no_show(
    *, team: Team, match: str, timely_notice: bool, note: str, user: Any, now: datetime
) -> NoShow:
    """Records that ``team`` failed to appear for ``match`` (an id from :func:`team_matches`,
    R15.2); without timely notice (R15.1) its players are barred from the next edition (R15.3,
    the engine's :func:`bridgeko.competition.sanctions.barred_players`)."""
    match = _check_match(team, match)
    try:
        with transaction.atomic():
            Team.objects.select_for_update().filter(pk=team.pk).first()  # one writer per team
            if NoShow.objects.filter(team=team, match=match, withdrawn_at__isnull=True).exists():
                raise _duplicate(team, match)
            show = NoShow.objects.create(
                edition=team.edition,
                team=team,
                match=match,
                timely_notice=timely_notice,
                note=note.strip(),
                recorded_at=now,
            )
            record(
                "bridgeko.no_show.recorded",
                user=user,
                edition=team.edition,
                obj=show,
                after=snapshot(show, FIELDS),
                summary=_summary(show),
                at=now,
            )
            bracket_hooks.changed(team.edition, match=match, user=user, now=now)  # R15.2
    except IntegrityError:  # a concurrent request recorded the same one
        raise _duplicate(team, match) from None
    return show


def correct_no_show(
    *,
    no_show: NoShow,
    match: str,
    timely_notice: bool,
    note: str,
    reason: str,
    user: Any,
    now: datetime,
) -> NoShow:
    """Corrects a recorded failure to appear (another match of the team, the notice, the note);
    an old record without a match gets one here. Audited with the record before and after."""
    reason = _reason(reason)
    team = no_show.team
    match = _check_match(team, match)
    try:
        with transaction.atomic():
            show = NoShow.objects.select_for_update().select_related("team").get(pk=no_show.pk)
            if show.withdrawn:
                raise ServiceError(_("This failure to appear is withdrawn; record a new one."))
            clash = NoShow.objects.filter(team=team, match=match, withdrawn_at__isnull=True)
            if clash.exclude(pk=show.pk).exists():
                raise _duplicate(team, match)
            before = snapshot(show, FIELDS)
            show.match, show.legacy_match = match, ""
            show.timely_notice, show.note = timely_notice, note.strip()
            show.save()
            record(
                "bridgeko.no_show.corrected",
                user=user,
                edition=show.edition,
                obj=show,
                before=before,
                after=snapshot(show, FIELDS) | {"reason": reason},
                summary=f"{_summary(show)}: {reason}",
                at=now,
            )
            for changed in {before["match"], show.match} - {""}:  # R15.2: both matches
                bracket_hooks.changed(show.edition, match=changed, user=user, now=now)
    except IntegrityError:
        raise _duplicate(team, match) from None
    return show


def withdraw_no_show(*, no_show: NoShow, reason: str, user: Any, now: datetime) -> NoShow:
    """Withdraws a failure to appear recorded in error: it stays on the list, struck through,
    and bars nobody (R15.3). Audited with the record before and after."""
    reason = _reason(reason)
    with transaction.atomic():
        show = NoShow.objects.select_for_update().select_related("team").get(pk=no_show.pk)
        if show.withdrawn:
            raise ServiceError(_("This failure to appear is withdrawn already."))
        before = snapshot(show, FIELDS)
        show.withdrawn_at, show.withdrawn_reason = now, reason
        show.save()
        record(
            "bridgeko.no_show.withdrawn",
            user=user,
            edition=show.edition,
            obj=show,
            before=before,
            after=snapshot(show, FIELDS),
            summary=f"{_summary(show)}: {reason}",
            at=now,
        )
        if show.match:
            bracket_hooks.changed(show.edition, match=show.match, user=user, now=now)  # R15.2
    return show
