"""The draw: announce it (R11.5), publish the commitment (I8), hold it or enter a draw made by
hand, then the preliminary-round dates (R14.1). Each write is one audited transaction.

The numbering, the seed check, the protocol, the scheme and the default dates are the engine's:
:func:`bridgeko.competition.draw.hold_draw` / :func:`~bridgeko.competition.draw.manual_draw`,
:func:`~bridgeko.competition.bracket.standard_scheme`,
:func:`~bridgeko.competition.bracket.resolve`,
:func:`~bridgeko.competition.schedule.preliminary_dates`, ``match_event`` and ``to_ics``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import ServiceError, record
from bridgeko.competition import bracket, schedule
from bridgeko.competition import draw as engine
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.regulations import Stage
from bridgeko.draw.models import Draw, DrawNumber, MatchDate
from bridgeko.editions.models import Edition
from bridgeko.entries import services as entry_services
from bridgeko.entries.models import Team
from bridgeko.web.i18n import tr


def draw_of(edition: Edition) -> Draw | None:
    return Draw.objects.filter(edition=edition).first()


def _draw_for_update(edition: Edition) -> Draw:
    draw, _created = Draw.objects.select_for_update().get_or_create(edition=edition)
    return draw


def _state(draw: Draw) -> dict[str, Any]:
    return {
        "place": draw.place,
        "scheduled_at": draw.scheduled_at,
        "commitment": draw.commitment,
        "held_at": draw.held_at,
        "method": draw.method,
    }


def _not_held(edition: Edition) -> None:
    if Draw.objects.filter(edition=edition, held_at__isnull=False).exists():
        raise ServiceError(_("The draw has been made already."))


def _not_cancelled(edition: Edition) -> None:
    closing = entry_services.closing_of(edition)
    if closing is not None and closing.cancelled:  # R8.1
        raise ServiceError(_("The competition is cancelled (R8.1); there is no draw."))


def announce_draw(*, edition: Edition, place: str, at: datetime, user: Any, now: datetime) -> Draw:
    """Announces the place and time of the draw in advance (R11.5)."""
    _not_cancelled(edition)
    place = place.strip()
    if not place:
        raise ServiceError(_("Give the place of the draw."), field="place")
    if timezone.is_naive(at):
        raise ServiceError(_("The time of the draw needs a time zone."), field="at")
    _not_held(edition)
    with transaction.atomic():
        draw = _draw_for_update(edition)
        before = _state(draw)
        draw.place, draw.scheduled_at, draw.announced_at = place, at, now
        draw.save()
        record(
            "bridgeko.draw.announced",
            user=user,
            edition=edition,
            obj=draw,
            before=before,
            after=_state(draw),
            summary=f"{place}, {at.isoformat()}",
            at=now,
        )
    return draw


def publish_commitment(
    *, edition: Edition, user: Any, now: datetime, seed: bytes | None = None
) -> Draw:
    """Chooses the secret seed (the engine's :func:`new_seed`) and publishes only its hash
    before the draw (I8). Once published it cannot be replaced."""
    _not_cancelled(edition)
    _not_held(edition)
    with transaction.atomic():
        draw = _draw_for_update(edition)
        if draw.commitment:
            raise ServiceError(_("The commitment is published already; it cannot change (I8)."))
        secret = engine.new_seed() if seed is None else seed
        before = _state(draw)
        draw.seed_hex = secret.hex()
        draw.commitment = engine.commitment(secret)
        draw.committed_at = now
        draw.save()
        record(
            "bridgeko.draw.committed",
            user=user,
            edition=edition,
            obj=draw,
            before=before,
            after=_state(draw),  # the seed itself is never in the log before the draw
            summary=draw.commitment,
            at=now,
        )
    return draw


def _ready_for_draw(edition: Edition) -> list[entry_services.TeamInfo]:
    closing = entry_services.closing_of(edition)
    if closing is None:
        raise ServiceError(_("Close the entries first: only entered teams are drawn (I11)."))
    if closing.cancelled:
        raise ServiceError(_("The competition is cancelled (R8.1); there is no draw."))
    _not_held(edition)
    return entry_services.edition_teams(edition, accepted_only=True)


def _still_closed(edition: Edition, teams: Sequence[entry_services.TeamInfo]) -> None:
    """Under the draw's lock: the entries are still closed with the same teams (the entries
    may have been reopened meanwhile by a concurrent request, which locks the draw too)."""
    accepted = set(Team.objects.filter(edition=edition, accepted=True).values_list("pk", flat=True))
    if entry_services.closing_of(edition) is None or accepted != {t.id for t in teams}:
        raise ServiceError(_("The entries were reopened meanwhile; hold the draw again."))
    # The draw was computed from ``edition.regulations``; an edit of the edition's numbers that
    # committed meanwhile (it locks the draw too) must not be silently ignored.
    stored = Edition.objects.filter(pk=edition.pk).values_list("regulations_toml", flat=True)
    if stored.get() != edition.regulations_toml:
        raise ServiceError(_("The edition's numbers were changed meanwhile; hold the draw again."))


def _save_result(
    draw: Draw, result: engine.DrawResult[entry_services.TeamInfo], now: datetime
) -> None:
    draw.held_at = now
    draw.method = str(result.protocol["method"])
    draw.scheme_size = result.scheme_size
    draw.seeded = result.seeded
    draw.protocol = engine.protocol_json(result)
    draw.save()
    DrawNumber.objects.filter(draw=draw).delete()
    DrawNumber.objects.bulk_create(
        DrawNumber(draw=draw, number=n, team_id=t.id) for n, t in result.numbers.items()
    )


def _not_before_announced(edition: Edition, draw: Draw, when: datetime, field: str | None) -> None:
    """R11.5: the draw is made at the announced time, not earlier (from the announced minute
    on). To draw earlier the organiser announces a new time first (an audited change)."""
    if draw.scheduled_at is None:
        raise ServiceError(_("Announce the place and time of the draw first (R11.5)."))
    announced = draw.scheduled_at.replace(second=0, microsecond=0)
    if when < announced:
        local = timezone.localtime(announced, schedule.zone(edition.regulations))
        raise ServiceError(
            _(
                "The draw is announced for %(at)s; it cannot be made earlier (R11.5). "
                "To draw earlier, announce a new time first."
            )
            % {"at": local.strftime("%Y-%m-%d %H:%M")},
            field=field,
        )


def _numbers_text(result: engine.DrawResult[entry_services.TeamInfo]) -> dict[str, str]:
    return {str(n): t.name for n, t in result.numbers.items()}


def hold_draw(*, edition: Edition, user: Any, now: datetime) -> Draw:
    """Holds the draw with the committed seed, revealed now (R11, I3, I8): the engine seeds
    the N/4 best teams by Elo and numbers the rest by lot; the protocol is published."""
    teams = _ready_for_draw(edition)
    draw = draw_of(edition)
    if draw is None or not draw.announced_at:
        raise ServiceError(_("Announce the place and time of the draw first (R11.5)."))
    if not draw.commitment:
        raise ServiceError(_("Publish the commitment before the draw (I8)."))
    _not_before_announced(edition, draw, now, None)
    try:
        result = engine.hold_draw(
            teams,
            bytes.fromhex(draw.seed_hex),
            commitment=draw.commitment,
            regulations=edition.regulations,
            drawn_at=timezone.localtime(now, schedule.zone(edition.regulations)),  # I12
            place=draw.place,
        )
    except engine.DrawError as exc:
        raise ServiceError(tr(exc.detail)) from None
    with transaction.atomic():
        draw = _draw_for_update(edition)
        if draw.held_at is not None or draw.commitment != result.protocol["commitment"]:
            raise ServiceError(_("The draw has been made already."))  # a concurrent request
        _not_before_announced(edition, draw, now, None)  # a new announcement meanwhile
        _still_closed(edition, teams)
        before = _state(draw)
        _save_result(draw, result, now)
        record(
            "bridgeko.draw.held",
            user=user,
            edition=edition,
            obj=draw,
            before=before,
            after=_state(draw) | {"seed": draw.seed_hex, "numbers": _numbers_text(result)},
            summary=Message(
                N_("Draw held: %(n)d teams, scheme for %(size)d"),
                {"n": len(teams), "size": result.scheme_size},
            ),
            at=now,
        )
    return draw


def enter_manual_draw(
    *,
    edition: Edition,
    drawn_order: Sequence[int],
    drawn_at: datetime,
    user: Any,
    now: datetime,
) -> Draw:
    """Enters a draw made by hand at the announced place (R11.5, I8): ``drawn_order`` lists
    the team ids in the order they were drawn; the engine checks and numbers them."""
    teams = _ready_for_draw(edition)
    draw = draw_of(edition)
    if draw is None or not draw.place:
        raise ServiceError(_("Announce the place and time of the draw first (R11.5)."))
    if timezone.is_naive(drawn_at):
        raise ServiceError(_("The time of the draw needs a time zone."), field="drawn_at")
    _not_before_announced(edition, draw, drawn_at, "drawn_at")
    try:
        result = engine.manual_draw(
            teams,
            list(drawn_order),
            regulations=edition.regulations,
            drawn_at=timezone.localtime(drawn_at, schedule.zone(edition.regulations)),
            place=draw.place,
        )
    except engine.DrawError as exc:
        raise ServiceError(tr(exc.detail), field="drawn_order") from None
    with transaction.atomic():
        draw = _draw_for_update(edition)
        if draw.held_at is not None:
            raise ServiceError(_("The draw has been made already."))  # a concurrent request
        _not_before_announced(edition, draw, drawn_at, "drawn_at")  # a new announcement meanwhile
        _still_closed(edition, teams)
        before = _state(draw)
        _save_result(draw, result, drawn_at)
        record(
            "bridgeko.draw.manual_entered",
            user=user,
            edition=edition,
            obj=draw,
            before=before,
            after=_state(draw) | {"numbers": _numbers_text(result)},
            summary=Message(N_("Draw made by hand entered: %(n)d teams"), {"n": len(teams)}),
            at=now,
        )
    return draw


def verify(draw: Draw) -> engine.VerifyReport:
    """The engine's check of the published protocol."""
    return engine.verify_protocol(draw.protocol)


