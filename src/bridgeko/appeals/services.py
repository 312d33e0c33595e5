"""The appeals procedure's writes (R16, I15): each one transaction with one audit entry, the
rules checked by the engine (:mod:`bridgeko.competition.appeals`,
:func:`bridgeko.competition.schedule.appeal_deadlines`) — never here.

- :func:`save_settings`: the organiser's list of committee candidates and whether segment
  deadlines were announced (R16.1, R16.3).
- :func:`lodge`: the TD lodges a team's appeal with the deposit, within the deadline (R16.2-R16.4;
  the end of the match is the end of its last segment in both rooms, I15).
- :func:`name_committee`: the organiser names the committee from the list, never a player of
  either team (R16.1); without members the engine suggests them.
- :func:`decide`: the committee's decision, final (R16.5): the outcome, the deposit's fate
  (R16.2), the adjusted board results (saved as the match's results through
  :func:`bridgeko.matches.services.save_board`); emits ``appeal.decided``.
- :func:`withdraw`: the appellant withdraws the appeal before the decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.appeals.models import (
    AdjustedResult,
    Appeal,
    AppealSettings,
    AppealStatus,
    DepositFate,
    Outcome,
)
from bridgeko.audit.services import record
from bridgeko.competition import appeals as rules
from bridgeko.competition import schedule
from bridgeko.competition.messages import N_, Message
from bridgeko.core import events
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches import services as match_services
from bridgeko.matches.match_admin import normal_dates
from bridgeko.matches.models import BoardResult, Match, Segment

__all__ = [
    "Adjustment",
    "candidates",
    "deadlines",
    "decide",
    "lodge",
    "match_players",
    "name_committee",
    "played_early_round_date",
    "save_settings",
    "settings_of",
    "suggest_committee",
    "withdraw",
]


# ---------------------------------------------------------------------------------------------
# Reading


def settings_of(edition: Any) -> AppealSettings:
    """The edition's appeals settings (unsaved defaults when the organiser has set none)."""
    found = AppealSettings.objects.filter(edition=edition).first()
    return found or AppealSettings(edition=edition)


def candidates(edition: Any) -> list[str]:
    """The organiser's list of committee candidates (R16.1), in its order."""
    return rules.committee_candidates(settings_of(edition).candidates.splitlines())


def match_players(match: Match) -> list[str]:
    """The players on the rosters of both teams of the match (they cannot sit on its
    committee, R16.1)."""
    teams = [t for t in (match.home_id, match.visitors_id) if t is not None]
    return list(
        RosterEntry.objects.filter(team_id__in=teams).values_list("player__name", flat=True)
    )


def suggest_committee(appeal: Appeal) -> tuple[list[str], str]:
    """The engine's committee for ``appeal`` from the list (R16.1) and, when it cannot name one,
    why (in the reader's language)."""
    try:
        named = rules.name_committee(
            candidates(appeal.edition),
            match_players(appeal.match),
            appeal.edition.regulations.appeals,
        )
    except rules.AppealError as exc:
        return [], tr(exc.detail)
    return list(named.members), ""


def match_end(match: Match) -> datetime | None:
    """The end of the match (I15): the end of its last segment in both rooms, as recorded by the
    TD; None while not recorded."""
    last = Segment.objects.filter(match=match).order_by("-number").first()
    return last.ended_at if last is not None else None


def played_early_round_date(match: Match) -> date | None:
    """For a match played early by agreement (R14.2: moved to a day before its normal date,
    R16.4), the scheduled day of its round's last match (I12); None otherwise."""
    if match.start is None:
        return None
    normal, last = normal_dates(match)
    if normal is None or last is None:
        return None
    played = match.start.astimezone(schedule.zone(match.edition.regulations)).date()
    return last if played < normal else None


def _segment_end(match: Match, segment: int | None) -> datetime | None:
    if segment is None:
        return None
    found = Segment.objects.filter(match=match, number=segment).first()
    if found is None:
        raise ServiceError(
            _("Match %(code)s has no segment %(number)s.")
            % {"code": match.code, "number": segment},
            field="segment",
        )
    return found.ended_at


def deadlines(match: Match, segment: int | None = None) -> tuple[schedule.Deadline, ...]:
    """The deadlines an appeal in ``match`` (about ``segment``) must meet (R16.3, R16.4);
    empty while the end of play is not recorded."""
    announced = settings_of(match.edition).segment_deadlines
    try:
        return schedule.appeal_deadlines(
            match.edition.regulations,
            match_ended_at=match_end(match),
            segment_ended_at=_segment_end(match, segment) if announced else None,
            segment_deadlines_announced=announced,
            played_early_round_date=played_early_round_date(match),
        )
    except (schedule.ScheduleError, ServiceError):
        return ()


