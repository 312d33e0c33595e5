"""Team entries: every write is one service (validate with the engine → one transaction → one
audit entry), used alike by the views, the admin and the demo loader.

Rules are never implemented here; each comes from the engine:

- R7.1, R7.3 roster: :func:`bridgeko.competition.entries.check_roster`;
- R7.2 roster freeze and the chief TD's exception:
  :func:`~bridgeko.competition.entries.change_roster`;
- R15.3 barred players: :mod:`bridgeko.competition.sanctions`;
- R4.1, I4 fee: :func:`~bridgeko.competition.entries.entry_fee`;
- R3, R8.1, I11 closing of entries: :func:`~bridgeko.competition.entries.close_entries`;
- R10 team Elo: :func:`bridgeko.competition.rating.team_elo_for`.

The read side (:func:`~bridgeko.entries.queries.edition_teams` and the rest) is
:mod:`bridgeko.entries.queries`; the player lookups of the roster form are
:mod:`bridgeko.players.queries`.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.accounts.permissions import is_organiser
from bridgeko.audit.services import record
from bridgeko.competition import entries as rules
from bridgeko.competition import sanctions
from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.schedule import end_of_day, zone
from bridgeko.core import l10n
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.core.i18n import tr
from bridgeko.editions.models import Edition, EditionStage
from bridgeko.editions.services import draw_held, move_stage
from bridgeko.entries import cards
from bridgeko.entries.models import ConventionCard, EntriesClosing, Pair, RosterEntry, Team
from bridgeko.entries.queries import (
    barred_players,
    closing_of,
    conditions_of,
    edition_teams,
    team_info,
)
from bridgeko.players.models import Player


def _roster_problems(
    edition: Edition, roster: Sequence[Player], team: Team | None
) -> list[rules.RosterProblem]:
    """R7.1, R7.3 and R15.3 from the engine, for a roster about to be saved."""
    others: dict[int | str, list[int | str]] = {}
    entries = RosterEntry.objects.filter(edition=edition).select_related("team")
    if team is not None:
        entries = entries.exclude(team=team)
    for entry in entries.order_by("team__name_key", "position"):
        others.setdefault(entry.team.name, []).append(entry.player_id)
    ids = [p.pk for p in roster]
    problems = rules.check_roster(ids, edition.regulations, others)
    problems += sanctions.check_not_barred(ids, barred_players(edition))
    labels = {p.pk: _player_label(p) for p in roster}
    return [_relabel(problem, labels) for problem in problems]


def _player_label(player: Player) -> Param:
    """A player in a message as the user knows them: "Name (federation id)", or the name alone
    when the player has no federation id (never the database key)."""
    if player.federation_id:
        return Message(rules.NAMED_PLAYER, {"name": player.name, "player": player.federation_id})
    return player.name


def _relabel(problem: rules.RosterProblem, labels: Mapping[Any, Param]) -> rules.RosterProblem:
    """``problem`` with its player named by ``labels`` (the engine only knows database keys)."""
    message = problem.i18n
    if problem.player not in labels or message is None or "player" not in message.params:
        return problem
    params = {**message.params, "player": labels[problem.player]}
    return rules.RosterProblem.of(
        problem.clause,
        Message(message.template, params),
        player=problem.player,
        other_team=problem.other_team,
    )


def _roster_error(problems: Sequence[rules.RosterProblem]) -> ServiceError:
    return ServiceError(
        _("The roster cannot be accepted; nothing was saved."),
        field="roster",
        errors=[tr(p) for p in problems],  # each problem in the user's language
    )


def _save_roster(team: Team, roster: Sequence[Player]) -> None:
    RosterEntry.objects.filter(team=team).delete()
    RosterEntry.objects.bulk_create(
        RosterEntry(edition_id=team.edition_id, team=team, player=p, position=k)
        for k, p in enumerate(roster, start=1)
    )


def _team_state(team: Team) -> dict[str, Any]:
    roster = list(
        RosterEntry.objects.filter(team=team)
        .order_by("position")
        .values_list("player__name", "player_id")
    )
    return {
        "name": team.name,
        "roster": [f"{name} ({pk})" for name, pk in roster],
        "form_received": team.form_received,
        "fee_received": team.fee_received,
        "fee_paid": team.fee_paid,
        "fee_override_amount": team.fee_override_amount,
        "fee_override_reason": team.fee_override_reason,
        "pairs": [
            {"pair": p.label, "card_received": p.card_received}
            for p in Pair.objects.filter(team=team).select_related("player_a", "player_b")
        ],
        "accepted": team.accepted,
        "late_entry": team.late_entry,
    }


def _clean_name(edition: Edition, name: str, team: Team | None = None) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("The team needs a name."), field="name")
    clash = Team.objects.filter(edition=edition)
    if team is not None:
        clash = clash.exclude(pk=team.pk)
    normal = rules.normalise_team_name(name)
    for other in clash.values_list("name", flat=True):
        if rules.normalise_team_name(other) == normal:
            raise ServiceError(
                _("A team named %(name)s has already entered.") % {"name": other}, field="name"
            )
    return name


def create_team(
    *,
    edition: Edition,
    name: str,
    roster: Sequence[Player],
    user: Any,
    now: datetime,
    late_reason: str = "",
) -> Team:
    """Enters a team with its roster, captain first (R7.1, R7.3, R15.3 checked at once).

    After the entries were closed only an organiser (chief TD) may enter a team, as a late
    entry with a reason (audited); a late team takes no part in a draw already made.
    """
    name = _clean_name(edition, name)
    late = closing_of(edition) is not None
    late_reason = late_reason.strip()
    if late and not (is_organiser(user, edition) and late_reason):
        raise ServiceError(
            _(
                "The entries are closed. Only the chief TD may enter a late team, "
                "and the late entry needs a reason."
            ),
            field="late_reason",
        )
    problems = _roster_problems(edition, roster, None)
    if problems:
        raise _roster_error(problems)
    try:
        with transaction.atomic():
            # under the edition's lock, as close_entries/reopen_entries: the closing did not
            # change since ``late`` was decided (a concurrent request)
            Edition.objects.select_for_update().filter(pk=edition.pk).first()
            if (closing_of(edition) is not None) != late:
                raise ServiceError(
                    _("The entries were closed or reopened meanwhile; enter the team again."),
                    field="late_reason",
                )
            team = Team.objects.create(
                edition=edition,
                name=name,
                created_at=now,
                late_entry=late,
                late_reason=late_reason if late else "",
            )
            _save_roster(team, roster)
            record(
                "bridgeko.team.late_entered" if late else "bridgeko.team.entered",
                user=user,
                edition=edition,
                obj=team,
                after=_team_state(team) | ({"late_reason": late_reason} if late else {}),
                summary=name + (f" — {late_reason}" if late else ""),
                at=now,
            )
    except IntegrityError:  # a concurrent entry took the name or a player (R7.3)
        raise ServiceError(
            _("Another entry took this name or one of these players meanwhile; try again."),
            field="roster",
        ) from None
    return team


def update_team(
    *,
    team: Team,
    name: str,
    roster: Sequence[Player],
    user: Any,
    now: datetime,
    exception_reason: str = "",
) -> Team:
    """Changes a team's name and roster.

    Before entry (the form not yet received) a captain or organiser may change it freely within
    R7.1/R7.3/R15.3. After entry the roster is frozen (R7.2): only the chief TD (an organiser
    role) may allow a change, with a reason (the engine's :func:`change_roster`).
    """
    edition = team.edition
    name = _clean_name(edition, name, team)
    current = list(
        RosterEntry.objects.filter(team=team)
        .order_by("position")
        .values_list("player_id", flat=True)
    )
    new_ids = [p.pk for p in roster]
    exception = exception_reason.strip()
    change: rules.RosterChange | None = None
    if team.frozen and current != new_ids:
        if not is_organiser(user, edition):
            raise ServiceError(
                _("The roster is frozen after entry; only the chief TD may allow a change (R7.2)."),
                field="exception_reason",
            )
        try:
            change = rules.change_roster(
                current,
                new_ids,
                edition.regulations,
                exception_reason=exception or None,
            )
        except rules.RosterFrozenError as exc:
            raise ServiceError(tr(exc.detail), field="exception_reason") from None
        except rules.RosterError as exc:
            labels = {p.pk: _player_label(p) for p in roster}
            raise _roster_error([_relabel(p, labels) for p in exc.problems]) from None
    if current != new_ids:
        problems = _roster_problems(edition, roster, team)
        if problems:
            raise _roster_error(problems)
    try:
        with transaction.atomic():
            team = _save_team_change(team, name, roster, current != new_ids, change, user, now)
    except IntegrityError:  # a concurrent entry took the name or a player (R7.3)
        raise ServiceError(
            _("Another entry took this name or one of these players meanwhile; try again."),
            field="roster",
        ) from None
    return team


def _save_team_change(
    team: Team,
    name: str,
    roster: Sequence[Player],
    roster_changed: bool,
    change: rules.RosterChange | None,
    user: Any,
    now: datetime,
) -> Team:
    """The write of :func:`update_team`, inside its transaction. The freeze (R7.2) and the
    roster are checked again under the team's lock: the entry form may have been recorded, or
    the roster changed, since :func:`update_team` looked (a concurrent request)."""
    edition = team.edition
    was_frozen = team.frozen
    team = Team.objects.select_for_update().get(pk=team.pk)
    if roster_changed and team.frozen and not was_frozen:
        raise ServiceError(
            _("The roster is frozen after entry; only the chief TD may allow a change (R7.2)."),
            field="exception_reason",
        )
    before = _team_state(team)
    team.name = name
    team.save(update_fields=["name"])
    if roster_changed:
        _save_roster(team, roster)
    after = _team_state(team)
    if change is not None and change.changed:
        after["exception_reason"] = change.reason
    record(
        "bridgeko.team.roster_exception" if change and change.changed else "bridgeko.team.changed",
        user=user,
        edition=edition,
        obj=team,
        before=before,
        after=after,
        summary=(
            Message(N_("Roster changed after entry (R7.2): %(reason)s"), {"reason": change.reason})
            if change and change.changed
            else team.name
        ),
        at=now,
    )
    return team


def set_pairs(
    *, team: Team, pairs: Sequence[tuple[Player, Player]], user: Any, now: datetime
) -> list[Pair]:
    """Declares the team's pairs (R3.1b: a convention card of each pair). Both players of a
    pair are on the roster; a pair is declared once. Receipt dates of kept pairs are kept."""
    roster = set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True))
    seen: set[frozenset[int]] = set()
    for a, b in pairs:
        if a.pk == b.pk:
            raise ServiceError(_("A pair is two different players."), field="pairs")
        if a.pk not in roster or b.pk not in roster:
            raise ServiceError(
                _("%(a)s – %(b)s: both players of a pair must be on the roster.")
                % {"a": a.name, "b": b.name},
                field="pairs",
            )
        key = frozenset((a.pk, b.pk))
        if key in seen:
            raise ServiceError(
                _("The pair %(a)s – %(b)s is declared twice.") % {"a": a.name, "b": b.name},
                field="pairs",
            )
        seen.add(key)
    organiser = is_organiser(user, team.edition)

    def closed(entered: bool) -> ServiceError | None:
        reg = team.edition.regulations
        reason = rules.captain_changes_closed(entered=entered, now=now, reg=reg)
        return None if organiser or reason is None else ServiceError(tr(reason))

    refused = closed(team.frozen)
    if refused is not None:
        raise refused
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        refused = closed(team.frozen)  # the entry form was recorded meanwhile
        if refused is not None:
            raise refused
        if set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True)) != roster:
            raise ServiceError(
                _("The roster was changed meanwhile; check the pairs again."), field="pairs"
            )
        before = _team_state(team)
        # A pair declared again keeps its row: its receipt date and its convention cards. A
        # pair no longer declared goes; its uploaded cards stay (ConventionCard.pair empties).
        old = {frozenset((p.player_a_id, p.player_b_id)): p for p in Pair.objects.filter(team=team)}
        kept: set[int] = set()
        created: list[Pair] = []
        for a, b in pairs:
            pair = old.get(frozenset((a.pk, b.pk)))
            if pair is None:
                pair = Pair.objects.create(team=team, player_a=a, player_b=b)
            elif (pair.player_a_id, pair.player_b_id) != (a.pk, b.pk):
                pair.player_a, pair.player_b = a, b
                pair.save(update_fields=["player_a", "player_b"])
            kept.add(pair.pk)
            created.append(pair)
        Pair.objects.filter(team=team).exclude(pk__in=kept).delete()
        record(
            "bridgeko.team.pairs_declared",
            user=user,
            edition=team.edition,
            obj=team,
            before=before,
            after=_team_state(team),
            summary=", ".join(p.label for p in created),
            at=now,
        )
    return created


def card_max_bytes() -> int:
    """The size limit of a convention card (the setting ``BRIDGEKO_CARD_MAX_BYTES``)."""
    return int(getattr(settings, "BRIDGEKO_CARD_MAX_BYTES", cards.DEFAULT_MAX_BYTES))


def _clean_file_name(name: str) -> str:
    """The uploaded file's own name, for showing and for the download's name only (it is never
    a path here): its last part, without control characters, at most 200 characters."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()
    return base[-200:] or "card"


def _card_state(card: ConventionCard | None) -> dict[str, Any] | None:
    if card is None:
        return None
    return {
        "pair": card.pair_label,
        "file": card.original_name,
        "stored_as": card.file.name,
        "size": card.size,
        "content_type": card.content_type,
        "uploaded_at": card.uploaded_at,
    }


def upload_card(
    *,
    pair: Pair,
    data: bytes,
    file_name: str,
    user: Any,
    now: datetime,
    replace: bool = False,
) -> ConventionCard:
    """Stores a pair's convention card (R3.1b): a PDF, PNG or JPEG (judged by its content) of at
    most :func:`card_max_bytes`. The organiser's receipt date of the card (``card_received``)
    is set to the day of the upload (the organiser's time zone, I12) unless one is recorded.

    A captain may upload until the entry deadline (R3.2; the engine's
    :func:`~bridgeko.competition.entries.captain_changes_closed`), also after entry: a card is
    not part of the frozen roster. A pair that has a card gets a new one only with
    ``replace=True`` (the page asked); the old card and its file are kept, marked replaced."""
    team = pair.team
    edition = team.edition
    reg = edition.regulations
    if not is_organiser(user, edition):
        reason = rules.captain_changes_closed(
            entered=team.frozen, now=now, reg=reg, frozen_by_entry=False
        )
        if reason is not None:
            raise ServiceError(tr(reason))
    limit = card_max_bytes()
    if not data:
        raise ServiceError(_("The file is empty."), field="file")
    if len(data) > limit:
        raise ServiceError(
            _("The file is too large: %(size)s; a convention card may have at most %(max)s.")
            % {"size": filesizeformat(len(data)), "max": filesizeformat(limit)},
            field="file",
        )
    kind = cards.sniff(data[:16])
    if kind is None:
        raise ServiceError(
            _(
                "This file is not a PDF, PNG or JPEG picture (judged by its content, not its "
                "name). Save the convention card as one of these and upload it again."
            ),
            field="file",
        )
    name = _clean_file_name(file_name)
    with transaction.atomic():
        Team.objects.select_for_update().filter(pk=team.pk).first()
        pair = Pair.objects.select_related("player_a", "player_b").get(pk=pair.pk)
        current = ConventionCard.objects.filter(pair=pair, replaced_at__isnull=True).first()
        if current is not None and not replace:
            raise ServiceError(
                _(
                    "This pair already has a convention card (%(file)s). Confirm that the new "
                    "file replaces it; the old one is kept."
                )
                % {"file": current.original_name},
                field="replace",
            )
        card = ConventionCard(
            team=team,
            pair=pair,
            pair_label=pair.label,
            original_name=name,
            size=len(data),
            content_type=kind.content_type,
            uploaded_at=now,
            uploaded_by=user if getattr(user, "is_authenticated", False) else None,
        )
        stored = f"{edition.slug}/{team.pk}/{uuid.uuid4().hex}.{kind.extension}"
        card.file.save(stored, ContentFile(data), save=False)
        try:
            card.save()
            before = {"card": _card_state(current), "card_received": pair.card_received}
            if current is not None:
                current.replaced_at = now
                current.replaced_by = card
                current.save(update_fields=["replaced_at", "replaced_by"])
            if pair.card_received is None:
                pair.card_received = timezone.localtime(now, zone(reg)).date()
                pair.save(update_fields=["card_received"])
            params: dict[str, Param] = {"pair": pair.label, "file": name}
            if current is not None:
                params["old"] = current.original_name
            record(
                "bridgeko.card.replaced" if current is not None else "bridgeko.card.uploaded",
                user=user,
                edition=edition,
                obj=team,
                before=before,
                after={"card": _card_state(card), "card_received": pair.card_received},
                summary=Message(
                    N_("Convention card of %(pair)s replaced by %(file)s (%(old)s kept)")
                    if current is not None
                    else N_("Convention card of %(pair)s uploaded: %(file)s"),
                    params,
                ),
                at=now,
            )
        except BaseException:
            card.file.delete(save=False)  # a file no row names (nothing was saved)
            raise
    return card


def record_conditions(
    *,
    team: Team,
    form_received: date | None,
    fee_received: date | None,
    fee_paid: int,
    cards: Mapping[int, date | None],
    user: Any,
    now: datetime,
) -> Team:
    """Records what the organiser received and when (R3.1): the entry form (from then on the
    roster is frozen, R7.2), the convention card of each pair (``cards``: pair id -> date) and
    the fee. Whether it was in time is the engine's :func:`conditions_met` (shown, and applied
    when the entries are closed)."""
    if fee_paid < 0:
        raise ServiceError(_("The amount paid cannot be negative."), field="fee_paid")
    if fee_received is not None and fee_paid == 0:
        raise ServiceError(
            _("Enter the amount received with the date the fee was received."), field="fee_paid"
        )
    pairs = {p.pk: p for p in Pair.objects.filter(team=team)}
    unknown = set(cards) - set(pairs)
    if unknown:
        raise ServiceError(_("A convention card names a pair of another team."))
    if form_received is not None and not RosterEntry.objects.filter(team=team).exists():
        raise ServiceError(_("The team has no roster yet."), field="form_received")
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        before = _team_state(team)
        team.form_received = form_received
        team.fee_received = fee_received
        team.fee_paid = fee_paid
        team.save(update_fields=["form_received", "fee_received", "fee_paid"])
        for pair_id, received in cards.items():
            pair = pairs[pair_id]
            if pair.card_received != received:
                pair.card_received = received
                pair.save(update_fields=["card_received"])
        record(
            "bridgeko.team.conditions_recorded",
            user=user,
            edition=team.edition,
            obj=team,
            before=before,
            after=_team_state(team),
            summary=team.name,
            at=now,
        )
        if before["form_received"] is None and form_received is not None:  # R3.1a: entered
            _entered(team, user)
    return team


def _entered(team: Team, user: Any) -> None:
    """Tells the apps above that ``team`` entered (its entry form received, R3.1a), with the fee
    due (R4.1, I4): the captain's confirmation (the mail app)."""
    fee = team_info(team).fee
    emit("entry.confirmed", team=team, fee=fee.amount if fee is not None else 0, user=user)


def override_fee(*, team: Team, amount: int | None, reason: str, user: Any, now: datetime) -> Team:
    """The organiser's decision on a team's fee, with a reason (I4); ``amount=None`` returns
    to the fee of R4.1."""
    if amount is not None:
        try:
            rules.FeeOverride(amount, reason)  # the engine checks the amount and the reason
        except ValueError as exc:
            detail = exc.detail if isinstance(exc, rules.EntryError) else str(exc)
            raise ServiceError(tr(detail), field="reason") from None
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        before = _team_state(team)
        team.fee_override_amount = amount
        team.fee_override_reason = reason.strip() if amount is not None else ""
        team.save(update_fields=["fee_override_amount", "fee_override_reason"])
        record(
            "bridgeko.team.fee_overridden",
            user=user,
            edition=team.edition,
            obj=team,
            before=before,
            after=_team_state(team),
            summary=f"{team.name}: {amount} — {reason.strip()}",
            at=now,
        )
    return team


def close_entries(*, edition: Edition, user: Any, now: datetime) -> EntriesClosing:
    """Closes the entries at the deadline (R3.2, R8.1, I11, I12): the engine says which teams
    met every condition in time and whether the edition is cancelled (then with the refunds)."""
    reg = edition.regulations
    if closing_of(edition) is not None:
        raise ServiceError(_("The entries are already closed."))
    if now < end_of_day(reg.entry.deadline, reg):  # I12: the deadline is the end of that day
        raise ServiceError(
            _("The entries close after the deadline, the end of %(date)s (R3.2).")
            % {"date": l10n.show_date(reg.entry.deadline)}
        )
    teams = [t for t in edition_teams(edition) if not t.team.late_entry]
    outcome = rules.close_entries(
        {t.id: conditions_of(t.team, t.pairs) for t in teams},
        reg,
        fees_due={t.id: t.fee.amount for t in teams if t.fee is not None},
    )
    names = {t.id: t.name for t in teams}
    accepted = set(outcome.accepted)
    with transaction.atomic():
        Edition.objects.select_for_update().filter(pk=edition.pk).first()  # one closing at a time
        if EntriesClosing.objects.filter(edition=edition).exists():
            raise ServiceError(_("The entries are already closed."))
        move_stage(
            edition=edition,
            to=EditionStage.CANCELLED if outcome.cancelled else EditionStage.ENTRIES_CLOSED,
            user=user,
            at=now,
        )
        for info in teams:
            info.team.accepted = info.id in accepted
        Team.objects.bulk_update([t.team for t in teams], ["accepted"])
        closing = EntriesClosing.objects.create(
            edition=edition,
            closed_at=now,
            closed_by=user if getattr(user, "is_authenticated", False) else None,
            cancelled=outcome.cancelled,
            reason=outcome.reason,
            refunds=[
                {
                    "team": r.team,
                    "name": names.get(int(r.team), str(r.team)),
                    "amount": r.amount,
                    "currency": r.currency,
                }
                for r in outcome.refunds
            ],
        )
        record(
            "bridgeko.entries.closed",
            user=user,
            edition=edition,
            obj=closing,
            after={
                "accepted": [names[int(t)] for t in outcome.accepted],
                "not_accepted": {
                    names[int(t)]: [str(p) for p in outcome.results[t].problems]
                    for t in outcome.not_accepted
                },
                "cancelled": outcome.cancelled,
                "refunds": closing.refunds,
            },
            summary=outcome.detail,
            at=now,
        )
    return closing


LATE_ACCEPTED = N_("Late entry of %(team)s accepted: %(reason)s")
LATE_REFUSED = N_("Late entry of %(team)s refused: %(reason)s")


def decide_late_entry(*, team: Team, accept: bool, reason: str, user: Any, now: datetime) -> Team:
    """The organiser's decision on a late entry (entered after the closing, so not "entered" by
    I11 until the organiser says so): accepted, the team is drawn with the others — only while
    the draw has not been made; refused, it takes no part. Once, with a reason, audited."""
    if not team.late_entry:
        raise ServiceError(_("This team did not enter late; the closing of entries decided it."))
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("The decision needs a reason."), field="reason")
    edition = team.edition
    too_late = ServiceError(
        _("The draw has been made: a late entry can no longer be drawn, only refused.")
    )
    if accept and draw_held(edition):
        raise too_late
    with transaction.atomic():
        if accept and draw_held(edition, lock=True):  # under the edition's lock, as the draw
            raise too_late
        locked = Team.objects.select_for_update().get(pk=team.pk)
        if locked.accepted is not None:
            raise ServiceError(_("The late entry has already been decided."))
        locked.accepted = accept
        locked.save(update_fields=["accepted"])
        record(
            "bridgeko.entries.late_decided",
            user=user,
            edition=edition,
            obj=locked,
            before={"accepted": None},
            after={"accepted": accept, "reason": reason},
            summary=Message(
                LATE_ACCEPTED if accept else LATE_REFUSED, {"team": locked.name, "reason": reason}
            ),
            at=now,
        )
    team.accepted = accept
    return team


