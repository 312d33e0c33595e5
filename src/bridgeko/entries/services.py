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

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from bridgeko.accounts.permissions import is_organiser
from bridgeko.audit.services import record
from bridgeko.competition import entries as rules
from bridgeko.competition import sanctions
from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.schedule import end_of_day
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr
from bridgeko.editions.models import Edition, EditionStage
from bridgeko.editions.services import draw_held, move_stage
from bridgeko.entries.models import EntriesClosing, Pair, RosterEntry, Team
from bridgeko.entries.queries import barred_players, closing_of, conditions_of, edition_teams
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
    frozen = ServiceError(_("After entry only the organiser may change the declared pairs."))
    if team.frozen and not organiser:
        raise frozen
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        if team.frozen and not organiser:  # the entry form was recorded meanwhile
            raise frozen
        if set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True)) != roster:
            raise ServiceError(
                _("The roster was changed meanwhile; check the pairs again."), field="pairs"
            )
        before = _team_state(team)
        old = {
            frozenset((p.player_a_id, p.player_b_id)): p.card_received
            for p in Pair.objects.filter(team=team)
        }
        Pair.objects.filter(team=team).delete()
        created = [
            Pair.objects.create(
                team=team, player_a=a, player_b=b, card_received=old.get(frozenset((a.pk, b.pk)))
            )
            for a, b in pairs
        ]
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
    return team


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
            % {"date": reg.entry.deadline.isoformat()}
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