# ---------------------------------------------------------------------------------------------
# Numbering and bracket (read side, two queries)


@dataclass(frozen=True, slots=True)
class SlotView:
    number: int | None
    team: Team | None
    ref: str
    """"winner of R1-M2" and the like when the team is not known."""
    kind: str
    """"team", "empty" (a bye's missing opponent) or "pending"."""


@dataclass(frozen=True, slots=True)
class MatchView:
    id: str
    round: int
    stage: Stage
    home: SlotView
    away: SlotView
    status: str
    start: datetime | None = None
    location: str = ""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    stage: Stage
    matches: tuple[MatchView, ...]


def numbers_of(draw: Draw) -> dict[int, Team]:
    return {n.number: n.team for n in DrawNumber.objects.filter(draw=draw).select_related("team")}


def bracket_rounds(
    draw: Draw, numbers: dict[int, Team], dates: dict[str, MatchDate] | None = None
) -> list[RoundView]:
    """The scheme (I1) resolved with the byes of R11.4, round by round (for the HTML bracket)."""
    if draw.scheme_size is None:
        return []
    scheme = bracket.standard_scheme(draw.scheme_size)
    state = bracket.resolve(scheme, teams=set(numbers))
    dates = dates or {}

    def slot(s: bracket.Slot) -> SlotView:
        team = numbers.get(s.number) if s.number is not None else None
        return SlotView(s.number, team, str(s.ref), str(s.status))

    rounds: dict[int, list[MatchView]] = {}
    stages: dict[int, Stage] = {}
    for m in state.matches:
        when = dates.get(m.id)
        rounds.setdefault(m.spec.round, []).append(
            MatchView(
                m.id,
                m.spec.round,
                m.spec.stage,
                slot(m.home),
                slot(m.away),
                str(m.status),
                when.start if when else None,
                when.location if when else "",
            )
        )
        stages.setdefault(m.spec.round, m.spec.stage)
    return [RoundView(r, stages[r], tuple(ms)) for r, ms in sorted(rounds.items())]