def _engine_appeal(appeal: Appeal) -> rules.Appeal:
    return rules.Appeal(
        match=appeal.match.code,
        appellant=appeal.appellant.name,
        lodged_at=appeal.lodged_at,
        through_td=appeal.through_td,
        deposit=appeal.deposit,
        segment=appeal.segment,
        subject=appeal.subject,
        form_received_at=appeal.form_received_at,
    )


def _state(appeal: Appeal) -> dict[str, Any]:
    return {
        "status": appeal.status,
        "committee": list(appeal.committee),
        "outcome": appeal.outcome,
        "deposit_fate": appeal.deposit_fate,
    }


def _locked(appeal: Appeal) -> Appeal:
    return Appeal.objects.select_for_update().select_related("match", "appellant").get(pk=appeal.pk)


def _open(appeal: Appeal) -> None:
    if appeal.status == AppealStatus.DECIDED:
        raise ServiceError(
            _(
                "The committee has decided this appeal; its decision is final and cannot be "
                "changed (R16.5)."
            )
        )
    if appeal.status == AppealStatus.WITHDRAWN:
        raise ServiceError(_("This appeal was withdrawn."))


# ---------------------------------------------------------------------------------------------
# The organiser's settings (R16.1, R16.3)


def save_settings(
    *, edition: Any, candidates_text: str, segment_deadlines: bool, user: Any, now: datetime
) -> AppealSettings:
    """Stores the organiser's list of committee candidates (one name a line, in the order of
    preference; R16.1) and whether segment deadlines were announced (R16.3)."""
    names = rules.committee_candidates((candidates_text or "").splitlines())
    with transaction.atomic():
        found = AppealSettings.objects.select_for_update().filter(edition=edition).first()
        current = found or AppealSettings(edition=edition)
        before = {
            "candidates": rules.committee_candidates(current.candidates.splitlines()),
            "segment_deadlines": current.segment_deadlines,
        }
        current.candidates = "\n".join(names)
        current.segment_deadlines = bool(segment_deadlines)
        current.updated_at = now
        current.save()
        record(
            "bridgeko.appeals.settings",
            user=user,
            edition=edition,
            obj=current,
            before=before,
            after={"candidates": names, "segment_deadlines": current.segment_deadlines},
            summary=Message(N_("Appeals committee candidates: %(count)s"), {"count": len(names)}),
            at=now,
        )
    return current


# ---------------------------------------------------------------------------------------------
# Lodging (R16.2, R16.3, R16.4, I15)


def lodge(
    *,
    match: Match,
    appellant: Team,
    subject: str,
    deposit_paid: int,
    through_td: str,
    user: Any,
    now: datetime,
    lodged_at: datetime | None = None,
    segment: int | None = None,
    form_received_at: datetime | None = None,
) -> Appeal:
    """Lodges ``appellant``'s appeal in ``match`` (R16.2) when it is in time (R16.3, R16.4).

    ``lodged_at`` is when the TD received the form (default ``now``; not in the future);
    ``through_td`` the TD's name. The engine checks the deposit and the deadlines; a late appeal
    is refused with a message naming the deadline."""
    lodged_at = lodged_at or now
    subject = (subject or "").strip()
    if timezone.is_naive(lodged_at):
        raise ServiceError(_("Give the time with a time zone."), field="lodged_at")
    if lodged_at > now:
        raise ServiceError(_("The appeal cannot be lodged in the future."), field="lodged_at")
    if form_received_at is not None and form_received_at > now:
        raise ServiceError(
            _("The form cannot reach the organiser in the future."), field="form_received_at"
        )
    if not subject:
        raise ServiceError(_("Say what the appeal is about."), field="subject")
    with transaction.atomic():
        match = match_services.locked(match)
        if appellant.pk not in (match.home_id, match.visitors_id):
            raise ServiceError(
                _("%(team)s does not play in match %(code)s.")
                % {"team": appellant.name, "code": match.code},
                field="appellant",
            )
        reg = match.edition.regulations
        announced = settings_of(match.edition).segment_deadlines
        segment_end = _segment_end(match, segment)
        match_ended_at = match_end(match)
        if match_ended_at is None and not (announced and segment_end is not None):
            raise ServiceError(
                _(
                    "The end of match %(code)s is not recorded: record the end of its last "
                    "segment in both rooms (I15) on the match page, then lodge the appeal."
                )
                % {"code": match.code}
            )
        try:
            appeal = rules.lodge_appeal(
                match.code,
                appellant.name,
                lodged_at,
                through_td,
                reg.appeals,
                deposit_paid=deposit_paid,
                segment=segment,
                subject=subject,
                form_received_at=form_received_at,
            )
            check = rules.appeal_in_time(
                appeal,
                reg,
                match_ended_at=match_ended_at,
                segment_ended_at=segment_end,
                segment_deadlines_announced=announced,
                played_early_round_date=played_early_round_date(match),
            )
        except rules.AppealError as exc:
            raise ServiceError(tr(exc.detail)) from None
        except schedule.ScheduleError as exc:
            raise ServiceError(tr(exc.detail)) from None
        if not check.in_time:
            raise ServiceError(
                _("The appeal is too late and cannot be lodged: %(reasons)s.")
                % {"reasons": "; ".join(tr(d) for d in check.details)},
                field="lodged_at",
            )
        stored = Appeal.objects.create(
            edition=match.edition,
            match=match,
            appellant=appellant,
            segment=segment,
            subject=appeal.subject,
            lodged_at=lodged_at,
            through_td=appeal.through_td,
            lodged_by=user if getattr(user, "is_authenticated", False) else None,
            deposit=deposit_paid,
            form_received_at=form_received_at,
        )
        record(
            "bridgeko.appeal.lodged",
            user=user,
            edition=match.edition,
            obj=stored,
            after={
                "match": match.code,
                "appellant": appellant.name,
                "segment": segment,
                "subject": appeal.subject,
                "lodged_at": lodged_at,
                "td": appeal.through_td,
                "deposit": deposit_paid,
                "form_received_at": form_received_at,
                "deadlines": [str(d) for d in check.deadlines],
            },
            summary=Message(
                N_("%(match)s: appeal of %(team)s lodged"),
                {"match": match.code, "team": appellant.name},
            ),
            at=now,
        )
    return stored


