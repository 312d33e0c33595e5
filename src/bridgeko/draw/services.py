"""The draw: announce it (R11.5), publish the commitment (I8), hold it or enter a draw made by
hand. Each write is one audited transaction; holding the draw moves the edition to the stage
"draw held" (:func:`bridgeko.editions.services.move_stage`).

The numbering, the seed check and the protocol are the engine's:
:func:`bridgeko.competition.draw.hold_draw` / :func:`~bridgeko.competition.draw.manual_draw`.
The preliminary-round dates are :mod:`bridgeko.draw.schedule_services`; the numbers and the
bracket as the pages show them, :mod:`bridgeko.draw.display`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import draw as engine
from bridgeko.competition import formats as knockout_formats
from bridgeko.competition import schedule
from bridgeko.competition import scheme as schemes
from bridgeko.competition.messages import NP_, counted
from bridgeko.core import bracket_hooks
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.core.i18n import tr
from bridgeko.draw.models import Draw, DrawNumber
from bridgeko.editions.models import Edition, EditionStage
from bridgeko.editions.services import move_stage
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import Team


def draw_of(edition: Edition) -> Draw | None:
    return Draw.objects.filter(edition=edition).first()


def draw_for_update(edition: Edition) -> Draw:
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
    closing = entry_queries.closing_of(edition)
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
        draw = draw_for_update(edition)
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
        draw = draw_for_update(edition)
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


def _ready_for_draw(edition: Edition) -> list[entry_queries.TeamInfo]:
    closing = entry_queries.closing_of(edition)
    if closing is None:
        raise ServiceError(_("Close the entries first: only entered teams are drawn (I11)."))
    if closing.cancelled:
        raise ServiceError(_("The competition is cancelled (R8.1); there is no draw."))
    _not_held(edition)
    return entry_queries.edition_teams(edition, accepted_only=True)


def _still_closed(edition: Edition, teams: Sequence[entry_queries.TeamInfo]) -> None:
    """Under the draw's lock: the entries are still closed with the same teams (the entries
    may have been reopened meanwhile by a concurrent request, which locks the draw too)."""
    accepted = set(Team.objects.filter(edition=edition, accepted=True).values_list("pk", flat=True))
    if entry_queries.closing_of(edition) is None or accepted != {t.id for t in teams}:
        raise ServiceError(_("The entries were reopened meanwhile; hold the draw again."))
    # The draw was computed from ``edition.regulations``; an edit of the edition's numbers that
    # committed meanwhile (it locks the draw too) must not be silently ignored.
    stored = Edition.objects.filter(pk=edition.pk).values_list("regulations_toml", flat=True)
    if stored.get() != edition.regulations_toml:
        raise ServiceError(_("The edition's numbers were changed meanwhile; hold the draw again."))


def _held_stage(edition: Edition, user: Any, now: datetime) -> None:
    """Moves the edition to "draw held" (audited), under the edition's lock: reopening the
    entries (which takes that lock and reads the stage) can no longer happen meanwhile."""
    try:
        move_stage(edition=edition, to=EditionStage.DRAW_HELD, user=user, at=now)
    except ServiceError:  # the entries were reopened meanwhile (a concurrent request)
        raise ServiceError(_("The entries were reopened meanwhile; hold the draw again.")) from None


def _save_result(
    draw: Draw, result: engine.DrawResult[entry_queries.TeamInfo], now: datetime
) -> None:
    if draw.scheme:  # the organiser's own scheme must be for the size the draw needs (R9)
        size = json.loads(draw.scheme).get("size")
        if size != result.scheme_size:
            raise ServiceError(
                _(
                    "The playing scheme set for this edition is for %(size)s numbers, but the "
                    "draw needs a scheme for %(needed)s. Change the scheme first."
                )
                % {"size": size, "needed": result.scheme_size}
            )
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
            % {"at": formats.date_format(local, "DATETIME_FORMAT")},
            field=field,
        )


def _numbers_text(result: engine.DrawResult[entry_queries.TeamInfo]) -> dict[str, str]:
    return {str(n): t.name for n, t in result.numbers.items()}


def _check_format(edition: Edition, draw: Draw, size: int) -> None:
    """The scheme the draw will use (the organiser's own, or the edition's format for
    ``size`` numbers) ranks the places that carry prizes and sends every winner on (issue 22):
    otherwise the draw is refused, naming the place or the match."""
    reg = edition.regulations
    try:
        if draw.scheme:
            scheme = schemes.scheme_from_dict(json.loads(draw.scheme))
        else:
            scheme = knockout_formats.build(reg.format.template, size)
        knockout_formats.check_format(scheme, len(reg.prizes))
    except schemes.BracketError as exc:
        raise ServiceError(tr(exc.detail)) from None


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
    _check_format(edition, draw, result.scheme_size)
    with transaction.atomic():
        draw = draw_for_update(edition)
        if draw.held_at is not None or draw.commitment != result.protocol["commitment"]:
            raise ServiceError(_("The draw has been made already."))  # a concurrent request
        _not_before_announced(edition, draw, now, None)  # a new announcement meanwhile
        _held_stage(edition, user, now)
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
            summary=counted(
                NP_(
                    "Draw held: %(n)d team, scheme for %(size)d",
                    "Draw held: %(n)d teams, scheme for %(size)d",
                ),
                "n",
                {"n": len(teams), "size": result.scheme_size},
            ),
            at=now,
        )
        bracket_hooks.changed(edition, user=user, now=now)  # the matches of the bracket
        emit("draw.held", edition=edition, user=user)  # the captains' mail (the mail app)
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
        draw = draw_for_update(edition)
        if draw.held_at is not None:
            raise ServiceError(_("The draw has been made already."))  # a concurrent request
        _not_before_announced(edition, draw, drawn_at, "drawn_at")  # a new announcement meanwhile
        _held_stage(edition, user, now)
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
            summary=counted(
                NP_(
                    "Draw made by hand entered: %(n)d team",
                    "Draw made by hand entered: %(n)d teams",
                ),
                "n",
                {"n": len(teams)},
            ),
            at=now,
        )
        bracket_hooks.changed(edition, user=user, now=now)  # the matches of the bracket
        emit("draw.held", edition=edition, user=user)  # the captains' mail (the mail app)
    return draw


def set_scheme(*, edition: Edition, text: str, user: Any, now: datetime) -> Draw:
    """Sets the organiser's own playing scheme (R9.1's annex), JSON or TOML as
    ``bridgeko bracket --scheme`` reads it (the engine's ``scheme_from_dict`` validates it:
    every match, its stage, ``winner of``/``loser of`` references, places); empty text: back to
    the standard scheme (I1). Refused once the draw is held: the scheme is part of the draw."""
    text = text.strip()
    stored = ""
    if text:
        try:
            data = json.loads(text)
        except ValueError:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise ServiceError(
                    _("The scheme is neither JSON nor TOML: %(error)s") % {"error": exc},
                    field="scheme",
                ) from None
        try:
            scheme = schemes.scheme_from_dict(data)
        except schemes.SchemeError as exc:
            raise ServiceError(tr(exc.detail), field="scheme") from None
        stored = json.dumps(schemes.scheme_to_dict(scheme), ensure_ascii=False)
    with transaction.atomic():
        draw = draw_for_update(edition)
        if draw.held_at is not None:
            raise ServiceError(_("The draw has been made already."))
        before = {"scheme": draw.scheme}
        draw.scheme = stored
        draw.save(update_fields=["scheme"])
        record(
            "bridgeko.draw.scheme_set",
            user=user,
            edition=edition,
            obj=draw,
            before=before,
            after={"scheme": stored},
            summary=_("Playing scheme set") if stored else _("Standard playing scheme"),
            at=now,
        )
    return draw


def verify(draw: Draw) -> engine.VerifyReport:
    """The engine's check of the published protocol."""
    return engine.verify_protocol(draw.protocol)