# ---------------------------------------------------------------------------------------------
# Preliminary-round dates (R14.1)


def _preliminary_matches(draw: Draw) -> list[bracket.MatchState]:
    numbers = set(DrawNumber.objects.filter(draw=draw).values_list("number", flat=True))
    assert draw.scheme_size is not None
    state = bracket.resolve(bracket.standard_scheme(draw.scheme_size), teams=numbers)
    return [
        m
        for m in state.matches
        if m.spec.stage is Stage.PRELIMINARY
        and m.status not in (bracket.MatchStatus.BYE, bracket.MatchStatus.NO_WINNER)
    ]


def has_preliminary_rounds(draw: Draw | None) -> bool:
    """Whether the drawn scheme has rounds before the quarterfinals (R11.6: only with more
    teams than the quarterfinals hold); False before the draw."""
    if draw is None or draw.held_at is None or draw.scheme_size is None:
        return False
    return bracket.preliminary_rounds(draw.scheme_size) > 0


def no_preliminary_rounds_text(draw: Draw) -> str:
    """Why there are no preliminary dates to set or publish (R11.6, R14.1)."""
    return _(
        "There are no preliminary rounds: the scheme for %(size)s starts with the "
        "quarterfinals (R11.6), so there are no dates to fill in or publish here."
    ) % {"size": draw.scheme_size}