# ---------------------------------------------------------------------------------------------
# The committee (R16.1)


def name_committee(
    *, appeal: Appeal, members: Sequence[str] | None, user: Any, now: datetime
) -> Appeal:
    """Names the committee of ``appeal`` from the organiser's list, never a player of either
    team (R16.1). ``members`` None: the engine names the first eligible candidates."""
    with transaction.atomic():
        appeal = _locked(appeal)
        _open(appeal)
        reg = appeal.edition.regulations
        listed = candidates(appeal.edition)
        players = match_players(appeal.match)
        if members is None:
            try:
                chosen = list(rules.name_committee(listed, players, reg.appeals).members)
            except rules.AppealError as exc:
                raise ServiceError(tr(exc.detail)) from None
        else:
            chosen = [" ".join(m.split()) for m in members if m.strip()]
            problems = rules.committee_problems(chosen, listed, players, reg.appeals)
            if problems:
                raise ServiceError(
                    _("This committee cannot be named:") + " " + "; ".join(tr(p) for p in problems),
                    field="members",
                    errors=[],
                )
        before = _state(appeal)
        appeal.committee = chosen
        appeal.committee_named_at = now
        appeal.status = AppealStatus.COMMITTEE
        appeal.save(update_fields=["committee", "committee_named_at", "status"])
        record(
            "bridgeko.appeal.committee",
            user=user,
            edition=appeal.edition,
            obj=appeal,
            before=before,
            after=_state(appeal),
            summary=Message(
                N_("%(match)s: appeals committee named: %(members)s"),
                {"match": appeal.match.code, "members": ", ".join(chosen)},
            ),
            at=now,
        )
    return appeal


def sits_on_committee(user: Any, appeal: Appeal) -> bool:
    """Whether ``user`` (by full name, else user name) is a member of the appeal's committee."""
    if not getattr(user, "is_authenticated", False):
        return False
    names = {" ".join(n.split()).casefold() for n in (user.get_full_name(), user.get_username())}
    return any(" ".join(m.split()).casefold() in names for m in appeal.committee)