def reopen_entries(*, edition: Edition, reason: str, user: Any, now: datetime) -> None:
    """Undoes the closing (the chief TD, with a reason) while no draw has been made (the
    edition's stage says so: this app never asks the draw app)."""
    closing = closing_of(edition)
    if closing is None:
        raise ServiceError(_("The entries are not closed."))
    if not reason.strip():
        raise ServiceError(_("Reopening the entries needs a reason."), field="reason")
    held = ServiceError(_("The draw has been made; the entries cannot be reopened."))
    if draw_held(edition):
        raise held
    with transaction.atomic():
        # under the lock of the edition, which holding the draw takes too (it moves the stage):
        # a draw held or a reopening done meanwhile is seen here
        if draw_held(edition, lock=True):
            raise held
        closing = EntriesClosing.objects.filter(pk=closing.pk).first()
        if closing is None:
            raise ServiceError(_("The entries are not closed."))
        record(
            "bridgeko.entries.reopened",
            user=user,
            edition=edition,
            obj=closing,
            before={"reason": closing.reason, "refunds": closing.refunds},
            summary=reason.strip(),
            at=now,
        )
        Team.objects.filter(edition=edition).update(accepted=None)
        closing.delete()
        move_stage(edition=edition, to=EditionStage.ENTRIES_OPEN, user=user, at=now)