def _schedule_editable(edition: Edition) -> Draw:
    draw = draw_of(edition)
    if draw is None or draw.held_at is None or draw.scheme_size is None:
        raise ServiceError(_("Hold the draw first."))
    if not has_preliminary_rounds(draw):  # R11.6
        raise ServiceError(no_preliminary_rounds_text(draw))
    if draw.schedule_published_at is not None:
        raise ServiceError(_("The dates are published; they can no longer be edited here."))
    return draw


def _still_editable(edition: Edition) -> Draw:
    """Inside the write's transaction, under the draw's lock: the dates were not published
    meanwhile (a concurrent request)."""
    draw = _draw_for_update(edition)
    if draw.schedule_published_at is not None:
        raise ServiceError(_("The dates are published; they can no longer be edited here."))
    return draw


def default_schedule(
    *, edition: Edition, first_date: date, user: Any, now: datetime
) -> list[MatchDate]:
    """Fills the preliminary-round dates with the defaults of R14.1 (the engine's
    :func:`preliminary_dates`: Fridays 19:00 from ``first_date``, one round a week) at the
    edition's venue."""
    draw = _schedule_editable(edition)
    reg = edition.regulations
    assert draw.held_at is not None and draw.scheme_size is not None
    draw_day = timezone.localtime(draw.held_at, schedule.zone(reg)).date()
    try:
        starts = schedule.preliminary_dates(draw.scheme_size, first_date, draw_day, reg)
    except schedule.ScheduleError as exc:  # the engine's wording, in the user's language
        raise ServiceError(tr(exc.detail), field="first_date") from None
    matches = _preliminary_matches(draw)
    with transaction.atomic():
        _still_editable(edition)
        MatchDate.objects.filter(draw=draw).delete()
        rows = MatchDate.objects.bulk_create(
            MatchDate(
                draw=draw,
                match=m.id,
                round=m.spec.round,
                start=starts[m.spec.round - 1],
                location=reg.edition.venue,
            )
            for m in matches
            if m.spec.round <= len(starts)
        )
        record(
            "bridgeko.schedule.defaults",
            user=user,
            edition=edition,
            obj=draw,
            after={"first_date": first_date, "rounds": [s.isoformat() for s in starts]},
            summary=", ".join(s.isoformat() for s in starts),
            at=now,
        )
    return rows