# ---------------------------------------------------------------------------------------------
# The decision (R16.2, R16.5)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A board result the committee adjusts: the room's result of ``board`` becomes ``text``
    (the TD's quick text, e.g. ``4S N -1``)."""

    board: int
    room: str
    text: str


def decide(
    *,
    appeal: Appeal,
    outcome: str,
    reasons: str,
    user: Any,
    now: datetime,
    frivolous: bool = False,
    forfeit_deposit: bool | None = None,
    adjustments: Sequence[Adjustment] = (),
) -> Appeal:
    """Records the committee's decision, final (R16.5). The engine decides the deposit's fate
    (returned; forfeited only when the appeal is frivolous, R16.2). Adjusted board results are
    saved as the match's results (:func:`~bridgeko.matches.services.save_board`, the audit entry
    naming the appeal), so that the IMPs, the totals, the winner and the bracket follow."""
    reasons = (reasons or "").strip()
    try:
        engine_outcome = rules.Outcome(outcome)
    except ValueError:
        raise ServiceError(_("Choose the outcome."), field="outcome") from None
    if not reasons:
        raise ServiceError(_("Give the committee's reasons."), field="reasons")
    if engine_outcome is rules.Outcome.DISMISSED and adjustments:
        raise ServiceError(
            _("A dismissed appeal leaves the score as it stands: no board result is adjusted."),
            field="outcome",
        )
    if any(not adj.text.strip() for adj in adjustments):
        raise ServiceError(_("Give the adjusted result of each board."), field="adjustments")
    if engine_outcome is rules.Outcome.ADJUSTED and not adjustments:
        raise ServiceError(
            _("Give the adjusted board result (board, room, result)."), field="outcome"
        )
    with transaction.atomic():
        appeal = _locked(appeal)
        _open(appeal)
        if not appeal.committee:
            raise ServiceError(_("Name the committee first (R16.1)."))
        try:
            decision = rules.decide(
                _engine_appeal(appeal),
                rules.Committee(tuple(appeal.committee)),
                engine_outcome,
                now,
                reasons=reasons,
                frivolous=frivolous,
                forfeit_deposit=forfeit_deposit,
            )
        except rules.AppealError as exc:
            raise ServiceError(tr(exc.detail)) from None
        match = appeal.match
        before = _state(appeal)
        source = f"appeal {appeal.pk}"
        current = {(r.board, r.room): r for r in BoardResult.objects.filter(match=match)}
        saved: list[dict[str, Any]] = []
        for adj in adjustments:
            old = current.get((adj.board, adj.room))
            try:
                result = match_services.save_board(
                    match=match,
                    board=adj.board,
                    room=adj.room,
                    text=adj.text,
                    version=old.version if old is not None else 0,
                    user=user,
                    now=now,
                    confirm=True,
                    source=source,
                )
            except ValueError as exc:  # the quick text's parser
                raise ServiceError(
                    _("Board %(board)s: %(problem)s") % {"board": adj.board, "problem": exc},
                    field="adjustments",
                ) from None
            text = result.result.text if result.result is not None else ""
            AdjustedResult.objects.create(
                appeal=appeal,
                board=adj.board,
                room=adj.room,
                text=text,
                before=old.text if old is not None else "",
            )
            saved.append(
                {
                    "board": adj.board,
                    "room": adj.room,
                    "text": text,
                    "before": old.text if old else "",
                }
            )
        appeal.status = AppealStatus.DECIDED
        appeal.outcome = Outcome(decision.outcome.value)
        appeal.reasons = decision.reasons
        appeal.frivolous = decision.frivolous
        appeal.deposit_fate = DepositFate(decision.deposit.value)
        appeal.decided_at = now
        appeal.decided_by = user if getattr(user, "is_authenticated", False) else None
        appeal.save()
        record(
            "bridgeko.appeal.decided",
            user=user,
            edition=appeal.edition,
            obj=appeal,
            before=before,
            after=_state(appeal)
            | {"reasons": appeal.reasons, "frivolous": appeal.frivolous, "adjusted": saved},
            summary=Message(
                N_("%(match)s: appeal of %(team)s %(outcome)s, deposit %(deposit)s"),
                {
                    "match": match.code,
                    "team": appeal.appellant.name,
                    "outcome": decision.outcome.word,
                    "deposit": Message(
                        N_("returned")
                        if decision.deposit is rules.DepositFate.RETURNED
                        else N_("forfeited")
                    ),
                },
            ),
            at=now,
        )
        match.refresh_from_db()
        events.emit(
            "appeal.decided",
            match=match,
            appellant=appeal.appellant,
            outcome=appeal.outcome,
            deposit=appeal.deposit_fate,
            reasons=appeal.reasons,
            user=user,
        )
    return appeal


# ---------------------------------------------------------------------------------------------
# Withdrawing


def withdraw(*, appeal: Appeal, reason: str, user: Any, now: datetime) -> Appeal:
    """The appellant withdraws the appeal (through the TD) before the committee decides."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason for the withdrawal."), field="reason")
    with transaction.atomic():
        appeal = _locked(appeal)
        _open(appeal)
        before = _state(appeal)
        appeal.status = AppealStatus.WITHDRAWN
        appeal.withdrawn_at = now
        appeal.withdrawn_reason = reason
        appeal.deposit_fate = DepositFate.RETURNED
        appeal.save(update_fields=["status", "withdrawn_at", "withdrawn_reason", "deposit_fate"])
        record(
            "bridgeko.appeal.withdrawn",
            user=user,
            edition=appeal.edition,
            obj=appeal,
            before=before,
            after=_state(appeal) | {"reason": reason},
            summary=Message(
                N_("%(match)s: appeal of %(team)s withdrawn"),
                {"match": appeal.match.code, "team": appeal.appellant.name},
            ),
            at=now,
        )
    return appeal