def set_match_date(
    *, edition: Edition, match: str, start: datetime, location: str, user: Any, now: datetime
) -> MatchDate:
    """Moves one preliminary match before the dates are published."""
    draw = _schedule_editable(edition)
    if timezone.is_naive(start):
        raise ServiceError(_("The start needs a time zone."), field="start")
    reg = edition.regulations
    if start.date() >= reg.schedule.finals_start:
        raise ServiceError(
            _("A preliminary match must be before the finals (%(date)s, R14.3).")
            % {"date": reg.schedule.finals_start.isoformat()},
            field="start",
        )
    with transaction.atomic():
        _still_editable(edition)
        row = MatchDate.objects.select_for_update().filter(draw=draw, match=match).first()
        if row is None:
            raise ServiceError(_("No such match in the preliminary rounds."), field="match")
        before = {"start": row.start, "location": row.location}
        row.start, row.location = start, location.strip()
        row.save()
        record(
            "bridgeko.schedule.changed",
            user=user,
            edition=edition,
            obj=draw,
            before={"match": match} | before,
            after={"match": match, "start": start, "location": row.location},
            summary=f"{match}: {start.isoformat()}",
            at=now,
        )
    return row


def publish_schedule(*, edition: Edition, user: Any, now: datetime) -> Draw:
    """Publishes the preliminary-round dates (R14.1: within two weeks after the draw)."""
    draw = _schedule_editable(edition)
    if not MatchDate.objects.filter(draw=draw).exists() and _preliminary_matches(draw):
        raise ServiceError(_("Set the dates of the matches first."))
    with transaction.atomic():
        draw = _still_editable(edition)
        draw.schedule_published_at = now
        draw.save(update_fields=["schedule_published_at"])
        assert draw.held_at is not None
        deadline = schedule.dates_publication_deadline(
            timezone.localtime(draw.held_at, schedule.zone(edition.regulations)).date(),
            edition.regulations,
        )
        record(
            "bridgeko.schedule.published",
            user=user,
            edition=edition,
            obj=draw,
            after={"published_at": now, "in_time": deadline.met_by(now)},
            summary=deadline.detail,
            at=now,
        )
    return draw


def match_dates(draw: Draw) -> dict[str, MatchDate]:
    return {m.match: m for m in MatchDate.objects.filter(draw=draw)}


def schedule_ics(edition: Edition, draw: Draw, *, stamp: datetime) -> bytes:
    """The preliminary matches as an iCalendar file (the engine's ``match_event``/``to_ics``)."""
    reg = edition.regulations
    numbers = numbers_of(draw)
    dates = match_dates(draw)
    events = []
    for rnd in bracket_rounds(draw, numbers, dates):
        for m in rnd.matches:
            if m.start is None:
                continue
            title = f"{edition.name}: {_slot_text(m.home)} – {_slot_text(m.away)} ({m.id})"
            events.append(
                schedule.match_event(
                    f"{edition.slug}-{m.id}@bridgeko",
                    title,
                    m.start,
                    schedule.match_segment_boards(m.stage, reg.match),
                    schedule.uses_screens(m.stage, reg.match),
                    reg.match,
                    location=m.location,
                )
            )
    return schedule.to_ics(events, stamp=stamp, name=edition.name)


def _slot_text(slot: SlotView) -> str:
    if slot.team is not None:
        return f"{slot.number}. {slot.team.name}"
    return slot.ref


def protocol_data(draw: Draw) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(draw.protocol) if draw.protocol else {}
    return data
